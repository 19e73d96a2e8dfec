/*
 * fuzz_paths.c - libFuzzer target: the reading core's two paths agree.
 *
 * Byte 0 is the read flags (every TYJSON_READ_* combination); the rest is
 * the text. For each vector level the CPU runs, with the DOM's index-driven
 * path forced on, and for the portable level (byte-at-a-time parse), the
 * checks abort on the first difference:
 *   - tyjson_read_opts: the same document (equal values, same read size) or
 *     the same error (code, offset, message);
 *   - tyjson_validate says what the parse says, error included;
 *   - the validating skip of every container gives the same status,
 *     position and expectation.
 */
#include "tyjson.h"
#include "dom/parse.h"
#include "read/simd.h"
#include "read/syntax.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c)                                                                   \
    do {                                                                           \
        if (!(c)) {                                                                \
            fprintf(stderr, "fuzz_paths: check failed: %s (line %d)\n", #c, __LINE__); \
            abort();                                                               \
        }                                                                          \
    } while (0)

typedef struct outcome {
    tyjson_doc *doc;
    tyjson_error err;
    bool valid;
    tyjson_error verr;
} outcome;

static outcome run_at(const char *dat, size_t len, tyjson_read_flags flags, int level) {
    outcome o;
    tyjson_read_options ro = {flags, 0, NULL};
    tyjson__simd_set_level(level);
    tyjson__parse_set_index_policy(level == TYJSON__SIMD_SCALAR ? TYJSON__INDEX_NEVER
                                                                : TYJSON__INDEX_ALWAYS);
    o.doc = tyjson_read_opts(dat, len, &ro, &o.err);
    o.valid = tyjson_validate(dat, len, &ro, &o.verr);
    tyjson__parse_set_index_policy(TYJSON__INDEX_AUTO);
    return o;
}

static bool same_error(const tyjson_error *a, const tyjson_error *b) {
    return a->code == b->code && a->offset == b->offset && strcmp(a->msg, b->msg) == 0;
}

/* Equal values, or (NaN != NaN, and text kept as invalid UTF-8) the same
 * text when written with everything allowed. */
static bool same_doc(const tyjson_doc *a, const tyjson_doc *b) {
    if (tyjson_equals(tyjson_doc_get_root(a), tyjson_doc_get_root(b))) return true;
    size_t na = 0, nb = 0;
    char *ta = tyjson_write(a, TYJSON_WRITE_ALLOW_INF_NAN | TYJSON_WRITE_REPLACE_INVALID_UTF8, &na);
    char *tb = tyjson_write(b, TYJSON_WRITE_ALLOW_INF_NAN | TYJSON_WRITE_REPLACE_INVALID_UTF8, &nb);
    bool same = ta && tb && na == nb && memcmp(ta, tb, na) == 0;
    free(ta);
    free(tb);
    return same;
}

static void check_skips(const u8 *s, size_t len, u32 flags, int level) {
    tyjson_alloc alc = tyjson__alc_or_libc(NULL);
    tyjson__skip_opts o = {s + len, flags, 0, TYJSON_DEFAULT_MAX_DEPTH, &alc};
    for (size_t i = 0; i < len; i++) {
        if (s[i] != '{' && s[i] != '[') continue;
        tyjson__simd_set_level(TYJSON__SIMD_SCALAR);
        tyjson__read_res a = tyjson__skip_value(s + i, &o);
        tyjson__simd_set_level(level);
        tyjson__read_res b = tyjson__skip_value(s + i, &o);
        CHECK(a.err == b.err && a.pos == b.pos && (!a.err || a.expect == b.expect));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const int vector_levels[] = {TYJSON__SIMD_AVX2, TYJSON__SIMD_AVX512,
                                        TYJSON__SIMD_NEON};
    if (size < 1) return 0;
    tyjson_read_flags flags = data[0];
    const char *dat = (const char *)data + 1;
    size_t len = size - 1;
    tyjson__simd_set_level(99);
    int best = tyjson__simd_level();
    outcome ref = run_at(dat, len, flags, TYJSON__SIMD_SCALAR);
    CHECK(ref.valid == (ref.doc != NULL));
    CHECK(ref.valid || same_error(&ref.err, &ref.verr));
    for (size_t k = 0; k < sizeof(vector_levels) / sizeof(vector_levels[0]); k++) {
        if (!tyjson__simd_level_ok(vector_levels[k], best)) continue;
        outcome o = run_at(dat, len, flags, vector_levels[k]);
        CHECK((o.doc != NULL) == (ref.doc != NULL));
        if (o.doc) {
            CHECK(tyjson_doc_get_read_size(o.doc) == tyjson_doc_get_read_size(ref.doc));
            CHECK(same_doc(o.doc, ref.doc));
        } else {
            CHECK(same_error(&o.err, &ref.err));
        }
        CHECK(o.valid == ref.valid);
        CHECK(o.valid || same_error(&o.verr, &ref.verr));
        tyjson_doc_free(o.doc);
        check_skips((const u8 *)dat, len, flags, vector_levels[k]);
    }
    tyjson_doc_free(ref.doc);
    tyjson__simd_set_level(TYJSON__SIMD_AUTO);
    return 0;
}
