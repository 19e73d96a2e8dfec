/*
 * dom.c - the immutable document's accessors: lifetime, getters, element
 * and key lookup. JSON Pointer lives in pointer.c, equality in equal.c.
 */
#include "base/internal.h"

void tyjson_doc_free(tyjson_doc *doc) {
    if (!doc) return;
    tyjson_alloc alc = doc->alc;
    bool in_pool = doc->in_pool;
    tyjson__free(&alc, doc->str_pool);
    if (!in_pool) tyjson__free(&alc, doc);
}

tyjson_val *tyjson_doc_get_root(const tyjson_doc *doc) { return doc ? doc->root : NULL; }
usize tyjson_doc_get_read_size(const tyjson_doc *doc) { return doc ? doc->read_size : 0; }
usize tyjson_doc_get_val_count(const tyjson_doc *doc) { return doc ? doc->val_count : 0; }
usize tyjson_doc_get_mem_size(const tyjson_doc *doc) { return doc ? doc->mem_size : 0; }

const char *tyjson_get_type_desc(const tyjson_val *v) {
    switch (tyjson_get_type(v)) {
    case TYJSON_TYPE_RAW: return "raw";
    case TYJSON_TYPE_NULL: return "null";
    case TYJSON_TYPE_BOOL: return tyjson_is_true(v) ? "true" : "false";
    case TYJSON_TYPE_NUM:
        return tyjson_is_uint(v) ? "uint" : tyjson_is_sint(v) ? "sint" : "real";
    case TYJSON_TYPE_STR: return "string";
    case TYJSON_TYPE_ARR: return "array";
    case TYJSON_TYPE_OBJ: return "object";
    default: return "none";
    }
}

bool tyjson_get_i64(const tyjson_val *v, int64_t *out) {
    if (!out) return false;
    if (tyjson_is_sint(v)) {
        *out = v->uni.i64;
        return true;
    }
    if (tyjson_is_uint(v) && v->uni.u64 <= (u64)INT64_MAX) {
        *out = (int64_t)v->uni.u64;
        return true;
    }
    return false;
}

bool tyjson_get_u64(const tyjson_val *v, uint64_t *out) {
    if (!out) return false;
    if (tyjson_is_uint(v)) {
        *out = v->uni.u64;
        return true;
    }
    if (tyjson_is_sint(v) && v->uni.i64 >= 0) {
        *out = (u64)v->uni.i64;
        return true;
    }
    return false;
}

/* The setters: one scalar slot rewritten in place (tyjson__set_scalar, the
 * rule the mutable setters share). */
#define TAG_NULL  ((u64)TYJSON_TYPE_NULL)
#define TAG_FALSE ((u64)(TYJSON_TYPE_BOOL | TYJSON_SUBTYPE_FALSE))
#define TAG_TRUE  ((u64)(TYJSON_TYPE_BOOL | TYJSON_SUBTYPE_TRUE))
#define TAG_UINT  ((u64)(TYJSON_TYPE_NUM | TYJSON_SUBTYPE_UINT))
#define TAG_SINT  ((u64)(TYJSON_TYPE_NUM | TYJSON_SUBTYPE_SINT))

TYJSON__FORCEINLINE bool imm_set_scalar(tyjson_val *v, u64 tag, tyjson_val_uni u) {
    return v && tyjson__set_scalar(&v->tag, &v->uni, tag, u);
}

bool tyjson_set_null(tyjson_val *v) { return imm_set_scalar(v, TAG_NULL, tyjson__uni_u64(0)); }
bool tyjson_set_bool(tyjson_val *v, bool b) {
    return imm_set_scalar(v, b ? TAG_TRUE : TAG_FALSE, tyjson__uni_u64(0));
}
bool tyjson_set_uint(tyjson_val *v, uint64_t n) { return imm_set_scalar(v, TAG_UINT, tyjson__uni_u64(n)); }
bool tyjson_set_sint(tyjson_val *v, int64_t n) {
    return imm_set_scalar(v, n >= 0 ? TAG_UINT : TAG_SINT, tyjson__uni_u64((u64)n));
}
bool tyjson_set_int(tyjson_val *v, int64_t n) { return tyjson_set_sint(v, n); }
bool tyjson_set_real(tyjson_val *v, double d) {
    return imm_set_scalar(v, TYJSON__TAG_REAL, tyjson__uni_f64(d));
}
bool tyjson_set_float(tyjson_val *v, float f) {
    return imm_set_scalar(v, TYJSON__TAG_FLOAT, tyjson__uni_f64((double)f));
}
bool tyjson_set_strn(tyjson_val *v, const char *s, usize len) {
    if ((!s && len) || !tyjson__len_fits(len)) return false;
    return imm_set_scalar(v, tyjson__tag(TYJSON_TYPE_STR, len), tyjson__uni_str(s ? s : ""));
}
bool tyjson_set_str(tyjson_val *v, const char *s) { return s && tyjson_set_strn(v, s, strlen(s)); }

tyjson_val *tyjson_arr_get(const tyjson_val *arr, usize idx) {
    if (idx >= tyjson_arr_size(arr)) return NULL;
    tyjson_val *v = (tyjson_val *)(uintptr_t)(arr + 1);
    while (idx--) v = tyjson__next(v);
    return v;
}

tyjson_val *tyjson_arr_get_last(const tyjson_val *arr) {
    usize n = tyjson_arr_size(arr);
    return n ? tyjson_arr_get(arr, n - 1) : NULL;
}

tyjson_val *tyjson_obj_getn(const tyjson_val *obj, const char *key, usize len) {
    usize n = tyjson_obj_size(obj);
    if (!n || (!key && len)) return NULL;
    tyjson_val *k = (tyjson_val *)(uintptr_t)(obj + 1);
    while (n--) {
        if (tyjson__tag_len(k->tag) == len && (len == 0 || memcmp(k->uni.str, key, len) == 0))
            return k + 1;
        k = tyjson__next(k + 1);
    }
    return NULL;
}

tyjson_val *tyjson_obj_get(const tyjson_val *obj, const char *key) {
    return key ? tyjson_obj_getn(obj, key, strlen(key)) : NULL;
}
