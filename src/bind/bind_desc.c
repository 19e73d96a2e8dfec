/*
 * bind_desc.c - checks binding descriptors and builds the prepared record
 * of each type (see bind.h): key literals, field bitmaps and a perfect hash
 * of the accepted keys.
 *
 * Preparing a type prepares every type it reaches, each published with a
 * compare-and-swap in its tyjson_struct.prepared: two threads that prepare
 * at once build twice and one copy is dropped. A record is one allocation,
 * freed by tyjson_struct_release (runtime-built descriptors); no record
 * points at another, so releasing one type leaves the others valid.
 */
#include "bind/bind.h"
#include "num/num.h"
#include "write/str_write.h"

#include <stdalign.h>

/* ----------------------------------------------------------------------------
 * Descriptor checks
 * ------------------------------------------------------------------------- */
TYJSON__FIRST_USE
usize tyjson__bind_kind_size(tyjson_kind kind) {
    switch (kind) {
    case TYJSON_K_BOOL: return sizeof(bool);
    case TYJSON_K_I8: case TYJSON_K_U8: return 1;
    case TYJSON_K_I16: case TYJSON_K_U16: return 2;
    case TYJSON_K_I32: case TYJSON_K_U32: return 4;
    case TYJSON_K_I64: case TYJSON_K_U64: return 8;
    case TYJSON_K_F32: return sizeof(float);
    case TYJSON_K_F64: return sizeof(double);
    case TYJSON_K_STR: case TYJSON_K_RAW: return sizeof(tyjson_str);
    case TYJSON_K_CSTR: return sizeof(char *);
    case TYJSON_K_PTR: return sizeof(void *);
    case TYJSON_K_VALUE: return sizeof(tyjson_val *);
    case TYJSON_K_DATE: return sizeof(tyjson_date);
    case TYJSON_K_DATETIME: return sizeof(tyjson_datetime);
    case TYJSON_K_EPOCH_MS: case TYJSON_K_EPOCH_NS: return sizeof(int64_t);
    case TYJSON_K_DECIMAL: return sizeof(tyjson_decimal);
    default: return 0; /* CHARS, ENUM, STRUCT, CUSTOM: checked apart */
    }
}

/* ---- message pieces shared by the decoder and the encoder ---------------- */
void tyjson__note_quoted(char *buf, usize cap, usize *k, const u8 *s, usize n, usize max) {
    usize i = *k;
    if (i + 1 < cap) buf[i++] = '"';
    for (usize j = 0; j < n && j < max && i + 1 < cap; j++)
        buf[i++] = (s[j] >= 0x20 && s[j] < 0x7F && s[j] != '"') ? (char)s[j] : '?';
    if (n > max)
        for (int j = 0; j < 3 && i + 1 < cap; j++) buf[i++] = '.';
    if (i + 1 < cap) buf[i++] = '"';
    *k = i;
}

void tyjson__note_text(char *buf, usize cap, usize *k, const char *t) {
    usize i = *k;
    while (*t && i + 1 < cap) buf[i++] = *t++;
    *k = i;
}

void tyjson__note_enum_names(char *buf, usize cap, usize *k, const tyjson_field *f) {
    tyjson__note_text(buf, cap, k, " (expected one of ");
    for (usize e = 0; e < f->n_enums; e++) {
        const char *en = f->enums[e].name ? f->enums[e].name : "";
        if (*k > TYJSON_ERROR_MSG_MAX - 16) { /* leave room for the end */
            tyjson__note_text(buf, cap, k, "...");
            break;
        }
        if (e) tyjson__note_text(buf, cap, k, ", ");
        tyjson__note_quoted(buf, cap, k, (const u8 *)en, strlen(en), 48);
    }
    tyjson__note_text(buf, cap, k, ")");
}

/* Names the bad field in err->path as "type.key" (or "type.fields[i]"). */
TYJSON__FIRST_USE
static bool bad(tyjson_error *err, const tyjson_struct *t, usize i, const char *why) {
    tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
    if (!err) return false;
    tyjson__err_msg(err, why);
    const char *tn = (t && t->name) ? t->name : "?";
    if (t && t->fields && i < t->n_fields && t->fields[i].name)
        snprintf(err->path, sizeof(err->path), "%s.%s", tn, t->fields[i].name);
    else if (i != (usize)-1)
        snprintf(err->path, sizeof(err->path), "%s.fields[%zu]", tn, i);
    else
        snprintf(err->path, sizeof(err->path), "%s", tn);
    return false;
}

TYJSON__FIRST_USE
static bool fits(usize off, usize n, usize total) { return off <= total && n <= total - off; }

TYJSON__FIRST_USE
static bool int_default_ok(tyjson_kind k, const tyjson_default *d) {
    switch (k) {
    case TYJSON_K_I8: return d->i >= INT8_MIN && d->i <= INT8_MAX;
    case TYJSON_K_I16: return d->i >= INT16_MIN && d->i <= INT16_MAX;
    case TYJSON_K_I32: return d->i >= INT32_MIN && d->i <= INT32_MAX;
    case TYJSON_K_U8: return d->u <= UINT8_MAX;
    case TYJSON_K_U16: return d->u <= UINT16_MAX;
    case TYJSON_K_U32: return d->u <= UINT32_MAX;
    default: return true;
    }
}

/* An enum value fits the member if it fits its width as signed or unsigned. */
TYJSON__FIRST_USE
static bool enum_value_fits(int64_t v, usize size) {
    if (size >= 8) return true;
    int64_t lo = -((int64_t)1 << (size * 8 - 1));
    int64_t hi = ((int64_t)1 << (size * 8)) - 1;
    return v >= lo && v <= hi;
}

TYJSON__FIRST_USE
static bool check_default(const tyjson_field *f, tyjson_error *err, const tyjson_struct *t,
                          usize i) {
    if (f->shape != TYJSON_SHAPE_ONE) return bad(err, t, i, "default value on an array field");
    switch (f->kind) {
    case TYJSON_K_BOOL: case TYJSON_K_F32: case TYJSON_K_F64:
    case TYJSON_K_I64: case TYJSON_K_U64: case TYJSON_K_EPOCH_NS:
        return true;
    case TYJSON_K_EPOCH_MS:
        /* the default is written like any value: as a date-time string
         * unless EPOCH_NUMBER, so within the years that form has */
        if (!(f->flags & TYJSON_F_EPOCH_NUMBER) &&
            (f->dflt.i < TYJSON__EPOCH_MIN_SEC * 1000 || f->dflt.i >= TYJSON__EPOCH_END_SEC * 1000))
            return bad(err, t, i, "default epoch outside years 0000-9999 (use TYJSON_F_EPOCH_NUMBER)");
        return true;
    case TYJSON_K_I8: case TYJSON_K_I16: case TYJSON_K_I32:
    case TYJSON_K_U8: case TYJSON_K_U16: case TYJSON_K_U32:
        if (!int_default_ok(f->kind, &f->dflt))
            return bad(err, t, i, "default value out of range for the member");
        return true;
    case TYJSON_K_ENUM:
        if (!enum_value_fits(f->dflt.i, f->size))
            return bad(err, t, i, "default value out of range for the member");
        for (usize k = 0; k < f->n_enums; k++)
            if (f->enums[k].value == f->dflt.i) return true;
        return bad(err, t, i, "default value is none of the enum's entries");
    case TYJSON_K_STR: case TYJSON_K_CSTR:
        if (!f->dflt.s) return bad(err, t, i, "NULL default string");
        return true;
    case TYJSON_K_RAW: {
        /* written verbatim: it must be one JSON value */
        if (!f->dflt.s) return bad(err, t, i, "NULL default string");
        tyjson_doc *doc = tyjson_read_opts(f->dflt.s, strlen(f->dflt.s), NULL, NULL);
        if (!doc) return bad(err, t, i, "RAW default is not a JSON value");
        tyjson_doc_free(doc);
        return true;
    }
    case TYJSON_K_CHARS:
        if (!f->dflt.s) return bad(err, t, i, "NULL default string");
        if (strlen(f->dflt.s) >= f->size) return bad(err, t, i, "default string too long for char[N]");
        return true;
    case TYJSON_K_DATE: {
        tyjson_date d;
        if (!f->dflt.s || !tyjson_date_parse(f->dflt.s, strlen(f->dflt.s), &d))
            return bad(err, t, i, "default is not a valid date");
        return true;
    }
    case TYJSON_K_DATETIME: {
        tyjson_datetime d;
        if (!f->dflt.s || !tyjson_datetime_parse(f->dflt.s, strlen(f->dflt.s), &d))
            return bad(err, t, i, "default is not a valid date-time");
        return true;
    }
    case TYJSON_K_DECIMAL: {
        tyjson_decimal d;
        if (!f->dflt.s || !tyjson_decimal_parse(f->dflt.s, strlen(f->dflt.s), &d))
            return bad(err, t, i, "default is not a decimal number (TYJSON_DEFAULT_S(\"19.99\"))");
        return true;
    }
    default:
        return bad(err, t, i, "kind takes no default value");
    }
}

/* [off, off + n) and [off2, off2 + n2) share a byte. */
TYJSON__FIRST_USE
static bool overlaps(usize off, usize n, usize off2, usize n2) {
    return off < off2 + n2 && off2 < off + n;
}

/* The bytes field g of t occupies: its member (elements, or the pointer of
 * a DYN array) and its count, presence and state members. */
TYJSON__FIRST_USE
static bool field_overlaps(const tyjson_field *g, usize off, usize n) {
    usize span = g->shape == TYJSON_SHAPE_DYN ? sizeof(void *)
                 : g->shape == TYJSON_SHAPE_FIXED ? g->size * g->capacity : g->size;
    if (overlaps(off, n, g->offset, span)) return true;
    if (g->count_at && overlaps(off, n, g->count_at - 1, sizeof(usize))) return true;
    if (g->present_at && overlaps(off, n, g->present_at - 1, sizeof(bool))) return true;
    return false;
}

/* A state member: inside the struct, alone in its byte. */
TYJSON__FIRST_USE
static bool check_state_member(const tyjson_struct *t, usize i, tyjson_error *err) {
    const tyjson_field *f = &t->fields[i];
    usize at = f->state_at - 1;
    if (!fits(at, sizeof(tyjson_state), t->size))
        return bad(err, t, i, "state member lies outside the struct");
    if (f->present_at) return bad(err, t, i, "state member together with a presence flag");
    if (f->flags & TYJSON_F_REQUIRED) return bad(err, t, i, "state member on a REQUIRED field");
    for (usize j = 0; j < t->n_fields; j++) {
        const tyjson_field *g = &t->fields[j];
        if (field_overlaps(g, at, sizeof(tyjson_state)) ||
            (j != i && g->state_at && g->state_at == f->state_at))
            return bad(err, t, i, "state member overlaps another member");
    }
    return true;
}

/* Flag combinations whose encoding would not decode back to the same
 * struct are refused, so that decode(encode(x)) == x holds for every
 * prepared type (tests/test_bind_roundtrip.c). */
TYJSON__FIRST_USE
static bool check_round_trip(const tyjson_struct *t, usize i, tyjson_error *err) {
    const tyjson_field *f = &t->fields[i];
    u32 fl = f->flags;
    bool omit = (fl & TYJSON_F_OMIT_EMPTY) != 0, wnull = (fl & TYJSON_F_WRITE_NULL) != 0;
    if (omit && f->has_default)
        return bad(err, t, i, "OMIT_EMPTY with a default: an empty member would read back as the default");
    if (omit && (fl & TYJSON_F_REQUIRED))
        return bad(err, t, i, "OMIT_EMPTY on a REQUIRED field: an empty member would read back as a missing key");
    if (f->present_at && (fl & TYJSON_F_REQUIRED))
        return bad(err, t, i, "presence flag on a REQUIRED field: an absent member would read back as a missing key");
    if (f->present_at && omit)
        return bad(err, t, i, "OMIT_EMPTY with a presence flag: the flag already decides whether the key is written");
    if (f->present_at && wnull)
        return bad(err, t, i, "WRITE_NULL with a presence flag: null would read back as present (use a state member)");
    if (wnull && f->has_default)
        return bad(err, t, i, "WRITE_NULL with a default: null would read back as the default");
    if (f->state_at && (omit || wnull))
        return bad(err, t, i, "OMIT_EMPTY or WRITE_NULL with a state member: the state decides what is written");
    if (wnull && (f->kind == TYJSON_K_VALUE || f->kind == TYJSON_K_RAW || f->kind == TYJSON_K_CUSTOM))
        return bad(err, t, i, "WRITE_NULL on a VALUE, RAW or CUSTOM field: null would read back as a value");
    if ((t->flags & TYJSON_T_ARRAY) && (omit || wnull || f->present_at || f->state_at))
        return bad(err, t, i, "the field of a TYJSON_T_ARRAY type is always written: no OMIT_EMPTY, WRITE_NULL, presence or state");
    return true;
}

TYJSON__FIRST_USE
static bool check_field(const tyjson_struct *t, usize i, tyjson_error *err) {
    const tyjson_field *f = &t->fields[i];
    if (!f->name) return bad(err, t, i, "field without a name");
    if (f->kind <= TYJSON_K_NONE || f->kind >= TYJSON__K_COUNT)
        return bad(err, t, i, "invalid field kind");
    if (f->size == 0) return bad(err, t, i, "field size is 0");
    usize want = tyjson__bind_kind_size(f->kind);
    switch (f->kind) {
    case TYJSON_K_ENUM:
        if (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8)
            return bad(err, t, i, "enum member must have size 1, 2, 4 or 8");
        if (!f->enums || f->n_enums == 0) return bad(err, t, i, "enum field without entries");
        for (usize k = 0; k < f->n_enums; k++) {
            if (!f->enums[k].name) return bad(err, t, i, "enum entry without a name");
            if (!enum_value_fits(f->enums[k].value, f->size))
                return bad(err, t, i, "enum value does not fit the member");
            for (usize j = 0; j < k; j++)
                if (strcmp(f->enums[j].name, f->enums[k].name) == 0)
                    return bad(err, t, i, "two enum entries with the same name");
        }
        break;
    case TYJSON_K_STRUCT:
        if (!f->type) return bad(err, t, i, "STRUCT field without .type");
        if (f->size != f->type->size) return bad(err, t, i, "member size differs from .type's size");
        break;
    case TYJSON_K_PTR:
        if (!f->type) return bad(err, t, i, "PTR field without .type");
        break;
    case TYJSON_K_CUSTOM:
        if (!f->codec || !f->codec->decode || !f->codec->encode)
            return bad(err, t, i, "CUSTOM field without a complete .codec");
        break;
    default:
        break;
    }
    if (want && f->size != want) return bad(err, t, i, "member size does not match the kind");
    usize span = f->size;
    switch (f->shape) {
    case TYJSON_SHAPE_ONE:
        break;
    case TYJSON_SHAPE_FIXED:
        if (f->capacity == 0) return bad(err, t, i, "fixed array with capacity 0");
        /* count_at may be 0: then all capacity elements always count */
        if (tyjson__mul_ovf(f->size, f->capacity, &span)) return bad(err, t, i, "fixed array too large");
        break;
    case TYJSON_SHAPE_DYN:
        span = sizeof(void *);
        if (!f->count_at) return bad(err, t, i, "array field without a count member");
        break;
    default:
        return bad(err, t, i, "invalid field shape");
    }
    if (!fits(f->offset, span, t->size)) return bad(err, t, i, "member lies outside the struct");
    if (f->count_at && !fits(f->count_at - 1, sizeof(usize), t->size))
        return bad(err, t, i, "count member lies outside the struct");
    if (f->present_at && !fits(f->present_at - 1, sizeof(bool), t->size))
        return bad(err, t, i, "presence member lies outside the struct");
    if (f->has_default && !check_default(f, err, t, i)) return false;
    if (f->state_at && !check_state_member(t, i, err)) return false;
    return check_round_trip(t, i, err);
}

/* Most pairs differ in their first byte: no call for those. */
TYJSON__FIRST_USE
static bool keys_equal(const char *a, const char *b) {
    return a[0] == b[0] && strcmp(a, b) == 0;
}

TYJSON__FIRST_USE
static bool check_type(const tyjson_struct *t, tyjson_error *err) {
    if (!t->fields && t->n_fields) return bad(err, t, (usize)-1, "fields is NULL");
    if (t->size == 0) return bad(err, t, (usize)-1, "struct size is 0");
    if (t->n_fields > 65535) return bad(err, t, (usize)-1, "more than 65535 fields");
    if (t->flags & TYJSON_T_ARRAY) {
        if (t->n_fields != 1 || t->fields[0].shape == TYJSON_SHAPE_ONE)
            return bad(err, t, (usize)-1, "TYJSON_T_ARRAY type needs exactly one array field");
    }
    usize n_keys = 0;
    for (usize i = 0; i < t->n_fields; i++) {
        if (!check_field(t, i, err)) return false;
        n_keys++;
        const char *const *al = t->fields[i].aliases;
        for (; al && *al; al++) n_keys++;
    }
    if (n_keys > 65535) return bad(err, t, (usize)-1, "more than 65535 keys");
    /* Every key (name or alias) must be unique across the type. Types are
     * small; a quadratic check at prepare time is cheap, and cheaper still
     * without aliases (most types), where names are all the keys. */
    if (n_keys == t->n_fields) {
        for (usize i = 1; i < t->n_fields; i++)
            for (usize j = 0; j < i; j++)
                if (keys_equal(t->fields[i].name, t->fields[j].name))
                    return bad(err, t, i, "two fields or aliases with the same key");
        return true;
    }
    for (usize i = 0; i < t->n_fields; i++) {
        const tyjson_field *f = &t->fields[i];
        const char *const *al = f->aliases;
        for (usize k = 0; !k || (al && al[k - 1]); k++) {
            const char *key = k ? al[k - 1] : f->name;
            for (usize j = 0; j <= i; j++) {
                const tyjson_field *g = &t->fields[j];
                const char *const *bl = g->aliases;
                for (usize m = 0; !m || (bl && bl[m - 1]); m++) {
                    if (j == i && m >= k) break;
                    const char *other = m ? bl[m - 1] : g->name;
                    if (keys_equal(key, other)) return bad(err, t, i, "two fields or aliases with the same key");
                }
            }
        }
    }
    return true;
}

/* ----------------------------------------------------------------------------
 * Key hashing: search for parameters under which every key has its own slot
 * ------------------------------------------------------------------------- */
typedef struct key_in {
    const u8 *name;
    usize len;
} key_in;

TYJSON__FIRST_USE
static bool try_params(tyjson__bind_prep *p, const key_in *keys, u32 n, u16 *table, u32 size) {
    memset(table, 0, size * sizeof(u16));
    for (u32 i = 0; i < n; i++) {
        u32 slot = tyjson__bind_key_hash(p, keys[i].name, keys[i].len) >> p->hash_shift;
        if (!p->probing) {
            if (table[slot]) return false;
        } else {
            while (table[slot]) slot = (slot + 1) & p->mask;
        }
        table[slot] = (u16)(i + 1);
    }
    return true;
}

TYJSON__FIRST_USE
static u32 log2_ceil(u32 n) {
    u32 b = 0;
    while (((u32)1 << b) < n) b++;
    return b;
}

TYJSON__FIRST_USE
static void set_bits(tyjson__bind_prep *p, u32 bits) {
    p->hash_shift = (u8)(32 - bits);
    p->mask = ((u32)1 << bits) - 1;
}

/* The first table size tried: twice the keys' power of two; four times
 * past 8 keys, where a table only twice as large needs dozens of tries (22
 * keys in 64 slots are collision-free for about 1 seed in 37). */
TYJSON__FIRST_USE
static u32 base_bits(u32 n) { return log2_ceil(n ? n : 1) + (n > 8 ? 2 : 1); }

/* Fills p's hash parameters and the table (of 1 << max_bits slots). The
 * first tries use a small table and the cheap sampled hash; keys that
 * agree on length, first and last bytes move the sample point, and
 * failing all that the full-key hash. Very large key sets (hundreds),
 * where a collision-free table would be huge, probe linearly instead. */
TYJSON__FIRST_USE
static void pick_hash(tyjson__bind_prep *p, const key_in *keys, u32 n, u16 *table, u32 max_bits) {
    u32 base = base_bits(n);
    usize maxlen = 0;
    for (u32 i = 0; i < n; i++)
        if (keys[i].len > maxlen) maxlen = keys[i].len;
    u32 seed = 0x9E3779B1u;
    p->probing = false;
    for (u32 bits = base; bits <= base + 3 && bits <= max_bits; bits++) {
        set_bits(p, bits);
        p->hash_mode = TYJSON__KEYHASH_SAMPLE;
        u32 npos = maxlen < 16 ? (u32)maxlen : 16;
        if (npos == 0) npos = 1;
        for (u32 pos = 0; pos < npos; pos++) {
            p->sample_pos = pos;
            for (u32 s = 0; s < 8; s++) {
                p->seed = (seed += 0x6D2B79F6u) | 1u;
                if (try_params(p, keys, n, table, (u32)1 << bits)) return;
            }
        }
        p->hash_mode = TYJSON__KEYHASH_FULL;
        for (u32 s = 0; s < 64; s++) {
            p->seed = (seed += 0x6D2B79F6u) | 1u;
            if (try_params(p, keys, n, table, (u32)1 << bits)) return;
        }
    }
    for (u32 bits = base + 4; bits <= max_bits; bits++) {
        set_bits(p, bits);
        p->hash_mode = TYJSON__KEYHASH_FULL;
        for (u32 s = 0; s < 16; s++) {
            p->seed = (seed += 0x6D2B79F6u) | 1u;
            if (try_params(p, keys, n, table, (u32)1 << bits)) return;
        }
    }
    set_bits(p, base);
    p->hash_mode = TYJSON__KEYHASH_FULL;
    p->seed = 0x2545F491u;
    p->probing = true;
    try_params(p, keys, n, table, (u32)1 << base);
}

/* ----------------------------------------------------------------------------
 * Building one prepared record (one allocation)
 * ------------------------------------------------------------------------- */
TYJSON__FIRST_USE
static usize round8(usize n) { return (n + 7) & ~(usize)7; }

/* Escaped key literal `"key": ` into a temporary heap buffer; NULL on
 * invalid UTF-8 or no memory (status in *st). */
/* Out of line: its 4 KiB scratch must not sit in build()'s frame for the
 * common keys that never need it. */
static TYJSON__NOINLINE char *key_literal(const char *key, usize *len, tyjson_status *st) {
    char tmp[TYJSON__WBUF_RESERVE_MAX];
    tyjson__wbuf wb;
    tyjson__wbuf_init_heap(&wb, NULL, strlen(key) + 8, tmp, sizeof(tmp));
    char *d = tyjson__str_write(&wb, wb.cur, key, strlen(key), 0);
    if (d) {
        d[0] = ':';
        d[1] = ' ';
        tyjson__wbuf_commit(&wb, d + 2);
    }
    *st = tyjson__wbuf_finish(&wb);
    if (*st != TYJSON_OK) {
        tyjson__wbuf_release(&wb);
        return NULL;
    }
    *len = tyjson__wbuf_size(&wb);
    return tyjson__wbuf_take(&wb);
}

TYJSON__FIRST_USE
static u8 op_of(const tyjson_field *f) {
    switch (f->kind) {
    case TYJSON_K_STR: return TYJSON__OP_STR;
    case TYJSON_K_I32: return TYJSON__OP_I32;
    case TYJSON_K_I64: return TYJSON__OP_I64;
    case TYJSON_K_BOOL: return TYJSON__OP_BOOL;
    case TYJSON_K_F64: return TYJSON__OP_F64;
    case TYJSON_K_F32: return TYJSON__OP_F32;
    case TYJSON_K_DATE: return TYJSON__OP_DATE;
    case TYJSON_K_EPOCH_MS: return TYJSON__OP_EPOCH_MS;
    case TYJSON_K_STRUCT: case TYJSON_K_PTR: return TYJSON__OP_NESTED;
    default: return TYJSON__OP_LEAF;
    }
}

/* True if the default escaping writes the key as is: printable ASCII
 * other than '"' and '\\' (most keys). Others go through str_write. */
TYJSON__FIRST_USE
static bool verbatim_key(const char *k) {
    for (const u8 *s = (const u8 *)k; *s; s++)
        if (*s < 0x20 || *s >= 0x7F || *s == '"' || *s == '\\') return false;
    return true;
}

/* Types up to this many fields or keys (and 256 hash slots) need no
 * scratch allocation; the stack frame stays near 1 KiB, since a first
 * decode that grows the stack by a page pays a fault for it. */
#define SMALL 16
#define SMALL_SLOTS 256

/* What build() needs only while it runs: the keys to hash, the escaped
 * literals of the keys that need escaping, every literal's length and the
 * hash table being searched. Small types use the arrays inside (on
 * build()'s stack); larger ones the heap. */
typedef struct build_scratch {
    key_in *kin;
    char **lits;     /* heap literal of field i, or NULL when written as is */
    usize *lit_lens; /* bytes of `"key": ` for field i */
    u16 *table;
    u32 n_lits;      /* lits[0..n_lits) are set (and freed at the end) */
    key_in kin_small[SMALL];
    char *lit_small[SMALL];
    usize len_small[SMALL];
    u16 table_small[SMALL_SLOTS];
} build_scratch;

/* Where each part of the one-block prepared record starts. */
typedef struct prep_layout {
    usize fields, req, dflt, keys, table, lits, total;
} prep_layout;

/* Writable views of the record's parts (the record holds them as const). */
typedef struct prep_parts {
    tyjson__bind_field *fields;
    u64 *req, *dflt;
    tyjson__bind_key *keys;
    char *lits;
} prep_parts;

typedef enum { STEP_OK, STEP_NOMEM, STEP_FAIL } step_result;

/* Counts the keys: every field's name and each of its aliases. */
TYJSON__FIRST_USE
static u32 count_keys(const tyjson_struct *t) {
    u32 nk = 0;
    for (u32 i = 0; i < (u32)t->n_fields; i++) {
        nk++;
        for (const char *const *al = t->fields[i].aliases; al && *al; al++) nk++;
    }
    return nk;
}

/* Table bits: a perfect table of up to 2^16 slots, bounded to 64 slots per
 * key so that small types stay small. */
TYJSON__FIRST_USE
static u32 table_max_bits(u32 nk) {
    u32 max_bits = log2_ceil(nk ? nk : 1) + 6;
    if (max_bits > 16) max_bits = 16;
    if (max_bits < base_bits(nk)) max_bits = base_bits(nk);
    return max_bits;
}

/* Points the scratch at its inline arrays or, for large types, the heap;
 * false when the heap has no memory. */
TYJSON__FIRST_USE
static bool scratch_open(build_scratch *s, u32 nf, u32 nk, u32 max_bits) {
    usize slots = (usize)1 << max_bits;
    s->n_lits = 0;
    s->kin = nk <= SMALL ? s->kin_small : (key_in *)malloc(nk * sizeof(key_in));
    s->lits = nf <= SMALL ? s->lit_small : (char **)malloc(nf * sizeof(char *));
    s->lit_lens = nf <= SMALL ? s->len_small : (usize *)malloc(nf * sizeof(usize));
    s->table = slots <= SMALL_SLOTS ? s->table_small : (u16 *)malloc(slots * sizeof(u16));
    return s->kin && s->lits && s->lit_lens && s->table;
}

/* Frees the literals made so far and whatever scratch is on the heap. */
TYJSON__FIRST_USE
static void scratch_close(build_scratch *s) {
    if (s->lits)
        for (u32 i = 0; i < s->n_lits; i++) free(s->lits[i]);
    if (s->kin != s->kin_small) free(s->kin);
    if (s->lits != s->lit_small) free(s->lits);
    if (s->lit_lens != s->len_small) free(s->lit_lens);
    if (s->table != s->table_small) free(s->table);
}

/* Key literals `"key": `: most keys are copied as they are; the rest
 * (escapes, non-ASCII, which is validated) go through str_write. Sums
 * their bytes into *total; a name that is not UTF-8 fails the type. */
TYJSON__FIRST_USE
static step_result make_key_literals(const tyjson_struct *t, build_scratch *s, usize *total,
                                     tyjson_error *err) {
    u32 nf = (u32)t->n_fields;
    usize lit_total = 0;
    for (u32 i = 0; i < nf; i++) {
        const char *name = t->fields[i].name;
        s->lits[i] = NULL;
        if (verbatim_key(name)) {
            s->lit_lens[i] = strlen(name) + 4;
        } else {
            tyjson_status st;
            s->lits[i] = key_literal(name, &s->lit_lens[i], &st);
            if (!s->lits[i]) {
                if (st == TYJSON_E_NOMEM) return STEP_NOMEM;
                bad(err, t, i, "field name is not valid UTF-8");
                return STEP_FAIL;
            }
            s->n_lits = i + 1;
        }
        if (s->lit_lens[i] - 1 > UINT32_MAX) return STEP_NOMEM;
        lit_total += s->lit_lens[i];
    }
    s->n_lits = nf;
    *total = lit_total;
    return STEP_OK;
}

/* Lists every key with its length: each field's name, then its aliases. */
TYJSON__FIRST_USE
static void collect_keys(const tyjson_struct *t, key_in *kin) {
    u32 k = 0;
    for (u32 i = 0; i < (u32)t->n_fields; i++) {
        const tyjson_field *f = &t->fields[i];
        kin[k].name = (const u8 *)f->name;
        kin[k++].len = strlen(f->name);
        for (const char *const *al = f->aliases; al && *al; al++) {
            kin[k].name = (const u8 *)*al;
            kin[k++].len = strlen(*al);
        }
    }
}

/* Computes where each part of the record starts, and its total size. */
TYJSON__FIRST_USE
static void plan_layout(prep_layout *l, u32 nf, u32 nw, u32 nk, usize table_slots,
                        usize lit_total) {
    l->fields = round8(sizeof(tyjson__bind_prep));
    l->req = l->fields + round8(nf * sizeof(tyjson__bind_field));
    l->dflt = l->req + nw * sizeof(u64);
    l->keys = l->dflt + nw * sizeof(u64);
    l->table = l->keys + round8(nk * sizeof(tyjson__bind_key));
    l->lits = l->table + round8(table_slots * sizeof(u16));
    l->total = l->lits + lit_total;
}

/* Allocates the zeroed record, copies the hash parameters and the table
 * into it and fills its header: the type, the counts and where each part
 * sits (also into *parts). NULL when out of memory. */
TYJSON__FIRST_USE
static tyjson__bind_prep *place_record(const tyjson_struct *t, const tyjson__bind_prep *params,
                                       const prep_layout *l, const u16 *table, u32 nw, u32 nk,
                                       prep_parts *parts) {
    char *blk = (char *)calloc(1, l->total);
    if (!blk) return NULL;
    tyjson__bind_prep *p = (tyjson__bind_prep *)(void *)blk;
    *p = *params;
    u16 *tbl = (u16 *)(void *)(blk + l->table);
    memcpy(tbl, table, ((usize)params->mask + 1) * sizeof(u16));
    parts->fields = (tyjson__bind_field *)(void *)(blk + l->fields);
    parts->req = (u64 *)(void *)(blk + l->req);
    parts->dflt = (u64 *)(void *)(blk + l->dflt);
    parts->keys = (tyjson__bind_key *)(void *)(blk + l->keys);
    parts->lits = blk + l->lits;
    p->type = t;
    p->size = t->size;
    p->tflags = t->flags;
    p->n_fields = (u32)t->n_fields;
    p->n_words = nw;
    p->fields = parts->fields;
    p->required = parts->req;
    p->defaulted = parts->dflt;
    p->keys = parts->keys;
    p->table = tbl;
    p->n_keys = nk;
    return p;
}

/* Writes field f's literal `"key": ` (len bytes) at dst: the escaped heap
 * copy when there is one, else the name as is. */
TYJSON__FIRST_USE
static void write_key_literal(char *dst, const tyjson_field *f, const char *lit, usize len) {
    if (lit) {
        memcpy(dst, lit, len);
        return;
    }
    usize n = len - 4;
    dst[0] = '"';
    memcpy(dst + 1, f->name, n);
    memcpy(dst + 1 + n, "\": ", 3);
}

/* Flags the field record derives from the field: what the decoder accepts
 * and what the encoder may leave out. */
TYJSON__FIRST_USE
static void derive_flags(tyjson__bind_field *bf, const tyjson_field *f) {
    /* What WRITE_NULL writes, the decoder accepts. */
    if (bf->flags & TYJSON_F_WRITE_NULL) bf->flags |= TYJSON_F_NULLABLE;
    /* The encoder leaves an all-zero date out (null with WRITE_NULL):
     * it is what an absent key decodes to (without a default, presence
     * or state member and not REQUIRED; else the zero date is no valid
     * value and stays an encode error). */
    if ((f->kind == TYJSON_K_DATE || f->kind == TYJSON_K_DATETIME) &&
        f->shape == TYJSON_SHAPE_ONE && !f->state_at && !f->present_at && !f->has_default &&
        !(f->flags & TYJSON_F_REQUIRED))
        bf->flags |= TYJSON_F_OMIT_EMPTY;
    bf->may_omit = (bf->flags & TYJSON_F_OMIT_EMPTY) || bf->present_at || bf->state_at;
}

/* The literal's bytes as two little-endian words and masks, for the
 * decoder's key prediction (literals up to 16 bytes). */
TYJSON__FIRST_USE
static void set_literal_masks(tyjson__bind_field *bf, const char *lit, usize lit_len) {
    bf->lit_masks[0] = ~(u64)0; /* 8 NUL bytes: never the input's '"' */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (lit_len <= 16) {
        /* masks keep the literal's bytes of two little-endian loads */
        u8 w[16] = {0}, m[16] = {0};
        memcpy(w, lit, lit_len);
        memset(m, 0xFF, lit_len);
        memcpy(bf->lit_words, w, 16);
        memcpy(bf->lit_masks, m, 16);
        bf->lit_match_len = (u8)lit_len;
    }
#else
    (void)lit;
    (void)lit_len;
#endif
}

/* Sets field i's bits in the required and defaulted words, and the
 * decoded form of its default (string length, date). */
TYJSON__FIRST_USE
static void note_required_and_default(tyjson__bind_prep *p, const prep_parts *parts,
                                      tyjson__bind_field *bf, const tyjson_field *f, u32 i) {
    if (f->flags & TYJSON_F_REQUIRED) {
        parts->req[i / 64] |= (u64)1 << (i % 64);
        p->any_required = true;
    }
    if (!f->has_default) return;
    parts->dflt[i / 64] |= (u64)1 << (i % 64);
    p->any_default = true;
    if (f->dflt.s && (f->kind == TYJSON_K_STR || f->kind == TYJSON_K_CSTR ||
                      f->kind == TYJSON_K_CHARS || f->kind == TYJSON_K_RAW))
        bf->dflt_len = strlen(f->dflt.s);
    if (f->kind == TYJSON_K_DATE)
        tyjson_date_parse(f->dflt.s, strlen(f->dflt.s), &bf->dflt_dt.date);
    if (f->kind == TYJSON_K_DATETIME)
        tyjson_datetime_parse(f->dflt.s, strlen(f->dflt.s), &bf->dflt_dt);
    if (f->kind == TYJSON_K_DECIMAL)
        tyjson_decimal_parse(f->dflt.s, strlen(f->dflt.s), &bf->dflt_dec);
}

/* Fills the key records of field i (its name, then its aliases) from key
 * k on; returns the key after them. */
TYJSON__FIRST_USE
static u32 fill_keys(const prep_parts *parts, const tyjson_field *f, u32 i, u32 k,
                     const key_in *kin) {
    for (u32 a = 0; a == 0 || (f->aliases && f->aliases[a - 1]); a++, k++) {
        const char *name = a ? f->aliases[a - 1] : f->name;
        tyjson__bind_key *key = &parts->keys[k];
        key->name = name;
        key->len = (u32)kin[k].len;
        key->field = i;
        u8 head[16] = {0};
        memcpy(head, name, kin[k].len < 16 ? kin[k].len : 16);
        memcpy(key->head, head, 16);
    }
    return k;
}

/* Fills field i's record: its literal (written at lit_dst), the members
 * copied from the field, derived flags, operations and prediction links. */
TYJSON__FIRST_USE
static void fill_field(tyjson__bind_prep *p, const prep_parts *parts, u32 i, char *lit_dst,
                       const build_scratch *s) {
    const tyjson_field *f = &p->type->fields[i];
    tyjson__bind_field *bf = &parts->fields[i];
    usize lit_len = s->lit_lens[i];
    u32 nf = p->n_fields;
    bf->f = f;
    write_key_literal(lit_dst, f, s->lits[i], lit_len);
    bf->lit = lit_dst;
    bf->lit_len = (u32)(lit_len - 1);
    /* written as is and without '/': also as is under ESCAPE_SLASH */
    bf->lit_plain = !s->lits[i] && !memchr(f->name, '/', lit_len - 4);
    bf->kind = (u8)f->kind;
    bf->shape = (u8)f->shape;
    bf->index = i;
    bf->flags = f->flags;
    bf->offset = f->offset;
    bf->size = f->size;
    bf->present_at = f->present_at;
    bf->state_at = f->state_at;
    derive_flags(bf, f);
    bf->eop = op_of(f);
    bf->vop = f->shape != TYJSON_SHAPE_ONE ? (u8)TYJSON__OP_ARRAY : bf->eop;
    bf->op = bf->vop;
    /* no wrapping around: the decoder's duplicate check relies on a run
     * of predicted keys never meeting the same field twice */
    bf->next = i + 1 < nf ? &parts->fields[i + 1] : &p->none;
    bf->prev = i ? &parts->fields[i - 1] : &p->none;
    set_literal_masks(bf, lit_dst, lit_len - 1);
    note_required_and_default(p, parts, bf, f, i);
}

/* Presence bits (one per field unless the type is wide), the special
 * operation for wide types and state/presence members, and the ends of
 * the prediction chain. */
TYJSON__FIRST_USE
static void finish_fields(tyjson__bind_prep *p, tyjson__bind_field *fields) {
    u32 nf = p->n_fields;
    p->wide = nf > 64;
    for (u32 i = 0; i < nf; i++) {
        fields[i].bit = p->wide ? 0 : (u64)1 << i;
        if (p->wide || fields[i].present_at || fields[i].state_at) fields[i].op = TYJSON__OP_SPECIAL;
    }
    p->none.lit_masks[0] = ~(u64)0;
    p->none.next = p->none.prev = &p->none;
    p->first = nf ? &fields[0] : &p->none;
    p->last = nf ? &fields[nf - 1] : &p->none;
}

/* The encoder's fast op of a member, TYJSON__ENC_GENERAL unless it is
 * single, its key literal is the same under every write flag, `,"key":`
 * fits one 16-byte store, and it is always written, or is a DATE whose
 * only omission is the zero date (OMIT_EMPTY, derived or not, without a
 * state or presence member or a default: omit_date_fast's case). */
TYJSON__FIRST_USE
static u8 enc_op_of(const tyjson__bind_field *bf) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (bf->shape != TYJSON_SHAPE_ONE || !bf->lit_plain || bf->lit_len + 1 > 16)
        return TYJSON__ENC_GENERAL;
    if (bf->kind == TYJSON_K_DATE && !bf->state_at && !bf->present_at && !bf->f->has_default)
        return TYJSON__ENC_DATE;
    if (bf->may_omit) return TYJSON__ENC_GENERAL;
    switch (bf->kind) {
    case TYJSON_K_STR: return TYJSON__ENC_STR;
    case TYJSON_K_I32: return TYJSON__ENC_I32;
    case TYJSON_K_I64: return TYJSON__ENC_I64;
    case TYJSON_K_BOOL: return TYJSON__ENC_BOOL;
    case TYJSON_K_F64: return TYJSON__ENC_F64;
    case TYJSON_K_STRUCT: case TYJSON_K_PTR: return TYJSON__ENC_NESTED;
    case TYJSON_K_EPOCH_MS: case TYJSON_K_EPOCH_NS: return TYJSON__ENC_EPOCH;
    default: return TYJSON__ENC_GENERAL;
    }
#else
    (void)bf;
    return TYJSON__ENC_GENERAL;
#endif
}

/* The encoder's plan (bind.h: enc_op, head_words, seg_after, enc_seg0):
 * from the last field back, the room each segment needs before its first
 * head, where a segment runs from after a string, struct or general
 * member's value to the next one's head (the closing '}' included). A
 * FIXED member that would make its segment larger than ENC_SEG_MAX takes
 * the general way (it makes its own room and reserves the rest after
 * itself). */
TYJSON__FIRST_USE
static void plan_encoder(tyjson__bind_prep *p, tyjson__bind_field *fields) {
    u32 nf = p->n_fields;
    u32 need = 1; /* before the next head: the '}' */
    for (u32 i = nf; i-- > 0;) {
        tyjson__bind_field *bf = &fields[i];
        bf->enc_op = enc_op_of(bf);
        bf->type = bf->f->type;
        bf->seg_after = need;
        u8 op = bf->enc_op;
        bool fixed = op == TYJSON__ENC_I32 || op == TYJSON__ENC_I64 || op == TYJSON__ENC_BOOL ||
                     op == TYJSON__ENC_F64 || op == TYJSON__ENC_DATE || op == TYJSON__ENC_EPOCH;
        if (fixed && need + TYJSON__ENC_FIXED_COST > TYJSON__ENC_SEG_MAX)
            op = bf->enc_op = TYJSON__ENC_GENERAL;
        if (op == TYJSON__ENC_GENERAL) need = 0; /* it makes its own room */
        else if (fixed) need += TYJSON__ENC_FIXED_COST;
        else need = TYJSON__ENC_HEAD_COST; /* its value makes its own room */
        if (op != TYJSON__ENC_GENERAL) {
            u8 w[16] = {0};
            w[0] = ',';
            memcpy(w + 1, bf->lit, bf->lit_len);
            memcpy(bf->head_words, w, 16);
            bf->head_len = (u8)(bf->lit_len + 1);
        }
    }
    p->enc_fast = nf && fields[0].enc_op != TYJSON__ENC_GENERAL;
    p->fields_end = fields + nf;
    p->enc_seg0 = need;
}

/* Fills every field and key record, literals after one another. */
TYJSON__FIRST_USE
static void fill_records(tyjson__bind_prep *p, const prep_parts *parts, const build_scratch *s) {
    char *lit_dst = parts->lits;
    u32 k = 0;
    for (u32 i = 0; i < p->n_fields; i++) {
        fill_field(p, parts, i, lit_dst, s);
        lit_dst += s->lit_lens[i];
        k = fill_keys(parts, &p->type->fields[i], i, k, s->kin);
    }
    finish_fields(p, parts->fields);
    plan_encoder(p, parts->fields);
}

/* The prepared record of a checked type, in one allocation: literals,
 * a collision-free key hash, field and key records. NULL with err set
 * (E_NOMEM, or E_INVALID_ARG for a name that is not UTF-8). */
TYJSON__FIRST_USE
static tyjson__bind_prep *build(const tyjson_struct *t, tyjson_error *err) {
    u32 nf = (u32)t->n_fields;
    u32 nk = count_keys(t);
    u32 nw = nf ? (nf + 63) / 64 : 1;
    u32 max_bits = table_max_bits(nk);
    build_scratch s;
    tyjson__bind_prep *p = NULL;
    step_result r = STEP_NOMEM;
    usize lit_total = 0;
    if (scratch_open(&s, nf, nk, max_bits)) r = make_key_literals(t, &s, &lit_total, err);
    if (r == STEP_OK) {
        tyjson__bind_prep params;
        memset(&params, 0, sizeof(params));
        collect_keys(t, s.kin);
        pick_hash(&params, s.kin, nk, s.table, max_bits);
        prep_layout l;
        plan_layout(&l, nf, nw, nk, (usize)params.mask + 1, lit_total);
        prep_parts parts;
        p = place_record(t, &params, &l, s.table, nw, nk, &parts);
        if (p) fill_records(p, &parts, &s);
        else r = STEP_NOMEM;
    }
    if (r == STEP_NOMEM) tyjson__err_set(err, TYJSON_E_NOMEM, NULL, 0, 0);
    scratch_close(&s);
    return p;
}

/* ----------------------------------------------------------------------------
 * Preparing a type and everything it reaches
 * ------------------------------------------------------------------------- */
TYJSON__FIRST_USE
static tyjson__bind_prep *load_prep(tyjson_struct *t) {
    return (tyjson__bind_prep *)__atomic_load_n(&t->prepared, __ATOMIC_ACQUIRE);
}

/* Appends t to the list unless it is there or already prepared. */
TYJSON__FIRST_USE
static bool graph_add(tyjson_struct ***list, usize *n, usize *cap, tyjson_struct *t) {
    if (load_prep(t)) return true;
    for (usize i = 0; i < *n; i++)
        if ((*list)[i] == t) return true;
    if (*n == *cap) {
        usize nc = *cap ? *cap * 2 : 8;
        tyjson_struct **nl = (tyjson_struct **)realloc(*list, nc * sizeof(**list));
        if (!nl) return false;
        *list = nl;
        *cap = nc;
    }
    (*list)[(*n)++] = t;
    return true;
}

TYJSON__FIRST_USE
tyjson__bind_prep *tyjson__struct_prep_slow(tyjson_struct *t, tyjson_error *err) {
    if (!t) {
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return NULL;
    }
    tyjson__bind_prep *done = load_prep(t);
    if (done) return done;
    tyjson_struct **list = NULL;
    usize n = 0, cap = 0;
    if (!graph_add(&list, &n, &cap, t)) goto nomem;
    /* Every type reached is checked before any is published, so that a
     * published type never leads to a bad one. */
    for (usize i = 0; i < n; i++) {
        tyjson_struct *u = list[i];
        if (!check_type(u, err)) goto fail;
        for (usize j = 0; j < u->n_fields; j++) {
            tyjson_struct *sub = u->fields[j].type;
            if (sub && (u->fields[j].kind == TYJSON_K_STRUCT || u->fields[j].kind == TYJSON_K_PTR) &&
                !graph_add(&list, &n, &cap, sub))
                goto nomem;
        }
    }
    /* Publish the reached types before t itself, so that whoever sees t
     * prepared finds its nested types prepared too. */
    for (usize i = n; i-- > 0;) {
        tyjson_struct *u = list[i];
        if (load_prep(u)) continue;
        tyjson__bind_prep *p = build(u, err);
        if (!p) goto fail;
        void *expected = NULL;
        if (!__atomic_compare_exchange_n(&u->prepared, &expected, (void *)p, false,
                                         __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            free(p); /* another thread won; its record is equivalent */
    }
    free(list);
    return load_prep(t);

nomem:
    tyjson__err_set(err, TYJSON_E_NOMEM, NULL, 0, 0);
fail:
    free(list);
    return NULL;
}

void tyjson_struct_release(tyjson_struct *type) {
    if (!type) return;
    void *p = __atomic_exchange_n(&type->prepared, NULL, __ATOMIC_ACQ_REL);
    free(p);
}

TYJSON__FIRST_USE
tyjson_status tyjson_struct_prepare(tyjson_struct *type, tyjson_error *err) {
    if (!type) {
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        return TYJSON_E_INVALID_ARG;
    }
    tyjson_error local;
    tyjson_error *e = err ? err : &local;
    if (!tyjson__struct_prep(type, e)) return e->code;
    tyjson__err_ok(err);
    return TYJSON_OK;
}
