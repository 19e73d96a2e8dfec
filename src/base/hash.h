/*
 * base/hash.h - a 64-bit hash of bytes and a 64-bit mixer, for in-memory
 * tables (never stored, never part of an output: the values may change
 * between versions and differ between byte orders).
 *
 * tyjson__hash_mix is a bijective finalizer (xor-shift, multiply, twice
 * more): every input bit reaches every output bit. tyjson__hash_bytes
 * reads eight bytes at a time (unaligned loads through memcpy), folds each
 * word into the state with a multiply, and finishes with the mixer; the
 * length is part of the seed, so "a" and "a\0" differ.
 */
#ifndef TYJSON__BASE_HASH_H
#define TYJSON__BASE_HASH_H

#include "base/internal.h"

TYJSON__FORCEINLINE u64 tyjson__hash_mix(u64 h) {
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebull;
    h ^= h >> 31;
    return h;
}

TYJSON__FORCEINLINE u64 tyjson__hash_bytes(const void *p, usize n, u64 seed) {
    const unsigned char *s = (const unsigned char *)p;
    u64 h = seed ^ ((u64)n * 0x9e3779b97f4a7c15ull);
    while (n >= 8) {
        u64 w;
        memcpy(&w, s, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdull;
        h ^= h >> 32;
        s += 8;
        n -= 8;
    }
    if (n) {
        u64 w = 0;
        memcpy(&w, s, n);
        h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
    }
    return tyjson__hash_mix(h);
}

#endif /* TYJSON__BASE_HASH_H */
