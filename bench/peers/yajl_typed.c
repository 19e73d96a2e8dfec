/*
 * yajl typed adapter. Decode: yajl_tree_parse (NUL-terminated input: the
 * driver's scenario texts are) into a tree kept until release, members
 * found with yajl_tree_get, strings pointing into the tree. Encode: the
 * yajl_gen generator (yajl's writer) reused across documents with
 * yajl_gen_clear + yajl_gen_reset; the JSON0 stream copies each message
 * from the generator's buffer into the stream buffer.
 */
#include "../peers.h"
#include "scenario_types.h"

#include <yajl/yajl_gen.h>
#include <yajl/yajl_tree.h>

#include <stdlib.h>
#include <string.h>

typedef struct state {
    bench_arena arena;
    yajl_val root;
    yajl_gen g;
} state;

typedef state S;
typedef yajl_val TV;
typedef yajl_val TO;
typedef struct TA {
    yajl_val arr;
    size_t i;
} TA;
typedef struct TC {
    int unused;
} TC;

static bool t_root(S *s, const char *dat, size_t len, TV *root) {
    if (dat[len] != '\0') return false;
    s->root = yajl_tree_parse(dat, NULL, 0);
    *root = s->root;
    return s->root != NULL;
}

static bool t_obj(TV v, TO *o) {
    *o = v;
    return YAJL_IS_OBJECT(v);
}

static bool t_get(TO *o, const char *key, size_t klen, TV *v) {
    const char *path[2];
    (void)klen;
    path[0] = key;
    path[1] = NULL;
    return (*v = yajl_tree_get(*o, path, yajl_t_any)) != NULL;
}

static bool t_arr(TV v, TA *a, size_t *n) {
    if (!YAJL_IS_ARRAY(v)) return false;
    a->arr = v;
    a->i = 0;
    *n = v->u.array.len;
    return true;
}

static bool t_next(TA *a, TV *v) {
    if (a->i >= a->arr->u.array.len) return false;
    *v = a->arr->u.array.values[a->i++];
    return true;
}

static bool t_null(TV v) { return YAJL_IS_NULL(v); }

static bool t_STR(TV v, jstr *out) {
    if (!YAJL_IS_STRING(v)) return false;
    out->ptr = YAJL_GET_STRING(v);
    out->len = strlen(out->ptr);
    return true;
}

static bool t_I64(TV v, int64_t *out) {
    if (!YAJL_IS_INTEGER(v)) return false;
    *out = YAJL_GET_INTEGER(v);
    return true;
}

static bool t_I32(TV v, int32_t *out) {
    int64_t x;
    if (!t_I64(v, &x) || x < INT32_MIN || x > INT32_MAX) return false;
    *out = (int32_t)x;
    return true;
}

static bool t_BOOL(TV v, bool *out) {
    if (!YAJL_IS_TRUE(v) && !YAJL_IS_FALSE(v)) return false;
    *out = YAJL_IS_TRUE(v);
    return true;
}

static bool t_F64(TV v, double *out) {
    if (YAJL_IS_DOUBLE(v)) *out = YAJL_GET_DOUBLE(v);
    else if (YAJL_IS_INTEGER(v)) *out = (double)YAJL_GET_INTEGER(v);
    else return false;
    return true;
}

static bool t_F32(TV v, float *out) {
    double d;
    if (!t_F64(v, &d)) return false;
    *out = (float)d;
    return true;
}

static bool t_jv(S *s, TV v, jv *out) {
    size_t i, n;
    if (YAJL_IS_NULL(v)) out->kind = JV_NULL;
    else if (YAJL_IS_TRUE(v)) out->kind = JV_TRUE;
    else if (YAJL_IS_FALSE(v)) out->kind = JV_FALSE;
    else if (YAJL_IS_INTEGER(v)) {
        out->kind = JV_INT;
        out->u.i = YAJL_GET_INTEGER(v);
    } else if (YAJL_IS_DOUBLE(v)) {
        out->kind = JV_DOUBLE;
        out->u.d = YAJL_GET_DOUBLE(v);
    } else if (YAJL_IS_STRING(v)) {
        out->kind = JV_STRING;
        return t_STR(v, &out->u.s);
    } else if (YAJL_IS_ARRAY(v)) {
        n = v->u.array.len;
        out->kind = JV_ARRAY;
        out->u.arr.n = n;
        out->u.arr.items = bench_arena_alloc(&s->arena, n * sizeof(jv));
        if (!out->u.arr.items) return false;
        for (i = 0; i < n; i++)
            if (!t_jv(s, v->u.array.values[i], &out->u.arr.items[i])) return false;
    } else if (YAJL_IS_OBJECT(v)) {
        jv *vals;
        n = v->u.object.len;
        out->kind = JV_OBJECT;
        out->u.obj.n = n;
        out->u.obj.members = bench_arena_alloc(&s->arena, n * sizeof(jv_member));
        vals = bench_arena_alloc(&s->arena, n * sizeof(jv));
        if (!out->u.obj.members || !vals) return false;
        for (i = 0; i < n; i++) {
            jv_member *m = &out->u.obj.members[i];
            m->key.ptr = v->u.object.keys[i];
            m->key.len = strlen(m->key.ptr);
            m->value = &vals[i];
            if (!t_jv(s, v->u.object.values[i], m->value)) return false;
        }
    } else {
        return false;
    }
    return true;
}

/* ---- writing ------------------------------------------------------------- */
#define OK(x) ((x) == yajl_gen_status_ok)

static bool key(S *s, const char *k, size_t klen) {
    return OK(yajl_gen_string(s->g, (const unsigned char *)k, klen));
}

static bool b_begin(S *s, bool array, TC *root) {
    root->unused = array;
    yajl_gen_clear(s->g);
    yajl_gen_reset(s->g, NULL);
    return array ? OK(yajl_gen_array_open(s->g)) : OK(yajl_gen_map_open(s->g));
}

static bool b_put_obj(S *s, TC *parent, const char *k, size_t klen, TC *child) {
    (void)parent;
    child->unused = 0;
    return key(s, k, klen) && OK(yajl_gen_map_open(s->g));
}
static bool b_put_arr(S *s, TC *parent, const char *k, size_t klen, TC *child) {
    (void)parent;
    child->unused = 1;
    return key(s, k, klen) && OK(yajl_gen_array_open(s->g));
}
static bool b_add_obj(S *s, TC *arr, TC *child) {
    (void)arr;
    child->unused = 0;
    return OK(yajl_gen_map_open(s->g));
}
static bool b_end(S *s, TC *c) { return c->unused ? OK(yajl_gen_array_close(s->g)) : OK(yajl_gen_map_close(s->g)); }

static bool str(S *s, const char *p, size_t n) { return OK(yajl_gen_string(s->g, (const unsigned char *)p, n)); }

static bool b_put_STR(S *s, TC *o, const char *k, size_t klen, const jstr *v) {
    (void)o;
    return key(s, k, klen) && str(s, v->ptr, v->len);
}
static bool b_put_NSTR(S *s, TC *o, const char *k, size_t klen, const jstr *v) {
    (void)o;
    return key(s, k, klen) && (v->ptr ? str(s, v->ptr, v->len) : OK(yajl_gen_null(s->g)));
}
static bool b_put_I32(S *s, TC *o, const char *k, size_t klen, const int32_t *v) {
    (void)o;
    return key(s, k, klen) && OK(yajl_gen_integer(s->g, *v));
}
static bool b_put_I64(S *s, TC *o, const char *k, size_t klen, const int64_t *v) {
    (void)o;
    return key(s, k, klen) && OK(yajl_gen_integer(s->g, *v));
}
static bool b_put_BOOL(S *s, TC *o, const char *k, size_t klen, const bool *v) {
    (void)o;
    return key(s, k, klen) && OK(yajl_gen_bool(s->g, *v));
}
static bool b_put_F64(S *s, TC *o, const char *k, size_t klen, const double *v) {
    (void)o;
    return key(s, k, klen) && OK(yajl_gen_double(s->g, *v));
}
static bool b_put_F32(S *s, TC *o, const char *k, size_t klen, const float *v) {
    (void)o;
    return key(s, k, klen) && OK(yajl_gen_double(s->g, *v));
}
static bool b_put_copy(S *s, TC *o, const char *k, size_t klen, const char *p, size_t n) {
    (void)o;
    return key(s, k, klen) && str(s, p, n);
}
static bool b_add_STR(S *s, TC *arr, const jstr *v) {
    (void)arr;
    return str(s, v->ptr, v->len);
}
static bool b_add_I32(S *s, TC *arr, const int32_t *v) {
    (void)arr;
    return OK(yajl_gen_integer(s->g, *v));
}

static bool put_jv(S *s, const jv *v) {
    size_t i;
    switch (v->kind) {
    case JV_NULL: return OK(yajl_gen_null(s->g));
    case JV_FALSE: return OK(yajl_gen_bool(s->g, 0));
    case JV_TRUE: return OK(yajl_gen_bool(s->g, 1));
    case JV_INT: return OK(yajl_gen_integer(s->g, v->u.i));
    case JV_DOUBLE: return OK(yajl_gen_double(s->g, v->u.d));
    case JV_STRING: return str(s, v->u.s.ptr, v->u.s.len);
    case JV_ARRAY:
        if (!OK(yajl_gen_array_open(s->g))) return false;
        for (i = 0; i < v->u.arr.n; i++)
            if (!put_jv(s, &v->u.arr.items[i])) return false;
        return OK(yajl_gen_array_close(s->g));
    case JV_OBJECT:
        if (!OK(yajl_gen_map_open(s->g))) return false;
        for (i = 0; i < v->u.obj.n; i++)
            if (!key(s, v->u.obj.members[i].key.ptr, v->u.obj.members[i].key.len) ||
                !put_jv(s, v->u.obj.members[i].value))
                return false;
        return OK(yajl_gen_map_close(s->g));
    }
    return false;
}

static bool b_jv(S *s, TC *o, const char *k, size_t klen, const jv *v) {
    (void)o;
    return key(s, k, klen) && put_jv(s, v);
}

static bool b_jv_root(S *s, TC *root, const jv *v) {
    (void)root;
    yajl_gen_clear(s->g);
    yajl_gen_reset(s->g, NULL);
    return put_jv(s, v);
}

static bool b_finish(S *s, TC *root, bench_text *out) {
    const unsigned char *buf;
    size_t len;
    (void)root;
    if (!OK(yajl_gen_get_buf(s->g, &buf, &len))) return false;
    out->data = (const char *)buf;
    out->len = len;
    return true;
}

static size_t b_finish_buf(S *s, TC *root, char *buf, size_t cap) {
    bench_text t;
    if (!b_finish(s, root, &t) || t.len >= cap) return 0;
    memcpy(buf, t.data, t.len);
    return t.len;
}

static void b_release(S *s) { (void)s; }

#include "scen_template.h"

static void *create(void) {
    state *s = calloc(1, sizeof(state));
    if (!s) return NULL;
    s->g = yajl_gen_alloc(NULL);
    if (!s->g) {
        free(s);
        return NULL;
    }
    return s;
}

static void release(void *st) {
    state *s = st;
    yajl_tree_free(s->root);
    s->root = NULL;
    bench_arena_reset(&s->arena);
}

static void destroy(void *st) {
    state *s = st;
    release(s);
    bench_arena_free(&s->arena);
    yajl_gen_free(s->g);
    free(s);
}

void bench_typed_yajl(bench_typed *t) {
    t->name = "yajl";
    t->notes = "decode: yajl_tree_parse + yajl_tree_get, strings point into the tree; "
               "encode: yajl_gen reused (yajl_gen_clear + yajl_gen_reset)";
    t->create = create;
    t->destroy = destroy;
    t->release = release;
    scen_template_fill(t);
}
