/*
 * patch.c - JSON Patch (RFC 6902) on mutable documents (edit.h): the six
 * operations over the one pointer edit of pointer.c (tyjson__ptr_edit),
 * applied atomically through its undo journal (dom/edit.h says why a
 * journal rather than a copy), and the error that names the failing
 * operation: err->path "$[3]", err->msg "operation 3 (replace /a/b): ...".
 */
#include "base/internal.h"
#include "dom/edit.h"

#include <stdio.h>

typedef tyjson_mut_val mval;

/* Journal entries kept on the C stack: a patch of a few operations
 * allocates nothing for them. */
#define PATCH_JOURNAL_INLINE 64u
/* Longest pointer quoted in a message (bytes). */
#define PATCH_SHOW_MAX 64

typedef enum patch_op { OP_ADD, OP_REMOVE, OP_REPLACE, OP_MOVE, OP_COPY, OP_TEST, OP_BAD } patch_op;

static const char *const op_names[] = {"add", "remove", "replace", "move", "copy", "test"};

static patch_op patch_op_of(const tyjson_val *s) {
    for (int i = 0; i < OP_BAD; i++) {
        if (tyjson_equals_str(s, op_names[i])) return (patch_op)i;
    }
    return OP_BAD;
}

/* One operation being applied: its members and where its errors go. */
typedef struct patch_step {
    tyjson_mut_doc *doc;
    tyjson__journal *j;
    tyjson_error *err;
    patch_op op;
    const char *path, *from; /* from: NULL unless move or copy */
    usize path_len, from_len;
    const tyjson_val *value;
} patch_step;

static tyjson_status patch_fail(tyjson_error *err, tyjson_status code, const char *msg) {
    tyjson__err_set(err, code, NULL, 0, 0);
    if (msg) tyjson__err_msg(err, msg);
    return code;
}

/* A string member, or NULL. */
static const tyjson_val *str_member(const tyjson_val *op, const char *name) {
    const tyjson_val *v = tyjson_obj_get(op, name);
    return tyjson_is_str(v) ? v : NULL;
}

/* Reads the members an operation needs (E_PATCH when one is missing). */
static tyjson_status read_step(const tyjson_val *op, patch_step *s) {
    if (!tyjson_is_obj(op)) return patch_fail(s->err, TYJSON_E_PATCH, "invalid JSON Patch: an operation is an object");
    const tyjson_val *name = tyjson_obj_get(op, "op");
    if (!name) return patch_fail(s->err, TYJSON_E_PATCH, "invalid JSON Patch: no \"op\" member");
    s->op = patch_op_of(name);
    if (s->op == OP_BAD) return patch_fail(s->err, TYJSON_E_PATCH, "invalid JSON Patch: \"op\" is not add, remove, replace, move, copy or test");
    const tyjson_val *path = tyjson_obj_get(op, "path");
    if (!tyjson_is_str(path)) return patch_fail(s->err, TYJSON_E_PATCH, path ? "invalid JSON Patch: \"path\" is not a string" : "invalid JSON Patch: no \"path\" member");
    s->path = tyjson_get_str(path);
    s->path_len = tyjson_get_len(path);
    if (s->op == OP_MOVE || s->op == OP_COPY) {
        const tyjson_val *from = str_member(op, "from");
        if (!from) return patch_fail(s->err, TYJSON_E_PATCH, "invalid JSON Patch: no string \"from\" member");
        s->from = tyjson_get_str(from);
        s->from_len = tyjson_get_len(from);
    }
    if (s->op == OP_ADD || s->op == OP_REPLACE || s->op == OP_TEST) {
        s->value = tyjson_obj_get(op, "value");
        if (!s->value) return patch_fail(s->err, TYJSON_E_PATCH, "invalid JSON Patch: no \"value\" member");
    }
    return TYJSON_OK;
}

static tyjson_status step_edit(const patch_step *s, tyjson__edit_op op, const char *p, usize len,
                               mval *val, mval **out) {
    return tyjson__ptr_edit(s->doc, op, p, len, val, NULL, s->err, s->j, out);
}

static mval *copy_value(const patch_step *s) {
    mval *v = tyjson_val_mut_copy(s->doc, s->value);
    if (!v) patch_fail(s->err, TYJSON_E_NOMEM, NULL);
    return v;
}

static tyjson_status run_move(const patch_step *s) {
    if (s->from_len < s->path_len && memcmp(s->from, s->path, s->from_len) == 0 &&
        s->path[s->from_len] == '/')
        return patch_fail(s->err, TYJSON_E_PATCH, "invalid JSON Patch: cannot move a value into one of its own children");
    mval *v;
    tyjson_status st = step_edit(s, TYJSON__EDIT_REMOVE, s->from, s->from_len, NULL, &v);
    if (st != TYJSON_OK) return st;
    return step_edit(s, TYJSON__EDIT_ADD, s->path, s->path_len, v, NULL);
}

static tyjson_status run_copy(const patch_step *s) {
    mval *v;
    tyjson_status st = step_edit(s, TYJSON__EDIT_GET, s->from, s->from_len, NULL, &v);
    if (st != TYJSON_OK) return st;
    mval *c = tyjson_mut_val_mut_copy(s->doc, v);
    if (!c) return patch_fail(s->err, TYJSON_E_NOMEM, NULL);
    return step_edit(s, TYJSON__EDIT_ADD, s->path, s->path_len, c, NULL);
}

/* The expected value is copied into the document to compare it with one
 * algorithm (equal.c) on one kind of value. */
static tyjson_status run_test(const patch_step *s) {
    mval *cur;
    tyjson_status st = step_edit(s, TYJSON__EDIT_GET, s->path, s->path_len, NULL, &cur);
    if (st != TYJSON_OK) return st;
    mval *want = copy_value(s);
    if (!want) return TYJSON_E_NOMEM;
    bool eq;
    st = tyjson_mut_equals_ex(cur, want, tyjson__mut_doc_alc(s->doc), &eq);
    if (st != TYJSON_OK) return patch_fail(s->err, st, NULL);
    if (!eq) return patch_fail(s->err, TYJSON_E_TEST_FAILED, "test failed: the value differs");
    tyjson__err_ok(s->err);
    return TYJSON_OK;
}

static tyjson_status run_step(const patch_step *s) {
    mval *v;
    switch (s->op) {
    case OP_ADD:
    case OP_REPLACE:
        if (!(v = copy_value(s))) return TYJSON_E_NOMEM;
        return step_edit(s, s->op == OP_ADD ? TYJSON__EDIT_ADD : TYJSON__EDIT_REPLACE, s->path,
                         s->path_len, v, NULL);
    case OP_REMOVE: return step_edit(s, TYJSON__EDIT_REMOVE, s->path, s->path_len, NULL, &v);
    case OP_MOVE: return run_move(s);
    case OP_COPY: return run_copy(s);
    case OP_TEST: return run_test(s);
    case OP_BAD: break;
    }
    return patch_fail(s->err, TYJSON_E_PATCH, NULL);
}

/* "operation 3 (move /b from /a): <message>", path "$[3]", no line. */
static void name_step(tyjson_error *err, usize idx, const patch_step *s) {
    char msg[2 * TYJSON_ERROR_MSG_MAX], what[2 * PATCH_SHOW_MAX + 40] = "";
    if (s->path) {
        int pl = (int)(s->path_len < PATCH_SHOW_MAX ? s->path_len : PATCH_SHOW_MAX);
        int fl = (int)(s->from_len < PATCH_SHOW_MAX ? s->from_len : PATCH_SHOW_MAX);
        if (s->from)
            snprintf(what, sizeof(what), " (%s %.*s from %.*s)", op_names[s->op], pl, s->path, fl,
                     s->from);
        else
            snprintf(what, sizeof(what), " (%s %.*s)", op_names[s->op], pl, s->path);
    }
    snprintf(msg, sizeof(msg), "operation %zu%s: %s", idx, what, err->msg);
    tyjson__err_msg(err, msg);
    snprintf(err->path, sizeof(err->path), "$[%zu]", idx);
    err->line = 0;
    err->column = 0;
}

tyjson_status tyjson_mut_doc_patch(tyjson_mut_doc *doc, const tyjson_val *patch, tyjson_error *err) {
    if (!doc || !patch) return patch_fail(err, TYJSON_E_INVALID_ARG, NULL);
    tyjson_error local;
    tyjson_error *e = err ? err : &local;
    if (!tyjson_is_arr(patch)) {
        patch_fail(e, TYJSON_E_PATCH, "invalid JSON Patch: not an array of operations");
        memcpy(e->path, "$", 2);
        return TYJSON_E_PATCH;
    }
    tyjson__jentry inl[PATCH_JOURNAL_INLINE];
    tyjson__journal j;
    tyjson__journal_init(&j, tyjson__mut_doc_alc(doc), inl, PATCH_JOURNAL_INLINE);
    tyjson_status st = TYJSON_OK;
    usize idx, max;
    const tyjson_val *op;
    TYJSON_ARR_FOREACH(patch, idx, max, op) {
        patch_step s = {doc, &j, e, OP_BAD, NULL, NULL, 0, 0, NULL};
        st = read_step(op, &s);
        if (st == TYJSON_OK) st = run_step(&s);
        if (st != TYJSON_OK) {
            name_step(e, idx, &s);
            tyjson__journal_undo(&j);
            break;
        }
    }
    tyjson__journal_free(&j);
    if (st == TYJSON_OK) tyjson__err_ok(err);
    return st;
}

tyjson_status tyjson_mut_doc_patch_mut(tyjson_mut_doc *doc, const tyjson_mut_val *patch,
                                       tyjson_error *err) {
    if (!doc || !patch) return patch_fail(err, TYJSON_E_INVALID_ARG, NULL);
    tyjson_doc *copy = tyjson_mut_val_imut_copy(patch, tyjson__mut_doc_alc(doc));
    if (!copy) return patch_fail(err, TYJSON_E_NOMEM, NULL);
    tyjson_status st = tyjson_mut_doc_patch(doc, tyjson_doc_get_root(copy), err);
    tyjson_doc_free(copy);
    return st;
}
