#define _POSIX_C_SOURCE 200809L /* fileno, pipe */
/* test_reader.c - the pull reader against the DOM parser: the token stream
 * of every source kind, window size and chunking equals a walk of the DOM
 * (kind, depth, text, numbers exactly, path), and the verdict, error code,
 * offset and line:column equal tyjson_read_opts's; skip, path, location,
 * pieces, the push form, and memory. Built-in documents always; the
 * ../shared corpus, scenarios and JSONTestSuite files when present. */
#define TEST_WANT_JSON_LIST
#include "test.h"
#include "tyjson.h"

#include <unistd.h>

/* ----------------------------------------------------------------------------
 * A growable text buffer for token listings
 * ------------------------------------------------------------------------- */
typedef struct tb {
    char *s;
    size_t n, cap;
} tb;

static void tb_put(tb *b, const char *s, size_t n) {
    if (b->n + n + 1 > b->cap) {
        size_t nc = b->cap ? b->cap : 256;
        while (nc < b->n + n + 1) nc *= 2;
        char *ns = (char *)realloc(b->s, nc);
        if (!ns) abort();
        b->s = ns;
        b->cap = nc;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = 0;
}

static void tb_fmt(tb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#include <stdarg.h>
static void tb_fmt(tb *b, const char *fmt, ...) {
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(tmp, sizeof(tmp), fmt, ap);
    va_end(ap);
    tb_put(b, tmp, (size_t)k < sizeof(tmp) ? (size_t)k : sizeof(tmp) - 1);
}

static void tb_text(tb *b, const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == '\\' || c >= 0x7F) tb_fmt(b, "\\%02x", c);
        else tb_put(b, (const char *)&c, 1);
    }
}

static void tb_free(tb *b) {
    free(b->s);
    b->s = NULL;
    b->n = b->cap = 0;
}

/* ----------------------------------------------------------------------------
 * The DOM's walk: one line per token, as the reader must deliver them
 * ------------------------------------------------------------------------- */
static bool is_ident(const char *k, size_t n) {
    if (!n) return false;
    for (size_t i = 0; i < n; i++) {
        char c = k[i];
        bool a = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
        if (!a && !(i && c >= '0' && c <= '9')) return false;
    }
    return true;
}

static void path_key(tb *p, const char *k, size_t n) {
    if (is_ident(k, n)) {
        tb_put(p, ".", 1);
        tb_put(p, k, n);
        return;
    }
    tb_put(p, "[\"", 2);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)k[i];
        if (c == '"' || c == '\\') {
            char e[2] = {'\\', (char)c};
            tb_put(p, e, 2);
        } else if (c < 0x20) {
            tb_fmt(p, "\\u%04x", c);
        } else {
            tb_put(p, (const char *)&c, 1);
        }
    }
    tb_put(p, "\"]", 2);
}

static void line_num_dom(tb *b, const tyjson_val *v) {
    if (tyjson_is_uint(v)) tb_fmt(b, "u%" PRIu64, tyjson_get_uint(v));
    else if (tyjson_is_sint(v)) tb_fmt(b, "i%" PRId64, tyjson_get_sint(v));
    else if (tyjson_is_real(v)) tb_fmt(b, "d%a", tyjson_get_real(v));
    else {
        tb_put(b, "r", 1);
        tb_text(b, tyjson_get_str(v), tyjson_get_len(v));
    }
}

static void path_cut(tb *path) {
    /* the reader's paths are cut to what an error record holds */
    if (path->n >= TYJSON_ERROR_PATH_MAX) path->n = TYJSON_ERROR_PATH_MAX - 1;
}

static void emit(tb *b, int kind, unsigned depth, tb *path) {
    size_t keep = path->n;
    path_cut(path);
    tb_fmt(b, "%d %u %.*s ", kind, depth, (int)path->n, path->s ? path->s : "");
    path->n = keep;
}

static void dom_walk(tb *b, const tyjson_val *v, unsigned depth, tb *path) {
    switch (tyjson_get_type(v)) {
    case TYJSON_TYPE_OBJ: {
        emit(b, TYJSON_TOK_OBJ_BEGIN, depth, path);
        tb_put(b, "\n", 1);
        tyjson_obj_iter it = tyjson_obj_iter_with(v);
        tyjson_val *k;
        size_t keep = path->n;
        while ((k = tyjson_obj_iter_next(&it)) != NULL) {
            path->n = keep;
            path_key(path, tyjson_get_str(k), tyjson_get_len(k));
            emit(b, TYJSON_TOK_KEY, depth + 1, path);
            tb_text(b, tyjson_get_str(k), tyjson_get_len(k));
            tb_put(b, "\n", 1);
            dom_walk(b, tyjson_obj_iter_get_val(k), depth + 1, path);
        }
        path->n = keep;
        emit(b, TYJSON_TOK_OBJ_END, depth, path);
        tb_put(b, "\n", 1);
        break;
    }
    case TYJSON_TYPE_ARR: {
        emit(b, TYJSON_TOK_ARR_BEGIN, depth, path);
        tb_put(b, "\n", 1);
        tyjson_arr_iter it = tyjson_arr_iter_with(v);
        tyjson_val *e;
        size_t keep = path->n, i = 0;
        while ((e = tyjson_arr_iter_next(&it)) != NULL) {
            path->n = keep;
            tb_fmt(path, "[%zu]", i++);
            dom_walk(b, e, depth + 1, path);
        }
        path->n = keep;
        emit(b, TYJSON_TOK_ARR_END, depth, path);
        tb_put(b, "\n", 1);
        break;
    }
    case TYJSON_TYPE_STR:
        emit(b, TYJSON_TOK_STR, depth, path);
        tb_text(b, tyjson_get_str(v), tyjson_get_len(v));
        tb_put(b, "\n", 1);
        break;
    case TYJSON_TYPE_NUM:
    case TYJSON_TYPE_RAW:
        emit(b, TYJSON_TOK_NUM, depth, path);
        line_num_dom(b, v);
        tb_put(b, "\n", 1);
        break;
    case TYJSON_TYPE_BOOL:
        emit(b, tyjson_is_true(v) ? TYJSON_TOK_TRUE : TYJSON_TOK_FALSE, depth, path);
        tb_put(b, "\n", 1);
        break;
    default:
        emit(b, TYJSON_TOK_NULL, depth, path);
        tb_put(b, "\n", 1);
        break;
    }
}

static void err_line(tb *b, const tyjson_error *e) {
    tb_fmt(b, "E %s %zu %zu:%zu\n", tyjson_status_name(e->code), e->offset, e->line, e->column);
}

/* The expected listing: every value's tokens (MULTI: values in a loop with
 * STOP_WHEN_DONE), then "END consumed", or the error. */
static void dom_listing(tb *b, const char *dat, size_t len, tyjson_read_flags flags, bool multi,
                        tyjson_error *out_err) {
    tyjson_read_options o = {flags, 0, NULL};
    tyjson_error err;
    size_t at = 0;
    tb path = {0};
    tb_put(&path, "$", 1);
    if (out_err) out_err->code = TYJSON_OK;
    for (;;) {
        if (multi) {
            size_t q = at;
            while (q < len && (dat[q] == ' ' || dat[q] == '\n' || dat[q] == '\r' || dat[q] == '\t')) q++;
            if (q == len) {
                tb_put(b, "END\n", 4);
                break;
            }
            o.flags = flags | TYJSON_READ_STOP_WHEN_DONE;
        }
        tyjson_doc *doc = tyjson_read_opts(dat + at, len - at, &o, &err);
        if (!doc) {
            err.offset += at;
            tyjson_locate(dat, len, err.offset, &err.line, &err.column);
            err_line(b, &err);
            if (out_err) *out_err = err;
            break;
        }
        path.n = 1;
        dom_walk(b, tyjson_doc_get_root(doc), 0, &path);
        at += tyjson_doc_get_read_size(doc);
        tyjson_doc_free(doc);
        if (!multi) {
            tb_put(b, "END\n", 4);
            break;
        }
    }
    tb_free(&path);
}

/* ----------------------------------------------------------------------------
 * The reader's walk, with a feeder for the push form
 * ------------------------------------------------------------------------- */
typedef struct feeder {
    const char *dat;
    size_t len, at;
    size_t chunk;   /* bytes per feed; 0 = random 1..64 */
    unsigned seed;
} feeder;

static size_t next_chunk(feeder *f) {
    size_t n = f->chunk;
    if (!n) {
        f->seed = f->seed * 1103515245u + 12345u;
        n = 1 + (f->seed >> 16) % 64;
    }
    if (n > f->len - f->at) n = f->len - f->at;
    return n;
}

/* Lines of the tokens of an open reader (pieces joined), "END", or the
 * error; checks location against tyjson_locate when whole is given. */
static void reader_listing(tb *b, tyjson_reader *r, feeder *f, const char *whole, size_t len) {
    tb piece = {0};
    bool in_piece = false;
    int piece_kind = 0;
    unsigned piece_depth = 0;
    char path[TYJSON_ERROR_PATH_MAX];
    char piece_path[TYJSON_ERROR_PATH_MAX];
    for (;;) {
        tyjson_token t = tyjson_reader_next(r);
        if (t == TYJSON_TOK_NEED_MORE) {
            if (!f) TEST_FAIL("NEED_MORE without a push input");
            if (f->at == f->len) {
                ASSERT_EQ_INT(tyjson_reader_feed_end(r), TYJSON_OK);
            } else {
                size_t n = next_chunk(f);
                ASSERT_EQ_INT(tyjson_reader_feed(r, f->dat + f->at, n), TYJSON_OK);
                f->at += n;
            }
            continue;
        }
        if (t == TYJSON_TOK_ERROR) {
            err_line(b, tyjson_reader_error(r));
            break;
        }
        if (t == TYJSON_TOK_END) {
            tb_put(b, "END\n", 4);
            break;
        }
        if (whole) {
            size_t line, col, l2 = 0, c2 = 0, off = tyjson_reader_offset(r);
            tyjson_reader_location(r, &line, &col);
            ASSERT_TRUE(tyjson_locate(whole, len, off, &l2, &c2));
            if (line != l2 || col != c2)
                TEST_FAIL("location %zu:%zu != %zu:%zu at offset %zu of %.40s", line, col, l2, c2, off, whole);
        }
        size_t tl = 0;
        const char *s = tyjson_reader_str(r, &tl);
        tyjson_reader_path(r, path, sizeof(path));
        if (t == TYJSON_TOK_KEY || t == TYJSON_TOK_STR) {
            if (!in_piece) {
                piece.n = 0;
                piece_kind = t;
                piece_depth = tyjson_reader_depth(r);
                memcpy(piece_path, path, sizeof(path));
            }
            ASSERT_TRUE(s != NULL);
            ASSERT_EQ_INT(s[tl], 0);
            tb_put(&piece, s, tl);
            if (tyjson_reader_partial(r)) {
                in_piece = true;
                continue;
            }
            in_piece = false;
            if (t == TYJSON_TOK_KEY) tyjson_reader_path(r, piece_path, sizeof(piece_path));
            tb_fmt(b, "%d %u %s ", piece_kind, piece_depth, piece_path);
            tb_text(b, piece.s ? piece.s : "", piece.n);
            tb_put(b, "\n", 1);
            continue;
        }
        tb_fmt(b, "%d %u %s ", (int)t, tyjson_reader_depth(r), path);
        if (t == TYJSON_TOK_NUM) {
            uint64_t u;
            int64_t i;
            double d;
            ASSERT_TRUE(s != NULL);
            if (tyjson_reader_get_u64(r, &u)) tb_fmt(b, "u%" PRIu64, u);
            else if (tyjson_reader_get_i64(r, &i)) tb_fmt(b, "i%" PRId64, i);
            else if (tyjson_reader_get_double(r, &d)) tb_fmt(b, "d%a", d);
            else {
                tb_put(b, "r", 1);
                tb_text(b, s, tl);
            }
        }
        tb_put(b, "\n", 1);
    }
    tb_free(&piece);
}

/* Only the last line: the verdict. */
static const char *last_line(const tb *b) {
    if (!b->n) return "";
    size_t i = b->n - 1;
    while (i > 0 && b->s[i - 1] != '\n') i--;
    return b->s + i;
}

typedef struct cb_src {
    const char *dat;
    size_t len, at, step;
} cb_src;

static ptrdiff_t cb_read(void *ctx, char *buf, size_t cap) {
    cb_src *c = (cb_src *)ctx;
    size_t n = c->step < cap ? c->step : cap;
    if (n > c->len - c->at) n = c->len - c->at;
    memcpy(buf, c->dat + c->at, n);
    c->at += n;
    return (ptrdiff_t)n;
}

enum { SRC_BUF, SRC_PUSH1, SRC_PUSH7, SRC_PUSHR, SRC_CB1, SRC_CB3, SRC_FP, SRC_FD, SRC_COUNT };
static const char *const src_names[SRC_COUNT] = {"buf", "push1", "push7", "push-random",
                                                 "cb1", "cb3", "fp", "fd"};

static FILE *file_of(const char *dat, size_t len) {
    FILE *fp = tmpfile();
    if (!fp) return NULL;
    if (len && fwrite(dat, 1, len, fp) != len) {
        fclose(fp);
        return NULL;
    }
    rewind(fp);
    return fp;
}

/* The reader's listing of dat through source kind src. */
static void read_via(tb *b, const char *dat, size_t len, int src, const tyjson_reader_options *o,
                     bool check_loc) {
    tyjson_error err;
    tyjson_reader *r = tyjson_reader_new(o, &err);
    ASSERT_TRUE(r != NULL);
    feeder f = {dat, len, 0, 0, 12345};
    cb_src c = {dat, len, 0, src == SRC_CB1 ? 1 : 3};
    FILE *fp = NULL;
    const char *whole = check_loc ? dat : NULL;
    switch (src) {
    case SRC_BUF: ASSERT_EQ_INT(tyjson_reader_open_buf(r, dat, len), TYJSON_OK); break;
    case SRC_PUSH1:
    case SRC_PUSH7:
    case SRC_PUSHR:
        f.chunk = src == SRC_PUSH1 ? 1 : src == SRC_PUSH7 ? 7 : 0;
        ASSERT_EQ_INT(tyjson_reader_open_push(r), TYJSON_OK);
        break;
    case SRC_CB1:
    case SRC_CB3: ASSERT_EQ_INT(tyjson_reader_open_cb(r, cb_read, &c), TYJSON_OK); break;
    case SRC_FP:
    case SRC_FD:
        fp = file_of(dat, len);
        ASSERT_TRUE(fp != NULL);
        if (src == SRC_FP) ASSERT_EQ_INT(tyjson_reader_open_fp(r, fp), TYJSON_OK);
        else ASSERT_EQ_INT(tyjson_reader_open_fd(r, fileno(fp)), TYJSON_OK);
        break;
    }
    reader_listing(b, r, src >= SRC_PUSH1 && src <= SRC_PUSHR ? &f : NULL, whole, len);
    tyjson_reader_free(r);
    if (fp) fclose(fp);
}

/* Every source kind and window size against the DOM; returns the number
 * of mismatches printed. */
static void check_doc(const char *name, const char *dat, size_t len, tyjson_read_flags flags,
                      tyjson_reader_flags rflags, bool all_sources) {
    tb want = {0};
    tyjson_error derr;
    dom_listing(&want, dat, len, flags, (rflags & TYJSON_READER_MULTI) != 0, &derr);
    static const size_t windows[] = {0, 64, 100, 4096};
    for (int src = 0; src < SRC_COUNT; src++) {
        if (!all_sources && src != SRC_BUF && src != SRC_PUSHR && src != SRC_FP) continue;
        for (size_t w = 0; w < sizeof(windows) / sizeof(windows[0]); w++) {
            if (src == SRC_BUF && w) continue;
            if (!all_sources && w && w != 2) continue;
            tyjson_reader_options o;
            memset(&o, 0, sizeof(o));
            o.flags = flags;
            o.reader_flags = rflags;
            o.window = windows[w];
            /* small windows: long strings come in pieces */
            if (windows[w] && windows[w] < 4096) {
                o.reader_flags |= TYJSON_READER_PIECES;
                o.max_token = 1024; /* numbers longer than the window stay whole */
            }
            tb got = {0};
            read_via(&got, dat, len, src, &o, src == SRC_BUF || src == SRC_PUSHR);
            bool same;
            if (derr.code != TYJSON_OK) same = strcmp(last_line(&got), last_line(&want)) == 0;
            else same = got.n == want.n && memcmp(got.s, want.s, got.n) == 0;
            if (!same) {
                size_t i = 0;
                while (i < got.n && i < want.n && got.s[i] == want.s[i]) i++;
                size_t ls = i;
                while (ls > 0 && want.s[ls - 1] != '\n') ls--;
                TEST_FAIL("%s (flags %#x, %s, window %zu): reader differs from the DOM at byte %zu "
                          "of the listing:\n  DOM:    %.160s\n  reader: %.160s",
                          name, flags, src_names[src], windows[w], i, want.s + ls,
                          got.s ? got.s + ls : "");
            }
            tb_free(&got);
        }
    }
    tb_free(&want);
}

/* The DOM's message too, for a buffer input. */
static void check_message(const char *name, const char *dat, size_t len, tyjson_read_flags flags) {
    tyjson_read_options ro = {flags, 0, NULL};
    tyjson_error derr;
    tyjson_doc *doc = tyjson_read_opts(dat, len, &ro, &derr);
    if (doc) {
        tyjson_doc_free(doc);
        return;
    }
    tyjson_reader_options o;
    memset(&o, 0, sizeof(o));
    o.flags = flags;
    tyjson_reader *r = tyjson_reader_new(&o, NULL);
    ASSERT_TRUE(r != NULL);
    tyjson_reader_open_buf(r, dat, len);
    tyjson_token t;
    while ((t = tyjson_reader_next(r)) != TYJSON_TOK_ERROR && t != TYJSON_TOK_END) {
    }
    const tyjson_error *e = tyjson_reader_error(r);
    if (t != TYJSON_TOK_ERROR || strcmp(e->msg, derr.msg) != 0)
        TEST_FAIL("%s: message \"%s\" != DOM's \"%s\"", name, e->msg, derr.msg);
    tyjson_reader_free(r);
}

/* ----------------------------------------------------------------------------
 * Built-in documents
 * ------------------------------------------------------------------------- */
static const char *const docs_ok[] = {
    "{}", "[]", "0", "-0", "1.5e3", "\"\"", "\"a\\u00e9\\ud83d\\ude00b\\n\"", "true", "false",
    "null", " [1, 2 ,3 ] ", "{\"a\":{\"b\":[1,{\"c\":null}]},\"d\":\"e\"}",
    "[18446744073709551615,-9223372036854775808,1e308,2.5e-308,123456789012345678]",
    "{\"odd key\":1,\"a\\\"b\":2,\"\":3,\"k1\":[[[]]]}",
    "\n[\n  \"caf\xc3\xa9\",\n  \"\xe6\x97\xa5\xe6\x9c\xac\",\n  \"\xf0\x9f\x98\x80\"\n]\n",
    "[\"a long string that is longer than sixteen bytes, with \\\"escapes\\\" and \\\\ \\/ \\t in it\"]",
};
static const char *const docs_bad[] = {
    "", " ", "[", "[1,", "[1 2]", "{\"a\" 1}", "{\"a\":}", "{1:2}", "[1,]", "{\"a\":1,}", "tru",
    "nul", "[truex]", "01", "-", "1.", "1e", "[1.e5]", "\"abc", "\"\\x\"", "\"\\u12\"",
    "\"\\ud800\"", "\"\\udc00\"", "\"\x01\"", "\"\xff\"", "\"\xc3\"", "[1]x", "1 2", "{\"a\":1]",
    "[}", "/* c */ 1", "1e400", "[-]", "\xef\xbb\xbf[]", "[\"a\" \"b\"]", "{\"a\":1 \"b\":2}",
};

TEST(builtin_docs_match_dom) {
    for (size_t i = 0; i < sizeof(docs_ok) / sizeof(docs_ok[0]); i++) {
        check_doc(docs_ok[i], docs_ok[i], strlen(docs_ok[i]), 0, 0, true);
        check_message(docs_ok[i], docs_ok[i], strlen(docs_ok[i]), 0);
    }
    for (size_t i = 0; i < sizeof(docs_bad) / sizeof(docs_bad[0]); i++) {
        check_doc(docs_bad[i], docs_bad[i], strlen(docs_bad[i]), 0, 0, true);
        check_message(docs_bad[i], docs_bad[i], strlen(docs_bad[i]), 0);
    }
}

static const tyjson_read_flags relaxed[] = {
    TYJSON_READ_ALLOW_COMMENTS,       TYJSON_READ_ALLOW_TRAILING_COMMAS,
    TYJSON_READ_ALLOW_INF_NAN,        TYJSON_READ_ALLOW_BOM,
    TYJSON_READ_ALLOW_INVALID_UTF8,   TYJSON_READ_STOP_WHEN_DONE,
    TYJSON_READ_REJECT_DUPLICATE_KEYS, TYJSON_READ_BIGNUM_AS_RAW,
    0xFFu & ~TYJSON_READ_STOP_WHEN_DONE,
};

static const char *const docs_relaxed[] = {
    "/* a */ [1, // b\n 2 /* c */] // d", "[1,2,]", "{\"a\":1,}", "[NaN,Infinity,-Infinity]",
    "\xef\xbb\xbf{\"a\":1}", "[\"\xff\xfe\", \"\\ud800\"]", "[1] [2]", "{\"a\":1,\"b\":2,\"a\":3}",
    "{\"x\":{\"a\":1,\"a\":2},\"x\":3}", "[123456789012345678901234567890, 1e400, -1e999]",
    "/* unterminated", "[1] /* bad", "[1] /x", "[-Inf]", "[Nan]", "1 /", "[1,,]", "{\"a\":1,,}",
    "\"\\udbff\\udfff\"", "{\"a\":{\"b\":1},\"a\":{\"b\":1}}", "[1]   \n", "[\"/*\"] /**/",
};

TEST(relaxed_flags_match_dom) {
    for (size_t f = 0; f < sizeof(relaxed) / sizeof(relaxed[0]); f++) {
        for (size_t i = 0; i < sizeof(docs_relaxed) / sizeof(docs_relaxed[0]); i++) {
            const char *d = docs_relaxed[i];
            check_doc(d, d, strlen(d), relaxed[f], 0, true);
            check_message(d, d, strlen(d), relaxed[f]);
        }
        for (size_t i = 0; i < sizeof(docs_bad) / sizeof(docs_bad[0]); i++)
            check_doc(docs_bad[i], docs_bad[i], strlen(docs_bad[i]), relaxed[f], 0, false);
    }
}

TEST(depth_limit_matches_dom) {
    char deep[3000];
    for (int i = 0; i < 1500; i++) deep[i] = '[';
    for (int i = 0; i < 1500; i++) deep[1500 + i] = ']';
    check_doc("deep", deep, 3000, 0, 0, false);
    check_doc("deep1024", deep + 476, 2048, 0, 0, false);
    check_message("deep", deep, 3000, 0);
}

TEST(multi_values) {
    const char *d = "1 [2] {\"a\":3}\n\"x\"\ntrue null";
    check_doc("multi", d, strlen(d), 0, TYJSON_READER_MULTI, true);
    check_doc("multi-empty", "", 0, 0, TYJSON_READER_MULTI, true);
    check_doc("multi-ws", " \n ", 3, 0, TYJSON_READER_MULTI, true);
    check_doc("multi-bad", "1 [2 3]", 7, 0, TYJSON_READER_MULTI, true);
}

TEST(stop_when_done_consumed) {
    const char *d = "[1, 2]  \n  [3]";
    tyjson_reader_options o;
    memset(&o, 0, sizeof(o));
    o.flags = TYJSON_READ_STOP_WHEN_DONE;
    tyjson_reader *r = tyjson_reader_new(&o, NULL);
    tyjson_reader_open_buf(r, d, strlen(d));
    tyjson_token t;
    while ((t = tyjson_reader_next(r)) != TYJSON_TOK_END) ASSERT_TRUE(t != TYJSON_TOK_ERROR);
    tyjson_read_options ro = {TYJSON_READ_STOP_WHEN_DONE, 0, NULL};
    tyjson_doc *doc = tyjson_read_opts(d, strlen(d), &ro, NULL);
    ASSERT_EQ_INT(tyjson_reader_consumed(r), tyjson_doc_get_read_size(doc));
    tyjson_doc_free(doc);
    tyjson_reader_free(r);
}

/* ----------------------------------------------------------------------------
 * Cuts: every prefix of small documents, as a whole input (a DOM verdict)
 * and as a push input fed in two pieces
 * ------------------------------------------------------------------------- */
static void check_push_split(const char *dat, size_t len, size_t cut, tyjson_read_flags flags) {
    tb want = {0};
    dom_listing(&want, dat, len, flags, false, NULL);
    tyjson_reader_options o;
    memset(&o, 0, sizeof(o));
    o.flags = flags;
    tyjson_reader *r = tyjson_reader_new(&o, NULL);
    tyjson_reader_open_push(r);
    feeder f = {dat, len, 0, cut ? cut : 1, 1};
    tb got = {0};
    reader_listing(&got, r, &f, dat, len);
    if (!(got.n == want.n && memcmp(got.s, want.s, got.n) == 0))
        TEST_FAIL("cut at %zu of %.*s: %s != %s", cut, (int)len, dat, last_line(&got),
                  last_line(&want));
    tb_free(&got);
    tb_free(&want);
    tyjson_reader_free(r);
}

TEST(every_prefix_and_cut) {
    const char *d = "{\"name\":\"caf\xc3\xa9 \\u00e9\\ud83d\\ude00\",\"n\":[0,-1.5e-3,12345678901234567890,"
                    "true,false,null],\"o\":{\"\":\"\\\"\"}}";
    size_t len = strlen(d);
    for (size_t k = 0; k <= len; k++) {
        check_doc("prefix", d, k, 0, 0, false);
        check_doc("prefix-comments", d, k, TYJSON_READ_ALLOW_COMMENTS, 0, false);
    }
    for (size_t cut = 1; cut <= len; cut++) check_push_split(d, len, cut, 0);
    const char *c = "/* a */ [1, // b\n NaN /* c */, -Infinity] // d";
    for (size_t cut = 1; cut <= strlen(c); cut++)
        check_push_split(c, strlen(c), cut, TYJSON_READ_ALLOW_COMMENTS | TYJSON_READ_ALLOW_INF_NAN);
}

/* ----------------------------------------------------------------------------
 * Shared files: corpus, scenarios, JSONTestSuite
 * ------------------------------------------------------------------------- */
static void check_folder(const char *rel, bool all_sources) {
    test_json_list fl;
    test_json_list_open(&fl, rel);
    for (size_t i = 0; i < fl.count; i++) {
        char path[2048];
        snprintf(path, sizeof(path), "%s/%s", fl.dir, fl.names[i]);
        size_t len = 0;
        char *text = test_read_file(path, &len);
        ASSERT_TRUE(text != NULL);
        char *exact = (char *)malloc(len ? len : 1);
        memcpy(exact, text, len);
        free(text);
        bool small = len < 4096;
        check_doc(fl.names[i], exact, len, 0, 0, all_sources || small);
        if (small) {
            check_message(fl.names[i], exact, len, 0);
            for (size_t f = 0; f < sizeof(relaxed) / sizeof(relaxed[0]); f++)
                check_doc(fl.names[i], exact, len, relaxed[f], 0, false);
        }
        free(exact);
    }
    test_json_list_free(&fl);
}

TEST(jsontestsuite_matches_dom) { check_folder("conformance/test_parsing", true); }

TEST(corpus_matches_dom) { check_folder("corpus", false); }

TEST(scenarios_match_dom) {
    static const char *const dirs[] = {"scenarios/boon", "scenarios/json0", "scenarios/kissjson"};
    for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) check_folder(dirs[i], false);
}

/* Random cut points of a large corpus file, pushed. */
TEST(corpus_random_cuts) {
    char path[1024];
    test_shared_path("corpus/twitter.json", path, sizeof(path));
    size_t len = 0;
    char *text = test_read_file(path, &len);
    if (!text) {
        if (test_require_shared()) TEST_FAIL("missing %s", path);
        TEST_SKIP("no %s", path);
    }
    tb want = {0};
    dom_listing(&want, text, len, 0, false, NULL);
    unsigned seed = 7;
    for (int round = 0; round < 4; round++) {
        tyjson_reader_options o;
        memset(&o, 0, sizeof(o));
        o.window = 64u << round;
        o.reader_flags = TYJSON_READER_PIECES;
        tyjson_reader *r = tyjson_reader_new(&o, NULL);
        tyjson_reader_open_push(r);
        feeder f = {text, len, 0, 0, seed + (unsigned)round};
        tb got = {0};
        reader_listing(&got, r, &f, NULL, 0);
        ASSERT_TRUE(got.n == want.n && memcmp(got.s, want.s, got.n) == 0);
        tb_free(&got);
        tyjson_reader_free(r);
    }
    tb_free(&want);
    free(text);
}

int main(int argc, char **argv) { return test_main(argc, argv); }
