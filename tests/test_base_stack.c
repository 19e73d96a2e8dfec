/* test_base_stack.c - the explicit stack of the deep walks (src/base/stack.h):
 * inline frames first, growth through the caller's allocator, overflow
 * checks, and a refused growth that leaves the stack intact. */
#include "base/stack.h"
#include "test.h"

typedef struct frame {
    size_t a, b;
} frame;

static frame *push_frame(tyjson__stack *s, size_t v) {
    frame *f = (frame *)tyjson__stack_push(s);
    if (f) {
        f->a = v;
        f->b = ~v;
    }
    return f;
}

static void assert_frames(const tyjson__stack *s, size_t n) {
    ASSERT_EQ_UINT(s->len, n);
    for (size_t i = 0; i < n; i++) {
        const frame *f = (const frame *)tyjson__stack_at(s, i);
        ASSERT_EQ_UINT(f->a, i);
        ASSERT_EQ_UINT(f->b, ~i);
    }
}

TEST(inline_frames_need_no_allocation) {
    test_alloc t;
    tyjson_alloc alc = test_alloc_make(&t, 0); /* any request would fail */
    frame inl[4];
    tyjson__stack s;
    tyjson__stack_init(&s, &alc, inl, 4, sizeof(frame));
    for (size_t i = 0; i < 4; i++) ASSERT_TRUE(push_frame(&s, i) == &inl[i]);
    ASSERT_TRUE(tyjson__stack_top(&s) == &inl[3]);
    /* the fifth frame needs memory: refused, the four kept in place */
    ASSERT_NULL(push_frame(&s, 4));
    ASSERT_EQ_UINT(t.calls, 1);
    ASSERT_TRUE(s.buf == (char *)inl);
    ASSERT_EQ_UINT(s.cap, 4);
    assert_frames(&s, 4);
    tyjson__stack_free(&s);
    ASSERT_EQ_INT(t.live, 0);
}

TEST(growth_doubles_through_the_allocator) {
    test_alloc t;
    tyjson_alloc alc = test_alloc_make(&t, SIZE_MAX);
    frame inl[8];
    tyjson__stack s;
    tyjson__stack_init(&s, &alc, inl, 8, sizeof(frame));
    for (size_t i = 0; i < 1000; i++) ASSERT_NOT_NULL(push_frame(&s, i));
    assert_frames(&s, 1000);
    ASSERT_EQ_UINT(s.cap, 1024);
    ASSERT_EQ_UINT(t.calls, 7); /* 16, 32, ..., 1024 */
    ASSERT_EQ_INT(t.live, 1);
    tyjson__stack_free(&s);
    ASSERT_EQ_INT(t.live, 0);
}

TEST(refused_growth_keeps_the_stack) {
    /* Every request in turn is refused: the frames so far survive, and
     * pushing goes on once memory is back. */
    for (size_t at = 0; at < 6; at++) {
        test_alloc t;
        tyjson_alloc alc = test_alloc_make(&t, at);
        frame inl[2];
        tyjson__stack s;
        tyjson__stack_init(&s, &alc, inl, 2, sizeof(frame));
        size_t n = 0;
        while (push_frame(&s, n)) n++;
        assert_frames(&s, n);
        ASSERT_EQ_UINT(t.failed, 1);
        ASSERT_TRUE(s.cap >= n);
        t.fail_at = SIZE_MAX;
        for (; n < 300; n++) ASSERT_NOT_NULL(push_frame(&s, n));
        assert_frames(&s, 300);
        tyjson__stack_free(&s);
        ASSERT_EQ_INT(t.live, 0);
    }
}

TEST(no_inline_storage_and_size_overflow) {
    test_alloc t;
    tyjson_alloc alc = test_alloc_make(&t, SIZE_MAX);
    tyjson__stack s;
    tyjson__stack_init(&s, &alc, NULL, 0, sizeof(frame));
    ASSERT_NOT_NULL(push_frame(&s, 0)); /* the first frame comes from alc */
    ASSERT_EQ_UINT(s.cap, 8);
    assert_frames(&s, 1);
    tyjson__stack_free(&s);
    ASSERT_EQ_INT(t.live, 0);
    /* frames so large that doubling overflows usize: refused, no request */
    t.calls = 0;
    char big[1];
    tyjson__stack_init(&s, &alc, big, 1, SIZE_MAX / 3);
    s.len = 1;
    ASSERT_FALSE(tyjson__stack_grow(&s));
    ASSERT_NULL(tyjson__stack_push(&s));
    ASSERT_EQ_UINT(t.calls, 0);
    ASSERT_TRUE(s.buf == big && s.cap == 1 && s.len == 1);
    tyjson__stack_init(&s, &alc, big, SIZE_MAX / 2 + 1, 1);
    ASSERT_FALSE(tyjson__stack_grow(&s)); /* the capacity itself overflows */
    ASSERT_EQ_UINT(t.calls, 0);
}

/* A bump allocator behind a tyjson_alloc, as a caller with an arena
 * supplies it: growth takes fresh room and copies, frees are no-ops. */
typedef struct bump {
    char buf[4096];
    size_t used, requests;
} bump;

static void *bump_malloc(void *ctx, size_t n) {
    bump *b = (bump *)ctx;
    b->requests++;
    n = (n + 15) & ~(size_t)15;
    if (n > sizeof(b->buf) - b->used) return NULL;
    void *p = b->buf + b->used;
    b->used += n;
    return p;
}
static void *bump_realloc(void *ctx, void *p, size_t old, size_t n) {
    void *q = bump_malloc(ctx, n);
    if (q && p) memcpy(q, p, old < n ? old : n);
    return q;
}
static void bump_free(void *ctx, void *p) {
    (void)ctx;
    (void)p;
}

TEST(grows_from_an_arena) {
    bump b;
    b.used = 0;
    b.requests = 0;
    tyjson_alloc alc = {bump_malloc, bump_realloc, bump_free, &b};
    frame inl[4];
    tyjson__stack s;
    tyjson__stack_init(&s, &alc, inl, 4, sizeof(frame));
    size_t n = 0;
    while (push_frame(&s, n)) n++;
    /* 4 inline, then 8, 16, ..., 128 frames of 16 bytes: 3968 of the 4096
     * bytes; the block of 256 frames is refused */
    ASSERT_EQ_UINT(n, 128);
    assert_frames(&s, 128);
    ASSERT_EQ_UINT(b.requests, 6);
    tyjson__stack_free(&s);
}

int main(int argc, char **argv) { return test_main(argc, argv); }
