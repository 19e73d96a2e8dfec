/*
 * handwritten.c - the reference of the serialize rows: the C writer an
 * experienced programmer writes by hand for these structs when speed
 * matters, with no library at all. tyjson's encoder is measured against it
 * (issue 12: "encode at least as fast as a hand-written C writer").
 *
 * What it does, as such code does:
 *   - one growing char buffer, kept across calls (steady state: no malloc);
 *     room is checked once per key (with space for a scalar after it) and
 *     once per string (at its worst case, 6 bytes per input byte);
 *   - keys are literals, `"key":` copied with a constant-size memcpy; each
 *     value is followed by ',' and the last ',' of an object or array is
 *     overwritten by its closing bracket;
 *   - integers by two digits at a time from a 200-byte table;
 *   - doubles as an integer scaled by the fewest powers of ten that read
 *     back exactly (checked by one division, exact by IEEE rounding), with
 *     "%.17g" for the rest; floats the same way at float precision, so
 *     3.67f is "3.67". Both round-trip exactly, as tyjson's do;
 *   - strings scanned 8 bytes at a time for '"', '\\' and control bytes,
 *     escaped as JSON requires (\" \\ \b \f \n \r \t, \u00XX). Like most
 *     hand code it trusts its strings to be UTF-8 and does not check them
 *     (tyjson's encoder does).
 * The driver checks its output like every contender's (bench_scen.c): it
 * must read back equal to the scenario file, and JSON0 messages must be the
 * reference bytes.
 *
 * It has no DOM side and no decoder: those cells show n/a.
 */
#include "../peers.h"
#include "scen_fields.h"
#include "scenario_types.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct state {
    char *buf;
    size_t cap;
} state;

/* The output window: [p, end) is room; `s` owns the buffer (NULL for the
 * caller's fixed buffer of JSON0, which cannot grow). */
typedef struct wr {
    char *end;
    state *s;
    bool failed;
} wr;

/* Room after a key for any scalar: a number is at most 24 bytes. */
#define SCALAR_ROOM 32

static char *grow(wr *w, char *p, size_t n) {
    size_t used, cap;
    char *nb;
    if (!w->s || w->failed) {
        w->failed = true;
        return NULL;
    }
    used = (size_t)(p - w->s->buf);
    cap = w->s->cap ? w->s->cap : 4096;
    while (cap - used < n) cap *= 2;
    nb = realloc(w->s->buf, cap);
    if (!nb) {
        w->failed = true;
        return NULL;
    }
    w->s->buf = nb;
    w->s->cap = cap;
    w->end = nb + cap;
    return nb + used;
}

static inline char *need(wr *w, char *p, size_t n) {
    if ((size_t)(w->end - p) >= n) return p;
    return grow(w, p, n);
}

/* A key literal with room for a scalar after it; NULL on failure. */
#define KEY(w, p, lit)                                                         \
    do {                                                                       \
        if (!((p) = need((w), (p), sizeof(lit) - 1 + SCALAR_ROOM))) return NULL; \
        memcpy((p), (lit), sizeof(lit) - 1);                                   \
        (p) += sizeof(lit) - 1;                                                \
    } while (0)

/* ----------------------------------------------------------------------------
 * MARK: - Numbers
 * ------------------------------------------------------------------------- */
static const char digit_pairs[200] = {
    '0','0','0','1','0','2','0','3','0','4','0','5','0','6','0','7','0','8','0','9',
    '1','0','1','1','1','2','1','3','1','4','1','5','1','6','1','7','1','8','1','9',
    '2','0','2','1','2','2','2','3','2','4','2','5','2','6','2','7','2','8','2','9',
    '3','0','3','1','3','2','3','3','3','4','3','5','3','6','3','7','3','8','3','9',
    '4','0','4','1','4','2','4','3','4','4','4','5','4','6','4','7','4','8','4','9',
    '5','0','5','1','5','2','5','3','5','4','5','5','5','6','5','7','5','8','5','9',
    '6','0','6','1','6','2','6','3','6','4','6','5','6','6','6','7','6','8','6','9',
    '7','0','7','1','7','2','7','3','7','4','7','5','7','6','7','7','7','8','7','9',
    '8','0','8','1','8','2','8','3','8','4','8','5','8','6','8','7','8','8','8','9',
    '9','0','9','1','9','2','9','3','9','4','9','5','9','6','9','7','9','8','9','9'};

/* The decimal digits of v, written backwards from the end of a 20-byte
 * scratch, then moved into place. */
static inline char *put_u64(char *p, uint64_t v) {
    char tmp[20];
    char *t = tmp + sizeof(tmp);
    size_t n;
    while (v >= 100) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        t -= 2;
        memcpy(t, digit_pairs + 2 * r, 2);
    }
    if (v >= 10) {
        t -= 2;
        memcpy(t, digit_pairs + 2 * v, 2);
    } else {
        *--t = (char)('0' + v);
    }
    n = (size_t)(tmp + sizeof(tmp) - t);
    memcpy(p, t, n);
    return p + n;
}

static inline char *put_i64(char *p, int64_t v) {
    if (v < 0) {
        *p++ = '-';
        return put_u64(p, 0 - (uint64_t)v);
    }
    return put_u64(p, (uint64_t)v);
}

static const double pow10_tab[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
#define EXACT_INT 9007199254740992.0 /* 2^53 */

/* |m| with k decimals: m / 10^k, as "int.frac" (k >= 1) or "int.0". */
static char *put_scaled(char *p, bool neg, uint64_t m, int k) {
    char digits[24];
    char *end = put_u64(digits, m);
    int n = (int)(end - digits), i;
    if (neg) *p++ = '-';
    if (k == 0) {
        memcpy(p, digits, (size_t)n);
        memcpy(p + n, ".0", 2);
        return p + n + 2;
    }
    if (n <= k) { /* 0.000ddd */
        *p++ = '0';
        *p++ = '.';
        for (i = n; i < k; i++) *p++ = '0';
        memcpy(p, digits, (size_t)n);
        return p + n;
    }
    memcpy(p, digits, (size_t)(n - k));
    p += n - k;
    *p++ = '.';
    memcpy(p, digits + n - k, (size_t)k);
    return p + k;
}

/* The fewest decimals k for which round(|v| * 10^k) / 10^k is v again: the
 * division of two exact doubles is correctly rounded, and so is reading the
 * decimal text back, so both give the same double. */
static char *put_f64(char *p, double v) {
    double a = fabs(v);
    if (!(a <= 1.7976931348623157e308)) return NULL; /* NaN, infinity: not JSON */
    for (int k = 0; k <= 17; k++) {
        double s = a * pow10_tab[k], r;
        if (s >= EXACT_INT) break;
        r = (double)(uint64_t)(s + 0.5);
        if (r / pow10_tab[k] == a) return put_scaled(p, signbit(v), (uint64_t)r, k);
    }
    return p + snprintf(p, SCALAR_ROOM, "%.17g", v);
}

/* The same at float precision: the decimal m / 10^k reads back as f when it
 * lies strictly inside f's rounding interval (half an ulp each side, a
 * quarter below a power of two). For k <= 10 every quantity below is exact
 * in double: |f| * 10^k (24 + 24 significant bits), its distance to the
 * integer m (Sterbenz), and the half ulp times 10^k. */
static char *put_f32(char *p, float f) {
    double a = fabs((double)f), frac;
    int e;
    if (!(a <= 3.4028234663852886e38)) return NULL;
    if (a == 0) return put_scaled(p, signbit(f), 0, 0);
    frac = frexp(a, &e); /* a = frac * 2^e, frac in [0.5, 1) */
    if (e < -125) return p + snprintf(p, SCALAR_ROOM, "%.9g", (double)f); /* subnormal */
    for (int k = 0; k <= 10; k++) {
        double s = a * pow10_tab[k], m, half;
        if (s >= EXACT_INT) break;
        m = (double)(uint64_t)(s + 0.5);
        if (m == 0) continue;
        half = ldexp(pow10_tab[k], e - 25); /* the float ulp is 2^(e - 24) */
        if (m < s && frac == 0.5) half /= 2;
        if ((m > s ? m - s : s - m) < half) return put_scaled(p, signbit(f), (uint64_t)m, k);
    }
    return p + snprintf(p, SCALAR_ROOM, "%.9g", (double)f);
}

/* ----------------------------------------------------------------------------
 * MARK: - Strings
 * ------------------------------------------------------------------------- */
#define ONES 0x0101010101010101ull
#define HIGH 0x8080808080808080ull

/* Nonzero when one of the 8 bytes is '"', '\\' or below 0x20 (the lowest
 * flagged byte is exact; bytes >= 0x80 pass). */
static inline uint64_t esc_mask(uint64_t x) {
    uint64_t m = (x - ONES * 0x20) | ((x ^ (ONES * '"')) - ONES) | ((x ^ (ONES * '\\')) - ONES);
    return m & ~x & HIGH;
}

static const char hex_digits[] = "0123456789abcdef";

static char *put_escaped_byte(char *p, unsigned char c) {
    *p++ = '\\';
    switch (c) {
    case '"': *p++ = '"'; break;
    case '\\': *p++ = '\\'; break;
    case '\b': *p++ = 'b'; break;
    case '\f': *p++ = 'f'; break;
    case '\n': *p++ = 'n'; break;
    case '\r': *p++ = 'r'; break;
    case '\t': *p++ = 't'; break;
    default:
        memcpy(p, "u00", 3);
        p[3] = hex_digits[c >> 4];
        p[4] = hex_digits[c & 15];
        p += 5;
    }
    return p;
}

/* `"..."` with room for what follows (a key or a closing bracket). */
static char *put_str(wr *w, char *p, const char *s, size_t n) {
    const char *end = s + n;
    if (!(p = need(w, p, 6 * n + 2 + SCALAR_ROOM))) return NULL;
    *p++ = '"';
    while (end - s >= 8) {
        uint64_t x, m;
        memcpy(&x, s, 8);
        m = esc_mask(x);
        memcpy(p, &x, 8);
        if (!m) {
            s += 8;
            p += 8;
            continue;
        }
        {
            unsigned i = (unsigned)__builtin_ctzll(m) >> 3;
            p += i;
            s += i;
            p = put_escaped_byte(p, (unsigned char)*s++);
        }
    }
    while (s < end) {
        unsigned char c = (unsigned char)*s++;
        if (c < 0x20 || c == '"' || c == '\\') p = put_escaped_byte(p, c);
        else *p++ = (char)c;
    }
    *p++ = '"';
    return p;
}

/* ----------------------------------------------------------------------------
 * MARK: - Members: KEY then value then ','
 * ------------------------------------------------------------------------- */
#define JKEY(k) "\"" k "\":"

#define PUT_STR(m, k)                                                          \
    KEY(w, p, JKEY(k));                                                        \
    if (!(p = put_str(w, p, v->m.ptr, v->m.len))) return NULL;                 \
    *p++ = ',';
#define PUT_NSTR(m, k)                                                         \
    if (v->m.ptr) {                                                            \
        PUT_STR(m, k)                                                          \
    } else {                                                                   \
        KEY(w, p, JKEY(k) "null,");                                            \
    }
#define PUT_I32(m, k)                                                          \
    KEY(w, p, JKEY(k));                                                        \
    p = put_i64(p, v->m);                                                      \
    *p++ = ',';
#define PUT_I64(m, k) PUT_I32(m, k)
#define PUT_BOOL(m, k)                                                         \
    KEY(w, p, JKEY(k));                                                        \
    if (v->m) {                                                                \
        memcpy(p, "true,", 5);                                                 \
        p += 5;                                                                \
    } else {                                                                   \
        memcpy(p, "false,", 6);                                                \
        p += 6;                                                                \
    }
#define PUT_F64(m, k)                                                          \
    KEY(w, p, JKEY(k));                                                        \
    if (!(p = put_f64(p, v->m))) return NULL;                                  \
    *p++ = ',';
#define PUT_F32(m, k)                                                          \
    KEY(w, p, JKEY(k));                                                        \
    if (!(p = put_f32(p, v->m))) return NULL;                                  \
    *p++ = ',';
#define PUT(kind, m, k) PUT_##kind(m, k)

/* The ',' after the last member or element becomes the closing bracket
 * (every writer below leaves room for one byte after its value). */
static inline char *close_with(char *p, char open, char close) {
    if (p[-1] == open) *p++ = close; /* empty */
    else p[-1] = close;
    return p;
}

static inline char *open_with(wr *w, char *p, char c) {
    if (!(p = need(w, p, SCALAR_ROOM))) return NULL;
    *p++ = c;
    return p;
}

/* ----------------------------------------------------------------------------
 * MARK: - The scenario structs
 * ------------------------------------------------------------------------- */
/* An object of scalar and string members only. */
#define FLAT_OBJECT(name, T, FIELDS)                                           \
    static char *name(wr *w, char *p, const T *v) {                            \
        if (!(p = open_with(w, p, '{'))) return NULL;                          \
        FIELDS(PUT)                                                            \
        return close_with(p, '{', '}');                                        \
    }

FLAT_OBJECT(w_simple, simple_pojo, SIMPLE_POJO_FIELDS)
FLAT_OBJECT(w_pa_user, pa_user, PA_USER_FIELDS)
FLAT_OBJECT(w_kr_name, kr_name, KR_NAME_FIELDS)
FLAT_OBJECT(w_kr_friend, kr_friend, KR_FRIEND_FIELDS)
FLAT_OBJECT(w_kr_image, kr_image, KR_IMAGE_FIELDS)
FLAT_OBJECT(w_boon_simple, boon_simple, BOON_SIMPLE_FIELDS)
FLAT_OBJECT(w_boon_photo, boon_photo, BOON_PHOTO_FIELDS)
FLAT_OBJECT(w_boon_place, boon_place, BOON_PLACE_FIELDS)
FLAT_OBJECT(w_j0_property, struct j0_property, J0_PROPERTY_FIELDS)
FLAT_OBJECT(w_j0_child, j0_child, J0_CHILD_FIELDS)

/* A member that is an object, array element or whole value: then ','. */
#define PUT_VALUE(fn, x)                                                       \
    if (!(p = fn(w, p, (x)))) return NULL;                                     \
    *p++ = ',';

/* `"key":[...],` of n elements written by fn. */
#define PUT_ARRAY(lit, fn, elems, n)                                           \
    KEY(w, p, JKEY(lit) "[");                                                  \
    for (size_t i_ = 0; i_ < (n); i_++) {                                      \
        PUT_VALUE(fn, &(elems)[i_])                                            \
    }                                                                          \
    p = close_with(p, '[', ']');                                               \
    *p++ = ',';

static char *w_jstr(wr *w, char *p, const jstr *v) { return put_str(w, p, v->ptr, v->len); }

static char *w_i32(wr *w, char *p, const int32_t *v) {
    if (!(p = need(w, p, SCALAR_ROOM))) return NULL;
    return put_i64(p, *v);
}

static char *w_nested(wr *w, char *p, const nested_pojo *v) {
    if (!(p = open_with(w, p, '{'))) return NULL;
    NESTED_POJO_FIELDS(PUT)
    KEY(w, p, JKEY("nested"));
    if (v->nested) {
        if (!(p = w_nested(w, p, v->nested)) || !(p = need(w, p, 1))) return NULL;
    } else {
        memcpy(p, "null", 4);
        p += 4;
    }
    *p++ = '}';
    return p;
}

static char *w_date(wr *w, char *p, const date_pojo *v) {
    char d[16], t[32];
    size_t dn = bench_format_date(v->local_date.year, v->local_date.month, v->local_date.day, d);
    size_t tn = bench_format_instant(v->instant_epoch_ms, t);
    if (!dn || !tn || !(p = need(w, p, 64))) return NULL;
    memcpy(p, "{\"localDate\":\"", 14);
    p += 14;
    memcpy(p, d, dn);
    p += dn;
    memcpy(p, "\",\"instant\":\"", 13);
    p += 13;
    memcpy(p, t, tn);
    p += tn;
    memcpy(p, "\"}", 2);
    return p + 2;
}

static char *w_list(wr *w, char *p, const simple_pojo_list *v) {
    if (!(p = open_with(w, p, '['))) return NULL;
    for (size_t i = 0; i < v->n; i++) {
        PUT_VALUE(w_simple, &v->items[i])
    }
    return close_with(p, '[', ']');
}

static char *w_jv(wr *w, char *p, const jv *v) {
    static const char *const lit[] = {"null", "false", "true"};
    switch (v->kind) {
    case JV_NULL:
    case JV_FALSE:
    case JV_TRUE: {
        size_t n = strlen(lit[v->kind]);
        if (!(p = need(w, p, SCALAR_ROOM))) return NULL;
        memcpy(p, lit[v->kind], n);
        return p + n;
    }
    case JV_INT:
        if (!(p = need(w, p, SCALAR_ROOM))) return NULL;
        return put_i64(p, v->u.i);
    case JV_DOUBLE:
        if (!(p = need(w, p, SCALAR_ROOM))) return NULL;
        return put_f64(p, v->u.d);
    case JV_STRING:
        return put_str(w, p, v->u.s.ptr, v->u.s.len);
    case JV_ARRAY:
        if (!(p = open_with(w, p, '['))) return NULL;
        for (size_t i = 0; i < v->u.arr.n; i++) {
            PUT_VALUE(w_jv, &v->u.arr.items[i])
        }
        return close_with(p, '[', ']');
    case JV_OBJECT:
        if (!(p = open_with(w, p, '{'))) return NULL;
        for (size_t i = 0; i < v->u.obj.n; i++) {
            const jv_member *m = &v->u.obj.members[i];
            if (!(p = put_str(w, p, m->key.ptr, m->key.len))) return NULL;
            *p++ = ':';
            PUT_VALUE(w_jv, m->value)
        }
        return close_with(p, '{', '}');
    }
    return NULL;
}

static char *w_pa_photo(wr *w, char *p, const pa_photo *v) {
    if (!(p = open_with(w, p, '{'))) return NULL;
    PA_PHOTO_FIELDS(PUT)
    KEY(w, p, JKEY("author"));
    PUT_VALUE(w_pa_user, &v->author)
    return close_with(p, '{', '}');
}

static char *w_album(wr *w, char *p, const pa_album *v) {
    if (!(p = open_with(w, p, '{'))) return NULL;
    PA_ALBUM_HEAD(PUT)
    KEY(w, p, JKEY("owner"));
    PUT_VALUE(w_pa_user, &v->owner)
    PA_ALBUM_MID(PUT)
    PUT_ARRAY("photos", w_pa_photo, v->photos, v->n_photos)
    return close_with(p, '{', '}');
}

static char *w_kr_user(wr *w, char *p, const kr_user *v) {
    if (!(p = open_with(w, p, '{'))) return NULL;
    KR_USER_HEAD(PUT)
    KEY(w, p, JKEY("name"));
    PUT_VALUE(w_kr_name, &v->name)
    KR_USER_MID(PUT)
    PUT_ARRAY("tags", w_jstr, v->tags, v->n_tags)
    PUT_ARRAY("range", w_i32, v->range, v->n_range)
    PUT_ARRAY("friends", w_kr_friend, v->friends, v->n_friends)
    PUT_ARRAY("images", w_kr_image, v->images, v->n_images)
    KR_USER_TAIL(PUT)
    return close_with(p, '{', '}');
}

static char *w_kudos(wr *w, char *p, const kr_response *v) {
    if (!(p = open_with(w, p, '{'))) return NULL;
    PUT_ARRAY("users", w_kr_user, v->users, v->n_users)
    KR_RESPONSE_TAIL(PUT)
    return close_with(p, '{', '}');
}

static char *w_boon_medium(wr *w, char *p, const boon_medium *v) {
    if (!(p = open_with(w, p, '{'))) return NULL;
    BOON_MEDIUM_HEAD(PUT)
    PUT_ARRAY("languages", w_jstr, v->languages, v->n_languages)
    KEY(w, p, JKEY("photo"));
    PUT_VALUE(w_boon_photo, &v->photo)
    BOON_MEDIUM_MID(PUT)
    PUT_ARRAY("places", w_boon_place, v->places, v->n_places)
    BOON_MEDIUM_TAIL(PUT)
    return close_with(p, '{', '}');
}

static char *w_boon_headers(wr *w, char *p, const boon_headers *v) {
    if (!(p = open_with(w, p, '{'))) return NULL;
    BOON_HEADERS_HEAD(PUT)
    PUT_ARRAY("To", w_jstr, v->to, v->n_to)
    BOON_HEADERS_TAIL(PUT)
    return close_with(p, '{', '}');
}

static char *w_boon_message(wr *w, char *p, const boon_message *v) {
    if (!(p = open_with(w, p, '{'))) return NULL;
    BOON_MESSAGE_HEAD(PUT)
    KEY(w, p, JKEY("headers"));
    PUT_VALUE(w_boon_headers, &v->headers)
    BOON_MESSAGE_TAIL(PUT)
    return close_with(p, '{', '}');
}

static char *w_boon_complex(wr *w, char *p, const boon_complex *v) {
    if (!(p = open_with(w, p, '['))) return NULL;
    for (size_t i = 0; i < v->n_messages; i++) {
        PUT_VALUE(w_boon_message, &v->messages[i])
    }
    return close_with(p, '[', ']');
}

static char *w_j0(wr *w, char *p, const j0_message *v) {
    if (!(p = open_with(w, p, '{'))) return NULL;
    J0_MESSAGE_HEAD(PUT)
    KEY(w, p, JKEY("Property"));
    PUT_VALUE(w_j0_property, &v->property)
    PUT_ARRAY("Childs", w_j0_child, v->childs, 2)
    return close_with(p, '{', '}');
}

/* ----------------------------------------------------------------------------
 * MARK: - Adapter
 * ------------------------------------------------------------------------- */
static void *create(void) { return calloc(1, sizeof(state)); }

static void destroy(void *st) {
    state *s = st;
    free(s->buf);
    free(s);
}

static void release(void *st) { (void)st; }

/* Runs one writer from the start of the state's buffer. */
#define ENCODER(name, fn, T)                                                   \
    static bool name(void *st, const void *in, bench_text *out) {              \
        state *s = st;                                                         \
        wr w = {s->buf + s->cap, s, false};                                    \
        char *p = fn(&w, s->buf, (const T *)in);                               \
        if (!p) return false;                                                  \
        out->data = s->buf;                                                    \
        out->len = (size_t)(p - s->buf);                                       \
        out->priv = NULL;                                                      \
        return true;                                                           \
    }

static char *w_escape(wr *w, char *p, const jstr *v) { return put_str(w, p, v->ptr, v->len); }

ENCODER(enc_simple, w_simple, simple_pojo)
ENCODER(enc_nested, w_nested, nested_pojo)
ENCODER(enc_date, w_date, date_pojo)
ENCODER(enc_list, w_list, simple_pojo_list)
ENCODER(enc_map, w_jv, jv)
ENCODER(enc_escape, w_escape, jstr)
ENCODER(enc_album, w_album, pa_album)
ENCODER(enc_kudos, w_kudos, kr_response)
ENCODER(enc_boon_simple, w_boon_simple, boon_simple)
ENCODER(enc_boon_medium, w_boon_medium, boon_medium)
ENCODER(enc_boon_complex, w_boon_complex, boon_complex)

/* JSON0: straight into the stream buffer, which cannot grow. */
static size_t j0_write(void *st, const void *msg, char *buf, size_t cap) {
    wr w = {buf + cap, NULL, false};
    char *p = w_j0(&w, buf, msg);
    (void)st;
    return p ? (size_t)(p - buf) : 0;
}

void bench_typed_handwritten(bench_typed *t) {
    t->name = "handwritten";
    t->notes = "reference: a hand-written C writer of the scenario structs (bench/peers/handwritten.c): "
               "growing buffer kept across calls, literal keys, scaled-integer doubles, "
               "SWAR string escaping, no UTF-8 check; serialize only";
    t->create = create;
    t->destroy = destroy;
    t->release = release;
    t->encode[BS_SIMPLE] = enc_simple;
    t->encode[BS_NESTED] = enc_nested;
    t->encode[BS_DATE] = enc_date;
    t->encode[BS_LIST] = enc_list;
    t->encode[BS_MAP] = enc_map;
    t->encode[BS_ESCAPE] = enc_escape;
    t->encode[BS_ALBUM] = enc_album;
    t->encode[BS_KUDOS] = enc_kudos;
    t->encode[BS_BOON_SIMPLE] = enc_boon_simple;
    t->encode[BS_BOON_MEDIUM] = enc_boon_medium;
    t->encode[BS_BOON_COMPLEX] = enc_boon_complex;
    t->j0_write = j0_write;
    t->na_default = "reference writer: serialize only";
}
