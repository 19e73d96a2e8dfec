/*
 * arena.c - the caller-owned bump allocator behind binding decodes.
 *
 * Blocks form a singly linked list (newest first), each headed by a
 * blk_hdr. A reset keeps only the largest block and remembers how much was
 * held in all, so that the next time a message outgrows the kept block one
 * block of that total is allocated: a stream of similar messages stops
 * allocating after its second reset.
 */
#include "base/arena.h"

typedef struct blk_hdr {
    struct blk_hdr *next;
    usize size; /* bytes of the whole block, header included */
} blk_hdr;

/* Data starts this far into a block, which keeps it 16-byte aligned. */
#define HDR_BYTES ((sizeof(blk_hdr) + 15u) & ~(usize)15u)
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

static char *blk_data(blk_hdr *b) { return (char *)b + HDR_BYTES; }

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
    arena->cur = blk_data(keep);
    arena->end = (char *)keep + keep->size;
    arena->block_bytes = keep->size;
    /* Outgrowing the kept block again takes one block as large as all
     * the memory the last message needed. */
    if (total > keep->size && arena->next_block < total) arena->next_block = total;
}

void tyjson_arena_free(tyjson_arena *arena) {
    if (!arena) return;
    if (!arena->fixed) {
        blk_hdr *b = (blk_hdr *)arena->head;
        while (b) {
            blk_hdr *next = b->next;
            tyjson__free(&arena->alc, b);
            b = next;
        }
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
    usize need, bytes = a->next_block;
    if (tyjson__add_ovf(size, HDR_BYTES + align, &need)) return NULL;
    if (bytes < need) bytes = need;
    blk_hdr *b = (blk_hdr *)tyjson__malloc(&a->alc, bytes);
    if (!b) return NULL;
    b->size = bytes;
    b->next = (blk_hdr *)a->head;
    a->head = b;
    a->block_bytes += bytes;
    if (a->next_block < MAX_GROW_BLOCK) a->next_block *= 2;
    uintptr_t p = ((uintptr_t)blk_data(b) + (align - 1)) & ~(uintptr_t)(align - 1);
    a->cur = (char *)(p + size);
    a->end = (char *)b + bytes;
    a->used += size;
    return (void *)p;
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
    if (p + old_size == a->cur) {
        /* The last allocation grows or shrinks where it is. */
        if (new_size <= old_size) {
            a->cur = p + new_size;
            a->used -= old_size - new_size;
            return ptr;
        }
        if (new_size - old_size <= (usize)(a->end - a->cur)) {
            a->cur = p + new_size;
            a->used += new_size - old_size;
            return ptr;
        }
    } else if (new_size <= old_size) {
        return ptr;
    }
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
