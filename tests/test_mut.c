/*
 * test_mut.c - the mutable document: construction, editing, setters,
 * iteration, string ownership, copies in both directions, JSON Pointer,
 * equality, million-deep nesting and an allocation-failure sweep.
 */
#include "tyjson.h"
#include "base/internal.h"
#include "test.h"

#include <math.h>

/* ----------------------------------------------------------------------------
 * Counting allocator: tracks live blocks, can fail the Nth request.
 * ------------------------------------------------------------------------- */
typedef struct counting {
    long live;      /* blocks allocated and not yet freed */
    long requests;  /* malloc + realloc calls so far */
    long fail_at;   /* 1-based request to fail; 0 = never */
    long failures;  /* requests refused so far */
    long done_at;   /* requests made when the scenario completed */
} counting;

static void *cnt_malloc(void *ctx, size_t size) {
    counting *c = (counting *)ctx;
    if (++c->requests == c->fail_at) {
        c->failures++;
        return NULL;
    }
    void *p = malloc(size ? size : 1);
    if (p) c->live++;
    return p;
}

static void *cnt_realloc(void *ctx, void *ptr, size_t old, size_t size) {
    counting *c = (counting *)ctx;
    (void)old;
    if (++c->requests == c->fail_at) {
        c->failures++;
        return NULL;
    }
    return realloc(ptr, size ? size : 1);
}

static void cnt_free(void *ctx, void *ptr) {
    counting *c = (counting *)ctx;
    ASSERT_NOT_NULL(ptr); /* free(ctx, NULL) is never called */
    c->live--;
    free(ptr);
}

static tyjson_alloc counting_alloc(counting *c) {
    memset(c, 0, sizeof(*c));
    tyjson_alloc a = {cnt_malloc, cnt_realloc, cnt_free, c};
    return a;
}

/* ----------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------- */

/* Array of uints from a list, for order checks. */
static void expect_uints(const tyjson_mut_val *arr, const uint64_t *want, size_t n) {
    ASSERT_EQ_UINT(tyjson_mut_arr_size(arr), n);
    tyjson_mut_arr_iter it = tyjson_mut_arr_iter_with(arr);
    tyjson_mut_val *v;
    size_t i = 0;
    while ((v = tyjson_mut_arr_iter_next(&it))) {
        ASSERT_TRUE(i < n);
        ASSERT_EQ_UINT(tyjson_mut_get_uint(v), want[i]);
        ASSERT_TRUE(tyjson_mut_arr_get(arr, i) == v);
        i++;
    }
    ASSERT_EQ_UINT(i, n);
    if (n) {
        ASSERT_TRUE(tyjson_mut_arr_get_first(arr) == tyjson_mut_arr_get(arr, 0));
        ASSERT_TRUE(tyjson_mut_arr_get_last(arr) == tyjson_mut_arr_get(arr, n - 1));
        /* The list is circular: the last element leads back to the first. */
        ASSERT_TRUE(tyjson_mut_arr_get_last(arr)->next == tyjson_mut_arr_get_first(arr));
    } else {
        ASSERT_NULL(tyjson_mut_arr_get_first(arr));
        ASSERT_NULL(tyjson_mut_arr_get_last(arr));
    }
    ASSERT_NULL(tyjson_mut_arr_get(arr, n));
}

static tyjson_mut_val *uint_arr(tyjson_mut_doc *doc, size_t n) {
    tyjson_mut_val *arr = tyjson_mut_arr(doc);
    for (size_t i = 0; i < n; i++) ASSERT_TRUE(tyjson_mut_arr_add_uint(doc, arr, i));
    return arr;
}

/* Keys of an object joined, with values as uints: "a=1,b=2". */
static void obj_sig(const tyjson_mut_val *obj, char *buf, size_t size) {
    tyjson_mut_obj_iter it = tyjson_mut_obj_iter_with(obj);
    tyjson_mut_val *k;
    size_t n = 0;
    buf[0] = 0;
    while ((k = tyjson_mut_obj_iter_next(&it))) {
        tyjson_mut_val *v = tyjson_mut_obj_iter_get_val(k);
        n += (size_t)snprintf(buf + n, size - n, "%s%.*s=%llu", n ? "," : "",
                              (int)tyjson_mut_get_len(k), tyjson_mut_get_str(k),
                              (unsigned long long)tyjson_mut_get_uint(v));
    }
}

static tyjson_mut_val *obj_of(tyjson_mut_doc *doc, const char *keys) {
    /* keys like "abca": one member per char, values 0, 1, 2, ... */
    tyjson_mut_val *obj = tyjson_mut_obj(doc);
    for (size_t i = 0; keys[i]; i++) {
        tyjson_mut_val *k = tyjson_mut_strncpy(doc, keys + i, 1);
        ASSERT_TRUE(tyjson_mut_obj_add(obj, k, tyjson_mut_uint(doc, i)));
    }
    return obj;
}

/* ----------------------------------------------------------------------------
 * MARK: - Document and scalars
 * ------------------------------------------------------------------------- */
TEST(doc_new_free_root) {
    tyjson_mut_doc *doc = tyjson_mut_doc_new(NULL);
    ASSERT_NOT_NULL(doc);
    ASSERT_NULL(tyjson_mut_doc_get_root(doc));
    tyjson_mut_val *v = tyjson_mut_null(doc);
    tyjson_mut_doc_set_root(doc, v);
    ASSERT_TRUE(tyjson_mut_doc_get_root(doc) == v);
    tyjson_mut_doc_set_root(doc, NULL);
    ASSERT_NULL(tyjson_mut_doc_get_root(doc));
    tyjson_mut_doc_free(doc);
    tyjson_mut_doc_free(NULL);
    ASSERT_NULL(tyjson_mut_doc_get_root(NULL));
    tyjson_mut_doc_set_root(NULL, NULL);

    counting c;
    tyjson_alloc a = counting_alloc(&c);
    doc = tyjson_mut_doc_new(&a);
    ASSERT_NOT_NULL(doc);
    for (int i = 0; i < 10000; i++) ASSERT_NOT_NULL(tyjson_mut_strcpy(doc, "some bytes to copy"));
    ASSERT_TRUE(c.live > 2);
    /* Chunks grow: 10000 values and 190 KB of strings take few requests. */
    ASSERT_TRUE(c.requests < 40);
    tyjson_mut_doc_free(doc);
    ASSERT_EQ_INT(c.live, 0);
}

TEST(scalars) {
    tyjson_mut_doc *doc = tyjson_mut_doc_new(NULL);
    tyjson_mut_val *v;

    v = tyjson_mut_null(doc);
    ASSERT_TRUE(tyjson_mut_is_null(v));
    ASSERT_EQ_INT(tyjson_mut_get_type(v), TYJSON_TYPE_NULL);
    v = tyjson_mut_true(doc);
    ASSERT_TRUE(tyjson_mut_get_bool(v));
    ASSERT_EQ_INT(tyjson_mut_get_subtype(v), TYJSON_SUBTYPE_TRUE);
    v = tyjson_mut_false(doc);
    ASSERT_TRUE(tyjson_mut_is_bool(v));
    ASSERT_FALSE(tyjson_mut_get_bool(v));
    ASSERT_TRUE(tyjson_mut_get_bool(tyjson_mut_bool(doc, true)));
    ASSERT_FALSE(tyjson_mut_get_bool(tyjson_mut_bool(doc, false)));
    ASSERT_TRUE(tyjson_mut_is_bool(tyjson_mut_bool(doc, false)));

    v = tyjson_mut_uint(doc, UINT64_MAX);
    ASSERT_TRUE(tyjson_mut_is_uint(v));
    ASSERT_EQ_UINT(tyjson_mut_get_uint(v), UINT64_MAX);
    ASSERT_EQ_INT(tyjson_mut_get_sint(v), 0); /* does not fit */

    /* Non-negative signed values are stored as UINT, like parsed values. */
    v = tyjson_mut_sint(doc, 5);
    ASSERT_TRUE(tyjson_mut_is_uint(v));
    ASSERT_EQ_INT(tyjson_mut_get_sint(v), 5);
    v = tyjson_mut_sint(doc, 0);
    ASSERT_TRUE(tyjson_mut_is_uint(v));
    v = tyjson_mut_sint(doc, -5);
    ASSERT_TRUE(tyjson_mut_is_sint(v));
    ASSERT_EQ_INT(tyjson_mut_get_int(v), -5);
    v = tyjson_mut_int(doc, INT64_MIN);
    ASSERT_TRUE(tyjson_mut_is_sint(v));
    ASSERT_EQ_INT(tyjson_mut_get_sint(v), INT64_MIN);
    ASSERT_TRUE(tyjson_mut_is_uint(tyjson_mut_int(doc, INT64_MAX)));

    v = tyjson_mut_real(doc, -0.0);
    ASSERT_TRUE(tyjson_mut_is_real(v));
    ASSERT_EQ_DBL_BITS(tyjson_mut_get_real(v), -0.0);
    v = tyjson_mut_real(doc, NAN);
    ASSERT_TRUE(tyjson_mut_is_real(v));
    ASSERT_TRUE(isnan(tyjson_mut_get_num(v)));
    v = tyjson_mut_real(doc, INFINITY);
    ASSERT_TRUE(isinf(tyjson_mut_get_real(v)));

    v = tyjson_mut_arr(doc);
    ASSERT_TRUE(tyjson_mut_is_arr(v));
    ASSERT_EQ_UINT(tyjson_mut_arr_size(v), 0);
    v = tyjson_mut_obj(doc);
    ASSERT_TRUE(tyjson_mut_is_obj(v));
    ASSERT_EQ_UINT(tyjson_mut_obj_size(v), 0);
    tyjson_mut_doc_free(doc);

    /* NULL document: every constructor returns NULL. */
    ASSERT_NULL(tyjson_mut_null(NULL));
    ASSERT_NULL(tyjson_mut_bool(NULL, true));
    ASSERT_NULL(tyjson_mut_true(NULL));
    ASSERT_NULL(tyjson_mut_false(NULL));
    ASSERT_NULL(tyjson_mut_uint(NULL, 1));
    ASSERT_NULL(tyjson_mut_sint(NULL, 1));
    ASSERT_NULL(tyjson_mut_int(NULL, -1));
    ASSERT_NULL(tyjson_mut_real(NULL, 1.0));
    ASSERT_NULL(tyjson_mut_str(NULL, "x"));
    ASSERT_NULL(tyjson_mut_strn(NULL, "x", 1));
    ASSERT_NULL(tyjson_mut_strcpy(NULL, "x"));
    ASSERT_NULL(tyjson_mut_strncpy(NULL, "x", 1));
    ASSERT_NULL(tyjson_mut_rawncpy(NULL, "1", 1));
    ASSERT_NULL(tyjson_mut_arr(NULL));
    ASSERT_NULL(tyjson_mut_obj(NULL));
}

TEST(string_ownership) {
    tyjson_mut_doc *doc = tyjson_mut_doc_new(NULL);
    char buf[32];

    /* Referenced: the value points at the caller's bytes. */
    strcpy(buf, "hello");
    tyjson_mut_val *ref = tyjson_mut_str(doc, buf);
    ASSERT_TRUE(tyjson_mut_get_str(ref) == buf);
    ASSERT_EQ_UINT(tyjson_mut_get_len(ref), 5);
    tyjson_mut_val *refn = tyjson_mut_strn(doc, buf + 1, 3); /* "ell", not terminated */
    ASSERT_TRUE(tyjson_mut_get_str(refn) == buf + 1);
    ASSERT_TRUE(tyjson_mut_equals_strn(refn, "ell", 3));

    /* Copied: survives the caller overwriting its buffer, NUL-terminated. */
    tyjson_mut_val *cpy = tyjson_mut_strcpy(doc, buf);
    tyjson_mut_val *cpyn = tyjson_mut_strncpy(doc, buf + 1, 3);
    tyjson_mut_val *raw = tyjson_mut_rawncpy(doc, "123456789012345678901234567890xyz", 30);
    memset(buf, 'X', sizeof(buf) - 1);
    ASSERT_TRUE(tyjson_mut_get_str(cpy) != buf);
    ASSERT_EQ_STR(tyjson_mut_get_str(cpy), "hello");
    ASSERT_EQ_STR(tyjson_mut_get_str(cpyn), "ell");
    ASSERT_TRUE(tyjson_mut_equals_str(cpy, "hello"));
    ASSERT_TRUE(tyjson_mut_is_raw(raw));
    ASSERT_EQ_STR(tyjson_mut_get_str(raw), "123456789012345678901234567890");
    ASSERT_EQ_UINT(tyjson_mut_get_len(raw), 30);
    ASSERT_TRUE(tyjson_mut_equals_str(ref, "XXXXX")); /* the reference sees the change */

    /* Embedded NUL and empty strings. */
    tyjson_mut_val *nul = tyjson_mut_strncpy(doc, "a\0b", 3);
    ASSERT_EQ_UINT(tyjson_mut_get_len(nul), 3);
    ASSERT_EQ_MEM(tyjson_mut_get_str(nul), "a\0b", 4);
    tyjson_mut_val *empty = tyjson_mut_strcpy(doc, "");
    ASSERT_EQ_STR(tyjson_mut_get_str(empty), "");
    ASSERT_EQ_UINT(tyjson_mut_get_len(empty), 0);
    ASSERT_EQ_STR(tyjson_mut_get_str(tyjson_mut_strncpy(doc, "zz", 0)), "");
    ASSERT_TRUE(tyjson_mut_is_str(tyjson_mut_str(doc, "")));

    /* NULL bytes are refused, except NULL with length 0: the empty string. */
    ASSERT_NULL(tyjson_mut_str(doc, NULL));
    ASSERT_NULL(tyjson_mut_strn(doc, NULL, 3));
    ASSERT_NULL(tyjson_mut_strcpy(doc, NULL));
    ASSERT_NULL(tyjson_mut_strncpy(doc, NULL, 3));
    ASSERT_NULL(tyjson_mut_rawncpy(doc, NULL, 2));
    ASSERT_EQ_STR(tyjson_mut_get_str(tyjson_mut_strn(doc, NULL, 0)), "");
    ASSERT_EQ_STR(tyjson_mut_get_str(tyjson_mut_strncpy(doc, NULL, 0)), "");
    ASSERT_EQ_UINT(tyjson_mut_get_len(tyjson_mut_rawncpy(doc, NULL, 0)), 0);

    /* Many copies of varied sizes, including some larger than a chunk, stay
     * intact while later ones are added. */
    enum { N = 3000 };
    static tyjson_mut_val *vals[N];
    char *big = (char *)malloc(70000);
    for (int i = 0; i < N; i++) {
        size_t len = (size_t)(i % 97) * 3 + (i % 500 == 7 ? 65000 : 0);
        memset(big, 'a' + i % 26, len);
        vals[i] = tyjson_mut_strncpy(doc, big, len);
        ASSERT_NOT_NULL(vals[i]);
    }
    for (int i = 0; i < N; i++) {
        size_t len = (size_t)(i % 97) * 3 + (i % 500 == 7 ? 65000 : 0);
        const char *s = tyjson_mut_get_str(vals[i]);
        ASSERT_EQ_UINT(tyjson_mut_get_len(vals[i]), len);
        for (size_t j = 0; j < len; j++) ASSERT_EQ_INT(s[j], 'a' + i % 26);
        ASSERT_EQ_INT(s[len], 0);
    }
    free(big);
    tyjson_mut_doc_free(doc);
}

/* ----------------------------------------------------------------------------
 * MARK: - Setters
 * ------------------------------------------------------------------------- */
TEST(setters_keep_position) {
    tyjson_mut_doc *doc = tyjson_mut_doc_new(NULL);
    tyjson_mut_val *arr = uint_arr(doc, 3);
    tyjson_mut_val *mid = tyjson_mut_arr_get(arr, 1);
    tyjson_mut_val *last = tyjson_mut_arr_get(arr, 2);
    char buf[8] = "abc";

    ASSERT_TRUE(tyjson_mut_set_null(mid));
    ASSERT_TRUE(tyjson_mut_is_null(mid));
    ASSERT_TRUE(tyjson_mut_set_bool(mid, true));
    ASSERT_TRUE(tyjson_mut_get_bool(mid));
    ASSERT_TRUE(tyjson_mut_set_bool(mid, false));
    ASSERT_TRUE(tyjson_mut_is_bool(mid) && !tyjson_mut_get_bool(mid));
    ASSERT_TRUE(tyjson_mut_set_uint(mid, UINT64_MAX));
    ASSERT_EQ_UINT(tyjson_mut_get_uint(mid), UINT64_MAX);
    ASSERT_TRUE(tyjson_mut_set_sint(mid, 7));
    ASSERT_TRUE(tyjson_mut_is_uint(mid));
    ASSERT_TRUE(tyjson_mut_set_sint(mid, -7));
    ASSERT_TRUE(tyjson_mut_is_sint(mid));
    ASSERT_EQ_INT(tyjson_mut_get_sint(mid), -7);
    ASSERT_TRUE(tyjson_mut_set_real(mid, 2.5));
    ASSERT_EQ_DBL_BITS(tyjson_mut_get_real(mid), 2.5);
    ASSERT_TRUE(tyjson_mut_set_strn(mid, buf, 2));
    ASSERT_TRUE(tyjson_mut_get_str(mid) == buf);
    ASSERT_EQ_UINT(tyjson_mut_get_len(mid), 2);
    ASSERT_TRUE(tyjson_mut_set_strncpy(doc, last, buf, 3));
    buf[0] = 'z';
    ASSERT_EQ_STR(tyjson_mut_get_str(last), "abc");
    ASSERT_TRUE(tyjson_mut_equals_strn(mid, "zb", 2));
    /* A raw value can become something else too. */
    tyjson_mut_val *raw = tyjson_mut_rawncpy(doc, "1e999", 5);
    ASSERT_TRUE(tyjson_mut_set_uint(raw, 3));
    ASSERT_TRUE(tyjson_mut_is_uint(raw));

    /* Positions unchanged: 0, "zb", "abc", still circular. */
    ASSERT_EQ_UINT(tyjson_mut_arr_size(arr), 3);
    ASSERT_TRUE(tyjson_mut_arr_get(arr, 1) == mid);
    ASSERT_TRUE(tyjson_mut_arr_get(arr, 2) == last);
    ASSERT_TRUE(tyjson_mut_arr_get_last(arr) == last);
    ASSERT_TRUE(last->next == tyjson_mut_arr_get(arr, 0));
    ASSERT_TRUE(mid->next == last);

    /* Containers and NULL are refused, unchanged. */
    tyjson_mut_val *obj = tyjson_mut_obj(doc);
    ASSERT_FALSE(tyjson_mut_set_null(arr));
    ASSERT_FALSE(tyjson_mut_set_bool(obj, true));
    ASSERT_FALSE(tyjson_mut_set_uint(arr, 1));
    ASSERT_FALSE(tyjson_mut_set_sint(obj, 1));
    ASSERT_FALSE(tyjson_mut_set_real(arr, 1.0));
    ASSERT_FALSE(tyjson_mut_set_strn(obj, "x", 1));
    ASSERT_FALSE(tyjson_mut_set_strncpy(doc, arr, "x", 1));
    ASSERT_TRUE(tyjson_mut_is_arr(arr) && tyjson_mut_is_obj(obj));
    ASSERT_EQ_UINT(tyjson_mut_arr_size(arr), 3);
    ASSERT_FALSE(tyjson_mut_set_null(NULL));
    ASSERT_FALSE(tyjson_mut_set_bool(NULL, true));
    ASSERT_FALSE(tyjson_mut_set_uint(NULL, 1));
    ASSERT_FALSE(tyjson_mut_set_sint(NULL, 1));
    ASSERT_FALSE(tyjson_mut_set_real(NULL, 1.0));
    ASSERT_FALSE(tyjson_mut_set_strn(NULL, "x", 1));
    ASSERT_FALSE(tyjson_mut_set_strn(mid, NULL, 1));
    ASSERT_FALSE(tyjson_mut_set_strncpy(NULL, mid, "x", 1));
    ASSERT_FALSE(tyjson_mut_set_strncpy(doc, NULL, "x", 1));
    ASSERT_FALSE(tyjson_mut_set_strncpy(doc, mid, NULL, 1));
    ASSERT_TRUE(tyjson_mut_equals_strn(mid, "zb", 2));
    tyjson_mut_doc_free(doc);
}

/* ----------------------------------------------------------------------------
 * MARK: - Arrays
 * ------------------------------------------------------------------------- */
TEST(arr_insert_every_position) {
    tyjson_mut_doc *doc = tyjson_mut_doc_new(NULL);
    for (size_t n = 0; n <= 5; n++) {
        for (size_t at = 0; at <= n; at++) {
            tyjson_mut_val *arr = uint_arr(doc, n);
            ASSERT_TRUE(tyjson_mut_arr_insert(arr, tyjson_mut_uint(doc, 100), at));
            uint64_t want[8];
            for (size_t i = 0, j = 0; i <= n; i++) want[i] = i == at ? 100 : j++;
            expect_uints(arr, want, n + 1);
        }
        tyjson_mut_val *arr = uint_arr(doc, n);
        ASSERT_FALSE(tyjson_mut_arr_insert(arr, tyjson_mut_uint(doc, 9), n + 1));
        ASSERT_FALSE(tyjson_mut_arr_insert(arr, NULL, 0));
        ASSERT_EQ_UINT(tyjson_mut_arr_size(arr), n);
    }
    /* prepend / append build the same list from both ends. */
    tyjson_mut_val *arr = tyjson_mut_arr(doc);
    ASSERT_TRUE(tyjson_mut_arr_prepend(arr, tyjson_mut_uint(doc, 2)));
    ASSERT_TRUE(tyjson_mut_arr_append(arr, tyjson_mut_uint(doc, 3)));
    ASSERT_TRUE(tyjson_mut_arr_prepend(arr, tyjson_mut_uint(doc, 1)));
    ASSERT_TRUE(tyjson_mut_arr_append(arr, tyjson_mut_uint(doc, 4)));
    ASSERT_TRUE(tyjson_mut_arr_prepend(arr, tyjson_mut_uint(doc, 0)));
    const uint64_t want[] = {0, 1, 2, 3, 4};
    expect_uints(arr, want, 5);

    /* Wrong types and NULLs. */
    tyjson_mut_val *obj = tyjson_mut_obj(doc), *x = tyjson_mut_null(doc);
    ASSERT_FALSE(tyjson_mut_arr_append(obj, x));
    ASSERT_FALSE(tyjson_mut_arr_prepend(obj, x));
    ASSERT_FALSE(tyjson_mut_arr_insert(obj, x, 0));
    ASSERT_FALSE(tyjson_mut_arr_append(NULL, x));
    ASSERT_FALSE(tyjson_mut_arr_append(arr, NULL));
    ASSERT_FALSE(tyjson_mut_arr_prepend(arr, NULL));
    ASSERT_FALSE(tyjson_mut_arr_append(x, x));
    ASSERT_EQ_UINT(tyjson_mut_obj_size(obj), 0);
    ASSERT_NULL(tyjson_mut_arr_get(obj, 0));
    ASSERT_NULL(tyjson_mut_arr_get(NULL, 0));
    ASSERT_NULL(tyjson_mut_arr_get_first(NULL));
    ASSERT_NULL(tyjson_mut_arr_get_last(x));
    ASSERT_EQ_UINT(tyjson_mut_arr_size(NULL), 0);
    tyjson_mut_doc_free(doc);
}

TEST(arr_remove_replace_clear) {
    tyjson_mut_doc *doc = tyjson_mut_doc_new(NULL);
    for (size_t n = 1; n <= 5; n++) {
        for (size_t at = 0; at < n; at++) {
            /* remove */
            tyjson_mut_val *arr = uint_arr(doc, n);
            tyjson_mut_val *old = tyjson_mut_arr_remove(arr, at);
            ASSERT_NOT_NULL(old);
            ASSERT_EQ_UINT(tyjson_mut_get_uint(old), at);
            uint64_t want[8];
            for (size_t i = 0, j = 0; j < n; j++)
                if (j != at) want[i++] = j;
            expect_uints(arr, want, n - 1);
            /* the removed value can be added again */
            ASSERT_TRUE(tyjson_mut_arr_insert(arr, old, at));
            for (size_t i = 0; i < n; i++) want[i] = i;
            expect_uints(arr, want, n);

            /* replace */
            arr = uint_arr(doc, n);
            old = tyjson_mut_arr_replace(arr, at, tyjson_mut_uint(doc, 100));
            ASSERT_NOT_NULL(old);
            ASSERT_EQ_UINT(tyjson_mut_get_uint(old), at);
            for (size_t i = 0; i < n; i++) want[i] = i == at ? 100 : i;
            expect_uints(arr, want, n);
        }
        tyjson_mut_val *arr = uint_arr(doc, n);
        ASSERT_NULL(tyjson_mut_arr_remove(arr, n));
        ASSERT_NULL(tyjson_mut_arr_replace(arr, n, tyjson_mut_null(doc)));
        ASSERT_NULL(tyjson_mut_arr_replace(arr, 0, NULL));
        ASSERT_EQ_UINT(tyjson_mut_arr_size(arr), n);

        /* remove_first / remove_last */
        tyjson_mut_val *first = tyjson_mut_arr_remove_first(arr);
        ASSERT_EQ_UINT(tyjson_mut_get_uint(first), 0);
        uint64_t want[8];
        for (size_t i = 1; i < n; i++) want[i - 1] = i;
        expect_uints(arr, want, n - 1);
        if (n > 1) {
            tyjson_mut_val *last = tyjson_mut_arr_remove_last(arr);
            ASSERT_EQ_UINT(tyjson_mut_get_uint(last), n - 1);
            expect_uints(arr, want, n - 2);
        }

        ASSERT_TRUE(tyjson_mut_arr_clear(arr));
        expect_uints(arr, want, 0);
        ASSERT_NULL(tyjson_mut_arr_remove_first(arr));
        ASSERT_NULL(tyjson_mut_arr_remove_last(arr));
        ASSERT_NULL(tyjson_mut_arr_remove(arr, 0));
        /* usable again after clear */
        ASSERT_TRUE(tyjson_mut_arr_add_uint(doc, arr, 0));
        ASSERT_TRUE(tyjson_mut_arr_add_uint(doc, arr, 1));
        want[0] = 0;
        want[1] = 1;
        expect_uints(arr, want, 2);
    }
    tyjson_mut_val *obj = tyjson_mut_obj(doc);
    ASSERT_FALSE(tyjson_mut_arr_clear(obj));
    ASSERT_FALSE(tyjson_mut_arr_clear(NULL));
    ASSERT_NULL(tyjson_mut_arr_remove(obj, 0));
    ASSERT_NULL(tyjson_mut_arr_remove_first(NULL));
    ASSERT_NULL(tyjson_mut_arr_remove_last(obj));
    ASSERT_NULL(tyjson_mut_arr_replace(obj, 0, tyjson_mut_null(doc)));
    ASSERT_NULL(tyjson_mut_arr_replace(NULL, 0, tyjson_mut_null(doc)));
    tyjson_mut_doc_free(doc);
}

/* Every (idx, count) of arrays up to 5 long: the rest in order, the removed
 * values reusable, the last-element pointer right (appending after). */
TEST(arr_remove_range_and_rotate) {
    tyjson_mut_doc *doc = tyjson_mut_doc_new(NULL);
    uint64_t want[8];
    for (size_t n = 0; n <= 5; n++) {
        for (size_t at = 0; at <= n; at++) {
            for (size_t cnt = 0; at + cnt <= n; cnt++) {
                tyjson_mut_val *arr = uint_arr(doc, n);
                tyjson_mut_val *first = tyjson_mut_arr_get(arr, at);
                ASSERT_TRUE(tyjson_mut_arr_remove_range(arr, at, cnt));
                size_t k = 0;
                for (size_t j = 0; j < n; j++)
                    if (j < at || j >= at + cnt) want[k++] = j;
                expect_uints(arr, want, k);
                ASSERT_TRUE(tyjson_mut_arr_add_uint(doc, arr, 99));
                want[k] = 99;
                expect_uints(arr, want, k + 1);
                if (cnt) { /* the first removed value links again */
                    ASSERT_TRUE(tyjson_mut_arr_append(arr, first));
                    ASSERT_EQ_UINT(tyjson_mut_get_uint(tyjson_mut_arr_get_last(arr)), at);
                }
            }
            /* past the end, and counts whose sum with idx overflows */
            tyjson_mut_val *arr = uint_arr(doc, n);
            ASSERT_FALSE(tyjson_mut_arr_remove_range(arr, at, n - at + 1));
            ASSERT_FALSE(tyjson_mut_arr_remove_range(arr, at, SIZE_MAX));
            for (size_t j = 0; j < n; j++) want[j] = j;
            expect_uints(arr, want, n);
        }
        tyjson_mut_val *arr = uint_arr(doc, n);
        ASSERT_FALSE(tyjson_mut_arr_remove_range(arr, n + 1, 0));
        /* rotate */
        for (size_t at = 0; at < n; at++) {
            arr = uint_arr(doc, n);
            ASSERT_TRUE(tyjson_mut_arr_rotate(arr, at));
            for (size_t j = 0; j < n; j++) want[j] = (j + at) % n;
            expect_uints(arr, want, n);
            ASSERT_TRUE(tyjson_mut_arr_add_uint(doc, arr, 99));
            want[n] = 99;
            expect_uints(arr, want, n + 1);
        }
        arr = uint_arr(doc, n);
        ASSERT_FALSE(tyjson_mut_arr_rotate(arr, n));
        for (size_t j = 0; j < n; j++) want[j] = j;
        expect_uints(arr, want, n);
    }
    tyjson_mut_val *obj = tyjson_mut_obj(doc);
    ASSERT_FALSE(tyjson_mut_arr_remove_range(obj, 0, 0));
    ASSERT_FALSE(tyjson_mut_arr_rotate(obj, 0));
    ASSERT_FALSE(tyjson_mut_arr_remove_range(NULL, 0, 0));
    ASSERT_FALSE(tyjson_mut_arr_rotate(NULL, 0));
    tyjson_mut_doc_free(doc);
}

TEST(arr_add_helpers_and_iter) {
    tyjson_mut_doc *doc = tyjson_mut_doc_new(NULL);
    tyjson_mut_val *arr = tyjson_mut_arr(doc);
    char buf[8] = "copy";
    ASSERT_TRUE(tyjson_mut_arr_add_null(doc, arr));
    ASSERT_TRUE(tyjson_mut_arr_add_bool(doc, arr, true));
    ASSERT_TRUE(tyjson_mut_arr_add_uint(doc, arr, 42));
    ASSERT_TRUE(tyjson_mut_arr_add_sint(doc, arr, -42));
    ASSERT_TRUE(tyjson_mut_arr_add_real(doc, arr, 0.5));
    ASSERT_TRUE(tyjson_mut_arr_add_str(doc, arr, "ref"));
    ASSERT_TRUE(tyjson_mut_arr_add_strcpy(doc, arr, buf));
    tyjson_mut_val *sub = tyjson_mut_arr_add_arr(doc, arr);
    tyjson_mut_val *so = tyjson_mut_arr_add_obj(doc, arr);
    ASSERT_TRUE(tyjson_mut_is_arr(sub) && tyjson_mut_is_obj(so));
    buf[0] = 'X';
    ASSERT_EQ_UINT(tyjson_mut_arr_size(arr), 9);

    const char *types[] = {"null", "true", "uint", "sint", "real", "string", "string", "array", "object"};
    tyjson_mut_arr_iter it = tyjson_mut_arr_iter_with(arr);
    tyjson_mut_val *v;
    size_t i = 0;
    while ((v = tyjson_mut_arr_iter_next(&it))) {
        ASSERT_EQ_STR(tyjson_get_type_desc((const tyjson_val *)(const void *)v), types[i]);
        i++;
    }
    ASSERT_EQ_UINT(i, 9);
    ASSERT_NULL(tyjson_mut_arr_iter_next(&it));
    ASSERT_EQ_STR(tyjson_mut_get_str(tyjson_mut_arr_get(arr, 6)), "copy");
    ASSERT_EQ_INT(tyjson_mut_get_sint(tyjson_mut_arr_get(arr, 3)), -42);

    /* Empty and non-array iteration yields nothing. */
    it = tyjson_mut_arr_iter_with(sub);
    ASSERT_NULL(tyjson_mut_arr_iter_next(&it));
    it = tyjson_mut_arr_iter_with(so);
    ASSERT_NULL(tyjson_mut_arr_iter_next(&it));

    /* Bad arguments: nothing is appended. */
    ASSERT_FALSE(tyjson_mut_arr_add_null(NULL, arr));
    ASSERT_FALSE(tyjson_mut_arr_add_null(doc, so));
    ASSERT_FALSE(tyjson_mut_arr_add_bool(doc, NULL, true));
    ASSERT_FALSE(tyjson_mut_arr_add_uint(doc, so, 1));
    ASSERT_FALSE(tyjson_mut_arr_add_sint(doc, so, 1));
    ASSERT_FALSE(tyjson_mut_arr_add_real(doc, so, 1));
    ASSERT_FALSE(tyjson_mut_arr_add_str(doc, arr, NULL));
    ASSERT_FALSE(tyjson_mut_arr_add_strcpy(doc, arr, NULL));
    ASSERT_NULL(tyjson_mut_arr_add_arr(doc, so));
    ASSERT_NULL(tyjson_mut_arr_add_obj(NULL, arr));
    ASSERT_EQ_UINT(tyjson_mut_arr_size(arr), 9);
    ASSERT_EQ_UINT(tyjson_mut_obj_size(so), 0);
    tyjson_mut_doc_free(doc);
}

/* ----------------------------------------------------------------------------
 * MARK: - Objects
 * ------------------------------------------------------------------------- */
TEST(obj_add_get_iter) {
    tyjson_mut_doc *doc = tyjson_mut_doc_new(NULL);
    tyjson_mut_val *obj = tyjson_mut_obj(doc);
    char kbuf[8] = "kcpy";
    ASSERT_TRUE(tyjson_mut_obj_add_null(doc, obj, "n"));
    ASSERT_TRUE(tyjson_mut_obj_add_bool(doc, obj, "b", true));
    ASSERT_TRUE(tyjson_mut_obj_add_uint(doc, obj, "u", 7));
    ASSERT_TRUE(tyjson_mut_obj_add_sint(doc, obj, "s", -7));
    ASSERT_TRUE(tyjson_mut_obj_add_real(doc, obj, "r", 1.5));
    ASSERT_TRUE(tyjson_mut_obj_add_str(doc, obj, "str", "ref"));
    ASSERT_TRUE(tyjson_mut_obj_add_strcpy(doc, obj, "cpy", kbuf));
    ASSERT_TRUE(tyjson_mut_obj_add_val(doc, obj, "v", tyjson_mut_uint(doc, 1)));
    ASSERT_TRUE(tyjson_mut_obj_add_val_keycpy(doc, obj, kbuf, tyjson_mut_uint(doc, 2)));
    tyjson_mut_val *a = tyjson_mut_obj_add_arr(doc, obj, "arr");
    tyjson_mut_val *o = tyjson_mut_obj_add_obj(doc, obj, "obj");
    ASSERT_TRUE(tyjson_mut_is_arr(a) && tyjson_mut_is_obj(o));
    tyjson_mut_val *k = tyjson_mut_strn(doc, "a\0b", 3);
    ASSERT_TRUE(tyjson_mut_obj_add(obj, k, tyjson_mut_uint(doc, 3)));
    memset(kbuf, 'Z', 4);
    ASSERT_EQ_UINT(tyjson_mut_obj_size(obj), 12);

    ASSERT_TRUE(tyjson_mut_is_null(tyjson_mut_obj_get(obj, "n")));
    ASSERT_TRUE(tyjson_mut_get_bool(tyjson_mut_obj_get(obj, "b")));
    ASSERT_EQ_UINT(tyjson_mut_get_uint(tyjson_mut_obj_get(obj, "u")), 7);
    ASSERT_EQ_INT(tyjson_mut_get_sint(tyjson_mut_obj_get(obj, "s")), -7);
    ASSERT_EQ_DBL_BITS(tyjson_mut_get_real(tyjson_mut_obj_get(obj, "r")), 1.5);
    ASSERT_EQ_STR(tyjson_mut_get_str(tyjson_mut_obj_get(obj, "str")), "ref");
    ASSERT_EQ_STR(tyjson_mut_get_str(tyjson_mut_obj_get(obj, "cpy")), "kcpy");
    ASSERT_EQ_UINT(tyjson_mut_get_uint(tyjson_mut_obj_get(obj, "v")), 1);
    ASSERT_EQ_UINT(tyjson_mut_get_uint(tyjson_mut_obj_get(obj, "kcpy")), 2);
    ASSERT_TRUE(tyjson_mut_obj_get(obj, "arr") == a);
    ASSERT_TRUE(tyjson_mut_obj_get(obj, "obj") == o);
    ASSERT_EQ_UINT(tyjson_mut_get_uint(tyjson_mut_obj_getn(obj, "a\0b", 3)), 3);
    ASSERT_NULL(tyjson_mut_obj_get(obj, "a"));
    ASSERT_NULL(tyjson_mut_obj_get(obj, "missing"));
    ASSERT_NULL(tyjson_mut_obj_get(obj, ""));
    ASSERT_NULL(tyjson_mut_obj_get(obj, NULL));
    ASSERT_NULL(tyjson_mut_obj_get(NULL, "n"));
    ASSERT_NULL(tyjson_mut_obj_get(a, "n"));
    ASSERT_NULL(tyjson_mut_obj_getn(obj, NULL, 0));

    const char *keys[] = {"n", "b", "u", "s", "r", "str", "cpy", "v", "kcpy", "arr", "obj"};
    tyjson_mut_obj_iter it = tyjson_mut_obj_iter_with(obj);
    tyjson_mut_val *key;
    size_t i = 0;
    while ((key = tyjson_mut_obj_iter_next(&it))) {
        ASSERT_TRUE(tyjson_mut_is_str(key));
        if (i < 11) ASSERT_TRUE(tyjson_mut_equals_str(key, keys[i]));
        ASSERT_TRUE(tyjson_mut_obj_iter_get_val(key) == key->next);
        i++;
    }
    ASSERT_EQ_UINT(i, 12);
    it = tyjson_mut_obj_iter_with(o);
    ASSERT_NULL(tyjson_mut_obj_iter_next(&it));
    it = tyjson_mut_obj_iter_with(a);
    ASSERT_NULL(tyjson_mut_obj_iter_next(&it));

    /* Bad arguments add nothing. */
    tyjson_mut_val *x = tyjson_mut_null(doc);
    ASSERT_FALSE(tyjson_mut_obj_add(obj, tyjson_mut_uint(doc, 1), x)); /* key not a string */
    ASSERT_FALSE(tyjson_mut_obj_add(obj, NULL, x));
    ASSERT_FALSE(tyjson_mut_obj_add(obj, tyjson_mut_str(doc, "k"), NULL));
    ASSERT_FALSE(tyjson_mut_obj_add(a, tyjson_mut_str(doc, "k"), x));
    ASSERT_FALSE(tyjson_mut_obj_add(NULL, tyjson_mut_str(doc, "k"), x));
    ASSERT_FALSE(tyjson_mut_obj_add_null(NULL, obj, "k"));
    ASSERT_FALSE(tyjson_mut_obj_add_null(doc, a, "k"));
    ASSERT_FALSE(tyjson_mut_obj_add_null(doc, obj, NULL));
    ASSERT_FALSE(tyjson_mut_obj_add_bool(doc, NULL, "k", true));
    ASSERT_FALSE(tyjson_mut_obj_add_uint(doc, a, "k", 1));
    ASSERT_FALSE(tyjson_mut_obj_add_sint(doc, a, "k", 1));
    ASSERT_FALSE(tyjson_mut_obj_add_real(doc, a, "k", 1));
    ASSERT_FALSE(tyjson_mut_obj_add_str(doc, obj, "k", NULL));
    ASSERT_FALSE(tyjson_mut_obj_add_strcpy(doc, obj, "k", NULL));
    ASSERT_FALSE(tyjson_mut_obj_add_val(doc, obj, "k", NULL));
    ASSERT_FALSE(tyjson_mut_obj_add_val_keycpy(doc, obj, "k", NULL));
    ASSERT_FALSE(tyjson_mut_obj_add_val_keycpy(doc, obj, NULL, x));
    ASSERT_NULL(tyjson_mut_obj_add_arr(doc, a, "k"));
    ASSERT_NULL(tyjson_mut_obj_add_obj(doc, obj, NULL));
    ASSERT_EQ_UINT(tyjson_mut_obj_size(obj), 12);
    ASSERT_EQ_UINT(tyjson_mut_arr_size(a), 0);
    tyjson_mut_doc_free(doc);
}

TEST(obj_put) {
    tyjson_mut_doc *doc = tyjson_mut_doc_new(NULL);
    char sig[256];
    struct {
        const char *keys, *put, *want;
    } cases[] = {
        {"", "a", "a=99"},
        {"a", "a", "a=99"},
        {"a", "b", "a=0,b=99"},
        {"abc", "a", "a=99,b=1,c=2"},
        {"abc", "b", "a=0,b=99,c=2"},
        {"abc", "c", "a=0,b=1,c=99"},
        {"abc", "d", "a=0,b=1,c=2,d=99"},
        {"aa", "a", "a=99"},
        {"abab", "a", "a=99,b=1,b=3"},
        {"abab", "b", "a=0,b=99,a=2"},
        {"baaa", "a", "b=0,a=99"},
        {"aaab", "a", "a=99,b=3"},
        {"acbca", "a", "a=99,c=1,b=2,c=3"},
        {"cacbac", "c", "c=99,a=1,b=3,a=4"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        tyjson_mut_val *obj = obj_of(doc, cases[i].keys);
        tyjson_mut_val *v = tyjson_mut_uint(doc, 99);
        ASSERT_TRUE(tyjson_mut_obj_put(obj, tyjson_mut_str(doc, cases[i].put), v));
        obj_sig(obj, sig, sizeof(sig));
        ASSERT_EQ_STR(sig, cases[i].want);
        ASSERT_TRUE(tyjson_mut_obj_get(obj, cases[i].put) == v);
        /* the list is still circular: the last value leads to the first key */
        tyjson_mut_val *last = (tyjson_mut_val *)obj->uni.ptr;
        tyjson_mut_obj_iter it = tyjson_mut_obj_iter_with(obj);
        ASSERT_TRUE(last->next == tyjson_mut_obj_iter_next(&it));
        /* and still editable */
        ASSERT_TRUE(tyjson_mut_obj_add_uint(doc, obj, "z", 5));
        ASSERT_EQ_UINT(tyjson_mut_get_uint(tyjson_mut_obj_get(obj, "z")), 5);
    }
    tyjson_mut_val *obj = obj_of(doc, "a");
    ASSERT_FALSE(tyjson_mut_obj_put(obj, tyjson_mut_str(doc, "a"), NULL));
    ASSERT_FALSE(tyjson_mut_obj_put(obj, tyjson_mut_null(doc), tyjson_mut_null(doc)));
    ASSERT_FALSE(tyjson_mut_obj_put(obj, NULL, tyjson_mut_null(doc)));
    ASSERT_FALSE(tyjson_mut_obj_put(NULL, tyjson_mut_str(doc, "a"), tyjson_mut_null(doc)));
    ASSERT_FALSE(tyjson_mut_obj_put(tyjson_mut_arr(doc), tyjson_mut_str(doc, "a"), tyjson_mut_null(doc)));
    obj_sig(obj, sig, sizeof(sig));
    ASSERT_EQ_STR(sig, "a=0");
    tyjson_mut_doc_free(doc);
}

TEST(obj_remove_clear) {
    tyjson_mut_doc *doc = tyjson_mut_doc_new(NULL);
    char sig[256];
    struct {
        const char *keys, *rm, *want;
        long first; /* value of the first removed member, -1 for none */
    } cases[] = {
        {"", "a", "", -1},
        {"a", "a", "", 0},
        {"a", "b", "a=0", -1},
        {"abc", "a", "b=1,c=2", 0},
        {"abc", "b", "a=0,c=2", 1},
        {"abc", "c", "a=0,b=1", 2},
        {"aaa", "a", "", 0},
        {"abab", "b", "a=0,a=2", 1},
        {"baab", "b", "a=1,a=2", 0},
        {"abcab", "a", "b=1,c=2,b=4", 0},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        tyjson_mut_val *obj = obj_of(doc, cases[i].keys);
        tyjson_mut_val *got = tyjson_mut_obj_remove_key(obj, cases[i].rm);
        if (cases[i].first < 0) {
            ASSERT_NULL(got);
        } else {
            ASSERT_NOT_NULL(got);
            ASSERT_EQ_UINT(tyjson_mut_get_uint(got), (uint64_t)cases[i].first);
        }
        obj_sig(obj, sig, sizeof(sig));
        ASSERT_EQ_STR(sig, cases[i].want);
        ASSERT_NULL(tyjson_mut_obj_get(obj, cases[i].rm));
        ASSERT_TRUE(tyjson_mut_obj_add_uint(doc, obj, "z", 5));
        ASSERT_EQ_UINT(tyjson_mut_get_uint(tyjson_mut_obj_get(obj, "z")), 5);
        tyjson_mut_val *last = (tyjson_mut_val *)obj->uni.ptr;
        tyjson_mut_obj_iter it = tyjson_mut_obj_iter_with(obj);
        ASSERT_TRUE(last->next == tyjson_mut_obj_iter_next(&it));
    }
    tyjson_mut_val *obj = obj_of(doc, "a\0");
    tyjson_mut_val *k = tyjson_mut_strn(doc, "x\0y", 3);
    ASSERT_TRUE(tyjson_mut_obj_add(obj, k, tyjson_mut_uint(doc, 9)));
    ASSERT_NULL(tyjson_mut_obj_remove_keyn(obj, "x", 1));
    ASSERT_EQ_UINT(tyjson_mut_get_uint(tyjson_mut_obj_remove_keyn(obj, "x\0y", 3)), 9);
    ASSERT_NULL(tyjson_mut_obj_remove_key(obj, NULL));
    ASSERT_NULL(tyjson_mut_obj_remove_key(NULL, "a"));
    ASSERT_NULL(tyjson_mut_obj_remove_key(tyjson_mut_arr(doc), "a"));
    ASSERT_EQ_UINT(tyjson_mut_obj_size(obj), 1);
    ASSERT_TRUE(tyjson_mut_obj_clear(obj));
    ASSERT_EQ_UINT(tyjson_mut_obj_size(obj), 0);
    ASSERT_NULL(tyjson_mut_obj_get(obj, "a"));
    ASSERT_TRUE(tyjson_mut_obj_add_uint(doc, obj, "b", 1));
    obj_sig(obj, sig, sizeof(sig));
    ASSERT_EQ_STR(sig, "b=1");
    ASSERT_FALSE(tyjson_mut_obj_clear(NULL));
    ASSERT_FALSE(tyjson_mut_obj_clear(tyjson_mut_arr(doc)));
    tyjson_mut_doc_free(doc);
}

/* ----------------------------------------------------------------------------
 * MARK: - Copies
 * ------------------------------------------------------------------------- */

/* {"name":"tyjson","n":[1,-2,3.5,true,false,null,"",[],{}],
 *  "nested":{"a":{"b":["deep"]}},"raw":12345678901234567890123,"dup":1,"dup":2} */
static tyjson_mut_val *build_sample(tyjson_mut_doc *doc) {
    tyjson_mut_val *root = tyjson_mut_obj(doc);
    ASSERT_TRUE(tyjson_mut_obj_add_str(doc, root, "name", "tyjson"));
    tyjson_mut_val *n = tyjson_mut_obj_add_arr(doc, root, "n");
    ASSERT_TRUE(tyjson_mut_arr_add_uint(doc, n, 1));
    ASSERT_TRUE(tyjson_mut_arr_add_sint(doc, n, -2));
    ASSERT_TRUE(tyjson_mut_arr_add_real(doc, n, 3.5));
    ASSERT_TRUE(tyjson_mut_arr_add_bool(doc, n, true));
    ASSERT_TRUE(tyjson_mut_arr_add_bool(doc, n, false));
    ASSERT_TRUE(tyjson_mut_arr_add_null(doc, n));
    ASSERT_TRUE(tyjson_mut_arr_add_str(doc, n, ""));
    ASSERT_NOT_NULL(tyjson_mut_arr_add_arr(doc, n));
    ASSERT_NOT_NULL(tyjson_mut_arr_add_obj(doc, n));
    tyjson_mut_val *nested = tyjson_mut_obj_add_obj(doc, root, "nested");
    tyjson_mut_val *a = tyjson_mut_obj_add_obj(doc, nested, "a");
    tyjson_mut_val *b = tyjson_mut_obj_add_arr(doc, a, "b");
    ASSERT_TRUE(tyjson_mut_arr_add_str(doc, b, "deep"));
    ASSERT_TRUE(tyjson_mut_obj_add_val(doc, root, "raw",
                                       tyjson_mut_rawncpy(doc, "12345678901234567890123", 23)));
    ASSERT_TRUE(tyjson_mut_obj_add_uint(doc, root, "dup", 1));
    ASSERT_TRUE(tyjson_mut_obj_add_uint(doc, root, "dup", 2));
    return root;
}

TEST(imut_copy_layout) {
    tyjson_mut_doc *doc = tyjson_mut_doc_new(NULL);
    tyjson_mut_val *root = build_sample(doc);
    tyjson_mut_doc_set_root(doc, root);
    counting c;
    tyjson_alloc alc = counting_alloc(&c);
    tyjson_doc *idoc = tyjson_mut_doc_imut_copy(doc, &alc);
    ASSERT_NOT_NULL(idoc);
    ASSERT_EQ_INT(c.live, 2); /* the block and the string pool */

    /* Slots: root, 6 keys + name, n(1+9), nested(1 + a-key + a(1 + b-key + b(1+1))),
     * raw, dup, dup = 1 + 6 + 1 + 10 + 6 + 1 + 1 + 1 = 27 */
    ASSERT_EQ_UINT(idoc->val_count, 27);
    ASSERT_EQ_UINT(tyjson_doc_get_val_count(idoc), 27);
    ASSERT_EQ_UINT(idoc->read_size, 0);
    ASSERT_EQ_UINT(idoc->block_size, sizeof(tyjson_doc) + 27 * sizeof(tyjson_val));
    /* key and string bytes, each with its NUL */
    size_t sbytes = (4 + 1) + (6 + 1) + (1 + 1) + (0 + 1) + (6 + 1) + (1 + 1) + (1 + 1) +
                    (4 + 1) + (3 + 1) + (23 + 1) + 2 * (3 + 1);
    ASSERT_EQ_UINT(idoc->str_pool_size, sbytes);
    ASSERT_EQ_UINT(idoc->mem_size, idoc->block_size + sbytes);
    ASSERT_TRUE(idoc->alc.ctx == &c);

    tyjson_val *r = tyjson_doc_get_root(idoc);
    ASSERT_TRUE(r == tyjson__doc_vals(idoc));
    ASSERT_TRUE(tyjson_is_obj(r));
    ASSERT_EQ_UINT(tyjson_obj_size(r), 6);
    ASSERT_EQ_UINT(r->uni.ofs, 27);
    ASSERT_EQ_STR(tyjson_get_str(tyjson_obj_get(r, "name")), "tyjson");
    tyjson_val *n = tyjson_obj_get(r, "n");
    ASSERT_TRUE(n == r + 4);
    ASSERT_EQ_UINT(n->uni.ofs, 10);
    ASSERT_EQ_UINT(tyjson_arr_size(n), 9);
    ASSERT_EQ_UINT(tyjson_get_uint(tyjson_arr_get(n, 0)), 1);
    ASSERT_EQ_INT(tyjson_get_sint(tyjson_arr_get(n, 1)), -2);
    ASSERT_TRUE(tyjson_is_sint(tyjson_arr_get(n, 1)));
    ASSERT_EQ_DBL_BITS(tyjson_get_real(tyjson_arr_get(n, 2)), 3.5);
    ASSERT_TRUE(tyjson_is_true(tyjson_arr_get(n, 3)));
    ASSERT_TRUE(tyjson_is_false(tyjson_arr_get(n, 4)));
    ASSERT_TRUE(tyjson_is_null(tyjson_arr_get(n, 5)));
    ASSERT_EQ_STR(tyjson_get_str(tyjson_arr_get(n, 6)), "");
    tyjson_val *ea = tyjson_arr_get(n, 7), *eo = tyjson_arr_get(n, 8);
    ASSERT_TRUE(tyjson_is_arr(ea) && tyjson_arr_size(ea) == 0 && ea->uni.ofs == 1);
    ASSERT_TRUE(tyjson_is_obj(eo) && tyjson_obj_size(eo) == 0 && eo->uni.ofs == 1);
    ASSERT_TRUE(tyjson_arr_get_last(n) == eo);

    tyjson_val *nested = tyjson_obj_get(r, "nested");
    ASSERT_EQ_UINT(nested->uni.ofs, 6);
    tyjson_val *b = tyjson_obj_get(tyjson_obj_get(nested, "a"), "b");
    ASSERT_EQ_UINT(b->uni.ofs, 2);
    ASSERT_EQ_STR(tyjson_get_str(tyjson_arr_get_first(b)), "deep");
    tyjson_val *raw = tyjson_obj_get(r, "raw");
    ASSERT_TRUE(tyjson_is_raw(raw));
    ASSERT_EQ_STR(tyjson_get_str(raw), "12345678901234567890123");
    ASSERT_EQ_UINT(tyjson_get_uint(tyjson_obj_get(r, "dup")), 1); /* first wins */

    /* Iteration order is the mutable order; every string lives in str_pool. */
    const char *keys[] = {"name", "n", "nested", "raw", "dup", "dup"};
    size_t idx, max, i = 0;
    tyjson_val *key, *val;
    TYJSON_OBJ_FOREACH(r, idx, max, key, val) {
        ASSERT_TRUE(tyjson_equals_str(key, keys[i]));
        ASSERT_TRUE(key->uni.str >= idoc->str_pool && key->uni.str < idoc->str_pool + sbytes);
        ASSERT_EQ_INT(key->uni.str[tyjson_get_len(key)], 0);
        (void)val;
        i++;
    }
    ASSERT_EQ_UINT(i, 6);
    tyjson_arr_iter it = tyjson_arr_iter_with(n);
    i = 0;
    while ((val = tyjson_arr_iter_next(&it))) i++;
    ASSERT_EQ_UINT(i, 9);

    /* mutable -> immutable -> mutable equals the original */
    tyjson_mut_doc *back = tyjson_doc_mut_copy(idoc, &alc);
    ASSERT_NOT_NULL(back);
    ASSERT_TRUE(tyjson_mut_equals(tyjson_mut_doc_get_root(back), root));
    tyjson_val *again_r = NULL;
    tyjson_doc *again = tyjson_mut_doc_imut_copy(back, NULL);
    again_r = tyjson_doc_get_root(again);
    ASSERT_TRUE(tyjson_equals(again_r, r));
    ASSERT_EQ_UINT(again->val_count, 27);
    tyjson_doc_free(again);
    tyjson_mut_doc_free(back);

    /* one value, not the root */
    tyjson_doc *sub = tyjson_mut_val_imut_copy(tyjson_mut_obj_get(root, "nested"), NULL);
    ASSERT_TRUE(tyjson_equals(tyjson_doc_get_root(sub), nested));
    ASSERT_EQ_UINT(sub->val_count, 6);
    tyjson_doc_free(sub);
    /* a scalar without strings: no string pool */
    sub = tyjson_mut_val_imut_copy(tyjson_mut_obj_get(root, "dup"), NULL);
    ASSERT_EQ_UINT(sub->val_count, 1);
    ASSERT_NULL(sub->str_pool);
    ASSERT_EQ_UINT(sub->str_pool_size, 0);
    ASSERT_EQ_UINT(tyjson_get_uint(tyjson_doc_get_root(sub)), 1);
    tyjson_doc_free(sub);

    tyjson_doc_free(idoc);
    ASSERT_EQ_INT(c.live, 0);

    ASSERT_NULL(tyjson_mut_val_imut_copy(NULL, NULL));
    ASSERT_NULL(tyjson_mut_doc_imut_copy(NULL, NULL));
    tyjson_mut_doc_set_root(doc, NULL);
    ASSERT_NULL(tyjson_mut_doc_imut_copy(doc, NULL));
    ASSERT_NULL(tyjson_doc_mut_copy(NULL, NULL));
    ASSERT_NULL(tyjson_val_mut_copy(doc, NULL));
    ASSERT_NULL(tyjson_val_mut_copy(NULL, r));
    ASSERT_NULL(tyjson_mut_val_mut_copy(doc, NULL));
    ASSERT_NULL(tyjson_mut_val_mut_copy(NULL, root));
    tyjson_mut_doc_free(doc);
}

TEST(copies_keep_noesc_and_own_strings) {
    tyjson_mut_doc *doc = tyjson_mut_doc_new(NULL);
    char buf[16] = "plain";
    tyjson_mut_val *arr = tyjson_mut_arr(doc);
    tyjson_mut_val *s = tyjson_mut_str(doc, buf);
    s->tag |= TYJSON__NOESC_BIT; /* as the parser would mark it */
    ASSERT_TRUE(tyjson_mut_arr_append(arr, s));
    ASSERT_TRUE(tyjson_mut_arr_add_str(doc, arr, buf));

    /* mutable -> mutable copies the referenced bytes */
    tyjson_mut_doc *other = tyjson_mut_doc_new(NULL);
    tyjson_mut_val *m = tyjson_mut_val_mut_copy(other, arr);
    ASSERT_TRUE(tyjson_mut_equals(m, arr));
    tyjson_mut_val *m0 = tyjson_mut_arr_get(m, 0), *m1 = tyjson_mut_arr_get(m, 1);
    ASSERT_TRUE(tyjson_mut_get_str(m0) != buf);
    ASSERT_TRUE(m0->tag & TYJSON__NOESC_BIT);
    ASSERT_FALSE(m1->tag & TYJSON__NOESC_BIT);

    /* immutable copy and back keep the bit */
    tyjson_doc *idoc = tyjson_mut_val_imut_copy(arr, NULL);
    tyjson_val *i0 = tyjson_arr_get(tyjson_doc_get_root(idoc), 0);
    ASSERT_TRUE(i0->tag & TYJSON__NOESC_BIT);
    ASSERT_FALSE(tyjson_arr_get(tyjson_doc_get_root(idoc), 1)->tag & TYJSON__NOESC_BIT);
    tyjson_mut_val *back = tyjson_val_mut_copy(other, tyjson_doc_get_root(idoc));
    ASSERT_TRUE(tyjson_mut_arr_get(back, 0)->tag & TYJSON__NOESC_BIT);
    ASSERT_FALSE(tyjson_mut_arr_get(back, 1)->tag & TYJSON__NOESC_BIT);
    /* the mutable copy owns its bytes: the immutable doc can go */
    tyjson_doc_free(idoc);
    ASSERT_EQ_STR(tyjson_mut_get_str(tyjson_mut_arr_get(back, 0)), "plain");
    ASSERT_TRUE(tyjson_mut_equals(back, m));

    /* editing the copy leaves the original alone, and the other way round */
    memcpy(buf, "PLAIN", 5);
    ASSERT_TRUE(tyjson_mut_equals_str(m0, "plain"));
    ASSERT_TRUE(tyjson_mut_equals_str(tyjson_mut_arr_get(arr, 0), "PLAIN"));
    ASSERT_FALSE(tyjson_mut_equals(m, arr));
    ASSERT_TRUE(tyjson_mut_arr_add_null(other, m));
    ASSERT_EQ_UINT(tyjson_mut_arr_size(arr), 2);
    tyjson_mut_doc_free(doc);

    /* a value of a freed document was copied completely */
    ASSERT_EQ_UINT(tyjson_mut_arr_size(back), 2);
    ASSERT_TRUE(tyjson_mut_arr_add_uint(other, back, 7));
    ASSERT_EQ_UINT(tyjson_mut_get_uint(tyjson_mut_arr_get_last(back)), 7);
    tyjson_mut_doc_free(other);
}

TEST(mut_copy_structure) {
    tyjson_mut_doc *doc = tyjson_mut_doc_new(NULL);
    tyjson_mut_val *root = build_sample(doc);
    /* 40 levels of nesting so the copy stack leaves its inline storage. */
    tyjson_mut_val *cur = tyjson_mut_obj_add_arr(doc, root, "chain");
    for (int i = 0; i < 40; i++) {
        ASSERT_TRUE(tyjson_mut_arr_add_uint(doc, cur, (uint64_t)i));
        cur = i % 2 ? tyjson_mut_arr_add_arr(doc, cur) : tyjson_mut_arr_add_obj(doc, cur);
        if (tyjson_mut_is_obj(cur)) {
            tyjson_mut_val *o = cur;
            ASSERT_TRUE(tyjson_mut_obj_add_uint(doc, o, "i", (uint64_t)i));
            cur = tyjson_mut_obj_add_arr(doc, o, "next");
        }
    }
    tyjson_mut_val *copy = tyjson_mut_val_mut_copy(doc, root);
    ASSERT_NOT_NULL(copy);
    ASSERT_TRUE(copy != root);
    ASSERT_TRUE(tyjson_mut_equals(copy, root));
    ASSERT_TRUE(tyjson_mut_equals(root, copy));
    /* a deep change shows */
    tyjson_mut_val *deep = tyjson_mut_ptr_get(copy, "/nested/a/b/0");
    ASSERT_TRUE(tyjson_mut_equals_str(deep, "deep"));
    ASSERT_TRUE(tyjson_mut_set_strn(deep, "Deep", 4));
    ASSERT_FALSE(tyjson_mut_equals(copy, root));
    ASSERT_TRUE(tyjson_mut_set_strn(deep, "deep", 4));
    ASSERT_TRUE(tyjson_mut_equals(copy, root));

    /* a scalar copies as itself */
    tyjson_mut_val *one = tyjson_mut_val_mut_copy(doc, tyjson_mut_real(doc, 2.0));
    ASSERT_EQ_DBL_BITS(tyjson_mut_get_real(one), 2.0);

    /* immutable -> mutable of the same, via doc copies */
    tyjson_doc *idoc = tyjson_mut_val_imut_copy(root, NULL);
    tyjson_mut_doc *m = tyjson_doc_mut_copy(idoc, NULL);
    ASSERT_TRUE(tyjson_mut_equals(tyjson_mut_doc_get_root(m), root));
    /* subtree of an immutable doc */
    tyjson_mut_val *nested = tyjson_val_mut_copy(m, tyjson_obj_get(tyjson_doc_get_root(idoc), "nested"));
    ASSERT_TRUE(tyjson_mut_equals(nested, tyjson_mut_obj_get(root, "nested")));
    tyjson_val *num = tyjson_arr_get(tyjson_obj_get(tyjson_doc_get_root(idoc), "n"), 2);
    tyjson_mut_val *mnum = tyjson_val_mut_copy(m, num);
    ASSERT_EQ_DBL_BITS(tyjson_mut_get_real(mnum), 3.5);
    tyjson_doc_free(idoc);
    tyjson_mut_doc_free(m);
    tyjson_mut_doc_free(doc);
}

/* ----------------------------------------------------------------------------
 * MARK: - JSON Pointer
 * ------------------------------------------------------------------------- */

/* The document of RFC 6901 section 5. */
static tyjson_mut_val *rfc6901_doc(tyjson_mut_doc *doc) {
    tyjson_mut_val *root = tyjson_mut_obj(doc);
    tyjson_mut_val *foo = tyjson_mut_obj_add_arr(doc, root, "foo");
    ASSERT_TRUE(tyjson_mut_arr_add_str(doc, foo, "bar"));
    ASSERT_TRUE(tyjson_mut_arr_add_str(doc, foo, "baz"));
    const char *keys[] = {"", "a/b", "c%d", "e^f", "g|h", "i\\j", "k\"l", " ", "m~n"};
    for (unsigned i = 0; i < 9; i++) ASSERT_TRUE(tyjson_mut_obj_add_uint(doc, root, keys[i], i));
    return root;
}

TEST(pointer_rfc6901_examples) {
    tyjson_mut_doc *doc = tyjson_mut_doc_new(NULL);
    tyjson_mut_val *root = rfc6901_doc(doc);
    tyjson_error err;
    ASSERT_TRUE(tyjson_mut_ptr_get(root, "") == root);
    tyjson_mut_val *foo = tyjson_mut_ptr_get(root, "/foo");
    ASSERT_TRUE(tyjson_mut_is_arr(foo) && tyjson_mut_arr_size(foo) == 2);
    ASSERT_TRUE(tyjson_mut_equals_str(tyjson_mut_ptr_get(root, "/foo/0"), "bar"));
    ASSERT_TRUE(tyjson_mut_equals_str(tyjson_mut_ptr_get(root, "/foo/1"), "baz"));
    const char *ptrs[] = {"/", "/a~1b", "/c%d", "/e^f", "/g|h", "/i\\j", "/k\"l", "/ ", "/m~0n"};
    for (unsigned i = 0; i < 9; i++) {
        memset(&err, 0xAB, sizeof(err));
        tyjson_mut_val *v = tyjson_mut_ptr_getx(root, ptrs[i], strlen(ptrs[i]), &err);
        ASSERT_NOT_NULL(v);
        ASSERT_EQ_UINT(tyjson_mut_get_uint(v), i);
        ASSERT_EQ_INT(err.code, TYJSON_OK);
    }
    /* the length bounds the pointer: "/foo/1" cut to "/foo" */
    ASSERT_TRUE(tyjson_mut_ptr_getx(root, "/foo/1", 4, NULL) == foo);
    ASSERT_TRUE(tyjson_mut_ptr_getx(root, "/foo/1", 0, NULL) == root);
    ASSERT_TRUE(tyjson_mut_ptr_getx(root, NULL, 0, NULL) == root);
    tyjson_mut_doc_free(doc);
}

TEST(pointer_errors_and_edges) {
    tyjson_mut_doc *doc = tyjson_mut_doc_new(NULL);
    tyjson_mut_val *root = rfc6901_doc(doc);
    struct {
        const char *ptr;
        tyjson_status code;
    } bad[] = {
        {"foo", TYJSON_E_POINTER},        {"#/foo", TYJSON_E_POINTER},
        {"/~2", TYJSON_E_POINTER},        {"/~", TYJSON_E_POINTER},
        {"/foo/~", TYJSON_E_POINTER},     {"/nope/~a", TYJSON_E_POINTER},
        {"/m~n", TYJSON_E_POINTER},       {"/m~0n/x", TYJSON_E_NOT_FOUND},
        {"/nope", TYJSON_E_NOT_FOUND},    {"/foo/-", TYJSON_E_NOT_FOUND},
        {"/foo/01", TYJSON_E_NOT_FOUND},  {"/foo/00", TYJSON_E_NOT_FOUND},
        {"/foo/2", TYJSON_E_NOT_FOUND},   {"/foo/+1", TYJSON_E_NOT_FOUND},
        {"/foo/1a", TYJSON_E_NOT_FOUND},  {"/foo/", TYJSON_E_NOT_FOUND},
        {"/foo/0/x", TYJSON_E_NOT_FOUND}, {"/foo/99999999999999999999999", TYJSON_E_NOT_FOUND},
        {"//", TYJSON_E_NOT_FOUND},       {"/a~1b/0", TYJSON_E_NOT_FOUND},
        {"/a/b", TYJSON_E_NOT_FOUND},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        tyjson_error err;
        memset(&err, 0, sizeof(err));
        ASSERT_NULL(tyjson_mut_ptr_getx(root, bad[i].ptr, strlen(bad[i].ptr), &err));
        if (err.code != bad[i].code) TEST_FAIL("%s: code %d, want %d", bad[i].ptr, (int)err.code, (int)bad[i].code);
        ASSERT_TRUE(err.msg[0] != 0);
        ASSERT_NULL(tyjson_mut_ptr_get(root, bad[i].ptr));
    }
    tyjson_error err;
    ASSERT_NULL(tyjson_mut_ptr_getx(NULL, "/foo", 4, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_INVALID_ARG);
    ASSERT_NULL(tyjson_mut_ptr_getx(root, NULL, 3, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_INVALID_ARG);
    ASSERT_NULL(tyjson_mut_ptr_get(root, NULL));
    ASSERT_NULL(tyjson_mut_ptr_get(NULL, ""));

    /* Keys that need decoding, an empty key, the first of duplicates, and
     * a key with an embedded NUL reached through the length form. */
    tyjson_mut_val *o = tyjson_mut_obj(doc);
    ASSERT_TRUE(tyjson_mut_obj_add_uint(doc, o, "~1", 1));
    ASSERT_TRUE(tyjson_mut_obj_add_uint(doc, o, "/", 2));
    ASSERT_TRUE(tyjson_mut_obj_add_uint(doc, o, "~", 3));
    ASSERT_TRUE(tyjson_mut_obj_add_uint(doc, o, "d", 4));
    ASSERT_TRUE(tyjson_mut_obj_add_uint(doc, o, "d", 5));
    ASSERT_TRUE(tyjson_mut_obj_add(o, tyjson_mut_strn(doc, "n\0l", 3), tyjson_mut_uint(doc, 6)));
    tyjson_mut_val *e = tyjson_mut_obj_add_obj(doc, o, "");
    ASSERT_TRUE(tyjson_mut_obj_add_uint(doc, e, "", 7));
    ASSERT_EQ_UINT(tyjson_mut_get_uint(tyjson_mut_ptr_get(o, "/~01")), 1);
    ASSERT_EQ_UINT(tyjson_mut_get_uint(tyjson_mut_ptr_get(o, "/~1")), 2);
    ASSERT_EQ_UINT(tyjson_mut_get_uint(tyjson_mut_ptr_get(o, "/~0")), 3);
    ASSERT_EQ_UINT(tyjson_mut_get_uint(tyjson_mut_ptr_get(o, "/d")), 4);
    ASSERT_EQ_UINT(tyjson_mut_get_uint(tyjson_mut_ptr_getx(o, "/n\0l", 4, NULL)), 6);
    ASSERT_NULL(tyjson_mut_ptr_get(o, "/n"));
    ASSERT_TRUE(tyjson_mut_ptr_get(o, "/") == e);
    ASSERT_EQ_UINT(tyjson_mut_get_uint(tyjson_mut_ptr_get(o, "//")), 7);
    ASSERT_NULL(tyjson_mut_ptr_get(o, "///"));

    /* scalars: "" is the value itself, anything else is not found */
    tyjson_mut_val *s = tyjson_mut_uint(doc, 1);
    ASSERT_TRUE(tyjson_mut_ptr_get(s, "") == s);
    ASSERT_NULL(tyjson_mut_ptr_getx(s, "/0", 2, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_NOT_FOUND);

    /* big index into a long array */
    tyjson_mut_val *arr = uint_arr(doc, 1000);
    ASSERT_EQ_UINT(tyjson_mut_get_uint(tyjson_mut_ptr_get(arr, "/999")), 999);
    ASSERT_EQ_UINT(tyjson_mut_get_uint(tyjson_mut_ptr_get(arr, "/0")), 0);
    ASSERT_NULL(tyjson_mut_ptr_get(arr, "/1000"));
    tyjson_mut_doc_free(doc);
}

/* ----------------------------------------------------------------------------
 * MARK: - Equality
 * ------------------------------------------------------------------------- */
TEST(equals_scalars) {
    tyjson_mut_doc *doc = tyjson_mut_doc_new(NULL);
#define EQ(a, b) ASSERT_TRUE(tyjson_mut_equals((a), (b)) && tyjson_mut_equals((b), (a)))
#define NE(a, b) ASSERT_TRUE(!tyjson_mut_equals((a), (b)) && !tyjson_mut_equals((b), (a)))
    EQ(tyjson_mut_null(doc), tyjson_mut_null(doc));
    EQ(tyjson_mut_true(doc), tyjson_mut_bool(doc, true));
    NE(tyjson_mut_true(doc), tyjson_mut_false(doc));
    NE(tyjson_mut_null(doc), tyjson_mut_false(doc));
    EQ(tyjson_mut_uint(doc, 5), tyjson_mut_sint(doc, 5));
    EQ(tyjson_mut_sint(doc, -5), tyjson_mut_int(doc, -5));
    NE(tyjson_mut_sint(doc, -1), tyjson_mut_uint(doc, UINT64_MAX));
    NE(tyjson_mut_uint(doc, 1), tyjson_mut_uint(doc, 2));
    /* a SINT holding a non-negative value (not made by the library, but
     * allowed by the layout) still compares by value */
    tyjson_mut_val *odd = tyjson_mut_sint(doc, -1);
    odd->uni.i64 = 5;
    EQ(odd, tyjson_mut_uint(doc, 5));
    NE(odd, tyjson_mut_uint(doc, 6));
    /* a REAL never equals an integer */
    NE(tyjson_mut_real(doc, 1.0), tyjson_mut_uint(doc, 1));
    NE(tyjson_mut_real(doc, -1.0), tyjson_mut_sint(doc, -1));
    NE(tyjson_mut_real(doc, 0.0), tyjson_mut_uint(doc, 0));
    EQ(tyjson_mut_real(doc, 1.5), tyjson_mut_real(doc, 1.5));
    EQ(tyjson_mut_real(doc, 0.0), tyjson_mut_real(doc, -0.0));
    tyjson_mut_val *nan = tyjson_mut_real(doc, NAN);
    ASSERT_FALSE(tyjson_mut_equals(nan, nan));
    EQ(tyjson_mut_real(doc, INFINITY), tyjson_mut_real(doc, INFINITY));
    /* strings by bytes; raw by text; a string never equals a raw */
    EQ(tyjson_mut_str(doc, "abc"), tyjson_mut_strcpy(doc, "abc"));
    EQ(tyjson_mut_strn(doc, "abcdef", 3), tyjson_mut_str(doc, "abc"));
    NE(tyjson_mut_str(doc, "abc"), tyjson_mut_str(doc, "abd"));
    NE(tyjson_mut_str(doc, "abc"), tyjson_mut_str(doc, "ab"));
    EQ(tyjson_mut_str(doc, ""), tyjson_mut_strn(doc, "x", 0));
    NE(tyjson_mut_strn(doc, "a\0b", 3), tyjson_mut_strn(doc, "a\0c", 3));
    EQ(tyjson_mut_rawncpy(doc, "1e400", 5), tyjson_mut_rawncpy(doc, "1e400", 5));
    NE(tyjson_mut_rawncpy(doc, "1e400", 5), tyjson_mut_rawncpy(doc, "1E400", 5));
    NE(tyjson_mut_rawncpy(doc, "123", 3), tyjson_mut_str(doc, "123"));
    NE(tyjson_mut_rawncpy(doc, "123", 3), tyjson_mut_uint(doc, 123));
    tyjson_mut_val *noesc = tyjson_mut_str(doc, "abc");
    noesc->tag |= TYJSON__NOESC_BIT;
    EQ(noesc, tyjson_mut_str(doc, "abc"));
    /* containers by kind and size */
    NE(tyjson_mut_arr(doc), tyjson_mut_obj(doc));
    EQ(tyjson_mut_arr(doc), tyjson_mut_arr(doc));
    EQ(tyjson_mut_obj(doc), tyjson_mut_obj(doc));
    NE(tyjson_mut_arr(doc), tyjson_mut_null(doc));
    NE(uint_arr(doc, 3), uint_arr(doc, 4));
    EQ(uint_arr(doc, 300), uint_arr(doc, 300));
    ASSERT_TRUE(tyjson_mut_equals(NULL, NULL)); /* as tyjson_equals */
    ASSERT_FALSE(tyjson_mut_equals(tyjson_mut_null(doc), NULL));
    ASSERT_FALSE(tyjson_mut_equals(NULL, tyjson_mut_null(doc)));
    tyjson_mut_doc_free(doc);
}

/* Object from "k=v,k=v" with uint values. */
static tyjson_mut_val *obj_kv(tyjson_mut_doc *doc, const char *spec) {
    tyjson_mut_val *obj = tyjson_mut_obj(doc);
    const char *p = spec;
    while (*p) {
        const char *eq = strchr(p, '=');
        char *end;
        unsigned long v = strtoul(eq + 1, &end, 10);
        ASSERT_TRUE(tyjson_mut_obj_add(obj, tyjson_mut_strncpy(doc, p, (size_t)(eq - p)),
                                       tyjson_mut_uint(doc, v)));
        p = *end ? end + 1 : end;
    }
    return obj;
}

TEST(equals_objects) {
    tyjson_mut_doc *doc = tyjson_mut_doc_new(NULL);
    EQ(obj_kv(doc, "a=1,b=2"), obj_kv(doc, "a=1,b=2"));
    EQ(obj_kv(doc, "a=1,b=2"), obj_kv(doc, "b=2,a=1"));
    EQ(obj_kv(doc, "a=1,b=2,c=3"), obj_kv(doc, "c=3,a=1,b=2"));
    NE(obj_kv(doc, "a=1,b=2"), obj_kv(doc, "b=1,a=2"));
    NE(obj_kv(doc, "a=1,b=2"), obj_kv(doc, "a=1,c=2"));
    NE(obj_kv(doc, "a=1,b=2"), obj_kv(doc, "a=1"));
    NE(obj_kv(doc, "a=1,a=1"), obj_kv(doc, "a=1,b=1"));
    NE(obj_kv(doc, "aa=1"), obj_kv(doc, "a=1"));
    /* duplicates: the values of one key must match in order */
    EQ(obj_kv(doc, "x=1,x=2"), obj_kv(doc, "x=1,x=2"));
    NE(obj_kv(doc, "x=1,x=2"), obj_kv(doc, "x=2,x=1"));
    EQ(obj_kv(doc, "x=1,y=5,x=2"), obj_kv(doc, "y=5,x=1,x=2"));
    EQ(obj_kv(doc, "x=1,y=5,x=2"), obj_kv(doc, "x=1,x=2,y=5"));
    NE(obj_kv(doc, "x=1,y=5,x=2"), obj_kv(doc, "x=2,y=5,x=1"));
    NE(obj_kv(doc, "x=1,x=1,y=2"), obj_kv(doc, "x=1,y=2,y=2"));
    /* nested, with key orders differing at each level */
    tyjson_mut_val *a = obj_kv(doc, "p=1,q=2"), *b = obj_kv(doc, "q=2,p=1");
    ASSERT_TRUE(tyjson_mut_obj_add_val(doc, a, "in", obj_kv(doc, "m=1,n=2")));
    ASSERT_TRUE(tyjson_mut_obj_add_val(doc, b, "in", obj_kv(doc, "n=2,m=1")));
    tyjson_mut_val *aa = tyjson_mut_arr(doc), *ba = tyjson_mut_arr(doc);
    ASSERT_TRUE(tyjson_mut_arr_append(aa, a));
    ASSERT_TRUE(tyjson_mut_arr_append(ba, b));
    EQ(aa, ba);
    ASSERT_TRUE(tyjson_mut_set_uint(tyjson_mut_ptr_get(b, "/in/m"), 9));
    NE(aa, ba);
    /* arrays are ordered */
    tyjson_mut_val *x = uint_arr(doc, 2), *y = tyjson_mut_arr(doc);
    ASSERT_TRUE(tyjson_mut_arr_add_uint(doc, y, 1));
    ASSERT_TRUE(tyjson_mut_arr_add_uint(doc, y, 0));
    NE(x, y);

    /* large objects in reverse order (the sorted path) */
    tyjson_mut_val *big1 = tyjson_mut_obj(doc), *big2 = tyjson_mut_obj(doc);
    char key[16];
    for (int i = 0; i < 2000; i++) {
        snprintf(key, sizeof(key), "k%d", i);
        ASSERT_TRUE(tyjson_mut_obj_add_val_keycpy(doc, big1, key, uint_arr(doc, (size_t)i % 5)));
        snprintf(key, sizeof(key), "k%d", 1999 - i);
        ASSERT_TRUE(tyjson_mut_obj_add_val_keycpy(doc, big2, key, uint_arr(doc, (size_t)(1999 - i) % 5)));
    }
    EQ(big1, big2);
    ASSERT_TRUE(tyjson_mut_arr_add_null(doc, tyjson_mut_obj_get(big2, "k1234")));
    NE(big1, big2);
    tyjson_mut_doc_free(doc);
#undef EQ
#undef NE
}

/* ----------------------------------------------------------------------------
 * MARK: - Deep nesting
 * ------------------------------------------------------------------------- */
TEST(million_deep_array) {
    enum { DEPTH = 1000000 };
    tyjson_mut_doc *doc = tyjson_mut_doc_new(NULL);
    tyjson_mut_val *root = tyjson_mut_arr(doc), *cur = root;
    for (int i = 1; i < DEPTH; i++) {
        cur = tyjson_mut_arr_add_arr(doc, cur);
        ASSERT_NOT_NULL(cur);
    }
    tyjson_mut_doc_set_root(doc, root);

    tyjson_mut_val *copy = tyjson_mut_val_mut_copy(doc, root);
    ASSERT_NOT_NULL(copy);
    ASSERT_TRUE(tyjson_mut_equals(root, copy));

    tyjson_doc *idoc = tyjson_mut_doc_imut_copy(doc, NULL);
    ASSERT_NOT_NULL(idoc);
    ASSERT_EQ_UINT(idoc->val_count, DEPTH);
    tyjson_val *ir = tyjson_doc_get_root(idoc);
    ASSERT_EQ_UINT(ir->uni.ofs, DEPTH);
    ASSERT_EQ_UINT(ir[DEPTH - 1].uni.ofs, 1);
    ASSERT_EQ_UINT(tyjson_arr_size(ir + DEPTH - 1), 0);
    ASSERT_EQ_UINT(tyjson_arr_size(ir + DEPTH - 2), 1);

    tyjson_mut_doc *back = tyjson_doc_mut_copy(idoc, NULL);
    ASSERT_NOT_NULL(back);
    ASSERT_TRUE(tyjson_mut_equals(tyjson_mut_doc_get_root(back), root));
    tyjson_doc *again = tyjson_mut_doc_imut_copy(back, NULL);
    ASSERT_TRUE(tyjson_equals(tyjson_doc_get_root(again), ir));
    tyjson_doc_free(again);

    /* one extra element at the bottom of the original makes them differ */
    ASSERT_TRUE(tyjson_mut_arr_add_null(doc, cur));
    ASSERT_FALSE(tyjson_mut_equals(root, copy));
    ASSERT_FALSE(tyjson_mut_equals(root, tyjson_mut_doc_get_root(back)));

    tyjson_doc_free(idoc);
    tyjson_mut_doc_free(back);
    tyjson_mut_doc_free(doc);
}

TEST(pool_allocator) {
    /* A document built in a caller buffer, then copied out of it. */
    static char buf[1 << 18];
    tyjson_alloc pool;
    ASSERT_TRUE(tyjson_alloc_pool_init(&pool, buf, sizeof(buf)));
    tyjson_mut_doc *doc = tyjson_mut_doc_new(&pool);
    ASSERT_NOT_NULL(doc);
    tyjson_mut_val *root = build_sample(doc);
    tyjson_mut_doc_set_root(doc, root);
    tyjson_doc *idoc = tyjson_mut_doc_imut_copy(doc, &pool);
    ASSERT_NOT_NULL(idoc);
    tyjson_mut_doc *back = tyjson_doc_mut_copy(idoc, NULL);
    ASSERT_TRUE(tyjson_mut_equals(tyjson_mut_doc_get_root(back), root));
    tyjson_mut_doc_free(back);
    tyjson_doc_free(idoc);
    tyjson_mut_doc_free(doc);

    /* A small buffer runs out: the failing append leaves the array intact. */
    static char small[16384];
    ASSERT_TRUE(tyjson_alloc_pool_init(&pool, small, sizeof(small)));
    doc = tyjson_mut_doc_new(&pool);
    tyjson_mut_val *arr = tyjson_mut_arr(doc);
    uint64_t n = 0;
    while (tyjson_mut_arr_add_uint(doc, arr, n)) n++;
    ASSERT_TRUE(n > 300);
    ASSERT_EQ_UINT(tyjson_mut_arr_size(arr), n);
    for (uint64_t i = 0; i < n; i++) ASSERT_EQ_UINT(tyjson_mut_get_uint(tyjson_mut_arr_get(arr, i)), i);
    tyjson_mut_doc_free(doc);
}

/* ----------------------------------------------------------------------------
 * MARK: - Allocation failures
 * ------------------------------------------------------------------------- */

/* One call checked against the failure injector: it must fail exactly when
 * an allocation was refused during it. */
#define STEP(c, ok_expr)                                                       \
    do {                                                                       \
        long step__before = (c)->failures;                                     \
        bool step__ok = (ok_expr);                                             \
        if ((c)->failures != step__before) {                                   \
            ASSERT_FALSE(step__ok);                                            \
            goto out;                                                          \
        }                                                                      \
        ASSERT_TRUE(step__ok);                                                 \
    } while (0)

/* Builds, edits and copies a document of ~500 values, ~60 KB of strings and
 * 100 levels of nesting (so the walk stacks move to the heap and grow) with
 * allocator `alc`. Returns true if no allocation was refused. */
static bool fail_scenario(counting *c, const tyjson_alloc *alc) {
    tyjson_mut_doc *doc = NULL, *doc2 = NULL, *doc3 = NULL;
    tyjson_doc *idoc = NULL, *idoc2 = NULL;
    tyjson_mut_val *root = NULL, *arr = NULL, *obj = NULL, *cur = NULL, *v = NULL;
    bool done = false;
    char big[600];
    memset(big, 'q', sizeof(big) - 1);
    big[sizeof(big) - 1] = 0;

    STEP(c, (doc = tyjson_mut_doc_new(alc)) != NULL);
    STEP(c, (root = tyjson_mut_obj(doc)) != NULL);
    tyjson_mut_doc_set_root(doc, root);
    STEP(c, (arr = tyjson_mut_obj_add_arr(doc, root, "arr")) != NULL);
    for (int i = 0; i < 200; i++) {
        size_t before = tyjson_mut_arr_size(arr);
        long f = c->failures;
        bool ok = i % 3 ? tyjson_mut_arr_add_uint(doc, arr, (uint64_t)i)
                        : tyjson_mut_arr_add_strcpy(doc, arr, big + (i % 500));
        if (c->failures != f) {
            ASSERT_FALSE(ok);
            ASSERT_EQ_UINT(tyjson_mut_arr_size(arr), before); /* unchanged */
            goto out;
        }
        ASSERT_TRUE(ok);
    }
    STEP(c, (obj = tyjson_mut_obj_add_obj(doc, root, "obj")) != NULL);
    for (int i = 0; i < 60; i++) {
        char key[16];
        snprintf(key, sizeof(key), "key%d", i);
        size_t before = tyjson_mut_obj_size(obj);
        long f = c->failures;
        bool ok = tyjson_mut_obj_add_val_keycpy(doc, obj, key, tyjson_mut_strcpy(doc, big + i * 5));
        if (c->failures != f) {
            ASSERT_FALSE(ok);
            ASSERT_EQ_UINT(tyjson_mut_obj_size(obj), before);
            goto out;
        }
        ASSERT_TRUE(ok);
    }
    STEP(c, (v = tyjson_mut_strcpy(doc, "replacement")) != NULL);
    STEP(c, tyjson_mut_obj_put(obj, tyjson_mut_str(doc, "key3"), v));
    STEP(c, tyjson_mut_set_strncpy(doc, tyjson_mut_arr_get(arr, 1), big, 100));
    STEP(c, (cur = tyjson_mut_obj_add_arr(doc, root, "deep")) != NULL);
    for (int i = 0; i < 100; i++) STEP(c, (cur = tyjson_mut_arr_add_arr(doc, cur)) != NULL);
    STEP(c, tyjson_mut_arr_add_sint(doc, cur, -1));

    STEP(c, (v = tyjson_mut_val_mut_copy(doc, root)) != NULL);
    ASSERT_TRUE(tyjson_mut_equals(v, root));
    STEP(c, (doc2 = tyjson_mut_doc_new(alc)) != NULL);
    STEP(c, (v = tyjson_mut_val_mut_copy(doc2, root)) != NULL);
    ASSERT_TRUE(tyjson_mut_equals(v, root));
    STEP(c, (idoc = tyjson_mut_doc_imut_copy(doc, alc)) != NULL);
    STEP(c, (idoc2 = tyjson_mut_val_imut_copy(cur, alc)) != NULL);
    STEP(c, (v = tyjson_val_mut_copy(doc2, tyjson_doc_get_root(idoc))) != NULL);
    ASSERT_TRUE(tyjson_mut_equals(v, root));
    STEP(c, (doc3 = tyjson_doc_mut_copy(idoc, alc)) != NULL);
    ASSERT_TRUE(tyjson_mut_equals(tyjson_mut_doc_get_root(doc3), root));
    done = true;
    c->done_at = c->requests;
out:
    /* Whatever failed, the original document is still consistent. */
    if (root) {
        tyjson_mut_val *copy = tyjson_mut_val_mut_copy(doc, root);
        if (copy) ASSERT_TRUE(tyjson_mut_equals(copy, root));
    }
    tyjson_doc_free(idoc);
    tyjson_doc_free(idoc2);
    tyjson_mut_doc_free(doc3);
    tyjson_mut_doc_free(doc2);
    tyjson_mut_doc_free(doc);
    return done;
}

TEST(allocation_failure_sweep) {
    counting c;
    tyjson_alloc alc = counting_alloc(&c);
    long n;
    for (n = 1; n < 100000; n++) {
        memset(&c, 0, sizeof(c));
        c.fail_at = n;
        bool done = fail_scenario(&c, &alc);
        ASSERT_EQ_INT(c.live, 0); /* everything released */
        if (done) {
            ASSERT_TRUE(n > c.done_at); /* no request was refused */
            break;
        }
        ASSERT_EQ_INT(c.failures, 1);
    }
    /* Enough distinct allocations to have exercised every kind of failure. */
    ASSERT_TRUE(n > 20);
    ASSERT_TRUE(n < 100000);
}

/* ----------------------------------------------------------------------------
 * MARK: - Equality: memory, out-of-memory, repeated keys (both document kinds)
 * ------------------------------------------------------------------------- */

/* Parses text into an immutable document and a mutable copy of it. */
typedef struct twin {
    tyjson_doc *doc;
    tyjson_mut_doc *mdoc;
} twin;

static twin twin_parse(const char *text, size_t len) {
    twin t;
    tyjson_read_options ro = {0, 100000, NULL};
    t.doc = tyjson_read_opts(text, len, &ro, NULL);
    ASSERT_NOT_NULL(t.doc);
    t.mdoc = tyjson_doc_mut_copy(t.doc, NULL);
    ASSERT_NOT_NULL(t.mdoc);
    return t;
}
static twin twin_str(const char *text) { return twin_parse(text, strlen(text)); }
static void twin_free(twin t) {
    tyjson_doc_free(t.doc);
    tyjson_mut_doc_free(t.mdoc);
}

/* Compares x and y with both equality forms of both document kinds and a
 * counting allocator; returns the allocator requests of the immutable and
 * the mutable comparison through *imm_calls / *mut_calls. */
static bool twin_equal(twin x, twin y, size_t *imm_calls, size_t *mut_calls) {
    test_alloc t;
    tyjson_alloc alc = test_alloc_make(&t, SIZE_MAX);
    bool e1 = true, e2 = true;
    ASSERT_EQ_INT(tyjson_equals_ex(tyjson_doc_get_root(x.doc), tyjson_doc_get_root(y.doc), &alc, &e1),
                  TYJSON_OK);
    ASSERT_EQ_INT(t.live, 0);
    if (imm_calls) *imm_calls = t.calls;
    alc = test_alloc_make(&t, SIZE_MAX);
    ASSERT_EQ_INT(tyjson_mut_equals_ex(tyjson_mut_doc_get_root(x.mdoc), tyjson_mut_doc_get_root(y.mdoc),
                                       &alc, &e2),
                  TYJSON_OK);
    ASSERT_EQ_INT(t.live, 0);
    if (mut_calls) *mut_calls = t.calls;
    ASSERT_EQ_INT(e1, e2);
    ASSERT_EQ_INT(tyjson_equals(tyjson_doc_get_root(x.doc), tyjson_doc_get_root(y.doc)), e1);
    ASSERT_EQ_INT(tyjson_mut_equals(tyjson_mut_doc_get_root(x.mdoc), tyjson_mut_doc_get_root(y.mdoc)), e1);
    return e1;
}

static bool text_equal(const char *a, const char *b) {
    twin x = twin_str(a), y = twin_str(b);
    bool e = twin_equal(x, y, NULL, NULL);
    ASSERT_EQ_INT(twin_equal(y, x, NULL, NULL), e); /* symmetric */
    twin_free(x);
    twin_free(y);
    return e;
}

TEST(equals_repeated_keys_pair_in_order) {
    ASSERT_TRUE(text_equal("{\"a\":1,\"b\":0,\"a\":2}", "{\"b\":0,\"a\":1,\"a\":2}"));
    ASSERT_TRUE(text_equal("{\"a\":1,\"b\":0,\"a\":2}", "{\"a\":1,\"a\":2,\"b\":0}"));
    ASSERT_FALSE(text_equal("{\"a\":1,\"b\":0,\"a\":2}", "{\"a\":2,\"b\":0,\"a\":1}"));
    ASSERT_FALSE(text_equal("{\"a\":1,\"a\":1}", "{\"a\":1,\"b\":1}"));
    ASSERT_FALSE(text_equal("{\"b\":1,\"a\":1}", "{\"a\":1,\"c\":1}"));
    ASSERT_TRUE(text_equal("{\"b\":[1,{\"y\":2,\"x\":1}],\"a\":{}}", "{\"a\":{},\"b\":[1,{\"x\":1,\"y\":2}]}"));
    ASSERT_FALSE(text_equal("{\"b\":[1,{\"y\":2,\"x\":1}],\"a\":{}}", "{\"a\":{},\"b\":[1,{\"x\":1,\"y\":3}]}"));
    ASSERT_FALSE(text_equal("{\"b\":[1,{\"y\":2,\"x\":1}],\"a\":{}}", "{\"a\":{},\"b\":[1,{\"x\":1,\"y\":2},3]}"));
    /* Lookups see the first of repeated keys on both sides. */
    twin t = twin_str("{\"k\":1,\"k\":2}");
    ASSERT_EQ_UINT(tyjson_get_uint(tyjson_obj_get(tyjson_doc_get_root(t.doc), "k")), 1);
    ASSERT_EQ_UINT(tyjson_get_uint(tyjson_ptr_get(tyjson_doc_get_root(t.doc), "/k")), 1);
    ASSERT_EQ_UINT(tyjson_mut_get_uint(tyjson_mut_obj_get(tyjson_mut_doc_get_root(t.mdoc), "k")), 1);
    ASSERT_EQ_UINT(tyjson_mut_get_uint(tyjson_mut_ptr_get(tyjson_mut_doc_get_root(t.mdoc), "/k")), 1);
    twin_free(t);
}

/* Object text of n members "k<i>", in forward or reverse order, with the
 * key "dup" repeated (values 1 then 2, or swapped). */
static char *wide_obj(size_t n, bool reverse, bool swap_dup) {
    char *t = (char *)malloc(n * 24 + 64);
    size_t len = (size_t)sprintf(t, "{\"dup\":%d", swap_dup ? 2 : 1);
    for (size_t j = 0; j < n; j++) {
        size_t i = reverse ? n - 1 - j : j;
        len += (size_t)sprintf(t + len, ",\"k%zu\":[%zu]", i, i);
    }
    sprintf(t + len, ",\"dup\":%d}", swap_dup ? 1 : 2);
    return t;
}

TEST(equals_reordered_objects_memory) {
    /* Up to 32 members: members paired by search, no memory at all. */
    char *a = wide_obj(20, false, false), *b = wide_obj(20, true, false);
    twin x = twin_str(a), y = twin_str(b);
    size_t ic, mc;
    ASSERT_TRUE(twin_equal(x, y, &ic, &mc));
    ASSERT_EQ_UINT(ic, 0);
    ASSERT_EQ_UINT(mc, 0);
    twin_free(x);
    twin_free(y);
    free(a);
    free(b);
    /* Larger: one sorted index per side-pair, freed afterwards. */
    a = wide_obj(500, false, false);
    b = wide_obj(500, true, false);
    char *c = wide_obj(500, true, true);
    x = twin_str(a);
    y = twin_str(b);
    twin z = twin_str(c);
    ASSERT_TRUE(twin_equal(x, y, &ic, &mc));
    ASSERT_EQ_UINT(ic, 1);
    ASSERT_EQ_UINT(mc, 1);
    ASSERT_FALSE(twin_equal(x, z, NULL, NULL)); /* repeated key's values swapped */
    /* Out of memory is reported, not taken for "different". */
    test_alloc t;
    tyjson_alloc fail = test_alloc_make(&t, 0);
    bool eq = true;
    ASSERT_EQ_INT(tyjson_equals_ex(tyjson_doc_get_root(x.doc), tyjson_doc_get_root(y.doc), &fail, &eq),
                  TYJSON_E_NOMEM);
    ASSERT_FALSE(eq);
    fail = test_alloc_make(&t, 0);
    eq = true;
    ASSERT_EQ_INT(tyjson_mut_equals_ex(tyjson_mut_doc_get_root(x.mdoc), tyjson_mut_doc_get_root(y.mdoc),
                                       &fail, &eq),
                  TYJSON_E_NOMEM);
    ASSERT_FALSE(eq);
    ASSERT_EQ_INT(t.live, 0);
    twin_free(x);
    twin_free(y);
    twin_free(z);
    free(a);
    free(b);
    free(c);
}

TEST(equals_flat_arrays_need_no_scratch) {
    /* Two flat arrays of a million elements: no allocation on either side
     * (not 16 bytes per element from malloc). */
    const size_t n = 1000000;
    char *t = (char *)malloc(n * 8 + 8);
    size_t len = 0;
    t[len++] = '[';
    for (size_t i = 0; i < n; i++) len += (size_t)sprintf(t + len, i ? ",%zu" : "%zu", i % 1000);
    t[len++] = ']';
    twin x = twin_parse(t, len), y = twin_parse(t, len);
    size_t ic, mc;
    ASSERT_TRUE(twin_equal(x, y, &ic, &mc));
    ASSERT_EQ_UINT(ic, 0);
    ASSERT_EQ_UINT(mc, 0);
    twin_free(x);
    twin_free(y);
    free(t);
}

/* `depth` nested objects whose two keys come in opposite orders on the two
 * sides: every level is a reordered pair. */
static char *deep_reordered(size_t depth, bool swap) {
    char *t = (char *)malloc(depth * 16 + 16);
    size_t len = 0;
    for (size_t i = 0; i < depth; i++)
        len += (size_t)sprintf(t + len, swap ? "{\"b\":%zu,\"a\":" : "{\"a\":", i);
    len += (size_t)sprintf(t + len, "0");
    for (size_t i = depth; i-- > 0;) len += (size_t)sprintf(t + len, swap ? "}" : ",\"b\":%zu}", i);
    t[len] = 0;
    return t;
}

TEST(equals_deep_reordered_oom_sweep) {
    char *a = deep_reordered(2000, false), *b = deep_reordered(2000, true);
    twin x = twin_str(a), y = twin_str(b);
    size_t ic, mc;
    ASSERT_TRUE(twin_equal(x, y, &ic, &mc));
    ASSERT_TRUE(ic > 0 && ic < 20); /* a frame stack grown by doubling */
    ASSERT_TRUE(mc > 0 && mc < 20);
    for (size_t at = 0; at < ic; at++) {
        test_alloc t;
        tyjson_alloc alc = test_alloc_make(&t, at);
        bool eq = true;
        ASSERT_EQ_INT(tyjson_equals_ex(tyjson_doc_get_root(x.doc), tyjson_doc_get_root(y.doc), &alc, &eq),
                      TYJSON_E_NOMEM);
        ASSERT_FALSE(eq);
        ASSERT_EQ_INT(t.live, 0);
    }
    for (size_t at = 0; at < mc; at++) {
        test_alloc t;
        tyjson_alloc alc = test_alloc_make(&t, at);
        bool eq = true;
        ASSERT_EQ_INT(tyjson_mut_equals_ex(tyjson_mut_doc_get_root(x.mdoc), tyjson_mut_doc_get_root(y.mdoc),
                                           &alc, &eq),
                      TYJSON_E_NOMEM);
        ASSERT_EQ_INT(t.live, 0);
    }
    bool eq;
    ASSERT_EQ_INT(tyjson_equals_ex(NULL, NULL, NULL, &eq), TYJSON_OK);
    ASSERT_TRUE(eq);
    ASSERT_EQ_INT(tyjson_equals_ex(tyjson_doc_get_root(x.doc), NULL, NULL, &eq), TYJSON_OK);
    ASSERT_FALSE(eq);
    ASSERT_EQ_INT(tyjson_equals_ex(NULL, NULL, NULL, NULL), TYJSON_E_INVALID_ARG);
    ASSERT_EQ_INT(tyjson_mut_equals_ex(NULL, NULL, NULL, NULL), TYJSON_E_INVALID_ARG);
    twin_free(x);
    twin_free(y);
    free(a);
    free(b);
}

/* ----------------------------------------------------------------------------
 * MARK: - Linked values cannot be inserted twice
 * ------------------------------------------------------------------------- */
static void assert_writes(tyjson_mut_val *v, const char *want) {
    size_t len;
    tyjson_write_options wo = {0, 0, NULL};
    char *s = tyjson_mut_val_write_opts(v, &wo, &len, NULL);
    ASSERT_NOT_NULL(s);
    ASSERT_EQ_STR(s, want);
    free(s);
}

TEST(insert_refuses_self_and_linked_values) {
    tyjson_mut_doc *doc = tyjson_mut_doc_new(NULL);
    tyjson_mut_val *root = tyjson_mut_arr(doc);
    tyjson_mut_doc_set_root(doc, root);
    /* A container into itself: every insertion refuses. */
    ASSERT_FALSE(tyjson_mut_arr_append(root, root));
    ASSERT_FALSE(tyjson_mut_arr_prepend(root, root));
    ASSERT_FALSE(tyjson_mut_arr_insert(root, root, 0));
    tyjson_mut_val *o = tyjson_mut_obj(doc);
    ASSERT_FALSE(tyjson_mut_obj_add(o, tyjson_mut_str(doc, "k"), o));
    ASSERT_FALSE(tyjson_mut_obj_put(o, tyjson_mut_str(doc, "k"), o));
    ASSERT_FALSE(tyjson_mut_obj_add_val(doc, o, "k", o));
    ASSERT_FALSE(tyjson_mut_obj_add_val_keycpy(doc, o, "k", o));
    tyjson_mut_val *k = tyjson_mut_str(doc, "k");
    ASSERT_FALSE(tyjson_mut_obj_add(o, k, k)); /* key and value the same node */
    ASSERT_EQ_UINT(tyjson_mut_obj_size(o), 0);

    /* A node already in an array is not appended again (no [[1,1],[1]]). */
    tyjson_mut_val *a = tyjson_mut_arr_add_arr(doc, root);
    tyjson_mut_val *b = tyjson_mut_arr_add_arr(doc, root);
    tyjson_mut_val *one = tyjson_mut_uint(doc, 1);
    ASSERT_TRUE(tyjson_mut_arr_append(a, one));
    ASSERT_FALSE(tyjson_mut_arr_append(b, one));
    ASSERT_FALSE(tyjson_mut_arr_append(a, one));
    ASSERT_FALSE(tyjson_mut_arr_prepend(b, one));
    ASSERT_FALSE(tyjson_mut_arr_insert(b, one, 0));
    ASSERT_NULL(tyjson_mut_arr_replace(a, 0, one));
    ASSERT_FALSE(tyjson_mut_arr_append(root, a)); /* a already sits in root */
    ASSERT_FALSE(tyjson_mut_obj_add(o, tyjson_mut_str(doc, "x"), one));
    ASSERT_FALSE(tyjson_mut_obj_put(o, tyjson_mut_str(doc, "x"), one));
    ASSERT_FALSE(tyjson_mut_obj_add_val(doc, o, "x", one));
    assert_writes(root, "[[1],[]]");

    /* Removing unlinks: the value can then go elsewhere. */
    ASSERT_TRUE(tyjson_mut_arr_remove(a, 0) == one);
    ASSERT_TRUE(tyjson_mut_arr_append(b, one));
    assert_writes(root, "[[],[1]]");
    tyjson_mut_val *two = tyjson_mut_uint(doc, 2);
    ASSERT_TRUE(tyjson_mut_arr_replace(b, 0, two) == one); /* the old one is free again */
    ASSERT_TRUE(tyjson_mut_arr_append(a, one));
    assert_writes(root, "[[1],[2]]");
    ASSERT_TRUE(tyjson_mut_arr_clear(b)); /* clear frees every element */
    ASSERT_TRUE(tyjson_mut_arr_append(a, two));
    assert_writes(root, "[[1,2],[]]");
    ASSERT_TRUE(tyjson_mut_arr_remove_last(a) == two);
    ASSERT_TRUE(tyjson_mut_arr_remove_first(a) == one);
    ASSERT_TRUE(tyjson_mut_arr_append(b, two));
    ASSERT_TRUE(tyjson_mut_arr_prepend(b, one));
    assert_writes(root, "[[],[1,2]]");

    /* Objects: a linked key or value is refused; put and remove unlink. */
    tyjson_mut_val *key = tyjson_mut_str(doc, "k");
    tyjson_mut_val *v1 = tyjson_mut_uint(doc, 7), *v2 = tyjson_mut_uint(doc, 8);
    ASSERT_TRUE(tyjson_mut_obj_add(o, key, v1));
    ASSERT_FALSE(tyjson_mut_obj_add(o, key, v2)); /* key node already linked */
    ASSERT_TRUE(tyjson_mut_obj_add(o, tyjson_mut_str(doc, "k"), v2)); /* duplicate key */
    ASSERT_TRUE(tyjson_mut_arr_append(a, o));
    assert_writes(root, "[[{\"k\":7,\"k\":8}],[1,2]]");
    tyjson_mut_val *v3 = tyjson_mut_uint(doc, 9);
    ASSERT_TRUE(tyjson_mut_obj_put(o, tyjson_mut_str(doc, "k"), v3)); /* first wins, later removed */
    assert_writes(o, "{\"k\":9}");
    ASSERT_TRUE(tyjson_mut_arr_append(a, v1)); /* both old values are unlinked */
    ASSERT_TRUE(tyjson_mut_arr_append(a, v2));
    ASSERT_TRUE(tyjson_mut_obj_remove_key(o, "k") == v3);
    ASSERT_TRUE(tyjson_mut_arr_append(a, v3));
    ASSERT_TRUE(tyjson_mut_obj_add(o, key, tyjson_mut_null(doc))); /* the first key node, unlinked by remove_key */
    ASSERT_TRUE(tyjson_mut_obj_clear(o));
    ASSERT_TRUE(tyjson_mut_obj_add(o, key, tyjson_mut_true(doc)));
    assert_writes(root, "[[{\"k\":true},7,8,9],[1,2]]");
    tyjson_mut_doc_free(doc);
}

/* ----------------------------------------------------------------------------
 * MARK: - The FOREACH macros evaluate their container once
 * ------------------------------------------------------------------------- */
static int foreach_evals;
static tyjson_val *counted(tyjson_val *v) {
    foreach_evals++;
    return v;
}

TEST(foreach_evaluates_container_once) {
    tyjson_doc *doc = tyjson_read("{\"a\":[1,2,3],\"b\":{\"x\":1,\"y\":2}}", 31, 0);
    ASSERT_NOT_NULL(doc);
    tyjson_val *root = tyjson_doc_get_root(doc);
    size_t idx, max, sum = 0;
    tyjson_val *v, *k;
    foreach_evals = 0;
    TYJSON_ARR_FOREACH(counted(tyjson_obj_get(root, "a")), idx, max, v) sum += tyjson_get_uint(v);
    ASSERT_EQ_INT(foreach_evals, 1);
    ASSERT_EQ_UINT(sum, 6);
    ASSERT_EQ_UINT(max, 3);
    foreach_evals = 0;
    size_t keys = 0;
    TYJSON_OBJ_FOREACH(counted(tyjson_obj_get(root, "b")), idx, max, k, v) {
        keys += tyjson_get_len(k);
        sum += tyjson_get_uint(v);
    }
    ASSERT_EQ_INT(foreach_evals, 1);
    ASSERT_EQ_UINT(keys, 2);
    ASSERT_EQ_UINT(sum, 9);
    /* A const container and non-containers work too. */
    const tyjson_val *croot = root;
    foreach_evals = 0;
    TYJSON_OBJ_FOREACH(croot, idx, max, k, v) foreach_evals++;
    ASSERT_EQ_INT(foreach_evals, 2);
    TYJSON_ARR_FOREACH(counted(root), idx, max, v) TEST_FAIL("an object is not an array");
    TYJSON_OBJ_FOREACH(counted(tyjson_obj_get(root, "a")), idx, max, k, v) TEST_FAIL("not an object");
    ASSERT_EQ_INT(foreach_evals, 4);
    tyjson_doc_free(doc);
}

/* ----------------------------------------------------------------------------
 * MARK: - Repeated keys: the first wins everywhere; REJECT rejects everywhere
 * ------------------------------------------------------------------------- */
static void assert_rejected_by_every_reader(const char *text) {
    size_t len = strlen(text);
    tyjson_read_options ro = {TYJSON_READ_REJECT_DUPLICATE_KEYS, 0, NULL};
    tyjson_error e;
    ASSERT_NULL(tyjson_read_opts(text, len, &ro, &e));
    ASSERT_EQ_INT(e.code, TYJSON_E_DUPLICATE_KEY);
    ASSERT_NULL(tyjson_read(text, len, TYJSON_READ_REJECT_DUPLICATE_KEYS));
    FILE *f = tmpfile();
    ASSERT_NOT_NULL(f);
    ASSERT_EQ_UINT(fwrite(text, 1, len, f), len);
    rewind(f);
    ASSERT_NULL(tyjson_read_fp(f, &ro, &e));
    ASSERT_EQ_INT(e.code, TYJSON_E_DUPLICATE_KEY);
    fclose(f);
    const char *path = "test_mut_dup_keys.json";
    f = fopen(path, "wb");
    ASSERT_NOT_NULL(f);
    ASSERT_EQ_UINT(fwrite(text, 1, len, f), len);
    fclose(f);
    ASSERT_NULL(tyjson_read_file(path, &ro, &e));
    ASSERT_EQ_INT(e.code, TYJSON_E_DUPLICATE_KEY);
    remove(path);
    /* Without the flag every reader keeps both members. */
    tyjson_doc *d = tyjson_read(text, len, 0);
    ASSERT_NOT_NULL(d);
    tyjson_doc_free(d);
}

TEST(repeated_keys_first_wins_everywhere) {
    assert_rejected_by_every_reader("{\"k\":1,\"x\":0,\"k\":2}");
    /* More than 16 keys: the sorting duplicate check. */
    char big[512];
    size_t n = 0;
    n += (size_t)sprintf(big + n, "{");
    for (int i = 0; i < 20; i++) n += (size_t)sprintf(big + n, "\"k%d\":%d,", i, i);
    sprintf(big + n, "\"k7\":99}");
    assert_rejected_by_every_reader(big);

    const char *text = "{\"k\":1,\"x\":{\"k\":[5],\"k\":[6]},\"k\":2}";
    tyjson_doc *d = tyjson_read(text, strlen(text), 0);
    tyjson_val *root = tyjson_doc_get_root(d);
    ASSERT_EQ_UINT(tyjson_get_uint(tyjson_obj_get(root, "k")), 1);
    ASSERT_EQ_UINT(tyjson_get_uint(tyjson_obj_getn(root, "k", 1)), 1);
    ASSERT_EQ_UINT(tyjson_get_uint(tyjson_ptr_get(root, "/k")), 1);
    ASSERT_EQ_UINT(tyjson_get_uint(tyjson_ptr_get(root, "/x/k/0")), 5);
    ASSERT_EQ_UINT(tyjson_get_uint(tyjson_doc_ptr_get(d, "/x/k/0")), 5);
    tyjson_obj_iter it = tyjson_obj_iter_with(root);
    size_t ks = 0;
    tyjson_val *key;
    while ((key = tyjson_obj_iter_next(&it))) ks += tyjson_equals_str(key, "k");
    ASSERT_EQ_UINT(ks, 2); /* the iterator sees both */

    tyjson_mut_doc *m = tyjson_doc_mut_copy(d, NULL);
    tyjson_mut_val *mroot = tyjson_mut_doc_get_root(m);
    ASSERT_EQ_UINT(tyjson_mut_get_uint(tyjson_mut_obj_get(mroot, "k")), 1);
    ASSERT_EQ_UINT(tyjson_mut_get_uint(tyjson_mut_obj_getn(mroot, "k", 1)), 1);
    ASSERT_EQ_UINT(tyjson_mut_get_uint(tyjson_mut_ptr_get(mroot, "/k")), 1);
    ASSERT_EQ_UINT(tyjson_mut_get_uint(tyjson_mut_ptr_get(mroot, "/x/k/0")), 5);
    tyjson_mut_obj_iter mit = tyjson_mut_obj_iter_with(mroot);
    tyjson_mut_val *mk;
    ks = 0;
    while ((mk = tyjson_mut_obj_iter_next(&mit))) ks += tyjson_mut_equals_str(mk, "k");
    ASSERT_EQ_UINT(ks, 2);
    /* Back to immutable: order and repeats kept, still the first wins. */
    tyjson_doc *back = tyjson_mut_doc_imut_copy(m, NULL);
    ASSERT_EQ_UINT(tyjson_get_uint(tyjson_obj_get(tyjson_doc_get_root(back), "k")), 1);
    ASSERT_TRUE(tyjson_equals(tyjson_doc_get_root(back), root));
    /* put: the first member takes the value, later repeats go. */
    ASSERT_TRUE(tyjson_mut_obj_put(mroot, tyjson_mut_str(m, "k"), tyjson_mut_uint(m, 3)));
    assert_writes(mroot, "{\"k\":3,\"x\":{\"k\":[5],\"k\":[6]}}");
    tyjson_doc_free(back);
    tyjson_mut_doc_free(m);
    tyjson_doc_free(d);
}

/* ----------------------------------------------------------------------------
 * MARK: - Equality against reordering, randomised
 * ------------------------------------------------------------------------- */
static unsigned long eq_rnd_state = 77;
static size_t eq_rnd(size_t n) {
    eq_rnd_state = eq_rnd_state * 6364136223846793005ul + 1442695040888963407ul;
    return (size_t)(eq_rnd_state >> 33) % n;
}

/* Random tree: objects of 0..40 distinct keys (so both pairing methods
 * run), arrays of 0..5, scalar leaves. */
static tyjson_mut_val *random_tree(tyjson_mut_doc *doc, int depth) {
    size_t kind = depth <= 0 ? 2 + eq_rnd(2) : eq_rnd(4);
    if (kind == 0) {
        tyjson_mut_val *o = tyjson_mut_obj(doc);
        size_t n = eq_rnd(3) == 0 ? 33 + eq_rnd(8) : eq_rnd(6);
        for (size_t i = 0; i < n; i++) {
            char key[16];
            snprintf(key, sizeof(key), "k%zu", i);
            ASSERT_TRUE(tyjson_mut_obj_add_val_keycpy(doc, o, key, random_tree(doc, depth - 1)));
        }
        return o;
    }
    if (kind == 1) {
        tyjson_mut_val *a = tyjson_mut_arr(doc);
        for (size_t n = eq_rnd(6); n > 0; n--) ASSERT_TRUE(tyjson_mut_arr_append(a, random_tree(doc, depth - 1)));
        return a;
    }
    return kind == 2 ? tyjson_mut_uint(doc, eq_rnd(3)) : tyjson_mut_strcpy(doc, eq_rnd(2) ? "x" : "y");
}

/* Shuffles the members of every object in place: clear, then re-add (the
 * cleared nodes are unlinked, so they can go back in). */
static void shuffle_members(tyjson_mut_val *v) {
    if (tyjson_mut_is_arr(v)) {
        tyjson_mut_arr_iter it = tyjson_mut_arr_iter_with(v);
        tyjson_mut_val *c;
        while ((c = tyjson_mut_arr_iter_next(&it))) shuffle_members(c);
        return;
    }
    if (!tyjson_mut_is_obj(v)) return;
    size_t n = tyjson_mut_obj_size(v);
    tyjson_mut_val **k = (tyjson_mut_val **)malloc((n + 1) * sizeof(*k));
    tyjson_mut_val **x = (tyjson_mut_val **)malloc((n + 1) * sizeof(*x));
    tyjson_mut_obj_iter it = tyjson_mut_obj_iter_with(v);
    for (size_t i = 0; i < n; i++) {
        k[i] = tyjson_mut_obj_iter_next(&it);
        x[i] = tyjson_mut_obj_iter_get_val(k[i]);
    }
    for (size_t i = n; i > 1; i--) {
        size_t j = eq_rnd(i);
        tyjson_mut_val *tk = k[i - 1], *tx = x[i - 1];
        k[i - 1] = k[j];
        x[i - 1] = x[j];
        k[j] = tk;
        x[j] = tx;
    }
    ASSERT_TRUE(tyjson_mut_obj_clear(v));
    for (size_t i = 0; i < n; i++) {
        shuffle_members(x[i]);
        ASSERT_TRUE(tyjson_mut_obj_add(v, k[i], x[i]));
    }
    free(k);
    free(x);
}

/* The first scalar leaf found depth-first, or NULL (an empty container). */
static tyjson_mut_val *first_leaf(tyjson_mut_val *v) {
    if (!tyjson_mut_is_arr(v) && !tyjson_mut_is_obj(v)) return v;
    tyjson_mut_val *c = NULL;
    if (tyjson_mut_is_arr(v)) {
        c = tyjson_mut_arr_get_first(v);
    } else {
        tyjson_mut_obj_iter it = tyjson_mut_obj_iter_with(v);
        c = tyjson_mut_obj_iter_get_val(tyjson_mut_obj_iter_next(&it));
    }
    return c ? first_leaf(c) : NULL;
}

TEST(equals_random_reordered_trees) {
    size_t checked = 0, sorted_rounds = 0;
    for (int round = 0; round < 60; round++) {
        tyjson_mut_doc *doc = tyjson_mut_doc_new(NULL);
        tyjson_mut_val *a = random_tree(doc, 4);
        tyjson_mut_val *b = tyjson_mut_val_mut_copy(doc, a);
        shuffle_members(b);
        tyjson_doc *ia = tyjson_mut_val_imut_copy(a, NULL), *ib = tyjson_mut_val_imut_copy(b, NULL);
        bool e;
        ASSERT_EQ_INT(tyjson_mut_equals_ex(a, b, NULL, &e), TYJSON_OK);
        ASSERT_TRUE(e);
        test_alloc t;
        tyjson_alloc counter = test_alloc_make(&t, SIZE_MAX);
        ASSERT_EQ_INT(tyjson_equals_ex(tyjson_doc_get_root(ia), tyjson_doc_get_root(ib), &counter, &e),
                      TYJSON_OK);
        ASSERT_TRUE(e);
        ASSERT_EQ_INT(t.live, 0);
        sorted_rounds += t.calls > 0; /* an object of more than 32 members was reordered */
        /* Change one leaf of b: both kinds must now see a difference. */
        tyjson_mut_val *leaf = first_leaf(b);
        if (leaf) {
            ASSERT_TRUE(tyjson_mut_set_real(leaf, 0.5));
            tyjson_doc *ic = tyjson_mut_val_imut_copy(b, NULL);
            ASSERT_FALSE(tyjson_mut_equals(a, b));
            ASSERT_FALSE(tyjson_mut_equals(b, a));
            ASSERT_FALSE(tyjson_equals(tyjson_doc_get_root(ia), tyjson_doc_get_root(ic)));
            ASSERT_FALSE(tyjson_equals(tyjson_doc_get_root(ic), tyjson_doc_get_root(ia)));
            tyjson_doc_free(ic);
            checked++;
        }
        tyjson_doc_free(ia);
        tyjson_doc_free(ib);
        tyjson_mut_doc_free(doc);
    }
    ASSERT_TRUE(checked > 30);
    ASSERT_TRUE(sorted_rounds > 5);
}

/* A corpus document's twins: its immutable and mutable forms, a copy with
 * every object's members shuffled (in both forms), and one with a deep
 * leaf changed; tyjson_equals and tyjson_mut_equals must give the same
 * answer for every pair (one core, src/dom/equal.c). */
static void corpus_twins(const char *name) {
    char path[1024];
    test_shared_path(name, path, sizeof(path));
    size_t len;
    char *text = test_read_file(path, &len);
    if (!text) {
        if (test_require_shared()) TEST_FAIL("shared data missing: %s", path);
        TEST_SKIP("shared data not found at %s", path);
    }
    twin x = twin_parse(text, len), y = twin_parse(text, len);
    free(text);
    ASSERT_TRUE(tyjson_doc_get_val_count(x.doc) > 1000);
    ASSERT_TRUE(twin_equal(x, y, NULL, NULL));

    /* Shuffled members at every level, both forms built from the same tree. */
    tyjson_mut_doc *sm = tyjson_mut_doc_new(NULL);
    tyjson_mut_val *sroot = tyjson_mut_val_mut_copy(sm, tyjson_mut_doc_get_root(x.mdoc));
    ASSERT_NOT_NULL(sroot);
    shuffle_members(sroot);
    tyjson_mut_doc_set_root(sm, sroot);
    twin z = {tyjson_mut_doc_imut_copy(sm, NULL), sm};
    ASSERT_NOT_NULL(z.doc);
    ASSERT_TRUE(twin_equal(x, z, NULL, NULL));
    ASSERT_TRUE(twin_equal(z, x, NULL, NULL));

    /* One leaf changed, deep down the shuffled copy. */
    tyjson_mut_val *leaf = first_leaf(sroot);
    if (leaf) {
        ASSERT_TRUE(tyjson_mut_set_real(leaf, -0.25));
        twin w = {tyjson_mut_doc_imut_copy(sm, NULL), sm};
        ASSERT_NOT_NULL(w.doc);
        ASSERT_FALSE(twin_equal(x, w, NULL, NULL));
        ASSERT_FALSE(twin_equal(w, x, NULL, NULL));
        tyjson_doc_free(w.doc);
    }
    twin_free(x);
    twin_free(y);
    twin_free(z);
}

TEST(equals_corpus_twins_agree) {
    corpus_twins("corpus/twitter.json");
    corpus_twins("corpus/citm_catalog.json");
    corpus_twins("corpus/github_events.json");
    corpus_twins("corpus/mesh.json");
}

/* ----------------------------------------------------------------------------
 * MARK: - Replace by key, rename, arrays from C arrays
 * ------------------------------------------------------------------------- */
TEST(obj_replace_only_when_present) {
    tyjson_mut_doc *doc = tyjson_mut_doc_new(NULL);
    tyjson_mut_val *obj = tyjson_mut_obj(doc);
    ASSERT_TRUE(tyjson_mut_obj_add_sint(doc, obj, "a", 1));
    ASSERT_TRUE(tyjson_mut_obj_add_sint(doc, obj, "b", 2));
    ASSERT_TRUE(tyjson_mut_obj_add_sint(doc, obj, "a", 3));
    tyjson_mut_val *old = tyjson_mut_obj_get(obj, "a");
    /* the first "a" gets the value, the repeat stays, the old value is free */
    ASSERT_TRUE(tyjson_mut_obj_replace(obj, tyjson_mut_str(doc, "a"), tyjson_mut_true(doc)));
    assert_writes(obj, "{\"a\":true,\"b\":2,\"a\":3}");
    ASSERT_TRUE(tyjson_mut_arr_append(tyjson_mut_arr(doc), old));
    /* the last member's value: the object's last node moves to the new one */
    ASSERT_TRUE(tyjson_mut_obj_replace(obj, tyjson_mut_str(doc, "b"), tyjson_mut_null(doc)));
    ASSERT_TRUE(tyjson_mut_obj_add_sint(doc, obj, "c", 4));
    assert_writes(obj, "{\"a\":true,\"b\":null,\"a\":3,\"c\":4}");
    /* absent key: false, nothing added, the value stays free */
    tyjson_mut_val *v = tyjson_mut_false(doc);
    ASSERT_FALSE(tyjson_mut_obj_replace(obj, tyjson_mut_str(doc, "zz"), v));
    assert_writes(obj, "{\"a\":true,\"b\":null,\"a\":3,\"c\":4}");
    ASSERT_TRUE(tyjson_mut_arr_append(tyjson_mut_arr(doc), v));
    /* the refusals of tyjson_mut_obj_add */
    ASSERT_FALSE(tyjson_mut_obj_replace(NULL, tyjson_mut_str(doc, "a"), tyjson_mut_null(doc)));
    ASSERT_FALSE(tyjson_mut_obj_replace(obj, NULL, tyjson_mut_null(doc)));
    ASSERT_FALSE(tyjson_mut_obj_replace(obj, tyjson_mut_str(doc, "a"), NULL));
    ASSERT_FALSE(tyjson_mut_obj_replace(obj, tyjson_mut_sint(doc, 1), tyjson_mut_null(doc)));
    ASSERT_FALSE(tyjson_mut_obj_replace(obj, tyjson_mut_str(doc, "a"), obj));
    ASSERT_FALSE(tyjson_mut_obj_replace(tyjson_mut_obj(doc), tyjson_mut_str(doc, "a"), tyjson_mut_null(doc)));
    assert_writes(obj, "{\"a\":true,\"b\":null,\"a\":3,\"c\":4}");
    tyjson_mut_doc_free(doc);
}

TEST(obj_rename_key_every_match) {
    counting c;
    tyjson_alloc alc = counting_alloc(&c);
    tyjson_mut_doc *doc = tyjson_mut_doc_new(&alc);
    tyjson_mut_val *obj = tyjson_mut_obj(doc);
    ASSERT_TRUE(tyjson_mut_obj_add_sint(doc, obj, "a", 1));
    ASSERT_TRUE(tyjson_mut_obj_add_sint(doc, obj, "b", 2));
    ASSERT_TRUE(tyjson_mut_obj_add_sint(doc, obj, "a", 3));
    char name[] = "x\"y";
    ASSERT_TRUE(tyjson_mut_obj_rename_key(doc, obj, "a", name));
    name[0] = 'Q'; /* the new key was copied */
    assert_writes(obj, "{\"x\\\"y\":1,\"b\":2,\"x\\\"y\":3}");
    ASSERT_EQ_INT(tyjson_mut_get_sint(tyjson_mut_obj_getn(obj, "x\"y", 3)), 1);
    ASSERT_NULL(tyjson_mut_obj_get(obj, "a"));
    /* a missing key changes and allocates nothing */
    long before = c.requests;
    ASSERT_FALSE(tyjson_mut_obj_rename_key(doc, obj, "nope", "b"));
    ASSERT_EQ_INT(c.requests, before);
    /* to an existing name: repeats, as documented; to and from "" with lengths */
    ASSERT_TRUE(tyjson_mut_obj_rename_keyn(doc, obj, "b", 1, "x\"y", 3));
    assert_writes(obj, "{\"x\\\"y\":1,\"x\\\"y\":2,\"x\\\"y\":3}");
    ASSERT_TRUE(tyjson_mut_obj_rename_keyn(doc, obj, "x\"y", 3, NULL, 0));
    assert_writes(obj, "{\"\":1,\"\":2,\"\":3}");
    ASSERT_TRUE(tyjson_mut_obj_rename_keyn(doc, obj, NULL, 0, "k\0z", 3));
    ASSERT_EQ_INT(tyjson_mut_get_sint(tyjson_mut_obj_getn(obj, "k\0z", 3)), 1);
    /* refusals */
    ASSERT_FALSE(tyjson_mut_obj_rename_key(NULL, obj, "k", "a"));
    ASSERT_FALSE(tyjson_mut_obj_rename_key(doc, NULL, "k", "a"));
    ASSERT_FALSE(tyjson_mut_obj_rename_key(doc, tyjson_mut_arr(doc), "k", "a"));
    ASSERT_FALSE(tyjson_mut_obj_rename_key(doc, obj, NULL, "a"));
    ASSERT_FALSE(tyjson_mut_obj_rename_key(doc, obj, "k", NULL));
    ASSERT_FALSE(tyjson_mut_obj_rename_keyn(doc, obj, NULL, 1, "a", 1));
    ASSERT_FALSE(tyjson_mut_obj_rename_keyn(doc, obj, "k\0z", 3, NULL, 1));
    ASSERT_EQ_INT(tyjson_mut_get_sint(tyjson_mut_obj_getn(obj, "k\0z", 3)), 1);
    /* the copy cannot be allocated: false, names unchanged */
    size_t big = 1u << 20;
    char *longname = (char *)malloc(big);
    ASSERT_NOT_NULL(longname);
    memset(longname, 'n', big);
    c.fail_at = c.requests + 1;
    ASSERT_FALSE(tyjson_mut_obj_rename_keyn(doc, obj, "k\0z", 3, longname, big));
    c.fail_at = 0;
    ASSERT_EQ_INT(tyjson_mut_get_sint(tyjson_mut_obj_getn(obj, "k\0z", 3)), 1);
    ASSERT_EQ_UINT(tyjson_mut_obj_size(obj), 3);
    free(longname);
    tyjson_mut_doc_free(doc);
    ASSERT_EQ_INT(c.live, 0);
}

TEST(arr_with_c_arrays) {
    tyjson_mut_doc *doc = tyjson_mut_doc_new(NULL);
    const bool bs[] = {true, false, true};
    const int64_t is[] = {-1, 0, INT64_MIN, INT64_MAX};
    const uint64_t us[] = {0, UINT64_MAX};
    const double ds[] = {0.5, -2.0, 1e300};
    const float fs[] = {3.67f, 0.1f};
    const char *const ss[] = {"a", "b\"c", ""};
    const size_t lens[] = {1, 3, 0};
    char owned[] = "own";
    const char *const cs[] = {owned};
    assert_writes(tyjson_mut_arr_with_bool(doc, bs, 3), "[true,false,true]");
    assert_writes(tyjson_mut_arr_with_sint(doc, is, 4),
                  "[-1,0,-9223372036854775808,9223372036854775807]");
    assert_writes(tyjson_mut_arr_with_uint(doc, us, 2), "[0,18446744073709551615]");
    assert_writes(tyjson_mut_arr_with_real(doc, ds, 3), "[0.5,-2.0,1e300]");
    tyjson_mut_val *fa = tyjson_mut_arr_with_float(doc, fs, 2);
    ASSERT_EQ_DBL_BITS(tyjson_mut_get_real(tyjson_mut_arr_get(fa, 0)), (double)3.67f);
    ASSERT_EQ_DBL_BITS(tyjson_mut_get_real(tyjson_mut_arr_get(fa, 1)), (double)0.1f);
    assert_writes(tyjson_mut_arr_with_str(doc, ss, 3), "[\"a\",\"b\\\"c\",\"\"]");
    assert_writes(tyjson_mut_arr_with_strn(doc, ss, lens, 2), "[\"a\",\"b\\\"c\"]");
    tyjson_mut_val *ca = tyjson_mut_arr_with_strcpy(doc, cs, 1);
    owned[0] = 'X';
    assert_writes(ca, "[\"own\"]");
    /* empty arrays, and the refusals */
    assert_writes(tyjson_mut_arr_with_sint(doc, NULL, 0), "[]");
    assert_writes(tyjson_mut_arr_with_strn(doc, NULL, NULL, 0), "[]");
    ASSERT_NULL(tyjson_mut_arr_with_sint(doc, NULL, 1));
    ASSERT_NULL(tyjson_mut_arr_with_bool(NULL, bs, 3));
    ASSERT_NULL(tyjson_mut_arr_with_strn(doc, ss, NULL, 1));
    const char *const withnull[] = {"a", NULL};
    ASSERT_NULL(tyjson_mut_arr_with_str(doc, withnull, 2));
    ASSERT_NULL(tyjson_mut_arr_with_strcpy(doc, withnull, 2));
    const char *const nullstr[] = {NULL};
    const size_t one[] = {1}, zero[] = {0};
    ASSERT_NULL(tyjson_mut_arr_with_strn(doc, nullstr, one, 1));
    assert_writes(tyjson_mut_arr_with_strn(doc, nullstr, zero, 1), "[\"\"]");
    tyjson_mut_doc_free(doc);
}

TEST(arr_with_alloc_failure_sweep) {
    int64_t vals[300];
    for (int i = 0; i < 300; i++) vals[i] = i;
    for (long fail = 1;; fail++) {
        counting c;
        tyjson_alloc alc = counting_alloc(&c);
        tyjson_mut_doc *doc = tyjson_mut_doc_new(&alc);
        if (!doc) continue;
        c.fail_at = fail;
        tyjson_mut_val *arr = tyjson_mut_arr_with_sint(doc, vals, 300);
        long failures = c.failures;
        c.fail_at = 0;
        if (arr) {
            ASSERT_EQ_UINT(tyjson_mut_arr_size(arr), 300);
            ASSERT_EQ_INT(tyjson_mut_get_sint(tyjson_mut_arr_get(arr, 299)), 299);
        } else {
            ASSERT_TRUE(failures > 0);
        }
        tyjson_mut_doc_free(doc);
        ASSERT_EQ_INT(c.live, 0);
        if (arr && failures == 0) break;
    }
}

int main(int argc, char **argv) { return test_main(argc, argv); }
