/*
 * dom.c - the immutable document's accessors: lifetime, element and key
 * lookup, JSON Pointer and deep equality.
 */
#include "internal.h"

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
        if (tyjson__tag_len(k->tag) == len && memcmp(k->uni.str, key, len) == 0) return k + 1;
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
 * Equality: an explicit stack of value pairs still to compare, so depth
 * costs heap, not C stack. Objects in the same key order (the usual case)
 * pair members by position; otherwise members are paired by key, where the
 * k-th occurrence of a key in one object pairs with the k-th in the other.
 * ------------------------------------------------------------------------- */
typedef struct eq_pair {
    const tyjson_val *a, *b;
} eq_pair;

typedef struct eq_stack {
    eq_pair *items;
    usize n, cap;
    eq_pair local[64];
} eq_stack;

static bool eq_push(eq_stack *s, const tyjson_val *a, const tyjson_val *b) {
    if (s->n == s->cap) {
        usize nc = s->cap * 2;
        eq_pair *ni = (eq_pair *)malloc(nc * sizeof(eq_pair));
        if (!ni) return false;
        memcpy(ni, s->items, s->n * sizeof(eq_pair));
        if (s->items != s->local) free(s->items);
        s->items = ni;
        s->cap = nc;
    }
    s->items[s->n].a = a;
    s->items[s->n].b = b;
    s->n++;
    return true;
}

static bool scalar_equal(const tyjson_val *a, const tyjson_val *b) {
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
    case TYJSON_TYPE_RAW: {
        usize n = tyjson__tag_len(a->tag);
        return n == tyjson__tag_len(b->tag) && (n == 0 || memcmp(a->uni.str, b->uni.str, n) == 0);
    }
    default: return false;
    }
}

static bool key_equal(const tyjson_val *a, const tyjson_val *b) {
    usize n = tyjson__tag_len(a->tag);
    return n == tyjson__tag_len(b->tag) && memcmp(a->uni.str, b->uni.str, n) == 0;
}

/* Occurrence number of key ka among the keys of obj before it. */
static usize occurrence(const tyjson_val *obj, const tyjson_val *ka) {
    usize n = 0;
    for (const tyjson_val *k = obj + 1; k != ka; k = tyjson__next(k + 1))
        if (key_equal(k, ka)) n++;
    return n;
}

static const tyjson_val *find_nth_key(const tyjson_val *obj, const tyjson_val *key, usize nth) {
    usize n = tyjson_obj_size(obj);
    const tyjson_val *k = obj + 1;
    while (n--) {
        if (key_equal(k, key) && nth-- == 0) return k;
        k = tyjson__next(k + 1);
    }
    return NULL;
}

typedef struct member_ref {
    const tyjson_val *key;
    usize pos;
} member_ref;

static int member_cmp(const void *x, const void *y) {
    const member_ref *a = (const member_ref *)x, *b = (const member_ref *)y;
    usize la = tyjson__tag_len(a->key->tag), lb = tyjson__tag_len(b->key->tag);
    if (la != lb) return la < lb ? -1 : 1;
    int c = memcmp(a->key->uni.str, b->key->uni.str, la);
    if (c) return c;
    return a->pos < b->pos ? -1 : (a->pos > b->pos ? 1 : 0);
}

static member_ref *sorted_members(const tyjson_val *obj, usize n) {
    member_ref *m = (member_ref *)malloc(n * sizeof(member_ref));
    if (!m) return NULL;
    const tyjson_val *k = obj + 1;
    for (usize i = 0; i < n; i++) {
        m[i].key = k;
        m[i].pos = i;
        k = tyjson__next(k + 1);
    }
    qsort(m, n, sizeof(member_ref), member_cmp);
    return m;
}

/* Pairs the members of two objects of equal size n by key. */
static bool push_members_by_key(eq_stack *s, const tyjson_val *a, const tyjson_val *b, usize n) {
    if (n <= 32) {
        const tyjson_val *ka = a + 1;
        for (usize i = 0; i < n; i++) {
            const tyjson_val *kb = find_nth_key(b, ka, occurrence(a, ka));
            if (!kb || !eq_push(s, ka + 1, kb + 1)) return false;
            ka = tyjson__next(ka + 1);
        }
        return true;
    }
    member_ref *ma = sorted_members(a, n), *mb = sorted_members(b, n);
    bool ok = ma && mb;
    for (usize i = 0; ok && i < n; i++)
        ok = key_equal(ma[i].key, mb[i].key) && eq_push(s, ma[i].key + 1, mb[i].key + 1);
    free(ma);
    free(mb);
    return ok;
}

static bool push_children(eq_stack *s, const tyjson_val *a, const tyjson_val *b) {
    usize n = tyjson__tag_len(a->tag);
    if (tyjson_is_arr(a)) {
        const tyjson_val *x = a + 1, *y = b + 1;
        for (usize i = 0; i < n; i++) {
            if (!eq_push(s, x, y)) return false;
            x = tyjson__next(x);
            y = tyjson__next(y);
        }
        return true;
    }
    /* Objects: try positional pairing first. */
    usize mark = s->n;
    const tyjson_val *x = a + 1, *y = b + 1;
    for (usize i = 0; i < n; i++) {
        if (!key_equal(x, y)) {
            s->n = mark;
            return push_members_by_key(s, a, b, n);
        }
        if (!eq_push(s, x + 1, y + 1)) return false;
        x = tyjson__next(x + 1);
        y = tyjson__next(y + 1);
    }
    return true;
}

bool tyjson_equals(const tyjson_val *a, const tyjson_val *b) {
    if (!a || !b) return a == b;
    eq_stack s;
    s.items = s.local;
    s.n = 0;
    s.cap = sizeof(s.local) / sizeof(s.local[0]);
    bool ok = eq_push(&s, a, b);
    while (ok && s.n) {
        eq_pair p = s.items[--s.n];
        tyjson_type t = tyjson_get_type(p.a);
        if (t == TYJSON_TYPE_ARR || t == TYJSON_TYPE_OBJ) {
            ok = tyjson_get_type(p.b) == t && tyjson__tag_len(p.a->tag) == tyjson__tag_len(p.b->tag) &&
                 push_children(&s, p.a, p.b);
        } else {
            ok = scalar_equal(p.a, p.b);
        }
    }
    if (s.items != s.local) free(s.items);
    return ok;
}
