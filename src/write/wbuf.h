/*
 * wbuf.h - the output core shared by every writer (DOM writer, binding
 * encoder).
 *
 * A tyjson__wbuf is a window [cur, end) of writable room in front of a sink:
 *
 *   HEAP   a growing buffer from a tyjson_alloc; the text is handed over at
 *          the end (tyjson__wbuf_take).
 *   FIXED  the caller's buffer of `cap` bytes. Bytes go straight into it
 *          while they fit; near the end the window moves to the scratch chunk
 *          and each flush copies the chunk in if it still fits, or else just
 *          counts it. So the caller's buffer is never written past `cap` and
 *          the total is exact either way.
 *   FP     a stdio stream, fed one scratch chunk at a time.
 *   CB     a tyjson_write_fn callback, fed one scratch chunk at a time.
 *
 * The scratch chunk is memory the caller lends at init (the DOM writer uses
 * 16 KiB of stack). It also backs the window after an error: the first
 * error is kept (sticky) and every later write lands in the scratch chunk
 * and is thrown away, so writers need not check after every call.
 *
 * Hot-path contract. A writer either uses the inline helpers below, or, in
 * its hottest loops, copies `cur` and `end` into locals (a char store may
 * alias anything, so the compiler cannot keep struct fields in registers)
 * and calls tyjson__wbuf_grow(wb, d, n) when `end - d < n`. One reservation
 * is at most TYJSON__WBUF_RESERVE_MAX bytes; larger writes go through
 * tyjson__wbuf_putn, which streams them.
 */
#ifndef TYJSON_WBUF_H
#define TYJSON_WBUF_H

#include "base/internal.h"

/** Largest single reservation; also the smallest scratch chunk. */
#define TYJSON__WBUF_RESERVE_MAX 4096u
/** Scratch chunk size the library's own writers use. */
#define TYJSON__WBUF_CHUNK 16384u

enum {
    TYJSON__SINK_HEAP = 0,
    TYJSON__SINK_FIXED = 1,
    TYJSON__SINK_FP = 2,
    TYJSON__SINK_CB = 3
};

typedef struct tyjson__wbuf {
    char *cur;            /* next byte to write */
    char *end;            /* end of the writable window */
    char *start;          /* start of the window's buffer (buf or tmp) */
    tyjson_status status; /* first error; OK while healthy */
    u8 sink;              /* TYJSON__SINK_* */
    bool staged;          /* FIXED: window is tmp, not the caller's buffer */
    bool overflow;        /* FIXED: the text no longer fits in buf */
    usize flushed;        /* bytes that left the window (written or counted) */
    char *buf;            /* HEAP: owned allocation; FIXED: caller's buffer */
    usize cap;            /* bytes of buf */
    usize pos;            /* FIXED staged: bytes of buf already filled */
    char *tmp;            /* scratch chunk lent by the caller */
    usize tmp_size;
    tyjson_alloc alc;     /* HEAP */
    FILE *fp;             /* FP */
    tyjson_write_fn fn;   /* CB */
    void *ctx;            /* CB */
} tyjson__wbuf;

/* ----------------------------------------------------------------------------
 * Set-up and tear-down. tmp must hold at least TYJSON__WBUF_RESERVE_MAX
 * bytes and outlive the wbuf.
 * ------------------------------------------------------------------------- */

/** Heap sink; the first buffer is sized from `hint` (expected text bytes).
 *  An allocation failure is recorded as a sticky TYJSON_E_NOMEM. */
void tyjson__wbuf_init_heap(tyjson__wbuf *wb, const tyjson_alloc *alc, usize hint,
                            char *tmp, usize tmp_size);
/** Heap sink over an existing block of cap bytes from alc, appending after
 *  its first len bytes: a reusable buffer (tyjson_buf) keeps its memory
 *  across messages; growth reallocates the block. Inline: a small encode
 *  into a reused buffer spends a good part of its time setting up. */
/* What the inline set-ups share: an empty in-memory sink over
 * [buf + len, buf + cap). Member by member: a memset of the whole record
 * becomes `rep stos`, whose start-up alone costs about as much as a small
 * encode. */
TYJSON__FORCEINLINE void tyjson__wbuf_init_mem(tyjson__wbuf *wb, char *buf, usize cap, usize len,
                                               char *tmp, usize tmp_size, u8 sink) {
    wb->cur = buf + len;
    wb->end = buf + cap;
    wb->start = buf;
    wb->status = TYJSON_OK;
    wb->sink = sink;
    wb->staged = false;
    wb->overflow = false;
    wb->flushed = 0;
    wb->buf = buf;
    wb->cap = cap;
    wb->pos = 0;
    wb->tmp = tmp;
    wb->tmp_size = tmp_size;
}
TYJSON__FORCEINLINE void tyjson__wbuf_init_heap_at(tyjson__wbuf *wb, const tyjson_alloc *alc,
                                                   char *buf, usize cap, usize len, char *tmp,
                                                   usize tmp_size) {
    TYJSON_API_CHECK(tmp && tmp_size >= TYJSON__WBUF_RESERVE_MAX);
    tyjson__wbuf_init_mem(wb, buf, cap, len, tmp, tmp_size, TYJSON__SINK_HEAP);
    wb->alc = tyjson__alc_or_libc(alc);
    wb->fp = NULL;
    wb->fn = NULL;
    wb->ctx = NULL;
}
/** Caller's buffer of cap bytes (buf may be NULL when cap is 0). */
void tyjson__wbuf_init_fixed(tyjson__wbuf *wb, char *buf, usize cap, char *tmp,
                             usize tmp_size);
/** tyjson__wbuf_init_fixed, inline, for a non-empty buffer (buf not NULL,
 *  cap > 0): the streaming writer points its wbuf at a new place in the
 *  caller's buffer for every small message. */
TYJSON__FORCEINLINE void tyjson__wbuf_init_fixed_at(tyjson__wbuf *wb, char *buf, usize cap,
                                                    char *tmp, usize tmp_size) {
    TYJSON_API_CHECK(buf && cap && tmp && tmp_size >= TYJSON__WBUF_RESERVE_MAX);
    tyjson__wbuf_init_mem(wb, buf, cap, 0, tmp, tmp_size, TYJSON__SINK_FIXED);
}
void tyjson__wbuf_init_fp(tyjson__wbuf *wb, FILE *fp, char *tmp, usize tmp_size);
void tyjson__wbuf_init_cb(tyjson__wbuf *wb, tyjson_write_fn fn, void *ctx, char *tmp,
                          usize tmp_size);

/**
 * Ends the text: pushes out what the window holds (FP, CB, FIXED) and
 * NUL-terminates it (HEAP always; FIXED when the text and the NUL fit).
 * Returns the sticky status (a FIXED overflow is not an error here: ask
 * tyjson__wbuf_overflowed). Call once. (The inline form below handles a
 * healthy heap buffer with room for the NUL.)
 */
tyjson_status tyjson__wbuf_finish_slow(tyjson__wbuf *wb);
/** HEAP after a successful finish: hands the NUL-terminated text over
 *  (released with the sink's allocator). The wbuf owns nothing afterwards. */
char *tyjson__wbuf_take(tyjson__wbuf *wb);
/** Releases what the wbuf still owns (HEAP buffer). Safe after take. */
void tyjson__wbuf_release(tyjson__wbuf *wb);

/** Records an error; the first one sticks and later writes are discarded. */
void tyjson__wbuf_fail(tyjson__wbuf *wb, tyjson_status code);

/* ----------------------------------------------------------------------------
 * Slow paths (wbuf.c, never inlined).
 * ------------------------------------------------------------------------- */

/**
 * Makes room for n bytes (n <= TYJSON__WBUF_RESERVE_MAX) after the cursor
 * `cur`, which the caller passes because it may have kept it in a local:
 * flushes or grows, then returns the new cursor with wb->end - result >= n.
 * Never fails: after an error the room is scratch.
 */
char *tyjson__wbuf_grow(tyjson__wbuf *wb, char *cur, usize n);
/** Appends n bytes of any size from cursor cur; returns the new cursor. */
char *tyjson__wbuf_putn_slow(tyjson__wbuf *wb, char *cur, const void *src, usize n);
/** Appends n copies of byte c from cursor cur; returns the new cursor. */
char *tyjson__wbuf_fill(tyjson__wbuf *wb, char *cur, int c, usize n);

/* ----------------------------------------------------------------------------
 * Inline helpers: the common case is one compare and a store.
 * ------------------------------------------------------------------------- */

/** Pointer with at least n bytes of room (n <= TYJSON__WBUF_RESERVE_MAX);
 *  write there, then tyjson__wbuf_commit the new end. */
TYJSON__FORCEINLINE char *tyjson__wbuf_reserve(tyjson__wbuf *wb, usize n) {
    if (likely((usize)(wb->end - wb->cur) >= n)) return wb->cur;
    return tyjson__wbuf_grow(wb, wb->cur, n);
}
TYJSON__FORCEINLINE void tyjson__wbuf_commit(tyjson__wbuf *wb, char *p) { wb->cur = p; }

TYJSON__FORCEINLINE void tyjson__wbuf_putc(tyjson__wbuf *wb, char c) {
    char *p = tyjson__wbuf_reserve(wb, 1);
    *p++ = c;
    wb->cur = p;
}
TYJSON__FORCEINLINE void tyjson__wbuf_putn(tyjson__wbuf *wb, const void *src, usize n) {
    if (likely((usize)(wb->end - wb->cur) >= n)) {
        if (n) memcpy(wb->cur, src, n);
        wb->cur += n;
    } else {
        wb->cur = tyjson__wbuf_putn_slow(wb, wb->cur, src, n);
    }
}

/** tyjson__wbuf_finish_slow, with the common cases inline: a healthy heap
 *  buffer, or the caller's buffer not yet staged, with room for the NUL. */
TYJSON__FORCEINLINE tyjson_status tyjson__wbuf_finish(tyjson__wbuf *wb) {
    if (likely((wb->sink == TYJSON__SINK_HEAP || (wb->sink == TYJSON__SINK_FIXED && !wb->staged)) &&
               wb->status == TYJSON_OK && wb->cur < wb->end)) {
        *wb->cur = '\0';
        return TYJSON_OK;
    }
    return tyjson__wbuf_finish_slow(wb);
}

/** Bytes written so far (for FIXED: the length the text needs). */
TYJSON__FORCEINLINE usize tyjson__wbuf_size(const tyjson__wbuf *wb) {
    return wb->flushed + (usize)(wb->cur - wb->start);
}
/** FIXED: true if the text (plus its NUL) did not fit. Valid after finish. */
TYJSON__FORCEINLINE bool tyjson__wbuf_overflowed(const tyjson__wbuf *wb) { return wb->overflow; }

/** Copies n bytes into the output; up to 16 without a library call (two
 *  overlapping moves), for the writers' keys, numbers and short strings. */
TYJSON__FORCEINLINE void tyjson__wbuf_copy(char *d, const char *s, usize n) {
    tyjson__str_copy(d, s, n); /* <tyjson/str_clean.h>, shared with writer.h */
}

/** The text of a heap buffer after a successful write, NUL-terminated,
 *  its length in *len (when len is not NULL); the buffer is handed over.
 *  A gross overshoot of the estimate is given back, a modest one is not:
 *  shrinking a large block makes glibc return it to the kernel, and the
 *  next writer of the same size pays a page fault per 4 KiB (measured: 35%
 *  of writing twitter.json). The text is kept when the allocator cannot
 *  shrink. */
char *tyjson__wbuf_finish_heap(tyjson__wbuf *wb, usize *len);

#endif /* TYJSON_WBUF_H */
