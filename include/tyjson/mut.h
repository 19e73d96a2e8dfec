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

/** A value of a mutable document, allocated in its arena and valid until
 *  tyjson_mut_doc_free; never freed on its own. Change it only through the
 *  calls below. */
typedef struct tyjson_mut_val {
    uint64_t tag;          /**< same encoding as tyjson_val */
    tyjson_val_uni uni;    /**< containers: uni.ptr is the last child */
    struct tyjson_mut_val *next; /**< next sibling (circular); NULL when unlinked */
} tyjson_mut_val;

/** A mutable document (opaque): from tyjson_mut_doc_new or a copy,
 *  released by tyjson_mut_doc_free with all its values. */
typedef struct tyjson_mut_doc tyjson_mut_doc;

/* ----------------------------------------------------------------------------
 * MARK: - Document
 * ------------------------------------------------------------------------- */
/** New empty document (root NULL) whose arena uses `alc` (NULL = libc;
 *  the record is copied). Release it with tyjson_mut_doc_free. NULL when
 *  out of memory. */
TYJSON_API tyjson_mut_doc *tyjson_mut_doc_new(const tyjson_alloc *alc);
/** Releases the document and all its values. NULL is ignored. */
TYJSON_API void tyjson_mut_doc_free(tyjson_mut_doc *doc);
/** Root value, or NULL when the document has none or doc is NULL. */
TYJSON_API tyjson_mut_val *tyjson_mut_doc_get_root(const tyjson_mut_doc *doc);
/** Makes root (a value of doc) the root; NULL clears the root. A NULL doc
 *  does nothing. */
TYJSON_API void tyjson_mut_doc_set_root(tyjson_mut_doc *doc, tyjson_mut_val *root);

/* ----------------------------------------------------------------------------
 * MARK: - Creating values
 *
 * Each returns a new unlinked value in doc's arena (it lives until the
 * document is freed), or NULL on no memory or a NULL doc.
 * ------------------------------------------------------------------------- */
/** New null. */
TYJSON_API tyjson_mut_val *tyjson_mut_null(tyjson_mut_doc *doc);
/** New true or false. */
TYJSON_API tyjson_mut_val *tyjson_mut_bool(tyjson_mut_doc *doc, bool b);
/** New true. */
TYJSON_API tyjson_mut_val *tyjson_mut_true(tyjson_mut_doc *doc);
/** New false. */
TYJSON_API tyjson_mut_val *tyjson_mut_false(tyjson_mut_doc *doc);
/** New non-negative integer (subtype UINT). */
TYJSON_API tyjson_mut_val *tyjson_mut_uint(tyjson_mut_doc *doc, uint64_t n);
/** Signed integer; stored as UINT when n >= 0, like parsed values. */
TYJSON_API tyjson_mut_val *tyjson_mut_sint(tyjson_mut_doc *doc, int64_t n);
/** Same as tyjson_mut_sint. */
TYJSON_API tyjson_mut_val *tyjson_mut_int(tyjson_mut_doc *doc, int64_t n);
/** Double; NaN and infinities are accepted here but the writer refuses
 *  them unless TYJSON_WRITE_ALLOW_INF_NAN. */
TYJSON_API tyjson_mut_val *tyjson_mut_real(tyjson_mut_doc *doc, double d);
/** Float: a REAL holding f widened exactly to a double (get_real gives
 *  (double)f), marked as a float (tyjson_mut_is_float), so every writer
 *  writes it as the shortest text that reads back to the same float32:
 *  0.1f as 0.1 (a plain tyjson_mut_real((double)0.1f) writes
 *  0.10000000149011612). NaN and the infinities follow the write flags as
 *  for doubles. */
TYJSON_API tyjson_mut_val *tyjson_mut_float(tyjson_mut_doc *doc, float f);
/** String referencing the caller's NUL-terminated bytes (no copy: they
 *  must outlive the document). NULL for a NULL s. */
TYJSON_API tyjson_mut_val *tyjson_mut_str(tyjson_mut_doc *doc, const char *s);
/** String referencing `len` caller bytes (no copy; they may hold U+0000
 *  and need no NUL). NULL with len 0 is ""; NULL with len > 0 gives NULL. */
TYJSON_API tyjson_mut_val *tyjson_mut_strn(tyjson_mut_doc *doc, const char *s, size_t len);
/** String holding a NUL-terminated copy of s, in the document. NULL for a
 *  NULL s. */
TYJSON_API tyjson_mut_val *tyjson_mut_strcpy(tyjson_mut_doc *doc, const char *s);
/** String holding a copy of `len` bytes, in the document (NUL added).
 *  NULL with len 0 is ""; NULL with len > 0 gives NULL. */
TYJSON_API tyjson_mut_val *tyjson_mut_strncpy(tyjson_mut_doc *doc, const char *s, size_t len);
/** Raw JSON number text, copied like tyjson_mut_strncpy; the writers write
 *  it back unchanged (it is not checked). */
TYJSON_API tyjson_mut_val *tyjson_mut_rawncpy(tyjson_mut_doc *doc, const char *s, size_t len);
/** New empty array. */
TYJSON_API tyjson_mut_val *tyjson_mut_arr(tyjson_mut_doc *doc);
/** New empty object. */
TYJSON_API tyjson_mut_val *tyjson_mut_obj(tyjson_mut_doc *doc);

/* ----------------------------------------------------------------------------
 * MARK: - Getters and setters
 *
 * Each getter means what its immutable twin (tyjson_get_type, tyjson_is_null,
 * ...) means, with the same result for NULL.
 * ------------------------------------------------------------------------- */
#define TYJSON__AS_VAL(v) ((const tyjson_val *)(const void *)(v))
/** Type of v; TYJSON_TYPE_NONE for NULL. */
TYJSON_INLINE tyjson_type tyjson_mut_get_type(const tyjson_mut_val *v) { return tyjson_get_type(TYJSON__AS_VAL(v)); }
/** Subtype of v; 0 for NULL. */
TYJSON_INLINE tyjson_subtype tyjson_mut_get_subtype(const tyjson_mut_val *v) { return tyjson_get_subtype(TYJSON__AS_VAL(v)); }
/** True if v is null. */
TYJSON_INLINE bool tyjson_mut_is_null(const tyjson_mut_val *v) { return tyjson_is_null(TYJSON__AS_VAL(v)); }
/** True if v is true or false. */
TYJSON_INLINE bool tyjson_mut_is_bool(const tyjson_mut_val *v) { return tyjson_is_bool(TYJSON__AS_VAL(v)); }
/** True if v is a non-negative integer. */
TYJSON_INLINE bool tyjson_mut_is_uint(const tyjson_mut_val *v) { return tyjson_is_uint(TYJSON__AS_VAL(v)); }
/** True if v is a negative integer. */
TYJSON_INLINE bool tyjson_mut_is_sint(const tyjson_mut_val *v) { return tyjson_is_sint(TYJSON__AS_VAL(v)); }
/** True if v is an integer. */
TYJSON_INLINE bool tyjson_mut_is_int(const tyjson_mut_val *v) { return tyjson_is_int(TYJSON__AS_VAL(v)); }
/** True if v is a double. */
TYJSON_INLINE bool tyjson_mut_is_real(const tyjson_mut_val *v) { return tyjson_is_real(TYJSON__AS_VAL(v)); }
/** True if v is a real marked as a float (tyjson_mut_float,
 *  tyjson_mut_set_float, and copies of such values), see tyjson_is_float. */
TYJSON_INLINE bool tyjson_mut_is_float(const tyjson_mut_val *v) { return tyjson_is_float(TYJSON__AS_VAL(v)); }
/** True if v is a number. */
TYJSON_INLINE bool tyjson_mut_is_num(const tyjson_mut_val *v) { return tyjson_is_num(TYJSON__AS_VAL(v)); }
/** True if v is a string. */
TYJSON_INLINE bool tyjson_mut_is_str(const tyjson_mut_val *v) { return tyjson_is_str(TYJSON__AS_VAL(v)); }
/** True if v is raw number text. */
TYJSON_INLINE bool tyjson_mut_is_raw(const tyjson_mut_val *v) { return tyjson_is_raw(TYJSON__AS_VAL(v)); }
/** True if v is an array. */
TYJSON_INLINE bool tyjson_mut_is_arr(const tyjson_mut_val *v) { return tyjson_is_arr(TYJSON__AS_VAL(v)); }
/** True if v is an object. */
TYJSON_INLINE bool tyjson_mut_is_obj(const tyjson_mut_val *v) { return tyjson_is_obj(TYJSON__AS_VAL(v)); }
/** Bool value; false for non-bools and NULL. */
TYJSON_INLINE bool tyjson_mut_get_bool(const tyjson_mut_val *v) { return tyjson_get_bool(TYJSON__AS_VAL(v)); }
/** uint64 of a non-negative integer; else 0. */
TYJSON_INLINE uint64_t tyjson_mut_get_uint(const tyjson_mut_val *v) { return tyjson_get_uint(TYJSON__AS_VAL(v)); }
/** int64 of an integer that fits; else 0. */
TYJSON_INLINE int64_t tyjson_mut_get_sint(const tyjson_mut_val *v) { return tyjson_get_sint(TYJSON__AS_VAL(v)); }
/** Same as tyjson_mut_get_sint. */
TYJSON_INLINE int64_t tyjson_mut_get_int(const tyjson_mut_val *v) { return tyjson_get_int(TYJSON__AS_VAL(v)); }
/** double of a REAL value; else 0.0. */
TYJSON_INLINE double tyjson_mut_get_real(const tyjson_mut_val *v) { return tyjson_get_real(TYJSON__AS_VAL(v)); }
/** Any number as a double; else 0.0. */
TYJSON_INLINE double tyjson_mut_get_num(const tyjson_mut_val *v) { return tyjson_get_num(TYJSON__AS_VAL(v)); }
/** Bytes of a string or raw value; NULL for other types. NUL-terminated unless referenced with _strn. */
TYJSON_INLINE const char *tyjson_mut_get_str(const tyjson_mut_val *v) { return tyjson_get_str(TYJSON__AS_VAL(v)); }
/** Bytes of a string (which, when referenced with _strn, need not be
 *  NUL-terminated); element or member count of a container; else 0. */
TYJSON_INLINE size_t tyjson_mut_get_len(const tyjson_mut_val *v) { return tyjson_get_len(TYJSON__AS_VAL(v)); }
/** True if v is a string equal to the NUL-terminated s; false when v or s is NULL. */
TYJSON_INLINE bool tyjson_mut_equals_str(const tyjson_mut_val *v, const char *s) { return tyjson_equals_str(TYJSON__AS_VAL(v), s); }
/** True if v is a string equal to the n bytes at s (NULL with n 0 is "";
 *  NULL with n > 0 equals nothing: false). */
TYJSON_INLINE bool tyjson_mut_equals_strn(const tyjson_mut_val *v, const char *s, size_t n) { return tyjson_equals_strn(TYJSON__AS_VAL(v), s, n); }

/* Setters change a value in place to a scalar; they return false for NULL
 * or for a container (change containers with the container calls). A value
 * changed this way keeps its position in its parent. They share their rule
 * with the immutable setters (tyjson_set_null ... in dom.h). */
/** Makes v null. False for NULL or a container. */
TYJSON_API bool tyjson_mut_set_null(tyjson_mut_val *v);
/** Makes v true or false. False for NULL or a container. */
TYJSON_API bool tyjson_mut_set_bool(tyjson_mut_val *v, bool b);
/** Makes v the integer n (UINT). False for NULL or a container. */
TYJSON_API bool tyjson_mut_set_uint(tyjson_mut_val *v, uint64_t n);
/** Makes v the integer n (UINT when n >= 0). False for NULL or a container. */
TYJSON_API bool tyjson_mut_set_sint(tyjson_mut_val *v, int64_t n);
/** Makes v the double d (a float mark is cleared). False for NULL or a
 *  container. */
TYJSON_API bool tyjson_mut_set_real(tyjson_mut_val *v, double d);
/** Makes v the float f, marked as tyjson_mut_float marks it. False for
 *  NULL or a container. */
TYJSON_API bool tyjson_mut_set_float(tyjson_mut_val *v, float f);
/** Makes v reference the caller's bytes (no copy: they must outlive the
 *  document). NULL with len 0 is "".
 *  False, leaving v unchanged, for a NULL or container v and for NULL s
 *  with len > 0. */
TYJSON_API bool tyjson_mut_set_strn(tyjson_mut_val *v, const char *s, size_t len);
/** Makes v hold a copy of the bytes, stored in `doc`. False, leaving v
 *  unchanged, for a NULL doc, a NULL or container v, NULL s with len > 0,
 *  or no memory. */
TYJSON_API bool tyjson_mut_set_strncpy(tyjson_mut_doc *doc, tyjson_mut_val *v, const char *s, size_t len);

/* ----------------------------------------------------------------------------
 * MARK: - Arrays
 * ------------------------------------------------------------------------- */
/** Element count of an array; 0 for non-arrays and NULL. */
TYJSON_INLINE size_t tyjson_mut_arr_size(const tyjson_mut_val *arr) { return tyjson_arr_size(TYJSON__AS_VAL(arr)); }
/** Element `idx` (O(idx)), or NULL if out of range, not an array or NULL. */
TYJSON_API tyjson_mut_val *tyjson_mut_arr_get(const tyjson_mut_val *arr, size_t idx);
/** First element (O(1)), or NULL if empty, not an array or NULL. */
TYJSON_API tyjson_mut_val *tyjson_mut_arr_get_first(const tyjson_mut_val *arr);
/** Last element (O(1)), or NULL if empty, not an array or NULL. */
TYJSON_API tyjson_mut_val *tyjson_mut_arr_get_last(const tyjson_mut_val *arr);
/** Adds val at the end (O(1)). False, changing nothing, if arr is not an
 *  array (NULL included), val is NULL or already in a container (see
 *  "Linking" above), or val is arr. */
TYJSON_API bool tyjson_mut_arr_append(tyjson_mut_val *arr, tyjson_mut_val *val);
/** Adds val at the front (O(1)); refusals as tyjson_mut_arr_append. */
TYJSON_API bool tyjson_mut_arr_prepend(tyjson_mut_val *arr, tyjson_mut_val *val);
/** Adds val before position idx (O(idx); idx == size appends); false also
 *  when idx > size. Refusals as tyjson_mut_arr_append. */
TYJSON_API bool tyjson_mut_arr_insert(tyjson_mut_val *arr, tyjson_mut_val *val, size_t idx);
/** Replaces element idx; returns the old element (now unlinked), or NULL,
 *  changing nothing, if arr is not an array, idx is out of range, or val
 *  cannot be inserted (NULL included; see "Linking"). */
TYJSON_API tyjson_mut_val *tyjson_mut_arr_replace(tyjson_mut_val *arr, size_t idx, tyjson_mut_val *val);
/** Unlinks element idx; returns it (free to be inserted again; its memory
 *  stays in the document), or NULL if out of range or not an array. */
TYJSON_API tyjson_mut_val *tyjson_mut_arr_remove(tyjson_mut_val *arr, size_t idx);
/** Unlinks the count elements from position idx on (O(idx + count)); they
 *  stay in the document and may be inserted again. False, changing nothing,
 *  if arr is not an array (NULL included) or idx + count > size; count 0
 *  with idx <= size is true and changes nothing. */
TYJSON_API bool tyjson_mut_arr_remove_range(tyjson_mut_val *arr, size_t idx, size_t count);
/** Rotates the array so that element idx comes first ([a,b,c,d] at 1 is
 *  [b,c,d,a]); O(idx), no allocation. False, changing nothing, if arr is
 *  not an array (NULL included) or idx >= size (an empty array too). */
TYJSON_API bool tyjson_mut_arr_rotate(tyjson_mut_val *arr, size_t idx);
/** Unlinks and returns the first element, or NULL if empty or not an array. */
TYJSON_API tyjson_mut_val *tyjson_mut_arr_remove_first(tyjson_mut_val *arr);
/** Unlinks and returns the last element (O(size)), or NULL if empty or not
 *  an array. */
TYJSON_API tyjson_mut_val *tyjson_mut_arr_remove_last(tyjson_mut_val *arr);
/** Empties the array, unlinking every element: O(size). False if arr is
 *  not an array (NULL included). */
TYJSON_API bool tyjson_mut_arr_clear(tyjson_mut_val *arr);

/* Append helpers: create the value in doc (arr's document) and append it.
 * False, with nothing created, for a NULL doc, a non-array arr (NULL
 * included) or a NULL string; false on no memory. */
/** Appends a new null. */
TYJSON_API bool tyjson_mut_arr_add_null(tyjson_mut_doc *doc, tyjson_mut_val *arr);
/** Appends a new true or false. */
TYJSON_API bool tyjson_mut_arr_add_bool(tyjson_mut_doc *doc, tyjson_mut_val *arr, bool b);
/** Appends a new integer n (UINT). */
TYJSON_API bool tyjson_mut_arr_add_uint(tyjson_mut_doc *doc, tyjson_mut_val *arr, uint64_t n);
/** Appends a new integer n (as tyjson_mut_sint). */
TYJSON_API bool tyjson_mut_arr_add_sint(tyjson_mut_doc *doc, tyjson_mut_val *arr, int64_t n);
/** Appends a new double d. */
TYJSON_API bool tyjson_mut_arr_add_real(tyjson_mut_doc *doc, tyjson_mut_val *arr, double d);
/** Appends a new float f (as tyjson_mut_float). */
TYJSON_API bool tyjson_mut_arr_add_float(tyjson_mut_doc *doc, tyjson_mut_val *arr, float f);
/** Appends a string referencing s (no copy: s must outlive the document). */
TYJSON_API bool tyjson_mut_arr_add_str(tyjson_mut_doc *doc, tyjson_mut_val *arr, const char *s);
/** Appends a string holding a copy of s. */
TYJSON_API bool tyjson_mut_arr_add_strcpy(tyjson_mut_doc *doc, tyjson_mut_val *arr, const char *s);
/** Creates an array, appends it and returns it (NULL on failure). */
TYJSON_API tyjson_mut_val *tyjson_mut_arr_add_arr(tyjson_mut_doc *doc, tyjson_mut_val *arr);
/** Creates an object, appends it and returns it (NULL on failure). */
TYJSON_API tyjson_mut_val *tyjson_mut_arr_add_obj(tyjson_mut_doc *doc, tyjson_mut_val *arr);

/* Arrays made from C arrays: a new array of doc holding n values, one per
 * element of vals in order. NULL when doc is NULL, vals is NULL with n > 0,
 * or memory runs out (values made before that stay in the document's
 * memory, which the document releases). n 0 gives an empty array. */
/** From n bools. */
TYJSON_API tyjson_mut_val *tyjson_mut_arr_with_bool(tyjson_mut_doc *doc, const bool *vals, size_t n);
/** From n signed integers. */
TYJSON_API tyjson_mut_val *tyjson_mut_arr_with_sint(tyjson_mut_doc *doc, const int64_t *vals, size_t n);
/** From n unsigned integers. */
TYJSON_API tyjson_mut_val *tyjson_mut_arr_with_uint(tyjson_mut_doc *doc, const uint64_t *vals, size_t n);
/** From n doubles (written as the DOM writer writes reals). */
TYJSON_API tyjson_mut_val *tyjson_mut_arr_with_real(tyjson_mut_doc *doc, const double *vals, size_t n);
/** From n floats, each as tyjson_mut_float makes it (widened exactly to a
 *  double and marked, so written as the shortest float32 text). */
TYJSON_API tyjson_mut_val *tyjson_mut_arr_with_float(tyjson_mut_doc *doc, const float *vals, size_t n);
/** From n NUL-terminated strings, referenced (not copied: they must
 *  outlive the document); NULL if any of them is NULL. */
TYJSON_API tyjson_mut_val *tyjson_mut_arr_with_str(tyjson_mut_doc *doc, const char *const *vals, size_t n);
/** From n strings of lens[i] bytes, referenced; NULL if vals or lens is
 *  NULL with n > 0 or a string is NULL with a length. */
TYJSON_API tyjson_mut_val *tyjson_mut_arr_with_strn(tyjson_mut_doc *doc, const char *const *vals,
                                                    const size_t *lens, size_t n);
/** From n NUL-terminated strings, each copied into the document. */
TYJSON_API tyjson_mut_val *tyjson_mut_arr_with_strcpy(tyjson_mut_doc *doc, const char *const *vals, size_t n);

/** Mutable array iterator, a plain value on the caller's stack (nothing to
 *  free): `it = tyjson_mut_arr_iter_with(arr); while ((v = tyjson_mut_arr_iter_next(&it)))`. */
typedef struct tyjson_mut_arr_iter {
    size_t idx, max;
    tyjson_mut_val *cur; /**< next element to return */
} tyjson_mut_arr_iter;
/** Iterator over the elements of arr; it yields nothing for a non-array or NULL. */
TYJSON_INLINE tyjson_mut_arr_iter tyjson_mut_arr_iter_with(const tyjson_mut_val *arr) {
    tyjson_mut_arr_iter it;
    it.idx = 0;
    it.max = tyjson_mut_arr_size(arr);
    it.cur = it.max ? ((tyjson_mut_val *)arr->uni.ptr)->next : NULL;
    return it;
}
/** Next element, or NULL at the end (and for a NULL it). Do not modify
 *  the array while iterating. */
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
/** Member count of an object; 0 for non-objects and NULL. */
TYJSON_INLINE size_t tyjson_mut_obj_size(const tyjson_mut_val *obj) { return tyjson_obj_size(TYJSON__AS_VAL(obj)); }
/** Value of the first member with this NUL-terminated key, or NULL (also
 *  for a NULL obj or key, or a non-object). Linear in the member count. */
TYJSON_API tyjson_mut_val *tyjson_mut_obj_get(const tyjson_mut_val *obj, const char *key);
/** Same, with a key of `len` bytes (NULL with len 0 is the empty key;
 *  NULL with len > 0 finds nothing). */
TYJSON_API tyjson_mut_val *tyjson_mut_obj_getn(const tyjson_mut_val *obj, const char *key, size_t len);
/** Appends a member (key must be a string value of obj's document);
 *  duplicates are allowed. False, changing nothing, if obj is not an
 *  object, key or val is NULL, key is not a string, key or val is already
 *  in a container, key == val, or val == obj (see "Linking"). */
TYJSON_API bool tyjson_mut_obj_add(tyjson_mut_val *obj, tyjson_mut_val *key, tyjson_mut_val *val);
/** Replaces the value of the first member with key's text, removing any later
 *  members with the same key; adds the member if absent. The first member's
 *  key node stays (the given key is then not used); replaced and removed
 *  nodes are unlinked. Same refusals as tyjson_mut_obj_add. */
TYJSON_API bool tyjson_mut_obj_put(tyjson_mut_val *obj, tyjson_mut_val *key, tyjson_mut_val *val);
/** Removes every member with this NUL-terminated key (keys and values are
 *  unlinked); returns the value of the first one removed, or NULL if none
 *  (also for a NULL obj or key, or a non-object). */
TYJSON_API tyjson_mut_val *tyjson_mut_obj_remove_key(tyjson_mut_val *obj, const char *key);
/** Same, with a key of `len` bytes (NULL with len 0 is the empty key). */
TYJSON_API tyjson_mut_val *tyjson_mut_obj_remove_keyn(tyjson_mut_val *obj, const char *key, size_t len);
/** Empties the object, unlinking every key and value: O(size). False if
 *  obj is not an object (NULL included). */
TYJSON_API bool tyjson_mut_obj_clear(tyjson_mut_val *obj);
/** Replaces the value of the first member with key's text only if the
 *  object has one (the key node there stays, the given key is not used;
 *  the old value is unlinked, later members with the same key are kept).
 *  False, changing nothing, when no member has that key, and for the
 *  refusals of tyjson_mut_obj_add. */
TYJSON_API bool tyjson_mut_obj_replace(tyjson_mut_val *obj, tyjson_mut_val *key, tyjson_mut_val *val);
/** Renames every member whose key is the `len` bytes at key to the
 *  `new_len` bytes at new_key, copied once into doc's strings (the key
 *  nodes stay where they are; members already named new_key are kept, so
 *  the object may then hold repeats). True if at least one member was
 *  renamed. False, changing nothing and allocating nothing, when none has
 *  that key, for a NULL doc or a non-object, a NULL key or new_key with a
 *  length; false, changing nothing, when the copy cannot be allocated. */
TYJSON_API bool tyjson_mut_obj_rename_keyn(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key,
                                           size_t len, const char *new_key, size_t new_len);
/** Same, with NUL-terminated keys (a NULL one gives false). */
TYJSON_API bool tyjson_mut_obj_rename_key(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key,
                                          const char *new_key);

/* Member helpers: each appends `key: value` to obj (repeats allowed). The
 * key is referenced (no copy: it must outlive the document) unless named
 * _keycpy below; the value is created in doc (obj's document). False, with
 * nothing added, for a NULL doc, key or string, a non-object obj (NULL
 * included), and on no memory. */
/** Adds `key: null`. */
TYJSON_API bool tyjson_mut_obj_add_null(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key);
/** Adds `key: true` or `key: false`. */
TYJSON_API bool tyjson_mut_obj_add_bool(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key, bool b);
/** Adds `key: n` (UINT). */
TYJSON_API bool tyjson_mut_obj_add_uint(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key, uint64_t n);
/** Adds `key: n` (as tyjson_mut_sint). */
TYJSON_API bool tyjson_mut_obj_add_sint(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key, int64_t n);
/** Adds `key: d`. */
TYJSON_API bool tyjson_mut_obj_add_real(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key, double d);
/** Adds `key: f`, f as tyjson_mut_float makes it. */
TYJSON_API bool tyjson_mut_obj_add_float(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key, float f);
/** Adds `key: s`, the value string referenced. */
TYJSON_API bool tyjson_mut_obj_add_str(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key, const char *s);
/** Adds `key: s`, the value string copied. */
TYJSON_API bool tyjson_mut_obj_add_strcpy(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key, const char *s);
/** Adds `key: val` for an existing unlinked value of doc; false (nothing
 *  added) for a NULL val or one that cannot be inserted (see "Linking"). */
TYJSON_API bool tyjson_mut_obj_add_val(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key, tyjson_mut_val *val);
/** Same with the key copied into the document. */
TYJSON_API bool tyjson_mut_obj_add_val_keycpy(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key, tyjson_mut_val *val);
/** Creates an array under key and returns it (NULL on failure). */
TYJSON_API tyjson_mut_val *tyjson_mut_obj_add_arr(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key);
/** Creates an object under key and returns it (NULL on failure). */
TYJSON_API tyjson_mut_val *tyjson_mut_obj_add_obj(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key);

/** Mutable object iterator, a plain value on the caller's stack (nothing
 *  to free): every key in order, repeated keys included. */
typedef struct tyjson_mut_obj_iter {
    size_t idx, max;
    tyjson_mut_val *cur; /**< next key to return */
} tyjson_mut_obj_iter;
/** Iterator over the members of obj; it yields nothing for a non-object or NULL. */
TYJSON_INLINE tyjson_mut_obj_iter tyjson_mut_obj_iter_with(const tyjson_mut_val *obj) {
    tyjson_mut_obj_iter it;
    it.idx = 0;
    it.max = tyjson_mut_obj_size(obj);
    it.cur = it.max ? ((tyjson_mut_val *)obj->uni.ptr)->next : NULL;
    return it;
}
/** Next key, or NULL at the end (and for a NULL it); its value is
 *  tyjson_mut_obj_iter_get_val(key). Do not modify the object meanwhile. */
TYJSON_INLINE tyjson_mut_val *tyjson_mut_obj_iter_next(tyjson_mut_obj_iter *it) {
    if (!it || it->idx >= it->max) return NULL;
    tyjson_mut_val *k = it->cur;
    it->idx++;
    it->cur = k->next->next;
    return k;
}
/** The value that follows a key (NULL for NULL). */
TYJSON_INLINE tyjson_mut_val *tyjson_mut_obj_iter_get_val(tyjson_mut_val *key) { return key ? key->next : NULL; }

/* ----------------------------------------------------------------------------
 * MARK: - Copies, pointer, equality
 * ------------------------------------------------------------------------- */
/** Deep copy of an immutable value into doc (strings copied), returned
 *  unlinked. NULL for a NULL doc or val, or on no memory. */
TYJSON_API tyjson_mut_val *tyjson_val_mut_copy(tyjson_mut_doc *doc, const tyjson_val *val);
/** Deep copy of a mutable value (of any document) into doc, strings
 *  copied, returned unlinked. NULL for a NULL doc or val, or on no memory. */
TYJSON_API tyjson_mut_val *tyjson_mut_val_mut_copy(tyjson_mut_doc *doc, const tyjson_mut_val *val);
/** New mutable document holding a copy of an immutable one (strings
 *  copied), with `alc` (NULL = libc); free it with tyjson_mut_doc_free.
 *  NULL for a NULL doc or on no memory. */
TYJSON_API tyjson_mut_doc *tyjson_doc_mut_copy(const tyjson_doc *doc, const tyjson_alloc *alc);
/** New immutable document holding a copy of a mutable one (strings
 *  copied), with `alc` (NULL = libc); free it with tyjson_doc_free. NULL for
 *  a NULL doc, a document without a root, or on no memory. */
TYJSON_API tyjson_doc *tyjson_mut_doc_imut_copy(const tyjson_mut_doc *doc, const tyjson_alloc *alc);
/** New immutable document copied from one mutable value (strings copied),
 *  with `alc` (NULL = libc); free it with tyjson_doc_free. NULL for a NULL
 *  val or on no memory. */
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
