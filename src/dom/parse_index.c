/*
 * parse_index.c - the DOM parser's second state machine: strict input over
 * the structural index (read/index.h). docs/design.md "Structural index"
 * says when it runs and why it agrees with parse_owned (parse.c).
 */
#include "dom/parse.h"
#include "read/index.h"
#include "read/simd.h"

/* ----------------------------------------------------------------------------
 * The index-driven parse (strict input). The structural indexer (read/
 * index.h) lists every token's first byte, window by window, so this state
 * machine jumps from token to token: no whitespace is looked at, and a
 * string without escapes is its two quote entries, its UTF-8 already
 * checked. The grammar is the one parse_owned checks; where parse_owned
 * would fail, this one only gives up (returns NULL, the buffer possibly
 * changed), and the caller parses the original bytes with parse_owned,
 * which reports the error, so the two agree by construction. Out of
 * memory gives up the same way.
 * ------------------------------------------------------------------------- */

/* The token cursor; only inlined code takes its address (index.h). */
typedef struct tok_cursor {
    tyjson__indexer *ix;
    tyjson__tok_win w;
    const u8 *end; /* the input's end, a zero byte */
} tok_cursor;

/* What the cursor gives once the indexer has flagged the input (tok_next's
 * NULL): a zero byte, which is no token's first byte, so the grammar tests
 * that follow every token give up on it and no token needs a NULL test of
 * its own. Never written: the readers write only over a closing quote or
 * an escape. (end, when the entries run out, is a zero byte too.) */
static const u8 ix_flagged[1] = {0};

/* tyjson__tok_next with the flagged window mapped to ix_flagged. Inline
 * down to the refill call, so that the window stays in registers. */
TYJSON__FORCEINLINE const u8 *ix_next(tok_cursor *c) {
    if (likely(c->w.ip < c->w.iend)) return c->w.base + *c->w.ip++;
    c->w = tyjson__tok_refill(c->ix);
    if (c->w.ip < c->w.iend) return c->w.base + *c->w.ip++;
    return c->w.base ? c->w.base : ix_flagged;
}

#define NEXT_TOKEN(c) ix_next(&(c))



/* The tag of a string without escapes: strict input is checked UTF-8, so
 * every such string may be written as it is (a literal, not a field of
 * scalar_cfg: the cfg lives in memory, and the load was on every string). */
#define IX_STR_TAG (TYJSON_TYPE_STR | TYJSON__NOESC_BIT)

/* A string whose opening quote is at cur and whose next entry is `stop`:
 * stored NUL-terminated in place. Returns the byte after its closing
 * quote, or NULL to give up. */
TYJSON__FORCEINLINE const u8 *ix_read_str(tok_cursor *c, const u8 *cur, const u8 *stop,
                                          tyjson_val *v) {
    const u8 *s = cur + 1;
    if (likely(*stop == '"')) {
        *(u8 *)(uintptr_t)stop = 0;
        v->tag = IX_STR_TAG | ((u64)(stop - s) << TYJSON__LEN_SHIFT);
        v->uni.str = (const char *)s;
        return stop + 1;
    }
    if (*stop != '\\') return NULL;
    /* Escapes: the entries give every escape's start and the closing
     * quote, so the decoding moves the plain runs between them (their
     * UTF-8 checked by the indexer) and decodes each escape, scanning
     * nothing. Each entry is taken before the bytes up to it are rewritten,
     * so the windows it spans are indexed from the original bytes. */
    u8 *dst = (u8 *)(uintptr_t)stop;
    const u8 *q = stop;
    for (;;) {
        tyjson_status err;
        usize used = tyjson__str_escape(q, c->end, &dst, &err);
        if (!used) return NULL;
        const u8 *run = q + used;
        do q = NEXT_TOKEN(*c);
        while (q != ix_flagged && q < run); /* a surrogate pair takes the next escape too */
        if (*q != '"' && *q != '\\') return NULL; /* also ix_flagged and end */
        usize n = (usize)(q - run);
        memmove(dst, run, n);
        dst += n;
        if (*q == '"') break;
    }
    *dst = 0;
    v->tag = TYJSON_TYPE_STR | ((u64)(dst - s) << TYJSON__LEN_SHIFT);
    v->uni.str = (const char *)s;
    return q + 1;
}

/* true, false or null (lit, n bytes) at cur, stored with tag; NULL to
 * give up. read_literal's failure record is of no use here (parse_owned
 * reports the error), and it kept its call and the error's arguments in
 * this machine's code. */
TYJSON__FORCEINLINE const u8 *ix_read_literal(const u8 *cur, tyjson_val *v, const char *lit,
                                              usize n, u64 tag) {
    if (unlikely(!tyjson__match_literal(cur, NULL, lit, n, true))) return NULL;
    v->tag = tag;
    v->uni.u64 = 0;
    return cur + n;
}

/* A number, literal or string at cur into *v; the byte after it, or NULL
 * to give up. */
TYJSON__FORCEINLINE const u8 *ix_read_scalar(tok_cursor *c, const u8 *cur, const scalar_cfg *cfg,
                                             tyjson_val *v, usize *raw_count) {
    u8 ch = *cur;
    failure f;
    const u8 *q;
    if (ch == '"') return ix_read_str(c, cur, NEXT_TOKEN(*c), v);
    if ((ch >= '0' && ch <= '9') || ch == '-') {
        q = read_num(cur, cfg, v, raw_count, &f);
        if (!q) return NULL;
    } else if (ch == 't') {
        q = ix_read_literal(cur, v, "true", 4, TYJSON_TYPE_BOOL | TYJSON_SUBTYPE_TRUE);
    } else if (ch == 'f') {
        q = ix_read_literal(cur, v, "false", 5, TYJSON_TYPE_BOOL | TYJSON_SUBTYPE_FALSE);
    } else if (ch == 'n') {
        q = ix_read_literal(cur, v, "null", 4, TYJSON_TYPE_NULL);
    } else {
        return NULL; /* also ix_flagged and end */
    }
    if (!q || !tyjson__token_ends(q, cfg->end)) return NULL;
    return q;
}

static int index_policy = TYJSON__INDEX_AUTO;

/* Below this many bytes the indexer's setup and its end-of-input block cost
 * more than the index saves: a 99-byte object parses at 0.50x, a 1.5 KB
 * minified one at 0.95x, a 3 KB pretty one at 1.7x (docs/perf-log.md). */
#define INDEX_MIN_LEN 1024

void tyjson__parse_set_index_policy(int policy) { index_policy = policy; }

int tyjson__parse_index_policy(void) { return index_policy; }

#define GIVE_UP_IF(cond)                                                       \
    do {                                                                       \
        if (unlikely(cond)) goto give_up;                                      \
    } while (0)

/* Out of memory is reported, not given up on: parse_owned would run out
 * at the same value, with cur at the same token. */
#define NEED_SLOTS_OR_NOMEM(p, vals, v, vcap, k)                               \
    do {                                                                       \
        if (unlikely((v) + (k) > (vcap))) {                                    \
            usize at_ = (usize)((v) - (vals));                                 \
            if (!tyjson__dom_grow((p), at_ + (k) - 1)) goto nomem;                         \
            (vals) = tyjson__doc_vals((p)->doc);                               \
            (v) = (vals) + at_;                                                \
            (vcap) = (vals) + (p)->cap;                                        \
        }                                                                      \
    } while (0)

/* A value at cur (whose first byte is a token): containers jump to their
 * open labels, scalars are read and v advances. */
#define IX_VALUE_OR_GIVE_UP(c, cur, cfg, v, raw_count)                         \
    do {                                                                       \
        if (*(cur) == '[') goto arr_open;                                      \
        if (*(cur) == '{') goto obj_open;                                      \
        (cur) = ix_read_scalar(&(c), (cur), &(cfg), (v), &(raw_count));        \
        GIVE_UP_IF(!(cur));                                                    \
        (v)++;                                                                 \
    } while (0)

/* tyjson__index_pays for the AVX2 kernel, which costs about twice the
 * AVX-512 one per byte: the index pays only where tokens are short and
 * structure, not numbers, fills them. Judged, as there, from the first 256
 * entries of the first window: under a quarter numbers or backslashes, under
 * 1/16 numbers, and under 13 bytes per entry. At TYJSON_SIMD=avx2, parse
 * time with the index over parse_owned's, same process, interleaved
 * (docs/perf-log.md, bytep): twitter 0.78, github_events 0.78 (taken);
 * citm_catalog 1.05 (9% numbers), poet 1.10 (15 bytes an entry), canada,
 * mesh, numbers and twitterescaped 1.03-2.3 (declined by the quarter). */
static bool avx2_index_pays(const tyjson__tok_win *w) {
    usize n = (usize)(w->iend - w->ip), dense = 0, nums = 0;
    if (!w->base || n == 0) return true; /* flagged or empty: the reader gives up at once */
    if (n > 256) n = 256;
    for (usize i = 0; i < n; i++) {
        u8 ch = w->base[w->ip[i]];
        bool num = (ch >= '0' && ch <= '9') || ch == '-';
        nums += num;
        dense += num || ch == '\\';
    }
    usize span = (usize)(w->ip[n - 1] - w->ip[0]);
    return dense * 4 < n && nums * 16 < n && span < 13 * n;
}

/* The document, or NULL: given up (*nomem_at NULL) or out of memory with
 * cur at *nomem_at. */
tyjson_doc *tyjson__dom_parse_indexed(parser *p, u32 flags, u32 max_depth, const u8 **nomem_at,
                                 bool *declined) {
    u8 *const buf = p->buf;
    const u8 *const end = buf + p->len;
    const scalar_cfg cfg = {end, flags, TYJSON_TYPE_STR | TYJSON__NOESC_BIT, false};
    usize raw_count = 0;
    u32 depth_left = max_depth; /* counted down: one register, not depth and its limit */
    usize ctn = NO_CTN;
    usize cnt = 0;
    tyjson_val *vals, *v, *vcap;
    const u8 *cur, *after = NULL;
    tyjson__indexer ix;
    tok_cursor c;

    *nomem_at = NULL;
    *declined = index_policy == TYJSON__INDEX_AUTO && p->len < INDEX_MIN_LEN;
    if (*declined) return NULL;
    p->max_vals = tyjson__dom_max_values(p->len, max_depth);
    p->max_depth = max_depth;
    c.ix = &ix;
    c.w = tyjson__tok_start(&ix, buf, end, TYJSON__IDX_WINDOW / 64);
    if (p->src) tyjson__indexer_copy_from(&ix, p->src);
    c.end = end;
    c.w = tyjson__tok_refill(&ix);
    if (index_policy == TYJSON__INDEX_AUTO &&
        !(tyjson__simd_level() == TYJSON__SIMD_AVX512 ? tyjson__index_pays(&c.w) : avx2_index_pays(&c.w))) {
        *declined = true;
        return NULL;
    }
    cur = buf;
    if (!tyjson__dom_block_resize(p, tyjson__dom_first_capacity(p))) goto nomem;
    vals = tyjson__doc_vals(p->doc);
    v = vals;
    vcap = vals + p->cap;

    cur = NEXT_TOKEN(c);
    GIVE_UP_IF(cur == end);
    NEED_SLOTS_OR_NOMEM(p, vals, v, vcap, 1);
    IX_VALUE_OR_GIVE_UP(c, cur, cfg, v, raw_count);
    after = cur;
    goto root_end;

arr_open:
    GIVE_UP_IF(depth_left-- == 0);
    ctn = open_container(vals, v, TYJSON_TYPE_ARR, ctn, cnt);
    cnt = 0;
    v++;
    cur = NEXT_TOKEN(c);
    if (*cur == ']') goto arr_close;
arr_val:
    NEED_SLOTS_OR_NOMEM(p, vals, v, vcap, 1);
    cnt++;
    IX_VALUE_OR_GIVE_UP(c, cur, cfg, v, raw_count);
arr_val_end:
    cur = NEXT_TOKEN(c);
    if (*cur == ',') {
        cur = NEXT_TOKEN(c);
        goto arr_val;
    }
    GIVE_UP_IF(*cur != ']');
arr_close : {
    depth_left++;
    usize parent = close_container(vals, ctn, TYJSON_TYPE_ARR, cnt, v);
    if (parent == NO_CTN) {
        after = cur + 1;
        goto root_end;
    }
    ctn = parent;
    cnt = tyjson__tag_len(vals[ctn].tag);
    if ((vals[ctn].tag & TYJSON__TYPE_MASK) == TYJSON_TYPE_ARR) goto arr_val_end;
    goto obj_val_end;
}

obj_open:
    GIVE_UP_IF(depth_left-- == 0);
    ctn = open_container(vals, v, TYJSON_TYPE_OBJ, ctn, cnt);
    cnt = 0;
    v++;
    cur = NEXT_TOKEN(c);
    if (*cur == '}') goto obj_close;
obj_key:
    GIVE_UP_IF(*cur != '"');
    NEED_SLOTS_OR_NOMEM(p, vals, v, vcap, 2);
    cnt++;
    GIVE_UP_IF(!ix_read_str(&c, cur, NEXT_TOKEN(c), v));
    v++;
    cur = NEXT_TOKEN(c);
    GIVE_UP_IF(*cur != ':');
    cur = NEXT_TOKEN(c);
    IX_VALUE_OR_GIVE_UP(c, cur, cfg, v, raw_count);
obj_val_end:
    cur = NEXT_TOKEN(c);
    if (*cur == ',') {
        cur = NEXT_TOKEN(c);
        goto obj_key;
    }
    GIVE_UP_IF(*cur != '}');
obj_close : {
    usize parent = close_container(vals, ctn, TYJSON_TYPE_OBJ, cnt, v);
    if (unlikely(flags & TYJSON_READ_REJECT_DUPLICATE_KEYS)) {
        bool nomem = false;
        const tyjson_val *dup = tyjson__dom_find_duplicate(p, vals + ctn, cnt, &nomem);
        if (nomem) goto nomem;
        GIVE_UP_IF(dup != NULL);
    }
    depth_left++;
    if (parent == NO_CTN) {
        after = cur + 1;
        goto root_end;
    }
    ctn = parent;
    cnt = tyjson__tag_len(vals[ctn].tag);
    if ((vals[ctn].tag & TYJSON__TYPE_MASK) == TYJSON_TYPE_ARR) goto arr_val_end;
    goto obj_val_end;
}

root_end:
    if (flags & TYJSON_READ_STOP_WHEN_DONE) {
        tyjson__indexer_copy_rest(&ix);
        cur = tyjson__skip_ws(after, end);
    } else {
        cur = NEXT_TOKEN(c);
        GIVE_UP_IF(cur != end);
    }
    return tyjson__dom_finish_doc(p, vals, v, raw_count, cur);

nomem:
    *nomem_at = cur;
give_up:
    return NULL;
}

#undef NEXT_TOKEN
#undef GIVE_UP_IF
#undef NEED_SLOTS_OR_NOMEM
#undef IX_VALUE_OR_GIVE_UP


/* Whether the index-driven parse takes input read with these flags: only
 * strict syntax, and only with a kernel that pays for itself. The portable
 * indexer is slower than parse_owned's own scanning. The AVX2 one, once
 * slower everywhere (h2, 2026-12-02: twitter 1.05, citm 0.81, geo-mean
 * 0.85-0.91 in throughput), pays since the index-driven machine got faster
 * (pstage2) where tokens are short and few are numbers, which
 * avx2_index_pays judges per input. At NEON it runs 22-41% more
 * instructions than parse_owned (counted under qemu; no Arm hardware to
 * time it on), so NEON does not take it. The tests' ALWAYS policy takes
 * the index at every vector level, so the parse runs over each kernel. */
bool tyjson__dom_use_index(u32 flags, usize len) {
    /* what tyjson__dom_parse_indexed would decline at once (small inputs,
     * such as NDJSON records) skips its call and the copy after it */
    if ((flags & ~(u32)TYJSON__DOM_INDEXED_FLAGS) != 0 || index_policy == TYJSON__INDEX_NEVER ||
        (index_policy == TYJSON__INDEX_AUTO && len < INDEX_MIN_LEN) ||
        tyjson__index_kernel() == tyjson__index_scalar)
        return false;
    int level = tyjson__simd_level();
    return index_policy == TYJSON__INDEX_ALWAYS || level == TYJSON__SIMD_AVX512 ||
           level == TYJSON__SIMD_AVX2;
}

