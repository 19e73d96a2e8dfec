/*
 * index.h - the structural indexer: the reading core's block classifier.
 *
 * The indexer reads its input in 64-byte blocks and lists where each token
 * starts, so that a reader jumps from token to token without looking at
 * whitespace, and takes a string's length from two entries instead of
 * scanning it. For every block a kernel (scalar, AVX2, AVX-512, NEON; see
 * simd.h for the choice) classifies the bytes into bit masks, one bit per
 * byte: '"', '\\', whitespace, the six structural characters "{}[],:",
 * control characters; and it checks UTF-8. The code below, shared by every
 * kernel, turns those masks into the block's token starts:
 *
 *   - quotes that are not escaped (opening and closing ones, both listed);
 *   - backslashes that begin an escape inside a string (so a reader knows
 *     that a string needs decoding: the entry after its opening quote is a
 *     backslash rather than the closing quote);
 *   - structural characters outside strings;
 *   - the first byte of every other run of bytes outside strings that are
 *     neither whitespace nor structural: numbers, literals, and any stray
 *     byte, which the reader then rejects.
 *
 * The state carried from block to block is small (inside a string or not,
 * whether the next byte is escaped, whether a run continues, the last three
 * bytes for UTF-8), so a reader can index input that arrives in pieces.
 *
 * What the indexer guarantees: for valid JSON the entries are exactly the
 * token starts above, and `err` stays 0. `err` becomes nonzero for invalid
 * UTF-8 anywhere, a control character inside a string, and (at the end) an
 * unterminated string. Invalid input may also index cleanly (a missing
 * comma, a bad number): finding those is the reader's grammar check. Every
 * kernel gives the same entries and the same final `err` for every input;
 * test_index compares each with a byte-at-a-time reference.
 */
#ifndef TYJSON_INDEX_H
#define TYJSON_INDEX_H

#include "read/lex.h"

/* Bytes per call of a kernel in the window drivers: entries are u16
 * offsets from the window's start. */
#define TYJSON__IDX_WINDOW 2048
/* Room a kernel may write past the last entry (its stores are unconditional
 * groups of eight). */
#define TYJSON__IDX_SLACK 64

typedef struct tyjson__idx_state {
    u64 in_str;  /* all ones when the previous block ended inside a string */
    u64 escaped; /* 1 when the next block's first byte is escaped */
    u64 in_run;  /* 1 when the previous block ended inside a scalar run */
    u64 err;     /* nonzero once any block was bad */
    u8 tail[4];  /* the last three bytes of the previous block (tail[2] last) */
} tyjson__idx_state;

/*
 * A kernel: classifies the nblocks * 64 bytes at src (1 <= nblocks <=
 * TYJSON__IDX_WINDOW / 64), stores the offset from src of each token start
 * in out (which has room for nblocks * 64 + TYJSON__IDX_SLACK entries) and
 * returns how many it stored. Updates *s for the bytes that follow.
 */
typedef usize (*tyjson__index_fn)(tyjson__idx_state *s, const u8 *src, usize nblocks, u16 *out);

/** The kernel chosen for this CPU (simd.h). */
tyjson__index_fn tyjson__index_kernel(void);

/** The portable kernel (tests compare every other kernel with it). */
usize tyjson__index_scalar(tyjson__idx_state *s, const u8 *src, usize nblocks, u16 *out);

/** The AVX2 kernel (index_avx2.c; x86-64 with GCC or clang only). */
usize tyjson__index_avx2(tyjson__idx_state *s, const u8 *src, usize nblocks, u16 *out);

/** A fresh state, for input that starts at a value or whitespace. */
void tyjson__idx_init(tyjson__idx_state *s);

/**
 * Ends the input with kernel k: flags a UTF-8 sequence or a string left
 * open by the last block. Returns the final err (0 when clean).
 */
u64 tyjson__idx_finish(tyjson__idx_state *s, tyjson__index_fn k);

/*
 * Window driver over one buffer [pos, end): each call indexes the next
 * window (up to TYJSON__IDX_WINDOW bytes; the last partial block is read
 * through a copy padded with spaces, never past end) into idx, with the
 * window's first byte in *base. Returns the count; 0 once the input is
 * done (finish has run: st.err is final).
 */
typedef struct tyjson__indexer {
    tyjson__idx_state st;
    tyjson__index_fn kernel;
    const u8 *pos, *end;
    usize blocks; /* blocks in the next window: doubles up to the most */
    bool done;
    /* Copying indexer (tyjson__indexer_copy_from): the next byte of the
     * buffer to fill and the caller's byte that goes there; copy_dst NULL
     * when the buffer already holds the input. */
    u8 *copy_dst;
    const u8 *copy_src;
    u16 idx[TYJSON__IDX_WINDOW + TYJSON__IDX_SLACK];
} tyjson__indexer;

/* first_blocks: the first window's size in blocks (1 .. WINDOW / 64);
 * each later one doubles it up to the most, so that a reader that may need
 * only a little of the input (a skipped value) classifies little more. */
void tyjson__indexer_init(tyjson__indexer *ix, const u8 *p, const u8 *end, usize first_blocks);
usize tyjson__indexer_next(tyjson__indexer *ix, const u8 **base);

/*
 * Fills the indexed buffer from src as the windows go, instead of the
 * caller copying the whole input first: the copy of each window is still in
 * L1 when the kernel and then the reader go over it, where a copy made
 * beforehand has left the cache for large inputs (one pass over the bytes
 * fewer; docs/perf-log.md "Copy as the windows go"). Called right after
 * init, before the first window: ix->pos .. ix->end must then be writable
 * and followed by TYJSON__PAD writable bytes. Before a window is indexed,
 * the buffer holds the input up to TYJSON__IDX_LEAD bytes past that window,
 * followed by TYJSON__PAD zero bytes (until the next window's copy
 * overwrites them), so a reader may look a token's few bytes ahead (an
 * escape, a literal, a number's 8-byte loads); a token that runs further
 * meets a zero byte, which no valid token holds, and the reader gives up.
 */
#define TYJSON__IDX_LEAD 64
void tyjson__indexer_copy_from(tyjson__indexer *ix, const u8 *src);
/* The rest of the input copied now (a reader that stops using the index). */
void tyjson__indexer_copy_rest(tyjson__indexer *ix);

/*
 * A token cursor over the indexer: the readers' way through the entries.
 * The indexer (4 KiB) stays in memory; the window's position is a small
 * struct the reader keeps in locals (it must not have its address passed
 * to anything not inlined, or it lives in memory and every token pays a
 * store and a reload). tyjson__tok_next gives the first byte of the next
 * token; `end` once the input has none left (readers of padded input see a
 * zero byte there, the others compare); NULL when the indexer flagged the
 * input (invalid UTF-8, a control character in a string, an open string).
 */
typedef struct tyjson__tok_win {
    const u8 *base;        /* the window's first byte; end or NULL once there are no entries */
    const u16 *ip, *iend;  /* its entries not yet taken */
} tyjson__tok_win;

/* Ready to index [p, end) (first_blocks: see tyjson__indexer_init). */
tyjson__tok_win tyjson__tok_start(tyjson__indexer *ix, const u8 *p, const u8 *end,
                                  usize first_blocks);
/* The next window with entries; base = end (no entries) when the input is
 * done, base = NULL when the indexer flagged it. */
tyjson__tok_win tyjson__tok_refill(tyjson__indexer *ix);

TYJSON__FORCEINLINE const u8 *tyjson__tok_next(tyjson__indexer *ix, tyjson__tok_win *w) {
    if (likely(w->ip < w->iend)) return w->base + *w->ip++;
    *w = tyjson__tok_refill(ix);
    if (w->ip < w->iend) return w->base + *w->ip++;
    return w->base;
}

/* Whether reading over the index is worth it for this input, judged from
 * the first 256 entries of its first window (w freshly refilled). The
 * byte-at-a-time readers' own scanning is as fast as a reader over the
 * index where numbers or escapes fill the text (canada, numbers,
 * twitterescaped: docs/perf-log.md), so the indexing would be pure cost
 * there: a quarter or more of the tokens being numbers or backslashes
 * sends the input to the byte-at-a-time reader. Both the DOM parser and
 * tyjson_validate decide with it. */
TYJSON__FORCEINLINE bool tyjson__index_pays(const tyjson__tok_win *w) {
    usize n = (usize)(w->iend - w->ip), dense = 0;
    if (!w->base || n == 0) return true; /* flagged or empty: the reader gives up at once */
    if (n > 256) n = 256; /* every entry: a stride would alias with regular layouts */
    for (usize i = 0; i < n; i++) {
        u8 ch = w->base[w->ip[i]];
        dense += (ch >= '0' && ch <= '9') || ch == '-' || ch == '\\';
    }
    return dense * 4 < n;
}

/* ----------------------------------------------------------------------------
 * The shared part of every kernel (inline, so each kernel compiles it for
 * its own instruction set).
 * ------------------------------------------------------------------------- */
#define TYJSON__EVEN_BITS 0x5555555555555555ull

/* Leading zero bits of x; 64 for 0. */
TYJSON__FORCEINLINE unsigned tyjson__idx_clz64(u64 x) {
#if defined(__GNUC__) || defined(__clang__)
    return x ? (unsigned)__builtin_clzll(x) : 64;
#else
    unsigned n = 0;
    while (n < 64 && !(x >> 63)) {
        x <<= 1;
        n++;
    }
    return n;
#endif
}

/* Set bits of x. */
TYJSON__FORCEINLINE unsigned tyjson__idx_popcount(u64 x) {
#if defined(__GNUC__) || defined(__clang__)
    return (unsigned)__builtin_popcountll(x);
#else
    unsigned n = 0;
    for (; x; x &= x - 1) n++;
    return n;
#endif
}

/* Bit i set where byte i is escaped: it is preceded by an odd number of
 * backslashes in a row. *bs comes in as the block's backslash mask and
 * leaves as the backslashes that begin an escape. Adding a run's start bit
 * to the run clears the run and sets the bit just past it, so run ^ (run +
 * start) is the run plus the byte after it; in it, the bytes whose parity
 * differs from the start's are the escaped ones (done separately for runs
 * starting on even and on odd bits). A run that reaches the block's end
 * passes its parity on in s->escaped. */
TYJSON__FORCEINLINE u64 tyjson__idx_escaped(tyjson__idx_state *s, u64 *bs) {
    const u64 even = TYJSON__EVEN_BITS, odd = ~TYJSON__EVEN_BITS;
    u64 first = s->escaped; /* 0 or 1 */
    u64 b = *bs & ~first;   /* an escaped backslash begins nothing */
    u64 starts = b & ~(b << 1);
    u64 from_even = b ^ ((starts & even) + b);
    u64 from_odd = b ^ ((starts & odd) + b);
    u64 escaped = (from_even & odd) | (from_odd & even) | first;
    /* the run ending at bit 63, if any, starts after the highest clear bit */
    unsigned run = (b >> 63) ? tyjson__idx_clz64(~b) : 0;
    s->escaped = run & 1;
    *bs = b & ~escaped;
    return escaped;
}

/* Each bit the XOR of itself and every lower bit: inside-string bits from
 * quote bits (an opening quote's bit set, its closing quote's clear). The
 * vector kernels use carry-less multiplication instead. */
TYJSON__FORCEINLINE u64 tyjson__idx_prefix_xor(u64 x) {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}

/* The token starts of a block from its masks: q unescaped quotes, in the
 * prefix XOR of q, bs escape-beginning backslashes, ws whitespace, op
 * structural characters, ctrl bytes below 0x20. */
TYJSON__FORCEINLINE u64 tyjson__idx_tokens(tyjson__idx_state *s, u64 q, u64 in, u64 bs, u64 ws,
                                           u64 op, u64 ctrl) {
    in ^= s->in_str;
    s->in_str = (u64)0 - (in >> 63);
    s->err |= ctrl & in;
    u64 outside = ~in;
    u64 run = ~(ws | op | q) & outside;
    u64 run_starts = run & ~((run << 1) | s->in_run);
    s->in_run = run >> 63;
    return q | (bs & in) | (op & outside) | run_starts;
}

/* Four offsets (base + the index of each of the next four bits of *m,
 * 63 once m runs out) packed into one 64-bit store. Packing keeps
 * compilers from turning the stores into vector lane inserts, which are
 * slower than the plain stores. */
TYJSON__FORCEINLINE void tyjson__idx_store4(u16 *o, u64 *m, u64 base4) {
    const u64 top = 1ull << 63;
    u64 w = 0;
    for (int i = 0; i < 4; i++) {
        w |= (u64)tyjson__ctz64(*m | top) << (16 * i);
        *m &= *m - 1;
    }
    w += base4;
    memcpy(o, &w, sizeof(w));
}

/* Appends the offsets (base + bit index) of the bits of m at out + n;
 * returns the new count. Stores in groups of eight whatever the count (the
 * slack absorbs the extra ones), which keeps the branch predictable. */
TYJSON__FORCEINLINE usize tyjson__idx_flatten(u16 *out, usize n, u64 m, unsigned base) {
    usize cnt = tyjson__idx_popcount(m);
    u64 base4 = (u64)base * 0x0001000100010001ull;
    u16 *o = out + n;
    tyjson__idx_store4(o, &m, base4);
    tyjson__idx_store4(o + 4, &m, base4);
    if (unlikely(cnt > 8)) {
        for (usize i = 8; i < cnt; i += 4) tyjson__idx_store4(o + i, &m, base4);
    }
    return n + cnt;
}

#endif /* TYJSON_INDEX_H */
