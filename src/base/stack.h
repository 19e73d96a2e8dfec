/*
 * stack.h - THE explicit stack of the deep walks (copies, equality, the
 * mutable writer): a growable array of fixed-size frames, so no walk
 * recurses on the C stack whatever the nesting.
 *
 * The caller supplies the first frames' storage (a local array: ordinary
 * documents need no allocation) and an allocator for the rest. Growth
 * doubles the capacity with checked size arithmetic; when it fails the
 * stack is left as it was (frames, capacity, storage), so the caller can
 * still pop and release what its frames hold. A caller that owns an arena
 * rather than a heap passes a tyjson_alloc whose functions bump from it.
 */
#ifndef TYJSON_BASE_STACK_H
#define TYJSON_BASE_STACK_H

#include "base/internal.h"

typedef struct tyjson__stack {
    char *buf;               /* the frames: the caller's inline array or a heap block */
    usize len, cap;          /* frames in use, frames of room */
    usize esz;               /* bytes of one frame */
    const tyjson_alloc *alc; /* where frames beyond the inline ones come from */
    bool heap;               /* buf came from alc */
} tyjson__stack;

/* Starts an empty stack on the caller's array of inl_cap frames of esz
 * bytes each (inl may be NULL with inl_cap 0: every frame from alc). */
TYJSON__FORCEINLINE void tyjson__stack_init(tyjson__stack *s, const tyjson_alloc *alc, void *inl,
                                            usize inl_cap, usize esz) {
    s->buf = (char *)inl;
    s->len = 0;
    s->cap = inl_cap;
    s->esz = esz;
    s->alc = alc;
    s->heap = false;
}

/* Doubles the room (at least 8 frames); false on no memory or on a size
 * that does not fit usize, with the stack unchanged. */
bool tyjson__stack_grow(tyjson__stack *s);

/* A new top frame (uninitialised), or NULL on no memory (stack intact). */
TYJSON__FORCEINLINE void *tyjson__stack_push(tyjson__stack *s) {
    if (unlikely(s->len == s->cap) && !tyjson__stack_grow(s)) return NULL;
    return s->buf + s->esz * s->len++;
}

/* The top frame; the stack must not be empty. */
TYJSON__FORCEINLINE void *tyjson__stack_top(const tyjson__stack *s) {
    return s->buf + s->esz * (s->len - 1);
}

/* Frame i from the bottom (i < len). */
TYJSON__FORCEINLINE void *tyjson__stack_at(const tyjson__stack *s, usize i) {
    return s->buf + s->esz * i;
}

/* Releases the heap block, if any; the frames' contents are the caller's. */
TYJSON__FORCEINLINE void tyjson__stack_free(tyjson__stack *s) {
    if (s->heap) tyjson__free(s->alc, s->buf);
}

#endif /* TYJSON_BASE_STACK_H */
