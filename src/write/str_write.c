/*
 * str_write.c - JSON string literals: escaping, UTF-8 validation and
 * repair. The rules are in str_write.h.
 *
 * Speed: strings are scanned 16 bytes at a time with SSE2 on x86-64 (the
 * baseline there, so no dispatch), then 8 at a time (SWAR on a u64 loaded
 * with memcpy) for bytes that need attention: < 0x20, '"', '\\', >= 0x80 and, with
 * ESCAPE_SLASH, '/'. Clean words are stored as they are; a flagged word is
 * stored too (speculatively) and the cursor is moved to its first flagged
 * byte, which a 256-entry table then classifies. Output room is reserved
 * per block of input bytes at the worst case of 6 output bytes per input
 * byte, so a long string never needs a reservation much larger than a block.
 */
#include "write/str_write.h"
#include "read/lex.h"
#include "read/simd.h"

#if defined(__SSE2__)
#  include <emmintrin.h>
#  define STR_SSE2 1
#endif

/* Input bytes per reservation: 6 * BLOCK + BLOCK_EXTRA <= RESERVE_MAX. */
#define BLOCK 512u
/* A UTF-8 sequence that starts in a block may end past it (at most 6 more
 * output bytes than budgeted), plus the closing quote and the slack. */
#define BLOCK_EXTRA (32u + TYJSON__STR_SLACK)

/* Byte classes: 0 = copy as is; an ASCII byte that needs escaping maps to
 * the letter after the backslash ('u' = \u00XX); 1 = non-ASCII (UTF-8). */
#define Z4 0, 0, 0, 0
#define Z16 Z4, Z4, Z4, Z4
#define U4 'u', 'u', 'u', 'u'
#define H4 1, 1, 1, 1
#define H16 H4, H4, H4, H4
#define CTL_ROWS                                                               \
    'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'b', 't', 'n', 'u', 'f', 'r', 'u', 'u', \
    U4, U4, U4, U4
#define TAIL_ROWS(slash)                                                       \
    0, 0, '"', 0, Z4, Z4, 0, 0, 0, slash, /* 0x20 */                           \
    Z16,                                  /* 0x30 */                           \
    Z16,                                  /* 0x40 */                           \
    Z4, Z4, Z4, '\\', 0, 0, 0,            /* 0x50 */                           \
    Z16, Z16,                             /* 0x60 */                           \
    H16, H16, H16, H16, H16, H16, H16, H16 /* 0x80 */

static const u8 tab_min[256] = {CTL_ROWS, TAIL_ROWS(0)};
static const u8 tab_slash[256] = {CTL_ROWS, TAIL_ROWS('/')};

static const char hexd[16] = {'0', '1', '2', '3', '4', '5', '6', '7',
                              '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};

#ifdef STR_SSE2
/* The 16 bytes at s copied to d; a mask with bit i set when byte i needs
 * attention (the signed compare with 0x20 catches both control bytes and
 * bytes >= 0x80). */
TYJSON__FORCEINLINE unsigned copy_attn16(char *d, const u8 *s, bool slash) {
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)s);
    _mm_storeu_si128((__m128i *)(void *)d, x);
    __m128i m = _mm_or_si128(_mm_cmplt_epi8(x, _mm_set1_epi8(0x20)),
                             _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')),
                                          _mm_cmpeq_epi8(x, _mm_set1_epi8('\\'))));
    if (slash) m = _mm_or_si128(m, _mm_cmpeq_epi8(x, _mm_set1_epi8('/')));
    return (unsigned)_mm_movemask_epi8(m);
}
#endif

#if defined(__GNUC__) && defined(__BYTE_ORDER__) &&                            \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#  define FIRST_FLAGGED(m, s, tab) ((usize)__builtin_ctzll(m) >> 3)
#else
/* On big-endian machines borrows run towards lower addresses, so the mask
 * only says "somewhere in these 8 bytes": find the byte with the table. */
#  define FIRST_FLAGGED(m, s, tab) first_flagged_scan(s, tab)
static usize first_flagged_scan(const u8 *s, const u8 *tab) {
    usize i = 0;
    while (!tab[s[i]]) i++;
    return i;
}
#endif

/* ----------------------------------------------------------------------------
 * UTF-8.
 * ------------------------------------------------------------------------- */

/* The rules are the reading core's (read/lex.h): the writer validates what
 * it copies with the same functions the readers use. */

TYJSON__FORCEINLINE char *put_u16(char *d, u32 u) {
    d[0] = '\\';
    d[1] = 'u';
    d[2] = hexd[(u >> 12) & 15];
    d[3] = hexd[(u >> 8) & 15];
    d[4] = hexd[(u >> 4) & 15];
    d[5] = hexd[u & 15];
    return d + 6;
}

/* Replaces the maximal invalid subpart at s (tyjson__utf8_bad_len) with
 * U+FFFD, or fails. Returns the new cursor or NULL; advances *ps. */
static TYJSON__NOINLINE char *utf8_bad(tyjson__wbuf *wb, char *d, const u8 **ps,
                                       const u8 *end, tyjson_write_flags flags) {
    if (!(flags & TYJSON_WRITE_REPLACE_INVALID_UTF8)) {
        tyjson__wbuf_fail(wb, TYJSON_E_UTF8);
        return NULL;
    }
    *ps += tyjson__utf8_bad_len(*ps, end);
    if (flags & TYJSON_WRITE_ESCAPE_UNICODE) return put_u16(d, 0xFFFD);
    memcpy(d, "\xEF\xBF\xBD", 3);
    return d + 3;
}

/* Writes the run of non-ASCII sequences at *ps (stopping at blk_end or at
 * an ASCII byte). Returns the new cursor or NULL on invalid UTF-8. */
static char *utf8_run(tyjson__wbuf *wb, char *d, const u8 **ps, const u8 *blk_end,
                      const u8 *end, tyjson_write_flags flags) {
    const u8 *s = *ps;
    if (!(flags & TYJSON_WRITE_ESCAPE_UNICODE)) {
        do {
            usize len = tyjson__utf8_seq(s, end);
            if (likely(len)) {
                if (likely(end - s >= 4)) {
                    memcpy(d, s, 4); /* d has room: 6 bytes per input byte */
                } else {
                    d[0] = (char)s[0];
                    d[1] = (char)s[1];
                    if (len > 2) d[2] = (char)s[2];
                }
                d += len;
                s += len;
            } else {
                d = utf8_bad(wb, d, &s, end, flags);
                if (!d) return NULL;
            }
        } while (s < blk_end && *s >= 0x80);
    } else {
        do {
            u32 cp;
            usize len = tyjson__utf8_decode(s, end, &cp);
            if (likely(len)) {
                if (cp >= 0x10000) {
                    cp -= 0x10000;
                    d = put_u16(d, 0xD800 + (cp >> 10));
                    d = put_u16(d, 0xDC00 + (cp & 0x3FF));
                } else {
                    d = put_u16(d, cp);
                }
                s += len;
            } else {
                d = utf8_bad(wb, d, &s, end, flags);
                if (!d) return NULL;
            }
        } while (s < blk_end && *s >= 0x80);
    }
    *ps = s;
    return d;
}

/* ----------------------------------------------------------------------------
 * Blocks.
 * ------------------------------------------------------------------------- */

/* Writes the input bytes [*ps, blk_end) (a UTF-8 sequence may run on to
 * `end`). Room for 6 bytes per input byte plus BLOCK_EXTRA is reserved. */
TYJSON__FORCEINLINE char *esc_block(tyjson__wbuf *wb, char *d, const u8 **ps,
                                    const u8 *blk_end, const u8 *end,
                                    tyjson_write_flags flags, bool slash) {
    const u8 *tab = slash ? tab_slash : tab_min;
    const u8 *s = *ps;
    for (;;) {
#ifdef STR_SSE2
        while ((usize)(blk_end - s) >= 16) {
            unsigned m = copy_attn16(d, s, slash);
            if (likely(m == 0)) {
                s += 16;
                d += 16;
                continue;
            }
            usize i = (usize)__builtin_ctz(m);
            s += i;
            d += i;
            goto special;
        }
#endif
        while ((usize)(blk_end - s) >= 8) {
            u64 x;
            memcpy(&x, s, 8);
            memcpy(d, &x, 8);
            u64 m = tyjson__str_attn64(x, slash);
            if (likely(m == 0)) {
                s += 8;
                d += 8;
                continue;
            }
            usize i = FIRST_FLAGGED(m, s, tab);
            s += i;
            d += i;
            goto special;
        }
        /* Fewer than 8 bytes left in the block: 4 to 7 clean ones (short
         * keys and values) by two overlapping 4-byte loads and stores,
         * anything else one byte at a time. */
        if ((usize)(blk_end - s) >= 4 && tyjson__str_copy_clean_4to7(d, s, (usize)(blk_end - s), slash)) {
            d += blk_end - s;
            *ps = blk_end;
            return d;
        }
        while (s < blk_end) {
            if (tab[*s]) goto special;
            *d++ = (char)*s++;
        }
        *ps = s;
        return d;

    special : {
        u8 c = *s, e = tab[c];
        if (e > 1) {
            /* Escapes come in runs (control bytes, quoted quotes): stay
             * here while they do. Room: 6 output bytes per input byte and
             * BLOCK_EXTRA past the block take the 8-byte stores. */
            do {
#if TYJSON__SWAR /* little-endian words */
                u64 w;
                if (e == 'u') {
                    /* `\u00XY` as a little-endian word */
                    w = 0x3030755Cull | (u64)(u8)hexd[c >> 4] << 32 | (u64)(u8)hexd[c & 15] << 40;
                    memcpy(d, &w, 8);
                    d += 6;
                } else {
                    w = (u64)'\\' | (u64)e << 8;
                    memcpy(d, &w, 8);
                    d += 2;
                }
#else
                d[0] = '\\';
                d[1] = (char)e;
                if (e == 'u') {
                    d[2] = '0';
                    d[3] = '0';
                    d[4] = hexd[c >> 4];
                    d[5] = hexd[c & 15];
                    d += 6;
                } else {
                    d += 2;
                }
#endif
                s++;
                if (s >= blk_end) break;
                c = *s;
                e = tab[c];
            } while (e > 1);
        } else if (!slash && !(flags & TYJSON_WRITE_ESCAPE_UNICODE)) {
            /* Non-ASCII with minimal escaping: the reading core's scanner
             * (SIMD when dispatched) validates the rest of the block in one
             * pass and stops at the next byte that needs an escape; the
             * clean run is copied at once. The limit lets a sequence that
             * straddles the block end validate whole (BLOCK_EXTRA covers
             * the 3 bytes past the reservation). */
            const u8 *lim = (usize)(end - blk_end) > 3 ? blk_end + 3 : end;
            tyjson__str_scan sc = tyjson__str_scan_long(s, lim, false);
            usize run = (usize)(sc.stop - s);
            memcpy(d, s, run);
            d += run;
            s = sc.stop;
            if (s >= blk_end) {
                *ps = s;
                return d;
            }
            if (sc.err == TYJSON_E_UTF8) {
                d = utf8_bad(wb, d, &s, end, flags);
                if (!d) return NULL;
                /* the replaced bytes may run past the block: the loops
                 * above must not see s > blk_end */
                if (s >= blk_end) {
                    *ps = s;
                    return d;
                }
            }
        } else {
            d = utf8_run(wb, d, &s, blk_end, end, flags);
            if (!d) return NULL;
            /* A sequence may end past the block; the SWAR loop's room test
             * must not see s > blk_end. */
            if (s >= blk_end) {
                *ps = s;
                return d;
            }
        }
    }
    }
}

TYJSON__FORCEINLINE char *str_write_impl(tyjson__wbuf *wb, char *d, const u8 *s,
                                         usize n, tyjson_write_flags flags,
                                         bool slash) {
    const u8 *end = s + n;
    usize blk = n < BLOCK ? n : BLOCK;
    usize need = blk * 6 + BLOCK_EXTRA;
    if (unlikely((usize)(wb->end - d) < need)) d = tyjson__wbuf_grow(wb, d, need);
    *d++ = '"';
    for (;;) {
        d = esc_block(wb, d, &s, s + blk, end, flags, slash);
        if (unlikely(!d)) return NULL;
        if (s >= end) break;
        usize left = (usize)(end - s);
        blk = left < BLOCK ? left : BLOCK;
        need = blk * 6 + BLOCK_EXTRA;
        if ((usize)(wb->end - d) < need) d = tyjson__wbuf_grow(wb, d, need);
    }
    *d++ = '"';
    return d;
}

/* Out of line, so that the short path below keeps a small prologue. */
static TYJSON__NOINLINE char *str_write_any(tyjson__wbuf *wb, char *d, const char *s, usize n,
                                           tyjson_write_flags flags) {
    if (n == 0) { /* s may be NULL: no pointer arithmetic on it */
        if ((usize)(wb->end - d) < 2 + TYJSON__STR_SLACK) d = tyjson__wbuf_grow(wb, d, 2 + TYJSON__STR_SLACK);
        d[0] = '"';
        d[1] = '"';
        return d + 2;
    }
    if (flags & TYJSON_WRITE_ESCAPE_SLASH)
        return str_write_impl(wb, d, (const u8 *)s, n, flags, true);
    return str_write_impl(wb, d, (const u8 *)s, n, flags, false);
}

#ifdef STR_SSE2
/* A clean string of 17 to 64 bytes (e-mail addresses, URLs, ids, dates as
 * text) by its 16-byte chunks, the last one overlapping, each copied as it
 * is tested: no call, no block bookkeeping. NULL when a byte needs the
 * general path, which writes over what was stored. The caller has checked
 * the room. */
TYJSON__FORCEINLINE char *medium_clean(char *d, const u8 *s, usize n, bool slash) {
    unsigned m = 0;
    for (usize i = 0; i + 16 < n; i += 16) m |= copy_attn16(d + 1 + i, s + i, slash);
    m |= copy_attn16(d + 1 + n - 16, s + n - 16, slash);
    if (m) return NULL;
    d[0] = '"';
    d[n + 1] = '"';
    return d + n + 2;
}
#endif

char *tyjson__str_write(tyjson__wbuf *wb, char *d, const char *s, usize n,
                        tyjson_write_flags flags) {
    bool slash = (flags & TYJSON_WRITE_ESCAPE_SLASH) != 0;
    if (n - 1 < 16 && (usize)(wb->end - d) >= n + 2 + TYJSON__STR_SLACK) {
        char *e = tyjson__str_write_short(d, s, n, slash);
        if (likely(e != NULL)) return e;
    }
#ifdef STR_SSE2
    else if (n - 17 < 48 && (usize)(wb->end - d) >= n + 2 + TYJSON__STR_SLACK) {
        char *e = medium_clean(d, (const u8 *)s, n, slash);
        if (likely(e != NULL)) return e;
    }
#endif
    return str_write_any(wb, d, s, n, flags);
}
