/* test_alloc_fail.c - out-of-memory handling: an allocator that fails the
 * Nth request, for every N until the call succeeds, over parsing, reading a
 * file and writing; each failure must return NULL with TYJSON_E_NOMEM, free
 * everything and leave the caller's input alone. Then the pool allocator:
 * tyjson_read_max_memory() bytes are always enough, fewer fail cleanly. */
#include "test.h"
#include "tyjson.h"

/* ----------------------------------------------------------------------------
 * The failing allocator is test.h's test_alloc: request number `fail_at`
 * returns NULL, `live` counts blocks. A failed shrinking realloc may be
 * survived (the caller keeps the larger block), so it is told apart.
 * ------------------------------------------------------------------------- */
/* No call needs more requests than this; a runaway loop is a failure. */
#define MAX_STEPS 100000u

/* ----------------------------------------------------------------------------
 * The documents: every value type, escapes, deep nesting, the sorted
 * duplicate-key check, STOP_WHEN_DONE and the relaxed syntax.
 * ------------------------------------------------------------------------- */
typedef struct sample {
    const char *name;
    const char *text; /* NULL: built at run time */
    tyjson_read_flags flags;
    tyjson_status want; /* OK, or the error expected once memory suffices */
} sample;

static const sample samples[] = {
    {"empty_object", "{}", 0, TYJSON_OK},
    {"scalar", "-12.5e-3", 0, TYJSON_OK},
    {"string", "\"abc\"", 0, TYJSON_OK},
    {"all_types",
     "{\"a\":[1,-2,3.5,18446744073709551615,-9223372036854775808,true,false,null,\"x\"],"
     "\"b\":{\"c\":{},\"d\":[]},\"e\":\"\",\"f\":-0.0,\"g\":1e308}",
     0, TYJSON_OK},
    {"escapes",
     "[\"\\u00e9\\ud83d\\ude00\\n\\t\\\"\\\\\\/\\b\\f\\r\",\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\","
     "\"\\u0000\",{\"k\\u0041\":\"v\\u20AC\"}]",
     0, TYJSON_OK},
    {"dup_check_sorted",
     "{\"k01\":1,\"k02\":2,\"k03\":3,\"k04\":4,\"k05\":5,\"k06\":6,\"k07\":7,\"k08\":8,"
     "\"k09\":9,\"k10\":10,\"k11\":11,\"k12\":12,\"k13\":13,\"k14\":14,\"k15\":15,"
     "\"k16\":16,\"k17\":17,\"k18\":18,\"k19\":19,\"k20\":{\"a\":1,\"b\":2}}",
     TYJSON_READ_REJECT_DUPLICATE_KEYS, TYJSON_OK},
    {"dup_found_sorted",
     "{\"k01\":1,\"k02\":2,\"k03\":3,\"k04\":4,\"k05\":5,\"k06\":6,\"k07\":7,\"k08\":8,"
     "\"k09\":9,\"k10\":10,\"k11\":11,\"k12\":12,\"k13\":13,\"k14\":14,\"k15\":15,"
     "\"k16\":16,\"k17\":17,\"k05\":18}",
     TYJSON_READ_REJECT_DUPLICATE_KEYS, TYJSON_E_DUPLICATE_KEY},
    {"dup_found_small", "{\"a\":1,\"b\":2,\"a\":3}", TYJSON_READ_REJECT_DUPLICATE_KEYS,
     TYJSON_E_DUPLICATE_KEY},
    {"stop_when_done", "{\"a\":[1,2]}  {\"b\":2} garbage", TYJSON_READ_STOP_WHEN_DONE, TYJSON_OK},
    {"relaxed",
     "\xEF\xBB\xBF// c\n[1,/* x */ NaN,-Infinity,123456789012345678901234567890,1e999,\"\xff\",]",
     TYJSON_READ_ALLOW_COMMENTS | TYJSON_READ_ALLOW_TRAILING_COMMAS | TYJSON_READ_ALLOW_INF_NAN |
         TYJSON_READ_ALLOW_BOM | TYJSON_READ_ALLOW_INVALID_UTF8 | TYJSON_READ_BIGNUM_AS_RAW,
     TYJSON_OK},
    {"syntax_error", "[1,2,{\"a\":tru}]", 0, TYJSON_E_LITERAL},
    {"deep", NULL, 0, TYJSON_OK},          /* 300 nested arrays and objects */
    {"many_values", NULL, 0, TYJSON_OK},   /* grows the value array */
    {"dup_then_many", NULL, TYJSON_READ_REJECT_DUPLICATE_KEYS, TYJSON_OK},
    {"github_events", NULL, 0, TYJSON_OK}, /* from the corpus, when present */
};
#define NSAMPLES (sizeof(samples) / sizeof(samples[0]))

static char *build_deep(size_t *len) {
    const size_t levels = 300;
    char *s = (char *)malloc(levels * 12 + 16);
    size_t n = 0;
    for (size_t i = 0; i < levels; i++) {
        if (i % 2) {
            memcpy(s + n, "{\"k\":", 5);
            n += 5;
        } else {
            s[n++] = '[';
        }
    }
    memcpy(s + n, "\"x\"", 3);
    n += 3;
    for (size_t i = levels; i-- > 0;) s[n++] = (i % 2) ? '}' : ']';
    *len = n;
    return s;
}

/* An object big enough for the sorted duplicate check (its key array comes
 * from the allocator), then many values, so that the value array grows
 * after that. */
static char *build_many(size_t *len, bool object_first) {
    size_t cap = 64 * 1024, n = 0;
    char *s = (char *)malloc(cap);
    s[n++] = '[';
    if (object_first) {
        s[n++] = '{';
        for (int k = 0; k < 40; k++) n += (size_t)sprintf(s + n, "%s\"key%d\":%d", k ? "," : "", k, k);
        s[n++] = '}';
        s[n++] = ',';
    }
    for (int i = 0; i < 6000; i++) n += (size_t)sprintf(s + n, "%d,", i % 10);
    s[n++] = '0';
    s[n++] = ']';
    *len = n;
    return s;
}

/* Text of sample i (malloc'd), or NULL when its data file is absent. */
static char *sample_text(size_t i, size_t *len) {
    const sample *sm = &samples[i];
    if (sm->text) {
        *len = strlen(sm->text);
        char *s = (char *)malloc(*len + 1);
        memcpy(s, sm->text, *len + 1);
        return s;
    }
    if (strcmp(sm->name, "deep") == 0) return build_deep(len);
    if (strcmp(sm->name, "many_values") == 0) return build_many(len, false);
    if (strcmp(sm->name, "dup_then_many") == 0) return build_many(len, true);
    char path[1024];
    test_shared_path("corpus/github_events.json", path, sizeof(path));
    char *s = test_read_file(path, len);
    if (!s && test_require_shared()) TEST_FAIL("missing %s", path);
    return s;
}

/* ----------------------------------------------------------------------------
 * The sweeps
 * ------------------------------------------------------------------------- */

/* Fails each request in turn until parsing gives its final answer. Returns
 * the number of requests the successful call made. */
static size_t sweep_parse(const sample *sm, const char *dat, size_t len) {
    char *copy = (char *)malloc(len ? len : 1);
    memcpy(copy, dat, len);
    for (size_t n = 0; n < MAX_STEPS; n++) {
        test_alloc f;
        tyjson_alloc alc = test_alloc_make(&f, n);
        tyjson_read_options o = {sm->flags, 0, &alc};
        tyjson_error err;
        tyjson_doc *doc = tyjson_read_opts(dat, len, &o, &err);
        if (memcmp(copy, dat, len) != 0) TEST_FAIL("%s: input modified (fail_at %zu)", sm->name, n);
        if (f.failed && !(doc && f.failed_shrink)) {
            if (doc) TEST_FAIL("%s: succeeded although request %zu failed", sm->name, n);
            if (err.code != TYJSON_E_NOMEM)
                TEST_FAIL("%s: request %zu failed but code is %s", sm->name, n,
                          tyjson_status_name(err.code));
            if (f.live != 0) TEST_FAIL("%s: %ld blocks leaked (fail_at %zu)", sm->name, f.live, n);
            continue;
        }
        /* Enough memory (or only a shrink failed): the real answer. */
        if (sm->want == TYJSON_OK) {
            if (!doc) TEST_FAIL("%s: failed with %s", sm->name, tyjson_status_name(err.code));
            tyjson_doc_free(doc);
        } else {
            if (doc) TEST_FAIL("%s: parsed, expected %s", sm->name, tyjson_status_name(sm->want));
            if (err.code != sm->want)
                TEST_FAIL("%s: %s, expected %s", sm->name, tyjson_status_name(err.code),
                          tyjson_status_name(sm->want));
        }
        if (f.live != 0) TEST_FAIL("%s: %ld blocks leaked after the final call", sm->name, f.live);
        if (f.failed) continue; /* survived a failed shrink */
        free(copy);
        return f.calls;
    }
    TEST_FAIL("%s: no success after %u requests", sm->name, MAX_STEPS);
    return 0;
}

/* The same for writing a parsed document, minified and pretty. */
static size_t sweep_write(const char *name, const tyjson_doc *doc, tyjson_write_flags flags) {
    size_t want_len = 0;
    char *want = tyjson_write_opts(doc, &(tyjson_write_options){flags, 0, NULL}, &want_len, NULL);
    if (!want) TEST_FAIL("%s: write 0x%x failed with libc", name, (unsigned)flags);
    for (size_t n = 0; n < MAX_STEPS; n++) {
        test_alloc f;
        tyjson_alloc alc = test_alloc_make(&f, n);
        tyjson_write_options wo = {flags, 0, &alc};
        tyjson_error err;
        size_t len = 0;
        char *text = tyjson_write_opts(doc, &wo, &len, &err);
        if (f.failed && !(text && f.failed_shrink)) {
            if (text) TEST_FAIL("%s: write succeeded although request %zu failed", name, n);
            if (err.code != TYJSON_E_NOMEM)
                TEST_FAIL("%s: write request %zu failed but code is %s", name, n,
                          tyjson_status_name(err.code));
            if (f.live != 0) TEST_FAIL("%s: write leaked %ld blocks (fail_at %zu)", name, f.live, n);
            continue;
        }
        if (!text) TEST_FAIL("%s: write failed with %s", name, tyjson_status_name(err.code));
        if (len != want_len || memcmp(text, want, len) != 0)
            TEST_FAIL("%s: write through the test allocator gives other text", name);
        tyjson_free(&alc, text);
        if (f.live != 0) TEST_FAIL("%s: write leaked %ld blocks", name, f.live);
        if (f.failed) continue; /* survived a failed shrink */
        free(want);
        return f.calls;
    }
    TEST_FAIL("%s: write: no success after %u requests", name, MAX_STEPS);
    return 0;
}

TEST(parse_fails_cleanly) {
    size_t total = 0, ran = 0;
    for (size_t i = 0; i < NSAMPLES; i++) {
        size_t len = 0;
        char *dat = sample_text(i, &len);
        if (!dat) continue;
        size_t calls = sweep_parse(&samples[i], dat, len);
        printf("%s %s:%zu", ran ? "" : "  parse requests per document:", samples[i].name, calls);
        total += calls;
        ran++;
        free(dat);
    }
    printf("\n  parse: %zu documents, %zu allocation points each failed\n", ran, total);
    ASSERT_TRUE(ran >= NSAMPLES - 1);
}

TEST(write_fails_cleanly) {
    size_t total = 0, ran = 0;
    for (size_t i = 0; i < NSAMPLES; i++) {
        const sample *sm = &samples[i];
        if (sm->want != TYJSON_OK) continue;
        size_t len = 0;
        char *dat = sample_text(i, &len);
        if (!dat) continue;
        tyjson_doc *doc = tyjson_read_opts(dat, len, &(tyjson_read_options){sm->flags, 0, NULL}, NULL);
        ASSERT_NOT_NULL(doc);
        /* NaN, infinities and invalid UTF-8 need the matching write flags. */
        tyjson_write_flags extra = 0;
        if (sm->flags & TYJSON_READ_ALLOW_INF_NAN) extra |= TYJSON_WRITE_ALLOW_INF_NAN;
        if (sm->flags & TYJSON_READ_ALLOW_INVALID_UTF8) extra |= TYJSON_WRITE_REPLACE_INVALID_UTF8;
        total += sweep_write(sm->name, doc, extra | TYJSON_WRITE_MINIFY);
        total += sweep_write(sm->name, doc, extra | TYJSON_WRITE_PRETTY);
        total += sweep_write(sm->name, doc, extra | TYJSON_WRITE_PRETTY | TYJSON_WRITE_ESCAPE_UNICODE);
        ran++;
        tyjson_doc_free(doc);
        free(dat);
    }
    printf("  write: %zu documents x 3 forms, %zu allocation points each failed\n", ran, total);
}

TEST(read_file_fails_cleanly) {
    char path[1024];
    snprintf(path, sizeof(path), "%s/test_alloc_fail.tmp.json", TYJSON_BINARY_DIR);
    const char *text = samples[3].text; /* all_types */
    FILE *fp = fopen(path, "wb");
    ASSERT_NOT_NULL(fp);
    ASSERT_EQ_UINT(fwrite(text, 1, strlen(text), fp), strlen(text));
    ASSERT_EQ_INT(fclose(fp), 0);
    tyjson_doc *want = tyjson_read(text, strlen(text), 0);
    ASSERT_NOT_NULL(want);
    size_t n;
    for (n = 0; n < MAX_STEPS; n++) {
        test_alloc f;
        tyjson_alloc alc = test_alloc_make(&f, n);
        tyjson_read_options o = {0, 0, &alc};
        tyjson_error err;
        tyjson_doc *doc = tyjson_read_file(path, &o, &err);
        if (f.failed && !(doc && f.failed_shrink)) {
            if (doc) TEST_FAIL("read_file succeeded although request %zu failed", n);
            if (err.code != TYJSON_E_NOMEM)
                TEST_FAIL("read_file request %zu failed but code is %s", n, tyjson_status_name(err.code));
            if (f.live != 0) TEST_FAIL("read_file leaked %ld blocks (fail_at %zu)", f.live, n);
            continue;
        }
        if (!doc) TEST_FAIL("read_file failed with %s", tyjson_status_name(err.code));
        ASSERT_TRUE(tyjson_equals(tyjson_doc_get_root(doc), tyjson_doc_get_root(want)));
        tyjson_doc_free(doc);
        ASSERT_EQ_INT(f.live, 0);
        if (f.failed) continue; /* survived a failed shrink */
        break;
    }
    ASSERT_TRUE(n < MAX_STEPS);
    printf("  read_file: %zu allocation points failed\n", n);
    tyjson_doc_free(want);
    remove(path);
}

/* ----------------------------------------------------------------------------
 * Pool allocator
 * ------------------------------------------------------------------------- */
static tyjson_doc *parse_in_pool(const sample *sm, const char *dat, size_t len, void *buf,
                                 size_t size, tyjson_alloc *alc, tyjson_error *err) {
    if (!tyjson_alloc_pool_init(alc, buf, size)) return NULL;
    tyjson_read_options o = {sm->flags, 0, alc};
    return tyjson_read_opts(dat, len, &o, err);
}

TEST(pool_of_max_memory_suffices) {
    size_t ran = 0, sizes_tried = 0;
    for (size_t i = 0; i < NSAMPLES; i++) {
        const sample *sm = &samples[i];
        size_t len = 0;
        char *dat = sample_text(i, &len);
        if (!dat) continue;
        size_t max = tyjson_read_max_memory(len, sm->flags);
        ASSERT_TRUE(max > len);
        char *buf = (char *)malloc(max);
        ASSERT_NOT_NULL(buf);
        tyjson_alloc alc;
        tyjson_error err;
        tyjson_doc *doc = parse_in_pool(sm, dat, len, buf, max, &alc, &err);
        if (sm->want == TYJSON_OK) {
            if (!doc)
                TEST_FAIL("%s: pool of %zu bytes (max_memory): %s", sm->name, max,
                          tyjson_status_name(err.code));
            tyjson_doc *ref = tyjson_read_opts(dat, len, &(tyjson_read_options){sm->flags, 0, NULL}, NULL);
            ASSERT_NOT_NULL(ref);
            if (!(sm->flags & TYJSON_READ_ALLOW_INF_NAN))
                ASSERT_TRUE(tyjson_equals(tyjson_doc_get_root(doc), tyjson_doc_get_root(ref)));
            ASSERT_TRUE(tyjson_doc_get_mem_size(doc) <= max);
            tyjson_doc_free(ref);
            tyjson_doc_free(doc);
        } else {
            ASSERT_NULL(doc);
            if (err.code != sm->want)
                TEST_FAIL("%s: in a pool of max_memory: %s, expected %s", sm->name,
                          tyjson_status_name(err.code), tyjson_status_name(sm->want));
        }
        /* Smaller pools: the right answer or a clean NOMEM, never anything
         * else (about 200 sizes per document). */
        size_t step = max / 200 ? max / 200 : 1;
        bool saw_nomem = false;
        for (size_t size = 64; size < max; size += step) {
            tyjson_doc *d = parse_in_pool(sm, dat, len, buf, size, &alc, &err);
            sizes_tried++;
            if (d) {
                if (sm->want != TYJSON_OK) TEST_FAIL("%s: parsed in a pool of %zu", sm->name, size);
                tyjson_doc_free(d);
            } else if (tyjson_alloc_pool_init(&alc, buf, size)) {
                if (err.code == TYJSON_E_NOMEM)
                    saw_nomem = true;
                else if (err.code != sm->want)
                    TEST_FAIL("%s: pool of %zu bytes: %s", sm->name, size, tyjson_status_name(err.code));
            }
        }
        ASSERT_TRUE(saw_nomem);
        free(buf);
        ran++;
        free(dat);
    }
    printf("  pool: %zu documents parse in tyjson_read_max_memory() bytes; %zu smaller pools tried\n",
           ran, sizes_tried);
}

TEST(pool_too_small) {
    const char *text = samples[3].text;
    size_t len = strlen(text);
    char buf[256];
    tyjson_alloc alc;
    ASSERT_TRUE(tyjson_alloc_pool_init(&alc, buf, sizeof(buf)));
    tyjson_error err;
    tyjson_doc *doc = tyjson_read_opts(text, len, &(tyjson_read_options){0, 0, &alc}, &err);
    ASSERT_NULL(doc);
    ASSERT_EQ_INT(err.code, TYJSON_E_NOMEM);
    /* A pool too small for its own bookkeeping is refused. */
    ASSERT_FALSE(tyjson_alloc_pool_init(&alc, buf, 8));
    /* The pool is reusable after a failure. */
    static char big[8192];
    ASSERT_TRUE(tyjson_read_max_memory(len, 0) <= sizeof(big));
    ASSERT_TRUE(tyjson_alloc_pool_init(&alc, big, tyjson_read_max_memory(len, 0)));
    doc = tyjson_read_opts(text, len, &(tyjson_read_options){0, 0, &alc}, &err);
    ASSERT_NOT_NULL(doc);
    tyjson_doc_free(doc);
}

/* The pool's blocks form a stack: freeing the most recent block makes the
 * one before it the most recent again, so it keeps growing in place (the
 * parser's value array after the duplicate-key scratch). */
TEST(pool_free_restores_previous_block) {
    static char mem[4096];
    tyjson_alloc alc;
    ASSERT_TRUE(tyjson_alloc_pool_init(&alc, mem, sizeof(mem)));
    char *a = (char *)alc.malloc(alc.ctx, 100);
    ASSERT_NOT_NULL(a);
    memset(a, 'a', 100);
    char *b = (char *)alc.malloc(alc.ctx, 200);
    ASSERT_NOT_NULL(b);
    ASSERT_TRUE(b > a);
    alc.free(alc.ctx, b);
    char *a2 = (char *)alc.realloc(alc.ctx, a, 100, 1000);
    ASSERT_TRUE(a2 == a); /* in place: a is the most recent block again */
    ASSERT_EQ_MEM(a2, "aaaa", 4);
    /* Its bytes came back: a block after the grown one starts where b did not. */
    char *c = (char *)alc.malloc(alc.ctx, 16);
    ASSERT_NOT_NULL(c);
    ASSERT_TRUE(c >= a + 1000);
    /* Freeing a block that is not the most recent reclaims nothing. */
    alc.free(alc.ctx, a2);
    char *d = (char *)alc.malloc(alc.ctx, 16);
    ASSERT_TRUE(d > c);
    /* Freeing the two most recent in turn walks back down the stack. */
    alc.free(alc.ctx, d);
    alc.free(alc.ctx, c);
    char *e = (char *)alc.malloc(alc.ctx, 16);
    ASSERT_TRUE(e == c);
}

int main(int argc, char **argv) { return test_main(argc, argv); }
