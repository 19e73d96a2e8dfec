/*
 * jansson adapter: json_loadb(JSON_DECODE_ANY), json_dumps with
 * JSON_COMPACT (minified) or JSON_INDENT(2) (pretty), both JSON_ENCODE_ANY.
 * Memory is counted through json_set_alloc_funcs (process-wide, put back to
 * malloc/free right after).
 */
#include "../peers.h"

#include <jansson.h>

#include <stdlib.h>
#include <string.h>

typedef struct state {
    json_t *root;
} state;

static void *create(void) { return calloc(1, sizeof(state)); }
static void destroy(void *st) { free(st); }

static bool parse(void *st, const char *dat, size_t len) {
    state *s = st;
    s->root = json_loadb(dat, len, JSON_DECODE_ANY, NULL);
    return s->root != NULL;
}

static void free_doc(void *st) {
    state *s = st;
    json_decref(s->root);
    s->root = NULL;
}

static bool walk_val(json_t *v, bench_stats *out) {
    switch (json_typeof(v)) {
    case JSON_NULL: out->nulls++; return true;
    case JSON_FALSE: out->falses++; return true;
    case JSON_TRUE: out->trues++; return true;
    case JSON_INTEGER:
        out->numbers++;
        out->integers++;
        out->int_sum += (uint64_t)json_integer_value(v);
        out->num_sum += (double)json_integer_value(v);
        return true;
    case JSON_REAL:
        out->numbers++;
        out->reals++;
        out->num_sum += json_real_value(v);
        return true;
    case JSON_STRING:
        out->strings++;
        out->str_bytes += json_string_length(v);
        return true;
    case JSON_ARRAY: {
        size_t i, n = json_array_size(v);
        out->arrays++;
        for (i = 0; i < n; i++)
            if (!walk_val(json_array_get(v, i), out)) return false;
        return true;
    }
    case JSON_OBJECT: {
        void *it;
        out->objects++;
        for (it = json_object_iter(v); it; it = json_object_iter_next(v, it)) {
            out->keys++;
            out->str_bytes += json_object_iter_key_len(it);
            if (!walk_val(json_object_iter_value(it), out)) return false;
        }
        return true;
    }
    default: return false;
    }
}

static bool walk(void *st, bench_stats *out) {
    state *s = st;
    return walk_val(s->root, out);
}

static bool write_text(void *st, bench_write_mode mode, bench_text *out) {
    state *s = st;
    size_t flags = JSON_ENCODE_ANY | (mode == BENCH_WRITE_PRETTY ? JSON_INDENT(2) : JSON_COMPACT);
    char *text = json_dumps(s->root, flags);
    if (!text) return false;
    out->data = text;
    out->len = strlen(text);
    out->priv = text;
    return true;
}

static void free_text(void *st, bench_text *text) {
    (void)st;
    free(text->priv); /* json_dumps allocates with the jansson malloc (libc here) */
}

/* jansson's hooks take no context: the counter is a file-level variable. */
static bench_counter counter;
static void *cnt_malloc(size_t size) { return bench_counter_malloc(&counter, size); }
static void cnt_free(void *ptr) { bench_counter_free(&counter, ptr); }

static bool measure_mem(const char *dat, size_t len, bench_mem *out) {
    json_t *root;
    bool ok = false;
    bench_counter_reset(&counter);
    json_set_alloc_funcs(cnt_malloc, cnt_free);
    root = json_loadb(dat, len, JSON_DECODE_ANY, NULL);
    if (root) {
        out->held = counter.live;
        out->peak = counter.peak;
        out->allocs = counter.allocs;
        json_decref(root);
        ok = counter.live == 0;
    }
    json_set_alloc_funcs(malloc, free);
    return ok;
}

const bench_adapter bench_adapter_jansson = {
    "jansson", JANSSON_VERSION,
    "json_loadb(JSON_DECODE_ANY); json_dumps JSON_COMPACT / JSON_INDENT(2)",
    0, create, destroy, parse, free_doc, walk, write_text, free_text, measure_mem,
};
