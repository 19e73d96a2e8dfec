/*
 * edit.h - what the editing files of dom/ share (pointer.c, patch.c,
 * merge.c, diff.c): the undo journal that makes a patch atomic, the one
 * pointer edit they all go through, and the mutable document's internals
 * they need (its allocator and root slot, from mut.c).
 *
 * The journal records the old bytes of every word an edit writes in the
 * document's value tree (a container's tag and last-child pointer, a node's
 * next pointer, the root slot), before writing it. Undoing restores them in
 * reverse order, so the tree comes back bit for bit whatever the sequence
 * of edits was. Why a journal rather than editing a copy and swapping: a
 * patch of k operations on a document of n values costs O(k) journal
 * entries instead of an O(n) copy per patch, and a journal cannot fail
 * half way: each edit reserves its entries (EDIT_JOURNAL_STEP, more than
 * any edit writes) before it writes anything, so running out of memory
 * is noticed before the first write of that edit.
 */
#ifndef TYJSON_DOM_EDIT_H
#define TYJSON_DOM_EDIT_H

#include "base/stack.h"

/* The most words one pointer edit writes (a key and value linked: two
 * next pointers, the predecessor's next, the last-child pointer, the tag). */
#define TYJSON__EDIT_WORDS 8u

typedef struct tyjson__jentry {
    void *addr;
    usize size;
    unsigned char old[8];
} tyjson__jentry;

typedef struct tyjson__journal {
    tyjson__stack st; /* of tyjson__jentry */
} tyjson__journal;

/* Starts an empty journal on the caller's inl_cap inline entries. */
void tyjson__journal_init(tyjson__journal *j, const tyjson_alloc *alc, tyjson__jentry *inl,
                          usize inl_cap);
/* Room for n more entries; false (journal intact) on no memory. */
bool tyjson__journal_reserve(tyjson__journal *j, usize n);
/* Restores every recorded word, newest first, and empties the journal. */
void tyjson__journal_undo(tyjson__journal *j);
/* Releases the journal's heap block. */
void tyjson__journal_free(tyjson__journal *j);

typedef enum tyjson__edit_op {
    TYJSON__EDIT_GET,
    TYJSON__EDIT_ADD,
    TYJSON__EDIT_SET,
    TYJSON__EDIT_REPLACE,
    TYJSON__EDIT_REMOVE
} tyjson__edit_op;

/* The one pointer edit behind tyjson_mut_doc_ptr_*x, the patch and the
 * merge: checks, resolves and applies op at ptr[0..len), journaling every
 * write when j is not NULL (the journal must then be non-empty-able:
 * the call reserves its own room). *out gets the target (GET) or the
 * removed value (REMOVE). */
tyjson_status tyjson__ptr_edit(tyjson_mut_doc *doc, tyjson__edit_op op, const char *ptr, usize len,
                               tyjson_mut_val *val, tyjson_mut_ptr_ctx *ctx, tyjson_error *err,
                               tyjson__journal *j, tyjson_mut_val **out);

/* Writes v into *slot (a next or last-child pointer, or the root slot),
 * journaled when j is not NULL; the room must have been reserved. */
void tyjson__jset_ptr(tyjson__journal *j, tyjson_mut_val **slot, tyjson_mut_val *v);

/* Object members for the merge (pointer.c), journaled when j is not
 * NULL (each reserves its own room: false on no memory, nothing written).
 * find: the value of the first member whose key is key[0..klen), with
 * *prev_key set to its key node, or NULL. */
tyjson_mut_val *tyjson__obj_find(const tyjson_mut_val *obj, const char *key, usize klen,
                                 tyjson_mut_val **key_node);
/* Unlinks the first member with the key; false when there is none. */
bool tyjson__obj_unlink_first(tyjson__journal *j, tyjson_mut_val *obj, const char *key, usize klen,
                              bool *nomem);
/* Puts v as the value of key_node's member. */
bool tyjson__obj_swap_val(tyjson__journal *j, tyjson_mut_val *obj, tyjson_mut_val *key_node,
                          tyjson_mut_val *v);
/* Appends the member key: v (both new, unlinked). */
bool tyjson__obj_append(tyjson__journal *j, tyjson_mut_val *obj, tyjson_mut_val *key,
                        tyjson_mut_val *v);

/* mut.c: the document's allocator and the address of its root. */
const tyjson_alloc *tyjson__mut_doc_alc(const tyjson_mut_doc *doc);
tyjson_mut_val **tyjson__mut_doc_root_slot(tyjson_mut_doc *doc);

#endif /* TYJSON_DOM_EDIT_H */
