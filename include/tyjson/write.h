/*
 * tyjson/write.h - documents and values to JSON text.
 *
 * Every writer takes a tyjson_write_options (NULL = minified, minimal
 * escaping, libc allocation) and an optional tyjson_error. Numbers follow
 * one rule everywhere: integers exactly, doubles as the shortest text that
 * reads back to the same double (always with a '.' or an exponent, so a
 * double stays a double: 50.0 is written "50.0"), -0.0 as "-0.0"; a real
 * marked as a float (tyjson_is_float) as the shortest text that reads back
 * to the same float32, as if TYJSON_WRITE_FP_TO_FLOAT were set for it.
 * Strings are escaped minimally (\" \\ \b \f \n \r \t, other control
 * characters as \u00XX with lowercase hex); flags add \uXXXX for non-ASCII
 * and \/ for '/'. Output is iterative: no recursion whatever the depth.
 *
 * Argument order: a destination that exists before the call comes first:
 * the _fp, _file and _cb writers take the stream, the path, or the callback
 * and its context, then the value, as fprintf(fp, ...) does. Memory the
 * call fills or returns comes after the value: _buf takes (val, buf, cap)
 * and _opts returns the text. Options and the error record are always last.
 *
 * Memory: the immutable writers (tyjson_val_write_*, tyjson_write*) keep
 * no allocated state at any depth; only the text of _opts comes from
 * opts->alc. The mutable writers keep 256 levels of nesting on the C stack
 * and, for deeper values, one stack block (16 bytes per level, grown by
 * doubling) from opts->alc.
 *
 * Thread-safety: writing only reads the document; concurrent writers of the
 * same immutable document are fine.
 */
#ifndef TYJSON_WRITE_H
#define TYJSON_WRITE_H

#include "mut.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Writes a value to a new NUL-terminated buffer from opts->alc (libc when
 * NULL); release it with tyjson_free(opts ? opts->alc : NULL, text).
 * @param len  receives the text length without the NUL (0 on error); may be NULL.
 * @return the text, or NULL on error (err tells why): TYJSON_E_INVALID_ARG
 *   for a NULL val, TYJSON_E_NAN_INF, TYJSON_E_UTF8, TYJSON_E_NOMEM,
 *   TYJSON_E_SIZE.
 */
TYJSON_API char *tyjson_val_write_opts(const tyjson_val *val,
                                       const tyjson_write_options *opts,
                                       size_t *len, tyjson_error *err);
/** Writes the document root as tyjson_val_write_opts does; a NULL doc is
 *  TYJSON_E_INVALID_ARG. */
TYJSON_API char *tyjson_write_opts(const tyjson_doc *doc,
                                   const tyjson_write_options *opts,
                                   size_t *len, tyjson_error *err);
/** Shorthand: flags only, libc allocation, no error detail; free the
 *  result with free(). NULL on any error (NULL doc included). */
TYJSON_API char *tyjson_write(const tyjson_doc *doc, tyjson_write_flags flags, size_t *len);

/** Longest text tyjson_write_number writes for a UINT, SINT or REAL value
 *  (RAW text is as long as it is). */
#define TYJSON_NUMBER_MAX 40

/**
 * Writes one number value as the writers write it inside a document
 * (integers exactly, reals in the shortest form that reads back, RAW text
 * verbatim; NaN and the infinities as NaN, Infinity, -Infinity only with
 * TYJSON_WRITE_ALLOW_INF_NAN, as null with TYJSON_WRITE_INF_NAN_AS_NULL;
 * the number options TYJSON_WRITE_FP_FIXED(n) and TYJSON_WRITE_FP_TO_FLOAT
 * apply to reals, and a real marked as a float is written as a float
 * (tyjson_is_float); other flags change nothing) into buf,
 * NUL-terminated when it fits. Never allocates.
 * @return the text's length without the NUL, like snprintf (the text fits
 *   when it is < cap: TYJSON_NUMBER_MAX + 1 bytes always do for a non-RAW
 *   value); 0 when v is NULL or not a number, for NaN or an infinity
 *   (also a double FP_TO_FLOAT rounds to one) without a flag for it, or for
 *   NULL buf with cap > 0.
 */
TYJSON_API size_t tyjson_write_number(const tyjson_val *v, tyjson_write_flags flags, char *buf,
                                      size_t cap);

/**
 * Writes into the caller's buffer. Never allocates, whatever the depth.
 * buf may be NULL when cap is 0 (to measure); NULL with cap > 0 is
 * TYJSON_E_INVALID_ARG.
 * @return the text length, not counting the NUL, like snprintf. If it is
 *   >= cap the buffer was too small: err->code is TYJSON_E_BUF_TOO_SMALL,
 *   nothing was written past cap, and return + 1 bytes are needed.
 *   Returns 0 on other errors (a NULL val: TYJSON_E_INVALID_ARG; the
 *   codes of tyjson_val_write_opts). The text is NUL-terminated when it fits.
 */
TYJSON_API size_t tyjson_val_write_buf(const tyjson_val *val, char *buf, size_t cap,
                                       const tyjson_write_options *opts,
                                       tyjson_error *err);
/** Writes to a stdio stream, which stays open and the caller's; false on
 *  error: TYJSON_E_INVALID_ARG for a NULL fp or val, TYJSON_E_IO if fwrite
 *  fails, or the codes of tyjson_val_write_opts. */
TYJSON_API bool tyjson_val_write_fp(FILE *fp, const tyjson_val *val,
                                    const tyjson_write_options *opts, tyjson_error *err);
/** Writes to the file at path (created or truncated); false on error:
 *  TYJSON_E_INVALID_ARG for a NULL path or val (then no file is created),
 *  TYJSON_E_IO if the file cannot be opened or written, or the codes of
 *  tyjson_val_write_opts. */
TYJSON_API bool tyjson_val_write_file(const char *path, const tyjson_val *val,
                                      const tyjson_write_options *opts, tyjson_error *err);
/** Streams the text in pieces to fn(ctx, data, len); false on error:
 *  TYJSON_E_INVALID_ARG for a NULL fn or val (fn is not called),
 *  TYJSON_E_CALLBACK when fn returns non-zero, or the codes of
 *  tyjson_val_write_opts. */
TYJSON_API bool tyjson_val_write_cb(tyjson_write_fn fn, void *ctx, const tyjson_val *val,
                                    const tyjson_write_options *opts, tyjson_error *err);

/* The same for mutable values and documents. A mutable document without a
 * root writes like a NULL value: TYJSON_E_INVALID_ARG. */
/** Writes a mutable value to a new buffer, as tyjson_val_write_opts. */
TYJSON_API char *tyjson_mut_val_write_opts(const tyjson_mut_val *val,
                                           const tyjson_write_options *opts,
                                           size_t *len, tyjson_error *err);
/** Writes the root of a mutable document, as tyjson_write_opts. */
TYJSON_API char *tyjson_mut_write_opts(const tyjson_mut_doc *doc,
                                       const tyjson_write_options *opts,
                                       size_t *len, tyjson_error *err);
/** Shorthand as tyjson_write: free the result with free(); NULL on error. */
TYJSON_API char *tyjson_mut_write(const tyjson_mut_doc *doc, tyjson_write_flags flags, size_t *len);
/** As tyjson_val_write_buf, but a value nested deeper than 256 levels needs
 *  a stack block from opts->alc (TYJSON_E_NOMEM when it fails); shallower
 *  values never allocate. */
TYJSON_API size_t tyjson_mut_val_write_buf(const tyjson_mut_val *val, char *buf, size_t cap,
                                           const tyjson_write_options *opts,
                                           tyjson_error *err);
/** Writes a mutable value to a stdio stream, as tyjson_val_write_fp. */
TYJSON_API bool tyjson_mut_val_write_fp(FILE *fp, const tyjson_mut_val *val,
                                        const tyjson_write_options *opts, tyjson_error *err);
/** Writes a mutable value to a file, as tyjson_val_write_file. */
TYJSON_API bool tyjson_mut_val_write_file(const char *path, const tyjson_mut_val *val,
                                          const tyjson_write_options *opts, tyjson_error *err);
/** Streams a mutable value to a callback, as tyjson_val_write_cb. */
TYJSON_API bool tyjson_mut_val_write_cb(tyjson_write_fn fn, void *ctx, const tyjson_mut_val *val,
                                        const tyjson_write_options *opts, tyjson_error *err);

#ifdef __cplusplus
}
#endif
#endif /* TYJSON_WRITE_H */
