/*
 * pointer.c - THE JSON Pointer (RFC 6901) of both documents: token
 * splitting, "~0"/"~1" decoding, array index rules and one error policy;
 * tyjson_ptr_getx and tyjson_mut_ptr_getx differ only in how a container
 * yields the child a token names (imm_child, mut_child).
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

/* Walks the tokens of a pointer already known to be well formed. */
static const void *resolve(const void *root, const char *ptr, usize len, tyjson_error *err,
                           child_fn child) {
    const void *cur = root;
    usize pos = 1; /* first byte of the current token */
    while (pos <= len) {
        const char *s = ptr + pos;
        const char *slash = (const char *)memchr(s, '/', len - pos);
        ptr_tok t = {s, slash ? (usize)(slash - s) : len - pos};
        cur = child(cur, t);
        if (!cur) {
            tyjson__err_set(err, TYJSON_E_NOT_FOUND, ptr, len, pos);
            return NULL;
        }
        pos += t.len + 1;
    }
    tyjson__err_ok(err);
    return cur;
}

/* The argument and syntax checks of the policy, then the walk. */
static const void *ptr_get(const void *root, const char *ptr, usize len, tyjson_error *err,
                           child_fn child) {
    if (!root || (!ptr && len)) {
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return NULL;
    }
    if (len == 0) {
        tyjson__err_ok(err);
        return root;
    }
    if (ptr[0] != '/') {
        tyjson__err_set(err, TYJSON_E_POINTER, ptr, len, 0);
        return NULL;
    }
    usize bad = bad_escape_at(ptr, len);
    if (bad < len) {
        tyjson__err_set(err, TYJSON_E_POINTER, ptr, len, bad);
        return NULL;
    }
    return resolve(root, ptr, len, err, child);
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
