/*
 * tyjson/writer.h - the streaming writer: JSON text built call by call
 * (begin an object, a key, a value, ...), with no document in between.
 *
 *     tyjson_writer *w = tyjson_writer_new(NULL);           // growing buffer
 *     for (i = 0; i < n; i++) {
 *         tyjson_writer_reset(w);                           // memory kept
 *         tyjson_writer_begin_object(w);
 *         tyjson_writer_key_noesc(w, "ID", 2);
 *         tyjson_writer_int(w, i);
 *         tyjson_writer_key(w, name, name_len);
 *         tyjson_writer_string(w, text, text_len);
 *         tyjson_writer_end_object(w);
 *         if (tyjson_writer_finish(w, &len) != TYJSON_OK) ...   // err: tyjson_writer_error
 *         send(tyjson_writer_text(w), len);
 *     }
 *     tyjson_writer_free(w);
 *
 * Sinks: a growing buffer reused across messages (tyjson_writer_new;
 * tyjson_writer_reset keeps its memory), the caller's buffer
 * (tyjson_writer_new_buf; the size needed is reported when it is too small),
 * a stdio stream (tyjson_writer_new_fp) and a callback fed in pieces of
 * flush_threshold bytes (tyjson_writer_new_cb).
 *
 * Output is exactly the DOM writer's (tyjson_write_opts) for the same value
 * and flags: minified or pretty (TYJSON_WRITE_PRETTY, `indent` spaces a
 * level), the same escaping flags, numbers by the same rules.
 *
 * Misuse is an error, never bad JSON: a value where a key is due, a key
 * outside an object, an end without its begin (or the wrong end), a second
 * root value without tyjson_writer_end_message, finishing with containers
 * open, NaN or an infinity without TYJSON_WRITE_ALLOW_INF_NAN, nesting
 * deeper than max_depth. Errors are sticky: the first is kept (with the
 * writer's path, such as `$.orders[3].price`, in tyjson_error.path) and
 * every later call does nothing and returns it, so a caller may check only
 * the status of tyjson_writer_finish. Calls out of order return
 * TYJSON_E_STATE.
 *
 * Memory: tyjson_writer_new* makes one allocation (the writer, its container
 * stack of max_depth levels and its scratch chunk) from opts->alc; the
 * growing buffer comes from the same allocator and grows by 1.5x. Nothing
 * else is allocated, so a writer that has once held the largest message
 * allocates nothing more. No recursion at any depth.
 *
 * Thread-safety: a writer is used by one thread at a time.
 */
#ifndef TYJSON_WRITER_H
#define TYJSON_WRITER_H

#include "bind.h"
#include "num_int.h"
#include "str_clean.h"
#include "write.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A streaming writer (opaque): made by tyjson_writer_new*, released by
 *  tyjson_writer_free. */
typedef struct tyjson_writer tyjson_writer;

/** Options of a writer; all zero (or a NULL pointer) is minified output,
 *  depth limit TYJSON_DEFAULT_MAX_DEPTH, 16 KiB flushes, libc memory. */
typedef struct tyjson_writer_options {
    /** TYJSON_WRITE_* bits: PRETTY, ESCAPE_UNICODE, ESCAPE_SLASH,
     *  ALLOW_INF_NAN, REPLACE_INVALID_UTF8 as for the DOM writer;
     *  NEWLINE_AT_END ends the text with '\n' at tyjson_writer_finish. */
    tyjson_write_flags flags;
    /** Spaces per level with TYJSON_WRITE_PRETTY; 0 means 2. */
    uint32_t indent;
    /** Deepest nesting allowed (TYJSON_E_DEPTH beyond); 0 means
     *  TYJSON_DEFAULT_MAX_DEPTH. The container stack is sized by it. */
    uint32_t max_depth;
    /** FILE and callback sinks: bytes gathered before each write; 0 means
     *  16384; values below 4096 mean 4096. */
    size_t flush_threshold;
    /** Allocator of the writer and of its growing buffer; NULL means libc. */
    const tyjson_alloc *alc;
} tyjson_writer_options;

/* ----------------------------------------------------------------------------
 * PRIVATE: the writer's hot state, for the inline fast paths below. Not
 * part of the API: every name here is tyjson__ / TYJSON__ and may change in
 * any release; never touch these fields (src/stream/writer.c owns them).
 *
 * A tyjson_writer starts with a tyjson__writer_head (its first member, so
 * a pointer to the writer is a pointer to its head: no type punning). The
 * inline calls (containers, keys, strings, integers, booleans, null) take the fast
 * path when the writer is minified, the state allows the call and the
 * window [cur, end) has room; anything else (pretty output, growth and
 * flushing, long or escaped strings, misuse, errors) calls the library's
 * out-of-line tyjson__writer_*_slow, which does all the checks.
 * ------------------------------------------------------------------------- */

/* States of the writer (what may come next); src/stream/writer.c. */
#define TYJSON__WST_ROOT 0u      /* a root value is due */
#define TYJSON__WST_ARR_FIRST 1u /* in an array, no element yet */
#define TYJSON__WST_ARR_NEXT 2u  /* in an array after an element */
#define TYJSON__WST_OBJ_FIRST 3u /* in an object, first key due */
#define TYJSON__WST_OBJ_NEXT 4u  /* in an object, a key due after a member */
#define TYJSON__WST_OBJ_VAL 5u   /* in an object, the value of a key due */
#define TYJSON__WST_ROOT_DONE 6u /* the root value is complete */
#define TYJSON__WST_FINISHED 7u  /* tyjson_writer_finish was called */
#define TYJSON__WST_ERROR 8u     /* the first error is kept */
/* The state after a value, 4 bits per state: ROOT -> ROOT_DONE,
 * ARR_FIRST and ARR_NEXT -> ARR_NEXT, OBJ_VAL -> OBJ_NEXT (the others
 * allow no value). */
#define TYJSON__WST_NEXT                                                                   \
    (0x6ull | 0x2ull << 4 | 0x2ull << 8 | 0x8ull << 12 | 0x8ull << 16 | 0x4ull << 20 |   \
     0x8ull << 24 | 0x8ull << 28 | 0x8ull << 32)
/* Bytes of a key kept per level for the error path. */
#define TYJSON__WKEY_KEEP 16u
/* Longest string or key of the inline noesc copy. */
#define TYJSON__WNOESC_FAST 256u

/* One open container (frame 0 is the root). */
typedef struct tyjson__writer_frame {
    uint32_t index;                 /* children written (array index of the next one) */
    uint32_t klen;                  /* length of the last key (objects), saturated */
    uint8_t after;                  /* parent's state once this container closes */
    uint8_t obj;                    /* object (1) or array (0); the root frame: 0 */
    uint8_t pad[6];
    char key[TYJSON__WKEY_KEEP];    /* the last key's first bytes */
} tyjson__writer_frame;

/* The states where each inline call may take its fast path. */
#define TYJSON__WST_VALUE_OK 0x27u  /* ROOT, ARR_FIRST, ARR_NEXT, OBJ_VAL */
#define TYJSON__WST_KEY_OK 0x18u    /* OBJ_FIRST, OBJ_NEXT: a key or end_object */
#define TYJSON__WST_ENDARR_OK 0x06u /* ARR_FIRST, ARR_NEXT */

/* The hot state. Pretty output keeps end == cur (no room), so every inline
 * call takes the slow path there. Every inline call stores the cursor and
 * the state once, where its fast and slow paths meet, after the last byte
 * it wrote: so the compiler may keep both in registers from one inline
 * call to the next (a char store may alias anything, but a field stored
 * after the last one is forwarded), instead of a store and a reload
 * through memory on the chain of every call. */
typedef struct tyjson__writer_head {
    char *cur;                  /* next byte of output */
    char *end;                  /* end of the writable window (== cur when pretty) */
    tyjson__writer_frame *top;  /* innermost open container */
    tyjson__writer_frame *lim;  /* the deepest frame max_depth allows */
    uint32_t st;                /* TYJSON__WST_* */
    uint32_t sclean;            /* nonzero: strings and keys may take the inline
                                   clean-string check (no ESCAPE_SLASH) */
} tyjson__writer_head;

/* The out-of-line paths of the inline calls: every check, every mode. */
TYJSON_API tyjson_status tyjson__writer_begin_slow(tyjson_writer *w, int obj);
TYJSON_API tyjson_status tyjson__writer_end_slow(tyjson_writer *w, int obj);
TYJSON_API tyjson_status tyjson__writer_key_slow(tyjson_writer *w, const char *s, size_t n,
                                                 int noesc);
TYJSON_API tyjson_status tyjson__writer_string_slow(tyjson_writer *w, const char *s, size_t n,
                                                    int noesc);
/* which: 0 false, 1 true, 2 null */
TYJSON_API tyjson_status tyjson__writer_word_slow(tyjson_writer *w, int which);
/* neg: v is the magnitude of a negative integer */
TYJSON_API tyjson_status tyjson__writer_int_slow(tyjson_writer *w, uint64_t v, int neg);

TYJSON_INLINE tyjson__writer_head *tyjson__writer_h(tyjson_writer *w) {
    return (tyjson__writer_head *)(void *)w;
}

/* The head as an inline call holds it. */
typedef struct tyjson__writer_regs {
    char *cur, *end;
    tyjson__writer_frame *top;
    unsigned st;
} tyjson__writer_regs;

TYJSON_INLINE tyjson__writer_regs tyjson__writer_load(const tyjson__writer_head *h) {
    tyjson__writer_regs r;
    r.cur = h->cur;
    r.end = h->end;
    r.top = h->top;
    r.st = h->st;
    return r;
}

/* The single store of the cursor and the state at the end of an inline
 * call (see tyjson__writer_head; begin and end store the top frame
 * themselves); returns rc. */
TYJSON_INLINE tyjson_status tyjson__writer_store(tyjson__writer_head *h, tyjson__writer_regs r,
                                                 tyjson_status rc) {
    h->cur = r.cur;
    h->st = (uint32_t)r.st;
    return rc;
}

/* A value may start here on the fast path with room bytes free after the
 * separator. */
TYJSON_INLINE bool tyjson__writer_val_ok(const tyjson__writer_regs *r, size_t room) {
    return ((TYJSON__WST_VALUE_OK >> r->st) & 1u) && (size_t)(r->end - r->cur) > room;
}

/* The separator of a value (',' in an array after an element); returns
 * the value's first byte. */
TYJSON_INLINE char *tyjson__writer_val_sep(const tyjson__writer_regs *r) {
    char *d = r->cur;
    *d = ',';
    return d + (r->st == TYJSON__WST_ARR_NEXT);
}

/* The end of a value written on the fast path, ending at d. */
TYJSON_INLINE void tyjson__writer_val_done(tyjson__writer_regs *r, char *d) {
    r->cur = d;
    r->top->index++;
    r->st = (unsigned)((TYJSON__WST_NEXT >> (r->st * 4u)) & 15u);
}

TYJSON_INLINE tyjson_status tyjson__writer_begin(tyjson_writer *w, int obj) {
    if (w) {
        tyjson__writer_head *h = tyjson__writer_h(w);
        tyjson__writer_regs r = tyjson__writer_load(h);
        tyjson_status rc = TYJSON_OK;
        if (((TYJSON__WST_VALUE_OK >> r.st) & 1u) && r.end - r.cur >= 2 && r.top != h->lim) {
            tyjson__writer_frame *f = r.top + 1;
            char *d = tyjson__writer_val_sep(&r);
            *d++ = obj ? '{' : '[';
            f->index = 0;
            f->klen = 0;
            f->after = (uint8_t)((TYJSON__WST_NEXT >> (r.st * 4u)) & 15u);
            f->obj = (uint8_t)(obj != 0);
            r.cur = d;
            h->top = f;
            r.st = obj ? TYJSON__WST_OBJ_FIRST : TYJSON__WST_ARR_FIRST;
        } else {
            rc = tyjson__writer_begin_slow(w, obj);
            r = tyjson__writer_load(h);
        }
        return tyjson__writer_store(h, r, rc);
    }
    return tyjson__writer_begin_slow(w, obj);
}

TYJSON_INLINE tyjson_status tyjson__writer_end(tyjson_writer *w, int obj) {
    if (w) {
        tyjson__writer_head *h = tyjson__writer_h(w);
        tyjson__writer_regs r = tyjson__writer_load(h);
        tyjson_status rc = TYJSON_OK;
        if ((((obj ? TYJSON__WST_KEY_OK : TYJSON__WST_ENDARR_OK) >> r.st) & 1u) &&
            r.end != r.cur) {
            tyjson__writer_frame *f = r.top;
            *r.cur++ = obj ? '}' : ']';
            r.st = f->after;
            h->top = f - 1;
            f[-1].index++;
        } else {
            rc = tyjson__writer_end_slow(w, obj);
            r = tyjson__writer_load(h);
        }
        return tyjson__writer_store(h, r, rc);
    }
    return tyjson__writer_end_slow(w, obj);
}

/* true (1), false (0), null (2): 5 bytes stored, 4 or 5 kept. */
TYJSON_INLINE tyjson_status tyjson__writer_word(tyjson_writer *w, int which) {
    if (w) {
        tyjson__writer_head *h = tyjson__writer_h(w);
        tyjson__writer_regs r = tyjson__writer_load(h);
        tyjson_status rc = TYJSON_OK;
        if (tyjson__writer_val_ok(&r, 8)) {
            char *d = tyjson__writer_val_sep(&r);
            memcpy(d, which == 1 ? "true " : which == 0 ? "false" : "null ", 5);
            tyjson__writer_val_done(&r, d + (which == 0 ? 5 : 4));
        } else {
            rc = tyjson__writer_word_slow(w, which);
            r = tyjson__writer_load(h);
        }
        return tyjson__writer_store(h, r, rc);
    }
    return tyjson__writer_word_slow(w, which);
}

/* ----------------------------------------------------------------------------
 * MARK: - Making and ending a writer
 * ------------------------------------------------------------------------- */

/** A writer into a growing buffer of its own (read it with
 *  tyjson_writer_text). NULL when memory runs out. */
TYJSON_API tyjson_writer *tyjson_writer_new(const tyjson_writer_options *opts);
/** A writer into the caller's buffer of cap bytes (buf may be NULL when cap
 *  is 0, to measure). Nothing is written past cap: when the text does not
 *  fit, tyjson_writer_finish returns TYJSON_E_BUF_TOO_SMALL and reports the
 *  length needed (plus 1 for the NUL). NULL when memory runs out or for a
 *  NULL buf with cap > 0. */
TYJSON_API tyjson_writer *tyjson_writer_new_buf(char *buf, size_t cap,
                                                const tyjson_writer_options *opts);
/** A writer to a stdio stream (which stays the caller's and open), written
 *  in pieces of flush_threshold bytes and at tyjson_writer_finish and
 *  tyjson_writer_flush. NULL for a NULL fp or when memory runs out. */
TYJSON_API tyjson_writer *tyjson_writer_new_fp(FILE *fp, const tyjson_writer_options *opts);
/** A writer that hands its text to fn(ctx, data, len) in pieces of at most
 *  flush_threshold bytes, when that much has gathered and at
 *  tyjson_writer_finish and tyjson_writer_flush; a non-zero return from fn
 *  is TYJSON_E_CALLBACK. NULL for a NULL fn or when memory runs out. */
TYJSON_API tyjson_writer *tyjson_writer_new_cb(tyjson_write_fn fn, void *ctx,
                                               const tyjson_writer_options *opts);
/** Releases the writer and its growing buffer (not a caller's buffer or
 *  stream; text not yet flushed is dropped). NULL is ignored. */
TYJSON_API void tyjson_writer_free(tyjson_writer *w);

/**
 * Starts over: no open containers, no root written, no error. The growing
 * buffer keeps its memory (its text is dropped); a caller's buffer is
 * written again from its start; a stream or callback carries on after what
 * was already handed over (text gathered and not yet flushed is dropped).
 * A NULL w does nothing.
 */
TYJSON_API void tyjson_writer_reset(tyjson_writer *w);
/** Starts over (as tyjson_writer_reset) into a new caller's buffer: the
 *  writer's sink becomes that buffer whatever it was (a growing buffer is
 *  kept for a later tyjson_writer_reset_heap). TYJSON_E_INVALID_ARG for a NULL
 *  w, or a NULL buf with cap > 0. */
TYJSON_API tyjson_status tyjson_writer_reset_buf(tyjson_writer *w, char *buf, size_t cap);
/** Starts over into the writer's own growing buffer (made on first use),
 *  whatever its sink was. TYJSON_E_INVALID_ARG for a NULL w. */
TYJSON_API tyjson_status tyjson_writer_reset_heap(tyjson_writer *w);

/**
 * Ends the text: checks that a root value is complete (TYJSON_E_STATE, with
 * the path of the innermost open container, if containers are open or no
 * value was written since the start or the last message boundary that
 * followed a value), adds NEWLINE_AT_END's '\n', NUL-terminates (growing
 * buffer always; caller's buffer when it fits) and hands everything to the
 * stream or callback. *len (may be NULL) receives the length of the whole
 * text written since the last reset, without the NUL: for a caller's buffer
 * that is too small, the length needed, with TYJSON_E_BUF_TOO_SMALL. After
 * finish only tyjson_writer_reset* may write again (other calls:
 * TYJSON_E_STATE). Returns the first error of the writer, or TYJSON_OK.
 */
TYJSON_API tyjson_status tyjson_writer_finish(tyjson_writer *w, size_t *len);

/** NDJSON: ends the root value just written with '\n' and lets another
 *  root follow. TYJSON_E_STATE if no root value is complete (containers
 *  open, or nothing written since the last boundary). */
TYJSON_API tyjson_status tyjson_writer_end_message(tyjson_writer *w);

/** Hands gathered text to the stream or callback now (fflush is not
 *  called); nothing for the buffer sinks. Returns the writer's status. */
TYJSON_API tyjson_status tyjson_writer_flush(tyjson_writer *w);

/** The growing buffer's text (NUL-terminated after a successful finish), or
 *  the caller's buffer; NULL for a stream or callback writer or a NULL w.
 *  Valid until the next call that writes, resets or frees. */
TYJSON_API const char *tyjson_writer_text(const tyjson_writer *w);
/** Bytes written since the last reset (for a caller's buffer that is too
 *  small: the bytes the text needs so far). 0 for a NULL w. */
TYJSON_API size_t tyjson_writer_size(const tyjson_writer *w);
/** The writer's status: TYJSON_OK or its first error (TYJSON_E_INVALID_ARG
 *  for a NULL w). */
TYJSON_API tyjson_status tyjson_writer_status(const tyjson_writer *w);
/** Copies the writer's error record (code, message, the writer's path in
 *  err->path; line 0, offset = bytes written when it happened) into *err.
 *  Returns the code. A NULL err only returns it. */
TYJSON_API tyjson_status tyjson_writer_error(const tyjson_writer *w, tyjson_error *err);
/** Current nesting depth (open containers); 0 for a NULL w. */
TYJSON_API size_t tyjson_writer_depth(const tyjson_writer *w);

/* ----------------------------------------------------------------------------
 * MARK: - Containers and keys
 *
 * Every call below returns TYJSON_OK or the writer's (sticky) error; a NULL
 * w is TYJSON_E_INVALID_ARG.
 * ------------------------------------------------------------------------- */

/** Opens an object (as a value: at the root, in an array, or after a key);
 *  TYJSON_E_DEPTH past max_depth. */
TYJSON_INLINE tyjson_status tyjson_writer_begin_object(tyjson_writer *w) {
    return tyjson__writer_begin(w, 1);
}
/** Closes the innermost object; TYJSON_E_STATE when none is open, the
 *  innermost container is an array, or a key waits for its value. */
TYJSON_INLINE tyjson_status tyjson_writer_end_object(tyjson_writer *w) {
    return tyjson__writer_end(w, 1);
}
/** Opens an array, as tyjson_writer_begin_object. */
TYJSON_INLINE tyjson_status tyjson_writer_begin_array(tyjson_writer *w) {
    return tyjson__writer_begin(w, 0);
}
/** Closes the innermost array; TYJSON_E_STATE when none is open or the
 *  innermost container is an object. */
TYJSON_INLINE tyjson_status tyjson_writer_end_array(tyjson_writer *w) {
    return tyjson__writer_end(w, 0);
}

/** The next key of the innermost object: n bytes of UTF-8 at s (escaped as
 *  a string value; NULL s with n 0 is ""). TYJSON_E_STATE outside an object
 *  or where a value is due; TYJSON_E_UTF8 for invalid UTF-8 (without
 *  REPLACE_INVALID_UTF8). */
TYJSON_INLINE tyjson_status tyjson_writer_key(tyjson_writer *w, const char *s, size_t n) {
    /* fast: 1 to 16 clean bytes (str_clean.h) */
    if (w) {
        tyjson__writer_head *h = tyjson__writer_h(w);
        tyjson__writer_regs r = tyjson__writer_load(h);
        tyjson_status rc = TYJSON_OK;
        char *q = NULL;
        if (s && n - 1 < 16 && ((TYJSON__WST_KEY_OK >> r.st) & 1u) && h->sclean &&
            (size_t)(r.end - r.cur) >= 1 + 16 + 2 + TYJSON__STR_SLACK) {
            char *d = r.cur;
            *d = ',';
            d += r.st == TYJSON__WST_OBJ_NEXT;
            q = tyjson__str_write_short(d, s, n, false);
        }
        if (q) {
            /* the key for the error path (n <= TYJSON__WKEY_KEEP), from
             * the source: a wide load of the bytes just stored would wait
             * for the stores (no store forwarding) */
            tyjson__str_copy(r.top->key, s, n);
            r.top->klen = (uint32_t)n;
            *q++ = ':';
            r.cur = q;
            r.st = TYJSON__WST_OBJ_VAL;
        } else {
            rc = tyjson__writer_key_slow(w, s, n, 0);
            r = tyjson__writer_load(h);
        }
        return tyjson__writer_store(h, r, rc);
    }
    return tyjson__writer_key_slow(w, s, n, 0);
}
/** A key of n bytes that the caller knows need no escaping under the
 *  writer's flags (printable ASCII without '"' and '\\', and without '/'
 *  under ESCAPE_SLASH; any valid UTF-8 without those and without control
 *  characters when ESCAPE_UNICODE is off): copied as is, unchecked. */
TYJSON_INLINE tyjson_status tyjson_writer_key_noesc(tyjson_writer *w, const char *s, size_t n) {
    if (w) {
        tyjson__writer_head *h = tyjson__writer_h(w);
        tyjson__writer_regs r = tyjson__writer_load(h);
        tyjson_status rc = TYJSON_OK;
        if (s && n <= TYJSON__WNOESC_FAST && ((TYJSON__WST_KEY_OK >> r.st) & 1u) &&
            (size_t)(r.end - r.cur) >= n + 4 + TYJSON__STR_SLACK) {
            char *d = r.cur;
            *d = ',';
            d += r.st == TYJSON__WST_OBJ_NEXT;
            *d++ = '"';
            tyjson__str_copy(d, s, n);
            /* the key's first bytes for the error path, from the source
             * (see tyjson_writer_key) */
            tyjson__str_copy(r.top->key, s, n < TYJSON__WKEY_KEEP ? n : TYJSON__WKEY_KEEP);
            r.top->klen = (uint32_t)n;
            d += n;
            d[0] = '"';
            d[1] = ':';
            r.cur = d + 2;
            r.st = TYJSON__WST_OBJ_VAL;
        } else {
            rc = tyjson__writer_key_slow(w, s, n, 1);
            r = tyjson__writer_load(h);
        }
        return tyjson__writer_store(h, r, rc);
    }
    return tyjson__writer_key_slow(w, s, n, 1);
}

/* ----------------------------------------------------------------------------
 * MARK: - Values
 *
 * A value goes at the root (once per message), into an array, or after a
 * key; elsewhere (where a key is due) it is TYJSON_E_STATE.
 * ------------------------------------------------------------------------- */

/** A string value: n bytes of UTF-8 at s, escaped as by the DOM writer
 *  (NULL s with n 0 is ""); TYJSON_E_UTF8 as tyjson_writer_key. */
TYJSON_INLINE tyjson_status tyjson_writer_string(tyjson_writer *w, const char *s, size_t n) {
    /* fast: 1 to 16 clean bytes (str_clean.h) */
    if (w) {
        tyjson__writer_head *h = tyjson__writer_h(w);
        tyjson__writer_regs r = tyjson__writer_load(h);
        tyjson_status rc = TYJSON_OK;
        char *q = NULL;
        if (s && n - 1 < 16 && tyjson__writer_val_ok(&r, 16 + 2 + TYJSON__STR_SLACK) &&
            h->sclean)
            q = tyjson__str_write_short(tyjson__writer_val_sep(&r), s, n, false);
        if (q) {
            tyjson__writer_val_done(&r, q);
        } else {
            rc = tyjson__writer_string_slow(w, s, n, 0);
            r = tyjson__writer_load(h);
        }
        return tyjson__writer_store(h, r, rc);
    }
    return tyjson__writer_string_slow(w, s, n, 0);
}
/** A string value whose bytes need no escaping (see
 *  tyjson_writer_key_noesc): copied as is, unchecked. */
TYJSON_INLINE tyjson_status tyjson_writer_string_noesc(tyjson_writer *w, const char *s,
                                                       size_t n) {
    if (w) {
        tyjson__writer_head *h = tyjson__writer_h(w);
        tyjson__writer_regs r = tyjson__writer_load(h);
        tyjson_status rc = TYJSON_OK;
        if (s && n <= TYJSON__WNOESC_FAST && tyjson__writer_val_ok(&r, n + 2 + TYJSON__STR_SLACK)) {
            char *d = tyjson__writer_val_sep(&r);
            *d++ = '"';
            tyjson__str_copy(d, s, n);
            d += n;
            *d++ = '"';
            tyjson__writer_val_done(&r, d);
        } else {
            rc = tyjson__writer_string_slow(w, s, n, 1);
            r = tyjson__writer_load(h);
        }
        return tyjson__writer_store(h, r, rc);
    }
    return tyjson__writer_string_slow(w, s, n, 1);
}
/* An integer as its magnitude u and sign (neg 0 or 1): inline below 10^8
 * (<tyjson/num_int.h>, the number core's own formatting), the rest out of
 * line. */
TYJSON_INLINE tyjson_status tyjson__writer_int(tyjson_writer *w, uint64_t u, int neg) {
    if (w) {
        tyjson__writer_head *h = tyjson__writer_h(w);
        tyjson__writer_regs r = tyjson__writer_load(h);
        tyjson_status rc = TYJSON_OK;
        /* the separator, the sign and one 8-byte store of digits */
        if (u < 100000000u && tyjson__writer_val_ok(&r, 1 + 1 + 8)) {
            char *d = tyjson__writer_val_sep(&r);
            *d = '-';
            tyjson__writer_val_done(&r, tyjson__num_put_upto8(d + neg, (uint32_t)u));
        } else {
            rc = tyjson__writer_int_slow(w, u, neg);
            r = tyjson__writer_load(h);
        }
        return tyjson__writer_store(h, r, rc);
    }
    return tyjson__writer_int_slow(w, u, neg);
}
/** A signed integer, exactly. */
TYJSON_INLINE tyjson_status tyjson_writer_int(tyjson_writer *w, int64_t v) {
    uint64_t u = (uint64_t)v;
    return tyjson__writer_int(w, v < 0 ? 0 - u : u, v < 0);
}
/** An unsigned integer, exactly. */
TYJSON_INLINE tyjson_status tyjson_writer_uint(tyjson_writer *w, uint64_t v) {
    return tyjson__writer_int(w, v, 0);
}
/** A double as the shortest text that reads back to it, always with a '.'
 *  or an exponent (50.0, 0.1, 1e300), as the DOM writer. NaN and the
 *  infinities: TYJSON_E_NAN_INF, or NaN, Infinity, -Infinity with
 *  TYJSON_WRITE_ALLOW_INF_NAN. */
TYJSON_API tyjson_status tyjson_writer_double(tyjson_writer *w, double v);
/** A float as the shortest text that reads back to it as a float
 *  (3.67f -> 3.67); NaN and infinities as tyjson_writer_double. */
TYJSON_API tyjson_status tyjson_writer_float(tyjson_writer *w, float v);
/**
 * A double in plain notation with exactly `prec` digits after the point
 * (1 to 15; other values are TYJSON_E_INVALID_ARG): the shortest
 * round-trip decimal of v rounded half away from zero, so 2.675 (whose
 * shortest text is "2.675") gives "2.68" at prec 2 and 0.125 gives "0.13";
 * 1.0 at prec 3 gives "1.000". For |v| >= 1e21 the shortest form is written
 * instead, as JavaScript's toFixed does. NaN and infinities as
 * tyjson_writer_double.
 */
TYJSON_API tyjson_status tyjson_writer_double_fixed(tyjson_writer *w, double v, int prec);
/** true or false. */
TYJSON_INLINE tyjson_status tyjson_writer_bool(tyjson_writer *w, bool v) {
    return tyjson__writer_word(w, v ? 1 : 0);
}
/** null. */
TYJSON_INLINE tyjson_status tyjson_writer_null(tyjson_writer *w) {
    return tyjson__writer_word(w, 2);
}

/** Flags of tyjson_writer_raw. */
#define TYJSON_WRITER_RAW_TRUSTED 1u

/**
 * n bytes of JSON text at s as one value, copied as is (not re-indented).
 * The text is checked with tyjson_validate (strict RFC 8259: exactly one
 * value, whitespace around it allowed) unless flags has
 * TYJSON_WRITER_RAW_TRUSTED; invalid text is an error with the validator's
 * code (TYJSON_E_EMPTY, _UNEXPECTED_CHAR, ...) and message, naming the
 * writer's path, and nothing is written. Trusted text must be one valid
 * JSON value: the writer cannot then promise valid output.
 */
TYJSON_API tyjson_status tyjson_writer_raw(tyjson_writer *w, const char *s, size_t n,
                                           unsigned flags);

/** A value of an immutable document, written by the DOM writer (same
 *  flags and indentation, nested at the writer's depth). A NULL val is
 *  TYJSON_E_INVALID_ARG; the DOM writer's errors (TYJSON_E_UTF8,
 *  TYJSON_E_NAN_INF) carry the writer's path. */
TYJSON_API tyjson_status tyjson_writer_val(tyjson_writer *w, const tyjson_val *val);
/** A mutable value, as tyjson_writer_val (a value nested deeper than 256
 *  levels makes the mutable writer allocate its stack from the writer's
 *  allocator). */
TYJSON_API tyjson_status tyjson_writer_mut_val(tyjson_writer *w, const tyjson_mut_val *val);
/** The struct *in described by type, written by the binding's encoder
 *  (tyjson_encode_cb) with the writer's flags, nested at the writer's
 *  depth: so `begin_array; for each record: tyjson_writer_struct;
 *  end_array` writes records into an enclosing array. A NULL type or in is
 *  TYJSON_E_INVALID_ARG; the encoder's errors carry the writer's path. */
TYJSON_API tyjson_status tyjson_writer_struct(tyjson_writer *w, tyjson_struct *type,
                                              const void *in);

#ifdef __cplusplus
}
#endif
#endif /* TYJSON_WRITER_H */
