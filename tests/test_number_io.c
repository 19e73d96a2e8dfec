/* test_number_io.c - one number on its own: tyjson_read_number gives what
 * the parser gives for the same text as a document, tyjson_write_number
 * what the writer writes for it, errors with their codes and offsets, and
 * the round trip over random doubles and integers. */
#include "test.h"
#include "tyjson.h"

#include <math.h>

static const char *const numbers[] = {
    "0", "-0", "7", "-7", "18446744073709551615", "-9223372036854775808", "9223372036854775808",
    "0.1", "-2.5e-3", "1E10", "1e-400", "1.7976931348623157e308",
    "5e-324", "3.14159",
};

TEST(read_matches_the_parser) {
    for (size_t i = 0; i < sizeof(numbers) / sizeof(numbers[0]); i++) {
        const char *t = numbers[i];
        tyjson_val v;
        tyjson_error e;
        ASSERT_EQ_UINT(tyjson_read_number(t, strlen(t), 0, &v, &e), strlen(t));
        ASSERT_EQ_INT(e.code, TYJSON_OK);
        tyjson_doc *doc = tyjson_read(t, strlen(t), 0);
        ASSERT_NOT_NULL(doc);
        const tyjson_val *r = tyjson_doc_get_root(doc);
        ASSERT_EQ_UINT(v.tag, r->tag);
        ASSERT_EQ_UINT(v.uni.u64, r->uni.u64); /* the bits of every kind */
        /* and the writer's text */
        char buf[TYJSON_NUMBER_MAX + 1];
        size_t n = tyjson_write_number(&v, 0, buf, sizeof(buf));
        size_t wl;
        char *w = tyjson_val_write_opts(r, NULL, &wl, NULL);
        ASSERT_EQ_UINT(n, wl);
        ASSERT_EQ_STR(buf, w);
        free(w);
        tyjson_doc_free(doc);
    }
}

TEST(read_stops_after_the_number) {
    tyjson_val v;
    ASSERT_EQ_UINT(tyjson_read_number("12px", 4, 0, &v, NULL), 2);
    ASSERT_EQ_UINT(tyjson_get_uint(&v), 12);
    ASSERT_EQ_UINT(tyjson_read_number("-1.5,2", 6, 0, &v, NULL), 4);
    ASSERT_TRUE(tyjson_get_real(&v) == -1.5);
    /* only len bytes are read */
    ASSERT_EQ_UINT(tyjson_read_number("123", 2, 0, &v, NULL), 2);
    ASSERT_EQ_UINT(tyjson_get_uint(&v), 12);
}

TEST(big_numbers_as_raw_point_into_the_text) {
    const char *t = "123456789012345678901234567890 rest";
    tyjson_val v;
    tyjson_error e;
    ASSERT_EQ_UINT(tyjson_read_number(t, strlen(t), 0, &v, &e), 0);
    ASSERT_EQ_INT(e.code, TYJSON_E_NUMBER_RANGE);
    ASSERT_EQ_UINT(tyjson_read_number(t, strlen(t), TYJSON_READ_BIGNUM_AS_RAW, &v, &e), 30);
    ASSERT_TRUE(tyjson_is_raw(&v));
    ASSERT_TRUE(tyjson_get_str(&v) == t && tyjson_get_len(&v) == 30);
    char buf[64];
    ASSERT_EQ_UINT(tyjson_write_number(&v, 0, buf, sizeof(buf)), 30);
    ASSERT_EQ_STR(buf, "123456789012345678901234567890");
    /* too small: the length, nothing written */
    memset(buf, 'x', sizeof(buf));
    ASSERT_EQ_UINT(tyjson_write_number(&v, 0, buf, 30), 30);
    ASSERT_EQ_INT(buf[0], 'x');
}

TEST(inf_nan_by_flag) {
    tyjson_val v;
    tyjson_error e;
    ASSERT_EQ_UINT(tyjson_read_number("NaN", 3, TYJSON_READ_ALLOW_INF_NAN, &v, &e), 3);
    ASSERT_TRUE(isnan(tyjson_get_real(&v)));
    char buf[16];
    ASSERT_EQ_UINT(tyjson_write_number(&v, 0, buf, sizeof(buf)), 0);
    ASSERT_EQ_UINT(tyjson_write_number(&v, TYJSON_WRITE_ALLOW_INF_NAN, buf, sizeof(buf)), 3);
    ASSERT_EQ_STR(buf, "NaN");
    ASSERT_EQ_UINT(tyjson_read_number("-Infinity", 9, TYJSON_READ_ALLOW_INF_NAN, &v, &e), 9);
    ASSERT_EQ_UINT(tyjson_write_number(&v, TYJSON_WRITE_ALLOW_INF_NAN, buf, sizeof(buf)), 9);
    ASSERT_EQ_STR(buf, "-Infinity");
    ASSERT_EQ_UINT(tyjson_read_number("Nan", 3, TYJSON_READ_ALLOW_INF_NAN, &v, &e), 0);
    ASSERT_EQ_INT(e.code, TYJSON_E_LITERAL);
    ASSERT_EQ_UINT(tyjson_read_number("NaN", 3, 0, &v, &e), 0);
    ASSERT_EQ_INT(e.code, TYJSON_E_UNEXPECTED_CHAR);
}

#define ASSERT_READ_ERR(text, code_, offset_)                                  \
    do {                                                                       \
        tyjson_val v__;                                                        \
        v__.tag = 12345;                                                       \
        tyjson_error e__;                                                      \
        ASSERT_EQ_UINT(tyjson_read_number((text), strlen(text), 0, &v__, &e__), 0); \
        ASSERT_EQ_STR(tyjson_status_name(e__.code), tyjson_status_name(code_)); \
        ASSERT_EQ_UINT(e__.offset, (offset_));                                 \
        ASSERT_EQ_UINT(e__.line, 1);                                           \
        ASSERT_EQ_UINT(e__.column, (offset_) + 1);                             \
        ASSERT_EQ_UINT(v__.tag, 12345); /* untouched */                        \
    } while (0)

TEST(read_errors) {
    ASSERT_READ_ERR("x", TYJSON_E_UNEXPECTED_CHAR, 0);
    ASSERT_READ_ERR(" 1", TYJSON_E_UNEXPECTED_CHAR, 0);
    ASSERT_READ_ERR("+1", TYJSON_E_UNEXPECTED_CHAR, 0);
    ASSERT_READ_ERR("1.", TYJSON_E_TRUNCATED, 2);
    ASSERT_READ_ERR("-", TYJSON_E_TRUNCATED, 1);
    ASSERT_READ_ERR("1.x", TYJSON_E_NUMBER, 2);
    ASSERT_READ_ERR("-x", TYJSON_E_NUMBER, 1);
    ASSERT_READ_ERR("1e400", TYJSON_E_NUMBER_RANGE, 0);
    tyjson_val v;
    tyjson_error e;
    ASSERT_EQ_UINT(tyjson_read_number("", 0, 0, &v, &e), 0);
    ASSERT_EQ_INT(e.code, TYJSON_E_EMPTY);
    ASSERT_EQ_UINT(tyjson_read_number(NULL, 0, 0, &v, &e), 0);
    ASSERT_EQ_INT(e.code, TYJSON_E_EMPTY);
    ASSERT_EQ_UINT(tyjson_read_number(NULL, 1, 0, &v, &e), 0);
    ASSERT_EQ_INT(e.code, TYJSON_E_INVALID_ARG);
    ASSERT_EQ_UINT(tyjson_read_number("1", 1, 0, NULL, &e), 0);
    ASSERT_EQ_INT(e.code, TYJSON_E_INVALID_ARG);
}

TEST(write_refuses_what_is_not_a_number) {
    tyjson_doc *doc = tyjson_read("[\"1\",true,null]", 15, 0);
    char buf[8];
    for (size_t i = 0; i < 3; i++)
        ASSERT_EQ_UINT(tyjson_write_number(tyjson_arr_get(tyjson_doc_get_root(doc), i), 0, buf,
                                           sizeof(buf)), 0);
    ASSERT_EQ_UINT(tyjson_write_number(NULL, 0, buf, sizeof(buf)), 0);
    tyjson_val v;
    tyjson_read_number("12", 2, 0, &v, NULL);
    ASSERT_EQ_UINT(tyjson_write_number(&v, 0, NULL, 0), 2); /* measuring */
    ASSERT_EQ_UINT(tyjson_write_number(&v, 0, NULL, 4), 0);
    tyjson_doc_free(doc);
}

static uint64_t rng_state = 88172645463325252ull;
static uint64_t rng(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

TEST(round_trip_random) {
    for (int i = 0; i < 100000; i++) {
        tyjson_val v, back;
        uint64_t r = rng();
        switch (i % 3) {
        case 0: {
            double f;
            memcpy(&f, &r, 8);
            if (f - f != 0) continue;
            v.tag = TYJSON_TYPE_NUM | TYJSON_SUBTYPE_REAL;
            v.uni.f64 = f;
            break;
        }
        case 1:
            v.tag = TYJSON_TYPE_NUM | TYJSON_SUBTYPE_UINT;
            v.uni.u64 = r >> (r % 64);
            break;
        default:
            v.tag = TYJSON_TYPE_NUM | TYJSON_SUBTYPE_SINT;
            v.uni.i64 = -(int64_t)(r >> 1) - 1;
            break;
        }
        char buf[TYJSON_NUMBER_MAX + 1];
        size_t n = tyjson_write_number(&v, 0, buf, sizeof(buf));
        ASSERT_TRUE(n > 0 && n <= TYJSON_NUMBER_MAX);
        ASSERT_EQ_UINT(tyjson_read_number(buf, n, 0, &back, NULL), n);
        ASSERT_EQ_UINT(back.tag, v.tag);
        ASSERT_EQ_UINT(back.uni.u64, v.uni.u64);
    }
}

int main(int argc, char **argv) { return test_main(argc, argv); }
