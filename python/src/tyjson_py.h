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

#include <string.h>

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
/* Whether raw number text (TYJSON_TYPE_RAW) is an integer for Python: no
 * fraction and no exponent (loads makes an int of it, else a float). */
int tyjson_py_raw_is_int(const char *s, size_t n);
/* The Python value of a DOM value (new reference), NULL with an exception. */
PyObject *tyjson_py_from_val(tyjson_val *v);
/* The same for a whole document's root, with the cyclic garbage collector
 * paused while the objects are made (loads.c says why). */
PyObject *tyjson_py_from_root(tyjson_val *root);

/* A cache of decoded object keys, shared by the conversions of one scope
 * (one loads, or all records of one iter_lines run) on this thread: begin
 * makes it the thread's cache, end restores the previous one and drops the
 * keys. Both with the GIL held. Direct-mapped: `slots` (a power of two)
 * slots, kept in the record itself up to TYJSON_PY_KEY_SLOTS (loads) or
 * allocated (iter_lines, whose records together hold more distinct keys:
 * twitter statuses have 83, and a 64-slot table missed 46% of them). */
#define TYJSON_PY_KEY_SLOTS 64
#define TYJSON_PY_KEY_MAX 40
typedef struct tyjson_py_key_slot {
    size_t len;
    char bytes[TYJSON_PY_KEY_MAX];
    PyObject *str; /* owned by the cache */
} tyjson_py_key_slot;
typedef struct tyjson_py_keys {
    size_t mask; /* slots - 1 */
    tyjson_py_key_slot *slot;
    tyjson_py_key_slot local[TYJSON_PY_KEY_SLOTS];
    struct tyjson_py_keys *outer;
} tyjson_py_keys;
void tyjson_py_keys_begin(tyjson_py_keys *k, size_t slots);
void tyjson_py_keys_end(tyjson_py_keys *k);
/* The hash of a key of n bytes (its slot: hash & mask). A multiply-mix
 * over 8-byte words; no Python API, so the workers of iter_lines compute
 * it too (flat.c). */
static inline uint64_t tyjson_py_key_hash(const char *s, size_t n) {
    uint64_t h = 0x9E3779B97F4A7C15u ^ (uint64_t)n, w;
    while (n >= 8) {
        memcpy(&w, s, 8);
        h = (h ^ w) * 0xFF51AFD7ED558CCDu;
        h ^= h >> 32;
        s += 8;
        n -= 8;
    }
    if (n) {
        w = 0;
        memcpy(&w, s, n);
        h = (h ^ w) * 0xFF51AFD7ED558CCDu;
    }
    h ^= h >> 29;
    h *= 0xC4CEB9FE1A85EC53u;
    return h ^ (h >> 32);
}
/* A raw number's text (TYJSON_TYPE_RAW) as an int or float. */
PyObject *tyjson_py_raw_number(const char *s, size_t n);

/* flat.c: a record made ready for Python objects on a worker thread
 * (without the GIL; NULL when there is none: the arena out of memory, a
 * count beyond 32 bits), then the objects made from it with the GIL held
 * (NULL with an exception). */
typedef struct tyjson_py_flat tyjson_py_flat;
/* The keys of such a run, numbered per worker (flat.c says why): made and
 * freed with the GIL held, for `threads` workers. */
typedef struct tyjson_py_key_ids tyjson_py_key_ids;
tyjson_py_key_ids *tyjson_py_key_ids_new(unsigned threads);
void tyjson_py_key_ids_free(tyjson_py_key_ids *k);
tyjson_py_flat *tyjson_py_flat_make(const tyjson_doc *doc, tyjson_arena *arena, tyjson_py_key_ids *ids,
                                    unsigned thread);
PyObject *tyjson_py_flat_build(const tyjson_py_flat *fl, tyjson_py_key_ids *ids);

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
