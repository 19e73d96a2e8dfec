/* test_utf8_wide.c - tyjson_utf8_measure and tyjson_utf8_widen (code
 * points of checked UTF-8, read/utf8_wide.c) against a plain decoder: text
 * of each width (ASCII, Latin-1, BMP, astral, mixed) at every length and
 * offset around the 8-byte steps, in exact heap copies (a read past the
 * end is a sanitizer error); then bytes that are not UTF-8, where only the
 * bounds are promised. */
#include "test.h"
#include "tyjson.h"

#include <stdlib.h>

/* Appends the UTF-8 of cp to b. */
static size_t put_utf8(unsigned char *b, uint32_t cp) {
    if (cp < 0x80) { b[0] = (unsigned char)cp; return 1; }
    if (cp < 0x800) { b[0] = (unsigned char)(0xC0 | (cp >> 6)); b[1] = (unsigned char)(0x80 | (cp & 0x3F)); return 2; }
    if (cp < 0x10000) {
        b[0] = (unsigned char)(0xE0 | (cp >> 12));
        b[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        b[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    b[0] = (unsigned char)(0xF0 | (cp >> 18));
    b[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
    b[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    b[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}

static uint32_t pick(unsigned kind, unsigned i) {
    static const uint32_t ascii[] = {'a', 'Z', '0', ' ', '~', 0x7F, 0x01};
    static const uint32_t latin[] = {0x80, 0xE9, 0xFF, 0xA0};
    static const uint32_t bmp[] = {0x100, 0x4E2D, 0x7FF, 0x800, 0xFFFD, 0xFFFF, 0xE000};
    static const uint32_t astral[] = {0x10000, 0x1F600, 0x10FFFF};
    switch (kind) {
    case 0: return ascii[i % 7];
    case 1: return latin[i % 4];
    case 2: return bmp[i % 7];
    default: return astral[i % 3];
    }
}

/* Text of n code points: mostly ASCII, with code points of `kind` (the
 * widest) at positions chosen by `seed`. */
static size_t make_text(unsigned char *b, uint32_t *cps, size_t n, unsigned kind, unsigned seed) {
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned k = ((i * 7 + seed) % 5 == 0) ? kind : ((i + seed) % 3 == 0 ? (kind ? kind - 1 : 0) : 0);
        if (i == n / 2) k = kind; /* at least one of the widest */
        cps[i] = pick(k, (unsigned)i + seed);
        len += put_utf8(b + len, cps[i]);
    }
    return len;
}

TEST(measure_and_widen_every_width) {
    static const uint32_t bound[] = {0x7F, 0xFF, 0xFFFF, 0x10FFFF};
    static const unsigned width[] = {1, 1, 2, 4};
    unsigned char src[400];
    uint32_t cps[80];
    for (unsigned kind = 0; kind < 4; kind++) {
        for (size_t n = 1; n <= 70; n++) {
            for (unsigned seed = 0; seed < 5; seed++) {
                size_t len = make_text(src, cps, n, kind, seed);
                char *exact = (char *)malloc(len);
                memcpy(exact, src, len);
                size_t chars = 0;
                ASSERT_EQ_UINT(tyjson_utf8_measure(exact, len, &chars), bound[kind]);
                ASSERT_EQ_UINT(chars, n);
                /* every width at least the bound's, plus a guard after */
                for (unsigned w = width[kind]; w <= 4; w *= 2) {
                    unsigned char *out = (unsigned char *)malloc(n * w + 8);
                    memset(out, 0xAB, n * w + 8);
                    tyjson_utf8_widen(exact, len, out, w);
                    for (size_t i = 0; i < n; i++) {
                        uint32_t got;
                        if (w == 1) got = out[i];
                        else if (w == 2) { uint16_t v; memcpy(&v, out + 2 * i, 2); got = v; }
                        else memcpy(&got, out + 4 * i, 4);
                        if (got != cps[i])
                            TEST_FAIL("kind %u n %zu seed %u width %u: code point %zu is %x, not %x", kind, n,
                                      seed, w, i, (unsigned)got, (unsigned)cps[i]);
                    }
                    for (size_t i = n * w; i < n * w + 8; i++) ASSERT_EQ_UINT(out[i], 0xAB);
                    free(out);
                }
                free(exact);
            }
        }
    }
}

TEST(empty_and_null_count) {
    size_t chars = 99;
    ASSERT_EQ_UINT(tyjson_utf8_measure("", 0, &chars), 0x7F);
    ASSERT_EQ_UINT(chars, 0);
    ASSERT_EQ_UINT(tyjson_utf8_measure("\xc3\xa9", 2, NULL), 0xFF);
    unsigned char out[4] = {7, 7, 7, 7};
    tyjson_utf8_widen("", 0, out, 2);
    tyjson_utf8_widen("ab", 2, out, 3); /* no such width: nothing written */
    ASSERT_EQ_UINT(out[0], 7);
}

/* Bytes that are not UTF-8: the count is of the bytes that are not
 * continuation bytes, and widen writes no more than that. */
TEST(not_utf8_is_bounded) {
    static const char *const bad[] = {"\x80\x80\x80", "\xe4\xb8", "a\xf0\x9f", "\xc3", "\xff\xfe abcdefgh\xe4",
                                      "\xe4" "abc" "\xe4\xb8\xad", "\xf0\x9f\x98\x80\x80\x80\x80\x80\x80x"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        size_t len = strlen(bad[k]), chars = 0, lead = 0;
        for (size_t i = 0; i < len; i++) lead += ((unsigned char)bad[k][i] & 0xC0) != 0x80;
        char *exact = (char *)malloc(len);
        memcpy(exact, bad[k], len);
        (void)tyjson_utf8_measure(exact, len, &chars);
        ASSERT_EQ_UINT(chars, lead);
        uint32_t *out = (uint32_t *)malloc((chars + 4) * 4);
        for (size_t i = 0; i < chars + 4; i++) out[i] = 0xDEADBEEF;
        tyjson_utf8_widen(exact, len, out, 4);
        for (size_t i = chars; i < chars + 4; i++) ASSERT_EQ_UINT(out[i], 0xDEADBEEF);
        free(out);
        free(exact);
    }
}

int main(int argc, char **argv) { return test_main(argc, argv); }
