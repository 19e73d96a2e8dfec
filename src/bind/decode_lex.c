/*
 * decode_lex.c - the binding decoder's lexical helpers: comments,
 * literals, strings, and skipping a value (unknown keys, repeated keys) or
 * finding a value's span (VALUE, RAW, CUSTOM).
 *
 * These read the caller's bytes, which have no padding: every read is
 * bounded by d->end. The whitespace step itself is inline in decode.h; what
 * is here is called once per string with escapes, per skipped value, or
 * per comment. Errors are recorded in d and NULL returned.
 */
#include "bind/decode.h"

#include <math.h>

/* ----------------------------------------------------------------------------
 * Whitespace and comments
 * ------------------------------------------------------------------------- */
/* Whitespace comes from the reading core; comments (when allowed) are
 * handled here, out of line. */
TYJSON__NOINLINE const u8 *tyjson__dec_ws_comments(dec *d, const u8 *p) {
    const u8 *end = d->end;
    for (;;) {
        p = tyjson__skip_ws(p, end);
        if (!(p < end && *p == '/' && end - p >= 2)) return p;
        if (p[1] == '/') {
            const u8 *nl = (const u8 *)memchr(p + 2, '\n', (usize)(end - p - 2));
            p = nl ? nl + 1 : end;
            continue;
        }
        if (p[1] != '*') return p;
        const u8 *q = p + 2;
        for (;;) {
            q = (const u8 *)memchr(q, '*', (usize)(end - q));
            if (!q || end - q < 2) {
                if (d->pending == TYJSON_OK) {
                    d->pending = TYJSON_E_COMMENT;
                    d->pending_pos = p;
                }
                return end;
            }
            if (q[1] == '/') break;
            q++;
        }
        p = q + 2;
    }
}

/* ----------------------------------------------------------------------------
 * Literals
 * ------------------------------------------------------------------------- */
const u8 *tyjson__dec_literal(dec *d, const u8 *p, const char *lit, usize n) {
    usize have = (usize)(d->end - p);
    if (have >= n && memcmp(p, lit, n) == 0) return p + n;
    if (have < n && memcmp(p, lit, have) == 0)
        return tyjson__dec_fail(d, TYJSON_E_TRUNCATED, d->end, NULL);
    return tyjson__dec_fail(d, TYJSON_E_LITERAL, p, NULL);
}

/* The inf/nan words at p (with TYJSON_READ_ALLOW_INF_NAN), or NULL. */
const u8 *tyjson__dec_inf_nan_word(dec *d, const u8 *p, double *v) {
    usize have = (usize)(d->end - p);
    if (have >= 3 && memcmp(p, "NaN", 3) == 0) {
        *v = (double)NAN;
        return p + 3;
    }
    if (have >= 8 && memcmp(p, "Infinity", 8) == 0) {
        *v = (double)INFINITY;
        return p + 8;
    }
    if (have >= 9 && memcmp(p, "-Infinity", 9) == 0) {
        *v = -(double)INFINITY;
        return p + 9;
    }
    return NULL;
}

/* ----------------------------------------------------------------------------
 * Strings
 * ------------------------------------------------------------------------- */
/* From s (inside a string body) to the closing quote; *esc tells whether
 * a backslash was passed. Escapes themselves are checked by the unescape. */
const u8 *tyjson__dec_str_close(dec *d, const u8 *s, bool *esc) {
    const u8 *end = d->end;
    for (;;) {
        tyjson__str_scan r = tyjson__str_scan_plain(s, end, d->allow_invalid);
        if (unlikely(r.err != TYJSON_OK)) return tyjson__dec_fail(d, r.err, r.stop, NULL);
        if (*r.stop == '"') return r.stop;
        *esc = true;
        s = r.stop + 1;
        if (s >= end) return tyjson__dec_fail(d, TYJSON_E_TRUNCATED, end, NULL);
        if (*s < 0x20 || *s >= 0x80) return tyjson__dec_fail(d, TYJSON_E_ESCAPE, r.stop, NULL);
        s++;
    }
}

/* Decodes the body [s, q) (q: the closing quote) into dst, which has room
 * for q - s + 1 + 8 bytes. Returns the decoded length or (usize)-1. */
static usize unescape(dec *d, const u8 *s, const u8 *q, u8 *dst) {
    usize raw = (usize)(q - s) + 1; /* with the quote */
    tyjson__str_unesc r;
    if (d->end - q > 8) {
        /* 8 readable bytes past anything the unescape loads */
        r = tyjson__str_unescape(s, q + 1, dst, d->allow_invalid);
    } else {
        memcpy(dst, s, raw);
        memset(dst + raw, 0, 8);
        r = tyjson__str_unescape(dst, dst + raw, dst, d->allow_invalid);
        if (r.err != TYJSON_OK) r.src = s + (r.src - dst);
    }
    if (r.err != TYJSON_OK) {
        tyjson__dec_fail(d, r.err, r.src, NULL);
        return (usize)-1;
    }
    return (usize)(r.dst - dst);
}

/* An escaped string body from s (stop: the first backslash, already found)
 * into the arena, NUL-terminated. */
TYJSON__NOINLINE const u8 *tyjson__dec_str_escaped_arena(dec *d, const u8 *s, const u8 *stop,
                                                   char **out, usize *len) {
    bool esc = true;
    const u8 *q = tyjson__dec_str_close(d, stop, &esc);
    if (!q) return NULL;
    usize need;
    if (tyjson__add_ovf((usize)(q - s), 10, &need))
        return tyjson__dec_fail(d, TYJSON_E_NOMEM, s, MSG_NOMEM);
    tyjson_arena *a = d->arena;
    u8 *dst = (u8 *)tyjson__arena_bump(a, need, 1);
    if (!dst) return tyjson__dec_fail(d, TYJSON_E_NOMEM, s, MSG_NOMEM);
    /* the scan already vouched for the bytes before the first backslash:
     * they are copied as they are, and only the rest is decoded */
    usize clean = (usize)(stop - s);
    memcpy(dst, s, clean);
    usize n = unescape(d, stop, q, dst + clean);
    if (n == (usize)-1) return NULL;
    n += clean;
    dst[n] = 0;
    /* Hand back the unused room when nothing was allocated after it. */
    if ((char *)dst + need == a->cur) {
        a->cur = (char *)dst + n + 1;
        a->used -= need - (n + 1);
    }
    *out = (char *)dst;
    *len = n;
    return q + 1;
}

/* The decoded bytes of the string at p ('"'): in the input when it has no
 * escapes, else in buf (SCRATCH bytes) or the arena. */
const u8 *tyjson__dec_str_bytes(dec *d, const u8 *p, u8 *buf, const u8 **out, usize *len) {
    const u8 *s = p + 1;
    bool esc = false;
    const u8 *q = tyjson__dec_str_close(d, s, &esc);
    if (!q) return NULL;
    if (!esc) {
        *out = s;
        *len = (usize)(q - s);
        return q + 1;
    }
    u8 *dst = buf;
    if ((usize)(q - s) + 9 > SCRATCH) {
        dst = (u8 *)tyjson__arena_bump(d->arena, (usize)(q - s) + 9, 1);
        if (!dst) return tyjson__dec_fail(d, TYJSON_E_NOMEM, p, MSG_NOMEM);
    }
    usize n = unescape(d, s, q, dst);
    if (n == (usize)-1) return NULL;
    *out = dst;
    *len = n;
    return q + 1;
}

/* ----------------------------------------------------------------------------
 * Skipping a value (unknown keys) and finding a value's span (VALUE, RAW,
 * CUSTOM): validates fully, iteratively, one bit per nesting level.
 * ------------------------------------------------------------------------- */
static const u8 *skip_string(dec *d, const u8 *p) {
    bool esc = false;
    const u8 *q = tyjson__dec_str_close(d, p + 1, &esc);
    if (!q) return NULL;
    if (esc) {
        u8 buf[SCRATCH];
        usize n = 0;
        const u8 *s = NULL;
        /* unescaping is what checks the escapes */
        if (!tyjson__dec_str_bytes(d, p, buf, &s, &n)) return NULL;
    }
    return q + 1;
}

static const u8 *skip_scalar(dec *d, const u8 *p) {
    switch (*p) {
    case '"': return skip_string(d, p);
    case 't': return tyjson__dec_literal(d, p, "true", 4);
    case 'f': return tyjson__dec_literal(d, p, "false", 5);
    case 'n': return tyjson__dec_literal(d, p, "null", 4);
    default: break;
    }
    if (is_inf_nan_start(d, p)) {
        double v;
        const u8 *q = tyjson__dec_inf_nan_word(d, p, &v);
        return q ? q : tyjson__dec_fail(d, TYJSON_E_LITERAL, p, NULL);
    }
    if (*p == '-' || (*p >= '0' && *p <= '9')) {
        tyjson__num num;
        tyjson_status st;
        const u8 *ep;
        /* Out-of-range numbers are valid JSON: skipping them is fine. */
        const u8 *q = tyjson__num_read(p, d->end, TYJSON_READ_BIGNUM_AS_RAW, &num, &st, &ep);
        return q ? q : tyjson__dec_fail(d, st, ep, NULL);
    }
    return tyjson__dec_fail(d, TYJSON_E_UNEXPECTED_CHAR, p, MSG_VALUE);
}

TYJSON__FIRST_USE
TYJSON__NOINLINE const u8 *tyjson__dec_skip_value(dec *d, const u8 *p) {
    const u8 *end = d->end;
    u64 inl[16]; /* 1024 levels */
    u64 *bits = inl;
    usize cap_bits = sizeof(inl) * 8, lvl = 0;
    u32 depth = d->sp;
    bool in_obj = false;

value:
    if (p >= end) return tyjson__dec_fail(d, TYJSON_E_TRUNCATED, p, MSG_VALUE);
    if (*p == '{' || *p == '[') {
        if (++depth > d->max_depth) return tyjson__dec_fail(d, TYJSON_E_DEPTH, p, MSG_DEPTH);
        if (lvl == cap_bits) {
            /* Deeper than 1024 levels (max_depth was raised): more bits
             * from the arena. */
            u64 *nb = (u64 *)tyjson__arena_bump(d->arena, cap_bits / 4, 8);
            if (!nb) return tyjson__dec_fail(d, TYJSON_E_NOMEM, p, MSG_NOMEM);
            memcpy(nb, bits, cap_bits / 8);
            bits = nb;
            cap_bits *= 2;
        }
        in_obj = *p == '{';
        if (in_obj) bits[lvl / 64] |= (u64)1 << (lvl % 64);
        else bits[lvl / 64] &= ~((u64)1 << (lvl % 64));
        lvl++;
        p = ws(d, p + 1);
        if (p < end && *p == (in_obj ? '}' : ']')) {
            p++;
            goto close;
        }
        if (in_obj) goto key;
        goto value;
    }
    p = skip_scalar(d, p);
    if (!p) return NULL;
    goto after;

key:
    if (p >= end || *p != '"') return tyjson__dec_fail_expect(d, p, MSG_KEY);
    p = skip_string(d, p);
    if (!p) return NULL;
    p = ws(d, p);
    if (p >= end || *p != ':') return tyjson__dec_fail_expect(d, p, MSG_COLON);
    p = ws(d, p + 1);
    goto value;

close:
    lvl--;
    depth--;
    if (lvl) in_obj = (bits[(lvl - 1) / 64] >> ((lvl - 1) % 64)) & 1;

after:
    if (lvl == 0) return p;
    p = ws(d, p);
    if (p < end && *p == ',') {
        p = ws(d, p + 1);
        if (d->trailing && p < end && *p == (in_obj ? '}' : ']')) {
            p++;
            goto close;
        }
        if (in_obj) goto key;
        goto value;
    }
    if (p < end && *p == (in_obj ? '}' : ']')) {
        p++;
        goto close;
    }
    return tyjson__dec_fail_expect(d, p, in_obj ? MSG_OBJ_NEXT : MSG_ARR_NEXT);
}
