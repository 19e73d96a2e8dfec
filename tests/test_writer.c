#define _POSIX_C_SOURCE 200809L /* opendir */
/* test_writer.c - the streaming writer (include/tyjson/writer.h): every call
 * with its exact bytes, minified and pretty output equal to the DOM writer's
 * byte for byte (built-in documents always, the corpus when ../shared is
 * there) under every escaping flag, round trips, every sink (growing buffer,
 * caller's buffer too small, FILE, callback threshold and failure), NDJSON
 * boundaries, every misuse with its path and stickiness, the depth limit,
 * the DOM / mutable / struct / raw values, zero allocations per message
 * after warm-up, and an allocation-failure sweep. */
#define TEST_WANT_JSON_LIST
#include "test.h"
#include "tyjson.h"

#include <math.h>

/* ----------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------- */

/* Finishes a growing-buffer writer and compares its text with want. */
#define ASSERT_TEXT(w, want)                                                   \
    do {                                                                       \
        size_t n__ = 0;                                                        \
        tyjson_error e__;                                                      \
        tyjson_status s__ = tyjson_writer_finish((w), &n__);                   \
        tyjson_writer_error((w), &e__);                                        \
        if (s__ != TYJSON_OK)                                                  \
            TEST_FAIL("finish: %s (%s) at %s", tyjson_status_name(s__), e__.msg, e__.path); \
        ASSERT_EQ_STR(tyjson_writer_text(w), (want));                          \
        ASSERT_EQ_UINT(n__, strlen(want));                                     \
    } while (0)

/* Expects the writer's sticky error: code, path and a message part. */
static void expect_err(tyjson_writer *w, tyjson_status code, const char *path, const char *part) {
    tyjson_error e;
    ASSERT_EQ_INT(tyjson_writer_error(w, &e), code);
    ASSERT_EQ_INT(tyjson_writer_status(w), code);
    if (path) ASSERT_EQ_STR(e.path, path);
    if (part && !strstr(e.msg, part)) TEST_FAIL("message '%s' lacks '%s'", e.msg, part);
    /* sticky: later calls do nothing and return the first error */
    ASSERT_EQ_INT(tyjson_writer_null(w), code);
    ASSERT_EQ_INT(tyjson_writer_begin_array(w), code);
    ASSERT_EQ_INT(tyjson_writer_key(w, "k", 1), code);
    ASSERT_EQ_INT(tyjson_writer_finish(w, NULL), code);
    tyjson_writer_error(w, &e);
    if (path) ASSERT_EQ_STR(e.path, path);
}

/* Writes a DOM value call by call (the test walker; recursion is fine for
 * the documents used here). */
static void emit(tyjson_writer *w, const tyjson_val *v) {
    switch (tyjson_get_type(v)) {
    case TYJSON_TYPE_ARR: {
        tyjson_arr_iter it = tyjson_arr_iter_with(v);
        const tyjson_val *c;
        tyjson_writer_begin_array(w);
        while ((c = tyjson_arr_iter_next(&it))) emit(w, c);
        tyjson_writer_end_array(w);
        break;
    }
    case TYJSON_TYPE_OBJ: {
        tyjson_obj_iter it = tyjson_obj_iter_with(v);
        tyjson_val *k;
        tyjson_writer_begin_object(w);
        while ((k = tyjson_obj_iter_next(&it))) {
            tyjson_writer_key(w, tyjson_get_str(k), tyjson_get_len(k));
            emit(w, tyjson_obj_iter_get_val(k));
        }
        tyjson_writer_end_object(w);
        break;
    }
    case TYJSON_TYPE_STR:
        tyjson_writer_string(w, tyjson_get_str(v), tyjson_get_len(v));
        break;
    case TYJSON_TYPE_NUM:
        if (tyjson_is_uint(v)) tyjson_writer_uint(w, tyjson_get_uint(v));
        else if (tyjson_is_sint(v)) tyjson_writer_int(w, tyjson_get_sint(v));
        else tyjson_writer_double(w, tyjson_get_real(v));
        break;
    case TYJSON_TYPE_BOOL:
        tyjson_writer_bool(w, tyjson_get_bool(v));
        break;
    case TYJSON_TYPE_RAW:
        tyjson_writer_raw(w, tyjson_get_str(v), tyjson_get_len(v), TYJSON_WRITER_RAW_TRUSTED);
        break;
    default:
        tyjson_writer_null(w);
        break;
    }
}

static const tyjson_write_flags flag_sets[] = {
    0,
    TYJSON_WRITE_PRETTY,
    TYJSON_WRITE_ESCAPE_UNICODE,
    TYJSON_WRITE_ESCAPE_SLASH,
    TYJSON_WRITE_PRETTY | TYJSON_WRITE_ESCAPE_UNICODE | TYJSON_WRITE_ESCAPE_SLASH,
    TYJSON_WRITE_NEWLINE_AT_END,
    TYJSON_WRITE_PRETTY | TYJSON_WRITE_NEWLINE_AT_END,
};
#define N_FLAG_SETS (sizeof(flag_sets) / sizeof(flag_sets[0]))

/* The writer's text of doc (call by call, or as one DOM value) under flags
 * and indent equals tyjson_write_opts's, byte for byte; and it parses back
 * to an equal document. */
static void check_equal_dom(const char *name, const tyjson_doc *doc, tyjson_write_flags flags,
                            uint32_t indent) {
    tyjson_write_options wo = {flags, indent, NULL};
    tyjson_writer_options o;
    memset(&o, 0, sizeof(o));
    o.flags = flags;
    o.indent = indent;
    size_t want_len = 0;
    char *want = tyjson_write_opts(doc, &wo, &want_len, NULL);
    ASSERT_NOT_NULL(want);
    tyjson_writer *w = tyjson_writer_new(&o);
    ASSERT_NOT_NULL(w);
    for (int pass = 0; pass < 2; pass++) {
        size_t len = 0;
        tyjson_writer_reset(w);
        if (pass == 0) emit(w, tyjson_doc_get_root(doc));
        else ASSERT_EQ_INT(tyjson_writer_val(w, tyjson_doc_get_root(doc)), TYJSON_OK);
        tyjson_status st = tyjson_writer_finish(w, &len);
        if (st != TYJSON_OK) TEST_FAIL("%s flags %u pass %d: %s", name, flags, pass, tyjson_status_name(st));
        if (len != want_len || memcmp(tyjson_writer_text(w), want, len) != 0)
            TEST_FAIL("%s flags %u indent %u pass %d: writer text differs from the DOM writer's",
                      name, flags, indent, pass);
    }
    /* round trip: the text reads back to the same document */
    tyjson_doc *back = tyjson_read(tyjson_writer_text(w), tyjson_writer_size(w), 0);
    ASSERT_NOT_NULL(back);
    ASSERT_TRUE(tyjson_equals(tyjson_doc_get_root(back), tyjson_doc_get_root(doc)));
    tyjson_doc_free(back);
    tyjson_writer_free(w);
    free(want);
}

static const char *builtin_docs[] = {
    "{}",
    "[]",
    "0",
    "-12.5e-3",
    "\"abc\"",
    "null",
    "[[],{},[[]],{\"a\":{}}]",
    "{\"a\":[1,-2,3.5,18446744073709551615,-9223372036854775808,true,false,null,\"x\"],"
    "\"b\":{\"c\":{},\"d\":[]},\"e\":\"\",\"f\":-0.0,\"g\":1e308,\"h\":5e-324}",
    "[\"\\u00e9\\ud83d\\ude00\\n\\t\\\"\\\\\\/\\b\\f\\r\",\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\","
    "\"\\u0000\\u001f\",{\"k\\u0041/\":\"v\\u20AC\",\"a/b\":\"</script>\"}]",
    "{\"a long key that needs the slow path of more than sixteen bytes\":"
    "\"and a long value with \\\"quotes\\\" and a/slash, longer than sixteen bytes\"}",
    "{\"orders\":[{\"id\":1,\"price\":9.99,\"tags\":[\"a\",\"b\"]},{\"id\":2,\"price\":0.1}]}",
};

TEST(builtin_docs_equal_dom_writer) {
    for (size_t i = 0; i < sizeof(builtin_docs) / sizeof(builtin_docs[0]); i++) {
        tyjson_doc *doc = tyjson_read(builtin_docs[i], strlen(builtin_docs[i]), 0);
        ASSERT_NOT_NULL(doc);
        for (size_t f = 0; f < N_FLAG_SETS; f++) check_equal_dom(builtin_docs[i], doc, flag_sets[f], 0);
        check_equal_dom(builtin_docs[i], doc, TYJSON_WRITE_PRETTY, 4);
        check_equal_dom(builtin_docs[i], doc, TYJSON_WRITE_PRETTY, 1);
        tyjson_doc_free(doc);
    }
}

TEST(corpus_equal_dom_writer) {
    test_json_list fl;
    test_json_list_open(&fl, "corpus");
    for (size_t i = 0; i < fl.count; i++) {
        char path[1200];
        size_t len = 0;
        snprintf(path, sizeof(path), "%s/%s", fl.dir, fl.names[i]);
        char *text = test_read_file(path, &len);
        ASSERT_NOT_NULL(text);
        tyjson_doc *doc = tyjson_read(text, len, 0);
        free(text);
        if (!doc) continue; /* not every corpus file is strict JSON */
        check_equal_dom(fl.names[i], doc, 0, 0);
        check_equal_dom(fl.names[i], doc, TYJSON_WRITE_PRETTY, 0);
        check_equal_dom(fl.names[i], doc, TYJSON_WRITE_ESCAPE_UNICODE | TYJSON_WRITE_ESCAPE_SLASH, 0);
        check_equal_dom(fl.names[i], doc, TYJSON_WRITE_PRETTY | TYJSON_WRITE_ESCAPE_UNICODE, 4);
        tyjson_doc_free(doc);
    }
    test_json_list_free(&fl);
}

/* ----------------------------------------------------------------------------
 * Every call, exact bytes
 * ------------------------------------------------------------------------- */

static void build_all(tyjson_writer *w) {
    ASSERT_EQ_INT(tyjson_writer_begin_object(w), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_key(w, "s", 1), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_string(w, "a\"b\n", 4), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_key_noesc(w, "n", 1), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_string_noesc(w, "plain", 5), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_key(w, "i", 1), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_int(w, INT64_MIN), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_key(w, "u", 1), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_uint(w, UINT64_MAX), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_key(w, "d", 1), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_double(w, 0.1), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_key(w, "f", 1), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_float(w, 3.67f), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_key(w, "x", 1), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_double_fixed(w, 2.675, 2), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_key(w, "a", 1), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_begin_array(w), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_bool(w, true), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_bool(w, false), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_null(w), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_raw(w, " {\"r\" : [1, 2]} ", 16, 0), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_begin_array(w), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_end_array(w), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_begin_object(w), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_end_object(w), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_end_array(w), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_key(w, "", 0), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_string(w, NULL, 0), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_end_object(w), TYJSON_OK);
}

TEST(every_call_minified) {
    tyjson_writer *w = tyjson_writer_new(NULL);
    ASSERT_NOT_NULL(w);
    build_all(w);
    ASSERT_EQ_UINT(tyjson_writer_depth(w), 0);
    ASSERT_TEXT(w, "{\"s\":\"a\\\"b\\n\",\"n\":\"plain\",\"i\":-9223372036854775808,"
                   "\"u\":18446744073709551615,\"d\":0.1,\"f\":3.67,\"x\":2.68,"
                   "\"a\":[true,false,null, {\"r\" : [1, 2]} ,[],{}],\"\":\"\"}");
    tyjson_writer_free(w);
}

TEST(every_call_pretty) {
    tyjson_writer_options o;
    memset(&o, 0, sizeof(o));
    o.flags = TYJSON_WRITE_PRETTY;
    tyjson_writer *w = tyjson_writer_new(&o);
    ASSERT_NOT_NULL(w);
    build_all(w);
    ASSERT_TEXT(w, "{\n  \"s\": \"a\\\"b\\n\",\n  \"n\": \"plain\",\n  \"i\": -9223372036854775808,\n"
                   "  \"u\": 18446744073709551615,\n  \"d\": 0.1,\n  \"f\": 3.67,\n  \"x\": 2.68,\n"
                   "  \"a\": [\n    true,\n    false,\n    null,\n     {\"r\" : [1, 2]} ,\n    [],\n"
                   "    {}\n  ],\n  \"\": \"\"\n}");
    tyjson_writer_free(w);
}

TEST(root_scalars) {
    tyjson_writer *w = tyjson_writer_new(NULL);
    tyjson_writer_int(w, 42);
    ASSERT_TEXT(w, "42");
    tyjson_writer_reset(w);
    tyjson_writer_string(w, "x", 1);
    ASSERT_TEXT(w, "\"x\"");
    tyjson_writer_reset(w);
    tyjson_writer_double(w, 50.0);
    ASSERT_TEXT(w, "50.0");
    tyjson_writer_reset(w);
    tyjson_writer_double(w, -0.0);
    ASSERT_TEXT(w, "-0.0");
    tyjson_writer_free(w);
}

TEST(doubles_fixed_and_float) {
    static const struct { double v; int prec; const char *want; } cases[] = {
        {2.675, 2, "2.68"},    {0.125, 2, "0.13"},     {1.0, 3, "1.000"},
        {0.0, 1, "0.0"},       {-0.0, 1, "-0.0"},      {-1.5, 0 + 1, "-1.5"},
        {0.005, 2, "0.01"},    {0.004, 2, "0.00"},     {9.995, 2, "10.00"},
        {123456.789, 1, "123456.8"}, {1e-7, 3, "0.000"}, {99.5, 1, "99.5"},
        {1e20, 2, "100000000000000000000.00"}, {1e21, 2, "1e21"}, {3.14159, 15, "3.141590000000000"},
        {-0.0004, 3, "-0.000"}, {0.5, 1, "0.5"}, {0.95, 1, "1.0"},
    };
    tyjson_writer *w = tyjson_writer_new(NULL);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        tyjson_writer_reset(w);
        ASSERT_EQ_INT(tyjson_writer_double_fixed(w, cases[i].v, cases[i].prec), TYJSON_OK);
        ASSERT_TEXT(w, cases[i].want);
    }
    tyjson_writer_reset(w);
    ASSERT_EQ_INT(tyjson_writer_double_fixed(w, 1.0, 0), TYJSON_E_INVALID_ARG);
    tyjson_writer_reset(w);
    ASSERT_EQ_INT(tyjson_writer_double_fixed(w, 1.0, 16), TYJSON_E_INVALID_ARG);
    tyjson_writer_reset(w);
    tyjson_writer_float(w, 0.1f);
    ASSERT_TEXT(w, "0.1");
    tyjson_writer_reset(w);
    tyjson_writer_float(w, 16777216.0f);
    ASSERT_TEXT(w, "16777216.0");
    tyjson_writer_free(w);
}

TEST(nan_inf) {
    tyjson_writer *w = tyjson_writer_new(NULL);
    tyjson_writer_begin_object(w);
    tyjson_writer_key(w, "orders", 6);
    tyjson_writer_begin_array(w);
    for (int i = 0; i < 3; i++) tyjson_writer_null(w);
    tyjson_writer_begin_object(w);
    tyjson_writer_key(w, "price", 5);
    ASSERT_EQ_INT(tyjson_writer_double(w, NAN), TYJSON_E_NAN_INF);
    expect_err(w, TYJSON_E_NAN_INF, "$.orders[3].price", "NaN");
    tyjson_writer_reset(w);
    ASSERT_EQ_INT(tyjson_writer_status(w), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_float(w, -INFINITY), TYJSON_E_NAN_INF);
    expect_err(w, TYJSON_E_NAN_INF, "$", "infinity");
    tyjson_writer_free(w);

    tyjson_writer_options o;
    memset(&o, 0, sizeof(o));
    o.flags = TYJSON_WRITE_ALLOW_INF_NAN;
    w = tyjson_writer_new(&o);
    tyjson_writer_begin_array(w);
    tyjson_writer_double(w, NAN);
    tyjson_writer_double(w, INFINITY);
    tyjson_writer_float(w, -INFINITY);
    tyjson_writer_double_fixed(w, NAN, 2);
    tyjson_writer_end_array(w);
    ASSERT_TEXT(w, "[NaN,Infinity,-Infinity,NaN]");
    tyjson_writer_free(w);
}

/* The number options, as the DOM writer applies them. */
TEST(number_options) {
    tyjson_writer_options o;
    memset(&o, 0, sizeof(o));
    o.flags = TYJSON_WRITE_INF_NAN_AS_NULL | TYJSON_WRITE_ALLOW_INF_NAN;
    tyjson_writer *w = tyjson_writer_new(&o);
    tyjson_writer_begin_array(w);
    tyjson_writer_double(w, NAN);
    tyjson_writer_float(w, -INFINITY);
    tyjson_writer_double_fixed(w, INFINITY, 2);
    tyjson_writer_double(w, 0.5);
    tyjson_writer_end_array(w);
    ASSERT_TEXT(w, "[null,null,null,0.5]");
    tyjson_writer_free(w);

    o.flags = TYJSON_WRITE_FP_FIXED(2);
    w = tyjson_writer_new(&o);
    tyjson_writer_begin_array(w);
    tyjson_writer_double(w, 2.675);
    tyjson_writer_float(w, 3.67f);
    tyjson_writer_int(w, 7);
    tyjson_writer_double_fixed(w, 1.0, 4); /* its own precision wins */
    tyjson_writer_end_array(w);
    ASSERT_TEXT(w, "[2.68,3.67,7,1.0000]");
    tyjson_writer_free(w);

    /* the pretty path, and refusal writes nothing: not even a comma */
    o.flags = TYJSON_WRITE_FP_TO_FLOAT | TYJSON_WRITE_PRETTY;
    w = tyjson_writer_new(&o);
    tyjson_writer_begin_array(w);
    tyjson_writer_double(w, 0.1);
    ASSERT_EQ_INT(tyjson_writer_double(w, 1e300), TYJSON_E_NAN_INF);
    expect_err(w, TYJSON_E_NAN_INF, "$[1]", "infinity");
    tyjson_writer_reset(w);
    tyjson_writer_begin_array(w);
    tyjson_writer_double(w, 0.1);
    tyjson_writer_end_array(w);
    ASSERT_TEXT(w, "[\n  0.1\n]");
    tyjson_writer_free(w);

    /* DOM and mutable values written through the writer follow its flags */
    tyjson_read_options ro = {TYJSON_READ_ALLOW_INF_NAN, 0, NULL};
    tyjson_doc *doc = tyjson_read_opts("[NaN,2.675]", 11, &ro, NULL);
    ASSERT_NOT_NULL(doc);
    tyjson_mut_doc *mdoc = tyjson_doc_mut_copy(doc, NULL);
    o.flags = TYJSON_WRITE_INF_NAN_AS_NULL | TYJSON_WRITE_FP_FIXED(1);
    w = tyjson_writer_new(&o);
    tyjson_writer_begin_array(w);
    ASSERT_EQ_INT(tyjson_writer_val(w, tyjson_doc_get_root(doc)), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_mut_val(w, tyjson_mut_doc_get_root(mdoc)), TYJSON_OK);
    tyjson_writer_end_array(w);
    ASSERT_TEXT(w, "[[null,2.7],[null,2.7]]");
    tyjson_writer_free(w);
    tyjson_mut_doc_free(mdoc);
    tyjson_doc_free(doc);
}

TEST(escaping_flags_and_utf8) {
    tyjson_writer_options o;
    memset(&o, 0, sizeof(o));
    o.flags = TYJSON_WRITE_ESCAPE_UNICODE | TYJSON_WRITE_ESCAPE_SLASH;
    tyjson_writer *w = tyjson_writer_new(&o);
    tyjson_writer_begin_object(w);
    tyjson_writer_key(w, "a/\xc3\xa9", 4);
    tyjson_writer_string(w, "\xf0\x9f\x98\x80/", 5);
    tyjson_writer_end_object(w);
    ASSERT_TEXT(w, "{\"a\\/\\u00e9\":\"\\ud83d\\ude00\\/\"}");
    tyjson_writer_free(w);

    w = tyjson_writer_new(NULL);
    tyjson_writer_begin_object(w);
    tyjson_writer_key(w, "bad", 3);
    ASSERT_EQ_INT(tyjson_writer_string(w, "x\xff", 2), TYJSON_E_UTF8);
    expect_err(w, TYJSON_E_UTF8, "$.bad", "UTF-8");
    tyjson_writer_reset(w);
    tyjson_writer_begin_object(w);
    ASSERT_EQ_INT(tyjson_writer_key(w, "\xc0\x80", 2), TYJSON_E_UTF8);
    tyjson_writer_free(w);

    o.flags = TYJSON_WRITE_REPLACE_INVALID_UTF8;
    w = tyjson_writer_new(&o);
    tyjson_writer_string(w, "x\xff", 2);
    ASSERT_TEXT(w, "\"x\xef\xbf\xbd\"");
    tyjson_writer_free(w);
}

TEST(long_strings_and_keys) {
    /* longer than a reservation and than the scratch chunk */
    size_t n = 100000;
    char *s = (char *)malloc(n);
    for (size_t i = 0; i < n; i++) s[i] = (char)('a' + i % 26);
    s[5] = '"';
    for (int noesc = 0; noesc < 2; noesc++) {
        tyjson_writer *w = tyjson_writer_new(NULL);
        tyjson_writer_begin_object(w);
        if (noesc) {
            s[5] = 'x';
            tyjson_writer_key_noesc(w, s, n);
            tyjson_writer_string_noesc(w, s, n);
        } else {
            tyjson_writer_key(w, s, n);
            tyjson_writer_string(w, s, n);
        }
        tyjson_writer_end_object(w);
        size_t len;
        ASSERT_EQ_INT(tyjson_writer_finish(w, &len), TYJSON_OK);
        tyjson_doc *doc = tyjson_read(tyjson_writer_text(w), len, 0);
        ASSERT_NOT_NULL(doc);
        tyjson_val *v = tyjson_obj_getn(tyjson_doc_get_root(doc), s, n);
        ASSERT_NOT_NULL(v);
        ASSERT_EQ_UINT(tyjson_get_len(v), n);
        ASSERT_EQ_MEM(tyjson_get_str(v), s, n);
        tyjson_doc_free(doc);
        tyjson_writer_free(w);
    }
    free(s);
}

/* ----------------------------------------------------------------------------
 * Misuse: an error with the path, never bad JSON; sticky
 * ------------------------------------------------------------------------- */

TEST(misuse_value_where_key_due) {
    tyjson_writer *w = tyjson_writer_new(NULL);
    tyjson_writer_begin_object(w);
    tyjson_writer_key(w, "orders", 6);
    tyjson_writer_begin_array(w);
    tyjson_writer_int(w, 1);
    tyjson_writer_begin_object(w);
    ASSERT_EQ_INT(tyjson_writer_int(w, 5), TYJSON_E_STATE);
    expect_err(w, TYJSON_E_STATE, "$.orders[1]", "expected a key");
    tyjson_writer_free(w);
}

TEST(misuse_key_outside_object) {
    tyjson_writer *w = tyjson_writer_new(NULL);
    ASSERT_EQ_INT(tyjson_writer_key(w, "a", 1), TYJSON_E_STATE);
    expect_err(w, TYJSON_E_STATE, "$", "at the root");
    tyjson_writer_reset(w);
    tyjson_writer_begin_array(w);
    tyjson_writer_null(w);
    ASSERT_EQ_INT(tyjson_writer_key_noesc(w, "a", 1), TYJSON_E_STATE);
    expect_err(w, TYJSON_E_STATE, "$[1]", "in an array");
    tyjson_writer_reset(w);
    tyjson_writer_begin_object(w);
    tyjson_writer_key(w, "odd key", 7);
    ASSERT_EQ_INT(tyjson_writer_key(w, "b", 1), TYJSON_E_STATE);
    expect_err(w, TYJSON_E_STATE, "$[\"odd key\"]", "after a key");
    tyjson_writer_free(w);
}

TEST(misuse_ends) {
    tyjson_writer *w = tyjson_writer_new(NULL);
    ASSERT_EQ_INT(tyjson_writer_end_object(w), TYJSON_E_STATE);
    expect_err(w, TYJSON_E_STATE, "$", "no container open");
    tyjson_writer_reset(w);
    ASSERT_EQ_INT(tyjson_writer_end_array(w), TYJSON_E_STATE);
    tyjson_writer_reset(w);
    tyjson_writer_begin_array(w);
    ASSERT_EQ_INT(tyjson_writer_end_object(w), TYJSON_E_STATE);
    expect_err(w, TYJSON_E_STATE, "$[0]", "innermost open container is an array");
    tyjson_writer_reset(w);
    tyjson_writer_begin_object(w);
    ASSERT_EQ_INT(tyjson_writer_end_array(w), TYJSON_E_STATE);
    expect_err(w, TYJSON_E_STATE, "$", "is an object");
    tyjson_writer_reset(w);
    tyjson_writer_begin_object(w);
    tyjson_writer_key(w, "k", 1);
    ASSERT_EQ_INT(tyjson_writer_end_object(w), TYJSON_E_STATE);
    expect_err(w, TYJSON_E_STATE, "$.k", "value is missing");
    tyjson_writer_free(w);
}

TEST(misuse_second_root_and_finish) {
    tyjson_writer *w = tyjson_writer_new(NULL);
    tyjson_writer_int(w, 1);
    ASSERT_EQ_INT(tyjson_writer_int(w, 2), TYJSON_E_STATE);
    expect_err(w, TYJSON_E_STATE, "$", "end_message");
    tyjson_writer_reset(w);
    ASSERT_EQ_INT(tyjson_writer_finish(w, NULL), TYJSON_E_STATE);
    expect_err(w, TYJSON_E_STATE, "$", "before any value");
    tyjson_writer_reset(w);
    tyjson_writer_begin_array(w);
    tyjson_writer_begin_object(w);
    tyjson_writer_key(w, "a", 1);
    ASSERT_EQ_INT(tyjson_writer_finish(w, NULL), TYJSON_E_STATE);
    expect_err(w, TYJSON_E_STATE, "$[0].a", "2 containers open");
    tyjson_writer_reset(w);
    tyjson_writer_null(w);
    ASSERT_EQ_INT(tyjson_writer_finish(w, NULL), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_null(w), TYJSON_E_STATE);
    expect_err(w, TYJSON_E_STATE, NULL, "after tyjson_writer_finish");
    tyjson_writer_reset(w);
    tyjson_writer_begin_array(w);
    ASSERT_EQ_INT(tyjson_writer_end_message(w), TYJSON_E_STATE);
    tyjson_writer_reset(w);
    ASSERT_EQ_INT(tyjson_writer_end_message(w), TYJSON_E_STATE);
    tyjson_writer_free(w);
}

TEST(misuse_null_args) {
    ASSERT_EQ_INT(tyjson_writer_null(NULL), TYJSON_E_INVALID_ARG);
    ASSERT_EQ_INT(tyjson_writer_key(NULL, "a", 1), TYJSON_E_INVALID_ARG);
    ASSERT_EQ_INT(tyjson_writer_finish(NULL, NULL), TYJSON_E_INVALID_ARG);
    ASSERT_EQ_INT(tyjson_writer_status(NULL), TYJSON_E_INVALID_ARG);
    ASSERT_EQ_INT(tyjson_writer_val(NULL, NULL), TYJSON_E_INVALID_ARG);
    ASSERT_NULL(tyjson_writer_new_fp(NULL, NULL));
    ASSERT_NULL(tyjson_writer_new_cb(NULL, NULL, NULL));
    ASSERT_NULL(tyjson_writer_new_buf(NULL, 5, NULL));
    ASSERT_NULL(tyjson_writer_text(NULL));
    ASSERT_EQ_UINT(tyjson_writer_size(NULL), 0);
    tyjson_writer_free(NULL);
    tyjson_writer_reset(NULL);
    tyjson_writer *w = tyjson_writer_new(NULL);
    ASSERT_EQ_INT(tyjson_writer_val(w, NULL), TYJSON_E_INVALID_ARG);
    tyjson_writer_reset(w);
    ASSERT_EQ_INT(tyjson_writer_string(w, NULL, 3), TYJSON_E_INVALID_ARG);
    tyjson_writer_reset(w);
    ASSERT_EQ_INT(tyjson_writer_struct(w, NULL, NULL), TYJSON_E_INVALID_ARG);
    ASSERT_EQ_INT(tyjson_writer_reset_buf(w, NULL, 4), TYJSON_E_INVALID_ARG);
    tyjson_writer_free(w);
}

TEST(depth_limit) {
    tyjson_writer_options o;
    memset(&o, 0, sizeof(o));
    o.max_depth = 3;
    tyjson_writer *w = tyjson_writer_new(&o);
    tyjson_writer_begin_array(w);
    tyjson_writer_begin_object(w);
    tyjson_writer_key(w, "x", 1);
    ASSERT_EQ_INT(tyjson_writer_begin_array(w), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_begin_array(w), TYJSON_E_DEPTH);
    expect_err(w, TYJSON_E_DEPTH, "$[0].x[0]", "max_depth (3)");
    tyjson_writer_free(w);

    /* the default: the reader's 1024 levels, written and read back */
    w = tyjson_writer_new(NULL);
    for (int i = 0; i < 1024; i++) ASSERT_EQ_INT(tyjson_writer_begin_array(w), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_begin_object(w), TYJSON_E_DEPTH);
    tyjson_writer_reset(w);
    for (int i = 0; i < 1024; i++) tyjson_writer_begin_array(w);
    for (int i = 0; i < 1024; i++) tyjson_writer_end_array(w);
    size_t len;
    ASSERT_EQ_INT(tyjson_writer_finish(w, &len), TYJSON_OK);
    tyjson_doc *doc = tyjson_read(tyjson_writer_text(w), len, 0);
    ASSERT_NOT_NULL(doc);
    tyjson_doc_free(doc);
    tyjson_writer_free(w);
}

/* ----------------------------------------------------------------------------
 * Sinks
 * ------------------------------------------------------------------------- */

static void build_medium(tyjson_writer *w, int n) {
    tyjson_writer_begin_array(w);
    for (int i = 0; i < n; i++) {
        tyjson_writer_begin_object(w);
        tyjson_writer_key_noesc(w, "id", 2);
        tyjson_writer_int(w, i);
        tyjson_writer_key(w, "name", 4);
        tyjson_writer_string(w, "some name here", 14);
        tyjson_writer_end_object(w);
    }
    tyjson_writer_end_array(w);
}

static char *heap_text(int n, tyjson_write_flags flags, size_t *len) {
    tyjson_writer_options o;
    memset(&o, 0, sizeof(o));
    o.flags = flags;
    tyjson_writer *w = tyjson_writer_new(&o);
    build_medium(w, n);
    if (tyjson_writer_finish(w, len) != TYJSON_OK) return NULL;
    char *t = (char *)malloc(*len + 1);
    memcpy(t, tyjson_writer_text(w), *len + 1);
    tyjson_writer_free(w);
    return t;
}

TEST(sink_fixed_buffer) {
    size_t want_len;
    char *want = heap_text(300, 0, &want_len);
    ASSERT_NOT_NULL(want);
    char *buf = (char *)malloc(want_len + 16);
    /* fits exactly (with the NUL), too small by one, and far too small */
    size_t caps[] = {want_len + 1, want_len, 10, 0};
    for (size_t c = 0; c < 4; c++) {
        memset(buf, 'Z', want_len + 16);
        tyjson_writer *w = tyjson_writer_new_buf(caps[c] ? buf : NULL, caps[c], NULL);
        ASSERT_NOT_NULL(w);
        build_medium(w, 300);
        size_t len = 0;
        tyjson_status st = tyjson_writer_finish(w, &len);
        ASSERT_EQ_UINT(len, want_len);
        if (c == 0) {
            ASSERT_EQ_INT(st, TYJSON_OK);
            ASSERT_EQ_STR(buf, want);
            ASSERT_TRUE(tyjson_writer_text(w) == buf);
        } else {
            ASSERT_EQ_INT(st, TYJSON_E_BUF_TOO_SMALL);
            ASSERT_EQ_INT(tyjson_writer_status(w), TYJSON_E_BUF_TOO_SMALL);
            /* never written past cap */
            ASSERT_EQ_INT(buf[caps[c]], 'Z');
        }
        tyjson_writer_free(w);
    }
    /* reset_buf: one writer over successive pieces of one buffer */
    tyjson_writer *w = tyjson_writer_new(NULL);
    size_t pos = 0;
    for (int i = 0; i < 3; i++) {
        ASSERT_EQ_INT(tyjson_writer_reset_buf(w, buf + pos, want_len + 16 - pos), TYJSON_OK);
        tyjson_writer_int(w, i * 11);
        size_t len;
        ASSERT_EQ_INT(tyjson_writer_finish(w, &len), TYJSON_OK);
        pos += len;
    }
    ASSERT_EQ_MEM(buf, "01122", 5);
    /* back to the growing buffer */
    ASSERT_EQ_INT(tyjson_writer_reset_heap(w), TYJSON_OK);
    tyjson_writer_null(w);
    ASSERT_TEXT(w, "null");
    tyjson_writer_free(w);
    free(buf);
    free(want);
}

TEST(sink_file) {
    size_t want_len;
    char *want = heap_text(2000, TYJSON_WRITE_PRETTY, &want_len);
    FILE *fp = tmpfile();
    ASSERT_NOT_NULL(fp);
    tyjson_writer_options o;
    memset(&o, 0, sizeof(o));
    o.flags = TYJSON_WRITE_PRETTY;
    tyjson_writer *w = tyjson_writer_new_fp(fp, &o);
    ASSERT_NOT_NULL(w);
    ASSERT_NULL(tyjson_writer_text(w));
    build_medium(w, 2000);
    size_t len;
    ASSERT_EQ_INT(tyjson_writer_finish(w, &len), TYJSON_OK);
    ASSERT_EQ_UINT(len, want_len);
    rewind(fp);
    char *got = (char *)malloc(want_len + 1);
    ASSERT_EQ_UINT(fread(got, 1, want_len + 1, fp), want_len);
    ASSERT_EQ_MEM(got, want, want_len);
    fclose(fp);
    free(got);
    free(want);
    tyjson_writer_free(w);
}

typedef struct cb_sink {
    char *buf;
    size_t len, cap;
    size_t calls, max_piece;
    size_t fail_after; /* calls; SIZE_MAX = never */
} cb_sink;

static int cb_collect(void *ctx, const char *data, size_t len) {
    cb_sink *s = (cb_sink *)ctx;
    if (s->calls++ >= s->fail_after) return 1;
    if (len > s->max_piece) s->max_piece = len;
    if (s->len + len > s->cap) {
        s->cap = (s->len + len) * 2;
        s->buf = (char *)realloc(s->buf, s->cap);
    }
    memcpy(s->buf + s->len, data, len);
    s->len += len;
    return 0;
}

TEST(sink_callback_threshold) {
    size_t want_len;
    char *want = heap_text(3000, 0, &want_len);
    cb_sink s = {NULL, 0, 0, 0, 0, SIZE_MAX};
    tyjson_writer_options o;
    memset(&o, 0, sizeof(o));
    o.flush_threshold = 5000;
    tyjson_writer *w = tyjson_writer_new_cb(cb_collect, &s, &o);
    ASSERT_NOT_NULL(w);
    build_medium(w, 3000);
    /* pieces were handed over while writing, each within the threshold */
    ASSERT_TRUE(s.calls >= want_len / 5000);
    ASSERT_EQ_INT(tyjson_writer_flush(w), TYJSON_OK);
    size_t before = s.len;
    ASSERT_EQ_UINT(before, tyjson_writer_size(w));
    ASSERT_EQ_INT(tyjson_writer_finish(w, NULL), TYJSON_OK);
    ASSERT_TRUE(s.max_piece <= 5000);
    ASSERT_EQ_UINT(s.len, want_len);
    ASSERT_EQ_MEM(s.buf, want, want_len);
    tyjson_writer_free(w);
    free(s.buf);
    free(want);

    /* the callback fails: E_CALLBACK, sticky, with the path */
    cb_sink f = {NULL, 0, 0, 0, 0, 1};
    w = tyjson_writer_new_cb(cb_collect, &f, NULL);
    tyjson_writer_begin_array(w);
    tyjson_status st = TYJSON_OK;
    for (int i = 0; i < 100000 && st == TYJSON_OK; i++) st = tyjson_writer_string(w, "abcdefghij", 10);
    ASSERT_EQ_INT(st, TYJSON_E_CALLBACK);
    ASSERT_EQ_INT(tyjson_writer_finish(w, NULL), TYJSON_E_CALLBACK);
    expect_err(w, TYJSON_E_CALLBACK, NULL, NULL);
    tyjson_error e;
    tyjson_writer_error(w, &e);
    ASSERT_TRUE(strncmp(e.path, "$[", 2) == 0);
    tyjson_writer_free(w);
    free(f.buf);

    /* a failure at finish's flush */
    cb_sink g = {NULL, 0, 0, 0, 0, 0};
    w = tyjson_writer_new_cb(cb_collect, &g, NULL);
    tyjson_writer_null(w);
    ASSERT_EQ_INT(tyjson_writer_finish(w, NULL), TYJSON_E_CALLBACK);
    tyjson_writer_free(w);
    free(g.buf);
}

TEST(ndjson_boundaries) {
    tyjson_writer_options o;
    memset(&o, 0, sizeof(o));
    o.flags = TYJSON_WRITE_NEWLINE_AT_END;
    tyjson_writer *w = tyjson_writer_new(&o);
    for (int i = 0; i < 3; i++) {
        tyjson_writer_begin_object(w);
        tyjson_writer_key(w, "n", 1);
        tyjson_writer_int(w, i);
        tyjson_writer_end_object(w);
        ASSERT_EQ_INT(tyjson_writer_end_message(w), TYJSON_OK);
    }
    ASSERT_TEXT(w, "{\"n\":0}\n{\"n\":1}\n{\"n\":2}\n");
    tyjson_writer_reset(w);
    tyjson_writer_int(w, 1);
    tyjson_writer_end_message(w);
    tyjson_writer_int(w, 2);
    ASSERT_TEXT(w, "1\n2\n"); /* NEWLINE_AT_END after the last root */
    tyjson_writer_free(w);
    /* each line reads back */
    w = tyjson_writer_new(NULL);
    for (int i = 0; i < 50; i++) {
        tyjson_writer_begin_array(w);
        tyjson_writer_int(w, i);
        tyjson_writer_end_array(w);
        tyjson_writer_end_message(w);
    }
    size_t len;
    ASSERT_EQ_INT(tyjson_writer_finish(w, &len), TYJSON_OK);
    const char *t = tyjson_writer_text(w);
    size_t lines = 0;
    for (const char *p = t; p < t + len;) {
        const char *nl = strchr(p, '\n');
        ASSERT_NOT_NULL(nl);
        tyjson_doc *d = tyjson_read(p, (size_t)(nl - p), 0);
        ASSERT_NOT_NULL(d);
        ASSERT_EQ_INT(tyjson_get_sint(tyjson_arr_get_first(tyjson_doc_get_root(d))), (int64_t)lines);
        tyjson_doc_free(d);
        lines++;
        p = nl + 1;
    }
    ASSERT_EQ_UINT(lines, 50);
    tyjson_writer_free(w);
}

/* ----------------------------------------------------------------------------
 * Values of the other front doors, raw text
 * ------------------------------------------------------------------------- */

TEST(raw_text) {
    tyjson_writer *w = tyjson_writer_new(NULL);
    tyjson_writer_begin_object(w);
    tyjson_writer_key(w, "r", 1);
    ASSERT_EQ_INT(tyjson_writer_raw(w, "[1,", 3, 0), TYJSON_E_TRUNCATED);
    expect_err(w, TYJSON_E_TRUNCATED, "$.r", "raw JSON text is invalid");
    tyjson_writer_reset(w);
    ASSERT_EQ_INT(tyjson_writer_raw(w, "", 0, 0), TYJSON_E_EMPTY);
    tyjson_writer_reset(w);
    ASSERT_EQ_INT(tyjson_writer_raw(w, "1 2", 3, 0), TYJSON_E_TRAILING);
    tyjson_writer_reset(w);
    /* trusted: copied unchecked */
    tyjson_writer_begin_array(w);
    ASSERT_EQ_INT(tyjson_writer_raw(w, "123456789012345678901234567890", 30, TYJSON_WRITER_RAW_TRUSTED),
                  TYJSON_OK);
    tyjson_writer_raw(w, "{}", 2, 0);
    tyjson_writer_end_array(w);
    ASSERT_TEXT(w, "[123456789012345678901234567890,{}]");
    tyjson_writer_free(w);
}

TEST(dom_and_mutable_values_nested) {
    const char *src = "{\"a\":[1,{\"b\":[]}],\"c\":\"\xc3\xa9/\"}";
    tyjson_doc *doc = tyjson_read(src, strlen(src), 0);
    tyjson_mut_doc *md = tyjson_doc_mut_copy(doc, NULL);
    /* [x, {"k": x}] with x written by the DOM writer vs the same parsed */
    char whole[256];
    snprintf(whole, sizeof(whole), "[%s,{\"k\":%s,\"m\":%s}]", src, src, src);
    tyjson_doc *wdoc = tyjson_read(whole, strlen(whole), 0);
    for (size_t f = 0; f < N_FLAG_SETS; f++) {
        tyjson_writer_options o;
        memset(&o, 0, sizeof(o));
        o.flags = flag_sets[f];
        tyjson_write_options wo = {flag_sets[f], 0, NULL};
        char *want = tyjson_write_opts(wdoc, &wo, NULL, NULL);
        tyjson_writer *w = tyjson_writer_new(&o);
        tyjson_writer_begin_array(w);
        ASSERT_EQ_INT(tyjson_writer_val(w, tyjson_doc_get_root(doc)), TYJSON_OK);
        tyjson_writer_begin_object(w);
        tyjson_writer_key(w, "k", 1);
        ASSERT_EQ_INT(tyjson_writer_val(w, tyjson_doc_get_root(doc)), TYJSON_OK);
        tyjson_writer_key(w, "m", 1);
        ASSERT_EQ_INT(tyjson_writer_mut_val(w, tyjson_mut_doc_get_root(md)), TYJSON_OK);
        tyjson_writer_end_object(w);
        tyjson_writer_end_array(w);
        ASSERT_TEXT(w, want);
        free(want);
        tyjson_writer_free(w);
    }
    /* the DOM writer's error carries the writer's path */
    tyjson_mut_doc *bad = tyjson_mut_doc_new(NULL);
    tyjson_mut_val *arr = tyjson_mut_arr(bad);
    tyjson_mut_arr_add_real(bad, arr, NAN);
    tyjson_writer *w = tyjson_writer_new(NULL);
    tyjson_writer_begin_object(w);
    tyjson_writer_key(w, "v", 1);
    ASSERT_EQ_INT(tyjson_writer_mut_val(w, arr), TYJSON_E_NAN_INF);
    expect_err(w, TYJSON_E_NAN_INF, "$.v", NULL);
    tyjson_writer_free(w);
    tyjson_mut_doc_free(bad);
    tyjson_mut_doc_free(md);
    tyjson_doc_free(wdoc);
    tyjson_doc_free(doc);
}

typedef struct rec {
    int64_t id;
    tyjson_str name;
    double price;
} rec;
static const tyjson_field rec_fields[] = {
    TYJSON_FIELD_I64(rec, id, "id"),
    TYJSON_FIELD_STR(rec, name, "name"),
    TYJSON_FIELD_F64(rec, price, "price"),
};
static tyjson_struct rec_type = TYJSON_STRUCT(rec, rec_fields, 0);

TEST(struct_records_into_array) {
    rec recs[3] = {{1, {"one", 3}, 1.5}, {2, {"two", 3}, 0.25}, {3, {"thr\"ee", 6}, 10.0}};
    for (int pretty = 0; pretty < 2; pretty++) {
        tyjson_writer_options o;
        memset(&o, 0, sizeof(o));
        o.flags = pretty ? TYJSON_WRITE_PRETTY : 0;
        tyjson_write_options wo = {o.flags, 0, NULL};
        tyjson_writer *w = tyjson_writer_new(&o);
        /* {"data": [records...]} */
        tyjson_writer_begin_object(w);
        tyjson_writer_key(w, "data", 4);
        tyjson_writer_begin_array(w);
        for (int i = 0; i < 3; i++) ASSERT_EQ_INT(tyjson_writer_struct(w, &rec_type, &recs[i]), TYJSON_OK);
        tyjson_writer_end_array(w);
        tyjson_writer_end_object(w);
        size_t len;
        ASSERT_EQ_INT(tyjson_writer_finish(w, &len), TYJSON_OK);
        /* the same as the DOM writer's text of the parsed result, and each
         * record as tyjson_encode writes it */
        tyjson_doc *d = tyjson_read(tyjson_writer_text(w), len, 0);
        ASSERT_NOT_NULL(d);
        char *again = tyjson_write_opts(d, &wo, NULL, NULL);
        ASSERT_EQ_STR(again, tyjson_writer_text(w));
        free(again);
        tyjson_val *arr = tyjson_obj_get(tyjson_doc_get_root(d), "data");
        ASSERT_EQ_UINT(tyjson_arr_size(arr), 3);
        char *one = tyjson_encode(&rec_type, &recs[2], NULL, NULL, NULL);
        char *two = tyjson_val_write_opts(tyjson_arr_get(arr, 2), NULL, NULL, NULL);
        ASSERT_EQ_STR(one, two);
        free(one);
        free(two);
        tyjson_doc_free(d);
        tyjson_writer_free(w);
    }
    /* an encoder error names the writer's path */
    rec badrec = {1, {"x", 1}, NAN};
    tyjson_writer *w = tyjson_writer_new(NULL);
    tyjson_writer_begin_array(w);
    tyjson_writer_struct(w, &rec_type, &recs[0]);
    ASSERT_EQ_INT(tyjson_writer_struct(w, &rec_type, &badrec), TYJSON_E_NAN_INF);
    expect_err(w, TYJSON_E_NAN_INF, "$[1]", NULL);
    tyjson_writer_free(w);
}

/* ----------------------------------------------------------------------------
 * Memory: zero allocations after warm-up; allocation failures
 * ------------------------------------------------------------------------- */

TEST(no_allocation_after_warm_up) {
    test_alloc t;
    tyjson_alloc a = test_alloc_make(&t, SIZE_MAX);
    tyjson_writer_options o;
    memset(&o, 0, sizeof(o));
    o.alc = &a;
    for (int pretty = 0; pretty < 2; pretty++) {
        o.flags = pretty ? TYJSON_WRITE_PRETTY : 0;
        t.calls = 0;
        tyjson_writer *w = tyjson_writer_new(&o);
        ASSERT_EQ_UINT(t.calls, 2); /* the writer; its first buffer */
        for (int round = 0; round < 2; round++) {
            size_t before = t.calls;
            for (int m = 0; m < 1000; m++) {
                tyjson_writer_reset(w);
                build_medium(w, 50);
                ASSERT_EQ_INT(tyjson_writer_finish(w, NULL), TYJSON_OK);
            }
            if (round == 1) ASSERT_EQ_UINT(t.calls, before); /* steady state: none */
        }
        tyjson_writer_free(w);
        ASSERT_EQ_INT(t.live, 0);
    }
    /* the caller's buffer: the writer's one block, nothing per message */
    char buf[4096];
    t.calls = 0;
    tyjson_writer *w = tyjson_writer_new_buf(buf, sizeof(buf), &o);
    for (int m = 0; m < 1000; m++) {
        tyjson_writer_reset_buf(w, buf, sizeof(buf));
        build_medium(w, 10);
        ASSERT_EQ_INT(tyjson_writer_finish(w, NULL), TYJSON_OK);
    }
    ASSERT_EQ_UINT(t.calls, 1);
    tyjson_writer_free(w);
    ASSERT_EQ_INT(t.live, 0);
}

TEST(allocation_failure_sweep) {
    size_t want_len;
    char *want = heap_text(2000, 0, &want_len);
    bool done = false;
    for (size_t fail_at = 0; !done && fail_at < 1000; fail_at++) {
        test_alloc t;
        tyjson_alloc a = test_alloc_make(&t, fail_at);
        tyjson_writer_options o;
        memset(&o, 0, sizeof(o));
        o.alc = &a;
        tyjson_writer *w = tyjson_writer_new(&o);
        if (!w) {
            ASSERT_EQ_INT(t.live, 0);
            continue;
        }
        build_medium(w, 2000);
        size_t len;
        tyjson_status st = tyjson_writer_finish(w, &len);
        if (st == TYJSON_OK) {
            ASSERT_EQ_UINT(len, want_len);
            ASSERT_EQ_STR(tyjson_writer_text(w), want);
            done = true;
        } else {
            ASSERT_EQ_INT(st, TYJSON_E_NOMEM);
            tyjson_error e;
            tyjson_writer_error(w, &e);
            ASSERT_TRUE(strncmp(e.path, "$[", 2) == 0);
            /* a reset gives a working writer again (memory kept) */
            tyjson_writer_reset(w);
            if (tyjson_writer_status(w) == TYJSON_OK) {
                tyjson_writer_null(w);
                ASSERT_EQ_INT(tyjson_writer_finish(w, NULL), TYJSON_OK);
            }
        }
        tyjson_writer_free(w);
        ASSERT_EQ_INT(t.live, 0);
    }
    ASSERT_TRUE(done);
    free(want);
}

/* The inline fast paths of writer.h and their hand-over to the slow paths:
 * under ESCAPE_SLASH short strings and keys leave the inline clean-string
 * check (which knows no '/') and are escaped; the error path names keys
 * written inline (short, escaped-checked, literal, longer than the kept
 * bytes); a growth in the middle of inline calls keeps every byte. */
TEST(inline_fast_paths_hand_over) {
    tyjson_writer_options o;
    memset(&o, 0, sizeof(o));
    o.flags = TYJSON_WRITE_ESCAPE_SLASH;
    tyjson_writer *w = tyjson_writer_new(&o);
    ASSERT_TRUE(w != NULL);
    tyjson_writer_begin_object(w);
    ASSERT_EQ_INT(tyjson_writer_key(w, "a/", 2), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_string(w, "/", 1), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_key(w, "b", 1), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_string(w, "x/y/z", 5), TYJSON_OK);
    tyjson_writer_end_object(w);
    ASSERT_TEXT(w, "{\"a\\/\":\"\\/\",\"b\":\"x\\/y\\/z\"}");
    tyjson_writer_free(w);

    w = tyjson_writer_new(NULL);
    ASSERT_TRUE(w != NULL);
    tyjson_writer_begin_object(w);
    tyjson_writer_key(w, "short", 5);
    tyjson_writer_begin_array(w);
    tyjson_writer_string(w, "v", 1);
    tyjson_writer_bool(w, true);
    ASSERT_EQ_INT(tyjson_writer_key(w, "k", 1), TYJSON_E_STATE);
    expect_err(w, TYJSON_E_STATE, "$.short[2]", NULL);
    tyjson_writer_reset(w);
    tyjson_writer_begin_object(w);
    tyjson_writer_key_noesc(w, "a_rather_long_key_name", 22);
    tyjson_writer_begin_object(w);
    tyjson_writer_key_noesc(w, "lit", 3);
    ASSERT_EQ_INT(tyjson_writer_end_object(w), TYJSON_E_STATE);
    expect_err(w, TYJSON_E_STATE, "$[\"a_rather_long_ke...\"].lit", "value is missing");

    /* thousands of inline calls through many growths of the buffer */
    tyjson_writer_reset(w);
    tyjson_writer_begin_array(w);
    for (int i = 0; i < 3000; i++) {
        tyjson_writer_begin_object(w);
        tyjson_writer_key_noesc(w, "id", 2);
        tyjson_writer_string(w, "abcdefghij", 10);
        tyjson_writer_key(w, "n", 1);
        tyjson_writer_null(w);
        tyjson_writer_end_object(w);
    }
    tyjson_writer_end_array(w);
    size_t len = 0;
    ASSERT_EQ_INT(tyjson_writer_finish(w, &len), TYJSON_OK);
    const char *one = "{\"id\":\"abcdefghij\",\"n\":null}";
    ASSERT_EQ_UINT(len, 2 + 3000 * strlen(one) + 2999);
    ASSERT_EQ_UINT(tyjson_writer_size(w), len);
    const char *t = tyjson_writer_text(w);
    ASSERT_TRUE(strncmp(t + 1, one, strlen(one)) == 0);
    ASSERT_TRUE(strncmp(t + len - 1 - strlen(one), one, strlen(one)) == 0);
    tyjson_writer_free(w);
}

int main(int argc, char **argv) { return test_main(argc, argv); }
