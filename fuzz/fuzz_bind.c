/*
 * fuzz_bind.c - libFuzzer target for the binding decoder (and encoder).
 *
 * Byte 0 picks decode flags (bit 0 BORROW, bit 1 UNKNOWN_ERROR, bit 2 a
 * small max_depth, bit 3 STOP_WHEN_DONE), byte 1 the read relaxations
 * (comments, trailing commas, inf/nan, BOM, invalid UTF-8); the rest is the
 * text, decoded into `everything` (tests/fixtures/bind_types.h), a struct
 * with every kind and shape.
 * Checks, aborting on the first mismatch:
 *   - a failure is well formed (a status, a static message, a path starting
 *     with '$', an offset inside the input, line/column agreeing with it)
 *     and leaves the output zeroed;
 *   - a success encodes (minified, then pretty) and the text decodes again,
 *     strictly, to the same values field by field, walking the descriptors.
 * Encoding may refuse what the input allowed (invalid UTF-8, NaN) and an
 * epoch outside years 0-9999 cannot be written as a date-time: those skip
 * the comparison.
 */
#include "../tests/fixtures/bind_types.h" /* everything_type */
#include "tyjson.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c)                                                                  \
    do {                                                                          \
        if (!(c)) {                                                               \
            fprintf(stderr, "fuzz_bind: check failed: %s (line %d)\n", #c, __LINE__); \
            abort();                                                              \
        }                                                                         \
    } while (0)

/* ----------------------------------------------------------------------------
 * Field-by-field comparison, walking the descriptors
 * ------------------------------------------------------------------------- */
static bool same_double(double a, double b) {
    if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
    return memcmp(&a, &b, sizeof(a)) == 0;
}

static bool same_bytes(const char *a, size_t an, const char *b, size_t bn) {
    return an == bn && (an == 0 || memcmp(a, b, an) == 0);
}

static bool same_struct(const tyjson_struct *t, const char *a, const char *b, int depth);

/* Free-form values holding NaN are never tyjson_equals: compare their text. */
static bool same_text(const tyjson_val *x, const tyjson_val *y) {
    tyjson_write_options w = {TYJSON_WRITE_ALLOW_INF_NAN, 0, NULL};
    size_t nx = 0, ny = 0;
    char *tx = tyjson_val_write_opts(x, &w, &nx, NULL);
    char *ty = tyjson_val_write_opts(y, &w, &ny, NULL);
    bool same = tx && ty && nx == ny && memcmp(tx, ty, nx) == 0;
    free(tx);
    free(ty);
    return same;
}

/* The encoder re-writes RAW text by the write options (minified or
 * indented, numbers as the DOM writer writes them): the same value, not the
 * same bytes. */
static tyjson_read_flags raw_read_flags;
static bool same_raw(tyjson_str x, tyjson_str y) {
    tyjson_doc *dx = tyjson_read(x.ptr, x.len, raw_read_flags | TYJSON_READ_BIGNUM_AS_RAW);
    tyjson_doc *dy = tyjson_read(y.ptr, y.len, TYJSON_READ_BIGNUM_AS_RAW);
    bool same = dx && dy && same_text(tyjson_doc_get_root(dx), tyjson_doc_get_root(dy));
    tyjson_doc_free(dx);
    tyjson_doc_free(dy);
    return same;
}

static bool same_one(const tyjson_field *f, const char *a, const char *b, int depth) {
    switch (f->kind) {
    case TYJSON_K_F32: {
        float x, y;
        memcpy(&x, a, sizeof(x));
        memcpy(&y, b, sizeof(y));
        return same_double(x, y);
    }
    case TYJSON_K_F64: {
        double x, y;
        memcpy(&x, a, sizeof(x));
        memcpy(&y, b, sizeof(y));
        return same_double(x, y);
    }
    case TYJSON_K_STR: case TYJSON_K_RAW: {
        tyjson_str x, y;
        memcpy(&x, a, sizeof(x));
        memcpy(&y, b, sizeof(y));
        if (f->kind == TYJSON_K_RAW) {
            /* empty raw text is written as null */
            if (!x.len) x.ptr = "null", x.len = 4;
            if (!y.len) y.ptr = "null", y.len = 4;
            return same_raw(x, y);
        }
        return same_bytes(x.ptr, x.len, y.ptr, y.len);
    }
    case TYJSON_K_CSTR: {
        const char *x, *y;
        memcpy(&x, a, sizeof(x));
        memcpy(&y, b, sizeof(y));
        if (!x || !y) return (x ? *x : 0) == (y ? *y : 0); /* NULL and "" both write "" */
        return strcmp(x, y) == 0;
    }
    case TYJSON_K_CHARS:
        return strcmp(a, b) == 0;
    case TYJSON_K_STRUCT:
        return same_struct(f->type, a, b, depth + 1);
    case TYJSON_K_PTR: {
        const char *x, *y;
        memcpy(&x, a, sizeof(x));
        memcpy(&y, b, sizeof(y));
        if (!x || !y) return x == y;
        return same_struct(f->type, x, y, depth + 1);
    }
    case TYJSON_K_DATE:
        return memcmp(a, b, 4) == 0 && a[4] == b[4] && a[5] == b[5];
    case TYJSON_K_DATETIME: {
        tyjson_datetime x, y;
        memcpy(&x, a, sizeof(x));
        memcpy(&y, b, sizeof(y));
        return x.date.year == y.date.year && x.date.month == y.date.month &&
               x.date.day == y.date.day && x.hour == y.hour && x.minute == y.minute &&
               x.second == y.second && x.nanosecond == y.nanosecond &&
               x.offset_minutes == y.offset_minutes;
    }
    case TYJSON_K_VALUE: {
        const tyjson_val *x, *y;
        memcpy(&x, a, sizeof(x));
        memcpy(&y, b, sizeof(y));
        /* a NULL member is written as null, which reads back as a null value */
        if (!x || !y) return (!x || tyjson_is_null(x)) && (!y || tyjson_is_null(y));
        return tyjson_equals(x, y) || same_text(x, y); /* NaN != NaN */
    }
    default: /* integers, bool, enum, epoch, custom: the bytes */
        return memcmp(a, b, f->size) == 0;
    }
}

static bool same_struct(const tyjson_struct *t, const char *a, const char *b, int depth) {
    if (depth > 4000) return true;
    for (size_t i = 0; i < t->n_fields; i++) {
        const tyjson_field *f = &t->fields[i];
        const char *ma = a + f->offset, *mb = b + f->offset;
        /* presence flags are not compared: the encoder leaves out zero
         * members with OMIT_EMPTY, and writes every other one */
        if (f->shape == TYJSON_SHAPE_ONE) {
            if (!same_one(f, ma, mb, depth)) return false;
            continue;
        }
        size_t na = f->capacity, nb = f->capacity;
        if (f->count_at) {
            memcpy(&na, a + f->count_at - 1, sizeof(na));
            memcpy(&nb, b + f->count_at - 1, sizeof(nb));
        }
        if (na != nb) return false;
        if (f->shape == TYJSON_SHAPE_DYN) {
            const char *pa, *pb; /* the array pointers held in the members */
            memcpy(&pa, ma, sizeof(pa));
            memcpy(&pb, mb, sizeof(pb));
            ma = pa;
            mb = pb;
            if (!na) continue;
        }
        for (size_t k = 0; k < na; k++)
            if (!same_one(f, ma + k * f->size, mb + k * f->size, depth)) return false;
    }
    return true;
}

/* ----------------------------------------------------------------------------
 * The target
 * ------------------------------------------------------------------------- */
static bool all_zero(const void *p, size_t n) {
    const unsigned char *b = (const unsigned char *)p;
    for (size_t i = 0; i < n; i++)
        if (b[i]) return false;
    return true;
}

static void check_error(const tyjson_error *e, tyjson_status st, const char *text, size_t len) {
    CHECK(st != TYJSON_OK && e->code == st);
    CHECK(e->msg[0] != 0 && strlen(e->msg) < TYJSON_ERROR_MSG_MAX);
    CHECK(e->path[0] == '$');
    CHECK(strlen(e->path) < TYJSON_ERROR_PATH_MAX);
    CHECK(e->offset <= len);
    size_t line, col;
    CHECK(tyjson_locate(text, len, e->offset, &line, &col));
    CHECK(line == e->line && col == e->column);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    tyjson_decode_flags dflags = 0;
    if (data[0] & 1) dflags |= TYJSON_DECODE_BORROW;
    if (data[0] & 2) dflags |= TYJSON_DECODE_UNKNOWN_ERROR;
    if (data[0] & 8) dflags |= TYJSON_DECODE_STOP_WHEN_DONE;
    uint32_t max_depth = (data[0] & 4) ? 3 + (data[0] >> 4) : 0;
    tyjson_read_flags rflags = data[1] & (TYJSON_READ_ALLOW_COMMENTS | TYJSON_READ_ALLOW_TRAILING_COMMAS |
                                          TYJSON_READ_ALLOW_INF_NAN | TYJSON_READ_ALLOW_BOM |
                                          TYJSON_READ_ALLOW_INVALID_UTF8);
    const char *text = (const char *)data + 2;
    size_t len = size - 2;
    raw_read_flags = rflags;

    tyjson_arena arena;
    tyjson_arena_init(&arena, NULL);
    size_t used = (size_t)-1;
    tyjson_decode_options o = {dflags, rflags, max_depth, &used};
    everything *a = (everything *)malloc(sizeof(everything));
    memset(a, 0xA5, sizeof(*a));
    tyjson_error e;
    tyjson_status st = tyjson_decode(&everything_type, a, text, len, &arena, &o, &e);
    if (st != TYJSON_OK) {
        check_error(&e, st, text, len);
        CHECK(all_zero(a, sizeof(*a)));
        free(a);
        tyjson_arena_free(&arena);
        return 0;
    }
    CHECK(e.code == TYJSON_OK && e.path[0] == 0);
    CHECK(used <= len);
    if (!(dflags & TYJSON_DECODE_STOP_WHEN_DONE)) CHECK(used == len);

    /* Encode, decode again strictly (keeping the relaxations the values
     * may need: NaN and raw text with comments), compare. */
    for (int pretty = 0; pretty < 2; pretty++) {
        tyjson_write_options w = {(pretty ? TYJSON_WRITE_PRETTY : 0) | TYJSON_WRITE_ALLOW_INF_NAN, 0, NULL};
        size_t n = 0;
        tyjson_error ee;
        char *out = tyjson_encode(&everything_type, a, &w, &n, &ee);
        if (!out) {
            CHECK(ee.code != TYJSON_OK);
            /* the RAW text must be strict JSON to be written (the input
             * may have relaxed it: comments, NaN, trailing commas) */
            bool excused = ee.code == TYJSON_E_UTF8 || ee.code == TYJSON_E_DATE ||
                           ee.code == TYJSON_E_NAN_INF || strcmp(ee.path, "$.raw") == 0;
            if (!excused) {
                fprintf(stderr, "fuzz_bind: encode failed: %s at %s\n", tyjson_status_name(ee.code), ee.path);
                abort();
            }
            break;
        }
        everything *b = (everything *)malloc(sizeof(everything));
        tyjson_decode_options o2 = {0, rflags & (TYJSON_READ_ALLOW_INF_NAN | TYJSON_READ_ALLOW_COMMENTS |
                                                 TYJSON_READ_ALLOW_TRAILING_COMMAS |
                                                 TYJSON_READ_ALLOW_INVALID_UTF8),
                                    0, NULL};
        tyjson_error e2;
        tyjson_status st2 = tyjson_decode(&everything_type, b, out, n, &arena, &o2, &e2);
        if (st2 != TYJSON_OK) {
            fprintf(stderr, "fuzz_bind: re-decode failed: %s (%s) at %s, offset %zu in:\n%.*s\n",
                    tyjson_status_name(st2), e2.msg, e2.path, e2.offset, (int)n, out);
            abort();
        }
        if (!same_struct(&everything_type, (const char *)a, (const char *)b, 0)) {
            fprintf(stderr, "fuzz_bind: round trip differs:\n%.*s\n", (int)n, out);
            abort();
        }
        free(b);
        free(out);
    }
    free(a);
    tyjson_arena_free(&arena);
    return 0;
}
