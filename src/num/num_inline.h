/*
 * num_inline.h - the common case of tyjson__num_read, for callers that read
 * many numbers (the DOM parser) to inline: integers of up to 15 digits and
 * reals of up to 19 significant digits with short exponents, read with fixed
 * 8-byte loads (SWAR) when enough bytes follow. Everything else, errors
 * included, goes to the out-of-line reader. Included by num.h.
 */
#ifndef TYJSON_NUM_INLINE_H
#define TYJSON_NUM_INLINE_H

#include "num/num_tables.h"
#include "tyjson/num_int.h" /* TYJSON__NUM_SWAR, the integer formatting */

#include <float.h>

/* Bytes from the number's first byte (its sign) that the fast path may read:
 * a sign, up to 16 integer digits, '.', 16 fraction digits, 'e', a sign, 4
 * exponent digits and the byte after them. */
#define TYJSON__NUM_FAST_ROOM 48

#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
#  define TYJSON__NUM_CLINGER 1 /* double arithmetic rounds once, to double */
#else
#  define TYJSON__NUM_CLINGER 0 /* x87 extended precision would round twice */
#endif

/** The general reader behind tyjson__num_read (any length, any distance to
 *  end), for fast paths that give up. Same contract as tyjson__num_read. */
const u8 *tyjson__num_read_slow(const u8 *p, const u8 *end, u32 flags, tyjson__num *out,
                                tyjson_status *err, const u8 **err_pos);
/** The IEEE bits of the double nearest to w * 10^q (w < 10^19), or ~0 when
 *  it overflows or a cheap computation cannot decide (about 1 in 1000). */
u64 tyjson__num_scaled_bits(u64 w, i64 q);

extern const u64 tyjson__num_pow10_u64[20]; /* 10^0 .. 10^19, for reading and writing */
extern const double tyjson__num_pow10_f64[23];

#define TYJSON__NUM_ZEROS8 0x3030303030303030u /* '0' in every byte */

TYJSON__FORCEINLINE u64 tyjson__num_load8(const u8 *p) {
    u64 v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* For x = 8 bytes ^ '0' (digits become their values), bit 7 of every lane
 * that is not a digit: x >= 10 is seen as bit 7 of x | (x + 0x76). Lanes
 * above the first such lane may be garbled by carries; only it is used. */
TYJSON__FORCEINLINE u64 tyjson__num_nondigits8(u64 x) {
    return (x | (x + 0x7676767676767676u)) & 0x8080808080808080u;
}

/* The value of 8 digit lanes, the first digit lowest: pairs, quads, then
 * the whole; each step is one multiply that adds every lane times 10^k to
 * its upper neighbour (x * (10^k << w | 1) >> w) and a mask. */
TYJSON__FORCEINLINE u64 tyjson__num_digits8(u64 x) {
    x = ((x * (10 * 256 + 1)) >> 8) & 0x00FF00FF00FF00FFu;
    x = ((x * (100 * 65536 + 1)) >> 16) & 0x0000FFFF0000FFFFu;
    return (x * (10000 * ((u64)1 << 32) + 1)) >> 32;
}

/* An empty statement the compilers may not execute speculatively: placed
 * in one arm of a two-way choice, it keeps the choice a branch instead of a
 * conditional move or flag arithmetic. */
#if defined(__GNUC__) || defined(__clang__)
#  define TYJSON__NUM_KEEP_BRANCH() __asm__ volatile("")
#else
#  define TYJSON__NUM_KEEP_BRANCH() ((void)0)
#endif

/* The index (0 to 7) of the lowest lane flagged in stop (not 0), by
 * branches rather than by counting zeros: when lengths are regular, as they
 * often are in a document, the CPU predicts them, and where the number ends
 * (which the caller's next step waits for) is then known before the bytes
 * are loaded and classified. Higher flags may be garbage: lower lanes are
 * always tested first. */
TYJSON__FORCEINLINE int tyjson__num_first_stop(u64 stop) {
    if (stop & 0x80808080u) {
        if (stop & 0x8080u) {
            if (stop & 0x80u) return 0;
            TYJSON__NUM_KEEP_BRANCH();
            return 1;
        }
        if (stop & 0x800000u) return 2;
        TYJSON__NUM_KEEP_BRANCH();
        return 3;
    }
    if (stop & 0x0000808000000000u) {
        if (stop & 0x0000008000000000u) return 4;
        TYJSON__NUM_KEEP_BRANCH();
        return 5;
    }
    if (stop & 0x0080000000000000u) return 6;
    TYJSON__NUM_KEEP_BRANCH();
    return 7;
}

/* The first n (0 to 7) lanes of x moved to the top, zeros below: the lanes
 * of the same number with 8 - n leading zeros. */
TYJSON__FORCEINLINE u64 tyjson__num_first_lanes(u64 x, int n) {
    return (x << 1) << (63 - 8 * n);
}

/**
 * The fast path: reads the number at p ('-' or a digit, with at least
 * TYJSON__NUM_FAST_ROOM readable bytes from p) into *out and returns its end,
 * or returns NULL, having written nothing, when the number is not of the
 * common shapes or is not valid: the caller then uses the general reader.
 */
TYJSON__FORCEINLINE const u8 *tyjson__num_fast(const u8 *p, tyjson__num *out) {
#if TYJSON__NUM_SWAR
    u64 neg = *p == '-';
    p += neg;
    u64 iv;
    const u8 *ie;
    u32 d0 = (u32)p[0] - '0', d1 = (u32)p[1] - '0';
    /* Reals with 1 or 2 integer digits are the most common: their shape is
     * tested with branches, which the CPU predicts, so that where the
     * fraction starts does not wait for the digit lanes to be classified. */
    if (p[1] == '.' && d0 <= 9) {
        iv = d0;
        ie = p + 1;
        goto fraction;
    }
    if (p[2] == '.' && d0 - 1 <= 8 && d1 <= 9) {
        iv = d0 * 10 + d1;
        ie = p + 2;
        goto fraction;
    }
    u64 x = tyjson__num_load8(p) ^ TYJSON__NUM_ZEROS8, stop = tyjson__num_nondigits8(x);
    if (likely(stop)) {
        int n = tyjson__num_first_stop(stop);
        /* no digit, or a leading zero followed by digits: an error */
        if (unlikely(n == 0 || ((x & 0xFF) == 0 && n > 1))) return NULL;
        iv = tyjson__num_digits8(tyjson__num_first_lanes(x, n));
        ie = p + n;
    } else {
        u64 x2 = tyjson__num_load8(p + 8) ^ TYJSON__NUM_ZEROS8, stop2 = tyjson__num_nondigits8(x2);
        if (unlikely(!stop2 || (x & 0xFF) == 0)) return NULL;
        int n2 = tyjson__num_first_stop(stop2);
        /* 9 digits (ids, timestamps in seconds) are common: the ninth is
         * the second word's first lane, without its digit arithmetic (a
         * second case for 8 digits cost more than it saved: +0.1% on
         * twitter, citm -2.9% instead of -3.3%) */
        if (n2 == 1) iv = tyjson__num_digits8(x) * 10 + (x2 & 0xFF);
        else
            iv = tyjson__num_digits8(x) * tyjson__num_pow10_u64[n2] +
                 tyjson__num_digits8(tyjson__num_first_lanes(x2, n2));
        ie = p + 8 + n2;
    }
    u8 c = *ie;
    if (c != '.' && (c | 0x20) != 'e') { /* an integer of at most 15 digits */
        if (!neg) {
            out->kind = TYJSON__NUM_UINT;
            out->v.u = iv;
        } else if (likely(iv)) {
            out->kind = TYJSON__NUM_SINT;
            out->v.i = -(i64)iv;
        } else { /* -0 keeps its sign as a real */
            out->kind = TYJSON__NUM_REAL;
            out->v.f = -0.0;
        }
        return ie;
    }

    u64 sig;
    const u8 *fp, *fe;
    if (c != '.') {
        sig = iv;
        fp = fe = ie;
    } else {
    fraction:
        fp = ie + 1;
        u64 y = tyjson__num_load8(fp) ^ TYJSON__NUM_ZEROS8, s1 = tyjson__num_nondigits8(y);
        if (likely(s1)) {
            int m = tyjson__num_first_stop(s1);
            if (unlikely(m == 0)) return NULL; /* "1." */
            /* one fraction digit ("95.5", "50.0", prices, scores): the
             * digit is the first lane, without the lane arithmetic */
            if (m == 1) sig = iv * 10 + (y & 0xFF);
            else sig = iv * tyjson__num_pow10_u64[m] + tyjson__num_digits8(tyjson__num_first_lanes(y, m));
            fe = fp + m;
            /* up to 7 fraction digits: more than 19 digits in all (sig
             * wrapped) needs at least 13 integer digits, iv >= 10^12 */
            if (unlikely(iv >= 1000000000000u) && (ie - p) + m > 19) return NULL;
        } else {
            u64 y2 = tyjson__num_load8(fp + 8) ^ TYJSON__NUM_ZEROS8;
            u64 s2 = tyjson__num_nondigits8(y2);
            if (unlikely(!s2)) return NULL;
            int m2 = tyjson__num_first_stop(s2);
            sig = (iv * 100000000u + tyjson__num_digits8(y)) * tyjson__num_pow10_u64[m2] +
                  tyjson__num_digits8(tyjson__num_first_lanes(y2, m2));
            fe = fp + 8 + m2;
            /* past 19 digits sig has wrapped (the general reader rounds
             * those): with 9 to 15 fraction digits, only from 5 integer
             * digits on */
            if (unlikely(iv >= 10000u) && (ie - p) + 8 + m2 > 19) return NULL;
        }
        if (likely((*fe | 0x20) != 'e')) {
            /* The common real, a fraction without exponent: no exponent
             * range to check. With sig <= 2^53, sig and 10^(1..16) are
             * exact doubles, so one division rounds once (Clinger). */
            u64 bits0;
            if (TYJSON__NUM_CLINGER && sig <= (u64)1 << 53) {
                double f = (double)(i64)sig / tyjson__num_pow10_f64[fe - fp];
                memcpy(&bits0, &f, sizeof bits0);
            } else {
                bits0 = tyjson__num_scaled_bits(sig, -(i64)(fe - fp));
                if (unlikely(bits0 == ~(u64)0)) return NULL;
            }
            bits0 |= neg << 63;
            out->kind = TYJSON__NUM_REAL;
            memcpy(&out->v.f, &bits0, sizeof bits0);
            return fe;
        }
    }
    c = *fe;
    const u8 *end = fe;
    i64 e = 0;
    if ((c | 0x20) == 'e') {
        const u8 *s = fe + 1;
        u64 eneg = *s == '-';
        s += eneg | (*s == '+');
        u32 d = (u32)*s - '0';
        if (unlikely(d > 9)) return NULL;
        e = d;
        s++;
        for (int i = 0; i < 3 && (d = (u32)*s - '0') <= 9; i++, s++) e = e * 10 + d;
        if (unlikely((u32)*s - '0' <= 9)) return NULL;
        e = eneg ? -e : e;
        end = s;
    }

    i64 q = e - (fe - fp);
    u64 bits;
    if (TYJSON__NUM_CLINGER && sig <= (u64)1 << 53 && q >= -22 && q <= 22) {
        /* sig and 10^|q| are exact doubles: one rounding (Clinger) */
        double f = (double)sig;
        f = q < 0 ? f / tyjson__num_pow10_f64[-q] : f * tyjson__num_pow10_f64[q];
        memcpy(&bits, &f, sizeof bits);
    } else {
        bits = tyjson__num_scaled_bits(sig, q);
        if (unlikely(bits == ~(u64)0)) return NULL;
    }
    bits |= neg << 63;
    out->kind = TYJSON__NUM_REAL;
    memcpy(&out->v.f, &bits, sizeof bits);
    return end;
#else
    (void)p;
    (void)out;
    return NULL;
#endif
}

/** tyjson__num_read with its common case inlined into the caller, for input
 * followed by at least TYJSON__NUM_FAST_ROOM zero bytes (the DOM's copy):
 * the fast path runs to the very end, since a zero byte ends every number
 * shape it reads. */
TYJSON__FORCEINLINE const u8 *tyjson__num_read_padded(const u8 *p, const u8 *end, u32 flags,
                                                      tyjson__num *out, tyjson_status *err,
                                                      const u8 **err_pos) {
    const u8 *q = tyjson__num_fast(p, out);
    if (likely(q != NULL)) return q;
    return tyjson__num_read_slow(p, end, flags, out, err, err_pos);
}

/** The same for any input: the fast path while it has its room. */
TYJSON__FORCEINLINE const u8 *tyjson__num_read_inline(const u8 *p, const u8 *end, u32 flags,
                                                      tyjson__num *out, tyjson_status *err,
                                                      const u8 **err_pos) {
    if (likely(end - p >= TYJSON__NUM_FAST_ROOM))
        return tyjson__num_read_padded(p, end, flags, out, err, err_pos);
    return tyjson__num_read_slow(p, end, flags, out, err, err_pos);
}

/* ----------------------------------------------------------------------------
 * Numbers kept as text (TYJSON_READ_NUMBER_AS_RAW)
 * ------------------------------------------------------------------------- */

/** The end of the number at p (before end) when its grammar holds, NULL
 *  when it does not: the grammar alone, nothing converted, no range. */
TYJSON__FORCEINLINE const u8 *tyjson__num_scan(const u8 *p, const u8 *end) {
    if (p < end && *p == '-') p++;
    if (p == end || (u32)*p - '0' > 9) return NULL;
    if (*p++ == '0') {
        if (p < end && (u32)*p - '0' <= 9) return NULL;
    } else {
        while (p < end && (u32)*p - '0' <= 9) p++;
    }
    if (p < end && *p == '.') {
        p++;
        if (p == end || (u32)*p - '0' > 9) return NULL;
        while (p < end && (u32)*p - '0' <= 9) p++;
    }
    if (p < end && (*p | 0x20) == 'e') {
        p++;
        if (p < end && (*p == '+' || *p == '-')) p++;
        if (p == end || (u32)*p - '0' > 9) return NULL;
        while (p < end && (u32)*p - '0' <= 9) p++;
    }
    return p;
}

/** A number read as text: kind TYJSON__NUM_RAW and its end, or NULL with
 *  the grammar error exactly as tyjson__num_read reports it. */
const u8 *tyjson__num_read_text(const u8 *p, const u8 *end, tyjson__num *out,
                                tyjson_status *err, const u8 **err_pos);

/* ----------------------------------------------------------------------------
 * Writing small integers
 * ------------------------------------------------------------------------- */

/** tyjson__u64_write with values below 10^8 written inline, for hot
 *  callers (the DOM writer, the binding encoder). */
TYJSON__FORCEINLINE char *tyjson__u64_write_inline(u64 v, char *dst) {
    if (likely(v < 100000000u)) return tyjson__num_put_upto8(dst, (u32)v);
    return tyjson__u64_write(v, dst);
}

/** tyjson__i64_write, likewise. */
TYJSON__FORCEINLINE char *tyjson__i64_write_inline(i64 v, char *dst) {
    u64 u = (u64)v;
    *dst = '-';
    if (v < 0) {
        dst++;
        u = 0 - u;
    }
    return tyjson__u64_write_inline(u, dst);
}

#endif /* TYJSON_NUM_INLINE_H */
