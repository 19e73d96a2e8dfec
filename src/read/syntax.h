/*
 * syntax.h - the tokens around strings and numbers, for every front door
 * (the DOM parser and the binding decoder; docs/design.md "Next"): the byte
 * order mark, whitespace with comments, the literals true/false/null, the
 * NaN/Infinity words, and skipping a whole value (skip.c).
 *
 * Two reading contracts meet here. The DOM parser reads a copy followed by
 * TYJSON__PAD zero bytes, so its loops need no bounds checks; the binding
 * decoder reads the caller's bytes, and every read is bounded by the real
 * end. Each function takes the real end; where the padded contract allows a
 * faster form, a `padded` parameter says which one the caller may use, so
 * both contracts share one implementation.
 *
 * Results that can fail are a tyjson__read_res: the next byte on success,
 * the byte to report on failure, with what was expected there.
 */
#ifndef TYJSON_SYNTAX_H
#define TYJSON_SYNTAX_H

#include "read/lex.h"
#include "num/num.h"

#include <math.h>

/* What a failing reader was looking for, so that each front door can word
 * its own message. */
typedef enum tyjson__expect {
    TYJSON__EXPECT_NONE,     /* the status says it all (DEPTH, NOMEM, string errors) */
    TYJSON__EXPECT_VALUE,    /* a JSON value */
    TYJSON__EXPECT_KEY,      /* an object key (a string) */
    TYJSON__EXPECT_COLON,    /* ':' after a key */
    TYJSON__EXPECT_OBJ_NEXT, /* ',' or '}' */
    TYJSON__EXPECT_ARR_NEXT, /* ',' or ']' */
    TYJSON__EXPECT_NUMBER,   /* the rest of a number */
    TYJSON__EXPECT_LITERAL,  /* the rest of true, false, null, NaN or Infinity */
    TYJSON__EXPECT_COMMENT   /* '/' or '*' after '/', or the end of a comment */
} tyjson__expect;

typedef struct tyjson__read_res {
    const u8 *pos;      /* the next byte on success; the byte to report on failure */
    tyjson_status err;  /* TYJSON_OK or the failure */
    int expect;         /* a tyjson__expect */
} tyjson__read_res;

TYJSON__FORCEINLINE tyjson__read_res tyjson__read_ok(const u8 *pos) {
    tyjson__read_res r;
    r.pos = pos;
    r.err = TYJSON_OK;
    r.expect = TYJSON__EXPECT_NONE;
    return r;
}

TYJSON__FORCEINLINE tyjson__read_res tyjson__read_fail(const u8 *pos, tyjson_status err,
                                                      tyjson__expect expect) {
    tyjson__read_res r;
    r.pos = pos;
    r.err = err;
    r.expect = expect;
    return r;
}

/* ----------------------------------------------------------------------------
 * Byte order mark (TYJSON_READ_ALLOW_BOM)
 * ------------------------------------------------------------------------- */
#define TYJSON__BOM_LEN 3

/* True when the UTF-8 byte order mark EF BB BF starts at p. */
TYJSON__FORCEINLINE bool tyjson__has_bom(const u8 *p, const u8 *end) {
    return end - p >= TYJSON__BOM_LEN && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF;
}

/* The first byte of the text: after the byte order mark when flags allow
 * one and it is there. Without the flag a mark stays and is an error. */
TYJSON__FORCEINLINE const u8 *tyjson__skip_bom(const u8 *p, const u8 *end, u32 flags) {
    return ((flags & TYJSON_READ_ALLOW_BOM) && tyjson__has_bom(p, end)) ? p + TYJSON__BOM_LEN : p;
}

/* ----------------------------------------------------------------------------
 * Whitespace and comments (TYJSON_READ_ALLOW_COMMENTS)
 * ------------------------------------------------------------------------- */

/**
 * Skips any mix of whitespace, `//` comments (to the end of the line or of
 * the input) and block comments from p (skip.c; called once a '/' is seen,
 * so it stays out of the callers' loops). Fails at the comment's '/' with
 * TYJSON_E_COMMENT for an unterminated block comment, TYJSON_E_TRUNCATED for
 * a '/' that ends the input, TYJSON_E_UNEXPECTED_CHAR for a '/' followed by
 * anything but '/' or '*'; expect is TYJSON__EXPECT_COMMENT.
 */
tyjson__read_res tyjson__skip_comments(const u8 *p, const u8 *end);

/* Whitespace, and comments when `comments`: bounded by end (input without
 * padding). The common layouts (no space, a newline with indentation)
 * settle inline. */
TYJSON__FORCEINLINE tyjson__read_res tyjson__skip_ws_comments(const u8 *p, const u8 *end,
                                                             bool comments) {
    if (likely(p < end && !tyjson__is_ws(*p) && *p != '/')) return tyjson__read_ok(p);
    p = tyjson__skip_indent(p, end);
    if (likely(p < end && !tyjson__is_ws(*p) && *p != '/')) return tyjson__read_ok(p);
    p = tyjson__skip_ws(p, end);
    if (unlikely(p < end && *p == '/') && comments) return tyjson__skip_comments(p, end);
    return tyjson__read_ok(p);
}

/* ----------------------------------------------------------------------------
 * Numbers in range
 * ------------------------------------------------------------------------- */
/* Numbers whose extent needs no conversion (skip.c, and the binding
 * decoder's inline skip of an unbound scalar). */
TYJSON__FORCEINLINE bool tyjson__num_digit(const u8 *p, const u8 *end) {
    return p < end && *p >= '0' && *p <= '9';
}

/* The end of the run of digits at d: eight bytes at a time while eight
 * remain (the first non-digit lane is exact, num_inline.h). */
TYJSON__FORCEINLINE const u8 *tyjson__num_digits_end(const u8 *d, const u8 *end) {
#if TYJSON__NUM_SWAR
    while (end - d >= 8) {
        u64 stop = tyjson__num_nondigits8(tyjson__num_load8(d) ^ TYJSON__NUM_ZEROS8);
        if (stop) return d + (tyjson__ctz64(stop) >> 3);
        d += 8;
    }
#endif
    while (tyjson__num_digit(d, end)) d++;
    return d;
}

/* The end of the number at p when its grammar holds and it is in range
 * under every flag: an integer of at most 18 digits, or a real whose
 * integer digits plus exponent stay below 300 (so no double overflows;
 * underflow is fine). NULL for anything else, which the number reader
 * then judges (bigger integers, huge exponents, errors). */
TYJSON__FORCEINLINE const u8 *tyjson__number_in_range(const u8 *p, const u8 *end) {
    const u8 *q = p + (*p == '-'), *d = q;
    if (!tyjson__num_digit(q, end)) return NULL;
    if (*q == '0') {
        d = q + 1;
        if (tyjson__num_digit(d, end)) return NULL;
    } else {
        d = tyjson__num_digits_end(q + 1, end);
    }
    usize int_digits = (usize)(d - q);
    bool real = false;
    if (d < end && *d == '.') {
        d++;
        if (!tyjson__num_digit(d, end)) return NULL;
        d = tyjson__num_digits_end(d + 1, end);
        real = true;
    }
    long exp = 0;
    if (d < end && (*d == 'e' || *d == 'E')) {
        d++;
        bool neg = d < end && *d == '-';
        if (d < end && (*d == '+' || *d == '-')) d++;
        if (!tyjson__num_digit(d, end)) return NULL;
        while (tyjson__num_digit(d, end) && exp < 10000) exp = exp * 10 + (*d++ - '0');
        if (tyjson__num_digit(d, end)) return NULL;
        if (neg) exp = -exp;
        real = true;
    }
    if (!real) return int_digits <= 18 ? d : NULL;
    return (long)int_digits + exp < 300 ? d : NULL;
}

/* ----------------------------------------------------------------------------
 * Literals: true, false, null
 * ------------------------------------------------------------------------- */

/* True when the n-byte literal `lit` (n >= 4) is at p. Padded input (8
 * readable bytes at p, zeros past end) takes one 4-byte compare for its
 * last four bytes, and the zeros make a literal cut by end mismatch. */
TYJSON__FORCEINLINE bool tyjson__match_literal(const u8 *p, const u8 *end, const char *lit,
                                               usize n, bool padded) {
    if (padded) {
        return tyjson__load32(p + n - 4) == tyjson__load32((const u8 *)lit + n - 4) &&
               (n == 4 || memcmp(p, lit, n - 4) == 0);
    }
    return (usize)(end - p) >= n && memcmp(p, lit, n) == 0;
}

/* The error for a literal that does not match at p: truncation when the
 * input ends inside a prefix of it, else TYJSON_E_LITERAL. */
TYJSON__FORCEINLINE tyjson_status tyjson__literal_status(const u8 *p, const u8 *end,
                                                        const char *lit, usize n) {
    usize have = (usize)(end - p);
    if (have < n && memcmp(p, lit, have) == 0) return TYJSON_E_TRUNCATED;
    return TYJSON_E_LITERAL;
}

/* ----------------------------------------------------------------------------
 * NaN, Infinity, -Infinity (TYJSON_READ_ALLOW_INF_NAN). No "-NaN" and no
 * '+' sign: JSON has neither.
 * ------------------------------------------------------------------------- */

/* True when a word starts at p (p < end): 'N', 'I', or "-I". */
TYJSON__FORCEINLINE bool tyjson__inf_nan_start(const u8 *p, const u8 *end) {
    return *p == 'N' || *p == 'I' || (*p == '-' && end - p >= 2 && p[1] == 'I');
}

/* The word at p into *v; returns its length, 0 when none is there. */
TYJSON__FORCEINLINE usize tyjson__match_inf_nan(const u8 *p, const u8 *end, double *v) {
    bool neg = p < end && *p == '-';
    const u8 *s = p + neg;
    usize have = (usize)(end - s);
    if (!neg && have >= 3 && memcmp(s, "NaN", 3) == 0) {
        *v = (double)NAN;
        return 3;
    }
    if (have >= 8 && memcmp(s, "Infinity", 8) == 0) {
        *v = neg ? -(double)INFINITY : (double)INFINITY;
        return 8 + (usize)neg;
    }
    return 0;
}

/* The error for a word that does not match at p. */
TYJSON__FORCEINLINE tyjson_status tyjson__inf_nan_status(const u8 *p, const u8 *end) {
    const u8 *s = p + (p < end && *p == '-');
    if (s < end && *s == 'N') return tyjson__literal_status(s, end, "NaN", 3);
    return tyjson__literal_status(s, end, "Infinity", 8);
}

/* ----------------------------------------------------------------------------
 * Skipping a value
 * ------------------------------------------------------------------------- */

/* Where and how tyjson__skip_value reads. */
typedef struct tyjson__skip_opts {
    const u8 *end;   /* the real end of the input */
    u32 flags;       /* TYJSON_READ_*: comments, trailing commas, NaN/Inf, invalid UTF-8 */
    u32 depth;       /* containers already open around the value */
    u32 max_depth;   /* the limit they count toward */
    /* Bits for nesting past the first 1024 levels (only when max_depth
     * allows that many); freed before returning. */
    const tyjson_alloc *alc;
} tyjson__skip_opts;

/**
 * Skips the value at p (whitespace before it already skipped) and returns
 * the byte after it. Validates as the parser does: strings (escapes, and
 * UTF-8 unless allowed), numbers (out-of-range ones are valid), literals,
 * structure, the relaxations in o->flags; iterative (one bit per level,
 * the first 1024 levels on the C stack), failing with TYJSON_E_DEPTH at the
 * container that goes past o->max_depth. A failure carries the byte to
 * report and what was expected there; an input that ends early is
 * TYJSON_E_TRUNCATED.
 */
tyjson__read_res tyjson__skip_value(const u8 *p, const tyjson__skip_opts *o);


/* How tyjson__validate_strict reads: over the structural index when the
 * input's first window says it pays (tyjson__index_pays, as the DOM parser
 * decides), always over it (when a vector kernel runs), or never (the
 * byte walk of tyjson__skip_value). */
typedef enum tyjson__validate_route {
    TYJSON__VALIDATE_AUTO,
    TYJSON__VALIDATE_INDEX,
    TYJSON__VALIDATE_BYTES
} tyjson__validate_route;

/**
 * Whether the input [p, o->end) is one strict JSON value (with
 * TYJSON_READ_STOP_WHEN_DONE: starts with one) as the DOM parser would
 * accept it, decided without building anything: over the structural
 * index, or where that does not pay (or no vector kernel runs) by the
 * byte walk, with the parser's number rules (o->flags' BIGNUM_AS_RAW).
 * true means valid; false means invalid, or flags it does not handle
 * (relaxed syntax, duplicate-key checks): the caller then finds out by
 * parsing.
 */
bool tyjson__validate_strict(const u8 *p, const tyjson__skip_opts *o, tyjson__validate_route route);

#endif /* TYJSON_SYNTAX_H */
