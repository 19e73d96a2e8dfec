/*
 * bench_mem.c - the memory pass: for one contender, the allocations of
 * every typed cell and of every corpus parse, counted by bench_malloc.c in
 * tyjson_bench_mem.
 *
 * An operation is what the timed loop does: decode + release, encode +
 * release, or one JSON0 message written. Per cell:
 *   - one operation on a throwaway state first (not counted), so that what
 *     a library sets up once per process (tyjson's type preparation, a
 *     simdjson kernel choice) is not charged to the cell;
 *   - create: creating the state;
 *   - first: the first operation on that fresh state;
 *   - steady: MEM_STEADY_WARMUP operations more, then the mean of
 *     MEM_STEADY_OPS operations;
 *   - peak: the most bytes live at once, among the blocks requested during
 *     one operation (first, and the largest of the steady ones).
 * Corpus files (DOM adapters): an operation is parse + free_doc, as timed;
 * the library is first warmed up on a small document; first is the first
 * parse on a fresh state, with `held` the bytes live once it returned (the
 * document alive), and steady the next parse on the same state (one only:
 * the large files take a while).
 * Counted: calls of malloc, calloc, realloc, reallocarray, posix_memalign,
 * aligned_alloc, memalign, valloc, pvalloc (C++ operator new included: it
 * calls malloc), and the bytes they asked for (a realloc: what it adds);
 * not what the allocator rounds up to, nor pages (resident memory is
 * measured elsewhere).
 */
#define _POSIX_C_SOURCE 200809L

#include "bench.h"
#include "scenario_types.h"

#include <stdlib.h>
#include <string.h>

#define J0_CAP 65536

typedef struct mem_op {
    const bench_typed *t;
    const scen_cell *cell;
    void *st;
    void *out;
    char *buf; /* JSON0 output */
    uint32_t j0_id;
} mem_op;

static bool one_op(mem_op *x) {
    const scen_cell *c = x->cell;
    bool ok;
    if (c->scen == BS_COUNT) {
        j0_message m = *(const j0_message *)c->in;
        size_t len;
        m.id = x->j0_id++;
        len = x->t->j0_write(x->st, &m, x->buf, J0_CAP);
        bench_sink += len;
        return len > 0;
    }
    if (c->ser) {
        bench_text text;
        ok = x->t->encode[c->scen](x->st, c->in, &text);
        if (ok) bench_sink += text.len;
    } else {
        memset(x->out, 0, c->size);
        ok = x->t->decode[c->scen](x->st, c->text, c->len, x->out);
        if (ok) bench_sink += *(const unsigned char *)x->out;
    }
    x->t->release(x->st);
    return ok;
}

static bool has_hook(const bench_typed *t, const scen_cell *c) {
    if (c->scen == BS_COUNT) return t->j0_write != NULL;
    return c->ser ? t->encode[c->scen] != NULL : t->decode[c->scen] != NULL;
}

static void put_row(const char *group, const char *item, const char *op, const char *cont, const char *metric,
                    double v) {
    printf("A\t%s\t%s\t%s\t%s\t%s\t%.15g\n", group, item, op, cont, metric, v);
}

static void put(const scen_cell *c, const char *cont, const char *metric, double v) {
    put_row(c->group, c->item, c->op, cont, metric, v);
}

/* Counts one cell; false if an operation failed (nothing printed then). */
static bool measure(const contender *co, const scen_cell *c) {
    const bench_typed *t = &co->typed;
    mem_op x;
    bench_alloc_count create, first, steady, before, after;
    int64_t steady_peak = 0;
    bool ok = true;
    int k;

    memset(&x, 0, sizeof(x));
    x.t = t;
    x.cell = c;
    x.out = calloc(1, c->size ? c->size : 1);
    x.buf = malloc(J0_CAP);
    if (!x.out || !x.buf) bench_fatal("out of memory");
    /* once per process: the library's own setup, not the cell's */
    x.st = t->create();
    if (!x.st || !one_op(&x)) ok = false;
    if (x.st) t->destroy(x.st);
    x.j0_id = 0;

    bench_alloc_begin();
    x.st = ok ? t->create() : NULL;
    bench_alloc_end(&create);
    if (!x.st) ok = false;

    if (ok) {
        bench_alloc_begin();
        ok = one_op(&x);
        bench_alloc_end(&first);
    }
    for (k = 0; ok && k < MEM_STEADY_WARMUP; k++) ok = one_op(&x);
    if (ok) {
        bench_alloc_begin();
        for (k = 0; ok && k < MEM_STEADY_OPS; k++) {
            bench_alloc_peek(&before);
            bench_alloc_reset_peak();
            ok = one_op(&x);
            bench_alloc_peek(&after);
            if (after.peak - before.live > steady_peak) steady_peak = after.peak - before.live;
        }
        bench_alloc_end(&steady);
    }
    if (x.st) t->destroy(x.st);
    free(x.out);
    free(x.buf);
    if (!ok) return false;

    put(c, co->name, "alloc_calls_create", (double)create.calls);
    put(c, co->name, "alloc_bytes_create", (double)create.bytes);
    put(c, co->name, "alloc_calls_first", (double)first.calls);
    put(c, co->name, "alloc_bytes_first", (double)first.bytes);
    if (!first.lost) put(c, co->name, "alloc_peak_first", (double)first.peak);
    put(c, co->name, "alloc_calls_steady", (double)steady.calls / MEM_STEADY_OPS);
    put(c, co->name, "alloc_bytes_steady", (double)steady.bytes / MEM_STEADY_OPS);
    if (!steady.lost) put(c, co->name, "alloc_peak_steady", (double)steady_peak);
    return true;
}

/* The library's one-time setup, on a small document (a corpus file may
 * take a while to parse). */
static void dom_warmup(const bench_adapter *a) {
    static const char doc[] = "{\"a\":[1,-2.5e3,\"x\\u00e9\",true,false,null,{}]}";
    void *s = a->create();
    if (s && a->parse(s, doc, sizeof(doc) - 1)) a->free_doc(s);
    if (s) a->destroy(s);
}

/* One corpus file: false if the library could not parse it. */
static bool measure_parse(const contender *co, const char *name, const char *dat, size_t len) {
    const bench_adapter *a = co->dom;
    bench_alloc_count create, held, first, steady;
    void *s;
    bool ok;

    bench_alloc_begin();
    s = a->create();
    bench_alloc_end(&create);
    if (!s) return false;
    bench_alloc_begin();
    ok = a->parse(s, dat, len);
    bench_alloc_peek(&held);
    if (ok) a->free_doc(s);
    bench_alloc_end(&first);
    if (ok) {
        bench_alloc_begin();
        ok = a->parse(s, dat, len);
        if (ok) a->free_doc(s);
        bench_alloc_end(&steady);
    }
    a->destroy(s);
    if (!ok) return false;

    put_row("corpus", name, "parse", co->name, "alloc_calls_create", (double)create.calls);
    put_row("corpus", name, "parse", co->name, "alloc_bytes_create", (double)create.bytes);
    put_row("corpus", name, "parse", co->name, "alloc_calls_first", (double)first.calls);
    put_row("corpus", name, "parse", co->name, "alloc_bytes_first", (double)first.bytes);
    if (!first.lost) {
        put_row("corpus", name, "parse", co->name, "alloc_held_first", (double)held.live);
        put_row("corpus", name, "parse", co->name, "alloc_peak_first", (double)first.peak);
    }
    put_row("corpus", name, "parse", co->name, "alloc_calls_steady", (double)steady.calls);
    put_row("corpus", name, "parse", co->name, "alloc_bytes_steady", (double)steady.bytes);
    if (!steady.lost) put_row("corpus", name, "parse", co->name, "alloc_peak_steady", (double)steady.peak);
    return true;
}

/* The in-situ modes (peers.h), by contender name. */
static const bench_insitu *const insitu_modes[] = {
    &bench_insitu_tyjson,
#ifdef BENCH_HAVE_YYJSON
    &bench_insitu_yyjson,
#endif
};

/* One corpus file parsed in place (the "parse-insitu" rows: a first parse
 * with the bytes its document holds, and a second one), for a contender
 * with an in-situ mode. The buffer is the caller's, allocated and filled
 * outside the counted window; it is copied in again before each parse. Own
 * metric names, so the "parse" rows' tables do not pick them up. */
static void measure_parse_insitu(const contender *co, const char *name, const char *dat, size_t len) {
    const bench_insitu *m = NULL;
    bench_alloc_count held, first, steady;
    size_t i, cap = len + 64;
    char *buf;
    void *doc;
    for (i = 0; i < sizeof(insitu_modes) / sizeof(insitu_modes[0]); i++)
        if (!strcmp(insitu_modes[i]->name, co->name)) m = insitu_modes[i];
    if (!m) return;
    buf = (char *)malloc(cap);
    if (!buf) bench_fatal("out of memory");
    memcpy(buf, dat, len);
    bench_alloc_begin();
    doc = m->parse(buf, len, cap);
    bench_alloc_peek(&held);
    if (doc) m->free_doc(doc);
    bench_alloc_end(&first);
    if (doc) {
        memcpy(buf, dat, len);
        bench_alloc_begin();
        doc = m->parse(buf, len, cap);
        if (doc) m->free_doc(doc);
        bench_alloc_end(&steady);
    }
    free(buf);
    if (!doc) {
        printf("E\tcorpus\t%s\tparse-insitu\toperation failed\n", name);
        return;
    }
    put_row("corpus", name, "parse-insitu", co->name, "insitu_calls_first", (double)first.calls);
    put_row("corpus", name, "parse-insitu", co->name, "insitu_bytes_first", (double)first.bytes);
    if (!first.lost) {
        put_row("corpus", name, "parse-insitu", co->name, "insitu_held_first", (double)held.live);
        put_row("corpus", name, "parse-insitu", co->name, "insitu_peak_first", (double)first.peak);
    }
    put_row("corpus", name, "parse-insitu", co->name, "insitu_calls_steady", (double)steady.calls);
    put_row("corpus", name, "parse-insitu", co->name, "insitu_bytes_steady", (double)steady.bytes);
}

/* A malloc and a free through pointers the compiler cannot see through
 * (it may drop a malloc/free pair it can see). */
static const char *self_test(void) {
    void *(*volatile m)(size_t) = malloc;
    void (*volatile f)(void *) = free;
    bench_alloc_count c;
    void *p;
    bench_alloc_begin();
    p = m(24);
    f(p);
    bench_alloc_end(&c);
    if (c.calls != 1 || c.bytes != 24 || c.frees != 1 || c.peak != 24 || c.live != 0)
        return "malloc is not interposed in tyjson_bench_mem (counted nothing)";
    return NULL;
}

int mem_worker_main(const char *cont) {
    const char *why = bench_alloc_unavailable();
    const contender *co = NULL;
    scen_cell c;
    size_t i, len;
    if (!why) why = self_test();
    if (why) {
        printf("U\t%s\n", why);
        return 0;
    }
    for (i = 0; i < n_conts; i++)
        if (strcmp(conts[i].name, cont) == 0) co = &conts[i];
    if (!co) bench_fatal("--mem-worker: no contender %s", cont);
    for (i = 0; co->has_typed && scen_cell_get(i, false, &c); i++) {
        if (!bench_group_selected(c.group) || !has_hook(&co->typed, &c)) continue;
        scen_cell_get(i, true, &c);
        if (!measure(co, &c)) printf("E\t%s\t%s\t%s\toperation failed\n", c.group, c.item, c.op);
        free(c.text);
        fflush(stdout);
    }
    if (co->dom && bench_group_selected("corpus")) dom_warmup(co->dom);
    for (i = 0; co->dom && bench_group_selected("corpus") && i < corpus_n_files(); i++) {
        const char *dat, *name = corpus_file_load(i, &dat, &len);
        if (!name) continue;
        if (!measure_parse(co, name, dat, len)) printf("E\tcorpus\t%s\tparse\toperation failed\n", name);
        measure_parse_insitu(co, name, dat, len);
        corpus_file_unload(i);
        fflush(stdout);
    }
    return 0;
}
