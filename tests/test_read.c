/* test_read.c - the reading core's relaxed syntax and value skipping
 * (read/syntax.h) called directly, on the bounded contract (exact ends,
 * heap copies so that a read past the end is a sanitizer error) and the
 * padded one; then the DOM parser and the binding decoder, which both call
 * it, on the same bad relaxed inputs: they must give the same status. */
#include "test.h"
#include "tyjson.h"
#include "read/syntax.h"
#include "read/lex.h"

#include <stdlib.h>

/* A heap copy of s of exactly n bytes (no padding). */
static u8 *exact(const char *s, usize n) {
    u8 *b = (u8 *)calloc(n ? n : 1, 1);
    memcpy(b, s, n);
    return b;
}

static tyjson__read_res comments_of(const char *s) {
    usize n = strlen(s);
    u8 *b = exact(s, n);
    tyjson__read_res r = tyjson__skip_comments(b, b + n);
    /* positions as offsets, the copy is gone */
    r.pos = (const u8 *)(uintptr_t)(r.pos - b);
    free(b);
    return r;
}

TEST(comments_at_the_very_end) {
    tyjson__read_res r = comments_of("  // the end");
    ASSERT_EQ_INT(r.err, TYJSON_OK);
    ASSERT_EQ_UINT((usize)r.pos, 12);
    r = comments_of(" /* a */ /* b */");
    ASSERT_EQ_INT(r.err, TYJSON_OK);
    ASSERT_EQ_UINT((usize)r.pos, 16);
    r = comments_of("// one\n  // two\n 7");
    ASSERT_EQ_INT(r.err, TYJSON_OK);
    ASSERT_EQ_UINT((usize)r.pos, 17);
    r = comments_of("/**/");
    ASSERT_EQ_INT(r.err, TYJSON_OK);
    ASSERT_EQ_UINT((usize)r.pos, 4);
}

TEST(unterminated_comment) {
    tyjson__read_res r = comments_of("  /* never closed");
    ASSERT_EQ_INT(r.err, TYJSON_E_COMMENT);
    ASSERT_EQ_UINT((usize)r.pos, 2);
    ASSERT_EQ_INT(r.expect, TYJSON__EXPECT_COMMENT);
    r = comments_of("/* almost *");
    ASSERT_EQ_INT(r.err, TYJSON_E_COMMENT);
    r = comments_of("/*/");
    ASSERT_EQ_INT(r.err, TYJSON_E_COMMENT);
}

TEST(slash_alone) {
    tyjson__read_res r = comments_of(" /");
    ASSERT_EQ_INT(r.err, TYJSON_E_TRUNCATED);
    ASSERT_EQ_UINT((usize)r.pos, 1);
    r = comments_of("/x");
    ASSERT_EQ_INT(r.err, TYJSON_E_UNEXPECTED_CHAR);
    ASSERT_EQ_UINT((usize)r.pos, 0);
}

TEST(ws_comments_only_when_allowed) {
    const char *s = "  /* c */ 1";
    u8 *b = exact(s, strlen(s));
    tyjson__read_res r = tyjson__skip_ws_comments(b, b + strlen(s), false);
    ASSERT_EQ_INT(r.err, TYJSON_OK);
    ASSERT_EQ_UINT((usize)(r.pos - b), 2);
    r = tyjson__skip_ws_comments(b, b + strlen(s), true);
    ASSERT_EQ_INT(r.err, TYJSON_OK);
    ASSERT_EQ_UINT((usize)(r.pos - b), 10);
    free(b);
}

/* tyjson__skip_indent: a newline and n spaces (0 to 40), then a byte that
 * is a space's end (`"`) or more whitespace (a tab), with every end of the
 * input: the first byte after the spaces when it settles them, else p, and
 * never a byte at or past the end (the buffer is exact, for ASan). */
TEST(skip_indent_every_depth_and_end) {
    char text[64];
    for (usize n = 0; n <= 40; n++) {
        for (int tail = 0; tail < 2; tail++) {
            text[0] = '\n';
            memset(text + 1, ' ', n);
            text[1 + n] = tail ? '\t' : '"';
            for (usize len = 1; len <= n + 2; len++) {
                u8 *b = exact(text, len);
                const u8 *q = tyjson__skip_indent(b, b + len);
                if (q != b) {
                    /* settled: exactly past the spaces, inside the input */
                    ASSERT_EQ_UINT((usize)(q - b), 1 + n);
                    ASSERT_TRUE(q < b + len);
                }
                /* the common layouts are settled whenever 33 bytes are there */
                if (len >= 33 && n >= 1 && n <= 31) ASSERT_TRUE(q == b + 1 + n);
                free(b);
            }
        }
    }
}

TEST(bom_alone) {
    u8 *b = exact("\xEF\xBB\xBF", 3);
    ASSERT_TRUE(tyjson__has_bom(b, b + 3));
    ASSERT_FALSE(tyjson__has_bom(b, b + 2));
    ASSERT_TRUE(tyjson__skip_bom(b, b + 3, TYJSON_READ_ALLOW_BOM) == b + 3);
    ASSERT_TRUE(tyjson__skip_bom(b, b + 3, 0) == b);
    ASSERT_TRUE(tyjson__skip_bom(b, b + 2, TYJSON_READ_ALLOW_BOM) == b);
    free(b);
    /* the DOM: a mark and nothing else is an empty text */
    tyjson_read_options o = {TYJSON_READ_ALLOW_BOM, 0, NULL};
    tyjson_error e;
    ASSERT_NULL(tyjson_read_opts("\xEF\xBB\xBF", 3, &o, &e));
    ASSERT_EQ_INT(e.code, TYJSON_E_EMPTY);
}

TEST(partial_literals_at_the_end) {
    static const char *const lits[] = {"true", "false", "null"};
    for (int i = 0; i < 3; i++) {
        usize n = strlen(lits[i]);
        for (usize k = 0; k < n; k++) {
            u8 *b = exact(lits[i], k);
            ASSERT_FALSE(tyjson__match_literal(b, b + k, lits[i], n, false));
            ASSERT_EQ_INT(tyjson__literal_status(b, b + k, lits[i], n), TYJSON_E_TRUNCATED);
            free(b);
            /* the padded form: zeros after the end */
            u8 pad[16] = {0};
            memcpy(pad, lits[i], k);
            ASSERT_FALSE(tyjson__match_literal(pad, pad + k, lits[i], n, true));
        }
        u8 *b = exact(lits[i], n);
        ASSERT_TRUE(tyjson__match_literal(b, b + n, lits[i], n, false));
        free(b);
        u8 pad[16] = {0};
        memcpy(pad, lits[i], n);
        ASSERT_TRUE(tyjson__match_literal(pad, pad + n, lits[i], n, true));
    }
    u8 *b = exact("trux", 4);
    ASSERT_EQ_INT(tyjson__literal_status(b, b + 4, "true", 4), TYJSON_E_LITERAL);
    free(b);
    b = exact("fals", 4);
    ASSERT_EQ_INT(tyjson__literal_status(b, b + 4, "false", 5), TYJSON_E_TRUNCATED);
    free(b);
}

static usize inf_nan_of(const char *s, double *v) {
    usize n = strlen(s);
    u8 *b = exact(s, n);
    usize r = tyjson__match_inf_nan(b, b + n, v);
    free(b);
    return r;
}

static tyjson_status inf_nan_status_of(const char *s) {
    usize n = strlen(s);
    u8 *b = exact(s, n);
    tyjson_status st = tyjson__inf_nan_status(b, b + n);
    free(b);
    return st;
}

TEST(nan_infinity_with_signs) {
    double v = 0;
    ASSERT_EQ_UINT(inf_nan_of("NaN", &v), 3);
    ASSERT_TRUE(v != v);
    ASSERT_EQ_UINT(inf_nan_of("Infinity", &v), 8);
    ASSERT_TRUE(v > 0 && v * 0.5 == v);
    ASSERT_EQ_UINT(inf_nan_of("-Infinity,", &v), 9);
    ASSERT_TRUE(v < 0 && v * 0.5 == v);
    ASSERT_EQ_UINT(inf_nan_of("-NaN", &v), 0);
    ASSERT_EQ_UINT(inf_nan_of("+Infinity", &v), 0);
    ASSERT_EQ_UINT(inf_nan_of("-Inf", &v), 0);
    u8 plus[] = "+Infinity", minus_n[] = "-NaN", minus_i[] = "-Infinity";
    ASSERT_FALSE(tyjson__inf_nan_start(plus, plus + 9));
    ASSERT_FALSE(tyjson__inf_nan_start(minus_n, minus_n + 4));
    ASSERT_TRUE(tyjson__inf_nan_start(minus_i, minus_i + 9));
    ASSERT_FALSE(tyjson__inf_nan_start(minus_i, minus_i + 1)); /* "-" at the end */
    ASSERT_EQ_INT(inf_nan_status_of("-Inf"), TYJSON_E_TRUNCATED);
    ASSERT_EQ_INT(inf_nan_status_of("Na"), TYJSON_E_TRUNCATED);
    ASSERT_EQ_INT(inf_nan_status_of("NaX"), TYJSON_E_LITERAL);
    ASSERT_EQ_INT(inf_nan_status_of("Infinite"), TYJSON_E_LITERAL);
}

/* Skips s (exact copy) with flags, nesting limit and open levels; returns
 * the result with pos as an offset. */
static tyjson__read_res skip_of(const char *s, usize n, u32 flags, u32 depth, u32 max_depth) {
    u8 *b = exact(s, n);
    tyjson_alloc alc = tyjson__alc_or_libc(NULL);
    tyjson__skip_opts o = {b + n, flags, depth, max_depth, &alc};
    tyjson__read_res r = tyjson__skip_value(b, &o);
    r.pos = (const u8 *)(uintptr_t)(r.pos - b);
    free(b);
    return r;
}

static tyjson__read_res skip_str(const char *s, u32 flags) {
    return skip_of(s, strlen(s), flags, 0, TYJSON_DEFAULT_MAX_DEPTH);
}

/* n arrays around an object around nothing: "[[...[{}]...]]" */
static char *nested(usize n, usize *len) {
    char *s = (char *)malloc(2 * n + 3);
    usize k = 0;
    for (usize i = 0; i < n; i++) s[k++] = '[';
    s[k++] = '{';
    s[k++] = '}';
    for (usize i = 0; i < n; i++) s[k++] = ']';
    s[k] = 0;
    *len = k;
    return s;
}

TEST(skip_deep_nesting_at_the_limit_and_one_past) {
    static const u32 limits[] = {1, 64, 1024, 3000}; /* 3000: bits beyond the inline ones */
    for (int i = 0; i < 4; i++) {
        u32 lim = limits[i];
        usize n;
        char *s = nested(lim - 1, &n); /* lim containers with the object */
        tyjson__read_res r = skip_of(s, n, 0, 0, lim);
        ASSERT_EQ_INT(r.err, TYJSON_OK);
        ASSERT_EQ_UINT((usize)r.pos, n);
        /* levels already open count toward the limit */
        if (lim > 1) {
            r = skip_of(s, n, 0, 1, lim);
            ASSERT_EQ_INT(r.err, TYJSON_E_DEPTH);
            ASSERT_EQ_UINT((usize)r.pos, lim - 1);
        }
        free(s);
        s = nested(lim, &n);
        r = skip_of(s, n, 0, 0, lim);
        ASSERT_EQ_INT(r.err, TYJSON_E_DEPTH);
        ASSERT_EQ_UINT((usize)r.pos, lim); /* the '{' one level too deep */
        free(s);
    }
}

TEST(skip_invalid_utf8_in_a_string) {
    tyjson__read_res r = skip_str("{\"k\":[\"a\xFF" "b\"]}", 0);
    ASSERT_EQ_INT(r.err, TYJSON_E_UTF8);
    ASSERT_EQ_UINT((usize)r.pos, 8);
    r = skip_str("[\"\xED\xA0\x80\"]", 0); /* an encoded surrogate */
    ASSERT_EQ_INT(r.err, TYJSON_E_UTF8);
    r = skip_str("{\"k\":[\"a\xFF" "b\"]}", TYJSON_READ_ALLOW_INVALID_UTF8);
    ASSERT_EQ_INT(r.err, TYJSON_OK);
    ASSERT_EQ_UINT((usize)r.pos, 13);
    r = skip_str("{\"\xC3\xA9\":\"\xE6\x97\xA5\"}", 0);
    ASSERT_EQ_INT(r.err, TYJSON_OK);
}

TEST(skip_checks_escapes_as_the_decoder_does) {
    ASSERT_EQ_INT(skip_str("\"a\\qb\"", 0).err, TYJSON_E_ESCAPE);
    ASSERT_EQ_INT(skip_str("\"\\uD800\"", 0).err, TYJSON_E_SURROGATE);
    ASSERT_EQ_INT(skip_str("\"\\uD800\"", TYJSON_READ_ALLOW_INVALID_UTF8).err, TYJSON_OK);
    ASSERT_EQ_INT(skip_str("\"\\uD83D\\uDE00 \\n\\u00e9\"", 0).err, TYJSON_OK);
    ASSERT_EQ_INT(skip_str("\"\\u12", 0).err, TYJSON_E_TRUNCATED);
    ASSERT_EQ_INT(skip_str("\"abc", 0).err, TYJSON_E_TRUNCATED);
    ASSERT_EQ_INT(skip_str("\"a\tb\"", 0).err, TYJSON_E_STRING_CTRL);
}

TEST(skip_structure_and_relaxations) {
    tyjson__read_res r = skip_str("{\"a\":[1,-2.5e3,true,null,{}],\"b\":\"x\"} tail", 0);
    ASSERT_EQ_INT(r.err, TYJSON_OK);
    ASSERT_EQ_UINT((usize)r.pos, 37);
    ASSERT_EQ_UINT((usize)skip_str("123456789012345678901234567890,", 0).pos, 30);
    r = skip_str("[1,]", 0);
    ASSERT_EQ_INT(r.err, TYJSON_E_UNEXPECTED_CHAR);
    ASSERT_EQ_INT(r.expect, TYJSON__EXPECT_VALUE);
    ASSERT_EQ_INT(skip_str("[1,]", TYJSON_READ_ALLOW_TRAILING_COMMAS).err, TYJSON_OK);
    ASSERT_EQ_INT(skip_str("{\"a\":1,}", TYJSON_READ_ALLOW_TRAILING_COMMAS).err, TYJSON_OK);
    ASSERT_EQ_INT(skip_str("[ /* c */ 1 // d\n ]", 0).err, TYJSON_E_UNEXPECTED_CHAR);
    ASSERT_EQ_INT(skip_str("[ /* c */ 1 // d\n ]", TYJSON_READ_ALLOW_COMMENTS).err, TYJSON_OK);
    ASSERT_EQ_INT(skip_str("[1 /* c", TYJSON_READ_ALLOW_COMMENTS).err, TYJSON_E_COMMENT);
    ASSERT_EQ_INT(skip_str("[NaN,-Infinity]", TYJSON_READ_ALLOW_INF_NAN).err, TYJSON_OK);
    ASSERT_EQ_INT(skip_str("[NaN]", 0).err, TYJSON_E_UNEXPECTED_CHAR);
    ASSERT_EQ_INT(skip_str("[-Infin", TYJSON_READ_ALLOW_INF_NAN).err, TYJSON_E_TRUNCATED);
    r = skip_str("{\"a\" 1}", 0);
    ASSERT_EQ_INT(r.err, TYJSON_E_UNEXPECTED_CHAR);
    ASSERT_EQ_INT(r.expect, TYJSON__EXPECT_COLON);
    r = skip_str("{1:2}", 0);
    ASSERT_EQ_INT(r.expect, TYJSON__EXPECT_KEY);
    r = skip_str("[1 2]", 0);
    ASSERT_EQ_INT(r.expect, TYJSON__EXPECT_ARR_NEXT);
    r = skip_str("{\"a\":1 \"b\"}", 0);
    ASSERT_EQ_INT(r.expect, TYJSON__EXPECT_OBJ_NEXT);
    ASSERT_EQ_INT(skip_str("[1,2", 0).err, TYJSON_E_TRUNCATED);
    ASSERT_EQ_INT(skip_str("tru", 0).err, TYJSON_E_TRUNCATED);
    ASSERT_EQ_INT(skip_str("1.", 0).err, TYJSON_E_TRUNCATED);
    ASSERT_EQ_INT(skip_str("", 0).err, TYJSON_E_TRUNCATED);
}

/* ----------------------------------------------------------------------------
 * Both front doors on the same bad relaxed inputs
 * ------------------------------------------------------------------------- */
typedef struct one {
    int32_t a;
} one;
static const tyjson_field one_fields[] = {TYJSON_FIELD_I32(one, a, "a")};
static tyjson_struct one_type = TYJSON_STRUCT(one, one_fields, 0);

typedef struct parity_case {
    const char *json;
    u32 flags;
} parity_case;

TEST(dom_and_decoder_agree_on_bad_relaxed_input) {
    static const u32 C = TYJSON_READ_ALLOW_COMMENTS, I = TYJSON_READ_ALLOW_INF_NAN,
                     B = TYJSON_READ_ALLOW_BOM, T = TYJSON_READ_ALLOW_TRAILING_COMMAS;
    static const parity_case cases[] = {
        {"{\"a\":1} /* never closed", C},
        {"{\"a\":1 /x}", C},
        {"{\"a\":1}/", 0},
        {"/* c */ {\"a\":1 // d", C},
        {"{\"b\":[1, /* c", C},
        {"{\"a\":1,\"b\":-NaN}", I},
        {"{\"a\":1,\"b\":+Infinity}", I},
        {"{\"a\":1,\"b\":NaN}", 0},
        {"{\"a\":1,\"b\":NaX}", I},
        {"{\"a\":1,\"b\":tru", 0},
        {"{\"a\":1,\"b\":nul}", 0},
        {"{\"a\":1,\"b\":fals", 0},
        {"{\"a\":1,\"b\":[1,]}", 0},
        {"{\"a\":1,\"b\":{\"x\":1,}}", 0},
        {"{\"a\":1,}", 0},
        {"\xEF\xBB\xBF{\"a\":1}", 0},
        {"\xEF\xBB\xBF", B},
        {"\xEF\xBB\xBF \xEF\xBB\xBF{\"a\":1}", B},
        {"{\"a\":1,\"b\":\"\xFF\"}", 0},
        {"{\"a\":1,\"b\":[\"\\uD800\"]}", 0},
        {"{\"a\":1,\"b\":[1 2]}", T},
        /* the decoder gave other statuses for these before it used read/ */
        {"{\"a\":1} /", C},
        {"{\"b\":[1, /", C},
        {"{\"a\":1,\"b\":Infin", I},
        {"{\"a\":1,\"b\":-Inf", I},
    };
    int differ = 0;
    for (usize i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const parity_case *c = &cases[i];
        usize n = strlen(c->json);
        tyjson_read_options ro = {c->flags, 0, NULL};
        tyjson_error de, be;
        tyjson_doc *doc = tyjson_read_opts(c->json, n, &ro, &de);
        tyjson_doc_free(doc);
        tyjson_arena arena;
        tyjson_arena_init(&arena, NULL);
        tyjson_decode_options dopt;
        memset(&dopt, 0, sizeof(dopt));
        dopt.read_flags = c->flags;
        one out;
        tyjson_status st = tyjson_decode(&one_type, &out, c->json, n, &arena, &dopt, &be);
        tyjson_arena_free(&arena);
        if (doc || st == TYJSON_OK || de.code != st) {
            printf("  case %u (%s): DOM %s, decoder %s\n", (unsigned)i, c->json,
                   doc ? "OK" : tyjson_status_name(de.code), tyjson_status_name(st));
            differ++;
        }
    }
    ASSERT_EQ_INT(differ, 0);
}

/* ----------------------------------------------------------------------------
 * String escapes: tyjson__str_unescape (the DOM parser's, the binding's and
 * the pull reader's decoder) against a reference written here, for every
 * \uXXXX, in place and into another buffer; then the failures.
 * ------------------------------------------------------------------------- */

static usize ref_utf8(u32 cp, u8 *o) {
    if (cp < 0x80) {
        o[0] = (u8)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (u8)(0xC0 | cp >> 6);
        o[1] = (u8)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (u8)(0xE0 | cp >> 12);
        o[1] = (u8)(0x80 | (cp >> 6 & 0x3F));
        o[2] = (u8)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (u8)(0xF0 | cp >> 18);
    o[1] = (u8)(0x80 | (cp >> 12 & 0x3F));
    o[2] = (u8)(0x80 | (cp >> 6 & 0x3F));
    o[3] = (u8)(0x80 | (cp & 0x3F));
    return 4;
}

/* Decodes body (up to and including its closing quote, n bytes) both ways:
 * into a separate buffer and in place, which must agree; the result (its
 * length, or -1 with *err and *err_off) from the separate one. */
static long unesc(const u8 *body, usize n, u8 *out, tyjson_status *err, usize *err_off) {
    u8 *src = (u8 *)malloc(n + 16), *dst = (u8 *)malloc(n + 16);
    memcpy(src, body, n);
    memset(src + n, 0, 16);
    tyjson__str_unesc a = tyjson__str_unescape(src, src + n, dst, false);
    tyjson__str_unesc b = tyjson__str_unescape(src, src + n, src, false);
    long len = -1;
    *err = a.err;
    *err_off = (usize)(a.src - src);
    if (a.err != b.err || a.src != b.src || a.dst - dst != b.dst - src)
        *err = TYJSON_E_STATE; /* no decoder status: the two ways disagree */
    else if (!a.err) {
        len = (long)(a.dst - dst);
        if (memcmp(dst, src, (usize)len) != 0) *err = TYJSON_E_STATE;
        memcpy(out, dst, (usize)len);
    }
    free(src);
    free(dst);
    return len;
}

TEST(unescape_every_bmp_escape_in_runs) {
    /* Each code point as a run of three: the same escape in upper and lower
     * case hex and a plain byte between runs, so both the run loop and its
     * exits meet every value. */
    static const char hexu[] = "0123456789ABCDEF", hexl[] = "0123456789abcdef";
    u8 body[64], want[32], got[64];
    for (u32 cp = 0; cp < 0x10000; cp++) {
        if (cp >= 0xD800 && cp < 0xE000) continue;
        usize n = 0, w = 0;
        for (int k = 0; k < 3; k++) {
            const char *h = k == 1 ? hexl : hexu;
            body[n++] = '\\';
            body[n++] = 'u';
            for (int d = 3; d >= 0; d--) body[n++] = (u8)h[cp >> (4 * d) & 0xF];
            w += ref_utf8(cp, want + w);
        }
        body[n++] = 'x';
        want[w++] = 'x';
        body[n++] = '"';
        tyjson_status err;
        usize off;
        long len = unesc(body, n, got, &err, &off);
        if (err || len != (long)w || memcmp(got, want, w) != 0)
            TEST_FAIL("U+%04X: err %s, length %ld (want %zu)", (unsigned)cp, tyjson_status_name(err),
                      len, w);
    }
}

TEST(unescape_pairs_short_escapes_and_mixed_runs) {
    /* surrogate pairs at the edges of both halves */
    static const u32 his[] = {0xD800, 0xD801, 0xD83D, 0xDBFE, 0xDBFF};
    static const u32 los[] = {0xDC00, 0xDC01, 0xDE00, 0xDFFE, 0xDFFF};
    u8 body[64], want[32], got[64];
    for (usize i = 0; i < 5; i++)
        for (usize j = 0; j < 5; j++) {
            int n = snprintf((char *)body, sizeof body, "\\u%04X\\u%04x\\u00e9\"", (unsigned)his[i],
                             (unsigned)los[j]);
            u32 cp = 0x10000 + ((his[i] - 0xD800) << 10) + (los[j] - 0xDC00);
            usize w = ref_utf8(cp, want);
            w += ref_utf8(0xE9, want + w);
            tyjson_status err;
            usize off;
            long len = unesc(body, (usize)n, got, &err, &off);
            ASSERT_EQ_INT(err, TYJSON_OK);
            ASSERT_EQ_INT(len, (long)w);
            ASSERT_EQ_MEM(got, want, w);
        }
    /* every short escape, alone and in a run with \u forms of each length */
    const char *s = "a\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\\u00E9\\u4e2d\\uD83D\\uDE00\\n\\u0000z\"";
    const char want2[] = "a\"\\/\b\f\n\r\tA\xC3\xA9\xE4\xB8\xAD\xF0\x9F\x98\x80\n\0z";
    tyjson_status err;
    usize off;
    long len = unesc((const u8 *)s, strlen(s), got, &err, &off);
    ASSERT_EQ_INT(err, TYJSON_OK);
    ASSERT_EQ_INT(len, (long)sizeof want2 - 1);
    ASSERT_EQ_MEM(got, want2, sizeof want2 - 1);
}

TEST(unescape_failures_stay_where_they_were) {
    static const struct {
        const char *body;
        tyjson_status err;
        usize off;
    } cases[] = {
        {"\\ud800\"", TYJSON_E_SURROGATE, 0},          /* lone high */
        {"\\udc00\"", TYJSON_E_SURROGATE, 0},          /* lone low */
        {"\\uDFFF\"", TYJSON_E_SURROGATE, 0},
        {"ab\\ud800\\u0041\"", TYJSON_E_SURROGATE, 2}, /* high, then no low */
        {"\\u00e9\\ud800\\ud800\"", TYJSON_E_SURROGATE, 6}, /* high, then high */
        {"\\ud83d\\n\"", TYJSON_E_SURROGATE, 0},
        {"\\ud83d\\u\"", TYJSON_E_SURROGATE, 0},
        {"\\u12G4\"", TYJSON_E_ESCAPE, 0},             /* not hex, at each digit */
        {"\\uG234\"", TYJSON_E_ESCAPE, 0},
        {"\\u123g\"", TYJSON_E_ESCAPE, 0},
        {"\\u4e2d\\u4e2\"", TYJSON_E_ESCAPE, 6},       /* broken inside a run */
        {"\\u-123\"", TYJSON_E_ESCAPE, 0},
        {"\\u 123\"", TYJSON_E_ESCAPE, 0},
        {"\\x\"", TYJSON_E_ESCAPE, 0},
        {"\\u00e9\\a\"", TYJSON_E_ESCAPE, 6},
        {"\\U0041\"", TYJSON_E_ESCAPE, 0},
    };
    u8 got[64];
    for (usize i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tyjson_status err;
        usize off;
        long len = unesc((const u8 *)cases[i].body, strlen(cases[i].body), got, &err, &off);
        if (len != -1 || err != cases[i].err || off != cases[i].off)
            TEST_FAIL("%s: length %ld, %s at %zu", cases[i].body, len, tyjson_status_name(err), off);
    }
    /* every byte that is no hex digit, at each of the four places */
    u8 body[8] = {'\\', 'u', '0', '0', '4', '1', '"', 0};
    for (int pos = 2; pos < 6; pos++)
        for (int c = 0; c < 256; c++) {
            if (tyjson__hexval[c] != 0xFF) continue;
            u8 b[8];
            memcpy(b, body, 8);
            b[pos] = (u8)c;
            tyjson_status err;
            usize off;
            long len = unesc(b, 7, got, &err, &off);
            if (len != -1 || err != TYJSON_E_ESCAPE || off != 0)
                TEST_FAIL("byte %#x at %d: length %ld, %s at %zu", c, pos, len,
                          tyjson_status_name(err), off);
        }
    /* the DOM parse reports them at the same byte */
    tyjson_error e;
    ASSERT_NULL(tyjson_read_opts("[\"\\u4e2d\\ud800x\"]", 17, NULL, &e));
    ASSERT_EQ_INT(e.code, TYJSON_E_SURROGATE);
    ASSERT_EQ_UINT(e.offset, 8);
    ASSERT_NULL(tyjson_read_opts("[\"\\u4e2d\\u4eX2\"]", 16, NULL, &e));
    ASSERT_EQ_INT(e.code, TYJSON_E_ESCAPE);
    ASSERT_EQ_UINT(e.offset, 8);
}

int main(int argc, char **argv) { return test_main(argc, argv); }
