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
 */
#include "num.h"
#include "num_tables.h"

static const char dig2[201] = "00010203040506070809"
                              "10111213141516171819"
                              "20212223242526272829"
                              "30313233343536373839"
                              "40414243444546474849"
                              "50515253545556575859"
                              "60616263646566676869"
                              "70717273747576777879"
                              "80818283848586878889"
                              "90919293949596979899";

static const u64 pow10_u64[20] = {1u,
                                  10u,
                                  100u,
                                  1000u,
                                  10000u,
                                  100000u,
                                  1000000u,
                                  10000000u,
                                  100000000u,
                                  1000000000u,
                                  10000000000u,
                                  100000000000u,
                                  1000000000000u,
                                  10000000000000u,
                                  100000000000000u,
                                  1000000000000000u,
                                  10000000000000000u,
                                  100000000000000000u,
                                  1000000000000000000u,
                                  10000000000000000000u};

/* ----------------------------------------------------------------------------
 * Digits
 * ------------------------------------------------------------------------- */

/** Decimal digits of v (v >= 1). A value of b bits has floor(b log10 2) or
 *  one more digits; 1233 / 4096 approximates log10 2 closely enough. */
static inline int dec_len(u64 v) {
    int n = ((64 - tyjson__clz64(v)) * 1233) >> 12;
    return n + (v >= pow10_u64[n]);
}

/* Exactly 8 digits of v < 10^8, leading zeros included. */
static inline void put8(char *p, u32 v) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* All lanes at once, the first digit in the low byte: split into two
     * 4-digit lanes, each into two 2-digit lanes (x * 10486 >> 20 is x / 100
     * for x < 10^4), each into two digits (x * 103 >> 10 is x / 10 for
     * x < 100). Checked for every v < 10^8 when it was written. */
    u64 x = (v / 10000) | ((u64)(v % 10000) << 32);
    u64 y = ((x * 10486) >> 20) & 0x0000007F0000007Fu;
    x = y + ((x - y * 100) << 16);
    y = ((x * 103) >> 10) & 0x000F000F000F000Fu;
    x = y + ((x - y * 10) << 8);
    x |= 0x3030303030303030u;
    memcpy(p, &x, 8);
#else
    u32 hi = v / 10000, lo = v % 10000;
    memcpy(p, dig2 + 2 * (hi / 100), 2);
    memcpy(p + 2, dig2 + 2 * (hi % 100), 2);
    memcpy(p + 4, dig2 + 2 * (lo / 100), 2);
    memcpy(p + 6, dig2 + 2 * (lo % 100), 2);
#endif
}

/* The w digits of v < 10^w at p, leading zeros included. Eight at a time in
 * 32-bit arithmetic, so a 17-digit double costs two 64-bit divisions. */
static inline void put_digits(char *p, u64 v, int w) {
    char *q = p + w;
    while (q - p >= 8) {
        u64 div = v / 100000000u;
        q -= 8;
        put8(q, (u32)(v - div * 100000000u));
        v = div;
    }
    u32 r = (u32)v;
    while (q - p >= 2) {
        q -= 2;
        memcpy(q, dig2 + 2 * (r % 100), 2);
        r /= 100;
    }
    if (q > p) q[-1] = (char)('0' + r);
}

char *tyjson__u64_write(u64 v, char *dst) {
    if (v < 10) {
        *dst = (char)('0' + v);
        return dst + 1;
    }
    int n = dec_len(v);
    put_digits(dst, v, n);
    return dst + n;
}

char *tyjson__i64_write(i64 v, char *dst) {
    u64 u = (u64)v;
    if (v < 0) {
        *dst++ = '-';
        u = 0 - u;
    }
    return tyjson__u64_write(u, dst);
}

/* ----------------------------------------------------------------------------
 * Shortest decimal in the rounding interval (Schubfach)
 * ------------------------------------------------------------------------- */

/* The top 64 bits of the 192-bit g * cp, with the lowest bit set when the
 * rest is not (close enough to) zero: rounding to odd keeps both the floor
 * and the "exact integer or not" of the true scaled value, which is all the
 * comparisons below need. g over-estimates by at most 1, so the ignored low
 * limb and a middle limb of 1 can only be error. */
static inline u64 rop(u64 g1, u64 g0, u64 cp) {
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
static u64 shortest(u64 c, int q, bool irregular, int *k_out) {
    int k = irregular ? tyjson__flog10_3q_pow2(q) : tyjson__flog10_pow2(q);
    /* 10^-k = G * 2^(flog2_pow5(-k) - 127 - k); h makes g * (4c << h) / 2^128
     * equal 4 v 10^-k, and lands in [1, 4] because 2^q 10^-k is in [1, 10) */
    int h = q + tyjson__flog2_pow5(-k) - k + 1;
    const u64 *gp = tyjson__pow5_128[-k - TYJSON__POW5_MIN];
    u64 g1 = gp[0], g0 = gp[1] + 1; /* floor + 1: an over-estimate */
    g1 += g0 == 0;
    u64 cb = c << 2, open = c & 1; /* even c: the interval includes its ends */
    u64 vb = rop(g1, g0, cb << h);
    u64 vbl = rop(g1, g0, (cb - 2 + irregular) << h);
    u64 vbr = rop(g1, g0, (cb + 2) << h);
    *k_out = k;

    u64 s = vb >> 2; /* floor(v 10^-k) */
    if (s >= 10) {   /* a multiple of ten inside is one digit shorter */
        u64 sp = s / 10 * 10, tp = sp + 10;
        bool sp_in = vbl + open <= sp << 2, tp_in = (tp << 2) + open <= vbr;
        if (sp_in != tp_in) return sp_in ? sp : tp;
    }
    u64 t = s + 1;
    bool s_in = vbl + open <= s << 2, t_in = (t << 2) + open <= vbr;
    if (s_in != t_in) return s_in ? s : t;
    u64 mid = (s + t) << 1; /* 4 (s + 1/2) */
    return vb < mid || (vb == mid && !(s & 1)) ? s : t;
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
        memcpy(p, dig2 + 2 * x, 2);
        return p + 2;
    }
    if (x >= 10) {
        memcpy(p, dig2 + 2 * x, 2);
        return p + 2;
    }
    *p = (char)('0' + x);
    return p + 1;
}

/* Writes s * 10^k (1 <= s < 10^17) so that it reads back as a real. The
 * digits go to a '0'-filled scratch buffer first, so every layout is made of
 * fixed-size copies (no memmove, no variable memset): dst has room for
 * TYJSON__NUM_MAX_CHARS bytes and only the returned length counts. */
static char *put_decimal(char *p, u64 s, int k) {
    if (s % 10 == 0) { /* Schubfach's multiple of ten may end in more zeros */
        while (s % 10000 == 0) {
            s /= 10000;
            k += 4;
        }
        if (s % 100 == 0) {
            s /= 100;
            k += 2;
        }
        if (s % 10 == 0) {
            s /= 10;
            k += 1;
        }
    }
    /* all 17 digit places, then d points at the first significant one */
    char buf[17 + 40];
    memset(buf + 17, '0', 40);
    u64 hi = s / 100000000u;
    u32 top = (u32)(hi / 100000000u);
    buf[0] = (char)('0' + top);
    put8(buf + 1, (u32)(hi - (u64)top * 100000000u));
    put8(buf + 9, (u32)(s - hi * 100000000u));
    int n = dec_len(s);
    const char *d = buf + 17 - n;
    int x = k + n - 1; /* s * 10^k = d.ddd * 10^x */
    if (x >= 21 || x < -6) {
        p[0] = d[0];
        p[1] = '.';
        memcpy(p + 2, d + 1, 16);
        p += n > 1 ? n + 1 : 1;
        return put_exp(p, x);
    }
    if (x >= n - 1) { /* an integer: digits, zeros (x < 21), ".0" */
        memcpy(p, d, 24);
        p += x + 1;
        memcpy(p, ".0", 2);
        return p + 2;
    }
    if (x >= 0) { /* point inside the digits: x <= 15, n - x - 1 <= 16 */
        memcpy(p, d, 24);
        memcpy(p + x + 2, d + x + 1, 16);
        p[x + 1] = '.';
        return p + n + 1;
    }
    memcpy(p, "0.000000", 8); /* 0.000ddd: at most 5 zeros, then 17 digits */
    memcpy(p + 1 - x, d, 17);
    return p + 1 - x + n;
}

/* c * 2^q with MBITS fraction bits: an integer below 2^MBITS+1 is exactly
 * its own shortest form, since neighbours are at most 1 apart. */
static char *put_binary(char *p, u64 c, int q, bool irregular, int mbits) {
    if (q <= 0 && q >= -mbits && !(c & (((u64)1 << -q) - 1)))
        return put_decimal(p, c >> -q, 0);
    int k;
    u64 s = shortest(c, q, irregular, &k);
    return put_decimal(p, s, k);
}

char *tyjson__f64_write(double v, char *dst) {
    u64 bits;
    memcpy(&bits, &v, sizeof bits);
    if (bits >> 63) *dst++ = '-';
    u64 ef = (bits >> 52) & 0x7FF, f = bits & (((u64)1 << 52) - 1);
    TYJSON_API_CHECK(ef != 0x7FF);
    if (ef == 0) {
        if (f == 0) {
            memcpy(dst, "0.0", 3);
            return dst + 3;
        }
        return put_binary(dst, f, -1074, false, 52);
    }
    return put_binary(dst, f | (u64)1 << 52, (int)ef - 1075, f == 0 && ef > 1, 52);
}

char *tyjson__f32_write(float v, char *dst) {
    u32 bits;
    memcpy(&bits, &v, sizeof bits);
    if (bits >> 31) *dst++ = '-';
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
