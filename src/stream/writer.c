/*
 * writer.c - the streaming writer (include/tyjson/writer.h): JSON text built
 * call by call, on the writing core (write/wbuf.h sinks, write/str_write.h
 * escaping, num/ number writers).
 *
 * State. Where the writer stands is one byte, `st` (ST_*): what may come
 * next and which separator goes in front of it. A value is allowed in the
 * states of VALUE_OK; after it the state becomes next_st(st). The container
 * stack is a fixed array of max_depth + 1 frames allocated with the writer
 * (frame 0 is the root): each keeps the state its parent returns to when it
 * closes, its child count (the array index of the error path) and a copy of
 * its last key's first KEY_KEEP bytes (the error path). No recursion.
 *
 * Hot path. The calls of a message's skeleton (begin/end, keys, strings,
 * integers below 10^8, booleans, null) are inline in include/tyjson/writer.h, over the hot state
 * at the head of the writer (tyjson__writer_head: cursor, window end,
 * state, the top frame and the deepest frame allowed; the depth is the top
 * frame's distance from the root frame). Pretty output keeps the head's
 * window empty (end == cur, set by head_out), so one room test covers room
 * and mode; ESCAPE_SLASH clears `sclean`, which the inline clean-string
 * check needs. Each inline call stores the cursor and the state once,
 * after its last byte and where its fast and slow paths meet, so the
 * compiler keeps them in registers from call to call (writer.h). They need
 * room in the window for the longest form and, for
 * strings, the short clean-string copy of <tyjson/str_clean.h> (the same
 * code str_write.h uses) and, for integers, the number core's integer
 * formatting of <tyjson/num_int.h>. Everything else (pretty separators,
 * growth, long or escaped strings, larger integers, misuse, errors) calls
 * one out-of-line slow path per kind here (tyjson__writer_*_slow). The
 * reals' fast paths are here, in their calls, since the shortest-double
 * writer is internal. No call branches on
 * the kind of sink: the wbuf's window is the same for all of them.
 *
 * Two cursors. The inline calls move the head's cursor (w->h.cur); the
 * code here works on the wbuf's (w->wb.cur, which the writing core's slow
 * paths take). Every entry point of this file takes the head's cursor into
 * the wbuf first (head_in) and gives the wbuf's cursor and window end back to
 * the head last (head_out), so between calls the head is the truth.
 *
 * Values from the DOM writer and the binding encoder (tyjson_writer_val,
 * _mut_val, _struct) come through their public callback writers
 * (tyjson_val_write_cb, tyjson_encode_cb), which stream into this writer's
 * sink (embed_cb); in pretty mode each newline they write gets this
 * writer's current indentation added after it, so the nested value is
 * indented exactly as the DOM writer would indent it there. A front door
 * does not include another's internals (docs/design.md), and the callback
 * writers need no scratch beyond their own stack chunk.
 */
#include "num/num.h"
#include "write/str_write.h"
#include "write/wbuf.h"

#include <math.h>
#include <stdio.h>

/* Key bytes kept per level for the error path. */
#define KEY_KEEP TYJSON__WKEY_KEEP
/* Room for any scalar but a string: the longest number or -Infinity, the
 * separator and the slack. */
#define NUM_ROOM (TYJSON__NUM_MAX_CHARS + 1 + TYJSON__STR_SLACK)

/* The states (writer.h has them for the inline calls). */
enum {
    ST_ROOT = TYJSON__WST_ROOT,           /* a root value is due */
    ST_ARR_FIRST = TYJSON__WST_ARR_FIRST, /* in an array, no element yet */
    ST_ARR_NEXT = TYJSON__WST_ARR_NEXT,   /* in an array after an element */
    ST_OBJ_FIRST = TYJSON__WST_OBJ_FIRST, /* in an object, first key due */
    ST_OBJ_NEXT = TYJSON__WST_OBJ_NEXT,   /* in an object, a key due after a member */
    ST_OBJ_VAL = TYJSON__WST_OBJ_VAL,     /* in an object, the value of a key due */
    ST_ROOT_DONE = TYJSON__WST_ROOT_DONE, /* the root value is complete */
    ST_FINISHED = TYJSON__WST_FINISHED,   /* tyjson_writer_finish was called */
    ST_ERROR = TYJSON__WST_ERROR          /* the first error is in w->err */
};

#define BIT(s) (1u << (s))
#define VALUE_OK (BIT(ST_ROOT) | BIT(ST_ARR_FIRST) | BIT(ST_ARR_NEXT) | BIT(ST_OBJ_VAL))
#define KEY_OK (BIT(ST_OBJ_FIRST) | BIT(ST_OBJ_NEXT))

#define END_ARR_OK (BIT(ST_ARR_FIRST) | BIT(ST_ARR_NEXT))
/* The state after a value in state st (ST_ERROR where none is allowed). */
#define next_st(st) ((u8)((TYJSON__WST_NEXT >> ((unsigned)(st) * 4u)) & 15u))

/* A frame (writer.h): the state its parent returns to when it closes, its
 * child count (the array index of the error path) and a copy of its last
 * key's first KEY_KEEP bytes and length (the error path). */
typedef tyjson__writer_frame wframe;

/* Open containers: the top frame's distance from the root frame. */
#define DEPTH(w) ((usize)((w)->h.top - (w)->stk))

enum { WS_HEAP, WS_FIXED, WS_FP, WS_CB };

struct tyjson_writer {
    tyjson__writer_head h; /* first: the inline calls of writer.h see it */
    tyjson__wbuf wb;
    u8 sink;              /* WS_* */
    bool pretty;
    bool ended;           /* a message boundary ended the last root */
    tyjson_write_flags flags;
    usize indent, ind;
    usize max_depth;
    wframe *stk;          /* max_depth + 1 frames */
    tyjson_alloc alc;
    char *hbuf;           /* the growing buffer while another sink is used */
    usize hcap;
    char *fbuf;           /* FIXED: the caller's buffer */
    usize fcap;
    FILE *fp;
    tyjson_write_fn fn;
    void *ctx;
    char *tmp;
    usize tmp_size;
    tyjson_error err;
};

/* The head's cursor into the wbuf, at the start of every entry point. */
TYJSON__FORCEINLINE void head_in(tyjson_writer *w) { w->wb.cur = w->h.cur; }
/* The wbuf's cursor and window back to the head, at its end (after a
 * growth, a flush or an error the window is elsewhere); returns s. */
TYJSON__FORCEINLINE tyjson_status head_out(tyjson_writer *w, tyjson_status s) {
    w->h.cur = w->wb.cur;
    w->h.end = w->pretty ? w->wb.cur : w->wb.end; /* pretty: no inline fast path */
    return s;
}

/* The body of a public entry point over its wr_ worker `call`: the head
 * into the wbuf before it, back after it (a NULL writer: the worker's
 * error alone). */
#define THROUGH_HEAD(w, call)                                                  \
    do {                                                                       \
        if (w) head_in(w);                                                     \
        tyjson_status through_rc_ = (call);                                    \
        return (w) ? head_out((w), through_rc_) : through_rc_;                 \
    } while (0)

/* ----------------------------------------------------------------------------
 * MARK: - Errors and the path
 * ------------------------------------------------------------------------- */
typedef struct wpath {
    char *s;
    usize n, cap;
} wpath;

static void wp_put(wpath *b, const char *s, usize n) {
    if (b->n + 1 >= b->cap) return;
    usize room = b->cap - 1 - b->n;
    if (n > room) n = room;
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = 0;
}

static bool wp_ident(const char *k, usize n) {
    if (n == 0) return false;
    for (usize i = 0; i < n; i++) {
        u8 c = (u8)k[i];
        bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
        if (!alpha && !(i && c >= '0' && c <= '9')) return false;
    }
    return true;
}

static void wp_key(wpath *b, const wframe *f) {
    bool klong = f->klen > KEY_KEEP;
    usize kept = klong ? KEY_KEEP : f->klen;
    if (!klong && wp_ident(f->key, kept)) {
        wp_put(b, ".", 1);
        wp_put(b, f->key, kept);
        return;
    }
    wp_put(b, "[\"", 2);
    for (usize i = 0; i < kept; i++) {
        u8 c = (u8)f->key[i];
        char esc[8];
        if (c == '"' || c == '\\') {
            esc[0] = '\\';
            esc[1] = (char)c;
            wp_put(b, esc, 2);
        } else if (c < 0x20) {
            snprintf(esc, sizeof(esc), "\\u%04x", c);
            wp_put(b, esc, 6);
        } else {
            wp_put(b, (const char *)&c, 1);
        }
    }
    if (klong) wp_put(b, "...", 3);
    wp_put(b, "\"]", 2);
}

static void wp_index(wpath *b, u32 i) {
    char t[16];
    int k = snprintf(t, sizeof(t), "[%u]", (unsigned)i);
    wp_put(b, t, (usize)k);
}

/* `$` and, per open container, the child being written in it; at the
 * innermost one only when a child is due there (an element, or the value
 * of a key). */
static void build_path(const tyjson_writer *w, u8 st, char *out, usize cap) {
    wpath b = {out, 0, cap};
    out[0] = 0;
    wp_put(&b, "$", 1);
    usize depth = DEPTH(w);
    for (usize i = 1; i <= depth; i++) {
        const wframe *f = &w->stk[i];
        bool inner = i == depth;
        if (f->obj) {
            if (!inner || st == ST_OBJ_VAL) wp_key(&b, f);
        } else if (!inner || st == ST_ARR_FIRST || st == ST_ARR_NEXT) {
            wp_index(&b, f->index);
        }
    }
}

/* Records the first error (code, message, path) and makes it sticky: later
 * writes land in the wbuf's scratch. Returns the writer's error code. */
static TYJSON__NOINLINE tyjson_status fail_msg(tyjson_writer *w, tyjson_status code,
                                               const char *msg) {
    if (w->h.st == ST_ERROR) return w->err.code;
    tyjson__err_set(&w->err, code, NULL, 0, tyjson__wbuf_size(&w->wb));
    if (msg) tyjson__err_msg(&w->err, msg);
    build_path(w, w->h.st, w->err.path, sizeof(w->err.path));
    w->h.st = ST_ERROR;
    tyjson__wbuf_fail(&w->wb, code);
    return code;
}

/* After a slow path: a failing sink (memory, stream, callback) becomes the
 * writer's error. */
static tyjson_status sync_sink(tyjson_writer *w) {
    if (likely(w->wb.status == TYJSON_OK)) return TYJSON_OK;
    tyjson_status code = w->wb.status;
    if (w->h.st == ST_ERROR) return w->err.code;
    tyjson__err_set(&w->err, code, NULL, 0, tyjson__wbuf_size(&w->wb));
    build_path(w, w->h.st, w->err.path, sizeof(w->err.path));
    w->h.st = ST_ERROR;
    return code;
}

static const char *where_st(u8 st) {
    switch (st) {
    case ST_ROOT: return "at the root";
    case ST_ARR_FIRST:
    case ST_ARR_NEXT: return "in an array";
    case ST_OBJ_VAL: return "after a key (its value is due)";
    case ST_ROOT_DONE: return "after the root value";
    default: return "in an object";
    }
}

/* A value, key or end that the state does not allow. */
static TYJSON__NOINLINE tyjson_status misuse(tyjson_writer *w, const char *what) {
    char msg[TYJSON_ERROR_MSG_MAX];
    u8 st = w->h.st;
    if (st == ST_ERROR) return w->err.code;
    if (st == ST_FINISHED) {
        snprintf(msg, sizeof(msg), "%s after tyjson_writer_finish (reset the writer first)", what);
    } else if (st == ST_ROOT_DONE && strcmp(what, "a key") != 0) {
        snprintf(msg, sizeof(msg),
                 "%s after the root value: a second root needs tyjson_writer_end_message first",
                 what);
    } else if (st == ST_OBJ_FIRST || st == ST_OBJ_NEXT) {
        snprintf(msg, sizeof(msg), "expected a key in the object, found %s", what);
    } else {
        snprintf(msg, sizeof(msg), "%s is not allowed %s", what, where_st(st));
    }
    return fail_msg(w, TYJSON_E_STATE, msg);
}

/* ----------------------------------------------------------------------------
 * MARK: - Separators and room
 * ------------------------------------------------------------------------- */

/* Newline and the current indentation (pretty). */
static char *sw_newline(tyjson_writer *w, char *d, usize ind) {
    if (ind + 1 + TYJSON__STR_SLACK <= TYJSON__WBUF_RESERVE_MAX) {
        if ((usize)(w->wb.end - d) < ind + 1 + TYJSON__STR_SLACK)
            d = tyjson__wbuf_grow(&w->wb, d, ind + 1 + TYJSON__STR_SLACK);
        *d++ = '\n';
        memset(d, ' ', ind);
        return d + ind;
    }
    if (w->wb.end == d) d = tyjson__wbuf_grow(&w->wb, d, 1);
    *d++ = '\n';
    return tyjson__wbuf_fill(&w->wb, d, ' ', ind);
}

/* The separator in front of a value or key in state st, then `room` bytes
 * of room (room <= TYJSON__WBUF_RESERVE_MAX). */
static char *put_sep(tyjson_writer *w, u8 st, usize room) {
    char *d = w->wb.cur;
    if (st == ST_ARR_NEXT || st == ST_OBJ_NEXT) {
        if (w->wb.end == d) d = tyjson__wbuf_grow(&w->wb, d, 1);
        *d++ = ',';
    }
    if (w->pretty && st != ST_ROOT && st != ST_OBJ_VAL) d = sw_newline(w, d, w->ind);
    if ((usize)(w->wb.end - d) < room) d = tyjson__wbuf_grow(&w->wb, d, room);
    return d;
}

/* The slow start of a value: checks the state, writes the separator, makes
 * room; NULL (the error recorded) when the value is not allowed here. */
static TYJSON__NOINLINE char *val_slow(tyjson_writer *w, usize room, const char *what) {
    u8 st = w->h.st;
    if (!(BIT(st) & VALUE_OK)) {
        misuse(w, what);
        return NULL;
    }
    return put_sep(w, st, room);
}

TYJSON__FORCEINLINE tyjson_status val_done(tyjson_writer *w, u8 st, char *d) {
    w->wb.cur = d;
    w->h.st = next_st(st);
    w->h.top->index++;
    return TYJSON_OK;
}

/* val_done after a slow path, which may have met a sink error. */
static tyjson_status val_done_slow(tyjson_writer *w, u8 st, char *d) {
    val_done(w, st, d);
    return sync_sink(w);
}

/* The fast start of a value: minified, allowed here, `room` bytes free
 * after the separator. Writes the separator (a ',' in an array after an
 * element) and returns the cursor, or NULL for the slow path. */
TYJSON__FORCEINLINE char *val_fast(tyjson_writer *w, u8 st, usize room) {
    char *d = w->wb.cur;
    if (likely((BIT(st) & VALUE_OK) && (usize)(w->h.end - d) > room)) {
        *d = ',';
        return d + (st == ST_ARR_NEXT);
    }
    return NULL;
}

/* `"..."` for n bytes at s from cursor d: escaped (str_write.h), or copied
 * (noesc). Returns the cursor with TYJSON__STR_SLACK bytes of room, or NULL
 * on invalid UTF-8 (the wbuf's status set). */
static char *sw_quoted(tyjson_writer *w, char *d, const char *s, usize n, bool noesc) {
    if (!noesc) return tyjson__str_write(&w->wb, d, s, n, w->flags);
    if (n + 2 + TYJSON__STR_SLACK <= TYJSON__WBUF_RESERVE_MAX) {
        if ((usize)(w->wb.end - d) < n + 2 + TYJSON__STR_SLACK)
            d = tyjson__wbuf_grow(&w->wb, d, n + 2 + TYJSON__STR_SLACK);
        *d++ = '"';
        if (n) memcpy(d, s, n);
        d += n;
        *d++ = '"';
        return d;
    }
    if (w->wb.end == d) d = tyjson__wbuf_grow(&w->wb, d, 1);
    *d++ = '"';
    d = tyjson__wbuf_putn_slow(&w->wb, d, s, n);
    if ((usize)(w->wb.end - d) < 1 + TYJSON__STR_SLACK)
        d = tyjson__wbuf_grow(&w->wb, d, 1 + TYJSON__STR_SLACK);
    *d++ = '"';
    return d;
}

/* A string that sw_quoted could not write: invalid UTF-8. */
static tyjson_status quoted_failed(tyjson_writer *w) {
    tyjson_status code = w->wb.status != TYJSON_OK ? w->wb.status : TYJSON_E_UTF8;
    w->wb.status = TYJSON_OK; /* let fail record it with the path */
    return fail_msg(w, code, code == TYJSON_E_UTF8 ? "invalid UTF-8 in a string" : NULL);
}

/* ----------------------------------------------------------------------------
 * MARK: - Making, resetting and ending
 * ------------------------------------------------------------------------- */

static void state_reset(tyjson_writer *w) {
    w->h.st = ST_ROOT;
    w->ind = 0;
    w->ended = false;
    w->h.top = w->stk;
    w->stk[0].index = 0;
    w->stk[0].obj = 0;
    w->stk[0].klen = 0;
    w->stk[0].after = ST_ROOT_DONE;
    w->err.code = TYJSON_OK; /* the rest is filled when asked (tyjson_writer_error) */
}

/* (Re)starts the wbuf over the writer's sink. */
static void sink_reset(tyjson_writer *w) {
    switch (w->sink) {
    case WS_HEAP:
        if (w->wb.buf) {
            tyjson__wbuf_init_heap_at(&w->wb, &w->alc, w->wb.buf, w->wb.cap, 0, w->tmp,
                                      w->tmp_size);
        } else {
            tyjson__wbuf_init_heap(&w->wb, &w->alc, 0, w->tmp, w->tmp_size);
        }
        break;
    case WS_FIXED:
        tyjson__wbuf_init_fixed(&w->wb, w->fbuf, w->fcap, w->tmp, w->tmp_size);
        break;
    case WS_FP:
        tyjson__wbuf_init_fp(&w->wb, w->fp, w->tmp, w->tmp_size);
        break;
    default:
        tyjson__wbuf_init_cb(&w->wb, w->fn, w->ctx, w->tmp, w->tmp_size);
        break;
    }
}

static tyjson_writer *writer_make(u8 sink, const tyjson_writer_options *opts) {
    tyjson_alloc alc = tyjson__alc_or_libc(opts ? opts->alc : NULL);
    usize max_depth = (opts && opts->max_depth) ? opts->max_depth : TYJSON_DEFAULT_MAX_DEPTH;
    usize tmp_size = opts && opts->flush_threshold ? opts->flush_threshold : TYJSON__WBUF_CHUNK;
    if (tmp_size < TYJSON__WBUF_RESERVE_MAX) tmp_size = TYJSON__WBUF_RESERVE_MAX;
    usize head = (sizeof(tyjson_writer) + 15) & ~(usize)15, frames, total;
    if (tyjson__mul_ovf(max_depth + 1, sizeof(wframe), &frames) ||
        tyjson__add_ovf(head, frames, &total) || tyjson__add_ovf(total, tmp_size, &total))
        return NULL;
    char *mem = (char *)tyjson__malloc(&alc, total);
    if (!mem) return NULL;
    tyjson_writer *w = (tyjson_writer *)(void *)mem;
    memset(w, 0, sizeof(*w));
    w->stk = (wframe *)(void *)(mem + head);
    w->tmp = mem + head + frames;
    w->tmp_size = tmp_size;
    w->alc = alc;
    w->sink = sink;
    w->flags = opts ? opts->flags : 0;
    w->pretty = (w->flags & TYJSON_WRITE_PRETTY) != 0;
    /* the inline clean-string check knows no ESCAPE_SLASH */
    w->h.sclean = (w->flags & TYJSON_WRITE_ESCAPE_SLASH) == 0;
    w->indent = (opts && opts->indent) ? opts->indent : 2;
    w->max_depth = max_depth;
    w->h.lim = w->stk + max_depth;
    return w;
}

static tyjson_writer *writer_start(tyjson_writer *w) {
    if (!w) return NULL;
    sink_reset(w);
    if (w->wb.status != TYJSON_OK) { /* the first heap buffer */
        tyjson_writer_free(w);
        return NULL;
    }
    state_reset(w);
    head_out(w, TYJSON_OK);
    return w;
}

tyjson_writer *tyjson_writer_new(const tyjson_writer_options *opts) {
    return writer_start(writer_make(WS_HEAP, opts));
}

tyjson_writer *tyjson_writer_new_buf(char *buf, size_t cap, const tyjson_writer_options *opts) {
    if (!buf && cap) return NULL;
    tyjson_writer *w = writer_make(WS_FIXED, opts);
    if (w) {
        w->fbuf = buf;
        w->fcap = cap;
    }
    return writer_start(w);
}

tyjson_writer *tyjson_writer_new_fp(FILE *fp, const tyjson_writer_options *opts) {
    if (!fp) return NULL;
    tyjson_writer *w = writer_make(WS_FP, opts);
    if (w) w->fp = fp;
    return writer_start(w);
}

tyjson_writer *tyjson_writer_new_cb(tyjson_write_fn fn, void *ctx,
                                    const tyjson_writer_options *opts) {
    if (!fn) return NULL;
    tyjson_writer *w = writer_make(WS_CB, opts);
    if (w) {
        w->fn = fn;
        w->ctx = ctx;
    }
    return writer_start(w);
}

void tyjson_writer_free(tyjson_writer *w) {
    if (!w) return;
    tyjson_alloc alc = w->alc;
    if (w->sink == WS_HEAP) {
        if (w->wb.buf) tyjson__free(&alc, w->wb.buf);
    } else if (w->hbuf) {
        tyjson__free(&alc, w->hbuf);
    }
    tyjson__free(&alc, w);
}

static void wr_reset(tyjson_writer *w) {
    if (!w) return;
    sink_reset(w);
    state_reset(w);
    if (w->wb.status != TYJSON_OK) sync_sink(w); /* no first heap buffer */
}

/* Leaves the growing buffer aside while another sink is used. */
static void park_heap(tyjson_writer *w) {
    if (w->sink != WS_HEAP) return;
    w->hbuf = w->wb.buf;
    w->hcap = w->wb.cap;
    w->wb.buf = NULL;
}

static tyjson_status wr_reset_buf(tyjson_writer *w, char *buf, size_t cap) {
    if (!w || (!buf && cap)) return TYJSON_E_INVALID_ARG;
    park_heap(w);
    w->sink = WS_FIXED;
    w->fbuf = buf;
    w->fcap = cap;
    if (likely(cap != 0)) tyjson__wbuf_init_fixed_at(&w->wb, buf, cap, w->tmp, w->tmp_size);
    else tyjson__wbuf_init_fixed(&w->wb, buf, cap, w->tmp, w->tmp_size);
    state_reset(w);
    return TYJSON_OK;
}

static tyjson_status wr_reset_heap(tyjson_writer *w) {
    if (!w) return TYJSON_E_INVALID_ARG;
    if (w->sink != WS_HEAP) {
        w->sink = WS_HEAP;
        w->wb.buf = w->hbuf;
        w->wb.cap = w->hcap;
        w->hbuf = NULL;
        w->hcap = 0;
    }
    wr_reset(w);
    return tyjson_writer_status(w);
}

static tyjson_status wr_finish(tyjson_writer *w, size_t *len) {
    if (len) *len = 0;
    if (!w) return TYJSON_E_INVALID_ARG;
    u8 st = w->h.st;
    if (st == ST_ERROR) return w->err.code;
    if (st == ST_FINISHED) return misuse(w, "tyjson_writer_finish");
    if (DEPTH(w)) {
        char msg[96];
        snprintf(msg, sizeof(msg), "tyjson_writer_finish with %zu container%s open", DEPTH(w),
                 DEPTH(w) == 1 ? "" : "s");
        return fail_msg(w, TYJSON_E_STATE, msg);
    }
    if (st == ST_ROOT && !w->ended)
        return fail_msg(w, TYJSON_E_STATE, "tyjson_writer_finish before any value was written");
    if (st == ST_ROOT_DONE && (w->flags & TYJSON_WRITE_NEWLINE_AT_END))
        tyjson__wbuf_putc(&w->wb, '\n');
    tyjson_status s = tyjson__wbuf_finish(&w->wb);
    if (len) *len = tyjson__wbuf_size(&w->wb);
    if (s != TYJSON_OK) {
        if (len) *len = 0;
        return sync_sink(w);
    }
    w->h.st = ST_FINISHED;
    if (w->sink == WS_FIXED && tyjson__wbuf_overflowed(&w->wb)) {
        tyjson__err_set(&w->err, TYJSON_E_BUF_TOO_SMALL, NULL, 0, tyjson__wbuf_size(&w->wb));
        return TYJSON_E_BUF_TOO_SMALL;
    }
    return TYJSON_OK;
}

static tyjson_status wr_end_message(tyjson_writer *w) {
    if (!w) return TYJSON_E_INVALID_ARG;
    if (w->h.st != ST_ROOT_DONE) {
        if (w->h.st == ST_ERROR) return w->err.code;
        if (w->h.st == ST_ROOT)
            return fail_msg(w, TYJSON_E_STATE,
                            "tyjson_writer_end_message with no value since the last boundary");
        if (w->h.st == ST_FINISHED) return misuse(w, "tyjson_writer_end_message");
        char msg[96];
        snprintf(msg, sizeof(msg), "tyjson_writer_end_message with %zu container%s open",
                 DEPTH(w), DEPTH(w) == 1 ? "" : "s");
        return fail_msg(w, TYJSON_E_STATE, msg);
    }
    tyjson__wbuf_putc(&w->wb, '\n');
    w->h.st = ST_ROOT;
    w->ended = true;
    return sync_sink(w);
}

static tyjson_status wr_flush(tyjson_writer *w) {
    if (!w) return TYJSON_E_INVALID_ARG;
    if (w->h.st == ST_ERROR) return w->err.code;
    if (w->sink == WS_FP || w->sink == WS_CB) {
        /* a full-size reservation empties the scratch window */
        char *d = w->wb.cur;
        if (d != w->wb.start) w->wb.cur = tyjson__wbuf_grow(&w->wb, d, TYJSON__WBUF_RESERVE_MAX);
    }
    return sync_sink(w);
}

const char *tyjson_writer_text(const tyjson_writer *w) {
    if (!w) return NULL;
    if (w->sink == WS_HEAP) return w->wb.buf;
    if (w->sink == WS_FIXED) return w->fbuf;
    return NULL;
}

size_t tyjson_writer_size(const tyjson_writer *w) {
    /* the head's cursor is the current one (see "Two cursors") */
    return w ? w->wb.flushed + (usize)(w->h.cur - w->wb.start) : 0;
}

tyjson_status tyjson_writer_status(const tyjson_writer *w) {
    if (!w) return TYJSON_E_INVALID_ARG;
    return w->err.code;
}

tyjson_status tyjson_writer_error(const tyjson_writer *w, tyjson_error *err) {
    if (!w) {
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return TYJSON_E_INVALID_ARG;
    }
    if (err) {
        if (w->err.code == TYJSON_OK) tyjson__err_ok(err);
        else *err = w->err;
    }
    return w->err.code;
}

size_t tyjson_writer_depth(const tyjson_writer *w) { return w ? DEPTH(w) : 0; }

/* ----------------------------------------------------------------------------
 * MARK: - Containers
 * ------------------------------------------------------------------------- */

static TYJSON__NOINLINE tyjson_status begin_slow(tyjson_writer *w, u8 obj) {
    u8 st = w->h.st;
    if (!(BIT(st) & VALUE_OK)) return misuse(w, obj ? "begin_object" : "begin_array");
    if (w->h.top == w->h.lim) {
        char msg[96];
        snprintf(msg, sizeof(msg), "nesting deeper than max_depth (%zu)", w->max_depth);
        return fail_msg(w, TYJSON_E_DEPTH, msg);
    }
    char *d = put_sep(w, st, 2);
    *d++ = obj ? '{' : '[';
    w->wb.cur = d;
    wframe *f = w->h.top + 1;
    f->index = 0;
    f->after = next_st(st);
    f->obj = obj;
    f->klen = 0;
    w->h.top = f;
    w->h.st = obj ? ST_OBJ_FIRST : ST_ARR_FIRST;
    if (w->pretty) w->ind += w->indent;
    return sync_sink(w);
}

static TYJSON__NOINLINE tyjson_status end_slow(tyjson_writer *w, u8 obj) {
    u8 st = w->h.st;
    u8 first = obj ? ST_OBJ_FIRST : ST_ARR_FIRST, next = obj ? ST_OBJ_NEXT : ST_ARR_NEXT;
    const char *what = obj ? "end_object" : "end_array";
    if (st == ST_ERROR) return w->err.code;
    if (st != first && st != next) {
        char msg[128];
        if (st == ST_FINISHED) return misuse(w, what);
        if (DEPTH(w) == 0)
            snprintf(msg, sizeof(msg), "%s with no container open", what);
        else if (st == ST_OBJ_VAL)
            snprintf(msg, sizeof(msg), "%s after a key: the key's value is missing", what);
        else
            snprintf(msg, sizeof(msg), "%s, but the innermost open container is an %s", what,
                     obj ? "array" : "object");
        return fail_msg(w, TYJSON_E_STATE, msg);
    }
    char *d = w->wb.cur;
    if (w->pretty) {
        w->ind -= w->indent;
        if (st == next) d = sw_newline(w, d, w->ind);
    }
    if (w->wb.end == d) d = tyjson__wbuf_grow(&w->wb, d, 1);
    *d++ = obj ? '}' : ']';
    wframe *f = w->h.top;
    w->h.top = f - 1;
    w->h.st = f->after;
    w->h.top->index++;
    w->wb.cur = d;
    return sync_sink(w);
}

tyjson_status tyjson__writer_begin_slow(tyjson_writer *w, int obj) {
    if (unlikely(!w)) return TYJSON_E_INVALID_ARG;
    head_in(w);
    return head_out(w, begin_slow(w, obj != 0));
}
tyjson_status tyjson__writer_end_slow(tyjson_writer *w, int obj) {
    if (unlikely(!w)) return TYJSON_E_INVALID_ARG;
    head_in(w);
    return head_out(w, end_slow(w, obj != 0));
}

/* ----------------------------------------------------------------------------
 * MARK: - Keys
 * ------------------------------------------------------------------------- */

/* Keeps a key for the error path: its first bytes and its length. */
static void keep_key(wframe *f, const char *s, usize n) {
    tyjson__wbuf_copy(f->key, s, n <= KEY_KEEP ? n : KEY_KEEP);
    f->klen = n > UINT32_MAX ? UINT32_MAX : (u32)n;
}

static TYJSON__NOINLINE tyjson_status key_slow(tyjson_writer *w, const char *s, usize n,
                                               bool noesc) {
    u8 st = w->h.st;
    if (!(BIT(st) & KEY_OK)) return misuse(w, "a key");
    if (!s && n) return fail_msg(w, TYJSON_E_INVALID_ARG, "a NULL key with a length");
    if (!s) s = "";
    char *d = put_sep(w, st, 0);
    keep_key(w->h.top, s, n);
    w->h.st = ST_OBJ_VAL; /* the path of an error below names this key */
    d = sw_quoted(w, d, s, n, noesc);
    if (!d) return quoted_failed(w);
    *d++ = ':';
    if (w->pretty) *d++ = ' ';
    w->wb.cur = d;
    return sync_sink(w);
}

tyjson_status tyjson__writer_key_slow(tyjson_writer *w, const char *s, size_t n, int noesc) {
    if (unlikely(!w)) return TYJSON_E_INVALID_ARG;
    head_in(w);
    return head_out(w, key_slow(w, s, n, noesc != 0));
}

/* ----------------------------------------------------------------------------
 * MARK: - Scalars
 * ------------------------------------------------------------------------- */

static TYJSON__NOINLINE tyjson_status string_slow(tyjson_writer *w, const char *s, usize n,
                                                  bool noesc) {
    u8 st = w->h.st;
    char *d = val_slow(w, 0, "a string");
    if (!d) return w->err.code;
    if (!s && n) return fail_msg(w, TYJSON_E_INVALID_ARG, "a NULL string with a length");
    d = sw_quoted(w, d, s ? s : "", n, noesc);
    if (!d) return quoted_failed(w);
    return val_done_slow(w, st, d);
}

tyjson_status tyjson__writer_string_slow(tyjson_writer *w, const char *s, size_t n, int noesc) {
    if (unlikely(!w)) return TYJSON_E_INVALID_ARG;
    head_in(w);
    return head_out(w, string_slow(w, s, n, noesc != 0));
}

/* An integer that writer.h's inline call did not take: 10^8 and more,
 * pretty output, no room, or misuse. */
static tyjson_status wr_int(tyjson_writer *w, u64 u, bool neg) {
    u8 st = w->h.st;
    char *d = val_fast(w, st, NUM_ROOM);
    if (!d && !(d = val_slow(w, NUM_ROOM, "a number"))) return w->err.code;
    *d = '-';
    return val_done_slow(w, st, tyjson__u64_write(u, d + neg));
}

/* NaN, the infinities, and any real under a number option (FP_FIXED,
 * FP_TO_FLOAT): the shared rule of tyjson__real_write_flags, or the error
 * for a non-finite value (also one FP_TO_FLOAT rounds to) without a flag. */
static TYJSON__NOINLINE tyjson_status put_special(tyjson_writer *w, double v) {
    u8 st = w->h.st;
    if (!(BIT(st) & VALUE_OK)) return misuse(w, "a number");
    /* the text first, so that a refusal writes nothing, not even a comma */
    char tmp[TYJSON__NUM_MAX_CHARS];
    char *e = tyjson__real_write_flags(v, w->flags, tmp);
    if (!e)
        return fail_msg(w, TYJSON_E_NAN_INF,
                        v != v ? "NaN without TYJSON_WRITE_ALLOW_INF_NAN"
                               : "an infinity without TYJSON_WRITE_ALLOW_INF_NAN");
    usize n = (usize)(e - tmp);
    char *d = put_sep(w, st, NUM_ROOM);
    if (!d) return w->err.code;
    memcpy(d, tmp, n);
    return val_done_slow(w, st, d + n);
}

static tyjson_status wr_double(tyjson_writer *w, double v) {
    if (unlikely(!w)) return TYJSON_E_INVALID_ARG;
    if (unlikely(!isfinite(v) || (w->flags & TYJSON__WRITE_FP_OPTS))) return put_special(w, v);
    u8 st = w->h.st;
    char *d = val_fast(w, st, NUM_ROOM);
    if (likely(d != NULL)) return val_done(w, st, tyjson__f64_write(v, d));
    if (!(d = val_slow(w, NUM_ROOM, "a number"))) return w->err.code;
    return val_done_slow(w, st, tyjson__f64_write(v, d));
}

static tyjson_status wr_float(tyjson_writer *w, float v) {
    if (unlikely(!w)) return TYJSON_E_INVALID_ARG;
    if (unlikely(!isfinite(v) || (w->flags & TYJSON__WRITE_FP_OPTS)))
        return put_special(w, (double)v);
    u8 st = w->h.st;
    char *d = val_fast(w, st, NUM_ROOM);
    if (!d && !(d = val_slow(w, NUM_ROOM, "a number"))) return w->err.code;
    return val_done_slow(w, st, tyjson__f32_write(v, d));
}

static tyjson_status wr_double_fixed(tyjson_writer *w, double v, int prec) {
    if (unlikely(!w)) return TYJSON_E_INVALID_ARG;
    if (w->h.st == ST_ERROR) return w->err.code;
    if (prec < 1 || prec > TYJSON__FIXED_PREC_MAX)
        return fail_msg(w, TYJSON_E_INVALID_ARG, "fixed precision outside 1 to 15");
    if (unlikely(!isfinite(v))) return put_special(w, v);
    u8 st = w->h.st;
    char *d = val_fast(w, st, NUM_ROOM);
    if (!d && !(d = val_slow(w, NUM_ROOM, "a number"))) return w->err.code;
    return val_done_slow(w, st, tyjson__f64_write_fixed(v, prec, d));
}

/* true, false, null (writer.h has the fast path). */
static tyjson_status put_word(tyjson_writer *w, int which) {
    const char *t = which == 1 ? "true " : which == 0 ? "false" : "null ";
    u8 st = w->h.st;
    char *d = val_slow(w, 8, which == 2 ? "null" : "a boolean");
    if (!d) return w->err.code;
    memcpy(d, t, 5);
    return val_done_slow(w, st, d + (which == 0 ? 5 : 4));
}

tyjson_status tyjson__writer_word_slow(tyjson_writer *w, int which) {
    if (unlikely(!w)) return TYJSON_E_INVALID_ARG;
    head_in(w);
    return head_out(w, put_word(w, which));
}

/* ----------------------------------------------------------------------------
 * MARK: - Raw text and values of the other front doors
 * ------------------------------------------------------------------------- */

static tyjson_status wr_raw(tyjson_writer *w, const char *s, size_t n, unsigned flags) {
    if (unlikely(!w)) return TYJSON_E_INVALID_ARG;
    u8 st = w->h.st;
    if (!(BIT(st) & VALUE_OK)) return misuse(w, "raw JSON text");
    if (!s && n) return fail_msg(w, TYJSON_E_INVALID_ARG, "NULL raw text with a length");
    if (!(flags & TYJSON_WRITER_RAW_TRUSTED)) {
        tyjson_error e;
        if (!tyjson_validate(s, n, NULL, &e)) {
            char msg[TYJSON_ERROR_MSG_MAX + 64];
            snprintf(msg, sizeof(msg), "raw JSON text is invalid at byte %zu: %s", e.offset,
                     e.msg);
            return fail_msg(w, e.code, msg);
        }
    }
    char *d = put_sep(w, st, 0);
    d = tyjson__wbuf_putn_slow(&w->wb, d, s, n);
    return val_done_slow(w, st, d);
}

/* The callback of the DOM writer and the encoder: their text into this
 * writer's sink, with the current indentation after each newline (only
 * pretty formatting writes a raw newline: strings escape theirs). */
static int embed_cb(void *ctx, const char *data, size_t len) {
    tyjson_writer *w = (tyjson_writer *)ctx;
    if (!w->pretty || w->ind == 0) {
        tyjson__wbuf_putn(&w->wb, data, len);
    } else {
        const char *end = data + len;
        while (data < end) {
            const char *nl = (const char *)memchr(data, '\n', (usize)(end - data));
            usize k = nl ? (usize)(nl + 1 - data) : (usize)(end - data);
            tyjson__wbuf_putn(&w->wb, data, k);
            data += k;
            if (nl) w->wb.cur = tyjson__wbuf_fill(&w->wb, w->wb.cur, ' ', w->ind);
        }
    }
    return w->wb.status != TYJSON_OK;
}

enum { EMB_VAL, EMB_MUT, EMB_STRUCT };

static tyjson_status embed_in(tyjson_writer *w, int kind, const void *a, const void *b) {
    u8 st = w->h.st;
    const char *what = kind == EMB_STRUCT ? "a struct" : "a document value";
    if (!(BIT(st) & VALUE_OK)) return misuse(w, what);
    if (!a || (kind == EMB_STRUCT && !b))
        return fail_msg(w, TYJSON_E_INVALID_ARG,
                        kind == EMB_STRUCT ? "a NULL type or struct" : "a NULL value");
    w->wb.cur = put_sep(w, st, 0);
    tyjson_write_options o;
    o.flags = w->flags & ~(tyjson_write_flags)TYJSON_WRITE_NEWLINE_AT_END;
    o.indent = (uint32_t)w->indent;
    o.alc = &w->alc;
    tyjson_error e;
    bool ok;
    if (kind == EMB_VAL)
        ok = tyjson_val_write_cb(embed_cb, w, (const tyjson_val *)a, &o, &e);
    else if (kind == EMB_MUT)
        ok = tyjson_mut_val_write_cb(embed_cb, w, (const tyjson_mut_val *)a, &o, &e);
    else
        ok = tyjson_encode_cb(embed_cb, w, (tyjson_struct *)(uintptr_t)a, b, &o, &e);
    if (!ok) {
        if (w->wb.status != TYJSON_OK) return sync_sink(w);
        return fail_msg(w, e.code, e.msg);
    }
    return val_done_slow(w, st, w->wb.cur);
}

static tyjson_status embed(tyjson_writer *w, int kind, const void *a, const void *b) {
    if (unlikely(!w)) return TYJSON_E_INVALID_ARG;
    head_in(w);
    return head_out(w, embed_in(w, kind, a, b));
}

tyjson_status tyjson_writer_val(tyjson_writer *w, const tyjson_val *val) {
    return embed(w, EMB_VAL, val, NULL);
}
tyjson_status tyjson_writer_mut_val(tyjson_writer *w, const tyjson_mut_val *val) {
    return embed(w, EMB_MUT, val, NULL);
}
tyjson_status tyjson_writer_struct(tyjson_writer *w, tyjson_struct *type, const void *in) {
    return embed(w, EMB_STRUCT, type, in);
}

/* ----------------------------------------------------------------------------
 * MARK: - Entry points: the head's cursor in and out (see "Two cursors")
 * ------------------------------------------------------------------------- */

void tyjson_writer_reset(tyjson_writer *w) {
    if (!w) return;
    head_in(w);
    wr_reset(w);
    head_out(w, TYJSON_OK);
}

tyjson_status tyjson_writer_reset_buf(tyjson_writer *w, char *buf, size_t cap) {
    THROUGH_HEAD(w, wr_reset_buf(w, buf, cap));
}

tyjson_status tyjson_writer_reset_heap(tyjson_writer *w) {
    THROUGH_HEAD(w, wr_reset_heap(w));
}

tyjson_status tyjson_writer_finish(tyjson_writer *w, size_t *len) {
    /* The common end of a message, as wr_finish and tyjson__wbuf_finish
     * would end it: a complete root, no NEWLINE_AT_END, an in-memory sink
     * (growing, or the caller's buffer not yet staged) with room for the
     * NUL. Its checks and the two cursors' exchange cost as much as a
     * small message's skeleton. */
    if (likely(w && w->h.st == ST_ROOT_DONE && !(w->flags & TYJSON_WRITE_NEWLINE_AT_END) &&
               w->wb.status == TYJSON_OK &&
               (w->sink == WS_HEAP || (w->sink == WS_FIXED && !w->wb.staged)) &&
               w->h.cur < w->wb.end)) {
        char *c = w->h.cur;
        *c = '\0';
        w->wb.cur = c;
        w->h.st = ST_FINISHED;
        if (len) *len = w->wb.flushed + (usize)(c - w->wb.start);
        return TYJSON_OK;
    }
    THROUGH_HEAD(w, wr_finish(w, len));
}

tyjson_status tyjson_writer_end_message(tyjson_writer *w) {
    THROUGH_HEAD(w, wr_end_message(w));
}

tyjson_status tyjson_writer_flush(tyjson_writer *w) {
    THROUGH_HEAD(w, wr_flush(w));
}

tyjson_status tyjson__writer_int_slow(tyjson_writer *w, uint64_t v, int neg) {
    if (unlikely(!w)) return TYJSON_E_INVALID_ARG;
    head_in(w);
    return head_out(w, wr_int(w, v, neg != 0));
}

tyjson_status tyjson_writer_double(tyjson_writer *w, double v) {
    THROUGH_HEAD(w, wr_double(w, v));
}

tyjson_status tyjson_writer_float(tyjson_writer *w, float v) {
    THROUGH_HEAD(w, wr_float(w, v));
}

tyjson_status tyjson_writer_double_fixed(tyjson_writer *w, double v, int prec) {
    THROUGH_HEAD(w, wr_double_fixed(w, v, prec));
}

tyjson_status tyjson_writer_raw(tyjson_writer *w, const char *s, size_t n, unsigned flags) {
    THROUGH_HEAD(w, wr_raw(w, s, n, flags));
}
