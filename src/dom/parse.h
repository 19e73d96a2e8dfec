/*
 * parse.h - what the DOM parser's two state machines share (parse.c: the
 * byte-at-a-time one, its errors and the entry points; parse_index.c: the
 * one over the structural index): the parser, the scalar readers, the
 * value array; and the switch tests use to choose the path.
 */
#ifndef TYJSON_DOM_PARSE_H
#define TYJSON_DOM_PARSE_H

#include "base/internal.h"

#include "read/syntax.h"
#include "read/msg.h"
#include "num/num.h"

#define NO_CTN SIZE_MAX

typedef struct parser {
    tyjson_alloc alc;
    u8 *buf;         /* padded copy of the input (becomes the doc's str_pool) */
    usize len;
    usize buf_size;  /* bytes of the padded copy at buf */
    usize blk_size;  /* allocated bytes of buf's block (the copy, then inl's area) */
    tyjson_doc *doc; /* header + value array: inl, or a block of its own */
    usize cap;       /* value capacity of doc */
    tyjson_doc *inl; /* the header and values that follow buf in buf's block, or NULL */
    usize inl_cap;   /* value capacity there */
    usize max_vals;  /* no valid input of len bytes needs more values */
    u32 max_depth;
    bool borrowed;   /* buf is the caller's (tyjson_read_insitu): never freed */
    const u8 *src;   /* the input, when the indexed parse copies it into buf as it goes */
} parser;

/* Slots a document of len bytes can need. Valid JSON needs at most one
 * value per two bytes (every value but a container's first child is
 * preceded by a separator, and containers take two bytes); invalid input
 * can open up to max_depth containers more that never close, and must still
 * reach its real error rather than run out of room. */
TYJSON__FORCEINLINE usize tyjson__dom_max_values(usize len, u32 max_depth) {
    usize extra = max_depth < len ? max_depth : len;
    return len / 2 + 2 + extra;
}

/* Gives doc room for new_cap values. While doc is the area after the copy
 * (inl), a request that fits keeps that area and a larger one moves the
 * values to a block of their own (the copy never moves: strings point into
 * it). */
bool tyjson__dom_block_resize(parser *p, usize new_cap);
/* Grows the value array so that index `need` exists. */
bool tyjson__dom_grow(parser *p, usize need);

/* Where a parse failed and what it was reading there (an EXPECT_* value). */
typedef struct failure {
    tyjson_status code;
    const u8 *pos;
    int expect;
} failure;

/* Records a failure (out of line: the readers' failure paths return a
 * literal NULL after it). */
void tyjson__dom_set_failure(failure *f, tyjson_status code, const u8 *pos, int expect);

/* What the scalar readers take from the parse's flags. */
typedef struct scalar_cfg {
    const u8 *end;
    u32 flags;
    u64 str_tag; /* tag of a string without escapes */
    bool allow_invalid;
} scalar_cfg;

/* The padding lets the number and string fast paths read ahead to the end. */
_Static_assert(TYJSON__PAD >= TYJSON__NUM_FAST_ROOM && TYJSON__PAD >= 16,
               "the DOM's padding covers the fast paths' read-ahead");

/* The rest of a string body s from its first backslash (stop), decoded in
 * place and NUL-terminated. */
TYJSON__FORCEINLINE const u8 *read_str_escaped(const u8 *s, const u8 *stop,
                                               const scalar_cfg *c, tyjson_val *v,
                                               failure *f) {
    tyjson__str_unesc u = tyjson__str_unescape(stop, c->end, (u8 *)(uintptr_t)stop,
                                               c->allow_invalid);
    if (u.err) {
        tyjson__dom_set_failure(f, u.err, u.src, EXPECT_STRING);
        return NULL;
    }
    *u.dst = 0;
    v->tag = TYJSON_TYPE_STR | ((u64)(u.dst - s) << TYJSON__LEN_SHIFT);
    v->uni.str = (const char *)s;
    return u.src;
}

/* A string (value or key) at cur ('"'), NUL-terminated in place. */
TYJSON__FORCEINLINE const u8 *read_str(const u8 *cur, const scalar_cfg *c, tyjson_val *v,
                                       failure *f) {
    const u8 *s = cur + 1;
    tyjson__str_scan sc = tyjson__str_scan_padded(s, c->end, c->allow_invalid);
    if (likely(sc.err == TYJSON_OK && *sc.stop == '"')) {
        *(u8 *)(uintptr_t)sc.stop = 0;
        v->tag = c->str_tag | ((u64)(sc.stop - s) << TYJSON__LEN_SHIFT);
        v->uni.str = (const char *)s;
        return sc.stop + 1;
    }
    if (sc.err) {
        tyjson__dom_set_failure(f, sc.err, sc.stop, EXPECT_STRING);
        return NULL;
    }
    return read_str_escaped(s, sc.stop, c, v, f);
}

/* The number n (read from cur to q) into *v. */
TYJSON__FORCEINLINE void store_num(const tyjson__num *n, const u8 *cur, const u8 *q,
                                   tyjson_val *v, usize *raw_count) {
    switch (n->kind) {
    case TYJSON__NUM_UINT:
        v->tag = TYJSON_TYPE_NUM | TYJSON_SUBTYPE_UINT;
        v->uni.u64 = n->v.u;
        break;
    case TYJSON__NUM_SINT:
        v->tag = TYJSON_TYPE_NUM | TYJSON_SUBTYPE_SINT;
        v->uni.i64 = n->v.i;
        break;
    case TYJSON__NUM_REAL:
        v->tag = TYJSON_TYPE_NUM | TYJSON_SUBTYPE_REAL;
        v->uni.f64 = n->v.f;
        break;
    default:
        v->tag = TYJSON_TYPE_RAW | ((u64)(q - cur) << TYJSON__LEN_SHIFT);
        v->uni.str = (const char *)cur;
        (*raw_count)++;
        break;
    }
}

/* A number the fast reader declines (parse.c). */
const u8 *tyjson__dom_read_num_slow(const u8 *cur, const scalar_cfg *c, tyjson_val *v,
                                    usize *raw_count, failure *f);

/* A number at cur; out-of-range ones kept as text count in *raw_count.
 * The fast reader (the padding covers its read-ahead) never yields text. */
TYJSON__FORCEINLINE const u8 *read_num(const u8 *cur, const scalar_cfg *c, tyjson_val *v,
                                       usize *raw_count, failure *f) {
    tyjson__num n;
    const u8 *q = tyjson__num_fast(cur, &n);
    if (unlikely(!q)) return tyjson__dom_read_num_slow(cur, c, v, raw_count, f);
    store_num(&n, cur, q, v, raw_count);
    return q;
}

/* true, false or null (lit, n bytes) at cur, stored with `tag`. */
TYJSON__FORCEINLINE const u8 *read_literal(const u8 *cur, const u8 *end, tyjson_val *v,
                                           const char *lit, usize n, u64 tag, failure *f) {
    if (unlikely(!tyjson__match_literal(cur, end, lit, n, true))) {
        tyjson__dom_set_failure(f, tyjson__literal_status(cur, end, lit, n), cur, EXPECT_LITERAL);
        return NULL;
    }
    v->tag = tag;
    v->uni.u64 = 0;
    return cur + n;
}

/* Opens a container at v: parks the parent's child count in its tag and
 * links the new one to its parent. Returns the new container's index. */
TYJSON__FORCEINLINE usize open_container(tyjson_val *vals, tyjson_val *v, u64 type, usize ctn,
                                         usize cnt) {
    if (ctn != NO_CTN) vals[ctn].tag = (vals[ctn].tag & 0xFF) | ((u64)cnt << TYJSON__LEN_SHIFT);
    v->tag = type;
    v->uni.ofs = ctn;
    return (usize)(v - vals);
}

/* Closes the container at index ctn (type, cnt children, its values
 * ending before v) and returns its parent's index, NO_CTN for the root. */
TYJSON__FORCEINLINE usize close_container(tyjson_val *vals, usize ctn, u64 type, usize cnt,
                                          const tyjson_val *v) {
    tyjson_val *c = vals + ctn;
    usize parent = c->uni.ofs;
    c->tag = type | ((u64)cnt << TYJSON__LEN_SHIFT);
    c->uni.ofs = (usize)(v - c);
    return parent;
}

/* Duplicate keys of the object obj (n members): the first repeated key,
 * or NULL (*nomem when the sort array could not be had). */
const tyjson_val *tyjson__dom_find_duplicate(parser *p, const tyjson_val *obj, usize n, bool *nomem);
/* The first guess at the value array's capacity. */
usize tyjson__dom_first_capacity(const parser *p);
/* Fills in the finished document from the values [vals, v). */
tyjson_doc *tyjson__dom_finish_doc(parser *p, tyjson_val *vals, tyjson_val *v, usize raw_count,
                                   const u8 *cur);

/* The flags the index-driven parse handles: the relaxed syntaxes change
 * what is a token, so they take parse_owned. */
#define TYJSON__DOM_INDEXED_FLAGS                                              \
    (TYJSON_READ_STOP_WHEN_DONE | TYJSON_READ_REJECT_DUPLICATE_KEYS | TYJSON_READ_BIGNUM_AS_RAW)

/* Whether the index-driven parse (parse_index.c) takes len bytes read with
 * these flags on this CPU. */
bool tyjson__dom_use_index(u32 flags, usize len);
/* The index-driven parse of p->buf: the document, or NULL: given up
 * (*declined: before writing anything; else the buffer may have changed)
 * or out of memory with cur at *nomem_at. */
tyjson_doc *tyjson__dom_parse_indexed(parser *p, u32 flags, u32 max_depth, const u8 **nomem_at,
                                      bool *declined);

#define TYJSON__INDEX_AUTO 0   /* the index when a vector kernel runs and it pays */
#define TYJSON__INDEX_ALWAYS 1 /* the index whenever a vector kernel runs */
#define TYJSON__INDEX_NEVER 2  /* always the byte-at-a-time state machine */

/** Sets the policy (TYJSON__INDEX_*); not meant to be called while other
 *  threads parse. */
void tyjson__parse_set_index_policy(int policy);
/** The policy in force (tyjson_validate follows it too). */
int tyjson__parse_index_policy(void);

#endif /* TYJSON_DOM_PARSE_H */
