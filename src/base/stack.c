/*
 * stack.c - growth of the explicit stack (stack.h), out of line: it runs
 * once per doubling, never on a walk's common path.
 */
#include "base/stack.h"

#define STACK_MIN_GROWN 8u

TYJSON__NOINLINE bool tyjson__stack_grow(tyjson__stack *s) {
    usize cap, bytes, old;
    if (s->cap < STACK_MIN_GROWN / 2) cap = STACK_MIN_GROWN;
    else if (tyjson__mul_ovf(s->cap, 2, &cap)) return false;
    if (tyjson__mul_ovf(cap, s->esz, &bytes)) return false;
    old = s->cap * s->esz; /* fits: cap * esz was checked when it was set */
    char *p;
    if (s->heap) {
        p = (char *)tyjson__realloc(s->alc, s->buf, old, bytes);
    } else {
        p = (char *)tyjson__malloc(s->alc, bytes);
        if (p && s->len) memcpy(p, s->buf, s->len * s->esz);
    }
    if (!p) return false;
    s->buf = p;
    s->cap = cap;
    s->heap = true;
    return true;
}
