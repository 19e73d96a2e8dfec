/*
 * write.c - immutable and mutable values to JSON text (include/tyjson/write.h):
 * minified and pretty, into a new buffer, the caller's buffer, a stdio
 * stream or a callback. Output goes through the wbuf core (wbuf.h); strings
 * through str_write.c; numbers through num_write.c.
 *
 * Both walkers are iterative. An immutable document is one array in
 * document order, so writing it is a single forward pass over the values:
 * the only state is, per open container, how many children remain. A
 * mutable container is a circular list whose head pointer is its last
 * child; per open container the walker keeps the next child and the count.
 * The immutable walker never allocates: its stack is a window of the
 * STACK_INLINE innermost levels on the C stack; deeper levels are dropped
 * and recomputed from the value array when the walk climbs back to them
 * (refill_levels): it keeps the window in a plain local array rather than
 * base/stack.h, whose growth it never needs. The mutable walker's stack is
 * the base/stack.h one: on the C stack up to STACK_INLINE levels and on the
 * heap (from the options' allocator) beyond.
 */
#include "base/stack.h"
#include "num/num.h"
#include "write/str_write.h"
#include "write/wbuf.h"

/* Nesting levels kept without allocating: the default parse depth limit is
 * 1024, and 256 levels of (count) cost 2 KiB of stack. */
#define STACK_INLINE 256u
/* Levels the immutable walker drops (and later recomputes) at a time. */
#define STACK_DROP (STACK_INLINE / 2)

/* Bytes of room for one scalar other than a string: the longest number,
 * "-Infinity", plus the separators and the slack callers rely on. */
#define SCALAR_ROOM (TYJSON__NUM_MAX_CHARS + TYJSON__STR_SLACK)

/* Strings up to this length are copied without calling memcpy. */

typedef struct wopts {
    tyjson_write_flags flags;
    usize indent;
    tyjson_alloc alc; /* for the depth stack */
} wopts;

static wopts wopts_make(const tyjson_write_options *opts) {
    wopts o;
    o.flags = opts ? opts->flags : 0;
    o.indent = (opts && opts->indent) ? opts->indent : 2;
    o.alc = tyjson__alc_or_libc(opts ? opts->alc : NULL);
    return o;
}

/* ----------------------------------------------------------------------------
 * MARK: - Pieces
 *
 * Each takes the walker's local cursor d and returns the new one; after a
 * call that may grow the buffer the walker reloads its end pointer.
 * ------------------------------------------------------------------------- */

/* Quoted or raw bytes that do not fit in the window; leaves
 * TYJSON__STR_SLACK bytes of room. */
static TYJSON__NOINLINE char *put_verbatim_slow(tyjson__wbuf *wb, char *d, const char *s,
                                                usize n, bool quote) {
    if (quote) {
        if (wb->end == d) d = tyjson__wbuf_grow(wb, d, 1);
        *d++ = '"';
    }
    d = tyjson__wbuf_putn_slow(wb, d, s, n);
    if ((usize)(wb->end - d) < 1 + TYJSON__STR_SLACK)
        d = tyjson__wbuf_grow(wb, d, 1 + TYJSON__STR_SLACK);
    if (quote) *d++ = '"';
    return d;
}

/* Masks a tag for the "copy verbatim" test: equal to noesc_want(flags)
 * exactly for strings that need no escaping under those flags. */
#define NOESC_TEST(tag) ((tag) & (TYJSON__TYPE_MASK | TYJSON__NOESC_BIT))

static u64 noesc_want(tyjson_write_flags flags) {
    return tyjson__str_noesc_ok(flags) ? (TYJSON_TYPE_STR | TYJSON__NOESC_BIT) : UINT64_MAX;
}

/* A string value or key. Returns NULL on invalid UTF-8. */
TYJSON__FORCEINLINE char *wr_put_str(tyjson__wbuf *wb, char *d, u64 tag, const char *s,
                                  tyjson_write_flags flags, u64 noesc) {
    usize n = tyjson__tag_len(tag);
    if (NOESC_TEST(tag) == noesc) {
        if (likely((usize)(wb->end - d) >= n + 2 + TYJSON__STR_SLACK)) {
            *d++ = '"';
            tyjson__wbuf_copy(d, s, n);
            d += n;
            *d++ = '"';
            return d;
        }
        return put_verbatim_slow(wb, d, s, n, true);
    }
    return tyjson__str_write(wb, d, s, n, flags);
}

/* NaN, the infinities, any real under a number option (FP_FIXED,
 * FP_TO_FLOAT) and reals marked as floats (the caller adds FP_TO_FLOAT):
 * off the hot path of plain shortest output. */
static TYJSON__NOINLINE char *put_real_special(tyjson__wbuf *wb, char *d, double f,
                                               tyjson_write_flags flags) {
    char *e = tyjson__real_write_flags(f, flags, d);
    if (!e) tyjson__wbuf_fail(wb, TYJSON_E_NAN_INF);
    return e;
}

/* The tag of a real the fast path writes, equal to a REAL's tag exactly
 * when the real is written in the shortest double form: not marked as a
 * float and no number option set. One compare against this walk-long
 * constant tests both, as the number option test alone did before. */
static u64 real_plain_want(tyjson_write_flags flags) {
    return (flags & TYJSON__WRITE_FP_OPTS) ? UINT64_MAX : TYJSON__TAG_REAL;
}

/*
 * Any value but a container. Returns the new cursor with at least
 * TYJSON__STR_SLACK bytes of room, or NULL with wb's status set.
 */
TYJSON__FORCEINLINE char *put_scalar(tyjson__wbuf *wb, char *d, u64 tag,
                                     tyjson_val_uni uni, tyjson_write_flags flags,
                                     u64 noesc, u64 real_plain) {
    u32 kind = (u32)(tag & TYJSON__KIND_MASK);
    if (kind == TYJSON_TYPE_STR) return wr_put_str(wb, d, tag, uni.str, flags, noesc);
    if (unlikely((usize)(wb->end - d) < SCALAR_ROOM)) d = tyjson__wbuf_grow(wb, d, SCALAR_ROOM);
    switch (kind) {
    case TYJSON_TYPE_NUM | TYJSON_SUBTYPE_UINT:
        return tyjson__u64_write_inline(uni.u64, d);
    case TYJSON_TYPE_NUM | TYJSON_SUBTYPE_SINT:
        return tyjson__i64_write_inline(uni.i64, d);
    case TYJSON_TYPE_NUM | TYJSON_SUBTYPE_REAL: {
        u64 bits;
        memcpy(&bits, &uni.f64, 8);
        if (unlikely((bits & 0x7FF0000000000000ull) == 0x7FF0000000000000ull ||
                     tag != real_plain))
            return put_real_special(wb, d, uni.f64,
                                    flags | ((tag & TYJSON__FLOAT_BIT) ? TYJSON_WRITE_FP_TO_FLOAT : 0));
        return tyjson__f64_write(uni.f64, d);
    }
    case TYJSON_TYPE_NULL:
        memcpy(d, "null", 4);
        return d + 4;
    case TYJSON_TYPE_BOOL | TYJSON_SUBTYPE_TRUE:
        memcpy(d, "true", 4);
        return d + 4;
    case TYJSON_TYPE_BOOL | TYJSON_SUBTYPE_FALSE:
        memcpy(d, "false", 5);
        return d + 5;
    case TYJSON_TYPE_RAW: {
        usize n = tyjson__tag_len(tag);
        if (likely((usize)(wb->end - d) >= n + TYJSON__STR_SLACK)) {
            tyjson__wbuf_copy(d, uni.str, n);
            return d + n;
        }
        return put_verbatim_slow(wb, d, uni.str, n, false);
    }
    default:
        tyjson__wbuf_fail(wb, TYJSON_E_INVALID_ARG);
        return NULL;
    }
}

/* Newline and n spaces of indentation. */
TYJSON__FORCEINLINE char *put_indent(tyjson__wbuf *wb, char *d, usize n) {
    if (likely(n < TYJSON__WBUF_RESERVE_MAX - TYJSON__STR_SLACK)) {
        if (unlikely((usize)(wb->end - d) < n + 1 + TYJSON__STR_SLACK))
            d = tyjson__wbuf_grow(wb, d, n + 1 + TYJSON__STR_SLACK);
        *d++ = '\n';
        memset(d, ' ', n);
        return d + n;
    }
    if (wb->end == d) d = tyjson__wbuf_grow(wb, d, 1);
    *d++ = '\n';
    return tyjson__wbuf_fill(wb, d, ' ', n);
}

/* Keeps wb->end in the local `e` in sync after a call that may grow. */
#define NEED(n)                                                                \
    do {                                                                       \
        if (unlikely((usize)(e - d) < (usize)(n))) {                           \
            d = tyjson__wbuf_grow(wb, d, (n));                                 \
            e = wb->end;                                                       \
        }                                                                      \
    } while (0)

/* ----------------------------------------------------------------------------
 * MARK: - Immutable walker
 *
 * `v` steps through the value array one slot at a time: a container's
 * children follow it, and the value after a container's last descendant is
 * the next sibling. Per level: children left (rem) and object-ness, packed
 * as rem << 1 | obj on the stack. The root is a pseudo-level with rem = 1.
 * ------------------------------------------------------------------------- */

/* Recomputes the stack entries of absolute levels [lo, hi) into out[0..):
 * entry 0 is the root pseudo-level; entry a (a >= 1) is, for the a-th
 * container on the path from `root`, the children it has left counting the
 * one on the path, and whether it is an object. The path is the one that
 * leads to slot `q`, found by stepping over sibling subtrees from the root
 * down: no memory beyond the output. */
static TYJSON__NOINLINE void refill_levels(const tyjson_val *root, const tyjson_val *q,
                                           usize lo, usize hi, usize *out) {
    const tyjson_val *c = root;
    if (lo == 0) out[0] = (usize)1 << 1;
    for (usize a = 1; a < hi; a++) {
        usize len = tyjson__tag_len(c->tag), is_obj = (usize)(c->tag & 1), k = 0;
        const tyjson_val *child = c + 1 + is_obj;
        while (q >= tyjson__next(child)) { /* q lies beyond this child's subtree */
            child = tyjson__next(child) + is_obj;
            k++;
        }
        if (a >= lo) out[a - lo] = (len - k) << 1 | is_obj;
        c = child;
    }
}

/* The state of the levels dropped from the window. Kept in memory and
 * touched only by the two out-of-line calls below, so that the walk's hot
 * loop carries no extra registers for it (a copy in locals cost the canada
 * write 9% more walker instructions). */
typedef struct imm_deep {
    const tyjson_val *root;
    usize dropped; /* levels below the window */
} imm_deep;

/* The window is full: keeps its innermost half; returns the new depth. */
static TYJSON__NOINLINE usize drop_levels(usize *stk, imm_deep *dp) {
    memmove(stk, stk + STACK_DROP, (STACK_INLINE - STACK_DROP) * sizeof(usize));
    dp->dropped += STACK_DROP;
    return STACK_INLINE - STACK_DROP;
}

/* The window is empty: refills it with the next dropped levels (last is
 * the last slot of the container closing now, so the path to it passes
 * through every dropped level). False when none are left: the walk is done. */
static TYJSON__NOINLINE bool climb_levels(usize *stk, imm_deep *dp, const tyjson_val *last) {
    if (!dp->dropped) return false;
    refill_levels(dp->root, last, dp->dropped - STACK_DROP, dp->dropped, stk);
    dp->dropped -= STACK_DROP;
    return true;
}

TYJSON__FORCEINLINE bool imm_walk(tyjson__wbuf *wb, const tyjson_val *v, const wopts *o,
                                  const bool pretty) {
    usize stk[STACK_INLINE];
    usize depth = 0; /* levels in the window stk */
    imm_deep deep = {v, 0};
    usize rem = 1, obj = 0, ind = 0;
    const tyjson_write_flags flags = o->flags;
    const u64 noesc = noesc_want(flags);
    const u64 real_plain = real_plain_want(flags);
    char *d = wb->cur, *e = wb->end;

    for (;;) {
        if (obj) {
            u64 kt = v->tag;
            /* A verbatim string needs no type check of its own. */
            if (NOESC_TEST(kt) != noesc && (kt & TYJSON__TYPE_MASK) != TYJSON_TYPE_STR)
                goto bad_arg;
            d = wr_put_str(wb, d, kt, v->uni.str, flags, noesc);
            if (unlikely(!d)) goto fail;
            e = wb->end;
            *d++ = ':';
            if (pretty) *d++ = ' ';
            v++;
        }
        u64 tag = v->tag;
        if ((tag & TYJSON__TYPE_MASK) >= TYJSON_TYPE_ARR) {
            usize len = tyjson__tag_len(tag);
            usize is_obj = (usize)(tag & 1); /* ARR = 6, OBJ = 7 */
            char open = (char)('[' | (is_obj << 5));
            v++;
            NEED(3); /* open, close or first byte, and a separator */
            if (len == 0) {
                d[0] = open;
                d[1] = (char)(open + 2); /* ']' or '}' */
                d += 2;
                goto after;
            }
            *d++ = open;
            if (unlikely(depth == STACK_INLINE)) depth = drop_levels(stk, &deep);
            if (unlikely(wb->status != TYJSON_OK)) goto fail;
            stk[depth++] = rem << 1 | obj;
            rem = len;
            obj = is_obj;
            if (pretty) {
                if (tyjson__add_ovf(ind, o->indent, &ind)) goto too_big;
                d = put_indent(wb, d, ind);
                e = wb->end;
            }
            continue;
        }
        d = put_scalar(wb, d, tag, v->uni, flags, noesc, real_plain);
        if (unlikely(!d)) goto fail;
        e = wb->end;
        v++;
    after:
        while (--rem == 0) {
            if (unlikely(depth == 0)) {
                if (!climb_levels(stk, &deep, v - 1)) goto done;
                depth = STACK_DROP;
            }
            if (pretty) {
                ind -= o->indent;
                d = put_indent(wb, d, ind);
                e = wb->end;
            }
            NEED(2); /* the close and a separator */
            *d++ = (char)(']' | (obj << 5));
            usize x = stk[--depth];
            rem = x >> 1;
            obj = x & 1;
        }
        *d++ = ','; /* room: a value leaves STR_SLACK, a close 1 */
        if (pretty) {
            d = put_indent(wb, d, ind);
            e = wb->end;
        }
    }

done:
    wb->cur = d;
    return wb->status == TYJSON_OK;
too_big:
    tyjson__wbuf_fail(wb, TYJSON_E_SIZE);
    goto fail;
bad_arg:
    tyjson__wbuf_fail(wb, TYJSON_E_INVALID_ARG);
fail:
    return false;
}

static bool imm_walk_min(tyjson__wbuf *wb, const tyjson_val *v, const wopts *o) {
    return imm_walk(wb, v, o, false);
}
static bool imm_walk_pretty(tyjson__wbuf *wb, const tyjson_val *v, const wopts *o) {
    return imm_walk(wb, v, o, true);
}

/* ----------------------------------------------------------------------------
 * MARK: - Mutable walker
 *
 * Per level: the next child to visit (`nxt`), children left (rem) and
 * object-ness. A container's first child is its last child's next.
 * ------------------------------------------------------------------------- */
typedef struct mframe {
    const tyjson_mut_val *nxt;
    usize rem_obj; /* rem << 1 | obj */
} mframe;

TYJSON__FORCEINLINE bool mut_walk(tyjson__wbuf *wb, const tyjson_mut_val *v,
                                  const wopts *o, const bool pretty) {
    mframe stk_inl[STACK_INLINE];
    tyjson__stack ms; /* grows the frames; depth and stk stay in locals */
    tyjson__stack_init(&ms, &o->alc, stk_inl, STACK_INLINE, sizeof(mframe));
    mframe *stk = stk_inl;
    usize cap = STACK_INLINE, depth = 0;
    usize rem = 1, obj = 0, ind = 0;
    const tyjson_mut_val *nxt = NULL;
    const tyjson_write_flags flags = o->flags;
    const u64 noesc = noesc_want(flags);
    const u64 real_plain = real_plain_want(flags);
    char *d = wb->cur, *e = wb->end;

    for (;;) {
        u64 tag = v->tag;
        if ((tag & TYJSON__TYPE_MASK) >= TYJSON_TYPE_ARR) {
            usize len = tyjson__tag_len(tag);
            usize is_obj = (usize)(tag & 1);
            char open = (char)('[' | (is_obj << 5));
            const tyjson_mut_val *last = (const tyjson_mut_val *)v->uni.ptr;
            NEED(3); /* open, close or first byte, and a separator */
            if (len == 0) {
                d[0] = open;
                d[1] = (char)(open + 2);
                d += 2;
                goto after;
            }
            if (unlikely(!last)) goto bad_arg;
            *d++ = open;
            if (unlikely(depth == cap)) {
                ms.len = depth;
                if (!tyjson__stack_grow(&ms)) goto no_mem;
                stk = (mframe *)ms.buf;
                cap = ms.cap;
            }
            if (unlikely(wb->status != TYJSON_OK)) goto fail;
            stk[depth].nxt = nxt;
            stk[depth].rem_obj = rem << 1 | obj;
            depth++;
            rem = len;
            obj = is_obj;
            nxt = last->next;
            if (pretty) {
                if (tyjson__add_ovf(ind, o->indent, &ind)) goto too_big;
                d = put_indent(wb, d, ind);
                e = wb->end;
            }
            goto child;
        }
        d = put_scalar(wb, d, tag, v->uni, flags, noesc, real_plain);
        if (unlikely(!d)) goto fail;
        e = wb->end;
    after:
        while (--rem == 0) {
            if (depth == 0) goto done;
            if (pretty) {
                ind -= o->indent;
                d = put_indent(wb, d, ind);
                e = wb->end;
            }
            NEED(2); /* the close and a separator */
            *d++ = (char)(']' | (obj << 5));
            depth--;
            nxt = stk[depth].nxt;
            rem = stk[depth].rem_obj >> 1;
            obj = stk[depth].rem_obj & 1;
        }
        *d++ = ','; /* room: a value leaves STR_SLACK, a close 1 */
        if (pretty) {
            d = put_indent(wb, d, ind);
            e = wb->end;
        }
    child:
        if (obj) {
            const tyjson_mut_val *key = nxt;
            u64 kt = key->tag;
            if (unlikely((kt & TYJSON__TYPE_MASK) != TYJSON_TYPE_STR)) goto bad_arg;
            d = wr_put_str(wb, d, kt, key->uni.str, flags, noesc);
            if (unlikely(!d)) goto fail;
            e = wb->end;
            *d++ = ':';
            if (pretty) *d++ = ' ';
            v = key->next;
        } else {
            v = nxt;
        }
        nxt = v->next;
    }

done:
    wb->cur = d;
    tyjson__stack_free(&ms);
    return wb->status == TYJSON_OK;
too_big:
    tyjson__wbuf_fail(wb, TYJSON_E_SIZE);
    goto fail;
no_mem:
    tyjson__wbuf_fail(wb, TYJSON_E_NOMEM);
    goto fail;
bad_arg:
    tyjson__wbuf_fail(wb, TYJSON_E_INVALID_ARG);
fail:
    tyjson__stack_free(&ms);
    return false;
}

static bool mut_walk_min(tyjson__wbuf *wb, const tyjson_mut_val *v, const wopts *o) {
    return mut_walk(wb, v, o, false);
}
static bool mut_walk_pretty(tyjson__wbuf *wb, const tyjson_mut_val *v, const wopts *o) {
    return mut_walk(wb, v, o, true);
}

/* ----------------------------------------------------------------------------
 * MARK: - Driver: one value (immutable or mutable) into a ready wbuf
 * ------------------------------------------------------------------------- */
typedef struct wsrc {
    const tyjson_val *imm;
    const tyjson_mut_val *mut;
} wsrc;

static wsrc src_imm(const tyjson_val *v) {
    wsrc s = {v, NULL};
    return s;
}
static wsrc src_mut(const tyjson_mut_val *v) {
    wsrc s = {NULL, v};
    return s;
}

/* Writes the text and ends it; returns the final status. */
static tyjson_status wr_run(tyjson__wbuf *wb, wsrc src, const wopts *o) {
    bool pretty = (o->flags & TYJSON_WRITE_PRETTY) != 0;
    if (src.imm) {
        if (pretty) imm_walk_pretty(wb, src.imm, o);
        else imm_walk_min(wb, src.imm, o);
    } else if (src.mut) {
        if (pretty) mut_walk_pretty(wb, src.mut, o);
        else mut_walk_min(wb, src.mut, o);
    } else {
        tyjson__wbuf_fail(wb, TYJSON_E_INVALID_ARG);
    }
    if (wb->status == TYJSON_OK && (o->flags & TYJSON_WRITE_NEWLINE_AT_END))
        tyjson__wbuf_putc(wb, '\n');
    return tyjson__wbuf_finish(wb);
}

/* Expected text size for the first heap buffer. Minified corpus text runs
 * at roughly 10-14 bytes per value slot; slightly over is cheaper than a
 * realloc. Mutable values have no cheap count: start small and grow. */
static usize wr_estimate(wsrc src, const wopts *o) {
    usize slots = 1, est;
    if (src.imm && (src.imm->tag & TYJSON__TYPE_MASK) >= TYJSON_TYPE_ARR) slots = src.imm->uni.ofs;
    if (src.mut) slots = 64;
    if (tyjson__mul_ovf(slots, (o->flags & TYJSON_WRITE_PRETTY) ? 24 : 16, &est)) est = 0;
    return est;
}

static char *write_heap(wsrc src, const tyjson_write_options *opts, usize hint,
                        usize *len, tyjson_error *err) {
    char tmp[TYJSON__WBUF_CHUNK];
    wopts o = wopts_make(opts);
    tyjson__wbuf wb;
    if (len) *len = 0;
    if (hint == 0) hint = wr_estimate(src, &o);
    tyjson__wbuf_init_heap(&wb, opts ? opts->alc : NULL, hint, tmp, sizeof(tmp));
    tyjson_status st = wr_run(&wb, src, &o);
    if (st != TYJSON_OK) {
        tyjson__wbuf_release(&wb);
        tyjson__err_set(err, st, NULL, 0, 0);
        return NULL;
    }
    char *text = tyjson__wbuf_finish_heap(&wb, len);
    tyjson__err_ok(err);
    return text;
}

static usize write_buf(wsrc src, char *buf, usize cap, const tyjson_write_options *opts,
                       tyjson_error *err) {
    if (!buf && cap) { /* NULL with cap 0 measures; NULL with room is a bug */
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return 0;
    }
    char tmp[TYJSON__WBUF_CHUNK];
    wopts o = wopts_make(opts);
    tyjson__wbuf wb;
    tyjson__wbuf_init_fixed(&wb, buf, cap, tmp, sizeof(tmp));
    tyjson_status st = wr_run(&wb, src, &o);
    if (st != TYJSON_OK) {
        tyjson__err_set(err, st, NULL, 0, 0);
        return 0;
    }
    usize n = tyjson__wbuf_size(&wb);
    if (tyjson__wbuf_overflowed(&wb)) {
        tyjson__err_set(err, TYJSON_E_BUF_TOO_SMALL, NULL, 0, 0);
        return n;
    }
    tyjson__err_ok(err);
    return n;
}

static bool write_fp(FILE *fp, wsrc src, const tyjson_write_options *opts,
                     tyjson_error *err) {
    char tmp[TYJSON__WBUF_CHUNK];
    wopts o = wopts_make(opts);
    tyjson__wbuf wb;
    if (!fp) {
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return false;
    }
    tyjson__wbuf_init_fp(&wb, fp, tmp, sizeof(tmp));
    tyjson_status st = wr_run(&wb, src, &o);
    if (st != TYJSON_OK) {
        tyjson__err_set(err, st, NULL, 0, 0);
        return false;
    }
    tyjson__err_ok(err);
    return true;
}

static bool write_file(const char *path, wsrc src, const tyjson_write_options *opts,
                       tyjson_error *err) {
    if (!path || (!src.imm && !src.mut)) {
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return false;
    }
    FILE *fp = fopen(path, "wb");
    if (!fp) {
        tyjson__err_set(err, TYJSON_E_IO, NULL, 0, 0);
        return false;
    }
    bool ok = write_fp(fp, src, opts, err);
    if (fclose(fp) != 0 && ok) {
        tyjson__err_set(err, TYJSON_E_IO, NULL, 0, 0);
        ok = false;
    }
    return ok;
}

static bool write_cb(tyjson_write_fn fn, void *ctx, wsrc src,
                     const tyjson_write_options *opts, tyjson_error *err) {
    char tmp[TYJSON__WBUF_CHUNK];
    wopts o = wopts_make(opts);
    tyjson__wbuf wb;
    if (!fn) {
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return false;
    }
    tyjson__wbuf_init_cb(&wb, fn, ctx, tmp, sizeof(tmp));
    tyjson_status st = wr_run(&wb, src, &o);
    if (st != TYJSON_OK) {
        tyjson__err_set(err, st, NULL, 0, 0);
        return false;
    }
    tyjson__err_ok(err);
    return true;
}

/* ----------------------------------------------------------------------------
 * MARK: - Public API: immutable
 * ------------------------------------------------------------------------- */

char *tyjson_val_write_opts(const tyjson_val *val, const tyjson_write_options *opts,
                            size_t *len, tyjson_error *err) {
    if (!val) {
        if (len) *len = 0;
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return NULL;
    }
    return write_heap(src_imm(val), opts, 0, len, err);
}

char *tyjson_write_opts(const tyjson_doc *doc, const tyjson_write_options *opts,
                        size_t *len, tyjson_error *err) {
    if (!doc || !doc->root) {
        if (len) *len = 0;
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return NULL;
    }
    /* The input length is a close upper bound of minified output (only
     * escaping can make it longer): one allocation, then a cheap shrink. */
    usize hint = doc->read_size;
    if (opts && (opts->flags & TYJSON_WRITE_PRETTY)) hint += hint / 2;
    return write_heap(src_imm(doc->root), opts, hint, len, err);
}

char *tyjson_write(const tyjson_doc *doc, tyjson_write_flags flags, size_t *len) {
    tyjson_write_options o = {flags, 0, NULL};
    return tyjson_write_opts(doc, &o, len, NULL);
}

size_t tyjson_val_write_buf(const tyjson_val *val, char *buf, size_t cap,
                            const tyjson_write_options *opts, tyjson_error *err) {
    return write_buf(src_imm(val), buf, cap, opts, err);
}

bool tyjson_val_write_fp(FILE *fp, const tyjson_val *val, const tyjson_write_options *opts,
                         tyjson_error *err) {
    return write_fp(fp, src_imm(val), opts, err);
}

bool tyjson_val_write_file(const char *path, const tyjson_val *val,
                           const tyjson_write_options *opts, tyjson_error *err) {
    return write_file(path, src_imm(val), opts, err);
}

bool tyjson_val_write_cb(tyjson_write_fn fn, void *ctx, const tyjson_val *val,
                         const tyjson_write_options *opts, tyjson_error *err) {
    return write_cb(fn, ctx, src_imm(val), opts, err);
}

/* ----------------------------------------------------------------------------
 * MARK: - Public API: mutable
 * ------------------------------------------------------------------------- */

char *tyjson_mut_val_write_opts(const tyjson_mut_val *val, const tyjson_write_options *opts,
                                size_t *len, tyjson_error *err) {
    if (!val) {
        if (len) *len = 0;
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return NULL;
    }
    return write_heap(src_mut(val), opts, 0, len, err);
}

char *tyjson_mut_write_opts(const tyjson_mut_doc *doc, const tyjson_write_options *opts,
                            size_t *len, tyjson_error *err) {
    return tyjson_mut_val_write_opts(doc ? tyjson_mut_doc_get_root(doc) : NULL, opts, len, err);
}

char *tyjson_mut_write(const tyjson_mut_doc *doc, tyjson_write_flags flags, size_t *len) {
    tyjson_write_options o = {flags, 0, NULL};
    return tyjson_mut_write_opts(doc, &o, len, NULL);
}

size_t tyjson_mut_val_write_buf(const tyjson_mut_val *val, char *buf, size_t cap,
                                const tyjson_write_options *opts, tyjson_error *err) {
    return write_buf(src_mut(val), buf, cap, opts, err);
}

bool tyjson_mut_val_write_fp(FILE *fp, const tyjson_mut_val *val,
                             const tyjson_write_options *opts, tyjson_error *err) {
    return write_fp(fp, src_mut(val), opts, err);
}

bool tyjson_mut_val_write_file(const char *path, const tyjson_mut_val *val,
                               const tyjson_write_options *opts, tyjson_error *err) {
    return write_file(path, src_mut(val), opts, err);
}

bool tyjson_mut_val_write_cb(tyjson_write_fn fn, void *ctx, const tyjson_mut_val *val,
                             const tyjson_write_options *opts, tyjson_error *err) {
    return write_cb(fn, ctx, src_mut(val), opts, err);
}

/* ----------------------------------------------------------------------------
 * One number on its own: the text the writer gives it inside a document.
 * ------------------------------------------------------------------------- */
size_t tyjson_write_number(const tyjson_val *v, tyjson_write_flags flags, char *buf, size_t cap) {
    if (!v || (!buf && cap)) return 0;
    u32 kind = (u32)(v->tag & TYJSON__KIND_MASK);
    if ((kind & TYJSON__TYPE_MASK) == TYJSON_TYPE_RAW) {
        usize n = (usize)(v->tag >> TYJSON__LEN_SHIFT);
        if (n < cap) {
            memcpy(buf, v->uni.str, n);
            buf[n] = 0;
        }
        return n;
    }
    /* the number writers may store whole words up to TYJSON__NUM_MAX_CHARS
     * past their start: write to the stack, copy what fits */
    char tmp[TYJSON__NUM_MAX_CHARS];
    char *e;
    switch (kind) {
    case TYJSON_TYPE_NUM | TYJSON_SUBTYPE_UINT: e = tyjson__u64_write(v->uni.u64, tmp); break;
    case TYJSON_TYPE_NUM | TYJSON_SUBTYPE_SINT: e = tyjson__i64_write(v->uni.i64, tmp); break;
    case TYJSON_TYPE_NUM | TYJSON_SUBTYPE_REAL: {
        if (v->tag & TYJSON__FLOAT_BIT) flags |= TYJSON_WRITE_FP_TO_FLOAT;
        e = tyjson__real_write_flags(v->uni.f64, flags, tmp);
        if (!e) return 0; /* NaN or an infinity without a flag for it */
        break;
    }
    default: return 0;
    }
    usize n = (usize)(e - tmp);
    if (n < cap) {
        memcpy(buf, tmp, n);
        buf[n] = 0;
    }
    return n;
}
