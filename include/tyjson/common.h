/*
 * tyjson/common.h - shared vocabulary of the public API: export macros,
 * status codes, the error record, the allocator and the option records.
 *
 * Everything here is C11 and compiles as C++ too.
 */
#ifndef TYJSON_COMMON_H
#define TYJSON_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define TYJSON_VERSION_MAJOR 0
#define TYJSON_VERSION_MINOR 1
#define TYJSON_VERSION_PATCH 0
#define TYJSON_VERSION_STRING "0.1.0"

#if defined(_WIN32) && defined(TYJSON_SHARED)
#  if defined(TYJSON_BUILDING)
#    define TYJSON_API __declspec(dllexport)
#  else
#    define TYJSON_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__) && __GNUC__ >= 4
#  define TYJSON_API __attribute__((visibility("default")))
#else
#  define TYJSON_API
#endif

#if defined(__GNUC__) || defined(__clang__)
#  define TYJSON_INLINE static inline __attribute__((always_inline))
#else
#  define TYJSON_INLINE static inline
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ----------------------------------------------------------------------------
 * MARK: - Status codes
 *
 * One table drives the enum, tyjson_status_name() and tyjson_status_msg().
 * Codes are stable once released: new ones are appended.
 * ------------------------------------------------------------------------- */
#define TYJSON_STATUS_MAP(X)                                                   \
    X(OK, "success")                                                           \
    X(E_INVALID_ARG, "invalid argument")                                       \
    X(E_NOMEM, "out of memory")                                                \
    X(E_EMPTY, "empty input: no JSON value")                                   \
    X(E_TRUNCATED, "unexpected end of input")                                  \
    X(E_UNEXPECTED_CHAR, "unexpected character")                               \
    X(E_TRAILING, "unexpected content after the JSON value")                   \
    X(E_LITERAL, "invalid literal (expected true, false or null)")             \
    X(E_NUMBER, "invalid number")                                              \
    X(E_NUMBER_RANGE, "number out of range")                                   \
    X(E_STRING_CTRL, "unescaped control character in string")                  \
    X(E_ESCAPE, "invalid escape sequence in string")                           \
    X(E_SURROGATE, "invalid or unpaired UTF-16 surrogate escape")              \
    X(E_UTF8, "invalid UTF-8")                                                 \
    X(E_COMMENT, "unterminated comment")                                       \
    X(E_DEPTH, "nesting deeper than the maximum depth")                        \
    X(E_DUPLICATE_KEY, "duplicate object key")                                 \
    X(E_SIZE, "input or value larger than the configured limit")               \
    X(E_IO, "input/output error")                                              \
    X(E_NAN_INF, "NaN or Infinity cannot be written as JSON")                  \
    X(E_BUF_TOO_SMALL, "output buffer too small")                              \
    X(E_TYPE, "value has the wrong type")                                      \
    X(E_NOT_FOUND, "no value at that key, index or pointer")                   \
    X(E_POINTER, "invalid JSON Pointer syntax")                                \
    X(E_MISSING_KEY, "required key is missing")                                \
    X(E_UNKNOWN_KEY, "unknown key")                                            \
    X(E_ENUM, "unknown enum name")                                             \
    X(E_DATE, "invalid date or time")                                          \
    X(E_CALLBACK, "user callback reported failure")                            \
    X(E_STATE, "call not valid in the current state")

typedef enum tyjson_status {
#define TYJSON__STATUS_ENUM(name, msg) TYJSON_##name,
    TYJSON_STATUS_MAP(TYJSON__STATUS_ENUM)
#undef TYJSON__STATUS_ENUM
    TYJSON__STATUS_COUNT
} tyjson_status;

/** Short identifier of a status, such as "E_NOMEM". Never NULL. */
TYJSON_API const char *tyjson_status_name(tyjson_status code);
/** Human message of a status, such as "out of memory". Never NULL. */
TYJSON_API const char *tyjson_status_msg(tyjson_status code);

/* ----------------------------------------------------------------------------
 * MARK: - Error record
 *
 * Filled by every call that takes a `tyjson_error *` (which may be NULL).
 * `offset` is the byte offset of the problem in the input; line and column
 * are 1-based and count bytes (column) and LF characters (line).
 * `path` is a JSON path such as `$.photos[17].author.age` where the caller
 * can know one (binding, pull reader), else the empty string.
 * `msg` is the message, held in the record itself (messages quote the
 * input: "expected ',' or ']' after an array element, found '2'"), so a
 * record can be copied by assignment and outlives the input and any arena;
 * a longer message is cut at a character boundary and ends in "...".
 * ------------------------------------------------------------------------- */
#define TYJSON_ERROR_PATH_MAX 256
#define TYJSON_ERROR_MSG_MAX 256
typedef struct tyjson_error {
    tyjson_status code;
    size_t offset;        /* byte offset into the input */
    size_t line;          /* 1-based line; 0 when the error has no place in an input */
    size_t column;        /* 1-based column, in bytes */
    char msg[TYJSON_ERROR_MSG_MAX];   /* never empty after a call */
    char path[TYJSON_ERROR_PATH_MAX];
} tyjson_error;

/**
 * Formats an error as "LINE:COL: message" (plus " at PATH" when a path is
 * known) into buf. An error without a place in the input (line 0: encoding,
 * I/O, arguments) has no "LINE:COL: " prefix: "message at PATH", or just
 * "message". Returns buf; never writes more than size bytes.
 */
TYJSON_API char *tyjson_error_format(const tyjson_error *err, char *buf, size_t size);

/**
 * Computes 1-based line and column of byte `offset` in `dat`. Returns false
 * if offset > len.
 */
TYJSON_API bool tyjson_locate(const char *dat, size_t len, size_t offset,
                              size_t *line, size_t *column);

/* ----------------------------------------------------------------------------
 * MARK: - Allocator
 *
 * Passed per call and copied into each document: no global state.
 * A NULL `const tyjson_alloc *` means the C library's malloc/realloc/free.
 * realloc receives the old size, so an allocator need not store it (the
 * arena's allocator view relies on it; the pool allocator keeps each
 * block's size in the header in front of the block instead, and ignores
 * it). free(ctx, NULL) is never called.
 * ------------------------------------------------------------------------- */
typedef struct tyjson_alloc {
    void *(*malloc)(void *ctx, size_t size);
    void *(*realloc)(void *ctx, void *ptr, size_t old_size, size_t new_size);
    void (*free)(void *ctx, void *ptr);
    void *ctx;
} tyjson_alloc;

/** The libc allocator. */
TYJSON_API const tyjson_alloc *tyjson_alloc_libc(void);

/**
 * Makes an allocator that serves every request from the caller's buffer
 * `buf` of `size` bytes and never calls malloc. Blocks are carved one after
 * the other (16 bytes of header each); the most recent block can grow and
 * shrink in place, and freeing it gives its bytes back (the block before it
 * becomes the most recent again). Other frees reclaim nothing until the
 * buffer is discarded (or re-initialised). Returns false if the buffer is
 * too small to hold the pool's bookkeeping (about 64 bytes).
 * Not thread-safe: one pool per thread.
 */
TYJSON_API bool tyjson_alloc_pool_init(tyjson_alloc *alc, void *buf, size_t size);

/* ----------------------------------------------------------------------------
 * MARK: - Read flags (0 = strict RFC 8259)
 * ------------------------------------------------------------------------- */
typedef uint32_t tyjson_read_flags;
#define TYJSON_READ_STRICT               0u
/** Accept C comments: `// ...` to end of line and `/ * ... * /` blocks. */
#define TYJSON_READ_ALLOW_COMMENTS       (1u << 0)
/** Accept one trailing comma in arrays and objects: `[1,2,]`, `{"a":1,}`. */
#define TYJSON_READ_ALLOW_TRAILING_COMMAS (1u << 1)
/** Accept NaN, Infinity, -Infinity (case-sensitive) as number values. */
#define TYJSON_READ_ALLOW_INF_NAN        (1u << 2)
/** Skip a leading UTF-8 byte order mark (EF BB BF). */
#define TYJSON_READ_ALLOW_BOM            (1u << 3)
/** Accept invalid UTF-8 inside strings, kept byte for byte. */
#define TYJSON_READ_ALLOW_INVALID_UTF8   (1u << 4)
/**
 * Stop after the first complete value instead of requiring end of input.
 * The document reports the bytes consumed (tyjson_doc_read_size), so the
 * caller can parse concatenated or newline-delimited documents in a loop.
 */
#define TYJSON_READ_STOP_WHEN_DONE       (1u << 5)
/** Fail with TYJSON_E_DUPLICATE_KEY when an object repeats a key. */
#define TYJSON_READ_REJECT_DUPLICATE_KEYS (1u << 6)
/**
 * Keep integers outside int64/uint64 and numbers whose magnitude overflows a
 * double as raw number text (TYJSON_TYPE_RAW) instead of failing.
 * The writer writes raw text back unchanged.
 */
#define TYJSON_READ_BIGNUM_AS_RAW        (1u << 7)

/** Default maximum nesting depth; see docs/conformance.md for the reason. */
#define TYJSON_DEFAULT_MAX_DEPTH 1024u

typedef struct tyjson_read_options {
    tyjson_read_flags flags;
    /** Maximum nesting of arrays/objects; 0 means TYJSON_DEFAULT_MAX_DEPTH. */
    uint32_t max_depth;
    /** Allocator for the document; NULL means libc. Copied into the doc. */
    const tyjson_alloc *alc;
} tyjson_read_options;

/* ----------------------------------------------------------------------------
 * MARK: - Write flags (0 = minified, minimal escaping)
 * ------------------------------------------------------------------------- */
typedef uint32_t tyjson_write_flags;
#define TYJSON_WRITE_MINIFY              0u
/** Indent with newlines; `indent` spaces per level (default 2). */
#define TYJSON_WRITE_PRETTY              (1u << 0)
/** Write every non-ASCII character as \uXXXX (surrogate pairs above U+FFFF). */
#define TYJSON_WRITE_ESCAPE_UNICODE      (1u << 1)
/** Write `/` as `\/`. */
#define TYJSON_WRITE_ESCAPE_SLASH        (1u << 2)
/** Write NaN and infinities as NaN, Infinity, -Infinity instead of failing. */
#define TYJSON_WRITE_ALLOW_INF_NAN       (1u << 3)
/** Write invalid UTF-8 in strings as U+FFFD instead of failing. */
#define TYJSON_WRITE_REPLACE_INVALID_UTF8 (1u << 4)
/** End the output with a newline. */
#define TYJSON_WRITE_NEWLINE_AT_END      (1u << 5)

typedef struct tyjson_write_options {
    tyjson_write_flags flags;
    /** Spaces per indent level with TYJSON_WRITE_PRETTY; 0 means 2. */
    uint32_t indent;
    /** Allocator for the returned text; NULL means libc. */
    const tyjson_alloc *alc;
} tyjson_write_options;

/**
 * Output callback for the streaming writers: receives consecutive pieces of
 * the text. Return 0 to continue, non-zero to abort (TYJSON_E_CALLBACK).
 */
typedef int (*tyjson_write_fn)(void *ctx, const char *data, size_t len);

/** Frees memory returned by the library (written text) with the allocator it
 *  was allocated with (NULL = libc). */
TYJSON_API void tyjson_free(const tyjson_alloc *alc, void *ptr);

#ifdef __cplusplus
}
#endif
#endif /* TYJSON_COMMON_H */
