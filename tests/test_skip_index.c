/* test_skip_index.c - the validating skip (read/syntax.h) over the
 * structural index against the byte walk: on every container of the corpus
 * files and of generated nests, clean and with single bytes corrupted, the
 * skip must give the same status, position and expectation whichever path
 * (and kernel) runs it. */
#include "test.h"
#include "read/syntax.h"
#include "read/simd.h"
#include "tyjson.h"

#include "dom/parse.h"

static uint64_t rng = 0x51A7E5C0FFEEull;
static uint64_t rnd(void) {
    uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static tyjson__read_res skip_at(const u8 *p, const u8 *end, u32 flags, int level) {
    tyjson_alloc alc = tyjson__alc_or_libc(NULL);
    tyjson__skip_opts o = {end, flags, 0, TYJSON_DEFAULT_MAX_DEPTH, &alc};
    tyjson__simd_set_level(level);
    tyjson__read_res r = tyjson__skip_value(p, &o);
    tyjson__simd_set_level(TYJSON__SIMD_AUTO);
    return r;
}

static long long compared;

/* Every container start in [s, s + len) that is not inside a string,
 * skipped with the portable kernel (byte walk only) and the best level. */
static void check_buffer(const char *name, const u8 *s, size_t len, u32 flags) {
    tyjson__simd_set_level(99);
    int best = tyjson__simd_level();
    bool in = false, esc = false;
    for (size_t i = 0; i < len; i++) {
        u8 c = s[i];
        if (in) {
            if (esc) esc = false;
            else if (c == '\\') esc = true;
            else if (c == '"') in = false;
            continue;
        }
        if (c == '"') in = true;
        if (c != '{' && c != '[') continue;
        tyjson__read_res a = skip_at(s + i, s + len, flags, TYJSON__SIMD_SCALAR);
        tyjson__read_res b = skip_at(s + i, s + len, flags, best);
        compared++;
        if (a.err != b.err || a.pos != b.pos || (a.err && a.expect != b.expect))
            TEST_FAIL("%s at %zu: byte walk %s at %zu, level %d %s at %zu", name, i,
                      tyjson_status_name(a.err), (size_t)(a.pos - s), best,
                      tyjson_status_name(b.err), (size_t)(b.pos - s));
    }
}

/* Nested objects and arrays of a few kilobytes, with strings, escapes,
 * numbers and non-ASCII text. */
static size_t gen_nest(char *out, size_t cap) {
    size_t n = 0;
    int depth = 0;
    while (n + 64 < cap) {
        uint64_t r = rnd() % 10;
        if (r < 2 && depth < 20) {
            n += (size_t)sprintf(out + n, "{\"k%u\": [", (unsigned)(rnd() % 100));
            depth++;
        } else if (r < 4 && depth > 0) {
            n += (size_t)sprintf(out + n, "]}");
            depth--;
            if (depth) out[n++] = ',';
            else break;
        } else if (depth) {
            static const char *const atoms[] = {"1", "-2.5e3", "\"caf\xC3\xA9\"", "\"a\\\"b\\\\\"",
                                                "\"\\u00e9\\ud83d\\ude00\"", "true", "null",
                                                "[]", "{}", "\"\xE2\x82\xAC\xF0\x9F\x98\x80\""};
            n += (size_t)sprintf(out + n, "%s,", atoms[rnd() % 10]);
            if (rnd() % 3 == 0) n += (size_t)sprintf(out + n, "\n    ");
        } else {
            n += (size_t)sprintf(out + n, "[");
            depth++;
        }
    }
    while (depth-- > 0 && n + 3 < cap) n += (size_t)sprintf(out + n, "]}");
    return n;
}

TEST(generated_nests) {
    static char buf[1 << 16];
    static const u8 swaps[] = {0x80, 0xC0, 0xE0, 0xED, 0xF0, 0xFF, 0x01, '"', '\\', ' ', '}', ']', ','};
    for (int iter = 0; iter < 200; iter++) {
        size_t n = gen_nest(buf, 512 + (size_t)(rnd() % (sizeof(buf) - 600)));
        check_buffer("nest", (const u8 *)buf, n, 0);
        size_t at = (size_t)(rnd() % n);
        char old = buf[at];
        buf[at] = (char)swaps[rnd() % sizeof(swaps)];
        check_buffer("nest (corrupted)", (const u8 *)buf, n, 0);
        check_buffer("nest (bignum as raw)", (const u8 *)buf, n, TYJSON_READ_BIGNUM_AS_RAW);
        buf[at] = old;
    }
    printf("  %lld skips compared\n", compared);
}

TEST(corpus_containers) {
    static const char *const files[] = {"twitter.json", "citm_catalog.json", "github_events.json",
                                        "twitterescaped.json"};
    char path[1024];
    int found = 0;
    for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
        char rel[256];
        snprintf(rel, sizeof(rel), "corpus/%s", files[f]);
        test_shared_path(rel, path, sizeof(path));
        size_t len = 0;
        char *dat = test_read_file(path, &len);
        if (!dat) continue;
        found++;
        /* a prefix keeps the quadratic walk (every container to its end) short */
        size_t n = len < 60000 ? len : 60000;
        check_buffer(files[f], (const u8 *)dat, n, 0);
        free(dat);
    }
    if (!found) {
        if (test_require_shared()) TEST_FAIL("corpus missing near %s", path);
        TEST_SKIP("corpus not found");
    }
    printf("  %lld skips compared in all\n", compared);
}

/* A skip that goes to the index part-way: the byte walk passes its switch
 * point (512 bytes) in a long string, an object's member at some depth, and the index walk
 * goes on from there with the open containers (one bit each; past 1024
 * levels they are on the heap). It must end where the byte walk ends, agree
 * on every error after the switch point, and keep the depth limit. */
static tyjson__read_res skip_depth(const u8 *p, const u8 *end, u32 max_depth, int level) {
    tyjson_alloc alc = tyjson__alc_or_libc(NULL);
    tyjson__skip_opts o = {end, 0, 0, max_depth, &alc};
    tyjson__simd_set_level(level);
    tyjson__read_res r = tyjson__skip_value(p, &o);
    tyjson__simd_set_level(TYJSON__SIMD_AUTO);
    return r;
}

TEST(switch_to_index_deep_inside) {
    static char buf[65536]; /* depth 1500: about 18 KiB */
    static const u8 swaps[] = {0x80, 0x01, '"', '\\', ' ', '}', ']', ',', ':', 'x'};
    static const size_t depths[] = {1, 3, 40, 1500};
    tyjson__simd_set_level(99);
    int best = tyjson__simd_level();
    for (size_t k = 0; k < sizeof(depths) / sizeof(depths[0]); k++) {
        size_t d = depths[k], n = 0;
        u32 need = (u32)d + 2; /* the levels, the object with the string, its array */
        for (size_t i = 0; i < d; i++) {
            if (i % 2 == 0) {
                n += (size_t)sprintf(buf + n, "{\"k\":");
            } else {
                buf[n++] = '[';
                if (i + 3 > need) need = (u32)i + 3; /* its {"z": [null]} */
            }
        }
        n += (size_t)sprintf(buf + n, "{\"s\":\"");
        for (int i = 0; i < 600; i++) buf[n++] = (char)('a' + i % 26);
        n += (size_t)sprintf(buf + n, "\", \"t\": [-1.5e3, true]}");
        for (size_t i = d; i-- > 0;) n += (size_t)sprintf(buf + n, i % 2 ? ", {\"z\": [null]}]" : "}");
        const u8 *s = (const u8 *)buf, *e = s + n;
        tyjson__read_res a = skip_depth(s, e, need, TYJSON__SIMD_SCALAR);
        tyjson__read_res b = skip_depth(s, e, need, best);
        ASSERT_TRUE(a.err == TYJSON_OK && a.pos == e);
        ASSERT_TRUE(b.err == TYJSON_OK && b.pos == e);
        a = skip_depth(s, e, need - 1, TYJSON__SIMD_SCALAR);
        b = skip_depth(s, e, need - 1, best);
        ASSERT_TRUE(a.err == TYJSON_E_DEPTH && b.err == TYJSON_E_DEPTH && a.pos == b.pos);
        for (size_t at = 512; at < n; at += 7) {
            char old = buf[at];
            buf[at] = (char)swaps[at % sizeof(swaps)];
            a = skip_depth(s, e, 4096, TYJSON__SIMD_SCALAR);
            b = skip_depth(s, e, 4096, best);
            if (a.err != b.err || a.pos != b.pos || (a.err && a.expect != b.expect))
                TEST_FAIL("depth %zu, byte %zu: byte walk %s at %zu, level %d %s at %zu", d, at,
                          tyjson_status_name(a.err), (size_t)(a.pos - s), best, tyjson_status_name(b.err),
                          (size_t)(b.pos - s));
            buf[at] = old;
        }
    }
}

/* Numbers near the limits of the validator's own range check: it must say
 * what the parser says, with and without BIGNUM_AS_RAW. */
TEST(validate_numbers_at_the_limits) {
    static const char *const nums[] = {
        "123456789012345678", "1234567890123456789", "12345678901234567890",
        "18446744073709551615", "18446744073709551616", "-9223372036854775808",
        "-9223372036854775809", "1e299", "9.99e299", "1e300", "10e299", "1e308", "1e309",
        "1.7976931348623157e308", "1.7976931348623159e308", "-0", "0e1000", "0e-1000",
        "1.5e-400", "1e-99999", "1e99999", "0.1e310", "00", "01", "-", "1.", "1e", "1e+",
        ".5", "1.5e+3", "-1.5E-3", "123456789012345678901234567890.5", "0.0000000000001e310"};
    static const tyjson_read_flags flag_sets[] = {0, TYJSON_READ_BIGNUM_AS_RAW};
    char text[256];
    for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
        for (size_t f = 0; f < 2; f++) {
            /* long enough that the array is validated over the index */
            int n = snprintf(text, sizeof(text), "[%s, %s, \"padding padding padding\"]", nums[i],
                             nums[i]);
            tyjson_read_options o = {flag_sets[f], 0, NULL};
            tyjson_error pe, ve;
            tyjson_doc *d = tyjson_read_opts(text, (size_t)n, &o, &pe);
            bool valid = tyjson_validate(text, (size_t)n, &o, &ve);
            tyjson_doc_free(d);
            if (valid != (d != NULL) || (!valid && (ve.code != pe.code || ve.offset != pe.offset)))
                TEST_FAIL("%s (flags %u): validate %d %s, parse %s", text, (unsigned)flag_sets[f],
                          (int)valid, tyjson_status_name(ve.code), tyjson_status_name(pe.code));
        }
    }
}

/* ----------------------------------------------------------------------------
 * tyjson_validate's routes: over the index, by the byte walk where the index
 * does not pay (number- or escape-dense text: tyjson__index_pays), or the
 * parse. Whatever the route, kernel and input, validate must say what the
 * parser says, with the parser's error.
 * ------------------------------------------------------------------------- */
static long long validated;

static void check_validate(const char *name, const char *text, size_t n) {
    static const int policies[] = {TYJSON__INDEX_AUTO, TYJSON__INDEX_ALWAYS, TYJSON__INDEX_NEVER};
    static const tyjson_read_flags flag_sets[] = {0, TYJSON_READ_BIGNUM_AS_RAW, TYJSON_READ_STOP_WHEN_DONE};
    tyjson__simd_set_level(99);
    const int levels[] = {TYJSON__SIMD_SCALAR, tyjson__simd_level()};
    for (size_t f = 0; f < sizeof(flag_sets) / sizeof(flag_sets[0]); f++) {
        tyjson_read_options o = {flag_sets[f], 0, NULL};
        tyjson_error pe;
        tyjson__simd_set_level(TYJSON__SIMD_AUTO);
        tyjson__parse_set_index_policy(TYJSON__INDEX_NEVER);
        tyjson_doc *d = tyjson_read_opts(text, n, &o, &pe);
        tyjson_doc_free(d);
        for (size_t k = 0; k < sizeof(policies) / sizeof(policies[0]); k++) {
            for (size_t l = 0; l < 2; l++) {
                tyjson_error ve;
                tyjson__parse_set_index_policy(policies[k]);
                tyjson__simd_set_level(levels[l]);
                bool valid = tyjson_validate(text, n, &o, &ve);
                validated++;
                if (valid != (d != NULL) || (!valid && (ve.code != pe.code || ve.offset != pe.offset)))
                    TEST_FAIL("%s (flags %u, policy %d, level %d): validate %d %s at %zu, parse %s at %zu", name,
                              (unsigned)flag_sets[f], policies[k], levels[l], (int)valid,
                              tyjson_status_name(ve.code), ve.offset, tyjson_status_name(pe.code), pe.offset);
            }
        }
    }
    tyjson__simd_set_level(TYJSON__SIMD_AUTO);
    tyjson__parse_set_index_policy(TYJSON__INDEX_AUTO);
}

/* The text with single bytes replaced (a few places), checked each time. */
static void check_validate_corrupted(const char *name, char *text, size_t n, int times) {
    static const u8 swaps[] = {0x80, 0xC0, 0xED, 0xFF, 0x01, '"', '\\', ' ', '}', ']', ',', '9', 'e', '.', '-'};
    check_validate(name, text, n);
    for (int i = 0; i < times && n; i++) {
        size_t at = (size_t)(rnd() % n);
        char old = text[at];
        text[at] = (char)swaps[rnd() % sizeof(swaps)];
        check_validate(name, text, n);
        text[at] = old;
    }
}

TEST(validate_routes_agree_with_parse) {
    static const char *const files[] = {"twitter.json", "citm_catalog.json", "github_events.json", "canada.json",
                                        "mesh.json", "numbers.json", "twitterescaped.json", "poet.json"};
    char path[1024];
    int found = 0;
    for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
        char rel[256];
        snprintf(rel, sizeof(rel), "corpus/%s", files[f]);
        test_shared_path(rel, path, sizeof(path));
        size_t len = 0;
        char *dat = test_read_file(path, &len);
        if (!dat) continue;
        found++;
        check_validate_corrupted(files[f], dat, len, 6);
        free(dat);
    }
    if (!found && test_require_shared()) TEST_FAIL("corpus missing near %s", path);
    /* generated nests, and number-dense arrays (the byte walk's route under
     * AUTO) whose numbers sit at the limits: without BIGNUM_AS_RAW the parser
     * rejects 1e400 and 2^64, and so must the byte walk */
    static char buf[1 << 14];
    for (int iter = 0; iter < 40; iter++) {
        size_t n = gen_nest(buf, 1200 + (size_t)(rnd() % (sizeof(buf) - 1300)));
        check_validate_corrupted("nest", buf, n, 4);
    }
    static const char *const nums[] = {"1", "-2.5", "0.125e-3", "123456789012345678", "1e400",
                                       "18446744073709551616", "-9223372036854775809", "1.5e308", "1e-400",
                                       "12345678901234567890123.5", "0", "-0.0"};
    for (int iter = 0; iter < 60; iter++) {
        size_t n = 0;
        buf[n++] = '[';
        while (n < 1500 + (size_t)iter * 40) {
            const char *num = nums[rnd() % 4];
            if (rnd() % 40 == 0) num = nums[4 + rnd() % (sizeof(nums) / sizeof(nums[0]) - 4)];
            n += (size_t)sprintf(buf + n, "%s%s", num, rnd() % 3 ? "," : ", ");
        }
        n += (size_t)sprintf(buf + n, "0]");
        check_validate_corrupted("numbers", buf, n, 3);
    }
    printf("  %lld validations compared\n", validated);
}

int main(int argc, char **argv) { return test_main(argc, argv); }
