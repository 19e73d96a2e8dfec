/*
 * json-c typed adapter. Decode: one json_tokener reused, the tree kept
 * until release, json_object_object_get_ex per key (a hash lookup),
 * strings pointing into the tree. Encode: a tree of json_object_new_*
 * added with json_object_object_add_ex (KEY_IS_NEW | KEY_IS_CONSTANT for
 * the literal keys), written with json_object_to_json_string_length
 * (PLAIN | NOSLASHESCAPE) into the root's own buffer. json-c represents a
 * JSON null as a NULL object.
 */
#include "../peers.h"
#include "scenario_types.h"

#include <json-c/json.h>

#include <stdlib.h>
#include <string.h>

typedef struct state {
    bench_arena arena;
    struct json_tokener *tok;
    struct json_object *root;
    struct json_object *built;
} state;

typedef state S;
typedef struct json_object *TV;
typedef struct json_object *TO;
typedef struct TA {
    struct json_object *arr;
    size_t i, n;
} TA;
typedef struct json_object *TC;

static bool t_root(S *s, const char *dat, size_t len, TV *root) {
    json_tokener_reset(s->tok);
    s->root = json_tokener_parse_ex(s->tok, dat, (int)len);
    *root = s->root;
    return s->root && json_tokener_get_error(s->tok) == json_tokener_success;
}

static bool t_obj(TV v, TO *o) {
    *o = v;
    return json_object_is_type(v, json_type_object);
}

static bool t_get(TO *o, const char *key, size_t klen, TV *v) {
    (void)klen;
    return json_object_object_get_ex(*o, key, v);
}

static bool t_arr(TV v, TA *a, size_t *n) {
    if (!json_object_is_type(v, json_type_array)) return false;
    a->arr = v;
    a->i = 0;
    a->n = *n = json_object_array_length(v);
    return true;
}

static bool t_next(TA *a, TV *v) {
    if (a->i >= a->n) return false;
    *v = json_object_array_get_idx(a->arr, a->i++);
    return true;
}

static bool t_null(TV v) { return v == NULL; }

static bool t_STR(TV v, jstr *out) {
    if (!json_object_is_type(v, json_type_string)) return false;
    out->ptr = json_object_get_string(v);
    out->len = (size_t)json_object_get_string_len(v);
    return true;
}

static bool t_I64(TV v, int64_t *out) {
    if (!json_object_is_type(v, json_type_int)) return false;
    *out = json_object_get_int64(v);
    return true;
}

static bool t_I32(TV v, int32_t *out) {
    int64_t x;
    if (!t_I64(v, &x) || x < INT32_MIN || x > INT32_MAX) return false;
    *out = (int32_t)x;
    return true;
}

static bool t_BOOL(TV v, bool *out) {
    if (!json_object_is_type(v, json_type_boolean)) return false;
    *out = json_object_get_boolean(v);
    return true;
}

static bool t_F64(TV v, double *out) {
    if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int)) return false;
    *out = json_object_get_double(v);
    return true;
}

static bool t_F32(TV v, float *out) {
    double d;
    if (!t_F64(v, &d)) return false;
    *out = (float)d;
    return true;
}

static bool t_jv(S *s, TV v, jv *out) {
    size_t i = 0, n;
    switch (json_object_get_type(v)) {
    case json_type_null: out->kind = JV_NULL; return true;
    case json_type_boolean: out->kind = json_object_get_boolean(v) ? JV_TRUE : JV_FALSE; return true;
    case json_type_int: out->kind = JV_INT; return t_I64(v, &out->u.i);
    case json_type_double: out->kind = JV_DOUBLE; out->u.d = json_object_get_double(v); return true;
    case json_type_string: out->kind = JV_STRING; return t_STR(v, &out->u.s);
    case json_type_array:
        n = json_object_array_length(v);
        out->kind = JV_ARRAY;
        out->u.arr.n = n;
        out->u.arr.items = bench_arena_alloc(&s->arena, n * sizeof(jv));
        if (!out->u.arr.items) return false;
        for (i = 0; i < n; i++)
            if (!t_jv(s, json_object_array_get_idx(v, i), &out->u.arr.items[i])) return false;
        return true;
    case json_type_object: {
        struct lh_entry *e;
        jv *vals;
        n = (size_t)json_object_object_length(v);
        out->kind = JV_OBJECT;
        out->u.obj.n = n;
        out->u.obj.members = bench_arena_alloc(&s->arena, n * sizeof(jv_member));
        vals = bench_arena_alloc(&s->arena, n * sizeof(jv));
        if (!out->u.obj.members || !vals) return false;
        for (e = lh_table_head(json_object_get_object(v)); e; e = lh_entry_next(e)) {
            jv_member *m = &out->u.obj.members[i];
            m->key.ptr = (const char *)lh_entry_k(e);
            m->key.len = strlen(m->key.ptr);
            m->value = &vals[i++];
            if (!t_jv(s, (struct json_object *)lh_entry_v(e), m->value)) return false;
        }
        return true;
    }
    }
    return false;
}

/* ---- building ------------------------------------------------------------ */
#define KEY_FLAGS (JSON_C_OBJECT_ADD_KEY_IS_NEW | JSON_C_OBJECT_KEY_IS_CONSTANT)

static bool b_begin(S *s, bool array, TC *root) {
    s->built = *root = array ? json_object_new_array() : json_object_new_object();
    return *root != NULL;
}

static bool add(TC *o, const char *key, struct json_object *v, bool is_null) {
    if (!v && !is_null) return false;
    return json_object_object_add_ex(*o, key, v, KEY_FLAGS) == 0;
}

static bool b_put_obj(S *s, TC *parent, const char *key, size_t klen, TC *child) {
    (void)s, (void)klen;
    return add(parent, key, *child = json_object_new_object(), false);
}
static bool b_put_arr(S *s, TC *parent, const char *key, size_t klen, TC *child) {
    (void)s, (void)klen;
    return add(parent, key, *child = json_object_new_array(), false);
}
static bool b_add_obj(S *s, TC *arr, TC *child) {
    (void)s;
    *child = json_object_new_object();
    return *child && json_object_array_add(*arr, *child) == 0;
}
static bool b_end(S *s, TC *c) {
    (void)s, (void)c;
    return true;
}
static bool b_put_STR(S *s, TC *o, const char *key, size_t klen, const jstr *v) {
    (void)s, (void)klen;
    return add(o, key, json_object_new_string_len(v->ptr, (int)v->len), false);
}
static bool b_put_NSTR(S *s, TC *o, const char *key, size_t klen, const jstr *v) {
    (void)s, (void)klen;
    return add(o, key, v->ptr ? json_object_new_string_len(v->ptr, (int)v->len) : NULL, !v->ptr);
}
static bool b_put_I32(S *s, TC *o, const char *key, size_t klen, const int32_t *v) {
    (void)s, (void)klen;
    return add(o, key, json_object_new_int(*v), false);
}
static bool b_put_I64(S *s, TC *o, const char *key, size_t klen, const int64_t *v) {
    (void)s, (void)klen;
    return add(o, key, json_object_new_int64(*v), false);
}
static bool b_put_BOOL(S *s, TC *o, const char *key, size_t klen, const bool *v) {
    (void)s, (void)klen;
    return add(o, key, json_object_new_boolean(*v), false);
}
static bool b_put_F64(S *s, TC *o, const char *key, size_t klen, const double *v) {
    (void)s, (void)klen;
    return add(o, key, json_object_new_double(*v), false);
}
static bool b_put_F32(S *s, TC *o, const char *key, size_t klen, const float *v) {
    (void)s, (void)klen;
    return add(o, key, json_object_new_double(*v), false);
}
static bool b_put_copy(S *s, TC *o, const char *key, size_t klen, const char *p, size_t n) {
    (void)s, (void)klen;
    return add(o, key, json_object_new_string_len(p, (int)n), false);
}
static bool b_add_STR(S *s, TC *arr, const jstr *v) {
    struct json_object *e = json_object_new_string_len(v->ptr, (int)v->len);
    (void)s;
    return e && json_object_array_add(*arr, e) == 0;
}
static bool b_add_I32(S *s, TC *arr, const int32_t *v) {
    struct json_object *e = json_object_new_int(*v);
    (void)s;
    return e && json_object_array_add(*arr, e) == 0;
}

static bool from_jv(const jv *v, struct json_object **out) {
    size_t i;
    *out = NULL;
    switch (v->kind) {
    case JV_NULL: return true;
    case JV_FALSE: *out = json_object_new_boolean(0); break;
    case JV_TRUE: *out = json_object_new_boolean(1); break;
    case JV_INT: *out = json_object_new_int64(v->u.i); break;
    case JV_DOUBLE: *out = json_object_new_double(v->u.d); break;
    case JV_STRING: *out = json_object_new_string_len(v->u.s.ptr, (int)v->u.s.len); break;
    case JV_ARRAY:
        *out = json_object_new_array();
        for (i = 0; *out && i < v->u.arr.n; i++) {
            struct json_object *e;
            if (!from_jv(&v->u.arr.items[i], &e) || json_object_array_add(*out, e) != 0) return false;
        }
        break;
    case JV_OBJECT:
        *out = json_object_new_object();
        for (i = 0; *out && i < v->u.obj.n; i++) {
            const jv_member *m = &v->u.obj.members[i];
            struct json_object *e;
            char key[256];
            if (m->key.len >= sizeof(key) || !from_jv(m->value, &e)) return false;
            memcpy(key, m->key.ptr, m->key.len);
            key[m->key.len] = '\0';
            if (json_object_object_add(*out, key, e) != 0) return false; /* copies the key */
        }
        break;
    }
    return *out != NULL;
}

static bool b_jv(S *s, TC *o, const char *key, size_t klen, const jv *v) {
    struct json_object *e;
    (void)s, (void)klen;
    return from_jv(v, &e) && add(o, key, e, v->kind == JV_NULL);
}

static bool b_jv_root(S *s, TC *root, const jv *v) {
    json_object_put(s->built);
    s->built = NULL;
    if (!from_jv(v, root)) return false;
    s->built = *root;
    return true;
}

static bool b_finish(S *s, TC *root, bench_text *out) {
    size_t len = 0;
    const char *text = json_object_to_json_string_length(
        *root, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &len);
    (void)s;
    out->data = text;
    out->len = len;
    return text != NULL;
}

static size_t b_finish_buf(S *s, TC *root, char *buf, size_t cap) {
    bench_text t;
    if (!b_finish(s, root, &t) || t.len >= cap) return 0;
    memcpy(buf, t.data, t.len);
    return t.len;
}

static void b_release(S *s) {
    json_object_put(s->built);
    s->built = NULL;
}

#include "scen_template.h"

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

static void release(void *st) {
    state *s = st;
    json_object_put(s->root);
    s->root = NULL;
    b_release(s);
    bench_arena_reset(&s->arena);
}

static void destroy(void *st) {
    state *s = st;
    release(s);
    bench_arena_free(&s->arena);
    json_tokener_free(s->tok);
    free(s);
}

void bench_typed_jsonc(bench_typed *t) {
    t->name = "json-c";
    t->notes = "decode: json_tokener reused + json_object_object_get_ex, strings point into the tree; "
               "encode: json_object_new_* + json_object_object_add_ex (constant keys), "
               "json_object_to_json_string_length (text owned by the root)";
    t->create = create;
    t->destroy = destroy;
    t->release = release;
    scen_template_fill(t);
}
