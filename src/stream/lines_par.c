/*
 * stream/lines_par.c - NDJSON on several threads. The calling thread frames
 * lines with the iterator's own framer (so lines, numbers, offsets and
 * errors are those of the sequential calls) into a ring of batches: line
 * positions into the caller's buffer, or copies of the lines from a stream.
 * Batch k is parsed by worker k % threads. In order mode the calling thread
 * delivers the batches in input order as they complete and refills them;
 * in per-thread mode the workers call back themselves and the calling
 * thread only keeps the counts and errors, in order. The ring bounds how
 * far the workers run ahead, and so the memory.
 */
#include "stream/lines_impl.h"

#if defined(TYJSON_HAVE_PTHREADS) && TYJSON_HAVE_PTHREADS
#  include <pthread.h>
#  define HAVE_THREADS 1
#else
#  define HAVE_THREADS 0
#endif

#if !defined(__STDC_NO_ATOMICS__)
#  include <stdatomic.h>
#  define STOP_T atomic_int
#  define STOP_GET(x) atomic_load_explicit(&(x), memory_order_relaxed)
#  define STOP_SET(x) atomic_store_explicit(&(x), 1, memory_order_relaxed)
#else
#  define STOP_T int volatile
#  define STOP_GET(x) (x)
#  define STOP_SET(x) ((x) = 1)
#endif

/* A batch closes at whichever comes first. On the calling thread alone the
 * batches are small, so that its documents are still in the cache when
 * they are delivered (a 256 KiB batch cost a third of the speed there);
 * for workers they are large, so that handing them over costs little.
 * Documents delivered in order take a middle size: the calling thread
 * reads every document a worker built, and from 256 KiB batches (about
 * 1 MiB of documents each, six in flight on 2 threads) they had left the
 * caches by then: the callback's median cost per record went from 150 to
 * 400-1450 cycles, and the run took 1.8x the CPU time of the sequential loop;
 * with 64 KiB, 1.3x (docs/perf-log.md, "nd1"). Typed records (a struct and
 * the line read back) and per-thread delivery keep 256 KiB, where fewer
 * hand-overs pay more. */
#define BATCH_BYTES ((usize)256 * 1024)
#define DOC_BATCH_BYTES ((usize)64 * 1024)
#define BATCH_LINES ((usize)4096)
usize tyjson__lines_batch_bytes = 0;
#define INLINE_BATCH_BYTES ((usize)16 * 1024)
#define INLINE_BATCH_LINES ((usize)256)
/* Batches in flight per worker. */
#define RING_PER_THREAD 3u
#define NO_ERROR SIZE_MAX

typedef struct prec {
    usize pos, full, len, line, offset;
    tyjson_status st; /* framing's verdict, then the parse's */
    usize eix;        /* index in the batch's errors, or NO_ERROR */
} prec;

typedef struct pbatch {
    char *buf; /* stream sources: the lines' bytes */
    usize cap, used;
    const char *base; /* where prec.pos points into */
    prec *recs;
    usize n, rcap;
    tyjson_doc **docs; /* docs mode: one per record */
    usize dcap;
    void **preps; /* with a prep hook: its result per record */
    usize pcap;
    char *vals; /* typed mode: n structs */
    usize vcap;
    tyjson_error *errs;
    usize ne, ecap;
    tyjson_arena arena;
    usize done_n;       /* records the worker processed */
    usize stale;        /* docs[0..stale) delivered, for the worker to free */
    tyjson_status fail; /* what stopped the worker (E_NOMEM...), or OK */
    tyjson_error fail_err;
    unsigned thread;
    int ready; /* under the mutex: the worker is done with it */
    /* chunk mode: the bytes [chunk_beg, chunk_end) of the caller's buffer,
     * framed by the worker; chunk_lines is their count of lines (blank ones
     * too), and the lines' numbers are counted from 1 until delivery */
    usize chunk_beg, chunk_end, chunk_lines;
} pbatch;

typedef struct prun {
    tyjson_lines *it;
    unsigned threads;
    tyjson_struct *type;
    tyjson_decode_flags dflags;
    tyjson_lines_fn fn;
    tyjson_lines_prep_fn prep; /* or NULL */
    void *ctx;
    bool per_thread;
    bool threaded;  /* workers: they free what they allocated (below) */
    bool chunked;   /* workers frame their own chunks (see cut_chunk) */
    usize line_base; /* chunk mode: lines before the next batch to deliver */
    usize batch_bytes, batch_lines;
    pbatch *ring;
    usize nring;
    usize filled;  /* batches handed to the workers */
    bool closed;   /* under the mutex: no batch will be added */
    STOP_T stop;   /* stop parsing and calling back */
    STOP_T cb_stop; /* a per-thread callback said stop */
#if HAVE_THREADS
    pthread_mutex_t mu;
    /* Each worker waits on a condition of its own (pworker.cv) and the
     * calling thread on done_cv, signalled only for the batch it waits for
     * (wait_seq): one broadcast per batch each way woke every worker for
     * every batch and the calling thread for batches it was not waiting
     * for, which went back to sleep. */
    pthread_cond_t done_cv;
    usize wait_seq; /* under the mutex: the batch the calling thread waits for, or NO_WAIT */
    struct pworker *ws;
    unsigned nws; /* workers whose condition is initialised */
#endif
} prun;

/* ----------------------------------------------------------------------------
 * MARK: - Batches
 * ------------------------------------------------------------------------- */

/* Grows *p (elem-sized items, *cap of them) to hold `need`; false when
 * memory runs out. */
static bool grow_array(const tyjson_alloc *alc, void **p, usize *cap, usize need, usize elem) {
    if (need <= *cap) return true;
    usize ncap = *cap ? *cap : 64;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2) return false;
        ncap *= 2;
    }
    usize bytes, old = *cap * elem;
    if (tyjson__mul_ovf(ncap, elem, &bytes)) return false;
    void *np = *p ? tyjson__realloc(alc, *p, old, bytes) : tyjson__malloc(alc, bytes);
    if (!np) return false;
    *p = np;
    *cap = ncap;
    return true;
}

static bool push_error(const tyjson_alloc *alc, pbatch *b, const tyjson_error *e, usize *ix) {
    void *p = b->errs;
    if (!grow_array(alc, &p, &b->ecap, b->ne + 1, sizeof(tyjson_error))) return false;
    b->errs = (tyjson_error *)p;
    b->errs[b->ne] = *e;
    *ix = b->ne++;
    return true;
}

static void batch_free(const tyjson_alloc *alc, pbatch *b) {
    tyjson__free(alc, b->buf);
    tyjson__free(alc, b->recs);
    tyjson__free(alc, b->docs);
    tyjson__free(alc, b->preps);
    tyjson__free(alc, b->vals);
    tyjson__free(alc, b->errs);
    tyjson_arena_free(&b->arena);
}

/* Frames lines into b until it is full or the input ends. Returns OK, or
 * the framer's E_IO/E_NOMEM (in *err; the lines before it are in b).
 * *end is set when no line follows. */
static tyjson_status fill_batch(prun *r, tyjson_lines *it, pbatch *b, usize max_lines,
                                usize max_bytes, bool *end, tyjson_error *err) {
    const tyjson_alloc *alc = &it->cfg.alc;
    usize bytes = 0;
    tyjson_status res = TYJSON_OK;
    tyjson_error e;
    b->n = b->used = b->ne = b->done_n = 0;
    b->fail = TYJSON_OK;
    while (b->n < max_lines && bytes < max_bytes) {
        tyjson_status st = tyjson__lines_frame(it, &e);
        if (st == TYJSON_DONE) {
            *end = true;
            break;
        }
        if (st != TYJSON_OK && st != TYJSON_E_SIZE) {
            /* the source failed: the lines before it still run */
            *end = true;
            *err = e;
            res = st;
            break;
        }
        void *p = b->recs;
        if (!grow_array(alc, &p, &b->rcap, b->n + 1, sizeof(prec))) goto nomem;
        b->recs = (prec *)p;
        prec *rc = &b->recs[b->n];
        rc->line = it->line;
        rc->offset = it->offset;
        rc->st = st;
        rc->eix = NO_ERROR;
        rc->pos = rc->full = rc->len = 0;
        if (st == TYJSON_E_SIZE) {
            if (!push_error(alc, b, &e, &rc->eix)) goto nomem;
        } else if (it->in_place) {
            rc->pos = (usize)(it->rec - it->buf);
            rc->full = it->rec_full;
            rc->len = it->rec_len;
        } else {
            usize need;
            if (tyjson__add_ovf(b->used, it->rec_full, &need)) goto nomem;
            if (need > b->cap) {
                usize ncap = b->cap ? b->cap : r->batch_bytes + 4096;
                while (ncap < need) ncap = ncap <= SIZE_MAX / 2 ? ncap * 2 : need;
                char *nb = b->buf ? (char *)tyjson__realloc(alc, b->buf, b->cap, ncap)
                                  : (char *)tyjson__malloc(alc, ncap);
                if (!nb) goto nomem;
                b->buf = nb;
                b->cap = ncap;
            }
            memcpy(b->buf + b->used, it->rec, it->rec_full);
            rc->pos = b->used;
            rc->full = it->rec_full;
            rc->len = it->rec_len;
            b->used = need;
        }
        b->n++;
        bytes += it->rec_full + 1;
    }
    b->base = it->in_place ? it->buf : b->buf;
    if (r->type) {
        usize need;
        void *p = b->vals;
        if (tyjson__mul_ovf(b->n, r->type->size, &need) ||
            !grow_array(alc, &p, &b->vcap, need, 1))
            goto nomem;
        b->vals = (char *)p;
    } else {
        void *p = b->docs;
        usize old = b->dcap;
        if (!grow_array(alc, &p, &b->dcap, b->n, sizeof(tyjson_doc *))) goto nomem;
        b->docs = (tyjson_doc **)p;
        /* entries past the ones in use are NULL (the freeing loops rely on it) */
        if (b->dcap > old) memset(b->docs + old, 0, (b->dcap - old) * sizeof(tyjson_doc *));
        if (r->prep) {
            p = b->preps;
            if (!grow_array(alc, &p, &b->pcap, b->n, sizeof(void *))) goto nomem;
            b->preps = (void **)p;
        }
    }
    return res;
nomem:
    /* the lines framed so far are not in the batch: nothing of it runs */
    b->n = 0;
    *end = true;
    tyjson__lines_fail(it, TYJSON_E_NOMEM);
    tyjson__err_set(err, TYJSON_E_NOMEM, NULL, 0, 0);
    return TYJSON_E_NOMEM;
}

/* Chunk mode, for the caller's buffer in input order: the calling thread
 * only cuts the input at a line end about batch_bytes ahead, and the
 * worker frames the chunk's lines itself, with the same framer (an
 * iterator over the chunk alone, numbering its lines from 1), before
 * parsing them. Framing on the calling thread left the lines in that
 * core's cache and the worker read them from there (its input copy took
 * 10% of its time against 2.4% in the sequential loop), and the framing
 * competed with the workers for the cores. The lines' numbers are made
 * whole at delivery, in order (number_chunk). Returns false when no byte
 * is left. */
static bool cut_chunk(prun *r, pbatch *b) {
    tyjson_lines *it = r->it;
    usize beg = it->beg, cut;
    if (it->done || beg >= it->end) {
        it->beg = it->scan = it->end;
        it->done = true;
        return false;
    }
    cut = it->end - beg > r->batch_bytes ? beg + r->batch_bytes : it->end;
    if (cut < it->end) {
        const char *nl = (const char *)memchr(it->buf + cut, '\n', it->end - cut);
        cut = nl ? (usize)(nl - it->buf) + 1 : it->end;
    }
    b->chunk_beg = beg;
    b->chunk_end = cut; /* the worker's framing (fill_batch) resets the rest of b */
    it->beg = it->scan = cut;
    if (cut == it->end) it->done = true;
    return true;
}

/* The worker's framing of its chunk into b (records numbered from 1). */
static void frame_chunk(prun *r, pbatch *b) {
    tyjson_lines sub;
    tyjson_error e;
    bool end = false;
    memset(&sub, 0, sizeof(sub));
    sub.cfg = r->it->cfg;
    sub.buf = r->it->buf + b->chunk_beg;
    sub.end = b->chunk_end - b->chunk_beg;
    sub.base = r->it->base + b->chunk_beg;
    sub.next_line = 1;
    sub.eof = true;
    sub.in_place = true;
    tyjson_status st = fill_batch(r, &sub, b, SIZE_MAX, SIZE_MAX, &end, &e);
    b->chunk_lines = sub.next_line - 1;
    if (st != TYJSON_OK) { /* only E_NOMEM: a buffer cannot fail to read */
        b->fail = st;
        b->fail_err = e;
    }
}

/* At delivery, in input order: the chunk's line numbers become the
 * input's, and the iterator's line count and place move past the chunk. */
static void number_chunk(prun *r, pbatch *b) {
    tyjson_lines *it = r->it;
    usize add = r->line_base;
    for (usize i = 0; i < b->n; i++) {
        prec *rc = &b->recs[i];
        rc->line += add;
        if (rc->eix != NO_ERROR && b->errs[rc->eix].line) b->errs[rc->eix].line += add;
    }
    if (b->n) {
        it->line = b->recs[b->n - 1].line;
        it->offset = b->recs[b->n - 1].offset;
    }
    r->line_base += b->chunk_lines;
    it->next_line = r->line_base + 1;
}

static void make_item(const prun *r, const pbatch *b, usize i, tyjson_lines_item *item) {
    const prec *rc = &b->recs[i];
    memset(item, 0, sizeof(*item));
    item->line = rc->line;
    item->offset = rc->offset;
    item->thread = b->thread;
    if (rc->st == TYJSON_E_SIZE) {
        item->dat = NULL;
    } else {
        item->dat = b->base + rc->pos;
        item->len = rc->len;
        item->full = rc->full;
    }
    if (rc->st == TYJSON_OK) {
        if (r->type) item->value = b->vals + i * r->type->size;
        else item->doc = b->docs[i];
        if (r->prep) item->prepared = b->preps[i];
    } else if (rc->eix != NO_ERROR) {
        item->error = &b->errs[rc->eix];
    }
}

/* A worker's share: parse every record of b (and call back, per thread). */
/* The documents and arena of the batch's last use, freed by the worker
 * that made them: with glibc, a block freed on another thread goes back
 * through its arena's lock, which the workers would fight over with the
 * calling thread. (Batch k and k + ring size go to the same worker.) */
static void release_stale(pbatch *b, bool in_arena) {
    if (in_arena) {
        /* the documents live in the arena, whose reset frees them all:
         * freeing each would only read its header back from the core that
         * delivered it */
        if (b->stale) memset(b->docs, 0, b->stale * sizeof(tyjson_doc *));
    } else {
        for (usize i = 0; i < b->stale; i++) {
            tyjson_doc_free(b->docs[i]);
            b->docs[i] = NULL;
        }
    }
    b->stale = 0;
    tyjson_arena_reset(&b->arena);
}

static void process_batch(prun *r, pbatch *b, unsigned thread) {
    const tyjson__lines_cfg *cfg = &r->it->cfg;
    bool keep_going = !(cfg->flags & TYJSON_LINES_CONTINUE);
    tyjson_error e;
    /* Workers build a batch's documents in the batch's arena, which the
     * next use of the batch resets (release_stale): thousands of documents
     * are alive between parse and delivery, more than malloc's per-thread
     * cache holds, so each came from the locked arena path and fresh pages
     * (a third more CPU than the sequential loop); the arena's kept block
     * is reused warm, batch after batch. The documents' own frees are
     * no-ops there. (On the calling thread alone each document is freed
     * right after its callback, and malloc reuses it at once.) */
    tyjson__lines_cfg arena_cfg;
    const tyjson__lines_cfg *parse_cfg = cfg; /* the batch's own arrays stay on cfg->alc */
    if (r->threaded && !r->type) {
        arena_cfg = *cfg;
        arena_cfg.alc = tyjson_arena_allocator(&b->arena);
        parse_cfg = &arena_cfg;
    }
    release_stale(b, parse_cfg != cfg);
    b->thread = thread;
    if (r->chunked) frame_chunk(r, b);
    for (usize i = 0; i < b->n; i++) {
        if (STOP_GET(r->stop)) break;
        prec *rc = &b->recs[i];
        if (rc->st == TYJSON_OK) {
            tyjson_doc **dp = r->type ? NULL : &b->docs[i];
            void *out = r->type ? b->vals + i * r->type->size : NULL;
            tyjson_status st =
                tyjson__lines_parse(parse_cfg, b->base + rc->pos, rc->full, rc->line, rc->offset, dp,
                                    r->type, out, &b->arena, r->dflags, &e);
            if (st != TYJSON_OK) {
                if (dp) *dp = NULL;
                if (!tyjson__lines_is_bad(st)) {
                    b->fail = st;
                    b->fail_err = e;
                    break;
                }
                rc->st = st;
                if (!push_error(&cfg->alc, b, &e, &rc->eix)) {
                    rc->st = TYJSON_OK; /* not a verdict on the line */
                    b->fail = TYJSON_E_NOMEM;
                    tyjson__err_set(&b->fail_err, TYJSON_E_NOMEM, NULL, 0, 0);
                    break;
                }
            } else if (r->prep) {
                /* the line is numbered at delivery (chunk mode): 0 here */
                tyjson_lines_item item;
                b->preps[i] = NULL;
                make_item(r, b, i, &item);
                item.line = 0;
                b->preps[i] = r->prep(r->ctx, &item, &b->arena);
            }
        }
        b->done_n = i + 1;
        if (r->per_thread && (rc->st == TYJSON_OK || keep_going)) {
            tyjson_lines_item item;
            make_item(r, b, i, &item);
            item.batch_end = true;
            if (r->fn(r->ctx, &item) != 0) {
                STOP_SET(r->cb_stop);
                STOP_SET(r->stop);
            }
            if (item.doc) {
                tyjson_doc_free(b->docs[i]);
                b->docs[i] = NULL;
            }
        }
    }
}

/* The calling thread's share of a finished batch, in input order: count,
 * keep errors, call back (order mode), free the documents. Returns OK, or
 * what ends the run (E_CALLBACK, the worker's E_NOMEM). */
static tyjson_status deliver_batch(prun *r, pbatch *b, bool stopped, tyjson_error *err) {
    tyjson_lines *it = r->it;
    bool cont = (it->cfg.flags & TYJSON_LINES_CONTINUE) != 0;
    tyjson_status res = TYJSON_OK;
    if (r->chunked) number_chunk(r, b);
    /* the last record called back (item.batch_end): after it the calling
     * thread cuts, reads or waits (a stop or a failed error note ends the
     * calls earlier, and then the run) */
    usize last_call = b->done_n;
    for (usize i = b->done_n; !r->per_thread && i-- > 0;) {
        if (b->recs[i].st == TYJSON_OK || !cont) {
            last_call = i;
            break;
        }
    }
    for (usize i = 0; i < b->done_n; i++) {
        prec *rc = &b->recs[i];
        bool call = !r->per_thread && !stopped && res == TYJSON_OK;
        if (rc->st == TYJSON_OK) {
            if (call || r->per_thread) it->records++;
        } else if (call || r->per_thread) {
            if (!tyjson__lines_note_bad(it, &b->errs[rc->eix])) {
                res = TYJSON_E_NOMEM;
                tyjson__err_set(err, res, NULL, 0, 0);
                call = false;
            }
            if (cont) call = false;
        }
        if (call) {
            tyjson_lines_item item;
            make_item(r, b, i, &item);
            item.batch_end = i == last_call;
            if (r->fn(r->ctx, &item) != 0) {
                res = TYJSON_E_CALLBACK;
                tyjson__err_set(err, res, NULL, 0, 0);
            }
        }
        if (!r->type && !r->threaded && b->docs[i]) {
            tyjson_doc_free(b->docs[i]);
            b->docs[i] = NULL;
        }
    }
    if (r->threaded && !r->type) b->stale = b->done_n;
    if (res == TYJSON_OK && !stopped && b->fail != TYJSON_OK) {
        res = b->fail;
        *err = b->fail_err;
        tyjson__lines_fail(it, res);
    }
    return res;
}

/* ----------------------------------------------------------------------------
 * MARK: - Running
 * ------------------------------------------------------------------------- */

/* Everything on the calling thread, batch after batch. */
static tyjson_status run_inline(prun *r, tyjson_error *err) {
    pbatch *b = &r->ring[0];
    bool end = false;
    tyjson_status res = TYJSON_OK;
    while (!end && res == TYJSON_OK) {
        tyjson_status fs = fill_batch(r, r->it, b, r->batch_lines, r->batch_bytes, &end, err);
        process_batch(r, b, 0);
        res = deliver_batch(r, b, false, err);
        if (res == TYJSON_OK && STOP_GET(r->cb_stop)) {
            res = TYJSON_E_CALLBACK;
            tyjson__err_set(err, res, NULL, 0, 0);
        }
        if (res == TYJSON_OK && fs != TYJSON_OK) res = fs;
    }
    return res;
}

#if HAVE_THREADS
#define NO_WAIT SIZE_MAX

typedef struct pworker {
    prun *run;
    unsigned index;
    pthread_t tid;
    pthread_cond_t cv; /* a batch for it, or the run closed */
} pworker;

static void *worker_main(void *arg) {
    pworker *w = (pworker *)arg;
    prun *r = w->run;
    usize seq = w->index;
    pthread_mutex_lock(&r->mu);
    for (;;) {
        while (seq >= r->filled && !r->closed) pthread_cond_wait(&w->cv, &r->mu);
        if (seq >= r->filled) break;
        pbatch *b = &r->ring[seq % r->nring];
        pthread_mutex_unlock(&r->mu);
        process_batch(r, b, w->index);
        pthread_mutex_lock(&r->mu);
        b->ready = 1;
        if (r->wait_seq == seq) pthread_cond_signal(&r->done_cv);
        seq += r->threads;
    }
    pthread_mutex_unlock(&r->mu);
    return NULL;
}

static void close_run(prun *r) {
    pthread_mutex_lock(&r->mu);
    r->closed = true;
    for (unsigned i = 0; i < r->nws; i++) pthread_cond_signal(&r->ws[i].cv);
    pthread_mutex_unlock(&r->mu);
}

static tyjson_status run_threads(prun *r, pworker *ws, tyjson_error *err) {
    usize delivered = 0;
    bool end = false, stopped = false;
    tyjson_status res = TYJSON_OK, fill_res = TYJSON_OK;
    tyjson_error fill_err;
    for (;;) {
        while (!end && !stopped && r->filled - delivered < r->nring) {
            pbatch *b = &r->ring[r->filled % r->nring];
            if (r->chunked) {
                if (!cut_chunk(r, b)) {
                    end = true;
                    break;
                }
                end = r->it->done;
            } else {
                tyjson_status fs = fill_batch(r, r->it, b, r->batch_lines, r->batch_bytes, &end,
                                              &fill_err);
                if (fs != TYJSON_OK) fill_res = fs;
                if (b->n == 0) break;
            }
            pthread_mutex_lock(&r->mu);
            b->ready = 0;
            pthread_cond_signal(&ws[r->filled % r->threads].cv); /* batch k is worker k % threads's */
            r->filled++;
            pthread_mutex_unlock(&r->mu);
        }
        if (end || stopped) close_run(r);
        if (delivered == r->filled) break;
        pbatch *b = &r->ring[delivered % r->nring];
        pthread_mutex_lock(&r->mu);
        while (!b->ready) {
            r->wait_seq = delivered;
            pthread_cond_wait(&r->done_cv, &r->mu);
        }
        r->wait_seq = NO_WAIT;
        pthread_mutex_unlock(&r->mu);
        tyjson_status ds = deliver_batch(r, b, stopped, err);
        if (!stopped && ds == TYJSON_OK && STOP_GET(r->cb_stop)) {
            ds = TYJSON_E_CALLBACK;
            tyjson__err_set(err, ds, NULL, 0, 0);
        }
        if (!stopped && ds != TYJSON_OK) {
            res = ds;
            stopped = true;
            STOP_SET(r->stop);
        }
        delivered++;
    }
    close_run(r);
    for (unsigned i = 0; i < r->threads; i++) pthread_join(ws[i].tid, NULL);
    if (res == TYJSON_OK && fill_res != TYJSON_OK) {
        res = fill_res;
        *err = fill_err;
    }
    return res;
}
#endif

static tyjson_status run_parallel(tyjson_lines *it, unsigned threads, tyjson_struct *type,
                                  tyjson_decode_flags dflags, tyjson_lines_prep_fn prep,
                                  tyjson_lines_fn fn, void *ctx, tyjson_error *err) {
    tyjson_error local;
    tyjson_error *e = err ? err : &local;
    if (!it || !fn) {
        tyjson__err_set(e, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return TYJSON_E_INVALID_ARG;
    }
    if (it->fatal) {
        tyjson__err_set(e, TYJSON_E_STATE, NULL, 0, 0);
        tyjson__err_msg(e, "the iterator already failed");
        return TYJSON_E_STATE;
    }
    /* workers must not race on the type's first preparation */
    if (type) {
        tyjson_status ps = tyjson_struct_prepare(type, e);
        if (ps != TYJSON_OK) return ps;
    }
    if (threads == 0) threads = 2;
#if !HAVE_THREADS
    threads = 1;
#endif
    const tyjson_alloc *alc = &it->cfg.alc;
    prun r;
    memset(&r, 0, sizeof(r));
    r.it = it;
    r.threads = threads;
    r.type = type;
    r.dflags = dflags;
    r.fn = fn;
    r.prep = prep;
    r.ctx = ctx;
    r.per_thread = (it->cfg.flags & TYJSON_LINES_PER_THREAD) != 0;
    r.nring = threads > 1 ? (usize)threads * RING_PER_THREAD : 1;
    usize bytes;
    if (tyjson__mul_ovf(r.nring, sizeof(pbatch), &bytes) ||
        !(r.ring = (pbatch *)tyjson__malloc(alc, bytes))) {
        tyjson__err_set(e, TYJSON_E_NOMEM, NULL, 0, 0);
        return TYJSON_E_NOMEM;
    }
    memset(r.ring, 0, bytes);
    for (usize i = 0; i < r.nring; i++) tyjson_arena_init(&r.ring[i].arena, alc);
    tyjson__err_ok(e);
    tyjson_status res;
#if HAVE_THREADS
    pworker *ws = NULL;
    unsigned started = 0;
    if (threads > 1 && (ws = (pworker *)tyjson__malloc(alc, threads * sizeof(pworker)))) {
        pthread_mutex_init(&r.mu, NULL);
        pthread_cond_init(&r.done_cv, NULL);
        r.wait_seq = NO_WAIT;
        r.ws = ws;
        for (; r.nws < threads; r.nws++) pthread_cond_init(&ws[r.nws].cv, NULL);
        for (; started < threads; started++) {
            ws[started].run = &r;
            ws[started].index = started;
            if (pthread_create(&ws[started].tid, NULL, worker_main, &ws[started]) != 0) break;
        }
    }
    r.batch_bytes = INLINE_BATCH_BYTES;
    r.batch_lines = INLINE_BATCH_LINES;
    if (ws && started == threads) {
        r.threaded = true;
        r.batch_bytes = tyjson__lines_batch_bytes ? tyjson__lines_batch_bytes
                        : type || r.per_thread ? BATCH_BYTES
                                               : DOC_BATCH_BYTES;
        r.batch_lines = BATCH_LINES;
        /* the caller's buffer, delivered in order: workers frame their chunks */
        r.chunked = it->in_place && !r.per_thread;
        r.line_base = it->next_line - 1;
        res = run_threads(&r, ws, e);
    } else {
        /* no threads to be had: the same work on this one */
        if (ws) {
            close_run(&r);
            for (unsigned i = 0; i < started; i++) pthread_join(ws[i].tid, NULL);
        }
        r.threads = 1;
        res = run_inline(&r, e);
    }
    if (ws) {
        pthread_cond_destroy(&r.done_cv);
        for (unsigned i = 0; i < r.nws; i++) pthread_cond_destroy(&ws[i].cv);
        pthread_mutex_destroy(&r.mu);
        tyjson__free(alc, ws);
    }
#else
    r.batch_bytes = INLINE_BATCH_BYTES;
    r.batch_lines = INLINE_BATCH_LINES;
    res = run_inline(&r, e);
#endif
    for (usize i = 0; i < r.nring; i++) {
        r.ring[i].stale = r.ring[i].dcap; /* NULL past the ones in use */
        release_stale(&r.ring[i], r.threaded && !r.type);
        batch_free(alc, &r.ring[i]);
    }
    tyjson__free(alc, r.ring);
    return res;
}

tyjson_status tyjson_lines_parallel_docs(tyjson_lines *it, unsigned threads, tyjson_lines_fn fn,
                                         void *ctx, tyjson_error *err) {
    return run_parallel(it, threads, NULL, 0, NULL, fn, ctx, err);
}

tyjson_status tyjson_lines_parallel_prep(tyjson_lines *it, unsigned threads,
                                         tyjson_lines_prep_fn prep, tyjson_lines_fn fn, void *ctx,
                                         tyjson_error *err) {
    if (!prep) {
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return TYJSON_E_INVALID_ARG;
    }
    return run_parallel(it, threads, NULL, 0, prep, fn, ctx, err);
}

tyjson_status tyjson_lines_parallel_decode(tyjson_lines *it, unsigned threads,
                                           tyjson_struct *type, tyjson_decode_flags flags,
                                           tyjson_lines_fn fn, void *ctx, tyjson_error *err) {
    if (!type) {
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return TYJSON_E_INVALID_ARG;
    }
    return run_parallel(it, threads, type, flags, NULL, fn, ctx, err);
}

int tyjson_lines_have_threads(void) { return HAVE_THREADS; }
