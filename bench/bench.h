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
 * cold-start processes (--cold K CONTENDER: one operation in a fresh
 * process), then the memory processes (tyjson_bench_mem --mem-worker
 * CONTENDER: allocation counts), and reports medians over all rounds of
 * all forks.
 */
#ifndef TYJSON_BENCH_H
#define TYJSON_BENCH_H

#include "bench_check.h"
#include "peers.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define MAX_CONT 16
#define MAX_TASKS 512
#define MAX_SAMPLES 64
/* NOTE_MAX: bench_check.h */

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
    char group[24]; /* kissjson, photoalbum, kudos, boon, json0, corpus, validate, extract, corpus-avx2, ndjson */
    char item[64];  /* "simple POJO", "twitter.json" */
    char op[32];    /* "serialize", "deserialize", "deserialize cold", "parse", ... */
    unit unit;
    double bytes;   /* bytes per operation (MB/s); 0 when not meaningful */
    bool cold;      /* measured by --cold processes */
    bool wall;      /* timed by the wall clock (work on several threads) */
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
/* Like bench_set_note, for a cell the library cannot do at all (no hook, no
 * pretty writer): n/a by design, not a wrong result. The note starts with
 * BENCH_NA_MARK, which the parent strips (cell_result.unsupported). */
#define BENCH_NA_MARK '\x01'
void bench_set_na(char *note, const char *fmt, ...);
void bench_info(const char *key, const char *fmt, ...); /* "I" line for the report */
void bench_mem_line(const char *item, const char *cont, const char *metric, long long bytes);
_Noreturn void bench_fatal(const char *fmt, ...);
double bench_cpu_now(void);
double bench_wall_now(void);
extern volatile uint64_t bench_sink; /* keeps timed results alive */
extern int bench_fork_index;        /* in a worker: 0 for the first fork */

/* bench_scen.c */
void scen_run_all(void);
/* Cold rows: scen_n_cold_items of them, addressed by index K (a fresh
 * process runs `--cold K CONTENDER`, or `--cold none none` for the
 * baseline). scen_cold_info fills row K's task and names the warm
 * "deserialize" item of the same group that checks it; false past the end. */
int scen_cold_main(const char *key, const char *cont);
extern const size_t scen_n_cold_items;
bool scen_cold_info(size_t k, task_info *ti, char *warm_item, size_t warm_size);

/* bench_ndjson.c: the "ndjson" group */
void ndjson_run_all(void);

/* bench_reader.c: the "reader" group; reader_rss_main is the process
 * `--reader-rss BYTES` (peak RSS of the pull reader over a generated file) */
void reader_run_all(void);
int reader_rss_main(const char *bytes);

/* bench_corpus.c */
bool corpus_add_path(const char *path);
void corpus_add_synthetic(void);
void corpus_add_generated(void); /* scengen's corpus-style documents (scen_doc) */
/* Set in the AVX2 worker: only the parses, as the group "corpus-avx2". */
extern bool bench_corpus_avx2;
size_t corpus_n_files(void);
void corpus_run_all(bool measure_memory);
int corpus_cold_main(const char *file, const char *cont);
/* For the memory pass: file i loaded (its name; NULL past the end or when
 * it cannot be read), and unloaded. */
const char *corpus_file_load(size_t i, const char **dat, size_t *len);
void corpus_file_unload(size_t i);

/* ----------------------------------------------------------------------------
 * Allocation counting: the memory pass (bench_mem.c) runs in
 * tyjson_bench_mem, which is tyjson_bench's objects plus bench_malloc.c
 * interposing malloc and friends. The parent starts it once per contender
 * (--mem-worker NAME); it prints "A group item op contender metric value"
 * lines, "E group item op why" for an operation that failed, or "U why"
 * when it cannot count.
 * ------------------------------------------------------------------------- */
typedef struct bench_alloc_count {
    uint64_t calls;  /* malloc, calloc, realloc, memalign-family calls */
    uint64_t bytes;  /* bytes those calls asked for */
    uint64_t frees;
    int64_t live;    /* bytes of blocks requested in the window and not freed */
    int64_t peak;    /* most of `live` since the window began or the last reset */
    bool lost;       /* too many live blocks to follow: live and peak unknown */
} bench_alloc_count;

/* bench_malloc.c */
bool bench_alloc_is_mem_binary(void);
const char *bench_alloc_unavailable(void); /* NULL when counting works, else why not */
void bench_alloc_begin(void);              /* zero the counts, start counting (this thread) */
void bench_alloc_end(bench_alloc_count *out); /* stop counting */
void bench_alloc_peek(bench_alloc_count *out); /* the counts so far; never allocates */
void bench_alloc_reset_peak(void);         /* peak = live */

/* bench_mem.c */
#define MEM_STEADY_WARMUP 5
#define MEM_STEADY_OPS 20
int mem_worker_main(const char *cont);

/* bench_scen.c, for the memory pass: the typed cells in the order of the
 * timed tasks (each definition's serialize, then its deserialize), then
 * the JSON0 stream (scen BS_COUNT: one message per operation). */
typedef struct scen_cell {
    const char *group, *item, *op; /* the timed task's names */
    bench_scen scen;
    bool ser;
    char *text;      /* decode input when asked for (free it), else NULL */
    size_t len;
    const void *in;  /* encode input (a j0_message for JSON0) */
    size_t size;     /* sizeof the decoded value */
} scen_cell;
bool scen_cell_get(size_t i, bool want_text, scen_cell *out); /* false past the last cell */

/* ----------------------------------------------------------------------------
 * Results (parent)
 * ------------------------------------------------------------------------- */
typedef struct cell_result {
    bool ok;
    bool unsupported; /* not ok by design (bench_set_na), not a failure */
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

/* A memory measurement of a task (corpus: group "corpus", item the file,
 * op "parse"). The steady-state means of the memory pass are fractional. */
typedef struct mem_row {
    char group[24];
    char item[64];
    char op[32];
    char cont[24];
    char metric[24];
    long long bytes; /* value, rounded */
    double value;
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
