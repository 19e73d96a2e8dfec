/*
 * number.c - one JSON number read on its own, as the DOM parser reads the
 * numbers of a document (the number core, the same value kinds, RAW text
 * for what no int64, uint64 or double holds), for callers that meet number
 * text outside a document: a CSV field, a query parameter, a config line.
 * Its counterpart, tyjson_write_number, lives with the DOM writer.
 */
#include "dom/parse.h"

size_t tyjson_read_number(const char *dat, size_t len, tyjson_read_flags flags,
                          tyjson_val *out, tyjson_error *err) {
    if (!out || (!dat && len)) {
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return 0;
    }
    if (!len) {
        tyjson__err_set(err, TYJSON_E_EMPTY, dat, len, 0);
        return 0;
    }
    const u8 *p = (const u8 *)dat, *end = p + len;
    u8 c = *p;
    if ((flags & TYJSON_READ_ALLOW_INF_NAN) &&
        (c == 'N' || c == 'I' || (c == '-' && len > 1 && p[1] == 'I'))) {
        double d;
        usize n = tyjson__match_inf_nan(p, end, &d);
        if (!n) {
            tyjson__err_set(err, tyjson__inf_nan_status(p, end), dat, len, 0);
            return 0;
        }
        out->tag = TYJSON_TYPE_NUM | TYJSON_SUBTYPE_REAL;
        out->uni.f64 = d;
        tyjson__err_ok(err);
        return n;
    }
    if (c != '-' && (c < '0' || c > '9')) {
        tyjson__err_set(err, TYJSON_E_UNEXPECTED_CHAR, dat, len, 0);
        tyjson__err_msg(err, "expected a number");
        return 0;
    }
    tyjson__num n;
    tyjson_status code;
    const u8 *errpos;
    const u8 *q = tyjson__num_read(p, end, flags & (TYJSON_READ_BIGNUM_AS_RAW | TYJSON_READ_NUMBER_AS_RAW), &n, &code, &errpos);
    if (!q) {
        /* "1." or "-" cut off by the end of the text */
        if (code == TYJSON_E_NUMBER && errpos >= end) code = TYJSON_E_TRUNCATED;
        tyjson__err_set(err, code, dat, len, (usize)(errpos - p));
        return 0;
    }
    usize raw_count = 0;
    store_num(&n, p, q, out, &raw_count);
    tyjson__err_ok(err);
    return (usize)(q - p);
}
