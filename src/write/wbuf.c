/*
 * wbuf.c - slow paths of the output core: growing the heap buffer,
 * flushing the scratch chunk to a stream, a callback or the caller's fixed
 * buffer, and the sticky error. The fast paths are inline in wbuf.h.
 */
#include "write/wbuf.h"

/* First heap buffer when the writer has no estimate; small texts then cost
 * one malloc and no realloc. */
#define HEAP_MIN 256u

static void use_scratch(tyjson__wbuf *wb) {
    wb->start = wb->tmp;
    wb->cur = wb->tmp;
    wb->end = wb->tmp + wb->tmp_size;
}

/* Member by member (see tyjson__wbuf_init_heap_at): no `rep stos`. */
static void init_common(tyjson__wbuf *wb, u8 sink, char *tmp, usize tmp_size) {
    TYJSON_API_CHECK(tmp && tmp_size >= TYJSON__WBUF_RESERVE_MAX);
    wb->status = TYJSON_OK;
    wb->sink = sink;
    wb->staged = false;
    wb->overflow = false;
    wb->flushed = 0;
    wb->buf = NULL;
    wb->cap = 0;
    wb->pos = 0;
    wb->tmp = tmp;
    wb->tmp_size = tmp_size;
    wb->alc.malloc = NULL;
    wb->alc.realloc = NULL;
    wb->alc.free = NULL;
    wb->alc.ctx = NULL;
    wb->fp = NULL;
    wb->fn = NULL;
    wb->ctx = NULL;
    use_scratch(wb);
}

void tyjson__wbuf_init_heap(tyjson__wbuf *wb, const tyjson_alloc *alc, usize hint,
                            char *tmp, usize tmp_size) {
    init_common(wb, TYJSON__SINK_HEAP, tmp, tmp_size);
    wb->alc = tyjson__alc_or_libc(alc);
    usize cap = hint < HEAP_MIN ? HEAP_MIN : hint;
    /* Room for the NUL and for the last reservation's slack, so that an
     * exact estimate needs no realloc. */
    if (tyjson__add_ovf(cap, 64, &cap)) {
        tyjson__wbuf_fail(wb, TYJSON_E_NOMEM);
        return;
    }
    char *buf = (char *)tyjson__malloc(&wb->alc, cap);
    if (!buf) {
        tyjson__wbuf_fail(wb, TYJSON_E_NOMEM);
        return;
    }
    wb->buf = buf;
    wb->cap = cap;
    wb->start = buf;
    wb->cur = buf;
    wb->end = buf + cap;
}

void tyjson__wbuf_init_fixed(tyjson__wbuf *wb, char *buf, usize cap, char *tmp,
                             usize tmp_size) {
    init_common(wb, TYJSON__SINK_FIXED, tmp, tmp_size);
    wb->buf = buf;
    wb->cap = cap;
    if (cap == 0 || !buf) {
        /* Nothing fits: count from the start (and never touch buf). */
        wb->cap = 0;
        wb->staged = true;
        return;
    }
    wb->start = buf;
    wb->cur = buf;
    wb->end = buf + cap;
}

void tyjson__wbuf_init_fp(tyjson__wbuf *wb, FILE *fp, char *tmp, usize tmp_size) {
    init_common(wb, TYJSON__SINK_FP, tmp, tmp_size);
    wb->fp = fp;
}

void tyjson__wbuf_init_cb(tyjson__wbuf *wb, tyjson_write_fn fn, void *ctx, char *tmp,
                          usize tmp_size) {
    init_common(wb, TYJSON__SINK_CB, tmp, tmp_size);
    wb->fn = fn;
    wb->ctx = ctx;
}

void tyjson__wbuf_fail(tyjson__wbuf *wb, tyjson_status code) {
    if (wb->status == TYJSON_OK) wb->status = code;
    /* The caller may still hold a cursor into the old window; that memory
     * stays valid (the heap buffer is released only by release()). */
    use_scratch(wb);
}

/* ----------------------------------------------------------------------------
 * Chunked sinks (FIXED once staged, FP, CB).
 * ------------------------------------------------------------------------- */

/* Sends k bytes at p to the sink and counts them. */
static void emit(tyjson__wbuf *wb, const char *p, usize k) {
    if (k == 0) return;
    switch (wb->sink) {
    case TYJSON__SINK_FIXED:
        if (!wb->overflow && k <= wb->cap - wb->pos) {
            memcpy(wb->buf + wb->pos, p, k);
            wb->pos += k;
        } else {
            wb->overflow = true;
        }
        break;
    case TYJSON__SINK_FP:
        if (fwrite(p, 1, k, wb->fp) != k) {
            tyjson__wbuf_fail(wb, TYJSON_E_IO);
            return;
        }
        break;
    case TYJSON__SINK_CB:
        if (wb->fn(wb->ctx, p, k) != 0) {
            tyjson__wbuf_fail(wb, TYJSON_E_CALLBACK);
            return;
        }
        break;
    default:
        break;
    }
    wb->flushed += k;
}

/* Empties the scratch window into the sink. */
static void flush_tmp(tyjson__wbuf *wb) {
    usize k = (usize)(wb->cur - wb->start);
    wb->cur = wb->start;
    emit(wb, wb->start, k);
}

/* FIXED: the caller's buffer is about full; continue in the scratch chunk. */
static void stage(tyjson__wbuf *wb) {
    wb->pos = (usize)(wb->cur - wb->buf);
    wb->flushed = wb->pos;
    wb->staged = true;
    use_scratch(wb);
}

static bool chunked(const tyjson__wbuf *wb) {
    return wb->sink != TYJSON__SINK_HEAP &&
           (wb->sink != TYJSON__SINK_FIXED || wb->staged);
}

/* ----------------------------------------------------------------------------
 * Heap growth.
 * ------------------------------------------------------------------------- */

/* Grows the heap buffer to hold at least `extra` more bytes after cur.
 * Returns false (with the sticky error set) on failure. */
static bool heap_grow(tyjson__wbuf *wb, usize extra) {
    usize used = (usize)(wb->cur - wb->buf), need, cap;
    if (tyjson__add_ovf(used, extra, &need) || tyjson__add_ovf(need, 64, &need)) {
        tyjson__wbuf_fail(wb, TYJSON_E_NOMEM);
        return false;
    }
    /* 1.5x keeps the copies amortised O(n) and wastes less than doubling. */
    if (tyjson__add_ovf(wb->cap, wb->cap / 2, &cap) || cap < need) cap = need;
    char *nb = (char *)tyjson__realloc(&wb->alc, wb->buf, wb->cap, cap);
    if (!nb) {
        tyjson__wbuf_fail(wb, TYJSON_E_NOMEM);
        return false;
    }
    wb->buf = nb;
    wb->start = nb;
    wb->cur = nb + used;
    wb->end = nb + cap;
    wb->cap = cap;
    return true;
}

/* ----------------------------------------------------------------------------
 * Slow paths.
 * ------------------------------------------------------------------------- */

TYJSON__NOINLINE char *tyjson__wbuf_grow(tyjson__wbuf *wb, char *cur, usize n) {
    TYJSON_API_CHECK(n <= TYJSON__WBUF_RESERVE_MAX);
    wb->cur = cur;
    if (wb->status != TYJSON_OK) {
        use_scratch(wb); /* discard */
        return wb->cur;
    }
    if (wb->sink == TYJSON__SINK_HEAP) {
        heap_grow(wb, n);
        return wb->cur;
    }
    if (!wb->staged && wb->sink == TYJSON__SINK_FIXED) {
        stage(wb);
        return wb->cur;
    }
    flush_tmp(wb);
    if (wb->status != TYJSON_OK) use_scratch(wb);
    return wb->cur;
}

TYJSON__NOINLINE char *tyjson__wbuf_putn_slow(tyjson__wbuf *wb, char *cur,
                                              const void *src, usize n) {
    wb->cur = cur;
    if ((usize)(wb->end - cur) >= n) {
        if (n) memcpy(cur, src, n);
        wb->cur = cur + n;
        return wb->cur;
    }
    if (wb->status != TYJSON_OK) {
        use_scratch(wb);
        return wb->cur;
    }
    if (wb->sink == TYJSON__SINK_HEAP) {
        if (heap_grow(wb, n)) {
            memcpy(wb->cur, src, n);
            wb->cur += n;
        }
        return wb->cur;
    }
    if (!chunked(wb)) stage(wb);
    flush_tmp(wb);
    if (n < wb->tmp_size) {
        memcpy(wb->cur, src, n);
        wb->cur += n;
    } else {
        /* Big pieces skip the scratch copy. */
        emit(wb, (const char *)src, n);
    }
    if (wb->status != TYJSON_OK) use_scratch(wb);
    return wb->cur;
}

char *tyjson__wbuf_fill(tyjson__wbuf *wb, char *cur, int c, usize n) {
    while (n) {
        usize k = n < TYJSON__WBUF_RESERVE_MAX ? n : TYJSON__WBUF_RESERVE_MAX;
        if ((usize)(wb->end - cur) < k) cur = tyjson__wbuf_grow(wb, cur, k);
        memset(cur, c, k);
        cur += k;
        n -= k;
    }
    wb->cur = cur;
    return cur;
}

/* ----------------------------------------------------------------------------
 * End of the text.
 * ------------------------------------------------------------------------- */

tyjson_status tyjson__wbuf_finish_slow(tyjson__wbuf *wb) {
    if (wb->status != TYJSON_OK) return wb->status;
    switch (wb->sink) {
    case TYJSON__SINK_HEAP: {
        char *p = tyjson__wbuf_reserve(wb, 1);
        *p = '\0';
        break;
    }
    case TYJSON__SINK_FIXED:
        if (wb->staged) {
            flush_tmp(wb);
            if (!wb->overflow && wb->pos < wb->cap) wb->buf[wb->pos] = '\0';
            else wb->overflow = true;
        } else {
            usize len = (usize)(wb->cur - wb->buf);
            if (len < wb->cap) wb->buf[len] = '\0';
            else wb->overflow = true;
        }
        break;
    default:
        flush_tmp(wb);
        break;
    }
    return wb->status;
}

char *tyjson__wbuf_take(tyjson__wbuf *wb) {
    char *p = wb->sink == TYJSON__SINK_HEAP ? wb->buf : NULL;
    if (p) {
        wb->buf = NULL;
        wb->cap = 0;
        use_scratch(wb);
    }
    return p;
}

void tyjson__wbuf_release(tyjson__wbuf *wb) {
    if (wb->sink == TYJSON__SINK_HEAP && wb->buf) {
        tyjson__free(&wb->alc, wb->buf);
        wb->buf = NULL;
        wb->cap = 0;
        use_scratch(wb);
    }
}

char *tyjson__wbuf_finish_heap(tyjson__wbuf *wb, usize *len) {
    usize n = tyjson__wbuf_size(wb), cap = wb->cap;
    char *text = tyjson__wbuf_take(wb);
    if (cap - (n + 1) > 65536 && n + 1 < cap / 4) {
        char *t = (char *)tyjson__realloc(&wb->alc, text, cap, n + 1);
        if (t) text = t;
    }
    if (len) *len = n;
    return text;
}
