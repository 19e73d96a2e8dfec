/*
 * bench.c - tyjson against its peers: the scenarios of SCENARIOS.md (typed
 * structs, generated inputs) and a corpus of JSON files (DOM parse, walk,
 * write), with checks before timing, several processes, and reports.
 *
 *   tyjson_bench [--quick] [--only a,b] [--groups g,h] [--results DIR]
 *                [--forks N] [--rounds N] [--synthetic] [FILE|DIR]...
 *
 * The process structure is described in bench.h; the method and the
 * output in docs/benchmarks.md. After the forks, the AVX2 pass: as many
 * workers again (--avx2-worker K), started with TYJSON_SIMD=avx2 and
 * SIMDJSON_FORCE_IMPLEMENTATION=haswell, time the corpus parses alone (the
 * group "corpus-avx2"), so that both libraries' AVX2 kernels are compared
 * on a machine whose best kernel is another.
 */
#define _POSIX_C_SOURCE 200809L

#include "bench.h"

#include <tyjson.h>

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef BENCH_SKIPPED
#  define BENCH_SKIPPED ""
#endif

bench_config cfg;
contender conts[MAX_CONT];
size_t n_conts;
volatile uint64_t bench_sink;
int bench_fork_index;

/* ----------------------------------------------------------------------------
 * MARK: - Contenders
 * ------------------------------------------------------------------------- */
typedef struct built_in {
    const bench_adapter *dom;
    void (*typed)(bench_typed *t);
} built_in;

static const built_in built[] = {
    {&bench_adapter_tyjson, bench_typed_tyjson},
#ifdef BENCH_HAVE_YYJSON
    {&bench_adapter_yyjson, bench_typed_yyjson},
#endif
#ifdef BENCH_HAVE_SIMDJSON
    {&bench_adapter_simdjson, bench_typed_simdjson},
#endif
#ifdef BENCH_HAVE_RAPIDJSON
    {&bench_adapter_rapidjson, bench_typed_rapidjson},
#endif
#ifdef BENCH_HAVE_CJSON
    {&bench_adapter_cjson, bench_typed_cjson},
#endif
#ifdef BENCH_HAVE_JANSSON
    {&bench_adapter_jansson, bench_typed_jansson},
#endif
#ifdef BENCH_HAVE_JSONC
    {&bench_adapter_jsonc, bench_typed_jsonc},
#endif
#ifdef BENCH_HAVE_YAJL
    {&bench_adapter_yajl, bench_typed_yajl},
#endif
    {NULL, bench_typed_handwritten}, /* typed only: named by its typed adapter */
    {NULL, bench_typed_tyjson_writer}, /* JSON0 only: tyjson's streaming writer */
};
#define N_BUILT (sizeof(built) / sizeof(built[0]))

static bool in_list(const char *list, const char *name) {
    size_t n = strlen(name);
    const char *p = list;
    while ((p = strstr(p, name))) {
        bool start = p == list || p[-1] == ',';
        bool end = p[n] == '\0' || p[n] == ',';
        if (start && end) return true;
        p += n;
    }
    return false;
}

static void setup_contenders(void) {
    size_t i;
    for (i = 0; i < N_BUILT && n_conts < MAX_CONT; i++) {
        contender *c = &conts[n_conts];
        memset(c, 0, sizeof(*c));
        built[i].typed(&c->typed);
        c->name = built[i].dom ? built[i].dom->name : c->typed.name;
        if (cfg.only && !in_list(cfg.only, c->name)) continue;
        c->version = built[i].dom ? built[i].dom->version : "";
        c->dom = built[i].dom;
        c->has_typed = c->typed.create != NULL;
        n_conts++;
    }
}

bool bench_group_selected(const char *group) { return !cfg.groups || in_list(cfg.groups, group); }

/* ----------------------------------------------------------------------------
 * MARK: - Small helpers
 * ------------------------------------------------------------------------- */
_Noreturn void bench_fatal(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("tyjson_bench: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

void bench_set_note(char *note, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(note, NOTE_MAX, fmt, ap);
    va_end(ap);
}

void bench_set_na(char *note, const char *fmt, ...) {
    va_list ap;
    note[0] = BENCH_NA_MARK;
    va_start(ap, fmt);
    vsnprintf(note + 1, NOTE_MAX - 1, fmt, ap);
    va_end(ap);
}

double bench_cpu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double bench_wall_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Tabs and newlines would break the line protocol. */
static void put_field(const char *s) {
    for (; *s; s++) putchar(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s);
}

void bench_info(const char *key, const char *fmt, ...) {
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    fputs("I\t", stdout);
    put_field(key);
    putchar('\t');
    put_field(buf);
    putchar('\n');
}

void bench_mem_line(const char *item, const char *cont, const char *metric, long long bytes) {
    fputs("M\t", stdout);
    put_field(item);
    printf("\t%s\t%s\t%lld\n", cont, metric, bytes);
}

/* ----------------------------------------------------------------------------
 * MARK: - Worker: timing one task
 * ------------------------------------------------------------------------- */
static int task_counter; /* the AVX2 workers start at --task-base */

/* Rows whose work runs on other threads too (task_info.wall) are timed by
 * the clock on the wall; the others by this thread's CPU time. */
static bool timing_wall;

static double time_job(cell_job *j, long iters) {
    double (*now)(void) = timing_wall ? bench_wall_now : bench_cpu_now;
    double t0 = now();
    if (!j->run(j->ctx, iters)) return -1.0;
    return now() - t0;
}

void bench_run_task(const task_info *ti, cell_job *jobs) {
    int id = task_counter++, r;
    long iters[MAX_CONT];
    size_t c, live[MAX_CONT], n_live = 0;

    printf("T\t%d\t%s\t%s\t%s\t%d\t%.17g\t%d\n", id, ti->group, ti->item, ti->op, (int)ti->unit, ti->bytes,
           (int)ti->cold);
    for (c = 0; c < n_conts; c++) {
        if (jobs[c].ok) continue;
        printf("N\t%d\t%zu\t", id, c);
        put_field(jobs[c].note[0] ? jobs[c].note : "n/a");
        putchar('\n');
    }
    if (ti->cold) return;
    timing_wall = ti->wall;

    for (c = 0; c < n_conts; c++) {
        cell_job *j = &jobs[c];
        double t1;
        int w;
        if (!j->ok) continue;
        if (j->fixed_iters > 0) {
            iters[c] = j->fixed_iters;
        } else {
            /* one warm-up operation, then one timed to size a sample */
            t1 = time_job(j, 1);
            if (t1 >= 0) t1 = time_job(j, 1);
            if (t1 < 0) {
                printf("N\t%d\t%zu\tfailed during warm-up\n", id, c);
                j->ok = false;
                continue;
            }
            if (t1 < 1e-8) t1 = 1e-8;
            iters[c] = (long)(cfg.target / t1);
            if (iters[c] < 1) iters[c] = 1;
        }
        for (w = 0; w < cfg.warmup && j->fixed_iters <= 0; w++)
            if (time_job(j, iters[c]) < 0) break;
        live[n_live++] = c;
    }
    for (r = 0; r < cfg.rounds; r++) {
        size_t k;
        for (k = 0; k < n_live; k++) {
            /* rotate who goes first so that no one always follows the same peer */
            size_t ci = live[(k + (size_t)r) % n_live];
            double t;
            if (!jobs[ci].ok) continue;
            t = time_job(&jobs[ci], iters[ci]);
            if (t < 0) {
                printf("N\t%d\t%zu\tfailed while timed\n", id, ci);
                jobs[ci].ok = false;
                continue;
            }
            if (t < 1e-9) t = 1e-9;
            printf("S\t%d\t%zu\t%.9g\t%ld\n", id, ci, t / (double)iters[ci], iters[ci]);
        }
    }
    fflush(stdout);
}

/* Which kernel simdjson runs in this process ("-" without simdjson). */
static const char *simdjson_kernel(void) {
#ifdef BENCH_HAVE_SIMDJSON
    return bench_simdjson_kernel();
#else
    return "-";
#endif
}

static int worker_main(int fork_index, bool avx2) {
    bench_fork_index = fork_index;
    if (avx2) {
        const char *ty = getenv("TYJSON_SIMD");
        fprintf(stderr, "  AVX2 pass, fork %d/%d:\n", fork_index + 1, cfg.forks);
        bench_corpus_avx2 = true;
        if (fork_index == 0)
            bench_info("AVX2 pass kernels", "simdjson %s (SIMDJSON_FORCE_IMPLEMENTATION=%s), tyjson TYJSON_SIMD=%s",
                       simdjson_kernel(), getenv("SIMDJSON_FORCE_IMPLEMENTATION"), ty ? ty : "");
        corpus_run_all(false);
        fflush(stdout);
        return 0;
    }
    fprintf(stderr, "  fork %d/%d:\n", fork_index + 1, cfg.forks);
    scen_run_all();
    corpus_run_all(fork_index == 0);
    ndjson_run_all();
    reader_run_all();
    fflush(stdout);
    return 0;
}

/* ----------------------------------------------------------------------------
 * MARK: - Parent: processes and results
 * ------------------------------------------------------------------------- */
static run_results rr;
static char **self_argv;
static int self_argc;

static void add_info(const char *key, const char *value) {
    if (rr.n_info >= sizeof(rr.info) / sizeof(rr.info[0])) return;
    snprintf(rr.info[rr.n_info].key, sizeof(rr.info[0].key), "%s", key);
    snprintf(rr.info[rr.n_info].value, sizeof(rr.info[0].value), "%s", value);
    rr.n_info++;
}

static void add_mem_row(const char *group, const char *item, const char *op, const char *cont, const char *metric,
                        double value) {
    static size_t cap;
    mem_row *r;
    if (rr.n_mem == cap) {
        cap = cap ? cap * 2 : 256;
        rr.mem = realloc(rr.mem, cap * sizeof(mem_row));
        if (!rr.mem) bench_fatal("out of memory");
    }
    r = &rr.mem[rr.n_mem++];
    snprintf(r->group, sizeof(r->group), "%s", group);
    snprintf(r->item, sizeof(r->item), "%s", item);
    snprintf(r->op, sizeof(r->op), "%s", op);
    snprintf(r->cont, sizeof(r->cont), "%s", cont);
    snprintf(r->metric, sizeof(r->metric), "%s", metric);
    r->value = value;
    r->bytes = (long long)(value < 0 ? value - 0.5 : value + 0.5);
}

/* A corpus row: what parsing the file `item` took. */
static void add_mem(const char *item, const char *cont, const char *metric, long long bytes) {
    add_mem_row("corpus", item, "parse", cont, metric, (double)bytes);
}

static void add_sample(cell_result *cr, double sec, long iters) {
    if (cr->n < MAX_SAMPLES) cr->samples[cr->n++] = sec;
    cr->iters = iters;
}

/* Splits a line at tabs in place; returns the number of fields. */
static int split(char *line, char **f, int max) {
    int n = 0;
    line[strcspn(line, "\n")] = '\0';
    f[n++] = line;
    while (n < max && (line = strchr(line, '\t'))) {
        *line++ = '\0';
        f[n++] = line;
    }
    return n;
}

/* Runs `exe` (NULL: this executable) with this process's arguments and
 * extra ones; feeds each output line to `on_line`. Returns the exit status
 * (or -1). */
static int spawn_exe(const char *exe, const char *const *extra, int n_extra,
                     void (*on_line)(char **f, int n, void *ctx), void *ctx) {
    int fds[2], status = -1, i;
    pid_t pid;
    FILE *fp;
    char *line = NULL;
    size_t cap = 0;
    if (pipe(fds) != 0) bench_fatal("pipe: %s", strerror(errno));
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid < 0) bench_fatal("fork: %s", strerror(errno));
    if (pid == 0) {
        char **args = calloc((size_t)(self_argc + n_extra + 1), sizeof(char *));
        if (!args) _exit(2);
        for (i = 0; i < self_argc; i++) args[i] = self_argv[i];
        for (i = 0; i < n_extra; i++) args[self_argc + i] = (char *)(uintptr_t)extra[i];
        close(fds[0]);
        if (dup2(fds[1], STDOUT_FILENO) < 0) _exit(2);
        close(fds[1]);
        if (exe) {
            execv(exe, args);
            _exit(127);
        }
        execv("/proc/self/exe", args);
        execvp(self_argv[0], args);
        _exit(127);
    }
    close(fds[1]);
    fp = fdopen(fds[0], "r");
    if (!fp) bench_fatal("fdopen: %s", strerror(errno));
    while (getline(&line, &cap, fp) > 0) {
        char *f[8] = {0};
        int n = split(line, f, 8);
        on_line(f, n, ctx);
    }
    free(line);
    fclose(fp);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int spawn(const char *const *extra, int n_extra, void (*on_line)(char **f, int n, void *ctx), void *ctx) {
    return spawn_exe(NULL, extra, n_extra, on_line, ctx);
}

typedef struct fork_ctx {
    int fork_index;
    bool avx2; /* the AVX2 pass: its timings and kernel note, no memory rows */
} fork_ctx;

static void on_fork_line(char **f, int n, void *ctx) {
    const fork_ctx *fc = ctx;
    int fork_index = fc->avx2 ? -1 : fc->fork_index;
    if (f[0][0] == 'T' && n >= 8) {
        int id = atoi(f[1]);
        task_info *ti;
        if (id < 0 || id >= MAX_TASKS) return;
        if ((size_t)id >= rr.n_tasks) rr.n_tasks = (size_t)id + 1;
        ti = &rr.tasks[id].info;
        snprintf(ti->group, sizeof(ti->group), "%s", f[2]);
        snprintf(ti->item, sizeof(ti->item), "%s", f[3]);
        snprintf(ti->op, sizeof(ti->op), "%s", f[4]);
        ti->unit = (unit)atoi(f[5]);
        ti->bytes = strtod(f[6], NULL);
        ti->cold = atoi(f[7]) != 0;
    } else if (f[0][0] == 'N' && n >= 4) {
        int id = atoi(f[1]), c = atoi(f[2]);
        if (id >= 0 && id < MAX_TASKS && c >= 0 && c < MAX_CONT && !rr.tasks[id].cell[c].note[0])
            snprintf(rr.tasks[id].cell[c].note, NOTE_MAX, "%s", f[3]);
    } else if (f[0][0] == 'S' && n >= 5) {
        int id = atoi(f[1]), c = atoi(f[2]);
        if (id >= 0 && id < MAX_TASKS && c >= 0 && c < MAX_CONT)
            add_sample(&rr.tasks[id].cell[c], strtod(f[3], NULL), atol(f[4]));
    } else if (f[0][0] == 'M' && n >= 5 && fork_index == 0) {
        add_mem(f[1], f[2], f[3], atoll(f[4]));
    } else if (f[0][0] == 'I' && n >= 3 && fc->fork_index == 0) {
        if (!fc->avx2 || strncmp(f[1], "AVX2 pass", 9) == 0) add_info(f[1], f[2]);
    }
}

typedef struct cold_out {
    double sec;
    long rss;
    bool have_sec, have_rss;
} cold_out;

static void on_cold_line(char **f, int n, void *ctx) {
    cold_out *o = ctx;
    if (f[0][0] == 'S' && n >= 2) {
        o->sec = strtod(f[1], NULL);
        o->have_sec = true;
    } else if (f[0][0] == 'R' && n >= 2) {
        o->rss = atol(f[1]);
        o->have_rss = true;
    }
}

static int find_task(const char *group, const char *item, const char *op) {
    size_t t;
    for (t = 0; t < rr.n_tasks; t++)
        if (strcmp(rr.tasks[t].info.group, group) == 0 && strcmp(rr.tasks[t].info.item, item) == 0 &&
            strcmp(rr.tasks[t].info.op, op) == 0)
            return (int)t;
    return -1;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void finish_cells(void) {
    size_t t, c;
    for (t = 0; t < rr.n_tasks; t++)
        for (c = 0; c < n_conts; c++) {
            cell_result *cr = &rr.tasks[t].cell[c];
            if (cr->note[0] == BENCH_NA_MARK) {
                cr->unsupported = true;
                memmove(cr->note, cr->note + 1, NOTE_MAX - 1);
            }
            if (cr->note[0] || cr->n == 0) {
                cr->ok = false;
                if (!cr->note[0]) snprintf(cr->note, NOTE_MAX, "not measured");
                continue;
            }
            qsort(cr->samples, (size_t)cr->n, sizeof(double), cmp_double);
            cr->ok = true;
            cr->min = cr->samples[0];
            cr->max = cr->samples[cr->n - 1];
            cr->med = cr->n % 2 ? cr->samples[cr->n / 2]
                                : (cr->samples[cr->n / 2 - 1] + cr->samples[cr->n / 2]) / 2;
        }
}

static void run_cold(void) {
    size_t i, c;
    int rep;
    for (i = 0; i < scen_n_cold_items; i++) {
        task_info ti;
        char warm_item[64];
        int warm, id;
        char key[24];
        if (!scen_cold_info(i, &ti, warm_item, sizeof(warm_item))) continue;
        if (!bench_group_selected(ti.group) || rr.n_tasks >= MAX_TASKS) continue;
        warm = find_task(ti.group, warm_item, "deserialize");
        id = find_task(ti.group, ti.item, ti.op);
        if (id < 0) {
            id = (int)rr.n_tasks++;
            rr.tasks[id].info = ti;
        }
        snprintf(key, sizeof(key), "%zu", i);
        fprintf(stderr, "  cold: %s %s\n", ti.group, ti.item);
        for (c = 0; c < n_conts; c++) {
            cell_result *cr = &rr.tasks[id].cell[c];
            if (warm < 0) {
                snprintf(cr->note, NOTE_MAX, "no warm task to check it");
                continue;
            }
            if (rr.tasks[warm].cell[c].note[0]) {
                memmove(cr->note, rr.tasks[warm].cell[c].note, NOTE_MAX);
                cr->note[NOTE_MAX - 1] = 0;
                continue;
            }
            for (rep = 0; rep < cfg.cold_reps; rep++) {
                const char *extra[3] = {"--cold", key, conts[c].name};
                cold_out o = {0};
                int rc = spawn(extra, 3, on_cold_line, &o);
                if (rc != 0 || !o.have_sec) {
                    snprintf(cr->note, NOTE_MAX, "cold process failed (exit %d)", rc);
                    break;
                }
                add_sample(cr, o.sec, 1);
                if (o.rss > cr->rss_kib) cr->rss_kib = o.rss;
            }
        }
    }
}

/* Peak resident memory of a fresh process that parses one corpus file,
 * and of one that only reads it (the baseline). */
static void run_corpus_rss(void) {
    size_t t, c;
    if (!bench_group_selected("corpus")) return;
    fprintf(stderr, "  peak RSS per process (corpus parse)\n");
    for (t = 0; t < rr.n_tasks; t++) {
        const task_info *ti = &rr.tasks[t].info;
        cold_out o = {0};
        const char *extra[3] = {"--cold-corpus", ti->item, "none"};
        if (strcmp(ti->group, "corpus") != 0 || strcmp(ti->op, "parse") != 0) continue;
        if (spawn(extra, 3, on_cold_line, &o) == 0 && o.have_rss) add_mem(ti->item, "none", "peak_rss_kib", o.rss);
        for (c = 0; c < n_conts; c++) {
            cold_out oc = {0};
            extra[2] = conts[c].name;
            if (rr.tasks[t].cell[c].note[0]) continue;
            if (spawn(extra, 3, on_cold_line, &oc) == 0 && oc.have_rss)
                add_mem(ti->item, conts[c].name, "peak_rss_kib", oc.rss);
        }
    }
}

/* Peak resident memory of tyjson's pull reader over generated documents
 * of growing size (bench_reader.c, --reader-rss BYTES), before and after
 * the read. */
typedef struct rss_out {
    long base, peak;
} rss_out;

static void on_rss_line(char **f, int n, void *ctx) {
    rss_out *o = ctx;
    if (f[0][0] == 'B' && n >= 2) o->base = atol(f[1]);
    else if (f[0][0] == 'R' && n >= 2) o->peak = atol(f[1]);
}

static void run_reader_rss(void) {
    static const unsigned full_mib[] = {1, 100, 1024}, quick_mib[] = {1, 4, 16};
    const unsigned *mib = cfg.quick ? quick_mib : full_mib;
    size_t i;
    if (!bench_group_selected("reader")) return;
    fprintf(stderr, "  peak RSS of the pull reader over generated files\n");
    for (i = 0; i < 3; i++) {
        char bytes[32], item[64];
        const char *extra[2] = {"--reader-rss", bytes};
        rss_out o = {0, 0};
        snprintf(bytes, sizeof(bytes), "%llu", (unsigned long long)mib[i] << 20);
        if (mib[i] >= 1024) snprintf(item, sizeof(item), "generated %u GiB", mib[i] >> 10);
        else snprintf(item, sizeof(item), "generated %u MiB", mib[i]);
        if (spawn(extra, 2, on_rss_line, &o) != 0 || !o.peak) {
            add_info("reader memory", "a --reader-rss process failed");
            continue;
        }
        add_mem_row("reader", item, "FILE* walk", "none", "peak_rss_kib", (double)o.base);
        add_mem_row("reader", item, "FILE* walk", "tyjson", "peak_rss_kib", (double)o.peak);
    }
}

static void baseline_rss(void) {
    const char *extra[3] = {"--cold", "none", "none"};
    cold_out o = {0};
    if (spawn(extra, 3, on_cold_line, &o) == 0 && o.have_rss) rr.base_rss_kib = o.rss;
}

/* ----------------------------------------------------------------------------
 * MARK: - Parent: allocations per operation (tyjson_bench_mem)
 * ------------------------------------------------------------------------- */
static const char *mem_worker; /* --mem-worker NAME */
static bool no_mem;            /* --no-mem */

static void alloc_note(const char *what, const char *how) {
    char buf[256];
    snprintf(buf, sizeof(buf), "%s%s", what, how);
    add_info("allocation counts", buf);
}

typedef struct mem_out {
    size_t cont;
    char why[NOTE_MAX];
} mem_out;

static void on_mem_line(char **f, int n, void *ctx) {
    mem_out *o = ctx;
    if (f[0][0] == 'A' && n >= 7) {
        add_mem_row(f[1], f[2], f[3], f[4], f[5], strtod(f[6], NULL));
    } else if (f[0][0] == 'U' && n >= 2) {
        snprintf(o->why, sizeof(o->why), "%s", f[1]);
    } else if (f[0][0] == 'E' && n >= 5) { /* worth a note where the timed cell passed */
        int id = find_task(f[1], f[2], f[3]);
        char what[160];
        if (id < 0 || rr.tasks[id].cell[o->cont].note[0] || !rr.tasks[id].cell[o->cont].n) return;
        snprintf(what, sizeof(what), "%s, %s %s %s", conts[o->cont].name, f[1], f[2], f[3]);
        alloc_note(what, ": failed in the memory process");
    }
}

/* tyjson_bench_mem is built next to this executable. */
static bool mem_exe_path(char *path, size_t size) {
    ssize_t n = readlink("/proc/self/exe", path, size - 20);
    char *slash;
    if (n > 0) path[n] = '\0';
    else snprintf(path, size - 20, "%s", self_argv[0]);
    slash = strrchr(path, '/');
    if (!slash) return false;
    snprintf(slash + 1, 20, "tyjson_bench_mem");
    return access(path, X_OK) == 0;
}

/* One memory process per contender, so that a crash loses one column. */
static void run_alloc(void) {
    char exe[4096];
    size_t c;
    if (no_mem) return;
    if (!mem_exe_path(exe, sizeof(exe))) {
        alloc_note(exe, " not found (the CMake target tyjson_bench_mem builds it): skipped");
        return;
    }
    fprintf(stderr, "  allocations per operation (tyjson_bench_mem)\n");
    for (c = 0; c < n_conts; c++) {
        const char *extra[2] = {"--mem-worker", conts[c].name};
        mem_out o;
        int rc;
        char why[64];
        memset(&o, 0, sizeof(o));
        o.cont = c;
        rc = spawn_exe(exe, extra, 2, on_mem_line, &o);
        if (o.why[0]) {
            alloc_note("skipped: ", o.why);
            return;
        }
        snprintf(why, sizeof(why), ": the memory process failed (exit %d), counts missing", rc);
        if (rc != 0) alloc_note(conts[c].name, why);
    }
}

/* A cell of a library that is present and has the operation, but failed its
 * check (a wrong result) or crashed, fails the run, so that CI's quick run
 * catches it; n/a by design (bench_set_na) does not, nor a cell left out
 * (--only, --groups: "not measured"). Every tyjson cell must pass. */
static bool cell_failed(const cell_result *cr, bool is_tyjson) {
    if (cr->ok) return false;
    return is_tyjson || (!cr->unsupported && strcmp(cr->note, "not measured") != 0);
}

static bool wrong_results(void) {
    size_t t, c;
    bool bad = false;
    for (t = 0; t < rr.n_tasks; t++)
        for (c = 0; c < n_conts; c++) {
            const cell_result *cr = &rr.tasks[t].cell[c];
            if (!cell_failed(cr, strcmp(conts[c].name, "tyjson") == 0)) continue;
            fprintf(stderr, "tyjson_bench: %s failed: %s %s %s: %s\n", conts[c].name, rr.tasks[t].info.group,
                    rr.tasks[t].info.item, rr.tasks[t].info.op, cr->note);
            bad = true;
        }
    return bad;
}

/* Sets (value non-NULL) or removes an environment variable; returns its
 * old value (malloc'd) or NULL, for restore_env. */
static char *swap_env(const char *name, const char *value) {
    const char *old = getenv(name);
    char *saved = old ? strdup(old) : NULL;
    if (value) setenv(name, value, 1);
    else unsetenv(name);
    return saved;
}

static void restore_env(const char *name, char *saved) {
    free(swap_env(name, saved));
    free(saved);
}

static bool cpu_has_avx2(void) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    return __builtin_cpu_supports("avx2");
#else
    return false;
#endif
}

/* The AVX2 pass: the corpus parses again in workers whose libraries are
 * forced to their AVX2 kernels. Returns false when a worker failed. */
static bool run_avx2_pass(void) {
    char base[16], idx[16];
    const char *extra[4] = {"--avx2-worker", idx, "--task-base", base};
    char *old_ty, *old_sj;
    bool ok = true;
    int k;
    if (!bench_group_selected("corpus-avx2")) return true;
    if (!cpu_has_avx2()) {
        add_info("AVX2 pass", "skipped: this CPU has no AVX2 (simdjson forced to haswell could not parse)");
        return true;
    }
    snprintf(base, sizeof(base), "%zu", rr.n_tasks);
    old_ty = swap_env("TYJSON_SIMD", "avx2");
    old_sj = swap_env("SIMDJSON_FORCE_IMPLEMENTATION", "haswell");
    for (k = 0; k < cfg.forks; k++) {
        fork_ctx fc = {k, true};
        int rc;
        snprintf(idx, sizeof(idx), "%d", k);
        rc = spawn(extra, 4, on_fork_line, &fc);
        if (rc != 0) {
            fprintf(stderr, "tyjson_bench: AVX2 fork %d exited with status %d\n", k, rc);
            ok = false;
        }
    }
    restore_env("TYJSON_SIMD", old_ty);
    restore_env("SIMDJSON_FORCE_IMPLEMENTATION", old_sj);
    return ok;
}

static int parent_main(void) {
    double start = bench_wall_now();
    bool failed = false;
    time_t now = time(NULL);
    struct tm tmv;
    int k;
    gmtime_r(&now, &tmv);
    strftime(rr.stamp, sizeof(rr.stamp), "%Y%m%d-%H%M%S", &tmv);
    strftime(rr.date, sizeof(rr.date), "%Y-%m-%d %H:%M UTC", &tmv);

    report_machine(stdout, false);
    fprintf(stderr, "tyjson_bench: %d fork(s) x %d round(s), samples of %.0f ms; progress:\n", cfg.forks, cfg.rounds,
            cfg.target * 1e3);
    for (k = 0; k < cfg.forks; k++) {
        char idx[16];
        const char *extra[2] = {"--fork-worker", idx};
        fork_ctx fc = {k, false};
        int rc;
        snprintf(idx, sizeof(idx), "%d", k);
        rc = spawn(extra, 2, on_fork_line, &fc);
        if (rc != 0) {
            fprintf(stderr, "tyjson_bench: fork %d exited with status %d\n", k, rc);
            failed = true;
        }
    }
    if (!run_avx2_pass()) failed = true;
    run_cold();
    run_corpus_rss();
    run_reader_rss();
    baseline_rss();
    run_alloc();
    finish_cells();
    rr.total_seconds = bench_wall_now() - start;
    report_terminal(&rr);
    if (cfg.results_dir) report_files(&rr, cfg.results_dir);
    return wrong_results() || failed ? 1 : 0;
}

/* ----------------------------------------------------------------------------
 * MARK: - Main
 * ------------------------------------------------------------------------- */
static void usage(FILE *fp) {
    fprintf(fp,
            "usage: tyjson_bench [options] [FILE|DIR]...\n"
            "  FILE|DIR        corpus documents (a directory: its *.json files)\n"
            "  --synthetic     also run the corpus part on generated documents\n"
            "                  (the default when no FILE is given)\n"
            "  --quick         one short round of everything, every adapter checked (CI)\n"
            "  --forks N       worker processes, one after another (default 3, quick 1)\n"
            "  --rounds N      measured samples per fork and cell (default 5, quick 1)\n"
            "  --only LIST     contenders, comma-separated (see --list)\n"
            "  --groups LIST   of kissjson,photoalbum,kudos,boon,json0,corpus,validate,extract,\n"
            "                  corpus-avx2 (the AVX2 pass), ndjson, reader\n"
            "  --results DIR   write CSV, JSON, Markdown and SVG there\n"
            "  --no-mem        skip the allocation counts (the tyjson_bench_mem processes)\n"
            "  --list          list the contenders built in and exit\n");
}

static bool avx2_worker; /* --avx2-worker: the fork index is that pass's */
static const char *reader_rss; /* --reader-rss BYTES */

static void parse_args(int argc, char **argv, int *worker, const char **cold, const char **paths, int *n_paths) {
    int i;
    *n_paths = 0;
    cfg.forks = cfg.rounds = -1;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--quick") == 0) cfg.quick = true;
        else if (strcmp(a, "--synthetic") == 0) cfg.synthetic = true;
        else if (strcmp(a, "--list") == 0) cfg.list = true;
        else if (strcmp(a, "--forks") == 0 && i + 1 < argc) cfg.forks = atoi(argv[++i]);
        else if (strcmp(a, "--rounds") == 0 && i + 1 < argc) cfg.rounds = atoi(argv[++i]);
        else if (strcmp(a, "--only") == 0 && i + 1 < argc) cfg.only = argv[++i];
        else if (strcmp(a, "--groups") == 0 && i + 1 < argc) cfg.groups = argv[++i];
        else if ((strcmp(a, "--results") == 0 || strcmp(a, "--csv") == 0) && i + 1 < argc)
            cfg.results_dir = argv[++i];
        else if (strcmp(a, "--fork-worker") == 0 && i + 1 < argc) *worker = atoi(argv[++i]);
        else if (strcmp(a, "--avx2-worker") == 0 && i + 1 < argc) {
            *worker = atoi(argv[++i]);
            avx2_worker = true;
        } else if (strcmp(a, "--task-base") == 0 && i + 1 < argc) task_counter = atoi(argv[++i]);
        else if (strcmp(a, "--mem-worker") == 0 && i + 1 < argc) mem_worker = argv[++i];
        else if (strcmp(a, "--no-mem") == 0) no_mem = true;
        else if (strcmp(a, "--reader-rss") == 0 && i + 1 < argc) reader_rss = argv[++i];
        else if ((strcmp(a, "--cold") == 0 || strcmp(a, "--cold-corpus") == 0) && i + 2 < argc) {
            cold[0] = a;
            cold[1] = argv[++i];
            cold[2] = argv[++i];
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            exit(0);
        } else if (a[0] == '-') {
            usage(stderr);
            exit(2);
        } else {
            paths[(*n_paths)++] = a;
        }
    }
    if (cfg.forks <= 0) cfg.forks = cfg.quick ? 1 : 3;
    if (cfg.rounds <= 0) cfg.rounds = cfg.quick ? 1 : 5;
    if (cfg.forks * cfg.rounds > MAX_SAMPLES) cfg.rounds = MAX_SAMPLES / cfg.forks;
    cfg.warmup = cfg.quick ? 0 : 2;
    cfg.target = cfg.quick ? 0.001 : 0.010;
    cfg.cold_reps = cfg.quick ? 1 : 10;
}

int main(int argc, char **argv) {
    const char **paths = calloc((size_t)argc + 1, sizeof(char *));
    const char *cold[3] = {NULL, NULL, NULL};
    int n_paths, i, worker = -1;
    size_t c;

    if (!paths) bench_fatal("out of memory");
    self_argv = argv;
    self_argc = argc;
    parse_args(argc, argv, &worker, cold, paths, &n_paths);
    setup_contenders();
    if (cfg.list) {
        for (c = 0; c < n_conts; c++)
            printf("%-10s %-8s %s\n           typed: %s\n", conts[c].name, conts[c].version,
                   conts[c].dom ? conts[c].dom->notes : "no DOM side",
                   conts[c].has_typed && conts[c].typed.notes ? conts[c].typed.notes : "none");
        if (BENCH_SKIPPED[0]) printf("not built: %s\n", BENCH_SKIPPED);
        return 0;
    }
    if (!n_conts) bench_fatal("--only selects no contender (try --list)");
    for (i = 0; i < n_paths; i++)
        if (!corpus_add_path(paths[i])) bench_fatal("cannot open %s: %s", paths[i], strerror(errno));
    if (cfg.synthetic || !corpus_n_files()) corpus_add_synthetic();
    corpus_add_generated();
    free(paths);

    if (mem_worker) return mem_worker_main(mem_worker);
    if (bench_alloc_is_mem_binary())
        bench_fatal("tyjson_bench_mem only counts allocations for tyjson_bench (--mem-worker): run tyjson_bench");
    if (reader_rss) return reader_rss_main(reader_rss);
    if (cold[0] && strcmp(cold[0], "--cold") == 0) return scen_cold_main(cold[1], cold[2]);
    if (cold[0]) return corpus_cold_main(cold[1], cold[2]);
    if (worker >= 0) return worker_main(worker, avx2_worker);
    return parent_main() + (bench_sink == 42); /* reads the sink so timed work is kept */
}
