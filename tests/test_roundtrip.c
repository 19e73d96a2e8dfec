#define _POSIX_C_SOURCE 200809L /* opendir */
/* test_roundtrip.c - every corpus document (../shared/corpus) survives
 * parse -> write -> parse exactly: same structure, same string bytes, the
 * same number bits, whatever the write flags. */
#define TEST_WANT_JSON_LIST
#include "test.h"
#include "tyjson.h"


#define CORPUS_DIR "corpus"

/* Parses one corpus file strictly (skip/fail rule as above when absent). */
static tyjson_doc *load_doc(const char *name, char **text_out, size_t *len_out) {
    char path[1024];
    test_shared_path(CORPUS_DIR "/", path, sizeof(path));
    size_t used = strlen(path);
    snprintf(path + used, sizeof(path) - used, "%s", name);
    size_t len = 0;
    char *text = test_read_file(path, &len);
    if (!text) {
        if (test_require_shared()) TEST_FAIL("missing %s", path);
        TEST_SKIP("%s not found", path);
    }
    tyjson_error err;
    tyjson_doc *doc = tyjson_read_opts(text, len, NULL, &err);
    if (!doc) {
        free(text);
        TEST_FAIL("%s: %s at %zu:%zu", name, err.msg, err.line, err.column);
    }
    if (text_out) *text_out = text;
    else free(text);
    if (len_out) *len_out = len;
    return doc;
}

/* ----------------------------------------------------------------------------
 * Exact comparison. A document is one array of values in document order, so
 * two documents of the same structure are compared slot by slot: one loop,
 * no recursion. Returns a description of the first difference, or NULL.
 * ------------------------------------------------------------------------- */
static char diff_msg[256];

static const char *exact_diff(const tyjson_doc *da, const tyjson_doc *db) {
    const tyjson_val *a = tyjson_doc_get_root(da), *b = tyjson_doc_get_root(db);
    if (!a || !b) return "missing root";
    size_t n = tyjson_is_ctn(a) ? a->uni.ofs : 1;
    if (tyjson_doc_get_val_count(da) != tyjson_doc_get_val_count(db))
        return "value counts differ";
    for (size_t i = 0; i < n; i++) {
        const tyjson_val *x = a + i, *y = b + i;
        const char *what = NULL;
        if (tyjson_get_type(x) != tyjson_get_type(y))
            what = "type";
        else if (tyjson_get_subtype(x) != tyjson_get_subtype(y))
            what = "subtype";
        else if (tyjson_get_len(x) != tyjson_get_len(y))
            what = "length";
        else {
            switch (tyjson_get_type(x)) {
            case TYJSON_TYPE_STR:
            case TYJSON_TYPE_RAW: {
                size_t len = tyjson_get_len(x);
                if (memcmp(x->uni.str, y->uni.str, len) != 0)
                    what = "string bytes";
                else if (x->uni.str[len] != '\0' || y->uni.str[len] != '\0')
                    what = "string terminator";
                break;
            }
            case TYJSON_TYPE_NUM:
                if (tyjson_is_real(x)) {
                    if (memcmp(&x->uni.f64, &y->uni.f64, sizeof(double)) != 0) what = "double bits";
                } else if (x->uni.u64 != y->uni.u64) {
                    what = "integer";
                }
                break;
            case TYJSON_TYPE_ARR:
            case TYJSON_TYPE_OBJ:
                if (x->uni.ofs != y->uni.ofs) what = "subtree size";
                break;
            default:
                break;
            }
        }
        if (what) {
            snprintf(diff_msg, sizeof(diff_msg), "%s differs at value %zu (%s)", what, i,
                     tyjson_get_type_desc(x));
            return diff_msg;
        }
    }
    return NULL;
}

/* Writes doc with the flags and indent, reparses strictly, compares with
 * tyjson_equals and exactly, and checks that writing the copy gives the same
 * text. Returns the text (caller frees) so callers can check more. */
static char *roundtrip(const char *name, const tyjson_doc *doc, tyjson_write_flags flags,
                       uint32_t indent, size_t *len_out) {
    tyjson_write_options wo = {flags, indent, NULL};
    tyjson_error err;
    size_t len = 0;
    char *text = tyjson_write_opts(doc, &wo, &len, &err);
    if (!text) TEST_FAIL("%s: write 0x%x failed: %s", name, (unsigned)flags, err.msg);
    if (strlen(text) != len) TEST_FAIL("%s: write 0x%x: length %zu, strlen %zu", name,
                                       (unsigned)flags, len, strlen(text));
    tyjson_doc *back = tyjson_read_opts(text, len, NULL, &err);
    if (!back)
        TEST_FAIL("%s: output of write 0x%x does not parse: %s at %zu:%zu", name, (unsigned)flags,
                  err.msg, err.line, err.column);
    if (!tyjson_equals(tyjson_doc_get_root(doc), tyjson_doc_get_root(back)))
        TEST_FAIL("%s: write 0x%x: reparsed document not equal", name, (unsigned)flags);
    const char *diff = exact_diff(doc, back);
    if (diff) TEST_FAIL("%s: write 0x%x: %s", name, (unsigned)flags, diff);
    size_t len2 = 0;
    char *again = tyjson_write_opts(back, &wo, &len2, &err);
    if (!again) TEST_FAIL("%s: second write failed", name);
    if (len2 != len || memcmp(again, text, len) != 0)
        TEST_FAIL("%s: write 0x%x is not stable across a round trip", name, (unsigned)flags);
    free(again);
    tyjson_doc_free(back);
    if (len_out) *len_out = len;
    return text;
}

/* ----------------------------------------------------------------------------
 * Tests
 * ------------------------------------------------------------------------- */
TEST(corpus_minified_and_pretty) {
    test_json_list fl;
    test_json_list_open(&fl, CORPUS_DIR);
    size_t values = 0;
    for (size_t i = 0; i < fl.count; i++) {
        tyjson_doc *doc = load_doc(fl.names[i], NULL, NULL);
        values += tyjson_doc_get_val_count(doc);
        free(roundtrip(fl.names[i], doc, TYJSON_WRITE_MINIFY, 0, NULL));
        free(roundtrip(fl.names[i], doc, TYJSON_WRITE_PRETTY, 0, NULL));
        free(roundtrip(fl.names[i], doc, TYJSON_WRITE_PRETTY | TYJSON_WRITE_NEWLINE_AT_END, 4, NULL));
        tyjson_doc_free(doc);
    }
    printf("  round trip: %zu files, %zu values, minified and pretty\n", fl.count, values);
    test_json_list_free(&fl);
}

TEST(corpus_escape_unicode) {
    test_json_list fl;
    test_json_list_open(&fl, CORPUS_DIR);
    const tyjson_write_flags variants[] = {
        TYJSON_WRITE_ESCAPE_UNICODE,
        TYJSON_WRITE_ESCAPE_UNICODE | TYJSON_WRITE_ESCAPE_SLASH | TYJSON_WRITE_PRETTY,
    };
    for (size_t i = 0; i < fl.count; i++) {
        tyjson_doc *doc = load_doc(fl.names[i], NULL, NULL);
        for (size_t v = 0; v < sizeof(variants) / sizeof(variants[0]); v++) {
            size_t len = 0;
            char *text = roundtrip(fl.names[i], doc, variants[v], 0, &len);
            for (size_t k = 0; k < len; k++)
                if ((unsigned char)text[k] >= 0x80)
                    TEST_FAIL("%s: non-ASCII byte at %zu with ESCAPE_UNICODE", fl.names[i], k);
            free(text);
        }
        tyjson_doc_free(doc);
    }
    test_json_list_free(&fl);
}

/* twitterescaped.json is twitter.json minified with every non-ASCII
 * character escaped, but it was produced through JavaScript: its integers
 * above 2^53 (tweet ids) are printed from doubles (505874924095815681 became
 * 505874924095815700). So: the same structure and the same string bytes
 * everywhere, the same numbers except such ids, which round to the same
 * double. */
TEST(twitter_escaped_decodes_to_twitter) {
    tyjson_doc *plain = load_doc("twitter.json", NULL, NULL);
    tyjson_doc *esc = load_doc("twitterescaped.json", NULL, NULL);
    ASSERT_EQ_UINT(tyjson_doc_get_val_count(plain), tyjson_doc_get_val_count(esc));
    const tyjson_val *a = tyjson_doc_get_root(plain), *b = tyjson_doc_get_root(esc);
    size_t n = a->uni.ofs, strings = 0, escaped_strings = 0, rounded_ids = 0;
    for (size_t i = 0; i < n; i++) {
        const tyjson_val *x = a + i, *y = b + i;
        if (tyjson_get_type(x) != tyjson_get_type(y) || tyjson_get_subtype(x) != tyjson_get_subtype(y) ||
            tyjson_get_len(x) != tyjson_get_len(y))
            TEST_FAIL("value %zu: %s vs %s", i, tyjson_get_type_desc(x), tyjson_get_type_desc(y));
        if (tyjson_is_str(x)) {
            strings++;
            if (!tyjson_equals_strn(y, x->uni.str, tyjson_get_len(x)))
                TEST_FAIL("value %zu: \"%s\" vs \"%s\"", i, x->uni.str, y->uni.str);
            for (size_t k = 0; k < tyjson_get_len(x); k++) {
                if ((unsigned char)x->uni.str[k] >= 0x80) {
                    escaped_strings++;
                    break;
                }
            }
        } else if (tyjson_is_ctn(x)) {
            ASSERT_EQ_UINT(x->uni.ofs, y->uni.ofs);
        } else if (tyjson_is_num(x) && x->uni.u64 != y->uni.u64) {
            if (!tyjson_is_uint(x) || x->uni.u64 <= (1ull << 53) ||
                (double)x->uni.u64 != (double)y->uni.u64)
                TEST_FAIL("value %zu: number %s differs beyond double rounding", i,
                          tyjson_get_type_desc(x));
            rounded_ids++;
        }
    }
    printf("  twitterescaped: %zu strings equal (%zu non-ASCII, decoded from \\u escapes), "
           "%zu ids above 2^53 equal as doubles\n", strings, escaped_strings, rounded_ids);
    ASSERT_EQ_UINT(escaped_strings, 755);
    ASSERT_EQ_UINT(rounded_ids, 177);
    tyjson_doc_free(plain);
    tyjson_doc_free(esc);
}

/* The immutable copy of the mutable copy writes the same text. */
TEST(corpus_through_mutable_copy) {
    test_json_list fl;
    test_json_list_open(&fl, CORPUS_DIR);
    for (size_t i = 0; i < fl.count; i++) {
        tyjson_doc *doc = load_doc(fl.names[i], NULL, NULL);
        tyjson_mut_doc *mut = tyjson_doc_mut_copy(doc, NULL);
        ASSERT_NOT_NULL(mut);
        size_t la = 0, lb = 0;
        char *a = tyjson_write(doc, TYJSON_WRITE_MINIFY, &la);
        char *b = tyjson_mut_write(mut, TYJSON_WRITE_MINIFY, &lb);
        ASSERT_NOT_NULL(a);
        ASSERT_NOT_NULL(b);
        if (la != lb || memcmp(a, b, la) != 0)
            TEST_FAIL("%s: mutable copy writes different text", fl.names[i]);
        tyjson_doc *back = tyjson_mut_doc_imut_copy(mut, NULL);
        ASSERT_NOT_NULL(back);
        const char *diff = exact_diff(doc, back);
        if (diff) TEST_FAIL("%s: immutable copy of mutable copy: %s", fl.names[i], diff);
        free(a);
        free(b);
        tyjson_doc_free(back);
        tyjson_mut_doc_free(mut);
        tyjson_doc_free(doc);
    }
    test_json_list_free(&fl);
}

int main(int argc, char **argv) { return test_main(argc, argv); }
