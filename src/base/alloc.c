/*
 * alloc.c - the default libc allocator, the fixed-buffer pool allocator and
 * tyjson_free.
 */
#include "base/bump.h"

TYJSON__FIRST_USE
static void *libc_malloc(void *ctx, usize size) {
    (void)ctx;
    return malloc(size ? size : 1);
}
TYJSON__FIRST_USE
static void *libc_realloc(void *ctx, void *ptr, usize old_size, usize size) {
    (void)ctx;
    (void)old_size;
    return realloc(ptr, size ? size : 1);
}
TYJSON__FIRST_USE
static void libc_free(void *ctx, void *ptr) {
    (void)ctx;
    free(ptr);
}

const tyjson_alloc tyjson__libc_alloc = {libc_malloc, libc_realloc, libc_free, NULL};

const tyjson_alloc *tyjson_alloc_libc(void) { return &tyjson__libc_alloc; }

TYJSON__FIRST_USE
void tyjson_free(const tyjson_alloc *alc, void *ptr) {
    if (!ptr) return;
    if (!alc) alc = &tyjson__libc_alloc;
    alc->free(alc->ctx, ptr);
}

/* ----------------------------------------------------------------------------
 * Pool allocator over a caller buffer: the bump core (base/bump.h) over the
 * buffer, whose blocks form a stack. Each block is preceded by a header
 * holding its size (so realloc can copy) and the block that was the most
 * recent before it. The most recent block grows or shrinks in place, and
 * freeing it makes the block before it the most recent again; that is how
 * the parser grows its value array even though the duplicate-key check
 * allocates and frees scratch after it: a document parsed into a pool of
 * tyjson_read_max_memory() bytes therefore never runs out.
 * ------------------------------------------------------------------------- */
typedef struct pool {
    char *cur;  /* next free byte (aligned) */
    char *end;
    char *last; /* data of the most recent block, or NULL */
} pool;

typedef struct pool_hdr {
    usize size;  /* bytes requested */
    char *below; /* the most recent block before this one, or NULL */
} pool_hdr;

#define POOL_ALIGN 16
#define POOL_HDR POOL_ALIGN /* the header sits in a full aligned slot */

_Static_assert(sizeof(pool_hdr) <= POOL_HDR, "the pool header fits its aligned slot");

static usize pool_round(usize n) { return (n + (POOL_ALIGN - 1)) & ~(usize)(POOL_ALIGN - 1); }

static pool_hdr pool_header(const char *data) {
    pool_hdr h;
    memcpy(&h, data - POOL_HDR, sizeof(h));
    return h;
}

static void pool_set_header(char *data, usize size, char *below) {
    pool_hdr h;
    h.size = size;
    h.below = below;
    memcpy(data - POOL_HDR, &h, sizeof(h));
}

/* Every block takes a whole number of aligned slots, so cur stays aligned
 * and the bump never pads. */
static void *pool_malloc(void *ctx, usize size) {
    pool *p = (pool *)ctx;
    if (size > SIZE_MAX - POOL_HDR - POOL_ALIGN) return NULL;
    void *blk;
    if (!tyjson__bump(&p->cur, &p->end, POOL_HDR + pool_round(size ? size : 1), POOL_ALIGN, &blk))
        return NULL;
    char *data = (char *)blk + POOL_HDR;
    pool_set_header(data, size, p->last);
    p->last = data;
    return data;
}

/* Only the most recent block is reclaimed; its predecessor becomes the most
 * recent one again (other blocks stay until the pool is discarded). */
static void pool_free(void *ctx, void *ptr) {
    pool *p = (pool *)ctx;
    if (ptr && ptr == p->last) {
        p->cur = (char *)ptr - POOL_HDR;
        p->last = pool_header((char *)ptr).below;
    }
}

static void *pool_realloc(void *ctx, void *ptr, usize old_size, usize size) {
    pool *p = (pool *)ctx;
    (void)old_size;
    if (!ptr) return pool_malloc(ctx, size);
    if (ptr == p->last) {
        char *data = (char *)ptr;
        if (size > SIZE_MAX - POOL_ALIGN) return NULL;
        if (!tyjson__bump_resize(&p->cur, p->end, data, pool_round(size ? size : 1))) return NULL;
        pool_set_header(data, size, pool_header(data).below);
        return ptr;
    }
    usize have = pool_header((char *)ptr).size;
    void *np = pool_malloc(ctx, size);
    if (!np) return NULL;
    memcpy(np, ptr, have < size ? have : size);
    return np;
}

bool tyjson_alloc_pool_init(tyjson_alloc *alc, void *buf, usize size) {
    if (!alc || !buf) return false;
    uintptr_t start = (uintptr_t)buf;
    uintptr_t aligned = (start + (POOL_ALIGN - 1)) & ~(uintptr_t)(POOL_ALIGN - 1);
    usize skip = (usize)(aligned - start) + pool_round(sizeof(pool));
    if (size < skip + POOL_HDR + POOL_ALIGN) return false;
    pool *p = (pool *)aligned;
    p->cur = (char *)aligned + pool_round(sizeof(pool));
    p->end = (char *)buf + size;
    p->last = NULL;
    alc->malloc = pool_malloc;
    alc->realloc = pool_realloc;
    alc->free = pool_free;
    alc->ctx = p;
    return true;
}
