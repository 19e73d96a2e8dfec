/* test_pointer.c - JSON Pointer (RFC 6901) on both documents: one table of
 * (document, pointer, expected value or status and offset) run against the
 * immutable document and against its mutable copy, which must agree with
 * the table and so with each other (src/dom/pointer.c, one error policy). */
#include "test.h"
#include "tyjson.h"

#define RFC_DOC                                                                     \
    "{\"foo\":[\"bar\",\"baz\"],\"\":0,\"a/b\":1,\"c%d\":2,\"e^f\":3,\"g|h\":4,"   \
    "\"i\\\\j\":5,\"k\\\"l\":6,\" \":7,\"m~n\":8}"
#define KEYS_DOC                                                                    \
    "{\"~1\":1,\"/\":2,\"~\":3,\"d\":4,\"d\":5,\"n\\u0000l\":6,\"\":{\"\":7},"     \
    "\"01\":8,\"-\":9,\"~01\":10,\"a\":{\"b\":[10,[20,{\"c/~d\":30}]]}}"
#define ARR_DOC "[0,1,2,3,4,5,6,7,8,9,10,11]"

typedef struct ptr_case {
    const char *doc;
    const char *ptr;
    size_t ptr_len;     /* 0: strlen(ptr) */
    const char *want;   /* minified text of the value found, or NULL */
    tyjson_status code; /* when want is NULL */
    size_t offset;      /* when want is NULL */
} ptr_case;

#define FOUND(doc, ptr, want) {doc, ptr, 0, want, TYJSON_OK, 0}
#define FAILS(doc, ptr, code, ofs) {doc, ptr, 0, NULL, code, ofs}

static const ptr_case cases[] = {
    /* RFC 6901 section 5, every example */
    FOUND(RFC_DOC, "", RFC_DOC), /* the document is minified text */
    FOUND(RFC_DOC, "/foo", "[\"bar\",\"baz\"]"),
    FOUND(RFC_DOC, "/foo/0", "\"bar\""),
    FOUND(RFC_DOC, "/foo/1", "\"baz\""),
    FOUND(RFC_DOC, "/", "0"),
    FOUND(RFC_DOC, "/a~1b", "1"),
    FOUND(RFC_DOC, "/c%d", "2"),
    FOUND(RFC_DOC, "/e^f", "3"),
    FOUND(RFC_DOC, "/g|h", "4"),
    FOUND(RFC_DOC, "/i\\j", "5"),
    FOUND(RFC_DOC, "/k\"l", "6"),
    FOUND(RFC_DOC, "/ ", "7"),
    FOUND(RFC_DOC, "/m~0n", "8"),
    /* keys holding '/' and '~'; "~01" is "~1" (decoded once, left to right) */
    FOUND(KEYS_DOC, "/~01", "1"),
    FOUND(KEYS_DOC, "/~1", "2"),
    FOUND(KEYS_DOC, "/~0", "3"),
    FOUND(KEYS_DOC, "/~001", "10"),
    FOUND(KEYS_DOC, "/a/b/1/1/c~1~0d", "30"),
    FAILS(KEYS_DOC, "/a/b/1/1/c~1~0", TYJSON_E_NOT_FOUND, 9),
    /* the first of repeated keys; empty keys; tokens that are keys, not indexes */
    FOUND(KEYS_DOC, "/d", "4"),
    FOUND(KEYS_DOC, "/", "{\"\":7}"),
    FOUND(KEYS_DOC, "//", "7"),
    FAILS(KEYS_DOC, "///", TYJSON_E_NOT_FOUND, 3),
    FOUND(KEYS_DOC, "/01", "8"),
    FOUND(KEYS_DOC, "/-", "9"),
    FAILS(KEYS_DOC, "/n", TYJSON_E_NOT_FOUND, 1),
    /* malformed escapes: E_POINTER at the '~', whether or not the prefix resolves */
    FAILS(RFC_DOC, "/nope/~2", TYJSON_E_POINTER, 6),
    FAILS(RFC_DOC, "/foo/~2", TYJSON_E_POINTER, 5),
    FAILS(RFC_DOC, "/~2", TYJSON_E_POINTER, 1),
    FAILS(RFC_DOC, "/~", TYJSON_E_POINTER, 1),
    FAILS(RFC_DOC, "/m~n", TYJSON_E_POINTER, 2),
    FAILS(RFC_DOC, "/m~0n/x~", TYJSON_E_POINTER, 7),
    FAILS(RFC_DOC, "/nope/~a/~0", TYJSON_E_POINTER, 6),
    FAILS(RFC_DOC, "/~0~1~", TYJSON_E_POINTER, 5),
    FAILS(ARR_DOC, "/99/~9", TYJSON_E_POINTER, 4),
    /* not starting with '/' */
    FAILS(RFC_DOC, "foo", TYJSON_E_POINTER, 0),
    FAILS(RFC_DOC, "#/foo", TYJSON_E_POINTER, 0),
    FAILS(RFC_DOC, "~2", TYJSON_E_POINTER, 0),
    /* names nothing: E_NOT_FOUND at the first byte of the token */
    FAILS(RFC_DOC, "/nope", TYJSON_E_NOT_FOUND, 1),
    FAILS(RFC_DOC, "/nope/~1", TYJSON_E_NOT_FOUND, 1),
    FAILS(RFC_DOC, "/m~0n/x", TYJSON_E_NOT_FOUND, 6),
    FAILS(RFC_DOC, "/a~1b/0", TYJSON_E_NOT_FOUND, 6),
    FAILS(RFC_DOC, "/foo/0/x", TYJSON_E_NOT_FOUND, 7),
    FAILS(RFC_DOC, "/foo/", TYJSON_E_NOT_FOUND, 5),
    FAILS(RFC_DOC, "//", TYJSON_E_NOT_FOUND, 2),
    /* array indexes: no leading zeros, no sign, "-" names nothing, range */
    FOUND(ARR_DOC, "/0", "0"),
    FOUND(ARR_DOC, "/10", "10"),
    FOUND(ARR_DOC, "/11", "11"),
    FAILS(ARR_DOC, "/12", TYJSON_E_NOT_FOUND, 1),
    FAILS(ARR_DOC, "/01", TYJSON_E_NOT_FOUND, 1),
    FAILS(ARR_DOC, "/00", TYJSON_E_NOT_FOUND, 1),
    FAILS(ARR_DOC, "/-", TYJSON_E_NOT_FOUND, 1),
    FAILS(ARR_DOC, "/-1", TYJSON_E_NOT_FOUND, 1),
    FAILS(ARR_DOC, "/+1", TYJSON_E_NOT_FOUND, 1),
    FAILS(ARR_DOC, "/1a", TYJSON_E_NOT_FOUND, 1),
    FAILS(ARR_DOC, "/ 1", TYJSON_E_NOT_FOUND, 1),
    FAILS(ARR_DOC, "/", TYJSON_E_NOT_FOUND, 1),
    FAILS(ARR_DOC, "/18446744073709551615", TYJSON_E_NOT_FOUND, 1),
    FAILS(ARR_DOC, "/18446744073709551616", TYJSON_E_NOT_FOUND, 1),
    FAILS(ARR_DOC, "/99999999999999999999999", TYJSON_E_NOT_FOUND, 1),
    FAILS(RFC_DOC, "/foo/2", TYJSON_E_NOT_FOUND, 5),
    FAILS(RFC_DOC, "/foo/-", TYJSON_E_NOT_FOUND, 5),
    /* into scalars and empty containers */
    FOUND("7", "", "7"),
    FAILS("7", "/", TYJSON_E_NOT_FOUND, 1),
    FAILS("7", "/0", TYJSON_E_NOT_FOUND, 1),
    FAILS("\"s\"", "/0", TYJSON_E_NOT_FOUND, 1),
    FAILS("null", "/a/b", TYJSON_E_NOT_FOUND, 1),
    FAILS("[]", "/0", TYJSON_E_NOT_FOUND, 1),
    FAILS("{}", "/", TYJSON_E_NOT_FOUND, 1),
    FAILS("[[]]", "/0/0", TYJSON_E_NOT_FOUND, 3),
    /* a key with a NUL, reached through the length form only */
    {KEYS_DOC, "/n\0l", 4, "6", TYJSON_OK, 0},
    /* the length bounds the pointer */
    {RFC_DOC, "/foo/1", 4, "[\"bar\",\"baz\"]", TYJSON_OK, 0},
    {RFC_DOC, "/foo/~2", 4, "[\"bar\",\"baz\"]", TYJSON_OK, 0},
};

typedef struct found {
    char *text; /* minified text of the value found, or NULL */
    tyjson_error err;
} found;

static size_t case_len(const ptr_case *c) { return c->ptr_len ? c->ptr_len : strlen(c->ptr); }

static found look_imm(const tyjson_val *root, const ptr_case *c) {
    found f;
    memset(&f.err, 0xAB, sizeof(f.err));
    tyjson_val *v = tyjson_ptr_getx(root, c->ptr, case_len(c), &f.err);
    f.text = v ? tyjson_val_write_opts(v, NULL, NULL, NULL) : NULL;
    if (v) ASSERT_NOT_NULL(f.text);
    return f;
}

static found look_mut(const tyjson_mut_val *root, const ptr_case *c) {
    found f;
    memset(&f.err, 0xAB, sizeof(f.err));
    tyjson_mut_val *v = tyjson_mut_ptr_getx(root, c->ptr, case_len(c), &f.err);
    f.text = v ? tyjson_mut_val_write_opts(v, NULL, NULL, NULL) : NULL;
    if (v) ASSERT_NOT_NULL(f.text);
    return f;
}

static void check(const ptr_case *c, found f, const char *kind) {
    if (c->want) {
        if (!f.text)
            TEST_FAIL("%s %s: not found (code %s at %zu)", kind, c->ptr,
                      tyjson_status_name(f.err.code), f.err.offset);
        if (strcmp(f.text, c->want) != 0) TEST_FAIL("%s %s: got %s, want %s", kind, c->ptr, f.text, c->want);
        ASSERT_EQ_INT(f.err.code, TYJSON_OK);
        return;
    }
    if (f.text) TEST_FAIL("%s %s: found %s, want %s", kind, c->ptr, f.text, tyjson_status_name(c->code));
    if (f.err.code != c->code || f.err.offset != c->offset)
        TEST_FAIL("%s %s: %s at %zu, want %s at %zu", kind, c->ptr, tyjson_status_name(f.err.code),
                  f.err.offset, tyjson_status_name(c->code), c->offset);
    ASSERT_TRUE(f.err.msg[0] != 0);
    ASSERT_EQ_UINT(f.err.line, 1);
    ASSERT_EQ_UINT(f.err.column, c->offset + 1);
}

TEST(same_table_on_both_documents) {
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const ptr_case *c = &cases[i];
        tyjson_doc *doc = tyjson_read(c->doc, strlen(c->doc), 0);
        ASSERT_NOT_NULL(doc);
        tyjson_mut_doc *mdoc = tyjson_doc_mut_copy(doc, NULL);
        ASSERT_NOT_NULL(mdoc);
        found fi = look_imm(tyjson_doc_get_root(doc), c);
        check(c, fi, "immutable");
        found fm = look_mut(tyjson_mut_doc_get_root(mdoc), c);
        check(c, fm, "mutable");
        /* The NUL-terminated forms give the same value, without detail. */
        if (!c->ptr_len) {
            ASSERT_TRUE((tyjson_ptr_get(tyjson_doc_get_root(doc), c->ptr) != NULL) == (c->want != NULL));
            ASSERT_TRUE((tyjson_mut_ptr_get(tyjson_mut_doc_get_root(mdoc), c->ptr) != NULL) ==
                        (c->want != NULL));
            ASSERT_TRUE(tyjson_doc_ptr_get(doc, c->ptr) == tyjson_ptr_get(tyjson_doc_get_root(doc), c->ptr));
        }
        free(fi.text);
        free(fm.text);
        tyjson_mut_doc_free(mdoc);
        tyjson_doc_free(doc);
    }
}

TEST(found_values_are_the_documents_own) {
    /* The pointer returns the value in place, not a copy. */
    tyjson_doc *doc = tyjson_read(RFC_DOC, strlen(RFC_DOC), 0);
    tyjson_val *root = tyjson_doc_get_root(doc);
    ASSERT_TRUE(tyjson_ptr_get(root, "") == root);
    ASSERT_TRUE(tyjson_ptr_get(root, "/foo/1") == tyjson_arr_get(tyjson_obj_get(root, "foo"), 1));
    tyjson_mut_doc *mdoc = tyjson_doc_mut_copy(doc, NULL);
    tyjson_mut_val *mroot = tyjson_mut_doc_get_root(mdoc);
    ASSERT_TRUE(tyjson_mut_ptr_get(mroot, "") == mroot);
    ASSERT_TRUE(tyjson_mut_ptr_get(mroot, "/foo/1") ==
                tyjson_mut_arr_get(tyjson_mut_obj_get(mroot, "foo"), 1));
    /* A long array: the index is decoded in full, on both sides. */
    tyjson_mut_val *arr = tyjson_mut_arr(mdoc);
    for (uint64_t i = 0; i < 1000; i++) ASSERT_TRUE(tyjson_mut_arr_add_uint(mdoc, arr, i));
    ASSERT_EQ_UINT(tyjson_mut_get_uint(tyjson_mut_ptr_get(arr, "/999")), 999);
    ASSERT_NULL(tyjson_mut_ptr_get(arr, "/1000"));
    tyjson_doc *iarr = tyjson_mut_val_imut_copy(arr, NULL);
    ASSERT_EQ_UINT(tyjson_get_uint(tyjson_ptr_get(tyjson_doc_get_root(iarr), "/999")), 999);
    ASSERT_NULL(tyjson_ptr_get(tyjson_doc_get_root(iarr), "/1000"));
    tyjson_doc_free(iarr);
    tyjson_mut_doc_free(mdoc);
    tyjson_doc_free(doc);
}

TEST(null_arguments) {
    tyjson_doc *doc = tyjson_read("{\"k\":1}", 7, 0);
    tyjson_val *root = tyjson_doc_get_root(doc);
    tyjson_mut_doc *mdoc = tyjson_doc_mut_copy(doc, NULL);
    tyjson_mut_val *mroot = tyjson_mut_doc_get_root(mdoc);
    tyjson_error e;
    /* no value, or a NULL pointer with a length: E_INVALID_ARG at 0 */
    memset(&e, 0xAB, sizeof e);
    ASSERT_NULL(tyjson_ptr_getx(NULL, "/k", 2, &e));
    ASSERT_EQ_INT(e.code, TYJSON_E_INVALID_ARG);
    ASSERT_EQ_UINT(e.offset, 0);
    memset(&e, 0xAB, sizeof e);
    ASSERT_NULL(tyjson_mut_ptr_getx(NULL, "/k", 2, &e));
    ASSERT_EQ_INT(e.code, TYJSON_E_INVALID_ARG);
    ASSERT_EQ_UINT(e.offset, 0);
    ASSERT_NULL(tyjson_ptr_getx(root, NULL, 2, &e));
    ASSERT_EQ_INT(e.code, TYJSON_E_INVALID_ARG);
    ASSERT_NULL(tyjson_mut_ptr_getx(mroot, NULL, 2, &e));
    ASSERT_EQ_INT(e.code, TYJSON_E_INVALID_ARG);
    /* NULL with length 0 is the empty pointer */
    ASSERT_TRUE(tyjson_ptr_getx(root, NULL, 0, &e) == root);
    ASSERT_EQ_INT(e.code, TYJSON_OK);
    ASSERT_TRUE(tyjson_mut_ptr_getx(mroot, NULL, 0, &e) == mroot);
    ASSERT_EQ_INT(e.code, TYJSON_OK);
    /* NULL error records are fine; NULL-terminated forms refuse NULL */
    ASSERT_NULL(tyjson_ptr_getx(root, "/x", 2, NULL));
    ASSERT_NULL(tyjson_mut_ptr_getx(mroot, "/~2", 3, NULL));
    ASSERT_NULL(tyjson_ptr_get(root, NULL));
    ASSERT_NULL(tyjson_ptr_get(NULL, ""));
    ASSERT_NULL(tyjson_mut_ptr_get(mroot, NULL));
    ASSERT_NULL(tyjson_mut_ptr_get(NULL, ""));
    ASSERT_NULL(tyjson_doc_ptr_get(NULL, ""));
    ASSERT_NULL(tyjson_doc_ptr_get(doc, NULL));
    tyjson_mut_doc_free(mdoc);
    tyjson_doc_free(doc);
}

int main(int argc, char **argv) { return test_main(argc, argv); }
