/*
 * typed.c - the compiled plans of tyjson.decode.
 *
 * tyjson/_typed.py compiles a type once into a tree of Plan nodes (made by
 * _tyjson._plan): a dataclass or TypedDict becomes a "fields" node that maps
 * each JSON key to its field's plan, list[T] a "list" node over T's plan,
 * and so on; the rarer leaves (Literal, Enum, datetime, date, Decimal) are
 * "call" nodes holding a Python function. A plan runs two ways:
 *
 *   - over a DOM (_tyjson._decode_plan, behind tyjson.decode): the value is
 *     checked and built straight from the parsed document, with no dicts
 *     and lists made first only to be taken apart again;
 *   - over Python values (calling the plan, behind decoder_for and typed
 *     iter_lines records): the same checks on what loads gave.
 *
 * Both give the same value or the same error: a mismatch raises
 * _typed._Fail (its message; each container on the way out appends its
 * path segment to .parts), which _typed.py turns into a ValidationError.
 * One difference had to be handled: a JSON object may repeat a key, and
 * loads keeps the last value (as json does), so the Python walk never sees
 * the earlier ones, while the DOM walk meets them all. So when the DOM walk
 * fails inside an object that repeats a key, that object is done again the
 * other way (made with loads' rules, then walked as a Python value), which
 * gives exactly the error - or the success - that decode over loads gives.
 */
#include "tyjson_py.h"

#include <string.h>

enum plan_kind {
    PLAN_ANY,
    PLAN_INT,
    PLAN_FLOAT,
    PLAN_STR,
    PLAN_BOOL,
    PLAN_NONE,
    PLAN_LIST,     /* list[item] */
    PLAN_DICT,     /* dict[str, item] */
    PLAN_OPTIONAL, /* None or item */
    PLAN_FIELDS,   /* a dataclass (cls(**fields)) or a TypedDict (the dict) */
    PLAN_UNION,    /* the first member that fits */
    PLAN_CALL      /* fn(value), with value as loads makes it */
};

static const char *const plan_kind_names[] = {"any",  "int",      "float",  "str",   "bool", "none",
                                              "list", "dict",     "optional", "fields", "union", "call"};

typedef struct plan plan;

typedef struct plan_field {
    PyObject *name;   /* str: the JSON key and the field's name */
    const char *utf8; /* name's UTF-8, owned by name */
    Py_ssize_t len;
    plan *p;
} plan_field;

struct plan {
    PyObject_HEAD
    int kind;
    plan *item;         /* LIST, DICT, OPTIONAL */
    PyObject *fn;       /* CALL */
    PyObject *cls;      /* FIELDS: the dataclass, or NULL for a TypedDict */
    PyObject *cls_name; /* FIELDS: str, for messages */
    int forbid_unknown; /* FIELDS */
    int ready;          /* FIELDS: its fields are set */
    plan_field *fields; /* FIELDS */
    Py_ssize_t nfields;
    PyObject *by_name;  /* FIELDS: dict name -> index into fields */
    PyObject *required; /* FIELDS: tuple of names */
    PyObject *members;  /* UNION: tuple of plans */
    PyObject *names;    /* UNION: str "A or B", for messages */
};

/* _typed._Fail and _typed._key_segment, given by _typed.py at import. */
static PyObject *fail_type, *key_segment;
static PyObject *empty_tuple; /* the positional arguments of cls(**kw) */

static PyTypeObject plan_type;

/* ---------------------------------------------------------------------------
 * Failures and their paths
 * ------------------------------------------------------------------------- */

static void raise_fail(PyObject *msg) {
    PyObject *exc;
    if (!msg) return;
    exc = PyObject_CallOneArg(fail_type, msg);
    Py_DECREF(msg);
    if (!exc) return;
    PyErr_SetObject(fail_type, exc);
    Py_DECREF(exc);
}

static void fail_expected(const char *expected, const char *found) {
    raise_fail(PyUnicode_FromFormat("expected %s, found %s", expected, found));
}

/* Whether the pending exception is a _Fail. */
static int failing(void) { return PyErr_ExceptionMatches(fail_type); }

/* Appends a path segment to the pending _Fail's parts: "[i]" for an
 * index, or _key_segment(key) for a key (key NULL for an index). Any other
 * exception passes through untouched. The exception is set aside while the
 * segment is made (no Python code may run with one pending). */
static void add_part(PyObject *key, Py_ssize_t i) {
    PyObject *type, *val, *tb, *parts, *seg;
    if (!failing()) return;
    PyErr_Fetch(&type, &val, &tb);
    PyErr_NormalizeException(&type, &val, &tb);
    seg = key ? PyObject_CallOneArg(key_segment, key) : PyUnicode_FromFormat("[%zd]", i);
    parts = seg && val ? PyObject_GetAttrString(val, "parts") : NULL;
    if (parts) PyList_Append(parts, seg);
    Py_XDECREF(parts);
    Py_XDECREF(seg);
    PyErr_Clear(); /* a failure to make the segment leaves the path shorter, not a new error */
    PyErr_Restore(type, val, tb);
}

static void add_index(Py_ssize_t i) { add_part(NULL, i); }

static void add_key(PyObject *key) { add_part(key, 0); }

/* What _typed._kind says of a Python value. */
static const char *py_kind(PyObject *v) {
    if (v == Py_None) return "null";
    if (PyBool_Check(v)) return "bool";
    if (PyLong_Check(v)) return "integer";
    if (PyFloat_Check(v)) return "number";
    if (PyUnicode_Check(v)) return "string";
    if (PyList_Check(v)) return "array";
    if (PyDict_Check(v)) return "object";
    return Py_TYPE(v)->tp_name;
}

/* The same of a DOM value: the kind of the value loads makes of it. */
static const char *dom_kind(tyjson_val *v) {
    switch (tyjson_get_type(v)) {
    case TYJSON_TYPE_NULL: return "null";
    case TYJSON_TYPE_BOOL: return "bool";
    case TYJSON_TYPE_NUM: return tyjson_is_real(v) ? "number" : "integer";
    case TYJSON_TYPE_RAW: return tyjson_py_raw_is_int(tyjson_get_str(v), tyjson_get_len(v)) ? "integer" : "number";
    case TYJSON_TYPE_STR: return "string";
    case TYJSON_TYPE_ARR: return "array";
    case TYJSON_TYPE_OBJ: return "object";
    default: return "unknown";
    }
}

/* ---------------------------------------------------------------------------
 * A plan over Python values
 * ------------------------------------------------------------------------- */

static PyObject *run_py(plan *p, PyObject *v);

/* dataclass: cls(**kw); TypedDict: kw itself. Steals kw. */
static PyObject *make_record(plan *p, PyObject *kw) {
    Py_ssize_t i, n = PyTuple_GET_SIZE(p->required);
    PyObject *r;
    for (i = 0; i < n; i++) {
        PyObject *name = PyTuple_GET_ITEM(p->required, i);
        int has = PyDict_Contains(kw, name);
        if (has <= 0) {
            if (has == 0)
                raise_fail(PyUnicode_FromFormat("missing required field %R of %U", name, p->cls_name));
            Py_DECREF(kw);
            return NULL;
        }
    }
    if (!p->cls) return kw;
    r = PyObject_Call(p->cls, empty_tuple, kw);
    Py_DECREF(kw);
    return r;
}

static PyObject *fields_py(plan *p, PyObject *v) {
    PyObject *kw, *k, *e;
    Py_ssize_t pos = 0;
    if (!PyDict_CheckExact(v)) {
        fail_expected("an object", py_kind(v));
        return NULL;
    }
    kw = PyDict_New();
    if (!kw) return NULL;
    while (PyDict_Next(v, &pos, &k, &e)) {
        PyObject *idx = PyDict_GetItemWithError(p->by_name, k), *val;
        int rc;
        if (!idx) {
            if (PyErr_Occurred()) goto fail;
            if (p->forbid_unknown) {
                raise_fail(PyUnicode_FromFormat("unknown key %R for %U", k, p->cls_name));
                goto fail;
            }
            continue;
        }
        val = run_py(p->fields[PyLong_AsSsize_t(idx)].p, e);
        if (!val) {
            add_key(k);
            goto fail;
        }
        rc = PyDict_SetItem(kw, k, val);
        Py_DECREF(val);
        if (rc < 0) goto fail;
    }
    return make_record(p, kw);
fail:
    Py_DECREF(kw);
    return NULL;
}

static PyObject *union_py(plan *p, PyObject *v) {
    Py_ssize_t i, n = PyTuple_GET_SIZE(p->members);
    for (i = 0; i < n; i++) {
        PyObject *r = run_py((plan *)PyTuple_GET_ITEM(p->members, i), v);
        if (r || !failing()) return r;
        PyErr_Clear();
    }
    raise_fail(PyUnicode_FromFormat("expected %U, found %s", p->names, py_kind(v)));
    return NULL;
}

static PyObject *run_py_container(plan *p, PyObject *v) {
    switch (p->kind) {
    case PLAN_LIST: {
        Py_ssize_t i, n;
        PyObject *out;
        if (!PyList_CheckExact(v)) {
            fail_expected("an array", py_kind(v));
            return NULL;
        }
        out = PyList_New(0);
        if (!out) return NULL;
        /* by index with the size asked each time: a Python-level conversion
         * (a call plan) may change the list under us, as the Python walk
         * would allow */
        for (i = 0; i < (n = PyList_GET_SIZE(v)); i++) {
            PyObject *e = PyList_GET_ITEM(v, i), *r;
            Py_INCREF(e);
            r = run_py(p->item, e);
            Py_DECREF(e);
            if (!r || PyList_Append(out, r) < 0) {
                Py_XDECREF(r);
                add_index(i);
                Py_DECREF(out);
                return NULL;
            }
            Py_DECREF(r);
        }
        return out;
    }
    case PLAN_DICT: {
        PyObject *out, *k, *e;
        Py_ssize_t pos = 0;
        if (!PyDict_CheckExact(v)) {
            fail_expected("an object", py_kind(v));
            return NULL;
        }
        out = PyDict_New();
        if (!out) return NULL;
        while (PyDict_Next(v, &pos, &k, &e)) {
            PyObject *r = run_py(p->item, e);
            int rc;
            if (!r) {
                add_key(k);
                Py_DECREF(out);
                return NULL;
            }
            rc = PyDict_SetItem(out, k, r);
            Py_DECREF(r);
            if (rc < 0) {
                Py_DECREF(out);
                return NULL;
            }
        }
        return out;
    }
    default: return fields_py(p, v);
    }
}

static PyObject *run_py(plan *p, PyObject *v) {
    switch (p->kind) {
    case PLAN_ANY: return Py_NewRef(v);
    case PLAN_INT:
        if (PyLong_CheckExact(v)) return Py_NewRef(v);
        fail_expected("an integer", py_kind(v));
        return NULL;
    case PLAN_FLOAT:
        if (PyFloat_CheckExact(v)) return Py_NewRef(v);
        if (PyLong_CheckExact(v)) return PyNumber_Float(v);
        fail_expected("a number", py_kind(v));
        return NULL;
    case PLAN_STR:
        if (PyUnicode_CheckExact(v)) return Py_NewRef(v);
        fail_expected("a string", py_kind(v));
        return NULL;
    case PLAN_BOOL:
        if (v == Py_True || v == Py_False) return Py_NewRef(v);
        fail_expected("a bool", py_kind(v));
        return NULL;
    case PLAN_NONE:
        if (v == Py_None) return Py_NewRef(v);
        fail_expected("null", py_kind(v));
        return NULL;
    case PLAN_OPTIONAL: return v == Py_None ? Py_NewRef(v) : run_py(p->item, v);
    case PLAN_UNION: return union_py(p, v);
    case PLAN_CALL: return PyObject_CallOneArg(p->fn, v);
    default: {
        PyObject *r;
        if (Py_EnterRecursiveCall(" while decoding into a type")) return NULL;
        r = run_py_container(p, v);
        Py_LeaveRecursiveCall();
        return r;
    }
    }
}

/* ---------------------------------------------------------------------------
 * A plan over a DOM
 * ------------------------------------------------------------------------- */

static PyObject *run_dom(plan *p, tyjson_val *v);

/* Whether object o repeats a key (looked at only after a failure). */
static int repeats_a_key(tyjson_val *o) {
    tyjson_obj_iter a = tyjson_obj_iter_with(o);
    tyjson_val *k;
    while ((k = tyjson_obj_iter_next(&a))) {
        tyjson_obj_iter b = a;
        tyjson_val *k2;
        while ((k2 = tyjson_obj_iter_next(&b)))
            if (tyjson_get_len(k2) == tyjson_get_len(k) &&
                memcmp(tyjson_get_str(k2), tyjson_get_str(k), tyjson_get_len(k)) == 0)
                return 1;
    }
    return 0;
}

/* After a failure inside object o: when o repeats a key, the failure may
 * be in a value loads would have dropped, so o is done again as loads sees
 * it (see the top of the file); otherwise the failure stands. */
static PyObject *retry_if_repeated(plan *p, tyjson_val *o) {
    PyObject *as_loads, *r;
    if (!failing() || !repeats_a_key(o)) return NULL;
    PyErr_Clear();
    as_loads = tyjson_py_from_val(o);
    if (!as_loads) return NULL;
    r = run_py(p, as_loads);
    Py_DECREF(as_loads);
    return r;
}

/* The field whose name is the key's text, or NULL. */
static plan_field *find_field(plan *p, const char *s, size_t n, Py_ssize_t *hint) {
    Py_ssize_t i, nf = p->nfields;
    /* members usually come in field order: try the one after the last match first */
    if (*hint < nf) {
        plan_field *f = &p->fields[*hint];
        if ((size_t)f->len == n && memcmp(f->utf8, s, n) == 0) return f;
    }
    for (i = 0; i < nf; i++) {
        plan_field *f = &p->fields[i];
        if ((size_t)f->len == n && memcmp(f->utf8, s, n) == 0) {
            *hint = i;
            return f;
        }
    }
    return NULL;
}

static PyObject *fields_dom(plan *p, tyjson_val *o) {
    tyjson_obj_iter it;
    tyjson_val *k;
    PyObject *kw;
    Py_ssize_t hint = 0;
    if (tyjson_get_type(o) != TYJSON_TYPE_OBJ) {
        fail_expected("an object", dom_kind(o));
        return NULL;
    }
    kw = PyDict_New();
    if (!kw) return NULL;
    it = tyjson_obj_iter_with(o);
    while ((k = tyjson_obj_iter_next(&it))) {
        plan_field *f = find_field(p, tyjson_get_str(k), tyjson_get_len(k), &hint);
        PyObject *val;
        int rc;
        if (!f) {
            if (p->forbid_unknown) {
                PyObject *key = PyUnicode_DecodeUTF8(tyjson_get_str(k), (Py_ssize_t)tyjson_get_len(k), NULL);
                if (key) {
                    raise_fail(PyUnicode_FromFormat("unknown key %R for %U", key, p->cls_name));
                    Py_DECREF(key);
                }
                goto fail;
            }
            continue;
        }
        hint++;
        val = run_dom(f->p, tyjson_obj_iter_get_val(k));
        if (!val) {
            add_key(f->name);
            goto fail;
        }
        rc = PyDict_SetItem(kw, f->name, val); /* a repeated key: the last wins */
        Py_DECREF(val);
        if (rc < 0) goto fail;
    }
    {
        PyObject *r = make_record(p, kw);
        if (!r) return retry_if_repeated(p, o);
        return r;
    }
fail:
    Py_DECREF(kw);
    return retry_if_repeated(p, o);
}

static PyObject *dict_dom(plan *p, tyjson_val *o) {
    tyjson_obj_iter it;
    tyjson_val *k;
    PyObject *out;
    if (tyjson_get_type(o) != TYJSON_TYPE_OBJ) {
        fail_expected("an object", dom_kind(o));
        return NULL;
    }
    out = PyDict_New();
    if (!out) return NULL;
    it = tyjson_obj_iter_with(o);
    while ((k = tyjson_obj_iter_next(&it))) {
        PyObject *key = PyUnicode_DecodeUTF8(tyjson_get_str(k), (Py_ssize_t)tyjson_get_len(k), NULL), *r;
        int rc;
        if (!key) goto fail;
        r = run_dom(p->item, tyjson_obj_iter_get_val(k));
        if (!r) {
            add_key(key);
            Py_DECREF(key);
            goto fail;
        }
        rc = PyDict_SetItem(out, key, r);
        Py_DECREF(key);
        Py_DECREF(r);
        if (rc < 0) goto fail;
    }
    return out;
fail:
    Py_DECREF(out);
    return retry_if_repeated(p, o);
}

static PyObject *list_dom(plan *p, tyjson_val *a) {
    tyjson_arr_iter it;
    tyjson_val *e;
    PyObject *out;
    Py_ssize_t i = 0;
    if (tyjson_get_type(a) != TYJSON_TYPE_ARR) {
        fail_expected("an array", dom_kind(a));
        return NULL;
    }
    out = PyList_New((Py_ssize_t)tyjson_arr_size(a));
    if (!out) return NULL;
    it = tyjson_arr_iter_with(a);
    while ((e = tyjson_arr_iter_next(&it))) {
        PyObject *r = run_dom(p->item, e);
        if (!r) {
            add_index(i);
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, r);
        i++;
    }
    return out;
}

static PyObject *union_dom(plan *p, tyjson_val *v) {
    Py_ssize_t i, n = PyTuple_GET_SIZE(p->members);
    for (i = 0; i < n; i++) {
        PyObject *r = run_dom((plan *)PyTuple_GET_ITEM(p->members, i), v);
        if (r || !failing()) return r;
        PyErr_Clear();
    }
    raise_fail(PyUnicode_FromFormat("expected %U, found %s", p->names, dom_kind(v)));
    return NULL;
}

/* A number as loads makes it, when it is an integer; NULL (no exception)
 * when it is not one. */
static PyObject *dom_int(tyjson_val *v, int *is_int) {
    tyjson_type t = tyjson_get_type(v);
    *is_int = 0;
    if (t == TYJSON_TYPE_NUM) {
        if (tyjson_is_uint(v)) {
            *is_int = 1;
            return PyLong_FromUnsignedLongLong(tyjson_get_uint(v));
        }
        if (tyjson_is_sint(v)) {
            *is_int = 1;
            return PyLong_FromLongLong(tyjson_get_sint(v));
        }
        return NULL;
    }
    if (t == TYJSON_TYPE_RAW && dom_kind(v)[0] == 'i') {
        *is_int = 1;
        return tyjson_py_from_val(v);
    }
    return NULL;
}

static PyObject *run_dom(plan *p, tyjson_val *v) {
    tyjson_type t = tyjson_get_type(v);
    switch (p->kind) {
    case PLAN_ANY: return tyjson_py_from_val(v);
    case PLAN_INT: {
        int is_int;
        PyObject *r = dom_int(v, &is_int);
        if (!is_int) fail_expected("an integer", dom_kind(v));
        return r;
    }
    case PLAN_FLOAT: {
        int is_int;
        PyObject *r;
        if (t == TYJSON_TYPE_NUM && tyjson_is_real(v)) return PyFloat_FromDouble(tyjson_get_real(v));
        if (t == TYJSON_TYPE_RAW && dom_kind(v)[0] == 'n') return tyjson_py_from_val(v);
        /* float(int), as the Python walk does; a 64-bit value converts
         * with the same round-to-nearest-even as Python's int -> float */
        if (t == TYJSON_TYPE_NUM && tyjson_is_uint(v)) return PyFloat_FromDouble((double)tyjson_get_uint(v));
        if (t == TYJSON_TYPE_NUM && tyjson_is_sint(v)) return PyFloat_FromDouble((double)tyjson_get_sint(v));
        r = dom_int(v, &is_int);
        if (!is_int) {
            fail_expected("a number", dom_kind(v));
            return NULL;
        }
        if (r) {
            PyObject *f = PyNumber_Float(r); /* may raise OverflowError, as float(int) does */
            Py_DECREF(r);
            r = f;
        }
        return r;
    }
    case PLAN_STR:
        if (t == TYJSON_TYPE_STR)
            return PyUnicode_DecodeUTF8(tyjson_get_str(v), (Py_ssize_t)tyjson_get_len(v), NULL);
        fail_expected("a string", dom_kind(v));
        return NULL;
    case PLAN_BOOL:
        if (t == TYJSON_TYPE_BOOL) return PyBool_FromLong(tyjson_get_bool(v));
        fail_expected("a bool", dom_kind(v));
        return NULL;
    case PLAN_NONE:
        if (t == TYJSON_TYPE_NULL) Py_RETURN_NONE;
        fail_expected("null", dom_kind(v));
        return NULL;
    case PLAN_OPTIONAL:
        if (t == TYJSON_TYPE_NULL) Py_RETURN_NONE;
        return run_dom(p->item, v);
    case PLAN_UNION: return union_dom(p, v);
    case PLAN_CALL: {
        PyObject *as_loads = tyjson_py_from_val(v), *r;
        if (!as_loads) return NULL;
        r = PyObject_CallOneArg(p->fn, as_loads);
        Py_DECREF(as_loads);
        return r;
    }
    /* no recursion guard: the parser's depth limit bounds the document,
     * so decoding follows it as deep as it was accepted (Python's
     * recursion limit, about 1000, is below the parser's 1024) */
    case PLAN_LIST: return list_dom(p, v);
    case PLAN_DICT: return dict_dom(p, v);
    default: return fields_dom(p, v);
    }
}

/* ---------------------------------------------------------------------------
 * The Plan type
 * ------------------------------------------------------------------------- */

static void fields_clear(plan *p) {
    Py_ssize_t i;
    for (i = 0; i < p->nfields; i++) {
        Py_CLEAR(p->fields[i].name);
        Py_CLEAR(p->fields[i].p);
    }
    PyMem_Free(p->fields);
    p->fields = NULL;
    p->nfields = 0;
}

/* Plans of recursive types refer to themselves (a Node's children are
 * list[Node]), so plans take part in the cyclic collector. */
static int plan_traverse(plan *p, visitproc visit, void *arg) {
    Py_ssize_t i;
    Py_VISIT(p->item);
    Py_VISIT(p->fn);
    Py_VISIT(p->cls);
    Py_VISIT(p->cls_name);
    Py_VISIT(p->by_name);
    Py_VISIT(p->required);
    Py_VISIT(p->members);
    Py_VISIT(p->names);
    for (i = 0; i < p->nfields; i++) Py_VISIT(p->fields[i].p);
    return 0;
}

static int plan_clear(plan *p) {
    Py_CLEAR(p->item);
    Py_CLEAR(p->fn);
    Py_CLEAR(p->cls);
    Py_CLEAR(p->cls_name);
    Py_CLEAR(p->by_name);
    Py_CLEAR(p->required);
    Py_CLEAR(p->members);
    Py_CLEAR(p->names);
    fields_clear(p);
    return 0;
}

static void plan_dealloc(plan *p) {
    PyObject_GC_UnTrack(p);
    plan_clear(p);
    Py_TYPE(p)->tp_free((PyObject *)p);
}

static int ready(plan *p) {
    if (p->kind == PLAN_FIELDS && !p->ready) {
        PyErr_SetString(PyExc_RuntimeError, "tyjson: a plan used before its fields were set");
        return 0;
    }
    return 1;
}

/* plan(value): the plan over a Python value (as loads makes them). */
static PyObject *plan_call(plan *p, PyObject *args, PyObject *kwds) {
    PyObject *v;
    if (kwds && PyDict_GET_SIZE(kwds)) {
        PyErr_SetString(PyExc_TypeError, "a plan takes one positional argument");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "O:plan", &v) || !ready(p)) return NULL;
    return run_py(p, v);
}

static PyObject *plan_repr(plan *p) {
    if (p->kind == PLAN_FIELDS) return PyUnicode_FromFormat("<tyjson plan fields %U>", p->cls_name);
    return PyUnicode_FromFormat("<tyjson plan %s>", plan_kind_names[p->kind]);
}

static PyObject *plan_get_kind(plan *p, void *closure) {
    (void)closure;
    return PyUnicode_FromString(plan_kind_names[p->kind]);
}

/* The plans a plan is made of, for tests: (item,) for list, dict and
 * optional, the field plans in order for fields, the members for a union. */
static PyObject *plan_get_parts(plan *p, void *closure) {
    Py_ssize_t i;
    PyObject *t;
    (void)closure;
    if (p->item) return PyTuple_Pack(1, (PyObject *)p->item);
    if (p->members) return Py_NewRef(p->members);
    t = PyTuple_New(p->nfields);
    if (!t) return NULL;
    for (i = 0; i < p->nfields; i++) PyTuple_SET_ITEM(t, i, Py_NewRef((PyObject *)p->fields[i].p));
    return t;
}

/* set_fields(((name, plan), ...), required): completes a fields plan made
 * before its fields were compiled (a field may refer back to it). */
static PyObject *plan_set_fields(plan *p, PyObject *args) {
    PyObject *items, *required, *by_name;
    Py_ssize_t i, n;
    plan_field *fields;
    if (!PyArg_ParseTuple(args, "O!O!:set_fields", &PyTuple_Type, &items, &PyTuple_Type, &required))
        return NULL;
    if (p->kind != PLAN_FIELDS || p->ready) {
        PyErr_SetString(PyExc_ValueError, "set_fields: not an unfinished fields plan");
        return NULL;
    }
    n = PyTuple_GET_SIZE(items);
    fields = (plan_field *)PyMem_Calloc((size_t)(n ? n : 1), sizeof *fields);
    by_name = PyDict_New();
    if (!fields || !by_name) {
        PyMem_Free(fields);
        Py_XDECREF(by_name);
        return PyErr_NoMemory();
    }
    p->fields = fields;
    for (i = 0; i < n; i++) {
        PyObject *it = PyTuple_GET_ITEM(items, i), *name, *fp, *idx;
        int rc;
        if (!PyTuple_Check(it) || PyTuple_GET_SIZE(it) != 2 || !PyUnicode_CheckExact(PyTuple_GET_ITEM(it, 0)) ||
            !PyObject_TypeCheck(PyTuple_GET_ITEM(it, 1), &plan_type)) {
            PyErr_SetString(PyExc_TypeError, "set_fields: items must be (str, plan) pairs");
            goto fail;
        }
        /* interned: cls(**kw) matches keywords to the parameters of
         * __init__ (interned names) by identity first, by comparing text
         * only when that fails */
        name = Py_NewRef(PyTuple_GET_ITEM(it, 0));
        PyUnicode_InternInPlace(&name);
        fields[i].name = name;
        p->nfields = i + 1; /* from here on fields_clear releases it */
        fp = PyTuple_GET_ITEM(it, 1);
        fields[i].utf8 = PyUnicode_AsUTF8AndSize(name, &fields[i].len);
        if (!fields[i].utf8) goto fail;
        fields[i].p = (plan *)Py_NewRef(fp);
        idx = PyLong_FromSsize_t(i);
        if (!idx) goto fail;
        rc = PyDict_SetItem(by_name, name, idx);
        Py_DECREF(idx);
        if (rc < 0) goto fail;
    }
    p->by_name = by_name;
    p->required = Py_NewRef(required);
    p->ready = 1;
    Py_RETURN_NONE;
fail:
    fields_clear(p);
    Py_DECREF(by_name);
    return NULL;
}

static PyMethodDef plan_methods[] = {
    {"set_fields", (PyCFunction)plan_set_fields, METH_VARARGS,
     "set_fields(((name, plan), ...), required): the fields of a fields plan"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef plan_getset[] = {{"kind", (getter)plan_get_kind, NULL, "the node's kind", NULL},
                                    {"parts", (getter)plan_get_parts, NULL, "the plans it is made of", NULL},
                                    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject plan_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tyjson._tyjson.Plan",
    .tp_basicsize = sizeof(plan),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "A compiled decoding plan (made by tyjson._typed; call it on a parsed value).",
    .tp_dealloc = (destructor)plan_dealloc,
    .tp_traverse = (traverseproc)plan_traverse,
    .tp_clear = (inquiry)plan_clear,
    .tp_call = (ternaryfunc)plan_call,
    .tp_repr = (reprfunc)plan_repr,
    .tp_methods = plan_methods,
    .tp_getset = plan_getset,
};

static plan *plan_new(int kind) {
    plan *p = PyObject_GC_New(plan, &plan_type);
    if (!p) return NULL;
    p->kind = kind;
    p->item = NULL;
    p->fn = p->cls = p->cls_name = p->by_name = p->required = p->members = p->names = NULL;
    p->forbid_unknown = 0;
    p->ready = 0;
    p->fields = NULL;
    p->nfields = 0;
    PyObject_GC_Track(p);
    return p;
}

/* _plan(kind, *args): a node. "any", "int", "float", "str", "bool", "none";
 * "list"/"dict"/"optional" (item plan); "call" (fn); "union" (tuple of
 * plans, names); "fields" (cls or None, name, forbid_unknown), finished
 * later by set_fields. */
PyObject *tyjson_py_plan(PyObject *self, PyObject *args) {
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    const char *kname;
    int kind;
    plan *p;
    PyObject *a1 = NULL, *a2 = NULL, *a3 = NULL;
    (void)self;
    if (n < 1 || !PyUnicode_Check(PyTuple_GET_ITEM(args, 0))) {
        PyErr_SetString(PyExc_TypeError, "_plan(kind, ...)");
        return NULL;
    }
    kname = PyUnicode_AsUTF8(PyTuple_GET_ITEM(args, 0));
    if (!kname) return NULL;
    for (kind = 0; kind <= PLAN_CALL; kind++)
        if (strcmp(kname, plan_kind_names[kind]) == 0) break;
    if (kind > PLAN_CALL) {
        PyErr_Format(PyExc_ValueError, "_plan: unknown kind %s", kname);
        return NULL;
    }
    if (n > 4) goto bad;
    if (n > 1) a1 = PyTuple_GET_ITEM(args, 1);
    if (n > 2) a2 = PyTuple_GET_ITEM(args, 2);
    if (n > 3) a3 = PyTuple_GET_ITEM(args, 3);
    switch (kind) {
    case PLAN_LIST:
    case PLAN_DICT:
    case PLAN_OPTIONAL:
        if (n != 2 || !PyObject_TypeCheck(a1, &plan_type)) goto bad;
        break;
    case PLAN_CALL:
        if (n != 2 || !PyCallable_Check(a1)) goto bad;
        break;
    case PLAN_UNION:
        if (n != 3 || !PyTuple_Check(a1) || !PyUnicode_Check(a2)) goto bad;
        {
            Py_ssize_t i;
            for (i = 0; i < PyTuple_GET_SIZE(a1); i++)
                if (!PyObject_TypeCheck(PyTuple_GET_ITEM(a1, i), &plan_type)) goto bad;
        }
        break;
    case PLAN_FIELDS:
        if (n != 4 || !PyUnicode_Check(a2)) goto bad;
        break;
    default:
        if (n != 1) goto bad;
    }
    p = plan_new(kind);
    if (!p) return NULL;
    switch (kind) {
    case PLAN_LIST:
    case PLAN_DICT:
    case PLAN_OPTIONAL: p->item = (plan *)Py_NewRef(a1); break;
    case PLAN_CALL: p->fn = Py_NewRef(a1); break;
    case PLAN_UNION:
        p->members = Py_NewRef(a1);
        p->names = Py_NewRef(a2);
        break;
    case PLAN_FIELDS:
        p->cls = a1 == Py_None ? NULL : Py_NewRef(a1);
        p->cls_name = Py_NewRef(a2);
        p->forbid_unknown = PyObject_IsTrue(a3);
        if (p->forbid_unknown < 0) {
            Py_DECREF(p);
            return NULL;
        }
        break;
    default: p->ready = 1;
    }
    if (kind != PLAN_FIELDS) p->ready = 1;
    return (PyObject *)p;
bad:
    PyErr_Format(PyExc_TypeError, "_plan: bad arguments for kind %s", kname);
    return NULL;
}

/* _typed_setup(fail_type, key_segment): the Python half's helpers. */
PyObject *tyjson_py_typed_setup(PyObject *self, PyObject *args) {
    PyObject *f, *ks;
    (void)self;
    if (!PyArg_ParseTuple(args, "OO:_typed_setup", &f, &ks)) return NULL;
    Py_XSETREF(fail_type, Py_NewRef(f));
    Py_XSETREF(key_segment, Py_NewRef(ks));
    Py_RETURN_NONE;
}

/* _decode_plan(data, plan): data parsed as loads parses it, then the plan
 * run over the document. The cyclic collector is paused meanwhile, as for
 * loads (the objects made form no cycles); dataclass __init__ methods and
 * call plans run during the pause, and see the collector's state as
 * disabled. */
PyObject *tyjson_py_decode_plan(PyObject *self, PyObject *args) {
    PyObject *src, *pobj, *r;
    tyjson_doc *doc;
    (void)self;
    if (!PyArg_ParseTuple(args, "OO!:_decode_plan", &src, &plan_type, &pobj)) return NULL;
    if (!fail_type) {
        PyErr_SetString(PyExc_RuntimeError, "tyjson: _typed_setup was not called");
        return NULL;
    }
    if (!ready((plan *)pobj)) return NULL;
    doc = tyjson_py_parse(src);
    if (!doc) return NULL;
    {
#if PY_VERSION_HEX >= 0x030A0000
        int was_enabled = PyGC_Disable();
        r = run_dom((plan *)pobj, tyjson_doc_get_root(doc));
        if (was_enabled) PyGC_Enable();
#else
        r = run_dom((plan *)pobj, tyjson_doc_get_root(doc));
#endif
    }
    tyjson_doc_free(doc);
    return r;
}

int tyjson_py_typed_init(PyObject *m) {
    if (PyType_Ready(&plan_type) < 0) return -1;
    empty_tuple = PyTuple_New(0);
    if (!empty_tuple) return -1;
    Py_INCREF(&plan_type);
    if (PyModule_AddObject(m, "Plan", (PyObject *)&plan_type) < 0) {
        Py_DECREF(&plan_type);
        return -1;
    }
    return 0;
}
