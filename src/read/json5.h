/*
 * json5.h - the JSON5 extensions of the reading core (json5.c), for every
 * front door: whitespace beyond JSON's four bytes, comments ending at any
 * JSON5 line break, strings in either quote with JSON5's escapes, and
 * identifier keys. The number forms are in num/num.h
 * (tyjson__num_read_json5).
 *
 * The front doors call these only when a JSON5 flag is set and a byte is
 * not strict JSON (or, for strings, when a JSON5 string flag is set), so
 * strict reading never runs them. Every function is bounded by the real
 * end and never reads at or past it.
 */
#ifndef TYJSON_JSON5_H
#define TYJSON_JSON5_H

#include "read/syntax.h"

/* The JSON5 bits that change what a string may hold. */
#define TYJSON__J5_STR_FLAGS                                                   \
    (TYJSON_READ_ALLOW_SINGLE_QUOTES | TYJSON_READ_ALLOW_ESCAPED_LINE_BREAKS |  \
     TYJSON_READ_ALLOW_EXTENDED_ESCAPES)
/* The bits that change what a number may look like (NaN/Infinity's own
 * flag included: with a JSON5 number flag it takes signs). */
#define TYJSON__J5_NUM_FLAGS                                                   \
    (TYJSON_READ_ALLOW_HEX_NUMBERS | TYJSON_READ_ALLOW_PLUS_SIGN |              \
     TYJSON_READ_ALLOW_BARE_DECIMAL_POINT)
/* Every JSON5-only bit (comments, trailing commas and NaN/Infinity predate
 * them and have their own paths). */
#define TYJSON__J5_FLAGS                                                       \
    (TYJSON__J5_STR_FLAGS | TYJSON__J5_NUM_FLAGS | TYJSON_READ_ALLOW_UNQUOTED_KEYS | \
     TYJSON_READ_ALLOW_EXTRA_WHITESPACE)

/* Whether a string opening with byte c is read by the JSON5 string
 * reader: '"' when a JSON5 string flag is set, '\'' with single quotes. */
TYJSON__FORCEINLINE bool tyjson__j5_quote(u8 c, u32 flags) {
    return (c == '"' && (flags & TYJSON__J5_STR_FLAGS)) ||
           (c == '\'' && (flags & TYJSON_READ_ALLOW_SINGLE_QUOTES));
}

/* Whether a value starting with byte c is a number for
 * tyjson__num_read_json5 under flags (with no JSON5 number flag, numbers
 * and NaN/Infinity keep their JSON paths). */
TYJSON__FORCEINLINE bool tyjson__j5_number(u8 c, u32 flags) {
    if (!(flags & TYJSON__J5_NUM_FLAGS)) return false;
    if ((c >= '0' && c <= '9') || c == '-') return true;
    if (c == '+') return (flags & TYJSON_READ_ALLOW_PLUS_SIGN) != 0;
    if (c == '.') return (flags & TYJSON_READ_ALLOW_BARE_DECIMAL_POINT) != 0;
    return (c == 'I' || c == 'N') && (flags & TYJSON_READ_ALLOW_INF_NAN);
}

/* Whitespace and comments as flags allow, for the front doors that read
 * without padding: JSON5's when a JSON5 bit is set. */
tyjson__read_res tyjson__j5_skip_ws(const u8 *p, const u8 *end, u32 flags);
TYJSON__FORCEINLINE tyjson__read_res tyjson__skip_ws_flags(const u8 *p, const u8 *end, u32 flags) {
    if (unlikely(flags & TYJSON__J5_FLAGS)) return tyjson__j5_skip_ws(p, end, flags);
    return tyjson__skip_ws_comments(p, end, (flags & TYJSON_READ_ALLOW_COMMENTS) != 0);
}

/* Bytes of the JSON5 whitespace character at p (JSON's four, \v, \f,
 * U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000,
 * U+FEFF), 0 if there is none. */
usize tyjson__j5_ws_len(const u8 *p, const u8 *end);

/* Whether the byte at p could begin JSON5 whitespace that JSON lacks (a
 * lead byte of one of the characters above, \v or \f): the front doors'
 * cheap test before tyjson__j5_skip_ws. */
TYJSON__FORCEINLINE bool tyjson__j5_ws_lead(u8 c) {
    return c == 0x0B || c == 0x0C || c == 0xC2 || c == 0xE1 || c == 0xE2 || c == 0xE3 ||
           c == 0xEF;
}

/* Skips whitespace of the kinds flags allow (JSON's; JSON5's with
 * ALLOW_EXTRA_WHITESPACE) and comments (ALLOW_COMMENTS), failing as
 * tyjson__skip_comments does. */
tyjson__read_res tyjson__j5_skip_ws(const u8 *p, const u8 *end, u32 flags);

/* Decodes a string body from src (after the opening quote `quote`, '"' or
 * '\'', or anywhere inside it past a prefix already decoded to dst) up to
 * and including the closing quote, with the escapes flags allow. dst may
 * equal src or lie before it (decoding only shrinks); a NULL dst checks
 * without writing. Errors as tyjson__str_unescape reports them. */
tyjson__str_unesc tyjson__j5_str_unescape(const u8 *src, const u8 *end, u8 *dst, u8 quote,
                                          u32 flags);

/* One escape at src (a backslash) under flags into *dst (NULL: nothing
 * written): the bytes it takes, 0 with *err set. */
usize tyjson__j5_escape(const u8 *src, const u8 *end, u8 **dst, u32 flags, tyjson_status *err);

/* Whether c can begin an identifier key: a letter, '$', '_', '\\' or a
 * non-ASCII byte (which tyjson__j5_ident then judges). */
TYJSON__FORCEINLINE bool tyjson__j5_ident_lead(u8 c) {
    return ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || c == '$' || c == '_' || c == '\\' ||
           c >= 0x80;
}

/* Decodes the identifier key at src into dst (as tyjson__j5_str_unescape:
 * in place allowed, NULL checks only). On success src is the byte after the
 * identifier. Identifier characters: ASCII letters, digits (not first), '$',
 * '_', \uXXXX escapes of such characters or of non-ASCII ones, and valid
 * UTF-8 non-ASCII characters other than JSON5 whitespace. A '\\' not
 * followed by a good \uXXXX is TYJSON_E_ESCAPE; no identifier at src is
 * TYJSON_E_UNEXPECTED_CHAR; invalid UTF-8 TYJSON_E_UTF8. */
tyjson__str_unesc tyjson__j5_ident(const u8 *src, const u8 *end, u8 *dst);

#endif /* TYJSON_JSON5_H */
