/*
 * decode_msg.c - the binding decoder's messages and error recording.
 *
 * Cold code only: nothing here runs while a decode succeeds. Messages are
 * static strings (a table per expected/found pair, one per range), or built
 * into the decoder's note for enum names, dates and codecs. Only the first
 * error of a decode is kept; the JSON path is rebuilt from the frame stack
 * once the decode has failed.
 */
#include "bind/decode.h"

/* ----------------------------------------------------------------------------
 * Messages: static strings, chosen per (expected, found) pair.
 * ------------------------------------------------------------------------- */
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
    ROW("a number or a string holding one for decimal field")
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

int tyjson__dec_exp_of_kind(u8 kind) {
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
    case TYJSON_K_DECIMAL: return EXP_DECIMAL;
    default: return EXP_STR;
    }
}

/* ----------------------------------------------------------------------------
 * Recording an error
 * ------------------------------------------------------------------------- */
TYJSON__NOINLINE const u8 *tyjson__dec_fail(dec *d, tyjson_status code, const u8 *pos,
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
TYJSON__NOINLINE const u8 *tyjson__dec_fail_note(dec *d, tyjson_status code, const u8 *pos,
                                            const char *fallback, const char *text,
                                            usize n) {
    if (d->code != TYJSON_OK) return tyjson__dec_fail(d, code, pos, fallback);
    if (n >= sizeof(d->note)) n = sizeof(d->note) - 1;
    memcpy(d->note, text, n);
    d->note[n] = 0;
    return tyjson__dec_fail(d, code, pos, d->note);
}

/* Something else was expected at p: end of input or a wrong byte. */
TYJSON__NOINLINE const u8 *tyjson__dec_fail_expect(dec *d, const u8 *p, const char *msg) {
    return tyjson__dec_fail(d, p >= d->end ? TYJSON_E_TRUNCATED : TYJSON_E_UNEXPECTED_CHAR, p, msg);
}

/* Reports that the value at p does not fit the expected category: a type
 * error naming what was found, unless the value is malformed (then that). */
TYJSON__NOINLINE const u8 *tyjson__dec_mismatch(dec *d, int exp, const u8 *p) {
    const u8 *end = d->end;
    if (p >= end) return tyjson__dec_fail(d, TYJSON_E_TRUNCATED, p, MSG_VALUE);
    int found;
    switch (*p) {
    case '"': found = FOUND_STR; break;
    case '{': found = FOUND_OBJ; break;
    case '[': found = FOUND_ARR; break;
    case 't':
        if (!tyjson__dec_literal(d, p, "true", 4)) return NULL;
        found = FOUND_BOOL;
        break;
    case 'f':
        if (!tyjson__dec_literal(d, p, "false", 5)) return NULL;
        found = FOUND_BOOL;
        break;
    case 'n':
        if (!tyjson__dec_literal(d, p, "null", 4)) return NULL;
        found = FOUND_NULL;
        break;
    default:
        if (is_inf_nan_start(d, p)) {
            double v;
            if (!tyjson__dec_inf_nan_word(d, p, &v)) return tyjson__dec_bad_inf_nan(d, p);
            found = FOUND_REAL;
        } else if (*p == '-' || (*p >= '0' && *p <= '9')) {
            tyjson__num num;
            tyjson_status st;
            const u8 *ep;
            if (!tyjson__num_read(p, end, TYJSON_READ_BIGNUM_AS_RAW, &num, &st, &ep))
                return tyjson__dec_fail(d, st, ep, NULL);
            found = num.kind == TYJSON__NUM_REAL ? FOUND_REAL
                    : num.kind == TYJSON__NUM_RAW ? FOUND_NUM : FOUND_INT;
        } else {
            return tyjson__dec_fail(d, TYJSON_E_UNEXPECTED_CHAR, p, MSG_VALUE);
        }
    }
    return tyjson__dec_fail(d, TYJSON_E_TYPE, p, type_msgs[exp][found]);
}

/* An integer (or real) beyond the range of a member of the given kind. */
TYJSON__NOINLINE const u8 *tyjson__dec_range_error(dec *d, u8 kind, const u8 *p) {
    return tyjson__dec_fail(d, TYJSON_E_NUMBER_RANGE, p, range_msgs[kind - TYJSON_K_I8]);
}

TYJSON__NOINLINE const u8 *tyjson__dec_type_error(dec *d, u8 kind, int found, const u8 *p) {
    return tyjson__dec_fail(d, TYJSON_E_TYPE, p,
                            type_msgs[tyjson__dec_exp_of_kind(kind)][found]);
}

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

static void pb_put_any(void *b, const char *s, usize n) { pb_put((pathbuf *)b, s, n); }

static void pb_key(pathbuf *b, const u8 *k, usize n, bool raw_escaped) {
    if (!raw_escaped) {
        tyjson__path_key(k, n, pb_put_any, b);
        return;
    }
    /* the key's own escapes, as they stand in the input */
    pb_put(b, "[\"", 2);
    pb_put(b, (const char *)k, n);
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

void tyjson__dec_build_path(const dec *d, char *out, usize cap) {
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
