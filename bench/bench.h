/*
 * bench.h - what the parts of the benchmark driver share: contenders,
 * tasks, timed cells and results. (peers.h is the interface to the
 * libraries; this file is the driver's own.)
 *
 * Processes. The command a user runs is the parent: it spawns workers,
 * which are the same executable started again with --fork-worker K. Each
 * worker sets up every task (inputs, adapter states, correctness checks)
 * and times the cells that passed, writing one line per measurement on its
 * standard output. The parent runs the forks one after another, then the
 * cold-start processes (--cold ITEM CONTENDER: one operation in a fresh
 * process), and reports medians over all rounds of all forks.
 */
#ifndef TYJSON_BENCH_H
#define TYJSON_BENCH_H

#include "peers.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define MAX_CONT 16
#define MAX_TASKS 256
#define MAX_SAMPLES 64
#define NOTE_MAX 200

/* A library, with what it can do: a DOM (corpus) and/or typed scenarios. */
typedef struct contender {
    const char *name;
    const char *version;
    const bench_adapter *dom;
    bench_typed typed;
    bool has_typed;
} contender;

extern contender conts[MAX_CONT];
extern size_t n_conts;

typedef enum unit {
    UNIT_MBS, /* shown as MB/s (higher is better) */
    UNIT_US,  /* µs per operation */
    UNIT_MS,  /* ms per operation */
} unit;

/* One row of the report: an item (scenario or file) and an operation. */
typedef struct task_info {
    char group[24]; /* kissjson, photoalbum, kudos, boon, json0, corpus */
    char item[64];  /* "simple POJO", "twitter.json" */
    char op[32];    /* "serialize", "deserialize", "deserialize cold", "parse", ... */
    unit unit;
    double bytes;   /* bytes per operation (MB/s); 0 when not meaningful */
    bool cold;      /* measured by --cold processes */
} task_info;

/* A contender's work on a task: run(ctx, iters) does iters operations. */
typedef struct cell_job {
    bool ok;
    char note[NOTE_MAX];
    bool (*run)(void *ctx, long iters);
    void *ctx;
    long fixed_iters; /* > 0: always this many per sample (JSON0 rounds) */
} cell_job;

typedef struct bench_config {
    bool quick;
    int forks;
    int rounds;       /* measured samples per fork */
    int warmup;       /* untimed samples per fork */
    double target;    /* seconds per sample */
    int cold_reps;    /* fresh processes per cold cell */
    const char *only; /* contender names, comma-separated */
    const char *groups;
    const char *results_dir;
    bool no_corpus_default;
    bool synthetic;
    bool list;
} bench_config;

extern bench_config cfg;

/* Set by the worker for the task being set up; the modules call
 * bench_run_task once per task with one job per contender. */
void bench_run_task(const task_info *ti, cell_job *jobs);
bool bench_group_selected(const char *group);
void bench_set_note(char *note, const char *fmt, ...);
void bench_info(const char *key, const char *fmt, ...); /* "I" line for the report */
void bench_mem_line(const char *item, const char *cont, const char *metric, long long bytes);
_Noreturn void bench_fatal(const char *fmt, ...);
double bench_cpu_now(void);
double bench_wall_now(void);
extern volatile uint64_t bench_sink; /* keeps timed results alive */
extern int bench_fork_index;        /* in a worker: 0 for the first fork */

/* bench_scen.c */
void scen_run_all(void);
int scen_cold_main(const char *item, const char *cont);
/* Items measured cold, and the warm task each is checked by. */
extern const char *const scen_cold_items[];
extern const size_t scen_n_cold_items;
bool scen_cold_info(const char *item, task_info *ti, char *warm_item, size_t warm_size);

/* bench_corpus.c */
bool corpus_add_path(const char *path);
void corpus_add_synthetic(void);
size_t corpus_n_files(void);
void corpus_run_all(bool measure_memory);
int corpus_cold_main(const char *file, const char *cont);

/* ----------------------------------------------------------------------------
 * Results (parent)
 * ------------------------------------------------------------------------- */
typedef struct cell_result {
    bool ok;
    char note[NOTE_MAX];
    double samples[MAX_SAMPLES]; /* seconds per operation */
    int n;
    long iters;
    double med, min, max; /* seconds per operation */
    long rss_kib;         /* cold cells: peak resident memory of the process */
} cell_result;

typedef struct task_result {
    task_info info;
    cell_result cell[MAX_CONT];
} task_result;

typedef struct mem_row {
    char item[64];
    char cont[24];
    char metric[24];
    long long bytes;
} mem_row;

typedef struct info_row {
    char key[48];
    char value[256];
} info_row;

typedef struct run_results {
    task_result tasks[MAX_TASKS];
    size_t n_tasks;
    mem_row *mem;
    size_t n_mem;
    info_row info[128];
    size_t n_info;
    long base_rss_kib;     /* a fresh process that only generated its inputs */
    double total_seconds;
    char stamp[32];        /* UTC, for file names */
    char date[32];
} run_results;

/* bench_report.c */
void report_terminal(const run_results *rr);
void report_files(const run_results *rr, const char *dir);
void report_machine(FILE *fp, bool markdown);

#endif /* TYJSON_BENCH_H */
