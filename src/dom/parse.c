/*
 * parse.c - the DOM parser: bytes to an immutable tyjson_doc.
 *
 * The input is copied once into a buffer followed by TYJSON__PAD zero bytes
 * (or read straight into one by tyjson_read_file/_fp). Strings are decoded
 * in place in that copy and NUL-terminated, so the document needs no
 * allocation per string. The zero padding also stops every scanning loop
 * without a bounds check: a NUL is never valid JSON outside a string, and
 * inside one it is a control character, and both paths then look at the
 * real end.
 *
 * The parser is one goto state machine with no recursion: an open
 * container's slot temporarily holds the index of its parent container, and
 * its child count is parked in the parent's tag while a child container is
 * open. Nesting is limited only by max_depth.
 */
#include "dom/parse.h"
#include "read/json5.h"

bool tyjson__dom_block_resize(parser *p, usize new_cap) {
    usize old_bytes = p->doc ? sizeof(tyjson_doc) + p->cap * sizeof(tyjson_val) : 0;
    usize bytes = sizeof(tyjson_doc) + new_cap * sizeof(tyjson_val);
    if (p->inl && (!p->doc || p->doc == p->inl)) {
        if (new_cap <= p->inl_cap) {
            p->doc = p->inl;
            p->cap = p->inl_cap;
            return true;
        }
        /* Outgrown: the values move to a block of their own (a realloc of
         * buf's block could move the strings they point to). */
        void *own = tyjson__malloc(&p->alc, bytes);
        if (!own) return false;
        if (p->doc) memcpy(own, p->doc, old_bytes);
        p->doc = (tyjson_doc *)own;
        p->cap = new_cap;
        return true;
    }
    void *nb = p->doc ? tyjson__realloc(&p->alc, p->doc, old_bytes, bytes)
                      : tyjson__malloc(&p->alc, bytes);
    if (!nb) return false;
    p->doc = (tyjson_doc *)nb;
    p->cap = new_cap;
    return true;
}

/* Grows the value array so that index `need` exists. */
TYJSON__NOINLINE bool tyjson__dom_grow(parser *p, usize need) {
    usize nc = p->cap + p->cap / 2 + 64;
    if (nc < need + 1) nc = need + 1;
    if (nc > p->max_vals) nc = p->max_vals;
    if (nc < need + 1) return false; /* cannot happen for valid sizing */
    return tyjson__dom_block_resize(p, nc);
}

/* ----------------------------------------------------------------------------
 * Duplicate keys (TYJSON_READ_REJECT_DUPLICATE_KEYS), checked when an object
 * closes. Small objects compare pairwise; large ones sort key pointers.
 * Returns the later key of the first duplicate pair, NULL if none; sets
 * *nomem when the sort buffer cannot be allocated.
 * ------------------------------------------------------------------------- */
static int key_cmp(const void *a, const void *b) {
    const tyjson_val *x = *(tyjson_val *const *)a, *y = *(tyjson_val *const *)b;
    usize lx = tyjson__tag_len(x->tag), ly = tyjson__tag_len(y->tag);
    if (lx != ly) return lx < ly ? -1 : 1;
    int c = memcmp(x->uni.str, y->uni.str, lx);
    if (c) return c;
    return x->uni.str < y->uni.str ? -1 : (x->uni.str > y->uni.str ? 1 : 0);
}

static bool same_key(const tyjson_val *a, const tyjson_val *b) {
    usize n = tyjson__tag_len(a->tag);
    return n == tyjson__tag_len(b->tag) && memcmp(a->uni.str, b->uni.str, n) == 0;
}

const tyjson_val *tyjson__dom_find_duplicate(parser *p, const tyjson_val *obj, usize n, bool *nomem) {
    const tyjson_val *best = NULL;
    if (n < 2) return NULL;
    if (n <= 16) {
        const tyjson_val *keys[16];
        const tyjson_val *k = obj + 1;
        for (usize i = 0; i < n; i++) {
            keys[i] = k;
            k = tyjson__next(k + 1);
        }
        for (usize j = 1; j < n && !best; j++)
            for (usize i = 0; i < j; i++)
                if (same_key(keys[i], keys[j])) {
                    best = keys[j];
                    break;
                }
        return best;
    }
    const tyjson_val **keys = (const tyjson_val **)tyjson__malloc(&p->alc, n * sizeof(*keys));
    if (!keys) {
        *nomem = true;
        return NULL;
    }
    const tyjson_val *k = obj + 1;
    for (usize i = 0; i < n; i++) {
        keys[i] = k;
        k = tyjson__next(k + 1);
    }
    qsort(keys, n, sizeof(*keys), key_cmp);
    /* Within a run of equal keys, sorted by position, the second is the
     * earliest repeat of that key; the first repeat in document order is the
     * smallest of those. */
    for (usize i = 1; i < n; i++) {
        if (same_key(keys[i - 1], keys[i]) && (i < 2 || !same_key(keys[i - 2], keys[i - 1]))) {
            if (!best || keys[i]->uni.str < best->uni.str) best = keys[i];
        }
    }
    tyjson__free(&p->alc, (void *)keys);
    return best;
}

/* NUL-terminates raw numbers once parsing no longer needs the delimiters
 * that follow them. */
static void terminate_raws(tyjson_val *vals, usize n) {
    for (usize i = 0; i < n; i++)
        if ((vals[i].tag & TYJSON__TYPE_MASK) == TYJSON_TYPE_RAW)
            ((char *)(uintptr_t)vals[i].uni.str)[tyjson__tag_len(vals[i].tag)] = 0;
}

/* The error record of a failed parse: position against `orig` (the
 * caller's bytes; NULL when the buffer itself was read in place), message
 * from the padded buffer, which still holds every byte the message quotes. */
static TYJSON__NOINLINE void report_error(const parser *p, tyjson_error *err, const char *orig,
                                          tyjson_status code, int expect, const u8 *errpos) {
    if (!err) return;
    tyjson__err_set(err, code, orig, p->len, (usize)(errpos - p->buf));
    tyjson__describe_error(err, code, expect, p->buf, errpos, p->buf + p->len, p->max_depth);
}

/* ----------------------------------------------------------------------------
 * Scalars. Each reader stores the value at cur into *v (already reserved)
 * and returns the byte after it, or NULL with the failure recorded.
 * ------------------------------------------------------------------------- */

/* Records a failure. The readers then return a literal NULL, which lets
 * the compiler send their failure paths straight to the caller's failure
 * label and drop the NULL test from the success paths. */
TYJSON__NOINLINE void tyjson__dom_set_failure(failure *f, tyjson_status code, const u8 *pos,
                                         int expect) {
    f->code = code;
    f->pos = pos;
    f->expect = expect;
}

/* A number the fast reader declines: the general reader, its failures and
 * out-of-range numbers kept as text. Out of line, so the status and error
 * position it takes the address of stay out of the state machine's frame. */
TYJSON__NOINLINE const u8 *tyjson__dom_read_num_slow(const u8 *cur, const scalar_cfg *c,
                                                tyjson_val *v, usize *raw_count,
                                                failure *f) {
    tyjson__num n;
    tyjson_status code;
    const u8 *errpos;
    const u8 *q = tyjson__num_read_slow(cur, c->end, c->flags, &n, &code, &errpos);
    if (!q) {
        /* "1." or "-" cut off by the end of input */
        if (code == TYJSON_E_NUMBER && errpos >= c->end) code = TYJSON_E_TRUNCATED;
        tyjson__dom_set_failure(f, code, errpos, EXPECT_NUMBER);
        return NULL;
    }
    store_num(&n, cur, q, v, raw_count);
    return q;
}

/* NaN, Infinity or -Infinity at cur (TYJSON_READ_ALLOW_INF_NAN). */
static TYJSON__NOINLINE const u8 *read_inf_nan(const u8 *cur, const u8 *end, tyjson_val *v,
                                               failure *f) {
    double d;
    usize n = tyjson__match_inf_nan(cur, end, &d);
    if (!n) {
        tyjson__dom_set_failure(f, tyjson__inf_nan_status(cur, end), cur, EXPECT_LITERAL);
        return NULL;
    }
    v->tag = TYJSON_TYPE_NUM | TYJSON_SUBTYPE_REAL;
    v->uni.f64 = d;
    return cur + n;
}

/* A number that fails the grammar under TYJSON_READ_NUMBER_AS_RAW: the
 * number core names the error. */
static TYJSON__NOINLINE const u8 *read_num_text_fail(const u8 *cur, const scalar_cfg *c,
                                                     failure *f) {
    tyjson__num n;
    tyjson_status code = TYJSON_E_NUMBER;
    const u8 *errpos = cur;
    if (tyjson__num_read_text(cur, c->end, &n, &code, &errpos)) errpos = cur;
    if (code == TYJSON_E_NUMBER && errpos >= c->end) code = TYJSON_E_TRUNCATED;
    tyjson__dom_set_failure(f, code, errpos, EXPECT_NUMBER);
    return NULL;
}

/* A number at cur kept as its text (TYJSON_READ_NUMBER_AS_RAW): the
 * grammar is checked, nothing is converted; finish_doc NUL-terminates it. */
TYJSON__FORCEINLINE const u8 *read_num_text(const u8 *cur, const scalar_cfg *c, tyjson_val *v,
                                            usize *raw_count, failure *f) {
    const u8 *q = tyjson__num_scan(cur, c->end);
    if (unlikely(!q)) return read_num_text_fail(cur, c, f);
    v->tag = TYJSON_TYPE_RAW | ((u64)(q - cur) << TYJSON__LEN_SHIFT);
    v->uni.str = (const char *)cur;
    (*raw_count)++;
    return q;
}

/* Any scalar at cur. When cur starts no value the failure's expectation
 * is EXPECT_HERE: the caller's state knows what it wanted. */
TYJSON__FORCEINLINE const u8 *read_scalar(const u8 *cur, const scalar_cfg *c, tyjson_val *v,
                                          usize *raw_count, failure *f) {
    u8 ch = *cur;
    if (ch == '"') return read_str(cur, c, v, f);
    if ((ch >= '0' && ch <= '9') || ch == '-') {
        if (unlikely(ch == '-' && cur[1] == 'I') && (c->flags & TYJSON_READ_ALLOW_INF_NAN))
            return read_inf_nan(cur, c->end, v, f);
        return read_num(cur, c, v, raw_count, f);
    }
    if (ch == 't')
        return read_literal(cur, c->end, v, "true", 4, TYJSON_TYPE_BOOL | TYJSON_SUBTYPE_TRUE, f);
    if (ch == 'f')
        return read_literal(cur, c->end, v, "false", 5, TYJSON_TYPE_BOOL | TYJSON_SUBTYPE_FALSE, f);
    if (ch == 'n') return read_literal(cur, c->end, v, "null", 4, TYJSON_TYPE_NULL, f);
    if ((ch == 'N' || ch == 'I') && (c->flags & TYJSON_READ_ALLOW_INF_NAN))
        return read_inf_nan(cur, c->end, v, f);
    tyjson__dom_set_failure(f, cur >= c->end ? TYJSON_E_TRUNCATED : TYJSON_E_UNEXPECTED_CHAR, cur, EXPECT_HERE);
    return NULL;
}

/* read_scalar with numbers kept as text (TYJSON_READ_NUMBER_AS_RAW). A
 * copy, not read_scalar with a constant flag: inlining one shared body
 * changed the strict state machine's register allocation (1% more
 * instructions on canada.json, perf-log.md). */
TYJSON__FORCEINLINE const u8 *read_scalar_raw(const u8 *cur, const scalar_cfg *c, tyjson_val *v,
                                              usize *raw_count, failure *f) {
    u8 ch = *cur;
    if (ch == '"') return read_str(cur, c, v, f);
    if ((ch >= '0' && ch <= '9') || ch == '-') {
        if (unlikely(ch == '-' && cur[1] == 'I') && (c->flags & TYJSON_READ_ALLOW_INF_NAN))
            return read_inf_nan(cur, c->end, v, f);
        return read_num_text(cur, c, v, raw_count, f);
    }
    if (ch == 't')
        return read_literal(cur, c->end, v, "true", 4, TYJSON_TYPE_BOOL | TYJSON_SUBTYPE_TRUE, f);
    if (ch == 'f')
        return read_literal(cur, c->end, v, "false", 5, TYJSON_TYPE_BOOL | TYJSON_SUBTYPE_FALSE, f);
    if (ch == 'n') return read_literal(cur, c->end, v, "null", 4, TYJSON_TYPE_NULL, f);
    if ((ch == 'N' || ch == 'I') && (c->flags & TYJSON_READ_ALLOW_INF_NAN))
        return read_inf_nan(cur, c->end, v, f);
    tyjson__dom_set_failure(f, cur >= c->end ? TYJSON_E_TRUNCATED : TYJSON_E_UNEXPECTED_CHAR, cur, EXPECT_HERE);
    return NULL;
}

/* ----------------------------------------------------------------------------
 * JSON5 (the parse with a TYJSON__J5_FLAGS bit: parse_owned_j5). Strings of
 * either quote are decoded in place by the reading core's JSON5 decoder.
 * ------------------------------------------------------------------------- */

/* The string at cur (its quote, '"' or '\''), NUL-terminated in place. */
static TYJSON__NOINLINE const u8 *read_str_j5(const u8 *cur, const scalar_cfg *c, tyjson_val *v,
                                              failure *f) {
    const u8 *s = cur + 1;
    tyjson__str_unesc u = tyjson__j5_str_unescape(s, c->end, (u8 *)(uintptr_t)s, *cur, c->flags);
    if (u.err) {
        tyjson__dom_set_failure(f, u.err, u.src, EXPECT_STRING);
        return NULL;
    }
    *u.dst = 0;
    v->tag = TYJSON_TYPE_STR | ((u64)(u.dst - s) << TYJSON__LEN_SHIFT);
    v->uni.str = (const char *)s;
    return u.src;
}

/* Any scalar at cur with the JSON5 forms flags allow; the rest as
 * read_scalar reads it. */
static TYJSON__NOINLINE const u8 *read_scalar_j5(const u8 *cur, const scalar_cfg *c,
                                                 tyjson_val *v, usize *raw_count, failure *f) {
    u8 ch = *cur;
    if (tyjson__j5_quote(ch, c->flags)) return read_str_j5(cur, c, v, f);
    if (tyjson__j5_number(ch, c->flags)) {
        tyjson__num n;
        tyjson_status code = TYJSON_OK;
        const u8 *errpos = cur;
        const u8 *q = tyjson__num_read_json5(cur, c->end, c->flags, &n, &code, &errpos);
        if (!q) {
            if (code == TYJSON_E_NUMBER && errpos >= c->end) code = TYJSON_E_TRUNCATED;
            bool word = errpos < c->end && (*errpos == 'I' || *errpos == 'N');
            tyjson__dom_set_failure(f, code, errpos, word ? EXPECT_LITERAL : EXPECT_NUMBER);
            return NULL;
        }
        store_num(&n, cur, q, v, raw_count); /* NUMBER_AS_RAW: JSON's own text is RAW */
        return q;
    }
    if (c->flags & TYJSON_READ_NUMBER_AS_RAW) return read_scalar_raw(cur, c, v, raw_count, f);
    return read_scalar(cur, c, v, raw_count, f);
}

/* The identifier key at cur, then whitespace and its ':' (the key's NUL goes
 * where the identifier ended, which may be the colon): the byte after the
 * colon. */
static TYJSON__NOINLINE const u8 *read_ident_key(const u8 *cur, const scalar_cfg *c,
                                                 tyjson_val *v, failure *f) {
    tyjson__str_unesc u = tyjson__j5_ident(cur, c->end, (u8 *)(uintptr_t)cur);
    if (u.err) {
        tyjson__dom_set_failure(f, u.err == TYJSON_E_UNEXPECTED_CHAR && u.src >= c->end
                                       ? TYJSON_E_TRUNCATED : u.err,
                                u.src, u.err == TYJSON_E_UNEXPECTED_CHAR ? EXPECT_KEY : EXPECT_STRING);
        return NULL;
    }
    tyjson__read_res r = tyjson__j5_skip_ws(u.src, c->end, c->flags);
    if (r.err) {
        tyjson__dom_set_failure(f, r.err, r.pos, EXPECT_COMMENT);
        return NULL;
    }
    if (r.pos >= c->end || *r.pos != ':') {
        tyjson__dom_set_failure(f, r.pos >= c->end ? TYJSON_E_TRUNCATED : TYJSON_E_UNEXPECTED_CHAR,
                                r.pos, EXPECT_COLON);
        return NULL;
    }
    *u.dst = 0;
    v->tag = TYJSON_TYPE_STR | ((u64)(u.dst - cur) << TYJSON__LEN_SHIFT);
    v->uni.str = (const char *)cur;
    return r.pos + 1;
}

/* Where a repeated key is reported: its quote; an identifier key (JSON5)
 * has none, its first byte then. Out of line: failure path only. */
static TYJSON__NOINLINE const u8 *dup_key_pos(const tyjson_val *dup) {
    const u8 *kp = (const u8 *)dup->uni.str;
    return (kp[-1] == '"' || kp[-1] == '\'') ? kp - 1 : kp;
}

/* ----------------------------------------------------------------------------
 * The state machine. On success returns the document (owning p->buf); on
 * failure frees everything and returns NULL with err filled, positions
 * reported against `orig` (the caller's bytes) for line/column.
 *
 * Its macros take every local they touch as an argument, and each jumps
 * only to the failure labels, as its name says.
 * ------------------------------------------------------------------------- */

/* Records the failure f and jumps to `fail`. */
#define GOTO_FAIL(f, c, pos, what)                                             \
    do {                                                                       \
        tyjson__dom_set_failure(&(f), (c), (pos), (what));                                 \
        goto fail;                                                             \
    } while (0)

/* An unexpected byte at cur where `what` was wanted: truncation at the end. */
#define GOTO_FAIL_AT(f, cur, end, what)                                        \
    GOTO_FAIL(f, (cur) >= (end) ? TYJSON_E_TRUNCATED : TYJSON_E_UNEXPECTED_CHAR, cur, what)

/* Room for k more values at v; the array may move (vals, v, vcap follow).
 * Jumps to fail_nomem when it cannot tyjson__dom_grow. */
#define NEED_SLOTS_OR_FAIL(p, vals, v, vcap, k)                                \
    do {                                                                       \
        if (unlikely((v) + (k) > (vcap))) {                                    \
            usize at_ = (usize)((v) - (vals));                                 \
            if (!tyjson__dom_grow((p), at_ + (k) - 1)) goto fail_nomem;                    \
            (vals) = tyjson__doc_vals((p)->doc);                               \
            (v) = (vals) + at_;                                                \
            (vcap) = (vals) + (p)->cap;                                        \
        }                                                                      \
    } while (0)

/* The scalar at cur into *v, then v++; jumps to fail when it is bad, or
 * when cur starts no value (then `what` was wanted there). */
#define READ_SCALAR_OR_FAIL(f, cur, cfg, v, raw_count, what, j5)               \
    do {                                                                       \
        (cur) = (j5) ? read_scalar_j5((cur), &(cfg), (v), &(raw_count), &(f))  \
                     : PARSE_SM_SCALAR((cur), &(cfg), (v), &(raw_count), &(f)); \
        if (unlikely(!(cur))) {                                                \
            if ((f).expect == EXPECT_HERE) (f).expect = (what);                \
            goto fail;                                                         \
        }                                                                      \
        (v)++;                                                                 \
    } while (0)

/* Whitespace (the padding stops the skip), then comments when flags allow
 * them; a bad comment jumps to fail. The JSON5 parse (j5) also takes
 * JSON5's whitespace when flags allow it. */
#define SKIP_WS_OR_FAIL(f, cur, end, flags, j5)                                \
    do {                                                                       \
        if (tyjson__is_ws(*(cur))) (cur) = tyjson__skip_ws_padded((cur) + 1);  \
        if ((j5) && ((flags) & TYJSON_READ_ALLOW_EXTRA_WHITESPACE) &&          \
            (tyjson__j5_ws_lead(*(cur)) || *(cur) == '/')) {                   \
            tyjson__read_res r_ = tyjson__j5_skip_ws((cur), (end), (flags));   \
            if (r_.err) GOTO_FAIL(f, r_.err, r_.pos, EXPECT_COMMENT);          \
            (cur) = r_.pos;                                                    \
        } else if (unlikely(*(cur) == '/') && ((flags) & TYJSON_READ_ALLOW_COMMENTS)) { \
            tyjson__read_res r_ = tyjson__skip_comments((cur), (end));         \
            if (r_.err) GOTO_FAIL(f, r_.err, r_.pos, EXPECT_COMMENT);          \
            (cur) = r_.pos;                                                    \
        }                                                                      \
    } while (0)

/* Inputs of this many bytes and more are copied into one block with their
 * values (parse_copy). */
#define ONE_BLOCK_MIN ((usize)64 * 1024)

/* The ',', ':', '[' and '{' among the 64 * blocks bytes at q, blocks <= 32
 * (so no byte counter passes 4 * 32). gcc and clang turn the inner loop into
 * byte compares and adds, 16 lanes at a time: about 110 ns per 2 KiB, where
 * a 32-bit counter per byte took 600-1100 ns. */
static usize count_separators(const u8 *q, usize blocks) {
    u8 acc[16] = {0};
    for (usize b = 0; b < blocks; b++, q += 64)
        for (unsigned i = 0; i < 64; i += 16)
            for (unsigned k = 0; k < 16; k++) {
                u8 x = q[i + k];
                acc[k] = (u8)(acc[k] + (((x | 0x20) == '{') | (x == ',') | (x == ':')));
            }
    usize c = 0;
    for (unsigned k = 0; k < 16; k++) c += acc[k];
    return c;
}

/* The first guess at the value array. Every value but the root follows a
 * ',' , a ':' or an opening bracket, and every key a ',' or a '{', so
 * counting those characters counts the values (within 0-32% more on the
 * corpus: the ones inside strings). From ONE_BLOCK_MIN on, four samples a quarter
 * of the input apart (each 1/256 of it, at most 2 KiB) give the density (within -11% .. +36% of the
 * value count on the corpus files), plus a quarter more; smaller inputs
 * take the old rule of thumb (one value per 10 bytes, 20 when the text
 * starts pretty-printed), which is free. Close guesses matter: a block
 * that is too small is outgrown and one that is far too large is shrunk,
 * and either costs the next parse fresh pages (see parse_copy). */
static usize first_capacity(const u8 *dat, usize len, usize max_vals) {
    usize est;
    if (len >= ONE_BLOCK_MIN) {
        /* Four samples of 1/256 of the input each, up to 2 KiB. */
        usize blocks = len / (256 * 64) < 32 ? len / (256 * 64) : 32, seps = 0;
        for (int k = 0; k < 4; k++) seps += count_separators(dat + (len / 4) * (usize)k, blocks);
        est = seps * (len / (4 * 64 * blocks));
        est += est / 4 + 64;
        if (est > len / 4 + 64) est = len / 4 + 64; /* tyjson_read_max_memory counts on it */
    } else {
        const u8 *q = dat, *end = dat + len;
        while (q < end && tyjson__is_ws(*q)) q++;
        bool pretty = q + 1 < end && (*q == '[' || *q == '{') && tyjson__is_ws(q[1]);
        est = len / (pretty ? 20 : 10) + 16;
    }
    return est > max_vals ? max_vals : est;
}

usize tyjson__dom_first_capacity(const parser *p) {
    /* the caller's bytes while the indexed parse is still copying them */
    return first_capacity(p->src ? p->src : p->buf, p->len, p->max_vals);
}

/* Gives back the unused end of buf's block, keeping `tail` bytes after the
 * copy (the values in place there, or none). The strings of the values
 * [vals, vals + n) point into the block; should the allocator move it,
 * they are moved along (read as integers: the old block is gone). */
static void shrink_pool(parser *p, usize tail, tyjson_val *vals, usize n) {
    usize keep = p->buf_size + tail;
    u64 old = (u64)(uintptr_t)p->buf;
    u8 *nb = (u8 *)tyjson__realloc(&p->alc, p->buf, p->blk_size, keep);
    if (!nb) return; /* a failed shrink keeps the larger block */
    p->blk_size = keep;
    if ((u64)(uintptr_t)nb != old) {
        if (p->doc == p->inl) vals = tyjson__doc_vals((tyjson_doc *)(void *)(nb + p->buf_size));
        for (usize i = 0; i < n; i++) {
            u64 t = vals[i].tag & TYJSON__TYPE_MASK;
            if (t == TYJSON_TYPE_STR || t == TYJSON_TYPE_RAW)
                vals[i].uni.str = (const char *)nb + (usize)(vals[i].uni.u64 - old);
        }
    }
    p->buf = nb;
    if (p->doc == p->inl) p->doc = tail ? (tyjson_doc *)(void *)(nb + p->buf_size) : NULL;
    p->inl = tail ? (tyjson_doc *)(void *)(nb + p->buf_size) : NULL;
}

/* Fills in the finished document from the values [vals, v). */
tyjson_doc *tyjson__dom_finish_doc(parser *p, tyjson_val *vals, tyjson_val *v, usize raw_count,
                              const u8 *cur) {
    usize n = (usize)(v - vals);
    usize read = (usize)(cur - p->buf);
    if (raw_count) terminate_raws(vals, n);
    if (p->inl && p->doc == p->inl) {
        /* Values after the copy: give back the rest only when more than
         * half of the block is unused. Freeing the block whole, at the size
         * it was allocated, lets glibc's malloc serve the next parse of that
         * size from the pages it already has; a shrunk block lowers its mark
         * for blocks it maps, and then every parse maps and faults in fresh
         * pages (perf-log.md, "One block per parse"). */
        if (p->cap - n > 256 && (p->cap - n) * sizeof(tyjson_val) > p->blk_size / 2) {
            shrink_pool(p, sizeof(tyjson_doc) + n * sizeof(tyjson_val), vals, n);
            p->cap = n;
            vals = tyjson__doc_vals(p->doc);
        }
    } else {
        /* Give back a value array that ended up much larger than needed. */
        if (p->cap - n > 256) {
            tyjson__dom_block_resize(p, n); /* a failed shrink keeps the larger block */
            vals = tyjson__doc_vals(p->doc);
        }
        /* The values outgrew the area after the copy: give that area back
         * when it is more than half of the block (as above). */
        if (p->inl && sizeof(tyjson_doc) + p->inl_cap * sizeof(tyjson_val) > p->blk_size / 2)
            shrink_pool(p, 0, vals, n);
    }
    tyjson_doc *doc = p->doc;
    doc->in_pool = p->inl && p->doc == p->inl;
    doc->root = vals;
    doc->read_size = read;
    doc->val_count = n;
    doc->block_size = sizeof(tyjson_doc) + p->cap * sizeof(tyjson_val);
    doc->mem_size = doc->in_pool ? p->blk_size : doc->block_size + p->blk_size;
    doc->alc = p->alc;
    doc->str_pool = (char *)p->buf;
    doc->str_pool_size = p->blk_size;
    return doc;
}

#define PARSE_SM_NAME parse_owned_std
#define PARSE_SM_J5 0
#define PARSE_SM_SCALAR read_scalar
#define PARSE_SM_NUM read_num
#include "dom/parse_sm.h"

#define PARSE_SM_NAME parse_owned_raw
#define PARSE_SM_J5 0
#define PARSE_SM_SCALAR read_scalar_raw
#define PARSE_SM_NUM read_num_text
#include "dom/parse_sm.h"

#define PARSE_SM_NAME parse_owned_j5
#define PARSE_SM_J5 1
#define PARSE_SM_SCALAR read_scalar
#define PARSE_SM_NUM read_num
#include "dom/parse_sm.h"

/* The byte-at-a-time parse of p->buf (freed on failure unless borrowed).
 * Strict input and the older relaxations take parse_owned_std, where every
 * JSON5 test folds away; numbers kept as text parse_owned_raw; a JSON5 bit
 * parse_owned_j5. */
static tyjson_doc *parse_owned(parser *p, u32 flags, u32 max_depth, const char *orig,
                               tyjson_error *err) {
    if (unlikely(flags & TYJSON__J5_FLAGS)) return parse_owned_j5(p, flags, max_depth, orig, err);
    if (flags & TYJSON_READ_NUMBER_AS_RAW) return parse_owned_raw(p, flags, max_depth, orig, err);
    return parse_owned_std(p, flags, max_depth, orig, err);
}

#undef GOTO_FAIL
#undef GOTO_FAIL_AT
#undef NEED_SLOTS_OR_FAIL
#undef SKIP_WS_OR_FAIL
#undef READ_SCALAR_OR_FAIL

static u32 depth_limit(const tyjson_read_options *opts) {
    return (opts && opts->max_depth) ? opts->max_depth : TYJSON_DEFAULT_MAX_DEPTH;
}

/* ----------------------------------------------------------------------------
 * With STOP_WHEN_DONE only the first value is copied: the reading core's
 * validating skip finds where it ends, so reading record after record from
 * a large buffer stays linear. A first value that does not skip cleanly, or
 * does not parse, is parsed with the whole input, which then fails where
 * and as a plain parse does.
 * ------------------------------------------------------------------------- */
static usize first_value_extent(const u8 *p, usize len, const tyjson_read_options *opts) {
    u32 flags = opts ? opts->flags : 0;
    const u8 *end = p + len;
    tyjson_alloc alc = tyjson__alc_or_libc(opts ? opts->alc : NULL);
    tyjson__skip_opts o = {end, flags, 0, depth_limit(opts), &alc};
    const u8 *s = tyjson__skip_bom(p, end, flags);
    tyjson__read_res r = (flags & TYJSON__J5_FLAGS)
                             ? tyjson__j5_skip_ws(s, end, flags)
                             : tyjson__skip_ws_comments(s, end, (flags & TYJSON_READ_ALLOW_COMMENTS) != 0);
    if (r.err || r.pos >= end) return len;
    r = tyjson__skip_value(r.pos, &o);
    return r.err ? len : (usize)(r.pos - p);
}

/* ----------------------------------------------------------------------------
 * Entry points
 * ------------------------------------------------------------------------- */

/* Parses a padded copy of the first copy_len bytes of dat (len bytes). */
static tyjson_doc *parse_copy(const char *dat, usize copy_len, const tyjson_read_options *opts,
                              tyjson_error *err) {
    parser p;
    memset(&p, 0, sizeof(p));
    p.alc = tyjson__alc_or_libc(opts ? opts->alc : NULL);
    u32 flags = opts ? opts->flags : 0;
    usize bytes;
    if (tyjson__add_ovf(copy_len, TYJSON__PAD, &bytes) || copy_len > SIZE_MAX / 4) {
        tyjson__err_set(err, TYJSON_E_SIZE, NULL, 0, 0);
        return NULL;
    }
    /* From ONE_BLOCK_MIN bytes on, one block: the padded copy, then the
     * header and the first guess at the values (tyjson__dom_block_resize
     * moves them out if they outgrow it): one allocation per parse, freed
     * whole, at the size it was allocated (see finish_doc). Smaller inputs
     * live below malloc's mapping threshold, where two blocks cost no page
     * faults, and keep the tighter tyjson_read_max_memory bound. */
    usize copy_bytes = bytes, blk = bytes, inl_cap = 0;
    if (copy_len >= ONE_BLOCK_MIN) {
        inl_cap = first_capacity((const u8 *)dat, copy_len,
                                 tyjson__dom_max_values(copy_len, depth_limit(opts)));
        copy_bytes = (bytes + 15) & ~(usize)15;
        blk = copy_bytes + sizeof(tyjson_doc) + inl_cap * sizeof(tyjson_val);
    }
    p.buf = (u8 *)tyjson__malloc(&p.alc, blk);
    if (!p.buf) {
        tyjson__err_set(err, TYJSON_E_NOMEM, NULL, 0, 0);
        return NULL;
    }
    /* The indexed parse copies the input window by window as it indexes
     * it (read/index.h, tyjson__indexer_copy_from); the other parses want
     * it whole. */
    bool indexed = tyjson__dom_use_index(flags, copy_len);
    if (copy_len && !indexed) memcpy(p.buf, dat, copy_len);
    memset(p.buf + copy_len, 0, copy_bytes - copy_len);
    p.src = indexed ? (const u8 *)dat : NULL;
    p.len = copy_len;
    p.buf_size = copy_bytes;
    p.blk_size = blk;
    p.inl = inl_cap ? (tyjson_doc *)(void *)(p.buf + copy_bytes) : NULL;
    p.inl_cap = inl_cap;
    if (indexed) {
        const u8 *nomem_at;
        bool declined;
        tyjson_doc *doc = tyjson__dom_parse_indexed(&p, flags, depth_limit(opts), &nomem_at, &declined);
        if (doc) {
            tyjson__err_ok(err);
            return doc;
        }
        if (p.doc != p.inl) tyjson__free(&p.alc, p.doc);
        p.doc = NULL;
        p.cap = 0;
        if (nomem_at) {
            tyjson__err_set(err, TYJSON_E_NOMEM, dat, copy_len, (usize)(nomem_at - p.buf));
            tyjson__free(&p.alc, p.buf);
            return NULL;
        }
        /* Given up or declined: parse_owned starts again from the caller's
         * bytes (the index-driven parse copied part of them at most, and
         * may have decoded strings in place) and says what is wrong. */
        (void)declined;
        if (copy_len) memcpy(p.buf, dat, copy_len);
        p.src = NULL;
    }
    return parse_owned(&p, flags, depth_limit(opts), dat, err);
}

static tyjson_doc *parse_prefix(const char *dat, usize len, usize copy_len,
                                const tyjson_read_options *opts, tyjson_error *err) {
    u32 flags = opts ? opts->flags : 0;
    tyjson_doc *doc = parse_copy(dat, copy_len, opts, err);
    if (doc && copy_len < len && doc->read_size == copy_len) {
        /* Whitespace (and comments, when allowed) after the first value
         * count as consumed, so that the next read starts at a value; a bad
         * comment is left for the next read to report. */
        const u8 *q = (const u8 *)dat + copy_len, *e = (const u8 *)dat + len;
        tyjson__read_res r =
            (flags & TYJSON__J5_FLAGS)
                ? tyjson__j5_skip_ws(q, e, flags)
                : tyjson__skip_ws_comments(q, e, (flags & TYJSON_READ_ALLOW_COMMENTS) != 0);
        q = r.err ? tyjson__skip_ws(q, e) : r.pos;
        doc->read_size = (usize)(q - (const u8 *)dat);
    }
    if (!doc && err) {
        /* Positions relative to the caller's full input. */
        tyjson_locate(dat, len, err->offset, &err->line, &err->column);
    }
    return doc;
}

tyjson_doc *tyjson_read_opts(const char *dat, usize len, const tyjson_read_options *opts,
                             tyjson_error *err) {
    if (!dat && len) {
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return NULL;
    }
    if (!dat) dat = "";
    usize copy_len = len;
    if (opts && (opts->flags & TYJSON_READ_STOP_WHEN_DONE))
        copy_len = first_value_extent((const u8 *)dat, len, opts);
    if (copy_len == len) return parse_prefix(dat, len, len, opts, err);
    /* A first value that skips cleanly can still fail to parse (a number
     * out of range, say); parsed again with the whole input, it fails just
     * as a plain parse does, message included (the bytes after it are in
     * the quoted excerpt). Running out of memory is not retried. */
    tyjson_error local;
    tyjson_error *e = err ? err : &local;
    tyjson_doc *doc = parse_prefix(dat, len, copy_len, opts, e);
    if (!doc && e->code != TYJSON_E_NOMEM) doc = parse_prefix(dat, len, len, opts, e);
    return doc;
}

tyjson_doc *tyjson_read(const char *dat, usize len, tyjson_read_flags flags) {
    tyjson_read_options o;
    o.flags = flags;
    o.max_depth = 0;
    o.alc = NULL;
    return tyjson_read_opts(dat, len, &o, NULL);
}

usize tyjson_read_max_memory(usize len, tyjson_read_flags flags) {
    /* string copy (from ONE_BLOCK_MIN bytes on followed by the first guess
     * at the values: at most len / 4 + 64 of them), then a header/value
     * block of its own at its largest, each rounded and with allocator
     * bookkeeping; with duplicate-key checks, the temporary sort array of
     * the largest object. */
    usize vals = tyjson__dom_max_values(len, TYJSON_DEFAULT_MAX_DEPTH), a, b, total;
    if (tyjson__add_ovf(len, TYJSON__PAD + 64, &a)) return 0;
    if (len >= ONE_BLOCK_MIN) {
        if (tyjson__mul_ovf(len / 4 + 64, sizeof(tyjson_val), &b) ||
            tyjson__add_ovf(b, 16 + sizeof(tyjson_doc), &b) || tyjson__add_ovf(a, b, &a))
            return 0;
    }
    if (tyjson__mul_ovf(vals, sizeof(tyjson_val), &b)) return 0;
    if (tyjson__add_ovf(b, sizeof(tyjson_doc) + 64, &b)) return 0;
    if (tyjson__add_ovf(a, b, &total)) return 0;
    if (flags & TYJSON_READ_REJECT_DUPLICATE_KEYS) {
        usize c;
        if (tyjson__mul_ovf(vals, sizeof(void *), &c)) return 0;
        if (tyjson__add_ovf(total, c + 64, &total)) return 0;
    }
    if (tyjson__add_ovf(total, 256, &total)) return 0; /* pool header */
    return total;
}

/* Line and column of err->offset, counted by re-reading the stream from its
 * start (the parse buffer itself was decoded in place). */
static void locate_in_stream(FILE *fp, tyjson_error *err) {
    char chunk[4096];
    usize line = 1, col = 1, left = err->offset;
    if (fseek(fp, 0, SEEK_SET) != 0) return;
    while (left) {
        usize want = left < sizeof(chunk) ? left : sizeof(chunk);
        usize got = fread(chunk, 1, want, fp);
        if (!got) break;
        for (usize i = 0; i < got; i++) {
            if (chunk[i] == '\n') {
                line++;
                col = 1;
            } else {
                col++;
            }
        }
        left -= got;
    }
    err->line = line;
    err->column = col;
}

/* Reads a stream into a padded buffer from the allocator, then parses it in
 * place: files are copied once, not twice. */
static tyjson_doc *read_stream(FILE *fp, const tyjson_read_options *opts, tyjson_error *err) {
    parser p;
    memset(&p, 0, sizeof(p));
    p.alc = tyjson__alc_or_libc(opts ? opts->alc : NULL);
    u32 flags = opts ? opts->flags : 0;
    usize cap = 0, n = 0;
    long size = -1;
    if (fseek(fp, 0, SEEK_END) == 0) {
        size = ftell(fp);
        if (fseek(fp, 0, SEEK_SET) != 0) size = -1;
    }
    /* The size is only a hint: a directory or a device can report nonsense,
     * and a file can change while it is read. */
    if (size >= 0 && (unsigned long)size < SIZE_MAX / 4)
        cap = (usize)size + TYJSON__PAD + 1; /* exact: fits a pool sized by read_max_memory */
    else
        cap = 4096 + TYJSON__PAD;
    p.buf = (u8 *)tyjson__malloc(&p.alc, cap);
    if (!p.buf && cap > 4096 + TYJSON__PAD) {
        cap = 4096 + TYJSON__PAD;
        p.buf = (u8 *)tyjson__malloc(&p.alc, cap);
    }
    if (!p.buf) {
        tyjson__err_set(err, TYJSON_E_NOMEM, NULL, 0, 0);
        return NULL;
    }
    for (;;) {
        if (cap - n <= TYJSON__PAD) {
            usize ncap;
            if (tyjson__add_ovf(cap, cap / 2, &ncap)) {
                tyjson__free(&p.alc, p.buf);
                tyjson__err_set(err, TYJSON_E_SIZE, NULL, 0, 0);
                return NULL;
            }
            u8 *nb = (u8 *)tyjson__realloc(&p.alc, p.buf, cap, ncap);
            if (!nb) {
                tyjson__free(&p.alc, p.buf);
                tyjson__err_set(err, TYJSON_E_NOMEM, NULL, 0, 0);
                return NULL;
            }
            p.buf = nb;
            cap = ncap;
        }
        usize got = fread(p.buf + n, 1, cap - n - TYJSON__PAD, fp);
        n += got;
        if (got == 0) break;
    }
    if (ferror(fp)) {
        tyjson__free(&p.alc, p.buf);
        tyjson__err_set(err, TYJSON_E_IO, NULL, 0, 0);
        return NULL;
    }
    memset(p.buf + n, 0, TYJSON__PAD);
    p.len = n;
    p.buf_size = cap;
    p.blk_size = cap;
    if (flags & TYJSON_READ_STOP_WHEN_DONE) {
        usize ext = first_value_extent(p.buf, n, opts);
        if (ext < n) {
            /* Parse only the first value, as tyjson_read_opts does. */
            tyjson_doc *doc = parse_prefix((const char *)p.buf, n, ext, opts, err);
            tyjson__free(&p.alc, p.buf);
            return doc;
        }
    }
    if (size < 0) {
        /* Not seekable (a pipe): in-place decoding would destroy the bytes
         * that error positions are counted in, so parse from a copy. */
        tyjson_doc *doc = parse_prefix((const char *)p.buf, n, n, opts, err);
        tyjson__free(&p.alc, p.buf);
        return doc;
    }
    tyjson_doc *doc = parse_owned(&p, flags, depth_limit(opts), NULL, err);
    if (!doc && err && err->code != TYJSON_E_NOMEM) locate_in_stream(fp, err);
    return doc;
}

tyjson_doc *tyjson_read_fp(FILE *fp, const tyjson_read_options *opts, tyjson_error *err) {
    if (!fp) {
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return NULL;
    }
    return read_stream(fp, opts, err);
}

/* ----------------------------------------------------------------------------
 * In situ: the caller's buffer is the parse buffer. No copy; the strings
 * and raw numbers stay in it (the document owns only its value array).
 * The byte-at-a-time state machine parses it: the index-driven parse may
 * give up after decoding strings in place, and here no copy is left to
 * start again from.
 * ------------------------------------------------------------------------- */
_Static_assert(TYJSON_INSITU_PADDING == TYJSON__PAD, "the public padding is the parser's");

tyjson_doc *tyjson_read_insitu(char *buf, size_t len, size_t cap, const tyjson_read_options *opts,
                               tyjson_error *err) {
    if (!buf || cap < TYJSON_INSITU_PADDING || len > cap - TYJSON_INSITU_PADDING) {
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        tyjson__err_msg(err, buf ? "tyjson_read_insitu: cap must be at least len + "
                                   "TYJSON_INSITU_PADDING (64) bytes"
                                 : "tyjson_read_insitu: NULL buffer");
        return NULL;
    }
    if (len > SIZE_MAX / 4) {
        tyjson__err_set(err, TYJSON_E_SIZE, NULL, 0, 0);
        return NULL;
    }
    parser p;
    memset(&p, 0, sizeof(p));
    p.alc = tyjson__alc_or_libc(opts ? opts->alc : NULL);
    memset(buf + len, 0, TYJSON__PAD);
    p.buf = (u8 *)buf;
    p.len = len;
    p.buf_size = len + TYJSON__PAD;
    p.blk_size = 0;
    p.borrowed = true;
    tyjson_doc *doc = parse_owned(&p, opts ? opts->flags : 0, depth_limit(opts), buf, err);
    if (!doc) return NULL;
    doc->str_pool = NULL; /* the caller's */
    doc->str_pool_size = 0;
    doc->mem_size = doc->block_size;
    return doc;
}

tyjson_doc *tyjson_read_file(const char *path, const tyjson_read_options *opts,
                             tyjson_error *err) {
    if (!path) {
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return NULL;
    }
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        tyjson__err_set(err, TYJSON_E_IO, NULL, 0, 0);
        return NULL;
    }
    tyjson_doc *doc = read_stream(fp, opts, err);
    fclose(fp);
    return doc;
}
