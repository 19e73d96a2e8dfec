/*
 * mut.c - the mutable document: its arena, value constructors and setters,
 * array and object editing, deep copies in both directions (immutable <->
 * mutable). JSON Pointer lives in pointer.c, equality in equal.c.
 *
 * Every deep copy walks the tree with the explicit stack of base/stack.h
 * (inline for the first STACK_INLINE levels, then on the heap), never by C
 * recursion, so a document nested a million levels deep is copied safely.
 */
#include "base/bump.h"
#include "base/stack.h"
#include "dom/edit.h"

typedef tyjson_mut_val mval;

/* ----------------------------------------------------------------------------
 * MARK: - Arena
 *
 * Values and copied string bytes are bump-allocated (base/bump.h) from two
 * block chains. Values stay aligned without padding: blocks start 16-byte
 * aligned and every value request is a multiple of sizeof(mval). Block
 * sizes double so that a document of n values makes O(log n) allocator
 * calls; the cap keeps the slack of the last block bounded for large
 * documents.
 * ------------------------------------------------------------------------- */
_Static_assert(sizeof(mval) % _Alignof(mval) == 0, "whole values keep the next one aligned");
_Static_assert(TYJSON__BUMP_HDR % _Alignof(mval) == 0, "a block's first value is aligned");

typedef struct arena {
    tyjson__bump_blk *head; /* most recently allocated block */
    char *cur, *end;        /* the window being bumped */
    usize next_size;        /* size of the next standard block */
} arena;

#define VAL_CHUNK_MIN ((usize)4096)
#define STR_CHUNK_MIN ((usize)2048)
#define CHUNK_MAX ((usize)1 << 22)

struct tyjson_mut_doc {
    mval *root;
    tyjson_alloc alc;
    arena vals; /* value nodes */
    arena strs; /* copied string bytes, each NUL-terminated */
};

static usize arena_room(const arena *a) { return a->cur ? (usize)(a->end - a->cur) : 0; }

static TYJSON__NOINLINE void *arena_grow(const tyjson_alloc *alc, arena *a, usize n) {
    tyjson__bump_blk *b = tyjson__bump_blk_new(alc, &a->head, &a->next_size, CHUNK_MAX, n, 1);
    if (!b) return NULL;
    char *p = tyjson__bump_blk_data(b);
    /* A big request may get a block of its own; keep bumping in whichever
     * block has more room so the old block's rest is not thrown away. */
    char *end = tyjson__bump_blk_end(b);
    if ((usize)(end - (p + n)) > arena_room(a)) {
        a->cur = p + n;
        a->end = end;
    }
    return p;
}

TYJSON__FORCEINLINE void *arena_alloc(const tyjson_alloc *alc, arena *a, usize n) {
    void *p;
    if (tyjson__bump(&a->cur, &a->end, n, 1, &p)) return p;
    return arena_grow(alc, a, n);
}

tyjson_mut_doc *tyjson_mut_doc_new(const tyjson_alloc *alc) {
    tyjson_alloc a = tyjson__alc_or_libc(alc);
    tyjson_mut_doc *doc = (tyjson_mut_doc *)tyjson__malloc(&a, sizeof(*doc));
    if (!doc) return NULL;
    memset(doc, 0, sizeof(*doc));
    doc->alc = a;
    doc->vals.next_size = VAL_CHUNK_MIN;
    doc->strs.next_size = STR_CHUNK_MIN;
    return doc;
}

void tyjson_mut_doc_free(tyjson_mut_doc *doc) {
    if (!doc) return;
    tyjson_alloc a = doc->alc;
    tyjson__bump_chain_free(&a, doc->vals.head);
    tyjson__bump_chain_free(&a, doc->strs.head);
    tyjson__free(&a, doc);
}

tyjson_mut_val *tyjson_mut_doc_get_root(const tyjson_mut_doc *doc) {
    return doc ? doc->root : NULL;
}

void tyjson_mut_doc_set_root(tyjson_mut_doc *doc, tyjson_mut_val *root) {
    if (doc) doc->root = root;
}

const tyjson_alloc *tyjson__mut_doc_alc(const tyjson_mut_doc *doc) { return &doc->alc; }

tyjson_mut_val **tyjson__mut_doc_root_slot(tyjson_mut_doc *doc) { return &doc->root; }

/* ----------------------------------------------------------------------------
 * MARK: - Node helpers
 * ------------------------------------------------------------------------- */
#define K_NULL ((u64)TYJSON_TYPE_NULL)
#define K_FALSE ((u64)(TYJSON_TYPE_BOOL | TYJSON_SUBTYPE_FALSE))
#define K_TRUE ((u64)(TYJSON_TYPE_BOOL | TYJSON_SUBTYPE_TRUE))
#define K_UINT ((u64)(TYJSON_TYPE_NUM | TYJSON_SUBTYPE_UINT))
#define K_SINT ((u64)(TYJSON_TYPE_NUM | TYJSON_SUBTYPE_SINT))
#define K_REAL ((u64)(TYJSON_TYPE_NUM | TYJSON_SUBTYPE_REAL))
#define K_STR ((u64)TYJSON_TYPE_STR)
#define K_RAW ((u64)TYJSON_TYPE_RAW)
#define K_ARR ((u64)TYJSON_TYPE_ARR)
#define K_OBJ ((u64)TYJSON_TYPE_OBJ)
/* Low tag byte: type, subtype, no-escape bit and reserved bits. */
#define TAG_LOW_MASK ((u64)0xFF)

TYJSON__FORCEINLINE u8 vtype(const mval *v) { return (u8)(v->tag & TYJSON__TYPE_MASK); }
TYJSON__FORCEINLINE bool v_is_ctn(const mval *v) { return vtype(v) >= TYJSON_TYPE_ARR; }
TYJSON__FORCEINLINE bool v_has_str(const mval *v) {
    return vtype(v) == TYJSON_TYPE_STR || vtype(v) == TYJSON_TYPE_RAW;
}
TYJSON__FORCEINLINE usize vlen(const mval *v) { return tyjson__tag_len(v->tag); }
TYJSON__FORCEINLINE void set_len(mval *v, usize n) {
    v->tag = (v->tag & TAG_LOW_MASK) | ((u64)n << TYJSON__LEN_SHIFT);
}
/* Nodes in a container's list: an object holds a key and a value per member. */
TYJSON__FORCEINLINE usize child_count(const mval *v) {
    return vlen(v) << (vtype(v) == TYJSON_TYPE_OBJ);
}
TYJSON__FORCEINLINE mval *last_child(const mval *v) { return (mval *)v->uni.ptr; }
TYJSON__FORCEINLINE mval *first_child(const mval *v) { return last_child(v)->next; }

/* Lengths must fit the 56 bits the tag keeps for them. */
TYJSON__FORCEINLINE bool len_fits(usize len) { return tyjson__len_fits(len); }

/* A value sits in a container exactly when its `next` is set: lists are
 * circular, so even an only child points at itself, and every unlink
 * clears it. Inserting a linked value (or a container into itself) would
 * corrupt both lists or make a cycle, so every insertion refuses one. */
TYJSON__FORCEINLINE bool insertable(const mval *ctn, const mval *v) {
    return v && !v->next && v != ctn;
}

/* Clears the links of every child of a container (which then is empty). */
static void unlink_all(mval *ctn) {
    usize n = child_count(ctn);
    mval *v = n ? first_child(ctn) : NULL;
    while (n--) {
        mval *next = v->next;
        v->next = NULL;
        v = next;
    }
    ctn->uni.ptr = NULL;
    set_len(ctn, 0);
}

/* Links v after the last child; a NULL last child means the list is empty.
 * The caller keeps the length in the tag. */
TYJSON__FORCEINLINE void link_last(mval *ctn, mval *v) {
    mval *last = last_child(ctn);
    if (last) {
        v->next = last->next;
        last->next = v;
    } else {
        v->next = v;
    }
    ctn->uni.ptr = v;
}

static mval *new_val(tyjson_mut_doc *doc, u64 tag) {
    if (!doc) return NULL;
    mval *v = (mval *)arena_alloc(&doc->alc, &doc->vals, sizeof(mval));
    if (v) {
        v->tag = tag;
        v->uni.u64 = 0;
        v->next = NULL;
    }
    return v;
}

/* Copies len bytes and a NUL into the string arena. */
static char *str_dup(tyjson_mut_doc *doc, const char *s, usize len) {
    usize n;
    if (tyjson__add_ovf(len, 1, &n)) return NULL;
    char *p = (char *)arena_alloc(&doc->alc, &doc->strs, n);
    if (!p) return NULL;
    if (len) memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

/* ----------------------------------------------------------------------------
 * MARK: - Creating values
 * ------------------------------------------------------------------------- */
tyjson_mut_val *tyjson_mut_null(tyjson_mut_doc *doc) { return new_val(doc, K_NULL); }
tyjson_mut_val *tyjson_mut_bool(tyjson_mut_doc *doc, bool b) { return new_val(doc, b ? K_TRUE : K_FALSE); }
tyjson_mut_val *tyjson_mut_true(tyjson_mut_doc *doc) { return new_val(doc, K_TRUE); }
tyjson_mut_val *tyjson_mut_false(tyjson_mut_doc *doc) { return new_val(doc, K_FALSE); }

tyjson_mut_val *tyjson_mut_uint(tyjson_mut_doc *doc, uint64_t n) {
    mval *v = new_val(doc, K_UINT);
    if (v) v->uni.u64 = n;
    return v;
}

tyjson_mut_val *tyjson_mut_sint(tyjson_mut_doc *doc, int64_t n) {
    mval *v = new_val(doc, n >= 0 ? K_UINT : K_SINT);
    if (v) v->uni.i64 = n;
    return v;
}

tyjson_mut_val *tyjson_mut_int(tyjson_mut_doc *doc, int64_t n) { return tyjson_mut_sint(doc, n); }

tyjson_mut_val *tyjson_mut_real(tyjson_mut_doc *doc, double d) {
    mval *v = new_val(doc, K_REAL);
    if (v) v->uni.f64 = d;
    return v;
}

tyjson_mut_val *tyjson_mut_float(tyjson_mut_doc *doc, float f) {
    mval *v = new_val(doc, TYJSON__TAG_FLOAT);
    if (v) v->uni.f64 = (double)f;
    return v;
}

tyjson_mut_val *tyjson_mut_strn(tyjson_mut_doc *doc, const char *s, size_t len) {
    if ((!s && len) || !len_fits(len)) return NULL;
    mval *v = new_val(doc, tyjson__tag(K_STR, len));
    if (v) v->uni.str = s ? s : ""; /* NULL, 0: the empty string */
    return v;
}

tyjson_mut_val *tyjson_mut_str(tyjson_mut_doc *doc, const char *s) {
    return s ? tyjson_mut_strn(doc, s, strlen(s)) : NULL;
}

/* A string or raw value holding a copy of the bytes. */
static mval *new_copied(tyjson_mut_doc *doc, u64 kind, const char *s, usize len) {
    if (!doc || (!s && len) || !len_fits(len)) return NULL;
    mval *v = new_val(doc, tyjson__tag(kind, len));
    if (!v) return NULL;
    char *p = str_dup(doc, s, len);
    if (!p) return NULL;
    v->uni.str = p;
    return v;
}

tyjson_mut_val *tyjson_mut_strncpy(tyjson_mut_doc *doc, const char *s, size_t len) {
    return new_copied(doc, K_STR, s, len);
}

tyjson_mut_val *tyjson_mut_strcpy(tyjson_mut_doc *doc, const char *s) {
    return s ? new_copied(doc, K_STR, s, strlen(s)) : NULL;
}

tyjson_mut_val *tyjson_mut_rawncpy(tyjson_mut_doc *doc, const char *s, size_t len) {
    return new_copied(doc, K_RAW, s, len);
}

tyjson_mut_val *tyjson_mut_arr(tyjson_mut_doc *doc) { return new_val(doc, K_ARR); }
tyjson_mut_val *tyjson_mut_obj(tyjson_mut_doc *doc) { return new_val(doc, K_OBJ); }

/* ----------------------------------------------------------------------------
 * MARK: - Setters: the tag is rewritten, `next` is left alone so the value
 * keeps its place in its parent.
 * ------------------------------------------------------------------------- */
TYJSON__FORCEINLINE bool mut_set_scalar(mval *v, u64 tag, tyjson_val_uni u) {
    return v && tyjson__set_scalar(&v->tag, &v->uni, tag, u);
}

bool tyjson_mut_set_null(tyjson_mut_val *v) { return mut_set_scalar(v, K_NULL, tyjson__uni_u64(0)); }

bool tyjson_mut_set_bool(tyjson_mut_val *v, bool b) {
    return mut_set_scalar(v, b ? K_TRUE : K_FALSE, tyjson__uni_u64(0));
}

bool tyjson_mut_set_uint(tyjson_mut_val *v, uint64_t n) {
    return mut_set_scalar(v, K_UINT, tyjson__uni_u64(n));
}

bool tyjson_mut_set_sint(tyjson_mut_val *v, int64_t n) {
    return mut_set_scalar(v, n >= 0 ? K_UINT : K_SINT, tyjson__uni_u64((u64)n));
}

bool tyjson_mut_set_real(tyjson_mut_val *v, double d) {
    return mut_set_scalar(v, K_REAL, tyjson__uni_f64(d));
}

bool tyjson_mut_set_float(tyjson_mut_val *v, float f) {
    return mut_set_scalar(v, TYJSON__TAG_FLOAT, tyjson__uni_f64((double)f));
}

bool tyjson_mut_set_strn(tyjson_mut_val *v, const char *s, size_t len) {
    if ((!s && len) || !len_fits(len)) return false;
    return mut_set_scalar(v, tyjson__tag(K_STR, len), tyjson__uni_str(s ? s : ""));
}

bool tyjson_mut_set_strncpy(tyjson_mut_doc *doc, tyjson_mut_val *v, const char *s, size_t len) {
    if (!doc || !v || v_is_ctn(v) || (!s && len) || !len_fits(len)) return false;
    char *p = str_dup(doc, s, len);
    return p && mut_set_scalar(v, tyjson__tag(K_STR, len), tyjson__uni_str(p));
}

/* ----------------------------------------------------------------------------
 * MARK: - Arrays
 * ------------------------------------------------------------------------- */

/* Element idx; the caller checked idx < size. */
static mval *arr_nth(const mval *arr, usize idx) {
    mval *v = first_child(arr);
    while (idx--) v = v->next;
    return v;
}

/* The node before element idx: the last one for idx 0 (the list is circular). */
static mval *arr_prev(const mval *arr, usize idx) {
    return idx ? arr_nth(arr, idx - 1) : last_child(arr);
}

tyjson_mut_val *tyjson_mut_arr_get(const tyjson_mut_val *arr, size_t idx) {
    return idx < tyjson_mut_arr_size(arr) ? arr_nth(arr, idx) : NULL;
}

tyjson_mut_val *tyjson_mut_arr_get_first(const tyjson_mut_val *arr) {
    return tyjson_mut_arr_size(arr) ? first_child(arr) : NULL;
}

tyjson_mut_val *tyjson_mut_arr_get_last(const tyjson_mut_val *arr) {
    return tyjson_mut_arr_size(arr) ? last_child(arr) : NULL;
}

bool tyjson_mut_arr_append(tyjson_mut_val *arr, tyjson_mut_val *val) {
    if (!tyjson_mut_is_arr(arr) || !insertable(arr, val)) return false;
    usize n = vlen(arr);
    if (!n) arr->uni.ptr = NULL;
    link_last(arr, val);
    set_len(arr, n + 1);
    return true;
}

bool tyjson_mut_arr_insert(tyjson_mut_val *arr, tyjson_mut_val *val, size_t idx) {
    if (!tyjson_mut_is_arr(arr) || !insertable(arr, val)) return false;
    usize n = vlen(arr);
    if (idx > n) return false;
    if (idx == n) return tyjson_mut_arr_append(arr, val);
    mval *prev = arr_prev(arr, idx);
    val->next = prev->next;
    prev->next = val;
    set_len(arr, n + 1);
    return true;
}

bool tyjson_mut_arr_prepend(tyjson_mut_val *arr, tyjson_mut_val *val) {
    return tyjson_mut_arr_insert(arr, val, 0);
}

tyjson_mut_val *tyjson_mut_arr_replace(tyjson_mut_val *arr, size_t idx, tyjson_mut_val *val) {
    if (!tyjson_mut_is_arr(arr) || !insertable(arr, val) || idx >= vlen(arr)) return NULL;
    mval *prev = arr_prev(arr, idx);
    mval *old = prev->next;
    if (old == prev) {
        val->next = val; /* the only element */
    } else {
        val->next = old->next;
        prev->next = val;
    }
    if (old == last_child(arr)) arr->uni.ptr = val;
    old->next = NULL;
    return old;
}

tyjson_mut_val *tyjson_mut_arr_remove(tyjson_mut_val *arr, size_t idx) {
    if (!tyjson_mut_is_arr(arr)) return NULL;
    usize n = vlen(arr);
    if (idx >= n) return NULL;
    mval *prev = arr_prev(arr, idx);
    mval *old = prev->next;
    if (n == 1) {
        arr->uni.ptr = NULL;
    } else {
        prev->next = old->next;
        if (old == last_child(arr)) arr->uni.ptr = prev;
    }
    set_len(arr, n - 1);
    old->next = NULL;
    return old;
}

bool tyjson_mut_arr_remove_range(tyjson_mut_val *arr, size_t idx, size_t count) {
    if (!tyjson_mut_is_arr(arr)) return false;
    usize n = vlen(arr);
    if (idx > n || count > n - idx) return false; /* no idx + count overflow */
    if (count == 0) return true;
    mval *prev = arr_prev(arr, idx);
    mval *old = prev->next;
    bool takes_last = idx + count == n;
    for (usize i = 0; i < count; i++) { /* unlinked values may be inserted again */
        mval *next = old->next;
        old->next = NULL;
        old = next;
    }
    if (count == n) {
        arr->uni.ptr = NULL;
    } else {
        prev->next = old;
        if (takes_last) arr->uni.ptr = prev;
    }
    set_len(arr, n - count);
    return true;
}

bool tyjson_mut_arr_rotate(tyjson_mut_val *arr, size_t idx) {
    if (!tyjson_mut_is_arr(arr) || idx >= vlen(arr)) return false;
    /* the list is a ring entered at its last element: element idx - 1
     * becomes the last one, so element idx comes first */
    if (idx) arr->uni.ptr = arr_nth(arr, idx - 1);
    return true;
}

tyjson_mut_val *tyjson_mut_arr_remove_first(tyjson_mut_val *arr) {
    return tyjson_mut_arr_remove(arr, 0);
}

tyjson_mut_val *tyjson_mut_arr_remove_last(tyjson_mut_val *arr) {
    usize n = tyjson_mut_arr_size(arr);
    return n ? tyjson_mut_arr_remove(arr, n - 1) : NULL;
}

bool tyjson_mut_arr_clear(tyjson_mut_val *arr) {
    if (!tyjson_mut_is_arr(arr)) return false;
    unlink_all(arr);
    return true;
}

/* Checked before creating the element so bad calls allocate nothing. */
TYJSON__FORCEINLINE bool arr_ok(const tyjson_mut_doc *doc, const mval *arr) {
    return doc && tyjson_mut_is_arr(arr);
}

bool tyjson_mut_arr_add_null(tyjson_mut_doc *doc, tyjson_mut_val *arr) {
    return arr_ok(doc, arr) && tyjson_mut_arr_append(arr, tyjson_mut_null(doc));
}
bool tyjson_mut_arr_add_bool(tyjson_mut_doc *doc, tyjson_mut_val *arr, bool b) {
    return arr_ok(doc, arr) && tyjson_mut_arr_append(arr, tyjson_mut_bool(doc, b));
}
bool tyjson_mut_arr_add_uint(tyjson_mut_doc *doc, tyjson_mut_val *arr, uint64_t n) {
    return arr_ok(doc, arr) && tyjson_mut_arr_append(arr, tyjson_mut_uint(doc, n));
}
bool tyjson_mut_arr_add_sint(tyjson_mut_doc *doc, tyjson_mut_val *arr, int64_t n) {
    return arr_ok(doc, arr) && tyjson_mut_arr_append(arr, tyjson_mut_sint(doc, n));
}
bool tyjson_mut_arr_add_real(tyjson_mut_doc *doc, tyjson_mut_val *arr, double d) {
    return arr_ok(doc, arr) && tyjson_mut_arr_append(arr, tyjson_mut_real(doc, d));
}
bool tyjson_mut_arr_add_float(tyjson_mut_doc *doc, tyjson_mut_val *arr, float f) {
    return arr_ok(doc, arr) && tyjson_mut_arr_append(arr, tyjson_mut_float(doc, f));
}
bool tyjson_mut_arr_add_str(tyjson_mut_doc *doc, tyjson_mut_val *arr, const char *s) {
    return arr_ok(doc, arr) && s && tyjson_mut_arr_append(arr, tyjson_mut_str(doc, s));
}
bool tyjson_mut_arr_add_strcpy(tyjson_mut_doc *doc, tyjson_mut_val *arr, const char *s) {
    return arr_ok(doc, arr) && s && tyjson_mut_arr_append(arr, tyjson_mut_strcpy(doc, s));
}

tyjson_mut_val *tyjson_mut_arr_add_arr(tyjson_mut_doc *doc, tyjson_mut_val *arr) {
    if (!arr_ok(doc, arr)) return NULL;
    mval *v = tyjson_mut_arr(doc);
    return tyjson_mut_arr_append(arr, v) ? v : NULL;
}

tyjson_mut_val *tyjson_mut_arr_add_obj(tyjson_mut_doc *doc, tyjson_mut_val *arr) {
    if (!arr_ok(doc, arr)) return NULL;
    mval *v = tyjson_mut_obj(doc);
    return tyjson_mut_arr_append(arr, v) ? v : NULL;
}

/* Arrays from C arrays: one value per element, appended in order. */
#define ARR_WITH(name, type, make)                                                      \
    tyjson_mut_val *name(tyjson_mut_doc *doc, const type *vals, size_t n) {             \
        if (!doc || (!vals && n)) return NULL;                                          \
        mval *arr = tyjson_mut_arr(doc);                                                \
        for (usize i = 0; arr && i < n; i++)                                            \
            if (!tyjson_mut_arr_append(arr, make(doc, vals[i]))) arr = NULL;            \
        return arr;                                                                     \
    }
ARR_WITH(tyjson_mut_arr_with_bool, bool, tyjson_mut_bool)
ARR_WITH(tyjson_mut_arr_with_sint, int64_t, tyjson_mut_sint)
ARR_WITH(tyjson_mut_arr_with_uint, uint64_t, tyjson_mut_uint)
ARR_WITH(tyjson_mut_arr_with_real, double, tyjson_mut_real)
ARR_WITH(tyjson_mut_arr_with_float, float, tyjson_mut_float)
ARR_WITH(tyjson_mut_arr_with_str, char *const, tyjson_mut_str)
ARR_WITH(tyjson_mut_arr_with_strcpy, char *const, tyjson_mut_strcpy)
#undef ARR_WITH

tyjson_mut_val *tyjson_mut_arr_with_strn(tyjson_mut_doc *doc, const char *const *vals, const size_t *lens,
                                         size_t n) {
    if (!doc || ((!vals || !lens) && n)) return NULL;
    mval *arr = tyjson_mut_arr(doc);
    for (usize i = 0; arr && i < n; i++)
        if (!tyjson_mut_arr_append(arr, tyjson_mut_strn(doc, vals[i], lens[i]))) arr = NULL;
    return arr;
}

/* ----------------------------------------------------------------------------
 * MARK: - Objects
 * ------------------------------------------------------------------------- */
TYJSON__FORCEINLINE bool key_is(const mval *k, const char *s, usize len) {
    return vlen(k) == len && (len == 0 || memcmp(k->uni.str, s, len) == 0);
}

tyjson_mut_val *tyjson_mut_obj_getn(const tyjson_mut_val *obj, const char *key, size_t len) {
    usize n = tyjson_mut_obj_size(obj);
    if (!n || (!key && len)) return NULL; /* NULL, 0: the empty key */
    mval *k = first_child(obj);
    while (n--) {
        if (key_is(k, key, len)) return k->next;
        k = k->next->next;
    }
    return NULL;
}

tyjson_mut_val *tyjson_mut_obj_get(const tyjson_mut_val *obj, const char *key) {
    return key ? tyjson_mut_obj_getn(obj, key, strlen(key)) : NULL;
}

/* A new member's key and value: unlinked, distinct, not the object. */
TYJSON__FORCEINLINE bool member_ok(const mval *obj, const mval *key, const mval *val) {
    return tyjson_mut_is_obj(obj) && tyjson_mut_is_str(key) && !key->next &&
           insertable(obj, val) && key != val;
}

bool tyjson_mut_obj_add(tyjson_mut_val *obj, tyjson_mut_val *key, tyjson_mut_val *val) {
    if (!member_ok(obj, key, val)) return false;
    usize n = vlen(obj);
    if (!n) obj->uni.ptr = NULL;
    link_last(obj, key);
    link_last(obj, val);
    set_len(obj, n + 1);
    return true;
}

/* Unlinks the member whose key follows `prev` (a value node, or the last
 * node for the first member); `left` members remain before the call. */
static void obj_unlink(mval *obj, mval *prev, usize left) {
    mval *key = prev->next, *val = key->next;
    if (left == 1) {
        obj->uni.ptr = NULL;
    } else {
        prev->next = val->next;
        if (val == last_child(obj)) obj->uni.ptr = prev;
    }
    key->next = NULL;
    val->next = NULL;
}

bool tyjson_mut_obj_put(tyjson_mut_val *obj, tyjson_mut_val *key, tyjson_mut_val *val) {
    if (!member_ok(obj, key, val)) return false;
    usize n = vlen(obj), kept = n;
    const char *ks = key->uni.str;
    usize klen = vlen(key);
    bool found = false;
    mval *prev = last_child(obj);
    for (usize i = 0; i < n; i++) {
        mval *k = prev->next, *v = k->next;
        if (!key_is(k, ks, klen)) {
            prev = v;
        } else if (!found) {
            /* Keep the existing key node; swap the value in place. */
            found = true;
            val->next = v->next;
            k->next = val;
            if (v == last_child(obj)) obj->uni.ptr = val;
            v->next = NULL;
            prev = val;
        } else {
            obj_unlink(obj, prev, kept--);
        }
    }
    if (!found) return tyjson_mut_obj_add(obj, key, val);
    set_len(obj, kept);
    return true;
}

tyjson_mut_val *tyjson_mut_obj_remove_keyn(tyjson_mut_val *obj, const char *key, size_t len) {
    usize n = tyjson_mut_obj_size(obj), kept = n;
    if (!n || (!key && len)) return NULL;
    mval *first = NULL;
    mval *prev = last_child(obj);
    for (usize i = 0; i < n; i++) {
        mval *k = prev->next, *v = k->next;
        if (key_is(k, key, len)) {
            if (!first) first = v;
            obj_unlink(obj, prev, kept--);
        } else {
            prev = v;
        }
    }
    set_len(obj, kept);
    return first;
}

tyjson_mut_val *tyjson_mut_obj_remove_key(tyjson_mut_val *obj, const char *key) {
    return key ? tyjson_mut_obj_remove_keyn(obj, key, strlen(key)) : NULL;
}

bool tyjson_mut_obj_replace(tyjson_mut_val *obj, tyjson_mut_val *key, tyjson_mut_val *val) {
    if (!member_ok(obj, key, val)) return false;
    usize n = vlen(obj);
    mval *k = n ? first_child(obj) : NULL;
    for (usize i = 0; i < n; i++, k = k->next->next) {
        if (!key_is(k, key->uni.str, vlen(key))) continue;
        mval *v = k->next;
        val->next = v->next;
        k->next = val;
        if (v == last_child(obj)) obj->uni.ptr = val;
        v->next = NULL;
        return true;
    }
    return false;
}

bool tyjson_mut_obj_rename_keyn(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key, size_t len,
                                const char *new_key, size_t new_len) {
    usize n = tyjson_mut_obj_size(obj);
    if (!doc || !n || (!key && len) || (!new_key && new_len) || !len_fits(new_len)) return false;
    /* Find one first: a missing key allocates nothing. */
    if (!tyjson_mut_obj_getn(obj, key, len)) return false;
    char *copy = str_dup(doc, new_key ? new_key : "", new_len);
    if (!copy) return false;
    mval *k = first_child(obj);
    for (usize i = 0; i < n; i++, k = k->next->next) {
        if (!key_is(k, key, len)) continue;
        k->tag = tyjson__tag(K_STR, new_len);
        k->uni.str = copy;
    }
    return true;
}

bool tyjson_mut_obj_rename_key(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key,
                               const char *new_key) {
    if (!key || !new_key) return false;
    return tyjson_mut_obj_rename_keyn(doc, obj, key, strlen(key), new_key, strlen(new_key));
}

bool tyjson_mut_obj_clear(tyjson_mut_val *obj) {
    if (!tyjson_mut_is_obj(obj)) return false;
    unlink_all(obj);
    return true;
}

/* Checked before creating the member so bad calls allocate nothing. */
TYJSON__FORCEINLINE bool obj_ok(const tyjson_mut_doc *doc, const mval *obj, const char *key) {
    return doc && tyjson_mut_is_obj(obj) && key;
}

/* Appends `key: val` with the key referenced; val NULL (a failed
 * constructor) gives false. */
static bool obj_add_ref(tyjson_mut_doc *doc, mval *obj, const char *key, mval *val) {
    if (!insertable(obj, val)) return false; /* before the key is allocated */
    mval *k = tyjson_mut_str(doc, key);
    return k && tyjson_mut_obj_add(obj, k, val);
}

bool tyjson_mut_obj_add_null(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key) {
    return obj_ok(doc, obj, key) && obj_add_ref(doc, obj, key, tyjson_mut_null(doc));
}
bool tyjson_mut_obj_add_bool(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key, bool b) {
    return obj_ok(doc, obj, key) && obj_add_ref(doc, obj, key, tyjson_mut_bool(doc, b));
}
bool tyjson_mut_obj_add_uint(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key, uint64_t n) {
    return obj_ok(doc, obj, key) && obj_add_ref(doc, obj, key, tyjson_mut_uint(doc, n));
}
bool tyjson_mut_obj_add_sint(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key, int64_t n) {
    return obj_ok(doc, obj, key) && obj_add_ref(doc, obj, key, tyjson_mut_sint(doc, n));
}
bool tyjson_mut_obj_add_real(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key, double d) {
    return obj_ok(doc, obj, key) && obj_add_ref(doc, obj, key, tyjson_mut_real(doc, d));
}
bool tyjson_mut_obj_add_float(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key, float f) {
    return obj_ok(doc, obj, key) && obj_add_ref(doc, obj, key, tyjson_mut_float(doc, f));
}
bool tyjson_mut_obj_add_str(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key, const char *s) {
    return obj_ok(doc, obj, key) && s && obj_add_ref(doc, obj, key, tyjson_mut_str(doc, s));
}
bool tyjson_mut_obj_add_strcpy(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key, const char *s) {
    return obj_ok(doc, obj, key) && s && obj_add_ref(doc, obj, key, tyjson_mut_strcpy(doc, s));
}
bool tyjson_mut_obj_add_val(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key, tyjson_mut_val *val) {
    return obj_ok(doc, obj, key) && obj_add_ref(doc, obj, key, val);
}

bool tyjson_mut_obj_add_val_keycpy(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key,
                                   tyjson_mut_val *val) {
    if (!obj_ok(doc, obj, key) || !insertable(obj, val)) return false;
    mval *k = tyjson_mut_strcpy(doc, key);
    return k && tyjson_mut_obj_add(obj, k, val);
}

tyjson_mut_val *tyjson_mut_obj_add_arr(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key) {
    if (!obj_ok(doc, obj, key)) return NULL;
    mval *v = tyjson_mut_arr(doc);
    return obj_add_ref(doc, obj, key, v) ? v : NULL;
}

tyjson_mut_val *tyjson_mut_obj_add_obj(tyjson_mut_doc *doc, tyjson_mut_val *obj, const char *key) {
    if (!obj_ok(doc, obj, key)) return NULL;
    mval *v = tyjson_mut_obj(doc);
    return obj_add_ref(doc, obj, key, v) ? v : NULL;
}

/* ----------------------------------------------------------------------------
 * MARK: - Walk stack
 *
 * The copies' frames sit on the explicit stack of base/stack.h: the first
 * STACK_INLINE in the caller's local array, so ordinary documents need no
 * allocation; deeper ones on the heap through the document's allocator.
 * ------------------------------------------------------------------------- */
#define STACK_INLINE 32

typedef tyjson__stack stack;

/* Frame of the copy walks: the container being visited. */
typedef struct cframe {
    const mval *cur; /* next child to visit */
    usize left;      /* children still to visit */
    union {
        mval *dst; /* mutable copy: the container being filled */
        usize idx; /* immutable copy: the container's slot */
    } u;
} cframe;

/* Pushes a frame for a non-empty container; NULL when out of memory. */
static cframe *push_ctn(stack *s, const mval *v) {
    cframe *f = (cframe *)tyjson__stack_push(s);
    if (f) {
        f->cur = first_child(v);
        f->left = child_count(v);
    }
    return f;
}

/* Next node of a pre-order walk: pops finished containers (calling nothing)
 * and returns the next child, or NULL at the end. */
static const mval *walk_next(stack *s) {
    while (s->len) {
        cframe *f = (cframe *)tyjson__stack_top(s);
        if (f->left) {
            const mval *v = f->cur;
            f->cur = v->next;
            f->left--;
            return v;
        }
        s->len--;
    }
    return NULL;
}

/* ----------------------------------------------------------------------------
 * MARK: - Copies
 * ------------------------------------------------------------------------- */

/* Immutable -> mutable. The subtree is contiguous, so all nodes and all
 * string bytes are allocated in one request each, and each container links
 * its children by hopping over their subtrees: no stack is needed. */
tyjson_mut_val *tyjson_val_mut_copy(tyjson_mut_doc *doc, const tyjson_val *val) {
    if (!doc || !val) return NULL;
    usize n = tyjson_is_ctn(val) ? val->uni.ofs : 1, sbytes = 0, bytes;
    for (usize i = 0; i < n; i++) {
        const tyjson_val *s = val + i;
        if ((tyjson_is_str(s) || tyjson_is_raw(s)) &&
            tyjson__add_ovf(sbytes, tyjson__tag_len(s->tag) + 1, &sbytes))
            return NULL;
    }
    if (tyjson__mul_ovf(n, sizeof(mval), &bytes)) return NULL;
    mval *m = (mval *)arena_alloc(&doc->alc, &doc->vals, bytes);
    if (!m) return NULL;
    char *pool = sbytes ? (char *)arena_alloc(&doc->alc, &doc->strs, sbytes) : NULL;
    if (sbytes && !pool) return NULL;

    m[0].next = NULL;
    for (usize i = 0; i < n; i++) {
        const tyjson_val *s = val + i;
        mval *d = m + i;
        d->tag = s->tag;
        if (tyjson_is_str(s) || tyjson_is_raw(s)) {
            usize len = tyjson__tag_len(s->tag);
            if (len) memcpy(pool, s->uni.str, len);
            pool[len] = '\0';
            d->uni.str = pool;
            pool += len + 1;
        } else if (tyjson_is_ctn(s)) {
            usize cnt = tyjson__tag_len(s->tag) << tyjson_is_obj(s);
            usize j = i + 1;
            d->uni.ptr = NULL;
            for (usize k = 0; k < cnt; k++) {
                usize nj = (usize)(tyjson__next(val + j) - val);
                m[j].next = k + 1 < cnt ? m + nj : m + i + 1;
                if (k + 1 == cnt) d->uni.ptr = m + j;
                j = nj;
            }
        } else {
            d->uni = s->uni;
        }
    }
    return m;
}

/* One node of a mutable copy, unlinked; containers start empty. */
static mval *clone_node(tyjson_mut_doc *doc, const mval *v) {
    mval *d = (mval *)arena_alloc(&doc->alc, &doc->vals, sizeof(mval));
    if (!d) return NULL;
    d->tag = v->tag;
    d->next = NULL;
    if (v_has_str(v)) {
        char *p = str_dup(doc, v->uni.str, vlen(v));
        if (!p) return NULL;
        d->uni.str = p;
    } else if (v_is_ctn(v)) {
        d->uni.ptr = NULL;
    } else {
        d->uni = v->uni;
    }
    return d;
}

/* Mutable -> mutable. On failure the partial copy is unreachable garbage in
 * the arena, released with the document. */
tyjson_mut_val *tyjson_mut_val_mut_copy(tyjson_mut_doc *doc, const tyjson_mut_val *val) {
    if (!doc || !val) return NULL;
    mval *root = clone_node(doc, val);
    if (!root || !v_is_ctn(val) || !vlen(val)) return root;

    cframe inl[STACK_INLINE];
    stack s;
    tyjson__stack_init(&s, &doc->alc, inl, STACK_INLINE, sizeof(cframe));
    push_ctn(&s, val)->u.dst = root; /* inline room: cannot fail */
    while (s.len) {
        cframe *f = (cframe *)tyjson__stack_top(&s);
        if (!f->left) {
            s.len--;
            continue;
        }
        const mval *v = f->cur;
        f->cur = v->next;
        f->left--;
        mval *d = clone_node(doc, v);
        if (!d) goto fail;
        link_last(f->u.dst, d);
        if (v_is_ctn(v) && vlen(v)) {
            f = push_ctn(&s, v);
            if (!f) goto fail;
            f->u.dst = d;
        }
    }
    tyjson__stack_free(&s);
    return root;
fail:
    tyjson__stack_free(&s);
    return NULL;
}

tyjson_mut_doc *tyjson_doc_mut_copy(const tyjson_doc *doc, const tyjson_alloc *alc) {
    if (!doc) return NULL;
    tyjson_mut_doc *m = tyjson_mut_doc_new(alc);
    if (!m) return NULL;
    if (doc->root) {
        m->root = tyjson_val_mut_copy(m, doc->root);
        if (!m->root) {
            tyjson_mut_doc_free(m);
            return NULL;
        }
    }
    return m;
}

/* First pass of mutable -> immutable: slots and string bytes. */
static bool imut_count(stack *s, const mval *v, usize *slots, usize *sbytes) {
    usize n = 0, b = 0;
    s->len = 0;
    for (; v; v = walk_next(s)) {
        n++;
        if (v_has_str(v)) {
            if (tyjson__add_ovf(b, vlen(v), &b) || tyjson__add_ovf(b, 1, &b)) return false;
        } else if (v_is_ctn(v) && vlen(v)) {
            if (!push_ctn(s, v)) return false;
        }
    }
    *slots = n;
    *sbytes = b;
    return true;
}

/* Second pass: values in document order. A container learns its subtree
 * size when its frame is popped, i.e. after its last descendant. */
static bool imut_fill(stack *s, const mval *v, tyjson_val *out, char *pool) {
    usize i = 0;
    s->len = 0;
    for (;;) {
        tyjson_val *d = out + i;
        d->tag = v->tag;
        if (v_has_str(v)) {
            usize len = vlen(v);
            if (len) memcpy(pool, v->uni.str, len);
            pool[len] = '\0';
            d->uni.str = pool;
            pool += len + 1;
        } else if (v_is_ctn(v)) {
            d->uni.ofs = 1;
            if (vlen(v)) {
                cframe *f = push_ctn(s, v);
                if (!f) return false;
                f->u.idx = i;
            }
        } else {
            d->uni = v->uni;
        }
        i++;
        /* Close finished containers, then step to the next node. */
        v = NULL;
        while (s->len) {
            cframe *f = (cframe *)tyjson__stack_top(s);
            if (f->left) {
                v = f->cur;
                f->cur = v->next;
                f->left--;
                break;
            }
            out[f->u.idx].uni.ofs = i - f->u.idx;
            s->len--;
        }
        if (!v) return true;
    }
}

tyjson_doc *tyjson_mut_val_imut_copy(const tyjson_mut_val *val, const tyjson_alloc *alc) {
    if (!val) return NULL;
    tyjson_alloc a = tyjson__alc_or_libc(alc);
    cframe inl[STACK_INLINE];
    stack s;
    tyjson__stack_init(&s, &a, inl, STACK_INLINE, sizeof(cframe));
    tyjson_doc *doc = NULL;
    char *pool = NULL;
    usize slots, sbytes, bytes;
    if (!imut_count(&s, val, &slots, &sbytes)) goto fail;
    if (tyjson__mul_ovf(slots, sizeof(tyjson_val), &bytes) ||
        tyjson__add_ovf(bytes, sizeof(tyjson_doc), &bytes))
        goto fail;
    doc = (tyjson_doc *)tyjson__malloc(&a, bytes);
    if (!doc) goto fail;
    if (sbytes) {
        pool = (char *)tyjson__malloc(&a, sbytes);
        if (!pool) goto fail;
    }
    /* The count pass already grew the stack to the full depth. */
    if (!imut_fill(&s, val, tyjson__doc_vals(doc), pool)) goto fail;
    tyjson__stack_free(&s);
    doc->root = tyjson__doc_vals(doc);
    doc->read_size = 0;
    doc->val_count = slots;
    doc->mem_size = bytes + sbytes;
    doc->block_size = bytes;
    doc->alc = a;
    doc->str_pool = pool;
    doc->str_pool_size = sbytes;
    doc->in_pool = false;
    return doc;
fail:
    tyjson__free(&a, pool);
    tyjson__free(&a, doc);
    tyjson__stack_free(&s);
    return NULL;
}

tyjson_doc *tyjson_mut_doc_imut_copy(const tyjson_mut_doc *doc, const tyjson_alloc *alc) {
    return doc ? tyjson_mut_val_imut_copy(doc->root, alc) : NULL;
}
