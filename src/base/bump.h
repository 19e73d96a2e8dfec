/*
 * base/bump.h - THE bump allocator core, shared by the pool allocator
 * (alloc.c), the caller's arena (arena.c) and the mutable document's value
 * and string chains (dom/mut.c):
 *
 *   - tyjson__bump: the aligned take from a window [cur, end), inlined into
 *     every fast path;
 *   - tyjson__bump_resize: the window's most recent allocation grows or
 *     shrinks where it is (pool realloc, the arena's allocator view);
 *   - the block chain (bump.c): blocks of doubling size, each headed by a
 *     tyjson__bump_blk, that the arena and the mutable document grow by.
 *
 * Each user keeps its own policy on top: the pool stacks headers so that
 * freeing the newest block gives it back; the arena keeps its largest block
 * on reset; the mutable document keeps bumping in whichever block has more
 * room. No size is ever added to a pointer before it is compared with the
 * room left, so a request near SIZE_MAX fails instead of wrapping.
 */
#ifndef TYJSON_BASE_BUMP_H
#define TYJSON_BASE_BUMP_H

#include "base/internal.h"

/**
 * Takes size bytes at `align` (a power of two) from the window [*cur, end):
 * if they fit, sets *out to their start, moves *cur past them and returns
 * true; else returns false and changes nothing. An empty window (*cur
 * NULL) fits nothing, not even zero bytes, so a first request always
 * reaches the caller's slow path. The result is a bool rather than a
 * NULL-or-pointer so that callers branch on it without testing the pointer
 * again, and callers add no likely() of their own: the hints here already
 * weigh the branch, and a second one moves the decoder's block layout
 * (measured: +0.2% instructions for a decode).
 */
TYJSON__FORCEINLINE bool tyjson__bump(char **cur, char *const *end, usize size, usize align,
                                      void **out) {
    char *c = *cur;
    if (likely(c != NULL)) {
        usize pad = (usize)(-(uintptr_t)c) & (align - 1);
        usize room = (usize)(*end - c);
        if (likely(pad <= room && size <= room - pad)) {
            *cur = c + pad + size;
            *out = c + pad;
            return true;
        }
    }
    return false;
}

/**
 * Resizes in place the window's most recent allocation, which starts at
 * `last` (last <= *cur <= end): if size bytes from last fit before end,
 * moves *cur to last + size and returns true; else changes nothing.
 */
TYJSON__FORCEINLINE bool tyjson__bump_resize(char **cur, char *end, char *last, usize size) {
    if (size > (usize)(end - last)) return false;
    *cur = last + size;
    return true;
}

/* ----------------------------------------------------------------------------
 * Block chain (bump.c)
 * ------------------------------------------------------------------------- */

/** The header in front of each block; the newest block heads the chain. */
typedef struct tyjson__bump_blk {
    struct tyjson__bump_blk *next; /* the block allocated before this one */
    usize size;                    /* bytes of the whole block, header included */
} tyjson__bump_blk;

/* A block's data starts this far into it, which keeps it 16-byte aligned
 * (allocators return at least 16-byte aligned memory). */
#define TYJSON__BUMP_HDR ((sizeof(tyjson__bump_blk) + 15u) & ~(usize)15u)

/** The window of block b's data: [tyjson__bump_blk_data(b), ..._end(b)). */
TYJSON__FORCEINLINE char *tyjson__bump_blk_data(tyjson__bump_blk *b) {
    return (char *)b + TYJSON__BUMP_HDR;
}
TYJSON__FORCEINLINE char *tyjson__bump_blk_end(tyjson__bump_blk *b) {
    return (char *)b + b->size;
}

/**
 * Allocates from alc a block with room for size bytes at `align`: of
 * *next_size bytes, or more if the request needs them. Pushes it onto
 * *head and doubles *next_size while it is below `cap`. Returns the block,
 * or NULL when alc fails or the block's size would overflow (nothing
 * changes then).
 */
tyjson__bump_blk *tyjson__bump_blk_new(const tyjson_alloc *alc, tyjson__bump_blk **head,
                                       usize *next_size, usize cap, usize size, usize align);

/** Gives every block of the chain starting at head back to alc. */
void tyjson__bump_chain_free(const tyjson_alloc *alc, tyjson__bump_blk *head);

#endif /* TYJSON_BASE_BUMP_H */
