/* test_lines.c - the NDJSON iterator (tyjson/lines.h): every source kind,
 * the input cut at every byte, bad lines with and without CONTINUE, CRLF,
 * blank lines, no final newline, max_line, typed records against
 * tyjson_decode per line, the parallel calls against the sequential ones
 * for 1..4 threads (in order and per thread), callback abort, allocation
 * failures; scenario files of ../shared turned into NDJSON when present. */
#define _POSIX_C_SOURCE 200809L
#define TEST_WANT_JSON_LIST
#include "test.h"
#include "tyjson.h"
#include "stream/lines_impl.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <unistd.h>

/* ----------------------------------------------------------------------------
 * A growing string for transcripts.
 * ------------------------------------------------------------------------- */
typedef struct sbuf {
    char *p;
    size_t len, cap;
} sbuf;

static void sb_add(sbuf *s, const char *fmt, ...) {
    va_list ap;
    for (;;) {
        size_t room = s->cap - s->len;
        va_start(ap, fmt);
        int n = vsnprintf(s->p ? s->p + s->len : NULL, room, fmt, ap);
        va_end(ap);
        if (n < 0) abort();
        if ((size_t)n < room) {
            s->len += (size_t)n;
            return;
        }
        size_t ncap = (s->cap + (size_t)n + 1) * 2;
        char *np = (char *)realloc(s->p, ncap);
        if (!np) abort();
        s->p = np;
        s->cap = ncap;
    }
}

static void sb_err(sbuf *s, const tyjson_error *e) {
    sb_add(s, "E %s %zu:%zu@%zu %s\n", tyjson_status_name(e->code), e->line, e->column, e->offset,
           e->msg);
}

static void sb_doc(sbuf *s, size_t line, size_t offset, const tyjson_doc *doc) {
    size_t n = 0;
    char *t = tyjson_write(doc, 0, &n);
    if (!t) abort();
    sb_add(s, "R %zu@%zu %s\n", line, offset, t);
    free(t);
}

/* ----------------------------------------------------------------------------
 * Sources: a buffer, a FILE*, a descriptor, a callback giving `chunk` bytes
 * at a time (0: a varying count).
 * ------------------------------------------------------------------------- */
typedef enum src_kind { SRC_BUF, SRC_FP, SRC_FD, SRC_CB } src_kind;

typedef struct mem_src {
    const char *dat;
    size_t len, pos, chunk, calls;
    size_t fail_at; /* the read that fails (SIZE_MAX: none) */
} mem_src;

static ptrdiff_t mem_read(void *ctx, char *buf, size_t cap) {
    mem_src *m = (mem_src *)ctx;
    if (m->calls++ == m->fail_at) return -1;
    size_t n = m->len - m->pos;
    size_t want = m->chunk ? m->chunk : 1 + (m->calls * 7919) % 97;
    if (n > want) n = want;
    if (n > cap) n = cap;
    memcpy(buf, m->dat + m->pos, n);
    m->pos += n;
    return (ptrdiff_t)n;
}

typedef struct opened {
    tyjson_lines *it;
    FILE *fp;
    mem_src m;
} opened;

static FILE *temp_with(const char *dat, size_t len) {
    FILE *fp = tmpfile();
    ASSERT_NOT_NULL(fp);
    if (len) ASSERT_EQ_UINT(fwrite(dat, 1, len, fp), len);
    ASSERT_EQ_INT(fflush(fp), 0);
    rewind(fp);
    return fp;
}

static void open_src(opened *o, src_kind k, size_t chunk, const char *dat, size_t len,
                     const tyjson_lines_options *opts) {
    tyjson_error err;
    memset(o, 0, sizeof(*o));
    switch (k) {
    case SRC_BUF: o->it = tyjson_lines_open_buf(dat, len, opts, &err); break;
    case SRC_FP:
        o->fp = temp_with(dat, len);
        o->it = tyjson_lines_open_fp(o->fp, opts, &err);
        break;
    case SRC_FD:
        o->fp = temp_with(dat, len);
        o->it = tyjson_lines_open_fd(fileno(o->fp), opts, &err);
        break;
    case SRC_CB:
        o->m.dat = dat;
        o->m.len = len;
        o->m.chunk = chunk;
        o->m.fail_at = SIZE_MAX;
        o->it = tyjson_lines_open_cb(mem_read, &o->m, opts, &err);
        break;
    }
    if (!o->it) TEST_FAIL("open failed: %s", err.msg);
}

static void close_src(opened *o) {
    tyjson_lines_free(o->it);
    if (o->fp) fclose(o->fp);
}

static void sb_end(sbuf *s, tyjson_lines *it) {
    size_t n = 0;
    const tyjson_error *e = tyjson_lines_errors(it, &n);
    sb_add(s, "END records=%zu bad=%zu kept=%zu\n", tyjson_lines_records(it),
           tyjson_lines_bad_lines(it), n);
    for (size_t i = 0; i < n; i++) sb_err(s, &e[i]);
}

/* The sequential transcript of the documents of an open iterator. */
static char *seq_docs(tyjson_lines *it) {
    sbuf s = {0};
    for (;;) {
        tyjson_doc *doc;
        tyjson_error err;
        tyjson_status st = tyjson_lines_next_doc(it, &doc, &err);
        if (st == TYJSON_DONE) break;
        if (st == TYJSON_OK) {
            sb_doc(&s, tyjson_lines_line(it), tyjson_lines_offset(it), doc);
            tyjson_doc_free(doc);
            continue;
        }
        ASSERT_EQ_INT(err.code, st);
        ASSERT_NULL(doc);
        sb_err(&s, &err);
        if (st == TYJSON_E_IO || st == TYJSON_E_NOMEM) break;
    }
    sb_end(&s, it);
    return s.p;
}

static char *seq_of(src_kind k, size_t chunk, const char *dat, size_t len,
                    const tyjson_lines_options *opts) {
    opened o;
    open_src(&o, k, chunk, dat, len, opts);
    char *t = seq_docs(o.it);
    close_src(&o);
    return t;
}

/* ----------------------------------------------------------------------------
 * Parallel transcripts: entries gathered by the callback, sorted by line in
 * per-thread mode (the sequential order otherwise must hold as it is).
 * ------------------------------------------------------------------------- */
typedef struct entry {
    size_t line;
    char *text;
} entry;

typedef struct gather {
    pthread_mutex_t mu;
    entry *e;
    size_t n, cap;
    size_t last_line;
    int out_of_order;
    unsigned seen_threads; /* bit per thread index */
    pthread_t caller;
    int off_caller; /* ordered mode: a callback not on the calling thread */
    size_t stop_after; /* return 1 at this many callbacks (0: never) */
    size_t calls;
} gather;

static void gather_init(gather *g) {
    memset(g, 0, sizeof(*g));
    pthread_mutex_init(&g->mu, NULL);
    g->caller = pthread_self();
}

static void gather_free(gather *g) {
    for (size_t i = 0; i < g->n; i++) free(g->e[i].text);
    free(g->e);
    pthread_mutex_destroy(&g->mu);
}

static int gather_fn(void *ctx, const tyjson_lines_item *item) {
    gather *g = (gather *)ctx;
    sbuf s = {0};
    if (item->doc) {
        sb_doc(&s, item->line, item->offset, item->doc);
        /* the line's bytes are the record's */
        tyjson_doc *again = tyjson_read_opts(item->dat, item->len, NULL, NULL);
        if (!again && !(item->line == 1 && item->len >= 3 && (unsigned char)item->dat[0] == 0xEF)) {
            /* parsed with relaxed flags only: not for these tests */
        }
        tyjson_doc_free(again);
    } else if (item->value) {
        sb_add(&s, "V %zu@%zu\n", item->line, item->offset);
    } else {
        sb_err(&s, item->error);
    }
    pthread_mutex_lock(&g->mu);
    if (g->n == g->cap) {
        g->cap = g->cap ? g->cap * 2 : 256;
        g->e = (entry *)realloc(g->e, g->cap * sizeof(entry));
        if (!g->e) abort();
    }
    g->e[g->n].line = item->line;
    g->e[g->n].text = s.p;
    g->n++;
    if (item->line <= g->last_line) g->out_of_order = 1;
    g->last_line = item->line;
    g->seen_threads |= 1u << (item->thread & 31);
    if (!pthread_equal(pthread_self(), g->caller)) g->off_caller = 1;
    size_t c = ++g->calls;
    pthread_mutex_unlock(&g->mu);
    return g->stop_after && c >= g->stop_after;
}

static int entry_cmp(const void *a, const void *b) {
    const entry *x = (const entry *)a, *y = (const entry *)b;
    return x->line < y->line ? -1 : x->line > y->line;
}

static char *gather_text(gather *g, tyjson_lines *it) {
    sbuf s = {0};
    if (g->n) qsort(g->e, g->n, sizeof(entry), entry_cmp);
    for (size_t i = 0; i < g->n; i++) sb_add(&s, "%s", g->e[i].text);
    sb_end(&s, it);
    return s.p;
}

static char *par_of(src_kind k, const char *dat, size_t len, const tyjson_lines_options *opts,
                    unsigned threads, gather *g, tyjson_status *st) {
    opened o;
    open_src(&o, k, 4096, dat, len, opts);
    tyjson_error err;
    *st = tyjson_lines_parallel_docs(o.it, threads, gather_fn, g, &err);
    ASSERT_EQ_INT(err.code, *st);
    char *t = gather_text(g, o.it);
    close_src(&o);
    return t;
}

/* ----------------------------------------------------------------------------
 * Inputs.
 * ------------------------------------------------------------------------- */
static const char mixed[] =
    "{\"a\":1}\n"           /* 1 */
    "{\"a\":\n"             /* 2: truncated */
    " nul\n"                /* 3: bad literal */
    "\n"                    /* 4: blank */
    "   \t \n"              /* 5: blank */
    "[1,2] 3\n"             /* 6: two values */
    "{\"b\":true}\r\n"      /* 7: CRLF */
    "\r\n"                  /* 8: blank CRLF */
    "\"caf\xc3\xa9\"\n"     /* 9 */
    "[1,\xff]\n"            /* 10: a byte that starts no value */
    "42";                   /* 11: no final newline */

static const char *const small_inputs[] = {
    "",
    "\n",
    "\n\n  \r\n",
    "1",
    "1\n",
    "1\r\n2\r\n",
    "{\"k\":[1,2,{\"x\":null}]}\n\n[true,false]\n",
    "[1,\n2]\n",
    "nul\n",
    "\"abc\n",
    "{} {}\n[]",
    "\r",
    "1\r",
};

/* ~100k lines: objects, bad lines every 997th, blank lines, CRLF, no final
 * newline. */
static char *make_big(size_t *len) {
    sbuf s = {0};
    for (size_t i = 0; i < 100000; i++) {
        if (i % 997 == 13) sb_add(&s, "{\"id\":%zu,\"broken\":}\n", i);
        else if (i % 1009 == 5) sb_add(&s, "  \n");
        else if (i % 3 == 0)
            sb_add(&s, "{\"id\":%zu,\"user\":{\"name\":\"u%zu\",\"n\":[%zu,%zu.5]},\"ok\":true}\r\n",
                   i, i % 113, i * 3, i);
        else sb_add(&s, "{\"id\":%zu,\"text\":\"line \\u00e9 %zu\",\"v\":null}\n", i, i);
    }
    sb_add(&s, "{\"last\":1}");
    *len = s.len;
    return s.p;
}

/* ----------------------------------------------------------------------------
 * The iterator.
 * ------------------------------------------------------------------------- */
TEST(basic_records_and_places) {
    tyjson_error err;
    tyjson_lines *it = tyjson_lines_open_buf(mixed, sizeof(mixed) - 1, NULL, &err);
    ASSERT_NOT_NULL(it);
    tyjson_doc *doc;
    ASSERT_EQ_INT(tyjson_lines_next_doc(it, &doc, &err), TYJSON_OK);
    ASSERT_EQ_UINT(tyjson_lines_line(it), 1);
    ASSERT_EQ_UINT(tyjson_lines_offset(it), 0);
    size_t n;
    size_t full;
    const char *rec = tyjson_lines_record(it, &n, &full);
    ASSERT_EQ_UINT(n, 7);
    ASSERT_EQ_UINT(full, 8);
    ASSERT_EQ_MEM(rec, "{\"a\":1}", 7);
    tyjson_doc_free(doc);
    /* line 2: the object never ends; the newline is part of the line */
    ASSERT_EQ_INT(tyjson_lines_next_doc(it, &doc, &err), TYJSON_E_TRUNCATED);
    ASSERT_NULL(doc);
    ASSERT_EQ_UINT(err.line, 2);
    ASSERT_EQ_UINT(err.offset, 8 + 6);
    ASSERT_EQ_UINT(tyjson_lines_line(it), 2);
    /* line 3: " nul" then the newline is a wrong literal at column 2 */
    ASSERT_EQ_INT(tyjson_lines_next_doc(it, &doc, &err), TYJSON_E_LITERAL);
    ASSERT_EQ_UINT(err.line, 3);
    ASSERT_EQ_UINT(err.column, 2);
    ASSERT_EQ_UINT(err.offset, 14 + 1);
    /* lines 4, 5 blank; line 6 holds two values */
    ASSERT_EQ_INT(tyjson_lines_next_doc(it, &doc, &err), TYJSON_E_TRAILING);
    ASSERT_EQ_UINT(err.line, 6);
    ASSERT_EQ_UINT(err.column, 7);
    char buf[300];
    tyjson_error_format(&err, buf, sizeof(buf));
    ASSERT_TRUE(strncmp(buf, "6:7: ", 5) == 0);
    /* line 7, CRLF */
    ASSERT_EQ_INT(tyjson_lines_next_doc(it, &doc, &err), TYJSON_OK);
    ASSERT_EQ_UINT(tyjson_lines_line(it), 7);
    rec = tyjson_lines_record(it, &n, &full);
    ASSERT_EQ_UINT(n, 10); /* the CR is not part of the record */
    ASSERT_EQ_UINT(full, 12);
    ASSERT_EQ_MEM(rec + 10, "\r\n", 2);
    ASSERT_TRUE(tyjson_is_true(tyjson_obj_get(tyjson_doc_get_root(doc), "b")));
    tyjson_doc_free(doc);
    ASSERT_EQ_INT(tyjson_lines_next_doc(it, &doc, &err), TYJSON_OK);
    ASSERT_EQ_UINT(tyjson_lines_line(it), 9);
    tyjson_doc_free(doc);
    ASSERT_EQ_INT(tyjson_lines_next_doc(it, &doc, &err), TYJSON_E_UNEXPECTED_CHAR);
    ASSERT_EQ_UINT(err.line, 10);
    ASSERT_EQ_UINT(err.column, 4);
    ASSERT_EQ_INT(tyjson_lines_next_doc(it, &doc, &err), TYJSON_OK);
    ASSERT_EQ_UINT(tyjson_lines_line(it), 11);
    ASSERT_EQ_UINT(tyjson_get_uint(tyjson_doc_get_root(doc)), 42);
    tyjson_doc_free(doc);
    ASSERT_EQ_INT(tyjson_lines_next_doc(it, &doc, &err), TYJSON_DONE);
    ASSERT_EQ_INT(err.code, TYJSON_DONE);
    ASSERT_EQ_INT(tyjson_lines_next_doc(it, &doc, &err), TYJSON_DONE);
    ASSERT_EQ_UINT(tyjson_lines_records(it), 4);
    ASSERT_EQ_UINT(tyjson_lines_bad_lines(it), 4);
    ASSERT_NULL(tyjson_lines_errors(it, &n)); /* kept only with CONTINUE */
    ASSERT_EQ_UINT(n, 0);
    tyjson_lines_free(it);
}

TEST(continue_keeps_first_errors) {
    tyjson_lines_options o;
    memset(&o, 0, sizeof(o));
    o.flags = TYJSON_LINES_CONTINUE;
    o.max_errors = 3;
    tyjson_error err;
    tyjson_lines *it = tyjson_lines_open_buf(mixed, sizeof(mixed) - 1, &o, &err);
    ASSERT_NOT_NULL(it);
    tyjson_doc *doc;
    size_t lines[8], k = 0;
    tyjson_status st;
    while ((st = tyjson_lines_next_doc(it, &doc, &err)) == TYJSON_OK) {
        lines[k++] = tyjson_lines_line(it);
        tyjson_doc_free(doc);
    }
    ASSERT_EQ_INT(st, TYJSON_DONE);
    ASSERT_EQ_UINT(k, 4);
    ASSERT_EQ_UINT(lines[0], 1);
    ASSERT_EQ_UINT(lines[1], 7);
    ASSERT_EQ_UINT(lines[2], 9);
    ASSERT_EQ_UINT(lines[3], 11);
    size_t n;
    const tyjson_error *e = tyjson_lines_errors(it, &n);
    ASSERT_EQ_UINT(n, 3);
    ASSERT_EQ_UINT(tyjson_lines_bad_lines(it), 4);
    ASSERT_EQ_INT(e[0].code, TYJSON_E_TRUNCATED);
    ASSERT_EQ_UINT(e[0].line, 2);
    ASSERT_EQ_INT(e[1].code, TYJSON_E_LITERAL);
    ASSERT_EQ_UINT(e[1].line, 3);
    ASSERT_EQ_INT(e[2].code, TYJSON_E_TRAILING);
    ASSERT_EQ_UINT(e[2].line, 6);
    tyjson_lines_free(it);
}

TEST(validate_and_next_line) {
    tyjson_error err;
    tyjson_lines *it = tyjson_lines_open_buf(mixed, sizeof(mixed) - 1, NULL, &err);
    tyjson_lines *it2 = tyjson_lines_open_buf(mixed, sizeof(mixed) - 1, NULL, &err);
    ASSERT_NOT_NULL(it);
    for (;;) {
        tyjson_error e1, e2;
        tyjson_doc *doc;
        tyjson_status a = tyjson_lines_next_doc(it, NULL, &e1);
        tyjson_status b = tyjson_lines_next_doc(it2, &doc, &e2);
        tyjson_doc_free(doc);
        ASSERT_EQ_INT(a, b);
        if (a == TYJSON_DONE) break;
        ASSERT_EQ_UINT(e1.line, e2.line);
        ASSERT_EQ_UINT(e1.column, e2.column);
        ASSERT_EQ_UINT(e1.offset, e2.offset);
        ASSERT_EQ_STR(e1.msg, e2.msg);
    }
    tyjson_lines_free(it);
    tyjson_lines_free(it2);
    it = tyjson_lines_open_buf(mixed, sizeof(mixed) - 1, NULL, &err);
    const char *p;
    size_t n, count = 0;
    while (tyjson_lines_next_line(it, &p, &n, &err) == TYJSON_OK) count++;
    ASSERT_EQ_UINT(count, 8); /* every non-blank line */
    ASSERT_EQ_UINT(n, 0);
    ASSERT_NULL(p);
    tyjson_lines_free(it);
}

TEST(bad_arguments) {
    tyjson_error err;
    tyjson_lines_options o;
    memset(&o, 0, sizeof(o));
    o.read_flags = TYJSON_READ_STOP_WHEN_DONE;
    ASSERT_NULL(tyjson_lines_open_buf("1", 1, &o, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_INVALID_ARG);
    o.read_flags = 0;
    o.flags = 1u << 20;
    ASSERT_NULL(tyjson_lines_open_buf("1", 1, &o, &err));
    ASSERT_NULL(tyjson_lines_open_buf(NULL, 1, NULL, &err));
    ASSERT_NULL(tyjson_lines_open_fp(NULL, NULL, &err));
    ASSERT_NULL(tyjson_lines_open_fd(-1, NULL, &err));
    ASSERT_NULL(tyjson_lines_open_cb(NULL, NULL, NULL, &err));
    ASSERT_EQ_INT(tyjson_lines_next_doc(NULL, NULL, &err), TYJSON_E_INVALID_ARG);
    ASSERT_EQ_INT(tyjson_lines_parallel_docs(NULL, 2, gather_fn, NULL, &err), TYJSON_E_INVALID_ARG);
    tyjson_lines *it = tyjson_lines_open_buf(NULL, 0, NULL, &err);
    ASSERT_NOT_NULL(it);
    ASSERT_EQ_INT(tyjson_lines_parallel_docs(it, 2, NULL, NULL, &err), TYJSON_E_INVALID_ARG);
    ASSERT_EQ_INT(tyjson_lines_next_doc(it, NULL, NULL), TYJSON_DONE);
    ASSERT_EQ_UINT(tyjson_lines_line(NULL), 0);
    ASSERT_NULL(tyjson_lines_record(NULL, NULL, NULL));
    tyjson_lines_free(it);
    tyjson_lines_free(NULL);
}

TEST(bom_only_at_start) {
    static const char in[] = "\xEF\xBB\xBF[1]\n\xEF\xBB\xBF[2]\n";
    tyjson_lines_options o;
    memset(&o, 0, sizeof(o));
    o.read_flags = TYJSON_READ_ALLOW_BOM;
    char *t = seq_of(SRC_BUF, 0, in, sizeof(in) - 1, &o);
    ASSERT_TRUE(strncmp(t, "R 1@0 [1]\nE E_UNEXPECTED_CHAR 2:1@7 ", 36) == 0);
    free(t);
}

/* Every source kind and every chunking gives the buffer's transcript. */
static void check_sources(const char *dat, size_t len, const tyjson_lines_options *opts) {
    char *want = seq_of(SRC_BUF, 0, dat, len, opts);
    static const src_kind kinds[] = {SRC_FP, SRC_FD, SRC_CB, SRC_CB, SRC_CB, SRC_CB};
    static const size_t chunks[] = {0, 0, 1, 2, 0, 65536};
    for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
        char *got = seq_of(kinds[k], chunks[k], dat, len, opts);
        if (strcmp(want, got) != 0)
            TEST_FAIL("source %zu chunk %zu differs:\n--- buffer\n%s--- source\n%s", k, chunks[k],
                      want, got);
        free(got);
    }
    free(want);
}

TEST(sources_agree_small_window) {
    tyjson_lines_options o;
    memset(&o, 0, sizeof(o));
    o.window = 1; /* refills at every byte */
    check_sources(mixed, sizeof(mixed) - 1, &o);
    for (size_t i = 0; i < sizeof(small_inputs) / sizeof(small_inputs[0]); i++)
        check_sources(small_inputs[i], strlen(small_inputs[i]), &o);
    o.window = 0;
    o.flags = TYJSON_LINES_CONTINUE;
    o.max_errors = 2;
    check_sources(mixed, sizeof(mixed) - 1, &o);
}

/* Cutting the input anywhere in two buffers read by a callback changes
 * nothing: the callback gives the first part, then the rest. */
typedef struct two_part {
    const char *dat;
    size_t len, cut, pos;
} two_part;

static ptrdiff_t two_read(void *ctx, char *buf, size_t cap) {
    two_part *t = (two_part *)ctx;
    size_t lim = t->pos < t->cut ? t->cut : t->len;
    size_t n = lim - t->pos;
    if (n > cap) n = cap;
    memcpy(buf, t->dat + t->pos, n);
    t->pos += n;
    return (ptrdiff_t)n;
}

TEST(cut_at_every_byte) {
    char *want = seq_of(SRC_BUF, 0, mixed, sizeof(mixed) - 1, NULL);
    for (size_t cut = 0; cut <= sizeof(mixed) - 1; cut++) {
        two_part t = {mixed, sizeof(mixed) - 1, cut, 0};
        tyjson_lines_options o;
        memset(&o, 0, sizeof(o));
        o.window = 8;
        tyjson_lines *it = tyjson_lines_open_cb(two_read, &t, &o, NULL);
        ASSERT_NOT_NULL(it);
        char *got = seq_docs(it);
        tyjson_lines_free(it);
        if (strcmp(want, got) != 0) TEST_FAIL("cut at %zu:\n%s---\n%s", cut, want, got);
        free(got);
    }
    free(want);
}

TEST(max_line) {
    static const char in[] = "[1]\n[22222222]\r\n[333]\n[4444444444444]";
    tyjson_lines_options o;
    memset(&o, 0, sizeof(o));
    o.max_line = 5;
    o.window = 2;
    char *t = seq_of(SRC_BUF, 0, in, sizeof(in) - 1, &o);
    ASSERT_EQ_STR(t, "R 1@0 [1]\n"
                     "E E_SIZE 2:6@9 line longer than the limit of 5 bytes\n"
                     "R 3@16 [333]\n"
                     "E E_SIZE 4:6@27 line longer than the limit of 5 bytes\n"
                     "END records=2 bad=2 kept=0\n");
    free(t);
    check_sources(in, sizeof(in) - 1, &o);
    /* exactly max_line bytes, with and without CR LF */
    o.max_line = 3;
    check_sources(in, sizeof(in) - 1, &o);
    t = seq_of(SRC_CB, 1, "[1]\r\n[2]", 8, &o);
    ASSERT_EQ_STR(t, "R 1@0 [1]\nR 2@5 [2]\nEND records=2 bad=0 kept=0\n");
    free(t);
}

/* An allocator that tracks the bytes held and their peak. */
typedef struct peak_alloc {
    size_t cur, peak;
} peak_alloc;

static void *pk_malloc(void *ctx, size_t n) {
    peak_alloc *p = (peak_alloc *)ctx;
    size_t *b = (size_t *)malloc(n + 16);
    if (!b) return NULL;
    b[0] = n;
    p->cur += n;
    if (p->cur > p->peak) p->peak = p->cur;
    return (char *)b + 16;
}
static void pk_free(void *ctx, void *q) {
    peak_alloc *p = (peak_alloc *)ctx;
    size_t *b = (size_t *)(void *)((char *)q - 16);
    p->cur -= b[0];
    free(b);
}
static void *pk_realloc(void *ctx, void *q, size_t o, size_t n) {
    void *r = pk_malloc(ctx, n);
    if (!r) return NULL;
    if (q) {
        memcpy(r, q, o < n ? o : n);
        pk_free(ctx, q);
    }
    return r;
}

TEST(memory_bounded_by_max_line) {
    /* a 1 MiB line fed 1 KiB at a time: dropped as it comes, never held */
    size_t big = 1u << 20;
    char *in = (char *)malloc(big + 16);
    ASSERT_NOT_NULL(in);
    memset(in, ' ', big);
    in[0] = '[';
    memcpy(in + big, "]\n[7]\n", 6);
    peak_alloc pa = {0, 0};
    tyjson_alloc alc = {pk_malloc, pk_realloc, pk_free, &pa};
    tyjson_lines_options o;
    memset(&o, 0, sizeof(o));
    o.max_line = 100;
    o.window = 1024;
    o.alc = &alc;
    mem_src m = {in, big + 6, 0, 1024, 0, SIZE_MAX};
    tyjson_lines *it = tyjson_lines_open_cb(mem_read, &m, &o, NULL);
    tyjson_error err;
    tyjson_doc *doc;
    ASSERT_EQ_INT(tyjson_lines_next_doc(it, &doc, &err), TYJSON_E_SIZE);
    ASSERT_EQ_UINT(err.line, 1);
    ASSERT_EQ_INT(tyjson_lines_next_doc(it, &doc, &err), TYJSON_OK);
    ASSERT_EQ_UINT(tyjson_lines_line(it), 2);
    tyjson_doc_free(doc);
    ASSERT_EQ_INT(tyjson_lines_next_doc(it, &doc, &err), TYJSON_DONE);
    ASSERT_TRUE(pa.peak < 16384);
    tyjson_lines_free(it);
    ASSERT_EQ_UINT(pa.cur, 0);
    free(in);
}

TEST(io_error) {
    static const char in[] = "[1]\n[2]\n[3]\n";
    mem_src m = {in, sizeof(in) - 1, 0, 4, 0, 1};
    tyjson_lines_options o;
    memset(&o, 0, sizeof(o));
    o.window = 4;
    tyjson_lines *it = tyjson_lines_open_cb(mem_read, &m, &o, NULL);
    tyjson_error err;
    tyjson_doc *doc;
    ASSERT_EQ_INT(tyjson_lines_next_doc(it, &doc, &err), TYJSON_OK);
    tyjson_doc_free(doc);
    ASSERT_EQ_INT(tyjson_lines_next_doc(it, &doc, &err), TYJSON_E_IO);
    ASSERT_EQ_INT(tyjson_lines_next_doc(it, &doc, &err), TYJSON_E_IO);
    ASSERT_EQ_INT(tyjson_lines_parallel_docs(it, 2, gather_fn, NULL, &err), TYJSON_E_STATE);
    tyjson_lines_free(it);
    /* parallel: the records before the failure are delivered, then E_IO */
    m.pos = m.calls = 0;
    m.fail_at = 2;
    it = tyjson_lines_open_cb(mem_read, &m, &o, NULL);
    gather g;
    gather_init(&g);
    ASSERT_EQ_INT(tyjson_lines_parallel_docs(it, 2, gather_fn, &g, &err), TYJSON_E_IO);
    ASSERT_EQ_UINT(g.n, 2);
    gather_free(&g);
    tyjson_lines_free(it);
}

/* ----------------------------------------------------------------------------
 * Typed records.
 * ------------------------------------------------------------------------- */
typedef struct rec {
    int64_t id;
    tyjson_str name;
    bool ok;
} rec;

static const tyjson_field rec_fields[] = {
    TYJSON_FIELD_I64(rec, id, "id", .flags = TYJSON_F_REQUIRED),
    TYJSON_FIELD_STR(rec, name, "name"),
    TYJSON_FIELD_BOOL(rec, ok, "ok"),
};
static tyjson_struct rec_type = TYJSON_STRUCT(rec, rec_fields, 0);

static const char typed_in[] =
    "{\"id\":1,\"name\":\"a\",\"ok\":true}\n"
    "{\"id\":\"x\"}\n"
    "\n"
    "{\"name\":\"no id\"}\r\n"
    "{\"id\":3,\"name\":\"caf\\u00e9\",\"extra\":[1,2]}\n"
    "{\"id\":4,\"ok\":nul}\n"
    "{\"id\":5}";

TEST(typed_equals_decode_per_line) {
    tyjson_error err;
    tyjson_lines *it = tyjson_lines_open_buf(typed_in, sizeof(typed_in) - 1, NULL, &err);
    tyjson_lines *lines = tyjson_lines_open_buf(typed_in, sizeof(typed_in) - 1, NULL, &err);
    tyjson_arena a1, a2;
    tyjson_arena_init(&a1, NULL);
    tyjson_arena_init(&a2, NULL);
    size_t n_ok = 0, n_bad = 0;
    for (;;) {
        rec r1, r2;
        tyjson_error e1, e2;
        tyjson_status s1 = tyjson_lines_next_decode(it, &rec_type, &r1, &a1, 0, &e1);
        const char *p;
        size_t n;
        tyjson_status s0 = tyjson_lines_next_line(lines, &p, &n, &e2);
        if (s1 == TYJSON_DONE) {
            ASSERT_EQ_INT(s0, TYJSON_DONE);
            break;
        }
        ASSERT_EQ_INT(s0, TYJSON_OK);
        size_t line = tyjson_lines_line(lines), off = tyjson_lines_offset(lines);
        ASSERT_EQ_UINT(tyjson_lines_line(it), line);
        /* the line with its newline, as the iterator gives it */
        size_t full;
        ASSERT_TRUE(tyjson_lines_record(lines, NULL, &full) == p);
        ASSERT_TRUE(full >= n && full <= n + 2);
        tyjson_status s2 = tyjson_decode(&rec_type, &r2, p, full, &a2, NULL, &e2);
        ASSERT_EQ_INT(s1, s2);
        if (s1 == TYJSON_OK) {
            n_ok++;
            ASSERT_EQ_INT(r1.id, r2.id);
            ASSERT_EQ_UINT(r1.name.len, r2.name.len);
            if (r1.name.len) ASSERT_EQ_MEM(r1.name.ptr, r2.name.ptr, r1.name.len);
            ASSERT_EQ_INT(r1.ok, r2.ok);
        } else {
            n_bad++;
            ASSERT_EQ_UINT(e1.line, line);
            ASSERT_EQ_UINT(e1.column, e2.column);
            ASSERT_EQ_UINT(e1.offset, off + e2.offset);
            ASSERT_EQ_STR(e1.path, e2.path);
            ASSERT_EQ_STR(e1.msg, e2.msg);
        }
        tyjson_arena_reset(&a1);
        tyjson_arena_reset(&a2);
    }
    ASSERT_EQ_UINT(n_ok, 3);
    ASSERT_EQ_UINT(n_bad, 3);
    ASSERT_EQ_UINT(tyjson_lines_bad_lines(it), 3);
    tyjson_arena_free(&a1);
    tyjson_arena_free(&a2);
    tyjson_lines_free(it);
    tyjson_lines_free(lines);
}

typedef struct typed_gather {
    pthread_mutex_t mu;
    int64_t sum;
    size_t count, errors;
} typed_gather;

static int typed_fn(void *ctx, const tyjson_lines_item *item) {
    typed_gather *g = (typed_gather *)ctx;
    pthread_mutex_lock(&g->mu);
    if (item->value) {
        const rec *r = (const rec *)item->value;
        g->sum += r->id * (int64_t)item->line + (int64_t)r->name.len;
        g->count++;
    } else {
        g->errors++;
    }
    pthread_mutex_unlock(&g->mu);
    return 0;
}

TEST(typed_parallel_equals_sequential) {
    sbuf s = {0};
    for (size_t i = 0; i < 30000; i++) {
        if (i % 101 == 7) sb_add(&s, "{\"id\":\"bad\"}\n");
        else sb_add(&s, "{\"id\":%zu,\"name\":\"n%zu\",\"ok\":%s}\n", i, i % 1000, i % 2 ? "true" : "false");
    }
    int64_t want_sum = 0;
    size_t want_count = 0, want_err = 0;
    {
        tyjson_lines *it = tyjson_lines_open_buf(s.p, s.len, NULL, NULL);
        tyjson_arena a;
        tyjson_arena_init(&a, NULL);
        rec r;
        tyjson_status st;
        while ((st = tyjson_lines_next_decode(it, &rec_type, &r, &a, 0, NULL)) != TYJSON_DONE) {
            if (st == TYJSON_OK) {
                want_sum += r.id * (int64_t)tyjson_lines_line(it) + (int64_t)r.name.len;
                want_count++;
            } else {
                want_err++;
            }
            tyjson_arena_reset(&a);
        }
        tyjson_arena_free(&a);
        tyjson_lines_free(it);
    }
    ASSERT_EQ_UINT(want_err, 297);
    for (unsigned threads = 1; threads <= 4; threads++) {
        for (int per_thread = 0; per_thread < 2; per_thread++) {
            tyjson_lines_options o;
            memset(&o, 0, sizeof(o));
            o.flags = per_thread ? TYJSON_LINES_PER_THREAD : 0;
            typed_gather g;
            memset(&g, 0, sizeof(g));
            pthread_mutex_init(&g.mu, NULL);
            tyjson_lines *it = tyjson_lines_open_buf(s.p, s.len, &o, NULL);
            tyjson_error err;
            ASSERT_EQ_INT(tyjson_lines_parallel_decode(it, threads, &rec_type, 0, typed_fn, &g, &err),
                          TYJSON_OK);
            ASSERT_EQ_INT(g.sum, want_sum);
            ASSERT_EQ_UINT(g.count, want_count);
            ASSERT_EQ_UINT(g.errors, want_err);
            ASSERT_EQ_UINT(tyjson_lines_records(it), want_count);
            ASSERT_EQ_UINT(tyjson_lines_bad_lines(it), want_err);
            tyjson_lines_free(it);
            pthread_mutex_destroy(&g.mu);
        }
    }
    free(s.p);
}

/* ----------------------------------------------------------------------------
 * Parallel == sequential.
 * ------------------------------------------------------------------------- */
static void check_parallel(const char *dat, size_t len, tyjson_lines_flags flags, size_t max_line) {
    tyjson_lines_options o;
    memset(&o, 0, sizeof(o));
    o.flags = flags;
    o.max_errors = 50;
    o.max_line = max_line;
    char *want = seq_of(SRC_BUF, 0, dat, len, &o);
    for (unsigned threads = 1; threads <= 4; threads++) {
        for (int per_thread = 0; per_thread < 2; per_thread++) {
            for (int k = 0; k < 2; k++) {
                tyjson_lines_options p = o;
                if (per_thread) p.flags |= TYJSON_LINES_PER_THREAD;
                gather g;
                gather_init(&g);
                tyjson_status st;
                char *got = par_of(k ? SRC_CB : SRC_BUF, dat, len, &p, threads, &g, &st);
                ASSERT_EQ_INT(st, TYJSON_OK);
                if (strcmp(want, got) != 0)
                    TEST_FAIL("threads %u per_thread %d source %d:\n--- sequential\n%.2000s\n"
                              "--- parallel\n%.2000s",
                              threads, per_thread, k, want, got);
                if (!per_thread) {
                    ASSERT_FALSE(g.out_of_order);
                    ASSERT_FALSE(g.off_caller);
                }
                free(got);
                gather_free(&g);
            }
        }
    }
    free(want);
}

TEST(parallel_small_inputs) {
    for (int cont = 0; cont < 2; cont++) {
        tyjson_lines_flags f = cont ? TYJSON_LINES_CONTINUE : 0;
        check_parallel(mixed, sizeof(mixed) - 1, f, 0);
        check_parallel(mixed, sizeof(mixed) - 1, f, 6);
        for (size_t i = 0; i < sizeof(small_inputs) / sizeof(small_inputs[0]); i++)
            check_parallel(small_inputs[i], strlen(small_inputs[i]), f, 0);
    }
}

/* Small batches: with worker threads a buffer is cut into chunks at line
 * ends and each worker frames its own; at every chunk size from 1 byte the
 * records, line numbers, offsets and errors are the sequential ones. */
TEST(parallel_chunk_edges) {
    for (usize bytes = 1; bytes <= 48; bytes++) {
        tyjson__lines_batch_bytes = bytes;
        for (int cont = 0; cont < 2; cont++) {
            tyjson_lines_flags f = cont ? TYJSON_LINES_CONTINUE : 0;
            check_parallel(mixed, sizeof(mixed) - 1, f, 0);
            check_parallel(mixed, sizeof(mixed) - 1, f, 6);
            for (size_t i = 0; i < sizeof(small_inputs) / sizeof(small_inputs[0]); i++)
                check_parallel(small_inputs[i], strlen(small_inputs[i]), f, 0);
        }
    }
    tyjson__lines_batch_bytes = 0;
}

/* Lines read before the parallel call: the chunks' numbers go on from
 * there, and after the run the iterator is at the end. */
TEST(parallel_after_next) {
    tyjson__lines_batch_bytes = 7;
    tyjson_lines_options o;
    memset(&o, 0, sizeof(o));
    o.flags = TYJSON_LINES_CONTINUE;
    o.max_errors = 50;
    for (unsigned threads = 1; threads <= 3; threads++) {
        tyjson_lines *a = tyjson_lines_open_buf(mixed, sizeof(mixed) - 1, &o, NULL);
        tyjson_lines *b = tyjson_lines_open_buf(mixed, sizeof(mixed) - 1, &o, NULL);
        tyjson_doc *doc;
        ASSERT_EQ_INT(tyjson_lines_next_doc(a, &doc, NULL), TYJSON_OK);
        tyjson_doc_free(doc);
        ASSERT_EQ_INT(tyjson_lines_next_doc(b, &doc, NULL), TYJSON_OK);
        tyjson_doc_free(doc);
        char *want = seq_docs(a);
        gather g;
        gather_init(&g);
        ASSERT_EQ_INT(tyjson_lines_parallel_docs(b, threads, gather_fn, &g, NULL), TYJSON_OK);
        char *got = gather_text(&g, b);
        ASSERT_EQ_STR(want, got);
        ASSERT_EQ_UINT(tyjson_lines_line(b), tyjson_lines_line(a));
        ASSERT_EQ_INT(tyjson_lines_next_doc(b, &doc, NULL), TYJSON_DONE);
        free(want);
        free(got);
        gather_free(&g);
        tyjson_lines_free(a);
        tyjson_lines_free(b);
    }
    tyjson__lines_batch_bytes = 0;
}

TEST(parallel_big_file) {
    size_t len;
    char *big = make_big(&len);
    check_parallel(big, len, 0, 0);
    check_parallel(big, len, TYJSON_LINES_CONTINUE, 60);
    free(big);
}

TEST(threads_really_run) {
    if (!tyjson_lines_have_threads()) TEST_SKIP("built without pthreads");
    size_t len;
    char *big = make_big(&len);
    for (int per_thread = 0; per_thread < 2; per_thread++) {
        tyjson_lines_options o;
        memset(&o, 0, sizeof(o));
        o.flags = per_thread ? TYJSON_LINES_PER_THREAD : 0;
        gather g;
        gather_init(&g);
        tyjson_lines *it = tyjson_lines_open_buf(big, len, &o, NULL);
        ASSERT_EQ_INT(tyjson_lines_parallel_docs(it, 2, gather_fn, &g, NULL), TYJSON_OK);
        /* batch k goes to worker k % 2: both parse, whatever the timing */
        ASSERT_EQ_UINT(g.seen_threads, 3);
        if (per_thread) ASSERT_TRUE(g.off_caller);
        else ASSERT_FALSE(g.off_caller);
        gather_free(&g);
        tyjson_lines_free(it);
    }
    free(big);
}

/* tyjson_lines_parallel_prep: the hook runs once per good record, on the
 * workers when there are threads, and its result (in the batch's arena)
 * reaches the callback with the record it was made from; the records,
 * errors and counts are those of tyjson_lines_parallel_docs. */
typedef struct prep_out {
    size_t offset, vals, len;
    int on_caller;
} prep_out;

typedef struct prep_run {
    gather g;
    pthread_t caller;
    atomic_int preps, bad_prep; /* counted on the workers */
    size_t checked, mismatched;
    size_t batch_ends;
    int last_batch_end; /* of the latest callback */
} prep_run;

static void *prep_fn(void *ctx, const tyjson_lines_item *item, tyjson_arena *arena) {
    prep_run *pr = (prep_run *)ctx;
    prep_out *o = (prep_out *)tyjson_arena_alloc(arena, sizeof(prep_out), _Alignof(prep_out));
    atomic_fetch_add(&pr->preps, 1);
    if (!item->doc || item->error || item->line != 0 || !o) {
        atomic_store(&pr->bad_prep, 1);
        return NULL;
    }
    o->offset = item->offset;
    o->vals = tyjson_doc_get_val_count(item->doc);
    o->len = item->len;
    o->on_caller = pthread_equal(pthread_self(), pr->caller) != 0;
    return o;
}

static int prep_cb(void *ctx, const tyjson_lines_item *item) {
    prep_run *pr = (prep_run *)ctx;
    const prep_out *o = (const prep_out *)item->prepared;
    pthread_mutex_lock(&pr->g.mu);
    if (item->doc) {
        pr->checked++;
        if (!o || o->offset != item->offset || o->len != item->len ||
            o->vals != tyjson_doc_get_val_count(item->doc))
            pr->mismatched++;
        else if (o->on_caller) pr->g.off_caller |= 2; /* prepared on the calling thread */
    } else if (o) {
        pr->mismatched++;
    }
    pr->batch_ends += item->batch_end;
    pr->last_batch_end = item->batch_end;
    pthread_mutex_unlock(&pr->g.mu);
    return gather_fn(&pr->g, item);
}

TEST(parallel_prep_results) {
    size_t len;
    char *big = make_big(&len);
    const struct {
        const char *dat;
        size_t len;
    } in[] = {{mixed, sizeof(mixed) - 1}, {big, len}};
    for (size_t k = 0; k < 2; k++) {
        for (unsigned threads = 1; threads <= 3; threads++) {
            for (int mode = 0; mode < 3; mode++) { /* buffer, stream, per thread */
                tyjson_lines_options o;
                memset(&o, 0, sizeof(o));
                if (mode == 2) o.flags = TYJSON_LINES_PER_THREAD;
                gather ref;
                gather_init(&ref);
                tyjson_status st_ref;
                char *want = par_of(mode == 1 ? SRC_CB : SRC_BUF, in[k].dat, in[k].len, &o, threads,
                                    &ref, &st_ref);
                prep_run pr;
                memset(&pr, 0, sizeof(pr));
                gather_init(&pr.g);
                pr.caller = pthread_self();
                opened op;
                open_src(&op, mode == 1 ? SRC_CB : SRC_BUF, 4096, in[k].dat, in[k].len, &o);
                tyjson_error err;
                tyjson_status st = tyjson_lines_parallel_prep(op.it, threads, prep_fn, prep_cb, &pr, &err);
                ASSERT_EQ_INT(st, st_ref);
                char *got = gather_text(&pr.g, op.it);
                if (strcmp(want, got) != 0)
                    TEST_FAIL("input %zu threads %u mode %d:\n--- docs\n%.2000s\n--- prep\n%.2000s", k,
                              threads, mode, want, got);
                if (mode != 2) ASSERT_FALSE(pr.g.out_of_order);
                ASSERT_EQ_UINT(pr.mismatched, 0);
                ASSERT_FALSE(atomic_load(&pr.bad_prep));
                ASSERT_EQ_UINT((size_t)atomic_load(&pr.preps), pr.checked);
                ASSERT_EQ_UINT(pr.checked, tyjson_lines_records(op.it));
                /* the run's last callback ends a batch; in order, few do
                 * (a batch holds many records), per thread every one */
                ASSERT_TRUE(pr.last_batch_end);
                if (mode == 2) ASSERT_EQ_UINT(pr.batch_ends, pr.g.n);
                else if (k == 1) ASSERT_TRUE(pr.batch_ends * 10 < pr.g.n);
                /* with worker threads nothing is prepared on the calling thread */
                if (threads > 1 && tyjson_lines_have_threads()) ASSERT_FALSE(pr.g.off_caller & 2);
                free(got);
                free(want);
                close_src(&op);
                gather_free(&pr.g);
                gather_free(&ref);
            }
        }
    }
    free(big);
    tyjson_error err;
    tyjson_lines *it = tyjson_lines_open_buf("1\n", 2, NULL, &err);
    ASSERT_EQ_INT(tyjson_lines_parallel_prep(it, 2, NULL, prep_cb, NULL, &err), TYJSON_E_INVALID_ARG);
    tyjson_lines_free(it);
}

TEST(parallel_callback_abort) {
    size_t len;
    char *big = make_big(&len);
    for (unsigned threads = 1; threads <= 3; threads++) {
        for (int per_thread = 0; per_thread < 2; per_thread++) {
            tyjson_lines_options o;
            memset(&o, 0, sizeof(o));
            o.flags = per_thread ? TYJSON_LINES_PER_THREAD : 0;
            gather g;
            gather_init(&g);
            g.stop_after = 5000;
            tyjson_lines *it = tyjson_lines_open_buf(big, len, &o, NULL);
            tyjson_error err;
            ASSERT_EQ_INT(tyjson_lines_parallel_docs(it, threads, gather_fn, &g, &err),
                          TYJSON_E_CALLBACK);
            ASSERT_EQ_INT(err.code, TYJSON_E_CALLBACK);
            if (!per_thread) ASSERT_EQ_UINT(g.calls, 5000);
            else ASSERT_TRUE(g.calls >= 5000 && g.calls < 60000);
            gather_free(&g);
            tyjson_lines_free(it);
        }
    }
    free(big);
}

/* Scenario files of ../shared, one minified document per line, with a bad
 * line between them. */
TEST(parallel_scenarios) {
    test_json_list fl;
    test_json_list_open(&fl, "scenarios/kissjson");
    sbuf s = {0};
    for (int rep = 0; rep < 40; rep++) {
        for (size_t i = 0; i < fl.count; i++) {
            char path[2048];
            snprintf(path, sizeof(path), "%s/%s", fl.dir, fl.names[i]);
            size_t n;
            char *dat = test_read_file(path, &n);
            ASSERT_NOT_NULL(dat);
            tyjson_doc *doc = tyjson_read(dat, n, 0);
            free(dat);
            if (!doc) continue;
            char *t = tyjson_write(doc, 0, NULL);
            sb_add(&s, "%s\n%s", t, rep % 7 == 3 ? "{\"broken\" 1}\r\n" : "");
            free(t);
            tyjson_doc_free(doc);
        }
    }
    test_json_list_free(&fl);
    check_parallel(s.p, s.len, 0, 0);
    check_parallel(s.p, s.len, TYJSON_LINES_CONTINUE, 0);
    free(s.p);
}

/* ----------------------------------------------------------------------------
 * Allocation failures: every request refused in turn, sequential and
 * parallel; each run ends in TYJSON_E_NOMEM with nothing leaked, and the
 * records delivered before it are the sequential ones.
 * ------------------------------------------------------------------------- */
typedef struct locked_alloc {
    pthread_mutex_t mu;
    test_alloc t;
} locked_alloc;

static void *la_malloc(void *ctx, size_t n) {
    locked_alloc *l = (locked_alloc *)ctx;
    pthread_mutex_lock(&l->mu);
    void *p = test_alloc_malloc(&l->t, n);
    pthread_mutex_unlock(&l->mu);
    return p;
}
static void *la_realloc(void *ctx, void *p, size_t o, size_t n) {
    locked_alloc *l = (locked_alloc *)ctx;
    pthread_mutex_lock(&l->mu);
    void *q = test_alloc_realloc(&l->t, p, o, n);
    pthread_mutex_unlock(&l->mu);
    return q;
}
static void la_free(void *ctx, void *p) {
    locked_alloc *l = (locked_alloc *)ctx;
    pthread_mutex_lock(&l->mu);
    test_alloc_free(&l->t, p);
    pthread_mutex_unlock(&l->mu);
}

/* Workers build a batch's documents in the batch's arena, reused batch
 * after batch: allocator calls grow with the batches, not the records
 * (before, at least one per record: 100,000 here). */
TEST(parallel_docs_allocate_per_batch) {
    if (!tyjson_lines_have_threads()) TEST_SKIP("built without pthreads");
    size_t len;
    char *big = make_big(&len);
    locked_alloc la;
    pthread_mutex_init(&la.mu, NULL);
    test_alloc_make(&la.t, SIZE_MAX);
    tyjson_alloc alc = {la_malloc, la_realloc, la_free, &la};
    tyjson_lines_options o;
    memset(&o, 0, sizeof(o));
    o.alc = &alc;
    o.flags = TYJSON_LINES_CONTINUE;
    o.max_errors = 200;
    gather g;
    gather_init(&g);
    tyjson_lines *it = tyjson_lines_open_buf(big, len, &o, NULL);
    ASSERT_EQ_INT(tyjson_lines_parallel_docs(it, 2, gather_fn, &g, NULL), TYJSON_OK);
    ASSERT_TRUE(tyjson_lines_records(it) > 99000);
    ASSERT_TRUE(la.t.calls < 2000);
    tyjson_lines_free(it);
    ASSERT_EQ_INT(la.t.live, 0);
    gather_free(&g);
    pthread_mutex_destroy(&la.mu);
    free(big);
}

TEST(alloc_failure_sweep) {
    static const char in[] = "{\"a\":[1,2,3]}\n[\"x\",\n\"yy\"\r\n\n{\"b\":{}}\n1 2\n[]";
    /* seq, seq CONTINUE, parallel 1, parallel 2; then parallel 2 over the
     * buffer itself, where the workers frame their own chunks (7 bytes:
     * several chunks, so several framings to fail) */
    for (int mode = 0; mode < 5; mode++) {
        int done = 0;
        for (size_t fail_at = 0; !done && fail_at < 10000; fail_at++) {
            locked_alloc la;
            pthread_mutex_init(&la.mu, NULL);
            test_alloc_make(&la.t, fail_at);
            tyjson_alloc alc = {la_malloc, la_realloc, la_free, &la};
            tyjson_lines_options o;
            memset(&o, 0, sizeof(o));
            o.alc = &alc;
            o.window = 4;
            o.max_errors = 10;
            if (mode == 1) o.flags = TYJSON_LINES_CONTINUE;
            mem_src m = {in, sizeof(in) - 1, 0, 3, 0, SIZE_MAX};
            tyjson_error err;
            tyjson__lines_batch_bytes = mode == 4 ? 7 : 0;
            tyjson_lines *it = mode == 4 ? tyjson_lines_open_buf(in, sizeof(in) - 1, &o, &err)
                                         : tyjson_lines_open_cb(mem_read, &m, &o, &err);
            tyjson_status st;
            if (!it) {
                ASSERT_EQ_INT(err.code, TYJSON_E_NOMEM);
            } else if (mode < 2) {
                tyjson_doc *doc;
                size_t recs = 0;
                while ((st = tyjson_lines_next_doc(it, &doc, &err)) != TYJSON_DONE &&
                       st != TYJSON_E_NOMEM) {
                    if (st == TYJSON_OK) recs++;
                    tyjson_doc_free(doc);
                }
                if (st == TYJSON_DONE) {
                    ASSERT_EQ_UINT(recs, 4);
                    done = 1;
                }
                tyjson_lines_free(it);
            } else {
                gather g;
                gather_init(&g);
                st = tyjson_lines_parallel_docs(it, mode == 2 ? 1 : 2, gather_fn, &g, &err);
                if (st == TYJSON_OK) {
                    ASSERT_EQ_UINT(g.n, 6); /* 4 records, 2 bad lines */
                    done = 1;
                } else {
                    ASSERT_EQ_INT(st, TYJSON_E_NOMEM);
                }
                gather_free(&g);
                tyjson_lines_free(it);
            }
            ASSERT_EQ_INT(la.t.live, 0);
            pthread_mutex_destroy(&la.mu);
        }
        ASSERT_TRUE(done);
    }
    tyjson__lines_batch_bytes = 0;
}

int main(int argc, char **argv) { return test_main(argc, argv); }
