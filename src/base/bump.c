/*
 * bump.c - the block chain of the bump allocator core (base/bump.h): new
 * blocks of doubling size, and giving a chain back.
 */
#include "base/bump.h"

TYJSON__FIRST_USE
tyjson__bump_blk *tyjson__bump_blk_new(const tyjson_alloc *alc, tyjson__bump_blk **head,
                                       usize *next_size, usize cap, usize size, usize align) {
    usize need, bytes = *next_size;
    /* header, request and the most padding `align` can add */
    if (tyjson__add_ovf(size, TYJSON__BUMP_HDR + align, &need)) return NULL;
    if (bytes < need) bytes = need;
    tyjson__bump_blk *b = (tyjson__bump_blk *)tyjson__malloc(alc, bytes);
    if (!b) return NULL;
    b->size = bytes;
    b->next = *head;
    *head = b;
    if (*next_size < cap) *next_size *= 2;
    return b;
}

void tyjson__bump_chain_free(const tyjson_alloc *alc, tyjson__bump_blk *head) {
    while (head) {
        tyjson__bump_blk *next = head->next;
        tyjson__free(alc, head);
        head = next;
    }
}
