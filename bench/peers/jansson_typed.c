/*
 * jansson typed adapter. Decode: json_loadb into a tree kept until
 * release, json_object_get per key (a hash lookup), strings pointing into
 * the tree. Encode: json_object / json_array with json_object_set_new_nocheck
 * and json_stringn_nocheck (the documented variants that skip re-checking
 * UTF-8 the caller already guarantees), printed with json_dumpb
 * (JSON_COMPACT) into a reused buffer. These are jansson's direct
 * accessors; json_unpack / json_pack would do the same through a format
 * string parsed at every call.
 */
#include "../peers.h"
#include "../scenario_types.h"

#include <jansson.h>

#include <stdlib.h>
#include <string.h>

typedef struct state {
    bench_arena arena;
    json_t *root;
    json_t *built;
    char *buf;
    size_t cap;
} state;

typedef state S;
typedef json_t *TV;
typedef json_t *TO;
typedef struct TA {
    json_t *arr;
    size_t i, n;
} TA;
typedef json_t *TC;

static bool t_root(S *s, const char *dat, size_t len, TV *root) {
    s->root = json_loadb(dat, len, 0, NULL);
    *root = s->root;
    return s->root != NULL;
}

static bool t_obj(TV v, TO *o) {
    *o = v;
    return json_is_object(v);
}

static bool t_get(TO *o, const char *key, size_t klen, TV *v) {
    (void)klen;
    return (*v = json_object_get(*o, key)) != NULL;
}

static bool t_arr(TV v, TA *a, size_t *n) {
    if (!json_is_array(v)) return false;
    a->arr = v;
    a->i = 0;
    a->n = *n = json_array_size(v);
    return true;
}

static bool t_next(TA *a, TV *v) {
    if (a->i >= a->n) return false;
    *v = json_array_get(a->arr, a->i++);
    return true;
}

static bool t_null(TV v) { return json_is_null(v); }

static bool t_STR(TV v, jstr *out) {
    if (!json_is_string(v)) return false;
    out->ptr = json_string_value(v);
    out->len = json_string_length(v);
    return true;
}

static bool t_I64(TV v, int64_t *out) {
    if (!json_is_integer(v)) return false;
    *out = json_integer_value(v);
    return true;
}

static bool t_I32(TV v, int32_t *out) {
    int64_t x;
    if (!t_I64(v, &x) || x < INT32_MIN || x > INT32_MAX) return false;
    *out = (int32_t)x;
    return true;
}

static bool t_BOOL(TV v, bool *out) {
    if (!json_is_boolean(v)) return false;
    *out = json_is_true(v);
    return true;
}

static bool t_F64(TV v, double *out) {
    if (!json_is_number(v)) return false;
    *out = json_number_value(v);
    return true;
}

static bool t_F32(TV v, float *out) {
    if (!json_is_number(v)) return false;
    *out = (float)json_number_value(v);
    return true;
}

static bool t_jv(S *s, TV v, jv *out) {
    size_t i = 0, n;
    switch (json_typeof(v)) {
    case JSON_NULL: out->kind = JV_NULL; return true;
    case JSON_TRUE: out->kind = JV_TRUE; return true;
    case JSON_FALSE: out->kind = JV_FALSE; return true;
    case JSON_INTEGER: out->kind = JV_INT; out->u.i = json_integer_value(v); return true;
    case JSON_REAL: out->kind = JV_DOUBLE; out->u.d = json_real_value(v); return true;
    case JSON_STRING: out->kind = JV_STRING; return t_STR(v, &out->u.s);
    case JSON_ARRAY:
        n = json_array_size(v);
        out->kind = JV_ARRAY;
        out->u.arr.n = n;
        out->u.arr.items = bench_arena_alloc(&s->arena, n * sizeof(jv));
        if (!out->u.arr.items) return false;
        for (i = 0; i < n; i++)
            if (!t_jv(s, json_array_get(v, i), &out->u.arr.items[i])) return false;
        return true;
    case JSON_OBJECT: {
        void *it;
        jv *vals;
        n = json_object_size(v);
        out->kind = JV_OBJECT;
        out->u.obj.n = n;
        out->u.obj.members = bench_arena_alloc(&s->arena, n * sizeof(jv_member));
        vals = bench_arena_alloc(&s->arena, n * sizeof(jv));
        if (!out->u.obj.members || !vals) return false;
        for (it = json_object_iter(v); it; it = json_object_iter_next(v, it)) {
            jv_member *m = &out->u.obj.members[i];
            m->key.ptr = json_object_iter_key(it);
            m->key.len = json_object_iter_key_len(it);
            m->value = &vals[i++];
            if (!t_jv(s, json_object_iter_value(it), m->value)) return false;
        }
        return true;
    }
    }
    return false;
}

/* ---- building ------------------------------------------------------------ */
static bool b_begin(S *s, bool array, TC *root) {
    s->built = *root = array ? json_array() : json_object();
    return *root != NULL;
}

static bool set(TC *o, const char *key, json_t *v) { return v && json_object_set_new_nocheck(*o, key, v) == 0; }

static bool b_put_obj(S *s, TC *parent, const char *key, size_t klen, TC *child) {
    (void)s, (void)klen;
    return set(parent, key, *child = json_object());
}
static bool b_put_arr(S *s, TC *parent, const char *key, size_t klen, TC *child) {
    (void)s, (void)klen;
    return set(parent, key, *child = json_array());
}
static bool b_add_obj(S *s, TC *arr, TC *child) {
    (void)s;
    *child = json_object();
    return *child && json_array_append_new(*arr, *child) == 0;
}
static bool b_end(S *s, TC *c) {
    (void)s, (void)c;
    return true;
}
static bool b_put_STR(S *s, TC *o, const char *key, size_t klen, const jstr *v) {
    (void)s, (void)klen;
    return set(o, key, json_stringn_nocheck(v->ptr, v->len));
}
static bool b_put_NSTR(S *s, TC *o, const char *key, size_t klen, const jstr *v) {
    (void)s, (void)klen;
    return set(o, key, v->ptr ? json_stringn_nocheck(v->ptr, v->len) : json_null());
}
static bool b_put_I32(S *s, TC *o, const char *key, size_t klen, const int32_t *v) {
    (void)s, (void)klen;
    return set(o, key, json_integer(*v));
}
static bool b_put_I64(S *s, TC *o, const char *key, size_t klen, const int64_t *v) {
    (void)s, (void)klen;
    return set(o, key, json_integer(*v));
}
static bool b_put_BOOL(S *s, TC *o, const char *key, size_t klen, const bool *v) {
    (void)s, (void)klen;
    return set(o, key, json_boolean(*v));
}
static bool b_put_F64(S *s, TC *o, const char *key, size_t klen, const double *v) {
    (void)s, (void)klen;
    return set(o, key, json_real(*v));
}
static bool b_put_F32(S *s, TC *o, const char *key, size_t klen, const float *v) {
    (void)s, (void)klen;
    return set(o, key, json_real(*v));
}
static bool b_put_copy(S *s, TC *o, const char *key, size_t klen, const char *p, size_t n) {
    (void)s, (void)klen;
    return set(o, key, json_stringn_nocheck(p, n));
}
static bool b_add_STR(S *s, TC *arr, const jstr *v) {
    (void)s;
    return json_array_append_new(*arr, json_stringn_nocheck(v->ptr, v->len)) == 0;
}

static json_t *from_jv(const jv *v) {
    json_t *c;
    size_t i;
    switch (v->kind) {
    case JV_NULL: return json_null();
    case JV_FALSE: return json_false();
    case JV_TRUE: return json_true();
    case JV_INT: return json_integer(v->u.i);
    case JV_DOUBLE: return json_real(v->u.d);
    case JV_STRING: return json_stringn_nocheck(v->u.s.ptr, v->u.s.len);
    case JV_ARRAY:
        c = json_array();
        for (i = 0; c && i < v->u.arr.n; i++)
            if (json_array_append_new(c, from_jv(&v->u.arr.items[i])) != 0) {
                json_decref(c);
                return NULL;
            }
        return c;
    case JV_OBJECT:
        c = json_object();
        for (i = 0; c && i < v->u.obj.n; i++) {
            const jv_member *m = &v->u.obj.members[i];
            if (json_object_setn_new_nocheck(c, m->key.ptr, m->key.len, from_jv(m->value)) != 0) {
                json_decref(c);
                return NULL;
            }
        }
        return c;
    }
    return NULL;
}

static bool b_jv(S *s, TC *o, const char *key, size_t klen, const jv *v) {
    (void)s, (void)klen;
    return set(o, key, from_jv(v));
}

static bool b_jv_root(S *s, TC *root, const jv *v) {
    json_decref(s->built);
    s->built = *root = from_jv(v);
    return *root != NULL;
}

static size_t b_finish_buf(S *s, TC *root, char *buf, size_t cap) {
    size_t n = json_dumpb(*root, buf, cap, JSON_COMPACT | JSON_ENCODE_ANY);
    (void)s;
    return n && n < cap ? n : 0;
}

static bool b_finish(S *s, TC *root, bench_text *out) {
    size_t n = json_dumpb(*root, s->buf, s->cap, JSON_COMPACT | JSON_ENCODE_ANY);
    if (!n) return false;
    if (n > s->cap) {
        free(s->buf);
        s->cap = n * 2;
        if (!(s->buf = malloc(s->cap))) return false;
        n = json_dumpb(*root, s->buf, s->cap, JSON_COMPACT | JSON_ENCODE_ANY);
    }
    out->data = s->buf;
    out->len = n;
    return true;
}

static void b_release(S *s) {
    json_decref(s->built);
    s->built = NULL;
}

#include "scen_template.h"

static void *create(void) { return calloc(1, sizeof(state)); }

static void release(void *st) {
    state *s = st;
    json_decref(s->root);
    s->root = NULL;
    b_release(s);
    bench_arena_reset(&s->arena);
}

static void destroy(void *st) {
    state *s = st;
    release(s);
    bench_arena_free(&s->arena);
    free(s->buf);
    free(s);
}

void bench_typed_jansson(bench_typed *t) {
    t->name = "jansson";
    t->notes = "decode: json_loadb + json_object_get, strings point into the tree; encode: json_object + "
               "json_object_set_new_nocheck / json_stringn_nocheck, json_dumpb into a reused buffer";
    t->create = create;
    t->destroy = destroy;
    t->release = release;
    scen_template_fill(t);
}
