/* test_bind_index.c - the binding decoder's index route (bind/
 * decode_index.c) against its byte route: the same status, offset, line,
 * column, path, message, values and arena use on the corpus files clean,
 * cut short and with bytes corrupted, and on hand-written documents that
 * pass containers and the rest of objects in every way the route does. */
#include "test.h"
#include "tyjson.h"
#include "bind/decode.h"
#include "read/index.h"

static uint64_t rng = 0x1DE7C0DE5EEDull;
static uint64_t rnd(void) {
    uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* ---- the benchmark's extract types, and a wider one ----------------------- */
typedef struct tw_user {
    tyjson_str screen_name;
} tw_user;
typedef struct tw_status {
    int64_t id;
    tyjson_str text;
    tw_user user;
    int64_t retweet_count;
} tw_status;
typedef struct tw_response {
    tw_status *statuses;
    size_t n_statuses;
} tw_response;

static const tyjson_field tw_user_fields[] = {
    TYJSON_FIELD_STR(tw_user, screen_name, "screen_name", TYJSON_FLAGS(TYJSON_F_REQUIRED)),
};
static tyjson_struct tw_user_type = TYJSON_STRUCT(tw_user, tw_user_fields, 0);
static const tyjson_field tw_status_fields[] = {
    TYJSON_FIELD_I64(tw_status, id, "id", TYJSON_FLAGS(TYJSON_F_REQUIRED)),
    TYJSON_FIELD_STR(tw_status, text, "text", TYJSON_FLAGS(TYJSON_F_REQUIRED)),
    TYJSON_FIELD_STRUCT(tw_status, user, "user", &tw_user_type, TYJSON_FLAGS(TYJSON_F_REQUIRED)),
    TYJSON_FIELD_I64(tw_status, retweet_count, "retweet_count", TYJSON_FLAGS(TYJSON_F_REQUIRED)),
};
static tyjson_struct tw_status_type = TYJSON_STRUCT(tw_status, tw_status_fields, 0);
static const tyjson_field tw_response_fields[] = {
    TYJSON_FIELD_DYN(tw_response, statuses, "statuses", n_statuses, TYJSON_K_STRUCT,
                     TYJSON_ELEM_TYPE(&tw_status_type), TYJSON_FLAGS(TYJSON_F_REQUIRED)),
};
static tyjson_struct tw_response_type = TYJSON_STRUCT(tw_response, tw_response_fields, 0);
/* the same fields, unknown keys an error */
static tyjson_struct tw_status_strict_type = TYJSON_STRUCT(tw_status, tw_status_fields,
                                                           TYJSON_T_UNKNOWN_ERROR);
static const tyjson_field tw_strict_fields[] = {
    TYJSON_FIELD_DYN(tw_response, statuses, "statuses", n_statuses, TYJSON_K_STRUCT,
                     TYJSON_ELEM_TYPE(&tw_status_strict_type), TYJSON_FLAGS(TYJSON_F_REQUIRED)),
};
static tyjson_struct tw_strict_type = TYJSON_STRUCT(tw_response, tw_strict_fields, 0);

/* What a decode gave: everything a caller can see, as text. */
typedef struct outcome {
    tyjson_status st;
    tyjson_error err;
    size_t used, read;
    char vals[4096];
} outcome;

static void describe(const tw_response *r, char *out, size_t cap) {
    size_t at = 0;
    out[0] = 0;
    for (size_t i = 0; i < r->n_statuses && at + 200 < cap; i++) {
        const tw_status *s = &r->statuses[i];
        at += (size_t)snprintf(out + at, cap - at, "%lld:%.*s:%.*s:%lld;", (long long)s->id,
                               (int)(s->text.len < 40 ? s->text.len : 40),
                               s->text.ptr ? s->text.ptr : "", (int)s->user.screen_name.len,
                               s->user.screen_name.ptr ? s->user.screen_name.ptr : "",
                               (long long)s->retweet_count);
    }
}

static void decode_with(int policy, tyjson_struct *type, const char *json, size_t len,
                        const tyjson_decode_options *o, outcome *out) {
    tyjson_arena a;
    tyjson_arena_init(&a, NULL);
    tw_response r;
    tyjson_decode_options opts;
    size_t read = 0;
    memset(&opts, 0, sizeof(opts));
    if (o) opts = *o;
    opts.read_size = &read;
    tyjson__dec_set_index_policy(policy);
    memset(out, 0, sizeof(*out));
    out->st = tyjson_decode(type, &r, json, len, &a, &opts, &out->err);
    tyjson__dec_set_index_policy(TYJSON__DEC_INDEX_AUTO);
    out->used = tyjson_arena_used(&a);
    out->read = read;
    if (out->st == TYJSON_OK) describe(&r, out->vals, sizeof(out->vals));
    tyjson_arena_free(&a);
}

static long long compared;

/* The same input by both routes: the same everything. */
static void same_both_ways(const char *what, tyjson_struct *type, const char *json, size_t len,
                           const tyjson_decode_options *o) {
    static outcome bytes, index;
    decode_with(TYJSON__DEC_INDEX_NEVER, type, json, len, o, &bytes);
    decode_with(TYJSON__DEC_INDEX_ALWAYS, type, json, len, o, &index);
    compared++;
    if (bytes.st != index.st || bytes.err.code != index.err.code ||
        bytes.err.offset != index.err.offset || bytes.err.line != index.err.line ||
        bytes.err.column != index.err.column || strcmp(bytes.err.path, index.err.path) != 0 ||
        strcmp(bytes.err.msg, index.err.msg) != 0)
        TEST_FAIL("%s: bytes %s at %zu (%zu:%zu) %s \"%s\"; index %s at %zu (%zu:%zu) %s \"%s\"",
                  what, tyjson_status_name(bytes.st), bytes.err.offset, bytes.err.line,
                  bytes.err.column, bytes.err.path, bytes.err.msg, tyjson_status_name(index.st),
                  index.err.offset, index.err.line, index.err.column, index.err.path,
                  index.err.msg);
    if (bytes.used != index.used || bytes.read != index.read)
        TEST_FAIL("%s: arena use %zu / %zu, read %zu / %zu", what, bytes.used, index.used,
                  bytes.read, index.read);
    if (strcmp(bytes.vals, index.vals) != 0) TEST_FAIL("%s: values differ", what);
}

static bool route_runs(void) { return tyjson__index_kernel() != tyjson__index_scalar; }

static const u8 corrupt_bytes[] = {'{', '}', '[', ']', '"', ',', ':', '\\', 0x80, 0xFF, 0xC3,
                                   'x', '1', ' ', 0x01, 'e', '-'};

TEST(corpus_mutations) {
    static const char *const files[] = {"twitter.json", "twitterescaped.json"};
    static const tyjson_decode_options borrow = {TYJSON_DECODE_BORROW, 0, 0, NULL};
    static const tyjson_decode_options unknown_err = {TYJSON_DECODE_UNKNOWN_ERROR, 0, 0, NULL};
    char path[1024];
    int found = 0;
    unsigned long before = tyjson__dec_index_routes();
    for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
        char rel[256];
        snprintf(rel, sizeof(rel), "corpus/%s", files[f]);
        test_shared_path(rel, path, sizeof(path));
        size_t len = 0;
        char *dat = test_read_file(path, &len);
        if (!dat) continue;
        found++;
        same_both_ways(files[f], &tw_response_type, dat, len, NULL);
        same_both_ways(files[f], &tw_response_type, dat, len, &borrow);
        same_both_ways(files[f], &tw_response_type, dat, len, &unknown_err);
        same_both_ways(files[f], &tw_strict_type, dat, len, NULL);
        char *buf = (char *)malloc(len);
        ASSERT_NOT_NULL(buf);
        for (int m = 0; m < 120; m++) {
            char what[300];
            size_t n = len;
            memcpy(buf, dat, len);
            if (m % 4 == 3) {
                n = (size_t)(rnd() % len);
                snprintf(what, sizeof(what), "%s cut at %zu", files[f], n);
            } else {
                size_t at = (size_t)(rnd() % len);
                buf[at] = (char)corrupt_bytes[rnd() % sizeof(corrupt_bytes)];
                if (m % 3 == 0) buf[(at + 1 + rnd() % 64) % len] = (char)corrupt_bytes[rnd() % sizeof(corrupt_bytes)];
                snprintf(what, sizeof(what), "%s corrupted at %zu", files[f], at);
            }
            same_both_ways(what, &tw_response_type, buf, n, m & 1 ? &borrow : NULL);
        }
        free(buf);
        free(dat);
    }
    if (!found) {
        if (test_require_shared()) TEST_FAIL("corpus missing near %s", path);
        TEST_SKIP("corpus not found");
    }
    if (route_runs()) ASSERT_TRUE(tyjson__dec_index_routes() > before);
    printf("  %lld decodes compared\n", compared);
}

/* ---- hand-written documents ---------------------------------------------- */
typedef struct item {
    int64_t a;
    tyjson_str b;
} item;
static const tyjson_field item_fields[] = {
    TYJSON_FIELD_I64(item, a, "a", TYJSON_FLAGS(TYJSON_F_REQUIRED)),
    TYJSON_FIELD_STR(item, b, "b", 0),
};
static tyjson_struct item_type = TYJSON_STRUCT(item, item_fields, 0);
static tyjson_struct item_dup_type = TYJSON_STRUCT(item, item_fields, TYJSON_T_DUPLICATE_ERROR);
typedef struct holder {
    item *items;
    size_t n_items;
} holder;
static const tyjson_field holder_fields[] = {
    TYJSON_FIELD_DYN(holder, items, "items", n_items, TYJSON_K_STRUCT, TYJSON_ELEM_TYPE(&item_type), 0),
};
static tyjson_struct holder_type = TYJSON_STRUCT(holder, holder_fields, 0);
static const tyjson_field holder_dup_fields[] = {
    TYJSON_FIELD_DYN(holder, items, "items", n_items, TYJSON_K_STRUCT,
                     TYJSON_ELEM_TYPE(&item_dup_type), 0),
};
static tyjson_struct holder_dup_type = TYJSON_STRUCT(holder, holder_dup_fields, 0);

typedef struct hold_outcome {
    tyjson_status st;
    tyjson_error err;
    char vals[512];
} hold_outcome;

static void hold_decode(int policy, tyjson_struct *t, const char *json, const tyjson_decode_options *o,
                        hold_outcome *out) {
    tyjson_arena a;
    tyjson_arena_init(&a, NULL);
    holder h;
    tyjson__dec_set_index_policy(policy);
    memset(out, 0, sizeof(*out));
    out->st = tyjson_decode(t, &h, json, strlen(json), &a, o, &out->err);
    tyjson__dec_set_index_policy(TYJSON__DEC_INDEX_AUTO);
    size_t at = 0;
    for (size_t i = 0; out->st == TYJSON_OK && i < h.n_items && at + 64 < sizeof(out->vals); i++)
        at += (size_t)snprintf(out->vals + at, sizeof(out->vals) - at, "%lld/%.*s;",
                               (long long)h.items[i].a, (int)h.items[i].b.len,
                               h.items[i].b.ptr ? h.items[i].b.ptr : "");
    tyjson_arena_free(&a);
}

/* json by both routes: the same outcome, and it is `want` (values, or the
 * status name and path of the error). */
static void check_doc(const char *file, int line, tyjson_struct *t, const char *json,
                      const tyjson_decode_options *o, const char *want) {
    hold_outcome x, y;
    hold_decode(TYJSON__DEC_INDEX_NEVER, t, json, o, &x);
    hold_decode(TYJSON__DEC_INDEX_ALWAYS, t, json, o, &y);
    if (x.st != y.st || x.err.offset != y.err.offset || strcmp(x.err.path, y.err.path) != 0 ||
        strcmp(x.err.msg, y.err.msg) != 0 || strcmp(x.vals, y.vals) != 0)
        TEST_FAIL_AT(file, line, "%s: bytes %s at %zu %s \"%s\" [%s]; index %s at %zu %s \"%s\" [%s]",
                     json, tyjson_status_name(x.st), x.err.offset, x.err.path, x.err.msg, x.vals,
                     tyjson_status_name(y.st), y.err.offset, y.err.path, y.err.msg, y.vals);
    char got[700];
    if (x.st == TYJSON_OK) snprintf(got, sizeof(got), "%s", x.vals);
    else snprintf(got, sizeof(got), "%s %s @%zu", tyjson_status_name(x.st), x.err.path, x.err.offset);
    if (strcmp(got, want) != 0) TEST_FAIL_AT(file, line, "%s: got \"%s\", want \"%s\"", json, got, want);
}
#define CHECK_DOC(t, json, o, want) check_doc(__FILE__, __LINE__, t, json, o, want)

TEST(passing_containers_and_rests) {
    unsigned long before = tyjson__dec_index_routes();
    /* unbound containers before, between and after the fields */
    CHECK_DOC(&holder_type, "{\"x\":{\"y\":[1,{\"z\":[]}]},\"items\":[{\"q\":[[]],\"a\":1,\"b\":\"s\"}],\"w\":[{}]}",
              NULL, "1/s;");
    /* the rest of an item passed once a and b are seen: a repeated a
     * there is skipped (the first wins), and so are containers */
    CHECK_DOC(&holder_type, "{\"items\":[{\"a\":1,\"b\":\"x\",\"a\":2,\"c\":{\"d\":[1,2]}},{\"b\":\"y\",\"a\":3,\"e\":[]}]}",
              NULL, "1/x;3/y;");
    /* keys in reverse order, then the rest */
    CHECK_DOC(&holder_type, "{\"items\":[{\"b\":\"r\",\"a\":7,\"z\":{\"a\":8}},{\"b\":\"s\",\"a\":9,\"a\":10}]}",
              NULL, "7/r;9/s;");
    /* repeated keys an error: the rest is read */
    CHECK_DOC(&holder_dup_type, "{\"items\":[{\"a\":1,\"b\":\"x\",\"a\":2}]}", NULL,
              "E_DUPLICATE_KEY $.items[0].a @25");
    /* unknown keys an error: the rest is read */
    {
        tyjson_decode_options o = {TYJSON_DECODE_UNKNOWN_ERROR, 0, 0, NULL};
        CHECK_DOC(&holder_type, "{\"items\":[{\"a\":1,\"b\":\"x\",\"c\":[]}]}", &o,
                  "E_UNKNOWN_KEY $.items[0].c @25");
    }
    /* a required field missing from an object with unbound members */
    CHECK_DOC(&holder_type, "{\"items\":[{\"b\":\"x\",\"c\":{\"a\":1}}]}", NULL,
              "E_MISSING_KEY $.items[0].a @30");
    /* the depth limit counts from the root on both routes */
    {
        tyjson_decode_options o = {0, 0, 4, NULL};
        CHECK_DOC(&holder_type, "{\"items\":[{\"a\":1,\"c\":[[1]]}]}", &o,
                  "E_DEPTH $.items[0].c @22");
        CHECK_DOC(&holder_type, "{\"items\":[{\"a\":1,\"c\":[1]}],\"d\":[[[[]]]]}", &o,
                  "E_DEPTH $.d @34");
        CHECK_DOC(&holder_type, "{\"items\":[{\"a\":1,\"c\":[1]}],\"d\":[[[]]]}", &o, "1/;");
    }
    /* invalid content in what would be passed: the byte route's errors */
    CHECK_DOC(&holder_type, "{\"items\":[{\"a\":1,\"b\":\"x\",\"c\":[1,]}]}", NULL,
              "E_UNEXPECTED_CHAR $.items[0].c @32");
    CHECK_DOC(&holder_type, "{\"items\":[{\"a\":1,\"b\":\"x\",\"c\":\"\xC3\"}]}", NULL,
              "E_UTF8 $.items[0].c @30");
    CHECK_DOC(&holder_type, "{\"items\":[{\"a\":1,\"b\":\"x\"}],\"z\":{\"k\" 1}}", NULL,
              "E_UNEXPECTED_CHAR $.z @36");
    CHECK_DOC(&holder_type, "{\"items\":[{\"a\":1,\"b\":\"x\"}]} x", NULL,
              "E_TRAILING $ @28");
    CHECK_DOC(&holder_type, "{\"items\":[{\"a\":1,\"b\":\"x\"}],\"z\":[1e999,-0.5e-999,123456789012345678901234567890]}",
              NULL, "1/x;");
    /* a type error in a bound value before invalid content later */
    CHECK_DOC(&holder_type, "{\"items\":[{\"a\":\"1\"}],\"z\":[}", NULL,
              "E_TYPE $.items[0].a @15");
    if (route_runs()) ASSERT_TRUE(tyjson__dec_index_routes() > before);
}

/* Every prefix and a corruption at every byte of a document that passes
 * containers and rests, both routes alike. */
TEST(every_byte) {
    static const char doc[] =
        "{\"pre\":{\"x\":[1,2,{\"y\":\"\\u00e9\"}]},\"items\":[{\"a\":1,\"b\":\"one\",\"c\":[true,null],"
        "\"a\":5},{\"b\":\"t\\\"wo\",\"q\":{},\"a\":-2,\"d\":{\"e\":[[],{}]}}],\"post\":[{\"f\":false}]}";
    size_t len = sizeof(doc) - 1;
    char buf[sizeof(doc)];
    static hold_outcome x, y;
    for (size_t cut = 0; cut <= len; cut++) {
        for (size_t k = 0; k <= sizeof(corrupt_bytes); k++) {
            memcpy(buf, doc, len + 1);
            size_t n = len;
            if (k == sizeof(corrupt_bytes)) buf[cut] = 0; /* a prefix */
            else if (cut < len) buf[cut] = (char)corrupt_bytes[k];
            else continue;
            n = strlen(buf) < n ? strlen(buf) : n;
            buf[n] = 0;
            hold_decode(TYJSON__DEC_INDEX_NEVER, &holder_type, buf, NULL, &x);
            hold_decode(TYJSON__DEC_INDEX_ALWAYS, &holder_type, buf, NULL, &y);
            if (x.st != y.st || x.err.offset != y.err.offset || strcmp(x.err.path, y.err.path) != 0 ||
                strcmp(x.err.msg, y.err.msg) != 0 || strcmp(x.vals, y.vals) != 0)
                TEST_FAIL("byte %zu, change %zu: bytes %s at %zu %s; index %s at %zu %s", cut, k,
                          tyjson_status_name(x.st), x.err.offset, x.err.path,
                          tyjson_status_name(y.st), y.err.offset, y.err.path);
        }
    }
}

int main(int argc, char **argv) { return test_main(argc, argv); }
