/*
 * fuzz_parse.c - libFuzzer target for the DOM parser and the writers.
 *
 * Byte 0 is the read flags (every TYJSON_READ_* combination), byte 1 the
 * write flags (bits 0-5) and the indent (bits 6-7); the rest is the text.
 * Checks, aborting on the first mismatch:
 *   - a failure is well formed (code, offset inside the input, line/column
 *     agreeing with the offset);
 *   - with STOP_WHEN_DONE, the consumed prefix parses alone to the same value,
 *     and input that is one whole value parses the same with or without it;
 *   - the document writes minified and pretty, and the text is strict JSON
 *     (only NaN/Infinity when written with ALLOW_INF_NAN, raw big numbers
 *     with BIGNUM_AS_RAW) that reads back to the same document, numbers bit
 *     for bit; the writer refuses exactly the strings that are not UTF-8;
 *   - the mutable copy writes the same text, and its immutable copy is equal.
 * NaN != NaN, so documents holding a NaN skip the equality checks.
 */
#include "tyjson.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c)                                                                   \
    do {                                                                           \
        if (!(c)) {                                                                \
            fprintf(stderr, "fuzz_parse: check failed: %s (line %d)\n", #c, __LINE__); \
            abort();                                                               \
        }                                                                          \
    } while (0)

/* ----------------------------------------------------------------------------
 * Oracles
 * ------------------------------------------------------------------------- */

/* RFC 3629 UTF-8: no overlong forms, no surrogates, nothing above U+10FFFF. */
static bool utf8_valid(const unsigned char *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        unsigned c = s[i];
        size_t k;
        unsigned lo = 0x80, hi = 0xBF;
        if (c < 0x80) {
            i++;
            continue;
        } else if (c >= 0xC2 && c <= 0xDF) {
            k = 1;
        } else if (c >= 0xE0 && c <= 0xEF) {
            k = 2;
            if (c == 0xE0) lo = 0xA0;
            if (c == 0xED) hi = 0x9F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            k = 3;
            if (c == 0xF0) lo = 0x90;
            if (c == 0xF4) hi = 0x8F;
        } else {
            return false;
        }
        if (n - i <= k) return false;
        if (s[i + 1] < lo || s[i + 1] > hi) return false;
        for (size_t j = 2; j <= k; j++)
            if ((s[i + j] & 0xC0) != 0x80) return false;
        i += k + 1;
    }
    return true;
}

typedef struct doc_facts {
    bool has_nan;
    bool has_inf;
    bool has_bad_utf8;
} doc_facts;

/* A document is one array in document order: one pass sees every value. */
static doc_facts facts_of(const tyjson_doc *doc) {
    doc_facts f = {false, false, false};
    const tyjson_val *root = tyjson_doc_get_root(doc);
    size_t n = tyjson_is_ctn(root) ? root->uni.ofs : 1;
    CHECK(n == tyjson_doc_get_val_count(doc));
    for (size_t i = 0; i < n; i++) {
        const tyjson_val *v = root + i;
        if (tyjson_is_real(v)) {
            if (isnan(v->uni.f64)) f.has_nan = true;
            if (isinf(v->uni.f64)) f.has_inf = true;
        } else if (tyjson_is_str(v)) {
            if (!utf8_valid((const unsigned char *)v->uni.str, tyjson_get_len(v))) f.has_bad_utf8 = true;
        }
    }
    return f;
}

/* Same structure, same string bytes, integers by value, doubles by bits. */
static bool exact_same(const tyjson_doc *da, const tyjson_doc *db) {
    const tyjson_val *a = tyjson_doc_get_root(da), *b = tyjson_doc_get_root(db);
    if (tyjson_doc_get_val_count(da) != tyjson_doc_get_val_count(db)) return false;
    size_t n = tyjson_doc_get_val_count(da);
    for (size_t i = 0; i < n; i++) {
        const tyjson_val *x = a + i, *y = b + i;
        if (tyjson_get_type(x) != tyjson_get_type(y)) return false;
        switch (tyjson_get_type(x)) {
        case TYJSON_TYPE_STR:
        case TYJSON_TYPE_RAW:
            if (!(tyjson_get_len(x) == tyjson_get_len(y) &&
                  memcmp(x->uni.str, y->uni.str, tyjson_get_len(x)) == 0))
                return false;
            break;
        case TYJSON_TYPE_NUM:
            if (tyjson_is_real(x) != tyjson_is_real(y)) return false;
            if (tyjson_is_real(x) ? memcmp(&x->uni.f64, &y->uni.f64, sizeof(double)) != 0
                                  : (x->uni.u64 != y->uni.u64 || tyjson_is_sint(x) != tyjson_is_sint(y)))
                return false;
            break;
        case TYJSON_TYPE_BOOL:
            if (tyjson_get_bool(x) != tyjson_get_bool(y)) return false;
            break;
        case TYJSON_TYPE_ARR:
        case TYJSON_TYPE_OBJ:
            if (tyjson_get_len(x) != tyjson_get_len(y) || x->uni.ofs != y->uni.ofs) return false;
            break;
        default:
            break;
        }
    }
    return true;
}

static void check_error(const tyjson_error *err, const char *dat, size_t len) {
    size_t line = 0, col = 0;
    CHECK(err->code != TYJSON_OK);
    CHECK(err->msg[0] != 0 && strlen(err->msg) < TYJSON_ERROR_MSG_MAX);
    CHECK(strchr(err->msg, '\n') == NULL); /* one line, whatever the input */
    CHECK(err->offset <= len);
    CHECK(err->line >= 1 && err->column >= 1);
    CHECK(tyjson_locate(dat, len, err->offset, &line, &col));
    CHECK(line == err->line && col == err->column);
}

/* ----------------------------------------------------------------------------
 * One write form
 * ------------------------------------------------------------------------- */
static void check_write(const tyjson_doc *doc, const doc_facts *facts, tyjson_read_flags rflags,
                        tyjson_write_flags wflags, uint32_t indent) {
    tyjson_write_options wo = {wflags, indent, NULL};
    tyjson_error err;
    size_t len = 0;
    char *text = tyjson_write_opts(doc, &wo, &len, &err);
    bool nonfinite = facts->has_nan || facts->has_inf;
    bool want_nan_err = nonfinite && !(wflags & TYJSON_WRITE_ALLOW_INF_NAN);
    bool want_utf8_err = facts->has_bad_utf8 && !(wflags & TYJSON_WRITE_REPLACE_INVALID_UTF8);
    if (!text) {
        /* Only these two refusals exist for a parsed document. */
        CHECK((err.code == TYJSON_E_NAN_INF && want_nan_err) ||
              (err.code == TYJSON_E_UTF8 && want_utf8_err));
        return;
    }
    CHECK(!want_nan_err && !want_utf8_err);
    CHECK(memchr(text, 0, len) == NULL && text[len] == 0);
    if (wflags & TYJSON_WRITE_ESCAPE_UNICODE)
        for (size_t i = 0; i < len; i++) CHECK((unsigned char)text[i] < 0x80);
    CHECK(utf8_valid((const unsigned char *)text, len));

    /* The text must be strict JSON but for what the flags allow. */
    tyjson_read_flags back_flags = rflags & (TYJSON_READ_BIGNUM_AS_RAW | TYJSON_READ_REJECT_DUPLICATE_KEYS);
    if (wflags & TYJSON_WRITE_ALLOW_INF_NAN) back_flags |= TYJSON_READ_ALLOW_INF_NAN;
    /* U+FFFD for bad bytes can make distinct keys equal ("\x99" and "\xe1"). */
    if (facts->has_bad_utf8) back_flags &= ~TYJSON_READ_REJECT_DUPLICATE_KEYS;
    tyjson_read_options ro = {back_flags, 0, NULL};
    tyjson_doc *back = tyjson_read_opts(text, len, &ro, &err);
    if (!back) {
        fprintf(stderr, "fuzz_parse: written text does not parse (%s at %zu): %.*s\n",
                tyjson_status_name(err.code), err.offset, (int)(len > 200 ? 200 : len), text);
        abort();
    }
    bool replaced = facts->has_bad_utf8; /* U+FFFD stands in for bad bytes */
    if (!facts->has_nan && !replaced) {
        CHECK(tyjson_equals(tyjson_doc_get_root(doc), tyjson_doc_get_root(back)));
        CHECK(exact_same(doc, back));
    }

    /* The buffer writer gives the same text and reports a short buffer. */
    char *buf = (char *)malloc(len + 1);
    if (buf) {
        CHECK(tyjson_val_write_buf(tyjson_doc_get_root(doc), buf, len + 1, &wo, &err) == len);
        CHECK(memcmp(buf, text, len) == 0 && buf[len] == 0);
        if (len > 0) {
            CHECK(tyjson_val_write_buf(tyjson_doc_get_root(doc), buf, len, &wo, &err) >= len);
            CHECK(err.code == TYJSON_E_BUF_TOO_SMALL);
        }
        free(buf);
    }

    /* The mutable copy writes the same bytes. */
    tyjson_mut_doc *mut = tyjson_doc_mut_copy(doc, NULL);
    if (mut) {
        size_t mlen = 0;
        char *mtext = tyjson_mut_write_opts(mut, &wo, &mlen, &err);
        CHECK(mtext != NULL);
        CHECK(mlen == len && memcmp(mtext, text, len) == 0);
        free(mtext);
        tyjson_doc *imut = tyjson_mut_doc_imut_copy(mut, NULL);
        if (imut) {
            if (!facts->has_nan) CHECK(exact_same(doc, imut));
            tyjson_doc_free(imut);
        }
        tyjson_mut_doc_free(mut);
    }
    tyjson_doc_free(back);
    free(text);
}

/* ----------------------------------------------------------------------------
 * Entry point
 * ------------------------------------------------------------------------- */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const uint32_t indents[4] = {0, 1, 4, 8};
    if (size < 2) return 0;
    tyjson_read_flags rflags = data[0];
    tyjson_write_flags wflags = data[1] & 0x3Fu;
    uint32_t indent = indents[data[1] >> 6];
    const char *dat = (const char *)data + 2;
    size_t len = size - 2;

    tyjson_read_options ro = {rflags, 0, NULL};
    tyjson_error err;
    tyjson_doc *doc = tyjson_read_opts(dat, len, &ro, &err);
    if (!doc) {
        check_error(&err, dat, len);
        CHECK(err.code != TYJSON_E_NOMEM);
        if (rflags & TYJSON_READ_STOP_WHEN_DONE) {
            /* Input that is one whole value is also a valid first value. */
            tyjson_read_options wo = {rflags & ~TYJSON_READ_STOP_WHEN_DONE, 0, NULL};
            tyjson_error werr;
            tyjson_doc *whole = tyjson_read_opts(dat, len, &wo, &werr);
            if (whole) {
                fprintf(stderr, "fuzz_parse: fails with STOP_WHEN_DONE (%s at %zu) but parses without\n",
                        tyjson_status_name(err.code), err.offset);
                abort();
            }
            /* ... and fails just as the plain parse does. */
            CHECK(werr.code == err.code && werr.offset == err.offset && !strcmp(werr.msg, err.msg));
        }
        return 0;
    }
    CHECK(err.code == TYJSON_OK);
    size_t used = tyjson_doc_get_read_size(doc);
    CHECK(used <= len);
    if (!(rflags & TYJSON_READ_STOP_WHEN_DONE)) {
        CHECK(used == len);
        /* STOP_WHEN_DONE changes nothing for input that is one value. */
        tyjson_read_options so = {rflags | TYJSON_READ_STOP_WHEN_DONE, 0, NULL};
        tyjson_doc *first = tyjson_read_opts(dat, len, &so, &err);
        if (!first) {
            fprintf(stderr, "fuzz_parse: parses, but fails with STOP_WHEN_DONE: %s at %zu\n",
                    tyjson_status_name(err.code), err.offset);
            abort();
        }
        /* Trailing comments need not count as consumed. */
        if (!(rflags & TYJSON_READ_ALLOW_COMMENTS)) CHECK(tyjson_doc_get_read_size(first) == len);
        if (!facts_of(doc).has_nan) CHECK(exact_same(doc, first));
        tyjson_doc_free(first);
    } else {
        /* The consumed prefix alone is the same document. */
        tyjson_read_options po = {rflags & ~TYJSON_READ_STOP_WHEN_DONE, 0, NULL};
        tyjson_doc *pre = tyjson_read_opts(dat, used, &po, &err);
        if (!pre) {
            fprintf(stderr, "fuzz_parse: STOP_WHEN_DONE prefix of %zu bytes fails: %s at %zu\n",
                    used, tyjson_status_name(err.code), err.offset);
            abort();
        }
        if (!facts_of(doc).has_nan) CHECK(exact_same(doc, pre));
        tyjson_doc_free(pre);
    }

    doc_facts facts = facts_of(doc);
    if (facts.has_nan || facts.has_inf) CHECK(rflags & TYJSON_READ_ALLOW_INF_NAN);
    if (facts.has_bad_utf8) CHECK(rflags & TYJSON_READ_ALLOW_INVALID_UTF8);

    check_write(doc, &facts, rflags, wflags & ~TYJSON_WRITE_PRETTY, indent);
    check_write(doc, &facts, rflags, wflags | TYJSON_WRITE_PRETTY, indent);
    tyjson_doc_free(doc);
    return 0;
}
