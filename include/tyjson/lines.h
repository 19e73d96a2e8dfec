/*
 * tyjson/lines.h - NDJSON (newline-delimited JSON): an iterator over the
 * records of a buffer, a FILE*, a file descriptor or a read callback, as
 * documents or as typed structs, and a parallel mode that parses or decodes
 * the records on several threads.
 *
 * One record per line. A line ends at LF; a CR before it is whitespace, so
 * CRLF files read the same. Lines holding only spaces, tabs and CRs are
 * skipped (they still count in line numbers). The last line needs no
 * newline. A line holding two values is TYJSON_E_TRAILING. Each line is
 * parsed with tyjson_read_opts (documents) or tyjson_decode (structs), with
 * the same flags and limits, the newline included ("nul" then a newline is
 * TYJSON_E_LITERAL, as in a file holding just that line).
 *
 * Errors of a line are resumable: the next call reads the next line. Their
 * tyjson_error holds the real line in the input, the column in that line
 * and the byte offset in the whole input. With TYJSON_LINES_CONTINUE bad
 * lines are skipped instead and the first `max_errors` of their errors are
 * kept in the iterator (tyjson_lines_errors).
 *
 * Memory: a stream is read through a window (64 KiB by default) that grows
 * to hold the longest line; with `max_line` a longer line is an error
 * (TYJSON_E_SIZE) and is skipped without being held, so memory is bounded by
 * max_line whatever the input. A buffer is read in place.
 *
 * Thread-safety: an iterator belongs to one thread at a time; the parallel
 * calls start and join their own threads inside the call.
 */
#ifndef TYJSON_LINES_H
#define TYJSON_LINES_H

#include "common.h"
#include "dom.h"
#include "bind.h"

#ifdef __cplusplus
extern "C" {
#endif

/** An NDJSON iterator (opaque): from tyjson_lines_open_*, released by
 *  tyjson_lines_free. */
typedef struct tyjson_lines tyjson_lines;

/** A set of TYJSON_LINES_* bits, combined with `|`. */
typedef uint32_t tyjson_lines_flags;
/** Skip bad lines instead of returning their error: the next_* calls
 *  return only records (and TYJSON_DONE, or an I/O or memory error); the
 *  first max_errors errors are kept (tyjson_lines_errors) and every bad line
 *  is counted (tyjson_lines_bad_lines). */
#define TYJSON_LINES_CONTINUE (1u << 0)
/** Parallel calls: call the callback from the worker threads as records
 *  are ready (with the worker's index), not from the calling thread in
 *  input order. */
#define TYJSON_LINES_PER_THREAD (1u << 1)

/** Default read window of the stream sources, in bytes. */
#define TYJSON_LINES_DEFAULT_WINDOW 65536u

/** Options of an iterator; all zero (or a NULL pointer) is strict parsing,
 *  the default depth, libc memory, a 64 KiB window, no line length limit
 *  and stopping at nothing (each bad line returns its error). */
typedef struct tyjson_lines_options {
    /** TYJSON_READ_* bits for every line (TYJSON_READ_STOP_WHEN_DONE is
     *  TYJSON_E_INVALID_ARG: a line holds one value). With
     *  TYJSON_READ_ALLOW_BOM a byte order mark is skipped at the start of
     *  the input only. */
    tyjson_read_flags read_flags;
    /** Maximum nesting; 0 means TYJSON_DEFAULT_MAX_DEPTH. */
    uint32_t max_depth;
    /** TYJSON_LINES_* bits. */
    tyjson_lines_flags flags;
    /** Allocator for the iterator, its window and the documents; NULL = libc. */
    const tyjson_alloc *alc;
    /** Longest line accepted, in bytes without its CR LF; 0 = no limit. A
     *  longer line is TYJSON_E_SIZE (a bad line). */
    size_t max_line;
    /** Bytes read from a stream source per call; 0 = TYJSON_LINES_DEFAULT_WINDOW. */
    size_t window;
    /** With TYJSON_LINES_CONTINUE: how many errors to keep (0 keeps none;
     *  the bad lines are still counted). */
    size_t max_errors;
} tyjson_lines_options;

/**
 * Opens an iterator over `len` bytes at `dat`, read in place: the buffer
 * must stay unchanged until tyjson_lines_free. NULL with len 0 is empty
 * input (the first call gives TYJSON_DONE).
 * @return the iterator, or NULL with err filled: TYJSON_E_INVALID_ARG (NULL
 *   dat with len > 0, STOP_WHEN_DONE, unknown read or lines flags),
 *   TYJSON_E_NOMEM.
 */
TYJSON_API tyjson_lines *tyjson_lines_open_buf(const char *dat, size_t len,
                                               const tyjson_lines_options *opts,
                                               tyjson_error *err);
/** Opens an iterator reading `fp` from where it is (files and pipes); the
 *  stream stays the caller's and open. Errors as tyjson_lines_open_buf; a
 *  NULL fp is TYJSON_E_INVALID_ARG. */
TYJSON_API tyjson_lines *tyjson_lines_open_fp(FILE *fp, const tyjson_lines_options *opts,
                                              tyjson_error *err);
/** Opens an iterator reading the file descriptor `fd` (read(2), retried on
 *  EINTR); the descriptor stays the caller's. A negative fd is
 *  TYJSON_E_INVALID_ARG. */
TYJSON_API tyjson_lines *tyjson_lines_open_fd(int fd, const tyjson_lines_options *opts,
                                              tyjson_error *err);
/** Opens an iterator over bytes from `fn` (tyjson_read_fn: any count from
 *  1 to cap at a time, 0 at the end, -1 on failure, which the iterator
 *  returns as TYJSON_E_IO). A NULL fn is TYJSON_E_INVALID_ARG. */
TYJSON_API tyjson_lines *tyjson_lines_open_cb(tyjson_read_fn fn, void *ctx,
                                              const tyjson_lines_options *opts,
                                              tyjson_error *err);

/** Releases the iterator (not the documents it returned). NULL is ignored. */
TYJSON_API void tyjson_lines_free(tyjson_lines *it);

/**
 * Reads the next record as a document.
 * @param doc  receives the document (the caller's: tyjson_doc_free), or
 *   NULL on anything but TYJSON_OK. A NULL doc validates the line
 *   (tyjson_validate: same verdicts and errors) without building one.
 * @return TYJSON_OK; TYJSON_DONE at the end of the input (again on every
 *   later call); a bad line's error (resumable: the next call goes on with
 *   the next line; not returned with TYJSON_LINES_CONTINUE); TYJSON_E_IO
 *   when the source fails and TYJSON_E_NOMEM when memory runs out, which
 *   end the iteration (every later call returns the same code);
 *   TYJSON_E_INVALID_ARG for a NULL it.
 */
TYJSON_API tyjson_status tyjson_lines_next_doc(tyjson_lines *it, tyjson_doc **doc,
                                               tyjson_error *err);

/**
 * Reads the next record into *out, a struct described by `type`, with
 * tyjson_decode (the iterator's read flags and depth, `flags` as
 * tyjson_decode_options.flags). Strings and arrays go to `arena`, which the
 * iterator never resets: reset it between records once a record is no
 * longer needed, and memory stays that of one record. Returns as
 * tyjson_lines_next_doc; a line that does not decode (TYJSON_E_TYPE,
 * _MISSING_KEY, ...) is a bad line, its error with the JSON path.
 */
TYJSON_API tyjson_status tyjson_lines_next_decode(tyjson_lines *it, tyjson_struct *type,
                                                  void *out, tyjson_arena *arena,
                                                  tyjson_decode_flags flags,
                                                  tyjson_error *err);

/**
 * Reads the next non-blank line without parsing it: *dat and *len receive
 * its bytes (the CR LF not included), valid until the next call on the
 * iterator. Returns TYJSON_OK, TYJSON_DONE, TYJSON_E_SIZE for a line longer
 * than max_line (a bad line, also kept and skipped with
 * TYJSON_LINES_CONTINUE), TYJSON_E_IO, TYJSON_E_NOMEM.
 */
TYJSON_API tyjson_status tyjson_lines_next_line(tyjson_lines *it, const char **dat,
                                                size_t *len, tyjson_error *err);

/** The current record: its bytes (valid until the next call), after any
 *  next_* call that framed a line, good or bad; NULL (lengths 0) before the
 *  first, after TYJSON_DONE, and for a line longer than max_line. *len
 *  receives its length without the line end, *full with it (the CR LF or
 *  LF that follow the bytes, none on a last line without one): what the
 *  parser was given. len and full may be NULL. */
TYJSON_API const char *tyjson_lines_record(const tyjson_lines *it, size_t *len, size_t *full);
/** 1-based line number of the current record in the input; 0 before the
 *  first. */
TYJSON_API size_t tyjson_lines_line(const tyjson_lines *it);
/** Byte offset of the current record's first byte in the whole input. */
TYJSON_API size_t tyjson_lines_offset(const tyjson_lines *it);
/** Records returned so far (TYJSON_OK results). */
TYJSON_API size_t tyjson_lines_records(const tyjson_lines *it);
/** Bad lines met so far (returned, or skipped with TYJSON_LINES_CONTINUE). */
TYJSON_API size_t tyjson_lines_bad_lines(const tyjson_lines *it);
/** The kept errors of skipped lines (TYJSON_LINES_CONTINUE), in input
 *  order; *count receives how many (at most max_errors). Valid until the
 *  next call on the iterator. NULL when there are none. */
TYJSON_API const tyjson_error *tyjson_lines_errors(const tyjson_lines *it, size_t *count);

/* ----------------------------------------------------------------------------
 * MARK: - Parallel
 * ------------------------------------------------------------------------- */

/** One record handed to a parallel callback. Everything in it is valid
 *  during the call only. */
typedef struct tyjson_lines_item {
    /** tyjson_lines_parallel_docs: the document (freed when the callback
     *  returns), NULL for a bad line. */
    tyjson_doc *doc;
    /** tyjson_lines_parallel_decode: the decoded struct, NULL for a bad line. */
    void *value;
    /** A bad line's error (without TYJSON_LINES_CONTINUE), else NULL. */
    const tyjson_error *error;
    /** 1-based line number in the input. */
    size_t line;
    /** Byte offset of the line in the whole input. */
    size_t offset;
    /** The line's bytes and length without its line end (NULL, 0 for a
     *  line longer than max_line); `full` is the length with it. */
    const char *dat;
    size_t len;
    size_t full;
    /** Index of the worker thread that parsed the record, 0..threads-1. */
    unsigned thread;
    /** tyjson_lines_parallel_prep: what the preparation hook returned for
     *  this record (NULL for a bad line, and in the other calls). */
    void *prepared;
    /** True when the call goes on with other work (cutting or reading
     *  input, waiting for the workers) before the next callback: in input
     *  order, on the last record delivered of each batch; always with
     *  TYJSON_LINES_PER_THREAD. A callback that takes a lock for its
     *  records (a language runtime's global lock) may keep it across a
     *  batch's records and let it go here. */
    bool batch_end;
} tyjson_lines_item;

/** A parallel callback: return 0 to go on, non-zero to stop (the call then
 *  returns TYJSON_E_CALLBACK). */
typedef int (*tyjson_lines_fn)(void *ctx, const tyjson_lines_item *item);

/**
 * Reads the rest of the iterator's input and parses its records on
 * `threads` worker threads (0 means 2): the calling thread cuts the input
 * into batches of whole lines (copied from a stream source, in place for a
 * buffer) and the workers parse them. The callback receives every record,
 * and every bad line's error unless TYJSON_LINES_CONTINUE is set (then they
 * are kept in the iterator as by the sequential calls). By default the
 * callback runs on the calling thread, in input order, and the workers run
 * at most a few batches ahead, so memory stays bounded; with
 * TYJSON_LINES_PER_THREAD it runs on the workers, concurrently, in no
 * particular order (the callback must then be thread-safe).
 * The records, line numbers, offsets, errors and counts are exactly those
 * of a sequential loop over tyjson_lines_next_doc.
 * One thread (or a build without pthreads: tyjson_lines_have_threads()
 * returns 0) parses on the calling thread, in order, thread index 0. Batch
 * k goes to worker k % threads. The allocator must be thread-safe.
 * @return TYJSON_OK when the input is finished (the iterator is then at
 *   TYJSON_DONE); TYJSON_E_CALLBACK when the callback stopped it (after
 *   the records in flight are dropped); TYJSON_E_IO, TYJSON_E_NOMEM (after
 *   the records before it are delivered); TYJSON_E_INVALID_ARG for a NULL
 *   it or fn; TYJSON_E_STATE when the iterator already failed.
 */
TYJSON_API tyjson_status tyjson_lines_parallel_docs(tyjson_lines *it, unsigned threads,
                                                    tyjson_lines_fn fn, void *ctx,
                                                    tyjson_error *err);

/**
 * As tyjson_lines_parallel_docs, decoding each record into a struct
 * described by `type` (tyjson_decode with `flags` and the iterator's read
 * flags and depth); item->value points at it, in memory of the batch
 * (arenas of the library's own, reused batch after batch).
 */
TYJSON_API tyjson_status tyjson_lines_parallel_decode(tyjson_lines *it, unsigned threads,
                                                      tyjson_struct *type,
                                                      tyjson_decode_flags flags,
                                                      tyjson_lines_fn fn, void *ctx,
                                                      tyjson_error *err);

/** A preparation hook of tyjson_lines_parallel_prep: called for every good
 *  record on the worker that parsed it, right after the parse, with
 *  item->doc, dat, len, full, offset and thread set (line is 0: lines are
 *  numbered at delivery). Its result reaches the callback as
 *  item->prepared. `arena` is memory of the record's batch, for the
 *  result: it stays valid until the callback for the record returns (the
 *  batch is reset when it is reused). Runs concurrently on the workers, so
 *  it must be thread-safe; it cannot stop the run (a failure is for the
 *  result to tell the callback). */
typedef void *(*tyjson_lines_prep_fn)(void *ctx, const tyjson_lines_item *item,
                                      tyjson_arena *arena);

/**
 * As tyjson_lines_parallel_docs, with a hook that runs on the workers
 * before the callback: per record, `prep` turns the document into whatever
 * the callback wants (say, a form ready for another runtime's objects), off
 * the calling thread; the callback (in input order, or per thread as
 * tyjson_lines_parallel_docs) receives the result as item->prepared, the
 * document still in item->doc. One thread runs prep on the calling thread.
 * A NULL prep is TYJSON_E_INVALID_ARG; returns as tyjson_lines_parallel_docs.
 */
TYJSON_API tyjson_status tyjson_lines_parallel_prep(tyjson_lines *it, unsigned threads,
                                                    tyjson_lines_prep_fn prep,
                                                    tyjson_lines_fn fn, void *ctx,
                                                    tyjson_error *err);

/** Whether the parallel calls use threads in this build: 1 with pthreads,
 *  0 where they run on the calling thread. */
TYJSON_API int tyjson_lines_have_threads(void);

#ifdef __cplusplus
}
#endif
#endif /* TYJSON_LINES_H */
