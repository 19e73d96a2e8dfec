/*
 * stream/source.c - reading a FILE*, a descriptor or a callback, one call
 * per refill of a reader's window.
 */
#include "stream/source.h"

#include <errno.h>
#include <limits.h>
#include <string.h>

#if defined(_WIN32)
#include <io.h>
#else
#include <unistd.h>
#endif

void tyjson__source_fp(tyjson__source *s, FILE *fp) {
    memset(s, 0, sizeof(*s));
    s->kind = TYJSON__SOURCE_FP;
    s->fp = fp;
}

void tyjson__source_fd(tyjson__source *s, int fd) {
    memset(s, 0, sizeof(*s));
    s->kind = TYJSON__SOURCE_FD;
    s->fd = fd;
}

void tyjson__source_cb(tyjson__source *s, tyjson_read_fn fn, void *ctx) {
    memset(s, 0, sizeof(*s));
    s->kind = TYJSON__SOURCE_CB;
    s->fn = fn;
    s->ctx = ctx;
}

static ptrdiff_t read_fp(tyjson__source *s, char *buf, size_t cap) {
    size_t n = fread(buf, 1, cap, s->fp);
    if (n > 0) return (ptrdiff_t)n;
    if (ferror(s->fp)) {
        s->err_no = errno;
        return -1;
    }
    return 0;
}

static ptrdiff_t read_fd(tyjson__source *s, char *buf, size_t cap) {
    /* one system call's count fits its return type: cap at INT_MAX (what
     * Windows' _read takes, and far above any window) */
    if (cap > (size_t)INT_MAX) cap = (size_t)INT_MAX;
    for (;;) {
#if defined(_WIN32)
        int n = _read(s->fd, buf, (unsigned)cap);
#else
        ssize_t n = read(s->fd, buf, cap);
#endif
        if (n >= 0) return (ptrdiff_t)n;
        if (errno == EINTR) continue;
        s->err_no = errno;
        return -1;
    }
}

ptrdiff_t tyjson__source_read(tyjson__source *s, char *buf, size_t cap) {
    ptrdiff_t n;
    switch (s->kind) {
    case TYJSON__SOURCE_FP: return read_fp(s, buf, cap);
    case TYJSON__SOURCE_FD: return read_fd(s, buf, cap);
    case TYJSON__SOURCE_CB:
        n = s->fn(s->ctx, buf, cap);
        /* a callback that claims more than it was given is a failure, not
         * a licence to read past the buffer */
        if (n < 0 || (size_t)n > cap) {
            s->err_no = 0;
            return -1;
        }
        return n;
    case TYJSON__SOURCE_NONE: break;
    }
    return 0;
}
