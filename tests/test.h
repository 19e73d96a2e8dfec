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
 */
#ifndef TYJSON_TEST_H
#define TYJSON_TEST_H

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

#define TEST_MAX 1024
static test_case test__cases[TEST_MAX];
static int test__count;
static jmp_buf test__jmp;
static int test__skipped_flag;
static const char *test__current;

static inline void test__register(const char *name, test_fn fn) {
    if (test__count < TEST_MAX) {
        test__cases[test__count].name = name;
        test__cases[test__count].fn = fn;
        test__count++;
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

static inline int test_main(int argc, char **argv) {
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
