/*
 * yajl adapter: the tree API, yajl_tree_parse, which needs NUL-terminated
 * input (the driver guarantees dat[len] == 0, so no copy is made).
 * yajl's tree has no writer, so output walks the tree into a new yajl_gen
 * (beautify with a 2-space indent string for pretty); numbers are written
 * from the original number text the tree keeps (yajl_gen_number), which is
 * exact, where yajl_gen_double would print 20 digits.
 * The tree parser takes no allocator.
 */
#include "../peers.h"

#include <yajl/yajl_gen.h>
#include <yajl/yajl_parse.h>
#include <yajl/yajl_tree.h>
#include <yajl/yajl_version.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct state {
    yajl_val root;
} state;

static void *create(void) { return calloc(1, sizeof(state)); }
static void destroy(void *st) {
    state *s = st;
    yajl_tree_free(s->root);
    free(s);
}

static bool parse(void *st, const char *dat, size_t len) {
    state *s = st;
    /* An embedded NUL would cut the text short: the correctness check
     * before timing catches that. */
    if (dat[len] != '\0') return false;
    s->root = yajl_tree_parse(dat, NULL, 0);
    return s->root != NULL;
}

static void free_doc(void *st) {
    state *s = st;
    yajl_tree_free(s->root);
    s->root = NULL;
}

static bool walk_val(yajl_val v, bench_stats *out) {
    size_t i;
    switch (v->type) {
    case yajl_t_null: out->nulls++; return true;
    case yajl_t_true: out->trues++; return true;
    case yajl_t_false: out->falses++; return true;
    case yajl_t_number:
        out->numbers++;
        if (v->u.number.flags & YAJL_NUMBER_INT_VALID) {
            out->integers++;
            out->int_sum += (uint64_t)v->u.number.i;
            out->num_sum += (double)v->u.number.i;
        } else {
            out->reals++;
            out->num_sum += v->u.number.d;
        }
        return true;
    case yajl_t_string:
        out->strings++;
        out->str_bytes += strlen(v->u.string);
        return true;
    case yajl_t_array:
        out->arrays++;
        for (i = 0; i < v->u.array.len; i++)
            if (!walk_val(v->u.array.values[i], out)) return false;
        return true;
    case yajl_t_object:
        out->objects++;
        for (i = 0; i < v->u.object.len; i++) {
            out->keys++;
            out->str_bytes += strlen(v->u.object.keys[i]);
            if (!walk_val(v->u.object.values[i], out)) return false;
        }
        return true;
    default: return false;
    }
}

static bool walk(void *st, bench_stats *out) {
    state *s = st;
    return walk_val(s->root, out);
}

static bool gen_str(yajl_gen g, const char *str) {
    return yajl_gen_string(g, (const unsigned char *)str, strlen(str)) == yajl_gen_status_ok;
}

static bool gen_val(yajl_gen g, yajl_val v) {
    size_t i;
    switch (v->type) {
    case yajl_t_null: return yajl_gen_null(g) == yajl_gen_status_ok;
    case yajl_t_true: return yajl_gen_bool(g, 1) == yajl_gen_status_ok;
    case yajl_t_false: return yajl_gen_bool(g, 0) == yajl_gen_status_ok;
    case yajl_t_number:
        return yajl_gen_number(g, v->u.number.r, strlen(v->u.number.r)) == yajl_gen_status_ok;
    case yajl_t_string: return gen_str(g, v->u.string);
    case yajl_t_array:
        if (yajl_gen_array_open(g) != yajl_gen_status_ok) return false;
        for (i = 0; i < v->u.array.len; i++)
            if (!gen_val(g, v->u.array.values[i])) return false;
        return yajl_gen_array_close(g) == yajl_gen_status_ok;
    case yajl_t_object:
        if (yajl_gen_map_open(g) != yajl_gen_status_ok) return false;
        for (i = 0; i < v->u.object.len; i++)
            if (!gen_str(g, v->u.object.keys[i]) || !gen_val(g, v->u.object.values[i])) return false;
        return yajl_gen_map_close(g) == yajl_gen_status_ok;
    default: return false;
    }
}

static bool write_text(void *st, bench_write_mode mode, bench_text *out) {
    state *s = st;
    const unsigned char *buf;
    size_t len;
    yajl_gen g = yajl_gen_alloc(NULL);
    if (!g) return false;
    if (mode == BENCH_WRITE_PRETTY) {
        yajl_gen_config(g, yajl_gen_beautify, 1);
        yajl_gen_config(g, yajl_gen_indent_string, "  ");
    }
    if (!gen_val(g, s->root) || yajl_gen_get_buf(g, &buf, &len) != yajl_gen_status_ok) {
        yajl_gen_free(g);
        return false;
    }
    out->data = (const char *)buf;
    out->len = len;
    out->priv = g;
    return true;
}

static void free_text(void *st, bench_text *text) {
    (void)st;
    yajl_gen_free(text->priv);
}

/* ----------------------------------------------------------------------------
 * NDJSON: yajl's streaming parser (yajl_parse with yajl_allow_multiple_values)
 * over the whole input in one call; callbacks track the depth and the last
 * key, copy text and user.screen_name (yajl's string pointers last only
 * for the callback) and hand each record over when its object closes.
 * ------------------------------------------------------------------------- */
enum { ND_NONE, ND_ID, ND_TEXT, ND_USER, ND_NAME, ND_RTS };

typedef struct nd_buf {
    char *p;
    size_t len, cap;
} nd_buf;

typedef struct nd_state {
    bench_extract *out;
    int depth, key; /* key: the ND_ member whose value comes next */
    bool in_user;   /* inside the record's "user" object */
    unsigned seen;  /* bits of the ND_ fields of this record */
    long long id, rts;
    nd_buf text, name;
} nd_state;

static bool nd_keep(nd_buf *b, const unsigned char *s, size_t n) {
    if (n > b->cap) {
        char *q = realloc(b->p, n);
        if (!q) return false;
        b->p = q;
        b->cap = n;
    }
    if (n) memcpy(b->p, s, n);
    b->len = n;
    return true;
}

static int nd_scalar(void *ctx) {
    ((nd_state *)ctx)->key = ND_NONE;
    return 1;
}
static int nd_null(void *ctx) { return nd_scalar(ctx); }
static int nd_bool(void *ctx, int b) {
    (void)b;
    return nd_scalar(ctx);
}
static int nd_double(void *ctx, double d) {
    (void)d;
    return nd_scalar(ctx);
}

static int nd_integer(void *ctx, long long v) {
    nd_state *s = ctx;
    if (s->key == ND_ID) s->id = v;
    else if (s->key == ND_RTS) s->rts = v;
    if (s->key == ND_ID || s->key == ND_RTS) s->seen |= 1u << s->key;
    return nd_scalar(ctx);
}

static int nd_string(void *ctx, const unsigned char *str, size_t len) {
    nd_state *s = ctx;
    if (s->key == ND_TEXT && !nd_keep(&s->text, str, len)) return 0;
    if (s->key == ND_NAME && !nd_keep(&s->name, str, len)) return 0;
    if (s->key == ND_TEXT || s->key == ND_NAME) s->seen |= 1u << s->key;
    return nd_scalar(ctx);
}

static bool nd_is(const unsigned char *k, size_t n, const char *want) {
    return n == strlen(want) && memcmp(k, want, n) == 0;
}

static int nd_map_key(void *ctx, const unsigned char *k, size_t n) {
    nd_state *s = ctx;
    s->key = ND_NONE;
    if (s->depth == 1) {
        s->key = nd_is(k, n, "id") ? ND_ID : nd_is(k, n, "text") ? ND_TEXT
                 : nd_is(k, n, "user") ? ND_USER : nd_is(k, n, "retweet_count") ? ND_RTS : ND_NONE;
    } else if (s->depth == 2 && s->in_user && nd_is(k, n, "screen_name")) {
        s->key = ND_NAME;
    }
    return 1;
}

static int nd_start_map(void *ctx) {
    nd_state *s = ctx;
    if (s->depth == 0) s->seen = 0;
    s->in_user = s->depth == 1 && s->key == ND_USER;
    s->depth++;
    s->key = ND_NONE;
    return 1;
}

static int nd_end_map(void *ctx) {
    nd_state *s = ctx;
    s->depth--;
    if (s->depth == 1) s->in_user = false;
    s->key = ND_NONE;
    if (s->depth) return 1;
    /* a record: every field must have been there */
    const unsigned all = 1u << ND_ID | 1u << ND_TEXT | 1u << ND_NAME | 1u << ND_RTS;
    if (s->seen != all) return 0;
    bench_extract_add(s->out, (uint64_t)s->id, s->text.p, s->text.len, s->name.p, s->name.len, s->rts);
    return 1;
}

static int nd_start_array(void *ctx) {
    nd_state *s = ctx;
    if (s->depth == 0) return 0; /* records are objects */
    s->depth++;
    s->key = ND_NONE;
    return 1;
}

static int nd_end_array(void *ctx) {
    nd_state *s = ctx;
    s->depth--;
    s->key = ND_NONE;
    return 1;
}

static const yajl_callbacks nd_callbacks = {
    nd_null, nd_bool, nd_integer, nd_double, NULL, nd_string,
    nd_start_map, nd_map_key, nd_end_map, nd_start_array, nd_end_array,
};

static bool ndjson(void *st, const char *dat, size_t len, bench_extract *out) {
    nd_state s;
    bool ok;
    (void)st;
    memset(&s, 0, sizeof(s));
    s.out = out;
    yajl_handle h = yajl_alloc(&nd_callbacks, NULL, &s);
    if (!h) return false;
    yajl_config(h, yajl_allow_multiple_values, 1);
    ok = yajl_parse(h, (const unsigned char *)dat, len) == yajl_status_ok &&
         yajl_complete_parse(h) == yajl_status_ok && s.depth == 0;
    yajl_free(h);
    free(s.text.p);
    free(s.name.p);
    return ok;
}

#define BENCH_STR2(x) #x
#define BENCH_STR(x) BENCH_STR2(x)

/* Token walk: yajl_parse with callbacks. Numbers come as text
 * (yajl_number), classified as the DOM readers do: an integer that fits
 * int64 or uint64 is an integer, anything else a real (yajl_integer would
 * fail on integers beyond long long). */
static int cb_null(void *ctx) {
    ((bench_stats *)ctx)->nulls++;
    return 1;
}
static int cb_bool(void *ctx, int b) {
    bench_stats *o = ctx;
    if (b) o->trues++; else o->falses++;
    return 1;
}
static int cb_number(void *ctx, const char *s, size_t len) {
    bench_stats *o = ctx;
    char buf[64], *end;
    bool is_int = true;
    size_t i;
    if (len >= sizeof(buf)) is_int = false;
    for (i = 0; is_int && i < len; i++)
        if (s[i] == '.' || s[i] == 'e' || s[i] == 'E') is_int = false;
    o->numbers++;
    if (is_int) {
        memcpy(buf, s, len);
        buf[len] = 0;
        errno = 0;
        if (buf[0] == '-') {
            long long v = strtoll(buf, &end, 10);
            if (!errno) {
                o->integers++;
                o->int_sum += (uint64_t)v;
                o->num_sum += (double)v;
                return 1;
            }
        } else {
            unsigned long long v = strtoull(buf, &end, 10);
            if (!errno) {
                o->integers++;
                o->int_sum += (uint64_t)v;
                o->num_sum += (double)v;
                return 1;
            }
        }
    }
    if (len < sizeof(buf)) {
        memcpy(buf, s, len);
        buf[len] = 0;
        o->num_sum += strtod(buf, NULL);
    } else {
        char *big = malloc(len + 1);
        if (!big) return 0;
        memcpy(big, s, len);
        big[len] = 0;
        o->num_sum += strtod(big, NULL);
        free(big);
    }
    o->reals++;
    return 1;
}
static int cb_string(void *ctx, const unsigned char *s, size_t len) {
    bench_stats *o = ctx;
    (void)s;
    o->strings++;
    o->str_bytes += len;
    return 1;
}
static int cb_key(void *ctx, const unsigned char *s, size_t len) {
    bench_stats *o = ctx;
    (void)s;
    o->keys++;
    o->str_bytes += len;
    return 1;
}
static int cb_start_map(void *ctx) {
    ((bench_stats *)ctx)->objects++;
    return 1;
}
static int cb_start_array(void *ctx) {
    ((bench_stats *)ctx)->arrays++;
    return 1;
}
static int cb_end(void *ctx) {
    (void)ctx;
    return 1;
}

static const yajl_callbacks walk_callbacks = {
    cb_null, cb_bool, NULL, NULL, cb_number, cb_string, cb_start_map, cb_key, cb_end, cb_start_array, cb_end,
};

static bool reader(void *st, const char *dat, size_t len, bench_stats *out) {
    yajl_handle h = yajl_alloc(&walk_callbacks, NULL, out);
    bool ok;
    (void)st;
    if (!h) return false;
    ok = yajl_parse(h, (const unsigned char *)dat, len) == yajl_status_ok && yajl_complete_parse(h) == yajl_status_ok;
    yajl_free(h);
    return ok;
}

const bench_adapter bench_adapter_yajl = {
    "yajl", BENCH_STR(YAJL_MAJOR) "." BENCH_STR(YAJL_MINOR) "." BENCH_STR(YAJL_MICRO),
    "yajl_tree_parse (NUL-terminated input); output = tree walked into a new "
    "yajl_gen (numbers from their original text); no allocator hook for the tree; "
    "ndjson: yajl_parse with yajl_allow_multiple_values over the whole input, callbacks keep the 4 fields; "
    "reader: yajl_parse with callbacks (numbers as text, yajl_number)",
    0, create, destroy, parse, free_doc, walk, write_text, free_text, NULL, NULL, ndjson, reader,
};
