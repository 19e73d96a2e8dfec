/*
 * num_tables.h - the generated powers of five (num_tables.c) and the integer
 * log formulas that go with them. Private to num_read.c and num_write.c.
 *
 * tyjson__pow5_128[q - TYJSON__POW5_MIN] holds 5^q normalized into
 * [2^127, 2^128) and truncated: 5^q ~= P * 2^(flog2_pow5(q) - 127). The entry
 * is exact for 0 <= q <= 55 and its low half is zero for 0 <= q <= 27. Since
 * 10^q = 5^q * 2^q, the same mantissas serve powers of ten.
 */
#ifndef TYJSON_NUM_TABLES_H
#define TYJSON_NUM_TABLES_H

#include "base/internal.h"
#include "tyjson/num_int.h" /* tyjson__num_ctz64 */

#define TYJSON__POW5_MIN (-342)
#define TYJSON__POW5_MAX 326

extern const u64 tyjson__pow5_128[TYJSON__POW5_MAX - TYJSON__POW5_MIN + 1][2];

/* (x * MUL + ADD) >> SHIFT. tools/gen_num_tables.py checks each formula
 * against exact arithmetic over the stated range, and num_tables.c checks at
 * compile time that these constants are the ones it verified. */
#define TYJSON__FLOG2_POW5_MUL 76085 /* floor(log2(5^q)), |q| <= 400 */
#define TYJSON__FLOG2_POW5_ADD 0
#define TYJSON__FLOG2_POW5_SHIFT 15
#define TYJSON__FLOG10_POW2_MUL 78913 /* floor(log10(2^e)), |e| <= 1100 */
#define TYJSON__FLOG10_POW2_ADD 0
#define TYJSON__FLOG10_POW2_SHIFT 18
#define TYJSON__FLOG10_3Q_POW2_MUL 157827 /* floor(log10(3/4 * 2^e)), |e| <= 1100 */
#define TYJSON__FLOG10_3Q_POW2_ADD (-65878)
#define TYJSON__FLOG10_3Q_POW2_SHIFT 19

/* The formulas floor negative products, so they need an arithmetic shift. */
_Static_assert((-1 >> 1) == -1, "right shift of negative int must be arithmetic");

TYJSON__FORCEINLINE int tyjson__flog2_pow5(int q) {
    return (q * TYJSON__FLOG2_POW5_MUL + TYJSON__FLOG2_POW5_ADD) >> TYJSON__FLOG2_POW5_SHIFT;
}
TYJSON__FORCEINLINE int tyjson__flog10_pow2(int e) {
    return (e * TYJSON__FLOG10_POW2_MUL + TYJSON__FLOG10_POW2_ADD) >> TYJSON__FLOG10_POW2_SHIFT;
}
TYJSON__FORCEINLINE int tyjson__flog10_3q_pow2(int e) {
    return (e * TYJSON__FLOG10_3Q_POW2_MUL + TYJSON__FLOG10_3Q_POW2_ADD) >>
           TYJSON__FLOG10_3Q_POW2_SHIFT;
}

/* ----------------------------------------------------------------------------
 * 64x64 -> 128-bit multiplication and leading-zero count.
 * ------------------------------------------------------------------------- */
#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 tyjson__u128;
/** Returns the low half of a * b and stores the high half in *hi. */
TYJSON__FORCEINLINE u64 tyjson__mul128(u64 a, u64 b, u64 *hi) {
    tyjson__u128 r = (tyjson__u128)a * b;
    *hi = (u64)(r >> 64);
    return (u64)r;
}
#else
TYJSON__FORCEINLINE u64 tyjson__mul128(u64 a, u64 b, u64 *hi) {
    u64 al = (u32)a, ah = a >> 32, bl = (u32)b, bh = b >> 32;
    u64 ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    u64 mid = (ll >> 32) + (u32)lh + (u32)hl;
    *hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
    return (mid << 32) | (u32)ll;
}
#endif

/** Leading zero bits of x, which must not be 0. */
TYJSON__FORCEINLINE int tyjson__clz64(u64 x) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_clzll(x);
#else
    int n = 0;
    while (!(x >> 63)) {
        x <<= 1;
        n++;
    }
    return n;
#endif
}

#endif /* TYJSON_NUM_TABLES_H */
