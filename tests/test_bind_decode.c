/* test_bind_decode.c - the binding decoder (tyjson_decode): every kind,
 * shape and flag; every error with its exact status, message, JSON path,
 * offset, line and column; truncation at every byte; nesting limits;
 * arena behaviour (allocation-failure sweep, steady state without
 * allocations); descriptor checks; key hashing; the scenario files. */
#include "test.h"
#include "fixtures/bind_types.h" /* ints, point, point_list, reals, node */
#include "tyjson.h"
#include "bind/bind.h"

#include <float.h>
#include <math.h>

/* ----------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------- */
static tyjson_arena arena;
static tyjson_error err;

static void fresh_arena(void) {
    tyjson_arena_free(&arena);
    tyjson_arena_init(&arena, NULL);
}

static tyjson_status dec_opts(tyjson_struct *t, void *out, const char *json,
                              const tyjson_decode_options *o) {
    return tyjson_decode(t, out, json, strlen(json), &arena, o, &err);
}
static tyjson_status dec(tyjson_struct *t, void *out, const char *json) {
    return dec_opts(t, out, json, NULL);
}

static bool all_zero(const void *p, size_t n) {
    const unsigned char *b = (const unsigned char *)p;
    for (size_t i = 0; i < n; i++)
        if (b[i]) return false;
    return true;
}

/* Decodes json expecting failure: checks code, path, line, column (0 = do
 * not check), message (NULL = do not check) and that the output is zero. */
static void expect_err_at(const char *file, int line_no, tyjson_struct *t, const char *json,
                          const tyjson_decode_options *o, tyjson_status code, const char *path,
                          size_t line, size_t col, const char *msg) {
    unsigned char out[1024];
    memset(out, 0xAB, sizeof(out));
    if (t->size > sizeof(out)) TEST_FAIL_AT(file, line_no, "type too large for the test buffer");
    tyjson_status st = tyjson_decode(t, out, json, strlen(json), &arena, o, &err);
    if (st != code || err.code != code)
        TEST_FAIL_AT(file, line_no, "status %s (err %s, %s at %s), want %s", tyjson_status_name(st),
                     tyjson_status_name(err.code), err.msg, err.path, tyjson_status_name(code));
    if (path && strcmp(err.path, path) != 0)
        TEST_FAIL_AT(file, line_no, "path \"%s\", want \"%s\"", err.path, path);
    if (line && (err.line != line || err.column != col))
        TEST_FAIL_AT(file, line_no, "at %zu:%zu, want %zu:%zu", err.line, err.column, line, col);
    if (msg && strcmp(err.msg, msg) != 0)
        TEST_FAIL_AT(file, line_no, "message \"%s\", want \"%s\"", err.msg, msg);
    if (!all_zero(out, t->size)) TEST_FAIL_AT(file, line_no, "output not zeroed");
    if (!err.msg[0]) TEST_FAIL_AT(file, line_no, "empty message");
}
#define EXPECT_ERR(t, json, code, path, line, col, msg) \
    expect_err_at(__FILE__, __LINE__, (t), (json), NULL, (code), (path), (line), (col), (msg))
#define EXPECT_ERR_OPTS(t, json, o, code, path, line, col, msg) \
    expect_err_at(__FILE__, __LINE__, (t), (json), (o), (code), (path), (line), (col), (msg))

#define ASSERT_OK(st)                                                          \
    do {                                                                       \
        tyjson_status st__ = (st);                                             \
        if (st__ != TYJSON_OK)                                                 \
            TEST_FAIL("%s: %s at %s (%zu:%zu)", tyjson_status_name(st__), err.msg, err.path, \
                      err.line, err.column);                                   \
    } while (0)

static bool str_is(tyjson_str s, const char *want) {
    return s.len == strlen(want) && memcmp(s.ptr, want, s.len) == 0;
}
#define ASSERT_STR(s, want)                                                    \
    do {                                                                       \
        tyjson_str s__ = (s);                                                  \
        if (!str_is(s__, want))                                                \
            TEST_FAIL("%s: \"%.*s\" != \"%s\"", #s, (int)s__.len, s__.ptr ? s__.ptr : "", want); \
    } while (0)

/* ----------------------------------------------------------------------------
 * Types (besides the shared fixtures of fixtures/bind_types.h)
 * ------------------------------------------------------------------------- */
typedef struct simple {
    tyjson_str name;
    int32_t age;
    bool active;
    double score;
} simple;
static const char *const name_aliases[] = {"fullName", "n", NULL};
static const tyjson_field simple_fields[] = {
    TYJSON_FIELD_STR(simple, name, "name", .aliases = name_aliases),
    TYJSON_FIELD_I32(simple, age, "age"),
    TYJSON_FIELD_BOOL(simple, active, "active"),
    TYJSON_FIELD_F64(simple, score, "score"),
};
static tyjson_struct simple_type = TYJSON_STRUCT(simple, simple_fields, 0);

typedef struct strs {
    tyjson_str s;
    char *c;
    char ch[8];
} strs;
static const tyjson_field strs_fields[] = {
    TYJSON_FIELD_STR(strs, s, "s"),
    TYJSON_FIELD_CSTR(strs, c, "c"),
    TYJSON_FIELD_CHARS(strs, ch, "ch"),
};
static tyjson_struct strs_type = TYJSON_STRUCT(strs, strs_fields, 0);

static const tyjson_enum_entry colors[] = {{"red", 1}, {"green", 2}, {"blue", -7}, {"", 9}};
typedef struct paint {
    int32_t c32;
    int8_t c8;
    int64_t c64;
    int16_t c16;
} paint;
static const tyjson_field paint_fields[] = {
    TYJSON_FIELD_ENUM(paint, c32, "c32", colors),
    TYJSON_FIELD_ENUM(paint, c8, "c8", colors),
    TYJSON_FIELD_ENUM(paint, c64, "c64", colors),
    TYJSON_FIELD_ENUM(paint, c16, "c16", colors),
};
static tyjson_struct paint_type = TYJSON_STRUCT(paint, paint_fields, 0);

typedef struct shape {
    point at;
    point *ref;
    point maybe;
} shape;
static const tyjson_field shape_fields[] = {
    TYJSON_FIELD_STRUCT(shape, at, "at", &point_type),
    TYJSON_FIELD_PTR(shape, ref, "ref", &point_type),
    TYJSON_FIELD_STRUCT(shape, maybe, "maybe", &point_type, .flags = TYJSON_F_NULLABLE),
};
static tyjson_struct shape_type = TYJSON_STRUCT(shape, shape_fields, 0);

typedef struct times {
    tyjson_date day;
    tyjson_datetime at;
    int64_t ms, ns;
} times;
static const tyjson_field times_fields[] = {
    TYJSON_FIELD_DATE(times, day, "day"),
    TYJSON_FIELD_DATETIME(times, at, "at"),
    TYJSON_FIELD_EPOCH_MS(times, ms, "ms"),
    TYJSON_FIELD_EPOCH_NS(times, ns, "ns"),
};
static tyjson_struct times_type = TYJSON_STRUCT(times, times_fields, 0);

/* A codec: "0x1f" hex strings <-> int64. */
static tyjson_status hex_decode(void *ctx, const tyjson_val *val, void *member,
                                tyjson_arena *a) {
    (void)ctx;
    (void)a;
    if (!tyjson_is_str(val)) return TYJSON_E_TYPE;
    const char *s = tyjson_get_str(val);
    size_t n = tyjson_get_len(val);
    if (n < 3 || s[0] != '0' || s[1] != 'x') return TYJSON_E_NUMBER;
    int64_t v = 0;
    for (size_t i = 2; i < n; i++) {
        int c = s[i];
        int h = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (h < 0) return TYJSON_E_NUMBER;
        v = v * 16 + h;
    }
    memcpy(member, &v, sizeof(v));
    return TYJSON_OK;
}
static tyjson_status hex_encode(void *ctx, const void *member, tyjson_write_fn write,
                                void *wctx) {
    char buf[32];
    int64_t v;
    (void)ctx;
    memcpy(&v, member, sizeof(v));
    int n = snprintf(buf, sizeof(buf), "\"0x%llx\"", (unsigned long long)v);
    return write(wctx, buf, (size_t)n) ? TYJSON_E_CALLBACK : TYJSON_OK;
}
static const tyjson_codec hex_codec = {hex_decode, hex_encode, NULL};

typedef struct free_form {
    tyjson_val *v;
    tyjson_str raw;
    int64_t hex;
} free_form;
static const tyjson_field free_form_fields[] = {
    TYJSON_FIELD_VALUE(free_form, v, "v"),
    TYJSON_FIELD_RAW(free_form, raw, "raw"),
    TYJSON_FIELD_CUSTOM(free_form, hex, "hex", &hex_codec),
};
static tyjson_struct free_form_type = TYJSON_STRUCT(free_form, free_form_fields, 0);

typedef struct arrays {
    int32_t fixed[4];
    size_t n_fixed;
    tyjson_str *tags;
    size_t n_tags;
    point *pts;
    size_t n_pts;
    point **refs;
    size_t n_refs;
    char names[3][6];
    size_t n_names;
    double *nums;
    size_t n_nums;
} arrays;
static const tyjson_field arrays_fields[] = {
    TYJSON_FIELD_FIXED(arrays, fixed, "fixed", n_fixed, TYJSON_K_I32),
    TYJSON_FIELD_DYN(arrays, tags, "tags", n_tags, TYJSON_K_STR),
    TYJSON_FIELD_DYN(arrays, pts, "pts", n_pts, TYJSON_K_STRUCT, .type = &point_type),
    TYJSON_FIELD_DYN(arrays, refs, "refs", n_refs, TYJSON_K_PTR, .type = &point_type),
    TYJSON_FIELD_FIXED(arrays, names, "names", n_names, TYJSON_K_CHARS),
    TYJSON_FIELD_DYN(arrays, nums, "nums", n_nums, TYJSON_K_F64, .flags = TYJSON_F_NULLABLE),
};
static tyjson_struct arrays_type = TYJSON_STRUCT(arrays, arrays_fields, 0);

typedef struct matrix {
    point_list *rows;
    size_t n_rows;
    point_list *maybe;
} matrix;
static const tyjson_field matrix_fields[] = {
    TYJSON_FIELD_DYN(matrix, rows, "rows", n_rows, TYJSON_K_STRUCT, .type = &point_list_type),
    TYJSON_FIELD_PTR(matrix, maybe, "maybe", &point_list_type),
};
static tyjson_struct matrix_type = TYJSON_STRUCT(matrix, matrix_fields, 0);

typedef struct opts_t {
    tyjson_str id;
    int32_t count;
    bool has_count;
    double ratio;
    tyjson_str label;
    char *cs;
    char tag[8];
    uint16_t port;
    int8_t level;
    bool on;
    int32_t color;
    tyjson_date day;
    tyjson_datetime at;
    int64_t ms;
    int32_t nullable_num;
    tyjson_str raw;
} opts_t;
static const tyjson_field opts_fields[] = {
    TYJSON_FIELD_STR(opts_t, id, "id", .flags = TYJSON_F_REQUIRED),
    TYJSON_FIELD_I32(opts_t, count, "count", TYJSON_PRESENT(opts_t, has_count), TYJSON_DEFAULT_I(-5)),
    TYJSON_FIELD_F64(opts_t, ratio, "ratio", TYJSON_DEFAULT_F(0.25)),
    TYJSON_FIELD_STR(opts_t, label, "label", TYJSON_DEFAULT_S("none"), .flags = TYJSON_F_NULLABLE),
    TYJSON_FIELD_CSTR(opts_t, cs, "cs", TYJSON_DEFAULT_S("dflt")),
    TYJSON_FIELD_CHARS(opts_t, tag, "tag", TYJSON_DEFAULT_S("t1")),
    TYJSON_FIELD_U16(opts_t, port, "port", TYJSON_DEFAULT_U(8080)),
    TYJSON_FIELD_I8(opts_t, level, "level", TYJSON_DEFAULT_I(-3)),
    TYJSON_FIELD_BOOL(opts_t, on, "on", TYJSON_DEFAULT_B(true)),
    TYJSON_FIELD_ENUM(opts_t, color, "color", colors, TYJSON_DEFAULT_I(2)),
    TYJSON_FIELD_DATE(opts_t, day, "day", TYJSON_DEFAULT_S("2000-01-02")),
    TYJSON_FIELD_DATETIME(opts_t, at, "at", TYJSON_DEFAULT_S("2000-01-02T03:04:05.5+01:00")),
    TYJSON_FIELD_EPOCH_MS(opts_t, ms, "ms", TYJSON_DEFAULT_I(1234)),
    TYJSON_FIELD_I32(opts_t, nullable_num, "nn", .flags = TYJSON_F_NULLABLE),
    TYJSON_FIELD_RAW(opts_t, raw, "raw", TYJSON_DEFAULT_S("[1]")),
};
static tyjson_struct opts_type = TYJSON_STRUCT(opts_t, opts_fields, 0);

typedef struct strict_t {
    int32_t a;
    int32_t b;
} strict_t;
static const tyjson_field strict_fields[] = {
    TYJSON_FIELD_I32(strict_t, a, "a"),
    TYJSON_FIELD_I32(strict_t, b, "b"),
};
static tyjson_struct strict_type =
    TYJSON_STRUCT(strict_t, strict_fields, TYJSON_T_UNKNOWN_ERROR | TYJSON_T_DUPLICATE_ERROR);

typedef struct holder {
    strict_t inner;
    simple plain;
} holder;
static const tyjson_field holder_fields[] = {
    TYJSON_FIELD_STRUCT(holder, inner, "inner", &strict_type),
    TYJSON_FIELD_STRUCT(holder, plain, "plain", &simple_type),
};
static tyjson_struct holder_type = TYJSON_STRUCT(holder, holder_fields, 0);

typedef struct odd {
    int32_t a, b, c, d;
    uint8_t u;
} odd;
static const tyjson_field odd_fields[] = {
    TYJSON_FIELD_I32(odd, a, "odd key"),
    TYJSON_FIELD_I32(odd, b, "q\"uote"),
    TYJSON_FIELD_I32(odd, c, "caf\xc3\xa9"),
    TYJSON_FIELD_I32(odd, d, ""),
    TYJSON_FIELD_U8(odd, u, "9lives"),
};
static tyjson_struct odd_type = TYJSON_STRUCT(odd, odd_fields, 0);

/* ----------------------------------------------------------------------------
 * Basics: every kind
 * ------------------------------------------------------------------------- */
TEST(simple_object) {
    fresh_arena();
    simple s;
    ASSERT_OK(dec(&simple_type, &s, "{\"name\":\"Alice\",\"age\":30,\"active\":true,\"score\":95.5}"));
    ASSERT_STR(s.name, "Alice");
    ASSERT_EQ_INT(s.name.ptr[5], 0); /* NUL-terminated in the arena */
    ASSERT_EQ_INT(s.age, 30);
    ASSERT_TRUE(s.active);
    ASSERT_EQ_DBL_BITS(s.score, 95.5);
    ASSERT_EQ_INT(err.code, TYJSON_OK);
    ASSERT_EQ_STR(err.path, "");
}

TEST(key_order_and_whitespace) {
    fresh_arena();
    static const char *const docs[] = {
        "{\"score\":95.5,\"active\":true,\"age\":30,\"name\":\"Alice\"}",
        "{\"age\":30,\"score\":95.5,\"name\":\"Alice\",\"active\":true}",
        " \t\r\n{ \"name\" : \"Alice\" ,\n  \"age\"\n:\n30,\"active\":true , \"score\": 95.5 }\n ",
        "{\n  \"name\": \"Alice\",\n  \"age\": 30,\n  \"active\": true,\n  \"score\": 95.5\n}",
        "{\"n\":\"Alice\",\"age\":30,\"active\":true,\"score\":95.5}",
        "{\"fullName\":\"Alice\",\"age\":30,\"active\":true,\"score\":95.5}",
    };
    for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
        simple s;
        ASSERT_OK(dec(&simple_type, &s, docs[i]));
        ASSERT_STR(s.name, "Alice");
        ASSERT_EQ_INT(s.age, 30);
        ASSERT_TRUE(s.active);
        ASSERT_EQ_DBL_BITS(s.score, 95.5);
    }
}

TEST(reversed_order_arrays) {
    /* The key predictor learns the order per object and per array. */
    fresh_arena();
    char buf[8192];
    size_t n = 0;
    n += (size_t)snprintf(buf + n, sizeof(buf) - n, "[");
    for (int i = 0; i < 100; i++)
        n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s{\"y\":%d,\"x\":%d}", i ? "," : "", -i, i);
    snprintf(buf + n, sizeof(buf) - n, "]");
    point_list l;
    ASSERT_OK(dec(&point_list_type, &l, buf));
    ASSERT_EQ_UINT(l.n, 100);
    for (int i = 0; i < 100; i++) {
        ASSERT_EQ_INT(l.items[i].x, i);
        ASSERT_EQ_INT(l.items[i].y, -i);
    }
    /* mixed orders within one array */
    ASSERT_OK(dec(&point_list_type, &l, "[{\"x\":1,\"y\":2},{\"y\":4,\"x\":3},{\"x\":5,\"y\":6},{\"y\":8},{}]"));
    ASSERT_EQ_UINT(l.n, 5);
    ASSERT_EQ_INT(l.items[1].x, 3);
    ASSERT_EQ_INT(l.items[1].y, 4);
    ASSERT_EQ_INT(l.items[2].x, 5);
    ASSERT_EQ_INT(l.items[3].x, 0);
    ASSERT_EQ_INT(l.items[3].y, 8);
    ASSERT_EQ_INT(l.items[4].x, 0);
}

TEST(integers_limits) {
    fresh_arena();
    ints v;
    ASSERT_OK(dec(&ints_type, &v,
                  "{\"b0\":false,\"i8\":-128,\"i16\":-32768,\"i32\":-2147483648,"
                  "\"i64\":-9223372036854775808,\"u8\":255,\"u16\":65535,\"u32\":4294967295,"
                  "\"u64\":18446744073709551615}"));
    ASSERT_FALSE(v.b0);
    ASSERT_EQ_INT(v.i8, INT8_MIN);
    ASSERT_EQ_INT(v.i16, INT16_MIN);
    ASSERT_EQ_INT(v.i32, INT32_MIN);
    ASSERT_TRUE(v.i64 == INT64_MIN);
    ASSERT_EQ_UINT(v.u8, 255);
    ASSERT_EQ_UINT(v.u16, 65535);
    ASSERT_EQ_UINT(v.u32, 4294967295u);
    ASSERT_TRUE(v.u64 == UINT64_MAX);
    ASSERT_OK(dec(&ints_type, &v,
                  "{\"b0\":true,\"i8\":127,\"i16\":32767,\"i32\":2147483647,"
                  "\"i64\":9223372036854775807,\"u8\":0,\"u16\":0,\"u32\":0,\"u64\":0}"));
    ASSERT_TRUE(v.b0);
    ASSERT_EQ_INT(v.i8, 127);
    ASSERT_EQ_INT(v.i16, 32767);
    ASSERT_EQ_INT(v.i32, INT32_MAX);
    ASSERT_TRUE(v.i64 == INT64_MAX);
    ASSERT_OK(dec(&ints_type, &v, "{\"i32\":-0,\"u8\":-0}"));
    ASSERT_EQ_INT(v.i32, 0);
    ASSERT_EQ_INT(v.u8, 0);
}

TEST(integers_out_of_range) {
    fresh_arena();
    static const struct {
        const char *json, *path, *msg;
    } cases[] = {
        {"{\"u8\":300}", "$.u8", "integer out of range for uint8 field"},
        {"{\"u8\":256}", "$.u8", "integer out of range for uint8 field"},
        {"{\"u8\":-1}", "$.u8", "integer out of range for uint8 field"},
        {"{\"i8\":128}", "$.i8", "integer out of range for int8 field"},
        {"{\"i8\":-129}", "$.i8", "integer out of range for int8 field"},
        {"{\"i16\":32768}", "$.i16", "integer out of range for int16 field"},
        {"{\"i16\":-32769}", "$.i16", "integer out of range for int16 field"},
        {"{\"u16\":65536}", "$.u16", "integer out of range for uint16 field"},
        {"{\"i32\":2147483648}", "$.i32", "integer out of range for int32 field"},
        {"{\"i32\":-2147483649}", "$.i32", "integer out of range for int32 field"},
        {"{\"u32\":4294967296}", "$.u32", "integer out of range for uint32 field"},
        {"{\"u32\":-5}", "$.u32", "integer out of range for uint32 field"},
        {"{\"i64\":9223372036854775808}", "$.i64", "integer out of range for int64 field"},
        {"{\"i64\":-9223372036854775809}", "$.i64", "integer out of range for int64 field"},
        {"{\"u64\":18446744073709551616}", "$.u64", "integer out of range for uint64 field"},
        {"{\"u64\":-1}", "$.u64", "integer out of range for uint64 field"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        EXPECT_ERR(&ints_type, cases[i].json, TYJSON_E_NUMBER_RANGE, cases[i].path, 1,
                   strchr(cases[i].json, ':') - cases[i].json + 2, cases[i].msg);
}

/* Two-digit integers have their own shortcut; its neighbours must not
 * take it. */
TEST(integers_two_digits) {
    fresh_arena();
    ints v;
    ASSERT_OK(dec(&ints_type, &v, "{\"i32\":10,\"u8\":99,\"i8\":-42,\"i64\":100,\"u16\":7}"));
    ASSERT_EQ_INT(v.i32, 10);
    ASSERT_EQ_UINT(v.u8, 99);
    ASSERT_EQ_INT(v.i8, -42);
    ASSERT_TRUE(v.i64 == 100);
    ASSERT_EQ_UINT(v.u16, 7);
    /* an exponent makes a real, as everywhere in the binding */
    EXPECT_ERR(&ints_type, "{\"i32\":12e1}", TYJSON_E_TYPE, "$.i32", 1, 8, NULL);
    EXPECT_ERR(&ints_type, "{\"u8\":25E1}", TYJSON_E_TYPE, "$.u8", 1, 7, NULL);
    ASSERT_OK(dec(&ints_type, &v, "{\"i8\":99 , \"i16\":55\n}"));
    ASSERT_EQ_INT(v.i8, 99);
    ASSERT_EQ_INT(v.i16, 55);
    EXPECT_ERR(&ints_type, "{\"i32\":12.5}", TYJSON_E_TYPE, "$.i32", 1, 8,
               "expected an integer for int32 field, found a real number");
    EXPECT_ERR(&ints_type, "{\"i32\":05}", TYJSON_E_NUMBER, "$.i32", 1, 9, NULL);
    EXPECT_ERR(&ints_type, "{\"i32\":12x}", TYJSON_E_UNEXPECTED_CHAR, "$.i32", 1, 10, NULL);
    EXPECT_ERR(&ints_type, "{\"i32\":12.}", TYJSON_E_NUMBER, "$.i32", 1, 11, NULL);
}

TEST(integers_wrong_type) {
    fresh_arena();
    EXPECT_ERR(&ints_type, "{\"i32\":1.5}", TYJSON_E_TYPE, "$.i32", 1, 8,
               "expected an integer for int32 field, found a real number");
    EXPECT_ERR(&ints_type, "{\"i32\":1e2}", TYJSON_E_TYPE, "$.i32", 1, 8,
               "expected an integer for int32 field, found a real number");
    EXPECT_ERR(&ints_type, "{\"i32\":1.0}", TYJSON_E_TYPE, "$.i32", 1, 8, NULL);
    EXPECT_ERR(&ints_type, "{\"i32\":\"5\"}", TYJSON_E_TYPE, "$.i32", 1, 8,
               "expected an integer for int32 field, found a string");
    EXPECT_ERR(&ints_type, "{\"u8\":true}", TYJSON_E_TYPE, "$.u8", 1, 7,
               "expected an integer for uint8 field, found a boolean");
    EXPECT_ERR(&ints_type, "{\"u16\":null}", TYJSON_E_TYPE, "$.u16", 1, 8,
               "expected an integer for uint16 field, found null");
    EXPECT_ERR(&ints_type, "{\"i64\":{}}", TYJSON_E_TYPE, "$.i64", 1, 8,
               "expected an integer for int64 field, found an object");
    EXPECT_ERR(&ints_type, "{\"u64\":[1]}", TYJSON_E_TYPE, "$.u64", 1, 8,
               "expected an integer for uint64 field, found an array");
    EXPECT_ERR(&ints_type, "{\"b0\":1}", TYJSON_E_TYPE, "$.b0", 1, 7,
               "expected a boolean for bool field, found an integer");
    EXPECT_ERR(&ints_type, "{\"b0\":\"true\"}", TYJSON_E_TYPE, "$.b0", 1, 7,
               "expected a boolean for bool field, found a string");
    EXPECT_ERR(&ints_type, "{\"i8\":1e999}", TYJSON_E_TYPE, "$.i8", 1, 7,
               "expected an integer for int8 field, found a real number");
    /* malformed values are syntax errors, not type errors */
    EXPECT_ERR(&ints_type, "{\"i32\":01}", TYJSON_E_NUMBER, "$.i32", 1, 9, NULL);
    EXPECT_ERR(&ints_type, "{\"i32\":-}", TYJSON_E_NUMBER, "$.i32", 1, 9, NULL);
    EXPECT_ERR(&ints_type, "{\"i32\":+1}", TYJSON_E_UNEXPECTED_CHAR, "$.i32", 1, 8, NULL);
    EXPECT_ERR(&ints_type, "{\"b0\":tru}", TYJSON_E_LITERAL, "$.b0", 1, 7, NULL);
    EXPECT_ERR(&ints_type, "{\"b0\":truex}", TYJSON_E_UNEXPECTED_CHAR, "$.b0", 1, 11, NULL);
    EXPECT_ERR(&ints_type, "{\"i32\":12x}", TYJSON_E_UNEXPECTED_CHAR, "$.i32", 1, 10,
               "expected ',' or '}' after an object member");
}

TEST(reals) {
    fresh_arena();
    reals r;
    ASSERT_OK(dec(&reals_type, &r, "{\"f\":3.67,\"d\":0.1}"));
    ASSERT_TRUE(r.f == 3.67f);
    ASSERT_EQ_DBL_BITS(r.d, 0.1);
    ASSERT_OK(dec(&reals_type, &r, "{\"f\":16777217,\"d\":9007199254740993}"));
    ASSERT_TRUE(r.f == 16777216.0f);
    ASSERT_EQ_DBL_BITS(r.d, 9007199254740992.0);
    ASSERT_OK(dec(&reals_type, &r, "{\"f\":-0.0,\"d\":-0}"));
    ASSERT_TRUE(r.f == 0 && signbit(r.f));
    ASSERT_EQ_DBL_BITS(r.d, -0.0);
    ASSERT_OK(dec(&reals_type, &r, "{\"f\":3.4028235e38,\"d\":1.7976931348623157e308}"));
    ASSERT_TRUE(r.f == FLT_MAX);
    ASSERT_EQ_DBL_BITS(r.d, DBL_MAX);
    ASSERT_OK(dec(&reals_type, &r, "{\"f\":1e-50,\"d\":5e-324}"));
    ASSERT_TRUE(r.f == 0);
    ASSERT_EQ_DBL_BITS(r.d, 5e-324);
    ASSERT_OK(dec(&reals_type, &r, "{\"f\":-18446744073709551615,\"d\":18446744073709551615}"));
    ASSERT_TRUE(r.f == -18446744073709551615.0f);
    ASSERT_EQ_DBL_BITS(r.d, 18446744073709551615.0);
    EXPECT_ERR(&reals_type, "{\"f\":1e39}", TYJSON_E_NUMBER_RANGE, "$.f", 1, 6,
               "number out of range for float field");
    EXPECT_ERR(&reals_type, "{\"f\":-3.5e38}", TYJSON_E_NUMBER_RANGE, "$.f", 1, 6, NULL);
    EXPECT_ERR(&reals_type, "{\"d\":1e400}", TYJSON_E_NUMBER_RANGE, "$.d", 1, 6,
               "number out of range for double field");
    EXPECT_ERR(&reals_type, "{\"d\":\"1\"}", TYJSON_E_TYPE, "$.d", 1, 6,
               "expected a number for double field, found a string");
    EXPECT_ERR(&reals_type, "{\"f\":false}", TYJSON_E_TYPE, "$.f", 1, 6,
               "expected a number for float field, found a boolean");
    EXPECT_ERR(&reals_type, "{\"d\":NaN}", TYJSON_E_UNEXPECTED_CHAR, "$.d", 1, 6, NULL);
}

/* A float member is rounded once, from the text: a number that rounds to
 * a double lying exactly on the midpoint between two floats went to the
 * even one, whichever side of the midpoint the text was on. Compared with
 * glibc's strtof, which rounds correctly. */
TEST(reals_float_single_rounding) {
    static const char *const texts[] = {
        "1.000000178813934326171874",  /* just below a midpoint: 1 + 2^-23 */
        "1.000000178813934326171876",  /* just above: 1 + 2^-22 */
        "1.000000178813934326171875",  /* exactly on it: ties to even */
        "-1.000000178813934326171874",
        "1.0000000596046447753906251", /* above the midpoint after 1.0 */
        "7.00649232162408535461864791644958065640130970938257885878534141944895541342930300743319094181060791015626e-46",
        "7.00649232162408535461864791644958065640130970938257885878534141944895541342930300743319094181060791015624e-46",
        "-7.00649232162408535461864791644958065640130970938257885878534141944895541342930300743319094181060791015626e-46",
        "-7.00649232162408535461864791644958065640130970938257885878534141944895541342930300743319094181060791015624e-46",
        "2.10194769648722560638559437493348719692039291281477365763560242583468662402879090222995728254318237304688e-45",
        "340282356779733661637539395458142568447", /* below the midpoint to 2^128 */
        "3.4028235677973366163753939545814256844799e38",
        "16777217.000000000000000001",  /* 2^24 + 1 + tiny: rounds up */
        "16777216.999999999999999999",
        "0.1", "3.14159", "1e-45", "1.17549435e-38",
    };
    char doc[256];
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        fresh_arena();
        snprintf(doc, sizeof doc, "{\"f\":%s}", texts[i]);
        reals r;
        ASSERT_OK(dec(&reals_type, &r, doc));
        float want = strtof(texts[i], NULL);
        if (memcmp(&r.f, &want, sizeof want) != 0)
            TEST_FAIL("%s: got %a, strtof %a", texts[i], (double)r.f, (double)want);
    }
    /* on or above the midpoint between FLT_MAX and 2^128: out of range */
    EXPECT_ERR(&reals_type, "{\"f\":340282356779733661637539395458142568448}", TYJSON_E_NUMBER_RANGE,
               "$.f", 1, 6, NULL);
    EXPECT_ERR(&reals_type, "{\"f\":340282356779733661637539395458142568449}", TYJSON_E_NUMBER_RANGE,
               "$.f", 1, 6, NULL);
}

TEST(reals_inf_nan_flag) {
    fresh_arena();
    tyjson_decode_options o = {0, TYJSON_READ_ALLOW_INF_NAN, 0, NULL};
    reals r;
    ASSERT_OK(dec_opts(&reals_type, &r, "{\"f\":Infinity,\"d\":-Infinity}", &o));
    ASSERT_TRUE(isinf(r.f) && r.f > 0);
    ASSERT_TRUE(isinf(r.d) && r.d < 0);
    ASSERT_OK(dec_opts(&reals_type, &r, "{\"f\":NaN,\"d\":NaN}", &o));
    ASSERT_TRUE(isnan(r.f) && isnan(r.d));
    ints v;
    EXPECT_ERR_OPTS(&ints_type, "{\"i32\":NaN}", &o, TYJSON_E_TYPE, "$.i32", 1, 8,
                    "expected an integer for int32 field, found a real number");
    EXPECT_ERR_OPTS(&ints_type, "{\"i32\":-Infinity}", &o, TYJSON_E_TYPE, "$.i32", 1, 8, NULL);
    EXPECT_ERR_OPTS(&reals_type, "{\"d\":Infinit}", &o, TYJSON_E_LITERAL, "$.d", 1, 6, NULL);
    /* skipped unknown values accept them too */
    ASSERT_OK(dec_opts(&ints_type, &v, "{\"x\":[NaN,-Infinity,Infinity],\"i8\":1}", &o));
    ASSERT_EQ_INT(v.i8, 1);
}

TEST(strings) {
    fresh_arena();
    strs s;
    ASSERT_OK(dec(&strs_type, &s, "{\"s\":\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\",\"c\":\"x\\u00e9\",\"ch\":\"1234567\"}"));
    ASSERT_STR(s.s, "a\"b\\c/d\b\f\n\r\t");
    ASSERT_EQ_INT(s.s.ptr[s.s.len], 0);
    ASSERT_EQ_STR(s.c, "x\xc3\xa9");
    ASSERT_EQ_STR(s.ch, "1234567");
    ASSERT_OK(dec(&strs_type, &s, "{\"s\":\"\\ud83d\\ude00 \xf0\x9f\x98\x80 \\u4e2d\",\"c\":\"\",\"ch\":\"\"}"));
    ASSERT_STR(s.s, "\xf0\x9f\x98\x80 \xf0\x9f\x98\x80 \xe4\xb8\xad");
    ASSERT_EQ_STR(s.c, "");
    ASSERT_EQ_STR(s.ch, "");
    /* U+0000 inside: fine for a pointer + length string */
    ASSERT_OK(dec(&strs_type, &s, "{\"s\":\"a\\u0000b\"}"));
    ASSERT_EQ_UINT(s.s.len, 3);
    ASSERT_EQ_MEM(s.s.ptr, "a\0b", 4);
    ASSERT_NULL(s.c);
    EXPECT_ERR(&strs_type, "{\"c\":\"a\\u0000b\"}", TYJSON_E_TYPE, "$.c", 1, 6,
               "string with U+0000 for a NUL-terminated string field");
    EXPECT_ERR(&strs_type, "{\"ch\":\"\\u0000\"}", TYJSON_E_TYPE, "$.ch", 1, 7, NULL);
    EXPECT_ERR(&strs_type, "{\"ch\":\"12345678\"}", TYJSON_E_SIZE, "$.ch", 1, 7,
               "string too long for char[N] field");
    EXPECT_ERR(&strs_type, "{\"ch\":\"123456\\u00e9\"}", TYJSON_E_SIZE, "$.ch", 1, 7, NULL);
    ASSERT_OK(dec(&strs_type, &s, "{\"ch\":\"12345\\u00e9\"}"));
    ASSERT_EQ_STR(s.ch, "12345\xc3\xa9");
    EXPECT_ERR(&strs_type, "{\"s\":5}", TYJSON_E_TYPE, "$.s", 1, 6,
               "expected a string for string field, found an integer");
    EXPECT_ERR(&strs_type, "{\"c\":[]}", TYJSON_E_TYPE, "$.c", 1, 6,
               "expected a string for string field, found an array");
}

TEST(string_errors) {
    fresh_arena();
    EXPECT_ERR(&strs_type, "{\"s\":\"ab\x01\"}", TYJSON_E_STRING_CTRL, "$.s", 1, 9, NULL);
    EXPECT_ERR(&strs_type, "{\"s\":\"a\\x\"}", TYJSON_E_ESCAPE, "$.s", 1, 8, NULL);
    EXPECT_ERR(&strs_type, "{\"s\":\"a\\u12G4\"}", TYJSON_E_ESCAPE, "$.s", 1, 8, NULL);
    EXPECT_ERR(&strs_type, "{\"s\":\"\\ud800x\"}", TYJSON_E_SURROGATE, "$.s", 1, 7, NULL);
    EXPECT_ERR(&strs_type, "{\"s\":\"\\udc00\"}", TYJSON_E_SURROGATE, "$.s", 1, 7, NULL);
    EXPECT_ERR(&strs_type, "{\"s\":\"ab\xff\"}", TYJSON_E_UTF8, "$.s", 1, 9, NULL);
    EXPECT_ERR(&strs_type, "{\"s\":\"\xc3\x28\"}", TYJSON_E_UTF8, "$.s", 1, 7, NULL);
    EXPECT_ERR(&strs_type, "{\"s\":\"\\n\xed\xa0\x80\"}", TYJSON_E_UTF8, "$.s", 1, 9, NULL);
    EXPECT_ERR(&strs_type, "{\"s\":\"abc", TYJSON_E_TRUNCATED, "$.s", 1, 10, NULL);
    EXPECT_ERR(&strs_type, "{\"s\":\"abc\\", TYJSON_E_TRUNCATED, "$.s", 1, 11, NULL);
    EXPECT_ERR(&strs_type, "{\"s\":\"abc\\u12", TYJSON_E_TRUNCATED, "$.s", 0, 0, NULL);
    /* invalid UTF-8 allowed by flag: bytes kept */
    tyjson_decode_options o = {0, TYJSON_READ_ALLOW_INVALID_UTF8, 0, NULL};
    strs s;
    ASSERT_OK(dec_opts(&strs_type, &s, "{\"s\":\"ab\xff\xc3\x28\"}", &o));
    ASSERT_STR(s.s, "ab\xff\xc3\x28");
    /* long strings (past the inline SWAR steps and the unescape window) */
    char big[600];
    memset(big, 0, sizeof(big));
    strcpy(big, "{\"s\":\"");
    for (int i = 0; i < 500; i++) big[6 + i] = (char)('a' + i % 26);
    strcat(big, "\\n\"}");
    ASSERT_OK(dec(&strs_type, &s, big));
    ASSERT_EQ_UINT(s.s.len, 501);
    ASSERT_EQ_INT(s.s.ptr[500], '\n');
    big[100] = 0x1f;
    EXPECT_ERR(&strs_type, big, TYJSON_E_STRING_CTRL, "$.s", 1, 101, NULL);
}

TEST(borrowed_strings) {
    fresh_arena();
    const char *json = "{\"s\":\"plain\",\"c\":\"cs\",\"ch\":\"x\"}";
    tyjson_decode_options o = {TYJSON_DECODE_BORROW, 0, 0, NULL};
    strs s;
    ASSERT_OK(dec_opts(&strs_type, &s, json, &o));
    ASSERT_TRUE(s.s.ptr == json + 6);
    ASSERT_EQ_UINT(s.s.len, 5);
    /* NUL-terminated strings are always copies */
    ASSERT_TRUE(s.c < json || s.c > json + strlen(json));
    ASSERT_EQ_STR(s.c, "cs");
    ASSERT_EQ_UINT(tyjson_arena_used(&arena) > 0, 1);
    const char *esc = "{\"s\":\"tab\\there\"}";
    ASSERT_OK(dec_opts(&strs_type, &s, esc, &o));
    ASSERT_TRUE(s.s.ptr < esc || s.s.ptr > esc + strlen(esc));
    ASSERT_STR(s.s, "tab\there");
    /* without BORROW the plain string is a copy */
    ASSERT_OK(dec(&strs_type, &s, json));
    ASSERT_TRUE(s.s.ptr < json || s.s.ptr > json + strlen(json));
}

TEST(enums) {
    fresh_arena();
    paint v;
    ASSERT_OK(dec(&paint_type, &v, "{\"c32\":\"blue\",\"c8\":\"red\",\"c64\":\"green\",\"c16\":\"\"}"));
    ASSERT_EQ_INT(v.c32, -7);
    ASSERT_EQ_INT(v.c8, 1);
    ASSERT_EQ_INT(v.c64, 2);
    ASSERT_EQ_INT(v.c16, 9);
    ASSERT_OK(dec(&paint_type, &v, "{\"c32\":\"gr\\u0065en\"}"));
    ASSERT_EQ_INT(v.c32, 2);
    EXPECT_ERR(&paint_type, "{\"c8\":\"Red\"}", TYJSON_E_ENUM, "$.c8", 1, 7,
               "unknown enum name \"Red\" (expected one of \"red\", \"green\", \"blue\", \"\")");
    /* control bytes and quotes are shown as '?', long names cut */
    EXPECT_ERR(&paint_type, "{\"c8\":\"a\\\"b\\n\"}", TYJSON_E_ENUM, "$.c8", 1, 7,
               "unknown enum name \"a?b?\" (expected one of \"red\", \"green\", \"blue\", \"\")");
    EXPECT_ERR(&paint_type,
               "{\"c8\":\"0123456789012345678901234567890123456789012345678901234567890123456789\"}",
               TYJSON_E_ENUM, "$.c8", 1, 7,
               "unknown enum name \"012345678901234567890123456789012345678901234567...\" "
               "(expected one of \"red\", \"green\", \"blue\", \"\")");
    EXPECT_ERR(&paint_type, "{\"c8\":\"re\"}", TYJSON_E_ENUM, "$.c8", 1, 7, NULL);
    EXPECT_ERR(&paint_type, "{\"c8\":\"redd\"}", TYJSON_E_ENUM, "$.c8", 1, 7, NULL);
    EXPECT_ERR(&paint_type, "{\"c8\":\"red\\u0000\"}", TYJSON_E_ENUM, "$.c8", 1, 7, NULL);
    EXPECT_ERR(&paint_type, "{\"c16\":1}", TYJSON_E_TYPE, "$.c16", 1, 8,
               "expected an enum name (a string) for enum field, found an integer");
}

TEST(nested_structs_and_pointers) {
    fresh_arena();
    shape s;
    ASSERT_OK(dec(&shape_type, &s, "{\"at\":{\"x\":1,\"y\":2},\"ref\":{\"y\":4,\"x\":3},\"maybe\":null}"));
    ASSERT_EQ_INT(s.at.x, 1);
    ASSERT_EQ_INT(s.at.y, 2);
    ASSERT_NOT_NULL(s.ref);
    ASSERT_EQ_INT(s.ref->x, 3);
    ASSERT_EQ_INT(s.ref->y, 4);
    ASSERT_EQ_INT(s.maybe.x, 0);
    ASSERT_OK(dec(&shape_type, &s, "{\"ref\":null,\"maybe\":{\"x\":9}}"));
    ASSERT_NULL(s.ref);
    ASSERT_EQ_INT(s.maybe.x, 9);
    EXPECT_ERR(&shape_type, "{\"at\":null}", TYJSON_E_TYPE, "$.at", 1, 7,
               "expected an object for struct field, found null");
    EXPECT_ERR(&shape_type, "{\"ref\":[]}", TYJSON_E_TYPE, "$.ref", 1, 8,
               "expected an object for struct field, found an array");
    EXPECT_ERR(&shape_type, "{\"at\":{\"x\":\"1\"}}", TYJSON_E_TYPE, "$.at.x", 1, 12, NULL);
    EXPECT_ERR(&shape_type, "{\"at\":{},\"ref\":{\"x\":1,\"y\":true}}", TYJSON_E_TYPE, "$.ref.y", 1, 27,
               NULL);
    EXPECT_ERR(&shape_type, "[]", TYJSON_E_TYPE, "$", 1, 1,
               "expected an object for struct field, found an array");
}

TEST(dates_and_epochs) {
    fresh_arena();
    times t;
    ASSERT_OK(dec(&times_type, &t,
                  "{\"day\":\"2024-06-15\",\"at\":\"2024-06-15T10:30:00.25-02:00\","
                  "\"ms\":\"2024-06-15T10:30:00.123456Z\",\"ns\":\"1969-12-31T23:59:59.999999999Z\"}"));
    ASSERT_EQ_INT(t.day.year, 2024);
    ASSERT_EQ_INT(t.day.month, 6);
    ASSERT_EQ_INT(t.day.day, 15);
    ASSERT_EQ_INT(t.at.hour, 10);
    ASSERT_EQ_UINT(t.at.nanosecond, 250000000);
    ASSERT_EQ_INT(t.at.offset_minutes, -120);
    ASSERT_EQ_INT(t.ms, 1718447400123LL);
    ASSERT_EQ_INT(t.ns, -1);
    ASSERT_OK(dec(&times_type, &t, "{\"ms\":1332068400000,\"ns\":-5}"));
    ASSERT_EQ_INT(t.ms, 1332068400000LL);
    ASSERT_EQ_INT(t.ns, -5);
    ASSERT_OK(dec(&times_type, &t, "{\"ms\":\"1969-12-31T23:59:59.9995Z\"}"));
    ASSERT_EQ_INT(t.ms, -1); /* floor, not truncation toward zero */
    ASSERT_OK(dec(&times_type, &t, "{\"day\":\"2024-\\u00306-15\"}"));
    ASSERT_EQ_INT(t.day.month, 6);
    EXPECT_ERR(&times_type, "{\"day\":\"2023-02-29\"}", TYJSON_E_DATE, "$.day", 1, 8,
               "invalid date: day 29 out of range for 2023-02");
    EXPECT_ERR(&times_type, "{\"day\":\"2023-13-01\"}", TYJSON_E_DATE, "$.day", 1, 8,
               "invalid date: month 13 out of range");
    EXPECT_ERR(&times_type, "{\"day\":\"2023/01/01\"}", TYJSON_E_DATE, "$.day", 1, 8,
               "invalid date: expected '-' at byte 4");
    EXPECT_ERR(&times_type, "{\"day\":\"2023-01\"}", TYJSON_E_DATE, "$.day", 1, 8,
               "invalid date: too short: expected '-' at byte 7");
    EXPECT_ERR(&times_type, "{\"day\":\"2023-01-01x\"}", TYJSON_E_DATE, "$.day", 1, 8,
               "invalid date: unexpected text after the date at byte 10");
    EXPECT_ERR(&times_type, "{\"at\":\"2024-06-15T10:30:00\"}", TYJSON_E_DATE, "$.at", 1, 7,
               "invalid date-time: missing time zone: expected 'Z', '+HH:MM' or '-HH:MM'");
    EXPECT_ERR(&times_type, "{\"at\":\"2024-06-15T24:30:00Z\"}", TYJSON_E_DATE, "$.at", 1, 7,
               "invalid date-time: hour 24 out of range");
    EXPECT_ERR(&times_type, "{\"at\":\"2024-06-15T10:30:60Z\"}", TYJSON_E_DATE, "$.at", 1, 7,
               "invalid date-time: second 60 out of range (leap seconds are refused)");
    EXPECT_ERR(&times_type, "{\"at\":\"2024-06-15 10:30:00Z\"}", TYJSON_E_DATE, "$.at", 1, 7,
               "invalid date-time: expected 'T' at byte 10");
    EXPECT_ERR(&times_type, "{\"at\":\"2024-06-15T10:30:00.Z\"}", TYJSON_E_DATE, "$.at", 1, 7,
               "invalid date-time: expected a digit at byte 20");
    EXPECT_ERR(&times_type, "{\"at\":\"2024-06-15T10:30:00+24:00\"}", TYJSON_E_DATE, "$.at", 1, 7,
               "invalid date-time: offset hour 24 out of range");
    EXPECT_ERR(&times_type, "{\"at\":\"2024-06-15T10:30:00Zs\"}", TYJSON_E_DATE, "$.at", 1, 7,
               "invalid date-time: unexpected text after the date-time at byte 20");
    /* RFC 3339 allows lowercase t and z */
    ASSERT_OK(dec(&times_type, &t, "{\"at\":\"2024-06-15t10:30:00z\"}"));
    ASSERT_EQ_INT(t.at.hour, 10);
    EXPECT_ERR(&times_type, "{\"ms\":\"yesterday\"}", TYJSON_E_DATE, "$.ms", 1, 7, NULL);
    EXPECT_ERR(&times_type, "{\"ns\":\"2263-01-01T00:00:00Z\"}", TYJSON_E_DATE, "$.ns", 1, 7,
               "date-time out of range for epoch nanoseconds");
    EXPECT_ERR(&times_type, "{\"ms\":1.5}", TYJSON_E_TYPE, "$.ms", 1, 7,
               "expected a date-time string or an integer for epoch field, found a real number");
    EXPECT_ERR(&times_type, "{\"ms\":9223372036854775808}", TYJSON_E_NUMBER_RANGE, "$.ms", 1, 7, NULL);
    EXPECT_ERR(&times_type, "{\"day\":20240615}", TYJSON_E_TYPE, "$.day", 1, 8,
               "expected a date string (YYYY-MM-DD) for date field, found an integer");
    EXPECT_ERR(&times_type, "{\"at\":{}}", TYJSON_E_TYPE, "$.at", 1, 7,
               "expected a date-time string for date-time field, found an object");
}

/* Dates of the usual widths are read without a scan for the closing
 * quote; a string-level error inside them is still reported as such, and
 * other widths and escapes still work. */
TEST(dates_usual_widths) {
    fresh_arena();
    times t;
    ASSERT_OK(dec(&times_type, &t, "{\"day\":\"2024-06-15\",\"at\":\"2024-06-15T10:30:00Z\","
                                   "\"ms\":\"2024-06-15T10:30:00.123Z\",\"ns\":\"1970-01-01T00:00:01+01:00\"}"));
    ASSERT_EQ_INT(t.day.day, 15);
    ASSERT_EQ_INT(t.at.minute, 30);
    ASSERT_TRUE(t.ms == 1718447400123LL);
    ASSERT_TRUE(t.ns == -3599000000000LL);
    ASSERT_OK(dec(&times_type, &t, "{\"day\":\"2024-06-\\u0031\\u0035\"}"));
    ASSERT_EQ_INT(t.day.day, 15);
    EXPECT_ERR(&times_type, "{\"at\":\"2024-06-15T10:30:0\x01\"}", TYJSON_E_STRING_CTRL, "$.at", 1, 26, NULL);
    EXPECT_ERR(&times_type, "{\"day\":\"2024-06-1\x01\"}", TYJSON_E_STRING_CTRL, "$.day", 1, 18, NULL);
    EXPECT_ERR(&times_type, "{\"day\":\"2024-06-1\xff\"}", TYJSON_E_UTF8, "$.day", 1, 18, NULL);
    EXPECT_ERR(&times_type, "{\"day\":\"2024-06-1x\"}", TYJSON_E_DATE, "$.day", 1, 8, NULL);
    EXPECT_ERR(&times_type, "{\"at\":\"2024-06-15T10:30:00\\\"\"}", TYJSON_E_DATE, "$.at", 1, 7, NULL);
    EXPECT_ERR(&times_type, "{\"day\":\"2024-06-15", TYJSON_E_TRUNCATED, "$.day", 0, 0, NULL);
}

TEST(value_raw_custom) {
    fresh_arena();
    free_form v;
    ASSERT_OK(dec(&free_form_type, &v,
                  "{\"v\":{\"name\":\"Alice\",\"age\":30,\"active\":true,\"tags\":[\"dev\",\"java\"]},"
                  "\"raw\": [1, {\"a\" : null} ] ,\"hex\":\"0x1f\"}"));
    ASSERT_NOT_NULL(v.v);
    ASSERT_TRUE(tyjson_is_obj(v.v));
    ASSERT_EQ_UINT(tyjson_obj_size(v.v), 4);
    ASSERT_EQ_STR(tyjson_get_str(tyjson_obj_get(v.v, "name")), "Alice");
    ASSERT_EQ_UINT(tyjson_arr_size(tyjson_obj_get(v.v, "tags")), 2);
    ASSERT_STR(v.raw, "[1, {\"a\" : null} ]");
    ASSERT_EQ_INT(v.hex, 31);
    ASSERT_OK(dec(&free_form_type, &v, "{\"v\":null,\"raw\":\"s\\n\",\"hex\":\"0xff\"}"));
    ASSERT_TRUE(tyjson_is_null(v.v));
    ASSERT_STR(v.raw, "\"s\\n\"");
    ASSERT_EQ_INT(v.hex, 255);
    ASSERT_OK(dec(&free_form_type, &v, "{\"v\":-12.5e1}"));
    ASSERT_TRUE(tyjson_is_real(v.v));
    EXPECT_ERR(&free_form_type, "{\"hex\":12}", TYJSON_E_TYPE, "$.hex", 1, 8,
               "custom codec reported an error");
    EXPECT_ERR(&free_form_type, "{\"hex\":\"0xZ\"}", TYJSON_E_NUMBER, "$.hex", 1, 8, NULL);
    EXPECT_ERR(&free_form_type, "{\"v\":[1,2,}", TYJSON_E_UNEXPECTED_CHAR, "$.v", 1, 11, NULL);
    EXPECT_ERR(&free_form_type, "{\"raw\":{\"a\" 1}}", TYJSON_E_UNEXPECTED_CHAR, "$.raw", 1, 13,
               "expected ':' after an object key");
    /* with BORROW, raw text points into the input */
    const char *json = "{\"raw\":[true]}";
    tyjson_decode_options o = {TYJSON_DECODE_BORROW, 0, 0, NULL};
    ASSERT_OK(dec_opts(&free_form_type, &v, json, &o));
    ASSERT_TRUE(v.raw.ptr == json + 7);
    ASSERT_EQ_UINT(v.raw.len, 6);
}

TEST(arrays_fixed_and_dynamic) {
    fresh_arena();
    arrays a;
    ASSERT_OK(dec(&arrays_type, &a,
                  "{\"fixed\":[1,2,3],\"tags\":[\"a\",\"b\\u0063\"],\"pts\":[{\"x\":1},{\"y\":2}],"
                  "\"refs\":[{\"x\":5},null],\"names\":[\"ab\",\"\"],\"nums\":[1,2.5,-3e0]}"));
    ASSERT_EQ_UINT(a.n_fixed, 3);
    ASSERT_EQ_INT(a.fixed[0], 1);
    ASSERT_EQ_INT(a.fixed[2], 3);
    ASSERT_EQ_INT(a.fixed[3], 0);
    ASSERT_EQ_UINT(a.n_tags, 2);
    ASSERT_STR(a.tags[0], "a");
    ASSERT_STR(a.tags[1], "bc");
    ASSERT_EQ_UINT(a.n_pts, 2);
    ASSERT_EQ_INT(a.pts[0].x, 1);
    ASSERT_EQ_INT(a.pts[0].y, 0);
    ASSERT_EQ_INT(a.pts[1].x, 0);
    ASSERT_EQ_INT(a.pts[1].y, 2);
    ASSERT_EQ_UINT(a.n_refs, 2);
    ASSERT_EQ_INT(a.refs[0]->x, 5);
    ASSERT_NULL(a.refs[1]);
    ASSERT_EQ_UINT(a.n_names, 2);
    ASSERT_EQ_STR(a.names[0], "ab");
    ASSERT_EQ_STR(a.names[1], "");
    ASSERT_EQ_UINT(a.n_nums, 3);
    ASSERT_EQ_DBL_BITS(a.nums[1], 2.5);
    ASSERT_EQ_DBL_BITS(a.nums[2], -3.0);
    ASSERT_OK(dec(&arrays_type, &a, "{\"fixed\":[],\"tags\":[],\"nums\":null}"));
    ASSERT_EQ_UINT(a.n_fixed, 0);
    ASSERT_EQ_UINT(a.n_tags, 0);
    ASSERT_NULL(a.tags);
    ASSERT_NULL(a.nums);
    ASSERT_OK(dec(&arrays_type, &a, "{\"nums\":[null,1]}"));
    ASSERT_EQ_UINT(a.n_nums, 2);
    ASSERT_EQ_DBL_BITS(a.nums[0], 0.0);
    EXPECT_ERR(&arrays_type, "{\"fixed\":[1,2,3,4,5]}", TYJSON_E_SIZE, "$.fixed[4]", 1, 19,
               "too many elements for fixed-size array field");
    EXPECT_ERR(&arrays_type, "{\"names\":[\"a\",\"b\",\"c\",\"d\"]}", TYJSON_E_SIZE, "$.names[3]", 1, 23,
               NULL);
    EXPECT_ERR(&arrays_type, "{\"names\":[\"abcdef\"]}", TYJSON_E_SIZE, "$.names[0]", 1, 11,
               "string too long for char[N] field");
    EXPECT_ERR(&arrays_type, "{\"fixed\":null}", TYJSON_E_TYPE, "$.fixed", 1, 10,
               "expected an array for array field, found null");
    EXPECT_ERR(&arrays_type, "{\"tags\":\"a\"}", TYJSON_E_TYPE, "$.tags", 1, 9, NULL);
    EXPECT_ERR(&arrays_type, "{\"pts\":[{\"x\":1},{\"x\":1.5}]}", TYJSON_E_TYPE, "$.pts[1].x", 1, 22, NULL);
    EXPECT_ERR(&arrays_type, "{\"pts\":[{},null]}", TYJSON_E_TYPE, "$.pts[1]", 1, 12,
               "expected an object for struct field, found null");
    EXPECT_ERR(&arrays_type, "{\"tags\":[\"a\" \"b\"]}", TYJSON_E_UNEXPECTED_CHAR, "$.tags[0]", 1, 14,
               "expected ',' or ']' after an array element");
    EXPECT_ERR(&arrays_type, "{\"tags\":[\"a\",]}", TYJSON_E_UNEXPECTED_CHAR, "$.tags[1]", 1, 14, NULL);
    EXPECT_ERR(&arrays_type, "{\"tags\":[,]}", TYJSON_E_UNEXPECTED_CHAR, "$.tags[0]", 1, 10, NULL);
}

/* Pretty layouts: newline (or CR LF, or a tab) and indentation of 0 to 20
 * spaces before keys, elements and closing brackets, around the decoder's
 * inline indentation skip (up to 15 spaces) and past it. */
TEST(pretty_layouts) {
    static const char *const nls[] = {"\n", "\r\n", "\n\t"};
    char doc[2048], in1[64], in2[64], in3[64];
    for (size_t v = 0; v < sizeof nls / sizeof nls[0]; v++) {
        for (int k = 0; k <= 20; k++) {
            fresh_arena();
            const char *nl = nls[v];
            memset(in1, ' ', (size_t)k);
            in1[k] = 0;
            memset(in2, ' ', (size_t)k * 2);
            in2[k * 2] = 0;
            memset(in3, ' ', (size_t)k * 3);
            in3[k * 3] = 0;
            snprintf(doc, sizeof doc,
                     "{%s%s\"tags\": [%s%s\"x\\ty\",%s%s\"b\"%s%s],%s%s\"pts\": [%s%s{%s%s\"x\": 1,"
                     "%s%s\"y\": 2%s%s},%s%s{\"x\": 3}%s%s],%s%s\"nums\": [1.5, null]%s}",
                     nl, in1, nl, in2, nl, in2, nl, in1, nl, in1, nl, in2, nl, in3, nl, in3, nl,
                     in2, nl, in2, nl, in1, nl, in1, nl);
            arrays a;
            if (dec(&arrays_type, &a, doc) != TYJSON_OK)
                TEST_FAIL("layout %zu indent %d: %s at %s", v, k, err.msg, err.path);
            ASSERT_EQ_UINT(a.n_tags, 2);
            ASSERT_STR(a.tags[0], "x\ty");
            ASSERT_STR(a.tags[1], "b");
            ASSERT_EQ_UINT(a.n_pts, 2);
            ASSERT_EQ_INT(a.pts[0].x, 1);
            ASSERT_EQ_INT(a.pts[0].y, 2);
            ASSERT_EQ_INT(a.pts[1].x, 3);
            ASSERT_EQ_INT(a.pts[1].y, 0);
            ASSERT_EQ_UINT(a.n_nums, 2);
            ASSERT_EQ_DBL_BITS(a.nums[0], 1.5);
            ASSERT_EQ_DBL_BITS(a.nums[1], 0.0);
        }
    }
}

/* Arrays at the same depth start with the previous one's length as room:
 * longer, shorter and empty ones after it, struct elements still zeroed
 * where members are missing, scalars exact in an arena holding old data. */
typedef struct ivec {
    int32_t *v;
    size_t n;
} ivec;
static const tyjson_field ivec_fields[] = {
    TYJSON_FIELD_DYN(ivec, v, "v", n, TYJSON_K_I32),
};
static tyjson_struct ivec_type = TYJSON_STRUCT(ivec, ivec_fields, TYJSON_T_ARRAY);
typedef struct ivecs {
    ivec *rows;
    size_t n_rows;
    matrix m;
} ivecs;
static const tyjson_field ivecs_fields[] = {
    TYJSON_FIELD_DYN(ivecs, rows, "rows", n_rows, TYJSON_K_STRUCT, .type = &ivec_type),
    TYJSON_FIELD_STRUCT(ivecs, m, "m", &matrix_type),
};
static tyjson_struct ivecs_type = TYJSON_STRUCT(ivecs, ivecs_fields, 0);

TEST(array_length_hints) {
    fresh_arena();
    static const int lens[] = {5, 2, 9, 0, 40, 3, 3, 1};
    char doc[8192];
    for (int round = 0; round < 2; round++) {
        size_t n = (size_t)snprintf(doc, sizeof doc, "{\"rows\":[");
        for (size_t r = 0; r < sizeof lens / sizeof lens[0]; r++) {
            n += (size_t)snprintf(doc + n, sizeof doc - n, "%s[", r ? "," : "");
            for (int i = 0; i < lens[r]; i++)
                n += (size_t)snprintf(doc + n, sizeof doc - n, "%s%d", i ? "," : "",
                                      (int)r * 100 + i + round * 7);
            n += (size_t)snprintf(doc + n, sizeof doc - n, "]");
        }
        n += (size_t)snprintf(doc + n, sizeof doc - n, "],\"m\":{\"rows\":[");
        for (size_t r = 0; r < sizeof lens / sizeof lens[0]; r++) {
            n += (size_t)snprintf(doc + n, sizeof doc - n, "%s[", r ? "," : "");
            for (int i = 0; i < lens[r]; i++)
                n += (size_t)snprintf(doc + n, sizeof doc - n, i % 2 ? "%s{\"x\":%d}" : "%s{\"x\":%d,\"y\":9}",
                                      i ? "," : "", i);
            n += (size_t)snprintf(doc + n, sizeof doc - n, "]");
        }
        snprintf(doc + n, sizeof doc - n, "]}}");
        ivecs iv;
        /* the second round decodes into an arena full of the first one */
        tyjson_arena_reset(&arena);
        ASSERT_OK(dec(&ivecs_type, &iv, doc));
        ASSERT_EQ_UINT(iv.n_rows, sizeof lens / sizeof lens[0]);
        ASSERT_EQ_UINT(iv.m.n_rows, sizeof lens / sizeof lens[0]);
        for (size_t r = 0; r < iv.n_rows; r++) {
            ASSERT_EQ_UINT(iv.rows[r].n, (size_t)lens[r]);
            ASSERT_EQ_UINT(iv.m.rows[r].n, (size_t)lens[r]);
            if (!lens[r]) {
                ASSERT_NULL(iv.rows[r].v);
                ASSERT_NULL(iv.m.rows[r].items);
            }
            for (int i = 0; i < lens[r]; i++) {
                ASSERT_EQ_INT(iv.rows[r].v[i], (int)r * 100 + i + round * 7);
                ASSERT_EQ_INT(iv.m.rows[r].items[i].x, i);
                ASSERT_EQ_INT(iv.m.rows[r].items[i].y, i % 2 ? 0 : 9);
            }
        }
    }
}

/* A string whose first backslash comes after a clean prefix of any length:
 * the prefix is copied as it is and the rest decoded, copy and borrow mode. */
TEST(escape_after_clean_prefix) {
    char doc[256], want[128];
    tyjson_decode_options borrow = {TYJSON_DECODE_BORROW, 0, 0, NULL};
    for (int mode = 0; mode < 2; mode++) {
        for (int pos = 0; pos <= 40; pos++) {
            fresh_arena();
            char prefix[64];
            for (int i = 0; i < pos; i++) prefix[i] = (char)('a' + i % 26);
            prefix[pos] = 0;
            snprintf(doc, sizeof doc, "{\"s\":\"%s\\n\\u00e9x\\\"\"}", prefix);
            snprintf(want, sizeof want, "%s\n\xc3\xa9x\"", prefix);
            strs v;
            ASSERT_OK(dec_opts(&strs_type, &v, doc, mode ? &borrow : NULL));
            ASSERT_EQ_UINT(v.s.len, strlen(want));
            ASSERT_TRUE(memcmp(v.s.ptr, want, v.s.len) == 0);
            /* a prefix with multi-byte UTF-8 before the escape */
            snprintf(doc, sizeof doc, "{\"s\":\"%s\xc3\xa9\xe4\xb8\xad\\t\"}", prefix);
            snprintf(want, sizeof want, "%s\xc3\xa9\xe4\xb8\xad\t", prefix);
            ASSERT_OK(dec_opts(&strs_type, &v, doc, mode ? &borrow : NULL));
            ASSERT_EQ_UINT(v.s.len, strlen(want));
            ASSERT_TRUE(memcmp(v.s.ptr, want, v.s.len) == 0);
        }
    }
    /* an error after the clean prefix still points at the bad escape */
    EXPECT_ERR(&strs_type, "{\"s\":\"abcdefghijklmnopqrstuvwxyz\\q\"}", TYJSON_E_ESCAPE, "$.s", 1, 33,
               NULL);
}

TEST(arrays_large_growth) {
    fresh_arena();
    size_t cap = 200000;
    char *buf = (char *)malloc(cap);
    ASSERT_NOT_NULL(buf);
    size_t n = (size_t)snprintf(buf, cap, "{\"pts\":[");
    for (int i = 0; i < 5000; i++)
        n += (size_t)snprintf(buf + n, cap - n, "%s{\"x\":%d,\"y\":%d}", i ? "," : "", i, i * 2);
    n += (size_t)snprintf(buf + n, cap - n, "],\"tags\":[");
    for (int i = 0; i < 3000; i++) n += (size_t)snprintf(buf + n, cap - n, "%s\"t%d\"", i ? "," : "", i);
    snprintf(buf + n, cap - n, "]}");
    arrays a;
    ASSERT_OK(dec(&arrays_type, &a, buf));
    ASSERT_EQ_UINT(a.n_pts, 5000);
    for (int i = 0; i < 5000; i++) {
        ASSERT_EQ_INT(a.pts[i].x, i);
        ASSERT_EQ_INT(a.pts[i].y, i * 2);
    }
    ASSERT_EQ_UINT(a.n_tags, 3000);
    char want[16];
    for (int i = 0; i < 3000; i++) {
        snprintf(want, sizeof(want), "t%d", i);
        ASSERT_STR(a.tags[i], want);
    }
    /* with BORROW nothing interleaves: the arrays grow in place */
    fresh_arena();
    tyjson_decode_options o = {TYJSON_DECODE_BORROW, 0, 0, NULL};
    ASSERT_OK(dec_opts(&arrays_type, &a, buf, &o));
    size_t need = 5000 * sizeof(point) + 3000 * sizeof(tyjson_str);
    ASSERT_TRUE(tyjson_arena_used(&arena) >= need && tyjson_arena_used(&arena) <= 2 * need);
    free(buf);
}

TEST(top_level_arrays) {
    fresh_arena();
    point_list l;
    ASSERT_OK(dec(&point_list_type, &l, " [ {\"x\":1,\"y\":2} , {\"x\":3} ] "));
    ASSERT_EQ_UINT(l.n, 2);
    ASSERT_EQ_INT(l.items[1].x, 3);
    ASSERT_OK(dec(&point_list_type, &l, "[]"));
    ASSERT_EQ_UINT(l.n, 0);
    ASSERT_NULL(l.items);
    EXPECT_ERR(&point_list_type, "{}", TYJSON_E_TYPE, "$", 1, 1,
               "expected an array for array field, found an object");
    EXPECT_ERR(&point_list_type, "[{\"x\":1},{\"x\":true}]", TYJSON_E_TYPE, "$[1].x", 1, 15, NULL);
    matrix m;
    ASSERT_OK(dec(&matrix_type, &m, "{\"rows\":[[{\"x\":1}],[],[{\"x\":2},{\"x\":3}]],\"maybe\":[{\"y\":7}]}"));
    ASSERT_EQ_UINT(m.n_rows, 3);
    ASSERT_EQ_UINT(m.rows[0].n, 1);
    ASSERT_EQ_UINT(m.rows[1].n, 0);
    ASSERT_EQ_UINT(m.rows[2].n, 2);
    ASSERT_EQ_INT(m.rows[2].items[1].x, 3);
    ASSERT_NOT_NULL(m.maybe);
    ASSERT_EQ_INT(m.maybe->items[0].y, 7);
    ASSERT_OK(dec(&matrix_type, &m, "{\"maybe\":null}"));
    ASSERT_NULL(m.maybe);
    EXPECT_ERR(&matrix_type, "{\"rows\":[[{\"x\":1}],[{\"x\":[]}]]}", TYJSON_E_TYPE, "$.rows[1][0].x",
               1, 26, NULL);
    EXPECT_ERR(&matrix_type, "{\"maybe\":{}}", TYJSON_E_TYPE, "$.maybe", 1, 10,
               "expected an array for array field, found an object");
}

/* ----------------------------------------------------------------------------
 * Field flags
 * ------------------------------------------------------------------------- */
TEST(defaults_presence_required) {
    fresh_arena();
    opts_t v;
    ASSERT_OK(dec(&opts_type, &v, "{\"id\":\"x\"}"));
    ASSERT_STR(v.id, "x");
    ASSERT_EQ_INT(v.count, -5);
    ASSERT_FALSE(v.has_count);
    ASSERT_EQ_DBL_BITS(v.ratio, 0.25);
    ASSERT_STR(v.label, "none");
    ASSERT_EQ_STR(v.cs, "dflt");
    ASSERT_EQ_STR(v.tag, "t1");
    ASSERT_EQ_UINT(v.port, 8080);
    ASSERT_EQ_INT(v.level, -3);
    ASSERT_TRUE(v.on);
    ASSERT_EQ_INT(v.color, 2);
    ASSERT_EQ_INT(v.day.year, 2000);
    ASSERT_EQ_INT(v.day.day, 2);
    ASSERT_EQ_INT(v.at.second, 5);
    ASSERT_EQ_UINT(v.at.nanosecond, 500000000);
    ASSERT_EQ_INT(v.at.offset_minutes, 60);
    ASSERT_EQ_INT(v.ms, 1234);
    ASSERT_STR(v.raw, "[1]");
    ASSERT_OK(dec(&opts_type, &v,
                  "{\"count\":7,\"id\":\"y\",\"label\":null,\"on\":false,\"nn\":null,\"port\":1,"
                  "\"tag\":\"zz\",\"color\":\"red\",\"raw\":{}}"));
    ASSERT_EQ_INT(v.count, 7);
    ASSERT_TRUE(v.has_count);
    ASSERT_STR(v.label, "none"); /* null with NULLABLE: the default */
    ASSERT_FALSE(v.on);
    ASSERT_EQ_INT(v.nullable_num, 0);
    ASSERT_EQ_UINT(v.port, 1);
    ASSERT_EQ_STR(v.tag, "zz");
    ASSERT_EQ_INT(v.color, 1);
    ASSERT_STR(v.raw, "{}");
    /* count is not nullable: but the presence flag is set before the type check fails */
    EXPECT_ERR(&opts_type, "{\"id\":\"z\",\"count\":null}", TYJSON_E_TYPE, "$.count", 1, 19, NULL);
    EXPECT_ERR(&opts_type, "{\"count\":1}", TYJSON_E_MISSING_KEY, "$.id", 1, 11,
               "required key is missing");
    EXPECT_ERR(&opts_type, "{}", TYJSON_E_MISSING_KEY, "$.id", 1, 2, NULL);
    EXPECT_ERR(&opts_type, "{\"id\":null}", TYJSON_E_TYPE, "$.id", 1, 7, NULL);
}

TEST(required_nested_path) {
    fresh_arena();
    static const tyjson_field user_fields[] = {
        TYJSON_FIELD_STR(simple, name, "login", .flags = TYJSON_F_REQUIRED),
        TYJSON_FIELD_I32(simple, age, "age", .flags = TYJSON_F_REQUIRED),
    };
    static tyjson_struct user_type = TYJSON_STRUCT(simple, user_fields, 0);
    typedef struct album {
        simple owner;
        simple *photos;
        size_t n_photos;
    } album;
    static const tyjson_field album_fields[] = {
        TYJSON_FIELD_STRUCT(album, owner, "owner", &user_type),
        TYJSON_FIELD_DYN(album, photos, "photos", n_photos, TYJSON_K_STRUCT, .type = &user_type),
    };
    static tyjson_struct album_type = TYJSON_STRUCT(album, album_fields, 0);
    EXPECT_ERR(&album_type, "{\"owner\":{\"age\":1}}", TYJSON_E_MISSING_KEY, "$.owner.login", 1, 18, NULL);
    EXPECT_ERR(&album_type,
               "{\"owner\":{\"age\":1,\"login\":\"a\"},\n\"photos\":[{\"login\":\"b\",\"age\":2},\n"
               "  {\"login\":\"c\"}]}",
               TYJSON_E_MISSING_KEY, "$.photos[1].age", 3, 15, NULL);
    EXPECT_ERR(&album_type, "{\"photos\":[{\"login\":\"b\",\"age\":2.5}]}", TYJSON_E_TYPE,
               "$.photos[0].age", 1, 31, "expected an integer for int32 field, found a real number");
    album a;
    ASSERT_OK(dec(&album_type, &a, "{\"owner\":{\"age\":1,\"login\":\"a\"},\"photos\":[]}"));
}

TEST(unknown_keys) {
    fresh_arena();
    simple s;
    ASSERT_OK(dec(&simple_type, &s,
                  "{\"x\":{\"a\":[1,2,{\"b\":null,\"c\":\"\\u00e9\\\"\"}],\"d\":{}},\"age\":3,"
                  "\"y\":[[],[[]],{}],\"z\":-1.5e-3,\"w\":\"s\",\"v\":true,\"u\":null,\"name\":\"N\"}"));
    ASSERT_EQ_INT(s.age, 3);
    ASSERT_STR(s.name, "N");
    EXPECT_ERR(&strict_type, "{\"a\":1,\"c\":2}", TYJSON_E_UNKNOWN_KEY, "$.c", 1, 8,
               "unknown key (the type rejects unknown keys)");
    holder h;
    EXPECT_ERR(&holder_type, "{\"plain\":{\"q\":1},\"inner\":{\"zz\":1}}", TYJSON_E_UNKNOWN_KEY,
               "$.inner.zz", 1, 27, NULL);
    ASSERT_OK(dec(&holder_type, &h, "{\"plain\":{\"q\":1},\"inner\":{\"b\":1}}"));
    tyjson_decode_options o = {TYJSON_DECODE_UNKNOWN_ERROR, 0, 0, NULL};
    EXPECT_ERR_OPTS(&holder_type, "{\"plain\":{\"q\":1}}", &o, TYJSON_E_UNKNOWN_KEY, "$.plain.q", 1, 11,
                    NULL);
    EXPECT_ERR_OPTS(&simple_type, "{\"name\":\"a\",\"odd key\":1}", &o, TYJSON_E_UNKNOWN_KEY,
                    "$[\"odd key\"]", 1, 13, NULL);
    /* unknown values are still checked */
    EXPECT_ERR(&simple_type, "{\"x\":[1,2,}", TYJSON_E_UNEXPECTED_CHAR, "$.x", 1, 11, NULL);
    EXPECT_ERR(&simple_type, "{\"x\":{\"a\" 1}}", TYJSON_E_UNEXPECTED_CHAR, "$.x", 1, 11, NULL);
    EXPECT_ERR(&simple_type, "{\"x\":\"\\q\"}", TYJSON_E_ESCAPE, "$.x", 1, 7, NULL);
    EXPECT_ERR(&simple_type, "{\"x\":[01]}", TYJSON_E_NUMBER, "$.x", 1, 8, NULL);
    EXPECT_ERR(&simple_type, "{\"x\":nul}", TYJSON_E_LITERAL, "$.x", 1, 6, NULL);
    /* huge numbers are valid JSON: skipping them is fine */
    ASSERT_OK(dec(&simple_type, &s, "{\"x\":[1e999,123456789012345678901234567890],\"age\":1}"));
    ASSERT_EQ_INT(s.age, 1);
}

/* Unbound scalars take an inline skip in the decoder (a string without
 * escapes, a number in range, a literal) and fall back to the reading
 * core's skip for anything else: the results, and every error's code,
 * position and path, are the core's, at the end of the input too, with
 * and without the padded copy (BORROW decodes the caller's bytes). */
TEST(unknown_scalars_inline) {
    static const struct {
        const char *json;
        tyjson_status code; /* TYJSON_OK: age holds `age` */
        size_t col;
        int64_t age;
    } cases[] = {
        {"{\"x\":\"abc\",\"age\":1}", TYJSON_OK, 0, 1},
        {"{\"x\":\"\xc3\xa9t\xc3\xa9 long string with more than sixteen bytes\",\"age\":2}", TYJSON_OK, 0, 2},
        {"{\"x\":\"a\\u00e9\\\"b\",\"age\":3}", TYJSON_OK, 0, 3},
        {"{\"x\":-0.5e-7,\"age\":4}", TYJSON_OK, 0, 4},
        {"{\"x\":123456789012345678901234567890,\"age\":5}", TYJSON_OK, 0, 5},
        {"{\"x\":1e400,\"age\":6}", TYJSON_OK, 0, 6},
        {"{\"x\":true,\"age\":7}", TYJSON_OK, 0, 7},
        {"{\"x\":null,\"age\":8}", TYJSON_OK, 0, 8},
        {"{\"x\": 1 ,\"age\":9}", TYJSON_OK, 0, 9},
        {"{\"x\":false}", TYJSON_OK, 0, 0},
        {"{\"x\":\"\"}", TYJSON_OK, 0, 0},
        {"{\"x\":\"abc", TYJSON_E_TRUNCATED, 10, 0},
        {"{\"x\":\"", TYJSON_E_TRUNCATED, 7, 0},
        {"{\"x\":\"ab\x01\"}", TYJSON_E_STRING_CTRL, 9, 0},
        {"{\"x\":\"a\xff\"}", TYJSON_E_UTF8, 8, 0},
        {"{\"x\":\"a\\q\"}", TYJSON_E_ESCAPE, 8, 0},
        {"{\"x\":\"0123456789abcdefghij\\", TYJSON_E_TRUNCATED, 27, 0},
        {"{\"x\":\"0123456789abcdefghijklmnopqrstuvwxyz\"", TYJSON_E_TRUNCATED, 44, 0},
        {"{\"x\":12a}", TYJSON_E_UNEXPECTED_CHAR, 8, 0},
        {"{\"x\":-}", TYJSON_E_NUMBER, 7, 0},
        {"{\"x\":1.}", TYJSON_E_NUMBER, 8, 0},
        {"{\"x\":1.5e}", TYJSON_E_NUMBER, 10, 0},
        {"{\"x\":01}", TYJSON_E_NUMBER, 7, 0},
        {"{\"x\":-x}", TYJSON_E_NUMBER, 7, 0},
        {"{\"x\":1e5x}", TYJSON_E_UNEXPECTED_CHAR, 9, 0},
        {"{\"x\":12", TYJSON_E_TRUNCATED, 8, 0},
        {"{\"x\":-7", TYJSON_E_TRUNCATED, 8, 0},
        {"{\"x\":truex}", TYJSON_E_UNEXPECTED_CHAR, 10, 0},
        {"{\"x\":nullnull}", TYJSON_E_UNEXPECTED_CHAR, 10, 0},
        {"{\"x\":tru}", TYJSON_E_LITERAL, 6, 0},
        {"{\"x\":nul}", TYJSON_E_LITERAL, 6, 0},
        {"{\"x\":nan}", TYJSON_E_LITERAL, 6, 0},
        {"{\"x\":fals", TYJSON_E_TRUNCATED, 6, 0},
        {"{\"x\":true", TYJSON_E_TRUNCATED, 10, 0},
        {"{\"x\":null", TYJSON_E_TRUNCATED, 10, 0},
        {"{\"x\":Infinity}", TYJSON_E_UNEXPECTED_CHAR, 6, 0},
        {"{\"x\":", TYJSON_E_TRUNCATED, 6, 0},
        {"{\"x\":1 2}", TYJSON_E_UNEXPECTED_CHAR, 8, 0},
        {"{\"x\":\"s\" \"t\"}", TYJSON_E_UNEXPECTED_CHAR, 10, 0},
        /* escapes after a clean prefix: the core's string skip goes on
         * from the first backslash */
        {"{\"x\":\"0123456789abcdefghij\\n\\t\",\"age\":13}", TYJSON_OK, 0, 13},
        {"{\"x\":\"0123456789abcdefghij\\u12G4\"}", TYJSON_E_ESCAPE, 27, 0},
        {"{\"x\":\"ab\\n\xc3\"}", TYJSON_E_UTF8, 11, 0},
        {"{\"x\":\"ab\\ud800\"}", TYJSON_E_SURROGATE, 9, 0},
    };
    for (int borrow = 0; borrow < 2; borrow++) {
        tyjson_decode_options o = {borrow ? TYJSON_DECODE_BORROW : 0, 0, 0, NULL};
        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
            fresh_arena();
            if (cases[i].code == TYJSON_OK) {
                simple s;
                ASSERT_OK(dec_opts(&simple_type, &s, cases[i].json, &o));
                ASSERT_EQ_INT(s.age, cases[i].age);
            } else {
                EXPECT_ERR_OPTS(&simple_type, cases[i].json, &o, cases[i].code, "$.x", 1,
                                cases[i].col, NULL);
            }
        }
    }
    /* the relaxed flags still reach the core's skip: NaN words, bad UTF-8 */
    simple s;
    tyjson_decode_options inf = {0, TYJSON_READ_ALLOW_INF_NAN, 0, NULL};
    ASSERT_OK(dec_opts(&simple_type, &s, "{\"x\":-Infinity,\"y\":NaN,\"age\":11}", &inf));
    ASSERT_EQ_INT(s.age, 11);
    tyjson_decode_options bad = {0, TYJSON_READ_ALLOW_INVALID_UTF8, 0, NULL};
    ASSERT_OK(dec_opts(&simple_type, &s, "{\"x\":\"a\xff\",\"age\":12}", &bad));
    ASSERT_EQ_INT(s.age, 12);
}

TEST(duplicate_keys) {
    fresh_arena();
    simple s;
    ASSERT_OK(dec(&simple_type, &s, "{\"name\":\"a\",\"age\":1,\"name\":\"b\",\"n\":\"c\",\"age\":2}"));
    /* the first occurrence wins, as in tyjson_obj_get (n is name's alias) */
    ASSERT_STR(s.name, "a");
    ASSERT_EQ_INT(s.age, 1);
    ASSERT_OK(dec(&simple_type, &s, "{\"amount\":1,\"age\":1,\"age\":1000000}"));
    ASSERT_EQ_INT(s.age, 1);
    arrays a;
    ASSERT_OK(dec(&arrays_type, &a, "{\"fixed\":[1,2,3],\"pts\":[{\"x\":1}],\"fixed\":[9],\"pts\":[]}"));
    ASSERT_EQ_UINT(a.n_fixed, 3);
    ASSERT_EQ_INT(a.fixed[0], 1);
    ASSERT_EQ_INT(a.fixed[2], 3);
    ASSERT_EQ_UINT(a.n_pts, 1);
    ASSERT_EQ_INT(a.pts[0].x, 1);
    shape sh;
    ASSERT_OK(dec(&shape_type, &sh, "{\"at\":{\"x\":1,\"y\":2},\"at\":{\"y\":5}}"));
    ASSERT_EQ_INT(sh.at.x, 1); /* the repeated object is skipped whole */
    ASSERT_EQ_INT(sh.at.y, 2);
    EXPECT_ERR(&strict_type, "{\"a\":1,\"b\":2,\"a\":3}", TYJSON_E_DUPLICATE_KEY, "$.a", 1, 14,
               "duplicate key (the type rejects repeated keys)");
    EXPECT_ERR(&holder_type, "{\"inner\":{\"b\":1,\n\"b\":1}}", TYJSON_E_DUPLICATE_KEY, "$.inner.b", 2, 1,
               NULL);
}

/* ----------------------------------------------------------------------------
 * Syntax, relaxations, positions
 * ------------------------------------------------------------------------- */
TEST(syntax_errors) {
    fresh_arena();
    EXPECT_ERR(&simple_type, "", TYJSON_E_EMPTY, "$", 0, 0, NULL);
    EXPECT_ERR(&simple_type, " \n\t ", TYJSON_E_EMPTY, "$", 2, 3, NULL);
    EXPECT_ERR(&simple_type, "{", TYJSON_E_TRUNCATED, "$", 1, 2, "expected an object key (a string) or '}'");
    EXPECT_ERR(&simple_type, "{\"age\"", TYJSON_E_TRUNCATED, "$.age", 1, 7, "expected ':' after an object key");
    EXPECT_ERR(&simple_type, "{\"age\":", TYJSON_E_TRUNCATED, "$.age", 1, 8, "expected a JSON value");
    EXPECT_ERR(&simple_type, "{\"age\":1", TYJSON_E_TRUNCATED, "$.age", 1, 9, NULL);
    /* past the ',' the error is the object's, not the previous key's */
    EXPECT_ERR(&simple_type, "{\"age\":1,", TYJSON_E_TRUNCATED, "$", 1, 10, "expected an object key (a string)");
    EXPECT_ERR(&simple_type, "{\"age\":1,}", TYJSON_E_UNEXPECTED_CHAR, "$", 1, 10, NULL);
    EXPECT_ERR(&simple_type, "{age:1}", TYJSON_E_UNEXPECTED_CHAR, "$", 1, 2, NULL);
    EXPECT_ERR(&simple_type, "{\"age\":1} x", TYJSON_E_TRAILING, "$", 1, 11,
               "unexpected content after the JSON value");
    EXPECT_ERR(&simple_type, "{\"age\":1}{}", TYJSON_E_TRAILING, "$", 1, 10, NULL);
    EXPECT_ERR(&simple_type, "{\"age\":1 \"name\":\"x\"}", TYJSON_E_UNEXPECTED_CHAR, "$.age", 1, 10,
               "expected ',' or '}' after an object member");
    EXPECT_ERR(&simple_type, "{\"ag\\e\":1}", TYJSON_E_ESCAPE, "$[\"ag\\e\"]", 1, 5, NULL);
    EXPECT_ERR(&simple_type, "{\"a\x01\":1}", TYJSON_E_STRING_CTRL, "$[\"a\\u0001\"]", 1, 4, NULL);
    EXPECT_ERR(&simple_type, "{\"age\":1}\xef\xbb\xbf", TYJSON_E_TRAILING, "$", 1, 10, NULL);
    EXPECT_ERR(&simple_type, "\xef\xbb\xbf{}", TYJSON_E_UNEXPECTED_CHAR, "$", 1, 1, "expected a JSON value");
    EXPECT_ERR(&simple_type, "{\"age\":1}/**/", TYJSON_E_TRAILING, "$", 1, 10, NULL);
    EXPECT_ERR(&simple_type, "{\n  \"age\": 1,\n  \"score\": \"x\"\n}", TYJSON_E_TYPE, "$.score", 3, 12, NULL);
    simple s;
    ASSERT_OK(dec(&simple_type, &s, "{}"));
    ASSERT_EQ_INT(s.age, 0);
    ASSERT_OK(dec(&simple_type, &s, " {\n} \n"));
}

TEST(relaxed_syntax) {
    fresh_arena();
    simple s;
    tyjson_decode_options o = {0, TYJSON_READ_ALLOW_COMMENTS | TYJSON_READ_ALLOW_TRAILING_COMMAS |
                                      TYJSON_READ_ALLOW_BOM, 0, NULL};
    ASSERT_OK(dec_opts(&simple_type, &s,
                       "\xef\xbb\xbf// lead\n{ /* a */ \"name\" /* b */ : /* c */ \"x\" // d\n, \"age\""
                       ":1, \"q\":[1,2,/*x*/], \"r\":{\"s\":1,},}/* tail */ // end",
                       &o));
    ASSERT_STR(s.name, "x");
    ASSERT_EQ_INT(s.age, 1);
    arrays a;
    ASSERT_OK(dec_opts(&arrays_type, &a, "{\"fixed\":[1,2,],\"tags\":[\"a\" , ],}", &o));
    ASSERT_EQ_UINT(a.n_fixed, 2);
    ASSERT_EQ_UINT(a.n_tags, 1);
    EXPECT_ERR_OPTS(&simple_type, "{\"age\":1 /* open", &o, TYJSON_E_COMMENT, "$.age", 1, 10, NULL);
    EXPECT_ERR_OPTS(&simple_type, "{\"age\":1} /* open", &o, TYJSON_E_COMMENT, "$", 1, 11, NULL);
    EXPECT_ERR_OPTS(&simple_type, "{\"age\":1,,}", &o, TYJSON_E_UNEXPECTED_CHAR, "$", 1, 10, NULL);
    EXPECT_ERR_OPTS(&arrays_type, "{\"fixed\":[,]}", &o, TYJSON_E_UNEXPECTED_CHAR, "$.fixed[0]", 1, 11, NULL);
    EXPECT_ERR(&simple_type, "{/**/}", TYJSON_E_UNEXPECTED_CHAR, "$", 1, 2, NULL);
}

TEST(stop_when_done_stream) {
    fresh_arena();
    const char *stream = "{\"x\":1,\"y\":2}\n{\"x\":3}  \n{\"y\":4}\n";
    size_t len = strlen(stream), pos = 0, got = 0;
    int xs[3], ys[3];
    while (pos < len) {
        size_t used = 0;
        tyjson_decode_options o = {TYJSON_DECODE_STOP_WHEN_DONE, 0, 0, &used};
        point pt;
        ASSERT_OK(tyjson_decode(&point_type, &pt, stream + pos, len - pos, &arena, &o, &err));
        ASSERT_TRUE(used > 0);
        xs[got] = pt.x;
        ys[got] = pt.y;
        got++;
        pos += used;
    }
    ASSERT_EQ_UINT(got, 3);
    ASSERT_EQ_INT(xs[0], 1);
    ASSERT_EQ_INT(ys[0], 2);
    ASSERT_EQ_INT(xs[1], 3);
    ASSERT_EQ_INT(ys[2], 4);
    size_t used = 99;
    tyjson_decode_options o = {TYJSON_DECODE_STOP_WHEN_DONE, 0, 0, &used};
    point pt;
    ASSERT_OK(tyjson_decode(&point_type, &pt, "{\"x\":1} \t{", 10, &arena, &o, &err));
    ASSERT_EQ_UINT(used, 9);
    tyjson_decode_options o2 = {0, 0, 0, &used};
    ASSERT_OK(tyjson_decode(&point_type, &pt, "{\"x\":1} ", 8, &arena, &o2, &err));
    ASSERT_EQ_UINT(used, 8);
}

TEST(odd_keys_and_paths) {
    fresh_arena();
    odd v;
    ASSERT_OK(dec(&odd_type, &v, "{\"odd key\":1,\"q\\\"uote\":2,\"caf\xc3\xa9\":3,\"\":4,\"9lives\":5}"));
    ASSERT_EQ_INT(v.a, 1);
    ASSERT_EQ_INT(v.b, 2);
    ASSERT_EQ_INT(v.c, 3);
    ASSERT_EQ_INT(v.d, 4);
    ASSERT_EQ_INT(v.u, 5);
    ASSERT_OK(dec(&odd_type, &v, "{\"caf\\u00e9\":3,\"\\u006fdd key\":1}"));
    ASSERT_EQ_INT(v.c, 3);
    ASSERT_EQ_INT(v.a, 1);
    EXPECT_ERR(&odd_type, "{\"odd key\":\"1\"}", TYJSON_E_TYPE, "$[\"odd key\"]", 1, 12, NULL);
    EXPECT_ERR(&odd_type, "{\"q\\\"uote\":\"1\"}", TYJSON_E_TYPE, "$[\"q\\\"uote\"]", 1, 12, NULL);
    EXPECT_ERR(&odd_type, "{\"\":\"1\"}", TYJSON_E_TYPE, "$[\"\"]", 1, 5, NULL);
    EXPECT_ERR(&odd_type, "{\"9lives\":256}", TYJSON_E_NUMBER_RANGE, "$[\"9lives\"]", 1, 11, NULL);
    EXPECT_ERR(&odd_type, "{\"caf\xc3\xa9\":true}", TYJSON_E_TYPE, "$[\"caf\xc3\xa9\"]", 1, 10, NULL);
    EXPECT_ERR(&odd_type, "{\"caf\\u00e9\":true}", TYJSON_E_TYPE, "$[\"caf\\u00e9\"]", 1, 14, NULL);
    /* a path longer than the buffer is cut, never overflowed */
    char key[400];
    memset(key, 'k', sizeof(key) - 1);
    key[sizeof(key) - 1] = 0;
    char json[512];
    snprintf(json, sizeof(json), "{\"%s\":1}", key);
    tyjson_decode_options o = {TYJSON_DECODE_UNKNOWN_ERROR, 0, 0, NULL};
    EXPECT_ERR_OPTS(&odd_type, json, &o, TYJSON_E_UNKNOWN_KEY, NULL, 1, 2, NULL);
    ASSERT_EQ_UINT(strlen(err.path), TYJSON_ERROR_PATH_MAX - 1);
    ASSERT_EQ_MEM(err.path, "$.kkk", 5);
}

/* ----------------------------------------------------------------------------
 * Nesting limits
 * ------------------------------------------------------------------------- */
static char *chain(int depth, bool close) {
    size_t cap = (size_t)depth * 20 + 64, n = 0;
    char *b = (char *)malloc(cap);
    for (int i = 0; i < depth; i++) n += (size_t)snprintf(b + n, cap - n, "%s{\"v\":%d", i ? ",\"next\":" : "", i);
    if (close)
        for (int i = 0; i < depth; i++) b[n++] = '}';
    b[n] = 0;
    return b;
}

TEST(depth_limits) {
    fresh_arena();
    node n;
    char *ok = chain(1024, true);
    ASSERT_OK(dec(&node_type, &n, ok));
    int count = 0;
    for (node *p = &n; p; p = p->next) {
        ASSERT_EQ_INT(p->v, count);
        count++;
    }
    ASSERT_EQ_INT(count, 1024);
    free(ok);
    char *deep = chain(1025, true);
    EXPECT_ERR(&node_type, deep, TYJSON_E_DEPTH, NULL, 0, 0, "nesting deeper than the maximum depth");
    ASSERT_EQ_UINT(err.offset, strstr(deep, "{\"v\":1024") - deep);
    ASSERT_EQ_MEM(err.path, "$.next.next.next", 16);
    tyjson_decode_options o = {0, 0, 2000, NULL};
    ASSERT_OK(dec_opts(&node_type, &n, deep, &o));
    tyjson_decode_options o3 = {0, 0, 3, NULL};
    EXPECT_ERR_OPTS(&node_type, "{\"next\":{\"next\":{\"next\":{}}}}", &o3, TYJSON_E_DEPTH,
                    "$.next.next.next", 1, 25, NULL);
    ASSERT_OK(dec_opts(&node_type, &n, "{\"next\":{\"next\":{\"next\":null}}}", &o3));
    free(deep);
    /* truncated deep chains fail cleanly */
    char *open = chain(1000, false);
    EXPECT_ERR(&node_type, open, TYJSON_E_TRUNCATED, NULL, 0, 0, NULL);
    free(open);
}

TEST(depth_limits_skipped_values) {
    fresh_arena();
    size_t depth = 5000;
    char *b = (char *)malloc(depth * 4 + 64);
    size_t n = (size_t)sprintf(b, "{\"x\":");
    for (size_t i = 0; i < depth; i++) b[n++] = '[';
    for (size_t i = 0; i < depth; i++) b[n++] = ']';
    n += (size_t)sprintf(b + n, ",\"age\":7}");
    simple s;
    EXPECT_ERR(&simple_type, b, TYJSON_E_DEPTH, "$.x", 1, 6 + 1023, NULL);
    tyjson_decode_options o = {0, 0, 6000, NULL};
    ASSERT_OK(dec_opts(&simple_type, &s, b, &o));
    ASSERT_EQ_INT(s.age, 7);
    /* objects too, mixed */
    n = (size_t)sprintf(b, "{\"x\":");
    for (size_t i = 0; i < 2000; i++) n += (size_t)sprintf(b + n, "%s", i % 2 ? "[" : "{\"k\":");
    for (size_t i = 2000; i-- > 0;) b[n++] = i % 2 ? ']' : '}';
    n += (size_t)sprintf(b + n, ",\"age\":8}");
    b[n] = 0;
    tyjson_decode_options o2 = {0, 0, 2001, NULL};
    ASSERT_OK(dec_opts(&simple_type, &s, b, &o2));
    ASSERT_EQ_INT(s.age, 8);
    tyjson_decode_options o4 = {0, 0, 2000, NULL};
    EXPECT_ERR_OPTS(&simple_type, b, &o4, TYJSON_E_DEPTH, "$.x", 0, 0, NULL);
    free(b);
}

/* ----------------------------------------------------------------------------
 * Truncation at every byte
 * ------------------------------------------------------------------------- */
typedef struct kitchen {
    simple s;
    ints i;
    reals r;
    strs st;
    paint pa;
    shape sh;
    times tm;
    free_form ff;
    arrays ar;
    point_list pl;
} kitchen;
static const tyjson_field kitchen_fields[] = {
    TYJSON_FIELD_STRUCT(kitchen, s, "s", &simple_type),
    TYJSON_FIELD_STRUCT(kitchen, i, "i", &ints_type),
    TYJSON_FIELD_STRUCT(kitchen, r, "r", &reals_type),
    TYJSON_FIELD_STRUCT(kitchen, st, "st", &strs_type),
    TYJSON_FIELD_STRUCT(kitchen, pa, "pa", &paint_type),
    TYJSON_FIELD_STRUCT(kitchen, sh, "sh", &shape_type),
    TYJSON_FIELD_STRUCT(kitchen, tm, "tm", &times_type),
    TYJSON_FIELD_STRUCT(kitchen, ff, "ff", &free_form_type),
    TYJSON_FIELD_STRUCT(kitchen, ar, "ar", &arrays_type),
    TYJSON_FIELD_STRUCT(kitchen, pl, "pl", &point_list_type),
};
static tyjson_struct kitchen_type = TYJSON_STRUCT(kitchen, kitchen_fields, 0);

static const char kitchen_json[] =
    "{\"s\":{\"name\":\"Al\\u00e9x\",\"age\":-30,\"active\":false,\"score\":-1.5e3},"
    "\"i\":{\"b0\":true,\"i8\":-8,\"i16\":16,\"i32\":-32,\"i64\":64,\"u8\":8,\"u16\":16,\"u32\":32,\"u64\":64},"
    "\"r\":{\"f\":0.5,\"d\":-2.25E-2},"
    "\"st\":{\"s\":\"x\\ny\",\"c\":\"cs\",\"ch\":\"abc\"},"
    "\"pa\":{\"c32\":\"red\",\"c8\":\"blue\"},"
    "\"sh\":{\"at\":{\"x\":1,\"y\":2},\"ref\":{\"x\":3},\"maybe\":null},"
    "\"tm\":{\"day\":\"2024-02-29\",\"at\":\"2024-06-15T10:30:00.5+01:00\",\"ms\":\"2024-06-15T10:30:00Z\",\"ns\":17},"
    "\"ff\":{\"v\":{\"k\":[1,\"two\",null,true]},\"raw\":[1, 2],\"hex\":\"0x10\"},"
    "\"ar\":{\"fixed\":[1,2],\"tags\":[\"a\",\"b\"],\"pts\":[{\"x\":1}],\"refs\":[null,{\"y\":2}],"
    "\"names\":[\"n1\"],\"nums\":[0.5,10]},"
    "\"pl\":[{\"x\":7,\"y\":8}],"
    "\"unknown\":{\"deep\":[1,{\"x\":[true,false,null]},\"s\\t\"]}}";

static void check_kitchen(const kitchen *k) {
    ASSERT_STR(k->s.name, "Al\xc3\xa9x");
    ASSERT_EQ_INT(k->s.age, -30);
    ASSERT_EQ_DBL_BITS(k->s.score, -1500.0);
    ASSERT_TRUE(k->i.b0);
    ASSERT_EQ_INT(k->i.i8, -8);
    ASSERT_EQ_UINT(k->i.u64, 64);
    ASSERT_TRUE(k->r.f == 0.5f);
    ASSERT_EQ_DBL_BITS(k->r.d, -2.25e-2);
    ASSERT_STR(k->st.s, "x\ny");
    ASSERT_EQ_STR(k->st.c, "cs");
    ASSERT_EQ_STR(k->st.ch, "abc");
    ASSERT_EQ_INT(k->pa.c8, -7);
    ASSERT_EQ_INT(k->sh.ref->x, 3);
    ASSERT_EQ_INT(k->tm.day.day, 29);
    ASSERT_EQ_INT(k->tm.at.offset_minutes, 60);
    ASSERT_EQ_INT(k->tm.ms, 1718447400000LL);
    ASSERT_EQ_INT(k->tm.ns, 17);
    ASSERT_EQ_UINT(tyjson_arr_size(tyjson_obj_get(k->ff.v, "k")), 4);
    ASSERT_STR(k->ff.raw, "[1, 2]");
    ASSERT_EQ_INT(k->ff.hex, 16);
    ASSERT_EQ_UINT(k->ar.n_fixed, 2);
    ASSERT_STR(k->ar.tags[1], "b");
    ASSERT_NULL(k->ar.refs[0]);
    ASSERT_EQ_INT(k->ar.refs[1]->y, 2);
    ASSERT_EQ_STR(k->ar.names[0], "n1");
    ASSERT_EQ_DBL_BITS(k->ar.nums[1], 10.0);
    ASSERT_EQ_UINT(k->pl.n, 1);
    ASSERT_EQ_INT(k->pl.items[0].y, 8);
}

TEST(kitchen_sink) {
    fresh_arena();
    kitchen k;
    ASSERT_OK(dec(&kitchen_type, &k, kitchen_json));
    check_kitchen(&k);
    tyjson_decode_options o = {TYJSON_DECODE_BORROW, 0, 0, NULL};
    ASSERT_OK(dec_opts(&kitchen_type, &k, kitchen_json, &o));
    check_kitchen(&k);
}

/* Every strict prefix of a valid document fails, with E_TRUNCATED (E_EMPTY
 * when nothing is left), an offset inside the prefix, and zeroed output.
 * Each prefix is its own heap block, so reading past it would be caught by
 * the sanitizers. */
static void truncation_sweep(const char *doc, tyjson_struct *t, size_t size) {
    size_t len = strlen(doc), value_end = len;
    while (value_end && strchr(" \t\r\n", doc[value_end - 1])) value_end--;
    unsigned char *out = (unsigned char *)malloc(size);
    for (size_t cut = 0; cut < value_end; cut++) {
        char *copy = (char *)malloc(cut ? cut : 1);
        memcpy(copy, doc, cut);
        memset(out, 0x5A, size);
        tyjson_arena_reset(&arena);
        tyjson_status st = tyjson_decode(t, out, copy, cut, &arena, NULL, &err);
        bool empty = true;
        for (size_t i = 0; i < cut; i++)
            if (!strchr(" \t\r\n", copy[i])) empty = false;
        tyjson_status want = empty ? TYJSON_E_EMPTY : TYJSON_E_TRUNCATED;
        if (st != want)
            TEST_FAIL("cut %zu: %s (%s at %s), want %s", cut, tyjson_status_name(st), err.msg, err.path,
                      tyjson_status_name(want));
        if (err.offset > cut) TEST_FAIL("cut %zu: offset %zu", cut, err.offset);
        if (!all_zero(out, size)) TEST_FAIL("cut %zu: output not zeroed", cut);
        free(copy);
    }
    /* and the whole document decodes from an exact-size block */
    char *copy = (char *)malloc(len);
    memcpy(copy, doc, len);
    tyjson_status st = tyjson_decode(t, out, copy, len, &arena, NULL, &err);
    if (st != TYJSON_OK) TEST_FAIL("whole: %s at %s", err.msg, err.path);
    free(copy);
    free(out);
}

TEST(truncation_every_byte) {
    fresh_arena();
    truncation_sweep(kitchen_json, &kitchen_type, sizeof(kitchen));
    truncation_sweep("{\n  \"name\" : \"Alice\",\n  \"age\" : 30 ,\n  \"score\" : 95.5\n}\n", &simple_type,
                     sizeof(simple));
    truncation_sweep("[{\"x\":1,\"y\":-2},{\"y\":3,\"x\":4}]", &point_list_type, sizeof(point_list));
}

/* ----------------------------------------------------------------------------
 * Arena
 * ------------------------------------------------------------------------- */
typedef struct counting {
    size_t mallocs, frees, reallocs;
    size_t live_bytes;
    long fail_after; /* fail the call after this many successful allocations; -1 never */
} counting;

static void *cnt_malloc(void *ctx, size_t size) {
    counting *c = (counting *)ctx;
    if (c->fail_after >= 0 && (long)c->mallocs >= c->fail_after) return NULL;
    c->mallocs++;
    return malloc(size);
}
static void *cnt_realloc(void *ctx, void *p, size_t old, size_t size) {
    counting *c = (counting *)ctx;
    (void)old;
    c->reallocs++;
    return realloc(p, size);
}
static void cnt_free(void *ctx, void *p) {
    counting *c = (counting *)ctx;
    c->frees++;
    free(p);
}

TEST(arena_basics) {
    tyjson_arena a;
    tyjson_arena_init(&a, NULL);
    ASSERT_EQ_UINT(tyjson_arena_used(&a), 0);
    char *p1 = (char *)tyjson_arena_alloc(&a, 3, 1);
    ASSERT_NOT_NULL(p1);
    void *p2 = tyjson_arena_alloc(&a, 8, 8);
    ASSERT_EQ_UINT((uintptr_t)p2 % 8, 0);
    void *p3 = tyjson_arena_alloc(&a, 100, 64);
    ASSERT_EQ_UINT((uintptr_t)p3 % 64, 0);
    ASSERT_EQ_UINT(tyjson_arena_used(&a), 111);
    ASSERT_NULL(tyjson_arena_alloc(&a, 8, 3));   /* not a power of two */
    ASSERT_NULL(tyjson_arena_alloc(&a, 8, 128)); /* too large an alignment */
    void *big = tyjson_arena_alloc(&a, 1 << 20, 16);
    ASSERT_NOT_NULL(big);
    memset(big, 1, 1 << 20);
    tyjson_arena_reset(&a);
    ASSERT_EQ_UINT(tyjson_arena_used(&a), 0);
    void *again = tyjson_arena_alloc(&a, 1 << 19, 16);
    ASSERT_NOT_NULL(again);
    ASSERT_NULL(tyjson_arena_alloc(&a, SIZE_MAX - 8, 16));
    tyjson_arena_free(&a);
    tyjson_arena_free(&a); /* twice is fine */
    /* over a caller buffer */
    _Alignas(16) char buf[256];
    tyjson_arena_init_buf(&a, buf, sizeof(buf));
    void *q = tyjson_arena_alloc(&a, 200, 16);
    ASSERT_TRUE(q == (void *)buf);
    ASSERT_NULL(tyjson_arena_alloc(&a, 100, 1));
    tyjson_arena_reset(&a);
    ASSERT_TRUE(tyjson_arena_alloc(&a, 256, 1) == (void *)buf);
    ASSERT_NULL(tyjson_arena_alloc(&a, 1, 1));
    tyjson_arena_free(&a);
}

TEST(arena_allocator_view) {
    tyjson_arena a;
    tyjson_arena_init(&a, NULL);
    tyjson_alloc v = tyjson_arena_allocator(&a);
    char *p = (char *)v.malloc(v.ctx, 10);
    memcpy(p, "0123456789", 10);
    char *q = (char *)v.realloc(v.ctx, p, 10, 100); /* the last block grows in place */
    ASSERT_TRUE(p == q);
    ASSERT_EQ_MEM(q, "0123456789", 10);
    char *r = (char *)v.malloc(v.ctx, 5);
    char *s = (char *)v.realloc(v.ctx, q, 100, 200); /* not last: copied */
    ASSERT_TRUE(s != q && s != r);
    ASSERT_EQ_MEM(s, "0123456789", 10);
    ASSERT_TRUE(v.realloc(v.ctx, s, 200, 50) == s);
    v.free(v.ctx, s);
    /* the DOM parser on it */
    tyjson_read_options ro = {0, 0, &v};
    tyjson_doc *doc = tyjson_read_opts("{\"a\":[1,2,3]}", 13, &ro, NULL);
    ASSERT_NOT_NULL(doc);
    ASSERT_EQ_UINT(tyjson_arr_size(tyjson_obj_get(tyjson_doc_get_root(doc), "a")), 3);
    tyjson_arena_free(&a);
}

/* An arena over an allocator that fails after N allocations: for every N
 * until the decode succeeds, the decode fails with E_NOMEM, zeroes the
 * output, and nothing leaks. */
TEST(allocation_failure_sweep) {
    tyjson_arena a;
    bool done = false;
    for (long n = 0; n < 64 && !done; n++) {
        counting c = {0, 0, 0, 0, n};
        tyjson_alloc alc = {cnt_malloc, cnt_realloc, cnt_free, &c};
        tyjson_arena_init(&a, &alc);
        /* tiny first blocks: many allocation points */
        a.next_block = 64;
        kitchen k;
        memset(&k, 0x77, sizeof(k));
        tyjson_status st = tyjson_decode(&kitchen_type, &k, kitchen_json, strlen(kitchen_json), &a, NULL, &err);
        if (st == TYJSON_OK) {
            check_kitchen(&k);
            done = true;
        } else {
            ASSERT_EQ_INT(st, TYJSON_E_NOMEM);
            ASSERT_TRUE(all_zero(&k, sizeof(k)));
            ASSERT_TRUE(err.msg[0] != 0);
        }
        tyjson_arena_free(&a);
        ASSERT_EQ_UINT(c.mallocs, c.frees);
    }
    ASSERT_TRUE(done);
}

/* The same over a caller buffer of every size up to what the decode needs:
 * every single arena request meets its failure once. */
TEST(fixed_buffer_sweep) {
    static _Alignas(64) char buf[16384];
    size_t need = 0;
    for (size_t size = 0; size <= sizeof(buf); size += 7) {
        tyjson_arena a;
        tyjson_arena_init_buf(&a, buf, size);
        kitchen k;
        tyjson_status st = tyjson_decode(&kitchen_type, &k, kitchen_json, strlen(kitchen_json), &a, NULL, &err);
        if (st == TYJSON_OK) {
            check_kitchen(&k);
            need = size;
            break;
        }
        ASSERT_EQ_INT(st, TYJSON_E_NOMEM);
        ASSERT_TRUE(all_zero(&k, sizeof(k)));
        tyjson_arena_free(&a);
    }
    ASSERT_TRUE(need > 0);
}

/* A stream of similar messages: after two resets the arena keeps one block
 * large enough and stops allocating. */
TEST(steady_state_no_allocations) {
    counting c = {0, 0, 0, 0, -1};
    tyjson_alloc alc = {cnt_malloc, cnt_realloc, cnt_free, &c};
    tyjson_arena a;
    tyjson_arena_init(&a, &alc);
    size_t after[10];
    for (int i = 0; i < 10; i++) {
        tyjson_arena_reset(&a);
        kitchen k;
        ASSERT_OK(tyjson_decode(&kitchen_type, &k, kitchen_json, strlen(kitchen_json), &a, NULL, &err));
        check_kitchen(&k);
        after[i] = c.mallocs;
    }
    ASSERT_EQ_UINT(after[9], after[2]);
    ASSERT_EQ_UINT(c.reallocs, 0);
    tyjson_arena_free(&a);
    ASSERT_EQ_UINT(c.mallocs, c.frees);
}

/* ----------------------------------------------------------------------------
 * Descriptors and preparation
 * ------------------------------------------------------------------------- */
static void expect_bad(tyjson_struct *t, const char *path) {
    tyjson_error e;
    ASSERT_EQ_INT(tyjson_struct_prepare(t, &e), TYJSON_E_INVALID_ARG);
    ASSERT_EQ_INT(e.code, TYJSON_E_INVALID_ARG);
    ASSERT_EQ_STR(e.path, path);
    ASSERT_NULL(t->prepared);
    char out[64];
    memset(out, 1, sizeof(out));
    ASSERT_EQ_INT(tyjson_decode(t, out, "{}", 2, &arena, NULL, &e), TYJSON_E_INVALID_ARG);
    ASSERT_TRUE(all_zero(out, t->size));
}

TEST(bad_descriptors) {
    fresh_arena();
    {
        static const tyjson_field f[] = {{.name = "a", .offset = 0, .kind = TYJSON_K_I32, .size = 8}};
        static tyjson_struct t = {"t1", 16, f, 1, 0, NULL};
        expect_bad(&t, "t1.a");
    }
    {
        static const tyjson_field f[] = {TYJSON_FIELD_I32(point, x, "k"), TYJSON_FIELD_I32(point, y, "k")};
        static tyjson_struct t = {"t2", sizeof(point), f, 2, 0, NULL};
        expect_bad(&t, "t2.k");
    }
    {
        static const char *const al[] = {"y", NULL};
        static const tyjson_field f[] = {TYJSON_FIELD_I32(point, x, "x", .aliases = al),
                                         TYJSON_FIELD_I32(point, y, "y")};
        static tyjson_struct t = {"t3", sizeof(point), f, 2, 0, NULL};
        expect_bad(&t, "t3.y");
    }
    {
        static const char *const al[] = {"z", "z", NULL};
        static const tyjson_field f[] = {TYJSON_FIELD_I32(point, x, "x", .aliases = al)};
        static tyjson_struct t = {"t3b", sizeof(point), f, 1, 0, NULL};
        expect_bad(&t, "t3b.x");
    }
    {
        static const tyjson_field f[] = {{.name = "s", .offset = 0, .kind = TYJSON_K_STRUCT, .size = 8}};
        static tyjson_struct t = {"t4", 8, f, 1, 0, NULL};
        expect_bad(&t, "t4.s");
    }
    {
        static const tyjson_field f[] = {{.name = "a", .offset = 4, .kind = TYJSON_K_I64, .size = 8}};
        static tyjson_struct t = {"t5", 8, f, 1, 0, NULL};
        expect_bad(&t, "t5.a");
    }
    {
        static const tyjson_field f[] = {TYJSON_FIELD_U8(ints, u8, "u", TYJSON_DEFAULT_U(256))};
        static tyjson_struct t = {"t6", sizeof(ints), f, 1, 0, NULL};
        expect_bad(&t, "t6.u");
    }
    {
        static const tyjson_field f[] = {TYJSON_FIELD_I32(point, x, "x"), TYJSON_FIELD_I32(point, y, "y")};
        static tyjson_struct t = {"t7", sizeof(point), f, 2, TYJSON_T_ARRAY, NULL};
        expect_bad(&t, "t7");
    }
    {
        static const tyjson_enum_entry e[] = {{"a", 1}, {"a", 2}};
        static const tyjson_field f[] = {TYJSON_FIELD_ENUM(paint, c8, "c", e)};
        static tyjson_struct t = {"t8", sizeof(paint), f, 1, 0, NULL};
        expect_bad(&t, "t8.c");
    }
    {
        static const tyjson_enum_entry e[] = {{"a", 300}};
        static const tyjson_field f[] = {TYJSON_FIELD_ENUM(paint, c8, "c", e)};
        static tyjson_struct t = {"t9", sizeof(paint), f, 1, 0, NULL};
        expect_bad(&t, "t9.c");
    }
    {
        static const tyjson_field f[] = {{.name = "c", .offset = 0, .kind = TYJSON_K_CUSTOM, .size = 8}};
        static tyjson_struct t = {"t10", 8, f, 1, 0, NULL};
        expect_bad(&t, "t10.c");
    }
    {
        static const tyjson_field f[] = {{.name = "d", .offset = 0, .kind = TYJSON_K_I32, .size = 4,
                                          .shape = TYJSON_SHAPE_DYN}};
        static tyjson_struct t = {"t11", 16, f, 1, 0, NULL};
        expect_bad(&t, "t11.d");
    }
    {
        static const tyjson_field f[] = {TYJSON_FIELD_CHARS(strs, ch, "ch", TYJSON_DEFAULT_S("12345678"))};
        static tyjson_struct t = {"t12", sizeof(strs), f, 1, 0, NULL};
        expect_bad(&t, "t12.ch");
    }
    {
        static const tyjson_field f[] = {TYJSON_FIELD_DATE(times, day, "d", TYJSON_DEFAULT_S("2023-02-29"))};
        static tyjson_struct t = {"t13", sizeof(times), f, 1, 0, NULL};
        expect_bad(&t, "t13.d");
    }
    {
        static const tyjson_field f[] = {{.name = "k", .offset = 0, .kind = (tyjson_kind)99, .size = 4}};
        static tyjson_struct t = {"t14", 8, f, 1, 0, NULL};
        expect_bad(&t, "t14.k");
    }
    {
        static const tyjson_field f[] = {{.name = "bad\xff", .offset = 0, .kind = TYJSON_K_I32, .size = 4}};
        static tyjson_struct t = {"t15", 8, f, 1, 0, NULL};
        expect_bad(&t, "t15.bad\xff");
    }
    {
        /* a bad type reached through a pointer fails the outer one too */
        static const tyjson_field inner[] = {{.name = "q", .offset = 0, .kind = TYJSON_K_BOOL, .size = 4}};
        static tyjson_struct in_t = {"inner_t", 8, inner, 1, 0, NULL};
        static const tyjson_field f[] = {{.name = "p", .offset = 0, .kind = TYJSON_K_PTR, .size = sizeof(void *),
                                          .type = &in_t}};
        static tyjson_struct t = {"t16", sizeof(void *), f, 1, 0, NULL};
        expect_bad(&t, "inner_t.q");
        ASSERT_NULL(in_t.prepared);
    }
    tyjson_error e;
    ASSERT_EQ_INT(tyjson_struct_prepare(NULL, &e), TYJSON_E_INVALID_ARG);
    ASSERT_EQ_INT(tyjson_struct_prepare(&simple_type, &e), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_struct_prepare(&simple_type, NULL), TYJSON_OK);
    simple s;
    ASSERT_EQ_INT(tyjson_decode(&simple_type, &s, NULL, 5, &arena, NULL, &e), TYJSON_E_INVALID_ARG);
    ASSERT_EQ_INT(tyjson_decode(&simple_type, &s, "{}", 2, NULL, NULL, &e), TYJSON_E_INVALID_ARG);
    ASSERT_EQ_INT(tyjson_decode(&simple_type, NULL, "{}", 2, &arena, NULL, &e), TYJSON_E_INVALID_ARG);
    ASSERT_EQ_INT(tyjson_decode(&simple_type, &s, "{}", 2, &arena, NULL, NULL), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_decode(&simple_type, &s, "{\"age\":\"x\"}", 11, &arena, NULL, NULL), TYJSON_E_TYPE);
}

/* Many keys: the hash stays perfect up to hundreds of keys, then probes. */
typedef struct wide {
    int32_t v[400];
} wide;
static char wide_names[400][24];
static tyjson_field wide_fields[400];

static void wide_check(size_t n, bool shuffled) {
    static tyjson_struct types[2];
    tyjson_struct *t = &types[n > 100];
    if (!t->fields) {
        for (size_t i = 0; i < n; i++) {
            snprintf(wide_names[i], sizeof(wide_names[i]), "f%zu", i);
            tyjson_field f = {.name = wide_names[i], .offset = i * 4, .kind = TYJSON_K_I32, .size = 4};
            wide_fields[i] = f;
        }
        tyjson_struct w = {"wide", sizeof(wide), wide_fields, n, 0, NULL};
        *t = w;
    }
    size_t cap = n * 24 + 16, len = 0;
    char *json = (char *)malloc(cap);
    len += (size_t)snprintf(json, cap, "{");
    for (size_t k = 0; k < n; k++) {
        size_t i = shuffled ? (k * 7919) % n : k;
        len += (size_t)snprintf(json + len, cap - len, "%s\"f%zu\":%zu", k ? "," : "", i, i * 3);
    }
    len += (size_t)snprintf(json + len, cap - len, ",\"f%zu\":1,\"g0\":2}", n);
    wide w;
    ASSERT_OK(dec(t, &w, json));
    for (size_t i = 0; i < n; i++) ASSERT_EQ_INT(w.v[i], (int)(i * 3));
    free(json);
}

TEST(many_keys) {
    fresh_arena();
    wide_check(100, false);
    wide_check(100, true);
    wide_check(400, true);
    wide_check(400, false);
}

TEST(keys_that_differ_in_the_middle) {
    fresh_arena();
    typedef struct mid {
        int32_t a, b, c, d;
    } mid;
    static const tyjson_field f[] = {
        TYJSON_FIELD_I32(mid, a, "prefix_aaaa_suffix"),
        TYJSON_FIELD_I32(mid, b, "prefix_aaab_suffix"),
        TYJSON_FIELD_I32(mid, c, "prefix_abaa_suffix"),
        TYJSON_FIELD_I32(mid, d, "prefix_baaa_suffix"),
    };
    static tyjson_struct t = TYJSON_STRUCT(mid, f, 0);
    mid m;
    ASSERT_OK(dec(&t, &m, "{\"prefix_baaa_suffix\":4,\"prefix_abaa_suffix\":3,\"prefix_aaab_suffix\":2,"
                          "\"prefix_aaaa_suffix\":1,\"prefix_aaac_suffix\":9}"));
    ASSERT_EQ_INT(m.a, 1);
    ASSERT_EQ_INT(m.b, 2);
    ASSERT_EQ_INT(m.c, 3);
    ASSERT_EQ_INT(m.d, 4);
    const tyjson__bind_prep *p = (const tyjson__bind_prep *)t.prepared;
    ASSERT_NOT_NULL(p);
    ASSERT_FALSE(p->probing);
}

#define EVENT_FIELDS(X, T)          \
    X(T, STR, title, "title")       \
    X(T, U16, seats, "seats")       \
    X(T, F64, price, "price")       \
    X(T, DATE, day, "day")          \
    X(T, EPOCH_MS, at, "at")        \
    X(T, CSTR, note, "note")
TYJSON_DECLARE_STRUCT(event, EVENT_FIELDS);
TYJSON_DEFINE_TYPE(event, EVENT_FIELDS, 0);

TEST(one_list_form) {
    fresh_arena();
    event e;
    ASSERT_OK(dec(&event_type, &e,
                  "{\"title\":\"Gig\",\"seats\":300,\"price\":12.5,\"day\":\"2024-01-31\","
                  "\"at\":\"2024-01-31T20:00:00Z\",\"note\":\"n\"}"));
    ASSERT_STR(e.title, "Gig");
    ASSERT_EQ_UINT(e.seats, 300);
    ASSERT_EQ_INT(e.day.month, 1);
    ASSERT_EQ_INT(e.at, 1706731200000LL);
    ASSERT_EQ_STR(e.note, "n");
}

/* ----------------------------------------------------------------------------
 * Scenario files (../shared/scenarios)
 * ------------------------------------------------------------------------- */
#include "scenario_types.h"

static char *scenario(const char *rel, size_t *len) {
    char path[1024], full[1100];
    snprintf(full, sizeof(full), "scenarios/%s", rel);
    test_shared_path(full, path, sizeof(path));
    char *text = test_read_file(path, len);
    if (!text) {
        if (test_require_shared()) TEST_FAIL("missing %s", path);
        TEST_SKIP("no %s", path);
    }
    return text;
}

TEST(scenario_kissjson) {
    fresh_arena();
    size_t n;
    char *t = scenario("kissjson/simple_pojo.json", &n);
    simple_pojo sp;
    ASSERT_OK(tyjson_decode(&simple_pojo_type, &sp, t, n, &arena, NULL, &err));
    ASSERT_STR(sp.name, "Alice");
    ASSERT_EQ_INT(sp.age, 30);
    ASSERT_TRUE(sp.active);
    ASSERT_EQ_DBL_BITS(sp.score, 95.5);
    free(t);
    t = scenario("kissjson/nested_pojo.json", &n);
    nested_pojo np;
    ASSERT_OK(tyjson_decode(&nested_pojo_type, &np, t, n, &arena, NULL, &err));
    ASSERT_STR(np.name, "Outer");
    ASSERT_EQ_INT(np.value, 99);
    ASSERT_STR(np.nested->name, "Inner");
    ASSERT_EQ_INT(np.nested->value, 42);
    ASSERT_NULL(np.nested->nested);
    free(t);
    t = scenario("kissjson/date_pojo.json", &n);
    date_pojo dp;
    ASSERT_OK(tyjson_decode(&date_pojo_type, &dp, t, n, &arena, NULL, &err));
    ASSERT_EQ_INT(dp.local_date.year, 2024);
    ASSERT_EQ_INT(dp.local_date.month, 6);
    ASSERT_EQ_INT(dp.local_date.day, 15);
    ASSERT_EQ_INT(dp.instant_epoch_ms, 1718447400000LL);
    free(t);
    t = scenario("kissjson/pojo_list_100.json", &n);
    simple_pojo_list l;
    ASSERT_OK(tyjson_decode(&simple_pojo_list_type, &l, t, n, &arena, NULL, &err));
    ASSERT_EQ_UINT(l.n, 100);
    for (int i = 0; i < 100; i++) {
        char name[16];
        snprintf(name, sizeof(name), "User%d", i);
        ASSERT_STR(l.items[i].name, name);
        ASSERT_EQ_INT(l.items[i].age, 20 + i % 50);
        ASSERT_EQ_INT(l.items[i].active, i % 2 == 0);
        ASSERT_EQ_DBL_BITS(l.items[i].score, 50.0 + i);
    }
    free(t);
}

static void check_pa_user(const pa_user *u, bool owner) {
    (void)owner;
    ASSERT_STR(u->login, "hacker");
    ASSERT_STR(u->first_name, "Nevil");
    ASSERT_STR(u->last_name, "Maskelyne");
    ASSERT_STR(u->email, "nevil.maskelyne@gmail.com");
    ASSERT_EQ_INT(u->age, 149);
    ASSERT_EQ_INT(u->birth_date_ms, 56584306800000LL);
}

TEST(scenario_photo_album) {
    fresh_arena();
    size_t n;
    char *t = scenario("photoalbum/photo_album_200.json", &n);
    for (int mode = 0; mode < 2; mode++) {
        tyjson_decode_options o = {mode ? TYJSON_DECODE_BORROW : 0, 0, 0, NULL};
        pa_album al;
        ASSERT_OK(tyjson_decode(&pa_album_type, &al, t, n, &arena, &o, &err));
        ASSERT_STR(al.name, "Generic album 1");
        ASSERT_EQ_UINT(al.description.len, 546);
        check_pa_user(&al.owner, true);
        ASSERT_EQ_INT(al.photo_count, 200);
        ASSERT_EQ_INT(al.created_ms, 1332068400000LL);
        ASSERT_EQ_INT(al.modified_ms, 1332068400000LL);
        ASSERT_EQ_UINT(al.n_photos, 200);
        for (int i = 0; i < 200; i++) {
            const pa_photo *p = &al.photos[i];
            char want[64];
            snprintf(want, sizeof(want), "Photo %d", i + 1);
            ASSERT_STR(p->name, want);
            ASSERT_EQ_UINT(p->description.len, 456);
            ASSERT_EQ_INT(p->width, 4000);
            ASSERT_EQ_INT(p->height, 3000);
            ASSERT_TRUE(p->horizontal);
            ASSERT_FALSE(p->vertical);
            snprintf(want, sizeof(want), "/img/galleries/12345/photo_%d.png", i + 1);
            ASSERT_STR(p->path, want);
            ASSERT_TRUE(p->rating == 3.67f);
            ASSERT_EQ_INT(p->rating_count, 234);
            ASSERT_EQ_INT(p->display_count, 2334);
            ASSERT_EQ_INT(p->created_ms, 1332068400000LL);
            check_pa_user(&p->author, false);
        }
        tyjson_arena_reset(&arena);
    }
    free(t);
}

TEST(scenario_kudos) {
    static const struct {
        const char *file;
        size_t users, friends, images, tags, range;
    } files[] = {
        {"kudos/small.json", 2, 6, 16, 14, 20},
        {"kudos/medium.json", 20, 60, 144, 140, 200},
        {"kudos/large.json", 60, 180, 459, 420, 600},
    };
    fresh_arena();
    for (size_t f = 0; f < 3; f++) {
        size_t n;
        char *t = scenario(files[f].file, &n);
        kr_response r;
        ASSERT_OK(tyjson_decode(&kr_response_type, &r, t, n, &arena, NULL, &err));
        ASSERT_EQ_UINT(r.n_users, files[f].users);
        ASSERT_STR(r.status, "success");
        ASSERT_FALSE(r.is_real_json);
        size_t fr = 0, im = 0, tg = 0, rg = 0;
        for (size_t u = 0; u < r.n_users; u++) {
            const kr_user *us = &r.users[u];
            fr += us->n_friends;
            im += us->n_images;
            tg += us->n_tags;
            rg += us->n_range;
            ASSERT_EQ_UINT(us->id.len, 24);
            ASSERT_EQ_INT(us->index, (int)u);
            ASSERT_EQ_UINT(us->guid.len, 36);
            ASSERT_TRUE(us->about.len >= 2 && memcmp(us->about.ptr + us->about.len - 2, "\r\n", 2) == 0);
            ASSERT_TRUE(us->name.first.len > 0 && us->name.last.len > 0);
            for (size_t k = 0; k < us->n_range; k++) ASSERT_EQ_INT(us->range[k], (int)k);
            for (size_t k = 0; k < us->n_friends; k++) ASSERT_EQ_INT(us->friends[k].id, (int)k);
            ASSERT_TRUE(us->latitude >= -90 && us->latitude <= 90);
        }
        ASSERT_EQ_UINT(fr, files[f].friends);
        ASSERT_EQ_UINT(im, files[f].images);
        ASSERT_EQ_UINT(tg, files[f].tags);
        ASSERT_EQ_UINT(rg, files[f].range);
        free(t);
        tyjson_arena_reset(&arena);
    }
}

TEST(scenario_boon_and_json0) {
    fresh_arena();
    size_t n;
    char *t = scenario("boon/simple.json", &n);
    boon_simple bs;
    ASSERT_OK(tyjson_decode(&boon_simple_type, &bs, t, n, &arena, NULL, &err));
    ASSERT_EQ_INT(bs.id, 66883393);
    ASSERT_STR(bs.type, "task");
    ASSERT_EQ_INT(bs.priority, 8);
    ASSERT_STR(bs.title, "Totals row shows the old currency code in the \"billing/summary\" pages.");
    ASSERT_STR(bs.description, "");
    ASSERT_STR(bs.create_date, "2013-12-29T12:00:00+0000");
    free(t);
    t = scenario("boon/medium.json", &n);
    boon_medium bm;
    ASSERT_OK(tyjson_decode(&boon_medium_type, &bm, t, n, &arena, NULL, &err));
    ASSERT_STR(bm.display_name, "Maren Pell");
    ASSERT_EQ_UINT(bm.n_languages, 3);
    ASSERT_STR(bm.languages[2], "de");
    ASSERT_EQ_INT(bm.photo.height, 240);
    ASSERT_NULL(bm.background_image.ptr);
    ASSERT_EQ_UINT(bm.n_places, 2);
    ASSERT_STR(bm.places[1].name, "desk");
    ASSERT_EQ_DBL_BITS(bm.citation_index, 2.5);
    free(t);
    t = scenario("boon/complex.json", &n);
    boon_complex bc;
    ASSERT_OK(tyjson_decode(&boon_complex_type, &bc, t, n, &arena, NULL, &err));
    ASSERT_EQ_UINT(bc.n_messages, 10);
    size_t body = 0;
    for (size_t i = 0; i < 10; i++) {
        body += bc.messages[i].body.len;
        ASSERT_TRUE(bc.messages[i].headers.n_to >= 1 && bc.messages[i].headers.n_to <= 7);
    }
    ASSERT_TRUE(body >= 14280); /* 14,280 characters, some of them multi-byte */
    free(t);
    t = scenario("json0/message_1048575.json", &n);
    j0_message m;
    ASSERT_OK(tyjson_decode(&j0_message_type, &m, t, n, &arena, NULL, &err));
    ASSERT_EQ_INT(m.id, 1048575);
    ASSERT_STR(m.method, "JSON");
    ASSERT_STR(m.property.value, "Value");
    ASSERT_STR(m.childs[1].name, "child2");
    free(t);
    t = scenario("json0/hoian.json", &n);
    hoian h;
    ASSERT_OK(tyjson_decode(&hoian_type, &h, t, n, &arena, NULL, &err));
    ASSERT_EQ_INT(h.day_length, 3);
    ASSERT_STR(h.must_visits.evening, "An Bang Beach");
    ASSERT_STR(h.must_tries[0].food2, "Com Ga Hoi An");
    ASSERT_STR(h.must_tries[1].drink1, "Cafe Sua Da");
    ASSERT_EQ_UINT(h.must_tries[1].food1.len, 0);
    free(t);
    t = scenario("json0/jmh_entity_stringified.json", &n);
    j0_entity e;
    ASSERT_OK(tyjson_decode(&j0_entity_stringified_type, &e, t, n, &arena, NULL, &err));
    ASSERT_STR(e.properties.favorite_food, "Tamagoyaki");
    ASSERT_STR(e.properties.secret, "Marty McFly");
    free(t);
    t = scenario("json0/jmh_entity_nested.json", &n);
    ASSERT_OK(tyjson_decode(&j0_entity_type, &e, t, n, &arena, NULL, &err));
    ASSERT_STR(e.id_number, "567-34-2194");
    ASSERT_STR(e.properties.demography, "Vietnamese");
    free(t);
}

/* ----------------------------------------------------------------------------
 * The binding contract: decode(encode(x)) == x, or preparation refuses
 * ------------------------------------------------------------------------- */
typedef struct combo {
    int32_t qty;
    bool has_qty;
    tyjson_str s;
    int32_t *nums;
    size_t n_nums;
    tyjson_state st;
    tyjson_val *v;
} combo;

/* Prepares a one-field type and returns its status; msg/path when refused. */
static tyjson_status prep_one(tyjson_field f, uint32_t tflags) {
    static tyjson_field fields[1];
    static tyjson_struct t;
    fields[0] = f;
    tyjson_struct fresh = TYJSON_STRUCT(combo, fields, 0);
    fresh.flags = tflags;
    t = fresh;
    tyjson_status st = tyjson_struct_prepare(&t, &err);
    tyjson_struct_release(&t);
    return st;
}
#define EXPECT_REFUSED(field, tflags, want_path, msg_part)                     \
    do {                                                                       \
        tyjson_field f__ = field;                                              \
        if (prep_one(f__, (tflags)) != TYJSON_E_INVALID_ARG)                   \
            TEST_FAIL("not refused: %s", #field);                              \
        if (strcmp(err.path, want_path) != 0) TEST_FAIL("path %s, want %s", err.path, want_path); \
        if (!strstr(err.msg, msg_part)) TEST_FAIL("message \"%s\" lacks \"%s\"", err.msg, msg_part); \
    } while (0)
#define EXPECT_PREPARED(field, tflags)                                         \
    do {                                                                       \
        tyjson_field f__ = field;                                              \
        if (prep_one(f__, (tflags)) != TYJSON_OK)                              \
            TEST_FAIL("refused: %s: %s at %s", #field, err.msg, err.path);     \
    } while (0)

TEST(prepare_refuses_non_invertible_flags) {
    EXPECT_REFUSED(TYJSON_FIELD_I32(combo, qty, "qty", TYJSON_DEFAULT_I(100), .flags = TYJSON_F_OMIT_EMPTY),
                   0, "combo.qty", "OMIT_EMPTY with a default");
    EXPECT_REFUSED(TYJSON_FIELD_I32(combo, qty, "qty", .flags = TYJSON_F_REQUIRED | TYJSON_F_OMIT_EMPTY),
                   0, "combo.qty", "OMIT_EMPTY on a REQUIRED field");
    EXPECT_REFUSED(TYJSON_FIELD_I32(combo, qty, "qty", TYJSON_PRESENT(combo, has_qty), .flags = TYJSON_F_REQUIRED),
                   0, "combo.qty", "presence flag on a REQUIRED field");
    EXPECT_REFUSED(TYJSON_FIELD_I32(combo, qty, "qty", TYJSON_PRESENT(combo, has_qty), .flags = TYJSON_F_OMIT_EMPTY),
                   0, "combo.qty", "OMIT_EMPTY with a presence flag");
    EXPECT_REFUSED(TYJSON_FIELD_I32(combo, qty, "qty", TYJSON_PRESENT(combo, has_qty), .flags = TYJSON_F_WRITE_NULL),
                   0, "combo.qty", "WRITE_NULL with a presence flag");
    EXPECT_REFUSED(TYJSON_FIELD_I32(combo, qty, "qty", TYJSON_DEFAULT_I(1), .flags = TYJSON_F_WRITE_NULL),
                   0, "combo.qty", "WRITE_NULL with a default");
    EXPECT_REFUSED(TYJSON_FIELD_VALUE(combo, v, "v", .flags = TYJSON_F_WRITE_NULL | TYJSON_F_OMIT_EMPTY),
                   0, "combo.v", "WRITE_NULL on a VALUE, RAW or CUSTOM field");
    EXPECT_REFUSED(TYJSON_FIELD_DYN(combo, nums, "nums", n_nums, TYJSON_K_I32, .flags = TYJSON_F_OMIT_EMPTY),
                   TYJSON_T_ARRAY, "combo.nums", "TYJSON_T_ARRAY");
    /* state members */
    EXPECT_REFUSED(TYJSON_FIELD_I32(combo, qty, "qty", TYJSON_STATE(combo, st), TYJSON_PRESENT(combo, has_qty)),
                   0, "combo.qty", "state member together with a presence flag");
    EXPECT_REFUSED(TYJSON_FIELD_I32(combo, qty, "qty", TYJSON_STATE(combo, st), .flags = TYJSON_F_REQUIRED),
                   0, "combo.qty", "state member on a REQUIRED field");
    EXPECT_REFUSED(TYJSON_FIELD_I32(combo, qty, "qty", TYJSON_STATE(combo, has_qty), TYJSON_PRESENT(combo, has_qty)),
                   0, "combo.qty", "presence");
    EXPECT_REFUSED(TYJSON_FIELD_I32(combo, qty, "qty", .state_at = offsetof(combo, qty) + 2),
                   0, "combo.qty", "state member overlaps another member");
    EXPECT_REFUSED(TYJSON_FIELD_DYN(combo, nums, "nums", n_nums, TYJSON_K_I32,
                                    .state_at = offsetof(combo, n_nums) + 1),
                   0, "combo.nums", "state member overlaps another member");
    EXPECT_REFUSED(TYJSON_FIELD_I32(combo, qty, "qty", .state_at = sizeof(combo) + 1),
                   0, "combo.qty", "state member lies outside the struct");
    EXPECT_REFUSED(TYJSON_FIELD_I32(combo, qty, "qty", TYJSON_STATE(combo, st), .flags = TYJSON_F_OMIT_EMPTY),
                   0, "combo.qty", "with a state member");
    EXPECT_REFUSED(TYJSON_FIELD_RAW(combo, s, "s", .flags = TYJSON_F_WRITE_NULL),
                   0, "combo.s", "WRITE_NULL on a VALUE, RAW or CUSTOM field");
    EXPECT_REFUSED(TYJSON_FIELD_RAW(combo, s, "s", TYJSON_DEFAULT_S("[1,")), 0, "combo.s",
                   "RAW default is not a JSON value");
    EXPECT_REFUSED(TYJSON_FIELD_I32(combo, qty, "qty", TYJSON_STATE(combo, st), .flags = TYJSON_F_WRITE_NULL),
                   0, "combo.qty", "with a state member");
    static const tyjson_enum_entry two[] = {{"x", 1}, {"y", 2}};
    EXPECT_REFUSED(TYJSON_FIELD_ENUM(combo, qty, "qty", two, TYJSON_DEFAULT_I(3)), 0, "combo.qty",
                   "none of the enum's entries");
    EXPECT_PREPARED(TYJSON_FIELD_ENUM(combo, qty, "qty", two, TYJSON_DEFAULT_I(2)), 0);
    tyjson_field ep_f = TYJSON_FIELD_EPOCH_MS(combo, v, "t", TYJSON_DEFAULT_I(INT64_MAX));
    ep_f.size = 8;
    EXPECT_REFUSED(ep_f, 0, "combo.t", "default epoch outside years 0000-9999");
    ep_f.flags = TYJSON_F_EPOCH_NUMBER;
    EXPECT_PREPARED(ep_f, 0);
    /* allowed: each of these round-trips (tests/test_bind_roundtrip.c) */
    EXPECT_PREPARED(TYJSON_FIELD_I32(combo, qty, "qty", TYJSON_DEFAULT_I(100)), 0);
    EXPECT_PREPARED(TYJSON_FIELD_I32(combo, qty, "qty", TYJSON_PRESENT(combo, has_qty), TYJSON_DEFAULT_I(3)), 0);
    EXPECT_PREPARED(TYJSON_FIELD_I32(combo, qty, "qty", .flags = TYJSON_F_OMIT_EMPTY | TYJSON_F_WRITE_NULL), 0);
    EXPECT_PREPARED(TYJSON_FIELD_I32(combo, qty, "qty", TYJSON_STATE(combo, st), TYJSON_DEFAULT_I(4)), 0);
    EXPECT_PREPARED(TYJSON_FIELD_DYN(combo, nums, "nums", n_nums, TYJSON_K_I32, TYJSON_STATE(combo, st)), 0);
}

typedef struct wn {
    int32_t *nums;
    size_t n_nums;
    tyjson_str s;
    int32_t q;
} wn;
static const tyjson_field wn_fields[] = {
    TYJSON_FIELD_DYN(wn, nums, "nums", n_nums, TYJSON_K_I32, .flags = TYJSON_F_WRITE_NULL),
    TYJSON_FIELD_STR(wn, s, "s", .flags = TYJSON_F_WRITE_NULL),
    TYJSON_FIELD_I32(wn, q, "q", .flags = TYJSON_F_WRITE_NULL | TYJSON_F_OMIT_EMPTY),
};
static tyjson_struct wn_type = TYJSON_STRUCT(wn, wn_fields, 0);

TEST(write_null_output_decodes) {
    fresh_arena();
    wn v;
    memset(&v, 0, sizeof(v));
    size_t n;
    char *text = tyjson_encode(&wn_type, &v, NULL, &n, &err);
    ASSERT_NOT_NULL(text);
    ASSERT_EQ_STR(text, "{\"nums\":null,\"s\":null,\"q\":null}");
    wn back;
    ASSERT_OK(tyjson_decode(&wn_type, &back, text, n, &arena, NULL, &err));
    ASSERT_NULL(back.nums);
    ASSERT_EQ_UINT(back.n_nums, 0);
    ASSERT_NULL(back.s.ptr);
    ASSERT_EQ_INT(back.q, 0);
    free(text);
}

typedef struct zd {
    tyjson_date d;
    tyjson_datetime dt;
    tyjson_date dn;
} zd;
static const tyjson_field zd_fields[] = {
    TYJSON_FIELD_DATE(zd, d, "d"),
    TYJSON_FIELD_DATETIME(zd, dt, "dt"),
    TYJSON_FIELD_DATE(zd, dn, "dn", .flags = TYJSON_F_WRITE_NULL),
};
static tyjson_struct zd_type = TYJSON_STRUCT(zd, zd_fields, 0);

typedef struct zd2 {
    tyjson_date r, dd, p;
    bool has_p;
} zd2;
static const tyjson_field zd2_r_fields[] = {TYJSON_FIELD_DATE(zd2, r, "r", .flags = TYJSON_F_REQUIRED)};
static const tyjson_field zd2_d_fields[] = {TYJSON_FIELD_DATE(zd2, dd, "dd", TYJSON_DEFAULT_S("2000-01-01"))};
static const tyjson_field zd2_p_fields[] = {TYJSON_FIELD_DATE(zd2, p, "p", TYJSON_PRESENT(zd2, has_p))};
static tyjson_struct zd2_r_type = TYJSON_STRUCT(zd2, zd2_r_fields, 0);
static tyjson_struct zd2_d_type = TYJSON_STRUCT(zd2, zd2_d_fields, 0);
static tyjson_struct zd2_p_type = TYJSON_STRUCT(zd2, zd2_p_fields, 0);

/* Where an absent key cannot give the zero date, it is no value to write. */
TEST(zero_dates_without_an_absent_form) {
    zd2 v;
    memset(&v, 0, sizeof(v));
    size_t n;
    ASSERT_NULL(tyjson_encode(&zd2_r_type, &v, NULL, &n, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_DATE);
    ASSERT_EQ_STR(err.path, "$.r");
    ASSERT_NULL(tyjson_encode(&zd2_d_type, &v, NULL, &n, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_DATE);
    char *t = tyjson_encode(&zd2_p_type, &v, NULL, &n, &err); /* not present: left out */
    ASSERT_EQ_STR(t, "{}");
    free(t);
    v.has_p = true;
    ASSERT_NULL(tyjson_encode(&zd2_p_type, &v, NULL, &n, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_DATE);
}

TEST(zero_dates_are_absent) {
    fresh_arena();
    zd v;
    ASSERT_OK(dec(&zd_type, &v, "{}"));
    size_t n;
    char *text = tyjson_encode(&zd_type, &v, NULL, &n, &err);
    ASSERT_NOT_NULL(text);
    ASSERT_EQ_STR(text, "{\"dn\":null}");
    zd back;
    ASSERT_OK(tyjson_decode(&zd_type, &back, text, n, &arena, NULL, &err));
    ASSERT_TRUE(all_zero(&back, sizeof(back)));
    free(text);
    ASSERT_OK(dec(&zd_type, &v, "{\"d\":\"2024-01-02\",\"dt\":\"2024-01-02T03:04:05Z\",\"dn\":\"0001-01-01\"}"));
    text = tyjson_encode(&zd_type, &v, NULL, &n, &err);
    ASSERT_EQ_STR(text, "{\"d\":\"2024-01-02\",\"dt\":\"2024-01-02T03:04:05Z\",\"dn\":\"0001-01-01\"}");
    free(text);
}

typedef struct ep {
    int64_t ms, ns, msn, nsn;
} ep;
static const tyjson_field ep_fields[] = {
    TYJSON_FIELD_EPOCH_MS(ep, ms, "ms"),
    TYJSON_FIELD_EPOCH_NS(ep, ns, "ns"),
    TYJSON_FIELD_EPOCH_MS(ep, msn, "msn", .flags = TYJSON_F_EPOCH_NUMBER),
    TYJSON_FIELD_EPOCH_NS(ep, nsn, "nsn", .flags = TYJSON_F_EPOCH_NUMBER),
};
static tyjson_struct ep_type = TYJSON_STRUCT(ep, ep_fields, 0);

/* v encodes and decodes back to itself in every epoch field. */
static void epoch_round_trip(const char *file, int line, ep v) {
    size_t n;
    char *text = tyjson_encode(&ep_type, &v, NULL, &n, &err);
    if (!text) TEST_FAIL_AT(file, line, "encode: %s at %s", err.msg, err.path);
    ep back;
    if (tyjson_decode(&ep_type, &back, text, n, &arena, NULL, &err) != TYJSON_OK)
        TEST_FAIL_AT(file, line, "decode of %s: %s at %s", text, err.msg, err.path);
    if (memcmp(&v, &back, sizeof(v)) != 0) TEST_FAIL_AT(file, line, "differs after %s", text);
    free(text);
}

TEST(epoch_ranges_match_the_encoder) {
    fresh_arena();
    const int64_t ms_min = -62167219200000LL, ms_max = 253402300799999LL;
    epoch_round_trip(__FILE__, __LINE__, (ep){ms_min, INT64_MIN, INT64_MIN, INT64_MIN});
    epoch_round_trip(__FILE__, __LINE__, (ep){ms_max, INT64_MAX, INT64_MAX, INT64_MAX});
    epoch_round_trip(__FILE__, __LINE__, (ep){-1, -1, -1, -1});
    epoch_round_trip(__FILE__, __LINE__, (ep){0, 0, 0, 0});
    ep v;
    /* without EPOCH_NUMBER: what the ISO form cannot write is refused */
    EXPECT_ERR(&ep_type, "{\"ms\":9223372036854775807}", TYJSON_E_NUMBER_RANGE, "$.ms", 1, 7, NULL);
    EXPECT_ERR(&ep_type, "{\"ms\":-62167219200001}", TYJSON_E_NUMBER_RANGE, "$.ms", 1, 7, NULL);
    EXPECT_ERR(&ep_type, "{\"ms\":253402300800000}", TYJSON_E_NUMBER_RANGE, "$.ms", 1, 7, NULL);
    ASSERT_OK(dec(&ep_type, &v, "{\"ms\":-62167219200000,\"ns\":9223372036854775807}"));
    ASSERT_OK(dec(&ep_type, &v, "{\"ms\":253402300799999}"));
    EXPECT_ERR(&ep_type, "{\"ms\":\"0000-01-01T00:00:00+01:00\"}", TYJSON_E_DATE, "$.ms", 1, 7, NULL);
    EXPECT_ERR(&ep_type, "{\"ms\":\"9999-12-31T23:59:59-00:01\"}", TYJSON_E_DATE, "$.ms", 1, 7, NULL);
    ASSERT_OK(dec(&ep_type, &v, "{\"ms\":\"0000-01-01T01:00:00+01:00\"}"));
    ASSERT_EQ_INT(v.ms, ms_min);
    ASSERT_OK(dec(&ep_type, &v, "{\"ms\":\"9999-12-31T23:59:59.999999999Z\"}"));
    ASSERT_EQ_INT(v.ms, ms_max);
    EXPECT_ERR(&ep_type, "{\"ns\":\"1677-09-21T00:12:43.145224191Z\"}", TYJSON_E_DATE, "$.ns", 1, 7, NULL);
    ASSERT_OK(dec(&ep_type, &v, "{\"ns\":\"1677-09-21T00:12:43.145224192Z\"}"));
    ASSERT_EQ_INT(v.ns, INT64_MIN);
    ASSERT_OK(dec(&ep_type, &v, "{\"ns\":\"2262-04-11T23:47:16.854775807Z\"}"));
    ASSERT_EQ_INT(v.ns, INT64_MAX);
    EXPECT_ERR(&ep_type, "{\"ns\":\"2262-04-11T23:47:16.854775808Z\"}", TYJSON_E_DATE, "$.ns", 1, 7, NULL);
    /* with EPOCH_NUMBER any int64 is fine as a number; strings still in range */
    ASSERT_OK(dec(&ep_type, &v, "{\"msn\":9223372036854775807,\"nsn\":-9223372036854775808}"));
    ASSERT_EQ_INT(v.msn, INT64_MAX);
    ASSERT_OK(dec(&ep_type, &v, "{\"msn\":\"0000-01-01T00:00:00+01:00\"}"));
    ASSERT_EQ_INT(v.msn, ms_min - 3600000);
    EXPECT_ERR(&ep_type, "{\"nsn\":\"2263-01-01T00:00:00Z\"}", TYJSON_E_DATE, "$.nsn", 1, 8, NULL);
    EXPECT_ERR(&ep_type, "{\"msn\":9223372036854775808}", TYJSON_E_NUMBER_RANGE, "$.msn", 1, 8, NULL);
}

typedef struct tri {
    int32_t n;
    tyjson_state n_st;
    tyjson_str s;
    tyjson_state s_st;
    int32_t *a;
    size_t n_a;
    tyjson_state a_st;
    struct tri_in { int32_t x; } in;
    tyjson_state in_st;
    struct tri_in *p;
    tyjson_state p_st;
    int32_t d;
    tyjson_state d_st;
} tri;
static const tyjson_field tri_in_fields[] = {TYJSON_FIELD_I32(struct tri_in, x, "x")};
static tyjson_struct tri_in_type = TYJSON_STRUCT(struct tri_in, tri_in_fields, 0);
static const tyjson_field tri_fields[] = {
    TYJSON_FIELD_I32(tri, n, "n", TYJSON_STATE(tri, n_st)),
    TYJSON_FIELD_STR(tri, s, "s", TYJSON_STATE(tri, s_st), .flags = TYJSON_F_NULLABLE),
    TYJSON_FIELD_DYN(tri, a, "a", n_a, TYJSON_K_I32, TYJSON_STATE(tri, a_st)),
    TYJSON_FIELD_STRUCT(tri, in, "in", &tri_in_type, TYJSON_STATE(tri, in_st)),
    TYJSON_FIELD_PTR(tri, p, "p", &tri_in_type, TYJSON_STATE(tri, p_st)),
    TYJSON_FIELD_I32(tri, d, "d", TYJSON_STATE(tri, d_st), TYJSON_DEFAULT_I(7)),
};
static tyjson_struct tri_type = TYJSON_STRUCT(tri, tri_fields, 0);

static void expect_encoding(const char *file, int line, tyjson_struct *t, const void *v,
                            const char *want) {
    size_t n;
    char *text = tyjson_encode(t, v, NULL, &n, &err);
    if (!text) TEST_FAIL_AT(file, line, "encode: %s at %s", err.msg, err.path);
    if (strcmp(text, want) != 0) TEST_FAIL_AT(file, line, "%s, want %s", text, want);
    free(text);
}

TEST(three_state_members) {
    fresh_arena();
    tri v;
    ASSERT_OK(dec(&tri_type, &v, "{}"));
    ASSERT_EQ_INT(v.n_st, TYJSON_STATE_ABSENT);
    ASSERT_EQ_INT(v.d_st, TYJSON_STATE_ABSENT);
    ASSERT_EQ_INT(v.d, 7); /* absent: the default */
    expect_encoding(__FILE__, __LINE__, &tri_type, &v, "{}");
    ASSERT_OK(dec(&tri_type, &v, "{\"n\":null,\"s\": null,\"a\":null,\"in\":null,\"p\":null,\"d\":null}"));
    ASSERT_EQ_INT(v.n_st, TYJSON_STATE_NULL);
    ASSERT_EQ_INT(v.s_st, TYJSON_STATE_NULL);
    ASSERT_EQ_INT(v.a_st, TYJSON_STATE_NULL);
    ASSERT_EQ_INT(v.in_st, TYJSON_STATE_NULL);
    ASSERT_EQ_INT(v.p_st, TYJSON_STATE_NULL);
    ASSERT_EQ_INT(v.d_st, TYJSON_STATE_NULL);
    ASSERT_EQ_INT(v.d, 0); /* null: zero, not the default */
    ASSERT_NULL(v.a);
    expect_encoding(__FILE__, __LINE__, &tri_type, &v,
                    "{\"n\":null,\"s\":null,\"a\":null,\"in\":null,\"p\":null,\"d\":null}");
    ASSERT_OK(dec(&tri_type, &v, "{\"n\":0,\"s\":\"\",\"a\":[],\"in\":{},\"p\":{\"x\":2},\"d\":0}"));
    ASSERT_EQ_INT(v.n_st, TYJSON_STATE_SET);
    ASSERT_EQ_INT(v.s_st, TYJSON_STATE_SET);
    ASSERT_EQ_INT(v.a_st, TYJSON_STATE_SET);
    ASSERT_EQ_INT(v.in_st, TYJSON_STATE_SET);
    ASSERT_EQ_INT(v.p_st, TYJSON_STATE_SET);
    ASSERT_EQ_INT(v.p->x, 2);
    ASSERT_EQ_INT(v.d_st, TYJSON_STATE_SET);
    expect_encoding(__FILE__, __LINE__, &tri_type, &v,
                    "{\"n\":0,\"s\":\"\",\"a\":[],\"in\":{\"x\":0},\"p\":{\"x\":2},\"d\":0}");
    /* SET with a NULL string writes "" (null is the NULL state) */
    v.s.ptr = NULL;
    v.p_st = TYJSON_STATE_ABSENT;
    expect_encoding(__FILE__, __LINE__, &tri_type, &v,
                    "{\"n\":0,\"s\":\"\",\"a\":[],\"in\":{\"x\":0},\"d\":0}");
    EXPECT_ERR(&tri_type, "{\"n\":nul}", TYJSON_E_LITERAL, "$.n", 1, 6, NULL);
    EXPECT_ERR(&tri_type, "{\"n\": ", TYJSON_E_TRUNCATED, "$.n", 1, 7, NULL);
    /* a state member under a repeated key: the first occurrence wins */
    ASSERT_OK(dec(&tri_type, &v, "{\"n\":null,\"n\":5}"));
    ASSERT_EQ_INT(v.n_st, TYJSON_STATE_NULL);
    ASSERT_EQ_INT(v.n, 0);
}

typedef struct bn {
    tyjson_val *v;
    tyjson_str raw;
    int64_t i;
    double f;
} bn;
static const tyjson_field bn_fields[] = {
    TYJSON_FIELD_VALUE(bn, v, "v"),
    TYJSON_FIELD_RAW(bn, raw, "raw"),
    TYJSON_FIELD_I64(bn, i, "i"),
    TYJSON_FIELD_F64(bn, f, "f"),
};
static tyjson_struct bn_type = TYJSON_STRUCT(bn, bn_fields, 0);

TEST(every_read_flag_is_honoured) {
    fresh_arena();
    bn v;
    tyjson_decode_options o = {0, TYJSON_READ_BIGNUM_AS_RAW, 0, NULL};
    ASSERT_OK(dec_opts(&bn_type, &v, "{\"v\":123456789012345678901234567890,\"raw\":1e999}", &o));
    ASSERT_TRUE(tyjson_is_raw(v.v));
    ASSERT_EQ_STR(tyjson_get_str(v.v), "123456789012345678901234567890");
    ASSERT_STR(v.raw, "1e999");
    /* without the flag the DOM parser refuses it, as tyjson_read does */
    EXPECT_ERR(&bn_type, "{\"v\":123456789012345678901234567890}", TYJSON_E_NUMBER_RANGE, "$.v", 1, 6, NULL);
    /* a big integer into an integer member stays a range error */
    EXPECT_ERR_OPTS(&bn_type, "{\"i\":123456789012345678901234567890}", &o, TYJSON_E_NUMBER_RANGE,
                    "$.i", 1, 6, NULL);
    ASSERT_OK(dec_opts(&bn_type, &v, "{\"f\":123456789012345678901234567890}", &o));
    ASSERT_TRUE(v.f > 1.2e29 && v.f < 1.3e29);
    /* REJECT_DUPLICATE_KEYS: on every type, and inside free-form values */
    o.read_flags = TYJSON_READ_REJECT_DUPLICATE_KEYS;
    EXPECT_ERR_OPTS(&bn_type, "{\"i\":1,\"i\":2}", &o, TYJSON_E_DUPLICATE_KEY, "$.i", 1, 8, NULL);
    EXPECT_ERR_OPTS(&bn_type, "{\"v\":{\"a\":1,\"a\":2}}", &o, TYJSON_E_DUPLICATE_KEY, "$.v", 1, 13, NULL);
    ASSERT_OK(dec(&bn_type, &v, "{\"v\":{\"a\":1,\"a\":2}}"));
    ASSERT_EQ_INT(tyjson_get_int(tyjson_obj_get(v.v, "a")), 1); /* first wins there too */
    /* STOP_WHEN_DONE as a read flag: as TYJSON_DECODE_STOP_WHEN_DONE */
    size_t used = 0;
    tyjson_decode_options so = {0, TYJSON_READ_STOP_WHEN_DONE, 0, &used};
    ASSERT_OK(dec_opts(&bn_type, &v, "{\"i\":4} {\"i\":5}", &so));
    ASSERT_EQ_UINT(used, 8); /* the value and the whitespace after it */
    ASSERT_EQ_INT(v.i, 4);
    /* bits no read flag has: refused, never ignored */
    tyjson_decode_options bad = {0, 1u << 30, 0, NULL};
    EXPECT_ERR_OPTS(&bn_type, "{}", &bad, TYJSON_E_INVALID_ARG, NULL, 0, 0, "unknown bits in read_flags");
}

static tyjson_status picky_decode(void *ctx, const tyjson_val *val, void *member, tyjson_arena *a) {
    (void)ctx;
    (void)member;
    if (tyjson_is_str(val)) return TYJSON_OK;
    if (tyjson_is_int(val)) return TYJSON_E_TYPE; /* no reason given: the generic message */
    char why[64];
    snprintf(why, sizeof(why), "picky wants a string, not type %d", (int)tyjson_get_type(val));
    tyjson_codec_fail(a, why);
    return TYJSON_E_TYPE;
}
static tyjson_status picky_encode(void *ctx, const void *member, tyjson_write_fn write, void *wctx) {
    (void)ctx;
    (void)member;
    return write(wctx, "\"x\"", 3) ? TYJSON_E_CALLBACK : TYJSON_OK;
}
static const tyjson_codec picky_codec = {picky_decode, picky_encode, NULL};
typedef struct pk { int64_t m; } pk;
static const tyjson_field pk_fields[] = {TYJSON_FIELD_CUSTOM(pk, m, "m", &picky_codec)};
static tyjson_struct pk_type = TYJSON_STRUCT(pk, pk_fields, 0);

TEST(binding_messages) {
    fresh_arena();
    char want[64];
    snprintf(want, sizeof(want), "picky wants a string, not type %d", (int)TYJSON_TYPE_BOOL);
    EXPECT_ERR(&pk_type, "{\"m\":true}", TYJSON_E_TYPE, "$.m", 1, 6, want);
    EXPECT_ERR(&pk_type, "{\"m\":1}", TYJSON_E_TYPE, "$.m", 1, 6, "custom codec reported an error");
    pk v;
    ASSERT_OK(dec(&pk_type, &v, "{\"m\":\"s\"}"));
    /* no room in the arena: the detailed message all the same, since it is
     * held in the error record, not in the arena */
    char tiny[8];
    tyjson_arena small;
    tyjson_arena_init_buf(&small, tiny, sizeof(tiny));
    paint pv;
    const char *pj = "{\"c8\":\"Red\"}";
    ASSERT_EQ_INT(tyjson_decode(&paint_type, &pv, pj, strlen(pj), &small, NULL, &err), TYJSON_E_ENUM);
    ASSERT_EQ_STR(err.msg, "unknown enum name \"Red\" (expected one of \"red\", \"green\", \"blue\", \"\")");
    tyjson_error copy = err; /* a copy keeps it after the arena is gone */
    tyjson_arena_free(&small);
    ASSERT_EQ_STR(copy.msg, err.msg);
    /* bad arguments say which */
    simple s;
    ASSERT_EQ_INT(tyjson_decode(&simple_type, &s, "{}", 2, NULL, NULL, &err), TYJSON_E_INVALID_ARG);
    ASSERT_EQ_STR(err.msg, "arena is NULL");
    ASSERT_EQ_INT(tyjson_decode(NULL, &s, "{}", 2, &arena, NULL, &err), TYJSON_E_INVALID_ARG);
    ASSERT_EQ_STR(err.msg, "type is NULL");
    ASSERT_EQ_INT(tyjson_decode(&simple_type, &s, NULL, 2, &arena, NULL, &err), TYJSON_E_INVALID_ARG);
    ASSERT_EQ_STR(err.msg, "json is NULL with a non-zero length");
}

TEST(zero_initialised_arena) {
    tyjson_arena z;
    memset(&z, 0, sizeof(z));
    simple s;
    const char *json = "{\"name\":\"a long enough name to be copied\",\"age\":3}";
    ASSERT_EQ_INT(tyjson_decode(&simple_type, &s, json, strlen(json), &z, NULL, &err), TYJSON_OK);
    ASSERT_STR(s.name, "a long enough name to be copied");
    void *big = tyjson_arena_alloc(&z, 100000, 16); /* a second block */
    ASSERT_NOT_NULL(big);
    tyjson_arena_reset(&z);
    ASSERT_EQ_UINT(tyjson_arena_used(&z), 0);
    ASSERT_NOT_NULL(tyjson_arena_alloc(&z, 10, 8));
    tyjson_arena_free(&z);
    memset(&z, 0, sizeof(z));
    tyjson_arena_reset(&z); /* nothing allocated yet: fine too */
    tyjson_arena_free(&z);
}

TEST(error_paths_after_separators) {
    fresh_arena();
    EXPECT_ERR(&arrays_type, "{\"fixed\":[1,2,", TYJSON_E_TRUNCATED, "$.fixed[2]", 1, 15, NULL);
    EXPECT_ERR(&arrays_type, "{\"fixed\":[1,2, ", TYJSON_E_TRUNCATED, "$.fixed[2]", 1, 16, NULL);
    EXPECT_ERR(&arrays_type, "{\"fixed\":[", TYJSON_E_TRUNCATED, "$.fixed[0]", 1, 11, NULL);
    EXPECT_ERR(&arrays_type, "{\"fixed\":[1,2", TYJSON_E_TRUNCATED, "$.fixed[1]", 1, 14, NULL);
    EXPECT_ERR(&arrays_type, "{\"fixed\":[1,2,]}", TYJSON_E_UNEXPECTED_CHAR, "$.fixed[2]", 1, 15, NULL);
    EXPECT_ERR(&arrays_type, "{\"pts\":[{\"x\":1},", TYJSON_E_TRUNCATED, "$.pts[1]", 1, 17, NULL);
    EXPECT_ERR(&arrays_type, "{\"pts\":[{\"x\":1,", TYJSON_E_TRUNCATED, "$.pts[0]", 1, 16, NULL);
    EXPECT_ERR(&simple_type, "{\"age\":1, ", TYJSON_E_TRUNCATED, "$", 1, 11, NULL);
    EXPECT_ERR(&holder_type, "{\"inner\":{\"b\":1,", TYJSON_E_TRUNCATED, "$.inner", 1, 17, NULL);
}

/* A schema built at run time: prepared, used, released (ASan: no leak). */
TEST(runtime_schema_release) {
    fresh_arena();
    typedef struct rt { int32_t a; struct rt_in { tyjson_str s; } in; } rt;
    tyjson_field *inner_f = (tyjson_field *)calloc(1, sizeof(tyjson_field));
    tyjson_field *outer_f = (tyjson_field *)calloc(2, sizeof(tyjson_field));
    tyjson_struct *inner = (tyjson_struct *)calloc(1, sizeof(tyjson_struct));
    tyjson_struct *outer = (tyjson_struct *)calloc(1, sizeof(tyjson_struct));
    *inner_f = (tyjson_field)TYJSON_FIELD_STR(struct rt_in, s, "s");
    outer_f[0] = (tyjson_field)TYJSON_FIELD_I32(rt, a, "a");
    outer_f[1] = (tyjson_field)TYJSON_FIELD_STRUCT(rt, in, "in", inner);
    *inner = (tyjson_struct){"rt_in", sizeof(struct rt_in), inner_f, 1, 0, NULL};
    *outer = (tyjson_struct){"rt", sizeof(rt), outer_f, 2, 0, NULL};
    for (int round = 0; round < 3; round++) {
        rt v;
        ASSERT_OK(dec(outer, &v, "{\"a\":1,\"in\":{\"s\":\"x\"}}"));
        ASSERT_STR(v.in.s, "x");
        ASSERT_NOT_NULL(outer->prepared);
        ASSERT_NOT_NULL(inner->prepared);
        if (round == 1) {
            /* the nested type alone: prepared again when the outer one is used */
            tyjson_struct_release(inner);
            ASSERT_NULL(inner->prepared);
            continue;
        }
        tyjson_struct_release(outer);
        tyjson_struct_release(inner);
        ASSERT_NULL(outer->prepared);
    }
    tyjson_struct_release(outer); /* already released: nothing */
    tyjson_struct_release(NULL);
    free(inner_f);
    free(outer_f);
    free(inner);
    free(outer);
}

/* Random key sequences (repeats, unknown keys, any order, both directions
 * of the decoder's key prediction): every field holds the value of its
 * key's first occurrence, as tyjson_obj_get finds it. */
typedef struct five { int32_t v[5]; } five;
static const tyjson_field five_fields[] = {
    TYJSON_FIELD_I32(five, v[0], "a"), TYJSON_FIELD_I32(five, v[1], "b"),
    TYJSON_FIELD_I32(five, v[2], "c"), TYJSON_FIELD_I32(five, v[3], "d"),
    TYJSON_FIELD_I32(five, v[4], "e"),
};
static tyjson_struct five_type = TYJSON_STRUCT(five, five_fields, 0);
typedef struct five_list { five *items; size_t n; } five_list;
static const tyjson_field five_list_fields[] = {
    TYJSON_FIELD_DYN(five_list, items, "items", n, TYJSON_K_STRUCT, .type = &five_type),
};
static tyjson_struct five_list_type = TYJSON_STRUCT(five_list, five_list_fields, TYJSON_T_ARRAY);

TEST(first_key_wins_in_any_order) {
    fresh_arena();
    uint64_t rng = 12345;
    static const char *const keys[] = {"a", "b", "c", "d", "e", "zz"};
    for (int round = 0; round < 3000; round++) {
        char json[4096];
        size_t k = 0;
        int want[8][5];
        int n_obj = 1 + (int)(rng % 3);
        json[k++] = '[';
        for (int o = 0; o < n_obj; o++) {
            for (int i = 0; i < 5; i++) want[o][i] = 0;
            bool seen[5] = {false};
            if (o) json[k++] = ',';
            json[k++] = '{';
            rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
            int n = (int)(rng % 12), mode = (int)(rng >> 20) % 3;
            for (int m = 0; m < n; m++) {
                rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
                /* mostly runs in declared or reverse order, sometimes jumps */
                int key = mode == 0 ? m % 6 : mode == 1 ? 5 - 1 - m % 5 : (int)(rng % 6);
                if ((rng >> 33) % 5 == 0) key = (int)((rng >> 40) % 6);
                int val = round * 100 + o * 20 + m + 1;
                k += (size_t)snprintf(json + k, sizeof(json) - k, "%s\"%s\":%d", m ? "," : "", keys[key], val);
                if (key < 5 && !seen[key]) {
                    seen[key] = true;
                    want[o][key] = val;
                }
            }
            json[k++] = '}';
        }
        json[k++] = ']';
        json[k] = 0;
        five_list v;
        ASSERT_OK(dec(&five_list_type, &v, json));
        ASSERT_EQ_UINT(v.n, (size_t)n_obj);
        for (int o = 0; o < n_obj; o++)
            for (int i = 0; i < 5; i++)
                if (v.items[o].v[i] != want[o][i])
                    TEST_FAIL("%s: object %d field %d = %d, want %d", json, o, i, v.items[o].v[i], want[o][i]);
        tyjson_arena_reset(&arena);
    }
}

/* More than 64 fields: the wide types' own bookkeeping. */
typedef struct wide70 { int32_t v[70]; } wide70;
static tyjson_field wide70_fields[70];
static char wide70_names[70][4];
static tyjson_struct wide70_type = {"wide70", sizeof(wide70), wide70_fields, 70, 0, NULL};

TEST(first_key_wins_wide_types) {
    fresh_arena();
    for (int i = 0; i < 70; i++) {
        snprintf(wide70_names[i], sizeof(wide70_names[i]), "k%d", i);
        wide70_fields[i] = (tyjson_field)TYJSON_FIELD_I32(wide70, v[0], "x");
        wide70_fields[i].name = wide70_names[i];
        wide70_fields[i].offset = offsetof(wide70, v) + (size_t)i * 4;
    }
    wide70 v;
    ASSERT_OK(dec(&wide70_type, &v, "{\"k69\":1,\"k3\":2,\"k69\":3,\"k3\":4,\"k0\":5,\"k1\":6,\"k0\":7}"));
    ASSERT_EQ_INT(v.v[69], 1);
    ASSERT_EQ_INT(v.v[3], 2);
    ASSERT_EQ_INT(v.v[0], 5);
    ASSERT_EQ_INT(v.v[1], 6);
    tyjson_decode_options o = {0, TYJSON_READ_REJECT_DUPLICATE_KEYS, 0, NULL};
    EXPECT_ERR_OPTS(&wide70_type, "{\"k69\":1,\"k3\":2,\"k69\":3}", &o, TYJSON_E_DUPLICATE_KEY, "$.k69", 1, 17, NULL);
}

int main(int argc, char **argv) {
    int r = test_main(argc, argv);
    tyjson_arena_free(&arena);
    return r;
}
