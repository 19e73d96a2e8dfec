/*
 * mut.c - the mutable document: its arena, value constructors and setters,
 * array and object editing, deep copies in both directions (immutable <->
 * mutable), JSON Pointer lookup and deep equality.
 *
 * Every deep operation walks the tree with an explicit stack (inline for the
 * first STACK_INLINE levels, then on the heap), never by C recursion, so a
 * document nested a million levels deep is copied and compared safely.
 */
#include "base/bump.h"

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
TYJSON__FORCEINLINE bool len_fits(usize len) {
    return ((u64)len >> (64 - TYJSON__LEN_SHIFT)) == 0;
}

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
TYJSON__FORCEINLINE bool settable(const mval *v) { return v && !v_is_ctn(v); }

bool tyjson_mut_set_null(tyjson_mut_val *v) {
    if (!settable(v)) return false;
    v->tag = K_NULL;
    v->uni.u64 = 0;
    return true;
}

bool tyjson_mut_set_bool(tyjson_mut_val *v, bool b) {
    if (!settable(v)) return false;
    v->tag = b ? K_TRUE : K_FALSE;
    v->uni.u64 = 0;
    return true;
}

bool tyjson_mut_set_uint(tyjson_mut_val *v, uint64_t n) {
    if (!settable(v)) return false;
    v->tag = K_UINT;
    v->uni.u64 = n;
    return true;
}

bool tyjson_mut_set_sint(tyjson_mut_val *v, int64_t n) {
    if (!settable(v)) return false;
    v->tag = n >= 0 ? K_UINT : K_SINT;
    v->uni.i64 = n;
    return true;
}

bool tyjson_mut_set_real(tyjson_mut_val *v, double d) {
    if (!settable(v)) return false;
    v->tag = K_REAL;
    v->uni.f64 = d;
    return true;
}

bool tyjson_mut_set_strn(tyjson_mut_val *v, const char *s, size_t len) {
    if (!settable(v) || (!s && len) || !len_fits(len)) return false;
    v->tag = tyjson__tag(K_STR, len);
    v->uni.str = s ? s : "";
    return true;
}

bool tyjson_mut_set_strncpy(tyjson_mut_doc *doc, tyjson_mut_val *v, const char *s, size_t len) {
    if (!doc || !settable(v) || (!s && len) || !len_fits(len)) return false;
    char *p = str_dup(doc, s, len);
    if (!p) return false;
    v->tag = tyjson__tag(K_STR, len);
    v->uni.str = p;
    return true;
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

/* ----------------------------------------------------------------------------
 * MARK: - Objects
 * ------------------------------------------------------------------------- */
TYJSON__FORCEINLINE bool key_is(const mval *k, const char *s, usize len) {
    return vlen(k) == len && (len == 0 || memcmp(k->uni.str, s, len) == 0);
}

TYJSON__FORCEINLINE bool keys_same(const mval *a, const mval *b) {
    return key_is(a, b->uni.str, vlen(b));
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
 * A growable array of fixed-size frames. The first STACK_INLINE frames live
 * in the caller's local buffer, so ordinary documents need no allocation;
 * deeper ones move to the heap through the given allocator.
 * ------------------------------------------------------------------------- */
#define STACK_INLINE 32

typedef struct stack {
    char *buf;
    usize len, cap, esz; /* frames in use, frames allocated, frame size */
    const tyjson_alloc *alc;
    bool heap;
} stack;

static void stk_init(stack *s, const tyjson_alloc *alc, void *inl, usize esz) {
    s->buf = (char *)inl;
    s->len = 0;
    s->cap = STACK_INLINE;
    s->esz = esz;
    s->alc = alc;
    s->heap = false;
}

static TYJSON__NOINLINE bool stk_grow(stack *s) {
    usize cap, bytes, old = s->cap * s->esz;
    if (tyjson__mul_ovf(s->cap, 2, &cap) || tyjson__mul_ovf(cap, s->esz, &bytes)) return false;
    char *p;
    if (s->heap) {
        p = (char *)tyjson__realloc(s->alc, s->buf, old, bytes);
    } else {
        p = (char *)tyjson__malloc(s->alc, bytes);
        if (p) memcpy(p, s->buf, old);
    }
    if (!p) return false;
    s->buf = p;
    s->cap = cap;
    s->heap = true;
    return true;
}

/* New top frame (uninitialised), or NULL when out of memory. */
TYJSON__FORCEINLINE void *stk_push(stack *s) {
    if (unlikely(s->len == s->cap) && !stk_grow(s)) return NULL;
    return s->buf + s->esz * s->len++;
}

TYJSON__FORCEINLINE void *stk_top(const stack *s) { return s->buf + s->esz * (s->len - 1); }

static void stk_free(stack *s) {
    if (s->heap) tyjson__free(s->alc, s->buf);
}

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
    cframe *f = (cframe *)stk_push(s);
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
        cframe *f = (cframe *)stk_top(s);
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
    stk_init(&s, &doc->alc, inl, sizeof(cframe));
    push_ctn(&s, val)->u.dst = root; /* inline room: cannot fail */
    while (s.len) {
        cframe *f = (cframe *)stk_top(&s);
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
    stk_free(&s);
    return root;
fail:
    stk_free(&s);
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
            cframe *f = (cframe *)stk_top(s);
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
    stk_init(&s, &a, inl, sizeof(cframe));
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
    stk_free(&s);
    doc->root = tyjson__doc_vals(doc);
    doc->read_size = 0;
    doc->val_count = slots;
    doc->mem_size = bytes + sbytes;
    doc->block_size = bytes;
    doc->alc = a;
    doc->str_pool = pool;
    doc->str_pool_size = sbytes;
    return doc;
fail:
    tyjson__free(&a, pool);
    tyjson__free(&a, doc);
    stk_free(&s);
    return NULL;
}

tyjson_doc *tyjson_mut_doc_imut_copy(const tyjson_mut_doc *doc, const tyjson_alloc *alc) {
    return doc ? tyjson_mut_val_imut_copy(doc->root, alc) : NULL;
}

/* ----------------------------------------------------------------------------
 * MARK: - JSON Pointer (RFC 6901)
 * ------------------------------------------------------------------------- */

/* Every '~' must start "~0" or "~1". Checked for the whole pointer first so
 * a malformed pointer is reported as such even where lookup stops early. */
static bool ptr_syntax_ok(const char *p, usize len) {
    for (usize i = 0; i < len; i++) {
        if (p[i] == '~' && (i + 1 == len || (p[i + 1] != '0' && p[i + 1] != '1'))) return false;
    }
    return true;
}

/* Key equals the token once "~1" -> '/' and "~0" -> '~' are decoded. */
static bool tok_eq_key(const mval *key, const char *t, usize tlen) {
    const char *k = key->uni.str;
    usize klen = vlen(key), i = 0, j = 0;
    while (j < tlen) {
        char c = t[j++];
        if (c == '~') c = t[j++] == '0' ? '~' : '/';
        if (i == klen || k[i++] != c) return false;
    }
    return i == klen;
}

/* Array index: "0" or digits without a leading zero, fitting usize. */
static bool tok_index(const char *t, usize tlen, usize *out) {
    if (!tlen || (t[0] == '0' && tlen > 1)) return false;
    usize n = 0;
    for (usize i = 0; i < tlen; i++) {
        unsigned d = (unsigned)(unsigned char)t[i] - '0';
        if (d > 9 || n > (SIZE_MAX - d) / 10) return false;
        n = n * 10 + d;
    }
    *out = n;
    return true;
}

/* The child of v named by one token, or NULL. */
static mval *ptr_step(const mval *v, const char *t, usize tlen) {
    if (tyjson_mut_is_arr(v)) {
        usize idx;
        return tok_index(t, tlen, &idx) ? tyjson_mut_arr_get(v, idx) : NULL;
    }
    usize n = tyjson_mut_obj_size(v);
    if (!n) return NULL;
    mval *k = first_child(v);
    while (n--) {
        if (tok_eq_key(k, t, tlen)) return k->next;
        k = k->next->next;
    }
    return NULL;
}

tyjson_mut_val *tyjson_mut_ptr_getx(const tyjson_mut_val *val, const char *ptr, size_t len,
                                    tyjson_error *err) {
    if (!val || (!ptr && len)) {
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return NULL;
    }
    if (len && (ptr[0] != '/' || !ptr_syntax_ok(ptr, len))) {
        tyjson__err_set(err, TYJSON_E_POINTER, NULL, 0, 0);
        return NULL;
    }
    const mval *cur = val;
    usize pos = 1;
    while (pos <= len) {
        const char *t = ptr + pos;
        const char *slash = (const char *)memchr(t, '/', len - pos);
        usize tlen = slash ? (usize)(slash - t) : len - pos;
        cur = ptr_step(cur, t, tlen);
        if (!cur) {
            tyjson__err_set(err, TYJSON_E_NOT_FOUND, NULL, 0, 0);
            return NULL;
        }
        pos += tlen + 1;
    }
    tyjson__err_ok(err);
    return (mval *)(uintptr_t)cur;
}

tyjson_mut_val *tyjson_mut_ptr_get(const tyjson_mut_val *val, const char *ptr) {
    return ptr ? tyjson_mut_ptr_getx(val, ptr, strlen(ptr), NULL) : NULL;
}

/* ----------------------------------------------------------------------------
 * MARK: - Equality
 *
 * Pairs of containers under comparison sit on a stack (one frame per level:
 * O(depth)). Arrays, and objects whose keys appear in the same order on
 * both sides (the common case), walk both child lists in step. Other
 * objects pair their members by key, the k-th occurrence of a key with the
 * k-th occurrence in the other object (so repeated keys compare in order):
 * up to PAIR_BY_SEARCH members by searching the other object (no memory),
 * larger ones through a sorted index of both member lists (stable, by
 * position), 2 x 16 bytes per member from the allocator, freed when the
 * object is done.
 * ------------------------------------------------------------------------- */
#define PAIR_BY_SEARCH 32u

typedef struct kent {
    const mval *key;
    usize pos; /* position in the object: ties keep the document order */
} kent;

typedef struct eframe {
    const mval *a, *b;   /* lockstep: next children; search: a's next key, b's object */
    const mval *a_obj;   /* search mode: a's object; NULL otherwise */
    usize left;          /* children (or members) still to compare */
    kent *ents;          /* sorted mode: ents[0].pos = n, then a's n, then b's n */
} eframe;

static int kent_cmp(const void *x, const void *y) {
    const kent *p = (const kent *)x, *q = (const kent *)y;
    usize lp = vlen(p->key), lq = vlen(q->key);
    if (lp != lq) return lp < lq ? -1 : 1;
    int c = lp ? memcmp(p->key->uni.str, q->key->uni.str, lp) : 0;
    if (c) return c;
    return p->pos < q->pos ? -1 : p->pos > q->pos;
}

static void fill_keys(kent *e, const mval *obj, usize n) {
    const mval *k = first_child(obj);
    for (usize i = 0; i < n; i++, k = k->next->next) {
        e[i].key = k;
        e[i].pos = i;
    }
}

static bool same_key_order(const mval *a, const mval *b, usize n) {
    const mval *ka = first_child(a), *kb = first_child(b);
    for (usize i = 0; i < n; i++, ka = ka->next->next, kb = kb->next->next) {
        if (!keys_same(ka, kb)) return false;
    }
    return true;
}

/* Key `nth` occurrence (0-based) of key's text in obj, or NULL. */
static const mval *find_nth_key(const mval *obj, const mval *key, usize nth) {
    usize n = vlen(obj);
    const mval *k = first_child(obj);
    for (usize i = 0; i < n; i++, k = k->next->next) {
        if (keys_same(k, key) && nth-- == 0) return k;
    }
    return NULL;
}

/* How many keys of obj before `key` have its text. */
static usize occurrence(const mval *obj, const mval *key) {
    usize n = 0;
    for (const mval *k = first_child(obj); k != key; k = k->next->next) n += keys_same(k, key);
    return n;
}

/* Queues a pair of objects of n members whose keys differ in order.
 * 1: queued, 0: keys differ, -1: no memory. */
static int eq_push_reordered(stack *s, const mval *a, const mval *b, usize n) {
    kent *e = NULL;
    if (n > PAIR_BY_SEARCH) {
        usize cnt, bytes;
        if (tyjson__mul_ovf(n, 2, &cnt) || tyjson__add_ovf(cnt, 1, &cnt) ||
            tyjson__mul_ovf(cnt, sizeof(kent), &bytes))
            return -1;
        e = (kent *)tyjson__malloc(s->alc, bytes);
        if (!e) return -1;
        e[0].key = NULL;
        e[0].pos = n;
        fill_keys(e + 1, a, n);
        fill_keys(e + 1 + n, b, n);
        qsort(e + 1, n, sizeof(kent), kent_cmp);
        qsort(e + 1 + n, n, sizeof(kent), kent_cmp);
        for (usize i = 0; i < n; i++) {
            if (!keys_same(e[1 + i].key, e[1 + n + i].key)) {
                tyjson__free(s->alc, e);
                return 0;
            }
        }
    }
    eframe *f = (eframe *)stk_push(s);
    if (!f) {
        tyjson__free(s->alc, e);
        return -1;
    }
    f->a = e ? NULL : first_child(a);
    f->b = e ? NULL : b;
    f->a_obj = e ? NULL : a;
    f->left = n;
    f->ents = e;
    return 1;
}

static bool num_eq(const mval *a, const mval *b) {
    u64 sa = a->tag & TYJSON__SUBTYPE_MASK, sb = b->tag & TYJSON__SUBTYPE_MASK;
    if (sa == TYJSON_SUBTYPE_REAL || sb == TYJSON_SUBTYPE_REAL) {
        return sa == sb && a->uni.f64 == b->uni.f64;
    }
    if (sa == sb) return a->uni.u64 == b->uni.u64;
    const mval *s = sa == TYJSON_SUBTYPE_SINT ? a : b;
    const mval *u = s == a ? b : a;
    return s->uni.i64 >= 0 && s->uni.u64 == u->uni.u64;
}

/* Compares two values; containers of equal size are queued for their
 * children. 1: equal so far, 0: different, -1: no memory. */
static int eq_step(stack *s, const mval *a, const mval *b) {
    u8 t = vtype(a);
    if (t != vtype(b)) return 0;
    switch (t) {
    case TYJSON_TYPE_BOOL:
        return (a->tag & TYJSON__SUBTYPE_MASK) == (b->tag & TYJSON__SUBTYPE_MASK);
    case TYJSON_TYPE_NUM:
        return num_eq(a, b);
    case TYJSON_TYPE_STR:
    case TYJSON_TYPE_RAW:
        return keys_same(a, b);
    case TYJSON_TYPE_ARR:
    case TYJSON_TYPE_OBJ: {
        usize n = vlen(a);
        if (n != vlen(b)) return 0;
        if (!n) return 1;
        if (t == TYJSON_TYPE_OBJ && !same_key_order(a, b, n)) return eq_push_reordered(s, a, b, n);
        eframe *f = (eframe *)stk_push(s);
        if (!f) return -1;
        f->a = first_child(a);
        f->b = first_child(b);
        f->a_obj = NULL;
        f->left = child_count(a);
        f->ents = NULL;
        return 1;
    }
    default: /* null (and none) carry no payload */
        return 1;
    }
}

static void eq_pop(stack *s) {
    eframe *f = (eframe *)stk_top(s);
    tyjson__free(s->alc, f->ents);
    s->len--;
}

/* The next pair of children of the top frame; false when a reordered
 * object has a key the other lacks. */
static bool eq_next_pair(eframe *f, const mval **x, const mval **y) {
    if (f->ents) {
        usize n = f->ents[0].pos, i = n - f->left;
        *x = f->ents[1 + i].key->next;
        *y = f->ents[1 + n + i].key->next;
    } else if (f->a_obj) {
        const mval *ka = f->a;
        const mval *kb = find_nth_key(f->b, ka, occurrence(f->a_obj, ka));
        if (!kb) return false;
        *x = ka->next;
        *y = kb->next;
        f->a = ka->next->next;
    } else {
        *x = f->a;
        *y = f->b;
        f->a = f->a->next;
        f->b = f->b->next;
    }
    f->left--;
    return true;
}

tyjson_status tyjson_mut_equals_ex(const tyjson_mut_val *a, const tyjson_mut_val *b,
                                   const tyjson_alloc *alc, bool *equal) {
    if (!equal) return TYJSON_E_INVALID_ARG;
    *equal = false;
    if (!a || !b) {
        *equal = a == b; /* as tyjson_equals: NULL equals only NULL */
        return TYJSON_OK;
    }
    eframe inl[STACK_INLINE];
    stack s;
    stk_init(&s, alc ? alc : &tyjson__libc_alloc, inl, sizeof(eframe));
    int r = eq_step(&s, a, b);
    while (r > 0 && s.len) {
        eframe *f = (eframe *)stk_top(&s);
        if (!f->left) {
            eq_pop(&s);
            continue;
        }
        const mval *x, *y;
        r = eq_next_pair(f, &x, &y) ? eq_step(&s, x, y) : 0;
    }
    while (s.len) eq_pop(&s);
    stk_free(&s);
    if (r < 0) return TYJSON_E_NOMEM;
    *equal = r > 0;
    return TYJSON_OK;
}

bool tyjson_mut_equals(const tyjson_mut_val *a, const tyjson_mut_val *b) {
    bool equal;
    return tyjson_mut_equals_ex(a, b, NULL, &equal) == TYJSON_OK && equal;
}
