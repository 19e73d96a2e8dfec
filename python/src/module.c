/*
 * module.c - the extension module tyjson._tyjson: its functions, and the
 * standard-library types the encoder recognises, looked up once at import.
 * The package tyjson (tyjson/__init__.py) re-exports it.
 */
#include "tyjson_py.h"

tyjson_py_state tyjson_py_g;

static PyObject *import_attr(const char *mod, const char *name) {
    PyObject *m = PyImport_ImportModule(mod), *a;
    if (!m) return NULL;
    a = PyObject_GetAttrString(m, name);
    Py_DECREF(m);
    return a;
}

static PyMethodDef tyjson_py_methods[] = {
    {"loads", (PyCFunction)(void (*)(void))tyjson_py_loads, METH_VARARGS | METH_KEYWORDS,
     "loads(s, *, allow_nan=False, allow_comments=False, allow_trailing_commas=False)\n"
     "Parses JSON text (str, bytes, bytearray, memoryview) into Python objects."},
    {"validate", (PyCFunction)(void (*)(void))tyjson_py_validate, METH_VARARGS | METH_KEYWORDS,
     "validate(s, *, allow_nan=False, allow_comments=False, allow_trailing_commas=False) -> bool\n"
     "True when loads would accept s (same options), without building objects."},
    {"dumps", (PyCFunction)(void (*)(void))tyjson_py_dumps, METH_VARARGS | METH_KEYWORDS,
     "dumps(obj, *, indent=None, sort_keys=False, default=None, allow_nan=False,\n"
     "      skipkeys=False, ensure_ascii=False) -> bytes\nWrites obj as UTF-8 JSON text."},
    {"dumps_str", (PyCFunction)(void (*)(void))tyjson_py_dumps_str, METH_VARARGS | METH_KEYWORDS,
     "dumps_str(obj, ...) -> str\nAs dumps, returning str."},
    {"_lines_run", (PyCFunction)(void (*)(void))tyjson_py_lines_run, METH_VARARGS | METH_KEYWORDS,
     "_lines_run(source, threads, sink, batch=1024, *, allow_nan=False)\n"
     "NDJSON records of source to sink(list) in order, a bad line as sink(JSONDecodeError);\n"
     "the engine of tyjson.iter_lines."},
    {"_plan", (PyCFunction)tyjson_py_plan, METH_VARARGS,
     "_plan(kind, ...) -> Plan\nA node of a compiled decoding plan (made by tyjson._typed)."},
    {"_typed_setup", (PyCFunction)tyjson_py_typed_setup, METH_VARARGS,
     "_typed_setup(fail_type, key_segment)\nThe helpers of tyjson._typed the plans use."},
    {"_decode_plan", (PyCFunction)tyjson_py_decode_plan, METH_VARARGS,
     "_decode_plan(data, plan)\nParses data as loads does and runs plan over the document."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef tyjson_py_module = {PyModuleDef_HEAD_INIT, "_tyjson",
                                              "tyjson's C core (use the package tyjson).", -1,
                                              tyjson_py_methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__tyjson(void) {
    PyObject *m = PyModule_Create(&tyjson_py_module);
    PyObject *errors;
    if (!m) return NULL;
    /* the exception classes are written in Python (tyjson/_errors.py) so
     * that they pickle and format as json's do */
    errors = PyImport_ImportModule("tyjson._errors");
    if (!errors) goto fail;
    tyjson_py_g.decode_error = PyObject_GetAttrString(errors, "JSONDecodeError");
    tyjson_py_g.encode_error = PyObject_GetAttrString(errors, "JSONEncodeError");
    Py_DECREF(errors);
    tyjson_py_g.enum_type = import_attr("enum", "Enum");
    tyjson_py_g.uuid_type = import_attr("uuid", "UUID");
    tyjson_py_g.decimal_type = import_attr("decimal", "Decimal");
    tyjson_py_g.datetime_type = import_attr("datetime", "datetime");
    tyjson_py_g.date_type = import_attr("datetime", "date");
    tyjson_py_g.time_type = import_attr("datetime", "time");
    tyjson_py_g.dc_fields = import_attr("dataclasses", "fields");
    tyjson_py_g.dc_cache = PyDict_New();
    if (!tyjson_py_g.decode_error || !tyjson_py_g.encode_error || !tyjson_py_g.enum_type ||
        !tyjson_py_g.uuid_type || !tyjson_py_g.decimal_type || !tyjson_py_g.datetime_type ||
        !tyjson_py_g.date_type || !tyjson_py_g.time_type || !tyjson_py_g.dc_fields ||
        !tyjson_py_g.dc_cache)
        goto fail;
    if (tyjson_py_typed_init(m) < 0) goto fail;
    if (PyModule_AddIntConstant(m, "have_threads", tyjson_lines_have_threads()) < 0) goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
