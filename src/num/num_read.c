/*
 * num_read.c - JSON number text to uint64, int64 or a correctly rounded
 * double, without strtod (which is locale dependent and slow).
 *
 * Reals take the first of three paths that can decide them:
 *   1. Clinger's fast path: a significand below 2^53 and a power of ten up to
 *      10^22 are both exact doubles, so one IEEE multiply or divide rounds
 *      correctly. Most short numbers stop here.
 *   2. An Eisel-Lemire style scaling: multiply the normalized significand by
 *      a 128-bit truncation of 5^q (num_tables.c) and round from the top 55
 *      bits, unless the bits below leave the rounding in doubt (about one
 *      input in a thousand needs the second 64-bit limb of 5^q, and only
 *      exact ties with q < 0 and one in ~2^64 others stay undecided).
 *   3. A big-integer comparison of the decimal against the halfway point
 *      between two neighbouring doubles. Only undecided cases and long
 *      significands whose truncation cannot be settled come here.
 */
#include "num/num.h"

#include <math.h>

#define EL_FAIL (~(u64)0)           /* no double has these bits as a result */
#define INF_BITS ((u64)0x7FF << 52) /* any result >= this overflowed */
#define SIG_DIGITS 19               /* decimal digits that always fit a u64 */
/* Explicit exponents saturate here: far past any double, and small enough
 * that adding a digit count (< 2^62) cannot overflow an i64. */
#define EXP_CLAMP ((i64)1000000000000000)

/* Where the digits of one number are, for the paths that look again. */
typedef struct numtext {
    const u8 *ip, *ie; /* integer digits */
    const u8 *fp, *fe; /* fraction digits (empty when there is no '.') */
    i64 e;             /* explicit exponent, clamped to +-EXP_CLAMP */
} numtext;

/* ----------------------------------------------------------------------------
 * Eisel-Lemire style scaling
 * ------------------------------------------------------------------------- */

/* w * 10^q = (w << l) * P * 2^(flog2_pow5(q) - 127 + q - l), where the top
 * 64 bits of (w << l) * P, `hi`, have their leading one at bit 62 + t.
 * be is the binary exponent of the result (value in [2^be, 2^(be+1))). */
TYJSON__FORCEINLINE int el_exp2(int q, int l, int t) {
    return 63 + t - l + tyjson__flog2_pow5(q) + q;
}

/* The IEEE bits of the double nearest to w * 10^q, INF_BITS on overflow, or
 * EL_FAIL when the truncated 5^q leaves the rounding in doubt.
 * w != 0 and TYJSON__POW5_MIN <= q <= 308.
 *
 * Let x be the exact product (w << l) * 5^q-mantissa scaled so that `hi` is
 * its integer part; the table truncates 5^q, so x lies in [hi.lo, hi.lo + 1)
 * in units of the last bit of hi (and in (..) when 5^q is inexact). `sh` low
 * bits of hi are rounded off; with sh >= 10 an error below one unit only
 * matters when those bits are exactly one below the halfway pattern. */
static inline u64 el_bits(u64 w, int q) {
    int l = tyjson__clz64(w);
    u64 wn = w << l;
    const u64 *g = tyjson__pow5_128[q - TYJSON__POW5_MIN];
    u64 hi, lo = tyjson__mul128(wn, g[0], &hi);
    int t = (int)(hi >> 63);
    int be = el_exp2(q, l, t);
    int sh = 10 + t;
    if (be < -1022) { /* subnormal: fewer mantissa bits survive */
        sh += -1022 - be;
        if (sh >= 64) return sh > 64 ? 0 : EL_FAIL; /* below half of 2^-1074 */
    }
    u64 half = (u64)1 << (sh - 1);
    u64 low = hi & ((half << 1) - 1);
    u64 m = hi >> sh;
    int up;
    if (g[1] == 0) { /* 5^q fits in 64 bits: hi.lo is exact */
        up = low > half || (low == half && (lo != 0 || (m & 1)));
    } else if (low != half - 1) {
        /* x > hi.lo, and below low + 1: the halfway comparison is settled.
         * (low all ones may carry into m, but then m + 1 is right anyway.) */
        up = low >= half;
    } else {
        u64 mhi, mlo = tyjson__mul128(wn, g[1], &mhi);
        u64 mid = lo + mhi;
        bool exact = q >= 0 && q <= 55;
        if (mid < lo) { /* carried into hi: low becomes exactly half */
            up = !exact || mid != 0 || mlo != 0 || (m & 1);
        } else if (exact || mid != ~(u64)0) {
            up = 0; /* x < low + (mid + 2) / 2^64 <= half */
        } else {
            return EL_FAIL;
        }
    }
    m += (u64)up;
    if (be < -1022) return m; /* m == 2^52 encodes the smallest normal */
    if (m >> 53) {
        m >>= 1;
        be++;
    }
    if (be > 1023) return INF_BITS;
    return ((u64)(be + 1022) << 52) + m; /* m's leading one adds the +1 bias */
}

/* w * 10^q truncated toward zero, at most a unit or two below the answer:
 * the starting guess of the big-integer path. Same preconditions as el_bits. */
static u64 el_trunc(u64 w, int q) {
    int l = tyjson__clz64(w);
    u64 hi;
    tyjson__mul128(w << l, tyjson__pow5_128[q - TYJSON__POW5_MIN][0], &hi);
    int t = (int)(hi >> 63);
    int be = el_exp2(q, l, t);
    int sh = 10 + t;
    if (be < -1022) {
        sh += -1022 - be;
        return sh >= 64 ? 0 : hi >> sh;
    }
    if (be > 1023) return INF_BITS;
    return ((u64)(be + 1022) << 52) + (hi >> sh);
}

/* ----------------------------------------------------------------------------
 * Big-integer path: compare the decimal with halfway points exactly
 * ------------------------------------------------------------------------- */

/* A halfway point between doubles has at most 768 significant digits, so the
 * first 800 digits plus one sticky digit for the rest compare exactly. */
#define BIG_DIGITS 800
/* The largest operand is about 2^2720 (5^1125 * 2^54 and its balancing power
 * of two), so 4096 bits leave room; writes past the end are dropped anyway. */
#define BIG_LIMBS 128

typedef struct big {
    int n;            /* limbs in use; d[n-1] != 0 unless n == 0 */
    u32 d[BIG_LIMBS]; /* little endian */
} big;

static void big_muladd(big *b, u32 mul, u32 add) {
    u64 carry = add;
    for (int i = 0; i < b->n; i++) {
        u64 v = (u64)b->d[i] * mul + carry;
        b->d[i] = (u32)v;
        carry = v >> 32;
    }
    if (carry && b->n < BIG_LIMBS) b->d[b->n++] = (u32)carry;
}

static void big_set_u64(big *b, u64 v) {
    b->n = 0;
    while (v) {
        b->d[b->n++] = (u32)v;
        v >>= 32;
    }
}

static void big_mul_pow5(big *b, i64 e) {
    static const u32 pow5[14] = {1,       5,        25,        125,       625,
                                 3125,    15625,    78125,     390625,    1953125,
                                 9765625, 48828125, 244140625, 1220703125};
    for (; e >= 13; e -= 13) big_muladd(b, pow5[13], 0);
    if (e > 0) big_muladd(b, pow5[e], 0);
}

static void big_shl(big *b, i64 s) {
    if (b->n == 0) return;
    i64 lq = s / 32;
    if (lq > BIG_LIMBS - b->n) lq = BIG_LIMBS - b->n; /* never reached, see BIG_LIMBS */
    int limbs = (int)lq, bits = (int)(s % 32);
    int n = b->n + limbs + 1;
    if (n > BIG_LIMBS) n = BIG_LIMBS;
    for (int i = n - 1; i >= limbs; i--) {
        u64 w = (u64)(i - limbs < b->n ? b->d[i - limbs] : 0) << 32;
        if (i - limbs - 1 >= 0) w |= b->d[i - limbs - 1];
        b->d[i] = (u32)(w >> (32 - bits));
    }
    for (int i = 0; i < limbs; i++) b->d[i] = 0;
    while (n > 0 && b->d[n - 1] == 0) n--;
    b->n = n;
}

static int big_cmp(const big *a, const big *b) {
    if (a->n != b->n) return a->n < b->n ? -1 : 1;
    for (int i = a->n - 1; i >= 0; i--)
        if (a->d[i] != b->d[i]) return a->d[i] < b->d[i] ? -1 : 1;
    return 0;
}

/* The decimal as L * 10^eL: its first BIG_DIGITS significant digits, and a
 * final 1 digit when any digit after those is nonzero. */
static void big_decimal(const numtext *t, big *L, i64 *eL) {
    static const u32 pow10[10] = {1,      10,      100,      1000,      10000,
                                  100000, 1000000, 10000000, 100000000, 1000000000};
    L->n = 0;
    int kept = 0, clen = 0;
    u32 chunk = 0;
    bool sticky = false;
    i64 pos = t->ie - t->ip - 1, last = 0; /* power of ten of the digit */
    const u8 *seg[2][2] = {{t->ip, t->ie}, {t->fp, t->fe}};
    for (int s = 0; s < 2 && !sticky; s++) {
        for (const u8 *p = seg[s][0]; p < seg[s][1]; p++, pos--) {
            u32 d = (u32)*p - '0';
            if (kept == 0 && d == 0) continue;
            if (kept == BIG_DIGITS) {
                if (d) {
                    sticky = true;
                    break;
                }
                continue;
            }
            chunk = chunk * 10 + d;
            last = pos;
            kept++;
            if (++clen == 9) {
                big_muladd(L, pow10[9], chunk);
                chunk = 0;
                clen = 0;
            }
        }
    }
    if (clen) big_muladd(L, pow10[clen], chunk);
    if (sticky) {
        big_muladd(L, 10, 1);
        last--;
    }
    *eL = t->e + last;
}

/* Compares L * 10^eL with m * 2^e2. */
static int cmp_scaled(const big *L, i64 eL, u64 m, i64 e2) {
    big lhs = *L, rhs;
    big_set_u64(&rhs, m);
    if (eL >= 0)
        big_mul_pow5(&lhs, eL);
    else
        big_mul_pow5(&rhs, -eL);
    i64 x = eL - e2;
    if (x >= 0)
        big_shl(&lhs, x);
    else
        big_shl(&rhs, -x);
    return big_cmp(&lhs, &rhs);
}

/* The finite double with bits b (sign ignored) as m * 2^e2. */
static void split_bits(u64 b, u64 *m, i64 *e2) {
    u64 ef = (b >> 52) & 0x7FF;
    *m = b & (((u64)1 << 52) - 1);
    *e2 = -1074;
    if (ef) {
        *m |= (u64)1 << 52;
        *e2 = (i64)ef - 1075;
    }
}

/* Compares L * 10^eL with the point halfway between the finite double with
 * bits `b` and the next one up: (2m + 1) * 2^(e2 - 1). */
static int cmp_halfway(const big *L, i64 eL, u64 b) {
    u64 m;
    i64 e2;
    split_bits(b, &m, &e2);
    return cmp_scaled(L, eL, 2 * m + 1, e2 - 1);
}

/* The correctly rounded bits of the number in t, whose first (at most 19)
 * significant digits are w * 10^q. */
static TYJSON__NOINLINE u64 slow_bits(const numtext *t, u64 w, int q) {
    u64 b = el_trunc(w, q);
    if (b >= INF_BITS) return INF_BITS;
    big L;
    i64 eL;
    big_decimal(t, &L, &eL);
    for (;;) {
        int c = cmp_halfway(&L, eL, b);
        if (c > 0 || (c == 0 && (b & 1))) { /* ties go to the even mantissa */
            if (++b == INF_BITS) return b;
            continue;
        }
        if (b == 0) return 0;
        c = cmp_halfway(&L, eL, b - 1);
        if (c < 0 || (c == 0 && (b & 1))) {
            b--;
            continue;
        }
        return b;
    }
}

/* ----------------------------------------------------------------------------
 * From significand and exponent to bits
 * ------------------------------------------------------------------------- */

/* w * 10^q exactly (w has at most 19 digits), correctly rounded. */
static u64 exact_bits(u64 w, i64 q, const numtext *t) {
    if (w == 0 || q < TYJSON__POW5_MIN) return 0; /* w * 10^q < 2^-1075 */
    if (q > 308) return INF_BITS;
    u64 b = el_bits(w, (int)q);
    if (likely(b != EL_FAIL)) return b;
    return slow_bits(t, w, (int)q);
}

/* More than 19 digits: round from the first 19 significant ones, w, when w
 * and w + 1 give the same double, since the value lies between them. */
static TYJSON__NOINLINE u64 long_bits(const numtext *t) {
    u64 w = 0;
    int kept = 0;
    bool more = false;
    i64 q = t->e;
    for (const u8 *p = t->ip; p < t->ie; p++) {
        u32 d = (u32)*p - '0';
        if (kept < SIG_DIGITS) {
            if (kept || d) {
                w = w * 10 + d;
                kept++;
            }
        } else {
            q++;
            more |= d != 0;
        }
    }
    for (const u8 *p = t->fp; p < t->fe; p++) {
        u32 d = (u32)*p - '0';
        if (kept < SIG_DIGITS) {
            if (kept || d) {
                w = w * 10 + d;
                kept++;
            }
            q--;
        } else if (d) {
            more = true;
            break;
        }
    }
    if (!more) return exact_bits(w, q, t);
    /* here w has 19 digits, so w * 10^q >= 1e18 * 10^q */
    if (q < TYJSON__POW5_MIN) return 0;
    if (q > 308) return INF_BITS;
    u64 lo = el_bits(w, (int)q);
    if (lo != EL_FAIL && lo == el_bits(w + 1, (int)q)) return lo;
    return slow_bits(t, w, (int)q);
}

/* ----------------------------------------------------------------------------
 * Grammar and the integer fast path
 * ------------------------------------------------------------------------- */

TYJSON__FIRST_USE
static const u8 *num_bad(const u8 *at, tyjson_status *err, const u8 **err_pos) {
    *err = TYJSON_E_NUMBER;
    *err_pos = at;
    return NULL;
}

TYJSON__FIRST_USE
static const u8 *num_range(const u8 *start, const u8 *p, u32 flags, tyjson__num *out,
                           tyjson_status *err, const u8 **err_pos) {
    if (flags & TYJSON_READ_BIGNUM_AS_RAW) {
        out->kind = TYJSON__NUM_RAW;
        out->v.u = 0;
        return p;
    }
    *err = TYJSON_E_NUMBER_RANGE;
    *err_pos = start;
    return NULL;
}

/* Integers the fast path did not settle: -0, 20+ digits, below INT64_MIN. */
TYJSON__FIRST_USE
static TYJSON__NOINLINE const u8 *int_slow(const u8 *start, const u8 *ip, const u8 *p,
                                           u32 flags, tyjson__num *out, tyjson_status *err,
                                           const u8 **err_pos) {
    bool neg = start != ip;
    usize n = (usize)(p - ip);
    if (neg && n == 1 && *ip == '0') { /* -0 keeps its sign as a real */
        out->kind = TYJSON__NUM_REAL;
        out->v.f = -0.0;
        return p;
    }
    if (!neg && n == SIG_DIGITS + 1) { /* 10^19 <= v < 10^20: may fit */
        u64 v = 0;
        for (usize i = 0; i < SIG_DIGITS; i++) v = v * 10 + (u32)(ip[i] - '0');
        u32 last = (u32)(ip[SIG_DIGITS] - '0');
        if (v <= (UINT64_MAX - last) / 10) {
            out->kind = TYJSON__NUM_UINT;
            out->v.u = v * 10 + last;
            return p;
        }
    }
    return num_range(start, p, flags, out, err, err_pos);
}

/* Appends the run of digits at p to *sig (wrapping; the caller counts the
 * digits) and returns its end: 8 digits per step while 8 bytes remain
 * readable (num_inline.h has the lane helpers), then one at a time. */
TYJSON__FORCEINLINE const u8 *scan_digits(const u8 *p, const u8 *end, u64 *sig) {
    u64 s = *sig;
#if TYJSON__NUM_SWAR
    while (end - p >= 8) {
        u64 x = tyjson__num_load8(p) ^ TYJSON__NUM_ZEROS8, stop = tyjson__num_nondigits8(x);
        if (!stop) {
            s = s * 100000000 + tyjson__num_digits8(x);
            p += 8;
            continue;
        }
        int n = tyjson__num_ctz64(stop) >> 3;
        s = s * tyjson__num_pow10_u64[n] + tyjson__num_digits8(tyjson__num_first_lanes(x, n));
        *sig = s;
        return p + n;
    }
#endif
    u32 d;
    while (p < end && (d = (u32)*p - '0') <= 9) {
        s = s * 10 + d;
        p++;
    }
    *sig = s;
    return p;
}

const double tyjson__num_pow10_f64[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                          1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                          1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Any number, anywhere before `end`. Digits accumulate into a wrapping u64
 * with no per-digit checks; the digit count afterwards says whether the
 * value is exact (<= 19 digits). */
TYJSON__FIRST_USE
TYJSON__NOINLINE const u8 *tyjson__num_read_slow(const u8 *p, const u8 *end, u32 flags,
                                                 tyjson__num *out, tyjson_status *err,
                                                 const u8 **err_pos) {
    TYJSON_API_CHECK(p < end);
    const u8 *start = p;
    bool neg = *p == '-';
    p += neg;
    const u8 *ip = p;
    u64 sig;
    u32 d;
    if (unlikely(p == end) || (d = (u32)*p - '0') > 9) return num_bad(p, err, err_pos);
    sig = d;
    p++;
    if (d == 0) {
        if (p < end && (u32)*p - '0' <= 9) return num_bad(p, err, err_pos);
    } else {
        p = scan_digits(p, end, &sig);
    }
    const u8 *ie = p;
    if (p == end || (*p != '.' && (*p | 0x20) != 'e')) {
        if (likely((usize)(p - ip) <= SIG_DIGITS)) {
            if (!neg) {
                out->kind = TYJSON__NUM_UINT;
                out->v.u = sig;
                return p;
            }
            if (likely(sig - 1 < (u64)1 << 63)) { /* 1 <= sig <= 2^63 */
                out->kind = TYJSON__NUM_SINT;
                out->v.i = -(i64)(sig - 1) - 1;
                return p;
            }
        }
        return int_slow(start, ip, p, flags, out, err, err_pos);
    }

    const u8 *fp = p, *fe = p;
    if (*p == '.') {
        fp = ++p;
        p = scan_digits(p, end, &sig);
        if (p == fp) return num_bad(p, err, err_pos);
        fe = p;
    }
    i64 e = 0;
    if (p < end && (*p | 0x20) == 'e') {
        p++;
        bool eneg = false;
        if (p < end && (*p == '-' || *p == '+')) eneg = *p++ == '-';
        if (p == end || (d = (u32)*p - '0') > 9) return num_bad(p, err, err_pos);
        do {
            if (e < EXP_CLAMP) e = e * 10 + d;
            p++;
        } while (p < end && (d = (u32)*p - '0') <= 9);
        if (eneg) e = -e;
    }

    numtext t = {ip, ie, fp, fe, e};
    u64 bits;
    double f;
    if (likely((usize)(ie - ip) + (usize)(fe - fp) <= SIG_DIGITS)) {
        i64 q = e - (fe - fp);
        if (TYJSON__NUM_CLINGER && sig <= (u64)1 << 53 && q >= -22 && q <= 22) {
            f = (double)sig;
            f = q < 0 ? f / tyjson__num_pow10_f64[-q] : f * tyjson__num_pow10_f64[q];
            goto real;
        }
        bits = exact_bits(sig, q, &t);
    } else {
        bits = long_bits(&t);
    }
    if (unlikely(bits >= INF_BITS)) return num_range(start, p, flags, out, err, err_pos);
    memcpy(&f, &bits, sizeof f);
real:
    out->kind = TYJSON__NUM_REAL;
    out->v.f = neg ? -f : f;
    return p;
}

/* ----------------------------------------------------------------------------
 * The fast path's out-of-line parts (num_inline.h)
 * ------------------------------------------------------------------------- */

const u64 tyjson__num_pow10_u64[20] = {1u,
                                       10u,
                                       100u,
                                       1000u,
                                       10000u,
                                       100000u,
                                       1000000u,
                                       10000000u,
                                       100000000u,
                                       1000000000u,
                                       10000000000u,
                                       100000000000u,
                                       1000000000000u,
                                       10000000000000u,
                                       100000000000000u,
                                       1000000000000000u,
                                       10000000000000000u,
                                       100000000000000000u,
                                       1000000000000000000u,
                                       10000000000000000000u};

u64 tyjson__num_scaled_bits(u64 w, i64 q) {
    if (w == 0 || q < TYJSON__POW5_MIN) return 0; /* w * 10^q < 2^-1075 */
    if (q > 308) return ~(u64)0;
    u64 b = el_bits(w, (int)q);
    return b >= INF_BITS ? ~(u64)0 : b; /* EL_FAIL is ~0 too */
}

TYJSON__NOINLINE const u8 *tyjson__num_read_text(const u8 *p, const u8 *end, tyjson__num *out,
                                                 tyjson_status *err, const u8 **err_pos) {
    TYJSON_API_CHECK(p < end);
    const u8 *q = tyjson__num_scan(p, end);
    if (likely(q != NULL)) {
        out->kind = TYJSON__NUM_RAW;
        out->v.u = 0;
        return q;
    }
    /* The full reader names the grammar error (range never fails it here). */
    q = tyjson__num_read_slow(p, end, TYJSON_READ_BIGNUM_AS_RAW, out, err, err_pos);
    if (q) { /* cannot happen: both read the RFC 8259 grammar */
        out->kind = TYJSON__NUM_RAW;
        out->v.u = 0;
    }
    return q;
}

const u8 *tyjson__num_read(const u8 *p, const u8 *end, u32 flags, tyjson__num *out,
                           tyjson_status *err, const u8 **err_pos) {
    TYJSON_API_CHECK(p < end);
    if (flags & TYJSON_READ_NUMBER_AS_RAW) return tyjson__num_read_text(p, end, out, err, err_pos);
    return tyjson__num_read_inline(p, end, flags, out, err, err_pos);
}

/* ----------------------------------------------------------------------------
 * Float members: one rounding from the text
 * ------------------------------------------------------------------------- */
TYJSON__NOINLINE int tyjson__num_cmp_abs(const u8 *p, const u8 *end, double v) {
    if (p < end && *p == '-') p++;
    numtext t;
    t.ip = p;
    while (p < end && (u32)*p - '0' <= 9) p++;
    t.ie = t.fp = t.fe = p;
    if (p < end && *p == '.') {
        t.fp = ++p;
        while (p < end && (u32)*p - '0' <= 9) p++;
        t.fe = p;
    }
    t.e = 0;
    if (p < end && (*p | 0x20) == 'e') {
        p++;
        bool eneg = false;
        if (p < end && (*p == '-' || *p == '+')) eneg = *p++ == '-';
        for (u32 d; p < end && (d = (u32)*p - '0') <= 9; p++)
            if (t.e < EXP_CLAMP) t.e = t.e * 10 + d;
        if (eneg) t.e = -t.e;
    }
    big L;
    i64 eL;
    big_decimal(&t, &L, &eL);
    if (L.n == 0) return -1;
    u64 b, m;
    i64 e2;
    memcpy(&b, &v, sizeof b);
    split_bits(b, &m, &e2);
    return cmp_scaled(&L, eL, m, e2);
}

/* The float next to finite f towards +infinity (up) or -infinity, from its
 * bits (no libm for the static library). */
static float f32_step(float f, bool up) {
    u32 b;
    memcpy(&b, &f, sizeof b);
    if ((b & 0x7FFFFFFFu) == 0) {
        b = up ? 1u : 0x80000001u; /* the smallest subnormal either side */
    } else if ((f > 0) == up) {
        b++;
    } else {
        b--;
    }
    memcpy(&f, &b, sizeof f);
    return f;
}

float tyjson__num_f32(double v, const u8 *p, const u8 *end) {
    float f = (float)v;
    if ((double)f == v) return f;
    /* v between f and its neighbour g: a midpoint only if it is their mean
     * (exact in double: both have 24-bit significands) */
    float g = f32_step(f, v > (double)f);
    if ((double)f + (double)g != 2 * v) return f;
    int c = tyjson__num_cmp_abs(p, end, v);
    if (c == 0) return f; /* the text is the midpoint: ties to even, as (float)v */
    bool f_smaller = (f < 0 ? -f : f) < (g < 0 ? -g : g);
    float lo = f_smaller ? f : g, hi = f_smaller ? g : f;
    return c < 0 ? lo : hi;
}

/* ----------------------------------------------------------------------------
 * JSON5 number forms (tyjson__num_read_json5 in num.h)
 * ------------------------------------------------------------------------- */

/* The hexadecimal digits at p (after "0x"), signed by neg, into *out. */
static const u8 *hex_read(const u8 *start, const u8 *p, const u8 *end, bool neg,
                          tyjson__num *out, tyjson_status *err, const u8 **err_pos) {
    const u8 *h = p;
    u64 v = 0;
    bool over = false;
    for (; p < end; p++) {
        u32 c = *p, d = c - '0', l = (c | 0x20) - 'a';
        if (d > 9) {
            if (l > 5) break;
            d = l + 10;
        }
        if (v >> 60) over = true;
        v = (v << 4) | d;
    }
    if (p == h) return num_bad(p, err, err_pos);
    if (over || (neg && v > (u64)1 << 63)) {
        *err = TYJSON_E_NUMBER_RANGE;
        *err_pos = start;
        return NULL;
    }
    if (!neg) {
        out->kind = TYJSON__NUM_UINT;
        out->v.u = v;
    } else if (v == 0) {
        out->kind = TYJSON__NUM_REAL;
        out->v.f = -0.0;
    } else {
        out->kind = TYJSON__NUM_SINT;
        out->v.i = -(i64)(v - 1) - 1;
    }
    return p;
}

TYJSON__NOINLINE const u8 *tyjson__num_read_json5(const u8 *p, const u8 *end, u32 flags,
                                                  tyjson__num *out, tyjson_status *err,
                                                  const u8 **err_pos) {
    const u8 *start = p;
    bool neg = false, plus = false;
    if (p < end && *p == '+' && (flags & TYJSON_READ_ALLOW_PLUS_SIGN)) {
        plus = true;
        p++;
    } else if (p < end && *p == '-') {
        neg = true;
        p++;
    }
    if (p == end) return num_bad(p, err, err_pos);
    /* NaN and Infinity: unsigned, or -Infinity, with ALLOW_INF_NAN; the other
     * signs with ALLOW_PLUS_SIGN too */
    if ((*p == 'I' || *p == 'N') && (flags & TYJSON_READ_ALLOW_INF_NAN) &&
        (!(plus || (neg && *p == 'N')) || (flags & TYJSON_READ_ALLOW_PLUS_SIGN))) {
        usize have = (usize)(end - p);
        if (*p == 'I' && have >= 8 && memcmp(p, "Infinity", 8) == 0) {
            out->kind = TYJSON__NUM_REAL;
            out->v.f = neg ? -(double)INFINITY : (double)INFINITY;
            return p + 8;
        }
        if (*p == 'N' && have >= 3 && memcmp(p, "NaN", 3) == 0) {
            out->kind = TYJSON__NUM_REAL;
            out->v.f = neg ? -(double)NAN : (double)NAN;
            return p + 3;
        }
        const char *w = *p == 'I' ? "Infinity" : "NaN";
        usize n = *p == 'I' ? 8 : 3;
        *err = (have < n && memcmp(p, w, have) == 0) ? TYJSON_E_TRUNCATED : TYJSON_E_LITERAL;
        *err_pos = p;
        return NULL;
    }
    if ((flags & TYJSON_READ_ALLOW_HEX_NUMBERS) && *p == '0' && end - p >= 2 && (p[1] | 0x20) == 'x')
        return hex_read(start, p + 2, end, neg, out, err, err_pos);
    /* decimal: find the parts, then let the strict reader take what is JSON */
    const u8 *ip = p;
    while (p < end && (u32)*p - '0' <= 9) p++;
    const u8 *ie = p, *fp = p, *fe = p;
    bool point = p < end && *p == '.';
    if (point) {
        fp = ++p;
        while (p < end && (u32)*p - '0' <= 9) p++;
        fe = p;
    }
    bool bare = point && (ip == ie || fp == fe);
    if (bare && ip == ie && fp == fe && (flags & TYJSON_READ_ALLOW_BARE_DECIMAL_POINT))
        return num_bad(fp, err, err_pos); /* "." alone: a digit was due after it */
    if (!bare || !(flags & TYJSON_READ_ALLOW_BARE_DECIMAL_POINT) || (ip == ie && fp == fe)) {
        /* NUMBER_AS_RAW keeps a number in JSON's own text as that text
         * (out of range too); after a '+' there is no JSON text to keep */
        if ((flags & TYJSON_READ_NUMBER_AS_RAW) && !plus)
            return tyjson__num_read_text(ip - neg, end, out, err, err_pos);
        /* JSON's grammar (its errors, its values), after a '+' */
        const u8 *q = tyjson__num_read_slow(ip - neg, end, flags, out, err, err_pos);
        if (q && plus && out->kind == TYJSON__NUM_RAW) {
            *err = TYJSON_E_NUMBER_RANGE; /* raw text must stay JSON */
            *err_pos = start;
            return NULL;
        }
        if (!q && *err == TYJSON_E_NUMBER_RANGE) *err_pos = start;
        return q;
    }
    if (ie - ip > 1 && *ip == '0') return num_bad(ip + 1, err, err_pos); /* "01." */
    i64 e = 0;
    if (p < end && (*p | 0x20) == 'e') {
        p++;
        bool eneg = false;
        u32 d;
        if (p < end && (*p == '-' || *p == '+')) eneg = *p++ == '-';
        if (p == end || (d = (u32)*p - '0') > 9) return num_bad(p, err, err_pos);
        do {
            if (e < EXP_CLAMP) e = e * 10 + d;
            p++;
        } while (p < end && (d = (u32)*p - '0') <= 9);
        if (eneg) e = -e;
    }
    numtext t = {ip, ie, fp, fe, e};
    u64 bits = long_bits(&t);
    if (bits >= INF_BITS) {
        *err = TYJSON_E_NUMBER_RANGE; /* never raw: the text is not JSON */
        *err_pos = start;
        return NULL;
    }
    double f;
    memcpy(&f, &bits, sizeof f);
    out->kind = TYJSON__NUM_REAL;
    out->v.f = neg ? -f : f;
    return p;
}
