/*
 * cJSON typed adapter. Decode: cJSON_ParseWithLength into a tree kept
 * until release, cJSON_GetObjectItemCaseSensitive per key, strings
 * pointing into the tree. Numbers are doubles in cJSON (integers are
 * exact up to 2^53, which covers every scenario value). Encode: a tree
 * built with cJSON_Create* / cJSON_AddItemToObjectCS (constant keys, not
 * copied), printed with cJSON_PrintPreallocated into a reused buffer.
 * cJSON strings are NUL-terminated: a string holding U+0000 (the escape
 * string) cannot be represented, so that cell shows n/a.
 */
#include "../peers.h"
#include "scenario_types.h"

#include <cjson/cJSON.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct state {
    bench_arena arena;
    cJSON *root;  /* decoded tree */
    cJSON *built; /* tree being written */
    char *buf;
    size_t cap;
} state;

typedef state S;
typedef const cJSON *TV;
typedef const cJSON *TO;
typedef struct TA {
    const cJSON *cur;
} TA;
typedef cJSON *TC;

static bool t_root(S *s, const char *dat, size_t len, TV *root) {
    s->root = cJSON_ParseWithLength(dat, len);
    *root = s->root;
    return s->root != NULL;
}

static bool t_obj(TV v, TO *o) {
    *o = v;
    return cJSON_IsObject(v);
}

static bool t_get(TO *o, const char *key, size_t klen, TV *v) {
    (void)klen;
    return (*v = cJSON_GetObjectItemCaseSensitive(*o, key)) != NULL;
}

static bool t_arr(TV v, TA *a, size_t *n) {
    if (!cJSON_IsArray(v)) return false;
    *n = (size_t)cJSON_GetArraySize(v);
    a->cur = v->child;
    return true;
}

static bool t_next(TA *a, TV *v) {
    if (!a->cur) return false;
    *v = a->cur;
    a->cur = a->cur->next;
    return true;
}

static bool t_null(TV v) { return cJSON_IsNull(v); }

static bool t_STR(TV v, jstr *out) {
    if (!cJSON_IsString(v)) return false;
    out->ptr = v->valuestring;
    out->len = strlen(v->valuestring);
    return true;
}

static bool t_I64(TV v, int64_t *out) {
    double d;
    if (!cJSON_IsNumber(v)) return false;
    d = v->valuedouble;
    if (d != floor(d) || d < -9007199254740992.0 || d > 9007199254740992.0) return false;
    *out = (int64_t)d;
    return true;
}

static bool t_I32(TV v, int32_t *out) {
    int64_t x;
    if (!t_I64(v, &x) || x < INT32_MIN || x > INT32_MAX) return false;
    *out = (int32_t)x;
    return true;
}

static bool t_BOOL(TV v, bool *out) {
    if (!cJSON_IsBool(v)) return false;
    *out = cJSON_IsTrue(v);
    return true;
}

static bool t_F64(TV v, double *out) {
    if (!cJSON_IsNumber(v)) return false;
    *out = v->valuedouble;
    return true;
}

static bool t_F32(TV v, float *out) {
    if (!cJSON_IsNumber(v)) return false;
    *out = (float)v->valuedouble;
    return true;
}

static bool t_jv(S *s, TV v, jv *out) {
    size_t i = 0, n;
    const cJSON *c;
    if (cJSON_IsNull(v)) out->kind = JV_NULL;
    else if (cJSON_IsBool(v)) out->kind = cJSON_IsTrue(v) ? JV_TRUE : JV_FALSE;
    else if (cJSON_IsNumber(v)) {
        /* cJSON cannot tell 30 from 30.0: integral values become integers */
        if (t_I64(v, &out->u.i)) out->kind = JV_INT;
        else {
            out->kind = JV_DOUBLE;
            out->u.d = v->valuedouble;
        }
    } else if (cJSON_IsString(v)) {
        out->kind = JV_STRING;
        return t_STR(v, &out->u.s);
    } else if (cJSON_IsArray(v)) {
        n = (size_t)cJSON_GetArraySize(v);
        out->kind = JV_ARRAY;
        out->u.arr.n = n;
        out->u.arr.items = bench_arena_alloc(&s->arena, n * sizeof(jv));
        if (!out->u.arr.items) return false;
        for (c = v->child; c; c = c->next)
            if (!t_jv(s, c, &out->u.arr.items[i++])) return false;
    } else if (cJSON_IsObject(v)) {
        jv *vals;
        n = (size_t)cJSON_GetArraySize(v);
        out->kind = JV_OBJECT;
        out->u.obj.n = n;
        out->u.obj.members = bench_arena_alloc(&s->arena, n * sizeof(jv_member));
        vals = bench_arena_alloc(&s->arena, n * sizeof(jv));
        if (!out->u.obj.members || !vals) return false;
        for (c = v->child; c; c = c->next) {
            jv_member *m = &out->u.obj.members[i];
            m->key.ptr = c->string;
            m->key.len = strlen(c->string);
            m->value = &vals[i++];
            if (!t_jv(s, c, m->value)) return false;
        }
    } else {
        return false;
    }
    return true;
}

/* ---- building ------------------------------------------------------------ */
static bool b_begin(S *s, bool array, TC *root) {
    s->built = *root = array ? cJSON_CreateArray() : cJSON_CreateObject();
    return *root != NULL;
}

static bool add(TC *o, const char *key, cJSON *item) {
    if (!item) return false;
    if (!cJSON_AddItemToObjectCS(*o, key, item)) {
        cJSON_Delete(item);
        return false;
    }
    return true;
}

static bool b_put_obj(S *s, TC *parent, const char *key, size_t klen, TC *child) {
    (void)s, (void)klen;
    return add(parent, key, *child = cJSON_CreateObject());
}
static bool b_put_arr(S *s, TC *parent, const char *key, size_t klen, TC *child) {
    (void)s, (void)klen;
    return add(parent, key, *child = cJSON_CreateArray());
}
static bool b_add_obj(S *s, TC *arr, TC *child) {
    (void)s;
    *child = cJSON_CreateObject();
    return *child && cJSON_AddItemToArray(*arr, *child);
}
static bool b_end(S *s, TC *c) {
    (void)s, (void)c;
    return true;
}

/* A cJSON string from a jstr: NUL-terminated, no U+0000 inside. */
static cJSON *make_str(const jstr *v) {
    char small[256], *tmp;
    cJSON *r;
    if (memchr(v->ptr, 0, v->len)) return NULL;
    if (v->ptr[v->len] == '\0') return cJSON_CreateString(v->ptr);
    tmp = v->len < sizeof(small) ? small : malloc(v->len + 1);
    if (!tmp) return NULL;
    memcpy(tmp, v->ptr, v->len);
    tmp[v->len] = '\0';
    r = cJSON_CreateString(tmp);
    if (tmp != small) free(tmp);
    return r;
}

static bool b_put_STR(S *s, TC *o, const char *key, size_t klen, const jstr *v) {
    (void)s, (void)klen;
    return add(o, key, make_str(v));
}
static bool b_put_NSTR(S *s, TC *o, const char *key, size_t klen, const jstr *v) {
    (void)s, (void)klen;
    return add(o, key, v->ptr ? make_str(v) : cJSON_CreateNull());
}
static bool b_put_I32(S *s, TC *o, const char *key, size_t klen, const int32_t *v) {
    (void)s, (void)klen;
    return add(o, key, cJSON_CreateNumber(*v));
}
static bool b_put_I64(S *s, TC *o, const char *key, size_t klen, const int64_t *v) {
    (void)s, (void)klen;
    return add(o, key, cJSON_CreateNumber((double)*v));
}
static bool b_put_BOOL(S *s, TC *o, const char *key, size_t klen, const bool *v) {
    (void)s, (void)klen;
    return add(o, key, cJSON_CreateBool(*v));
}
static bool b_put_F64(S *s, TC *o, const char *key, size_t klen, const double *v) {
    (void)s, (void)klen;
    return add(o, key, cJSON_CreateNumber(*v));
}
static bool b_put_F32(S *s, TC *o, const char *key, size_t klen, const float *v) {
    (void)s, (void)klen;
    return add(o, key, cJSON_CreateNumber(*v));
}
static bool b_put_copy(S *s, TC *o, const char *key, size_t klen, const char *p, size_t n) {
    jstr v;
    v.ptr = p;
    v.len = n;
    (void)s, (void)klen;
    return add(o, key, make_str(&v));
}
static bool b_add_STR(S *s, TC *arr, const jstr *v) {
    cJSON *item = make_str(v);
    (void)s;
    return item && cJSON_AddItemToArray(*arr, item);
}
static bool b_add_I32(S *s, TC *arr, const int32_t *v) {
    cJSON *item = cJSON_CreateNumber(*v);
    (void)s;
    return item && cJSON_AddItemToArray(*arr, item);
}

static cJSON *from_jv(const jv *v) {
    cJSON *c;
    size_t i;
    switch (v->kind) {
    case JV_NULL: return cJSON_CreateNull();
    case JV_FALSE: return cJSON_CreateFalse();
    case JV_TRUE: return cJSON_CreateTrue();
    case JV_INT: return cJSON_CreateNumber((double)v->u.i);
    case JV_DOUBLE: return cJSON_CreateNumber(v->u.d);
    case JV_STRING: return make_str(&v->u.s);
    case JV_ARRAY:
        c = cJSON_CreateArray();
        for (i = 0; c && i < v->u.arr.n; i++) {
            cJSON *e = from_jv(&v->u.arr.items[i]);
            if (!e || !cJSON_AddItemToArray(c, e)) {
                cJSON_Delete(e);
                cJSON_Delete(c);
                return NULL;
            }
        }
        return c;
    case JV_OBJECT:
        c = cJSON_CreateObject();
        for (i = 0; c && i < v->u.obj.n; i++) {
            const jv_member *m = &v->u.obj.members[i];
            cJSON *e = from_jv(m->value);
            char key[256];
            if (!e || m->key.len >= sizeof(key)) {
                cJSON_Delete(e);
                cJSON_Delete(c);
                return NULL;
            }
            memcpy(key, m->key.ptr, m->key.len);
            key[m->key.len] = '\0';
            if (!cJSON_AddItemToObject(c, key, e)) { /* copies the key */
                cJSON_Delete(e);
                cJSON_Delete(c);
                return NULL;
            }
        }
        return c;
    }
    return NULL;
}

static bool b_jv(S *s, TC *o, const char *key, size_t klen, const jv *v) {
    (void)s, (void)klen;
    return add(o, key, from_jv(v));
}

static bool b_jv_root(S *s, TC *root, const jv *v) {
    cJSON_Delete(s->built);
    s->built = *root = from_jv(v);
    return *root != NULL;
}

static size_t b_finish_buf(S *s, TC *root, char *buf, size_t cap) {
    (void)s;
    if (cap > INT32_MAX) cap = INT32_MAX;
    if (!cJSON_PrintPreallocated(*root, buf, (int)cap, 0)) return 0;
    return strlen(buf);
}

static bool b_finish(S *s, TC *root, bench_text *out) {
    size_t n;
    while (!(n = s->cap ? b_finish_buf(s, root, s->buf, s->cap) : 0)) {
        if (s->cap > ((size_t)1 << 28)) return false;
        s->cap = s->cap ? s->cap * 2 : 1 << 16;
        free(s->buf);
        if (!(s->buf = malloc(s->cap))) return false;
    }
    out->data = s->buf;
    out->len = n;
    return true;
}

static void b_release(S *s) {
    cJSON_Delete(s->built);
    s->built = NULL;
}

#include "scen_template.h"

static void *create(void) { return calloc(1, sizeof(state)); }

static void release(void *st) {
    state *s = st;
    cJSON_Delete(s->root);
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

void bench_typed_cjson(bench_typed *t) {
    t->name = "cjson";
    t->notes = "decode: cJSON_ParseWithLength + cJSON_GetObjectItemCaseSensitive, strings point into the tree; "
               "encode: cJSON_Create* + cJSON_AddItemToObjectCS, cJSON_PrintPreallocated into a reused buffer";
    t->create = create;
    t->destroy = destroy;
    t->release = release;
    scen_template_fill(t);
    t->encode[BS_ESCAPE] = NULL;
    t->na[BS_ESCAPE] = "cJSON strings are NUL-terminated: the string's U+0000 cannot be held";
}
