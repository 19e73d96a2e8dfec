/*
 * utf8_tables.h - the one table set of the vector UTF-8 check, shared by
 * every kernel that checks UTF-8 a vector at a time (simd.c's string
 * scanners, index_x86.c, index_avx2.c, index_neon.c), each laying the rows
 * out as its instruction set wants.
 *
 * The method (Keiser and Lemire, "Validating UTF-8 in less than one
 * instruction per byte", 2021): almost every rule of UTF-8 is about a pair
 * of adjacent bytes, so three 16-entry tables, indexed by the previous
 * byte's high and low nibbles and the current byte's high nibble, each
 * give the set of error classes (one bit each) that its nibble allows; a
 * class whose three entries all contain it is present. The rule pairs
 * cannot see (a third or fourth byte must continue a 3- or 4-byte lead,
 * and nothing else may) is settled by comparing the bytes two and three
 * back against E0 and F0 (saturating subtractions of 0x60 and 0x70 leave
 * bit 7 set exactly there), which must match TYJSON__U8E_CONT2.
 *
 * The whitespace and structural-character rows by low nibble sit here too:
 * a byte is in the class when it equals its entry (structural: after OR
 * 0x20, which folds '[' ']' onto '{' '}'; the two control characters that
 * fold onto ',' and ':' are removed with the control mask); the 0xFF
 * entries match nothing a lookup returns for them.
 */
#ifndef TYJSON_UTF8_TABLES_H
#define TYJSON_UTF8_TABLES_H

/* Error classes of a pair (previous byte, current byte). */
#define TYJSON__U8E_SHORT 0x01 /* a lead not followed by a continuation */
#define TYJSON__U8E_LONG 0x02  /* a continuation after ASCII */
#define TYJSON__U8E_OVER2 0x04 /* C0, C1 + continuation: overlong 2-byte form */
#define TYJSON__U8E_OVER3 0x08 /* E0 + 80..9F: overlong 3-byte form */
#define TYJSON__U8E_SURR 0x10  /* ED + A0..BF: surrogate */
#define TYJSON__U8E_BIG 0x20   /* F4..FF + 90..BF: above U+10FFFF or no such lead */
#define TYJSON__U8E_F_8X 0x40  /* F0 + 80..8F (overlong) or F5..FF + 80..8F */
#define TYJSON__U8E_CONT2 0x80 /* a continuation after a continuation: legal only as
                                * the 3rd/4th byte of a 3/4-byte sequence */

#define TYJSON__U8_ANY_LO (TYJSON__U8E_SHORT | TYJSON__U8E_LONG | TYJSON__U8E_CONT2)
#define TYJSON__U8_F_HIGH (TYJSON__U8_ANY_LO | TYJSON__U8E_BIG | TYJSON__U8E_F_8X)
#define TYJSON__U8_ANY_CONT (TYJSON__U8E_LONG | TYJSON__U8E_OVER2 | TYJSON__U8E_CONT2)

/* Classes allowed by the previous byte's high nibble. */
#define TYJSON__UTF8_PREV_HI                                                   \
    TYJSON__U8E_LONG, TYJSON__U8E_LONG, TYJSON__U8E_LONG, TYJSON__U8E_LONG,    \
        TYJSON__U8E_LONG, TYJSON__U8E_LONG, TYJSON__U8E_LONG,                  \
        TYJSON__U8E_LONG,                                      /* ASCII */     \
        TYJSON__U8E_CONT2, TYJSON__U8E_CONT2, TYJSON__U8E_CONT2,               \
        TYJSON__U8E_CONT2,                                     /* 80..BF */    \
        TYJSON__U8E_SHORT | TYJSON__U8E_OVER2,                 /* C0..CF */    \
        TYJSON__U8E_SHORT,                                     /* D0..DF */    \
        TYJSON__U8E_SHORT | TYJSON__U8E_OVER3 | TYJSON__U8E_SURR, /* E0..EF */ \
        TYJSON__U8E_SHORT | TYJSON__U8E_BIG | TYJSON__U8E_F_8X /* F0..FF */

/* Classes allowed by the previous byte's low nibble. */
#define TYJSON__UTF8_PREV_LO                                                   \
    TYJSON__U8_ANY_LO | TYJSON__U8E_OVER2 | TYJSON__U8E_OVER3 |                \
        TYJSON__U8E_F_8X,                          /* C0, E0, F0 */            \
        TYJSON__U8_ANY_LO | TYJSON__U8E_OVER2,     /* C1 */                    \
        TYJSON__U8_ANY_LO, TYJSON__U8_ANY_LO,                                  \
        TYJSON__U8_ANY_LO | TYJSON__U8E_BIG,       /* F4 */                    \
        TYJSON__U8_F_HIGH, TYJSON__U8_F_HIGH, TYJSON__U8_F_HIGH,               \
        TYJSON__U8_F_HIGH, TYJSON__U8_F_HIGH, TYJSON__U8_F_HIGH,               \
        TYJSON__U8_F_HIGH, TYJSON__U8_F_HIGH,                                  \
        TYJSON__U8_F_HIGH | TYJSON__U8E_SURR,      /* ED */                    \
        TYJSON__U8_F_HIGH, TYJSON__U8_F_HIGH

/* Classes allowed by the current byte's high nibble. */
#define TYJSON__UTF8_CUR_HI                                                    \
    TYJSON__U8E_SHORT, TYJSON__U8E_SHORT, TYJSON__U8E_SHORT,                   \
        TYJSON__U8E_SHORT, TYJSON__U8E_SHORT, TYJSON__U8E_SHORT,               \
        TYJSON__U8E_SHORT, TYJSON__U8E_SHORT,                                  \
        TYJSON__U8_ANY_CONT | TYJSON__U8E_OVER3 | TYJSON__U8E_F_8X, /* 80..8F */ \
        TYJSON__U8_ANY_CONT | TYJSON__U8E_OVER3 | TYJSON__U8E_BIG,  /* 90..9F */ \
        TYJSON__U8_ANY_CONT | TYJSON__U8E_SURR | TYJSON__U8E_BIG,   /* A0..AF */ \
        TYJSON__U8_ANY_CONT | TYJSON__U8E_SURR | TYJSON__U8E_BIG,   /* B0..BF */ \
        TYJSON__U8E_SHORT, TYJSON__U8E_SHORT, TYJSON__U8E_SHORT, TYJSON__U8E_SHORT

/* Whitespace and structural characters by low nibble. */
#define TYJSON__CLASS_WS                                                       \
    ' ', 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, '\t', '\n', 0xFF, 0xFF, '\r', 0xFF, 0xFF
#define TYJSON__CLASS_OP                                                       \
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, ':', '{', ',', '}', 0xFF, 0xFF

#endif /* TYJSON_UTF8_TABLES_H */
