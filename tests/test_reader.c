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

#include "fixtures/bind_types.h"
#include "stream/reader_stats.h"

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
    size_t loc_off = 0, loc_line = 1, loc_col = 1;
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
            /* tyjson_locate's answer, counted on from the previous token */
            size_t line, col, off = tyjson_reader_offset(r);
            tyjson_reader_location(r, &line, &col);
            ASSERT_TRUE(off >= loc_off && off <= len);
            size_t l2 = 0, c2 = 0;
            tyjson_locate(whole + loc_off, off - loc_off, off - loc_off, &l2, &c2);
            if (l2 > 1) {
                loc_line += l2 - 1;
                loc_col = c2;
            } else {
                loc_col += c2 - 1;
            }
            loc_off = off;
            l2 = loc_line;
            c2 = loc_col;
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
        check_doc(fl.names[i], exact, len, 0, 0, all_sources && len < 1024);
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
    for (int round = 0; round < 2; round++) {
        tyjson_reader_options o;
        memset(&o, 0, sizeof(o));
        o.window = 64u << (3 * round);
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


/* ----------------------------------------------------------------------------
 * skip, read_doc, decode, memory, allocation failures
 * ------------------------------------------------------------------------- */

/* Skipping at token k: the rest of the listing equals the full listing with
 * the skipped value's tokens left out. */
static void check_skip_everywhere(const char *d, int src) {
    size_t len = strlen(d);
    tb full = {0};
    read_via(&full, d, len, SRC_BUF, NULL, false);
    size_t ntok = 0;
    for (size_t i = 0; i < full.n; i++) ntok += full.s[i] == '\n';
    for (size_t k = 0; k + 1 < ntok; k++) {
        /* the expected: walk tokens, skip via next() counting depth */
        tyjson_reader *a = tyjson_reader_new(NULL, NULL), *b = tyjson_reader_new(NULL, NULL);
        feeder f = {d, len, 0, 3, 1};
        tyjson_reader_open_buf(a, d, len);
        if (src == SRC_BUF) tyjson_reader_open_buf(b, d, len);
        else tyjson_reader_open_push(b);
        for (size_t i = 0; i < k; i++) {
            tyjson_reader_next(a);
            tyjson_token t;
            while ((t = tyjson_reader_next(b)) == TYJSON_TOK_NEED_MORE) {
                if (f.at == f.len) tyjson_reader_feed_end(b);
                else {
                    size_t n = next_chunk(&f);
                    tyjson_reader_feed(b, d + f.at, n);
                    f.at += n;
                }
            }
        }
        /* a: skip by hand */
        tyjson_token last = k ? (tyjson_token)0 : TYJSON_TOK_ERROR;
        (void)last;
        tyjson_reader *h = tyjson_reader_new(NULL, NULL);
        tyjson_reader_open_buf(h, d, len);
        tyjson_token cur = TYJSON_TOK_ERROR;
        for (size_t i = 0; i < k; i++) cur = tyjson_reader_next(h);
        bool rest = cur == TYJSON_TOK_OBJ_BEGIN || cur == TYJSON_TOK_ARR_BEGIN;
        uint32_t target = tyjson_reader_depth(h);
        tyjson_token pk = tyjson_reader_peek(h);
        bool none = !rest && (pk == TYJSON_TOK_OBJ_END || pk == TYJSON_TOK_ARR_END ||
                              pk == TYJSON_TOK_KEY || pk == TYJSON_TOK_END);
        if (!none) {
            if (!rest) {
                tyjson_token t = tyjson_reader_next(h);
                target = tyjson_reader_depth(h);
                rest = t == TYJSON_TOK_OBJ_BEGIN || t == TYJSON_TOK_ARR_BEGIN;
            }
            if (rest) {
                tyjson_token t;
                do t = tyjson_reader_next(h);
                while (!((t == TYJSON_TOK_OBJ_END || t == TYJSON_TOK_ARR_END) &&
                         tyjson_reader_depth(h) == target));
            }
        }
        tyjson_status s;
        while ((s = tyjson_reader_skip(b)) == TYJSON_MORE) {
            if (f.at == f.len) tyjson_reader_feed_end(b);
            else {
                size_t n = next_chunk(&f);
                tyjson_reader_feed(b, d + f.at, n);
                f.at += n;
            }
        }
        ASSERT_EQ_INT(s, none ? TYJSON_E_STATE : TYJSON_OK);
        tb x = {0}, y = {0};
        reader_listing(&x, h, NULL, NULL, 0);
        reader_listing(&y, b, src == SRC_BUF ? NULL : &f, NULL, 0);
        if (strcmp(x.s, y.s) != 0) TEST_FAIL("skip at token %zu of %s:\n%s\n!=\n%s", k, d, x.s, y.s);
        tb_free(&x);
        tb_free(&y);
        tyjson_reader_free(a);
        tyjson_reader_free(b);
        tyjson_reader_free(h);
    }
    tb_free(&full);
}

TEST(skip_at_every_position) {
    const char *d = "{\"a\":[1,{\"b\":\"x\\ny\"},[]],\"c\":{\"d\":null},\"e\":\"long string value here\"}";
    check_skip_everywhere(d, SRC_BUF);
    check_skip_everywhere(d, SRC_PUSHR);
    check_skip_everywhere("[1,[2,[3]],{\"k\":[true]}]", SRC_BUF);
    check_skip_everywhere("[1,[2,[3]],{\"k\":[true]}]", SRC_PUSHR);
}

TEST(skip_reports_dom_errors) {
    const char *d = "[1,{\"a\":[1 2]}]";
    tyjson_reader *r = tyjson_reader_new(NULL, NULL);
    tyjson_reader_open_buf(r, d, strlen(d));
    ASSERT_EQ_INT(tyjson_reader_next(r), TYJSON_TOK_ARR_BEGIN);
    ASSERT_EQ_INT(tyjson_reader_skip(r), TYJSON_E_UNEXPECTED_CHAR);
    tyjson_error de;
    ASSERT_TRUE(tyjson_read(d, strlen(d), 0) == NULL);
    tyjson_read_opts(d, strlen(d), NULL, &de);
    ASSERT_EQ_INT(tyjson_reader_error(r)->offset, de.offset);
    ASSERT_EQ_STR(tyjson_reader_error(r)->msg, de.msg);
    tyjson_reader_free(r);
}

TEST(pieces_reassemble) {
    char d[6000];
    size_t n = 0;
    d[n++] = '[';
    for (int k = 0; k < 3; k++) {
        d[n++] = '"';
        for (int i = 0; i < 1500; i++) {
            if (i % 97 == 0) { memcpy(d + n, "\\u00e9", 6); n += 6; }
            else if (i % 89 == 0) { memcpy(d + n, "\xe6\x97\xa5", 3); n += 3; }
            else d[n++] = (char)('a' + i % 26);
        }
        d[n++] = '"';
        d[n++] = k < 2 ? ',' : ']';
    }
    tb want = {0};
    dom_listing(&want, d, n, 0, false, NULL);
    for (int src = 0; src < SRC_COUNT; src++) {
        tyjson_reader_options o;
        memset(&o, 0, sizeof(o));
        o.reader_flags = TYJSON_READER_PIECES;
        o.max_token = 16;
        o.window = 64;
        tb got = {0};
        read_via(&got, d, n, src, &o, false);
        if (strcmp(got.s, want.s) != 0) TEST_FAIL("pieces via %s differ", src_names[src]);
        tb_free(&got);
        /* without PIECES: E_SIZE at the string's quote */
        o.reader_flags = 0;
        tb bad = {0};
        read_via(&bad, d, n, src, &o, false);
        if (!strstr(bad.s, "E E_SIZE 1 1:2")) TEST_FAIL("via %s: %.300s", src_names[src], last_line(&bad));
        tb_free(&bad);
    }
    tb_free(&want);
}

TEST(one_mb_string_fed_byte_by_byte) {
    size_t n = 1u << 20;
    char *d = (char *)malloc(n + 2);
    d[0] = '"';
    for (size_t i = 1; i <= n - 2; i++) d[i] = (char)('a' + i % 26);
    d[n - 1] = '"';
    tyjson_reader_options o;
    memset(&o, 0, sizeof(o));
    o.max_token = n;
    tyjson_reader *r = tyjson_reader_new(&o, NULL);
    tyjson_reader_open_push(r);
    size_t at = 0;
    tyjson_token t;
    while ((t = tyjson_reader_next(r)) == TYJSON_TOK_NEED_MORE) {
        if (at == n) tyjson_reader_feed_end(r);
        else tyjson_reader_feed(r, d + at++, 1);
    }
    ASSERT_EQ_INT(t, TYJSON_TOK_STR);
    size_t len = 0;
    const char *s = tyjson_reader_str(r, &len);
    ASSERT_EQ_INT(len, n - 2);
    ASSERT_TRUE(memcmp(s, d + 1, n - 2) == 0);
    tyjson_reader_free(r);
    free(d);
}

/* A document of `records` points inside {"meta":..,"data":[..]}. */
static char *records_doc(size_t records, size_t *len, size_t bad_at) {
    tb b = {0};
    tb_put(&b, "{\"meta\":{\"v\":1,\"s\":\"x\"},\n\"data\":[", 33);
    for (size_t i = 0; i < records; i++) {
        if (i == bad_at) tb_fmt(&b, "%s\n {\"x\":\"oops\",\"y\":%zu}", i ? "," : "", i);
        else tb_fmt(&b, "%s\n {\"x\":%zu,\"y\":-%zu}", i ? "," : "", i, i * 3);
    }
    tb_put(&b, "]}\n", 3);
    *len = b.n;
    return b.s;
}

static size_t decode_records(const char *d, size_t len, int src, size_t *mem, tyjson_error *err) {
    tyjson_reader_options o;
    memset(&o, 0, sizeof(o));
    o.window = 4096;
    tyjson_reader *r = tyjson_reader_new(&o, NULL);
    feeder f = {d, len, 0, 0, 3};
    FILE *fp = NULL;
    if (src == SRC_BUF) tyjson_reader_open_buf(r, d, len);
    else if (src == SRC_FP) {
        fp = file_of(d, len);
        tyjson_reader_open_fp(r, fp);
    } else tyjson_reader_open_push(r);
    tyjson_arena arena;
    tyjson_arena_init(&arena, NULL);
    size_t count = 0;
    bool in_data = false;
    err->code = TYJSON_OK;
    for (;;) {
        if (!in_data) {
            tyjson_token t = tyjson_reader_next(r);
            if (t == TYJSON_TOK_NEED_MORE) {
                if (f.at == f.len) tyjson_reader_feed_end(r);
                else {
                    size_t n = next_chunk(&f);
                    tyjson_reader_feed(r, d + f.at, n);
                    f.at += n;
                }
                continue;
            }
            if (t == TYJSON_TOK_END || t == TYJSON_TOK_ERROR) break;
            if (t == TYJSON_TOK_KEY && strcmp(tyjson_reader_str(r, NULL), "meta") == 0) {
                tyjson_doc *meta;
                while (!(meta = tyjson_reader_read_doc(r, NULL, err)) && err->code == TYJSON_MORE) {
                    if (f.at == f.len) tyjson_reader_feed_end(r);
                    else {
                        size_t n = next_chunk(&f);
                        tyjson_reader_feed(r, d + f.at, n);
                        f.at += n;
                    }
                }
                ASSERT_TRUE(meta != NULL);
                ASSERT_EQ_INT(tyjson_get_uint(tyjson_obj_get(tyjson_doc_get_root(meta), "v")), 1);
                tyjson_doc_free(meta);
            }
            if (t == TYJSON_TOK_ARR_BEGIN) in_data = true;
            continue;
        }
        tyjson_token pk = tyjson_reader_peek(r);
        if (pk == TYJSON_TOK_NEED_MORE || pk == TYJSON_TOK_ARR_END) {
            if (pk == TYJSON_TOK_ARR_END) {
                in_data = false;
                continue;
            }
        }
        point p;
        tyjson_status s = tyjson_reader_decode(r, &point_type, &p, &arena, NULL, err);
        if (s == TYJSON_MORE || pk == TYJSON_TOK_NEED_MORE) {
            if (s == TYJSON_OK) goto got;
            if (f.at == f.len) tyjson_reader_feed_end(r);
            else {
                size_t n = next_chunk(&f);
                tyjson_reader_feed(r, d + f.at, n);
                f.at += n;
            }
            continue;
        }
        if (s != TYJSON_OK) break;
    got:
        ASSERT_EQ_INT(p.x, (int32_t)count);
        ASSERT_EQ_INT(p.y, -(int32_t)(count * 3));
        count++;
        tyjson_arena_reset(&arena);
        if (count == 5 && mem) *mem = tyjson_reader_mem_size(r);
    }
    if (mem && count > 5) ASSERT_EQ_INT(tyjson_reader_mem_size(r), *mem);
    tyjson_arena_free(&arena);
    tyjson_reader_free(r);
    if (fp) fclose(fp);
    return count;
}

TEST(records_decode_in_constant_memory) {
    static const int srcs[] = {SRC_BUF, SRC_FP, SRC_PUSHR};
    for (size_t s = 0; s < 3; s++) {
        size_t m10 = 0, m100k = 0, len;
        tyjson_error err;
        char *d = records_doc(10, &len, SIZE_MAX);
        ASSERT_EQ_INT(decode_records(d, len, srcs[s], &m10, &err), 10);
        ASSERT_EQ_INT(err.code, TYJSON_OK);
        free(d);
        d = records_doc(100000, &len, SIZE_MAX);
        ASSERT_EQ_INT(decode_records(d, len, srcs[s], &m100k, &err), 100000);
        free(d);
        ASSERT_EQ_INT(m10, m100k);
        /* a bad record: the path and place in the whole document */
        d = records_doc(10, &len, 3);
        ASSERT_EQ_INT(decode_records(d, len, srcs[s], NULL, &err), 3);
        ASSERT_EQ_INT(err.code, TYJSON_E_TYPE);
        ASSERT_EQ_STR(err.path, "$.data[3].x");
        const char *at = strstr(d, "\"oops\"");
        ASSERT_EQ_INT(err.offset, (size_t)(at - d));
        size_t line, col;
        tyjson_locate(d, len, err.offset, &line, &col);
        ASSERT_EQ_INT(err.line, line);
        ASSERT_EQ_INT(err.column, col);
        free(d);
    }
}

TEST(records_equal_per_record_decode) {
    const char *d = "[{\"x\":1,\"y\":2}, {\"y\":5}, {\"x\":-7,\"y\":0,\"z\":[1,{}]}]";
    tyjson_reader *r = tyjson_reader_new(NULL, NULL);
    tyjson_reader_open_buf(r, d, strlen(d));
    ASSERT_EQ_INT(tyjson_reader_next(r), TYJSON_TOK_ARR_BEGIN);
    tyjson_arena arena;
    tyjson_arena_init(&arena, NULL);
    const char *recs[] = {"{\"x\":1,\"y\":2}", "{\"y\":5}", "{\"x\":-7,\"y\":0,\"z\":[1,{}]}"};
    for (int i = 0; i < 3; i++) {
        point a, b;
        tyjson_error err;
        ASSERT_EQ_INT(tyjson_reader_decode(r, &point_type, &a, &arena, NULL, &err), TYJSON_OK);
        ASSERT_EQ_INT(tyjson_decode(&point_type, &b, recs[i], strlen(recs[i]), &arena, NULL, &err),
                      TYJSON_OK);
        ASSERT_EQ_INT(a.x, b.x);
        ASSERT_EQ_INT(a.y, b.y);
    }
    ASSERT_EQ_INT(tyjson_reader_next(r), TYJSON_TOK_ARR_END);
    ASSERT_EQ_INT(tyjson_reader_next(r), TYJSON_TOK_END);
    tyjson_arena_free(&arena);
    tyjson_reader_free(r);
}

TEST(ndjson_read_doc_multi) {
    const char *d = "{\"a\":1}\n[2]\n\"three\"\n4\n";
    tyjson_reader_options o;
    memset(&o, 0, sizeof(o));
    o.reader_flags = TYJSON_READER_MULTI;
    tyjson_reader *r = tyjson_reader_new(&o, NULL);
    tyjson_reader_open_buf(r, d, strlen(d));
    int n = 0;
    tyjson_error err;
    tyjson_doc *doc;
    while ((doc = tyjson_reader_read_doc(r, NULL, &err)) != NULL) {
        n++;
        tyjson_doc_free(doc);
    }
    ASSERT_EQ_INT(n, 4);
    ASSERT_EQ_INT(err.code, TYJSON_E_STATE);
    ASSERT_EQ_INT(tyjson_reader_next(r), TYJSON_TOK_END);
    /* a syntax error inside a value: the DOM's code, offset in the whole input */
    const char *bad = "[1]\n[2, 3 4]\n";
    tyjson_reader_open_buf(r, bad, strlen(bad));
    doc = tyjson_reader_read_doc(r, NULL, &err);
    ASSERT_TRUE(doc != NULL);
    tyjson_doc_free(doc);
    ASSERT_TRUE(tyjson_reader_read_doc(r, NULL, &err) == NULL);
    ASSERT_EQ_INT(err.code, TYJSON_E_UNEXPECTED_CHAR);
    ASSERT_EQ_INT(err.offset, 10);
    ASSERT_EQ_INT(err.line, 2);
    ASSERT_EQ_INT(err.column, 7);
    ASSERT_EQ_INT(tyjson_reader_next(r), TYJSON_TOK_ERROR);
    tyjson_reader_free(r);
}

TEST(getters_and_api_edges) {
    const char *d = "[18446744073709551615, -5, 2.5, 1e400]";
    tyjson_reader_options o;
    memset(&o, 0, sizeof(o));
    o.flags = TYJSON_READ_BIGNUM_AS_RAW;
    tyjson_reader *r = tyjson_reader_new(&o, NULL);
    tyjson_reader_open_buf(r, d, strlen(d));
    uint64_t u;
    int64_t i;
    double x;
    ASSERT_EQ_INT(tyjson_reader_next(r), TYJSON_TOK_ARR_BEGIN);
    ASSERT_FALSE(tyjson_reader_get_u64(r, &u));
    ASSERT_EQ_INT(tyjson_reader_next(r), TYJSON_TOK_NUM);
    ASSERT_TRUE(tyjson_reader_get_u64(r, &u) && u == UINT64_MAX);
    ASSERT_FALSE(tyjson_reader_get_i64(r, &i));
    ASSERT_EQ_INT(tyjson_reader_next(r), TYJSON_TOK_NUM);
    ASSERT_TRUE(tyjson_reader_get_i64(r, &i) && i == -5);
    ASSERT_FALSE(tyjson_reader_get_u64(r, &u));
    ASSERT_EQ_INT(tyjson_reader_next(r), TYJSON_TOK_NUM);
    ASSERT_TRUE(tyjson_reader_get_double(r, &x) && x == 2.5);
    ASSERT_EQ_INT(tyjson_reader_next(r), TYJSON_TOK_NUM);
    ASSERT_FALSE(tyjson_reader_get_double(r, &x));
    ASSERT_EQ_STR(tyjson_reader_str(r, NULL), "1e400");
    char path[8];
    ASSERT_EQ_INT(tyjson_reader_path(r, path, sizeof(path)), 4);
    ASSERT_EQ_STR(path, "$[3]");
    ASSERT_EQ_INT(tyjson_reader_path(r, path, 3), 4);
    ASSERT_EQ_STR(path, "$[");
    ASSERT_EQ_INT(tyjson_reader_feed(r, "x", 1), TYJSON_E_STATE);
    tyjson_reader_free(r);
    tyjson_error err;
    o.flags = 1u << 30;
    ASSERT_TRUE(tyjson_reader_new(&o, &err) == NULL);
    ASSERT_EQ_INT(err.code, TYJSON_E_INVALID_ARG);
    ASSERT_EQ_INT(tyjson_reader_open_buf(NULL, "", 0), TYJSON_E_INVALID_ARG);
    ASSERT_EQ_INT(tyjson_reader_next(NULL), TYJSON_TOK_ERROR);
    tyjson_reader_free(NULL);
}

static int fail_read_calls;
static ptrdiff_t failing_read(void *ctx, char *buf, size_t cap) {
    (void)ctx;
    if (fail_read_calls++ > 0) return -1;
    memcpy(buf, "[1,", cap < 3 ? cap : 3);
    return cap < 3 ? (ptrdiff_t)cap : 3;
}

TEST(io_error_and_pipe) {
    tyjson_reader *r = tyjson_reader_new(NULL, NULL);
    fail_read_calls = 0;
    tyjson_reader_open_cb(r, failing_read, NULL);
    tyjson_token t;
    while ((t = tyjson_reader_next(r)) != TYJSON_TOK_ERROR) ASSERT_TRUE(t != TYJSON_TOK_END);
    ASSERT_EQ_INT(tyjson_reader_error(r)->code, TYJSON_E_IO);
    int fds[2];
    ASSERT_EQ_INT(pipe(fds), 0);
    const char *d = "{\"p\": [true, \"pipe\"]}";
    ASSERT_EQ_INT(write(fds[1], d, strlen(d)), (ssize_t)strlen(d));
    close(fds[1]);
    tyjson_reader_open_fd(r, fds[0]);
    tb got = {0}, want = {0};
    reader_listing(&got, r, NULL, NULL, 0);
    dom_listing(&want, d, strlen(d), 0, false, NULL);
    ASSERT_EQ_STR(got.s, want.s);
    close(fds[0]);
    tb_free(&got);
    tb_free(&want);
    tyjson_reader_free(r);
}

/* Every allocation failing in turn: E_NOMEM (or a success), no leak. */
TEST(allocation_failure_sweep) {
    char *big = NULL;
    size_t blen = 0;
    big = records_doc(40, &blen, SIZE_MAX);
    static const char *const inputs[] = {
        "{\"a\":[1,{\"b\":\"x\\ny\"}],\"a\":2}",
        "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\"deep\"]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
    };
    for (int which = 0; which < 3; which++) {
        const char *d = which < 2 ? inputs[which] : big;
        size_t len = strlen(d);
        for (size_t fail_at = 0; fail_at < 200; fail_at++) {
            test_alloc ta;
            tyjson_alloc alc = test_alloc_make(&ta, fail_at);
            tyjson_reader_options o;
            memset(&o, 0, sizeof(o));
            o.alc = &alc;
            o.window = 64;
            o.flags = TYJSON_READ_REJECT_DUPLICATE_KEYS;
            tyjson_error err;
            tyjson_reader *r = tyjson_reader_new(&o, &err);
            if (!r) {
                ASSERT_EQ_INT(err.code, TYJSON_E_NOMEM);
                ASSERT_EQ_INT(ta.live, 0);
                continue;
            }
            FILE *fp = file_of(d, len);
            tyjson_token t = TYJSON_TOK_ERROR;
            bool str_failed = false; /* tyjson_reader_str's copy refused: NULL */
            if (tyjson_reader_open_fp(r, fp) == TYJSON_OK) {
                while ((t = tyjson_reader_next(r)) != TYJSON_TOK_ERROR && t != TYJSON_TOK_END) {
                    if ((t == TYJSON_TOK_STR || t == TYJSON_TOK_KEY || t == TYJSON_TOK_NUM) &&
                        !tyjson_reader_str(r, NULL)) {
                        str_failed = true;
                        break;
                    }
                }
            }
            if (t == TYJSON_TOK_ERROR && ta.failed && !str_failed)
                ASSERT_EQ_INT(tyjson_reader_error(r)->code, TYJSON_E_NOMEM);
            tyjson_reader_free(r);
            fclose(fp);
            ASSERT_EQ_INT(ta.live, 0);
            if (!ta.failed) break;
        }
    }
    free(big);
}

/* ----------------------------------------------------------------------------
 * Duplicate keys in one huge object: the check is a hash set per open object,
 * so the key comparisons grow linearly with the keys (they grew as n^2/2 when
 * each key was compared with every earlier one: 2e10 for 200k keys).
 * ------------------------------------------------------------------------- */

/* {"k0":0,"k1":{"k0":1,"k1":1},...,"k<n-1>":..} plus ,"k<rep>":0 when rep < n:
 * every odd member is a small object repeating the outer keys k0, k1 (no
 * duplicates: they are another object's). */
static char *wide_doc(size_t n, size_t rep, size_t *len) {
    tb b = {NULL, 0, 0};
    tb_put(&b, "{", 1);
    for (size_t i = 0; i < n; i++) {
        if (i % 2) tb_fmt(&b, "%s\"k%zu\":{\"k0\":1,\"k1\":1}", i ? "," : "", i);
        else tb_fmt(&b, "%s\"k%zu\":%zu", i ? "," : "", i, i);
    }
    if (rep < n) tb_fmt(&b, ",\"k%zu\":0", rep);
    tb_put(&b, "}", 1);
    *len = b.n;
    return b.s;
}

/* Reads dat to its end with the duplicate check on; the last token, the
 * comparisons it made, the error. */
static tyjson_token wide_read(const char *dat, size_t len, bool from_file, size_t *compares,
                              tyjson_error *e) {
    tyjson_reader_options o;
    memset(&o, 0, sizeof(o));
    o.flags = TYJSON_READ_REJECT_DUPLICATE_KEYS;
    o.window = 4096;
    tyjson_error err;
    tyjson_reader *r = tyjson_reader_new(&o, &err);
    ASSERT_TRUE(r != NULL);
    FILE *fp = from_file ? file_of(dat, len) : NULL;
    ASSERT_EQ_INT(from_file ? tyjson_reader_open_fp(r, fp) : tyjson_reader_open_buf(r, dat, len),
                  TYJSON_OK);
    tyjson_token t;
    while ((t = tyjson_reader_next(r)) != TYJSON_TOK_END && t != TYJSON_TOK_ERROR) {
    }
    *compares = tyjson__reader_dup_compares(r);
    *e = *tyjson_reader_error(r);
    tyjson_reader_free(r);
    if (fp) fclose(fp);
    return t;
}

TEST(duplicate_check_linear_in_keys) {
    const size_t n = 200000;
    for (int from_file = 0; from_file < 2; from_file++) {
        size_t len, compares;
        tyjson_error e;
        char *d = wide_doc(n, n, &len);
        ASSERT_EQ_INT(wide_read(d, len, from_file, &compares, &e), TYJSON_TOK_END);
        /* a bucket holds half a key of the object on average: about n/2 */
        ASSERT_TRUE(compares < n);
        free(d);

        /* the last key repeats k12345: found, where and as the DOM finds it */
        d = wide_doc(n, 12345, &len);
        ASSERT_EQ_INT(wide_read(d, len, from_file, &compares, &e), TYJSON_TOK_ERROR);
        ASSERT_TRUE(compares < n + 8);
        tyjson_read_options ro;
        memset(&ro, 0, sizeof(ro));
        ro.flags = TYJSON_READ_REJECT_DUPLICATE_KEYS;
        tyjson_error de;
        tyjson_doc *doc = tyjson_read_opts(d, len, &ro, &de);
        ASSERT_NULL(doc);
        ASSERT_EQ_INT(e.code, TYJSON_E_DUPLICATE_KEY);
        ASSERT_EQ_INT(de.code, TYJSON_E_DUPLICATE_KEY);
        ASSERT_EQ_UINT(e.offset, de.offset);
        ASSERT_EQ_UINT(e.line, de.line);
        ASSERT_EQ_UINT(e.column, de.column);
        ASSERT_EQ_STR(e.msg, de.msg);
        free(d);
    }
}

/* An input abandoned inside objects leaves their keys behind; the next input
 * starts with none (the table is emptied with them), and the memory stays. */
TEST(duplicate_check_after_abandoned_input) {
    tyjson_reader_options o;
    memset(&o, 0, sizeof(o));
    o.flags = TYJSON_READ_REJECT_DUPLICATE_KEYS;
    tyjson_error err;
    tyjson_reader *r = tyjson_reader_new(&o, &err);
    ASSERT_TRUE(r != NULL);
    static const char first[] = "{\"a\":{\"b\":1,\"c\":{\"d\":2,\"e\":";
    ASSERT_EQ_INT(tyjson_reader_open_buf(r, first, strlen(first)), TYJSON_OK);
    while (tyjson_reader_next(r) != TYJSON_TOK_ERROR) {
    }
    ASSERT_EQ_INT(tyjson_reader_error(r)->code, TYJSON_E_TRUNCATED);
    size_t mem = tyjson_reader_mem_size(r);
    static const char second[] = "{\"d\":1,\"e\":{\"a\":1,\"b\":2,\"c\":3},\"c\":4,\"b\":5,\"a\":6}";
    ASSERT_EQ_INT(tyjson_reader_open_buf(r, second, strlen(second)), TYJSON_OK);
    tyjson_token t;
    while ((t = tyjson_reader_next(r)) != TYJSON_TOK_END && t != TYJSON_TOK_ERROR) {
    }
    ASSERT_EQ_INT(t, TYJSON_TOK_END);
    ASSERT_EQ_UINT(tyjson_reader_mem_size(r), mem);
    static const char third[] = "{\"x\":{\"y\":1},\"y\":2,\"x\":3}";
    ASSERT_EQ_INT(tyjson_reader_open_buf(r, third, strlen(third)), TYJSON_OK);
    while ((t = tyjson_reader_next(r)) != TYJSON_TOK_END && t != TYJSON_TOK_ERROR) {
    }
    ASSERT_EQ_INT(t, TYJSON_TOK_ERROR);
    ASSERT_EQ_INT(tyjson_reader_error(r)->code, TYJSON_E_DUPLICATE_KEY);
    ASSERT_EQ_UINT(tyjson_reader_error(r)->offset, 19);
    tyjson_reader_free(r);
}

int main(int argc, char **argv) { return test_main(argc, argv); }
