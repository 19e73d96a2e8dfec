/*
 * base/arena.h - the bump step of the caller-owned arena (tyjson_arena,
 * declared in include/tyjson/bind.h): the bump core's aligned take
 * (base/bump.h) over the arena's window, inlined into its users; the block
 * handling is in arena.c.
 */
#ifndef TYJSON_BASE_ARENA_H
#define TYJSON_BASE_ARENA_H

#include "base/bump.h"

/** Slow path of tyjson__arena_bump: a new block. */
void *tyjson__arena_alloc_slow(tyjson_arena *a, usize size, usize align);

/** size bytes at `align` (a power of two <= 64), or NULL. */
TYJSON__FORCEINLINE void *tyjson__arena_bump(tyjson_arena *a, usize size, usize align) {
    void *p;
    if (tyjson__bump(&a->cur, &a->end, size, align, &p)) {
        a->used += size;
        return p;
    }
    return tyjson__arena_alloc_slow(a, size, align);
}

#endif /* TYJSON_BASE_ARENA_H */
