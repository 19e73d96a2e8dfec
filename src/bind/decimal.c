/*
 * decimal.c - the public face of the exact decimals the DECIMAL kind uses:
 * parsing and formatting one number, over the number core's decimal
 * reader and writer (num/num_decimal.c).
 */
#include "num/num.h"

bool tyjson_decimal_parse(const char *s, size_t len, tyjson_decimal *out) {
    if (!s || !out || !len) return false;
    const u8 *p = (const u8 *)s, *end = p + len;
    if (*p != '-' && (*p < '0' || *p > '9')) return false;
    tyjson_decimal v;
    tyjson_status st;
    const u8 *ep;
    const u8 *q = tyjson__decimal_read(p, end, &v.coef, &v.scale, &st, &ep);
    if (q != end) return false; /* invalid, out of range, or text after the number */
    *out = v;
    return true;
}

size_t tyjson_decimal_format(const tyjson_decimal *d, char *out) {
    if (!d || !out || d->scale > 1000000000 || d->scale < -1000000000) return 0;
    char tmp[TYJSON__DECIMAL_MAX_CHARS];
    char *e = tyjson__decimal_write(d->coef, d->scale, tmp);
    usize n = (usize)(e - tmp);
    memcpy(out, tmp, n);
    return n;
}
