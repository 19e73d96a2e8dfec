/*
 * decode_lex.c - the binding decoder's lexical helpers: comments,
 * literals, strings, and skipping a value (unknown keys, repeated keys) or
 * finding a value's span (VALUE, RAW, CUSTOM). Comments, literals, NaN/Inf
 * words and skipping are the reading core's (read/syntax.h); this file
 * turns their results into the decoder's errors.
 *
 * These read the caller's bytes, which have no padding: every read is
 * bounded by d->end. The whitespace step itself is inline in decode.h; what
 * is here is called once per string with escapes, per skipped value, or
 * per comment. Errors are recorded in d and NULL returned.
 */
#include "bind/decode.h"
#include "read/syntax.h"

#include <math.h>

/* ----------------------------------------------------------------------------
 * Whitespace and comments
 * ------------------------------------------------------------------------- */
/* Whitespace and comments come from the reading core. A bad comment
 * (TYJSON_E_COMMENT, or a '/' that starts none) is kept pending: the caller
 * fails at the byte returned, and fail() reports the comment instead, as
 * the DOM parser does. */
TYJSON__NOINLINE const u8 *tyjson__dec_ws_comments(dec *d, const u8 *p) {
    tyjson__read_res r = tyjson__skip_ws_comments(p, d->end, true);
    if (likely(r.err == TYJSON_OK)) return r.pos;
    if (d->pending == TYJSON_OK) {
        d->pending = r.err;
        d->pending_pos = r.pos;
    }
    return r.err == TYJSON_E_COMMENT ? d->end : r.pos;
}

/* ----------------------------------------------------------------------------
 * Literals
 * ------------------------------------------------------------------------- */
const u8 *tyjson__dec_literal(dec *d, const u8 *p, const char *lit, usize n) {
    if (tyjson__match_literal(p, d->end, lit, n, false)) return p + n;
    tyjson_status st = tyjson__literal_status(p, d->end, lit, n);
    return tyjson__dec_fail(d, st, st == TYJSON_E_TRUNCATED ? d->end : p, NULL);
}

/* The inf/nan words at p (with TYJSON_READ_ALLOW_INF_NAN), or NULL. */
const u8 *tyjson__dec_inf_nan_word(dec *d, const u8 *p, double *v) {
    usize n = tyjson__match_inf_nan(p, d->end, v);
    return n ? p + n : NULL;
}

/* The error for a word at p that is not NaN or Infinity. */
TYJSON__NOINLINE const u8 *tyjson__dec_bad_inf_nan(dec *d, const u8 *p) {
    return tyjson__dec_fail(d, tyjson__inf_nan_status(p, d->end), p, NULL);
}

/* ----------------------------------------------------------------------------
 * Strings
 * ------------------------------------------------------------------------- */
/* From s (inside a string body) to the closing quote; *esc tells whether
 * a backslash was passed. Escapes themselves are checked by the unescape. */
const u8 *tyjson__dec_str_close(dec *d, const u8 *s, bool *esc) {
    const u8 *end = d->end;
    for (;;) {
        tyjson__str_scan r = tyjson__str_scan_plain(s, end, opt_allow_invalid(d));
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
    if (d->lim - q > 8) {
        /* 8 readable bytes past anything the unescape loads (the padded
         * copy's zero bytes count) */
        r = tyjson__str_unescape(s, q + 1, dst, opt_allow_invalid(d));
    } else {
        memcpy(dst, s, raw);
        memset(dst + raw, 0, 8);
        r = tyjson__str_unescape(dst, dst + raw, dst, opt_allow_invalid(d));
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
/* The message for what the reading core's skip expected. */
static const char *skip_msg(tyjson__read_res r) {
    switch (r.expect) {
    case TYJSON__EXPECT_VALUE: return MSG_VALUE;
    case TYJSON__EXPECT_KEY: return MSG_KEY;
    case TYJSON__EXPECT_COLON: return MSG_COLON;
    case TYJSON__EXPECT_OBJ_NEXT: return MSG_OBJ_NEXT;
    case TYJSON__EXPECT_ARR_NEXT: return MSG_ARR_NEXT;
    default: break;
    }
    if (r.err == TYJSON_E_DEPTH) return MSG_DEPTH;
    if (r.err == TYJSON_E_NOMEM) return MSG_NOMEM;
    return NULL;
}

/* Skips the value at p with the reading core (levels past its inline 1024
 * from the arena, through its allocator view). */
TYJSON__FIRST_USE
TYJSON__NOINLINE const u8 *tyjson__dec_skip_value(dec *d, const u8 *p) {
    tyjson__skip_opts o = {d->end, d->rflags, d->sp, d->max_depth, &d->alc};
    tyjson__read_res r = tyjson__skip_value(p, &o);
    if (likely(r.err == TYJSON_OK)) return r.pos;
    return tyjson__dec_fail(d, r.err, r.pos, skip_msg(r));
}
