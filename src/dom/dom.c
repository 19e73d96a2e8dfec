/*
 * dom.c - the immutable document's accessors: lifetime, element and key
 * lookup, JSON Pointer and deep equality.
 */
#include "base/internal.h"

void tyjson_doc_free(tyjson_doc *doc) {
    if (!doc) return;
    tyjson_alloc alc = doc->alc;
    tyjson__free(&alc, doc->str_pool);
    tyjson__free(&alc, doc);
}

tyjson_val *tyjson_doc_get_root(const tyjson_doc *doc) { return doc ? doc->root : NULL; }
usize tyjson_doc_get_read_size(const tyjson_doc *doc) { return doc ? doc->read_size : 0; }
usize tyjson_doc_get_val_count(const tyjson_doc *doc) { return doc ? doc->val_count : 0; }
usize tyjson_doc_get_mem_size(const tyjson_doc *doc) { return doc ? doc->mem_size : 0; }

const char *tyjson_get_type_desc(const tyjson_val *v) {
    switch (tyjson_get_type(v)) {
    case TYJSON_TYPE_RAW: return "raw";
    case TYJSON_TYPE_NULL: return "null";
    case TYJSON_TYPE_BOOL: return tyjson_is_true(v) ? "true" : "false";
    case TYJSON_TYPE_NUM:
        return tyjson_is_uint(v) ? "uint" : tyjson_is_sint(v) ? "sint" : "real";
    case TYJSON_TYPE_STR: return "string";
    case TYJSON_TYPE_ARR: return "array";
    case TYJSON_TYPE_OBJ: return "object";
    default: return "none";
    }
}

bool tyjson_get_i64(const tyjson_val *v, int64_t *out) {
    if (!out) return false;
    if (tyjson_is_sint(v)) {
        *out = v->uni.i64;
        return true;
    }
    if (tyjson_is_uint(v) && v->uni.u64 <= (u64)INT64_MAX) {
        *out = (int64_t)v->uni.u64;
        return true;
    }
    return false;
}

bool tyjson_get_u64(const tyjson_val *v, uint64_t *out) {
    if (!out) return false;
    if (tyjson_is_uint(v)) {
        *out = v->uni.u64;
        return true;
    }
    if (tyjson_is_sint(v) && v->uni.i64 >= 0) {
        *out = (u64)v->uni.i64;
        return true;
    }
    return false;
}

tyjson_val *tyjson_arr_get(const tyjson_val *arr, usize idx) {
    if (idx >= tyjson_arr_size(arr)) return NULL;
    tyjson_val *v = (tyjson_val *)(uintptr_t)(arr + 1);
    while (idx--) v = tyjson__next(v);
    return v;
}

tyjson_val *tyjson_arr_get_last(const tyjson_val *arr) {
    usize n = tyjson_arr_size(arr);
    return n ? tyjson_arr_get(arr, n - 1) : NULL;
}

tyjson_val *tyjson_obj_getn(const tyjson_val *obj, const char *key, usize len) {
    usize n = tyjson_obj_size(obj);
    if (!n || (!key && len)) return NULL;
    tyjson_val *k = (tyjson_val *)(uintptr_t)(obj + 1);
    while (n--) {
        if (tyjson__tag_len(k->tag) == len && (len == 0 || memcmp(k->uni.str, key, len) == 0))
            return k + 1;
        k = tyjson__next(k + 1);
    }
    return NULL;
}

tyjson_val *tyjson_obj_get(const tyjson_val *obj, const char *key) {
    return key ? tyjson_obj_getn(obj, key, strlen(key)) : NULL;
}

/* ----------------------------------------------------------------------------
 * JSON Pointer (RFC 6901)
 * ------------------------------------------------------------------------- */

/* True if the escaped reference token tok[0..tn) decodes to key[0..kn). */
static bool token_eq(const char *key, usize kn, const char *tok, usize tn) {
    usize i = 0, j = 0;
    while (j < tn) {
        char c = tok[j++];
        if (c == '~') c = tok[j++] == '0' ? '~' : '/'; /* validated by caller */
        if (i >= kn || key[i] != c) return false;
        i++;
    }
    return i == kn;
}

/* Validates the escapes of one token; false on a '~' not followed by 0/1. */
static bool token_valid(const char *tok, usize tn) {
    for (usize j = 0; j < tn; j++)
        if (tok[j] == '~' && (j + 1 >= tn || (tok[j + 1] != '0' && tok[j + 1] != '1')))
            return false;
    return true;
}

/* Array index token: decimal without leading zeros. */
static bool token_index(const char *tok, usize tn, usize *idx) {
    if (tn == 0 || tn > 19 || (tn > 1 && tok[0] == '0')) return false;
    usize v = 0;
    for (usize j = 0; j < tn; j++) {
        if (tok[j] < '0' || tok[j] > '9') return false;
        v = v * 10 + (usize)(tok[j] - '0');
    }
    *idx = v;
    return true;
}

tyjson_val *tyjson_ptr_getx(const tyjson_val *val, const char *ptr, usize len, tyjson_error *err) {
    if (!val || (!ptr && len)) {
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return NULL;
    }
    if (len == 0) {
        tyjson__err_ok(err);
        return (tyjson_val *)(uintptr_t)val;
    }
    if (ptr[0] != '/') {
        tyjson__err_set(err, TYJSON_E_POINTER, ptr, len, 0);
        return NULL;
    }
    const tyjson_val *cur = val;
    usize pos = 0;
    while (pos < len) {
        usize start = pos + 1, stop = start;
        while (stop < len && ptr[stop] != '/') stop++;
        const char *tok = ptr + start;
        usize tn = stop - start;
        if (!token_valid(tok, tn)) {
            tyjson__err_set(err, TYJSON_E_POINTER, ptr, len, start);
            return NULL;
        }
        const tyjson_val *next = NULL;
        if (tyjson_is_obj(cur)) {
            usize n = tyjson_obj_size(cur);
            const tyjson_val *k = cur + 1;
            while (n--) {
                if (token_eq(k->uni.str, tyjson__tag_len(k->tag), tok, tn)) {
                    next = k + 1;
                    break;
                }
                k = tyjson__next(k + 1);
            }
        } else if (tyjson_is_arr(cur)) {
            usize idx;
            if (token_index(tok, tn, &idx)) next = tyjson_arr_get(cur, idx);
        }
        if (!next) {
            tyjson__err_set(err, TYJSON_E_NOT_FOUND, ptr, len, start);
            return NULL;
        }
        cur = next;
        pos = stop;
    }
    tyjson__err_ok(err);
    return (tyjson_val *)(uintptr_t)cur;
}

tyjson_val *tyjson_ptr_get(const tyjson_val *val, const char *ptr) {
    return ptr ? tyjson_ptr_getx(val, ptr, strlen(ptr), NULL) : NULL;
}

tyjson_val *tyjson_doc_ptr_get(const tyjson_doc *doc, const char *ptr) {
    return doc ? tyjson_ptr_get(doc->root, ptr) : NULL;
}

/* ----------------------------------------------------------------------------
 * Equality in O(depth) memory.
 *
 * Values are laid out in document order, so two subtrees whose objects list
 * their keys in the same order are equal exactly when their slots are equal
 * one by one: a single forward scan of both arrays in lock-step, with no
 * state at all. Only an object whose keys come in another order than its
 * twin's needs a frame: its members are paired by key (the k-th occurrence
 * of a key with the k-th occurrence in the other object, so repeated keys
 * compare in order), and each pair of values is scanned in lock-step in
 * turn. Pairing costs nothing for objects of up to PAIR_BY_SEARCH members
 * (a search of the other object) and a sorted index of both objects' keys
 * (2 x 16 bytes per member, freed when the object is done) for larger ones.
 * Frames live in a local array up to EQ_INLINE nested reordered objects and
 * on the allocator's heap beyond.
 * ------------------------------------------------------------------------- */
#define PAIR_BY_SEARCH 32u
#define EQ_INLINE 32u

typedef struct member_ref {
    const tyjson_val *key;
    usize pos;
} member_ref;

/* One reordered object pair being compared member by member. */
typedef struct eq_frame {
    const tyjson_val *a, *b;   /* the objects */
    const tyjson_val *ka;      /* search mode: a's key of the current member */
    member_ref *index;         /* sorted mode: a's n refs, then b's n; else NULL */
    usize n, done;             /* members, members finished */
    const tyjson_val *end;     /* end of the lock-step run to resume after a */
} eq_frame;

typedef struct eq_state {
    const tyjson_alloc *alc;
    eq_frame *frames;
    usize depth, cap;
    eq_frame local[EQ_INLINE];
} eq_state;

static bool key_equal(const tyjson_val *a, const tyjson_val *b) {
    usize n = tyjson__tag_len(a->tag);
    return n == tyjson__tag_len(b->tag) && (n == 0 || memcmp(a->uni.str, b->uni.str, n) == 0);
}

/* Slot against slot: type, subtype, length and payload (not a container's
 * subtree size, which the caller checks). */
static bool slot_equal(const tyjson_val *a, const tyjson_val *b) {
    tyjson_type ta = tyjson_get_type(a), tb = tyjson_get_type(b);
    if (ta != tb) return false;
    switch (ta) {
    case TYJSON_TYPE_NULL: return true;
    case TYJSON_TYPE_BOOL: return tyjson_is_true(a) == tyjson_is_true(b);
    case TYJSON_TYPE_NUM:
        if (tyjson_is_real(a) || tyjson_is_real(b))
            return tyjson_is_real(a) && tyjson_is_real(b) && a->uni.f64 == b->uni.f64;
        if (tyjson_is_uint(a) == tyjson_is_uint(b)) return a->uni.u64 == b->uni.u64;
        /* UINT vs SINT: equal only if the SINT is non-negative and same bits. */
        return (tyjson_is_sint(a) ? a->uni.i64 : b->uni.i64) >= 0 && a->uni.u64 == b->uni.u64;
    case TYJSON_TYPE_STR:
    case TYJSON_TYPE_RAW: return key_equal(a, b);
    case TYJSON_TYPE_ARR:
    case TYJSON_TYPE_OBJ:
        /* Equal values occupy as many slots: a cheap early exit. */
        return tyjson__tag_len(a->tag) == tyjson__tag_len(b->tag) && a->uni.ofs == b->uni.ofs;
    default: return false;
    }
}

static bool same_key_order(const tyjson_val *a, const tyjson_val *b) {
    usize n = tyjson__tag_len(a->tag);
    const tyjson_val *x = a + 1, *y = b + 1;
    for (usize i = 0; i < n; i++) {
        if (!key_equal(x, y)) return false;
        x = tyjson__next(x + 1);
        y = tyjson__next(y + 1);
    }
    return true;
}

/* Occurrence number of key ka among the keys of obj before it. */
static usize occurrence(const tyjson_val *obj, const tyjson_val *ka) {
    usize n = 0;
    for (const tyjson_val *k = obj + 1; k != ka; k = tyjson__next(k + 1))
        if (key_equal(k, ka)) n++;
    return n;
}

static const tyjson_val *find_nth_key(const tyjson_val *obj, const tyjson_val *key, usize nth) {
    usize n = tyjson__tag_len(obj->tag);
    const tyjson_val *k = obj + 1;
    while (n--) {
        if (key_equal(k, key) && nth-- == 0) return k;
        k = tyjson__next(k + 1);
    }
    return NULL;
}

static int member_cmp(const void *x, const void *y) {
    const member_ref *a = (const member_ref *)x, *b = (const member_ref *)y;
    usize la = tyjson__tag_len(a->key->tag), lb = tyjson__tag_len(b->key->tag);
    if (la != lb) return la < lb ? -1 : 1;
    int c = la ? memcmp(a->key->uni.str, b->key->uni.str, la) : 0;
    if (c) return c;
    return a->pos < b->pos ? -1 : (a->pos > b->pos ? 1 : 0);
}

static void fill_sorted(member_ref *m, const tyjson_val *obj, usize n) {
    const tyjson_val *k = obj + 1;
    for (usize i = 0; i < n; i++) {
        m[i].key = k;
        m[i].pos = i;
        k = tyjson__next(k + 1);
    }
    qsort(m, n, sizeof(member_ref), member_cmp);
}

/* Sorted index of both objects' keys; NULL on no memory. *same tells
 * whether the key lists match (then the k-th refs pair up). */
static member_ref *sorted_index(const tyjson_alloc *alc, const tyjson_val *a,
                                const tyjson_val *b, usize n, bool *same) {
    usize bytes;
    if (tyjson__mul_ovf(n, 2 * sizeof(member_ref), &bytes)) return NULL;
    member_ref *m = (member_ref *)tyjson__malloc(alc, bytes);
    if (!m) return NULL;
    fill_sorted(m, a, n);
    fill_sorted(m + n, b, n);
    *same = true;
    for (usize i = 0; i < n && *same; i++) *same = key_equal(m[i].key, m[n + i].key);
    return m;
}

static void eq_release(eq_state *s) {
    while (s->depth) tyjson__free(s->alc, s->frames[--s->depth].index);
    if (s->frames != s->local) tyjson__free(s->alc, s->frames);
}

static eq_frame *eq_push(eq_state *s) {
    if (s->depth == s->cap) {
        usize ncap, bytes;
        if (tyjson__mul_ovf(s->cap, 2, &ncap) || tyjson__mul_ovf(ncap, sizeof(eq_frame), &bytes))
            return NULL;
        eq_frame *nf;
        if (s->frames == s->local) {
            nf = (eq_frame *)tyjson__malloc(s->alc, bytes);
            if (nf) memcpy(nf, s->local, sizeof(s->local));
        } else {
            nf = (eq_frame *)tyjson__realloc(s->alc, s->frames, s->cap * sizeof(eq_frame), bytes);
        }
        if (!nf) return NULL;
        s->frames = nf;
        s->cap = ncap;
    }
    return &s->frames[s->depth++];
}

/* The values of member `f->done` of a reordered object pair, or false if a
 * has a key b lacks. */
static bool member_pair(eq_frame *f, const tyjson_val **x, const tyjson_val **y) {
    const tyjson_val *ka, *kb;
    if (f->index) {
        ka = f->index[f->done].key;
        kb = f->index[f->n + f->done].key;
    } else {
        ka = f->ka;
        kb = find_nth_key(f->b, ka, occurrence(f->a, ka));
        if (!kb) return false;
        f->ka = tyjson__next(ka + 1);
    }
    *x = ka + 1;
    *y = kb + 1;
    return true;
}

/* Starts a frame for objects a and b of equal size whose keys differ in
 * order. 1: started, 0: key sets differ, -1: no memory. */
static int eq_open_reordered(eq_state *s, const tyjson_val *a, const tyjson_val *b,
                             const tyjson_val *end) {
    usize n = tyjson__tag_len(a->tag);
    member_ref *index = NULL;
    if (n > PAIR_BY_SEARCH) {
        bool same;
        index = sorted_index(s->alc, a, b, n, &same);
        if (!index) return -1;
        if (!same) {
            tyjson__free(s->alc, index);
            return 0;
        }
    }
    eq_frame *f = eq_push(s);
    if (!f) {
        tyjson__free(s->alc, index);
        return -1;
    }
    f->a = a;
    f->b = b;
    f->ka = a + 1;
    f->index = index;
    f->n = n;
    f->done = 0;
    f->end = end;
    return 1;
}

/* 1: equal, 0: not equal, -1: no memory. */
static int eq_run(eq_state *s, const tyjson_val *pa, const tyjson_val *pb) {
    const tyjson_val *end = tyjson__next(pa);
    eq_frame *f;
    for (;;) {
        while (pa < end) {
            if (!slot_equal(pa, pb)) return 0;
            if (tyjson_is_obj(pa) && !same_key_order(pa, pb)) {
                int r = eq_open_reordered(s, pa, pb, end);
                if (r <= 0) return r;
                goto next_member;
            }
            pa++;
            pb++;
        }
        /* The run is over: a member of the innermost reordered object is
         * done, or everything is. */
        if (!s->depth) return 1;
        f = &s->frames[s->depth - 1];
        if (++f->done == f->n) {
            pa = tyjson__next(f->a);
            pb = tyjson__next(f->b);
            end = f->end;
            tyjson__free(s->alc, f->index);
            s->depth--;
            continue;
        }
    next_member:
        if (!member_pair(&s->frames[s->depth - 1], &pa, &pb)) return 0;
        end = tyjson__next(pa);
    }
}

tyjson_status tyjson_equals_ex(const tyjson_val *a, const tyjson_val *b,
                               const tyjson_alloc *alc, bool *equal) {
    if (!equal) return TYJSON_E_INVALID_ARG;
    *equal = false;
    if (!a || !b) {
        *equal = a == b;
        return TYJSON_OK;
    }
    eq_state s;
    s.alc = alc ? alc : &tyjson__libc_alloc;
    s.frames = s.local;
    s.depth = 0;
    s.cap = EQ_INLINE;
    int r = eq_run(&s, a, b);
    eq_release(&s);
    if (r < 0) return TYJSON_E_NOMEM;
    *equal = r > 0;
    return TYJSON_OK;
}

bool tyjson_equals(const tyjson_val *a, const tyjson_val *b) {
    bool equal;
    return tyjson_equals_ex(a, b, NULL, &equal) == TYJSON_OK && equal;
}
