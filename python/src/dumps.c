/*
 * dumps.c - tyjson.dumps / dumps_str: Python objects -> JSON text through
 * the streaming writer (tyjson_writer), with no document in between.
 *
 * Rules are the json module's where users rely on them: dict keys may be
 * str, int, float, bool or None (the latter written as their JSON text);
 * ints of any size exactly; floats as the shortest text that reads back;
 * NaN and the infinities only with allow_nan. Beyond json: dataclasses,
 * datetime/date/time (ISO 8601), uuid.UUID, enum.Enum (its value) and
 * decimal.Decimal (its digits, as a number) are written natively.
 */
#include "tyjson_py.h"

#include <math.h>
#include <string.h>

typedef struct enc_ctx {
    tyjson_writer *w;
    PyObject *default_fn; /* borrowed; NULL when none */
    int sort_keys;
    int skipkeys;
    int allow_nan;
} enc_ctx;

static int enc_value(enc_ctx *c, PyObject *obj);

/* A writer error (depth, NaN, ...) as a Python exception. */
static int writer_failed(enc_ctx *c) {
    tyjson_error err;
    tyjson_writer_error(c->w, &err);
    if (err.code == TYJSON_E_NOMEM) PyErr_NoMemory();
    else if (err.code == TYJSON_E_DEPTH)
        PyErr_Format(PyExc_ValueError, "nesting deeper than %u levels (circular reference?)",
                     (unsigned)TYJSON_DEFAULT_MAX_DEPTH);
    else PyErr_Format(PyExc_ValueError, "%s at %s", err.msg, err.path);
    return -1;
}

#define W(call) do { if ((call) != TYJSON_OK) return writer_failed(c); } while (0)

static int enc_str(enc_ctx *c, PyObject *s, int key) {
    Py_ssize_t n;
    const char *u = PyUnicode_AsUTF8AndSize(s, &n);
    if (!u) return -1;
    if (key) W(tyjson_writer_key(c->w, u, (size_t)n));
    else W(tyjson_writer_string(c->w, u, (size_t)n));
    return 0;
}

static int enc_float(enc_ctx *c, double d) {
    if (!isfinite(d) && !c->allow_nan) {
        PyErr_SetString(PyExc_ValueError, "Out of range float values are not JSON compliant");
        return -1;
    }
    W(tyjson_writer_double(c->w, d));
    return 0;
}

/* An int of any size: 64-bit ones directly, bigger ones as their decimal
 * digits (int.__repr__, so subclasses such as IntEnum cannot change it). */
static int enc_int(enc_ctx *c, PyObject *obj) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (!overflow) {
        W(tyjson_writer_int(c->w, (int64_t)v));
        return 0;
    }
    if (overflow > 0) {
        unsigned long long u = PyLong_AsUnsignedLongLong(obj);
        if (!(u == (unsigned long long)-1 && PyErr_Occurred())) {
            W(tyjson_writer_uint(c->w, (uint64_t)u));
            return 0;
        }
        PyErr_Clear();
    }
    {
        PyObject *digits = PyLong_Type.tp_repr(obj);
        Py_ssize_t n;
        const char *u;
        tyjson_status st;
        if (!digits) return -1;
        u = PyUnicode_AsUTF8AndSize(digits, &n);
        st = u ? tyjson_writer_raw(c->w, u, (size_t)n, TYJSON_WRITER_RAW_TRUSTED) : TYJSON_OK;
        Py_DECREF(digits);
        if (!u) return -1;
        if (st != TYJSON_OK) return writer_failed(c);
    }
    return 0;
}

/* A dict key by json's rules: str as is; float, int, bool and None as the
 * text json would write for them. Returns 1 when the key is to be skipped
 * (skipkeys), 0 when written, -1 on error. */
static int enc_key(enc_ctx *c, PyObject *k) {
    PyObject *s;
    int rc;
    if (PyUnicode_Check(k)) return enc_str(c, k, 1);
    if (k == Py_True) s = PyUnicode_FromString("true");
    else if (k == Py_False) s = PyUnicode_FromString("false");
    else if (k == Py_None) s = PyUnicode_FromString("null");
    else if (PyFloat_Check(k)) {
        double d = PyFloat_AS_DOUBLE(k);
        if (isnan(d)) s = PyUnicode_FromString("NaN");
        else if (isinf(d)) s = PyUnicode_FromString(d > 0 ? "Infinity" : "-Infinity");
        else s = PyFloat_Type.tp_repr(k);
    } else if (PyLong_Check(k)) s = PyLong_Type.tp_repr(k);
    else if (c->skipkeys) return 1;
    else {
        PyErr_Format(PyExc_TypeError, "keys must be str, int, float, bool or None, not %.100s",
                     Py_TYPE(k)->tp_name);
        return -1;
    }
    if (!s) return -1;
    rc = enc_str(c, s, 1);
    Py_DECREF(s);
    return rc;
}

static int enc_seq(enc_ctx *c, PyObject *seq) {
    PyObject *fast = PySequence_Fast(seq, "expected a sequence");
    Py_ssize_t i, n;
    if (!fast) return -1;
    n = PySequence_Fast_GET_SIZE(fast);
    if (tyjson_writer_begin_array(c->w) != TYJSON_OK) {
        Py_DECREF(fast);
        return writer_failed(c);
    }
    for (i = 0; i < n; i++) {
        if (enc_value(c, PySequence_Fast_GET_ITEM(fast, i)) < 0) {
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    W(tyjson_writer_end_array(c->w));
    return 0;
}

static int enc_pair(enc_ctx *c, PyObject *k, PyObject *v) {
    int rc = enc_key(c, k);
    if (rc) return rc < 0 ? -1 : 0;
    return enc_value(c, v);
}

static int enc_dict(enc_ctx *c, PyObject *d) {
    W(tyjson_writer_begin_object(c->w));
    if (c->sort_keys) {
        PyObject *items = PyMapping_Items(d);
        Py_ssize_t i, n;
        if (!items) return -1;
        if (PyList_Sort(items) < 0) {
            Py_DECREF(items);
            return -1;
        }
        n = PyList_GET_SIZE(items);
        for (i = 0; i < n; i++) {
            PyObject *kv = PyList_GET_ITEM(items, i);
            if (enc_pair(c, PyTuple_GET_ITEM(kv, 0), PyTuple_GET_ITEM(kv, 1)) < 0) {
                Py_DECREF(items);
                return -1;
            }
        }
        Py_DECREF(items);
    } else {
        PyObject *k, *v;
        Py_ssize_t pos = 0;
        while (PyDict_Next(d, &pos, &k, &v)) {
            int rc;
            /* the borrowed pair must survive a user's __str__ or default */
            Py_INCREF(k);
            Py_INCREF(v);
            rc = enc_pair(c, k, v);
            Py_DECREF(k);
            Py_DECREF(v);
            if (rc < 0) return -1;
        }
    }
    W(tyjson_writer_end_object(c->w));
    return 0;
}

/* The field names of a dataclass type, looked up once per type. */
static PyObject *dc_names(PyObject *obj) {
    PyObject *tp = (PyObject *)Py_TYPE(obj);
    PyObject *names = PyDict_GetItemWithError(tyjson_py_g.dc_cache, tp);
    PyObject *fields;
    Py_ssize_t i, n;
    if (names) return Py_NewRef(names);
    if (PyErr_Occurred()) return NULL;
    fields = PyObject_CallOneArg(tyjson_py_g.dc_fields, obj);
    if (!fields) return NULL;
    n = PyTuple_Size(fields);
    names = PyTuple_New(n);
    for (i = 0; names && i < n; i++) {
        PyObject *nm = PyObject_GetAttrString(PyTuple_GET_ITEM(fields, i), "name");
        if (!nm) {
            Py_CLEAR(names);
            break;
        }
        PyTuple_SET_ITEM(names, i, nm);
    }
    Py_DECREF(fields);
    if (names && PyDict_SetItem(tyjson_py_g.dc_cache, tp, names) < 0) Py_CLEAR(names);
    return names;
}

static int enc_dataclass(enc_ctx *c, PyObject *obj) {
    PyObject *names = dc_names(obj);
    Py_ssize_t i, n;
    if (!names) return -1;
    n = PyTuple_GET_SIZE(names);
    if (tyjson_writer_begin_object(c->w) != TYJSON_OK) {
        Py_DECREF(names);
        return writer_failed(c);
    }
    for (i = 0; i < n; i++) {
        PyObject *nm = PyTuple_GET_ITEM(names, i);
        PyObject *v;
        int rc = enc_str(c, nm, 1);
        if (rc < 0) break;
        v = PyObject_GetAttr(obj, nm);
        if (!v) {
            rc = -1;
            break;
        }
        rc = enc_value(c, v);
        Py_DECREF(v);
        if (rc < 0) break;
    }
    Py_DECREF(names);
    if (i < n) return -1;
    W(tyjson_writer_end_object(c->w));
    return 0;
}

/* obj.method() written as a JSON string (isoformat, __str__). */
static int enc_call_str(enc_ctx *c, PyObject *obj, const char *method) {
    PyObject *s = method ? PyObject_CallMethod(obj, method, NULL) : PyObject_Str(obj);
    int rc;
    if (!s) return -1;
    rc = enc_str(c, s, 0);
    Py_DECREF(s);
    return rc;
}

/* A Decimal as a JSON number with its digits; NaN and infinities as
 * floats are (allow_nan). */
static int enc_decimal(enc_ctx *c, PyObject *obj) {
    PyObject *fin = PyObject_CallMethod(obj, "is_finite", NULL);
    PyObject *s;
    int finite;
    Py_ssize_t n;
    const char *u;
    tyjson_status st;
    if (!fin) return -1;
    finite = PyObject_IsTrue(fin);
    Py_DECREF(fin);
    if (finite < 0) return -1;
    if (!finite) {
        double d = PyFloat_AsDouble(obj);
        if (d == -1.0 && PyErr_Occurred()) {
            /* a signalling NaN refuses float(): it is a NaN all the same */
            PyErr_Clear();
            d = NAN;
        }
        return enc_float(c, d);
    }
    s = PyObject_Str(obj);
    if (!s) return -1;
    u = PyUnicode_AsUTF8AndSize(s, &n);
    /* checked by the writer: Decimal's text ("1E+2", "-0.00") is JSON */
    st = u ? tyjson_writer_raw(c->w, u, (size_t)n, 0) : TYJSON_OK;
    Py_DECREF(s);
    if (!u) return -1;
    if (st != TYJSON_OK) return writer_failed(c);
    return 0;
}

static int is_dataclass_instance(PyObject *obj) {
    if (PyType_Check(obj)) return 0; /* a dataclass itself is not an instance */
    return PyObject_HasAttrString((PyObject *)Py_TYPE(obj), "__dataclass_fields__");
}

static int enc_other(enc_ctx *c, PyObject *obj) {
    int r;
    if ((r = PyObject_IsInstance(obj, tyjson_py_g.enum_type)) != 0) {
        PyObject *v;
        if (r < 0) return -1;
        v = PyObject_GetAttrString(obj, "value");
        if (!v) return -1;
        r = enc_value(c, v);
        Py_DECREF(v);
        return r;
    }
    if (PyUnicode_Check(obj)) return enc_str(c, obj, 0);
    if (PyLong_Check(obj)) return enc_int(c, obj);
    if (PyFloat_Check(obj)) return enc_float(c, PyFloat_AS_DOUBLE(obj));
    if (PyList_Check(obj) || PyTuple_Check(obj)) return enc_seq(c, obj);
    if (PyDict_Check(obj)) return enc_dict(c, obj);
    if ((r = is_dataclass_instance(obj)) != 0) return r < 0 ? -1 : enc_dataclass(c, obj);
    if ((r = PyObject_IsInstance(obj, tyjson_py_g.datetime_type)) != 0 ||
        (r = PyObject_IsInstance(obj, tyjson_py_g.date_type)) != 0 ||
        (r = PyObject_IsInstance(obj, tyjson_py_g.time_type)) != 0)
        return r < 0 ? -1 : enc_call_str(c, obj, "isoformat");
    if ((r = PyObject_IsInstance(obj, tyjson_py_g.uuid_type)) != 0)
        return r < 0 ? -1 : enc_call_str(c, obj, NULL);
    if ((r = PyObject_IsInstance(obj, tyjson_py_g.decimal_type)) != 0)
        return r < 0 ? -1 : enc_decimal(c, obj);
    if (c->default_fn) {
        PyObject *v;
        if (Py_EnterRecursiveCall(" in the default= hook of tyjson.dumps")) return -1;
        v = PyObject_CallOneArg(c->default_fn, obj);
        if (v) {
            r = enc_value(c, v);
            Py_DECREF(v);
        } else {
            r = -1;
        }
        Py_LeaveRecursiveCall();
        return r;
    }
    PyErr_Format(tyjson_py_g.encode_error, "Object of type %.100s is not JSON serializable",
                 Py_TYPE(obj)->tp_name);
    return -1;
}

static int enc_value(enc_ctx *c, PyObject *obj) {
    PyTypeObject *tp = Py_TYPE(obj);
    /* exact built-in types first: the common case costs one compare */
    if (tp == &PyUnicode_Type) return enc_str(c, obj, 0);
    if (tp == &PyDict_Type) return enc_dict(c, obj);
    if (tp == &PyList_Type) return enc_seq(c, obj);
    if (tp == &PyLong_Type) return enc_int(c, obj);
    if (tp == &PyFloat_Type) return enc_float(c, PyFloat_AS_DOUBLE(obj));
    if (obj == Py_None) {
        W(tyjson_writer_null(c->w));
        return 0;
    }
    if (tp == &PyBool_Type) {
        W(tyjson_writer_bool(c->w, obj == Py_True));
        return 0;
    }
    if (tp == &PyTuple_Type) return enc_seq(c, obj);
    return enc_other(c, obj);
}

/* One writer kept for the default options (reused: no allocation per call);
 * a nested call (from a default= hook) or other options get their own. */
static tyjson_writer *cached_writer;
static int cached_busy;

static PyObject *dumps_common(PyObject *args, PyObject *kwds, int as_str) {
    static char *kwlist[] = {"obj", "indent", "sort_keys", "default", "allow_nan", "skipkeys",
                             "ensure_ascii", NULL};
    PyObject *obj, *indent = Py_None, *default_fn = Py_None, *res = NULL;
    int sort_keys = 0, allow_nan = 0, skipkeys = 0, ensure_ascii = 0, use_cache, rc;
    tyjson_writer_options wo;
    enc_ctx c;
    size_t len = 0;

    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|$OpOppp", kwlist, &obj, &indent, &sort_keys,
                                     &default_fn, &allow_nan, &skipkeys, &ensure_ascii))
        return NULL;
    memset(&wo, 0, sizeof wo);
    if (indent != Py_None) {
        long n = PyLong_AsLong(indent);
        if (n == -1 && PyErr_Occurred()) return NULL;
        if (n < 1 || n > 64) {
            PyErr_SetString(PyExc_ValueError, "indent must be None or an int from 1 to 64");
            return NULL;
        }
        wo.flags |= TYJSON_WRITE_PRETTY;
        wo.indent = (uint32_t)n;
    }
    if (allow_nan) wo.flags |= TYJSON_WRITE_ALLOW_INF_NAN;
    if (ensure_ascii) wo.flags |= TYJSON_WRITE_ESCAPE_UNICODE;
    if (default_fn != Py_None && !PyCallable_Check(default_fn)) {
        PyErr_SetString(PyExc_TypeError, "default must be callable");
        return NULL;
    }
    use_cache = wo.flags == 0 && !cached_busy;
    if (use_cache) {
        if (!cached_writer) cached_writer = tyjson_writer_new(&wo);
        c.w = cached_writer;
        if (c.w) tyjson_writer_reset(c.w);
        cached_busy = 1;
    } else {
        c.w = tyjson_writer_new(&wo);
    }
    if (!c.w) {
        if (use_cache) cached_busy = 0;
        return PyErr_NoMemory();
    }
    c.default_fn = default_fn == Py_None ? NULL : default_fn;
    c.sort_keys = sort_keys;
    c.skipkeys = skipkeys;
    c.allow_nan = allow_nan;

    rc = enc_value(&c, obj);
    if (rc == 0 && tyjson_writer_finish(c.w, &len) != TYJSON_OK) rc = writer_failed(&c);
    if (rc == 0) {
        if (as_str) res = PyUnicode_DecodeUTF8(tyjson_writer_text(c.w), (Py_ssize_t)len, NULL);
        else res = PyBytes_FromStringAndSize(tyjson_writer_text(c.w), (Py_ssize_t)len);
    }
    if (use_cache) {
        /* a writer grown by one huge text is not kept */
        if (len > ((size_t)1 << 24)) {
            tyjson_writer_free(cached_writer);
            cached_writer = NULL;
        }
        cached_busy = 0;
    } else {
        tyjson_writer_free(c.w);
    }
    return res;
}

PyObject *tyjson_py_dumps(PyObject *self, PyObject *args, PyObject *kwds) {
    (void)self;
    return dumps_common(args, kwds, 0);
}

PyObject *tyjson_py_dumps_str(PyObject *self, PyObject *args, PyObject *kwds) {
    (void)self;
    return dumps_common(args, kwds, 1);
}
