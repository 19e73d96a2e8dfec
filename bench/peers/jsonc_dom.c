/*
 * json-c adapter: one json_tokener reused (reset before each parse), depth
 * limit raised from json-c's default 32 to 1024 like the others, default
 * (non-strict) tokener flags as json_tokener_parse uses. Output:
 * json_object_to_json_string_length with JSON_C_TO_STRING_PLAIN or
 * JSON_C_TO_STRING_PRETTY (2 spaces), both with NOSLASHESCAPE so that '/'
 * is not escaped (the others do not escape it). json-c keeps the text in a
 * buffer owned by the object, reused between calls: that is its design.
 * json-c takes no allocator.
 */
#include "../peers.h"

#include <json-c/json.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>

typedef struct state {
    struct json_tokener *tok;
    struct json_object *root; /* NULL is also JSON null in json-c */
} state;

static void *create(void) {
    state *s = calloc(1, sizeof(state));
    if (!s) return NULL;
    s->tok = json_tokener_new_ex(1024);
    if (!s->tok) {
        free(s);
        return NULL;
    }
    return s;
}

static void destroy(void *st) {
    state *s = st;
    json_object_put(s->root);
    json_tokener_free(s->tok);
    free(s);
}

static bool parse(void *st, const char *dat, size_t len) {
    state *s = st;
    json_tokener_reset(s->tok);
    s->root = json_tokener_parse_ex(s->tok, dat, (int)len);
    if (!s->root && json_tokener_get_error(s->tok) == json_tokener_continue)
        /* a number at the very end waits for more: the NUL after the
         * input (dat[len], see peers.h) tells json-c the text is over */
        s->root = json_tokener_parse_ex(s->tok, dat + len, 1);
    if (json_tokener_get_error(s->tok) == json_tokener_success) return true;
    json_object_put(s->root);
    s->root = NULL;
    return false;
}

static void free_doc(void *st) {
    state *s = st;
    json_object_put(s->root);
    s->root = NULL;
}

static bool walk_val(struct json_object *v, bench_stats *out) {
    switch (json_object_get_type(v)) {
    case json_type_null: out->nulls++; return true;
    case json_type_boolean:
        if (json_object_get_boolean(v)) out->trues++; else out->falses++;
        return true;
    case json_type_int: {
        int64_t i = json_object_get_int64(v);
        /* get_int64 clamps integers above INT64_MAX */
        uint64_t u = i == INT64_MAX ? json_object_get_uint64(v) : (uint64_t)i;
        out->numbers++;
        out->integers++;
        out->int_sum += u;
        out->num_sum += i < 0 ? (double)i : (double)u;
        return true;
    }
    case json_type_double:
        out->numbers++;
        out->reals++;
        out->num_sum += json_object_get_double(v);
        return true;
    case json_type_string:
        out->strings++;
        out->str_bytes += (uint64_t)json_object_get_string_len(v);
        return true;
    case json_type_array: {
        size_t i, n = json_object_array_length(v);
        out->arrays++;
        for (i = 0; i < n; i++)
            if (!walk_val(json_object_array_get_idx(v, i), out)) return false;
        return true;
    }
    case json_type_object: {
        struct lh_entry *e;
        out->objects++;
        for (e = lh_table_head(json_object_get_object(v)); e; e = lh_entry_next(e)) {
            out->keys++;
            out->str_bytes += strlen((const char *)lh_entry_k(e));
            if (!walk_val((struct json_object *)lh_entry_v(e), out)) return false;
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
    int flags = JSON_C_TO_STRING_NOSLASHESCAPE |
                (mode == BENCH_WRITE_PRETTY ? JSON_C_TO_STRING_PRETTY : JSON_C_TO_STRING_PLAIN);
    size_t len = 0;
    const char *text = json_object_to_json_string_length(s->root, flags, &len);
    if (!text) return false;
    out->data = text;
    out->len = len;
    out->priv = NULL;
    return true;
}

static void free_text(void *st, bench_text *text) {
    (void)st;
    (void)text; /* owned by the object */
}

/* NDJSON: the records one after another through the reused tokener:
 * json_tokener_parse_ex from where the last one ended
 * (json_tokener_get_parse_end), the newlines between them skipped here. */
static bool nd_int(struct json_object *o, const char *key, int64_t *v) {
    struct json_object *m;
    if (!json_object_object_get_ex(o, key, &m) || !json_object_is_type(m, json_type_int)) return false;
    *v = json_object_get_int64(m);
    return true;
}

static bool nd_str(struct json_object *o, const char *key, const char **v, size_t *n) {
    struct json_object *m;
    if (!json_object_object_get_ex(o, key, &m) || !json_object_is_type(m, json_type_string)) return false;
    *v = json_object_get_string(m);
    *n = (size_t)json_object_get_string_len(m);
    return true;
}

static bool ndjson(void *st, const char *dat, size_t len, bench_extract *out) {
    state *s = st;
    size_t pos = 0;
    for (;;) {
        while (pos < len && (dat[pos] == '\n' || dat[pos] == '\r' || dat[pos] == ' ' || dat[pos] == '\t')) pos++;
        if (pos == len) return true;
        size_t rest = len - pos;
        json_tokener_reset(s->tok);
        struct json_object *rec = json_tokener_parse_ex(s->tok, dat + pos, rest > INT_MAX ? INT_MAX : (int)rest);
        struct json_object *user;
        int64_t id, rts;
        const char *text, *name;
        size_t tn, nn;
        bool ok = rec && json_tokener_get_error(s->tok) == json_tokener_success &&
                  nd_int(rec, "id", &id) && nd_str(rec, "text", &text, &tn) &&
                  json_object_object_get_ex(rec, "user", &user) && nd_str(user, "screen_name", &name, &nn) &&
                  nd_int(rec, "retweet_count", &rts);
        if (ok) bench_extract_add(out, (uint64_t)id, text, tn, name, nn, rts);
        pos += json_tokener_get_parse_end(s->tok);
        json_object_put(rec);
        if (!ok) return false;
    }
}

const bench_adapter bench_adapter_jsonc = {
    "json-c", JSON_C_VERSION,
    "json_tokener reused, depth 1024, default flags; to_json_string PLAIN / PRETTY "
    "+ NOSLASHESCAPE (text buffer owned by the object, reused); no allocator hook; "
    "ndjson: json_tokener_parse_ex record after record (json_tokener_get_parse_end), tokener reused",
    0, create, destroy, parse, free_doc, walk, write_text, free_text, NULL, NULL, ndjson,
};
