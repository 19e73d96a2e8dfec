/*
 * test_num.c - the number core (src/num/num.h): exact integers, grammar errors
 * and their positions, the end bound, correctly rounded doubles (checked
 * against glibc's strtod, which is correct, in the "C" locale), shortest
 * round-trip doubles and floats, and the exact output layout.
 */
#include "num/num.h"
#include "test.h"

#include <float.h>
#include <math.h>

#if defined(__SANITIZE_ADDRESS__)
#  define SANITIZED 1
#elif defined(__has_feature)
#  if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#    define SANITIZED 1
#  endif
#endif
#ifndef SANITIZED
#  define SANITIZED 0
#endif
/* Randomized loop sizes: full at -O2, a tenth under sanitizers. */
#define SCALE(n) (SANITIZED ? (n) / 10 : (n))

/* ----------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------- */
static u64 rng_state = 0x9E3779B97F4A7C15u;
static u64 rnd(void) { /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Du;
}

static u64 dbits(double d) {
    u64 b;
    memcpy(&b, &d, sizeof b);
    return b;
}
static double bitsd(u64 b) {
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}
static u32 fbits(float f) {
    u32 b;
    memcpy(&b, &f, sizeof b);
    return b;
}

/* A random finite double, every bit pattern equally likely. */
static double rnd_double(void) {
    for (;;) {
        u64 b = rnd();
        if (((b >> 52) & 0x7FF) != 0x7FF) return bitsd(b);
    }
}

typedef struct rd {
    const u8 *end; /* NULL on error */
    tyjson__num n;
    tyjson_status err;
    usize err_off;
} rd;

/* Reads s[0..len) from an exactly sized heap copy, so that ASan catches any
 * read past `end`. */
static rd read_exact(const char *s, usize len, u32 flags) {
    rd r;
    memset(&r, 0, sizeof r);
    u8 *buf = (u8 *)malloc(len ? len : 1);
    memcpy(buf, s, len);
    const u8 *ep = NULL;
    r.err = TYJSON_OK;
    r.end = tyjson__num_read(buf, buf + len, flags, &r.n, &r.err, &ep);
    if (r.end)
        r.end = (const u8 *)s + (r.end - buf);
    else
        r.err_off = (usize)(ep - buf);
    free(buf);
    return r;
}

/* The same text followed by a delimiter and more digits, with room to spare:
 * the reader's fast path, which loads 8 bytes at a time ahead. */
static rd read_padded(const char *s, usize len, u32 flags) {
    static const char delims[] = ",] }\n:";
    static unsigned turn;
    rd r;
    memset(&r, 0, sizeof r);
    u8 *buf = (u8 *)malloc(len + 128);
    memcpy(buf, s, len);
    buf[len] = (u8)delims[turn++ % (sizeof delims - 1)];
    memset(buf + len + 1, '7', 127);
    const u8 *ep = NULL;
    r.err = TYJSON_OK;
    r.end = tyjson__num_read(buf, buf + len + 128, flags, &r.n, &r.err, &ep);
    if (r.end)
        r.end = (const u8 *)s + (r.end - buf);
    else
        r.err_off = (usize)(ep - buf);
    free(buf);
    return r;
}

/* Both ways, which must agree exactly: kind, value bits, end, error. */
static rd read_n(const char *s, usize len, u32 flags) {
    rd a = read_exact(s, len, flags), b = read_padded(s, len, flags);
    bool same = a.end == b.end && a.err == b.err && a.err_off == b.err_off;
    if (same && a.end) same = a.n.kind == b.n.kind && a.n.v.u == b.n.v.u;
    if (!same)
        TEST_FAIL("\"%.*s\": exact end %td err %d at %zu kind %d %#" PRIx64
                  ", padded end %td err %d at %zu kind %d %#" PRIx64,
                  (int)len, s, a.end ? a.end - (const u8 *)s : -1, (int)a.err, a.err_off,
                  (int)a.n.kind, a.n.v.u, b.end ? b.end - (const u8 *)s : -1, (int)b.err,
                  b.err_off, (int)b.n.kind, b.n.v.u);
    return a;
}
static rd read_s(const char *s, u32 flags) { return read_n(s, strlen(s), flags); }

/* Reads s, which must be one whole number, as a double (integers converted). */
static double read_as_double(const char *s, int *ok) {
    rd r = read_s(s, 0);
    *ok = r.end == (const u8 *)s + strlen(s);
    if (!r.end) return 0;
    switch (r.n.kind) {
    case TYJSON__NUM_UINT: return (double)r.n.v.u;
    case TYJSON__NUM_SINT: return (double)r.n.v.i;
    case TYJSON__NUM_REAL: return r.n.v.f;
    default: *ok = 0; return 0;
    }
}

/* As read_as_double, with a range error read as the infinity strtod gives. */
static double read_or_inf(const char *s, int *ok) {
    rd r = read_s(s, 0);
    if (!r.end && r.err == TYJSON_E_NUMBER_RANGE) {
        *ok = 1;
        return s[0] == '-' ? -INFINITY : INFINITY;
    }
    return read_as_double(s, ok);
}

static const char *w64(double d, char *buf) {
    *tyjson__f64_write(d, buf) = 0;
    return buf;
}
static const char *w32(float f, char *buf) {
    *tyjson__f32_write(f, buf) = 0;
    return buf;
}

#define CHECK_VS_STRTOD(s)                                                     \
    do {                                                                       \
        const char *cs__ = (s);                                                \
        int ok__;                                                              \
        double got__ = read_or_inf(cs__, &ok__);                            \
        if (!ok__) TEST_FAIL("could not read \"%s\"", cs__);                   \
        double want__ = strtod(cs__, NULL);                                    \
        if (dbits(got__) != dbits(want__))                                     \
            TEST_FAIL("\"%s\": got %a, strtod %a", cs__, got__, want__);       \
    } while (0)

/* ----------------------------------------------------------------------------
 * Integers
 * ------------------------------------------------------------------------- */
TEST(int_values) {
    static const struct {
        const char *s;
        int kind;
        u64 v;
    } cases[] = {
        {"0", TYJSON__NUM_UINT, 0},
        {"1", TYJSON__NUM_UINT, 1},
        {"9", TYJSON__NUM_UINT, 9},
        {"10", TYJSON__NUM_UINT, 10},
        {"1234567890", TYJSON__NUM_UINT, 1234567890u},
        {"9999999999999999999", TYJSON__NUM_UINT, 9999999999999999999u},
        {"10000000000000000000", TYJSON__NUM_UINT, 10000000000000000000u},
        {"18446744073709551615", TYJSON__NUM_UINT, 18446744073709551615u},
        {"9223372036854775807", TYJSON__NUM_UINT, 9223372036854775807u},
        {"9223372036854775808", TYJSON__NUM_UINT, 9223372036854775808u},
        {"-1", TYJSON__NUM_SINT, (u64)-1},
        {"-9", TYJSON__NUM_SINT, (u64)-9},
        {"-1234567890", TYJSON__NUM_SINT, (u64)-1234567890},
        {"-9223372036854775807", TYJSON__NUM_SINT, (u64)(-INT64_MAX)},
        {"-9223372036854775808", TYJSON__NUM_SINT, (u64)INT64_MIN},
    };
    for (usize i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rd r = read_s(cases[i].s, 0);
        ASSERT_NOT_NULL(r.end);
        ASSERT_EQ_INT(r.end - (const u8 *)cases[i].s, strlen(cases[i].s));
        ASSERT_EQ_INT(r.n.kind, cases[i].kind);
        if (cases[i].kind == TYJSON__NUM_UINT)
            ASSERT_EQ_UINT(r.n.v.u, cases[i].v);
        else
            ASSERT_EQ_INT(r.n.v.i, (i64)cases[i].v);
    }
}

TEST(int_random_vs_strtoull) {
    char buf[32];
    for (int i = 0; i < SCALE(200000); i++) {
        u64 v = rnd() >> (rnd() % 64);
        bool neg = rnd() & 1;
        if (neg && v > (u64)INT64_MAX + 1) v >>= 1;
        if (neg && v == 0) v = 1;
        snprintf(buf, sizeof buf, neg ? "-%" PRIu64 : "%" PRIu64, v);
        rd r = read_s(buf, 0);
        ASSERT_NOT_NULL(r.end);
        if (neg) {
            ASSERT_EQ_INT(r.n.kind, TYJSON__NUM_SINT);
            ASSERT_EQ_INT(r.n.v.i, strtoll(buf, NULL, 10));
        } else {
            ASSERT_EQ_INT(r.n.kind, TYJSON__NUM_UINT);
            ASSERT_EQ_UINT(r.n.v.u, v);
        }
    }
}

/* Integers of 8 to 10 digits, where the fast path's second 8-byte word
 * holds 0 to 2 digits (9 digits take a shortcut of their own), as integers
 * and as the integer part of reals, signed and not, both ways. */
TEST(int_nine_digits) {
    static const char *const tails[] = {"", ".5", "e3", ".25e-2", "E+1"};
    char buf[48];
    for (int i = 0; i < SCALE(30000); i++) {
        int nd = 8 + (int)(rnd() % 3);
        u64 v = 1 + rnd() % 9;
        for (int d = 1; d < nd; d++) v = v * 10 + rnd() % 10;
        bool neg = rnd() & 1;
        const char *tail = tails[rnd() % (sizeof tails / sizeof tails[0])];
        snprintf(buf, sizeof buf, "%s%" PRIu64 "%s", neg ? "-" : "", v, tail);
        rd r = read_n(buf, strlen(buf), 0);
        ASSERT_NOT_NULL(r.end);
        ASSERT_EQ_INT(r.end - (const u8 *)buf, strlen(buf));
        if (!*tail) {
            ASSERT_EQ_INT(r.n.kind, neg ? TYJSON__NUM_SINT : TYJSON__NUM_UINT);
            if (neg) ASSERT_EQ_INT(r.n.v.i, -(i64)v);
            else ASSERT_EQ_UINT(r.n.v.u, v);
        } else {
            ASSERT_EQ_INT(r.n.kind, TYJSON__NUM_REAL);
            double want = strtod(buf, NULL);
            ASSERT_TRUE(memcmp(&r.n.v.f, &want, sizeof want) == 0);
        }
    }
}

TEST(int_out_of_range) {
    static const char *const big[] = {
        "18446744073709551616", "18446744073709551625", "18446744073709551699",
        "19999999999999999999", "99999999999999999999", "100000000000000000000",
        "-9223372036854775809", "-9999999999999999999", "-18446744073709551615",
        "-18446744073709551616", "123456789012345678901234567890",
    };
    for (usize i = 0; i < sizeof big / sizeof big[0]; i++) {
        const char *s = big[i];
        rd r = read_s(s, 0);
        ASSERT_NULL(r.end);
        ASSERT_EQ_INT(r.err, TYJSON_E_NUMBER_RANGE);
        ASSERT_EQ_INT(r.err_off, 0);
        r = read_s(s, TYJSON_READ_BIGNUM_AS_RAW);
        ASSERT_NOT_NULL(r.end);
        ASSERT_EQ_INT(r.n.kind, TYJSON__NUM_RAW);
        ASSERT_EQ_INT(r.end - (const u8 *)s, strlen(s));
    }
    /* the RAW text ends where the number ends */
    const char *s = "18446744073709551616,1";
    rd r = read_s(s, TYJSON_READ_BIGNUM_AS_RAW);
    ASSERT_EQ_INT(r.end - (const u8 *)s, 20);
}

TEST(negative_zero) {
    static const char *const negz[] = {"-0", "-0.0", "-0e0", "-0E+5", "-0.000e-3", "-1e-999999999"};
    for (usize i = 0; i < sizeof negz / sizeof negz[0]; i++) {
        rd r = read_s(negz[i], 0);
        ASSERT_NOT_NULL(r.end);
        ASSERT_EQ_INT(r.n.kind, TYJSON__NUM_REAL);
        ASSERT_EQ_DBL_BITS(r.n.v.f, -0.0);
    }
    rd r = read_s("0", 0);
    ASSERT_EQ_INT(r.n.kind, TYJSON__NUM_UINT);
    ASSERT_EQ_UINT(r.n.v.u, 0);
    static const char *const posz[] = {"0.0", "0e0", "0e999999999", "0.00000000000000000000000000", "1e-400"};
    for (usize i = 0; i < sizeof posz / sizeof posz[0]; i++) {
        r = read_s(posz[i], 0);
        ASSERT_NOT_NULL(r.end);
        ASSERT_EQ_INT(r.n.kind, TYJSON__NUM_REAL);
        ASSERT_EQ_DBL_BITS(r.n.v.f, 0.0);
    }
}

/* ----------------------------------------------------------------------------
 * Grammar, error positions, the end bound
 * ------------------------------------------------------------------------- */
TEST(grammar_errors) {
    static const struct {
        const char *s;
        usize at;
    } bad[] = {
        {"-", 1},     {"-a", 1},    {"--1", 1},  {"-.5", 1},   {"- 1", 1},   {"01", 1},
        {"00", 1},    {"-01", 2},   {"007", 1},  {"1.", 2},    {"1.e5", 2},  {"1.a", 2},
        {"-1.", 3},   {"0.", 2},    {"1e", 2},   {"1E", 2},    {"1e+", 3},   {"1e-", 3},
        {"1ea", 2},   {"1e+a", 3},  {"1.5e", 4}, {"1.5E-", 5}, {"12.34e+", 7}, {"0e", 2},
    };
    for (usize i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rd r = read_s(bad[i].s, 0);
        if (r.end) TEST_FAIL("\"%s\" was accepted", bad[i].s);
        ASSERT_EQ_INT(r.err, TYJSON_E_NUMBER);
        if (r.err_off != bad[i].at)
            TEST_FAIL("\"%s\": error at %zu, want %zu", bad[i].s, r.err_off, bad[i].at);
    }
}

TEST(number_end) {
    /* what follows is not checked: the number ends before it */
    static const struct {
        const char *s;
        usize len;
    } cases[] = {
        {"12,", 2},    {"1.5]", 3},   {"-7}", 2},     {"0 ", 1},     {"1e5x", 3},
        {"2.5e-3\"", 6}, {"0.5.5", 3}, {"1e5e5", 3},   {"0x10", 1},   {"1E+2+", 4},
        {"-0-", 2},    {"3-", 1},     {"123abc", 3},
    };
    for (usize i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rd r = read_s(cases[i].s, 0);
        ASSERT_NOT_NULL(r.end);
        ASSERT_EQ_INT(r.end - (const u8 *)cases[i].s, cases[i].len);
    }
}

TEST(end_bound) {
    rd r = read_n("123", 2, 0);
    ASSERT_NOT_NULL(r.end);
    ASSERT_EQ_INT(r.n.kind, TYJSON__NUM_UINT);
    ASSERT_EQ_UINT(r.n.v.u, 12);
    r = read_n("1.5", 2, 0); /* "1." */
    ASSERT_NULL(r.end);
    ASSERT_EQ_INT(r.err_off, 2);
    r = read_n("1e5", 2, 0); /* "1e" */
    ASSERT_NULL(r.end);
    ASSERT_EQ_INT(r.err_off, 2);
    r = read_n("1e+5", 3, 0);
    ASSERT_NULL(r.end);
    ASSERT_EQ_INT(r.err_off, 3);
    r = read_n("-5", 1, 0);
    ASSERT_NULL(r.end);
    ASSERT_EQ_INT(r.err_off, 1);
    r = read_n("0123", 1, 0); /* "0": the 1 is past the end */
    ASSERT_NOT_NULL(r.end);
    ASSERT_EQ_UINT(r.n.v.u, 0);
    r = read_n("1.25e3", 4, 0); /* "1.25" */
    ASSERT_NOT_NULL(r.end);
    ASSERT_EQ_DBL_BITS(r.n.v.f, 1.25);
    r = read_n("18446744073709551616", 19, 0);
    ASSERT_EQ_UINT(r.n.v.u, 1844674407370955161u);
    /* every prefix of a long number, from an exactly sized buffer */
    const char *s = "-12345678901234567890.1234567890123456789e-12345";
    usize n = strlen(s);
    for (usize len = 1; len <= n; len++) {
        r = read_n(s, len, TYJSON_READ_BIGNUM_AS_RAW);
        if (r.end) ASSERT_TRUE(r.end <= (const u8 *)s + len);
    }
}

/* ----------------------------------------------------------------------------
 * Doubles: known hard cases
 * ------------------------------------------------------------------------- */
TEST(real_known_values) {
    static const struct {
        const char *s;
        double want;
    } cases[] = {
        {"1.7976931348623157e308", DBL_MAX},
        {"1.7976931348623158e308", DBL_MAX},
        {"2.2250738585072014e-308", DBL_MIN},
        {"2.2250738585072011e-308", 0x0.fffffffffffffp-1022},
        {"2.2250738585072012e-308", 0x1p-1022},
        {"4.9406564584124654e-324", 0x1p-1074},
        {"5e-324", 0x1p-1074},
        {"2.4703282292062328e-324", 0x1p-1074}, /* just above half of 2^-1074 */
        {"2.4703282292062327e-324", 0.0},       /* just below */
        {"9007199254740993.0", 9007199254740992.0},
        {"9007199254740993e0", 9007199254740992.0},
        {"9007199254740995.0", 9007199254740996.0},
        {"9007199254740993.0000000000000000000000001", 9007199254740994.0},
        {"4503599627370496.5", 4503599627370496.0},
        {"4503599627370497.5", 4503599627370498.0},
        {"0.1000000000000000055511151231257827021181583404541015625", 0.1},
        {"0.1000000000000000055511151231257827021181583404541015624", 0.1},
        {"0.1", 0.1},
        {"1e23", 1e23},
        {"8.98846567431158e307", 0x1p1023},
        {"3.141592653589793238462643383279502884197", 3.141592653589793},
        {"1e-7", 1e-7},
        {"123.456", 123.456},
        {"1e0000000000000000000000000000001", 10.0},
        {"10000000000000000000000000000000000000000e-40", 1.0},
        {"0.0000000000000000000000000000000000000001e40", 1.0},
    };
    for (usize i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rd r = read_s(cases[i].s, 0);
        ASSERT_NOT_NULL(r.end);
        ASSERT_EQ_INT(r.n.kind, TYJSON__NUM_REAL);
        if (dbits(r.n.v.f) != dbits(cases[i].want))
            TEST_FAIL("\"%s\": got %a want %a", cases[i].s, r.n.v.f, cases[i].want);
        CHECK_VS_STRTOD(cases[i].s);
    }
}

/* The one-fraction-digit shortcut of the fast path and the shapes next to
 * it that must leave it: exponents, more digits, a large integer part. */
TEST(real_one_fraction_digit) {
    static const char *const cases[] = {
        "0.5", "9.5", "95.5", "-95.5", "50.0", "149.0", "0.0", "-0.0", "100.1", "7.3",
        "562949953421311.9",  /* integer part 2^49 - 1 */
        "562949953421312.9",  /* 2^49 */
        "123456789012345.6", "999999999999999.9", "1.5e3", "1.5E-3", "2.5e+1", "3.25",
        "4.0e0", "-1.1", "1.9999999999999999", "0.1e1",
    };
    for (usize i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rd r = read_s(cases[i], 0);
        ASSERT_NOT_NULL(r.end);
        ASSERT_EQ_INT(r.n.kind, TYJSON__NUM_REAL);
        ASSERT_TRUE(r.end == (const u8 *)cases[i] + strlen(cases[i]));
        CHECK_VS_STRTOD(cases[i]);
    }
    rd r = read_s("-0.0", 0);
    ASSERT_TRUE(signbit(r.n.v.f));
    /* the number ends after the digit; what follows is the caller's */
    const char *two = "2.5.1";
    r = read_s(two, 0);
    ASSERT_TRUE(r.end == (const u8 *)two + 3);
    ASSERT_EQ_DBL_BITS(r.n.v.f, 2.5);
    r = read_s("1.", 0);
    ASSERT_NULL(r.end);
    r = read_s("1.e5", 0);
    ASSERT_NULL(r.end);
}

TEST(real_overflow) {
    static const char *const big[] = {"1e309", "1e400", "1.7976931348623159e308",
                                      "-1e400", "1e999999999", "123456789e999999999999999999",
                                      "179769313486231580793728971405303415079934132710037826936173"
                                      "778980444968292764750946649017977587207096330286416692887910"
                                      "946555547851940402630657488671505820681908902000708383676273"
                                      "854845817711531764475730270069855571366959622842914819860834"
                                      "936475292719074168444365510704342711559699508093042880177904"
                                      "174497792.0"};
    for (usize i = 0; i < sizeof big / sizeof big[0]; i++) {
        rd r = read_s(big[i], 0);
        ASSERT_NULL(r.end);
        ASSERT_EQ_INT(r.err, TYJSON_E_NUMBER_RANGE);
        ASSERT_EQ_INT(r.err_off, 0);
        r = read_s(big[i], TYJSON_READ_BIGNUM_AS_RAW);
        ASSERT_NOT_NULL(r.end);
        ASSERT_EQ_INT(r.n.kind, TYJSON__NUM_RAW);
        ASSERT_EQ_INT(r.end - (const u8 *)big[i], strlen(big[i]));
    }
    /* just below the overflow threshold (max + half an ulp, which ties up) */
    CHECK_VS_STRTOD("179769313486231580793728971405303415079934132710037826936173"
                    "778980444968292764750946649017977587207096330286416692887910"
                    "946555547851940402630657488671505820681908902000708383676273"
                    "854845817711531764475730270069855571366959622842914819860834"
                    "936475292719074168444365510704342711559699508093042880177904"
                    "174497791.9999999999999999999999999999999999");
}

TEST(real_underflow) {
    static const char *const tiny[] = {"1e-324", "2e-324", "1e-400", "1e-999999999",
                                       "0.00000000000000000000000000000000000000000000000000000000"
                                       "0000000000000000000000000000000000000000000000000000000000"
                                       "0000000000000000000000000000000000000000000000000000000000"
                                       "0000000000000000000000000000000000000000000000000000000000"
                                       "0000000000000000000000000000000000000000000000000000000000"
                                       "00000000000000000000000000000000000000000000000000000001"};
    for (usize i = 0; i < sizeof tiny / sizeof tiny[0]; i++) {
        rd r = read_s(tiny[i], 0);
        ASSERT_NOT_NULL(r.end);
        ASSERT_EQ_INT(r.n.kind, TYJSON__NUM_REAL);
        ASSERT_EQ_DBL_BITS(r.n.v.f, 0.0);
    }
    CHECK_VS_STRTOD("3e-324");
    CHECK_VS_STRTOD("7.4109846876186982e-324");
}

/* Many digits: leading and trailing zeros, and mantissas far past 19 digits. */
TEST(real_long_inputs) {
    usize n = 100000;
    char *s = (char *)malloc(n + 64);
    /* 1 followed by zeros, with an exponent that cancels them */
    s[0] = '1';
    memset(s + 1, '0', 999);
    strcpy(s + 1000, "e-999");
    CHECK_VS_STRTOD(s);
    /* 0.000...0001 with 1000 zeros, scaled back */
    strcpy(s, "0.");
    memset(s + 2, '0', 999);
    strcpy(s + 1001, "1e1000");
    CHECK_VS_STRTOD(s);
    /* 100k significant digits */
    for (usize i = 0; i < n; i++) s[i] = (char)('1' + i % 9);
    strcpy(s + n, "e-99990");
    CHECK_VS_STRTOD(s);
    /* as an integer it is out of range */
    s[n] = 0;
    rd r = read_s(s, 0);
    ASSERT_NULL(r.end);
    ASSERT_EQ_INT(r.err, TYJSON_E_NUMBER_RANGE);
    /* 0.(100k digits) */
    s[0] = '0';
    s[1] = '.';
    CHECK_VS_STRTOD(s);
    /* halfway between 1 and its successor, then a 1 far away */
    strcpy(s, "1.00000000000000011102230246251565404236316680908203125");
    CHECK_VS_STRTOD(s); /* tie: to even, 1.0 */
    usize len = strlen(s);
    memset(s + len, '0', 5000);
    strcpy(s + len + 5000, "1");
    CHECK_VS_STRTOD(s); /* just above: up */
    free(s);
}

/* Exact halfway points between neighbouring doubles (printed exactly through
 * 80-bit long double), and strings just above and below them: these decide
 * the last bit only by the digits far out, the big-integer path. */
static void halfway_checks(double x) {
    double y = nextafter(x, INFINITY);
    if (isinf(y)) return;
    char buf[1200];
    long double h = ((long double)x + (long double)y) / 2;
    int len = snprintf(buf, sizeof buf - 40, "%.1000Le", h);
    if (len <= 0 || len >= (int)sizeof buf - 40) return;
    char *e = strchr(buf, 'e');
    usize ed = (usize)(e - buf);
    char exp[16];
    snprintf(exp, sizeof exp, "%s", e);
    /* trim trailing zeros of the mantissa, keeping "d." */
    while (buf[ed - 1] == '0') ed--;
    char s[1300];
    snprintf(s, sizeof s, "%.*s%s", (int)(buf[ed - 1] == '.' ? ed - 1 : ed), buf, exp);
    CHECK_VS_STRTOD(s); /* the tie itself */
    snprintf(s, sizeof s, "%.*s0000000001%s", (int)ed, buf, exp);
    CHECK_VS_STRTOD(s); /* just above */
    if (buf[ed - 1] == '.') return; /* a single digit: no simple "just below" */
    /* just below: decrement the last digit (it is nonzero) and append 9s */
    snprintf(s, sizeof s, "%.*s", (int)ed, buf);
    s[ed - 1]--;
    snprintf(s + ed, sizeof s - ed, "99999999%s", exp);
    CHECK_VS_STRTOD(s);
}

TEST(real_halfway_long_mantissas) {
#if LDBL_MANT_DIG < 64
    TEST_SKIP("needs an 80-bit long double to print halfway points");
#else
    static const double fixed[] = {0.0, 1.0, 0.1, 9007199254740992.0, DBL_MAX / 2, DBL_MIN,
                                   0x1p-1074, 0x1p-1060, 0x0.fffffffffffffp-1022, 1e300, 1e-300,
                                   123.456, 0x1p52, 5e-324, 1e22, 1e23};
    for (usize i = 0; i < sizeof fixed / sizeof fixed[0]; i++) halfway_checks(fixed[i]);
    for (int i = 0; i < SCALE(1000); i++) halfway_checks(fabs(rnd_double()));
    /* small-exponent ties, where halfway points have few digits */
    for (int i = 0; i < SCALE(5000); i++) {
        double x = ldexp((double)(rnd() >> 11), (int)(rnd() % 80) - 60);
        halfway_checks(x);
    }
#endif
}

/* ----------------------------------------------------------------------------
 * Doubles: randomized differential test against strtod
 * ------------------------------------------------------------------------- */
TEST(real_random_bits_vs_strtod) {
    char buf[64];
    for (int i = 0; i < SCALE(200000); i++) {
        double d = rnd_double();
        snprintf(buf, sizeof buf, "%.17g", d);
        CHECK_VS_STRTOD(buf);
        /* a shorter form: a different, nearby decimal */
        snprintf(buf, sizeof buf, "%.*g", 1 + (int)(rnd() % 16), d);
        CHECK_VS_STRTOD(buf);
    }
}

TEST(real_all_precisions_vs_strtod) {
    char buf[64];
    for (int i = 0; i < SCALE(10000); i++) {
        double d = rnd_double();
        for (int p = 1; p <= 17; p++) {
            snprintf(buf, sizeof buf, "%.*e", p - 1, d);
            CHECK_VS_STRTOD(buf);
        }
    }
}

/* Random decimal strings: 1 to 40 digits, a point anywhere, any exponent
 * near the double range (including long mantissas past 19 digits). */
TEST(real_random_decimals_vs_strtod) {
    char buf[128];
    for (int i = 0; i < SCALE(200000); i++) {
        int nd = 1 + (int)(rnd() % 40), pt = (int)(rnd() % (u64)(nd + 1));
        char *p = buf;
        if (rnd() & 1) *p++ = '-';
        int lead = (int)(rnd() % 4) == 0; /* sometimes 0.000ddd */
        if (lead) {
            *p++ = '0';
            *p++ = '.';
            for (int z = (int)(rnd() % 30); z > 0; z--) *p++ = '0';
            pt = -1;
        }
        for (int k = 0; k < nd; k++) {
            if (k == pt && k > 0) *p++ = '.';
            int dig = (int)(rnd() % 10);
            /* runs of 0s and 9s make near-ties and carries */
            if (rnd() % 4 == 0) dig = (rnd() & 1) ? 9 : 0;
            if (k == 0 && !lead && dig == 0) dig = 1;
            *p++ = (char)('0' + dig);
        }
        int e = (int)(rnd() % 700) - 360;
        sprintf(p, "e%d", e);
        CHECK_VS_STRTOD(buf);
    }
}

/* The fast path's real without exponent (num_inline.h): a Clinger division
 * while the digits fit 2^53, scaled_bits above, the general reader past 19
 * digits or 15 fraction digits. Every point position of mantissas at those
 * edges, then random ones, against strtod. */
TEST(real_fraction_fast_edges) {
    static const char *const mants[] = {
        "9007199254740991", "9007199254740992", "9007199254740993", "9007199254740994",
        "9007199254740995", "1000000000000000", "9999999999999999", "99999999999999999",
        "1234567890123456789", "9999999999999999999", "18446744073709551615",
        "18446744073709551616", "12345678901234567890", "10000000000000000001",
        "1000000000000000000000", "2225073858507201", "17976931348623157",
    };
    char buf[64];
    for (usize i = 0; i < sizeof mants / sizeof mants[0]; i++) {
        int len = (int)strlen(mants[i]);
        for (int k = 1; k < len; k++)
            for (int neg = 0; neg < 2; neg++) {
                snprintf(buf, sizeof buf, "%s%.*s.%s", neg ? "-" : "", k, mants[i], mants[i] + k);
                rd r = read_s(buf, 0);
                ASSERT_NOT_NULL(r.end);
                ASSERT_EQ_INT(r.n.kind, TYJSON__NUM_REAL);
                ASSERT_EQ_INT(r.end - (const u8 *)buf, strlen(buf));
                CHECK_VS_STRTOD(buf);
            }
    }
    /* 1 to 17 fraction digits after 0 to 5 integer digits, and 0.000ddd */
    for (int i = 0; i < SCALE(200000); i++) {
        char *p = buf;
        if (rnd() & 1) *p++ = '-';
        int ni = (int)(rnd() % 6), nf = 1 + (int)(rnd() % 17);
        if (ni == 0) *p++ = '0';
        for (int k = 0; k < ni; k++) *p++ = (char)('0' + (k == 0 ? 1 + rnd() % 9 : rnd() % 10));
        *p++ = '.';
        int zeros = (rnd() & 3) == 0 ? (int)(rnd() % 8) : 0;
        for (int k = 0; k < nf; k++) {
            int dig = k < zeros ? 0 : (int)(rnd() % 10);
            if (rnd() % 5 == 0) dig = (rnd() & 1) ? 9 : 0;
            *p++ = (char)('0' + dig);
        }
        *p = 0;
        rd r = read_s(buf, 0);
        ASSERT_NOT_NULL(r.end);
        ASSERT_EQ_INT(r.end - (const u8 *)buf, strlen(buf));
        CHECK_VS_STRTOD(buf);
        /* the same followed by a delimiter, an exponent or another point */
        static const char *const tails[] = {",", "]", " ", "e0", "E-3", "e+22", "e-22", "e23", ".5"};
        const char *t = tails[rnd() % (sizeof tails / sizeof tails[0])];
        usize n = strlen(buf);
        strcpy(p, t);
        r = read_s(buf, 0);
        ASSERT_NOT_NULL(r.end);
        if (t[0] == 'e' || t[0] == 'E') {
            ASSERT_EQ_INT(r.end - (const u8 *)buf, strlen(buf));
            CHECK_VS_STRTOD(buf);
        } else {
            ASSERT_EQ_INT(r.end - (const u8 *)buf, n);
        }
    }
    /* exponents at Clinger's edge (10^22 is exact, 10^23 is not) */
    static const char *const exps[] = {
        "1.5e22", "1.5e23", "9.007199254740993e22", "9.007199254740991e22", "1.5e-22",
        "1.5e-23", "0.5e-21", "123.456e20", "9007199254740991e-22", "9007199254740993e-22",
        "4.9e-324", "2.4703282292062328e-324", "1.7976931348623157e308", "1.7976931348623159e308",
        "2.2250738585072014e-308", "0.1e1", "1.0e0",
    };
    for (usize i = 0; i < sizeof exps / sizeof exps[0]; i++) CHECK_VS_STRTOD(exps[i]);
    /* negative zero keeps its sign in every form the fast path reads */
    static const char *const negz[] = {"-0.0", "-0.0000000", "-0.00000000", "-0.000000000000000",
                                       "-0.0000000000000000", "-0.00000000000000000000", "-0.0e5"};
    for (usize i = 0; i < sizeof negz / sizeof negz[0]; i++) {
        rd r = read_s(negz[i], 0);
        ASSERT_NOT_NULL(r.end);
        ASSERT_EQ_INT(r.n.kind, TYJSON__NUM_REAL);
        ASSERT_EQ_DBL_BITS(r.n.v.f, -0.0);
    }
}

/* ----------------------------------------------------------------------------
 * Writing doubles
 * ------------------------------------------------------------------------- */
TEST(f64_write_table) {
    static const struct {
        double v;
        const char *want;
    } cases[] = {
        {0.0, "0.0"},
        {-0.0, "-0.0"},
        {0.1, "0.1"},
        {-0.1, "-0.1"},
        {1.0, "1.0"},
        {50.0, "50.0"},
        {-50.0, "-50.0"},
        {123.456, "123.456"},
        {1.5, "1.5"},
        {1e21, "1e21"},
        {1e20, "100000000000000000000.0"},
        {123456789012345680000.0, "123456789012345680000.0"},
        {1234567890123456800000.0, "1.2345678901234568e21"},
        {1e-7, "1e-7"},
        {1.5e-7, "1.5e-7"},
        {0.000001, "0.000001"},
        {0.0000012345, "0.0000012345"},
        {5e-324, "5e-324"},
        {-5e-324, "-5e-324"},
        {1e300, "1e300"},
        {1.5e300, "1.5e300"},
        {DBL_MAX, "1.7976931348623157e308"},
        {DBL_MIN, "2.2250738585072014e-308"},
        {0x0.fffffffffffffp-1022, "2.225073858507201e-308"},
        {9007199254740992.0, "9007199254740992.0"},
        {9007199254740996.0, "9007199254740996.0"},
        {18446744073709551616.0, "18446744073709552000.0"},
        {0.3, "0.3"},
        {0.1 + 0.2, "0.30000000000000004"},
        {2.0 / 3.0, "0.6666666666666666"},
        {100.0, "100.0"},
        {1e15, "1000000000000000.0"},
        {1e16, "10000000000000000.0"},
        {1e17, "100000000000000000.0"},
        {1e22, "1e22"},
        {1e23, "1e23"},
        {12.0, "12.0"},
        {1.25, "1.25"},
        {0.001, "0.001"},
        {1e-6, "0.000001"},
        {9.999999999999997e-7, "9.999999999999997e-7"},
        {3.14159, "3.14159"},
        {-65.613616999999977, "-65.61361699999998"},
        {0x1p-44, "5.684341886080802e-14"},
        {0x1p-1022, "2.2250738585072014e-308"},
        {4.35, "4.35"},
        {2.5e-5, "0.000025"},
    };
    char buf[TYJSON__NUM_MAX_CHARS + 1];
    for (usize i = 0; i < sizeof cases / sizeof cases[0]; i++)
        ASSERT_EQ_STR(w64(cases[i].v, buf), cases[i].want);
}

/* Every output reads back to the same bits, through our reader and strtod. */
TEST(f64_round_trip) {
    char buf[TYJSON__NUM_MAX_CHARS + 1];
    for (int i = 0; i < SCALE(1000000); i++) {
        double d = rnd_double();
        char *end = tyjson__f64_write(d, buf);
        ASSERT_TRUE(end - buf <= 25);
        *end = 0;
        rd r = read_s(buf, 0);
        if (!r.end || r.end != (const u8 *)buf + (end - buf) || r.n.kind != TYJSON__NUM_REAL ||
            dbits(r.n.v.f) != dbits(d))
            TEST_FAIL("%a wrote \"%s\", read back %a", d, buf, r.n.v.f);
    }
}

/* Significant digits of a written number, the exponent dropped. */
static int sig_digits(const char *s, char *digits) {
    int n = 0;
    bool started = false;
    for (; *s && *s != 'e'; s++) {
        if (*s < '0' || *s > '9') continue;
        if (*s == '0' && !started) continue;
        started = true;
        digits[n++] = *s;
    }
    while (n > 0 && digits[n - 1] == '0') n--; /* trailing zeros of integers */
    digits[n] = 0;
    return n;
}

/* Shortest: no decimal with fewer digits reads back, and for the same
 * length ours is the nearest one, which is what %.{p}e prints. Checking only
 * n - 1 digits suffices: if the nearest p-digit decimal reads back, so does
 * the nearest (p+1)-digit one, which is no farther. A power of two has a
 * lopsided interval: the nearest n-digit decimal may fall outside while a
 * farther one is inside, so there ours may differ from %.{n}e. */
static void check_shortest(double d) {
    char ours[64], od[32], ref[64], rd_[32];
    w64(d, ours);
    if (dbits(strtod(ours, NULL)) != dbits(d)) TEST_FAIL("%a wrote \"%s\"", d, ours);
    int n = sig_digits(ours, od);
    if (n > 1) {
        snprintf(ref, sizeof ref, "%.*e", n - 2, d);
        if (strtod(ref, NULL) == d)
            TEST_FAIL("%a: wrote \"%s\", but \"%s\" is shorter", d, ours, ref);
    }
    if ((dbits(d) & (((u64)1 << 52) - 1)) == 0) return;
    snprintf(ref, sizeof ref, "%.*e", n - 1, d);
    sig_digits(ref, rd_);
    if (strcmp(od, rd_) != 0) TEST_FAIL("%a: wrote \"%s\", nearest is \"%s\"", d, ours, ref);
}

TEST(f64_shortest) {
    for (int i = 0; i < SCALE(200000); i++) check_shortest(fabs(rnd_double()));
    /* doubles that have short forms */
    char buf[64];
    for (int i = 0; i < SCALE(100000); i++) {
        snprintf(buf, sizeof buf, "%.*g", 1 + (int)(rnd() % 15), fabs(rnd_double()));
        double d = strtod(buf, NULL);
        if (!isinf(d)) check_shortest(d);
    }
    /* every power of two, and the mantissa ends of each binade */
    for (int e = -1074; e <= 1023; e++) {
        double x = ldexp(1.0, e);
        check_shortest(x);
        check_shortest(nextafter(x, 0));
        check_shortest(nextafter(x, INFINITY) < INFINITY ? nextafter(x, INFINITY) : x);
    }
    /* the smallest subnormals */
    for (u64 b = 1; b < 5000; b++) check_shortest(bitsd(b));
}

/* The layout rules of num.h, written plainly: digits d (no leading or
 * trailing zeros) times 10^x, x being the exponent of the first digit. */
static void ref_layout(const char *d, int x, char *out) {
    int n = (int)strlen(d);
    if (x >= 21 || x < -6) {
        out += sprintf(out, "%c", d[0]);
        if (n > 1) out += sprintf(out, ".%s", d + 1);
        sprintf(out, "e%d", x);
    } else if (x >= n - 1) {
        out += sprintf(out, "%s", d);
        for (int i = 0; i < x - n + 1; i++) *out++ = '0';
        strcpy(out, ".0");
    } else if (x >= 0) {
        sprintf(out, "%.*s.%s", x + 1, d, d + x + 1);
    } else {
        out += sprintf(out, "0.");
        for (int i = 0; i < -x - 1; i++) *out++ = '0';
        strcpy(out, d);
    }
}

/* Our text for d, re-laid out from its own digits and exponent by
 * ref_layout: every layout branch of the writer, whatever the digits. */
static void check_layout(double d) {
    char ours[64], digits[32], want[80];
    w64(d, ours);
    const char *s = ours;
    char *w = want;
    if (*s == '-') *w++ = *s++;
    /* significant digits, and x from where the point is relative to the
     * first of them, plus any exponent */
    int n = 0, pos = 0, first = -1, point_at = -1;
    const char *p = s;
    for (; *p && *p != 'e'; p++) {
        if (*p == '.') {
            point_at = pos;
            continue;
        }
        if (*p != '0' && first < 0) first = pos;
        if (first >= 0) digits[n++] = *p;
        pos++;
    }
    if (first < 0) return; /* 0.0 */
    if (point_at < 0) point_at = pos;
    int x = point_at - first - 1 + (*p == 'e' ? atoi(p + 1) : 0);
    while (n > 1 && digits[n - 1] == '0') n--;
    digits[n] = 0;
    ref_layout(digits, x, w);
    if (strcmp(ours, want) != 0)
        TEST_FAIL("%a: wrote \"%s\", the layout rules give \"%s\"", d, ours, want);
}

TEST(f64_layout) {
    for (int i = 0; i < SCALE(300000); i++) check_layout(rnd_double());
    char buf[64];
    for (int i = 0; i < SCALE(300000); i++) {
        /* few digits, all decimal exponents of plain notation and around */
        snprintf(buf, sizeof buf, "%.*ge%d", 1 + (int)(rnd() % 17),
                 (double)(rnd() % 1000000) / 1000.0, (int)(rnd() % 40) - 20);
        check_layout(strtod(buf, NULL));
        check_layout(-strtod(buf, NULL));
    }
    for (int e = -1074; e <= 1023; e++) check_layout(ldexp(1.0, e));
    for (u64 v = 1; v < 100000; v = v * 3 + 1) check_layout((double)v);
}

/* ----------------------------------------------------------------------------
 * Writing floats
 * ------------------------------------------------------------------------- */
TEST(f32_write_table) {
    static const struct {
        float v;
        const char *want;
    } cases[] = {
        {3.67f, "3.67"},       {0.1f, "0.1"},          {0.0f, "0.0"},
        {-0.0f, "-0.0"},       {1.0f, "1.0"},          {50.0f, "50.0"},
        {FLT_MAX, "3.4028235e38"}, {FLT_MIN, "1.1754944e-38"}, {0x1p-149f, "1e-45"},
        {16777216.0f, "16777216.0"}, {1e10f, "10000000000.0"}, {1.1f, "1.1"},
        {0.3f, "0.3"},         {123.456f, "123.456"},  {1e-7f, "1e-7"},
        {3.4e38f, "3.4e38"},
    };
    char buf[TYJSON__NUM_MAX_CHARS + 1];
    for (usize i = 0; i < sizeof cases / sizeof cases[0]; i++)
        ASSERT_EQ_STR(w32(cases[i].v, buf), cases[i].want);
}

static void check_f32(float f) {
    char ours[64], od[32], ref[64], rd_[32];
    w32(f, ours);
    if (fbits(strtof(ours, NULL)) != fbits(f)) TEST_FAIL("%a wrote \"%s\"", (double)f, ours);
    int n = sig_digits(ours, od);
    if (n > 1) {
        snprintf(ref, sizeof ref, "%.*e", n - 2, (double)f);
        if (strtof(ref, NULL) == f)
            TEST_FAIL("%a: wrote \"%s\", but \"%s\" is shorter", (double)f, ours, ref);
    }
    if ((fbits(f) & ((1u << 23) - 1)) == 0) return;
    snprintf(ref, sizeof ref, "%.*e", n - 1, (double)f);
    sig_digits(ref, rd_);
    if (strcmp(od, rd_) != 0)
        TEST_FAIL("%a: wrote \"%s\", nearest is \"%s\"", (double)f, ours, ref);
}

TEST(f32_round_trip_and_shortest) {
    for (int i = 0; i < SCALE(300000); i++) {
        u32 b = (u32)rnd();
        if (((b >> 23) & 0xFF) == 0xFF) continue;
        float f;
        memcpy(&f, &b, sizeof f);
        check_f32(f);
    }
    for (u32 b = 1; b < 3000; b++) { /* smallest subnormals */
        float f;
        memcpy(&f, &b, sizeof f);
        check_f32(f);
    }
    for (int e = -149; e <= 127; e++) check_f32(ldexpf(1.0f, e));
}

/* ----------------------------------------------------------------------------
 * Writing integers
 * ------------------------------------------------------------------------- */
static void check_u64(u64 v) {
    char ours[32], ref[32];
    *tyjson__u64_write(v, ours) = 0;
    snprintf(ref, sizeof ref, "%" PRIu64, v);
    ASSERT_EQ_STR(ours, ref);
}
static void check_i64(i64 v) {
    char ours[32], ref[32];
    *tyjson__i64_write(v, ours) = 0;
    snprintf(ref, sizeof ref, "%" PRId64, v);
    ASSERT_EQ_STR(ours, ref);
}

TEST(int_write) {
    u64 p = 1;
    for (int i = 0; i < 20; i++, p *= 10) {
        check_u64(p);
        check_u64(p - 1);
        check_u64(p + 1);
        check_i64((i64)(p >> 1));
        check_i64(-(i64)(p >> 1));
    }
    for (int i = 0; i < 64; i++) {
        check_u64((u64)1 << i);
        check_u64(((u64)1 << i) - 1);
    }
    check_u64(UINT64_MAX);
    check_i64(INT64_MIN);
    check_i64(INT64_MAX);
    check_i64(0);
    check_i64(-1);
    for (int i = 0; i < SCALE(200000); i++) {
        u64 v = rnd() >> (rnd() % 64);
        check_u64(v);
        check_i64((i64)v);
    }
}

/* The inline writers (num_inline.h) agree with the out-of-line ones. */
TEST(int_write_inline) {
    char a[TYJSON__NUM_MAX_CHARS], b[TYJSON__NUM_MAX_CHARS];
    for (u64 v = 0; v < 20000; v++) {
        char *ea = tyjson__u64_write_inline(v, a), *eb = tyjson__u64_write(v, b);
        ASSERT_EQ_INT(ea - a, eb - b);
        ASSERT_TRUE(memcmp(a, b, (usize)(ea - a)) == 0);
        ea = tyjson__i64_write_inline(-(i64)v, a);
        eb = tyjson__i64_write(-(i64)v, b);
        ASSERT_EQ_INT(ea - a, eb - b);
        ASSERT_TRUE(memcmp(a, b, (usize)(ea - a)) == 0);
    }
    for (int i = 0; i < SCALE(100000); i++) {
        u64 v = rnd() >> (rnd() % 64);
        char *ea = tyjson__u64_write_inline(v, a), *eb = tyjson__u64_write(v, b);
        ASSERT_EQ_INT(ea - a, eb - b);
        ASSERT_TRUE(memcmp(a, b, (usize)(ea - a)) == 0);
        ea = tyjson__i64_write_inline((i64)v, a);
        eb = tyjson__i64_write((i64)v, b);
        ASSERT_EQ_INT(ea - a, eb - b);
        ASSERT_TRUE(memcmp(a, b, (usize)(ea - a)) == 0);
    }
    i64 ext[] = {INT64_MIN, INT64_MIN + 1, -1, 0, INT64_MAX};
    for (usize i = 0; i < sizeof ext / sizeof ext[0]; i++) {
        char *ea = tyjson__i64_write_inline(ext[i], a), *eb = tyjson__i64_write(ext[i], b);
        ASSERT_EQ_INT(ea - a, eb - b);
        ASSERT_TRUE(memcmp(a, b, (usize)(ea - a)) == 0);
    }
}

/* The writers use the room after the text as scratch, but never reach
 * dst + TYJSON__NUM_MAX_CHARS. */
static void check_room(int kind, u64 bits) {
    char buf[TYJSON__NUM_MAX_CHARS + 32];
    memset(buf, 0x5A, sizeof buf);
    char *e;
    switch (kind) {
    case 0: e = tyjson__u64_write(bits, buf); break;
    case 1: e = tyjson__i64_write((i64)bits, buf); break;
    case 2: e = tyjson__f64_write(bitsd(bits), buf); break;
    default: {
        float f;
        u32 b32 = (u32)bits;
        memcpy(&f, &b32, sizeof f);
        e = tyjson__f32_write(f, buf);
    }
    }
    ASSERT_TRUE(e > buf && e <= buf + TYJSON__NUM_MAX_CHARS);
    for (usize i = TYJSON__NUM_MAX_CHARS; i < sizeof buf; i++)
        if (buf[i] != 0x5A) TEST_FAIL("kind %d, %#" PRIx64 ": wrote byte %zu", kind, bits, i);
}

TEST(write_room) {
    static const double reals[] = {-DBL_MAX, -DBL_MIN, -0x1p-1074, -1.2345678901234567e-300,
                                   -0.000001234567890123456, -1234567890123456789.0, -0.1,
                                   -1e21, -1e20, -123456789012345678.0, -1.0};
    for (usize i = 0; i < sizeof reals / sizeof reals[0]; i++) check_room(2, dbits(reals[i]));
    check_room(0, UINT64_MAX);
    check_room(1, (u64)INT64_MIN);
    check_room(3, fbits(-FLT_MAX));
    check_room(3, fbits(-0x1p-149f));
    for (int i = 0; i < SCALE(100000); i++) {
        u64 b = rnd();
        check_room(0, b >> (rnd() % 64));
        check_room(1, b >> (rnd() % 64));
        if (((b >> 52) & 0x7FF) != 0x7FF) check_room(2, b);
        if (((b >> 23) & 0xFF) != 0xFF) check_room(3, b & 0xFFFFFFFFu);
    }
}

int main(int argc, char **argv) { return test_main(argc, argv); }
