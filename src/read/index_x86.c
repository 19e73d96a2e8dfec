/*
 * index_x86.c - the structural indexer's x86-64 kernels (see index.h):
 * AVX-512 (F, BW and VBMI2: Ice Lake and later), 64 bytes per step; the
 * AVX2 one is in index_avx2.c.
 *
 * The kernel is compiled with a target attribute and chosen at run time
 * (simd.c), so the library still runs on any x86-64. It classifies a block
 * with compares and one table lookup per class, takes the inside-string
 * mask from a carry-less multiplication, and checks UTF-8 with the lookup
 * method of read/utf8_tables.h. Errors are gathered in a vector and tested
 * once per call.
 */
#include "read/index.h"
#include "read/simd.h"
#include "read/utf8_tables.h"

#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__)) && \
    !defined(TYJSON_NO_SIMD)
#  include <immintrin.h>

#  define AVX512 __attribute__((target("avx512f,avx512bw,avx512vbmi2,pclmul")))

/* The UTF-8, whitespace and structural tables: read/utf8_tables.h. */
static const u8 t_prev_hi[16] = {TYJSON__UTF8_PREV_HI};
static const u8 t_prev_lo[16] = {TYJSON__UTF8_PREV_LO};
static const u8 t_cur_hi[16] = {TYJSON__UTF8_CUR_HI};
static const u8 t_ws[16] = {TYJSON__CLASS_WS};
static const u8 t_op[16] = {TYJSON__CLASS_OP};

AVX512 static inline __m512i table512(const u8 t[16]) {
    return _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)t));
}

AVX512 static inline u64 prefix_xor_clmul(u64 x) {
    __m128i v = _mm_set_epi64x(0, (long long)x);
    __m128i ones = _mm_set1_epi8((char)0xFF);
    return (u64)_mm_cvtsi128_si64(_mm_clmulepi64_si128(v, ones, 0));
}

typedef struct k512 {
    __m512i quote, bslash, space, x20, nib, k60, k70, k80, ws, op, prev_hi, prev_lo, cur_hi, k64w;
} k512;

AVX512 static inline void k512_init(k512 *k) {
    k->quote = _mm512_set1_epi8('"');
    k->bslash = _mm512_set1_epi8('\\');
    k->space = _mm512_set1_epi8(' ');
    k->x20 = _mm512_set1_epi8(0x20);
    k->nib = _mm512_set1_epi8(0x0F);
    k->k60 = _mm512_set1_epi8(0x60);
    k->k70 = _mm512_set1_epi8(0x70);
    k->k80 = _mm512_set1_epi8((char)0x80);
    k->ws = table512(t_ws);
    k->op = table512(t_op);
    k->prev_hi = table512(t_prev_hi);
    k->prev_lo = table512(t_prev_lo);
    k->cur_hi = table512(t_cur_hi);
    k->k64w = _mm512_set1_epi16(64);
}

/* Nonzero bytes where cur (after the block prev) breaks UTF-8. */
AVX512 static inline __m512i utf8_errors512(const k512 *k, __m512i cur, __m512i prev) {
    /* per 16-byte lane, the 16 bytes before it */
    __m512i before = _mm512_alignr_epi64(cur, prev, 6);
    __m512i prev1 = _mm512_alignr_epi8(cur, before, 15);
    __m512i prev2 = _mm512_alignr_epi8(cur, before, 14);
    __m512i prev3 = _mm512_alignr_epi8(cur, before, 13);
    __m512i a = _mm512_shuffle_epi8(k->prev_hi, _mm512_and_si512(_mm512_srli_epi16(prev1, 4), k->nib));
    __m512i b = _mm512_shuffle_epi8(k->prev_lo, _mm512_and_si512(prev1, k->nib));
    __m512i c = _mm512_shuffle_epi8(k->cur_hi, _mm512_and_si512(_mm512_srli_epi16(cur, 4), k->nib));
    __m512i pairs = _mm512_and_si512(_mm512_and_si512(a, b), c);
    __m512i need = _mm512_or_si512(_mm512_subs_epu8(prev2, k->k60), _mm512_subs_epu8(prev3, k->k70));
    return _mm512_xor_si512(pairs, _mm512_and_si512(need, k->k80));
}

/* The offsets of m's bits: compress the byte positions 0..63 by the mask
 * (one byte compress, where two 16-bit ones cost twice the shuffle port),
 * widen the first 32 to 16 bits, add b (the block's offset in every lane)
 * and store the row (the slack takes the rest); a block with more than 32
 * tokens (number arrays) widens and stores the second half too, a branch
 * that text rarely takes, unlike the shared bit-by-bit flatten's count
 * test, which mispredicts on text with 5-12 tokens per block
 * (docs/perf-log.md). */
AVX512 static inline usize flatten512(u16 *out, usize n, u64 m, __m512i b) {
    const __m512i iota = _mm512_set_epi8(63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48,
                                         47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32,
                                         31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16,
                                         15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    __m512i at = _mm512_maskz_compress_epi8((__mmask64)m, iota);
    usize cnt = tyjson__idx_popcount(m);
    _mm512_storeu_si512((void *)(out + n),
                        _mm512_add_epi16(_mm512_cvtepu8_epi16(_mm512_castsi512_si256(at)), b));
    if (unlikely(cnt > 32))
        _mm512_storeu_si512((void *)(out + n + 32),
                            _mm512_add_epi16(_mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(at, 1)), b));
    return n + cnt;
}

/* The previous block as a vector holding only the three tail bytes. */
AVX512 static inline __m512i tail_vector(const tyjson__idx_state *s) {
    u64 t = (u64)s->tail[0] << 40 | (u64)s->tail[1] << 48 | (u64)s->tail[2] << 56;
    return _mm512_inserti64x4(_mm512_setzero_si512(),
                              _mm256_set_epi64x((long long)t, 0, 0, 0), 1);
}

/* The kernel works on a copy of the state in locals: stores through s
 * would otherwise be repeated for every block. */
TYJSON__FIRST_USE
AVX512 static usize index_avx512(tyjson__idx_state *s, const u8 *src, usize nblocks, u16 *out) {
    k512 k;
    k512_init(&k);
    tyjson__idx_state st = *s;
    __m512i prev = tail_vector(s);
    bool prev_high = (s->tail[0] | s->tail[1] | s->tail[2]) >= 0x80;
    __m512i bad = _mm512_setzero_si512();
    usize n = 0;
    __m512i base = _mm512_setzero_si512(); /* the block's offset in every 16-bit lane */
    for (usize blk = 0; blk < nblocks; blk++) {
        __m512i v = _mm512_loadu_si512((const void *)(src + blk * 64));
        u64 high = (u64)_mm512_movepi8_mask(v);
        if (high || prev_high) bad = _mm512_or_si512(bad, utf8_errors512(&k, v, prev));
        prev = v;
        prev_high = high != 0;
        u64 q = (u64)_mm512_cmpeq_epi8_mask(v, k.quote);
        u64 bs = (u64)_mm512_cmpeq_epi8_mask(v, k.bslash);
        u64 ctrl = (u64)_mm512_cmplt_epu8_mask(v, k.x20);
        u64 ws = (u64)_mm512_cmpeq_epi8_mask(v, _mm512_shuffle_epi8(k.ws, v));
        u64 op = (u64)_mm512_cmpeq_epi8_mask(_mm512_or_si512(v, k.x20), _mm512_shuffle_epi8(k.op, v)) &
                 ~ctrl;
        if (bs | st.escaped) q &= ~tyjson__idx_escaped(&st, &bs);
        u64 in = prefix_xor_clmul(q);
        u64 tok = tyjson__idx_tokens(&st, q, in, bs, ws, op, ctrl);
        n = flatten512(out, n, tok, base);
        base = _mm512_add_epi16(base, k.k64w);
    }
    if (_mm512_test_epi8_mask(bad, bad)) st.err |= 1;
    memcpy(st.tail, src + nblocks * 64 - 3, 3);
    *s = st;
    return n;
}

tyjson__index_fn tyjson__index_kernel_for(int level) {
    if (level >= TYJSON__SIMD_AVX512) return index_avx512;
    if (level >= TYJSON__SIMD_AVX2) return tyjson__index_avx2;
    return tyjson__index_scalar;
}

#  undef AVX512
#endif
