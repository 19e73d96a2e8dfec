/*
 * test_write.c - exact-output tests of the DOM writer (write.c), the
 * string escaper (str_write.c) and the output core (wbuf.c): every escape,
 * ESCAPE_UNICODE/ESCAPE_SLASH, invalid UTF-8, pretty layout, special
 * numbers, every sink (heap, fixed buffer, FILE, file, callback), deep
 * nesting without recursion, mutable values and allocation failures.
 */
#include "test.h"
#include "tyjson.h"

#include <math.h>
#include <stdint.h>

/* ----------------------------------------------------------------------------
 * MARK: - Helpers
 * ------------------------------------------------------------------------- */

/* Builds immutable values by hand (document order, containers patched with
 * their length and subtree size when closed). */
typedef struct vb {
    tyjson_val *v;
    size_t n, cap;
    size_t open[64];
    size_t depth;
} vb;

static void vb_init(vb *b) {
    memset(b, 0, sizeof(*b));
    b->cap = 64;
    b->v = (tyjson_val *)malloc(b->cap * sizeof(tyjson_val));
}
static tyjson_val *vb_push(vb *b, uint64_t tag) {
    if (b->n == b->cap) {
        b->cap *= 2;
        b->v = (tyjson_val *)realloc(b->v, b->cap * sizeof(tyjson_val));
    }
    tyjson_val *v = &b->v[b->n++];
    v->tag = tag;
    v->uni.u64 = 0;
    return v;
}
static void vb_strn(vb *b, const char *s, size_t len) {
    vb_push(b, TYJSON_TYPE_STR | ((uint64_t)len << TYJSON__LEN_SHIFT))->uni.str = s;
}
static void vb_str(vb *b, const char *s) { vb_strn(b, s, strlen(s)); }
static void vb_real(vb *b, double d) {
    vb_push(b, TYJSON_TYPE_NUM | TYJSON_SUBTYPE_REAL)->uni.f64 = d;
}
static void vb_uint(vb *b, uint64_t u) {
    vb_push(b, TYJSON_TYPE_NUM | TYJSON_SUBTYPE_UINT)->uni.u64 = u;
}
static void vb_sint(vb *b, int64_t i) {
    vb_push(b, TYJSON_TYPE_NUM | TYJSON_SUBTYPE_SINT)->uni.i64 = i;
}
static void vb_begin(vb *b, uint64_t type) {
    b->open[b->depth++] = b->n;
    vb_push(b, type);
}
/* `count` children (members for objects). */
static void vb_end(vb *b, size_t count) {
    size_t at = b->open[--b->depth];
    b->v[at].tag |= (uint64_t)count << TYJSON__LEN_SHIFT;
    b->v[at].uni.ofs = b->n - at;
}

/* Writes with flags (and indent) or fails the test. */
static char *wr(const tyjson_val *v, uint32_t flags, uint32_t indent, size_t *len) {
    tyjson_write_options o = {flags, indent, NULL};
    tyjson_error err;
    char *s = tyjson_val_write_opts(v, &o, len, &err);
    if (!s) TEST_FAIL("write failed: %s", err.msg);
    if (err.code != TYJSON_OK) TEST_FAIL("err.code not OK on success");
    return s;
}

/* Parses `json` (strictly) and writes it; compares with `want`. */
#define ASSERT_REWRITE(json, flags, indent, want)                              \
    do {                                                                       \
        tyjson_doc *rw_doc = tyjson_read((json), strlen(json), 0);             \
        ASSERT_NOT_NULL(rw_doc);                                               \
        size_t rw_len;                                                         \
        char *rw_s = wr(tyjson_doc_get_root(rw_doc), (flags), (indent), &rw_len); \
        ASSERT_EQ_STR(rw_s, (want));                                           \
        ASSERT_EQ_UINT(rw_len, strlen(want));                                  \
        free(rw_s);                                                            \
        tyjson_doc_free(rw_doc);                                               \
    } while (0)

/* One string value written with flags. */
static char *wr_str(const char *s, size_t n, uint32_t flags, tyjson_error *err) {
    tyjson_val v;
    v.tag = TYJSON_TYPE_STR | ((uint64_t)n << TYJSON__LEN_SHIFT);
    v.uni.str = s;
    tyjson_write_options o = {flags, 0, NULL};
    return tyjson_val_write_opts(&v, &o, NULL, err);
}

#define ASSERT_STR_OUT(in, n, flags, want)                                     \
    do {                                                                       \
        tyjson_error so_err;                                                   \
        char *so = wr_str((in), (n), (flags), &so_err);                        \
        if (!so) TEST_FAIL("string write failed: %s", so_err.msg);             \
        ASSERT_EQ_STR(so, (want));                                             \
        free(so);                                                              \
    } while (0)

/* Reference escaper for valid UTF-8, written for clarity: one code point
 * at a time. */
static size_t ref_escape(const unsigned char *s, size_t n, uint32_t flags, char *out) {
    static const char hx[] = "0123456789abcdef";
    size_t o = 0, i = 0;
    out[o++] = '"';
    while (i < n) {
        unsigned c = s[i];
        uint32_t cp;
        size_t len;
        if (c < 0x80) { cp = c; len = 1; }
        else if (c < 0xE0) { cp = ((c & 0x1Fu) << 6) | (s[i + 1] & 0x3Fu); len = 2; }
        else if (c < 0xF0) { cp = ((c & 0x0Fu) << 12) | ((s[i + 1] & 0x3Fu) << 6) | (s[i + 2] & 0x3Fu); len = 3; }
        else { cp = ((c & 0x07u) << 18) | ((s[i + 1] & 0x3Fu) << 12) | ((s[i + 2] & 0x3Fu) << 6) | (s[i + 3] & 0x3Fu); len = 4; }
        const char *short_esc = NULL;
        switch (cp) {
        case '"': short_esc = "\\\""; break;
        case '\\': short_esc = "\\\\"; break;
        case '\b': short_esc = "\\b"; break;
        case '\f': short_esc = "\\f"; break;
        case '\n': short_esc = "\\n"; break;
        case '\r': short_esc = "\\r"; break;
        case '\t': short_esc = "\\t"; break;
        case '/': if (flags & TYJSON_WRITE_ESCAPE_SLASH) short_esc = "\\/"; break;
        default: break;
        }
        if (short_esc) {
            memcpy(out + o, short_esc, 2);
            o += 2;
        } else if (cp < 0x20 || (cp >= 0x80 && (flags & TYJSON_WRITE_ESCAPE_UNICODE))) {
            uint32_t u[2];
            int k = 0;
            if (cp >= 0x10000) {
                u[k++] = 0xD800 + ((cp - 0x10000) >> 10);
                u[k++] = 0xDC00 + ((cp - 0x10000) & 0x3FF);
            } else {
                u[k++] = cp;
            }
            for (int j = 0; j < k; j++) {
                out[o++] = '\\';
                out[o++] = 'u';
                for (int sh = 12; sh >= 0; sh -= 4) out[o++] = hx[(u[j] >> sh) & 15];
            }
        } else {
            memcpy(out + o, s + i, len);
            o += len;
        }
        i += len;
    }
    out[o++] = '"';
    out[o] = 0;
    return o;
}

static uint64_t rng_state = 88172645463325252ull;
static uint64_t rng(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static size_t utf8_put(unsigned char *d, uint32_t cp) {
    if (cp < 0x80) { d[0] = (unsigned char)cp; return 1; }
    if (cp < 0x800) { d[0] = (unsigned char)(0xC0 | (cp >> 6)); d[1] = (unsigned char)(0x80 | (cp & 0x3F)); return 2; }
    if (cp < 0x10000) {
        d[0] = (unsigned char)(0xE0 | (cp >> 12));
        d[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        d[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    d[0] = (unsigned char)(0xF0 | (cp >> 18));
    d[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
    d[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    d[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Random valid UTF-8 with a mix of clean runs, specials and non-ASCII. */
static size_t rand_utf8(unsigned char *d, size_t max) {
    size_t n = 0;
    size_t target = (size_t)(rng() % max);
    int mode = (int)(rng() % 4);
    while (n + 4 <= target) {
        uint64_t r = rng() % 100;
        uint32_t cp;
        if (mode == 0 || r < 60) cp = 'a' + (uint32_t)(rng() % 26);
        else if (r < 70) { static const char sp[] = "\"\\/\b\f\n\r\t\x01\x1f\x7f "; cp = (unsigned char)sp[rng() % (sizeof(sp) - 1)]; }
        else if (r < 80) cp = 0x80 + (uint32_t)(rng() % 0x780);
        else if (r < 92) { do cp = 0x800 + (uint32_t)(rng() % 0xF800); while (cp >= 0xD800 && cp <= 0xDFFF); }
        else cp = 0x10000 + (uint32_t)(rng() % 0x100000);
        n += utf8_put(d + n, cp);
    }
    return n;
}

/* ----------------------------------------------------------------------------
 * MARK: - Strings
 * ------------------------------------------------------------------------- */

TEST(string_every_escape) {
    char in[40];
    size_t n = 0;
    for (int c = 0; c < 0x20; c++) in[n++] = (char)c;
    in[n++] = '"';
    in[n++] = '\\';
    in[n++] = '/';
    in[n++] = 0x7F;
    in[n++] = 'x';
    ASSERT_STR_OUT(in, n, 0,
                   "\"\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007"
                   "\\b\\t\\n\\u000b\\f\\r\\u000e\\u000f"
                   "\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017"
                   "\\u0018\\u0019\\u001a\\u001b\\u001c\\u001d\\u001e\\u001f"
                   "\\\"\\\\/\x7Fx\"");
    ASSERT_STR_OUT(in + 0x20, 5, TYJSON_WRITE_ESCAPE_SLASH, "\"\\\"\\\\\\/\x7Fx\"");
    ASSERT_STR_OUT("", 0, 0, "\"\"");
    ASSERT_STR_OUT(NULL, 0, 0, "\"\"");
    ASSERT_STR_OUT("plain text, longer than eight bytes", 35, 0,
                   "\"plain text, longer than eight bytes\"");
}

TEST(string_escape_at_every_position) {
    /* One special byte at each offset of a 40-byte clean run: exercises the
     * SWAR word, its first-flagged-byte search and the tail loop. */
    for (size_t len = 1; len <= 40; len++) {
        for (size_t at = 0; at < len; at++) {
            char in[41], want[64];
            memset(in, 'a', len);
            in[at] = '\n';
            size_t o = 0;
            want[o++] = '"';
            for (size_t i = 0; i < len; i++) {
                if (i == at) { want[o++] = '\\'; want[o++] = 'n'; }
                else want[o++] = 'a';
            }
            want[o++] = '"';
            want[o] = 0;
            ASSERT_STR_OUT(in, len, 0, want);
        }
    }
}

/* Each byte class at each offset of runs up to 70 bytes, with and without
 * ESCAPE_SLASH: the 16-byte vector step (SSE2 on x86-64) and the 8-byte
 * one must flag exactly the bytes that need escaping, and nothing next to
 * them (0x7F, ' ' and '/' stay as they are without the flag). */
TEST(string_each_class_at_every_position) {
    static const unsigned char bytes[] = {'\n', '"', '\\', 0x01, 0x1F, 0x7F, ' ', '/', 0xC3};
    for (size_t b = 0; b < sizeof(bytes); b++) {
        for (size_t len = 1; len <= 70; len++) {
            for (size_t at = 0; at < len; at++) {
                for (int slash = 0; slash < 2; slash++) {
                    unsigned char in[72];
                    char want[80];
                    memset(in, 'a', len);
                    in[at] = bytes[b];
                    size_t n = len;
                    if (bytes[b] == 0xC3) { /* U+00E9, two bytes */
                        if (at + 1 == len) continue;
                        in[at + 1] = 0xA9;
                    }
                    tyjson_write_flags fl = slash ? TYJSON_WRITE_ESCAPE_SLASH : 0;
                    size_t wl = ref_escape(in, n, fl, want);
                    want[wl] = 0;
                    tyjson_error err;
                    char *got = wr_str((const char *)in, n, fl, &err);
                    if (!got) TEST_FAIL("byte %02x len %zu at %zu: %s", bytes[b], len, at, err.msg);
                    if (strcmp(got, want) != 0)
                        TEST_FAIL("byte %02x len %zu at %zu slash %d: %s != %s", bytes[b], len, at,
                                  slash, got, want);
                    free(got);
                }
            }
        }
    }
}

/* An invalid sequence replaced with U+FFFD where it straddles the end of
 * the escaper's 512-byte input block, after non-ASCII text earlier in the
 * block: the replacement left the cursor past the block end, and the next
 * special byte made the scanner run from beyond its limit (found by
 * fuzz_parse). */
TEST(string_replacement_across_block_end) {
    for (size_t at = 500; at <= 520; at++) {
        char in[700], want[1400];
        size_t n = 0, o = 0;
        want[o++] = '"';
        memset(in, 'a', 400);
        memset(want + o, 'a', 400);
        n += 400;
        o += 400;
        memcpy(in + n, "\xc3\xa9", 2); /* é: the scanner path */
        memcpy(want + o, "\xc3\xa9", 2);
        n += 2;
        o += 2;
        while (n < at) {
            in[n++] = 'b';
            want[o++] = 'b';
        }
        memcpy(in + n, "\xe2\x82x", 3); /* a 3-byte lead, one continuation, then ASCII */
        memcpy(want + o, "\xef\xbf\xbdx", 4);
        n += 3;
        o += 4;
        for (int i = 0; i < 20; i++) {
            in[n++] = 'c';
            want[o++] = 'c';
        }
        memcpy(in + n, "\xc3\xa9\x01" "d", 4);
        memcpy(want + o, "\xc3\xa9\\u0001d", 9);
        n += 4;
        o += 9;
        want[o++] = '"';
        want[o] = 0;
        ASSERT_STR_OUT(in, n, TYJSON_WRITE_REPLACE_INVALID_UTF8, want);
    }
}

TEST(string_escape_unicode) {
    ASSERT_STR_OUT("\xC3\xA9", 2, TYJSON_WRITE_ESCAPE_UNICODE, "\"\\u00e9\"");
    ASSERT_STR_OUT("\xE2\x82\xAC", 3, TYJSON_WRITE_ESCAPE_UNICODE, "\"\\u20ac\"");
    ASSERT_STR_OUT("\xF0\x9F\x98\x80", 4, TYJSON_WRITE_ESCAPE_UNICODE, "\"\\ud83d\\ude00\"");
    ASSERT_STR_OUT("\xF0\x90\x80\x80", 4, TYJSON_WRITE_ESCAPE_UNICODE, "\"\\ud800\\udc00\"");
    ASSERT_STR_OUT("\xF4\x8F\xBF\xBF", 4, TYJSON_WRITE_ESCAPE_UNICODE, "\"\\udbff\\udfff\"");
    ASSERT_STR_OUT("\xC2\x80", 2, TYJSON_WRITE_ESCAPE_UNICODE, "\"\\u0080\"");
    ASSERT_STR_OUT("\xDF\xBF", 2, TYJSON_WRITE_ESCAPE_UNICODE, "\"\\u07ff\"");
    ASSERT_STR_OUT("\xE0\xA0\x80", 3, TYJSON_WRITE_ESCAPE_UNICODE, "\"\\u0800\"");
    ASSERT_STR_OUT("\xED\x9F\xBF", 3, TYJSON_WRITE_ESCAPE_UNICODE, "\"\\ud7ff\"");
    ASSERT_STR_OUT("\xEE\x80\x80", 3, TYJSON_WRITE_ESCAPE_UNICODE, "\"\\ue000\"");
    ASSERT_STR_OUT("\xEF\xBF\xBF", 3, TYJSON_WRITE_ESCAPE_UNICODE, "\"\\uffff\"");
    ASSERT_STR_OUT("a\xC3\xA9" "b\xE2\x82\xAC\xF0\x9F\x98\x80z", 12, TYJSON_WRITE_ESCAPE_UNICODE,
                   "\"a\\u00e9b\\u20ac\\ud83d\\ude00z\"");
    /* Default: valid UTF-8 written as is. */
    ASSERT_STR_OUT("a\xC3\xA9" "b\xE2\x82\xAC\xF0\x9F\x98\x80z", 12, 0,
                   "\"a\xC3\xA9" "b\xE2\x82\xAC\xF0\x9F\x98\x80z\"");
    ASSERT_STR_OUT("\xE2\x80\xA8", 3, 0, "\"\xE2\x80\xA8\""); /* U+2028 kept */
}

TEST(string_noesc_bit_not_trusted_with_escape_flags) {
    /* The parser marks these NOESC; ESCAPE_SLASH and ESCAPE_UNICODE must
     * still look inside. */
    ASSERT_REWRITE("[\"a/b\",\"\xC3\xA9\"]", 0, 0, "[\"a/b\",\"\xC3\xA9\"]");
    ASSERT_REWRITE("[\"a/b\",\"\xC3\xA9\"]", TYJSON_WRITE_ESCAPE_SLASH, 0, "[\"a\\/b\",\"\xC3\xA9\"]");
    ASSERT_REWRITE("[\"a/b\",\"\xC3\xA9\"]", TYJSON_WRITE_ESCAPE_UNICODE, 0, "[\"a/b\",\"\\u00e9\"]");
    ASSERT_REWRITE("{\"\xC3\xA9/\":1}", TYJSON_WRITE_ESCAPE_UNICODE | TYJSON_WRITE_ESCAPE_SLASH, 0,
                   "{\"\\u00e9\\/\":1}");
    ASSERT_REWRITE("\"\\u00e9\\/\\n\"", 0, 0, "\"\xC3\xA9/\\n\"");
}

typedef struct bad_case {
    const char *in;
    size_t n;
    const char *repl;     /* with REPLACE_INVALID_UTF8 */
    const char *repl_uni; /* with REPLACE_INVALID_UTF8 | ESCAPE_UNICODE */
} bad_case;

#define FFFD "\xEF\xBF\xBD"
TEST(string_invalid_utf8) {
    static const bad_case cases[] = {
        {"\xC0\x80", 2, "\"" FFFD FFFD "\"", "\"\\ufffd\\ufffd\""},                  /* overlong NUL */
        {"\xC1\xBF", 2, "\"" FFFD FFFD "\"", "\"\\ufffd\\ufffd\""},                  /* overlong */
        {"\xE0\x80\xAF", 3, "\"" FFFD FFFD FFFD "\"", "\"\\ufffd\\ufffd\\ufffd\""}, /* overlong 3 */
        {"\xF0\x80\x80\xAF", 4, "\"" FFFD FFFD FFFD FFFD "\"", NULL},              /* overlong 4 */
        {"\xED\xA0\x80", 3, "\"" FFFD FFFD FFFD "\"", NULL},                        /* U+D800 */
        {"\xED\xBF\xBF", 3, "\"" FFFD FFFD FFFD "\"", NULL},                        /* U+DFFF */
        {"\xF4\x90\x80\x80", 4, "\"" FFFD FFFD FFFD FFFD "\"", NULL},              /* > U+10FFFF */
        {"\xF5\x80", 2, "\"" FFFD FFFD "\"", NULL},
        {"\xFF", 1, "\"" FFFD "\"", "\"\\ufffd\""},
        {"\x80", 1, "\"" FFFD "\"", NULL},                                          /* lone continuation */
        {"a\xBF" "b", 3, "\"a" FFFD "b\"", "\"a\\ufffdb\""},
        {"\xE2\x82", 2, "\"" FFFD "\"", "\"\\ufffd\""},                             /* truncated at end */
        {"\xE2\x82" "A", 3, "\"" FFFD "A\"", NULL},                                 /* truncated by ASCII */
        {"\xF0\x9F\x98", 3, "\"" FFFD "\"", NULL},
        {"\xF0\x9F\x98" "A", 4, "\"" FFFD "A\"", NULL},
        {"\xF0\x9F" "\xC3\xA9", 4, "\"" FFFD "\xC3\xA9\"", "\"\\ufffd\\u00e9\""},
        {"\xC3", 1, "\"" FFFD "\"", NULL},
        {"0123456789\xC3", 11, "\"0123456789" FFFD "\"", NULL},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        tyjson_error err;
        char *s = wr_str(cases[i].in, cases[i].n, 0, &err);
        if (s) TEST_FAIL("case %zu: invalid UTF-8 accepted", i);
        ASSERT_EQ_INT(err.code, TYJSON_E_UTF8);
        s = wr_str(cases[i].in, cases[i].n, TYJSON_WRITE_ESCAPE_UNICODE, &err);
        ASSERT_NULL(s);
        ASSERT_EQ_INT(err.code, TYJSON_E_UTF8);
        ASSERT_STR_OUT(cases[i].in, cases[i].n, TYJSON_WRITE_REPLACE_INVALID_UTF8, cases[i].repl);
        if (cases[i].repl_uni)
            ASSERT_STR_OUT(cases[i].in, cases[i].n,
                           TYJSON_WRITE_REPLACE_INVALID_UTF8 | TYJSON_WRITE_ESCAPE_UNICODE,
                           cases[i].repl_uni);
    }
}

TEST(string_invalid_utf8_in_document) {
    vb b;
    vb_init(&b);
    vb_begin(&b, TYJSON_TYPE_OBJ);
    vb_str(&b, "k\xFF");
    vb_uint(&b, 1);
    vb_end(&b, 1);
    tyjson_error err;
    size_t len = 99;
    ASSERT_NULL(tyjson_val_write_opts(b.v, NULL, &len, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_UTF8);
    ASSERT_EQ_UINT(len, 0);
    char *s = wr(b.v, TYJSON_WRITE_REPLACE_INVALID_UTF8, 0, NULL);
    ASSERT_EQ_STR(s, "{\"k" FFFD "\":1}");
    free(s);
    char buf[64];
    ASSERT_EQ_UINT(tyjson_val_write_buf(b.v, buf, sizeof(buf), NULL, &err), 0);
    ASSERT_EQ_INT(err.code, TYJSON_E_UTF8);
    free(b.v);
}

TEST(string_random_vs_reference) {
    static const uint32_t flag_sets[] = {0, TYJSON_WRITE_ESCAPE_SLASH, TYJSON_WRITE_ESCAPE_UNICODE,
                                         TYJSON_WRITE_ESCAPE_SLASH | TYJSON_WRITE_ESCAPE_UNICODE};
    unsigned char *in = (unsigned char *)malloc(5000);
    char *want = (char *)malloc(5000 * 6 + 8);
    for (int iter = 0; iter < 1500; iter++) {
        size_t n = rand_utf8(in, iter % 10 == 0 ? 5000 : 300);
        for (size_t f = 0; f < 4; f++) {
            size_t wl = ref_escape(in, n, flag_sets[f], want);
            tyjson_error err;
            char *got = wr_str((const char *)in, n, flag_sets[f], &err);
            if (!got) TEST_FAIL("iter %d: %s", iter, err.msg);
            if (strlen(got) != wl || memcmp(got, want, wl) != 0)
                TEST_FAIL("iter %d flags %u: output differs from the reference", iter, flag_sets[f]);
            free(got);
        }
    }
    free(in);
    free(want);
}

TEST(string_long_crosses_blocks) {
    /* 1 MB of 3-byte characters, quotes and controls: sequences straddle
     * every block boundary of the escaper. */
    size_t n = 0, cap = 1u << 20;
    unsigned char *in = (unsigned char *)malloc(cap + 8);
    for (size_t i = 0; n + 4 < cap; i++) {
        if (i % 7 == 3) in[n++] = '"';
        else if (i % 11 == 5) in[n++] = 0x01;
        else n += utf8_put(in + n, 0x3042 + (uint32_t)(i % 80));
    }
    char *want = (char *)malloc(n * 6 + 8);
    static const uint32_t flags[] = {0, TYJSON_WRITE_ESCAPE_UNICODE};
    for (int f = 0; f < 2; f++) {
        size_t wl = ref_escape(in, n, flags[f], want);
        tyjson_error err;
        char *got = wr_str((const char *)in, n, flags[f], &err);
        ASSERT_NOT_NULL(got);
        ASSERT_EQ_UINT(strlen(got), wl);
        ASSERT_TRUE(memcmp(got, want, wl) == 0);
        free(got);
    }
    free(in);
    free(want);
}

/* ----------------------------------------------------------------------------
 * MARK: - Values and layout
 * ------------------------------------------------------------------------- */

TEST(minified_values) {
    ASSERT_REWRITE("[null,true,false,0,1,-1,\"s\",[],{},[[]],{\"a\":{}}]", 0, 0,
                   "[null,true,false,0,1,-1,\"s\",[],{},[[]],{\"a\":{}}]");
    ASSERT_REWRITE(" { \"a\" : [ 1 , 2 ] , \"b\" : { \"c\" : null } } ", 0, 0,
                   "{\"a\":[1,2],\"b\":{\"c\":null}}");
    ASSERT_REWRITE("\"x\"", 0, 0, "\"x\"");
    ASSERT_REWRITE("123", 0, 0, "123");
    ASSERT_REWRITE("{\"\":\"\"}", 0, 0, "{\"\":\"\"}");
    ASSERT_REWRITE("[1.5,-2.25e-7,1e300]", 0, 0, "[1.5,-2.25e-7,1e300]");
}

TEST(numbers_at_limits) {
    vb b;
    vb_init(&b);
    vb_begin(&b, TYJSON_TYPE_ARR);
    vb_uint(&b, 0);
    vb_uint(&b, UINT64_MAX);
    vb_sint(&b, INT64_MIN);
    vb_sint(&b, -1);
    vb_uint(&b, (uint64_t)INT64_MAX);
    vb_real(&b, -0.0);
    vb_real(&b, 0.0);
    vb_real(&b, 50.0);
    vb_real(&b, 0.1);
    vb_real(&b, 1.7976931348623157e308);
    vb_real(&b, 5e-324);
    vb_end(&b, 11);
    char *s = wr(b.v, 0, 0, NULL);
    ASSERT_EQ_STR(s, "[0,18446744073709551615,-9223372036854775808,-1,9223372036854775807,"
                     "-0.0,0.0,50.0,0.1,1.7976931348623157e308,5e-324]");
    free(s);
    free(b.v);
}

TEST(nan_inf) {
    vb b;
    vb_init(&b);
    vb_begin(&b, TYJSON_TYPE_ARR);
    vb_real(&b, NAN);
    vb_real(&b, INFINITY);
    vb_real(&b, -INFINITY);
    vb_real(&b, -NAN);
    vb_end(&b, 4);
    tyjson_error err;
    size_t len = 7;
    ASSERT_NULL(tyjson_val_write_opts(b.v, NULL, &len, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_NAN_INF);
    ASSERT_EQ_UINT(len, 0);
    char *s = wr(b.v, TYJSON_WRITE_ALLOW_INF_NAN, 0, NULL);
    ASSERT_EQ_STR(s, "[NaN,Infinity,-Infinity,NaN]");
    free(s);
    /* Each alone, at the root. */
    for (size_t i = 1; i <= 4; i++) {
        ASSERT_NULL(tyjson_val_write_opts(&b.v[i], NULL, NULL, &err));
        ASSERT_EQ_INT(err.code, TYJSON_E_NAN_INF);
    }
    s = wr(&b.v[3], TYJSON_WRITE_ALLOW_INF_NAN | TYJSON_WRITE_PRETTY, 0, NULL);
    ASSERT_EQ_STR(s, "-Infinity");
    free(s);
    free(b.v);
}

/* The number options (common.h): INF_NAN_AS_NULL before ALLOW_INF_NAN,
 * FP_FIXED(n) before FP_TO_FLOAT, integers untouched, on immutable and
 * mutable values alike. */
TEST(number_options) {
    static const char in[] = "[NaN,-Infinity,2.675,1,-0.0,0.1,1e300,123456.5,-7]";
    tyjson_read_options ro = {TYJSON_READ_ALLOW_INF_NAN, 0, NULL};
    tyjson_doc *doc = tyjson_read_opts(in, sizeof(in) - 1, &ro, NULL);
    ASSERT_NOT_NULL(doc);
    tyjson_mut_doc *mdoc = tyjson_doc_mut_copy(doc, NULL);
    ASSERT_NOT_NULL(mdoc);
    static const struct {
        tyjson_write_flags flags;
        const char *want; /* NULL: TYJSON_E_NAN_INF */
    } cases[] = {
        {TYJSON_WRITE_INF_NAN_AS_NULL, "[null,null,2.675,1,-0.0,0.1,1e300,123456.5,-7]"},
        {TYJSON_WRITE_INF_NAN_AS_NULL | TYJSON_WRITE_ALLOW_INF_NAN,
         "[null,null,2.675,1,-0.0,0.1,1e300,123456.5,-7]"},
        {TYJSON_WRITE_INF_NAN_AS_NULL | TYJSON_WRITE_FP_FIXED(2),
         "[null,null,2.68,1,-0.00,0.10,1e300,123456.50,-7]"},
        {TYJSON_WRITE_ALLOW_INF_NAN | TYJSON_WRITE_FP_FIXED(1),
         "[NaN,-Infinity,2.7,1,-0.0,0.1,1e300,123456.5,-7]"},
        {TYJSON_WRITE_INF_NAN_AS_NULL | TYJSON_WRITE_FP_FIXED(15),
         "[null,null,2.675000000000000,1,-0.000000000000000,0.100000000000000,1e300,"
         "123456.500000000000000,-7]"},
        /* 1e300 rounds to an infinity as a float: null, or refused */
        {TYJSON_WRITE_INF_NAN_AS_NULL | TYJSON_WRITE_FP_TO_FLOAT,
         "[null,null,2.675,1,-0.0,0.1,null,123456.5,-7]"},
        {TYJSON_WRITE_INF_NAN_AS_NULL | TYJSON_WRITE_FP_TO_FLOAT | TYJSON_WRITE_FP_FIXED(3),
         "[null,null,2.675,1,-0.000,0.100,1e300,123456.500,-7]"},
        {TYJSON_WRITE_FP_FIXED(2), NULL},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        tyjson_write_options o = {cases[i].flags, 0, NULL};
        tyjson_error err;
        char *s = tyjson_write_opts(doc, &o, NULL, &err);
        char *m = tyjson_mut_write_opts(mdoc, &o, NULL, &err);
        if (!cases[i].want) {
            ASSERT_NULL(s);
            ASSERT_NULL(m);
            ASSERT_EQ_INT(err.code, TYJSON_E_NAN_INF);
            continue;
        }
        ASSERT_EQ_STR(s, cases[i].want);
        ASSERT_EQ_STR(m, cases[i].want);
        free(s);
        free(m);
        /* the caller's-buffer writer takes the same path */
        char buf[256];
        ASSERT_EQ_UINT(tyjson_val_write_buf(tyjson_doc_get_root(doc), buf, sizeof(buf), &o, NULL),
                       strlen(cases[i].want));
        ASSERT_EQ_STR(buf, cases[i].want);
    }
    /* FP_TO_FLOAT just below the float overflow threshold: FLT_MAX */
    tyjson_mut_val *big = tyjson_mut_real(mdoc, 3.4028235e38);
    tyjson_write_options fo = {TYJSON_WRITE_FP_TO_FLOAT, 0, NULL};
    char *s = tyjson_mut_val_write_opts(big, &fo, NULL, NULL);
    ASSERT_EQ_STR(s, "3.4028235e38");
    free(s);
    tyjson_mut_val *over = tyjson_mut_real(mdoc, 3.5e38);
    tyjson_error err;
    ASSERT_NULL(tyjson_mut_val_write_opts(over, &fo, NULL, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_NAN_INF);
    /* the threshold itself: FLT_MAX plus half its ulp rounds up to an
     * infinity, the double below it down to FLT_MAX */
    tyjson_mut_val *edge = tyjson_mut_real(mdoc, 0x1.ffffffp127);
    ASSERT_NULL(tyjson_mut_val_write_opts(edge, &fo, NULL, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_NAN_INF);
    tyjson_mut_val *below = tyjson_mut_real(mdoc, nextafter(0x1.ffffffp127, 0.0));
    s = tyjson_mut_val_write_opts(below, &fo, NULL, NULL);
    ASSERT_EQ_STR(s, "3.4028235e38");
    free(s);
    tyjson_mut_val *neg = tyjson_mut_real(mdoc, -1e39);
    fo.flags |= TYJSON_WRITE_ALLOW_INF_NAN;
    s = tyjson_mut_val_write_opts(neg, &fo, NULL, NULL);
    ASSERT_EQ_STR(s, "-Infinity");
    free(s);
    /* tyjson_write_number follows the same options */
    char nb[TYJSON_NUMBER_MAX + 1];
    tyjson_val *arr = tyjson_doc_get_root(doc);
    ASSERT_EQ_UINT(tyjson_write_number(tyjson_arr_get(arr, 0), TYJSON_WRITE_INF_NAN_AS_NULL, nb,
                                       sizeof(nb)), 4);
    ASSERT_EQ_STR(nb, "null");
    ASSERT_EQ_UINT(tyjson_write_number(tyjson_arr_get(arr, 2), TYJSON_WRITE_FP_FIXED(2), nb,
                                       sizeof(nb)), 4);
    ASSERT_EQ_STR(nb, "2.68");
    ASSERT_EQ_UINT(tyjson_write_number(tyjson_arr_get(arr, 5), TYJSON_WRITE_FP_TO_FLOAT, nb,
                                       sizeof(nb)), 3);
    ASSERT_EQ_STR(nb, "0.1");
    ASSERT_EQ_UINT(tyjson_write_number(tyjson_arr_get(arr, 8), TYJSON_WRITE_FP_FIXED(2), nb,
                                       sizeof(nb)), 2);
    ASSERT_EQ_STR(nb, "-7");
    /* the longest fixed text fits TYJSON_NUMBER_MAX */
    tyjson_val lv;
    ASSERT_EQ_UINT(tyjson_read_number("-999999999999999999999.0e-1", 27, 0, &lv, NULL), 27);
    size_t ln = tyjson_write_number(&lv, TYJSON_WRITE_FP_FIXED(15), nb, sizeof(nb));
    ASSERT_TRUE(ln <= TYJSON_NUMBER_MAX);
    ASSERT_EQ_STR(nb, "-100000000000000000000.000000000000000");
    tyjson_mut_doc_free(mdoc);
    tyjson_doc_free(doc);
}

TEST(raw_written_verbatim) {
    tyjson_read_options ro = {TYJSON_READ_BIGNUM_AS_RAW, 0, NULL};
    const char *json = "[123456789012345678901234567890,-99999999999999999999999,1]";
    tyjson_doc *doc = tyjson_read_opts(json, strlen(json), &ro, NULL);
    ASSERT_NOT_NULL(doc);
    char *s = wr(tyjson_doc_get_root(doc), 0, 0, NULL);
    ASSERT_EQ_STR(s, json);
    free(s);
    tyjson_doc_free(doc);
    tyjson_val raw;
    raw.tag = TYJSON_TYPE_RAW | (5ull << TYJSON__LEN_SHIFT);
    raw.uni.str = "1e999xyz";
    s = wr(&raw, 0, 0, NULL);
    ASSERT_EQ_STR(s, "1e999");
    free(s);
}

TEST(pretty_indent_2) {
    const char *json = "{\"a\":[],\"b\":{},\"c\":[1,{\"d\":null,\"e\":[[]]}],\"f\":\"x\"}";
    ASSERT_REWRITE(json, TYJSON_WRITE_PRETTY, 0,
                   "{\n"
                   "  \"a\": [],\n"
                   "  \"b\": {},\n"
                   "  \"c\": [\n"
                   "    1,\n"
                   "    {\n"
                   "      \"d\": null,\n"
                   "      \"e\": [\n"
                   "        []\n"
                   "      ]\n"
                   "    }\n"
                   "  ],\n"
                   "  \"f\": \"x\"\n"
                   "}");
    ASSERT_REWRITE(json, TYJSON_WRITE_PRETTY, 2,
                   "{\n  \"a\": [],\n  \"b\": {},\n  \"c\": [\n    1,\n    {\n      \"d\": null,\n"
                   "      \"e\": [\n        []\n      ]\n    }\n  ],\n  \"f\": \"x\"\n}");
}

TEST(pretty_indent_4_and_1) {
    ASSERT_REWRITE("[{\"k\":[true,{}]},[]]", TYJSON_WRITE_PRETTY, 4,
                   "[\n"
                   "    {\n"
                   "        \"k\": [\n"
                   "            true,\n"
                   "            {}\n"
                   "        ]\n"
                   "    },\n"
                   "    []\n"
                   "]");
    ASSERT_REWRITE("[[1]]", TYJSON_WRITE_PRETTY, 1, "[\n [\n  1\n ]\n]");
}

TEST(pretty_roots_and_newline_at_end) {
    ASSERT_REWRITE("[]", TYJSON_WRITE_PRETTY, 0, "[]");
    ASSERT_REWRITE("{}", TYJSON_WRITE_PRETTY, 0, "{}");
    ASSERT_REWRITE("7", TYJSON_WRITE_PRETTY, 0, "7");
    ASSERT_REWRITE("\"s\"", TYJSON_WRITE_PRETTY | TYJSON_WRITE_NEWLINE_AT_END, 0, "\"s\"\n");
    ASSERT_REWRITE("[1,2]", TYJSON_WRITE_NEWLINE_AT_END, 0, "[1,2]\n");
    ASSERT_REWRITE("[1,2]", TYJSON_WRITE_PRETTY | TYJSON_WRITE_NEWLINE_AT_END, 0, "[\n  1,\n  2\n]\n");
    ASSERT_REWRITE("{}", TYJSON_WRITE_NEWLINE_AT_END, 0, "{}\n");
}

TEST(pretty_huge_indent) {
    /* Indentation wider than one reservation is written in pieces. */
    const char *json = "[[1]]";
    tyjson_doc *doc = tyjson_read(json, strlen(json), 0);
    size_t len;
    char *s = wr(tyjson_doc_get_root(doc), TYJSON_WRITE_PRETTY, 10000, &len);
    ASSERT_EQ_UINT(len, 1 + 1 + 10000 + 1 + 1 + 20000 + 1 + 1 + 10000 + 1 + 1 + 1);
    ASSERT_EQ_MEM(s, "[\n          ", 12);
    ASSERT_EQ_MEM(s + 2 + 10000, "[\n", 2);
    ASSERT_EQ_MEM(s + len - 4, " ]\n]", 4);
    free(s);
    tyjson_doc_free(doc);
}

TEST(invalid_arguments) {
    tyjson_error err;
    size_t len = 5;
    ASSERT_NULL(tyjson_val_write_opts(NULL, NULL, &len, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_INVALID_ARG);
    ASSERT_EQ_UINT(len, 0);
    ASSERT_NULL(tyjson_write_opts(NULL, NULL, NULL, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_INVALID_ARG);
    ASSERT_NULL(tyjson_mut_val_write_opts(NULL, NULL, NULL, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_INVALID_ARG);
    ASSERT_NULL(tyjson_mut_write_opts(NULL, NULL, NULL, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_INVALID_ARG);
    ASSERT_NULL(tyjson_write(NULL, 0, NULL));
    char buf[8];
    ASSERT_EQ_UINT(tyjson_val_write_buf(NULL, buf, sizeof(buf), NULL, &err), 0);
    ASSERT_EQ_INT(err.code, TYJSON_E_INVALID_ARG);
    ASSERT_FALSE(tyjson_val_write_fp(NULL, NULL, NULL, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_INVALID_ARG);
    ASSERT_FALSE(tyjson_val_write_cb(NULL, NULL, NULL, NULL, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_INVALID_ARG);
    ASSERT_FALSE(tyjson_val_write_file(NULL, NULL, NULL, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_INVALID_ARG);

    /* A value of type NONE, and an object key that is not a string. */
    tyjson_val none = {0, {0}};
    ASSERT_NULL(tyjson_val_write_opts(&none, NULL, NULL, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_INVALID_ARG);
    vb b;
    vb_init(&b);
    vb_begin(&b, TYJSON_TYPE_OBJ);
    vb_uint(&b, 1);
    vb_uint(&b, 2);
    vb_end(&b, 1);
    ASSERT_NULL(tyjson_val_write_opts(b.v, NULL, NULL, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_INVALID_ARG);
    free(b.v);
}

TEST(shorthand_and_subtree) {
    const char *json = "{\"a\":[1,{\"b\":2}],\"c\":3}";
    tyjson_doc *doc = tyjson_read(json, strlen(json), 0);
    size_t len;
    char *s = tyjson_write(doc, 0, &len);
    ASSERT_EQ_STR(s, json);
    ASSERT_EQ_UINT(len, strlen(json));
    free(s);
    s = tyjson_write(doc, 0, NULL);
    ASSERT_EQ_STR(s, json);
    free(s);
    /* A value inside a document writes just its subtree. */
    s = wr(tyjson_obj_get(tyjson_doc_get_root(doc), "a"), 0, 0, NULL);
    ASSERT_EQ_STR(s, "[1,{\"b\":2}]");
    free(s);
    tyjson_doc_free(doc);
}

/* ----------------------------------------------------------------------------
 * MARK: - Sinks
 * ------------------------------------------------------------------------- */

/* A document whose text is `want_len` bytes or more: an array of strings
 * (with escapes) and numbers. */
static tyjson_doc *big_doc(size_t want_len, char **text, size_t *text_len) {
    size_t cap = want_len + 256, n = 0;
    char *j = (char *)malloc(cap);
    j[n++] = '[';
    for (int i = 0; n < want_len; i++) {
        n += (size_t)snprintf(j + n, cap - n, "%s\"item %d \\n \\u00e9 tab\\t\",%d", i ? "," : "", i, i * 7919);
    }
    j[n++] = ']';
    tyjson_doc *doc = tyjson_read(j, n, 0);
    free(j);
    tyjson_error err;
    *text = tyjson_val_write_opts(tyjson_doc_get_root(doc), NULL, text_len, &err);
    return doc;
}

static void check_buf_at(const tyjson_val *root, const char *want, size_t want_len, size_t cap,
                         uint32_t flags) {
    char *buf = (char *)malloc(cap + 16);
    memset(buf, '#', cap + 16);
    tyjson_write_options o = {flags, 0, NULL};
    tyjson_error err;
    size_t r = tyjson_val_write_buf(root, buf, cap, &o, &err);
    ASSERT_EQ_UINT(r, want_len);
    if (want_len < cap) {
        ASSERT_EQ_INT(err.code, TYJSON_OK);
        ASSERT_TRUE(memcmp(buf, want, want_len) == 0);
        ASSERT_EQ_INT(buf[want_len], 0);
        for (size_t i = want_len + 1; i < cap + 16; i++) ASSERT_EQ_INT(buf[i], '#');
    } else {
        ASSERT_EQ_INT(err.code, TYJSON_E_BUF_TOO_SMALL);
        /* Never a byte past cap. */
        for (size_t i = cap; i < cap + 16; i++) ASSERT_EQ_INT(buf[i], '#');
    }
    free(buf);
}

TEST(write_buf_small_doc_every_cap) {
    const char *json = "{\"name\":\"tyjson\",\"list\":[1,2,3,{\"x\":null}],\"pi\":3.25}";
    tyjson_doc *doc = tyjson_read(json, strlen(json), 0);
    const tyjson_val *root = tyjson_doc_get_root(doc);
    size_t len = strlen(json);
    for (size_t cap = 1; cap <= len + 3; cap++) check_buf_at(root, json, len, cap, 0);
    /* cap 0 and buf NULL: a pure size query. */
    tyjson_error err;
    ASSERT_EQ_UINT(tyjson_val_write_buf(root, NULL, 0, NULL, &err), len);
    ASSERT_EQ_INT(err.code, TYJSON_E_BUF_TOO_SMALL);
    /* Needed size is exact: len + 1 works. */
    char *buf = (char *)malloc(len + 1);
    ASSERT_EQ_UINT(tyjson_val_write_buf(root, buf, len + 1, NULL, &err), len);
    ASSERT_EQ_INT(err.code, TYJSON_OK);
    ASSERT_EQ_STR(buf, json);
    free(buf);
    tyjson_doc_free(doc);
}

TEST(write_buf_large_doc) {
    char *want;
    size_t want_len;
    tyjson_doc *doc = big_doc(100000, &want, &want_len);
    const tyjson_val *root = tyjson_doc_get_root(doc);
    ASSERT_TRUE(want_len > 70000);
    size_t caps[] = {1, 100, 4095, 4096, 4097, 16383, 16384, 16385, 20000, 50000,
                     want_len - 5000, want_len - 1, want_len, want_len + 1, want_len + 2, want_len + 100000};
    for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) check_buf_at(root, want, want_len, caps[i], 0);
    for (size_t cap = want_len - 70; cap <= want_len + 2; cap++) check_buf_at(root, want, want_len, cap, 0);
    /* Pretty output through the buffer matches the heap writer. */
    size_t plen;
    char *pretty = wr(root, TYJSON_WRITE_PRETTY, 0, &plen);
    check_buf_at(root, pretty, plen, plen + 1, TYJSON_WRITE_PRETTY);
    check_buf_at(root, pretty, plen, plen, TYJSON_WRITE_PRETTY);
    check_buf_at(root, pretty, plen, plen / 2, TYJSON_WRITE_PRETTY);
    free(pretty);
    free(want);
    tyjson_doc_free(doc);
}

TEST(write_fp_and_file) {
    char *want;
    size_t want_len;
    tyjson_doc *doc = big_doc(60000, &want, &want_len);
    const tyjson_val *root = tyjson_doc_get_root(doc);
    FILE *fp = tmpfile();
    ASSERT_NOT_NULL(fp);
    tyjson_error err;
    ASSERT_TRUE(tyjson_val_write_fp(fp, root, NULL, &err));
    ASSERT_EQ_INT(err.code, TYJSON_OK);
    ASSERT_EQ_INT(ftell(fp), (long)want_len);
    rewind(fp);
    char *got = (char *)malloc(want_len + 1);
    ASSERT_EQ_UINT(fread(got, 1, want_len + 1, fp), want_len);
    ASSERT_TRUE(memcmp(got, want, want_len) == 0);
    fclose(fp);

    char path[] = "/tmp/tyjson_test_write_XXXXXX";
    snprintf(path + 23, 7, "%06d", (int)(rng() % 1000000));
    tyjson_write_options o = {TYJSON_WRITE_NEWLINE_AT_END, 0, NULL};
    ASSERT_TRUE(tyjson_val_write_file(path, root, &o, &err));
    size_t flen;
    char *ftext = test_read_file(path, &flen);
    ASSERT_NOT_NULL(ftext);
    ASSERT_EQ_UINT(flen, want_len + 1);
    ASSERT_TRUE(memcmp(ftext, want, want_len) == 0);
    ASSERT_EQ_INT(ftext[want_len], '\n');
    free(ftext);
    remove(path);

    ASSERT_FALSE(tyjson_val_write_file("/nonexistent-dir/x/y.json", root, NULL, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_IO);

    /* A stream that refuses writes. */
    FILE *ro = fopen("/dev/null", "rb");
    if (ro) {
        ASSERT_FALSE(tyjson_val_write_fp(ro, root, NULL, &err));
        ASSERT_EQ_INT(err.code, TYJSON_E_IO);
        fclose(ro);
    }
    free(got);
    free(want);
    tyjson_doc_free(doc);
}

typedef struct sink {
    char *buf;
    size_t len, cap;
    int calls;
    int abort_at; /* 1-based call that fails; 0 = never */
} sink;

static int sink_fn(void *ctx, const char *data, size_t len) {
    sink *s = (sink *)ctx;
    s->calls++;
    if (len == 0) return 1; /* never called with nothing */
    if (s->abort_at && s->calls >= s->abort_at) return 1;
    if (s->len + len > s->cap) {
        s->cap = (s->len + len) * 2;
        s->buf = (char *)realloc(s->buf, s->cap);
    }
    memcpy(s->buf + s->len, data, len);
    s->len += len;
    return 0;
}

TEST(write_callback) {
    char *want;
    size_t want_len;
    tyjson_doc *doc = big_doc(100000, &want, &want_len);
    const tyjson_val *root = tyjson_doc_get_root(doc);
    sink s = {NULL, 0, 0, 0, 0};
    tyjson_error err;
    ASSERT_TRUE(tyjson_val_write_cb(sink_fn, &s, root, NULL, &err));
    ASSERT_EQ_INT(err.code, TYJSON_OK);
    ASSERT_EQ_UINT(s.len, want_len);
    ASSERT_TRUE(memcmp(s.buf, want, want_len) == 0);
    ASSERT_TRUE(s.calls > 1);
    int calls = s.calls;

    /* Abort on the second piece: false, E_CALLBACK, and no call after it. */
    sink a = {NULL, 0, 0, 0, 2};
    ASSERT_FALSE(tyjson_val_write_cb(sink_fn, &a, root, NULL, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_CALLBACK);
    ASSERT_EQ_INT(a.calls, 2);
    /* Abort on the last piece (the final flush). */
    sink l = {NULL, 0, 0, 0, calls};
    ASSERT_FALSE(tyjson_val_write_cb(sink_fn, &l, root, NULL, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_CALLBACK);
    /* A small value arrives in one piece. */
    sink one = {NULL, 0, 0, 0, 0};
    ASSERT_TRUE(tyjson_val_write_cb(sink_fn, &one, tyjson_arr_get_first(root), NULL, &err));
    ASSERT_EQ_INT(one.calls, 1);
    free(s.buf);
    free(a.buf);
    free(l.buf);
    free(one.buf);
    free(want);
    tyjson_doc_free(doc);
}

/* ----------------------------------------------------------------------------
 * MARK: - Deep nesting (no recursion)
 * ------------------------------------------------------------------------- */

TEST(deep_immutable_100k) {
    /* [{"k":[{"k":[ ... 7 ... ]}]}]: arrays and one-member objects. */
    const size_t depth = 100000;
    size_t slots = depth + depth / 2 + 1;
    tyjson_val *v = (tyjson_val *)calloc(slots, sizeof(tyjson_val));
    size_t *pos = (size_t *)malloc(depth * sizeof(size_t));
    size_t n = 0;
    for (size_t i = 0; i < depth; i++) {
        pos[i] = n;
        v[n++].tag = (i % 2 == 0 ? TYJSON_TYPE_ARR : TYJSON_TYPE_OBJ) | (1ull << TYJSON__LEN_SHIFT);
        if (i % 2 == 1) {
            v[n].tag = TYJSON_TYPE_STR | (1ull << TYJSON__LEN_SHIFT);
            v[n++].uni.str = "k";
        }
    }
    v[n].tag = TYJSON_TYPE_NUM | TYJSON_SUBTYPE_UINT;
    v[n++].uni.u64 = 7;
    for (size_t i = 0; i < depth; i++) v[pos[i]].uni.ofs = n - pos[i];
    size_t len;
    char *s = wr(v, 0, 0, &len);
    ASSERT_EQ_UINT(len, depth * 2 + (depth / 2) * 4 + 1);
    ASSERT_EQ_MEM(s, "[{\"k\":[{\"k\":[", 13);
    ASSERT_EQ_MEM(s + len - 4, "}]}]", 4);
    free(s);
    /* The same through the fixed buffer and a callback. */
    tyjson_error err;
    ASSERT_EQ_UINT(tyjson_val_write_buf(v, NULL, 0, NULL, &err), len);
    sink cb = {NULL, 0, 0, 0, 0};
    ASSERT_TRUE(tyjson_val_write_cb(sink_fn, &cb, v, NULL, &err));
    ASSERT_EQ_UINT(cb.len, len);
    free(cb.buf);
    free(pos);
    free(v);
}

TEST(deep_pretty_3000) {
    const size_t depth = 3000;
    tyjson_val *v = (tyjson_val *)calloc(depth, sizeof(tyjson_val));
    for (size_t i = 0; i < depth; i++) {
        v[i].tag = TYJSON_TYPE_ARR | ((i + 1 < depth ? 1ull : 0ull) << TYJSON__LEN_SHIFT);
        v[i].uni.ofs = depth - i;
    }
    size_t len;
    char *s = wr(v, TYJSON_WRITE_PRETTY, 1, &len);
    /* Lines: "[" at indent i for i < depth-1, "[]" at depth-1, "]" back up. */
    size_t want = 0;
    for (size_t i = 0; i + 1 < depth; i++) want += i + 1 + 1; /* indent, '[', '\n' */
    want += (depth - 1) + 2;                                   /* innermost "[]" */
    for (size_t i = 0; i + 1 < depth; i++) want += 1 + i + 1;  /* '\n', indent, ']' */
    ASSERT_EQ_UINT(len, want);
    ASSERT_EQ_MEM(s, "[\n [\n  [\n", 9);
    ASSERT_EQ_MEM(s + len - 6, "]\n ]\n]", 6);
    free(s);
    free(v);
}

/* Text nested `depth` levels, alternating arrays and objects, with siblings
 * before and after every nested level, so that closing any level resumes
 * its parent in the middle of its children. */
static char *deep_mixed_text(size_t depth, size_t *len) {
    size_t cap = depth * 40 + 64, n = 0;
    char *t = (char *)malloc(cap);
    for (size_t i = 0; i < depth; i++)
        n += (size_t)snprintf(t + n, cap - n, i % 2 ? "{\"a%zu\":%zu,\"n\":" : "[%zu,", i % 7, i);
    n += (size_t)snprintf(t + n, cap - n, "null");
    for (size_t i = depth; i-- > 0;)
        n += (size_t)snprintf(t + n, cap - n, i % 2 ? ",\"z\":%zu}" : ",%zu]", i % 5);
    *len = n;
    return t;
}

/* The immutable fixed-buffer writer allocates nothing at any depth: the
 * levels beyond its inline window are recomputed from the value array. */
TEST(write_buf_immutable_never_allocates_at_depth_10k) {
    size_t len;
    char *text = deep_mixed_text(10000, &len);
    tyjson_read_options ro = {0, 20000, NULL};
    tyjson_doc *doc = tyjson_read_opts(text, len, &ro, NULL);
    ASSERT_NOT_NULL(doc);
    tyjson_val *root = tyjson_doc_get_root(doc);
    test_alloc counter;
    tyjson_alloc alc = test_alloc_make(&counter, SIZE_MAX);
    char *out = (char *)malloc(len + 1);
    for (int pretty = 0; pretty < 2; pretty++) {
        tyjson_write_options wo = {pretty ? TYJSON_WRITE_PRETTY : 0u, 1, &alc};
        tyjson_error err;
        size_t need = tyjson_val_write_buf(root, NULL, 0, &wo, &err);
        ASSERT_EQ_INT(err.code, TYJSON_E_BUF_TOO_SMALL);
        char *big = (char *)malloc(need + 1);
        ASSERT_EQ_UINT(tyjson_val_write_buf(root, big, need + 1, &wo, &err), need);
        ASSERT_EQ_INT(err.code, TYJSON_OK);
        if (!pretty) {
            ASSERT_EQ_UINT(need, len);
            ASSERT_EQ_MEM(big, text, len);
        } else {
            /* The mutable walker keeps a real stack: same text expected. */
            tyjson_mut_doc *m = tyjson_doc_mut_copy(doc, NULL);
            tyjson_write_options plain = {TYJSON_WRITE_PRETTY, 1, NULL};
            size_t mlen;
            char *mtext = tyjson_mut_write_opts(m, &plain, &mlen, NULL);
            ASSERT_NOT_NULL(mtext);
            ASSERT_EQ_UINT(mlen, need);
            ASSERT_EQ_MEM(big, mtext, need);
            free(mtext);
            tyjson_mut_doc_free(m);
        }
        free(big);
    }
    /* Too small a buffer still counts the exact length without allocating. */
    tyjson_write_options wo = {0, 0, &alc};
    tyjson_error err;
    ASSERT_EQ_UINT(tyjson_val_write_buf(root, out, len / 3, &wo, &err), len);
    ASSERT_EQ_INT(err.code, TYJSON_E_BUF_TOO_SMALL);
    ASSERT_EQ_UINT(counter.calls, 0);
    /* The heap writer's only allocations are its text buffer. */
    size_t wlen;
    char *w = tyjson_val_write_opts(root, &wo, &wlen, &err);
    ASSERT_NOT_NULL(w);
    ASSERT_EQ_UINT(wlen, len);
    ASSERT_EQ_MEM(w, text, len);
    tyjson_free(&alc, w);
    ASSERT_EQ_INT(counter.live, 0);
    free(out);
    tyjson_doc_free(doc);
    free(text);
}

/* Random deep documents: at every level a random container kind, a random
 * number of siblings before and after the nested child (scalars, small
 * containers), so the dropped levels resume at every kind of position. */
static size_t rnd_state = 12345;
static size_t rnd(size_t n) {
    rnd_state = rnd_state * 6364136223846793005ull + 1442695040888963407ull;
    return (size_t)(rnd_state >> 33) % n;
}

static void put_sibling(char *t, size_t *n, bool obj, size_t i) {
    static const char *const vals[] = {"1", "\"s\"", "[]", "{}", "[1,{\"q\":[2]}]", "null"};
    if (obj) *n += (size_t)sprintf(t + *n, "\"s%zu\":", i);
    *n += (size_t)sprintf(t + *n, "%s,", vals[rnd(6)]);
}

static char *random_deep_text(size_t depth, size_t *len) {
    size_t cap = depth * 160 + 64, n = 0;
    char *t = (char *)malloc(cap);
    bool *obj = (bool *)malloc(depth * sizeof(bool));
    size_t *after = (size_t *)malloc(depth * sizeof(size_t));
    for (size_t d = 0; d < depth; d++) {
        obj[d] = rnd(2) != 0;
        t[n++] = obj[d] ? '{' : '[';
        for (size_t b = rnd(4); b > 0; b--) put_sibling(t, &n, obj[d], b);
        if (obj[d]) n += (size_t)sprintf(t + n, "\"n\":");
        after[d] = rnd(4);
    }
    n += (size_t)sprintf(t + n, "0");
    for (size_t d = depth; d-- > 0;) {
        for (size_t a = 0; a < after[d]; a++) {
            t[n++] = ',';
            put_sibling(t, &n, obj[d], 100 + a);
            n--; /* drop put_sibling's comma */
        }
        t[n++] = obj[d] ? '}' : ']';
    }
    t[n] = 0;
    free(obj);
    free(after);
    *len = n;
    return t;
}

TEST(write_buf_immutable_random_deep_documents) {
    for (int round = 0; round < 20; round++) {
        size_t len;
        char *text = random_deep_text(200 + rnd(900), &len);
        tyjson_read_options ro = {0, 5000, NULL};
        tyjson_error err;
        tyjson_doc *doc = tyjson_read_opts(text, len, &ro, &err);
        if (!doc) TEST_FAIL("round %d: %s at %zu", round, err.msg, err.offset);
        tyjson_mut_doc *m = tyjson_doc_mut_copy(doc, NULL);
        for (int pretty = 0; pretty < 2; pretty++) {
            tyjson_write_options wo = {pretty ? TYJSON_WRITE_PRETTY : 0u, 0, NULL};
            size_t mlen;
            char *want = tyjson_mut_write_opts(m, &wo, &mlen, NULL); /* the stack walker */
            ASSERT_NOT_NULL(want);
            if (!pretty) ASSERT_EQ_STR(want, text);
            char *out = (char *)malloc(mlen + 1);
            ASSERT_EQ_UINT(tyjson_val_write_buf(tyjson_doc_get_root(doc), out, mlen + 1, &wo, &err), mlen);
            ASSERT_EQ_MEM(out, want, mlen);
            free(out);
            free(want);
        }
        tyjson_mut_doc_free(m);
        tyjson_doc_free(doc);
        free(text);
    }
}

/* The mutable fixed-buffer writer allocates exactly when nesting passes 256
 * levels (its stack, from opts->alc), as write.h says. */
TEST(write_buf_mutable_allocates_only_past_256_levels) {
    for (size_t depth = 255; depth <= 258; depth++) {
        size_t len;
        char *text = deep_mixed_text(depth, &len);
        tyjson_doc *doc = tyjson_read_opts(text, len, NULL, NULL);
        ASSERT_NOT_NULL(doc);
        tyjson_mut_doc *m = tyjson_doc_mut_copy(doc, NULL);
        test_alloc counter;
        tyjson_alloc alc = test_alloc_make(&counter, SIZE_MAX);
        tyjson_write_options wo = {0, 0, &alc};
        char *out = (char *)malloc(len + 1);
        tyjson_error err;
        ASSERT_EQ_UINT(tyjson_mut_val_write_buf(tyjson_mut_doc_get_root(m), out, len + 1, &wo, &err),
                       len);
        ASSERT_EQ_MEM(out, text, len);
        ASSERT_EQ_UINT(counter.calls, depth > 256 ? 1 : 0);
        ASSERT_EQ_INT(counter.live, 0);
        /* Out of memory for that stack is reported, not hidden. */
        if (depth > 256) {
            alc = test_alloc_make(&counter, 0);
            ASSERT_EQ_UINT(tyjson_mut_val_write_buf(tyjson_mut_doc_get_root(m), out, len + 1, &wo, &err),
                           0);
            ASSERT_EQ_INT(err.code, TYJSON_E_NOMEM);
        }
        free(out);
        tyjson_mut_doc_free(m);
        tyjson_doc_free(doc);
        free(text);
    }
}

/* ----------------------------------------------------------------------------
 * MARK: - Mutable values
 * ------------------------------------------------------------------------- */

/* Hand-made nodes: links children into a circular list under ctn. */
static void link_children(tyjson_mut_val *ctn, tyjson_mut_val **kids, size_t n, size_t members) {
    for (size_t i = 0; i < n; i++) kids[i]->next = kids[(i + 1) % n];
    ctn->uni.ptr = n ? kids[n - 1] : NULL;
    ctn->tag = (ctn->tag & 0xFF) | ((uint64_t)members << TYJSON__LEN_SHIFT);
}

TEST(mutable_hand_built) {
    tyjson_mut_val root = {TYJSON_TYPE_OBJ, {0}, NULL};
    tyjson_mut_val k1 = {TYJSON_TYPE_STR | (1ull << TYJSON__LEN_SHIFT), {0}, NULL};
    tyjson_mut_val arr = {TYJSON_TYPE_ARR, {0}, NULL};
    tyjson_mut_val k2 = {TYJSON_TYPE_STR | (2ull << TYJSON__LEN_SHIFT), {0}, NULL};
    tyjson_mut_val empty = {TYJSON_TYPE_OBJ, {0}, NULL};
    tyjson_mut_val n1 = {TYJSON_TYPE_NUM | TYJSON_SUBTYPE_SINT, {0}, NULL};
    tyjson_mut_val t = {TYJSON_TYPE_BOOL | TYJSON_SUBTYPE_TRUE, {0}, NULL};
    tyjson_mut_val s = {TYJSON_TYPE_STR | (4ull << TYJSON__LEN_SHIFT), {0}, NULL};
    tyjson_mut_val earr = {TYJSON_TYPE_ARR, {0}, NULL};
    k1.uni.str = "a";
    k2.uni.str = "b\n";
    n1.uni.i64 = -5;
    s.uni.str = "x\"y/"; /* not NUL-terminated use: length 4 */
    tyjson_mut_val *arr_kids[] = {&n1, &t, &s, &earr};
    link_children(&arr, arr_kids, 4, 4);
    tyjson_mut_val *obj_kids[] = {&k1, &arr, &k2, &empty};
    link_children(&root, obj_kids, 4, 2);
    size_t len;
    tyjson_error err;
    char *out = tyjson_mut_val_write_opts(&root, NULL, &len, &err);
    ASSERT_NOT_NULL(out);
    ASSERT_EQ_STR(out, "{\"a\":[-5,true,\"x\\\"y/\",[]],\"b\\n\":{}}");
    free(out);
    tyjson_write_options o = {TYJSON_WRITE_PRETTY | TYJSON_WRITE_ESCAPE_SLASH, 0, NULL};
    out = tyjson_mut_val_write_opts(&root, &o, &len, &err);
    ASSERT_EQ_STR(out, "{\n  \"a\": [\n    -5,\n    true,\n    \"x\\\"y\\/\",\n    []\n  ],\n  \"b\\n\": {}\n}");
    free(out);
    /* Scalars at the root, and a bad key. */
    out = tyjson_mut_val_write_opts(&t, NULL, &len, &err);
    ASSERT_EQ_STR(out, "true");
    free(out);
    k1.tag = TYJSON_TYPE_NULL;
    ASSERT_NULL(tyjson_mut_val_write_opts(&root, NULL, &len, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_INVALID_ARG);
}

TEST(mutable_api_built) {
    tyjson_mut_doc *doc = tyjson_mut_doc_new(NULL);
    ASSERT_NOT_NULL(doc);
    tyjson_mut_val *root = tyjson_mut_obj(doc);
    tyjson_mut_doc_set_root(doc, root);
    ASSERT_TRUE(tyjson_mut_obj_add_str(doc, root, "name", "caf\xC3\xA9"));
    ASSERT_TRUE(tyjson_mut_obj_add_uint(doc, root, "n", 18446744073709551615ull));
    ASSERT_TRUE(tyjson_mut_obj_add_sint(doc, root, "i", -42));
    ASSERT_TRUE(tyjson_mut_obj_add_real(doc, root, "r", 2.5));
    ASSERT_TRUE(tyjson_mut_obj_add_null(doc, root, "z"));
    tyjson_mut_val *arr = tyjson_mut_obj_add_arr(doc, root, "list");
    ASSERT_TRUE(tyjson_mut_arr_add_bool(doc, arr, false));
    ASSERT_TRUE(tyjson_mut_arr_add_real(doc, arr, -0.0));
    ASSERT_NOT_NULL(tyjson_mut_arr_add_obj(doc, arr));
    ASSERT_NOT_NULL(tyjson_mut_arr_add_arr(doc, arr));
    size_t len;
    char *s = tyjson_mut_write(doc, 0, &len);
    ASSERT_EQ_STR(s, "{\"name\":\"caf\xC3\xA9\",\"n\":18446744073709551615,\"i\":-42,\"r\":2.5,"
                     "\"z\":null,\"list\":[false,-0.0,{},[]]}");
    ASSERT_EQ_UINT(len, strlen(s));
    free(s);
    s = tyjson_mut_write(doc, TYJSON_WRITE_ESCAPE_UNICODE | TYJSON_WRITE_PRETTY, &len);
    ASSERT_EQ_STR(s, "{\n  \"name\": \"caf\\u00e9\",\n  \"n\": 18446744073709551615,\n  \"i\": -42,\n"
                     "  \"r\": 2.5,\n  \"z\": null,\n  \"list\": [\n    false,\n    -0.0,\n    {},\n    []\n  ]\n}");
    free(s);

    /* The same text through every sink. */
    char want[256];
    tyjson_error err;
    size_t n = tyjson_mut_val_write_buf(root, want, sizeof(want), NULL, &err);
    ASSERT_EQ_INT(err.code, TYJSON_OK);
    ASSERT_EQ_UINT(n, strlen(want));
    ASSERT_EQ_UINT(tyjson_mut_val_write_buf(root, want, 10, NULL, &err), n);
    ASSERT_EQ_INT(err.code, TYJSON_E_BUF_TOO_SMALL);
    n = tyjson_mut_val_write_buf(root, want, sizeof(want), NULL, &err);
    sink cb = {NULL, 0, 0, 0, 0};
    ASSERT_TRUE(tyjson_mut_val_write_cb(sink_fn, &cb, root, NULL, &err));
    ASSERT_EQ_UINT(cb.len, n);
    ASSERT_TRUE(memcmp(cb.buf, want, n) == 0);
    free(cb.buf);
    FILE *fp = tmpfile();
    ASSERT_TRUE(tyjson_mut_val_write_fp(fp, root, NULL, &err));
    ASSERT_EQ_INT(ftell(fp), (long)n);
    fclose(fp);

    /* NaN refused in mutable values too. */
    ASSERT_TRUE(tyjson_mut_arr_add_real(doc, arr, NAN));
    ASSERT_NULL(tyjson_mut_write_opts(doc, NULL, NULL, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_NAN_INF);
    tyjson_write_options o = {TYJSON_WRITE_ALLOW_INF_NAN, 0, NULL};
    s = tyjson_mut_write_opts(doc, &o, NULL, &err);
    ASSERT_NOT_NULL(s);
    ASSERT_TRUE(strstr(s, "[false,-0.0,{},[],NaN]") != NULL);
    free(s);
    tyjson_mut_doc_free(doc);
}

TEST(deep_mutable_100k) {
    const size_t depth = 100000;
    tyjson_mut_val *nodes = (tyjson_mut_val *)calloc(depth + 1, sizeof(tyjson_mut_val));
    for (size_t i = 0; i < depth; i++) {
        nodes[i].tag = TYJSON_TYPE_ARR | (1ull << TYJSON__LEN_SHIFT);
        nodes[i].uni.ptr = &nodes[i + 1];
        nodes[i + 1].next = &nodes[i + 1]; /* the only child links to itself */
    }
    nodes[depth].tag = TYJSON_TYPE_NULL;
    size_t len;
    tyjson_error err;
    char *s = tyjson_mut_val_write_opts(nodes, NULL, &len, &err);
    ASSERT_NOT_NULL(s);
    ASSERT_EQ_UINT(len, depth * 2 + 4);
    ASSERT_EQ_MEM(s, "[[[[", 4);
    ASSERT_EQ_MEM(s + depth, "null]]]", 7);
    free(s);
    free(nodes);
}

TEST(mutable_matches_immutable_on_copy) {
    const char *json = "{\"a\":[1,-2,3.5,\"s\\u0001\",{\"b\":[[],{}]}],\"c\":{\"d\":true,\"e\":false},\"f\":null}";
    tyjson_doc *doc = tyjson_read(json, strlen(json), 0);
    tyjson_mut_doc *m = tyjson_doc_mut_copy(doc, NULL);
    ASSERT_NOT_NULL(m);
    static const uint32_t fl[] = {0, TYJSON_WRITE_PRETTY, TYJSON_WRITE_ESCAPE_UNICODE | TYJSON_WRITE_PRETTY};
    for (int i = 0; i < 3; i++) {
        char *a = tyjson_write(doc, fl[i], NULL);
        char *b = tyjson_mut_write(m, fl[i], NULL);
        ASSERT_EQ_STR(a, b);
        free(a);
        free(b);
    }
    tyjson_mut_doc_free(m);
    tyjson_doc_free(doc);
}

/* ----------------------------------------------------------------------------
 * MARK: - Allocation failures
 * ------------------------------------------------------------------------- */

/* A document that needs several allocations to write: deeper than the
 * inline stack and longer than the first buffer estimate. */
static tyjson_val *alloc_sweep_doc(size_t *count) {
    const size_t depth = 1000;
    static char longstr[20000];
    memset(longstr, 'x', sizeof(longstr));
    size_t n = depth + 3;
    tyjson_val *v = (tyjson_val *)calloc(n, sizeof(tyjson_val));
    for (size_t i = 0; i < depth; i++) {
        v[i].tag = TYJSON_TYPE_ARR | ((i + 1 < depth ? 1ull : 3ull) << TYJSON__LEN_SHIFT);
        v[i].uni.ofs = n - i;
    }
    for (size_t i = depth; i < n; i++) {
        v[i].tag = TYJSON_TYPE_STR | ((uint64_t)sizeof(longstr) << TYJSON__LEN_SHIFT);
        v[i].uni.str = longstr;
    }
    *count = n;
    return v;
}

static void sweep(bool mut, uint32_t flags) {
    size_t count;
    tyjson_val *v = alloc_sweep_doc(&count);
    tyjson_mut_doc *mdoc = NULL;
    tyjson_mut_val *mroot = NULL;
    if (mut) {
        mdoc = tyjson_mut_doc_new(NULL);
        mroot = tyjson_val_mut_copy(mdoc, v);
        ASSERT_NOT_NULL(mroot);
    }
    char *want = mut ? tyjson_mut_val_write_opts(mroot, NULL, NULL, NULL) : NULL;
    if (!mut) want = tyjson_val_write_opts(v, NULL, NULL, NULL);
    ASSERT_NOT_NULL(want);
    (void)flags;
    bool done = false;
    for (long at = 0; at < 1000 && !done; at++) {
        test_alloc f;
        tyjson_alloc alc = test_alloc_make(&f, (size_t)at);
        tyjson_write_options o = {flags, 0, &alc};
        tyjson_error err;
        size_t len = 123;
        char *s = mut ? tyjson_mut_val_write_opts(mroot, &o, &len, &err)
                      : tyjson_val_write_opts(v, &o, &len, &err);
        if (s) {
            ASSERT_TRUE(f.calls <= (size_t)at); /* success only once no call failed */
            if (!(flags & TYJSON_WRITE_PRETTY)) ASSERT_EQ_STR(s, want);
            ASSERT_EQ_UINT(len, strlen(s));
            tyjson_free(&alc, s);
            done = true;
        } else {
            ASSERT_EQ_INT(err.code, TYJSON_E_NOMEM);
            ASSERT_EQ_UINT(len, 0);
        }
        ASSERT_EQ_INT(f.live, 0);
        if (at < 2) ASSERT_FALSE(done); /* at least the buffer and the stack */
    }
    ASSERT_TRUE(done);
    free(want);
    tyjson_mut_doc_free(mdoc);
    free(v);
}

TEST(alloc_failure_sweep_immutable) { sweep(false, 0); }
TEST(alloc_failure_sweep_immutable_pretty) { sweep(false, TYJSON_WRITE_PRETTY); }
TEST(alloc_failure_sweep_mutable) { sweep(true, 0); }

/* ----------------------------------------------------------------------------
 * MARK: - Random documents: every flag set and sink agree, text re-parses
 * ------------------------------------------------------------------------- */

static void gen_value(char *j, size_t *n, size_t cap, int depth) {
    uint64_t r = rng() % (depth > 6 ? 6 : 9);
    if (*n + 64 > cap) r = 0;
    switch (r) {
    case 0: *n += (size_t)snprintf(j + *n, cap - *n, "%d", (int)(rng() % 2000) - 1000); break;
    case 1: *n += (size_t)snprintf(j + *n, cap - *n, "%s", rng() % 2 ? "true" : "null"); break;
    case 2: *n += (size_t)snprintf(j + *n, cap - *n, "%.17g", (double)(rng() % 100000) / 64.0 - 700.0); break;
    case 3: case 4: case 5: {
        static const char *pieces[] = {"abc", "\\n", "\\\"", "\\\\", "/", "\\/", "\\u0001", "\\u00e9",
                                       "\xC3\xA9", "\xE3\x81\x82", "\xF0\x9F\x98\x80", "\\ud83d\\ude00", " ", "0123456789"};
        j[(*n)++] = '"';
        for (uint64_t k = rng() % 12; k > 0 && *n + 16 < cap; k--) {
            const char *p = pieces[rng() % (sizeof(pieces) / sizeof(pieces[0]))];
            size_t l = strlen(p);
            memcpy(j + *n, p, l);
            *n += l;
        }
        j[(*n)++] = '"';
        break;
    }
    case 6: case 7: {
        j[(*n)++] = '[';
        for (uint64_t k = rng() % 5, i = 0; i < k; i++) {
            if (i) j[(*n)++] = ',';
            gen_value(j, n, cap, depth + 1);
        }
        j[(*n)++] = ']';
        break;
    }
    default: {
        j[(*n)++] = '{';
        for (uint64_t k = rng() % 5, i = 0; i < k; i++) {
            if (i) j[(*n)++] = ',';
            *n += (size_t)snprintf(j + *n, cap - *n, "\"k%d\\u00e9/\":", (int)i);
            gen_value(j, n, cap, depth + 1);
        }
        j[(*n)++] = '}';
        break;
    }
    }
}

TEST(random_documents_all_sinks) {
    static const uint32_t fl[] = {0,
                                  TYJSON_WRITE_PRETTY,
                                  TYJSON_WRITE_ESCAPE_UNICODE,
                                  TYJSON_WRITE_ESCAPE_SLASH | TYJSON_WRITE_NEWLINE_AT_END,
                                  TYJSON_WRITE_PRETTY | TYJSON_WRITE_ESCAPE_UNICODE | TYJSON_WRITE_ESCAPE_SLASH};
    size_t cap = 1 << 16;
    char *j = (char *)malloc(cap);
    char *buf = (char *)malloc(cap * 8);
    for (int iter = 0; iter < 300; iter++) {
        size_t n = 0;
        gen_value(j, &n, cap - 256, 0);
        tyjson_doc *doc = tyjson_read(j, n, 0);
        if (!doc) TEST_FAIL("generated JSON does not parse: %.*s", (int)n, j);
        const tyjson_val *root = tyjson_doc_get_root(doc);
        tyjson_mut_doc *m = tyjson_doc_mut_copy(doc, NULL);
        for (size_t f = 0; f < sizeof(fl) / sizeof(fl[0]); f++) {
            tyjson_write_options o = {fl[f], (uint32_t)(iter % 3), NULL};
            size_t len;
            char *out = tyjson_val_write_opts(root, &o, &len, NULL);
            ASSERT_NOT_NULL(out);
            /* Re-parses to an equal value. */
            tyjson_doc *again = tyjson_read(out, len, 0);
            ASSERT_NOT_NULL(again);
            ASSERT_TRUE(tyjson_equals(root, tyjson_doc_get_root(again)));
            tyjson_doc_free(again);
            /* Mutable copy: same text. */
            size_t mlen;
            char *mout = tyjson_mut_val_write_opts(tyjson_mut_doc_get_root(m), &o, &mlen, NULL);
            ASSERT_EQ_UINT(mlen, len);
            ASSERT_TRUE(memcmp(mout, out, len) == 0);
            free(mout);
            /* Fixed buffer at a random capacity around the length. */
            size_t bcap = (size_t)(rng() % (len + 3));
            memset(buf, '#', bcap + 8);
            tyjson_error err;
            ASSERT_EQ_UINT(tyjson_val_write_buf(root, buf, bcap, &o, &err), len);
            ASSERT_EQ_INT(err.code, len < bcap ? TYJSON_OK : TYJSON_E_BUF_TOO_SMALL);
            if (len < bcap) ASSERT_TRUE(memcmp(buf, out, len + 1) == 0);
            for (size_t i = bcap; i < bcap + 8; i++) ASSERT_EQ_INT(buf[i], '#');
            /* Callback. */
            sink cb = {NULL, 0, 0, 0, 0};
            ASSERT_TRUE(tyjson_val_write_cb(sink_fn, &cb, root, &o, NULL));
            ASSERT_EQ_UINT(cb.len, len);
            ASSERT_TRUE(len == 0 || memcmp(cb.buf, out, len) == 0);
            free(cb.buf);
            free(out);
        }
        tyjson_mut_doc_free(m);
        tyjson_doc_free(doc);
    }
    free(j);
    free(buf);
}

/* ----------------------------------------------------------------------------
 * MARK: - Corpus round trip (sanity; the lead owns the official test)
 * ------------------------------------------------------------------------- */

TEST(corpus_roundtrip_and_sinks_agree) {
    static const char *files[] = {"twitter.json", "citm_catalog.json", "canada.json",
                                  "github_events.json", "twitterescaped.json"};
    char path[1024];
    int found = 0;
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        char rel[256];
        snprintf(rel, sizeof(rel), "corpus/%s", files[i]);
        size_t n;
        char *text = test_read_file(test_shared_path(rel, path, sizeof(path)), &n);
        if (!text) continue;
        found++;
        tyjson_doc *doc = tyjson_read(text, n, 0);
        ASSERT_NOT_NULL(doc);
        static const uint32_t fl[] = {0, TYJSON_WRITE_PRETTY, TYJSON_WRITE_ESCAPE_UNICODE | TYJSON_WRITE_ESCAPE_SLASH};
        for (int k = 0; k < 3; k++) {
            size_t len;
            char *out = tyjson_write(doc, fl[k], &len);
            ASSERT_NOT_NULL(out);
            tyjson_doc *again = tyjson_read(out, len, 0);
            ASSERT_NOT_NULL(again);
            ASSERT_TRUE(tyjson_equals(tyjson_doc_get_root(doc), tyjson_doc_get_root(again)));
            /* Writing the re-parsed document gives the same bytes. */
            size_t len2;
            char *out2 = tyjson_write(again, fl[k], &len2);
            ASSERT_EQ_UINT(len2, len);
            ASSERT_TRUE(memcmp(out, out2, len) == 0);
            /* Other sinks agree. */
            tyjson_write_options o = {fl[k], 0, NULL};
            sink cb = {NULL, 0, 0, 0, 0};
            ASSERT_TRUE(tyjson_val_write_cb(sink_fn, &cb, tyjson_doc_get_root(doc), &o, NULL));
            ASSERT_EQ_UINT(cb.len, len);
            ASSERT_TRUE(memcmp(cb.buf, out, len) == 0);
            free(cb.buf);
            char *buf = (char *)malloc(len + 1);
            ASSERT_EQ_UINT(tyjson_val_write_buf(tyjson_doc_get_root(doc), buf, len + 1, &o, NULL), len);
            ASSERT_TRUE(memcmp(buf, out, len + 1) == 0);
            free(buf);
            /* Mutable copy writes the same text. */
            tyjson_mut_doc *m = tyjson_doc_mut_copy(doc, NULL);
            char *mout = tyjson_mut_write(m, fl[k], &len2);
            ASSERT_EQ_UINT(len2, len);
            ASSERT_TRUE(memcmp(mout, out, len) == 0);
            free(mout);
            tyjson_mut_doc_free(m);
            free(out2);
            tyjson_doc_free(again);
            free(out);
        }
        tyjson_doc_free(doc);
        free(text);
    }
    if (!found) {
        if (test_require_shared()) TEST_FAIL("shared corpus missing");
        TEST_SKIP("shared corpus not found");
    }
}

int main(int argc, char **argv) { return test_main(argc, argv); }
