/*
 * test_null_args.c - the NULL policy of docs/api.md ("NULL arguments"),
 * checked on every public function: each TYJSON_API function of
 * include/tyjson/ and each public inline accessor, called with NULL for
 * its pointer arguments (one at a time where the others matter) and zero
 * sizes, must return the documented neutral result and neither crash nor
 * trip ASan/UBSan.
 *
 * The sections follow the headers; a new public function belongs here.
 */
#include "test.h"
#include "tyjson.h"

#include <math.h>

/* The error record after a call that took it: code set, msg never empty. */
#define ASSERT_ERR(err, want)                                                  \
    do {                                                                       \
        ASSERT_EQ_INT((err).code, (want));                                     \
        ASSERT_TRUE((err).msg[0] != 0);                                        \
    } while (0)

static tyjson_error fresh_err(void) {
    tyjson_error e;
    memset(&e, 0x5A, sizeof(e)); /* garbage, so a skipped fill shows */
    return e;
}

/* ----------------------------------------------------------------------------
 * MARK: - common.h
 * ------------------------------------------------------------------------- */
TEST(common_functions) {
    ASSERT_EQ_STR(tyjson_status_name((tyjson_status)9999), "E_UNKNOWN");
    ASSERT_EQ_STR(tyjson_status_msg((tyjson_status)-1), "unknown status");
    char buf[64] = "x";
    ASSERT_TRUE(tyjson_error_format(NULL, buf, sizeof(buf)) == buf);
    ASSERT_EQ_STR(buf, "");
    tyjson_error e = fresh_err();
    e.code = TYJSON_E_NOMEM;
    e.msg[0] = 0; /* an empty message: the status message is used */
    e.line = 1;
    e.column = 2;
    e.path[0] = 0;
    ASSERT_NULL(tyjson_error_format(&e, NULL, 10));
    ASSERT_TRUE(tyjson_error_format(&e, buf, 0) == buf); /* nothing written */
    ASSERT_EQ_STR(tyjson_error_format(&e, buf, sizeof(buf)), "1:2: out of memory");
    size_t line = 7, col = 7;
    ASSERT_FALSE(tyjson_locate(NULL, 3, 0, &line, &col));
    ASSERT_EQ_UINT(line, 7);
    ASSERT_TRUE(tyjson_locate(NULL, 0, 0, &line, &col)); /* NULL, 0: the empty text */
    ASSERT_EQ_UINT(line, 1);
    ASSERT_EQ_UINT(col, 1);
    ASSERT_FALSE(tyjson_locate(NULL, 0, 1, &line, &col));
    ASSERT_TRUE(tyjson_locate("a\nb", 3, 2, NULL, NULL)); /* extra-detail outputs optional */
    ASSERT_TRUE(tyjson_locate("a\nb", 3, 2, &line, NULL));
    ASSERT_EQ_UINT(line, 2);
    ASSERT_TRUE(tyjson_locate("a\nb", 3, 2, NULL, &col));
    ASSERT_EQ_UINT(col, 1);
    ASSERT_NOT_NULL(tyjson_alloc_libc());
    char pool_buf[256];
    tyjson_alloc a;
    ASSERT_FALSE(tyjson_alloc_pool_init(NULL, pool_buf, sizeof(pool_buf)));
    ASSERT_FALSE(tyjson_alloc_pool_init(&a, NULL, sizeof(pool_buf)));
    ASSERT_FALSE(tyjson_alloc_pool_init(&a, pool_buf, 0));
    tyjson_free(NULL, NULL);
    tyjson_free(tyjson_alloc_libc(), NULL);
    tyjson_free(NULL, malloc(4)); /* NULL allocator = libc */
}

/* ----------------------------------------------------------------------------
 * MARK: - dom.h
 * ------------------------------------------------------------------------- */
TEST(dom_reading) {
    tyjson_error e = fresh_err();
    ASSERT_NULL(tyjson_read_opts(NULL, 0, NULL, &e)); /* NULL with length 0: empty input */
    ASSERT_ERR(e, TYJSON_E_EMPTY);
    e = fresh_err();
    ASSERT_NULL(tyjson_read_opts(NULL, 5, NULL, &e));
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    ASSERT_NULL(tyjson_read_opts(NULL, 5, NULL, NULL));
    tyjson_doc *d = tyjson_read_opts("[1]", 3, NULL, NULL); /* NULL opts and err */
    ASSERT_NOT_NULL(d);
    tyjson_doc_free(d);
    ASSERT_NULL(tyjson_read(NULL, 0, 0));
    ASSERT_NULL(tyjson_read(NULL, 3, 0));
    e = fresh_err();
    ASSERT_NULL(tyjson_read_file(NULL, NULL, &e));
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    e = fresh_err();
    ASSERT_NULL(tyjson_read_fp(NULL, NULL, &e));
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    ASSERT_TRUE(tyjson_read_max_memory(0, 0) > 0);
    tyjson_doc_free(NULL);
    ASSERT_NULL(tyjson_doc_get_root(NULL));
    ASSERT_EQ_UINT(tyjson_doc_get_read_size(NULL), 0);
    ASSERT_EQ_UINT(tyjson_doc_get_val_count(NULL), 0);
    ASSERT_EQ_UINT(tyjson_doc_get_mem_size(NULL), 0);
}

TEST(dom_values) {
    const tyjson_val *n = NULL;
    ASSERT_EQ_INT(tyjson_get_type(n), TYJSON_TYPE_NONE);
    ASSERT_EQ_INT(tyjson_get_subtype(n), 0);
    ASSERT_EQ_STR(tyjson_get_type_desc(n), "none");
    ASSERT_FALSE(tyjson_is_null(n) || tyjson_is_true(n) || tyjson_is_false(n) || tyjson_is_bool(n));
    ASSERT_FALSE(tyjson_is_uint(n) || tyjson_is_sint(n) || tyjson_is_int(n) || tyjson_is_real(n));
    ASSERT_FALSE(tyjson_is_num(n) || tyjson_is_str(n) || tyjson_is_raw(n) || tyjson_is_arr(n));
    ASSERT_FALSE(tyjson_is_obj(n) || tyjson_is_ctn(n));
    ASSERT_FALSE(tyjson_get_bool(n));
    ASSERT_EQ_UINT(tyjson_get_uint(n), 0);
    ASSERT_EQ_INT(tyjson_get_sint(n), 0);
    ASSERT_EQ_INT(tyjson_get_int(n), 0);
    ASSERT_TRUE(tyjson_get_real(n) == 0.0);
    ASSERT_TRUE(tyjson_get_num(n) == 0.0);
    ASSERT_NULL(tyjson_get_str(n));
    ASSERT_EQ_UINT(tyjson_get_len(n), 0);
    ASSERT_FALSE(tyjson_equals_strn(n, "", 0));
    ASSERT_FALSE(tyjson_equals_str(n, ""));

    tyjson_doc *d = tyjson_read("{\"\":-5,\"k\":[1,2]}", 17, 0);
    ASSERT_NOT_NULL(d);
    tyjson_val *root = tyjson_doc_get_root(d);
    int64_t i = 9;
    uint64_t u = 9;
    ASSERT_FALSE(tyjson_get_i64(NULL, &i));
    ASSERT_FALSE(tyjson_get_u64(NULL, &u));
    ASSERT_EQ_INT(i, 9);
    /* A NULL result pointer: nothing stored, the call fails. */
    ASSERT_FALSE(tyjson_get_i64(tyjson_obj_get(root, ""), NULL));
    ASSERT_FALSE(tyjson_get_u64(tyjson_arr_get(tyjson_obj_get(root, "k"), 0), NULL));
    ASSERT_FALSE(tyjson_equals_str(tyjson_obj_get(root, "k"), NULL));
    ASSERT_FALSE(tyjson_equals_strn(tyjson_obj_getn(root, "", 0), NULL, 0)); /* not a string */
    tyjson_doc *es = tyjson_read("\"\"", 2, 0);
    ASSERT_TRUE(tyjson_equals_strn(tyjson_doc_get_root(es), NULL, 0)); /* NULL, 0 is "" */
    {
        /* NULL with a length equals nothing (it once reached memcmp(.., NULL, n)) */
        tyjson_doc *abc = tyjson_read("\"abc\"", 5, 0);
        ASSERT_TRUE(abc != NULL);
        ASSERT_FALSE(tyjson_equals_strn(tyjson_doc_get_root(abc), NULL, 3));
        tyjson_mut_doc *m = tyjson_doc_mut_copy(abc, NULL);
        ASSERT_TRUE(m != NULL);
        ASSERT_FALSE(tyjson_mut_equals_strn(tyjson_mut_doc_get_root(m), NULL, 3));
        tyjson_mut_doc_free(m);
        tyjson_doc_free(abc);
    }
    tyjson_doc_free(es);

    ASSERT_EQ_UINT(tyjson_arr_size(n), 0);
    ASSERT_NULL(tyjson_arr_get_first(n));
    ASSERT_NULL(tyjson_arr_get(n, 0));
    ASSERT_NULL(tyjson_arr_get_last(n));
    ASSERT_EQ_UINT(tyjson_obj_size(n), 0);
    ASSERT_NULL(tyjson_obj_get(n, "k"));
    ASSERT_NULL(tyjson_obj_getn(n, "k", 1));
    ASSERT_NULL(tyjson_obj_get(root, NULL));
    ASSERT_NULL(tyjson_obj_getn(root, NULL, 1));
    /* NULL with length 0 is the empty key (memcmp never sees the NULL). */
    ASSERT_EQ_INT(tyjson_get_int(tyjson_obj_getn(root, NULL, 0)), -5);

    tyjson_arr_iter ai = tyjson_arr_iter_with(n);
    ASSERT_NULL(tyjson_arr_iter_next(&ai));
    ASSERT_NULL(tyjson_arr_iter_next(NULL));
    tyjson_obj_iter oi = tyjson_obj_iter_with(n);
    ASSERT_NULL(tyjson_obj_iter_next(&oi));
    ASSERT_NULL(tyjson_obj_iter_next(NULL));
    ASSERT_NULL(tyjson_obj_iter_get_val(NULL));
    size_t idx, max;
    tyjson_val *v, *k;
    size_t loops = 0;
    TYJSON_ARR_FOREACH(n, idx, max, v) loops++;
    TYJSON_OBJ_FOREACH(n, idx, max, k, v) loops++;
    ASSERT_EQ_UINT(loops, 0);

    tyjson_error e = fresh_err();
    ASSERT_NULL(tyjson_ptr_getx(NULL, "/k", 2, &e));
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    e = fresh_err();
    ASSERT_NULL(tyjson_ptr_getx(root, NULL, 2, &e));
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    ASSERT_TRUE(tyjson_ptr_getx(root, NULL, 0, NULL) == root); /* NULL, 0: the empty pointer */
    ASSERT_NULL(tyjson_ptr_get(NULL, "/k"));
    ASSERT_NULL(tyjson_ptr_get(root, NULL));
    ASSERT_NULL(tyjson_doc_ptr_get(NULL, ""));
    ASSERT_NULL(tyjson_doc_ptr_get(d, NULL));

    bool eq = false;
    ASSERT_TRUE(tyjson_equals(NULL, NULL));
    ASSERT_FALSE(tyjson_equals(root, NULL));
    ASSERT_FALSE(tyjson_equals(NULL, root));
    ASSERT_EQ_INT(tyjson_equals_ex(NULL, NULL, NULL, &eq), TYJSON_OK);
    ASSERT_TRUE(eq);
    ASSERT_EQ_INT(tyjson_equals_ex(root, NULL, NULL, &eq), TYJSON_OK);
    ASSERT_FALSE(eq);
    ASSERT_EQ_INT(tyjson_equals_ex(root, root, NULL, NULL), TYJSON_E_INVALID_ARG);
    tyjson_doc_free(d);
}

/* ----------------------------------------------------------------------------
 * MARK: - mut.h
 * ------------------------------------------------------------------------- */
TEST(mut_document_and_constructors) {
    tyjson_mut_doc_free(NULL);
    ASSERT_NULL(tyjson_mut_doc_get_root(NULL));
    tyjson_mut_doc_set_root(NULL, NULL);
    tyjson_mut_doc *doc = tyjson_mut_doc_new(NULL);
    ASSERT_NOT_NULL(doc);
    tyjson_mut_doc_set_root(doc, NULL);
    ASSERT_NULL(tyjson_mut_doc_get_root(doc));

    ASSERT_NULL(tyjson_mut_null(NULL));
    ASSERT_NULL(tyjson_mut_bool(NULL, true));
    ASSERT_NULL(tyjson_mut_true(NULL));
    ASSERT_NULL(tyjson_mut_false(NULL));
    ASSERT_NULL(tyjson_mut_uint(NULL, 1));
    ASSERT_NULL(tyjson_mut_sint(NULL, -1));
    ASSERT_NULL(tyjson_mut_int(NULL, -1));
    ASSERT_NULL(tyjson_mut_real(NULL, 1.5));
    ASSERT_NULL(tyjson_mut_str(NULL, "a"));
    ASSERT_NULL(tyjson_mut_strn(NULL, "a", 1));
    ASSERT_NULL(tyjson_mut_strcpy(NULL, "a"));
    ASSERT_NULL(tyjson_mut_strncpy(NULL, "a", 1));
    ASSERT_NULL(tyjson_mut_rawncpy(NULL, "1", 1));
    ASSERT_NULL(tyjson_mut_arr(NULL));
    ASSERT_NULL(tyjson_mut_obj(NULL));
    ASSERT_NULL(tyjson_mut_str(doc, NULL));
    ASSERT_NULL(tyjson_mut_strn(doc, NULL, 1));
    ASSERT_NULL(tyjson_mut_strcpy(doc, NULL));
    ASSERT_NULL(tyjson_mut_strncpy(doc, NULL, 1));
    ASSERT_NULL(tyjson_mut_rawncpy(doc, NULL, 1));
    /* NULL with length 0 is the empty string, for the n forms. */
    ASSERT_EQ_UINT(tyjson_mut_get_len(tyjson_mut_strn(doc, NULL, 0)), 0);
    ASSERT_TRUE(tyjson_mut_equals_str(tyjson_mut_strncpy(doc, NULL, 0), ""));

    const tyjson_mut_val *n = NULL;
    ASSERT_EQ_INT(tyjson_mut_get_type(n), TYJSON_TYPE_NONE);
    ASSERT_EQ_INT(tyjson_mut_get_subtype(n), 0);
    ASSERT_FALSE(tyjson_mut_is_null(n) || tyjson_mut_is_bool(n) || tyjson_mut_is_uint(n));
    ASSERT_FALSE(tyjson_mut_is_sint(n) || tyjson_mut_is_int(n) || tyjson_mut_is_real(n));
    ASSERT_FALSE(tyjson_mut_is_num(n) || tyjson_mut_is_str(n) || tyjson_mut_is_raw(n));
    ASSERT_FALSE(tyjson_mut_is_arr(n) || tyjson_mut_is_obj(n) || tyjson_mut_get_bool(n));
    ASSERT_EQ_UINT(tyjson_mut_get_uint(n), 0);
    ASSERT_EQ_INT(tyjson_mut_get_sint(n), 0);
    ASSERT_EQ_INT(tyjson_mut_get_int(n), 0);
    ASSERT_TRUE(tyjson_mut_get_real(n) == 0.0 && tyjson_mut_get_num(n) == 0.0);
    ASSERT_NULL(tyjson_mut_get_str(n));
    ASSERT_EQ_UINT(tyjson_mut_get_len(n), 0);
    ASSERT_FALSE(tyjson_mut_equals_str(n, "") || tyjson_mut_equals_strn(n, "", 0));
    ASSERT_FALSE(tyjson_mut_equals_str(tyjson_mut_str(doc, "a"), NULL));

    ASSERT_FALSE(tyjson_mut_set_null(NULL));
    ASSERT_FALSE(tyjson_mut_set_bool(NULL, true));
    ASSERT_FALSE(tyjson_mut_set_uint(NULL, 1));
    ASSERT_FALSE(tyjson_mut_set_sint(NULL, 1));
    ASSERT_FALSE(tyjson_mut_set_real(NULL, 1.0));
    ASSERT_FALSE(tyjson_mut_set_strn(NULL, "a", 1));
    ASSERT_FALSE(tyjson_mut_set_strncpy(NULL, tyjson_mut_null(doc), "a", 1));
    ASSERT_FALSE(tyjson_mut_set_strncpy(doc, NULL, "a", 1));
    tyjson_mut_val *s = tyjson_mut_null(doc);
    ASSERT_FALSE(tyjson_mut_set_strn(s, NULL, 1));
    ASSERT_FALSE(tyjson_mut_set_strncpy(doc, s, NULL, 1));
    ASSERT_TRUE(tyjson_mut_is_null(s)); /* unchanged by the refusals */
    ASSERT_TRUE(tyjson_mut_set_strn(s, NULL, 0));
    ASSERT_TRUE(tyjson_mut_equals_str(s, ""));
    tyjson_mut_doc_free(doc);
}

TEST(mut_containers) {
    tyjson_mut_doc *doc = tyjson_mut_doc_new(NULL);
    tyjson_mut_val *arr = tyjson_mut_arr(doc), *obj = tyjson_mut_obj(doc);
    tyjson_mut_val *one = tyjson_mut_uint(doc, 1);
    ASSERT_TRUE(tyjson_mut_arr_append(arr, one));
    ASSERT_TRUE(tyjson_mut_obj_add(obj, tyjson_mut_str(doc, ""), tyjson_mut_uint(doc, 2)));

    ASSERT_EQ_UINT(tyjson_mut_arr_size(NULL), 0);
    ASSERT_NULL(tyjson_mut_arr_get(NULL, 0));
    ASSERT_NULL(tyjson_mut_arr_get_first(NULL));
    ASSERT_NULL(tyjson_mut_arr_get_last(NULL));
    ASSERT_FALSE(tyjson_mut_arr_append(NULL, tyjson_mut_null(doc)));
    ASSERT_FALSE(tyjson_mut_arr_append(arr, NULL));
    ASSERT_FALSE(tyjson_mut_arr_prepend(NULL, tyjson_mut_null(doc)));
    ASSERT_FALSE(tyjson_mut_arr_prepend(arr, NULL));
    ASSERT_FALSE(tyjson_mut_arr_insert(NULL, tyjson_mut_null(doc), 0));
    ASSERT_FALSE(tyjson_mut_arr_insert(arr, NULL, 0));
    ASSERT_NULL(tyjson_mut_arr_replace(NULL, 0, tyjson_mut_null(doc)));
    ASSERT_NULL(tyjson_mut_arr_replace(arr, 0, NULL));
    ASSERT_NULL(tyjson_mut_arr_remove(NULL, 0));
    ASSERT_FALSE(tyjson_mut_arr_remove_range(NULL, 0, 0));
    ASSERT_FALSE(tyjson_mut_arr_rotate(NULL, 0));
    ASSERT_NULL(tyjson_mut_arr_remove_first(NULL));
    ASSERT_NULL(tyjson_mut_arr_remove_last(NULL));
    ASSERT_FALSE(tyjson_mut_arr_clear(NULL));
    ASSERT_FALSE(tyjson_mut_arr_add_null(NULL, arr));
    ASSERT_FALSE(tyjson_mut_arr_add_null(doc, NULL));
    ASSERT_FALSE(tyjson_mut_arr_add_bool(NULL, arr, true));
    ASSERT_FALSE(tyjson_mut_arr_add_bool(doc, NULL, true));
    ASSERT_FALSE(tyjson_mut_arr_add_uint(NULL, arr, 1));
    ASSERT_FALSE(tyjson_mut_arr_add_uint(doc, NULL, 1));
    ASSERT_FALSE(tyjson_mut_arr_add_sint(NULL, arr, 1));
    ASSERT_FALSE(tyjson_mut_arr_add_sint(doc, NULL, 1));
    ASSERT_FALSE(tyjson_mut_arr_add_real(NULL, arr, 1.0));
    ASSERT_FALSE(tyjson_mut_arr_add_real(doc, NULL, 1.0));
    ASSERT_FALSE(tyjson_mut_arr_add_str(NULL, arr, "a"));
    ASSERT_FALSE(tyjson_mut_arr_add_str(doc, NULL, "a"));
    ASSERT_FALSE(tyjson_mut_arr_add_str(doc, arr, NULL));
    ASSERT_FALSE(tyjson_mut_arr_add_strcpy(NULL, arr, "a"));
    ASSERT_FALSE(tyjson_mut_arr_add_strcpy(doc, NULL, "a"));
    ASSERT_FALSE(tyjson_mut_arr_add_strcpy(doc, arr, NULL));
    ASSERT_NULL(tyjson_mut_arr_add_arr(NULL, arr));
    ASSERT_NULL(tyjson_mut_arr_add_arr(doc, NULL));
    ASSERT_NULL(tyjson_mut_arr_add_obj(NULL, arr));
    ASSERT_NULL(tyjson_mut_arr_add_obj(doc, NULL));
    ASSERT_EQ_UINT(tyjson_mut_arr_size(arr), 1); /* every refusal left it alone */
    tyjson_mut_arr_iter ai = tyjson_mut_arr_iter_with(NULL);
    ASSERT_NULL(tyjson_mut_arr_iter_next(&ai));
    ASSERT_NULL(tyjson_mut_arr_iter_next(NULL));

    ASSERT_EQ_UINT(tyjson_mut_obj_size(NULL), 0);
    ASSERT_NULL(tyjson_mut_obj_get(NULL, "k"));
    ASSERT_NULL(tyjson_mut_obj_get(obj, NULL));
    ASSERT_NULL(tyjson_mut_obj_getn(NULL, "k", 1));
    ASSERT_NULL(tyjson_mut_obj_getn(obj, NULL, 1));
    ASSERT_EQ_UINT(tyjson_mut_get_uint(tyjson_mut_obj_getn(obj, NULL, 0)), 2); /* the empty key */
    ASSERT_FALSE(tyjson_mut_obj_add(NULL, tyjson_mut_str(doc, "k"), tyjson_mut_null(doc)));
    ASSERT_FALSE(tyjson_mut_obj_add(obj, NULL, tyjson_mut_null(doc)));
    ASSERT_FALSE(tyjson_mut_obj_add(obj, tyjson_mut_str(doc, "k"), NULL));
    ASSERT_FALSE(tyjson_mut_obj_put(NULL, tyjson_mut_str(doc, "k"), tyjson_mut_null(doc)));
    ASSERT_FALSE(tyjson_mut_obj_put(obj, NULL, tyjson_mut_null(doc)));
    ASSERT_FALSE(tyjson_mut_obj_put(obj, tyjson_mut_str(doc, "k"), NULL));
    ASSERT_NULL(tyjson_mut_obj_remove_key(NULL, "k"));
    ASSERT_NULL(tyjson_mut_obj_remove_key(obj, NULL));
    ASSERT_NULL(tyjson_mut_obj_remove_keyn(NULL, "k", 1));
    ASSERT_NULL(tyjson_mut_obj_remove_keyn(obj, NULL, 1));
    ASSERT_FALSE(tyjson_mut_obj_clear(NULL));
    ASSERT_FALSE(tyjson_mut_obj_add_null(NULL, obj, "k"));
    ASSERT_FALSE(tyjson_mut_obj_add_null(doc, NULL, "k"));
    ASSERT_FALSE(tyjson_mut_obj_add_null(doc, obj, NULL));
    ASSERT_FALSE(tyjson_mut_obj_add_bool(NULL, obj, "k", true));
    ASSERT_FALSE(tyjson_mut_obj_add_bool(doc, NULL, "k", true));
    ASSERT_FALSE(tyjson_mut_obj_add_bool(doc, obj, NULL, true));
    ASSERT_FALSE(tyjson_mut_obj_add_uint(NULL, obj, "k", 1));
    ASSERT_FALSE(tyjson_mut_obj_add_uint(doc, NULL, "k", 1));
    ASSERT_FALSE(tyjson_mut_obj_add_uint(doc, obj, NULL, 1));
    ASSERT_FALSE(tyjson_mut_obj_add_sint(NULL, obj, "k", 1));
    ASSERT_FALSE(tyjson_mut_obj_add_sint(doc, NULL, "k", 1));
    ASSERT_FALSE(tyjson_mut_obj_add_sint(doc, obj, NULL, 1));
    ASSERT_FALSE(tyjson_mut_obj_add_real(NULL, obj, "k", 1.0));
    ASSERT_FALSE(tyjson_mut_obj_add_real(doc, NULL, "k", 1.0));
    ASSERT_FALSE(tyjson_mut_obj_add_real(doc, obj, NULL, 1.0));
    ASSERT_FALSE(tyjson_mut_obj_add_str(NULL, obj, "k", "v"));
    ASSERT_FALSE(tyjson_mut_obj_add_str(doc, NULL, "k", "v"));
    ASSERT_FALSE(tyjson_mut_obj_add_str(doc, obj, NULL, "v"));
    ASSERT_FALSE(tyjson_mut_obj_add_str(doc, obj, "k", NULL));
    ASSERT_FALSE(tyjson_mut_obj_add_strcpy(NULL, obj, "k", "v"));
    ASSERT_FALSE(tyjson_mut_obj_add_strcpy(doc, NULL, "k", "v"));
    ASSERT_FALSE(tyjson_mut_obj_add_strcpy(doc, obj, NULL, "v"));
    ASSERT_FALSE(tyjson_mut_obj_add_strcpy(doc, obj, "k", NULL));
    ASSERT_FALSE(tyjson_mut_obj_add_val(NULL, obj, "k", tyjson_mut_null(doc)));
    ASSERT_FALSE(tyjson_mut_obj_add_val(doc, NULL, "k", tyjson_mut_null(doc)));
    ASSERT_FALSE(tyjson_mut_obj_add_val(doc, obj, NULL, tyjson_mut_null(doc)));
    ASSERT_FALSE(tyjson_mut_obj_add_val(doc, obj, "k", NULL));
    ASSERT_FALSE(tyjson_mut_obj_add_val_keycpy(NULL, obj, "k", tyjson_mut_null(doc)));
    ASSERT_FALSE(tyjson_mut_obj_add_val_keycpy(doc, NULL, "k", tyjson_mut_null(doc)));
    ASSERT_FALSE(tyjson_mut_obj_add_val_keycpy(doc, obj, NULL, tyjson_mut_null(doc)));
    ASSERT_FALSE(tyjson_mut_obj_add_val_keycpy(doc, obj, "k", NULL));
    ASSERT_NULL(tyjson_mut_obj_add_arr(NULL, obj, "k"));
    ASSERT_NULL(tyjson_mut_obj_add_arr(doc, NULL, "k"));
    ASSERT_NULL(tyjson_mut_obj_add_arr(doc, obj, NULL));
    ASSERT_NULL(tyjson_mut_obj_add_obj(NULL, obj, "k"));
    ASSERT_NULL(tyjson_mut_obj_add_obj(doc, NULL, "k"));
    ASSERT_NULL(tyjson_mut_obj_add_obj(doc, obj, NULL));
    ASSERT_EQ_UINT(tyjson_mut_obj_size(obj), 1);
    tyjson_mut_obj_iter oi = tyjson_mut_obj_iter_with(NULL);
    ASSERT_NULL(tyjson_mut_obj_iter_next(&oi));
    ASSERT_NULL(tyjson_mut_obj_iter_next(NULL));
    ASSERT_NULL(tyjson_mut_obj_iter_get_val(NULL));
    tyjson_mut_doc_free(doc);
}

TEST(mut_copies_pointer_equality) {
    tyjson_mut_doc *doc = tyjson_mut_doc_new(NULL);
    tyjson_doc *idoc = tyjson_read("[1]", 3, 0);
    ASSERT_NULL(tyjson_val_mut_copy(NULL, tyjson_doc_get_root(idoc)));
    ASSERT_NULL(tyjson_val_mut_copy(doc, NULL));
    ASSERT_NULL(tyjson_mut_val_mut_copy(NULL, tyjson_mut_null(doc)));
    ASSERT_NULL(tyjson_mut_val_mut_copy(doc, NULL));
    ASSERT_NULL(tyjson_doc_mut_copy(NULL, NULL));
    ASSERT_NULL(tyjson_mut_doc_imut_copy(NULL, NULL));
    ASSERT_NULL(tyjson_mut_doc_imut_copy(doc, NULL)); /* no root */
    ASSERT_NULL(tyjson_mut_val_imut_copy(NULL, NULL));
    tyjson_error e = fresh_err();
    ASSERT_NULL(tyjson_mut_ptr_getx(NULL, "/0", 2, &e));
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    tyjson_mut_val *a = tyjson_mut_arr(doc);
    e = fresh_err();
    ASSERT_NULL(tyjson_mut_ptr_getx(a, NULL, 2, &e));
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    ASSERT_TRUE(tyjson_mut_ptr_getx(a, NULL, 0, NULL) == a);
    ASSERT_NULL(tyjson_mut_ptr_get(NULL, ""));
    ASSERT_NULL(tyjson_mut_ptr_get(a, NULL));
    bool eq = false;
    ASSERT_TRUE(tyjson_mut_equals(NULL, NULL));
    ASSERT_FALSE(tyjson_mut_equals(a, NULL));
    ASSERT_EQ_INT(tyjson_mut_equals_ex(NULL, NULL, NULL, &eq), TYJSON_OK);
    ASSERT_TRUE(eq);
    ASSERT_EQ_INT(tyjson_mut_equals_ex(NULL, a, NULL, &eq), TYJSON_OK);
    ASSERT_FALSE(eq);
    ASSERT_EQ_INT(tyjson_mut_equals_ex(a, a, NULL, NULL), TYJSON_E_INVALID_ARG);
    tyjson_doc_free(idoc);
    tyjson_mut_doc_free(doc);
}

/* ----------------------------------------------------------------------------
 * MARK: - write.h
 * ------------------------------------------------------------------------- */
static int count_fn(void *ctx, const char *data, size_t len) {
    (void)data;
    *(size_t *)ctx += len;
    return 0;
}

TEST(writers) {
    tyjson_doc *idoc = tyjson_read("[1]", 3, 0);
    tyjson_val *v = tyjson_doc_get_root(idoc);
    tyjson_mut_doc *mdoc = tyjson_mut_doc_new(NULL);
    tyjson_mut_val *m = tyjson_mut_arr(mdoc);
    size_t len = 77;
    tyjson_error e = fresh_err();
    ASSERT_NULL(tyjson_val_write_opts(NULL, NULL, &len, &e));
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    ASSERT_EQ_UINT(len, 0);
    char *t = tyjson_val_write_opts(v, NULL, NULL, NULL); /* len and err optional */
    ASSERT_EQ_STR(t, "[1]");
    free(t);
    e = fresh_err();
    ASSERT_NULL(tyjson_write_opts(NULL, NULL, NULL, &e));
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    ASSERT_NULL(tyjson_write(NULL, 0, NULL));
    e = fresh_err();
    ASSERT_EQ_UINT(tyjson_val_write_buf(NULL, NULL, 0, NULL, &e), 0);
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    e = fresh_err();
    ASSERT_EQ_UINT(tyjson_val_write_buf(v, NULL, 0, NULL, &e), 3); /* measure only */
    ASSERT_ERR(e, TYJSON_E_BUF_TOO_SMALL);
    e = fresh_err();
    ASSERT_EQ_UINT(tyjson_val_write_buf(v, NULL, 16, NULL, &e), 0); /* no buffer, but room claimed */
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    e = fresh_err();
    ASSERT_FALSE(tyjson_val_write_fp(NULL, v, NULL, &e));
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    e = fresh_err();
    ASSERT_FALSE(tyjson_val_write_fp(stdout, NULL, NULL, &e));
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    e = fresh_err();
    ASSERT_FALSE(tyjson_val_write_file(NULL, v, NULL, &e));
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    e = fresh_err();
    ASSERT_FALSE(tyjson_val_write_file("null_args_never_created.json", NULL, NULL, &e));
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    e = fresh_err();
    size_t got = 0;
    ASSERT_FALSE(tyjson_val_write_cb(NULL, &got, v, NULL, &e));
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    e = fresh_err();
    ASSERT_FALSE(tyjson_val_write_cb(count_fn, &got, NULL, NULL, &e));
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    ASSERT_EQ_UINT(got, 0);

    len = 77;
    e = fresh_err();
    ASSERT_NULL(tyjson_mut_val_write_opts(NULL, NULL, &len, &e));
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    ASSERT_EQ_UINT(len, 0);
    e = fresh_err();
    ASSERT_NULL(tyjson_mut_write_opts(NULL, NULL, NULL, &e));
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    e = fresh_err();
    ASSERT_NULL(tyjson_mut_write_opts(mdoc, NULL, NULL, &e)); /* no root */
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    ASSERT_NULL(tyjson_mut_write(NULL, 0, NULL));
    e = fresh_err();
    ASSERT_EQ_UINT(tyjson_mut_val_write_buf(NULL, NULL, 0, NULL, &e), 0);
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    e = fresh_err();
    ASSERT_EQ_UINT(tyjson_mut_val_write_buf(m, NULL, 0, NULL, &e), 2);
    ASSERT_ERR(e, TYJSON_E_BUF_TOO_SMALL);
    e = fresh_err();
    ASSERT_EQ_UINT(tyjson_mut_val_write_buf(m, NULL, 16, NULL, &e), 0);
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    e = fresh_err();
    ASSERT_FALSE(tyjson_mut_val_write_fp(NULL, m, NULL, &e));
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    e = fresh_err();
    ASSERT_FALSE(tyjson_mut_val_write_fp(stdout, NULL, NULL, &e));
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    e = fresh_err();
    ASSERT_FALSE(tyjson_mut_val_write_file(NULL, m, NULL, &e));
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    e = fresh_err();
    ASSERT_FALSE(tyjson_mut_val_write_file("null_args_never_created.json", NULL, NULL, &e));
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    e = fresh_err();
    ASSERT_FALSE(tyjson_mut_val_write_cb(NULL, &got, m, NULL, &e));
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    e = fresh_err();
    ASSERT_FALSE(tyjson_mut_val_write_cb(count_fn, &got, NULL, NULL, &e));
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    ASSERT_EQ_UINT(got, 0);
    FILE *f = fopen("null_args_never_created.json", "rb");
    ASSERT_NULL(f);
    tyjson_mut_doc_free(mdoc);
    tyjson_doc_free(idoc);
}

/* ----------------------------------------------------------------------------
 * MARK: - bind.h
 * ------------------------------------------------------------------------- */
typedef struct point {
    int32_t x;
} point;
static const tyjson_field point_fields[] = {TYJSON_FIELD_I32(point, x, "x")};
static tyjson_struct point_type = TYJSON_STRUCT(point, point_fields, 0);

TEST(bind_arena_and_buf) {
    tyjson_arena_init(NULL, NULL);
    tyjson_arena_init_buf(NULL, NULL, 0);
    tyjson_arena_reset(NULL);
    tyjson_arena_free(NULL);
    ASSERT_NULL(tyjson_arena_alloc(NULL, 8, 8));
    ASSERT_EQ_UINT(tyjson_arena_used(NULL), 0);
    tyjson_alloc none = tyjson_arena_allocator(NULL);
    ASSERT_TRUE(none.malloc == NULL && none.realloc == NULL && none.free == NULL && none.ctx == NULL);
    /* An arena over no buffer: empty, every allocation fails. */
    tyjson_arena a;
    tyjson_arena_init_buf(&a, NULL, 64);
    ASSERT_NULL(tyjson_arena_alloc(&a, 8, 8));
    tyjson_arena_reset(&a);
    tyjson_arena_free(&a);
    tyjson_arena_init(&a, NULL); /* NULL allocator = libc */
    ASSERT_NOT_NULL(tyjson_arena_alloc(&a, 8, 8));
    tyjson_arena_free(&a);

    tyjson_buf_init(NULL, NULL);
    tyjson_buf_clear(NULL);
    tyjson_buf_free(NULL);
    tyjson_buf b;
    tyjson_buf_init(&b, NULL);
    tyjson_buf_clear(&b);
    tyjson_buf_free(&b);
}

TEST(bind_codec_and_dates) {
    tyjson_error e = fresh_err();
    ASSERT_EQ_INT(tyjson_struct_prepare(NULL, &e), TYJSON_E_INVALID_ARG);
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    point p = {5};
    tyjson_arena arena;
    tyjson_arena_init(&arena, NULL);
    /* release and the codec message setters do nothing with NULL */
    tyjson_struct_release(NULL);
    tyjson_codec_fail(NULL, "why");
    tyjson_codec_fail(&arena, NULL);
    ASSERT_EQ_UINT(tyjson_arena_used(&arena), 0);
    tyjson_codec_encode_fail(NULL, "why");
    e = fresh_err();
    ASSERT_EQ_INT(tyjson_decode(NULL, &p, "{}", 2, &arena, NULL, &e), TYJSON_E_INVALID_ARG);
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    ASSERT_EQ_INT(tyjson_decode(&point_type, NULL, "{}", 2, &arena, NULL, NULL), TYJSON_E_INVALID_ARG);
    e = fresh_err();
    ASSERT_EQ_INT(tyjson_decode(&point_type, &p, "{}", 2, NULL, NULL, &e), TYJSON_E_INVALID_ARG);
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    ASSERT_EQ_INT(p.x, 0); /* the output is zeroed on error */
    p.x = 5;
    ASSERT_EQ_INT(tyjson_decode(&point_type, &p, NULL, 2, &arena, NULL, NULL), TYJSON_E_INVALID_ARG);
    ASSERT_EQ_INT(p.x, 0);
    e = fresh_err();
    ASSERT_TRUE(tyjson_decode(&point_type, &p, NULL, 0, &arena, NULL, &e) != TYJSON_OK); /* empty input */
    ASSERT_EQ_INT(e.code, TYJSON_E_EMPTY);
    ASSERT_EQ_INT(tyjson_decode(&point_type, &p, "{\"x\":3}", 7, &arena, NULL, NULL), TYJSON_OK);
    ASSERT_EQ_INT(p.x, 3);
    tyjson_decode_options dopt = {TYJSON_DECODE_STOP_WHEN_DONE, 0, 0, NULL}; /* read_size optional */
    ASSERT_EQ_INT(tyjson_decode(&point_type, &p, "{\"x\":4} 1", 9, &arena, &dopt, NULL), TYJSON_OK);
    ASSERT_EQ_INT(p.x, 4);
    p.x = 3;
    tyjson_arena_free(&arena);

    tyjson_buf b;
    tyjson_buf_init(&b, NULL);
    e = fresh_err();
    ASSERT_EQ_INT(tyjson_encode_append(NULL, &point_type, &p, NULL, &e), TYJSON_E_INVALID_ARG);
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    e = fresh_err();
    ASSERT_EQ_INT(tyjson_encode_append(&b, NULL, &p, NULL, &e), TYJSON_E_INVALID_ARG);
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    e = fresh_err();
    ASSERT_EQ_INT(tyjson_encode_append(&b, &point_type, NULL, NULL, &e), TYJSON_E_INVALID_ARG);
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    ASSERT_EQ_UINT(b.len, 0);
    tyjson_buf_free(&b);
    size_t len = 77;
    e = fresh_err();
    ASSERT_NULL(tyjson_encode(NULL, &p, NULL, &len, &e));
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    ASSERT_EQ_UINT(len, 0);
    ASSERT_NULL(tyjson_encode(&point_type, NULL, NULL, NULL, NULL));
    char *t = tyjson_encode(&point_type, &p, NULL, NULL, NULL);
    ASSERT_EQ_STR(t, "{\"x\":3}");
    free(t);
    e = fresh_err();
    ASSERT_EQ_UINT(tyjson_encode_buf(NULL, &p, NULL, 0, NULL, &e), 0);
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    ASSERT_EQ_UINT(tyjson_encode_buf(&point_type, NULL, NULL, 0, NULL, NULL), 0);
    e = fresh_err();
    ASSERT_EQ_UINT(tyjson_encode_buf(&point_type, &p, NULL, 0, NULL, &e), 7); /* measure only */
    ASSERT_ERR(e, TYJSON_E_BUF_TOO_SMALL);
    e = fresh_err();
    ASSERT_EQ_UINT(tyjson_encode_buf(&point_type, &p, NULL, 16, NULL, &e), 0);
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    e = fresh_err();
    ASSERT_FALSE(tyjson_encode_fp(NULL, &point_type, &p, NULL, &e));
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    e = fresh_err();
    ASSERT_FALSE(tyjson_encode_fp(stdout, NULL, &p, NULL, &e));
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    e = fresh_err();
    ASSERT_FALSE(tyjson_encode_fp(stdout, &point_type, NULL, NULL, &e));
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    size_t got = 0;
    e = fresh_err();
    ASSERT_FALSE(tyjson_encode_cb(NULL, &got, &point_type, &p, NULL, &e));
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    e = fresh_err();
    ASSERT_FALSE(tyjson_encode_cb(count_fn, &got, NULL, &p, NULL, &e));
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    e = fresh_err();
    ASSERT_FALSE(tyjson_encode_cb(count_fn, &got, &point_type, NULL, NULL, &e));
    ASSERT_ERR(e, TYJSON_E_INVALID_ARG);
    ASSERT_EQ_UINT(got, 0);

    tyjson_date d;
    tyjson_datetime dt;
    char out[64];
    ASSERT_FALSE(tyjson_date_parse(NULL, 10, &d));
    ASSERT_FALSE(tyjson_date_parse("2024-01-02", 10, NULL));
    ASSERT_FALSE(tyjson_datetime_parse(NULL, 20, &dt));
    ASSERT_FALSE(tyjson_datetime_parse("2024-01-02T03:04:05Z", 20, NULL));
    ASSERT_EQ_UINT(tyjson_date_format(NULL, out), 0);
    ASSERT_TRUE(tyjson_date_parse("2024-01-02", 10, &d));
    ASSERT_EQ_UINT(tyjson_date_format(&d, NULL), 0);
    ASSERT_EQ_UINT(tyjson_datetime_format(NULL, out), 0);
    ASSERT_TRUE(tyjson_datetime_parse("2024-01-02T03:04:05Z", 20, &dt));
    ASSERT_EQ_UINT(tyjson_datetime_format(&dt, NULL), 0);
    int64_t ns;
    ASSERT_FALSE(tyjson_datetime_to_epoch_ns(NULL, &ns));
    ASSERT_FALSE(tyjson_datetime_to_epoch_ns(&dt, NULL));
    ASSERT_FALSE(tyjson_datetime_from_epoch_ns(0, NULL));
}

/* ----------------------------------------------------------------------------
 * MARK: - dom.h setters and mut.h float values
 * ------------------------------------------------------------------------- */
TEST(imm_setters_and_float_values) {
    ASSERT_FALSE(tyjson_is_float(NULL));
    ASSERT_FALSE(tyjson_set_null(NULL));
    ASSERT_FALSE(tyjson_set_bool(NULL, true));
    ASSERT_FALSE(tyjson_set_uint(NULL, 1));
    ASSERT_FALSE(tyjson_set_sint(NULL, -1));
    ASSERT_FALSE(tyjson_set_int(NULL, -1));
    ASSERT_FALSE(tyjson_set_real(NULL, 1.0));
    ASSERT_FALSE(tyjson_set_float(NULL, 1.0f));
    ASSERT_FALSE(tyjson_set_str(NULL, "a"));
    ASSERT_FALSE(tyjson_set_strn(NULL, "a", 1));
    ASSERT_FALSE(tyjson_set_strn(NULL, NULL, 0));
    tyjson_doc *d = tyjson_read("[1]", 3, 0);
    ASSERT_NOT_NULL(d);
    tyjson_val *one = tyjson_arr_get(tyjson_doc_get_root(d), 0);
    ASSERT_FALSE(tyjson_set_str(one, NULL));
    ASSERT_FALSE(tyjson_set_strn(one, NULL, 1));
    ASSERT_EQ_UINT(tyjson_get_uint(one), 1); /* unchanged by the refusals */
    ASSERT_TRUE(tyjson_set_strn(one, NULL, 0)); /* NULL, 0: "" */
    ASSERT_TRUE(tyjson_equals_str(one, ""));
    tyjson_doc_free(d);

    ASSERT_NULL(tyjson_mut_float(NULL, 1.0f));
    ASSERT_FALSE(tyjson_mut_is_float(NULL));
    ASSERT_FALSE(tyjson_mut_set_float(NULL, 1.0f));
    tyjson_mut_doc *doc = tyjson_mut_doc_new(NULL);
    tyjson_mut_val *arr = tyjson_mut_arr(doc), *obj = tyjson_mut_obj(doc);
    ASSERT_FALSE(tyjson_mut_arr_add_float(NULL, arr, 1.0f));
    ASSERT_FALSE(tyjson_mut_arr_add_float(doc, NULL, 1.0f));
    ASSERT_FALSE(tyjson_mut_obj_add_float(NULL, obj, "k", 1.0f));
    ASSERT_FALSE(tyjson_mut_obj_add_float(doc, NULL, "k", 1.0f));
    ASSERT_FALSE(tyjson_mut_obj_add_float(doc, obj, NULL, 1.0f));
    ASSERT_EQ_UINT(tyjson_mut_arr_size(arr), 0);
    ASSERT_EQ_UINT(tyjson_mut_obj_size(obj), 0);
    ASSERT_NULL(tyjson_mut_arr_with_float(NULL, NULL, 0));
    ASSERT_NULL(tyjson_mut_arr_with_float(doc, NULL, 1));
    ASSERT_EQ_UINT(tyjson_mut_arr_size(tyjson_mut_arr_with_float(doc, NULL, 0)), 0);
    tyjson_mut_doc_free(doc);
}

int main(int argc, char **argv) { return test_main(argc, argv); }
