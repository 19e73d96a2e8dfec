/*
 * test_pool_bound.c - the promise of tyjson_read_max_memory(): a document
 * parsed inside a pool (tyjson_alloc_pool_init) of exactly that many bytes
 * never fails for lack of memory, whatever the input and the read flags.
 *
 * Every input is parsed twice: with libc (the reference status) and inside
 * a pool of exactly max_memory bytes; both must give the same status, and
 * E_NOMEM never. Small inputs run under all 256 flag combinations, large
 * ones (corpus files, big generated inputs) under a fixed sample of them.
 */
#define TEST_WANT_JSON_LIST
#include "test.h"
#include "tyjson.h"

#define FLAG_COMBOS 256u /* the 8 read flags */
#define SMALL_INPUT ((size_t)64 * 1024)

/* Flag sets for big inputs: none, each flag alone, each flag with duplicate
 * checks (the scratch-hungry one), and all of them. */
static const tyjson_read_flags sampled_flags[] = {
    0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80,
    0x41, 0x42, 0x44, 0x48, 0x50, 0x60, 0xC0, 0xFF,
};

typedef struct bound_stats {
    size_t parses, ok;
} bound_stats;

/* Parses dat in a malloc'd pool of exactly max_memory bytes (so ASan sees
 * any overrun) and checks the status against the libc parse. */
static void check_one(const char *name, const char *dat, size_t len, tyjson_read_flags flags,
                      bound_stats *st) {
    tyjson_error ref_err, pool_err;
    tyjson_read_options ref_opts = {flags, 0, NULL};
    tyjson_doc *ref = tyjson_read_opts(dat, len, &ref_opts, &ref_err);
    size_t max = tyjson_read_max_memory(len, flags);
    if (max == 0) TEST_FAIL("%s: max_memory overflowed for %zu bytes", name, len);
    void *buf = malloc(max);
    ASSERT_NOT_NULL(buf);
    tyjson_alloc pool;
    ASSERT_TRUE(tyjson_alloc_pool_init(&pool, buf, max));
    tyjson_read_options pool_opts = {flags, 0, &pool};
    tyjson_doc *doc = tyjson_read_opts(dat, len, &pool_opts, &pool_err);
    if (!doc && pool_err.code == TYJSON_E_NOMEM)
        TEST_FAIL("%s (flags 0x%02x, %zu bytes): E_NOMEM in a pool of max_memory = %zu bytes",
                  name, (unsigned)flags, len, max);
    if ((doc != NULL) != (ref != NULL) || (!doc && pool_err.code != ref_err.code))
        TEST_FAIL("%s (flags 0x%02x): pool status %s, libc status %s", name, (unsigned)flags,
                  doc ? "OK" : tyjson_status_name(pool_err.code),
                  ref ? "OK" : tyjson_status_name(ref_err.code));
    if (doc) {
        ASSERT_TRUE(tyjson_doc_get_mem_size(doc) <= max);
        ASSERT_EQ_UINT(tyjson_doc_get_val_count(doc), tyjson_doc_get_val_count(ref));
        st->ok++;
    }
    st->parses++;
    tyjson_doc_free(doc);
    tyjson_doc_free(ref);
    free(buf);
}

/* The same promise through tyjson_read_file, which reads the file into a
 * buffer of its own before parsing in place. */
static void check_file(const char *path, size_t len, tyjson_read_flags flags) {
    size_t max = tyjson_read_max_memory(len, flags);
    void *buf = malloc(max);
    ASSERT_NOT_NULL(buf);
    tyjson_alloc pool;
    ASSERT_TRUE(tyjson_alloc_pool_init(&pool, buf, max));
    tyjson_read_options o = {flags, 0, &pool};
    tyjson_error err;
    tyjson_doc *doc = tyjson_read_file(path, &o, &err);
    if (!doc && err.code == TYJSON_E_NOMEM)
        TEST_FAIL("%s (flags 0x%02x): read_file E_NOMEM in a pool of max_memory", path,
                  (unsigned)flags);
    tyjson_doc_free(doc);
    free(buf);
}

static void check_all_flags(const char *name, const char *dat, size_t len, bound_stats *st) {
    if (len <= SMALL_INPUT) {
        for (unsigned f = 0; f < FLAG_COMBOS; f++) check_one(name, dat, len, f, st);
    } else {
        for (size_t i = 0; i < sizeof(sampled_flags) / sizeof(sampled_flags[0]); i++)
            check_one(name, dat, len, sampled_flags[i], st);
    }
}

static void check_folder(const char *rel) {
    test_json_list fl;
    test_json_list_open(&fl, rel);
    bound_stats st = {0, 0};
    for (size_t i = 0; i < fl.count; i++) {
        char path[2048];
        snprintf(path, sizeof(path), "%s/%s", fl.dir, fl.names[i]);
        size_t len = 0;
        char *dat = test_read_file(path, &len);
        if (!dat) {
            test_json_list_free(&fl);
            TEST_FAIL("cannot read %s", path);
        }
        check_all_flags(fl.names[i], dat, len, &st);
        check_file(path, len, 0);
        check_file(path, len, TYJSON_READ_REJECT_DUPLICATE_KEYS);
        check_file(path, len, 0xFF);
        free(dat);
    }
    printf("  %s: %zu files, %zu parses in exact pools, %zu succeeded\n", rel, fl.count, st.parses,
           st.ok);
    test_json_list_free(&fl);
}

TEST(corpus_in_exact_pool) { check_folder("corpus"); }
TEST(conformance_in_exact_pool) { check_folder("conformance/test_parsing"); }

/* ----------------------------------------------------------------------------
 * Generated inputs
 * ------------------------------------------------------------------------- */
typedef struct text {
    char *p;
    size_t n, cap;
} text;

static void put(text *t, const char *s) {
    size_t k = strlen(s);
    if (t->n + k + 1 > t->cap) {
        size_t cap = (t->n + k + 1) * 2;
        char *np = (char *)realloc(t->p, cap);
        if (!np) TEST_FAIL("out of memory building input");
        t->p = np;
        t->cap = cap;
    }
    memcpy(t->p + t->n, s, k + 1);
    t->n += k;
}

/* `objs` objects of `keys` distinct keys each, in one array; with `dup`,
 * each object repeats its first key at the end. */
static text gen_objects(size_t objs, size_t keys, bool dup) {
    text t = {NULL, 0, 0};
    char item[64];
    put(&t, "[");
    for (size_t o = 0; o < objs; o++) {
        put(&t, o ? ",{" : "{");
        for (size_t k = 0; k < keys; k++) {
            snprintf(item, sizeof(item), "%s\"k%zu\":%zu", k ? "," : "", k, k);
            put(&t, item);
        }
        if (dup) put(&t, ",\"k0\":1");
        put(&t, "}");
    }
    put(&t, "]");
    return t;
}

/* Nesting of `depth` levels alternating arrays and single-member objects,
 * each level also holding a 20-key object (scratch at every level). */
static text gen_deep(size_t depth) {
    text t = {NULL, 0, 0};
    char item[64];
    for (size_t d = 0; d < depth; d++) {
        put(&t, d % 2 ? "{\"x\":" : "[{");
        if (d % 2 == 0) {
            for (size_t k = 0; k < 20; k++) {
                snprintf(item, sizeof(item), "%s\"w%zu\":null", k ? "," : "", k);
                put(&t, item);
            }
            put(&t, "},");
        }
    }
    put(&t, "1");
    for (size_t d = depth; d-- > 0;) put(&t, d % 2 ? "}" : "]");
    return t;
}

/* One big string full of escapes, and many small strings, as object keys. */
static text gen_strings(size_t big) {
    text t = {NULL, 0, 0};
    put(&t, "{\"big\":\"");
    for (size_t i = 0; i < big; i++) put(&t, i % 3 ? "ab\\n\\u00e9" : "\\ud83d\\ude00x");
    put(&t, "\"");
    char item[64];
    for (size_t i = 0; i < 2000; i++) {
        snprintf(item, sizeof(item), ",\"s%zu\\t\":\"v%zu\"", i, i);
        put(&t, item);
    }
    put(&t, "}");
    return t;
}

/* `parses`: whether some flag combination must accept the input. */
static void check_text(const char *name, text t, bool parses) {
    bound_stats st = {0, 0};
    check_all_flags(name, t.p, t.n, &st);
    ASSERT_EQ_INT(st.ok > 0, parses);
    free(t.p);
}

/* The duplicate check's sort buffer (objects of more than 16 keys) must
 * not end the pool's in-place growth of the value array. */
TEST(dup_check_300_objects_of_17_keys) {
    text t = gen_objects(300, 17, false);
    size_t max = tyjson_read_max_memory(t.n, TYJSON_READ_REJECT_DUPLICATE_KEYS);
    void *buf = malloc(max);
    ASSERT_NOT_NULL(buf);
    tyjson_alloc pool;
    ASSERT_TRUE(tyjson_alloc_pool_init(&pool, buf, max));
    tyjson_read_options o = {TYJSON_READ_REJECT_DUPLICATE_KEYS, 0, &pool};
    tyjson_error err;
    tyjson_doc *doc = tyjson_read_opts(t.p, t.n, &o, &err);
    if (!doc) TEST_FAIL("parse in an exact pool: %s", tyjson_status_name(err.code));
    ASSERT_EQ_UINT(tyjson_arr_size(tyjson_doc_get_root(doc)), 300);
    tyjson_doc_free(doc);
    free(buf);
    free(t.p);
}

TEST(generated_many_keys) {
    check_text("300x17", gen_objects(300, 17, false), true);
    check_text("300x17+dup", gen_objects(300, 17, true), true);
    check_text("1x20000", gen_objects(1, 20000, false), true);
    check_text("1x20000+dup", gen_objects(1, 20000, true), true);
    check_text("2000x40", gen_objects(2000, 40, false), true);
}

TEST(generated_deep) {
    check_text("deep 1000", gen_deep(1000), true);
    check_text("deep 1024", gen_deep(1024), true);
    check_text("deep 1100", gen_deep(1100), false); /* beyond the depth limit: E_DEPTH */
}

TEST(generated_strings) {
    check_text("strings small", gen_strings(100), true);
    check_text("strings big", gen_strings(60000), true);
}

int main(int argc, char **argv) { return test_main(argc, argv); }
