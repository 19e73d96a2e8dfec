#define _POSIX_C_SOURCE 200809L /* opendir */
/* test_raw_insitu.c - TYJSON_READ_NUMBER_AS_RAW through every front door
 * (DOM parser, tyjson_validate, tyjson_read_number, the pull reader, NDJSON,
 * the binding's VALUE members), and tyjson_read_insitu (same verdicts and
 * documents as tyjson_read_opts, the padding rule, allocation failures). */
#define TEST_WANT_JSON_LIST
#include "test.h"
#include "tyjson.h"

static test_alloc cnt = {0, SIZE_MAX, 0, false, 0};
static const tyjson_alloc cnt_alc = {test_alloc_malloc, test_alloc_realloc, test_alloc_free, &cnt};

static tyjson_doc *parse(const char *dat, size_t len, tyjson_read_flags flags, tyjson_error *err) {
    tyjson_read_options o = {flags, 0, &cnt_alc};
    return tyjson_read_opts(dat, len, &o, err);
}

/* A copy of dat in a heap block of exactly len + TYJSON_INSITU_PADDING. */
static char *padded_copy(const char *dat, size_t len) {
    char *b = (char *)malloc(len + TYJSON_INSITU_PADDING);
    if (b && len) memcpy(b, dat, len);
    return b;
}

static tyjson_doc *parse_insitu(char *buf, size_t len, tyjson_read_flags flags, tyjson_error *err) {
    tyjson_read_options o = {flags, 0, &cnt_alc};
    return tyjson_read_insitu(buf, len, len + TYJSON_INSITU_PADDING, &o, err);
}

/* Checks the raw document `raw` against `ref` (the same input read with
 * BIGNUM_AS_RAW): the same values, each number a RAW whose text reads back
 * as ref's number; with `src` (raw read in situ from buf, a copy of src),
 * each raw text is exactly the source bytes at its place. NULL when all is
 * well, else what differs. */
static const char *check_raw_doc(const tyjson_doc *raw, const tyjson_doc *ref, const char *buf,
                                 const char *src, size_t len) {
    size_t n = tyjson_doc_get_val_count(ref);
    if (tyjson_doc_get_val_count(raw) != n) return "value counts differ";
    const tyjson_val *a = tyjson_doc_get_root(raw), *b = tyjson_doc_get_root(ref);
    for (size_t i = 0; i < n; i++) {
        tyjson_type tb = tyjson_get_type(b + i);
        if (tb == TYJSON_TYPE_NUM && tyjson_is_real(b + i)) {
            double d = tyjson_get_real(b + i);
            if (d != d || d - d != 0) { /* NaN/Infinity (ALLOW_INF_NAN) stay reals */
                if (memcmp(&a[i], &b[i], sizeof(a[i])) != 0) return "Inf/NaN differs";
                continue;
            }
        }
        if (tb == TYJSON_TYPE_NUM || tb == TYJSON_TYPE_RAW) {
            if (!tyjson_is_raw(a + i)) return "a number is not raw";
            const char *t = tyjson_get_str(a + i);
            size_t tl = tyjson_get_len(a + i);
            if (t[tl] != 0) return "raw text not NUL-terminated";
            tyjson_val back;
            if (tyjson_read_number(t, tl, TYJSON_READ_BIGNUM_AS_RAW, &back, NULL) != tl)
                return "raw text does not read back whole";
            if (tb == TYJSON_TYPE_RAW) {
                if (tl != tyjson_get_len(b + i) || memcmp(t, tyjson_get_str(b + i), tl) != 0)
                    return "raw text differs from the big number's";
            } else if (memcmp(&back, &b[i], sizeof(back)) != 0) {
                return "raw text reads back as another number";
            }
            if (src) {
                if (t < buf || t + tl > buf + len) return "raw text outside the buffer";
                size_t off = (size_t)(t - buf);
                if (memcmp(src + off, t, tl) != 0) return "raw text differs from the source bytes";
                if (off + tl < len && src[off + tl] && strchr("0123456789.eE+-", src[off + tl]))
                    return "raw text stops inside the number";
            }
            continue;
        }
        if (tyjson_get_type(a + i) != tb) return "types differ";
        if (tb == TYJSON_TYPE_STR) {
            if (tyjson_get_len(a + i) != tyjson_get_len(b + i) ||
                memcmp(tyjson_get_str(a + i), tyjson_get_str(b + i), tyjson_get_len(b + i)) != 0)
                return "strings differ";
        } else if (tb == TYJSON_TYPE_ARR || tb == TYJSON_TYPE_OBJ) {
            if (tyjson_get_len(a + i) != tyjson_get_len(b + i)) return "container sizes differ";
        } else if (memcmp(&a[i], &b[i], sizeof(a[i])) != 0) {
            return "literals differ";
        }
    }
    return NULL;
}

/* Whether two documents hold the same values, value by value (bits of
 * numbers, so NaN equals NaN; string and raw text by content). */
static bool same_doc(const tyjson_doc *x, const tyjson_doc *y) {
    size_t n = tyjson_doc_get_val_count(x);
    if (n != tyjson_doc_get_val_count(y)) return false;
    const tyjson_val *a = tyjson_doc_get_root(x), *b = tyjson_doc_get_root(y);
    for (size_t i = 0; i < n; i++) {
        if (a[i].tag != b[i].tag) return false;
        tyjson_type t = tyjson_get_type(a + i);
        if (t == TYJSON_TYPE_STR || t == TYJSON_TYPE_RAW) {
            if (memcmp(tyjson_get_str(a + i), tyjson_get_str(b + i), tyjson_get_len(a + i)) != 0)
                return false;
        } else if (memcmp(&a[i].uni, &b[i].uni, sizeof(a[i].uni)) != 0) {
            return false;
        }
    }
    return true;
}

/* One input under one set of extra flags: NUMBER_AS_RAW (copied and in
 * situ) against BIGNUM_AS_RAW, and tyjson_read_insitu against
 * tyjson_read_opts. */
static void check_input(const char *name, const char *dat, size_t len, tyjson_read_flags extra,
                        size_t *accepted) {
    tyjson_error e_ref, e_strict, e_raw, e_in, e_inraw;
    tyjson_doc *ref = parse(dat, len, extra | TYJSON_READ_BIGNUM_AS_RAW, &e_ref);
    tyjson_doc *strict = parse(dat, len, extra, &e_strict);
    tyjson_doc *raw = parse(dat, len, extra | TYJSON_READ_NUMBER_AS_RAW, &e_raw);
    bool valid = tyjson_validate(dat, len, &(tyjson_read_options){extra | TYJSON_READ_NUMBER_AS_RAW, 0, &cnt_alc}, NULL);
    char *buf = padded_copy(dat, len);
    tyjson_doc *in = parse_insitu(buf, len, extra, &e_in);
    char *buf2 = padded_copy(dat, len);
    tyjson_doc *inraw = parse_insitu(buf2, len, extra | TYJSON_READ_NUMBER_AS_RAW, &e_inraw);
    /* raw numbers: the verdict of BIGNUM_AS_RAW (a raw number has no range) */
    if ((raw != NULL) != (ref != NULL) || (inraw != NULL) != (ref != NULL) || valid != (ref != NULL))
        TEST_FAIL("%s: NUMBER_AS_RAW verdict differs (ref %d raw %d insitu %d validate %d)", name,
                  ref != NULL, raw != NULL, inraw != NULL, valid);
    if (!ref && (e_raw.code != e_ref.code || e_raw.offset != e_ref.offset))
        TEST_FAIL("%s: NUMBER_AS_RAW error %s at %zu, BIGNUM_AS_RAW %s at %zu", name,
                  tyjson_status_msg(e_raw.code), e_raw.offset, tyjson_status_msg(e_ref.code), e_ref.offset);
    /* and strict mode's verdict where strict fails for no range reason */
    if (!strict && e_strict.code != TYJSON_E_NUMBER_RANGE && raw)
        TEST_FAIL("%s: strict refuses (%s), NUMBER_AS_RAW accepts", name, tyjson_status_msg(e_strict.code));
    if (ref) {
        const char *why = check_raw_doc(raw, ref, NULL, NULL, len);
        if (!why) why = check_raw_doc(inraw, ref, buf2, dat, len);
        if (why) TEST_FAIL("%s: %s", name, why);
        (*accepted)++;
    }
    /* in situ: the verdicts, errors and documents of tyjson_read_opts */
    if ((in != NULL) != (strict != NULL)) TEST_FAIL("%s: in-situ verdict differs", name);
    if (strict && !same_doc(in, strict))
        TEST_FAIL("%s: in-situ document differs", name);
    if (strict && tyjson_doc_get_read_size(in) != tyjson_doc_get_read_size(strict))
        TEST_FAIL("%s: in-situ read size differs", name);
    if (!strict && (e_in.code != e_strict.code || e_in.offset != e_strict.offset))
        TEST_FAIL("%s: in-situ error %s at %zu, copy %s at %zu", name, tyjson_status_msg(e_in.code),
                  e_in.offset, tyjson_status_msg(e_strict.code), e_strict.offset);
    tyjson_doc_free(ref);
    tyjson_doc_free(strict);
    tyjson_doc_free(raw);
    tyjson_doc_free(in);
    tyjson_doc_free(inraw);
    free(buf);
    free(buf2);
    if (cnt.live != 0) TEST_FAIL("%s: %ld blocks leaked", name, cnt.live);
}

static void check_folder(const char *rel, const tyjson_read_flags *extras, size_t n_extras,
                         size_t *files, size_t *accepted) {
    test_json_list fl;
    test_json_list_open(&fl, rel);
    for (size_t i = 0; i < fl.count; i++) {
        char path[2048];
        snprintf(path, sizeof(path), "%s/%s", fl.dir, fl.names[i]);
        size_t len = 0;
        char *text = test_read_file(path, &len);
        if (!text) TEST_FAIL("cannot read %s", path);
        /* an exact block, so AddressSanitizer sees any read past the end */
        char *exact = (char *)malloc(len ? len : 1);
        if (len) memcpy(exact, text, len);
        free(text);
        for (size_t k = 0; k < n_extras; k++) check_input(fl.names[i], exact, len, extras[k], accepted);
        free(exact);
        (*files)++;
    }
    test_json_list_free(&fl);
}

TEST(number_as_raw_and_insitu_on_every_conformance_file) {
    const tyjson_read_flags extras[] = {0, TYJSON_READ_ALLOW_COMMENTS | TYJSON_READ_ALLOW_TRAILING_COMMAS |
                                               TYJSON_READ_ALLOW_INF_NAN | TYJSON_READ_ALLOW_BOM,
                                        TYJSON_READ_STOP_WHEN_DONE};
    size_t files = 0, accepted = 0;
    cnt.live = 0;
    check_folder("conformance/test_parsing", extras, 3, &files, &accepted);
    ASSERT_TRUE(files > 300);
    ASSERT_TRUE(accepted > 300);
}

TEST(number_as_raw_and_insitu_on_every_corpus_file) {
    const tyjson_read_flags extras[] = {0};
    size_t files = 0, accepted = 0;
    cnt.live = 0;
    check_folder("corpus", extras, 1, &files, &accepted);
    ASSERT_TRUE(files >= 8);
    ASSERT_EQ_UINT(accepted, files);
}

TEST(number_as_raw_keeps_the_text) {
    static const char text[] = "[19.90, -0, 0, 1e400, 123456789012345678901234567890, 1E+2, -12.5e-3]";
    tyjson_error err;
    cnt.live = 0;
    tyjson_doc *doc = parse(text, sizeof(text) - 1, TYJSON_READ_NUMBER_AS_RAW, &err);
    ASSERT_NOT_NULL(doc);
    static const char *const want[] = {"19.90", "-0", "0", "1e400", "123456789012345678901234567890",
                                       "1E+2", "-12.5e-3"};
    tyjson_val *root = tyjson_doc_get_root(doc);
    ASSERT_EQ_UINT(tyjson_arr_size(root), 7);
    for (size_t i = 0; i < 7; i++) {
        tyjson_val *v = tyjson_arr_get(root, i);
        ASSERT_TRUE(tyjson_is_raw(v));
        ASSERT_EQ_STR(tyjson_get_str(v), want[i]);
    }
    /* the writer gives the text back unchanged */
    size_t wl = 0;
    char *out = tyjson_write(doc, 0, &wl);
    ASSERT_NOT_NULL(out);
    ASSERT_EQ_STR(out, "[19.90,-0,0,1e400,123456789012345678901234567890,1E+2,-12.5e-3]");
    free(out);
    tyjson_doc_free(doc);
    /* grammar errors as in strict mode, truncation included */
    static const char *const bad[] = {"[01]", "[1.]", "[-]", "[1e]", "[.5]", "[+1]", "[1.e3]", "-", "1."};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        tyjson_error e1, e2;
        ASSERT_NULL(parse(bad[i], strlen(bad[i]), TYJSON_READ_NUMBER_AS_RAW, &e1));
        ASSERT_NULL(parse(bad[i], strlen(bad[i]), 0, &e2));
        ASSERT_EQ_INT(e1.code, e2.code);
        ASSERT_EQ_UINT(e1.offset, e2.offset);
        ASSERT_EQ_UINT(e1.column, e2.column);
        ASSERT_EQ_STR(e1.msg, e2.msg);
    }
    /* Infinity and NaN (ALLOW_INF_NAN) are words, not number text: reals */
    doc = parse("[NaN,-Infinity,2]", 17, TYJSON_READ_NUMBER_AS_RAW | TYJSON_READ_ALLOW_INF_NAN, &err);
    ASSERT_NOT_NULL(doc);
    ASSERT_TRUE(tyjson_is_real(tyjson_arr_get(tyjson_doc_get_root(doc), 0)));
    ASSERT_TRUE(tyjson_is_real(tyjson_arr_get(tyjson_doc_get_root(doc), 1)));
    ASSERT_TRUE(tyjson_is_raw(tyjson_arr_get(tyjson_doc_get_root(doc), 2)));
    tyjson_doc_free(doc);
    ASSERT_EQ_INT(cnt.live, 0);
}

TEST(number_as_raw_alloc_failure_sweep) {
    static const char text[] = "{\"a\":[1,2.5,3e9,{\"b\":-7}],\"c\":\"x\\u00e9\",\"d\":12345678901234567890123}";
    size_t ok_at = 0;
    for (size_t k = 0; k < 64; k++) {
        test_alloc t;
        tyjson_alloc a = test_alloc_make(&t, k);
        tyjson_read_options o = {TYJSON_READ_NUMBER_AS_RAW, 0, &a};
        tyjson_error err;
        tyjson_doc *doc = tyjson_read_opts(text, sizeof(text) - 1, &o, &err);
        if (!doc) {
            ASSERT_EQ_INT(err.code, TYJSON_E_NOMEM);
        } else {
            ASSERT_EQ_STR(tyjson_get_str(tyjson_obj_get(tyjson_doc_get_root(doc), "d")),
                          "12345678901234567890123");
            tyjson_doc_free(doc);
        }
        ASSERT_EQ_INT(t.live, 0);
        if (doc && !t.failed) {
            ok_at = k;
            break;
        }
    }
    ASSERT_TRUE(ok_at > 0);
}

TEST(read_number_as_raw) {
    tyjson_val v;
    tyjson_error err;
    ASSERT_EQ_UINT(tyjson_read_number("19.90,", 6, TYJSON_READ_NUMBER_AS_RAW, &v, &err), 5);
    ASSERT_TRUE(tyjson_is_raw(&v));
    ASSERT_EQ_UINT(tyjson_get_len(&v), 5);
    ASSERT_EQ_MEM(tyjson_get_str(&v), "19.90", 5);
    ASSERT_EQ_UINT(tyjson_read_number("1e999", 5, TYJSON_READ_NUMBER_AS_RAW, &v, &err), 5);
    ASSERT_TRUE(tyjson_is_raw(&v));
    ASSERT_EQ_UINT(tyjson_read_number("12px", 4, TYJSON_READ_NUMBER_AS_RAW, &v, &err), 2);
    ASSERT_EQ_UINT(tyjson_read_number("01", 2, TYJSON_READ_NUMBER_AS_RAW, &v, &err), 0);
    ASSERT_EQ_INT(err.code, TYJSON_E_NUMBER);
    ASSERT_EQ_UINT(err.offset, 1);
    ASSERT_EQ_UINT(tyjson_read_number("1.", 2, TYJSON_READ_NUMBER_AS_RAW, &v, &err), 0);
    ASSERT_EQ_INT(err.code, TYJSON_E_TRUNCATED);
}

TEST(validate_number_as_raw) {
    tyjson_read_options o = {TYJSON_READ_NUMBER_AS_RAW, 0, NULL};
    tyjson_error err;
    ASSERT_TRUE(tyjson_validate("[1e999,123456789012345678901234567890]", 38, &o, &err));
    ASSERT_FALSE(tyjson_validate("[1e999,01]", 10, &o, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_NUMBER);
    ASSERT_EQ_UINT(err.offset, 8);
    ASSERT_FALSE(tyjson_validate("[1e999]", 7, NULL, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_NUMBER_RANGE);
}

TEST(reader_number_as_raw) {
    static const char text[] = "{\"p\":19.90,\"q\":[3,1e999]}";
    tyjson_reader_options ro;
    memset(&ro, 0, sizeof(ro));
    ro.flags = TYJSON_READ_NUMBER_AS_RAW;
    tyjson_error err;
    tyjson_reader *r = tyjson_reader_new(&ro, &err);
    ASSERT_NOT_NULL(r);
    ASSERT_EQ_INT(tyjson_reader_open_buf(r, text, sizeof(text) - 1), TYJSON_OK);
    static const char *const want[] = {"19.90", "3", "1e999"};
    size_t nums = 0;
    for (tyjson_token t; (t = tyjson_reader_next(r)) != TYJSON_TOK_END;) {
        ASSERT_TRUE(t != TYJSON_TOK_ERROR);
        if (t != TYJSON_TOK_NUM) continue;
        size_t len = 0;
        const char *s = tyjson_reader_str(r, &len);
        ASSERT_EQ_UINT(len, strlen(want[nums]));
        ASSERT_EQ_MEM(s, want[nums], len);
        int64_t i;
        uint64_t u;
        double d;
        ASSERT_FALSE(tyjson_reader_get_i64(r, &i)); /* a raw NUM carries only text */
        ASSERT_FALSE(tyjson_reader_get_u64(r, &u));
        ASSERT_FALSE(tyjson_reader_get_double(r, &d));
        nums++;
    }
    ASSERT_EQ_UINT(nums, 3);
    /* a bad number fails as in strict mode */
    ASSERT_EQ_INT(tyjson_reader_open_buf(r, "[1,02]", 6), TYJSON_OK);
    tyjson_token t;
    while ((t = tyjson_reader_next(r)) != TYJSON_TOK_ERROR && t != TYJSON_TOK_END) {
    }
    ASSERT_EQ_INT(t, TYJSON_TOK_ERROR);
    ASSERT_EQ_INT(tyjson_reader_error(r)->code, TYJSON_E_NUMBER);
    ASSERT_EQ_UINT(tyjson_reader_error(r)->offset, 4);
    tyjson_reader_free(r);
}

TEST(lines_number_as_raw) {
    static const char text[] = "{\"p\":19.90}\n[1e999,2]\n";
    tyjson_lines_options lo;
    memset(&lo, 0, sizeof(lo));
    lo.read_flags = TYJSON_READ_NUMBER_AS_RAW;
    tyjson_error err;
    tyjson_lines *it = tyjson_lines_open_buf(text, sizeof(text) - 1, &lo, &err);
    ASSERT_NOT_NULL(it);
    tyjson_doc *doc = NULL;
    ASSERT_EQ_INT(tyjson_lines_next_doc(it, &doc, &err), TYJSON_OK);
    ASSERT_EQ_STR(tyjson_get_str(tyjson_obj_get(tyjson_doc_get_root(doc), "p")), "19.90");
    tyjson_doc_free(doc);
    ASSERT_EQ_INT(tyjson_lines_next_doc(it, &doc, &err), TYJSON_OK);
    ASSERT_EQ_STR(tyjson_get_str(tyjson_arr_get(tyjson_doc_get_root(doc), 0)), "1e999");
    ASSERT_EQ_STR(tyjson_get_str(tyjson_arr_get(tyjson_doc_get_root(doc), 1)), "2");
    tyjson_doc_free(doc);
    ASSERT_EQ_INT(tyjson_lines_next_doc(it, &doc, &err), TYJSON_DONE);
    tyjson_lines_free(it);
}

typedef struct priced {
    tyjson_val *v;
    int64_t qty;
} priced;
static const tyjson_field priced_fields[] = {
    TYJSON_FIELD_VALUE(priced, v, "v"),
    TYJSON_FIELD_I64(priced, qty, "qty"),
};
static tyjson_struct priced_type = TYJSON_STRUCT(priced, priced_fields, 0);

TEST(binding_value_number_as_raw) {
    static const char text[] = "{\"v\":{\"price\":19.90,\"big\":1e999},\"qty\":3}";
    tyjson_arena arena;
    tyjson_arena_init(&arena, NULL);
    priced p;
    tyjson_decode_options o = {0, TYJSON_READ_NUMBER_AS_RAW, 0, NULL};
    tyjson_error err;
    ASSERT_EQ_INT(tyjson_decode(&priced_type, &p, text, sizeof(text) - 1, &arena, &o, &err), TYJSON_OK);
    ASSERT_TRUE(tyjson_is_raw(tyjson_obj_get(p.v, "price")));
    ASSERT_EQ_STR(tyjson_get_str(tyjson_obj_get(p.v, "price")), "19.90");
    ASSERT_EQ_STR(tyjson_get_str(tyjson_obj_get(p.v, "big")), "1e999");
    ASSERT_EQ_INT(p.qty, 3); /* numeric members are read as numbers */
    tyjson_arena_free(&arena);
}

TEST(insitu_strings_point_into_the_buffer) {
    cnt.live = 0;
    char buf[128] = "{\"k\":\"a\\u00e9b\",\"n\":[1,2.5]}";
    size_t len = strlen(buf);
    tyjson_error err;
    tyjson_doc *doc = parse_insitu(buf, len, 0, &err);
    ASSERT_NOT_NULL(doc);
    tyjson_val *k = tyjson_obj_get(tyjson_doc_get_root(doc), "k");
    ASSERT_TRUE(tyjson_get_str(k) >= buf && tyjson_get_str(k) < buf + len);
    ASSERT_EQ_STR(tyjson_get_str(k), "a\xc3\xa9" "b");
    ASSERT_EQ_UINT(tyjson_doc_get_read_size(doc), len);
    /* the document holds only its value array */
    ASSERT_TRUE(tyjson_doc_get_mem_size(doc) < 64 + 16 * 64);
    tyjson_doc_free(doc);
    ASSERT_EQ_INT(cnt.live, 0);
}

TEST(insitu_needs_the_padding) {
    char buf[80];
    cnt.live = 0;
    memset(buf, 'x', sizeof(buf));
    memcpy(buf, "[1,2]", 5);
    tyjson_error err;
    tyjson_read_options o = {0, 0, &cnt_alc};
    ASSERT_NULL(tyjson_read_insitu(buf, 5, 5 + TYJSON_INSITU_PADDING - 1, &o, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_INVALID_ARG);
    ASSERT_TRUE(strstr(err.msg, "TYJSON_INSITU_PADDING") != NULL);
    for (size_t i = 5; i < sizeof(buf); i++) ASSERT_EQ_INT(buf[i], 'x'); /* nothing written */
    ASSERT_NULL(tyjson_read_insitu(buf, 50, 40, &o, &err)); /* cap below len */
    ASSERT_EQ_INT(err.code, TYJSON_E_INVALID_ARG);
    ASSERT_NULL(tyjson_read_insitu(NULL, 0, 64, &o, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_INVALID_ARG);
    tyjson_doc *doc = tyjson_read_insitu(buf, 5, 5 + TYJSON_INSITU_PADDING, &o, &err);
    ASSERT_NOT_NULL(doc);
    for (size_t i = 5; i < 5 + TYJSON_INSITU_PADDING; i++) ASSERT_EQ_INT(buf[i], 0);
    ASSERT_EQ_INT(buf[5 + TYJSON_INSITU_PADDING], 'x'); /* nothing past cap */
    tyjson_doc_free(doc);
    /* empty text */
    ASSERT_NULL(tyjson_read_insitu(buf, 0, TYJSON_INSITU_PADDING, &o, &err));
    ASSERT_EQ_INT(err.code, TYJSON_E_EMPTY);
    ASSERT_EQ_INT(cnt.live, 0);
}

TEST(insitu_error_positions) {
    /* no escaped line break before the error: line:col as tyjson_read_opts */
    static const char a[] = "{\"a\":\"x\\ty\",\n  \"b\": ]";
    char buf[128];
    tyjson_error e1, e2;
    cnt.live = 0;
    memcpy(buf, a, sizeof(a) - 1);
    ASSERT_NULL(parse_insitu(buf, sizeof(a) - 1, 0, &e1));
    ASSERT_NULL(parse(a, sizeof(a) - 1, 0, &e2));
    ASSERT_EQ_INT(e1.code, e2.code);
    ASSERT_EQ_UINT(e1.offset, e2.offset);
    ASSERT_EQ_UINT(e1.line, 2);
    ASSERT_EQ_UINT(e1.line, e2.line);
    ASSERT_EQ_UINT(e1.column, e2.column);
    /* a decoded \n escape before the error counts as a line break (documented) */
    static const char b[] = "{\"a\":\"x\\ny\",\n  \"b\": ]";
    memcpy(buf, b, sizeof(b) - 1);
    ASSERT_NULL(parse_insitu(buf, sizeof(b) - 1, 0, &e1));
    ASSERT_NULL(parse(b, sizeof(b) - 1, 0, &e2));
    ASSERT_EQ_UINT(e1.offset, e2.offset);
    ASSERT_EQ_UINT(e2.line, 2);
    ASSERT_EQ_UINT(e1.line, 3);
    ASSERT_EQ_INT(cnt.live, 0);
}

TEST(insitu_alloc_failure_sweep) {
    static const char text[] = "{\"a\":[1,2.5,3e9,{\"b\":-7}],\"c\":\"x\\u00e9\",\"d\":[true,false,null]}";
    bool done = false;
    for (size_t k = 0; k < 64 && !done; k++) {
        for (int raw = 0; raw < 2; raw++) {
            char buf[sizeof(text) + TYJSON_INSITU_PADDING];
            memcpy(buf, text, sizeof(text) - 1);
            test_alloc t;
            tyjson_alloc a = test_alloc_make(&t, k);
            tyjson_read_options o = {raw ? TYJSON_READ_NUMBER_AS_RAW : 0, 0, &a};
            tyjson_error err;
            tyjson_doc *doc = tyjson_read_insitu(buf, sizeof(text) - 1, sizeof(buf), &o, &err);
            if (!doc) {
                ASSERT_EQ_INT(err.code, TYJSON_E_NOMEM);
            } else {
                ASSERT_EQ_UINT(tyjson_arr_size(tyjson_obj_get(tyjson_doc_get_root(doc), "d")), 3);
                tyjson_doc_free(doc);
                if (!t.failed && raw) done = true;
            }
            ASSERT_EQ_INT(t.live, 0);
        }
    }
    ASSERT_TRUE(done);
}

/* JSON5 with NUMBER_AS_RAW (the two merged front-door variants): numbers in
 * JSON's own grammar stay text, out of range too; the JSON5-only forms,
 * which have no JSON text, are converted. DOM and pull reader agree. */
TEST(json5_with_number_as_raw) {
    static const char text[] = "{a: 19.90, b: 0x1F, c: +2, d: 1e400, e: .5, f: Infinity, g: -0,}";
    const tyjson_read_flags fl = TYJSON_READ_JSON5 | TYJSON_READ_NUMBER_AS_RAW;
    tyjson_error err;
    cnt.live = 0;
    tyjson_doc *doc = parse(text, sizeof(text) - 1, fl, &err);
    ASSERT_NOT_NULL(doc);
    tyjson_val *root = tyjson_doc_get_root(doc);
    ASSERT_TRUE(tyjson_is_raw(tyjson_obj_get(root, "a")));
    ASSERT_EQ_STR(tyjson_get_str(tyjson_obj_get(root, "a")), "19.90");
    ASSERT_EQ_INT(tyjson_get_sint(tyjson_obj_get(root, "b")), 31);
    ASSERT_EQ_INT(tyjson_get_sint(tyjson_obj_get(root, "c")), 2);
    ASSERT_TRUE(tyjson_is_raw(tyjson_obj_get(root, "d")));
    ASSERT_EQ_STR(tyjson_get_str(tyjson_obj_get(root, "d")), "1e400");
    ASSERT_TRUE(tyjson_is_real(tyjson_obj_get(root, "e")));
    ASSERT_TRUE(tyjson_is_real(tyjson_obj_get(root, "f")));
    ASSERT_TRUE(tyjson_is_raw(tyjson_obj_get(root, "g")));
    ASSERT_EQ_STR(tyjson_get_str(tyjson_obj_get(root, "g")), "-0");
    tyjson_doc_free(doc);
    ASSERT_EQ_INT(cnt.live, 0);
    ASSERT_TRUE(tyjson_validate(text, sizeof(text) - 1, &(tyjson_read_options){fl, 0, NULL}, &err));

    tyjson_reader_options ro;
    memset(&ro, 0, sizeof(ro));
    ro.flags = fl;
    tyjson_reader *r = tyjson_reader_new(&ro, &err);
    ASSERT_NOT_NULL(r);
    ASSERT_EQ_INT(tyjson_reader_open_buf(r, text, sizeof(text) - 1), TYJSON_OK);
    static const char *const raw_text[] = {"19.90", NULL, NULL, "1e400", NULL, NULL, "-0"};
    size_t nums = 0;
    for (tyjson_token t; (t = tyjson_reader_next(r)) != TYJSON_TOK_END;) {
        ASSERT_TRUE(t != TYJSON_TOK_ERROR);
        if (t != TYJSON_TOK_NUM) continue;
        ASSERT_TRUE(nums < 7);
        double d;
        if (raw_text[nums]) {
            size_t len = 0;
            const char *s = tyjson_reader_str(r, &len);
            ASSERT_EQ_UINT(len, strlen(raw_text[nums]));
            ASSERT_EQ_MEM(s, raw_text[nums], len);
            ASSERT_FALSE(tyjson_reader_get_double(r, &d));
        } else {
            ASSERT_TRUE(tyjson_reader_get_double(r, &d));
        }
        nums++;
    }
    ASSERT_EQ_UINT(nums, 7);
    tyjson_reader_free(r);
}

int main(int argc, char **argv) { return test_main(argc, argv); }
