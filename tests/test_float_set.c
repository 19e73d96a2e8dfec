/*
 * test_float_set.c - float values (tyjson_mut_float and kin, tyjson_set_float)
 * written by every writer as the shortest float32 text, and the in-place
 * setters of immutable values (tyjson_set_*).
 */
#include "test.h"
#include "tyjson.h"

#include <float.h>
#include <math.h>

/* The text of a mutable value from the mutable writer, and of its
 * immutable copy from the DOM writer: both must be `want`. */
#define ASSERT_BOTH_WRITE(mv, flags, want)                                     \
    do {                                                                       \
        tyjson_write_options o_ = {(flags), 0, NULL};                          \
        char *m_ = tyjson_mut_val_write_opts((mv), &o_, NULL, NULL);           \
        ASSERT_NOT_NULL(m_);                                                   \
        ASSERT_EQ_STR(m_, (want));                                             \
        free(m_);                                                              \
        tyjson_doc *c_ = tyjson_mut_val_imut_copy((mv), NULL);                 \
        ASSERT_NOT_NULL(c_);                                                   \
        char *i_ = tyjson_write_opts(c_, &o_, NULL, NULL);                     \
        ASSERT_NOT_NULL(i_);                                                   \
        ASSERT_EQ_STR(i_, (want));                                             \
        free(i_);                                                              \
        tyjson_doc_free(c_);                                                   \
    } while (0)

/* Collects the pieces of a callback writer. */
typedef struct sink {
    char buf[512];
    size_t len;
} sink;

static int sink_put(void *ctx, const char *data, size_t len) {
    sink *s = (sink *)ctx;
    if (s->len + len >= sizeof(s->buf)) return 1;
    memcpy(s->buf + s->len, data, len);
    s->len += len;
    s->buf[s->len] = 0;
    return 0;
}

/* ----------------------------------------------------------------------------
 * MARK: - Float values in mutable documents
 * ------------------------------------------------------------------------- */

TEST(mut_float_is_a_marked_real) {
    tyjson_mut_doc *doc = tyjson_mut_doc_new(NULL);
    tyjson_mut_val *f = tyjson_mut_float(doc, 0.1f);
    ASSERT_NOT_NULL(f);
    ASSERT_TRUE(tyjson_mut_is_real(f) && tyjson_mut_is_num(f) && tyjson_mut_is_float(f));
    ASSERT_EQ_INT(tyjson_mut_get_type(f), TYJSON_TYPE_NUM);
    ASSERT_EQ_INT(tyjson_mut_get_subtype(f), TYJSON_SUBTYPE_REAL);
    ASSERT_TRUE(tyjson_mut_get_real(f) == (double)0.1f); /* widened exactly */
    ASSERT_TRUE(tyjson_mut_get_num(f) == (double)0.1f);
    ASSERT_EQ_STR(tyjson_get_type_desc((const tyjson_val *)(const void *)f), "real");
    /* a plain real of the same double is no float and writes every digit */
    tyjson_mut_val *r = tyjson_mut_real(doc, (double)0.1f);
    ASSERT_FALSE(tyjson_mut_is_float(r));
    ASSERT_BOTH_WRITE(f, 0, "0.1");
    ASSERT_BOTH_WRITE(r, 0, "0.10000000149011612");
    /* nothing else is a float */
    ASSERT_FALSE(tyjson_mut_is_float(tyjson_mut_uint(doc, 1)));
    ASSERT_FALSE(tyjson_mut_is_float(tyjson_mut_str(doc, "0.1")));
    ASSERT_FALSE(tyjson_mut_is_float(NULL));
    ASSERT_FALSE(tyjson_is_float(NULL));
    tyjson_mut_doc_free(doc);
}

/* The shortest float32 text of each value (the number core's float writer:
 * always a '.' or an exponent, ECMAScript's plain range). */
TEST(mut_float_texts) {
    static const struct {
        float f;
        const char *want;
    } cases[] = {
        {0.1f, "0.1"},
        {1.5f, "1.5"},
        {-2.75f, "-2.75"},
        {3.14159274f, "3.1415927"},
        {16777216.0f, "16777216.0"},
        {1e38f, "1e38"},
        {-1e38f, "-1e38"},
        {FLT_MAX, "3.4028235e38"},
        {FLT_MIN, "1.1754944e-38"},  /* the smallest normal */
        {1e-45f, "1e-45"},           /* the smallest subnormal, 2^-149 */
        {-5.877472e-39f, "-5.877472e-39"}, /* a subnormal, 2^-127 */
        {0.0f, "0.0"},
        {-0.0f, "-0.0"},
        {1e-7f, "1e-7"},
        {1e21f, "1e21"},
        {123456789.0f, "123456790.0"},
    };
    tyjson_mut_doc *doc = tyjson_mut_doc_new(NULL);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        tyjson_mut_val *v = tyjson_mut_float(doc, cases[i].f);
        ASSERT_NOT_NULL(v);
        ASSERT_BOTH_WRITE(v, 0, cases[i].want);
        ASSERT_BOTH_WRITE(v, TYJSON_WRITE_PRETTY, cases[i].want);
        /* the text reads back to the same float */
        ASSERT_TRUE(strtof(cases[i].want, NULL) == cases[i].f);
        ASSERT_TRUE(signbit(strtof(cases[i].want, NULL)) == signbit(cases[i].f));
    }
    tyjson_mut_doc_free(doc);
}

/* NaN and the infinities follow the write flags, as for doubles. */
TEST(mut_float_nan_inf_follow_flags) {
    tyjson_mut_doc *doc = tyjson_mut_doc_new(NULL);
    tyjson_mut_val *arr = tyjson_mut_arr(doc);
    ASSERT_TRUE(tyjson_mut_arr_add_float(doc, arr, NAN));
    ASSERT_TRUE(tyjson_mut_arr_add_float(doc, arr, INFINITY));
    ASSERT_TRUE(tyjson_mut_arr_add_float(doc, arr, -INFINITY));
    ASSERT_TRUE(tyjson_mut_arr_add_float(doc, arr, 0.25f));
    tyjson_error err;
    ASSERT_NULL(tyjson_mut_val_write_opts(arr, NULL, NULL, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_NAN_INF);
    tyjson_doc *c = tyjson_mut_val_imut_copy(arr, NULL);
    ASSERT_NULL(tyjson_write_opts(c, NULL, NULL, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_NAN_INF);
    tyjson_doc_free(c);
    ASSERT_BOTH_WRITE(arr, TYJSON_WRITE_ALLOW_INF_NAN, "[NaN,Infinity,-Infinity,0.25]");
    ASSERT_BOTH_WRITE(arr, TYJSON_WRITE_INF_NAN_AS_NULL, "[null,null,null,0.25]");
    tyjson_mut_doc_free(doc);
}

/* The number options still apply: FP_FIXED(n) before the float form (as
 * it comes before TYJSON_WRITE_FP_TO_FLOAT), FP_TO_FLOAT changes nothing. */
TEST(mut_float_with_number_options) {
    tyjson_mut_doc *doc = tyjson_mut_doc_new(NULL);
    tyjson_mut_val *arr = tyjson_mut_arr(doc);
    ASSERT_TRUE(tyjson_mut_arr_add_float(doc, arr, 0.1f));
    ASSERT_TRUE(tyjson_mut_arr_add_real(doc, arr, 0.1));
    ASSERT_TRUE(tyjson_mut_arr_add_float(doc, arr, 2.5f));
    ASSERT_BOTH_WRITE(arr, 0, "[0.1,0.1,2.5]");
    ASSERT_BOTH_WRITE(arr, TYJSON_WRITE_FP_TO_FLOAT, "[0.1,0.1,2.5]");
    ASSERT_BOTH_WRITE(arr, TYJSON_WRITE_FP_FIXED(3), "[0.100,0.100,2.500]");
    ASSERT_BOTH_WRITE(arr, TYJSON_WRITE_FP_FIXED(3) | TYJSON_WRITE_FP_TO_FLOAT, "[0.100,0.100,2.500]");
    ASSERT_BOTH_WRITE(arr, TYJSON_WRITE_PRETTY, "[\n  0.1,\n  0.1,\n  2.5\n]");
    /* one float among many doubles: only it is shortened */
    tyjson_mut_val *mix = tyjson_mut_arr(doc);
    ASSERT_TRUE(tyjson_mut_arr_add_real(doc, mix, (double)0.1f));
    ASSERT_TRUE(tyjson_mut_arr_add_float(doc, mix, 0.1f));
    ASSERT_TRUE(tyjson_mut_arr_add_real(doc, mix, 1e300));
    ASSERT_BOTH_WRITE(mix, 0, "[0.10000000149011612,0.1,1e300]");
    tyjson_mut_doc_free(doc);
}

TEST(mut_float_constructors_and_setters) {
    tyjson_mut_doc *doc = tyjson_mut_doc_new(NULL);
    tyjson_mut_val *obj = tyjson_mut_obj(doc);
    ASSERT_TRUE(tyjson_mut_obj_add_float(doc, obj, "f", 0.3f));
    ASSERT_TRUE(tyjson_mut_obj_add_real(doc, obj, "d", 0.3));
    ASSERT_TRUE(tyjson_mut_is_float(tyjson_mut_obj_get(obj, "f")));
    ASSERT_FALSE(tyjson_mut_is_float(tyjson_mut_obj_get(obj, "d")));
    ASSERT_BOTH_WRITE(obj, 0, "{\"f\":0.3,\"d\":0.3}");
    /* refusals: nothing added */
    ASSERT_FALSE(tyjson_mut_obj_add_float(doc, tyjson_mut_arr(doc), "f", 1.0f));
    ASSERT_FALSE(tyjson_mut_arr_add_float(doc, obj, 1.0f));
    ASSERT_EQ_UINT(tyjson_mut_obj_size(obj), 2);

    /* setters: a string becomes a float and back; set_real clears the mark */
    tyjson_mut_val *v = tyjson_mut_str(doc, "x");
    ASSERT_TRUE(tyjson_mut_set_float(v, 1e-3f));
    ASSERT_TRUE(tyjson_mut_is_float(v));
    ASSERT_TRUE(tyjson_mut_get_real(v) == (double)1e-3f);
    ASSERT_BOTH_WRITE(v, 0, "0.001");
    ASSERT_TRUE(tyjson_mut_set_real(v, (double)1e-3f));
    ASSERT_FALSE(tyjson_mut_is_float(v));
    ASSERT_BOTH_WRITE(v, 0, "0.0010000000474974513");
    ASSERT_TRUE(tyjson_mut_set_float(v, 7.0f));
    ASSERT_TRUE(tyjson_mut_set_uint(v, 7));
    ASSERT_FALSE(tyjson_mut_is_float(v));
    ASSERT_BOTH_WRITE(v, 0, "7");
    ASSERT_TRUE(tyjson_mut_set_float(v, 7.0f));
    ASSERT_TRUE(tyjson_mut_set_strn(v, "ab", 2));
    ASSERT_FALSE(tyjson_mut_is_float(v));
    ASSERT_BOTH_WRITE(v, 0, "\"ab\"");
    /* containers are refused and unchanged */
    ASSERT_FALSE(tyjson_mut_set_float(obj, 1.0f));
    ASSERT_TRUE(tyjson_mut_is_obj(obj));
    ASSERT_EQ_UINT(tyjson_mut_obj_size(obj), 2);
    /* a set value keeps its place */
    tyjson_mut_val *arr = tyjson_mut_arr(doc);
    ASSERT_TRUE(tyjson_mut_arr_add_uint(doc, arr, 1));
    ASSERT_TRUE(tyjson_mut_arr_add_uint(doc, arr, 2));
    ASSERT_TRUE(tyjson_mut_arr_add_uint(doc, arr, 3));
    ASSERT_TRUE(tyjson_mut_set_float(tyjson_mut_arr_get(arr, 1), 0.2f));
    ASSERT_BOTH_WRITE(arr, 0, "[1,0.2,3]");
    tyjson_mut_doc_free(doc);
}

/* tyjson_mut_arr_with_float makes float values (it used to make plain reals
 * of the widened doubles, written as 0.10000000149011612). */
TEST(mut_arr_with_float_marks_its_values) {
    tyjson_mut_doc *doc = tyjson_mut_doc_new(NULL);
    static const float vals[] = {0.1f, -1.25f, 3e-5f, FLT_MAX};
    tyjson_mut_val *arr = tyjson_mut_arr_with_float(doc, vals, 4);
    ASSERT_NOT_NULL(arr);
    ASSERT_EQ_UINT(tyjson_mut_arr_size(arr), 4);
    tyjson_mut_arr_iter it = tyjson_mut_arr_iter_with(arr);
    tyjson_mut_val *v;
    size_t i = 0;
    while ((v = tyjson_mut_arr_iter_next(&it))) {
        ASSERT_TRUE(tyjson_mut_is_float(v));
        ASSERT_TRUE(tyjson_mut_get_real(v) == (double)vals[i++]);
    }
    ASSERT_BOTH_WRITE(arr, 0, "[0.1,-1.25,0.00003,3.4028235e38]");
    /* the doubles' constructor stays plain */
    static const double dv[] = {0.1};
    ASSERT_FALSE(tyjson_mut_is_float(tyjson_mut_arr_get_first(tyjson_mut_arr_with_real(doc, dv, 1))));
    tyjson_mut_doc_free(doc);
}

/* The mark survives every copy, and every writer honours it: the buffer,
 * stream and callback sinks, the streaming writer's value calls, and
 * tyjson_write_number. */
TEST(float_mark_in_copies_and_every_writer) {
    tyjson_mut_doc *doc = tyjson_mut_doc_new(NULL);
    tyjson_mut_val *root = tyjson_mut_obj(doc);
    tyjson_mut_doc_set_root(doc, root);
    tyjson_mut_val *arr = tyjson_mut_obj_add_arr(doc, root, "a");
    ASSERT_TRUE(tyjson_mut_arr_add_float(doc, arr, 0.7f));
    ASSERT_TRUE(tyjson_mut_obj_add_float(doc, root, "b", 1e38f));
    const char *want = "{\"a\":[0.7],\"b\":1e38}";

    /* mutable -> mutable, mutable -> immutable -> mutable */
    tyjson_mut_doc *doc2 = tyjson_mut_doc_new(NULL);
    tyjson_mut_val *cp = tyjson_mut_val_mut_copy(doc2, root);
    ASSERT_TRUE(tyjson_mut_is_float(tyjson_mut_obj_get(cp, "b")));
    ASSERT_BOTH_WRITE(cp, 0, want);
    tyjson_doc *idoc = tyjson_mut_doc_imut_copy(doc, NULL);
    ASSERT_NOT_NULL(idoc);
    tyjson_val *iroot = tyjson_doc_get_root(idoc);
    ASSERT_TRUE(tyjson_is_float(tyjson_obj_get(iroot, "b")));
    ASSERT_TRUE(tyjson_is_real(tyjson_obj_get(iroot, "b")));
    ASSERT_TRUE(tyjson_get_real(tyjson_obj_get(iroot, "b")) == (double)1e38f);
    tyjson_mut_doc *back = tyjson_doc_mut_copy(idoc, NULL);
    ASSERT_BOTH_WRITE(tyjson_mut_doc_get_root(back), 0, want);
    tyjson_mut_val *one = tyjson_val_mut_copy(doc2, tyjson_obj_get(iroot, "b"));
    ASSERT_TRUE(tyjson_mut_is_float(one));

    /* the sinks */
    char buf[64];
    ASSERT_EQ_UINT(tyjson_val_write_buf(iroot, buf, sizeof(buf), NULL, NULL), strlen(want));
    ASSERT_EQ_STR(buf, want);
    ASSERT_EQ_UINT(tyjson_mut_val_write_buf(root, buf, sizeof(buf), NULL, NULL), strlen(want));
    ASSERT_EQ_STR(buf, want);
    sink s = {{0}, 0};
    ASSERT_TRUE(tyjson_val_write_cb(sink_put, &s, iroot, NULL, NULL));
    ASSERT_EQ_STR(s.buf, want);
    s.len = 0;
    ASSERT_TRUE(tyjson_mut_val_write_cb(sink_put, &s, root, NULL, NULL));
    ASSERT_EQ_STR(s.buf, want);
    FILE *fp = tmpfile();
    ASSERT_NOT_NULL(fp);
    ASSERT_TRUE(tyjson_mut_val_write_fp(fp, root, NULL, NULL));
    ASSERT_TRUE(tyjson_val_write_fp(fp, iroot, NULL, NULL));
    rewind(fp);
    char fbuf[128] = {0};
    ASSERT_EQ_UINT(fread(fbuf, 1, sizeof(fbuf) - 1, fp), 2 * strlen(want));
    fclose(fp);
    ASSERT_TRUE(strncmp(fbuf, want, strlen(want)) == 0 && strcmp(fbuf + strlen(want), want) == 0);
    char *t = tyjson_mut_write(doc, 0, NULL);
    ASSERT_EQ_STR(t, want);
    free(t);
    t = tyjson_write(idoc, 0, NULL);
    ASSERT_EQ_STR(t, want);
    free(t);

    /* the streaming writer's DOM and mutable value calls */
    tyjson_writer *w = tyjson_writer_new(NULL);
    ASSERT_NOT_NULL(w);
    ASSERT_EQ_INT(tyjson_writer_begin_array(w), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_val(w, iroot), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_mut_val(w, root), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_val(w, tyjson_obj_get(iroot, "b")), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_end_array(w), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_finish(w, NULL), TYJSON_OK);
    ASSERT_EQ_STR(tyjson_writer_text(w), "[{\"a\":[0.7],\"b\":1e38},{\"a\":[0.7],\"b\":1e38},1e38]");
    tyjson_writer_free(w);

    /* one number on its own */
    char nb[TYJSON_NUMBER_MAX + 1];
    ASSERT_EQ_UINT(tyjson_write_number(tyjson_obj_get(iroot, "b"), 0, nb, sizeof(nb)), 4);
    ASSERT_EQ_STR(nb, "1e38");
    ASSERT_EQ_UINT(tyjson_write_number(tyjson_arr_get(tyjson_obj_get(iroot, "a"), 0),
                                       TYJSON_WRITE_FP_FIXED(2), nb, sizeof(nb)), 4);
    ASSERT_EQ_STR(nb, "0.70");
    tyjson_val nan_f;
    ASSERT_EQ_UINT(tyjson_read_number("1", 1, 0, &nan_f, NULL), 1);
    ASSERT_TRUE(tyjson_set_float(&nan_f, NAN));
    ASSERT_EQ_UINT(tyjson_write_number(&nan_f, 0, nb, sizeof(nb)), 0);
    ASSERT_EQ_UINT(tyjson_write_number(&nan_f, TYJSON_WRITE_ALLOW_INF_NAN, nb, sizeof(nb)), 3);
    ASSERT_EQ_STR(nb, "NaN");

    tyjson_doc_free(idoc);
    tyjson_mut_doc_free(back);
    tyjson_mut_doc_free(doc2);
    tyjson_mut_doc_free(doc);
}

/* Written, read back and narrowed, every float is itself: random bit
 * patterns of every exponent (NaN and the infinities left out). */
TEST(float_round_trip_random) {
    tyjson_mut_doc *doc = tyjson_mut_doc_new(NULL);
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 20000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        uint32_t bits = (uint32_t)(x >> 20);
        float f;
        memcpy(&f, &bits, 4);
        if (!isfinite(f)) continue;
        tyjson_mut_val *v = tyjson_mut_float(doc, f);
        char buf[64];
        size_t n = tyjson_mut_val_write_buf(v, buf, sizeof(buf), NULL, NULL);
        ASSERT_TRUE(n > 0 && n < sizeof(buf));
        ASSERT_TRUE(strtof(buf, NULL) == f);
        /* the library's reader gives the double whose float is f */
        tyjson_doc *d = tyjson_read(buf, n, 0);
        ASSERT_NOT_NULL(d);
        ASSERT_TRUE(tyjson_is_real(tyjson_doc_get_root(d)));
        ASSERT_TRUE((float)tyjson_get_real(tyjson_doc_get_root(d)) == f);
        tyjson_doc_free(d);
    }
    tyjson_mut_doc_free(doc);
}

/* The mark is how a number is written, not what it is: equality and diff
 * compare the numbers (docs/api.md). */
TEST(float_mark_and_equality) {
    tyjson_mut_doc *doc = tyjson_mut_doc_new(NULL);
    tyjson_mut_val *f = tyjson_mut_float(doc, 0.5f), *r = tyjson_mut_real(doc, 0.5);
    ASSERT_TRUE(tyjson_mut_equals(f, r));
    /* 0.1f is not the double 0.1 */
    ASSERT_FALSE(tyjson_mut_equals(tyjson_mut_float(doc, 0.1f), tyjson_mut_real(doc, 0.1)));
    ASSERT_TRUE(tyjson_mut_equals(tyjson_mut_float(doc, 0.1f), tyjson_mut_real(doc, (double)0.1f)));
    /* a real never equals an integer, a float neither */
    ASSERT_FALSE(tyjson_mut_equals(tyjson_mut_float(doc, 1.0f), tyjson_mut_uint(doc, 1)));
    bool eq = false;
    ASSERT_EQ_INT(tyjson_mut_equals_ex(f, r, NULL, &eq), TYJSON_OK);
    ASSERT_TRUE(eq);
    tyjson_doc *a = tyjson_read("[0.5,2]", 7, 0);
    tyjson_doc *b = tyjson_read("[0.5,2]", 7, 0);
    ASSERT_TRUE(tyjson_set_float(tyjson_arr_get(tyjson_doc_get_root(b), 0), 0.5f));
    ASSERT_TRUE(tyjson_equals(tyjson_doc_get_root(a), tyjson_doc_get_root(b)));
    tyjson_mut_doc *p = tyjson_diff(tyjson_doc_get_root(a), tyjson_doc_get_root(b), NULL, NULL);
    ASSERT_NOT_NULL(p);
    char *t = tyjson_mut_write(p, 0, NULL);
    ASSERT_EQ_STR(t, "[]");
    free(t);
    tyjson_mut_doc_free(p);
    /* a value that differs is replaced by a copy that keeps its mark */
    ASSERT_TRUE(tyjson_set_float(tyjson_arr_get(tyjson_doc_get_root(b), 1), 0.1f));
    p = tyjson_diff(tyjson_doc_get_root(a), tyjson_doc_get_root(b), NULL, NULL);
    ASSERT_NOT_NULL(p);
    t = tyjson_mut_write(p, 0, NULL);
    ASSERT_EQ_STR(t, "[{\"op\":\"replace\",\"path\":\"/1\",\"value\":0.1}]");
    free(t);
    tyjson_mut_doc *ma = tyjson_doc_mut_copy(a, NULL);
    ASSERT_EQ_INT(tyjson_mut_doc_patch_mut(ma, tyjson_mut_doc_get_root(p), NULL), TYJSON_OK);
    t = tyjson_mut_write(ma, 0, NULL);
    ASSERT_EQ_STR(t, "[0.5,0.1]");
    free(t);
    tyjson_mut_doc_free(ma);
    tyjson_mut_doc_free(p);
    tyjson_doc_free(a);
    tyjson_doc_free(b);
    tyjson_mut_doc_free(doc);
}

/* ----------------------------------------------------------------------------
 * MARK: - Setters on immutable values
 * ------------------------------------------------------------------------- */

static const char SRC[] = "{\"n\":null,\"t\":true,\"u\":7,\"s\":-3,\"r\":1.5,\"str\":\"abc\","
                          "\"a\":[1,{\"k\":2}],\"o\":{}}";

static tyjson_doc *parse_src(void) {
    tyjson_doc *d = tyjson_read(SRC, sizeof(SRC) - 1, 0);
    if (!d) TEST_FAIL("parse");
    return d;
}

static void expect_doc(const tyjson_doc *d, const char *want) {
    char *t = tyjson_write(d, 0, NULL);
    if (!t || strcmp(t, want) != 0) {
        free(t);
        TEST_FAIL("wrote %s", t ? t : "(null)");
    }
    free(t);
    /* the same text reads to an equal document */
    tyjson_doc *w = tyjson_read(want, strlen(want), 0);
    if (!w || !tyjson_equals(tyjson_doc_get_root(d), tyjson_doc_get_root(w))) {
        tyjson_doc_free(w);
        TEST_FAIL("not equal to %s", want);
    }
    tyjson_doc_free(w);
}

/* Every scalar kind set to every other scalar kind, in place. */
TEST(imm_setters_every_kind) {
    static const char *const keys[] = {"n", "t", "u", "s", "r", "str"};
    for (size_t i = 0; i < 6; i++) {
        for (int kind = 0; kind < 9; kind++) {
            tyjson_doc *d = parse_src();
            tyjson_val *root = tyjson_doc_get_root(d);
            tyjson_val *v = tyjson_obj_get(root, keys[i]);
            ASSERT_NOT_NULL(v);
            const char *text = NULL;
            switch (kind) {
            case 0:
                ASSERT_TRUE(tyjson_set_null(v));
                ASSERT_TRUE(tyjson_is_null(v));
                text = "null";
                break;
            case 1:
                ASSERT_TRUE(tyjson_set_bool(v, false));
                ASSERT_TRUE(tyjson_is_false(v) && !tyjson_get_bool(v));
                text = "false";
                break;
            case 2:
                ASSERT_TRUE(tyjson_set_uint(v, UINT64_MAX));
                ASSERT_TRUE(tyjson_is_uint(v) && tyjson_get_uint(v) == UINT64_MAX);
                text = "18446744073709551615";
                break;
            case 3:
                ASSERT_TRUE(tyjson_set_sint(v, INT64_MIN));
                ASSERT_TRUE(tyjson_is_sint(v) && tyjson_get_sint(v) == INT64_MIN);
                text = "-9223372036854775808";
                break;
            case 4:
                ASSERT_TRUE(tyjson_set_int(v, 42)); /* non-negative: UINT */
                ASSERT_TRUE(tyjson_is_uint(v) && tyjson_get_int(v) == 42);
                text = "42";
                break;
            case 5:
                ASSERT_TRUE(tyjson_set_real(v, 0.1));
                ASSERT_TRUE(tyjson_is_real(v) && !tyjson_is_float(v) && tyjson_get_real(v) == 0.1);
                text = "0.1";
                break;
            case 6:
                ASSERT_TRUE(tyjson_set_float(v, 2.2f));
                ASSERT_TRUE(tyjson_is_real(v) && tyjson_is_float(v));
                ASSERT_TRUE(tyjson_get_real(v) == (double)2.2f);
                text = "2.2";
                break;
            case 7:
                ASSERT_TRUE(tyjson_set_str(v, "hi"));
                ASSERT_TRUE(tyjson_is_str(v) && tyjson_equals_str(v, "hi"));
                ASSERT_EQ_UINT(tyjson_get_len(v), 2);
                text = "\"hi\"";
                break;
            default:
                ASSERT_TRUE(tyjson_set_strn(v, "xyz!", 3)); /* not NUL-terminated at 3 */
                ASSERT_TRUE(tyjson_equals_strn(v, "xyz", 3));
                text = "\"xyz\"";
                break;
            }
            /* the document around it is unchanged and walks as before */
            char want[256];
            char *t = tyjson_write(d, 0, NULL);
            ASSERT_NOT_NULL(t);
            snprintf(want, sizeof(want), "\"%s\":%s", keys[i], text);
            ASSERT_TRUE(strstr(t, want) != NULL);
            ASSERT_TRUE(strstr(t, "\"a\":[1,{\"k\":2}],\"o\":{}}") != NULL);
            ASSERT_EQ_UINT(tyjson_obj_size(root), 8);
            ASSERT_EQ_UINT(tyjson_doc_get_val_count(d), 21);
            free(t);
            tyjson_doc_free(d);
        }
    }
}

TEST(imm_setters_refuse_containers_and_null) {
    tyjson_doc *d = parse_src();
    tyjson_val *root = tyjson_doc_get_root(d);
    tyjson_val *a = tyjson_obj_get(root, "a"), *o = tyjson_obj_get(root, "o");
    tyjson_val *ctn[] = {root, a, o, tyjson_arr_get(a, 1)};
    for (size_t i = 0; i < 4; i++) {
        ASSERT_FALSE(tyjson_set_null(ctn[i]));
        ASSERT_FALSE(tyjson_set_bool(ctn[i], true));
        ASSERT_FALSE(tyjson_set_uint(ctn[i], 1));
        ASSERT_FALSE(tyjson_set_sint(ctn[i], -1));
        ASSERT_FALSE(tyjson_set_int(ctn[i], -1));
        ASSERT_FALSE(tyjson_set_real(ctn[i], 1.0));
        ASSERT_FALSE(tyjson_set_float(ctn[i], 1.0f));
        ASSERT_FALSE(tyjson_set_str(ctn[i], "x"));
        ASSERT_FALSE(tyjson_set_strn(ctn[i], "x", 1));
    }
    /* a NULL string is refused and changes nothing */
    tyjson_val *s = tyjson_obj_get(root, "str");
    ASSERT_FALSE(tyjson_set_str(s, NULL));
    ASSERT_FALSE(tyjson_set_strn(s, NULL, 1));
    ASSERT_TRUE(tyjson_equals_str(s, "abc"));
    /* NULL with length 0 is the empty string */
    tyjson_val *u = tyjson_obj_get(root, "u");
    ASSERT_TRUE(tyjson_set_strn(u, NULL, 0));
    ASSERT_TRUE(tyjson_equals_str(u, ""));
    expect_doc(d, "{\"n\":null,\"t\":true,\"u\":\"\",\"s\":-3,\"r\":1.5,\"str\":\"abc\","
                  "\"a\":[1,{\"k\":2}],\"o\":{}}");
    tyjson_doc_free(d);
}

/* Parsed strings that need no escaping are copied verbatim by the writer;
 * a string set in their place is escaped and checked like any other. */
TEST(imm_set_str_is_escaped_and_checked) {
    tyjson_doc *d = parse_src();
    tyjson_val *root = tyjson_doc_get_root(d);
    tyjson_val *s = tyjson_obj_get(root, "str");
    ASSERT_TRUE(tyjson_set_str(s, "a\"b\n\\/"));
    char *t = tyjson_val_write_opts(s, NULL, NULL, NULL);
    ASSERT_EQ_STR(t, "\"a\\\"b\\n\\\\/\"");
    free(t);
    tyjson_write_options eo = {TYJSON_WRITE_ESCAPE_SLASH, 0, NULL};
    t = tyjson_val_write_opts(s, &eo, NULL, NULL);
    ASSERT_EQ_STR(t, "\"a\\\"b\\n\\\\\\/\"");
    free(t);
    /* U+0000 inside, by length */
    ASSERT_TRUE(tyjson_set_strn(s, "a\0b", 3));
    t = tyjson_val_write_opts(s, NULL, NULL, NULL);
    ASSERT_EQ_STR(t, "\"a\\u0000b\"");
    free(t);
    /* invalid UTF-8: refused by the writer unless replaced */
    ASSERT_TRUE(tyjson_set_strn(s, "\xff", 1));
    tyjson_error err;
    ASSERT_NULL(tyjson_write_opts(d, NULL, NULL, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_UTF8);
    tyjson_write_options ro = {TYJSON_WRITE_REPLACE_INVALID_UTF8, 0, NULL};
    t = tyjson_val_write_opts(s, &ro, NULL, NULL);
    ASSERT_EQ_STR(t, "\"\xef\xbf\xbd\"");
    free(t);
    tyjson_doc_free(d);
}

/* A key may be renamed with the string setters; lookups see the new name. */
TEST(imm_set_str_on_a_key) {
    tyjson_doc *d = parse_src();
    tyjson_val *root = tyjson_doc_get_root(d);
    tyjson_obj_iter it = tyjson_obj_iter_with(root);
    tyjson_val *key = tyjson_obj_iter_next(&it);
    ASSERT_TRUE(tyjson_equals_str(key, "n"));
    ASSERT_TRUE(tyjson_set_str(key, "renamed"));
    ASSERT_NULL(tyjson_obj_get(root, "n"));
    ASSERT_TRUE(tyjson_is_null(tyjson_obj_get(root, "renamed")));
    ASSERT_TRUE(tyjson_ptr_get(root, "/renamed") == tyjson_obj_get(root, "renamed"));
    expect_doc(d, "{\"renamed\":null,\"t\":true,\"u\":7,\"s\":-3,\"r\":1.5,\"str\":\"abc\","
                  "\"a\":[1,{\"k\":2}],\"o\":{}}");
    tyjson_doc_free(d);
}

/* Values set in place in arrays and nested objects, then every reader of
 * the document: iteration, copies, pretty writer, NaN under the flags. */
TEST(imm_setters_nested_and_copies) {
    tyjson_doc *d = parse_src();
    tyjson_val *root = tyjson_doc_get_root(d);
    tyjson_val *a = tyjson_obj_get(root, "a");
    ASSERT_TRUE(tyjson_set_float(tyjson_arr_get(a, 0), 0.1f));
    ASSERT_TRUE(tyjson_set_str(tyjson_obj_get(tyjson_arr_get(a, 1), "k"), "v"));
    ASSERT_TRUE(tyjson_set_real(tyjson_obj_get(root, "r"), NAN));
    tyjson_error err;
    ASSERT_NULL(tyjson_write_opts(d, NULL, NULL, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_NAN_INF);
    tyjson_write_options o = {TYJSON_WRITE_INF_NAN_AS_NULL, 0, NULL};
    char *t = tyjson_write_opts(d, &o, NULL, NULL);
    ASSERT_EQ_STR(t, "{\"n\":null,\"t\":true,\"u\":7,\"s\":-3,\"r\":null,\"str\":\"abc\","
                     "\"a\":[0.1,{\"k\":\"v\"}],\"o\":{}}");
    free(t);
    ASSERT_TRUE(tyjson_set_sint(tyjson_obj_get(root, "r"), -1));
    o.flags = TYJSON_WRITE_PRETTY;
    t = tyjson_val_write_opts(a, &o, NULL, NULL);
    ASSERT_EQ_STR(t, "[\n  0.1,\n  {\n    \"k\": \"v\"\n  }\n]");
    free(t);
    /* a mutable copy carries the new values and the float mark */
    tyjson_mut_doc *m = tyjson_doc_mut_copy(d, NULL);
    ASSERT_NOT_NULL(m);
    tyjson_mut_val *ma = tyjson_mut_obj_get(tyjson_mut_doc_get_root(m), "a");
    ASSERT_TRUE(tyjson_mut_is_float(tyjson_mut_arr_get(ma, 0)));
    t = tyjson_mut_write(m, 0, NULL);
    ASSERT_EQ_STR(t, "{\"n\":null,\"t\":true,\"u\":7,\"s\":-3,\"r\":-1,\"str\":\"abc\","
                     "\"a\":[0.1,{\"k\":\"v\"}],\"o\":{}}");
    free(t);
    tyjson_mut_doc_free(m);
    /* a float set back to a double loses its mark */
    ASSERT_TRUE(tyjson_set_real(tyjson_arr_get(a, 0), (double)0.1f));
    ASSERT_FALSE(tyjson_is_float(tyjson_arr_get(a, 0)));
    t = tyjson_val_write_opts(tyjson_arr_get(a, 0), NULL, NULL, NULL);
    ASSERT_EQ_STR(t, "0.10000000149011612");
    free(t);
    tyjson_doc_free(d);
}

/* Raw numbers (TYJSON_READ_BIGNUM_AS_RAW) are scalars too. */
TEST(imm_setters_on_raw_and_number_values) {
    static const char in[] = "[123456789012345678901234567890]";
    tyjson_doc *d = tyjson_read(in, sizeof(in) - 1, TYJSON_READ_BIGNUM_AS_RAW);
    ASSERT_NOT_NULL(d);
    tyjson_val *raw = tyjson_arr_get(tyjson_doc_get_root(d), 0);
    ASSERT_TRUE(tyjson_is_raw(raw));
    ASSERT_TRUE(tyjson_set_uint(raw, 5));
    ASSERT_TRUE(tyjson_is_uint(raw) && tyjson_get_len(raw) == 0 && tyjson_get_str(raw) == NULL);
    expect_doc(d, "[5]");
    tyjson_doc_free(d);
    /* a value of tyjson_read_number, outside any document */
    tyjson_val v;
    ASSERT_EQ_UINT(tyjson_read_number("-12", 3, 0, &v, NULL), 3);
    ASSERT_TRUE(tyjson_set_float(&v, -12.5f));
    char nb[TYJSON_NUMBER_MAX + 1];
    ASSERT_EQ_UINT(tyjson_write_number(&v, 0, nb, sizeof(nb)), 5);
    ASSERT_EQ_STR(nb, "-12.5");
}

int main(int argc, char **argv) { return test_main(argc, argv); }
