/*
 * test_edit.c - editing mutable documents (include/tyjson/edit.h): JSON
 * Pointer edits with their context and errors, JSON Patch (its six
 * operations, atomicity, the error that names the operation), JSON Merge
 * Patch, the diff and its property patch(a, diff(a, b)) == b over random
 * pairs, the conformance suites of ../shared/conformance/json-patch and
 * merge-patch, and an allocation-failure sweep over patch, merge and diff;
 * the diff's work by its counters (dom/diff_stats.h): linear on deep
 * chains and large objects, hashes that follow equal.c's number rules.
 */
#include "tyjson.h"
#include "test.h"
#include "dom/diff_stats.h"

/* ----------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------- */
static tyjson_doc *parse(const char *s) {
    tyjson_error err;
    tyjson_doc *d = tyjson_read_opts(s, strlen(s), NULL, &err);
    if (!d) TEST_FAIL("cannot parse %s: %s", s, err.msg);
    return d;
}

static tyjson_mut_doc *mparse(const char *s) {
    tyjson_doc *d = parse(s);
    tyjson_mut_doc *m = tyjson_doc_mut_copy(d, NULL);
    tyjson_doc_free(d);
    ASSERT_NOT_NULL(m);
    return m;
}

/* Minified text of a mutable document into buf ("<none>" without a root). */
static const char *mtext(const tyjson_mut_doc *m, char *buf, size_t size) {
    if (!tyjson_mut_doc_get_root(m)) {
        snprintf(buf, size, "<none>");
        return buf;
    }
    size_t len;
    char *s = tyjson_mut_write(m, 0, &len);
    if (!s) TEST_FAIL("cannot write the document");
    snprintf(buf, size, "%s", s);
    free(s);
    return buf;
}

#define ASSERT_DOC(m, want)                                                    \
    do {                                                                       \
        char tb_[4096];                                                        \
        ASSERT_EQ_STR(mtext((m), tb_, sizeof(tb_)), (want));                   \
    } while (0)

/* Applies a patch given as text; returns the status. */
static tyjson_status patch_text(tyjson_mut_doc *m, const char *patch, tyjson_error *err) {
    tyjson_doc *p = parse(patch);
    tyjson_status st = tyjson_mut_doc_patch(m, tyjson_doc_get_root(p), err);
    tyjson_doc_free(p);
    return st;
}

static tyjson_status merge_text(tyjson_mut_doc *m, const char *patch, tyjson_error *err) {
    tyjson_doc *p = parse(patch);
    tyjson_status st = tyjson_mut_doc_merge_patch(m, tyjson_doc_get_root(p), err);
    tyjson_doc_free(p);
    return st;
}

/* ----------------------------------------------------------------------------
 * JSON Pointer edits
 * ------------------------------------------------------------------------- */
TEST(ptr_get_with_context) {
    tyjson_mut_doc *m = mparse("{\"a\":{\"b\":[10,20,30]},\"c~/d\":1}");
    tyjson_mut_ptr_ctx ctx;
    tyjson_error err;
    tyjson_mut_val *v = tyjson_mut_doc_ptr_getx(m, "/a/b/1", 6, &ctx, &err);
    ASSERT_EQ_INT(err.code, TYJSON_OK);
    ASSERT_EQ_UINT(tyjson_mut_get_uint(v), 20);
    ASSERT_TRUE(ctx.ctn == tyjson_mut_ptr_get(tyjson_mut_doc_get_root(m), "/a/b"));
    ASSERT_NULL(ctx.key);
    ASSERT_NULL(ctx.old);
    v = tyjson_mut_doc_ptr_getx(m, "/c~0~1d", 7, &ctx, &err);
    ASSERT_EQ_UINT(tyjson_mut_get_uint(v), 1);
    ASSERT_TRUE(tyjson_mut_equals_str(ctx.key, "c~/d"));
    ASSERT_TRUE(ctx.ctn == tyjson_mut_doc_get_root(m));
    v = tyjson_mut_doc_ptr_getx(m, "", 0, &ctx, &err);
    ASSERT_TRUE(v == tyjson_mut_doc_get_root(m));
    ASSERT_NULL(ctx.ctn);
    /* "-" names nothing to read */
    ASSERT_NULL(tyjson_mut_doc_ptr_getx(m, "/a/b/-", 6, &ctx, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_NOT_FOUND);
    ASSERT_EQ_UINT(err.offset, 5);
    ASSERT_EQ_STR(err.msg, "no value at '/a/b/-': '-' names the slot after the last element");
    ASSERT_NULL(ctx.ctn);
    tyjson_mut_doc_free(m);
}

TEST(ptr_add) {
    tyjson_mut_doc *m = mparse("{\"a\":[1,2],\"k\":0}");
    tyjson_mut_ptr_ctx ctx;
    tyjson_error err;
    ASSERT_EQ_INT(tyjson_mut_doc_ptr_addx(m, "/a/0", 4, tyjson_mut_uint(m, 0), &ctx, &err), TYJSON_OK);
    ASSERT_NULL(ctx.old);
    ASSERT_EQ_INT(tyjson_mut_doc_ptr_addx(m, "/a/-", 4, tyjson_mut_uint(m, 9), NULL, NULL), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_mut_doc_ptr_addx(m, "/a/4", 4, tyjson_mut_uint(m, 10), NULL, NULL), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_mut_doc_ptr_addx(m, "/a/2", 4, tyjson_mut_uint(m, 5), NULL, NULL), TYJSON_OK);
    ASSERT_DOC(m, "{\"a\":[0,1,5,2,9,10],\"k\":0}");
    /* new member, key decoded; existing member replaced in place */
    ASSERT_EQ_INT(tyjson_mut_doc_ptr_addx(m, "/x~1y~0", 7, tyjson_mut_true(m), &ctx, &err), TYJSON_OK);
    ASSERT_TRUE(tyjson_mut_equals_str(ctx.key, "x/y~"));
    ASSERT_TRUE(tyjson_mut_doc_ptr_add(m, "/k", tyjson_mut_str(m, "new")));
    ASSERT_DOC(m, "{\"a\":[0,1,5,2,9,10],\"k\":\"new\",\"x/y~\":true}");
    /* into an empty array and object */
    tyjson_mut_doc_free(m);
    m = mparse("{\"e\":[],\"o\":{}}");
    ASSERT_TRUE(tyjson_mut_doc_ptr_add(m, "/e/0", tyjson_mut_uint(m, 1)));
    ASSERT_TRUE(tyjson_mut_doc_ptr_add(m, "/o/", tyjson_mut_uint(m, 2)));
    ASSERT_DOC(m, "{\"e\":[1],\"o\":{\"\":2}}");
    /* errors: index past the size, not an index, missing parent, scalar parent */
    tyjson_mut_val *v = tyjson_mut_uint(m, 7);
    ASSERT_EQ_INT(tyjson_mut_doc_ptr_addx(m, "/e/2", 4, v, &ctx, &err), TYJSON_E_NOT_FOUND);
    ASSERT_EQ_UINT(err.offset, 3);
    ASSERT_EQ_STR(err.msg, "no value at '/e/2': index 2 is past the end of the array (size 1)");
    ASSERT_NULL(ctx.ctn);
    ASSERT_EQ_INT(tyjson_mut_doc_ptr_addx(m, "/e/01", 5, v, NULL, &err), TYJSON_E_NOT_FOUND);
    ASSERT_EQ_STR(err.msg, "no value at '/e/01': '01' is not an array index");
    ASSERT_EQ_INT(tyjson_mut_doc_ptr_addx(m, "/zz/a", 5, v, NULL, &err), TYJSON_E_NOT_FOUND);
    ASSERT_EQ_UINT(err.offset, 1);
    ASSERT_EQ_STR(err.msg, "no value at '/zz': no member 'zz'");
    ASSERT_EQ_INT(tyjson_mut_doc_ptr_addx(m, "/e/0/q", 6, v, NULL, &err), TYJSON_E_NOT_FOUND);
    ASSERT_EQ_UINT(err.offset, 5);
    ASSERT_EQ_STR(err.msg, "no value at '/e/0/q': a uint value has no members or elements");
    ASSERT_EQ_INT(tyjson_mut_doc_ptr_addx(m, "e", 1, v, NULL, &err), TYJSON_E_POINTER);
    ASSERT_EQ_UINT(err.offset, 0);
    ASSERT_EQ_INT(tyjson_mut_doc_ptr_addx(m, "/nope/~2", 8, v, NULL, &err), TYJSON_E_POINTER);
    ASSERT_EQ_UINT(err.offset, 6);
    /* a linked value, the root, NULL */
    ASSERT_EQ_INT(tyjson_mut_doc_ptr_addx(m, "/x", 2, tyjson_mut_doc_ptr_get(m, "/e"), NULL, &err),
                  TYJSON_E_INVALID_ARG);
    ASSERT_EQ_INT(tyjson_mut_doc_ptr_addx(m, "/x", 2, tyjson_mut_doc_get_root(m), NULL, &err),
                  TYJSON_E_INVALID_ARG);
    ASSERT_EQ_INT(tyjson_mut_doc_ptr_addx(m, "/x", 2, NULL, NULL, &err), TYJSON_E_INVALID_ARG);
    ASSERT_EQ_INT(tyjson_mut_doc_ptr_addx(NULL, "/x", 2, v, NULL, &err), TYJSON_E_INVALID_ARG);
    ASSERT_EQ_INT(tyjson_mut_doc_ptr_addx(m, NULL, 2, v, NULL, &err), TYJSON_E_INVALID_ARG);
    ASSERT_FALSE(tyjson_mut_doc_ptr_add(m, NULL, v));
    ASSERT_DOC(m, "{\"e\":[1],\"o\":{\"\":2}}");
    /* "" replaces the root */
    tyjson_mut_val *old = tyjson_mut_doc_get_root(m);
    ASSERT_EQ_INT(tyjson_mut_doc_ptr_addx(m, "", 0, v, &ctx, &err), TYJSON_OK);
    ASSERT_TRUE(ctx.old == old);
    ASSERT_DOC(m, "7");
    tyjson_mut_doc_free(m);
}

TEST(ptr_add_no_root) {
    tyjson_mut_doc *m = tyjson_mut_doc_new(NULL);
    tyjson_error err;
    ASSERT_EQ_INT(tyjson_mut_doc_ptr_addx(m, "/a", 2, tyjson_mut_null(m), NULL, &err), TYJSON_E_NOT_FOUND);
    ASSERT_EQ_STR(err.msg, "no value at '': the document has no root");
    ASSERT_NULL(tyjson_mut_doc_ptr_remove(m, ""));
    ASSERT_NULL(tyjson_mut_doc_ptr_replace(m, "", tyjson_mut_null(m)));
    ASSERT_TRUE(tyjson_mut_doc_ptr_set(m, "", tyjson_mut_obj(m)));
    ASSERT_DOC(m, "{}");
    tyjson_mut_doc_free(m);
}

TEST(ptr_set) {
    tyjson_mut_doc *m = mparse("{\"a\":[1,2]}");
    tyjson_mut_ptr_ctx ctx;
    tyjson_error err;
    tyjson_mut_val *one = tyjson_mut_ptr_get(tyjson_mut_doc_get_root(m), "/a/0");
    ASSERT_EQ_INT(tyjson_mut_doc_ptr_setx(m, "/a/0", 4, tyjson_mut_uint(m, 5), &ctx, &err), TYJSON_OK);
    ASSERT_TRUE(ctx.old == one);
    ASSERT_NULL(one->next); /* unlinked: free to be inserted again */
    ASSERT_TRUE(tyjson_mut_doc_ptr_set(m, "/a/2", one));
    ASSERT_TRUE(tyjson_mut_doc_ptr_set(m, "/a/-", tyjson_mut_uint(m, 3)));
    ASSERT_TRUE(tyjson_mut_doc_ptr_set(m, "/b", tyjson_mut_uint(m, 4)));
    ASSERT_TRUE(tyjson_mut_doc_ptr_set(m, "/b", tyjson_mut_uint(m, 6)));
    ASSERT_DOC(m, "{\"a\":[5,2,1,3],\"b\":6}");
    ASSERT_FALSE(tyjson_mut_doc_ptr_set(m, "/a/5", tyjson_mut_uint(m, 0)));
    tyjson_mut_doc_free(m);
}

TEST(ptr_replace) {
    tyjson_mut_doc *m = mparse("{\"a\":[1],\"b\":2,\"b\":3}");
    tyjson_mut_val *old = tyjson_mut_doc_ptr_replace(m, "/a/0", tyjson_mut_uint(m, 9));
    ASSERT_EQ_UINT(tyjson_mut_get_uint(old), 1);
    old = tyjson_mut_doc_ptr_replace(m, "/b", tyjson_mut_uint(m, 8)); /* first "b" only */
    ASSERT_EQ_UINT(tyjson_mut_get_uint(old), 2);
    ASSERT_DOC(m, "{\"a\":[9],\"b\":8,\"b\":3}");
    tyjson_error err;
    tyjson_mut_ptr_ctx ctx;
    tyjson_mut_val *v = tyjson_mut_null(m);
    ASSERT_EQ_INT(tyjson_mut_doc_ptr_replacex(m, "/c", 2, v, &ctx, &err), TYJSON_E_NOT_FOUND);
    ASSERT_EQ_STR(err.msg, "no value at '/c': no member 'c'");
    ASSERT_EQ_INT(tyjson_mut_doc_ptr_replacex(m, "/a/-", 4, v, &ctx, &err), TYJSON_E_NOT_FOUND);
    ASSERT_EQ_INT(tyjson_mut_doc_ptr_replacex(m, "/a/1", 4, v, &ctx, &err), TYJSON_E_NOT_FOUND);
    ASSERT_EQ_INT(tyjson_mut_doc_ptr_replacex(m, "", 0, v, &ctx, &err), TYJSON_OK);
    ASSERT_TRUE(tyjson_mut_is_obj(ctx.old));
    ASSERT_DOC(m, "null");
    tyjson_mut_doc_free(m);
}

TEST(ptr_remove) {
    tyjson_mut_doc *m = mparse("{\"a\":[1,2,3],\"b\":2,\"c\":{\"d\":4},\"b\":5}");
    tyjson_mut_ptr_ctx ctx;
    tyjson_error err;
    tyjson_mut_val *v = tyjson_mut_doc_ptr_removex(m, "/a/1", 4, &ctx, &err);
    ASSERT_EQ_UINT(tyjson_mut_get_uint(v), 2);
    ASSERT_TRUE(ctx.old == v);
    ASSERT_TRUE(tyjson_mut_is_arr(ctx.ctn));
    ASSERT_EQ_UINT(tyjson_mut_get_uint(tyjson_mut_doc_ptr_remove(m, "/a/1")), 3);
    ASSERT_EQ_UINT(tyjson_mut_get_uint(tyjson_mut_doc_ptr_remove(m, "/a/0")), 1);
    v = tyjson_mut_doc_ptr_removex(m, "/b", 2, &ctx, &err); /* the first "b" */
    ASSERT_EQ_UINT(tyjson_mut_get_uint(v), 2);
    ASSERT_TRUE(tyjson_mut_equals_str(ctx.key, "b"));
    ASSERT_NULL(ctx.key->next);
    ASSERT_DOC(m, "{\"a\":[],\"c\":{\"d\":4},\"b\":5}");
    ASSERT_NOT_NULL(tyjson_mut_doc_ptr_remove(m, "/b")); /* the last member */
    ASSERT_NOT_NULL(tyjson_mut_doc_ptr_remove(m, "/c/d")); /* the only member */
    ASSERT_DOC(m, "{\"a\":[],\"c\":{}}");
    ASSERT_NULL(tyjson_mut_doc_ptr_removex(m, "/a/0", 4, &ctx, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_NOT_FOUND);
    ASSERT_EQ_STR(err.msg, "no value at '/a/0': index 0 is past the end of the array (size 0)");
    ASSERT_NULL(tyjson_mut_doc_ptr_removex(m, "/c/x/y", 6, &ctx, &err));
    ASSERT_EQ_UINT(err.offset, 3);
    /* the added values can be put back */
    ASSERT_TRUE(tyjson_mut_doc_ptr_add(m, "/a/0", tyjson_mut_uint(m, 1)));
    tyjson_mut_val *root = tyjson_mut_doc_ptr_remove(m, "");
    ASSERT_TRUE(tyjson_mut_is_obj(root));
    ASSERT_NULL(tyjson_mut_doc_get_root(m));
    tyjson_mut_doc_free(m);
}

TEST(ptr_get_messages_shared) {
    /* the immutable lookup reports by the same policy and words */
    tyjson_doc *d = parse("{\"a\":[1]}");
    tyjson_error err;
    ASSERT_NULL(tyjson_ptr_getx(tyjson_doc_get_root(d), "/a/3", 4, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_NOT_FOUND);
    ASSERT_EQ_UINT(err.offset, 3);
    ASSERT_EQ_STR(err.msg, "no value at '/a/3': index 3 is past the end of the array (size 1)");
    tyjson_doc_free(d);
}

/* ----------------------------------------------------------------------------
 * JSON Patch
 * ------------------------------------------------------------------------- */
TEST(patch_six_ops) {
    tyjson_mut_doc *m = mparse("{\"a\":{\"b\":[1,2]},\"c\":3}");
    tyjson_error err;
    ASSERT_EQ_INT(patch_text(m,
                             "[{\"op\":\"add\",\"path\":\"/a/b/1\",\"value\":9},"
                             "{\"op\":\"remove\",\"path\":\"/c\"},"
                             "{\"op\":\"replace\",\"path\":\"/a/b/0\",\"value\":{\"x\":null}},"
                             "{\"op\":\"move\",\"from\":\"/a/b/2\",\"path\":\"/m\"},"
                             "{\"op\":\"copy\",\"from\":\"/a/b/0\",\"path\":\"/a/b/-\"},"
                             "{\"op\":\"test\",\"path\":\"/a/b\",\"value\":[{\"x\":null},9,{\"x\":null}]},"
                             "{\"op\":\"move\",\"from\":\"/m\",\"path\":\"/m\"}]",
                             &err),
                  TYJSON_OK);
    ASSERT_EQ_INT(err.code, TYJSON_OK);
    ASSERT_DOC(m, "{\"a\":{\"b\":[{\"x\":null},9,{\"x\":null}]},\"m\":2}");
    /* copy made a deep copy: changing one leaves the other */
    ASSERT_EQ_INT(patch_text(m, "[{\"op\":\"add\",\"path\":\"/a/b/2/y\",\"value\":1}]", &err), TYJSON_OK);
    ASSERT_DOC(m, "{\"a\":{\"b\":[{\"x\":null},9,{\"x\":null,\"y\":1}]},\"m\":2}");
    /* an empty patch changes nothing; the whole document replaced */
    ASSERT_EQ_INT(patch_text(m, "[]", &err), TYJSON_OK);
    ASSERT_EQ_INT(patch_text(m, "[{\"op\":\"replace\",\"path\":\"\",\"value\":[1]}]", &err), TYJSON_OK);
    ASSERT_DOC(m, "[1]");
    ASSERT_EQ_INT(patch_text(m, "[{\"op\":\"remove\",\"path\":\"\"}]", &err), TYJSON_OK);
    ASSERT_NULL(tyjson_mut_doc_get_root(m));
    tyjson_mut_doc_free(m);
}

TEST(patch_atomic_and_named) {
    const char *start = "{\"a\":{\"b\":[1,2]},\"c\":3,\"d\":[]}";
    tyjson_mut_doc *m = mparse(start);
    tyjson_error err;
    /* three changes, then a failure: all undone */
    ASSERT_EQ_INT(patch_text(m,
                             "[{\"op\":\"add\",\"path\":\"/d/-\",\"value\":1},"
                             "{\"op\":\"remove\",\"path\":\"/a/b/0\"},"
                             "{\"op\":\"move\",\"from\":\"/c\",\"path\":\"/a/c\"},"
                             "{\"op\":\"replace\",\"path\":\"/a/x/y\",\"value\":0}]",
                             &err),
                  TYJSON_E_NOT_FOUND);
    ASSERT_DOC(m, start);
    ASSERT_EQ_STR(err.path, "$[3]");
    ASSERT_EQ_UINT(err.offset, 3);
    ASSERT_EQ_UINT(err.line, 0);
    ASSERT_EQ_STR(err.msg, "operation 3 (replace /a/x/y): no value at '/a/x': no member 'x'");
    char buf[512];
    ASSERT_EQ_STR(tyjson_error_format(&err, buf, sizeof(buf)),
                  "operation 3 (replace /a/x/y): no value at '/a/x': no member 'x' at $[3]");
    /* the document is still editable and consistent */
    ASSERT_EQ_INT(patch_text(m, "[{\"op\":\"add\",\"path\":\"/d/0\",\"value\":5}]", &err), TYJSON_OK);
    ASSERT_DOC(m, "{\"a\":{\"b\":[1,2]},\"c\":3,\"d\":[5]}");
    /* test failure */
    ASSERT_EQ_INT(patch_text(m, "[{\"op\":\"remove\",\"path\":\"/c\"},{\"op\":\"test\",\"path\":\"/d/0\",\"value\":5.0}]", &err),
                  TYJSON_E_TEST_FAILED);
    ASSERT_EQ_STR(err.msg, "operation 1 (test /d/0): test failed: the value differs");
    ASSERT_DOC(m, "{\"a\":{\"b\":[1,2]},\"c\":3,\"d\":[5]}");
    /* move into a child; from named in the message */
    ASSERT_EQ_INT(patch_text(m, "[{\"op\":\"move\",\"from\":\"/a\",\"path\":\"/a/b/0\"}]", &err), TYJSON_E_PATCH);
    ASSERT_EQ_STR(err.msg, "operation 0 (move /a/b/0 from /a): invalid JSON Patch: cannot move a value into one of its own children");
    ASSERT_EQ_INT(patch_text(m, "[{\"op\":\"copy\",\"from\":\"/q\",\"path\":\"/r\"}]", &err), TYJSON_E_NOT_FOUND);
    ASSERT_EQ_STR(err.msg, "operation 0 (copy /r from /q): no value at '/q': no member 'q'");
    ASSERT_DOC(m, "{\"a\":{\"b\":[1,2]},\"c\":3,\"d\":[5]}");
    tyjson_mut_doc_free(m);
}

TEST(patch_malformed) {
    static const struct {
        const char *patch;
        tyjson_status st;
        const char *path, *msg;
    } cases[] = {
        {"{}", TYJSON_E_PATCH, "$", "invalid JSON Patch: not an array of operations"},
        {"[1]", TYJSON_E_PATCH, "$[0]", "operation 0: invalid JSON Patch: an operation is an object"},
        {"[{\"path\":\"/a\"}]", TYJSON_E_PATCH, "$[0]", "operation 0: invalid JSON Patch: no \"op\" member"},
        {"[{\"op\":\"test\",\"path\":\"/a\",\"value\":1},{\"op\":\"jump\",\"path\":\"/a\"}]", TYJSON_E_PATCH,
         "$[1]", "operation 1: invalid JSON Patch: \"op\" is not add, remove, replace, move, copy or test"},
        {"[{\"op\":\"add\",\"value\":1}]", TYJSON_E_PATCH, "$[0]", "operation 0: invalid JSON Patch: no \"path\" member"},
        {"[{\"op\":\"add\",\"path\":1,\"value\":1}]", TYJSON_E_PATCH, "$[0]", "operation 0: invalid JSON Patch: \"path\" is not a string"},
        {"[{\"op\":\"add\",\"path\":\"/b\"}]", TYJSON_E_PATCH, "$[0]", "operation 0 (add /b): invalid JSON Patch: no \"value\" member"},
        {"[{\"op\":\"move\",\"path\":\"/b\"}]", TYJSON_E_PATCH, "$[0]", "operation 0 (move /b): invalid JSON Patch: no string \"from\" member"},
        {"[{\"op\":\"add\",\"path\":\"b\",\"value\":1}]", TYJSON_E_POINTER, "$[0]",
         "operation 0 (add b): invalid JSON Pointer: it must be empty or start with '/'"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        tyjson_mut_doc *m = mparse("{\"a\":1}");
        tyjson_error err;
        ASSERT_EQ_INT(patch_text(m, cases[i].patch, &err), cases[i].st);
        ASSERT_EQ_STR(err.path, cases[i].path);
        ASSERT_EQ_STR(err.msg, cases[i].msg);
        ASSERT_DOC(m, "{\"a\":1}");
        tyjson_mut_doc_free(m);
    }
    tyjson_mut_doc *m = mparse("1");
    ASSERT_EQ_INT(tyjson_mut_doc_patch(m, NULL, NULL), TYJSON_E_INVALID_ARG);
    ASSERT_EQ_INT(tyjson_mut_doc_patch(NULL, NULL, NULL), TYJSON_E_INVALID_ARG);
    ASSERT_EQ_INT(tyjson_mut_doc_patch_mut(m, NULL, NULL), TYJSON_E_INVALID_ARG);
    ASSERT_EQ_INT(patch_text(m, "[{\"op\":\"remove\",\"path\":\"/x\"}]", NULL), TYJSON_E_NOT_FOUND);
    tyjson_mut_doc_free(m);
}

TEST(patch_mut_from_inside) {
    /* a mutable patch that lives in the document it edits */
    tyjson_mut_doc *m = mparse("{\"ops\":[{\"op\":\"remove\",\"path\":\"/ops\"},{\"op\":\"add\",\"path\":\"/n\",\"value\":1}]}");
    tyjson_error err;
    tyjson_mut_val *ops = tyjson_mut_doc_ptr_get(m, "/ops");
    ASSERT_EQ_INT(tyjson_mut_doc_patch_mut(m, ops, &err), TYJSON_OK);
    ASSERT_DOC(m, "{\"n\":1}");
    tyjson_mut_doc_free(m);
}

/* ----------------------------------------------------------------------------
 * JSON Merge Patch
 * ------------------------------------------------------------------------- */
TEST(merge_basic) {
    static const char *const cases[][3] = {
        {"{\"a\":\"b\"}", "{\"a\":\"c\"}", "{\"a\":\"c\"}"},
        {"{\"a\":\"b\",\"b\":\"c\"}", "{\"a\":null}", "{\"b\":\"c\"}"},
        {"{\"a\":[\"b\"]}", "{\"a\":\"c\"}", "{\"a\":\"c\"}"},
        {"{\"a\":{\"b\":\"c\"}}", "{\"a\":{\"b\":\"d\",\"c\":null}}", "{\"a\":{\"b\":\"d\"}}"},
        {"[1,2]", "{\"a\":\"b\",\"c\":null}", "{\"a\":\"b\"}"},
        {"{\"e\":null}", "{\"a\":1}", "{\"e\":null,\"a\":1}"},
        {"{}", "{\"a\":{\"bb\":{\"ccc\":null}}}", "{\"a\":{\"bb\":{}}}"},
        {"{\"a\":1}", "[2]", "[2]"},
        {"{\"a\":1}", "null", "null"},
        {"{\"a\":1,\"b\":2,\"a\":3}", "{\"a\":null}", "{\"b\":2}"},
        {"{\"a\":1,\"b\":{\"c\":1}}", "{\"b\":{\"c\":{\"d\":null,\"e\":[]}}}", "{\"a\":1,\"b\":{\"c\":{\"e\":[]}}}"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        tyjson_mut_doc *m = mparse(cases[i][0]);
        tyjson_error err;
        ASSERT_EQ_INT(merge_text(m, cases[i][1], &err), TYJSON_OK);
        ASSERT_EQ_INT(err.code, TYJSON_OK);
        ASSERT_DOC(m, cases[i][2]);
        tyjson_mut_doc_free(m);
    }
    tyjson_mut_doc *m = tyjson_mut_doc_new(NULL);
    ASSERT_EQ_INT(merge_text(m, "{\"a\":null,\"b\":1}", NULL), TYJSON_OK);
    ASSERT_DOC(m, "{\"b\":1}");
    ASSERT_EQ_INT(tyjson_mut_doc_merge_patch(m, NULL, NULL), TYJSON_E_INVALID_ARG);
    ASSERT_EQ_INT(tyjson_mut_doc_merge_patch_mut(NULL, tyjson_mut_doc_get_root(m), NULL), TYJSON_E_INVALID_ARG);
    /* mutable patch, here from the document itself */
    ASSERT_EQ_INT(tyjson_mut_doc_merge_patch_mut(m, tyjson_mut_doc_get_root(m), NULL), TYJSON_OK);
    ASSERT_DOC(m, "{\"b\":1}");
    tyjson_mut_doc_free(m);
}

TEST(merge_deep) {
    /* 100000 levels: no recursion */
    enum { DEPTH = 100000 };
    char *s = (char *)malloc(DEPTH * 6 + 8);
    ASSERT_NOT_NULL(s);
    size_t n = 0;
    for (int i = 0; i < DEPTH; i++) memcpy(s + n, "{\"a\":", 5), n += 5;
    s[n++] = '1';
    for (int i = 0; i < DEPTH; i++) s[n++] = '}';
    tyjson_read_options o;
    memset(&o, 0, sizeof(o));
    o.max_depth = DEPTH + 1;
    tyjson_doc *p = tyjson_read_opts(s, n, &o, NULL);
    ASSERT_NOT_NULL(p);
    tyjson_mut_doc *m = tyjson_mut_doc_new(NULL);
    ASSERT_EQ_INT(tyjson_mut_doc_merge_patch(m, tyjson_doc_get_root(p), NULL), TYJSON_OK);
    bool eq = false;
    tyjson_doc *back = tyjson_mut_doc_imut_copy(m, NULL);
    ASSERT_EQ_INT(tyjson_equals_ex(tyjson_doc_get_root(back), tyjson_doc_get_root(p), NULL, &eq), TYJSON_OK);
    ASSERT_TRUE(eq);
    /* and the diff of the two, also iterative: equal gives [] */
    tyjson_mut_doc *d = tyjson_diff(tyjson_doc_get_root(back), tyjson_doc_get_root(p), NULL, NULL);
    ASSERT_NOT_NULL(d);
    ASSERT_DOC(d, "[]");
    tyjson_mut_doc_free(d);
    tyjson_doc_free(back);
    tyjson_mut_doc_free(m);
    tyjson_doc_free(p);
    free(s);
}

/* ----------------------------------------------------------------------------
 * Diff
 * ------------------------------------------------------------------------- */
/* Applies diff(a, b) to a copy of a and checks the result equals b; the
 * patch text goes to out when not NULL. */
static void check_diff(const tyjson_val *a, const tyjson_val *b, char *out, size_t size) {
    tyjson_error err;
    tyjson_mut_doc *p = tyjson_diff(a, b, NULL, &err);
    if (!p) TEST_FAIL("diff failed: %s", err.msg);
    if (out) mtext(p, out, size);
    tyjson_mut_doc *m = tyjson_mut_doc_new(NULL);
    tyjson_mut_doc_set_root(m, tyjson_val_mut_copy(m, a));
    tyjson_status st = tyjson_mut_doc_patch_mut(m, tyjson_mut_doc_get_root(p), &err);
    if (st != TYJSON_OK) {
        char pt[4096];
        TEST_FAIL("patch of the diff failed: %s (patch %s)", err.msg, mtext(p, pt, sizeof(pt)));
    }
    tyjson_doc *r = tyjson_mut_doc_imut_copy(m, NULL);
    if (!tyjson_equals(tyjson_doc_get_root(r), b)) {
        char pt[4096], rt[4096];
        TEST_FAIL("patch(a, diff(a, b)) != b: patch %s gave %s", mtext(p, pt, sizeof(pt)),
                  mtext(m, rt, sizeof(rt)));
    }
    tyjson_doc_free(r);
    tyjson_mut_doc_free(m);
    tyjson_mut_doc_free(p);
}

static void diff_text(const char *a, const char *b, const char *want) {
    tyjson_doc *da = parse(a), *db = parse(b);
    char got[4096];
    check_diff(tyjson_doc_get_root(da), tyjson_doc_get_root(db), got, sizeof(got));
    if (want) ASSERT_EQ_STR(got, want);
    tyjson_doc_free(da);
    tyjson_doc_free(db);
}

TEST(diff_cases) {
    diff_text("{\"a\":1}", "{\"a\":1}", "[]");
    diff_text("1", "2", "[{\"op\":\"replace\",\"path\":\"\",\"value\":2}]");
    diff_text("{\"a\":1,\"b\":2}", "{\"b\":3,\"c\":4}",
              "[{\"op\":\"remove\",\"path\":\"/a\"},{\"op\":\"replace\",\"path\":\"/b\",\"value\":3},"
              "{\"op\":\"add\",\"path\":\"/c\",\"value\":4}]");
    diff_text("[1,2,3]", "[0,1,2,3]", "[{\"op\":\"add\",\"path\":\"/0\",\"value\":0}]");
    diff_text("[1,2,3,4]", "[1,4]",
              "[{\"op\":\"remove\",\"path\":\"/1\"},{\"op\":\"remove\",\"path\":\"/1\"}]");
    diff_text("[1,2,3]", "[1,5,6,7,3]",
              "[{\"op\":\"replace\",\"path\":\"/1\",\"value\":5},{\"op\":\"add\",\"path\":\"/2\",\"value\":6},"
              "{\"op\":\"add\",\"path\":\"/3\",\"value\":7}]");
    diff_text("{\"a/b\":{\"~\":[1]}}", "{\"a/b\":{\"~\":[2]}}",
              "[{\"op\":\"replace\",\"path\":\"/a~1b/~0/0\",\"value\":2}]");
    diff_text("[1]", "[1.0]", "[{\"op\":\"replace\",\"path\":\"/0\",\"value\":1.0}]");
    diff_text("{\"a\":1,\"a\":2}", "{\"a\":1}", "[{\"op\":\"replace\",\"path\":\"\",\"value\":{\"a\":1}}]");
    diff_text("[[1,2],{\"x\":[]}]", "[[1,3],{\"x\":[null]}]", NULL);
    diff_text("{\"\":1}", "{\"\":[]}", "[{\"op\":\"replace\",\"path\":\"/\",\"value\":[]}]");
    tyjson_error err;
    ASSERT_NULL(tyjson_diff(NULL, NULL, NULL, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_INVALID_ARG);
    ASSERT_NULL(tyjson_mut_diff(NULL, NULL, NULL, &err));
    /* the mutable form */
    tyjson_mut_doc *a = mparse("{\"k\":[1,2]}"), *b = mparse("{\"k\":[2]}");
    tyjson_mut_doc *p = tyjson_mut_diff(tyjson_mut_doc_get_root(a), tyjson_mut_doc_get_root(b), NULL, &err);
    ASSERT_NOT_NULL(p);
    ASSERT_DOC(p, "[{\"op\":\"remove\",\"path\":\"/k/0\"}]");
    tyjson_mut_doc_free(p);
    tyjson_mut_doc_free(a);
    tyjson_mut_doc_free(b);
}

/* A small random JSON generator (fixed seed): few keys and short arrays so
 * that pairs share structure; b is usually a perturbed regeneration of a
 * (same stream until a perturbation), sometimes independent. */
typedef struct rng {
    uint64_t s;
} rng;
static uint32_t rnd(rng *r, uint32_t n) {
    r->s ^= r->s << 13;
    r->s ^= r->s >> 7;
    r->s ^= r->s << 17;
    return (uint32_t)(r->s >> 32) % n;
}

typedef struct gen {
    rng main, noise;
    uint32_t perturb; /* 1 in perturb nodes draw extra noise (0: never) */
    char *buf;
    size_t len, cap;
} gen;

static void put(gen *g, const char *s) {
    size_t n = strlen(s);
    if (g->len + n + 1 > g->cap) {
        g->cap = (g->len + n + 1) * 2;
        g->buf = (char *)realloc(g->buf, g->cap);
        if (!g->buf) TEST_FAIL("no memory");
    }
    memcpy(g->buf + g->len, s, n + 1);
    g->len += n;
}

static void gen_value(gen *g, int depth) {
    static const char *const keys[] = {"\"a\"", "\"b\"", "\"c\"", "\"~\"", "\"/\"", "\"a/b~0\"", "\"\""};
    static const char *const scalars[] = {"0", "1", "-1", "1.0", "2.5", "true", "false", "null",
                                          "\"\"", "\"x\"", "\"y\"", "18446744073709551615"};
    if (g->perturb && rnd(&g->noise, g->perturb) == 0) g->main.s += rnd(&g->noise, 1000) + 1;
    uint32_t kind = rnd(&g->main, depth > 3 ? 2 : 4);
    if (kind < 2) {
        put(g, scalars[rnd(&g->main, sizeof(scalars) / sizeof(scalars[0]))]);
    } else if (kind == 2) {
        uint32_t n = rnd(&g->main, 6);
        put(g, "[");
        for (uint32_t i = 0; i < n; i++) {
            if (i) put(g, ",");
            gen_value(g, depth + 1);
        }
        put(g, "]");
    } else {
        uint32_t n = rnd(&g->main, 5), used = 0;
        put(g, "{");
        for (uint32_t i = 0; i < n; i++) {
            uint32_t k = rnd(&g->main, sizeof(keys) / sizeof(keys[0]));
            if (used & (1u << k)) continue; /* distinct keys */
            used |= 1u << k;
            if (g->buf[g->len - 1] != '{') put(g, ",");
            put(g, keys[k]);
            put(g, ":");
            gen_value(g, depth + 1);
        }
        put(g, "}");
    }
}

static tyjson_doc *gen_doc(uint64_t seed, uint64_t noise, uint32_t perturb) {
    gen g = {{seed}, {noise}, perturb, NULL, 0, 0};
    put(&g, "");
    gen_value(&g, 0);
    tyjson_doc *d = parse(g.buf);
    free(g.buf);
    return d;
}

TEST(diff_property_random_pairs) {
    enum { PAIRS = 4000 };
    for (uint64_t i = 0; i < PAIRS; i++) {
        uint64_t seed = 0x9E3779B97F4A7C15ull * (i + 1);
        tyjson_doc *a = gen_doc(seed, 0, 0);
        tyjson_doc *b = i % 4 == 0 ? gen_doc(seed ^ 0xABCDEF, 0, 0) : gen_doc(seed, seed + 7, 3 + (uint32_t)(i % 5));
        check_diff(tyjson_doc_get_root(a), tyjson_doc_get_root(b), NULL, 0);
        check_diff(tyjson_doc_get_root(b), tyjson_doc_get_root(a), NULL, 0);
        tyjson_doc_free(a);
        tyjson_doc_free(b);
    }
}

/* ----------------------------------------------------------------------------
 * Conformance: ../shared/conformance/json-patch and merge-patch
 * ------------------------------------------------------------------------- */
static tyjson_doc *shared_doc(const char *rel) {
    char path[1024];
    test_shared_path(rel, path, sizeof(path));
    tyjson_doc *d = tyjson_read_file(path, NULL, NULL);
    if (!d) {
        if (test_require_shared()) TEST_FAIL("missing %s", path);
        TEST_SKIP("shared data not found at %s", path);
    }
    return d;
}

static void run_patch_suite(const char *rel, size_t want_records) {
    tyjson_doc *suite = shared_doc(rel);
    const tyjson_val *root = tyjson_doc_get_root(suite);
    ASSERT_EQ_UINT(tyjson_arr_size(root), want_records);
    size_t idx, max, passed = 0, skipped = 0;
    const tyjson_val *rec;
    TYJSON_ARR_FOREACH(root, idx, max, rec) {
        const tyjson_val *doc = tyjson_obj_get(rec, "doc"), *patch = tyjson_obj_get(rec, "patch");
        if (tyjson_is_true(tyjson_obj_get(rec, "disabled")) || !doc || !patch) {
            skipped++;
            continue;
        }
        const tyjson_val *expected = tyjson_obj_get(rec, "expected");
        bool want_error = tyjson_obj_get(rec, "error") != NULL;
        const char *what = tyjson_get_str(tyjson_obj_get(rec, want_error ? "error" : "comment"));
        tyjson_mut_doc *m = tyjson_mut_doc_new(NULL);
        tyjson_mut_doc_set_root(m, tyjson_val_mut_copy(m, doc));
        char before[4096], after[4096];
        mtext(m, before, sizeof(before));
        tyjson_error err;
        tyjson_status st = tyjson_mut_doc_patch(m, patch, &err);
        if (want_error) {
            if (st == TYJSON_OK) TEST_FAIL("%s record %zu (%s): the patch should fail", rel, idx, what ? what : "");
            if (strcmp(mtext(m, after, sizeof(after)), before) != 0)
                TEST_FAIL("%s record %zu: a failed patch changed the document: %s", rel, idx, after);
            if (err.path[0] != '$' || strncmp(err.msg, "operation ", 10) != 0)
                TEST_FAIL("%s record %zu: error not named: %s at %s", rel, idx, err.msg, err.path);
        } else {
            if (st != TYJSON_OK) TEST_FAIL("%s record %zu (%s): %s", rel, idx, what ? what : "", err.msg);
            if (expected) {
                tyjson_doc *r = tyjson_mut_doc_imut_copy(m, NULL);
                if (!tyjson_equals(tyjson_doc_get_root(r), expected))
                    TEST_FAIL("%s record %zu (%s): got %s", rel, idx, what ? what : "",
                              mtext(m, after, sizeof(after)));
                tyjson_doc_free(r);
            }
        }
        tyjson_mut_doc_free(m);
        passed++;
    }
    printf("  %s: %zu passed, %zu skipped\n", rel, passed, skipped);
    tyjson_doc_free(suite);
}

TEST(conformance_json_patch_tests) { run_patch_suite("conformance/json-patch/tests.json", 95); }

TEST(conformance_json_patch_spec) { run_patch_suite("conformance/json-patch/spec_tests.json", 17); }

TEST(conformance_merge_patch) {
    tyjson_doc *suite = shared_doc("conformance/merge-patch/rfc7396-examples.json");
    const tyjson_val *root = tyjson_doc_get_root(suite);
    ASSERT_EQ_UINT(tyjson_arr_size(root), 15);
    size_t idx, max, passed = 0;
    const tyjson_val *rec;
    TYJSON_ARR_FOREACH(root, idx, max, rec) {
        tyjson_mut_doc *m = tyjson_mut_doc_new(NULL);
        tyjson_mut_doc_set_root(m, tyjson_val_mut_copy(m, tyjson_obj_get(rec, "original")));
        ASSERT_EQ_INT(tyjson_mut_doc_merge_patch(m, tyjson_obj_get(rec, "patch"), NULL), TYJSON_OK);
        tyjson_doc *r = tyjson_mut_doc_imut_copy(m, NULL);
        char got[4096];
        if (!tyjson_equals(tyjson_doc_get_root(r), tyjson_obj_get(rec, "result")))
            TEST_FAIL("merge example %zu: got %s", idx, mtext(m, got, sizeof(got)));
        tyjson_doc_free(r);
        tyjson_mut_doc_free(m);
        passed++;
    }
    printf("  merge-patch: %zu passed\n", passed);
    tyjson_doc_free(suite);
}

/* ----------------------------------------------------------------------------
 * Allocation failures: every request refused in turn; a refused patch or
 * merge is E_NOMEM with the document exactly as it was; nothing leaks.
 * ------------------------------------------------------------------------- */
#define MAX_STEPS 100000u

static const char sweep_doc[] =
    "{\"a\":{\"b\":[1,2,3,{\"c\":\"long string that needs copying\"}]},\"d\":[],\"e\":\"x\"}";

typedef tyjson_status (*apply_fn)(tyjson_mut_doc *m, const tyjson_val *p, tyjson_error *err);

static void sweep_apply(apply_fn fn, const char *patch, const char *want) {
    tyjson_doc *src = parse(sweep_doc), *p = parse(patch);
    bool done = false;
    for (size_t n = 0; n < MAX_STEPS && !done; n++) {
        test_alloc t;
        tyjson_alloc alc = test_alloc_make(&t, SIZE_MAX);
        tyjson_mut_doc *m = tyjson_doc_mut_copy(src, &alc);
        ASSERT_NOT_NULL(m);
        char before[4096], after[4096];
        mtext(m, before, sizeof(before));
        t.calls = 0;
        t.fail_at = n;
        tyjson_error err;
        tyjson_status st = fn(m, tyjson_doc_get_root(p), &err);
        t.fail_at = SIZE_MAX;
        if (t.failed == 0) {
            ASSERT_EQ_INT(st, TYJSON_OK);
            ASSERT_DOC(m, want);
            done = true;
        } else if (st != TYJSON_OK) {
            ASSERT_EQ_INT(st, TYJSON_E_NOMEM);
            ASSERT_EQ_STR(mtext(m, after, sizeof(after)), before);
        } else {
            ASSERT_DOC(m, want); /* a refusal it could survive */
        }
        tyjson_mut_doc_free(m);
        ASSERT_EQ_INT(t.live, 0);
    }
    ASSERT_TRUE(done);
    tyjson_doc_free(src);
    tyjson_doc_free(p);
}

TEST(alloc_fail_patch) {
    /* enough operations to take the journal past its inline entries */
    char patch[8192] = "[";
    for (int i = 0; i < 30; i++) strcat(patch, "{\"op\":\"add\",\"path\":\"/d/-\",\"value\":{\"k\":[1,\"two\"]}},");
    strcat(patch, "{\"op\":\"copy\",\"from\":\"/a\",\"path\":\"/new key\"},"
                  "{\"op\":\"move\",\"from\":\"/e\",\"path\":\"/a/b/0\"},"
                  "{\"op\":\"test\",\"path\":\"/a/b/4/c\",\"value\":\"long string that needs copying\"},"
                  "{\"op\":\"replace\",\"path\":\"/d\",\"value\":[true]}]");
    sweep_apply(tyjson_mut_doc_patch, patch,
                "{\"a\":{\"b\":[\"x\",1,2,3,{\"c\":\"long string that needs copying\"}]},\"d\":[true],"
                "\"new key\":{\"b\":[1,2,3,{\"c\":\"long string that needs copying\"}]}}");
}

TEST(alloc_fail_merge) {
    sweep_apply(tyjson_mut_doc_merge_patch,
                "{\"a\":{\"b\":null,\"n\":{\"deep\":{\"er\":[1,2,{\"x\":null}]}}},\"d\":null,"
                "\"e\":{\"f\":\"a string to copy\"},\"z\":null}",
                "{\"a\":{\"n\":{\"deep\":{\"er\":[1,2,{\"x\":null}]}}},\"e\":{\"f\":\"a string to copy\"}}");
}

TEST(alloc_fail_diff) {
    tyjson_doc *a = parse(sweep_doc);
    tyjson_doc *b = parse("{\"a\":{\"b\":[0,1,2,3,4,{\"c\":\"other\"},[]]},\"d\":[1],\"f/g\":\"y\"}");
    bool done = false;
    for (size_t n = 0; n < MAX_STEPS && !done; n++) {
        test_alloc t;
        tyjson_alloc alc = test_alloc_make(&t, n);
        tyjson_error err;
        tyjson_mut_doc *p = tyjson_diff(tyjson_doc_get_root(a), tyjson_doc_get_root(b), &alc, &err);
        if (p) {
            tyjson_mut_doc_free(p);
            done = t.failed == 0;
        } else {
            ASSERT_EQ_INT(err.code, TYJSON_E_NOMEM);
        }
        ASSERT_EQ_INT(t.live, 0);
    }
    ASSERT_TRUE(done);
    check_diff(tyjson_doc_get_root(a), tyjson_doc_get_root(b), NULL, 0);
    tyjson_doc_free(a);
    tyjson_doc_free(b);
}

/* ----------------------------------------------------------------------------
 * The diff's work, by its counters (dom/diff_stats.h)
 * ------------------------------------------------------------------------- */
static tyjson_doc *parse_deep(const char *s, size_t len) {
    tyjson_read_options ro = {0, 1u << 20, NULL};
    tyjson_error err;
    tyjson_doc *d = tyjson_read_opts(s, len, &ro, &err);
    if (!d) TEST_FAIL("cannot parse: %s", err.msg);
    return d;
}

/* diff(a, b) with its counters; the patch text to out, and checked:
 * patch(a, diff(a, b)) == b. */
static tyjson__diff_stats counted(const tyjson_doc *a, const tyjson_doc *b, char *out, size_t size) {
    tyjson__diff_stats st;
    tyjson_error err;
    tyjson_mut_doc *p = tyjson__diff_counted(tyjson_doc_get_root(a), tyjson_doc_get_root(b), NULL,
                                             &err, &st);
    if (!p) TEST_FAIL("diff failed: %s", err.msg);
    if (out) mtext(p, out, size);
    tyjson_mut_doc_free(p);
    check_diff(tyjson_doc_get_root(a), tyjson_doc_get_root(b), NULL, 0);
    return st;
}

/* depth levels of <pre>{"s":[1,"x"],"a":<next>}, then leaf. */
static char *chain_text(size_t depth, const char *pre, const char *leaf, size_t *len) {
    static const char lvl[] = "{\"s\":[1,\"x\"],\"a\":";
    size_t lp = strlen(pre), ll = strlen(lvl), lf = strlen(leaf);
    size_t n = depth * (lp + ll + 1) + lf;
    char *t = (char *)malloc(n + 1);
    ASSERT_NOT_NULL(t);
    char *w = t;
    for (size_t i = 0; i < depth; i++) {
        memcpy(w, pre, lp);
        memcpy(w + lp, lvl, ll);
        w += lp + ll;
    }
    memcpy(w, leaf, lf);
    w += lf;
    for (size_t i = 0; i < depth; i++) *w++ = '}';
    *w = 0;
    *len = n;
    return t;
}

TEST(diff_linear_deep_chain) {
    enum { DEPTH = 5000 };
    size_t la, lb;
    char *ta = chain_text(DEPTH, "", "0", &la), *tb = chain_text(DEPTH, "", "1", &lb);
    tyjson_doc *a = parse_deep(ta, la), *b = parse_deep(tb, lb), *a2 = parse_deep(ta, la);
    size_t slots = tyjson_doc_get_val_count(a);
    /* only the "s" pairs (3 slots each) are deep-compared: the chain's
     * levels differ by hash (before: every level's subtree, 37.5M slots) */
    tyjson__diff_stats st = counted(a, b, NULL, 0);
    ASSERT_EQ_UINT(st.deep_compares, DEPTH);
    ASSERT_EQ_UINT(st.deep_compared, 3 * DEPTH);
    /* per level: "s" and "a" looked up on both sides (1 + 2, twice) and
     * each side's two keys against each other for repeats */
    ASSERT_EQ_UINT(st.key_compares, 8 * DEPTH);
    /* equal values: one deep comparison of the whole */
    st = counted(a, a2, NULL, 0);
    ASSERT_EQ_UINT(st.deep_compares, 1);
    ASSERT_EQ_UINT(st.deep_compared, slots);
    ASSERT_EQ_UINT(st.key_compares, 0);
    tyjson_doc_free(a);
    tyjson_doc_free(b);
    tyjson_doc_free(a2);
    free(ta);
    free(tb);
    /* the same through arrays: [0,[0,...[0,0]...]] against a 1 at the bottom */
    size_t n = DEPTH * 4 + 1;
    ta = (char *)malloc(n + 1);
    tb = (char *)malloc(n + 1);
    ASSERT_NOT_NULL(ta);
    ASSERT_NOT_NULL(tb);
    for (size_t i = 0; i < DEPTH; i++) memcpy(ta + i * 3, "[0,", 3);
    ta[DEPTH * 3] = '0';
    memset(ta + DEPTH * 3 + 1, ']', DEPTH);
    ta[DEPTH * 4 + 1] = 0;
    memcpy(tb, ta, DEPTH * 4 + 2);
    tb[DEPTH * 3] = '1';
    a = parse_deep(ta, DEPTH * 4 + 1);
    b = parse_deep(tb, DEPTH * 4 + 1);
    char out[256];
    st = counted(a, b, NULL, 0);
    ASSERT_EQ_UINT(st.deep_compares, DEPTH); /* the common prefix 0 of each level */
    ASSERT_EQ_UINT(st.deep_compared, DEPTH);
    tyjson_doc_free(a);
    tyjson_doc_free(b);
    /* and the leaf replaced at the bottom of a 3-deep one, as text */
    a = parse("[0,[0,[0,0]]]");
    b = parse("[0,[0,[0,1]]]");
    st = counted(a, b, out, sizeof(out));
    ASSERT_EQ_STR(out, "[{\"op\":\"replace\",\"path\":\"/1/1/1\",\"value\":1}]");
    ASSERT_EQ_UINT(st.deep_compares, 3);
    tyjson_doc_free(a);
    tyjson_doc_free(b);
    free(ta);
    free(tb);
}

/* {"k0":0,"k1":1,...} of n members in order or reversed; member `change`
 * (if < n) gets value -1, member `drop` (if < n) is left out, and "new"
 * is added when add. */
static char *object_text(size_t n, bool reversed, size_t change, size_t drop, bool add) {
    char *t = (char *)malloc(n * 32 + 32);
    ASSERT_NOT_NULL(t);
    size_t w = 0;
    t[w++] = '{';
    for (size_t j = 0; j < n; j++) {
        size_t i = reversed ? n - 1 - j : j;
        if (i == drop) continue;
        if (t[w - 1] != '{') t[w++] = ',';
        if (i == change) w += (size_t)sprintf(t + w, "\"k%zu\":-1", i);
        else w += (size_t)sprintf(t + w, "\"k%zu\":%zu", i, i);
    }
    if (add) w += (size_t)sprintf(t + w, "%s\"new\":true", t[w - 1] == '{' ? "" : ",");
    t[w++] = '}';
    t[w] = 0;
    return t;
}

TEST(diff_linear_large_objects) {
    enum { N = 40000 };
    char *ta = object_text(N, false, N, N, false), *tb = object_text(N, true, 7, 11, true);
    tyjson_doc *a = parse(ta), *b = parse(tb);
    char out[512];
    tyjson__diff_stats st = counted(a, b, out, sizeof(out));
    ASSERT_EQ_STR(out, "[{\"op\":\"remove\",\"path\":\"/k11\"},"
                       "{\"op\":\"replace\",\"path\":\"/k7\",\"value\":-1},"
                       "{\"op\":\"add\",\"path\":\"/new\",\"value\":true}]");
    /* before: 1.2G key compares (pairwise search for repeats and lookups) */
    /* measured: 47,102 (1.18 per member) */
    ASSERT_TRUE(st.key_compares < 2 * (size_t)N);
    /* every common member's value once (N - 2 equal ones, 1 slot each) */
    ASSERT_EQ_UINT(st.deep_compares, N - 2);
    ASSERT_EQ_UINT(st.deep_compared, N - 2);
    tyjson_doc_free(a);
    tyjson_doc_free(b);
    free(ta);
    free(tb);
    /* a repeated key (the last one, so the table meets it last) in a large
     * object: replaced whole, on either side */
    ta = object_text(40, false, 40, 40, false);
    size_t l = strlen(ta);
    tb = (char *)malloc(l + 16);
    ASSERT_NOT_NULL(tb);
    memcpy(tb, ta, l - 1);
    strcpy(tb + l - 1, ",\"k3\":3}");
    a = parse(ta);
    b = parse(tb);
    st = counted(a, b, out, sizeof(out));
    ASSERT_TRUE(strncmp(out, "[{\"op\":\"replace\",\"path\":\"\",\"value\":{\"k0\":0,", 43) == 0);
    st = counted(b, a, out, sizeof(out));
    ASSERT_TRUE(strncmp(out, "[{\"op\":\"replace\",\"path\":\"\",\"value\":{\"k0\":0,", 43) == 0);
    /* a key repeated in a that b lacks (it meets its own first copy) */
    tyjson_doc_free(b);
    free(tb);
    tb = (char *)malloc(l + 32);
    ASSERT_NOT_NULL(tb);
    memcpy(tb, ta, l - 1);
    strcpy(tb + l - 1, ",\"zz\":1,\"zz\":2}");
    b = parse(tb);
    st = counted(b, a, out, sizeof(out));
    ASSERT_TRUE(strncmp(out, "[{\"op\":\"replace\",\"path\":\"\",\"value\":{\"k0\":0,", 43) == 0);
    tyjson_doc_free(a);
    tyjson_doc_free(b);
    /* large objects that are equal in another order: one deep comparison */
    a = parse(ta);
    free(ta);
    ta = object_text(40, true, 40, 40, false);
    b = parse(ta);
    st = counted(a, b, out, sizeof(out));
    ASSERT_EQ_STR(out, "[]");
    ASSERT_EQ_UINT(st.deep_compares, 1);
    ASSERT_EQ_UINT(st.key_compares, 0);
    tyjson_doc_free(a);
    tyjson_doc_free(b);
    free(ta);
    free(tb);
}

/* diff of a and b as text, with its deep comparisons. */
static void spelled(const char *a, const char *b, const char *want, size_t deep) {
    tyjson_doc *da = parse(a), *db = parse(b);
    char out[512];
    tyjson__diff_stats st = counted(da, db, out, sizeof(out));
    ASSERT_EQ_STR(out, want);
    ASSERT_EQ_UINT(st.deep_compares, deep);
    tyjson_doc_free(da);
    tyjson_doc_free(db);
}

TEST(diff_hash_follows_equal_rules) {
    /* reals by value, whatever the spelling, -0.0 like 0.0: equal hashes,
     * one deep comparison of the whole */
    spelled("[1.0,1e0,-0.0,0.5,\"s\"]", "[1e0,10e-1,0.0,5e-1,\"s\"]", "[]", 1);
    /* an integer never equals a real (equal.c): 1 against 1.0 or 1e0 is a
     * replace, found by hash alone */
    spelled("[1]", "[1.0]", "[{\"op\":\"replace\",\"path\":\"/0\",\"value\":1.0}]", 0);
    spelled("[1e0]", "[1]", "[{\"op\":\"replace\",\"path\":\"/0\",\"value\":1}]", 0);
    /* objects equal in another order, nested */
    spelled("[{\"a\":1,\"b\":{\"c\":[1,2],\"d\":null}}]", "[{\"b\":{\"d\":null,\"c\":[1,2]},\"a\":1}]",
            "[]", 1);
    /* strings and raw numbers of the same bytes differ */
    static const char big[] = "[123456789012345678901234567890]";
    tyjson_read_options ro = {TYJSON_READ_BIGNUM_AS_RAW, 0, NULL};
    tyjson_doc *raw = tyjson_read_opts(big, strlen(big), &ro, NULL);
    tyjson_doc *raw2 = tyjson_read_opts(big, strlen(big), &ro, NULL);
    tyjson_doc *str = parse("[\"123456789012345678901234567890\"]");
    ASSERT_NOT_NULL(raw);
    ASSERT_NOT_NULL(raw2);
    char out[256];
    tyjson__diff_stats st = counted(raw, str, out, sizeof(out));
    ASSERT_EQ_STR(out, "[{\"op\":\"replace\",\"path\":\"/0\",\"value\":\"123456789012345678901234567890\"}]");
    ASSERT_EQ_UINT(st.deep_compares, 0);
    st = counted(raw, raw2, out, sizeof(out));
    ASSERT_EQ_STR(out, "[]");
    ASSERT_EQ_UINT(st.deep_compares, 1);
    tyjson_doc_free(raw2);
    tyjson_doc_free(raw);
    tyjson_doc_free(str);
    /* integers by value whatever their subtype: SINT 5 equals UINT 5; SINT
     * -1 and UINT 2^64-1 share a bit pattern, so their hashes are equal
     * and the deep comparison tells them apart */
    tyjson_mut_doc *m = tyjson_mut_doc_new(NULL);
    tyjson_mut_val *ma = tyjson_mut_arr(m), *mb = tyjson_mut_arr(m);
    ASSERT_TRUE(tyjson_mut_arr_append(ma, tyjson_mut_sint(m, 5)));
    ASSERT_TRUE(tyjson_mut_arr_append(mb, tyjson_mut_uint(m, 5)));
    ASSERT_TRUE(tyjson_mut_arr_append(ma, tyjson_mut_sint(m, -1)));
    ASSERT_TRUE(tyjson_mut_arr_append(mb, tyjson_mut_uint(m, UINT64_MAX)));
    tyjson_doc *ia = tyjson_mut_val_imut_copy(ma, NULL), *ib = tyjson_mut_val_imut_copy(mb, NULL);
    ASSERT_NOT_NULL(ia);
    ASSERT_NOT_NULL(ib);
    st = counted(ia, ib, out, sizeof(out));
    ASSERT_EQ_STR(out, "[{\"op\":\"replace\",\"path\":\"/1\",\"value\":18446744073709551615}]");
    /* the arrays (equal hashes, unequal), the prefix's 5 (equal), its -1
     * (unequal: the end of the prefix, not tried again for the suffix),
     * and the -1 pair again when it is visited */
    ASSERT_EQ_UINT(st.deep_compares, 4);
    tyjson_doc_free(ia);
    tyjson_doc_free(ib);
    tyjson_mut_doc_free(m);
}

/* Random pairs of objects past the key-table size (17 to 40 members of a
 * pool of 48 keys, in random order, values small scalars, arrays and
 * objects): the property patch(a, diff(a, b)) == b, both ways. */
static uint64_t lcg(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

static void large_object_text(uint64_t *s, char *t, size_t size, uint32_t shift) {
    size_t w = 0;
    bool used[48] = {false};
    uint32_t n = 17 + (uint32_t)(lcg(s) % 24);
    w += (size_t)snprintf(t + w, size - w, "{");
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = (uint32_t)(lcg(s) % 48);
        if (used[k]) continue;
        used[k] = true;
        uint32_t v = (uint32_t)(lcg(s) % 6) + shift;
        const char *val[] = {"0", "1.0", "\"s\"", "[1,{\"q\":2}]", "{\"q\":[1,2]}", "null", "true", "{}"};
        w += (size_t)snprintf(t + w, size - w, "%s\"key%u\":%s", w > 1 ? "," : "", k, val[v % 8]);
    }
    snprintf(t + w, size - w, "}");
}

TEST(diff_property_large_objects) {
    char ta[4096], tb[4096];
    for (uint64_t i = 0; i < 500; i++) {
        uint64_t sa = i * 2654435761u + 1, sb = i % 3 ? sa : sa ^ 0x5555;
        large_object_text(&sa, ta, sizeof(ta), 0);
        large_object_text(&sb, tb, sizeof(tb), (uint32_t)(i % 3));
        tyjson_doc *a = parse(ta), *b = parse(tb);
        check_diff(tyjson_doc_get_root(a), tyjson_doc_get_root(b), NULL, 0);
        check_diff(tyjson_doc_get_root(b), tyjson_doc_get_root(a), NULL, 0);
        tyjson_doc_free(a);
        tyjson_doc_free(b);
    }
}

TEST(alloc_fail_diff_large_objects) {
    /* objects past the key-table size, nested, with an array */
    char *ta = object_text(20, false, 20, 3, false), *tb = object_text(20, true, 5, 9, true);
    size_t la = strlen(ta), lb = strlen(tb);
    char *wa = (char *)malloc(la + 64), *wb = (char *)malloc(lb + 64);
    ASSERT_NOT_NULL(wa);
    ASSERT_NOT_NULL(wb);
    snprintf(wa, la + 64, "{\"x\":%s,\"y\":[1,2,3]}", ta);
    snprintf(wb, lb + 64, "{\"x\":%s,\"y\":[1,4,3]}", tb);
    tyjson_doc *a = parse(wa), *b = parse(wb);
    bool done = false;
    for (size_t n = 0; n < MAX_STEPS && !done; n++) {
        test_alloc t;
        tyjson_alloc alc = test_alloc_make(&t, n);
        tyjson_error err;
        tyjson_mut_doc *p = tyjson_diff(tyjson_doc_get_root(a), tyjson_doc_get_root(b), &alc, &err);
        if (p) {
            tyjson_mut_doc_free(p);
            done = t.failed == 0;
        } else {
            ASSERT_EQ_INT(err.code, TYJSON_E_NOMEM);
        }
        ASSERT_EQ_INT(t.live, 0);
    }
    ASSERT_TRUE(done);
    check_diff(tyjson_doc_get_root(a), tyjson_doc_get_root(b), NULL, 0);
    tyjson_doc_free(a);
    tyjson_doc_free(b);
    free(ta);
    free(tb);
    free(wa);
    free(wb);
}

int main(int argc, char **argv) { return test_main(argc, argv); }
