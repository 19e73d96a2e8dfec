/*
 * datetime.c - strict ISO-8601 dates ("YYYY-MM-DD") and date-times
 * ("YYYY-MM-DDTHH:MM:SS[.f...](Z|+HH:MM|-HH:MM)"), and their conversion to
 * and from the Unix epoch in the proleptic Gregorian calendar.
 *
 * Day counts use years that start in March, so that the leap day is the
 * last day of its year and the month lengths before it follow the fixed
 * 31/30 pattern that (153 * m + 2) / 5 reproduces.
 */
#include "bind/bind.h"
#include "num/num.h"
#include "num/num_inline.h"

#include <stdarg.h>

static bool is_leap(int32_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

static unsigned days_in_month(int32_t y, unsigned m) {
    static const u8 dim[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && is_leap(y) ? 29u : dim[m - 1];
}

static bool date_valid(const tyjson_date *d) {
    /* every month has 28 days: the calendar is consulted only past them */
    return d->year >= 0 && d->year <= 9999 && d->month >= 1 && d->month <= 12 && d->day >= 1 &&
           (d->day <= 28 || d->day <= days_in_month(d->year, d->month));
}

static bool datetime_valid(const tyjson_datetime *dt) {
    return date_valid(&dt->date) && dt->hour < 24 && dt->minute < 60 && dt->second < 60 &&
           dt->nanosecond < 1000000000u && dt->offset_minutes >= -1439 &&
           dt->offset_minutes <= 1439;
}

/* Days from 1970-01-01 to y-m-d (years 0-9999). The March-based year is
 * shifted by one 400-year cycle (146097 days) so that it is positive and
 * every step fits 32 unsigned bits: 365 days a year plus the leap days
 * before it, then the days since March. */
static int64_t days_from_civil(int32_t y, unsigned m, unsigned d) {
    u32 yy = (u32)y - (m <= 2 ? 1u : 0u) + 400u; /* March-based year */
    unsigned mar = m > 2 ? m - 3 : m + 9;        /* months since March */
    u32 doy = (153 * mar + 2) / 5 + d - 1;
    u32 n = yy * 365 + yy / 4 - yy / 100 + yy / 400 + doy;
    /* 719468: days from 0000-03-01 to 1970-01-01. */
    return (int64_t)n - 146097 - 719468;
}

/* Inverse of days_from_civil for the days since 0000-01-01 of years
 * 0-9999 (days0 < 3652425), in unsigned 32-bit steps (a division by a
 * constant is a multiply and a shift, without the sign fix-ups of signed
 * 64-bit ones; the encoder formats every epoch member so): centuries and
 * the day in the century, years and the day in the March-based year (the
 * "4n + 3" forms of the Gregorian cycles), then month and day by one
 * multiply-add (2141 / 65536 ~ 5 / 153, the months' lengths from March).
 * Checked against the previous form for every day of the range. */
static void civil_from_days0(u32 days0, tyjson_date *out) {
    u32 z = days0 + 146097 - 60;          /* days since -0400-03-01 */
    u32 n1 = 4 * z + 3, c = n1 / 146097;  /* centuries */
    u32 n2 = n1 % 146097 / 4 * 4 + 3;     /* from the day of the century */
    u32 yc = n2 / 1461, ny = n2 % 1461 / 4; /* year of the century, its day */
    u32 n3 = 2141 * ny + 197913;
    u32 m = n3 >> 16, d = (n3 & 0xFFFF) / 2141 + 1; /* m: 3 (March) to 14 */
    u32 jan = ny >= 306;                  /* January or February: next year */
    out->year = (int32_t)(100 * c + yc + jan) - 400;
    m -= 12 * jan;
    out->month = (uint8_t)m;
    out->day = (uint8_t)d;
}

/* ----------------------------------------------------------------------------
 * Parsing
 * ------------------------------------------------------------------------- */
static bool digits(const char *s, usize n, u32 *out) {
    u32 v = 0;
    for (usize i = 0; i < n; i++) {
        unsigned c = (unsigned char)s[i] - '0';
        if (c > 9) return false;
        v = v * 10 + c;
    }
    *out = v;
    return true;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The fixed-width fields, 8 bytes at a time: a little-endian word holds the
 * text's first byte in its low lane. */
#  define DT_SWAR 1
#  define LANES 0x0101010101010101ull
static u64 load8(const char *s) {
    u64 v;
    memcpy(&v, s, 8);
    return v;
}

/* Every lane of x selected by m (0xFF lanes) is an ASCII digit; the other
 * lanes equal the same lanes of `punct`. */
static bool shape_ok(u64 x, u64 m, u64 punct) {
    u64 hi = m & (0xF0 * LANES), three = m & (0x30 * LANES);
    return (x & hi) == three && ((x + (m & (0x06 * LANES))) & hi) == three && (x & ~m) == punct;
}

static u32 lane(u64 x, int i) { return (u32)(x >> (8 * i)) & 0x0F; }

/* Lane i of the result: the two-digit number of lanes i and i + 1 of x
 * (ASCII digits there), in one multiply: no lane exceeds 99, so none
 * carries into the next. */
static u64 pairs(u64 x) {
    u64 v = x & (0x0F * LANES);
    return v * 10 + (v >> 8);
}

static u32 lane8(u64 x, int i) { return (u32)(x >> (8 * i)) & 0xFF; }
#else
#  define DT_SWAR 0
#endif

/* "YYYY-MM-DD" at s into its numbers, valid as a date. */
static inline bool date10(const char *s, u32 *year, u32 *month, u32 *day) {
    u32 y, m, d;
#if DT_SWAR
    /* "YYYY-MM-" then "DD" */
    u64 a = load8(s);
    if (!shape_ok(a, 0x00FFFF00FFFFFFFFull, (u64)'-' << 32 | (u64)'-' << 56)) return false;
    unsigned d0 = (unsigned char)s[8] - '0', d1 = (unsigned char)s[9] - '0';
    if (d0 > 9 || d1 > 9) return false;
    u64 pr = pairs(a);
    y = lane8(pr, 0) * 100 + lane8(pr, 2);
    m = lane8(pr, 5);
    d = d0 * 10 + d1;
#else
    if (!digits(s, 4, &y) || s[4] != '-' || !digits(s + 5, 2, &m) || s[7] != '-' ||
        !digits(s + 8, 2, &d))
        return false;
#endif
    /* months 1-12, days 1-31; past the 28th, the month's length */
    if (m - 1 > 11 || d - 1 > 30 || (d > 28 && d > days_in_month((int32_t)y, m))) return false;
    *year = y;
    *month = m;
    *day = d;
    return true;
}

bool tyjson__date10_parse(const char *s, tyjson_date *out) {
    u32 y, m, d;
    if (!date10(s, &y, &m, &d)) return false;
    tyjson_date t;
    t.year = (int32_t)y;
    t.month = (uint8_t)m;
    t.day = (uint8_t)d;
    *out = t;
    return true;
}

/* "YYYY-MM-DDTHH:MM:SSZ" exactly ('t' and 'z' too), read as in
 * tyjson_datetime_parse. */
bool tyjson__utc20_parse(const char *s, int64_t *sec) {
    u32 y, mo, d;
#if DT_SWAR
    /* "DDTHH:MM" (the day again, for the shape), then ":SSZ" */
    u64 b = load8(s + 8) | (u64)0x20 << 16;
    if (!date10(s, &y, &mo, &d) ||
        !shape_ok(b, 0xFFFF00FFFF00FFFFull, (u64)'t' << 16 | (u64)':' << 40) || s[16] != ':' ||
        (s[19] | 0x20) != 'z')
        return false;
    unsigned s0 = (unsigned char)s[17] - '0', s1 = (unsigned char)s[18] - '0';
    if (s0 > 9 || s1 > 9) return false;
    u64 pb = pairs(b);
    u32 hh = lane8(pb, 3), mi = lane8(pb, 6), ss = s0 * 10 + s1;
#else
    u32 hh, mi, ss;
    if (!date10(s, &y, &mo, &d) || (s[10] | 0x20) != 't' || !digits(s + 11, 2, &hh) ||
        s[13] != ':' || !digits(s + 14, 2, &mi) || s[16] != ':' || !digits(s + 17, 2, &ss) ||
        (s[19] | 0x20) != 'z')
        return false;
#endif
    if (hh > 23 || mi > 59 || ss > 59) return false;
    *sec = days_from_civil((int32_t)y, mo, d) * 86400 + (int64_t)(hh * 3600 + mi * 60 + ss);
    return true;
}

bool tyjson_date_parse(const char *s, usize len, tyjson_date *out) {
    if (!s || len != 10 || !out) return false;
    return tyjson__date10_parse(s, out);
}

bool tyjson_datetime_parse(const char *s, usize len, tyjson_datetime *out) {
    if (!s || !out || len < 20) return false;
    tyjson_datetime t;
    memset(&t, 0, sizeof(t));
    u32 hh, mi, ss;
#if DT_SWAR
    /* "DDTHH:MM" (the day again, for the shape), then ":SS" */
    /* 'T' or RFC 3339's 't': the case bit set on that lane reads 't' */
    u64 b = load8(s + 8) | (u64)0x20 << 16;
    if (!tyjson__date10_parse(s, &t.date) ||
        !shape_ok(b, 0xFFFF00FFFF00FFFFull, (u64)'t' << 16 | (u64)':' << 40) || s[16] != ':')
        return false;
    unsigned s0 = (unsigned char)s[17] - '0', s1 = (unsigned char)s[18] - '0';
    if (s0 > 9 || s1 > 9) return false;
    hh = lane(b, 3) * 10 + lane(b, 4);
    mi = lane(b, 6) * 10 + lane(b, 7);
    ss = s0 * 10 + s1;
#else
    if (!tyjson__date10_parse(s, &t.date) || (s[10] | 0x20) != 't' || !digits(s + 11, 2, &hh) || s[13] != ':' ||
        !digits(s + 14, 2, &mi) || s[16] != ':' || !digits(s + 17, 2, &ss))
        return false;
#endif
    if (hh > 23 || mi > 59 || ss > 59) return false;
    t.hour = (uint8_t)hh;
    t.minute = (uint8_t)mi;
    t.second = (uint8_t)ss;
    usize i = 19;
    if (s[i] == '.') {
        i++;
        usize start = i;
        u32 ns = 0;
        while (i < len && i - start < 9 && (unsigned)((unsigned char)s[i] - '0') <= 9)
            ns = ns * 10 + (u32)(s[i++] - '0');
        usize nd = i - start;
        if (nd == 0) return false;
        for (usize k = nd; k < 9; k++) ns *= 10;
        t.nanosecond = ns;
    }
    if (i >= len) return false;
    if ((s[i] | 0x20) == 'z') {
        i++;
    } else if (s[i] == '+' || s[i] == '-') {
        u32 oh, om;
        if (len - i < 6 || !digits(s + i + 1, 2, &oh) || s[i + 3] != ':' ||
            !digits(s + i + 4, 2, &om) || oh > 23 || om > 59)
            return false;
        int off = (int)(oh * 60 + om);
        t.offset_minutes = (int16_t)(s[i] == '-' ? -off : off);
        i += 6;
    } else {
        return false;
    }
    if (i != len) return false;
    *out = t;
    return true;
}

/* ----------------------------------------------------------------------------
 * Explaining a refusal (error path only: plain byte loops)
 * ------------------------------------------------------------------------- */
typedef struct explain {
    char *out;
    usize cap;
    usize n;
} explain;

#if defined(__GNUC__) || defined(__clang__)
static usize say(explain *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#endif
static usize say(explain *x, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(x->out, x->cap, fmt, ap);
    va_end(ap);
    if (k < 0) return 0;
    x->n = (usize)k < x->cap ? (usize)k : x->cap - 1;
    return x->n;
}

/* The pattern position i expects a digit ('9') or that punctuation. */
static usize check_shape(explain *x, const char *s, usize len, const char *pat) {
    for (usize i = 0; pat[i]; i++) {
        if (i >= len) {
            if (pat[i] == '9') return say(x, "too short: expected a digit at byte %zu", i);
            return say(x, "too short: expected '%c' at byte %zu", pat[i], i);
        }
        unsigned char c = (unsigned char)s[i];
        if (pat[i] == '9') {
            if (c < '0' || c > '9') return say(x, "expected a digit at byte %zu", i);
        } else if (pat[i] == 'T' ? (c | 0x20) != 't' : c != (unsigned char)pat[i]) {
            return say(x, "expected '%c' at byte %zu", pat[i], i);
        }
    }
    return 0;
}

static unsigned num2(const char *s) { return (unsigned)(s[0] - '0') * 10 + (unsigned)(s[1] - '0'); }

static usize explain_date(explain *x, const char *s, usize len) {
    usize r = check_shape(x, s, len, "9999-99-99");
    if (r) return r;
    int y = (int)num2(s) * 100 + (int)num2(s + 2);
    unsigned m = num2(s + 5), d = num2(s + 8);
    if (m < 1 || m > 12) return say(x, "month %u out of range", m);
    if (d < 1 || d > days_in_month(y, m))
        return say(x, "day %u out of range for %04d-%02u", d, y, m);
    return 0;
}

usize tyjson__date_explain(const char *s, usize len, bool datetime, char *out, usize cap) {
    explain x = {out, cap, 0};
    if (!s || !out || cap < 2) return 0;
    out[0] = 0;
    usize r = explain_date(&x, s, len);
    if (r) return r;
    if (!datetime)
        return len != 10 ? say(&x, "unexpected text after the date at byte 10") : 0;
    r = check_shape(&x, s, len, "9999-99-99T99:99:99");
    if (r) return r;
    unsigned hh = num2(s + 11), mi = num2(s + 14), ss = num2(s + 17);
    if (hh > 23) return say(&x, "hour %u out of range", hh);
    if (mi > 59) return say(&x, "minute %u out of range", mi);
    if (ss > 59) return say(&x, "second %u out of range (leap seconds are refused)", ss);
    usize i = 19;
    if (i < len && s[i] == '.') {
        usize start = ++i;
        while (i < len && s[i] >= '0' && s[i] <= '9') i++;
        if (i == start) return say(&x, "expected a digit at byte %zu", start);
        if (i - start > 9) return say(&x, "more than 9 fraction digits");
    }
    if (i >= len) return say(&x, "missing time zone: expected 'Z', '+HH:MM' or '-HH:MM'");
    if ((s[i] | 0x20) == 'z') {
        i++;
    } else if (s[i] == '+' || s[i] == '-') {
        usize b = i + 1;
        r = check_shape(&x, s + b, len - b, "99:99");
        if (r) return say(&x, "offset not of the form +HH:MM at byte %zu", i);
        if (num2(s + b) > 23) return say(&x, "offset hour %u out of range", num2(s + b));
        if (num2(s + b + 3) > 59) return say(&x, "offset minute %u out of range", num2(s + b + 3));
        i += 6;
    } else {
        return say(&x, "expected 'Z', '+' or '-' at byte %zu", i);
    }
    if (i != len) return say(&x, "unexpected text after the date-time at byte %zu", i);
    return 0;
}

/* ----------------------------------------------------------------------------
 * Formatting
 * ------------------------------------------------------------------------- */
/* Two digits of v < 100 from the number core's digit-pair table. */
static char *put2(char *o, unsigned v) {
    memcpy(o, tyjson__num_dig2 + 2 * v, 2);
    return o + 2;
}

static char *put_date(char *o, const tyjson_date *d) {
    unsigned y = (unsigned)d->year;
    o = put2(o, y / 100);
    o = put2(o, y % 100);
    *o++ = '-';
    o = put2(o, d->month);
    *o++ = '-';
    return put2(o, d->day);
}

usize tyjson_date_format(const tyjson_date *d, char *out) {
    if (!d || !out || !date_valid(d)) return 0;
    put_date(out, d);
    return 10;
}

usize tyjson_datetime_format(const tyjson_datetime *dt, char *out) {
    if (!dt || !out || !datetime_valid(dt)) return 0;
    char *o = put_date(out, &dt->date);
    *o++ = 'T';
    o = put2(o, dt->hour);
    *o++ = ':';
    o = put2(o, dt->minute);
    *o++ = ':';
    o = put2(o, dt->second);
    if (dt->nanosecond) {
        /* 3, 6 or 9 digits: the fewest that are exact. */
        u32 ns = dt->nanosecond, nd = 9;
        if (ns % 1000000u == 0) {
            ns /= 1000000u;
            nd = 3;
        } else if (ns % 1000u == 0) {
            ns /= 1000u;
            nd = 6;
        }
        *o++ = '.';
        for (u32 k = nd; k-- > 0;) {
            o[k] = (char)('0' + ns % 10);
            ns /= 10;
        }
        o += nd;
    }
    if (dt->offset_minutes == 0) {
        *o++ = 'Z';
    } else {
        int off = dt->offset_minutes;
        *o++ = off < 0 ? '-' : '+';
        if (off < 0) off = -off;
        o = put2(o, (unsigned)off / 60);
        *o++ = ':';
        o = put2(o, (unsigned)off % 60);
    }
    return (usize)(o - out);
}

/* ----------------------------------------------------------------------------
 * Epoch conversion
 * ------------------------------------------------------------------------- */
int64_t tyjson__datetime_epoch_sec(const tyjson_datetime *dt) {
    int64_t days = days_from_civil(dt->date.year, dt->date.month, dt->date.day);
    return days * 86400 + (int64_t)dt->hour * 3600 + (int64_t)dt->minute * 60 + dt->second -
           (int64_t)dt->offset_minutes * 60;
}

#define MIN_SEC TYJSON__EPOCH_MIN_SEC
#define END_SEC TYJSON__EPOCH_END_SEC

bool tyjson__datetime_from_epoch_sec(int64_t sec, uint32_t nanosecond, tyjson_datetime *dt) {
    if (sec < MIN_SEC || sec >= END_SEC || nanosecond >= 1000000000u) return false;
    /* seconds since 0000-01-01T00:00:00Z: non-negative, below 2^39 */
    u64 s = (u64)(sec - MIN_SEC);
    u32 rem = (u32)(s % 86400);
    civil_from_days0((u32)(s / 86400), &dt->date);
    dt->hour = (uint8_t)(rem / 3600);
    dt->minute = (uint8_t)(rem / 60 % 60);
    dt->second = (uint8_t)(rem % 60);
    dt->nanosecond = nanosecond;
    dt->offset_minutes = 0;
    return true;
}

bool tyjson_datetime_to_epoch_ns(const tyjson_datetime *dt, int64_t *ns) {
    if (!dt || !ns || !datetime_valid(dt)) return false;
    const int64_t giga = 1000000000LL;
    int64_t sec = tyjson__datetime_epoch_sec(dt), frac = (int64_t)dt->nanosecond;
    /* sec * 1e9 + frac must fit; below zero it is computed as
     * (sec + 1) * 1e9 - (1e9 - frac) so that INT64_MIN itself is reached. */
    if (sec >= 0) {
        if (sec > (INT64_MAX - frac) / giga) return false;
        *ns = sec * giga + frac;
        return true;
    }
    if (sec + 1 < INT64_MIN / giga) return false;
    int64_t base = (sec + 1) * giga, sub = giga - frac;
    if (base < INT64_MIN + sub) return false;
    *ns = base - sub;
    return true;
}

bool tyjson_datetime_from_epoch_ns(int64_t ns, tyjson_datetime *dt) {
    if (!dt) return false;
    int64_t sec = ns / 1000000000LL, rem = ns % 1000000000LL;
    if (rem < 0) {
        rem += 1000000000LL;
        sec--;
    }
    return tyjson__datetime_from_epoch_sec(sec, (uint32_t)rem, dt);
}
