#define _POSIX_C_SOURCE 200809L /* opendir */
/* test_conformance.c - the JSONTestSuite parsing files (../shared/conformance):
 * y_ files parse strictly and survive write -> reparse, n_ files fail with a
 * well-formed error (also under each relaxed flag that does not make them
 * legal), i_ files may go either way but never crash or leak. */
#define TEST_WANT_JSON_LIST
#include "test.h"
#include "tyjson.h"


#define SUITE_DIR "conformance/test_parsing"

/* ----------------------------------------------------------------------------
 * Counting allocator: every parse and write of this file goes through it, so
 * a leak shows up in a plain build, not only under LeakSanitizer.
 * ------------------------------------------------------------------------- */
static test_alloc cnt = {0, SIZE_MAX, 0, false, 0};
static const tyjson_alloc cnt_alc = {test_alloc_malloc, test_alloc_realloc, test_alloc_free, &cnt};

/* Reads one file into an exactly sized heap block (so that AddressSanitizer
 * catches any read past the end). */
static char *load_exact(const char *dir, const char *name, size_t *len) {
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    size_t n = 0;
    char *text = test_read_file(path, &n);
    if (!text) return NULL;
    char *exact = (char *)malloc(n ? n : 1);
    if (exact) memcpy(exact, text, n);
    free(text);
    *len = n;
    return exact;
}

static tyjson_doc *parse(const char *dat, size_t len, tyjson_read_flags flags,
                         tyjson_error *err) {
    tyjson_read_options o = {flags, 0, &cnt_alc};
    return tyjson_read_opts(dat, len, &o, err);
}

/* Checks a failure: a code, an offset inside the input, and line/column that
 * agree with the offset. Returns a message, or NULL when all is well. */
static const char *bad_error(const tyjson_error *err, const char *dat, size_t len) {
    size_t line = 0, col = 0;
    if (err->code == TYJSON_OK) return "failed with code OK";
    if (!err->msg[0]) return "no message";
    if (err->offset > len) return "offset past the end of the input";
    if (err->line < 1 || err->column < 1) return "line/column below 1";
    if (err->code == TYJSON_E_NOMEM) return "out of memory";
    if (!tyjson_locate(dat, len, err->offset, &line, &col)) return "locate failed";
    if (line != err->line || col != err->column) return "line/column disagree with offset";
    return NULL;
}

/* Writes doc with flags, reparses with rflags, and compares. Returns a
 * message, or NULL when the copy is equal. */
static const char *roundtrip(const tyjson_doc *doc, tyjson_write_flags wflags,
                             tyjson_read_flags rflags) {
    tyjson_write_options wo = {wflags, 0, &cnt_alc};
    tyjson_error err;
    size_t len = 0;
    char *text = tyjson_write_opts(doc, &wo, &len, &err);
    if (!text) return "write failed";
    if (strlen(text) > len) {
        tyjson_free(&cnt_alc, text);
        return "written length disagrees with the NUL";
    }
    tyjson_doc *back = parse(text, len, rflags, &err);
    const char *msg = NULL;
    if (!back)
        msg = "written text does not parse";
    else if (!tyjson_equals(tyjson_doc_get_root(doc), tyjson_doc_get_root(back)))
        msg = "reparsed document differs";
    tyjson_doc_free(back);
    tyjson_free(&cnt_alc, text);
    return msg;
}

/* Both write forms of a parsed document. */
static const char *roundtrip_both(const tyjson_doc *doc, tyjson_read_flags rflags) {
    const char *msg = roundtrip(doc, TYJSON_WRITE_MINIFY, rflags);
    if (!msg) msg = roundtrip(doc, TYJSON_WRITE_PRETTY, rflags);
    return msg;
}

/* ----------------------------------------------------------------------------
 * Strict parsing
 * ------------------------------------------------------------------------- */
TEST(suite_strict) {
    test_json_list fl;
    test_json_list_open(&fl, SUITE_DIR);
    size_t y_total = 0, y_ok = 0, n_total = 0, n_ok = 0, i_total = 0, i_acc = 0, i_rej = 0;
    char failures[4096] = "";
    size_t nfail = 0;
    for (size_t i = 0; i < fl.count; i++) {
        const char *name = fl.names[i];
        size_t len = 0;
        char *dat = load_exact(fl.dir, name, &len);
        if (!dat) TEST_FAIL("cannot read %s/%s", fl.dir, name);
        char *copy = (char *)malloc(len ? len : 1);
        ASSERT_NOT_NULL(copy);
        memcpy(copy, dat, len);
        tyjson_error err;
        memset(&err, 0xAB, sizeof(err));
        tyjson_doc *doc = parse(dat, len, 0, &err);
        const char *why = NULL;
        if (memcmp(copy, dat, len) != 0) why = "input modified";
        if (!why && doc && err.code != TYJSON_OK) why = "success without OK code";
        if (!why && doc && tyjson_doc_get_read_size(doc) != len) why = "read size is not the input length";
        if (!why && !doc) why = bad_error(&err, dat, len);
        if (name[0] == 'y') {
            y_total++;
            if (!doc) {
                if (!why) why = tyjson_status_name(err.code);
            } else if (!why) {
                why = roundtrip_both(doc, 0);
            }
            if (!why) y_ok++;
        } else if (name[0] == 'n') {
            n_total++;
            if (doc && !why) why = "accepted";
            if (!why) n_ok++;
        } else {
            i_total++;
            if (doc && !why) why = roundtrip_both(doc, 0);
            if (!why) {
                if (doc) i_acc++;
                else i_rej++;
            }
            if (!why && doc) printf("  accepted %s\n", name);
        }
        tyjson_doc_free(doc);
        if (!why && cnt.live != 0) why = "leak";
        cnt.live = 0;
        if (why) {
            nfail++;
            size_t used = strlen(failures);
            snprintf(failures + used, sizeof(failures) - used, "    %s: %s\n", name, why);
        }
        free(copy);
        free(dat);
    }
    test_json_list_free(&fl);
    printf("  conformance: y accepted %zu/%zu, n rejected %zu/%zu, i accepted %zu rejected %zu (of %zu)\n",
           y_ok, y_total, n_ok, n_total, i_acc, i_rej, i_total);
    if (nfail) TEST_FAIL("%zu files wrong:\n%s", nfail, failures);
    /* The suite as copied (see conformance/SOURCE.md): a shorter listing
     * means files went missing. */
    ASSERT_EQ_UINT(y_total, 95);
    ASSERT_EQ_UINT(n_total, 188);
    ASSERT_EQ_UINT(i_total, 35);
}

/* ----------------------------------------------------------------------------
 * Relaxed flags, one at a time.
 *
 * An n_ file may be accepted under a flag only when that flag makes it legal.
 * For STOP_WHEN_DONE and ALLOW_BOM that is checked from the text itself; for
 * the others the files are listed (each one read and judged by hand).
 * ------------------------------------------------------------------------- */
typedef struct legal_entry {
    tyjson_read_flags flag;
    const char *name;
} legal_entry;

static const legal_entry legal_under_flag[] = {
    {TYJSON_READ_ALLOW_COMMENTS, "n_object_trailing_comment.json"},
    {TYJSON_READ_ALLOW_COMMENTS, "n_object_trailing_comment_slash_open.json"},
    {TYJSON_READ_ALLOW_COMMENTS, "n_structure_object_with_comment.json"},
    {TYJSON_READ_ALLOW_TRAILING_COMMAS, "n_array_extra_comma.json"},
    {TYJSON_READ_ALLOW_TRAILING_COMMAS, "n_array_number_and_comma.json"},
    {TYJSON_READ_ALLOW_TRAILING_COMMAS, "n_object_trailing_comma.json"},
    {TYJSON_READ_ALLOW_INF_NAN, "n_number_NaN.json"},
    {TYJSON_READ_ALLOW_INF_NAN, "n_number_infinity.json"},
    {TYJSON_READ_ALLOW_INF_NAN, "n_number_minus_infinity.json"},
    /* None under ALLOW_INVALID_UTF8: the suite's invalid bytes sit outside
     * strings or inside escapes, which stay errors. */
};

static bool listed_legal(tyjson_read_flags flag, const char *name) {
    for (size_t i = 0; i < sizeof(legal_under_flag) / sizeof(legal_under_flag[0]); i++)
        if (legal_under_flag[i].flag == flag && strcmp(legal_under_flag[i].name, name) == 0)
            return true;
    return false;
}

/* With STOP_WHEN_DONE, success means: a strictly valid value (with its
 * trailing whitespace) followed by more bytes, and the same document. */
static const char *check_stop_when_done(const tyjson_doc *doc, const char *dat, size_t len) {
    size_t used = tyjson_doc_get_read_size(doc);
    if (used == 0 || used >= len) return "STOP_WHEN_DONE consumed everything";
    tyjson_doc *prefix = parse(dat, used, 0, NULL);
    const char *why = NULL;
    if (!prefix)
        why = "STOP_WHEN_DONE prefix is not valid JSON";
    else if (!tyjson_equals(tyjson_doc_get_root(prefix), tyjson_doc_get_root(doc)))
        why = "STOP_WHEN_DONE document differs from its prefix";
    tyjson_doc_free(prefix);
    return why;
}

/* With ALLOW_BOM, success means: a BOM, then strictly valid JSON. */
static const char *check_bom(const tyjson_doc *doc, const char *dat, size_t len) {
    if (len < 3 || memcmp(dat, "\xEF\xBB\xBF", 3) != 0) return "ALLOW_BOM accepted text without a BOM";
    tyjson_doc *rest = parse(dat + 3, len - 3, 0, NULL);
    const char *why = NULL;
    if (!rest || !tyjson_equals(tyjson_doc_get_root(rest), tyjson_doc_get_root(doc)))
        why = "ALLOW_BOM accepted invalid JSON after the BOM";
    tyjson_doc_free(rest);
    return why;
}

static const tyjson_read_flags single_flags[] = {
    TYJSON_READ_ALLOW_COMMENTS,     TYJSON_READ_ALLOW_TRAILING_COMMAS,
    TYJSON_READ_ALLOW_INF_NAN,      TYJSON_READ_ALLOW_BOM,
    TYJSON_READ_ALLOW_INVALID_UTF8, TYJSON_READ_STOP_WHEN_DONE,
    TYJSON_READ_REJECT_DUPLICATE_KEYS, TYJSON_READ_BIGNUM_AS_RAW,
};
#define NFLAGS (sizeof(single_flags) / sizeof(single_flags[0]))

/* Judges one n_ file under one flag; NULL when right. */
static const char *judge_invalid(const char *name, const char *dat, size_t len,
                                 tyjson_read_flags flag, size_t *accepted) {
    tyjson_error err;
    tyjson_doc *doc = parse(dat, len, flag, &err);
    const char *why = NULL;
    if (!doc) {
        why = bad_error(&err, dat, len);
    } else {
        (*accepted)++;
        if (flag == TYJSON_READ_STOP_WHEN_DONE)
            why = check_stop_when_done(doc, dat, len);
        else if (flag == TYJSON_READ_ALLOW_BOM)
            why = check_bom(doc, dat, len);
        else if (!listed_legal(flag, name))
            why = "accepted";
        /* Whatever was accepted must still write and read back (invalid
         * UTF-8 and NaN are the writer's own business). */
        if (!why && flag != TYJSON_READ_ALLOW_INVALID_UTF8 && flag != TYJSON_READ_ALLOW_INF_NAN)
            why = roundtrip_both(doc, flag & ~TYJSON_READ_STOP_WHEN_DONE);
    }
    tyjson_doc_free(doc);
    return why;
}

/* A document that may hold invalid UTF-8, written with replacement
 * characters, is strict JSON. */
static const char *replaced_is_strict(const tyjson_doc *doc) {
    tyjson_write_options wo = {TYJSON_WRITE_REPLACE_INVALID_UTF8, 0, &cnt_alc};
    size_t len = 0;
    char *text = tyjson_write_opts(doc, &wo, &len, NULL);
    if (!text) return "write with REPLACE_INVALID_UTF8 failed";
    tyjson_doc *back = parse(text, len, 0, NULL);
    const char *why = back ? NULL : "text written with REPLACE_INVALID_UTF8 is not strict JSON";
    tyjson_doc_free(back);
    tyjson_free(&cnt_alc, text);
    return why;
}

/* An i_ file under a relaxed flag: either outcome, but a well-formed error
 * or a document that writes and reads back. */
static const char *judge_implementation_defined(const char *dat, size_t len,
                                                tyjson_read_flags flag) {
    tyjson_error err;
    tyjson_doc *doc = parse(dat, len, flag, &err);
    const char *why;
    if (!doc)
        why = bad_error(&err, dat, len);
    else if (flag == TYJSON_READ_ALLOW_INVALID_UTF8)
        why = replaced_is_strict(doc);
    else if (flag == TYJSON_READ_ALLOW_INF_NAN)
        why = NULL; /* no NaN in i_ files, but NaN != NaN would break equality */
    else
        why = roundtrip_both(doc, flag & ~TYJSON_READ_STOP_WHEN_DONE);
    tyjson_doc_free(doc);
    return why;
}

/* A y_ file under a relaxed flag: the same document, except that duplicate
 * keys fail when rejected. */
static const char *judge_valid(const char *dat, size_t len, const tyjson_doc *strict,
                               tyjson_read_flags flag) {
    tyjson_error err;
    tyjson_doc *doc = parse(dat, len, flag, &err);
    const char *why = NULL;
    if (!doc) {
        if (flag != TYJSON_READ_REJECT_DUPLICATE_KEYS || err.code != TYJSON_E_DUPLICATE_KEY)
            why = "valid file rejected";
    } else if (!tyjson_equals(tyjson_doc_get_root(doc), tyjson_doc_get_root(strict))) {
        why = "different document";
    }
    tyjson_doc_free(doc);
    return why;
}

TEST(suite_relaxed_flags) {
    test_json_list fl;
    test_json_list_open(&fl, SUITE_DIR);
    size_t accepted[NFLAGS] = {0}, dup_rejected = 0, checked = 0;
    char failures[4096] = "";
    size_t nfail = 0;
    for (size_t i = 0; i < fl.count; i++) {
        const char *name = fl.names[i];

        size_t len = 0;
        char *dat = load_exact(fl.dir, name, &len);
        if (!dat) TEST_FAIL("cannot read %s/%s", fl.dir, name);
        tyjson_doc *strict = name[0] == 'y' ? parse(dat, len, 0, NULL) : NULL;
        for (size_t f = 0; f < NFLAGS; f++) {
            const char *why;
            if (name[0] == 'i') {
                why = judge_implementation_defined(dat, len, single_flags[f]);
            } else if (name[0] == 'n') {
                why = judge_invalid(name, dat, len, single_flags[f], &accepted[f]);
            } else if (!strict) {
                why = "valid file rejected strictly";
            } else {
                why = judge_valid(dat, len, strict, single_flags[f]);
            }
            checked++;
            if (why) {
                nfail++;
                size_t used = strlen(failures);
                snprintf(failures + used, sizeof(failures) - used, "    %s flag 0x%x: %s\n", name,
                         (unsigned)single_flags[f], why);
            }
        }
        if (strict) {
            tyjson_read_options o = {TYJSON_READ_REJECT_DUPLICATE_KEYS, 0, &cnt_alc};
            tyjson_doc *d = tyjson_read_opts(dat, len, &o, NULL);
            if (!d) dup_rejected++;
            tyjson_doc_free(d);
        }
        tyjson_doc_free(strict);
        if (cnt.live != 0) {
            nfail++;
            size_t used = strlen(failures);
            snprintf(failures + used, sizeof(failures) - used, "    %s: leak\n", name);
        }
        cnt.live = 0;
        free(dat);
    }
    test_json_list_free(&fl);
    printf("  relaxed flags: %zu parses; n_ accepted per flag:", checked);
    for (size_t f = 0; f < NFLAGS; f++) printf(" 0x%x:%zu", (unsigned)single_flags[f], accepted[f]);
    printf("; y_ with duplicate keys rejected: %zu\n", dup_rejected);
    if (nfail) TEST_FAIL("%zu wrong:\n%s", nfail, failures);
    /* Every listed file must really be accepted: a stale list hides bugs. */
    ASSERT_EQ_UINT(accepted[0], 3);  /* comments: the listed files */
    ASSERT_EQ_UINT(accepted[1], 3);  /* trailing commas: the listed files */
    ASSERT_EQ_UINT(accepted[2], 3);  /* NaN/Infinity: the listed files */
    ASSERT_EQ_UINT(accepted[3], 0);  /* BOM */
    ASSERT_EQ_UINT(accepted[4], 0);  /* invalid UTF-8 */
    ASSERT_EQ_UINT(accepted[5], 17); /* STOP_WHEN_DONE: value then junk */
    ASSERT_EQ_UINT(accepted[6], 0);  /* duplicate-key rejection */
    ASSERT_EQ_UINT(accepted[7], 0);  /* big numbers as raw */
    ASSERT_EQ_UINT(dup_rejected, 2); /* y_object_duplicated_key{,_and_value} */
}

int main(int argc, char **argv) { return test_main(argc, argv); }
