/*
 * index_neon.c - the structural indexer's AArch64 kernel (see index.h):
 * NEON (Advanced SIMD, part of every AArch64 CPU; built for little-endian
 * targets, TYJSON__NEON in simd.h), a 64-byte block as four 16-byte vectors.
 *
 * Each class is a compare, or for whitespace and the structural characters
 * one table lookup by the low nibble and a compare. NEON has no byte
 * movemask: each class's four compare results are turned into its 64-bit
 * mask by keeping one bit weight per byte (1, 2, 4, ... 128, per 8 bytes)
 * and adding neighbouring bytes three times, which sums each run of 8
 * bytes into one byte of the mask. UTF-8 is checked with the lookup method
 * of the x86 kernels (index_x86.c, simd.c) on each 16-byte vector and the
 * 16 bytes before it; errors are gathered in a vector and tested once per
 * call. The inside-string mask comes from carry-less multiplication
 * (PMULL) when the compiler may use the crypto extension (it is optional
 * on AArch64: built with -march=armv8-a+crypto or a CPU that has it), and
 * from the shared shift-XOR otherwise.
 *
 * The kernel is tested under qemu-user on x86-64 (tests/cross/aarch64.sh).
 */
#include "read/index.h"
#include "read/simd.h"
#include "read/utf8_tables.h"

#if TYJSON__NEON
#  include <arm_neon.h>

/* The kernel's constant rows, one 16-byte vector each. */
enum {
    R_PREV_HI,
    R_PREV_LO,
    R_CUR_HI,
    R_WS,
    R_OP,
    R_BITS,
    R_COUNT
};
static const u8 neon_rows[R_COUNT][16] = {
    /* the UTF-8 tables (read/utf8_tables.h) */
    [R_PREV_HI] = {TYJSON__UTF8_PREV_HI},
    [R_PREV_LO] = {TYJSON__UTF8_PREV_LO},
    [R_CUR_HI] = {TYJSON__UTF8_CUR_HI},
    /* Whitespace by low nibble: a byte is whitespace when it equals its
     * entry. The other entries are 0, which only the byte 0 has, and its
     * entry is ' ': they match nothing. */
    [R_WS] = {' ', 0, 0, 0, 0, 0, 0, 0, 0, '\t', '\n', 0, 0, '\r', 0, 0},
    /* Structural characters by low nibble, compared after OR 0x20 (which
     * folds '[' ']' onto '{' '}'; the two control characters that fold
     * onto ',' and ':' are removed by the caller). 0 matches nothing:
     * every byte has bit 5 set after the OR. */
    [R_OP] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ':', '{', ',', '}', 0, 0},
    /* each byte's bit in its byte of the mask */
    [R_BITS] = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128},
};

typedef struct kneon {
    uint8x16_t prev_hi, prev_lo, cur_hi, ws, op, bits;
    uint8x16_t quote, bslash, ctrl_end, nib, x20, k60, k70, k80;
} kneon;

static inline void kneon_init(kneon *k) {
    k->prev_hi = vld1q_u8(neon_rows[R_PREV_HI]);
    k->prev_lo = vld1q_u8(neon_rows[R_PREV_LO]);
    k->cur_hi = vld1q_u8(neon_rows[R_CUR_HI]);
    k->ws = vld1q_u8(neon_rows[R_WS]);
    k->op = vld1q_u8(neon_rows[R_OP]);
    k->bits = vld1q_u8(neon_rows[R_BITS]);
    k->quote = vdupq_n_u8('"');
    k->bslash = vdupq_n_u8('\\');
    k->ctrl_end = vdupq_n_u8(0x20);
    k->nib = vdupq_n_u8(0x0F);
    k->x20 = vdupq_n_u8(0x20);
    k->k60 = vdupq_n_u8(0x60);
    k->k70 = vdupq_n_u8(0x70);
    k->k80 = vdupq_n_u8(0x80);
}

/* A block: its four vectors in input order. */
typedef struct block64 {
    uint8x16_t v[4];
} block64;

/* The 64-bit mask of four compare results (bytes 0x00 or 0xFF), bit i for
 * byte i. Each pairwise add halves the bytes: after three, byte j holds the
 * bit weights of bytes 8j..8j+7 summed, which is that byte of the mask. */
static inline u64 mask64(const kneon *k, uint8x16_t a, uint8x16_t b, uint8x16_t c,
                         uint8x16_t d) {
    uint8x16_t ab = vpaddq_u8(vandq_u8(a, k->bits), vandq_u8(b, k->bits));
    uint8x16_t cd = vpaddq_u8(vandq_u8(c, k->bits), vandq_u8(d, k->bits));
    uint8x16_t abcd = vpaddq_u8(ab, cd);
    return vgetq_lane_u64(vreinterpretq_u64_u8(vpaddq_u8(abcd, abcd)), 0);
}

/* Bytes equal to c, as a mask. */
static inline u64 eq_mask(const kneon *k, const block64 *b, uint8x16_t c) {
    return mask64(k, vceqq_u8(b->v[0], c), vceqq_u8(b->v[1], c), vceqq_u8(b->v[2], c),
                  vceqq_u8(b->v[3], c));
}

/* Bytes below 0x20. */
static inline u64 ctrl_mask(const kneon *k, const block64 *b) {
    return mask64(k, vcltq_u8(b->v[0], k->ctrl_end), vcltq_u8(b->v[1], k->ctrl_end),
                  vcltq_u8(b->v[2], k->ctrl_end), vcltq_u8(b->v[3], k->ctrl_end));
}

/* Whether v's byte equals table t's entry for its low nibble. */
static inline uint8x16_t in_class(const kneon *k, uint8x16_t t, uint8x16_t v, uint8x16_t cmp) {
    return vceqq_u8(cmp, vqtbl1q_u8(t, vandq_u8(v, k->nib)));
}

static inline u64 ws_mask(const kneon *k, const block64 *b) {
    return mask64(k, in_class(k, k->ws, b->v[0], b->v[0]), in_class(k, k->ws, b->v[1], b->v[1]),
                  in_class(k, k->ws, b->v[2], b->v[2]), in_class(k, k->ws, b->v[3], b->v[3]));
}

/* Structural characters and the two control characters that look like
 * ',' and ':' after the fold. */
static inline u64 op_mask(const kneon *k, const block64 *b) {
    uint8x16_t f0 = vorrq_u8(b->v[0], k->x20), f1 = vorrq_u8(b->v[1], k->x20);
    uint8x16_t f2 = vorrq_u8(b->v[2], k->x20), f3 = vorrq_u8(b->v[3], k->x20);
    return mask64(k, in_class(k, k->op, b->v[0], f0), in_class(k, k->op, b->v[1], f1),
                  in_class(k, k->op, b->v[2], f2), in_class(k, k->op, b->v[3], f3));
}

/* Whether any byte of the block is 0x80 or above. */
static inline bool block_high(const block64 *b) {
    uint8x16_t any = vorrq_u8(vorrq_u8(b->v[0], b->v[1]), vorrq_u8(b->v[2], b->v[3]));
    return vmaxvq_u8(any) >= 0x80;
}

/* Nonzero bytes where cur (after the 16 bytes prev) breaks UTF-8. */
static inline uint8x16_t utf8_errors16(const kneon *k, uint8x16_t cur, uint8x16_t prev) {
    uint8x16_t prev1 = vextq_u8(prev, cur, 15);
    uint8x16_t prev2 = vextq_u8(prev, cur, 14);
    uint8x16_t prev3 = vextq_u8(prev, cur, 13);
    uint8x16_t a = vqtbl1q_u8(k->prev_hi, vshrq_n_u8(prev1, 4));
    uint8x16_t b = vqtbl1q_u8(k->prev_lo, vandq_u8(prev1, k->nib));
    uint8x16_t c = vqtbl1q_u8(k->cur_hi, vshrq_n_u8(cur, 4));
    uint8x16_t pairs = vandq_u8(vandq_u8(a, b), c);
    /* bit 7 where prev2 >= E0 or prev3 >= F0: a continuation is due */
    uint8x16_t need = vorrq_u8(vqsubq_u8(prev2, k->k60), vqsubq_u8(prev3, k->k70));
    return veorq_u8(pairs, vandq_u8(need, k->k80));
}

/* The errors of block b, whose 16 bytes before are prev. */
static inline uint8x16_t utf8_errors64(const kneon *k, const block64 *b, uint8x16_t prev) {
    uint8x16_t e = utf8_errors16(k, b->v[0], prev);
    e = vorrq_u8(e, utf8_errors16(k, b->v[1], b->v[0]));
    e = vorrq_u8(e, utf8_errors16(k, b->v[2], b->v[1]));
    return vorrq_u8(e, utf8_errors16(k, b->v[3], b->v[2]));
}

#  if defined(__ARM_FEATURE_AES) || defined(__ARM_FEATURE_CRYPTO)
/* Carry-less multiplication by all ones: bit i is the XOR of bits 0..i. */
static inline u64 neon_prefix_xor(u64 x) {
    return vgetq_lane_u64(vreinterpretq_u64_p128(vmull_p64((poly64_t)x, (poly64_t)~0ull)), 0);
}
#  else
static inline u64 neon_prefix_xor(u64 x) { return tyjson__idx_prefix_xor(x); }
#  endif

/* The previous block's last vector, holding only the three tail bytes. */
static inline uint8x16_t tail_vector16(const tyjson__idx_state *s) {
    u8 t[16] = {0};
    memcpy(t + 13, s->tail, 3);
    return vld1q_u8(t);
}

/* The kernel works on a copy of the state in locals, like the x86 ones. */
TYJSON__FIRST_USE
static usize index_neon(tyjson__idx_state *s, const u8 *src, usize nblocks, u16 *out) {
    kneon k;
    kneon_init(&k);
    tyjson__idx_state st = *s;
    uint8x16_t prev = tail_vector16(s);
    bool prev_high = (s->tail[0] | s->tail[1] | s->tail[2]) >= 0x80;
    uint8x16_t bad = vdupq_n_u8(0);
    usize n = 0;
    for (usize blk = 0; blk < nblocks; blk++) {
        const u8 *p = src + blk * 64;
        block64 b = {{vld1q_u8(p), vld1q_u8(p + 16), vld1q_u8(p + 32), vld1q_u8(p + 48)}};
        bool high = block_high(&b);
        if (high || prev_high) bad = vorrq_u8(bad, utf8_errors64(&k, &b, prev));
        prev = b.v[3];
        prev_high = high;
        u64 q = eq_mask(&k, &b, k.quote);
        u64 bs = eq_mask(&k, &b, k.bslash);
        u64 ctrl = ctrl_mask(&k, &b);
        u64 ws = ws_mask(&k, &b);
        u64 op = op_mask(&k, &b) & ~ctrl;
        if (bs | st.escaped) q &= ~tyjson__idx_escaped(&st, &bs);
        u64 in = neon_prefix_xor(q);
        u64 tok = tyjson__idx_tokens(&st, q, in, bs, ws, op, ctrl);
        n = tyjson__idx_flatten(out, n, tok, (unsigned)(blk * 64));
    }
    if (vmaxvq_u8(bad)) st.err |= 1;
    memcpy(st.tail, src + nblocks * 64 - 3, 3);
    *s = st;
    return n;
}

tyjson__index_fn tyjson__index_kernel_for(int level) {
    if (level == TYJSON__SIMD_NEON) return index_neon;
    return tyjson__index_scalar;
}

#endif
