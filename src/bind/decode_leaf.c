/*
 * decode_leaf.c - leaf values of the binding decoder: every kind that needs
 * no frame, through tyjson__dec_leaf(), and the cold paths of the inline number
 * readers in decode.h.
 *
 * The state machine decodes strings, int32/int64, bools, floats and doubles
 * inline (decode.h) and comes here for the rest: char[N], enums, dates and
 * epochs, free-form values (VALUE, RAW, CUSTOM, through skip_value and the
 * DOM parser), null, and any value whose first byte fails the inline test.
 * Each writes the member at mem and returns the position after the value,
 * or NULL after recording an error.
 */
#include "bind/decode.h"

/* ----------------------------------------------------------------------------
 * Numbers: the cold paths of the inline readers in decode.h
 * ------------------------------------------------------------------------- */
/* The end of the integer at p (an optional '-' and digits) if the number
 * there has no fraction or exponent, else NULL. */
static const u8 *integer_end(const u8 *p, const u8 *end) {
    if (p < end && *p == '-') p++;
    while (p < end && *p >= '0' && *p <= '9') p++;
    if (p < end && (*p == '.' || *p == 'e' || *p == 'E')) return NULL;
    return p;
}

TYJSON__NOINLINE const u8 *tyjson__dec_int_fail(dec *d, const tyjson__bind_field *bf, const u8 *p,
                                           tyjson_status st, const u8 *ep) {
    if (is_inf_nan_start(d, p))
        return tyjson__dec_mismatch(d, tyjson__dec_exp_of_kind(bf->kind), p);
    if (st == TYJSON_E_NUMBER_RANGE) {
        /* a huge real is the wrong type; a huge integer is out of range */
        if (!integer_end(p, d->end))
            return tyjson__dec_type_error(d, bf->kind, FOUND_REAL, p);
        return tyjson__dec_range_error(d, bf->kind, p);
    }
    return tyjson__dec_fail(d, st, ep, NULL);
}

/* An integer beyond the 64-bit range for a float or double member: read
 * again as a real (the same digits with "e0" appended) so that it rounds
 * like any other decimal. */
TYJSON__NOINLINE const u8 *tyjson__dec_big_integer_real(dec *d, const tyjson__bind_field *bf,
                                                   const u8 *p, double *v) {
    const u8 *ie = integer_end(p, d->end);
    if (!ie) return tyjson__dec_range_error(d, bf->kind, p); /* a real too large for a double */
    usize n = (usize)(ie - p);
    u8 small[128];
    u8 *buf = small;
    if (n + 2 > sizeof(small)) {
        buf = (u8 *)tyjson__arena_bump(d->arena, n + 2, 1);
        if (!buf) return tyjson__dec_fail(d, TYJSON_E_NOMEM, p, MSG_NOMEM);
    }
    memcpy(buf, p, n);
    buf[n] = 'e';
    buf[n + 1] = '0';
    tyjson__num num;
    tyjson_status st;
    const u8 *ep;
    if (!tyjson__num_read(buf, buf + n + 2, 0, &num, &st, &ep) || num.kind != TYJSON__NUM_REAL)
        return tyjson__dec_range_error(d, bf->kind, p);
    *v = num.v.f;
    return ie;
}

static const u8 *leaf_int(dec *d, const tyjson__bind_field *bf, char *mem, const u8 *p) {
    return leaf_int_k(d, bf, mem, p, bf->kind, false);
}

static const u8 *leaf_real(dec *d, const tyjson__bind_field *bf, char *mem, const u8 *p) {
    return leaf_real_k(d, bf, mem, p, bf->kind, false);
}

/* ----------------------------------------------------------------------------
 * Strings, enums, dates, free-form values, null
 * ------------------------------------------------------------------------- */
static const u8 *leaf_chars(dec *d, const tyjson__bind_field *bf, char *mem, const u8 *p) {
    u8 buf[SCRATCH];
    const u8 *s = NULL;
    usize n = 0;
    const u8 *q = tyjson__dec_str_bytes(d, p, buf, &s, &n);
    if (!q) return NULL;
    if (n >= bf->size) return tyjson__dec_fail(d, TYJSON_E_SIZE, p, MSG_CHARS);
    if (memchr(s, 0, n)) return tyjson__dec_fail(d, TYJSON_E_TYPE, p, MSG_NUL);
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
    return tyjson__dec_fail_note(d, TYJSON_E_ENUM, p, MSG_ENUM, buf, k);
}

static const u8 *leaf_enum(dec *d, const tyjson__bind_field *bf, char *mem, const u8 *p) {
    u8 buf[SCRATCH];
    const u8 *s = NULL;
    usize n = 0;
    const u8 *q = tyjson__dec_str_bytes(d, p, buf, &s, &n);
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
    if (!tyjson__dec_str_close(d, p + 1, &esc)) return NULL;
    char buf[160];
    usize k = 0;
    tyjson__note_text(buf, sizeof(buf), &k, datetime ? "invalid date-time: " : "invalid date: ");
    usize w = tyjson__date_explain((const char *)s, n, datetime, buf + k, sizeof(buf) - k);
    if (!w) return tyjson__dec_fail(d, TYJSON_E_DATE, p, msg);
    return tyjson__dec_fail_note(d, TYJSON_E_DATE, p, msg, buf, k + w);
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
        r = tyjson__str_scan_plain(s, d->end, opt_allow_invalid(d));
    }
    if (likely(r.err == TYJSON_OK && *r.stop == '"')) {
        n = (usize)(r.stop - s);
        q = r.stop + 1;
    } else {
        q = tyjson__dec_str_bytes(d, p, buf, &s, &n);
        if (!q) return NULL;
    }
    if (bf->kind == TYJSON_K_DATE) {
        tyjson_date v;
        if (!tyjson_date_parse((const char *)s, n, &v))
            return bad_date(d, p, MSG_DATE, s, n, false);
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
            return tyjson__dec_fail(d, TYJSON_E_DATE, p, MSG_EPOCH_YEARS);
        v = sec * 1000 + (int64_t)(dt.nanosecond / 1000000u);
    } else if (!tyjson_datetime_to_epoch_ns(&dt, &v)) {
        return tyjson__dec_fail(d, TYJSON_E_DATE, p, MSG_EPOCH_RANGE);
    }
    memcpy(mem, &v, sizeof(v));
    return q;
}

/* The common date shapes need no scan: the date parsers take only digits
 * and punctuation, so a quote at that width closes the string. */
const u8 *tyjson__dec_date_op(dec *d, const tyjson__bind_field *bf, char *mem, const u8 *p) {
    tyjson_date v;
    if (likely(*p == '"' && d->lim - p > 11 && p[11] == '"' &&
               tyjson__date10_parse((const char *)p + 1, &v))) {
        memcpy(mem, &v, sizeof(v));
        return p + 12;
    }
    return tyjson__dec_leaf(d, bf, mem, p);
}

/* `"YYYY-MM-DDTHH:MM:SSZ"` for an EPOCH_MS member, the same way: a UTC
 * second of years 0-9999, in range with or without EPOCH_NUMBER. */
const u8 *tyjson__dec_epoch_ms_op(dec *d, const tyjson__bind_field *bf, char *mem,
                                  const u8 *p) {
    int64_t sec;
    if (likely(*p == '"' && d->lim - p > 21 && p[21] == '"' &&
               tyjson__utc20_parse((const char *)p + 1, &sec))) {
        int64_t v = sec * 1000;
        memcpy(mem, &v, sizeof(v));
        return p + 22;
    }
    return tyjson__dec_leaf(d, bf, mem, p);
}

static const u8 *leaf_epoch_num(dec *d, const tyjson__bind_field *bf, char *mem, const u8 *p) {
    tyjson__num num;
    tyjson_status st;
    const u8 *ep;
    const u8 *q = tyjson__num_read(p, d->end, 0, &num, &st, &ep);
    if (!q) {
        if (st == TYJSON_E_NUMBER_RANGE)
            return tyjson__dec_range_error(d, TYJSON_K_I64, p);
        return tyjson__dec_fail(d, st, ep, NULL);
    }
    int64_t v;
    if (num.kind == TYJSON__NUM_UINT) {
        if (num.v.u > INT64_MAX)
            return tyjson__dec_range_error(d, TYJSON_K_I64, p);
        v = (int64_t)num.v.u;
    } else if (num.kind == TYJSON__NUM_SINT) {
        v = num.v.i;
    } else if (q - p == 2 && num.v.f == 0) {
        v = 0;
    } else {
        return tyjson__dec_type_error(d, bf->kind, FOUND_REAL, p);
    }
    /* Without EPOCH_NUMBER the encoder writes a UTC date-time string of
     * years 0000-9999: milliseconds beyond those are refused here. (Every
     * int64 of nanoseconds lies within them.) */
    if (bf->kind == TYJSON_K_EPOCH_MS && !(bf->flags & TYJSON_F_EPOCH_NUMBER) &&
        (v < TYJSON__EPOCH_MIN_SEC * 1000 || v >= TYJSON__EPOCH_END_SEC * 1000))
        return tyjson__dec_fail(d, TYJSON_E_NUMBER_RANGE, p, MSG_EPOCH_MS_RANGE);
    memcpy(mem, &v, sizeof(v));
    return q;
}

/* DECIMAL from a number, digit for digit (the number core's grammar and
 * errors), or from a string whose whole content is one JSON number. */
static const u8 *leaf_decimal(dec *d, char *mem, const u8 *p) {
    tyjson_decimal v;
    memset(&v, 0, sizeof(v)); /* the padding too: members compare by bytes */
    tyjson_status st;
    const u8 *ep;
    if (*p != '"') {
        const u8 *q = tyjson__decimal_read(p, d->end, &v.coef, &v.scale, &st, &ep);
        if (!q) {
            if (st == TYJSON_E_NUMBER_RANGE)
                return tyjson__dec_fail(d, st, p, MSG_DECIMAL_RANGE);
            return tyjson__dec_fail(d, st, ep, NULL);
        }
        memcpy(mem, &v, sizeof(v));
        return q;
    }
    u8 buf[SCRATCH];
    const u8 *s = p + 1;
    usize n = 0;
    tyjson__str_scan r = tyjson__str_scan_plain(s, d->end, opt_allow_invalid(d));
    const u8 *q;
    if (likely(r.err == TYJSON_OK && *r.stop == '"')) {
        n = (usize)(r.stop - s);
        q = r.stop + 1;
    } else {
        q = tyjson__dec_str_bytes(d, p, buf, &s, &n);
        if (!q) return NULL;
    }
    const u8 *e = n && (*s == '-' || (*s >= '0' && *s <= '9'))
                      ? tyjson__decimal_read(s, s + n, &v.coef, &v.scale, &st, &ep)
                      : NULL;
    if (e != s + n) {
        if (e == NULL && n && st == TYJSON_E_NUMBER_RANGE)
            return tyjson__dec_fail(d, TYJSON_E_NUMBER_RANGE, p, MSG_DECIMAL_RANGE);
        return tyjson__dec_fail(d, TYJSON_E_NUMBER, p, MSG_DECIMAL_STR);
    }
    memcpy(mem, &v, sizeof(v));
    return q;
}

/* VALUE and CUSTOM: the value's span through the DOM parser, in the arena. */
static const u8 *leaf_dom(dec *d, const tyjson__bind_field *bf, char *mem, const u8 *p) {
    const u8 *q = tyjson__dec_skip_value(d, p);
    if (!q) return NULL;
    tyjson_alloc alc = tyjson_arena_allocator(d->arena);
    tyjson_read_options o;
    /* the syntax relaxations, and what the value itself is made of: big
     * numbers (or every number) as raw text, duplicate keys refused (as by
     * the type flag) */
    o.flags = d->rflags & (TYJSON_READ_ALLOW_COMMENTS | TYJSON_READ_ALLOW_TRAILING_COMMAS |
                           TYJSON_READ_ALLOW_INF_NAN | TYJSON_READ_ALLOW_INVALID_UTF8 |
                           TYJSON_READ_BIGNUM_AS_RAW | TYJSON_READ_NUMBER_AS_RAW |
                           TYJSON_READ_REJECT_DUPLICATE_KEYS);
    o.max_depth = d->max_depth;
    o.alc = &alc;
    tyjson_error e;
    tyjson_doc *doc = tyjson_read_opts((const char *)p, (usize)(q - p), &o, &e);
    if (!doc)
        return tyjson__dec_fail(d, e.code, p + (e.offset <= (usize)(q - p) ? e.offset : 0), NULL);
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
        return tyjson__dec_fail(d, st, p, why);
    }
    return q;
}

static const u8 *leaf_raw(dec *d, char *mem, const u8 *p) {
    const u8 *q = tyjson__dec_skip_value(d, p);
    if (!q) return NULL;
    tyjson_str s;
    s.len = (usize)(q - p);
    if (opt_borrow(d)) {
        s.ptr = (const char *)in_caller(d, p);
    } else {
        char *b = (char *)tyjson__arena_bump(d->arena, s.len + 1, 1);
        if (!b) return tyjson__dec_fail(d, TYJSON_E_NOMEM, p, MSG_NOMEM);
        memcpy(b, p, s.len);
        b[s.len] = 0;
        s.ptr = b;
    }
    memcpy(mem, &s, sizeof(s));
    return q;
}

TYJSON__NOINLINE const u8 *tyjson__dec_leaf_null(dec *d, const tyjson__bind_field *bf, char *mem,
                                            const u8 *p) {
    if (!(bf->flags & TYJSON_F_NULLABLE))
        return tyjson__dec_mismatch(d, tyjson__dec_exp_of_kind(bf->kind), p);
    const u8 *q = tyjson__dec_literal(d, p, "null", 4);
    if (!q) return NULL;
    memset(mem, 0, bf->size);
    if (bf->f->has_default) put_default(bf, mem);
    return q;
}

/* One value of a kind that needs no frame (p < end), after any
 * whitespace. */
const u8 *tyjson__dec_leaf(dec *d, const tyjson__bind_field *bf, char *mem, const u8 *p) {
    if (unlikely(*p <= ' ' || *p == '/')) {
        p = ws(d, p);
        if (p >= d->end) return tyjson__dec_fail(d, TYJSON_E_TRUNCATED, p, MSG_VALUE);
    }
    u8 c = *p;
    switch (bf->kind) {
    case TYJSON_K_BOOL:
        if (c == 't' || c == 'f') {
            bool b = c == 't';
            const u8 *q = b ? tyjson__dec_literal(d, p, "true", 4)
                            : tyjson__dec_literal(d, p, "false", 5);
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
        if (c == '"') return leaf_str(d, bf, mem, p, false);
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
    case TYJSON_K_DECIMAL:
        if (c == '"' || c == '-' || (c >= '0' && c <= '9')) {
            if (c == '-' && is_inf_nan_start(d, p)) break;
            return leaf_decimal(d, mem, p);
        }
        break;
    default:
        break;
    }
    if (c == 'n') return tyjson__dec_leaf_null(d, bf, mem, p);
    return tyjson__dec_mismatch(d, tyjson__dec_exp_of_kind(bf->kind), p);
}
