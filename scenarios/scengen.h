/*
 * scengen.h - deterministic generator of the benchmark scenario inputs
 * (../shared/scenarios/SCENARIOS.md), so that the benchmark runs on a fresh
 * clone where ../shared does not exist.
 *
 * scen_data_init() builds every scenario's value as the C structs of
 * scenario_types.h (the reference the adapters are checked against);
 * scen_file_text() writes a value the way the scenario files are written
 * (compact, or pretty with a 2-space indent for Kudos; doubles as Java
 * writes them; control characters as \b \t \n \f \r or \u00xx).
 *
 * What is reproduced:
 * - kissjson/ and json0/ files: the exact bytes of the shared files, and the JSON0
 *   round (1,048,576 messages) with its SHA-256.
 * - photoalbum: exact bytes except the free Czech-like texts, which are
 *   made up with the same lengths in characters and in bytes, so the file
 *   has exactly the same size.
 * - boon, kudos: made-up values with the same shape, counts, escapes and
 *   file size (byte for byte the same size, not the same bytes).
 * Everything is a pure function of fixed seeds: same output everywhere.
 */
#ifndef TYJSON_BENCH_SCENGEN_H
#define TYJSON_BENCH_SCENGEN_H

#include "scenario_types.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The files of ../shared/scenarios, in SHA256SUMS order within each dir. */
typedef enum scen_file {
    SF_SIMPLE_POJO,
    SF_NESTED_POJO,
    SF_DATE_POJO,
    SF_POJO_LIST_100,
    SF_MAP_MIXED,
    SF_ESCAPE_STRING,
    SF_PHOTO_ALBUM,
    SF_KUDOS_SMALL,
    SF_KUDOS_MEDIUM,
    SF_KUDOS_LARGE,
    SF_BOON_SIMPLE,
    SF_BOON_MEDIUM,
    SF_BOON_COMPLEX,
    SF_J0_MESSAGE_0,
    SF_J0_MESSAGE_LAST,
    SF_J0_HOIAN,
    SF_J0_ENTITY_NESTED,
    SF_J0_ENTITY_STRINGIFIED,
    SF_COUNT
} scen_file;

/* How closely a generated file matches the shared one. */
typedef enum scen_fidelity {
    SCEN_EXACT,      /* the same bytes */
    SCEN_SAME_SIZE,  /* the same shape, counts and byte size */
} scen_fidelity;

typedef struct scen_file_info {
    const char *path;      /* relative to the scenarios folder */
    size_t size;           /* bytes of the shared file */
    scen_fidelity fidelity;
} scen_file_info;

const scen_file_info *scen_file_get(scen_file f);

/* JSON0 round: messages, their total size and SHA-256 (SCENARIOS.md). */
#define SCEN_J0_ROUND_MESSAGES 1048576u
#define SCEN_J0_ROUND_BYTES 177146810ull
#define SCEN_J0_ROUND_SHA256 "9e6f948bccfbc4726a14066066dfbcbc13a0bdc37bc6cac797643039f12d39c4"

/* Every scenario value; all memory belongs to `mem`. */
typedef struct scen_data {
    simple_pojo simple;
    nested_pojo nested;
    date_pojo date;
    simple_pojo_list list;
    jv map;              /* map_mixed.json as a generic tree */
    jstr esc;            /* escape_string.json */
    pa_album album;
    kr_response kudos[3]; /* small, medium, large */
    boon_simple boon_s;
    boon_medium boon_m;
    boon_complex boon_c;
    j0_message j0;       /* message 0; set .id for message i */
    hoian hoian;
    j0_entity entity;
    void *mem;
} scen_data;

/* Builds every value; false only when out of memory. */
bool scen_data_init(scen_data *d);
void scen_data_free(scen_data *d);

/* The file's text (malloc'd, NUL-terminated, *len without the NUL), or NULL
 * when out of memory. */
char *scen_file_text(const scen_data *d, scen_file f, size_t *len);

/* A JSON0 message written as JSON0 writes it (exact bytes): returns its
 * length, or 0 if it does not fit in cap. */
size_t scen_j0_write(const j0_message *m, char *buf, size_t cap);

/* Corpus-style documents the benchmark always parses, with or without
 * ../shared/corpus, so that a fresh clone measures these shapes too (issue
 * 12). Pure functions of fixed seeds; test_corpus_gen pins their SHA-256.
 * - SD_CONFIG: generated-config.json, a pretty-printed configuration (a
 *   4-space indent, many small objects nested up to six levels): more than
 *   half of its bytes are indentation and newlines. About 500 KB.
 * - SD_TEXT: generated-text.json, compact {"statuses":[...]} records shaped
 *   like twitter.json's (id, text, user.screen_name, retweet_count among
 *   others) with long string fields; about 20% of its bytes are non-ASCII
 *   UTF-8 from several scripts (Latin accents, Greek, Cyrillic, CJK, 4-byte
 *   emoji). About 500 KB. */
typedef enum scen_doc {
    SD_CONFIG,
    SD_TEXT,
    SD_COUNT
} scen_doc;

/* The document's file name ("generated-config.json"), NULL past the end. */
const char *scen_doc_name(scen_doc d);
/* Its text (malloc'd, NUL-terminated, *len without the NUL), or NULL when
 * out of memory or past the end. */
char *scen_doc_text(scen_doc d, size_t *len);

/* SHA-256 (FIPS 180-4), incremental. */
typedef struct scen_sha256 {
    uint32_t h[8];
    uint64_t bytes;
    unsigned char blk[64];
    size_t fill;
} scen_sha256;
void scen_sha256_init(scen_sha256 *s);
void scen_sha256_add(scen_sha256 *s, const void *data, size_t len);
/* Writes 64 lowercase hex digits and a NUL into hex[65]. */
void scen_sha256_hex(scen_sha256 *s, char hex[65]);

/* Deep equality of scenario values (strings by content, doubles exactly,
 * floats as floats). On a difference, writes where into why[why_size]. */
bool scen_eq_simple(const simple_pojo *a, const simple_pojo *b, char *why, size_t why_size);
bool scen_eq_nested(const nested_pojo *a, const nested_pojo *b, char *why, size_t why_size);
bool scen_eq_date(const date_pojo *a, const date_pojo *b, char *why, size_t why_size);
bool scen_eq_list(const simple_pojo_list *a, const simple_pojo_list *b, char *why, size_t why_size);
bool scen_eq_album(const pa_album *a, const pa_album *b, char *why, size_t why_size);
bool scen_eq_kudos(const kr_response *a, const kr_response *b, char *why, size_t why_size);

#ifdef __cplusplus
}
#endif
#endif /* TYJSON_BENCH_SCENGEN_H */
