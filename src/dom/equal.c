/*
 * equal.c - THE deep equality of both documents (tyjson_equals_ex in dom.h,
 * tyjson_mut_equals_ex in mut.h): one algorithm over a small cursor (kind,
 * payload, first child, next sibling, a key's value) with one
 * implementation per document, selected by a constant so that each
 * instantiation compiles to direct loads.
 *
 * The walk keeps, per open pair of containers, a level: how its next pair
 * of children is found and how many are left. The innermost level lives in
 * locals; the enclosing ones sit on the explicit stack of base/stack.h
 * (EQ_INLINE levels on the C stack, deeper ones from the caller's
 * allocator): O(depth) memory, no recursion.
 *
 * Arrays, and objects whose keys come in the same order on both sides (the
 * common case), pair their children one by one (STEP_*). Other objects pair
 * their members by key, the k-th occurrence of a key with the k-th
 * occurrence in the other object, so repeated keys compare in order: up to
 * PAIR_BY_SEARCH members by searching the other object (no memory; SEARCH),
 * larger ones through a sorted index of both objects' keys (stable, by
 * position; 2 x 16 bytes per member from the allocator, freed when the pair
 * is done; SORTED).
 */
#include "base/internal.h"
#include "base/stack.h"

#define PAIR_BY_SEARCH 32u
#define EQ_INLINE 32u

/* ----------------------------------------------------------------------------
 * MARK: - Cursor: a node of either document; `m` selects the mutable one.
 * Both value types keep the tag and the payload in the same encoding.
 * ------------------------------------------------------------------------- */
typedef const void *node;
#define IV(p) ((const tyjson_val *)(p))
#define MV(p) ((const tyjson_mut_val *)(p))

TYJSON__FORCEINLINE u64 n_tag(node v, bool m) { return m ? MV(v)->tag : IV(v)->tag; }
TYJSON__FORCEINLINE tyjson_val_uni n_uni(node v, bool m) { return m ? MV(v)->uni : IV(v)->uni; }
TYJSON__FORCEINLINE usize n_len(node v, bool m) { return tyjson__tag_len(n_tag(v, m)); }

/* First child of a non-empty container (an object's first key). */
TYJSON__FORCEINLINE node n_first(node c, bool m) {
    return m ? (node)MV(MV(c)->uni.ptr)->next : (node)(IV(c) + 1);
}
/* The node after v and its subtree: its next sibling, or a key's value. */
TYJSON__FORCEINLINE node n_next(node v, bool m) {
    return m ? (node)MV(v)->next : (node)tyjson__next(IV(v));
}
/* A key's value. */
TYJSON__FORCEINLINE node n_val(node key, bool m) {
    return m ? (node)MV(key)->next : (node)(IV(key) + 1);
}
/* Equal immutable containers occupy as many slots: a cheap early exit. */
TYJSON__FORCEINLINE bool n_same_span(node a, node b, bool m) {
    return m || IV(a)->uni.ofs == IV(b)->uni.ofs;
}

TYJSON__FORCEINLINE bool bytes_equal(node a, node b, bool m) {
    usize n = n_len(a, m);
    return n == n_len(b, m) && (n == 0 || memcmp(n_uni(a, m).str, n_uni(b, m).str, n) == 0);
}

/* ----------------------------------------------------------------------------
 * MARK: - Scalars
 * ------------------------------------------------------------------------- */

/* Integers by value whatever their subtype; a real only equals a real. */
TYJSON__FORCEINLINE bool num_equal(u64 ta, u64 tb, tyjson_val_uni a, tyjson_val_uni b) {
    u64 sa = ta & TYJSON__SUBTYPE_MASK, sb = tb & TYJSON__SUBTYPE_MASK;
    if (sa == TYJSON_SUBTYPE_REAL || sb == TYJSON_SUBTYPE_REAL) return sa == sb && a.f64 == b.f64;
    if (sa == sb) return a.u64 == b.u64;
    /* UINT against SINT: equal only if the SINT is non-negative. */
    return (sa == TYJSON_SUBTYPE_SINT ? a.i64 : b.i64) >= 0 && a.u64 == b.u64;
}

enum { EQ_DIFF = 0, EQ_SAME = 1, EQ_OPEN = 2 };

/* One pair of values: EQ_DIFF, EQ_SAME, or EQ_OPEN for non-empty
 * containers of the same type and size (their children decide). */
TYJSON__FORCEINLINE int node_cmp(node x, node y, bool m) {
    u64 tx = n_tag(x, m), ty = n_tag(y, m);
    u32 t = (u32)(tx & TYJSON__TYPE_MASK);
    if (t != (u32)(ty & TYJSON__TYPE_MASK)) return EQ_DIFF;
    switch (t) {
    case TYJSON_TYPE_BOOL:
        return (tx & TYJSON__SUBTYPE_MASK) == (ty & TYJSON__SUBTYPE_MASK);
    case TYJSON_TYPE_NUM:
        return num_equal(tx, ty, n_uni(x, m), n_uni(y, m));
    case TYJSON_TYPE_STR:
    case TYJSON_TYPE_RAW:
        return bytes_equal(x, y, m);
    case TYJSON_TYPE_ARR:
    case TYJSON_TYPE_OBJ:
        if (tyjson__tag_len(tx) != tyjson__tag_len(ty) || !n_same_span(x, y, m)) return EQ_DIFF;
        return tyjson__tag_len(tx) ? EQ_OPEN : EQ_SAME;
    default: /* null (and none) carry no payload */
        return EQ_SAME;
    }
}

/* ----------------------------------------------------------------------------
 * MARK: - Pairing the members of reordered objects
 * ------------------------------------------------------------------------- */
typedef struct member_ref {
    node key;
    usize pos; /* position in the object: ties keep the document order */
} member_ref;

static bool same_key_order(node a, node b, usize n, bool m) {
    node ka = n_first(a, m), kb = n_first(b, m);
    for (usize i = 0; i < n; i++) {
        if (!bytes_equal(ka, kb, m)) return false;
        ka = n_next(n_val(ka, m), m);
        kb = n_next(n_val(kb, m), m);
    }
    return true;
}

/* How many keys of obj before `key` have its text. */
static usize occurrence(node obj, node key, bool m) {
    usize n = 0;
    for (node k = n_first(obj, m); k != key; k = n_next(n_val(k, m), m)) n += bytes_equal(k, key, m);
    return n;
}

/* Key occurrence `nth` (0-based) of key's text in obj, or NULL. */
static node find_nth_key(node obj, node key, usize nth, bool m) {
    usize n = n_len(obj, m);
    node k = n_first(obj, m);
    for (usize i = 0; i < n; i++, k = n_next(n_val(k, m), m)) {
        if (bytes_equal(k, key, m) && nth-- == 0) return k;
    }
    return NULL;
}

static int ref_order(const member_ref *a, const member_ref *b, u64 la, u64 lb, const char *sa,
                     const char *sb) {
    if (la != lb) return la < lb ? -1 : 1;
    int c = la ? memcmp(sa, sb, (usize)la) : 0;
    if (c) return c;
    return a->pos < b->pos ? -1 : (a->pos > b->pos ? 1 : 0);
}

static int ref_cmp_imm(const void *x, const void *y) {
    const member_ref *a = (const member_ref *)x, *b = (const member_ref *)y;
    return ref_order(a, b, n_len(a->key, false), n_len(b->key, false), IV(a->key)->uni.str,
                     IV(b->key)->uni.str);
}

static int ref_cmp_mut(const void *x, const void *y) {
    const member_ref *a = (const member_ref *)x, *b = (const member_ref *)y;
    return ref_order(a, b, n_len(a->key, true), n_len(b->key, true), MV(a->key)->uni.str,
                     MV(b->key)->uni.str);
}

static void fill_sorted(member_ref *r, node obj, usize n, bool m) {
    node k = n_first(obj, m);
    for (usize i = 0; i < n; i++, k = n_next(n_val(k, m), m)) {
        r[i].key = k;
        r[i].pos = i;
    }
    qsort(r, n, sizeof(member_ref), m ? ref_cmp_mut : ref_cmp_imm);
}

/* Sorted index of both objects' keys (a's n refs, then b's n): 1 built,
 * 0 the key lists differ, -1 no memory. */
static int sorted_index(const tyjson_alloc *alc, node a, node b, usize n, bool m,
                        member_ref **out) {
    usize bytes;
    if (tyjson__mul_ovf(n, 2 * sizeof(member_ref), &bytes)) return -1;
    member_ref *r = (member_ref *)tyjson__malloc(alc, bytes);
    if (!r) return -1;
    fill_sorted(r, a, n, m);
    fill_sorted(r + n, b, n, m);
    for (usize i = 0; i < n; i++) {
        if (!bytes_equal(r[i].key, r[n + i].key, m)) {
            tyjson__free(alc, r);
            return 0;
        }
    }
    *out = r;
    return 1;
}

/* ----------------------------------------------------------------------------
 * MARK: - The walk
 * ------------------------------------------------------------------------- */
enum { STEP_ARR, STEP_OBJ, SEARCH, SORTED };

/* One open pair of containers. */
typedef struct eq_level {
    node a, b;         /* STEP_ARR: next elements; STEP_OBJ: next keys;
                          SEARCH: a's next key, b's object */
    node a_obj;        /* SEARCH: a's object */
    member_ref *index; /* SORTED: the sorted index, else NULL */
    usize left, n;     /* pairs left; members */
    int mode;
} eq_level;

/* The next pair of children of a level; false when a reordered object has
 * a key the other lacks. */
TYJSON__FORCEINLINE bool next_pair(eq_level *l, node *x, node *y, bool m) {
    switch (l->mode) {
    case STEP_ARR:
        *x = l->a;
        *y = l->b;
        break;
    case STEP_OBJ:
        *x = n_val(l->a, m);
        *y = n_val(l->b, m);
        break;
    case SEARCH: {
        node kb = find_nth_key(l->b, l->a, occurrence(l->a_obj, l->a, m), m);
        if (!kb) return false;
        *x = n_val(l->a, m);
        *y = n_val(kb, m);
        l->a = n_next(*x, m);
        l->left--;
        return true;
    }
    default: {
        usize i = l->n - l->left;
        *x = n_val(l->index[i].key, m);
        *y = n_val(l->index[l->n + i].key, m);
        l->left--;
        return true;
    }
    }
    /* Computed before the pair is compared; past the last child it points
     * beyond the container and is never read. */
    l->a = n_next(*x, m);
    l->b = n_next(*y, m);
    l->left--;
    return true;
}

/* The level of a pair of reordered objects of n members: 1 made, 0 the
 * key sets differ, -1 no memory. */
static int reordered_level(const tyjson_alloc *alc, node x, node y, usize n, bool m,
                           eq_level *l) {
    l->n = n;
    l->left = n;
    if (n <= PAIR_BY_SEARCH) {
        l->mode = SEARCH;
        l->a = n_first(x, m);
        l->b = y;
        l->a_obj = x;
        l->index = NULL;
        return 1;
    }
    l->mode = SORTED;
    l->index = NULL;
    return sorted_index(alc, x, y, n, m, &l->index);
}

/* Makes `cur` the level of containers x and y, saving the old one on the
 * stack: 1 done, 0 different, -1 no memory (cur unchanged). */
TYJSON__FORCEINLINE int open_level(tyjson__stack *s, eq_level *cur, node x, node y, bool m) {
    eq_level l;
    usize n = n_len(x, m);
    if ((n_tag(x, m) & TYJSON__TYPE_MASK) == TYJSON_TYPE_ARR || same_key_order(x, y, n, m)) {
        l.mode = (n_tag(x, m) & TYJSON__TYPE_MASK) == TYJSON_TYPE_ARR ? STEP_ARR : STEP_OBJ;
        l.a = n_first(x, m);
        l.b = n_first(y, m);
        l.index = NULL;
        l.left = n;
        l.n = n;
    } else {
        int r = reordered_level(s->alc, x, y, n, m, &l);
        if (r <= 0) return r;
    }
    eq_level *saved = (eq_level *)tyjson__stack_push(s);
    if (!saved) {
        tyjson__free(s->alc, l.index);
        return -1;
    }
    *saved = *cur;
    *cur = l;
    return 1;
}

/* 1: equal, 0: not equal, -1: no memory. Every index still held is on the
 * stack or in the returned-from level, which is freed here. */
TYJSON__FORCEINLINE int eq_walk(tyjson__stack *s, node a, node b, bool m) {
    eq_level cur = {a, b, NULL, NULL, 1, 1, STEP_ARR}; /* the roots as a one-pair level */
    int r = 1;
    for (;;) {
        if (!cur.left) {
            tyjson__free(s->alc, cur.index);
            if (!s->len) return 1;
            cur = *(eq_level *)tyjson__stack_top(s);
            s->len--;
            continue;
        }
        node x, y;
        if (!next_pair(&cur, &x, &y, m)) break;
        r = node_cmp(x, y, m);
        if (r == EQ_OPEN) r = open_level(s, &cur, x, y, m);
        if (r <= 0) break;
    }
    tyjson__free(s->alc, cur.index);
    return r < 0 ? -1 : 0;
}

static int eq_walk_imm(tyjson__stack *s, node a, node b) { return eq_walk(s, a, b, false); }
static int eq_walk_mut(tyjson__stack *s, node a, node b) { return eq_walk(s, a, b, true); }

static tyjson_status equals_ex(node a, node b, const tyjson_alloc *alc, bool *equal, bool m) {
    if (!equal) return TYJSON_E_INVALID_ARG;
    *equal = false;
    if (!a || !b) {
        *equal = a == b; /* NULL equals only NULL */
        return TYJSON_OK;
    }
    eq_level inl[EQ_INLINE];
    tyjson__stack s;
    tyjson__stack_init(&s, alc ? alc : &tyjson__libc_alloc, inl, EQ_INLINE, sizeof(eq_level));
    int r = m ? eq_walk_mut(&s, a, b) : eq_walk_imm(&s, a, b);
    for (usize i = 0; i < s.len; i++) tyjson__free(s.alc, ((eq_level *)tyjson__stack_at(&s, i))->index);
    tyjson__stack_free(&s);
    if (r < 0) return TYJSON_E_NOMEM;
    *equal = r > 0;
    return TYJSON_OK;
}

tyjson_status tyjson_equals_ex(const tyjson_val *a, const tyjson_val *b, const tyjson_alloc *alc,
                               bool *equal) {
    return equals_ex(a, b, alc, equal, false);
}

bool tyjson_equals(const tyjson_val *a, const tyjson_val *b) {
    bool equal;
    return tyjson_equals_ex(a, b, NULL, &equal) == TYJSON_OK && equal;
}

tyjson_status tyjson_mut_equals_ex(const tyjson_mut_val *a, const tyjson_mut_val *b,
                                   const tyjson_alloc *alc, bool *equal) {
    return equals_ex(a, b, alc, equal, true);
}

bool tyjson_mut_equals(const tyjson_mut_val *a, const tyjson_mut_val *b) {
    bool equal;
    return tyjson_mut_equals_ex(a, b, NULL, &equal) == TYJSON_OK && equal;
}

#undef IV
#undef MV
