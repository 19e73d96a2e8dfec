/*
 * read/utf8_wide.c - the code points of UTF-8 text that the reading core
 * has already checked (every string of a document): their count and the
 * storage width they need, and the text widened to 1-, 2- or 4-byte code
 * units. This is what a runtime with fixed-width strings (CPython's
 * PEP 393 str) needs to build a string with one allocation and one pass,
 * and it can run on a worker thread, away from that runtime's lock.
 *
 * Nothing here checks the text (lex.c does). On bytes that are not UTF-8
 * the results are wrong but bounded: one code point per byte that is not a
 * continuation byte (10xxxxxx), never a read past len nor a write past the
 * count.
 */
#include "base/internal.h"

/* 8 bytes at p, in any alignment. */
static inline u64 word8(const u8 *p) {
    u64 w;
    memcpy(&w, p, 8);
    return w;
}

#define HIGH_BITS 0x8080808080808080ull

/* Per byte of w, at bit 7: the bytes >= 0xC0 (lead bytes of 2 to 4),
 * the continuation bytes, and whether a lead needs more than one byte of
 * storage: >= 0xE0, or C4..DF (above 0xFF). Shifting left by k moves bit
 * 7-k of each byte to its bit 7, never across bytes. */
/* How many bytes of m have bit 7 set (m has no other bits): the sum of
 * the bytes after moving each bit to bit 0, gathered by a multiply in the
 * top byte (at most 8, so no byte overflows). */
static inline usize bytes_set(u64 m) { return (usize)(((m >> 7) * 0x0101010101010101ull) >> 56); }

typedef struct utf8_bits {
    u64 cont, lead, wide, astral;
} utf8_bits;

static inline utf8_bits classify8(u64 w) {
    utf8_bits b;
    u64 b7 = w & HIGH_BITS, b6 = (w << 1) & HIGH_BITS, b5 = (w << 2) & HIGH_BITS;
    u64 b4 = (w << 3) & HIGH_BITS, low = ((w << 3) | (w << 4) | (w << 5)) & HIGH_BITS;
    b.cont = b7 & ~b6;
    b.lead = b7 & b6;
    b.wide = b.lead & (b5 | low);
    b.astral = b.lead & b5 & b4;
    return b;
}

uint32_t tyjson_utf8_measure(const char *s, size_t len, size_t *chars) {
    const u8 *p = (const u8 *)s, *end = p + len;
    usize cont = 0;
    u64 lead = 0, wide = 0, astral = 0;
    for (; end - p >= 8; p += 8) {
        u64 w = word8(p);
        if ((w & HIGH_BITS) == 0) continue; /* ASCII: the common case of keys and text */
        utf8_bits b = classify8(w);
        cont += bytes_set(b.cont);
        lead |= b.lead;
        wide |= b.wide;
        astral |= b.astral;
    }
    if (p < end) { /* the last 1..7 bytes, zero-padded (zeros are ASCII) */
        u64 w = 0;
        for (unsigned k = 0; p + k < end; k++) w |= (u64)p[k] << (8 * k);
        if ((w & HIGH_BITS) == 0 && !lead) {
            if (chars) *chars = len - cont;
            return 0x7F;
        }
        utf8_bits b = classify8(w);
        cont += bytes_set(b.cont);
        lead |= b.lead;
        wide |= b.wide;
        astral |= b.astral;
    }
    if (chars) *chars = len - cont;
    /* the lead bytes bound the code points: C2..C3 below 0x100, up to EF
     * below 0x10000, F0.. beyond */
    if (astral) return 0x10FFFF;
    if (wide) return 0xFFFF;
    if (lead) return 0xFF;
    return 0x7F;
}

/* The code point whose sequence starts at *pp, a lead byte >= 0xC0; *pp
 * moves past it. With 4 bytes left the sequence is taken as its lead
 * says (the text was checked; on other bytes the value is wrong and at
 * worst a counted lead byte is skipped, so fewer code points are written,
 * never more); nearer the end, only continuation bytes before end. */
static inline u32 next_cp(const u8 **pp, const u8 *end) {
    const u8 *p = *pp;
    u32 c = p[0], n, cp;
    if (end - p >= 4) {
        if (c < 0xE0) {
            *pp = p + 2;
            return ((c & 0x1Fu) << 6) | (p[1] & 0x3Fu);
        }
        if (c < 0xF0) {
            *pp = p + 3;
            return ((c & 0x0Fu) << 12) | ((p[1] & 0x3Fu) << 6) | (p[2] & 0x3Fu);
        }
        *pp = p + 4;
        return ((c & 0x07u) << 18) | ((p[1] & 0x3Fu) << 12) | ((p[2] & 0x3Fu) << 6) | (p[3] & 0x3Fu);
    }
    p++;
    n = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : 1;
    cp = c & (0x3Fu >> n);
    while (n-- && p < end && (*p & 0xC0) == 0x80) cp = (cp << 6) | (*p++ & 0x3Fu);
    *pp = p;
    return cp;
}

/* One loop per width, so that each store is a plain one. A stray
 * continuation byte (not UTF-8) is skipped: it was not counted. */
#define WIDEN_LOOP(T)                                                          \
    do {                                                                       \
        T *o = (T *)out;                                                       \
        while (p < end) {                                                      \
            u8 c = *p;                                                         \
            if (c < 0x80) {                                                    \
                if (end - p >= 8 && (word8(p) & HIGH_BITS) == 0) {             \
                    for (int k = 0; k < 8; k++) o[k] = (T)p[k];                \
                    o += 8;                                                    \
                    p += 8;                                                    \
                } else {                                                       \
                    *o++ = (T)c;                                               \
                    p++;                                                       \
                }                                                              \
            } else if (c < 0xC0) {                                             \
                p++;                                                           \
            } else {                                                           \
                *o++ = (T)next_cp(&p, end);                                    \
            }                                                                  \
        }                                                                      \
    } while (0)

void tyjson_utf8_widen(const char *s, size_t len, void *out, unsigned width) {
    const u8 *p = (const u8 *)s, *end = p + len;
    if (width == 1) WIDEN_LOOP(u8);
    else if (width == 2) WIDEN_LOOP(u16);
    else if (width == 4) WIDEN_LOOP(u32);
}
