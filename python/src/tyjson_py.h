/*
 * tyjson_py.h - shared declarations of the Python extension tyjson._tyjson.
 *
 * The extension binds only the public C API (include/tyjson.h): loads goes
 * through the DOM parser, dumps through the streaming writer.
 */
#ifndef TYJSON_PY_H
#define TYJSON_PY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "tyjson.h"

/* Objects looked up once at import (module.c) and used by the encoder and
 * the decoder; borrowed from the module state for the module's lifetime. */
typedef struct tyjson_py_state {
    PyObject *decode_error;   /* tyjson.JSONDecodeError (a ValueError) */
    PyObject *encode_error;   /* tyjson.JSONEncodeError (a TypeError) */
    PyObject *enum_type;      /* enum.Enum */
    PyObject *uuid_type;      /* uuid.UUID */
    PyObject *decimal_type;   /* decimal.Decimal */
    PyObject *datetime_type;  /* datetime.datetime */
    PyObject *date_type;      /* datetime.date */
    PyObject *time_type;      /* datetime.time */
    PyObject *dc_fields;      /* dataclasses.fields */
    PyObject *dc_cache;       /* dict: dataclass type -> tuple of field names */
} tyjson_py_state;

extern tyjson_py_state tyjson_py_g;

/* loads.c */
PyObject *tyjson_py_loads(PyObject *self, PyObject *args, PyObject *kwds);
/* validate(s, ...) -> bool: what loads would accept, without building objects. */
PyObject *tyjson_py_validate(PyObject *self, PyObject *args, PyObject *kwds);
/* Raises tyjson.JSONDecodeError for err over the UTF-8 text dat[0..len):
 * pos, lineno and colno count characters when chars is true (str input),
 * bytes otherwise. */
void tyjson_py_raise_decode(const tyjson_error *err, const char *dat, size_t len,
                            PyObject *doc, int chars);
/* The document of src (str or bytes-like) parsed as loads parses it with
 * its default options (the GIL released meanwhile); NULL with
 * JSONDecodeError (or MemoryError) set. */
tyjson_doc *tyjson_py_parse(PyObject *src);
/* The Python value of a DOM value (new reference), NULL with an exception. */
PyObject *tyjson_py_from_val(tyjson_val *v);
/* The same for a whole document's root, with the cyclic garbage collector
 * paused while the objects are made (loads.c says why). */
PyObject *tyjson_py_from_root(tyjson_val *root);

/* A cache of decoded object keys, shared by the conversions of one scope
 * (one loads, or all records of one iter_lines run) on this thread: begin
 * makes it the thread's cache, end restores the previous one and drops the
 * keys. Both with the GIL held. */
#define TYJSON_PY_KEY_SLOTS 64
#define TYJSON_PY_KEY_MAX 24
typedef struct tyjson_py_key_slot {
    size_t len;
    char bytes[TYJSON_PY_KEY_MAX];
    PyObject *str; /* owned by the cache */
} tyjson_py_key_slot;
typedef struct tyjson_py_keys {
    tyjson_py_key_slot slot[TYJSON_PY_KEY_SLOTS];
    struct tyjson_py_keys *outer;
} tyjson_py_keys;
void tyjson_py_keys_begin(tyjson_py_keys *k);
void tyjson_py_keys_end(tyjson_py_keys *k);

/* dumps.c */
PyObject *tyjson_py_dumps(PyObject *self, PyObject *args, PyObject *kwds);
PyObject *tyjson_py_dumps_str(PyObject *self, PyObject *args, PyObject *kwds);

/* typed.c: the compiled plans of tyjson.decode (tyjson/_typed.py). */
PyObject *tyjson_py_plan(PyObject *self, PyObject *args);
PyObject *tyjson_py_typed_setup(PyObject *self, PyObject *args);
PyObject *tyjson_py_decode_plan(PyObject *self, PyObject *args);
int tyjson_py_typed_init(PyObject *m);

/* lines.c */
PyObject *tyjson_py_lines_run(PyObject *self, PyObject *args, PyObject *kwds);

#endif /* TYJSON_PY_H */
