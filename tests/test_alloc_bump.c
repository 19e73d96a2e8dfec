/*
 * test_alloc_bump.c - the bump allocator core (base/bump.h, bump.c) and the
 * promises of its three users that no other test pins down: the edge
 * cases of the aligned take (zero size, every alignment 1..64, exact fit,
 * sizes near SIZE_MAX), in-place resize, the block chain's sizes and
 * failures, the arena's zero-size and fixed-buffer requests, its allocator
 * view's in-place realloc, and a stream of similar messages that stops
 * allocating after its second reset.
 */
#include "test.h"
#include "tyjson.h"

#include "base/arena.h"

#include <stdint.h>

/* A 64-byte aligned buffer for windows at chosen misalignments. */
static _Alignas(64) char buf[512];

/* ----------------------------------------------------------------------------
 * Aligned take
 * ------------------------------------------------------------------------- */
TEST(empty_window_fits_nothing) {
    char *cur = NULL, *end = NULL;
    void *p = buf;
    ASSERT_FALSE(tyjson__bump(&cur, &end, 0, 1, &p));
    ASSERT_FALSE(tyjson__bump(&cur, &end, 1, 16, &p));
    ASSERT_NULL(cur);
    ASSERT_TRUE(p == buf); /* untouched on a miss */
}

TEST(zero_size_takes_only_padding) {
    char *cur = buf + 3, *end = buf + 100;
    void *p;
    ASSERT_TRUE(tyjson__bump(&cur, &end, 0, 1, &p));
    ASSERT_TRUE(p == buf + 3 && cur == buf + 3);
    ASSERT_TRUE(tyjson__bump(&cur, &end, 0, 16, &p));
    ASSERT_TRUE(p == buf + 16 && cur == buf + 16);
}

TEST(every_alignment_and_offset) {
    for (size_t align = 1; align <= 64; align *= 2) {
        for (size_t off = 0; off < 64; off++) {
            for (size_t size = 0; size < 40; size += 13) {
                char *cur = buf + off, *end = buf + sizeof(buf);
                void *p;
                ASSERT_TRUE(tyjson__bump(&cur, &end, size, align, &p));
                size_t pad = (size_t)((char *)p - (buf + off));
                ASSERT_EQ_UINT((uintptr_t)p % align, 0);
                ASSERT_TRUE(pad < align);
                ASSERT_TRUE(cur == (char *)p + size);
            }
        }
    }
}

TEST(exact_fit_then_nothing_more) {
    char *cur = buf, *end = buf + 48;
    void *p;
    ASSERT_TRUE(tyjson__bump(&cur, &end, 48, 16, &p));
    ASSERT_TRUE(p == buf && cur == end);
    ASSERT_FALSE(tyjson__bump(&cur, &end, 1, 1, &p));
    ASSERT_TRUE(tyjson__bump(&cur, &end, 0, 1, &p)); /* zero bytes at the end fit */
    ASSERT_TRUE(p == end);
    /* One byte short, with padding counted: 40 bytes at 16 after 1 byte need 55. */
    cur = buf + 1;
    end = buf + 55;
    ASSERT_FALSE(tyjson__bump(&cur, &end, 40, 16, &p));
    end = buf + 56;
    ASSERT_TRUE(tyjson__bump(&cur, &end, 40, 16, &p));
    ASSERT_TRUE(p == buf + 16 && cur == end);
}

TEST(padding_beyond_the_window) {
    /* 3 bytes of room at offset 1: padding to 64 alone does not fit. */
    char *cur = buf + 1, *end = buf + 4;
    void *p;
    ASSERT_FALSE(tyjson__bump(&cur, &end, 0, 64, &p));
    ASSERT_TRUE(cur == buf + 1);
}

TEST(sizes_near_size_max_fail_without_wrapping) {
    size_t sizes[] = {SIZE_MAX, SIZE_MAX - 1, SIZE_MAX - 15, SIZE_MAX - 63, SIZE_MAX / 2 + 1};
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        for (size_t align = 1; align <= 64; align *= 2) {
            char *cur = buf + 5, *end = buf + sizeof(buf);
            void *p;
            ASSERT_FALSE(tyjson__bump(&cur, &end, sizes[i], align, &p));
            ASSERT_TRUE(cur == buf + 5);
        }
    }
}

/* ----------------------------------------------------------------------------
 * In-place resize of the last allocation
 * ------------------------------------------------------------------------- */
TEST(resize_grows_shrinks_and_refuses) {
    char *cur = buf + 10, *end = buf + 100;
    char *last = buf + 10;
    ASSERT_TRUE(tyjson__bump_resize(&cur, end, last, 90)); /* exactly to the end */
    ASSERT_TRUE(cur == end);
    ASSERT_FALSE(tyjson__bump_resize(&cur, end, last, 91));
    ASSERT_TRUE(cur == end);
    ASSERT_TRUE(tyjson__bump_resize(&cur, end, last, 0));
    ASSERT_TRUE(cur == last);
    ASSERT_FALSE(tyjson__bump_resize(&cur, end, last, SIZE_MAX));
    ASSERT_TRUE(cur == last);
}

/* ----------------------------------------------------------------------------
 * Block chain
 * ------------------------------------------------------------------------- */
typedef struct counting {
    size_t mallocs, frees, fail_after; /* fail_after 0: never fail */
} counting;

static void *cnt_malloc(void *ctx, size_t n) {
    counting *c = (counting *)ctx;
    if (c->fail_after && c->mallocs + 1 >= c->fail_after) return NULL;
    c->mallocs++;
    return malloc(n);
}
static void *cnt_realloc(void *ctx, void *p, size_t old, size_t n) {
    (void)ctx;
    (void)old;
    return realloc(p, n);
}
static void cnt_free(void *ctx, void *p) {
    ((counting *)ctx)->frees++;
    free(p);
}

TEST(block_sizes_double_up_to_the_cap) {
    counting c = {0, 0, 0};
    tyjson_alloc alc = {cnt_malloc, cnt_realloc, cnt_free, &c};
    tyjson__bump_blk *head = NULL;
    size_t next = 64;
    size_t want[] = {64, 128, 256, 256};
    for (size_t i = 0; i < 4; i++) {
        tyjson__bump_blk *b = tyjson__bump_blk_new(&alc, &head, &next, 256, 8, 8);
        ASSERT_NOT_NULL(b);
        ASSERT_TRUE(head == b);
        ASSERT_EQ_UINT(b->size, want[i]);
        ASSERT_EQ_UINT((uintptr_t)tyjson__bump_blk_data(b) % 16, 0);
        ASSERT_TRUE(tyjson__bump_blk_end(b) == (char *)b + b->size);
    }
    ASSERT_EQ_UINT(next, 256); /* doubled up to the cap, then held */
    /* A request larger than the standard size gets a block that holds it
     * at its alignment. */
    tyjson__bump_blk *big = tyjson__bump_blk_new(&alc, &head, &next, 256, 5000, 64);
    ASSERT_NOT_NULL(big);
    char *cur = tyjson__bump_blk_data(big), *end = tyjson__bump_blk_end(big);
    void *p;
    ASSERT_TRUE(tyjson__bump(&cur, &end, 5000, 64, &p));
    tyjson__bump_chain_free(&alc, head);
    ASSERT_EQ_UINT(c.mallocs, 5);
    ASSERT_EQ_UINT(c.frees, 5);
}

TEST(block_failures_change_nothing) {
    counting c = {0, 0, 1}; /* every malloc fails */
    tyjson_alloc alc = {cnt_malloc, cnt_realloc, cnt_free, &c};
    tyjson__bump_blk *head = NULL;
    size_t next = 4096;
    ASSERT_NULL(tyjson__bump_blk_new(&alc, &head, &next, 1 << 20, 10, 1));
    ASSERT_NULL(head);
    ASSERT_EQ_UINT(next, 4096);
    c.fail_after = 0;
    ASSERT_NULL(tyjson__bump_blk_new(&alc, &head, &next, 1 << 20, SIZE_MAX - 8, 1));
    ASSERT_NULL(head);
    ASSERT_EQ_UINT(c.mallocs, 0);
}

/* ----------------------------------------------------------------------------
 * The arena on the core
 * ------------------------------------------------------------------------- */
TEST(arena_zero_size_and_alignments) {
    tyjson_arena a;
    tyjson_arena_init(&a, NULL);
    ASSERT_NOT_NULL(tyjson_arena_alloc(&a, 0, 1)); /* a fresh arena still answers */
    for (size_t align = 1; align <= 64; align *= 2) {
        char *p = (char *)tyjson_arena_alloc(&a, 3, align);
        ASSERT_NOT_NULL(p);
        ASSERT_EQ_UINT((uintptr_t)p % align, 0);
    }
    ASSERT_NULL(tyjson_arena_alloc(&a, 1, 128));
    ASSERT_NULL(tyjson_arena_alloc(&a, 1, 3));
    ASSERT_NULL(tyjson_arena_alloc(&a, SIZE_MAX, 8)); /* the block size would wrap */
    tyjson_arena_free(&a);
}

TEST(arena_fixed_buffer_exact_fit) {
    tyjson_arena a;
    tyjson_arena_init_buf(&a, buf, 64);
    ASSERT_TRUE(tyjson_arena_alloc(&a, 60, 1) == buf);
    ASSERT_NULL(tyjson_arena_alloc(&a, 5, 1)); /* never allocates */
    ASSERT_TRUE(tyjson_arena_alloc(&a, 4, 1) == buf + 60);
    ASSERT_EQ_UINT(tyjson_arena_used(&a), 64);
    tyjson_arena_reset(&a);
    ASSERT_TRUE(tyjson_arena_alloc(&a, 64, 64) == buf);
    tyjson_arena_free(&a);
}

TEST(arena_view_resizes_its_last_block_in_place) {
    tyjson_arena a;
    tyjson_arena_init_buf(&a, buf, 256);
    tyjson_alloc v = tyjson_arena_allocator(&a);
    char *p = (char *)v.malloc(v.ctx, 32);
    ASSERT_NOT_NULL(p);
    size_t used = tyjson_arena_used(&a);
    ASSERT_TRUE(v.realloc(v.ctx, p, 32, 200) == p);
    ASSERT_EQ_UINT(tyjson_arena_used(&a), used + 168);
    ASSERT_TRUE(v.realloc(v.ctx, p, 200, 8) == p);
    ASSERT_EQ_UINT(tyjson_arena_used(&a), used - 24);
    ASSERT_NULL(v.realloc(v.ctx, p, 8, 1000)); /* past the buffer: no copy fits */
    char *q = (char *)v.malloc(v.ctx, 16);
    ASSERT_NOT_NULL(q);
    memset(p, 'x', 8);
    char *moved = (char *)v.realloc(v.ctx, p, 8, 24); /* not the last: copied */
    ASSERT_NOT_NULL(moved);
    ASSERT_TRUE(moved != p);
    ASSERT_EQ_MEM(moved, "xxxxxxxx", 8);
    tyjson_arena_free(&a);
}

TEST(arena_stream_stops_allocating_after_second_reset) {
    counting c = {0, 0, 0};
    tyjson_alloc alc = {cnt_malloc, cnt_realloc, cnt_free, &c};
    tyjson_arena a;
    tyjson_arena_init(&a, &alc);
    size_t after_second = 0;
    for (int msg = 0; msg < 6; msg++) {
        /* one message: many small requests and a few large ones */
        for (int i = 0; i < 300; i++) ASSERT_NOT_NULL(tyjson_arena_alloc(&a, 24 + (size_t)(i % 7), 8));
        for (int i = 0; i < 3; i++) ASSERT_NOT_NULL(tyjson_arena_alloc(&a, 6000, 16));
        tyjson_arena_reset(&a);
        if (msg == 1) after_second = c.mallocs;
    }
    ASSERT_TRUE(after_second > 0);
    ASSERT_EQ_UINT(c.mallocs, after_second);
    tyjson_arena_free(&a);
    ASSERT_EQ_UINT(c.frees, c.mallocs);
}

/* ----------------------------------------------------------------------------
 * The pool on the core
 * ------------------------------------------------------------------------- */
TEST(pool_requests_near_size_max_and_exact_fill) {
    static _Alignas(16) char mem[1024];
    tyjson_alloc pool;
    ASSERT_TRUE(tyjson_alloc_pool_init(&pool, mem, sizeof(mem)));
    ASSERT_NULL(pool.malloc(pool.ctx, SIZE_MAX));
    ASSERT_NULL(pool.malloc(pool.ctx, SIZE_MAX - 16));
    char *p = (char *)pool.malloc(pool.ctx, 10);
    ASSERT_NOT_NULL(p);
    ASSERT_EQ_UINT((uintptr_t)p % 16, 0);
    ASSERT_NULL(pool.realloc(pool.ctx, p, 10, SIZE_MAX));
    /* The newest block grows in place up to the end of the buffer. */
    size_t room = (size_t)(mem + sizeof(mem) - p);
    ASSERT_TRUE(pool.realloc(pool.ctx, p, 10, room) == p);
    ASSERT_NULL(pool.malloc(pool.ctx, 1));
    ASSERT_NULL(pool.realloc(pool.ctx, p, room, room + 1));
    pool.free(pool.ctx, p); /* gives every byte back */
    ASSERT_TRUE(pool.malloc(pool.ctx, room) == p);
}

/* ----------------------------------------------------------------------------
 * The mutable document on the core
 * ------------------------------------------------------------------------- */
TEST(mut_big_string_keeps_the_roomier_block) {
    counting c = {0, 0, 0};
    tyjson_alloc alc = {cnt_malloc, cnt_realloc, cnt_free, &c};
    tyjson_mut_doc *doc = tyjson_mut_doc_new(&alc);
    ASSERT_NOT_NULL(doc);
    static char big[10000];
    memset(big, 'b', sizeof(big));
    ASSERT_NOT_NULL(tyjson_mut_strcpy(doc, "a")); /* first string block */
    size_t before = c.mallocs;
    ASSERT_NOT_NULL(tyjson_mut_strncpy(doc, big, sizeof(big))); /* a block of its own */
    ASSERT_EQ_UINT(c.mallocs, before + 1);
    /* Small strings go on in the first block's rest. */
    for (int i = 0; i < 100; i++) ASSERT_NOT_NULL(tyjson_mut_strcpy(doc, "abcdefgh"));
    ASSERT_EQ_UINT(c.mallocs, before + 1);
    tyjson_mut_doc_free(doc);
    ASSERT_EQ_UINT(c.frees, c.mallocs);
}

int main(int argc, char **argv) { return test_main(argc, argv); }
