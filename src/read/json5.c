/*
 * json5.c - the JSON5 extensions of the reading core (read/json5.h):
 * whitespace, comments, strings in either quote with JSON5's escapes, and
 * identifier keys. Only the front doors' JSON5 paths come here; the bytes
 * are read one at a time, since JSON5 input is configuration, not bulk data.
 */
#include "read/json5.h"

usize tyjson__j5_ws_len(const u8 *p, const u8 *end) {
    usize have = (usize)(end - p);
    if (!have) return 0;
    u8 c = p[0];
    if (tyjson__is_ws(c) || c == 0x0B || c == 0x0C) return 1;
    if (c == 0xC2) return have >= 2 && p[1] == 0xA0 ? 2 : 0; /* U+00A0 */
    if (have < 3) return 0;
    u8 b = p[1], d = p[2];
    switch (c) {
    case 0xE1: return b == 0x9A && d == 0x80 ? 3 : 0; /* U+1680 */
    case 0xE2:
        if (b == 0x80) /* U+2000-U+200A, U+2028, U+2029, U+202F */
            return (d >= 0x80 && d <= 0x8A) || d == 0xA8 || d == 0xA9 || d == 0xAF ? 3 : 0;
        return b == 0x81 && d == 0x9F ? 3 : 0; /* U+205F */
    case 0xE3: return b == 0x80 && d == 0x80 ? 3 : 0; /* U+3000 */
    case 0xEF: return b == 0xBB && d == 0xBF ? 3 : 0; /* U+FEFF */
    default: return 0;
    }
}

/* U+2028 or U+2029 at p. */
static bool line_sep(const u8 *p, const u8 *end) {
    return end - p >= 3 && p[0] == 0xE2 && p[1] == 0x80 && (p[2] == 0xA8 || p[2] == 0xA9);
}

tyjson__read_res tyjson__j5_skip_ws(const u8 *p, const u8 *end, u32 flags) {
    const bool extra = (flags & TYJSON_READ_ALLOW_EXTRA_WHITESPACE) != 0;
    for (;;) {
        if (p >= end) return tyjson__read_ok(p);
        u8 c = *p;
        if (tyjson__is_ws(c)) {
            p++;
            continue;
        }
        if (extra) {
            usize n = tyjson__j5_ws_len(p, end);
            if (n) {
                p += n;
                continue;
            }
        }
        if (c != '/' || !(flags & TYJSON_READ_ALLOW_COMMENTS)) return tyjson__read_ok(p);
        if (end - p < 2) return tyjson__read_fail(p, TYJSON_E_TRUNCATED, TYJSON__EXPECT_COMMENT);
        if (p[1] == '/') {
            /* to the line break, which the loop then skips as whitespace */
            const u8 *q = p + 2;
            while (q < end && *q != '\n' && !(extra && (*q == '\r' || line_sep(q, end)))) q++;
            p = q;
        } else if (p[1] == '*') {
            const u8 *q = p + 2;
            for (;;) {
                q = (const u8 *)memchr(q, '*', (usize)(end - q));
                if (!q || end - q < 2) {
                    return tyjson__read_fail(p, TYJSON_E_COMMENT, TYJSON__EXPECT_COMMENT);
                }
                if (q[1] == '/') break;
                q++;
            }
            p = q + 2;
        } else {
            return tyjson__read_fail(p, TYJSON_E_UNEXPECTED_CHAR, TYJSON__EXPECT_COMMENT);
        }
    }
}

TYJSON__FORCEINLINE bool j5_digit(u8 c) { return (u32)c - '0' <= 9; }

usize tyjson__j5_escape(const u8 *src, const u8 *end, u8 **dst, u32 flags, tyjson_status *err) {
    u8 scratch[8], *none = scratch;
    u8 **out = dst ? dst : &none;
    const bool ai = (flags & TYJSON_READ_ALLOW_INVALID_UTF8) != 0;
    if (end - src < 2) {
        *err = TYJSON_E_TRUNCATED;
        return 0;
    }
    u8 c = src[1];
    switch (c) {
    case 'u': case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
        return tyjson__str_escape_any(src, end, out, ai, err);
    default: break;
    }
    if (flags & TYJSON_READ_ALLOW_ESCAPED_LINE_BREAKS) {
        if (c == '\n') return 2;
        if (c == '\r') return end - src >= 3 && src[2] == '\n' ? 3 : 2;
        if (line_sep(src + 1, end)) return 4;
    }
    if (c == '\'' && (flags & (TYJSON_READ_ALLOW_SINGLE_QUOTES | TYJSON_READ_ALLOW_EXTENDED_ESCAPES))) {
        *(*out)++ = '\'';
        return 2;
    }
    if (!(flags & TYJSON_READ_ALLOW_EXTENDED_ESCAPES) || c == '\n' || c == '\r' ||
        line_sep(src + 1, end) || (c >= '1' && c <= '9')) {
        *err = TYJSON_E_ESCAPE;
        return 0;
    }
    if (c == 'v') {
        *(*out)++ = 0x0B;
        return 2;
    }
    if (c == '0') {
        if (end - src >= 3 && j5_digit(src[2])) {
            *err = TYJSON_E_ESCAPE;
            return 0;
        }
        *(*out)++ = 0;
        return 2;
    }
    if (c == 'x') {
        for (int i = 2; i < 4; i++) {
            if (end - src <= i) {
                *err = TYJSON_E_TRUNCATED;
                return 0;
            }
            if (tyjson__hexval[src[i]] == 0xFF) {
                *err = TYJSON_E_ESCAPE;
                return 0;
            }
        }
        *out = tyjson__utf8_put(*out, (u32)(tyjson__hexval[src[2]] << 4 | tyjson__hexval[src[3]]));
        return 4;
    }
    if (c < 0x80) { /* any other character stands for itself */
        *(*out)++ = c;
        return 2;
    }
    usize n = tyjson__utf8_seq(src + 1, end);
    if (!n) {
        if (!ai) {
            *err = TYJSON_E_UTF8;
            return 0;
        }
        n = 1;
    }
    memcpy(*out, src + 1, n);
    *out += n;
    return 1 + n;
}

static tyjson__str_unesc unesc_res(const u8 *src, u8 *dst, tyjson_status err) {
    tyjson__str_unesc r;
    r.src = src;
    r.dst = dst;
    r.err = err;
    return r;
}

tyjson__str_unesc tyjson__j5_str_unescape(const u8 *src, const u8 *end, u8 *dst, u8 quote,
                                          u32 flags) {
    const bool ai = (flags & TYJSON_READ_ALLOW_INVALID_UTF8) != 0;
    for (;;) {
        if (src >= end) return unesc_res(end, dst, TYJSON_E_TRUNCATED);
        u8 c = *src;
        if (c == quote) return unesc_res(src + 1, dst, TYJSON_OK);
        if (c == '\\') {
            tyjson_status err = TYJSON_OK;
            usize used = tyjson__j5_escape(src, end, dst ? &dst : NULL, flags, &err);
            if (!used) return unesc_res(src, dst, err);
            src += used;
            continue;
        }
        if (c < 0x20) return unesc_res(src, dst, TYJSON_E_STRING_CTRL);
        usize n = 1;
        if (c >= 0x80) {
            n = tyjson__utf8_seq(src, end);
            if (!n) {
                if (!ai) return unesc_res(src, dst, TYJSON_E_UTF8);
                n = 1;
            }
        }
        if (dst) {
            memmove(dst, src, n);
            dst += n;
        }
        src += n;
    }
}

/* Whether code point cp may stand in an identifier (first: at its start). */
static bool ident_cp(u32 cp, bool first) {
    if (cp < 0x80) {
        u8 c = (u8)cp;
        return ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || c == '$' || c == '_' ||
               (!first && j5_digit(c));
    }
    if (cp == 0x200C || cp == 0x200D) return !first; /* ZWNJ, ZWJ */
    u8 enc[4], *e = tyjson__utf8_put(enc, cp);
    return tyjson__j5_ws_len(enc, e) == 0;
}

tyjson__str_unesc tyjson__j5_ident(const u8 *src, const u8 *end, u8 *dst) {
    bool first = true;
    while (src < end) {
        u8 c = *src;
        u32 cp;
        usize n;
        if (c == '\\') {
            if (end - src < 6) {
                bool cut = end - src < 2 || src[1] == 'u';
                for (const u8 *h = src + 2; h < end; h++) cut = cut && tyjson__hexval[*h] != 0xFF;
                return unesc_res(src, dst, cut ? TYJSON_E_TRUNCATED : TYJSON_E_ESCAPE);
            }
            int32_t h = src[1] == 'u' ? tyjson__hex4(src + 2) : -1;
            if (h < 0) return unesc_res(src, dst, TYJSON_E_ESCAPE);
            cp = (u32)h;
            n = 6;
            if (cp >= 0xD800 && cp <= 0xDBFF && end - src >= 12 && src[6] == '\\' &&
                src[7] == 'u') {
                int32_t lo = tyjson__hex4(src + 8);
                if (lo >= 0xDC00 && lo <= 0xDFFF) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + ((u32)lo - 0xDC00);
                    n = 12;
                }
            }
            if ((cp >= 0xD800 && cp <= 0xDFFF) || !ident_cp(cp, first))
                return unesc_res(src, dst, TYJSON_E_ESCAPE);
            if (dst) dst = tyjson__utf8_put(dst, cp);
        } else if (c < 0x80) {
            if (!ident_cp(c, first)) break;
            n = 1;
            if (dst) *dst++ = c;
        } else {
            n = tyjson__utf8_decode(src, end, &cp);
            if (!n) return unesc_res(src, dst, TYJSON_E_UTF8);
            if (!ident_cp(cp, first)) break;
            if (dst) {
                memmove(dst, src, n);
                dst += n;
            }
        }
        src += n;
        first = false;
    }
    return unesc_res(src, dst, first ? TYJSON_E_UNEXPECTED_CHAR : TYJSON_OK);
}
