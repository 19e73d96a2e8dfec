/*
 * str_write.h - JSON string literals for every writer (str_write.c).
 *
 * Escaping is minimal by default: \" \\ \b \f \n \r \t, other control
 * characters as \u00XX with lowercase hex (\u001f), everything else as is.
 * TYJSON_WRITE_ESCAPE_UNICODE writes each non-ASCII code point as \uXXXX
 * (lowercase hex, a surrogate pair above U+FFFF: U+1F600 -> \ud83d\ude00);
 * TYJSON_WRITE_ESCAPE_SLASH writes '/' as \/. UTF-8 is validated strictly
 * (no overlongs, no surrogates, nothing above U+10FFFF): invalid bytes fail
 * with TYJSON_E_UTF8, or with TYJSON_WRITE_REPLACE_INVALID_UTF8 each maximal
 * invalid subpart becomes one U+FFFD (the Unicode "best practice").
 */
#ifndef TYJSON_STR_WRITE_H
#define TYJSON_STR_WRITE_H

#include "write/wbuf.h"

/** Room left after the cursor that tyjson__str_write returns, so that a
 *  caller may append a separator (':', ',') without a check. */
#define TYJSON__STR_SLACK 16u

/**
 * Writes `"..."` for the n bytes at s, starting at the cursor d of wb (the
 * caller's local copy of wb->cur; it need not have any room). Returns the
 * new cursor, with at least TYJSON__STR_SLACK bytes of room before wb->end;
 * the caller must reload its copy of wb->end. On invalid UTF-8 (without
 * REPLACE_INVALID_UTF8) records TYJSON_E_UTF8 in wb and returns NULL.
 */
char *tyjson__str_write(tyjson__wbuf *wb, char *d, const char *s, usize n,
                        tyjson_write_flags flags);

/** True if strings whose tag has TYJSON__NOESC_BIT can be copied verbatim
 *  under these flags (the parser validated them and found nothing to escape,
 *  but it knows nothing of '/' or non-ASCII escaping). */
TYJSON__FORCEINLINE bool tyjson__str_noesc_ok(tyjson_write_flags flags) {
    return (flags & (TYJSON_WRITE_ESCAPE_UNICODE | TYJSON_WRITE_ESCAPE_SLASH)) == 0;
}

/* ----------------------------------------------------------------------------
 * Short clean strings, inline for the writers' hot loops (the encoder's
 * members, the DOM writer's keys).
 *
 * SWAR: a mask whose lowest set bit (per byte, 0x80) marks the first byte
 * that needs attention: < 0x20, '"', '\\', >= 0x80 (UTF-8 to check) and,
 * with ESCAPE_SLASH, '/'. Each term sets a byte's high bit for its own
 * condition or after a borrow from a lower flagged byte, so the lowest
 * flagged byte is always exact; `| x` flags non-ASCII bytes.
 * ------------------------------------------------------------------------- */
#define TYJSON__STR_ONES 0x0101010101010101ull

TYJSON__FORCEINLINE u64 tyjson__str_attn64(u64 x, bool slash) {
    const u64 ones = TYJSON__STR_ONES;
    u64 m = (x - ones * 0x20) | ((x ^ (ones * '"')) - ones) | ((x ^ (ones * '\\')) - ones) | x;
    if (slash) m |= (x ^ (ones * '/')) - ones;
    return m & (ones * 0x80);
}

/* The same test on 4 bytes: zero exactly when none needs attention. */
TYJSON__FORCEINLINE u32 tyjson__str_attn32(u32 x, bool slash) {
    const u32 ones = 0x01010101u;
    u32 m = (x - ones * 0x20) | ((x ^ (ones * '"')) - ones) | ((x ^ (ones * '\\')) - ones) | x;
    if (slash) m |= (x ^ (ones * '/')) - ones;
    return m & 0x80808080u;
}

/* Copies n (4 to 7) bytes from s to d by two overlapping 4-byte loads and
 * stores when none needs attention; false, having written nothing, else. */
TYJSON__FORCEINLINE bool tyjson__str_copy_clean_4to7(char *d, const u8 *s, usize n, bool slash) {
    u32 a, b;
    memcpy(&a, s, 4);
    memcpy(&b, s + n - 4, 4);
    /* one 8-byte test of both words: a borrow only ever starts at a
     * flagged byte, so the mask is zero exactly when no byte is flagged */
    if (tyjson__str_attn64((u64)a | (u64)b << 32, slash)) return false;
    memcpy(d, &a, 4);
    memcpy(d + n - 4, &b, 4);
    return true;
}

/** `"..."` for a clean string of 1 to 16 bytes (most keys and short
 *  values) by two overlapping loads and stores at d, which has at least
 *  n + 2 + TYJSON__STR_SLACK bytes of room; returns the new cursor, or NULL
 *  (having written nothing of use) when some byte needs the general path,
 *  tyjson__str_write. */
TYJSON__FORCEINLINE char *tyjson__str_write_short(char *d, const char *s, usize n, bool slash) {
    if (n < 4) { /* 1 to 3 bytes: first, middle and last cover them all */
        u8 c0 = (u8)s[0], c1 = (u8)s[n / 2], c2 = (u8)s[n - 1];
        u32 a = (u32)c0 | (u32)c1 << 8 | (u32)c2 << 16 | (u32)'a' << 24;
        if (tyjson__str_attn32(a, slash)) return NULL;
        d[0] = '"';
        d[1] = (char)c0;
        d[1 + n / 2] = (char)c1;
        d[n] = (char)c2;
    } else if (n >= 8) {
        u64 a, b;
        memcpy(&a, s, 8);
        memcpy(&b, s + n - 8, 8);
        if (tyjson__str_attn64(a, slash) | tyjson__str_attn64(b, slash)) return NULL;
        d[0] = '"';
        memcpy(d + 1, &a, 8);
        memcpy(d + 1 + n - 8, &b, 8);
    } else {
        if (!tyjson__str_copy_clean_4to7(d + 1, (const u8 *)s, n, slash)) return NULL;
        d[0] = '"';
    }
    d[n + 1] = '"';
    return d + n + 2;
}

#endif /* TYJSON_STR_WRITE_H */
