/*
 * bench_report.c - what a run shows: terminal tables, and under the
 * results folder a CSV and a JSON of every measurement (with the machine).
 * The Markdown report and the SVG charts are rendered from that JSON by
 * bench/report.py (bench/run.sh calls it); the JSON keeps full precision
 * (median_s, total_seconds) so that the script computes the ratios from the
 * same numbers as the terminal tables.
 *
 * Ratios: in a row, a library's "x tyjson" is its time divided by
 * tyjson's (for MB/s: tyjson's speed over its speed), so above 1 means
 * tyjson is faster. The headline compares tyjson with the fastest peer of
 * each row and with yyjson and simdjson, as geometric means per group.
 */
#define _POSIX_C_SOURCE 200809L

#include "bench.h"

#include <tyjson.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

static const char *const group_order[] = {"kissjson", "photoalbum", "kudos",   "boon",
                                          "json0",    "corpus",     "extract", "corpus-avx2",
                                          "ndjson",   "reader"};
#define N_GROUPS (sizeof(group_order) / sizeof(group_order[0]))

static const char *group_title(const char *g) {
    if (!strcmp(g, "kissjson")) return "KissJson micro-POJOs (a)";
    if (!strcmp(g, "photoalbum")) return "PhotoAlbum, 165 KB POJO graph (b)";
    if (!strcmp(g, "kudos")) return "Kudos (Android): deserialize warm and cold, serialize (c)";
    if (!strcmp(g, "boon")) return "Boon serialize (d)";
    if (!strcmp(g, "json0")) return "JSON0: one round of 1,048,576 messages into one buffer (e)";
    if (!strcmp(g, "corpus")) return "Corpus: DOM parse, walk, write";
    if (!strcmp(g, "extract"))
        return "Extract: id, text, user.screen_name, retweet_count of every status, the rest skipped";
    if (!strcmp(g, "ndjson"))
        return "NDJSON: tweet-like records, one per line, 4 fields of each read";
    if (!strcmp(g, "reader"))
        return "Reader: every token of each file through the library's streaming interface (yyjson: parse + walk)";
    if (!strcmp(g, "corpus-avx2"))
        return "Corpus parse, AVX2 kernels (TYJSON_SIMD=avx2, SIMDJSON_FORCE_IMPLEMENTATION=haswell)";
    return g;
}

static int cont_index(const char *name) {
    size_t c;
    for (c = 0; c < n_conts; c++)
        if (strcmp(conts[c].name, name) == 0) return (int)c;
    return -1;
}

/* Value shown for a cell: MB/s, µs or ms. */
static double shown(const task_info *ti, double sec) {
    switch (ti->unit) {
    case UNIT_MBS: return ti->bytes > 0 ? ti->bytes / sec / 1e6 : 0;
    case UNIT_MS: return sec * 1e3;
    default: return sec * 1e6;
    }
}

static const char *unit_name(unit u) { return u == UNIT_MBS ? "MB/s" : u == UNIT_MS ? "ms" : "us"; }
/* For people (terminal, Markdown, charts); the CSV keeps "us". */
static const char *unit_label(unit u) { return u == UNIT_US ? "\xC2\xB5s" : unit_name(u); }

static void fmt_num(char *buf, size_t size, double v) {
    if (v >= 1000) snprintf(buf, size, "%.0f", v);
    else if (v >= 100) snprintf(buf, size, "%.1f", v);
    else if (v >= 10) snprintf(buf, size, "%.2f", v);
    else snprintf(buf, size, "%.3f", v);
}

/* Index of the fastest cell of a task (any contender, or peers only: the
 * hand-written reference writer is no peer, it has a column of its own). */
static int best_of(const task_result *t, bool peers_only) {
    int ty = cont_index("tyjson"), hw = cont_index("handwritten"), tw = cont_index("tyjson-writer");
    int best = -1;
    size_t c;
    for (c = 0; c < n_conts; c++) {
        if (!t->cell[c].ok || (peers_only && ((int)c == ty || (int)c == hw || (int)c == tw))) continue;
        if (best < 0 || t->cell[c].med < t->cell[best].med) best = (int)c;
    }
    return best;
}

/* Peer's time over tyjson's (> 1: tyjson faster), or 0 when unknown. */
static double speedup(const task_result *t, int peer) {
    int ty = cont_index("tyjson");
    if (ty < 0 || peer < 0 || !t->cell[ty].ok || !t->cell[peer].ok) return 0;
    return t->cell[peer].med / t->cell[ty].med;
}

typedef struct geo {
    double log_sum;
    int n;
} geo;

static void geo_add(geo *g, double v) {
    if (v > 0) {
        g->log_sum += log(v);
        g->n++;
    }
}

static double geo_get(const geo *g) { return g->n ? exp(g->log_sum / g->n) : 0; }

static bool has_group(const run_results *rr, const char *g) {
    size_t t;
    for (t = 0; t < rr->n_tasks; t++)
        if (!strcmp(rr->tasks[t].info.group, g)) return true;
    return false;
}

/* ----------------------------------------------------------------------------
 * MARK: - Machine
 * ------------------------------------------------------------------------- */
static void cpu_info(char *model, size_t msize, char *flags, size_t fsize) {
    static const char *const wanted[] = {"sse4_2", "avx", "avx2", "bmi2", "avx512f", "avx512bw", "avx512vl",
                                         "avx512vbmi", "vpclmulqdq", "pclmulqdq", "neon", "asimd"};
    FILE *fp = fopen("/proc/cpuinfo", "r");
    char line[4096];
    bool got_model = false, got_flags = false;
    snprintf(model, msize, "unknown");
    flags[0] = '\0';
    if (!fp) return;
    while (fgets(line, sizeof(line), fp) && !(got_model && got_flags)) {
        char *colon = strchr(line, ':');
        if (!colon) continue;
        if (!got_model && !strncmp(line, "model name", 10)) {
            snprintf(model, msize, "%s", colon + 2);
            model[strcspn(model, "\n")] = '\0';
            got_model = true;
        } else if (!got_flags && (!strncmp(line, "flags", 5) || !strncmp(line, "Features", 8))) {
            size_t i;
            for (i = 0; i < sizeof(wanted) / sizeof(wanted[0]); i++) {
                char pat[32];
                snprintf(pat, sizeof(pat), " %s ", wanted[i]);
                line[strcspn(line, "\n")] = ' ';
                if (strstr(colon, pat)) {
                    size_t used = strlen(flags);
                    snprintf(flags + used, fsize - used, "%s%s", used ? " " : "", wanted[i]);
                }
            }
            got_flags = true;
        }
    }
    fclose(fp);
}

static const char *compiler(void) {
#if defined(__clang__)
    return "clang " __clang_version__;
#elif defined(__GNUC__)
    return "gcc " __VERSION__;
#else
    return "unknown";
#endif
}

/* simdjson's run-time kernel choice in this process (the forks make the
 * same choice; the AVX2 pass forces haswell), or "-" without simdjson. */
static const char *simdjson_kernel(void) {
#ifdef BENCH_HAVE_SIMDJSON
    return bench_simdjson_kernel();
#else
    return "-";
#endif
}

void report_machine(FILE *fp, bool md) {
    char model[256], flags[256];
    struct utsname u;
    size_t c;
    cpu_info(model, sizeof(model), flags, sizeof(flags));
    if (uname(&u) != 0) memset(&u, 0, sizeof(u));
    fprintf(fp, "%scpu: %s (%ld logical cores; %s)\n", md ? "- " : "", model, sysconf(_SC_NPROCESSORS_ONLN),
            flags[0] ? flags : "no SIMD flags found");
    fprintf(fp, "%scompiler: %s; system: %s %s %s\n", md ? "- " : "", compiler(), u.sysname, u.release, u.machine);
    fprintf(fp, "%smode: %s: %d process(es) x %d sample(s) of >= %.0f ms per cell, %d warm-up sample(s), "
                "thread CPU time, contenders interleaved; cold: %d fresh process(es) per cell\n",
            md ? "- " : "", cfg.quick ? "quick" : "full", cfg.forks, cfg.rounds, cfg.target * 1e3, cfg.warmup,
            cfg.cold_reps);
    fprintf(fp, "%scontenders:", md ? "- " : "");
    for (c = 0; c < n_conts; c++) fprintf(fp, " %s %s%s", conts[c].name, conts[c].version, c + 1 < n_conts ? "," : "");
    fprintf(fp, "\n%ssimdjson kernel: %s (its run-time choice; the AVX2 pass forces haswell)\n", md ? "- " : "",
            simdjson_kernel());
}

/* ----------------------------------------------------------------------------
 * MARK: - Terminal
 * ------------------------------------------------------------------------- */
#define CELL_W 15

static void print_group(const run_results *rr, const char *g) {
    size_t t, c;
    int ty = cont_index("tyjson"), yy = cont_index("yyjson"), sj = cont_index("simdjson");
    bool header = false;
    for (t = 0; t < rr->n_tasks; t++) {
        const task_result *tr = &rr->tasks[t];
        char label[64];
        int best = best_of(tr, false), bp = best_of(tr, true);
        if (strcmp(tr->info.group, g) != 0) continue;
        if (!header) {
            printf("\n== %s: %s per operation, median (min-max below); (x) = its time / tyjson's\n", group_title(g),
                   unit_label(tr->info.unit));
            printf("%-36s", "");
            for (c = 0; c < n_conts; c++) printf(" %*s", CELL_W, conts[c].name);
            printf(" %8s %7s %7s\n", "ty/best", "ty/yy", "ty/sj");
            header = true;
        }
        if (snprintf(label, sizeof(label), "%s %s", tr->info.item, tr->info.op) >= (int)sizeof(label))
            label[sizeof(label) - 1] = 0; /* long labels are cut, as the column is */
        printf("%-36.36s", label);
        for (c = 0; c < n_conts; c++) {
            const cell_result *cr = &tr->cell[c];
            char num[32], cell[48];
            if (!cr->ok) {
                printf(" %*s", CELL_W, "n/a");
                continue;
            }
            fmt_num(num, sizeof(num), shown(&tr->info, cr->med));
            if ((int)c == ty || ty < 0 || !tr->cell[ty].ok)
                snprintf(cell, sizeof(cell), "%s%s", num, (int)c == best ? "*" : "");
            else
                snprintf(cell, sizeof(cell), "%s%s (%.2f)", num, (int)c == best ? "*" : "", speedup(tr, (int)c));
            printf(" %*s", CELL_W, cell);
        }
        {
            double sb = speedup(tr, bp), sy = speedup(tr, yy), ss = speedup(tr, sj);
            if (sb > 0) printf(" %8.2f", sb); else printf(" %8s", "-");
            if (sy > 0) printf(" %7.2f", sy); else printf(" %7s", "-");
            if (ss > 0) printf(" %7.2f", ss); else printf(" %7s", "-");
        }
        printf("\n%-36s", "");
        for (c = 0; c < n_conts; c++) {
            const cell_result *cr = &tr->cell[c];
            char a[32], b[32], cell[64];
            if (!cr->ok || cr->n < 2) {
                printf(" %*s", CELL_W, "");
                continue;
            }
            /* MB/s: the fastest sample is the highest number */
            fmt_num(a, sizeof(a), shown(&tr->info, tr->info.unit == UNIT_MBS ? cr->max : cr->min));
            fmt_num(b, sizeof(b), shown(&tr->info, tr->info.unit == UNIT_MBS ? cr->min : cr->max));
            snprintf(cell, sizeof(cell), "%s-%s", a, b);
            printf(" %*s", CELL_W, cell);
        }
        printf("\n");
    }
    if (!header) return;
    /* n/a reasons, once per contender and reason */
    for (c = 0; c < n_conts; c++) {
        char seen[8][NOTE_MAX];
        int n_seen = 0, k;
        for (t = 0; t < rr->n_tasks; t++) {
            const task_result *tr = &rr->tasks[t];
            const char *note = tr->cell[c].note;
            if (strcmp(tr->info.group, g) != 0 || tr->cell[c].ok || !note[0]) continue;
            for (k = 0; k < n_seen && strcmp(seen[k], note) != 0; k++) {}
            if (k < n_seen) continue;
            if (n_seen < 8) snprintf(seen[n_seen++], NOTE_MAX, "%s", note);
            printf("  n/a %s, %s %s: %s\n", conts[c].name, tr->info.item, tr->info.op, note);
        }
    }
}

static void print_memory(const run_results *rr) {
    size_t m, c;
    bool any = false;
    for (m = 0; m < rr->n_mem; m++)
        any |= !strcmp(rr->mem[m].metric, "peak_rss_kib") && strcmp(rr->mem[m].group, "reader") != 0;
    if (!any) return;
    printf("\n== corpus memory: a parsed document, KiB held (malloc'd during the parse and still live, counted in "
           "tyjson_bench_mem) / peak resident memory of a fresh process that parsed it, MiB above the input "
           "alone\n");
    printf("%-24s", "file");
    for (c = 0; c < n_conts; c++) printf(" %*s", CELL_W, conts[c].name);
    printf("\n");
    for (m = 0; m < rr->n_tasks; m++) { /* one row per corpus file */
        const char *item = rr->tasks[m].info.item;
        size_t k;
        long long base = -1;
        if (strcmp(rr->tasks[m].info.group, "corpus") != 0 || strcmp(rr->tasks[m].info.op, "parse") != 0) continue;
        for (k = 0; k < rr->n_mem; k++)
            if (!strcmp(rr->mem[k].item, item) && !strcmp(rr->mem[k].cont, "none")) base = rr->mem[k].bytes;
        printf("%-24.24s", item);
        for (c = 0; c < n_conts; c++) {
            long long held = -1, rss = -1, counted = -1;
            char cell[48];
            for (k = 0; k < rr->n_mem; k++) {
                const mem_row *r = &rr->mem[k];
                if (strcmp(r->item, item) != 0 || strcmp(r->cont, conts[c].name) != 0) continue;
                /* without the memory pass: what tyjson and the counting allocators say */
                if (!strcmp(r->metric, "doc_mem_size") || (!strcmp(r->metric, "counted_held") && held < 0))
                    held = r->bytes;
                if (!strcmp(r->metric, "alloc_held_first")) counted = r->bytes;
                if (!strcmp(r->metric, "peak_rss_kib")) rss = r->bytes;
            }
            if (counted >= 0) held = counted;
            if (held < 0 && rss < 0) {
                printf(" %*s", CELL_W, "n/a");
                continue;
            }
            snprintf(cell, sizeof(cell), "%s / %s", held >= 0 ? "" : "-", rss >= 0 && base >= 0 ? "" : "-");
            if (held >= 0 && rss >= 0 && base >= 0)
                snprintf(cell, sizeof(cell), "%.0f / %.1f", (double)held / 1024, (double)(rss - base) / 1024);
            else if (held >= 0)
                snprintf(cell, sizeof(cell), "%.0f / -", (double)held / 1024);
            else
                snprintf(cell, sizeof(cell), "- / %.1f", (double)(rss - (base > 0 ? base : 0)) / 1024);
            printf(" %*s", CELL_W, cell);
        }
        printf("\n");
    }
}

/* The reader's peak RSS over generated files (bench_reader.c). */
static void print_reader_memory(const run_results *rr) {
    size_t m, k;
    bool any = false;
    for (m = 0; m < rr->n_mem; m++) any |= !strcmp(rr->mem[m].group, "reader");
    if (!any) return;
    printf("\n== reader memory: peak resident memory (KiB) of a fresh process that read a generated file through "
           "tyjson's pull reader (FILE*, 64 KiB window), and of the same process before the read\n");
    printf("%-24s %12s %12s %12s\n", "file", "before", "after read", "growth");
    for (m = 0; m < rr->n_mem; m++) {
        const mem_row *r = &rr->mem[m];
        long long base = -1;
        if (strcmp(r->group, "reader") != 0 || strcmp(r->cont, "tyjson") != 0) continue;
        for (k = 0; k < rr->n_mem; k++)
            if (!strcmp(rr->mem[k].group, "reader") && !strcmp(rr->mem[k].item, r->item) &&
                !strcmp(rr->mem[k].cont, "none"))
                base = rr->mem[k].bytes;
        printf("%-24.24s %12lld %12lld %12lld\n", r->item, base, r->bytes, base >= 0 ? r->bytes - base : -1);
    }
}

/* The "parse-insitu" rows of the memory pass (bench_mem.c): per corpus
 * file, the bytes a document parsed in the caller's buffer holds, for the
 * contenders that have an in-situ mode. */
static const mem_row *insitu_find(const run_results *rr, const char *item, const char *cont, const char *metric) {
    size_t k;
    for (k = 0; k < rr->n_mem; k++) {
        const mem_row *r = &rr->mem[k];
        if (!strcmp(r->op, "parse-insitu") && !strcmp(r->item, item) && !strcmp(r->cont, cont) &&
            !strcmp(r->metric, metric))
            return r;
    }
    return NULL;
}

static void print_insitu(const run_results *rr) {
    size_t m, c, k;
    bool any = false;
    for (k = 0; k < rr->n_mem; k++) any |= !strcmp(rr->mem[k].op, "parse-insitu");
    if (!any) return;
    printf("\n== corpus memory in situ (parse-insitu): KiB held by a document parsed in the caller's buffer "
           "(the buffer not counted) / allocator calls of the parse; n/a: no in-situ mode\n");
    printf("%-24s", "file");
    for (c = 0; c < n_conts; c++) printf(" %*s", CELL_W, conts[c].name);
    printf("\n");
    for (m = 0; m < rr->n_tasks; m++) {
        const char *item = rr->tasks[m].info.item;
        if (strcmp(rr->tasks[m].info.group, "corpus") != 0 || strcmp(rr->tasks[m].info.op, "parse") != 0) continue;
        printf("%-24.24s", item);
        for (c = 0; c < n_conts; c++) {
            const mem_row *held = insitu_find(rr, item, conts[c].name, "insitu_held_first");
            const mem_row *calls = insitu_find(rr, item, conts[c].name, "insitu_calls_first");
            char cell[48];
            if (!calls) snprintf(cell, sizeof(cell), "n/a");
            else if (!held) snprintf(cell, sizeof(cell), "? / %.0f", calls->value);
            else snprintf(cell, sizeof(cell), "%.0f / %.0f", held->value / 1024, calls->value);
            printf(" %*s", CELL_W, cell);
        }
        printf("\n");
    }
}

/* ----------------------------------------------------------------------------
 * MARK: - Allocations per operation (the memory pass, bench_mem.c)
 * ------------------------------------------------------------------------- */
enum { ALLOC_STEADY, ALLOC_FIRST, ALLOC_PEAK, ALLOC_KINDS };

/* Per kind of table: the two values of a cell. */
static const char *const alloc_metrics[ALLOC_KINDS][2] = {
    {"alloc_calls_steady", "alloc_bytes_steady"},
    {"alloc_calls_first", "alloc_bytes_first"},
    {"alloc_peak_first", "alloc_peak_steady"},
};

static const mem_row *alloc_find(const run_results *rr, const task_info *ti, const char *cont, const char *metric) {
    size_t k;
    for (k = 0; k < rr->n_mem; k++) {
        const mem_row *r = &rr->mem[k];
        if (!strcmp(r->metric, metric) && !strcmp(r->cont, cont) && !strcmp(r->item, ti->item) &&
            !strcmp(r->group, ti->group) && !strcmp(r->op, ti->op))
            return r;
    }
    return NULL;
}

static bool has_alloc(const run_results *rr) {
    size_t k;
    for (k = 0; k < rr->n_mem; k++)
        if (rr->mem[k].group[0] && !strncmp(rr->mem[k].metric, "alloc_", 6)) return true;
    return false;
}

/* The rows: every warm task of the scenarios, and the corpus parses. */
static bool alloc_task(const task_info *ti) {
    /* the validate, extract and AVX2 rows have no memory pass */
    if (!strcmp(ti->group, "validate") || !strcmp(ti->group, "extract") || !strcmp(ti->group, "corpus-avx2") ||
        !strcmp(ti->group, "ndjson") || !strcmp(ti->group, "reader"))
        return false;
    return !ti->cold && (strcmp(ti->group, "corpus") != 0 || strcmp(ti->op, "parse") == 0);
}

static void alloc_label(const task_info *ti, char *buf, size_t size) {
    if (!strcmp(ti->group, "json0")) snprintf(buf, size, "json0 one message serialize");
    else snprintf(buf, size, "%s %s %s", ti->group, ti->item, ti->op);
}

/* Exact below 100,000 (a fractional mean with decimals), else KiB / MiB. */
static void fmt_amount(char *buf, size_t size, double v, bool bytes) {
    if (bytes && v >= 100.0 * 1024 * 1024) snprintf(buf, size, "%.0fM", v / (1024 * 1024));
    else if (bytes && v >= 100000) snprintf(buf, size, "%.0fK", v / 1024);
    else if (v == floor(v)) snprintf(buf, size, "%.0f", v);
    else snprintf(buf, size, v < 10 ? "%.2f" : "%.1f", v);
}

/* "a / b"; "n/a" where the timed cell is n/a; "-" where nothing was
 * counted; "?" for a peak the counter lost track of. */
static void alloc_cell(const run_results *rr, const task_result *tr, size_t c, int kind, char *buf, size_t size) {
    const mem_row *a, *b;
    char x[24], y[24];
    if (!tr->cell[c].ok) {
        snprintf(buf, size, "n/a");
        return;
    }
    a = alloc_find(rr, &tr->info, conts[c].name, alloc_metrics[kind][0]);
    b = alloc_find(rr, &tr->info, conts[c].name, alloc_metrics[kind][1]);
    if (!a && !b && !alloc_find(rr, &tr->info, conts[c].name, "alloc_calls_create")) {
        snprintf(buf, size, "-");
        return;
    }
    if (a) fmt_amount(x, sizeof(x), a->value, kind == ALLOC_PEAK);
    else snprintf(x, sizeof(x), "?");
    if (b) fmt_amount(y, sizeof(y), b->value, true);
    else snprintf(y, sizeof(y), "?");
    snprintf(buf, size, "%s / %s", x, y);
}

static const char *alloc_title(int kind) {
    switch (kind) {
    case ALLOC_STEADY: return "allocations per operation in steady state: calls / bytes requested";
    case ALLOC_FIRST: return "allocations of the first operation on a fresh state: calls / bytes requested";
    default: return "peak bytes live during one operation (blocks it requested): first / steady state";
    }
}

static void print_alloc(const run_results *rr) {
    size_t t, c;
    int kind;
    if (!has_alloc(rr)) return;
    for (kind = 0; kind < ALLOC_KINDS; kind++) {
        printf("\n== %s\n", alloc_title(kind));
        if (kind == ALLOC_STEADY)
            printf("   (malloc-family calls and C++ new, counted in tyjson_bench_mem; bytes as requested, not "
                   "resident; mean of %d operations after %d, corpus: the second parse; K = KiB)\n",
                   MEM_STEADY_OPS, MEM_STEADY_WARMUP);
        printf("%-36s", "");
        for (c = 0; c < n_conts; c++) printf(" %*s", CELL_W, conts[c].name);
        printf("\n");
        for (t = 0; t < rr->n_tasks; t++) {
            const task_result *tr = &rr->tasks[t];
            char label[96], cell[64];
            if (!alloc_task(&tr->info)) continue;
            alloc_label(&tr->info, label, sizeof(label));
            printf("%-36.36s", label);
            for (c = 0; c < n_conts; c++) {
                alloc_cell(rr, tr, c, kind, cell, sizeof(cell));
                printf(" %*s", CELL_W, cell);
            }
            printf("\n");
        }
    }
}

/* The task of `group`, `item`, `op`, or NULL. */
static const task_result *task_of(const run_results *rr, const char *group, const char *item, const char *op) {
    size_t t;
    for (t = 0; t < rr->n_tasks; t++)
        if (!strcmp(rr->tasks[t].info.group, group) && !strcmp(rr->tasks[t].info.item, item) &&
            !strcmp(rr->tasks[t].info.op, op))
            return &rr->tasks[t];
    return NULL;
}

/* The parse row a validate row is compared with: the validate group's own,
 * else the corpus group's (results of older runs). */
static const task_result *validate_parse_row(const run_results *rr, const char *item) {
    const task_result *p = task_of(rr, "validate", item, "parse");
    return p ? p : task_of(rr, "corpus", item, "parse");
}

/* tyjson's parse time over its validate time for a validate row (> 1:
 * validating is faster), or 0 when either is unknown. */
static double validate_gain(const run_results *rr, const task_result *v) {
    int ty = cont_index("tyjson");
    const task_result *p = validate_parse_row(rr, v->info.item);
    if (ty < 0 || !p || !p->cell[ty].ok || !v->cell[ty].ok) return 0;
    return p->cell[ty].med / v->cell[ty].med;
}

/* The MB/s of cell c of row t into buf ("n/a" when not timed). */
static void validate_cell(const task_result *t, int c, char *buf, size_t size) {
    if (t && c >= 0 && t->cell[c].ok) fmt_num(buf, size, shown(&t->info, t->cell[c].med));
    else snprintf(buf, size, "n/a");
}

static void print_ratio(double r) {
    if (r > 0) printf(" %15.2f", r);
    else printf(" %15s", "-");
}

static void print_validate(const run_results *rr) {
    size_t t;
    int ty = cont_index("tyjson"), sj = cont_index("simdjson");
    geo g = {0, 0}, gs = {0, 0};
    bool header = false;
    for (t = 0; t < rr->n_tasks && ty >= 0; t++) {
        const task_result *tr = &rr->tasks[t];
        const task_result *p = validate_parse_row(rr, tr->info.item);
        char v[32], pa[32], sp[32];
        double gain, vs_sj = 0;
        if (strcmp(tr->info.group, "validate") != 0 || strcmp(tr->info.op, "validate") != 0) continue;
        if (!header) {
            printf("\n== Validate only (structure + UTF-8, no document): tyjson_validate vs tyjson's own DOM parse "
                   "and simdjson's DOM parse (no validate-only API), MB/s\n%-36s %15s %15s %15s %15s %15s\n",
                   "", "validate", "parse", "validate/parse", "simdjson parse", "validate/sj");
            header = true;
        }
        gain = validate_gain(rr, tr);
        geo_add(&g, gain);
        if (sj >= 0 && tr->cell[ty].ok && tr->cell[sj].ok) vs_sj = tr->cell[sj].med / tr->cell[ty].med;
        geo_add(&gs, vs_sj);
        validate_cell(tr, ty, v, sizeof(v));
        validate_cell(p, ty, pa, sizeof(pa));
        validate_cell(tr, sj, sp, sizeof(sp));
        printf("%-36.36s %15s %15s", tr->info.item, v, pa);
        print_ratio(gain);
        printf(" %15s", sp);
        print_ratio(vs_sj);
        printf("\n");
    }
    if (g.n || gs.n) {
        printf("%-36s %15s %15s", "geometric mean", "", "");
        print_ratio(g.n ? geo_get(&g) : 0);
        printf(" %15s", "");
        print_ratio(gs.n ? geo_get(&gs) : 0);
        printf("\n");
    }
}

/* One headline line: geometric means over the rows of `group` (of `op`
 * only, when not NULL). */
static void headline_line(const run_results *rr, const char *label, const char *group, const char *op) {
    size_t t;
    int yy = cont_index("yyjson"), sj = cont_index("simdjson");
    geo gb = {0, 0}, gy = {0, 0}, gs = {0, 0};
    int rows = 0, wins = 0;
    char b[16], y[16], s[16];
    for (t = 0; t < rr->n_tasks; t++) {
        const task_result *tr = &rr->tasks[t];
        if (strcmp(tr->info.group, group) != 0 || (op && strcmp(tr->info.op, op) != 0)) continue;
        rows++;
        geo_add(&gb, speedup(tr, best_of(tr, true)));
        geo_add(&gy, speedup(tr, yy));
        geo_add(&gs, speedup(tr, sj));
        if (best_of(tr, false) == cont_index("tyjson")) wins++;
    }
    if (!rows) return;
    snprintf(b, sizeof(b), gb.n ? "%.2f" : "-", geo_get(&gb));
    snprintf(y, sizeof(y), gy.n ? "%.2f" : "-", geo_get(&gy));
    snprintf(s, sizeof(s), gs.n ? "%.2f" : "-", geo_get(&gs));
    printf("%-20s %11s %11s %11s %6d  %d of %d\n", label, b, y, s, rows, wins, rows);
}

static void print_headline(const run_results *rr) {
    size_t g, t;
    geo gv = {0, 0};
    printf("\n== headline: geometric mean per group of (peer's time / tyjson's time): above 1, tyjson is faster\n");
    printf("%-20s %11s %11s %11s %6s  %s\n", "group", "vs best", "vs yyjson", "vs simdjson", "rows", "tyjson wins");
    for (g = 0; g < N_GROUPS; g++) {
        headline_line(rr, group_order[g], group_order[g], NULL);
        /* the DOM parse per kernel choice: what issue 12's targets are about */
        if (!strcmp(group_order[g], "corpus")) headline_line(rr, "corpus parse", "corpus", "parse");
    }
    for (t = 0; t < rr->n_tasks; t++)
        if (!strcmp(rr->tasks[t].info.group, "validate") && !strcmp(rr->tasks[t].info.op, "validate"))
            geo_add(&gv, validate_gain(rr, &rr->tasks[t]));
    if (gv.n) printf("%-20s tyjson validate / tyjson parse speed: %.2f over %d files\n", "validate", geo_get(&gv), gv.n);
}

void report_terminal(const run_results *rr) {
    size_t g, i;
    for (g = 0; g < N_GROUPS; g++)
        if (has_group(rr, group_order[g])) print_group(rr, group_order[g]);
    print_validate(rr);
    print_memory(rr);
    print_reader_memory(rr);
    print_insitu(rr);
    print_alloc(rr);
    print_headline(rr);
    for (i = 0; i < rr->n_info; i++) printf("note: %s: %s\n", rr->info[i].key, rr->info[i].value);
    printf("\ntotal time %.0f s\n", rr->total_seconds);
}

/* ----------------------------------------------------------------------------
 * MARK: - CSV and JSON
 * ------------------------------------------------------------------------- */
static void csv_str(FILE *fp, const char *s) {
    fputc('"', fp);
    for (; *s; s++) {
        if (*s == '"') fputc('"', fp);
        fputc(*s, fp);
    }
    fputc('"', fp);
}

static void json_str(FILE *fp, const char *s) {
    fputc('"', fp);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') fprintf(fp, "\\%c", ch);
        else if (ch < 0x20) fprintf(fp, "\\u%04x", ch);
        else fputc(ch, fp);
    }
    fputc('"', fp);
}

static void write_csv(const run_results *rr, FILE *fp) {
    size_t t, c;
    fprintf(fp, "group,item,op,contender,version,unit,bytes_per_op,samples,iters_per_sample,median_s,min_s,max_s,"
                "median,best,worst,x_tyjson,peak_rss_kib,note\n");
    for (t = 0; t < rr->n_tasks; t++) {
        const task_result *tr = &rr->tasks[t];
        for (c = 0; c < n_conts; c++) {
            const cell_result *cr = &tr->cell[c];
            csv_str(fp, tr->info.group);
            fputc(',', fp);
            csv_str(fp, tr->info.item);
            fprintf(fp, ",%s,%s,%s,%s,%.0f,", tr->info.op, conts[c].name, conts[c].version, unit_name(tr->info.unit),
                    tr->info.bytes);
            if (cr->ok) {
                bool mbs = tr->info.unit == UNIT_MBS;
                double x = speedup(tr, (int)c);
                fprintf(fp, "%d,%ld,%.9g,%.9g,%.9g,%.6g,%.6g,%.6g,", cr->n, cr->iters, cr->med, cr->min, cr->max,
                        shown(&tr->info, cr->med), shown(&tr->info, mbs ? cr->min : cr->min),
                        shown(&tr->info, cr->max));
                if (x > 0) fprintf(fp, "%.4f", x);
                fputc(',', fp);
                if (cr->rss_kib) fprintf(fp, "%ld", cr->rss_kib);
                fputc(',', fp);
            } else {
                fprintf(fp, ",,,,,,,,,,");
            }
            csv_str(fp, cr->ok ? "" : cr->note);
            fputc('\n', fp);
        }
    }
}

static void write_json(const run_results *rr, FILE *fp) {
    char model[256], flags[256];
    struct utsname u;
    size_t t, c, i;
    bool first = true;
    cpu_info(model, sizeof(model), flags, sizeof(flags));
    if (uname(&u) != 0) memset(&u, 0, sizeof(u));
    fprintf(fp, "{\n  \"date\": ");
    json_str(fp, rr->date);
    fprintf(fp, ",\n  \"machine\": {\"cpu\": ");
    json_str(fp, model);
    fprintf(fp, ", \"logical_cores\": %ld, \"cpu_flags\": ", sysconf(_SC_NPROCESSORS_ONLN));
    json_str(fp, flags);
    fprintf(fp, ", \"compiler\": ");
    json_str(fp, compiler());
    fprintf(fp, ", \"system\": ");
    json_str(fp, u.sysname);
    fprintf(fp, ", \"kernel\": ");
    json_str(fp, u.release);
    fprintf(fp, ", \"arch\": ");
    json_str(fp, u.machine);
    fprintf(fp, ", \"simdjson_kernel\": ");
    json_str(fp, simdjson_kernel());
    fprintf(fp, "},\n  \"config\": {\"mode\": \"%s\", \"forks\": %d, \"samples_per_fork\": %d, \"warmup_samples\": %d, "
                "\"sample_seconds\": %g, \"cold_processes\": %d, \"clock\": \"CLOCK_THREAD_CPUTIME_ID\", "
                "\"mem_steady_ops\": %d, \"mem_steady_warmup\": %d},\n",
            cfg.quick ? "quick" : "full", cfg.forks, cfg.rounds, cfg.warmup, cfg.target, cfg.cold_reps, MEM_STEADY_OPS,
            MEM_STEADY_WARMUP);
    fprintf(fp, "  \"contenders\": [");
    for (c = 0; c < n_conts; c++) {
        fprintf(fp, "%s\n    {\"name\": ", c ? "," : "");
        json_str(fp, conts[c].name);
        fprintf(fp, ", \"version\": ");
        json_str(fp, conts[c].version);
        fprintf(fp, ", \"dom\": ");
        json_str(fp, conts[c].dom ? conts[c].dom->notes : "");
        fprintf(fp, ", \"typed\": ");
        json_str(fp, conts[c].has_typed && conts[c].typed.notes ? conts[c].typed.notes : "");
        fprintf(fp, "}");
    }
    fprintf(fp, "\n  ],\n  \"base_rss_kib\": %ld,\n  \"results\": [", rr->base_rss_kib);
    for (t = 0; t < rr->n_tasks; t++) {
        const task_result *tr = &rr->tasks[t];
        for (c = 0; c < n_conts; c++) {
            const cell_result *cr = &tr->cell[c];
            int k;
            fprintf(fp, "%s\n    {\"group\": ", first ? "" : ",");
            first = false;
            json_str(fp, tr->info.group);
            fprintf(fp, ", \"item\": ");
            json_str(fp, tr->info.item);
            fprintf(fp, ", \"op\": ");
            json_str(fp, tr->info.op);
            fprintf(fp, ", \"contender\": ");
            json_str(fp, conts[c].name);
            fprintf(fp, ", \"unit\": \"%s\", \"bytes_per_op\": %.0f, \"cold\": %s, \"ok\": %s", unit_name(tr->info.unit),
                    tr->info.bytes, tr->info.cold ? "true" : "false", cr->ok ? "true" : "false");
            if (cr->ok) {
                double x = speedup(tr, (int)c);
                fprintf(fp, ", \"median_s\": %.17g, \"min_s\": %.9g, \"max_s\": %.9g, \"iters_per_sample\": %ld", cr->med,
                        cr->min, cr->max, cr->iters);
                if (x > 0) fprintf(fp, ", \"x_tyjson\": %.4f", x);
                if (cr->rss_kib) fprintf(fp, ", \"peak_rss_kib\": %ld", cr->rss_kib);
                fprintf(fp, ", \"samples_s\": [");
                for (k = 0; k < cr->n; k++) fprintf(fp, "%s%.9g", k ? ", " : "", cr->samples[k]);
                fprintf(fp, "]");
            } else {
                fprintf(fp, ", \"note\": ");
                json_str(fp, cr->note);
            }
            fprintf(fp, "}");
        }
    }
    fprintf(fp, "\n  ],\n  \"memory\": [");
    for (i = 0; i < rr->n_mem; i++) {
        const mem_row *r = &rr->mem[i];
        fprintf(fp, "%s\n    {", i ? "," : "");
        if (r->group[0]) {
            fprintf(fp, "\"group\": ");
            json_str(fp, r->group);
            fprintf(fp, ", ");
        }
        fprintf(fp, "\"item\": ");
        json_str(fp, r->item);
        if (r->op[0]) {
            fprintf(fp, ", \"op\": ");
            json_str(fp, r->op);
        }
        fprintf(fp, ", \"contender\": ");
        json_str(fp, r->cont);
        fprintf(fp, ", \"metric\": \"%s\", \"value\": %.10g}", r->metric, r->value);
    }
    fprintf(fp, "\n  ],\n  \"notes\": [");
    for (i = 0; i < rr->n_info; i++) {
        fprintf(fp, "%s\n    {\"key\": ", i ? "," : "");
        json_str(fp, rr->info[i].key);
        fprintf(fp, ", \"value\": ");
        json_str(fp, rr->info[i].value);
        fprintf(fp, "}");
    }
    fprintf(fp, "\n  ],\n  \"total_seconds\": %.17g\n}\n", rr->total_seconds);
}

/* Every memory row (corpus and allocations), one per line. */
static void write_mem_csv(const run_results *rr, FILE *fp) {
    size_t i;
    fprintf(fp, "group,item,op,contender,metric,value\n");
    for (i = 0; i < rr->n_mem; i++) {
        const mem_row *r = &rr->mem[i];
        csv_str(fp, r->group);
        fputc(',', fp);
        csv_str(fp, r->item);
        fputc(',', fp);
        csv_str(fp, r->op);
        fputc(',', fp);
        csv_str(fp, r->cont);
        fprintf(fp, ",%s,%.10g\n", r->metric, r->value);
    }
}

/* ----------------------------------------------------------------------------
 * MARK: - Files
 * ------------------------------------------------------------------------- */
static FILE *open_out(const char *dir, const char *stamp, const char *suffix, char *path, size_t size) {
    FILE *fp;
    snprintf(path, size, "%s/bench-%s%s", dir, stamp, suffix);
    fp = fopen(path, "w");
    if (!fp) fprintf(stderr, "tyjson_bench: cannot write %s: %s\n", path, strerror(errno));
    return fp;
}

void report_files(const run_results *rr, const char *dir) {
    char path[1024];
    FILE *fp;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "tyjson_bench: cannot create %s: %s\n", dir, strerror(errno));
        return;
    }
    printf("\n");
    if ((fp = open_out(dir, rr->stamp, ".csv", path, sizeof(path)))) {
        write_csv(rr, fp);
        fclose(fp);
        printf("results: %s\n", path);
    }
    if ((fp = open_out(dir, rr->stamp, ".json", path, sizeof(path)))) {
        write_json(rr, fp);
        fclose(fp);
        printf("results: %s\n", path);
    }
    if (rr->n_mem && (fp = open_out(dir, rr->stamp, "-memory.csv", path, sizeof(path)))) {
        write_mem_csv(rr, fp);
        fclose(fp);
        printf("results: %s\n", path);
    }
}
