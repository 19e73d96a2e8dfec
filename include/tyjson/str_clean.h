/*
 * tyjson/str_clean.h - PRIVATE: not part of the API (every name here is
 * tyjson__ / TYJSON__, may change in any release; do not include it
 * yourself). It is a public header only because the streaming writer's
 * inline fast paths (tyjson/writer.h) need it.
 *
 * The clean-string core of the writing core (src/write/str_write.h): the
 * check "no byte of this short string needs escaping" and the copy of such
 * a string between quotes. The DOM writer, the binding encoder and the
 * streaming writer all use this one copy.
 *
 * SWAR: a mask whose lowest set bit (per byte, 0x80) marks the first byte
 * that needs attention: < 0x20, '"', '\\', >= 0x80 (UTF-8 to check) and,
 * with ESCAPE_SLASH, '/'. Each term sets a byte's high bit for its own
 * condition or after a borrow from a lower flagged byte, so the lowest
 * flagged byte is always exact; `| x` flags non-ASCII bytes.
 */
#ifndef TYJSON_STR_CLEAN_H
#define TYJSON_STR_CLEAN_H

#include "common.h"

#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TYJSON__STR_ONES 0x0101010101010101ull

/* Bytes of room a string writer leaves after its cursor, so that a caller
 * may append a separator (':', ',') without a check. */
#define TYJSON__STR_SLACK 16u

TYJSON_INLINE uint64_t tyjson__str_attn64(uint64_t x, bool slash) {
    const uint64_t ones = TYJSON__STR_ONES;
    uint64_t m = (x - ones * 0x20) | ((x ^ (ones * '"')) - ones) | ((x ^ (ones * '\\')) - ones) | x;
    if (slash) m |= (x ^ (ones * '/')) - ones;
    return m & (ones * 0x80);
}

/* The same test on 4 bytes: zero exactly when none needs attention. */
TYJSON_INLINE uint32_t tyjson__str_attn32(uint32_t x, bool slash) {
    const uint32_t ones = 0x01010101u;
    uint32_t m = (x - ones * 0x20) | ((x ^ (ones * '"')) - ones) | ((x ^ (ones * '\\')) - ones) | x;
    if (slash) m |= (x ^ (ones * '/')) - ones;
    return m & 0x80808080u;
}

/* Copies n (4 to 7) bytes from s to d by two overlapping 4-byte loads and
 * stores when none needs attention; false, having written nothing, else. */
TYJSON_INLINE bool tyjson__str_copy_clean_4to7(char *d, const unsigned char *s, size_t n,
                                               bool slash) {
    uint32_t a, b;
    memcpy(&a, s, 4);
    memcpy(&b, s + n - 4, 4);
    /* one 8-byte test of both words: a borrow only ever starts at a
     * flagged byte, so the mask is zero exactly when no byte is flagged */
    if (tyjson__str_attn64((uint64_t)a | (uint64_t)b << 32, slash)) return false;
    memcpy(d, &a, 4);
    memcpy(d + n - 4, &b, 4);
    return true;
}

/* `"..."` for a clean string of 1 to 16 bytes (most keys and short
 * values) by two overlapping loads and stores at d, which has at least
 * n + 2 + TYJSON__STR_SLACK bytes of room; returns the new cursor, or NULL
 * (having written nothing of use) when some byte needs the general path
 * (src/write/str_write.c). */
TYJSON_INLINE char *tyjson__str_write_short(char *d, const char *s, size_t n, bool slash) {
    if (n < 4) { /* 1 to 3 bytes: first, middle and last cover them all */
        unsigned char c0 = (unsigned char)s[0], c1 = (unsigned char)s[n / 2],
                      c2 = (unsigned char)s[n - 1];
        uint32_t a = (uint32_t)c0 | (uint32_t)c1 << 8 | (uint32_t)c2 << 16 | (uint32_t)'a' << 24;
        if (tyjson__str_attn32(a, slash)) return NULL;
        d[0] = '"';
        d[1] = (char)c0;
        d[1 + n / 2] = (char)c1;
        d[n] = (char)c2;
    } else if (n >= 8) {
        uint64_t a, b;
        memcpy(&a, s, 8);
        memcpy(&b, s + n - 8, 8);
        if (tyjson__str_attn64(a, slash) | tyjson__str_attn64(b, slash)) return NULL;
        d[0] = '"';
        memcpy(d + 1, &a, 8);
        memcpy(d + 1 + n - 8, &b, 8);
    } else {
        if (!tyjson__str_copy_clean_4to7(d + 1, (const unsigned char *)s, n, slash)) return NULL;
        d[0] = '"';
    }
    d[n + 1] = '"';
    return d + n + 2;
}

/* Copies n bytes; up to 16 without a library call (two overlapping moves),
 * for the writers' keys, numbers and short strings. */
TYJSON_INLINE void tyjson__str_copy(char *d, const char *s, size_t n) {
    if (n > 16) {
        memcpy(d, s, n);
    } else if (n >= 8) {
        memcpy(d, s, 8);
        memcpy(d + n - 8, s + n - 8, 8);
    } else if (n >= 4) {
        memcpy(d, s, 4);
        memcpy(d + n - 4, s + n - 4, 4);
    } else if (n) {
        d[0] = s[0];
        d[n / 2] = s[n / 2];
        d[n - 1] = s[n - 1];
    }
}

#ifdef __cplusplus
}
#endif
#endif /* TYJSON_STR_CLEAN_H */
