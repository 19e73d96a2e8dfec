/*
 * pointer.c - THE JSON Pointer (RFC 6901) of both documents: token
 * splitting, "~0"/"~1" decoding, array index rules and one error policy;
 * tyjson_ptr_getx and tyjson_mut_ptr_getx differ only in how a container
 * yields the child a token names (imm_child, mut_child). The edits of
 * mutable documents (include/tyjson/edit.h: get with context, add, set,
 * replace, remove) resolve the parent with the same walk and then act on
 * the last token (tyjson__ptr_edit, the one edit the patch and the merge
 * also use), writing every word through the undo journal of dom/edit.h.
 *
 * Error policy (documented at tyjson_ptr_getx in dom.h):
 * - no value, or a NULL pointer with a length: E_INVALID_ARG at 0;
 * - a pointer neither empty nor starting with '/': E_POINTER at 0;
 * - a '~' not followed by '0' or '1': E_POINTER at the '~'. The whole
 *   pointer is checked before any lookup, so a malformed pointer is
 *   reported as such whether or not its prefix resolves;
 * - a token that names nothing (a missing key; on an array, a token other
 *   than a decimal index without leading zeros, "-", or an index past the
 *   end; anything below a scalar): E_NOT_FOUND at the token's first byte.
 */
#include "base/internal.h"
#include "dom/edit.h"

#include <stdio.h>

/* One reference token: its bytes as written, escapes undecoded. */
typedef struct ptr_tok {
    const char *s;
    usize len;
} ptr_tok;

/* A container's child named by a token, or NULL. */
typedef const void *(*child_fn)(const void *ctn, ptr_tok t);

/* Offset of the first '~' that starts no "~0" or "~1", or len if none. */
static usize bad_escape_at(const char *p, usize len) {
    for (usize i = 0; i < len; i++) {
        if (p[i] == '~' && (i + 1 == len || (p[i + 1] != '0' && p[i + 1] != '1'))) return i;
    }
    return len;
}

/* True if key[0..klen) is the token once "~1" -> '/' and "~0" -> '~'
 * (the escapes were checked by bad_escape_at). */
static bool tok_is_key(ptr_tok t, const char *key, usize klen) {
    usize i = 0, j = 0;
    while (j < t.len) {
        char c = t.s[j++];
        if (c == '~') c = t.s[j++] == '0' ? '~' : '/';
        if (i == klen || key[i++] != c) return false;
    }
    return i == klen;
}

/* Array index: "0" or decimal digits without a leading zero, fitting usize.
 * "-" (the element after the last) names nothing to read. */
static bool tok_index(ptr_tok t, usize *out) {
    if (!t.len || (t.s[0] == '0' && t.len > 1)) return false;
    usize n = 0;
    for (usize i = 0; i < t.len; i++) {
        unsigned d = (unsigned)(unsigned char)t.s[i] - '0';
        if (d > 9 || n > (SIZE_MAX - d) / 10) return false;
        n = n * 10 + d;
    }
    *out = n;
    return true;
}

/* Longest pointer prefix and token quoted in messages (bytes). */
#define SHOW_MAX 96

/* Why token t names nothing in cur (a value of either document: both keep
 * the tag first, in the same encoding). */
static void why_none(char *buf, usize size, const void *cur, ptr_tok t) {
    const tyjson_val *v = (const tyjson_val *)cur;
    int tl = (int)(t.len < SHOW_MAX ? t.len : SHOW_MAX);
    usize idx;
    switch (tyjson_get_type(v)) {
    case TYJSON_TYPE_ARR:
        if (t.len == 1 && t.s[0] == '-')
            snprintf(buf, size, "'-' names the slot after the last element");
        else if (!tok_index(t, &idx))
            snprintf(buf, size, "'%.*s' is not an array index", tl, t.s);
        else
            snprintf(buf, size, "index %zu is past the end of the array (size %zu)", idx,
                     tyjson_get_len(v));
        break;
    case TYJSON_TYPE_OBJ: snprintf(buf, size, "no member '%.*s'", tl, t.s); break;
    default: snprintf(buf, size, "a %s value has no members or elements", tyjson_get_type_desc(v)); break;
    }
}

/* E_NOT_FOUND at pos (a token's first byte; the token ends at end):
 * "no value at '/a/b': why". */
static void set_not_found(tyjson_error *err, const char *ptr, usize len, usize pos, usize end,
                          const char *why) {
    if (!err) return;
    tyjson__err_set(err, TYJSON_E_NOT_FOUND, ptr, len, pos);
    char msg[TYJSON_ERROR_MSG_MAX];
    int pl = (int)(end < SHOW_MAX ? end : SHOW_MAX);
    snprintf(msg, sizeof(msg), "no value at '%.*s%s': %s", pl, ptr, end > SHOW_MAX ? "..." : "",
             why);
    tyjson__err_msg(err, msg);
}

/* Walks the tokens of ptr[0..end) (a prefix of a well-formed pointer of
 * len bytes, for the error's place). */
static const void *resolve(const void *root, const char *ptr, usize end, usize len,
                           tyjson_error *err, child_fn child) {
    const void *cur = root;
    usize pos = 1; /* first byte of the current token */
    while (pos <= end) {
        const char *s = ptr + pos;
        const char *slash = (const char *)memchr(s, '/', end - pos);
        ptr_tok t = {s, slash ? (usize)(slash - s) : end - pos};
        const void *next = child(cur, t);
        if (!next) {
            char why[160];
            why_none(why, sizeof(why), cur, t);
            set_not_found(err, ptr, len, pos, pos + t.len, why);
            return NULL;
        }
        cur = next;
        pos += t.len + 1;
    }
    tyjson__err_ok(err);
    return cur;
}

/* The syntax rules of the policy: E_POINTER (err set) or OK (err untouched). */
static tyjson_status check_syntax(const char *ptr, usize len, tyjson_error *err) {
    if (len == 0) return TYJSON_OK;
    if (ptr[0] != '/') {
        tyjson__err_set(err, TYJSON_E_POINTER, ptr, len, 0);
        tyjson__err_msg(err, "invalid JSON Pointer: it must be empty or start with '/'");
        return TYJSON_E_POINTER;
    }
    usize bad = bad_escape_at(ptr, len);
    if (bad < len) {
        tyjson__err_set(err, TYJSON_E_POINTER, ptr, len, bad);
        tyjson__err_msg(err, "invalid JSON Pointer: '~' must be followed by '0' or '1'");
        return TYJSON_E_POINTER;
    }
    return TYJSON_OK;
}

/* The argument and syntax checks of the policy, then the walk. */
static const void *ptr_get(const void *root, const char *ptr, usize len, tyjson_error *err,
                           child_fn child) {
    if (!root || (!ptr && len)) {
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return NULL;
    }
    if (check_syntax(ptr, len, err) != TYJSON_OK) return NULL;
    return resolve(root, ptr, len, len, err, child);
}

/* ----------------------------------------------------------------------------
 * MARK: - Immutable document
 * ------------------------------------------------------------------------- */
static const void *imm_child(const void *ctn, ptr_tok t) {
    const tyjson_val *v = (const tyjson_val *)ctn;
    if (tyjson_is_arr(v)) {
        usize idx;
        return tok_index(t, &idx) ? tyjson_arr_get(v, idx) : NULL;
    }
    usize n = tyjson_obj_size(v);
    const tyjson_val *k = v + 1;
    while (n--) {
        if (tok_is_key(t, k->uni.str, tyjson__tag_len(k->tag))) return k + 1;
        k = tyjson__next(k + 1);
    }
    return NULL;
}

tyjson_val *tyjson_ptr_getx(const tyjson_val *val, const char *ptr, usize len, tyjson_error *err) {
    return (tyjson_val *)(uintptr_t)ptr_get(val, ptr, len, err, imm_child);
}

tyjson_val *tyjson_ptr_get(const tyjson_val *val, const char *ptr) {
    return ptr ? tyjson_ptr_getx(val, ptr, strlen(ptr), NULL) : NULL;
}

tyjson_val *tyjson_doc_ptr_get(const tyjson_doc *doc, const char *ptr) {
    return doc ? tyjson_ptr_get(doc->root, ptr) : NULL;
}

/* ----------------------------------------------------------------------------
 * MARK: - Mutable document
 * ------------------------------------------------------------------------- */
static const void *mut_child(const void *ctn, ptr_tok t) {
    const tyjson_mut_val *v = (const tyjson_mut_val *)ctn;
    if (tyjson_mut_is_arr(v)) {
        usize idx;
        return tok_index(t, &idx) ? tyjson_mut_arr_get(v, idx) : NULL;
    }
    usize n = tyjson_mut_obj_size(v);
    if (!n) return NULL;
    const tyjson_mut_val *k = ((const tyjson_mut_val *)v->uni.ptr)->next; /* first key */
    while (n--) {
        if (tok_is_key(t, k->uni.str, tyjson__tag_len(k->tag))) return k->next;
        k = k->next->next;
    }
    return NULL;
}

tyjson_mut_val *tyjson_mut_ptr_getx(const tyjson_mut_val *val, const char *ptr, size_t len,
                                    tyjson_error *err) {
    return (tyjson_mut_val *)(uintptr_t)ptr_get(val, ptr, len, err, mut_child);
}

tyjson_mut_val *tyjson_mut_ptr_get(const tyjson_mut_val *val, const char *ptr) {
    return ptr ? tyjson_mut_ptr_getx(val, ptr, strlen(ptr), NULL) : NULL;
}

/* ----------------------------------------------------------------------------
 * MARK: - Undo journal (dom/edit.h)
 * ------------------------------------------------------------------------- */
typedef tyjson_mut_val mval;

void tyjson__journal_init(tyjson__journal *j, const tyjson_alloc *alc, tyjson__jentry *inl,
                          usize inl_cap) {
    tyjson__stack_init(&j->st, alc, inl, inl_cap, sizeof(tyjson__jentry));
}

bool tyjson__journal_reserve(tyjson__journal *j, usize n) {
    while (j->st.cap - j->st.len < n) {
        if (!tyjson__stack_grow(&j->st)) return false;
    }
    return true;
}

void tyjson__journal_undo(tyjson__journal *j) {
    while (j->st.len) {
        const tyjson__jentry *e = (const tyjson__jentry *)tyjson__stack_top(&j->st);
        memcpy(e->addr, e->old, e->size);
        j->st.len--;
    }
}

void tyjson__journal_free(tyjson__journal *j) { tyjson__stack_free(&j->st); }

/* Records the bytes at addr (the room was reserved, so the push holds). */
static void jrecord(tyjson__journal *j, void *addr, usize size) {
    if (!j) return;
    tyjson__jentry *e = (tyjson__jentry *)tyjson__stack_push(&j->st);
    e->addr = addr;
    e->size = size;
    memcpy(e->old, addr, size);
}

void tyjson__jset_ptr(tyjson__journal *j, mval **slot, mval *v) {
    jrecord(j, slot, sizeof(*slot));
    *slot = v;
}

static void jset_last(tyjson__journal *j, mval *ctn, mval *v) {
    jrecord(j, &ctn->uni.ptr, sizeof(ctn->uni.ptr));
    ctn->uni.ptr = v;
}

static void jset_count(tyjson__journal *j, mval *ctn, usize n) {
    jrecord(j, &ctn->tag, sizeof(ctn->tag));
    ctn->tag = (ctn->tag & (((u64)1 << TYJSON__LEN_SHIFT) - 1)) | ((u64)n << TYJSON__LEN_SHIFT);
}

/* ----------------------------------------------------------------------------
 * MARK: - List surgery, every write journaled
 *
 * A container holds a circular list and points at its last node (mut.h,
 * "Layout"); an object's list alternates key and value. `prev` is the node
 * before the first one concerned (the last node when that is the head).
 * ------------------------------------------------------------------------- */
TYJSON__FORCEINLINE usize e_count(const mval *ctn) { return tyjson__tag_len(ctn->tag); }
TYJSON__FORCEINLINE mval *e_last(const mval *ctn) { return (mval *)ctn->uni.ptr; }

/* Links first..last (already chained) after prev; at_end: they become the
 * last nodes. n: the member or element count afterwards. */
static void e_link(tyjson__journal *j, mval *ctn, mval *prev, mval *first, mval *last, bool at_end,
                   usize n) {
    if (e_count(ctn) == 0) {
        tyjson__jset_ptr(j, &last->next, first);
        jset_last(j, ctn, last);
    } else {
        tyjson__jset_ptr(j, &last->next, prev->next);
        tyjson__jset_ptr(j, &prev->next, first);
        if (at_end) jset_last(j, ctn, last);
    }
    jset_count(j, ctn, n);
}

/* Unlinks first..last (prev->next == first); n: the count afterwards. */
static void e_unlink(tyjson__journal *j, mval *ctn, mval *prev, mval *first, mval *last, usize n) {
    if (n == 0) {
        jset_last(j, ctn, NULL);
    } else {
        tyjson__jset_ptr(j, &prev->next, last->next);
        if (last == e_last(ctn)) jset_last(j, ctn, prev);
    }
    tyjson__jset_ptr(j, &last->next, NULL);
    if (first != last) tyjson__jset_ptr(j, &first->next, NULL);
    jset_count(j, ctn, n);
}

/* Puts v where old is (prev->next == old). */
static void e_swap(tyjson__journal *j, mval *ctn, mval *prev, mval *old, mval *v) {
    if (old->next == old) {
        tyjson__jset_ptr(j, &v->next, v); /* the only element */
    } else {
        tyjson__jset_ptr(j, &v->next, old->next);
        tyjson__jset_ptr(j, &prev->next, v);
    }
    if (old == e_last(ctn)) jset_last(j, ctn, v);
    tyjson__jset_ptr(j, &old->next, NULL);
}

/* A new key holding the token decoded ("~1" -> '/', "~0" -> '~'). */
static mval *new_key(tyjson_mut_doc *doc, ptr_tok t) {
    mval *k = tyjson_mut_strncpy(doc, t.s, t.len);
    if (!k) return NULL;
    char *s = (char *)(uintptr_t)tyjson_mut_get_str(k);
    usize n = 0;
    for (usize i = 0; i < t.len; i++) {
        char c = t.s[i];
        if (c == '~') c = t.s[++i] == '0' ? '~' : '/';
        s[n++] = c;
    }
    s[n] = '\0';
    tyjson_mut_set_strn(k, s, n);
    return k;
}

/* ----------------------------------------------------------------------------
 * MARK: - The edit
 * ------------------------------------------------------------------------- */
/* What an edit works on once the parent is resolved. */
typedef struct edit_at {
    tyjson_mut_doc *doc;
    tyjson__edit_op op;
    const char *ptr;
    usize len, tpos; /* the pointer; the last token's first byte */
    ptr_tok t;       /* the last token */
    mval *ctn, *val; /* the parent; the value to put */
    tyjson_mut_ptr_ctx *ctx;
    tyjson_error *err;
    tyjson__journal *j;
    mval **out;
} edit_at;

static tyjson_status edit_not_found(const edit_at *e, const char *why) {
    set_not_found(e->err, e->ptr, e->len, e->tpos, e->len, why);
    return TYJSON_E_NOT_FOUND;
}

static tyjson_status edit_done(const edit_at *e, mval *key, mval *old, mval *target) {
    if (e->ctx) {
        e->ctx->ctn = e->ctn;
        e->ctx->key = key;
        e->ctx->old = e->op == TYJSON__EDIT_GET ? NULL : old;
    }
    if (e->out) *e->out = target;
    tyjson__err_ok(e->err);
    return TYJSON_OK;
}

static tyjson_status edit_arr(const edit_at *e) {
    usize n = e_count(e->ctn), idx = n;
    bool dash = e->t.len == 1 && e->t.s[0] == '-';
    bool reads = e->op == TYJSON__EDIT_GET || e->op == TYJSON__EDIT_REPLACE ||
                 e->op == TYJSON__EDIT_REMOVE;
    char why[160];
    if ((!dash && !tok_index(e->t, &idx)) || idx > n || (reads && idx == n)) {
        why_none(why, sizeof(why), e->ctn, e->t);
        return edit_not_found(e, why);
    }
    mval *prev = e_last(e->ctn);
    for (usize i = 0; n && i < idx; i++) prev = prev->next;
    mval *cur = idx < n ? prev->next : NULL;
    if (e->op == TYJSON__EDIT_GET) return edit_done(e, NULL, NULL, cur);
    if (e->op == TYJSON__EDIT_REMOVE) {
        e_unlink(e->j, e->ctn, prev, cur, cur, n - 1);
        return edit_done(e, NULL, cur, cur);
    }
    if (e->op == TYJSON__EDIT_REPLACE || (e->op == TYJSON__EDIT_SET && cur)) {
        e_swap(e->j, e->ctn, prev, cur, e->val);
        return edit_done(e, NULL, cur, NULL);
    }
    e_link(e->j, e->ctn, prev, e->val, e->val, idx == n, n + 1);
    return edit_done(e, NULL, NULL, NULL);
}

static tyjson_status edit_obj(const edit_at *e) {
    usize n = e_count(e->ctn);
    mval *prev = n ? e_last(e->ctn) : NULL, *key = NULL;
    for (usize i = 0; i < n; i++) {
        mval *k = prev->next;
        if (tok_is_key(e->t, k->uni.str, tyjson__tag_len(k->tag))) {
            key = k;
            break;
        }
        prev = k->next;
    }
    if (!key) {
        if (e->op != TYJSON__EDIT_ADD && e->op != TYJSON__EDIT_SET) {
            char why[160];
            why_none(why, sizeof(why), e->ctn, e->t);
            return edit_not_found(e, why);
        }
        key = new_key(e->doc, e->t);
        if (!key) {
            tyjson__err_set(e->err, TYJSON_E_NOMEM, NULL, 0, 0);
            return TYJSON_E_NOMEM;
        }
        tyjson__jset_ptr(e->j, &key->next, e->val);
        e_link(e->j, e->ctn, e_last(e->ctn), key, e->val, true, n + 1);
        return edit_done(e, key, NULL, NULL);
    }
    mval *cur = key->next;
    switch (e->op) {
    case TYJSON__EDIT_GET: return edit_done(e, key, NULL, cur);
    case TYJSON__EDIT_REMOVE:
        e_unlink(e->j, e->ctn, prev, key, cur, n - 1);
        return edit_done(e, key, cur, cur);
    default: e_swap(e->j, e->ctn, key, cur, e->val); return edit_done(e, key, cur, NULL);
    }
}

static tyjson_status edit_root(const edit_at *e, mval **root) {
    mval *old = *root;
    if (!old && e->op != TYJSON__EDIT_ADD && e->op != TYJSON__EDIT_SET) {
        tyjson__err_set(e->err, TYJSON_E_NOT_FOUND, e->ptr, 0, 0);
        tyjson__err_msg(e->err, "no value at '': the document has no root");
        return TYJSON_E_NOT_FOUND;
    }
    if (e->op == TYJSON__EDIT_GET) return edit_done(e, NULL, NULL, old);
    tyjson__jset_ptr(e->j, root, e->op == TYJSON__EDIT_REMOVE ? NULL : e->val);
    return edit_done(e, NULL, old, e->op == TYJSON__EDIT_REMOVE ? old : NULL);
}

tyjson_status tyjson__ptr_edit(tyjson_mut_doc *doc, tyjson__edit_op op, const char *ptr, usize len,
                               mval *val, tyjson_mut_ptr_ctx *ctx, tyjson_error *err,
                               tyjson__journal *j, mval **out) {
    if (ctx) memset(ctx, 0, sizeof(*ctx));
    if (out) *out = NULL;
    if (!doc || (!ptr && len)) {
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return TYJSON_E_INVALID_ARG;
    }
    mval **root = tyjson__mut_doc_root_slot(doc);
    bool puts = op == TYJSON__EDIT_ADD || op == TYJSON__EDIT_SET || op == TYJSON__EDIT_REPLACE;
    if (puts && (!val || val->next || val == *root)) {
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        tyjson__err_msg(err, "invalid argument: the value is NULL, in a container or the root");
        return TYJSON_E_INVALID_ARG;
    }
    tyjson_status st = check_syntax(ptr, len, err);
    if (st != TYJSON_OK) return st;
    if (j && !tyjson__journal_reserve(j, TYJSON__EDIT_WORDS)) {
        tyjson__err_set(err, TYJSON_E_NOMEM, NULL, 0, 0);
        return TYJSON_E_NOMEM;
    }
    edit_at e = {doc, op, ptr, len, 0, {ptr, 0}, NULL, val, ctx, err, j, out};
    if (len == 0) return edit_root(&e, root);
    usize last = len - 1;
    while (ptr[last] != '/') last--;
    e.tpos = last + 1;
    e.t.s = ptr + e.tpos;
    e.t.len = len - e.tpos;
    if (!*root) {
        set_not_found(err, ptr, len, 0, 0, "the document has no root");
        return TYJSON_E_NOT_FOUND;
    }
    e.ctn = (mval *)(uintptr_t)resolve(*root, ptr, last, len, err, mut_child);
    if (!e.ctn) return TYJSON_E_NOT_FOUND;
    if (tyjson_mut_is_arr(e.ctn)) return edit_arr(&e);
    if (tyjson_mut_is_obj(e.ctn)) return edit_obj(&e);
    char why[160];
    why_none(why, sizeof(why), e.ctn, e.t);
    return edit_not_found(&e, why);
}

/* ----------------------------------------------------------------------------
 * MARK: - Public pointer edits (edit.h)
 * ------------------------------------------------------------------------- */
tyjson_mut_val *tyjson_mut_doc_ptr_getx(tyjson_mut_doc *doc, const char *ptr, size_t len,
                                        tyjson_mut_ptr_ctx *ctx, tyjson_error *err) {
    mval *out;
    tyjson__ptr_edit(doc, TYJSON__EDIT_GET, ptr, len, NULL, ctx, err, NULL, &out);
    return out;
}

tyjson_status tyjson_mut_doc_ptr_addx(tyjson_mut_doc *doc, const char *ptr, size_t len,
                                      tyjson_mut_val *val, tyjson_mut_ptr_ctx *ctx,
                                      tyjson_error *err) {
    return tyjson__ptr_edit(doc, TYJSON__EDIT_ADD, ptr, len, val, ctx, err, NULL, NULL);
}

tyjson_status tyjson_mut_doc_ptr_setx(tyjson_mut_doc *doc, const char *ptr, size_t len,
                                      tyjson_mut_val *val, tyjson_mut_ptr_ctx *ctx,
                                      tyjson_error *err) {
    return tyjson__ptr_edit(doc, TYJSON__EDIT_SET, ptr, len, val, ctx, err, NULL, NULL);
}

tyjson_status tyjson_mut_doc_ptr_replacex(tyjson_mut_doc *doc, const char *ptr, size_t len,
                                          tyjson_mut_val *val, tyjson_mut_ptr_ctx *ctx,
                                          tyjson_error *err) {
    return tyjson__ptr_edit(doc, TYJSON__EDIT_REPLACE, ptr, len, val, ctx, err, NULL, NULL);
}

tyjson_mut_val *tyjson_mut_doc_ptr_removex(tyjson_mut_doc *doc, const char *ptr, size_t len,
                                           tyjson_mut_ptr_ctx *ctx, tyjson_error *err) {
    mval *out;
    tyjson__ptr_edit(doc, TYJSON__EDIT_REMOVE, ptr, len, NULL, ctx, err, NULL, &out);
    return out;
}

tyjson_mut_val *tyjson_mut_doc_ptr_get(tyjson_mut_doc *doc, const char *ptr) {
    return ptr ? tyjson_mut_doc_ptr_getx(doc, ptr, strlen(ptr), NULL, NULL) : NULL;
}

bool tyjson_mut_doc_ptr_add(tyjson_mut_doc *doc, const char *ptr, tyjson_mut_val *val) {
    return ptr && tyjson_mut_doc_ptr_addx(doc, ptr, strlen(ptr), val, NULL, NULL) == TYJSON_OK;
}

bool tyjson_mut_doc_ptr_set(tyjson_mut_doc *doc, const char *ptr, tyjson_mut_val *val) {
    return ptr && tyjson_mut_doc_ptr_setx(doc, ptr, strlen(ptr), val, NULL, NULL) == TYJSON_OK;
}

tyjson_mut_val *tyjson_mut_doc_ptr_replace(tyjson_mut_doc *doc, const char *ptr,
                                           tyjson_mut_val *val) {
    tyjson_mut_ptr_ctx ctx;
    if (!ptr || tyjson_mut_doc_ptr_replacex(doc, ptr, strlen(ptr), val, &ctx, NULL) != TYJSON_OK)
        return NULL;
    return ctx.old;
}

tyjson_mut_val *tyjson_mut_doc_ptr_remove(tyjson_mut_doc *doc, const char *ptr) {
    return ptr ? tyjson_mut_doc_ptr_removex(doc, ptr, strlen(ptr), NULL, NULL) : NULL;
}

/* ----------------------------------------------------------------------------
 * MARK: - Object members for the merge (dom/edit.h)
 * ------------------------------------------------------------------------- */
TYJSON__FORCEINLINE bool key_bytes_are(const mval *k, const char *key, usize klen) {
    return tyjson__tag_len(k->tag) == klen && (klen == 0 || memcmp(k->uni.str, key, klen) == 0);
}

/* The member whose key is key[0..klen): its key node, *prev set to the
 * node before it; NULL if none. */
static mval *member_at(const mval *obj, const char *key, usize klen, mval **prev) {
    usize n = e_count(obj);
    mval *p = n ? e_last(obj) : NULL;
    for (usize i = 0; i < n; i++) {
        mval *k = p->next;
        if (key_bytes_are(k, key, klen)) {
            *prev = p;
            return k;
        }
        p = k->next;
    }
    return NULL;
}

static bool jroom(tyjson__journal *j) { return !j || tyjson__journal_reserve(j, TYJSON__EDIT_WORDS); }

mval *tyjson__obj_find(const mval *obj, const char *key, usize klen, mval **key_node) {
    mval *prev, *k = member_at(obj, key, klen, &prev);
    *key_node = k;
    return k ? k->next : NULL;
}

bool tyjson__obj_unlink_first(tyjson__journal *j, mval *obj, const char *key, usize klen,
                              bool *nomem) {
    mval *prev, *k = member_at(obj, key, klen, &prev);
    *nomem = false;
    if (!k) return false;
    if (!jroom(j)) {
        *nomem = true;
        return false;
    }
    e_unlink(j, obj, prev, k, k->next, e_count(obj) - 1);
    return true;
}

bool tyjson__obj_swap_val(tyjson__journal *j, mval *obj, mval *key_node, mval *v) {
    if (!jroom(j)) return false;
    e_swap(j, obj, key_node, key_node->next, v);
    return true;
}

bool tyjson__obj_append(tyjson__journal *j, mval *obj, mval *key, mval *v) {
    if (!jroom(j)) return false;
    tyjson__jset_ptr(j, &key->next, v);
    e_link(j, obj, e_last(obj), key, v, true, e_count(obj) + 1);
    return true;
}
