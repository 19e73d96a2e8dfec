/*
 * tyjson/num_int.h - PRIVATE: not part of the API (every name here is
 * tyjson__ / TYJSON__, may change in any release; do not include it
 * yourself). It is a public header only because the streaming writer's
 * inline integer calls (tyjson/writer.h) and the pull reader's inline
 * number getters (tyjson/reader.h) need it.
 *
 * The integer formatting of the number core (src/num/num_write.c, whose
 * tyjson__u64_write / tyjson__i64_write are built on these): values below
 * 10^8 without leading zeros, from a table of digit pairs below 10^4 and
 * by SWAR digit lanes from 10^4 on. The DOM writer, the binding encoder and
 * the streaming writer all use this one copy.
 */
#ifndef TYJSON_NUM_INT_H
#define TYJSON_NUM_INT_H

#include "common.h"

#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef TYJSON__NUM_SWAR /* (tests define it as 0 to run the portable code) */
#  if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#    define TYJSON__NUM_SWAR 1 /* the first byte of a load is its low lane */
#  else
#    define TYJSON__NUM_SWAR 0 /* no fast path, digits one at a time */
#  endif
#endif

/* "00" "01" ... "99": the digit pairs (defined in src/num/num_write.c). */
TYJSON_API extern const char tyjson__num_dig2[201];

/* The two characters at p as a little-endian 16-bit value. */
TYJSON_INLINE uint32_t tyjson__num_le16(const char *p) {
#if TYJSON__NUM_SWAR
    uint16_t v;
    memcpy(&v, p, 2);
    return v;
#else
    return (uint32_t)(unsigned char)p[0] | (uint32_t)(unsigned char)p[1] << 8;
#endif
}

/* Trailing zero bits of x, which must not be 0. */
TYJSON_INLINE int tyjson__num_ctz64(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(x);
#else
    int n = 0;
    while (!(x & 1)) {
        x >>= 1;
        n++;
    }
    return n;
#endif
}

/* The 8 bytes of x at p, the lowest byte first. */
TYJSON_INLINE void tyjson__num_store8(char *p, uint64_t x) {
#if TYJSON__NUM_SWAR
    memcpy(p, &x, 8);
#else
    for (int i = 0; i < 8; i++) p[i] = (char)(x >> (8 * i));
#endif
}

/* v < 10^4 at p, without leading zeros (0 is "0"), from the pair table:
 * a 1-digit v takes the second half of its pair, 3 digits shift the
 * leading '0' of 4 out (bytes past the end are garbage: p has room for
 * 4 bytes). Returns the new end. */
TYJSON_INLINE char *tyjson__num_put_small(char *p, uint32_t v) {
    if (v < 100) {
        uint32_t one = v < 10;
        memcpy(p, tyjson__num_dig2 + 2 * v + one, 2);
        return p + 2 - one;
    }
    uint32_t hi = (v * 5243) >> 19, lo = v - hi * 100; /* v / 100, v % 100 */
    uint32_t w = tyjson__num_le16(tyjson__num_dig2 + 2 * hi) |
                 tyjson__num_le16(tyjson__num_dig2 + 2 * lo) << 16;
    uint32_t three = v < 1000;
    w >>= 8 * three;
#if TYJSON__NUM_SWAR
    memcpy(p, &w, 4);
#else
    for (int i = 0; i < 4; i++) p[i] = (char)(w >> (8 * i));
#endif
    return p + 4 - three;
}

/* The 8 digit values of v < 10^8, leading zeros included: split into two
 * 4-digit lanes, each into two 2-digit lanes (x * 10486 >> 20 is x / 100 for
 * x < 10^4), each into two digits (x * 103 >> 10 is x / 10 for x < 100). The
 * lanes never carry into each other (checked against division for every
 * v < 10^8 when written). Each step forms q | (x - q * d) << w as
 * (x << w) + q * (1 - d << w) (equal modulo 2^64): a shorter dependency
 * chain than the subtraction. */
TYJSON_INLINE uint64_t tyjson__num_lanes8(uint32_t v) {
    uint64_t x = v, y = (x * 109951163) >> 40; /* v / 10^4 for v < 10^8 */
    x = (x << 32) + y * ((uint64_t)1 - ((uint64_t)10000 << 32));
    y = ((x * 10486) >> 20) & 0x0000007F0000007Fu;
    x = (x << 16) + y * ((uint64_t)1 - ((uint64_t)100 << 16));
    y = ((x * 103) >> 10) & 0x000F000F000F000Fu;
    return (x << 8) + y * ((uint64_t)1 - ((uint64_t)10 << 8));
}

/* v < 10^8 at p without leading zeros (0 is "0"): from 10^4 on, the zero
 * lanes below the first nonzero digit are shifted out. p has room for 8
 * bytes (those past the end are garbage). Returns the new end. */
TYJSON_INLINE char *tyjson__num_put_upto8(char *p, uint32_t v) {
    if (v < 10000) return tyjson__num_put_small(p, v);
    uint64_t x = tyjson__num_lanes8(v);
    int lz = tyjson__num_ctz64(x) >> 3;
    tyjson__num_store8(p, (x | 0x3030303030303030u) >> (8 * lz));
    return p + 8 - lz;
}

/* A number as the number core reads it (src/num/num.h reads into it). */
typedef enum tyjson__num_kind {
    TYJSON__NUM_UINT = 0, /* non-negative integer that fits uint64 */
    TYJSON__NUM_SINT = 1, /* negative integer that fits int64 */
    TYJSON__NUM_REAL = 2, /* has a fraction or exponent: a double */
    TYJSON__NUM_RAW = 3   /* TYJSON_READ_BIGNUM_AS_RAW and out of range: the
                             caller keeps the text [start, returned end) */
} tyjson__num_kind;

typedef struct tyjson__num {
    tyjson__num_kind kind;
    union {
        uint64_t u;
        int64_t i;
        double f;
    } v;
} tyjson__num;

#ifdef __cplusplus
}
#endif
#endif /* TYJSON_NUM_INT_H */
