/*
 * stream/reader.c - the pull reader (include/tyjson/reader.h): JSON token by
 * token from a buffer, a FILE*, a descriptor, a callback or pushed bytes, in
 * memory bounded by the window, the depth and the longest token.
 *
 * Bytes: the reader reads a region [base, end) in place: the caller's buffer
 * (open_buf), the window (stream sources, and pushed bytes that a token
 * straddles) or the bytes just fed (push, until a token runs past them).
 * Every position that must survive a refill is an absolute offset in the
 * whole input; pointers are rebuilt from it. fill() keeps the bytes from a
 * given offset resident (the unfinished token or value), moves them to the
 * front of the window and reads or copies more behind them.
 *
 * Tokens: prelude() moves through whitespace, comments and separators to the
 * first byte of the next token, with the state saying what may come; the
 * token readers (string, number, literal) are resumable: when the bytes run
 * out they keep how far they got, refill, and go on from there, so a string
 * fed one byte at a time is scanned once. Lines are counted lazily, of the
 * bytes before a refill's keep point and up to positions asked for, never
 * per byte in the hot path.
 *
 * Errors are those of the DOM parser (dom/parse.c): the same state order,
 * the same reading core (read/lex.h, read/syntax.h, num/num.h), the same
 * messages (read/msg.c).
 */
#include "base/internal.h"
#include "read/lex.h"
#include "read/msg.h"
#include "read/simd.h"
#include "read/syntax.h"
#include "read/json5.h"
#include "num/num.h"
#include "stream/reader_stats.h"
#include "stream/source.h"

#include <stdio.h>

enum { IN_NONE, IN_BUF, IN_STREAM, IN_PUSH };

/* What may come next. */
enum {
    S_ROOT,      /* a top-level value (the first, or with MULTI the next) */
    S_ROOT_END,  /* after a top-level value */
    S_ARR_FIRST, /* after '[': a value or ']' */
    S_ARR_VALUE, /* after ',' in an array */
    S_ARR_NEXT,  /* after an element: ',' or ']' */
    S_OBJ_FIRST, /* after '{': a key or '}' */
    S_OBJ_KEY,   /* after ',' in an object */
    S_OBJ_COLON, /* after a key */
    S_OBJ_VALUE, /* after ':' */
    S_OBJ_NEXT,  /* after a member: ',' or '}' */
    S_END,
    S_ERROR
};

/* A token the bytes ran out in (or a comment). */
enum { P_NONE, P_STR, P_NUM, P_LIT, P_LINE_COMMENT, P_BLOCK_COMMENT };

/* Results of the internal steps. */
enum { R_OK = 0, R_NEED, R_ERR };
/* Results of fill(). */
enum { F_OK, F_EOF, F_NEED, F_FAIL };

#define NONE_IDX SIZE_MAX
#define INLINE_FRAMES 16
#define SCRATCH_SLACK 16 /* an escape writes up to 4 bytes; 8-byte stores */

typedef struct frame {
    usize n;        /* elements or members so far */
    usize key_at;   /* this object's current key in r->keys */
    usize key_len;
    const u8 *key_ext; /* or in the caller's buffer (a buffer input's plain keys) */
    bool key_win;      /* key_ext is in the window (room kept in r->keys): copied by fill() */
    usize dup_from; /* first entry of this object's keys in r->dups */
    usize dup_hit;  /* the entry of the first repeated key, or NONE_IDX */
    usize dup_off;  /* its offset, line and column */
    usize dup_line, dup_col;
    bool obj;
} frame;

typedef struct dup_ent {
    u64 hash;
    usize at, len; /* bytes in r->dupb */
    usize next;    /* the previous entry in its bucket, or NONE_IDX */
} dup_ent;

struct tyjson_reader {
    /* the current token's kind and number, first (a pointer to the reader
     * is one to its head): read by reader.h's inline getters */
    tyjson__reader_head h;
    tyjson_alloc alc;
    u32 flags, rflags, max_depth;
    usize window, max_token, max_value;
    usize tok_limit; /* raw bytes of one string piece or number, for this input */

    /* input */
    int in;
    tyjson__source src;
    const u8 *base, *cur, *end;
    usize base_off; /* offset of base[0] in the whole input */
    bool eof;       /* no byte after end */
    bool bom_pending;
    u8 *win;
    usize win_cap;
    bool in_win;      /* push: the region is the window */
    const u8 *fp, *fe; /* push: fed bytes not in the region yet */
    usize fp_off;     /* offset of fp */
    usize fed_total;
    bool fed_end;

    /* state */
    int st;
    bool fast; /* the flags allow fast_next (strict numbers, no duplicate-key checks) */
    u32 depth;
    frame *frames;
    frame *top; /* frames[depth - 1], NULL at depth 0: the fast step's
                   array count and closes without the index arithmetic */
    usize fcap;
    bool multi_seen;

    /* current token (its kind and number in h) */
    usize tok_off;
    u32 tok_depth;
    const u8 *tstr;
    usize tlen;
    bool tnul; /* tstr is NUL terminated (in the scratch) */
    bool partial;
    bool tok_loc; /* tok_line, tok_col are known (beside partial: the
                     fast step clears both in one store) */

    /* a token in progress */
    int pend;
    bool p_key, p_esc, p_first;
    bool p_j5;   /* the token is read by the JSON5 readers (j5_string, j5_number) */
    u8 p_quote;  /* their string's quote; 0 for an identifier key */
    usize p_start, p_scan, p_piece, p_keep;
    usize p_dup; /* REJECT_DUPLICATE_KEYS: where the key's bytes start in dupb */
    bool p_loc;  /* p_line, p_col: the token's place, noted before its start left */
    usize p_line, p_col;
    usize c_line, c_col; /* where a block comment began */
    usize ws_end;        /* STOP_WHEN_DONE: the whitespace after the value */

    /* skip() and the value readers across NEED_MORE */
    bool span_active;
    usize span_start, span_tried;
    bool skip_active, skip_first;
    u32 skip_target;
    bool skipping;

    u8 *scr;
    usize scr_cap, scr_len;
    u8 *keys; /* the path's keys, one per open object */
    usize keys_len, keys_cap;
    dup_ent *dups; /* REJECT_DUPLICATE_KEYS: the keys of open objects */
    usize ndups, dups_cap;
    u8 *dupb;
    usize dupb_len, dupb_cap;
    usize *dupt;      /* buckets: the latest entry whose hash falls there */
    usize dupt_cap;   /* a power of two, at least twice dups_cap once used */
    u64 dup_compares; /* key comparisons made, for the tests */

    /* lines, counted lazily */
    usize lc_off, lc_line, lc_ls; /* counted up to lc_off; its line; that line's start */
    usize tok_line, tok_col;

    usize consumed;
    tyjson_error err;
    frame finl[INLINE_FRAMES];
};

/* ----------------------------------------------------------------------------
 * Offsets, lines
 * ------------------------------------------------------------------------- */
TYJSON__FORCEINLINE usize off_of(const tyjson_reader *r, const u8 *p) {
    return r->base_off + (usize)(p - r->base);
}
TYJSON__FORCEINLINE const u8 *ptr_of(const tyjson_reader *r, usize off) {
    return r->base + (off - r->base_off);
}
TYJSON__FORCEINLINE usize end_off(const tyjson_reader *r) { return off_of(r, r->end); }

/* Counts the line feeds of the resident bytes [lc_off, off); the current
 * token's place is noted on the way. */
static void count_to(tyjson_reader *r, usize off) {
    if (off <= r->lc_off) return;
    if (!r->tok_loc && r->tok_off >= r->lc_off && r->tok_off < off) {
        count_to(r, r->tok_off);
        r->tok_loc = true;
        r->tok_line = r->lc_line;
        r->tok_col = r->tok_off - r->lc_ls + 1;
    }
    tyjson__lf_count c = tyjson__count_lf(ptr_of(r, r->lc_off), ptr_of(r, off));
    if (c.last) {
        r->lc_line += c.count;
        r->lc_ls = off_of(r, c.last + 1);
    }
    r->lc_off = off;
}

/* Line and column of off: counted on from lc_off; an earlier offset of a
 * buffer input is counted from the start. */
static void locate(tyjson_reader *r, usize off, usize *line, usize *col) {
    if (off < r->lc_off) {
        if (r->in == IN_BUF) {
            tyjson_locate((const char *)r->base, (usize)(r->end - r->base), off, line, col);
            return;
        }
        off = r->lc_off; /* not resident any more: the nearest known place */
    }
    count_to(r, off);
    *line = r->lc_line;
    *col = off - r->lc_ls + 1;
}

/* ----------------------------------------------------------------------------
 * Errors
 * ------------------------------------------------------------------------- */
static void set_err_at(tyjson_reader *r, tyjson_status code, usize off) {
    tyjson__err_set(&r->err, code, NULL, 0, 0);
    r->err.offset = off;
    locate(r, off, &r->err.line, &r->err.column);
    r->st = S_ERROR;
    r->pend = P_NONE;
    r->h.tok = TYJSON_TOK_ERROR;
}

/* A syntax error at pos (resident, or the end) with the DOM's message; buf
 * is where a number token starts (number messages look back to it). */
static TYJSON__NOINLINE int read_fail(tyjson_reader *r, tyjson_status code, const u8 *pos, int expect,
                                 const u8 *buf) {
    set_err_at(r, code, off_of(r, pos));
    tyjson__describe_error(&r->err, code, expect, buf ? buf : r->base, pos, r->end, r->max_depth);
    return R_ERR;
}

static TYJSON__NOINLINE int fail_plain(tyjson_reader *r, tyjson_status code, usize off) {
    set_err_at(r, code, off);
    return R_ERR;
}

static TYJSON__NOINLINE int fail_io(tyjson_reader *r) {
    tyjson__err_set(&r->err, TYJSON_E_IO, NULL, 0, 0);
    r->err.offset = end_off(r);
    if (r->src.err_no) {
        char m[TYJSON_ERROR_MSG_MAX];
        snprintf(m, sizeof(m), "input/output error: %s", strerror(r->src.err_no));
        tyjson__err_msg(&r->err, m);
    } else {
        tyjson__err_msg(&r->err, "input/output error: the read callback failed");
    }
    r->st = S_ERROR;
    r->pend = P_NONE;
    r->h.tok = TYJSON_TOK_ERROR;
    return R_ERR;
}

/* ----------------------------------------------------------------------------
 * Memory
 * ------------------------------------------------------------------------- */
static bool grow_bytes(tyjson_reader *r, u8 **buf, usize *cap, usize need) {
    if (need <= *cap) return true;
    usize nc = *cap ? *cap : 64;
    while (nc < need) {
        if (nc > SIZE_MAX / 2) {
            nc = need;
            break;
        }
        nc *= 2;
    }
    u8 *nb = *buf ? (u8 *)tyjson__realloc(&r->alc, *buf, *cap, nc) : (u8 *)tyjson__malloc(&r->alc, nc);
    if (!nb) return false;
    *buf = nb;
    *cap = nc;
    return true;
}

static bool scratch_room(tyjson_reader *r, usize more) {
    usize need;
    if (tyjson__add_ovf(r->scr_len, more, &need) || tyjson__add_ovf(need, SCRATCH_SLACK, &need))
        return false;
    return grow_bytes(r, &r->scr, &r->scr_cap, need);
}

static bool scratch_put(tyjson_reader *r, const u8 *p, usize n) {
    if (!scratch_room(r, n)) return false;
    if (n) memcpy(r->scr + r->scr_len, p, n);
    r->scr_len += n;
    return true;
}

/* The window holding at least `need` bytes; its contents move along. */
static bool window_room(tyjson_reader *r, usize need) {
    if (need <= r->win_cap) return true;
    usize nc = r->win_cap ? r->win_cap : r->window;
    while (nc < need) {
        if (nc > SIZE_MAX / 2) return false;
        nc *= 2;
    }
    const u8 *old = r->win;
    u8 *nb = r->win ? (u8 *)tyjson__realloc(&r->alc, r->win, r->win_cap, nc)
                    : (u8 *)tyjson__malloc(&r->alc, nc);
    if (!nb) return false;
    if (r->in_win && old && r->base == old) {
        r->cur = nb + (r->cur - r->base);
        r->end = nb + (r->end - r->base);
        r->base = nb;
    }
    r->win = nb;
    r->win_cap = nc;
    return true;
}

/* ----------------------------------------------------------------------------
 * Refilling. keep: the offset from which bytes must stay resident (at most
 * that of cur). Pointers into the region are invalid afterwards, offsets
 * stay.
 * ------------------------------------------------------------------------- */
/* Copies the open objects' keys that are still read in the window into
 * their room in r->keys, before the window's bytes move. */
static void keys_settle(tyjson_reader *r) {
    for (u32 i = 0; i < r->depth; i++) {
        frame *f = &r->frames[i];
        if (!f->key_win) continue;
        if (f->key_len) memcpy(r->keys + f->key_at, f->key_ext, f->key_len);
        f->key_ext = NULL;
        f->key_win = false;
    }
}

static TYJSON__NOINLINE int fill(tyjson_reader *r, usize keep) {
    if (r->eof) return F_EOF;
    if (r->in == IN_BUF || r->in == IN_NONE) {
        r->eof = true;
        return F_EOF;
    }
    if (r->in == IN_STREAM) keys_settle(r);
    count_to(r, keep);
    /* a token in progress keeps its own offsets; cur, at its start, may lie
     * before what it keeps */
    usize cur_off = off_of(r, r->cur), e_off = end_off(r);
    if (cur_off < keep) cur_off = keep;
    usize keep_len = e_off - keep;
    const u8 *from = ptr_of(r, keep);
    if (r->in == IN_PUSH && !r->in_win) {
        /* leaving the caller's bytes: what is still needed goes to the window */
        if (!window_room(r, keep_len + 1)) goto nomem;
        if (keep_len) memcpy(r->win, from, keep_len);
        r->in_win = true;
    } else {
        /* room for at least a quarter of the window behind what is kept */
        if (r->win_cap - keep_len < r->window / 4 + 1) {
            if (keep && from != r->win) {
                memmove(r->win, from, keep_len);
                from = r->win;
            }
            usize need;
            if (tyjson__add_ovf(keep_len, r->window / 4 + 1, &need)) goto nomem;
            if (need > r->win_cap) {
                usize nc = r->win_cap * 2 > need ? r->win_cap * 2 : need;
                if (!window_room(r, nc)) goto nomem;
                from = r->win;
            }
        }
        if (from != r->win && keep_len) memmove(r->win, from, keep_len);
    }
    r->base = r->win;
    r->base_off = keep;
    r->cur = r->win + (cur_off - keep);
    r->end = r->win + keep_len;
    if (r->in == IN_STREAM) {
        ptrdiff_t n = tyjson__source_read(&r->src, (char *)(uintptr_t)r->end, r->win_cap - keep_len);
        if (n < 0) {
            fail_io(r);
            return F_FAIL;
        }
        if (n == 0) {
            r->eof = true;
            return F_EOF;
        }
        r->end += n;
        return F_OK;
    }
    /* push */
    if (r->fp < r->fe) {
        if (keep_len == 0) { /* nothing to keep: read the fed bytes in place */
            r->in_win = false;
            r->base = r->fp;
            r->base_off = r->fp_off;
            r->cur = r->end = r->fp;
            r->end = r->fe;
            r->fp_off += (usize)(r->fe - r->fp);
            r->fp = r->fe;
            return F_OK;
        }
        usize take = (usize)(r->fe - r->fp), room = r->win_cap - keep_len;
        if (take > room) take = room;
        memcpy((u8 *)(uintptr_t)r->end, r->fp, take);
        r->end += take;
        r->fp += take;
        r->fp_off += take;
        return F_OK;
    }
    if (r->fed_end) {
        r->eof = true;
        return F_EOF;
    }
    return F_NEED;
nomem:
    fail_plain(r, TYJSON_E_NOMEM, cur_off);
    return F_FAIL;
}

/* fill()'s result as a step result: R_OK to try again (more bytes or the
 * end), R_NEED, R_ERR. */
TYJSON__FORCEINLINE int refill(tyjson_reader *r, usize keep) {
    int f = fill(r, keep);
    return f == F_NEED ? R_NEED : f == F_FAIL ? R_ERR : R_OK;
}

/* ----------------------------------------------------------------------------
 * Whitespace and comments (resumable: a comment may span refills)
 * ------------------------------------------------------------------------- */
static int comment_rest(tyjson_reader *r) {
    for (;;) {
        const u8 *p = r->cur, *e = r->end;
        if (r->pend == P_LINE_COMMENT) {
            const u8 *nl = (const u8 *)memchr(p, '\n', (usize)(e - p));
            if (r->flags & TYJSON_READ_ALLOW_EXTRA_WHITESPACE) {
                /* JSON5: CR, U+2028 and U+2029 end it too (a cut U+2028 waits) */
                const u8 *q = p, *stop = nl ? nl : e;
                while (q < stop && *q != '\r' &&
                       !(*q == 0xE2 && (e - q < 3 ? !r->eof : q[1] == 0x80 && (q[2] | 1) == 0xA9)))
                    q++;
                if (q < stop && *q == 0xE2 && e - q < 3) {
                    r->cur = q;
                    int rc = refill(r, off_of(r, q));
                    if (rc) return rc;
                    continue;
                }
                if (q < stop) {
                    r->cur = q; /* the break itself is whitespace */
                    r->pend = P_NONE;
                    return R_OK;
                }
            }
            if (nl) {
                r->cur = nl + 1;
                r->pend = P_NONE;
                return R_OK;
            }
            r->cur = e;
            if (r->eof) {
                r->pend = P_NONE;
                return R_OK;
            }
        } else {
            const u8 *q = p;
            for (;;) {
                q = (const u8 *)memchr(q, '*', (usize)(e - q));
                if (!q || e - q < 2) break;
                if (q[1] == '/') {
                    r->cur = q + 2;
                    r->pend = P_NONE;
                    return R_OK;
                }
                q++;
            }
            r->cur = q ? q : e; /* a '*' at the end may start the "* /" */
            if (r->eof) {
                /* unterminated: at the comment's '/', as the DOM says */
                r->pend = P_NONE;
                tyjson__err_set(&r->err, TYJSON_E_COMMENT, NULL, 0, 0);
                r->err.offset = r->p_start;
                r->err.line = r->c_line;
                r->err.column = r->c_col;
                tyjson__describe_error(&r->err, TYJSON_E_COMMENT, EXPECT_COMMENT, r->cur, r->cur,
                                       r->end, r->max_depth);
                r->st = S_ERROR;
                r->h.tok = TYJSON_TOK_ERROR;
                return R_ERR;
            }
        }
        int rc = refill(r, off_of(r, r->cur));
        if (rc) return rc;
    }
}

/* Skips whitespace (and comments) from cur: R_OK with cur at a byte, or at
 * the end of the input. */
static TYJSON__NOINLINE int skip_space_slow(tyjson_reader *r) {
    for (;;) {
        if (r->pend != P_NONE) {
            int rc = comment_rest(r);
            if (rc) return rc;
        }
        const u8 *p = tyjson__skip_ws(r->cur, r->end), *e = r->end;
        r->cur = p;
        if (likely(p < e)) {
            if (likely(*p != '/') || !(r->flags & TYJSON_READ_ALLOW_COMMENTS)) return R_OK;
            if (e - p < 2) {
                if (r->eof) return read_fail(r, TYJSON_E_TRUNCATED, p, EXPECT_COMMENT, NULL);
            } else if (p[1] == '/') {
                r->pend = P_LINE_COMMENT;
                r->cur = p + 2;
                continue;
            } else if (p[1] == '*') {
                r->pend = P_BLOCK_COMMENT;
                r->p_start = off_of(r, p);
                locate(r, r->p_start, &r->c_line, &r->c_col);
                r->cur = p + 2;
                continue;
            } else {
                return read_fail(r, TYJSON_E_UNEXPECTED_CHAR, p, EXPECT_COMMENT, NULL);
            }
        } else if (r->eof) {
            return R_OK;
        }
        int rc = refill(r, off_of(r, r->cur));
        if (rc) return rc;
    }
}

/* skip_space_slow with the common layouts inline: no whitespace, one
 * space (after a colon), or a newline and its indentation. */
TYJSON__FORCEINLINE int skip_space(tyjson_reader *r) {
    if (likely(r->pend == P_NONE)) {
        const u8 *p = r->cur, *e = r->end;
        if (likely(p < e && !tyjson__is_ws(*p) && *p != '/')) return R_OK;
        if (p + 1 < e && *p == ' ' && !tyjson__is_ws(p[1]) && p[1] != '/') {
            r->cur = p + 1;
            return R_OK;
        }
        p = tyjson__skip_indent(p, e);
        if (likely(p < e && !tyjson__is_ws(*p) && *p != '/')) {
            r->cur = p;
            return R_OK;
        }
    }
    return skip_space_slow(r);
}

/* ----------------------------------------------------------------------------
 * Frames and the path
 * ------------------------------------------------------------------------- */
static bool push_frame(tyjson_reader *r, bool obj) {
    if (r->depth == r->fcap) {
        usize nc = r->fcap * 2;
        frame *nf;
        if (r->frames == r->finl) {
            nf = (frame *)tyjson__malloc(&r->alc, nc * sizeof(frame));
            if (nf) memcpy(nf, r->finl, sizeof(r->finl));
        } else {
            nf = (frame *)tyjson__realloc(&r->alc, r->frames, r->fcap * sizeof(frame),
                                          nc * sizeof(frame));
        }
        if (!nf) return false;
        r->frames = nf;
        r->fcap = nc;
    }
    frame *f = &r->frames[r->depth++];
    r->top = f;
    f->n = 0;
    f->obj = obj;
    f->key_at = r->keys_len;
    f->key_len = 0;
    f->key_ext = NULL;
    f->key_win = false;
    f->dup_from = r->ndups;
    f->dup_hit = NONE_IDX;
    return true;
}

/* A value begins in the current container. */
TYJSON__FORCEINLINE void begin_value(tyjson_reader *r) {
    if (r->depth && !r->frames[r->depth - 1].obj) r->frames[r->depth - 1].n++;
}

TYJSON__FORCEINLINE void after_value(tyjson_reader *r) {
    r->st = r->depth == 0 ? S_ROOT_END : r->frames[r->depth - 1].obj ? S_OBJ_NEXT : S_ARR_NEXT;
}

/* Appends key bytes of the current object for the path (cut to what a
 * path can show). */
static bool key_put(tyjson_reader *r, const u8 *k, usize n) {
    frame *f = &r->frames[r->depth - 1];
    usize room = TYJSON_ERROR_PATH_MAX > f->key_len ? TYJSON_ERROR_PATH_MAX - f->key_len : 0;
    if (n > room) n = room;
    if (!n) return true;
    if (!grow_bytes(r, &r->keys, &r->keys_cap, f->key_at + f->key_len + n)) return false;
    memcpy(r->keys + f->key_at + f->key_len, k, n);
    f->key_len += n;
    r->keys_len = f->key_at + f->key_len;
    return true;
}

typedef struct pathw {
    char *buf;
    usize size, n;
} pathw;

static void pw_put(pathw *w, const char *s, usize n) {
    for (usize i = 0; i < n; i++, w->n++)
        if (w->n + 1 < w->size) w->buf[w->n] = s[i];
}

static void pw_put_any(void *w, const char *s, usize n) { pw_put((pathw *)w, s, n); }

static void pw_key(pathw *w, const u8 *k, usize n) { tyjson__path_key(k, n, pw_put_any, w); }

/* The path through the first nf frames. */
static usize path_frames(const tyjson_reader *r, u32 nf, char *buf, usize size) {
    pathw w = {buf, size, 0};
    pw_put(&w, "$", 1);
    for (u32 i = 0; i < nf; i++) {
        const frame *f = &r->frames[i];
        if (!f->n) continue;
        if (f->obj) {
            const u8 *k = f->key_ext ? f->key_ext
                        : r->keys ? r->keys + f->key_at : (const u8 *)""; /* "" before any copy */
            pw_key(&w, k, f->key_len);
        } else {
            char num[32];
            int k = snprintf(num, sizeof(num), "[%zu]", f->n - 1);
            pw_put(&w, num, (usize)k);
        }
    }
    if (size) buf[w.n < size ? w.n : size - 1] = 0;
    return w.n;
}

/* ----------------------------------------------------------------------------
 * Duplicate keys (TYJSON_READ_REJECT_DUPLICATE_KEYS): the keys of the open
 * objects are kept; the first repeat is reported when its object closes, as
 * the DOM reports it.
 * ------------------------------------------------------------------------- */
static u64 key_hash(const u8 *k, usize n) {
    u64 h = 1469598103934665603ull;
    for (usize i = 0; i < n; i++) h = (h ^ k[i]) * 1099511628211ull;
    return h;
}

/* Re-hangs every entry into a table of nc buckets. Entries go in in index
 * order, so each bucket's chain runs from the newest entry to the oldest. */
static bool dup_table_grow(tyjson_reader *r, usize nc) {
    /* a new table, not a realloc: every bucket is rewritten below, so the
     * old contents need no copy (and stay whole if this fails) */
    usize *nt = (usize *)tyjson__malloc(&r->alc, nc * sizeof(usize));
    if (!nt) return false;
    tyjson__free(&r->alc, r->dupt);
    r->dupt = nt;
    r->dupt_cap = nc;
    for (usize i = 0; i < nc; i++) nt[i] = NONE_IDX;
    for (usize i = 0; i < r->ndups; i++) {
        dup_ent *d = &r->dups[i];
        d->next = nt[d->hash & (nc - 1)];
        nt[d->hash & (nc - 1)] = i;
    }
    return true;
}

/* The key just read (its bytes at dupb + from) against the object's others:
 * one hash table over the keys of all open objects. A chain runs from newer to
 * older entries, and the current object's entries are the newest, so a lookup
 * stops at the first entry older than the object: the work per key is the
 * object's own keys in its bucket (O(1) expected), whatever the nesting. */
static bool dup_check(tyjson_reader *r, usize from) {
    frame *f = &r->frames[r->depth - 1];
    usize len = r->dupb_len - from;
    const u8 *k = r->dupb + from;
    u64 h = key_hash(k, len);
    if (r->ndups == r->dups_cap) {
        usize nc = r->dups_cap ? r->dups_cap * 2 : 16;
        dup_ent *nd = r->dups ? (dup_ent *)tyjson__realloc(&r->alc, r->dups, r->dups_cap * sizeof(dup_ent),
                                                             nc * sizeof(dup_ent))
                              : (dup_ent *)tyjson__malloc(&r->alc, nc * sizeof(dup_ent));
        if (!nd) return false;
        r->dups = nd;
        r->dups_cap = nc;
    }
    if (r->dupt_cap < 2 * r->dups_cap && !dup_table_grow(r, 2 * r->dups_cap)) return false;
    usize *bucket = &r->dupt[h & (r->dupt_cap - 1)];
    if (f->dup_hit == NONE_IDX) {
        for (usize i = *bucket; i != NONE_IDX && i >= f->dup_from; i = r->dups[i].next) {
            const dup_ent *d = &r->dups[i];
            r->dup_compares++;
            if (d->hash == h && d->len == len && memcmp(r->dupb + d->at, k, len) == 0) {
                f->dup_hit = r->ndups;
                f->dup_off = r->tok_off;
                locate(r, r->tok_off, &f->dup_line, &f->dup_col);
                break;
            }
        }
    }
    dup_ent *d = &r->dups[r->ndups];
    d->hash = h;
    d->at = from;
    d->len = len;
    d->next = *bucket;
    *bucket = r->ndups++;
    return true;
}

/* An object closes: its entries leave the table newest first, so each one
 * is the head of its bucket when it goes and the table is as it was before
 * the object opened. */
static void dup_pop(tyjson_reader *r, usize from) {
    for (usize i = r->ndups; i-- > from;) r->dupt[r->dups[i].hash & (r->dupt_cap - 1)] = r->dups[i].next;
    if (from < r->ndups) r->dupb_len = r->dups[from].at;
    r->ndups = from;
}

size_t tyjson__reader_dup_compares(const tyjson_reader *r) { return (size_t)r->dup_compares; }

static TYJSON__NOINLINE int dup_fail(tyjson_reader *r, const frame *f) {
    const dup_ent *d = &r->dups[f->dup_hit];
    u8 tmp[48];
    usize n = d->len < 41 ? d->len : 41;
    tmp[0] = '"';
    memcpy(tmp + 1, r->dupb + d->at, n);
    tmp[1 + n] = 0;
    tyjson__err_set(&r->err, TYJSON_E_DUPLICATE_KEY, NULL, 0, 0);
    r->err.offset = f->dup_off;
    r->err.line = f->dup_line;
    r->err.column = f->dup_col;
    tyjson__describe_error(&r->err, TYJSON_E_DUPLICATE_KEY, EXPECT_NONE, tmp, tmp, tmp + 1 + n,
                           r->max_depth);
    r->st = S_ERROR;
    r->h.tok = TYJSON_TOK_ERROR;
    return R_ERR;
}

/* ----------------------------------------------------------------------------
 * Tokens
 * ------------------------------------------------------------------------- */
TYJSON__FORCEINLINE void set_tok(tyjson_reader *r, tyjson_token t, usize off, u32 depth) {
    r->h.tok = t;
    r->tok_off = off;
    r->tok_depth = depth;
    r->tok_loc = false;
    r->partial = false;
}

/* A string or key piece or whole string is done: text and state. */
static int string_done(tyjson_reader *r, const u8 *raw, usize raw_len, bool last) {
    if (r->p_esc) {
        r->scr[r->scr_len] = 0;
        r->tstr = r->scr;
        r->tlen = r->scr_len;
        r->tnul = true;
    } else {
        r->tstr = raw;
        r->tlen = raw_len;
        r->tnul = false;
    }
    set_tok(r, r->p_key ? TYJSON_TOK_KEY : TYJSON_TOK_STR, r->p_first ? r->p_start : r->p_piece,
            r->depth);
    if (r->p_loc) {
        r->tok_loc = true;
        r->tok_line = r->p_line;
        r->tok_col = r->p_col;
        r->p_loc = false;
    }
    r->partial = !last;
    if (r->p_key) {
        frame *f = &r->frames[r->depth - 1];
        if (r->p_first) {
            f->n++;
            f->key_len = 0;
            f->key_ext = NULL;
            f->key_win = false;
            r->keys_len = f->key_at;
        }
        if (last && r->p_first && !r->p_esc && r->in == IN_BUF) {
            /* the key stays in the caller's buffer: no copy */
            f->key_ext = r->tstr;
            f->key_len = r->tlen < TYJSON_ERROR_PATH_MAX ? r->tlen : TYJSON_ERROR_PATH_MAX;
        } else if (!key_put(r, r->tstr, r->tlen)) {
            return fail_plain(r, TYJSON_E_NOMEM, r->tok_off);
        }
        if (r->flags & TYJSON_READ_REJECT_DUPLICATE_KEYS) {
            if (!grow_bytes(r, &r->dupb, &r->dupb_cap, r->dupb_len + r->tlen + 1))
                return fail_plain(r, TYJSON_E_NOMEM, r->tok_off);
            if (r->p_first) r->p_dup = r->dupb_len; /* where this key's bytes start */
            memcpy(r->dupb + r->dupb_len, r->tstr, r->tlen);
            r->dupb_len += r->tlen;
            if (last && !dup_check(r, r->p_dup)) return fail_plain(r, TYJSON_E_NOMEM, r->tok_off);
        }
        if (last) r->st = S_OBJ_COLON;
    } else if (last) {
        after_value(r);
    }
    if (last) {
        r->pend = P_NONE;
    } else {
        r->p_first = false;
        r->p_piece = r->p_scan;
        r->p_keep = r->p_scan;
        r->p_esc = false;
        r->scr_len = 0;
    }
    return R_OK;
}

static int j5_string(tyjson_reader *r);

/* Reads the string (or the next piece of it) whose state is in r->p_*. */
static int read_string(tyjson_reader *r) {
    const bool ai = (r->flags & TYJSON_READ_ALLOW_INVALID_UTF8) != 0;
    for (;;) {
        const u8 *e = r->end;
        usize eo = end_off(r);
        bool limited = false;
        const u8 *lim = e;
        if (r->tok_limit < eo - r->p_piece) {
            lim = ptr_of(r, r->p_piece + r->tok_limit);
            limited = true;
        }
        const bool fin = r->eof && !limited;
        const u8 *p = ptr_of(r, r->p_scan), *stop;
        for (;;) {
            tyjson__str_scan sc = tyjson__str_scan_plain(p, lim, ai);
            if (likely(sc.err == TYJSON_OK)) {
                if (likely(*sc.stop == '"')) {
                    if (r->p_esc && !scratch_put(r, p, (usize)(sc.stop - p)))
                        return fail_plain(r, TYJSON_E_NOMEM, r->p_start);
                    r->cur = sc.stop + 1;
                    if (r->p_esc) return string_done(r, NULL, 0, true);
                    const u8 *raw = ptr_of(r, r->p_piece);
                    return string_done(r, raw, (usize)(sc.stop - raw), true);
                }
                /* an escape: decoded once all of it is resident */
                if (!fin && lim - sc.stop < 12) {
                    stop = sc.stop;
                    break;
                }
                if (!r->p_esc) {
                    r->scr_len = 0;
                    p = ptr_of(r, r->p_piece);
                    r->p_esc = true;
                }
                if (!scratch_put(r, p, (usize)(sc.stop - p)) || !scratch_room(r, 8))
                    return fail_plain(r, TYJSON_E_NOMEM, r->p_start);
                u8 *d = r->scr + r->scr_len;
                const u8 *q = sc.stop;
                for (;;) { /* a run of escapes without rescanning between them */
                    tyjson_status st = TYJSON_OK;
                    usize used = tyjson__str_escape_any(q, lim, &d, ai, &st);
                    if (!used) {
                        r->scr_len = (usize)(d - r->scr);
                        if (st == TYJSON_E_ESCAPE && (r->flags & TYJSON__J5_STR_FLAGS)) {
                            /* a JSON5 escape: the JSON5 reader goes on from it */
                            r->p_j5 = true;
                            r->p_quote = '"';
                            r->p_scan = off_of(r, q);
                            return j5_string(r);
                        }
                        return read_fail(r, st, q, EXPECT_STRING, NULL);
                    }
                    q += used;
                    /* another escape right here, all of it resident (or the
                     * input's end), and room for its bytes kept */
                    if (q >= lim || *q != '\\' || (!fin && lim - q < 12) ||
                        (usize)(r->scr + r->scr_cap - d) < 8 + SCRATCH_SLACK)
                        break;
                }
                r->scr_len = (usize)(d - r->scr);
                p = q;
                continue;
            }
            if (sc.err == TYJSON_E_TRUNCATED) {
                if (fin) return read_fail(r, TYJSON_E_TRUNCATED, lim, EXPECT_STRING, NULL);
                stop = lim;
                break;
            }
            if (sc.err == TYJSON_E_UTF8 && !fin && lim - sc.stop < 4) {
                stop = sc.stop; /* a character cut by the end of the bytes */
                break;
            }
            return read_fail(r, sc.err, sc.stop, EXPECT_STRING, NULL);
        }
        /* [p, stop) is plain text: out of bytes (or of the piece's room) */
        if (r->p_esc && !scratch_put(r, p, (usize)(stop - p)))
            return fail_plain(r, TYJSON_E_NOMEM, r->p_start);
        r->p_scan = off_of(r, stop);
        if (limited && (usize)(lim - stop) < 12) {
            if (!(r->rflags & TYJSON_READER_PIECES) && !r->skipping) {
                bool known = r->p_loc;
                usize l = r->p_line, c = r->p_col;
                fail_plain(r, TYJSON_E_SIZE, r->p_start);
                if (known) { /* the quote's bytes have left the window */
                    r->err.line = l;
                    r->err.column = c;
                }
                return R_ERR;
            }
            r->cur = stop;
            if (r->p_esc) return string_done(r, NULL, 0, false);
            const u8 *raw = ptr_of(r, r->p_piece);
            return string_done(r, raw, (usize)(stop - raw), false);
        }
        if (r->p_esc && !r->p_loc) {
            /* the bytes of the token's start may leave: note its place */
            usize at = r->p_first ? r->p_start : r->p_piece;
            locate(r, at, &r->p_line, &r->p_col);
            r->p_loc = true;
        }
        int rc = refill(r, r->p_esc ? r->p_scan : r->p_keep);
        if (rc) return rc;
    }
}

TYJSON__FORCEINLINE bool num_byte(u8 c) {
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

/* The number at p_start: read by the number core once no byte that could
 * extend it is missing (first on whatever is there, which settles all but
 * a number cut by the end of the bytes). */
static int read_number(tyjson_reader *r) {
    for (;;) {
        const u8 *s = ptr_of(r, r->p_start), *e = r->end;
        bool complete = r->eof;
        if (!complete && r->p_scan != r->p_start) {
            const u8 *q = ptr_of(r, r->p_scan);
            while (q < e && num_byte(*q)) q++;
            r->p_scan = off_of(r, q);
            complete = q < e;
        }
        if (complete || r->p_scan == r->p_start) {
            tyjson__num n;
            tyjson_status code = TYJSON_OK;
            const u8 *errpos = NULL;
            const u8 *q = unlikely(r->flags & TYJSON_READ_NUMBER_AS_RAW)
                              ? tyjson__num_read_text(s, e, &n, &code, &errpos)
                              : tyjson__num_read_inline(s, e, r->flags, &n, &code, &errpos);
            if (likely(q != NULL)) {
                if (likely(q < e || r->eof)) {
                    if (unlikely((usize)(q - s) > r->tok_limit))
                        return fail_plain(r, TYJSON_E_SIZE, r->p_start);
                    r->h.num = n;
                    r->tstr = s;
                    r->tlen = (usize)(q - s);
                    r->tnul = false;
                    r->cur = q;
                    r->pend = P_NONE;
                    set_tok(r, TYJSON_TOK_NUM, r->p_start, r->depth);
                    after_value(r);
                    return R_OK;
                }
            } else if (errpos < e || r->eof) {
                if (code == TYJSON_E_NUMBER && errpos >= e) code = TYJSON_E_TRUNCATED;
                return read_fail(r, code, errpos, EXPECT_NUMBER, s);
            }
            r->p_scan = end_off(r); /* every byte so far belongs to the number */
        }
        if (end_off(r) - r->p_start > r->tok_limit) return fail_plain(r, TYJSON_E_SIZE, r->p_start);
        int rc = refill(r, r->p_start);
        if (rc) return rc;
    }
}

/* true, false, null, or NaN/Infinity/-Infinity (as a NUM) at p_start. */
static int read_literal(tyjson_reader *r) {
    for (;;) {
        const u8 *s = ptr_of(r, r->p_start), *e = r->end;
        usize have = (usize)(e - s);
        u8 c = *s;
        bool word = c == 'N' || c == 'I' || c == '-';
        const char *lit = c == 't' ? "true" : c == 'f' ? "false" : "null";
        usize n = word ? 9 : c == 'f' ? 5 : 4;
        if (have < n && !r->eof) {
            int rc = refill(r, r->p_start);
            if (rc) return rc;
            continue;
        }
        if (word) {
            double d;
            usize k = tyjson__match_inf_nan(s, e, &d);
            if (!k) return read_fail(r, tyjson__inf_nan_status(s, e), s, EXPECT_LITERAL, NULL);
            r->h.num.kind = TYJSON__NUM_REAL;
            r->h.num.v.f = d;
            r->tstr = s;
            r->tlen = k;
            r->tnul = false;
            r->cur = s + k;
            set_tok(r, TYJSON_TOK_NUM, r->p_start, r->depth);
        } else {
            if (!tyjson__match_literal(s, e, lit, n, false))
                return read_fail(r, tyjson__literal_status(s, e, lit, n), s, EXPECT_LITERAL, NULL);
            r->cur = s + n;
            r->tstr = NULL;
            r->tlen = 0;
            set_tok(r, c == 't' ? TYJSON_TOK_TRUE : c == 'f' ? TYJSON_TOK_FALSE : TYJSON_TOK_NULL,
                    r->p_start, r->depth);
        }
        r->pend = P_NONE;
        after_value(r);
        return R_OK;
    }
}

/* A whole string without escapes, [raw, raw + n) resident, just read at
 * offset o (its quote): string_done's common case, the rest to it. */
TYJSON__FORCEINLINE int plain_string_done(tyjson_reader *r, usize o, const u8 *raw, usize n, bool key) {
    if (key && (r->flags & TYJSON_READ_REJECT_DUPLICATE_KEYS)) {
        r->p_key = true;
        r->p_esc = false;
        r->p_loc = false;
        r->p_first = true;
        r->p_start = o;
        return string_done(r, raw, n, true);
    }
    r->tstr = raw;
    r->tlen = n;
    r->tnul = false;
    set_tok(r, key ? TYJSON_TOK_KEY : TYJSON_TOK_STR, o, r->depth);
    r->pend = P_NONE;
    if (key) {
        frame *f = &r->frames[r->depth - 1];
        f->n++;
        r->keys_len = f->key_at;
        r->st = S_OBJ_COLON;
        if (r->in == IN_BUF) {
            /* the key stays in the caller's buffer: no copy */
            f->key_ext = raw;
            f->key_len = n < TYJSON_ERROR_PATH_MAX ? n : TYJSON_ERROR_PATH_MAX;
            f->key_win = false;
        } else if (r->in == IN_STREAM) {
            /* the key stays in the window until fill() moves it: its room
             * in r->keys is kept, the bytes copied there by keys_settle */
            usize k = n < TYJSON_ERROR_PATH_MAX ? n : TYJSON_ERROR_PATH_MAX;
            /* the room check inline: grow_bytes is a call for every key */
            if (unlikely(f->key_at + k > r->keys_cap) &&
                !grow_bytes(r, &r->keys, &r->keys_cap, f->key_at + k))
                return fail_plain(r, TYJSON_E_NOMEM, o);
            f->key_ext = raw;
            f->key_len = k;
            f->key_win = true;
            r->keys_len = f->key_at + k;
        } else {
            f->key_len = 0;
            f->key_ext = NULL;
            f->key_win = false;
            if (!key_put(r, raw, n)) return fail_plain(r, TYJSON_E_NOMEM, o);
        }
    } else {
        after_value(r);
    }
    return R_OK;
}

/* Starts the string at p (its quote). A string whose closing quote is
 * resident, with no escape before it, is settled here; the rest goes to
 * read_string, from the first escape or from the start. */
TYJSON__FORCEINLINE int start_string(tyjson_reader *r, const u8 *p, bool key) {
    usize o = off_of(r, p);
    const u8 *b = p + 1;
    usize scan = o + 1;
    tyjson__str_scan sc = tyjson__str_scan_plain(b, r->end, (r->flags & TYJSON_READ_ALLOW_INVALID_UTF8) != 0);
    if (likely(sc.err == TYJSON_OK) && likely((usize)(sc.stop - b) < r->tok_limit)) {
        if (likely(*sc.stop == '"')) {
            r->cur = sc.stop + 1;
            return plain_string_done(r, o, b, (usize)(sc.stop - b), key);
        }
        scan = off_of(r, sc.stop); /* [b, stop) is plain text */
    }
    r->pend = P_STR;
    r->p_key = key;
    r->p_esc = false;
    r->p_loc = false;
    r->p_first = true;
    r->p_start = o;
    r->p_keep = o;
    r->p_piece = o + 1;
    r->p_scan = scan;
    return read_string(r);
}

/* ----------------------------------------------------------------------------
 * JSON5 tokens (read/json5.h; only with a JSON5 flag, only where a byte is
 * not strict JSON, or a '"' string meets an escape JSON lacks). Each token
 * is decoded once all of it is resident: whitespace characters, numbers
 * and identifier keys are short, and a string keeps what is decoded so far
 * in the scratch, so the bytes kept for a refill are from p_scan on.
 * ------------------------------------------------------------------------- */
enum { J5_NO, J5_SPACE, J5_NEED, J5_ERR };

/* JSON5 whitespace at cur (ALLOW_EXTRA_WHITESPACE): J5_SPACE with cur past
 * the run of it and of any JSON whitespace and comments after it, J5_NO
 * when there is none. */
static TYJSON__NOINLINE int j5_space(tyjson_reader *r) {
    if (!(r->flags & TYJSON_READ_ALLOW_EXTRA_WHITESPACE)) return J5_NO;
    bool any = false;
    for (;;) {
        usize before = off_of(r, r->cur);
        int rc = skip_space(r); /* JSON's whitespace and comments */
        if (rc == R_NEED) return J5_NEED;
        if (rc == R_ERR) return J5_ERR;
        bool moved = off_of(r, r->cur) != before;
        const u8 *p = r->cur, *e = r->end;
        if (p < e && tyjson__j5_ws_lead(*p) && (e - p >= 3 || r->eof)) {
            usize n = tyjson__j5_ws_len(p, e);
            if (n) {
                r->cur = p + n;
                any = true;
                continue;
            }
            break;
        }
        if (p < e && tyjson__j5_ws_lead(*p)) { /* a character cut by the end of the bytes */
            rc = refill(r, off_of(r, p));
            if (rc == R_NEED) return J5_NEED;
            if (rc == R_ERR) return J5_ERR;
            continue;
        }
        if (!moved || p == e) break;
    }
    return any ? J5_SPACE : J5_NO;
}

/* The rest of the JSON5 string whose undecoded bytes start at p_scan (its
 * decoded start in the scratch), up to its closing quote p_quote. */
static int j5_string(tyjson_reader *r) {
    for (;;) {
        const u8 *s = ptr_of(r, r->p_scan), *e = r->end, *q = s;
        while (q < e && *q != r->p_quote) {
            if (*q != '\\') q++;
            else if (e - q >= 2) q += 2;
            else q = e; /* the escaped byte is not here yet */
        }
        if (q < e || r->eof) {
            if (!scratch_room(r, (usize)(e - s))) return fail_plain(r, TYJSON_E_NOMEM, r->p_start);
            tyjson__str_unesc u =
                tyjson__j5_str_unescape(s, e, r->scr + r->scr_len, r->p_quote, r->flags);
            r->p_j5 = false;
            if (u.err) return read_fail(r, u.err, u.src, EXPECT_STRING, NULL);
            r->scr_len = (usize)(u.dst - r->scr);
            r->cur = u.src;
            r->p_esc = true;
            return string_done(r, NULL, 0, true);
        }
        if (end_off(r) - r->p_start > r->tok_limit) {
            r->p_j5 = false;
            return fail_plain(r, TYJSON_E_SIZE, r->p_start);
        }
        if (!r->p_loc) {
            locate(r, r->p_start, &r->p_line, &r->p_col);
            r->p_loc = true;
        }
        int rc = refill(r, r->p_scan);
        if (rc) return rc;
    }
}

/* Starts a JSON5 string (p at its quote) or identifier key (quote 0). */
static int j5_start(tyjson_reader *r, const u8 *p, bool key, u8 quote) {
    usize o = off_of(r, p);
    r->pend = P_STR;
    r->p_j5 = true;
    r->p_quote = quote;
    r->p_key = key;
    r->p_esc = true;
    r->p_loc = false;
    r->p_first = true;
    r->p_start = r->p_keep = r->p_piece = o;
    r->p_scan = quote ? o + 1 : o;
    r->scr_len = 0;
    return 0;
}

/* The identifier key at p_start, read once a byte after it is resident. */
static int j5_ident(tyjson_reader *r) {
    for (;;) {
        const u8 *s = ptr_of(r, r->p_start), *e = r->end, *q = s;
        while (q < e && (tyjson__j5_ident_lead(*q) || (*q >= '0' && *q <= '9'))) {
            if (*q != '\\') q++;
            else if (e - q >= 6) q += 6;
            else q = e; /* the escape is not all here yet */
        }
        if (q < e || r->eof) {
            if (!scratch_room(r, (usize)(e - s))) return fail_plain(r, TYJSON_E_NOMEM, r->p_start);
            tyjson__str_unesc u = tyjson__j5_ident(s, e, r->scr);
            r->p_j5 = false;
            if (u.err) return read_fail(r, u.err, u.src, EXPECT_STRING, NULL);
            r->scr_len = (usize)(u.dst - r->scr);
            r->cur = u.src;
            return string_done(r, NULL, 0, true);
        }
        if (end_off(r) - r->p_start > r->tok_limit) {
            r->p_j5 = false;
            return fail_plain(r, TYJSON_E_SIZE, r->p_start);
        }
        int rc = refill(r, r->p_start);
        if (rc) return rc;
    }
}

TYJSON__FORCEINLINE bool j5_num_byte(u8 c) {
    return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || c == '-' ||
           c == '+' || c == '.';
}

/* The JSON5 number (or NaN/Infinity word) at p_start, read once a byte
 * after it is resident. */
static int j5_number(tyjson_reader *r) {
    for (;;) {
        const u8 *s = ptr_of(r, r->p_start), *e = r->end, *q = s;
        while (q < e && j5_num_byte(*q)) q++;
        if (q < e || r->eof) {
            tyjson__num n;
            tyjson_status code = TYJSON_OK;
            const u8 *errpos = s;
            r->p_j5 = false;
            q = tyjson__num_read_json5(s, e, r->flags, &n, &code, &errpos);
            if (!q) {
                if (code == TYJSON_E_NUMBER && errpos >= e) code = TYJSON_E_TRUNCATED;
                bool word = errpos < e && (*errpos == 'I' || *errpos == 'N');
                return read_fail(r, code, errpos, word ? EXPECT_LITERAL : EXPECT_NUMBER, s);
            }
            if (unlikely((usize)(q - s) > r->tok_limit)) return fail_plain(r, TYJSON_E_SIZE, r->p_start);
            r->h.num = n;
            r->tstr = s;
            r->tlen = (usize)(q - s);
            r->tnul = false;
            r->cur = q;
            r->pend = P_NONE;
            set_tok(r, TYJSON_TOK_NUM, r->p_start, r->depth);
            after_value(r);
            return R_OK;
        }
        if (end_off(r) - r->p_start > r->tok_limit) {
            r->p_j5 = false;
            return fail_plain(r, TYJSON_E_SIZE, r->p_start);
        }
        int rc = refill(r, r->p_start);
        if (rc) return rc;
    }
}

static int j5_start_number(tyjson_reader *r, const u8 *p) {
    r->pend = P_NUM;
    r->p_j5 = true;
    r->p_start = r->p_scan = off_of(r, p);
    return j5_number(r);
}

/* A JSON5 string, identifier key or number at p where strict JSON has
 * none, as flags allow: true with the step's result in *rc. */
static TYJSON__NOINLINE bool j5_token(tyjson_reader *r, const u8 *p, bool key, int *rc) {
    u8 c = *p;
    if (c == '\'' && (r->flags & TYJSON_READ_ALLOW_SINGLE_QUOTES)) {
        j5_start(r, p, key, '\'');
        *rc = j5_string(r);
        return true;
    }
    if (key) {
        if (!(r->flags & TYJSON_READ_ALLOW_UNQUOTED_KEYS) || !tyjson__j5_ident_lead(c)) return false;
        j5_start(r, p, true, 0);
        *rc = j5_ident(r);
        return true;
    }
    if (!tyjson__j5_number(c, r->flags)) return false;
    *rc = j5_start_number(r, p);
    return true;
}

/* ----------------------------------------------------------------------------
 * The state machine
 * ------------------------------------------------------------------------- */

/* The byte order mark, once, before the first value. */
static int skip_bom(tyjson_reader *r) {
    for (;;) {
        if ((usize)(r->end - r->cur) >= TYJSON__BOM_LEN || r->eof) {
            r->cur = tyjson__skip_bom(r->cur, r->end, r->flags);
            r->bom_pending = false;
            return R_OK;
        }
        int rc = refill(r, off_of(r, r->cur));
        if (rc) return rc;
    }
}

static int prelude(tyjson_reader *r);

/* prelude's failure at p; JSON5 whitespace there (ALLOW_EXTRA_WHITESPACE)
 * is skipped instead, with whatever whitespace and comments follow, and
 * prelude goes on (once: none is left). */
static TYJSON__NOINLINE int prelude_fail(tyjson_reader *r, tyjson_status code, const u8 *p,
                                         int expect) {
    int k = j5_space(r);
    if (k == J5_SPACE) return prelude(r);
    if (k == J5_NEED) return R_NEED;
    if (k == J5_ERR) return R_ERR;
    return read_fail(r, code, p, expect, NULL);
}

/* Moves through whitespace, comments and separators to the first byte of
 * the next token (or the end of the input where one may come). */
TYJSON__FORCEINLINE int prelude(tyjson_reader *r) {
    if (unlikely(r->bom_pending)) {
        int rc = skip_bom(r);
        if (rc) return rc;
    }
    for (;;) {
        int rc = skip_space(r);
        if (rc) return rc;
        const u8 *p = r->cur;
        bool at_end = p == r->end;
        switch (r->st) {
        case S_ARR_NEXT:
            if (at_end) return read_fail(r, TYJSON_E_TRUNCATED, p, EXPECT_ARR_NEXT, NULL);
            if (*p == ',') {
                r->cur = p + 1;
                r->st = S_ARR_VALUE;
                continue;
            }
            if (*p == ']') return R_OK;
            return prelude_fail(r, TYJSON_E_UNEXPECTED_CHAR, p, EXPECT_ARR_NEXT);
        case S_OBJ_NEXT:
            if (at_end) return read_fail(r, TYJSON_E_TRUNCATED, p, EXPECT_OBJ_NEXT, NULL);
            if (*p == ',') {
                r->cur = p + 1;
                r->st = S_OBJ_KEY;
                continue;
            }
            if (*p == '}') return R_OK;
            return prelude_fail(r, TYJSON_E_UNEXPECTED_CHAR, p, EXPECT_OBJ_NEXT);
        case S_OBJ_COLON:
            if (at_end) return read_fail(r, TYJSON_E_TRUNCATED, p, EXPECT_COLON, NULL);
            if (*p == ':') {
                r->cur = p + 1;
                r->st = S_OBJ_VALUE;
                continue;
            }
            return prelude_fail(r, TYJSON_E_UNEXPECTED_CHAR, p, EXPECT_COLON);
        case S_ROOT_END:
            if (at_end) return R_OK;
            if (r->flags & TYJSON_READ_STOP_WHEN_DONE) return R_OK;
            if (r->rflags & TYJSON_READER_MULTI) {
                r->st = S_ROOT;
                return R_OK;
            }
            return prelude_fail(r, TYJSON_E_TRAILING, p, EXPECT_NONE);
        default: return R_OK;
        }
    }
}

/* The value expectation of a state, for messages. */
static int value_expect(int st) {
    switch (st) {
    case S_ARR_FIRST: return EXPECT_ARR_FIRST;
    case S_ARR_VALUE: return EXPECT_ARR_VALUE;
    case S_OBJ_VALUE: return EXPECT_OBJ_VALUE;
    default: return EXPECT_ROOT;
    }
}

static tyjson_token finish_end(tyjson_reader *r) {
    r->st = S_END;
    set_tok(r, TYJSON_TOK_END, end_off(r), 0);
    r->consumed = off_of(r, r->cur);
    r->tstr = NULL;
    r->tlen = 0;
    return TYJSON_TOK_END;
}

static tyjson_token close_container(tyjson_reader *r, const u8 *p, bool obj) {
    frame *f = &r->frames[r->depth - 1];
    if (obj && f->dup_hit != NONE_IDX) {
        dup_fail(r, f);
        return TYJSON_TOK_ERROR;
    }
    if (obj && (r->flags & TYJSON_READ_REJECT_DUPLICATE_KEYS)) dup_pop(r, f->dup_from);
    r->depth--;
    r->top = r->depth ? f - 1 : NULL;
    r->keys_len = f->key_at;
    r->cur = p + 1;
    set_tok(r, obj ? TYJSON_TOK_OBJ_END : TYJSON_TOK_ARR_END, off_of(r, p), r->depth);
    r->tstr = NULL;
    r->tlen = 0;
    after_value(r);
    return r->h.tok;
}

static tyjson_token open_container(tyjson_reader *r, const u8 *p, bool obj) {
    if (unlikely(r->depth >= r->max_depth)) {
        read_fail(r, TYJSON_E_DEPTH, p, EXPECT_NONE, NULL);
        return TYJSON_TOK_ERROR;
    }
    set_tok(r, obj ? TYJSON_TOK_OBJ_BEGIN : TYJSON_TOK_ARR_BEGIN, off_of(r, p), r->depth);
    if (unlikely(!push_frame(r, obj))) {
        fail_plain(r, TYJSON_E_NOMEM, off_of(r, p));
        return TYJSON_TOK_ERROR;
    }
    r->cur = p + 1;
    r->tstr = NULL;
    r->tlen = 0;
    r->st = obj ? S_OBJ_FIRST : S_ARR_FIRST;
    return r->h.tok;
}

TYJSON__FORCEINLINE tyjson_token step_result(tyjson_reader *r, int rc) {
    if (likely(rc == R_OK)) return r->h.tok;
    return rc == R_NEED ? TYJSON_TOK_NEED_MORE : TYJSON_TOK_ERROR;
}

static tyjson_token next_token(tyjson_reader *r);

/* The value whose first byte is at p. */
static tyjson_token read_value(tyjson_reader *r, const u8 *p) {
    u8 c = *p;
    begin_value(r);
    switch (c) {
    case '{': return open_container(r, p, true);
    case '[': return open_container(r, p, false);
    case '"': return step_result(r, start_string(r, p, false));
    case '-':
        if (unlikely(r->flags & TYJSON__J5_NUM_FLAGS)) return step_result(r, j5_start_number(r, p));
        if (r->flags & TYJSON_READ_ALLOW_INF_NAN) {
            if (r->end - p < 2 && !r->eof) { /* "-I..." or a number: not known yet */
                r->pend = P_LIT;
                r->p_start = off_of(r, p);
                int rc = refill(r, r->p_start);
                if (rc) return step_result(r, rc);
                p = ptr_of(r, r->p_start);
            }
            if (r->end - p >= 2 && p[1] == 'I') {
                r->pend = P_LIT;
                r->p_start = off_of(r, p);
                return step_result(r, read_literal(r));
            }
        }
        /* fall through */
    case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9': {
        if (unlikely(r->flags & TYJSON__J5_NUM_FLAGS)) return step_result(r, j5_start_number(r, p));
        /* a number that ends before the last byte resident is settled
         * here; the rest (errors, a number the bytes may cut) by
         * read_number */
        tyjson__num n;
        tyjson_status code = TYJSON_OK;
        const u8 *errpos = NULL, *e = r->end;
        const u8 *q = unlikely(r->flags & TYJSON_READ_NUMBER_AS_RAW)
                          ? tyjson__num_read_text(p, e, &n, &code, &errpos)
                          : tyjson__num_read_inline(p, e, r->flags, &n, &code, &errpos);
        if (likely(q != NULL) && likely(q < e) && likely((usize)(q - p) <= r->tok_limit)) {
            r->h.num = n;
            r->tstr = p;
            r->tlen = (usize)(q - p);
            r->tnul = false;
            r->cur = q;
            set_tok(r, TYJSON_TOK_NUM, off_of(r, p), r->depth);
            after_value(r);
            return TYJSON_TOK_NUM;
        }
        r->pend = P_NUM;
        r->p_start = r->p_scan = off_of(r, p);
        return step_result(r, read_number(r));
    }
    case 'N':
    case 'I':
        if (!(r->flags & TYJSON_READ_ALLOW_INF_NAN)) break;
        if (r->flags & TYJSON__J5_NUM_FLAGS) return step_result(r, j5_start_number(r, p));
        /* fall through */
    case 't':
    case 'f':
    case 'n':
        if (c != 'N' && c != 'I') { /* a resident true, false or null, settled here */
            usize n = c == 'f' ? 5 : 4;
            if ((usize)(r->end - p) >= n &&
                tyjson__match_literal(p, r->end, c == 't' ? "true" : c == 'f' ? "false" : "null", n, false)) {
                r->cur = p + n;
                r->tstr = NULL;
                r->tlen = 0;
                set_tok(r, c == 't' ? TYJSON_TOK_TRUE : c == 'f' ? TYJSON_TOK_FALSE : TYJSON_TOK_NULL,
                        off_of(r, p), r->depth);
                after_value(r);
                return r->h.tok;
            }
        }
        r->pend = P_LIT;
        r->p_start = off_of(r, p);
        return step_result(r, read_literal(r));
    default: break;
    }
    if (r->flags & TYJSON__J5_FLAGS) {
        int rc;
        if (j5_token(r, p, false, &rc)) return step_result(r, rc);
        if (r->flags & TYJSON_READ_ALLOW_EXTRA_WHITESPACE) {
            /* JSON5 whitespace before the value: the value begins after it
             * (none is left there, so next_token comes back here once) */
            frame *f = r->depth ? &r->frames[r->depth - 1] : NULL;
            if (f && !f->obj) f->n--;
            int k = j5_space(r);
            if (k == J5_SPACE) return next_token(r);
            if (k != J5_NO) return k == J5_NEED ? TYJSON_TOK_NEED_MORE : TYJSON_TOK_ERROR;
            if (f && !f->obj) f->n++;
        }
    }
    read_fail(r, TYJSON_E_UNEXPECTED_CHAR, p, value_expect(r->st), NULL);
    return TYJSON_TOK_ERROR;
}

/* A token interrupted by NEED_MORE (or the next piece of a string). */
static tyjson_token resume(tyjson_reader *r) {
    switch (r->pend) {
    case P_STR:
        if (r->p_j5) return step_result(r, r->p_quote ? j5_string(r) : j5_ident(r));
        return step_result(r, read_string(r));
    case P_NUM:
        if (r->p_j5) return step_result(r, j5_number(r));
        return step_result(r, read_number(r));
    case P_LIT: {
        const u8 *p = ptr_of(r, r->p_start);
        if (*p == '-' && r->end - p < 2 && !r->eof) {
            int rc = refill(r, r->p_start);
            if (rc) return step_result(r, rc);
            p = ptr_of(r, r->p_start);
        }
        if (*p == '-' && !(r->end - p >= 2 && p[1] == 'I')) {
            r->pend = P_NUM;
            r->p_scan = r->p_start;
            return step_result(r, read_number(r));
        }
        return step_result(r, read_literal(r));
    }
    default: return TYJSON_TOK_ERROR;
    }
}

/* STOP_WHEN_DONE after the value: whitespace and comments count as
 * consumed; a bad comment is left unread (the DOM's read size). */
static tyjson_token stop_when_done(tyjson_reader *r) {
    while (r->pend == P_NONE) {
        const u8 *p = tyjson__skip_ws(r->cur, r->end);
        r->cur = p;
        if (p < r->end || r->eof) {
            r->ws_end = off_of(r, p);
            break;
        }
        int rc = refill(r, off_of(r, p));
        if (rc) return step_result(r, rc);
    }
    usize ws_end = r->ws_end;
    int rc = skip_space(r);
    if (rc == R_NEED) return TYJSON_TOK_NEED_MORE;
    if (rc == R_ERR) {
        if (r->err.code == TYJSON_E_IO || r->err.code == TYJSON_E_NOMEM) return TYJSON_TOK_ERROR;
        tyjson__err_ok(&r->err);
        r->pend = P_NONE;
        r->st = S_END;
        set_tok(r, TYJSON_TOK_END, ws_end, 0);
        r->consumed = ws_end;
        return TYJSON_TOK_END;
    }
    return finish_end(r);
}

static tyjson_token next_token(tyjson_reader *r) {
again:
    if (unlikely(r->st >= S_END)) return r->st == S_END ? TYJSON_TOK_END : TYJSON_TOK_ERROR;
    if (unlikely(r->pend == P_STR || r->pend == P_NUM || r->pend == P_LIT)) return resume(r);
    if (unlikely(r->st == S_ROOT_END && (r->flags & TYJSON_READ_STOP_WHEN_DONE)))
        return stop_when_done(r);
    int rc = prelude(r);
    if (unlikely(rc)) return rc == R_NEED ? TYJSON_TOK_NEED_MORE : TYJSON_TOK_ERROR;
    const u8 *p = r->cur;
    if (unlikely(p == r->end)) { /* the end of the input */
        switch (r->st) {
        case S_ROOT:
            if ((r->rflags & TYJSON_READER_MULTI)) return finish_end(r);
            read_fail(r, TYJSON_E_EMPTY, p, EXPECT_NONE, NULL);
            return TYJSON_TOK_ERROR;
        case S_ROOT_END: return finish_end(r);
        case S_OBJ_FIRST:
        case S_OBJ_KEY:
            read_fail(r, TYJSON_E_TRUNCATED, p, r->st == S_OBJ_FIRST ? EXPECT_KEY_FIRST : EXPECT_KEY, NULL);
            return TYJSON_TOK_ERROR;
        default:
            read_fail(r, TYJSON_E_TRUNCATED, p, value_expect(r->st), NULL);
            return TYJSON_TOK_ERROR;
        }
    }
    u8 c = *p;
    switch (r->st) {
    case S_OBJ_FIRST:
    case S_OBJ_KEY:
        if (likely(c == '"')) return step_result(r, start_string(r, p, true));
        if (c == '}' && (r->st == S_OBJ_FIRST || (r->flags & TYJSON_READ_ALLOW_TRAILING_COMMAS)))
            return close_container(r, p, true);
        if (r->flags & TYJSON__J5_FLAGS) {
            int rc, k = j5_space(r);
            if (k == J5_SPACE) goto again;
            if (k != J5_NO) return k == J5_NEED ? TYJSON_TOK_NEED_MORE : TYJSON_TOK_ERROR;
            if (j5_token(r, p, true, &rc)) return step_result(r, rc);
        }
        read_fail(r, TYJSON_E_UNEXPECTED_CHAR, p, r->st == S_OBJ_FIRST ? EXPECT_KEY_FIRST : EXPECT_KEY,
             NULL);
        return TYJSON_TOK_ERROR;
    case S_ARR_NEXT: return close_container(r, p, false);
    case S_OBJ_NEXT: return close_container(r, p, true);
    case S_ARR_FIRST:
        if (c == ']') return close_container(r, p, false);
        break;
    case S_ARR_VALUE:
        if (c == ']' && (r->flags & TYJSON_READ_ALLOW_TRAILING_COMMAS))
            return close_container(r, p, false);
        break;
    case S_ROOT_END: return finish_end(r); /* STOP_WHEN_DONE */
    default: break;
    }
    return read_value(r, p);
}


/* ----------------------------------------------------------------------------
 * The common step in one tight function: nothing pending, inside a
 * container, the token and its separators resident, strict numbers. It
 * takes the separators and the token as next_token would (the same
 * transitions, the same reading core); on anything else it leaves cur and
 * st where it got to (prelude is resumable from any state) and
 * next_token goes on from there, with the slow path's errors and refills.
 * ------------------------------------------------------------------------- */
/* Flags under which a value may read otherwise than fast_next reads it. */
#define FAST_OFF_FLAGS                                                         \
    (TYJSON__J5_NUM_FLAGS | TYJSON_READ_ALLOW_INF_NAN | TYJSON_READ_NUMBER_AS_RAW | \
     TYJSON_READ_REJECT_DUPLICATE_KEYS)

/* JSON whitespace from p (p < e, *p whitespace): one space, a newline and
 * its indentation, or the general skip. */
TYJSON__FORCEINLINE const u8 *fast_ws(const u8 *p, const u8 *e) {
    if (*p == ' ' && p + 1 < e && !tyjson__is_ws(p[1])) return p + 1;
    const u8 *q = tyjson__skip_indent(p, e);
    if (q != p && q < e && !tyjson__is_ws(*q)) return q;
    return tyjson__skip_ws(q, e);
}

TYJSON__FORCEINLINE void fast_tok(tyjson_reader *r, tyjson_token t, const u8 *p) {
    r->h.tok = t;
    r->tok_off = off_of(r, p);
    r->tok_depth = r->depth;
    r->tok_loc = false;
    r->partial = false;
}

/* The escaped string whose plain text [b, esc) ends at the escape esc,
 * decoded whole into the scratch by the shared unescape (read/lex.c) when
 * its closing quote is resident: one pass, where read_string's resumable
 * loop pays its room and piece checks per escape (twitterescaped: a \uXXXX
 * every few bytes). false, with nothing delivered, for anything else (the
 * quote not resident or beyond the token limit, an error, a JSON5 escape):
 * read_string then reads the string and says what is wrong. */
static bool fast_unescape(tyjson_reader *r, const u8 *b, const u8 *esc) {
    usize pre = (usize)(esc - b), avail = (usize)(r->end - esc);
    /* the closing quote this far from b at most: a token read_string
     * would deliver whole, its last escape 12 bytes inside the limit */
    usize max_raw = r->tok_limit > 12 ? r->tok_limit - 12 : 0;
    if (pre >= max_raw) return false;
    if (avail > max_raw - pre) avail = max_raw - pre;
    const bool ai = (r->flags & TYJSON_READ_ALLOW_INVALID_UTF8) != 0;
    usize want = 64; /* scratch room for the escaped part; doubled while it is short */
    for (;;) {
        if (want > avail) want = avail;
        usize need;
        if (tyjson__add_ovf(pre, want + 8 + SCRATCH_SLACK, &need)) return false;
        if (need > r->scr_cap) {
            r->scr_len = 0;
            if (!scratch_room(r, need)) return false;
        }
        usize room = r->scr_cap - pre - 8 - SCRATCH_SLACK; /* >= want */
        if (room > avail) room = avail;
        if (pre) memcpy(r->scr, b, pre);
        tyjson__str_unesc u = tyjson__str_unescape(esc, esc + room, r->scr + pre, ai);
        if (likely(u.err == TYJSON_OK)) {
            r->scr_len = (usize)(u.dst - r->scr);
            r->cur = u.src;
            return true;
        }
        /* out of room before the quote: more room, unless that was all */
        if (u.err != TYJSON_E_TRUNCATED || room == avail) return false;
        want = room * 2;
    }
}

/* fast_next's string or key at p whose plain text ends at the escape esc:
 * decoded whole (fast_unescape) or read_string goes on from the escape (no
 * rescan), as start_string hands it over. st is the state before the token
 * (a value already counted). */
static TYJSON__NOINLINE tyjson_token fast_escaped(tyjson_reader *r, const u8 *p, const u8 *esc, int st,
                                                  bool key) {
    usize o = off_of(r, p);
    r->cur = p;
    r->st = st;
    r->pend = P_STR;
    r->p_key = key;
    r->p_esc = false;
    r->p_loc = false;
    r->p_first = true;
    r->p_start = o;
    r->p_keep = o;
    r->p_piece = o + 1;
    if (fast_unescape(r, p + 1, esc)) {
        r->p_esc = true;
        return step_result(r, string_done(r, NULL, 0, true));
    }
    r->p_scan = off_of(r, esc);
    return step_result(r, read_string(r));
}

/* fast_next's way out to the general step at p in state st. */
static TYJSON__NOINLINE tyjson_token fast_slow(tyjson_reader *r, const u8 *p, int st) {
    r->cur = p;
    r->st = st;
    return next_token(r);
}

/* A string value, now the current token, ends at q: the state after it. */
TYJSON__FORCEINLINE tyjson_token fast_str_tok(tyjson_reader *r, const u8 *p, const u8 *q, int st) {
    const u8 *b = p + 1;
    r->tstr = b;
    r->tlen = (usize)(q - b);
    r->tnul = false;
    r->cur = q + 1;
    fast_tok(r, TYJSON_TOK_STR, p);
    const bool arr = st != S_OBJ_VALUE;
    if (arr) r->top->n++;
    r->st = arr ? S_ARR_NEXT : S_OBJ_NEXT;
    return TYJSON_TOK_STR;
}

/* fast_next's string or key at p that tyjson__str_quote16 did not settle: a long
 * or non-ASCII one (the vector scanner, a call), one with escapes, a key
 * of a push input. Out of the step so that the step makes no call. */
static TYJSON__NOINLINE tyjson_token fast_string(tyjson_reader *r, const u8 *p, int st, bool key) {
    const u8 *b = p + 1;
    tyjson__str_scan sc =
        tyjson__str_scan_plain(b, r->end, (r->flags & TYJSON_READ_ALLOW_INVALID_UTF8) != 0);
    if (unlikely(sc.err != TYJSON_OK) || unlikely((usize)(sc.stop - b) >= r->tok_limit))
        return fast_slow(r, p, st);
    if (unlikely(*sc.stop != '"')) {
        if (!key && st != S_OBJ_VALUE) r->top->n++; /* the value begins, as read_value counts it */
        return fast_escaped(r, p, sc.stop, st, key);
    }
    if (!key) return fast_str_tok(r, p, sc.stop, st);
    r->cur = sc.stop + 1;
    return step_result(r, plain_string_done(r, off_of(r, p), b, (usize)(sc.stop - b), true));
}

/* A number, now in r->h.num, read from p to q: the token and the state. */
TYJSON__FORCEINLINE tyjson_token fast_num_tok(tyjson_reader *r, const u8 *p, const u8 *q, int st) {
    r->tstr = p;
    r->tlen = (usize)(q - p);
    r->tnul = false;
    r->cur = q;
    fast_tok(r, TYJSON_TOK_NUM, p);
    const bool arr = st != S_OBJ_VALUE;
    if (arr) r->top->n++;
    r->st = arr ? S_ARR_NEXT : S_OBJ_NEXT;
    return TYJSON_TOK_NUM;
}

/* fast_number's number that the fast reader gave up on (long, near the end
 * of the bytes, or invalid): the general reader, or the general step. */
static TYJSON__NOINLINE tyjson_token fast_number_slow(tyjson_reader *r, const u8 *p, int st) {
    const u8 *e = r->end;
    tyjson__num n;
    tyjson_status code = TYJSON_OK;
    const u8 *errpos = NULL;
    const u8 *q = tyjson__num_read_slow(p, e, r->flags, &n, &code, &errpos);
    if (unlikely(q == NULL) || unlikely(q >= e) || unlikely((usize)(q - p) > r->tok_limit))
        return fast_slow(r, p, st);
    r->h.num = n;
    return fast_num_tok(r, p, q, st);
}

/* fast_next's number at p: the shared number core, whose real numbers
 * make a call (the scaling), out of the step. With the fast path's room
 * resident and a token limit above its longest number, the shared fast
 * reader writes the token's value in place and its end needs no check; it
 * writes nothing when it gives up. */
static TYJSON__NOINLINE tyjson_token fast_number(tyjson_reader *r, const u8 *p, int st) {
    const u8 *q = NULL;
    if (likely(r->end - p >= TYJSON__NUM_FAST_ROOM) && likely(r->tok_limit >= TYJSON__NUM_FAST_ROOM))
        q = tyjson__num_fast(p, &r->h.num);
    if (unlikely(q == NULL)) return fast_number_slow(r, p, st);
    return fast_num_tok(r, p, q, st);
}

/* The step itself makes no call on its common paths (short ASCII strings
 * and keys, literals, containers, separators, whitespace): every way out
 * is a tail call (fast_number, fast_string, fast_escaped, fast_slow), so
 * gcc keeps the step's state in the registers a call clobbers and saves
 * none (17 instructions a token spent on saves and restores before). */
static tyjson_token fast_next(tyjson_reader *r) {
    const u8 *p = r->cur, *e = r->end;
    int st = r->st;
    u8 c;
    if (unlikely(p >= e)) goto slow;
    c = *p;
    if (tyjson__is_ws(c)) {
        p = fast_ws(p, e);
        if (unlikely(p >= e)) goto slow;
        c = *p;
    }
    switch (st) {
    case S_ARR_NEXT:
        if (likely(c == ',')) {
            p++;
            st = S_ARR_VALUE;
            goto after_separator;
        }
        if (c == ']') goto close_arr;
        goto slow;
    case S_OBJ_NEXT:
        if (likely(c == ',')) {
            p++;
            st = S_OBJ_KEY;
            goto after_separator;
        }
        if (c == '}') goto close_obj;
        goto slow;
    case S_OBJ_COLON:
        if (likely(c == ':')) {
            p++;
            st = S_OBJ_VALUE;
            goto after_separator;
        }
        goto slow;
    case S_OBJ_FIRST:
        if (c == '}') goto close_obj;
        /* fall through */
    case S_OBJ_KEY:
        if (likely(c == '"')) goto key;
        goto slow;
    case S_ARR_FIRST:
        if (c == ']') goto close_arr;
        /* fall through */
    case S_ARR_VALUE:
    case S_OBJ_VALUE: goto value;
    default: goto slow;
    }

/* After a separator the next state is known: what follows it goes to the
 * key or the value directly, not through the state's jump table again (one
 * indirect jump less per token). */
after_separator:
    if (unlikely(p >= e)) goto slow;
    c = *p;
    if (tyjson__is_ws(c)) {
        p = fast_ws(p, e);
        if (unlikely(p >= e)) goto slow;
        c = *p;
    }
    if (st != S_OBJ_KEY) goto value;
    if (unlikely(c != '"')) goto slow;

key : {
    const u8 *b = p + 1, *q = tyjson__str_quote16(b, e);
    /* a buffer input's key stays in the caller's buffer, a stream's in the
     * window until fill() moves it (its room in r->keys kept, the bytes
     * copied there by keys_settle); a push input's is copied
     * (fast_string). n < 16: within the token limit (MIN_TOKEN) and never
     * cut for the path (TYJSON_ERROR_PATH_MAX). */
    if (unlikely(q == NULL) || unlikely(r->in == IN_PUSH)) return fast_string(r, p, st, true);
    frame *f = r->top;
    usize n = (usize)(q - b);
    if (r->in == IN_STREAM && unlikely(f->key_at + n > r->keys_cap)) return fast_string(r, p, st, true);
    r->tstr = b;
    r->tlen = n;
    r->tnul = false;
    r->cur = q + 1;
    fast_tok(r, TYJSON_TOK_KEY, p);
    f->n++;
    f->key_ext = b;
    f->key_len = n;
    f->key_win = r->in == IN_STREAM;
    r->keys_len = f->key_at + (r->in == IN_STREAM ? n : 0);
    r->st = S_OBJ_COLON;
    return TYJSON_TOK_KEY;
}

value : {
    /* the top frame is loaded only where it changes: an array's count, a
     * new container */
    const bool arr = st != S_OBJ_VALUE;
    /* numbers first, by two compares: the value of number arrays (mesh,
     * canada), for which the switch's chain of compares cost 10 a value */
    if (likely((u32)c - '0' <= 9) || c == '-') return fast_number(r, p, st);
    switch (c) {
    case '"': {
        const u8 *q = tyjson__str_quote16(p + 1, e); /* < 16 bytes: within the token limit */
        if (unlikely(q == NULL)) return fast_string(r, p, st, false);
        return fast_str_tok(r, p, q, st);
    }
    /* literals by 4-byte compares (memcmp with a chosen literal is a call) */
    case 't':
        if (unlikely(e - p < 4) || tyjson__load32(p) != tyjson__load32((const u8 *)"true")) goto slow;
        r->cur = p + 4;
        fast_tok(r, TYJSON_TOK_TRUE, p);
        break;
    case 'n':
        if (unlikely(e - p < 4) || tyjson__load32(p) != tyjson__load32((const u8 *)"null")) goto slow;
        r->cur = p + 4;
        fast_tok(r, TYJSON_TOK_NULL, p);
        break;
    case 'f':
        if (unlikely(e - p < 5) || tyjson__load32(p + 1) != tyjson__load32((const u8 *)"alse")) goto slow;
        r->cur = p + 5;
        fast_tok(r, TYJSON_TOK_FALSE, p);
        break;
    case '{':
    case '[': {
        if (unlikely(r->depth >= r->max_depth) || unlikely(r->depth == r->fcap)) goto slow;
        frame *f = r->top;
        if (arr) f->n++;
        fast_tok(r, c == '{' ? TYJSON_TOK_OBJ_BEGIN : TYJSON_TOK_ARR_BEGIN, p);
        frame *g = f + 1;
        r->depth++;
        r->top = g;
        g->n = 0;
        g->obj = c == '{';
        g->key_at = r->keys_len;
        g->key_len = 0;
        g->key_ext = NULL;
        g->key_win = false;
        g->dup_from = r->ndups;
        g->dup_hit = NONE_IDX;
        r->cur = p + 1;
        r->tstr = NULL;
        r->tlen = 0;
        r->st = c == '{' ? S_OBJ_FIRST : S_ARR_FIRST;
        return r->h.tok;
    }
    default: goto slow;
    }
    /* a literal */
    r->tstr = NULL;
    r->tlen = 0;
    if (arr) r->top->n++;
    r->st = arr ? S_ARR_NEXT : S_OBJ_NEXT;
    return r->h.tok;
}

close_obj : {
    frame *f = r->top;
    if (unlikely(f->dup_hit != NONE_IDX)) goto slow;
    r->depth--;
    r->top = r->depth ? f - 1 : NULL;
    r->keys_len = f->key_at;
    r->cur = p + 1;
    fast_tok(r, TYJSON_TOK_OBJ_END, p);
    r->tstr = NULL;
    r->tlen = 0;
    r->st = r->depth == 0 ? S_ROOT_END : f[-1].obj ? S_OBJ_NEXT : S_ARR_NEXT;
    return TYJSON_TOK_OBJ_END;
}

close_arr : {
    frame *f = r->top;
    r->depth--;
    r->top = r->depth ? f - 1 : NULL;
    r->keys_len = f->key_at;
    r->cur = p + 1;
    fast_tok(r, TYJSON_TOK_ARR_END, p);
    r->tstr = NULL;
    r->tlen = 0;
    r->st = r->depth == 0 ? S_ROOT_END : f[-1].obj ? S_OBJ_NEXT : S_ARR_NEXT;
    return TYJSON_TOK_ARR_END;
}

slow:
    return fast_slow(r, p, st);
}

/* ----------------------------------------------------------------------------
 * Public API: life cycle and inputs
 * ------------------------------------------------------------------------- */
#define KNOWN_READ_FLAGS                                                       \
    (TYJSON_READ_ALLOW_COMMENTS | TYJSON_READ_ALLOW_TRAILING_COMMAS |          \
     TYJSON_READ_ALLOW_INF_NAN | TYJSON_READ_ALLOW_BOM |                       \
     TYJSON_READ_ALLOW_INVALID_UTF8 | TYJSON_READ_STOP_WHEN_DONE |             \
     TYJSON_READ_REJECT_DUPLICATE_KEYS | TYJSON_READ_BIGNUM_AS_RAW |            \
     TYJSON_READ_NUMBER_AS_RAW | TYJSON__J5_FLAGS)
#define KNOWN_READER_FLAGS (TYJSON_READER_MULTI | TYJSON_READER_PIECES)
#define MIN_TOKEN 16 /* a piece holds at least one escape or character */

tyjson_reader *tyjson_reader_new(const tyjson_reader_options *opts, tyjson_error *err) {
    tyjson_reader_options o;
    if (opts) o = *opts;
    else memset(&o, 0, sizeof(o));
    if ((o.flags & ~(u32)KNOWN_READ_FLAGS) || (o.reader_flags & ~(u32)KNOWN_READER_FLAGS)) {
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return NULL;
    }
    tyjson_alloc alc = tyjson__alc_or_libc(o.alc);
    tyjson_reader *r = (tyjson_reader *)tyjson__malloc(&alc, sizeof(*r));
    if (!r) {
        tyjson__err_set(err, TYJSON_E_NOMEM, NULL, 0, 0);
        return NULL;
    }
    memset(r, 0, sizeof(*r));
    r->alc = alc;
    r->flags = o.flags;
    r->rflags = o.reader_flags;
    r->max_depth = o.max_depth ? o.max_depth : TYJSON_DEFAULT_MAX_DEPTH;
    r->window = o.window ? (o.window < 64 ? 64 : o.window) : TYJSON_READER_DEFAULT_WINDOW;
    r->max_token = o.max_token ? (o.max_token < MIN_TOKEN ? MIN_TOKEN : o.max_token) : 0;
    r->max_value = o.max_value ? o.max_value : TYJSON_READER_DEFAULT_MAX_VALUE;
    r->frames = r->finl;
    r->fcap = INLINE_FRAMES;
    r->st = S_ERROR;
    tyjson__err_set(&r->err, TYJSON_E_STATE, NULL, 0, 0);
    tyjson__err_msg(&r->err, "no input: open one with a tyjson_reader_open_* call");
    tyjson__err_ok(err);
    return r;
}

void tyjson_reader_free(tyjson_reader *r) {
    if (!r) return;
    tyjson_alloc alc = r->alc;
    if (r->frames != r->finl) tyjson__free(&alc, r->frames);
    tyjson__free(&alc, r->win);
    tyjson__free(&alc, r->scr);
    tyjson__free(&alc, r->keys);
    tyjson__free(&alc, r->dups);
    tyjson__free(&alc, r->dupb);
    tyjson__free(&alc, r->dupt);
    tyjson__free(&alc, r);
}

/* Drops the previous input, keeps the memory. */
static void reset(tyjson_reader *r, int in) {
    r->in = in;
    memset(&r->src, 0, sizeof(r->src));
    r->base = r->cur = r->end = r->win;
    r->base_off = 0;
    r->eof = false;
    r->bom_pending = (r->flags & TYJSON_READ_ALLOW_BOM) != 0;
    r->in_win = true;
    r->fp = r->fe = NULL;
    r->fp_off = r->fed_total = 0;
    r->fed_end = false;
    r->st = S_ROOT;
    r->fast = !(r->flags & FAST_OFF_FLAGS);
    r->depth = 0;
    r->top = NULL;
    r->h.tok = TYJSON_TOK_ERROR;
    r->tok_off = 0;
    r->tok_depth = 0;
    r->tstr = NULL;
    r->tlen = 0;
    r->tnul = false;
    r->partial = false;
    r->pend = P_NONE;
    r->p_j5 = false;
    r->skip_active = r->skipping = false;
    r->span_active = false;
    r->scr_len = 0;
    r->keys_len = 0;
    if (r->ndups) dup_pop(r, 0); /* objects an earlier input left open */
    r->dupb_len = 0;
    r->lc_off = 0;
    r->lc_line = 1;
    r->lc_ls = 0;
    r->tok_loc = false;
    r->consumed = 0;
    r->tok_limit = r->max_token ? r->max_token : in == IN_BUF ? SIZE_MAX : r->window;
    tyjson__err_ok(&r->err);
}

tyjson_status tyjson_reader_open_buf(tyjson_reader *r, const char *dat, size_t len) {
    if (!r || (!dat && len)) return TYJSON_E_INVALID_ARG;
    reset(r, IN_BUF);
    if (!dat) dat = "";
    r->base = r->cur = (const u8 *)dat;
    r->end = r->base + len;
    r->eof = true;
    r->in_win = false;
    return TYJSON_OK;
}

static tyjson_status open_stream(tyjson_reader *r) {
    reset(r, IN_STREAM);
    if (!window_room(r, r->window)) {
        fail_plain(r, TYJSON_E_NOMEM, 0);
        return TYJSON_E_NOMEM;
    }
    r->base = r->cur = r->end = r->win;
    return TYJSON_OK;
}

tyjson_status tyjson_reader_open_fp(tyjson_reader *r, FILE *fp) {
    if (!r || !fp) return TYJSON_E_INVALID_ARG;
    tyjson_status s = open_stream(r);
    tyjson__source_fp(&r->src, fp);
    return s;
}

tyjson_status tyjson_reader_open_fd(tyjson_reader *r, int fd) {
    if (!r || fd < 0) return TYJSON_E_INVALID_ARG;
    tyjson_status s = open_stream(r);
    tyjson__source_fd(&r->src, fd);
    return s;
}

tyjson_status tyjson_reader_open_cb(tyjson_reader *r, tyjson_read_fn fn, void *ctx) {
    if (!r || !fn) return TYJSON_E_INVALID_ARG;
    tyjson_status s = open_stream(r);
    tyjson__source_cb(&r->src, fn, ctx);
    return s;
}

tyjson_status tyjson_reader_open_push(tyjson_reader *r) {
    if (!r) return TYJSON_E_INVALID_ARG;
    reset(r, IN_PUSH);
    if (!window_room(r, r->window)) {
        fail_plain(r, TYJSON_E_NOMEM, 0);
        return TYJSON_E_NOMEM;
    }
    r->base = r->cur = r->end = r->win;
    return TYJSON_OK;
}

tyjson_status tyjson_reader_feed(tyjson_reader *r, const char *dat, size_t len) {
    if (!r || (!dat && len)) return TYJSON_E_INVALID_ARG;
    if (r->in != IN_PUSH || r->fed_end || !r->in_win || r->fp != r->fe) return TYJSON_E_STATE;
    if (!len) return TYJSON_OK;
    r->fp = (const u8 *)dat;
    r->fe = r->fp + len;
    r->fp_off = r->fed_total;
    r->fed_total += len;
    return TYJSON_OK;
}

tyjson_status tyjson_reader_feed_end(tyjson_reader *r) {
    if (!r) return TYJSON_E_INVALID_ARG;
    if (r->in != IN_PUSH || r->fed_end) return TYJSON_E_STATE;
    r->fed_end = true;
    return TYJSON_OK;
}

/* ----------------------------------------------------------------------------
 * Public API: tokens
 * ------------------------------------------------------------------------- */
tyjson_token tyjson_reader_next(tyjson_reader *r) {
    if (!r) return TYJSON_TOK_ERROR;
    if (likely(r->fast) && likely(r->pend == P_NONE)) return fast_next(r);
    return next_token(r);
}

tyjson_token tyjson_reader_peek(tyjson_reader *r) {
    if (!r) return TYJSON_TOK_ERROR;
    if (r->st >= S_END) return r->st == S_END ? TYJSON_TOK_END : TYJSON_TOK_ERROR;
    if (r->pend == P_STR) return r->p_key ? TYJSON_TOK_KEY : TYJSON_TOK_STR;
    if (r->pend == P_NUM) return TYJSON_TOK_NUM;
    if (r->pend == P_LIT) {
        u8 c = *ptr_of(r, r->p_start);
        return c == 't' ? TYJSON_TOK_TRUE : c == 'f' ? TYJSON_TOK_FALSE
             : c == 'n' ? TYJSON_TOK_NULL : TYJSON_TOK_NUM;
    }
    if (r->st == S_ROOT_END && (r->flags & TYJSON_READ_STOP_WHEN_DONE)) return TYJSON_TOK_END;
    const u8 *p;
    for (;;) {
        int rc = prelude(r);
        if (rc) return rc == R_NEED ? TYJSON_TOK_NEED_MORE : TYJSON_TOK_ERROR;
        p = r->cur;
        if (p == r->end || !(r->flags & TYJSON_READ_ALLOW_EXTRA_WHITESPACE) ||
            !tyjson__j5_ws_lead(*p))
            break;
        int k = j5_space(r);
        if (k == J5_NO) break;
        if (k != J5_SPACE) return k == J5_NEED ? TYJSON_TOK_NEED_MORE : TYJSON_TOK_ERROR;
    }
    if (p == r->end) {
        if (r->st == S_ROOT_END || (r->st == S_ROOT && (r->rflags & TYJSON_READER_MULTI)))
            return TYJSON_TOK_END;
        return TYJSON_TOK_ERROR;
    }
    u8 c = *p;
    bool obj = r->st == S_OBJ_FIRST || r->st == S_OBJ_KEY;
    if (r->st == S_ROOT_END) return TYJSON_TOK_END;
    if (obj) {
        if (c == '"') return TYJSON_TOK_KEY;
        if ((c == '\'' && (r->flags & TYJSON_READ_ALLOW_SINGLE_QUOTES)) ||
            ((r->flags & TYJSON_READ_ALLOW_UNQUOTED_KEYS) && tyjson__j5_ident_lead(c)))
            return TYJSON_TOK_KEY;
        if (c == '}' && (r->st == S_OBJ_FIRST || (r->flags & TYJSON_READ_ALLOW_TRAILING_COMMAS)))
            return TYJSON_TOK_OBJ_END;
        return TYJSON_TOK_ERROR;
    }
    if (r->st == S_OBJ_NEXT) return TYJSON_TOK_OBJ_END;
    if (r->st == S_ARR_NEXT) return TYJSON_TOK_ARR_END;
    if (c == ']' && (r->st == S_ARR_FIRST ||
                     (r->st == S_ARR_VALUE && (r->flags & TYJSON_READ_ALLOW_TRAILING_COMMAS))))
        return TYJSON_TOK_ARR_END;
    if (c == '\'' && (r->flags & TYJSON_READ_ALLOW_SINGLE_QUOTES)) return TYJSON_TOK_STR;
    if (tyjson__j5_number(c, r->flags)) return TYJSON_TOK_NUM;
    switch (c) {
    case '{': return TYJSON_TOK_OBJ_BEGIN;
    case '[': return TYJSON_TOK_ARR_BEGIN;
    case '"': return TYJSON_TOK_STR;
    case 't': return TYJSON_TOK_TRUE;
    case 'f': return TYJSON_TOK_FALSE;
    case 'n': return TYJSON_TOK_NULL;
    case 'N':
    case 'I': return (r->flags & TYJSON_READ_ALLOW_INF_NAN) ? TYJSON_TOK_NUM : TYJSON_TOK_ERROR;
    default: return (c == '-' || (c >= '0' && c <= '9')) ? TYJSON_TOK_NUM : TYJSON_TOK_ERROR;
    }
}

static TYJSON__NOINLINE const char *str_slow(const tyjson_reader *cr, size_t *len);

const char *tyjson_reader_str(const tyjson_reader *cr, size_t *len) {
    tyjson_reader *r = (tyjson_reader *)(uintptr_t)cr; /* the NUL is added lazily */
    if (likely(r != NULL) && likely(r->h.tok == TYJSON_TOK_KEY || r->h.tok == TYJSON_TOK_STR) &&
        likely(!r->tnul)) {
        /* the common case: a text of up to 32 bytes in the input or the
         * window, 32 readable bytes from it, copied with four 8-byte moves */
        const u8 *t = r->tstr;
        usize n = r->tlen;
        u8 *d = r->scr;
        if (likely(n <= 32) && likely(r->scr_cap >= 32 + 1 + SCRATCH_SLACK) && likely(r->end - t >= 32) &&
            likely(t != d)) {
            u64 w0 = tyjson__load64(t), w1 = tyjson__load64(t + 8), w2 = tyjson__load64(t + 16),
                w3 = tyjson__load64(t + 24);
            memcpy(d, &w0, 8);
            memcpy(d + 8, &w1, 8);
            memcpy(d + 16, &w2, 8);
            memcpy(d + 24, &w3, 8);
            d[n] = 0;
            r->scr_len = 0;
            r->tstr = d;
            r->tnul = true;
            if (len) *len = n;
            return (const char *)d;
        }
    }
    return str_slow(cr, len);
}

static const char *str_slow(const tyjson_reader *cr, size_t *len) {
    tyjson_reader *r = (tyjson_reader *)(uintptr_t)cr;
    if (len) *len = 0;
    if (!cr) return NULL;
    if (r->h.tok != TYJSON_TOK_KEY && r->h.tok != TYJSON_TOK_STR && r->h.tok != TYJSON_TOK_NUM)
        return NULL;
    if (!r->tnul) {
        /* text in the input or the window: a NUL-terminated copy */
        if (r->tstr != r->scr) {
            usize n = r->tlen;
            usize save = r->scr_len;
            r->scr_len = 0;
            if (!scratch_room(r, n)) {
                r->scr_len = save;
                return NULL;
            }
            if (n <= 16 && r->end - r->tstr >= 16) { /* a short one: two 8-byte moves */
                u64 a, b;
                memcpy(&a, r->tstr, 8);
                memcpy(&b, r->tstr + 8, 8);
                memcpy(r->scr, &a, 8);
                memcpy(r->scr + 8, &b, 8);
            } else {
                memmove(r->scr, r->tstr, n);
            }
            r->tstr = r->scr;
        }
        r->scr[r->tlen] = 0;
        r->tnul = true;
    }
    if (len) *len = r->tlen;
    return (const char *)r->tstr;
}

bool tyjson_reader_partial(const tyjson_reader *r) { return r && r->partial; }

/* tyjson_reader_get_i64, _u64, _double: inline in reader.h. */

uint32_t tyjson_reader_depth(const tyjson_reader *r) { return r ? r->tok_depth : 0; }

size_t tyjson_reader_offset(const tyjson_reader *r) { return r ? r->tok_off : 0; }

void tyjson_reader_location(const tyjson_reader *cr, size_t *line, size_t *column) {
    usize l = 0, c = 0;
    if (cr) {
        tyjson_reader *r = (tyjson_reader *)(uintptr_t)cr; /* lines are counted lazily */
        if (!r->tok_loc) {
            if (r->tok_off >= r->lc_off && r->tok_off <= end_off(r)) {
                count_to(r, r->tok_off);
                r->tok_line = r->lc_line;
                r->tok_col = r->tok_off - r->lc_ls + 1;
            } else {
                locate(r, r->tok_off, &r->tok_line, &r->tok_col);
            }
            r->tok_loc = true;
        }
        l = r->tok_line;
        c = r->tok_col;
    }
    if (line) *line = l;
    if (column) *column = c;
}

size_t tyjson_reader_path(const tyjson_reader *r, char *buf, size_t size) {
    char dummy[1];
    if (!buf || !size) {
        buf = dummy;
        size = 1;
    }
    if (!r) {
        buf[0] = 0;
        return 0;
    }
    u32 nf = r->depth;
    if ((r->h.tok == TYJSON_TOK_OBJ_BEGIN || r->h.tok == TYJSON_TOK_ARR_BEGIN) && nf) nf--;
    return path_frames(r, nf, buf, size);
}

const tyjson_error *tyjson_reader_error(const tyjson_reader *r) {
    static const tyjson_error none = {TYJSON_E_INVALID_ARG, 0, 0, 0, "invalid argument", ""};
    return r ? &r->err : &none;
}

size_t tyjson_reader_consumed(const tyjson_reader *r) {
    if (!r) return 0;
    if (r->st == S_END) return r->consumed;
    return off_of(r, r->cur);
}

size_t tyjson_reader_mem_size(const tyjson_reader *r) {
    if (!r) return 0;
    usize n = sizeof(*r) + r->win_cap + r->scr_cap + r->keys_cap + r->dupb_cap +
              r->dups_cap * sizeof(dup_ent) + r->dupt_cap * sizeof(usize);
    if (r->frames != r->finl) n += r->fcap * sizeof(frame);
    return n;
}

/* ----------------------------------------------------------------------------
 * Whole values: skip, read_doc, decode
 * ------------------------------------------------------------------------- */

/* The reader stands after a value taken whole, [s, e). */
static void stand_after(tyjson_reader *r, const u8 *s, const u8 *e) {
    u8 c = *s;
    tyjson_token t = c == '{' ? TYJSON_TOK_OBJ_END : c == '[' ? TYJSON_TOK_ARR_END
                   : c == '"' ? TYJSON_TOK_STR : c == 't' ? TYJSON_TOK_TRUE
                   : c == 'f' ? TYJSON_TOK_FALSE : c == 'n' ? TYJSON_TOK_NULL : TYJSON_TOK_NUM;
    r->cur = e;
    set_tok(r, t, off_of(r, s), r->depth);
    r->tstr = NULL;
    r->tlen = 0;
    r->tnul = false;
    r->h.num.kind = TYJSON__NUM_RAW; /* no number to get */
    after_value(r);
}

static tyjson__skip_opts skip_opts(const tyjson_reader *r) {
    tyjson__skip_opts o;
    o.end = r->end;
    o.flags = r->flags;
    o.depth = r->depth;
    o.max_depth = r->max_depth;
    o.alc = &r->alc;
    return o;
}

enum { SPAN_OK = 0, SPAN_NEED = R_NEED, SPAN_ERR = R_ERR, SPAN_STATE, SPAN_BAD };

/* Finds the extent of the value that comes next, with all its bytes
 * resident: SPAN_OK with [*sp, *ep); SPAN_BAD: it is invalid ([*sp, end) to
 * be parsed for the DOM's error); SPAN_STATE: no value comes next. */
static int value_span(tyjson_reader *r, const u8 **sp, const u8 **ep) {
    if (r->st >= S_END) return r->st == S_END ? SPAN_STATE : SPAN_ERR;
    if (!r->span_active) {
        if (r->pend == P_STR || r->pend == P_NUM || r->pend == P_LIT) return SPAN_STATE;
        int rc = prelude(r);
        if (rc) return rc;
        const u8 *p = r->cur;
        int st = r->st;
        bool value_state = st == S_ROOT || st == S_ARR_FIRST || st == S_ARR_VALUE || st == S_OBJ_VALUE;
        if (!value_state) return SPAN_STATE;
        if (p == r->end) {
            if (st == S_ROOT && (r->rflags & TYJSON_READER_MULTI)) return SPAN_STATE;
            next_token(r); /* the DOM's error for the end of the input here */
            return SPAN_ERR;
        }
        if (*p == ']' && st == S_ARR_FIRST) return SPAN_STATE;
        if (*p == ']' && st == S_ARR_VALUE) {
            if (r->flags & TYJSON_READ_ALLOW_TRAILING_COMMAS) return SPAN_STATE;
            next_token(r);
            return SPAN_ERR;
        }
        begin_value(r);
        r->span_active = true;
        r->span_start = off_of(r, p);
        r->span_tried = 0;
    }
    for (;;) {
        usize have = end_off(r) - r->span_start;
        /* retry the skip only once the bytes have doubled: linear in all */
        if (have >= 2 * r->span_tried || r->eof) {
            const u8 *s = ptr_of(r, r->span_start);
            u8 c = *s;
            if ((c == '{' || c == '[') && r->depth >= r->max_depth) {
                r->span_active = false;
                return read_fail(r, TYJSON_E_DEPTH, s, EXPECT_NONE, NULL);
            }
            tyjson__skip_opts o = skip_opts(r);
            tyjson__read_res res = tyjson__skip_value(s, &o);
            bool open_end = res.err == TYJSON_OK && res.pos == r->end && c != '{' && c != '[' &&
                            c != '"';
            if (res.err == TYJSON_OK && (!open_end || r->eof)) {
                *sp = s;
                *ep = res.pos;
                r->span_active = false;
                return SPAN_OK;
            }
            if (res.err == TYJSON_E_NOMEM) {
                r->span_active = false;
                return fail_plain(r, TYJSON_E_NOMEM, r->span_start);
            }
            if (r->eof || (res.err != TYJSON_OK && res.err != TYJSON_E_TRUNCATED &&
                           (usize)(r->end - res.pos) > 16)) {
                *sp = s;
                *ep = r->end;
                r->span_active = false;
                return SPAN_BAD;
            }
            r->span_tried = have;
        }
        if (have >= r->max_value) {
            r->span_active = false;
            return fail_plain(r, TYJSON_E_SIZE, r->span_start);
        }
        int rc = refill(r, r->span_start);
        if (rc) {
            if (rc == R_ERR) r->span_active = false;
            return rc;
        }
    }
}

/* The reader's path at the value being read whole (begin_value counted it). */
static void value_path(const tyjson_reader *r, char *buf, usize size) {
    path_frames(r, r->depth, buf, size);
}

/* Moves an error of a read of the span at span_off into the whole input,
 * under the path prefix. */
static void rebase(tyjson_reader *r, tyjson_error *e, usize span_off) {
    usize l = 1, c = 1;
    locate(r, span_off, &l, &c);
    if (e->line) {
        if (e->line == 1) e->column += c - 1;
        e->line += l - 1;
    }
    e->offset += span_off;
    char prefix[TYJSON_ERROR_PATH_MAX];
    value_path(r, prefix, sizeof(prefix));
    char joined[TYJSON_ERROR_PATH_MAX];
    const char *rest = e->path[0] == '$' ? e->path + 1 : "";
    snprintf(joined, sizeof(joined), "%s%s", prefix, rest);
    memcpy(e->path, joined, sizeof(joined));
}

static void copy_err(tyjson_error *dst, const tyjson_error *src) {
    if (dst && dst != src) *dst = *src;
}

static void state_err(tyjson_error *err, const char *msg) {
    tyjson__err_set(err, TYJSON_E_STATE, NULL, 0, 0);
    tyjson__err_msg(err, msg);
}

static void more_err(tyjson_error *err) { tyjson__err_set(err, TYJSON_MORE, NULL, 0, 0); }

static u32 rest_depth(const tyjson_reader *r) {
    u32 d = r->max_depth > r->depth ? r->max_depth - r->depth : 1;
    return d ? d : 1;
}

/* A span that does not skip: the DOM's verdict on it, the error in the
 * whole input (and the reader in error). Returns the document when the
 * parser accepts it after all. */
static tyjson_doc *bad_span(tyjson_reader *r, const u8 *s, const u8 *e, const tyjson_alloc *alc,
                            tyjson_error *err) {
    tyjson_read_options ro;
    ro.flags = r->flags | TYJSON_READ_STOP_WHEN_DONE;
    ro.max_depth = rest_depth(r);
    ro.alc = alc;
    tyjson_error de;
    tyjson_doc *doc = tyjson_read_opts((const char *)s, (usize)(e - s), &ro, &de);
    if (doc) {
        stand_after(r, s, s + tyjson_doc_get_read_size(doc));
        tyjson__err_ok(err);
        return doc;
    }
    usize so = off_of(r, s);
    rebase(r, &de, so);
    r->err = de;
    r->st = S_ERROR;
    r->h.tok = TYJSON_TOK_ERROR;
    copy_err(err, &r->err);
    return NULL;
}

tyjson_doc *tyjson_reader_read_doc(tyjson_reader *r, const tyjson_read_options *opts,
                                   tyjson_error *err) {
    if (!r) {
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return NULL;
    }
    const u8 *s = NULL, *e = NULL;
    int rc = value_span(r, &s, &e);
    const tyjson_alloc *alc = opts ? opts->alc : NULL;
    switch (rc) {
    case SPAN_OK: break;
    case SPAN_NEED: more_err(err); return NULL;
    case SPAN_STATE: state_err(err, "no value comes next"); return NULL;
    case SPAN_BAD: return bad_span(r, s, e, alc, err);
    default: copy_err(err, &r->err); return NULL;
    }
    tyjson_read_options ro;
    ro.flags = r->flags & ~(u32)TYJSON_READ_STOP_WHEN_DONE;
    ro.max_depth = rest_depth(r);
    ro.alc = alc;
    tyjson_doc *doc = tyjson_read_opts((const char *)s, (usize)(e - s), &ro, err);
    if (!doc) {
        tyjson_error de;
        tyjson_error *pe = err ? err : &de;
        if (!err) tyjson_read_opts((const char *)s, (usize)(e - s), &ro, pe);
        rebase(r, pe, off_of(r, s));
        r->err = *pe;
        r->st = S_ERROR;
        r->h.tok = TYJSON_TOK_ERROR;
        return NULL;
    }
    stand_after(r, s, e);
    return doc;
}

tyjson_status tyjson_reader_decode(tyjson_reader *r, tyjson_struct *type, void *out,
                                   tyjson_arena *arena, const tyjson_decode_options *opts,
                                   tyjson_error *err) {
    if (!r || !type || !out || !arena) {
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return TYJSON_E_INVALID_ARG;
    }
    const u8 *s = NULL, *e = NULL;
    int rc = value_span(r, &s, &e);
    switch (rc) {
    case SPAN_OK: break;
    case SPAN_NEED: more_err(err); return TYJSON_MORE;
    case SPAN_STATE: state_err(err, "no value comes next"); return TYJSON_E_STATE;
    case SPAN_BAD: {
        tyjson_doc *doc = bad_span(r, s, e, NULL, err);
        if (!doc) return r->err.code;
        /* the parser takes what the skip refused: decode that */
        e = s + tyjson_doc_get_read_size(doc);
        tyjson_doc_free(doc);
        break;
    }
    default: copy_err(err, &r->err); return r->err.code;
    }
    tyjson_decode_options dopts;
    memset(&dopts, 0, sizeof(dopts));
    if (opts) dopts.flags = opts->flags & ~(u32)TYJSON_DECODE_STOP_WHEN_DONE;
    if (r->in != IN_BUF) dopts.flags &= ~(u32)TYJSON_DECODE_BORROW;
    dopts.read_flags = r->flags & ~(u32)TYJSON_READ_STOP_WHEN_DONE;
    dopts.max_depth = rest_depth(r);
    tyjson_error de;
    tyjson_error *pe = err ? err : &de;
    tyjson_status st = tyjson_decode(type, out, (const char *)s, (usize)(e - s), arena, &dopts, pe);
    if (st != TYJSON_OK) rebase(r, pe, off_of(r, s));
    if (r->h.tok != TYJSON_TOK_ERROR && r->cur != e) stand_after(r, s, e);
    return st;
}

tyjson_status tyjson_reader_skip(tyjson_reader *r) {
    if (!r) return TYJSON_E_INVALID_ARG;
    if (r->st == S_ERROR) return r->err.code;
    if (!r->skip_active) {
        if (r->st == S_END || r->partial) return TYJSON_E_STATE;
        bool rest = (r->h.tok == TYJSON_TOK_OBJ_BEGIN && r->st == S_OBJ_FIRST) ||
                    (r->h.tok == TYJSON_TOK_ARR_BEGIN && r->st == S_ARR_FIRST);
        if (rest) {
            if (r->in == IN_BUF && !(r->flags & TYJSON_READ_REJECT_DUPLICATE_KEYS)) {
                const u8 *s = ptr_of(r, r->tok_off);
                tyjson__skip_opts o = skip_opts(r);
                o.depth = r->depth - 1;
                tyjson__read_res res = tyjson__skip_value(s, &o);
                if (res.err == TYJSON_OK) {
                    frame *f = &r->frames[r->depth - 1];
                    r->depth--;
                    r->top = r->depth ? f - 1 : NULL;
                    r->keys_len = f->key_at;
                    stand_after(r, s, res.pos);
                    r->tok_off = off_of(r, res.pos - 1);
                    return TYJSON_OK;
                }
            }
            r->skip_target = r->tok_depth;
            r->skip_first = false;
        } else {
            if (r->in == IN_BUF && !(r->flags & TYJSON_READ_REJECT_DUPLICATE_KEYS) &&
                r->pend == P_NONE) {
                int rc = prelude(r);
                if (rc) return r->err.code;
                const u8 *p = r->cur;
                int st = r->st;
                bool value_state = st == S_ROOT || st == S_ARR_FIRST || st == S_ARR_VALUE ||
                                   st == S_OBJ_VALUE;
                if (!value_state || (p == r->end && st == S_ROOT && (r->rflags & TYJSON_READER_MULTI)))
                    return TYJSON_E_STATE;
                if (p < r->end && *p == ']' &&
                    (st == S_ARR_FIRST || (st == S_ARR_VALUE && (r->flags & TYJSON_READ_ALLOW_TRAILING_COMMAS))))
                    return TYJSON_E_STATE;
                if (p < r->end && !((*p == '{' || *p == '[') && r->depth >= r->max_depth)) {
                    tyjson__skip_opts o = skip_opts(r);
                    tyjson__read_res res = tyjson__skip_value(p, &o);
                    if (res.err == TYJSON_OK) {
                        begin_value(r);
                        stand_after(r, p, res.pos);
                        return TYJSON_OK;
                    }
                }
            } else {
                tyjson_token pk = tyjson_reader_peek(r);
                if (pk == TYJSON_TOK_NEED_MORE) return TYJSON_MORE;
                if (pk == TYJSON_TOK_OBJ_END || pk == TYJSON_TOK_ARR_END || pk == TYJSON_TOK_KEY ||
                    pk == TYJSON_TOK_END)
                    return r->st == S_ERROR ? r->err.code : TYJSON_E_STATE;
            }
            r->skip_first = true;
        }
        r->skip_active = true;
    }
    r->skipping = true;
    for (;;) {
        tyjson_token t = next_token(r);
        if (t == TYJSON_TOK_NEED_MORE) {
            r->skipping = false;
            return TYJSON_MORE;
        }
        if (t == TYJSON_TOK_ERROR) {
            r->skip_active = r->skipping = false;
            return r->err.code;
        }
        if (r->partial) continue;
        if (r->skip_first) {
            r->skip_first = false;
            if (t == TYJSON_TOK_OBJ_BEGIN || t == TYJSON_TOK_ARR_BEGIN) {
                r->skip_target = r->tok_depth;
                continue;
            }
            break;
        }
        if ((t == TYJSON_TOK_OBJ_END || t == TYJSON_TOK_ARR_END) && r->tok_depth == r->skip_target)
            break;
    }
    r->skip_active = r->skipping = false;
    r->tstr = NULL;
    r->tlen = 0;
    r->h.num.kind = TYJSON__NUM_RAW;
    return TYJSON_OK;
}
