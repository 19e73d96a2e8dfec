/*
 * bind_decode.c - JSON text straight into C structs (tyjson_decode).
 *
 * One pass over the caller's bytes, which have no padding: every read is
 * bounded by the real end. Objects and arrays are frames on an explicit
 * stack (32 inline, more from the arena for deeply recursive types), so
 * hostile nesting costs no C stack; the only other walker, skip_value,
 * keeps one bit per level. Keys are dispatched with the type's perfect
 * hash, numbers go straight into the member's width, plain strings are
 * copied with one memcpy (or borrowed), and all memory comes from the
 * arena. Free-form values (VALUE, CUSTOM) are the exception: their byte
 * span is found with skip_value and handed to the DOM parser.
 *
 * Errors record a status, a position and a message (static, or built in
 * the arena for enum names, dates and codecs); the JSON path is rebuilt
 * from the frame stack only when the decode fails. Of a repeated key the
 * first occurrence wins: see frame.fence for how that stays nearly free.
 */
#include "bind/bind.h"
#include "read/lex.h"
#include "num/num.h"

#include <float.h>
#include <math.h>

/* ----------------------------------------------------------------------------
 * Messages: static strings, chosen per (expected, found) pair.
 * ------------------------------------------------------------------------- */
enum {
    EXP_BOOL, EXP_I8, EXP_I16, EXP_I32, EXP_I64, EXP_U8, EXP_U16, EXP_U32, EXP_U64,
    EXP_F32, EXP_F64, EXP_STR, EXP_ENUM, EXP_OBJ, EXP_DATE, EXP_DATETIME, EXP_EPOCH,
    EXP_ARRAY, EXP_COUNT
};
enum { FOUND_STR, FOUND_INT, FOUND_REAL, FOUND_NUM, FOUND_BOOL, FOUND_NULL, FOUND_OBJ,
       FOUND_ARR, FOUND_COUNT };

#define CELL(e, f) "expected " e ", found " f,
#define ROW(e)                                                                 \
    {CELL(e, "a string") CELL(e, "an integer") CELL(e, "a real number")        \
     CELL(e, "a number") CELL(e, "a boolean") CELL(e, "null")                  \
     CELL(e, "an object") CELL(e, "an array")},
static const char *const type_msgs[EXP_COUNT][FOUND_COUNT] = {
    ROW("a boolean for bool field")
    ROW("an integer for int8 field")
    ROW("an integer for int16 field")
    ROW("an integer for int32 field")
    ROW("an integer for int64 field")
    ROW("an integer for uint8 field")
    ROW("an integer for uint16 field")
    ROW("an integer for uint32 field")
    ROW("an integer for uint64 field")
    ROW("a number for float field")
    ROW("a number for double field")
    ROW("a string for string field")
    ROW("an enum name (a string) for enum field")
    ROW("an object for struct field")
    ROW("a date string (YYYY-MM-DD) for date field")
    ROW("a date-time string for date-time field")
    ROW("a date-time string or an integer for epoch field")
    ROW("an array for array field")
};
#undef ROW
#undef CELL

static const char *const range_msgs[] = {
    "integer out of range for int8 field",  "integer out of range for int16 field",
    "integer out of range for int32 field", "integer out of range for int64 field",
    "integer out of range for uint8 field", "integer out of range for uint16 field",
    "integer out of range for uint32 field", "integer out of range for uint64 field",
    "number out of range for float field",  "number out of range for double field",
};

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

static int exp_of_kind(u8 kind) {
    switch (kind) {
    case TYJSON_K_BOOL: return EXP_BOOL;
    case TYJSON_K_I8: return EXP_I8;
    case TYJSON_K_I16: return EXP_I16;
    case TYJSON_K_I32: return EXP_I32;
    case TYJSON_K_I64: return EXP_I64;
    case TYJSON_K_U8: return EXP_U8;
    case TYJSON_K_U16: return EXP_U16;
    case TYJSON_K_U32: return EXP_U32;
    case TYJSON_K_U64: return EXP_U64;
    case TYJSON_K_F32: return EXP_F32;
    case TYJSON_K_F64: return EXP_F64;
    case TYJSON_K_ENUM: return EXP_ENUM;
    case TYJSON_K_STRUCT: case TYJSON_K_PTR: return EXP_OBJ;
    case TYJSON_K_DATE: return EXP_DATE;
    case TYJSON_K_DATETIME: return EXP_DATETIME;
    case TYJSON_K_EPOCH_MS: case TYJSON_K_EPOCH_NS: return EXP_EPOCH;
    default: return EXP_STR;
    }
}

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

/* Every read flag the DOM parser has; tyjson_decode honours each (see
 * docs/binding.md) and refuses bits beyond them. */
#define KNOWN_READ_FLAGS                                                       \
    (TYJSON_READ_ALLOW_COMMENTS | TYJSON_READ_ALLOW_TRAILING_COMMAS |          \
     TYJSON_READ_ALLOW_INF_NAN | TYJSON_READ_ALLOW_BOM |                       \
     TYJSON_READ_ALLOW_INVALID_UTF8 | TYJSON_READ_STOP_WHEN_DONE |             \
     TYJSON_READ_REJECT_DUPLICATE_KEYS | TYJSON_READ_BIGNUM_AS_RAW)

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

typedef struct dec {
    const u8 *start, *end;
    tyjson_arena *arena;
    frame *stk;
    u32 sp, cap;
    u32 hwm; /* slots below have been used (their key-order hints are set) */
    u32 max_depth;
    tyjson_read_flags rflags;
    bool allow_invalid, borrow, unknown_error, trailing, inf_nan, comments, dup_error;
    tyjson_status code;
    const u8 *epos;
    const char *msg;
    /* an unterminated comment met while skipping whitespace */
    tyjson_status pending;
    const u8 *pending_pos;
    char note[TYJSON_ERROR_MSG_MAX]; /* a message built for the error */
    frame inl[INL_FRAMES];
} dec;

static TYJSON__NOINLINE const u8 *fail(dec *d, tyjson_status code, const u8 *pos,
                                       const char *msg) {
    /* A number or literal cut short by the end of input is truncation. */
    if (pos >= d->end && (code == TYJSON_E_NUMBER || code == TYJSON_E_LITERAL ||
                          code == TYJSON_E_UNEXPECTED_CHAR))
        code = TYJSON_E_TRUNCATED;
    if (d->code == TYJSON_OK) {
        if (d->pending != TYJSON_OK) {
            code = d->pending;
            pos = d->pending_pos;
            msg = NULL;
        }
        d->code = code;
        d->epos = pos;
        d->msg = msg;
    }
    return NULL;
}

/* A message built for this error, kept in the decoder until it is copied
 * into err->msg; `fallback` names the error class for the first error only
 * (a later failure must not overwrite the note of the first). */
static TYJSON__NOINLINE const u8 *fail_note(dec *d, tyjson_status code, const u8 *pos,
                                            const char *fallback, const char *text,
                                            usize n) {
    if (d->code != TYJSON_OK) return fail(d, code, pos, fallback);
    if (n >= sizeof(d->note)) n = sizeof(d->note) - 1;
    memcpy(d->note, text, n);
    d->note[n] = 0;
    return fail(d, code, pos, d->note);
}


/* Something else was expected at p: end of input or a wrong byte. */
static TYJSON__NOINLINE const u8 *fail_expect(dec *d, const u8 *p, const char *msg) {
    return fail(d, p >= d->end ? TYJSON_E_TRUNCATED : TYJSON_E_UNEXPECTED_CHAR, p, msg);
}

/* ----------------------------------------------------------------------------
 * Whitespace and comments
 * ------------------------------------------------------------------------- */
/* Whitespace comes from the reading core; comments (when allowed) are
 * handled here, out of line. */
static TYJSON__NOINLINE const u8 *ws_comments(dec *d, const u8 *p) {
    const u8 *end = d->end;
    for (;;) {
        p = tyjson__skip_ws(p, end);
        if (!(p < end && *p == '/' && end - p >= 2)) return p;
        if (p[1] == '/') {
            const u8 *nl = (const u8 *)memchr(p + 2, '\n', (usize)(end - p - 2));
            p = nl ? nl + 1 : end;
            continue;
        }
        if (p[1] != '*') return p;
        const u8 *q = p + 2;
        for (;;) {
            q = (const u8 *)memchr(q, '*', (usize)(end - q));
            if (!q || end - q < 2) {
                if (d->pending == TYJSON_OK) {
                    d->pending = TYJSON_E_COMMENT;
                    d->pending_pos = p;
                }
                return end;
            }
            if (q[1] == '/') break;
            q++;
        }
        p = q + 2;
    }
}

TYJSON__FORCEINLINE const u8 *ws(dec *d, const u8 *p) {
    if (likely(p < d->end && !tyjson__is_ws(*p) && *p != '/')) return p;
    p = tyjson__skip_indent(p, d->end);
    if (likely(p < d->end && !tyjson__is_ws(*p) && *p != '/')) return p;
    p = tyjson__skip_ws(p, d->end);
    if (unlikely(p < d->end && *p == '/') && d->comments) return ws_comments(d, p);
    return p;
}

/* ----------------------------------------------------------------------------
 * Literals and value classification
 * ------------------------------------------------------------------------- */
static const u8 *literal(dec *d, const u8 *p, const char *lit, usize n) {
    usize have = (usize)(d->end - p);
    if (have >= n && memcmp(p, lit, n) == 0) return p + n;
    if (have < n && memcmp(p, lit, have) == 0) return fail(d, TYJSON_E_TRUNCATED, d->end, NULL);
    return fail(d, TYJSON_E_LITERAL, p, NULL);
}

/* The inf/nan words at p (with TYJSON_READ_ALLOW_INF_NAN), or NULL. */
static const u8 *inf_nan_word(dec *d, const u8 *p, double *v) {
    usize have = (usize)(d->end - p);
    if (have >= 3 && memcmp(p, "NaN", 3) == 0) {
        *v = (double)NAN;
        return p + 3;
    }
    if (have >= 8 && memcmp(p, "Infinity", 8) == 0) {
        *v = (double)INFINITY;
        return p + 8;
    }
    if (have >= 9 && memcmp(p, "-Infinity", 9) == 0) {
        *v = -(double)INFINITY;
        return p + 9;
    }
    return NULL;
}

static bool is_inf_nan_start(dec *d, const u8 *p) {
    if (!d->inf_nan) return false;
    if (*p == 'N' || *p == 'I') return true;
    return *p == '-' && d->end - p >= 2 && p[1] == 'I';
}

/* Reports that the value at p does not fit the expected category: a type
 * error naming what was found, unless the value is malformed (then that). */
static TYJSON__NOINLINE const u8 *mismatch(dec *d, int exp, const u8 *p) {
    const u8 *end = d->end;
    if (p >= end) return fail(d, TYJSON_E_TRUNCATED, p, MSG_VALUE);
    int found;
    switch (*p) {
    case '"': found = FOUND_STR; break;
    case '{': found = FOUND_OBJ; break;
    case '[': found = FOUND_ARR; break;
    case 't':
        if (!literal(d, p, "true", 4)) return NULL;
        found = FOUND_BOOL;
        break;
    case 'f':
        if (!literal(d, p, "false", 5)) return NULL;
        found = FOUND_BOOL;
        break;
    case 'n':
        if (!literal(d, p, "null", 4)) return NULL;
        found = FOUND_NULL;
        break;
    default:
        if (is_inf_nan_start(d, p)) {
            double v;
            if (!inf_nan_word(d, p, &v)) return fail(d, TYJSON_E_LITERAL, p, NULL);
            found = FOUND_REAL;
        } else if (*p == '-' || (*p >= '0' && *p <= '9')) {
            tyjson__num num;
            tyjson_status st;
            const u8 *ep;
            if (!tyjson__num_read(p, end, TYJSON_READ_BIGNUM_AS_RAW, &num, &st, &ep))
                return fail(d, st, ep, NULL);
            found = num.kind == TYJSON__NUM_REAL ? FOUND_REAL
                    : num.kind == TYJSON__NUM_RAW ? FOUND_NUM : FOUND_INT;
        } else {
            return fail(d, TYJSON_E_UNEXPECTED_CHAR, p, MSG_VALUE);
        }
    }
    return fail(d, TYJSON_E_TYPE, p, type_msgs[exp][found]);
}

/* ----------------------------------------------------------------------------
 * Strings
 * ------------------------------------------------------------------------- */

/* From s (inside a string body) to the closing quote; *esc tells whether
 * a backslash was passed. Escapes themselves are checked by the unescape. */
static const u8 *str_close(dec *d, const u8 *s, bool *esc) {
    const u8 *end = d->end;
    for (;;) {
        tyjson__str_scan r = tyjson__str_scan_plain(s, end, d->allow_invalid);
        if (unlikely(r.err != TYJSON_OK)) return fail(d, r.err, r.stop, NULL);
        if (*r.stop == '"') return r.stop;
        *esc = true;
        s = r.stop + 1;
        if (s >= end) return fail(d, TYJSON_E_TRUNCATED, end, NULL);
        if (*s < 0x20 || *s >= 0x80) return fail(d, TYJSON_E_ESCAPE, r.stop, NULL);
        s++;
    }
}

/* Decodes the body [s, q) (q: the closing quote) into dst, which has room
 * for q - s + 1 + 8 bytes. Returns the decoded length or (usize)-1. */
static usize unescape(dec *d, const u8 *s, const u8 *q, u8 *dst) {
    usize raw = (usize)(q - s) + 1; /* with the quote */
    tyjson__str_unesc r;
    if (d->end - q > 8) {
        /* 8 readable bytes past anything the unescape loads */
        r = tyjson__str_unescape(s, q + 1, dst, d->allow_invalid);
    } else {
        memcpy(dst, s, raw);
        memset(dst + raw, 0, 8);
        r = tyjson__str_unescape(dst, dst + raw, dst, d->allow_invalid);
        if (r.err != TYJSON_OK) r.src = s + (r.src - dst);
    }
    if (r.err != TYJSON_OK) {
        fail(d, r.err, r.src, NULL);
        return (usize)-1;
    }
    return (usize)(r.dst - dst);
}

/* An escaped string body from s (stop: the first backslash, already found)
 * into the arena, NUL-terminated. */
static TYJSON__NOINLINE const u8 *str_escaped_arena(dec *d, const u8 *s, const u8 *stop,
                                                   char **out, usize *len) {
    bool esc = true;
    const u8 *q = str_close(d, stop, &esc);
    if (!q) return NULL;
    usize need;
    if (tyjson__add_ovf((usize)(q - s), 10, &need)) return fail(d, TYJSON_E_NOMEM, s, MSG_NOMEM);
    tyjson_arena *a = d->arena;
    u8 *dst = (u8 *)tyjson__arena_bump(a, need, 1);
    if (!dst) return fail(d, TYJSON_E_NOMEM, s, MSG_NOMEM);
    /* the scan already vouched for the bytes before the first backslash:
     * they are copied as they are, and only the rest is decoded */
    usize clean = (usize)(stop - s);
    memcpy(dst, s, clean);
    usize n = unescape(d, stop, q, dst + clean);
    if (n == (usize)-1) return NULL;
    n += clean;
    dst[n] = 0;
    /* Hand back the unused room when nothing was allocated after it. */
    if ((char *)dst + need == a->cur) {
        a->cur = (char *)dst + n + 1;
        a->used -= need - (n + 1);
    }
    *out = (char *)dst;
    *len = n;
    return q + 1;
}

/* The decoded bytes of the string at p ('"'): in the input when it has no
 * escapes, else in buf (SCRATCH bytes) or the arena. */
static const u8 *str_bytes(dec *d, const u8 *p, u8 *buf, const u8 **out, usize *len) {
    const u8 *s = p + 1;
    bool esc = false;
    const u8 *q = str_close(d, s, &esc);
    if (!q) return NULL;
    if (!esc) {
        *out = s;
        *len = (usize)(q - s);
        return q + 1;
    }
    u8 *dst = buf;
    if ((usize)(q - s) + 9 > SCRATCH) {
        dst = (u8 *)tyjson__arena_bump(d->arena, (usize)(q - s) + 9, 1);
        if (!dst) return fail(d, TYJSON_E_NOMEM, p, MSG_NOMEM);
    }
    usize n = unescape(d, s, q, dst);
    if (n == (usize)-1) return NULL;
    *out = dst;
    *len = n;
    return q + 1;
}

/* ----------------------------------------------------------------------------
 * Skipping a value (unknown keys) and finding a value's span (VALUE, RAW,
 * CUSTOM): validates fully, iteratively, one bit per nesting level.
 * ------------------------------------------------------------------------- */
static const u8 *skip_string(dec *d, const u8 *p) {
    bool esc = false;
    const u8 *q = str_close(d, p + 1, &esc);
    if (!q) return NULL;
    if (esc) {
        u8 buf[SCRATCH];
        usize n = 0;
        const u8 *s = NULL;
        /* unescaping is what checks the escapes */
        if (!str_bytes(d, p, buf, &s, &n)) return NULL;
    }
    return q + 1;
}

static const u8 *skip_scalar(dec *d, const u8 *p) {
    switch (*p) {
    case '"': return skip_string(d, p);
    case 't': return literal(d, p, "true", 4);
    case 'f': return literal(d, p, "false", 5);
    case 'n': return literal(d, p, "null", 4);
    default: break;
    }
    if (is_inf_nan_start(d, p)) {
        double v;
        const u8 *q = inf_nan_word(d, p, &v);
        return q ? q : fail(d, TYJSON_E_LITERAL, p, NULL);
    }
    if (*p == '-' || (*p >= '0' && *p <= '9')) {
        tyjson__num num;
        tyjson_status st;
        const u8 *ep;
        /* Out-of-range numbers are valid JSON: skipping them is fine. */
        const u8 *q = tyjson__num_read(p, d->end, TYJSON_READ_BIGNUM_AS_RAW, &num, &st, &ep);
        return q ? q : fail(d, st, ep, NULL);
    }
    return fail(d, TYJSON_E_UNEXPECTED_CHAR, p, MSG_VALUE);
}

TYJSON__FIRST_USE
static TYJSON__NOINLINE const u8 *skip_value(dec *d, const u8 *p) {
    const u8 *end = d->end;
    u64 inl[16]; /* 1024 levels */
    u64 *bits = inl;
    usize cap_bits = sizeof(inl) * 8, lvl = 0;
    u32 depth = d->sp;
    bool in_obj = false;

value:
    if (p >= end) return fail(d, TYJSON_E_TRUNCATED, p, MSG_VALUE);
    if (*p == '{' || *p == '[') {
        if (++depth > d->max_depth) return fail(d, TYJSON_E_DEPTH, p, MSG_DEPTH);
        if (lvl == cap_bits) {
            /* Deeper than 1024 levels (max_depth was raised): more bits
             * from the arena. */
            u64 *nb = (u64 *)tyjson__arena_bump(d->arena, cap_bits / 4, 8);
            if (!nb) return fail(d, TYJSON_E_NOMEM, p, MSG_NOMEM);
            memcpy(nb, bits, cap_bits / 8);
            bits = nb;
            cap_bits *= 2;
        }
        in_obj = *p == '{';
        if (in_obj) bits[lvl / 64] |= (u64)1 << (lvl % 64);
        else bits[lvl / 64] &= ~((u64)1 << (lvl % 64));
        lvl++;
        p = ws(d, p + 1);
        if (p < end && *p == (in_obj ? '}' : ']')) {
            p++;
            goto close;
        }
        if (in_obj) goto key;
        goto value;
    }
    p = skip_scalar(d, p);
    if (!p) return NULL;
    goto after;

key:
    if (p >= end || *p != '"') return fail_expect(d, p, MSG_KEY);
    p = skip_string(d, p);
    if (!p) return NULL;
    p = ws(d, p);
    if (p >= end || *p != ':') return fail_expect(d, p, MSG_COLON);
    p = ws(d, p + 1);
    goto value;

close:
    lvl--;
    depth--;
    if (lvl) in_obj = (bits[(lvl - 1) / 64] >> ((lvl - 1) % 64)) & 1;

after:
    if (lvl == 0) return p;
    p = ws(d, p);
    if (p < end && *p == ',') {
        p = ws(d, p + 1);
        if (d->trailing && p < end && *p == (in_obj ? '}' : ']')) {
            p++;
            goto close;
        }
        if (in_obj) goto key;
        goto value;
    }
    if (p < end && *p == (in_obj ? '}' : ']')) {
        p++;
        goto close;
    }
    return fail_expect(d, p, in_obj ? MSG_OBJ_NEXT : MSG_ARR_NEXT);
}

/* ----------------------------------------------------------------------------
 * Leaf values: everything that needs no frame
 * ------------------------------------------------------------------------- */
static void store_int(char *mem, usize size, u64 v) {
    switch (size) {
    case 1: { u8 x = (u8)v; memcpy(mem, &x, 1); break; }
    case 2: { u16 x = (u16)v; memcpy(mem, &x, 2); break; }
    case 4: { u32 x = (u32)v; memcpy(mem, &x, 4); break; }
    default: memcpy(mem, &v, 8); break;
    }
}

static void put_default(const tyjson__bind_field *bf, char *mem) {
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
    default: break;
    }
}

static void apply_defaults(const tyjson__bind_prep *tp, char *base) {
    for (u32 w = 0; w < tp->n_words; w++) {
        u64 m = tp->defaulted[w];
        while (m) {
            u32 i = w * 64 + tyjson__ctz64(m);
            m &= m - 1;
            const tyjson__bind_field *bf = &tp->fields[i];
            put_default(bf, base + bf->offset);
        }
    }
}

static TYJSON__NOINLINE const u8 *range_error(dec *d, const tyjson__bind_field *bf, const u8 *p) {
    return fail(d, TYJSON_E_NUMBER_RANGE, p, range_msgs[bf->kind - TYJSON_K_I8]);
}

TYJSON__FORCEINLINE usize int_size(u8 kind) {
    switch (kind) {
    case TYJSON_K_I8: case TYJSON_K_U8: return 1;
    case TYJSON_K_I16: case TYJSON_K_U16: return 2;
    case TYJSON_K_I32: case TYJSON_K_U32: return 4;
    default: return 8;
    }
}

/* The end of the integer at p (an optional '-' and digits) if the number
 * there has no fraction or exponent, else NULL. */
static const u8 *integer_end(const u8 *p, const u8 *end) {
    if (p < end && *p == '-') p++;
    while (p < end && *p >= '0' && *p <= '9') p++;
    if (p < end && (*p == '.' || *p == 'e' || *p == 'E')) return NULL;
    return p;
}

static TYJSON__NOINLINE const u8 *int_fail(dec *d, const tyjson__bind_field *bf, const u8 *p,
                                           tyjson_status st, const u8 *ep) {
    if (is_inf_nan_start(d, p)) return mismatch(d, exp_of_kind(bf->kind), p);
    if (st == TYJSON_E_NUMBER_RANGE) {
        /* a huge real is the wrong type; a huge integer is out of range */
        if (!integer_end(p, d->end))
            return fail(d, TYJSON_E_TYPE, p, type_msgs[exp_of_kind(bf->kind)][FOUND_REAL]);
        return range_error(d, bf, p);
    }
    return fail(d, st, ep, NULL);
}

/* An integer beyond the 64-bit range for a float or double member: read
 * again as a real (the same digits with "e0" appended) so that it rounds
 * like any other decimal. */
static TYJSON__NOINLINE const u8 *big_integer_real(dec *d, const tyjson__bind_field *bf,
                                                   const u8 *p, double *v) {
    const u8 *ie = integer_end(p, d->end);
    if (!ie) return range_error(d, bf, p); /* a real too large for a double */
    usize n = (usize)(ie - p);
    u8 small[128];
    u8 *buf = small;
    if (n + 2 > sizeof(small)) {
        buf = (u8 *)tyjson__arena_bump(d->arena, n + 2, 1);
        if (!buf) return fail(d, TYJSON_E_NOMEM, p, MSG_NOMEM);
    }
    memcpy(buf, p, n);
    buf[n] = 'e';
    buf[n + 1] = '0';
    tyjson__num num;
    tyjson_status st;
    const u8 *ep;
    if (!tyjson__num_read(buf, buf + n + 2, 0, &num, &st, &ep) || num.kind != TYJSON__NUM_REAL)
        return range_error(d, bf, p);
    *v = num.v.f;
    return ie;
}

TYJSON__FORCEINLINE const u8 *leaf_int_k(dec *d, const tyjson__bind_field *bf, char *mem,
                                         const u8 *p, u8 kind) {
    u64 u;
    bool neg = false;
    const u8 *q;
    /* Short non-negative integers (ages, counts, small ids) are the usual
     * case: up to 9 digits read here without the general reader's call;
     * anything else (sign, fraction, exponent, leading zero, more digits,
     * near the end of input) takes the general path below. */
    if (likely(d->end - p > 10)) {
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
    if (unlikely(!q)) return int_fail(d, bf, p, st, ep);
    if (likely(num.kind == TYJSON__NUM_UINT)) {
        u = num.v.u;
    } else if (num.kind == TYJSON__NUM_SINT) {
        u = (u64)num.v.i;
        neg = true;
    } else if (q - p == 2 && num.v.f == 0) {
        u = 0; /* "-0" */
    } else {
        return fail(d, TYJSON_E_TYPE, p, type_msgs[exp_of_kind(bf->kind)][FOUND_REAL]);
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
    if (unlikely(!ok)) return range_error(d, bf, p);
    store_int(mem, int_size(kind), u);
    return q;
}

static const u8 *leaf_int(dec *d, const tyjson__bind_field *bf, char *mem, const u8 *p) {
    return leaf_int_k(d, bf, mem, p, bf->kind);
}

TYJSON__FORCEINLINE const u8 *leaf_real_k(dec *d, const tyjson__bind_field *bf, char *mem,
                                          const u8 *p, u8 kind) {
    double v;
    const u8 *q;
    if (is_inf_nan_start(d, p)) {
        q = inf_nan_word(d, p, &v);
        if (!q) return fail(d, TYJSON_E_LITERAL, p, NULL);
    } else {
        tyjson__num num;
        tyjson_status st;
        const u8 *ep;
        q = tyjson__num_read_inline(p, d->end, 0, &num, &st, &ep);
        if (unlikely(!q)) {
            if (st != TYJSON_E_NUMBER_RANGE) return fail(d, st, ep, NULL);
            q = big_integer_real(d, bf, p, &num.v.f);
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
                return range_error(d, bf, p);
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

/* n bytes (n <= 16) from s to dst through two 8-byte words, when 16 bytes
 * are readable at s and writable at dst; else memcpy. */

static const u8 *leaf_real(dec *d, const tyjson__bind_field *bf, char *mem, const u8 *p) {
    return leaf_real_k(d, bf, mem, p, bf->kind);
}

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
                                       const u8 *p) {
    const u8 *s = p + 1;
    tyjson__str_scan r = tyjson__str_scan_plain(s, d->end, d->allow_invalid);
    if (unlikely(r.err != TYJSON_OK)) return fail(d, r.err, r.stop, NULL);
    char *ptr;
    usize n;
    const u8 *q;
    if (likely(*r.stop == '"')) {
        n = (usize)(r.stop - s);
        q = r.stop + 1;
        if (d->borrow && bf->kind == TYJSON_K_STR) {
            ptr = (char *)(uintptr_t)s;
        } else {
            tyjson_arena *a = d->arena;
            ptr = (char *)tyjson__arena_bump(a, n + 1, 1);
            if (unlikely(!ptr)) return fail(d, TYJSON_E_NOMEM, p, MSG_NOMEM);
            /* the arena's free room past the string may take the overrun */
            copy_short(ptr, (usize)(a->end - ptr), s, (usize)(d->end - s), n);
            ptr[n] = 0;
        }
    } else {
        q = str_escaped_arena(d, s, r.stop, &ptr, &n);
        if (!q) return NULL;
        if (bf->kind == TYJSON_K_CSTR && memchr(ptr, 0, n)) return fail(d, TYJSON_E_TYPE, p, MSG_NUL);
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

static const u8 *leaf_chars(dec *d, const tyjson__bind_field *bf, char *mem, const u8 *p) {
    u8 buf[SCRATCH];
    const u8 *s = NULL;
    usize n = 0;
    const u8 *q = str_bytes(d, p, buf, &s, &n);
    if (!q) return NULL;
    if (n >= bf->size) return fail(d, TYJSON_E_SIZE, p, MSG_CHARS);
    if (memchr(s, 0, n)) return fail(d, TYJSON_E_TYPE, p, MSG_NUL);
    memcpy(mem, s, n);
    memset(mem + n, 0, bf->size - n);
    return q;
}

/* `unknown enum name "BLUE" (expected one of "RED", "GREEN")`: the name
 * cut at 48 bytes, the list at about 240. */
static TYJSON__NOINLINE const u8 *bad_enum(dec *d, const tyjson_field *f, const u8 *p,
                                           const u8 *name, usize n) {
    char buf[320];
    usize k = 0;
    tyjson__note_text(buf, sizeof(buf), &k, "unknown enum name ");
    tyjson__note_quoted(buf, sizeof(buf), &k, name, n, 48);
    tyjson__note_enum_names(buf, sizeof(buf), &k, f);
    return fail_note(d, TYJSON_E_ENUM, p, MSG_ENUM, buf, k);
}

static const u8 *leaf_enum(dec *d, const tyjson__bind_field *bf, char *mem, const u8 *p) {
    u8 buf[SCRATCH];
    const u8 *s = NULL;
    usize n = 0;
    const u8 *q = str_bytes(d, p, buf, &s, &n);
    if (!q) return NULL;
    const tyjson_field *f = bf->f;
    for (usize k = 0; k < f->n_enums; k++) {
        const char *name = f->enums[k].name;
        usize i = 0;
        /* stops at the name's NUL: never reads past it */
        while (i < n && name[i] && (u8)name[i] == s[i]) i++;
        if (i == n && name[n] == 0) {
            store_int(mem, bf->size, (u64)f->enums[k].value);
            return q;
        }
    }
    return bad_enum(d, f, p, s, n);
}

/* A date that does not parse: a string-level error (a control byte,
 * invalid UTF-8, truncation) takes precedence, as for any other string.
 * The message says what is wrong ("day 29 out of range for 2023-02"). */
static TYJSON__NOINLINE const u8 *bad_date(dec *d, const u8 *p, const char *msg, const u8 *s,
                                           usize n, bool datetime) {
    bool esc = false;
    if (!str_close(d, p + 1, &esc)) return NULL;
    char buf[160];
    usize k = 0;
    tyjson__note_text(buf, sizeof(buf), &k, datetime ? "invalid date-time: " : "invalid date: ");
    usize w = tyjson__date_explain((const char *)s, n, datetime, buf + k, sizeof(buf) - k);
    if (!w) return fail(d, TYJSON_E_DATE, p, msg);
    return fail_note(d, TYJSON_E_DATE, p, msg, buf, k + w);
}

static const u8 *leaf_date(dec *d, const tyjson__bind_field *bf, char *mem, const u8 *p) {
    u8 buf[SCRATCH];
    const u8 *s = p + 1;
    usize n = 0;
    const u8 *q;
    /* The usual widths, "YYYY-MM-DD" and "YYYY-MM-DDTHH:MM:SSZ", need no
     * scan: the date parsers accept only digits and punctuation, so a quote
     * at that width is the closing one. Other widths take the inline scan,
     * and anything unusual (escapes, errors) str_bytes. */
    usize width = bf->kind == TYJSON_K_DATE ? 10 : 20;
    tyjson__str_scan r;
    if (likely((usize)(d->end - s) > width && s[width] == '"')) {
        r.stop = s + width;
        r.err = TYJSON_OK;
    } else {
        r = tyjson__str_scan_plain(s, d->end, d->allow_invalid);
    }
    if (likely(r.err == TYJSON_OK && *r.stop == '"')) {
        n = (usize)(r.stop - s);
        q = r.stop + 1;
    } else {
        q = str_bytes(d, p, buf, &s, &n);
        if (!q) return NULL;
    }
    if (bf->kind == TYJSON_K_DATE) {
        tyjson_date v;
        if (!tyjson_date_parse((const char *)s, n, &v)) return bad_date(d, p, MSG_DATE, s, n, false);
        memcpy(mem, &v, sizeof(v));
        return q;
    }
    tyjson_datetime dt;
    if (!tyjson_datetime_parse((const char *)s, n, &dt))
        return bad_date(d, p, MSG_DATETIME, s, n, true);
    if (bf->kind == TYJSON_K_DATETIME) {
        memcpy(mem, &dt, sizeof(dt));
        return q;
    }
    int64_t v;
    if (bf->kind == TYJSON_K_EPOCH_MS) {
        /* years 0-9999: milliseconds never overflow; but an offset may move
         * the instant out of the UTC years the encoder writes as a string */
        i64 sec = tyjson__datetime_epoch_sec(&dt);
        if (!(bf->flags & TYJSON_F_EPOCH_NUMBER) &&
            (sec < TYJSON__EPOCH_MIN_SEC || sec >= TYJSON__EPOCH_END_SEC))
            return fail(d, TYJSON_E_DATE, p, MSG_EPOCH_YEARS);
        v = sec * 1000 + (int64_t)(dt.nanosecond / 1000000u);
    } else if (!tyjson_datetime_to_epoch_ns(&dt, &v)) {
        return fail(d, TYJSON_E_DATE, p, MSG_EPOCH_RANGE);
    }
    memcpy(mem, &v, sizeof(v));
    return q;
}

static const u8 *leaf_epoch_num(dec *d, const tyjson__bind_field *bf, char *mem, const u8 *p) {
    tyjson__num num;
    tyjson_status st;
    const u8 *ep;
    const u8 *q = tyjson__num_read(p, d->end, 0, &num, &st, &ep);
    if (!q) {
        if (st == TYJSON_E_NUMBER_RANGE)
            return fail(d, TYJSON_E_NUMBER_RANGE, p, range_msgs[TYJSON_K_I64 - TYJSON_K_I8]);
        return fail(d, st, ep, NULL);
    }
    int64_t v;
    if (num.kind == TYJSON__NUM_UINT) {
        if (num.v.u > INT64_MAX)
            return fail(d, TYJSON_E_NUMBER_RANGE, p, range_msgs[TYJSON_K_I64 - TYJSON_K_I8]);
        v = (int64_t)num.v.u;
    } else if (num.kind == TYJSON__NUM_SINT) {
        v = num.v.i;
    } else if (q - p == 2 && num.v.f == 0) {
        v = 0;
    } else {
        return fail(d, TYJSON_E_TYPE, p, type_msgs[EXP_EPOCH][FOUND_REAL]);
    }
    /* Without EPOCH_NUMBER the encoder writes a UTC date-time string of
     * years 0000-9999: milliseconds beyond those are refused here. (Every
     * int64 of nanoseconds lies within them.) */
    if (bf->kind == TYJSON_K_EPOCH_MS && !(bf->flags & TYJSON_F_EPOCH_NUMBER) &&
        (v < TYJSON__EPOCH_MIN_SEC * 1000 || v >= TYJSON__EPOCH_END_SEC * 1000))
        return fail(d, TYJSON_E_NUMBER_RANGE, p, MSG_EPOCH_MS_RANGE);
    memcpy(mem, &v, sizeof(v));
    return q;
}

/* VALUE and CUSTOM: the value's span through the DOM parser, in the arena. */
static const u8 *leaf_dom(dec *d, const tyjson__bind_field *bf, char *mem, const u8 *p) {
    const u8 *q = skip_value(d, p);
    if (!q) return NULL;
    tyjson_alloc alc = tyjson_arena_allocator(d->arena);
    tyjson_read_options o;
    /* the syntax relaxations, and what the value itself is made of: big
     * numbers as raw text, duplicate keys refused (as by the type flag) */
    o.flags = d->rflags & (TYJSON_READ_ALLOW_COMMENTS | TYJSON_READ_ALLOW_TRAILING_COMMAS |
                           TYJSON_READ_ALLOW_INF_NAN | TYJSON_READ_ALLOW_INVALID_UTF8 |
                           TYJSON_READ_BIGNUM_AS_RAW | TYJSON_READ_REJECT_DUPLICATE_KEYS);
    o.max_depth = d->max_depth;
    o.alc = &alc;
    tyjson_error e;
    tyjson_doc *doc = tyjson_read_opts((const char *)p, (usize)(q - p), &o, &e);
    if (!doc) return fail(d, e.code, p + (e.offset <= (usize)(q - p) ? e.offset : 0), NULL);
    tyjson_val *root = tyjson_doc_get_root(doc);
    if (bf->kind == TYJSON_K_VALUE) {
        memcpy(mem, &root, sizeof(root));
        return q;
    }
    const tyjson_codec *c = bf->f->codec;
    memset(mem, 0, bf->size);
    d->arena->note = NULL;
    tyjson_status st = c->decode(c->ctx, root, mem, d->arena);
    if (st != TYJSON_OK) {
        const char *why = d->arena->note ? d->arena->note : MSG_CODEC;
        d->arena->note = NULL;
        return fail(d, st, p, why);
    }
    return q;
}

static const u8 *leaf_raw(dec *d, char *mem, const u8 *p) {
    const u8 *q = skip_value(d, p);
    if (!q) return NULL;
    tyjson_str s;
    s.len = (usize)(q - p);
    if (d->borrow) {
        s.ptr = (const char *)p;
    } else {
        char *b = (char *)tyjson__arena_bump(d->arena, s.len + 1, 1);
        if (!b) return fail(d, TYJSON_E_NOMEM, p, MSG_NOMEM);
        memcpy(b, p, s.len);
        b[s.len] = 0;
        s.ptr = b;
    }
    memcpy(mem, &s, sizeof(s));
    return q;
}

static TYJSON__NOINLINE const u8 *leaf_null(dec *d, const tyjson__bind_field *bf, char *mem,
                                            const u8 *p) {
    if (!(bf->flags & TYJSON_F_NULLABLE)) return mismatch(d, exp_of_kind(bf->kind), p);
    const u8 *q = literal(d, p, "null", 4);
    if (!q) return NULL;
    memset(mem, 0, bf->size);
    if (bf->f->has_default) put_default(bf, mem);
    return q;
}

/* One value of a kind that needs no frame (p < end), after any
 * whitespace. */
static const u8 *leaf(dec *d, const tyjson__bind_field *bf, char *mem, const u8 *p) {
    if (unlikely(*p <= ' ' || *p == '/')) {
        p = ws(d, p);
        if (p >= d->end) return fail(d, TYJSON_E_TRUNCATED, p, MSG_VALUE);
    }
    u8 c = *p;
    switch (bf->kind) {
    case TYJSON_K_BOOL:
        if (c == 't' || c == 'f') {
            bool b = c == 't';
            const u8 *q = b ? literal(d, p, "true", 4) : literal(d, p, "false", 5);
            if (q) memcpy(mem, &b, sizeof(b));
            return q;
        }
        break;
    case TYJSON_K_I8: case TYJSON_K_I16: case TYJSON_K_I32: case TYJSON_K_I64:
    case TYJSON_K_U8: case TYJSON_K_U16: case TYJSON_K_U32: case TYJSON_K_U64:
        if (c == '-' || (c >= '0' && c <= '9')) return leaf_int(d, bf, mem, p);
        break;
    case TYJSON_K_F32: case TYJSON_K_F64:
        if (c == '-' || (c >= '0' && c <= '9') || is_inf_nan_start(d, p))
            return leaf_real(d, bf, mem, p);
        break;
    case TYJSON_K_STR: case TYJSON_K_CSTR:
        if (c == '"') return leaf_str(d, bf, mem, p);
        break;
    case TYJSON_K_CHARS:
        if (c == '"') return leaf_chars(d, bf, mem, p);
        break;
    case TYJSON_K_ENUM:
        if (c == '"') return leaf_enum(d, bf, mem, p);
        break;
    case TYJSON_K_DATE: case TYJSON_K_DATETIME:
        if (c == '"') return leaf_date(d, bf, mem, p);
        break;
    case TYJSON_K_EPOCH_MS: case TYJSON_K_EPOCH_NS:
        if (c == '"') return leaf_date(d, bf, mem, p);
        if (c == '-' || (c >= '0' && c <= '9')) {
            if (c == '-' && is_inf_nan_start(d, p)) break;
            return leaf_epoch_num(d, bf, mem, p);
        }
        break;
    case TYJSON_K_VALUE: case TYJSON_K_CUSTOM:
        return leaf_dom(d, bf, mem, p);
    case TYJSON_K_RAW:
        return leaf_raw(d, mem, p);
    default:
        break;
    }
    if (c == 'n') return leaf_null(d, bf, mem, p);
    return mismatch(d, exp_of_kind(bf->kind), p);
}

/* ----------------------------------------------------------------------------
 * Frames
 * ------------------------------------------------------------------------- */
TYJSON__FIRST_USE
static TYJSON__NOINLINE frame *grow_stack(dec *d, const u8 *p) {
    usize bytes;
    if (tyjson__mul_ovf((usize)d->cap * 2, sizeof(frame), &bytes)) {
        fail(d, TYJSON_E_NOMEM, p, MSG_NOMEM);
        return NULL;
    }
    frame *n = (frame *)tyjson__arena_bump(d->arena, bytes, 16);
    if (!n) {
        fail(d, TYJSON_E_NOMEM, p, MSG_NOMEM);
        return NULL;
    }
    memcpy(n, d->stk, (usize)d->sp * sizeof(frame));
    d->hwm = d->sp;
    d->stk = n;
    d->cap *= 2;
    return n;
}

/* A new top frame for a container at p, or NULL (depth, memory). */
TYJSON__FORCEINLINE frame *push(dec *d, const u8 *p) {
    if (unlikely(d->sp >= d->max_depth)) {
        fail(d, TYJSON_E_DEPTH, p, MSG_DEPTH);
        return NULL;
    }
    if (unlikely(d->sp == d->cap) && !grow_stack(d, p)) return NULL;
    if (unlikely(d->sp == d->hwm)) {
        /* a slot used for the first time: no key-order or length hint */
        d->stk[d->sp].prep = NULL;
        d->stk[d->sp].bf = NULL;
        d->hwm++;
    }
    return &d->stk[d->sp++];
}

/* Alignment for arena copies of a member type: the largest power of two
 * dividing its size, at most 16. */
static usize align_of_size(usize size) {
    usize a = size & (~size + 1);
    return a > 16 || a == 0 ? 16 : a;
}

/* Room for one more element of the DYN array in f. */
TYJSON__FIRST_USE
static TYJSON__NOINLINE bool arr_grow(dec *d, frame *f, const u8 *p) {
    usize size = f->bf->size;
    usize ncap, bytes;
    if (f->cap == 0) {
        ncap = size >= 64 ? 4 : 64 / size;
        if (ncap < 4) ncap = 4;
        if (f->hint > ncap && (usize)f->hint * size <= 16384) ncap = f->hint;
    } else if (tyjson__mul_ovf(f->cap, 2, &ncap)) {
        fail(d, TYJSON_E_NOMEM, p, MSG_NOMEM);
        return false;
    }
    if (tyjson__mul_ovf(ncap, size, &bytes)) {
        fail(d, TYJSON_E_NOMEM, p, MSG_NOMEM);
        return false;
    }
    tyjson_arena *a = d->arena;
    usize old = f->cap * size;
    /* New room is zeroed for elements decoded into it member by member
     * (structs, and the kinds leaf() fills); the common scalar kinds and
     * strings write every byte of their element. */
    u8 eop = f->bf->eop;
    bool zero = !(eop == TYJSON__OP_STR || eop == TYJSON__OP_I32 || eop == TYJSON__OP_I64 ||
                  eop == TYJSON__OP_BOOL || eop == TYJSON__OP_F64 || eop == TYJSON__OP_F32);
    if (f->base && f->base + old == a->cur && bytes - old <= (usize)(a->end - a->cur)) {
        /* still the arena's last allocation: grow where it is */
        if (zero) memset(a->cur, 0, bytes - old);
        a->cur += bytes - old;
        a->used += bytes - old;
        f->cap = ncap;
        return true;
    }
    char *nb = (char *)tyjson__arena_bump(a, bytes, align_of_size(size));
    if (!nb) {
        fail(d, TYJSON_E_NOMEM, p, MSG_NOMEM);
        return false;
    }
    if (f->n) memcpy(nb, f->base, f->n * size);
    if (zero) memset(nb + f->n * size, 0, bytes - f->n * size);
    f->base = nb;
    f->cap = ncap;
    return true;
}

TYJSON__FIRST_USE
static void arr_finish(dec *d, frame *f) {
    const tyjson__bind_field *bf = f->bf;
    usize n = f->n;
    if (bf->f->count_at) memcpy(f->owner + bf->f->count_at - 1, &n, sizeof(n));
    if (bf->shape != TYJSON_SHAPE_DYN) return;
    tyjson_arena *a = d->arena;
    usize size = bf->size;
    if (f->base && f->base + f->cap * size == a->cur) {
        /* give back the unused room */
        a->cur = f->base + n * size;
        a->used -= (f->cap - n) * size;
    }
    void *ptr = n ? (void *)f->base : NULL;
    memcpy(f->owner + bf->offset, &ptr, sizeof(ptr));
}

/* ----------------------------------------------------------------------------
 * The decoder proper
 * ------------------------------------------------------------------------- */
TYJSON__FORCEINLINE u64 *seen_words(frame *f) { return f->seen_wide ? f->seen_wide : &f->seen1; }

static TYJSON__NOINLINE const u8 *key_escaped(dec *d, const tyjson__bind_prep *tp, const u8 *ks,
                                              int32_t *idx) {
    u8 buf[SCRATCH];
    const u8 *s = NULL;
    usize n = 0;
    const u8 *q = str_bytes(d, ks - 1, buf, &s, &n);
    if (!q) return NULL;
    *idx = tyjson__bind_lookup(tp, s, n, n);
    return q;
}

static TYJSON__NOINLINE const u8 *missing(dec *d, frame *f, const u8 *p) {
    const tyjson__bind_prep *tp = f->prep;
    u64 *seen = seen_words(f);
    for (u32 w = 0; w < tp->n_words; w++) {
        u64 m = tp->required[w] & ~seen[w];
        if (m) {
            const tyjson__bind_field *bf = &tp->fields[w * 64 + tyjson__ctz64(m)];
            f->key = (const u8 *)bf->f->name;
            f->key_len = (u32)strlen(bf->f->name);
            return fail(d, TYJSON_E_MISSING_KEY, p, MSG_MISSING);
        }
    }
    return p;
}

static TYJSON__NOINLINE const u8 *duplicate(dec *d, const u8 *key) {
    return fail(d, TYJSON_E_DUPLICATE_KEY, key - 1, MSG_DUPLICATE);
}

/* Marks field i of a wide type (more than 64 fields) as seen in f: false
 * if it was already. */
static TYJSON__NOINLINE bool mark_seen_wide(frame *f, u32 i) {
    u64 bit = (u64)1 << (i % 64);
    if (f->seen_wide[i / 64] & bit) return false;
    f->seen_wide[i / 64] |= bit;
    return true;
}

/* Bits of the fields from index a to index b, both included (a <= b < 64). */
TYJSON__FORCEINLINE u64 bits_between(u32 a, u32 b) {
    u64 upto_b = b >= 63 ? ~(u64)0 : ((u64)2 << b) - 1;
    return upto_b & ~(((u64)1 << a) - 1);
}

/* f's seen fields with the current run of predicted keys, which stopped
 * before `stop` (the field predicted next, or tp's none past the end). */
TYJSON__FIRST_USE
static TYJSON__NOINLINE u64 run_seen(const tyjson__bind_prep *tp, const frame *f,
                                     const tyjson__bind_field *stop) {
    const tyjson__bind_field *none = &tp->none;
    if (f->chain == none || f->chain == stop) return f->seen1;
    u32 s = f->chain->index;
    if (!f->chain_rev) {
        u32 e = stop == none ? tp->n_fields : stop->index; /* [s, e) */
        return e > s ? f->seen1 | bits_between(s, e - 1) : f->seen1;
    }
    if (stop == none) return f->seen1 | bits_between(0, s); /* (e, s] */
    return stop->index < s ? f->seen1 | bits_between(stop->index + 1, s) : f->seen1;
}

/* A new run of predicted keys from `start` (going backwards if rev), with
 * `seen` the fields seen so far: its fence is the first of them along the
 * run. */
TYJSON__FIRST_USE
static TYJSON__NOINLINE void start_run(const tyjson__bind_prep *tp, frame *f,
                                       const tyjson__bind_field *start, bool rev, u64 seen) {
    const tyjson__bind_field *none = &tp->none;
    f->seen1 = seen;
    f->chain = start;
    f->chain_rev = rev;
    f->fence = none;
    if (start == none) return;
    u32 s = start->index;
    u64 m = rev ? seen & bits_between(0, s) : seen & ~(((u64)1 << s) - 1);
    if (m) f->fence = &tp->fields[rev ? 63 - (u32)__builtin_clzll(m) : (u32)tyjson__ctz64(m)];
}

/* JSON null for a field with a state member: the member is zero (an array
 * empty) and the state NULL. */
static TYJSON__NOINLINE void null_state_member(const tyjson__bind_field *bf, char *owner) {
    const tyjson_field *f = bf->f;
    if (bf->shape == TYJSON_SHAPE_ONE) memset(owner + bf->offset, 0, bf->size);
    else if (bf->shape == TYJSON_SHAPE_FIXED) memset(owner + bf->offset, 0, bf->size * f->capacity);
    else memset(owner + bf->offset, 0, sizeof(void *));
    if (f->count_at) memset(owner + f->count_at - 1, 0, sizeof(usize));
    owner[bf->state_at - 1] = (char)TYJSON_STATE_NULL;
}

/* A nested type's prepared record, read from the type each time (one load
 * on the fast path): no copy of it is kept, so that a nested type released
 * with tyjson_struct_release is simply prepared again here. */
TYJSON__FORCEINLINE const tyjson__bind_prep *sub_prep(dec *d, const tyjson__bind_field *bf,
                                                       const u8 *p) {
    tyjson_error e;
    const tyjson__bind_prep *tp = tyjson__struct_prep(bf->f->type, &e);
    if (unlikely(!tp)) {
        fail(d, e.code, p, e.msg);
        return NULL;
    }
    return tp;
}

/* One value of op at p (p < end) into mem: the common kinds inline, the
 * rest through leaf(). */
#define LEAF_SWITCH(op_)                                                       \
    switch (op_) {                                                             \
    case TYJSON__OP_STR:                                                       \
        p = likely(*p == '"') ? leaf_str(d, bf, mem, p) : leaf(d, bf, mem, p); \
        break;                                                                 \
    case TYJSON__OP_I32:                                                       \
        p = likely(*p == '-' || (*p >= '0' && *p <= '9'))                      \
                ? leaf_int_k(d, bf, mem, p, TYJSON_K_I32)                      \
                : leaf(d, bf, mem, p);                                         \
        break;                                                                 \
    case TYJSON__OP_I64:                                                       \
        p = likely(*p == '-' || (*p >= '0' && *p <= '9'))                      \
                ? leaf_int_k(d, bf, mem, p, TYJSON_K_I64)                      \
                : leaf(d, bf, mem, p);                                         \
        break;                                                                 \
    case TYJSON__OP_BOOL:                                                      \
        if (*p == 't' && end - p >= 4 && memcmp(p, "true", 4) == 0) {          \
            *(bool *)(void *)mem = true;                                       \
            p += 4;                                                            \
        } else if (*p == 'f' && end - p >= 5 && memcmp(p, "false", 5) == 0) {  \
            *(bool *)(void *)mem = false;                                      \
            p += 5;                                                            \
        } else {                                                               \
            p = leaf(d, bf, mem, p);                                           \
        }                                                                      \
        break;                                                                 \
    case TYJSON__OP_F64:                                                       \
        p = likely((*p >= '0' && *p <= '9') || (*p == '-' && !d->inf_nan))    \
                ? leaf_real_k(d, bf, mem, p, TYJSON_K_F64)                     \
                : leaf(d, bf, mem, p);                                         \
        break;                                                                 \
    case TYJSON__OP_F32:                                                       \
        p = likely((*p >= '0' && *p <= '9') || (*p == '-' && !d->inf_nan))    \
                ? leaf_real_k(d, bf, mem, p, TYJSON_K_F32)                     \
                : leaf(d, bf, mem, p);                                         \
        break;                                                                 \
    default:                                                                   \
        p = leaf(d, bf, mem, p);                                               \
        break;                                                                 \
    }

/* The hot state of the innermost object lives in locals, which stores
 * through `mem` (a char pointer, aliasing everything) cannot force back to
 * memory; its frame gets a copy when a nested container is entered, and
 * on errors (SYNC). */
#define SYNC()                                                                 \
    do {                                                                       \
        if (d->sp && d->stk[d->sp - 1].type == FR_OBJ) {                       \
            d->stk[d->sp - 1].key = okey;                                      \
            d->stk[d->sp - 1].key_len = KEY_IN_INPUT;                          \
        }                                                                      \
    } while (0)
#define BAIL(expr)                                                             \
    do {                                                                       \
        (void)(expr);                                                          \
        SYNC();                                                                \
        return NULL;                                                           \
    } while (0)
#define SAVE_OBJ()                                                             \
    do {                                                                       \
        f->pred = pred;                                                        \
        f->rev = orev;                                                         \
        f->key = okey;                                                         \
        f->key_len = KEY_IN_INPUT;                                             \
    } while (0)

TYJSON__FIRST_USE
static const u8 *run(dec *d, const tyjson__bind_prep *root, char *out) {
    const u8 *p = d->start, *end = d->end;
    const tyjson__bind_prep *tp = root;
    const tyjson__bind_field *bf;
    char *mem = out, *owner;
    frame *f = NULL;
    u8 op;
    bool fresh = false; /* mem is known to be zero already */
    /* the innermost object */
    const tyjson__bind_prep *otp = NULL;
    const tyjson__bind_field *pred = NULL;
    char *obase = NULL;
    const u8 *okey = NULL;
    bool orev = false;

    p = ws(d, p);
    if (p >= end) return fail(d, TYJSON_E_EMPTY, p, NULL);

open_type: /* the value at p (p < end) is a tp in mem */
    if (unlikely(tp->tflags & TYJSON_T_ARRAY)) {
        if (*p != '[') BAIL(mismatch(d, EXP_ARRAY, p));
        if (!fresh) memset(mem, 0, tp->size);
        bf = &tp->fields[0];
        owner = mem;
        goto open_array;
    }
    if (unlikely(*p != '{')) BAIL(mismatch(d, EXP_OBJ, p));
open_object: /* p at the '{' of an object of type tp into mem */
    if (d->sp && f->type == FR_OBJ) SAVE_OBJ();
    f = push(d, p);
    if (!f) BAIL(0);
    /* The slot's last object, when of the same type (the previous element
     * of an array), tells the key order to expect. */
    orev = f->prep == tp && f->type == FR_OBJ && f->rev;
    pred = orev ? tp->last : tp->first;
    f->type = FR_OBJ;
    f->prep = tp;
    f->base = mem;
    otp = tp;
    obase = mem;
    okey = NULL;
    f->seen1 = 0;
    f->chain = pred;
    f->chain_rev = orev;
    f->fence = &tp->none;
    f->seen_wide = NULL;
    if (unlikely(tp->wide)) {
        f->seen_wide = (u64 *)tyjson__arena_bump(d->arena, tp->n_words * sizeof(u64), 8);
        if (!f->seen_wide) BAIL(fail(d, TYJSON_E_NOMEM, p, MSG_NOMEM));
        memset(f->seen_wide, 0, tp->n_words * sizeof(u64));
    }
    if (!fresh) memset(mem, 0, tp->size);
    if (tp->any_default) apply_defaults(tp, mem);
    p++;
    if (likely(p < end && *p == '"')) goto obj_member;
    p = ws(d, p);
    if (p < end && *p == '}') goto obj_close;
    if (unlikely(p >= end || *p != '"')) BAIL(fail_expect(d, p, MSG_KEY_OR_CLOSE));

obj_member: /* p at a key's opening quote */
    okey = p + 1;
    bf = pred;
    if (likely(end - p > 16)) {
    key_literal: /* as above, 16 bytes known readable at p */
        {
            /* the key expected next, `"key":` included, in one masked compare */
            u64 w0, w1;
            memcpy(&w0, p, 8);
            memcpy(&w1, p + 8, 8);
            if (likely((((w0 ^ bf->lit_words[0]) & bf->lit_masks[0]) |
                        ((w1 ^ bf->lit_words[1]) & bf->lit_masks[1])) == 0)) {
                /* the literal is at most 16 bytes: p stays below end */
                p += bf->lit_match_len;
                /* pretty text: `"key": value`. A branch, not arithmetic on
                 * p: that would make every later load wait for this one. */
                if (unlikely(*p == ' ')) {
                    p++;
                    if (unlikely(p >= end)) BAIL(fail(d, TYJSON_E_TRUNCATED, p, MSG_VALUE));
                    KEEP_BRANCH();
                }
                goto have_value;
            }
        }
    }
    {
        const u8 *ks = p + 1;
        int32_t found;
        tyjson__str_scan r = tyjson__str_scan_plain(ks, end, d->allow_invalid);
        if (unlikely(r.err != TYJSON_OK)) BAIL(fail(d, r.err, r.stop, NULL));
        if (likely(*r.stop == '"')) {
            found = tyjson__bind_lookup(otp, ks, (usize)(r.stop - ks), (usize)(end - ks));
            p = r.stop + 1;
        } else {
            p = key_escaped(d, otp, ks, &found);
            if (!p) BAIL(0);
        }
        if (likely(p < end && *p == ':')) {
            p++;
        } else {
            p = ws(d, p);
            if (p >= end || *p != ':') BAIL(fail_expect(d, p, MSG_COLON));
            p++;
        }
        if (unlikely(found < 0)) {
            if (d->unknown_error || (otp->tflags & TYJSON_T_UNKNOWN_ERROR))
                BAIL(fail(d, TYJSON_E_UNKNOWN_KEY, okey - 1, MSG_UNKNOWN));
            p = ws(d, p);
            p = skip_value(d, p);
            if (!p) BAIL(0);
            goto obj_next;
        }
        bf = &otp->fields[found];
        /* The prediction missed: whether keys come in declared or reverse
         * order shows in where this one stands next to the previous one. */
        orev = bf->index + 1 == (orev ? pred->next : pred->prev)->index;
        if (likely(!otp->wide)) {
            /* the run ended: fold it into the bitmask, check this key, and
             * start the next run after it */
            u64 seen = run_seen(otp, f, pred);
            bool repeated = (seen & bf->bit) != 0;
            seen |= bf->bit;
            pred = orev ? bf->prev : bf->next;
            start_run(otp, f, pred, orev, seen);
            if (unlikely(repeated)) goto repeated_key;
        }
    }

    /* field bf of the innermost object; p after the colon */
    /* whitespace before the value is rare enough to be left to the slow
     * paths of the ops below (leaf(), open_nested, open_array) */
    if (unlikely(p >= end)) BAIL(fail(d, TYJSON_E_TRUNCATED, p, MSG_VALUE));
have_value: /* the same, p < end */
    pred = orev ? bf->prev : bf->next;
    /* A predicted key seen before: the first occurrence wins (as in the
     * DOM's lookups). See frame.fence. */
    if (unlikely(bf == f->fence)) {
        start_run(otp, f, pred, orev, run_seen(otp, f, bf));
        goto repeated_key;
    }
    mem = obase + bf->offset;
    op = bf->op;
dispatch:
    switch (op) {
    case TYJSON__OP_STR:
        p = likely(*p == '"') ? leaf_str(d, bf, mem, p) : leaf(d, bf, mem, p);
        break;
    case TYJSON__OP_I32:
        p = likely(*p == '-' || (*p >= '0' && *p <= '9')) ? leaf_int_k(d, bf, mem, p, TYJSON_K_I32)
                                                         : leaf(d, bf, mem, p);
        break;
    case TYJSON__OP_I64:
        p = likely(*p == '-' || (*p >= '0' && *p <= '9')) ? leaf_int_k(d, bf, mem, p, TYJSON_K_I64)
                                                         : leaf(d, bf, mem, p);
        break;
    case TYJSON__OP_BOOL:
        if (*p == 't' && end - p >= 4 && memcmp(p, "true", 4) == 0) {
            *(bool *)(void *)mem = true;
            p += 4;
        } else if (*p == 'f' && end - p >= 5 && memcmp(p, "false", 5) == 0) {
            *(bool *)(void *)mem = false;
            p += 5;
        } else {
            p = leaf(d, bf, mem, p);
        }
        break;
    case TYJSON__OP_F64:
        p = likely((*p >= '0' && *p <= '9') || (*p == '-' && !d->inf_nan))
                ? leaf_real_k(d, bf, mem, p, TYJSON_K_F64) : leaf(d, bf, mem, p);
        break;
    case TYJSON__OP_F32:
        p = likely((*p >= '0' && *p <= '9') || (*p == '-' && !d->inf_nan))
                ? leaf_real_k(d, bf, mem, p, TYJSON_K_F32) : leaf(d, bf, mem, p);
        break;
    case TYJSON__OP_NESTED:
        fresh = false;
        SAVE_OBJ();
        goto open_nested;
    case TYJSON__OP_ARRAY:
        owner = obase;
        SAVE_OBJ();
        goto open_array;
    case TYJSON__OP_SPECIAL:
        if (unlikely(otp->wide) && !mark_seen_wide(f, bf->index)) goto repeated_key;
        if (bf->present_at) *(bool *)(void *)(obase + bf->present_at - 1) = true;
        if (bf->state_at) {
            p = ws(d, p);
            if (p >= end) BAIL(fail(d, TYJSON_E_TRUNCATED, p, MSG_VALUE));
            if (*p == 'n') {
                p = literal(d, p, "null", 4);
                if (!p) BAIL(0);
                null_state_member(bf, obase);
                goto obj_next;
            }
            obase[bf->state_at - 1] = (char)TYJSON_STATE_SET;
        }
        op = bf->vop;
        goto dispatch;
    default:
        p = leaf(d, bf, mem, p);
        break;
    }
    if (unlikely(!p)) BAIL(0);
    goto obj_next;

repeated_key: /* bf's key again (p after the colon): skipped, or an error */
    if (d->dup_error || (otp->tflags & TYJSON_T_DUPLICATE_ERROR)) BAIL(duplicate(d, okey));
    p = ws(d, p);
    p = skip_value(d, p);
    if (!p) BAIL(0);

obj_next: /* after a member of the innermost object */
    if (likely(end - p > 17)) {
        /* `,"` then the expected key: the common case in one compare */
        u32 h = tyjson__num_le16((const char *)p);
        if (likely(h == (u32)(',' | '"' << 8))) {
            p++;
            okey = p + 1;
            bf = pred;
            goto key_literal;
        }
        if (h == (u32)(',' | '\n' << 8)) { /* pretty: `,` newline indentation `"` */
            const u8 *q = tyjson__skip_indent(p + 1, end);
            if (likely(*q == '"' && end - q > 16)) {
                p = q;
                okey = p + 1;
                bf = pred;
                goto key_literal;
            }
        }
    }
    if (likely(p < end && *p == ',')) {
        p++;
        if (likely(p < end && *p == '"')) goto obj_member;
    } else {
        p = ws(d, p);
        if (likely(p < end && *p == '}')) goto obj_close;
        if (p >= end || *p != ',') BAIL(fail_expect(d, p, MSG_OBJ_NEXT));
        p++;
    }
    okey = NULL; /* past the separator: an error here is the object's, not the last key's */
    p = ws(d, p);
    if (likely(p < end && *p == '"')) goto obj_member;
    if (d->trailing && p < end && *p == '}') goto obj_close;
    BAIL(fail_expect(d, p, MSG_KEY));

obj_close: /* p at the innermost object's '}' */
    if (otp->any_required) {
        if (!otp->wide) f->seen1 = run_seen(otp, f, pred);
        if (!missing(d, f, p)) return NULL;
    }
    f->rev = orev; /* a hint for the next object in this slot */
    p++;
    d->sp--;

resume: /* a value ended at p; continue in the enclosing container */
    if (unlikely(d->sp == 0)) return p;
    f = &d->stk[d->sp - 1];
    if (f->type == FR_OBJ) {
        otp = f->prep;
        obase = f->base;
        pred = f->pred;
        orev = f->rev;
        okey = f->key;
        if (likely(p < end && *p == '}')) goto obj_close;
        goto obj_next;
    }
    goto arr_next;

open_nested: /* STRUCT or PTR (member or element) bf at p into mem */
    if (unlikely(*p <= ' ' || *p == '/')) {
        p = ws(d, p);
        if (p >= end) BAIL(fail(d, TYJSON_E_TRUNCATED, p, MSG_VALUE));
    }
    if (*p == 'n') {
        if (bf->kind == TYJSON_K_PTR) {
            p = literal(d, p, "null", 4);
            if (!p) BAIL(0);
            memset(mem, 0, sizeof(void *));
            goto resume;
        }
        p = leaf_null(d, bf, mem, p);
        if (!p) BAIL(0);
        goto resume;
    }
    tp = sub_prep(d, bf, p);
    if (!tp) BAIL(0);
    if (bf->kind == TYJSON_K_PTR) {
        if (*p != ((tp->tflags & TYJSON_T_ARRAY) ? '[' : '{'))
            BAIL(mismatch(d, (tp->tflags & TYJSON_T_ARRAY) ? EXP_ARRAY : EXP_OBJ, p));
        char *obj = (char *)tyjson__arena_bump(d->arena, tp->size, align_of_size(tp->size));
        if (!obj) BAIL(fail(d, TYJSON_E_NOMEM, p, MSG_NOMEM));
        memcpy(mem, &obj, sizeof(obj));
        mem = obj;
        fresh = false;
    }
    goto open_type;

open_array: /* array field bf of the struct owner; p at its value */
    if (unlikely(*p <= ' ' || *p == '/')) {
        p = ws(d, p);
        if (p >= end) BAIL(fail(d, TYJSON_E_TRUNCATED, p, MSG_VALUE));
    }
    if (*p != '[') {
        if (*p == 'n' && (bf->flags & TYJSON_F_NULLABLE)) {
            p = literal(d, p, "null", 4);
            if (!p) BAIL(0);
            usize zero = 0;
            if (bf->f->count_at) memcpy(owner + bf->f->count_at - 1, &zero, sizeof(zero));
            if (bf->shape == TYJSON_SHAPE_DYN) memset(owner + bf->offset, 0, sizeof(void *));
            else memset(owner + bf->offset, 0, bf->size * bf->f->capacity);
            goto resume;
        }
        BAIL(mismatch(d, EXP_ARRAY, p));
    }
    f = push(d, p);
    if (!f) BAIL(0);
    f->hint = f->bf == bf ? (u32)(f->n < UINT32_MAX ? f->n : UINT32_MAX) : 0;
    f->type = FR_ARR;
    f->bf = bf;
    f->owner = owner;
    f->n = 0;
    if (bf->shape == TYJSON_SHAPE_FIXED) {
        f->base = owner + bf->offset;
        f->cap = bf->f->capacity;
        memset(f->base, 0, f->cap * bf->size);
    } else {
        f->base = NULL;
        f->cap = 0;
    }
    p = ws(d, p + 1);
    if (p < end && *p == ']') goto arr_close;

arr_elem: /* p at an element of the top array */
    if (unlikely(p >= end)) {
        f->n++; /* the path names the element that is missing */
        BAIL(fail(d, TYJSON_E_TRUNCATED, p, MSG_VALUE));
    }
    bf = f->bf;
    if (unlikely(f->n == f->cap)) {
        if (bf->shape == TYJSON_SHAPE_FIXED) {
            f->n++; /* the path names the element that does not fit */
            BAIL(fail(d, TYJSON_E_SIZE, p, MSG_FIXED));
        }
        if (!arr_grow(d, f, p)) BAIL(0);
    }
    mem = f->base + f->n * bf->size;
    f->n++;
    if (bf->eop == TYJSON__OP_NESTED) {
        fresh = true; /* new array room is zeroed */
        /* an array of structs: straight to the object */
        if (likely(*p == '{') && bf->kind != TYJSON_K_PTR) {
            tp = sub_prep(d, bf, p);
            if (!tp) BAIL(0);
            if (likely(!(tp->tflags & TYJSON_T_ARRAY))) goto open_object;
        }
        goto open_nested;
    }
    LEAF_SWITCH(bf->eop)
    if (unlikely(!p)) BAIL(0);

arr_next: /* after an element of the top array */
    if (likely(p < end && *p == ',')) {
        p++;
        if (likely(p < end && *p > ' ' && *p != '/' && *p != ']')) goto arr_elem;
        p = ws(d, p);
        if (d->trailing && p < end && *p == ']') goto arr_close;
        goto arr_elem;
    }
    p = ws(d, p);
    if (likely(p < end && *p == ']')) goto arr_close;
    if (p < end && *p == ',') goto arr_next;
    BAIL(fail_expect(d, p, MSG_ARR_NEXT));

arr_close: /* p at the top array's ']' */
    arr_finish(d, f);
    p++;
    d->sp--;
    goto resume;
}

#undef SYNC
#undef BAIL
#undef SAVE_OBJ

/* ----------------------------------------------------------------------------
 * Error path: `$.photos[17].author.age`, `$["odd key"]`
 * ------------------------------------------------------------------------- */
typedef struct pathbuf {
    char *s;
    usize n, cap;
} pathbuf;

static void pb_put(pathbuf *b, const char *s, usize n) {
    if (b->n >= b->cap - 1) return;
    usize room = b->cap - 1 - b->n;
    if (n > room) n = room;
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = 0;
}

static bool is_ident(const u8 *k, usize n) {
    if (n == 0) return false;
    for (usize i = 0; i < n; i++) {
        u8 c = k[i];
        bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
        if (!alpha && !(i && c >= '0' && c <= '9')) return false;
    }
    return true;
}

static void pb_key(pathbuf *b, const u8 *k, usize n, bool raw_escaped) {
    if (!raw_escaped && is_ident(k, n)) {
        pb_put(b, ".", 1);
        pb_put(b, (const char *)k, n);
        return;
    }
    pb_put(b, "[\"", 2);
    if (raw_escaped) {
        pb_put(b, (const char *)k, n);
    } else {
        for (usize i = 0; i < n; i++) {
            u8 c = k[i];
            char esc[8];
            if (c == '"' || c == '\\') {
                esc[0] = '\\';
                esc[1] = (char)c;
                pb_put(b, esc, 2);
            } else if (c < 0x20) {
                snprintf(esc, sizeof(esc), "\\u%04x", c);
                pb_put(b, esc, 6);
            } else {
                pb_put(b, (const char *)&c, 1);
            }
        }
    }
    pb_put(b, "\"]", 2);
}

/* A key as it stands in the input from k (just after its quote): its raw
 * length up to the closing quote, and whether it holds escapes. */
static usize raw_key_len(const dec *d, const u8 *k, bool *esc) {
    const u8 *q = k;
    *esc = false;
    while (q < d->end && *q != '"') {
        if (*q == '\\') {
            *esc = true;
            q++;
        }
        if (q < d->end) q++;
    }
    return (usize)(q - k);
}

static void build_path(const dec *d, char *out, usize cap) {
    pathbuf b;
    b.s = out;
    b.n = 0;
    b.cap = cap;
    out[0] = 0;
    pb_put(&b, "$", 1);
    for (u32 i = 0; i < d->sp; i++) {
        const frame *f = &d->stk[i];
        if (f->type == FR_OBJ) {
            if (!f->key) continue;
            if (f->key_len == KEY_IN_INPUT) {
                bool esc;
                usize n = raw_key_len(d, f->key, &esc);
                pb_key(&b, f->key, n, esc);
            } else {
                pb_key(&b, f->key, f->key_len, false);
            }
        } else if (f->n) {
            char num[32];
            int k = snprintf(num, sizeof(num), "[%zu]", f->n - 1);
            pb_put(&b, num, (usize)k);
        }
    }
}

/* ----------------------------------------------------------------------------
 * Entry point
 * ------------------------------------------------------------------------- */
TYJSON__FIRST_USE
tyjson_status tyjson_decode(tyjson_struct *type, void *out, const char *json, usize len,
                            tyjson_arena *arena, const tyjson_decode_options *opts,
                            tyjson_error *err) {
    const char *bad_arg = !type ? "type is NULL" : !out ? "out is NULL"
                          : !arena ? "arena is NULL"
                          : (!json && len) ? "json is NULL with a non-zero length"
                          : (opts && (opts->read_flags & ~KNOWN_READ_FLAGS))
                              ? "unknown bits in read_flags" : NULL;
    if (bad_arg) {
        if (type && out) memset(out, 0, type->size);
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        tyjson__err_msg(err, bad_arg);
        return TYJSON_E_INVALID_ARG;
    }
    tyjson_error local;
    tyjson__bind_prep *prep = tyjson__struct_prep(type, err ? err : &local);
    if (!prep) {
        memset(out, 0, type->size);
        return err ? err->code : local.code;
    }
    if (!json) json = "";
    dec d;
    d.start = (const u8 *)json;
    d.end = d.start + len;
    d.arena = arena;
    d.stk = d.inl;
    d.sp = 0;
    d.cap = INL_FRAMES;
    d.hwm = 0;
    tyjson_decode_flags flags = opts ? opts->flags : 0;
    d.rflags = opts ? opts->read_flags : 0;
    if (d.rflags & TYJSON_READ_STOP_WHEN_DONE) flags |= TYJSON_DECODE_STOP_WHEN_DONE;
    d.dup_error = (d.rflags & TYJSON_READ_REJECT_DUPLICATE_KEYS) != 0;
    d.max_depth = (opts && opts->max_depth) ? opts->max_depth : TYJSON_DEFAULT_MAX_DEPTH;
    d.allow_invalid = (d.rflags & TYJSON_READ_ALLOW_INVALID_UTF8) != 0;
    d.borrow = (flags & TYJSON_DECODE_BORROW) != 0;
    d.unknown_error = (flags & TYJSON_DECODE_UNKNOWN_ERROR) != 0;
    d.trailing = (d.rflags & TYJSON_READ_ALLOW_TRAILING_COMMAS) != 0;
    d.inf_nan = (d.rflags & TYJSON_READ_ALLOW_INF_NAN) != 0;
    d.comments = (d.rflags & TYJSON_READ_ALLOW_COMMENTS) != 0;
    d.code = TYJSON_OK;
    d.epos = d.start;
    d.msg = NULL;
    d.pending = TYJSON_OK;
    d.pending_pos = NULL;
    if ((d.rflags & TYJSON_READ_ALLOW_BOM) && len >= 3 && memcmp(json, "\xEF\xBB\xBF", 3) == 0)
        d.start += 3;

    const u8 *p = run(&d, prep, (char *)out);
    if (p) {
        p = ws(&d, p);
        if (d.pending != TYJSON_OK) {
            p = fail(&d, d.pending, d.pending_pos, NULL);
        } else if (p < d.end && !(flags & TYJSON_DECODE_STOP_WHEN_DONE)) {
            d.sp = 0;
            p = fail(&d, TYJSON_E_TRAILING, p, MSG_TRAILING);
        }
    }
    if (!p) {
        memset(out, 0, type->size);
        const u8 *base = (const u8 *)json;
        const u8 *pos = d.epos ? d.epos : base;
        if (pos < base) pos = base;
        if (pos > d.end) pos = d.end;
        tyjson__err_set(err, d.code, json, len, (usize)(pos - base));
        if (err) {
            if (d.msg) tyjson__err_msg(err, d.msg);
            build_path(&d, err->path, sizeof(err->path));
        }
        if (opts && opts->read_size) *opts->read_size = 0;
        return d.code;
    }
    if (opts && opts->read_size) *opts->read_size = (usize)(p - (const u8 *)json);
    tyjson__err_ok(err);
    return TYJSON_OK;
}
