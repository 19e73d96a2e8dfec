/*
 * decode.h - internal to the binding decoder (tyjson_decode), shared by its
 * pieces in src/bind/:
 *   decode.c       frames, the state machine, the entry point
 *   decode_leaf.c  leaf values of the rarer kinds, and the numbers' cold paths
 *   decode_lex.c   whitespace and comments, literals, strings, skipping
 *   decode_msg.c   messages, error recording, the error path
 *
 * Contract: what the state machine does per value is inline here (the
 * whitespace step, integers, reals, strings, defaults), so that the split
 * costs the hot path no call; everything declared without a body is out of
 * line, cold or rare. Every function takes the decoder `d`; the reading ones
 * take a position p (p < d->end unless said otherwise) and return the
 * position after what they read, or NULL after recording an error in d.
 */
#ifndef TYJSON_BIND_DECODE_H
#define TYJSON_BIND_DECODE_H

#include "bind/bind.h"
#include "read/lex.h"
#include "read/syntax.h"
#include "num/num.h"

#include <float.h>

/* ----------------------------------------------------------------------------
 * Messages (the tables are in decode_msg.c)
 * ------------------------------------------------------------------------- */
enum {
    EXP_BOOL, EXP_I8, EXP_I16, EXP_I32, EXP_I64, EXP_U8, EXP_U16, EXP_U32, EXP_U64,
    EXP_F32, EXP_F64, EXP_STR, EXP_ENUM, EXP_OBJ, EXP_DATE, EXP_DATETIME, EXP_EPOCH,
    EXP_ARRAY, EXP_DECIMAL, EXP_COUNT
};
enum { FOUND_STR, FOUND_INT, FOUND_REAL, FOUND_NUM, FOUND_BOOL, FOUND_NULL, FOUND_OBJ,
       FOUND_ARR, FOUND_COUNT };

#define MSG_KEY_OR_CLOSE "expected an object key (a string) or '}'"
#define MSG_KEY "expected an object key (a string)"
#define MSG_COLON "expected ':' after an object key"
#define MSG_OBJ_NEXT "expected ',' or '}' after an object member"
#define MSG_ARR_NEXT "expected ',' or ']' after an array element"
#define MSG_VALUE "expected a JSON value"
#define MSG_CHARS "string too long for char[N] field"
#define MSG_FIXED "too many elements for fixed-size array field"
#define MSG_ENUM "unknown name for enum field"
#define MSG_DATE "invalid date: expected YYYY-MM-DD"
#define MSG_DATETIME "invalid date-time: expected YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)"
#define MSG_EPOCH_RANGE "date-time out of range for epoch nanoseconds"
#define MSG_EPOCH_YEARS "date-time outside 0000-01-01T00:00:00Z..9999-12-31T23:59:59.999Z (UTC) for epoch field"
#define MSG_EPOCH_MS_RANGE "epoch milliseconds outside years 0000-9999 (UTC), which the field writes as a date-time string"
#define MSG_MISSING "required key is missing"
#define MSG_UNKNOWN "unknown key (the type rejects unknown keys)"
#define MSG_DUPLICATE "duplicate key (the type rejects repeated keys)"
#define MSG_NUL "string with U+0000 for a NUL-terminated string field"
#define MSG_CODEC "custom codec reported an error"
#define MSG_NOMEM "out of memory (arena)"
#define MSG_DEPTH "nesting deeper than the maximum depth"
#define MSG_TRAILING "unexpected content after the JSON value"
#define MSG_DECIMAL_RANGE "decimal out of range for decimal field (more digits than int64 holds, or a scale beyond +-1e9)"
#define MSG_DECIMAL_STR "invalid decimal: expected a JSON number in the string"

/* The EXP_* row of a member kind. */
int tyjson__dec_exp_of_kind(u8 kind);

/* ----------------------------------------------------------------------------
 * Decoder state
 * ------------------------------------------------------------------------- */
enum { FR_OBJ = 0, FR_ARR = 1 };

typedef struct frame {
    const tyjson__bind_prep *prep; /* OBJ: its type */
    const tyjson__bind_field *bf;  /* ARR: the array field */
    char *base;                    /* OBJ: the struct; ARR: the elements */
    char *owner;                   /* ARR: the struct holding the field */
    usize n, cap;                  /* ARR: elements so far, room */
    u64 seen1;                     /* OBJ: fields seen (types of <= 64 fields) */
    u64 *seen_wide;                /* OBJ: n_words words for larger types */
    /* OBJ: the current key, for error paths: in the input just after its
     * quote (key_len == KEY_IN_INPUT: measured when needed), or a
     * declared name of key_len bytes */
    const u8 *key;
    u32 key_len;
    /* ARR: the length of the array this slot held last, when it was the
     * same field (the next user's tags are likely as many): first room */
    u32 hint;
    const tyjson__bind_field *pred; /* OBJ: the field expected next */
    /* OBJ, types of <= 64 fields: repeated keys. seen1 holds the fields
     * seen up to the start of the current run of predicted keys, which
     * began at `chain` (going backwards if chain_rev) and has matched every
     * field from there up to pred. `fence` is the first field along the run
     * already in seen1 (the type's `none` if there is none): the only one
     * the run can repeat, since runs stop at either end of the fields. So
     * a predicted key costs one compare with the fence; the bitmask is
     * brought up to date only when a prediction misses. */
    const tyjson__bind_field *chain, *fence;
    bool chain_rev;
    bool rev;                      /* OBJ: keys come in reverse declared order */
    u8 type;                       /* FR_* */
} frame;

#define KEY_IN_INPUT UINT32_MAX

/* An empty asm statement stops the compiler from turning a branch into
 * arithmetic (a conditional add) on the input pointer. */
#if defined(__GNUC__) || defined(__clang__)
#  define KEEP_BRANCH() __asm__ volatile("")
#else
#  define KEEP_BRANCH() ((void)0)
#endif
/* Frames on the C stack before the arena takes over: documents rarely nest
 * deeper, and the decoder's stack frame stays under 2 KiB (small threads,
 * and one page fewer to fault in on a first decode). */
#define INL_FRAMES 16
#define SCRATCH 256

/* Inputs of up to SMALL_INPUT bytes are decoded from a copy on the C stack
 * followed by TYJSON__PAD zero bytes: a small message lies mostly within a
 * few bytes of its end, where the fast paths' fixed-width loads (key
 * literals, numbers, string scans) would otherwise give way to the bounded
 * ones. Copying costs less than those, and the frame stays small. */
#define SMALL_INPUT 256

typedef struct dec {
    const u8 *start, *end;
    /* readable end: end, or end + TYJSON__PAD zero bytes when decoding the
     * padded copy; the fast paths' room tests use it, every other read end */
    const u8 *lim;
    /* the first byte of what is read (the caller's json or the copy), and
     * the caller's json: pointers handed out (borrowed strings, RAW spans)
     * are moved from the one to the other by in_caller() */
    const u8 *base, *caller;
    tyjson_arena *arena;
    tyjson_alloc alc; /* the arena's allocator view, made once: every skip passes it */
    frame *stk;
    u32 sp, cap;
    u32 hwm; /* slots below have been used (their key-order hints are set) */
    u32 max_depth;
    /* the options as given (read flags; decode flags, STOP_WHEN_DONE also
     * from the read flags): tested where they matter through the helpers
     * below, which costs no more than a bool and saves setting each */
    tyjson_read_flags rflags;
    tyjson_decode_flags dflags;
    tyjson_status code;
    const u8 *epos;
    const char *msg;
    /* an unterminated comment met while skipping whitespace */
    tyjson_status pending;
    const u8 *pending_pos;
    char note[TYJSON_ERROR_MSG_MAX]; /* a message built for the error */
    frame inl[INL_FRAMES];
} dec;

TYJSON__FORCEINLINE bool opt_allow_invalid(const dec *d) {
    return (d->rflags & TYJSON_READ_ALLOW_INVALID_UTF8) != 0;
}
TYJSON__FORCEINLINE bool opt_trailing(const dec *d) {
    return (d->rflags & TYJSON_READ_ALLOW_TRAILING_COMMAS) != 0;
}
TYJSON__FORCEINLINE bool opt_inf_nan(const dec *d) {
    return (d->rflags & TYJSON_READ_ALLOW_INF_NAN) != 0;
}
TYJSON__FORCEINLINE bool opt_comments(const dec *d) {
    return (d->rflags & TYJSON_READ_ALLOW_COMMENTS) != 0;
}
TYJSON__FORCEINLINE bool opt_dup_error(const dec *d) {
    return (d->rflags & TYJSON_READ_REJECT_DUPLICATE_KEYS) != 0;
}
TYJSON__FORCEINLINE bool opt_borrow(const dec *d) { return (d->dflags & TYJSON_DECODE_BORROW) != 0; }
TYJSON__FORCEINLINE bool opt_unknown_error(const dec *d) {
    return (d->dflags & TYJSON_DECODE_UNKNOWN_ERROR) != 0;
}

/* The caller's byte for q, a position in what the decoder reads. */
TYJSON__FORCEINLINE const u8 *in_caller(const dec *d, const u8 *q) {
    return d->caller + (q - d->base);
}

/* ----------------------------------------------------------------------------
 * Error recording (decode_msg.c): each returns NULL, so that a caller
 * can `return tyjson__dec_fail(...)`; only the first error of a decode is kept.
 * ------------------------------------------------------------------------- */
/* Records code at pos with a static message (or NULL: the status's own). */
TYJSON__NOINLINE const u8 *tyjson__dec_fail(dec *d, tyjson_status code, const u8 *pos,
                                     const char *msg);
/* Records code at pos with the message text[0..n), copied into d->note;
 * fallback when an error is already recorded. */
TYJSON__NOINLINE const u8 *tyjson__dec_fail_note(dec *d, tyjson_status code, const u8 *pos,
                                     const char *fallback, const char *text, usize n);
/* Something else was expected at p: end of input or a wrong byte. */
TYJSON__NOINLINE const u8 *tyjson__dec_fail_expect(dec *d, const u8 *p, const char *msg);
/* The value at p is not of the EXP_* category exp: a type error naming what
 * was found, unless the value is malformed (then that error). */
TYJSON__NOINLINE const u8 *tyjson__dec_mismatch(dec *d, int exp, const u8 *p);
/* A number out of range for a member of the given kind (I8..F64). */
TYJSON__NOINLINE const u8 *tyjson__dec_range_error(dec *d, u8 kind, const u8 *p);
/* A value of the FOUND_* category found for a member of the given kind. */
TYJSON__NOINLINE const u8 *tyjson__dec_type_error(dec *d, u8 kind, int found, const u8 *p);
/* The JSON path of the failed value (`$.photos[17].author.age`), from the
 * frame stack, into out (cap bytes, NUL-terminated, cut if too long). */
void tyjson__dec_build_path(const dec *d, char *out, usize cap);

/* ----------------------------------------------------------------------------
 * Lexical helpers: whitespace and comments, literals, strings, skipping.
 * The out-of-line ones are in decode_lex.c, all of them in one place.
 * ------------------------------------------------------------------------- */
/* Whitespace and comments from p; an unterminated comment is recorded as
 * pending (reported when the decode ends) and the end returned. */
TYJSON__NOINLINE const u8 *tyjson__dec_ws_comments(dec *d, const u8 *p);
/* The literal lit (n bytes) at p. */
const u8 *tyjson__dec_literal(dec *d, const u8 *p, const char *lit, usize n);
/* The inf/nan words at p (with TYJSON_READ_ALLOW_INF_NAN) into *v, or NULL
 * without recording an error. */
const u8 *tyjson__dec_inf_nan_word(dec *d, const u8 *p, double *v);
/* From s (inside a string body) to the closing quote; sets *esc when a
 * backslash was passed. */
const u8 *tyjson__dec_str_close(dec *d, const u8 *s, bool *esc);
/* An escaped string body from s (stop: its first backslash) into the arena,
 * NUL-terminated: *out, *len; returns the position after the closing quote. */
TYJSON__NOINLINE const u8 *tyjson__dec_str_escaped_arena(dec *d, const u8 *s, const u8 *stop,
                                                      char **out, usize *len);
/* The decoded bytes of the string at p ('"'): in the input when it has no
 * escapes, else in buf (SCRATCH bytes) or the arena. */
const u8 *tyjson__dec_str_bytes(dec *d, const u8 *p, u8 *buf, const u8 **out, usize *len);
/* Past the value at p (p may be at the end), validating it fully. */
TYJSON__NOINLINE const u8 *tyjson__dec_skip_value(dec *d, const u8 *p);

/* The error for a word at p that is not NaN or Infinity. */
TYJSON__NOINLINE const u8 *tyjson__dec_bad_inf_nan(dec *d, const u8 *p);

static inline bool is_inf_nan_start(dec *d, const u8 *p) {
    if (!opt_inf_nan(d)) return false;
    if (*p == 'N' || *p == 'I') return true;
    return *p == '-' && d->end - p >= 2 && p[1] == 'I';
}

TYJSON__FORCEINLINE const u8 *ws(dec *d, const u8 *p) {
    if (likely(p < d->end && !tyjson__is_ws(*p) && *p != '/')) return p;
    p = tyjson__skip_indent(p, d->end);
    if (likely(p < d->end && !tyjson__is_ws(*p) && *p != '/')) return p;
    p = tyjson__skip_ws(p, d->end);
    if (unlikely(p < d->end && *p == '/') && opt_comments(d)) return tyjson__dec_ws_comments(d, p);
    return p;
}

/* ----------------------------------------------------------------------------
 * Leaf values: the kinds the state machine decodes per value are inline
 * here; the rest, and their cold paths, are in decode_leaf.c.
 * ------------------------------------------------------------------------- */
/* One value of a kind that needs no frame (p < end), after any whitespace:
 * every kind, the common ones included when their fast test fails. */
const u8 *tyjson__dec_leaf(dec *d, const tyjson__bind_field *bf, char *mem, const u8 *p);
/* JSON null at p for bf: zero (then the default) if nullable, else a type
 * error. */
TYJSON__NOINLINE const u8 *tyjson__dec_leaf_null(dec *d, const tyjson__bind_field *bf, char *mem,
                                     const u8 *p);
/* The error of an integer member whose number at p did not read (st at ep). */
TYJSON__NOINLINE const u8 *tyjson__dec_int_fail(dec *d, const tyjson__bind_field *bf, const u8 *p,
                                    tyjson_status st, const u8 *ep);
/* An integer beyond 64 bits at p for a float or double member, as a real. */
TYJSON__NOINLINE const u8 *tyjson__dec_big_integer_real(dec *d, const tyjson__bind_field *bf,
                                                     const u8 *p, double *v);

static inline void store_int(char *mem, usize size, u64 v) {
    switch (size) {
    case 1: { u8 x = (u8)v; memcpy(mem, &x, 1); break; }
    case 2: { u16 x = (u16)v; memcpy(mem, &x, 2); break; }
    case 4: { u32 x = (u32)v; memcpy(mem, &x, 4); break; }
    default: memcpy(mem, &v, 8); break;
    }
}

static inline void put_default(const tyjson__bind_field *bf, char *mem) {
    const tyjson_field *f = bf->f;
    switch (bf->kind) {
    case TYJSON_K_BOOL: { bool b = f->dflt.b; memcpy(mem, &b, sizeof(b)); break; }
    case TYJSON_K_I8: case TYJSON_K_I16: case TYJSON_K_I32: case TYJSON_K_I64:
    case TYJSON_K_ENUM: case TYJSON_K_EPOCH_MS: case TYJSON_K_EPOCH_NS:
        store_int(mem, bf->size, (u64)f->dflt.i);
        break;
    case TYJSON_K_U8: case TYJSON_K_U16: case TYJSON_K_U32: case TYJSON_K_U64:
        store_int(mem, bf->size, f->dflt.u);
        break;
    case TYJSON_K_F32: { float v = (float)f->dflt.f; memcpy(mem, &v, sizeof(v)); break; }
    case TYJSON_K_F64: memcpy(mem, &f->dflt.f, sizeof(double)); break;
    case TYJSON_K_STR: case TYJSON_K_RAW: {
        tyjson_str s;
        s.ptr = f->dflt.s;
        s.len = bf->dflt_len;
        memcpy(mem, &s, sizeof(s));
        break;
    }
    case TYJSON_K_CSTR: memcpy(mem, &f->dflt.s, sizeof(f->dflt.s)); break;
    case TYJSON_K_CHARS: memcpy(mem, f->dflt.s, bf->dflt_len + 1); break;
    case TYJSON_K_DATE: memcpy(mem, &bf->dflt_dt.date, sizeof(tyjson_date)); break;
    case TYJSON_K_DATETIME: memcpy(mem, &bf->dflt_dt, sizeof(tyjson_datetime)); break;
    case TYJSON_K_DECIMAL: memcpy(mem, &bf->dflt_dec, sizeof(tyjson_decimal)); break;
    default: break;
    }
}

TYJSON__FORCEINLINE usize int_size(u8 kind) {
    switch (kind) {
    case TYJSON_K_I8: case TYJSON_K_U8: return 1;
    case TYJSON_K_I16: case TYJSON_K_U16: return 2;
    case TYJSON_K_I32: case TYJSON_K_U32: return 4;
    default: return 8;
    }
}

/* The inline readers take `padded`: true when the caller knows it decodes
 * the padded copy (run_padded() in decode.c), where every room test holds,
 * false where the test must be made. */
TYJSON__FORCEINLINE const u8 *leaf_int_k(dec *d, const tyjson__bind_field *bf, char *mem,
                                         const u8 *p, u8 kind, bool padded) {
    u64 u;
    bool neg = false;
    const u8 *q;
    /* Short non-negative integers (ages, counts, small ids) are the usual
     * case: up to 9 digits read here without the general reader's call;
     * anything else (sign, fraction, exponent, leading zero, more digits,
     * near the end of input) takes the general path below. */
    if (padded || likely(d->lim - p > 10)) {
        unsigned c = (unsigned)(p[0] - '0');
        unsigned c1 = (unsigned)(p[1] - '0');
        /* two digits (ages, percentages, small counts) without the loop */
        if (c - 1 <= 8 && c1 <= 9 && (unsigned)(p[2] - '0') > 9 && p[2] != '.' &&
            (p[2] | 0x20) != 'e') {
            u = c * 10 + c1;
            q = p + 2;
            goto range;
        }
        if (c <= 9 && (c != 0 || c1 > 9)) {
            const u8 *s = p;
            u = 0;
            do {
                u = u * 10 + c;
                s++;
                c = (unsigned)(*s - '0');
            } while (c <= 9 && s - p < 9);
            if (c > 9 && *s != '.' && (*s | 0x20) != 'e') {
                q = s;
                goto range;
            }
        }
    }
    tyjson__num num;
    tyjson_status st;
    const u8 *ep;
    q = tyjson__num_read(p, d->end, 0, &num, &st, &ep);
    if (unlikely(!q)) return tyjson__dec_int_fail(d, bf, p, st, ep);
    if (likely(num.kind == TYJSON__NUM_UINT)) {
        u = num.v.u;
    } else if (num.kind == TYJSON__NUM_SINT) {
        u = (u64)num.v.i;
        neg = true;
    } else if (q - p == 2 && num.v.f == 0) {
        u = 0; /* "-0" */
    } else {
        return tyjson__dec_type_error(d, bf->kind, FOUND_REAL, p);
    }
range:;
    bool ok;
    i64 i = (i64)u;
    switch (kind) {
    case TYJSON_K_I8: ok = neg ? i >= INT8_MIN : u <= INT8_MAX; break;
    case TYJSON_K_I16: ok = neg ? i >= INT16_MIN : u <= INT16_MAX; break;
    case TYJSON_K_I32: ok = neg ? i >= INT32_MIN : u <= INT32_MAX; break;
    case TYJSON_K_I64: ok = neg || u <= INT64_MAX; break;
    case TYJSON_K_U8: ok = !neg && u <= UINT8_MAX; break;
    case TYJSON_K_U16: ok = !neg && u <= UINT16_MAX; break;
    case TYJSON_K_U32: ok = !neg && u <= UINT32_MAX; break;
    default: ok = !neg; break;
    }
    if (unlikely(!ok)) return tyjson__dec_range_error(d, bf->kind, p);
    store_int(mem, int_size(kind), u);
    return q;
}

TYJSON__FORCEINLINE const u8 *leaf_real_k(dec *d, const tyjson__bind_field *bf, char *mem,
                                          const u8 *p, u8 kind, bool padded) {
    double v;
    const u8 *q;
    if (is_inf_nan_start(d, p)) {
        q = tyjson__dec_inf_nan_word(d, p, &v);
        if (!q) return tyjson__dec_bad_inf_nan(d, p);
    } else {
        tyjson__num num;
        tyjson_status st;
        const u8 *ep;
        /* the fast path where its room is readable (zero padding ends a
         * number as the real end would), else the bounded reader */
        q = padded || likely(d->lim - p >= TYJSON__NUM_FAST_ROOM)
                ? tyjson__num_read_padded(p, d->end, 0, &num, &st, &ep)
                : tyjson__num_read_slow(p, d->end, 0, &num, &st, &ep);
        if (unlikely(!q)) {
            if (st != TYJSON_E_NUMBER_RANGE) return tyjson__dec_fail(d, st, ep, NULL);
            q = tyjson__dec_big_integer_real(d, bf, p, &num.v.f);
            if (!q) return NULL;
            num.kind = TYJSON__NUM_REAL;
        }
        if (kind == TYJSON_K_F32 && num.kind != TYJSON__NUM_REAL) {
            /* integer to float in one rounding */
            float fv = num.kind == TYJSON__NUM_UINT ? (float)num.v.u : (float)num.v.i;
            memcpy(mem, &fv, sizeof(fv));
            return q;
        }
        v = num.kind == TYJSON__NUM_REAL ? num.v.f
            : num.kind == TYJSON__NUM_UINT ? (double)num.v.u : (double)num.v.i;
    }
    if (kind == TYJSON_K_F32) {
        /* 2^128 - 2^103, the midpoint between the largest float and 2^128:
         * from here on a finite number rounds to an infinite float, unless
         * it is v only by rounding up and lies below */
        const double lim = 0x1.ffffffp+127;
        float fv;
        if (v - v != 0) {
            fv = (float)v; /* Infinity, NaN (with the flag) */
        } else if (v >= lim || v <= -lim) {
            if ((v != lim && v != -lim) || tyjson__num_cmp_abs(p, d->end, v) >= 0)
                return tyjson__dec_range_error(d, bf->kind, p);
            fv = v > 0 ? FLT_MAX : -FLT_MAX;
        } else {
            /* one rounding from the text, not two through the double */
            fv = tyjson__num_f32(v, p, d->end);
        }
        memcpy(mem, &fv, sizeof(fv));
    } else {
        memcpy(mem, &v, sizeof(v));
    }
    return q;
}

/* `"YYYY-MM-DD"` for a DATE member and `"YYYY-MM-DDTHH:MM:SSZ"` for an
 * EPOCH_MS one without the general leaf decoder's dispatch; anything else
 * through tyjson__dec_leaf() (decode_leaf.c). Out of line: inlined, they
 * cost run() registers on every member. */
const u8 *tyjson__dec_date_op(dec *d, const tyjson__bind_field *bf, char *mem, const u8 *p);
const u8 *tyjson__dec_epoch_ms_op(dec *d, const tyjson__bind_field *bf, char *mem, const u8 *p);

/* A string body from s (tyjson__str_scan_in): its inline steps load 16
 * bytes, which the padded copy always has (a zero byte stops them as the
 * end would), the caller's bytes only away from their end. */
TYJSON__FORCEINLINE tyjson__str_scan str_scan(const dec *d, const u8 *s, bool padded) {
    return tyjson__str_scan_in(s, d->end, opt_allow_invalid(d), padded || d->lim - s >= 16);
}

/* Past the unbound value at p (whitespace before it skipped): the common
 * scalars inline (a string without escapes, a number whose extent needs no
 * conversion, a literal), which is most of what an API response's unbound
 * members hold; anything else, and anything that is not plainly valid, goes
 * to tyjson__dec_skip_value, which judges it and reports errors exactly as
 * before. */
TYJSON__FORCEINLINE const u8 *skip_unbound(dec *d, const u8 *p, bool padded) {
    const u8 *end = d->end;
    if (likely(p < end)) {
        u8 c = *p;
        if (c == '"') {
            tyjson__str_scan r = str_scan(d, p + 1, padded);
            if (likely(r.err == TYJSON_OK)) {
                if (likely(*r.stop == '"')) return r.stop + 1;
                /* escapes: the core's string skip goes on from the first
                 * one (the bytes before it are checked), as its own skip
                 * would, and its errors are reported as that skip's */
                r = tyjson__str_skip(r.stop, end, opt_allow_invalid(d));
                if (likely(r.err == TYJSON_OK)) return r.stop;
                return tyjson__dec_fail(d, r.err, r.stop, NULL);
            }
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            const u8 *q = tyjson__number_in_range(p, end);
            if (likely(q && tyjson__token_ends(q, end))) return q;
        } else if (c == 'n' || c == 't') {
            if (tyjson__match_literal(p, end, c == 'n' ? "null" : "true", 4, false)) return p + 4;
        } else if (c == 'f') {
            if (tyjson__match_literal(p, end, "false", 5, false)) return p + 5;
        }
    }
    return tyjson__dec_skip_value(d, p);
}

/* n bytes (n <= 16) from s to dst through two 8-byte words, when 16 bytes
 * are readable at s and writable at dst; else memcpy. */
TYJSON__FORCEINLINE void copy_short(char *dst, usize dst_room, const u8 *s, usize src_room,
                                    usize n) {
    if (n <= 16 && dst_room >= 16 && src_room >= 16) {
        u64 a, b;
        memcpy(&a, s, 8);
        memcpy(&b, s + 8, 8);
        memcpy(dst, &a, 8);
        memcpy(dst + 8, &b, 8);
    } else {
        memcpy(dst, s, n);
    }
}

TYJSON__FORCEINLINE const u8 *leaf_str(dec *d, const tyjson__bind_field *bf, char *mem,
                                       const u8 *p, bool padded) {
    const u8 *s = p + 1;
    tyjson__str_scan r = str_scan(d, s, padded);
    if (unlikely(r.err != TYJSON_OK)) return tyjson__dec_fail(d, r.err, r.stop, NULL);
    char *ptr;
    usize n;
    const u8 *q;
    if (likely(*r.stop == '"')) {
        n = (usize)(r.stop - s);
        q = r.stop + 1;
        if (opt_borrow(d) && bf->kind == TYJSON_K_STR) {
            ptr = (char *)(uintptr_t)in_caller(d, s);
        } else {
            tyjson_arena *a = d->arena;
            ptr = (char *)tyjson__arena_bump(a, n + 1, 1);
            if (unlikely(!ptr)) return tyjson__dec_fail(d, TYJSON_E_NOMEM, p, MSG_NOMEM);
            /* the arena's free room past the string may take the overrun */
            copy_short(ptr, (usize)(a->end - ptr), s, (usize)(d->lim - s), n);
            ptr[n] = 0;
        }
    } else {
        q = tyjson__dec_str_escaped_arena(d, s, r.stop, &ptr, &n);
        if (!q) return NULL;
        if (bf->kind == TYJSON_K_CSTR && memchr(ptr, 0, n))
            return tyjson__dec_fail(d, TYJSON_E_TYPE, p, MSG_NUL);
    }
    if (bf->kind == TYJSON_K_STR) {
        tyjson_str out;
        out.ptr = ptr;
        out.len = n;
        memcpy(mem, &out, sizeof(out));
    } else {
        memcpy(mem, &ptr, sizeof(ptr));
    }
    return q;
}

#endif
