/*
 * bind_encode.c - C structs straight to JSON text (include/tyjson/bind.h):
 * no DOM in between. Each field costs one copy of its prepared `"key":`
 * literal (src/bind/bind.h) and the value's bytes, written through the output
 * core (wbuf.h), the string escaper (str_write.h) and the number writers
 * (num.h) that the DOM writer uses, so both agree byte for byte: the same
 * escaping, shortest doubles with ".0" for integral ones, floats as floats
 * (3.67f -> "3.67"), and the same pretty layout.
 *
 * The walk recurses once per nested struct or array for the first DEEP_AT
 * levels, then continues with an explicit stack of frames (put_deep), so
 * the C stack it needs is bounded; nesting stops at TYJSON_DEFAULT_MAX_DEPTH
 * (a struct that points to itself through a PTR member ends with
 * TYJSON_E_DEPTH). On an error each level prepends its key or index to the
 * error path (`$.photos[17].rating`) as it unwinds, so the success path pays
 * nothing for paths.
 *
 * Cursor discipline: every piece takes the cursor `d`, makes its own room
 * (one compare in the common case) and returns the new cursor, or NULL
 * with the wbuf's sticky status set.
 */
#include "bind/bind.h"
#include "num/num.h"
#include "num/num_inline.h"
#include "write/str_write.h"
#include "write/wbuf.h"

#include <inttypes.h>

/* Room for any number, NaN/Infinity, true/false/null, and a separator. */
#define SCALAR_ROOM (TYJSON__NUM_MAX_CHARS + TYJSON__STR_SLACK)
/* Scratch chunk of the chunked sinks (FIXED overflow, FP, CB). */
#define CHUNK TYJSON__WBUF_CHUNK
/* The heap sinks use the scratch only after an error. */
#define HEAP_TMP TYJSON__WBUF_RESERVE_MAX
/* Bytes of a date-time in ISO form, with room to spare. */
#define DT_MAX 40

/* ----------------------------------------------------------------------------
 * MARK: - Member loads
 *
 * Members are read with memcpy, never through a typed pointer: a packed
 * struct puts them at any offset, and a misaligned typed load is undefined
 * (it traps on some CPUs). With a constant size memcpy is one plain load.
 * ------------------------------------------------------------------------- */
TYJSON__FORCEINLINE int16_t load_i16(const char *m) { int16_t v; memcpy(&v, m, 2); return v; }
TYJSON__FORCEINLINE int32_t load_i32(const char *m) { int32_t v; memcpy(&v, m, 4); return v; }
TYJSON__FORCEINLINE int64_t load_i64(const char *m) { int64_t v; memcpy(&v, m, 8); return v; }
TYJSON__FORCEINLINE float load_f32(const char *m) { float v; memcpy(&v, m, 4); return v; }
TYJSON__FORCEINLINE double load_f64(const char *m) { double v; memcpy(&v, m, 8); return v; }
TYJSON__FORCEINLINE usize load_size(const char *m) { usize v; memcpy(&v, m, sizeof(v)); return v; }
TYJSON__FORCEINLINE const void *load_ptr(const char *m) {
    const void *v;
    memcpy(&v, m, sizeof(v));
    return v;
}
TYJSON__FORCEINLINE tyjson_str load_str(const char *m) {
    tyjson_str v;
    memcpy(&v, m, sizeof(v));
    return v;
}

/* The small members side by side: set up together, their stores merge
 * (a small encode spends a good part of its time setting up). */
typedef struct enc {
    tyjson__wbuf *wb;
    const tyjson_alloc *alc; /* the options' allocator (free-form values) */
    tyjson_write_flags flags;
    u32 depth;        /* open structs and arrays */
    bool lits_ok;     /* the prepared key literals hold under these flags */
    bool slash;       /* TYJSON_WRITE_ESCAPE_SLASH */
    bool value_err;   /* the failure is about a member: report a path */
    bool path_cut;    /* segments were dropped for lack of room */
    u32 path_pos;     /* path[path_pos, PATH_MAX) holds the segments so far */
    usize indent;     /* spaces per level (pretty) */
    usize ind;        /* current indentation (pretty) */
    char path[TYJSON_ERROR_PATH_MAX];
    char note[TYJSON_ERROR_MSG_MAX]; /* a message built for the error, or "" */
} enc;

/* ----------------------------------------------------------------------------
 * MARK: - Errors and paths
 * ------------------------------------------------------------------------- */

/* A problem with the member being written (not with the sink). */
static TYJSON__NOINLINE char *fail(enc *e, tyjson_status st) {
    if (e->wb->status == TYJSON_OK) e->value_err = true;
    tyjson__wbuf_fail(e->wb, st);
    return NULL;
}

/* After tyjson__str_write returned NULL: it failed on invalid UTF-8. */
static TYJSON__NOINLINE char *str_failed(enc *e) {
    if (e->wb->status == TYJSON_E_UTF8) e->value_err = true;
    return NULL;
}

/* Prepends n bytes to the path being built from the inside out. */
static void path_prepend(enc *e, const char *s, usize n) {
    if (e->path_cut) return;
    /* keep room for the leading "$..." and the NUL */
    if (n + 5 > e->path_pos) {
        e->path_cut = true;
        return;
    }
    e->path_pos -= n;
    memcpy(e->path + e->path_pos, s, n);
}

static bool ident_like(const char *k) {
    if (!*k || (*k >= '0' && *k <= '9')) return false;
    for (; *k; k++) {
        char c = *k;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_'))
            return false;
    }
    return true;
}

/* `.key`, or `["key"]` for keys that are not identifiers. */
static TYJSON__NOINLINE void path_key(enc *e, const char *key) {
    if (!e->value_err) return;
    usize n = strlen(key);
    if (ident_like(key)) {
        path_prepend(e, key, n);
        path_prepend(e, ".", 1);
        return;
    }
    char tmp[TYJSON_ERROR_PATH_MAX];
    usize k = 0;
    tmp[k++] = '[';
    tmp[k++] = '"';
    for (usize i = 0; i < n && k + 4 < sizeof(tmp); i++) {
        if (key[i] == '"' || key[i] == '\\') tmp[k++] = '\\';
        tmp[k++] = key[i];
    }
    tmp[k++] = '"';
    tmp[k++] = ']';
    path_prepend(e, tmp, k);
}

static TYJSON__NOINLINE void path_index(enc *e, usize i) {
    if (!e->value_err) return;
    char tmp[TYJSON__NUM_MAX_CHARS + 2];
    tmp[0] = '[';
    char *p = tyjson__u64_write((u64)i, tmp + 1);
    *p++ = ']';
    path_prepend(e, tmp, (usize)(p - tmp));
}

/* Fills err with the final status and, for member errors, the path. */
static void report(enc *e, tyjson_status st, tyjson_error *err) {
    tyjson__err_set(err, st, NULL, 0, 0);
    if (!err || !e->value_err) return;
    if (e->note[0]) tyjson__err_msg(err, e->note);
    usize k = 0;
    err->path[k++] = '$';
    if (e->path_cut) {
        memcpy(err->path + k, "...", 3);
        k += 3;
    }
    usize n = sizeof(e->path) - e->path_pos;
    if (k + n >= TYJSON_ERROR_PATH_MAX) n = TYJSON_ERROR_PATH_MAX - 1 - k;
    memcpy(err->path + k, e->path + e->path_pos, n);
    err->path[k + n] = 0;
}

/* ----------------------------------------------------------------------------
 * MARK: - Pieces
 * ------------------------------------------------------------------------- */

TYJSON__FORCEINLINE char *room(tyjson__wbuf *wb, char *d, usize n) {
    if (likely((usize)(wb->end - d) >= n)) return d;
    return tyjson__wbuf_grow(wb, d, n);
}

/* Bytes as they are (key literals, raw JSON, codec output). */
TYJSON__FORCEINLINE char *put_bytes(tyjson__wbuf *wb, char *d, const char *s, usize n) {
    if (likely((usize)(wb->end - d) >= n)) {
        tyjson__wbuf_copy(d, s, n);
        return d + n;
    }
    return tyjson__wbuf_putn_slow(wb, d, s, n);
}

TYJSON__FORCEINLINE char *put_null(tyjson__wbuf *wb, char *d) {
    d = room(wb, d, 4);
    memcpy(d, "null", 4);
    return d + 4;
}

/* Newline and n spaces. */
static char *put_nl(tyjson__wbuf *wb, char *d, usize n) {
    if (likely(n < TYJSON__WBUF_RESERVE_MAX)) {
        d = room(wb, d, n + 1);
        *d++ = '\n';
        memset(d, ' ', n);
        return d + n;
    }
    d = room(wb, d, 1);
    *d++ = '\n';
    return tyjson__wbuf_fill(wb, d, ' ', n);
}

/* NaN, the infinities, and any real under a number option (FP_FIXED,
 * FP_TO_FLOAT): the shared rule, off the hot path of shortest output. */
static TYJSON__NOINLINE char *put_real_slow(enc *e, char *d, double f) {
    d = room(e->wb, d, SCALAR_ROOM);
    char *t = tyjson__real_write_flags(f, e->flags, d);
    return t ? t : fail(e, TYJSON_E_NAN_INF);
}

/*
 * Integral reals below 2^53 (2^24 for floats) take a short cut: their
 * shortest round-trip text is the integer's digits plus ".0" (neighbours
 * are at most 1 apart, so no shorter digit string reads back, and such
 * exponents are written in plain notation), which is exactly what
 * tyjson__f64_write produces, several times faster. Typical data (50.0,
 * 2.0e3 counts, whole prices) hits it. -0.0 goes to the core for its sign.
 * (A candidate for num_write.c itself, where the DOM writer would gain too.)
 */
#define F64_EXACT_INT 9007199254740992.0 /* 2^53 */
#define F32_EXACT_INT 16777216.0f        /* 2^24 */

TYJSON__FORCEINLINE char *put_int_real(char *d, i64 i) {
    d = tyjson__i64_write(i, d);
    d[0] = '.';
    d[1] = '0';
    return d + 2;
}

/*
 * Reals with at most SHORT_DECIMALS decimals (95.5, -68.438885, 0.25) take
 * a second short cut: their shortest round-trip text is r / 10^k for the
 * fewest decimals k at which an integer r reads back as v, and r is
 * round(|v| 10^k). Why that is exactly what tyjson__f64_write writes, for
 * 1e-6 <= |v| and |v| 10^k < 2^50 (plain notation there): the decimals
 * that read back as v span less than 1/4 at scale 10^k (an ulp of v times
 * 10^k is at most twice an ulp of |v| 10^k, which is at most 1/8), so at
 * most one integer lies among them, and it is within 3/16 of the computed
 * product (off by at most 1/16), so rounding finds it. The division
 * r / 10^k of two exact doubles is correctly rounded like reading the text,
 * so comparing it with v is the exact test; a cheap multiply-based filter
 * spares the division where r is not even close. Fewer decimals means fewer
 * digits (v is not an integer, so no shorter integer text reads back), the
 * last digit is not 0 (else k - 1 would have matched), and below 1 the
 * text is "0." and zeros as tyjson__f64_write writes it down to 1e-6.
 */
#define SHORT_DECIMALS 8
#define SHORT_LIMIT 1125899906842624.0 /* 2^50 */

static const double pow10_f64[SHORT_DECIMALS + 1] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8};

static const u32 pow10_u32[SHORT_DECIMALS + 1] = {1,      10,      100,      1000,     10000,
                                                   100000, 1000000, 10000000, 100000000};

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The k (1 to 8) decimal digits of f < 10^k, leading zeros kept, by one
 * 8-byte store at d: SWAR splits f into 8 digit bytes (4-digit halves in
 * 32-bit lanes, then pairs in 16-bit lanes, then digits), with nothing
 * written to memory and read back (which would stall the store buffer). */
TYJSON__FORCEINLINE char *put_fixed_digits(char *d, u32 f, int k) {
    u64 x = (u64)(f / 10000) | (u64)(f % 10000) << 32;
    u64 q = ((x * 5243) >> 19) & 0x0000007F0000007Full; /* / 100 per lane */
    x = q | (x - q * 100) << 16;
    q = ((x * 103) >> 10) & 0x000F000F000F000Full; /* / 10 per lane */
    x = q | (x - q * 10) << 8;
    x = (x | 0x3030303030303030ull) >> (8 * (8 - k));
    memcpy(d, &x, 8);
    return d + k;
}
#else
TYJSON__FORCEINLINE char *put_fixed_digits(char *d, u32 f, int k) {
    for (int i = k; i-- > 0;) {
        d[i] = (char)('0' + f % 10);
        f /= 10;
    }
    return d + k;
}
#endif

/* r / 10^k with k decimals (r < 2^50, 1 <= k <= 8) at d, which has
 * SCALAR_ROOM bytes of room. The integer part is floor(a): an integer
 * between a and r / 10^k would read back as v too, and v is not one.
 * One or two decimals (95.5, prices) without the SWAR split: its chain of
 * multiplies is most of the latency of a short real. */
TYJSON__FORCEINLINE char *put_scaled_digits(char *d, double a, u64 r, int k) {
    u64 ip = (u64)(i64)a;
    d = tyjson__u64_write_inline(ip, d);
    *d++ = '.';
    u32 f = (u32)(r - ip * pow10_u32[k]);
    if (k == 1) {
        *d = (char)('0' + f);
        return d + 1;
    }
    if (k == 2) {
        memcpy(d, tyjson__num_dig2 + 2 * f, 2);
        return d + 2;
    }
    return put_fixed_digits(d, f, k);
}

/* The text of a non-integral finite v with few decimals, or NULL. */
TYJSON__FORCEINLINE char *put_short_real(char *d, double v) {
    double a = v < 0 ? -v : v;
    if (!(a >= 1e-6)) return NULL;
    for (int k = 1; k <= SHORT_DECIMALS; k++) {
        double s = a * pow10_f64[k];
        if (!(s < SHORT_LIMIT)) return NULL;
        /* through i64 (s < 2^50): a u64 conversion costs a branch */
        double r = (double)(i64)(s + 0.5), diff = s - r, eps = s * 0x1p-50;
        if (diff <= eps && diff >= -eps && r / pow10_f64[k] == a) {
            *d = '-';
            return put_scaled_digits(d + (v < 0), a, (u64)(i64)r, k);
        }
    }
    return NULL;
}

TYJSON__FORCEINLINE char *put_f64(enc *e, char *d, double v, const bool roomy) {
    u64 bits;
    memcpy(&bits, &v, 8);
    if (unlikely((bits & 0x7FF0000000000000ull) == 0x7FF0000000000000ull ||
                 (e->flags & TYJSON__WRITE_FP_OPTS)))
        return put_real_slow(e, d, v);
    if (!roomy) d = room(e->wb, d, SCALAR_ROOM);
    if (v >= -F64_EXACT_INT && v <= F64_EXACT_INT && bits != 0x8000000000000000ull) {
        i64 i = (i64)v;
        if ((double)i == v) return put_int_real(d, i);
        char *t = put_short_real(d, v);
        if (t) return t;
    }
    return tyjson__f64_write(v, d);
}

TYJSON__FORCEINLINE char *put_f32(enc *e, char *d, float v) {
    u32 bits;
    memcpy(&bits, &v, 4);
    if (unlikely((bits & 0x7F800000u) == 0x7F800000u || (e->flags & TYJSON__WRITE_FP_OPTS)))
        return put_real_slow(e, d, (double)v);
    d = room(e->wb, d, SCALAR_ROOM);
    if (v >= -F32_EXACT_INT && v <= F32_EXACT_INT && bits != 0x80000000u) {
        i64 i = (i64)v;
        if ((float)i == v) return put_int_real(d, i);
    }
    return tyjson__f32_write(v, d);
}

/* A short clean string (most member values) is written inline. */
TYJSON__FORCEINLINE char *enc_put_str(enc *e, char *d, const char *s, usize n) {
    if (n <= 16 && likely((usize)(e->wb->end - d) >= n + 2 + TYJSON__STR_SLACK)) {
        if (!n) { /* "" */
            memcpy(d, "\"\"", 2);
            return d + 2;
        }
        char *t = tyjson__str_write_short(d, s, n, e->slash);
        if (likely(t != NULL)) return t;
    }
    d = tyjson__str_write(e->wb, d, s, n, e->flags);
    if (unlikely(!d)) return str_failed(e);
    return d;
}

/* A string member whose pointer is NULL: null for nullable fields, else ""
 * (also with a state member, where null is the NULL state). */
static char *put_absent_str(enc *e, char *d, const tyjson_field *f) {
    if ((f->flags & (TYJSON_F_NULLABLE | TYJSON_F_WRITE_NULL)) && !f->state_at)
        return put_null(e->wb, d);
    d = room(e->wb, d, 2);
    d[0] = '"';
    d[1] = '"';
    return d + 2;
}

/* An integer member of 1, 2, 4 or 8 bytes, as its bits (zero-extended). */
static u64 load_bits(const char *m, usize size) {
    switch (size) {
    case 1: return *(const u8 *)m;
    case 2: { u16 v; memcpy(&v, m, 2); return v; }
    case 4: { u32 v; memcpy(&v, m, 4); return v; }
    default: { u64 v; memcpy(&v, m, 8); return v; }
    }
}

/* Enum members are matched on their bits, so the member may be signed or
 * unsigned of any of the four sizes. */
/* A member value without a name: the message gives the value (as the
 * member's signed integer) and the names there are. */
static TYJSON__NOINLINE char *enum_failed(enc *e, const tyjson_field *f, u64 bits) {
    if (f->size < 8 && (bits >> (f->size * 8 - 1)) & 1) /* sign-extend */
        bits |= UINT64_MAX << (f->size * 8);
    i64 v;
    memcpy(&v, &bits, sizeof(v));
    usize k = (usize)snprintf(e->note, sizeof(e->note), "enum value %" PRId64 " has no name", v);
    tyjson__note_enum_names(e->note, sizeof(e->note), &k, f);
    e->note[k] = 0;
    return fail(e, TYJSON_E_ENUM);
}

static char *put_enum(enc *e, char *d, const tyjson_field *f, const char *m) {
    u64 mask = f->size >= 8 ? UINT64_MAX : ((u64)1 << (f->size * 8)) - 1;
    u64 bits = load_bits(m, f->size);
    for (usize i = 0; i < f->n_enums; i++) {
        if (((u64)f->enums[i].value & mask) == bits) {
            const char *name = f->enums[i].name;
            return enc_put_str(e, d, name, strlen(name));
        }
    }
    return enum_failed(e, f, bits);
}

/* Dates and date-times are formatted straight into the output at d + 1
 * (room for DT_MAX + 2 bytes reserved), then quoted: through a scratch
 * buffer, the copy would read back bytes just stored one at a time, which
 * stalls the store buffer. n == 0 is an invalid value. */
TYJSON__FORCEINLINE char *quote_formatted(enc *e, char *d, usize n) {
    if (!n) return fail(e, TYJSON_E_DATE);
    d[0] = '"';
    d[n + 1] = '"';
    return d + n + 2;
}

/* Epoch milliseconds to a date-time (through seconds: nanoseconds would
 * overflow int64 past the year 2262). */
static bool ms_to_datetime(i64 ms, tyjson_datetime *dt) {
    i64 sec = ms / 1000, rem = ms % 1000;
    if (rem < 0) {
        rem += 1000;
        sec--;
    }
    return tyjson__datetime_from_epoch_sec(sec, (u32)rem * 1000000u, dt);
}

static char *put_epoch(enc *e, char *d, const tyjson_field *f, const char *m, u8 kind) {
    i64 v;
    memcpy(&v, m, 8);
    if (f->flags & TYJSON_F_EPOCH_NUMBER) {
        d = room(e->wb, d, SCALAR_ROOM);
        return tyjson__i64_write(v, d);
    }
    tyjson_datetime dt;
    bool ok = kind == TYJSON_K_EPOCH_MS ? ms_to_datetime(v, &dt)
                                        : tyjson_datetime_from_epoch_ns(v, &dt);
    d = room(e->wb, d, DT_MAX + 2);
    return quote_formatted(e, d, ok ? tyjson_datetime_format(&dt, d + 1) : 0);
}

/* ---- free-form values: the DOM writer through its callback sink ----------
 * A pretty value nested at indentation `ind` gets `ind` more spaces after
 * each newline the DOM writer emits (raw newlines only ever come from its
 * layout: inside strings they are escaped). */
typedef struct dom_sink {
    tyjson__wbuf *wb;
    usize ind;
} dom_sink;

static int dom_sink_write(void *ctx, const char *s, size_t n) {
    dom_sink *ds = (dom_sink *)ctx;
    tyjson__wbuf *wb = ds->wb;
    if (ds->ind == 0) {
        tyjson__wbuf_putn(wb, s, n);
    } else {
        const char *end = s + n;
        while (s < end) {
            const char *nl = (const char *)memchr(s, '\n', (usize)(end - s));
            const char *stop = nl ? nl + 1 : end;
            tyjson__wbuf_putn(wb, s, (usize)(stop - s));
            if (nl) wb->cur = tyjson__wbuf_fill(wb, wb->cur, ' ', ds->ind);
            s = stop;
        }
    }
    return wb->status != TYJSON_OK;
}

static char *put_dom(enc *e, char *d, const tyjson_val *v) {
    tyjson_write_options o = {e->flags & ~(tyjson_write_flags)TYJSON_WRITE_NEWLINE_AT_END,
                              (u32)e->indent, e->alc};
    dom_sink ds = {e->wb, (e->flags & TYJSON_WRITE_PRETTY) ? e->ind : 0};
    tyjson_error err;
    e->wb->cur = d;
    if (!tyjson_val_write_cb(dom_sink_write, &ds, v, &o, &err)) {
        if (e->wb->status != TYJSON_OK) return NULL; /* the sink failed */
        return fail(e, err.code);
    }
    return e->wb->cur;
}

/* ---- RAW members: their text, re-written by the write options -------------
 * The text must be exactly one JSON value (strict RFC 8259). It is parsed
 * into a DOM and written by the DOM writer, so that it comes out minified,
 * or indented at the member's depth, and escaped and UTF-8-checked by the
 * flags exactly as a free-form (VALUE) member: numbers keep their value
 * (integers and shortest doubles, as the DOM writer writes them; numbers no
 * C type holds stay as written), and invalid UTF-8 fails, or becomes
 * U+FFFD with TYJSON_WRITE_REPLACE_INVALID_UTF8. The DOM of a text of up
 * to 141 bytes (whose worst case fits RAW_POOL) lives in a pool on the C
 * stack, without allocation; a longer one comes from the options'
 * allocator. */
#define RAW_POOL 4096u

static TYJSON__NOINLINE char *put_raw(enc *e, char *d, const char *s, usize n) {
    tyjson_read_flags rf = TYJSON_READ_BIGNUM_AS_RAW;
    if (e->flags & TYJSON_WRITE_REPLACE_INVALID_UTF8) rf |= TYJSON_READ_ALLOW_INVALID_UTF8;
    _Alignas(16) char mem[RAW_POOL];
    tyjson_alloc pool;
    usize need = tyjson_read_max_memory(n, rf); /* the worst case: never E_NOMEM in the pool */
    bool pooled = need && need <= sizeof(mem) && tyjson_alloc_pool_init(&pool, mem, sizeof(mem));
    tyjson_read_options ro = {rf, 0, pooled ? &pool : e->alc};
    tyjson_error err;
    tyjson_doc *doc = tyjson_read_opts(s, n, &ro, &err);
    if (!doc) {
        if (err.code != TYJSON_E_NOMEM) {
            /* the parser's "expected X, found Y", placed in the member's text */
            snprintf(e->note, sizeof(e->note), "%.200s (byte %zu of the RAW text)", err.msg,
                     err.offset);
            return fail(e, err.code);
        }
        tyjson__wbuf_fail(e->wb, TYJSON_E_NOMEM); /* not about the member */
        return NULL;
    }
    d = put_dom(e, d, tyjson_doc_get_root(doc));
    tyjson_doc_free(doc);
    return d;
}

/* ---- custom codecs ---------------------------------------------------------- */
typedef struct codec_sink {
    tyjson__wbuf *wb;
    usize wrote;
    enc *e; /* for tyjson_codec_encode_fail */
} codec_sink;

void tyjson_codec_encode_fail(void *wctx, const char *msg) {
    codec_sink *cs = (codec_sink *)wctx;
    if (!cs || !msg || !cs->e) return;
    usize n = strlen(msg);
    if (n >= sizeof(cs->e->note)) n = sizeof(cs->e->note) - 1;
    memcpy(cs->e->note, msg, n);
    cs->e->note[n] = 0;
}

static int codec_sink_write(void *ctx, const char *s, size_t n) {
    codec_sink *cs = (codec_sink *)ctx;
    if (!s && n) return 1;
    tyjson__wbuf_putn(cs->wb, s, n);
    cs->wrote += n;
    return cs->wb->status != TYJSON_OK;
}

static char *put_custom(enc *e, char *d, const tyjson_field *f, const char *m) {
    const tyjson_codec *c = f->codec;
    if (!c || !c->encode) return fail(e, TYJSON_E_INVALID_ARG);
    codec_sink cs = {e->wb, 0, e};
    e->note[0] = 0;
    e->wb->cur = d;
    tyjson_status st = c->encode(c->ctx, m, codec_sink_write, &cs);
    if (e->wb->status != TYJSON_OK) return NULL; /* the sink failed */
    if (st != TYJSON_OK) {
        if (!e->note[0]) memcpy(e->note, "custom codec reported an error", 31);
        return fail(e, st);
    }
    e->note[0] = 0; /* a success clears what a failed call noted */
    if (cs.wrote == 0) return fail(e, TYJSON_E_CALLBACK); /* no value at all */
    return e->wb->cur;
}

/* ----------------------------------------------------------------------------
 * MARK: - Empty members (TYJSON_F_OMIT_EMPTY)
 * ------------------------------------------------------------------------- */
/* Digit for digit what the member holds: the text reads back to the same
 * coefficient and scale. */
static char *put_exact_decimal(enc *e, char *d, const tyjson_field *f, const char *m) {
    tyjson_decimal v;
    memcpy(&v, m, sizeof(v));
    if (v.scale > 1000000000 || v.scale < -1000000000) return fail(e, TYJSON_E_NUMBER_RANGE);
    bool quoted = (f->flags & TYJSON_F_DECIMAL_STRING) != 0;
    d = room(e->wb, d, TYJSON__DECIMAL_MAX_CHARS + 2);
    if (quoted) *d++ = '"';
    d = tyjson__decimal_write(v.coef, v.scale, d);
    if (quoted) *d++ = '"';
    return d;
}

static bool all_zero(const char *m, usize n) {
    for (usize i = 0; i < n; i++)
        if (m[i]) return false;
    return true;
}

static bool date_zero(const tyjson_date *d) { return !d->year && !d->month && !d->day; }

static bool field_empty(const tyjson_field *f, const char *base, u32 depth);

/* Levels of by-value structs the emptiness check looks into (it recurses;
 * only a descriptor whose struct contains itself comes near): a struct
 * nested deeper counts as not empty. */
#define EMPTY_DEPTH 64u

static bool struct_empty(const tyjson_struct *t, const char *m, u32 depth) {
    if (!t || depth >= EMPTY_DEPTH) return false;
    for (usize i = 0; i < t->n_fields; i++)
        if (!field_empty(&t->fields[i], m, depth + 1)) return false;
    return true;
}

static bool field_empty(const tyjson_field *f, const char *base, u32 depth) {
    const char *m = base + f->offset;
    /* A struct left out reads back all zero, without its members'
     * defaults: a member with a default keeps its struct written. */
    if (f->has_default) return false;
    /* written or not by its state or presence member: empty when left out */
    if (f->state_at) return base[f->state_at - 1] == TYJSON_STATE_ABSENT;
    if (f->present_at) return !*(const u8 *)(base + f->present_at - 1);
    if (f->shape != TYJSON_SHAPE_ONE) {
        if (f->count_at) return load_size(base + f->count_at - 1) == 0;
        return f->shape == TYJSON_SHAPE_DYN || f->capacity == 0;
    }
    switch (f->kind) {
    case TYJSON_K_F32: /* +0.0 only: -0.0 is written, and reads back as -0.0 */
    case TYJSON_K_F64:
        return all_zero(m, f->size);
    /* "" left out reads back NULL: for the member's own OMIT_EMPTY (depth
     * 0) that is the documented rule; inside a struct left out as empty it
     * must not turn a "" that the field tells from NULL into NULL */
    case TYJSON_K_STR:
    case TYJSON_K_RAW: {
        const tyjson_str s = load_str(m);
        if (s.len) return false;
        return !s.ptr || depth == 0 || f->kind == TYJSON_K_RAW || (f->flags & TYJSON_F_OMIT_EMPTY) ||
               !(f->flags & (TYJSON_F_NULLABLE | TYJSON_F_WRITE_NULL));
    }
    case TYJSON_K_CSTR: {
        const char *s = (const char *)load_ptr(m);
        if (!s) return true;
        return !*s && (depth == 0 || (f->flags & TYJSON_F_OMIT_EMPTY));
    }
    case TYJSON_K_CHARS:
        return f->size == 0 || m[0] == 0;
    case TYJSON_K_STRUCT:
        return struct_empty(f->type, m, depth);
    case TYJSON_K_PTR:
    case TYJSON_K_VALUE:
        return load_ptr(m) == NULL;
    case TYJSON_K_DATE: { /* member by member: padding bytes may hold anything */
        tyjson_date date;
        memcpy(&date, m, sizeof(date));
        return date_zero(&date);
    }
    case TYJSON_K_DATETIME: {
        tyjson_datetime t;
        memcpy(&t, m, sizeof(t));
        return date_zero(&t.date) && !t.hour && !t.minute && !t.second && !t.nanosecond &&
               !t.offset_minutes;
    }
    case TYJSON_K_DECIMAL: { /* {0, 0} only: 0.00 keeps its scale */
        tyjson_decimal v;
        memcpy(&v, m, sizeof(v));
        return v.coef == 0 && v.scale == 0;
    }
    default: /* bool, integers, enums, epochs, custom: all bytes zero */
        return all_zero(m, f->size);
    }
}

/* ----------------------------------------------------------------------------
 * MARK: - The walk
 * ------------------------------------------------------------------------- */
static char *put_struct_min(enc *e, char *d, tyjson_struct *t, const char *base);
static char *put_fields_min(enc *e, char *d, const tyjson__bind_prep *p, const char *base);
static char *put_struct_pretty(enc *e, char *d, tyjson_struct *t, const char *base);
static char *put_deep(enc *e, char *d, tyjson_struct *t, const char *base, bool pretty);

/* Open levels the walk nests on the C stack; deeper ones go to put_deep. */
#define DEEP_AT 24u
_Static_assert(DEEP_AT < TYJSON_DEFAULT_MAX_DEPTH, "put_struct_at checks DEEP_AT only");

TYJSON__FORCEINLINE char *put_struct_at(enc *e, char *d, tyjson_struct *t, const char *m,
                                        const bool pretty) {
    if (unlikely(e->depth >= DEEP_AT)) return put_deep(e, d, t, m, pretty);
    if (pretty) return put_struct_pretty(e, d, t, m);
    /* minified, the common case straight to the members (put_struct's
     * checks, inline); errors and TYJSON_T_ARRAY types go through it */
    const tyjson__bind_prep *p = t ? tyjson__struct_prep(t, NULL) : NULL;
    /* (below DEEP_AT, so below the depth limit too) */
    if (unlikely(!p || (t->flags & TYJSON_T_ARRAY))) return put_struct_min(e, d, t, m);
    e->depth++;
    d = put_fields_min(e, d, p, m);
    if (likely(d != NULL)) e->depth--;
    return d;
}

/* One value of the field's kind at m (a member, or one array element). */
TYJSON__FORCEINLINE char *put_one(enc *e, char *d, const tyjson_field *f, u8 kind,
                                  const char *m, const bool pretty) {
    tyjson__wbuf *wb = e->wb;
    switch (kind) {
    case TYJSON_K_BOOL:
        d = room(wb, d, 5);
        if (*(const u8 *)m) {
            memcpy(d, "true", 4);
            return d + 4;
        }
        memcpy(d, "false", 5);
        return d + 5;
    case TYJSON_K_I8:
        d = room(wb, d, SCALAR_ROOM);
        return tyjson__i64_write(*(const int8_t *)m, d);
    case TYJSON_K_I16:
        d = room(wb, d, SCALAR_ROOM);
        return tyjson__i64_write(load_i16(m), d);
    case TYJSON_K_I32:
        d = room(wb, d, SCALAR_ROOM);
        return tyjson__i64_write(load_i32(m), d);
    case TYJSON_K_I64:
        d = room(wb, d, SCALAR_ROOM);
        return tyjson__i64_write(load_i64(m), d);
    case TYJSON_K_U8:
        d = room(wb, d, SCALAR_ROOM);
        return tyjson__u64_write(*(const uint8_t *)m, d);
    case TYJSON_K_U16:
        d = room(wb, d, SCALAR_ROOM);
        return tyjson__u64_write(load_bits(m, 2), d);
    case TYJSON_K_U32:
        d = room(wb, d, SCALAR_ROOM);
        return tyjson__u64_write(load_bits(m, 4), d);
    case TYJSON_K_U64:
        d = room(wb, d, SCALAR_ROOM);
        return tyjson__u64_write(load_bits(m, 8), d);
    case TYJSON_K_F32:
        return put_f32(e, d, load_f32(m));
    case TYJSON_K_F64:
        return put_f64(e, d, load_f64(m), false);
    case TYJSON_K_STR: {
        const tyjson_str s = load_str(m);
        if (likely(s.ptr != NULL)) return enc_put_str(e, d, s.ptr, s.len);
        if (s.len) return fail(e, TYJSON_E_INVALID_ARG);
        return put_absent_str(e, d, f);
    }
    case TYJSON_K_CSTR: {
        const char *s = (const char *)load_ptr(m);
        if (!s) return put_absent_str(e, d, f);
        return enc_put_str(e, d, s, strlen(s));
    }
    case TYJSON_K_CHARS: {
        const char *z = (const char *)memchr(m, 0, f->size);
        return enc_put_str(e, d, m, z ? (usize)(z - m) : f->size);
    }
    case TYJSON_K_ENUM:
        return put_enum(e, d, f, m);
    case TYJSON_K_STRUCT:
        return put_struct_at(e, d, f->type, m, pretty);
    case TYJSON_K_PTR: {
        const char *p = (const char *)load_ptr(m);
        if (!p) return put_null(wb, d);
        return put_struct_at(e, d, f->type, p, pretty);
    }
    case TYJSON_K_DATE: {
        tyjson_date date;
        memcpy(&date, m, sizeof(date));
        d = room(wb, d, DT_MAX + 2);
        return quote_formatted(e, d, tyjson_date_format(&date, d + 1));
    }
    case TYJSON_K_DATETIME: {
        tyjson_datetime dt;
        memcpy(&dt, m, sizeof(dt));
        d = room(wb, d, DT_MAX + 2);
        return quote_formatted(e, d, tyjson_datetime_format(&dt, d + 1));
    }
    case TYJSON_K_EPOCH_MS:
    case TYJSON_K_EPOCH_NS:
        return put_epoch(e, d, f, m, kind);
    case TYJSON_K_VALUE: {
        const tyjson_val *v = (const tyjson_val *)load_ptr(m);
        if (!v) return put_null(wb, d);
        return put_dom(e, d, v);
    }
    case TYJSON_K_RAW: {
        const tyjson_str s = load_str(m);
        if (!s.ptr || !s.len) {
            if (s.len) return fail(e, TYJSON_E_INVALID_ARG);
            return put_null(wb, d);
        }
        return put_raw(e, d, s.ptr, s.len);
    }
    case TYJSON_K_CUSTOM:
        return put_custom(e, d, f, m);
    case TYJSON_K_DECIMAL:
        return put_exact_decimal(e, d, f, m);
    default:
        return fail(e, TYJSON_E_INVALID_ARG);
    }
}

/* The elements and count of a FIXED or DYN field of the struct at base;
 * false (status set) for a count the member cannot hold. *elems is NULL
 * for a NULL dynamic array (then *n is 0). */
static bool array_span(enc *e, const tyjson_field *f, const char *base, const char **elems,
                       usize *n) {
    const char *m = base + f->offset;
    if (f->count_at) *n = load_size(base + f->count_at - 1);
    else *n = f->shape == TYJSON_SHAPE_FIXED ? f->capacity : 0;
    if (f->shape == TYJSON_SHAPE_FIXED) {
        *elems = m;
        if (*n <= f->capacity) return true;
        fail(e, TYJSON_E_SIZE);
        return false;
    }
    *elems = (const char *)load_ptr(m);
    if (*elems || !*n) return true;
    fail(e, TYJSON_E_INVALID_ARG);
    return false;
}

/* `[]`, or null for a NULL dynamic array with WRITE_NULL: the decoder
 * leaves NULL for both [] and null, so only WRITE_NULL picks null, and []
 * survives a round trip. */
static char *put_empty_array(enc *e, char *d, const tyjson_field *f, const char *elems) {
    if (!elems && (f->flags & TYJSON_F_WRITE_NULL)) return put_null(e->wb, d);
    d = room(e->wb, d, 2);
    d[0] = '[';
    d[1] = ']';
    return d + 2;
}

/* The element type of an array of structs written minified, prepared once
 * for the whole array, when each element can go straight to put_fields_min:
 * not a TYJSON_T_ARRAY type and not nested past DEEP_AT. Else NULL, and each
 * element takes the general way (put_one), which also reports any error. */
static const tyjson__bind_prep *elems_prep(const tyjson_field *f, u32 depth) {
    tyjson_struct *t = f->type;
    if (!t || (t->flags & TYJSON_T_ARRAY) || depth >= DEEP_AT) return NULL;
    return tyjson__struct_prep(t, NULL);
}

/* The n struct elements at elems (size bytes apart), minified, comma
 * separated; the depth counts them as put_struct does. */
static char *put_struct_elems_min(enc *e, char *d, const tyjson__bind_prep *p, const char *elems,
                                  usize n, usize size) {
    if (unlikely(++e->depth > TYJSON_DEFAULT_MAX_DEPTH)) {
        fail(e, TYJSON_E_DEPTH);
        path_index(e, 0);
        return NULL;
    }
    for (usize i = 0; i < n; i++) {
        if (i) {
            d = room(e->wb, d, 1);
            *d++ = ',';
        }
        d = put_fields_min(e, d, p, elems + i * size);
        if (unlikely(!d)) {
            path_index(e, i);
            return NULL;
        }
    }
    e->depth--;
    return d;
}

/* A FIXED or DYN field: its elements, by count. */
static TYJSON__NOINLINE char *put_array(enc *e, char *d, const tyjson_field *f, u8 kind,
                                        const char *base, const bool pretty) {
    const char *elems;
    usize n;
    if (!array_span(e, f, base, &elems, &n)) return NULL;
    if (n == 0) return put_empty_array(e, d, f, elems);
    if (unlikely(++e->depth > TYJSON_DEFAULT_MAX_DEPTH)) return fail(e, TYJSON_E_DEPTH);
    d = room(e->wb, d, 1);
    *d++ = '[';
    const tyjson__bind_prep *ep = !pretty && kind == TYJSON_K_STRUCT ? elems_prep(f, e->depth) : NULL;
    if (ep) {
        d = put_struct_elems_min(e, d, ep, elems, n, f->size);
        if (unlikely(!d)) return NULL;
        n = 0; /* written */
    }
    if (pretty) e->ind += e->indent;
    for (usize i = 0; i < n; i++) {
        if (i) {
            d = room(e->wb, d, 1);
            *d++ = ',';
        }
        if (pretty) d = put_nl(e->wb, d, e->ind);
        d = put_one(e, d, f, kind, elems + i * f->size, pretty);
        if (unlikely(!d)) {
            path_index(e, i);
            return NULL;
        }
    }
    if (pretty) {
        e->ind -= e->indent;
        d = put_nl(e->wb, d, e->ind);
    }
    d = room(e->wb, d, 1);
    *d++ = ']';
    e->depth--;
    return d;
}

/* roomy: the member's head made SCALAR_ROOM bytes of room after itself
 * (put_head_min), so a scalar needs no check of its own. */
TYJSON__FORCEINLINE char *put_value(enc *e, char *d, const tyjson__bind_field *bf,
                                    const char *base, const bool pretty, const bool roomy) {
    const char *m = base + bf->offset;
    /* The commonest members first, by the prepared op (TYJSON__OP_ARRAY
     * for arrays, so those fall through), as a chain of compares: in a
     * struct's fixed field order these predict better than a jump table. */
    const u8 op = bf->op;
    if (op == TYJSON__OP_STR) {
        const tyjson_str s = load_str(m);
        if (likely(s.ptr != NULL)) return enc_put_str(e, d, s.ptr, s.len);
    } else if (op == TYJSON__OP_I32) {
        return tyjson__i64_write_inline(load_i32(m), roomy ? d : room(e->wb, d, SCALAR_ROOM));
    } else if (op == TYJSON__OP_BOOL) {
        if (!roomy) d = room(e->wb, d, 5);
        if (*(const u8 *)m) {
            memcpy(d, "true", 4);
            return d + 4;
        }
        memcpy(d, "false", 5);
        return d + 5;
    } else if (op == TYJSON__OP_F64) {
        return put_f64(e, d, load_f64(m), roomy);
    } else if (op == TYJSON__OP_I64) {
        return tyjson__i64_write_inline(load_i64(m), roomy ? d : room(e->wb, d, SCALAR_ROOM));
    } else if (op == TYJSON__OP_NESTED) { /* STRUCT or PTR */
        if (bf->kind == TYJSON_K_STRUCT) return put_struct_at(e, d, bf->f->type, m, pretty);
        const char *p = (const char *)load_ptr(m);
        if (!p) return put_null(e->wb, d);
        return put_struct_at(e, d, bf->f->type, p, pretty);
    }
    if (likely(bf->shape == TYJSON_SHAPE_ONE))
        return put_one(e, d, bf->f, bf->kind, m, pretty);
    return put_array(e, d, bf->f, bf->kind, base, pretty);
}

/* 0: write the value; 1: leave the member out; 2: write null. A state
 * member decides alone; bf->flags has OMIT_EMPTY for single DATE and
 * DATETIME members too (bind_desc.c): the zero date is the absent one. */
static TYJSON__NOINLINE int omit_action(const tyjson__bind_field *bf, const char *base) {
    const tyjson_field *f = bf->f;
    if (bf->state_at) {
        u8 st = (u8)base[bf->state_at - 1];
        return st == TYJSON_STATE_SET ? 0 : st == TYJSON_STATE_NULL ? 2 : 1;
    }
    bool absent = f->present_at && !*(const u8 *)(base + f->present_at - 1);
    if (!absent && !((bf->flags & TYJSON_F_OMIT_EMPTY) && field_empty(f, base, 0))) return 0;
    return (f->flags & TYJSON_F_WRITE_NULL) ? 2 : 1;
}

/* omit_action, inline, for the commonest member that may be left out: a
 * single DATE without a state or presence member (bind_desc.c gives it
 * OMIT_EMPTY: the zero date is the absent one). -1 for any other member. */
TYJSON__FORCEINLINE int omit_date_fast(const tyjson__bind_field *bf, const char *base) {
    if (bf->kind != TYJSON_K_DATE || bf->shape != TYJSON_SHAPE_ONE || bf->state_at ||
        bf->present_at || bf->f->has_default)
        return -1;
    tyjson_date date;
    memcpy(&date, base + bf->offset, sizeof(date));
    if (!(bf->flags & TYJSON_F_OMIT_EMPTY) || !date_zero(&date)) return 0;
    return (bf->f->flags & TYJSON_F_WRITE_NULL) ? 2 : 1;
}

/* A TYJSON_T_ARRAY type: its one (array) field's value, null when left out. */
static TYJSON__NOINLINE char *put_unwrapped(enc *e, char *d, const tyjson__bind_prep *p,
                                            const char *base, const bool pretty) {
    if (p->n_fields != 1) return fail(e, TYJSON_E_INVALID_ARG);
    const tyjson__bind_field *bf = &p->fields[0];
    if (omit_action(bf, base)) d = put_null(e->wb, d);
    else d = put_value(e, d, bf, base, pretty, false);
    if (d) e->depth--;
    return d;
}

/* `"key":` (`"key": ` pretty): the prepared literal, unless the flags ask
 * for escapes the literal does not have. */
TYJSON__FORCEINLINE char *put_key(enc *e, char *d, const tyjson__bind_field *bf,
                                  const bool pretty) {
    if (likely(bf->lit_plain || e->lits_ok)) {
        if (likely(bf->lit_match_len != 0)) {
            /* short literal: one 16-byte store of its zero-padded copy, with
             * room for a scalar value after it (saves the value's check) */
            d = room(e->wb, d, 16 + 1 + SCALAR_ROOM);
            memcpy(d, bf->lit_words, 16);
            d += bf->lit_len;
            if (pretty) *d++ = ' ';
            return d;
        }
        return put_bytes(e->wb, d, bf->lit, (usize)bf->lit_len + (pretty ? 1 : 0));
    }
    const char *k = bf->f->name;
    d = enc_put_str(e, d, k, strlen(k));
    if (!d) return NULL;
    *d++ = ':'; /* put_str leaves TYJSON__STR_SLACK bytes of room */
    if (pretty) *d++ = ' ';
    return d;
}

/* The prepared record of a nested type (prepared along with the top one). */
TYJSON__FORCEINLINE const tyjson__bind_prep *prep_of(enc *e, tyjson_struct *t) {
    const tyjson__bind_prep *p = t ? tyjson__struct_prep(t, NULL) : NULL;
    if (unlikely(!p)) fail(e, TYJSON_E_INVALID_ARG);
    return p;
}

/* A member's start, shared by put_struct and the frame-stack walk so that
 * the two cannot drift: whether it is written at all (omit_action), the
 * separator, the newline and the key. Returns d past the key (NULL on
 * failure), or d unchanged with *act == 1 when the member is left out;
 * *act == 2 means its value is null. */
TYJSON__FORCEINLINE char *member_head(enc *e, char *d, const tyjson__bind_field *bf,
                                      const char *base, bool *any, int *act,
                                      const bool pretty) {
    *act = 0;
    if (unlikely(bf->may_omit)) {
        *act = omit_action(bf, base);
        if (*act == 1) return d;
    }
    if (*any) {
        d = room(e->wb, d, 1);
        *d++ = ',';
    }
    *any = true;
    if (pretty) d = put_nl(e->wb, d, e->ind);
    return put_key(e, d, bf, pretty);
}

/* A minified member's separator and key: with a short literal, one store
 * of ',' and one 16-byte store of the literal at d + sep, where sep is 1
 * after a member (the ',' stays) and 0 before the first (the literal
 * overwrites it). Either way SCALAR_ROOM bytes of room are left after the
 * key, so that a scalar value needs no check (put_value's roomy). */
TYJSON__FORCEINLINE char *put_head_min(enc *e, tyjson__wbuf *wb, bool lits_ok, char *d,
                                       const tyjson__bind_field *bf, usize sep) {
    if (likely(bf->lit_match_len != 0 && (lits_ok || bf->lit_plain))) {
        d = room(wb, d, 1 + 16 + SCALAR_ROOM);
        *d = ',';
        memcpy(d + sep, bf->lit_words, 16);
        return d + sep + bf->lit_len;
    }
    if (sep) {
        d = room(e->wb, d, 1);
        *d++ = ',';
    }
    d = put_key(e, d, bf, false);
    return likely(d != NULL) ? room(wb, d, SCALAR_ROOM) : NULL;
}

/* `{...}` of the struct at base (not a TYJSON_T_ARRAY type), minified: the
 * loop of put_struct without the pretty layout, shared by single structs
 * and arrays of structs (put_struct_elems_min). */
TYJSON__FORCEINLINE char *fields_min(enc *e, char *d, const tyjson__bind_prep *p, const char *base,
                                     const bool lits_ok) {
    tyjson__wbuf *const wb = e->wb; /* locals: char stores could alias *e */
    d = room(wb, d, 1);
    *d++ = '{';
    usize sep = 0;
    const tyjson__bind_field *bf = p->fields, *bend = bf + p->n_fields;
    for (; bf < bend; bf++) {
        if (unlikely(bf->may_omit)) {
            int act = omit_date_fast(bf, base);
            if (act < 0) act = omit_action(bf, base);
            if (act == 1) continue;
            if (act == 2) {
                d = put_head_min(e, wb, lits_ok, d, bf, sep);
                sep = 1;
                if (likely(d != NULL)) d = put_null(wb, d);
                if (unlikely(!d)) {
                    path_key(e, bf->f->name);
                    return NULL;
                }
                continue;
            }
        }
        d = put_head_min(e, wb, lits_ok, d, bf, sep);
        sep = 1;
        if (likely(d != NULL)) d = put_value(e, d, bf, base, false, true);
        if (unlikely(!d)) {
            path_key(e, bf->f->name);
            return NULL;
        }
    }
    d = room(wb, d, 1);
    *d++ = '}';
    /* a failing sink is noticed here at the latest, not at the very end */
    if (unlikely(wb->status != TYJSON_OK)) return NULL;
    return d;
}

/* fields_min in its two copies, on whether the key literals hold under the
 * flags: with the default flags (they do) a member's head tests one byte
 * of its prepared field less. */
static TYJSON__NOINLINE char *fields_general(enc *e, char *d, const tyjson__bind_prep *p,
                                             const char *base) {
    if (likely(e->lits_ok)) return fields_min(e, d, p, base, true);
    return fields_min(e, d, p, base, false);
}

/* ---- the fast member loop (types with enc_fast) ----------------------------
 * bind_desc.c (plan_encoder) gives each member that is always written, has
 * a plain key and a common kind a fast op and its `,"key":` head, and cuts
 * the members into segments: from after a string, struct or general
 * member's value to the next one's head. One check reserves a whole
 * segment (enc_seg0 at the '{', else the seg_after of the member before
 * it, which a string folds into its own check), so the fixed-width members
 * in it (integers, booleans, reals) and the heads write without checks. */

/* TYJSON__ENC_DATE and _EPOCH, out of line (the formatting is anyway): as
 * an inline case, one more callee-saved register (a jump table's base)
 * pushed the loop's wbuf pointer to the stack. */
static TYJSON__NOINLINE char *fast_date(enc *e, char *d, const tyjson__bind_field *bf,
                                        const char *m) {
    if (bf->enc_op == TYJSON__ENC_EPOCH) return put_epoch(e, d, bf->f, m, bf->kind);
    tyjson_date date;
    memcpy(&date, m, sizeof(date));
    if (unlikely((bf->flags & TYJSON_F_OMIT_EMPTY) && date_zero(&date))) {
        /* omit_date_fast's rule; never the first member (fields_fast) */
        if (bf->f->flags & TYJSON_F_WRITE_NULL) {
            memcpy(d, "null", 4);
            return d + 4;
        }
        return d - bf->head_len; /* the head is taken back */
    }
    return quote_formatted(e, d, tyjson_date_format(&date, d + 1));
}

/* The value of a fast member whose head is written; room: its segment's. */
TYJSON__FORCEINLINE char *fast_value(enc *e, tyjson__wbuf *wb, char *d,
                                     const tyjson__bind_field *bf, const char *base) {
    const char *m = base + bf->offset;
    const u8 op = bf->enc_op;
    if (op == TYJSON__ENC_STR) {
        const tyjson_str s = load_str(m);
        if (likely(s.ptr != NULL)) {
            if (s.len <= 16 &&
                likely((usize)(wb->end - d) >= s.len + 2 + TYJSON__STR_SLACK + bf->seg_after)) {
                if (!s.len) {
                    memcpy(d, "\"\"", 2);
                    return d + 2;
                }
                char *t = tyjson__str_write_short(d, s.ptr, s.len, e->slash);
                if (likely(t != NULL)) return t;
            }
            d = tyjson__str_write(wb, d, s.ptr, s.len, e->flags);
            if (unlikely(!d)) return str_failed(e);
        } else {
            if (s.len) return fail(e, TYJSON_E_INVALID_ARG);
            d = put_absent_str(e, d, bf->f);
        }
        return room(wb, d, bf->seg_after);
    }
    if (op == TYJSON__ENC_I32) return tyjson__i64_write_inline(load_i32(m), d);
    if (op == TYJSON__ENC_BOOL) {
        if (*(const u8 *)m) {
            memcpy(d, "true", 4);
            return d + 4;
        }
        memcpy(d, "false", 5);
        return d + 5;
    }
    if (op == TYJSON__ENC_F64) return put_f64(e, d, load_f64(m), true);
    if (op == TYJSON__ENC_I64) return tyjson__i64_write_inline(load_i64(m), d);
    if (op != TYJSON__ENC_NESTED) return fast_date(e, d, bf, m);
    tyjson_struct *t = bf->type;
    if (bf->kind == TYJSON_K_STRUCT) {
        d = put_struct_at(e, d, t, m, false);
    } else {
        const char *ptr = (const char *)load_ptr(m);
        if (!ptr) {
            memcpy(d, "null", 4); /* within the head's reservation */
            return room(wb, d + 4, bf->seg_after);
        }
        d = put_struct_at(e, d, t, ptr, false);
    }
    return likely(d != NULL) ? room(wb, d, bf->seg_after) : NULL;
}

/* A member without a fast op, after the first: fields_min's loop body,
 * then the room of the segment after it. */
static TYJSON__NOINLINE char *general_member(enc *e, char *d, const tyjson__bind_field *bf,
                                             const char *base) {
    tyjson__wbuf *const wb = e->wb;
    const bool lits_ok = e->lits_ok;
    if (unlikely(bf->may_omit)) {
        int act = omit_date_fast(bf, base);
        if (act < 0) act = omit_action(bf, base);
        if (act == 1) return room(wb, d, bf->seg_after);
        if (act == 2) {
            d = put_head_min(e, wb, lits_ok, d, bf, 1);
            if (likely(d != NULL)) d = put_null(wb, d);
            return likely(d != NULL) ? room(wb, d, bf->seg_after) : NULL;
        }
    }
    d = put_head_min(e, wb, lits_ok, d, bf, 1);
    if (likely(d != NULL)) d = put_value(e, d, bf, base, false, true);
    return likely(d != NULL) ? room(wb, d, bf->seg_after) : NULL;
}

/* `{...}` of a type with enc_fast (its first member always written, with
 * a fast op): the '{' overwrites the first head's ','. */
static char *fields_fast(enc *e, char *d, const tyjson__bind_prep *p, const char *base) {
    tyjson__wbuf *const wb = e->wb; /* locals: char stores could alias *e */
    const tyjson__bind_field *bf = p->fields, *const bend = p->fields_end;
    /* a first member left out (a zero DATE) leaves no head to put '{' in */
    if (unlikely(bf->may_omit) && omit_date_fast(bf, base) != 0)
        return fields_general(e, d, p, base);
    d = room(wb, d, p->enc_seg0);
    memcpy(d, bf->head_words, 16);
    *d = '{';
    d += bf->head_len;
    for (;;) {
        d = fast_value(e, wb, d, bf, base);
        if (unlikely(!d)) goto failed;
        for (;;) {
            if (++bf == bend) goto done;
            if (likely(bf->enc_op != TYJSON__ENC_GENERAL)) break;
            d = general_member(e, d, bf, base);
            if (unlikely(!d)) goto failed;
        }
        memcpy(d, bf->head_words, 16);
        d += bf->head_len;
    }
done:
    *d++ = '}'; /* in the last segment's reservation */
    /* a failing sink is noticed here at the latest, not at the very end */
    if (unlikely(wb->status != TYJSON_OK)) return NULL;
    return d;
failed:
    path_key(e, bf->f->name);
    return NULL;
}

/* `{...}` of a type's members, minified (not a TYJSON_T_ARRAY type). */
static char *put_fields_min(enc *e, char *d, const tyjson__bind_prep *p, const char *base) {
    if (likely(p->enc_fast)) return fields_fast(e, d, p, base);
    return fields_general(e, d, p, base);
}

TYJSON__FORCEINLINE char *put_struct(enc *e, char *d, tyjson_struct *t, const char *base,
                                     const bool pretty) {
    const tyjson__bind_prep *p = prep_of(e, t);
    if (unlikely(!p)) return NULL;
    if (unlikely(++e->depth > TYJSON_DEFAULT_MAX_DEPTH)) return fail(e, TYJSON_E_DEPTH);
    if (unlikely(t->flags & TYJSON_T_ARRAY)) return put_unwrapped(e, d, p, base, pretty);
    if (!pretty) {
        d = put_fields_min(e, d, p, base);
        if (likely(d != NULL)) e->depth--;
        return d;
    }
    d = room(e->wb, d, 1);
    *d++ = '{';
    if (pretty) e->ind += e->indent;
    bool any = false;
    const tyjson__bind_field *bf = p->fields, *bend = bf + p->n_fields;
    for (; bf < bend; bf++) {
        const tyjson_field *f = bf->f;
        int act;
        d = member_head(e, d, bf, base, &any, &act, pretty);
        if (act == 1) continue;
        if (likely(d != NULL)) {
            if (act == 2) d = put_null(e->wb, d);
            else d = put_value(e, d, bf, base, pretty, false);
        }
        if (unlikely(!d)) {
            path_key(e, f->name);
            return NULL;
        }
    }
    if (pretty) {
        e->ind -= e->indent;
        if (any) d = put_nl(e->wb, d, e->ind);
    }
    d = room(e->wb, d, 1);
    *d++ = '}';
    e->depth--;
    /* a failing sink is noticed here at the latest, not at the very end */
    if (unlikely(e->wb->status != TYJSON_OK)) return NULL;
    return d;
}

static char *put_struct_min(enc *e, char *d, tyjson_struct *t, const char *base) {
    return put_struct(e, d, t, base, false);
}
static char *put_struct_pretty(enc *e, char *d, tyjson_struct *t, const char *base) {
    return put_struct(e, d, t, base, true);
}

/* ----------------------------------------------------------------------------
 * MARK: - Deep nesting
 *
 * The walk above recurses (a few hundred bytes of C stack per level), which
 * keeps it fast. Past DEEP_AT open levels put_struct_at hands the rest of
 * the subtree to put_deep, which writes the same bytes from an explicit
 * stack of frames: the first DEEP_FRAMES on the C stack, more from the
 * options' allocator. So an encode needs a bounded amount of C stack
 * whatever the nesting, up to the depth limit (TYJSON_DEFAULT_MAX_DEPTH,
 * which still ends a cycle of PTR members with TYJSON_E_DEPTH).
 * ------------------------------------------------------------------------- */
#define DEEP_FRAMES 16u

enum { FR_OBJECT, FR_ARRAY, FR_UNWRAPPED };

/* One open struct or array. */
typedef struct frame {
    const char *base;           /* OBJECT/UNWRAPPED: the struct; ARRAY: its elements */
    const tyjson__bind_prep *p; /* OBJECT/UNWRAPPED */
    const tyjson_field *f;      /* ARRAY: the field */
    usize i, n;                 /* next field or element, and their count */
    u8 what;                    /* FR_* */
    u8 kind;                    /* ARRAY: of each element */
    bool any;                   /* OBJECT: a member was written (a comma is due) */
} frame;

typedef struct frames {
    frame *v;
    usize n, cap;
    tyjson_alloc alc;
    frame local[DEEP_FRAMES];
} frames;

/* A new top frame, or NULL (TYJSON_E_NOMEM set). */
static frame *frame_push(enc *e, frames *st) {
    if (st->n == st->cap) {
        usize cap = st->cap * 2, bytes = cap * sizeof(frame);
        frame *v = st->v == st->local
                       ? (frame *)tyjson__malloc(&st->alc, bytes)
                       : (frame *)tyjson__realloc(&st->alc, st->v, st->cap * sizeof(frame), bytes);
        if (!v) {
            tyjson__wbuf_fail(e->wb, TYJSON_E_NOMEM);
            return NULL;
        }
        if (st->v == st->local) memcpy(v, st->local, sizeof(st->local));
        st->v = v;
        st->cap = cap;
    }
    frame *fr = &st->v[st->n++];
    memset(fr, 0, sizeof(*fr));
    return fr;
}

/* Opens the struct t at base: as put_struct does before its fields. */
static char *deep_open_struct(enc *e, char *d, frames *st, tyjson_struct *t, const char *base,
                              const bool pretty) {
    const tyjson__bind_prep *p = prep_of(e, t);
    if (!p) return NULL;
    if (++e->depth > TYJSON_DEFAULT_MAX_DEPTH) return fail(e, TYJSON_E_DEPTH);
    bool unwrapped = (t->flags & TYJSON_T_ARRAY) != 0;
    if (unwrapped && p->n_fields != 1) return fail(e, TYJSON_E_INVALID_ARG);
    frame *fr = frame_push(e, st);
    if (!fr) return NULL;
    fr->what = unwrapped ? FR_UNWRAPPED : FR_OBJECT;
    fr->p = p;
    fr->base = base;
    fr->n = unwrapped ? 1 : p->n_fields;
    if (unwrapped) return d;
    d = room(e->wb, d, 1);
    *d++ = '{';
    if (pretty) e->ind += e->indent;
    return d;
}

/* Opens the array field f of the struct at base: as put_array does. */
static char *deep_open_array(enc *e, char *d, frames *st, const tyjson_field *f, u8 kind,
                             const char *base, const bool pretty) {
    const char *elems;
    usize n;
    if (!array_span(e, f, base, &elems, &n)) return NULL;
    if (n == 0) return put_empty_array(e, d, f, elems);
    if (++e->depth > TYJSON_DEFAULT_MAX_DEPTH) return fail(e, TYJSON_E_DEPTH);
    frame *fr = frame_push(e, st);
    if (!fr) return NULL;
    fr->what = FR_ARRAY;
    fr->f = f;
    fr->kind = kind;
    fr->base = elems;
    fr->n = n;
    d = room(e->wb, d, 1);
    *d++ = '[';
    if (pretty) e->ind += e->indent;
    return d;
}

static TYJSON__NOINLINE char *put_leaf(enc *e, char *d, const tyjson_field *f, u8 kind,
                                       const char *m, const bool pretty) {
    return put_one(e, d, f, kind, m, pretty);
}

/* One value of the field's kind at m: a struct opens a frame. */
static char *deep_one(enc *e, char *d, frames *st, const tyjson_field *f, u8 kind, const char *m,
                      const bool pretty) {
    if (kind == TYJSON_K_STRUCT) return deep_open_struct(e, d, st, f->type, m, pretty);
    if (kind == TYJSON_K_PTR) {
        const char *p = (const char *)load_ptr(m);
        if (!p) return put_null(e->wb, d);
        return deep_open_struct(e, d, st, f->type, p, pretty);
    }
    return put_leaf(e, d, f, kind, m, pretty);
}

/* The value of member bf of the struct at base (put_value's job). */
static char *deep_member(enc *e, char *d, frames *st, const tyjson__bind_field *bf,
                         const char *base, const bool pretty) {
    if (bf->shape != TYJSON_SHAPE_ONE)
        return deep_open_array(e, d, st, bf->f, bf->kind, base, pretty);
    return deep_one(e, d, st, bf->f, bf->kind, base + bf->offset, pretty);
}

/* The next member of an open struct (put_struct's loop body). */
static char *deep_next_field(enc *e, char *d, frames *st, const bool pretty) {
    frame *fr = &st->v[st->n - 1];
    const tyjson__bind_field *bf = &fr->p->fields[fr->i++];
    const char *base = fr->base;
    int act;
    d = member_head(e, d, bf, base, &fr->any, &act, pretty); /* fr is not used past a push */
    if (act == 1 || !d) return d;
    if (act == 2) return put_null(e->wb, d);
    return deep_member(e, d, st, bf, base, pretty);
}

/* The next element of an open array (put_array's loop body). */
static char *deep_next_elem(enc *e, char *d, frames *st, const bool pretty) {
    frame *fr = &st->v[st->n - 1];
    usize i = fr->i++;
    if (i) {
        d = room(e->wb, d, 1);
        *d++ = ',';
    }
    if (pretty) d = put_nl(e->wb, d, e->ind);
    return deep_one(e, d, st, fr->f, fr->kind, fr->base + i * fr->f->size, pretty);
}

/* The one field of a TYJSON_T_ARRAY type (put_unwrapped's job). */
static char *deep_unwrapped(enc *e, char *d, frames *st, const bool pretty) {
    frame *fr = &st->v[st->n - 1];
    const tyjson__bind_field *bf = &fr->p->fields[0];
    const char *base = fr->base;
    fr->i = 1;
    if (omit_action(bf, base)) return put_null(e->wb, d);
    return deep_member(e, d, st, bf, base, pretty);
}

/* Closes the top frame and pops it. */
static char *deep_close(enc *e, char *d, frames *st, const bool pretty) {
    const frame *fr = &st->v[--st->n];
    e->depth--;
    if (fr->what == FR_UNWRAPPED) return d;
    if (pretty) {
        e->ind -= e->indent;
        if (fr->what == FR_ARRAY || fr->any) d = put_nl(e->wb, d, e->ind);
    }
    d = room(e->wb, d, 1);
    *d++ = fr->what == FR_ARRAY ? ']' : '}';
    if (fr->what == FR_OBJECT && e->wb->status != TYJSON_OK) return NULL;
    return d;
}

/* After a failure: each open frame prepends the member or element it was
 * writing, innermost first, as the recursion's unwinding does. */
static void deep_unwind(enc *e, const frames *st) {
    for (usize k = st->n; k-- > 0;) {
        const frame *fr = &st->v[k];
        if (fr->what == FR_ARRAY) path_index(e, fr->i - 1);
        else if (fr->what == FR_OBJECT) path_key(e, fr->p->fields[fr->i - 1].f->name);
    }
}

/* The struct t at base and everything below it, without recursion. */
static TYJSON__NOINLINE char *put_deep(enc *e, char *d, tyjson_struct *t, const char *base,
                                       bool pretty) {
    frames st;
    st.v = st.local;
    st.n = 0;
    st.cap = DEEP_FRAMES;
    st.alc = tyjson__alc_or_libc(e->alc);
    d = deep_open_struct(e, d, &st, t, base, pretty);
    while (d && st.n) {
        const frame *top = &st.v[st.n - 1];
        if (top->i == top->n) d = deep_close(e, d, &st, pretty);
        else if (top->what == FR_OBJECT) d = deep_next_field(e, d, &st, pretty);
        else if (top->what == FR_ARRAY) d = deep_next_elem(e, d, &st, pretty);
        else d = deep_unwrapped(e, d, &st, pretty);
    }
    if (!d) deep_unwind(e, &st);
    if (st.v != st.local) tyjson__free(&st.alc, st.v);
    return d;
}

/* ----------------------------------------------------------------------------
 * MARK: - Driver
 * ------------------------------------------------------------------------- */

/* The first encode of a type, or a type that cannot be prepared: the
 * prepared record, or NULL with the preparation's own error in *st. */
static TYJSON__NOINLINE const tyjson__bind_prep *prepare_slow(tyjson_struct *type,
                                                              tyjson_error *err,
                                                              tyjson_status *st) {
    tyjson_error perr;
    const tyjson__bind_prep *p = tyjson__struct_prep(type, &perr);
    if (p) return p;
    if (perr.code == TYJSON_OK) perr.code = TYJSON_E_INVALID_ARG;
    if (err) *err = perr;
    *st = perr.code;
    return NULL;
}

/* Prepares the type (and every type it reaches), so that the walk's own
 * lookups are single loads; returns its record, handed on to enc_run (an
 * acquire load is not repeated), or NULL with the error in err and *st. */
TYJSON__FORCEINLINE const tyjson__bind_prep *prepare(tyjson_struct *type, const void *in,
                                                     tyjson_error *err, tyjson_status *st) {
    if (!type || !in) {
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        *st = TYJSON_E_INVALID_ARG;
        return NULL;
    }
    const tyjson__bind_prep *p = tyjson__struct_prep(type, NULL);
    if (likely(p != NULL)) return p;
    return prepare_slow(type, err, st);
}

/* Writes the text into a ready wbuf and ends it; fills err on failure.
 * Inline in each entry point: for a small struct the set-up is a good part
 * of the work. A minified top-level object goes straight to its members, as
 * put_struct would after its checks (the type is prepared, depth 1). */
TYJSON__FORCEINLINE tyjson_status enc_run(tyjson__wbuf *wb, tyjson_struct *type,
                                          const tyjson__bind_prep *p, const void *in,
                                          const tyjson_write_options *opts, tyjson_error *err) {
    enc e;
    e.wb = wb;
    e.alc = opts ? opts->alc : NULL;
    e.flags = opts ? opts->flags : 0;
    e.depth = 0;
    e.lits_ok = tyjson__str_noesc_ok(e.flags);
    e.slash = (e.flags & TYJSON_WRITE_ESCAPE_SLASH) != 0;
    e.value_err = false;
    e.path_cut = false;
    e.path_pos = (u32)sizeof(e.path);
    e.indent = (opts && opts->indent) ? opts->indent : 2;
    e.ind = 0;
    e.note[0] = 0;
    char *d;
    if (e.flags & TYJSON_WRITE_PRETTY) {
        d = put_struct_pretty(&e, wb->cur, type, (const char *)in);
    } else if (likely(!(type->flags & TYJSON_T_ARRAY))) {
        e.depth = 1;
        d = put_fields_min(&e, wb->cur, p, (const char *)in);
    } else {
        d = put_struct_min(&e, wb->cur, type, (const char *)in);
    }
    if (d) {
        wb->cur = d;
        if (e.flags & TYJSON_WRITE_NEWLINE_AT_END) tyjson__wbuf_putc(wb, '\n');
    } else if (wb->status == TYJSON_OK) {
        tyjson__wbuf_fail(wb, TYJSON_E_INVALID_ARG); /* cannot happen; be safe */
    }
    tyjson_status st = tyjson__wbuf_finish(wb);
    if (st != TYJSON_OK) report(&e, st, err);
    return st;
}

/* First heap buffer: a rough guess from the top-level struct and its
 * dynamic arrays. JSON runs 3-6 times the size of the C data in the
 * scenarios (strings live outside the structs); guessing high costs only
 * address space, a realloc copies the text. */
static usize enc_estimate(const tyjson_struct *t, const char *in) {
    usize est = t->size;
    for (usize i = 0; i < t->n_fields; i++) {
        const tyjson_field *f = &t->fields[i];
        if (f->shape != TYJSON_SHAPE_DYN || !f->count_at) continue;
        usize n = load_size(in + f->count_at - 1), b;
        if (tyjson__mul_ovf(n, f->size, &b) || tyjson__add_ovf(est, b, &est)) return 0;
    }
    if (tyjson__mul_ovf(est, 8, &est) || est > ((usize)64 << 20)) est = (usize)64 << 20;
    return est;
}

char *tyjson_encode(tyjson_struct *type, const void *in, const tyjson_write_options *opts,
                    size_t *len, tyjson_error *err) {
    if (len) *len = 0;
    tyjson_status pst;
    const tyjson__bind_prep *p = prepare(type, in, err, &pst);
    if (!p) return NULL;
    char tmp[HEAP_TMP];
    tyjson__wbuf wb;
    tyjson__wbuf_init_heap(&wb, opts ? opts->alc : NULL, enc_estimate(type, (const char *)in), tmp,
                           sizeof(tmp));
    if (enc_run(&wb, type, p, in, opts, err) != TYJSON_OK) {
        tyjson__wbuf_release(&wb);
        return NULL;
    }
    char *text = tyjson__wbuf_finish_heap(&wb, len);
    if (err) tyjson__err_ok(err); /* the common NULL without a call */
    return text;
}

size_t tyjson_encode_buf(tyjson_struct *type, const void *in, char *out, size_t cap,
                         const tyjson_write_options *opts, tyjson_error *err) {
    if (!out && cap) { /* NULL with cap 0 measures; NULL with room is a bug */
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return 0;
    }
    tyjson_status pst;
    const tyjson__bind_prep *p = prepare(type, in, err, &pst);
    if (!p) return 0;
    char tmp[CHUNK];
    tyjson__wbuf wb;
    tyjson__wbuf_init_fixed(&wb, out, cap, tmp, sizeof(tmp));
    if (enc_run(&wb, type, p, in, opts, err) != TYJSON_OK) return 0;
    usize n = tyjson__wbuf_size(&wb);
    if (tyjson__wbuf_overflowed(&wb)) {
        tyjson__err_set(err, TYJSON_E_BUF_TOO_SMALL, NULL, 0, 0);
        return n;
    }
    if (err) tyjson__err_ok(err); /* the common NULL without a call */
    return n;
}

bool tyjson_encode_fp(FILE *fp, tyjson_struct *type, const void *in,
                      const tyjson_write_options *opts, tyjson_error *err) {
    if (!fp) {
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return false;
    }
    tyjson_status pst;
    const tyjson__bind_prep *p = prepare(type, in, err, &pst);
    if (!p) return false;
    char tmp[CHUNK];
    tyjson__wbuf wb;
    tyjson__wbuf_init_fp(&wb, fp, tmp, sizeof(tmp));
    if (enc_run(&wb, type, p, in, opts, err) != TYJSON_OK) return false;
    if (err) tyjson__err_ok(err); /* the common NULL without a call */
    return true;
}

bool tyjson_encode_cb(tyjson_write_fn fn, void *ctx, tyjson_struct *type, const void *in,
                      const tyjson_write_options *opts, tyjson_error *err) {
    if (!fn) {
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return false;
    }
    tyjson_status pst;
    const tyjson__bind_prep *p = prepare(type, in, err, &pst);
    if (!p) return false;
    char tmp[CHUNK];
    tyjson__wbuf wb;
    tyjson__wbuf_init_cb(&wb, fn, ctx, tmp, sizeof(tmp));
    if (enc_run(&wb, type, p, in, opts, err) != TYJSON_OK) return false;
    if (err) tyjson__err_ok(err); /* the common NULL without a call */
    return true;
}

/* ----------------------------------------------------------------------------
 * MARK: - Reusable buffer
 * ------------------------------------------------------------------------- */

TYJSON__FIRST_USE
void tyjson_buf_init(tyjson_buf *buf, const tyjson_alloc *alc) {
    if (!buf) return;
    buf->data = NULL;
    buf->len = 0;
    buf->cap = 0;
    buf->alc = tyjson__alc_or_libc(alc);
}

void tyjson_buf_clear(tyjson_buf *buf) {
    if (!buf) return;
    buf->len = 0;
    if (buf->data) buf->data[0] = '\0';
}

void tyjson_buf_free(tyjson_buf *buf) {
    if (!buf) return;
    tyjson__free(&buf->alc, buf->data);
    buf->data = NULL;
    buf->len = 0;
    buf->cap = 0;
}

tyjson_status tyjson_encode_append(tyjson_buf *buf, tyjson_struct *type, const void *in,
                                   const tyjson_write_options *opts, tyjson_error *err) {
    if (!buf || (!buf->data && buf->len) || buf->len > buf->cap) {
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return TYJSON_E_INVALID_ARG;
    }
    tyjson_status st;
    const tyjson__bind_prep *p = prepare(type, in, err, &st);
    if (!p) return st;
    char tmp[HEAP_TMP];
    tyjson__wbuf wb;
    if (!buf->data) {
        if (!buf->alc.malloc) buf->alc = tyjson__libc_alloc; /* zero-initialised buf */
        tyjson__wbuf_init_heap(&wb, &buf->alc, enc_estimate(type, (const char *)in), tmp,
                               sizeof(tmp));
        if (wb.status != TYJSON_OK) {
            tyjson__err_set(err, wb.status, NULL, 0, 0);
            return wb.status;
        }
    } else {
        tyjson__wbuf_init_heap_at(&wb, &buf->alc, buf->data, buf->cap, buf->len, tmp, sizeof(tmp));
    }
    st = enc_run(&wb, type, p, in, opts, err);
    /* The block may have moved even when the encode failed. */
    buf->data = wb.buf;
    buf->cap = wb.cap;
    if (st != TYJSON_OK) {
        if (buf->data) buf->data[buf->len] = '\0'; /* drop the partial text */
        return st;
    }
    buf->len = tyjson__wbuf_size(&wb);
    if (err) tyjson__err_ok(err); /* the common NULL without a call */
    return TYJSON_OK;
}
