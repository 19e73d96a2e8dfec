/*
 * flat.c - the two halves of turning an iter_lines record into Python
 * objects when the records are parsed on worker threads.
 *
 * Making the objects needs the GIL, and only one thread holds it: with the
 * whole conversion on it, the GIL-holding part was three quarters of a run
 * and a second parsing thread gained little. So everything that does not
 * touch a Python object happens on the worker, right after the parse
 * (tyjson_lines_parallel_prep): the document becomes a flat array of
 * nodes in document order, each value ready to be made by one call -
 * numbers already C integers or doubles, every string measured (its count
 * of code points and the width CPython stores it in) and, when not ASCII,
 * already widened to that width (tyjson_utf8_widen), keys already hashed
 * to their slot of the run's key cache. The thread holding the GIL then
 * only allocates and copies (flat_build).
 *
 * The nodes and widened strings live in the batch's arena, and ASCII
 * strings are used where the document holds them: both stay valid until
 * the record's callback returns, which is when flat_build runs.
 */
#include "tyjson_py.h"

#include <string.h>

enum {
    F_NULL,
    F_TRUE,
    F_FALSE,
    F_INT,  /* v.i */
    F_UINT, /* v.u, above INT64_MAX */
    F_REAL, /* v.d */
    F_STR,  /* n code points at v.p, `width` bytes each; width 0: ASCII */
    F_RAW,  /* a number beyond int64/double: its n bytes of text at v.p */
    F_ARR,  /* n elements follow */
    F_OBJ   /* n (key, value) pairs follow, each key an F_STR */
};

#define NO_SLOT 0xFFFFu

typedef struct flat_node {
    uint8_t tag;
    uint8_t width;
    uint16_t slot; /* F_STR keys: the key cache slot, or NO_SLOT */
    size_t n;
    union {
        int64_t i;
        uint64_t u;
        double d;
        const void *p;
    } v;
} flat_node;

struct tyjson_py_flat {
    size_t count;
    flat_node node[];
};

/* ----------------------------------------------------------------------------
 * Worker side: no Python API here (the GIL is not held).
 * ------------------------------------------------------------------------- */

typedef struct flat_maker {
    flat_node *out, *end;
    tyjson_arena *arena;
    size_t key_mask;
} flat_maker;

static int flat_str(flat_maker *m, flat_node *f, const char *s, size_t len) {
    size_t chars;
    uint32_t bound = tyjson_utf8_measure(s, len, &chars);
    f->tag = F_STR;
    f->slot = NO_SLOT;
    if (bound == 0x7F) {
        f->width = 0;
        f->n = len;
        f->v.p = s;
        return 0;
    }
    unsigned width = bound == 0xFF ? 1u : bound == 0xFFFF ? 2u : 4u;
    void *buf = tyjson_arena_alloc(m->arena, chars ? chars * width : 1, width);
    if (!buf) return -1;
    tyjson_utf8_widen(s, len, buf, width);
    f->width = (uint8_t)width;
    f->n = chars;
    f->v.p = buf;
    return 0;
}

static int flat_val(flat_maker *m, tyjson_val *v) {
    flat_node *f;
    if (m->out == m->end) return -1; /* more values than the document counts: cannot happen */
    f = m->out++;
    f->width = 0;
    f->slot = NO_SLOT;
    f->n = 0;
    switch (tyjson_get_type(v)) {
    case TYJSON_TYPE_NULL: f->tag = F_NULL; return 0;
    case TYJSON_TYPE_BOOL: f->tag = tyjson_get_bool(v) ? F_TRUE : F_FALSE; return 0;
    case TYJSON_TYPE_NUM:
        if (tyjson_is_uint(v)) {
            uint64_t u = tyjson_get_uint(v);
            if (u <= (uint64_t)INT64_MAX) {
                f->tag = F_INT;
                f->v.i = (int64_t)u;
            } else {
                f->tag = F_UINT;
                f->v.u = u;
            }
        } else if (tyjson_is_sint(v)) {
            f->tag = F_INT;
            f->v.i = tyjson_get_sint(v);
        } else {
            f->tag = F_REAL;
            f->v.d = tyjson_get_real(v);
        }
        return 0;
    case TYJSON_TYPE_STR: return flat_str(m, f, tyjson_get_str(v), tyjson_get_len(v));
    case TYJSON_TYPE_RAW:
        f->tag = F_RAW;
        f->n = tyjson_get_len(v);
        f->v.p = tyjson_get_str(v);
        return 0;
    case TYJSON_TYPE_ARR: {
        tyjson_arr_iter it = tyjson_arr_iter_with(v);
        tyjson_val *e;
        f->tag = F_ARR;
        f->n = tyjson_arr_size(v);
        while ((e = tyjson_arr_iter_next(&it)))
            if (flat_val(m, e) < 0) return -1;
        return 0;
    }
    case TYJSON_TYPE_OBJ: {
        tyjson_obj_iter it = tyjson_obj_iter_with(v);
        tyjson_val *k;
        f->tag = F_OBJ;
        f->n = tyjson_obj_size(v);
        while ((k = tyjson_obj_iter_next(&it))) {
            flat_node *kf;
            const char *s = tyjson_get_str(k);
            size_t len = tyjson_get_len(k);
            if (m->out == m->end) return -1;
            kf = m->out++;
            if (flat_str(m, kf, s, len) < 0) return -1;
            if (kf->width == 0 && len > 0 && len <= TYJSON_PY_KEY_MAX)
                kf->slot = (uint16_t)(tyjson_py_key_hash(s, len) & m->key_mask);
            if (flat_val(m, tyjson_obj_iter_get_val(k)) < 0) return -1;
        }
        return 0;
    }
    default: return -1;
    }
}

tyjson_py_flat *tyjson_py_flat_make(const tyjson_doc *doc, tyjson_arena *arena, size_t key_mask) {
    size_t count = tyjson_doc_get_val_count(doc), bytes;
    tyjson_py_flat *fl;
    flat_maker m;
    if (count > (SIZE_MAX - sizeof(tyjson_py_flat)) / sizeof(flat_node)) return NULL;
    bytes = sizeof(tyjson_py_flat) + count * sizeof(flat_node);
    fl = (tyjson_py_flat *)tyjson_arena_alloc(arena, bytes, _Alignof(flat_node));
    if (!fl) return NULL;
    m.out = fl->node;
    m.end = fl->node + count;
    m.arena = arena;
    m.key_mask = key_mask;
    if (flat_val(&m, tyjson_doc_get_root(doc)) < 0) return NULL;
    fl->count = (size_t)(m.out - fl->node);
    return fl;
}

/* ----------------------------------------------------------------------------
 * GIL side: allocation and copies only.
 * ------------------------------------------------------------------------- */

static PyObject *make_str(const flat_node *f) {
    PyObject *s;
    if (f->width <= 1) {
        if (f->n == 1) /* CPython's one-character strings are shared */
            return PyUnicode_FromOrdinal(*(const unsigned char *)f->v.p);
        s = PyUnicode_New((Py_ssize_t)f->n, f->width ? 0xFF : 0x7F);
        if (s) memcpy(PyUnicode_1BYTE_DATA(s), f->v.p, f->n);
        return s;
    }
    s = PyUnicode_New((Py_ssize_t)f->n, f->width == 2 ? 0xFFFF : 0x10FFFF);
    if (s) memcpy(PyUnicode_DATA(s), f->v.p, f->n * f->width);
    return s;
}

static PyObject *make_key(const flat_node *f, tyjson_py_keys *keys) {
    tyjson_py_key_slot *slot;
    if (f->slot == NO_SLOT || !keys) return make_str(f);
    slot = &keys->slot[f->slot];
    if (slot->str && slot->len == f->n && memcmp(slot->bytes, f->v.p, f->n) == 0)
        return Py_NewRef(slot->str);
    Py_XDECREF(slot->str);
    slot->str = make_str(f);
    if (!slot->str) return NULL;
    slot->len = f->n;
    memcpy(slot->bytes, f->v.p, f->n);
    return Py_NewRef(slot->str);
}

typedef struct flat_cursor {
    const flat_node *p;
    tyjson_py_keys *keys;
} flat_cursor;

static PyObject *build(flat_cursor *c);

static PyObject *build_arr(flat_cursor *c, size_t n) {
    PyObject *list = PyList_New((Py_ssize_t)n);
    size_t i;
    if (!list) return NULL;
    for (i = 0; i < n; i++) {
        PyObject *item = build(c);
        if (!item) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, item);
    }
    return list;
}

/* A dict sized for its n keys at once: growing 8 -> 16 -> 32 -> 64 slots
 * while a twitter user's 40 keys go in was a fifth of the GIL-held time.
 * (A private CPython call, there up to 3.12.) */
static PyObject *new_dict(size_t n) {
#if PY_VERSION_HEX < 0x030D0000
    if (n > 5) return _PyDict_NewPresized((Py_ssize_t)n);
#else
    (void)n;
#endif
    return PyDict_New();
}

static PyObject *build_obj(flat_cursor *c, size_t n) {
    PyObject *dict = new_dict(n);
    size_t i;
    if (!dict) return NULL;
    for (i = 0; i < n; i++) {
        PyObject *key = make_key(c->p++, c->keys), *val;
        int rc;
        if (!key) goto fail;
        val = build(c);
        if (!val) {
            Py_DECREF(key);
            goto fail;
        }
        rc = PyDict_SetItem(dict, key, val); /* a repeated key: the last wins, as in json */
        Py_DECREF(key);
        Py_DECREF(val);
        if (rc < 0) goto fail;
    }
    return dict;
fail:
    Py_DECREF(dict);
    return NULL;
}

static PyObject *build(flat_cursor *c) {
    const flat_node *f = c->p++;
    PyObject *r;
    switch (f->tag) {
    case F_NULL: Py_RETURN_NONE;
    case F_TRUE: Py_RETURN_TRUE;
    case F_FALSE: Py_RETURN_FALSE;
    case F_INT: return PyLong_FromLongLong(f->v.i);
    case F_UINT: return PyLong_FromUnsignedLongLong(f->v.u);
    case F_REAL: return PyFloat_FromDouble(f->v.d);
    case F_STR: return make_str(f);
    case F_RAW: return tyjson_py_raw_number((const char *)f->v.p, f->n);
    case F_ARR:
        if (Py_EnterRecursiveCall(" while decoding a JSON array")) return NULL;
        r = build_arr(c, f->n);
        Py_LeaveRecursiveCall();
        return r;
    case F_OBJ:
        if (Py_EnterRecursiveCall(" while decoding a JSON object")) return NULL;
        r = build_obj(c, f->n);
        Py_LeaveRecursiveCall();
        return r;
    default: PyErr_SetString(PyExc_SystemError, "tyjson: flat value of unknown kind"); return NULL;
    }
}

/* The collector is paused as in tyjson_py_from_root (loads.c says why). */
PyObject *tyjson_py_flat_build(const tyjson_py_flat *fl, tyjson_py_keys *keys) {
    flat_cursor c;
    PyObject *r;
    int was_enabled;
    if (!fl) return PyErr_NoMemory(); /* the worker ran out of memory */
    c.p = fl->node;
    c.keys = keys;
#if PY_VERSION_HEX >= 0x030A0000
    was_enabled = PyGC_Disable();
#else
    was_enabled = 0;
#endif
    r = build(&c);
#if PY_VERSION_HEX >= 0x030A0000
    if (was_enabled) PyGC_Enable();
#endif
    return r;
}
