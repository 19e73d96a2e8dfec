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
