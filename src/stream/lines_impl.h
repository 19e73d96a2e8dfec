/*
 * stream/lines_impl.h - the NDJSON iterator's insides, shared by the
 * sequential calls (lines.c) and the parallel ones (lines_par.c): the line
 * framer over a buffer or a byte source, and the parse of one line.
 */
#ifndef TYJSON__STREAM_LINES_IMPL_H
#define TYJSON__STREAM_LINES_IMPL_H

#include "base/internal.h"
#include "stream/source.h"
#include "tyjson/lines.h"

/* What a line is parsed with; fixed for the iterator's life. */
typedef struct tyjson__lines_cfg {
    tyjson_read_flags rflags;
    uint32_t depth;
    tyjson_lines_flags flags;
    tyjson_alloc alc;
    size_t max_line; /* 0: no limit */
    size_t max_errors;
} tyjson__lines_cfg;

struct tyjson_lines {
    tyjson__lines_cfg cfg;
    tyjson__source src;
    const char *buf; /* the caller's buffer, or win */
    char *win;       /* stream sources: the window */
    usize cap;       /* bytes of win */
    usize window;    /* bytes asked of the source per read */
    usize beg;       /* first byte of the unconsumed input in buf */
    usize end;       /* end of the bytes in buf */
    usize scan;      /* buf[beg..scan) holds no LF */
    usize base;      /* offset in the whole input of buf[0] */
    usize next_line; /* line number of the line at beg */
    bool eof;        /* the source is finished (always for a buffer) */
    bool in_place;   /* buf is the caller's buffer */
    /* the current record */
    const char *rec;
    usize rec_len;  /* without CR LF */
    usize rec_full; /* with the line end: what the parser gets */
    usize line, offset;
    /* totals */
    usize records, bad;
    tyjson_error *errs;
    usize n_errs, errs_cap;
    tyjson_status fatal; /* TYJSON_OK, or the code that ended the iteration */
    bool done;
};

/* Bytes per batch (and per chunk) with worker threads; 0: the default
 * (64 KiB for documents delivered in order, else 256 KiB). Only the tests
 * change it, to cut small inputs into many chunks. */
extern usize tyjson__lines_batch_bytes;

/* Frames the next non-blank line into it->rec..: TYJSON_OK, TYJSON_DONE,
 * TYJSON_E_SIZE (a line longer than max_line, consumed; err filled),
 * TYJSON_E_IO, TYJSON_E_NOMEM (err filled; it->fatal set). Counts nothing. */
tyjson_status tyjson__lines_frame(tyjson_lines *it, tyjson_error *err);

/* Parses one framed line: `full` bytes at dat (the line end included), the
 * line's number and offset for the error. With type NULL: into *doc, or
 * validated when doc is NULL; else decoded into out. Errors are placed in
 * the whole input. */
tyjson_status tyjson__lines_parse(const tyjson__lines_cfg *cfg, const char *dat, usize full,
                                  usize line, usize offset, tyjson_doc **doc,
                                  tyjson_struct *type, void *out, tyjson_arena *arena,
                                  tyjson_decode_flags dflags, tyjson_error *err);

/* A status that says something about one line (a bad line), not about the
 * source, the memory or the arguments. */
bool tyjson__lines_is_bad(tyjson_status st);

/* Counts a bad line; with TYJSON_LINES_CONTINUE keeps its error (up to
 * max_errors). False when keeping it ran out of memory (it->fatal set). */
bool tyjson__lines_note_bad(tyjson_lines *it, const tyjson_error *e);

/* Ends the iteration with `code` (E_IO, E_NOMEM): every later call returns it. */
void tyjson__lines_fail(tyjson_lines *it, tyjson_status code);

#endif /* TYJSON__STREAM_LINES_IMPL_H */
