/*
 * stream/lines.c - the NDJSON iterator: lines framed from a buffer in place
 * or from a byte source through a window, each parsed with the public
 * parse and decode calls; errors placed in the whole input.
 */
#include "stream/lines_impl.h"
#include "read/json5.h"

#include <stdio.h>

#define KNOWN_READ_FLAGS                                                                    \
    (TYJSON_READ_ALLOW_COMMENTS | TYJSON_READ_ALLOW_TRAILING_COMMAS |                        \
     TYJSON_READ_ALLOW_INF_NAN | TYJSON_READ_ALLOW_BOM | TYJSON_READ_ALLOW_INVALID_UTF8 |    \
     TYJSON_READ_REJECT_DUPLICATE_KEYS | TYJSON_READ_BIGNUM_AS_RAW |                        \
     TYJSON_READ_NUMBER_AS_RAW | TYJSON__J5_FLAGS)
#define KNOWN_LINES_FLAGS (TYJSON_LINES_CONTINUE | TYJSON_LINES_PER_THREAD)

/* "Skip this line": a blank line, never returned. */
#define LINE_BLANK TYJSON__STATUS_COUNT

/* ----------------------------------------------------------------------------
 * MARK: - Opening
 * ------------------------------------------------------------------------- */

static tyjson_lines *lines_new(const tyjson_lines_options *opts, tyjson_error *err) {
    tyjson_lines_options o;
    if (opts) o = *opts;
    else memset(&o, 0, sizeof(o));
    if ((o.read_flags & ~(tyjson_read_flags)KNOWN_READ_FLAGS) ||
        (o.flags & ~(tyjson_lines_flags)KNOWN_LINES_FLAGS)) {
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        tyjson__err_msg(err, (o.read_flags & TYJSON_READ_STOP_WHEN_DONE)
                                 ? "TYJSON_READ_STOP_WHEN_DONE does not apply to NDJSON: "
                                   "each line holds one value"
                                 : "unknown read or lines flags");
        return NULL;
    }
    tyjson_alloc alc = tyjson__alc_or_libc(o.alc);
    tyjson_lines *it = (tyjson_lines *)tyjson__malloc(&alc, sizeof(*it));
    if (!it) {
        tyjson__err_set(err, TYJSON_E_NOMEM, NULL, 0, 0);
        return NULL;
    }
    memset(it, 0, sizeof(*it));
    it->cfg.rflags = o.read_flags;
    it->cfg.depth = o.max_depth;
    it->cfg.flags = o.flags;
    it->cfg.alc = alc;
    it->cfg.max_line = o.max_line;
    it->cfg.max_errors = o.max_errors;
    it->window = o.window ? o.window : TYJSON_LINES_DEFAULT_WINDOW;
    it->next_line = 1;
    tyjson__err_ok(err);
    return it;
}

tyjson_lines *tyjson_lines_open_buf(const char *dat, size_t len,
                                    const tyjson_lines_options *opts, tyjson_error *err) {
    if (!dat && len) {
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return NULL;
    }
    tyjson_lines *it = lines_new(opts, err);
    if (!it) return NULL;
    it->buf = dat ? dat : "";
    it->end = len;
    it->eof = true;
    it->in_place = true;
    return it;
}

static tyjson_lines *open_source(bool ok, const tyjson_lines_options *opts, tyjson_error *err) {
    if (!ok) {
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return NULL;
    }
    tyjson_lines *it = lines_new(opts, err);
    if (it) it->buf = "";
    return it;
}

tyjson_lines *tyjson_lines_open_fp(FILE *fp, const tyjson_lines_options *opts,
                                   tyjson_error *err) {
    tyjson_lines *it = open_source(fp != NULL, opts, err);
    if (it) tyjson__source_fp(&it->src, fp);
    return it;
}

tyjson_lines *tyjson_lines_open_fd(int fd, const tyjson_lines_options *opts, tyjson_error *err) {
    tyjson_lines *it = open_source(fd >= 0, opts, err);
    if (it) tyjson__source_fd(&it->src, fd);
    return it;
}

tyjson_lines *tyjson_lines_open_cb(tyjson_read_fn fn, void *ctx,
                                   const tyjson_lines_options *opts, tyjson_error *err) {
    tyjson_lines *it = open_source(fn != NULL, opts, err);
    if (it) tyjson__source_cb(&it->src, fn, ctx);
    return it;
}

void tyjson_lines_free(tyjson_lines *it) {
    if (!it) return;
    tyjson_alloc alc = it->cfg.alc;
    tyjson__free(&alc, it->win);
    tyjson__free(&alc, it->errs);
    tyjson__free(&alc, it);
}

/* ----------------------------------------------------------------------------
 * MARK: - Framing
 * ------------------------------------------------------------------------- */

void tyjson__lines_fail(tyjson_lines *it, tyjson_status code) {
    if (!it->fatal) it->fatal = code;
    it->rec = NULL;
    it->rec_len = it->rec_full = 0;
}

static tyjson_status fail_err(tyjson_lines *it, tyjson_status code, tyjson_error *err) {
    tyjson__lines_fail(it, code);
    tyjson__err_set(err, it->fatal, NULL, 0, 0);
    if (it->fatal == TYJSON_E_IO && it->src.err_no) {
        char msg[TYJSON_ERROR_MSG_MAX];
        snprintf(msg, sizeof(msg), "input/output error: %s", strerror(it->src.err_no));
        tyjson__err_msg(err, msg);
    }
    return it->fatal;
}

static tyjson_status too_long(tyjson_lines *it, usize ln, usize off, tyjson_error *err) {
    char msg[TYJSON_ERROR_MSG_MAX];
    it->rec = NULL;
    it->rec_len = it->rec_full = 0;
    it->line = ln;
    it->offset = off;
    tyjson__err_set(err, TYJSON_E_SIZE, NULL, 0, 0);
    if (err) {
        err->line = ln;
        err->column = it->cfg.max_line + 1;
        err->offset = off + it->cfg.max_line;
        snprintf(msg, sizeof(msg), "line longer than the limit of %zu bytes", it->cfg.max_line);
        tyjson__err_msg(err, msg);
    }
    return TYJSON_E_SIZE;
}

/* A framed line at buf[start..]: len bytes without CR LF, full with them. */
static tyjson_status take_line(tyjson_lines *it, usize start, usize len, usize full, usize ln,
                               tyjson_error *err) {
    const char *p = it->buf + start;
    if (it->cfg.max_line && len > it->cfg.max_line) return too_long(it, ln, it->base + start, err);
    if (len == 0) return LINE_BLANK;
    if (p[0] == ' ' || p[0] == '\t' || p[0] == '\r') {
        usize i = 1;
        while (i < len && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r')) i++;
        if (i == len) return LINE_BLANK;
    }
    it->rec = p;
    it->rec_len = len;
    it->rec_full = full;
    it->line = ln;
    it->offset = it->base + start;
    return TYJSON_OK;
}

/* Moves the unconsumed bytes to the front of the window and makes room for
 * a read; false when memory runs out. */
static bool make_room(tyjson_lines *it) {
    if (it->beg) {
        memmove(it->win, it->win + it->beg, it->end - it->beg);
        it->base += it->beg;
        it->end -= it->beg;
        it->scan -= it->beg;
        it->beg = 0;
    }
    if (it->cap - it->end >= it->window / 2 + 1) return true;
    usize need, ncap;
    if (tyjson__add_ovf(it->end, it->window, &need)) return false;
    ncap = it->cap <= SIZE_MAX / 2 ? it->cap * 2 : SIZE_MAX;
    if (ncap < need) ncap = need;
    char *nw = it->win ? (char *)tyjson__realloc(&it->cfg.alc, it->win, it->cap, ncap)
                       : (char *)tyjson__malloc(&it->cfg.alc, ncap);
    if (!nw) return false;
    it->win = nw;
    it->buf = nw;
    it->cap = ncap;
    return true;
}

/* One read into the window: 1 bytes came, 0 the end, -1 failure. */
static int fill_window(tyjson_lines *it) {
    ptrdiff_t n = tyjson__source_read(&it->src, it->win + it->end, it->cap - it->end);
    if (n < 0) return -1;
    if (n == 0) {
        it->eof = true;
        return 0;
    }
    it->end += (usize)n;
    return 1;
}

/* The line at beg is longer than max_line and has no LF yet: drop it,
 * reading on to its end, without holding it. */
static tyjson_status skip_long(tyjson_lines *it, tyjson_error *err) {
    usize ln = it->next_line++, off = it->base + it->beg;
    for (;;) {
        const char *nl = it->scan < it->end
                             ? (const char *)memchr(it->buf + it->scan, '\n', it->end - it->scan)
                             : NULL;
        if (nl) {
            it->beg = it->scan = (usize)(nl - it->buf) + 1;
            break;
        }
        it->base += it->end;
        it->beg = it->end = it->scan = 0;
        if (it->eof) break;
        int r = fill_window(it);
        if (r < 0) return fail_err(it, TYJSON_E_IO, err);
    }
    return too_long(it, ln, off, err);
}

tyjson_status tyjson__lines_frame(tyjson_lines *it, tyjson_error *err) {
    if (it->fatal) return fail_err(it, it->fatal, err);
    for (;;) {
        if (it->done) {
            it->rec = NULL;
            it->rec_len = it->rec_full = 0;
            tyjson__err_set(err, TYJSON_DONE, NULL, 0, 0);
            return TYJSON_DONE;
        }
        const char *nl = it->scan < it->end
                             ? (const char *)memchr(it->buf + it->scan, '\n', it->end - it->scan)
                             : NULL;
        tyjson_status st;
        if (nl) {
            usize stop = (usize)(nl - it->buf), start = it->beg;
            usize len = stop - start;
            if (len && it->buf[stop - 1] == '\r') len--;
            it->beg = it->scan = stop + 1;
            st = take_line(it, start, len, stop + 1 - start, it->next_line++, err);
            if (st != LINE_BLANK) return st;
            continue;
        }
        if (it->eof) {
            if (it->beg < it->end) {
                usize start = it->beg, full = it->end - it->beg, len = full;
                if (it->buf[it->end - 1] == '\r') len--;
                it->beg = it->scan = it->end;
                st = take_line(it, start, len, full, it->next_line++, err);
                if (st != LINE_BLANK) return st;
            }
            it->done = true;
            continue;
        }
        it->scan = it->end;
        /* the unfinished line holds max_line bytes and more than a CR:
         * it cannot fit, whatever follows */
        if (it->cfg.max_line && it->end - it->beg > it->cfg.max_line + 1) return skip_long(it, err);
        if (!make_room(it)) return fail_err(it, TYJSON_E_NOMEM, err);
        if (fill_window(it) < 0) return fail_err(it, TYJSON_E_IO, err);
    }
}

/* ----------------------------------------------------------------------------
 * MARK: - Records
 * ------------------------------------------------------------------------- */

bool tyjson__lines_is_bad(tyjson_status st) {
    switch (st) {
    case TYJSON_OK:
    case TYJSON_E_INVALID_ARG:
    case TYJSON_E_NOMEM:
    case TYJSON_E_IO:
    case TYJSON_E_CALLBACK:
    case TYJSON_E_STATE:
    case TYJSON_MORE:
    case TYJSON_DONE: return false;
    default: return true;
    }
}

bool tyjson__lines_note_bad(tyjson_lines *it, const tyjson_error *e) {
    it->bad++;
    if (!(it->cfg.flags & TYJSON_LINES_CONTINUE) || it->n_errs >= it->cfg.max_errors) return true;
    if (it->n_errs == it->errs_cap) {
        usize ncap = it->errs_cap ? it->errs_cap * 2 : 8;
        if (ncap > it->cfg.max_errors) ncap = it->cfg.max_errors;
        usize bytes;
        if (tyjson__mul_ovf(ncap, sizeof(tyjson_error), &bytes)) bytes = SIZE_MAX;
        tyjson_error *ne =
            it->errs ? (tyjson_error *)tyjson__realloc(&it->cfg.alc, it->errs,
                                                       it->errs_cap * sizeof(tyjson_error), bytes)
                     : (tyjson_error *)tyjson__malloc(&it->cfg.alc, bytes);
        if (!ne) {
            tyjson__lines_fail(it, TYJSON_E_NOMEM);
            return false;
        }
        it->errs = ne;
        it->errs_cap = ncap;
    }
    it->errs[it->n_errs++] = *e;
    return true;
}

tyjson_status tyjson__lines_parse(const tyjson__lines_cfg *cfg, const char *dat, usize full,
                                  usize line, usize offset, tyjson_doc **doc,
                                  tyjson_struct *type, void *out, tyjson_arena *arena,
                                  tyjson_decode_flags dflags, tyjson_error *err) {
    tyjson_read_flags rf = cfg->rflags;
    tyjson_status st;
    if (offset != 0) rf &= ~(tyjson_read_flags)TYJSON_READ_ALLOW_BOM; /* a BOM starts the input only */
    if (!type) {
        tyjson_read_options ro;
        ro.flags = rf;
        ro.max_depth = cfg->depth;
        ro.alc = &cfg->alc;
        if (doc) {
            *doc = tyjson_read_opts(dat, full, &ro, err);
            st = *doc ? TYJSON_OK : err->code;
        } else {
            st = tyjson_validate(dat, full, &ro, err) ? TYJSON_OK : err->code;
        }
    } else {
        tyjson_decode_options dopt;
        dopt.flags = dflags & ~(tyjson_decode_flags)TYJSON_DECODE_STOP_WHEN_DONE;
        dopt.read_flags = rf;
        dopt.max_depth = cfg->depth;
        dopt.read_size = NULL;
        st = tyjson_decode(type, out, dat, full, arena, &dopt, err);
    }
    if (st != TYJSON_OK && err->line) {
        /* the only LF is the line's last byte: an error past it (the end of
         * the line) is still on this line */
        if (err->line > 1) err->column = err->offset + 1;
        err->line = line;
        err->offset += offset;
    }
    return st;
}

/* The loop of every next_* call: frame, parse (parse == NULL: the line
 * itself is the record), skip or return bad lines. */
typedef struct next_job {
    tyjson_doc **doc;
    bool want_doc; /* parse as a document (doc may be NULL: validate) */
    tyjson_struct *type;
    void *out;
    tyjson_arena *arena;
    tyjson_decode_flags dflags;
} next_job;

static tyjson_status next_record(tyjson_lines *it, const next_job *job, tyjson_error *err) {
    tyjson_error local;
    tyjson_error *e = err ? err : &local;
    for (;;) {
        tyjson_status st = tyjson__lines_frame(it, e);
        if (st == TYJSON_OK && (job->want_doc || job->type)) {
            st = tyjson__lines_parse(&it->cfg, it->rec, it->rec_full, it->line, it->offset,
                                     job->doc, job->type, job->out, job->arena, job->dflags, e);
        }
        if (st == TYJSON_OK) {
            it->records++;
            return TYJSON_OK;
        }
        if (st == TYJSON_DONE || it->fatal) return st;
        if (!tyjson__lines_is_bad(st)) {
            /* memory ran out while parsing the line (or the type is bad):
             * the iteration ends, with the parser's error */
            tyjson__lines_fail(it, st);
            return st;
        }
        if (!tyjson__lines_note_bad(it, e)) return fail_err(it, TYJSON_E_NOMEM, e);
        if (!(it->cfg.flags & TYJSON_LINES_CONTINUE)) return st;
    }
}

tyjson_status tyjson_lines_next_doc(tyjson_lines *it, tyjson_doc **doc, tyjson_error *err) {
    if (doc) *doc = NULL;
    if (!it) {
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return TYJSON_E_INVALID_ARG;
    }
    next_job job;
    memset(&job, 0, sizeof(job));
    job.doc = doc;
    job.want_doc = true;
    return next_record(it, &job, err);
}

tyjson_status tyjson_lines_next_decode(tyjson_lines *it, tyjson_struct *type, void *out,
                                       tyjson_arena *arena, tyjson_decode_flags flags,
                                       tyjson_error *err) {
    if (!it || !type || !out || !arena) {
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return TYJSON_E_INVALID_ARG;
    }
    next_job job;
    memset(&job, 0, sizeof(job));
    job.type = type;
    job.out = out;
    job.arena = arena;
    job.dflags = flags;
    return next_record(it, &job, err);
}

tyjson_status tyjson_lines_next_line(tyjson_lines *it, const char **dat, size_t *len,
                                     tyjson_error *err) {
    if (dat) *dat = NULL;
    if (len) *len = 0;
    if (!it || !dat || !len) {
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return TYJSON_E_INVALID_ARG;
    }
    next_job job;
    memset(&job, 0, sizeof(job));
    tyjson_status st = next_record(it, &job, err);
    if (st == TYJSON_OK) {
        *dat = it->rec;
        *len = it->rec_len;
    }
    return st;
}

/* ----------------------------------------------------------------------------
 * MARK: - Accessors
 * ------------------------------------------------------------------------- */

const char *tyjson_lines_record(const tyjson_lines *it, size_t *len, size_t *full) {
    if (len) *len = it && it->rec ? it->rec_len : 0;
    if (full) *full = it && it->rec ? it->rec_full : 0;
    return it ? it->rec : NULL;
}

size_t tyjson_lines_line(const tyjson_lines *it) { return it ? it->line : 0; }
size_t tyjson_lines_offset(const tyjson_lines *it) { return it ? it->offset : 0; }
size_t tyjson_lines_records(const tyjson_lines *it) { return it ? it->records : 0; }
size_t tyjson_lines_bad_lines(const tyjson_lines *it) { return it ? it->bad : 0; }

const tyjson_error *tyjson_lines_errors(const tyjson_lines *it, size_t *count) {
    if (count) *count = it ? it->n_errs : 0;
    return it && it->n_errs ? it->errs : NULL;
}
