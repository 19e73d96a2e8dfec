/*
 * lex.c - the out-of-line part of the reading core: decoding strings that
 * contain escapes. Plain strings never get here (lex.h scans them inline).
 */
#include "read/lex.h"

/* Byte value of the single-character escapes (\" \\ \/ \b \f \n \r \t),
 * 0 for anything else. */
static const u8 escape_map[256] = {
    ['"'] = '"', ['\\'] = '\\', ['/'] = '/', ['b'] = '\b',
    ['f'] = '\f', ['n'] = '\n', ['r'] = '\r', ['t'] = '\t',
};

TYJSON__FIRST_USE
static u8 simple_escape(u8 c) {
    switch (c) {
    case '"': return '"';
    case '\\': return '\\';
    case '/': return '/';
    case 'b': return '\b';
    case 'f': return '\f';
    case 'n': return '\n';
    case 'r': return '\r';
    case 't': return '\t';
    default: return 0;
    }
}

static tyjson__str_unesc unesc_fail(const u8 *src, u8 *dst, tyjson_status err) {
    tyjson__str_unesc r;
    r.src = src;
    r.dst = dst;
    r.err = err;
    return r;
}

/* A high surrogate escape at src lacks its low half: that is truncation if
 * the input ends while what follows could still become "\uDCxx". */
static tyjson_status surrogate_error(const u8 *src, const u8 *end) {
    usize avail = (usize)(end - src);
    if (avail >= 12) return TYJSON_E_SURROGATE;
    for (usize i = 6; i < avail; i++) {
        bool ok = i == 6 ? src[i] == '\\' : i == 7 ? src[i] == 'u' : tyjson__hexval[src[i]] != 0xFF;
        if (!ok) return TYJSON_E_SURROGATE;
    }
    return TYJSON_E_TRUNCATED;
}

/* Decodes the escape at src (src[0] == '\\'). Returns bytes consumed, or 0
 * with *err set. */
TYJSON__FIRST_USE
static usize decode_escape(const u8 *src, const u8 *end, u8 **dstp, bool allow_invalid,
                           tyjson_status *err) {
    if (end - src < 2) {
        *err = TYJSON_E_TRUNCATED;
        return 0;
    }
    u8 c = src[1];
    if (c != 'u') {
        u8 v = simple_escape(c);
        if (!v) {
            *err = TYJSON_E_ESCAPE;
            return 0;
        }
        *(*dstp)++ = v;
        return 2;
    }
    if (end - src < 6) {
        /* Truncation only if what is there could still become \uXXXX. */
        *err = TYJSON_E_TRUNCATED;
        for (const u8 *h = src + 2; h < end; h++)
            if (tyjson__hexval[*h] == 0xFF) *err = TYJSON_E_ESCAPE;
        return 0;
    }
    int32_t hi = tyjson__hex4(src + 2);
    if (hi < 0) {
        *err = TYJSON_E_ESCAPE;
        return 0;
    }
    u32 cp = (u32)hi;
    usize used = 6;
    if (cp >= 0xD800 && cp <= 0xDBFF) {
        /* A high surrogate must be followed by an escaped low surrogate. */
        int32_t lo = -1;
        if (end - src >= 12 && src[6] == '\\' && src[7] == 'u') lo = tyjson__hex4(src + 8);
        if (lo >= 0xDC00 && lo <= 0xDFFF) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + ((u32)lo - 0xDC00);
            used = 12;
        } else if (!allow_invalid) {
            *err = surrogate_error(src, end);
            return 0;
        }
    } else if (cp >= 0xDC00 && cp <= 0xDFFF && !allow_invalid) {
        *err = TYJSON_E_SURROGATE;
        return 0;
    }
    *dstp = tyjson__utf8_put(*dstp, cp);
    return used;
}

TYJSON__FIRST_USE
usize tyjson__str_escape(const u8 *src, const u8 *end, u8 **dst, tyjson_status *err) {
    u8 v;
    if (end - src >= 6 && src[1] == 'u') {
        u32 cp = tyjson__hex4u(src + 2);
        if (tyjson__hex4_bmp(cp)) {
            *dst = tyjson__utf8_put(*dst, cp);
            return 6;
        }
    } else if (end - src >= 2 && (v = escape_map[src[1]]) != 0) {
        *(*dst)++ = v;
        return 2;
    }
    return decode_escape(src, end, dst, false, err);
}

TYJSON__FIRST_USE
usize tyjson__str_escape_any(const u8 *src, const u8 *end, u8 **dst, bool allow_invalid,
                             tyjson_status *err) {
    if (!allow_invalid) return tyjson__str_escape(src, end, dst, err);
    return decode_escape(src, end, dst, true, err);
}

TYJSON__FIRST_USE
tyjson__str_unesc tyjson__str_unescape(const u8 *src, const u8 *end, u8 *dst,
                                       bool allow_invalid) {
    for (;;) {
#if TYJSON__SWAR
        /* Copy clean 8-byte runs. The load happens before the store, so this
         * is safe in place (dst <= src). */
        while (end - src >= 8) {
            u64 w = tyjson__load64(src);
            u64 m = tyjson__str_special(w);
            if (m) {
                /* Store the k clean bytes with one 8-byte write that puts
                 * back what was there beyond them: safe in place, where a
                 * plain 8-byte store could clobber unread input. */
                unsigned k = tyjson__first_byte(m);
                u64 keep = ~(u64)0 << (8 * k);
                u64 old = tyjson__load64(dst);
                u64 merged = (w & ~keep) | (old & keep);
                memcpy(dst, &merged, 8);
                dst += k;
                src += k;
                break;
            }
            memcpy(dst, &w, 8);
            dst += 8;
            src += 8;
        }
#endif
        if (src >= end) return unesc_fail(end, dst, TYJSON_E_TRUNCATED);
        u8 c = *src;
        if (c == '"') {
            tyjson__str_unesc r;
            r.src = src + 1;
            r.dst = dst;
            r.err = TYJSON_OK;
            return r;
        }
        if (c == '\\') {
            /* Escapes often come in runs (\uXXXX text, \/ in URLs): stay
             * here while they do, with the common forms inline and the rare
             * ones (surrogates, errors, truncation) in decode_escape. */
            do {
                u8 v;
                if (end - src >= 6 && src[1] == 'u') {
                    u32 cp = tyjson__hex4u(src + 2);
                    if (likely(tyjson__hex4_bmp(cp))) {
                        /* one word store: dst has 8 bytes of slack, and in
                         * place the word ends inside the 6 bytes just read */
                        dst = tyjson__utf8_put_bmp(dst, cp);
                        src += 6;
                        continue;
                    }
                } else if (end - src >= 2 && (v = escape_map[src[1]]) != 0) {
                    *dst++ = v;
                    src += 2;
                    continue;
                }
                tyjson_status err = TYJSON_OK;
                usize used = decode_escape(src, end, &dst, allow_invalid, &err);
                if (!used) return unesc_fail(src, dst, err);
                src += used;
            } while (src < end && *src == '\\');
            continue;
        }
        if (c < 0x20) return unesc_fail(src, dst, TYJSON_E_STRING_CTRL);
        if (c < 0x80) {
            *dst++ = c;
            src++;
            continue;
        }
        /* Non-ASCII: let the plain scanner (SWAR/SIMD, validating) find the
         * next quote or backslash, then move the whole run at once. */
        tyjson__str_scan sc = tyjson__str_scan_plain(src, end, allow_invalid);
        if (sc.err) return unesc_fail(sc.stop, dst, sc.err);
        usize n = (usize)(sc.stop - src);
        memmove(dst, src, n);
        dst += n;
        src += n;
    }
}

/* Walks a string body from p (after the opening quote) without writing it:
 * the plain scanner finds each backslash, decode_escape checks the escape
 * into a scratch buffer, so skipping and decoding accept the same strings. */
TYJSON__FIRST_USE
tyjson__str_scan tyjson__str_skip(const u8 *p, const u8 *end, bool allow_invalid) {
    for (;;) {
        tyjson__str_scan r = tyjson__str_scan_plain(p, end, allow_invalid);
        if (r.err != TYJSON_OK) return r;
        if (*r.stop == '"') {
            r.stop++;
            return r;
        }
        /* Escapes often come in runs (\uXXXX text): stay here while they
         * do, the common \uXXXX inline, the rest (surrogates, the short
         * forms, errors) in decode_escape. */
        const u8 *q = r.stop;
        do {
            if (end - q >= 6 && q[1] == 'u') {
                if (tyjson__hex4_bmp(tyjson__hex4u(q + 2))) {
                    q += 6;
                    continue;
                }
            }
            u8 scratch[8];
            u8 *dst = scratch;
            usize used = decode_escape(q, end, &dst, allow_invalid, &r.err);
            if (!used) {
                r.stop = q;
                return r;
            }
            q += used;
        } while (q < end && *q == '\\');
        p = q;
    }
}
