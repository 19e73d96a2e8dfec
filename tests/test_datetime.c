/* test_datetime.c - ISO-8601 dates and date-times: strict parsing, calendar
 * rules, formatting, and epoch conversion with its 64-bit limits. */
#include "test.h"
#include "tyjson.h"
#include "bind/bind.h"

static bool date_ok(const char *s) {
    tyjson_date d;
    return tyjson_date_parse(s, strlen(s), &d);
}

static bool dt_ok(const char *s) {
    tyjson_datetime d;
    return tyjson_datetime_parse(s, strlen(s), &d);
}

TEST(date_parse_valid) {
    tyjson_date d;
    ASSERT_TRUE(tyjson_date_parse("2024-06-15", 10, &d));
    ASSERT_EQ_INT(d.year, 2024);
    ASSERT_EQ_INT(d.month, 6);
    ASSERT_EQ_INT(d.day, 15);
    ASSERT_TRUE(tyjson_date_parse("0000-01-01", 10, &d));
    ASSERT_EQ_INT(d.year, 0);
    ASSERT_TRUE(tyjson_date_parse("9999-12-31", 10, &d));
    ASSERT_EQ_INT(d.year, 9999);
    ASSERT_EQ_INT(d.day, 31);
}

/* A plain reference for "YYYY-MM-DD" and "YYYY-MM-DDTHH:MM:SSZ": one byte
 * at a time against a pattern, then the ranges. */
static bool ref_fields(const char *s, const char *pat, int *v) {
    int k = 0, acc = 0;
    for (size_t i = 0; pat[i]; i++) {
        unsigned char c = (unsigned char)s[i];
        if (pat[i] == 'd') {
            if (c < '0' || c > '9') return false;
            acc = acc * 10 + (c - '0');
            if (pat[i + 1] != 'd') {
                v[k++] = acc;
                acc = 0;
            }
        } else if (c != (unsigned char)pat[i] &&
                   !((pat[i] == 'T' || pat[i] == 'Z') && c == (unsigned char)(pat[i] | 0x20))) {
            return false; /* RFC 3339: 't' and 'z' too */
        }
    }
    return true;
}

static bool ref_date_ok(int y, int m, int d) {
    static const int dim[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (m < 1 || m > 12 || d < 1) return false;
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return d <= dim[m - 1] + (m == 2 && leap);
}

/* Every byte value at every position of a valid date and date-time: the
 * parser (8-byte lanes on little-endian machines) agrees with the
 * reference, and the fields it reads are right. */
TEST(parse_single_byte_mutations) {
    char s[32];
    for (int kind = 0; kind < 2; kind++) {
        const char *base = kind ? "2024-02-29T23:59:58Z" : "2024-02-29";
        const char *pat = kind ? "dddd-dd-ddTdd:dd:ddZ" : "dddd-dd-dd";
        size_t len = strlen(base);
        for (size_t pos = 0; pos < len; pos++) {
            for (int b = 0; b < 256; b++) {
                memcpy(s, base, len + 1);
                s[pos] = (char)b;
                int v[6] = {0};
                bool want = ref_fields(s, pat, v) && ref_date_ok(v[0], v[1], v[2]) &&
                            (!kind || (v[3] < 24 && v[4] < 60 && v[5] < 60));
                bool got;
                if (kind) {
                    tyjson_datetime dt;
                    got = tyjson_datetime_parse(s, len, &dt);
                    if (got && want &&
                        (dt.date.year != v[0] || dt.date.month != v[1] || dt.date.day != v[2] ||
                         dt.hour != v[3] || dt.minute != v[4] || dt.second != v[5]))
                        TEST_FAIL("\"%s\": fields differ", s);
                } else {
                    tyjson_date d;
                    got = tyjson_date_parse(s, len, &d);
                    if (got && want && (d.year != v[0] || d.month != v[1] || d.day != v[2]))
                        TEST_FAIL("\"%s\": fields differ", s);
                }
                if (got != want) TEST_FAIL("pos %zu byte %d: got %d want %d", pos, b, got, want);
            }
        }
    }
}

TEST(date_parse_leap_years) {
    ASSERT_TRUE(date_ok("2024-02-29"));
    ASSERT_TRUE(date_ok("2000-02-29"));  /* divisible by 400 */
    ASSERT_TRUE(date_ok("0000-02-29"));  /* year 0 is a leap year */
    ASSERT_TRUE(date_ok("1600-02-29"));
    ASSERT_FALSE(date_ok("1900-02-29")); /* divisible by 100 only */
    ASSERT_FALSE(date_ok("2100-02-29"));
    ASSERT_FALSE(date_ok("2023-02-29"));
    ASSERT_FALSE(date_ok("2024-02-30"));
}

TEST(date_parse_days_per_month) {
    static const int dim[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    char buf[48];
    for (int m = 1; m <= 12; m++) {
        snprintf(buf, sizeof(buf), "2023-%02d-%02d", m, dim[m - 1]);
        ASSERT_TRUE(date_ok(buf));
        snprintf(buf, sizeof(buf), "2023-%02d-%02d", m, dim[m - 1] + 1);
        ASSERT_FALSE(date_ok(buf));
        snprintf(buf, sizeof(buf), "2023-%02d-00", m);
        ASSERT_FALSE(date_ok(buf));
    }
}

TEST(date_parse_rejects) {
    ASSERT_FALSE(date_ok("2024-13-01"));
    ASSERT_FALSE(date_ok("2024-00-10"));
    ASSERT_FALSE(date_ok("2024-6-15"));
    ASSERT_FALSE(date_ok("2024-06-1"));
    ASSERT_FALSE(date_ok("2024-06-155"));
    ASSERT_FALSE(date_ok("24-06-15"));
    ASSERT_FALSE(date_ok("2024/06/15"));
    ASSERT_FALSE(date_ok("2024-06-15T"));
    ASSERT_FALSE(date_ok("+2024-06-15"));
    ASSERT_FALSE(date_ok("2024-O6-15"));
    ASSERT_FALSE(date_ok(""));
    ASSERT_FALSE(date_ok("2024-06-1a"));
    tyjson_date d;
    ASSERT_FALSE(tyjson_date_parse("2024-06-15", 9, &d));
    ASSERT_FALSE(tyjson_date_parse(NULL, 10, &d));
}

TEST(datetime_parse_basic) {
    tyjson_datetime dt;
    ASSERT_TRUE(tyjson_datetime_parse("2024-06-15T10:30:00Z", 20, &dt));
    ASSERT_EQ_INT(dt.date.year, 2024);
    ASSERT_EQ_INT(dt.date.month, 6);
    ASSERT_EQ_INT(dt.date.day, 15);
    ASSERT_EQ_INT(dt.hour, 10);
    ASSERT_EQ_INT(dt.minute, 30);
    ASSERT_EQ_INT(dt.second, 0);
    ASSERT_EQ_INT(dt.nanosecond, 0);
    ASSERT_EQ_INT(dt.offset_minutes, 0);
    const char *s = "1999-12-31T23:59:59.123+05:30";
    ASSERT_TRUE(tyjson_datetime_parse(s, strlen(s), &dt));
    ASSERT_EQ_INT(dt.nanosecond, 123000000);
    ASSERT_EQ_INT(dt.offset_minutes, 330);
    s = "1999-12-31T23:59:59-08:00";
    ASSERT_TRUE(tyjson_datetime_parse(s, strlen(s), &dt));
    ASSERT_EQ_INT(dt.offset_minutes, -480);
    s = "2000-01-01T00:00:00-00:00";
    ASSERT_TRUE(tyjson_datetime_parse(s, strlen(s), &dt));
    ASSERT_EQ_INT(dt.offset_minutes, 0);
    s = "2000-01-01T00:00:00+23:59";
    ASSERT_TRUE(tyjson_datetime_parse(s, strlen(s), &dt));
    ASSERT_EQ_INT(dt.offset_minutes, 1439);
}

TEST(datetime_fraction_digits) {
    static const struct { const char *s; uint32_t ns; } cases[] = {
        {"2024-01-01T00:00:00.1Z", 100000000},
        {"2024-01-01T00:00:00.12Z", 120000000},
        {"2024-01-01T00:00:00.123Z", 123000000},
        {"2024-01-01T00:00:00.1234Z", 123400000},
        {"2024-01-01T00:00:00.12345Z", 123450000},
        {"2024-01-01T00:00:00.123456Z", 123456000},
        {"2024-01-01T00:00:00.1234567Z", 123456700},
        {"2024-01-01T00:00:00.12345678Z", 123456780},
        {"2024-01-01T00:00:00.123456789Z", 123456789},
        {"2024-01-01T00:00:00.000000001Z", 1},
        {"2024-01-01T00:00:00.999999999Z", 999999999},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        tyjson_datetime dt;
        ASSERT_TRUE(tyjson_datetime_parse(cases[i].s, strlen(cases[i].s), &dt));
        ASSERT_EQ_UINT(dt.nanosecond, cases[i].ns);
    }
    ASSERT_FALSE(dt_ok("2024-01-01T00:00:00.1234567890Z")); /* 10 digits */
    ASSERT_FALSE(dt_ok("2024-01-01T00:00:00.Z"));
    ASSERT_FALSE(dt_ok("2024-01-01T00:00:00."));
    ASSERT_FALSE(dt_ok("2024-01-01T00:00:00,5Z"));
}

TEST(datetime_parse_rejects) {
    ASSERT_FALSE(dt_ok("2024-06-15T10:30:00"));     /* no zone */
    ASSERT_FALSE(dt_ok("2024-06-15 10:30:00Z"));    /* space */
    ASSERT_TRUE(dt_ok("2024-06-15t10:30:00Z")); /* RFC 3339's lowercase forms */
    ASSERT_TRUE(dt_ok("2024-06-15T10:30:00z"));
    ASSERT_TRUE(dt_ok("2024-06-15t10:30:00.5z"));
    ASSERT_FALSE(dt_ok("2024-06-15t10:30:00{")); /* '{' is 'z' + 1 */
    ASSERT_FALSE(dt_ok("2024-06-15u10:30:00Z"));
    ASSERT_FALSE(dt_ok("2024-06-15T24:00:00Z"));
    ASSERT_FALSE(dt_ok("2024-06-15T23:60:00Z"));
    ASSERT_FALSE(dt_ok("2024-06-15T23:59:60Z"));    /* leap second */
    ASSERT_FALSE(dt_ok("2024-06-15T10:30Z"));
    ASSERT_FALSE(dt_ok("2024-06-15T10:30:00+24:00"));
    ASSERT_FALSE(dt_ok("2024-06-15T10:30:00+05:60"));
    ASSERT_FALSE(dt_ok("2024-06-15T10:30:00+0530"));
    ASSERT_FALSE(dt_ok("2024-06-15T10:30:00+05"));
    ASSERT_FALSE(dt_ok("2024-06-15T10:30:00ZZ"));
    ASSERT_FALSE(dt_ok("2024-06-15T10:30:00Z "));
    ASSERT_FALSE(dt_ok("2024-02-30T10:30:00Z"));
    ASSERT_FALSE(dt_ok("2024-06-15T1:30:00Z"));
    ASSERT_FALSE(dt_ok(""));
    tyjson_datetime dt;
    ASSERT_FALSE(tyjson_datetime_parse("2024-06-15T10:30:00Z", 19, &dt));
}

TEST(date_format) {
    char buf[16];
    tyjson_date d = {2024, 6, 5};
    ASSERT_EQ_UINT(tyjson_date_format(&d, buf), 10);
    ASSERT_EQ_MEM(buf, "2024-06-05", 10);
    tyjson_date z = {7, 1, 1};
    ASSERT_EQ_UINT(tyjson_date_format(&z, buf), 10);
    ASSERT_EQ_MEM(buf, "0007-01-01", 10);
    tyjson_date bad = {2023, 2, 29};
    ASSERT_EQ_UINT(tyjson_date_format(&bad, buf), 0);
    tyjson_date bad2 = {10000, 1, 1};
    ASSERT_EQ_UINT(tyjson_date_format(&bad2, buf), 0);
    tyjson_date bad3 = {-1, 1, 1};
    ASSERT_EQ_UINT(tyjson_date_format(&bad3, buf), 0);
}

static void check_format(const char *in, const char *want) {
    tyjson_datetime dt;
    char buf[40];
    if (!tyjson_datetime_parse(in, strlen(in), &dt)) TEST_FAIL("parse %s", in);
    size_t n = tyjson_datetime_format(&dt, buf);
    buf[n] = 0;
    ASSERT_EQ_STR(buf, want);
}

TEST(datetime_format) {
    check_format("2024-06-15T10:30:00Z", "2024-06-15T10:30:00Z");
    check_format("2024-06-15T10:30:00.5Z", "2024-06-15T10:30:00.500Z");
    check_format("2024-06-15T10:30:00.000Z", "2024-06-15T10:30:00Z");
    check_format("2024-06-15T10:30:00.1234Z", "2024-06-15T10:30:00.123400Z");
    check_format("2024-06-15T10:30:00.0000001Z", "2024-06-15T10:30:00.000000100Z");
    check_format("2024-06-15T10:30:00.123456789-09:30", "2024-06-15T10:30:00.123456789-09:30");
    check_format("2024-06-15T10:30:00+00:05", "2024-06-15T10:30:00+00:05");
    check_format("2024-06-15T10:30:00-00:00", "2024-06-15T10:30:00Z");
    tyjson_datetime dt;
    memset(&dt, 0, sizeof(dt));
    dt.date.year = 2024;
    dt.date.month = 1;
    dt.date.day = 1;
    dt.offset_minutes = -1439;
    dt.nanosecond = 999999999;
    char buf[40];
    size_t n = tyjson_datetime_format(&dt, buf);
    ASSERT_EQ_UINT(n, 35);
    ASSERT_EQ_MEM(buf, "2024-01-01T00:00:00.999999999-23:59", 35);
    dt.offset_minutes = 1440;
    ASSERT_EQ_UINT(tyjson_datetime_format(&dt, buf), 0);
    dt.offset_minutes = 0;
    dt.nanosecond = 1000000000u;
    ASSERT_EQ_UINT(tyjson_datetime_format(&dt, buf), 0);
    dt.nanosecond = 0;
    dt.second = 60;
    ASSERT_EQ_UINT(tyjson_datetime_format(&dt, buf), 0);
}

static int64_t ns_of(const char *s) {
    tyjson_datetime dt;
    int64_t ns = 0;
    if (!tyjson_datetime_parse(s, strlen(s), &dt)) TEST_FAIL("parse %s", s);
    if (!tyjson_datetime_to_epoch_ns(&dt, &ns)) TEST_FAIL("to_epoch_ns %s", s);
    return ns;
}

TEST(epoch_known_values) {
    ASSERT_EQ_INT(ns_of("1970-01-01T00:00:00Z"), 0);
    ASSERT_EQ_INT(ns_of("2024-06-15T10:30:00Z"), 1718447400LL * 1000000000LL);
    ASSERT_EQ_INT(ns_of("2012-03-18T11:00:00Z"), 1332068400000LL * 1000000LL);
    ASSERT_EQ_INT(ns_of("1969-12-31T23:59:59.999999999Z"), -1);
    ASSERT_EQ_INT(ns_of("2000-03-01T00:00:00+01:00"), 951865200LL * 1000000000LL);
    ASSERT_EQ_INT(ns_of("1700-01-01T00:00:00Z") / 1000000000LL, -8520336000LL);
    /* the PhotoAlbum birth date: 3763-02-01 00:00 +01:00 in epoch ms */
    tyjson_datetime dt;
    ASSERT_TRUE(tyjson_datetime_parse("3763-02-01T00:00:00+01:00", 25, &dt));
    ASSERT_EQ_INT(tyjson__datetime_epoch_sec(&dt) * 1000, 56584306800000LL);
    ASSERT_TRUE(tyjson_datetime_parse("0000-01-01T00:00:00Z", 20, &dt));
    ASSERT_EQ_INT(tyjson__datetime_epoch_sec(&dt), -62167219200LL);
    ASSERT_TRUE(tyjson_datetime_parse("9999-12-31T23:59:59Z", 20, &dt));
    ASSERT_EQ_INT(tyjson__datetime_epoch_sec(&dt), 253402300799LL);
}

TEST(epoch_ns_limits) {
    tyjson_datetime dt;
    char buf[40];
    ASSERT_TRUE(tyjson_datetime_from_epoch_ns(INT64_MAX, &dt));
    size_t n = tyjson_datetime_format(&dt, buf);
    buf[n] = 0;
    ASSERT_EQ_STR(buf, "2262-04-11T23:47:16.854775807Z");
    ASSERT_EQ_INT(ns_of(buf), INT64_MAX);
    ASSERT_TRUE(tyjson_datetime_from_epoch_ns(INT64_MIN, &dt));
    n = tyjson_datetime_format(&dt, buf);
    buf[n] = 0;
    ASSERT_EQ_STR(buf, "1677-09-21T00:12:43.145224192Z");
    ASSERT_EQ_INT(ns_of(buf), INT64_MIN);
    int64_t ns;
    const char *s = "2262-04-11T23:47:16.854775808Z";
    ASSERT_TRUE(tyjson_datetime_parse(s, strlen(s), &dt));
    ASSERT_FALSE(tyjson_datetime_to_epoch_ns(&dt, &ns));
    s = "1677-09-21T00:12:43.145224191Z";
    ASSERT_TRUE(tyjson_datetime_parse(s, strlen(s), &dt));
    ASSERT_FALSE(tyjson_datetime_to_epoch_ns(&dt, &ns));
    s = "9999-12-31T23:59:59Z";
    ASSERT_TRUE(tyjson_datetime_parse(s, strlen(s), &dt));
    ASSERT_FALSE(tyjson_datetime_to_epoch_ns(&dt, &ns));
    /* an offset can push an in-range wall time out of range */
    s = "2262-04-11T23:47:16.854775807-00:01";
    ASSERT_TRUE(tyjson_datetime_parse(s, strlen(s), &dt));
    ASSERT_FALSE(tyjson_datetime_to_epoch_ns(&dt, &ns));
    /* invalid records are refused */
    memset(&dt, 0, sizeof(dt));
    ASSERT_FALSE(tyjson_datetime_to_epoch_ns(&dt, &ns)); /* month 0 */
}

TEST(epoch_negative_floor) {
    tyjson_datetime dt;
    ASSERT_TRUE(tyjson_datetime_from_epoch_ns(-1, &dt));
    ASSERT_EQ_INT(dt.date.year, 1969);
    ASSERT_EQ_INT(dt.date.month, 12);
    ASSERT_EQ_INT(dt.date.day, 31);
    ASSERT_EQ_INT(dt.hour, 23);
    ASSERT_EQ_INT(dt.minute, 59);
    ASSERT_EQ_INT(dt.second, 59);
    ASSERT_EQ_INT(dt.nanosecond, 999999999);
    ASSERT_TRUE(tyjson_datetime_from_epoch_ns(-1000000000LL, &dt));
    ASSERT_EQ_INT(dt.second, 59);
    ASSERT_EQ_INT(dt.nanosecond, 0);
}

/* Every day of years 0-9999: day numbers are consecutive, and converting
 * back gives the same date. */
TEST(epoch_every_day_round_trip) {
    tyjson_datetime dt;
    memset(&dt, 0, sizeof(dt));
    int64_t prev = 0;
    long days = 0;
    for (int32_t y = 0; y <= 9999; y++) {
        bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        static const int dim[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
        for (int m = 1; m <= 12; m++) {
            int nd = dim[m - 1] + (m == 2 && leap);
            for (int d = 1; d <= nd; d++) {
                dt.date.year = y;
                dt.date.month = (uint8_t)m;
                dt.date.day = (uint8_t)d;
                int64_t sec = tyjson__datetime_epoch_sec(&dt);
                if (days && sec != prev + 86400) TEST_FAIL("%d-%d-%d not consecutive", y, m, d);
                prev = sec;
                days++;
                tyjson_datetime back;
                if (!tyjson__datetime_from_epoch_sec(sec + 86399, 0, &back) ||
                    back.date.year != y || back.date.month != m || back.date.day != d ||
                    back.hour != 23 || back.second != 59)
                    TEST_FAIL("%d-%d-%d did not come back", y, m, d);
            }
        }
    }
    ASSERT_EQ_INT(days, 3652425); /* 25 cycles of 146097 days */
    tyjson_datetime back;
    ASSERT_FALSE(tyjson__datetime_from_epoch_sec(253402300800LL, 0, &back));
    ASSERT_FALSE(tyjson__datetime_from_epoch_sec(-62167219201LL, 0, &back));
}

TEST(parse_format_round_trip_samples) {
    static const char *const samples[] = {
        "0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999+23:59",
        "2016-02-29T12:00:00.000001-12:00", "1970-01-01T00:00:00.100Z",
    };
    for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++)
        check_format(samples[i], samples[i]);
}

int main(int argc, char **argv) { return test_main(argc, argv); }
