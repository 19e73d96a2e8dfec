/*
 * num_decimal.c - exact decimals: a JSON number kept as an integer
 * coefficient and a decimal scale (19.99 is 1999 and 2), for amounts that
 * must never pass through a double. The grammar is the number core's own:
 * tyjson__num_read checks the text and finds its end (with BIGNUM_AS_RAW,
 * so no magnitude is out of its range), and only then are the digits
 * gathered, from text known to be a valid number.
 */
#include "num/num.h"

/* A scale beyond +-1e9 is refused before it can overflow: no amount needs
 * it, and the arithmetic below stays within int64. */
#define SCALE_LIMIT 1000000000LL

static bool is_digit(u8 c) { return c >= '0' && c <= '9'; }

const u8 *tyjson__decimal_read(const u8 *p, const u8 *end, i64 *coef, int32_t *scale,
                               tyjson_status *err, const u8 **err_pos) {
    tyjson__num num;
    const u8 *q = tyjson__num_read(p, end, TYJSON_READ_BIGNUM_AS_RAW, &num, err, err_pos);
    if (!q) return NULL;
    const u8 *s = p;
    bool neg = *s == '-';
    if (neg) s++;
    u64 mag = 0;
    /* Magnitudes up to 2^63 for a negative number (INT64_MIN), 2^63 - 1
     * otherwise. */
    const u64 limit = neg ? (u64)1 << 63 : ((u64)1 << 63) - 1;
    i64 frac = 0;
    bool in_frac = false;
    for (; s < q && (is_digit(*s) || *s == '.'); s++) {
        if (*s == '.') {
            in_frac = true;
            continue;
        }
        u64 dgt = (u64)(*s - '0');
        if (mag > (limit - dgt) / 10) goto range;
        mag = mag * 10 + dgt;
        if (in_frac) frac++;
    }
    i64 exp = 0;
    if (s < q) { /* 'e' or 'E', a sign, digits: all checked by num_read */
        s++;
        bool eneg = *s == '-';
        if (*s == '-' || *s == '+') s++;
        for (; s < q; s++) {
            exp = exp * 10 + (*s - '0');
            if (exp > SCALE_LIMIT) goto range;
        }
        if (eneg) exp = -exp;
    }
    i64 sc = frac - exp;
    if (sc > SCALE_LIMIT || sc < -SCALE_LIMIT) goto range;
    *coef = !neg ? (i64)mag : mag == (u64)1 << 63 ? INT64_MIN : -(i64)mag;
    *scale = (int32_t)sc;
    return q;
range:
    *err = TYJSON_E_NUMBER_RANGE;
    *err_pos = p;
    return NULL;
}

char *tyjson__decimal_write(i64 coef, int32_t scale, char *dst) {
    char digits[24];
    u64 mag = coef < 0 ? 0 - (u64)coef : (u64)coef;
    usize n = 0;
    do {
        digits[n++] = (char)('0' + mag % 10);
        mag /= 10;
    } while (mag);
    char *d = dst;
    if (coef < 0) *d++ = '-';
    if (scale <= 0 || scale > TYJSON__DECIMAL_FIXED_MAX) {
        /* the coefficient, then the power of ten that gives the scale back
         * when read: 15e2 is 15 with scale -2, 5e-400 is 5 with scale 400 */
        while (n) *d++ = digits[--n];
        if (scale != 0) {
            *d++ = 'e';
            i64 e = -(i64)scale;
            if (e < 0) {
                *d++ = '-';
                e = -e;
            }
            /* by hand, not tyjson__u64_write: that one may store whole
             * words past its end, and callers reserve only this text */
            char ed[12];
            usize k = 0;
            do {
                ed[k++] = (char)('0' + e % 10);
                e /= 10;
            } while (e);
            while (k) *d++ = ed[--k];
        }
        return d;
    }
    /* plain notation: the last `scale` digits after the point, zeros in
     * front where the coefficient has fewer (0.005 is 5 with scale 3) */
    usize sc = (usize)scale;
    if (n <= sc) {
        *d++ = '0';
        *d++ = '.';
        for (usize z = n; z < sc; z++) *d++ = '0';
        while (n) *d++ = digits[--n];
        return d;
    }
    while (n > sc) *d++ = digits[--n];
    *d++ = '.';
    while (n) *d++ = digits[--n];
    return d;
}
