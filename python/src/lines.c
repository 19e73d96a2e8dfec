/*
 * lines.c - the engine of tyjson.iter_lines: one blocking call,
 * _tyjson._lines_run(source, threads, sink, ...), that reads NDJSON with
 * tyjson_lines_parallel_docs and hands the records to `sink` in input order,
 * as lists of up to `batch` Python objects.
 *
 * The GIL is released while the library cuts and parses; the callbacks (on
 * this thread: the records arrive in order) take it back only to turn a
 * document into Python objects, call sink, or read from a Python file. The
 * generator of tyjson/__init__.py runs this call on a thread of its own and
 * takes the batches from a bounded queue, so records are yielded as they
 * are parsed.
 *
 * A bad line is handed to sink as a tyjson.JSONDecodeError (its line, column
 * and byte offset in the whole input) after the records before it; the run
 * stops there. sink returning a true value stops the run too.
 */
#include "tyjson_py.h"

#include <stdio.h>
#include <string.h>

typedef struct lines_run {
    PyThreadState *ts;  /* saved while the GIL is released */
    PyObject *sink;     /* borrowed */
    PyObject *file;     /* borrowed: a binary file read through readinto */
    PyObject *pending;  /* list of records not yet handed to sink */
    Py_ssize_t batch;
    tyjson_py_keys *keys;   /* the run's key cache (documents converted directly) */
    tyjson_py_key_ids *ids; /* the keys numbered by the workers (flat forms), or NULL */
    int failed;         /* a Python exception is set (GIL held when reading it) */
    int stopped;        /* sink asked to stop, or a bad line was delivered */
    int holding;        /* the GIL is held between callbacks (ts is stale) */
} lines_run;

/* On a worker, without the GIL: the record's flat form (flat.c). */
static void *prep_record(void *ctx, const tyjson_lines_item *item, tyjson_arena *arena) {
    return tyjson_py_flat_make(item->doc, arena, ((const lines_run *)ctx)->ids, item->thread);
}

/* Hands the pending records to sink (GIL held). 0, or -1 to stop. */
static int flush_pending(lines_run *r) {
    PyObject *res;
    int stop;
    if (PyList_GET_SIZE(r->pending) == 0) return 0;
    res = PyObject_CallOneArg(r->sink, r->pending);
    Py_SETREF(r->pending, PyList_New(0));
    if (!res || !r->pending) {
        r->failed = 1;
        Py_XDECREF(res);
        return -1;
    }
    stop = PyObject_IsTrue(res);
    Py_DECREF(res);
    if (stop < 0) r->failed = 1;
    if (stop) r->stopped = 1;
    return stop ? -1 : 0;
}

/* A bad line: the records before it, then its error. */
static int deliver_error(lines_run *r, const tyjson_lines_item *item) {
    PyObject *exc, *res;
    PyObject *doc;
    if (flush_pending(r) < 0) return -1;
    doc = item->dat ? PyBytes_FromStringAndSize(item->dat, (Py_ssize_t)item->len) : Py_NewRef(Py_None);
    if (!doc) {
        r->failed = 1;
        return -1;
    }
    exc = PyObject_CallFunction(tyjson_py_g.decode_error, "sOnnns", item->error->msg, doc,
                                (Py_ssize_t)item->error->offset, (Py_ssize_t)item->line,
                                (Py_ssize_t)(item->error->column ? item->error->column : 1),
                                tyjson_status_name(item->error->code));
    Py_DECREF(doc);
    if (!exc) {
        r->failed = 1;
        return -1;
    }
    res = PyObject_CallOneArg(r->sink, exc);
    Py_DECREF(exc);
    if (!res) {
        r->failed = 1;
        return -1;
    }
    Py_DECREF(res);
    r->stopped = 1;
    return -1;
}

/* The run's key cache: 512 slots hold twitter's 83 distinct keys with
 * 5% misses (64 slots: 46%). */
#define LINES_KEY_SLOTS 512

/* The GIL is kept from one record to the next of a batch and let go at
 * its end (item->batch_end), when the library goes back to cutting input
 * or waiting for the workers: taking it per record cost a handoff per
 * record, and each one the consumer thread won made the next record wait
 * for the consumer's switch interval. */
static int on_record(void *ctx, const tyjson_lines_item *item) {
    lines_run *r = (lines_run *)ctx;
    int rc = 0;
    if (!r->holding) PyEval_RestoreThread(r->ts);
    if (item->error) {
        rc = deliver_error(r, item) < 0;
    } else {
        /* no flat form (one thread, or the worker could not make it): the document */
        PyObject *v = item->prepared ? tyjson_py_flat_build((const tyjson_py_flat *)item->prepared, r->ids)
                                     : tyjson_py_from_root(tyjson_doc_get_root(item->doc));
        if (!v || PyList_Append(r->pending, v) < 0) {
            r->failed = 1;
            rc = 1;
        } else if (PyList_GET_SIZE(r->pending) >= r->batch) {
            rc = flush_pending(r) < 0;
        }
        Py_XDECREF(v);
    }
    r->holding = !rc && !item->batch_end;
    if (!r->holding) r->ts = PyEval_SaveThread();
    return rc;
}

/* tyjson_read_fn over a Python binary file: file.readinto(buffer). */
static ptrdiff_t read_file(void *ctx, char *buf, size_t cap) {
    lines_run *r = (lines_run *)ctx;
    ptrdiff_t got = -1;
    PyObject *mv, *res;
    if (!r->holding) PyEval_RestoreThread(r->ts);
    if (!r->failed) {
        mv = PyMemoryView_FromMemory(buf, (Py_ssize_t)cap, PyBUF_WRITE);
        res = mv ? PyObject_CallMethod(r->file, "readinto", "O", mv) : NULL;
        Py_XDECREF(mv);
        if (res) {
            Py_ssize_t n = res == Py_None ? 0 : PyLong_AsSsize_t(res);
            if (n >= 0 && (size_t)n <= cap) got = (ptrdiff_t)n;
            else if (!PyErr_Occurred()) PyErr_SetString(PyExc_OSError, "readinto returned a bad count");
            Py_DECREF(res);
        }
        if (got < 0) r->failed = 1;
    }
    r->holding = 0;
    r->ts = PyEval_SaveThread();
    return got;
}

PyObject *tyjson_py_lines_run(PyObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"source", "threads", "sink", "batch", "allow_nan", NULL};
    PyObject *src, *sink, *path_bytes = NULL;
    unsigned int threads = 1;
    Py_ssize_t batch = 1024;
    int allow_nan = 0, have_view = 0;
    Py_buffer view;
    FILE *fp = NULL;
    lines_run r;
    tyjson_lines_options lo;
    tyjson_lines *it = NULL;
    tyjson_error err;
    tyjson_status st;
    tyjson_py_keys keys;
    (void)self;

    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OIO|n$p:_lines_run", kwlist, &src, &threads, &sink,
                                     &batch, &allow_nan))
        return NULL;
    if (threads < 1 || threads > 256) {
        PyErr_SetString(PyExc_ValueError, "threads must be from 1 to 256");
        return NULL;
    }
    memset(&r, 0, sizeof r);
    memset(&lo, 0, sizeof lo);
    lo.read_flags = TYJSON_READ_BIGNUM_AS_RAW | (allow_nan ? TYJSON_READ_ALLOW_INF_NAN : 0u);
    r.sink = sink;
    r.batch = batch < 1 ? 1 : batch;
    r.pending = PyList_New(0);
    if (!r.pending) return NULL;

    if (PyObject_CheckBuffer(src)) {
        if (PyObject_GetBuffer(src, &view, PyBUF_CONTIG_RO) < 0) goto done;
        have_view = 1;
        it = tyjson_lines_open_buf((const char *)view.buf, (size_t)view.len, &lo, &err);
    } else if (PyUnicode_Check(src) || PyObject_HasAttrString(src, "__fspath__")) {
        if (!PyUnicode_FSConverter(src, &path_bytes)) goto done;
        fp = fopen(PyBytes_AS_STRING(path_bytes), "rb");
        if (!fp) {
            PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, src);
            goto done;
        }
        it = tyjson_lines_open_fp(fp, &lo, &err);
    } else if (PyObject_HasAttrString(src, "readinto")) {
        r.file = src;
        it = tyjson_lines_open_cb(read_file, &r, &lo, &err);
    } else {
        PyErr_Format(PyExc_TypeError, "iter_lines needs bytes, a path or a binary file, not %.100s",
                     Py_TYPE(src)->tp_name);
        goto done;
    }
    if (!it) {
        if (err.code == TYJSON_E_NOMEM) PyErr_NoMemory();
        else PyErr_SetString(PyExc_ValueError, err.msg);
        goto done;
    }
    /* one key cache for the whole run: the records share their keys */
    tyjson_py_keys_begin(&keys, LINES_KEY_SLOTS);
    r.keys = &keys;
    if (threads > 1 && !(r.ids = tyjson_py_key_ids_new(threads))) {
        tyjson_py_keys_end(&keys);
        goto done;
    }
    r.ts = PyEval_SaveThread();
    st = r.ids ? tyjson_lines_parallel_prep(it, threads, prep_record, on_record, &r, &err)
               : tyjson_lines_parallel_docs(it, threads, on_record, &r, &err);
    if (!r.holding) PyEval_RestoreThread(r.ts);
    r.holding = 0;
    tyjson_py_key_ids_free(r.ids);
    tyjson_py_keys_end(&keys);
    if (!r.failed && st == TYJSON_OK) flush_pending(&r);
    if (!r.failed && !r.stopped && st != TYJSON_OK) {
        if (st == TYJSON_E_NOMEM) PyErr_NoMemory();
        else PyErr_Format(PyExc_OSError, "%s", err.msg);
        r.failed = 1;
    }
    if (!r.failed) {
        Py_DECREF(r.pending);
        r.pending = NULL;
    }
done:
    tyjson_lines_free(it);
    if (fp) fclose(fp);
    Py_XDECREF(path_bytes);
    if (have_view) PyBuffer_Release(&view);
    if (r.pending) {
        /* an exception is set: from sink, the conversion, or the source */
        Py_DECREF(r.pending);
        return PyErr_Occurred() ? NULL : (PyErr_SetString(PyExc_SystemError, "tyjson: lines run failed"), NULL);
    }
    Py_RETURN_NONE;
}
