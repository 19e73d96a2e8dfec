#define _POSIX_C_SOURCE 200809L /* fmemopen */
/* test_reader_fast.c - the pull reader's fast step (src/stream/reader.c,
 * fast_next: strict numbers, no duplicate-key checks, the token resident)
 * gives what the general step gives: every token's kind, depth, offset,
 * line:column, path, text and number, and every error, equal to a run with
 * TYJSON_READ_REJECT_DUPLICATE_KEYS (which takes the general step for every
 * token; the documents here have no repeated key), from a buffer and from a
 * FILE* with small windows. tyjson_reader_str's short-copy path: every
 * length next to every end of the input. */
#include "test.h"
#include "tyjson.h"

#include <stdarg.h>

typedef struct lst {
    char *s;
    size_t n, cap;
} lst;

static void lst_fmt(lst *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void lst_fmt(lst *b, const char *fmt, ...) {
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(tmp, sizeof(tmp), fmt, ap);
    va_end(ap);
    size_t n = (size_t)k < sizeof(tmp) ? (size_t)k : sizeof(tmp) - 1;
    if (b->n + n + 1 > b->cap) {
        size_t nc = b->cap ? b->cap * 2 : 1024;
        while (nc < b->n + n + 1) nc *= 2;
        char *ns = (char *)realloc(b->s, nc);
        if (!ns) abort();
        b->s = ns;
        b->cap = nc;
    }
    memcpy(b->s + b->n, tmp, n);
    b->n += n;
    b->s[b->n] = 0;
}

/* Everything the reader says about each token, one line a token. */
static void listing(tyjson_reader *r, lst *out) {
    for (;;) {
        tyjson_token t = tyjson_reader_next(r);
        size_t line = 0, col = 0, len = 0;
        char path[256];
        tyjson_reader_location(r, &line, &col);
        tyjson_reader_path(r, path, sizeof(path));
        lst_fmt(out, "%d d%u @%zu %zu:%zu %s", (int)t, (unsigned)tyjson_reader_depth(r),
                tyjson_reader_offset(r), line, col, path);
        const char *s = tyjson_reader_str(r, &len);
        if (s) {
            lst_fmt(out, " [%zu:", len);
            for (size_t i = 0; i < len; i++) lst_fmt(out, "%02x", (unsigned char)s[i]);
            lst_fmt(out, "%s]", s[len] == 0 ? "" : " no NUL");
        }
        uint64_t u;
        int64_t i;
        double d;
        if (tyjson_reader_get_u64(r, &u)) lst_fmt(out, " u%llu", (unsigned long long)u);
        if (tyjson_reader_get_i64(r, &i)) lst_fmt(out, " i%lld", (long long)i);
        if (tyjson_reader_get_double(r, &d)) {
            uint64_t bits;
            memcpy(&bits, &d, 8);
            lst_fmt(out, " f%016llx", (unsigned long long)bits);
        }
        if (t == TYJSON_TOK_ERROR) {
            const tyjson_error *e = tyjson_reader_error(r);
            lst_fmt(out, " E%d @%zu %zu:%zu %s", (int)e->code, e->offset, e->line, e->column, e->msg);
        }
        lst_fmt(out, "\n");
        if (t == TYJSON_TOK_END || t == TYJSON_TOK_ERROR) return;
    }
}

/* The listing of doc with the given flags, from a buffer (window 0) or a
 * FILE* with that window. */
static char *run(const char *doc, size_t len, uint32_t flags, size_t window) {
    tyjson_reader_options o;
    memset(&o, 0, sizeof(o));
    o.flags = flags;
    o.window = window;
    tyjson_reader *r = tyjson_reader_new(&o, NULL);
    if (!r) abort();
    lst out = {NULL, 0, 0};
    lst_fmt(&out, "%s", "");
    FILE *fp = NULL;
    if (window) {
        fp = fmemopen((void *)(uintptr_t)doc, len, "r");
        if (!fp || tyjson_reader_open_fp(r, fp) != TYJSON_OK) abort();
    } else if (tyjson_reader_open_buf(r, doc, len) != TYJSON_OK) {
        abort();
    }
    listing(r, &out);
    if (fp) fclose(fp);
    tyjson_reader_free(r);
    return out.s;
}

static const char *const docs[] = {
    "[]",
    "{}",
    " [ 1 , -2 , 3.5 , true , false , null , \"s\" , [ ] , { } ] ",
    "{\"a\":1,\"b\":[true,false,null],\"c\":{\"d\":\"e\",\"f\":-0.0},\"g\":\"\"}",
    "{\n  \"a\": 1,\n  \"b\": [\n    1,\n    2\n  ],\n  \"c\": {\n    \"d\": \"x\\ny\"\n  }\n}\n",
    "[\"a string of more than thirty-two bytes, to be copied whole\",\"\\u00e9\\\"\",\"\xc3\xa9\"]",
    "[18446744073709551615,-9223372036854775808,9223372036854775808,1e400,1.5e-300,123456789012345678901]",
    "[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]",
    "{\"k\":{\"k\":{\"k\":{\"k\":[{\"x\":[0,{\"y\":1}]}]}}}}",
    /* errors: the general step reports them */
    "[1,2",
    "[1 2]",
    "{\"a\" 1}",
    "{\"a\":1,}",
    "[1,]",
    "[01]",
    "[1.]",
    "[tru]",
    "[\"\\x\"]",
    "[\"a\x01\"]",
    "{\"a\":[1,2}",
    "[1]]",
    "[\"\xff\"]",
    "[-]",
    "[true false]",
};

TEST(fast_step_equals_general_step) {
    static const size_t windows[] = {0, 64, 100, 4096};
    for (size_t k = 0; k < sizeof(docs) / sizeof(docs[0]); k++) {
        size_t len = strlen(docs[k]);
        char *copy = (char *)malloc(len ? len : 1); /* no byte after the end */
        memcpy(copy, docs[k], len);
        for (size_t w = 0; w < sizeof(windows) / sizeof(windows[0]); w++) {
            char *fast = run(copy, len, 0, windows[w]);
            char *slow = run(copy, len, TYJSON_READ_REJECT_DUPLICATE_KEYS, windows[w]);
            if (strcmp(fast, slow) != 0)
                TEST_FAIL("doc %zu window %zu:\nfast:\n%s\ngeneral:\n%s", k, windows[w], fast, slow);
            free(fast);
            free(slow);
        }
        free(copy);
    }
}

/* The relaxed flags that keep the fast step: each byte it does not take
 * goes to the general step, which must see the same state. */
TEST(fast_step_hands_over_relaxed_input) {
    static const struct {
        const char *doc;
        uint32_t flags;
    } cases[] = {
        {"[1,2,]", TYJSON_READ_ALLOW_TRAILING_COMMAS},
        {"{\"a\":1,}", TYJSON_READ_ALLOW_TRAILING_COMMAS},
        {"[1, /* c */ 2 // d\n, 3]", TYJSON_READ_ALLOW_COMMENTS},
        {"{\"a\" /* c */ : /* d */ 1 /* e */ }", TYJSON_READ_ALLOW_COMMENTS},
        {"[\"\xff\", 1]", TYJSON_READ_ALLOW_INVALID_UTF8},
        {"{a:1, 'b':'c', \"d\":\"\\x41\"}", TYJSON_READ_JSON5},
    };
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        size_t len = strlen(cases[k].doc);
        char *fast = run(cases[k].doc, len, cases[k].flags, 0);
        char *slow = run(cases[k].doc, len, cases[k].flags | TYJSON_READ_REJECT_DUPLICATE_KEYS, 0);
        if (strcmp(fast, slow) != 0) TEST_FAIL("case %zu:\nfast:\n%s\ngeneral:\n%s", k, fast, slow);
        ASSERT_TRUE(strstr(fast, " E") == NULL); /* all of them are read */
        free(fast);
        free(slow);
    }
}

/* Line and column of every token, and of an error at the end, counted
 * here byte by byte: the reader counts the line feeds of the bytes each
 * refill drops with the vector kernels (read/simd.c), on stretches with no
 * line feed, with nothing else (more than 255 in every byte lane of a
 * 64 KiB drop) and mixed, from a buffer and from FILE*s of several
 * windows. */
static void naive_place(const char *doc, size_t off, size_t *line, size_t *col) {
    size_t l = 1, ls = 0;
    for (size_t i = 0; i < off; i++)
        if (doc[i] == '\n') {
            l++;
            ls = i + 1;
        }
    *line = l;
    *col = off - ls + 1;
}

static void check_places(const char *doc, size_t len, size_t window, bool bad_end) {
    tyjson_reader_options o;
    memset(&o, 0, sizeof(o));
    o.window = window;
    tyjson_reader *r = tyjson_reader_new(&o, NULL);
    ASSERT_TRUE(r != NULL);
    FILE *fp = NULL;
    if (window) {
        fp = fmemopen((void *)(uintptr_t)doc, len, "r");
        ASSERT_TRUE(fp != NULL);
        ASSERT_EQ_INT(tyjson_reader_open_fp(r, fp), TYJSON_OK);
    } else {
        ASSERT_EQ_INT(tyjson_reader_open_buf(r, doc, len), TYJSON_OK);
    }
    size_t tokens = 0;
    for (;;) {
        tyjson_token t = tyjson_reader_next(r);
        if (t == TYJSON_TOK_END) break;
        size_t line, col, want_line, want_col;
        if (t == TYJSON_TOK_ERROR) {
            const tyjson_error *e = tyjson_reader_error(r);
            ASSERT_TRUE(bad_end);
            naive_place(doc, e->offset, &want_line, &want_col);
            if (e->line != want_line || e->column != want_col)
                TEST_FAIL("window %zu: error at %zu: %zu:%zu, want %zu:%zu", window, e->offset, e->line,
                          e->column, want_line, want_col);
            break;
        }
        /* every other token asked, so that some counts span several drops */
        if (tokens++ % 2) continue;
        tyjson_reader_location(r, &line, &col);
        naive_place(doc, tyjson_reader_offset(r), &want_line, &want_col);
        if (line != want_line || col != want_col)
            TEST_FAIL("window %zu: token at %zu: %zu:%zu, want %zu:%zu", window, tyjson_reader_offset(r),
                      line, col, want_line, want_col);
    }
    if (fp) fclose(fp);
    tyjson_reader_free(r);
}

TEST(lines_across_refills) {
    static const size_t windows[] = {0, 64, 1000, 65536};
    size_t cap = 600000, len = 0;
    char *doc = (char *)malloc(cap);
    ASSERT_TRUE(doc != NULL);
    doc[len++] = '[';
    for (int part = 0; part < 12; part++) {
        /* values, then whitespace: only line feeds, none, or mixed */
        size_t ws = (size_t)(part % 4 == 0 ? 70000 : 300 + 977 * part);
        for (int v = 0; v < 50; v++) len += (size_t)sprintf(doc + len, "%d,\"s%d\",", v * part, v);
        for (size_t k = 0; k < ws; k++)
            doc[len++] = part % 3 == 0 ? '\n' : part % 3 == 1 ? ' ' : (k % 7 == 0 ? '\n' : '\t');
        doc[len++] = '[';
        doc[len++] = ']';
        doc[len++] = ',';
        doc[len++] = '\n';
    }
    len--; /* the last line feed */
    len--; /* and comma */
    doc[len++] = ']';
    ASSERT_TRUE(len < cap - 64);
    for (size_t w = 0; w < sizeof(windows) / sizeof(windows[0]); w++) {
        check_places(doc, len, windows[w], false);
        /* without its last bracket, after more line feeds: cut short */
        memcpy(doc + len - 1, "\n\n\n ", 4);
        check_places(doc, len + 3, windows[w], true);
        doc[len - 1] = ']';
    }
    free(doc);
}

/* Strings and keys of 0..40 bytes followed by 0..40 bytes before the end
 * of the input (a malloc'd copy of exactly the document: a read past it is
 * an ASan error): text, length and NUL, twice. */
TEST(str_every_length_next_to_the_end) {
    tyjson_reader *r = tyjson_reader_new(NULL, NULL);
    ASSERT_NOT_NULL(r);
    char want[64];
    for (size_t n = 0; n <= 40; n++) {
        for (size_t i = 0; i < n; i++) want[i] = (char)('a' + (i * 7 + n) % 26);
        want[n] = 0;
        for (size_t pad = 0; pad <= 40; pad++) {
            for (int key = 0; key < 2; key++) {
                char doc[160];
                int m = key ? snprintf(doc, sizeof(doc), "{\"%s\":0%*s}", want, (int)pad, "")
                            : snprintf(doc, sizeof(doc), "[\"%s\"%*s]", want, (int)pad, "");
                char *copy = (char *)malloc((size_t)m);
                memcpy(copy, doc, (size_t)m);
                ASSERT_EQ_INT(tyjson_reader_open_buf(r, copy, (size_t)m), TYJSON_OK);
                ASSERT_EQ_INT(tyjson_reader_next(r), key ? TYJSON_TOK_OBJ_BEGIN : TYJSON_TOK_ARR_BEGIN);
                ASSERT_EQ_INT(tyjson_reader_next(r), key ? TYJSON_TOK_KEY : TYJSON_TOK_STR);
                for (int twice = 0; twice < 2; twice++) {
                    size_t len = 99;
                    const char *s = tyjson_reader_str(r, &len);
                    ASSERT_NOT_NULL(s);
                    ASSERT_EQ_UINT(len, n);
                    ASSERT_EQ_STR(s, want);
                    ASSERT_TRUE(s < copy || s >= copy + m); /* a NUL-terminated copy */
                }
                if (key) {
                    char path[64];
                    ASSERT_EQ_INT(tyjson_reader_next(r), TYJSON_TOK_NUM);
                    tyjson_reader_path(r, path, sizeof(path));
                    char wantp[80];
                    snprintf(wantp, sizeof(wantp), n ? "$.%s" : "$[\"\"]", want);
                    ASSERT_EQ_STR(path, wantp);
                    size_t len = 0;
                    ASSERT_EQ_STR(tyjson_reader_str(r, &len), "0");
                    ASSERT_EQ_UINT(len, 1);
                }
                ASSERT_EQ_INT(tyjson_reader_next(r), key ? TYJSON_TOK_OBJ_END : TYJSON_TOK_ARR_END);
                ASSERT_EQ_INT(tyjson_reader_next(r), TYJSON_TOK_END);
                free(copy);
            }
        }
    }
    tyjson_reader_free(r);
}

/* Runs of escapes (read_string decodes a resident run without rescanning
 * between them): 1..40 escapes of each kind, mixed with plain bytes, from a
 * buffer and through FILE* windows that cut the runs anywhere, in pieces
 * too: the text equals the DOM's string; a bad escape at the end of a run
 * is the DOM's error at the DOM's offset. */
TEST(escape_runs_equal_dom) {
    static const char *const esc[] = {"\\u00e9", "\\ud83d\\ude00", "\\n", "\\\\", "\\u4e2d", "x\\t"};
    static const size_t windows[] = {0, 64, 77, 1000};
    char doc[1024];
    for (size_t k = 0; k < sizeof(esc) / sizeof(esc[0]); k++) {
        for (size_t n = 1; n <= 40; n++) {
            for (int bad = 0; bad < 2; bad++) {
                size_t m = 0;
                m += (size_t)snprintf(doc + m, sizeof(doc) - m, "[\"a");
                for (size_t i = 0; i < n; i++) m += (size_t)snprintf(doc + m, sizeof(doc) - m, "%s", esc[k]);
                m += (size_t)snprintf(doc + m, sizeof(doc) - m, "%s\", 1]", bad ? "\\q" : "z");
                tyjson_error derr;
                tyjson_doc *d = tyjson_read_opts(doc, m, NULL, &derr);
                ASSERT_TRUE((d == NULL) == (bad != 0));
                for (size_t w = 0; w < sizeof(windows) / sizeof(windows[0]); w++) {
                    for (int pieces = 0; pieces < 2; pieces++) {
                        tyjson_reader_options o;
                        memset(&o, 0, sizeof(o));
                        o.window = windows[w];
                        o.max_token = 4096; /* longer than the small windows: whole */
                        if (pieces) {
                            o.reader_flags = TYJSON_READER_PIECES;
                            o.max_token = 16 + n % 7;
                        }
                        tyjson_reader *r = tyjson_reader_new(&o, NULL);
                        ASSERT_NOT_NULL(r);
                        FILE *fp = NULL;
                        if (windows[w]) {
                            fp = fmemopen(doc, m, "r");
                            ASSERT_NOT_NULL(fp);
                            ASSERT_EQ_INT(tyjson_reader_open_fp(r, fp), TYJSON_OK);
                        } else {
                            ASSERT_EQ_INT(tyjson_reader_open_buf(r, doc, m), TYJSON_OK);
                        }
                        ASSERT_EQ_INT(tyjson_reader_next(r), TYJSON_TOK_ARR_BEGIN);
                        char got[1024];
                        size_t gl = 0;
                        tyjson_token t;
                        for (;;) {
                            t = tyjson_reader_next(r);
                            if (t != TYJSON_TOK_STR) break;
                            size_t len = 0;
                            const char *s = tyjson_reader_str(r, &len);
                            ASSERT_NOT_NULL(s);
                            ASSERT_TRUE(gl + len <= sizeof(got));
                            memcpy(got + gl, s, len);
                            gl += len;
                            if (!tyjson_reader_partial(r)) break;
                        }
                        if (bad) {
                            const tyjson_error *e = tyjson_reader_error(r);
                            ASSERT_EQ_INT(t, TYJSON_TOK_ERROR);
                            ASSERT_EQ_INT(e->code, derr.code);
                            ASSERT_EQ_UINT(e->offset, derr.offset);
                        } else {
                            tyjson_val *v = tyjson_arr_get(tyjson_doc_get_root(d), 0);
                            if (t != TYJSON_TOK_STR)
                                TEST_FAIL("esc %zu n %zu window %zu pieces %d: %s", k, n, windows[w], pieces,
                                          tyjson_reader_error(r)->msg);
                            ASSERT_EQ_UINT(gl, tyjson_get_len(v));
                            ASSERT_EQ_MEM(got, tyjson_get_str(v), gl);
                            ASSERT_EQ_INT(tyjson_reader_next(r), TYJSON_TOK_NUM);
                            ASSERT_EQ_INT(tyjson_reader_next(r), TYJSON_TOK_ARR_END);
                            ASSERT_EQ_INT(tyjson_reader_next(r), TYJSON_TOK_END);
                        }
                        if (fp) fclose(fp);
                        tyjson_reader_free(r);
                    }
                }
                tyjson_doc_free(d);
            }
        }
    }
}

/* The listing of doc from a buffer with the given flags, token limit and
 * reader flags. */
static char *run_limited(const char *doc, size_t len, uint32_t flags, size_t max_token, uint32_t rflags) {
    tyjson_reader_options o;
    memset(&o, 0, sizeof(o));
    o.flags = flags;
    o.max_token = max_token;
    o.reader_flags = rflags;
    tyjson_reader *r = tyjson_reader_new(&o, NULL);
    if (!r || tyjson_reader_open_buf(r, doc, len) != TYJSON_OK) abort();
    lst out = {NULL, 0, 0};
    lst_fmt(&out, "%s", "");
    listing(r, &out);
    tyjson_reader_free(r);
    return out.s;
}

/* The fast step decodes a resident escaped string whole (fast_unescape,
 * the shared unescape into the scratch, its room doubled from 64 bytes
 * while the string is longer): keys and values of every length to 600
 * bytes around an escape, next to the token limit (whole, in pieces, or
 * TYJSON_E_SIZE), and with an error after the escape (a bad escape, a
 * control byte, bad UTF-8, the end of the input), equal to the general
 * step's listing. */
TEST(escaped_strings_decoded_whole) {
    static const char *const tails[] = {"", "\\q", "\x01", "\xff", "\\u12"};
    static const size_t sizes[] = {1, 15, 16, 17, 40, 52, 53, 63, 64, 65, 100, 127, 128, 129, 300, 600};
    char *doc = (char *)malloc(4096);
    ASSERT_NOT_NULL(doc);
    for (size_t t = 0; t < sizeof(tails) / sizeof(tails[0]); t++) {
        for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
            for (int key = 0; key < 2; key++) {
                /* sizes[si] bytes: plain text, an escape, \u escapes */
                size_t n = sizes[si], m = 0;
                char body[1024];
                size_t b = 0;
                while (b < n) {
                    const char *piece = b % 23 == 5 ? "\\u00e9" : b % 11 == 3 ? "\\n" : "a";
                    size_t pl = strlen(piece);
                    memcpy(body + b, piece, pl);
                    b += pl;
                }
                body[b] = 0;
                bool cut = strcmp(tails[t], "\\u12") == 0; /* the input ends in the escape */
                const char *end = cut ? "" : key ? "\":1}" : "\",2]";
                m = (size_t)snprintf(doc, 4096, "%s%s%s%s", key ? "{\"x" : "[\"x\\t", body, tails[t], end);
                char *copy = (char *)malloc(m); /* no byte after the end */
                ASSERT_NOT_NULL(copy);
                memcpy(copy, doc, m);
                static const size_t limits[] = {0, 16, 40, 64, 100, 200, 1000};
                for (size_t li = 0; li < sizeof(limits) / sizeof(limits[0]); li++) {
                    for (int pieces = 0; pieces < 2; pieces++) {
                        uint32_t rf = pieces ? TYJSON_READER_PIECES : 0;
                        char *fast = run_limited(copy, m, 0, limits[li], rf);
                        char *slow = run_limited(copy, m, TYJSON_READ_REJECT_DUPLICATE_KEYS, limits[li], rf);
                        if (strcmp(fast, slow) != 0)
                            TEST_FAIL("tail %zu size %zu key %d limit %zu pieces %d:\n%s\nfast:\n%s\ngeneral:\n%s",
                                      t, n, key, limits[li], pieces, doc, fast, slow);
                        free(fast);
                        free(slow);
                    }
                }
                free(copy);
            }
        }
    }
    free(doc);
}

int main(int argc, char **argv) { return test_main(argc, argv); }
