/*
 * tyjson/dom.h - the immutable document: parse entry points, type tests,
 * getters, iteration, key lookup, JSON Pointer and equality.
 *
 * Layout (public so that the hot accessors can be inline, but treat it as
 * read-only): a document is one contiguous array of 16-byte tyjson_val in
 * document order. A container is followed by its children; its payload holds
 * the number of slots its whole subtree occupies, so skipping a subtree is
 * O(1) and iterating is pointer stepping. Object members are stored as a key
 * (a string value) followed by its value.
 *
 * Strings are NUL-terminated and point into the document's own copy of the
 * input; their length is exact (a string may contain U+0000). A string set
 * with tyjson_set_str / tyjson_set_strn points at the caller's bytes instead.
 *
 * Thread-safety: the library never modifies a document after parsing, so
 * any number of threads may read it at once; the in-place setters
 * (tyjson_set_*) are the caller's own writes and need the caller's
 * synchronization. A value lives as long as its document.
 */
#ifndef TYJSON_DOM_H
#define TYJSON_DOM_H

#include "common.h"
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ----------------------------------------------------------------------------
 * MARK: - Types
 * ------------------------------------------------------------------------- */
/** The type of a value, one of TYJSON_TYPE_* (tyjson_get_type). */
typedef uint8_t tyjson_type;
#define TYJSON_TYPE_NONE 0u /**< no value (a NULL pointer has this type) */
#define TYJSON_TYPE_RAW  1u /**< raw number text (TYJSON_READ_BIGNUM_AS_RAW, _NUMBER_AS_RAW) */
#define TYJSON_TYPE_NULL 2u /**< null */
#define TYJSON_TYPE_BOOL 3u /**< true or false (subtype TRUE or FALSE) */
#define TYJSON_TYPE_NUM  4u /**< number (subtype UINT, SINT or REAL) */
#define TYJSON_TYPE_STR  5u /**< string */
#define TYJSON_TYPE_ARR  6u /**< array */
#define TYJSON_TYPE_OBJ  7u /**< object */

/** The subtype of a bool or number, one of TYJSON_SUBTYPE_* (as stored in
 *  the tag: compare with tyjson_get_subtype, do not shift). */
typedef uint8_t tyjson_subtype;
#define TYJSON_SUBTYPE_NONE  0u        /**< types without subtypes */
#define TYJSON_SUBTYPE_FALSE (0u << 3) /**< bool false */
#define TYJSON_SUBTYPE_TRUE  (1u << 3) /**< bool true */
#define TYJSON_SUBTYPE_UINT  (0u << 3) /**< non-negative integer, uint64 */
#define TYJSON_SUBTYPE_SINT  (1u << 3) /**< negative integer, int64 */
#define TYJSON_SUBTYPE_REAL  (2u << 3) /**< double */

/* Tag bits: 0-2 type, 3-4 subtype, 5 "string needs no escaping",
 * 6 "real written as a float" (REAL only: tyjson_set_float, tyjson_mut_float),
 * 7 reserved, 8-63 length (string bytes or container element count). */
#define TYJSON__TYPE_MASK    0x07u
#define TYJSON__SUBTYPE_MASK 0x18u
#define TYJSON__KIND_MASK    0x1Fu
#define TYJSON__NOESC_BIT    0x20u
#define TYJSON__FLOAT_BIT    0x40u
#define TYJSON__LEN_SHIFT    8

/** Payload of a value; which member holds depends on the tag (read it
 *  through the getters). */
typedef union tyjson_val_uni {
    uint64_t u64;
    int64_t i64;
    double f64;
    const char *str;
    void *ptr;
    size_t ofs; /* containers: slots in the subtree, itself included */
} tyjson_val_uni;

/** A value of an immutable document: 16 bytes inside the document, valid
 *  until tyjson_doc_free. Read-only; never freed on its own. */
typedef struct tyjson_val {
    uint64_t tag;
    tyjson_val_uni uni;
} tyjson_val;

/** An immutable document (opaque): from tyjson_read*, released by
 *  tyjson_doc_free; it owns every value and string in it. */
typedef struct tyjson_doc tyjson_doc;

/* ----------------------------------------------------------------------------
 * MARK: - Parsing
 * ------------------------------------------------------------------------- */

/**
 * Parses `len` bytes at `dat` (no NUL terminator or padding needed; the
 * bytes are copied and not referenced after the call). NULL with len 0 is
 * empty input (TYJSON_E_EMPTY); NULL with len > 0 is TYJSON_E_INVALID_ARG.
 * @param opts  flags, depth limit and allocator; NULL = strict defaults.
 * @param err   filled on failure (and code = TYJSON_OK on success); may be NULL.
 * @return a document to release with tyjson_doc_free, or NULL on error:
 *   an invalid input code (docs/api.md section 4), TYJSON_E_NOMEM, TYJSON_E_SIZE.
 *
 *     tyjson_error err;
 *     tyjson_doc *doc = tyjson_read_opts(text, len, NULL, &err);
 *     if (!doc) fprintf(stderr, "%zu:%zu: %s\n", err.line, err.column, err.msg);
 */
TYJSON_API tyjson_doc *tyjson_read_opts(const char *dat, size_t len,
                                        const tyjson_read_options *opts,
                                        tyjson_error *err);

/** Parses with flags, the default depth limit and libc allocation, as
 *  tyjson_read_opts; NULL on any error (tyjson_read_opts tells which). */
TYJSON_API tyjson_doc *tyjson_read(const char *dat, size_t len,
                                   tyjson_read_flags flags);

/** Bytes tyjson_read_insitu needs after the text in the caller's buffer. */
#define TYJSON_INSITU_PADDING 64

/**
 * Parses the `len` bytes at `buf` in place (in situ), as tyjson_read_opts
 * parses them, without copying them: the document's strings and raw numbers
 * point into `buf`, unescaped there and NUL-terminated. The buffer is
 * modified (even when the parse fails) and must stay alive and unchanged
 * until tyjson_doc_free; the document allocates only its value array.
 * `cap` is the size of the buffer: at least len + TYJSON_INSITU_PADDING,
 * and those padding bytes after the text are overwritten with zeros.
 * @param opts  flags, depth limit and allocator; NULL = strict defaults.
 * @param err   filled on failure, as tyjson_read_opts fills it: same code
 *   and offset (bytes from buf). line:column are counted over the buffer as
 *   the failed parse left it, where strings before the error are already
 *   decoded: they match tyjson_read_opts' unless such a string held a
 *   `
` or `
` escape (its decoded line break counts as one).
 * @return a document to release with tyjson_doc_free, or NULL:
 *   TYJSON_E_INVALID_ARG for a NULL buf or cap < len + TYJSON_INSITU_PADDING
 *   (nothing written then), an invalid input code, TYJSON_E_NOMEM,
 *   TYJSON_E_SIZE.
 */
TYJSON_API tyjson_doc *tyjson_read_insitu(char *buf, size_t len, size_t cap,
                                          const tyjson_read_options *opts,
                                          tyjson_error *err);

/** Reads the file at `path`, then parses it as tyjson_read_opts does. A
 *  NULL path is TYJSON_E_INVALID_ARG; a file that cannot be opened or read
 *  is TYJSON_E_IO. */
TYJSON_API tyjson_doc *tyjson_read_file(const char *path,
                                        const tyjson_read_options *opts,
                                        tyjson_error *err);

/** Reads `fp` to its end (works on pipes), then parses it as
 *  tyjson_read_opts does. The stream stays open and the caller's. A NULL fp
 *  is TYJSON_E_INVALID_ARG; a read error is TYJSON_E_IO. */
TYJSON_API tyjson_doc *tyjson_read_fp(FILE *fp, const tyjson_read_options *opts,
                                      tyjson_error *err);

/**
 * Upper bound of the bytes a document parsed from `len` bytes can need
 * from its allocator, whatever the input, with the default depth limit
 * (add 16 bytes per level of a larger max_depth). With
 * tyjson_alloc_pool_init over a buffer of this size, parsing never fails
 * for lack of memory.
 * Returns 0 if the bound overflows size_t.
 */
TYJSON_API size_t tyjson_read_max_memory(size_t len, tyjson_read_flags flags);

/**
 * Checks that `len` bytes at `dat` are what tyjson_read_opts would accept
 * with the same options, without building a document: true if so; false
 * with err filled exactly as tyjson_read_opts fills it (code, offset,
 * line:column, message) if not. NULL with len 0 is empty input; NULL with len > 0 is
 * TYJSON_E_INVALID_ARG.
 */
TYJSON_API bool tyjson_validate(const char *dat, size_t len,
                                const tyjson_read_options *opts,
                                tyjson_error *err);

/**
 * Reads one JSON number at the start of the `len` bytes at `dat` into *out,
 * as the parser reads a document's numbers: a UINT, SINT or REAL value
 * (exact integers, correctly rounded doubles, "-0" as the real -0.0), or,
 * with TYJSON_READ_BIGNUM_AS_RAW, a RAW value for what they cannot hold, its
 * text pointing into `dat` (not NUL-terminated there: tyjson_get_len gives
 * its length); with TYJSON_READ_NUMBER_AS_RAW always such a RAW value. With TYJSON_READ_ALLOW_INF_NAN, NaN, Infinity
 * and -Infinity are reals too; other flags are ignored. What follows the
 * number is not looked at: "12px" reads 12 and returns 2.
 * @return the number's length in bytes, or 0 with err filled (code, offset
 *   into dat, line and column): TYJSON_E_EMPTY for len 0,
 *   TYJSON_E_UNEXPECTED_CHAR when no number starts there, TYJSON_E_NUMBER,
 *   TYJSON_E_TRUNCATED ("1." at the end), TYJSON_E_NUMBER_RANGE,
 *   TYJSON_E_LITERAL; TYJSON_E_INVALID_ARG for a NULL out, or NULL dat with
 *   len > 0. *out is untouched on failure.
 */
TYJSON_API size_t tyjson_read_number(const char *dat, size_t len, tyjson_read_flags flags,
                                     tyjson_val *out, tyjson_error *err);

/** Releases a document and everything in it. NULL is ignored. */
TYJSON_API void tyjson_doc_free(tyjson_doc *doc);

/** Root value (valid until tyjson_doc_free), or NULL for a NULL document. */
TYJSON_API tyjson_val *tyjson_doc_get_root(const tyjson_doc *doc);
/** Bytes of input consumed (with STOP_WHEN_DONE: up to the end of the first
 *  value, trailing whitespace included); 0 for NULL. */
TYJSON_API size_t tyjson_doc_get_read_size(const tyjson_doc *doc);
/** Number of values (keys included) in the document; 0 for NULL. */
TYJSON_API size_t tyjson_doc_get_val_count(const tyjson_doc *doc);
/** Bytes the document holds from its allocator; 0 for NULL. */
TYJSON_API size_t tyjson_doc_get_mem_size(const tyjson_doc *doc);

/* ----------------------------------------------------------------------------
 * MARK: - Type tests and getters (NULL-safe: a NULL value has type NONE)
 * ------------------------------------------------------------------------- */
/** Type of v (TYJSON_TYPE_*); TYJSON_TYPE_NONE for NULL. */
TYJSON_INLINE tyjson_type tyjson_get_type(const tyjson_val *v) {
    return v ? (tyjson_type)(v->tag & TYJSON__TYPE_MASK) : TYJSON_TYPE_NONE;
}
/** Subtype of v (TYJSON_SUBTYPE_*); 0 for NULL. */
TYJSON_INLINE tyjson_subtype tyjson_get_subtype(const tyjson_val *v) {
    return v ? (tyjson_subtype)(v->tag & TYJSON__SUBTYPE_MASK) : 0;
}
/** Name of the value's type: "null", "true", "false", "uint", "sint",
 *  "real", "string", "array", "object", "raw", or "none" (NULL included).
 *  A static string. */
TYJSON_API const char *tyjson_get_type_desc(const tyjson_val *v);

#define TYJSON__KIND(v) ((v)->tag & TYJSON__KIND_MASK)
/** True if v is null; false for NULL. */
TYJSON_INLINE bool tyjson_is_null(const tyjson_val *v) { return v && TYJSON__KIND(v) == TYJSON_TYPE_NULL; }
/** True if v is true; false for NULL. */
TYJSON_INLINE bool tyjson_is_true(const tyjson_val *v) { return v && TYJSON__KIND(v) == (TYJSON_TYPE_BOOL | TYJSON_SUBTYPE_TRUE); }
/** True if v is false; false for NULL. */
TYJSON_INLINE bool tyjson_is_false(const tyjson_val *v) { return v && TYJSON__KIND(v) == (TYJSON_TYPE_BOOL | TYJSON_SUBTYPE_FALSE); }
/** True if v is true or false; false for NULL. */
TYJSON_INLINE bool tyjson_is_bool(const tyjson_val *v) { return tyjson_get_type(v) == TYJSON_TYPE_BOOL; }
/** True if v is a non-negative integer (subtype UINT); false for NULL. */
TYJSON_INLINE bool tyjson_is_uint(const tyjson_val *v) { return v && TYJSON__KIND(v) == (TYJSON_TYPE_NUM | TYJSON_SUBTYPE_UINT); }
/** True if v is a negative integer (subtype SINT); false for NULL. */
TYJSON_INLINE bool tyjson_is_sint(const tyjson_val *v) { return v && TYJSON__KIND(v) == (TYJSON_TYPE_NUM | TYJSON_SUBTYPE_SINT); }
/** True if v is an integer, UINT or SINT; false for NULL. */
TYJSON_INLINE bool tyjson_is_int(const tyjson_val *v) { return tyjson_is_uint(v) || tyjson_is_sint(v); }
/** True if v is a double (subtype REAL); false for NULL. */
TYJSON_INLINE bool tyjson_is_real(const tyjson_val *v) { return v && TYJSON__KIND(v) == (TYJSON_TYPE_NUM | TYJSON_SUBTYPE_REAL); }
/** True if v is a real marked as a float (made by tyjson_set_float,
 *  tyjson_mut_float and their kin): it is a REAL like any other (tyjson_is_real,
 *  tyjson_get_real), and the writers write it as the shortest text that reads
 *  back to the same float32. False for NULL and every other value. */
TYJSON_INLINE bool tyjson_is_float(const tyjson_val *v) {
    return v && (v->tag & (TYJSON__KIND_MASK | TYJSON__FLOAT_BIT)) ==
                    (TYJSON_TYPE_NUM | TYJSON_SUBTYPE_REAL | TYJSON__FLOAT_BIT);
}
/** True if v is a number of any subtype; false for NULL. */
TYJSON_INLINE bool tyjson_is_num(const tyjson_val *v) { return tyjson_get_type(v) == TYJSON_TYPE_NUM; }
/** True if v is a string; false for NULL. */
TYJSON_INLINE bool tyjson_is_str(const tyjson_val *v) { return tyjson_get_type(v) == TYJSON_TYPE_STR; }
/** True if v is raw number text; false for NULL. */
TYJSON_INLINE bool tyjson_is_raw(const tyjson_val *v) { return tyjson_get_type(v) == TYJSON_TYPE_RAW; }
/** True if v is an array; false for NULL. */
TYJSON_INLINE bool tyjson_is_arr(const tyjson_val *v) { return tyjson_get_type(v) == TYJSON_TYPE_ARR; }
/** True if v is an object; false for NULL. */
TYJSON_INLINE bool tyjson_is_obj(const tyjson_val *v) { return tyjson_get_type(v) == TYJSON_TYPE_OBJ; }
/** True if v is a container: an array or an object; false for NULL. */
TYJSON_INLINE bool tyjson_is_ctn(const tyjson_val *v) { return tyjson_get_type(v) >= TYJSON_TYPE_ARR; }

/** Bool value; false for non-bools and NULL. */
TYJSON_INLINE bool tyjson_get_bool(const tyjson_val *v) { return tyjson_is_true(v); }
/** uint64 of a UINT value, or of a non-negative SINT; else 0 (NULL included). */
TYJSON_INLINE uint64_t tyjson_get_uint(const tyjson_val *v) {
    return (tyjson_is_uint(v) || (tyjson_is_sint(v) && v->uni.i64 >= 0)) ? v->uni.u64 : 0;
}
/** int64 of a SINT value, or of a UINT that fits; else 0 (NULL included). */
TYJSON_INLINE int64_t tyjson_get_sint(const tyjson_val *v) {
    return (tyjson_is_sint(v) || (tyjson_is_uint(v) && v->uni.u64 <= (uint64_t)INT64_MAX)) ? v->uni.i64 : 0;
}
/** Same as tyjson_get_sint. */
TYJSON_INLINE int64_t tyjson_get_int(const tyjson_val *v) { return tyjson_get_sint(v); }
/** double of a REAL value; else 0.0. */
TYJSON_INLINE double tyjson_get_real(const tyjson_val *v) { return tyjson_is_real(v) ? v->uni.f64 : 0.0; }
/** Any number as a double (integers converted, possibly rounded); else 0.0. */
TYJSON_INLINE double tyjson_get_num(const tyjson_val *v) {
    if (tyjson_is_real(v)) return v->uni.f64;
    if (tyjson_is_uint(v)) return (double)v->uni.u64;
    if (tyjson_is_sint(v)) return (double)v->uni.i64;
    return 0.0;
}
/** Exact int64 of an integer value. Returns false (and leaves *out) if the
 *  value is not an integer (NULL included) or does not fit, or if out is NULL. */
TYJSON_API bool tyjson_get_i64(const tyjson_val *v, int64_t *out);
/** Exact uint64 of an integer value; false (leaving *out) if not an
 *  integer (NULL included) or negative, or if out is NULL. */
TYJSON_API bool tyjson_get_u64(const tyjson_val *v, uint64_t *out);

/** NUL-terminated bytes of a string or raw value (owned by the document;
 *  after tyjson_set_str / tyjson_set_strn the caller's bytes, which
 *  tyjson_set_strn does not NUL-terminate); NULL for other types and NULL. */
TYJSON_INLINE const char *tyjson_get_str(const tyjson_val *v) {
    return (tyjson_is_str(v) || tyjson_is_raw(v)) ? v->uni.str : NULL;
}
/** Byte length of a string or raw value, element count of an array,
 *  member count of an object; 0 otherwise. */
TYJSON_INLINE size_t tyjson_get_len(const tyjson_val *v) {
    return (v && tyjson_get_type(v) != TYJSON_TYPE_NONE && tyjson_get_type(v) != TYJSON_TYPE_NULL &&
            tyjson_get_type(v) != TYJSON_TYPE_BOOL && tyjson_get_type(v) != TYJSON_TYPE_NUM)
               ? (size_t)(v->tag >> TYJSON__LEN_SHIFT) : 0;
}
/** True if v is a string equal to the `len` bytes at `s`. A NULL s with
 *  len 0 is ""; a NULL s with len > 0 equals nothing (false). */
TYJSON_INLINE bool tyjson_equals_strn(const tyjson_val *v, const char *s, size_t len) {
    return tyjson_is_str(v) && (size_t)(v->tag >> TYJSON__LEN_SHIFT) == len &&
           (len == 0 || (s != NULL && memcmp(v->uni.str, s, len) == 0));
}
/** True if v is a string equal to the NUL-terminated `s`. */
TYJSON_INLINE bool tyjson_equals_str(const tyjson_val *v, const char *s) {
    return s && tyjson_equals_strn(v, s, strlen(s));
}

/* ----------------------------------------------------------------------------
 * MARK: - Setters: scalars changed in place
 *
 * Each rewrites one scalar value of an immutable document (a string, raw
 * number, number, bool or null; an object key too) into another scalar, in
 * its slot: the document's layout does not change, so iteration, lookups,
 * equality and the writers see the new value. They return false, changing
 * nothing, for NULL and for an array or an object: containers cannot be
 * changed this way (their slots hold their subtree). A key must stay a
 * string (only tyjson_set_str / tyjson_set_strn on it); anything else in a
 * key's slot makes the object invalid. Not thread-safe: no other thread may
 * read the document meanwhile.
 * ------------------------------------------------------------------------- */
/** Makes v null. False for NULL or a container. */
TYJSON_API bool tyjson_set_null(tyjson_val *v);
/** Makes v true or false. False for NULL or a container. */
TYJSON_API bool tyjson_set_bool(tyjson_val *v, bool b);
/** Makes v the integer n (UINT). False for NULL or a container. */
TYJSON_API bool tyjson_set_uint(tyjson_val *v, uint64_t n);
/** Makes v the integer n (UINT when n >= 0, as parsed integers). False for
 *  NULL or a container. */
TYJSON_API bool tyjson_set_sint(tyjson_val *v, int64_t n);
/** Same as tyjson_set_sint. */
TYJSON_API bool tyjson_set_int(tyjson_val *v, int64_t n);
/** Makes v the double d (a REAL, written in the shortest form that reads
 *  back to d; a float mark is cleared). NaN and the infinities are stored;
 *  the writers follow their flags for them. False for NULL or a container. */
TYJSON_API bool tyjson_set_real(tyjson_val *v, double d);
/** Makes v the float f: a REAL holding f widened exactly to a double
 *  (tyjson_get_real gives (double)f) and marked as a float
 *  (tyjson_is_float), so every writer writes it as the shortest text that
 *  reads back to the same float32 (0.1f as 0.1, not 0.10000000149011612).
 *  False for NULL or a container. */
TYJSON_API bool tyjson_set_float(tyjson_val *v, float f);
/** Makes v a string referencing the caller's NUL-terminated s (no copy: s
 *  must outlive the document, or until v is set again). False, changing
 *  nothing, for a NULL s, NULL v or a container. */
TYJSON_API bool tyjson_set_str(tyjson_val *v, const char *s);
/** Makes v a string referencing the `len` bytes at s (no copy, as
 *  tyjson_set_str; they may hold U+0000 and need no NUL, in which case
 *  tyjson_get_str gives bytes that are not NUL-terminated: use
 *  tyjson_get_len). NULL with len 0 is "". The writers escape and check
 *  the bytes as they do any string (invalid UTF-8 fails the write unless
 *  TYJSON_WRITE_REPLACE_INVALID_UTF8). False, changing nothing, for NULL s
 *  with len > 0, a NULL v or a container. */
TYJSON_API bool tyjson_set_strn(tyjson_val *v, const char *s, size_t len);

/* ----------------------------------------------------------------------------
 * MARK: - Strings as code points
 * ------------------------------------------------------------------------- */
/** The code points of the UTF-8 text s[0..len) (such as a string of a
 *  document, which the parser has checked): *chars (may be NULL) receives
 *  their count, and the result is the smallest of 0x7F, 0xFF, 0xFFFF and
 *  0x10FFFF that bounds them all (0x7F for empty text), the width a
 *  fixed-width string needs (1 byte up to 0xFF, 2 up to 0xFFFF, else 4).
 *  The text is not checked: on bytes that are not UTF-8 the count is that
 *  of the bytes other than continuation bytes (10xxxxxx). */
TYJSON_API uint32_t tyjson_utf8_measure(const char *s, size_t len, size_t *chars);
/** Writes the code points of the UTF-8 text s[0..len) to `out` as
 *  `width`-byte unsigned integers in native byte order (width 1, 2 or 4;
 *  any other writes nothing): exactly as many as tyjson_utf8_measure
 *  counts, each exact when width covers its bound (truncated otherwise).
 *  Never reads past len. */
TYJSON_API void tyjson_utf8_widen(const char *s, size_t len, void *out, unsigned width);

/* ----------------------------------------------------------------------------
 * MARK: - Arrays and objects
 * ------------------------------------------------------------------------- */
TYJSON_INLINE tyjson_val *tyjson__next(const tyjson_val *v) {
    size_t step = (v->tag & TYJSON__TYPE_MASK) >= TYJSON_TYPE_ARR ? v->uni.ofs : 1;
    return (tyjson_val *)(uintptr_t)(v + step);
}

/** Element count of an array; 0 for non-arrays and NULL. */
TYJSON_INLINE size_t tyjson_arr_size(const tyjson_val *arr) {
    return tyjson_is_arr(arr) ? (size_t)(arr->tag >> TYJSON__LEN_SHIFT) : 0;
}
/** First element, or NULL if empty, not an array, or NULL. */
TYJSON_INLINE tyjson_val *tyjson_arr_get_first(const tyjson_val *arr) {
    return tyjson_arr_size(arr) ? (tyjson_val *)(uintptr_t)(arr + 1) : NULL;
}
/** Element `idx` (O(idx) steps of O(1) each), or NULL if out of range or
 *  arr is not an array (NULL included). */
TYJSON_API tyjson_val *tyjson_arr_get(const tyjson_val *arr, size_t idx);
/** Last element, or NULL if empty or not an array (NULL included). */
TYJSON_API tyjson_val *tyjson_arr_get_last(const tyjson_val *arr);

/** Member count of an object; 0 for non-objects and NULL. */
TYJSON_INLINE size_t tyjson_obj_size(const tyjson_val *obj) {
    return tyjson_is_obj(obj) ? (size_t)(obj->tag >> TYJSON__LEN_SHIFT) : 0;
}
/** Value of the first member whose key equals `key` (NUL-terminated), or
 *  NULL (also for a NULL obj or key, or a non-object). Linear in the member count. Repeated keys: the first one wins, here
 *  and in JSON Pointer lookups, on both document kinds. */
TYJSON_API tyjson_val *tyjson_obj_get(const tyjson_val *obj, const char *key);
/** Same, with a key of `len` bytes (NULL with len 0 is the empty key;
 *  NULL with len > 0 finds nothing). */
TYJSON_API tyjson_val *tyjson_obj_getn(const tyjson_val *obj, const char *key, size_t len);

/** Array iterator, a plain value on the caller's stack (nothing to free):
 *  `it = tyjson_arr_iter_with(arr); while ((v = tyjson_arr_iter_next(&it)))`. */
typedef struct tyjson_arr_iter {
    size_t idx, max;
    tyjson_val *cur;
} tyjson_arr_iter;

/** Iterator over the elements of arr; it yields nothing for a non-array
 *  or NULL. */
TYJSON_INLINE tyjson_arr_iter tyjson_arr_iter_with(const tyjson_val *arr) {
    tyjson_arr_iter it;
    it.idx = 0;
    it.max = tyjson_arr_size(arr);
    it.cur = it.max ? (tyjson_val *)(uintptr_t)(arr + 1) : NULL;
    return it;
}
/** Next element, or NULL at the end (and for a NULL it). */
TYJSON_INLINE tyjson_val *tyjson_arr_iter_next(tyjson_arr_iter *it) {
    if (!it || it->idx >= it->max) return NULL;
    tyjson_val *v = it->cur;
    it->idx++;
    it->cur = tyjson__next(v);
    return v;
}

/** Object iterator: every key in document order, repeated keys included
 *  (lookups return the first of them); the value of the key last returned
 *  is tyjson_obj_iter_get_val(key). */
typedef struct tyjson_obj_iter {
    size_t idx, max;
    tyjson_val *cur;
    const tyjson_val *obj;
} tyjson_obj_iter;

/** Iterator over the members of obj; it yields nothing for a non-object
 *  or NULL. */
TYJSON_INLINE tyjson_obj_iter tyjson_obj_iter_with(const tyjson_val *obj) {
    tyjson_obj_iter it;
    it.idx = 0;
    it.max = tyjson_obj_size(obj);
    it.cur = it.max ? (tyjson_val *)(uintptr_t)(obj + 1) : NULL;
    it.obj = obj;
    return it;
}
/** Next key, or NULL at the end (and for a NULL it). */
TYJSON_INLINE tyjson_val *tyjson_obj_iter_next(tyjson_obj_iter *it) {
    if (!it || it->idx >= it->max) return NULL;
    tyjson_val *key = it->cur;
    it->idx++;
    it->cur = tyjson__next(key + 1);
    return key;
}
/** The value that follows a key (NULL for NULL). */
TYJSON_INLINE tyjson_val *tyjson_obj_iter_get_val(tyjson_val *key) { return key ? key + 1 : NULL; }

/* The container of a FOREACH, held in the loop's own pointer variable so
 * that the container expression is evaluated exactly once. */
TYJSON_INLINE tyjson_val *tyjson__foreach_ctn(const tyjson_val *ctn) {
    return (tyjson_val *)(uintptr_t)ctn;
}

/** Loops `val` over the elements of `arr` (an expression evaluated once;
 *  NULL or a non-array loops zero times); `idx` counts from 0. */
#define TYJSON_ARR_FOREACH(arr, idx, max, val)                                   \
    for ((idx) = 0, (val) = tyjson__foreach_ctn(arr),                           \
        (max) = tyjson_arr_size(val), (val) = tyjson_arr_get_first(val);        \
         (idx) < (max); (idx)++, (val) = tyjson__next(val))

/** Loops `key`/`val` over the members of `obj` (evaluated once), in
 *  document order, repeated keys included. */
#define TYJSON_OBJ_FOREACH(obj, idx, max, key, val)                              \
    for ((idx) = 0, (key) = tyjson__foreach_ctn(obj),                           \
        (max) = tyjson_obj_size(key), (key) = (max) ? (key) + 1 : NULL,         \
        (val) = (key) ? (key) + 1 : NULL;                                       \
         (idx) < (max);                                                         \
         (idx)++, (key) = tyjson__next(val), (val) = (key) + 1)

/* ----------------------------------------------------------------------------
 * MARK: - JSON Pointer (RFC 6901) and equality
 * ------------------------------------------------------------------------- */

/**
 * Resolves a JSON Pointer (RFC 6901) such as "/users/0/name" against val:
 * "" is val itself; each '/' starts a token, decoded "~1" -> '/' then
 * "~0" -> '~' ("~01" names the key "~1"). On an object a token names the
 * first member with that key; on an array it is an index in decimal
 * without leading zeros ("0", "12"; not "01", "+1" or "-"). The pointer is
 * the `len` bytes at `ptr` (it may hold NUL bytes); NULL with len 0 is "".
 * Returns the value in place (no copy), or NULL with `err` (may be NULL)
 * set, by one policy shared with tyjson_mut_ptr_getx:
 * - TYJSON_E_INVALID_ARG, offset 0: val NULL, or ptr NULL with len > 0;
 * - TYJSON_E_POINTER, offset 0: a pointer that is neither "" nor starts
 *   with '/';
 * - TYJSON_E_POINTER at the '~': a '~' not followed by '0' or '1'. The
 *   whole pointer is checked first, so "/nope/~2" is E_POINTER at 6
 *   whether or not "/nope" exists;
 * - TYJSON_E_NOT_FOUND at the token's first byte: a missing key, an array
 *   token that is no valid index ("-" included) or past the end, or any
 *   token below a scalar.
 * err->line and err->column locate the offset within the pointer.
 */
TYJSON_API tyjson_val *tyjson_ptr_getx(const tyjson_val *val, const char *ptr,
                                       size_t len, tyjson_error *err);
/** NUL-terminated pointer form of tyjson_ptr_getx without error detail;
 *  NULL when ptr is NULL. */
TYJSON_API tyjson_val *tyjson_ptr_get(const tyjson_val *val, const char *ptr);
/** Resolves a pointer from the document root (tyjson_ptr_get); NULL when
 *  doc or ptr is NULL. */
TYJSON_API tyjson_val *tyjson_doc_ptr_get(const tyjson_doc *doc, const char *ptr);

/**
 * Deep equality. Objects are equal when they have the same members in any
 * order. With a repeated key (possible unless parsed with
 * TYJSON_READ_REJECT_DUPLICATE_KEYS), the k-th occurrence of the key pairs
 * with the k-th occurrence in the other object, so the values of a repeated
 * key must match in order: {"a":1,"b":0,"a":2} equals {"b":0,"a":1,"a":2}
 * but not {"a":2,"b":0,"a":1}. (Lookups see only the
 * first of repeated keys; equal values therefore give equal lookups.)
 * Integers compare by value whatever their subtype; a REAL never equals an
 * integer (1.0 != 1); reals compare with ==, so NaN != NaN. Raw numbers
 * compare by text. Iterative: no recursion whatever the depth.
 *
 * Memory: one frame (under 64 bytes) per level of nesting being compared,
 * the first 32 levels on the C stack and deeper ones from the allocator
 * (so flat and shallow values need none); a pair of objects of more than
 * 32 members whose keys come in different orders also takes a sorted
 * index of 32 bytes per member, released when the pair is done. So the
 * scratch is O(depth), plus O(width) of the reordered objects larger than
 * 32 members on the current path. The same algorithm serves both
 * documents: tyjson_mut_equals_ex gives the same answer for mutable
 * copies.
 *
 * Returns TYJSON_OK with *equal set, TYJSON_E_NOMEM (with *equal false)
 * when scratch memory from `alc` (NULL = libc) runs out, or
 * TYJSON_E_INVALID_ARG when `equal` is NULL. A NULL value equals only NULL.
 * Values do not know their document: pass the document's allocator to keep
 * the scratch in it.
 */
TYJSON_API tyjson_status tyjson_equals_ex(const tyjson_val *a, const tyjson_val *b,
                                          const tyjson_alloc *alc, bool *equal);

/** tyjson_equals_ex with libc scratch, as a bool: false when the values
 *  differ and also when scratch memory runs out (use tyjson_equals_ex to
 *  tell the two apart). */
TYJSON_API bool tyjson_equals(const tyjson_val *a, const tyjson_val *b);

#ifdef __cplusplus
}
#endif
#endif /* TYJSON_DOM_H */
