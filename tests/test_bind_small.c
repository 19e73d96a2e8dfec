/* test_bind_small.c - the decoder's fast paths for small messages.
 *
 * Two ways of reading: inputs of up to a few hundred bytes are decoded from
 * a zero-padded copy (src/bind/decode.h, SMALL_INPUT), longer ones from the
 * caller's bytes. Both must give the same
 * result, the same error (status, offset, message, path) and the same
 * consumed length, and what a decode hands out (borrowed strings, RAW
 * spans) must point into the caller's input, never into the copy.
 *
 * The long form of a document is the same text after 300 spaces: offsets
 * shift by 300, nothing else changes. Every prefix of each document is
 * decoded both ways, so errors at the very end of a small input (where the
 * copy's zero padding follows) are compared too.
 *
 * The inline date shapes ("YYYY-MM-DD", "YYYY-MM-DDTHH:MM:SSZ") are
 * compared with the general string path, which an escaped first digit
 * forces, on chosen strings and over the whole calendar.
 */
#include "test.h"
#include "tyjson.h"

#include "fixtures/bind_types.h"

#include <stdlib.h>

#define LEAD 300

static tyjson_arena arena;

typedef struct outcome {
    tyjson_status code;
    size_t offset;
    char msg[TYJSON_ERROR_MSG_MAX];
    char path[sizeof(((tyjson_error *)0)->path)];
    size_t read_size;
    char *text; /* the decoded value encoded again (success only) */
    size_t text_len;
} outcome;

/* Decodes text[0, n) as type after `lead` spaces; the outcome's offsets are
 * those within text. */
static outcome decode_with_lead(tyjson_struct *type, const char *text, size_t n, size_t lead,
                                tyjson_decode_flags flags, tyjson_read_flags rflags) {
    outcome o;
    memset(&o, 0, sizeof(o));
    char *buf = malloc(lead + n + 1);
    ASSERT_NOT_NULL(buf);
    memset(buf, ' ', lead);
    memcpy(buf + lead, text, n);
    void *out = calloc(1, type->size);
    ASSERT_NOT_NULL(out);
    tyjson_error err;
    size_t read_size = 0;
    tyjson_decode_options opts = {flags, rflags, 0, &read_size};
    tyjson_arena_reset(&arena);
    o.code = tyjson_decode(type, out, buf, lead + n, &arena, &opts, &err);
    o.offset = o.code == TYJSON_OK ? 0 : err.offset - lead;
    ASSERT_TRUE(o.code == TYJSON_OK || err.offset >= lead);
    snprintf(o.msg, sizeof(o.msg), "%s", o.code == TYJSON_OK ? "" : err.msg);
    snprintf(o.path, sizeof(o.path), "%s", o.code == TYJSON_OK ? "" : err.path);
    o.read_size = read_size ? read_size - lead : 0;
    if (o.code == TYJSON_OK) {
        tyjson_write_options wo = {TYJSON_WRITE_ALLOW_INF_NAN, 0, NULL};
        o.text = tyjson_encode(type, out, &wo, &o.text_len, NULL);
        ASSERT_NOT_NULL(o.text);
    }
    free(out);
    free(buf);
    return o;
}

/* Every prefix of doc (and doc itself) decodes alike from the copy and from
 * the caller's bytes. Returns how many prefixes decoded successfully. */
static int check_prefixes(tyjson_struct *type, const char *doc, tyjson_decode_flags flags,
                          tyjson_read_flags rflags) {
    size_t len = strlen(doc);
    int ok = 0;
    ASSERT_TRUE(len <= 200); /* its short form takes the copy */
    for (size_t n = 0; n <= len; n++) {
        outcome a = decode_with_lead(type, doc, n, 0, flags, rflags);
        outcome b = decode_with_lead(type, doc, n, LEAD, flags, rflags);
        if (a.code != b.code || a.offset != b.offset || strcmp(a.msg, b.msg) != 0 ||
            strcmp(a.path, b.path) != 0 || a.read_size != b.read_size)
            TEST_FAIL("prefix %zu of %s: copy %s at %zu \"%s\" %s (read %zu), caller's bytes %s at "
                      "%zu \"%s\" %s (read %zu)",
                      n, doc, tyjson_status_name(a.code), a.offset, a.msg, a.path, a.read_size,
                      tyjson_status_name(b.code), b.offset, b.msg, b.path, b.read_size);
        if (a.code == TYJSON_OK) {
            ok++;
            ASSERT_EQ_UINT(a.text_len, b.text_len);
            ASSERT_EQ_MEM(a.text, b.text, a.text_len);
        }
        free(a.text);
        free(b.text);
    }
    return ok;
}

TEST(prefixes_everything) {
    static const char *const docs[] = {
        "{\"b\":true,\"i8\":-7,\"i16\":300,\"i32\":12,\"i64\":-9007199254740993,\"u8\":255,"
        "\"u16\":7,\"u32\":4000000000,\"u64\":18446744073709551615,\"f32\":1.5,\"f64\":95.5}",
        "{\"str\":\"Alice\",\"cstr\":\"c\\u00e9\",\"chars\":\"abc\",\"color\":\"green\","
        "\"pt\":{\"x\":1,\"y\":2},\"node\":{\"v\":1,\"next\":null},\"date\":\"2024-06-15\"}",
        "{\"dt\":\"2024-06-15T10:30:00Z\",\"ms\":\"1970-01-01T00:00:01Z\",\"ns\":12,"
        "\"val\":{\"a\":[1,2]},\"raw\":[true,null],\"hex\":\"ff\",\"fixed\":[1,2,3]}",
        "{\"tags\":[\"a\",\"b\\n\"],\"pts\":[{\"x\":1,\"y\":2}],\"pps\":[{\"x\":3,\"y\":4},null],"
        "\"list\":[{\"x\":5,\"y\":6}],\"strict\":{\"a\":1},\"opt\":3,\"dflt\":null}",
        "{\n  \"i32\": 30,\n  \"str\": \"x\",\n  \"f64\": 1e3,\n  \"b\": false\n}",
        "{\"f64\":95.5,\"i32\":30,\"str\":\"Alice\",\"b\":true}",
        "{\"i8\":300}",
        "{\"u8\":-1,\"b\":1}",
        "{\"str\":\"\\ud800\"}",
        "{\"f32\":1e39}",
        "{\"f64\":1.}",
        "{\"unknown\":[1,{\"x\":\"y\"}],\"i32\":5}",
        "{\"i32\":1,\"i32\":2}",
        "{\"str\":\"bad \x01 control\"}",
        "{\"str\":\"\xc3\"}",
        "{\"strict\":{\"b\":\"no a\"}}",
        "[1]",
        "{\"i32\":7} x",
    };
    int ok = 0;
    for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
        ok += check_prefixes(&everything_type, docs[i], 0, 0);
        ok += check_prefixes(&everything_type, docs[i], TYJSON_DECODE_BORROW, 0);
    }
    /* copying and borrowing: the eight valid documents, and the last one's
     * prefixes "{\"i32\":7}" and "{\"i32\":7} " */
    ASSERT_EQ_INT(ok, 20);
}

TEST(prefixes_read_flags) {
    static const char *const docs[] = {
        "{\"i32\":1,/* c */\"f64\":-Infinity,\"tags\":[\"a\",],}",
        "{\"f64\":NaN,\"i32\":2} {\"i32\":3}",
        "{\"i32\":1,\"i32\":2}",
    };
    tyjson_read_flags rf = TYJSON_READ_ALLOW_COMMENTS | TYJSON_READ_ALLOW_INF_NAN |
                           TYJSON_READ_ALLOW_TRAILING_COMMAS | TYJSON_READ_STOP_WHEN_DONE;
    int ok = 0;
    for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
        ok += check_prefixes(&everything_type, docs[i], 0, rf);
        ok += check_prefixes(&everything_type, docs[i], 0, TYJSON_READ_REJECT_DUPLICATE_KEYS);
    }
    /* the first and third documents whole with the relaxations; with
     * STOP_WHEN_DONE every prefix of the second from its first value's end
     * (11); with REJECT_DUPLICATE_KEYS none */
    ASSERT_EQ_INT(ok, 13);
}

/* Borrowed strings and RAW spans point into the caller's input, for a
 * small input (decoded from the copy) as for a long one. */
TEST(borrowed_pointers_in_caller_input) {
    static const char doc[] = "{\"str\":\"Alice\",\"raw\":[1, 2]}";
    for (size_t lead = 0; lead <= LEAD; lead += LEAD) {
        size_t n = lead + sizeof(doc) - 1;
        char *buf = malloc(n);
        ASSERT_NOT_NULL(buf);
        memset(buf, ' ', lead);
        memcpy(buf + lead, doc, sizeof(doc) - 1);
        everything e;
        tyjson_decode_options opts = {TYJSON_DECODE_BORROW, 0, 0, NULL};
        tyjson_arena_reset(&arena);
        ASSERT_EQ_INT(tyjson_decode(&everything_type, &e, buf, n, &arena, &opts, NULL), TYJSON_OK);
        ASSERT_TRUE(e.str.ptr == buf + lead + 8);
        ASSERT_EQ_UINT(e.str.len, 5);
        ASSERT_TRUE(e.raw.ptr == buf + lead + 21);
        ASSERT_EQ_MEM(e.raw.ptr, "[1, 2]", 6);
        ASSERT_EQ_UINT(e.raw.len, 6);
        free(buf);
    }
}

/* The inline date shapes ("YYYY-MM-DD" for DATE, "YYYY-MM-DDTHH:MM:SSZ"
 * for EPOCH_MS) against the general string path, which an escaped first
 * digit forces: the same value, or the same error and message. */
TEST(date_shapes_match_general_path) {
    static const char *const dates[] = {
        "2024-06-15", "0000-01-01", "9999-12-31", "2024-02-29", "2023-02-29", "2023-02-28",
        "2024-13-01", "2024-00-10", "2024-04-31", "2024-04-30", "2024-06-00", "2024/06/15",
        "20a4-06-15", "2024-6-15x",
    };
    static const char *const instants[] = {
        "2024-06-15T10:30:00Z", "2024-06-15t10:30:00z", "1970-01-01T00:00:00Z",
        "0000-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "1969-12-31T23:59:59Z",
        "2024-02-29T12:00:00Z", "2023-02-29T12:00:00Z", "2024-06-15T24:00:00Z",
        "2024-06-15T10:60:00Z", "2024-06-15T10:30:60Z", "2024-06-15X10:30:00Z",
        "2024-06-15T10:30:00+", "2024-06-15T10-30:00Z", "2024-06-15T1a:30:00Z",
    };
    for (int kind = 0; kind < 2; kind++) {
        const char *const *list = kind ? instants : dates;
        size_t n = kind ? sizeof(instants) / sizeof(instants[0]) : sizeof(dates) / sizeof(dates[0]);
        const char *key = kind ? "ms" : "date";
        int ok = 0;
        for (size_t i = 0; i < n; i++) {
            char plain[96], escaped[96];
            snprintf(plain, sizeof(plain), "{\"%s\":\"%s\"}", key, list[i]);
            snprintf(escaped, sizeof(escaped), "{\"%s\":\"\\u00%02x%s\"}", key,
                     (unsigned char)list[i][0], list[i] + 1);
            everything a, b;
            tyjson_error ea, eb;
            tyjson_arena_reset(&arena);
            tyjson_status sa = tyjson_decode(&everything_type, &a, plain, strlen(plain), &arena, NULL, &ea);
            tyjson_status sb =
                tyjson_decode(&everything_type, &b, escaped, strlen(escaped), &arena, NULL, &eb);
            ASSERT_EQ_INT(sa, sb);
            if (sa != TYJSON_OK) {
                ASSERT_EQ_STR(ea.msg, eb.msg);
                ASSERT_EQ_UINT(ea.offset, eb.offset);
                continue;
            }
            ok++;
            ASSERT_EQ_INT(a.ms, b.ms);
            ASSERT_EQ_INT(a.date.year, b.date.year);
            ASSERT_EQ_INT(a.date.month, b.date.month);
            ASSERT_EQ_INT(a.date.day, b.date.day);
        }
        ASSERT_EQ_INT(ok, kind ? 7 : 6);
    }
    /* the values themselves */
    everything e;
    tyjson_arena_reset(&arena);
    static const char doc[] = "{\"date\":\"2024-06-15\",\"ms\":\"2024-06-15T10:30:00Z\"}";
    ASSERT_EQ_INT(tyjson_decode(&everything_type, &e, doc, sizeof(doc) - 1, &arena, NULL, NULL),
                  TYJSON_OK);
    ASSERT_EQ_INT(e.date.year, 2024);
    ASSERT_EQ_INT(e.date.month, 6);
    ASSERT_EQ_INT(e.date.day, 15);
    ASSERT_EQ_INT(e.ms, 1718447400000LL);
}

/* The same comparison over the calendar, against a day count kept here:
 * every 13th day of years 0-9999, at a time of day that moves with it, as
 * DATE and as EPOCH_MS. */
static int month_days(int y, int m) {
    static const int dim[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return m == 2 && leap ? 29 : dim[m - 1];
}

TEST(date_shapes_calendar_sweep) {
    int64_t day = 0; /* days since 0000-01-01 */
    int checked = 0;
    for (int y = 0; y <= 9999; y++) {
        for (int m = 1; m <= 12; m++) {
            for (int d = 1; d <= month_days(y, m); d++, day++) {
                if (day % 13) continue;
                int tod = (int)(day * 3607 % 86400);
                char text[64], plain[128], escaped[128];
                snprintf(text, sizeof(text), "%04d-%02d-%02dT%02d:%02d:%02dZ", y, m, d, tod / 3600,
                         tod / 60 % 60, tod % 60);
                snprintf(plain, sizeof(plain), "{\"ms\":\"%s\",\"date\":\"%.10s\"}", text, text);
                snprintf(escaped, sizeof(escaped),
                         "{\"ms\":\"\\u00%02x%s\",\"date\":\"\\u00%02x%.9s\"}",
                         (unsigned char)text[0], text + 1, (unsigned char)text[0], text + 1);
                everything a, b;
                tyjson_arena_reset(&arena);
                if (tyjson_decode(&everything_type, &a, plain, strlen(plain), &arena, NULL, NULL) !=
                        TYJSON_OK ||
                    tyjson_decode(&everything_type, &b, escaped, strlen(escaped), &arena, NULL,
                                  NULL) != TYJSON_OK)
                    TEST_FAIL("%s does not decode", text);
                int64_t want = (-62167219200LL + day * 86400 + tod) * 1000;
                if (a.ms != want || b.ms != want || a.date.year != y || a.date.month != m ||
                    a.date.day != d || b.date.year != y || b.date.month != m || b.date.day != d)
                    TEST_FAIL("%s: %lld and %lld, want %lld", text, (long long)a.ms,
                              (long long)b.ms, (long long)want);
                checked++;
            }
        }
    }
    ASSERT_EQ_INT(checked, (3652425 + 12) / 13); /* days 0, 13, ... of 3652425 */
}

int main(int argc, char **argv) {
    tyjson_arena_init(&arena, NULL);
    int rc = test_main(argc, argv);
    tyjson_arena_free(&arena);
    return rc;
}
