/*
 * merge.c - JSON Merge Patch (RFC 7396) on mutable documents (edit.h).
 *
 * The RFC's MergePatch is recursive; this walk keeps one frame per object
 * level being merged on the explicit stack of base/stack.h, so a patch of
 * any depth is safe. Every change goes through the member calls of
 * pointer.c and their undo journal (dom/edit.h): running out of memory
 * part way undoes what was done, leaving the document as it was.
 */
#include "base/internal.h"
#include "dom/edit.h"

typedef tyjson_mut_val mval;

#define MERGE_INLINE 32u
#define MERGE_JOURNAL_INLINE 64u

/* One object level: the target object and where we are in the patch's. */
typedef struct mframe {
    mval *target;
    const tyjson_val *key; /* next patch key, or NULL when done */
    usize left;            /* members of the patch object still to merge */
} mframe;

typedef struct merge_run {
    tyjson_mut_doc *doc;
    tyjson__journal *j;
    tyjson__stack st;
} merge_run;

static bool merge_push(merge_run *r, mval *target, const tyjson_val *patch) {
    mframe *f = (mframe *)tyjson__stack_push(&r->st);
    if (!f) return false;
    f->target = target;
    f->left = tyjson_obj_size(patch);
    f->key = f->left ? patch + 1 : NULL;
    return true;
}

/* Removes every member with the key. */
static bool drop_key(merge_run *r, mval *obj, const tyjson_val *key) {
    bool nomem;
    const char *k = tyjson_get_str(key);
    usize klen = tyjson_get_len(key);
    while (tyjson__obj_unlink_first(r->j, obj, k, klen, &nomem)) {
    }
    return !nomem;
}

/* Makes v the value of the key's first member, adding it if absent. */
static bool merge_put(merge_run *r, mval *obj, const tyjson_val *key, mval *v) {
    mval *knode;
    tyjson__obj_find(obj, tyjson_get_str(key), tyjson_get_len(key), &knode);
    if (knode) return tyjson__obj_swap_val(r->j, obj, knode, v);
    mval *k = tyjson_mut_strncpy(r->doc, tyjson_get_str(key), tyjson_get_len(key));
    return k && tyjson__obj_append(r->j, obj, k, v);
}

/* Merges one member of the top frame's patch object. */
static bool merge_member(merge_run *r, mframe *f) {
    const tyjson_val *key = f->key, *pv = key + 1;
    mval *target = f->target;
    f->key = --f->left ? tyjson__next(pv) : NULL;
    if (tyjson_is_null(pv)) return drop_key(r, target, key);
    if (!tyjson_is_obj(pv)) {
        mval *v = tyjson_val_mut_copy(r->doc, pv);
        return v && merge_put(r, target, key, v);
    }
    mval *knode;
    mval *cur = tyjson__obj_find(target, tyjson_get_str(key), tyjson_get_len(key), &knode);
    if (!tyjson_mut_is_obj(cur)) {
        cur = tyjson_mut_obj(r->doc);
        if (!cur || !merge_put(r, target, key, cur)) return false;
    }
    return merge_push(r, cur, pv); /* f may move: not used after this */
}

static bool merge_walk(merge_run *r, const tyjson_val *patch) {
    mval **root = tyjson__mut_doc_root_slot(r->doc);
    if (!tyjson_is_obj(patch)) {
        mval *v = tyjson_val_mut_copy(r->doc, patch);
        if (!v || !tyjson__journal_reserve(r->j, 1)) return false;
        tyjson__jset_ptr(r->j, root, v);
        return true;
    }
    if (!tyjson_mut_is_obj(*root)) {
        mval *o = tyjson_mut_obj(r->doc);
        if (!o || !tyjson__journal_reserve(r->j, 1)) return false;
        tyjson__jset_ptr(r->j, root, o);
    }
    if (!merge_push(r, *root, patch)) return false;
    while (r->st.len) {
        mframe *f = (mframe *)tyjson__stack_top(&r->st);
        if (!f->key) {
            r->st.len--;
            continue;
        }
        if (!merge_member(r, f)) return false;
    }
    return true;
}

tyjson_status tyjson_mut_doc_merge_patch(tyjson_mut_doc *doc, const tyjson_val *patch,
                                         tyjson_error *err) {
    if (!doc || !patch) {
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return TYJSON_E_INVALID_ARG;
    }
    const tyjson_alloc *alc = tyjson__mut_doc_alc(doc);
    tyjson__jentry jinl[MERGE_JOURNAL_INLINE];
    mframe finl[MERGE_INLINE];
    tyjson__journal j;
    tyjson__journal_init(&j, alc, jinl, MERGE_JOURNAL_INLINE);
    merge_run r = {doc, &j, {0}};
    tyjson__stack_init(&r.st, alc, finl, MERGE_INLINE, sizeof(mframe));
    bool ok = merge_walk(&r, patch);
    if (!ok) tyjson__journal_undo(&j);
    tyjson__stack_free(&r.st);
    tyjson__journal_free(&j);
    if (!ok) {
        tyjson__err_set(err, TYJSON_E_NOMEM, NULL, 0, 0);
        return TYJSON_E_NOMEM;
    }
    tyjson__err_ok(err);
    return TYJSON_OK;
}

tyjson_status tyjson_mut_doc_merge_patch_mut(tyjson_mut_doc *doc, const tyjson_mut_val *patch,
                                             tyjson_error *err) {
    if (!doc || !patch) {
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return TYJSON_E_INVALID_ARG;
    }
    tyjson_doc *copy = tyjson_mut_val_imut_copy(patch, tyjson__mut_doc_alc(doc));
    if (!copy) {
        tyjson__err_set(err, TYJSON_E_NOMEM, NULL, 0, 0);
        return TYJSON_E_NOMEM;
    }
    tyjson_status st = tyjson_mut_doc_merge_patch(doc, tyjson_doc_get_root(copy), err);
    tyjson_doc_free(copy);
    return st;
}
