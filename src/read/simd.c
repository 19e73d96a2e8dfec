/*
 * simd.c - the string scanner's kernels and the run-time choice between
 * them (see simd.h): the portable SWAR kernel, on x86-64 an AVX2 one, on
 * AArch64 a NEON one; and the line feed counter's (portable, AVX2).
 */
#include "read/simd.h"
#include "read/utf8_tables.h"

#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__)) && \
    !defined(TYJSON_NO_SIMD)
#  define HAVE_AVX2 1
#  include <immintrin.h>
#else
#  define HAVE_AVX2 0
#endif
#define HAVE_NEON TYJSON__NEON

#if !defined(__STDC_NO_ATOMICS__)
#  include <stdatomic.h>
#  define ATOMIC(T) _Atomic(T)
#  define LOAD(x) atomic_load_explicit(&(x), memory_order_relaxed)
#  define STORE(x, v) atomic_store_explicit(&(x), (v), memory_order_relaxed)
#else
/* Without C11 atomics: word-sized stores of the same value by every thread
 * that races on first use. */
#  define ATOMIC(T) T volatile
#  define LOAD(x) (x)
#  define STORE(x, v) ((x) = (v))
#endif

TYJSON__FIRST_USE
static tyjson__str_scan scan_result(const u8 *stop, tyjson_status err) {
    tyjson__str_scan r;
    r.stop = stop;
    r.err = err;
    return r;
}

/* ----------------------------------------------------------------------------
 * Portable kernel: 8 bytes per step for ASCII, two 3-byte characters per
 * step for CJK text, then whole sequences one at a time.
 * ------------------------------------------------------------------------- */
TYJSON__FIRST_USE
tyjson__str_scan tyjson__str_scan_scalar(const u8 *p, const u8 *end, bool allow_invalid) {
    for (;;) {
#if TYJSON__SWAR
        while (end - p >= 8) {
            u64 m = tyjson__str_special(tyjson__load64(p));
            if (m) {
                p += tyjson__first_byte(m);
                goto special;
            }
            p += 8;
        }
#endif
        while (p < end && !(tyjson__cc[*p] & TYJSON__CC_STR_SPEC)) p++;
        if (p >= end) return scan_result(end, TYJSON_E_TRUNCATED);
#if TYJSON__SWAR
    special:
#endif
        if (*p == '"' || *p == '\\') return scan_result(p, TYJSON_OK);
        if (*p < 0x20) return scan_result(p, TYJSON_E_STRING_CTRL);
        do {
#if TYJSON__SWAR
            while (end - p >= 8) {
                u64 w = tyjson__load64(p);
                if ((w & 0x0000C0C0F0C0C0F0ull) != 0x00008080E08080E0ull) break;
                /* Index = lead's low nibble | bit 5 of the first continuation
                 * (moved to bit 4); bit 0 (E0 80..9F: overlong) and bit 29
                 * (ED A0..BF: surrogate) of the constant mark the bad ones. */
                u32 i1 = ((u32)w & 0xFu) | (((u32)w >> 9) & 0x10u);
                u32 i2 = ((u32)(w >> 24) & 0xFu) | ((u32)(w >> 33) & 0x10u);
                if (((0x20000001u >> i1) | (0x20000001u >> i2)) & 1u) break;
                p += 6;
            }
            if (p >= end || *p < 0x80) break;
#endif
            usize n = tyjson__utf8_seq(p, end);
            if (unlikely(n == 0)) {
                if (allow_invalid) {
                    p++;
                    continue;
                }
                return scan_result(p, TYJSON_E_UTF8);
            }
            p += n;
        } while (p < end && *p >= 0x80);
    }
}

#if HAVE_AVX2 || HAVE_NEON
/* What the vector kernels share: the answer at a terminator they found,
 * and the portable kernel's exact answer after they found a UTF-8 error. */
TYJSON__FIRST_USE
static tyjson__str_scan at_terminator(const u8 *s) {
    if (*s == '"' || *s == '\\') return scan_result(s, TYJSON_OK);
    return scan_result(s, TYJSON_E_STRING_CTRL);
}

/* The block at p has an error, which may belong to a character begun in
 * the block before: rescan from where the last character before p starts
 * (the bytes from start to p are valid so far, so that is at most 3
 * continuation bytes back). */
TYJSON__FIRST_USE
TYJSON__NOINLINE static tyjson__str_scan pinpoint(const u8 *start, const u8 *p, const u8 *end) {
    if (p > start) {
        p--;
        while (p > start && (*p & 0xC0) == 0x80) p--;
    }
    return tyjson__str_scan_scalar(p, end, false);
}

#endif

#if HAVE_AVX2
/* ----------------------------------------------------------------------------
 * AVX2 kernel: 32 bytes per step.
 *
 * Each block yields a mask of its string-ending bytes ('"', '\\', < 0x20)
 * and, unless the block and the one before it are pure ASCII, a vector of
 * UTF-8 errors, by the lookup method of read/utf8_tables.h.
 *
 * An error is flagged at the byte that breaks a rule, so a sequence cut
 * short by the terminator is flagged at the terminator, and one cut by the
 * block's end in the next block (the previous block's tail feeds the
 * pairs). Flags after the first terminator are ignored. When one remains,
 * the portable kernel rescans from the last character boundary before the
 * block to give the exact position, so the two kernels agree by
 * construction on every error. The last partial block is copied into a
 * buffer padded with '"', never reading past `end`.
 * ------------------------------------------------------------------------- */
#define AVX2 __attribute__((target("avx2")))

/* The UTF-8 tables: read/utf8_tables.h. */
#define TAB_PREV_HI TYJSON__UTF8_PREV_HI
#define TAB_PREV_LO TYJSON__UTF8_PREV_LO
#define TAB_CUR_HI TYJSON__UTF8_CUR_HI

/* The kernel's constants as 32-byte rows (the tables once per lane, for
 * vpshufb), loaded once per call through an address the optimizer cannot
 * see: GCC otherwise folds them into broadcasts that it rebuilds inside the
 * loops, at three instructions apiece. */
#define SPLAT8(b) b, b, b, b, b, b, b, b
#define SPLAT(b) {SPLAT8(b), SPLAT8(b), SPLAT8(b), SPLAT8(b)}
enum { K_QUOTE, K_BSLASH, K_CTRL_MAX, K_NIB, K_60, K_70, K_80, K_PREV_HI, K_PREV_LO, K_CUR_HI };
static const u8 k_rows[][32] __attribute__((aligned(32))) = {
    SPLAT('"'), SPLAT('\\'), SPLAT(0x1F), SPLAT(0x0F), SPLAT(0x60), SPLAT(0x70), SPLAT(0x80),
    {TAB_PREV_HI, TAB_PREV_HI}, {TAB_PREV_LO, TAB_PREV_LO}, {TAB_CUR_HI, TAB_CUR_HI},
};

#define ROW(i) _mm256_load_si256((const __m256i *)(const void *)r[i])

static inline const u8 (*rows(void))[32] {
    const u8(*r)[32] = k_rows;
    __asm__("" : "+r"(r));
    return r;
}

/* What finding terminators needs. */
typedef struct term_k {
    __m256i quote, bslash, ctrl_max;
} term_k;

/* What UTF-8 validation needs. */
typedef struct utf8_k {
    __m256i nib, k60, k70, k80, prev_hi, prev_lo, cur_hi;
} utf8_k;

AVX2 static inline term_k term_consts(void) {
    const u8(*r)[32] = rows();
    term_k k;
    k.quote = ROW(K_QUOTE);
    k.bslash = ROW(K_BSLASH);
    k.ctrl_max = ROW(K_CTRL_MAX);
    return k;
}

AVX2 static inline utf8_k utf8_consts(void) {
    const u8(*r)[32] = rows();
    utf8_k k;
    k.nib = ROW(K_NIB);
    k.k60 = ROW(K_60);
    k.k70 = ROW(K_70);
    k.k80 = ROW(K_80);
    k.prev_hi = ROW(K_PREV_HI);
    k.prev_lo = ROW(K_PREV_LO);
    k.cur_hi = ROW(K_CUR_HI);
    return k;
}

/* Bit i set where byte i is '"', '\\' or a control character. */
AVX2 static inline u32 terminators(const term_k *k, __m256i v) {
    __m256i q = _mm256_cmpeq_epi8(v, k->quote);
    __m256i b = _mm256_cmpeq_epi8(v, k->bslash);
    __m256i c = _mm256_cmpeq_epi8(_mm256_min_epu8(v, k->ctrl_max), v);
    return (u32)_mm256_movemask_epi8(_mm256_or_si256(_mm256_or_si256(q, b), c));
}

/* Nonzero bytes where cur (preceded by the block prev) breaks UTF-8. */
AVX2 static inline __m256i utf8_errors(const utf8_k *k, __m256i cur, __m256i prev) {
    /* [prev's high lane, cur's low lane]: the 16 bytes before each lane */
    __m256i before = _mm256_permute2x128_si256(prev, cur, 0x21);
    __m256i prev1 = _mm256_alignr_epi8(cur, before, 15);
    __m256i prev2 = _mm256_alignr_epi8(cur, before, 14);
    __m256i prev3 = _mm256_alignr_epi8(cur, before, 13);
    __m256i a = _mm256_shuffle_epi8(k->prev_hi,
                                    _mm256_and_si256(_mm256_srli_epi16(prev1, 4), k->nib));
    __m256i b = _mm256_shuffle_epi8(k->prev_lo, _mm256_and_si256(prev1, k->nib));
    __m256i c = _mm256_shuffle_epi8(k->cur_hi,
                                    _mm256_and_si256(_mm256_srli_epi16(cur, 4), k->nib));
    __m256i pairs = _mm256_and_si256(_mm256_and_si256(a, b), c);
    /* Bit 7 where prev2 >= E0 or prev3 >= F0, i.e. where a continuation of
     * a continuation is required: saturating subtraction leaves bit 7 set
     * exactly for those. It must match TYJSON__U8E_CONT2 (bit 7 of pairs). */
    __m256i need = _mm256_or_si256(_mm256_subs_epu8(prev2, k->k60),
                                   _mm256_subs_epu8(prev3, k->k70));
    return _mm256_xor_si256(pairs, _mm256_and_si256(need, k->k80));
}

/* Whether block v (after block prev) has an error before or at its first
 * terminator (t: the terminator mask). */
AVX2 static inline bool block_bad(const utf8_k *k, __m256i v, __m256i prev, u32 t) {
    __m256i err = utf8_errors(k, v, prev);
    if (!t) return !_mm256_testz_si256(err, err);
    u32 bad = ~(u32)_mm256_movemask_epi8(_mm256_cmpeq_epi8(err, _mm256_setzero_si256()));
    return (bad & (t ^ (t - 1))) != 0;
}

/* The last 0-31 bytes, at p (start + a multiple of 32): a copy padded with
 * '"', a terminator found past `end` meaning truncation. */
TYJSON__FIRST_USE
AVX2 TYJSON__NOINLINE static tyjson__str_scan scan_avx2_tail(const u8 *start, const u8 *p,
                                                            const u8 *end, bool allow_invalid) {
    term_k tk = term_consts();
    u8 buf[32];
    memset(buf, '"', sizeof(buf));
    memcpy(buf, p, (usize)(end - p));
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)buf);
    u32 t = terminators(&tk, v);
    if (!allow_invalid) {
        __m256i prev = p > start ? _mm256_loadu_si256((const __m256i *)(const void *)(p - 32))
                                 : _mm256_setzero_si256();
        utf8_k uk = utf8_consts();
        if ((_mm256_movemask_epi8(v) | _mm256_movemask_epi8(prev)) && block_bad(&uk, v, prev, t))
            return pinpoint(start, p, end);
    }
    usize i = (usize)__builtin_ctz(t);
    return i < (usize)(end - p) ? at_terminator(p + i) : scan_result(end, TYJSON_E_TRUNCATED);
}

/* From the first block with a non-ASCII byte, at p (everything from start
 * to p is ASCII, which as the block before p acts like zeros). */
TYJSON__FIRST_USE
AVX2 TYJSON__NOINLINE static tyjson__str_scan scan_avx2_mixed(const u8 *start, const u8 *p,
                                                             const u8 *end) {
    term_k tk = term_consts();
    utf8_k uk = utf8_consts();
    __m256i prev = _mm256_setzero_si256();
    u32 prev_hi = 0;
    while (end - p >= 32) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
        u32 t = terminators(&tk, v);
        u32 hi = (u32)_mm256_movemask_epi8(v);
        /* A pure ASCII block after a pure ASCII block needs no checking. */
        if ((hi | prev_hi) && block_bad(&uk, v, prev, t)) return pinpoint(start, p, end);
        if (t) return at_terminator(p + __builtin_ctz(t));
        prev = v;
        prev_hi = hi;
        p += 32;
    }
    return scan_avx2_tail(start, p, end, false);
}

TYJSON__FIRST_USE
AVX2 static tyjson__str_scan scan_avx2(const u8 *p, const u8 *end, bool allow_invalid) {
    const u8 *start = p;
    term_k tk = term_consts();
    while (end - p >= 32) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
        u32 t = terminators(&tk, v);
        u32 hi = (u32)_mm256_movemask_epi8(v);
        if (hi && !allow_invalid) {
            /* Short strings end in their first non-ASCII block: check it
             * here (after ASCII, as after zeros), not in the loop for
             * mixed text, which costs a call and more constants. */
            if (!t) return scan_avx2_mixed(start, p, end);
            utf8_k uk = utf8_consts();
            if (block_bad(&uk, v, _mm256_setzero_si256(), t)) return pinpoint(start, p, end);
        }
        if (t) return at_terminator(p + __builtin_ctz(t));
        p += 32;
    }
    return scan_avx2_tail(start, p, end, allow_invalid);
}
#undef AVX2
#undef TAB_PREV_HI
#undef TAB_PREV_LO
#undef TAB_CUR_HI
#undef SPLAT8
#undef SPLAT
#undef ROW
#endif /* HAVE_AVX2 */

#if HAVE_NEON
/* ----------------------------------------------------------------------------
 * NEON kernel: 16 bytes per step, the AVX2 kernel's method (above) on
 * 16-byte vectors. NEON has no byte movemask; narrowing each 16-bit pair of
 * compare results by a shift of 4 gives a 64-bit mask with 4 bits per
 * byte, so the first terminator is at ctz / 4.
 * ------------------------------------------------------------------------- */
#  include <arm_neon.h>

/* The UTF-8 tables (read/utf8_tables.h), by the previous byte's high and
 * low nibble and the current byte's high nibble. */
static const u8 nscan_tables[3][16] = {
    {TYJSON__UTF8_PREV_HI},
    {TYJSON__UTF8_PREV_LO},
    {TYJSON__UTF8_CUR_HI},
};

typedef struct nscan_k {
    uint8x16_t quote, bslash, ctrl_end, nib, k60, k70, k80, prev_hi, prev_lo, cur_hi;
} nscan_k;

static inline nscan_k nscan_consts(void) {
    nscan_k k;
    k.quote = vdupq_n_u8('"');
    k.bslash = vdupq_n_u8('\\');
    k.ctrl_end = vdupq_n_u8(0x20);
    k.nib = vdupq_n_u8(0x0F);
    k.k60 = vdupq_n_u8(0x60);
    k.k70 = vdupq_n_u8(0x70);
    k.k80 = vdupq_n_u8(0x80);
    k.prev_hi = vld1q_u8(nscan_tables[0]);
    k.prev_lo = vld1q_u8(nscan_tables[1]);
    k.cur_hi = vld1q_u8(nscan_tables[2]);
    return k;
}

/* Nibble i all ones where byte i of m (0x00 or 0xFF each) is set. */
static inline u64 nscan_nibbles(uint8x16_t m) {
    return vget_lane_u64(vreinterpret_u64_u8(vshrn_n_u16(vreinterpretq_u16_u8(m), 4)), 0);
}

/* Nibble i set where byte i is '"', '\\' or a control character. */
static inline u64 nscan_terminators(const nscan_k *k, uint8x16_t v) {
    uint8x16_t t = vorrq_u8(vceqq_u8(v, k->quote), vceqq_u8(v, k->bslash));
    return nscan_nibbles(vorrq_u8(t, vcltq_u8(v, k->ctrl_end)));
}

static inline bool nscan_high(uint8x16_t v) { return vmaxvq_u8(v) >= 0x80; }

/* Nonzero bytes where cur (after the 16 bytes prev) breaks UTF-8. */
static inline uint8x16_t nscan_utf8_errors(const nscan_k *k, uint8x16_t cur, uint8x16_t prev) {
    uint8x16_t prev1 = vextq_u8(prev, cur, 15);
    uint8x16_t prev2 = vextq_u8(prev, cur, 14);
    uint8x16_t prev3 = vextq_u8(prev, cur, 13);
    uint8x16_t a = vqtbl1q_u8(k->prev_hi, vshrq_n_u8(prev1, 4));
    uint8x16_t b = vqtbl1q_u8(k->prev_lo, vandq_u8(prev1, k->nib));
    uint8x16_t c = vqtbl1q_u8(k->cur_hi, vshrq_n_u8(cur, 4));
    uint8x16_t pairs = vandq_u8(vandq_u8(a, b), c);
    uint8x16_t need = vorrq_u8(vqsubq_u8(prev2, k->k60), vqsubq_u8(prev3, k->k70));
    return veorq_u8(pairs, vandq_u8(need, k->k80));
}

/* Whether v (after prev) has an error before or at its first terminator
 * (t: the terminator nibbles). */
static inline bool nscan_block_bad(const nscan_k *k, uint8x16_t v, uint8x16_t prev, u64 t) {
    uint8x16_t err = nscan_utf8_errors(k, v, prev);
    if (!t) return vmaxvq_u8(err) != 0;
    return (nscan_nibbles(vtstq_u8(err, err)) & (t ^ (t - 1))) != 0;
}

/* The last 0-15 bytes, at p (start + a multiple of 16): a copy padded with
 * '"', a terminator found past `end` meaning truncation. */
TYJSON__FIRST_USE
TYJSON__NOINLINE static tyjson__str_scan scan_neon_tail(const u8 *start, const u8 *p,
                                                       const u8 *end, bool allow_invalid) {
    nscan_k k = nscan_consts();
    u8 buf[16];
    memset(buf, '"', sizeof(buf));
    memcpy(buf, p, (usize)(end - p));
    uint8x16_t v = vld1q_u8(buf);
    u64 t = nscan_terminators(&k, v);
    if (!allow_invalid) {
        uint8x16_t prev = p > start ? vld1q_u8(p - 16) : vdupq_n_u8(0);
        if ((nscan_high(v) || nscan_high(prev)) && nscan_block_bad(&k, v, prev, t))
            return pinpoint(start, p, end);
    }
    usize i = tyjson__ctz64(t) / 4;
    return i < (usize)(end - p) ? at_terminator(p + i) : scan_result(end, TYJSON_E_TRUNCATED);
}

/* From the first block with a non-ASCII byte, at p (everything from start
 * to p is ASCII, which as the block before p acts like zeros). */
TYJSON__FIRST_USE
TYJSON__NOINLINE static tyjson__str_scan scan_neon_mixed(const u8 *start, const u8 *p,
                                                        const u8 *end) {
    nscan_k k = nscan_consts();
    uint8x16_t prev = vdupq_n_u8(0);
    bool prev_hi = false;
    while (end - p >= 16) {
        uint8x16_t v = vld1q_u8(p);
        u64 t = nscan_terminators(&k, v);
        bool hi = nscan_high(v);
        if ((hi || prev_hi) && nscan_block_bad(&k, v, prev, t)) return pinpoint(start, p, end);
        if (t) return at_terminator(p + tyjson__ctz64(t) / 4);
        prev = v;
        prev_hi = hi;
        p += 16;
    }
    return scan_neon_tail(start, p, end, false);
}

TYJSON__FIRST_USE
static tyjson__str_scan scan_neon(const u8 *p, const u8 *end, bool allow_invalid) {
    const u8 *start = p;
    nscan_k k = nscan_consts();
    while (end - p >= 16) {
        uint8x16_t v = vld1q_u8(p);
        u64 t = nscan_terminators(&k, v);
        if (!allow_invalid && nscan_high(v)) {
            /* as in the AVX2 kernel: a block that ends the string is
             * checked here, longer text in the loop for mixed text */
            if (!t) return scan_neon_mixed(start, p, end);
            if (nscan_block_bad(&k, v, vdupq_n_u8(0), t)) return pinpoint(start, p, end);
        }
        if (t) return at_terminator(p + tyjson__ctz64(t) / 4);
        p += 16;
    }
    return scan_neon_tail(start, p, end, allow_invalid);
}
#endif /* HAVE_NEON */

/* ----------------------------------------------------------------------------
 * Line feeds: how many a run of bytes holds and where the last one is (the
 * pull reader counts the lines of the bytes a refill drops, 64 KiB at a
 * time). The portable kernel goes from one to the next with memchr, which
 * is fast where they are few. The AVX2 kernel (used at the AVX-512 level
 * too) looks for the last one from the end first (in minified text there
 * is none, and that one pass is all), then counts up to it by subtracting
 * each block's compare result (-1 per line feed) from byte counters,
 * summed with SAD before a counter can wrap.
 * ------------------------------------------------------------------------- */
TYJSON__FIRST_USE
tyjson__lf_count tyjson__count_lf_scalar(const u8 *p, const u8 *end) {
    tyjson__lf_count c;
    c.count = 0;
    c.last = NULL;
    while (p < end) {
        const u8 *nl = (const u8 *)memchr(p, '\n', (usize)(end - p));
        if (!nl) break;
        c.count++;
        c.last = nl;
        p = nl + 1;
    }
    return c;
}

#if HAVE_AVX2
/* The last line feed of [p, end) byte by byte (at most a block's worth). */
static const u8 *last_lf_bytes(const u8 *p, const u8 *end) {
    while (end > p)
        if (*--end == '\n') return end;
    return NULL;
}

/* Line feeds of [p, end) byte by byte (at most a block's worth). */
static usize count_lf_bytes(const u8 *p, const u8 *end) {
    usize n = 0;
    for (; p < end; p++) n += *p == '\n';
    return n;
}

#  define AVX2 __attribute__((target("avx2")))
#  define LOAD32(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))

/* The sum of the 32 byte counters in acc. */
AVX2 static inline usize lf_sum_avx2(__m256i acc) {
    __m256i s = _mm256_sad_epu8(acc, _mm256_setzero_si256());
    __m128i t = _mm_add_epi64(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
    return (usize)_mm_cvtsi128_si64(t) + (usize)_mm_extract_epi64(t, 1);
}

TYJSON__FIRST_USE
AVX2 static tyjson__lf_count count_lf_avx2(const u8 *p, const u8 *end) {
    const __m256i lf = _mm256_set1_epi8('\n');
    tyjson__lf_count c;
    c.count = 0;
    c.last = NULL;
    const u8 *q = end;
    /* 128 bytes per step while none is found, then the block that has it */
    while (q - p >= 128) {
        __m256i m0 = _mm256_cmpeq_epi8(LOAD32(q - 128), lf), m1 = _mm256_cmpeq_epi8(LOAD32(q - 96), lf);
        __m256i m2 = _mm256_cmpeq_epi8(LOAD32(q - 64), lf), m3 = _mm256_cmpeq_epi8(LOAD32(q - 32), lf);
        __m256i any = _mm256_or_si256(_mm256_or_si256(m0, m1), _mm256_or_si256(m2, m3));
        if (!_mm256_testz_si256(any, any)) break;
        q -= 128;
    }
    while (q - p >= 32) {
        u32 m = (u32)_mm256_movemask_epi8(_mm256_cmpeq_epi8(LOAD32(q - 32), lf));
        if (m) {
            c.last = q - 1 - __builtin_clz(m);
            break;
        }
        q -= 32;
    }
    if (!c.last) c.last = last_lf_bytes(p, q);
    if (!c.last) return c;
    const u8 *e = c.last + 1;
    usize n = 0;
    while (e - p >= 128) {
        /* at most 255 steps per byte counter */
        usize steps = (usize)(e - p) / 128;
        if (steps > 255) steps = 255;
        __m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
        for (const u8 *stop = p + steps * 128; p < stop; p += 128) {
            a0 = _mm256_sub_epi8(a0, _mm256_cmpeq_epi8(LOAD32(p), lf));
            a1 = _mm256_sub_epi8(a1, _mm256_cmpeq_epi8(LOAD32(p + 32), lf));
            a2 = _mm256_sub_epi8(a2, _mm256_cmpeq_epi8(LOAD32(p + 64), lf));
            a3 = _mm256_sub_epi8(a3, _mm256_cmpeq_epi8(LOAD32(p + 96), lf));
        }
        n += lf_sum_avx2(a0) + lf_sum_avx2(a1) + lf_sum_avx2(a2) + lf_sum_avx2(a3);
    }
    while (e - p >= 32) {
        u32 m = (u32)_mm256_movemask_epi8(
            _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(const void *)p), lf));
        n += (usize)__builtin_popcount(m);
        p += 32;
    }
    c.count = n + count_lf_bytes(p, e);
    return c;
}
#  undef AVX2
#  undef LOAD32
#endif /* HAVE_AVX2 */

/* ----------------------------------------------------------------------------
 * Dispatch
 * ------------------------------------------------------------------------- */
typedef tyjson__str_scan (*scan_fn)(const u8 *p, const u8 *end, bool allow_invalid);

static tyjson__str_scan scan_first(const u8 *p, const u8 *end, bool allow_invalid);

static ATOMIC(scan_fn) scan_impl = scan_first;
static ATOMIC(int) scan_level = TYJSON__SIMD_SCALAR;
static ATOMIC(tyjson__index_fn) index_impl = tyjson__index_scalar;

typedef tyjson__lf_count (*lf_fn)(const u8 *p, const u8 *end);
static tyjson__lf_count lf_first(const u8 *p, const u8 *end);
static ATOMIC(lf_fn) lf_impl = lf_first;

TYJSON__FIRST_USE
static int cpu_level(void) {
#if HAVE_AVX2
    __builtin_cpu_init();
    /* The AVX-512 kernels use the F and BW subsets (64-byte masks) and
     * VBMI2 (16-bit compress), both levels carry-less multiplication; the
     * probe also checks that the OS saves the wider registers. */
    bool clmul = __builtin_cpu_supports("pclmul") != 0;
    if (clmul && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vbmi2"))
        return TYJSON__SIMD_AVX512;
    if (clmul && __builtin_cpu_supports("avx2")) return TYJSON__SIMD_AVX2;
#elif HAVE_NEON
    return TYJSON__SIMD_NEON;
#endif
    return TYJSON__SIMD_SCALAR;
}

TYJSON__FIRST_USE
static scan_fn kernel(int level) {
#if HAVE_AVX2
    if (level >= TYJSON__SIMD_AVX2) return scan_avx2;
#elif HAVE_NEON
    if (level == TYJSON__SIMD_NEON) return scan_neon;
#else
    (void)level;
#endif
    return tyjson__str_scan_scalar;
}

TYJSON__FIRST_USE
static lf_fn lf_kernel(int level) {
#if HAVE_AVX2
    /* AVX-512 too: 64-byte compares into mask registers (one port) with
     * the mask moved back or popcounted ran 1.5-2.4x slower than four
     * 32-byte compares a step (docs/perf-log.md, branch rspd3) */
    if (level >= TYJSON__SIMD_AVX2) return count_lf_avx2;
#else
    (void)level;
#endif
    return tyjson__count_lf_scalar;
}

/* The level TYJSON_SIMD names ("scalar", "avx2", "avx512", "neon"), or
 * `best` when it is unset or names nothing known. */
static int env_level(int best) {
    static const struct {
        const char *name;
        int level;
    } names[] = {{"scalar", TYJSON__SIMD_SCALAR},
                 {"avx2", TYJSON__SIMD_AVX2},
                 {"avx512", TYJSON__SIMD_AVX512},
                 {"neon", TYJSON__SIMD_NEON}};
    const char *env = getenv("TYJSON_SIMD");
    if (!env) return best;
    for (usize i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (strcmp(env, names[i].name) == 0) return names[i].level;
    return best;
}

TYJSON__FIRST_USE
static scan_fn init_level(int level) {
    int best = cpu_level();
    if (level < 0) level = env_level(best);
    /* A level this CPU lacks becomes the best one it has. */
    if (!tyjson__simd_level_ok(level, best)) level = best;
    STORE(index_impl, tyjson__index_kernel_for(level));
    STORE(lf_impl, lf_kernel(level));
    STORE(scan_level, level);
    scan_fn f = kernel(level);
    STORE(scan_impl, f);
    return f;
}

/* Where the compiler has load-time constructors the choice is made when the
 * library is loaded (like libgcc's own CPU probe), so that a process's first
 * parse or decode does not also read the environment. Elsewhere, and as the
 * fallback, the first call of all probes the CPU, then jumps to the chosen
 * kernel; racing first calls store the same values. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((constructor)) static void choose_at_load(void) {
    if (LOAD(scan_impl) == scan_first) (void)init_level(TYJSON__SIMD_AUTO);
}
#endif

TYJSON__FIRST_USE
static tyjson__str_scan scan_first(const u8 *p, const u8 *end, bool allow_invalid) {
    return init_level(TYJSON__SIMD_AUTO)(p, end, allow_invalid);
}

TYJSON__FIRST_USE
tyjson__str_scan tyjson__str_scan_long(const u8 *p, const u8 *end, bool allow_invalid) {
    return LOAD(scan_impl)(p, end, allow_invalid);
}

TYJSON__FIRST_USE
static tyjson__lf_count lf_first(const u8 *p, const u8 *end) {
    (void)init_level(TYJSON__SIMD_AUTO);
    return LOAD(lf_impl)(p, end);
}

tyjson__lf_count tyjson__count_lf(const u8 *p, const u8 *end) { return LOAD(lf_impl)(p, end); }

void tyjson__simd_set_level(int level) { (void)init_level(level); }

tyjson__index_fn tyjson__index_kernel(void) {
    if (LOAD(scan_impl) == scan_first) (void)init_level(TYJSON__SIMD_AUTO);
    return LOAD(index_impl);
}

bool tyjson__simd_level_ok(int level, int best) {
    if (level == TYJSON__SIMD_SCALAR) return true;
    if (level == TYJSON__SIMD_NEON || best == TYJSON__SIMD_NEON) return level == best;
    return level > 0 && level <= best;
}

int tyjson__simd_level(void) {
    if (LOAD(scan_impl) == scan_first) (void)init_level(TYJSON__SIMD_AUTO);
    return LOAD(scan_level);
}

/* This file's short macro names end here. */
#undef HAVE_AVX2
#undef HAVE_NEON
#undef ATOMIC
#undef LOAD
#undef STORE
