/*
 * arena.c - the caller-owned bump allocator behind binding decodes, on the
 * bump core (base/bump.h): its window is the arena's cur/end, its blocks a
 * tyjson__bump_blk chain (newest first).
 *
 * A reset keeps only the largest block and remembers how much was held in
 * all, so that the next time a message outgrows the kept block one block of
 * that total is allocated: a stream of similar messages stops allocating
 * after its second reset. Over a caller buffer (fixed) the window is the
 * buffer and the slow path never allocates.
 */
#include "base/arena.h"

typedef tyjson__bump_blk blk_hdr;

#define FIRST_BLOCK 4096u
#define MAX_GROW_BLOCK ((usize)64 << 20)

TYJSON__FIRST_USE
void tyjson_arena_init(tyjson_arena *arena, const tyjson_alloc *alc) {
    if (!arena) return;
    arena->alc = tyjson__alc_or_libc(alc);
    arena->head = NULL;
    arena->cur = NULL;
    arena->end = NULL;
    arena->used = 0;
    arena->block_bytes = 0;
    arena->next_block = FIRST_BLOCK;
    arena->fixed = false;
    arena->note = NULL;
}

void tyjson_arena_init_buf(tyjson_arena *arena, void *buf, usize size) {
    if (!arena) return;
    memset(&arena->alc, 0, sizeof(arena->alc));
    /* head remembers the buffer's start for resets. */
    arena->head = buf;
    arena->cur = buf ? (char *)buf : NULL;
    arena->end = buf ? (char *)buf + size : NULL;
    arena->used = 0;
    arena->block_bytes = buf ? size : 0;
    arena->next_block = 0;
    arena->fixed = true;
    arena->note = NULL;
}

TYJSON__FIRST_USE
void tyjson_arena_reset(tyjson_arena *arena) {
    if (!arena) return;
    arena->used = 0;
    if (arena->fixed) {
        arena->cur = (char *)arena->head;
        return;
    }
    blk_hdr *keep = NULL;
    usize total = 0;
    for (blk_hdr *b = (blk_hdr *)arena->head; b; b = b->next) {
        total += b->size;
        if (!keep || b->size > keep->size) keep = b;
    }
    blk_hdr *b = (blk_hdr *)arena->head;
    while (b) {
        blk_hdr *next = b->next;
        if (b != keep) tyjson__free(&arena->alc, b);
        b = next;
    }
    if (!keep) {
        arena->cur = arena->end = NULL;
        arena->block_bytes = 0;
        return;
    }
    keep->next = NULL;
    arena->head = keep;
    arena->cur = tyjson__bump_blk_data(keep);
    arena->end = tyjson__bump_blk_end(keep);
    arena->block_bytes = keep->size;
    /* Outgrowing the kept block again takes one block as large as all
     * the memory the last message needed. */
    if (total > keep->size && arena->next_block < total) arena->next_block = total;
}

void tyjson_arena_free(tyjson_arena *arena) {
    if (!arena) return;
    if (!arena->fixed) {
        tyjson__bump_chain_free(&arena->alc, (blk_hdr *)arena->head);
        arena->head = NULL;
        arena->cur = arena->end = NULL;
        arena->block_bytes = 0;
        arena->next_block = FIRST_BLOCK;
    } else {
        arena->cur = (char *)arena->head;
    }
    arena->used = 0;
}

TYJSON__FIRST_USE
void *tyjson__arena_alloc_slow(tyjson_arena *a, usize size, usize align) {
    if (a->fixed) return NULL;
    /* A zero-initialised arena (never initialised): as tyjson_arena_init
     * with the libc allocator. */
    if (!a->alc.malloc) a->alc = tyjson__alc_or_libc(NULL);
    if (!a->next_block) a->next_block = FIRST_BLOCK;
    blk_hdr *head = (blk_hdr *)a->head;
    blk_hdr *b = tyjson__bump_blk_new(&a->alc, &head, &a->next_block, MAX_GROW_BLOCK, size, align);
    if (!b) return NULL;
    a->head = b;
    a->block_bytes += b->size;
    a->cur = tyjson__bump_blk_data(b);
    a->end = tyjson__bump_blk_end(b);
    /* The new block has room for the request by construction. */
    void *p = NULL;
    tyjson__bump(&a->cur, &a->end, size, align, &p);
    a->used += size;
    return p;
}

void *tyjson_arena_alloc(tyjson_arena *arena, usize size, usize align) {
    if (!arena) return NULL;
    if (align == 0) align = 1;
    if (align > 64 || (align & (align - 1))) return NULL;
    return tyjson__arena_bump(arena, size, align);
}

usize tyjson_arena_used(const tyjson_arena *arena) { return arena ? arena->used : 0; }

/* ----------------------------------------------------------------------------
 * Allocator view: lets the DOM parser put a free-form value in the arena.
 * ------------------------------------------------------------------------- */
#define VIEW_ALIGN 16u

static void *view_malloc(void *ctx, usize size) {
    return tyjson__arena_bump((tyjson_arena *)ctx, size ? size : 1, VIEW_ALIGN);
}

static void *view_realloc(void *ctx, void *ptr, usize old_size, usize new_size) {
    tyjson_arena *a = (tyjson_arena *)ctx;
    if (!ptr) return view_malloc(ctx, new_size);
    char *p = (char *)ptr;
    /* The last allocation grows or shrinks where it is (used changes by
     * the difference, modulo 2^n when it shrinks). */
    if (p + old_size == a->cur && tyjson__bump_resize(&a->cur, a->end, p, new_size)) {
        a->used += new_size - old_size;
        return ptr;
    }
    if (new_size <= old_size) return ptr;
    void *n = view_malloc(ctx, new_size);
    if (n) memcpy(n, ptr, old_size < new_size ? old_size : new_size);
    return n;
}

static void view_free(void *ctx, void *ptr) {
    (void)ctx;
    (void)ptr;
}

tyjson_alloc tyjson_arena_allocator(tyjson_arena *arena) {
    tyjson_alloc a = {NULL, NULL, NULL, NULL};
    if (!arena) return a; /* no arena: an all-NULL allocator record */
    a.malloc = view_malloc;
    a.realloc = view_realloc;
    a.free = view_free;
    a.ctx = arena;
    return a;
}

/* ----------------------------------------------------------------------------
 * A custom codec's reason for failing (read back by the decoder).
 * ------------------------------------------------------------------------- */
void tyjson_codec_fail(tyjson_arena *arena, const char *msg) {
    if (!arena || !msg) return;
    usize n = strlen(msg);
    char *copy = (char *)tyjson__arena_bump(arena, n + 1, 1);
    if (copy) {
        memcpy(copy, msg, n + 1);
        arena->note = copy;
    }
}
