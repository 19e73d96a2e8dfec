/*
 * diff.c - a JSON Patch turning one value into another (tyjson_diff,
 * edit.h): add, remove and replace operations, correct always, minimal
 * never promised; time linear in the size of both values (expected).
 *
 * First every slot of both values gets a structural hash (hash_side), in
 * one backward pass over each value's slots: a container comes before its
 * children, so walking back finds them hashed. The hash follows the rules
 * of tyjson_equals (equal.c): integers by value whatever their subtype, a
 * real by value (0.0 and -0.0 alike) and never like an integer (1 and 1.0
 * differ, 1.0 and 1e0 do not), strings and raw numbers by their bytes,
 * arrays in order, objects as a sum over their members (key and value
 * mixed), so members in another order hash alike. Equal values hash
 * alike; values of different hashes are different without a look at
 * them, and only a pair with equal hashes is deep-compared
 * (tyjson_equals_ex), once: equal, it gives nothing and its subtrees are
 * not visited. A pair that differs is thus never deep-compared (save a
 * 64-bit collision), so a deep chain costs its size, not its size
 * squared.
 *
 * The walk compares a pair of values; equal pairs give nothing, pairs of
 * objects and of arrays open a frame on the explicit stack of base/stack.h
 * (no recursion whatever the depth), other pairs give a "replace". The
 * path of the current pair is one growing buffer of escaped tokens; each
 * frame remembers the length of its own path. Objects first remove the
 * members b lacks, then add or diff b's members (independent keys: the
 * order is free). Two objects of up to KEY_TABLE_MIN members each find
 * their keys in each other by linear search; larger ones are paired when
 * the pair is opened, through one table of keys (pair_large), which also
 * finds repeated keys: O(1) expected per member. An object with a
 * repeated key is replaced whole.
 * Arrays keep their common prefix and suffix, diff the middle pairwise at
 * its own indices (the length of the array does not change meanwhile),
 * then remove the extra elements of a at the first index past the pairs,
 * or add those of b at their final indices: both keep the indices of the
 * suffix right.
 */
#include "base/internal.h"
#include "base/hash.h"
#include "base/stack.h"
#include "dom/diff_stats.h"

#include <stdio.h>

typedef tyjson_mut_val mval;
typedef tyjson_val ival;

#define DIFF_INLINE 32u
/* Objects of more members get a key table. */
#define KEY_TABLE_MIN 16u

typedef struct dframe {
    const ival *a, *b;
    usize plen;     /* length of this pair's path */
    bool is_arr;
    /* objects: phase 0 walks a's members (removals), phase 1 b's */
    int phase;
    const ival *key; /* next key of the walked object */
    usize left;      /* its members still to walk */
    /* arrays: the elements of a then b; objects: the block of
     * open_objects, or NULL when both are small */
    const ival **el;
    /* arrays: pairs p .. p + pairs - 1 */
    usize m, n, p, am, bm, i;
    /* objects paired by table: whether a's member i has a pair; the value
     * of a paired with b's member j (NULL: none) */
    bool *apart;
    const ival **bpart;
} dframe;

typedef struct dstate {
    tyjson_alloc alc;
    tyjson__stack st;
    char *path;
    usize plen, pcap;
    tyjson_mut_doc *out;
    mval *ops;
    /* the roots and the hash of every slot of their values */
    const ival *ra, *rb;
    u64 *ha, *hb;
    tyjson__diff_stats stats;
} dstate;

/* ----------------------------------------------------------------------------
 * MARK: - Structural hashes (the rules of equal.c)
 * ------------------------------------------------------------------------- */
#define H_NULL 0x6a09e667f3bcc908ull
#define H_BOOL 0xbb67ae8584caa73bull
#define H_INT 0x3c6ef372fe94f82bull
#define H_REAL 0xa54ff53a5f1d36f1ull
#define H_STR 0x510e527fade682d1ull
#define H_RAW 0x9b05688c2b3e6c1full
#define H_ARR 0x1f83d9abfb41bd6bull
#define H_OBJ 0x5be0cd19137e2179ull

/* One slot whose children (the slots after it) are hashed already. */
static u64 hash_slot(const ival *v, const ival *root, const u64 *h) {
    u64 tag = v->tag;
    usize len = tyjson__tag_len(tag);
    switch ((u32)(tag & TYJSON__TYPE_MASK)) {
    case TYJSON_TYPE_BOOL:
        return tyjson__hash_mix(H_BOOL ^ (tag & TYJSON__SUBTYPE_MASK));
    case TYJSON_TYPE_NUM:
        if ((tag & TYJSON__SUBTYPE_MASK) == TYJSON_SUBTYPE_REAL) {
            double f = v->uni.f64;
            u64 bits;
            if (f == 0) f = 0; /* -0.0 == 0.0 */
            memcpy(&bits, &f, sizeof(bits));
            return tyjson__hash_mix(H_REAL ^ bits);
        }
        /* a SINT and a UINT of one value have one bit pattern */
        return tyjson__hash_mix(H_INT ^ v->uni.u64);
    case TYJSON_TYPE_STR:
        return tyjson__hash_bytes(v->uni.str, len, H_STR);
    case TYJSON_TYPE_RAW:
        return tyjson__hash_bytes(v->uni.str, len, H_RAW);
    case TYJSON_TYPE_ARR: {
        u64 x = H_ARR ^ len;
        const ival *c = v + 1;
        for (usize i = 0; i < len; i++, c = tyjson__next(c)) x = tyjson__hash_mix(x + h[c - root]);
        return tyjson__hash_mix(x);
    }
    case TYJSON_TYPE_OBJ: {
        u64 sum = 0; /* order-free: equal.c pairs members by key */
        const ival *k = v + 1;
        for (usize i = 0; i < len; i++, k = tyjson__next(k + 1))
            sum += tyjson__hash_mix(h[k - root] ^ (h[k + 1 - root] * 0x9e3779b97f4a7c15ull));
        return tyjson__hash_mix(H_OBJ ^ len ^ tyjson__hash_mix(sum));
    }
    default: /* null */
        return H_NULL;
    }
}

/* The hashes of every slot of root's value, indexed by slot - root. */
static u64 *hash_side(dstate *d, const ival *root) {
    usize n = (usize)(tyjson__next(root) - root), bytes;
    if (tyjson__mul_ovf(n, sizeof(u64), &bytes)) return NULL;
    u64 *h = (u64 *)tyjson__malloc(&d->alc, bytes);
    if (!h) return NULL;
    for (usize i = n; i-- > 0;) h[i] = hash_slot(root + i, root, h);
    return h;
}

TYJSON__FORCEINLINE u64 hash_a(const dstate *d, const ival *v) { return d->ha[v - d->ra]; }
TYJSON__FORCEINLINE u64 hash_b(const dstate *d, const ival *v) { return d->hb[v - d->rb]; }

/* a (of a's side) and b (of b's side) equal? By hash, then one deep
 * comparison when the hashes are equal; *ok false on no memory. */
static bool same(dstate *d, const ival *a, const ival *b, bool *ok) {
    *ok = true;
    if (hash_a(d, a) != hash_b(d, b)) return false;
    d->stats.deep_compares++;
    d->stats.deep_compared += (usize)(tyjson__next(a) - a);
    bool eq = false;
    *ok = tyjson_equals_ex(a, b, &d->alc, &eq) == TYJSON_OK;
    return eq;
}

/* ----------------------------------------------------------------------------
 * MARK: - Keys
 * ------------------------------------------------------------------------- */

/* Keys x (hash hx) and y (hash hy) equal? One key compare. */
TYJSON__FORCEINLINE bool key_match(dstate *d, const ival *x, u64 hx, const ival *y, u64 hy) {
    d->stats.key_compares++;
    usize n = tyjson__tag_len(x->tag);
    return hx == hy && n == tyjson__tag_len(y->tag) && (n == 0 || memcmp(x->uni.str, y->uni.str, n) == 0);
}

/* True if two members of a small obj share a key. */
static bool small_repeat(dstate *d, const ival *obj, const ival *root, const u64 *h) {
    usize i, max;
    const ival *k, *v;
    TYJSON_OBJ_FOREACH(obj, i, max, k, v) {
        const ival *k2 = tyjson__next(v);
        for (usize j = i + 1; j < max; j++, k2 = tyjson__next(k2 + 1)) {
            if (key_match(d, k, h[k - root], k2, h[k2 - root])) return true;
        }
    }
    return false;
}

/* The value of key k (of a's side, hash hk) in the small object obj of
 * b's side, or NULL; or of b's side in a's (to_a). */
static const ival *find_small(dstate *d, const ival *obj, bool to_a, const ival *k, u64 hk) {
    const ival *root = to_a ? d->ra : d->rb;
    const u64 *h = to_a ? d->ha : d->hb;
    usize i, max;
    const ival *key, *v;
    TYJSON_OBJ_FOREACH(obj, i, max, key, v) {
        if (key_match(d, key, h[key - root], k, hk)) return v;
    }
    return NULL;
}

/* A key of the pairing table: b's member idx, or a key of a that b
 * lacks (A_ONLY). */
#define A_ONLY SIZE_MAX
typedef struct kent {
    const ival *key;
    usize idx;
} kent;

/* Pairs the members of two objects, one of them large, through one table
 * of keys (open addressing, linear probing, at least twice as many slots
 * as members): b's keys go in first, then each key of a is looked up: a
 * b key it meets pairs them (bpart: a's value for b's member j; apart: a's
 * member i has a pair), else it goes in as A_ONLY. A key of b met when b's
 * keys go in, or a key of a that meets an A_ONLY key or an already paired
 * b key, is a repeat. */
static bool pair_large(dstate *d, dframe *f, kent *t, usize mask, bool *repeat) {
    usize i, max;
    const ival *k, *v;
    TYJSON_OBJ_FOREACH(f->b, i, max, k, v) {
        u64 hk = hash_b(d, k);
        usize s = (usize)hk & mask;
        for (; t[s].key; s = (s + 1) & mask) {
            if (key_match(d, t[s].key, hash_b(d, t[s].key), k, hk)) return *repeat = true;
        }
        t[s].key = k;
        t[s].idx = i;
    }
    TYJSON_OBJ_FOREACH(f->a, i, max, k, v) {
        u64 hk = hash_a(d, k);
        usize s = (usize)hk & mask;
        for (; t[s].key; s = (s + 1) & mask) {
            bool in_a = t[s].idx == A_ONLY;
            if (!key_match(d, t[s].key, in_a ? hash_a(d, t[s].key) : hash_b(d, t[s].key), k, hk))
                continue;
            if (in_a || f->bpart[t[s].idx]) return *repeat = true;
            f->bpart[t[s].idx] = v;
            f->apart[i] = true;
            break;
        }
        if (!t[s].key) {
            t[s].key = k;
            t[s].idx = A_ONLY;
        }
    }
    return false;
}

/* Pairs the members of objects a and b when either has more than
 * KEY_TABLE_MIN (small ones are paired by linear search as they are
 * walked); false on no memory. *repeat when either has a repeated key
 * (then nothing is kept). */
static bool open_objects(dstate *d, dframe *f, bool *repeat) {
    usize na = tyjson_obj_size(f->a), nb = tyjson_obj_size(f->b), n, slots = 64, bytes, more;
    *repeat = false;
    f->el = NULL;
    f->apart = NULL;
    f->bpart = NULL;
    if (na <= KEY_TABLE_MIN && nb <= KEY_TABLE_MIN) {
        *repeat = small_repeat(d, f->a, d->ra, d->ha) || small_repeat(d, f->b, d->rb, d->hb);
        return true;
    }
    if (tyjson__add_ovf(na, nb, &n)) return false;
    while (slots / 2 < n) {
        if (tyjson__mul_ovf(slots, 2, &slots)) return false;
    }
    /* the table, b's pairs, a's flags */
    if (tyjson__mul_ovf(slots, sizeof(kent), &bytes) || tyjson__mul_ovf(nb, sizeof(*f->bpart), &more) ||
        tyjson__add_ovf(bytes, more, &bytes) || tyjson__add_ovf(bytes, na, &bytes))
        return false;
    char *blk = (char *)tyjson__malloc(&d->alc, bytes);
    if (!blk) return false;
    memset(blk, 0, bytes);
    f->el = (const ival **)(void *)blk;
    f->bpart = (const ival **)(void *)(blk + slots * sizeof(kent));
    f->apart = (bool *)(blk + slots * sizeof(kent) + more);
    if (pair_large(d, f, (kent *)(void *)blk, slots - 1, repeat)) {
        tyjson__free(&d->alc, blk);
        f->el = NULL;
    }
    return true;
}

/* ----------------------------------------------------------------------------
 * MARK: - Paths and operations
 * ------------------------------------------------------------------------- */
static bool path_room(dstate *d, usize more) {
    usize need;
    if (tyjson__add_ovf(d->plen, more, &need)) return false;
    if (need <= d->pcap) return true;
    usize cap = d->pcap ? d->pcap : 64;
    while (cap < need) {
        if (tyjson__mul_ovf(cap, 2, &cap)) return false;
    }
    char *p = (char *)tyjson__malloc(&d->alc, cap);
    if (!p) return false;
    if (d->plen) memcpy(p, d->path, d->plen);
    tyjson__free(&d->alc, d->path);
    d->path = p;
    d->pcap = cap;
    return true;
}

/* Appends "/" and the token escaped ("~" -> "~0", "/" -> "~1"). */
static bool dpath_key(dstate *d, const char *s, usize len) {
    usize worst;
    if (tyjson__mul_ovf(len, 2, &worst) || !path_room(d, worst + 1)) return false;
    d->path[d->plen++] = '/';
    for (usize i = 0; i < len; i++) {
        if (s[i] == '~' || s[i] == '/') {
            d->path[d->plen++] = '~';
            d->path[d->plen++] = s[i] == '~' ? '0' : '1';
        } else {
            d->path[d->plen++] = s[i];
        }
    }
    return true;
}

static bool dpath_index(dstate *d, usize idx) {
    char buf[24];
    int n = snprintf(buf, sizeof(buf), "/%zu", idx);
    if (!path_room(d, (usize)n)) return false;
    memcpy(d->path + d->plen, buf, (usize)n);
    d->plen += (usize)n;
    return true;
}

/* Appends {"op": op, "path": <path>[, "value": copy of v]}. */
static bool emit_op(dstate *d, const char *op, const ival *v) {
    mval *o = tyjson_mut_obj(d->out);
    mval *path = tyjson_mut_strncpy(d->out, d->path, d->plen);
    if (!o || !path || !tyjson_mut_obj_add_str(d->out, o, "op", op) ||
        !tyjson_mut_obj_add_val(d->out, o, "path", path))
        return false;
    if (v) {
        mval *c = tyjson_val_mut_copy(d->out, v);
        if (!c || !tyjson_mut_obj_add_val(d->out, o, "value", c)) return false;
    }
    return tyjson_mut_arr_append(d->ops, o);
}

/* ----------------------------------------------------------------------------
 * MARK: - The walk
 * ------------------------------------------------------------------------- */

/* Frame for two arrays: their element lists, common prefix and suffix. */
static bool open_arrays(dstate *d, dframe *f) {
    usize m = tyjson_arr_size(f->a), n = tyjson_arr_size(f->b), bytes;
    f->m = m;
    f->n = n;
    f->el = NULL;
    if (m + n) {
        if (tyjson__mul_ovf(m + n, sizeof(*f->el), &bytes)) return false;
        f->el = (const ival **)tyjson__malloc(&d->alc, bytes);
        if (!f->el) return false;
    }
    usize i, max;
    const ival *v;
    TYJSON_ARR_FOREACH(f->a, i, max, v) f->el[i] = v;
    TYJSON_ARR_FOREACH(f->b, i, max, v) f->el[m + i] = v;
    usize lo = m < n ? m : n, p = 0, s = 0;
    bool ok = true;
    while (p < lo && same(d, f->el[p], f->el[m + p], &ok)) p++;
    /* of arrays of one length, the pair that ended the prefix differs:
     * the suffix stops before it */
    usize most = lo - p - (m == n && p < lo);
    while (ok && s < most && same(d, f->el[m - 1 - s], f->el[m + n - 1 - s], &ok)) s++;
    f->p = p;
    f->am = m - p - s;
    f->bm = n - p - s;
    f->i = 0;
    return ok;
}

/* Compares a pair at the current path: nothing, a frame, or a replace. */
static bool visit(dstate *d, const ival *a, const ival *b) {
    bool ok;
    if (same(d, a, b, &ok)) return true;
    if (!ok) return false;
    bool objs = tyjson_is_obj(a) && tyjson_is_obj(b);
    bool arrs = tyjson_is_arr(a) && tyjson_is_arr(b);
    if (!objs && !arrs) return emit_op(d, "replace", b);
    dframe fr;
    fr.a = a;
    fr.b = b;
    fr.plen = d->plen;
    fr.is_arr = arrs;
    fr.apart = NULL;
    fr.bpart = NULL;
    if (arrs) {
        ok = open_arrays(d, &fr);
    } else {
        bool repeat;
        ok = open_objects(d, &fr, &repeat);
        if (ok && repeat) return emit_op(d, "replace", b);
        fr.phase = 0;
        fr.left = tyjson_obj_size(a);
        fr.key = fr.left ? a + 1 : NULL;
    }
    dframe *f = ok ? (dframe *)tyjson__stack_push(&d->st) : NULL;
    if (!f) {
        tyjson__free(&d->alc, fr.el);
        return false;
    }
    *f = fr;
    return true;
}

/* One step of an object frame; *done when it is finished. */
static bool step_obj(dstate *d, dframe *f, bool *done) {
    while (!f->left) {
        if (f->phase == 1) {
            *done = true;
            return true;
        }
        f->phase = 1;
        f->left = tyjson_obj_size(f->b);
        f->key = f->left ? f->b + 1 : NULL;
    }
    const ival *k = f->key, *v = k + 1;
    usize idx = tyjson_obj_size(f->phase ? f->b : f->a) - f->left;
    f->key = --f->left ? tyjson__next(v) : NULL;
    const ival *other;
    if (f->phase == 0) {
        other = f->apart ? (f->apart[idx] ? v : NULL) : find_small(d, f->b, false, k, hash_a(d, k));
    } else {
        other = f->bpart ? f->bpart[idx] : find_small(d, f->a, true, k, hash_b(d, k));
    }
    if (f->phase == 0 && other) return true; /* diffed in phase 1 */
    if (!dpath_key(d, tyjson_get_str(k), tyjson_get_len(k))) return false;
    if (f->phase == 0) return emit_op(d, "remove", NULL);
    if (!other) return emit_op(d, "add", v);
    return visit(d, other, v); /* may push: f is not used after this */
}

/* One step of an array frame; *done when it is finished. */
static bool step_arr(dstate *d, dframe *f, bool *done) {
    usize pairs = f->am < f->bm ? f->am : f->bm;
    if (f->i < pairs) {
        usize at = f->p + f->i++;
        if (!dpath_index(d, at)) return false;
        return visit(d, f->el[at], f->el[f->m + at]);
    }
    for (usize r = pairs; r < f->am; r++) {
        d->plen = f->plen;
        if (!dpath_index(d, f->p + pairs) || !emit_op(d, "remove", NULL)) return false;
    }
    for (usize r = pairs; r < f->bm; r++) {
        d->plen = f->plen;
        if (!dpath_index(d, f->p + r) || !emit_op(d, "add", f->el[f->m + f->p + r])) return false;
    }
    *done = true;
    return true;
}

static bool diff_walk(dstate *d, const ival *a, const ival *b) {
    if (!visit(d, a, b)) return false;
    while (d->st.len) {
        dframe *f = (dframe *)tyjson__stack_top(&d->st);
        bool done = false;
        d->plen = f->plen;
        if (!(f->is_arr ? step_arr(d, f, &done) : step_obj(d, f, &done))) return false;
        if (done) {
            f = (dframe *)tyjson__stack_top(&d->st);
            tyjson__free(&d->alc, f->el);
            d->st.len--;
        }
    }
    return true;
}

tyjson_mut_doc *tyjson__diff_counted(const tyjson_val *a, const tyjson_val *b,
                                     const tyjson_alloc *alc, tyjson_error *err,
                                     tyjson__diff_stats *stats) {
    if (stats) memset(stats, 0, sizeof(*stats));
    if (!a || !b) {
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return NULL;
    }
    dframe inl[DIFF_INLINE];
    dstate d;
    memset(&d, 0, sizeof(d));
    d.alc = tyjson__alc_or_libc(alc);
    tyjson__stack_init(&d.st, &d.alc, inl, DIFF_INLINE, sizeof(dframe));
    d.ra = a;
    d.rb = b;
    d.ha = hash_side(&d, a);
    d.hb = d.ha ? hash_side(&d, b) : NULL;
    d.out = d.hb ? tyjson_mut_doc_new(&d.alc) : NULL;
    d.ops = tyjson_mut_arr(d.out);
    bool ok = d.ops && diff_walk(&d, a, b);
    while (d.st.len) { /* frames left by a failure */
        tyjson__free(&d.alc, ((dframe *)tyjson__stack_top(&d.st))->el);
        d.st.len--;
    }
    tyjson__stack_free(&d.st);
    tyjson__free(&d.alc, d.path);
    tyjson__free(&d.alc, d.ha);
    tyjson__free(&d.alc, d.hb);
    if (stats) *stats = d.stats;
    if (!ok) {
        tyjson_mut_doc_free(d.out);
        tyjson__err_set(err, TYJSON_E_NOMEM, NULL, 0, 0);
        return NULL;
    }
    tyjson_mut_doc_set_root(d.out, d.ops);
    tyjson__err_ok(err);
    return d.out;
}

tyjson_mut_doc *tyjson_diff(const tyjson_val *a, const tyjson_val *b, const tyjson_alloc *alc,
                            tyjson_error *err) {
    return tyjson__diff_counted(a, b, alc, err, NULL);
}

tyjson_mut_doc *tyjson_mut_diff(const tyjson_mut_val *a, const tyjson_mut_val *b,
                                const tyjson_alloc *alc, tyjson_error *err) {
    if (!a || !b) {
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return NULL;
    }
    tyjson_doc *ia = tyjson_mut_val_imut_copy(a, alc);
    tyjson_doc *ib = ia ? tyjson_mut_val_imut_copy(b, alc) : NULL;
    tyjson_mut_doc *out = NULL;
    if (ib) out = tyjson_diff(tyjson_doc_get_root(ia), tyjson_doc_get_root(ib), alc, err);
    else tyjson__err_set(err, TYJSON_E_NOMEM, NULL, 0, 0);
    tyjson_doc_free(ia);
    tyjson_doc_free(ib);
    return out;
}
