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
/* The Python value of a DOM value (new reference), NULL with an exception. */
PyObject *tyjson_py_from_val(tyjson_val *v);

/* dumps.c */
PyObject *tyjson_py_dumps(PyObject *self, PyObject *args, PyObject *kwds);
PyObject *tyjson_py_dumps_str(PyObject *self, PyObject *args, PyObject *kwds);

/* lines.c */
PyObject *tyjson_py_lines_run(PyObject *self, PyObject *args, PyObject *kwds);

#endif /* TYJSON_PY_H */
