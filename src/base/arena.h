/*
 * base/arena.h - the bump step of the caller-owned arena (tyjson_arena,
 * declared in include/tyjson/bind.h), inlined into its users; the block
 * handling is in arena.c.
 */
#ifndef TYJSON_BASE_ARENA_H
#define TYJSON_BASE_ARENA_H

#include "base/internal.h"

/** Slow path of tyjson__arena_bump: a new block. */
void *tyjson__arena_alloc_slow(tyjson_arena *a, usize size, usize align);

/** size bytes at `align` (a power of two <= 64), or NULL. */
TYJSON__FORCEINLINE void *tyjson__arena_bump(tyjson_arena *a, usize size, usize align) {
    char *c = a->cur;
    if (likely(c != NULL)) {
        usize pad = (usize)(-(uintptr_t)c) & (align - 1);
        usize room = (usize)(a->end - c);
        if (likely(pad <= room && size <= room - pad)) {
            a->cur = c + pad + size;
            a->used += size;
            return c + pad;
        }
    }
    return tyjson__arena_alloc_slow(a, size, align);
}

#endif /* TYJSON_BASE_ARENA_H */
