/*
 * tyjson/bind.h - typed binding: JSON straight into C structs and C structs
 * straight to JSON, without a DOM.
 *
 * Describe a struct once with a table of fields (the TYJSON_FIELD_* macros
 * below), wrap it in a tyjson_struct, then call tyjson_decode / tyjson_encode.
 * The same lines compile as C11 and as C++11 or later.
 *
 *     typedef struct { tyjson_str name; int32_t age; bool active; double score; } person;
 *     static const tyjson_field person_fields[] = {
 *         TYJSON_FIELD_STR(person, name, "name", TYJSON_FLAGS(TYJSON_F_REQUIRED)),
 *         TYJSON_FIELD_I32(person, age, "age"),
 *         TYJSON_FIELD_BOOL(person, active, "active"),
 *         TYJSON_FIELD_F64(person, score, "score"),
 *     };
 *     static tyjson_struct person_type = TYJSON_STRUCT(person, person_fields, 0);
 *
 *     tyjson_arena arena;
 *     tyjson_arena_init(&arena, NULL);
 *     person p;
 *     tyjson_error err;
 *     if (tyjson_decode(&person_type, &p, json, len, &arena, NULL, &err) != TYJSON_OK)
 *         fprintf(stderr, "%s at %s (%zu:%zu)\n", err.msg, err.path, err.line, err.column);
 *     size_t text_len;
 *     char *text = tyjson_encode(&person_type, &p, NULL, &text_len, &err);
 *     ...
 *     free(text);
 *     tyjson_arena_free(&arena);   (p's strings lived in the arena)
 *
 * examples/readme_binding.c and examples/person.c run this; docs/binding.md
 * is the guide.
 *
 * Memory: everything a decode needs beyond the output struct itself
 * (unescaped or copied strings, dynamic arrays, pointed-to structs, free-form
 * values) comes from a caller-owned tyjson_arena. Reset the arena to reuse
 * its memory for the next message: steady-state decoding does no malloc.
 *
 * Thread-safety: a tyjson_struct may be used by many threads at once; its
 * one-time preparation (key lookup tables, encoded key literals) is
 * published atomically (tyjson_struct_release, for runtime-built types, is
 * the exception). An arena belongs to one thread at a time.
 */
#ifndef TYJSON_BIND_H
#define TYJSON_BIND_H

#include "write.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ----------------------------------------------------------------------------
 * MARK: - Value types used by members
 * ------------------------------------------------------------------------- */

/** A string as pointer + length: may contain U+0000; NUL-terminated too
 *  when it lives in the arena. */
typedef struct tyjson_str {
    const char *ptr;
    size_t len;
} tyjson_str;

/** A calendar date, "YYYY-MM-DD" (year 0000-9999). */
typedef struct tyjson_date {
    int32_t year;
    uint8_t month; /* 1-12 */
    uint8_t day;   /* 1-31, valid for the month and year */
} tyjson_date;

/** An ISO-8601 date-time, "YYYY-MM-DDTHH:MM:SS[.fffffffff](Z|+HH:MM|-HH:MM)".
 *  Encoding writes the fraction only when nanosecond != 0 (3, 6 or 9
 *  digits, the fewest that are exact) and Z when offset_minutes == 0. */
typedef struct tyjson_datetime {
    tyjson_date date;
    uint8_t hour, minute, second; /* second 0-59 (leap seconds refused) */
    uint32_t nanosecond;          /* 0-999999999 */
    int16_t offset_minutes;       /* -1439..1439; 0 is UTC ("Z") */
} tyjson_datetime;

/** An exact decimal number: the value coef * 10^-scale, never a double.
 *  19.99 is {1999, 2}; 19.90 keeps its zero as {1990, 2}; 1.5e3 is {15, -2};
 *  -0.0 is {0, 1} (zero has no sign). */
typedef struct tyjson_decimal {
    int64_t coef;  /**< every digit of the number, as one integer */
    int32_t scale; /**< digits after the point less the exponent; within +-1e9 */
} tyjson_decimal;

/* ----------------------------------------------------------------------------
 * MARK: - Arena
 * ------------------------------------------------------------------------- */

/** Caller-owned bump allocator for decode output. Treat fields as private. */
typedef struct tyjson_arena {
    tyjson_alloc alc;       /* where blocks come from */
    void *head;             /* current block (list of blocks) */
    char *cur, *end;        /* free space in the current block */
    size_t used;            /* bytes handed out since the last reset */
    size_t block_bytes;     /* bytes of all blocks held */
    size_t next_block;      /* size of the next block to allocate */
    bool fixed;             /* over a caller buffer: never allocates */
    const char *note;       /* a custom codec's reason (tyjson_codec_fail) */
} tyjson_arena;

/** Arena whose blocks come from alc (NULL = libc; the record is copied).
 *  Allocates nothing yet; release it with tyjson_arena_free. A
 *  zero-initialised arena (memset to 0, never initialised) behaves as one
 *  initialised with alc = NULL. A NULL arena does nothing. */
TYJSON_API void tyjson_arena_init(tyjson_arena *arena, const tyjson_alloc *alc);
/** Arena over the caller's buffer only (which stays the caller's; the
 *  arena never allocates): running out is TYJSON_E_NOMEM. A NULL buf gives
 *  an empty arena whose every allocation fails. A NULL arena does nothing. */
TYJSON_API void tyjson_arena_init_buf(tyjson_arena *arena, void *buf, size_t size);
/** Makes all memory reusable (what was decoded into it is then invalid);
 *  keeps the largest block (so a steady stream of similar messages
 *  allocates nothing), frees the others. A NULL arena does nothing. */
TYJSON_API void tyjson_arena_reset(tyjson_arena *arena);
/** Releases every block. The arena may be initialised again. A NULL arena
 *  does nothing. */
TYJSON_API void tyjson_arena_free(tyjson_arena *arena);
/** `size` bytes aligned to `align` (a power of two <= 64; 0 means 1),
 *  valid until the next reset or free; NULL when out of memory, for any
 *  other align, or for a NULL arena. */
TYJSON_API void *tyjson_arena_alloc(tyjson_arena *arena, size_t size, size_t align);
/** Bytes handed out since the last reset; 0 for NULL. */
TYJSON_API size_t tyjson_arena_used(const tyjson_arena *arena);
/** An allocator view of the arena (free is a no-op; realloc copies unless
 *  the block is the last one). Valid while the arena lives. For a NULL
 *  arena, a record whose members are all NULL. */
TYJSON_API tyjson_alloc tyjson_arena_allocator(tyjson_arena *arena);

/* ----------------------------------------------------------------------------
 * MARK: - Kinds and field descriptors
 * ------------------------------------------------------------------------- */
/** The C type of a member (or of each element of an array field) and the
 *  JSON it maps to. Integers are range-checked: 300 into U8 is
 *  TYJSON_E_NUMBER_RANGE. */
typedef enum tyjson_kind {
    TYJSON_K_NONE = 0,  /**< no kind: refused by tyjson_struct_prepare */
    TYJSON_K_BOOL,      /**< bool */
    TYJSON_K_I8,        /**< int8_t */
    TYJSON_K_I16,       /**< int16_t */
    TYJSON_K_I32,       /**< int32_t */
    TYJSON_K_I64,       /**< int64_t */
    TYJSON_K_U8,        /**< uint8_t */
    TYJSON_K_U16,       /**< uint16_t */
    TYJSON_K_U32,       /**< uint32_t */
    TYJSON_K_U64,       /**< uint64_t */
    TYJSON_K_F32,       /**< float (integers accepted) */
    TYJSON_K_F64,       /**< double (integers accepted) */
    TYJSON_K_STR,       /**< tyjson_str: arena copy, or the input with TYJSON_DECODE_BORROW */
    TYJSON_K_CSTR,      /**< char *: NUL-terminated arena copy (U+0000 inside is an error) */
    TYJSON_K_CHARS,     /**< char[N] inline, NUL-terminated; longer than N-1 is E_SIZE */
    TYJSON_K_ENUM,      /**< integer member (size 1, 2, 4 or 8) mapped by name */
    TYJSON_K_STRUCT,    /**< nested struct by value: .type */
    TYJSON_K_PTR,       /**< pointer to a struct of .type, arena-allocated; NULL for null */
    TYJSON_K_DATE,      /**< tyjson_date from "YYYY-MM-DD" */
    TYJSON_K_DATETIME,  /**< tyjson_datetime from an ISO-8601 date-time string */
    TYJSON_K_EPOCH_MS,  /**< int64_t: ISO-8601 date-time string or a JSON integer */
    TYJSON_K_EPOCH_NS,  /**< int64_t nanoseconds, same inputs */
    TYJSON_K_VALUE,     /**< tyjson_val *: any JSON value, as a DOM in the arena */
    TYJSON_K_RAW,       /**< tyjson_str: the value's JSON text (encoding re-writes it by the write flags) */
    TYJSON_K_CUSTOM,    /**< a user codec: .codec */
    TYJSON_K_DECIMAL,   /**< tyjson_decimal from a JSON number or a string holding one ("19.99"), exactly */
    TYJSON__K_COUNT
} tyjson_kind;

/** How many values a field holds. */
typedef enum tyjson_shape {
    TYJSON_SHAPE_ONE = 0, /**< one member of the kind */
    TYJSON_SHAPE_FIXED,   /**< T member[N], count in a size_t member (.count_at) */
    TYJSON_SHAPE_DYN      /**< T *member (arena array), count in a size_t member (.count_at) */
} tyjson_shape;

/* Field flags. */
/** Missing key is TYJSON_E_MISSING_KEY. */
#define TYJSON_F_REQUIRED   (1u << 0)
/** JSON null accepted: the member is left zero (NULL for pointers); PTR
 *  fields always accept null. Without it null is TYJSON_E_TYPE.
 *  Encode: a STR/CSTR member whose pointer is NULL is written as null
 *  (without the flag, as ""). */
#define TYJSON_F_NULLABLE   (1u << 1)
/** Encode: leave the member out when it is zero (+0.0, not -0.0), empty
 *  ("", count 0) or NULL. (A member whose presence flag is false is always
 *  left out.) Refused with a default, REQUIRED, a presence flag or a state
 *  member: the member would not read back the same. */
#define TYJSON_F_OMIT_EMPTY (1u << 2)
/** Encode EPOCH_MS/EPOCH_NS as a number instead of an ISO-8601 string. */
#define TYJSON_F_EPOCH_NUMBER (1u << 3)
/** Encode: write null where the member would be left out (empty with
 *  OMIT_EMPTY, a zero date), and for a NULL string or dynamic-array
 *  pointer. Decode: null is accepted (as with NULLABLE). Refused with a
 *  presence flag, a state member or a default (see tyjson_struct_prepare). */
#define TYJSON_F_WRITE_NULL (1u << 4)
/** Encode a DECIMAL member as a string ("19.99") instead of a number (for
 *  readers that would take the number as a double). Decoding takes both. */
#define TYJSON_F_DECIMAL_STRING (1u << 5)

/* Type flags. */
/** An unknown key is TYJSON_E_UNKNOWN_KEY (default: skipped). */
#define TYJSON_T_UNKNOWN_ERROR   (1u << 0)
/** A repeated key is TYJSON_E_DUPLICATE_KEY (default: the first one wins,
 *  as with tyjson_obj_get; its later values are skipped). */
#define TYJSON_T_DUPLICATE_ERROR (1u << 1)
/** The type's JSON form is the array of its only field (which has shape
 *  FIXED or DYN): `[...]` instead of `{"key":[...]}`, wherever the type is
 *  used (at the root, as a STRUCT/PTR member or element). For a top-level
 *  JSON array such as a list of 100 objects. */
#define TYJSON_T_ARRAY           (1u << 2)

/** The three states of a field with a state member (TYJSON_STATE(T, m)):
 *  decoding sets it to ABSENT (key missing: the member is zero, or its
 *  default), NULL (JSON null: the member is zero) or SET (a value);
 *  encoding leaves the key out, writes null, or writes the member. */
typedef uint8_t tyjson_state;
#define TYJSON_STATE_ABSENT 0 /**< the key was not in the input */
#define TYJSON_STATE_NULL   1 /**< the key was there with null */
#define TYJSON_STATE_SET    2 /**< the key was there with a value */

/** One name of a TYJSON_K_ENUM member: the JSON string and the integer it
 *  stands for. A field's table is an array of them (TYJSON_FIELD_ENUM). */
typedef struct tyjson_enum_entry {
    const char *name;
    int64_t value;
} tyjson_enum_entry;

struct tyjson_struct;
struct tyjson_field;

/** A pair of callbacks for a member no kind fits. */
typedef struct tyjson_codec {
    /** Decodes `val` (the member's JSON value as a DOM, valid during the
     *  call) into `member`. Allocate from `arena`. Return TYJSON_OK or an
     *  error status (reported with the field's path). */
    tyjson_status (*decode)(void *ctx, const tyjson_val *val, void *member,
                            tyjson_arena *arena);
    /** Appends the member's JSON text (exactly one valid JSON value) with
     *  `write(wctx, bytes, len)`. Return TYJSON_OK or an error status. */
    tyjson_status (*encode)(void *ctx, const void *member,
                            tyjson_write_fn write, void *wctx);
    void *ctx;
} tyjson_codec;

/** Called by a codec's decode callback before it returns an error status:
 *  `msg` becomes the error's message (err->msg) instead of the generic
 *  "custom codec reported an error". The text is copied (into the arena
 *  until the call returns, then into err->msg); when the arena has no room
 *  for it the generic message is used. A NULL arena or msg does nothing. */
TYJSON_API void tyjson_codec_fail(tyjson_arena *arena, const char *msg);
/** The same for a codec's encode callback: pass the `wctx` the callback was
 *  given (and nothing else); `msg` becomes err->msg instead of "custom codec
 *  reported an error" when the callback then returns an error status. A
 *  NULL wctx or msg does nothing. */
TYJSON_API void tyjson_codec_encode_fail(void *wctx, const char *msg);

/** Default value applied to a missing member (and to a null one with
 *  TYJSON_F_NULLABLE): use the union member matching the kind. */
typedef union tyjson_default {
    int64_t i;
    uint64_t u;
    double f;
    bool b;
    const char *s; /* STR, CSTR, CHARS: NUL-terminated, referenced (not copied) */
} tyjson_default;

/** Descriptor of one struct member: built by the TYJSON_FIELD_* macros
 *  (or, in C, written out with designated initializers); read, never
 *  changed, by the library. The strings and tables it points to must
 *  outlive every use of the type. */
typedef struct tyjson_field {
    const char *name;      /* JSON key (UTF-8) */
    size_t offset;         /* offsetof the member */
    tyjson_kind kind;      /* of the member, or of each element */
    size_t size;           /* sizeof one member / element */
    tyjson_shape shape;
    size_t capacity;       /* FIXED: elements in the member array */
    size_t count_at;       /* FIXED/DYN: offsetof the size_t count + 1 (0 = none) */
    uint32_t flags;        /* TYJSON_F_* */
    size_t present_at;     /* offsetof a bool set when the key was seen + 1 (0 = none) */
    size_t state_at;       /* offsetof a tyjson_state member + 1 (0 = none) */
    struct tyjson_struct *type;             /* STRUCT, PTR, and struct elements */
    const tyjson_enum_entry *enums;       /* ENUM */
    size_t n_enums;
    const tyjson_codec *codec;            /* CUSTOM */
    const char *const *aliases;           /* NULL-terminated list of other accepted keys */
    bool has_default;
    tyjson_default dflt;
    int end_; /* always last; lets the macros close the initializer */
} tyjson_field;

/** Descriptor of a struct type (TYJSON_STRUCT): its fields and TYJSON_T_*
 *  flags. The library caches its preparation in `prepared` (so the
 *  descriptor is not const); tyjson_struct_release frees that cache for
 *  types built at run time. */
typedef struct tyjson_struct {
    const char *name;                 /* the C type name, for messages */
    size_t size;                      /* sizeof the struct */
    const tyjson_field *fields;
    size_t n_fields;
    uint32_t flags;                   /* TYJSON_T_* */
    void *prepared;                   /* library-owned cache; start NULL */
} tyjson_struct;

/** Initialiser of a tyjson_struct for struct T and a fields array. */
#define TYJSON_STRUCT(T, fields_, flags_)                                        \
    { #T, sizeof(T), (fields_), sizeof(fields_) / sizeof((fields_)[0]), (flags_), NULL }

/* ---- field macros ----------------------------------------------------------
 * TYJSON_FIELD_<KIND>(T, member, "key", extras...) describes one member.
 * The extras are optional and may come in any order:
 *
 *     TYJSON_FLAGS(TYJSON_F_REQUIRED | ...)  field flags (TYJSON_F_*)
 *     TYJSON_ALIASES(old_keys)               other accepted keys: a NULL-terminated
 *                                            `static const char *const old_keys[]`
 *     TYJSON_PRESENT(T, has_member)          a bool set when the key is seen
 *     TYJSON_STATE(T, state_member)          a tyjson_state: absent, null or set
 *     TYJSON_DEFAULT_I/U/F/B/S(v)            value of a missing member
 *     TYJSON_ELEM_TYPE(&type)                DYN/FIXED arrays of TYJSON_K_STRUCT/PTR
 *     TYJSON_ELEM_ENUMS(entries)             DYN/FIXED arrays of TYJSON_K_ENUM
 *     TYJSON_ELEM_CODEC(&codec)              DYN/FIXED arrays of TYJSON_K_CUSTOM
 *
 * The same line compiles as C and as C++. In C the extras are designated
 * initializers, so C code may also write them out (`.flags = TYJSON_F_REQUIRED`,
 * `.aliases = (const char *const[]){"old", NULL}`). C++ has no designators
 * in any order (nor compound literals), so there each extra is a small tag
 * object and TYJSON_FIELD_* applies the tags in order to a tyjson_field:
 * C++ code must use the macro spelling.
 * ------------------------------------------------------------------------- */
#ifndef __cplusplus
#define TYJSON__FIELD(kind_, T, m, key, ...)                                   \
    { .name = (key), .offset = offsetof(T, m), .kind = (kind_),                \
      .size = sizeof(((T *)0)->m), __VA_ARGS__ }
#define TYJSON__FIELD_ARR(kind_, shape_, cap_, T, m, key, count_m, ...)      \
    { .name = (key), .offset = offsetof(T, m), .kind = (kind_),                \
      .size = sizeof(((T *)0)->m[0]), .shape = (shape_), .capacity = (cap_),   \
      .count_at = offsetof(T, count_m) + 1, __VA_ARGS__ }
/* Closes every field initializer, so that the extras may be empty. */
#define TYJSON__END .end_ = 0

/** Extras: field flags (TYJSON_F_*); other accepted keys (a NULL-terminated
 *  array of strings); the element type, enum table or codec of a STRUCT,
 *  PTR, ENUM or CUSTOM field or array. See "field macros" above. */
#define TYJSON_FLAGS(x) .flags = (x)
#define TYJSON_ALIASES(list) .aliases = (list)
#define TYJSON_ELEM_TYPE(t) .type = (t)
#define TYJSON_ELEM_ENUMS(entries)                                             \
    .enums = (entries), .n_enums = sizeof(entries) / sizeof((entries)[0])
#define TYJSON_ELEM_CODEC(c) .codec = (c)
/** Extras: presence flag member (a bool set to true when the key was seen). */
#define TYJSON_PRESENT(T, has_m) .present_at = offsetof(T, has_m) + 1
/** Extras: state member (a tyjson_state: TYJSON_STATE_ABSENT, _NULL or _SET). */
#define TYJSON_STATE(T, state_m) .state_at = offsetof(T, state_m) + 1
/** Extras: default values, one per member of tyjson_default. */
#define TYJSON_DEFAULT_I(v) .has_default = true, .dflt = {.i = (v)}
#define TYJSON_DEFAULT_U(v) .has_default = true, .dflt = {.u = (v)}
#define TYJSON_DEFAULT_F(v) .has_default = true, .dflt = {.f = (v)}
#define TYJSON_DEFAULT_B(v) .has_default = true, .dflt = {.b = (v)}
#define TYJSON_DEFAULT_S(v) .has_default = true, .dflt = {.s = (v)}

#else /* C++: tag objects applied in order */
extern "C++" { /* templates need C++ linkage, even inside extern "C" */
#if __cplusplus >= 201402L
#define TYJSON__CXX14_CONSTEXPR constexpr /* relaxed constexpr: C++14 */
#else
#define TYJSON__CXX14_CONSTEXPR inline
#endif
#if __cplusplus >= 202002L
#define TYJSON__CXX20_CONSTEXPR constexpr /* changing a union's member: C++20 */
#else
#define TYJSON__CXX20_CONSTEXPR inline
#endif
namespace tyjson__ {
struct flags_tag { uint32_t v; };
struct aliases_tag { const char *const *v; };
struct type_tag { struct tyjson_struct *v; };
struct enums_tag { const tyjson_enum_entry *v; size_t n; };
struct codec_tag { const tyjson_codec *v; };
struct present_tag { size_t at; };
struct state_tag { size_t at; };
struct default_i_tag { int64_t v; };
struct default_u_tag { uint64_t v; };
struct default_f_tag { double v; };
struct default_b_tag { bool v; };
struct default_s_tag { const char *v; };
struct end_tag {};

TYJSON__CXX14_CONSTEXPR void put(tyjson_field &f, flags_tag t) { f.flags = t.v; }
TYJSON__CXX14_CONSTEXPR void put(tyjson_field &f, aliases_tag t) { f.aliases = t.v; }
TYJSON__CXX14_CONSTEXPR void put(tyjson_field &f, type_tag t) { f.type = t.v; }
TYJSON__CXX14_CONSTEXPR void put(tyjson_field &f, enums_tag t) { f.enums = t.v; f.n_enums = t.n; }
TYJSON__CXX14_CONSTEXPR void put(tyjson_field &f, codec_tag t) { f.codec = t.v; }
TYJSON__CXX14_CONSTEXPR void put(tyjson_field &f, present_tag t) { f.present_at = t.at; }
TYJSON__CXX14_CONSTEXPR void put(tyjson_field &f, state_tag t) { f.state_at = t.at; }
/* i is the union's first member, the one a zeroed field holds already. */
TYJSON__CXX14_CONSTEXPR void put(tyjson_field &f, default_i_tag t) { f.has_default = true; f.dflt.i = t.v; }
TYJSON__CXX20_CONSTEXPR void put(tyjson_field &f, default_u_tag t) { f.has_default = true; f.dflt.u = t.v; }
TYJSON__CXX20_CONSTEXPR void put(tyjson_field &f, default_f_tag t) { f.has_default = true; f.dflt.f = t.v; }
TYJSON__CXX20_CONSTEXPR void put(tyjson_field &f, default_b_tag t) { f.has_default = true; f.dflt.b = t.v; }
TYJSON__CXX20_CONSTEXPR void put(tyjson_field &f, default_s_tag t) { f.has_default = true; f.dflt.s = t.v; }

/* A field of one member with every extra still zero. */
TYJSON__CXX14_CONSTEXPR tyjson_field one(const char *name, size_t offset, tyjson_kind kind,
                                         size_t size) {
    tyjson_field f{};
    f.name = name;
    f.offset = offset;
    f.kind = kind;
    f.size = size;
    return f;
}
/* A FIXED or DYN array field: count_at is offsetof the count + 1. */
TYJSON__CXX14_CONSTEXPR tyjson_field arr(const char *name, size_t offset, tyjson_kind kind,
                                         size_t size, tyjson_shape shape, size_t capacity,
                                         size_t count_at) {
    tyjson_field f = one(name, offset, kind, size);
    f.shape = shape;
    f.capacity = capacity;
    f.count_at = count_at;
    return f;
}
/* f with the extras applied left to right; the list always ends with
 * end_tag (see TYJSON__END). */
TYJSON__CXX14_CONSTEXPR tyjson_field with(tyjson_field f, end_tag) { return f; }
template <class Tag, class... Rest>
TYJSON__CXX14_CONSTEXPR tyjson_field with(tyjson_field f, Tag tag, Rest... rest) {
    put(f, tag);
    return with(f, rest...);
}
} /* namespace tyjson__ */
} /* extern "C++" */

#define TYJSON__FIELD(kind_, T, m, key, ...)                                   \
    ::tyjson__::with(::tyjson__::one((key), offsetof(T, m), (kind_),           \
                                     sizeof(((T *)0)->m)), __VA_ARGS__)
#define TYJSON__FIELD_ARR(kind_, shape_, cap_, T, m, key, count_m, ...)      \
    ::tyjson__::with(::tyjson__::arr((key), offsetof(T, m), (kind_),           \
                                     sizeof(((T *)0)->m[0]), (shape_), (cap_), \
                                     offsetof(T, count_m) + 1), __VA_ARGS__)
#define TYJSON__END ::tyjson__::end_tag()

#define TYJSON_FLAGS(x) ::tyjson__::flags_tag{static_cast<uint32_t>(x)}
#define TYJSON_ALIASES(list) ::tyjson__::aliases_tag{(list)}
#define TYJSON_ELEM_TYPE(t) ::tyjson__::type_tag{(t)}
#define TYJSON_ELEM_ENUMS(entries)                                             \
    ::tyjson__::enums_tag{(entries), sizeof(entries) / sizeof((entries)[0])}
#define TYJSON_ELEM_CODEC(c) ::tyjson__::codec_tag{(c)}
#define TYJSON_PRESENT(T, has_m) ::tyjson__::present_tag{offsetof(T, has_m) + 1}
#define TYJSON_STATE(T, state_m) ::tyjson__::state_tag{offsetof(T, state_m) + 1}
#define TYJSON_DEFAULT_I(v) ::tyjson__::default_i_tag{static_cast<int64_t>(v)}
#define TYJSON_DEFAULT_U(v) ::tyjson__::default_u_tag{static_cast<uint64_t>(v)}
#define TYJSON_DEFAULT_F(v) ::tyjson__::default_f_tag{static_cast<double>(v)}
#define TYJSON_DEFAULT_B(v) ::tyjson__::default_b_tag{static_cast<bool>(v)}
#define TYJSON_DEFAULT_S(v) ::tyjson__::default_s_tag{(v)}
#endif /* __cplusplus */

/** TYJSON_FIELD_<KIND>(T, member, "key", extras...): the descriptor of a
 *  member of that kind (the member's C type is the kind's, see
 *  tyjson_kind); the extras are those of "field macros" above. */
#define TYJSON_FIELD_BOOL(...) TYJSON__FIELD(TYJSON_K_BOOL, __VA_ARGS__, TYJSON__END)
#define TYJSON_FIELD_I8(...) TYJSON__FIELD(TYJSON_K_I8, __VA_ARGS__, TYJSON__END)
#define TYJSON_FIELD_I16(...) TYJSON__FIELD(TYJSON_K_I16, __VA_ARGS__, TYJSON__END)
#define TYJSON_FIELD_I32(...) TYJSON__FIELD(TYJSON_K_I32, __VA_ARGS__, TYJSON__END)
#define TYJSON_FIELD_I64(...) TYJSON__FIELD(TYJSON_K_I64, __VA_ARGS__, TYJSON__END)
#define TYJSON_FIELD_U8(...) TYJSON__FIELD(TYJSON_K_U8, __VA_ARGS__, TYJSON__END)
#define TYJSON_FIELD_U16(...) TYJSON__FIELD(TYJSON_K_U16, __VA_ARGS__, TYJSON__END)
#define TYJSON_FIELD_U32(...) TYJSON__FIELD(TYJSON_K_U32, __VA_ARGS__, TYJSON__END)
#define TYJSON_FIELD_U64(...) TYJSON__FIELD(TYJSON_K_U64, __VA_ARGS__, TYJSON__END)
#define TYJSON_FIELD_F32(...) TYJSON__FIELD(TYJSON_K_F32, __VA_ARGS__, TYJSON__END)
#define TYJSON_FIELD_F64(...) TYJSON__FIELD(TYJSON_K_F64, __VA_ARGS__, TYJSON__END)
#define TYJSON_FIELD_STR(...) TYJSON__FIELD(TYJSON_K_STR, __VA_ARGS__, TYJSON__END)
#define TYJSON_FIELD_CSTR(...) TYJSON__FIELD(TYJSON_K_CSTR, __VA_ARGS__, TYJSON__END)
#define TYJSON_FIELD_CHARS(...) TYJSON__FIELD(TYJSON_K_CHARS, __VA_ARGS__, TYJSON__END)
#define TYJSON_FIELD_DATE(...) TYJSON__FIELD(TYJSON_K_DATE, __VA_ARGS__, TYJSON__END)
#define TYJSON_FIELD_DATETIME(...) TYJSON__FIELD(TYJSON_K_DATETIME, __VA_ARGS__, TYJSON__END)
#define TYJSON_FIELD_EPOCH_MS(...) TYJSON__FIELD(TYJSON_K_EPOCH_MS, __VA_ARGS__, TYJSON__END)
#define TYJSON_FIELD_EPOCH_NS(...) TYJSON__FIELD(TYJSON_K_EPOCH_NS, __VA_ARGS__, TYJSON__END)
#define TYJSON_FIELD_VALUE(...) TYJSON__FIELD(TYJSON_K_VALUE, __VA_ARGS__, TYJSON__END)
#define TYJSON_FIELD_RAW(...) TYJSON__FIELD(TYJSON_K_RAW, __VA_ARGS__, TYJSON__END)
#define TYJSON_FIELD_DECIMAL(...) TYJSON__FIELD(TYJSON_K_DECIMAL, __VA_ARGS__, TYJSON__END)
/** TYJSON_FIELD_ENUM(T, member, "key", entries_array, extras...) */
#define TYJSON_FIELD_ENUM(T, m, key, ...) TYJSON__FIELD_ENUM(T, m, key, __VA_ARGS__, TYJSON__END)
#define TYJSON__FIELD_ENUM(T, m, key, entries, ...)                            \
    TYJSON__FIELD(TYJSON_K_ENUM, T, m, key, TYJSON_ELEM_ENUMS(entries), __VA_ARGS__)
/** TYJSON_FIELD_STRUCT(T, member, "key", &nested_type, extras...) */
#define TYJSON_FIELD_STRUCT(T, m, key, ...) TYJSON__FIELD_TYPED(TYJSON_K_STRUCT, T, m, key, __VA_ARGS__, TYJSON__END)
/** TYJSON_FIELD_PTR(T, member, "key", &pointee_type, extras...) */
#define TYJSON_FIELD_PTR(T, m, key, ...) TYJSON__FIELD_TYPED(TYJSON_K_PTR, T, m, key, __VA_ARGS__, TYJSON__END)
#define TYJSON__FIELD_TYPED(kind_, T, m, key, type_, ...)                      \
    TYJSON__FIELD(kind_, T, m, key, TYJSON_ELEM_TYPE(type_), __VA_ARGS__)
/** TYJSON_FIELD_CUSTOM(T, member, "key", &codec, extras...) */
#define TYJSON_FIELD_CUSTOM(T, m, key, ...) TYJSON__FIELD_CUSTOM(T, m, key, __VA_ARGS__, TYJSON__END)
#define TYJSON__FIELD_CUSTOM(T, m, key, codec_, ...)                           \
    TYJSON__FIELD(TYJSON_K_CUSTOM, T, m, key, TYJSON_ELEM_CODEC(codec_), __VA_ARGS__)

/** Dynamic array: `E *member` plus `size_t count_member`:
 *  TYJSON_FIELD_DYN(T, member, "key", count_member, TYJSON_K_..., extras...)
 *  (for struct elements add TYJSON_ELEM_TYPE(&elem_type)). */
#define TYJSON_FIELD_DYN(T, m, key, count_m, ...) \
    TYJSON__FIELD_DYN(T, m, key, count_m, __VA_ARGS__, TYJSON__END)
#define TYJSON__FIELD_DYN(T, m, key, count_m, kind_, ...) \
    TYJSON__FIELD_ARR(kind_, TYJSON_SHAPE_DYN, 0, T, m, key, count_m, __VA_ARGS__)
/** Fixed array: `E member[N]` plus `size_t count_member` (more than N
 *  elements is TYJSON_E_SIZE). */
#define TYJSON_FIELD_FIXED(T, m, key, count_m, ...) \
    TYJSON__FIELD_FIXED(T, m, key, count_m, __VA_ARGS__, TYJSON__END)
#define TYJSON__FIELD_FIXED(T, m, key, count_m, kind_, ...) \
    TYJSON__FIELD_ARR(kind_, TYJSON_SHAPE_FIXED,                               \
                      sizeof(((T *)0)->m) / sizeof(((T *)0)->m[0]), T, m, key, count_m, __VA_ARGS__)

/* ---- one-list declaration ----------------------------------------------------
 * Declares a struct and its descriptor from one list so they cannot drift:
 *
 *     #define POINT_FIELDS(X, T)        \
 *         X(T, I32, x, "x")             \
 *         X(T, I32, y, "y")             \
 *         X(T, STR, label, "label")
 *     TYJSON_DECLARE_STRUCT(point, POINT_FIELDS)   // typedef struct point {...} point;
 *     TYJSON_DEFINE_TYPE(point, POINT_FIELDS, 0)   // point_fields[] and point_type
 *
 * Kinds in this form: BOOL I8 I16 I32 I64 U8 U16 U32 U64 F32 F64 STR CSTR
 * DATE DATETIME EPOCH_MS EPOCH_NS VALUE RAW. (Use the table form for the
 * others.) DECLARE goes in a header, DEFINE in one .c file.
 * ------------------------------------------------------------------------- */
#define TYJSON__CTYPE_BOOL bool
#define TYJSON__CTYPE_I8 int8_t
#define TYJSON__CTYPE_I16 int16_t
#define TYJSON__CTYPE_I32 int32_t
#define TYJSON__CTYPE_I64 int64_t
#define TYJSON__CTYPE_U8 uint8_t
#define TYJSON__CTYPE_U16 uint16_t
#define TYJSON__CTYPE_U32 uint32_t
#define TYJSON__CTYPE_U64 uint64_t
#define TYJSON__CTYPE_F32 float
#define TYJSON__CTYPE_F64 double
#define TYJSON__CTYPE_STR tyjson_str
#define TYJSON__CTYPE_CSTR char *
#define TYJSON__CTYPE_DATE tyjson_date
#define TYJSON__CTYPE_DATETIME tyjson_datetime
#define TYJSON__CTYPE_EPOCH_MS int64_t
#define TYJSON__CTYPE_EPOCH_NS int64_t
#define TYJSON__CTYPE_VALUE tyjson_val *
#define TYJSON__CTYPE_RAW tyjson_str
#define TYJSON__CTYPE_DECIMAL tyjson_decimal
#define TYJSON__X_MEMBER(T, kind, m, key) TYJSON__CTYPE_##kind m;
#define TYJSON__X_FIELD(T, kind, m, key) TYJSON__FIELD(TYJSON_K_##kind, T, m, key, TYJSON__END),
/** Declares `typedef struct T {...} T;` with one member per LIST entry,
 *  and `extern tyjson_struct T##_type`. */
#define TYJSON_DECLARE_STRUCT(T, LIST)                                         \
    typedef struct T { LIST(TYJSON__X_MEMBER, T) } T;                          \
    extern tyjson_struct T##_type
/** Defines `T##_fields[]` and `tyjson_struct T##_type` (with TYJSON_T_*
 *  flags_) from the same LIST. */
#define TYJSON_DEFINE_TYPE(T, LIST, flags_)                                    \
    static const tyjson_field T##_fields[] = { LIST(TYJSON__X_FIELD, T) };     \
    tyjson_struct T##_type = TYJSON_STRUCT(T, T##_fields, flags_)

/**
 * Checks a type's descriptors (and those of every type it reaches) and
 * builds its lookup tables now rather than on first use. Bad descriptors
 * (two fields or aliases with the same key, a size that does not match the
 * kind, a STRUCT without .type, ...) and flag combinations whose encoding
 * would not decode back to the same struct (OMIT_EMPTY with a default or
 * REQUIRED, WRITE_NULL with a presence flag, ...: docs/binding.md section
 * 13) give TYJSON_E_INVALID_ARG with the field named in err->path and the
 * reason in err->msg; out of memory is TYJSON_E_NOMEM; a NULL type is
 * TYJSON_E_INVALID_ARG. Idempotent and thread-safe; decode and encode call
 * it on first use.
 */
TYJSON_API tyjson_status tyjson_struct_prepare(tyjson_struct *type, tyjson_error *err);

/**
 * Frees what preparation built for this type (type->prepared, back to
 * NULL), for descriptors built at run time. Only this type: the nested
 * types it reaches keep theirs; the caller releases each type it built
 * (in any order). The type may be prepared and used again afterwards. Not
 * thread-safe: no decode or encode may be using the type (or a type that
 * reaches it) during the call or after it until it is prepared again.
 * A NULL type does nothing.
 */
TYJSON_API void tyjson_struct_release(tyjson_struct *type);

/* ----------------------------------------------------------------------------
 * MARK: - Decoding
 * ------------------------------------------------------------------------- */
/** A set of TYJSON_DECODE_* bits, combined with `|`; 0 copies strings and
 *  leaves unknown keys to the type's flags. */
typedef uint32_t tyjson_decode_flags;
/** Strings without escapes point into the input (which must then outlive
 *  the result) instead of being copied into the arena. */
#define TYJSON_DECODE_BORROW (1u << 0)
/** Every type rejects unknown keys, whatever its own flags. */
#define TYJSON_DECODE_UNKNOWN_ERROR (1u << 1)
/** Stop after the value; report bytes consumed in *read_size (NDJSON). */
#define TYJSON_DECODE_STOP_WHEN_DONE (1u << 2)

/** Options of tyjson_decode; all zero (or a NULL pointer) is strict RFC
 *  8259, copied strings, the default depth. */
typedef struct tyjson_decode_options {
    /** TYJSON_DECODE_* bits (other bits are ignored). */
    tyjson_decode_flags flags;
    /** Every TYJSON_READ_* flag: the relaxations (_ALLOW_COMMENTS,
     *  _TRAILING_COMMAS, _INF_NAN, _BOM, _INVALID_UTF8), _STOP_WHEN_DONE (as
     *  TYJSON_DECODE_STOP_WHEN_DONE), _REJECT_DUPLICATE_KEYS (as
     *  TYJSON_T_DUPLICATE_ERROR on every type, and inside VALUE members),
     *  _BIGNUM_AS_RAW and _NUMBER_AS_RAW (VALUE and CUSTOM values). Other
     *  bits, the JSON5 ones among them (docs/api.md "JSON5": the decoder
     *  reads JSON), are
     *  TYJSON_E_INVALID_ARG. */
    tyjson_read_flags read_flags;
    /** Nesting limit; 0 = TYJSON_DEFAULT_MAX_DEPTH. */
    uint32_t max_depth;
    /** With TYJSON_DECODE_STOP_WHEN_DONE: receives the bytes consumed;
     *  may be NULL. */
    size_t *read_size;
} tyjson_decode_options;

/**
 * Decodes the JSON text into *out, a struct described by `type`.
 * @param arena  memory for strings, arrays and pointed-to structs; required.
 * @param opts   NULL = strict, copies, unknown keys by type flags.
 * A NULL type, out or arena, or NULL json with len > 0, is
 * TYJSON_E_INVALID_ARG; NULL json with len 0 is empty input (TYJSON_E_EMPTY).
 * @return TYJSON_OK, or an error (also in err, with the JSON path such as
 *   `$.photos[17].author.age`, the offset, line and column, and a message
 *   saying what was expected and what was found): the reading codes, and
 *   TYJSON_E_TYPE, _NUMBER_RANGE, _MISSING_KEY, _UNKNOWN_KEY, _DUPLICATE_KEY,
 *   _ENUM, _DATE, _SIZE, _NOMEM, a descriptor's TYJSON_E_INVALID_ARG, or
 *   a codec's status. On error *out (when not NULL) is zeroed;
 *   memory taken from the arena stays taken until the arena is reset.
 * Members whose key is absent are zero, or their default. Of a key repeated
 * in one object the first occurrence wins. err->msg is held in the error
 * record (enum names found and allowed, date reasons, a codec's
 * tyjson_codec_fail text), so it outlives the input and the arena.
 */
TYJSON_API tyjson_status tyjson_decode(tyjson_struct *type, void *out, const char *json,
                                       size_t len, tyjson_arena *arena,
                                       const tyjson_decode_options *opts,
                                       tyjson_error *err);

/* ----------------------------------------------------------------------------
 * MARK: - Encoding
 * ------------------------------------------------------------------------- */

/** A reusable output buffer: clear it and encode the next message into the
 *  same memory (no allocation once it is large enough). */
typedef struct tyjson_buf {
    char *data;   /* NUL-terminated after each successful encode; owned by the buffer */
    size_t len;
    size_t cap;
    tyjson_alloc alc;
} tyjson_buf;

/** Empty buffer whose memory comes from alc (NULL = libc; the record is
 *  copied). Allocates nothing yet. A NULL buf does nothing. */
TYJSON_API void tyjson_buf_init(tyjson_buf *buf, const tyjson_alloc *alc);
/** Sets the length to 0, keeping the memory for the next encode. A NULL
 *  buf does nothing. */
TYJSON_API void tyjson_buf_clear(tyjson_buf *buf);
/** Releases the memory; the buffer is then empty and may be used again.
 *  A NULL buf does nothing. */
TYJSON_API void tyjson_buf_free(tyjson_buf *buf);

/** Appends the encoding of *in to buf (buf->len grows). A NULL buf, type
 *  or in is TYJSON_E_INVALID_ARG, with buf unchanged. Errors: TYJSON_E_NAN_INF,
 *  _UTF8, _ENUM, _DATE, _DEPTH, _SIZE, _CALLBACK (a codec), _NOMEM, a
 *  descriptor's TYJSON_E_INVALID_ARG (tyjson_struct_prepare). */
TYJSON_API tyjson_status tyjson_encode_append(tyjson_buf *buf, tyjson_struct *type, const void *in,
                                              const tyjson_write_options *opts,
                                              tyjson_error *err);
/** Encodes into a new NUL-terminated buffer (free it with
 *  tyjson_free(opts ? opts->alc : NULL, p)); *len (may be NULL) receives its
 *  length, 0 on error. NULL on error: the codes of tyjson_encode_append. */
TYJSON_API char *tyjson_encode(tyjson_struct *type, const void *in, const tyjson_write_options *opts,
                               size_t *len, tyjson_error *err);
/** Encodes into the caller's buffer; return value as tyjson_val_write_buf
 *  (NULL out with cap 0 measures; NULL with cap > 0 is
 *  TYJSON_E_INVALID_ARG). Never allocates for the text. */
TYJSON_API size_t tyjson_encode_buf(tyjson_struct *type, const void *in, char *out, size_t cap,
                                    const tyjson_write_options *opts, tyjson_error *err);
/** Encodes to a stdio stream (left open); false on error: the codes of
 *  tyjson_encode_append, TYJSON_E_INVALID_ARG for a NULL fp, TYJSON_E_IO. */
TYJSON_API bool tyjson_encode_fp(FILE *fp, tyjson_struct *type, const void *in,
                                 const tyjson_write_options *opts, tyjson_error *err);
/** Streams the encoding in pieces to fn(ctx, data, len); false on error:
 *  the codes of tyjson_encode_append, TYJSON_E_INVALID_ARG for a NULL fn
 *  (fn is not called), TYJSON_E_CALLBACK when fn returns non-zero. */
TYJSON_API bool tyjson_encode_cb(tyjson_write_fn fn, void *ctx, tyjson_struct *type, const void *in,
                                 const tyjson_write_options *opts, tyjson_error *err);

/* ----------------------------------------------------------------------------
 * MARK: - Dates (used by the DATE/DATETIME/EPOCH kinds; public for callers)
 * ------------------------------------------------------------------------- */
/** Parses exactly the `len` bytes "YYYY-MM-DD" (a valid calendar date) into
 *  *out. False for other text or a NULL s or out. */
TYJSON_API bool tyjson_date_parse(const char *s, size_t len, tyjson_date *out);
/** Parses exactly the `len` bytes of an ISO-8601 date-time (see
 *  tyjson_datetime) into *out. False for other text or a NULL s or out. */
TYJSON_API bool tyjson_datetime_parse(const char *s, size_t len, tyjson_datetime *out);
/** Writes "YYYY-MM-DD" (10 bytes, no NUL); returns 10, or 0 if the date is
 *  invalid or d or out is NULL. */
TYJSON_API size_t tyjson_date_format(const tyjson_date *d, char *out);
/** Writes the date-time (at most 35 bytes, no NUL); returns its length, or
 *  0 if it is invalid or dt or out is NULL. */
TYJSON_API size_t tyjson_datetime_format(const tyjson_datetime *dt, char *out);
/** Nanoseconds since 1970-01-01T00:00:00Z of a date-time (proleptic
 *  Gregorian, its offset applied) into *ns. False, storing nothing, if dt
 *  is invalid, does not fit int64, or dt or ns is NULL. */
TYJSON_API bool tyjson_datetime_to_epoch_ns(const tyjson_datetime *dt, int64_t *ns);
/** The UTC date-time (offset 0) of `ns` nanoseconds since the epoch into
 *  *dt. False if its year falls outside 0000-9999 or dt is NULL. */
TYJSON_API bool tyjson_datetime_from_epoch_ns(int64_t ns, tyjson_datetime *dt);

/* ----------------------------------------------------------------------------
 * MARK: - Exact decimals (used by the DECIMAL kind; public for callers)
 * ------------------------------------------------------------------------- */
/** Longest text tyjson_decimal_format writes, without a NUL. */
#define TYJSON_DECIMAL_MAX 40
/** Parses exactly the `len` bytes of a JSON number (RFC 8259 grammar) into
 *  *out, digit for digit. False for other text, a coefficient beyond int64
 *  (19 significant digits always fit), a scale beyond +-1e9, or a NULL s or
 *  out. */
TYJSON_API bool tyjson_decimal_parse(const char *s, size_t len, tyjson_decimal *out);
/** Writes the decimal as JSON number text that tyjson_decimal_parse reads
 *  back to exactly *d: plain notation for scales 0-24 ("19.99", "0.005",
 *  "1990"), else an exponent ("15e2" for {15, -2}, "5e-40"). Returns its
 *  length (at most TYJSON_DECIMAL_MAX bytes, no NUL), or 0 if the scale is
 *  beyond +-1e9 or d or out is NULL. */
TYJSON_API size_t tyjson_decimal_format(const tyjson_decimal *d, char *out);

#ifdef __cplusplus
}
#endif
#endif /* TYJSON_BIND_H */
