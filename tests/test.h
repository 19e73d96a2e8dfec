/*
 * test.h - the tiny test framework every tests/test_*.c uses.
 *
 *   TEST(name) { ASSERT_EQ_INT(1 + 1, 2); }
 *   int main(int argc, char **argv) { return test_main(argc, argv); }
 *
 * Tests register themselves (constructor attribute), run in declaration
 * order, and a failed assertion prints both sides and ends that test.
 * `./test_x NAME` runs one test. The last line printed is
 * "N passed, N failed" (", N skipped" when some skipped).
 * A program that registers more than TEST_MAX tests (define it before
 * including this header to change it) runs none of them: test_main prints
 * how many were dropped and fails, so no test is silently left out.
 */
#ifndef TYJSON_TEST_H
#define TYJSON_TEST_H

#include "tyjson/common.h"

#include <inttypes.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*test_fn)(void);
typedef struct test_case {
    const char *name;
    test_fn fn;
} test_case;

#ifndef TEST_MAX
#define TEST_MAX 1024
#endif
static test_case test__cases[TEST_MAX];
static int test__count;
static int test__dropped; /* registrations past TEST_MAX */
static jmp_buf test__jmp;
static int test__skipped_flag;
static const char *test__current;

static inline void test__register(const char *name, test_fn fn) {
    if (test__count < TEST_MAX) {
        test__cases[test__count].name = name;
        test__cases[test__count].fn = fn;
        test__count++;
    } else {
        test__dropped++;
    }
}

#define TEST(name)                                                             \
    static void test_##name(void);                                             \
    __attribute__((constructor)) static void test__reg_##name(void) {          \
        test__register(#name, test_##name);                                    \
    }                                                                          \
    static void test_##name(void)

#define TEST_FAIL_AT(file, line, ...)                                          \
    do {                                                                       \
        fprintf(stderr, "  FAIL %s (%s:%d): ", test__current, file, line);     \
        fprintf(stderr, __VA_ARGS__);                                          \
        fputc('\n', stderr);                                                   \
        longjmp(test__jmp, 1);                                                 \
    } while (0)
#define TEST_FAIL(...) TEST_FAIL_AT(__FILE__, __LINE__, __VA_ARGS__)

/** Ends the current test as skipped (for example: ../shared is absent). */
#define TEST_SKIP(...)                                                         \
    do {                                                                       \
        fprintf(stderr, "  SKIP %s: ", test__current);                        \
        fprintf(stderr, __VA_ARGS__);                                          \
        fputc('\n', stderr);                                                   \
        test__skipped_flag = 1;                                                \
        longjmp(test__jmp, 2);                                                 \
    } while (0)

#define ASSERT_TRUE(c)                                                         \
    do { if (!(c)) TEST_FAIL("expected true: %s", #c); } while (0)
#define ASSERT_FALSE(c)                                                        \
    do { if (c) TEST_FAIL("expected false: %s", #c); } while (0)
#define ASSERT_NULL(p)                                                         \
    do { if ((p) != NULL) TEST_FAIL("expected NULL: %s", #p); } while (0)
#define ASSERT_NOT_NULL(p)                                                     \
    do { if ((p) == NULL) TEST_FAIL("expected non-NULL: %s", #p); } while (0)
#define ASSERT_EQ_INT(a, b)                                                    \
    do {                                                                       \
        long long test__a = (long long)(a), test__b = (long long)(b);          \
        if (test__a != test__b)                                                \
            TEST_FAIL("%s == %s: %lld != %lld", #a, #b, test__a, test__b);     \
    } while (0)
#define ASSERT_EQ_UINT(a, b)                                                   \
    do {                                                                       \
        unsigned long long test__a = (unsigned long long)(a),                  \
                           test__b = (unsigned long long)(b);                  \
        if (test__a != test__b)                                                \
            TEST_FAIL("%s == %s: %llu != %llu", #a, #b, test__a, test__b);     \
    } while (0)
/** Bitwise equality of doubles (so -0.0 != 0.0 and NaN == same NaN). */
#define ASSERT_EQ_DBL_BITS(a, b)                                               \
    do {                                                                       \
        double test__a = (a), test__b = (b);                                   \
        if (memcmp(&test__a, &test__b, sizeof(double)) != 0)                   \
            TEST_FAIL("%s == %s: %.17g != %.17g", #a, #b, test__a, test__b);   \
    } while (0)
#define ASSERT_EQ_STR(a, b)                                                    \
    do {                                                                       \
        const char *test__a = (a), *test__b = (b);                             \
        if (!test__a || !test__b || strcmp(test__a, test__b) != 0)             \
            TEST_FAIL("%s == %s: \"%s\" != \"%s\"", #a, #b,                    \
                      test__a ? test__a : "(null)",                            \
                      test__b ? test__b : "(null)");                           \
    } while (0)
/** Compares `n` bytes; prints them as text. */
#define ASSERT_EQ_MEM(a, b, n)                                                 \
    do {                                                                       \
        size_t test__n = (n);                                                  \
        if (memcmp((a), (b), test__n) != 0)                                    \
            TEST_FAIL("%s == %s (%zu bytes): \"%.*s\" != \"%.*s\"", #a, #b,    \
                      test__n, (int)test__n, (const char *)(a), (int)test__n,  \
                      (const char *)(b));                                      \
    } while (0)

/** Path of a file under ../shared, or NULL (with the test skipped) when the
 *  shared folder is absent and TYJSON_REQUIRE_SHARED is not set. */
static inline const char *test_shared_path(const char *rel, char *buf, size_t size) {
#ifdef TYJSON_SHARED_DIR
    int n = snprintf(buf, size, "%s/%s", TYJSON_SHARED_DIR, rel);
#else
    int n = snprintf(buf, size, "../shared/%s", rel);
#endif
    if (n < 0 || (size_t)n >= size) {
        /* path too long for the caller's buffer: report it as missing */
        if (size) buf[0] = 0;
        return buf;
    }
    FILE *f = fopen(buf, "rb");
    if (f) { fclose(f); return buf; }
    /* directories: try opening a known marker via opendir in the caller */
    return buf;
}

/** True if TYJSON_REQUIRE_SHARED=1: missing shared data is then a failure. */
static inline int test_require_shared(void) {
    const char *e = getenv("TYJSON_REQUIRE_SHARED");
    return e && e[0] == '1';
}

/** Reads a whole file; returns malloc'd bytes (NUL-terminated) or NULL. */
static inline char *test_read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = (char *)malloc(cap + 1);
    if (!buf) { fclose(f); return NULL; }
    for (;;) {
        if (n == cap) {
            char *nb = (char *)realloc(buf, cap * 2 + 1);
            if (!nb) { free(buf); fclose(f); return NULL; }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    fclose(f);
    buf[n] = 0;
    if (len) *len = n;
    return buf;
}


/* ----------------------------------------------------------------------------
 * A counting allocator that can refuse one request: request number fail_at
 * (0-based, malloc and realloc both count; SIZE_MAX = never). `live` is the
 * number of blocks allocated and not freed, so a test asserts no leak with
 * live == 0 in any build, not only under LeakSanitizer.
 * ------------------------------------------------------------------------- */
typedef struct test_alloc {
    size_t calls;       /* malloc + realloc requests so far */
    size_t fail_at;     /* the request that fails; SIZE_MAX = none */
    size_t failed;      /* requests refused */
    bool failed_shrink; /* the refused request was a shrinking realloc */
    long live;          /* blocks allocated and not freed */
} test_alloc;

static inline void *test_alloc_malloc(void *ctx, size_t size) {
    test_alloc *t = (test_alloc *)ctx;
    if (t->calls++ == t->fail_at) {
        t->failed++;
        return NULL;
    }
    void *p = malloc(size ? size : 1);
    if (p) t->live++;
    return p;
}
static inline void *test_alloc_realloc(void *ctx, void *ptr, size_t old_size, size_t size) {
    test_alloc *t = (test_alloc *)ctx;
    if (t->calls++ == t->fail_at) {
        t->failed++;
        t->failed_shrink = ptr && size <= old_size;
        return NULL;
    }
    void *p = realloc(ptr, size ? size : 1);
    if (p && !ptr) t->live++;
    return p;
}
static inline void test_alloc_free(void *ctx, void *ptr) {
    test_alloc *t = (test_alloc *)ctx;
    if (ptr) t->live--;
    free(ptr);
}
/** Resets t and returns an allocator over it. */
static inline tyjson_alloc test_alloc_make(test_alloc *t, size_t fail_at) {
    t->calls = 0;
    t->fail_at = fail_at;
    t->failed = 0;
    t->failed_shrink = false;
    t->live = 0;
    tyjson_alloc a = {test_alloc_malloc, test_alloc_realloc, test_alloc_free, t};
    return a;
}

#ifdef TEST_WANT_JSON_LIST
#include <dirent.h>
/* The *.json files of a folder under ../shared, sorted by name. */
typedef struct test_json_list {
    char dir[1024];
    char **names;
    size_t count;
} test_json_list;

static int test__name_cmp(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static inline void test_json_list_free(test_json_list *fl) {
    for (size_t i = 0; i < fl->count; i++) free(fl->names[i]);
    free(fl->names);
    fl->names = NULL;
    fl->count = 0;
}

/** Lists the *.json files of ../shared/<rel>; when the folder is missing or
 *  empty, ends the test: a skip, or a failure if shared data is required. */
static inline void test_json_list_open(test_json_list *fl, const char *rel) {
    fl->names = NULL;
    fl->count = 0;
    test_shared_path(rel, fl->dir, sizeof(fl->dir));
    DIR *d = opendir(fl->dir);
    size_t cap = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 5, ".json") != 0) continue;
        if (fl->count == cap) {
            cap = cap ? cap * 2 : 64;
            char **nn = (char **)realloc(fl->names, cap * sizeof(*nn));
            if (!nn) break;
            fl->names = nn;
        }
        char *copy = (char *)malloc(n + 1);
        if (!copy) break;
        memcpy(copy, e->d_name, n + 1);
        fl->names[fl->count++] = copy;
    }
    if (d) closedir(d);
    if (fl->count == 0) {
        test_json_list_free(fl);
        if (test_require_shared()) TEST_FAIL("shared data missing: %s", fl->dir);
        TEST_SKIP("shared data not found at %s", fl->dir);
    }
    qsort(fl->names, fl->count, sizeof(*fl->names), test__name_cmp);
}
#endif

static inline int test_main(int argc, char **argv) {
    if (test__dropped) {
        fprintf(stderr, "test registry full: %d tests registered, TEST_MAX is %d, %d dropped; "
                        "raise TEST_MAX\n", test__count + test__dropped, TEST_MAX, test__dropped);
        return 1;
    }
    /* volatile: the values must survive longjmp back into this frame */
    volatile int passed = 0, failed = 0, skipped = 0;
    for (volatile int i = 0; i < test__count; i++) {
        if (argc > 1 && strcmp(argv[1], test__cases[i].name) != 0) continue;
        test__current = test__cases[i].name;
        test__skipped_flag = 0;
        int r = setjmp(test__jmp);
        if (r == 0) {
            test__cases[i].fn();
            passed++;
        } else if (r == 2) {
            skipped++;
        } else {
            failed++;
        }
    }
    if (skipped)
        printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    else
        printf("%d passed, %d failed\n", passed, failed);
    if (failed) return 1;
    if (passed == 0 && skipped > 0) return 77;
    return 0;
}

#endif /* TYJSON_TEST_H */
