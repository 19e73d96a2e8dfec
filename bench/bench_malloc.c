/*
 * bench_malloc.c - allocation counting for the memory pass.
 *
 * Compiled twice. In tyjson_bench_mem (BENCH_MALLOC_INTERPOSE=1) it defines
 * malloc, calloc, realloc, reallocarray, free, posix_memalign,
 * aligned_alloc, memalign, valloc and pvalloc, which every library in the
 * process then calls (the executable's definitions take precedence over
 * libc's, and libstdc++'s operator new calls malloc); each forwards to
 * glibc's own allocator (__libc_malloc, ...) and, while this thread counts,
 * adds up calls and requested bytes. In tyjson_bench (no macro) only the
 * API is defined and counting is unavailable, so that the timed binary
 * keeps the plain libc allocator.
 *
 * Bytes: what each call asks for; a realloc asks for what it adds to the
 * block (nothing when it shrinks it), so that a buffer grown one element at
 * a time counts its final size, not the sum of every size it went through.
 *
 * Live bytes: the blocks requested while counting are kept in a hash table
 * (pointer -> requested size), so that a free subtracts what its block
 * added; blocks from before the window are ignored when freed. The table
 * is static storage (pages touched only as used) and never allocates.
 */
#define _GNU_SOURCE 1

#include "bench.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#  include <malloc.h>
#endif

#if defined(BENCH_MALLOC_INTERPOSE) && !defined(__GLIBC__)
#  define NOT_HERE "counting needs glibc (the allocator is reached through __libc_malloc)"
#elif defined(BENCH_MALLOC_INTERPOSE) && (defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__))
#  define NOT_HERE "sanitizer build: the sanitizer runtime replaces malloc"
#elif defined(BENCH_MALLOC_INTERPOSE) && defined(BENCH_SANITIZER_BUILD)
#  define NOT_HERE "sanitizer build: the sanitizer runtime replaces malloc"
#elif defined(BENCH_MALLOC_INTERPOSE) && defined(__has_feature)
#  if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || __has_feature(thread_sanitizer)
#    define NOT_HERE "sanitizer build: the sanitizer runtime replaces malloc"
#  endif
#endif
#if defined(BENCH_MALLOC_INTERPOSE) && !defined(NOT_HERE)
#  define COUNTING 1
#endif

bool bench_alloc_is_mem_binary(void) {
#ifdef BENCH_MALLOC_INTERPOSE
    return true;
#else
    return false;
#endif
}

#ifndef COUNTING
const char *bench_alloc_unavailable(void) {
#ifdef NOT_HERE
    return NOT_HERE;
#else
    return "the timing binary does not count allocations (tyjson_bench_mem does)";
#endif
}
void bench_alloc_begin(void) {}
void bench_alloc_end(bench_alloc_count *out) { memset(out, 0, sizeof(*out)); }
void bench_alloc_peek(bench_alloc_count *out) { memset(out, 0, sizeof(*out)); }
void bench_alloc_reset_peak(void) {}

#else /* COUNTING */

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *ptr, size_t size);
extern void __libc_free(void *ptr);
extern void *__libc_memalign(size_t align, size_t size);
extern void *__libc_valloc(size_t size);
extern void *__libc_pvalloc(size_t size);

static _Thread_local bool counting;
static bench_alloc_count cur;

/* Open addressing, linear probing; a slot is in use when its generation is
 * the current one, so starting a window forgets every block at once. */
#define TABLE_BITS 21
#define TABLE_SIZE ((size_t)1 << TABLE_BITS)
#define TABLE_MAX (TABLE_SIZE / 4 * 3)

typedef struct slot {
    uintptr_t key;
    size_t size;   /* requested */
    int64_t adds;  /* what the block adds to cur.live */
    uint32_t gen;
} slot;

static slot table[TABLE_SIZE];
static uint32_t gen;
static size_t used;

/* The address itself: blocks requested one after another land in nearby
 * slots, which keeps the table in cache (a mixing hash made the slow
 * libraries' passes twice as long). */
static size_t home(uintptr_t key) {
    return (size_t)(key >> 4) & (TABLE_SIZE - 1);
}

static void add_live(int64_t n) {
    cur.live += n;
    if (cur.live > cur.peak) cur.peak = cur.live;
}

static void insert(void *p, size_t size, int64_t adds) {
    size_t i;
    if (cur.lost) return;
    if (used >= TABLE_MAX) {
        cur.lost = true;
        return;
    }
    for (i = home((uintptr_t)p); table[i].gen == gen; i = (i + 1) & (TABLE_SIZE - 1)) {}
    table[i].key = (uintptr_t)p;
    table[i].size = size;
    table[i].adds = adds;
    table[i].gen = gen;
    used++;
}

/* Removes p and says what it was; false for a block requested before the
 * window. Backward-shift deletion keeps every probe chain unbroken. */
static bool take(void *p, slot *out) {
    size_t i, j;
    if (cur.lost) return false;
    for (i = home((uintptr_t)p); table[i].gen == gen; i = (i + 1) & (TABLE_SIZE - 1))
        if (table[i].key == (uintptr_t)p) break;
    if (table[i].gen != gen) return false;
    *out = table[i];
    used--;
    table[i].gen = gen - 1;
    for (j = (i + 1) & (TABLE_SIZE - 1); table[j].gen == gen; j = (j + 1) & (TABLE_SIZE - 1)) {
        size_t h = home(table[j].key);
        /* j's entry may move to the hole at i unless its home lies in (i, j] */
        bool stays = i <= j ? (h > i && h <= j) : (h > i || h <= j);
        if (stays) continue;
        table[i] = table[j];
        table[j].gen = gen - 1;
        i = j;
    }
    return true;
}

static void count_alloc(void *p, size_t size) {
    cur.calls++;
    cur.bytes += size;
    if (!p) return;
    insert(p, size, (int64_t)size);
    add_live((int64_t)size);
}

static void count_free(void *p) {
    slot s;
    if (!p) return;
    cur.frees++;
    if (take(p, &s)) add_live(-s.adds);
}

const char *bench_alloc_unavailable(void) { return NULL; }

void bench_alloc_begin(void) {
    memset(&cur, 0, sizeof(cur));
    gen++;
    if (gen == 0) { /* after 2^32 windows: start clean */
        memset(table, 0, sizeof(table));
        gen = 1;
    }
    used = 0;
    counting = true;
}

void bench_alloc_end(bench_alloc_count *out) {
    counting = false;
    *out = cur;
}

void bench_alloc_peek(bench_alloc_count *out) { *out = cur; }
void bench_alloc_reset_peak(void) { cur.peak = cur.live; }

/* ---- the interposed functions -------------------------------------------- */
/* They never call one another: glibc declares them leaf functions, which
 * would let the compiler assume that a call does not touch this file's
 * counters. */
void *malloc(size_t size) {
    void *p = __libc_malloc(size);
    if (counting) count_alloc(p, size);
    return p;
}

void *calloc(size_t n, size_t size) {
    void *p = __libc_calloc(n, size);
    if (counting) count_alloc(p, n * size); /* p is NULL if that overflowed */
    return p;
}

/* A realloc is one call that requests what it adds to the block (the
 * size of a block from before the window is glibc's usable size). */
static void *resize(void *ptr, size_t size) {
    void *p;
    slot old = {0, 0, 0, 0};
    bool known = false;
    if (!ptr) {
        p = __libc_malloc(size);
        if (counting) count_alloc(p, size);
        return p;
    }
    if (size == 0) { /* glibc frees the block */
        if (counting) count_free(ptr);
        __libc_free(ptr);
        return NULL;
    }
    if (!counting) return __libc_realloc(ptr, size);
    known = take(ptr, &old);
    if (!known) old.size = malloc_usable_size(ptr);
    p = __libc_realloc(ptr, size);
    cur.calls++;
    if (!p) { /* the block is unchanged */
        if (known) insert(ptr, old.size, old.adds);
        return NULL;
    }
    if (size > old.size) cur.bytes += size - old.size;
    insert(p, size, old.adds + (int64_t)size - (int64_t)old.size);
    add_live((int64_t)size - (int64_t)old.size);
    return p;
}

void *realloc(void *ptr, size_t size) { return resize(ptr, size); }

void *reallocarray(void *ptr, size_t n, size_t size) {
    if (size && n > (size_t)-1 / size) {
        errno = ENOMEM;
        return NULL;
    }
    return resize(ptr, n * size);
}

void free(void *ptr) {
    if (counting) count_free(ptr);
    __libc_free(ptr);
}

static void *aligned(size_t align, size_t size) {
    void *p = __libc_memalign(align, size);
    if (counting) count_alloc(p, size);
    return p;
}

void *memalign(size_t align, size_t size) { return aligned(align, size); }
void *aligned_alloc(size_t align, size_t size) { return aligned(align, size); }

int posix_memalign(void **out, size_t align, size_t size) {
    void *p;
    if (align < sizeof(void *) || (align & (align - 1)) != 0) return EINVAL;
    p = aligned(align, size);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
}

void *valloc(size_t size) {
    void *p = __libc_valloc(size);
    if (counting) count_alloc(p, size);
    return p;
}

void *pvalloc(size_t size) {
    void *p = __libc_pvalloc(size);
    if (counting) count_alloc(p, size);
    return p;
}

#endif /* COUNTING */
