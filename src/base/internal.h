/*
 * internal.h - private vocabulary shared by every source file: short integer
 * names, branch hints, checked size arithmetic, allocator plumbing and the
 * layout of the immutable document header.
 */
#ifndef TYJSON_INTERNAL_H
#define TYJSON_INTERNAL_H

#include "tyjson.h"

#include <assert.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t i64;
typedef size_t usize;

#if defined(__GNUC__) || defined(__clang__)
#  define likely(x) __builtin_expect(!!(x), 1)
#  define unlikely(x) __builtin_expect(!!(x), 0)
#  define TYJSON__NOINLINE __attribute__((noinline))
#  define TYJSON__FORCEINLINE static inline __attribute__((always_inline))
#else
#  define likely(x) (x)
#  define unlikely(x) (x)
#  define TYJSON__NOINLINE
#  define TYJSON__FORCEINLINE static inline
#endif

/* The code a process runs for its first binding decode, type preparation
 * included, sits in one section: GNU ld places every .text.hot.* input
 * section in one run, so a cold start faults in a few pages of code rather
 * than a page or more per source file (each fault costs microseconds). */
#if defined(__ELF__) && (defined(__GNUC__) || defined(__clang__))
#  define TYJSON__FIRST_USE __attribute__((section(".text.hot.tyjson")))
#else
#  define TYJSON__FIRST_USE
#endif

/* API misuse (a programmer error) is checked by assertion in debug builds;
 * bad input is never asserted on, it gets a status. */
#define TYJSON_API_CHECK(cond) assert(cond)

/* Bytes of zero padding after the document's copy of the input. The lexer
 * may load 8 bytes at a time anywhere before the end of the data, and string
 * unescaping writes a NUL after each string. */
#define TYJSON__PAD 64

/* ----------------------------------------------------------------------------
 * Checked size arithmetic: every size computed from input lengths goes
 * through these, so a huge length fails instead of wrapping.
 * ------------------------------------------------------------------------- */
TYJSON__FORCEINLINE bool tyjson__add_ovf(usize a, usize b, usize *out) {
    *out = a + b;
    return *out < a;
}
TYJSON__FORCEINLINE bool tyjson__mul_ovf(usize a, usize b, usize *out) {
    if (a && b > SIZE_MAX / a) return true;
    *out = a * b;
    return false;
}

/* ----------------------------------------------------------------------------
 * Allocator plumbing. Documents keep their allocator by value.
 * ------------------------------------------------------------------------- */
extern const tyjson_alloc tyjson__libc_alloc;

TYJSON__FORCEINLINE tyjson_alloc tyjson__alc_or_libc(const tyjson_alloc *alc) {
    return alc ? *alc : tyjson__libc_alloc;
}
TYJSON__FORCEINLINE void *tyjson__malloc(const tyjson_alloc *a, usize n) {
    return a->malloc(a->ctx, n);
}
TYJSON__FORCEINLINE void *tyjson__realloc(const tyjson_alloc *a, void *p, usize old, usize n) {
    return a->realloc(a->ctx, p, old, n);
}
TYJSON__FORCEINLINE void tyjson__free(const tyjson_alloc *a, void *p) {
    if (p) a->free(a->ctx, p);
}

/* ----------------------------------------------------------------------------
 * Immutable document. The header and the value array share one allocation
 * (values start right after the header); string bytes live in `str_pool`,
 * the document's padded copy of the input, unescaped in place. A parsed
 * document's header and values usually follow that copy in the same block
 * (in_pool): one allocation per parse, and one free.
 * ------------------------------------------------------------------------- */
struct tyjson_doc {
    tyjson_val *root;
    usize read_size;  /* input bytes consumed */
    usize val_count;  /* values in use */
    usize mem_size;   /* bytes held: this block (unless in_pool) + str_pool */
    usize block_size; /* bytes of this block (header + value array) */
    tyjson_alloc alc;
    char *str_pool;   /* NULL when the document has no strings of its own */
    usize str_pool_size;
    bool in_pool;     /* this block lies inside str_pool's (freed with it) */
};

TYJSON__FORCEINLINE tyjson_val *tyjson__doc_vals(tyjson_doc *doc) {
    return (tyjson_val *)(void *)((char *)doc + sizeof(tyjson_doc));
}

/* ----------------------------------------------------------------------------
 * Tag helpers.
 * ------------------------------------------------------------------------- */
TYJSON__FORCEINLINE u64 tyjson__tag(u64 kind, u64 len) {
    return kind | (len << TYJSON__LEN_SHIFT);
}
TYJSON__FORCEINLINE usize tyjson__tag_len(u64 tag) { return (usize)(tag >> TYJSON__LEN_SHIFT); }
/* The one rule of the scalar setters of both documents (tyjson_set_* in
 * dom.c, tyjson_mut_set_* in mut.c): a scalar's whole tag (the no-escape
 * and float marks included) and its payload are rewritten; a container is
 * refused (false, nothing changed). The caller checks for NULL. */
TYJSON__FORCEINLINE bool tyjson__set_scalar(u64 *tag, tyjson_val_uni *uni, u64 new_tag,
                                            tyjson_val_uni val) {
    if ((*tag & TYJSON__TYPE_MASK) >= TYJSON_TYPE_ARR) return false;
    *tag = new_tag;
    *uni = val;
    return true;
}
/* The payloads the setters store. */
TYJSON__FORCEINLINE tyjson_val_uni tyjson__uni_u64(u64 n) {
    tyjson_val_uni u;
    u.u64 = n;
    return u;
}
TYJSON__FORCEINLINE tyjson_val_uni tyjson__uni_f64(double d) {
    tyjson_val_uni u;
    u.f64 = d;
    return u;
}
TYJSON__FORCEINLINE tyjson_val_uni tyjson__uni_str(const char *s) {
    tyjson_val_uni u;
    u.str = s;
    return u;
}
/* Tags of the setters' kinds. */
#define TYJSON__TAG_REAL  ((u64)(TYJSON_TYPE_NUM | TYJSON_SUBTYPE_REAL))
#define TYJSON__TAG_FLOAT (TYJSON__TAG_REAL | TYJSON__FLOAT_BIT)
/* Whether a string length fits the 56 bits the tag keeps for it. */
TYJSON__FORCEINLINE bool tyjson__len_fits(usize len) {
    return ((u64)len >> (64 - TYJSON__LEN_SHIFT)) == 0;
}

/* ----------------------------------------------------------------------------
 * Errors (error.c).
 * ------------------------------------------------------------------------- */
/** Fills err (if not NULL) with code, the static message, offset, and the
 *  line/column of offset within dat[0..len). dat may be NULL (line/col 0). */
void tyjson__err_set(tyjson_error *err, tyjson_status code, const char *dat,
                     usize len, usize offset);
/** Clears err to TYJSON_OK. */
void tyjson__err_ok(tyjson_error *err);
/* Whether a key is written `.key` in a JSON path (an identifier: letters,
 * '_', digits after the first) rather than `["key"]`: the binding's error
 * paths and the pull reader's paths. */
bool tyjson__path_ident(const u8 *k, usize n);
/* Writes key k's step of a JSON path through put: `.key` for an identifier,
 * else `["k\"ey"]` ('"' and '\\' escaped, control bytes as \u00XX). The
 * one quoting rule of the binding's error paths and the reader's paths. */
void tyjson__path_key(const u8 *k, usize n, void (*put)(void *ctx, const char *s, usize n),
                      void *ctx);
/* Copies msg into err->msg (cut with "..." past TYJSON_ERROR_MSG_MAX). */
void tyjson__err_msg(tyjson_error *err, const char *msg);

#endif /* TYJSON_INTERNAL_H */
