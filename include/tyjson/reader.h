/*
 * tyjson/reader.h - the pull reader: JSON read token by token from input
 * that arrives in pieces, in memory bounded by a window, never by the size
 * of the document.
 *
 * One reader reads one input at a time from one of five sources: a buffer in
 * memory, a FILE*, a file descriptor, a read callback, or bytes pushed by the
 * caller as they arrive (an event loop feeds what a socket gave it and the
 * reader answers "need more" instead of blocking). It follows the DOM
 * parser's rules exactly: the same TYJSON_READ_* flags, depth limit, error
 * codes and messages, and the same reading core.
 *
 *     tyjson_reader *r = tyjson_reader_new(NULL, &err);
 *     tyjson_reader_open_fp(r, stdin);
 *     for (tyjson_token t; (t = tyjson_reader_next(r)) != TYJSON_TOK_END; ) {
 *         if (t == TYJSON_TOK_ERROR) { report(tyjson_reader_error(r)); break; }
 *         ...
 *     }
 *     tyjson_reader_free(r);
 *
 * A value can also be taken whole from any position: as a document
 * (tyjson_reader_read_doc) or straight into a C struct through the binding
 * (tyjson_reader_decode), so a stream of records is read record by record.
 * docs/streaming.md is the guide.
 *
 * A reader is not thread-safe; use one per thread.
 */
#ifndef TYJSON_READER_H
#define TYJSON_READER_H

#include "tyjson/common.h"
#include "tyjson/dom.h"
#include "tyjson/bind.h"
#include "tyjson/num_int.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A pull reader (opaque): from tyjson_reader_new, released by
 *  tyjson_reader_free. It keeps its memory from one input to the next. */
typedef struct tyjson_reader tyjson_reader;

/** What tyjson_reader_next and tyjson_reader_peek return. */
typedef enum tyjson_token {
    /** The input is invalid, a limit was hit, the source failed or memory
     *  ran out: tyjson_reader_error says which and where. Sticky: every later
     *  call returns it again until the reader is opened on a new input. */
    TYJSON_TOK_ERROR = 0,
    TYJSON_TOK_OBJ_BEGIN, /**< `{` */
    TYJSON_TOK_OBJ_END,   /**< `}` */
    TYJSON_TOK_ARR_BEGIN, /**< `[` */
    TYJSON_TOK_ARR_END,   /**< `]` */
    TYJSON_TOK_KEY,       /**< an object member's key (tyjson_reader_str) */
    TYJSON_TOK_STR,       /**< a string value (tyjson_reader_str) */
    TYJSON_TOK_NUM,       /**< a number (tyjson_reader_get_*, tyjson_reader_str for its text) */
    TYJSON_TOK_TRUE,      /**< `true` */
    TYJSON_TOK_FALSE,     /**< `false` */
    TYJSON_TOK_NULL,      /**< `null` */
    /** The input is done and valid: after the top-level value (with
     *  TYJSON_READER_MULTI after the last one; with TYJSON_READ_STOP_WHEN_DONE
     *  right after the first, the rest unread). Every later call returns it
     *  again. */
    TYJSON_TOK_END,
    /** Push form only: every byte fed so far has been used; feed more
     *  (tyjson_reader_feed) or say there is no more (tyjson_reader_feed_end),
     *  then call again. Nothing was consumed: the call resumes exactly where
     *  it stopped. */
    TYJSON_TOK_NEED_MORE
} tyjson_token;

/** Reader behaviour bits for tyjson_reader_options.reader_flags. */
typedef uint32_t tyjson_reader_flags;
/** The input is a sequence of values separated by whitespace (NDJSON, or
 *  concatenated JSON): TYJSON_TOK_END comes after the last one, and each
 *  top-level value is at depth 0. Empty input is then valid (no values). */
#define TYJSON_READER_MULTI  (1u << 0)
/** A string or key longer than max_token is delivered in pieces (several
 *  tokens of the same kind, tyjson_reader_partial true on all but the last,
 *  each ending on a character boundary; a piece after the first has the
 *  offset of its first byte) instead of failing with TYJSON_E_SIZE. Numbers
 *  are never split: a longer one is TYJSON_E_SIZE. */
#define TYJSON_READER_PIECES (1u << 1)

/** Bytes buffered from a stream source when the options say 0. */
#define TYJSON_READER_DEFAULT_WINDOW (64u * 1024u)
/** Longest value read whole (read_doc, decode) when the options say 0. */
#define TYJSON_READER_DEFAULT_MAX_VALUE (64u * 1024u * 1024u)

/** Options of a reader; all zero (or a NULL pointer) is strict RFC 8259 with
 *  the default depth, a 64 KiB window, tokens up to the window whole, values
 *  up to 64 MiB read whole, libc memory. */
typedef struct tyjson_reader_options {
    /** TYJSON_READ_* bits, as the DOM parser takes them. */
    tyjson_read_flags flags;
    /** Maximum nesting of arrays/objects; 0 means TYJSON_DEFAULT_MAX_DEPTH. */
    uint32_t max_depth;
    /** TYJSON_READER_* bits. */
    tyjson_reader_flags reader_flags;
    /** Bytes read from a FILE*, descriptor or callback at a time and kept
     *  between calls; 0 means TYJSON_READER_DEFAULT_WINDOW, at least 64. */
    size_t window;
    /** Longest string, key or number (raw bytes) delivered as one token; 0
     *  means the window (no limit for a buffer input); at least 16. A longer
     *  string comes in pieces (TYJSON_READER_PIECES) or is TYJSON_E_SIZE at
     *  its first byte. Memory grows to hold such a token, never beyond it. */
    size_t max_token;
    /** Longest value taken whole by tyjson_reader_read_doc and
     *  tyjson_reader_decode; 0 means TYJSON_READER_DEFAULT_MAX_VALUE. A
     *  longer one is TYJSON_E_SIZE. */
    size_t max_value;
    /** Allocator of the reader's memory (not of documents it returns); NULL
     *  means libc. Copied. */
    const tyjson_alloc *alc;
} tyjson_reader_options;

/**
 * Makes a reader with the given options (NULL = all zero). It has no input
 * yet: open one with a tyjson_reader_open_* call. Returns NULL (err filled:
 * TYJSON_E_NOMEM, or TYJSON_E_INVALID_ARG for unknown bits) on failure.
 */
TYJSON_API tyjson_reader *tyjson_reader_new(const tyjson_reader_options *opts,
                                            tyjson_error *err);
/** Releases the reader and all its memory; never closes a FILE* or
 *  descriptor it read. NULL does nothing. */
TYJSON_API void tyjson_reader_free(tyjson_reader *r);

/**
 * Starts reading `len` bytes at `dat`, the whole input, in place: nothing is
 * copied, and strings without escapes point into `dat`, which must stay
 * valid and unchanged while the reader reads it. Like every open call it
 * drops the previous input and error and keeps the reader's memory.
 * Returns TYJSON_OK, or TYJSON_E_INVALID_ARG for a NULL reader, or NULL dat
 * with len > 0.
 */
TYJSON_API tyjson_status tyjson_reader_open_buf(tyjson_reader *r, const char *dat, size_t len);
/** Starts reading the stream `fp` from its current position, a window at a
 *  time (fread). The stream stays the caller's. A read error is TYJSON_E_IO
 *  at the offset reached. */
TYJSON_API tyjson_status tyjson_reader_open_fp(tyjson_reader *r, FILE *fp);
/** Starts reading the file descriptor `fd` (read(2), retried on EINTR), a
 *  window at a time. The descriptor stays the caller's. */
TYJSON_API tyjson_status tyjson_reader_open_fd(tyjson_reader *r, int fd);
/** Starts reading through `fn` (tyjson_read_fn: bytes, 0 at the end, -1 on
 *  error), called with the window's free space. */
TYJSON_API tyjson_status tyjson_reader_open_cb(tyjson_reader *r, tyjson_read_fn fn, void *ctx);
/** Starts a push input: no bytes yet; give them with tyjson_reader_feed. */
TYJSON_API tyjson_status tyjson_reader_open_push(tyjson_reader *r);
/**
 * Push form: gives the reader the next `len` bytes of the input. They are
 * read in place, so they must stay valid and unchanged until a call returns
 * TYJSON_TOK_NEED_MORE (or TYJSON_MORE); by then the reader has copied what
 * it still needs (the unfinished token or value) into its own memory. Only
 * valid when the reader has used everything fed before (right after open or
 * after NEED_MORE/MORE); otherwise TYJSON_E_STATE. len 0 is allowed.
 */
TYJSON_API tyjson_status tyjson_reader_feed(tyjson_reader *r, const char *dat, size_t len);
/** Push form: there are no more bytes. What is unfinished is then
 *  TYJSON_E_TRUNCATED (or a complete last number or literal). */
TYJSON_API tyjson_status tyjson_reader_feed_end(tyjson_reader *r);

/** Reads the next token. See tyjson_token; a structural error in the input
 *  is TYJSON_TOK_ERROR at the byte the DOM parser reports. */
TYJSON_API tyjson_token tyjson_reader_next(tyjson_reader *r);
/** The kind of the token tyjson_reader_next would return, without
 *  consuming it (TYJSON_TOK_NEED_MORE in the push form when it is not yet
 *  known), judged by its first byte: a token that starts well but proves
 *  invalid (a bad escape in a string) is reported by tyjson_reader_next. */
TYJSON_API tyjson_token tyjson_reader_peek(tyjson_reader *r);

/**
 * The current token's text: the unescaped UTF-8 bytes of a KEY or STR (NUL
 * terminated, *len not counting the NUL; a string may hold NUL bytes as
 * \u0000), or the number text of a NUM. NULL (and *len 0) for other tokens,
 * after tyjson_reader_skip, read_doc or decode, and when the NUL-terminated
 * copy it may need cannot be allocated. Valid until the next call that
 * moves the reader. len may be NULL.
 */
TYJSON_API const char *tyjson_reader_str(const tyjson_reader *r, size_t *len);
/** With TYJSON_READER_PIECES: true when the current STR, KEY or NUM token is
 *  a piece and more of the same string or number follows. */
TYJSON_API bool tyjson_reader_partial(const tyjson_reader *r);

/* ----------------------------------------------------------------------------
 * PRIVATE: the reader's current token and number, for the inline getters
 * below. Not part of the API: every name here is tyjson__ / TYJSON__ and
 * may change in any release; never touch these fields (src/stream/reader.c
 * owns them). A tyjson_reader starts with a tyjson__reader_head (its first
 * member, so a pointer to the reader is a pointer to its head). The number
 * is the value the number core read for the token (<tyjson/num_int.h>):
 * a getter is a few loads and compares in the caller, not a call.
 * ------------------------------------------------------------------------- */
typedef struct tyjson__reader_head {
    tyjson_token tok; /* the current token */
    tyjson__num num;  /* its number, when tok is TYJSON_TOK_NUM */
} tyjson__reader_head;

TYJSON_INLINE const tyjson__reader_head *tyjson__reader_h(const tyjson_reader *r) {
    return (const tyjson__reader_head *)(const void *)r;
}

/** The current NUM as an int64 when it is an integer in range; false (and
 *  nothing stored) otherwise, or for another token. With
 *  TYJSON_READ_NUMBER_AS_RAW a NUM carries only its text
 *  (tyjson_reader_str): the three getters return false for it. Inline. */
TYJSON_INLINE bool tyjson_reader_get_i64(const tyjson_reader *r, int64_t *out) {
    if (!r || !out) return false;
    const tyjson__reader_head *h = tyjson__reader_h(r);
    if (h->tok != TYJSON_TOK_NUM) return false;
    if (h->num.kind == TYJSON__NUM_SINT) {
        *out = h->num.v.i;
        return true;
    }
    if (h->num.kind == TYJSON__NUM_UINT && h->num.v.u <= (uint64_t)INT64_MAX) {
        *out = (int64_t)h->num.v.u;
        return true;
    }
    return false;
}
/** The current NUM as a uint64 when it is a non-negative integer in range.
 *  Inline. */
TYJSON_INLINE bool tyjson_reader_get_u64(const tyjson_reader *r, uint64_t *out) {
    if (!r || !out) return false;
    const tyjson__reader_head *h = tyjson__reader_h(r);
    if (h->tok != TYJSON_TOK_NUM || h->num.kind != TYJSON__NUM_UINT) return false;
    *out = h->num.v.u;
    return true;
}
/** The current NUM as the nearest double (correctly rounded, as the DOM
 *  reads it); false when it overflows or for another token. Inline. */
TYJSON_INLINE bool tyjson_reader_get_double(const tyjson_reader *r, double *out) {
    if (!r || !out) return false;
    const tyjson__reader_head *h = tyjson__reader_h(r);
    if (h->tok != TYJSON_TOK_NUM) return false;
    switch (h->num.kind) {
    case TYJSON__NUM_UINT: *out = (double)h->num.v.u; return true;
    case TYJSON__NUM_SINT: *out = (double)h->num.v.i; return true;
    case TYJSON__NUM_REAL: *out = h->num.v.f; return true;
    default: return false;
    }
}

/** Nesting depth of the current token: 0 for a top-level value (and the
 *  top-level OBJ_BEGIN/ARR_BEGIN and their END), 1 for the members and
 *  elements directly inside it, and so on. */
TYJSON_API uint32_t tyjson_reader_depth(const tyjson_reader *r);
/** Byte offset of the current token's first byte in the whole input (for a
 *  push or stream input, counted from the first byte ever given). */
TYJSON_API size_t tyjson_reader_offset(const tyjson_reader *r);
/** 1-based line and column (in bytes) of the current token's first byte,
 *  counted as tyjson_error counts them. Either pointer may be NULL. */
TYJSON_API void tyjson_reader_location(const tyjson_reader *r, size_t *line, size_t *column);
/**
 * Writes the JSON path of the current token (`$`, `$.data[3].price`; a
 * key's path ends in that key; keys that are not identifiers are quoted as
 * the binding quotes them) into buf, NUL terminated and cut to size.
 * Returns the full length (as snprintf does).
 */
TYJSON_API size_t tyjson_reader_path(const tyjson_reader *r, char *buf, size_t size);

/**
 * Skips a value without delivering its tokens, validating it as the DOM
 * would: after OBJ_BEGIN or ARR_BEGIN the rest of that container through its
 * end; after a KEY that member's value; anywhere else the value that comes
 * next (TYJSON_E_STATE when none comes there, or while a string's pieces
 * are being delivered). The reader then stands after the value. Returns
 * TYJSON_OK, the error (as tyjson_reader_error), or TYJSON_MORE in the push
 * form (feed, then call again: it resumes).
 */
TYJSON_API tyjson_status tyjson_reader_skip(tyjson_reader *r);

/**
 * Reads the value that comes next (after a KEY its value; in an array the
 * next element; at the top the next top-level value) whole, as a document
 * parsed with the reader's flags and depth (its allocator from opts->alc;
 * opts may be NULL; the rest of opts is ignored). The reader then stands
 * after that value. NULL when there is no value there (err code
 * TYJSON_E_STATE), on an error in it (err filled with offsets and line and
 * column in the whole input; the reader is then in error too), or, in the
 * push form, TYJSON_MORE in err->code: feed and call again.
 */
TYJSON_API tyjson_doc *tyjson_reader_read_doc(tyjson_reader *r, const tyjson_read_options *opts,
                                              tyjson_error *err);
/**
 * Decodes the value that comes next (as tyjson_reader_read_doc chooses it)
 * into *out with the binding, as tyjson_decode would decode its text (opts
 * and arena as there; TYJSON_DECODE_BORROW is honoured only for a buffer
 * input; TYJSON_DECODE_STOP_WHEN_DONE, read_size and read_flags are
 * ignored: the reader's flags apply). Errors carry the path in the whole
 * document (`$.data[123456].price`) and the offset, line and column in the
 * whole input. Invalid JSON puts the reader in error; a valid value that
 * does not fit the type (TYJSON_E_TYPE, ...) fails this call only, and the
 * reader stands after it. No value there is TYJSON_E_STATE. Returns
 * TYJSON_OK, an error, or TYJSON_MORE in the push form (feed, call again).
 * Reading a stream of records: reset the arena between records, and memory
 * stays that of one record.
 */
TYJSON_API tyjson_status tyjson_reader_decode(tyjson_reader *r, tyjson_struct *type, void *out,
                                              tyjson_arena *arena,
                                              const tyjson_decode_options *opts,
                                              tyjson_error *err);

/** The reader's error record: code TYJSON_OK until something fails. Never
 *  NULL for a non-NULL reader. */
TYJSON_API const tyjson_error *tyjson_reader_error(const tyjson_reader *r);
/** Bytes of the input consumed so far (after TYJSON_TOK_END with
 *  TYJSON_READ_STOP_WHEN_DONE: the extent of the value and the whitespace
 *  after it, as tyjson_doc_get_read_size gives). */
TYJSON_API size_t tyjson_reader_consumed(const tyjson_reader *r);
/** Bytes the reader holds now (window, scratch, stacks): for checking the
 *  memory bound. */
TYJSON_API size_t tyjson_reader_mem_size(const tyjson_reader *r);

#ifdef __cplusplus
}
#endif
#endif /* TYJSON_READER_H */
