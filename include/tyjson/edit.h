/*
 * tyjson/edit.h - editing mutable documents: JSON Pointer edits (RFC 6901),
 * JSON Patch (RFC 6902), JSON Merge Patch (RFC 7396), and a diff that
 * produces a JSON Patch.
 *
 * Pointers follow the rules and the error policy of tyjson_ptr_getx
 * (dom.h): "" is the root, "~1" is '/', "~0" is '~', an array index is
 * decimal without leading zeros; the edits add the RFC 6901 token "-",
 * the slot after the last element of an array (where add and set
 * append). Offsets in errors are byte offsets into the pointer.
 *
 * Memory: values created by an edit (keys decoded from the pointer, copies
 * of patch values, the undo journal's copies) live in the document's arena
 * until tyjson_mut_doc_free; removed and replaced values are unlinked, not
 * freed (see "Memory" in mut.h). A failed patch may therefore leave unused
 * memory in the arena, never a changed document.
 *
 * Repeated keys: a pointer names the first member with its key (like every
 * lookup); remove and replace act on that member alone.
 *
 * Thread-safety: none; one thread at a time per document.
 */
#ifndef TYJSON_EDIT_H
#define TYJSON_EDIT_H

#include "mut.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ----------------------------------------------------------------------------
 * MARK: - JSON Pointer edits
 * ------------------------------------------------------------------------- */

/** Where a pointer edit happened: filled by every call below that takes
 *  one (it may be NULL), on failure too (then all NULL). */
typedef struct tyjson_mut_ptr_ctx {
    tyjson_mut_val *ctn; /**< container holding the target; NULL for the root ("") */
    tyjson_mut_val *key; /**< object targets: the member's key node; else NULL */
    tyjson_mut_val *old; /**< the value removed or replaced (now unlinked), or NULL */
} tyjson_mut_ptr_ctx;

/**
 * Resolves a pointer from doc's root like tyjson_mut_ptr_getx and also
 * reports where the value sits (ctx->ctn, ctx->key; ctx->old stays NULL).
 * NULL with `err` set (TYJSON_E_INVALID_ARG for a NULL doc, a NULL ptr with
 * len > 0; E_POINTER; E_NOT_FOUND at the token's offset, "-" included).
 */
TYJSON_API tyjson_mut_val *tyjson_mut_doc_ptr_getx(tyjson_mut_doc *doc, const char *ptr, size_t len,
                                                   tyjson_mut_ptr_ctx *ctx, tyjson_error *err);

/**
 * JSON Patch "add": puts val at the pointer. On an array the last token
 * is an index from 0 to the size (the new element goes before it) or "-"
 * (appended); on an object the member is added at the end, or, when the
 * key exists, its first member's value is replaced (ctx->old is then the
 * old value). "" replaces the root (ctx->old is the old root, or NULL).
 * Every token but the last must name an existing value.
 *
 * val must be a value of doc that is in no container and is not doc's
 * root (see "Linking" in mut.h). Returns TYJSON_OK, or, changing nothing:
 * TYJSON_E_INVALID_ARG (NULL doc or val, val linked or the root, NULL ptr
 * with len > 0), TYJSON_E_POINTER (syntax, at the bad byte),
 * TYJSON_E_NOT_FOUND (at the first token that names nothing: a missing
 * parent, a scalar parent, an index past the size, a token that is no
 * index on an array), TYJSON_E_NOMEM (copying a new key). err->msg names
 * the pointer prefix that failed, e.g. "no value at '/a/7': index 7 is
 * past the end of the array (size 3)".
 */
TYJSON_API tyjson_status tyjson_mut_doc_ptr_addx(tyjson_mut_doc *doc, const char *ptr, size_t len,
                                                 tyjson_mut_val *val, tyjson_mut_ptr_ctx *ctx,
                                                 tyjson_error *err);
/**
 * Create or replace: like tyjson_mut_doc_ptr_addx, except that on an array
 * an index below the size replaces that element (ctx->old) and the size or
 * "-" appends. On objects and at "" it is the same as add. Same statuses.
 */
TYJSON_API tyjson_status tyjson_mut_doc_ptr_setx(tyjson_mut_doc *doc, const char *ptr, size_t len,
                                                 tyjson_mut_val *val, tyjson_mut_ptr_ctx *ctx,
                                                 tyjson_error *err);
/**
 * JSON Patch "replace": the target must exist (an element, the first
 * member with the key, or the root); it is replaced by val and returned in
 * ctx->old. Same statuses as add; "-" and a missing key are E_NOT_FOUND.
 */
TYJSON_API tyjson_status tyjson_mut_doc_ptr_replacex(tyjson_mut_doc *doc, const char *ptr, size_t len,
                                                     tyjson_mut_val *val, tyjson_mut_ptr_ctx *ctx,
                                                     tyjson_error *err);
/**
 * JSON Patch "remove": unlinks the target (an element, the first member
 * with the key: key and value; "" clears the root) and returns it (also in
 * ctx->old), or NULL with err set as for tyjson_mut_doc_ptr_getx.
 */
TYJSON_API tyjson_mut_val *tyjson_mut_doc_ptr_removex(tyjson_mut_doc *doc, const char *ptr, size_t len,
                                                      tyjson_mut_ptr_ctx *ctx, tyjson_error *err);

/** NUL-terminated pointer form of tyjson_mut_doc_ptr_getx without context
 *  or error detail: the value, or NULL. */
TYJSON_API tyjson_mut_val *tyjson_mut_doc_ptr_get(tyjson_mut_doc *doc, const char *ptr);
/** NUL-terminated pointer form of tyjson_mut_doc_ptr_addx without context
 *  or error detail: true on success. */
TYJSON_API bool tyjson_mut_doc_ptr_add(tyjson_mut_doc *doc, const char *ptr, tyjson_mut_val *val);
/** NUL-terminated pointer form of tyjson_mut_doc_ptr_setx: true on success. */
TYJSON_API bool tyjson_mut_doc_ptr_set(tyjson_mut_doc *doc, const char *ptr, tyjson_mut_val *val);
/** NUL-terminated pointer form of tyjson_mut_doc_ptr_replacex: the old
 *  value, or NULL (nothing changed). */
TYJSON_API tyjson_mut_val *tyjson_mut_doc_ptr_replace(tyjson_mut_doc *doc, const char *ptr,
                                                      tyjson_mut_val *val);
/** NUL-terminated pointer form of tyjson_mut_doc_ptr_removex: the removed
 *  value, or NULL. */
TYJSON_API tyjson_mut_val *tyjson_mut_doc_ptr_remove(tyjson_mut_doc *doc, const char *ptr);

/* ----------------------------------------------------------------------------
 * MARK: - JSON Patch (RFC 6902)
 * ------------------------------------------------------------------------- */

/**
 * Applies a JSON Patch, an array of operation objects ("op": add, remove,
 * replace, move, copy or test; "path"; "from" for move and copy; "value"
 * for add, replace and test), to doc, in order and atomically: on any
 * error the document is left exactly as it was (every change is journaled
 * and undone). Values are copied into doc (the patch is not referenced
 * after the call). Members other than those are ignored. A move into its
 * own child ("from" a proper prefix of "path") is refused. "test" compares
 * by tyjson_mut_equals_ex (1 and 1.0 differ). Removing the root ("") is
 * allowed and leaves doc without a root.
 *
 * Returns TYJSON_OK, or: TYJSON_E_INVALID_ARG (NULL doc or patch),
 * TYJSON_E_PATCH (the patch is not an array, an operation is not an
 * object, an unknown op, a missing or non-string "path" or "from", a
 * missing "value", a move into a child), TYJSON_E_TEST_FAILED, the
 * pointer statuses of the tyjson_mut_doc_ptr_* calls (E_POINTER,
 * E_NOT_FOUND), TYJSON_E_NOMEM. On failure err->path is the operation in
 * the patch ("$[3]"), err->offset the offset in the failing pointer (line
 * and column 0), and err->msg names both, e.g. "operation 3 (replace
 * /a/b): no value at '/a': no member 'a'".
 */
TYJSON_API tyjson_status tyjson_mut_doc_patch(tyjson_mut_doc *doc, const tyjson_val *patch,
                                              tyjson_error *err);
/** tyjson_mut_doc_patch with the patch as a mutable value (of any
 *  document, doc's too: it is copied first, so it may even lie inside the
 *  document it edits). */
TYJSON_API tyjson_status tyjson_mut_doc_patch_mut(tyjson_mut_doc *doc, const tyjson_mut_val *patch,
                                                  tyjson_error *err);

/* ----------------------------------------------------------------------------
 * MARK: - JSON Merge Patch (RFC 7396)
 * ------------------------------------------------------------------------- */

/**
 * Applies a JSON Merge Patch to doc: a patch that is not an object
 * replaces the root; an object patch turns a non-object root into {} and
 * then, member by member, removes the members whose patch value is null
 * (every member with that key) and merges the others, recursively (a
 * missing or non-object target member starts as {}). Iterative: any depth.
 * Values are copied into doc. Atomic like tyjson_mut_doc_patch. Returns
 * TYJSON_OK, TYJSON_E_INVALID_ARG (NULL doc or patch) or TYJSON_E_NOMEM.
 */
TYJSON_API tyjson_status tyjson_mut_doc_merge_patch(tyjson_mut_doc *doc, const tyjson_val *patch,
                                                    tyjson_error *err);
/** tyjson_mut_doc_merge_patch with a mutable patch (copied first, like
 *  tyjson_mut_doc_patch_mut). */
TYJSON_API tyjson_status tyjson_mut_doc_merge_patch_mut(tyjson_mut_doc *doc,
                                                        const tyjson_mut_val *patch,
                                                        tyjson_error *err);

/* ----------------------------------------------------------------------------
 * MARK: - Diff
 * ------------------------------------------------------------------------- */

/**
 * A JSON Patch turning a into b: a new mutable document (allocator `alc`,
 * NULL = libc; free it with tyjson_mut_doc_free) whose root is an array of
 * add, remove and replace operations; applying it to a copy of a gives a
 * value equal to b (tyjson_equals). Equal values give []. Objects: members
 * of a missing from b are removed, members of b missing from a are added,
 * common members are diffed; an object with a repeated key on either side
 * is replaced whole. Arrays: the common prefix and suffix are kept, the
 * middle elements are diffed pairwise, the extra ones removed or added
 * (not a minimal edit script). Other pairs are replaced. Time linear in
 * the size of a and b (expected): values are hashed once by
 * tyjson_equals' rules and only values of equal hashes deep-compared;
 * objects of more than 16 members find keys through a hash table.
 * Memory: 8 bytes per value of a and b, plus per open pair of arrays a
 * pointer per element, per open pair of large objects a key table.
 * Iterative: any depth. NULL with err set for a NULL a or b (TYJSON_E_INVALID_ARG) or on
 * no memory (TYJSON_E_NOMEM).
 */
TYJSON_API tyjson_mut_doc *tyjson_diff(const tyjson_val *a, const tyjson_val *b,
                                       const tyjson_alloc *alc, tyjson_error *err);
/** tyjson_diff of two mutable values (copied to immutable scratch
 *  documents from `alc` first). */
TYJSON_API tyjson_mut_doc *tyjson_mut_diff(const tyjson_mut_val *a, const tyjson_mut_val *b,
                                           const tyjson_alloc *alc, tyjson_error *err);

#ifdef __cplusplus
}
#endif
#endif /* TYJSON_EDIT_H */
