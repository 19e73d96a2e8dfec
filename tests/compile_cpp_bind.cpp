/* compile_cpp_bind.cpp - the binding macros, every TYJSON_FIELD_* form and
 * every extra (in mixed orders), from C++ and from C.
 *
 * The file is written in the common subset of C11 and C++11: ctest compiles
 * it with g++ and clang++ in C++11, 14, 17 and 20, and with gcc and clang as
 * C11 (`-x c`), all under -Wall -Wextra -Wpedantic -Werror (see
 * tests/compile_cpp_bind.cmake). So each descriptor line below is one source
 * line that compiles in both languages. The program decodes a message,
 * checks every member, encodes it back and compares the text. */
#include "tyjson.h"

#include <stdio.h>
#include <string.h>

static int failures = 0;
#define CHECK(cond)                                                            \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                        \
        }                                                                      \
    } while (0)

/* ---- nested types -------------------------------------------------------- */
typedef struct {
    int32_t x, y;
} pt;
static const tyjson_field pt_fields[] = {
    TYJSON_FIELD_I32(pt, x, "x"),
    TYJSON_FIELD_I32(pt, y, "y", TYJSON_DEFAULT_I(-1), TYJSON_FLAGS(TYJSON_F_NULLABLE)),
};
static tyjson_struct pt_type = TYJSON_STRUCT(pt, pt_fields, 0);

/* A custom codec: a pt as the JSON array [x, y]. */
static tyjson_status pt_decode(void *ctx, const tyjson_val *val, void *member,
                               tyjson_arena *arena) {
    pt p;
    (void)ctx;
    (void)arena;
    if (!tyjson_is_arr(val) || tyjson_arr_size(val) != 2) return TYJSON_E_TYPE;
    p.x = (int32_t)tyjson_get_int(tyjson_arr_get(val, 0));
    p.y = (int32_t)tyjson_get_int(tyjson_arr_get(val, 1));
    memcpy(member, &p, sizeof p);
    return TYJSON_OK;
}
static tyjson_status pt_encode(void *ctx, const void *member, tyjson_write_fn write,
                               void *wctx) {
    const pt *p = (const pt *)member;
    char text[32];
    int n = snprintf(text, sizeof text, "[%d,%d]", (int)p->x, (int)p->y);
    (void)ctx;
    return write(wctx, text, (size_t)n) == 0 ? TYJSON_OK : TYJSON_E_CALLBACK;
}
static const tyjson_codec pt_codec = {pt_decode, pt_encode, NULL};

typedef enum { RED = 0, GREEN = 5, BLUE = -3 } color;
static const tyjson_enum_entry color_names[] = {{"red", RED}, {"green", GREEN}, {"blue", BLUE}};
static const char *const i32_aliases[] = {"int32", "i_32", NULL};
static const char *const str_aliases[] = {"string", NULL};

/* ---- every form ---------------------------------------------------------- */
typedef struct {
    bool b;
    int8_t i8;
    int16_t i16;
    int32_t i32;
    int64_t i64;
    uint8_t u8;
    uint16_t u16;
    bool has_u16;
    uint32_t u32;
    uint64_t u64;
    float f32;
    double f64;
    tyjson_str str;
    tyjson_state str_state;
    char *cstr;
    char chars[8];
    tyjson_date date;
    tyjson_datetime dt;
    int64_t ms;
    int64_t ns;
    tyjson_val *value;
    tyjson_str raw;
    tyjson_decimal amount;
    int32_t paint;
    pt origin;
    pt *anchor;
    pt custom;
    pt *path;
    size_t n_path;
    int32_t fixed[4];
    size_t n_fixed;
    int32_t *colors;
    size_t n_colors;
    pt custom_arr[2];
    size_t n_custom_arr;
    int64_t d_i;
    uint64_t d_u;
    double d_f;
    bool d_b;
    char *d_s;
} all_kinds;

static const tyjson_field all_kinds_fields[] = {
    TYJSON_FIELD_BOOL(all_kinds, b, "b", TYJSON_FLAGS(TYJSON_F_REQUIRED)),
    TYJSON_FIELD_I8(all_kinds, i8, "i8"),
    TYJSON_FIELD_I16(all_kinds, i16, "i16", TYJSON_FLAGS(TYJSON_F_NULLABLE), TYJSON_DEFAULT_I(7)),
    TYJSON_FIELD_I32(all_kinds, i32, "i32", TYJSON_ALIASES(i32_aliases), TYJSON_FLAGS(TYJSON_F_REQUIRED)),
    TYJSON_FIELD_I64(all_kinds, i64, "i64"),
    TYJSON_FIELD_U8(all_kinds, u8, "u8"),
    TYJSON_FIELD_U16(all_kinds, u16, "u16", TYJSON_PRESENT(all_kinds, has_u16), TYJSON_FLAGS(TYJSON_F_NULLABLE)),
    TYJSON_FIELD_U32(all_kinds, u32, "u32"),
    TYJSON_FIELD_U64(all_kinds, u64, "u64"),
    TYJSON_FIELD_F32(all_kinds, f32, "f32"),
    TYJSON_FIELD_F64(all_kinds, f64, "f64"),
    TYJSON_FIELD_STR(all_kinds, str, "str", TYJSON_STATE(all_kinds, str_state), TYJSON_ALIASES(str_aliases), TYJSON_FLAGS(TYJSON_F_NULLABLE)),
    TYJSON_FIELD_CSTR(all_kinds, cstr, "cstr"),
    TYJSON_FIELD_CHARS(all_kinds, chars, "chars"),
    TYJSON_FIELD_DATE(all_kinds, date, "date"),
    TYJSON_FIELD_DATETIME(all_kinds, dt, "dt"),
    TYJSON_FIELD_EPOCH_MS(all_kinds, ms, "ms", TYJSON_FLAGS(TYJSON_F_EPOCH_NUMBER)),
    TYJSON_FIELD_EPOCH_NS(all_kinds, ns, "ns"),
    TYJSON_FIELD_VALUE(all_kinds, value, "value"),
    TYJSON_FIELD_RAW(all_kinds, raw, "raw"),
    TYJSON_FIELD_ENUM(all_kinds, paint, "paint", color_names, TYJSON_FLAGS(TYJSON_F_OMIT_EMPTY)),
    TYJSON_FIELD_STRUCT(all_kinds, origin, "origin", &pt_type),
    TYJSON_FIELD_PTR(all_kinds, anchor, "anchor", &pt_type, TYJSON_FLAGS(TYJSON_F_WRITE_NULL)),
    TYJSON_FIELD_CUSTOM(all_kinds, custom, "custom", &pt_codec),
    TYJSON_FIELD_DYN(all_kinds, path, "path", n_path, TYJSON_K_STRUCT, TYJSON_ELEM_TYPE(&pt_type)),
    TYJSON_FIELD_FIXED(all_kinds, fixed, "fixed", n_fixed, TYJSON_K_I32),
    TYJSON_FIELD_DYN(all_kinds, colors, "colors", n_colors, TYJSON_K_ENUM, TYJSON_FLAGS(TYJSON_F_NULLABLE), TYJSON_ELEM_ENUMS(color_names)),
    TYJSON_FIELD_FIXED(all_kinds, custom_arr, "customs", n_custom_arr, TYJSON_K_CUSTOM, TYJSON_ELEM_CODEC(&pt_codec)),
    /* The defaults, each with its extras in a different order. */
    TYJSON_FIELD_I64(all_kinds, d_i, "d_i", TYJSON_DEFAULT_I(-42)),
    TYJSON_FIELD_U64(all_kinds, d_u, "d_u", TYJSON_FLAGS(TYJSON_F_NULLABLE), TYJSON_DEFAULT_U(18446744073709551615u)),
    TYJSON_FIELD_F64(all_kinds, d_f, "d_f", TYJSON_DEFAULT_F(2.5), TYJSON_FLAGS(TYJSON_F_NULLABLE)),
    TYJSON_FIELD_BOOL(all_kinds, d_b, "d_b", TYJSON_DEFAULT_B(true)),
    TYJSON_FIELD_CSTR(all_kinds, d_s, "d_s", TYJSON_FLAGS(TYJSON_F_NULLABLE), TYJSON_DEFAULT_S("dflt")),
    TYJSON_FIELD_DECIMAL(all_kinds, amount, "amount", TYJSON_FLAGS(TYJSON_F_DECIMAL_STRING), TYJSON_DEFAULT_S("1.50")),
};
static tyjson_struct all_kinds_type = TYJSON_STRUCT(all_kinds, all_kinds_fields, TYJSON_T_DUPLICATE_ERROR);

/* ---- the one-list form --------------------------------------------------- */
#define TICKET_FIELDS(X, T)      \
    X(T, STR, title, "title")    \
    X(T, U16, seats, "seats")    \
    X(T, F64, price, "price")    \
    X(T, DATE, day, "day")       \
    X(T, EPOCH_MS, at, "at")     \
    X(T, DECIMAL, fare, "fare")
TYJSON_DECLARE_STRUCT(ticket, TICKET_FIELDS);
TYJSON_DEFINE_TYPE(ticket, TICKET_FIELDS, 0);

#define STREQ(s, lit) ((s).len == strlen(lit) && memcmp((s).ptr, (lit), (s).len) == 0)

static const char all_kinds_json[] =
    "{\"b\":true,\"i8\":-8,\"i16\":null,\"int32\":-32,\"i64\":-64,\"u8\":8,\"u16\":16,"
    "\"u32\":32,\"u64\":18446744073709551615,\"f32\":3.67,\"f64\":-0.5,\"string\":\"s\\u00e9\","
    "\"cstr\":\"c\",\"chars\":\"1234567\",\"date\":\"2024-06-15\","
    "\"dt\":\"2024-06-15T10:30:00.120-05:30\",\"ms\":56584306800000,"
    "\"ns\":\"1970-01-01T00:00:01.000000002Z\",\"value\":{\"k\":[1,true]},\"raw\":[ 1 , 2 ],\"amount\":19.90,"
    "\"paint\":\"blue\",\"origin\":{\"x\":1,\"y\":null},\"anchor\":{\"x\":3,\"y\":4},"
    "\"custom\":[5,6],\"path\":[{\"x\":7,\"y\":8},{\"x\":9}],\"fixed\":[10,11,12],"
    "\"colors\":[\"green\",\"red\"],\"customs\":[[13,14]],\"d_u\":null}";

/* What the encoder writes back: main names, declaration order, defaults. */
static const char all_kinds_out[] =
    "{\"b\":true,\"i8\":-8,\"i16\":7,\"i32\":-32,\"i64\":-64,\"u8\":8,\"u16\":16,"
    "\"u32\":32,\"u64\":18446744073709551615,\"f32\":3.67,\"f64\":-0.5,\"str\":\"s\xc3\xa9\","
    "\"cstr\":\"c\",\"chars\":\"1234567\",\"date\":\"2024-06-15\","
    "\"dt\":\"2024-06-15T10:30:00.120-05:30\",\"ms\":56584306800000,"
    "\"ns\":\"1970-01-01T00:00:01.000000002Z\",\"value\":{\"k\":[1,true]},\"raw\":[1,2],"
    "\"paint\":\"blue\",\"origin\":{\"x\":1,\"y\":-1},\"anchor\":{\"x\":3,\"y\":4},"
    "\"custom\":[5,6],\"path\":[{\"x\":7,\"y\":8},{\"x\":9,\"y\":-1}],\"fixed\":[10,11,12],"
    "\"colors\":[\"green\",\"red\"],\"customs\":[[13,14]],\"d_i\":-42,"
    "\"d_u\":18446744073709551615,\"d_f\":2.5,\"d_b\":true,\"d_s\":\"dflt\",\"amount\":\"19.90\"}";

/* The descriptor holds what each extra says, whatever the order. */
static void check_descriptors(void) {
    const tyjson_field *f = all_kinds_fields;
    CHECK(sizeof all_kinds_fields / sizeof all_kinds_fields[0] == 34);
    CHECK(f[0].kind == TYJSON_K_BOOL && f[0].flags == TYJSON_F_REQUIRED);
    CHECK(f[2].has_default && f[2].dflt.i == 7 && f[2].flags == TYJSON_F_NULLABLE);
    CHECK(f[3].aliases == i32_aliases && f[3].flags == TYJSON_F_REQUIRED);
    CHECK(f[6].present_at == offsetof(all_kinds, has_u16) + 1);
    CHECK(f[11].state_at == offsetof(all_kinds, str_state) + 1);
    CHECK(f[11].aliases == str_aliases && f[11].flags == TYJSON_F_NULLABLE);
    CHECK(f[13].kind == TYJSON_K_CHARS && f[13].size == 8);
    CHECK(f[20].enums == color_names && f[20].n_enums == 3);
    CHECK(f[21].type == &pt_type && f[22].type == &pt_type && f[23].codec == &pt_codec);
    CHECK(f[24].shape == TYJSON_SHAPE_DYN && f[24].type == &pt_type && f[24].size == sizeof(pt));
    CHECK(f[24].count_at == offsetof(all_kinds, n_path) + 1);
    CHECK(f[25].shape == TYJSON_SHAPE_FIXED && f[25].capacity == 4);
    CHECK(f[26].enums == color_names && f[26].n_enums == 3 && f[26].kind == TYJSON_K_ENUM);
    CHECK(f[27].codec == &pt_codec && f[27].capacity == 2);
    CHECK(f[28].has_default && f[28].dflt.i == -42);
    CHECK(f[29].has_default && f[29].dflt.u == UINT64_MAX);
    CHECK(f[30].has_default && f[30].dflt.f == 2.5);
    CHECK(f[31].has_default && f[31].dflt.b);
    CHECK(f[32].has_default && strcmp(f[32].dflt.s, "dflt") == 0);
    CHECK(f[33].kind == TYJSON_K_DECIMAL && f[33].flags == TYJSON_F_DECIMAL_STRING &&
          f[33].has_default && strcmp(f[33].dflt.s, "1.50") == 0);
    CHECK(f[1].flags == 0 && !f[1].has_default && f[1].aliases == NULL && f[1].state_at == 0);
}

static void check_decoded(const all_kinds *v) {
    CHECK(v->b && v->i8 == -8 && v->i16 == 7 && v->i32 == -32 && v->i64 == -64);
    CHECK(v->u8 == 8 && v->u16 == 16 && v->has_u16 && v->u32 == 32 && v->u64 == UINT64_MAX);
    CHECK(v->f32 == 3.67f && v->f64 == -0.5);
    CHECK(STREQ(v->str, "s\xc3\xa9"));
    CHECK(v->str_state == TYJSON_STATE_SET); /* the state member is filled by decoding */
    CHECK(strcmp(v->cstr, "c") == 0 && strcmp(v->chars, "1234567") == 0);
    CHECK(v->date.year == 2024 && v->date.month == 6 && v->date.day == 15);
    CHECK(v->dt.hour == 10 && v->dt.nanosecond == 120000000 && v->dt.offset_minutes == -330);
    CHECK(v->ms == 56584306800000 && v->ns == 1000000002);
    CHECK(tyjson_arr_size(tyjson_obj_get(v->value, "k")) == 2);
    CHECK(STREQ(v->raw, "[ 1 , 2 ]"));
    CHECK(v->paint == BLUE);
    CHECK(v->origin.x == 1 && v->origin.y == -1);
    CHECK(v->anchor != NULL && v->anchor->x == 3 && v->anchor->y == 4);
    CHECK(v->custom.x == 5 && v->custom.y == 6);
    CHECK(v->n_path == 2 && v->path[1].x == 9 && v->path[1].y == -1);
    CHECK(v->n_fixed == 3 && v->fixed[2] == 12 && v->fixed[3] == 0);
    CHECK(v->n_colors == 2 && v->colors[0] == GREEN && v->colors[1] == RED);
    CHECK(v->n_custom_arr == 1 && v->custom_arr[0].x == 13 && v->custom_arr[0].y == 14);
    CHECK(v->d_i == -42 && v->d_u == UINT64_MAX && v->d_f == 2.5 && v->d_b);
    CHECK(strcmp(v->d_s, "dflt") == 0);
    CHECK(v->amount.coef == 1990 && v->amount.scale == 2);
}

static void check_round_trip(void) {
    tyjson_arena arena;
    tyjson_error err;
    all_kinds v;
    char *text;
    size_t len = 0;
    tyjson_arena_init(&arena, NULL);
    CHECK(tyjson_struct_prepare(&all_kinds_type, &err) == TYJSON_OK);
    CHECK(tyjson_decode(&all_kinds_type, &v, all_kinds_json, strlen(all_kinds_json), &arena,
                        NULL, &err) == TYJSON_OK);
    if (err.code != TYJSON_OK) fprintf(stderr, "decode: %s at %s\n", err.msg, err.path);
    check_decoded(&v);
    text = tyjson_encode(&all_kinds_type, &v, NULL, &len, &err);
    CHECK(text != NULL && len == strlen(all_kinds_out) && strcmp(text, all_kinds_out) == 0);
    if (text && strcmp(text, all_kinds_out) != 0) fprintf(stderr, "encoded: %s\n", text);
    tyjson_free(NULL, text);

    /* A required key that is missing names the field. */
    CHECK(tyjson_decode(&all_kinds_type, &v, "{\"i32\":1}", 9, &arena, NULL, &err) ==
          TYJSON_E_MISSING_KEY);
    CHECK(strcmp(err.path, "$.b") == 0);
    tyjson_arena_free(&arena);
}

static void check_one_list(void) {
    static const char json[] =
        "{\"title\":\"Gala\",\"seats\":120,\"price\":45.5,\"day\":\"2024-06-15\","
        "\"at\":\"2024-06-15T19:30:00Z\",\"fare\":12.50}";
    tyjson_arena arena;
    tyjson_error err;
    ticket t;
    char *text;
    size_t len = 0;
    tyjson_arena_init(&arena, NULL);
    CHECK(sizeof ticket_fields / sizeof ticket_fields[0] == 6);
    CHECK(tyjson_decode(&ticket_type, &t, json, strlen(json), &arena, NULL, &err) == TYJSON_OK);
    CHECK(STREQ(t.title, "Gala") && t.seats == 120 && t.price == 45.5 && t.day.day == 15);
    CHECK(t.at == 1718479800000 && t.fare.coef == 1250 && t.fare.scale == 2);
    text = tyjson_encode(&ticket_type, &t, NULL, &len, &err);
    CHECK(text != NULL && strcmp(text, json) == 0);
    tyjson_free(NULL, text);
    tyjson_arena_free(&arena);
}

#if defined(__cplusplus) && __cplusplus >= 201402L
/* From C++14 a field is a constant expression; from C++20 with every kind
 * of default (before it, only TYJSON_DEFAULT_I keeps the union's member). */
constexpr tyjson_field constant_field =
    TYJSON_FIELD_I32(pt, y, "y", TYJSON_DEFAULT_I(-1), TYJSON_FLAGS(TYJSON_F_NULLABLE));
static_assert(constant_field.dflt.i == -1 && constant_field.flags == TYJSON_F_NULLABLE, "");
static_assert(constant_field.offset == offsetof(pt, y) && constant_field.size == 4, "");
constexpr tyjson_field constant_extras[] = {
    TYJSON_FIELD_DYN(all_kinds, path, "path", n_path, TYJSON_K_STRUCT, TYJSON_ELEM_TYPE(&pt_type)),
    TYJSON_FIELD_STR(all_kinds, str, "str", TYJSON_STATE(all_kinds, str_state), TYJSON_ALIASES(str_aliases)),
    TYJSON_FIELD_U16(all_kinds, u16, "u16", TYJSON_PRESENT(all_kinds, has_u16)),
    TYJSON_FIELD_ENUM(all_kinds, paint, "paint", color_names),
    TYJSON_FIELD_CUSTOM(all_kinds, custom, "custom", &pt_codec),
};
static_assert(constant_extras[0].type == &pt_type && constant_extras[0].count_at != 0, "");
static_assert(constant_extras[1].state_at == offsetof(all_kinds, str_state) + 1, "");
static_assert(constant_extras[1].aliases == str_aliases, "");
static_assert(constant_extras[2].present_at == offsetof(all_kinds, has_u16) + 1, "");
static_assert(constant_extras[3].n_enums == 3 && constant_extras[4].codec == &pt_codec, "");
#if __cplusplus >= 202002L
constexpr tyjson_field constant_defaults[] = {
    TYJSON_FIELD_F64(all_kinds, d_f, "d_f", TYJSON_FLAGS(TYJSON_F_NULLABLE), TYJSON_DEFAULT_F(2.5)),
    TYJSON_FIELD_U64(all_kinds, d_u, "d_u", TYJSON_DEFAULT_U(7)),
    TYJSON_FIELD_BOOL(all_kinds, d_b, "d_b", TYJSON_DEFAULT_B(true)),
    TYJSON_FIELD_CSTR(all_kinds, d_s, "d_s", TYJSON_DEFAULT_S("dflt")),
};
static_assert(constant_defaults[0].has_default && constant_defaults[0].dflt.f == 2.5, "");
static_assert(constant_defaults[1].dflt.u == 7 && constant_defaults[2].dflt.b, "");
static_assert(constant_defaults[3].dflt.s[0] == 'd', "");
#endif
#endif

int main(void) {
    check_descriptors();
    check_round_trip();
    check_one_list();
#ifdef __cplusplus
    printf("C++ %ld: ", (long)__cplusplus);
#else
    printf("C %ld: ", (long)__STDC_VERSION__);
#endif
    printf("%s\n", failures == 0 ? "all checks passed" : "FAILED");
    return failures == 0 ? 0 : 1;
}
