/*
 * bind_gen.h - the binding's property test, shared by the ctest
 * (tests/test_bind_roundtrip.c, a fixed seed) and the libFuzzer target
 * (fuzz/fuzz_roundtrip.c, input bytes drive every choice).
 *
 * One round: build random descriptors at run time (1-3 nested types; every
 * kind, shape ONE/FIXED/DYN, flags REQUIRED NULLABLE OMIT_EMPTY WRITE_NULL
 * EPOCH_NUMBER, presence and state members, defaults, aliases, STRUCT and
 * PTR members, self-recursive pointers, TYJSON_T_ARRAY types), prepare them
 * (a refused combination is counted and skipped), fill a struct with random
 * values inside each kind's valid range, then for minified and pretty
 * output check that encode -> decode gives an equal struct (compared by
 * descriptor) and that encoding the decoded struct gives the same text.
 * A failure prints the text and aborts.
 *
 * Everything is a header of static functions so that each includer gets
 * its own copy; no state outside bg_round().
 */
#ifndef TYJSON_BIND_GEN_H
#define TYJSON_BIND_GEN_H

#include "tyjson.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ----------------------------------------------------------------------------
 * Choices: from a byte string (fuzzer) or a PRNG (ctest)
 * ------------------------------------------------------------------------- */
typedef struct bg_src {
    const uint8_t *p;
    size_t n;
    uint64_t rng; /* used when p is NULL */
    bool inf_nan; /* this round writes and reads NaN and infinities */
} bg_src;

static uint32_t bg_u32(bg_src *s) {
    if (s->p) {
        uint32_t v = 0;
        for (int i = 0; i < 4; i++) {
            v <<= 8;
            if (s->n) {
                v |= *s->p++;
                s->n--;
            }
        }
        return v;
    }
    s->rng ^= s->rng << 13;
    s->rng ^= s->rng >> 7;
    s->rng ^= s->rng << 17;
    return (uint32_t)(s->rng >> 16);
}
static uint64_t bg_u64(bg_src *s) { return (uint64_t)bg_u32(s) << 32 | bg_u32(s); }
/* 0..n-1 */
static uint32_t bg_pick(bg_src *s, uint32_t n) { return n ? bg_u32(s) % n : 0; }
/* true with probability pct/100 */
static bool bg_chance(bg_src *s, uint32_t pct) { return bg_pick(s, 100) < pct; }

/* ----------------------------------------------------------------------------
 * Run-time schemas
 * ------------------------------------------------------------------------- */
#define BG_TYPES 4
#define BG_FIELDS 8
#define BG_DEPTH 3 /* of the values filled in (self-recursive pointers stop) */

typedef struct bg_schema {
    tyjson_struct types[BG_TYPES];
    tyjson_field fields[BG_TYPES][BG_FIELDS];
    size_t n_types;
} bg_schema;

typedef struct bg_stats {
    unsigned long rounds, refused, checked, fields;
} bg_stats;

static const tyjson_enum_entry bg_enums[] = {
    {"red", 1}, {"green", -2}, {"blue", 100}, {"", 0}, {"caf\xc3\xa9", 7}};
static const char *const bg_aliases[] = {"alias_a", "alias_b", NULL};

static tyjson_status bg_hex_decode(void *ctx, const tyjson_val *val, void *member, tyjson_arena *a) {
    (void)ctx;
    if (!tyjson_is_str(val) || tyjson_get_len(val) == 0 || tyjson_get_len(val) > 16) {
        tyjson_codec_fail(a, "hex codec: expected 1-16 hex digits");
        return TYJSON_E_TYPE;
    }
    const char *s = tyjson_get_str(val);
    uint64_t v = 0;
    for (size_t i = 0; i < tyjson_get_len(val); i++) {
        int c = (unsigned char)s[i];
        int h = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (h < 0) return TYJSON_E_TYPE;
        v = v * 16 + (uint64_t)h;
    }
    memcpy(member, &v, sizeof(v));
    return TYJSON_OK;
}
static tyjson_status bg_hex_encode(void *ctx, const void *member, tyjson_write_fn write, void *wctx) {
    uint64_t v;
    char buf[24];
    (void)ctx;
    memcpy(&v, member, sizeof(v));
    int n = snprintf(buf, sizeof(buf), "\"%llx\"", (unsigned long long)v);
    return write(wctx, buf, (size_t)n) ? TYJSON_E_CALLBACK : TYJSON_OK;
}
static const tyjson_codec bg_hex = {bg_hex_decode, bg_hex_encode, NULL};

static const tyjson_kind bg_kinds[] = {
    TYJSON_K_BOOL, TYJSON_K_I8, TYJSON_K_I16, TYJSON_K_I32, TYJSON_K_I64, TYJSON_K_U8,
    TYJSON_K_U16, TYJSON_K_U32, TYJSON_K_U64, TYJSON_K_F32, TYJSON_K_F64, TYJSON_K_STR,
    TYJSON_K_CSTR, TYJSON_K_CHARS, TYJSON_K_ENUM, TYJSON_K_STRUCT, TYJSON_K_PTR,
    TYJSON_K_DATE, TYJSON_K_DATETIME, TYJSON_K_EPOCH_MS, TYJSON_K_EPOCH_NS, TYJSON_K_VALUE,
    TYJSON_K_RAW, TYJSON_K_CUSTOM};

static size_t bg_elem_size(tyjson_kind k, bg_src *s, const tyjson_struct *sub) {
    switch (k) {
    case TYJSON_K_BOOL: return sizeof(bool);
    case TYJSON_K_I8: case TYJSON_K_U8: return 1;
    case TYJSON_K_I16: case TYJSON_K_U16: return 2;
    case TYJSON_K_I32: case TYJSON_K_U32: case TYJSON_K_F32: return 4;
    case TYJSON_K_STR: case TYJSON_K_RAW: return sizeof(tyjson_str);
    case TYJSON_K_CHARS: return 1 + bg_pick(s, 8);
    case TYJSON_K_ENUM: return (size_t)1 << bg_pick(s, 4);
    case TYJSON_K_STRUCT: return sub->size;
    case TYJSON_K_DATE: return sizeof(tyjson_date);
    case TYJSON_K_DATETIME: return sizeof(tyjson_datetime);
    case TYJSON_K_CSTR: case TYJSON_K_PTR: case TYJSON_K_VALUE: return sizeof(void *);
    default: return 8; /* I64 U64 F64 EPOCH_* CUSTOM */
    }
}

static size_t bg_round8(size_t n) { return (n + 7) & ~(size_t)7; }

static const char *const bg_dates[] = {"2000-01-02", "0000-01-01", "9999-12-31", "2024-02-29"};
static const char *const bg_datetimes[] = {"2000-01-02T03:04:05.5+01:00", "1970-01-01T00:00:00Z",
                                           "9999-12-31T23:59:59.999999999-14:00"};
static const char *const bg_strs[] = {"none", "", "q\"uote\\", "\xe2\x82\xac", "tab\t/"};
static const char *const bg_raws[] = {"[1]", "{\"a\":null}", "\"s\"", "-0.5", "true"};

static void bg_default(tyjson_field *f, bg_src *s) {
    switch (f->kind) {
    case TYJSON_K_BOOL: f->dflt.b = bg_chance(s, 50); break;
    case TYJSON_K_I8: case TYJSON_K_U8: f->dflt.i = bg_pick(s, 100); break;
    case TYJSON_K_I16: case TYJSON_K_I32: case TYJSON_K_I64: f->dflt.i = (int64_t)bg_pick(s, 2000) - 1000; break;
    case TYJSON_K_U16: case TYJSON_K_U32: case TYJSON_K_U64: f->dflt.u = bg_pick(s, 60000); break;
    case TYJSON_K_F32: case TYJSON_K_F64: f->dflt.f = (double)bg_pick(s, 1000) / 8 - 60; break;
    case TYJSON_K_EPOCH_MS: case TYJSON_K_EPOCH_NS: f->dflt.i = (int64_t)bg_u32(s) * 1000 - 123; break;
    case TYJSON_K_ENUM: f->dflt.i = bg_enums[bg_pick(s, 5)].value; break;
    case TYJSON_K_STR: case TYJSON_K_CSTR: f->dflt.s = bg_strs[bg_pick(s, 5)]; break;
    case TYJSON_K_CHARS: f->dflt.s = f->size > 4 ? "abcd" : ""; break;
    case TYJSON_K_RAW: f->dflt.s = bg_raws[bg_pick(s, 5)]; break;
    case TYJSON_K_DATE: f->dflt.s = bg_dates[bg_pick(s, 4)]; break;
    case TYJSON_K_DATETIME: f->dflt.s = bg_datetimes[bg_pick(s, 3)]; break;
    default: return; /* no default for the others */
    }
    f->has_default = true;
}

static const char *const bg_names[] = {"a", "bb", "ccc", "key_d", "e\"q", "f\xc3\xbc", "g/h", "with space",
                                       "k", "a_very_long_key_name_past_16"};

/* Type ti's fields; members packed at 8-byte slots after the fields' own. */
static void bg_build_type(bg_schema *sc, size_t ti, bg_src *s) {
    tyjson_struct *t = &sc->types[ti];
    tyjson_field *fs = sc->fields[ti];
    bool array_type = ti > 0 && bg_chance(s, 15);
    size_t nf = array_type ? 1 : bg_pick(s, BG_FIELDS + 1);
    size_t off = 0, rot = bg_pick(s, 10);
    for (size_t i = 0; i < nf; i++) {
        tyjson_field *f = &fs[i];
        memset(f, 0, sizeof(*f));
        tyjson_kind k = bg_kinds[bg_pick(s, sizeof(bg_kinds) / sizeof(bg_kinds[0]))];
        /* nested types come later in the list (no infinite by-value nesting);
         * pointers may also point back, to this type or an earlier one */
        if (k == TYJSON_K_STRUCT && ti + 1 >= sc->n_types) k = TYJSON_K_I32;
        if (k == TYJSON_K_STRUCT) f->type = &sc->types[ti + 1 + bg_pick(s, (uint32_t)(sc->n_types - ti - 1))];
        if (k == TYJSON_K_PTR) f->type = &sc->types[bg_pick(s, (uint32_t)sc->n_types)];
        f->name = bg_names[(i + rot) % 10]; /* distinct: i < BG_FIELDS < 10 */
        f->kind = k;
        f->size = bg_elem_size(k, s, f->type);
        if (k == TYJSON_K_ENUM) {
            f->enums = bg_enums;
            f->n_enums = 5;
        }
        if (k == TYJSON_K_CUSTOM) f->codec = &bg_hex;
        uint32_t shape = array_type ? 1 + bg_pick(s, 2) : bg_pick(s, 100) < 70 ? 0 : 1 + bg_pick(s, 2);
        f->shape = (tyjson_shape)shape;
        off = bg_round8(off);
        f->offset = off;
        if (shape == TYJSON_SHAPE_FIXED) {
            f->capacity = 1 + bg_pick(s, 4);
            off += f->size * f->capacity;
        } else if (shape == TYJSON_SHAPE_DYN) {
            off += sizeof(void *);
        } else {
            off += f->size;
        }
        if (shape != TYJSON_SHAPE_ONE) {
            off = bg_round8(off);
            f->count_at = off + 1;
            off += sizeof(size_t);
        }
        if (!array_type) {
            uint32_t fl = 0;
            /* rare enough that most schemas of several fields prepare */
            if (bg_chance(s, 5)) fl |= TYJSON_F_REQUIRED;
            if (bg_chance(s, 30)) fl |= TYJSON_F_NULLABLE;
            if (bg_chance(s, 20)) fl |= TYJSON_F_OMIT_EMPTY;
            if (bg_chance(s, 12)) fl |= TYJSON_F_WRITE_NULL;
            if (bg_chance(s, 50)) fl |= TYJSON_F_EPOCH_NUMBER;
            f->flags = fl;
            if (bg_chance(s, 12)) {
                f->present_at = off + 1;
                off += 1;
            } else if (bg_chance(s, 15)) {
                f->state_at = off + 1;
                off += 1;
            }
            if (shape == TYJSON_SHAPE_ONE && bg_chance(s, 20)) bg_default(f, s);
            if (bg_chance(s, 10) && i == 0) f->aliases = bg_aliases;
        }
        f->end_ = 0;
    }
    t->name = "bg_type";
    t->size = bg_round8(off ? off : 1);
    t->fields = fs;
    t->n_fields = nf;
    t->flags = (array_type ? TYJSON_T_ARRAY : 0) | (bg_chance(s, 20) ? TYJSON_T_DUPLICATE_ERROR : 0) |
               (bg_chance(s, 20) ? TYJSON_T_UNKNOWN_ERROR : 0);
    t->prepared = NULL;
}

/* Types are built last to first, so that a STRUCT member knows its size. */
static void bg_build(bg_schema *sc, bg_src *s) {
    memset(sc, 0, sizeof(*sc));
    sc->n_types = 1 + bg_pick(s, BG_TYPES);
    for (size_t ti = sc->n_types; ti-- > 0;) bg_build_type(sc, ti, s);
}

static void bg_release(bg_schema *sc) {
    for (size_t i = 0; i < sc->n_types; i++) tyjson_struct_release(&sc->types[i]);
}

/* ----------------------------------------------------------------------------
 * Random values within each kind's range
 * ------------------------------------------------------------------------- */
static char *bg_text(bg_src *s, tyjson_arena *a, size_t *len, bool allow_nul) {
    static const char *const pieces[] = {"a", "Z", " ", "\"", "\\", "/", "\n", "\x01", "\x1f", "\x7f",
                                         "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xef\xbf\xbf",
                                         "\xe2\x80\xa8", "<", "0"};
    size_t n = bg_pick(s, 6), k = 0;
    char *buf = (char *)tyjson_arena_alloc(a, n * 4 + 2, 1);
    for (size_t i = 0; i < n; i++) {
        if (allow_nul && bg_chance(s, 5)) {
            buf[k++] = 0;
            continue;
        }
        const char *p = pieces[bg_pick(s, sizeof(pieces) / sizeof(pieces[0]))];
        memcpy(buf + k, p, strlen(p));
        k += strlen(p);
    }
    buf[k] = 0;
    *len = k;
    return buf;
}

static void bg_random_date(bg_src *s, tyjson_date *d) {
    static const uint8_t dim[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    d->year = (int32_t)bg_pick(s, 10000);
    d->month = (uint8_t)(1 + bg_pick(s, 12));
    uint32_t days = dim[d->month - 1];
    bool leap = (d->year % 4 == 0 && d->year % 100 != 0) || d->year % 400 == 0;
    if (d->month == 2 && leap) days = 29;
    d->day = (uint8_t)(1 + bg_pick(s, days));
}

static double bg_double(bg_src *s) {
    static const double specials[] = {0.0, -0.0, 1.0, -1.5, 1e300, -1e-300, 4.9e-324, 0.1, 1e21, 123456789.0};
    if (s->inf_nan && bg_chance(s, 10)) {
        uint32_t k = bg_pick(s, 3);
        return k == 0 ? (double)NAN : k == 1 ? (double)INFINITY : -(double)INFINITY;
    }
    if (bg_chance(s, 40)) return specials[bg_pick(s, 10)];
    uint64_t bits = bg_u64(s);
    double v;
    memcpy(&v, &bits, 8);
    if (v != v || v - v != 0) return s->inf_nan ? v : 2.5; /* written only with the INF_NAN flags */
    return v;
}

static float bg_float(bg_src *s) {
    uint32_t bits = bg_u32(s);
    float v;
    memcpy(&v, &bits, 4);
    if (v != v || v - v != 0) return s->inf_nan ? v : -3.75f;
    return v;
}

static tyjson_val *bg_value(bg_src *s, tyjson_arena *a, bool not_null) {
    static const char *const texts[] = {"null", "0", "-12", "1.5e300", "\"x\\u0000y\"", "[]", "{}",
                                        "[1,[2,{\"k\":[true,false]}]]", "{\"a\":{\"b\":\"\xc3\xa9\"},\"c\":[]}",
                                        "18446744073709551615", "-9223372036854775808", "0.1"};
    uint32_t n = sizeof(texts) / sizeof(texts[0]);
    const char *t = not_null ? texts[1 + bg_pick(s, n - 1)] : texts[bg_pick(s, n)];
    tyjson_alloc alc = tyjson_arena_allocator(a);
    tyjson_read_options o = {0, 0, &alc};
    tyjson_doc *doc = tyjson_read_opts(t, strlen(t), &o, NULL);
    return doc ? tyjson_doc_get_root(doc) : NULL;
}

static void bg_fill_struct(const tyjson_struct *t, char *base, bg_src *s, tyjson_arena *a, int depth);

/* What the decoder leaves for an absent key: zero, or the default. */
static void bg_absent(const tyjson_field *f, char *m) {
    memset(m, 0, f->shape == TYJSON_SHAPE_FIXED ? f->size * f->capacity
                 : f->shape == TYJSON_SHAPE_DYN ? sizeof(void *) : f->size);
    if (!f->has_default) return;
    switch (f->kind) {
    case TYJSON_K_BOOL: memcpy(m, &f->dflt.b, sizeof(bool)); break;
    case TYJSON_K_I8: case TYJSON_K_U8: *(uint8_t *)m = (uint8_t)f->dflt.u; break;
    case TYJSON_K_I16: case TYJSON_K_U16: { uint16_t v = (uint16_t)f->dflt.u; memcpy(m, &v, 2); break; }
    case TYJSON_K_I32: case TYJSON_K_U32: { uint32_t v = (uint32_t)f->dflt.u; memcpy(m, &v, 4); break; }
    case TYJSON_K_I64: case TYJSON_K_U64: case TYJSON_K_EPOCH_MS: case TYJSON_K_EPOCH_NS:
        memcpy(m, &f->dflt.u, 8);
        break;
    case TYJSON_K_ENUM: memcpy(m, &f->dflt.i, f->size); break; /* little-endian */
    case TYJSON_K_F32: { float v = (float)f->dflt.f; memcpy(m, &v, 4); break; }
    case TYJSON_K_F64: memcpy(m, &f->dflt.f, 8); break;
    case TYJSON_K_STR: case TYJSON_K_RAW: {
        tyjson_str v = {f->dflt.s, strlen(f->dflt.s)};
        memcpy(m, &v, sizeof(v));
        break;
    }
    case TYJSON_K_CSTR: { const char *v = f->dflt.s; memcpy(m, &v, sizeof(v)); break; }
    case TYJSON_K_CHARS: memcpy(m, f->dflt.s, strlen(f->dflt.s) + 1); break;
    case TYJSON_K_DATE: tyjson_date_parse(f->dflt.s, strlen(f->dflt.s), (tyjson_date *)(void *)m); break;
    case TYJSON_K_DATETIME:
        tyjson_datetime_parse(f->dflt.s, strlen(f->dflt.s), (tyjson_datetime *)(void *)m);
        break;
    default: break;
    }
}

/* One random value of f's kind at m. `element`: inside an array, where
 * nothing is left out (no NULL strings or values, no zero dates). `state`:
 * the member of a field in the SET state. */
static void bg_fill_one(const tyjson_field *f, char *m, bg_src *s, tyjson_arena *a, int depth,
                        bool element, bool state) {
    uint64_t r = bg_u64(s);
    bool omit = (f->flags & TYJSON_F_OMIT_EMPTY) && !element && !state;
    bool can_null = !element && !state && (f->flags & (TYJSON_F_NULLABLE | TYJSON_F_WRITE_NULL)) &&
                    !f->has_default;
    switch (f->kind) {
    case TYJSON_K_BOOL: *(bool *)(void *)m = r & 1; break;
    case TYJSON_K_I8: case TYJSON_K_U8: case TYJSON_K_I16: case TYJSON_K_U16:
    case TYJSON_K_I32: case TYJSON_K_U32: case TYJSON_K_I64: case TYJSON_K_U64:
    case TYJSON_K_CUSTOM: case TYJSON_K_EPOCH_NS:
        if (bg_chance(s, 30)) r = bg_chance(s, 50) ? 0 : ~(uint64_t)0 >> bg_pick(s, 64);
        memcpy(m, &r, f->size);
        break;
    case TYJSON_K_EPOCH_MS: {
        int64_t v = (int64_t)r;
        if (!(f->flags & TYJSON_F_EPOCH_NUMBER)) {
            const int64_t lo = -62167219200000LL, span = 253402300800000LL - lo;
            v = lo + (int64_t)(r % (uint64_t)span);
            if (bg_chance(s, 10)) v = bg_chance(s, 50) ? lo : lo + span - 1;
        }
        memcpy(m, &v, 8);
        break;
    }
    case TYJSON_K_F32: { float v = bg_float(s); memcpy(m, &v, 4); break; }
    case TYJSON_K_F64: { double v = bg_double(s); memcpy(m, &v, 8); break; }
    case TYJSON_K_STR: {
        tyjson_str v = {NULL, 0};
        if (!((can_null || omit) && bg_chance(s, 30))) v.ptr = bg_text(s, a, &v.len, true);
        if (omit && v.len == 0) v.ptr = NULL; /* empty: left out, read back NULL */
        memcpy(m, &v, sizeof(v));
        break;
    }
    case TYJSON_K_CSTR: {
        size_t n = 0;
        char *v = (can_null || omit) && bg_chance(s, 30) ? NULL : bg_text(s, a, &n, false);
        if (omit && n == 0) v = NULL; /* empty: left out, read back NULL */
        memcpy(m, &v, sizeof(v));
        break;
    }
    case TYJSON_K_CHARS: {
        memset(m, 0, f->size);
        size_t n = bg_pick(s, (uint32_t)f->size);
        for (size_t i = 0; i < n; i++) m[i] = (char)('a' + bg_pick(s, 26));
        break;
    }
    case TYJSON_K_ENUM: {
        int64_t v = bg_enums[bg_pick(s, 5)].value;
        memcpy(m, &v, f->size); /* little-endian: the low bytes */
        break;
    }
    case TYJSON_K_STRUCT: bg_fill_struct(f->type, m, s, a, depth + 1); break;
    case TYJSON_K_PTR: {
        char *p = NULL;
        if (depth < BG_DEPTH && (state || bg_chance(s, 70))) {
            p = (char *)tyjson_arena_alloc(a, f->type->size, 16);
            bg_fill_struct(f->type, p, s, a, depth + 1);
        }
        memcpy(m, &p, sizeof(p));
        break;
    }
    case TYJSON_K_DATE: case TYJSON_K_DATETIME: {
        tyjson_datetime dt;
        memset(&dt, 0, sizeof(dt));
        /* the zero date is the absent one: fine for a single member
         * without a default (left out, read back zero) */
        bool zero_ok = !element && !state && !f->has_default && !f->present_at &&
                       !(f->flags & TYJSON_F_REQUIRED);
        if (!(zero_ok && bg_chance(s, 20))) {
            bg_random_date(s, &dt.date);
            dt.hour = (uint8_t)bg_pick(s, 24);
            dt.minute = (uint8_t)bg_pick(s, 60);
            dt.second = (uint8_t)bg_pick(s, 60);
            uint32_t ns = bg_pick(s, 1000000000u);
            dt.nanosecond = bg_chance(s, 30) ? 0 : bg_chance(s, 50) ? ns / 1000000 * 1000000 : ns;
            dt.offset_minutes = (int16_t)((int)bg_pick(s, 2879) - 1439);
        }
        if (f->kind == TYJSON_K_DATE) memcpy(m, &dt.date, sizeof(tyjson_date));
        else memcpy(m, &dt, sizeof(dt));
        break;
    }
    case TYJSON_K_VALUE: {
        /* with a state member null is the NULL state: a SET value is not null */
        tyjson_val *v = omit && bg_chance(s, 30) ? NULL : bg_value(s, a, state);
        memcpy(m, &v, sizeof(v));
        break;
    }
    case TYJSON_K_RAW: {
        tyjson_str v = {NULL, 0};
        if (!(omit && bg_chance(s, 30))) {
            const char *t = bg_raws[bg_pick(s, 5)];
            if (state && strcmp(t, "null") == 0) t = "0";
            v.ptr = t;
            v.len = strlen(t);
        }
        memcpy(m, &v, sizeof(v));
        break;
    }
    default: break;
    }
}

static void bg_fill_field(const tyjson_field *f, char *base, bg_src *s, tyjson_arena *a, int depth) {
    char *m = base + f->offset;
    bool state = f->state_at != 0;
    if (f->state_at) {
        /* a SET pointer is not NULL: none past the depth limit */
        bool deep = f->kind == TYJSON_K_PTR && f->shape == TYJSON_SHAPE_ONE && depth >= BG_DEPTH;
        uint8_t st = (uint8_t)bg_pick(s, deep ? 2 : 3);
        base[f->state_at - 1] = (char)st;
        if (st != TYJSON_STATE_SET) {
            bg_absent(f, m);
            if (st == TYJSON_STATE_NULL) memset(m, 0, f->shape == TYJSON_SHAPE_FIXED ? f->size * f->capacity
                                                       : f->shape == TYJSON_SHAPE_DYN ? sizeof(void *) : f->size);
            if (f->count_at) memset(base + f->count_at - 1, 0, sizeof(size_t));
            return;
        }
    }
    if (f->present_at) {
        bool present = bg_chance(s, 60);
        base[f->present_at - 1] = present;
        if (!present) {
            bg_absent(f, m);
            if (f->count_at) memset(base + f->count_at - 1, 0, sizeof(size_t));
            return;
        }
    }
    if (f->shape == TYJSON_SHAPE_ONE) {
        bg_fill_one(f, m, s, a, depth, false, state);
        return;
    }
    size_t cap = f->shape == TYJSON_SHAPE_FIXED ? f->capacity : 4;
    size_t n = depth >= BG_DEPTH ? 0 : bg_pick(s, (uint32_t)cap + 1);
    char *elems = m;
    if (f->shape == TYJSON_SHAPE_DYN) {
        elems = n ? (char *)tyjson_arena_alloc(a, n * f->size, 16) : NULL;
        memcpy(m, &elems, sizeof(elems));
    } else {
        memset(m, 0, f->size * f->capacity);
    }
    for (size_t i = 0; i < n; i++) bg_fill_one(f, elems + i * f->size, s, a, depth, true, state);
    memcpy(base + f->count_at - 1, &n, sizeof(n));
}

static void bg_fill_struct(const tyjson_struct *t, char *base, bg_src *s, tyjson_arena *a, int depth) {
    memset(base, 0, t->size);
    for (size_t i = 0; i < t->n_fields; i++) bg_fill_field(&t->fields[i], base, s, a, depth);
}

/* ----------------------------------------------------------------------------
 * Deep comparison by descriptor
 * ------------------------------------------------------------------------- */
static bool bg_same_struct(const tyjson_struct *t, const char *x, const char *y, int depth);

static bool bg_same_json(const char *a, size_t an, const char *b, size_t bn) {
    tyjson_doc *da = tyjson_read_opts(a, an, NULL, NULL), *db = tyjson_read_opts(b, bn, NULL, NULL);
    bool same = da && db && tyjson_equals(tyjson_doc_get_root(da), tyjson_doc_get_root(db));
    tyjson_doc_free(da);
    tyjson_doc_free(db);
    return same;
}

static bool bg_same_one(const tyjson_field *f, const char *x, const char *y, int depth) {
    switch (f->kind) {
    case TYJSON_K_STR: {
        tyjson_str a, b;
        memcpy(&a, x, sizeof(a));
        memcpy(&b, y, sizeof(b));
        if ((a.ptr == NULL) != (b.ptr == NULL) && (f->flags & (TYJSON_F_NULLABLE | TYJSON_F_WRITE_NULL)) &&
            !f->state_at)
            return false; /* null and "" are two values there */
        return a.len == b.len && (!a.len || memcmp(a.ptr, b.ptr, a.len) == 0);
    }
    case TYJSON_K_RAW: {
        tyjson_str a, b;
        memcpy(&a, x, sizeof(a));
        memcpy(&b, y, sizeof(b));
        if (!a.len || !b.len) return a.len == b.len;
        return bg_same_json(a.ptr, a.len, b.ptr, b.len);
    }
    case TYJSON_K_CSTR: {
        const char *a, *b;
        memcpy(&a, x, sizeof(a));
        memcpy(&b, y, sizeof(b));
        if (!a || !b) return a == b;
        return strcmp(a, b) == 0;
    }
    case TYJSON_K_CHARS: return strncmp(x, y, f->size) == 0;
    case TYJSON_K_STRUCT: return bg_same_struct(f->type, x, y, depth + 1);
    case TYJSON_K_PTR: {
        const char *a, *b;
        memcpy(&a, x, sizeof(a));
        memcpy(&b, y, sizeof(b));
        if (!a || !b) return a == b;
        return bg_same_struct(f->type, a, b, depth + 1);
    }
    case TYJSON_K_VALUE: {
        const tyjson_val *a, *b;
        memcpy(&a, x, sizeof(a));
        memcpy(&b, y, sizeof(b));
        if (!a || !b) return a == b;
        return tyjson_equals(a, b);
    }
    case TYJSON_K_DATE: {
        const tyjson_date *a = (const tyjson_date *)(const void *)x, *b = (const tyjson_date *)(const void *)y;
        return a->year == b->year && a->month == b->month && a->day == b->day;
    }
    case TYJSON_K_DATETIME: {
        const tyjson_datetime *a = (const tyjson_datetime *)(const void *)x;
        const tyjson_datetime *b = (const tyjson_datetime *)(const void *)y;
        return a->date.year == b->date.year && a->date.month == b->date.month &&
               a->date.day == b->date.day && a->hour == b->hour && a->minute == b->minute &&
               a->second == b->second && a->nanosecond == b->nanosecond &&
               a->offset_minutes == b->offset_minutes;
    }
    case TYJSON_K_F32: {
        float a, b;
        memcpy(&a, x, 4);
        memcpy(&b, y, 4);
        if (a != a || b != b) return a != a && b != b; /* any NaN reads back as NaN */
        return memcmp(x, y, 4) == 0;
    }
    case TYJSON_K_F64: {
        double a, b;
        memcpy(&a, x, 8);
        memcpy(&b, y, 8);
        if (a != a || b != b) return a != a && b != b;
        return memcmp(x, y, 8) == 0;
    }
    default: return memcmp(x, y, f->size) == 0; /* bits: -0.0 is not 0.0 */
    }
}

/* Names the first member that differs (every difference ends the run). */
static bool bg_differs(const tyjson_field *f, const char *what) {
    fprintf(stderr, "bind_gen: field \"%s\" (kind %d, shape %d, flags 0x%x%s%s%s): %s differs\n", f->name,
            (int)f->kind, (int)f->shape, (unsigned)f->flags, f->present_at ? ", presence" : "",
            f->state_at ? ", state" : "", f->has_default ? ", default" : "", what);
    return false;
}

static bool bg_same_struct(const tyjson_struct *t, const char *x, const char *y, int depth) {
    if (depth > 64) return false;
    for (size_t i = 0; i < t->n_fields; i++) {
        const tyjson_field *f = &t->fields[i];
        if (f->state_at && x[f->state_at - 1] != y[f->state_at - 1]) return bg_differs(f, "the state");
        if (f->present_at && x[f->present_at - 1] != y[f->present_at - 1]) return bg_differs(f, "presence");
        const char *mx = x + f->offset, *my = y + f->offset;
        if (f->shape == TYJSON_SHAPE_ONE) {
            if (!bg_same_one(f, mx, my, depth)) return bg_differs(f, "the value");
            continue;
        }
        size_t nx, ny;
        memcpy(&nx, x + f->count_at - 1, sizeof(nx));
        memcpy(&ny, y + f->count_at - 1, sizeof(ny));
        if (nx != ny) return bg_differs(f, "the count");
        if (f->shape == TYJSON_SHAPE_DYN) {
            const char *px, *py; /* the element pointers held in the members */
            memcpy(&px, mx, sizeof(px));
            memcpy(&py, my, sizeof(py));
            mx = px;
            my = py;
        }
        for (size_t k = 0; k < nx; k++)
            if (!bg_same_one(f, mx + k * f->size, my + k * f->size, depth)) return bg_differs(f, "an element");
    }
    return true;
}

/* ----------------------------------------------------------------------------
 * One round
 * ------------------------------------------------------------------------- */
static void bg_fail(const char *what, const char *text, size_t n, const tyjson_error *e) {
    fprintf(stderr, "bind_gen: %s", what);
    if (e) fprintf(stderr, ": %s (%s) at %s, offset %zu", tyjson_status_name(e->code), e->msg, e->path, e->offset);
    if (text) fprintf(stderr, "\n%.*s", (int)n, text);
    fputc('\n', stderr);
    abort();
}

static void bg_round(bg_src *s, bg_stats *st) {
    bg_schema *sc = (bg_schema *)malloc(sizeof(bg_schema));
    bg_build(sc, s);
    st->rounds++;
    tyjson_struct *root = &sc->types[0];
    tyjson_error e;
    if (tyjson_struct_prepare(root, &e) != TYJSON_OK) {
        if (e.code != TYJSON_E_INVALID_ARG) bg_fail("prepare", NULL, 0, &e);
        st->refused++;
        bg_release(sc);
        free(sc);
        return;
    }
    st->checked++;
    s->inf_nan = bg_chance(s, 20);
    tyjson_write_flags wextra = s->inf_nan ? TYJSON_WRITE_ALLOW_INF_NAN : 0;
    tyjson_decode_options dopts = {0, s->inf_nan ? TYJSON_READ_ALLOW_INF_NAN : 0, 0, NULL};
    st->fields += root->n_fields;
    tyjson_arena a;
    tyjson_arena_init(&a, NULL);
    char *x = (char *)tyjson_arena_alloc(&a, root->size, 16);
    char *y = (char *)tyjson_arena_alloc(&a, root->size, 16);
    char *z = (char *)tyjson_arena_alloc(&a, root->size, 16);
    bg_fill_struct(root, x, s, &a, 0);
    for (int pretty = 0; pretty < 2; pretty++) {
        tyjson_write_options w = {(pretty ? TYJSON_WRITE_PRETTY : 0) | wextra, 0, NULL};
        size_t n1, n2;
        char *t1 = tyjson_encode(root, x, &w, &n1, &e);
        if (!t1) bg_fail("encode of a valid struct failed", NULL, 0, &e);
        if (tyjson_decode(root, y, t1, n1, &a, &dopts, &e) != TYJSON_OK) bg_fail("decode of the encoding", t1, n1, &e);
        if (!bg_same_struct(root, x, y, 0)) bg_fail("decode(encode(x)) != x", t1, n1, NULL);
        char *t2 = tyjson_encode(root, y, &w, &n2, &e);
        if (!t2) bg_fail("encode of the decoded struct failed", t1, n1, &e);
        if (n1 != n2 || memcmp(t1, t2, n1) != 0) bg_fail("encode(decode(text)) != text", t2, n2, NULL);
        if (tyjson_decode(root, z, t2, n2, &a, &dopts, &e) != TYJSON_OK) bg_fail("second decode", t2, n2, &e);
        if (!bg_same_struct(root, y, z, 0)) bg_fail("decode is not stable", t2, n2, NULL);
        free(t1);
        free(t2);
    }
    tyjson_arena_free(&a);
    bg_release(sc);
    free(sc);
}

#endif /* TYJSON_BIND_GEN_H */
