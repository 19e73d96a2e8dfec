/*
 * stream/source.h - where the streaming front doors (the pull reader, the
 * NDJSON iterator) get their bytes: a FILE*, a file descriptor or the
 * caller's tyjson_read_fn, behind one call. Buffers in memory and pushed
 * bytes need no source: the readers take them in place.
 */
#ifndef TYJSON__STREAM_SOURCE_H
#define TYJSON__STREAM_SOURCE_H

#include "tyjson/common.h"

typedef enum tyjson__source_kind {
    TYJSON__SOURCE_NONE = 0,
    TYJSON__SOURCE_FP,
    TYJSON__SOURCE_FD,
    TYJSON__SOURCE_CB
} tyjson__source_kind;

typedef struct tyjson__source {
    tyjson__source_kind kind;
    FILE *fp;
    int fd;
    tyjson_read_fn fn;
    void *ctx;
    int err_no; /* errno of the failed read (0 when the source had none) */
} tyjson__source;

void tyjson__source_fp(tyjson__source *s, FILE *fp);
void tyjson__source_fd(tyjson__source *s, int fd);
void tyjson__source_cb(tyjson__source *s, tyjson_read_fn fn, void *ctx);

/* Reads up to cap (>= 1) bytes into buf: the count, 0 at the end of the
 * input, or -1 on failure (err_no set). Counts may be short at any time; only
 * 0 means the end. A source of kind NONE is always at its end. */
ptrdiff_t tyjson__source_read(tyjson__source *s, char *buf, size_t cap);

#endif /* TYJSON__STREAM_SOURCE_H */
