/*
 * lex.h - the byte level of the reading core, for the DOM parser and the
 * binding decoder: character classes (chartab.c), whitespace skipping (a
 * padded and a bounded form), the UTF-8 rules (validation, decoding,
 * encoding; the string writer uses them too), and string scanning,
 * skipping and unescaping (lex.c; the long scans in simd.c). Relaxed
 * syntax, literals and value skipping are in syntax.h.
 *
 * Functions take the real end of the data and never read at or past it,
 * except the ones named for padded input (tyjson__skip_ws_padded,
 * tyjson__str_scan_padded), which rely on the DOM parser's TYJSON__PAD zero
 * bytes after the end.
 */
#ifndef TYJSON_LEX_H
#define TYJSON_LEX_H

#include "base/internal.h"

#if defined(__SSE2__)
#  include <emmintrin.h>
#endif

/* Character classes (chartab.c). */
#define TYJSON__CC_WS 0x01      /* space, tab, LF, CR */
#define TYJSON__CC_DIGIT 0x02   /* 0-9 */
#define TYJSON__CC_HEX 0x04     /* 0-9 a-f A-F */
#define TYJSON__CC_STR_SPEC 0x08 /* needs attention inside a string: < 0x20, '"', '\\', >= 0x80 */
#define TYJSON__CC_END 0x10     /* may follow a number or literal: whitespace, {}[],: and '"' */
extern const u8 tyjson__cc[256];
/* Value of a hex digit, or 0xFF. */
extern const u8 tyjson__hexval[256];
/* The same at its place in a \uXXXX escape: [k][c] is c's value shifted
 * to hex digit k of four (k = 0 the most significant), or 0xFFFF0000 when c
 * is not a hex digit, so the OR of four entries is above 0xFFFF exactly when
 * one of them is no digit (tyjson__hex4u). */
extern const u32 tyjson__hex4_lane[4][256];

TYJSON__FORCEINLINE bool tyjson__is_ws(u8 c) { return (tyjson__cc[c] & TYJSON__CC_WS) != 0; }

/* Whether a number or literal read up to q ends there: q is the end of
 * the input or a byte that may follow a token (readers over the structural
 * index, where bytes after a token's start are in no entry, check this). */
TYJSON__FORCEINLINE bool tyjson__token_ends(const u8 *q, const u8 *end) {
    return q == end || (tyjson__cc[*q] & TYJSON__CC_END);
}

TYJSON__FORCEINLINE u64 tyjson__load64(const u8 *p) {
    u64 v;
    memcpy(&v, p, 8);
    return v;
}
TYJSON__FORCEINLINE u32 tyjson__load32(const u8 *p) {
    u32 v;
    memcpy(&v, p, 4);
    return v;
}

/* Trailing zero bits of a non-zero x. */
TYJSON__FORCEINLINE unsigned tyjson__ctz64(u64 x) {
#if defined(__GNUC__) || defined(__clang__)
    return (unsigned)__builtin_ctzll(x);
#else
    unsigned n = 0;
    while (!(x & 1)) { x >>= 1; n++; }
    return n;
#endif
}

/* Byte index (0-7) of the lowest set 0x80 bit of a SWAR mask on a
 * little-endian load; big-endian machines take the byte loop instead. */
TYJSON__FORCEINLINE unsigned tyjson__first_byte(u64 mask) { return tyjson__ctz64(mask) >> 3; }

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#  define TYJSON__SWAR 1
#elif defined(_M_X64) || defined(_M_IX86) || defined(_M_ARM64)
#  define TYJSON__SWAR 1
#else
#  define TYJSON__SWAR 0
#endif

#define TYJSON__ONES 0x0101010101010101ull
#define TYJSON__HIGHS 0x8080808080808080ull

/* High bit set in each byte of w that is '"', '\\', a control character
 * or non-ASCII. Exact for the lowest flagged byte (higher ones may be false
 * positives, which the callers never look at), and zero exactly when no
 * byte is special. No `& ~x` masks are needed for that: below the lowest
 * special byte every byte is ASCII, so no subtraction there sets a high bit
 * or borrows. */
TYJSON__FORCEINLINE u64 tyjson__str_special(u64 w) {
    u64 q = w ^ (TYJSON__ONES * '"');
    u64 b = w ^ (TYJSON__ONES * '\\');
    u64 t = (q - TYJSON__ONES) | (b - TYJSON__ONES) | (w - TYJSON__ONES * 0x20) | w;
    return t & TYJSON__HIGHS;
}

/* Skips whitespace; relies on a non-whitespace byte before or at the end
 * (the DOM parser's zero padding). Pretty input is newlines followed by
 * runs of spaces: one 8-byte load measures a run of up to 8 spaces. */
TYJSON__FORCEINLINE const u8 *tyjson__skip_ws_padded(const u8 *p) {
#if TYJSON__SWAR
    /* The usual shape: a newline and up to 23 spaces of indentation,
     * measured with three loads and selects instead of a loop whose trip
     * count (the nesting depth) the branch predictor keeps missing. */
    if (*p == '\n') {
        u64 a = tyjson__load64(p + 1) ^ (TYJSON__ONES * ' ');
        u64 b = tyjson__load64(p + 9) ^ (TYJSON__ONES * ' ');
        u64 c = tyjson__load64(p + 17) ^ (TYJSON__ONES * ' ');
        unsigned ta = a ? tyjson__ctz64(a) : 64;
        unsigned tb = b ? tyjson__ctz64(b) : 64;
        unsigned tc = c ? tyjson__ctz64(c) : 64;
        unsigned n = a ? ta : (b ? 64 + tb : 128 + tc);
        p += 1 + (n >> 3);
    }
#endif
    for (;;) {
#if TYJSON__SWAR
        u64 x = tyjson__load64(p) ^ (TYJSON__ONES * ' ');
        if (x == 0) {
            p += 8;
            continue;
        }
        p += tyjson__ctz64(x) >> 3;
#endif
        if (!tyjson__is_ws(*p)) return p;
        p++;
    }
}

/* Pretty-printed text puts a newline and its indentation (up to 15 spaces
 * here with 17 bytes readable, up to 31 with 33) before most keys and
 * values: with p at the newline, the first byte after them; otherwise p.
 * For unpadded input, where a caller wants the common layout settled before
 * the general skip. Deep indentation (16 to 31 spaces: six levels of four,
 * generated-config) takes up to two more loads, not the general skip's
 * loop of loads after two wasted ones. */
TYJSON__FORCEINLINE const u8 *tyjson__skip_indent(const u8 *p, const u8 *end) {
#if TYJSON__SWAR
    if (end - p >= 17 && *p == '\n') {
        u64 x = tyjson__load64(p + 1) ^ (TYJSON__ONES * ' ');
        if (likely(x != 0)) return p + 1 + (tyjson__ctz64(x) >> 3);
        x = tyjson__load64(p + 9) ^ (TYJSON__ONES * ' ');
        if (x != 0) return p + 9 + (tyjson__ctz64(x) >> 3);
        if (end - p >= 33) {
            x = tyjson__load64(p + 17) ^ (TYJSON__ONES * ' ');
            if (x != 0) return p + 17 + (tyjson__ctz64(x) >> 3);
            x = tyjson__load64(p + 25) ^ (TYJSON__ONES * ' ');
            if (x != 0) return p + 25 + (tyjson__ctz64(x) >> 3);
        }
    }
#else
    (void)end;
#endif
    return p;
}

/* Bounded whitespace skip, for input without padding (binding decoder,
 * pull reader): the same 8-byte space runs while 8 bytes remain, then bytes. */
TYJSON__FORCEINLINE const u8 *tyjson__skip_ws(const u8 *p, const u8 *end) {
#if TYJSON__SWAR
    while (end - p >= 8) {
        u64 x = tyjson__load64(p) ^ (TYJSON__ONES * ' ');
        /* a newline followed by indentation counts as one more space */
        if ((x & 0xFF) == ('\n' ^ ' ')) x &= ~(u64)0xFF;
        if (x == 0) {
            p += 8;
            continue;
        }
        p += tyjson__ctz64(x) >> 3;
        if (!tyjson__is_ws(*p)) return p;
        p++;
    }
#endif
    while (p < end && tyjson__is_ws(*p)) p++;
    return p;
}

/* ----------------------------------------------------------------------------
 * UTF-8: the one rule set of the library (the readers validate with it, the
 * string writer validates and replaces with it). Valid is RFC 3629: no stray
 * continuation, no overlong form, no surrogate, nothing above U+10FFFF.
 * ------------------------------------------------------------------------- */

/* Length (2-4) of the valid multi-byte sequence at s (s < end, *s >= 0x80)
 * and its code point in *cp; 0 if invalid or cut by end. The common 2- and
 * 3-byte forms take no loop. */
TYJSON__FORCEINLINE usize tyjson__utf8_decode(const u8 *s, const u8 *end, u32 *cp) {
    u32 c = s[0];
    usize avail = (usize)(end - s);
    if (c >= 0xE0 && c < 0xF0) {
        if (avail < 3) return 0;
        u32 b1 = s[1], b2 = s[2];
        u32 v = ((c & 0x0F) << 12) | ((b1 & 0x3F) << 6) | (b2 & 0x3F);
        /* continuation bytes, not overlong, not a surrogate */
        if ((b1 & 0xC0) != 0x80 || (b2 & 0xC0) != 0x80 || v < 0x800 || (v & 0xF800) == 0xD800)
            return 0;
        *cp = v;
        return 3;
    }
    if (c >= 0xC2 && c < 0xE0) {
        if (avail < 2 || (s[1] & 0xC0) != 0x80) return 0;
        *cp = ((c & 0x1F) << 6) | (u32)(s[1] & 0x3F);
        return 2;
    }
    if (c >= 0xF0 && c < 0xF5) {
        if (avail < 4) return 0;
        u32 b1 = s[1], b2 = s[2], b3 = s[3];
        if ((b1 & 0xC0) != 0x80 || (b2 & 0xC0) != 0x80 || (b3 & 0xC0) != 0x80) return 0;
        u32 v = ((c & 0x07) << 18) | ((b1 & 0x3F) << 12) | ((b2 & 0x3F) << 6) | (b3 & 0x3F);
        if (v < 0x10000 || v > 0x10FFFF) return 0;
        *cp = v;
        return 4;
    }
    return 0;
}

/* Length (2-4) of the valid sequence at p, or 0: tyjson__utf8_decode
 * without the code point. */
TYJSON__FORCEINLINE usize tyjson__utf8_seq_slow(const u8 *p, const u8 *end) {
    u32 cp;
    return tyjson__utf8_decode(p, end, &cp);
}

/* Length (1-3) of the maximal invalid subpart at an invalid sequence s (s <
 * end): the longest prefix of a valid sequence that is there, at least 1
 * (what one U+FFFD replaces, as Unicode recommends). */
static inline usize tyjson__utf8_bad_len(const u8 *s, const u8 *end) {
    u8 c = s[0], lo = 0x80, hi = 0xBF;
    usize len;
    if (c < 0xC2 || c >= 0xF5) return 1;
    if (c < 0xE0) {
        len = 2;
    } else if (c < 0xF0) {
        len = 3;
        if (c == 0xE0) lo = 0xA0;      /* overlong */
        else if (c == 0xED) hi = 0x9F; /* surrogates */
    } else {
        len = 4;
        if (c == 0xF0) lo = 0x90;      /* overlong */
        else if (c == 0xF4) hi = 0x8F; /* above U+10FFFF */
    }
    usize avail = (usize)(end - s), i = 1;
    if (avail < 2 || s[1] < lo || s[1] > hi) return 1;
    for (i = 2; i < len && i < avail && (s[i] & 0xC0) == 0x80; i++) {
    }
    return i;
}

/* tyjson__utf8_seq_slow's contract. With 4 bytes available, one little-endian load decides
 * each form with a mask and a compare instead of a branch per byte; the
 * 3-byte form is tested first because CJK text is made of it. */
TYJSON__FORCEINLINE usize tyjson__utf8_seq(const u8 *p, const u8 *end) {
#if TYJSON__SWAR
    if (likely(end - p >= 4)) {
        u32 w = tyjson__load32(p);
        if ((w & 0x00C0C0F0u) == 0x008080E0u) {
            /* lead E0 needs cont >= A0 (not overlong); ED needs cont < A0
             * (not a surrogate): bits 0x0F of the lead, 0x20 of the cont. */
            u32 t = w & 0x0000200Fu;
            return (t != 0 && t != 0x0000200Du) ? 3 : 0;
        }
        if ((w & 0x0000C0E0u) == 0x000080C0u) return (w & 0x1Eu) ? 2 : 0;
        if ((w & 0xC0C0C0F8u) == 0x808080F0u) {
            u32 lead = w & 0x7u, hi = w & 0x3000u; /* lead bits, cont1 bits 0x30 */
            if (lead == 0) return hi ? 4 : 0;       /* F0: >= U+10000 */
            if (lead < 4) return 4;
            return (lead == 4 && hi == 0) ? 4 : 0;  /* F4: <= U+10FFFF */
        }
        return 0;
    }
#endif
    return tyjson__utf8_seq_slow(p, end);
}

/* Encodes code point cp (<= 0x10FFFF; surrogates allowed, giving WTF-8) at
 * dst; returns the new end. */
TYJSON__FORCEINLINE u8 *tyjson__utf8_put(u8 *dst, u32 cp) {
    if (cp < 0x80) {
        *dst++ = (u8)cp;
    } else if (cp < 0x800) {
        *dst++ = (u8)(0xC0 | (cp >> 6));
        *dst++ = (u8)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        *dst++ = (u8)(0xE0 | (cp >> 12));
        *dst++ = (u8)(0x80 | ((cp >> 6) & 0x3F));
        *dst++ = (u8)(0x80 | (cp & 0x3F));
    } else {
        *dst++ = (u8)(0xF0 | (cp >> 18));
        *dst++ = (u8)(0x80 | ((cp >> 12) & 0x3F));
        *dst++ = (u8)(0x80 | ((cp >> 6) & 0x3F));
        *dst++ = (u8)(0x80 | (cp & 0x3F));
    }
    return dst;
}

/* ----------------------------------------------------------------------------
 * Strings
 * ------------------------------------------------------------------------- */

/* Outcome of scanning a string body. */
typedef struct tyjson__str_scan {
    const u8 *stop;   /* the closing quote, the first backslash, or the error byte */
    tyjson_status err;
} tyjson__str_scan;

/**
 * Scans a string body from p (just after the opening quote) up to the
 * closing quote or the first backslash, validating UTF-8 (unless
 * allow_invalid). On success err = TYJSON_OK and *stop is '"' or '\\'.
 * On failure err is E_TRUNCATED (stop = end), E_STRING_CTRL or E_UTF8
 * (stop = the bad byte).
 */
TYJSON__FORCEINLINE tyjson__str_scan tyjson__str_scan_in(const u8 *p, const u8 *end,
                                                        bool allow_invalid, bool padded) {
    /* The rest of a long or non-ASCII string goes to the kernel chosen for
     * this CPU (simd.c); declared here so that lex.h needs no simd.h. */
    tyjson__str_scan tyjson__str_scan_long(const u8 *, const u8 *, bool);
#if TYJSON__SWAR
    /* Most keys and many values are short ASCII: two SWAR steps inline
     * settle them without a call. Padded input (zero bytes after end, which
     * stop the steps) needs no room test: the end of a document too. */
    if (padded || likely(end - p >= 16)) {
        u64 m = tyjson__str_special(tyjson__load64(p));
        if (!m) {
            p += 8;
            m = tyjson__str_special(tyjson__load64(p));
            if (!m) return tyjson__str_scan_long(p + 8, end, allow_invalid);
        }
        p += tyjson__first_byte(m);
        if (likely(*p == '"' || *p == '\\')) {
            tyjson__str_scan r;
            r.stop = p;
            r.err = TYJSON_OK;
            return r;
        }
    }
#endif
    return tyjson__str_scan_long(p, end, allow_invalid);
}

TYJSON__FORCEINLINE tyjson__str_scan tyjson__str_scan_plain(const u8 *p, const u8 *end,
                                                           bool allow_invalid) {
    return tyjson__str_scan_in(p, end, allow_invalid, false);
}

/* The same, for input followed by at least 16 zero bytes (the DOM's copy). */
TYJSON__FORCEINLINE tyjson__str_scan tyjson__str_scan_padded(const u8 *p, const u8 *end,
                                                            bool allow_invalid) {
    return tyjson__str_scan_in(p, end, allow_invalid, true);
}

/* The closing quote of a string body at p when it comes within its first
 * 16 bytes, before any byte that needs attention (a backslash, a control
 * byte, non-ASCII); NULL otherwise, and when fewer than 16 bytes remain.
 * For a caller's common short key or value, settled without a call: with
 * SSE2 (the x86-64 baseline, so no dispatch) it takes no general-purpose
 * register beyond p and the result, so a caller's hot step need not save
 * any (the SWAR form keeps four 64-bit constants live). */
TYJSON__FORCEINLINE const u8 *tyjson__str_quote16(const u8 *p, const u8 *end) {
    if (end - p < 16) return NULL;
#if defined(__SSE2__)
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
    /* the signed compare with 0x20 catches control bytes and bytes >= 0x80 */
    __m128i m = _mm_or_si128(_mm_cmplt_epi8(x, _mm_set1_epi8(0x20)),
                             _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')),
                                          _mm_cmpeq_epi8(x, _mm_set1_epi8('\\'))));
    unsigned k = (unsigned)_mm_movemask_epi8(m);
    if (!k) return NULL;
    p += tyjson__ctz64(k);
    return *p == '"' ? p : NULL;
#elif TYJSON__SWAR
    u64 m = tyjson__str_special(tyjson__load64(p));
    if (!m) {
        p += 8;
        m = tyjson__str_special(tyjson__load64(p));
        if (!m) return NULL;
    }
    p += tyjson__first_byte(m);
    return *p == '"' ? p : NULL;
#else
    return NULL;
#endif
}

/* The value of the 4 hex digits at p (p + 4 <= end checked by the caller),
 * or a value above 0xFFFF when one of them is not a hex digit: four table
 * loads and three ORs, the check and the shifts folded into the tables. */
TYJSON__FORCEINLINE u32 tyjson__hex4u(const u8 *p) {
    return tyjson__hex4_lane[0][p[0]] | tyjson__hex4_lane[1][p[1]] |
           tyjson__hex4_lane[2][p[2]] | tyjson__hex4_lane[3][p[3]];
}

/* Reads 4 hex digits at p (p + 4 <= end checked by caller); returns the
 * value or -1. */
TYJSON__FORCEINLINE int32_t tyjson__hex4(const u8 *p) {
    u32 v = tyjson__hex4u(p);
    return v > 0xFFFF ? -1 : (int32_t)v;
}

/* Whether v from tyjson__hex4u is a whole code point by itself: 4 hex
 * digits and no surrogate (below 0xD800 or in [0xE000, 0xFFFF]; a value
 * that is no hex wraps below 0xE000 or stays above 0xFFFF). */
TYJSON__FORCEINLINE bool tyjson__hex4_bmp(u32 v) { return v < 0xD800 || v - 0xE000 < 0x2000; }

/* A code point below 0x10000 as UTF-8 at dst, stored as one 4-byte word
 * whatever its length (the bytes after it are scratch: dst must be writable
 * 4 bytes on, as tyjson__str_unescape's destination is); returns the end. */
TYJSON__FORCEINLINE u8 *tyjson__utf8_put_bmp(u8 *dst, u32 cp) {
#if !TYJSON__SWAR /* the word's first byte lowest: little-endian only */
    return tyjson__utf8_put(dst, cp);
#else
    u32 w;
    usize n;
    if (cp < 0x80) {
        w = cp;
        n = 1;
    } else if (cp < 0x800) {
        w = 0x80C0 | (cp >> 6) | (cp & 0x3F) << 8;
        n = 2;
    } else {
        w = 0x8080E0 | (cp >> 12) | (cp >> 6 & 0x3F) << 8 | (cp & 0x3F) << 16;
        n = 3;
    }
    memcpy(dst, &w, 4);
    return dst + n;
#endif
}

typedef struct tyjson__str_unesc {
    const u8 *src;    /* after the closing quote on success; the error byte otherwise */
    u8 *dst;          /* end of the decoded bytes */
    tyjson_status err;
} tyjson__str_unesc;

/**
 * Decodes a string body starting at src (a backslash or any byte of the
 * body) into dst, up to and including the closing quote. dst may equal
 * src (in-place decoding: escapes only shrink), otherwise dst must have
 * room for (end - src) bytes. Both src and dst must be readable and dst
 * writable 8 bytes beyond the decoded length (8-byte loads and stores):
 * the DOM parser's padding gives that, other callers add slack. Validates UTF-8 unless allow_invalid; lone
 * surrogate escapes are an error unless allow_invalid (then WTF-8).
 */
tyjson__str_unesc tyjson__str_unescape(const u8 *src, const u8 *end, u8 *dst,
                                       bool allow_invalid);

/**
 * Checks a string body from p (just after the opening quote) as
 * tyjson__str_unescape would decode it, writing nothing. On success err =
 * TYJSON_OK and stop is the byte after the closing quote; on failure the
 * error and its byte as tyjson__str_unescape reports them.
 */
tyjson__str_scan tyjson__str_skip(const u8 *p, const u8 *end, bool allow_invalid);

/** One escape at src (a backslash), strict, decoded at *dst (advanced past
 *  what it wrote): the bytes it takes (2, 6 or 12 for a surrogate pair), or
 *  0 with *err set. For readers that know where each escape starts (the
 *  structural index lists them) and copy the bytes between themselves. */
usize tyjson__str_escape(const u8 *src, const u8 *end, u8 **dst, tyjson_status *err);
/** The same with allow_invalid as tyjson__str_unescape takes it (lone
 *  surrogate escapes then decode to WTF-8): for readers that decode a string
 *  escape by escape as its bytes arrive (the pull reader). */
usize tyjson__str_escape_any(const u8 *src, const u8 *end, u8 **dst, bool allow_invalid,
                             tyjson_status *err);

#endif /* TYJSON_LEX_H */
