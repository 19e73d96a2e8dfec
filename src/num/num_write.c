/*
 * num_write.c - integers and shortest round-trip doubles and floats as text.
 *
 * Shortest output follows the Schubfach idea (R. Giulietti, "The Schubfach
 * way to render doubles", 2020): scale the rounding interval of v by a power
 * of ten 10^-k chosen so that the interval is between 1 and 10 units wide.
 * Then at most one multiple of 10 lies inside it (one digit shorter), or else
 * the answer is floor(v * 10^-k) or the next integer, whichever is inside and
 * nearer. The three scaled bounds come from one 64x128-bit product each,
 * rounded to odd so that "is it exactly an integer" survives the truncation.
 * Most doubles take a cheaper form of the same choice first (shortest_wide):
 * one product, scaled 100 times finer, with error bounds that say when it
 * could be wrong; those rare inputs go to the three products.
 *
 * Digits are made eight at a time in the byte lanes of a u64 (SWAR) and
 * stored whole: trailing zeros are counted from the lanes instead of divided
 * off, and the decimal point is shifted into the lanes, so a number is
 * written with a few 8-byte stores and no copy through a scratch buffer
 * (whose mismatched store/load sizes stall store forwarding).
 */
#include "num/num.h"
#include "num/num_tables.h"

#include <math.h>

#define ZEROS 0x3030303030303030u /* '0' in every lane */

/* "00" "01" ... "99": the digit pairs (<tyjson/num_int.h>) */
const char tyjson__num_dig2[201] = "00010203040506070809"
                                   "10111213141516171819"
                                   "20212223242526272829"
                                   "30313233343536373839"
                                   "40414243444546474849"
                                   "50515253545556575859"
                                   "60616263646566676869"
                                   "70717273747576777879"
                                   "80818283848586878889"
                                   "90919293949596979899";

/* ----------------------------------------------------------------------------
 * Digits in byte lanes: the first (most significant) digit in the lowest
 * byte, which is the first byte in memory once stored little endian.
 * ------------------------------------------------------------------------- */

/* c ? a : b without a branch, for conditions that follow the data (the
 * compilers turn a plain ?: into a jump that would mispredict). */
TYJSON__FORCEINLINE u64 pick(u64 c, u64 a, u64 b) {
    u64 m = 0 - c; /* c is 0 or 1 */
    return (a & m) | (b & ~m);
}

/** Decimal digits of v (v >= 1). A value of b bits has floor(b log10 2) or
 *  one more digits; 1233 / 4096 approximates log10 2 closely enough. */
TYJSON__FORCEINLINE int dec_len(u64 v) {
    int n = ((64 - tyjson__clz64(v)) * 1233) >> 12;
    return n + (v >= tyjson__num_pow10_u64[n]);
}

/* Eight digits from two 4-digit groups x = (first << 32) | second, in
 * big-endian lane order: the first digit in the highest byte, so that the
 * trailing zero digits are the low zero bytes (a fast ctz, where counting
 * leading zeros is slow on some x86). Same lane arithmetic as tyjson__num_lanes8. */
TYJSON__FORCEINLINE u64 lanes44_be(u64 x) {
    u64 y = ((x * 10486) >> 20) & 0x0000007F0000007Fu;
    x += y * (((u64)1 << 16) - 100);
    y = ((x * 103) >> 10) & 0x000F000F000F000Fu;
    return x + y * (((u64)1 << 8) - 10);
}

TYJSON__FORCEINLINE u64 bswap64(u64 x) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_bswap64(x);
#else
    x = (x & 0x00000000FFFFFFFFu) << 32 | (x >> 32);
    x = (x & 0x0000FFFF0000FFFFu) << 16 | ((x >> 16) & 0x0000FFFF0000FFFFu);
    return (x & 0x00FF00FF00FF00FFu) << 8 | ((x >> 8) & 0x00FF00FF00FF00FFu);
#endif
}

/* The 8 digits of v mod 10^8 (v < 10^20), cut into two 4-digit groups
 * straight from v so that neither waits for the other. */
TYJSON__FORCEINLINE u64 low8_ascii(u64 v) {
    u64 q4 = v / 10000u, q8 = v / 100000000u;
    return bswap64(lanes44_be((q4 - q8 * 10000) << 32 | (v - q4 * 10000))) | ZEROS;
}

TYJSON__FORCEINLINE char *put_u64(char *p, u64 v) {
    if (likely(v < 100000000u)) return tyjson__num_put_upto8(p, (u32)v);
    u64 hi = v / 100000000u;
    if (likely(hi < 100000000u)) {
        p = tyjson__num_put_upto8(p, (u32)hi);
    } else { /* 17 to 20 digits: hi has 9 to 12 */
        p = tyjson__num_put_upto8(p, (u32)(v / 10000000000000000u));
        tyjson__num_store8(p, low8_ascii(hi));
        p += 8;
    }
    tyjson__num_store8(p, low8_ascii(v));
    return p + 8;
}

char *tyjson__u64_write(u64 v, char *dst) { return put_u64(dst, v); }

char *tyjson__i64_write(i64 v, char *dst) {
    u64 u = (u64)v;
    *dst = '-';
    if (v < 0) {
        dst++;
        u = 0 - u;
    }
    return put_u64(dst, u);
}

/* ----------------------------------------------------------------------------
 * Shortest decimal in the rounding interval (Schubfach)
 * ------------------------------------------------------------------------- */

/* The top 64 bits of the 192-bit g * cp, with the lowest bit set when the
 * rest is not (close enough to) zero: rounding to odd keeps both the floor
 * and the "exact integer or not" of the true scaled value, which is all the
 * comparisons below need. g over-estimates by at most 1, so the ignored low
 * limb and a middle limb of 1 can only be error. */
TYJSON__FORCEINLINE u64 rop(u64 g1, u64 g0, u64 cp) {
    u64 x1;
    tyjson__mul128(g0, cp, &x1);
    u64 y1, y0 = tyjson__mul128(g1, cp, &y1);
    u64 z = y0 + x1;
    y1 += z < y0;
    return y1 | (z > 1);
}

/* Shortest decimal s * 10^*k in the rounding interval of c * 2^q, nearest
 * to it when several are equally short (ties to even). `irregular`: c is a
 * power of two whose lower neighbour is only half as far away. c < 2^53. */
static inline u64 shortest(u64 c, int q, bool irregular, int *k_out) {
    int k = irregular ? tyjson__flog10_3q_pow2(q) : tyjson__flog10_pow2(q);
    /* 10^-k = G * 2^(flog2_pow5(-k) - 127 - k); h makes g * (4c << h) / 2^128
     * equal 4 v 10^-k, and lands in [1, 4] because 2^q 10^-k is in [1, 10) */
    int h = q + tyjson__flog2_pow5(-k) - k + 1;
    const u64 *gp = tyjson__pow5_128[-k - TYJSON__POW5_MIN];
    /* floor + 1, an over-estimate; no low half is all ones (the generator
     * checks), so the +1 never carries into the high half */
    u64 g1 = gp[0], g0 = gp[1] + 1;
    u64 cb = c << 2, open = c & 1; /* even c: the interval includes its ends */
    u64 vb = rop(g1, g0, cb << h);
    u64 vbl = rop(g1, g0, (cb - 2 + irregular) << h);
    u64 vbr = rop(g1, g0, (cb + 2) << h);
    *k_out = k;

    /* Which candidate wins depends on digits that look random, so the choice
     * is made with selects rather than branches that would mispredict. */
    u64 s = vb >> 2; /* floor(v 10^-k) */
    u64 lo = vbl + open, hi = vbr - open; /* inside: lo <= 4x <= hi */
    u64 sp = s / 10 * 10;
    /* a multiple of ten inside is one digit shorter; sp = 0 (s < 10, tiny
     * subnormals) is never inside, as the interval is above 1 */
    u64 sp_in = lo <= sp << 2, tp_in = (sp + 10) << 2 <= hi;
    /* else s or s + 1: the one inside, or the nearer (ties to even) when
     * both are; the interval is wider than 1, so one of them is inside
     * (width exactly 1 would need q = 0, an integer, written before) */
    u64 s_in = lo <= s << 2, t_in = (s + 1) << 2 <= hi;
    u64 nearer_s = vb < (s << 2) + 2 + (~s & 1);
    u64 st = s + (t_in & ((s_in & nearer_s) ^ 1));
    return pick(sp_in ^ tp_in, sp + 10 * tp_in, st);
}

/* The same answer for most doubles with one product instead of three:
 * scale by 100 times more than shortest() does, so that the rounding
 * interval is 100 to 1000 units wide, around V = v 10^-k with half width D.
 * Then Schubfach's choice reads: the one multiple of 1000 inside (at most
 * one fits) if there is one, else the multiple of 100 nearest to V, which is
 * always inside since D > 50 (D = 50 would need q = 0, an integer).
 * In units of 2^-64, V is computed from the truncated 10^-k at most 1.5
 * low, D at most 512 low (g0 is left out), so U = V + D and L = V - D are
 * off by less than 514. When V, U or L is within 1024 of an integer, the
 * floors and comparisons below could go either way (and V could be a tie):
 * the caller falls back to shortest(); this happens mainly for doubles
 * whose scaled value is exact (large integers, short dyadic fractions).
 * c in (2^52, 2^53), not a power of two; the result has 16 or 17 digits. */
TYJSON__FORCEINLINE bool shortest_wide(u64 c, int q, u64 *s_out, int *k_out) {
    int k = tyjson__flog10_pow2(q) - 2; /* 2^q 10^-k in [100, 1000) */
    /* 10^-k = g 2^(flog2_pow5(-k) - 127 - k); h (7 to 10) makes
     * (c << h) g / 2^64 = V 2^64 */
    int h = q + tyjson__flog2_pow5(-k) - k + 1;
    const u64 *gp = tyjson__pow5_128[-k - TYJSON__POW5_MIN];
    u64 g1 = gp[0], g0 = gp[1], cp = c << h;
    u64 a1, b1, b0 = tyjson__mul128(g1, cp, &b1);
    tyjson__mul128(g0, cp, &a1);
    u64 vlo = b0 + a1, vhi = b1 + (vlo < b0);
    /* D 2^64 = g 2^(h - 65), 65 - h in [55, 58]: from g1 alone, which is
     * less than 2^9 units of 2^-64 short */
    u64 dhi = g1 >> (65 - h), dlo = g1 << (h - 1);
    u64 ulo = vlo + dlo, uhi = vhi + dhi + (ulo < vlo);
    u64 llo = vlo - dlo, lhi = vhi - dhi - (vlo < dlo);
    const u64 margin = 1024; /* above the error of V, D, and the bounds */
    if (unlikely((vlo + margin < 2 * margin) | (ulo + margin < 2 * margin) |
                 (llo + margin < 2 * margin)))
        return false;
    /* a multiple of 1000 in (L, U]: floor(L / 1000) < floor(U / 1000) (L
     * and U are not integers, their floors are lhi and uhi) */
    u64 m = uhi / 1000;
    *s_out = pick(lhi / 1000 != m, m * 10, (vhi + 50) / 100);
    *k_out = k + 2;
    return true;
}

/* ----------------------------------------------------------------------------
 * Layout: plain notation for decimal exponents in [-6, 21), else d.ddde-7
 * ------------------------------------------------------------------------- */


static char *put_exp(char *p, int x) {
    *p++ = 'e';
    if (x < 0) {
        *p++ = '-';
        x = -x;
    }
    if (x >= 100) {
        *p++ = (char)('0' + x / 100);
        x %= 100;
        memcpy(p, tyjson__num_dig2 + 2 * x, 2);
        return p + 2;
    }
    if (x >= 10) {
        memcpy(p, tyjson__num_dig2 + 2 * x, 2);
        return p + 2;
    }
    *p = (char)('0' + x);
    return p + 1;
}

/* The 8 bytes of w with a '.' inserted before byte i (0 to 7); the last
 * byte is pushed out. */
TYJSON__FORCEINLINE u64 with_point(u64 w, int i) {
    u64 keep = ((u64)1 << 8 * i) - 1;
    return (w & keep) | (u64)'.' << 8 * i | (w & ~keep) << 8;
}

/* Writes s * 10^k, 10^16 <= s < 10^17, so that it reads back as a real.
 * The 17 digits (trailing zeros included, then '0' padding) sit in three
 * lane words, stored whole: at most 31 bytes from p (dst has room for
 * TYJSON__NUM_MAX_CHARS, only the returned length counts). The four 4-digit
 * groups are all cut from s directly, so that they do not wait on each
 * other. */
TYJSON__FORCEINLINE char *put_digits17(char *p, u64 s, int k) {
    u64 q13 = s / 10000000000000u, q9 = s / 1000000000u;
    u64 q5 = s / 100000u, q1 = s / 10u;
    /* lane pairs (a << 32) | (b - a * 10^4), as b + a * (2^32 - 10^4) */
    const u64 split = ((u64)1 << 32) - 10000;
    u64 w0 = lanes44_be(q9 + q13 * split);                          /* digits 0-7 */
    u64 w1 = lanes44_be(q1 + q5 * split - q9 * ((u64)10000 << 32)); /* digits 8-15 */
    u64 last = s - q1 * 10;                                         /* digit 16 */
    /* trailing zero digits, without branches (they follow the data): none
     * when `last` is not 0, else 1 + the zero lanes at the bottom of w1 (bit
     * 63 makes a w1 of 0 count 8, lanes only use their low 4 bits), then
     * those of w0 (which holds the first digit, never 0) */
    u64 z = (((u64)(unsigned)tyjson__num_ctz64(w1 | (u64)1 << 63) + 1) >> 3) + 1;
    z += ((u64)(unsigned)tyjson__num_ctz64(w0) >> 3) & (0 - (u64)(w1 == 0));
    int n = 17 - (int)(z & (0 - (u64)(last == 0)));
    u64 a0 = bswap64(w0) | ZEROS, a1 = bswap64(w1) | ZEROS, a2 = ZEROS + last;
    int x = k + 16; /* s * 10^k = d.dddd * 10^x */
    if ((unsigned)x < 21 && x >= n - 1) { /* an integer: digits, zeros, ".0" */
        tyjson__num_store8(p, a0);
        tyjson__num_store8(p + 8, a1);
        tyjson__num_store8(p + 16, a2);
        memcpy(p + x + 1, ".0", 2);
        return p + x + 3;
    }
    if (x >= -6 && x < 0) { /* "0." and -x - 1 zeros, then the digits */
        tyjson__num_store8(p, (ZEROS & ~(u64)0xFF00) | (u64)'.' << 8); /* "0.000000" */
        p += 1 - x; /* 2 to 7: the digits overwrite the surplus zeros */
        tyjson__num_store8(p, a0);
        tyjson__num_store8(p + 8, a1);
        tyjson__num_store8(p + 16, a2);
        return p + n;
    }
    /* A point after digit i: the digits one byte on, then the 8 bytes that
     * hold the point stored again over them, in order (the later store
     * wins). Exponent form: d.ddd, a single digit without its point. */
    int i = x < 0 || x >= 21 ? 1 : x + 1; /* 1 to 16 */
    tyjson__num_store8(p + 1, a0);
    tyjson__num_store8(p + 9, a1);
    tyjson__num_store8(p + 17, a2);
    if (i < 8) {
        tyjson__num_store8(p, with_point(a0, i));
    } else {
        tyjson__num_store8(p, a0);
        if (i < 16) {
            tyjson__num_store8(p + 8, with_point(a1, i - 8));
        } else {
            tyjson__num_store8(p + 8, a1);
            p[16] = '.';
        }
    }
    if (i == x + 1) return p + n + 1;
    return put_exp(p + (n > 1 ? n + 1 : 1), x);
}

/* Any s in [1, 10^17): scaled up to 17 digits first. */
TYJSON__FORCEINLINE char *put_decimal(char *p, u64 s, int k) {
    int z = 17 - dec_len(s);
    return put_digits17(p, s * tyjson__num_pow10_u64[z], k - z);
}

/* floor((10^15 - 1) / 5^m) for m in [0, 21], and 5^m */
static const u64 short_lim[22] = {
    999999999999999u, 199999999999999u, 39999999999999u, 7999999999999u, 1599999999999u,
    319999999999u,    63999999999u,     12799999999u,    2559999999u,    511999999u,
    102399999u,       20479999u,        4095999u,        819199u,        163839u,
    32767u,           6553u,            1310u,           262u,           52u,
    10u,              2u};
static const u64 pow5_u64[22] = {1u,
                                 5u,
                                 25u,
                                 125u,
                                 625u,
                                 3125u,
                                 15625u,
                                 78125u,
                                 390625u,
                                 1953125u,
                                 9765625u,
                                 48828125u,
                                 244140625u,
                                 1220703125u,
                                 6103515625u,
                                 30517578125u,
                                 152587890625u,
                                 762939453125u,
                                 3814697265625u,
                                 19073486328125u,
                                 95367431640625u,
                                 476837158203125u};

/* c * 2^q (c >= 1) with MBITS fraction bits, q >= -1074.
 *
 * Shortcuts before Schubfach: with c = c' 2^z (c' odd), if c' 2^(q+z) is an
 * integer below 2^(MBITS+1), it is its own shortest form (neighbours are at
 * most 1 apart). If instead q + z = -m < 0 and c' 5^m has n <= 15 digits (7
 * for a float), the value is exactly c' 5^m 10^-m: any other decimal of at
 * most n digits is at least 10^-n v away, farther than the half ulp (below
 * v 2^-(MBITS+1)), so this is the shortest and the nearest, and c' 5^m has no
 * trailing zero (it is odd). Values like 1.5, 0.25 or 95.5 stop here. */
static TYJSON__NOINLINE char *put_binary(char *p, u64 c, int q, bool irregular, int mbits) {
    int z = tyjson__num_ctz64(c);
    int e = q + z;
    if (e >= 0) {
        if (q <= 0) { /* below 2^(MBITS+1): the integer's digits and ".0" */
            p = put_u64(p, c >> -q);
            memcpy(p, ".0", 2);
            return p + 2;
        }
    } else if (e >= -21 && c >> z <= short_lim[-e]) {
        u64 s = (c >> z) * pow5_u64[-e];
        if (mbits == 52 || s < 10000000u) return put_decimal(p, s, e);
    }
    int k;
    u64 s = shortest(c, q, irregular, &k);
    if (mbits == 52 && c >> 52) { /* a normal double: s has 16 or 17 digits */
        u64 s16 = s < 10000000000000000u;
        return put_digits17(p, s16 ? s * 10 : s, k - (int)s16);
    }
    return put_decimal(p, s, k);
}

char *tyjson__f64_write(double v, char *dst) {
    u64 bits;
    memcpy(&bits, &v, sizeof bits);
    *dst = '-';
    dst += bits >> 63;
    u64 ef = (bits >> 52) & 0x7FF, f = bits & (((u64)1 << 52) - 1);
    TYJSON_API_CHECK(ef != 0x7FF);
    u64 c = f | (u64)1 << 52;
    int q = (int)ef - 1075;
    /* the common case: normal, not a power of two, and not one of the short
     * forms put_binary looks for first (q + ctz(c) >= -21) */
    if (likely(ef != 0 && f != 0 && q + tyjson__num_ctz64(c) < -21)) {
        int k;
        u64 s;
        if (likely(shortest_wide(c, q, &s, &k))) {
            /* 16 or 17 digits, about evenly: scale without a branch */
            u64 s16 = s < 10000000000000000u;
            return put_digits17(dst, s + ((s * 9) & (0 - s16)), k - (int)s16);
        }
    }
    if (unlikely(ef == 0)) {
        if (f == 0) {
            memcpy(dst, "0.0", 3);
            return dst + 3;
        }
        return put_binary(dst, f, -1074, false, 52);
    }
    return put_binary(dst, c, q, f == 0 && ef > 1, 52);
}

char *tyjson__f32_write(float v, char *dst) {
    u32 bits;
    memcpy(&bits, &v, sizeof bits);
    *dst = '-';
    dst += bits >> 31;
    u32 ef = (bits >> 23) & 0xFF, f = bits & ((1u << 23) - 1);
    TYJSON_API_CHECK(ef != 0xFF);
    if (ef == 0) {
        if (f == 0) {
            memcpy(dst, "0.0", 3);
            return dst + 3;
        }
        return put_binary(dst, f, -149, false, 23);
    }
    return put_binary(dst, f | 1u << 23, (int)ef - 150, f == 0 && ef > 1, 23);
}

/* ----------------------------------------------------------------------------
 * MARK: - Fixed decimals
 *
 * The shortest round-trip text of |v| is taken apart into its significant
 * digits and the position of the decimal point, rounded half away from zero
 * at `prec` places in decimal (exactly: no second binary rounding), and put
 * back together in plain notation.
 * ------------------------------------------------------------------------- */
char *tyjson__f64_write_fixed(double v, int prec, char *dst) {
    char txt[TYJSON__NUM_MAX_CHARS + 8];
    char dig[TYJSON__NUM_MAX_CHARS];
    TYJSON_API_CHECK(prec >= 1 && prec <= TYJSON__FIXED_PREC_MAX);
    bool neg = signbit(v) != 0;
    double a = neg ? -v : v;
    if (a >= 1e21) return tyjson__f64_write(v, dst);
    char *te = tyjson__f64_write(a, txt);
    int n = 0, point = -1, exp10 = 0;
    for (const char *t = txt; t < te; t++) {
        if (*t == '.') {
            point = n;
        } else if (*t == 'e') { /* the text is not NUL-terminated */
            bool eneg = t + 1 < te && t[1] == '-';
            for (t += 1 + eneg; t < te; t++) exp10 = exp10 * 10 + (*t - '0');
            if (eneg) exp10 = -exp10;
            break;
        } else {
            dig[n++] = *t;
        }
    }
    if (point < 0) point = n;
    point += exp10; /* digits before the decimal point */
    int lead = 0;   /* leading zeros are not significant */
    while (lead < n - 1 && dig[lead] == '0') lead++;
    memmove(dig, dig + lead, (usize)(n - lead));
    n -= lead;
    point -= lead;
    int keep = point + prec; /* digits kept */
    if (keep < n) {
        bool up = keep >= 0 && dig[keep] >= '5';
        n = keep < 0 ? 0 : keep;
        if (up) {
            int i = n - 1;
            while (i >= 0 && dig[i] == '9') dig[i--] = '0';
            if (i >= 0) {
                dig[i]++;
            } else { /* all nines (or nothing kept): a new leading 1 */
                memmove(dig + 1, dig, (usize)n);
                dig[0] = '1';
                n++;
                point++;
            }
        }
    }
    char *p = dst;
    if (neg) *p++ = '-';
    if (point <= 0) {
        *p++ = '0';
    } else {
        for (int i = 0; i < point; i++) *p++ = i < n ? dig[i] : '0';
    }
    *p++ = '.';
    for (int i = point; i < point + prec; i++) *p++ = (i >= 0 && i < n) ? dig[i] : '0';
    return p;
}

char *tyjson__real_write_flags(double v, u32 flags, char *dst) {
    int prec = (int)(flags >> 28);
    if (!prec && (flags & TYJSON_WRITE_FP_TO_FLOAT) && v - v == 0) {
        /* at or past FLT_MAX plus half its ulp a double rounds to an
         * infinity; the cast itself is left to in-range values */
        if (fabs(v) >= 0x1.ffffffp127) {
            v = v < 0 ? -HUGE_VAL : HUGE_VAL;
        } else {
            return tyjson__f32_write((float)v, dst);
        }
    }
    if (v - v != 0) { /* NaN or an infinity */
        if (flags & TYJSON_WRITE_INF_NAN_AS_NULL) {
            memcpy(dst, "null", 4);
            return dst + 4;
        }
        if (flags & TYJSON_WRITE_ALLOW_INF_NAN) return tyjson__inf_nan_write(v, dst);
        return NULL;
    }
    if (prec) return tyjson__f64_write_fixed(v, prec, dst);
    return tyjson__f64_write(v, dst);
}

char *tyjson__inf_nan_write(double v, char *dst) {
    if (v != v) {
        memcpy(dst, "NaN", 3);
        return dst + 3;
    }
    if (v < 0) {
        memcpy(dst, "-Infinity", 9);
        return dst + 9;
    }
    memcpy(dst, "Infinity", 8);
    return dst + 8;
}
