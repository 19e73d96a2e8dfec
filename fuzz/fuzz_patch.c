/*
 * fuzz_patch.c - libFuzzer target for editing (include/tyjson/edit.h).
 *
 * Input: byte 0 selects options (bit 0: pass the patch as a mutable value),
 * then a document and a patch as JSON text separated by the first NUL byte
 * (no NUL: the rest is split in half). Inputs that do not parse are
 * ignored. Checks, aborting with the texts on a violation:
 * - JSON Patch: success, or a failure that leaves the document exactly as
 *   it was (its text unchanged) and names the operation (err.path "$...");
 * - JSON Merge Patch: always succeeds;
 * - diff: patch(a, diff(a, b)) == b for (document, patched result),
 *   (document, merged result) and (document, patch).
 */
#include "tyjson.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what, const char *a, const char *b) {
    fprintf(stderr, "fuzz_patch: %s\n  a: %s\n  b: %s\n", what, a ? a : "", b ? b : "");
    abort();
}

static char *text_of(const tyjson_mut_doc *m) {
    if (!tyjson_mut_doc_get_root(m)) {
        char *s = (char *)malloc(7);
        if (s) memcpy(s, "<none>", 7);
        return s;
    }
    char *s = tyjson_mut_write(m, 0, NULL);
    if (!s) fail("cannot write a mutable document", NULL, NULL);
    return s;
}

/* patch(a, diff(a, b)) must equal b. */
static void check_diff(const tyjson_val *a, const tyjson_val *b) {
    if (!a || !b) return;
    tyjson_error err;
    tyjson_mut_doc *p = tyjson_diff(a, b, NULL, &err);
    if (!p) fail("diff failed", err.msg, NULL);
    tyjson_mut_doc *m = tyjson_mut_doc_new(NULL);
    if (!m) abort();
    tyjson_mut_doc_set_root(m, tyjson_val_mut_copy(m, a));
    if (tyjson_mut_doc_patch_mut(m, tyjson_mut_doc_get_root(p), &err) != TYJSON_OK)
        fail("the patch of a diff failed", err.msg, NULL);
    tyjson_doc *r = tyjson_mut_doc_imut_copy(m, NULL);
    if (!r || !tyjson_equals(tyjson_doc_get_root(r), b)) {
        char *pt = text_of(p), *rt = text_of(m);
        fail("patch(a, diff(a, b)) != b", pt, rt);
    }
    tyjson_doc_free(r);
    tyjson_mut_doc_free(m);
    tyjson_mut_doc_free(p);
}

static void run(const tyjson_doc *doc, const tyjson_doc *patch, bool as_mut) {
    const tyjson_val *root = tyjson_doc_get_root(doc), *proot = tyjson_doc_get_root(patch);
    tyjson_mut_doc *m = tyjson_doc_mut_copy(doc, NULL);
    tyjson_mut_doc *pm = as_mut ? tyjson_doc_mut_copy(patch, NULL) : NULL;
    if (!m || (as_mut && !pm)) abort();
    char *before = text_of(m);
    tyjson_error err;
    tyjson_status st = as_mut ? tyjson_mut_doc_patch_mut(m, tyjson_mut_doc_get_root(pm), &err)
                              : tyjson_mut_doc_patch(m, proot, &err);
    if (st != TYJSON_OK) {
        char *after = text_of(m);
        if (strcmp(before, after) != 0) fail("a failed patch changed the document", before, after);
        if (err.code != st || err.path[0] != '$') fail("a failed patch is not named", err.msg, err.path);
        free(after);
    } else if (tyjson_mut_doc_get_root(m)) {
        tyjson_doc *r = tyjson_mut_doc_imut_copy(m, NULL);
        if (!r) abort();
        check_diff(root, tyjson_doc_get_root(r));
        tyjson_doc_free(r);
    }
    free(before);
    tyjson_mut_doc_free(m);

    m = tyjson_doc_mut_copy(doc, NULL);
    if (!m) abort();
    if (tyjson_mut_doc_merge_patch(m, proot, &err) != TYJSON_OK) fail("merge failed", err.msg, NULL);
    tyjson_doc *r = tyjson_mut_doc_imut_copy(m, NULL);
    if (!r) abort();
    check_diff(root, tyjson_doc_get_root(r));
    tyjson_doc_free(r);
    tyjson_mut_doc_free(m);
    tyjson_mut_doc_free(pm);
    check_diff(root, proot);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    bool as_mut = data[0] & 1;
    const char *s = (const char *)data + 1;
    size_t n = size - 1;
    const char *nul = (const char *)memchr(s, 0, n);
    size_t alen = nul ? (size_t)(nul - s) : n / 2;
    size_t boff = nul ? alen + 1 : alen;
    tyjson_doc *a = tyjson_read(s, alen, 0);
    tyjson_doc *b = a ? tyjson_read(s + boff, n - boff, 0) : NULL;
    if (a && b) run(a, b, as_mut);
    tyjson_doc_free(a);
    tyjson_doc_free(b);
    return 0;
}
