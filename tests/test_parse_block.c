/*
 * test_parse_block.c - the parse's memory from 64 KiB of input on: the
 * padded copy and the values share one block (one allocation per parse,
 * freed whole), values that outgrow it move to a block of their own, and a
 * block mostly unused is shrunk; an allocator that moves blocks on realloc
 * gets the same document (its strings follow the block). Each shape is
 * parsed by both state machines (byte at a time, and over the structural
 * index where a vector kernel runs), with failing allocations, in a pool of
 * tyjson_read_max_memory() bytes, and with an error at its end.
 */
#include "test.h"
#include "tyjson.h"

#include "dom/parse.h"
#include "read/simd.h"

/* ----------------------------------------------------------------------------
 * Generated documents: a flat array of ones and strings. Where first_capacity
 * samples the text (four windows of len/256 bytes a quarter apart) there are
 * either only strings (the guess is far too small: the values outgrow the
 * block) or only ones (far too large: most of the block is given back).
 * "dense" is ones only: the guess is capped below the count, the values
 * outgrow a block mostly taken by them, and that area is given back.
 * ------------------------------------------------------------------------- */
enum { SHAPE_EVEN, SHAPE_GROW, SHAPE_SHRINK, SHAPE_DENSE, SHAPE_COUNT };
static const char *const shape_names[SHAPE_COUNT] = {"even", "grow", "shrink", "dense"};

typedef struct gen_doc {
    char *text;
    size_t len;
    size_t vals;
} gen_doc;

/* Whether pos lies in (or near) one of the sampled windows of a text of
 * about target bytes. */
static bool in_sample(size_t pos, size_t target) {
    for (size_t k = 0; k < 4; k++) {
        size_t at = target / 4 * k, lo = at > 128 ? at - 128 : 0, hi = at + target / 256 + 128;
        if (pos >= lo && pos < hi) return true;
    }
    return false;
}

/* The next sampled window's start after pos (or target). */
static size_t next_sample(size_t pos, size_t target) {
    size_t p = pos;
    while (p < target && !in_sample(p, target)) p += 16;
    return p;
}

/* raws: every 97th number a 30-digit integer, read with BIGNUM_AS_RAW. */
static gen_doc gen_raws(int shape, size_t target, bool raws) {
    gen_doc g;
    g.text = (char *)malloc(target + 8192);
    ASSERT_NOT_NULL(g.text);
    size_t pos = 0, vals = 1;
    g.text[pos++] = '[';
    while (pos < target) {
        if (vals > 1) g.text[pos++] = ',';
        bool sampled = in_sample(pos, target);
        bool str = shape == SHAPE_EVEN     ? (vals % 3 == 0)
                   : shape == SHAPE_GROW   ? sampled
                   : shape == SHAPE_SHRINK ? !sampled
                                           : false;
        if (!str && raws && vals % 97 == 0) {
            memcpy(g.text + pos, "123456789012345678901234567890", 30);
            pos += 30;
        } else if (!str) {
            g.text[pos++] = '1';
        } else {
            size_t n = shape == SHAPE_EVEN ? 9 + vals % 7
                       : shape == SHAPE_GROW ? target / 256 + 300
                                             : next_sample(pos + 1, target) - pos;
            if (n > 4096) n = 4096;
            g.text[pos++] = '"';
            for (size_t i = 0; i < n; i++) g.text[pos + i] = (char)('a' + (pos + i) % 26);
            pos += n;
            g.text[pos++] = '"';
        }
        vals++;
    }
    g.text[pos++] = ']';
    g.len = pos;
    g.vals = vals;
    return g;
}

static gen_doc gen(int shape, size_t target) { return gen_raws(shape, target, false); }

/* ----------------------------------------------------------------------------
 * Allocators: counting, moving (every realloc copies to a new block and
 * scribbles over the old one), failing at the n-th request.
 * ------------------------------------------------------------------------- */
typedef struct counter {
    long live, mallocs, reallocs, frees;
    bool move;    /* realloc always moves */
    long fail_at; /* the request (malloc or realloc) that fails; -1 none */
    long requests;
    bool failed, failed_shrink;
    void *grave[64]; /* blocks moved away from: poisoned, kept until bury() */
    int graves;
} counter;

static void *c_malloc(void *ctx, size_t n) {
    counter *c = (counter *)ctx;
    if (c->requests++ == c->fail_at) {
        c->failed = true;
        return NULL;
    }
    void *p = malloc(n);
    if (p) {
        c->live++;
        c->mallocs++;
    }
    return p;
}

static void *c_realloc(void *ctx, void *p, size_t old, size_t n) {
    counter *c = (counter *)ctx;
    if (c->requests++ == c->fail_at) {
        c->failed = true;
        if (n < old) c->failed_shrink = true;
        return NULL;
    }
    c->reallocs++;
    if (!c->move) return realloc(p, n);
    void *q = malloc(n);
    if (!q) return NULL;
    memcpy(q, p, old < n ? old : n);
    /* Poisoned and kept, so that nothing allocated later reuses it and
     * hides a pointer still into it. */
    memset(p, 0xAA, old);
    if (c->graves < 64) c->grave[c->graves++] = p;
    else free(p);
    return q;
}

static void c_free(void *ctx, void *p) {
    counter *c = (counter *)ctx;
    c->live--;
    c->frees++;
    free(p);
}

static void bury(counter *c) {
    while (c->graves) free(c->grave[--c->graves]);
}

static tyjson_alloc counting(counter *c, bool move, long fail_at) {
    memset(c, 0, sizeof(*c));
    c->move = move;
    c->fail_at = fail_at;
    tyjson_alloc a = {c_malloc, c_realloc, c_free, c};
    return a;
}

/* Both state machines: the byte-at-a-time one, and the one over the index
 * (which the scalar level never takes). */
static const int policies[2] = {TYJSON__INDEX_NEVER, TYJSON__INDEX_ALWAYS};

/* The document must be the generated text, value for value. */
static void check_doc(const tyjson_doc *doc, const gen_doc *g) {
    ASSERT_NOT_NULL(doc);
    ASSERT_EQ_UINT(tyjson_doc_get_val_count(doc), g->vals);
    ASSERT_EQ_UINT(tyjson_doc_get_read_size(doc), g->len);
    size_t n = 0;
    char *out = tyjson_write(doc, 0, &n);
    ASSERT_NOT_NULL(out);
    ASSERT_EQ_UINT(n, g->len);
    ASSERT_EQ_MEM(out, g->text, n);
    free(out);
}

TEST(one_allocation_per_parse_freed_whole) {
    gen_doc g = gen(SHAPE_EVEN, 200 * 1024);
    for (int k = 0; k < 2; k++) {
        tyjson__parse_set_index_policy(policies[k]);
        counter c;
        tyjson_alloc a = counting(&c, false, -1);
        tyjson_read_options o = {0, 0, &a};
        tyjson_doc *doc = tyjson_read_opts(g.text, g.len, &o, NULL);
        check_doc(doc, &g);
        ASSERT_EQ_INT(c.mallocs, 1);
        ASSERT_EQ_INT(c.reallocs, 0);
        /* the copy, the header and the values, within the block */
        ASSERT_TRUE(tyjson_doc_get_mem_size(doc) >= g.len + g.vals * sizeof(tyjson_val));
        tyjson_doc_free(doc);
        ASSERT_EQ_INT(c.frees, 1);
        ASSERT_EQ_INT(c.live, 0);
    }
    tyjson__parse_set_index_policy(TYJSON__INDEX_AUTO);
    free(g.text);
}

TEST(small_inputs_keep_two_blocks) {
    gen_doc g = gen(SHAPE_EVEN, 60 * 1024);
    counter c;
    tyjson_alloc a = counting(&c, false, -1);
    tyjson_read_options o = {0, 0, &a};
    tyjson_doc *doc = tyjson_read_opts(g.text, g.len, &o, NULL);
    check_doc(doc, &g);
    ASSERT_EQ_INT(c.mallocs, 2);
    tyjson_doc_free(doc);
    ASSERT_EQ_INT(c.live, 0);
    free(g.text);
}

TEST(values_outgrow_the_block) {
    for (int s = SHAPE_GROW; s <= SHAPE_DENSE; s += SHAPE_DENSE - SHAPE_GROW) {
    gen_doc g = gen(s, 256 * 1024);
    for (int k = 0; k < 2; k++) {
        tyjson__parse_set_index_policy(policies[k]);
        counter c;
        tyjson_alloc a = counting(&c, false, -1);
        tyjson_read_options o = {0, 0, &a};
        tyjson_doc *doc = tyjson_read_opts(g.text, g.len, &o, NULL);
        check_doc(doc, &g);
        ASSERT_TRUE(c.mallocs >= 2); /* the values moved to a block of their own */
        ASSERT_EQ_INT(c.live, 2);
        /* the unused area after the copy was given back */
        ASSERT_TRUE(tyjson_doc_get_mem_size(doc) < g.len + 256 + 2 * g.vals * sizeof(tyjson_val));
        /* dense: the area the values left was shrunk away */
        if (s == SHAPE_DENSE) ASSERT_TRUE(c.reallocs >= 2);
        tyjson_doc_free(doc);
        ASSERT_EQ_INT(c.live, 0);
    }
    free(g.text);
    }
    tyjson__parse_set_index_policy(TYJSON__INDEX_AUTO);
}

TEST(mostly_unused_block_is_shrunk) {
    gen_doc g = gen(SHAPE_SHRINK, 256 * 1024);
    for (int k = 0; k < 2; k++) {
        tyjson__parse_set_index_policy(policies[k]);
        counter c;
        tyjson_alloc a = counting(&c, false, -1);
        tyjson_read_options o = {0, 0, &a};
        tyjson_doc *doc = tyjson_read_opts(g.text, g.len, &o, NULL);
        check_doc(doc, &g);
        ASSERT_EQ_INT(c.mallocs, 1);
        ASSERT_EQ_INT(c.reallocs, 1);
        ASSERT_TRUE(tyjson_doc_get_mem_size(doc) <= g.len + 256 + g.vals * sizeof(tyjson_val));
        tyjson_doc_free(doc);
        ASSERT_EQ_INT(c.live, 0);
    }
    tyjson__parse_set_index_policy(TYJSON__INDEX_AUTO);
    free(g.text);
}

TEST(moving_allocator_gets_the_same_document) {
    for (int s = 0; s < 2 * SHAPE_COUNT; s++) {
        bool raws = s >= SHAPE_COUNT; /* raw numbers point into the block too */
        tyjson_read_flags fl = raws ? TYJSON_READ_BIGNUM_AS_RAW : 0;
        gen_doc g = gen_raws(s % SHAPE_COUNT, 300 * 1024, raws);
        for (int k = 0; k < 2; k++) {
            tyjson__parse_set_index_policy(policies[k]);
            counter c;
            tyjson_alloc a = counting(&c, true, -1);
            tyjson_read_options o = {fl, 0, &a};
            tyjson_doc *doc = tyjson_read_opts(g.text, g.len, &o, NULL);
            if (!doc) TEST_FAIL("%s: parse failed", shape_names[s % SHAPE_COUNT]);
            check_doc(doc, &g);
            tyjson_doc *ref = tyjson_read(g.text, g.len, fl);
            ASSERT_TRUE(tyjson_equals(tyjson_doc_get_root(doc), tyjson_doc_get_root(ref)));
            tyjson_doc_free(ref);
            tyjson_doc_free(doc);
            ASSERT_EQ_INT(c.live, 0);
            bury(&c);
        }
        free(g.text);
    }
    tyjson__parse_set_index_policy(TYJSON__INDEX_AUTO);
}

TEST(failed_requests_release_everything) {
    for (int s = 0; s < SHAPE_COUNT; s++) {
        gen_doc g = gen(s, 128 * 1024);
        for (int k = 0; k < 2; k++) {
            tyjson__parse_set_index_policy(policies[k]);
            bool done = false;
            for (long n = 0; n < 64 && !done; n++) {
                counter c;
                tyjson_alloc a = counting(&c, false, n);
                tyjson_read_options o = {0, 0, &a};
                tyjson_error err;
                tyjson_doc *doc = tyjson_read_opts(g.text, g.len, &o, &err);
                if (c.failed && !(doc && c.failed_shrink)) {
                    if (doc) TEST_FAIL("%s: parsed although request %ld failed", shape_names[s], n);
                    ASSERT_EQ_INT(err.code, TYJSON_E_NOMEM);
                    if (c.live) TEST_FAIL("%s: %ld blocks leaked (fail_at %ld)", shape_names[s], c.live, n);
                    continue;
                }
                check_doc(doc, &g);
                tyjson_doc_free(doc);
                if (c.live) TEST_FAIL("%s: %ld blocks leaked after success", shape_names[s], c.live);
                done = !c.failed;
            }
            if (!done) TEST_FAIL("%s: never parsed", shape_names[s]);
        }
        free(g.text);
    }
    tyjson__parse_set_index_policy(TYJSON__INDEX_AUTO);
}

TEST(pool_of_max_memory_is_enough) {
    for (int s = 0; s < SHAPE_COUNT; s++) {
        gen_doc g = gen(s, 100 * 1024);
        for (int k = 0; k < 2; k++) {
            tyjson__parse_set_index_policy(policies[k]);
            size_t max = tyjson_read_max_memory(g.len, 0);
            void *buf = malloc(max);
            ASSERT_NOT_NULL(buf);
            tyjson_alloc pool;
            ASSERT_TRUE(tyjson_alloc_pool_init(&pool, buf, max));
            tyjson_read_options o = {0, 0, &pool};
            tyjson_error err;
            tyjson_doc *doc = tyjson_read_opts(g.text, g.len, &o, &err);
            if (!doc) TEST_FAIL("%s: %s in a pool of max_memory", shape_names[s], err.msg);
            check_doc(doc, &g);
            tyjson_doc_free(doc);
            free(buf);
        }
        free(g.text);
    }
    tyjson__parse_set_index_policy(TYJSON__INDEX_AUTO);
}

TEST(error_at_the_end_of_a_large_input) {
    for (int s = 0; s < SHAPE_COUNT; s++) {
        gen_doc g = gen(s, 100 * 1024);
        g.text[g.len - 1] = '}';
        for (int k = 0; k < 2; k++) {
            tyjson__parse_set_index_policy(policies[k]);
            counter c;
            tyjson_alloc a = counting(&c, true, -1);
            tyjson_read_options o = {0, 0, &a};
            tyjson_error err;
            ASSERT_NULL(tyjson_read_opts(g.text, g.len, &o, &err));
            ASSERT_EQ_INT(err.code, TYJSON_E_UNEXPECTED_CHAR);
            ASSERT_EQ_UINT(err.offset, g.len - 1);
            ASSERT_EQ_INT(c.live, 0);
            bury(&c);
        }
        free(g.text);
    }
    tyjson__parse_set_index_policy(TYJSON__INDEX_AUTO);
}

/* At the AVX2 level the default policy takes the index too (the first
 * window decides, parse_index.c's avx2_index_pays): string-heavy text over
 * the index, number-dense text byte at a time; either way the document is
 * the one the byte-at-a-time parse builds. */
TEST(avx2_default_route_same_document) {
    tyjson__simd_set_level(TYJSON__SIMD_AVX2);
    bool avx2 = tyjson__simd_level() == TYJSON__SIMD_AVX2;
    if (avx2) {
        ASSERT_TRUE(tyjson__dom_use_index(0, 120 * 1024));
        ASSERT_FALSE(tyjson__dom_use_index(0, 100)); /* under the index's minimum length */
        ASSERT_FALSE(tyjson__dom_use_index(TYJSON_READ_ALLOW_COMMENTS, 120 * 1024));
    }
    for (int s = 0; s < SHAPE_COUNT; s++) {
        gen_doc g = gen(s, 120 * 1024);
        tyjson__parse_set_index_policy(TYJSON__INDEX_AUTO);
        tyjson_doc *doc = tyjson_read(g.text, g.len, 0);
        check_doc(doc, &g);
        tyjson_doc_free(doc);
        free(g.text);
    }
    tyjson__parse_set_index_policy(TYJSON__INDEX_AUTO);
    tyjson__simd_set_level(TYJSON__SIMD_AUTO);
}

int main(int argc, char **argv) { return test_main(argc, argv); }
