/*
 * diff.c - a JSON Patch turning one value into another (tyjson_diff,
 * edit.h): add, remove and replace operations, correct always, minimal
 * never promised.
 *
 * The walk compares a pair of values; equal pairs (tyjson_equals_ex) give
 * nothing, pairs of objects and of arrays open a frame on the explicit
 * stack of base/stack.h (no recursion whatever the depth), other pairs
 * give a "replace". The path of the current pair is one growing buffer of
 * escaped tokens; each frame remembers the length of its own path.
 * Objects first remove the members b lacks, then add or diff b's members
 * (independent keys: the order is free). Arrays keep their common prefix
 * and suffix, diff the middle pairwise at its own indices (the length of
 * the array does not change meanwhile), then remove the extra elements of
 * a at the first index past the pairs, or add those of b at their final
 * indices: both keep the indices of the suffix right.
 */
#include "base/internal.h"
#include "base/stack.h"

#include <stdio.h>

typedef tyjson_mut_val mval;
typedef tyjson_val ival;

#define DIFF_INLINE 32u

typedef struct dframe {
    const ival *a, *b;
    usize plen;     /* length of this pair's path */
    bool is_arr;
    /* objects: phase 0 walks a's members (removals), phase 1 b's */
    int phase;
    const ival *key; /* next key of the walked object */
    usize left;      /* its members still to walk */
    /* arrays: the elements of a then b; pairs p .. p + pairs - 1 */
    const ival **el;
    usize m, n, p, am, bm, i;
} dframe;

typedef struct dstate {
    tyjson_alloc alc;
    tyjson__stack st;
    char *path;
    usize plen, pcap;
    tyjson_mut_doc *out;
    mval *ops;
} dstate;

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

/* True if two members of obj share a key (then it is replaced whole:
 * pointers see only the first of repeated keys). */
static bool has_repeat(const ival *obj) {
    usize i, max;
    const ival *k, *v;
    TYJSON_OBJ_FOREACH(obj, i, max, k, v) {
        const ival *k2 = tyjson__next(v);
        for (usize j = i + 1; j < max; j++, k2 = tyjson__next(k2 + 1)) {
            if (tyjson_equals_strn(k2, tyjson_get_str(k), tyjson_get_len(k))) return true;
        }
    }
    return false;
}

static bool eq_vals(const dstate *d, const ival *a, const ival *b, bool *ok) {
    bool eq = false;
    *ok = tyjson_equals_ex(a, b, &d->alc, &eq) == TYJSON_OK;
    return eq;
}

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
    while (p < lo && eq_vals(d, f->el[p], f->el[m + p], &ok)) p++;
    while (ok && s < lo - p && eq_vals(d, f->el[m - 1 - s], f->el[m + n - 1 - s], &ok)) s++;
    f->p = p;
    f->am = m - p - s;
    f->bm = n - p - s;
    f->i = 0;
    return ok;
}

/* Compares a pair at the current path: nothing, a frame, or a replace. */
static bool visit(dstate *d, const ival *a, const ival *b) {
    bool ok;
    if (eq_vals(d, a, b, &ok)) return true;
    if (!ok) return false;
    bool objs = tyjson_is_obj(a) && tyjson_is_obj(b) && !has_repeat(a) && !has_repeat(b);
    bool arrs = tyjson_is_arr(a) && tyjson_is_arr(b);
    if (!objs && !arrs) return emit_op(d, "replace", b);
    dframe *f = (dframe *)tyjson__stack_push(&d->st);
    if (!f) return false;
    f->a = a;
    f->b = b;
    f->plen = d->plen;
    f->is_arr = arrs;
    f->el = NULL;
    if (arrs) {
        if (open_arrays(d, f)) return true;
        tyjson__free(&d->alc, f->el);
        d->st.len--;
        return false;
    }
    f->phase = 0;
    f->left = tyjson_obj_size(a);
    f->key = f->left ? a + 1 : NULL;
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
    f->key = --f->left ? tyjson__next(v) : NULL;
    const char *ks = tyjson_get_str(k);
    usize klen = tyjson_get_len(k);
    const ival *other = tyjson_obj_getn(f->phase ? f->a : f->b, ks, klen);
    if (f->phase == 0 && other) return true; /* diffed in phase 1 */
    if (!dpath_key(d, ks, klen)) return false;
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

tyjson_mut_doc *tyjson_diff(const tyjson_val *a, const tyjson_val *b, const tyjson_alloc *alc,
                            tyjson_error *err) {
    if (!a || !b) {
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return NULL;
    }
    dframe inl[DIFF_INLINE];
    dstate d;
    memset(&d, 0, sizeof(d));
    d.alc = tyjson__alc_or_libc(alc);
    tyjson__stack_init(&d.st, &d.alc, inl, DIFF_INLINE, sizeof(dframe));
    d.out = tyjson_mut_doc_new(&d.alc);
    d.ops = tyjson_mut_arr(d.out);
    bool ok = d.ops && diff_walk(&d, a, b);
    while (d.st.len) { /* frames left by a failure */
        tyjson__free(&d.alc, ((dframe *)tyjson__stack_top(&d.st))->el);
        d.st.len--;
    }
    tyjson__stack_free(&d.st);
    tyjson__free(&d.alc, d.path);
    if (!ok) {
        tyjson_mut_doc_free(d.out);
        tyjson__err_set(err, TYJSON_E_NOMEM, NULL, 0, 0);
        return NULL;
    }
    tyjson_mut_doc_set_root(d.out, d.ops);
    tyjson__err_ok(err);
    return d.out;
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
