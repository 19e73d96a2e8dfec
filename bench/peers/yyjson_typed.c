/*
 * yyjson typed adapter. Decode: yyjson_read_opts (no INSITU: the input is
 * copied) into a document kept until release, members found in file order
 * with yyjson_obj_iter_get (the documented fast way to look up keys that
 * come in a known order), strings pointing into the document, arrays in a
 * reused arena. Encode: a mutable document built member by member
 * (keys and strings referenced, not copied) with yyjson's dynamic allocator
 * reused between documents, written by yyjson_mut_write_opts with a pool
 * allocator over a reused scratch buffer (no malloc per text), then copied
 * to where the driver wants it. Only released API is used (0.12.0 and
 * later): yyjson_mut_write_buf, which writes straight into a caller's
 * buffer, exists only in yyjson's master branch.
 */
#include "../peers.h"
#include "scenario_types.h"

#include <yyjson.h>

#include <stdlib.h>
#include <string.h>

typedef struct state {
    bench_arena arena;
    yyjson_doc *doc;
    yyjson_alc *alc;       /* dynamic allocator for the mutable documents */
    yyjson_mut_doc *mdoc;
    char *buf;
    size_t cap;
    char *scratch;         /* pool memory of the writer */
    size_t scratch_cap;
} state;

typedef state S;
typedef yyjson_val *TV;
typedef yyjson_obj_iter TO;
typedef yyjson_arr_iter TA;
typedef yyjson_mut_val *TC;

/* ---- reading ------------------------------------------------------------- */
static bool t_root(S *s, const char *dat, size_t len, TV *root) {
    s->doc = yyjson_read_opts((char *)(uintptr_t)dat, len, 0, NULL, NULL);
    *root = yyjson_doc_get_root(s->doc);
    return s->doc != NULL;
}

static bool t_obj(TV v, TO *o) { return yyjson_obj_iter_init(v, o); }

static bool t_get(TO *o, const char *key, size_t klen, TV *v) {
    *v = yyjson_obj_iter_getn(o, key, klen);
    return *v != NULL;
}

static bool t_arr(TV v, TA *a, size_t *n) {
    if (!yyjson_arr_iter_init(v, a)) return false;
    *n = yyjson_arr_size(v);
    return true;
}

static bool t_next(TA *a, TV *v) { return (*v = yyjson_arr_iter_next(a)) != NULL; }
static bool t_null(TV v) { return yyjson_is_null(v); }

static bool t_STR(TV v, jstr *out) {
    if (!yyjson_is_str(v)) return false;
    out->ptr = yyjson_get_str(v);
    out->len = yyjson_get_len(v);
    return true;
}

static bool t_I64(TV v, int64_t *out) {
    if (yyjson_is_sint(v)) *out = yyjson_get_sint(v);
    else if (yyjson_is_uint(v) && yyjson_get_uint(v) <= INT64_MAX) *out = (int64_t)yyjson_get_uint(v);
    else return false;
    return true;
}

static bool t_I32(TV v, int32_t *out) {
    int64_t x;
    if (!t_I64(v, &x) || x < INT32_MIN || x > INT32_MAX) return false;
    *out = (int32_t)x;
    return true;
}

static bool t_BOOL(TV v, bool *out) {
    if (!yyjson_is_bool(v)) return false;
    *out = yyjson_get_bool(v);
    return true;
}

static bool t_F64(TV v, double *out) {
    if (!yyjson_is_num(v)) return false;
    *out = yyjson_get_num(v);
    return true;
}

static bool t_F32(TV v, float *out) {
    double d;
    if (!t_F64(v, &d)) return false;
    *out = (float)d;
    return true;
}

static bool t_jv(S *s, TV v, jv *out) {
    size_t i = 0;
    switch (yyjson_get_type(v)) {
    case YYJSON_TYPE_NULL: out->kind = JV_NULL; return true;
    case YYJSON_TYPE_BOOL: out->kind = yyjson_get_bool(v) ? JV_TRUE : JV_FALSE; return true;
    case YYJSON_TYPE_NUM:
        if (yyjson_is_real(v)) {
            out->kind = JV_DOUBLE;
            out->u.d = yyjson_get_real(v);
            return true;
        }
        out->kind = JV_INT;
        return t_I64(v, &out->u.i);
    case YYJSON_TYPE_STR: out->kind = JV_STRING; return t_STR(v, &out->u.s);
    case YYJSON_TYPE_ARR: {
        yyjson_arr_iter it = yyjson_arr_iter_with(v);
        yyjson_val *e;
        out->kind = JV_ARRAY;
        out->u.arr.n = yyjson_arr_size(v);
        out->u.arr.items = bench_arena_alloc(&s->arena, out->u.arr.n * sizeof(jv));
        if (!out->u.arr.items) return false;
        while ((e = yyjson_arr_iter_next(&it)))
            if (!t_jv(s, e, &out->u.arr.items[i++])) return false;
        return true;
    }
    case YYJSON_TYPE_OBJ: {
        yyjson_obj_iter it = yyjson_obj_iter_with(v);
        yyjson_val *k;
        jv *vals;
        out->kind = JV_OBJECT;
        out->u.obj.n = yyjson_obj_size(v);
        out->u.obj.members = bench_arena_alloc(&s->arena, out->u.obj.n * sizeof(jv_member));
        vals = bench_arena_alloc(&s->arena, out->u.obj.n * sizeof(jv));
        if (!out->u.obj.members || !vals) return false;
        while ((k = yyjson_obj_iter_next(&it))) {
            jv_member *m = &out->u.obj.members[i];
            m->key.ptr = yyjson_get_str(k);
            m->key.len = yyjson_get_len(k);
            m->value = &vals[i++];
            if (!t_jv(s, yyjson_obj_iter_get_val(k), m->value)) return false;
        }
        return true;
    }
    default: return false;
    }
}

/* ---- building ------------------------------------------------------------ */
static bool b_begin(S *s, bool array, TC *root) {
    s->mdoc = yyjson_mut_doc_new(s->alc);
    if (!s->mdoc) return false;
    *root = array ? yyjson_mut_arr(s->mdoc) : yyjson_mut_obj(s->mdoc);
    yyjson_mut_doc_set_root(s->mdoc, *root);
    return *root != NULL;
}

static bool b_put_obj(S *s, TC *parent, const char *key, size_t klen, TC *child) {
    *child = yyjson_mut_obj(s->mdoc);
    return *child && yyjson_mut_obj_add(*parent, yyjson_mut_strn(s->mdoc, key, klen), *child);
}

static bool b_put_arr(S *s, TC *parent, const char *key, size_t klen, TC *child) {
    *child = yyjson_mut_arr(s->mdoc);
    return *child && yyjson_mut_obj_add(*parent, yyjson_mut_strn(s->mdoc, key, klen), *child);
}

static bool b_add_obj(S *s, TC *arr, TC *child) { return (*child = yyjson_mut_arr_add_obj(s->mdoc, *arr)) != NULL; }
static bool b_end(S *s, TC *c) {
    (void)s;
    (void)c;
    return true;
}

static bool b_put_val(S *s, TC *o, const char *key, size_t klen, yyjson_mut_val *v) {
    return v && yyjson_mut_obj_add(*o, yyjson_mut_strn(s->mdoc, key, klen), v);
}
static bool b_put_STR(S *s, TC *o, const char *key, size_t klen, const jstr *v) {
    return b_put_val(s, o, key, klen, yyjson_mut_strn(s->mdoc, v->ptr, v->len));
}
static bool b_put_NSTR(S *s, TC *o, const char *key, size_t klen, const jstr *v) {
    return b_put_val(s, o, key, klen, v->ptr ? yyjson_mut_strn(s->mdoc, v->ptr, v->len) : yyjson_mut_null(s->mdoc));
}
static bool b_put_I32(S *s, TC *o, const char *key, size_t klen, const int32_t *v) {
    return b_put_val(s, o, key, klen, yyjson_mut_sint(s->mdoc, *v));
}
static bool b_put_I64(S *s, TC *o, const char *key, size_t klen, const int64_t *v) {
    return b_put_val(s, o, key, klen, yyjson_mut_sint(s->mdoc, *v));
}
static bool b_put_BOOL(S *s, TC *o, const char *key, size_t klen, const bool *v) {
    return b_put_val(s, o, key, klen, yyjson_mut_bool(s->mdoc, *v));
}
static bool b_put_F64(S *s, TC *o, const char *key, size_t klen, const double *v) {
    return b_put_val(s, o, key, klen, yyjson_mut_real(s->mdoc, *v));
}
static bool b_put_F32(S *s, TC *o, const char *key, size_t klen, const float *v) {
    return b_put_val(s, o, key, klen, yyjson_mut_float(s->mdoc, *v)); /* written with float digits */
}
static bool b_put_copy(S *s, TC *o, const char *key, size_t klen, const char *p, size_t n) {
    return b_put_val(s, o, key, klen, yyjson_mut_strncpy(s->mdoc, p, n));
}
static bool b_add_STR(S *s, TC *arr, const jstr *v) {
    return yyjson_mut_arr_add_strn(s->mdoc, *arr, v->ptr, v->len);
}
static bool b_add_I32(S *s, TC *arr, const int32_t *v) { return yyjson_mut_arr_add_sint(s->mdoc, *arr, *v); }

static yyjson_mut_val *from_jv(S *s, const jv *v) {
    yyjson_mut_val *c;
    size_t i;
    switch (v->kind) {
    case JV_NULL: return yyjson_mut_null(s->mdoc);
    case JV_FALSE: return yyjson_mut_false(s->mdoc);
    case JV_TRUE: return yyjson_mut_true(s->mdoc);
    case JV_INT: return yyjson_mut_sint(s->mdoc, v->u.i);
    case JV_DOUBLE: return yyjson_mut_real(s->mdoc, v->u.d);
    case JV_STRING: return yyjson_mut_strn(s->mdoc, v->u.s.ptr, v->u.s.len);
    case JV_ARRAY:
        c = yyjson_mut_arr(s->mdoc);
        for (i = 0; c && i < v->u.arr.n; i++)
            if (!yyjson_mut_arr_append(c, from_jv(s, &v->u.arr.items[i]))) return NULL;
        return c;
    case JV_OBJECT:
        c = yyjson_mut_obj(s->mdoc);
        for (i = 0; c && i < v->u.obj.n; i++) {
            const jv_member *m = &v->u.obj.members[i];
            yyjson_mut_val *val = from_jv(s, m->value);
            if (!val || !yyjson_mut_obj_add(c, yyjson_mut_strn(s->mdoc, m->key.ptr, m->key.len), val)) return NULL;
        }
        return c;
    }
    return NULL;
}

static bool b_jv(S *s, TC *o, const char *key, size_t klen, const jv *v) {
    return b_put_val(s, o, key, klen, from_jv(s, v));
}

static bool b_jv_root(S *s, TC *root, const jv *v) {
    *root = from_jv(s, v);
    yyjson_mut_doc_set_root(s->mdoc, *root);
    return *root != NULL;
}

/* Writes the document with a pool allocator over s->scratch, grown until
 * the text fits; NULL when memory runs out. */
static const char *write_scratch(S *s, size_t *len) {
    for (;;) {
        yyjson_alc pool;
        const char *text = NULL;
        if (s->scratch_cap && yyjson_alc_pool_init(&pool, s->scratch, s->scratch_cap))
            text = yyjson_mut_write_opts(s->mdoc, 0, &pool, len, NULL);
        if (text) return text;
        if (s->scratch_cap > ((size_t)1 << 30)) return NULL;
        s->scratch_cap = s->scratch_cap ? s->scratch_cap * 2 : 1 << 16;
        free(s->scratch);
        if (!(s->scratch = malloc(s->scratch_cap))) {
            s->scratch_cap = 0;
            return NULL;
        }
    }
}

static size_t b_finish_buf(S *s, TC *root, char *buf, size_t cap) {
    size_t n = 0;
    const char *text = write_scratch(s, &n);
    (void)root;
    if (!text || n > cap) return 0;
    memcpy(buf, text, n);
    return n;
}

static bool b_finish(S *s, TC *root, bench_text *out) {
    size_t n;
    for (;;) {
        n = s->cap ? b_finish_buf(s, root, s->buf, s->cap) : 0;
        if (n) break;
        s->cap = s->cap ? s->cap * 2 : 1 << 16;
        free(s->buf);
        if (!(s->buf = malloc(s->cap)) || s->cap > ((size_t)1 << 30)) return false;
    }
    out->data = s->buf;
    out->len = n;
    return true;
}

static void b_release(S *s) {
    yyjson_mut_doc_free(s->mdoc);
    s->mdoc = NULL;
}

#include "scen_template.h"

static void *create(void) {
    state *s = calloc(1, sizeof(state));
    if (!s) return NULL;
    s->alc = yyjson_alc_dyn_new();
    if (!s->alc) {
        free(s);
        return NULL;
    }
    return s;
}

static void release(void *st) {
    state *s = st;
    yyjson_doc_free(s->doc);
    s->doc = NULL;
    b_release(s);
    bench_arena_reset(&s->arena);
}

static void destroy(void *st) {
    state *s = st;
    release(s);
    bench_arena_free(&s->arena);
    yyjson_alc_dyn_free(s->alc);
    free(s->buf);
    free(s->scratch);
    free(s);
}

void bench_typed_yyjson(bench_typed *t) {
    t->name = "yyjson";
    t->notes = "decode: yyjson_read_opts + yyjson_obj_iter_get in file order, strings point into the document; "
               "encode: mutable document (yyjson_alc_dyn reused), yyjson_mut_write_opts with a pool allocator "
               "over a reused buffer, then one copy";
    t->create = create;
    t->destroy = destroy;
    t->release = release;
    scen_template_fill(t);
}
