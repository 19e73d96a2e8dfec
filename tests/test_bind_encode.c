/* test_bind_encode.c - the binding encoder: exact bytes for every kind and
 * flag, the pretty layout (checked against the DOM writer too), errors with
 * their paths, every sink, the reusable buffer (no allocation once it is
 * large enough) and an allocation-failure sweep. */
#include "test.h"
#include "fixtures/bind_types.h" /* ints, point, point_list, reals, node */
#include "tyjson.h"

#include "num/num.h" /* the number core, to compare with */

#include <math.h>

/* ----------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------- */

/* Encodes with flags (indent 0 = default) and compares with want. */
#define ASSERT_ENC(type, in, flags, indent, want)                              \
    do {                                                                       \
        tyjson_write_options o__ = {(flags), (indent), NULL};                  \
        tyjson_error e__;                                                      \
        size_t n__ = 0;                                                        \
        char *t__ = tyjson_encode((type), (in), &o__, &n__, &e__);             \
        if (!t__) TEST_FAIL("encode failed: %s at %s", tyjson_status_name(e__.code), e__.path); \
        ASSERT_EQ_INT(e__.code, TYJSON_OK);                                    \
        ASSERT_EQ_STR(t__, (want));                                            \
        ASSERT_EQ_UINT(n__, strlen(want));                                     \
        free(t__);                                                             \
    } while (0)

/* Encodes expecting an error code and path. */
#define ASSERT_ENC_ERR(type, in, flags, code_, path_)                           \
    do {                                                                       \
        tyjson_write_options o__ = {(flags), 0, NULL};                         \
        tyjson_error e__;                                                      \
        size_t n__ = 123;                                                      \
        char *t__ = tyjson_encode((type), (in), &o__, &n__, &e__);             \
        ASSERT_NULL(t__);                                                      \
        ASSERT_EQ_UINT(n__, 0);                                                \
        ASSERT_EQ_STR(tyjson_status_name(e__.code), tyjson_status_name(code_)); \
        ASSERT_EQ_STR(e__.path, (path_));                                      \
    } while (0)

static tyjson_str S(const char *s) {
    tyjson_str r = {s, strlen(s)};
    return r;
}

/* ----------------------------------------------------------------------------
 * Scalars
 * ------------------------------------------------------------------------- */
TEST(integers_and_bools) {
    ints v = {false, true, INT8_MIN, INT16_MIN, INT32_MIN, INT64_MIN,
              UINT8_MAX, UINT16_MAX, UINT32_MAX, UINT64_MAX};
    ASSERT_ENC(&ints_type, &v, 0, 0,
               "{\"b0\":false,\"b1\":true,\"i8\":-128,\"i16\":-32768,\"i32\":-2147483648,"
               "\"i64\":-9223372036854775808,\"u8\":255,\"u16\":65535,\"u32\":4294967295,"
               "\"u64\":18446744073709551615}");
    ints w = {true, false, INT8_MAX, INT16_MAX, INT32_MAX, INT64_MAX, 0, 0, 0, 0};
    ASSERT_ENC(&ints_type, &w, 0, 0,
               "{\"b0\":true,\"b1\":false,\"i8\":127,\"i16\":32767,\"i32\":2147483647,"
               "\"i64\":9223372036854775807,\"u8\":0,\"u16\":0,\"u32\":0,\"u64\":0}");
}

TEST(reals_shortest) {
    reals a = {3.67f, 95.5};
    ASSERT_ENC(&reals_type, &a, 0, 0, "{\"f\":3.67,\"d\":95.5}");
    reals b = {50.0f, 50.0};
    ASSERT_ENC(&reals_type, &b, 0, 0, "{\"f\":50.0,\"d\":50.0}");
    reals c = {-0.0f, -0.0};
    ASSERT_ENC(&reals_type, &c, 0, 0, "{\"f\":-0.0,\"d\":-0.0}");
    reals d = {0.1f, 0.1};
    ASSERT_ENC(&reals_type, &d, 0, 0, "{\"f\":0.1,\"d\":0.1}");
    reals e = {1e30f, 1e300};
    ASSERT_ENC(&reals_type, &e, 0, 0, "{\"f\":1e30,\"d\":1e300}");
    reals f = {1.5e-7f, 5e-324};
    ASSERT_ENC(&reals_type, &f, 0, 0, "{\"f\":1.5e-7,\"d\":5e-324}");
    reals g = {16777216.0f, 1234567890123456800000.0};
    ASSERT_ENC(&reals_type, &g, 0, 0, "{\"f\":16777216.0,\"d\":1.2345678901234568e21}");
}

/* The integral short cut agrees with the number core everywhere. */
static void check_real_like_core(float f, double d) {
    char want[128], *w = want;
    memcpy(w, "{\"f\":", 5);
    w = tyjson__f32_write(f, w + 5);
    memcpy(w, ",\"d\":", 5);
    w = tyjson__f64_write(d, w + 5);
    *w++ = '}';
    *w = 0;
    reals r = {f, d};
    char got[128];
    tyjson_error err;
    size_t n = tyjson_encode_buf(&reals_type, &r, got, sizeof(got), NULL, &err);
    ASSERT_EQ_INT(err.code, TYJSON_OK);
    ASSERT_EQ_UINT(n, (size_t)(w - want));
    ASSERT_EQ_STR(got, want);
}

TEST(reals_agree_with_number_core) {
    static const double edges[] = {0.0, -0.0, 1.0, -1.0, 9.0, 10.0, 99.0, 100.0, 1e15, 1e16,
                                   9007199254740991.0, 9007199254740992.0, 9007199254740994.0,
                                   -9007199254740992.0, -9007199254740994.0, 4503599627370496.5,
                                   0.5, -0.5, 1e21, 1e22, 123456789.0, -987654321.0, 2.5, 1e-7};
    for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
        check_real_like_core((float)edges[i], edges[i]);
    static const float fedges[] = {16777215.0f, 16777216.0f, 16777218.0f, -16777216.0f,
                                   -16777218.0f, 8388607.5f, 3.67f, 1e10f};
    for (size_t i = 0; i < sizeof(fedges) / sizeof(fedges[0]); i++)
        check_real_like_core(fedges[i], (double)fedges[i]);
    uint64_t x = 88172645463325252ull;
    for (int i = 0; i < 20000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        int64_t iv = (int64_t)(x >> (11 + (x & 31))) * ((x & 64) ? -1 : 1);
        double d = (double)iv;
        float f = (float)iv;
        check_real_like_core(f, d);
        double frac = d / 8.0;
        check_real_like_core((float)frac, frac);
    }
}

/* The short-decimal short cut (r / 10^k, k <= 8) agrees with the number
 * core: decimals of every length around its limits (2^50 after scaling,
 * 1e-6 below), values one ulp away from short decimals, and random bits. */
TEST(reals_short_decimals_agree_with_number_core) {
    static const double edges[] = {95.5, -68.438885, 99.273798, 0.1, 0.3, 0.1 + 0.2, 1e-6,
                                   -1e-6, 1.5e-6, 9.99999e-7, 1e-7, 0.000123, 112589990684.2624,
                                   11258999068426.24, 1125899906842.624, 0.12345678,
                                   0.123456789, 12345678.12345678, 4503599627370495.5};
    for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++) {
        check_real_like_core(1.0f, edges[i]);
        check_real_like_core(1.0f, nextafter(edges[i], 0.0));
        check_real_like_core(1.0f, nextafter(edges[i], 1e300));
    }
    static const double pow10[] = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11};
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 60000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        int64_t m = (int64_t)(x >> (8 + (x % 48))) * ((x & 1) ? -1 : 1);
        double d = (double)m / pow10[(x >> 20) % 12];
        check_real_like_core(1.0f, d);
        check_real_like_core(1.0f, nextafter(d, 0.0));
        double bits;
        memcpy(&bits, &x, sizeof(bits));
        if (isfinite(bits)) check_real_like_core(1.0f, bits);
    }
}

TEST(reals_nan_inf) {
    reals a = {1.0f, NAN};
    ASSERT_ENC_ERR(&reals_type, &a, 0, TYJSON_E_NAN_INF, "$.d");
    reals b = {INFINITY, 1.0};
    ASSERT_ENC_ERR(&reals_type, &b, 0, TYJSON_E_NAN_INF, "$.f");
    ASSERT_ENC(&reals_type, &a, TYJSON_WRITE_ALLOW_INF_NAN, 0, "{\"f\":1.0,\"d\":NaN}");
    reals c = {-INFINITY, INFINITY};
    ASSERT_ENC(&reals_type, &c, TYJSON_WRITE_ALLOW_INF_NAN, 0,
               "{\"f\":-Infinity,\"d\":Infinity}");
}

/* The number options reach float and double fields alike. */
TEST(reals_number_options) {
    reals a = {1.0f, NAN};
    ASSERT_ENC(&reals_type, &a, TYJSON_WRITE_INF_NAN_AS_NULL, 0, "{\"f\":1.0,\"d\":null}");
    ASSERT_ENC(&reals_type, &a, TYJSON_WRITE_INF_NAN_AS_NULL | TYJSON_WRITE_ALLOW_INF_NAN, 0,
               "{\"f\":1.0,\"d\":null}");
    reals b = {-INFINITY, 2.675};
    ASSERT_ENC(&reals_type, &b, TYJSON_WRITE_INF_NAN_AS_NULL | TYJSON_WRITE_FP_FIXED(2), 0,
               "{\"f\":null,\"d\":2.68}");
    reals c = {3.67f, 95.5};
    ASSERT_ENC(&reals_type, &c, TYJSON_WRITE_FP_FIXED(3), 0, "{\"f\":3.670,\"d\":95.500}");
    reals d = {50.0f, 0.1};
    ASSERT_ENC(&reals_type, &d, TYJSON_WRITE_FP_TO_FLOAT, 0, "{\"f\":50.0,\"d\":0.1}");
    reals f = {0.0f, 1e300};
    ASSERT_ENC_ERR(&reals_type, &f, TYJSON_WRITE_FP_TO_FLOAT, TYJSON_E_NAN_INF, "$.d");
    ASSERT_ENC(&reals_type, &f, TYJSON_WRITE_FP_TO_FLOAT | TYJSON_WRITE_ALLOW_INF_NAN, 0,
               "{\"f\":0.0,\"d\":Infinity}");
}

/* ----------------------------------------------------------------------------
 * Strings
 * ------------------------------------------------------------------------- */
typedef struct strs {
    tyjson_str s;
    char *c;
    char chars[6];
} strs;
static const tyjson_field strs_fields[] = {
    TYJSON_FIELD_STR(strs, s, "s"),
    TYJSON_FIELD_CSTR(strs, c, "c"),
    TYJSON_FIELD_CHARS(strs, chars, "chars"),
};
static tyjson_struct strs_type = TYJSON_STRUCT(strs, strs_fields, 0);

static const tyjson_field strs_null_fields[] = {
    TYJSON_FIELD_STR(strs, s, "s", .flags = TYJSON_F_NULLABLE),
    TYJSON_FIELD_CSTR(strs, c, "c", .flags = TYJSON_F_WRITE_NULL),
    TYJSON_FIELD_CHARS(strs, chars, "chars"),
};
static tyjson_struct strs_null_type = TYJSON_STRUCT(strs, strs_null_fields, 0);

TEST(strings_plain_and_escaped) {
    char c[] = "tab\there";
    strs v = {S("a\"b\\c/\x01\x1f\x7f"), c, "abc"};
    ASSERT_ENC(&strs_type, &v, 0, 0,
               "{\"s\":\"a\\\"b\\\\c/\\u0001\\u001f\x7f\",\"c\":\"tab\\there\",\"chars\":\"abc\"}");
    ASSERT_ENC(&strs_type, &v, TYJSON_WRITE_ESCAPE_SLASH, 0,
               "{\"s\":\"a\\\"b\\\\c\\/\\u0001\\u001f\x7f\",\"c\":\"tab\\there\",\"chars\":\"abc\"}");
}

TEST(strings_nul_inside_and_full_chars) {
    strs v;
    memset(&v, 0, sizeof(v));
    v.s.ptr = "a\0b";
    v.s.len = 3;
    v.c = (char *)"x";
    memcpy(v.chars, "123456", 6); /* no NUL: all six bytes */
    ASSERT_ENC(&strs_type, &v, 0, 0, "{\"s\":\"a\\u0000b\",\"c\":\"x\",\"chars\":\"123456\"}");
}

TEST(strings_unicode) {
    strs v = {S("\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80"), (char *)"\xc3\xa9", ""};
    ASSERT_ENC(&strs_type, &v, 0, 0,
               "{\"s\":\"\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80\",\"c\":\"\xc3\xa9\",\"chars\":\"\"}");
    ASSERT_ENC(&strs_type, &v, TYJSON_WRITE_ESCAPE_UNICODE, 0,
               "{\"s\":\"\\u00e9\\u4e2d\\ud83d\\ude00\",\"c\":\"\\u00e9\",\"chars\":\"\"}");
}

TEST(strings_invalid_utf8) {
    strs v = {S("ok\xff"), (char *)"x", ""};
    ASSERT_ENC_ERR(&strs_type, &v, 0, TYJSON_E_UTF8, "$.s");
    ASSERT_ENC(&strs_type, &v, TYJSON_WRITE_REPLACE_INVALID_UTF8, 0,
               "{\"s\":\"ok\xef\xbf\xbd\",\"c\":\"x\",\"chars\":\"\"}");
    strs w = {S("ok"), (char *)"\xc0\xaf", ""};
    ASSERT_ENC_ERR(&strs_type, &w, 0, TYJSON_E_UTF8, "$.c");
    strs x = {S("ok"), (char *)"x", "\xed\xa0\x80"}; /* a surrogate */
    ASSERT_ENC_ERR(&strs_type, &x, 0, TYJSON_E_UTF8, "$.chars");
}

TEST(strings_null_pointers) {
    strs v;
    memset(&v, 0, sizeof(v));
    ASSERT_ENC(&strs_type, &v, 0, 0, "{\"s\":\"\",\"c\":\"\",\"chars\":\"\"}");
    ASSERT_ENC(&strs_null_type, &v, 0, 0, "{\"s\":null,\"c\":null,\"chars\":\"\"}");
    v.s.len = 2; /* NULL with a length: a broken member */
    ASSERT_ENC_ERR(&strs_type, &v, 0, TYJSON_E_INVALID_ARG, "$.s");
}

/* Keys that need escaping: the prepared literal, or the flags' escaping. */
typedef struct keys {
    int32_t a, b, c, d;
} keys;
static const tyjson_field keys_fields[] = {
    TYJSON_FIELD_I32(keys, a, "a/b"),
    TYJSON_FIELD_I32(keys, b, "q\"uote"),
    TYJSON_FIELD_I32(keys, c, "\xc3\xa9t\xc3\xa9"),
    TYJSON_FIELD_I32(keys, d, "tab\t"),
};
static tyjson_struct keys_type = TYJSON_STRUCT(keys, keys_fields, 0);

TEST(keys_escaping) {
    keys v = {1, 2, 3, 4};
    ASSERT_ENC(&keys_type, &v, 0, 0,
               "{\"a/b\":1,\"q\\\"uote\":2,\"\xc3\xa9t\xc3\xa9\":3,\"tab\\t\":4}");
    ASSERT_ENC(&keys_type, &v, TYJSON_WRITE_ESCAPE_SLASH | TYJSON_WRITE_ESCAPE_UNICODE, 0,
               "{\"a\\/b\":1,\"q\\\"uote\":2,\"\\u00e9t\\u00e9\":3,\"tab\\t\":4}");
    ASSERT_ENC(&keys_type, &v, TYJSON_WRITE_PRETTY | TYJSON_WRITE_ESCAPE_SLASH, 0,
               "{\n  \"a\\/b\": 1,\n  \"q\\\"uote\": 2,\n  \"\xc3\xa9t\xc3\xa9\": 3,\n  \"tab\\t\": 4\n}");
}

/* ----------------------------------------------------------------------------
 * Enums
 * ------------------------------------------------------------------------- */
typedef enum color { RED, GREEN = 5, BLUE = -3 } color;
static const tyjson_enum_entry color_names[] = {{"red", RED}, {"green", GREEN}, {"blue", BLUE}};
static const tyjson_enum_entry small_names[] = {{"lo", 1}, {"hi", 200}, {"neg", -1}};
static const tyjson_enum_entry big_names[] = {{"big", INT64_MIN}, {"q\"", 7}};
typedef struct enums {
    color c;
    uint8_t u8;
    int8_t s8;
    int16_t s16;
    int64_t s64;
} enums;
static const tyjson_field enums_fields[] = {
    TYJSON_FIELD_ENUM(enums, c, "c", color_names),
    TYJSON_FIELD_ENUM(enums, u8, "u8", small_names),
    TYJSON_FIELD_ENUM(enums, s8, "s8", small_names),
    TYJSON_FIELD_ENUM(enums, s16, "s16", small_names),
    TYJSON_FIELD_ENUM(enums, s64, "s64", big_names),
};
static tyjson_struct enums_type = TYJSON_STRUCT(enums, enums_fields, 0);

TEST(enums_by_name) {
    enums v = {BLUE, 200, -1, 1, INT64_MIN};
    ASSERT_ENC(&enums_type, &v, 0, 0,
               "{\"c\":\"blue\",\"u8\":\"hi\",\"s8\":\"neg\",\"s16\":\"lo\",\"s64\":\"big\"}");
    v.c = GREEN;
    v.u8 = 255; /* matches "neg" (-1) on its 8 bits */
    v.s8 = (int8_t)-56; /* 200 on 8 bits */
    v.s64 = 7;
    ASSERT_ENC(&enums_type, &v, 0, 0,
               "{\"c\":\"green\",\"u8\":\"neg\",\"s8\":\"hi\",\"s16\":\"lo\",\"s64\":\"q\\\"\"}");
}

TEST(enums_unknown_value) {
    enums v = {(color)4, 1, 1, 1, 7};
    ASSERT_ENC_ERR(&enums_type, &v, 0, TYJSON_E_ENUM, "$.c");
    v.c = RED;
    v.s16 = 200 + 256; /* 456: no entry on 16 bits */
    ASSERT_ENC_ERR(&enums_type, &v, 0, TYJSON_E_ENUM, "$.s16");
}

/* The message names the value found (as the member's signed integer) and
 * the names there are. */
TEST(enums_unknown_value_message) {
    enums v = {(color)4, 1, 1, 1, 7};
    tyjson_error err;
    char msg[400];
    ASSERT_NULL(tyjson_encode(&enums_type, &v, NULL, NULL, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_ENUM);
    ASSERT_EQ_STR(tyjson_error_format(&err, msg, sizeof(msg)),
                  "enum value 4 has no name (expected one of \"red\", \"green\", \"blue\") at $.c");
    v.c = RED;
    v.s16 = -300; /* negative on 16 bits: shown signed */
    ASSERT_NULL(tyjson_encode(&enums_type, &v, NULL, NULL, &err));
    ASSERT_EQ_STR(err.path, "$.s16");
    ASSERT_TRUE(strncmp(err.msg, "enum value -300 has no name (expected one of ", 45) == 0);
}

/* ----------------------------------------------------------------------------
 * Nested structs, pointers, arrays (point is a shared fixture)
 * ------------------------------------------------------------------------- */
typedef struct shape {
    tyjson_str name;
    point origin;
    point *anchor;
    point corners[4];
    size_t n_corners;
    point *path;
    size_t n_path;
    int32_t *nums;
    size_t n_nums;
    tyjson_str tags[3];
    size_t n_tags;
    point **refs;
    size_t n_refs;
} shape;
static const tyjson_field shape_fields[] = {
    TYJSON_FIELD_STR(shape, name, "name"),
    TYJSON_FIELD_STRUCT(shape, origin, "origin", &point_type),
    TYJSON_FIELD_PTR(shape, anchor, "anchor", &point_type),
    TYJSON_FIELD_FIXED(shape, corners, "corners", n_corners, TYJSON_K_STRUCT, .type = &point_type),
    TYJSON_FIELD_DYN(shape, path, "path", n_path, TYJSON_K_STRUCT, .type = &point_type),
    TYJSON_FIELD_DYN(shape, nums, "nums", n_nums, TYJSON_K_I32),
    TYJSON_FIELD_FIXED(shape, tags, "tags", n_tags, TYJSON_K_STR),
    TYJSON_FIELD_DYN(shape, refs, "refs", n_refs, TYJSON_K_PTR, .type = &point_type),
};
static tyjson_struct shape_type = TYJSON_STRUCT(shape, shape_fields, 0);

static shape sample_shape(point *path, int32_t *nums, point **refs) {
    shape s;
    memset(&s, 0, sizeof(s));
    s.name = S("tri");
    s.origin.x = 1;
    s.origin.y = -2;
    s.corners[0].x = 3;
    s.corners[1].y = 4;
    s.n_corners = 2;
    s.path = path;
    s.n_path = 2;
    s.nums = nums;
    s.n_nums = 3;
    s.tags[0] = S("a");
    s.n_tags = 1;
    s.refs = refs;
    s.n_refs = 2;
    return s;
}

static const char shape_min[] =
    "{\"name\":\"tri\",\"origin\":{\"x\":1,\"y\":-2},\"anchor\":null,"
    "\"corners\":[{\"x\":3,\"y\":0},{\"x\":0,\"y\":4}],\"path\":[{\"x\":5,\"y\":6},{\"x\":7,\"y\":8}],"
    "\"nums\":[1,-2,3],\"tags\":[\"a\"],\"refs\":[{\"x\":5,\"y\":6},null]}";

static const char shape_pretty[] =
    "{\n"
    "  \"name\": \"tri\",\n"
    "  \"origin\": {\n"
    "    \"x\": 1,\n"
    "    \"y\": -2\n"
    "  },\n"
    "  \"anchor\": null,\n"
    "  \"corners\": [\n"
    "    {\n"
    "      \"x\": 3,\n"
    "      \"y\": 0\n"
    "    },\n"
    "    {\n"
    "      \"x\": 0,\n"
    "      \"y\": 4\n"
    "    }\n"
    "  ],\n"
    "  \"path\": [\n"
    "    {\n"
    "      \"x\": 5,\n"
    "      \"y\": 6\n"
    "    },\n"
    "    {\n"
    "      \"x\": 7,\n"
    "      \"y\": 8\n"
    "    }\n"
    "  ],\n"
    "  \"nums\": [\n"
    "    1,\n"
    "    -2,\n"
    "    3\n"
    "  ],\n"
    "  \"tags\": [\n"
    "    \"a\"\n"
    "  ],\n"
    "  \"refs\": [\n"
    "    {\n"
    "      \"x\": 5,\n"
    "      \"y\": 6\n"
    "    },\n"
    "    null\n"
    "  ]\n"
    "}";

TEST(nested_structs_and_arrays) {
    point path[2] = {{5, 6}, {7, 8}};
    int32_t nums[3] = {1, -2, 3};
    point *refs[2] = {&path[0], NULL};
    shape s = sample_shape(path, nums, refs);
    ASSERT_ENC(&shape_type, &s, 0, 0, shape_min);
    ASSERT_ENC(&shape_type, &s, TYJSON_WRITE_PRETTY, 0, shape_pretty);
    ASSERT_ENC(&shape_type, &s, TYJSON_WRITE_PRETTY, 2, shape_pretty);
    point anchor = {9, 9};
    s.anchor = &anchor;
    s.n_corners = 0;
    s.n_path = 0;
    s.path = NULL; /* NULL with count 0: an empty array */
    s.n_nums = 0;
    s.n_tags = 0;
    s.n_refs = 0;
    ASSERT_ENC(&shape_type, &s, 0, 0,
               "{\"name\":\"tri\",\"origin\":{\"x\":1,\"y\":-2},\"anchor\":{\"x\":9,\"y\":9},"
               "\"corners\":[],\"path\":[],\"nums\":[],\"tags\":[],\"refs\":[]}");
    ASSERT_ENC(&shape_type, &s, TYJSON_WRITE_PRETTY, 4,
               "{\n    \"name\": \"tri\",\n    \"origin\": {\n        \"x\": 1,\n        \"y\": -2\n"
               "    },\n    \"anchor\": {\n        \"x\": 9,\n        \"y\": 9\n    },\n"
               "    \"corners\": [],\n    \"path\": [],\n    \"nums\": [],\n    \"tags\": [],\n"
               "    \"refs\": []\n}");
}

TEST(array_errors) {
    point path[2] = {{5, 6}, {7, 8}};
    int32_t nums[3] = {1, -2, 3};
    point *refs[2] = {&path[0], NULL};
    shape s = sample_shape(path, nums, refs);
    s.n_corners = 5; /* more than the 4 the member holds */
    ASSERT_ENC_ERR(&shape_type, &s, 0, TYJSON_E_SIZE, "$.corners");
    s.n_corners = 0;
    s.path = NULL; /* NULL with count 2 */
    ASSERT_ENC_ERR(&shape_type, &s, 0, TYJSON_E_INVALID_ARG, "$.path");
}

/* Paths through arrays and nested structs. */
typedef struct rated {
    tyjson_str name;
    float rating;
} rated;
static const tyjson_field rated_fields[] = {
    TYJSON_FIELD_STR(rated, name, "name"),
    TYJSON_FIELD_F32(rated, rating, "rating"),
};
static tyjson_struct rated_type = TYJSON_STRUCT(rated, rated_fields, 0);
typedef struct album {
    rated *photos;
    size_t n_photos;
    rated cover;
} album;
static const tyjson_field album_fields[] = {
    TYJSON_FIELD_DYN(album, photos, "photos", n_photos, TYJSON_K_STRUCT, .type = &rated_type),
    TYJSON_FIELD_STRUCT(album, cover, "Content-Type", &rated_type),
};
static tyjson_struct album_type = TYJSON_STRUCT(album, album_fields, 0);

TEST(error_paths) {
    rated photos[20];
    memset(photos, 0, sizeof(photos));
    for (int i = 0; i < 20; i++) photos[i].name = S("p");
    album a = {photos, 20, {S("c"), 1.0f}};
    photos[17].rating = NAN;
    ASSERT_ENC_ERR(&album_type, &a, 0, TYJSON_E_NAN_INF, "$.photos[17].rating");
    ASSERT_ENC_ERR(&album_type, &a, TYJSON_WRITE_PRETTY, TYJSON_E_NAN_INF, "$.photos[17].rating");
    photos[17].rating = 1.0f;
    a.cover.name = S("\xff");
    ASSERT_ENC_ERR(&album_type, &a, 0, TYJSON_E_UTF8, "$[\"Content-Type\"].name");
    /* the message formats with the path */
    tyjson_error err;
    char msg[300];
    ASSERT_NULL(tyjson_encode(&album_type, &a, NULL, NULL, &err));
    ASSERT_EQ_STR(tyjson_error_format(&err, msg, sizeof(msg)),
                  "invalid UTF-8 at $[\"Content-Type\"].name");
}

/* node (fixtures/bind_types.h) points to itself: a cycle ends with
 * E_DEPTH, not a crash. */
TEST(pointer_chain_and_cycle) {
    node c = {3, NULL}, b = {2, &c}, a = {1, &b};
    ASSERT_ENC(&node_type, &a, 0, 0, "{\"v\":1,\"next\":{\"v\":2,\"next\":{\"v\":3,\"next\":null}}}");
    c.next = &a;
    tyjson_error err;
    ASSERT_NULL(tyjson_encode(&node_type, &a, NULL, NULL, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_DEPTH);
    /* the path is cut to fit, keeping its innermost part */
    ASSERT_EQ_MEM(err.path, "$...", 4);
    size_t n = strlen(err.path);
    ASSERT_TRUE(n < TYJSON_ERROR_PATH_MAX);
    ASSERT_EQ_STR(err.path + n - 5, ".next");
    /* 1000 levels are fine */
    node *chain = (node *)calloc(1000, sizeof(node));
    ASSERT_NOT_NULL(chain);
    for (int i = 0; i < 999; i++) chain[i].next = &chain[i + 1];
    size_t len = 0;
    char *t = tyjson_encode(&node_type, chain, NULL, &len, &err);
    ASSERT_NOT_NULL(t);
    ASSERT_EQ_UINT(len, 999 * strlen("{\"v\":0,\"next\":") + strlen("{\"v\":0,\"next\":null}") + 999);
    free(t);
    free(chain);
}

/* ----------------------------------------------------------------------------
 * OMIT_EMPTY, presence flags, WRITE_NULL
 * ------------------------------------------------------------------------- */
typedef struct opt {
    bool b;
    int32_t i;
    uint64_t u;
    double d;
    float f;
    tyjson_str s;
    char *c;
    char ch[4];
    color e;
    point p;
    point *pp;
    tyjson_date date;
    int64_t ms;
    tyjson_val *val;
    tyjson_str raw;
    int32_t *arr;
    size_t n_arr;
} opt;
#define OE .flags = TYJSON_F_OMIT_EMPTY
static const tyjson_field opt_fields[] = {
    TYJSON_FIELD_BOOL(opt, b, "b", OE),
    TYJSON_FIELD_I32(opt, i, "i", OE),
    TYJSON_FIELD_U64(opt, u, "u", OE),
    TYJSON_FIELD_F64(opt, d, "d", OE),
    TYJSON_FIELD_F32(opt, f, "f", OE),
    TYJSON_FIELD_STR(opt, s, "s", OE),
    TYJSON_FIELD_CSTR(opt, c, "c", OE),
    TYJSON_FIELD_CHARS(opt, ch, "ch", OE),
    TYJSON_FIELD_ENUM(opt, e, "e", color_names, OE),
    TYJSON_FIELD_STRUCT(opt, p, "p", &point_type, OE),
    TYJSON_FIELD_PTR(opt, pp, "pp", &point_type, OE),
    TYJSON_FIELD_DATE(opt, date, "date", OE),
    TYJSON_FIELD_EPOCH_MS(opt, ms, "ms", OE),
    TYJSON_FIELD_VALUE(opt, val, "val", OE),
    TYJSON_FIELD_RAW(opt, raw, "raw", OE),
    TYJSON_FIELD_DYN(opt, arr, "arr", n_arr, TYJSON_K_I32, OE),
};
static tyjson_struct opt_type = TYJSON_STRUCT(opt, opt_fields, 0);

TEST(omit_empty_each_kind) {
    opt v;
    memset(&v, 0, sizeof(v));
    ASSERT_ENC(&opt_type, &v, 0, 0, "{}");
    ASSERT_ENC(&opt_type, &v, TYJSON_WRITE_PRETTY, 0, "{}");
    v.s.ptr = ""; /* empty, not NULL: still empty */
    v.c = (char *)"";
    ASSERT_ENC(&opt_type, &v, 0, 0, "{}");
    v.d = -0.0; /* not empty: it reads back as -0.0, not as the absent 0.0 */
    ASSERT_ENC(&opt_type, &v, 0, 0, "{\"d\":-0.0}");
    v.d = 0.0;
    v.p.y = 1; /* a struct with any non-empty member is written */
    ASSERT_ENC(&opt_type, &v, 0, 0, "{\"p\":{\"x\":0,\"y\":1}}");
    int32_t arr[1] = {0};
    point pp = {0, 0};
    v.b = true;
    v.i = -1;
    v.u = 1;
    v.d = 0.5;
    v.f = 2.0f;
    v.s = S("s");
    v.c = (char *)"c";
    memcpy(v.ch, "ch", 3);
    v.e = GREEN;
    v.pp = &pp;
    v.date.year = 2024;
    v.date.month = 6;
    v.date.day = 15;
    v.ms = 1;
    v.raw = S("[1, 2]");
    v.arr = arr;
    v.n_arr = 1;
    ASSERT_ENC(&opt_type, &v, 0, 0,
               "{\"b\":true,\"i\":-1,\"u\":1,\"d\":0.5,\"f\":2.0,\"s\":\"s\",\"c\":\"c\",\"ch\":\"ch\","
               "\"e\":\"green\",\"p\":{\"x\":0,\"y\":1},\"pp\":{\"x\":0,\"y\":0},\"date\":\"2024-06-15\","
               "\"ms\":\"1970-01-01T00:00:00.001Z\",\"raw\":[1,2],\"arr\":[0]}");
}

typedef struct pres {
    int32_t a;
    bool has_a;
    tyjson_str b;
    bool has_b;
    int32_t c;
    int32_t *d;
    size_t n_d;
} pres;
static const tyjson_field pres_fields[] = {
    TYJSON_FIELD_I32(pres, a, "a", TYJSON_PRESENT(pres, has_a)),
    /* (WRITE_NULL with a presence flag is refused: null would read back as present) */
    TYJSON_FIELD_STR(pres, b, "b", TYJSON_PRESENT(pres, has_b)),
    TYJSON_FIELD_I32(pres, c, "c", .flags = TYJSON_F_OMIT_EMPTY | TYJSON_F_WRITE_NULL),
    TYJSON_FIELD_DYN(pres, d, "d", n_d, TYJSON_K_I32, .flags = TYJSON_F_NULLABLE),
    TYJSON_FIELD_DYN(pres, d, "e", n_d, TYJSON_K_I32, .flags = TYJSON_F_WRITE_NULL),
};
static tyjson_struct pres_type = TYJSON_STRUCT(pres, pres_fields, 0);

TEST(presence_and_write_null) {
    pres v;
    memset(&v, 0, sizeof(v));
    v.a = 5; /* not present: left out whatever its value */
    /* a NULL array is [] (the decoder gives NULL for [] too) unless WRITE_NULL */
    ASSERT_ENC(&pres_type, &v, 0, 0, "{\"c\":null,\"d\":[],\"e\":null}");
    v.has_a = true;
    v.has_b = true;
    v.b = S("x");
    v.c = 7;
    int32_t d[2] = {1, 2};
    v.d = d;
    v.n_d = 2;
    ASSERT_ENC(&pres_type, &v, 0, 0, "{\"a\":5,\"b\":\"x\",\"c\":7,\"d\":[1,2],\"e\":[1,2]}");
    v.has_a = false;
    v.has_b = false;
    ASSERT_ENC(&pres_type, &v, TYJSON_WRITE_PRETTY, 0,
               "{\n  \"c\": 7,\n  \"d\": [\n    1,\n    2\n  ],\n  \"e\": [\n    1,\n    2\n  ]\n}");
}

/* ----------------------------------------------------------------------------
 * Dates and epochs
 * ------------------------------------------------------------------------- */
typedef struct times {
    tyjson_date d;
    tyjson_datetime dt;
    int64_t ms;
    int64_t ms_num;
    int64_t ns;
    int64_t ns_num;
} times;
static const tyjson_field times_fields[] = {
    TYJSON_FIELD_DATE(times, d, "d"),
    TYJSON_FIELD_DATETIME(times, dt, "dt"),
    TYJSON_FIELD_EPOCH_MS(times, ms, "ms"),
    TYJSON_FIELD_EPOCH_MS(times, ms_num, "msn", .flags = TYJSON_F_EPOCH_NUMBER),
    TYJSON_FIELD_EPOCH_NS(times, ns, "ns"),
    TYJSON_FIELD_EPOCH_NS(times, ns_num, "nsn", .flags = TYJSON_F_EPOCH_NUMBER),
};
static tyjson_struct times_type = TYJSON_STRUCT(times, times_fields, 0);

static times sample_times(void) {
    times t;
    memset(&t, 0, sizeof(t));
    t.d.year = 2024;
    t.d.month = 6;
    t.d.day = 15;
    t.dt.date = t.d;
    t.dt.hour = 10;
    t.dt.minute = 30;
    t.dt.second = 0;
    t.ms = 1718447400000;   /* 2024-06-15T10:30:00Z */
    t.ms_num = -1;
    t.ns = 1718447400123456789;
    t.ns_num = 42;
    return t;
}

TEST(dates_and_epochs) {
    times t = sample_times();
    ASSERT_ENC(&times_type, &t, 0, 0,
               "{\"d\":\"2024-06-15\",\"dt\":\"2024-06-15T10:30:00Z\",\"ms\":\"2024-06-15T10:30:00Z\","
               "\"msn\":-1,\"ns\":\"2024-06-15T10:30:00.123456789Z\",\"nsn\":42}");
    t.dt.nanosecond = 120000000;
    t.dt.offset_minutes = -(5 * 60 + 30);
    t.ms = -1; /* one millisecond before the epoch */
    t.ns = 1718447400123456000;
    ASSERT_ENC(&times_type, &t, 0, 0,
               "{\"d\":\"2024-06-15\",\"dt\":\"2024-06-15T10:30:00.120-05:30\","
               "\"ms\":\"1969-12-31T23:59:59.999Z\",\"msn\":-1,\"ns\":\"2024-06-15T10:30:00.123456Z\","
               "\"nsn\":42}");
    /* milliseconds past the nanosecond range (year 2262) */
    t.ms = 56584306800000; /* PhotoAlbum's birthDate */
    t.ns = 0;
    ASSERT_ENC(&times_type, &t, 0, 0,
               "{\"d\":\"2024-06-15\",\"dt\":\"2024-06-15T10:30:00.120-05:30\","
               "\"ms\":\"3763-01-31T23:00:00Z\",\"msn\":-1,\"ns\":\"1970-01-01T00:00:00Z\","
               "\"nsn\":42}");
    t.ms = 253402300799999; /* 9999-12-31T23:59:59.999Z, the last one */
    t.dt.offset_minutes = 0;
    t.dt.nanosecond = 0;
    ASSERT_ENC(&times_type, &t, 0, 0,
               "{\"d\":\"2024-06-15\",\"dt\":\"2024-06-15T10:30:00Z\","
               "\"ms\":\"9999-12-31T23:59:59.999Z\",\"msn\":-1,\"ns\":\"1970-01-01T00:00:00Z\","
               "\"nsn\":42}");
}

TEST(date_errors) {
    times t = sample_times();
    t.d.month = 13;
    ASSERT_ENC_ERR(&times_type, &t, 0, TYJSON_E_DATE, "$.d");
    t = sample_times();
    t.d.day = 31;
    t.d.month = 4;
    ASSERT_ENC_ERR(&times_type, &t, 0, TYJSON_E_DATE, "$.d");
    t = sample_times();
    t.dt.second = 60;
    ASSERT_ENC_ERR(&times_type, &t, 0, TYJSON_E_DATE, "$.dt");
    t = sample_times();
    t.ms = 253402300800000; /* year 10000 */
    ASSERT_ENC_ERR(&times_type, &t, 0, TYJSON_E_DATE, "$.ms");
    t = sample_times();
    t.ms = INT64_MIN;
    ASSERT_ENC_ERR(&times_type, &t, 0, TYJSON_E_DATE, "$.ms");
}

/* ----------------------------------------------------------------------------
 * Free-form values, raw text, custom codecs
 * ------------------------------------------------------------------------- */
typedef struct freeform {
    tyjson_str name;
    tyjson_val *meta;
    tyjson_str raw;
} freeform;
static const tyjson_field freeform_fields[] = {
    TYJSON_FIELD_STR(freeform, name, "name"),
    TYJSON_FIELD_VALUE(freeform, meta, "meta"),
    TYJSON_FIELD_RAW(freeform, raw, "raw"),
};
static tyjson_struct freeform_type = TYJSON_STRUCT(freeform, freeform_fields, 0);

TEST(values_and_raw) {
    const char *src = "{\"k\": [1, 2.50, {\"z\": null}], \"e\": {}, \"s\": \"a\\/b\"}";
    tyjson_doc *doc = tyjson_read(src, strlen(src), 0);
    ASSERT_NOT_NULL(doc);
    freeform v = {S("n"), tyjson_doc_get_root(doc), S("{\"r\" : 1}")};
    ASSERT_ENC(&freeform_type, &v, 0, 0,
               "{\"name\":\"n\",\"meta\":{\"k\":[1,2.5,{\"z\":null}],\"e\":{},\"s\":\"a/b\"},"
               "\"raw\":{\"r\":1}}");
    ASSERT_ENC(&freeform_type, &v, TYJSON_WRITE_PRETTY, 0,
               "{\n  \"name\": \"n\",\n  \"meta\": {\n    \"k\": [\n      1,\n      2.5,\n"
               "      {\n        \"z\": null\n      }\n    ],\n    \"e\": {},\n    \"s\": \"a/b\"\n"
               "  },\n  \"raw\": {\n    \"r\": 1\n  }\n}");
    ASSERT_ENC(&freeform_type, &v, TYJSON_WRITE_ESCAPE_SLASH, 0,
               "{\"name\":\"n\",\"meta\":{\"k\":[1,2.5,{\"z\":null}],\"e\":{},\"s\":\"a\\/b\"},"
               "\"raw\":{\"r\":1}}");
    v.meta = NULL;
    v.raw.ptr = NULL;
    v.raw.len = 0;
    ASSERT_ENC(&freeform_type, &v, 0, 0, "{\"name\":\"n\",\"meta\":null,\"raw\":null}");
    tyjson_doc_free(doc);
}

/* A codec writing a point as "x,y" (a string), failing on negative x. */
static tyjson_status pt_encode(void *ctx, const void *member, tyjson_write_fn write, void *wctx) {
    const point *p = (const point *)member;
    char buf[64];
    if (ctx != (void *)&point_type) return TYJSON_E_STATE;
    if (p->x < 0) return TYJSON_E_NUMBER_RANGE;
    if (p->x == 0 && p->y == 0) return TYJSON_OK; /* writes nothing: a bug */
    int n = snprintf(buf, sizeof(buf), "\"%d,%d\"", (int)p->x, (int)p->y);
    /* in two pieces, to check the sink joins them */
    if (write(wctx, buf, 2)) return TYJSON_E_CALLBACK;
    return write(wctx, buf + 2, (size_t)n - 2) ? TYJSON_E_CALLBACK : TYJSON_OK;
}
static tyjson_status pt_decode(void *ctx, const tyjson_val *val, void *member, tyjson_arena *arena) {
    (void)ctx;
    (void)val;
    (void)member;
    (void)arena;
    return TYJSON_E_STATE;
}
static const tyjson_codec pt_codec = {pt_decode, pt_encode, (void *)&point_type};
typedef struct custom {
    point p;
    point q[2];
    size_t n_q;
} custom;
static const tyjson_field custom_fields[] = {
    TYJSON_FIELD_CUSTOM(custom, p, "p", &pt_codec),
    TYJSON_FIELD_FIXED(custom, q, "q", n_q, TYJSON_K_CUSTOM, .codec = &pt_codec),
};
static tyjson_struct custom_type = TYJSON_STRUCT(custom, custom_fields, 0);

TEST(custom_codecs) {
    custom c = {{1, 2}, {{3, 4}, {5, 6}}, 2};
    ASSERT_ENC(&custom_type, &c, 0, 0, "{\"p\":\"1,2\",\"q\":[\"3,4\",\"5,6\"]}");
    ASSERT_ENC(&custom_type, &c, TYJSON_WRITE_PRETTY, 0,
               "{\n  \"p\": \"1,2\",\n  \"q\": [\n    \"3,4\",\n    \"5,6\"\n  ]\n}");
    c.q[1].x = -1;
    ASSERT_ENC_ERR(&custom_type, &c, 0, TYJSON_E_NUMBER_RANGE, "$.q[1]");
    c.q[1].x = 0;
    c.q[1].y = 0;
    ASSERT_ENC_ERR(&custom_type, &c, 0, TYJSON_E_CALLBACK, "$.q[1]");
}

/* An encode callback gives its own reason with tyjson_codec_encode_fail;
 * without one the message is the generic codec message. */
static tyjson_status why_encode(void *ctx, const void *member, tyjson_write_fn write, void *wctx) {
    const point *p = (const point *)member;
    (void)ctx;
    if (p->x < 0) {
        char why[64];
        snprintf(why, sizeof(why), "x must not be negative, got %d", (int)p->x);
        tyjson_codec_encode_fail(wctx, why); /* copied: why may die now */
        return TYJSON_E_NUMBER_RANGE;
    }
    if (p->x == 1) return TYJSON_E_NUMBER_RANGE; /* no reason given */
    return write(wctx, "0", 1) ? TYJSON_E_CALLBACK : TYJSON_OK;
}
static const tyjson_codec why_codec = {pt_decode, why_encode, NULL};
static const tyjson_field why_fields[] = {
    TYJSON_FIELD_CUSTOM(custom, p, "p", &why_codec),
    TYJSON_FIELD_FIXED(custom, q, "q", n_q, TYJSON_K_CUSTOM, .codec = &why_codec),
};
static tyjson_struct why_type = TYJSON_STRUCT(custom, why_fields, 0);

TEST(custom_codec_encode_message) {
    custom c = {{0, 0}, {{0, 0}, {-7, 0}}, 2};
    tyjson_error err;
    char msg[300];
    ASSERT_NULL(tyjson_encode(&why_type, &c, NULL, NULL, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_NUMBER_RANGE);
    ASSERT_EQ_STR(tyjson_error_format(&err, msg, sizeof(msg)),
                  "x must not be negative, got -7 at $.q[1]");
    c.q[1].x = 1;
    ASSERT_NULL(tyjson_encode(&why_type, &c, NULL, NULL, &err));
    ASSERT_EQ_STR(err.msg, "custom codec reported an error");
    ASSERT_EQ_STR(err.path, "$.q[1]");
    c.q[1].x = 0;
    char *text = tyjson_encode(&why_type, &c, NULL, NULL, &err);
    ASSERT_NOT_NULL(text);
    ASSERT_EQ_STR(text, "{\"p\":0,\"q\":[0,0]}");
    free(text);
    tyjson_codec_encode_fail(NULL, "ignored"); /* NULL context: nothing */
}

/* ----------------------------------------------------------------------------
 * Top-level arrays (TYJSON_T_ARRAY)
 * ------------------------------------------------------------------------- */
typedef struct lists {
    point_list a;
    point_list *b;
} lists;
static const tyjson_field lists_fields[] = {
    TYJSON_FIELD_STRUCT(lists, a, "a", &point_list_type),
    TYJSON_FIELD_PTR(lists, b, "b", &point_list_type),
};
static tyjson_struct lists_type = TYJSON_STRUCT(lists, lists_fields, 0);

TEST(array_types) {
    point pts[2] = {{1, 2}, {3, 4}};
    point_list l = {pts, 2};
    ASSERT_ENC(&point_list_type, &l, 0, 0, "[{\"x\":1,\"y\":2},{\"x\":3,\"y\":4}]");
    ASSERT_ENC(&point_list_type, &l, TYJSON_WRITE_PRETTY, 0,
               "[\n  {\n    \"x\": 1,\n    \"y\": 2\n  },\n  {\n    \"x\": 3,\n    \"y\": 4\n  }\n]");
    point_list empty = {NULL, 0};
    ASSERT_ENC(&point_list_type, &empty, 0, 0, "[]");
    lists ls = {l, &empty};
    ASSERT_ENC(&lists_type, &ls, 0, 0, "{\"a\":[{\"x\":1,\"y\":2},{\"x\":3,\"y\":4}],\"b\":[]}");
    ls.b = NULL;
    ASSERT_ENC(&lists_type, &ls, 0, 0, "{\"a\":[{\"x\":1,\"y\":2},{\"x\":3,\"y\":4}],\"b\":null}");
}

/* ----------------------------------------------------------------------------
 * The one-list declaration form
 * ------------------------------------------------------------------------- */
#define EVENT_FIELDS(X, T)          \
    X(T, STR, title, "title")       \
    X(T, U16, seats, "seats")       \
    X(T, F64, price, "price")       \
    X(T, DATE, day, "day")          \
    X(T, EPOCH_MS, at, "at")
TYJSON_DECLARE_STRUCT(event, EVENT_FIELDS);
TYJSON_DEFINE_TYPE(event, EVENT_FIELDS, 0);

TEST(one_list_form) {
    event ev;
    memset(&ev, 0, sizeof(ev));
    ev.title = S("Gala");
    ev.seats = 120;
    ev.price = 12.5;
    ev.day.year = 2025;
    ev.day.month = 1;
    ev.day.day = 2;
    ev.at = 1735776000000; /* 2025-01-02T00:00:00Z */
    ASSERT_ENC(&event_type, &ev, 0, 0,
               "{\"title\":\"Gala\",\"seats\":120,\"price\":12.5,\"day\":\"2025-01-02\","
               "\"at\":\"2025-01-02T00:00:00Z\"}");
}

/* ----------------------------------------------------------------------------
 * The pretty layout equals the DOM writer's, and the minified form too.
 * ------------------------------------------------------------------------- */
static void check_like_dom(tyjson_struct *type, const void *in, tyjson_write_flags flags,
                           uint32_t indent) {
    tyjson_write_options o = {flags, indent, NULL};
    size_t n = 0;
    char *ours = tyjson_encode(type, in, NULL, &n, NULL);
    ASSERT_NOT_NULL(ours);
    tyjson_doc *doc = tyjson_read(ours, n, 0);
    ASSERT_NOT_NULL(doc);
    char *dom = tyjson_write_opts(doc, &o, NULL, NULL);
    char *again = tyjson_encode(type, in, &o, NULL, NULL);
    ASSERT_NOT_NULL(dom);
    ASSERT_NOT_NULL(again);
    ASSERT_EQ_STR(again, dom);
    free(ours);
    free(dom);
    free(again);
    tyjson_doc_free(doc);
}

TEST(layout_matches_dom_writer) {
    point path[2] = {{5, 6}, {7, 8}};
    int32_t nums[3] = {1, -2, 3};
    point *refs[2] = {&path[0], NULL};
    shape s = sample_shape(path, nums, refs);
    const tyjson_write_flags fl[] = {0, TYJSON_WRITE_PRETTY, TYJSON_WRITE_PRETTY | TYJSON_WRITE_NEWLINE_AT_END,
                                     TYJSON_WRITE_NEWLINE_AT_END};
    for (size_t i = 0; i < sizeof(fl) / sizeof(fl[0]); i++) {
        check_like_dom(&shape_type, &s, fl[i], 0);
        check_like_dom(&shape_type, &s, fl[i], 3);
        times t = sample_times();
        check_like_dom(&times_type, &t, fl[i], 1);
        ints v = {false, true, INT8_MIN, INT16_MIN, INT32_MIN, INT64_MIN, 1, 2, 3, UINT64_MAX};
        check_like_dom(&ints_type, &v, fl[i], 0);
        reals r = {3.67f, 1e-7};
        check_like_dom(&reals_type, &r, fl[i], 8);
    }
    ASSERT_ENC(&point_type, &path[0], TYJSON_WRITE_NEWLINE_AT_END, 0, "{\"x\":5,\"y\":6}\n");
}

/* ----------------------------------------------------------------------------
 * Sinks
 * ------------------------------------------------------------------------- */
TEST(encode_buf_exact_and_too_small) {
    point path[2] = {{5, 6}, {7, 8}};
    int32_t nums[3] = {1, -2, 3};
    point *refs[2] = {&path[0], NULL};
    shape s = sample_shape(path, nums, refs);
    size_t want = strlen(shape_min);
    char buf[512];
    tyjson_error err;
    size_t n = tyjson_encode_buf(&shape_type, &s, buf, sizeof(buf), NULL, &err);
    ASSERT_EQ_INT(err.code, TYJSON_OK);
    ASSERT_EQ_UINT(n, want);
    ASSERT_EQ_STR(buf, shape_min);
    /* exactly enough for the text but not its NUL, and every smaller size */
    for (size_t cap = 0; cap <= want; cap++) {
        memset(buf, '#', sizeof(buf));
        n = tyjson_encode_buf(&shape_type, &s, buf, cap, NULL, &err);
        ASSERT_EQ_INT(err.code, TYJSON_E_BUF_TOO_SMALL);
        ASSERT_EQ_UINT(n, want);
        for (size_t k = cap; k < sizeof(buf); k++)
            if (buf[k] != '#') TEST_FAIL("cap %zu: byte %zu written", cap, k);
    }
    n = tyjson_encode_buf(&shape_type, &s, NULL, 0, NULL, &err);
    ASSERT_EQ_INT(err.code, TYJSON_E_BUF_TOO_SMALL);
    ASSERT_EQ_UINT(n, want);
    n = tyjson_encode_buf(&shape_type, &s, buf, want + 1, NULL, &err);
    ASSERT_EQ_INT(err.code, TYJSON_OK);
    ASSERT_EQ_STR(buf, shape_min);
    /* an encode error returns 0 */
    reals r = {NAN, 0};
    n = tyjson_encode_buf(&reals_type, &r, buf, sizeof(buf), NULL, &err);
    ASSERT_EQ_UINT(n, 0);
    ASSERT_EQ_INT(err.code, TYJSON_E_NAN_INF);
    ASSERT_EQ_STR(err.path, "$.f");
}

/* A big text (several scratch chunks) through each sink. */
typedef struct big {
    int64_t *v;
    size_t n;
    tyjson_str *s;
    size_t n_s;
} big;
static const tyjson_field big_fields[] = {
    TYJSON_FIELD_DYN(big, v, "v", n, TYJSON_K_I64),
    TYJSON_FIELD_DYN(big, s, "s", n_s, TYJSON_K_STR),
};
static tyjson_struct big_type = TYJSON_STRUCT(big, big_fields, 0);

typedef struct collect {
    char *data;
    size_t len, cap;
    size_t calls;
    size_t fail_after; /* 0 = never */
} collect;
static int collect_fn(void *ctx, const char *s, size_t n) {
    collect *c = (collect *)ctx;
    c->calls++;
    if (c->fail_after && c->calls > c->fail_after) return 1;
    if (c->len + n > c->cap) {
        c->cap = (c->len + n) * 2;
        c->data = (char *)realloc(c->data, c->cap);
        if (!c->data) return 1;
    }
    memcpy(c->data + c->len, s, n);
    c->len += n;
    return 0;
}

static big make_big(void) {
    big b;
    b.n = 20000;
    b.v = (int64_t *)malloc(b.n * sizeof(int64_t));
    b.n_s = 300;
    b.s = (tyjson_str *)malloc(b.n_s * sizeof(tyjson_str));
    static char longs[5000];
    memset(longs, 'x', sizeof(longs) - 1);
    longs[100] = '\n';
    for (size_t i = 0; i < b.n; i++) b.v[i] = (int64_t)(i * 7919) - 50000000;
    for (size_t i = 0; i < b.n_s; i++) {
        b.s[i].ptr = longs;
        b.s[i].len = (i * 37) % (sizeof(longs) - 1);
    }
    return b;
}

TEST(sinks_agree_on_big_text) {
    big b = make_big();
    const tyjson_write_flags fl[] = {0, TYJSON_WRITE_PRETTY};
    for (size_t k = 0; k < 2; k++) {
        tyjson_write_options o = {fl[k], 0, NULL};
        size_t n = 0;
        tyjson_error err;
        char *ref = tyjson_encode(&big_type, &b, &o, &n, &err);
        ASSERT_NOT_NULL(ref);
        ASSERT_TRUE(n > 100000);
        /* fixed buffer: exact, and too small by one */
        char *buf = (char *)malloc(n + 1);
        ASSERT_EQ_UINT(tyjson_encode_buf(&big_type, &b, buf, n + 1, &o, &err), n);
        ASSERT_EQ_INT(err.code, TYJSON_OK);
        ASSERT_EQ_MEM(buf, ref, n + 1);
        ASSERT_EQ_UINT(tyjson_encode_buf(&big_type, &b, buf, n, &o, &err), n);
        ASSERT_EQ_INT(err.code, TYJSON_E_BUF_TOO_SMALL);
        ASSERT_EQ_MEM(buf, ref, n);
        free(buf);
        /* callback */
        collect c = {NULL, 0, 0, 0, 0};
        ASSERT_TRUE(tyjson_encode_cb(collect_fn, &c, &big_type, &b, &o, &err));
        ASSERT_EQ_UINT(c.len, n);
        ASSERT_EQ_MEM(c.data, ref, n);
        ASSERT_TRUE(c.calls > 1);
        free(c.data);
        /* stdio */
        FILE *fp = tmpfile();
        ASSERT_NOT_NULL(fp);
        ASSERT_TRUE(tyjson_encode_fp(fp, &big_type, &b, &o, &err));
        ASSERT_EQ_INT(err.code, TYJSON_OK);
        ASSERT_EQ_UINT((size_t)ftell(fp), n);
        rewind(fp);
        char *back = (char *)malloc(n);
        ASSERT_EQ_UINT(fread(back, 1, n, fp), n);
        ASSERT_EQ_MEM(back, ref, n);
        free(back);
        fclose(fp);
        free(ref);
    }
    free(b.v);
    free(b.s);
}

TEST(callback_abort_and_bad_args) {
    big b = make_big();
    tyjson_error err;
    collect c = {NULL, 0, 0, 0, 1};
    ASSERT_FALSE(tyjson_encode_cb(collect_fn, &c, &big_type, &b, NULL, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_CALLBACK);
    ASSERT_EQ_STR(err.path, ""); /* a sink failure is not about a member */
    ASSERT_EQ_UINT(c.calls, 2);  /* stopped at the first refusal */
    free(c.data);
    free(b.v);
    free(b.s);
    point p = {1, 2};
    ASSERT_FALSE(tyjson_encode_cb(NULL, NULL, &point_type, &p, NULL, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_INVALID_ARG);
    ASSERT_FALSE(tyjson_encode_fp(NULL, &point_type, &p, NULL, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_INVALID_ARG);
    ASSERT_NULL(tyjson_encode(NULL, &p, NULL, NULL, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_INVALID_ARG);
    ASSERT_NULL(tyjson_encode(&point_type, NULL, NULL, NULL, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_INVALID_ARG);
    ASSERT_EQ_UINT(tyjson_encode_buf(&point_type, NULL, NULL, 0, NULL, &err), 0);
    ASSERT_EQ_INT(err.code, TYJSON_E_INVALID_ARG);
    /* errors without an error record */
    ASSERT_NULL(tyjson_encode(&point_type, NULL, NULL, NULL, NULL));
    reals r = {NAN, 0};
    ASSERT_NULL(tyjson_encode(&reals_type, &r, NULL, NULL, NULL));
}

/* A descriptor error from preparation comes back as is. */
typedef struct badt {
    int32_t a, b;
} badt;
static const tyjson_field badt_fields[] = {
    TYJSON_FIELD_I32(badt, a, "k"),
    TYJSON_FIELD_I32(badt, b, "k"),
};
static tyjson_struct badt_type = TYJSON_STRUCT(badt, badt_fields, 0);

TEST(bad_descriptor) {
    badt v = {1, 2};
    tyjson_error err;
    ASSERT_NULL(tyjson_encode(&badt_type, &v, NULL, NULL, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_INVALID_ARG);
    ASSERT_TRUE(strstr(err.path, "badt") != NULL);
    tyjson_buf buf;
    tyjson_buf_init(&buf, NULL);
    ASSERT_EQ_INT(tyjson_encode_append(&buf, &badt_type, &v, NULL, &err), TYJSON_E_INVALID_ARG);
    ASSERT_NULL(buf.data);
    tyjson_buf_free(&buf);
}

/* ----------------------------------------------------------------------------
 * Allocation counts and failures (test_alloc, tests/test.h)
 * ------------------------------------------------------------------------- */
TEST(append_reuses_buffer_without_allocating) {
    test_alloc ca;
    tyjson_alloc alc = test_alloc_make(&ca, SIZE_MAX);
    tyjson_buf buf;
    tyjson_buf_init(&buf, &alc);
    ASSERT_NULL(buf.data);
    ASSERT_EQ_UINT(buf.len, 0);
    point pts[3] = {{1, 2}, {-3, 4}, {5, 6}};
    tyjson_error err;
    ASSERT_EQ_INT(tyjson_encode_append(&buf, &point_type, &pts[0], NULL, &err), TYJSON_OK);
    ASSERT_EQ_STR(buf.data, "{\"x\":1,\"y\":2}");
    ASSERT_EQ_INT(tyjson_encode_append(&buf, &point_type, &pts[1], NULL, &err), TYJSON_OK);
    ASSERT_EQ_STR(buf.data, "{\"x\":1,\"y\":2}{\"x\":-3,\"y\":4}");
    ASSERT_EQ_UINT(buf.len, strlen(buf.data));
    /* a failed append leaves the earlier text, NUL-terminated */
    reals r = {NAN, 0};
    ASSERT_EQ_INT(tyjson_encode_append(&buf, &reals_type, &r, NULL, &err), TYJSON_E_NAN_INF);
    ASSERT_EQ_STR(err.path, "$.f");
    ASSERT_EQ_STR(buf.data, "{\"x\":1,\"y\":2}{\"x\":-3,\"y\":4}");
    ASSERT_EQ_UINT(buf.len, strlen(buf.data));
    /* many messages back to back: the buffer grows, then stays */
    tyjson_buf_clear(&buf);
    ASSERT_EQ_UINT(buf.len, 0);
    ASSERT_EQ_STR(buf.data, "");
    for (int i = 0; i < 1000; i++)
        ASSERT_EQ_INT(tyjson_encode_append(&buf, &point_type, &pts[i % 3], NULL, &err), TYJSON_OK);
    size_t calls = ca.calls;
    for (int round = 0; round < 3; round++) {
        tyjson_buf_clear(&buf);
        for (int i = 0; i < 1000; i++)
            ASSERT_EQ_INT(tyjson_encode_append(&buf, &point_type, &pts[i % 3], NULL, &err), TYJSON_OK);
    }
    ASSERT_EQ_UINT(ca.calls, calls);
    ASSERT_EQ_UINT(buf.len, strlen(buf.data));
    {
        static const char head[] = "{\"x\":1,\"y\":2}{\"x\":-3,\"y\":4}{\"x\":5,\"y\":6}{\"x\":1,";
        ASSERT_EQ_MEM(buf.data, head, sizeof(head) - 1);
    }
    /* pretty with a final newline, reusing the same memory */
    tyjson_buf_clear(&buf);
    tyjson_write_options o = {TYJSON_WRITE_PRETTY | TYJSON_WRITE_NEWLINE_AT_END, 0, NULL};
    ASSERT_EQ_INT(tyjson_encode_append(&buf, &point_type, &pts[0], &o, &err), TYJSON_OK);
    ASSERT_EQ_STR(buf.data, "{\n  \"x\": 1,\n  \"y\": 2\n}\n");
    ASSERT_EQ_UINT(ca.calls, calls);
    tyjson_buf_free(&buf);
    ASSERT_EQ_INT(ca.live, 0);
    ASSERT_NULL(buf.data);
    /* a zero-initialised buffer works too (libc) */
    tyjson_buf z;
    memset(&z, 0, sizeof(z));
    ASSERT_EQ_INT(tyjson_encode_append(&z, &point_type, &pts[2], NULL, &err), TYJSON_OK);
    ASSERT_EQ_STR(z.data, "{\"x\":5,\"y\":6}");
    tyjson_buf_free(&z);
}

TEST(alloc_failure_sweep) {
    big b = make_big();
    const tyjson_write_flags fl[] = {0, TYJSON_WRITE_PRETTY};
    for (size_t k = 0; k < 2; k++) {
        size_t ref_len = 0;
        tyjson_write_options o0 = {fl[k], 0, NULL};
        char *ref = tyjson_encode(&big_type, &b, &o0, &ref_len, NULL);
        ASSERT_NOT_NULL(ref);
        /* tyjson_encode */
        for (size_t fail_at = 0;; fail_at++) {
            test_alloc ca;
            tyjson_alloc alc = test_alloc_make(&ca, fail_at);
            tyjson_write_options o = {fl[k], 0, &alc};
            tyjson_error err;
            size_t n = 77;
            char *t = tyjson_encode(&big_type, &b, &o, &n, &err);
            if (t) {
                ASSERT_EQ_UINT(n, ref_len);
                ASSERT_EQ_MEM(t, ref, ref_len + 1);
                tyjson_free(&alc, t);
                ASSERT_EQ_INT(ca.live, 0);
                ASSERT_TRUE(fail_at > 0);
                break;
            }
            ASSERT_EQ_INT(err.code, TYJSON_E_NOMEM);
            ASSERT_EQ_UINT(n, 0);
            ASSERT_EQ_INT(ca.live, 0);
            ASSERT_TRUE(fail_at < 1000);
        }
        /* tyjson_encode_append onto earlier text */
        for (size_t fail_at = 0;; fail_at++) {
            test_alloc ca;
            tyjson_alloc alc = test_alloc_make(&ca, fail_at);
            tyjson_buf buf;
            tyjson_buf_init(&buf, &alc);
            point p = {1, 2};
            tyjson_error err;
            tyjson_status st = tyjson_encode_append(&buf, &point_type, &p, NULL, &err);
            if (st == TYJSON_OK) st = tyjson_encode_append(&buf, &big_type, &b, &o0, &err);
            if (st == TYJSON_OK) {
                ASSERT_EQ_UINT(buf.len, 13 + ref_len);
                ASSERT_EQ_MEM(buf.data, "{\"x\":1,\"y\":2}", 13);
                ASSERT_EQ_MEM(buf.data + 13, ref, ref_len + 1);
                tyjson_buf_free(&buf);
                ASSERT_EQ_INT(ca.live, 0);
                break;
            }
            ASSERT_EQ_INT(st, TYJSON_E_NOMEM);
            ASSERT_EQ_INT(err.code, TYJSON_E_NOMEM);
            if (buf.data) {
                ASSERT_EQ_STR(buf.data, "{\"x\":1,\"y\":2}");
                ASSERT_EQ_UINT(buf.len, 13);
            } else {
                ASSERT_EQ_UINT(buf.len, 0);
            }
            tyjson_buf_free(&buf);
            ASSERT_EQ_INT(ca.live, 0);
            ASSERT_TRUE(fail_at < 1000);
        }
        free(ref);
    }
    free(b.v);
    free(b.s);
}

/* ----------------------------------------------------------------------------
 * Packed structs: every member at an odd offset is read without a
 * misaligned load (the ASan+UBSan build checks the loads).
 * ------------------------------------------------------------------------- */
typedef struct __attribute__((packed)) packed {
    char pad0;
    bool b;
    int8_t i8;
    int16_t i16;
    int32_t i32;
    int64_t i64;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;
    float f32;
    double f64;
    tyjson_str s;
    char *cs;
    char ch[3];
    int32_t e;
    point p;
    point *pp;
    tyjson_date date;
    tyjson_datetime dt;
    int64_t ms;
    tyjson_val *val;
    tyjson_str raw;
    int16_t arr[2];
    size_t n_arr;
    int64_t *dyn;
    size_t n_dyn;
} packed;
#define PACKED_FIELDS(...)                                                           \
    TYJSON_FIELD_BOOL(packed, b, "b", __VA_ARGS__),                                  \
    TYJSON_FIELD_I8(packed, i8, "i8", __VA_ARGS__),                                  \
    TYJSON_FIELD_I16(packed, i16, "i16", __VA_ARGS__),                               \
    TYJSON_FIELD_I32(packed, i32, "i32", __VA_ARGS__),                               \
    TYJSON_FIELD_I64(packed, i64, "i64", __VA_ARGS__),                               \
    TYJSON_FIELD_U16(packed, u16, "u16", __VA_ARGS__),                               \
    TYJSON_FIELD_U32(packed, u32, "u32", __VA_ARGS__),                               \
    TYJSON_FIELD_U64(packed, u64, "u64", __VA_ARGS__),                               \
    TYJSON_FIELD_F32(packed, f32, "f32", __VA_ARGS__),                               \
    TYJSON_FIELD_F64(packed, f64, "f64", __VA_ARGS__),                               \
    TYJSON_FIELD_STR(packed, s, "s", __VA_ARGS__),                                   \
    TYJSON_FIELD_CSTR(packed, cs, "cs", __VA_ARGS__),                                \
    TYJSON_FIELD_CHARS(packed, ch, "ch", __VA_ARGS__),                               \
    TYJSON_FIELD_ENUM(packed, e, "e", color_names, __VA_ARGS__),                     \
    TYJSON_FIELD_STRUCT(packed, p, "p", &point_type, __VA_ARGS__),                   \
    TYJSON_FIELD_PTR(packed, pp, "pp", &point_type, __VA_ARGS__),                    \
    TYJSON_FIELD_DATE(packed, date, "date", __VA_ARGS__),                            \
    TYJSON_FIELD_DATETIME(packed, dt, "dt", __VA_ARGS__),                            \
    TYJSON_FIELD_EPOCH_MS(packed, ms, "ms", __VA_ARGS__),                            \
    TYJSON_FIELD_VALUE(packed, val, "val", __VA_ARGS__),                             \
    TYJSON_FIELD_RAW(packed, raw, "raw", __VA_ARGS__),                               \
    TYJSON_FIELD_FIXED(packed, arr, "arr", n_arr, TYJSON_K_I16, __VA_ARGS__),        \
    TYJSON_FIELD_DYN(packed, dyn, "dyn", n_dyn, TYJSON_K_I64, __VA_ARGS__)
static const tyjson_field packed_fields[] = {PACKED_FIELDS(.flags = 0)};
static tyjson_struct packed_type = TYJSON_STRUCT(packed, packed_fields, 0);
static const tyjson_field packed_oe_fields[] = {PACKED_FIELDS(.flags = TYJSON_F_OMIT_EMPTY)};
static tyjson_struct packed_oe_type = TYJSON_STRUCT(packed, packed_oe_fields, 0);

TEST(packed_members_at_odd_offsets) {
    ASSERT_EQ_UINT(offsetof(packed, i16) % 2, 1);
    ASSERT_EQ_UINT(offsetof(packed, i32) % 2, 1);
    ASSERT_EQ_UINT(offsetof(packed, s) % 2, 1);
    const char *vsrc = "[true]";
    tyjson_doc *doc = tyjson_read(vsrc, strlen(vsrc), 0);
    ASSERT_NOT_NULL(doc);
    char cstr[] = "c";
    point target = {7, 8};
    int64_t dyn[2] = {-5, 6};
    packed v;
    memset(&v, 0, sizeof(v));
    v.b = true;
    v.i8 = -8;
    v.i16 = -16;
    v.i32 = -32;
    v.i64 = -64;
    v.u16 = 16;
    v.u32 = 32;
    v.u64 = 64;
    v.f32 = 1.5f;
    v.f64 = -2.25;
    v.s = S("str");
    v.cs = cstr;
    memcpy(v.ch, "ab", 3);
    v.e = GREEN;
    v.p.x = 1;
    v.p.y = 2;
    v.pp = &target;
    v.date.year = 2024;
    v.date.month = 2;
    v.date.day = 29;
    v.dt.date.year = 2001;
    v.dt.date.month = 9;
    v.dt.date.day = 9;
    v.dt.hour = 1;
    v.dt.minute = 46;
    v.dt.second = 40;
    v.ms = 1000;
    v.val = tyjson_doc_get_root(doc);
    v.raw = S("{ \"r\" : 1 }");
    v.arr[0] = 3;
    v.arr[1] = -4;
    v.n_arr = 2;
    v.dyn = dyn;
    v.n_dyn = 2;
    const char *want =
        "{\"b\":true,\"i8\":-8,\"i16\":-16,\"i32\":-32,\"i64\":-64,\"u16\":16,\"u32\":32,"
        "\"u64\":64,\"f32\":1.5,\"f64\":-2.25,\"s\":\"str\",\"cs\":\"c\",\"ch\":\"ab\","
        "\"e\":\"green\",\"p\":{\"x\":1,\"y\":2},\"pp\":{\"x\":7,\"y\":8},\"date\":\"2024-02-29\","
        "\"dt\":\"2001-09-09T01:46:40Z\",\"ms\":\"1970-01-01T00:00:01Z\",\"val\":[true],"
        "\"raw\":{\"r\":1},\"arr\":[3,-4],\"dyn\":[-5,6]}";
    ASSERT_ENC(&packed_type, &v, 0, 0, want);
    ASSERT_ENC(&packed_oe_type, &v, 0, 0, want);
    memset(&v, 0, sizeof(v));
    ASSERT_ENC(&packed_oe_type, &v, 0, 0, "{}");
    tyjson_doc_free(doc);
}

/* ----------------------------------------------------------------------------
 * RAW members follow the write options
 * ------------------------------------------------------------------------- */
typedef struct raw_in {
    tyjson_str raw;
} raw_in;
static const tyjson_field raw_in_fields[] = {TYJSON_FIELD_RAW(raw_in, raw, "raw")};
static tyjson_struct raw_in_type = TYJSON_STRUCT(raw_in, raw_in_fields, 0);
typedef struct raw_out {
    int32_t a;
    raw_in in;
    raw_in list[2];
    size_t n_list;
} raw_out;
static const tyjson_field raw_out_fields[] = {
    TYJSON_FIELD_I32(raw_out, a, "a"),
    TYJSON_FIELD_STRUCT(raw_out, in, "in", &raw_in_type),
    TYJSON_FIELD_FIXED(raw_out, list, "list", n_list, TYJSON_K_STRUCT, .type = &raw_in_type),
};
static tyjson_struct raw_out_type = TYJSON_STRUCT(raw_out, raw_out_fields, 0);

TEST(raw_minified_and_validated) {
    raw_in r = {S(" [1, 2 ,3] ")};
    ASSERT_ENC(&raw_in_type, &r, 0, 0, "{\"raw\":[1,2,3]}");
    r.raw = S("{\"k\" :\n\t[ {} , [ ], \"x\" ,null,true , false, -0.50e1 ] }");
    ASSERT_ENC(&raw_in_type, &r, 0, 0, "{\"raw\":{\"k\":[{},[],\"x\",null,true,false,-5.0]}}");
    r.raw = S("[1.50, 2e0, 100]");
    ASSERT_ENC(&raw_in_type, &r, 0, 0, "{\"raw\":[1.5,2.0,100]}");
    /* numbers no C type holds stay as written */
    r.raw = S("123456789012345678901234567890");
    ASSERT_ENC(&raw_in_type, &r, 0, 0, "{\"raw\":123456789012345678901234567890}");
    /* exactly one JSON value, else the parse error with the member's path */
    raw_out o;
    memset(&o, 0, sizeof(o));
    o.in.raw = S("[1]");
    o.n_list = 2;
    o.list[0].raw = S("2");
    o.list[1].raw = S("1 2");
    ASSERT_ENC_ERR(&raw_out_type, &o, 0, TYJSON_E_TRAILING, "$.list[1].raw");
    o.list[1].raw = S("[1,");
    ASSERT_ENC_ERR(&raw_out_type, &o, 0, TYJSON_E_TRUNCATED, "$.list[1].raw");
    o.list[1].raw = S("{'a':1}");
    ASSERT_ENC_ERR(&raw_out_type, &o, 0, TYJSON_E_UNEXPECTED_CHAR, "$.list[1].raw");
    o.list[1].raw = S("   ");
    ASSERT_ENC_ERR(&raw_out_type, &o, 0, TYJSON_E_EMPTY, "$.list[1].raw");
    o.list[1].raw = S("[1,]");
    ASSERT_ENC_ERR(&raw_out_type, &o, TYJSON_WRITE_PRETTY, TYJSON_E_UNEXPECTED_CHAR,
                   "$.list[1].raw");
    o.list[1].raw = S("NaN");
    ASSERT_ENC_ERR(&raw_out_type, &o, TYJSON_WRITE_ALLOW_INF_NAN, TYJSON_E_UNEXPECTED_CHAR,
                   "$.list[1].raw");
    o.list[1].raw = S("\"a\" ");
    ASSERT_ENC(&raw_out_type, &o, 0, 0,
               "{\"a\":0,\"in\":{\"raw\":[1]},\"list\":[{\"raw\":2},{\"raw\":\"a\"}]}");
}

/* The parse error of a RAW member reaches the caller with the parser's
 * message and where in the member's text it is (it once kept only the
 * code), and the record can be copied. */
static void clobber_stack(void) {
    volatile char junk[4096];
    for (size_t i = 0; i < sizeof(junk); i++) junk[i] = (char)0x5a;
    (void)junk[0];
}
TEST(raw_parse_error_message_survives) {
    raw_in r = {S("[1 2]")};
    tyjson_error err;
    ASSERT_NULL(tyjson_encode(&raw_in_type, &r, NULL, NULL, &err));
    clobber_stack();
    ASSERT_EQ_INT(err.code, TYJSON_E_UNEXPECTED_CHAR);
    ASSERT_EQ_STR(err.path, "$.raw");
    ASSERT_EQ_STR(err.msg,
                  "expected ',' or ']' after an array element, found '2' (byte 3 of the RAW text)");
    tyjson_error copy = err;
    memset(&err, 0, sizeof(err));
    ASSERT_EQ_STR(copy.msg,
                  "expected ',' or ']' after an array element, found '2' (byte 3 of the RAW text)");
}

TEST(raw_pretty_at_member_depth) {
    raw_out o;
    memset(&o, 0, sizeof(o));
    o.a = 1;
    o.in.raw = S("{\"k\":[1,{\"z\":[]}],\"e\":{}}");
    o.n_list = 1;
    o.list[0].raw = S("[ 1 , 2 ]");
    ASSERT_ENC(&raw_out_type, &o, TYJSON_WRITE_PRETTY, 0,
               "{\n  \"a\": 1,\n  \"in\": {\n    \"raw\": {\n      \"k\": [\n        1,\n"
               "        {\n          \"z\": []\n        }\n      ],\n      \"e\": {}\n    }\n"
               "  },\n  \"list\": [\n    {\n      \"raw\": [\n        1,\n        2\n      ]\n"
               "    }\n  ]\n}");
    /* the same as the DOM writer makes of the whole text */
    check_like_dom(&raw_out_type, &o, TYJSON_WRITE_PRETTY, 0);
    check_like_dom(&raw_out_type, &o, TYJSON_WRITE_PRETTY, 3);
}

TEST(raw_escaping_and_utf8_flags) {
    raw_in r = {S("[\"\xc3\xa9/\xf0\x9f\x98\x80\", {\"\xc3\xa9\": \"a\\/b\"}]")};
    ASSERT_ENC(&raw_in_type, &r, 0, 0,
               "{\"raw\":[\"\xc3\xa9/\xf0\x9f\x98\x80\",{\"\xc3\xa9\":\"a/b\"}]}");
    ASSERT_ENC(&raw_in_type, &r, TYJSON_WRITE_ESCAPE_UNICODE, 0,
               "{\"raw\":[\"\\u00e9/\\ud83d\\ude00\",{\"\\u00e9\":\"a/b\"}]}");
    ASSERT_ENC(&raw_in_type, &r, TYJSON_WRITE_ESCAPE_SLASH, 0,
               "{\"raw\":[\"\xc3\xa9\\/\xf0\x9f\x98\x80\",{\"\xc3\xa9\":\"a\\/b\"}]}");
    /* invalid UTF-8 fails like a string member, or is replaced */
    r.raw = S("[\"a\xff\"]");
    ASSERT_ENC_ERR(&raw_in_type, &r, 0, TYJSON_E_UTF8, "$.raw");
    ASSERT_ENC(&raw_in_type, &r, TYJSON_WRITE_REPLACE_INVALID_UTF8, 0,
               "{\"raw\":[\"a\xef\xbf\xbd\"]}");
    /* control characters must have been escaped in the text already */
    r.raw = S("\"a\nb\"");
    ASSERT_ENC_ERR(&raw_in_type, &r, 0, TYJSON_E_STRING_CTRL, "$.raw");
}

TEST(raw_short_text_allocates_nothing_long_text_works) {
    test_alloc ca;
    tyjson_alloc alc = test_alloc_make(&ca, SIZE_MAX);
    tyjson_buf buf;
    tyjson_buf_init(&buf, &alc);
    tyjson_write_options o = {0, 0, &alc};
    raw_in r = {S("{\"a\": [1, 2, 3], \"b\": \"text\"}")};
    tyjson_error err;
    ASSERT_EQ_INT(tyjson_encode_append(&buf, &raw_in_type, &r, &o, &err), TYJSON_OK);
    size_t calls = ca.calls;
    for (int i = 0; i < 10; i++) {
        tyjson_buf_clear(&buf);
        ASSERT_EQ_INT(tyjson_encode_append(&buf, &raw_in_type, &r, &o, &err), TYJSON_OK);
    }
    ASSERT_EQ_UINT(ca.calls, calls);
    ASSERT_EQ_STR(buf.data, "{\"raw\":{\"a\":[1,2,3],\"b\":\"text\"}}");
    /* nor does the longest text the stack pool takes, 141 bytes */
    char pooled[142];
    memset(pooled, ' ', 141);
    memcpy(pooled, "[1,2]", 5);
    r.raw.ptr = pooled;
    r.raw.len = 141;
    tyjson_buf_clear(&buf);
    ASSERT_EQ_INT(tyjson_encode_append(&buf, &raw_in_type, &r, &o, &err), TYJSON_OK);
    ASSERT_EQ_STR(buf.data, "{\"raw\":[1,2]}");
    ASSERT_EQ_UINT(ca.calls, calls);
    /* a text too long for the stack pool parses with the options' allocator */
    size_t n = 20000;
    char *big = (char *)malloc(n * 4 + 3);
    char *want = (char *)malloc(n * 2 + 16);
    ASSERT_NOT_NULL(big);
    ASSERT_NOT_NULL(want);
    size_t k = 0, w = 0;
    big[k++] = '[';
    w += (size_t)sprintf(want, "{\"raw\":[");
    for (size_t i = 0; i < n; i++) {
        if (i) {
            memcpy(big + k, " , ", 3);
            k += 3;
            want[w++] = ',';
        }
        big[k++] = '7';
        want[w++] = '7';
    }
    big[k++] = ']';
    memcpy(want + w, "]}", 3);
    r.raw.ptr = big;
    r.raw.len = k;
    tyjson_buf_clear(&buf);
    ASSERT_EQ_INT(tyjson_encode_append(&buf, &raw_in_type, &r, &o, &err), TYJSON_OK);
    ASSERT_EQ_STR(buf.data, want);
    ASSERT_TRUE(ca.calls > calls);
    tyjson_buf_free(&buf);
    ASSERT_EQ_INT(ca.live, 0);
    free(big);
    free(want);
}

/* ----------------------------------------------------------------------------
 * Encode errors have a path and no position
 * ------------------------------------------------------------------------- */
static int refuse_write(void *ctx, const char *data, size_t len) {
    (void)ctx;
    (void)data;
    (void)len;
    return 1;
}

TEST(encode_errors_have_no_position) {
    reals r = {NAN, 0};
    tyjson_error err;
    memset(&err, 0x5a, sizeof(err));
    ASSERT_NULL(tyjson_encode(&reals_type, &r, NULL, NULL, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_NAN_INF);
    ASSERT_EQ_UINT(err.offset, 0);
    ASSERT_EQ_UINT(err.line, 0);
    ASSERT_EQ_UINT(err.column, 0);
    char msg[300];
    ASSERT_EQ_STR(tyjson_error_format(&err, msg, sizeof(msg)),
                  "NaN or Infinity cannot be written as JSON at $.f");
    /* a sink failure has neither path nor position */
    point p = {1, 2};
    memset(&err, 0x5a, sizeof(err));
    ASSERT_FALSE(tyjson_encode_cb(refuse_write, NULL, &point_type, &p, NULL, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_CALLBACK);
    ASSERT_EQ_UINT(err.line, 0);
    ASSERT_EQ_STR(tyjson_error_format(&err, msg, sizeof(msg)),
                  "user callback reported failure");
}

/* ----------------------------------------------------------------------------
 * Deep nesting: past the recursion's levels the explicit-stack walk writes
 * the same bytes (checked against the DOM writer) and the same paths.
 * ------------------------------------------------------------------------- */
typedef struct tree tree;
typedef struct tree_list {
    tree *items;
    size_t n;
} tree_list;
struct tree {
    int32_t v;
    tyjson_str name;
    tree *next;
    tree *kids;
    size_t n_kids;
    tree_list *list;
    double d[2];
    size_t n_d;
    tyjson_str raw;
    bool has_v;
};
static tyjson_struct tree_type, tree_list_type;
static const tyjson_field tree_list_fields[] = {
    TYJSON_FIELD_DYN(tree_list, items, "items", n, TYJSON_K_STRUCT, .type = &tree_type),
};
static tyjson_struct tree_list_type = TYJSON_STRUCT(tree_list, tree_list_fields, TYJSON_T_ARRAY);
static const tyjson_field tree_fields[] = {
    TYJSON_FIELD_I32(tree, v, "v", TYJSON_PRESENT(tree, has_v)),
    TYJSON_FIELD_STR(tree, name, "na\"me", .flags = TYJSON_F_OMIT_EMPTY),
    TYJSON_FIELD_PTR(tree, next, "next", &tree_type, .flags = TYJSON_F_OMIT_EMPTY),
    TYJSON_FIELD_DYN(tree, kids, "kids", n_kids, TYJSON_K_STRUCT, .type = &tree_type),
    TYJSON_FIELD_PTR(tree, list, "list", &tree_list_type, .flags = TYJSON_F_OMIT_EMPTY),
    TYJSON_FIELD_FIXED(tree, d, "d", n_d, TYJSON_K_F64),
    TYJSON_FIELD_RAW(tree, raw, "raw", .flags = TYJSON_F_OMIT_EMPTY),
};
static tyjson_struct tree_type = TYJSON_STRUCT(tree, tree_fields, 0);

/* A tree `levels` deep along one spine that goes through PTR members, the
 * second element of an array of structs, and T_ARRAY lists in turn; the
 * JSON path of the deepest node goes into path. Nodes come from pool. */
static tree *grow_tree(tree *pool, size_t *used, int levels, char *path, size_t *plen) {
    tree *t = &pool[(*used)++];
    tree *spine = t;
    for (int level = 0;; level++) {
        memset(spine, 0, sizeof(*spine));
        spine->v = level;
        spine->has_v = level % 7 != 3;
        if (level % 3) spine->name = S("n");
        spine->n_d = (size_t)(level % 3);
        spine->d[0] = level + 0.5;
        spine->d[1] = -level;
        if (level % 4 == 0) spine->raw = S("[1, {\"a\" : \"\\u00e9/\"}, []]");
        if (level == levels - 1) break;
        tree *child;
        if (level % 5 == 2) {
            spine->kids = &pool[*used];
            spine->n_kids = 2;
            *used += 2;
            memset(&spine->kids[0], 0, sizeof(tree));
            spine->kids[0].v = 100 + level;
            spine->kids[0].has_v = true;
            child = &spine->kids[1];
            *plen += (size_t)sprintf(path + *plen, ".kids[1]");
        } else if (level % 5 == 4) {
            tree_list *l = (tree_list *)(void *)&pool[(*used)++];
            l->items = &pool[(*used)++];
            l->n = 1;
            spine->list = l;
            child = l->items;
            *plen += (size_t)sprintf(path + *plen, ".list[0]");
        } else {
            child = &pool[(*used)++];
            spine->next = child;
            *plen += (size_t)sprintf(path + *plen, ".next");
        }
        spine = child;
    }
    return t;
}

TEST(deep_nesting_same_bytes_and_paths) {
    const int depths[] = {5, 30, 60, 150};
    for (size_t k = 0; k < sizeof(depths) / sizeof(depths[0]); k++) {
        tree *pool = (tree *)calloc(4 * (size_t)depths[k] + 4, sizeof(tree));
        ASSERT_NOT_NULL(pool);
        char path[4096] = "$";
        size_t used = 0, plen = 1;
        tree *t = grow_tree(pool, &used, depths[k], path, &plen);
        const tyjson_write_flags fl[] = {0, TYJSON_WRITE_PRETTY, TYJSON_WRITE_ESCAPE_SLASH};
        for (size_t i = 0; i < 3; i++) check_like_dom(&tree_type, t, fl[i], 0);
        check_like_dom(&tree_type, t, TYJSON_WRITE_PRETTY, 5);
        /* a NaN in the deepest node: the whole path (when it fits) */
        tree *deepest = t;
        for (;;) {
            if (deepest->next) deepest = deepest->next;
            else if (deepest->n_kids) deepest = &deepest->kids[1];
            else if (deepest->list) deepest = deepest->list->items;
            else break;
        }
        deepest->n_d = 2;
        deepest->d[1] = NAN;
        plen += (size_t)sprintf(path + plen, ".d[1]");
        tyjson_error err;
        const tyjson_write_flags both[] = {0, TYJSON_WRITE_PRETTY};
        for (size_t i = 0; i < 2; i++) {
            tyjson_write_options o = {both[i], 0, NULL};
            ASSERT_NULL(tyjson_encode(&tree_type, t, &o, NULL, &err));
            ASSERT_EQ_INT(err.code, TYJSON_E_NAN_INF);
            if (plen < TYJSON_ERROR_PATH_MAX) {
                ASSERT_EQ_STR(err.path, path);
            } else {
                ASSERT_EQ_MEM(err.path, "$...", 4);
                size_t n = strlen(err.path);
                ASSERT_EQ_STR(path + plen - (n - 4), err.path + 4);
            }
        }
        /* an invalid RAW text deep down: its path too */
        deepest->d[1] = 1;
        deepest->raw = S("[1 2]");
        plen -= strlen(".d[1]");
        path[plen] = 0;
        ASSERT_NULL(tyjson_encode(&tree_type, t, NULL, NULL, &err));
        ASSERT_EQ_INT(err.code, TYJSON_E_UNEXPECTED_CHAR);
        if (plen + 4 < TYJSON_ERROR_PATH_MAX) {
            strcat(path, ".raw");
            ASSERT_EQ_STR(err.path, path);
        }
        free(pool);
    }
}

/* Past the depth where the encoder leaves recursion for its frame stack,
 * members with a state or a presence flag are written exactly as near the
 * root: ABSENT left out, NULL as null, SET as the value; absent presence
 * left out. (The frame-stack path and the recursion share one omit rule.) */
typedef struct snode {
    int32_t q;
    tyjson_state q_st;
    int32_t p;
    bool has_p;
    struct snode *next;
} snode;
extern tyjson_struct snode_type;
static const tyjson_field snode_fields[] = {
    TYJSON_FIELD_I32(snode, q, "q", TYJSON_STATE(snode, q_st)),
    TYJSON_FIELD_I32(snode, p, "p", TYJSON_PRESENT(snode, has_p)),
    TYJSON_FIELD_PTR(snode, next, "next", &snode_type, .flags = TYJSON_F_OMIT_EMPTY),
};
tyjson_struct snode_type = TYJSON_STRUCT(snode, snode_fields, 0);

TEST(deep_state_and_presence_members) {
    enum { N = 60 };
    snode chain[N];
    memset(chain, 0, sizeof(chain));
    for (size_t i = 0; i < N; i++) {
        chain[i].q = (int32_t)i;
        chain[i].q_st = (tyjson_state)(i % 3); /* ABSENT, NULL, SET in turn */
        chain[i].p = (int32_t)(100 + i);
        chain[i].has_p = (i % 2) == 0;
        chain[i].next = i + 1 < N ? &chain[i + 1] : NULL;
    }
    /* the expected text, built level by level */
    char *want = (char *)malloc(N * 64);
    ASSERT_NOT_NULL(want);
    size_t k = 0;
    for (size_t i = 0; i < N; i++) {
        want[k++] = '{';
        bool any = false;
        if (chain[i].q_st == TYJSON_STATE_NULL) k += (size_t)sprintf(want + k, "\"q\":null"), any = true;
        if (chain[i].q_st == TYJSON_STATE_SET) k += (size_t)sprintf(want + k, "\"q\":%d", (int)i), any = true;
        if (chain[i].has_p) k += (size_t)sprintf(want + k, "%s\"p\":%d", any ? "," : "", (int)(100 + i)), any = true;
        if (i + 1 < N) k += (size_t)sprintf(want + k, "%s\"next\":", any ? "," : "");
    }
    for (size_t i = 0; i < N; i++) want[k++] = '}';
    want[k] = 0;
    size_t len;
    tyjson_error err;
    char *text = tyjson_encode(&snode_type, chain, NULL, &len, &err);
    ASSERT_NOT_NULL(text);
    ASSERT_EQ_STR(text, want);
    /* and it decodes back to the same states */
    tyjson_arena arena;
    tyjson_arena_init(&arena, NULL);
    snode back;
    ASSERT_EQ_INT(tyjson_decode(&snode_type, &back, text, len, &arena, NULL, &err), TYJSON_OK);
    const snode *p = &back;
    for (size_t i = 0; i < N; i++, p = p->next) {
        ASSERT_NOT_NULL(p);
        ASSERT_EQ_INT(p->q_st, chain[i].q_st);
        ASSERT_EQ_INT(p->has_p, chain[i].has_p);
    }
    ASSERT_NULL(p);
    tyjson_arena_free(&arena);
    free(text);
    free(want);
}

/* A PTR chain as deep as the limit allows: 1024 open structs encode (and
 * decode back), one more is TYJSON_E_DEPTH with the path's innermost part. */
TEST(deep_chain_up_to_the_depth_limit) {
    size_t n = TYJSON_DEFAULT_MAX_DEPTH + 1;
    node *chain = (node *)calloc(n, sizeof(node));
    ASSERT_NOT_NULL(chain);
    for (size_t i = 0; i + 1 < n; i++) {
        chain[i].v = (int32_t)i;
        chain[i].next = &chain[i + 1];
    }
    chain[n - 1].v = (int32_t)(n - 1);
    tyjson_error err;
    ASSERT_NULL(tyjson_encode(&node_type, chain, NULL, NULL, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_DEPTH);
    ASSERT_EQ_STR(err.path + strlen(err.path) - 10, ".next.next");
    chain[n - 2].next = NULL;
    const tyjson_write_flags fl[] = {0, TYJSON_WRITE_PRETTY};
    for (size_t k = 0; k < 2; k++) {
        tyjson_write_options o = {fl[k], 1, NULL};
        size_t len = 0;
        char *t = tyjson_encode(&node_type, chain, &o, &len, &err);
        ASSERT_NOT_NULL(t);
        tyjson_arena arena;
        tyjson_arena_init(&arena, NULL);
        node back;
        ASSERT_EQ_INT(tyjson_decode(&node_type, &back, t, len, &arena, NULL, &err), TYJSON_OK);
        const node *p = &back;
        for (size_t i = 0; i + 1 < n; i++, p = p->next) {
            ASSERT_NOT_NULL(p);
            ASSERT_EQ_INT(p->v, (int32_t)i);
        }
        ASSERT_NULL(p);
        tyjson_arena_free(&arena);
        free(t);
    }
    /* the frames past the recursion come from the options' allocator and
     * go back to it; a failing allocation is TYJSON_E_NOMEM */
    test_alloc ca;
    tyjson_alloc alc = test_alloc_make(&ca, SIZE_MAX);
    tyjson_write_options o = {0, 0, &alc};
    char *t = tyjson_encode(&node_type, chain, &o, NULL, &err);
    ASSERT_NOT_NULL(t);
    ASSERT_TRUE(ca.calls >= 3); /* the text, and frames grown twice at least */
    tyjson_free(&alc, t);
    ASSERT_EQ_INT(ca.live, 0);
    for (size_t fail_at = 0; fail_at < ca.calls; fail_at++) {
        test_alloc cf;
        tyjson_alloc af = test_alloc_make(&cf, fail_at);
        tyjson_write_options of = {0, 0, &af};
        char *tf = tyjson_encode(&node_type, chain, &of, NULL, &err);
        if (tf) tyjson_free(&af, tf);
        else ASSERT_EQ_INT(err.code, TYJSON_E_NOMEM);
        ASSERT_EQ_INT(cf.live, 0);
    }
    free(chain);
}

int main(int argc, char **argv) { return test_main(argc, argv); }
