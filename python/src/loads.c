/*
 * loads.c - tyjson.loads: JSON text -> Python objects through the DOM
 * parser (tyjson_read_opts), then one walk of the document.
 *
 * Integers beyond 64 bits and numbers beyond a double's range are read as
 * raw number text (TYJSON_READ_BIGNUM_AS_RAW) so that Python gets them
 * exactly: an int of any size, or a float (inf for 1e400, as json does).
 */
#include "tyjson_py.h"

#include <string.h>

/* Characters (not bytes) in the UTF-8 text dat[0..n): every byte that is
 * not a continuation byte starts one. */
static Py_ssize_t utf8_chars(const char *dat, size_t n) {
    Py_ssize_t c = 0;
    size_t i;
    for (i = 0; i < n; i++)
        if (((unsigned char)dat[i] & 0xC0u) != 0x80u) c++;
    return c;
}

void tyjson_py_raise_decode(const tyjson_error *err, const char *dat, size_t len,
                            PyObject *doc, int chars) {
    size_t off = err->offset <= len ? err->offset : len;
    size_t line_start = off;
    Py_ssize_t pos, col;
    size_t lineno = err->line ? err->line : 1;
    PyObject *exc, *tmp;

    while (line_start > 0 && dat[line_start - 1] != '\n') line_start--;
    if (chars) {
        pos = utf8_chars(dat, off);
        col = utf8_chars(dat + line_start, off - line_start) + 1;
    } else {
        pos = (Py_ssize_t)off;
        col = (Py_ssize_t)(off - line_start) + 1;
    }
    exc = PyObject_CallFunction(tyjson_py_g.decode_error, "sOnnns", err->msg, doc ? doc : Py_None,
                                pos, (Py_ssize_t)lineno, col, tyjson_status_name(err->code));
    if (!exc) return;
    tmp = PyObject_Type(exc);
    PyErr_SetObject(tmp, exc);
    Py_DECREF(tmp);
    Py_DECREF(exc);
}

int tyjson_py_raw_is_int(const char *s, size_t n) {
    size_t i;
    for (i = 0; i < n; i++)
        if (s[i] == '.' || s[i] == 'e' || s[i] == 'E') return 0;
    return 1;
}

/* A raw number (TYJSON_TYPE_RAW): an int when it has no fraction or
 * exponent, else a float (which may be inf, as json gives for 1e400). */
PyObject *tyjson_py_raw_number(const char *s, size_t n) {
    char small[64];
    char *buf = small;
    PyObject *res;
    int is_int = tyjson_py_raw_is_int(s, n);
    if (n + 1 > sizeof small) {
        buf = (char *)PyMem_Malloc(n + 1);
        if (!buf) return PyErr_NoMemory();
    }
    memcpy(buf, s, n);
    buf[n] = '\0';
    if (is_int) {
        res = PyLong_FromString(buf, NULL, 10);
    } else {
        double d = PyOS_string_to_double(buf, NULL, NULL);
        res = (d == -1.0 && PyErr_Occurred()) ? NULL : PyFloat_FromDouble(d);
    }
    if (buf != small) PyMem_Free(buf);
    return res;
}

static PyObject *from_arr(tyjson_val *v) {
    size_t n = tyjson_arr_size(v), i = 0;
    PyObject *list = PyList_New((Py_ssize_t)n);
    tyjson_arr_iter it;
    tyjson_val *e;
    if (!list) return NULL;
    it = tyjson_arr_iter_with(v);
    while ((e = tyjson_arr_iter_next(&it))) {
        PyObject *item = tyjson_py_from_val(e);
        if (!item) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, item);
        i++;
    }
    return list;
}

/* Object keys repeat (an array of records has the same few keys in every
 * element): short keys are kept in a small direct-mapped cache for the
 * length of one conversion scope (one loads call, or a whole iter_lines
 * run), so each distinct key is decoded once and, being the same str
 * object, hashed once (a str keeps its hash). */
/* The current scope's cache, or NULL. Per thread: iter_lines converts on
 * its own thread while other threads call loads. */
static _Thread_local tyjson_py_keys *key_cache;

void tyjson_py_keys_begin(tyjson_py_keys *k, size_t slots) {
    size_t i;
    k->slot = k->local;
    k->mask = TYJSON_PY_KEY_SLOTS - 1;
    if (slots > TYJSON_PY_KEY_SLOTS) {
        /* no memory for the big table: the small one does (slower) */
        tyjson_py_key_slot *big = (tyjson_py_key_slot *)PyMem_Malloc(slots * sizeof(tyjson_py_key_slot));
        if (big) {
            k->slot = big;
            k->mask = slots - 1;
        }
    }
    for (i = 0; i <= k->mask; i++) k->slot[i].str = NULL;
    k->outer = key_cache; /* a scope inside a scope (say, a loads from a sink): keep theirs */
    key_cache = k;
}

void tyjson_py_keys_end(tyjson_py_keys *k) {
    size_t i;
    key_cache = k->outer;
    for (i = 0; i <= k->mask; i++) Py_XDECREF(k->slot[i].str);
    if (k->slot != k->local) PyMem_Free(k->slot);
}

static PyObject *key_str(const char *s, size_t n) {
    tyjson_py_key_slot *slot;
    if (!key_cache || n > TYJSON_PY_KEY_MAX || n == 0)
        return PyUnicode_DecodeUTF8(s, (Py_ssize_t)n, NULL);
    slot = &key_cache->slot[tyjson_py_key_hash(s, n) & key_cache->mask];
    if (slot->str && slot->len == n && memcmp(slot->bytes, s, n) == 0) return Py_NewRef(slot->str);
    Py_XDECREF(slot->str);
    slot->str = PyUnicode_DecodeUTF8(s, (Py_ssize_t)n, NULL);
    if (!slot->str) return NULL;
    slot->len = n;
    memcpy(slot->bytes, s, n);
    return Py_NewRef(slot->str);
}

static PyObject *from_obj(tyjson_val *v) {
    PyObject *dict = PyDict_New();
    tyjson_obj_iter it;
    tyjson_val *k;
    if (!dict) return NULL;
    it = tyjson_obj_iter_with(v);
    while ((k = tyjson_obj_iter_next(&it))) {
        PyObject *key, *val;
        int rc;
        key = key_str(tyjson_get_str(k), tyjson_get_len(k));
        if (!key) goto fail;
        val = tyjson_py_from_val(tyjson_obj_iter_get_val(k));
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

PyObject *tyjson_py_from_val(tyjson_val *v) {
    switch (tyjson_get_type(v)) {
    case TYJSON_TYPE_NULL: Py_RETURN_NONE;
    case TYJSON_TYPE_BOOL:
        if (tyjson_get_bool(v)) Py_RETURN_TRUE;
        Py_RETURN_FALSE;
    case TYJSON_TYPE_NUM:
        if (tyjson_is_uint(v)) return PyLong_FromUnsignedLongLong(tyjson_get_uint(v));
        if (tyjson_is_sint(v)) return PyLong_FromLongLong(tyjson_get_sint(v));
        return PyFloat_FromDouble(tyjson_get_real(v));
    case TYJSON_TYPE_STR:
        /* the parser has checked the UTF-8 (and refused lone surrogate
         * escapes), so decoding cannot fail on the text */
        return PyUnicode_DecodeUTF8(tyjson_get_str(v), (Py_ssize_t)tyjson_get_len(v), NULL);
    case TYJSON_TYPE_RAW: return tyjson_py_raw_number(tyjson_get_str(v), tyjson_get_len(v));
    case TYJSON_TYPE_ARR: {
        PyObject *r;
        if (Py_EnterRecursiveCall(" while decoding a JSON array")) return NULL;
        r = from_arr(v);
        Py_LeaveRecursiveCall();
        return r;
    }
    case TYJSON_TYPE_OBJ: {
        PyObject *r;
        if (Py_EnterRecursiveCall(" while decoding a JSON object")) return NULL;
        r = from_obj(v);
        Py_LeaveRecursiveCall();
        return r;
    }
    default: PyErr_SetString(PyExc_SystemError, "tyjson: value of unknown type"); return NULL;
    }
}

/* The objects made from one document hold only what the document holds,
 * so they form no reference cycles: a collection of the cyclic garbage
 * collector while they are made (one every 700 container allocations)
 * would only scan them again and again, a quarter of the time on a large
 * document. The collector is paused for the conversion and, when it was
 * enabled, enabled again after it; no Python code runs in between (the GIL
 * is held throughout and only built-in types are made), so no other code
 * can see the pause. */
PyObject *tyjson_py_from_root(tyjson_val *root) {
#if PY_VERSION_HEX >= 0x030A0000
    PyObject *r;
    int was_enabled = PyGC_Disable();
    r = tyjson_py_from_val(root);
    if (was_enabled) PyGC_Enable();
    return r;
#else
    return tyjson_py_from_val(root);
#endif
}

/* The input of loads/validate as UTF-8 bytes; *chars tells whether it was
 * a str (error positions then count characters). */
static int get_input(PyObject *src, Py_buffer *view, int *have_view, const char **dat,
                     Py_ssize_t *len, int *chars) {
    *have_view = 0;
    *chars = 0;
    if (PyUnicode_Check(src)) {
        *dat = PyUnicode_AsUTF8AndSize(src, len);
        if (!*dat) return -1;
        *chars = 1;
        return 0;
    }
    if (PyObject_CheckBuffer(src)) {
        if (PyObject_GetBuffer(src, view, PyBUF_CONTIG_RO) < 0) return -1;
        *have_view = 1;
        *dat = (const char *)view->buf;
        *len = view->len;
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "the JSON object must be str, bytes, bytearray or memoryview, not %.100s",
                 Py_TYPE(src)->tp_name);
    return -1;
}

static tyjson_read_flags read_flags(int allow_nan, int allow_comments, int allow_trailing) {
    tyjson_read_flags f = TYJSON_READ_BIGNUM_AS_RAW;
    if (allow_nan) f |= TYJSON_READ_ALLOW_INF_NAN;
    if (allow_comments) f |= TYJSON_READ_ALLOW_COMMENTS;
    if (allow_trailing) f |= TYJSON_READ_ALLOW_TRAILING_COMMAS;
    return f;
}

static char *loads_kwlist[] = {"s", "allow_nan", "allow_comments", "allow_trailing_commas", NULL};

/* What loads and validate share: their arguments, the input as UTF-8
 * bytes and the read options. Release with input_release. */
typedef struct loads_input {
    PyObject *src;
    Py_buffer view;
    int have_view, chars;
    const char *dat;
    Py_ssize_t len;
    tyjson_read_options opts;
} loads_input;

static int input_from_args(PyObject *args, PyObject *kwds, const char *fmt, loads_input *in) {
    int allow_nan = 0, allow_comments = 0, allow_trailing = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, fmt, loads_kwlist, &in->src, &allow_nan,
                                     &allow_comments, &allow_trailing))
        return -1;
    if (get_input(in->src, &in->view, &in->have_view, &in->dat, &in->len, &in->chars) < 0) return -1;
    memset(&in->opts, 0, sizeof in->opts);
    in->opts.flags = read_flags(allow_nan, allow_comments, allow_trailing);
    return 0;
}

static void input_release(loads_input *in) {
    if (in->have_view) PyBuffer_Release(&in->view);
}

/* The document of the input, or NULL with JSONDecodeError (MemoryError)
 * set. The parser copies the input; the caller holds src (and its buffer)
 * meanwhile, so other threads may run. */
static tyjson_doc *parse_input(const loads_input *in) {
    tyjson_error err;
    tyjson_doc *doc;
    Py_BEGIN_ALLOW_THREADS
    doc = tyjson_read_opts(in->dat, (size_t)in->len, &in->opts, &err);
    Py_END_ALLOW_THREADS
    if (!doc) {
        if (err.code == TYJSON_E_NOMEM) PyErr_NoMemory();
        else tyjson_py_raise_decode(&err, in->dat, (size_t)in->len, in->src, in->chars);
    }
    return doc;
}

PyObject *tyjson_py_loads(PyObject *self, PyObject *args, PyObject *kwds) {
    PyObject *res;
    loads_input in;
    tyjson_doc *doc;
    (void)self;

    if (input_from_args(args, kwds, "O|$ppp:loads", &in) < 0) return NULL;
    doc = parse_input(&in);
    if (!doc) {
        res = NULL;
    } else {
        tyjson_py_keys keys;
        tyjson_py_keys_begin(&keys, TYJSON_PY_KEY_SLOTS);
        res = tyjson_py_from_root(tyjson_doc_get_root(doc));
        tyjson_py_keys_end(&keys);
        tyjson_doc_free(doc);
    }
    input_release(&in);
    return res;
}

PyObject *tyjson_py_validate(PyObject *self, PyObject *args, PyObject *kwds) {
    loads_input in;
    tyjson_error err;
    bool ok;
    (void)self;

    if (input_from_args(args, kwds, "O|$ppp:validate", &in) < 0) return NULL;
    Py_BEGIN_ALLOW_THREADS
    ok = tyjson_validate(in.dat, (size_t)in.len, &in.opts, &err);
    Py_END_ALLOW_THREADS
    input_release(&in);
    return PyBool_FromLong(ok);
}

tyjson_doc *tyjson_py_parse(PyObject *src) {
    loads_input in;
    tyjson_doc *doc;
    PyObject *args = PyTuple_Pack(1, src);
    int rc;
    if (!args) return NULL;
    rc = input_from_args(args, NULL, "O|$ppp:decode", &in);
    Py_DECREF(args);
    if (rc < 0) return NULL;
    doc = parse_input(&in);
    input_release(&in);
    return doc;
}
