/*
 * index_avx2.c - the structural indexer's AVX2 kernel (see index.h): each
 * 64-byte block is read as two 32-byte halves, classified with compares and
 * one table lookup per class, and its two halves' byte masks are joined
 * into the same 64-bit masks the other kernels make. The inside-string mask
 * comes from a carry-less multiplication, UTF-8 from the lookup method the
 * string scanner uses (simd.c: three nibble tables give the error classes
 * of each pair of adjacent bytes, two saturating subtractions the bytes that
 * must continue a 3- or 4-byte sequence), skipped for a block that is ASCII
 * after an ASCII block. Errors gather in a vector tested once per call.
 *
 * Compiled with a target attribute and chosen at run time (simd.c), so the
 * library still runs on any x86-64. The probe asks for AVX2 and carry-less
 * multiplication; the kernel also uses POPCNT, BMI1 and BMI2, which every
 * AVX2 processor has (Intel from Haswell, AMD from Excavator).
 */
#include "read/index.h"
#include "read/simd.h"
#include "read/utf8_tables.h"

#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__)) && \
    !defined(TYJSON_NO_SIMD)
#  include <immintrin.h>

#  define AVX2 __attribute__((target("avx2,bmi,bmi2,popcnt,pclmul")))

/* The UTF-8, whitespace and structural tables: read/utf8_tables.h. */
#  define TAB_PREV_HI TYJSON__UTF8_PREV_HI
#  define TAB_PREV_LO TYJSON__UTF8_PREV_LO
#  define TAB_CUR_HI TYJSON__UTF8_CUR_HI
#  define TAB_WS TYJSON__CLASS_WS
#  define TAB_OP TYJSON__CLASS_OP

#  define SPLAT8(b) b, b, b, b, b, b, b, b
#  define SPLAT(b) {SPLAT8(b), SPLAT8(b), SPLAT8(b), SPLAT8(b)}
enum {
    R_QUOTE,
    R_BSLASH,
    R_CTRL_MAX,
    R_X20,
    R_NIB,
    R_60,
    R_70,
    R_80,
    R_WS,
    R_OP,
    R_PREV_HI,
    R_PREV_LO,
    R_CUR_HI
};
_Alignas(32) static const u8 idx_rows[][32] = {
    SPLAT('"'),   SPLAT('\\'),  SPLAT(0x1F),  SPLAT(0x20),
    SPLAT(0x0F),  SPLAT(0x60),  SPLAT(0x70),  SPLAT(0x80),
    {TAB_WS, TAB_WS},           {TAB_OP, TAB_OP},
    {TAB_PREV_HI, TAB_PREV_HI}, {TAB_PREV_LO, TAB_PREV_LO},
    {TAB_CUR_HI, TAB_CUR_HI},
};

typedef struct k256 {
    __m256i quote, bslash, ctrl_max, x20, ws, op;
} k256;

typedef struct u256 {
    __m256i nib, k60, k70, k80, prev_hi, prev_lo, cur_hi;
} u256;

/* The rows through an address the optimizer cannot see: GCC otherwise
 * folds them into broadcasts that it rebuilds inside the loop, at three
 * instructions apiece (the string scanner does the same, simd.c). */
static inline const u8 (*idx_rows_hidden(void))[32] {
    const u8(*r)[32] = idx_rows;
    __asm__("" : "+r"(r));
    return r;
}

#  define ROW(i) _mm256_load_si256((const __m256i *)(const void *)r[i])

AVX2 static inline void k256_init(k256 *k) {
    const u8(*r)[32] = idx_rows_hidden();
    k->quote = ROW(R_QUOTE);
    k->bslash = ROW(R_BSLASH);
    k->ctrl_max = ROW(R_CTRL_MAX);
    k->x20 = ROW(R_X20);
    k->ws = ROW(R_WS);
    k->op = ROW(R_OP);
}

AVX2 static inline void u256_init(u256 *u) {
    const u8(*r)[32] = idx_rows_hidden();
    u->nib = ROW(R_NIB);
    u->k60 = ROW(R_60);
    u->k70 = ROW(R_70);
    u->k80 = ROW(R_80);
    u->prev_hi = ROW(R_PREV_HI);
    u->prev_lo = ROW(R_PREV_LO);
    u->cur_hi = ROW(R_CUR_HI);
}

/* The 64-bit mask of a block from its halves' byte masks (0 or FF). */
AVX2 static inline u64 join256(__m256i lo, __m256i hi) {
    return (u64)(u32)_mm256_movemask_epi8(lo) | (u64)(u32)_mm256_movemask_epi8(hi) << 32;
}

/* Nonzero bytes where cur (after the 32 bytes prev) breaks UTF-8. */
AVX2 static inline __m256i utf8_errors256(const u256 *u, __m256i cur, __m256i prev) {
    /* per 16-byte lane, the 16 bytes before it */
    __m256i before = _mm256_permute2x128_si256(prev, cur, 0x21);
    __m256i prev1 = _mm256_alignr_epi8(cur, before, 15);
    __m256i prev2 = _mm256_alignr_epi8(cur, before, 14);
    __m256i prev3 = _mm256_alignr_epi8(cur, before, 13);
    __m256i a = _mm256_shuffle_epi8(u->prev_hi, _mm256_and_si256(_mm256_srli_epi16(prev1, 4), u->nib));
    __m256i b = _mm256_shuffle_epi8(u->prev_lo, _mm256_and_si256(prev1, u->nib));
    __m256i c = _mm256_shuffle_epi8(u->cur_hi, _mm256_and_si256(_mm256_srli_epi16(cur, 4), u->nib));
    __m256i pairs = _mm256_and_si256(_mm256_and_si256(a, b), c);
    __m256i need = _mm256_or_si256(_mm256_subs_epu8(prev2, u->k60), _mm256_subs_epu8(prev3, u->k70));
    return _mm256_xor_si256(pairs, _mm256_and_si256(need, u->k80));
}

AVX2 static inline u64 prefix_xor256(u64 x) {
    __m128i v = _mm_set_epi64x(0, (long long)x);
    __m128i ones = _mm_set1_epi8((char)0xFF);
    return (u64)_mm_cvtsi128_si64(_mm_clmulepi64_si128(v, ones, 0));
}

/* The previous block's second half as a vector holding only the three tail
 * bytes (at its end), the rest zero (ASCII). */
AVX2 static inline __m256i tail256(const tyjson__idx_state *s) {
    u64 t = (u64)s->tail[0] << 40 | (u64)s->tail[1] << 48 | (u64)s->tail[2] << 56;
    return _mm256_set_epi64x((long long)t, 0, 0, 0);
}

/* Each byte value's set bits as a list of bit indices, one byte each, in
 * the low bytes of a u64 (the rest zero), computed by the compiler: bit j
 * of m goes to the byte numbered by how many bits of m are below it. */
#  define POPC8(m)                                                                          \
    (((m) & 1) + ((m) >> 1 & 1) + ((m) >> 2 & 1) + ((m) >> 3 & 1) + ((m) >> 4 & 1) +      \
     ((m) >> 5 & 1) + ((m) >> 6 & 1) + ((m) >> 7 & 1))
#  define BIT_AT(m, j) (((m) >> (j) & 1) ? (u64)(j) << (8 * POPC8((m) & ((1u << (j)) - 1))) : 0)
#  define BITS_OF(m)                                                                        \
    (BIT_AT(m, 0) | BIT_AT(m, 1) | BIT_AT(m, 2) | BIT_AT(m, 3) | BIT_AT(m, 4) | BIT_AT(m, 5) | \
     BIT_AT(m, 6) | BIT_AT(m, 7))
#  define BITS4(m) BITS_OF(m), BITS_OF((m) + 1), BITS_OF((m) + 2), BITS_OF((m) + 3)
#  define BITS16(m) BITS4(m), BITS4((m) + 4), BITS4((m) + 8), BITS4((m) + 12)
#  define BITS64(m) BITS16(m), BITS16((m) + 16), BITS16((m) + 32), BITS16((m) + 48)
static const u64 idx_bit_lists[256] = {BITS64(0u), BITS64(64u), BITS64(128u), BITS64(192u)};

/* The offsets of m's bits, a byte of m at a time: widen the byte's list
 * to 16 bits, add the byte's offset, store eight entries whatever the
 * count (the slack takes the rest). No branch on the count: for blocks
 * with more than a few tokens this is cheaper than the bit-by-bit flatten
 * and its mispredicted count test (docs/perf-log.md). */
AVX2 static inline usize flatten_bytes256(u16 *out, usize n, u64 m, unsigned base) {
    __m128i at = _mm_set1_epi16((short)base);
    const __m128i eight = _mm_set1_epi16(8);
    for (unsigned i = 0; i < 8; i++) {
        unsigned b = (unsigned)(m >> (8 * i)) & 0xFF;
        __m128i list = _mm_loadl_epi64((const __m128i *)(const void *)&idx_bit_lists[b]);
        _mm_storeu_si128((__m128i *)(void *)(out + n), _mm_add_epi16(_mm_cvtepu8_epi16(list), at));
        n += tyjson__idx_popcount(b);
        at = _mm_add_epi16(at, eight);
    }
    return n;
}

/* Up to four tokens (the blocks of text and of indentation) in one
 * bit-by-bit store of four, more a byte at a time: measured faster than
 * the shared flatten (bit by bit, eight, then more) on 5 of the 8 corpus
 * files, whose blocks have 3 to 14 tokens on average (docs/perf-log.md). */
AVX2 static inline usize flatten256(u16 *out, usize n, u64 m, unsigned base) {
    unsigned cnt = tyjson__idx_popcount(m);
    if (cnt > 4) return flatten_bytes256(out, n, m, base);
    tyjson__idx_store4(out + n, &m, (u64)base * 0x0001000100010001ull);
    return n + cnt;
}

/* The kernel works on a copy of the state in locals: stores through s
 * would otherwise be repeated for every block. */
TYJSON__FIRST_USE
AVX2 usize tyjson__index_avx2(tyjson__idx_state *s, const u8 *src, usize nblocks, u16 *out) {
    k256 k;
    k256_init(&k);
    tyjson__idx_state st = *s;
    __m256i prev = tail256(s);
    bool prev_high = (s->tail[0] | s->tail[1] | s->tail[2]) >= 0x80;
    __m256i bad = _mm256_setzero_si256();
    usize n = 0;
    for (usize blk = 0; blk < nblocks; blk++) {
        const u8 *p = src + blk * 64;
        __m256i lo = _mm256_loadu_si256((const __m256i *)(const void *)p);
        __m256i hi = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32));
        bool high = _mm256_movemask_epi8(_mm256_or_si256(lo, hi)) != 0;
        if (high || prev_high) {
            u256 u;
            u256_init(&u);
            bad = _mm256_or_si256(bad, utf8_errors256(&u, lo, prev));
            bad = _mm256_or_si256(bad, utf8_errors256(&u, hi, lo));
        }
        prev = hi;
        prev_high = high;
        u64 q = join256(_mm256_cmpeq_epi8(lo, k.quote), _mm256_cmpeq_epi8(hi, k.quote));
        u64 bs = join256(_mm256_cmpeq_epi8(lo, k.bslash), _mm256_cmpeq_epi8(hi, k.bslash));
        u64 ctrl = join256(_mm256_cmpeq_epi8(_mm256_min_epu8(lo, k.ctrl_max), lo),
                           _mm256_cmpeq_epi8(_mm256_min_epu8(hi, k.ctrl_max), hi));
        u64 ws = join256(_mm256_cmpeq_epi8(lo, _mm256_shuffle_epi8(k.ws, lo)),
                         _mm256_cmpeq_epi8(hi, _mm256_shuffle_epi8(k.ws, hi)));
        u64 op = join256(_mm256_cmpeq_epi8(_mm256_or_si256(lo, k.x20), _mm256_shuffle_epi8(k.op, lo)),
                         _mm256_cmpeq_epi8(_mm256_or_si256(hi, k.x20), _mm256_shuffle_epi8(k.op, hi))) &
                 ~ctrl;
        if (bs | st.escaped) q &= ~tyjson__idx_escaped(&st, &bs);
        u64 in = prefix_xor256(q);
        u64 tok = tyjson__idx_tokens(&st, q, in, bs, ws, op, ctrl);
        n = flatten256(out, n, tok, (unsigned)(blk * 64));
    }
    if (!_mm256_testz_si256(bad, bad)) st.err |= 1;
    memcpy(st.tail, src + nblocks * 64 - 3, 3);
    *s = st;
    return n;
}

#  undef AVX2
#  undef TAB_PREV_HI
#  undef TAB_PREV_LO
#  undef TAB_CUR_HI
#  undef TAB_WS
#  undef TAB_OP
#  undef SPLAT8
#  undef SPLAT
#  undef ROW
#  undef POPC8
#  undef BIT_AT
#  undef BITS_OF
#  undef BITS4
#  undef BITS16
#  undef BITS64
#endif
