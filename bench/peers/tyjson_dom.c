/*
 * tyjson adapter: strict defaults, libc allocation, a new document per parse
 * (tyjson copies the input into the document, so the copy is timed).
 * The walk goes through the public iterators, as a user would, rather than
 * scanning the flat value array.
 */
#include "../peers.h"

#include <tyjson.h>

#include <stdlib.h>

typedef struct state {
    tyjson_doc *doc;
} state;

static void *create(void) { return calloc(1, sizeof(state)); }
static void destroy(void *st) { free(st); }

static bool parse(void *st, const char *dat, size_t len) {
    state *s = st;
    s->doc = tyjson_read_opts(dat, len, NULL, NULL);
    return s->doc != NULL;
}

static void free_doc(void *st) {
    state *s = st;
    tyjson_doc_free(s->doc);
    s->doc = NULL;
}

static void walk_num(const tyjson_val *v, bench_stats *out) {
    out->numbers++;
    if (tyjson_is_real(v)) {
        out->reals++;
        out->num_sum += tyjson_get_real(v);
    } else {
        out->integers++;
        out->int_sum += v->uni.u64; /* uint and sint share the bits */
        out->num_sum += tyjson_get_num(v);
    }
}

static bool walk_val(const tyjson_val *v, bench_stats *out) {
    switch (tyjson_get_type(v)) {
    case TYJSON_TYPE_NULL: out->nulls++; return true;
    case TYJSON_TYPE_BOOL:
        if (tyjson_get_bool(v)) out->trues++; else out->falses++;
        return true;
    case TYJSON_TYPE_NUM: walk_num(v, out); return true;
    case TYJSON_TYPE_STR:
        out->strings++;
        out->str_bytes += tyjson_get_len(v);
        return true;
    case TYJSON_TYPE_ARR: {
        tyjson_arr_iter it = tyjson_arr_iter_with(v);
        const tyjson_val *e;
        out->arrays++;
        while ((e = tyjson_arr_iter_next(&it)))
            if (!walk_val(e, out)) return false;
        return true;
    }
    case TYJSON_TYPE_OBJ: {
        tyjson_obj_iter it = tyjson_obj_iter_with(v);
        tyjson_val *k;
        out->objects++;
        while ((k = tyjson_obj_iter_next(&it))) {
            out->keys++;
            out->str_bytes += tyjson_get_len(k);
            if (!walk_val(tyjson_obj_iter_get_val(k), out)) return false;
        }
        return true;
    }
    default: return false; /* raw numbers are off by default */
    }
}

static bool walk(void *st, bench_stats *out) {
    state *s = st;
    return walk_val(tyjson_doc_get_root(s->doc), out);
}

static bool write_text(void *st, bench_write_mode mode, bench_text *out) {
    state *s = st;
    tyjson_write_options opts = {0};
    size_t len = 0;
    char *text;
    opts.flags = mode == BENCH_WRITE_PRETTY ? TYJSON_WRITE_PRETTY : TYJSON_WRITE_MINIFY;
    opts.indent = 2;
    text = tyjson_write_opts(s->doc, &opts, &len, NULL);
    out->data = text;
    out->len = len;
    out->priv = text;
    return text != NULL;
}

static void free_text(void *st, bench_text *text) {
    (void)st;
    tyjson_free(NULL, text->priv);
}

static void *cnt_malloc(void *ctx, size_t size) { return bench_counter_malloc(ctx, size); }
static void *cnt_realloc(void *ctx, void *ptr, size_t old_size, size_t size) {
    (void)old_size;
    return bench_counter_realloc(ctx, ptr, size);
}
static void cnt_free(void *ctx, void *ptr) { bench_counter_free(ctx, ptr); }

static bool measure_mem(const char *dat, size_t len, bench_mem *out) {
    bench_counter c;
    tyjson_alloc alc;
    tyjson_read_options opts = {0};
    tyjson_doc *doc;
    bench_counter_reset(&c);
    alc.malloc = cnt_malloc;
    alc.realloc = cnt_realloc;
    alc.free = cnt_free;
    alc.ctx = &c;
    opts.alc = &alc;
    doc = tyjson_read_opts(dat, len, &opts, NULL);
    if (!doc) return false;
    out->held = c.live;
    out->peak = c.peak;
    out->allocs = c.allocs;
    tyjson_doc_free(doc);
    return c.live == 0;
}

const bench_adapter bench_adapter_tyjson = {
    "tyjson", TYJSON_VERSION_STRING,
    "strict (flags 0), libc allocator, input copied into the document",
    0, create, destroy, parse, free_doc, walk, write_text, free_text, measure_mem,
};
