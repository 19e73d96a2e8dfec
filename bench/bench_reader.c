/*
 * bench_reader.c - the "reader" group: every token of each corpus file
 * read through each library's streaming interface (adapter reader hook),
 * and the peak memory of tyjson's pull reader over generated documents of
 * growing size.
 *
 * Rows, per corpus file (MB/s of the file):
 *   "walk, memory"        the adapter's reader hook over the bytes in
 *                         memory: tyjson's pull reader (open_buf),
 *                         RapidJSON's SAX Reader, yajl's callbacks, yyjson's
 *                         parse + walk (it has no streaming reader)
 *   "walk, FILE* 64 KiB"  tyjson's pull reader from a FILE* (fmemopen over
 *                         the same bytes, opened in the timed loop), the
 *                         default 64 KiB window
 * Every cell is checked first: its walk statistics (tokens by kind, string
 * bytes, integer sum) must equal those of a walk of tyjson's DOM of the file.
 *
 * Memory: a fresh process (tyjson_bench --reader-rss BYTES) writes a
 * generated document of BYTES to a temporary file in 4 KiB pieces, notes
 * its peak resident memory, reads the file with the pull reader through a
 * FILE* (64 KiB window), notes it again and deletes the file. The parent
 * (bench.c) starts it for 1 MiB, 100 MiB and 1 GiB (--quick: 1, 4, 16 MiB)
 * and reports both figures (mem rows of group "reader").
 */
#define _POSIX_C_SOURCE 200809L

#include "bench.h"

#include <tyjson.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* ----------------------------------------------------------------------------
 * MARK: - Timed rows
 * ------------------------------------------------------------------------- */
typedef enum rd_op { RD_MEMORY, RD_FILE, RD_COUNT } rd_op;

static const char *const rd_op_names[RD_COUNT] = {"walk, memory", "walk, FILE* 64 KiB"};

typedef struct rd_ctx {
    rd_op op;
    const bench_adapter *a;
    void *st;
    tyjson_reader *rd; /* RD_FILE */
    const char *dat;
    size_t len;
} rd_ctx;

static bool rd_once(const rd_ctx *x, bench_stats *out) {
    if (x->op == RD_MEMORY) return x->a->reader(x->st, x->dat, x->len, out);
    /* fmemopen takes a non-const buffer; mode "r" only reads it */
    FILE *fp = fmemopen((void *)(uintptr_t)x->dat, x->len, "r");
    bool ok = fp && tyjson_reader_open_fp(x->rd, fp) == TYJSON_OK && bench_reader_walk(x->rd, out);
    if (fp) fclose(fp);
    return ok;
}

static bool run_rd(void *ctx, long iters) {
    for (long i = 0; i < iters; i++) {
        bench_stats s;
        memset(&s, 0, sizeof(s));
        if (!rd_once((const rd_ctx *)ctx, &s)) return false;
        bench_sink += s.objects + s.str_bytes + s.int_sum;
    }
    return true;
}

static void reader_file(const char *name, const char *dat, size_t len, void **states, tyjson_reader *frd) {
    bench_stats ref;
    uint64_t negz = bench_count_neg_zero_ints(dat, len);
    void *rs = bench_adapter_tyjson.create();
    memset(&ref, 0, sizeof(ref));
    if (!rs) bench_fatal("out of memory");
    if (!bench_adapter_tyjson.parse(rs, dat, len)) { /* the reference: a walk of tyjson's DOM */
        bench_adapter_tyjson.free_doc(rs);
        bench_adapter_tyjson.destroy(rs);
        if (bench_fork_index == 0) bench_info("reader note", "%s: not valid JSON for tyjson, skipped", name);
        return;
    }
    bool have = bench_adapter_tyjson.walk(rs, &ref);
    bench_adapter_tyjson.free_doc(rs);
    bench_adapter_tyjson.destroy(rs);
    if (!have) bench_fatal("reader: tyjson's DOM walk of %s failed", name);
    for (int op = 0; op < RD_COUNT; op++) {
        task_info ti;
        cell_job jobs[MAX_CONT];
        rd_ctx ctx[MAX_CONT];
        memset(&ti, 0, sizeof(ti));
        snprintf(ti.group, sizeof(ti.group), "reader");
        snprintf(ti.item, sizeof(ti.item), "%s", name);
        snprintf(ti.op, sizeof(ti.op), "%s", rd_op_names[op]);
        ti.unit = UNIT_MBS;
        ti.bytes = (double)len;
        memset(jobs, 0, sizeof(jobs));
        for (size_t c = 0; c < n_conts; c++) {
            const bench_adapter *a = conts[c].dom;
            bool is_ty = a == &bench_adapter_tyjson;
            ctx[c].op = (rd_op)op;
            ctx[c].a = a;
            ctx[c].st = NULL;
            ctx[c].rd = frd;
            ctx[c].dat = dat;
            ctx[c].len = len;
            jobs[c].run = run_rd;
            jobs[c].ctx = &ctx[c];
            if (op == RD_FILE && !is_ty) {
                bench_set_na(jobs[c].note, "tyjson's pull reader from a FILE* only");
                continue;
            }
            if (!a) {
                bench_set_na(jobs[c].note, "no DOM side");
                continue;
            }
            if (!a->reader) {
                bench_set_na(jobs[c].note, "no token-level reader in the library (its parser builds a tree)");
                continue;
            }
            if (!states[c] && !(states[c] = a->create())) bench_fatal("%s: cannot create its state", a->name);
            ctx[c].st = states[c];
            bench_stats got;
            char note[NOTE_MAX];
            memset(&got, 0, sizeof(got));
            if (!rd_once(&ctx[c], &got)) {
                bench_set_note(jobs[c].note, "reader walk failed");
            } else if (bench_stats_differ(&got, &ref, (a->caps & BENCH_CAP_LOSSY_NUMBERS) != 0, negz, note)) {
                bench_set_note(jobs[c].note, "%s", note);
            } else {
                jobs[c].ok = true;
            }
        }
        bench_run_task(&ti, jobs);
    }
}

void reader_run_all(void) {
    if (!bench_group_selected("reader")) return;
    void *states[MAX_CONT] = {0};
    tyjson_reader *frd = tyjson_reader_new(NULL, NULL);
    if (!frd) bench_fatal("out of memory");
    for (size_t i = 0; i < corpus_n_files(); i++) {
        const char *dat;
        size_t len;
        const char *name = corpus_file_load(i, &dat, &len);
        if (!name) continue;
        reader_file(name, dat, len, states, frd);
        corpus_file_unload(i);
    }
    for (size_t c = 0; c < n_conts; c++)
        if (states[c]) conts[c].dom->destroy(states[c]);
    tyjson_reader_free(frd);
}

/* ----------------------------------------------------------------------------
 * MARK: - Memory: peak RSS over generated documents (--reader-rss BYTES)
 * ------------------------------------------------------------------------- */
static uint64_t rs_state;

static uint64_t rs_rnd(void) { /* xorshift64*, pinned seed */
    rs_state ^= rs_state >> 12;
    rs_state ^= rs_state << 25;
    rs_state ^= rs_state >> 27;
    return rs_state * 0x2545F4914F6CDD1DULL;
}

/* Record k of the generated document ({"meta":{...},"data":[records]}). */
static int rs_record(char *p, size_t cap, uint64_t k) {
    static const char *const tags[] = {"alpha", "beta", "gamma \\\"quoted\\\"", "caf\xc3\xa9", "\\u00e9t\\u00e9"};
    return snprintf(p, cap,
                    "%s{\"id\":%llu,\"name\":\"record %llu\",\"score\":%u.%03u,\"active\":%s,"
                    "\"tags\":[\"%s\",\"%s\"],\"owner\":{\"uid\":%llu,\"note\":null}}",
                    k ? "," : "", (unsigned long long)k, (unsigned long long)k, (unsigned)(rs_rnd() % 1000),
                    (unsigned)(rs_rnd() % 1000), rs_rnd() % 3 ? "true" : "false", tags[rs_rnd() % 5],
                    tags[rs_rnd() % 5], (unsigned long long)(rs_rnd() % 1000000));
}

static long max_rss_kib(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* Prints "B baseline_kib", "R peak_kib", "S seconds_of_the_read" and
 * "N bytes records"; returns 0, or 1 when something failed. */
int reader_rss_main(const char *bytes_arg) {
    size_t target = (size_t)strtoull(bytes_arg, NULL, 10);
    const char *tmp = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof(path), "%s/tyjson-bench-reader-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0) {
        fprintf(stderr, "tyjson_bench: cannot create %s: %s\n", path, strerror(errno));
        return 1;
    }
    FILE *out = fdopen(fd, "wb");
    if (!out) {
        close(fd);
        unlink(path);
        return 1;
    }
    /* write: the records, in 4 KiB pieces through stdio's buffer */
    char rec[512];
    size_t n = 0;
    uint64_t k = 0;
    rs_state = 0x9E3779B97F4A7C15ULL;
    const char *head = "{\"meta\":{\"generator\":\"tyjson_bench\",\"kind\":\"records\"},\"data\":[";
    n += fwrite(head, 1, strlen(head), out);
    bool wrote = true;
    while (n + 2 < target && wrote) {
        int m = rs_record(rec, sizeof(rec), k++);
        wrote = m > 0 && fwrite(rec, 1, (size_t)m, out) == (size_t)m;
        n += (size_t)m;
    }
    wrote = wrote && fwrite("]}", 1, 2, out) == 2;
    n += 2;
    if (fclose(out) != 0 || !wrote) {
        unlink(path);
        fprintf(stderr, "tyjson_bench: cannot write %s\n", path);
        return 1;
    }
    long base = max_rss_kib();
    /* read: the pull reader through a FILE*, the default 64 KiB window */
    FILE *in = fopen(path, "rb");
    tyjson_reader *r = tyjson_reader_new(NULL, NULL);
    bench_stats st;
    memset(&st, 0, sizeof(st));
    double t0 = bench_wall_now();
    bool ok = in && r && tyjson_reader_open_fp(r, in) == TYJSON_OK && bench_reader_walk(r, &st);
    double t = bench_wall_now() - t0;
    long peak = max_rss_kib();
    tyjson_reader_free(r);
    if (in) fclose(in);
    unlink(path);
    /* each record is 2 objects and 1 array; the document adds 2 objects and 1 array */
    if (!ok || st.objects != 2 * k + 2 || st.arrays != k + 1) {
        fprintf(stderr, "tyjson_bench: the reader's walk of the generated %zu bytes failed\n", n);
        return 1;
    }
    printf("B\t%ld\nR\t%ld\nS\t%.9g\t1\nN\t%zu\t%llu\n", base, peak, t, n, (unsigned long long)k);
    return 0;
}
