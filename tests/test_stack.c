/* test_stack.c - the C stack each entry point needs (docs/api.md, "Stack and
 * memory"): every entry point runs on a thread whose stack is exactly the
 * documented size, with the deepest input it accepts and one far deeper,
 * and must give the same result as on the main thread.
 *
 * Sanitizer builds grow every frame (redzones), so there the sizes are
 * scaled by SANITIZER_FACTOR; TYJSON_STACK_KIB=N runs every case on N KiB,
 * to find the real minimum of a build. */
#define _POSIX_C_SOURCE 200809L /* pthread_attr_setstacksize, mkstemp, fdopen */
#include "test.h"
#include "tyjson.h"

#include <pthread.h>

#if defined(__SANITIZE_ADDRESS__)
#  define SANITIZED 1
#elif defined(__has_feature)
#  if __has_feature(address_sanitizer)
#    define SANITIZED 1
#  endif
#endif
#ifdef SANITIZED
#  define SANITIZER_FACTOR 4
#else
#  define SANITIZER_FACTOR 1
#endif

/* The documented minimum thread stacks, in KiB (docs/api.md). */
#define STACK_ENCODE 64
#define STACK_DECODE 16
#define STACK_PARSE 16
#define STACK_WRITE 32

/* ----------------------------------------------------------------------------
 * Running a function on a small stack
 * ------------------------------------------------------------------------- */
static size_t stack_bytes(size_t kib) {
    const char *env = getenv("TYJSON_STACK_KIB");
    if (env && *env) kib = (size_t)strtoul(env, NULL, 10);
    else kib *= SANITIZER_FACTOR;
    return kib * 1024;
}

static void run_on_stack(size_t kib, void *(*fn)(void *), void *arg) {
    pthread_attr_t attr;
    pthread_t th;
    ASSERT_EQ_INT(pthread_attr_init(&attr), 0);
    ASSERT_EQ_INT(pthread_attr_setstacksize(&attr, stack_bytes(kib)), 0);
    ASSERT_EQ_INT(pthread_create(&th, &attr, fn, arg), 0);
    ASSERT_EQ_INT(pthread_join(th, NULL), 0);
    pthread_attr_destroy(&attr);
}

/* ----------------------------------------------------------------------------
 * Binding: a PTR chain whose deepest node has a free-form value and a RAW
 * member (the deepest C stack the encoder reaches)
 * ------------------------------------------------------------------------- */
typedef struct hop {
    int32_t v;
    struct hop *next;
    tyjson_val *val;
    tyjson_str raw;
} hop;
static tyjson_struct link_type;
static const tyjson_field link_fields[] = {
    TYJSON_FIELD_I32(hop, v, "v"),
    TYJSON_FIELD_PTR(hop, next, "next", &link_type),
    TYJSON_FIELD_VALUE(hop, val, "val", .flags = TYJSON_F_OMIT_EMPTY),
    TYJSON_FIELD_RAW(hop, raw, "raw", .flags = TYJSON_F_OMIT_EMPTY),
};
static tyjson_struct link_type = TYJSON_STRUCT(hop, link_fields, 0);
/* The same layout, first used on the small stack (its preparation too). */
static tyjson_struct fresh_link_type;
static const tyjson_field fresh_link_fields[] = {
    TYJSON_FIELD_I32(hop, v, "v"),
    TYJSON_FIELD_PTR(hop, next, "next", &fresh_link_type),
    TYJSON_FIELD_VALUE(hop, val, "val", .flags = TYJSON_F_OMIT_EMPTY),
    TYJSON_FIELD_RAW(hop, raw, "raw", .flags = TYJSON_F_OMIT_EMPTY),
};
static tyjson_struct fresh_link_type = TYJSON_STRUCT(hop, fresh_link_fields, 0);

#define TOO_DEEP 100000

/* A chain of n links; the last one has a value and RAW text. */
static hop *make_chain(size_t n, const tyjson_val *val) {
    hop *c = (hop *)calloc(n, sizeof(hop));
    if (!c) return NULL;
    for (size_t i = 0; i < n; i++) {
        c[i].v = (int32_t)i;
        c[i].next = i + 1 < n ? &c[i + 1] : NULL;
    }
    c[n - 1].val = (tyjson_val *)val;
    c[n - 1].raw.ptr = "[1, {\"b\" : [true, null, \"\xc3\xa9\"]}]";
    c[n - 1].raw.len = strlen(c[n - 1].raw.ptr);
    return c;
}

typedef struct enc_case {
    const hop *deepest;  /* TYJSON_DEFAULT_MAX_DEPTH links */
    const hop *too_deep; /* TOO_DEEP links */
    tyjson_write_flags flags;
    char *heap;           /* tyjson_encode's text */
    size_t heap_len;
    char *cb;             /* tyjson_encode_cb's text */
    size_t cb_len, cb_cap;
    size_t buf_len;       /* tyjson_encode_buf's length */
    char *buf;
    bool fp_ok;
    tyjson_buf appended;  /* tyjson_encode_append's text */
    tyjson_status deep_heap, deep_cb; /* of the too deep chain */
} enc_case;

static int count_bytes(void *ctx, const char *data, size_t len) {
    (void)data;
    *(size_t *)ctx += len;
    return 0;
}

static int grow_append(void *ctx, const char *data, size_t len) {
    enc_case *c = (enc_case *)ctx;
    if (c->cb_len + len + 1 > c->cb_cap) {
        size_t cap = (c->cb_len + len + 1) * 2;
        char *p = (char *)realloc(c->cb, cap);
        if (!p) return 1;
        c->cb = p;
        c->cb_cap = cap;
    }
    memcpy(c->cb + c->cb_len, data, len);
    c->cb_len += len;
    c->cb[c->cb_len] = 0;
    return 0;
}

static void *encode_all(void *arg) {
    enc_case *c = (enc_case *)arg;
    tyjson_write_options o = {c->flags, 0, NULL};
    tyjson_error err;
    c->heap = tyjson_encode(&link_type, c->deepest, &o, &c->heap_len, &err);
    if (!tyjson_encode_cb(grow_append, c, &link_type, c->deepest, &o, &err)) c->cb_len = 0;
    c->buf_len = tyjson_encode_buf(&link_type, c->deepest, c->buf, c->heap_len + 1, &o, &err);
    FILE *fp = fopen("/dev/null", "wb");
    c->fp_ok = fp && tyjson_encode_fp(fp, &link_type, c->deepest, &o, &err);
    if (fp) fclose(fp);
    tyjson_buf_init(&c->appended, NULL);
    tyjson_encode_append(&c->appended, &link_type, c->deepest, &o, &err);
    char *t = tyjson_encode(&link_type, c->too_deep, &o, NULL, &err);
    c->deep_heap = err.code;
    free(t);
    size_t bytes = 0;
    tyjson_encode_cb(count_bytes, &bytes, &link_type, c->too_deep, &o, &err);
    c->deep_cb = err.code;
    return NULL;
}

TEST(encoder_on_documented_stack) {
    const char *vsrc = "{\"a\":[1,2,{\"b\":\"x\\/y\"}]}";
    tyjson_doc *vdoc = tyjson_read(vsrc, strlen(vsrc), 0);
    ASSERT_NOT_NULL(vdoc);
    hop *deepest = make_chain(TYJSON_DEFAULT_MAX_DEPTH, tyjson_doc_get_root(vdoc));
    hop *too_deep = make_chain(TOO_DEEP, tyjson_doc_get_root(vdoc));
    ASSERT_NOT_NULL(deepest);
    ASSERT_NOT_NULL(too_deep);
    const tyjson_write_flags fl[] = {0, TYJSON_WRITE_PRETTY | TYJSON_WRITE_ESCAPE_UNICODE};
    for (size_t k = 0; k < 2; k++) {
        tyjson_write_options o = {fl[k], 0, NULL};
        size_t want_len = 0;
        char *want = tyjson_encode(&link_type, deepest, &o, &want_len, NULL);
        ASSERT_NOT_NULL(want);
        enc_case c;
        memset(&c, 0, sizeof(c));
        c.deepest = deepest;
        c.too_deep = too_deep;
        c.flags = fl[k];
        c.buf = (char *)malloc(want_len + 1);
        ASSERT_NOT_NULL(c.buf);
        run_on_stack(STACK_ENCODE, encode_all, &c);
        ASSERT_NOT_NULL(c.heap);
        ASSERT_EQ_UINT(c.heap_len, want_len);
        ASSERT_EQ_STR(c.heap, want);
        ASSERT_EQ_UINT(c.cb_len, want_len);
        ASSERT_EQ_STR(c.cb, want);
        ASSERT_EQ_UINT(c.buf_len, want_len);
        ASSERT_EQ_STR(c.buf, want);
        ASSERT_TRUE(c.fp_ok);
        ASSERT_EQ_UINT(c.appended.len, want_len);
        ASSERT_EQ_STR(c.appended.data, want);
        tyjson_buf_free(&c.appended);
        ASSERT_EQ_INT(c.deep_heap, TYJSON_E_DEPTH);
        ASSERT_EQ_INT(c.deep_cb, TYJSON_E_DEPTH);
        free(want);
        free(c.heap);
        free(c.cb);
        free(c.buf);
    }
    free(deepest);
    free(too_deep);
    tyjson_doc_free(vdoc);
}

/* A descriptor whose struct holds itself by value at offset 0: the
 * emptiness check (OMIT_EMPTY) and the walk both stop at their bounds. */
typedef struct selfish {
    int32_t pad;
} selfish;
static tyjson_struct selfish_type;
static const tyjson_field selfish_fields[] = {
    {.name = "s", .offset = 0, .kind = TYJSON_K_STRUCT, .size = sizeof(selfish),
     .type = &selfish_type, .flags = TYJSON_F_OMIT_EMPTY},
};
static tyjson_struct selfish_type = TYJSON_STRUCT(selfish, selfish_fields, 0);

static void *encode_selfish(void *arg) {
    tyjson_status *st = (tyjson_status *)arg;
    selfish v = {0};
    char out[64];
    tyjson_error err;
    tyjson_encode_buf(&selfish_type, &v, out, sizeof(out), NULL, &err);
    st[0] = err.code;
    FILE *fp = fopen("/dev/null", "wb");
    if (fp) tyjson_encode_fp(fp, &selfish_type, &v, NULL, &err);
    if (fp) fclose(fp);
    st[1] = fp ? err.code : TYJSON_E_IO;
    return NULL;
}

TEST(encoder_self_containing_struct_on_documented_stack) {
    tyjson_status st[2] = {TYJSON_OK, TYJSON_OK};
    run_on_stack(STACK_ENCODE, encode_selfish, st);
    ASSERT_EQ_INT(st[0], TYJSON_E_DEPTH);
    ASSERT_EQ_INT(st[1], TYJSON_E_DEPTH);
}

/* ----------------------------------------------------------------------------
 * Binding decoder: the deepest chain it accepts, and a far deeper text
 * ------------------------------------------------------------------------- */
typedef struct dec_case {
    const char *deepest, *too_deep;
    size_t deepest_len, too_deep_len;
    tyjson_status st, deep_st;
    size_t links;
    bool raw_ok;
} dec_case;

static void *decode_all(void *arg) {
    dec_case *c = (dec_case *)arg;
    tyjson_arena arena;
    tyjson_arena_init(&arena, NULL);
    hop out;
    tyjson_error err;
    c->st = tyjson_decode(&fresh_link_type, &out, c->deepest, c->deepest_len, &arena, NULL, &err);
    c->links = 0;
    const hop *last = NULL;
    for (const hop *p = c->st == TYJSON_OK ? &out : NULL; p; p = p->next, c->links++) last = p;
    c->raw_ok = last && last->raw.len > 0 && last->val != NULL;
    tyjson_arena_reset(&arena);
    c->deep_st = tyjson_decode(&fresh_link_type, &out, c->too_deep, c->too_deep_len, &arena, NULL,
                               &err);
    tyjson_arena_free(&arena);
    return NULL;
}

TEST(decoder_on_documented_stack) {
    const char *vsrc = "{\"a\":[1,2,{\"b\":\"x\"}]}";
    tyjson_doc *vdoc = tyjson_read(vsrc, strlen(vsrc), 0);
    ASSERT_NOT_NULL(vdoc);
    /* the value and the RAW text add nesting of their own: 1021 links + 3 */
    hop *chain = make_chain(TYJSON_DEFAULT_MAX_DEPTH - 3, tyjson_doc_get_root(vdoc));
    ASSERT_NOT_NULL(chain);
    dec_case c;
    memset(&c, 0, sizeof(c));
    char *deepest = tyjson_encode(&link_type, chain, NULL, &c.deepest_len, NULL);
    ASSERT_NOT_NULL(deepest);
    c.deepest = deepest;
    /* TOO_DEEP objects: {"next":{"next":...}} */
    size_t n = TOO_DEEP, unit = strlen("{\"next\":");
    char *too = (char *)malloc(n * (unit + 1) + 8);
    ASSERT_NOT_NULL(too);
    for (size_t i = 0; i < n; i++) memcpy(too + i * unit, "{\"next\":", unit);
    memcpy(too + n * unit, "null", 4);
    memset(too + n * unit + 4, '}', n);
    c.too_deep = too;
    c.too_deep_len = n * unit + 4 + n;
    run_on_stack(STACK_DECODE, decode_all, &c);
    ASSERT_EQ_INT(c.st, TYJSON_OK);
    ASSERT_EQ_UINT(c.links, TYJSON_DEFAULT_MAX_DEPTH - 3);
    ASSERT_TRUE(c.raw_ok);
    ASSERT_EQ_INT(c.deep_st, TYJSON_E_DEPTH);
    free(deepest);
    free(too);
    free(chain);
    tyjson_doc_free(vdoc);
}

/* ----------------------------------------------------------------------------
 * DOM parser and writers: 200,000 nested containers
 * ------------------------------------------------------------------------- */
#define DOM_DEPTH 200000

typedef struct dom_case {
    const char *text;
    size_t len;
    const char *path; /* a file holding the text */
    tyjson_doc *doc, *from_file, *from_fp;
    tyjson_status deep_default; /* the same text with the default limit */
    tyjson_status deep_fp;      /* the same from a stream (its error is located) */
    size_t deep_fp_line;
    bool valid;                    /* tyjson_validate with the deep limit */
    tyjson_status valid_default;   /* and with the default one */
} dom_case;

/* `[{"k":[{"k":...}]}]`, depth levels in all. */
static char *nested_text(size_t depth, size_t *len) {
    size_t pairs = depth / 2, open = strlen("[{\"k\":"), close = 2;
    char *t = (char *)malloc(pairs * (open + close) + 8);
    if (!t) return NULL;
    size_t k = 0;
    for (size_t i = 0; i < pairs; i++, k += open) memcpy(t + k, "[{\"k\":", open);
    memcpy(t + k, "null", 4);
    k += 4;
    for (size_t i = 0; i < pairs; i++, k += close) memcpy(t + k, "}]", close);
    *len = k;
    return t;
}

static void *parse_deep(void *arg) {
    dom_case *c = (dom_case *)arg;
    tyjson_read_options ro = {0, DOM_DEPTH, NULL};
    tyjson_error err;
    c->doc = tyjson_read_opts(c->text, c->len, &ro, &err);
    tyjson_doc *d = tyjson_read_opts(c->text, c->len, NULL, &err);
    c->deep_default = err.code;
    tyjson_doc_free(d);
    c->valid = tyjson_validate(c->text, c->len, &ro, &err);
    (void)tyjson_validate(c->text, c->len, NULL, &err);
    c->valid_default = err.code;
    c->from_file = tyjson_read_file(c->path, &ro, &err);
    FILE *fp = fopen(c->path, "rb");
    if (fp) {
        c->from_fp = tyjson_read_fp(fp, &ro, &err);
        rewind(fp);
        d = tyjson_read_fp(fp, NULL, &err);
        c->deep_fp = err.code;
        c->deep_fp_line = err.line;
        tyjson_doc_free(d);
        fclose(fp);
    }
    return NULL;
}

TEST(dom_parser_on_documented_stack) {
    dom_case c;
    memset(&c, 0, sizeof(c));
    char *text = nested_text(DOM_DEPTH, &c.len);
    ASSERT_NOT_NULL(text);
    c.text = text;
    char path[] = "/tmp/tyjson_test_stack_XXXXXX";
    int fd = mkstemp(path);
    ASSERT_TRUE(fd >= 0);
    FILE *fp = fdopen(fd, "wb");
    ASSERT_NOT_NULL(fp);
    ASSERT_EQ_UINT(fwrite(text, 1, c.len, fp), c.len);
    ASSERT_EQ_INT(fclose(fp), 0);
    c.path = path;
    run_on_stack(STACK_PARSE, parse_deep, &c);
    remove(path);
    ASSERT_NOT_NULL(c.doc);
    ASSERT_EQ_UINT(tyjson_doc_get_val_count(c.doc), DOM_DEPTH + DOM_DEPTH / 2 + 1);
    ASSERT_EQ_INT(c.deep_default, TYJSON_E_DEPTH);
    ASSERT_TRUE(c.valid);
    ASSERT_EQ_INT(c.valid_default, TYJSON_E_DEPTH);
    ASSERT_NOT_NULL(c.from_file);
    ASSERT_TRUE(tyjson_equals(tyjson_doc_get_root(c.from_file), tyjson_doc_get_root(c.doc)));
    ASSERT_NOT_NULL(c.from_fp);
    ASSERT_TRUE(tyjson_equals(tyjson_doc_get_root(c.from_fp), tyjson_doc_get_root(c.doc)));
    ASSERT_EQ_INT(c.deep_fp, TYJSON_E_DEPTH);
    ASSERT_EQ_UINT(c.deep_fp_line, 1);
    tyjson_doc_free(c.doc);
    tyjson_doc_free(c.from_file);
    tyjson_doc_free(c.from_fp);
    free(text);
}

#define PRETTY_DEPTH 2000 /* pretty text grows with the square of the depth */

typedef struct write_case {
    const tyjson_doc *doc;
    const tyjson_mut_doc *mdoc;
    tyjson_write_flags flags;
    char *heap, *mut;
    size_t heap_len, mut_len, buf_len, cb_len;
    char *buf;
    bool fp_ok, file_ok;
} write_case;

static void *write_all(void *arg) {
    write_case *c = (write_case *)arg;
    tyjson_write_options o = {c->flags, 1, NULL};
    tyjson_error err;
    c->heap = tyjson_write_opts(c->doc, &o, &c->heap_len, &err);
    c->mut = tyjson_mut_write_opts(c->mdoc, &o, &c->mut_len, &err);
    const tyjson_val *root = tyjson_doc_get_root(c->doc);
    c->buf_len = tyjson_val_write_buf(root, c->buf, c->heap_len + 1, &o, &err);
    tyjson_val_write_cb(count_bytes, &c->cb_len, root, &o, &err);
    FILE *fp = fopen("/dev/null", "wb");
    c->fp_ok = fp && tyjson_val_write_fp(fp, root, &o, &err) &&
               tyjson_mut_val_write_fp(fp, tyjson_mut_doc_get_root(c->mdoc), &o, &err);
    if (fp) fclose(fp);
    c->file_ok = tyjson_val_write_file("/dev/null", root, &o, &err) &&
                 tyjson_mut_val_write_file("/dev/null", tyjson_mut_doc_get_root(c->mdoc), &o, &err);
    return NULL;
}

static void check_writers(size_t depth, tyjson_write_flags flags) {
    size_t len = 0;
    char *text = nested_text(depth, &len);
    ASSERT_NOT_NULL(text);
    tyjson_read_options ro = {0, DOM_DEPTH, NULL};
    tyjson_doc *doc = tyjson_read_opts(text, len, &ro, NULL);
    ASSERT_NOT_NULL(doc);
    tyjson_mut_doc *mdoc = tyjson_doc_mut_copy(doc, NULL);
    ASSERT_NOT_NULL(mdoc);
    tyjson_write_options o = {flags, 1, NULL};
    size_t want_len = 0;
    char *want = tyjson_write_opts(doc, &o, &want_len, NULL);
    ASSERT_NOT_NULL(want);
    write_case c;
    memset(&c, 0, sizeof(c));
    c.doc = doc;
    c.mdoc = mdoc;
    c.flags = flags;
    c.buf = (char *)malloc(want_len + 1);
    ASSERT_NOT_NULL(c.buf);
    run_on_stack(STACK_WRITE, write_all, &c);
    ASSERT_NOT_NULL(c.heap);
    ASSERT_EQ_UINT(c.heap_len, want_len);
    ASSERT_TRUE(memcmp(c.heap, want, want_len + 1) == 0);
    ASSERT_NOT_NULL(c.mut);
    ASSERT_EQ_UINT(c.mut_len, want_len);
    ASSERT_TRUE(memcmp(c.mut, want, want_len + 1) == 0);
    ASSERT_EQ_UINT(c.buf_len, want_len);
    ASSERT_TRUE(memcmp(c.buf, want, want_len + 1) == 0);
    ASSERT_EQ_UINT(c.cb_len, want_len);
    ASSERT_TRUE(c.fp_ok);
    ASSERT_TRUE(c.file_ok);
    free(want);
    free(c.heap);
    free(c.mut);
    free(c.buf);
    tyjson_mut_doc_free(mdoc);
    tyjson_doc_free(doc);
    free(text);
}

TEST(dom_writers_on_documented_stack) {
    check_writers(DOM_DEPTH, 0);
    check_writers(PRETTY_DEPTH, TYJSON_WRITE_PRETTY);
}

/* ----------------------------------------------------------------------------
 * Editing (edit.h): pointer get/set, JSON Patch, Merge Patch and diff on
 * objects nested EDIT_DEPTH deep, the results compared as text with the
 * same calls on the main thread
 * ------------------------------------------------------------------------- */
#define STACK_EDIT 16
/* Deep enough that any recursion per level would overflow 16 KiB many
 * times over. */
#define EDIT_DEPTH 10000

/* {"a":{"a":...leaf...}} depth levels deep. */
static char *nested_objects(size_t depth, const char *leaf, size_t *len) {
    size_t ln = strlen(leaf), n = depth * 6 + ln;
    char *t = (char *)malloc(n + 1);
    if (!t) return NULL;
    for (size_t i = 0; i < depth; i++) memcpy(t + i * 5, "{\"a\":", 5);
    memcpy(t + depth * 5, leaf, ln);
    memset(t + depth * 5 + ln, '}', depth);
    t[n] = 0;
    *len = n;
    return t;
}

typedef struct edit_case {
    const tyjson_doc *a, *b, *patch;
    const char *ptr; /* "/a" EDIT_DEPTH times */
    /* the results, written as text on the main thread (the writers have
     * their own row in the table) */
    tyjson_mut_doc *set, *patched, *merged, *diffed, *merged_mut, *mut_diffed;
    bool leaf_ok; /* ptr_get found the leaf, 0 */
} edit_case;

static char *mut_text(tyjson_mut_doc *d) {
    char *t = d ? tyjson_mut_write(d, 0, NULL) : NULL;
    tyjson_mut_doc_free(d);
    return t;
}

static tyjson_mut_doc *patched_or_null(tyjson_mut_doc *m, tyjson_status st) {
    if (st == TYJSON_OK) return m;
    tyjson_mut_doc_free(m);
    return NULL;
}

static void *edit_all(void *arg) {
    edit_case *c = (edit_case *)arg;
    tyjson_mut_doc *m = tyjson_doc_mut_copy(c->a, NULL);
    if (!m) return NULL;
    tyjson_mut_val *leaf = tyjson_mut_doc_ptr_get(m, c->ptr);
    c->leaf_ok = leaf && tyjson_mut_is_uint(leaf) && tyjson_mut_get_uint(leaf) == 0;
    /* replace 0 by 5, remove it, add 6, set 7: the last must stand */
    bool ok = tyjson_mut_doc_ptr_replace(m, c->ptr, tyjson_mut_uint(m, 5)) != NULL &&
              tyjson_mut_doc_ptr_remove(m, c->ptr) != NULL &&
              tyjson_mut_doc_ptr_add(m, c->ptr, tyjson_mut_uint(m, 6)) &&
              tyjson_mut_doc_ptr_set(m, c->ptr, tyjson_mut_uint(m, 7));
    c->set = patched_or_null(m, ok ? TYJSON_OK : TYJSON_E_INVALID_ARG);
    m = tyjson_doc_mut_copy(c->a, NULL);
    if (m) c->patched = patched_or_null(m, tyjson_mut_doc_patch(m, tyjson_doc_get_root(c->patch), NULL));
    m = tyjson_doc_mut_copy(c->a, NULL);
    if (m) c->merged = patched_or_null(m, tyjson_mut_doc_merge_patch(m, tyjson_doc_get_root(c->b), NULL));
    tyjson_mut_doc *mb = tyjson_doc_mut_copy(c->b, NULL);
    m = tyjson_doc_mut_copy(c->a, NULL);
    if (mb && m)
        c->merged_mut = patched_or_null(
            m, tyjson_mut_doc_merge_patch_mut(m, tyjson_mut_doc_get_root(mb), NULL));
    else tyjson_mut_doc_free(m);
    tyjson_mut_doc *ma = tyjson_doc_mut_copy(c->a, NULL);
    tyjson_mut_doc *md = ma && mb ? tyjson_mut_diff(tyjson_mut_doc_get_root(ma),
                                                    tyjson_mut_doc_get_root(mb), NULL, NULL)
                                  : NULL;
    if (md) c->mut_diffed = patched_or_null(
                ma, tyjson_mut_doc_patch_mut(ma, tyjson_mut_doc_get_root(md), NULL));
    else tyjson_mut_doc_free(ma);
    tyjson_mut_doc_free(md);
    tyjson_mut_doc_free(mb);
    tyjson_mut_doc *d = tyjson_diff(tyjson_doc_get_root(c->a), tyjson_doc_get_root(c->b), NULL, NULL);
    m = tyjson_doc_mut_copy(c->a, NULL);
    if (d && m) c->diffed = patched_or_null(m, tyjson_mut_doc_patch_mut(m, tyjson_mut_doc_get_root(d), NULL));
    else tyjson_mut_doc_free(m);
    tyjson_mut_doc_free(d);
    return NULL;
}

/* The texts of the results, in the order of edit_case. */
static void edit_texts(edit_case *c, char *t[6]) {
    t[0] = mut_text(c->set);
    t[1] = mut_text(c->patched);
    t[2] = mut_text(c->merged);
    t[3] = mut_text(c->diffed);
    t[4] = mut_text(c->merged_mut);
    t[5] = mut_text(c->mut_diffed);
}

TEST(editing_on_documented_stack) {
    size_t la, lb;
    char *ta = nested_objects(EDIT_DEPTH, "0", &la), *tb = nested_objects(EDIT_DEPTH, "1", &lb);
    ASSERT_NOT_NULL(ta);
    ASSERT_NOT_NULL(tb);
    char *ptr = (char *)malloc(EDIT_DEPTH * 2 + 1);
    ASSERT_NOT_NULL(ptr);
    for (size_t i = 0; i < EDIT_DEPTH; i++) memcpy(ptr + i * 2, "/a", 2);
    ptr[EDIT_DEPTH * 2] = 0;
    size_t lp = EDIT_DEPTH * 2 + 64;
    char *tp = (char *)malloc(lp);
    ASSERT_NOT_NULL(tp);
    lp = (size_t)snprintf(tp, lp, "[{\"op\":\"replace\",\"path\":\"%s\",\"value\":1}]", ptr);
    tyjson_read_options ro = {0, EDIT_DEPTH + 8, NULL};
    edit_case want, got;
    memset(&want, 0, sizeof(want));
    want.a = tyjson_read_opts(ta, la, &ro, NULL);
    want.b = tyjson_read_opts(tb, lb, &ro, NULL);
    want.patch = tyjson_read_opts(tp, lp, &ro, NULL);
    want.ptr = ptr;
    ASSERT_NOT_NULL(want.a);
    ASSERT_NOT_NULL(want.b);
    ASSERT_NOT_NULL(want.patch);
    got = want;
    edit_all(&want);
    run_on_stack(STACK_EDIT, edit_all, &got);
    char *w[6], *g[6];
    edit_texts(&want, w);
    edit_texts(&got, g);
    ASSERT_TRUE(want.leaf_ok);
    ASSERT_TRUE(got.leaf_ok);
    ASSERT_NOT_NULL(w[0]);
    ASSERT_EQ_UINT(strlen(w[0]), la);
    ASSERT_TRUE(strstr(w[0], "{\"a\":7}") != NULL);
    ASSERT_EQ_STR(w[1], tb);
    ASSERT_EQ_STR(w[2], tb);
    ASSERT_EQ_STR(w[3], tb);
    ASSERT_EQ_STR(w[4], tb);
    ASSERT_EQ_STR(w[5], tb);
    for (int i = 0; i < 6; i++) {
        ASSERT_EQ_STR(g[i], w[i]);
        free(w[i]);
        free(g[i]);
    }
    tyjson_doc_free((tyjson_doc *)want.a);
    tyjson_doc_free((tyjson_doc *)want.b);
    tyjson_doc_free((tyjson_doc *)want.patch);
    free(ptr);
    free(tp);
    free(ta);
    free(tb);
}

int main(int argc, char **argv) { return test_main(argc, argv); }
