/*
 * index.c - the structural indexer's portable kernel, its end-of-input
 * step and the window driver (see index.h). The vector kernels are in
 * index_x86.c (AVX-512), index_avx2.c and index_neon.c.
 */
#include "read/index.h"
#include "read/simd.h"

/* Byte classes for the portable kernel, one bit per mask. */
enum { C_QUOTE = 1, C_BSLASH = 2, C_WS = 4, C_OP = 8, C_CTRL = 16 };

static const u8 byte_class[256] = {
    C_CTRL, C_CTRL, C_CTRL, C_CTRL, C_CTRL, C_CTRL, C_CTRL, C_CTRL,
    C_CTRL, C_CTRL | C_WS, C_CTRL | C_WS, C_CTRL, C_CTRL, C_CTRL | C_WS, C_CTRL, C_CTRL,
    C_CTRL, C_CTRL, C_CTRL, C_CTRL, C_CTRL, C_CTRL, C_CTRL, C_CTRL,
    C_CTRL, C_CTRL, C_CTRL, C_CTRL, C_CTRL, C_CTRL, C_CTRL, C_CTRL,
    [' '] = C_WS, ['"'] = C_QUOTE, ['\\'] = C_BSLASH,
    ['{'] = C_OP, ['}'] = C_OP, ['['] = C_OP, [']'] = C_OP, [','] = C_OP, [':'] = C_OP,
};

/* ----------------------------------------------------------------------------
 * UTF-8, a byte at a time: the number of continuation bytes still wanted
 * and the range the next one must fall in (narrower after E0, ED, F0, F4).
 * ------------------------------------------------------------------------- */
typedef struct utf8_dfa {
    unsigned need;
    u8 lo, hi;
} utf8_dfa;

/* Feeds byte b; false when it breaks UTF-8. */
static bool utf8_step(utf8_dfa *d, u8 b) {
    if (d->need) {
        if (b < d->lo || b > d->hi) return false;
        d->need--;
        d->lo = 0x80;
        d->hi = 0xBF;
        return true;
    }
    if (b < 0x80) return true;
    d->lo = 0x80;
    d->hi = 0xBF;
    if (b >= 0xC2 && b <= 0xDF) {
        d->need = 1;
    } else if (b >= 0xE0 && b <= 0xEF) {
        d->need = 2;
        if (b == 0xE0) d->lo = 0xA0;
        if (b == 0xED) d->hi = 0x9F;
    } else if (b >= 0xF0 && b <= 0xF4) {
        d->need = 3;
        if (b == 0xF0) d->lo = 0x90;
        if (b == 0xF4) d->hi = 0x8F;
    } else {
        return false;
    }
    return true;
}

/* The automaton's state after the valid text ending with the three bytes
 * of tail: run from the first of them that is not a continuation (the
 * bytes before it end a sequence that was already checked). */
static utf8_dfa utf8_resume(const u8 tail[4]) {
    utf8_dfa d = {0, 0x80, 0xBF};
    int i = 0;
    while (i < 3 && (tail[i] & 0xC0) == 0x80) i++;
    for (; i < 3; i++) (void)utf8_step(&d, tail[i]);
    return d;
}

TYJSON__FIRST_USE
usize tyjson__index_scalar(tyjson__idx_state *s, const u8 *src, usize nblocks, u16 *out) {
    usize n = 0;
    utf8_dfa d = utf8_resume(s->tail);
    for (usize blk = 0; blk < nblocks; blk++) {
        const u8 *p = src + blk * 64;
        u64 q = 0, bs = 0, ws = 0, op = 0, ctrl = 0, high = 0;
        for (unsigned i = 0; i < 64; i++) {
            u64 c = byte_class[p[i]];
            q |= (c & 1) << i;
            bs |= ((c >> 1) & 1) << i;
            ws |= ((c >> 2) & 1) << i;
            op |= ((c >> 3) & 1) << i;
            ctrl |= ((c >> 4) & 1) << i;
            high |= (u64)(p[i] >> 7) << i;
        }
        if (high || d.need) {
            for (unsigned i = 0; i < 64; i++) {
                if (!utf8_step(&d, p[i])) {
                    s->err |= 1;
                    d.need = 0;
                }
            }
        }
        u64 esc = tyjson__idx_escaped(s, &bs);
        q &= ~esc;
        u64 in = tyjson__idx_prefix_xor(q);
        u64 tok = tyjson__idx_tokens(s, q, in, bs, ws, op, ctrl);
        n = tyjson__idx_flatten(out, n, tok, (unsigned)(blk * 64));
    }
    memcpy(s->tail, src + nblocks * 64 - 3, 3);
    return n;
}

void tyjson__idx_init(tyjson__idx_state *s) { memset(s, 0, sizeof(*s)); }

/* One block of spaces after the input: a UTF-8 sequence cut short by the
 * end is flagged at its first space. */
u64 tyjson__idx_finish(tyjson__idx_state *s, tyjson__index_fn k) {
    u8 spaces[64];
    u16 scratch[64 + TYJSON__IDX_SLACK];
    memset(spaces, ' ', sizeof(spaces));
    (void)k(s, spaces, 1, scratch);
    s->err |= s->in_str;
    return s->err;
}

/* ----------------------------------------------------------------------------
 * Window driver
 * ------------------------------------------------------------------------- */
void tyjson__indexer_init(tyjson__indexer *ix, const u8 *p, const u8 *end, usize first_blocks) {
    tyjson__idx_init(&ix->st);
    ix->kernel = tyjson__index_kernel();
    ix->pos = p;
    ix->end = end;
    ix->blocks = first_blocks;
    ix->done = false;
    ix->copy_dst = NULL;
    ix->copy_src = NULL;
}

void tyjson__indexer_copy_from(tyjson__indexer *ix, const u8 *src) {
    ix->copy_dst = (u8 *)(uintptr_t)ix->pos;
    ix->copy_src = src;
}

/* The buffer filled up to `upto` (at most end), then zeros. */
static void copy_upto(tyjson__indexer *ix, const u8 *upto) {
    u8 *d = ix->copy_dst;
    if (upto > ix->end) upto = ix->end;
    if (upto <= d) return;
    usize n = (usize)(upto - d);
    memcpy(d, ix->copy_src, n);
    ix->copy_dst = d + n;
    ix->copy_src += n;
    if (ix->copy_dst < ix->end) memset(ix->copy_dst, 0, TYJSON__PAD);
}

void tyjson__indexer_copy_rest(tyjson__indexer *ix) {
    if (ix->copy_dst) copy_upto(ix, ix->end);
}

usize tyjson__indexer_next(tyjson__indexer *ix, const u8 **base) {
    const u8 *p = ix->pos;
    usize left = (usize)(ix->end - p);
    *base = p;
    if (left >= 64) {
        usize blocks = left / 64;
        if (blocks > ix->blocks) blocks = ix->blocks;
        if (ix->blocks < TYJSON__IDX_WINDOW / 64) ix->blocks *= 2;
        ix->pos = p + blocks * 64;
        if (ix->copy_dst) copy_upto(ix, ix->pos + TYJSON__IDX_LEAD);
        return ix->kernel(&ix->st, p, blocks, ix->idx);
    }
    if (ix->done) return 0;
    ix->done = true;
    usize n = 0;
    if (ix->copy_dst) copy_upto(ix, ix->end);
    if (left) {
        u8 last[64];
        memset(last, ' ', sizeof(last));
        memcpy(last, p, left);
        n = ix->kernel(&ix->st, last, 1, ix->idx);
        ix->pos = ix->end;
    }
    (void)tyjson__idx_finish(&ix->st, ix->kernel);
    return n;
}

/* ----------------------------------------------------------------------------
 * Token cursor
 * ------------------------------------------------------------------------- */
tyjson__tok_win tyjson__tok_start(tyjson__indexer *ix, const u8 *p, const u8 *end,
                                  usize first_blocks) {
    tyjson__indexer_init(ix, p, end, first_blocks);
    tyjson__tok_win w = {p, ix->idx, ix->idx};
    return w;
}

TYJSON__NOINLINE tyjson__tok_win tyjson__tok_refill(tyjson__indexer *ix) {
    tyjson__tok_win w;
    for (;;) {
        usize n = tyjson__indexer_next(ix, &w.base);
        w.ip = ix->idx;
        w.iend = ix->idx + n;
        if (ix->st.err) {
            w.base = NULL;
            w.iend = w.ip;
            return w;
        }
        if (n) return w;
        if (ix->done) {
            w.base = ix->end;
            return w;
        }
    }
}

#if !((defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__)) && \
      !defined(TYJSON_NO_SIMD)) &&                                                            \
    !TYJSON__NEON
/* No vector kernel for this target: every level runs the portable one. */
tyjson__index_fn tyjson__index_kernel_for(int level) {
    (void)level;
    return tyjson__index_scalar;
}
#endif
