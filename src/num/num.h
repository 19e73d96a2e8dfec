/*
 * num.h - the number core shared by every reader (DOM parser, binding
 * decoder) and every writer (DOM writer, binding encoder). Exact
 * integers, correctly rounded doubles without strtod or the
 * locale, shortest round-trip doubles and floats.
 */
#ifndef TYJSON_NUM_H
#define TYJSON_NUM_H

#include "base/internal.h"
#include "tyjson/num_int.h"

/* ----------------------------------------------------------------------------
 * Reading
 * ------------------------------------------------------------------------- */
/* tyjson__num, the value read, and its kinds: in <tyjson/num_int.h>, for
 * the pull reader's inline getters. */

/**
 * Reads one JSON number (RFC 8259 grammar) starting at p, where *p is '-' or
 * a digit. Never reads at or beyond `end`.
 *
 * flags: TYJSON_READ_NUMBER_AS_RAW keeps every number as RAW (the grammar
 * checked, nothing converted: tyjson__num_read_text);
 * TYJSON_READ_BIGNUM_AS_RAW keeps out-of-range numbers as RAW;
 * without it an integer outside [INT64_MIN, UINT64_MAX] is an error
 * (TYJSON_E_NUMBER_RANGE), as does a real whose magnitude overflows double
 * (for example 1e400). Reals that underflow become 0.0 or -0.0 (not an
 * error). "-0" is the REAL -0.0 so that its sign survives; "0" is UINT 0.
 *
 * Returns the position just after the number. On a grammar error (a lone
 * '-', a leading zero followed by digits, '1.', '1e', ...) returns NULL with
 * *err = TYJSON_E_NUMBER and *err_pos at the offending byte; on range errors
 * *err = TYJSON_E_NUMBER_RANGE and *err_pos = p.
 * What follows the number is not checked: the caller decides whether it may
 * end a value.
 */
const u8 *tyjson__num_read(const u8 *p, const u8 *end, u32 flags,
                           tyjson__num *out, tyjson_status *err,
                           const u8 **err_pos);

/**
 * Reads a number with the JSON5 forms that flags allow
 * (TYJSON_READ_ALLOW_HEX_NUMBERS, _PLUS_SIGN, _BARE_DECIMAL_POINT, and
 * NaN/Infinity with a sign under _INF_NAN): p at a sign, a digit, '.', 'I'
 * or 'N'. A number that is plain JSON reads exactly as tyjson__num_read
 * reads it (the same values, errors and error bytes; with
 * TYJSON_READ_NUMBER_AS_RAW kept as text, kind RAW); the JSON5 forms are
 * never kept raw (their text is not JSON): an overflow is
 * TYJSON_E_NUMBER_RANGE at p. Hexadecimal numbers are integers (UINT, SINT,
 * -0x0 the REAL -0.0) up to 64 bits.
 */
const u8 *tyjson__num_read_json5(const u8 *p, const u8 *end, u32 flags, tyjson__num *out,
                                 tyjson_status *err, const u8 **err_pos);

/**
 * The float nearest to the number whose text starts at p (a valid JSON
 * number, already read, ending before end), given v, that number correctly
 * rounded to double. (float)v alone rounds twice: when v lands exactly on
 * the midpoint between two floats, the text decides which one it is.
 * v must be finite and within the float range (|v| <= 0x1.fffffep+127 or
 * the midpoint just above it, which the caller checks with
 * tyjson__num_cmp_abs).
 */
float tyjson__num_f32(double v, const u8 *p, const u8 *end);
/** The sign of |x| - |v| for the number x whose text starts at p (as
 *  above), exactly; v finite and nonzero. */
int tyjson__num_cmp_abs(const u8 *p, const u8 *end, double v);

/* ----------------------------------------------------------------------------
 * Writing. Each writer appends at dst (which has room for at least
 * TYJSON__NUM_MAX_CHARS bytes), adds no NUL terminator and returns the new
 * end. The bytes from the returned end up to dst + TYJSON__NUM_MAX_CHARS are
 * scratch: the writers store whole 8-byte words and may leave any bytes
 * there, so a caller writes on from the returned end.
 * ------------------------------------------------------------------------- */
#define TYJSON__NUM_MAX_CHARS 40

char *tyjson__u64_write(u64 v, char *dst);
char *tyjson__i64_write(i64 v, char *dst);
/**
 * Shortest decimal that reads back to exactly v, always with a '.' or an
 * exponent so that it reads back as a real: 50.0 -> "50.0", 0.1 -> "0.1",
 * -0.0 -> "-0.0", 1e300 -> "1e300", 1.5e-7 -> "1.5e-7",
 * 1234567890123456800000.0 -> "1.2345678901234568e21" (plain notation for
 * decimal exponents in [-6, 21), like ECMAScript; no '+' in exponents).
 * v must be finite.
 */
char *tyjson__f64_write(double v, char *dst);
/** Same rules for a float: the shortest text that reads back (as a float,
 *  after rounding the decimal to float) to exactly v: 3.67f -> "3.67". */
char *tyjson__f32_write(float v, char *dst);
/** NaN, Infinity or -Infinity for a v that is not finite (the words the
 *  relaxed readers accept); at most 9 bytes, no NUL. */
char *tyjson__inf_nan_write(double v, char *dst);
/** Most digits after the point tyjson__f64_write_fixed writes. */
#define TYJSON__FIXED_PREC_MAX 15
/**
 * v (finite) in plain notation with exactly prec (1 to
 * TYJSON__FIXED_PREC_MAX) digits after the point: the shortest round-trip
 * decimal of v rounded half away from zero (2.675 -> "2.68" at 2, 1.0 ->
 * "1.000" at 3); the sign is kept (-0.0 -> "-0.0" at 1). For |v| >= 1e21
 * the shortest form (tyjson__f64_write), as ECMAScript's toFixed.
 */
char *tyjson__f64_write_fixed(double v, int prec, char *dst);
/** The write flags that change how a finite real is written. */
#define TYJSON__WRITE_FP_OPTS (TYJSON_WRITE_FP_FIXED_MASK | TYJSON_WRITE_FP_TO_FLOAT)
/**
 * A real (a float passes as its exact double) under the number options of
 * the write flags, the one rule of every writer: TYJSON_WRITE_FP_FIXED(n),
 * else TYJSON_WRITE_FP_TO_FLOAT, else the shortest form; NaN and the
 * infinities (also a double that FP_TO_FLOAT rounds to one) as "null" with
 * TYJSON_WRITE_INF_NAN_AS_NULL, else as their words with
 * TYJSON_WRITE_ALLOW_INF_NAN, else NULL (the caller's TYJSON_E_NAN_INF).
 * At most TYJSON__NUM_MAX_CHARS bytes, no NUL.
 */
char *tyjson__real_write_flags(double v, u32 flags, char *dst);

/* ----------------------------------------------------------------------------
 * Exact decimals (num_decimal.c): a number as coefficient and scale, its
 * value coef * 10^-scale, never through a double.
 * ------------------------------------------------------------------------- */
/** Scales up to this are written in plain notation (0.005), larger ones and
 *  negative ones with an exponent (5e-40, 15e2). */
#define TYJSON__DECIMAL_FIXED_MAX 24
/** Longest text tyjson__decimal_write writes: a sign, 20 digits and a point
 *  or a sign, 19 digits, "e-" and 10 exponent digits, or the plain form's
 *  sign, "0.", 24 digits. */
#define TYJSON__DECIMAL_MAX_CHARS 40

/**
 * Reads the JSON number at p (as tyjson__num_read: the same grammar, the same
 * errors at the same bytes) as *coef and *scale: every digit into the
 * coefficient, the scale the count of fraction digits less the exponent
 * (19.90 is 1990 and 2, 1.5e3 is 15 and -2, -0.0 is 0 and 1). A coefficient
 * beyond int64 or a scale beyond +-1e9 is TYJSON_E_NUMBER_RANGE at p.
 */
const u8 *tyjson__decimal_read(const u8 *p, const u8 *end, i64 *coef, int32_t *scale,
                               tyjson_status *err, const u8 **err_pos);
/** Writes coef and scale as a JSON number that tyjson__decimal_read reads
 *  back to exactly them (at most TYJSON__DECIMAL_MAX_CHARS bytes, no NUL). */
char *tyjson__decimal_write(i64 coef, int32_t scale, char *dst);

/* The reader's common case as an inline function, tyjson__num_read_inline,
 * for hot callers (the DOM parser). */
#include "num/num_inline.h"

#endif /* TYJSON_NUM_H */
