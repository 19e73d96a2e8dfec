/*
 * yyjson adapter: yyjson_read_opts without YYJSON_READ_INSITU (yyjson then
 * copies the input, like tyjson), default flags (strict), libc allocation.
 * Pretty output uses YYJSON_WRITE_PRETTY_TWO_SPACES to match tyjson's
 * 2-space indent. Extraction: the same parse, then yyjson_obj_get for each
 * of the four fields of every status.
 */
#include "../peers.h"

#include <yyjson.h>

#include <stdlib.h>
#include <string.h>

typedef struct state {
    yyjson_doc *doc;
    char *nd_buf; /* ndjson: the INSITU copy */
    size_t nd_cap;
} state;

static void *create(void) { return calloc(1, sizeof(state)); }
static void destroy(void *st) {
    if (st) free(((state *)st)->nd_buf);
    free(st);
}

static bool parse(void *st, const char *dat, size_t len) {
    state *s = st;
    /* Without INSITU yyjson only reads dat, whatever the non-const type. */
    s->doc = yyjson_read_opts((char *)(uintptr_t)dat, len, 0, NULL, NULL);
    return s->doc != NULL;
}

static void free_doc(void *st) {
    state *s = st;
    yyjson_doc_free(s->doc);
    s->doc = NULL;
}

static bool walk_val(yyjson_val *v, bench_stats *out) {
    switch (yyjson_get_type(v)) {
    case YYJSON_TYPE_NULL: out->nulls++; return true;
    case YYJSON_TYPE_BOOL:
        if (yyjson_get_bool(v)) out->trues++; else out->falses++;
        return true;
    case YYJSON_TYPE_NUM:
        out->numbers++;
        if (yyjson_is_real(v)) {
            out->reals++;
        } else {
            out->integers++;
            out->int_sum += v->uni.u64; /* uint and sint share the bits */
        }
        out->num_sum += yyjson_get_num(v);
        return true;
    case YYJSON_TYPE_STR:
        out->strings++;
        out->str_bytes += yyjson_get_len(v);
        return true;
    case YYJSON_TYPE_ARR: {
        yyjson_arr_iter it = yyjson_arr_iter_with(v);
        yyjson_val *e;
        out->arrays++;
        while ((e = yyjson_arr_iter_next(&it)))
            if (!walk_val(e, out)) return false;
        return true;
    }
    case YYJSON_TYPE_OBJ: {
        yyjson_obj_iter it = yyjson_obj_iter_with(v);
        yyjson_val *k;
        out->objects++;
        while ((k = yyjson_obj_iter_next(&it))) {
            out->keys++;
            out->str_bytes += yyjson_get_len(k);
            if (!walk_val(yyjson_obj_iter_get_val(k), out)) return false;
        }
        return true;
    }
    default: return false;
    }
}

static bool walk(void *st, bench_stats *out) {
    state *s = st;
    return walk_val(yyjson_doc_get_root(s->doc), out);
}

static bool write_text(void *st, bench_write_mode mode, bench_text *out) {
    state *s = st;
    yyjson_write_flag flg = mode == BENCH_WRITE_PRETTY ? YYJSON_WRITE_PRETTY_TWO_SPACES : 0;
    size_t len = 0;
    char *text = yyjson_write_opts(s->doc, flg, NULL, &len, NULL);
    out->data = text;
    out->len = len;
    out->priv = text;
    return text != NULL;
}

static void free_text(void *st, bench_text *text) {
    (void)st;
    free(text->priv);
}

static void *cnt_malloc(void *ctx, size_t size) { return bench_counter_malloc(ctx, size); }
static void *cnt_realloc(void *ctx, void *ptr, size_t old_size, size_t size) {
    (void)old_size;
    return bench_counter_realloc(ctx, ptr, size);
}
static void cnt_free(void *ctx, void *ptr) { bench_counter_free(ctx, ptr); }

static bool measure_mem(const char *dat, size_t len, bench_mem *out) {
    bench_counter c;
    yyjson_alc alc;
    yyjson_doc *doc;
    bench_counter_reset(&c);
    alc.malloc = cnt_malloc;
    alc.realloc = cnt_realloc;
    alc.free = cnt_free;
    alc.ctx = &c;
    doc = yyjson_read_opts((char *)(uintptr_t)dat, len, 0, &alc, NULL);
    if (!doc) return false;
    out->held = c.live;
    out->peak = c.peak;
    out->allocs = c.allocs;
    yyjson_doc_free(doc);
    return c.live == 0;
}

/* The value of `key` if it is of `type`, else NULL. */
static yyjson_val *get_typed(yyjson_val *obj, const char *key, yyjson_type type) {
    yyjson_val *v = yyjson_obj_get(obj, key);
    return yyjson_get_type(v) == type ? v : NULL;
}

static bool extract_status(yyjson_val *st, bench_extract *out) {
    yyjson_val *id = get_typed(st, "id", YYJSON_TYPE_NUM), *text = get_typed(st, "text", YYJSON_TYPE_STR);
    yyjson_val *user = get_typed(st, "user", YYJSON_TYPE_OBJ);
    yyjson_val *name = user ? get_typed(user, "screen_name", YYJSON_TYPE_STR) : NULL;
    yyjson_val *rts = get_typed(st, "retweet_count", YYJSON_TYPE_NUM);
    if (!yyjson_is_int(id) || !text || !name || !yyjson_is_int(rts)) return false;
    bench_extract_add(out, id->uni.u64, yyjson_get_str(text), yyjson_get_len(text), yyjson_get_str(name),
                      yyjson_get_len(name), (int64_t)rts->uni.u64); /* uint and sint share the bits */
    return true;
}

static bool extract(void *st, const char *dat, size_t len, bench_extract *out) {
    yyjson_doc *doc = yyjson_read_opts((char *)(uintptr_t)dat, len, 0, NULL, NULL);
    yyjson_val *arr = get_typed(yyjson_doc_get_root(doc), "statuses", YYJSON_TYPE_ARR), *e;
    yyjson_arr_iter it;
    bool ok = arr != NULL;
    (void)st;
    if (ok) {
        yyjson_arr_iter_init(arr, &it);
        while (ok && (e = yyjson_arr_iter_next(&it))) ok = extract_status(e, out);
    }
    yyjson_doc_free(doc);
    return ok;
}

/* NDJSON: the documented loop, yyjson_read_opts with STOP_WHEN_DONE from
 * where the last document ended (yyjson_doc_get_read_size), whitespace
 * between documents skipped here. INSITU over one copy of the input per
 * operation (the copy is timed): without it, every call would copy the
 * whole rest of the input, which makes the loop quadratic. */
static bool ndjson(void *st, const char *dat, size_t len, bench_extract *out) {
    state *s = st;
    size_t pos = 0;
    if (s->nd_cap < len + YYJSON_PADDING_SIZE) {
        free(s->nd_buf);
        s->nd_cap = len + YYJSON_PADDING_SIZE;
        s->nd_buf = malloc(s->nd_cap);
        if (!s->nd_buf) {
            s->nd_cap = 0;
            return false;
        }
    }
    memcpy(s->nd_buf, dat, len);
    memset(s->nd_buf + len, 0, YYJSON_PADDING_SIZE);
    for (;;) {
        char *p = s->nd_buf;
        while (pos < len && (p[pos] == '\n' || p[pos] == '\r' || p[pos] == ' ' || p[pos] == '\t')) pos++;
        if (pos == len) return true;
        yyjson_doc *doc = yyjson_read_opts(p + pos, len - pos, YYJSON_READ_INSITU | YYJSON_READ_STOP_WHEN_DONE,
                                           NULL, NULL);
        bool ok = doc && extract_status(yyjson_doc_get_root(doc), out);
        if (doc) pos += yyjson_doc_get_read_size(doc);
        yyjson_doc_free(doc);
        if (!ok) return false;
    }
}

/* Token walk: yyjson has no streaming reader, so parse + walk of the whole
 * document (the figure the issue sets as the bar). */
static bool reader(void *st, const char *dat, size_t len, bench_stats *out) {
    bool ok = parse(st, dat, len) && walk(st, out);
    free_doc(st);
    return ok;
}

/* YYJSON_READ_INSITU wants YYJSON_PADDING_SIZE (4) zero bytes after the
 * text; the caller's buffer has 64. */
static void *parse_insitu(char *buf, size_t len, size_t cap) {
    if (cap < len + YYJSON_PADDING_SIZE) return NULL;
    memset(buf + len, 0, YYJSON_PADDING_SIZE);
    return yyjson_read_opts(buf, len, YYJSON_READ_INSITU, NULL, NULL);
}

static void free_insitu(void *doc) { yyjson_doc_free((yyjson_doc *)doc); }

const bench_insitu bench_insitu_yyjson = {"yyjson", parse_insitu, free_insitu};

const bench_adapter bench_adapter_yyjson = {
    "yyjson", YYJSON_VERSION_STRING,
    "yyjson_read_opts flags 0 (strict, input copied: no INSITU), libc allocator; "
    "pretty = YYJSON_WRITE_PRETTY_TWO_SPACES; extract: the same parse, then yyjson_obj_get per field; "
    "ndjson: a yyjson_read_opts(INSITU | STOP_WHEN_DONE) loop over one copy of the input, "
    "one document per record; reader: parse + walk (no streaming reader)",
    0, create, destroy, parse, free_doc, walk, write_text, free_text, measure_mem, extract, ndjson, reader,
};
