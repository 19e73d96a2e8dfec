/*
 * bind.h - private data shared by the binding decoder (decode.h, decode*.c) and
 * encoder (bind_encode.c): the per-type preparation built once by
 * bind_desc.c and published atomically in tyjson_struct.prepared.
 *
 * A prepared type holds, per field (in declaration order): the descriptor,
 * the quoted key literal for the encoder, and a few copies of descriptor
 * data packed for the decoder's hot loop; per type: the key lookup table (a
 * perfect hash over the key length and a few bytes, verified with memcmp,
 * so any key order costs the same) and the field bitmaps (required, with a
 * default) the decoder checks once per object.
 *
 * Nested types are not linked from here: a prepared type refers to them
 * through field->type and each is prepared (or fetched) with
 * tyjson__struct_prep, whose fast path is one acquire load. That keeps
 * recursive types (a struct pointing to itself) and concurrent first use
 * simple: a prepared record never points at another one.
 */
#ifndef TYJSON_BIND_PRIV_H
#define TYJSON_BIND_PRIV_H

#include "base/internal.h"
#include "base/arena.h"

/* One field of a prepared type. */
typedef struct tyjson__bind_field {
    const tyjson_field *f; /* the descriptor */
    /** Encoder: `"key":` followed by one space, escaped with the default
     *  (minimal) escaping. Minified output writes lit[0, lit_len), pretty
     *  output lit[0, lit_len + 1). */
    const char *lit;
    u32 lit_len;
    /** The literal is the same under every write flag (printable ASCII,
     *  no '"', '\\' or '/'); otherwise escape the key with the flags. */
    bool lit_plain;
    u8 kind;   /* f->kind */
    u8 shape;  /* f->shape */
    u32 index; /* position in the type's fields, and its bit in the bitmaps */
    u32 flags; /* f->flags */
    usize offset, size; /* f->offset, f->size */
    usize present_at;   /* f->present_at */
    usize state_at;     /* f->state_at */
    /* Encoder: omit_action decides whether the member is written (OMIT_EMPTY,
     * a presence or a state member) */
    bool may_omit;
    /* Encoder, minified (bind_encode.c, fields_fast): how the member is
     * written in a type whose first member is always written (enc_fast):
     * TYJSON__ENC_* when it always is, its key is plain and `,"key":`
     * fits 16 bytes, else TYJSON__ENC_GENERAL. head_words is `,"key":`
     * zero-padded (head_len bytes), stored with one 16-byte copy. */
    u8 enc_op;
    u8 head_len;
    /* Encoder: room reserved after this member's value for the members
     * after it up to the next string, struct or general member (their
     * heads and scalar values, at most TYJSON__ENC_SEG_MAX bytes), so
     * that those write without a check of their own. Strings fold it into
     * their own check. */
    u32 seg_after;
    u64 head_words[2];
    /* f->type (STRUCT, PTR members), one dependent load less per nested
     * struct on the encoder's way to its prepared record. */
    tyjson_struct *type;
    /* Decoder: this field's bit in a per-object seen mask (types of up to
     * 64 fields), 0 for wider types (their fields take TYJSON__OP_SPECIAL
     * and the frame's seen_wide words). */
    u64 bit;
    /* Decoder: what to do with the value (TYJSON__OP_*), and the first
     * 16 bytes of `"key":` (zero-padded) with their count, 0 when the
     * literal is longer: the decoder checks the key it expects next with
     * one masked compare before it hashes. */
    u8 op;     /* for the member: TYJSON__OP_SPECIAL when a presence or
                  state member or a wide type's seen words need attention,
                  else vop */
    u8 vop;    /* for the member's value: TYJSON__OP_ARRAY when shape != ONE */
    u8 eop;    /* for each element (the kind alone) */
    u8 lit_match_len;
    /* never matching (8 NUL bytes wanted) when the literal is longer */
    u64 lit_words[2], lit_masks[2];
    /* the fields declared after and before this one (the never-matching
     * `none` of the type past either end) */
    const struct tyjson__bind_field *next, *prev;
    /* Decoder: the default's length (STR, CSTR, CHARS, RAW) or its parsed
     * value (DATE, DATETIME, DECIMAL). */
    usize dflt_len;
    tyjson_datetime dflt_dt;
    tyjson_decimal dflt_dec;
} tyjson__bind_field;

/* Encoder operations per field (tyjson__bind_field.enc_op). A FIXED member
 * (I32, I64, BOOL, F64, DATE, EPOCH) writes at most TYJSON__ENC_FIXED_COST bytes from
 * its head's start, with room to spare for the writers' wide stores; STR
 * and NESTED heads TYJSON__ENC_HEAD_COST (their values make their own
 * room). */
enum {
    TYJSON__ENC_GENERAL = 0, /* omit test, any key, any value: its own checks */
    TYJSON__ENC_STR,
    TYJSON__ENC_I32,
    TYJSON__ENC_BOOL,
    TYJSON__ENC_F64,
    TYJSON__ENC_I64,
    TYJSON__ENC_NESTED,      /* STRUCT or PTR */
    TYJSON__ENC_DATE,        /* left out (or null) when zero and OMIT_EMPTY */
    TYJSON__ENC_EPOCH        /* EPOCH_MS or EPOCH_NS */
};
#define TYJSON__ENC_SCALAR_ROOM (TYJSON__NUM_MAX_CHARS + TYJSON__STR_SLACK)
#define TYJSON__ENC_HEAD_COST (16u + TYJSON__STR_SLACK)
#define TYJSON__ENC_FIXED_COST (16u + TYJSON__ENC_SCALAR_ROOM)
/* Largest reservation of one segment (a FIXED member that would pass it
 * takes the general way and starts the next); well under
 * TYJSON__WBUF_RESERVE_MAX. */
#define TYJSON__ENC_SEG_MAX 1024u

/* Decoder operations per field, so that the hot loop dispatches once. */
enum {
    TYJSON__OP_LEAF = 0, /* any other kind, through the general leaf decoder */
    TYJSON__OP_STR,
    TYJSON__OP_I32,
    TYJSON__OP_I64,
    TYJSON__OP_BOOL,
    TYJSON__OP_F64,
    TYJSON__OP_F32,
    TYJSON__OP_DATE,     /* DATE: "YYYY-MM-DD" inline, the rest as LEAF */
    TYJSON__OP_EPOCH_MS, /* EPOCH_MS: "YYYY-MM-DDTHH:MM:SSZ" inline, the rest as LEAF */
    TYJSON__OP_NESTED,   /* STRUCT or PTR */
    TYJSON__OP_ARRAY,    /* shape FIXED or DYN */
    TYJSON__OP_SPECIAL   /* see tyjson__bind_field.op */
};

/* One accepted key (a field name or an alias). */
typedef struct tyjson__bind_key {
    u64 head[2];      /* its first 16 bytes, zero-padded (little-endian loads) */
    const char *name;
    u32 len;
    u32 field;        /* index into fields */
} tyjson__bind_key;

/* Key hashing modes chosen at prepare time. */
enum {
    TYJSON__KEYHASH_SAMPLE = 0, /* length, first, last and one chosen byte */
    TYJSON__KEYHASH_FULL = 1    /* every byte (keys that differ only elsewhere) */
};

typedef struct tyjson__bind_prep {
    const tyjson_struct *type;
    usize size;                      /* type->size */
    u32 tflags;                      /* type->flags */
    /* Decoder: the type has more than 64 fields: keys seen per object are
     * tracked in the frame's seen_wide words (else in one u64). */
    bool wide;
    u32 n_fields;
    u32 n_words;                     /* u64 words of a per-object field bitmap */
    const tyjson__bind_field *fields; /* n_fields, declaration order */
    const u64 *required;             /* n_words: bit i = fields[i] is REQUIRED */
    const u64 *defaulted;            /* n_words: bit i = fields[i] has a default */
    bool any_required, any_default;  /* some bit set in required / defaulted */
    /* key lookup: slot = hash(key) >> hash_shift; table[slot] = key index + 1
     * (0 = empty); then compare length and bytes. Perfect (one slot per
     * key) unless `probing` (very many keys): then linear probing. */
    u8 hash_mode;                    /* TYJSON__KEYHASH_* */
    u8 hash_shift;                   /* 32 - log2(table size) */
    bool probing;
    u32 mask;                        /* table size - 1 */
    u32 sample_pos;                  /* SAMPLE: index of the chosen byte */
    u32 seed;                        /* odd multiplier */
    const u16 *table;
    const tyjson__bind_key *keys;
    u32 n_keys;
    /* Decoder: where key prediction starts (the first and the last field),
     * a never-matching stand-in when there are no fields. */
    const tyjson__bind_field *first, *last;
    /* Encoder: the first field is always written and takes a fast op, so
     * minified objects take fields_fast, which reserves enc_seg0 bytes at
     * the '{' (the first segment, see seg_after). */
    bool enc_fast;
    u32 enc_seg0;
    const struct tyjson__bind_field *fields_end; /* fields + n_fields */
    tyjson__bind_field none;
} tyjson__bind_prep;

/** The hash of a key under a prepared type's parameters (see bind_desc.c,
 *  which picks parameters for which every accepted key lands in its own
 *  slot). */
TYJSON__FORCEINLINE u32 tyjson__bind_key_hash(const tyjson__bind_prep *p, const u8 *k,
                                              usize len) {
    u32 x;
    if (likely(p->hash_mode == TYJSON__KEYHASH_SAMPLE)) {
        u32 first = len ? k[0] : 0, last = len ? k[len - 1] : 0;
        u32 mid = p->sample_pos < len ? k[p->sample_pos] : 0;
        x = (u32)len ^ (first << 8) ^ (last << 16) ^ (mid << 24);
    } else {
        x = 2166136261u ^ (u32)len;
        for (usize i = 0; i < len; i++) x = (x ^ k[i]) * 16777619u;
    }
    return x * p->seed;
}

/* True if the len bytes at k (with `avail` readable bytes from k) are the
 * key's. Keys of up to 16 bytes compare as two masked 8-byte words. */
TYJSON__FORCEINLINE bool tyjson__bind_key_eq(const tyjson__bind_key *key, const u8 *k, usize len,
                                             usize avail) {
    if (key->len != len) return false;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (avail >= 16) {
        u64 w0, w1;
        memcpy(&w0, k, 8);
        memcpy(&w1, k + 8, 8);
        if (len < 8) {
            u64 m = ((u64)1 << (len * 8)) - 1;
            return ((w0 ^ key->head[0]) & m) == 0;
        }
        if (w0 != key->head[0]) return false;
        if (len < 16) {
            u64 m = ((u64)1 << ((len - 8) * 8)) - 1;
            return ((w1 ^ key->head[1]) & m) == 0;
        }
        return w1 == key->head[1] && memcmp(key->name + 16, k + 16, len - 16) == 0;
    }
#else
    (void)avail;
#endif
    return memcmp(key->name, k, len) == 0;
}

/** Index of the field that key k (len bytes, unescaped; `avail` bytes
 *  readable from k, len <= avail) names, or -1. */
TYJSON__FORCEINLINE int32_t tyjson__bind_lookup(const tyjson__bind_prep *p, const u8 *k,
                                                usize len, usize avail) {
    u32 slot = tyjson__bind_key_hash(p, k, len) >> p->hash_shift;
    for (;;) {
        u32 e = p->table[slot];
        if (!e) return -1;
        const tyjson__bind_key *key = &p->keys[e - 1];
        if (likely(tyjson__bind_key_eq(key, k, len, avail))) return (int32_t)key->field;
        if (likely(!p->probing)) return -1;
        slot = (slot + 1) & p->mask;
    }
}

/** Builds (first call), publishes and returns the prepared record of t, and
 *  prepares every type t reaches (that has no record: a released nested
 *  type is prepared again when a type reaching it is used). NULL on a bad descriptor (err says which
 *  field, TYJSON_E_INVALID_ARG) or TYJSON_E_NOMEM. */
tyjson__bind_prep *tyjson__struct_prep_slow(tyjson_struct *t, tyjson_error *err);

TYJSON__FORCEINLINE tyjson__bind_prep *tyjson__struct_prep(tyjson_struct *t, tyjson_error *err) {
    tyjson__bind_prep *p;
#if defined(__GNUC__) || defined(__clang__)
    p = (tyjson__bind_prep *)__atomic_load_n(&t->prepared, __ATOMIC_ACQUIRE);
#else
#  error "tyjson binding needs __atomic builtins (gcc, clang)"
#endif
    if (likely(p != NULL)) return p;
    return tyjson__struct_prep_slow(t, err);
}

/* Sizes the descriptor checks expect per kind (0 = any non-zero size). */
usize tyjson__bind_kind_size(tyjson_kind kind);

/* ----------------------------------------------------------------------------
 * Date-time internals (datetime.c)
 * ------------------------------------------------------------------------- */
/* Epoch seconds of 0000-01-01T00:00:00Z and of 10000-01-01T00:00:00Z: the
 * UTC instants a date-time string can be written for. */
#define TYJSON__EPOCH_MIN_SEC (-62167219200LL)
#define TYJSON__EPOCH_END_SEC (253402300800LL)

/** Why s (len bytes) is not a valid date ("YYYY-MM-DD") or date-time: a
 *  short phrase ("day 29 out of range for 2023-02", "expected '-' at byte
 *  4") into out (cap bytes, NUL-terminated). Returns its length, 0 if s is
 *  valid after all. */
/* Error-message pieces (decoder and encoder): text, a quoted byte string
 * (non-printables as '?', cut at max bytes with "..."), and the list
 * ` (expected one of "a", "b")` of a field's enum names. Each appends to
 * buf (cap bytes, *k used) and keeps room for the NUL. */
void tyjson__note_text(char *buf, usize cap, usize *k, const char *t);
void tyjson__note_quoted(char *buf, usize cap, usize *k, const u8 *s, usize n, usize max);
void tyjson__note_enum_names(char *buf, usize cap, usize *k, const tyjson_field *f);
usize tyjson__date_explain(const char *s, usize len, bool datetime, char *out, usize cap);

/** The 10 bytes at s as "YYYY-MM-DD" (tyjson_date_parse without the
 *  length). */
bool tyjson__date10_parse(const char *s, tyjson_date *out);
/** The 20 bytes at s as "YYYY-MM-DDTHH:MM:SSZ" into seconds since the epoch:
 *  the common date-time shape, accepted exactly as tyjson_datetime_parse
 *  accepts it; false for anything else (which that parser may still take). */
bool tyjson__utc20_parse(const char *s, int64_t *sec);

/** Seconds since 1970-01-01T00:00:00Z of dt (offset applied); the
 *  nanoseconds are dt->nanosecond. Never overflows (years 0-9999). */
int64_t tyjson__datetime_epoch_sec(const tyjson_datetime *dt);
/** Breaks seconds since the epoch into a UTC date-time (offset 0); false
 *  outside years 0-9999. */
bool tyjson__datetime_from_epoch_sec(int64_t sec, uint32_t nanosecond,
                                     tyjson_datetime *dt);

#endif /* TYJSON_BIND_PRIV_H */
