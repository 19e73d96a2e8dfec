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

/** Version of these headers (semantic versioning), as numbers and as
 *  "MAJOR.MINOR.PATCH". */
#define TYJSON_VERSION_MAJOR 0
#define TYJSON_VERSION_MINOR 1
#define TYJSON_VERSION_PATCH 0
#define TYJSON_VERSION_STRING "0.1.0"

/** Marks a function the library exports: dllimport/dllexport on Windows
 *  when the caller defines TYJSON_SHARED (the library's own build also
 *  defines TYJSON_BUILDING), default visibility with GCC and Clang. */
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

/** Declares a header-defined accessor: `static inline`, always inlined by
 *  GCC and Clang. */
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
/** The status table: X(NAME, message) for each code TYJSON_NAME, in enum
 *  order. Each entry says which calls return the code. */
#define TYJSON_STATUS_MAP(X)                                                   \
    X(OK, "success") /**< Success. */ \
    X(E_INVALID_ARG, "invalid argument") /**< A NULL subject or result pointer, a NULL buffer with a non-zero capacity, unknown bits in tyjson_decode_options.read_flags, a bad type descriptor (tyjson_struct_prepare); any call. */ \
    X(E_NOMEM, "out of memory") /**< The allocator (or a fixed arena or pool) ran out; any call that allocates. */ \
    X(E_EMPTY, "empty input: no JSON value") /**< Readers, tyjson_decode: the input holds no value (only whitespace, comments or a BOM). */ \
    X(E_TRUNCATED, "unexpected end of input") /**< Readers, tyjson_decode: the input ends inside a value. */ \
    X(E_UNEXPECTED_CHAR, "unexpected character") /**< Readers, tyjson_decode: a byte that cannot come there. */ \
    X(E_TRAILING, "unexpected content after the JSON value") /**< Readers, tyjson_decode: content after the value (without STOP_WHEN_DONE). */ \
    X(E_LITERAL, "invalid literal (expected true, false or null)") /**< Readers, tyjson_decode: a misspelt true, false or null (or NaN, Infinity with ALLOW_INF_NAN). */ \
    X(E_NUMBER, "invalid number") /**< Readers, tyjson_decode: a number with invalid syntax. */ \
    X(E_NUMBER_RANGE, "number out of range") /**< Readers: an integer beyond int64/uint64 or a double overflow (without BIGNUM_AS_RAW); tyjson_decode: a number the member cannot hold. */ \
    X(E_STRING_CTRL, "unescaped control character in string") /**< Readers, tyjson_decode: a raw control character (below U+0020) in a string. */ \
    X(E_ESCAPE, "invalid escape sequence in string") /**< Readers, tyjson_decode: an invalid backslash escape. */ \
    X(E_SURROGATE, "invalid or unpaired UTF-16 surrogate escape") /**< Readers, tyjson_decode: an escape of an unpaired UTF-16 surrogate. */ \
    X(E_UTF8, "invalid UTF-8") /**< Readers, tyjson_decode: invalid UTF-8 (without ALLOW_INVALID_UTF8); writers, encoders: invalid UTF-8 in a string (without REPLACE_INVALID_UTF8). */ \
    X(E_COMMENT, "unterminated comment") /**< Readers, tyjson_decode with ALLOW_COMMENTS: a comment that does not end. */ \
    X(E_DEPTH, "nesting deeper than the maximum depth") /**< Readers, tyjson_decode: nesting deeper than max_depth; encoders: deeper than TYJSON_DEFAULT_MAX_DEPTH; the streaming writer: deeper than its max_depth. */ \
    X(E_DUPLICATE_KEY, "duplicate object key") /**< Readers with REJECT_DUPLICATE_KEYS, tyjson_decode with TYJSON_T_DUPLICATE_ERROR: a repeated key. */ \
    X(E_SIZE, "input or value larger than the configured limit") /**< A length that overflows size_t; tyjson_decode: too many elements for a FIXED array or bytes for CHARS; encoders: a FIXED count above its capacity. */ \
    X(E_IO, "input/output error") /**< tyjson_read_file, tyjson_read_fp and the _fp and _file writers: the file cannot be opened, read or written. */ \
    X(E_NAN_INF, "NaN or Infinity cannot be written as JSON") /**< Writers, encoders: NaN or an infinity without TYJSON_WRITE_ALLOW_INF_NAN. */ \
    X(E_BUF_TOO_SMALL, "output buffer too small") /**< _buf writers, tyjson_encode_buf: the text does not fit (the return value is its length). */ \
    X(E_TYPE, "value has the wrong type") /**< tyjson_decode: a JSON value of the wrong type for the member (null without NULLABLE included). */ \
    X(E_NOT_FOUND, "no value at that key, index or pointer") /**< JSON Pointer lookups: no value at the pointer. */ \
    X(E_POINTER, "invalid JSON Pointer syntax") /**< JSON Pointer lookups: the pointer is malformed. */ \
    X(E_MISSING_KEY, "required key is missing") /**< tyjson_decode: a TYJSON_F_REQUIRED key is absent. */ \
    X(E_UNKNOWN_KEY, "unknown key") /**< tyjson_decode with TYJSON_T_UNKNOWN_ERROR or TYJSON_DECODE_UNKNOWN_ERROR: a key no field names. */ \
    X(E_ENUM, "unknown enum name") /**< tyjson_decode: a name not in the enum table; encoders: a member value without a name. */ \
    X(E_DATE, "invalid date or time") /**< tyjson_decode: an invalid date or date-time string; encoders: a member holding an invalid date. */ \
    X(E_CALLBACK, "user callback reported failure") /**< _cb writers and encoders: the tyjson_write_fn returned non-zero; encoders: a codec wrote no value. */ \
    X(E_STATE, "call not valid in the current state") /**< A call out of order: the streaming writer (a value where a key is due, ...), the pull reader (feed before the fed bytes are used, a value read where none comes). */ \
    X(E_PATCH, "invalid JSON Patch") /**< tyjson_mut_doc_patch: the patch is not an array of operation objects, or an operation lacks a member it needs or names an unknown op. */ \
    X(E_TEST_FAILED, "JSON Patch test failed") /**< tyjson_mut_doc_patch: a "test" operation found a different value. */ \
    X(MORE, "more input needed") /**< Push readers: the value is not complete yet; nothing was consumed: feed more input and call again. Not an error. */ \
    X(DONE, "no more values") /**< Iterators over a sequence of values (NDJSON): the input is finished. Not an error. */

/** Result of a call: TYJSON_OK or a TYJSON_E_* code (TYJSON_STATUS_MAP). */
typedef enum tyjson_status {
#define TYJSON__STATUS_ENUM(name, msg) TYJSON_##name,
    TYJSON_STATUS_MAP(TYJSON__STATUS_ENUM)
#undef TYJSON__STATUS_ENUM
    TYJSON__STATUS_COUNT
} tyjson_status;

/** Short identifier of a status, such as "E_NOMEM"; "E_UNKNOWN" for a
 *  value that is not a code. Never NULL; a static string. */
TYJSON_API const char *tyjson_status_name(tyjson_status code);
/** Human message of a status, such as "out of memory"; "unknown status"
 *  for a value that is not a code. Never NULL; a static string. */
TYJSON_API const char *tyjson_status_msg(tyjson_status code);

/* ----------------------------------------------------------------------------
 * MARK: - Error record
 * ------------------------------------------------------------------------- */
/** Sizes of tyjson_error's msg and path arrays, NUL included. */
#define TYJSON_ERROR_PATH_MAX 256
#define TYJSON_ERROR_MSG_MAX 256

/**
 * What went wrong and where. Filled by every call that takes a
 * `tyjson_error *` (which may be NULL), on success too (code TYJSON_OK).
 * `offset` is the byte offset of the problem in the input; line and column
 * are 1-based and count bytes (column) and LF characters (line).
 * `path` is a JSON path such as `$.photos[17].author.age` where the call
 * knows one (the binding), else the empty string.
 * `msg` is the message, held in the record itself (messages quote the
 * input: "expected ',' or ']' after an array element, found '2'"), so a
 * record can be copied by assignment and outlives the input and any arena;
 * a longer message is cut at a character boundary and ends in "...".
 */
typedef struct tyjson_error {
    tyjson_status code;   /**< TYJSON_OK or what failed */
    size_t offset;        /**< byte offset into the input */
    size_t line;          /**< 1-based line; 0 when the error has no place in an input */
    size_t column;        /**< 1-based column, in bytes */
    char msg[TYJSON_ERROR_MSG_MAX];   /**< never empty after a call */
    char path[TYJSON_ERROR_PATH_MAX]; /**< JSON path, or "" */
} tyjson_error;

/**
 * Formats an error as "LINE:COL: message" (plus " at PATH" when a path is
 * known) into buf. An error without a place in the input (line 0: encoding,
 * I/O, arguments) has no "LINE:COL: " prefix: "message at PATH", or just
 * "message". An empty msg is replaced by tyjson_status_msg(err->code).
 * Returns buf; never writes more than size bytes (nothing when size is 0).
 * A NULL err writes ""; a NULL buf writes nothing and returns NULL.
 */
TYJSON_API char *tyjson_error_format(const tyjson_error *err, char *buf, size_t size);

/**
 * Computes 1-based line and column of byte `offset` in `dat`: line counts
 * LF characters, column counts bytes. Returns false (storing nothing) if
 * offset > len, or dat is NULL with len > 0; NULL with len 0 is the empty
 * text (line 1, column 1). line and column may each be NULL.
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
/** A caller's allocator: three functions and their context. The library
 *  copies the record; `ctx` must outlive every document using it. */
typedef struct tyjson_alloc {
    void *(*malloc)(void *ctx, size_t size);
    void *(*realloc)(void *ctx, void *ptr, size_t old_size, size_t new_size);
    void (*free)(void *ctx, void *ptr);
    void *ctx;
} tyjson_alloc;

/** The libc allocator (malloc, realloc, free): a static record, never NULL.
 *  Passing NULL wherever a `const tyjson_alloc *` is taken means the same. */
TYJSON_API const tyjson_alloc *tyjson_alloc_libc(void);

/**
 * Makes an allocator that serves every request from the caller's buffer
 * `buf` of `size` bytes and never calls malloc. Blocks are carved one after
 * the other (16 bytes of header each); the most recent block can grow and
 * shrink in place, and freeing it gives its bytes back (the block before it
 * becomes the most recent again). Other frees reclaim nothing until the
 * buffer is discarded (or re-initialised). Returns false if the buffer is
 * too small to hold the pool's bookkeeping (about 64 bytes).
 * A NULL alc or buf, or size 0, also gives false. The buffer stays the
 * caller's. Not thread-safe: one pool per thread.
 */
TYJSON_API bool tyjson_alloc_pool_init(tyjson_alloc *alc, void *buf, size_t size);

/* ----------------------------------------------------------------------------
 * MARK: - Read flags (0 = strict RFC 8259)
 * ------------------------------------------------------------------------- */
/** A set of TYJSON_READ_* bits, combined with `|`; 0 is strict. */
typedef uint32_t tyjson_read_flags;
/** No relaxation: strict RFC 8259. */
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
/**
 * Keep every number, not only the big ones, as its exact source text
 * (TYJSON_TYPE_RAW, NUL-terminated in the document): "19.90" stays "19.90",
 * never passing through a double. The grammar is checked as in strict mode;
 * range is not (a raw number cannot overflow). Takes precedence over
 * TYJSON_READ_BIGNUM_AS_RAW. The writer writes raw text back unchanged.
 */
#define TYJSON_READ_NUMBER_AS_RAW        (1u << 8)

/* JSON5 (https://spec.json5.org), one flag per extension; TYJSON_READ_JSON5
 * turns them all on (docs/api.md "JSON5"). Bit 9 is kept for other
 * options. */
/** Accept strings and keys in single quotes: `'it\'s'` (a `"` inside needs
 *  no escape; `\'` is an escape in either kind of string). */
#define TYJSON_READ_ALLOW_SINGLE_QUOTES  (1u << 10)
/** Accept object keys written as ECMAScript identifiers: `{name: 1}`,
 *  `{$_a1: 2}`, `\uXXXX` escapes and non-ASCII letters included. */
#define TYJSON_READ_ALLOW_UNQUOTED_KEYS  (1u << 11)
/** Accept hexadecimal integers: `0x1F`, `0XAB`, `-0x10` (a sign as decimal
 *  numbers take it). */
#define TYJSON_READ_ALLOW_HEX_NUMBERS    (1u << 12)
/** Accept an explicit sign where JSON has none: `+1`, `+.5`, `+0x1F`, and,
 *  with TYJSON_READ_ALLOW_INF_NAN, `+Infinity`, `+NaN`, `-NaN`. */
#define TYJSON_READ_ALLOW_PLUS_SIGN      (1u << 13)
/** Accept a decimal point with no digit before or after it: `.5`, `5.`,
 *  `-.5e3`, `5.e3` (not `.` alone). */
#define TYJSON_READ_ALLOW_BARE_DECIMAL_POINT (1u << 14)
/** Accept JSON5's whitespace: also vertical tab, form feed, U+00A0, U+FEFF,
 *  U+2028, U+2029 and the Unicode space separators (Zs); with
 *  TYJSON_READ_ALLOW_COMMENTS a `//` comment also ends at CR, U+2028 and
 *  U+2029. */
#define TYJSON_READ_ALLOW_EXTRA_WHITESPACE (1u << 15)
/** Accept a backslash before a line break in a string (LF, CR, CR LF,
 *  U+2028, U+2029): the line continues, the break is not part of the text. */
#define TYJSON_READ_ALLOW_ESCAPED_LINE_BREAKS (1u << 16)
/** Accept JSON5's escapes: `\v`, `\0` (not before a digit), `\xHH`, `\'`,
 *  and a backslash before any other character that is not a digit, `x`,
 *  `u` or a line break, which stands for that character (`\q` is `q`). */
#define TYJSON_READ_ALLOW_EXTENDED_ESCAPES (1u << 17)
/** Every JSON5 extension: the eight flags above, comments, trailing commas
 *  and NaN/Infinity. */
#define TYJSON_READ_JSON5                                                        \
    (TYJSON_READ_ALLOW_COMMENTS | TYJSON_READ_ALLOW_TRAILING_COMMAS |            \
     TYJSON_READ_ALLOW_INF_NAN | TYJSON_READ_ALLOW_SINGLE_QUOTES |               \
     TYJSON_READ_ALLOW_UNQUOTED_KEYS | TYJSON_READ_ALLOW_HEX_NUMBERS |           \
     TYJSON_READ_ALLOW_PLUS_SIGN | TYJSON_READ_ALLOW_BARE_DECIMAL_POINT |        \
     TYJSON_READ_ALLOW_EXTRA_WHITESPACE | TYJSON_READ_ALLOW_ESCAPED_LINE_BREAKS | \
     TYJSON_READ_ALLOW_EXTENDED_ESCAPES)

/** Default maximum nesting depth of the readers and the decoder, and the
 *  encoder's limit; see docs/conformance.md for the reason. */
#define TYJSON_DEFAULT_MAX_DEPTH 1024u

/** Options of the readers; all zero (or a NULL pointer) is strict parsing
 *  with the default depth and libc memory. */
typedef struct tyjson_read_options {
    /** TYJSON_READ_* bits. */
    tyjson_read_flags flags;
    /** Maximum nesting of arrays/objects; 0 means TYJSON_DEFAULT_MAX_DEPTH. */
    uint32_t max_depth;
    /** Allocator for the document; NULL means libc. Copied into the doc. */
    const tyjson_alloc *alc;
} tyjson_read_options;

/* ----------------------------------------------------------------------------
 * MARK: - Write flags (0 = minified, minimal escaping)
 * ------------------------------------------------------------------------- */
/** A set of TYJSON_WRITE_* bits, combined with `|`; 0 is minified. */
typedef uint32_t tyjson_write_flags;
/** Minified output with minimal escaping. */
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

/* Number options: they apply alike to the DOM writers, the binding encoder,
 * the streaming writer and tyjson_write_number (docs/api.md "Number options
 * of the writers"). */
/** Write NaN and the infinities as `null`. Takes precedence over
 *  TYJSON_WRITE_ALLOW_INF_NAN: with both, `null` is written. */
#define TYJSON_WRITE_INF_NAN_AS_NULL     (1u << 6)
/** Write doubles as the shortest text that reads back to the same float32:
 *  the double is rounded to float first (0.1 -> "0.1"); a double beyond the
 *  float range rounds to an infinity and is written (or refused) as the
 *  infinities are. Integers are not touched. */
#define TYJSON_WRITE_FP_TO_FLOAT         (1u << 7)
/** Write doubles (and floats) in plain notation with exactly n digits after
 *  the point, n from 1 to 15, rounded half away from zero from the shortest
 *  round-trip decimal (2.675 -> "2.68" at 2); |v| >= 1e21 keeps the
 *  shortest form. Takes precedence over TYJSON_WRITE_FP_TO_FLOAT. n outside
 *  1..15 is masked to its low 4 bits; 0 means no fixed decimals. */
#define TYJSON_WRITE_FP_FIXED(n)         ((tyjson_write_flags)((unsigned)(n) & 15u) << 28)
/** The bits TYJSON_WRITE_FP_FIXED uses (28 to 31). */
#define TYJSON_WRITE_FP_FIXED_MASK       (15u << 28)

/** Options of the writers and encoders; all zero (or a NULL pointer) is
 *  minified output in libc memory. */
typedef struct tyjson_write_options {
    /** TYJSON_WRITE_* bits. */
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

/**
 * Input callback for the streaming readers: copies up to `cap` bytes of the
 * input into `buf` and returns how many (at least 1), 0 at the end of the
 * input, or -1 on failure (TYJSON_E_IO). Called with cap >= 1.
 */
typedef ptrdiff_t (*tyjson_read_fn)(void *ctx, char *buf, size_t cap);

/** Frees memory returned by the library (written text) with the allocator it
 *  was allocated with (NULL = libc). A NULL ptr does nothing. */
TYJSON_API void tyjson_free(const tyjson_alloc *alc, void *ptr);

#ifdef __cplusplus
}
#endif
#endif /* TYJSON_COMMON_H */
