/*
 * tyjson/writer.h - the streaming writer: JSON text built call by call
 * (begin an object, a key, a value, ...), with no document in between.
 *
 *     tyjson_writer *w = tyjson_writer_new(NULL);           // growing buffer
 *     for (i = 0; i < n; i++) {
 *         tyjson_writer_reset(w);                           // memory kept
 *         tyjson_writer_begin_object(w);
 *         tyjson_writer_key_noesc(w, "ID", 2);
 *         tyjson_writer_int(w, i);
 *         tyjson_writer_key(w, name, name_len);
 *         tyjson_writer_string(w, text, text_len);
 *         tyjson_writer_end_object(w);
 *         if (tyjson_writer_finish(w, &len) != TYJSON_OK) ...   // err: tyjson_writer_error
 *         send(tyjson_writer_text(w), len);
 *     }
 *     tyjson_writer_free(w);
 *
 * Sinks: a growing buffer reused across messages (tyjson_writer_new;
 * tyjson_writer_reset keeps its memory), the caller's buffer
 * (tyjson_writer_new_buf; the size needed is reported when it is too small),
 * a stdio stream (tyjson_writer_new_fp) and a callback fed in pieces of
 * flush_threshold bytes (tyjson_writer_new_cb).
 *
 * Output is exactly the DOM writer's (tyjson_write_opts) for the same value
 * and flags: minified or pretty (TYJSON_WRITE_PRETTY, `indent` spaces a
 * level), the same escaping flags, numbers by the same rules.
 *
 * Misuse is an error, never bad JSON: a value where a key is due, a key
 * outside an object, an end without its begin (or the wrong end), a second
 * root value without tyjson_writer_end_message, finishing with containers
 * open, NaN or an infinity without TYJSON_WRITE_ALLOW_INF_NAN, nesting
 * deeper than max_depth. Errors are sticky: the first is kept (with the
 * writer's path, such as `$.orders[3].price`, in tyjson_error.path) and
 * every later call does nothing and returns it, so a caller may check only
 * the status of tyjson_writer_finish. Calls out of order return
 * TYJSON_E_STATE.
 *
 * Memory: tyjson_writer_new* makes one allocation (the writer, its container
 * stack of max_depth levels and its scratch chunk) from opts->alc; the
 * growing buffer comes from the same allocator and grows by 1.5x. Nothing
 * else is allocated, so a writer that has once held the largest message
 * allocates nothing more. No recursion at any depth.
 *
 * Thread-safety: a writer is used by one thread at a time.
 */
#ifndef TYJSON_WRITER_H
#define TYJSON_WRITER_H

#include "bind.h"
#include "write.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A streaming writer (opaque): made by tyjson_writer_new*, released by
 *  tyjson_writer_free. */
typedef struct tyjson_writer tyjson_writer;

/** Options of a writer; all zero (or a NULL pointer) is minified output,
 *  depth limit TYJSON_DEFAULT_MAX_DEPTH, 16 KiB flushes, libc memory. */
typedef struct tyjson_writer_options {
    /** TYJSON_WRITE_* bits: PRETTY, ESCAPE_UNICODE, ESCAPE_SLASH,
     *  ALLOW_INF_NAN, REPLACE_INVALID_UTF8 as for the DOM writer;
     *  NEWLINE_AT_END ends the text with '\n' at tyjson_writer_finish. */
    tyjson_write_flags flags;
    /** Spaces per level with TYJSON_WRITE_PRETTY; 0 means 2. */
    uint32_t indent;
    /** Deepest nesting allowed (TYJSON_E_DEPTH beyond); 0 means
     *  TYJSON_DEFAULT_MAX_DEPTH. The container stack is sized by it. */
    uint32_t max_depth;
    /** FILE and callback sinks: bytes gathered before each write; 0 means
     *  16384; values below 4096 mean 4096. */
    size_t flush_threshold;
    /** Allocator of the writer and of its growing buffer; NULL means libc. */
    const tyjson_alloc *alc;
} tyjson_writer_options;

/* ----------------------------------------------------------------------------
 * MARK: - Making and ending a writer
 * ------------------------------------------------------------------------- */

/** A writer into a growing buffer of its own (read it with
 *  tyjson_writer_text). NULL when memory runs out. */
TYJSON_API tyjson_writer *tyjson_writer_new(const tyjson_writer_options *opts);
/** A writer into the caller's buffer of cap bytes (buf may be NULL when cap
 *  is 0, to measure). Nothing is written past cap: when the text does not
 *  fit, tyjson_writer_finish returns TYJSON_E_BUF_TOO_SMALL and reports the
 *  length needed (plus 1 for the NUL). NULL when memory runs out or for a
 *  NULL buf with cap > 0. */
TYJSON_API tyjson_writer *tyjson_writer_new_buf(char *buf, size_t cap,
                                                const tyjson_writer_options *opts);
/** A writer to a stdio stream (which stays the caller's and open), written
 *  in pieces of flush_threshold bytes and at tyjson_writer_finish and
 *  tyjson_writer_flush. NULL for a NULL fp or when memory runs out. */
TYJSON_API tyjson_writer *tyjson_writer_new_fp(FILE *fp, const tyjson_writer_options *opts);
/** A writer that hands its text to fn(ctx, data, len) in pieces of at most
 *  flush_threshold bytes, when that much has gathered and at
 *  tyjson_writer_finish and tyjson_writer_flush; a non-zero return from fn
 *  is TYJSON_E_CALLBACK. NULL for a NULL fn or when memory runs out. */
TYJSON_API tyjson_writer *tyjson_writer_new_cb(tyjson_write_fn fn, void *ctx,
                                               const tyjson_writer_options *opts);
/** Releases the writer and its growing buffer (not a caller's buffer or
 *  stream; text not yet flushed is dropped). NULL is ignored. */
TYJSON_API void tyjson_writer_free(tyjson_writer *w);

/**
 * Starts over: no open containers, no root written, no error. The growing
 * buffer keeps its memory (its text is dropped); a caller's buffer is
 * written again from its start; a stream or callback carries on after what
 * was already handed over (text gathered and not yet flushed is dropped).
 * A NULL w does nothing.
 */
TYJSON_API void tyjson_writer_reset(tyjson_writer *w);
/** Starts over (as tyjson_writer_reset) into a new caller's buffer: the
 *  writer's sink becomes that buffer whatever it was (a growing buffer is
 *  kept for a later tyjson_writer_reset_heap). TYJSON_E_INVALID_ARG for a NULL
 *  w, or a NULL buf with cap > 0. */
TYJSON_API tyjson_status tyjson_writer_reset_buf(tyjson_writer *w, char *buf, size_t cap);
/** Starts over into the writer's own growing buffer (made on first use),
 *  whatever its sink was. TYJSON_E_INVALID_ARG for a NULL w. */
TYJSON_API tyjson_status tyjson_writer_reset_heap(tyjson_writer *w);

/**
 * Ends the text: checks that a root value is complete (TYJSON_E_STATE, with
 * the path of the innermost open container, if containers are open or no
 * value was written since the start or the last message boundary that
 * followed a value), adds NEWLINE_AT_END's '\n', NUL-terminates (growing
 * buffer always; caller's buffer when it fits) and hands everything to the
 * stream or callback. *len (may be NULL) receives the length of the whole
 * text written since the last reset, without the NUL: for a caller's buffer
 * that is too small, the length needed, with TYJSON_E_BUF_TOO_SMALL. After
 * finish only tyjson_writer_reset* may write again (other calls:
 * TYJSON_E_STATE). Returns the first error of the writer, or TYJSON_OK.
 */
TYJSON_API tyjson_status tyjson_writer_finish(tyjson_writer *w, size_t *len);

/** NDJSON: ends the root value just written with '\n' and lets another
 *  root follow. TYJSON_E_STATE if no root value is complete (containers
 *  open, or nothing written since the last boundary). */
TYJSON_API tyjson_status tyjson_writer_end_message(tyjson_writer *w);

/** Hands gathered text to the stream or callback now (fflush is not
 *  called); nothing for the buffer sinks. Returns the writer's status. */
TYJSON_API tyjson_status tyjson_writer_flush(tyjson_writer *w);

/** The growing buffer's text (NUL-terminated after a successful finish), or
 *  the caller's buffer; NULL for a stream or callback writer or a NULL w.
 *  Valid until the next call that writes, resets or frees. */
TYJSON_API const char *tyjson_writer_text(const tyjson_writer *w);
/** Bytes written since the last reset (for a caller's buffer that is too
 *  small: the bytes the text needs so far). 0 for a NULL w. */
TYJSON_API size_t tyjson_writer_size(const tyjson_writer *w);
/** The writer's status: TYJSON_OK or its first error (TYJSON_E_INVALID_ARG
 *  for a NULL w). */
TYJSON_API tyjson_status tyjson_writer_status(const tyjson_writer *w);
/** Copies the writer's error record (code, message, the writer's path in
 *  err->path; line 0, offset = bytes written when it happened) into *err.
 *  Returns the code. A NULL err only returns it. */
TYJSON_API tyjson_status tyjson_writer_error(const tyjson_writer *w, tyjson_error *err);
/** Current nesting depth (open containers); 0 for a NULL w. */
TYJSON_API size_t tyjson_writer_depth(const tyjson_writer *w);

/* ----------------------------------------------------------------------------
 * MARK: - Containers and keys
 *
 * Every call below returns TYJSON_OK or the writer's (sticky) error; a NULL
 * w is TYJSON_E_INVALID_ARG.
 * ------------------------------------------------------------------------- */

/** Opens an object (as a value: at the root, in an array, or after a key);
 *  TYJSON_E_DEPTH past max_depth. */
TYJSON_API tyjson_status tyjson_writer_begin_object(tyjson_writer *w);
/** Closes the innermost object; TYJSON_E_STATE when none is open, the
 *  innermost container is an array, or a key waits for its value. */
TYJSON_API tyjson_status tyjson_writer_end_object(tyjson_writer *w);
/** Opens an array, as tyjson_writer_begin_object. */
TYJSON_API tyjson_status tyjson_writer_begin_array(tyjson_writer *w);
/** Closes the innermost array; TYJSON_E_STATE when none is open or the
 *  innermost container is an object. */
TYJSON_API tyjson_status tyjson_writer_end_array(tyjson_writer *w);

/** The next key of the innermost object: n bytes of UTF-8 at s (escaped as
 *  a string value; NULL s with n 0 is ""). TYJSON_E_STATE outside an object
 *  or where a value is due; TYJSON_E_UTF8 for invalid UTF-8 (without
 *  REPLACE_INVALID_UTF8). */
TYJSON_API tyjson_status tyjson_writer_key(tyjson_writer *w, const char *s, size_t n);
/** A key of n bytes that the caller knows need no escaping under the
 *  writer's flags (printable ASCII without '"' and '\\', and without '/'
 *  under ESCAPE_SLASH; any valid UTF-8 without those and without control
 *  characters when ESCAPE_UNICODE is off): copied as is, unchecked. */
TYJSON_API tyjson_status tyjson_writer_key_noesc(tyjson_writer *w, const char *s, size_t n);

/* ----------------------------------------------------------------------------
 * MARK: - Values
 *
 * A value goes at the root (once per message), into an array, or after a
 * key; elsewhere (where a key is due) it is TYJSON_E_STATE.
 * ------------------------------------------------------------------------- */

/** A string value: n bytes of UTF-8 at s, escaped as by the DOM writer
 *  (NULL s with n 0 is ""); TYJSON_E_UTF8 as tyjson_writer_key. */
TYJSON_API tyjson_status tyjson_writer_string(tyjson_writer *w, const char *s, size_t n);
/** A string value whose bytes need no escaping (see
 *  tyjson_writer_key_noesc): copied as is, unchecked. */
TYJSON_API tyjson_status tyjson_writer_string_noesc(tyjson_writer *w, const char *s, size_t n);
/** A signed integer, exactly. */
TYJSON_API tyjson_status tyjson_writer_int(tyjson_writer *w, int64_t v);
/** An unsigned integer, exactly. */
TYJSON_API tyjson_status tyjson_writer_uint(tyjson_writer *w, uint64_t v);
/** A double as the shortest text that reads back to it, always with a '.'
 *  or an exponent (50.0, 0.1, 1e300), as the DOM writer. NaN and the
 *  infinities: TYJSON_E_NAN_INF, or NaN, Infinity, -Infinity with
 *  TYJSON_WRITE_ALLOW_INF_NAN. */
TYJSON_API tyjson_status tyjson_writer_double(tyjson_writer *w, double v);
/** A float as the shortest text that reads back to it as a float
 *  (3.67f -> 3.67); NaN and infinities as tyjson_writer_double. */
TYJSON_API tyjson_status tyjson_writer_float(tyjson_writer *w, float v);
/**
 * A double in plain notation with exactly `prec` digits after the point
 * (1 to 15; other values are TYJSON_E_INVALID_ARG): the shortest
 * round-trip decimal of v rounded half away from zero, so 2.675 (whose
 * shortest text is "2.675") gives "2.68" at prec 2 and 0.125 gives "0.13";
 * 1.0 at prec 3 gives "1.000". For |v| >= 1e21 the shortest form is written
 * instead, as JavaScript's toFixed does. NaN and infinities as
 * tyjson_writer_double.
 */
TYJSON_API tyjson_status tyjson_writer_double_fixed(tyjson_writer *w, double v, int prec);
/** true or false. */
TYJSON_API tyjson_status tyjson_writer_bool(tyjson_writer *w, bool v);
/** null. */
TYJSON_API tyjson_status tyjson_writer_null(tyjson_writer *w);

/** Flags of tyjson_writer_raw. */
#define TYJSON_WRITER_RAW_TRUSTED 1u

/**
 * n bytes of JSON text at s as one value, copied as is (not re-indented).
 * The text is checked with tyjson_validate (strict RFC 8259: exactly one
 * value, whitespace around it allowed) unless flags has
 * TYJSON_WRITER_RAW_TRUSTED; invalid text is an error with the validator's
 * code (TYJSON_E_EMPTY, _UNEXPECTED_CHAR, ...) and message, naming the
 * writer's path, and nothing is written. Trusted text must be one valid
 * JSON value: the writer cannot then promise valid output.
 */
TYJSON_API tyjson_status tyjson_writer_raw(tyjson_writer *w, const char *s, size_t n,
                                           unsigned flags);

/** A value of an immutable document, written by the DOM writer (same
 *  flags and indentation, nested at the writer's depth). A NULL val is
 *  TYJSON_E_INVALID_ARG; the DOM writer's errors (TYJSON_E_UTF8,
 *  TYJSON_E_NAN_INF) carry the writer's path. */
TYJSON_API tyjson_status tyjson_writer_val(tyjson_writer *w, const tyjson_val *val);
/** A mutable value, as tyjson_writer_val (a value nested deeper than 256
 *  levels makes the mutable writer allocate its stack from the writer's
 *  allocator). */
TYJSON_API tyjson_status tyjson_writer_mut_val(tyjson_writer *w, const tyjson_mut_val *val);
/** The struct *in described by type, written by the binding's encoder
 *  (tyjson_encode_cb) with the writer's flags, nested at the writer's
 *  depth: so `begin_array; for each record: tyjson_writer_struct;
 *  end_array` writes records into an enclosing array. A NULL type or in is
 *  TYJSON_E_INVALID_ARG; the encoder's errors carry the writer's path. */
TYJSON_API tyjson_status tyjson_writer_struct(tyjson_writer *w, tyjson_struct *type,
                                              const void *in);

#ifdef __cplusplus
}
#endif
#endif /* TYJSON_WRITER_H */
