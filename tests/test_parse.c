#define _POSIX_C_SOURCE 200809L /* popen */
/* test_parse.c - the DOM parser: values, flags, errors and their positions,
 * limits, allocators and the file entry points. */
#include "test.h"
#include "tyjson.h"
#include "base/internal.h" /* tyjson__err_msg */

#include <dirent.h>
#include <math.h>
#include <unistd.h>

static tyjson_doc *parse_flags(const char *s, tyjson_read_flags flags, tyjson_error *err) {
    tyjson_read_options o = {flags, 0, NULL};
    return tyjson_read_opts(s, strlen(s), &o, err);
}

/* Asserts that s fails with code at offset/line/column. */
#define ASSERT_PARSE_ERR(s, flags, want_code, want_off, want_line, want_col)   \
    do {                                                                       \
        tyjson_error e_;                                                       \
        tyjson_doc *d_ = parse_flags((s), (flags), &e_);                       \
        if (d_) {                                                              \
            tyjson_doc_free(d_);                                               \
            TEST_FAIL("parsed but expected %s: %s",                            \
                      tyjson_status_name(want_code), (s));                     \
        }                                                                      \
        if (e_.code != (want_code))                                            \
            TEST_FAIL("%s: code %s, expected %s (offset %zu)", (s),            \
                      tyjson_status_name(e_.code),                             \
                      tyjson_status_name(want_code), e_.offset);               \
        ASSERT_EQ_UINT(e_.offset, (want_off));                                 \
        ASSERT_EQ_UINT(e_.line, (want_line));                                  \
        ASSERT_EQ_UINT(e_.column, (want_col));                                 \
    } while (0)

TEST(scalars_at_root) {
    tyjson_doc *d = tyjson_read("  42 ", 5, 0);
    ASSERT_NOT_NULL(d);
    tyjson_val *r = tyjson_doc_get_root(d);
    ASSERT_TRUE(tyjson_is_uint(r));
    ASSERT_EQ_UINT(tyjson_get_uint(r), 42);
    ASSERT_EQ_UINT(tyjson_doc_get_read_size(d), 5);
    tyjson_doc_free(d);

    d = tyjson_read("\"h\\u00e9\\n\"", 11, 0);
    ASSERT_NOT_NULL(d);
    r = tyjson_doc_get_root(d);
    ASSERT_TRUE(tyjson_is_str(r));
    ASSERT_EQ_UINT(tyjson_get_len(r), 4);
    ASSERT_EQ_STR(tyjson_get_str(r), "h\xc3\xa9\n");
    tyjson_doc_free(d);

    const char *lits[] = {"true", "false", "null"};
    for (int i = 0; i < 3; i++) {
        d = tyjson_read(lits[i], strlen(lits[i]), 0);
        ASSERT_NOT_NULL(d);
        ASSERT_EQ_STR(tyjson_get_type_desc(tyjson_doc_get_root(d)), lits[i]);
        tyjson_doc_free(d);
    }
}

TEST(containers_and_layout) {
    const char *s = "{\"a\":[1,-2,3.5,{\"x\":null}],\"b\":{},\"c\":[],\"d\":\"s\"}";
    tyjson_doc *d = tyjson_read(s, strlen(s), 0);
    ASSERT_NOT_NULL(d);
    tyjson_val *root = tyjson_doc_get_root(d);
    ASSERT_EQ_UINT(tyjson_obj_size(root), 4);
    ASSERT_EQ_UINT(tyjson_doc_get_val_count(d), 15);
    tyjson_val *a = tyjson_obj_get(root, "a");
    ASSERT_EQ_UINT(tyjson_arr_size(a), 4);
    ASSERT_EQ_UINT(tyjson_get_uint(tyjson_arr_get(a, 0)), 1);
    ASSERT_EQ_INT(tyjson_get_sint(tyjson_arr_get(a, 1)), -2);
    ASSERT_EQ_DBL_BITS(tyjson_get_real(tyjson_arr_get(a, 2)), 3.5);
    ASSERT_TRUE(tyjson_is_null(tyjson_obj_get(tyjson_arr_get(a, 3), "x")));
    ASSERT_NULL(tyjson_arr_get(a, 4));
    ASSERT_TRUE(tyjson_is_obj(tyjson_arr_get_last(a)));
    ASSERT_EQ_UINT(tyjson_obj_size(tyjson_obj_get(root, "b")), 0);
    ASSERT_EQ_UINT(tyjson_arr_size(tyjson_obj_get(root, "c")), 0);
    ASSERT_TRUE(tyjson_equals_str(tyjson_obj_get(root, "d"), "s"));
    ASSERT_NULL(tyjson_obj_get(root, "zz"));

    /* iteration visits members in order and skips subtrees in O(1) */
    tyjson_obj_iter it = tyjson_obj_iter_with(root);
    const char *want[] = {"a", "b", "c", "d"};
    int i = 0;
    tyjson_val *k;
    while ((k = tyjson_obj_iter_next(&it))) ASSERT_EQ_STR(tyjson_get_str(k), want[i++]);
    ASSERT_EQ_INT(i, 4);
    size_t idx, max;
    tyjson_val *key, *val;
    i = 0;
    TYJSON_OBJ_FOREACH(root, idx, max, key, val) {
        ASSERT_EQ_STR(tyjson_get_str(key), want[i++]);
        (void)val;
    }
    ASSERT_EQ_INT(i, 4);
    tyjson_arr_iter ai = tyjson_arr_iter_with(a);
    i = 0;
    while (tyjson_arr_iter_next(&ai)) i++;
    ASSERT_EQ_INT(i, 4);
    tyjson_doc_free(d);
}

TEST(numbers_exact) {
    const char *s = "[0,-0,18446744073709551615,-9223372036854775808,1e2,0.1,-1.5e-3]";
    tyjson_doc *d = tyjson_read(s, strlen(s), 0);
    ASSERT_NOT_NULL(d);
    tyjson_val *r = tyjson_doc_get_root(d);
    ASSERT_TRUE(tyjson_is_uint(tyjson_arr_get(r, 0)));
    ASSERT_TRUE(tyjson_is_real(tyjson_arr_get(r, 1)));
    ASSERT_EQ_DBL_BITS(tyjson_get_real(tyjson_arr_get(r, 1)), -0.0);
    ASSERT_EQ_UINT(tyjson_get_uint(tyjson_arr_get(r, 2)), UINT64_MAX);
    ASSERT_EQ_INT(tyjson_get_sint(tyjson_arr_get(r, 3)), INT64_MIN);
    ASSERT_EQ_DBL_BITS(tyjson_get_real(tyjson_arr_get(r, 4)), 100.0);
    ASSERT_EQ_DBL_BITS(tyjson_get_real(tyjson_arr_get(r, 5)), 0.1);
    ASSERT_EQ_DBL_BITS(tyjson_get_real(tyjson_arr_get(r, 6)), -1.5e-3);
    int64_t i64;
    uint64_t u64;
    ASSERT_FALSE(tyjson_get_i64(tyjson_arr_get(r, 2), &i64));
    ASSERT_TRUE(tyjson_get_u64(tyjson_arr_get(r, 2), &u64));
    ASSERT_TRUE(tyjson_get_i64(tyjson_arr_get(r, 3), &i64));
    ASSERT_FALSE(tyjson_get_u64(tyjson_arr_get(r, 3), &u64));
    tyjson_doc_free(d);
}

TEST(big_numbers) {
    ASSERT_PARSE_ERR("[18446744073709551616]", 0, TYJSON_E_NUMBER_RANGE, 1, 1, 2);
    ASSERT_PARSE_ERR("[-9223372036854775809]", 0, TYJSON_E_NUMBER_RANGE, 1, 1, 2);
    ASSERT_PARSE_ERR("1e400", 0, TYJSON_E_NUMBER_RANGE, 0, 1, 1);
    tyjson_doc *d = parse_flags("[18446744073709551616, 1e400 ,2]", TYJSON_READ_BIGNUM_AS_RAW, NULL);
    ASSERT_NOT_NULL(d);
    tyjson_val *r = tyjson_doc_get_root(d);
    ASSERT_TRUE(tyjson_is_raw(tyjson_arr_get(r, 0)));
    ASSERT_EQ_STR(tyjson_get_str(tyjson_arr_get(r, 0)), "18446744073709551616");
    ASSERT_EQ_STR(tyjson_get_str(tyjson_arr_get(r, 1)), "1e400");
    ASSERT_EQ_UINT(tyjson_get_len(tyjson_arr_get(r, 1)), 5);
    ASSERT_EQ_UINT(tyjson_get_uint(tyjson_arr_get(r, 2)), 2);
    tyjson_doc_free(d);
    d = tyjson_read("1e-400", 6, 0);
    ASSERT_NOT_NULL(d);
    ASSERT_EQ_DBL_BITS(tyjson_get_real(tyjson_doc_get_root(d)), 0.0);
    tyjson_doc_free(d);
}

TEST(error_positions) {
    ASSERT_PARSE_ERR("", 0, TYJSON_E_EMPTY, 0, 1, 1);
    ASSERT_PARSE_ERR("  \n ", 0, TYJSON_E_EMPTY, 4, 2, 2);
    ASSERT_PARSE_ERR("[1,2", 0, TYJSON_E_TRUNCATED, 4, 1, 5);
    ASSERT_PARSE_ERR("[1,\n  x]", 0, TYJSON_E_UNEXPECTED_CHAR, 6, 2, 3);
    ASSERT_PARSE_ERR("{\"a\" 1}", 0, TYJSON_E_UNEXPECTED_CHAR, 5, 1, 6);
    ASSERT_PARSE_ERR("{\"a\":1,}", 0, TYJSON_E_UNEXPECTED_CHAR, 7, 1, 8);
    ASSERT_PARSE_ERR("[1,]", 0, TYJSON_E_UNEXPECTED_CHAR, 3, 1, 4);
    ASSERT_PARSE_ERR("[1] x", 0, TYJSON_E_TRAILING, 4, 1, 5);
    ASSERT_PARSE_ERR("tru", 0, TYJSON_E_TRUNCATED, 0, 1, 1);
    ASSERT_PARSE_ERR("trux", 0, TYJSON_E_LITERAL, 0, 1, 1);
    ASSERT_PARSE_ERR("[nul]", 0, TYJSON_E_LITERAL, 1, 1, 2);
    ASSERT_PARSE_ERR("\"abc", 0, TYJSON_E_TRUNCATED, 4, 1, 5);
    ASSERT_PARSE_ERR("\"a\tb\"", 0, TYJSON_E_STRING_CTRL, 2, 1, 3);
    ASSERT_PARSE_ERR("\"a\\qb\"", 0, TYJSON_E_ESCAPE, 2, 1, 3);
    ASSERT_PARSE_ERR("\"\\u12G4\"", 0, TYJSON_E_ESCAPE, 1, 1, 2);
    ASSERT_PARSE_ERR("\"\\ud800\"", 0, TYJSON_E_SURROGATE, 1, 1, 2);
    ASSERT_PARSE_ERR("\"\\udc00\"", 0, TYJSON_E_SURROGATE, 1, 1, 2);
    ASSERT_PARSE_ERR("\"\\ud800\\u0041\"", 0, TYJSON_E_SURROGATE, 1, 1, 2);
    ASSERT_PARSE_ERR("\"\\ud800\\u00", 0, TYJSON_E_TRUNCATED, 1, 1, 2);
    ASSERT_PARSE_ERR("\"\xc3\x28\"", 0, TYJSON_E_UTF8, 1, 1, 2);
    ASSERT_PARSE_ERR("\"\xc0\xaf\"", 0, TYJSON_E_UTF8, 1, 1, 2);       /* overlong */
    ASSERT_PARSE_ERR("\"\xed\xa0\x80\"", 0, TYJSON_E_UTF8, 1, 1, 2);   /* surrogate */
    ASSERT_PARSE_ERR("\"\xf4\x90\x80\x80\"", 0, TYJSON_E_UTF8, 1, 1, 2); /* > U+10FFFF */
    ASSERT_PARSE_ERR("[01]", 0, TYJSON_E_NUMBER, 2, 1, 3);
    ASSERT_PARSE_ERR("[1.", 0, TYJSON_E_TRUNCATED, 3, 1, 4);
    ASSERT_PARSE_ERR("-", 0, TYJSON_E_TRUNCATED, 1, 1, 2);
    ASSERT_PARSE_ERR("[1e+", 0, TYJSON_E_TRUNCATED, 4, 1, 5);
    ASSERT_PARSE_ERR("[1e+]", 0, TYJSON_E_NUMBER, 4, 1, 5);
    ASSERT_PARSE_ERR("[\"\\u\xe5\"]", 0, TYJSON_E_ESCAPE, 2, 1, 3);
    ASSERT_PARSE_ERR("\"\\u12", 0, TYJSON_E_TRUNCATED, 1, 1, 2);
    ASSERT_PARSE_ERR("[-]", 0, TYJSON_E_NUMBER, 2, 1, 3);
    ASSERT_PARSE_ERR("[1.]", 0, TYJSON_E_NUMBER, 3, 1, 4);
    ASSERT_PARSE_ERR("[1.5.3]", 0, TYJSON_E_UNEXPECTED_CHAR, 4, 1, 5);
    ASSERT_PARSE_ERR("\xef\xbb\xbf[]", 0, TYJSON_E_UNEXPECTED_CHAR, 0, 1, 1);
    ASSERT_PARSE_ERR("[NaN]", 0, TYJSON_E_UNEXPECTED_CHAR, 1, 1, 2);
}

TEST(embedded_nul_and_nul_escape) {
    tyjson_error e;
    tyjson_doc *d = tyjson_read_opts("[1]\0", 4, NULL, &e);
    ASSERT_NULL(d);
    ASSERT_EQ_INT(e.code, TYJSON_E_TRAILING);
    ASSERT_EQ_UINT(e.offset, 3);
    d = tyjson_read("\"a\\u0000b\"", 10, 0);
    ASSERT_NOT_NULL(d);
    tyjson_val *r = tyjson_doc_get_root(d);
    ASSERT_EQ_UINT(tyjson_get_len(r), 3);
    ASSERT_EQ_MEM(tyjson_get_str(r), "a\0b", 3);
    ASSERT_TRUE(tyjson_equals_strn(r, "a\0b", 3));
    tyjson_doc_free(d);
}

TEST(surrogate_pairs_and_wtf8) {
    tyjson_doc *d = tyjson_read("\"\\ud83d\\ude00\"", 14, 0);
    ASSERT_NOT_NULL(d);
    ASSERT_EQ_STR(tyjson_get_str(tyjson_doc_get_root(d)), "\xf0\x9f\x98\x80");
    tyjson_doc_free(d);
    d = parse_flags("\"\\ud800x\"", TYJSON_READ_ALLOW_INVALID_UTF8, NULL);
    ASSERT_NOT_NULL(d);
    ASSERT_EQ_STR(tyjson_get_str(tyjson_doc_get_root(d)), "\xed\xa0\x80x");
    tyjson_doc_free(d);
    d = parse_flags("\"\xff\xfe\"", TYJSON_READ_ALLOW_INVALID_UTF8, NULL);
    ASSERT_NOT_NULL(d);
    ASSERT_EQ_STR(tyjson_get_str(tyjson_doc_get_root(d)), "\xff\xfe");
    tyjson_doc_free(d);
}

TEST(relaxed_flags) {
    tyjson_doc *d = parse_flags("/* c */ [1, // x\n 2 /**/ ] // end", TYJSON_READ_ALLOW_COMMENTS, NULL);
    ASSERT_NOT_NULL(d);
    ASSERT_EQ_UINT(tyjson_arr_size(tyjson_doc_get_root(d)), 2);
    tyjson_doc_free(d);
    ASSERT_PARSE_ERR("[1 /* open", TYJSON_READ_ALLOW_COMMENTS, TYJSON_E_COMMENT, 3, 1, 4);
    ASSERT_PARSE_ERR("[1 / 2]", TYJSON_READ_ALLOW_COMMENTS, TYJSON_E_UNEXPECTED_CHAR, 3, 1, 4);
    ASSERT_PARSE_ERR("[1 /* c */ ]", 0, TYJSON_E_UNEXPECTED_CHAR, 3, 1, 4);

    d = parse_flags("{\"a\":[1,2,],}", TYJSON_READ_ALLOW_TRAILING_COMMAS, NULL);
    ASSERT_NOT_NULL(d);
    ASSERT_EQ_UINT(tyjson_arr_size(tyjson_obj_get(tyjson_doc_get_root(d), "a")), 2);
    tyjson_doc_free(d);
    ASSERT_PARSE_ERR("[1,,]", TYJSON_READ_ALLOW_TRAILING_COMMAS, TYJSON_E_UNEXPECTED_CHAR, 3, 1, 4);
    ASSERT_PARSE_ERR("[,]", TYJSON_READ_ALLOW_TRAILING_COMMAS, TYJSON_E_UNEXPECTED_CHAR, 1, 1, 2);

    d = parse_flags("[NaN,Infinity,-Infinity]", TYJSON_READ_ALLOW_INF_NAN, NULL);
    ASSERT_NOT_NULL(d);
    tyjson_val *r = tyjson_doc_get_root(d);
    ASSERT_TRUE(isnan(tyjson_get_real(tyjson_arr_get(r, 0))));
    ASSERT_TRUE(isinf(tyjson_get_real(tyjson_arr_get(r, 1))) && tyjson_get_real(tyjson_arr_get(r, 1)) > 0);
    ASSERT_TRUE(isinf(tyjson_get_real(tyjson_arr_get(r, 2))) && tyjson_get_real(tyjson_arr_get(r, 2)) < 0);
    tyjson_doc_free(d);
    ASSERT_PARSE_ERR("[-NaN]", TYJSON_READ_ALLOW_INF_NAN, TYJSON_E_NUMBER, 2, 1, 3);
    ASSERT_PARSE_ERR("[Infinit]", TYJSON_READ_ALLOW_INF_NAN, TYJSON_E_LITERAL, 1, 1, 2);

    d = parse_flags("\xef\xbb\xbf{}", TYJSON_READ_ALLOW_BOM, NULL);
    ASSERT_NOT_NULL(d);
    tyjson_doc_free(d);
}

TEST(duplicate_keys) {
    tyjson_doc *d = parse_flags("{\"a\":1,\"a\":2}", 0, NULL);
    ASSERT_NOT_NULL(d);
    ASSERT_EQ_UINT(tyjson_get_uint(tyjson_obj_get(tyjson_doc_get_root(d), "a")), 1);
    ASSERT_EQ_UINT(tyjson_obj_size(tyjson_doc_get_root(d)), 2);
    tyjson_doc_free(d);
    ASSERT_PARSE_ERR("{\"a\":1,\"b\":{\"c\":1,\"c\":2}}", TYJSON_READ_REJECT_DUPLICATE_KEYS,
                     TYJSON_E_DUPLICATE_KEY, 18, 1, 19);
    /* large object takes the sorting path; the first repeat in document
     * order is reported */
    char buf[4096];
    size_t n = 0;
    n += (size_t)snprintf(buf + n, sizeof buf - n, "{");
    for (int i = 0; i < 40; i++) n += (size_t)snprintf(buf + n, sizeof buf - n, "\"k%02d\":%d,", i, i);
    size_t second_k30 = n;
    n += (size_t)snprintf(buf + n, sizeof buf - n, "\"k30\":0,");
    n += (size_t)snprintf(buf + n, sizeof buf - n, "\"k05\":0}");
    tyjson_read_options o = {TYJSON_READ_REJECT_DUPLICATE_KEYS, 0, NULL};
    tyjson_error e;
    d = tyjson_read_opts(buf, n, &o, &e);
    ASSERT_NULL(d);
    ASSERT_EQ_INT(e.code, TYJSON_E_DUPLICATE_KEY);
    ASSERT_EQ_UINT(e.offset, second_k30);
    o.flags = 0;
    d = tyjson_read_opts(buf, n, &o, &e);
    ASSERT_NOT_NULL(d);
    tyjson_doc_free(d);
}

TEST(depth_limit_without_recursion) {
    size_t n = 1000000;
    char *s = (char *)malloc(2 * n);
    memset(s, '[', n);
    memset(s + n, ']', n);
    tyjson_error e;
    tyjson_doc *d = tyjson_read_opts(s, 2 * n, NULL, &e);
    ASSERT_NULL(d);
    ASSERT_EQ_INT(e.code, TYJSON_E_DEPTH);
    ASSERT_EQ_UINT(e.offset, TYJSON_DEFAULT_MAX_DEPTH);
    tyjson_read_options o = {0, UINT32_MAX, NULL};
    d = tyjson_read_opts(s, 2 * n, &o, &e);
    ASSERT_NOT_NULL(d);
    ASSERT_EQ_UINT(tyjson_doc_get_val_count(d), n);
    tyjson_val *v = tyjson_doc_get_root(d);
    ASSERT_EQ_UINT(v->uni.ofs, n);
    tyjson_doc_free(d);
    o.max_depth = 3;
    ASSERT_NULL(tyjson_read_opts("[[[[]]]]", 8, &o, &e));
    ASSERT_EQ_INT(e.code, TYJSON_E_DEPTH);
    ASSERT_EQ_UINT(e.offset, 3);
    d = tyjson_read_opts("[[[]]]", 6, &o, &e);
    ASSERT_NOT_NULL(d);
    tyjson_doc_free(d);
    /* truncated deep input is a clean error too */
    d = tyjson_read_opts(s, n, &o, &e);
    ASSERT_NULL(d);
    free(s);
}

TEST(stop_when_done_ndjson) {
    const char *s = "{\"a\":1}\n[2, \"x]\"]\n  3\n\"s\"  \nnull";
    size_t len = strlen(s), pos = 0;
    tyjson_read_options o = {TYJSON_READ_STOP_WHEN_DONE, 0, NULL};
    const char *types[] = {"object", "array", "uint", "string", "null"};
    int count = 0;
    while (pos < len) {
        tyjson_error e;
        tyjson_doc *d = tyjson_read_opts(s + pos, len - pos, &o, &e);
        ASSERT_NOT_NULL(d);
        ASSERT_EQ_STR(tyjson_get_type_desc(tyjson_doc_get_root(d)), types[count]);
        size_t used = tyjson_doc_get_read_size(d);
        ASSERT_TRUE(used > 0);
        pos += used;
        count++;
        tyjson_doc_free(d);
    }
    ASSERT_EQ_INT(count, 5);
    ASSERT_EQ_UINT(pos, len);
    /* an error in a later record is reported against the record's bytes */
    tyjson_error e;
    ASSERT_NULL(tyjson_read_opts("[1,\n2 x]", 8, &o, &e));
    ASSERT_EQ_INT(e.code, TYJSON_E_UNEXPECTED_CHAR);
    ASSERT_EQ_UINT(e.line, 2);
    ASSERT_EQ_UINT(e.column, 3);
    ASSERT_NULL(tyjson_read_opts("[1,2", 4, &o, &e));
    ASSERT_EQ_INT(e.code, TYJSON_E_TRUNCATED);
    tyjson_doc *d = tyjson_read_opts("[1]x", 4, &o, &e);
    ASSERT_NOT_NULL(d);
    ASSERT_EQ_UINT(tyjson_doc_get_read_size(d), 3);
    tyjson_doc_free(d);
}

TEST(pool_allocator) {
    const char *s = "{\"name\":\"pool\",\"list\":[1,2,3,[4,[5]]],\"esc\":\"a\\nb\"}";
    size_t len = strlen(s);
    size_t need = tyjson_read_max_memory(len, 0);
    ASSERT_TRUE(need > len);
    char *mem = (char *)malloc(need);
    tyjson_alloc pool;
    ASSERT_TRUE(tyjson_alloc_pool_init(&pool, mem, need));
    tyjson_read_options o = {0, 0, &pool};
    tyjson_doc *d = tyjson_read_opts(s, len, &o, NULL);
    ASSERT_NOT_NULL(d);
    ASSERT_EQ_STR(tyjson_get_str(tyjson_obj_get(tyjson_doc_get_root(d), "esc")), "a\nb");
    tyjson_doc_free(d);
    /* every input shape fits the published bound */
    const char *worst[] = {"[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]", "[[[[[[[[]]]]]]]]", "{\"\":0,\"\":0,\"\":0}", "0"};
    for (int i = 0; i < 4; i++) {
        size_t l = strlen(worst[i]);
        size_t m = tyjson_read_max_memory(l, 0);
        ASSERT_TRUE(tyjson_alloc_pool_init(&pool, mem, m < need ? m : need));
        d = tyjson_read_opts(worst[i], l, &o, NULL);
        ASSERT_NOT_NULL(d);
        tyjson_doc_free(d);
    }
    tyjson_error e;
    ASSERT_TRUE(tyjson_alloc_pool_init(&pool, mem, 200));
    ASSERT_NULL(tyjson_read_opts(s, len, &o, &e));
    ASSERT_EQ_INT(e.code, TYJSON_E_NOMEM);
    ASSERT_FALSE(tyjson_alloc_pool_init(&pool, mem, 8));
    free(mem);
}

/* A file name of this process only: the scalar-dispatch run of this suite
 * runs at the same time (ctest -j) and must not rewrite our file. */
static const char *tmp_path(const char *stem) {
    static char buf[2][96];
    static int which;
    which ^= 1;
    snprintf(buf[which], sizeof(buf[which]), "/tmp/tyjson_%s.%ld.json", stem, (long)getpid());
    return buf[which];
}

TEST(read_file_and_fp) {
    const char *path = tmp_path("test_parse");
    FILE *f = fopen(path, "wb");
    ASSERT_NOT_NULL(f);
    fputs("{\n  \"k\": \"v\\n\",\n  \"n\": [1, 2,\n   x]\n}\n", f);
    fclose(f);
    tyjson_error e;
    ASSERT_NULL(tyjson_read_file(path, NULL, &e));
    ASSERT_EQ_INT(e.code, TYJSON_E_UNEXPECTED_CHAR);
    ASSERT_EQ_UINT(e.line, 4);
    ASSERT_EQ_UINT(e.column, 4);
    f = fopen(path, "wb");
    fputs("{\"k\": \"v\\n\", \"n\": [1, 2]}", f);
    fclose(f);
    tyjson_doc *d = tyjson_read_file(path, NULL, &e);
    ASSERT_NOT_NULL(d);
    ASSERT_EQ_STR(tyjson_get_str(tyjson_obj_get(tyjson_doc_get_root(d), "k")), "v\n");
    tyjson_doc_free(d);
    f = fopen(path, "rb");
    d = tyjson_read_fp(f, NULL, &e);
    fclose(f);
    ASSERT_NOT_NULL(d);
    ASSERT_EQ_UINT(tyjson_arr_size(tyjson_obj_get(tyjson_doc_get_root(d), "n")), 2);
    tyjson_doc_free(d);
    ASSERT_NULL(tyjson_read_file("/nonexistent/x.json", NULL, &e));
    ASSERT_EQ_INT(e.code, TYJSON_E_IO);
    /* a directory reports a huge size on Linux: an I/O error, not a crash */
    ASSERT_NULL(tyjson_read_file("/tmp", NULL, &e));
    ASSERT_EQ_INT(e.code, TYJSON_E_IO);
    /* a pipe (not seekable): positions still count the original bytes,
     * although the string before the error holds an escaped newline */
    f = fopen(path, "wb");
    fputs("[1,\n\"a\\nb\" ,x]", f);
    fclose(f);
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "cat %s", path);
    f = popen(cmd, "r");
    ASSERT_NOT_NULL(f);
    ASSERT_NULL(tyjson_read_fp(f, NULL, &e));
    pclose(f);
    ASSERT_EQ_INT(e.code, TYJSON_E_UNEXPECTED_CHAR);
    ASSERT_EQ_UINT(e.line, 2);
    ASSERT_EQ_UINT(e.column, 9);
    remove(path);
}

TEST(json_pointer) {
    const char *s = "{\"foo\":[\"bar\",\"baz\"],\"\":0,\"a/b\":1,\"c%d\":2,\"e^f\":3,\"g|h\":4,"
                    "\"i\\\\j\":5,\"k\\\"l\":6,\" \":7,\"m~n\":8}";
    tyjson_doc *d = tyjson_read(s, strlen(s), 0);
    ASSERT_NOT_NULL(d);
    tyjson_val *r = tyjson_doc_get_root(d);
    ASSERT_TRUE(tyjson_ptr_get(r, "") == r);
    ASSERT_EQ_UINT(tyjson_arr_size(tyjson_ptr_get(r, "/foo")), 2);
    ASSERT_TRUE(tyjson_equals_str(tyjson_ptr_get(r, "/foo/0"), "bar"));
    ASSERT_EQ_UINT(tyjson_get_uint(tyjson_ptr_get(r, "/")), 0);
    ASSERT_EQ_UINT(tyjson_get_uint(tyjson_ptr_get(r, "/a~1b")), 1);
    ASSERT_EQ_UINT(tyjson_get_uint(tyjson_ptr_get(r, "/c%d")), 2);
    ASSERT_EQ_UINT(tyjson_get_uint(tyjson_ptr_get(r, "/e^f")), 3);
    ASSERT_EQ_UINT(tyjson_get_uint(tyjson_ptr_get(r, "/g|h")), 4);
    ASSERT_EQ_UINT(tyjson_get_uint(tyjson_ptr_get(r, "/i\\j")), 5);
    ASSERT_EQ_UINT(tyjson_get_uint(tyjson_ptr_get(r, "/k\"l")), 6);
    ASSERT_EQ_UINT(tyjson_get_uint(tyjson_ptr_get(r, "/ ")), 7);
    ASSERT_EQ_UINT(tyjson_get_uint(tyjson_ptr_get(r, "/m~0n")), 8);
    ASSERT_TRUE(tyjson_doc_ptr_get(d, "/foo/1") == tyjson_arr_get(tyjson_obj_get(r, "foo"), 1));
    tyjson_error e;
    ASSERT_NULL(tyjson_ptr_getx(r, "/foo/01", 7, &e));
    ASSERT_EQ_INT(e.code, TYJSON_E_NOT_FOUND);
    ASSERT_NULL(tyjson_ptr_getx(r, "/foo/-", 6, &e));
    ASSERT_EQ_INT(e.code, TYJSON_E_NOT_FOUND);
    ASSERT_NULL(tyjson_ptr_getx(r, "/foo/2", 6, &e));
    ASSERT_NULL(tyjson_ptr_getx(r, "foo", 3, &e));
    ASSERT_EQ_INT(e.code, TYJSON_E_POINTER);
    ASSERT_NULL(tyjson_ptr_getx(r, "/m~2n", 5, &e));
    ASSERT_EQ_INT(e.code, TYJSON_E_POINTER);
    ASSERT_NULL(tyjson_ptr_get(r, "/foo/0/x"));
    tyjson_doc_free(d);
}

static bool eq_text(const char *a, const char *b) {
    tyjson_doc *x = tyjson_read(a, strlen(a), 0), *y = tyjson_read(b, strlen(b), 0);
    if (!x || !y) TEST_FAIL("parse failed");
    bool r = tyjson_equals(tyjson_doc_get_root(x), tyjson_doc_get_root(y));
    tyjson_doc_free(x);
    tyjson_doc_free(y);
    return r;
}

TEST(equality) {
    ASSERT_TRUE(eq_text("{\"a\":1,\"b\":[true,null]}", "{\"b\":[true,null],\"a\":1}"));
    ASSERT_FALSE(eq_text("{\"a\":1}", "{\"a\":1.0}"));
    ASSERT_FALSE(eq_text("[1,2]", "[2,1]"));
    ASSERT_TRUE(eq_text("{\"a\":1,\"a\":2,\"b\":0}", "{\"b\":0,\"a\":1,\"a\":2}"));
    ASSERT_FALSE(eq_text("{\"a\":1,\"a\":2}", "{\"a\":2,\"a\":1}"));
    ASSERT_FALSE(eq_text("{\"a\":1,\"a\":1}", "{\"a\":1,\"b\":1}"));
    ASSERT_TRUE(eq_text("-0.0", "-0.0"));
    ASSERT_TRUE(eq_text("\"a\\u0000\"", "\"a\\u0000\""));
    ASSERT_FALSE(eq_text("\"a\\u0000\"", "\"a\""));
    /* large objects in different orders take the sorting path */
    char a[8192], b[8192];
    size_t na = 0, nb = 0;
    na += (size_t)snprintf(a + na, sizeof a - na, "{");
    nb += (size_t)snprintf(b + nb, sizeof b - nb, "{");
    for (int i = 0; i < 100; i++) {
        na += (size_t)snprintf(a + na, sizeof a - na, "%s\"k%d\":[%d]", i ? "," : "", i, i);
        nb += (size_t)snprintf(b + nb, sizeof b - nb, "%s\"k%d\":[%d]", i ? "," : "", 99 - i, 99 - i);
    }
    snprintf(a + na, sizeof a - na, "}");
    snprintf(b + nb, sizeof b - nb, "}");
    ASSERT_TRUE(eq_text(a, b));
    b[nb - 2] = '7'; /* the last value [0] becomes [7] */
    ASSERT_FALSE(eq_text(a, b));
    ASSERT_TRUE(tyjson_equals(NULL, NULL));
}

TEST(status_table) {
    ASSERT_EQ_STR(tyjson_status_name(TYJSON_E_NOMEM), "E_NOMEM");
    ASSERT_EQ_STR(tyjson_status_msg(TYJSON_OK), "success");
    ASSERT_EQ_STR(tyjson_status_name((tyjson_status)9999), "E_UNKNOWN");
    tyjson_error e;
    ASSERT_NULL(tyjson_read("[1,\n?]", 6, 0));
    tyjson_read_opts("[1,\n?]", 6, NULL, &e);
    char buf[128];
    ASSERT_EQ_STR(tyjson_error_format(&e, buf, sizeof buf), "2:1: expected a value after ',', found '?'");
    size_t line, col;
    ASSERT_TRUE(tyjson_locate("ab\ncd", 5, 4, &line, &col));
    ASSERT_EQ_UINT(line, 2);
    ASSERT_EQ_UINT(col, 2);
    ASSERT_FALSE(tyjson_locate("ab", 2, 3, &line, &col));
}


/* Every UTF-8 edge at every position inside runs of valid characters, so
 * that the byte loop, the 4-byte mask path and the two-character path all
 * see it. */
TEST(utf8_edges_everywhere) {
    static const char *good[] = {"\xc2\x80", "\xdf\xbf", "\xe0\xa0\x80", "\xed\x9f\xbf",
                                 "\xee\x80\x80", "\xef\xbf\xbf", "\xf0\x90\x80\x80",
                                 "\xf4\x8f\xbf\xbf", "\xf3\xbf\xbf\xbf", "\xe4\xb8\xad"};
    static const char *bad[] = {"\xc0\x80", "\xc1\xbf", "\xe0\x80\x80", "\xe0\x9f\xbf",
                                "\xed\xa0\x80", "\xed\xbf\xbf", "\xf0\x80\x80\x80",
                                "\xf0\x8f\xbf\xbf", "\xf4\x90\x80\x80", "\xf5\x80\x80\x80",
                                "\x80", "\xbf", "\xe4\xb8", "\xe4\x28\xad", "\xff", "\xf8\x88\x80\x80\x80"};
    const char *fill[] = {"a", "\xe4\xb8\xad", "\xc3\xa9", "\xf0\x9f\x98\x80"};
    char buf[256];
    for (int f = 0; f < 4; f++) {
        for (int pre = 0; pre < 12; pre++) {
            for (int post = 0; post < 3; post++) {
                for (size_t g = 0; g < sizeof good / sizeof *good; g++) {
                    size_t n = 0;
                    buf[n++] = '"';
                    for (int i = 0; i < pre; i++) n += (size_t)sprintf(buf + n, "%s", fill[f]);
                    n += (size_t)sprintf(buf + n, "%s", good[g]);
                    for (int i = 0; i < post * 5; i++) n += (size_t)sprintf(buf + n, "%s", fill[f]);
                    buf[n++] = '"';
                    tyjson_error e;
                    tyjson_doc *d = tyjson_read_opts(buf, n, NULL, &e);
                    if (!d) TEST_FAIL("good sequence %zu rejected (fill %d pre %d): %s at %zu", g, f, pre, e.msg, e.offset);
                    ASSERT_EQ_UINT(tyjson_get_len(tyjson_doc_get_root(d)), n - 2);
                    tyjson_doc_free(d);
                }
                for (size_t b = 0; b < sizeof bad / sizeof *bad; b++) {
                    size_t n = 0;
                    buf[n++] = '"';
                    for (int i = 0; i < pre; i++) n += (size_t)sprintf(buf + n, "%s", fill[f]);
                    size_t at = n;
                    n += (size_t)sprintf(buf + n, "%s", bad[b]);
                    for (int i = 0; i < post * 5; i++) n += (size_t)sprintf(buf + n, "%s", fill[f]);
                    buf[n++] = '"';
                    tyjson_error e;
                    tyjson_doc *d = tyjson_read_opts(buf, n, NULL, &e);
                    if (d) TEST_FAIL("bad sequence %zu accepted (fill %d pre %d)", b, f, pre);
                    ASSERT_EQ_INT(e.code, TYJSON_E_UTF8);
                    ASSERT_EQ_UINT(e.offset, at);
                    /* the same bytes after an escape take the decoding path */
                    char buf2[300];
                    memcpy(buf2, "\"\\n", 3);
                    memcpy(buf2 + 3, buf + 1, n - 1);
                    d = tyjson_read_opts(buf2, n + 2, NULL, &e);
                    if (d) TEST_FAIL("bad sequence %zu accepted after escape", b);
                    ASSERT_EQ_INT(e.code, TYJSON_E_UTF8);
                    ASSERT_EQ_UINT(e.offset, at + 2);
                }
            }
        }
    }
}

/* Found by fuzzing (fuzz_parse): each case failed before its fix. */
TEST(fuzz_regressions) {
    tyjson_error e;
    /* BOM with STOP_WHEN_DONE gave E_EMPTY */
    tyjson_read_options o = {TYJSON_READ_ALLOW_BOM | TYJSON_READ_STOP_WHEN_DONE, 0, NULL};
    tyjson_doc *d = tyjson_read_opts("\xef\xbb\xbf{\"a\":1} ", 11, &o, &e);
    ASSERT_NOT_NULL(d);
    ASSERT_EQ_UINT(tyjson_doc_get_read_size(d), 11);
    tyjson_doc_free(d);
    /* unclosed brackets ran out of value slots: E_NOMEM instead of truncation */
    char deep[600];
    memset(deep, '[', sizeof deep);
    ASSERT_NULL(tyjson_read_opts(deep, sizeof deep, NULL, &e));
    ASSERT_EQ_INT(e.code, TYJSON_E_TRUNCATED);
    memset(deep + 400, ']', 100);
    ASSERT_NULL(tyjson_read_opts(deep, 500, NULL, &e));
    ASSERT_EQ_INT(e.code, TYJSON_E_TRUNCATED);
    /* ... and the same within a pool of the published bound */
    memset(deep, '[', sizeof deep);
    size_t need = tyjson_read_max_memory(sizeof deep, 0);
    void *mem = malloc(need);
    tyjson_alloc pool;
    ASSERT_TRUE(tyjson_alloc_pool_init(&pool, mem, need));
    tyjson_read_options po = {0, 0, &pool};
    ASSERT_NULL(tyjson_read_opts(deep, sizeof deep, &po, &e));
    ASSERT_EQ_INT(e.code, TYJSON_E_TRUNCATED);
    free(mem);
    /* STOP_WHEN_DONE counted garbage after a scalar as consumed */
    o.flags = TYJSON_READ_STOP_WHEN_DONE;
    d = tyjson_read_opts("1x 2", 4, &o, &e);
    ASSERT_NOT_NULL(d);
    ASSERT_EQ_UINT(tyjson_doc_get_read_size(d), 1);
    tyjson_doc_free(d);
    d = tyjson_read_opts("12.5.5 [1]", 10, &o, &e);
    ASSERT_NOT_NULL(d);
    ASSERT_EQ_UINT(tyjson_doc_get_read_size(d), 4);
    tyjson_doc_free(d);
    /* a trailing comment counts as consumed with comments allowed */
    o.flags = TYJSON_READ_STOP_WHEN_DONE | TYJSON_READ_ALLOW_COMMENTS;
    d = tyjson_read_opts("[1] /* c */ // d\n[2]", 20, &o, &e);
    ASSERT_NOT_NULL(d);
    ASSERT_EQ_UINT(tyjson_doc_get_read_size(d), 17);
    tyjson_doc_free(d);
}

TEST(read_file_into_exact_pool) {
    const char *path = tmp_path("test_pool");
    FILE *f = fopen(path, "wb");
    ASSERT_NOT_NULL(f);
    fputs("{\"a\":[1,2,3]}", f);
    fclose(f);
    size_t need = tyjson_read_max_memory(13, 0);
    void *mem = malloc(need);
    tyjson_alloc pool;
    ASSERT_TRUE(tyjson_alloc_pool_init(&pool, mem, need));
    tyjson_read_options o = {0, 0, &pool};
    tyjson_error e;
    tyjson_doc *d = tyjson_read_file(path, &o, &e);
    ASSERT_NOT_NULL(d);
    ASSERT_EQ_UINT(tyjson_arr_size(tyjson_obj_get(tyjson_doc_get_root(d), "a")), 3);
    tyjson_doc_free(d);
    free(mem);
    remove(path);
}

TEST(stop_when_done_extent_skips_comments_and_validates) {
    /* the first value's extent comes from the reading core's validating
     * skip: brackets inside comments and strings do not end it */
    const char *s = "[1 /* ] */, \"]\", // ]\n 2] [3]";
    tyjson_read_options o = {TYJSON_READ_STOP_WHEN_DONE | TYJSON_READ_ALLOW_COMMENTS, 0, NULL};
    tyjson_error e;
    tyjson_doc *d = tyjson_read_opts(s, strlen(s), &o, &e);
    ASSERT_NOT_NULL(d);
    ASSERT_EQ_UINT(tyjson_arr_size(tyjson_doc_get_root(d)), 3);
    ASSERT_EQ_UINT(tyjson_doc_get_read_size(d), 26);
    tyjson_doc_free(d);
    /* a bad first value fails where the whole input does */
    const char *bad = "[1, tru] [2]";
    d = tyjson_read_opts(bad, strlen(bad), &o, &e);
    ASSERT_NULL(d);
    ASSERT_EQ_INT(e.code, TYJSON_E_LITERAL);
    ASSERT_EQ_UINT(e.offset, 4);
}

TEST(relaxed_words_cut_by_the_end_are_truncated) {
    tyjson_read_options o = {TYJSON_READ_ALLOW_INF_NAN | TYJSON_READ_ALLOW_COMMENTS, 0, NULL};
    static const char *const cut[] = {"[-Inf", "[Infin", "[Na", "[1] /", "[1 /* x"};
    static const tyjson_status want[] = {TYJSON_E_TRUNCATED, TYJSON_E_TRUNCATED,
                                         TYJSON_E_TRUNCATED, TYJSON_E_TRUNCATED,
                                         TYJSON_E_COMMENT};
    for (int i = 0; i < 5; i++) {
        tyjson_error e;
        ASSERT_NULL(tyjson_read_opts(cut[i], strlen(cut[i]), &o, &e));
        ASSERT_EQ_INT(e.code, want[i]);
    }
    tyjson_error e;
    ASSERT_NULL(tyjson_read_opts("[-NaN]", 6, &o, &e));
    ASSERT_EQ_INT(e.code, TYJSON_E_NUMBER);
}

int main(int argc, char **argv) { return test_main(argc, argv); }

/* ----------------------------------------------------------------------------
 * Error messages: every error site of the parser says what it expected and
 * what it found, at the right line:column.
 * ------------------------------------------------------------------------- */
typedef struct msg_case {
    const char *json;
    tyjson_read_flags flags;
    uint32_t max_depth;
    tyjson_status code;
    size_t offset, line, column;
    const char *msg;
} msg_case;

#define DUP TYJSON_READ_REJECT_DUPLICATE_KEYS
#define CMT TYJSON_READ_ALLOW_COMMENTS
#define INF TYJSON_READ_ALLOW_INF_NAN
static const msg_case msg_cases[] = {
    {"", 0, 0, TYJSON_E_EMPTY, 0, 1, 1, "expected a JSON value, found end of input"},
    {" \n ", 0, 0, TYJSON_E_EMPTY, 3, 2, 2, "expected a JSON value, found end of input"},
    {"\n  x", 0, 0, TYJSON_E_UNEXPECTED_CHAR, 3, 2, 3, "expected a JSON value, found 'x'"},
    {"\xEF\xBB\xBF[]", 0, 0, TYJSON_E_UNEXPECTED_CHAR, 0, 1, 1,
     "expected a JSON value, found a byte order mark (U+FEFF)"},
    {"'a'", 0, 0, TYJSON_E_UNEXPECTED_CHAR, 0, 1, 1, "expected a JSON value, found \"'\""},
    {"\xC3\xA9", 0, 0, TYJSON_E_UNEXPECTED_CHAR, 0, 1, 1, "expected a JSON value, found '\xC3\xA9'"},
    {"\xFF", 0, 0, TYJSON_E_UNEXPECTED_CHAR, 0, 1, 1, "expected a JSON value, found byte 0xFF"},
    {"[\n", 0, 0, TYJSON_E_TRUNCATED, 2, 2, 1, "expected a value or ']', found end of input"},
    {"[\n  ,1]", 0, 0, TYJSON_E_UNEXPECTED_CHAR, 4, 2, 3, "expected a value or ']', found ','"},
    {"[1,\n]", 0, 0, TYJSON_E_UNEXPECTED_CHAR, 4, 2, 1, "expected a value after ',', found ']'"},
    {"[1,\x01]", 0, 0, TYJSON_E_UNEXPECTED_CHAR, 3, 1, 4,
     "expected a value after ',', found U+0001 control character"},
    {"[1\n 2]", 0, 0, TYJSON_E_UNEXPECTED_CHAR, 4, 2, 2,
     "expected ',' or ']' after an array element, found '2'"},
    {"[1,\n2", 0, 0, TYJSON_E_TRUNCATED, 5, 2, 2,
     "expected ',' or ']' after an array element, found end of input"},
    {"[1}", 0, 0, TYJSON_E_UNEXPECTED_CHAR, 2, 1, 3,
     "expected ',' or ']' after an array element, found '}'"},
    {"{\n1:2}", 0, 0, TYJSON_E_UNEXPECTED_CHAR, 2, 2, 1,
     "expected an object key (a string) or '}', found '1'"},
    {"{", 0, 0, TYJSON_E_TRUNCATED, 1, 1, 2,
     "expected an object key (a string) or '}', found end of input"},
    {"{\"a\":1,\n}", 0, 0, TYJSON_E_UNEXPECTED_CHAR, 8, 2, 1,
     "expected an object key (a string) after ',', found '}'"},
    {"{\"a\"\n 1}", 0, 0, TYJSON_E_UNEXPECTED_CHAR, 6, 2, 2,
     "expected ':' after an object key, found '1'"},
    {"{\"a\"", 0, 0, TYJSON_E_TRUNCATED, 4, 1, 5, "expected ':' after an object key, found end of input"},
    {"{\"a\":\n}", 0, 0, TYJSON_E_UNEXPECTED_CHAR, 6, 2, 1, "expected a value after ':', found '}'"},
    {"{\"a\":1\n\"b\":2}", 0, 0, TYJSON_E_UNEXPECTED_CHAR, 7, 2, 1,
     "expected ',' or '}' after an object member, found '\"'"},
    {"{\"a\":1 ]", 0, 0, TYJSON_E_UNEXPECTED_CHAR, 7, 1, 8,
     "expected ',' or '}' after an object member, found ']'"},
    /* strings */
    {"[\"ab\ncd\"]", 0, 0, TYJSON_E_STRING_CTRL, 4, 1, 5,
     "expected an escape (\\n, \\t, \\u00XX) for a control character in a string, found a line feed"},
    {"\"\x1f\"", 0, 0, TYJSON_E_STRING_CTRL, 1, 1, 2,
     "expected an escape (\\n, \\t, \\u00XX) for a control character in a string, found U+001F "
     "control character"},
    {"[\n\"\xFF\"]", 0, 0, TYJSON_E_UTF8, 3, 2, 2, "expected UTF-8 text in a string, found byte 0xFF"},
    {"\"\xC3(\"", 0, 0, TYJSON_E_UTF8, 1, 1, 2, "expected UTF-8 text in a string, found bytes 0xC3 0x28"},
    {"{\"\xE2\x82\"", 0, 0, TYJSON_E_UTF8, 2, 1, 3,
     "expected UTF-8 text in a string, found bytes 0xE2 0x82 0x22"},
    {"[\"\xF0\"\"\x9F\"]", 0, 0, TYJSON_E_UTF8, 2, 1, 3,
     "expected UTF-8 text in a string, found bytes 0xF0 0x22"},
    {"\"\xF0\x9F\x98\x80\xED\xA0\x80\"", 0, 0, TYJSON_E_UTF8, 5, 1, 6,
     "expected UTF-8 text in a string, found bytes 0xED 0xA0 0x80"},
    {"\"a\\x\"", 0, 0, TYJSON_E_ESCAPE, 2, 1, 3,
     "expected one of \" \\ / b f n r t u after '\\' in a string, found 'x'"},
    {"{\"a\\ub\"", 0, 0, TYJSON_E_ESCAPE, 3, 1, 4, "expected 4 hex digits after '\\u', found '\"'"},
    {"\"\\u12G4\"", 0, 0, TYJSON_E_ESCAPE, 1, 1, 2, "expected 4 hex digits after '\\u', found 'G'"},
    {"\"\\u12", 0, 0, TYJSON_E_TRUNCATED, 1, 1, 2, "expected 4 hex digits after '\\u', found end of input"},
    {"\"\\", 0, 0, TYJSON_E_TRUNCATED, 1, 1, 2,
     "expected one of \" \\ / b f n r t u after '\\' in a string, found end of input"},
    {"\"\\uD834\"", 0, 0, TYJSON_E_SURROGATE, 1, 1, 2,
     "expected a low surrogate escape (\\uDC00-\\uDFFF) after '\\uD834', found '\"'"},
    {"\"\\uD834\\u0041\"", 0, 0, TYJSON_E_SURROGATE, 1, 1, 2,
     "expected a low surrogate escape (\\uDC00-\\uDFFF) after '\\uD834', found '\\u0041'"},
    {"\"\\uD834\\u00", 0, 0, TYJSON_E_TRUNCATED, 1, 1, 2,
     "expected a low surrogate escape (\\uDC00-\\uDFFF) after '\\uD834', found '\\u00'"},
    {"\"\\ud83d\\u\"", 0, 0, TYJSON_E_SURROGATE, 1, 1, 2,
     "expected a low surrogate escape (\\uDC00-\\uDFFF) after '\\ud83d', found '\\u'"},
    {"[\"\\uDC00\"]", 0, 0, TYJSON_E_SURROGATE, 2, 1, 3,
     "expected a high surrogate escape (\\uD800-\\uDBFF) before '\\uDC00', found it alone"},
    {"[\"abc", 0, 0, TYJSON_E_TRUNCATED, 5, 1, 6, "expected '\"' to end the string, found end of input"},
    {"{\"ab\\n", 0, 0, TYJSON_E_TRUNCATED, 6, 1, 7, "expected '\"' to end the string, found end of input"},
    /* numbers */
    {"[-]", 0, 0, TYJSON_E_NUMBER, 2, 1, 3, "expected a digit after '-', found ']'"},
    {"-", 0, 0, TYJSON_E_TRUNCATED, 1, 1, 2, "expected a digit after '-', found end of input"},
    {"[\n012]", 0, 0, TYJSON_E_NUMBER, 3, 2, 2,
     "expected '.', 'e' or the end of the number after a leading 0, found '1'"},
    {"-01", 0, 0, TYJSON_E_NUMBER, 2, 1, 3,
     "expected '.', 'e' or the end of the number after a leading 0, found '1'"},
    {"1. 2", 0, 0, TYJSON_E_NUMBER, 2, 1, 3, "expected a digit after the decimal point, found a space"},
    {"[1.]", 0, 0, TYJSON_E_NUMBER, 3, 1, 4, "expected a digit after the decimal point, found ']'"},
    {"1.", 0, 0, TYJSON_E_TRUNCATED, 2, 1, 3, "expected a digit after the decimal point, found end of input"},
    {"[1e]", 0, 0, TYJSON_E_NUMBER, 3, 1, 4, "expected a digit in the exponent, found ']'"},
    {"1E+", 0, 0, TYJSON_E_TRUNCATED, 3, 1, 4, "expected a digit in the exponent, found end of input"},
    {"[1e-x]", 0, 0, TYJSON_E_NUMBER, 4, 1, 5, "expected a digit in the exponent, found 'x'"},
    {"[\n100000000000000000000]", 0, 0, TYJSON_E_NUMBER_RANGE, 2, 2, 1,
     "expected an integer from -2^63 to 2^64-1, found '100000000000000000000' (out of range)"},
    {"{\"x\":-1e400}", 0, 0, TYJSON_E_NUMBER_RANGE, 5, 1, 6,
     "expected a number within the range of a double, found '-1e400' (out of range)"},
    /* literals */
    {"[tru e]", 0, 0, TYJSON_E_LITERAL, 1, 1, 2, "expected 'true', found 'tru'"},
    {"fals", 0, 0, TYJSON_E_TRUNCATED, 0, 1, 1, "expected 'false', found end of input after 'fals'"},
    {"[\n nulx]", 0, 0, TYJSON_E_LITERAL, 3, 2, 2, "expected 'null', found 'nulx'"},
    {"{\"a\":nil}", 0, 0, TYJSON_E_LITERAL, 5, 1, 6, "expected 'null', found 'nil'"},
    {"[Nan]", INF, 0, TYJSON_E_LITERAL, 1, 1, 2, "expected 'NaN', found 'Nan'"},
    {"[-Inf", INF, 0, TYJSON_E_TRUNCATED, 1, 1, 2, "expected '-Infinity', found end of input after '-Inf'"},
    {"Infinite", INF, 0, TYJSON_E_LITERAL, 0, 1, 1, "expected 'Infinity', found 'Infinite'"},
    /* comments */
    {"[1, /* x", CMT, 0, TYJSON_E_COMMENT, 4, 1, 5, "expected '*/' to end the comment, found end of input"},
    {"[1]\n/x", CMT, 0, TYJSON_E_UNEXPECTED_CHAR, 4, 2, 1,
     "expected '/' or '*' after '/' to start a comment, found 'x'"},
    {"1 /", CMT, 0, TYJSON_E_TRUNCATED, 2, 1, 3,
     "expected '/' or '*' after '/' to start a comment, found end of input"},
    /* structure */
    {"[[\n[1]]]", 0, 2, TYJSON_E_DEPTH, 3, 2, 1,
     "expected at most 2 nested arrays and objects, found '[' one level deeper"},
    {"{\"a\":{}}", 0, 1, TYJSON_E_DEPTH, 5, 1, 6,
     "expected at most 1 nested arrays and objects, found '{' one level deeper"},
    {"[1]\n x", 0, 0, TYJSON_E_TRAILING, 5, 2, 2, "expected end of input after the JSON value, found 'x'"},
    {"1 2", 0, 0, TYJSON_E_TRAILING, 2, 1, 3, "expected end of input after the JSON value, found '2'"},
    {"{\"a\":1,\n\"a\":2}", DUP, 0, TYJSON_E_DUPLICATE_KEY, 8, 2, 1,
     "expected unique keys in an object, found 'a' again"},
};
#undef DUP
#undef CMT
#undef INF

static void check_stop_same_as_plain(const char *dat, size_t len, tyjson_read_flags flags,
                                     const char *name) {
    tyjson_read_options po = {flags, 0, NULL}, so = {flags | TYJSON_READ_STOP_WHEN_DONE, 0, NULL};
    tyjson_error pe, se;
    tyjson_doc *pd = tyjson_read_opts(dat, len, &po, &pe);
    tyjson_doc *sd = tyjson_read_opts(dat, len, &so, &se);
    if (sd) {
        /* Only trailing content may separate the two. */
        size_t used = tyjson_doc_get_read_size(sd);
        tyjson_doc_free(sd);
        if (pd) {
            tyjson_doc_free(pd);
            return;
        }
        /* What follows the first value is not STOP_WHEN_DONE's business. */
        if (pe.offset < used)
            TEST_FAIL("%s: STOP_WHEN_DONE parsed (%zu bytes), plain failed %s at %zu", name, used,
                      tyjson_status_name(pe.code), pe.offset);
        return;
    }
    if (pd) {
        tyjson_doc_free(pd);
        TEST_FAIL("%s: plain parsed, STOP_WHEN_DONE failed %s at %zu", name,
                  tyjson_status_name(se.code), se.offset);
    }
    if (pe.code != se.code || pe.offset != se.offset || strcmp(pe.msg, se.msg) != 0)
        TEST_FAIL("%s: plain %s at %zu \"%s\", STOP_WHEN_DONE %s at %zu \"%s\"", name,
                  tyjson_status_name(pe.code), pe.offset, pe.msg, tyjson_status_name(se.code),
                  se.offset, se.msg);
}

TEST(error_messages_say_expected_and_found) {
    for (size_t i = 0; i < sizeof(msg_cases) / sizeof(msg_cases[0]); i++) {
        const msg_case *c = &msg_cases[i];
        tyjson_read_options o = {c->flags, c->max_depth, NULL};
        tyjson_error e;
        tyjson_doc *d = tyjson_read_opts(c->json, strlen(c->json), &o, &e);
        if (d) {
            tyjson_doc_free(d);
            TEST_FAIL("case %zu parsed: %s", i, c->json);
        }
        if (e.code != c->code || e.offset != c->offset || e.line != c->line ||
            e.column != c->column || strcmp(e.msg, c->msg) != 0)
            TEST_FAIL("case %zu %s: got %s %zu %zu:%zu \"%s\"\n    want %s %zu %zu:%zu \"%s\"", i,
                      c->json, tyjson_status_name(e.code), e.offset, e.line, e.column, e.msg,
                      tyjson_status_name(c->code), c->offset, c->line, c->column, c->msg);
        /* The same from a file (parsed in place) and with STOP_WHEN_DONE. */
        FILE *fp = tmpfile();
        ASSERT_NOT_NULL(fp);
        fwrite(c->json, 1, strlen(c->json), fp);
        rewind(fp);
        tyjson_error ef;
        ASSERT_NULL(tyjson_read_fp(fp, &o, &ef));
        fclose(fp);
        ASSERT_EQ_STR(ef.msg, c->msg);
        ASSERT_EQ_UINT(ef.line, c->line);
        ASSERT_EQ_UINT(ef.column, c->column);
        check_stop_same_as_plain(c->json, strlen(c->json), c->flags, c->json);
    }
}

/* The message lives in the record: a copy by assignment keeps it after the
 * original is gone, and a message that quotes a long token is cut cleanly. */
TEST(error_copy_keeps_the_message) {
    tyjson_error e, copy;
    ASSERT_NULL(tyjson_read_opts("[1 2]", 5, NULL, &e));
    copy = e;
    memset(&e, 0, sizeof(e));
    ASSERT_EQ_STR(copy.msg, "expected ',' or ']' after an array element, found '2'");
    ASSERT_NULL(tyjson_read_opts(NULL, 1, NULL, &e));
    copy = e;
    ASSERT_EQ_STR(copy.msg, "invalid argument");
    ASSERT_TRUE(strlen(copy.msg) < TYJSON_ERROR_MSG_MAX);
}

/* A message longer than the record holds is cut before a UTF-8 sequence,
 * never inside one, and says so with "...". */
TEST(long_message_cut_at_a_character) {
    char longmsg[400];
    size_t n = 0;
    while (n + 2 < sizeof(longmsg) - 1) {
        longmsg[n++] = (char)0xC3; /* U+00E9, two bytes each */
        longmsg[n++] = (char)0xA9;
    }
    longmsg[n] = 0;
    tyjson_error e;
    tyjson__err_set(&e, TYJSON_E_TYPE, NULL, 0, 0);
    tyjson__err_msg(&e, longmsg);
    size_t len = strlen(e.msg);
    ASSERT_TRUE(len < TYJSON_ERROR_MSG_MAX);
    ASSERT_TRUE(len > TYJSON_ERROR_MSG_MAX - 8);
    ASSERT_EQ_STR(e.msg + len - 3, "...");
    ASSERT_EQ_UINT((len - 3) % 2, 0); /* whole characters only */
    tyjson__err_msg(&e, "short");
    ASSERT_EQ_STR(e.msg, "short");
}

/* ----------------------------------------------------------------------------
 * STOP_WHEN_DONE fails exactly as the plain parse does (issue 9).
 * ------------------------------------------------------------------------- */
TEST(stop_when_done_fails_like_plain_inline) {
    static const char *const cases[] = {
        "nul",   "nul\n",  "nul\nnull", "tru e", "1. 2", "1.\n2", "-\n1",  "fals e",
        "[1,2",  "{\"a\" 1}", "\"ab",   "1e+ 3", "01 ",  "n",     "n\n",  "- ",
        "[tru]", "[1 2]",  "\"\\uD834\" 1", "1ex",  "-Inf x",
        /* skips cleanly, fails to parse: the message quotes the '.' too (fuzz_parse) */
        "454e51155.", "[1e999]x", "\",\"\\ud83d\\u\"\\u80e9c", "\",\xF0\"\"\x9F\x98",
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        check_stop_same_as_plain(cases[i], strlen(cases[i]), 0, cases[i]);
        check_stop_same_as_plain(cases[i], strlen(cases[i]), TYJSON_READ_ALLOW_INF_NAN, cases[i]);
        check_stop_same_as_plain(cases[i], strlen(cases[i]), TYJSON_READ_ALLOW_COMMENTS, cases[i]);
    }
    /* the codes of issue 9 */
    tyjson_read_options so = {TYJSON_READ_STOP_WHEN_DONE, 0, NULL};
    tyjson_error e;
    ASSERT_NULL(tyjson_read_opts("tru e", 5, &so, &e));
    ASSERT_EQ_INT(e.code, TYJSON_E_LITERAL);
    ASSERT_NULL(tyjson_read_opts("1. 2", 4, &so, &e));
    ASSERT_EQ_INT(e.code, TYJSON_E_NUMBER);
    ASSERT_EQ_UINT(e.offset, 2);
    ASSERT_NULL(tyjson_read_opts("nul\nnull\n", 9, &so, &e));
    ASSERT_EQ_INT(e.code, TYJSON_E_LITERAL);
}

TEST(stop_when_done_fails_like_plain_on_test_suite) {
    char dir[512];
    snprintf(dir, sizeof(dir), "%s/conformance/test_parsing", TYJSON_SHARED_DIR);
    DIR *d = opendir(dir);
    if (!d) TEST_SKIP("%s is absent", dir);
    struct dirent *de;
    size_t files = 0;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] != 'n' || de->d_name[1] != '_') continue;
        char path[1024];
        snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
        FILE *fp = fopen(path, "rb");
        if (!fp) continue;
        char *buf = NULL;
        size_t len = 0, cap = 0, got;
        do {
            if (cap - len < 4096) {
                cap = cap ? cap * 2 : 8192;
                char *nb = (char *)realloc(buf, cap);
                ASSERT_NOT_NULL(nb);
                buf = nb;
            }
            got = fread(buf + len, 1, cap - len, fp);
            len += got;
        } while (got);
        fclose(fp);
        check_stop_same_as_plain(buf, len, 0, de->d_name);
        free(buf);
        files++;
    }
    closedir(d);
    ASSERT_TRUE(files >= 180);
}
