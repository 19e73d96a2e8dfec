/*
 * fuzz_bind.c - libFuzzer target for the binding decoder (and encoder).
 *
 * Byte 0 picks decode flags (bit 0 BORROW, bit 1 UNKNOWN_ERROR, bit 2 a
 * small max_depth, bit 3 STOP_WHEN_DONE), byte 1 the read relaxations
 * (comments, trailing commas, inf/nan, BOM, invalid UTF-8); the rest is the
 * text, decoded into `everything`, a struct with every kind and shape.
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
 * The type: every kind, shape and field flag
 * ------------------------------------------------------------------------- */
typedef struct fz_point {
    int32_t x, y;
} fz_point;
static const tyjson_field fz_point_fields[] = {
    TYJSON_FIELD_I32(fz_point, x, "x"),
    TYJSON_FIELD_I32(fz_point, y, "y", .flags = TYJSON_F_NULLABLE),
};
static tyjson_struct fz_point_type = TYJSON_STRUCT(fz_point, fz_point_fields, 0);

typedef struct fz_node {
    int16_t v;
    struct fz_node *next;
} fz_node;
static tyjson_struct fz_node_type;
static const tyjson_field fz_node_fields[] = {
    TYJSON_FIELD_I16(fz_node, v, "v"),
    TYJSON_FIELD_PTR(fz_node, next, "next", &fz_node_type),
};
static tyjson_struct fz_node_type = TYJSON_STRUCT(fz_node, fz_node_fields, 0);

typedef struct fz_list {
    fz_point *items;
    size_t n;
} fz_list;
static const tyjson_field fz_list_fields[] = {
    TYJSON_FIELD_DYN(fz_list, items, "items", n, TYJSON_K_STRUCT, .type = &fz_point_type),
};
static tyjson_struct fz_list_type = TYJSON_STRUCT(fz_list, fz_list_fields, TYJSON_T_ARRAY);

typedef struct fz_strict {
    uint8_t a;
    tyjson_str b;
} fz_strict;
static const tyjson_field fz_strict_fields[] = {
    TYJSON_FIELD_U8(fz_strict, a, "a", .flags = TYJSON_F_REQUIRED),
    TYJSON_FIELD_STR(fz_strict, b, "b"),
};
static tyjson_struct fz_strict_type =
    TYJSON_STRUCT(fz_strict, fz_strict_fields, TYJSON_T_UNKNOWN_ERROR | TYJSON_T_DUPLICATE_ERROR);

static tyjson_status hex_decode(void *ctx, const tyjson_val *val, void *member, tyjson_arena *a) {
    (void)ctx;
    (void)a;
    if (!tyjson_is_str(val) || tyjson_get_len(val) > 16) return TYJSON_E_TYPE;
    const char *s = tyjson_get_str(val);
    uint64_t v = 0;
    for (size_t i = 0; i < tyjson_get_len(val); i++) {
        int c = (unsigned char)s[i];
        int h = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (h < 0) return TYJSON_E_TYPE;
        v = v * 16 + (uint64_t)h;
    }
    memcpy(member, &v, sizeof(v));
    return TYJSON_OK;
}
static tyjson_status hex_encode(void *ctx, const void *member, tyjson_write_fn write, void *wctx) {
    uint64_t v;
    char buf[24];
    (void)ctx;
    memcpy(&v, member, sizeof(v));
    int n = snprintf(buf, sizeof(buf), "\"%llx\"", (unsigned long long)v);
    return write(wctx, buf, (size_t)n) ? TYJSON_E_CALLBACK : TYJSON_OK;
}
static const tyjson_codec hex_codec = {hex_decode, hex_encode, NULL};

static const tyjson_enum_entry fz_colors[] = {{"red", 1}, {"green", -2}, {"blue", 100}};
static const char *const b_aliases[] = {"B", "bool", NULL};

typedef struct everything {
    bool b;
    int8_t i8;
    int16_t i16;
    int32_t i32;
    int64_t i64;
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;
    float f32;
    double f64;
    tyjson_str str;
    char *cstr;
    char chars[8];
    int8_t color;
    fz_point pt;
    fz_node *node;
    tyjson_date date;
    tyjson_datetime dt;
    int64_t ms, ns;
    tyjson_val *val;
    tyjson_str raw;
    uint64_t hex;
    int32_t fixed[3];
    size_t n_fixed;
    tyjson_str *tags;
    size_t n_tags;
    fz_point *pts;
    size_t n_pts;
    fz_point **pps;
    size_t n_pps;
    fz_list list;
    fz_strict strict;
    bool has_opt;
    int32_t opt;
    double dflt;
} everything;
static const tyjson_field everything_fields[] = {
    TYJSON_FIELD_BOOL(everything, b, "b", .aliases = b_aliases),
    TYJSON_FIELD_I8(everything, i8, "i8"),
    TYJSON_FIELD_I16(everything, i16, "i16"),
    TYJSON_FIELD_I32(everything, i32, "i32"),
    TYJSON_FIELD_I64(everything, i64, "i64"),
    TYJSON_FIELD_U8(everything, u8, "u8"),
    TYJSON_FIELD_U16(everything, u16, "u16"),
    TYJSON_FIELD_U32(everything, u32, "u32"),
    TYJSON_FIELD_U64(everything, u64, "u64"),
    TYJSON_FIELD_F32(everything, f32, "f32"),
    TYJSON_FIELD_F64(everything, f64, "f64"),
    TYJSON_FIELD_STR(everything, str, "str", .flags = TYJSON_F_NULLABLE),
    TYJSON_FIELD_CSTR(everything, cstr, "cstr"),
    TYJSON_FIELD_CHARS(everything, chars, "chars"),
    TYJSON_FIELD_ENUM(everything, color, "color", fz_colors, .flags = TYJSON_F_OMIT_EMPTY),
    TYJSON_FIELD_STRUCT(everything, pt, "pt", &fz_point_type),
    TYJSON_FIELD_PTR(everything, node, "node", &fz_node_type),
    TYJSON_FIELD_DATE(everything, date, "date", .flags = TYJSON_F_OMIT_EMPTY),
    TYJSON_FIELD_DATETIME(everything, dt, "dt", .flags = TYJSON_F_OMIT_EMPTY),
    TYJSON_FIELD_EPOCH_MS(everything, ms, "ms"),
    TYJSON_FIELD_EPOCH_NS(everything, ns, "ns", .flags = TYJSON_F_EPOCH_NUMBER),
    TYJSON_FIELD_VALUE(everything, val, "val"),
    TYJSON_FIELD_RAW(everything, raw, "raw"),
    TYJSON_FIELD_CUSTOM(everything, hex, "hex", &hex_codec),
    TYJSON_FIELD_FIXED(everything, fixed, "fixed", n_fixed, TYJSON_K_I32),
    TYJSON_FIELD_DYN(everything, tags, "tags", n_tags, TYJSON_K_STR),
    TYJSON_FIELD_DYN(everything, pts, "pts", n_pts, TYJSON_K_STRUCT, .type = &fz_point_type),
    TYJSON_FIELD_DYN(everything, pps, "pps", n_pps, TYJSON_K_PTR, .type = &fz_point_type),
    TYJSON_FIELD_STRUCT(everything, list, "list", &fz_list_type),
    TYJSON_FIELD_STRUCT(everything, strict, "strict", &fz_strict_type),
    /* (the presence flag alone decides: OMIT_EMPTY with it is refused) */
    TYJSON_FIELD_I32(everything, opt, "opt", TYJSON_PRESENT(everything, has_opt)),
    TYJSON_FIELD_F64(everything, dflt, "dflt", TYJSON_DEFAULT_F(2.5), .flags = TYJSON_F_NULLABLE),
};
static tyjson_struct everything_type = TYJSON_STRUCT(everything, everything_fields, 0);

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
