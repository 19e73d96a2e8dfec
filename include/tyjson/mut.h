/*
 * tyjson/mut.h - the mutable document: build and edit values, copy between
 * immutable and mutable documents.
 *
 * Memory: every value and every copied string lives in the document's arena
 * and is released by tyjson_mut_doc_free; removing a value from a container
 * unlinks it but does not release its memory until the document is freed.
 * A value belongs to the document that created it: adding it to a container
 * of another document is a programmer error.
 *
 * Linking: a value sits in at most one container at a time. Every call that
 * puts a value into a container (insert, append, prepend, replace, the
 * object add and put calls and their helpers) refuses, returning false or
 * NULL and changing nothing, a value that is already in a container, a
 * container put into itself, and an object key used as its own value.
 * Removing a value (remove, replace, put, clear) takes it out, so it can be
 * inserted again. Values have no parent pointers, so inserting a container
 * into one of its own descendants (a cycle) is not detected: avoiding it is
 * the caller's duty, and what any call does with a cycle is undefined.
 *
 * Repeated keys: an object may hold the same key twice (tyjson_mut_obj_add
 * allows it, and parsed documents keep repeats). Lookups (obj_get, ptr_get)
 * return the first member with the key, like the immutable side; the
 * iterator visits every member in order; equality pairs repeats in order
 * (see tyjson_equals_ex).
 *
 * String ownership is explicit in the name:
 *   tyjson_mut_str / _strn       reference the caller's bytes, which must
 *                                outlive the document (no copy, no alloc);
 *   tyjson_mut_strcpy / _strncpy copy the bytes into the document.
 *
 * Layout: a container holds a circular singly linked list of its children
 * and points at the last one, so append and prepend are O(1) and index
 * access is O(n). An object's list alternates key, value, key, value.
 *
 * Thread-safety: none; one thread at a time per document.
 */
#ifndef TYJSON_MUT_H
#define TYJSON_MUT_H

#include "dom.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tyjson_mut_val {
    uint64_t tag;          /* same encoding as tyjson_val */
    tyjson_val_uni uni;    /* containers: uni.ptr is the last child */
    struct tyjson_mut_val *next;
} tyjson_mut_val;

typedef struct tyjson_mut_doc tyjson_mut_doc;

/* ----------------------------------------------------------------------------
 * MARK: - Document
 * ------------------------------------------------------------------------- */
/** New empty document (root NULL). `alc` NULL = libc. NULL on no memory. */
TYJSON_API tyjson_mut_doc *tyjson_mut_doc_new(const tyjson_alloc *alc);
/** Releases the document and all its values. NULL is ignored. */
TYJSON_API void tyjson_mut_doc_free(tyjson_mut_doc *doc);
TYJSON_API tyjson_mut_val *tyjson_mut_doc_get_root(const tyjson_mut_doc *doc);
TYJSON_API void tyjson_mut_doc_set_root(tyjson_mut_doc *doc, tyjson_mut_val *root);

/* ----------------------------------------------------------------------------
 * MARK: - Creating values (NULL on no memory or NULL doc)
 * ------------------------------------------------------------------------- */
TYJSON_API tyjson_mut_val *tyjson_mut_null(tyjson_mut_doc *doc);
TYJSON_API tyjson_mut_val *tyjson_mut_bool(tyjson_mut_doc *doc, bool b);
TYJSON_API tyjson_mut_val *tyjson_mut_true(tyjson_mut_doc *doc);
TYJSON_API tyjson_mut_val *tyjson_mut_false(tyjson_mut_doc *doc);
TYJSON_API tyjson_mut_val *tyjson_mut_uint(tyjson_mut_doc *doc, uint64_t n);
/** Signed integer; stored as UINT when n >= 0, like parsed values. */
TYJSON_API tyjson_mut_val *tyjson_mut_sint(tyjson_mut_doc *doc, int64_t n);
TYJSON_API tyjson_mut_val *tyjson_mut_int(tyjson_mut_doc *doc, int64_t n);
/** Double; NaN and infinities are accepted here but the writer refuses
 *  them unless TYJSON_WRITE_ALLOW_INF_NAN. */
TYJSON_API tyjson_mut_val *tyjson_mut_real(tyjson_mut_doc *doc, double d);
/** String referencing the caller's NUL-terminated bytes (no copy). */
TYJSON_API tyjson_mut_val *tyjson_mut_str(tyjson_mut_doc *doc, const char *s);
/** String referencing `len` caller bytes (no copy). */
TYJSON_API tyjson_mut_val *tyjson_mut_strn(tyjson_mut_doc *doc, const char *s, size_t len);
/** String copied into the document. */
TYJSON_API tyjson_mut_val *tyjson_mut_strcpy(tyjson_mut_doc *doc, const char *s);
TYJSON_API tyjson_mut_val *tyjson_mut_strncpy(tyjson_mut_doc *doc, const char *s, size_t len);
/** Raw JSON number text, copied; written back unchanged. */
TYJSON_API tyjson_mut_val *tyjson_mut_rawncpy(tyjson_mut_doc *doc, const char *s, size_t len);
TYJSON_API tyjson_mut_val *tyjson_mut_arr(tyjson_mut_doc *doc);
TYJSON_API tyjson_mut_val *tyjson_mut_obj(tyjson_mut_doc *doc);

/* ----------------------------------------------------------------------------
 * MARK: - Getters and setters (same meaning as the immutable getters)
 * ------------------------------------------------------------------------- */
#define TYJSON__AS_VAL(v) ((const tyjson_val *)(const void *)(v))
TYJSON_INLINE tyjson_type tyjson_mut_get_type(const tyjson_mut_val *v) { return tyjson_get_type(TYJSON__AS_VAL(v)); }
TYJSON_INLINE tyjson_subtype tyjson_mut_get_subtype(const tyjson_mut_val *v) { return tyjson_get_subtype(TYJSON__AS_VAL(v)); }
TYJSON_INLINE bool tyjson_mut_is_null(const tyjson_mut_val *v) { return tyjson_is_null(TYJSON__AS_VAL(v)); }
TYJSON_INLINE bool tyjson_mut_is_bool(const tyjson_mut_val *v) { return tyjson_is_bool(TYJSON__AS_VAL(v)); }
TYJSON_INLINE bool tyjson_mut_is_uint(const tyjson_mut_val *v) { return tyjson_is_uint(TYJSON__AS_VAL(v)); }
TYJSON_INLINE bool tyjson_mut_is_sint(const tyjson_mut_val *v) { return tyjson_is_sint(TYJSON__AS_VAL(v)); }
TYJSON_INLINE bool tyjson_mut_is_int(const tyjson_mut_val *v) { return tyjson_is_int(TYJSON__AS_VAL(v)); }
TYJSON_INLINE bool tyjson_mut_is_real(const tyjson_mut_val *v) { return tyjson_is_real(TYJSON__AS_VAL(v)); }
TYJSON_INLINE bool tyjson_mut_is_num(const tyjson_mut_val *v) { return tyjson_is_num(TYJSON__AS_VAL(v)); }
TYJSON_INLINE bool tyjson_mut_is_str(const tyjson_mut_val *v) { return tyjson_is_str(TYJSON__AS_VAL(v)); }
TYJSON_INLINE bool tyjson_mut_is_raw(const tyjson_mut_val *v) { return tyjson_is_raw(TYJSON__AS_VAL(v)); }
TYJSON_INLINE bool tyjson_mut_is_arr(const tyjson_mut_val *v) { return tyjson_is_arr(TYJSON__AS_VAL(v)); }
TYJSON_INLINE bool tyjson_mut_is_obj(const tyjson_mut_val *v) { return tyjson_is_obj(TYJSON__AS_VAL(v)); }
TYJSON_INLINE bool tyjson_mut_get_bool(const tyjson_mut_val *v) { return tyjson_get_bool(TYJSON__AS_VAL(v)); }
TYJSON_INLINE uint64_t tyjson_mut_get_uint(const tyjson_mut_val *v) { return tyjson_get_uint(TYJSON__AS_VAL(v)); }
TYJSON_INLINE int64_t tyjson_mut_get_sint(const tyjson_mut_val *v) { return tyjson_get_sint(TYJSON__AS_VAL(v)); }
TYJSON_INLINE int64_t tyjson_mut_get_int(const tyjson_mut_val *v) { return tyjson_get_int(TYJSON__AS_VAL(v)); }
TYJSON_INLINE double tyjson_mut_get_real(const tyjson_mut_val *v) { return tyjson_get_real(TYJSON__AS_VAL(v)); }
TYJSON_INLINE double tyjson_mut_get_num(const tyjson_mut_val *v) { return tyjson_get_num(TYJSON__AS_VAL(v)); }
TYJSON_INLINE const char *tyjson_mut_get_str(const tyjson_mut_val *v) { return tyjson_get_str(TYJSON__AS_VAL(v)); }
/** Bytes of a string (which, when referenced with _strn, need not be
 *  NUL-terminated); element or member count of a container. */
TYJSON_INLINE size_t tyjson_mut_get_len(const tyjson_mut_val *v) { return tyjson_get_len(TYJSON__AS_VAL(v)); }
TYJSON_INLINE bool tyjson_mut_equals_str(const tyjson_mut_val *v, const char *s) { return tyjson_equals_str(TYJSON__AS_VAL(v), s); }
TYJSON_INLINE bool tyjson_mut_equals_strn(const tyjson_mut_val *v, const char *s, size_t n) { return tyjson_equals_strn(TYJSON__AS_VAL(v), s, n); }

/* Setters change a value in place to a scalar; they return false for NULL
 * or for a container (change containers with the container calls). A value
 * changed this way keeps its position in its parent. */
TYJSON_API bool tyjson_mut_set_null(tyjson_mut_val *v);
TYJSON_API bool tyjson_mut_set_bool(tyjson_mut_val *v, bool b);
TYJSON_API bool tyjson_mut_set_uint(tyjson_mut_val *v, uint64_t n);
TYJSON_API bool tyjson_mut_set_sint(tyjson_mut_val *v, int64_t n);
TYJSON_API bool tyjson_mut_set_real(tyjson_mut_val *v, double d);
/** Makes v reference the caller's bytes (no copy). */
TYJSON_API bool tyjson_mut_set_strn(tyjson_mut_val *v, const char *s, size_t len);
/** Makes v hold a copy of the bytes, stored in `doc`. */
TYJSON_API bool tyjson_mut_set_strncpy(tyjson_mut_doc *doc, tyjson_mut_val *v, const char *s, size_t len);

/* ----------------------------------------------------------------------------
 * MARK: - Arrays
 * ------------------------------------------------------------------------- */
TYJSON_INLINE size_t tyjson_mut_arr_size(const tyjson_mut_val *arr) { return tyjson_arr_size(TYJSON__AS_VAL(arr)); }
/** Element `idx` (O(idx)), or NULL. */
TYJSON_API tyjson_mut_val *tyjson_mut_arr_get(const tyjson_mut_val *arr, size_t idx);
TYJSON_API tyjson_mut_val *tyjson_mut_arr_get_first(const tyjson_mut_val *arr);
TYJSON_API tyjson_mut_val *tyjson_mut_arr_get_last(const tyjson_mut_val *arr);
/** Adds at the end / the front / before position idx (idx == size appends).
 *  False if arr is not an array, val is NULL or already in a container (see
 *  "Linking" above), val is arr, or idx > size. */
TYJSON_API bool tyjson_mut_arr_append(tyjson_mut_val *arr, tyjson_mut_val *val);
TYJSON_API bool tyjson_mut_arr_prepend(tyjson_mut_val *arr, tyjson_mut_val *val);
TYJSON_API bool tyjson_mut_arr_insert(tyjson_mut_val *arr, tyjson_mut_val *val, size_t idx);
/** Replaces element idx; returns the old element (now unlinked), or NULL if
 *  idx is out of range or val cannot be inserted (see "Linking"). */
TYJSON_API tyjson_mut_val *tyjson_mut_arr_replace(tyjson_mut_val *arr, size_t idx, tyjson_mut_val *val);
/** Unlinks element idx; returns it (free to be inserted again), or NULL. */
TYJSON_API tyjson_mut_val *tyjson_mut_arr_remove(tyjson_mut_val *arr, size_t idx);
TYJSON_API tyjson_mut_val *tyjson_mut_arr_remove_first(tyjson_mut_val *arr);
TYJSON_API tyjson_mut_val *tyjson_mut_arr_remove_last(tyjson_mut_val *arr);
/** Empties the array, unlinking every element: O(size). */
TYJSON_API bool tyjson_mut_arr_clear(tyjson_mut_val *arr);

/* Append helpers: create the value in doc and append it; false on failure. */
TYJSON_API bool tyjson_mut_arr_add_null(tyjson_mut_doc *doc, tyjson_mut_val *arr);
TYJSON_API bool tyjson_mut_arr_add_bool(tyjson_mut_doc *doc, tyjson_mut_val *arr, bool b);
TYJSON_API bool tyjson_mut_arr_add_uint(tyjson_mut_doc *doc, tyjson_mut_val *arr, uint64_t n);
TYJSON_API bool tyjson_mut_arr_add_sint(tyjson_mut_doc *doc, tyjson_mut_val *arr, int64_t n);
TYJSON_API bool tyjson_mut_arr_add_real(tyjson_mut_doc *doc, tyjson_mut_val *arr, double d);
TYJSON_API bool tyjson_mut_arr_add_str(tyjson_mut_doc *doc, tyjson_mut_val *arr, const char *s);
TYJSON_API bool tyjson_mut_arr_add_strcpy(tyjson_mut_doc *doc, tyjson_mut_val *arr, const char *s);
/** Creates an array / object, appends it and returns it (NULL on failure). */
TYJSON_API tyjson_mut_val *tyjson_mut_arr_add_arr(tyjson_mut_doc *doc, tyjson_mut_val *arr);
TYJSON_API tyjson_mut_val *tyjson_mut_arr_add_obj(tyjson_mut_doc *doc, tyjson_mut_val *arr);

typedef struct tyjson_mut_arr_iter {
    size_t idx, max;
    tyjson_mut_val *cur; /* next element to return */
} tyjson_mut_arr_iter;
TYJSON_INLINE tyjson_mut_arr_iter tyjson_mut_arr_iter_with(const tyjson_mut_val *arr) {
    tyjson_mut_arr_iter it;
    it.idx = 0;
    it.max = tyjson_mut_arr_size(arr);
    it.cur = it.max ? ((tyjson_mut_val *)arr->uni.ptr)->next : NULL;
    return it;
}
/** Next element or NULL. Do not modify the array while iterating. */
TYJSON_INLINE tyjson_mut_val *tyjson_mut_arr_iter_next(tyjson_mut_arr_iter *it) {
    if (!it || it->idx >= it->max) return NULL;
    tyjson_mut_val *v = it->cur;
    it->idx++;
    it->cur = v->next;
    return v;
}

/* ----------------------------------------------------------------------------
 * MARK: - Objects
 * ------------------------------------------------------------------------- */
TYJSON_INLINE size_t tyjson_mut_obj_size(const tyjson_mut_val *obj) { return tyjson_obj_size(TYJSON__AS_VAL(obj)); }
/** Value of the first member with this key, or NULL (linear). */
TYJSON_API tyjson_mut_val *tyjson_mut_obj_get(const tyjson_mut_val *obj, const char *key);
TYJSON_API tyjson_mut_val *tyjson_mut_obj_getn(const tyjson_mut_val *obj, const char *key, size_t len);
/** Appends a member (key must be a string value); duplicates are allowed.
 *  False on bad arguments, or if key or val is already in a container, or
 *  key == val, or val == obj (see "Linking"). */
TYJSON_API bool tyjson_mut_obj_add(tyjson_mut_val *obj, tyjson_mut_val *key, tyjson_mut_val *val);
/** Replaces the value of the first member with key's text, removing any later
 *  members with the same key; adds the member if absent. The first member's
 *  key node stays (the given key is then not used); replaced and removed
 *  nodes are unlinked. Same refusals as tyjson_mut_obj_add. */
TYJSON_API bool tyjson_mut_obj_put(tyjson_mut_val *obj, tyjson_mut_val *key, tyjson_mut_val *val);
/** Removes every member with this key (keys and values are unlinked);
 *  returns the value of the first one removed, or NULL if none. */
TYJSON_API tyjson_mut_val *tyjson_mut_obj_remove_key(tyjson_mut_val *obj, const char *key);
TYJSON_API tyjson_mut_val *tyjson_mut_obj_remove_keyn(tyjson_mut_val *obj, const char *key, size_t len);
/** Empties the object, unlinking every key and value: O(size). */
TYJSON_API bool tyjson_mut_obj_clear(tyjson_mut_val *obj);

/* Member helpers: the key is referenced (no copy) unless named _keycpy below;
 * the value is created in doc. False on failure. */
TYJSON_API bool tyjson_mut_obj_add_null(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key);
TYJSON_API bool tyjson_mut_obj_add_bool(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key, bool b);
TYJSON_API bool tyjson_mut_obj_add_uint(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key, uint64_t n);
TYJSON_API bool tyjson_mut_obj_add_sint(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key, int64_t n);
TYJSON_API bool tyjson_mut_obj_add_real(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key, double d);
/** Value string referenced. */
TYJSON_API bool tyjson_mut_obj_add_str(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key, const char *s);
/** Value string copied. */
TYJSON_API bool tyjson_mut_obj_add_strcpy(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key, const char *s);
/** Adds `key: val` for an existing value. */
TYJSON_API bool tyjson_mut_obj_add_val(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key, tyjson_mut_val *val);
/** Same with the key copied into the document. */
TYJSON_API bool tyjson_mut_obj_add_val_keycpy(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key, tyjson_mut_val *val);
/** Creates an array / object under key and returns it (NULL on failure). */
TYJSON_API tyjson_mut_val *tyjson_mut_obj_add_arr(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key);
TYJSON_API tyjson_mut_val *tyjson_mut_obj_add_obj(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key);

typedef struct tyjson_mut_obj_iter {
    size_t idx, max;
    tyjson_mut_val *cur; /* next key to return */
} tyjson_mut_obj_iter;
TYJSON_INLINE tyjson_mut_obj_iter tyjson_mut_obj_iter_with(const tyjson_mut_val *obj) {
    tyjson_mut_obj_iter it;
    it.idx = 0;
    it.max = tyjson_mut_obj_size(obj);
    it.cur = it.max ? ((tyjson_mut_val *)obj->uni.ptr)->next : NULL;
    return it;
}
/** Next key or NULL; its value is key->next. */
TYJSON_INLINE tyjson_mut_val *tyjson_mut_obj_iter_next(tyjson_mut_obj_iter *it) {
    if (!it || it->idx >= it->max) return NULL;
    tyjson_mut_val *k = it->cur;
    it->idx++;
    it->cur = k->next->next;
    return k;
}
TYJSON_INLINE tyjson_mut_val *tyjson_mut_obj_iter_get_val(tyjson_mut_val *key) { return key ? key->next : NULL; }

/* ----------------------------------------------------------------------------
 * MARK: - Copies, pointer, equality
 * ------------------------------------------------------------------------- */
/** Deep copy of an immutable value into doc (strings copied). NULL on failure. */
TYJSON_API tyjson_mut_val *tyjson_val_mut_copy(tyjson_mut_doc *doc, const tyjson_val *val);
/** Deep copy of a mutable value (of any document) into doc. */
TYJSON_API tyjson_mut_val *tyjson_mut_val_mut_copy(tyjson_mut_doc *doc, const tyjson_mut_val *val);
/** New mutable document holding a copy of an immutable one. */
TYJSON_API tyjson_mut_doc *tyjson_doc_mut_copy(const tyjson_doc *doc, const tyjson_alloc *alc);
/** New immutable document holding a copy of a mutable one (strings copied). */
TYJSON_API tyjson_doc *tyjson_mut_doc_imut_copy(const tyjson_mut_doc *doc, const tyjson_alloc *alc);
/** Immutable document copied from one mutable value. */
TYJSON_API tyjson_doc *tyjson_mut_val_imut_copy(const tyjson_mut_val *val, const tyjson_alloc *alc);
/** JSON Pointer lookup on a mutable value: the rules, statuses and
 *  offsets of tyjson_ptr_getx (one implementation serves both). */
TYJSON_API tyjson_mut_val *tyjson_mut_ptr_getx(const tyjson_mut_val *val, const char *ptr,
                                               size_t len, tyjson_error *err);
/** NUL-terminated pointer form of tyjson_mut_ptr_getx without error
 *  detail; NULL when ptr is NULL. */
TYJSON_API tyjson_mut_val *tyjson_mut_ptr_get(const tyjson_mut_val *val, const char *ptr);
/**
 * Deep equality with the rules and the algorithm of tyjson_equals_ex
 * (repeated keys compare in order), reporting out-of-memory: TYJSON_OK
 * with *equal set, TYJSON_E_NOMEM (*equal false) or TYJSON_E_INVALID_ARG
 * (`equal` NULL). A NULL value equals only NULL. Memory: one frame (under
 * 64 bytes) per level of nesting being compared (32 levels on the C stack,
 * deeper from `alc`, NULL = libc), plus, for a pair of objects of more
 * than 32 members whose keys come in different orders, a sorted index of
 * 32 bytes per member while that pair is compared. Values do not know
 * their document: pass its allocator to keep the scratch there.
 */
TYJSON_API tyjson_status tyjson_mut_equals_ex(const tyjson_mut_val *a, const tyjson_mut_val *b,
                                              const tyjson_alloc *alc, bool *equal);
/** tyjson_mut_equals_ex with libc scratch, as a bool: false when the values
 *  differ and also when scratch memory runs out. */
TYJSON_API bool tyjson_mut_equals(const tyjson_mut_val *a, const tyjson_mut_val *b);

#ifdef __cplusplus
}
#endif
#endif /* TYJSON_MUT_H */
