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
 * already widened to that width (tyjson_utf8_widen), keys already
 * numbered (below). The thread holding the GIL then only allocates and
 * copies (flat_build).
 *
 * Keys: each worker numbers the distinct keys it meets in a table of its
 * own (no lock), the flat form carries the number, and the GIL-holding
 * thread keeps the str of each (worker, number): a key seen before costs
 * it one load, where a cache keyed by the bytes made it compare bytes it
 * had to fetch from the worker's core (memcmp was 5% of the whole run).
 * A key's first str per worker goes through one dict of the run, so all
 * records share one str per key whichever worker parsed them.
 *
 * When no flat form can be made (the arena out of memory, a count beyond
 * 32 bits) the worker returns NULL and the record is converted from its
 * document as with one thread.
 *
 * The nodes and widened strings live in the batch's arena, and ASCII
 * strings are used where the document holds them: both stay valid until
 * the record's callback returns, which is when flat_build runs.
 */
#include "tyjson_py.h"

#include <stdlib.h>
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

/* 16 bytes: the GIL-holding thread reads them from the worker's cache,
 * so their size is memory traffic on the serial part. A count beyond 32
 * bits makes no flat form (the record is converted from its document). */
typedef struct flat_node {
    uint8_t tag;
    uint8_t width;
    uint16_t slot; /* F_STR keys: the worker's number for the key, or NO_SLOT */
    uint32_t n;
    union {
        int64_t i;
        uint64_t u;
        double d;
        const void *p;
    } v;
} flat_node;

struct tyjson_py_flat {
    size_t count;
    unsigned thread; /* the worker that made it: whose key numbers */
    flat_node node[];
};

/* Per worker: its table of keys (bytes -> number; open addressing, only
 * the worker touches it) and the strs of the numbers (only the thread
 * holding the GIL touches them). Keys past IDS_MAX distinct ones, or
 * longer than ID_KEY_MAX bytes, go unnumbered (made each time). */
#define IDS_CAP 1024u
#define IDS_MAX 768u
#define ID_KEY_MAX 128u

typedef struct id_entry {
    uint64_t hash;
    uint32_t len, id;
    char *bytes; /* the worker's copy (libc: the PyMem_Raw hooks of tracemalloc
                  * take the GIL); NULL: an empty entry */
} id_entry;

typedef struct worker_ids {
    id_entry e[IDS_CAP];
    uint32_t count;
    PyObject *str[IDS_MAX];
} worker_ids;

struct tyjson_py_key_ids {
    unsigned threads;
    PyObject *shared; /* dict: str -> the run's one str of it */
    worker_ids w[];
};

tyjson_py_key_ids *tyjson_py_key_ids_new(unsigned threads) {
    tyjson_py_key_ids *k;
    if (threads < 1) threads = 1;
    k = (tyjson_py_key_ids *)PyMem_RawCalloc(1, sizeof(tyjson_py_key_ids) + threads * sizeof(worker_ids));
    if (!k) return (tyjson_py_key_ids *)PyErr_NoMemory();
    k->threads = threads;
    k->shared = PyDict_New();
    if (!k->shared) {
        PyMem_RawFree(k);
        return NULL;
    }
    return k;
}

void tyjson_py_key_ids_free(tyjson_py_key_ids *k) {
    unsigned t;
    size_t i;
    if (!k) return;
    for (t = 0; t < k->threads; t++) {
        worker_ids *w = &k->w[t];
        for (i = 0; i < IDS_CAP; i++) free(w->e[i].bytes);
        for (i = 0; i < w->count; i++) Py_XDECREF(w->str[i]);
    }
    Py_DECREF(k->shared);
    PyMem_RawFree(k);
}

/* On the worker: the number of the key s[0..len), given at first sight;
 * NO_SLOT when it gets none. */
static uint16_t key_id(worker_ids *w, const char *s, size_t len) {
    uint64_t h;
    size_t i;
    id_entry *e;
    char *copy;
    if (len > ID_KEY_MAX) return NO_SLOT;
    h = tyjson_py_key_hash(s, len);
    for (i = h & (IDS_CAP - 1);; i = (i + 1) & (IDS_CAP - 1)) {
        e = &w->e[i];
        if (!e->bytes) break;
        if (e->hash == h && e->len == len && memcmp(e->bytes, s, len) == 0) return (uint16_t)e->id;
    }
    if (w->count >= IDS_MAX || !(copy = (char *)malloc(len ? len : 1))) return NO_SLOT;
    memcpy(copy, s, len);
    e->hash = h;
    e->len = (uint32_t)len;
    e->id = w->count++;
    e->bytes = copy;
    return (uint16_t)e->id;
}

/* ----------------------------------------------------------------------------
 * Worker side: no Python API here (the GIL is not held).
 * ------------------------------------------------------------------------- */

typedef struct flat_maker {
    flat_node *out, *end;
    tyjson_arena *arena;
    worker_ids *ids;
} flat_maker;

static int flat_str(flat_maker *m, flat_node *f, const char *s, size_t len) {
    size_t chars;
    uint32_t bound;
    if (len > UINT32_MAX) return -1;
    bound = tyjson_utf8_measure(s, len, &chars);
    f->tag = F_STR;
    f->slot = NO_SLOT;
    if (bound == 0x7F) {
        f->width = 0;
        f->n = (uint32_t)len;
        f->v.p = s;
        return 0;
    }
    unsigned width = bound == 0xFF ? 1u : bound == 0xFFFF ? 2u : 4u;
    void *buf = tyjson_arena_alloc(m->arena, chars ? chars * width : 1, width);
    if (!buf) return -1;
    tyjson_utf8_widen(s, len, buf, width);
    f->width = (uint8_t)width;
    f->n = (uint32_t)chars;
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
        if (tyjson_get_len(v) > UINT32_MAX) return -1;
        f->n = (uint32_t)tyjson_get_len(v);
        f->v.p = tyjson_get_str(v);
        return 0;
    case TYJSON_TYPE_ARR: {
        tyjson_arr_iter it = tyjson_arr_iter_with(v);
        tyjson_val *e;
        f->tag = F_ARR;
        if (tyjson_arr_size(v) > UINT32_MAX) return -1;
        f->n = (uint32_t)tyjson_arr_size(v);
        while ((e = tyjson_arr_iter_next(&it)))
            if (flat_val(m, e) < 0) return -1;
        return 0;
    }
    case TYJSON_TYPE_OBJ: {
        tyjson_obj_iter it = tyjson_obj_iter_with(v);
        tyjson_val *k;
        f->tag = F_OBJ;
        if (tyjson_obj_size(v) > UINT32_MAX) return -1;
        f->n = (uint32_t)tyjson_obj_size(v);
        while ((k = tyjson_obj_iter_next(&it))) {
            flat_node *kf;
            const char *s = tyjson_get_str(k);
            size_t len = tyjson_get_len(k);
            if (m->out == m->end) return -1;
            kf = m->out++;
            if (flat_str(m, kf, s, len) < 0) return -1;
            kf->slot = key_id(m->ids, s, len);
            if (flat_val(m, tyjson_obj_iter_get_val(k)) < 0) return -1;
        }
        return 0;
    }
    default: return -1;
    }
}

tyjson_py_flat *tyjson_py_flat_make(const tyjson_doc *doc, tyjson_arena *arena, tyjson_py_key_ids *ids,
                                    unsigned thread) {
    size_t count = tyjson_doc_get_val_count(doc), bytes;
    tyjson_py_flat *fl;
    flat_maker m;
    if (count > (SIZE_MAX - sizeof(tyjson_py_flat)) / sizeof(flat_node)) return NULL;
    bytes = sizeof(tyjson_py_flat) + count * sizeof(flat_node);
    fl = (tyjson_py_flat *)tyjson_arena_alloc(arena, bytes, _Alignof(flat_node));
    if (!fl) return NULL;
    m.out = fl->node;
    m.end = fl->node + count;
    if (thread >= ids->threads) return NULL;
    fl->thread = thread;
    m.arena = arena;
    m.ids = &ids->w[thread];
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
    if (s) memcpy(PyUnicode_DATA(s), f->v.p, (size_t)f->n * f->width);
    return s;
}

typedef struct flat_cursor {
    const flat_node *p;
    PyObject **strs; /* the worker's numbered keys (worker_ids.str) */
    PyObject *shared;
} flat_cursor;

static PyObject *make_key(const flat_node *f, flat_cursor *c) {
    PyObject **sp, *s, *one;
    if (f->slot == NO_SLOT) return make_str(f);
    sp = &c->strs[f->slot];
    if (*sp) return Py_NewRef(*sp);
    s = make_str(f); /* first sight of this number: the run's str for the key */
    if (!s) return NULL;
    one = PyDict_SetDefault(c->shared, s, s); /* borrowed */
    Py_DECREF(s);
    if (!one) return NULL;
    *sp = Py_NewRef(one);
    return Py_NewRef(one);
}

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
        PyObject *key = make_key(c->p++, c), *val;
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
PyObject *tyjson_py_flat_build(const tyjson_py_flat *fl, tyjson_py_key_ids *ids) {
    flat_cursor c;
    PyObject *r;
    int was_enabled;
    c.p = fl->node;
    c.strs = ids->w[fl->thread].str;
    c.shared = ids->shared;
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
