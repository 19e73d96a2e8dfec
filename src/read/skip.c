/*
 * skip.c - the out-of-line part of syntax.h: comments, and skipping a whole
 * value (unknown keys of the binding, the extent of a value for
 * TYJSON_READ_STOP_WHEN_DONE and for members kept as text).
 */
#include "read/syntax.h"
#include "read/json5.h"
#include "read/index.h"
#include "read/simd.h"
#include "num/num.h"

/* The block comment whose "/" "*" is at p: the byte after its end, or NULL. */
static const u8 *block_comment_end(const u8 *p, const u8 *end) {
    const u8 *q = p + 2;
    for (;;) {
        q = (const u8 *)memchr(q, '*', (usize)(end - q));
        if (!q || end - q < 2) return NULL;
        if (q[1] == '/') return q + 2;
        q++;
    }
}

tyjson__read_res tyjson__skip_comments(const u8 *p, const u8 *end) {
    for (;;) {
        p = tyjson__skip_ws(p, end);
        if (p >= end || *p != '/') return tyjson__read_ok(p);
        if (end - p < 2) return tyjson__read_fail(p, TYJSON_E_TRUNCATED, TYJSON__EXPECT_COMMENT);
        if (p[1] == '/') {
            const u8 *nl = (const u8 *)memchr(p + 2, '\n', (usize)(end - p - 2));
            p = nl ? nl + 1 : end;
        } else if (p[1] == '*') {
            const u8 *q = block_comment_end(p, end);
            if (!q) return tyjson__read_fail(p, TYJSON_E_COMMENT, TYJSON__EXPECT_COMMENT);
            p = q;
        } else {
            return tyjson__read_fail(p, TYJSON_E_UNEXPECTED_CHAR, TYJSON__EXPECT_COMMENT);
        }
    }
}

/* ----------------------------------------------------------------------------
 * Values. The walk keeps one bit per open container (1 = object) so that
 * hostile nesting costs no C stack; `obj` caches the innermost one's.
 * ------------------------------------------------------------------------- */
#define INLINE_WORDS 16 /* 1024 levels */

typedef struct walk {
    const tyjson__skip_opts *o;
    const u8 *switch_at; /* past this byte an open container goes to the index */
    u64 *bits;
    usize cap_bits, lvl;
    u32 num_flags; /* the number reader's: BIGNUM_AS_RAW for a skip, the caller's for validate */
    u64 inl[INLINE_WORDS];
} walk;

static void walk_init(walk *w, const tyjson__skip_opts *o, const u8 *switch_at) {
    w->o = o;
    w->switch_at = switch_at;
    w->bits = w->inl;
    w->cap_bits = INLINE_WORDS * 64;
    w->lvl = 0;
    w->num_flags = TYJSON_READ_BIGNUM_AS_RAW;
}

/* Gives back the bits of nesting past the inline ones. */
static void walk_done(walk *w) {
    if (w->bits != w->inl) tyjson__free(w->o->alc, w->bits);
}

/* The byte walk's status when a container runs past switch_at. */
#define SWITCH_TO_INDEX TYJSON_E_SIZE

/* Room for one more level: doubles the bits from the allocator. */
static TYJSON__NOINLINE bool more_bits(walk *w) {
    usize bytes = w->cap_bits / 8, nbytes = bytes * 2;
    u64 *nb;
    if (w->bits == w->inl) {
        nb = (u64 *)tyjson__malloc(w->o->alc, nbytes);
        if (nb) memcpy(nb, w->inl, bytes);
    } else {
        nb = (u64 *)tyjson__realloc(w->o->alc, w->bits, bytes, nbytes);
    }
    if (!nb) return false;
    w->bits = nb;
    w->cap_bits *= 2;
    return true;
}

static bool push_level(walk *w, bool obj) {
    if (w->lvl == w->cap_bits && !more_bits(w)) return false;
    u64 bit = (u64)1 << (w->lvl % 64);
    if (obj) w->bits[w->lvl / 64] |= bit;
    else w->bits[w->lvl / 64] &= ~bit;
    w->lvl++;
    return true;
}

/* Whether the innermost open container (lvl > 0) is an object. */
static bool in_object(const walk *w) {
    usize i = w->lvl - 1;
    return (w->bits[i / 64] >> (i % 64)) & 1;
}

/* The string at p: a body without escapes settled by the inline scan
 * (most keys and values), the rest by tyjson__str_skip from its first
 * backslash (or from the start, to report an error the scan found). */
TYJSON__FORCEINLINE tyjson__read_res skip_string(const u8 *p, const tyjson__skip_opts *o) {
    bool allow_invalid = (o->flags & TYJSON_READ_ALLOW_INVALID_UTF8) != 0;
    tyjson__str_scan r = tyjson__str_scan_plain(p + 1, o->end, allow_invalid);
    if (likely(r.err == TYJSON_OK && *r.stop == '"')) return tyjson__read_ok(r.stop + 1);
    /* from the first backslash on (the bytes before it are checked) */
    r = tyjson__str_skip(r.err == TYJSON_OK ? r.stop : p + 1, o->end, allow_invalid);
    if (r.err != TYJSON_OK) return tyjson__read_fail(r.stop, r.err, TYJSON__EXPECT_NONE);
    return tyjson__read_ok(r.stop);
}

/* A JSON5 string (either quote) or number at p, when flags make it one:
 * true with its result in *r. */
static TYJSON__NOINLINE bool skip_j5_scalar(const u8 *p, const tyjson__skip_opts *o,
                                            tyjson__read_res *r) {
    const u8 *end = o->end;
    if (p >= end) return false;
    if (tyjson__j5_quote(*p, o->flags)) {
        tyjson__str_unesc u = tyjson__j5_str_unescape(p + 1, end, NULL, *p, o->flags);
        *r = u.err ? tyjson__read_fail(u.src, u.err, TYJSON__EXPECT_NONE) : tyjson__read_ok(u.src);
        return true;
    }
    if (tyjson__j5_number(*p, o->flags)) {
        tyjson__num num;
        tyjson_status st = TYJSON_OK;
        const u8 *ep = p;
        const u8 *q = tyjson__num_read_json5(p, end, o->flags | TYJSON_READ_BIGNUM_AS_RAW, &num, &st, &ep);
        if (q) {
            *r = tyjson__read_ok(q);
        } else {
            if (st == TYJSON_E_NUMBER && ep >= end) st = TYJSON_E_TRUNCATED;
            bool word = ep < end && (*ep == 'I' || *ep == 'N');
            *r = tyjson__read_fail(ep, st, word ? TYJSON__EXPECT_LITERAL : TYJSON__EXPECT_NUMBER);
        }
        return true;
    }
    return false;
}

/* A JSON5 key at p that is not a '"' string: single-quoted or an
 * identifier, as flags allow; true with its result in *r. */
static TYJSON__NOINLINE bool skip_j5_key(const u8 *p, const tyjson__skip_opts *o,
                                         tyjson__read_res *r) {
    const u8 *end = o->end;
    if (p >= end) return false;
    if (*p == '\'' && (o->flags & TYJSON_READ_ALLOW_SINGLE_QUOTES)) return skip_j5_scalar(p, o, r);
    if (!(o->flags & TYJSON_READ_ALLOW_UNQUOTED_KEYS) || !tyjson__j5_ident_lead(*p)) return false;
    tyjson__str_unesc u = tyjson__j5_ident(p, end, NULL);
    if (u.err == TYJSON_E_UNEXPECTED_CHAR) return false;
    *r = u.err ? tyjson__read_fail(u.src, u.err, TYJSON__EXPECT_NONE) : tyjson__read_ok(u.src);
    return true;
}

static tyjson__read_res skip_literal(const u8 *p, const u8 *end, const char *lit, usize n) {
    if (tyjson__match_literal(p, end, lit, n, false)) return tyjson__read_ok(p + n);
    return tyjson__read_fail(p, tyjson__literal_status(p, end, lit, n), TYJSON__EXPECT_LITERAL);
}

/* num_flags: TYJSON_READ_BIGNUM_AS_RAW when skipping (out-of-range
 * numbers are valid JSON: skipping them is fine); tyjson_validate's flags,
 * so that it rejects what the parser rejects. */
static tyjson__read_res skip_number(const u8 *p, const u8 *end, u32 num_flags) {
    tyjson__num num;
    tyjson_status st;
    const u8 *ep;
    /* a number in range under every flag needs no conversion; anything
     * else (and every error) is the number reader's */
    const u8 *q = tyjson__number_in_range(p, end);
    if (q && tyjson__token_ends(q, end)) return tyjson__read_ok(q);
    q = tyjson__num_read(p, end, num_flags, &num, &st, &ep);
    if (q) return tyjson__read_ok(q);
    /* "1." or "-" cut off by the end of input */
    if (st == TYJSON_E_NUMBER && ep >= end) st = TYJSON_E_TRUNCATED;
    return tyjson__read_fail(ep, st, TYJSON__EXPECT_NUMBER);
}

static tyjson__read_res skip_scalar(const u8 *p, const tyjson__skip_opts *o, u32 num_flags) {
    const u8 *end = o->end;
    if (unlikely(o->flags & TYJSON__J5_FLAGS)) {
        tyjson__read_res r;
        if (skip_j5_scalar(p, o, &r)) return r;
    }
    switch (*p) {
    case '"': return skip_string(p, o);
    case 't': return skip_literal(p, end, "true", 4);
    case 'f': return skip_literal(p, end, "false", 5);
    case 'n': return skip_literal(p, end, "null", 4);
    default: break;
    }
    if ((o->flags & TYJSON_READ_ALLOW_INF_NAN) && tyjson__inf_nan_start(p, end)) {
        double v;
        usize n = tyjson__match_inf_nan(p, end, &v);
        if (n) return tyjson__read_ok(p + n);
        return tyjson__read_fail(p, tyjson__inf_nan_status(p, end), TYJSON__EXPECT_LITERAL);
    }
    if (*p == '-' || (*p >= '0' && *p <= '9')) return skip_number(p, end, num_flags);
    return tyjson__read_fail(p, TYJSON_E_UNEXPECTED_CHAR, TYJSON__EXPECT_VALUE);
}

/* Something else was expected at p: end of input or a wrong byte. */
static tyjson__read_res expected(const u8 *p, const u8 *end, tyjson__expect what) {
    return tyjson__read_fail(p, p >= end ? TYJSON_E_TRUNCATED : TYJSON_E_UNEXPECTED_CHAR, what);
}

/* Whitespace (and comments, when allowed) at p: one space alone ("a, b",
 * "k: v") is taken without the run loop. */
TYJSON__FORCEINLINE tyjson__read_res walk_ws(const u8 *p, const u8 *end, u32 flags) {
    if (unlikely(flags & TYJSON__J5_FLAGS)) return tyjson__j5_skip_ws(p, end, flags);
    if (likely(p < end && !tyjson__is_ws(*p) && *p != '/')) return tyjson__read_ok(p);
    if (p + 1 < end && *p == ' ' && !tyjson__is_ws(p[1]) && p[1] != '/') return tyjson__read_ok(p + 1);
    return tyjson__skip_ws_comments(p, end, (flags & TYJSON_READ_ALLOW_COMMENTS) != 0);
}

/* The walk proper: one state per label (a value, a key, after a value),
 * as the grammar reads. */
static tyjson__read_res walk_value(walk *w, const u8 *p) {
    const tyjson__skip_opts *o = w->o;
    const u8 *end = o->end;
    const bool trailing = (o->flags & TYJSON_READ_ALLOW_TRAILING_COMMAS) != 0;
    bool obj = false;
    tyjson__read_res r;

value:
    if (p >= end) return expected(p, end, TYJSON__EXPECT_VALUE);
    if (*p == '{' || *p == '[') {
        obj = *p == '{';
        if (o->depth + w->lvl + 1 > o->max_depth)
            return tyjson__read_fail(p, TYJSON_E_DEPTH, TYJSON__EXPECT_NONE);
        if (!push_level(w, obj)) return tyjson__read_fail(p, TYJSON_E_NOMEM, TYJSON__EXPECT_NONE);
        r = walk_ws(p + 1, end, o->flags);
        if (r.err) return r;
        p = r.pos;
        if (p < end && *p == (obj ? '}' : ']')) {
            p++;
            goto close;
        }
        if (obj) goto key;
        goto value;
    }
    if (*p == '-' || (*p >= '0' && *p <= '9')) {
        /* the common number, without the scalar dispatch (skip_number) */
        const u8 *q = tyjson__number_in_range(p, end);
        if (likely(q && tyjson__token_ends(q, end))) {
            p = q;
            goto after;
        }
    }
    r = skip_scalar(p, o, w->num_flags);
    if (r.err) return r;
    p = r.pos;
    goto after;

key:
    if (p < end && *p == '"' && !(o->flags & TYJSON__J5_STR_FLAGS)) {
        r = skip_string(p, o);
    } else if (!(o->flags & TYJSON__J5_FLAGS)) {
        if (p >= end || *p != '"') return expected(p, end, TYJSON__EXPECT_KEY);
        r = skip_string(p, o);
    } else if (p < end && *p == '"') {
        if (!skip_j5_scalar(p, o, &r)) return expected(p, end, TYJSON__EXPECT_KEY);
    } else if (!skip_j5_key(p, o, &r)) {
        return expected(p, end, TYJSON__EXPECT_KEY);
    }
    if (r.err) return r;
    r = walk_ws(r.pos, end, o->flags);
    if (r.err) return r;
    p = r.pos;
    if (p >= end || *p != ':') return expected(p, end, TYJSON__EXPECT_COLON);
    r = walk_ws(p + 1, end, o->flags);
    if (r.err) return r;
    p = r.pos;
    goto value;

close:
    w->lvl--;
    if (w->lvl) obj = in_object(w);

after:
    if (w->lvl == 0) return tyjson__read_ok(p);
    if (unlikely(p > w->switch_at)) return tyjson__read_fail(p, SWITCH_TO_INDEX, TYJSON__EXPECT_NONE);
    r = walk_ws(p, end, o->flags);
    if (r.err) return r;
    p = r.pos;
    if (p < end && *p == ',') {
        r = walk_ws(p + 1, end, o->flags);
        if (r.err) return r;
        p = r.pos;
        if (trailing && p < end && *p == (obj ? '}' : ']')) {
            p++;
            goto close;
        }
        if (obj) goto key;
        goto value;
    }
    if (p < end && *p == (obj ? '}' : ']')) {
        p++;
        goto close;
    }
    return expected(p, end, obj ? TYJSON__EXPECT_OBJ_NEXT : TYJSON__EXPECT_ARR_NEXT);
}

static const u8 *ix_skip_rest(walk *w, const u8 *p);
static bool ix_usable(u32 flags);

/* A container still open this many bytes after its start is skipped over
 * the index from where the byte walk got to: below that, the indexer's
 * setup and first window cost more than they save. */
#define IX_SKIP_AFTER 512

static tyjson__read_res byte_walk(const u8 *p, const tyjson__skip_opts *o, const u8 *switch_at) {
    walk w;
    walk_init(&w, o, switch_at);
    tyjson__read_res r = walk_value(&w, p);
    walk_done(&w);
    return r;
}

TYJSON__FIRST_USE
tyjson__read_res tyjson__skip_value(const u8 *p, const tyjson__skip_opts *o) {
    const u8 *never = o->end;
    /* Most skipped values are scalars: no walk to set up. */
    if (p < never && *p != '{' && *p != '[') return skip_scalar(p, o, TYJSON_READ_BIGNUM_AS_RAW);
    if ((usize)(o->end - p) <= IX_SKIP_AFTER || !ix_usable(o->flags)) return byte_walk(p, o, never);
    /* The index walk goes on from the byte walk's position with its open
     * containers, so the bytes already walked are not classified again;
     * when it gives up, a byte walk from the start finds the error. */
    walk w;
    walk_init(&w, o, p + IX_SKIP_AFTER);
    tyjson__read_res r = walk_value(&w, p);
    const u8 *q = r.err == SWITCH_TO_INDEX ? ix_skip_rest(&w, r.pos) : NULL;
    walk_done(&w);
    if (r.err != SWITCH_TO_INDEX) return r;
    return q ? tyjson__read_ok(q) : byte_walk(p, o, never);
}

/* ----------------------------------------------------------------------------
 * The same walk over the structural index (read/index.h), for strict
 * syntax: whitespace is never looked at, and a string without escapes is
 * its two quote entries, its UTF-8 checked by the indexer. It only says
 * "valid, ending here" or gives up; where it gives up, the byte walk above
 * finds the error and its position, so both agree by construction.
 * ------------------------------------------------------------------------- */

/* The token cursor; only inlined code takes its address (index.h). */
typedef struct ix_cursor {
    tyjson__indexer *ix;
    tyjson__tok_win w;
    const u8 *end;
} ix_cursor;

/* The next token, or NULL at the end of the input or when the indexer
 * flagged it. */
TYJSON__FORCEINLINE const u8 *ix_token(ix_cursor *t) {
    const u8 *q = tyjson__tok_next(t->ix, &t->w);
    return q == t->end ? NULL : q;
}


/* The string whose opening quote is p: the byte after it, or NULL. */
TYJSON__FORCEINLINE const u8 *ix_string(ix_cursor *t, const u8 *p) {
    const u8 *q = ix_token(t);
    if (likely(q && *q == '"')) return q + 1;
    if (!q || *q != '\\') return NULL;
    /* Escapes: each entry is one; the bytes between them need no look (the
     * indexer checked their UTF-8). */
    (void)p;
    for (;;) {
        u8 scratch[8], *dst = scratch;
        tyjson_status err;
        usize used = tyjson__str_escape(q, t->end, &dst, &err);
        if (!used) return NULL;
        const u8 *run = q + used;
        do q = ix_token(t);
        while (q && q < run); /* a surrogate pair takes the next escape too */
        if (!q) return NULL;
        if (*q == '"') return q + 1;
        if (*q != '\\') return NULL;
    }
}

TYJSON__FORCEINLINE const u8 *ix_scalar(ix_cursor *t, const u8 *p, u32 num_flags) {
    const u8 *end = t->end, *q;
    switch (*p) {
    case '"': return ix_string(t, p);
    case 't': q = tyjson__match_literal(p, end, "true", 4, false) ? p + 4 : NULL; break;
    case 'f': q = tyjson__match_literal(p, end, "false", 5, false) ? p + 5 : NULL; break;
    case 'n': q = tyjson__match_literal(p, end, "null", 4, false) ? p + 4 : NULL; break;
    default: {
        if (*p != '-' && (*p < '0' || *p > '9')) return NULL;
        q = tyjson__number_in_range(p, end);
        if (q) break;
        tyjson__num num;
        tyjson_status st;
        const u8 *ep;
        q = tyjson__num_read(p, end, num_flags, &num, &st, &ep);
        break;
    }
    }
    return q && tyjson__token_ends(q, end) ? q : NULL;
}

/* The value at the first token of [p, o->end): the byte after it, or
 * NULL. With `whole`, nothing but whitespace may follow it. The indexer's
 * first window has first_blocks blocks. With `resume`, p is just after a
 * value inside the containers open in w (lvl > 0), where the byte walk
 * stopped: the walk goes on from there to their end. With `judge`, the
 * first window decides whether the index pays (tyjson__index_pays); when
 * it does not, *declined is set and NULL returned before anything is
 * walked. */
/* Inlined into both callers, so that each keeps its constant arguments
 * folded in (out of line, validate's walk was 3% slower). */
TYJSON__FORCEINLINE const u8 *ix_walk(walk *w, const u8 *p, usize first_blocks, u32 num_flags,
                                      bool whole, bool resume, bool judge, bool *declined) {
    const tyjson__skip_opts *o = w->o;
    tyjson__indexer ix;
    ix_cursor cur = {&ix, tyjson__tok_start(&ix, p, o->end, first_blocks), o->end};
    ix_cursor *t = &cur;
    bool obj = resume && in_object(w);
    if (resume) goto next;
    if (judge) {
        cur.w = tyjson__tok_refill(&ix);
        if (!tyjson__index_pays(&cur.w)) {
            *declined = true;
            return NULL;
        }
    }
    p = ix_token(t);
    if (!p) return NULL;

value:
    if (*p == '{' || *p == '[') {
        obj = *p == '{';
        if (o->depth + w->lvl + 1 > o->max_depth || !push_level(w, obj)) return NULL;
        p = ix_token(t);
        if (!p) return NULL;
        if (*p == (obj ? '}' : ']')) goto close;
        if (obj) goto key;
        goto value;
    }
    p = ix_scalar(t, p, num_flags);
    if (!p) return NULL;
    goto after;

key:
    /* The common member start, `"key":` then the value, from three entries
     * of the window at once: entries within a window are never the end nor
     * from a flagged window, so only their bytes need a look. */
    if (likely(cur.w.iend - cur.w.ip >= 3)) {
        const u8 *b = cur.w.base, *close = b + cur.w.ip[0], *colon = b + cur.w.ip[1];
        if (likely(*p == '"' && *close == '"' && *colon == ':')) {
            p = b + cur.w.ip[2];
            cur.w.ip += 3;
            goto value;
        }
    }
    if (*p != '"' || !ix_string(t, p)) return NULL;
    p = ix_token(t);
    if (!p || *p != ':') return NULL;
    p = ix_token(t);
    if (!p) return NULL;
    goto value;

close:
    p++;
    w->lvl--;
    if (w->lvl) obj = in_object(w);

after:
    if (w->lvl == 0) return !whole || tyjson__tok_next(&ix, &cur.w) == o->end ? p : NULL;
next:
    /* `,` and what follows it, from two entries at once (as at key) */
    if (likely(cur.w.iend - cur.w.ip >= 2)) {
        const u8 *b = cur.w.base, *sep = b + cur.w.ip[0];
        if (likely(*sep == ',')) {
            p = b + cur.w.ip[1];
            cur.w.ip += 2;
            if (obj) goto key;
            goto value;
        }
    }
    p = ix_token(t);
    if (!p) return NULL;
    if (*p == ',') {
        p = ix_token(t);
        if (!p) return NULL;
        if (obj) goto key;
        goto value;
    }
    if (*p == (obj ? '}' : ']')) goto close;
    return NULL;
}

static bool ix_usable(u32 flags) {
    const u32 relaxed = TYJSON_READ_ALLOW_COMMENTS | TYJSON_READ_ALLOW_TRAILING_COMMAS |
                        TYJSON_READ_ALLOW_INF_NAN | TYJSON_READ_ALLOW_INVALID_UTF8 |
                        TYJSON__J5_FLAGS;
    return !(flags & relaxed) && tyjson__index_kernel() != tyjson__index_scalar;
}

/* The indexed rest of a skip: p is where the byte walk stopped, after a
 * value inside w's open containers; the byte after the outermost one, or
 * NULL. The first window is eight blocks (the container is already longer
 * than IX_SKIP_AFTER), each later one twice the one before, so little past
 * the container's end is classified. The indexer (4 KiB of entries) is on
 * the C stack: the binding decoder's arena never frees. */
static TYJSON__NOINLINE const u8 *ix_skip_rest(walk *w, const u8 *p) {
    return ix_walk(w, p, 8, TYJSON_READ_BIGNUM_AS_RAW, false, true, false, NULL);
}

/* tyjson_validate's byte walk: the value at the first token of [p,
 * o->end) and, with `whole`, nothing but whitespace after it. */
static bool byte_validate(walk *w, const u8 *p, bool whole) {
    const u8 *end = w->o->end;
    tyjson__read_res r = walk_value(w, tyjson__skip_ws(p, end));
    return !r.err && (!whole || tyjson__skip_ws(r.pos, end) == end);
}

TYJSON__NOINLINE bool tyjson__validate_strict(const u8 *p, const tyjson__skip_opts *o,
                                              tyjson__validate_route route) {
    const u32 handled =
        TYJSON_READ_STOP_WHEN_DONE | TYJSON_READ_BIGNUM_AS_RAW | TYJSON_READ_NUMBER_AS_RAW;
    if (o->flags & ~handled) return false;
    walk w;
    walk_init(&w, o, o->end);
    /* numbers kept as text need their grammar only: no range to check */
    w.num_flags = (o->flags & (TYJSON_READ_BIGNUM_AS_RAW | TYJSON_READ_NUMBER_AS_RAW))
                      ? TYJSON_READ_BIGNUM_AS_RAW
                      : 0;
    bool whole = !(o->flags & TYJSON_READ_STOP_WHEN_DONE);
    bool declined = route == TYJSON__VALIDATE_BYTES || !ix_usable(o->flags);
    bool ok = false;
    if (!declined)
        ok = ix_walk(&w, p, TYJSON__IDX_WINDOW / 64, w.num_flags, whole, false,
                     route == TYJSON__VALIDATE_AUTO, &declined) != NULL;
    if (declined) ok = byte_validate(&w, p, whole);
    walk_done(&w);
    return ok;
}
