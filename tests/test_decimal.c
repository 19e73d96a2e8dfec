/* test_decimal.c - exact decimals: tyjson_decimal_parse and _format digit for
 * digit, their round trip over random coefficients and scales, and the
 * binding's DECIMAL kind (numbers and strings in, numbers or strings out,
 * nulls, defaults, arrays, errors with their paths and messages). */
#include "test.h"
#include "tyjson.h"

static tyjson_decimal D(int64_t coef, int32_t scale) {
    tyjson_decimal d;
    d.coef = coef;
    d.scale = scale;
    return d;
}

#define ASSERT_PARSE(text, coef_, scale_)                                      \
    do {                                                                       \
        tyjson_decimal d__ = {99, 99};                                         \
        if (!tyjson_decimal_parse((text), strlen(text), &d__))                 \
            TEST_FAIL("'%s' not parsed", (text));                              \
        ASSERT_EQ_INT(d__.coef, (coef_));                                      \
        ASSERT_EQ_INT(d__.scale, (scale_));                                    \
    } while (0)

#define ASSERT_NO_PARSE(text)                                                  \
    do {                                                                       \
        tyjson_decimal d__ = {99, 99};                                         \
        ASSERT_FALSE(tyjson_decimal_parse((text), strlen(text), &d__));        \
        ASSERT_EQ_INT(d__.coef, 99);                                           \
    } while (0)

#define ASSERT_FORMAT(coef_, scale_, want)                                     \
    do {                                                                       \
        tyjson_decimal d__ = D((coef_), (scale_));                             \
        char b__[TYJSON_DECIMAL_MAX + 1];                                      \
        size_t n__ = tyjson_decimal_format(&d__, b__);                         \
        b__[n__] = 0;                                                          \
        ASSERT_EQ_STR(b__, (want));                                            \
    } while (0)

TEST(parse_keeps_every_digit) {
    ASSERT_PARSE("19.99", 1999, 2);
    ASSERT_PARSE("19.90", 1990, 2);
    ASSERT_PARSE("0.005", 5, 3);
    ASSERT_PARSE("0", 0, 0);
    ASSERT_PARSE("-0.0", 0, 1);
    ASSERT_PARSE("-12", -12, 0);
    ASSERT_PARSE("1.5e3", 15, -2);
    ASSERT_PARSE("1E+2", 1, -2);
    ASSERT_PARSE("25e-3", 25, 3);
    ASSERT_PARSE("5e-400", 5, 400);
    ASSERT_PARSE("9223372036854775807", INT64_MAX, 0);
    ASSERT_PARSE("-9223372036854775808", INT64_MIN, 0);
    ASSERT_PARSE("0.0000000000000000000000000001", 1, 28);
    ASSERT_PARSE("1e1000000000", 1, -1000000000);
    ASSERT_PARSE("1e-1000000000", 1, 1000000000);
}

TEST(parse_refuses_what_is_not_one_number) {
    ASSERT_NO_PARSE("");
    ASSERT_NO_PARSE("9223372036854775808");   /* beyond int64 */
    ASSERT_NO_PARSE("-9223372036854775809");
    ASSERT_NO_PARSE("1.00000000000000000000"); /* 21 digits: the zeros count */
    ASSERT_NO_PARSE("1e1000000001");          /* scale beyond -1e9 */
    ASSERT_NO_PARSE("0.01e-999999999");       /* scale 2 + 999999999 */
    ASSERT_PARSE("0.1e-999999999", 1, 1000000000);
    ASSERT_NO_PARSE("01");
    ASSERT_NO_PARSE("1.");
    ASSERT_NO_PARSE(".5");
    ASSERT_NO_PARSE("+1");
    ASSERT_NO_PARSE("1e");
    ASSERT_NO_PARSE(" 1");
    ASSERT_NO_PARSE("1 ");
    ASSERT_NO_PARSE("1x");
    ASSERT_NO_PARSE("NaN");
    ASSERT_NO_PARSE("\"1\"");
    tyjson_decimal d;
    ASSERT_FALSE(tyjson_decimal_parse(NULL, 1, &d));
    ASSERT_FALSE(tyjson_decimal_parse("1", 1, NULL));
}

TEST(format_plain_and_exponent) {
    ASSERT_FORMAT(1999, 2, "19.99");
    ASSERT_FORMAT(1990, 2, "19.90");
    ASSERT_FORMAT(-1999, 2, "-19.99");
    ASSERT_FORMAT(5, 3, "0.005");
    ASSERT_FORMAT(-5, 3, "-0.005");
    ASSERT_FORMAT(0, 0, "0");
    ASSERT_FORMAT(0, 2, "0.00");
    ASSERT_FORMAT(7, 0, "7");
    ASSERT_FORMAT(15, -2, "15e2");
    ASSERT_FORMAT(5, 24, "0.000000000000000000000005");
    ASSERT_FORMAT(5, 25, "5e-25");
    ASSERT_FORMAT(INT64_MIN, 0, "-9223372036854775808");
    ASSERT_FORMAT(INT64_MIN, 24, "-0.000009223372036854775808");
    ASSERT_FORMAT(INT64_MIN, -1000000000, "-9223372036854775808e1000000000");
    ASSERT_FORMAT(INT64_MAX, 1000000000, "9223372036854775807e-1000000000");
    tyjson_decimal bad = D(1, 1000000001);
    char b[TYJSON_DECIMAL_MAX];
    ASSERT_EQ_UINT(tyjson_decimal_format(&bad, b), 0);
    ASSERT_EQ_UINT(tyjson_decimal_format(NULL, b), 0);
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rng(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

TEST(format_then_parse_is_exact) {
    for (int i = 0; i < 200000; i++) {
        uint64_t r = rng();
        int64_t coef;
        switch (r & 3) {
        case 0: coef = (int64_t)(rng() % 100000) - 50000; break;
        case 1: coef = (int64_t)rng(); break;
        case 2: coef = (r & 4) ? INT64_MIN : INT64_MAX; break;
        default: coef = (int64_t)(rng() >> (rng() % 64)); break;
        }
        int32_t scale;
        switch ((r >> 8) & 3) {
        case 0: scale = (int32_t)(rng() % 40) - 8; break;
        case 1: scale = (int32_t)(rng() % 2000000001u) - 1000000000; break;
        case 2: scale = (r & 16) ? 1000000000 : -1000000000; break;
        default: scale = (int32_t)(rng() % 5); break;
        }
        tyjson_decimal d = D(coef, scale), back;
        char b[TYJSON_DECIMAL_MAX];
        size_t n = tyjson_decimal_format(&d, b);
        ASSERT_TRUE(n > 0 && n <= TYJSON_DECIMAL_MAX);
        if (!tyjson_decimal_parse(b, n, &back)) TEST_FAIL("'%.*s' not parsed", (int)n, b);
        ASSERT_EQ_INT(back.coef, coef);
        ASSERT_EQ_INT(back.scale, scale);
        /* the text is a JSON number the DOM reads */
        tyjson_doc *doc = tyjson_read(b, n, 0);
        if (scale >= -308 && scale <= 308 && !doc) TEST_FAIL("'%.*s' not JSON", (int)n, b);
        tyjson_doc_free(doc);
    }
}

/* ----------------------------------------------------------------------------
 * The DECIMAL kind
 * ------------------------------------------------------------------------- */
typedef struct order {
    tyjson_decimal price;
    tyjson_decimal fee;      /* written as a string */
    tyjson_decimal discount; /* nullable, default 0.00 */
    tyjson_decimal *lots;
    size_t n_lots;
} order;

static const tyjson_field order_fields[] = {
    TYJSON_FIELD_DECIMAL(order, price, "price", TYJSON_FLAGS(TYJSON_F_REQUIRED)),
    TYJSON_FIELD_DECIMAL(order, fee, "fee", TYJSON_FLAGS(TYJSON_F_DECIMAL_STRING)),
    TYJSON_FIELD_DECIMAL(order, discount, "discount", TYJSON_FLAGS(TYJSON_F_NULLABLE),
                         TYJSON_DEFAULT_S("0.00")),
    TYJSON_FIELD_DYN(order, lots, "lots", n_lots, TYJSON_K_DECIMAL),
};
static tyjson_struct order_type = TYJSON_STRUCT(order, order_fields, 0);

static tyjson_status decode_order(const char *json, order *o, tyjson_arena *a, tyjson_error *e) {
    return tyjson_decode(&order_type, o, json, strlen(json), a, NULL, e);
}

TEST(decode_numbers_and_strings) {
    tyjson_arena a;
    tyjson_arena_init(&a, NULL);
    tyjson_error e;
    order o;
    ASSERT_EQ_INT(decode_order("{\"price\":19.99,\"fee\":\"0.50\",\"lots\":[1,\"2.5\",3e2]}",
                               &o, &a, &e), TYJSON_OK);
    ASSERT_EQ_INT(o.price.coef, 1999);
    ASSERT_EQ_INT(o.price.scale, 2);
    ASSERT_EQ_INT(o.fee.coef, 50);
    ASSERT_EQ_INT(o.fee.scale, 2);
    ASSERT_EQ_INT(o.discount.coef, 0); /* the default, 0.00 */
    ASSERT_EQ_INT(o.discount.scale, 2);
    ASSERT_EQ_UINT(o.n_lots, 3);
    ASSERT_EQ_INT(o.lots[0].coef, 1);
    ASSERT_EQ_INT(o.lots[1].coef, 25);
    ASSERT_EQ_INT(o.lots[1].scale, 1);
    ASSERT_EQ_INT(o.lots[2].coef, 3);
    ASSERT_EQ_INT(o.lots[2].scale, -2);
    /* null with NULLABLE is the default; an escaped digit in a string still counts */
    ASSERT_EQ_INT(decode_order("{\"price\":\"-1\\u0030\",\"discount\":null}", &o, &a, &e),
                  TYJSON_OK);
    ASSERT_EQ_INT(o.price.coef, -10);
    ASSERT_EQ_INT(o.discount.scale, 2);
    tyjson_arena_free(&a);
}

#define ASSERT_DEC_ERR(json, code_, path_, offset_, msg_part)                  \
    do {                                                                       \
        tyjson_arena a__;                                                      \
        tyjson_arena_init(&a__, NULL);                                         \
        tyjson_error e__;                                                      \
        order o__;                                                             \
        ASSERT_EQ_STR(tyjson_status_name(decode_order((json), &o__, &a__, &e__)), \
                      tyjson_status_name(code_));                              \
        ASSERT_EQ_STR(e__.path, (path_));                                      \
        ASSERT_EQ_UINT(e__.offset, (offset_));                                 \
        if (!strstr(e__.msg, (msg_part))) TEST_FAIL("message '%s'", e__.msg);  \
        tyjson_arena_free(&a__);                                               \
    } while (0)

TEST(decode_errors) {
    ASSERT_DEC_ERR("{\"price\":true}", TYJSON_E_TYPE, "$.price", 9,
                   "expected a number or a string holding one for decimal field, found a boolean");
    ASSERT_DEC_ERR("{\"price\":\"19.9x\"}", TYJSON_E_NUMBER, "$.price", 9, "invalid decimal");
    ASSERT_DEC_ERR("{\"price\":\"\"}", TYJSON_E_NUMBER, "$.price", 9, "invalid decimal");
    ASSERT_DEC_ERR("{\"price\":\" 1\"}", TYJSON_E_NUMBER, "$.price", 9, "invalid decimal");
    ASSERT_DEC_ERR("{\"price\":12345678901234567890}", TYJSON_E_NUMBER_RANGE, "$.price", 9,
                   "decimal out of range");
    ASSERT_DEC_ERR("{\"price\":\"12345678901234567890\"}", TYJSON_E_NUMBER_RANGE, "$.price", 9,
                   "decimal out of range");
    ASSERT_DEC_ERR("{\"price\":01}", TYJSON_E_NUMBER, "$.price", 10, "");
    ASSERT_DEC_ERR("{\"price\":1,\"lots\":[1,null]}", TYJSON_E_TYPE, "$.lots[1]", 21, "found null");
    ASSERT_DEC_ERR("{\"price\":null}", TYJSON_E_TYPE, "$.price", 9, "found null");
    ASSERT_DEC_ERR("{\"fee\":1}", TYJSON_E_MISSING_KEY, "$.price", 8, "");
}

TEST(encode_digit_for_digit) {
    tyjson_decimal lots[3] = {D(1, 0), D(25, 1), D(3, -2)};
    order o = {D(1999, 2), D(50, 2), D(0, 2), lots, 3};
    tyjson_error e;
    size_t n;
    char *t = tyjson_encode(&order_type, &o, NULL, &n, &e);
    ASSERT_NOT_NULL(t);
    ASSERT_EQ_STR(t, "{\"price\":19.99,\"fee\":\"0.50\",\"discount\":0.00,\"lots\":[1,2.5,3e2]}");
    /* and back: the same struct */
    tyjson_arena a;
    tyjson_arena_init(&a, NULL);
    order back;
    ASSERT_EQ_INT(decode_order(t, &back, &a, &e), TYJSON_OK);
    ASSERT_EQ_INT(back.price.coef, 1999);
    ASSERT_EQ_INT(back.fee.scale, 2);
    ASSERT_EQ_INT(back.lots[2].coef, 3);
    ASSERT_EQ_INT(back.lots[2].scale, -2);
    free(t);
    tyjson_arena_free(&a);
    /* a scale no text holds is refused, with the member's path */
    o.price.scale = 2000000000;
    ASSERT_NULL(tyjson_encode(&order_type, &o, NULL, &n, &e));
    ASSERT_EQ_STR(tyjson_status_name(e.code), "E_NUMBER_RANGE");
    ASSERT_EQ_STR(e.path, "$.price");
}

typedef struct maybe_price {
    tyjson_decimal p;
} maybe_price;
static const tyjson_field maybe_price_fields[] = {
    TYJSON_FIELD_DECIMAL(maybe_price, p, "p", TYJSON_FLAGS(TYJSON_F_OMIT_EMPTY)),
};
static tyjson_struct maybe_price_type = TYJSON_STRUCT(maybe_price, maybe_price_fields, 0);

TEST(omit_empty_is_zero_with_scale_zero) {
    maybe_price m = {D(0, 0)};
    char *t = tyjson_encode(&maybe_price_type, &m, NULL, NULL, NULL);
    ASSERT_EQ_STR(t, "{}");
    free(t);
    m.p = D(0, 2); /* 0.00 is a value: it keeps its scale */
    t = tyjson_encode(&maybe_price_type, &m, NULL, NULL, NULL);
    ASSERT_EQ_STR(t, "{\"p\":0.00}");
    free(t);
}

typedef struct bad_default {
    tyjson_decimal p;
} bad_default;
static const tyjson_field bad_default_fields[] = {
    TYJSON_FIELD_DECIMAL(bad_default, p, "p", TYJSON_DEFAULT_S("1.2.3")),
};
static tyjson_struct bad_default_type = TYJSON_STRUCT(bad_default, bad_default_fields, 0);

TEST(prepare_refuses_a_bad_default) {
    tyjson_error e;
    ASSERT_EQ_INT(tyjson_struct_prepare(&bad_default_type, &e), TYJSON_E_INVALID_ARG);
    if (!strstr(e.msg, "default is not a decimal number")) TEST_FAIL("message '%s'", e.msg);
}

int main(int argc, char **argv) { return test_main(argc, argv); }
