#define _POSIX_C_SOURCE 200809L /* opendir */
/* test_json5.c - JSON5 input (TYJSON_READ_JSON5 and its one-per-extension
 * flags): every file of ../shared/conformance/json5 through the DOM parser,
 * tyjson_validate, the validating skip (STOP_WHEN_DONE) and the pull reader
 * (whole, one byte at a time, random chunks), which must agree; each flag
 * alone on small inputs, with the values it yields; strict reading of the
 * JSON5-only forms keeps its errors. */
#include "test.h"
#include "tyjson.h"

#include <dirent.h>
#include <math.h>

#define J5_DIR "conformance/json5"

/* ----------------------------------------------------------------------------
 * A canonical rendering of a value, built alike from a document and from
 * the reader's tokens: u123 i-5 r0x1.8p+0 s"text" (bytes in hex past ASCII
 * controls) and the structure.
 * ------------------------------------------------------------------------- */
typedef struct buf {
    char *p;
    size_t n, cap;
} buf;

static void put(buf *b, const char *s, size_t n) {
    if (b->n + n + 1 > b->cap) {
        size_t nc = (b->cap ? b->cap * 2 : 256) + n;
        b->p = (char *)realloc(b->p, nc);
        b->cap = nc;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}
static void puts_(buf *b, const char *s) { put(b, s, strlen(s)); }

static void put_str(buf *b, const char *s, size_t n) {
    puts_(b, "s\"");
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        char t[8];
        if (c < 0x20 || c == '"' || c == '\\') {
            snprintf(t, sizeof t, "\\%02x", c);
            puts_(b, t);
        } else {
            put(b, (const char *)&c, 1);
        }
    }
    puts_(b, "\"");
}

static void put_real(buf *b, double d) {
    char t[64];
    if (d != d) snprintf(t, sizeof t, "rnan");
    else snprintf(t, sizeof t, "r%a", d);
    puts_(b, t);
}

static void canon_val(buf *b, const tyjson_val *v) {
    char t[64];
    switch (tyjson_get_type(v)) {
    case TYJSON_TYPE_NULL: puts_(b, "null"); break;
    case TYJSON_TYPE_BOOL: puts_(b, tyjson_get_bool(v) ? "true" : "false"); break;
    case TYJSON_TYPE_NUM:
        if (tyjson_is_uint(v)) {
            snprintf(t, sizeof t, "u%" PRIu64, tyjson_get_uint(v));
            puts_(b, t);
        } else if (tyjson_is_sint(v)) {
            snprintf(t, sizeof t, "i%" PRId64, tyjson_get_sint(v));
            puts_(b, t);
        } else {
            put_real(b, tyjson_get_real(v));
        }
        break;
    case TYJSON_TYPE_STR: put_str(b, tyjson_get_str(v), tyjson_get_len(v)); break;
    case TYJSON_TYPE_ARR: {
        puts_(b, "[");
        tyjson_arr_iter it = tyjson_arr_iter_with(v);
        tyjson_val *e;
        while ((e = tyjson_arr_iter_next(&it))) {
            canon_val(b, e);
            puts_(b, ",");
        }
        puts_(b, "]");
        break;
    }
    case TYJSON_TYPE_OBJ: {
        puts_(b, "{");
        tyjson_obj_iter it = tyjson_obj_iter_with(v);
        tyjson_val *k;
        while ((k = tyjson_obj_iter_next(&it))) {
            put_str(b, tyjson_get_str(k), tyjson_get_len(k));
            puts_(b, ":");
            canon_val(b, tyjson_obj_iter_get_val(k));
            puts_(b, ",");
        }
        puts_(b, "}");
        break;
    }
    default: puts_(b, "?"); break;
    }
}

/* The DOM's rendering, or NULL (err filled) when the text is refused. */
static char *dom_canon(const char *dat, size_t len, tyjson_read_flags flags, tyjson_error *err) {
    tyjson_read_options o = {flags, 0, NULL};
    tyjson_doc *d = tyjson_read_opts(dat, len, &o, err);
    if (!d) return NULL;
    buf b = {NULL, 0, 0};
    canon_val(&b, tyjson_doc_get_root(d));
    tyjson_doc_free(d);
    return b.p;
}

/* The reader's rendering of the same, fed `chunk` bytes at a time (0: the
 * whole buffer with open_buf; SIZE_MAX: random chunks of 1..17 bytes). */
static char *reader_canon(const char *dat, size_t len, tyjson_read_flags flags, size_t chunk,
                          tyjson_error *err) {
    tyjson_reader_options o;
    memset(&o, 0, sizeof o);
    o.flags = flags;
    tyjson_reader *r = tyjson_reader_new(&o, err);
    if (!r) return NULL;
    if (chunk == 0) tyjson_reader_open_buf(r, dat, len);
    else tyjson_reader_open_push(r);
    size_t at = 0;
    unsigned seed = 12345u + (unsigned)len;
    buf b = {NULL, 0, 0};
    puts_(&b, "");
    /* after each value in a container the DOM rendering has a ',' */
    int depth = 0;
    for (;;) {
        tyjson_token t = tyjson_reader_next(r);
        if (t == TYJSON_TOK_NEED_MORE) {
            if (at == len) {
                tyjson_reader_feed_end(r);
                continue;
            }
            size_t n = chunk;
            if (chunk == SIZE_MAX) {
                seed = seed * 1103515245u + 12345u;
                n = 1 + (seed >> 16) % 17;
            }
            if (n > len - at) n = len - at;
            tyjson_reader_feed(r, dat + at, n);
            at += n;
            continue;
        }
        if (t == TYJSON_TOK_ERROR) {
            *err = *tyjson_reader_error(r);
            free(b.p);
            tyjson_reader_free(r);
            return NULL;
        }
        if (t == TYJSON_TOK_END) break;
        size_t n = 0;
        const char *s;
        char tmp[64];
        switch (t) {
        case TYJSON_TOK_NULL: puts_(&b, "null"); break;
        case TYJSON_TOK_TRUE: puts_(&b, "true"); break;
        case TYJSON_TOK_FALSE: puts_(&b, "false"); break;
        case TYJSON_TOK_NUM: {
            uint64_t u;
            int64_t i;
            double d = 0;
            if (tyjson_reader_get_u64(r, &u)) {
                snprintf(tmp, sizeof tmp, "u%" PRIu64, u);
                puts_(&b, tmp);
            } else if (tyjson_reader_get_i64(r, &i)) {
                snprintf(tmp, sizeof tmp, "i%" PRId64, i);
                puts_(&b, tmp);
            } else {
                tyjson_reader_get_double(r, &d);
                put_real(&b, d);
            }
            break;
        }
        case TYJSON_TOK_STR:
        case TYJSON_TOK_KEY:
            s = tyjson_reader_str(r, &n);
            put_str(&b, s, n);
            if (t == TYJSON_TOK_KEY) {
                puts_(&b, ":");
                continue;
            }
            break;
        case TYJSON_TOK_ARR_BEGIN: puts_(&b, "["); depth++; continue;
        case TYJSON_TOK_OBJ_BEGIN: puts_(&b, "{"); depth++; continue;
        case TYJSON_TOK_ARR_END: puts_(&b, "]"); depth--; break;
        case TYJSON_TOK_OBJ_END: puts_(&b, "}"); depth--; break;
        default: break;
        }
        if (depth > 0) puts_(&b, ",");
    }
    tyjson_reader_free(r);
    return b.p;
}

/* Every front door on one text: NULL when all refuse it, else the common
 * rendering; a disagreement fails the test, naming the file. */
static char *all_doors(const char *name, const char *dat, size_t len, tyjson_read_flags flags,
                       tyjson_error *err) {
    char *dom = dom_canon(dat, len, flags, err);
    tyjson_error e2;
    tyjson_read_options o = {flags, 0, NULL};
    bool valid = tyjson_validate(dat, len, &o, &e2);
    if (valid != (dom != NULL)) TEST_FAIL("%s: validate says %d, the DOM %d", name, valid, dom != NULL);
    if (!dom && e2.code != err->code) TEST_FAIL("%s: validate's error %s, the DOM's %s", name,
                                                tyjson_status_name(e2.code), tyjson_status_name(err->code));
    /* the validating skip: STOP_WHEN_DONE finds the value's end with it */
    tyjson_read_options so = {flags | TYJSON_READ_STOP_WHEN_DONE, 0, NULL};
    tyjson_doc *sd = tyjson_read_opts(dat, len, &so, &e2);
    if (dom && !sd) TEST_FAIL("%s: STOP_WHEN_DONE refuses it: %s", name, e2.msg);
    tyjson_doc_free(sd);
    static const size_t chunks[] = {0, 1, SIZE_MAX, 7};
    for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
        tyjson_error e3;
        char *rd = reader_canon(dat, len, flags, chunks[c], &e3);
        if ((rd != NULL) != (dom != NULL))
            TEST_FAIL("%s: the reader (chunk %zu) %s, the DOM %s (%s)", name, chunks[c],
                      rd ? "accepts" : "refuses", dom ? "accepts" : "refuses",
                      rd ? err->msg : e3.msg);
        if (rd && strcmp(rd, dom) != 0)
            TEST_FAIL("%s: the reader (chunk %zu) reads\n%s\nthe DOM\n%s", name, chunks[c], rd, dom);
        if (!rd && (e3.code != err->code || e3.offset != err->offset))
            TEST_FAIL("%s: the reader's (chunk %zu) error %s at %zu (%s), the DOM's %s at %zu (%s)", name,
                      chunks[c], tyjson_status_name(e3.code), e3.offset, e3.msg,
                      tyjson_status_name(err->code), err->offset, err->msg);
        free(rd);
    }
    return dom;
}

/* ----------------------------------------------------------------------------
 * The conformance files
 * ------------------------------------------------------------------------- */
static int ends_with(const char *s, const char *suf) {
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

typedef struct tally {
    int json_ok, json5_ok, js_refused, txt_refused, strict_refused_json5, files;
} tally;

static void check_file(const char *dir, const char *name, tally *t) {
    char path[1024];
    int k = snprintf(path, sizeof path, "%s/%s", dir, name);
    if (k < 0 || (size_t)k >= sizeof path) TEST_FAIL("path too long: %s", name);
    size_t n0 = 0;
    char *text = test_read_file(path, &n0);
    if (!text) TEST_FAIL("cannot read %s", path);
    char *exact = (char *)malloc(n0 ? n0 : 1); /* ASan sees reads past the end */
    memcpy(exact, text, n0);
    free(text);
    tyjson_error err;
    char *got = all_doors(path, exact, n0, TYJSON_READ_JSON5, &err);
    t->files++;
    if (ends_with(name, ".json") || ends_with(name, ".json5")) {
        if (!got) TEST_FAIL("%s refused with TYJSON_READ_JSON5: %s", path, err.msg);
        tyjson_error se;
        char *strict = all_doors(path, exact, n0, 0, &se);
        if (ends_with(name, ".json")) {
            if (!strict) TEST_FAIL("%s refused in strict mode: %s", path, se.msg);
            if (strcmp(strict, got) != 0) TEST_FAIL("%s reads differently as JSON5", path);
            t->json_ok++;
        } else {
            if (strict) TEST_FAIL("%s (JSON5 only) accepted in strict mode", path);
            t->json5_ok++;
            t->strict_refused_json5++;
        }
        free(strict);
    } else if (ends_with(name, ".js") || ends_with(name, ".txt")) {
        if (got) TEST_FAIL("%s accepted with TYJSON_READ_JSON5: %s", path, got);
        if (!err.msg[0] || err.offset > n0 || err.line < 1) TEST_FAIL("%s: a malformed error", path);
        if (ends_with(name, ".js")) t->js_refused++;
        else t->txt_refused++;
    }
    free(got);
    free(exact);
}

static void walk(const char *dir, tally *t, int level) {
    DIR *d = opendir(dir);
    if (!d) TEST_FAIL("cannot open %s", dir);
    struct dirent *e;
    static char names[4][256][256]; /* per level: the suite is two deep */
    int n = 0;
    if (level >= 4) TEST_FAIL("%s: too deep", dir);
    while ((e = readdir(d)) && n < 256) {
        if (e->d_name[0] == '.' || strlen(e->d_name) >= sizeof names[0][0]) continue;
        memcpy(names[level][n++], e->d_name, strlen(e->d_name) + 1);
    }
    closedir(d);
    for (int i = 0; i < n; i++) {
        char sub[1024];
        int k = snprintf(sub, sizeof sub, "%s/%s", dir, names[level][i]);
        if (k < 0 || (size_t)k >= sizeof sub) TEST_FAIL("path too long: %s", names[level][i]);
        DIR *s = opendir(sub);
        if (s) {
            closedir(s);
            walk(sub, t, level + 1);
        } else {
            check_file(dir, names[level][i], t);
        }
    }
}

TEST(conformance_json5_files) {
    char dir[1024];
    test_shared_path(J5_DIR, dir, sizeof dir);
    DIR *d = opendir(dir);
    if (!d) {
        if (test_require_shared()) TEST_FAIL("%s is missing", dir);
        TEST_SKIP("%s is absent", dir);
    }
    closedir(d);
    tally t = {0, 0, 0, 0, 0, 0};
    walk(dir, &t, 0);
    printf("  json5 suite: %d .json accepted (strict too), %d .json5 accepted (refused strict),"
           " %d .js refused, %d .txt refused\n",
           t.json_ok, t.json5_ok, t.js_refused, t.txt_refused);
    ASSERT_TRUE(t.json_ok >= 20);
    ASSERT_TRUE(t.json5_ok >= 50);
    ASSERT_TRUE(t.js_refused >= 5);
    ASSERT_TRUE(t.txt_refused >= 20);
}

/* JSON5 is a superset: every y_ file of JSONTestSuite reads the same. */
TEST(jsontestsuite_y_files_same_as_json5) {
    char dir[1024];
    test_shared_path("conformance/test_parsing", dir, sizeof dir);
    DIR *d = opendir(dir);
    if (!d) {
        if (test_require_shared()) TEST_FAIL("%s is missing", dir);
        TEST_SKIP("%s is absent", dir);
    }
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, "y_", 2) != 0) continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len = 0;
        char *text = test_read_file(path, &len);
        tyjson_error e1, e2;
        char *a = dom_canon(text, len, 0, &e1);
        char *b = dom_canon(text, len, TYJSON_READ_JSON5, &e2);
        if (!a || !b || strcmp(a, b) != 0) TEST_FAIL("%s reads differently with JSON5", path);
        char *c = reader_canon(text, len, TYJSON_READ_JSON5, 1, &e2);
        if (!c || strcmp(a, c) != 0) TEST_FAIL("%s: the JSON5 reader differs", path);
        free(a);
        free(b);
        free(c);
        free(text);
        n++;
    }
    closedir(d);
    ASSERT_TRUE(n > 90);
}

/* ----------------------------------------------------------------------------
 * Each flag alone
 * ------------------------------------------------------------------------- */
typedef struct flag_case {
    tyjson_read_flags flag;
    const char *text;
    const char *want; /* canonical rendering */
} flag_case;

static const flag_case FLAG_CASES[] = {
    {TYJSON_READ_ALLOW_SINGLE_QUOTES, "'a\"b'", "s\"a\\22b\""},
    {TYJSON_READ_ALLOW_SINGLE_QUOTES, "{'k': 'it\\'s'}", "{s\"k\":s\"it's\",}"},
    {TYJSON_READ_ALLOW_SINGLE_QUOTES, "['\\u00e9\\n', \"x\\'y\"]", "[s\"\xc3\xa9\\0a\",s\"x'y\",]"},
    {TYJSON_READ_ALLOW_UNQUOTED_KEYS, "{a: 1, $_x9 :2,\t_:3}", "{s\"a\":u1,s\"$_x9\":u2,s\"_\":u3,}"},
    {TYJSON_READ_ALLOW_UNQUOTED_KEYS, "{\\u0061b: true}", "{s\"ab\":true,}"},
    {TYJSON_READ_ALLOW_UNQUOTED_KEYS, "{\xc3\xbc" "ber: null, \xe4\xb8\xad: 0}",
     "{s\"\xc3\xbc" "ber\":null,s\"\xe4\xb8\xad\":u0,}"},
    {TYJSON_READ_ALLOW_UNQUOTED_KEYS, "{a:{b:[]}}", "{s\"a\":{s\"b\":[],},}"},
    {TYJSON_READ_ALLOW_HEX_NUMBERS, "[0x1F, 0XaB, -0x10, 0x0, -0x0]", "[u31,u171,i-16,u0,r-0x0p+0,]"},
    {TYJSON_READ_ALLOW_HEX_NUMBERS, "0xFFFFFFFFFFFFFFFF", "u18446744073709551615"},
    {TYJSON_READ_ALLOW_HEX_NUMBERS, "-0x8000000000000000", "i-9223372036854775808"},
    {TYJSON_READ_ALLOW_HEX_NUMBERS, "0xC8e4", "u51428"},
    {TYJSON_READ_ALLOW_PLUS_SIGN, "[+1, +1.5, +0, +2e3]", "[u1,r0x1.8p+0,u0,r0x1.f4p+10,]"},
    {TYJSON_READ_ALLOW_BARE_DECIMAL_POINT, "[.5, 5., -.5e1, 5.e2, -0.]",
     "[r0x1p-1,r0x1.4p+2,r-0x1.4p+2,r0x1.f4p+8,r-0x0p+0,]"},
    {TYJSON_READ_ALLOW_EXTRA_WHITESPACE, "\v[1,\f2]\xc2\xa0", "[u1,u2,]"},
    {TYJSON_READ_ALLOW_EXTRA_WHITESPACE, "\xef\xbb\xbf{\"a\"\xe3\x80\x80:\xe2\x80\xa8" "1\xe2\x80\x89}",
     "{s\"a\":u1,}"},
    {TYJSON_READ_ALLOW_EXTRA_WHITESPACE, "[\xe1\x9a\x80" "1\xe2\x80\xaf,\xe2\x81\x9f" "2\xe2\x80\xa9]", "[u1,u2,]"},
    {TYJSON_READ_ALLOW_ESCAPED_LINE_BREAKS, "\"a\\\nb\\\r\nc\\\rd\\\xe2\x80\xa8" "e\"", "s\"abcde\""},
    {TYJSON_READ_ALLOW_EXTENDED_ESCAPES, "\"\\v\\0\\x41\\q\\'\\\xc3\xa9\"", "s\"\\0b\\00Aq'\xc3\xa9\""},
    {TYJSON_READ_ALLOW_EXTENDED_ESCAPES, "[\"\\xff\", \"x\\0\"]", "[s\"\xc3\xbf\",s\"x\\00\",]"},
};

TEST(each_flag_alone) {
    for (size_t i = 0; i < sizeof FLAG_CASES / sizeof FLAG_CASES[0]; i++) {
        const flag_case *c = &FLAG_CASES[i];
        size_t len = strlen(c->text);
        char name[64];
        snprintf(name, sizeof name, "flag case %zu", i);
        tyjson_error err;
        char *got = all_doors(name, c->text, len, c->flag, &err);
        if (!got) TEST_FAIL("%s (%s) refused with its flag: %s", name, c->text, err.msg);
        if (strcmp(got, c->want) != 0) TEST_FAIL("%s: %s reads\n%s\nnot\n%s", name, c->text, got, c->want);
        free(got);
        got = all_doors(name, c->text, len, TYJSON_READ_JSON5, &err);
        if (!got || strcmp(got, c->want) != 0) TEST_FAIL("%s differs under TYJSON_READ_JSON5", name);
        free(got);
        /* without the flag: refused, also with every other JSON5 flag */
        got = all_doors(name, c->text, len, 0, &err);
        if (got) TEST_FAIL("%s (%s) accepted in strict mode", name, c->text);
        got = all_doors(name, c->text, len, TYJSON_READ_JSON5 & ~c->flag, &err);
        if (got) TEST_FAIL("%s (%s) accepted without its flag", name, c->text);
    }
}

TEST(signed_inf_nan_needs_plus_sign) {
    tyjson_error err;
    char *got = all_doors("inf", "[Infinity, -Infinity, NaN]", 26, TYJSON_READ_ALLOW_INF_NAN, &err);
    ASSERT_NOT_NULL(got);
    ASSERT_EQ_STR(got, "[rinf,r-inf,rnan,]");
    free(got);
    const char *signed_words[] = {"+Infinity", "+NaN", "-NaN"};
    for (int i = 0; i < 3; i++) {
        size_t n = strlen(signed_words[i]);
        ASSERT_NULL(all_doors("w", signed_words[i], n, TYJSON_READ_ALLOW_INF_NAN, &err));
        ASSERT_NULL(all_doors("w", signed_words[i], n, TYJSON_READ_ALLOW_PLUS_SIGN, &err));
        got = all_doors("w", signed_words[i], n,
                        TYJSON_READ_ALLOW_INF_NAN | TYJSON_READ_ALLOW_PLUS_SIGN, &err);
        ASSERT_NOT_NULL(got);
        ASSERT_EQ_STR(got, i == 0 ? "rinf" : "rnan");
        free(got);
    }
}

/* Inputs JSON5 forbids too, with the error every front door gives. */
TEST(json5_refusals) {
    static const struct {
        const char *text;
        tyjson_status code;
        size_t offset;
    } bad[] = {
        {"0x", TYJSON_E_TRUNCATED, 2},
        {"[0x]", TYJSON_E_NUMBER, 3},
        {"[0xG]", TYJSON_E_NUMBER, 3},
        {"0x10000000000000000", TYJSON_E_NUMBER_RANGE, 0},
        {"-0x8000000000000001", TYJSON_E_NUMBER_RANGE, 0},
        {"[.]", TYJSON_E_NUMBER, 2},
        {"[00]", TYJSON_E_NUMBER, 2},
        {"[+01]", TYJSON_E_NUMBER, 3},
        {"[01.]", TYJSON_E_NUMBER, 2},
        {"[1e0x4]", TYJSON_E_UNEXPECTED_CHAR, 4},
        {"[1e]", TYJSON_E_NUMBER, 3},
        {"{10a: 1}", TYJSON_E_UNEXPECTED_CHAR, 1},
        {"{a-b: 1}", TYJSON_E_UNEXPECTED_CHAR, 2},
        {"{\\u0020: 1}", TYJSON_E_ESCAPE, 1},
        {"{\\x41: 1}", TYJSON_E_ESCAPE, 1},
        {"{a 1}", TYJSON_E_UNEXPECTED_CHAR, 3},
        {"\"\\1\"", TYJSON_E_ESCAPE, 1},
        {"\"\\01\"", TYJSON_E_ESCAPE, 1},
        {"\"\\x4\"", TYJSON_E_ESCAPE, 1},
        {"'abc", TYJSON_E_TRUNCATED, 4},
        {"'a\nb'", TYJSON_E_STRING_CTRL, 2},
        {"[1,,2]", TYJSON_E_UNEXPECTED_CHAR, 3},
        {"[,]", TYJSON_E_UNEXPECTED_CHAR, 1},
        {"// only a comment", TYJSON_E_EMPTY, 17},
        {"/* open", TYJSON_E_COMMENT, 0},
        {"+", TYJSON_E_TRUNCATED, 1},
        {"[-NaX]", TYJSON_E_LITERAL, 2},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tyjson_error err;
        char name[64];
        snprintf(name, sizeof name, "refusal %zu", i);
        char *got = all_doors(name, bad[i].text, strlen(bad[i].text), TYJSON_READ_JSON5, &err);
        if (got) TEST_FAIL("%s accepted: %s", bad[i].text, got);
        if (err.code != bad[i].code || err.offset != bad[i].offset)
            TEST_FAIL("%s: %s at %zu (%s), expected %s at %zu", bad[i].text, tyjson_status_name(err.code),
                      err.offset, err.msg, tyjson_status_name(bad[i].code), bad[i].offset);
    }
}

/* Without the flags the JSON5 forms fail exactly as before (the strict
 * parser's code and offset). */
TEST(strict_errors_unchanged) {
    static const struct {
        const char *text;
        tyjson_status code;
        size_t offset;
    } cases[] = {
        {"+1", TYJSON_E_UNEXPECTED_CHAR, 0},  {".5", TYJSON_E_UNEXPECTED_CHAR, 0},
        {"[5.]", TYJSON_E_NUMBER, 3},         {"0x1F", TYJSON_E_TRAILING, 1},
        {"{a:1}", TYJSON_E_UNEXPECTED_CHAR, 1}, {"'a'", TYJSON_E_UNEXPECTED_CHAR, 0},
        {"\"\\v\"", TYJSON_E_ESCAPE, 1},      {"\v1", TYJSON_E_UNEXPECTED_CHAR, 0},
        {"\"a\\\nb\"", TYJSON_E_ESCAPE, 2}, {"-NaN", TYJSON_E_NUMBER, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tyjson_error err;
        char *got = all_doors(cases[i].text, cases[i].text, strlen(cases[i].text), 0, &err);
        if (got) TEST_FAIL("%s accepted in strict mode", cases[i].text);
        if (err.code != cases[i].code || err.offset != cases[i].offset)
            TEST_FAIL("%s: %s at %zu, expected %s at %zu", cases[i].text, tyjson_status_name(err.code),
                      err.offset, tyjson_status_name(cases[i].code), cases[i].offset);
    }
}

/* A // comment ends at CR and the line separators with EXTRA_WHITESPACE,
 * only at LF without it (the older ALLOW_COMMENTS rule). */
TEST(line_comment_ends) {
    tyjson_error err;
    const char *cr = "// c\r[1]";
    char *got = all_doors("cr", cr, strlen(cr), TYJSON_READ_ALLOW_COMMENTS | TYJSON_READ_ALLOW_EXTRA_WHITESPACE, &err);
    ASSERT_NOT_NULL(got);
    ASSERT_EQ_STR(got, "[u1,]");
    free(got);
    ASSERT_NULL(all_doors("cr", cr, strlen(cr), TYJSON_READ_ALLOW_COMMENTS, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_EMPTY);
    const char *ls = "[1, // c\xe2\x80\xa8 2]";
    got = all_doors("ls", ls, strlen(ls), TYJSON_READ_JSON5, &err);
    ASSERT_NOT_NULL(got);
    ASSERT_EQ_STR(got, "[u1,u2,]");
    free(got);
}

/* NDJSON lines take the flags too. */
TEST(ndjson_lines_json5) {
    const char *text = "{a: 1}\n['x', 0x10]\n";
    tyjson_lines_options lo;
    memset(&lo, 0, sizeof lo);
    lo.read_flags = TYJSON_READ_JSON5;
    tyjson_error err;
    tyjson_lines *it = tyjson_lines_open_buf(text, strlen(text), &lo, &err);
    ASSERT_NOT_NULL(it);
    tyjson_doc *d;
    int n = 0;
    tyjson_status st;
    while ((st = tyjson_lines_next_doc(it, &d, &err)) == TYJSON_OK) {
        n++;
        tyjson_doc_free(d);
    }
    ASSERT_EQ_INT(st, TYJSON_DONE);
    ASSERT_EQ_INT(n, 2);
    tyjson_lines_free(it);
}

/* The binding decoder reads JSON only: a JSON5 bit is refused up front,
 * with the output zeroed and a message saying so. */
typedef struct j5_pt {
    int64_t x;
} j5_pt;
static const tyjson_field j5_pt_fields[] = {TYJSON_FIELD_I64(j5_pt, x, "x")};
static tyjson_struct j5_pt_type = TYJSON_STRUCT(j5_pt, j5_pt_fields, 0);

TEST(decoder_refuses_json5_bits) {
    tyjson_arena a;
    tyjson_arena_init(&a, NULL);
    j5_pt p = {7};
    tyjson_decode_options o;
    memset(&o, 0, sizeof o);
    o.read_flags = TYJSON_READ_ALLOW_HEX_NUMBERS;
    tyjson_error err;
    ASSERT_EQ_INT(tyjson_decode(&j5_pt_type, &p, "{\"x\":1}", 7, &a, &o, &err), TYJSON_E_INVALID_ARG);
    ASSERT_TRUE(strstr(err.msg, "JSON5") != NULL);
    ASSERT_EQ_INT(p.x, 0);
    o.read_flags = 0;
    ASSERT_EQ_INT(tyjson_decode(&j5_pt_type, &p, "{\"x\":1}", 7, &a, &o, &err), TYJSON_OK);
    ASSERT_EQ_INT(p.x, 1);
    tyjson_arena_free(&a);
}

/* The reader's whole-value calls (skip, read_doc) take JSON5 values too,
 * fed a byte at a time. */
TEST(reader_skip_and_read_doc) {
    const char *text = "{skip: {a: [0x1, 'b', .5,], c: +1}, keep: {'k': \"v\\x41\", n: -0x2}, last: 1}";
    size_t len = strlen(text), at = 0;
    tyjson_reader_options o;
    memset(&o, 0, sizeof o);
    o.flags = TYJSON_READ_JSON5;
    tyjson_error err;
    tyjson_reader *r = tyjson_reader_new(&o, &err);
    ASSERT_NOT_NULL(r);
    ASSERT_EQ_INT(tyjson_reader_open_push(r), TYJSON_OK);
    tyjson_token t;
#define FEED_UNTIL(expr)                                                       \
    while ((expr)) {                                                           \
        if (at == len) tyjson_reader_feed_end(r);                              \
        else ASSERT_EQ_INT(tyjson_reader_feed(r, text + at++, 1), TYJSON_OK);  \
    }
    FEED_UNTIL((t = tyjson_reader_next(r)) == TYJSON_TOK_NEED_MORE);
    ASSERT_EQ_INT(t, TYJSON_TOK_OBJ_BEGIN);
    FEED_UNTIL((t = tyjson_reader_next(r)) == TYJSON_TOK_NEED_MORE);
    ASSERT_EQ_INT(t, TYJSON_TOK_KEY);
    tyjson_status st;
    FEED_UNTIL((st = tyjson_reader_skip(r)) == TYJSON_MORE);
    ASSERT_EQ_INT(st, TYJSON_OK);
    FEED_UNTIL((t = tyjson_reader_next(r)) == TYJSON_TOK_NEED_MORE);
    ASSERT_EQ_INT(t, TYJSON_TOK_KEY);
    size_t n;
    const char *k = tyjson_reader_str(r, &n);
    ASSERT_EQ_MEM(k, "keep", 4);
    tyjson_doc *d = NULL;
    for (;;) {
        d = tyjson_reader_read_doc(r, NULL, &err);
        if (d || err.code != TYJSON_MORE) break;
        if (at == len) tyjson_reader_feed_end(r);
        else ASSERT_EQ_INT(tyjson_reader_feed(r, text + at++, 1), TYJSON_OK);
    }
    if (!d) TEST_FAIL("read_doc: %s", err.msg);
    buf b = {NULL, 0, 0};
    canon_val(&b, tyjson_doc_get_root(d));
    ASSERT_EQ_STR(b.p, "{s\"k\":s\"vA\",s\"n\":i-2,}");
    free(b.p);
    tyjson_doc_free(d);
    FEED_UNTIL((t = tyjson_reader_next(r)) == TYJSON_TOK_NEED_MORE);
    ASSERT_EQ_INT(t, TYJSON_TOK_KEY);
    k = tyjson_reader_str(r, &n);
    ASSERT_EQ_MEM(k, "last", 4);
#undef FEED_UNTIL
    tyjson_reader_free(r);
}

/* A repeated identifier key is reported at its first byte (a quoted one
 * at its quote) by every front door. */
TEST(duplicate_identifier_keys) {
    tyjson_error err;
    const char *t = "{a: 1, 'b': 2, a: 3}";
    ASSERT_NULL(all_doors("dup", t, strlen(t), TYJSON_READ_JSON5 | TYJSON_READ_REJECT_DUPLICATE_KEYS, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_DUPLICATE_KEY);
    ASSERT_EQ_UINT(err.offset, 15);
    t = "{'b': 1, b: 2, \"b\": 3}";
    ASSERT_NULL(all_doors("dup", t, strlen(t), TYJSON_READ_JSON5 | TYJSON_READ_REJECT_DUPLICATE_KEYS, &err));
    ASSERT_EQ_UINT(err.offset, 9);
}

int main(int argc, char **argv) { return test_main(argc, argv); }
