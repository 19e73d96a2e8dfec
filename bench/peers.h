/*
 * peers.h - the interface between the benchmark driver (bench.c) and the
 * libraries it compares ("contenders"): tyjson itself and its peers.
 *
 * Each contender is one adapter file in bench/peers/ that fills a
 * bench_adapter. The driver knows nothing about any library: it calls these
 * hooks, times them, and checks their results against each other. An adapter
 * leaves a hook NULL when its library cannot do that operation; the driver
 * then prints n/a with the reason in `notes`.
 *
 * State: create() returns a state that the adapter reuses between calls
 * (a simdjson parser, a json-c tokener, ...). A state holds at most one
 * document at a time: the driver always calls free_doc() before the next
 * parse() on the same state. The driver keeps
 * separate states for the document under test and for parse loops.
 *
 * Input: `dat` holds `len` bytes of JSON followed by a NUL byte at dat[len]
 * that is not part of the input (yajl's tree API needs NUL-terminated text;
 * every other adapter must ignore it). The bytes stay valid and unchanged
 * until the driver frees them, but adapters must not rely on that beyond
 * the parse call unless their library is documented to need it.
 *
 * Typed scenarios (struct binding) have their own interface, bench_typed,
 * below; an adapter file may fill one or both.
 */
#ifndef TYJSON_BENCH_PEERS_H
#define TYJSON_BENCH_PEERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "walk_stats.h"

#ifdef __cplusplus
extern "C" {
#endif

/* bench_stats (what a walk of the whole document saw) lives with the
 * cross-check rule that compares it: scenarios/walk_stats.h. */

/* Text written by an adapter; `priv` is for free_text. */
typedef struct bench_text {
    const char *data;
    size_t len;
    void *priv;
} bench_text;

/* Bytes a parsed document took from a counting allocator. */
typedef struct bench_mem {
    size_t held;   /* live after the parse returned, the document still alive */
    size_t peak;   /* most live at any point during the parse */
    size_t allocs; /* allocation calls (malloc + realloc) during the parse */
} bench_mem;

/* Capability bits (bench_adapter.caps). */
/* Numbers are approximate: integers are stored as doubles (beyond 2^53
 * they lose digits, and they cannot be told from reals), and written doubles
 * may be 1 ulp off. The driver then skips the integer statistics and
 * compares numbers as doubles within 2 ulp. */
#define BENCH_CAP_LOSSY_NUMBERS (1u << 0)
/* The library has no pretty writer: write-pretty shows n/a. */
#define BENCH_CAP_NO_PRETTY     (1u << 1)

typedef enum bench_write_mode {
    BENCH_WRITE_MINIFY = 0,
    BENCH_WRITE_PRETTY = 1 /* 2-space indent where the library can choose */
} bench_write_mode;

/* What an extraction saw: the statuses, and a checksum over the values
 * (equal across libraries when they read the same values). */
#define BENCH_EXTRACT_PADDING 64
typedef struct bench_extract {
    uint64_t count;
    uint64_t numbers; /* mix of the ids and retweet counts */
    uint64_t strings; /* mix of the texts' and names' bytes and lengths */
} bench_extract;

/* Adds one status's values (strings unescaped, not NUL-terminated). */
void bench_extract_add(bench_extract *x, uint64_t id, const char *text, size_t text_len, const char *name,
                       size_t name_len, int64_t retweet_count);

typedef struct bench_adapter {
    const char *name;    /* short column name, such as "yyjson" */
    const char *version; /* library version, or "" when unknown */
    const char *notes;   /* settings and limitations, printed once */
    unsigned caps;       /* BENCH_CAP_* */

    void *(*create)(void);
    void (*destroy)(void *st);

    /* Parses into the state's document; false on any error. */
    bool (*parse)(void *st, const char *dat, size_t len);
    /* Releases the state's document (if any). */
    void (*free_doc)(void *st);
    /* Visits every value of the state's document, adding into *out. */
    bool (*walk)(void *st, bench_stats *out);
    /* Writes the state's document; the text stays valid until free_text. */
    bool (*write)(void *st, bench_write_mode mode, bench_text *out);
    void (*free_text)(void *st, bench_text *text);
    /* Parses with a counting allocator and frees the result; NULL when the
     * library takes no allocator. Not timed. */
    bool (*measure_mem)(const char *dat, size_t len, bench_mem *out);
    /* Typed extraction (the corpus "extract" rows): for each element of the
     * top-level "statuses" array, in order, reads id, text, user.screen_name
     * and retweet_count and passes them to bench_extract_add; everything
     * else is skipped as the library skips best. False when a field is
     * missing or of another type. dat[len .. len + BENCH_EXTRACT_PADDING)
     * is readable (zero bytes), which simdjson On-Demand needs. NULL: n/a. */
    bool (*extract)(void *st, const char *dat, size_t len, bench_extract *out);
    /* NDJSON (the "ndjson" rows, bench_ndjson.c): every line of dat is one
     * tweet-like record; parses each as a document, the library's own way
     * of reading a stream of documents, and passes its id, text,
     * user.screen_name and retweet_count to bench_extract_add, in order.
     * dat[len .. len + BENCH_EXTRACT_PADDING) is readable (zero bytes).
     * NULL: n/a. */
    bool (*ndjson)(void *st, const char *dat, size_t len, bench_extract *out);
    /* Token walk (the "reader" rows, bench_reader.c): reads every token of
     * dat through the library's streaming / event interface (a pull
     * reader, SAX handler, callbacks; yyjson: parse + walk, having none),
     * adding into *out as a DOM walk would: each object, array, key,
     * string (unescaped bytes), number (integer or real, as its DOM reads
     * it), true, false, null. False on any error. NULL: n/a. */
    bool (*reader)(void *st, const char *dat, size_t len, bench_stats *out);
} bench_adapter;

/* tyjson's token walk (peers/tyjson_dom.c): reads r to its end, adding
 * every token into *out as the reader hook does; false on an error. */
struct tyjson_reader;
bool bench_reader_walk(struct tyjson_reader *r, bench_stats *out);

/* The kernel simdjson runs in this process (its active implementation:
 * "icelake", "haswell", "fallback"...); simdjson_dom.cpp. */
const char *bench_simdjson_kernel(void);

/* ----------------------------------------------------------------------------
 * Counting allocator (bench.c), usable by any library that takes malloc /
 * realloc / free hooks. Every block carries a 16-byte header with its size,
 * so free() need not be told the size. Not thread-safe.
 * ------------------------------------------------------------------------- */
typedef struct bench_counter {
    size_t live, peak, allocs;
} bench_counter;

void bench_counter_reset(bench_counter *c);
void *bench_counter_malloc(bench_counter *c, size_t size);
void *bench_counter_realloc(bench_counter *c, void *ptr, size_t size);
void bench_counter_free(bench_counter *c, void *ptr);

/* ----------------------------------------------------------------------------
 * Typed scenarios (../shared/scenarios/SCENARIOS.md): JSON text <-> the C
 * structs of scenario_types.h. Each library goes its own idiomatic way
 * (tyjson: its binding; the others: parse + hand extraction, build +
 * write). A hook left NULL shows n/a.
 * ------------------------------------------------------------------------- */
typedef enum bench_scen {
    BS_SIMPLE,      /* simple_pojo */
    BS_NESTED,      /* nested_pojo (a chain ended by null) */
    BS_DATE,        /* date_pojo ("YYYY-MM-DD", "YYYY-MM-DDTHH:MM:SSZ") */
    BS_LIST,        /* simple_pojo_list (top-level array of 100) */
    BS_MAP,         /* jv: a generic tree (Map<String,Object>) */
    BS_ESCAPE,      /* jstr: one top-level string (serialize only) */
    BS_ALBUM,       /* pa_album */
    BS_KUDOS,       /* kr_response (deserialize only) */
    BS_BOON_SIMPLE, /* boon_simple (serialize only) */
    BS_BOON_MEDIUM, /* boon_medium (serialize only) */
    BS_BOON_COMPLEX,/* boon_complex (serialize only) */
    BS_COUNT
} bench_scen;

/*
 * Memory: decode may allocate from bench_arena (below) or keep the
 * library's document in the state; the decoded value stays valid until
 * release(). Encoded text stays valid until release(). The driver calls
 * release() after every decode and every encode, inside the timed loop.
 */
typedef struct bench_typed {
    const char *name;  /* the same name as the library's bench_adapter */
    const char *notes; /* how each direction is done */
    void *(*create)(void);
    void (*destroy)(void *st);
    void (*release)(void *st);
    /* text -> *(T *)out, out zeroed by the caller */
    bool (*decode[BS_COUNT])(void *st, const char *dat, size_t len, void *out);
    /* *(const T *)in -> text */
    bool (*encode[BS_COUNT])(void *st, const void *in, bench_text *out);
    /* JSON0: one message (a j0_message) appended at buf; returns its
     * length, or 0 on error or when it does not fit in cap. */
    size_t (*j0_write)(void *st, const void *msg, char *buf, size_t cap);
    /* Why a hook left NULL is n/a: per scenario (index BS_COUNT: the JSON0
     * stream), else na_default. */
    const char *na[BS_COUNT + 1];
    const char *na_default;
} bench_typed;

/* Bump allocator for adapters' decode output (arrays, nested structs,
 * strings that need copies): reset on release, blocks kept for reuse. */
typedef struct bench_arena {
    void *blocks;
    char *cur, *end;
} bench_arena;

void *bench_arena_alloc(bench_arena *a, size_t size);
void bench_arena_reset(bench_arena *a);
void bench_arena_free(bench_arena *a);

/* Formats used by the date scenario: "YYYY-MM-DD" and
 * "YYYY-MM-DDTHH:MM:SSZ" <-> epoch milliseconds. Hand code for the peers
 * (tyjson's binding has its own). Return false / 0 on bad input. */
bool bench_parse_date(const char *s, size_t len, int32_t *y, uint8_t *m, uint8_t *d);
bool bench_parse_instant(const char *s, size_t len, int64_t *ms);
size_t bench_format_date(int32_t y, unsigned m, unsigned d, char out[16]);
size_t bench_format_instant(int64_t ms, char out[32]);

/* The adapters, one per file in bench/peers/. bench/CMakeLists.txt defines
 * BENCH_HAVE_<NAME> for each library it found. */
extern const bench_adapter bench_adapter_tyjson;
extern const bench_adapter bench_adapter_yyjson;
extern const bench_adapter bench_adapter_simdjson;
extern const bench_adapter bench_adapter_rapidjson;
extern const bench_adapter bench_adapter_cjson;
extern const bench_adapter bench_adapter_jansson;
extern const bench_adapter bench_adapter_jsonc;
extern const bench_adapter bench_adapter_yajl;

/* In-situ parsing, for the memory pass's "parse-insitu" rows (bench_mem.c),
 * of the libraries that have it: parses the len bytes of text at buf in
 * place (buf holds cap >= len + 64 bytes); NULL on any error. The document
 * is released by free_doc; buf stays the caller's. */
typedef struct bench_insitu {
    const char *name; /* the contender's name */
    void *(*parse)(char *buf, size_t len, size_t cap);
    void (*free_doc)(void *doc);
} bench_insitu;
extern const bench_insitu bench_insitu_tyjson;
extern const bench_insitu bench_insitu_yyjson;

/* Typed adapters: fill *t (zeroed by the caller). */
void bench_typed_tyjson(bench_typed *t);
void bench_typed_yyjson(bench_typed *t);
void bench_typed_simdjson(bench_typed *t);
void bench_typed_rapidjson(bench_typed *t);
void bench_typed_cjson(bench_typed *t);
void bench_typed_jansson(bench_typed *t);
void bench_typed_jsonc(bench_typed *t);
void bench_typed_yajl(bench_typed *t);
/* The reference of the serialize rows: hand-written C, no library and no
 * DOM side (peers/handwritten.c). */
void bench_typed_handwritten(bench_typed *t);
/* tyjson's streaming writer on the JSON0 stream (peers/tyjson_writer.c). */
void bench_typed_tyjson_writer(bench_typed *t);

#ifdef __cplusplus
}
#endif
#endif /* TYJSON_BENCH_PEERS_H */
