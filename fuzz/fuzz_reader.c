/*
 * fuzz_reader.c - libFuzzer target for the pull reader against the DOM.
 *
 * Byte 0 is the read flags (every TYJSON_READ_* combination but
 * STOP_WHEN_DONE), byte 1 seeds the chunking; the rest is the text. The text
 * is read by the DOM parser and by the reader four ways: a buffer, pushed in
 * random chunks, through a callback giving random short counts with a
 * 64-byte window (tokens may grow it), and with tiny string pieces (inputs
 * with a number longer than a piece skip that one). Checks, aborting on the first
 * mismatch: the same verdict, the same error code and offset, line and
 * column agreeing with tyjson_locate, and for valid text the same token
 * stream (kind, depth, string bytes, numbers bit for bit) as a walk of the
 * document.
 */
#include "tyjson.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c)                                                                     \
    do {                                                                             \
        if (!(c)) {                                                                  \
            fprintf(stderr, "fuzz_reader: check failed: %s (line %d)\n", #c, __LINE__); \
            abort();                                                                 \
        }                                                                            \
    } while (0)

/* The DOM's tokens, flattened: kind, depth, and a value per token. */
typedef struct tok {
    int kind;
    uint32_t depth;
    const char *s;
    size_t len;
    int sub; /* numbers: 0 uint, 1 sint, 2 real, 3 raw */
    uint64_t bits;
} tok;

typedef struct toks {
    tok *t;
    size_t n, cap;
} toks;

static void push_tok(toks *ts, tok t) {
    if (ts->n == ts->cap) {
        ts->cap = ts->cap ? ts->cap * 2 : 64;
        ts->t = (tok *)realloc(ts->t, ts->cap * sizeof(tok));
        CHECK(ts->t != NULL);
    }
    ts->t[ts->n++] = t;
}

static void walk(toks *ts, const tyjson_val *v, uint32_t depth) {
    tok t;
    memset(&t, 0, sizeof(t));
    t.depth = depth;
    if (tyjson_is_obj(v)) {
        t.kind = TYJSON_TOK_OBJ_BEGIN;
        push_tok(ts, t);
        tyjson_obj_iter it = tyjson_obj_iter_with(v);
        tyjson_val *k;
        while ((k = tyjson_obj_iter_next(&it)) != NULL) {
            tok kt;
            memset(&kt, 0, sizeof(kt));
            kt.kind = TYJSON_TOK_KEY;
            kt.depth = depth + 1;
            kt.s = tyjson_get_str(k);
            kt.len = tyjson_get_len(k);
            push_tok(ts, kt);
            walk(ts, tyjson_obj_iter_get_val(k), depth + 1);
        }
        t.kind = TYJSON_TOK_OBJ_END;
    } else if (tyjson_is_arr(v)) {
        t.kind = TYJSON_TOK_ARR_BEGIN;
        push_tok(ts, t);
        tyjson_arr_iter it = tyjson_arr_iter_with(v);
        tyjson_val *e;
        while ((e = tyjson_arr_iter_next(&it)) != NULL) walk(ts, e, depth + 1);
        t.kind = TYJSON_TOK_ARR_END;
    } else if (tyjson_is_str(v)) {
        t.kind = TYJSON_TOK_STR;
        t.s = tyjson_get_str(v);
        t.len = tyjson_get_len(v);
    } else if (tyjson_is_num(v) || tyjson_is_raw(v)) {
        t.kind = TYJSON_TOK_NUM;
        if (tyjson_is_uint(v)) t.bits = tyjson_get_uint(v);
        else if (tyjson_is_sint(v)) {
            t.sub = 1;
            t.bits = (uint64_t)tyjson_get_sint(v);
        } else if (tyjson_is_real(v)) {
            double d = tyjson_get_real(v);
            t.sub = 2;
            memcpy(&t.bits, &d, 8);
        } else {
            t.sub = 3;
            t.s = tyjson_get_str(v);
            t.len = tyjson_get_len(v);
        }
    } else if (tyjson_is_true(v)) t.kind = TYJSON_TOK_TRUE;
    else if (tyjson_is_false(v)) t.kind = TYJSON_TOK_FALSE;
    else t.kind = TYJSON_TOK_NULL;
    push_tok(ts, t);
}

typedef struct chunker {
    const char *dat;
    size_t len, at;
    uint32_t seed;
} chunker;

static size_t chunk(chunker *c, size_t cap) {
    c->seed = c->seed * 1103515245u + 12345u;
    size_t n = 1 + (c->seed >> 16) % 40;
    if (n > cap) n = cap;
    if (n > c->len - c->at) n = c->len - c->at;
    return n;
}

static ptrdiff_t cb(void *ctx, char *buf, size_t cap) {
    chunker *c = (chunker *)ctx;
    size_t n = chunk(c, cap);
    memcpy(buf, c->dat + c->at, n);
    c->at += n;
    return (ptrdiff_t)n;
}

enum { MODE_BUF, MODE_PUSH, MODE_CB, MODE_PIECES, MODE_COUNT };

static void run(const char *text, size_t len, uint32_t flags, int mode, uint32_t seed,
                const toks *want, const tyjson_error *derr) {
    tyjson_reader_options o;
    memset(&o, 0, sizeof(o));
    o.flags = flags;
    if (mode == MODE_CB) {
        o.window = 64;         /* tokens longer than the window: it grows */
        o.max_token = 1u << 20;
    }
    if (mode == MODE_PIECES) {
        o.window = 64;
        o.max_token = 16;
        o.reader_flags = TYJSON_READER_PIECES;
    }
    tyjson_reader *r = tyjson_reader_new(&o, NULL);
    CHECK(r != NULL);
    chunker c = {text, len, 0, seed};
    if (mode == MODE_BUF) tyjson_reader_open_buf(r, text, len);
    else if (mode == MODE_CB) tyjson_reader_open_cb(r, cb, &c);
    else tyjson_reader_open_push(r);
    size_t i = 0;
    char *piece = NULL;
    size_t plen = 0;
    for (;;) {
        tyjson_token t = tyjson_reader_next(r);
        if (t == TYJSON_TOK_NEED_MORE) {
            if (c.at == c.len) CHECK(tyjson_reader_feed_end(r) == TYJSON_OK);
            else {
                size_t n = chunk(&c, SIZE_MAX);
                CHECK(tyjson_reader_feed(r, text + c.at, n) == TYJSON_OK);
                c.at += n;
            }
            continue;
        }
        if (t == TYJSON_TOK_ERROR) {
            const tyjson_error *e = tyjson_reader_error(r);
            CHECK(derr->code != TYJSON_OK);
            CHECK(e->code == derr->code);
            CHECK(e->offset == derr->offset);
            CHECK(e->line == derr->line && e->column == derr->column);
            break;
        }
        if (t == TYJSON_TOK_END) {
            CHECK(derr->code == TYJSON_OK);
            CHECK(i == want->n);
            break;
        }
        if (derr->code != TYJSON_OK) continue; /* tokens before the error */
        size_t sl = 0;
        const char *s = tyjson_reader_str(r, &sl);
        if ((t == TYJSON_TOK_STR || t == TYJSON_TOK_KEY) && tyjson_reader_partial(r)) {
            piece = (char *)realloc(piece, plen + sl + 1);
            CHECK(piece != NULL);
            memcpy(piece + plen, s, sl);
            plen += sl;
            continue;
        }
        CHECK(i < want->n);
        const tok *w = &want->t[i++];
        CHECK((int)t == w->kind);
        CHECK(tyjson_reader_depth(r) == w->depth);
        if (t == TYJSON_TOK_STR || t == TYJSON_TOK_KEY) {
            piece = (char *)realloc(piece, plen + sl + 1);
            CHECK(piece != NULL);
            if (sl) memcpy(piece + plen, s, sl);
            plen += sl;
            CHECK(plen == w->len && memcmp(piece, w->s, plen) == 0);
            plen = 0;
        } else if (t == TYJSON_TOK_NUM) {
            uint64_t u;
            int64_t iv;
            double d;
            if (w->sub == 0) CHECK(tyjson_reader_get_u64(r, &u) && u == w->bits);
            else if (w->sub == 1) CHECK(tyjson_reader_get_i64(r, &iv) && (uint64_t)iv == w->bits);
            else if (w->sub == 2) {
                CHECK(tyjson_reader_get_double(r, &d));
                uint64_t b;
                memcpy(&b, &d, 8);
                CHECK(b == w->bits || (d != d));
            } else CHECK(sl == w->len && memcmp(s, w->s, sl) == 0);
        }
    }
    free(piece);
    tyjson_reader_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    uint32_t flags = data[0] & ~(uint32_t)TYJSON_READ_STOP_WHEN_DONE;
    uint32_t seed = data[1];
    const char *text = (const char *)data + 2;
    size_t len = size - 2;
    /* an exact copy, so that a read past the end is caught */
    char *copy = (char *)malloc(len ? len : 1);
    CHECK(copy != NULL);
    memcpy(copy, text, len);
    tyjson_read_options ro = {flags, 0, NULL};
    tyjson_error derr;
    tyjson_doc *doc = tyjson_read_opts(copy, len, &ro, &derr);
    toks want = {NULL, 0, 0};
    if (doc) walk(&want, tyjson_doc_get_root(doc), 0);
    else {
        size_t l = 0, c = 0;
        CHECK(tyjson_locate(copy, len, derr.offset, &l, &c));
        CHECK(l == derr.line && c == derr.column);
    }
    for (int mode = 0; mode < MODE_COUNT; mode++) {
        /* a string longer than a piece budget cannot fail for its size in
         * PIECES mode; a number longer than 16 bytes can (E_SIZE) */
        if (mode == MODE_PIECES) {
            bool long_num = false;
            size_t run = 0;
            for (size_t i = 0; i < len && !long_num; i++) {
                char ch = copy[i];
                bool nb = (ch >= '0' && ch <= '9') || ch == '-' || ch == '+' || ch == '.' ||
                          ch == 'e' || ch == 'E';
                run = nb ? run + 1 : 0;
                long_num = run > 16;
            }
            if (long_num) continue;
        }
        static const tyjson_error ok_err = {TYJSON_OK, 0, 0, 0, "", ""};
        run(copy, len, flags, mode, seed, &want, doc ? &ok_err : &derr);
    }
    free(want.t);
    tyjson_doc_free(doc);
    free(copy);
    return 0;
}
