/* test_bind_encode_fast.c - the encoder's fast member loop (bind_encode.c,
 * fields_fast, planned by bind_desc.c's plan_encoder): types whose first
 * member is always written take `,"key":` heads and one room check per
 * segment of fixed-width members. These tests pin its edge cases to exact
 * bytes and to the general walk (the pretty layout, which never takes the
 * fast loop, minified again by the DOM writer): keys that need escaping
 * between plain ones, members of every fast kind and general ones mixed,
 * strings and NULL strings, nested and pointed-to structs, zero dates left
 * out (first member too), runs of fixed members longer than one segment,
 * every buffer size around the text's, chunked sinks and heap growth in the
 * middle of a segment, nesting past the recursion's depth, and errors with
 * their paths. */
#include "test.h"
#include "tyjson.h"

#include <math.h>
#include <stdio.h>

/* The text through the general walk: pretty, then minified by the DOM. */
static char *general_text(tyjson_struct *type, const void *in, tyjson_write_flags flags) {
    tyjson_write_options o = {flags | TYJSON_WRITE_PRETTY, 0, NULL};
    size_t n = 0;
    char *pretty = tyjson_encode(type, in, &o, &n, NULL);
    if (!pretty) return NULL;
    tyjson_doc *doc = tyjson_read(pretty, n, 0);
    free(pretty);
    if (!doc) return NULL;
    tyjson_write_options wo = {flags, 0, NULL};
    char *min = tyjson_write_opts(doc, &wo, NULL, NULL);
    tyjson_doc_free(doc);
    return min;
}

/* Minified encode equals want, and the general walk's text. */
#define ASSERT_FAST(type, in, flags, want)                                     \
    do {                                                                       \
        tyjson_write_options o__ = {(flags), 0, NULL};                         \
        tyjson_error e__;                                                      \
        size_t n__ = 0;                                                        \
        char *t__ = tyjson_encode((type), (in), &o__, &n__, &e__);             \
        if (!t__) TEST_FAIL("encode failed: %s at %s", tyjson_status_name(e__.code), e__.path); \
        ASSERT_EQ_STR(t__, (want));                                            \
        ASSERT_EQ_UINT(n__, strlen(want));                                     \
        char *g__ = general_text((type), (in), (flags));                       \
        ASSERT_NOT_NULL(g__);                                                  \
        ASSERT_EQ_STR(t__, g__);                                               \
        free(g__);                                                             \
        free(t__);                                                             \
    } while (0)

#define ASSERT_FAST_ERR(type, in, code_, path_)                                \
    do {                                                                       \
        tyjson_error e__;                                                      \
        char *t__ = tyjson_encode((type), (in), NULL, NULL, &e__);             \
        ASSERT_NULL(t__);                                                      \
        ASSERT_EQ_STR(tyjson_status_name(e__.code), tyjson_status_name(code_)); \
        ASSERT_EQ_STR(e__.path, (path_));                                      \
    } while (0)

static tyjson_str S(const char *s) {
    tyjson_str r = {s, strlen(s)};
    return r;
}

/* ----------------------------------------------------------------------------
 * Every fast kind, general members between them, nested structs
 * ------------------------------------------------------------------------- */
typedef struct inner {
    tyjson_str name;
    int32_t n;
} inner;
static const tyjson_field inner_fields[] = {
    TYJSON_FIELD_STR(inner, name, "name"),
    TYJSON_FIELD_I32(inner, n, "n"),
};
static tyjson_struct inner_type = TYJSON_STRUCT(inner, inner_fields, 0);

typedef struct mix {
    int64_t id;
    tyjson_str s;
    bool b;
    double r;
    int32_t i;
    uint16_t u;         /* general (no fast op) */
    inner in;           /* STRUCT */
    inner *p;           /* PTR */
    int32_t odd;        /* its key needs escaping: general */
    tyjson_date d;      /* omitted when zero */
    int64_t ms;         /* EPOCH_MS */
    int32_t *xs;        /* DYN: general */
    size_t n_xs;
    tyjson_str opt;     /* OMIT_EMPTY: general */
    tyjson_str last;
} mix;
static const tyjson_field mix_fields[] = {
    TYJSON_FIELD_I64(mix, id, "id"),
    TYJSON_FIELD_STR(mix, s, "s"),
    TYJSON_FIELD_BOOL(mix, b, "b"),
    TYJSON_FIELD_F64(mix, r, "r"),
    TYJSON_FIELD_I32(mix, i, "i"),
    TYJSON_FIELD_U16(mix, u, "u"),
    TYJSON_FIELD_STRUCT(mix, in, "in", &inner_type),
    TYJSON_FIELD_PTR(mix, p, "p", &inner_type),
    TYJSON_FIELD_I32(mix, odd, "q\"t"),
    TYJSON_FIELD_DATE(mix, d, "d"),
    TYJSON_FIELD_EPOCH_MS(mix, ms, "ms"),
    TYJSON_FIELD_DYN(mix, xs, "xs", n_xs, TYJSON_K_I32),
    TYJSON_FIELD_STR(mix, opt, "opt", TYJSON_FLAGS(TYJSON_F_OMIT_EMPTY)),
    TYJSON_FIELD_STR(mix, last, "a-key-of-15-ch"), /* `,"a-key...":` is 18 bytes: general */
};
static tyjson_struct mix_type = TYJSON_STRUCT(mix, mix_fields, 0);

static mix sample_mix(inner *p, int32_t *xs) {
    mix m;
    memset(&m, 0, sizeof(m));
    m.id = -9007199254740993LL;
    m.s = S("short");
    m.b = true;
    m.r = 95.25;
    m.i = -7;
    m.u = 65535;
    m.in.name = S("in");
    m.in.n = 1;
    m.p = p;
    m.odd = 3;
    m.d.year = 2024;
    m.d.month = 2;
    m.d.day = 29;
    m.ms = 1718447400123;
    m.xs = xs;
    m.n_xs = 2;
    m.last = S("end");
    return m;
}

TEST(fast_every_kind_mixed_with_general_members) {
    inner pi = {S("pointed"), -2};
    int32_t xs[2] = {10, -20};
    mix m = sample_mix(&pi, xs);
    ASSERT_FAST(&mix_type, &m, 0,
                "{\"id\":-9007199254740993,\"s\":\"short\",\"b\":true,\"r\":95.25,\"i\":-7,"
                "\"u\":65535,\"in\":{\"name\":\"in\",\"n\":1},\"p\":{\"name\":\"pointed\",\"n\":-2},"
                "\"q\\\"t\":3,\"d\":\"2024-02-29\",\"ms\":\"2024-06-15T10:30:00.123Z\","
                "\"xs\":[10,-20],\"a-key-of-15-ch\":\"end\"}");
    /* NULL pointer, zero date left out, empty and absent strings, the
     * optional string written, reals of each short form */
    m.p = NULL;
    memset(&m.d, 0, sizeof(m.d));
    m.s = S("");
    m.in.name.ptr = NULL; /* NULL, no length: "" */
    m.in.name.len = 0;
    m.opt = S("o");
    m.r = 0.5;
    m.last = S("a string longer than sixteen bytes, with \"quotes\" and a \\ too");
    m.n_xs = 0;
    ASSERT_FAST(&mix_type, &m, 0,
                "{\"id\":-9007199254740993,\"s\":\"\",\"b\":true,\"r\":0.5,\"i\":-7,"
                "\"u\":65535,\"in\":{\"name\":\"\",\"n\":1},\"p\":null,\"q\\\"t\":3,"
                "\"ms\":\"2024-06-15T10:30:00.123Z\",\"xs\":[],\"opt\":\"o\","
                "\"a-key-of-15-ch\":\"a string longer than sixteen bytes, with \\\"quotes\\\" "
                "and a \\\\ too\"}");
    /* reals: integral, one and two decimals, long, tiny */
    double rs[] = {2.0, 0.1, 12.34, -1.75, 3.141592653589793, 1e-7, 1e300, -0.0};
    const char *rt[] = {"2.0", "0.1", "12.34", "-1.75", "3.141592653589793", "1e-7", "1e300", "-0.0"};
    for (size_t k = 0; k < sizeof(rs) / sizeof(rs[0]); k++) {
        char want[512];
        m.r = rs[k];
        snprintf(want, sizeof(want),
                 "{\"id\":-9007199254740993,\"s\":\"\",\"b\":true,\"r\":%s,\"i\":-7,"
                 "\"u\":65535,\"in\":{\"name\":\"\",\"n\":1},\"p\":null,\"q\\\"t\":3,"
                 "\"ms\":\"2024-06-15T10:30:00.123Z\",\"xs\":[],\"opt\":\"o\","
                 "\"a-key-of-15-ch\":\"a string longer than sixteen bytes, with \\\"quotes\\\" "
                 "and a \\\\ too\"}",
                 rt[k]);
        ASSERT_FAST(&mix_type, &m, 0, want);
    }
}

TEST(fast_under_escaping_flags) {
    inner pi = {S("a/b\xc3\xa9"), 5};
    int32_t xs[2] = {1, 2};
    mix m = sample_mix(&pi, xs);
    m.s = S("x/y");
    ASSERT_FAST(&mix_type, &m, TYJSON_WRITE_ESCAPE_SLASH | TYJSON_WRITE_ESCAPE_UNICODE,
                "{\"id\":-9007199254740993,\"s\":\"x\\/y\",\"b\":true,\"r\":95.25,\"i\":-7,"
                "\"u\":65535,\"in\":{\"name\":\"in\",\"n\":1},"
                "\"p\":{\"name\":\"a\\/b\\u00e9\",\"n\":5},"
                "\"q\\\"t\":3,\"d\":\"2024-02-29\",\"ms\":\"2024-06-15T10:30:00.123Z\","
                "\"xs\":[1,2],\"a-key-of-15-ch\":\"end\"}");
}

/* A first member that needs escaping, or that may be left out: the whole
 * struct takes the general loop, the same bytes. */
typedef struct firsts {
    int32_t a;
    int32_t b;
} firsts;
static const tyjson_field esc_first_fields[] = {
    TYJSON_FIELD_I32(firsts, a, "a/b"), /* '/' differs under ESCAPE_SLASH */
    TYJSON_FIELD_I32(firsts, b, "b"),
};
static tyjson_struct esc_first_type = TYJSON_STRUCT(firsts, esc_first_fields, 0);

typedef struct dated {
    tyjson_date d;
    int32_t v;
    tyjson_date e;
} dated;
static const tyjson_field dated_fields[] = {
    TYJSON_FIELD_DATE(dated, d, "d"),
    TYJSON_FIELD_I32(dated, v, "v"),
    TYJSON_FIELD_DATE(dated, e, "e"),
};
static tyjson_struct dated_type = TYJSON_STRUCT(dated, dated_fields, 0);
static const tyjson_field dated_null_fields[] = {
    TYJSON_FIELD_DATE(dated, d, "d", TYJSON_FLAGS(TYJSON_F_WRITE_NULL)),
    TYJSON_FIELD_I32(dated, v, "v"),
    TYJSON_FIELD_DATE(dated, e, "e", TYJSON_FLAGS(TYJSON_F_WRITE_NULL)),
};
static tyjson_struct dated_null_type = TYJSON_STRUCT(dated, dated_null_fields, 0);

TEST(fast_first_member_escaped_or_left_out) {
    firsts f = {1, 2};
    ASSERT_FAST(&esc_first_type, &f, 0, "{\"a/b\":1,\"b\":2}");
    ASSERT_FAST(&esc_first_type, &f, TYJSON_WRITE_ESCAPE_SLASH, "{\"a\\/b\":1,\"b\":2}");
    dated v;
    memset(&v, 0, sizeof(v));
    v.v = 4;
    ASSERT_FAST(&dated_type, &v, 0, "{\"v\":4}");
    ASSERT_FAST(&dated_null_type, &v, 0, "{\"d\":null,\"v\":4,\"e\":null}");
    v.e.year = 1999;
    v.e.month = 12;
    v.e.day = 31;
    ASSERT_FAST(&dated_type, &v, 0, "{\"v\":4,\"e\":\"1999-12-31\"}");
    v.d = v.e;
    memset(&v.e, 0, sizeof(v.e));
    ASSERT_FAST(&dated_type, &v, 0, "{\"d\":\"1999-12-31\",\"v\":4}");
    ASSERT_FAST(&dated_null_type, &v, 0, "{\"d\":\"1999-12-31\",\"v\":4,\"e\":null}");
    /* every member left out */
    static const tyjson_field only_date_fields[] = {TYJSON_FIELD_DATE(dated, d, "d")};
    static tyjson_struct only_date_type = TYJSON_STRUCT(dated, only_date_fields, 0);
    memset(&v, 0, sizeof(v));
    ASSERT_FAST(&only_date_type, &v, 0, "{}");
}

/* ----------------------------------------------------------------------------
 * Segments: runs of fixed members longer than one reservation
 * ------------------------------------------------------------------------- */
#define N_WIDE 60
typedef struct wide {
    int64_t v[N_WIDE];
    tyjson_str tail;
} wide;
static tyjson_field wide_fields[N_WIDE + 1];
static char wide_keys[N_WIDE][8];
static tyjson_struct wide_type;

static void wide_init(void) {
    for (int i = 0; i < N_WIDE; i++) {
        snprintf(wide_keys[i], sizeof(wide_keys[i]), "k%d", i);
        tyjson_field f = TYJSON_FIELD_I64(wide, v[0], "k");
        f.name = wide_keys[i];
        f.offset = offsetof(wide, v) + (size_t)i * sizeof(int64_t);
        wide_fields[i] = f;
    }
    tyjson_field t = TYJSON_FIELD_STR(wide, tail, "tail");
    wide_fields[N_WIDE] = t;
    tyjson_struct w = TYJSON_STRUCT(wide, wide_fields, 0);
    w.n_fields = N_WIDE + 1;
    wide_type = w;
}

/* The text of w, built by hand. */
static void wide_text(const wide *w, char *out, size_t cap) {
    size_t k = 0;
    k += (size_t)snprintf(out + k, cap - k, "{");
    for (int i = 0; i < N_WIDE; i++)
        k += (size_t)snprintf(out + k, cap - k, "%s\"k%d\":%lld", i ? "," : "", i, (long long)w->v[i]);
    snprintf(out + k, cap - k, ",\"tail\":\"%.*s\"}", (int)w->tail.len, w->tail.ptr);
}

TEST(fast_segments_longer_than_one_reservation) {
    wide_init();
    wide w;
    for (int i = 0; i < N_WIDE; i++) w.v[i] = i % 2 ? INT64_MIN + i : (int64_t)i * 1000003;
    w.tail = S("t");
    char want[4096];
    wide_text(&w, want, sizeof(want));
    ASSERT_FAST(&wide_type, &w, 0, want);
    /* every buffer size around the text: exact length, BUF_TOO_SMALL below
     * it, nothing written past the given size */
    size_t len = strlen(want);
    char buf[4096];
    for (size_t cap = 0; cap <= len + 2; cap++) {
        tyjson_error err;
        memset(buf, '#', sizeof(buf));
        size_t n = tyjson_encode_buf(&wide_type, &w, cap ? buf : NULL, cap, NULL, &err);
        ASSERT_EQ_UINT(n, len);
        if (cap > len) {
            ASSERT_EQ_INT(err.code, TYJSON_OK);
            ASSERT_EQ_STR(buf, want);
        } else {
            ASSERT_EQ_INT(err.code, TYJSON_E_BUF_TOO_SMALL);
        }
        for (size_t k = cap; k < sizeof(buf); k++)
            if (buf[k] != '#') TEST_FAIL("cap %zu: byte %zu written", cap, k);
    }
}

/* ----------------------------------------------------------------------------
 * Sinks: chunk boundaries and heap growth inside a segment
 * ------------------------------------------------------------------------- */
typedef struct holder {
    mix *items;
    size_t n;
} holder;
static const tyjson_field holder_fields[] = {
    TYJSON_FIELD_DYN(holder, items, "items", n, TYJSON_K_STRUCT, TYJSON_ELEM_TYPE(&mix_type)),
};
static tyjson_struct holder_type = TYJSON_STRUCT(holder, holder_fields, 0);

typedef struct collect {
    char *buf;
    size_t len, cap;
} collect;
static int collect_write(void *ctx, const char *s, size_t n) {
    collect *c = (collect *)ctx;
    if (c->len + n > c->cap) return 1;
    memcpy(c->buf + c->len, s, n);
    c->len += n;
    return 0;
}

TEST(fast_sinks_agree_across_chunks_and_growth) {
    enum { N = 700 };
    mix *items = (mix *)calloc(N, sizeof(mix));
    inner *ps = (inner *)calloc(N, sizeof(inner));
    int32_t xs[2] = {3, 4};
    char (*names)[24] = calloc(N, 24);
    ASSERT_NOT_NULL(items);
    ASSERT_NOT_NULL(ps);
    ASSERT_NOT_NULL(names);
    for (size_t i = 0; i < N; i++) {
        snprintf(names[i], 24, "n%zu%s", i, i % 3 ? "" : "-with-a-long-tail");
        ps[i].name = S(names[i]);
        ps[i].n = (int32_t)i;
        items[i] = sample_mix(i % 4 ? &ps[i] : NULL, xs);
        items[i].i = (int32_t)(i * 7919);
        items[i].r = (double)i / 8;
        items[i].s = S(names[i]);
        if (i % 5 == 0) memset(&items[i].d, 0, sizeof(items[i].d));
    }
    holder h = {items, N};
    size_t len = 0;
    char *heap = tyjson_encode(&holder_type, &h, NULL, &len, NULL);
    ASSERT_NOT_NULL(heap);
    ASSERT_TRUE(len > 3 * 16384); /* several scratch chunks */
    char *g = general_text(&holder_type, &h, 0);
    ASSERT_NOT_NULL(g);
    ASSERT_EQ_STR(heap, g);
    free(g);
    /* callback: 16 KiB chunks end anywhere in a segment */
    collect c = {(char *)malloc(len + 1), 0, len + 1};
    ASSERT_NOT_NULL(c.buf);
    ASSERT_TRUE(tyjson_encode_cb(collect_write, &c, &holder_type, &h, NULL, NULL));
    ASSERT_EQ_UINT(c.len, len);
    ASSERT_TRUE(memcmp(c.buf, heap, len) == 0);
    /* caller's buffer: sizes around the end of the text */
    char *fixed = (char *)malloc(len + 1);
    ASSERT_NOT_NULL(fixed);
    for (size_t cap = len - 70; cap <= len + 1; cap++) {
        tyjson_error err;
        size_t n = tyjson_encode_buf(&holder_type, &h, fixed, cap, NULL, &err);
        ASSERT_EQ_UINT(n, len);
        ASSERT_EQ_INT(err.code, cap > len ? TYJSON_OK : TYJSON_E_BUF_TOO_SMALL);
        if (cap > len) ASSERT_TRUE(memcmp(fixed, heap, len + 1) == 0);
    }
    /* a reused buffer that grows in the middle of a message: appended
     * after a small first one */
    tyjson_buf b;
    tyjson_buf_init(&b, NULL);
    inner one = {S("x"), 1};
    ASSERT_EQ_INT(tyjson_encode_append(&b, &inner_type, &one, NULL, NULL), TYJSON_OK);
    size_t first = b.len;
    ASSERT_EQ_INT(tyjson_encode_append(&b, &holder_type, &h, NULL, NULL), TYJSON_OK);
    ASSERT_EQ_UINT(b.len, first + len);
    ASSERT_TRUE(memcmp(b.data, "{\"name\":\"x\",\"n\":1}", first) == 0);
    ASSERT_TRUE(memcmp(b.data + first, heap, len + 1) == 0);
    tyjson_buf_free(&b);
    free(fixed);
    free(c.buf);
    free(heap);
    free(names);
    free(ps);
    free(items);
}

/* ----------------------------------------------------------------------------
 * Nesting past the recursion (put_deep) and back, errors and their paths
 * ------------------------------------------------------------------------- */
typedef struct chain_node {
    tyjson_str tag;
    struct chain_node *next;
    int32_t after;
} chain_node;
static tyjson_struct link_type;
static const tyjson_field link_fields[] = {
    TYJSON_FIELD_STR(chain_node, tag, "tag"),
    TYJSON_FIELD_PTR(chain_node, next, "next", &link_type),
    TYJSON_FIELD_I32(chain_node, after, "after"),
};
static tyjson_struct link_type = TYJSON_STRUCT(chain_node, link_fields, 0);

TEST(fast_deep_chain_and_back) {
    enum { N = 40 }; /* past DEEP_AT (24): the rest goes through frames */
    chain_node chain[N];
    char want[N * 40 + 16];
    size_t k = 0;
    for (int i = 0; i < N; i++) {
        chain[i].tag = S(i % 2 ? "odd" : "even");
        chain[i].next = i + 1 < N ? &chain[i + 1] : NULL;
        chain[i].after = i;
        k += (size_t)snprintf(want + k, sizeof(want) - k, "{\"tag\":\"%s\",\"next\":",
                              i % 2 ? "odd" : "even");
    }
    k += (size_t)snprintf(want + k, sizeof(want) - k, "null");
    for (int i = N; i-- > 0;) k += (size_t)snprintf(want + k, sizeof(want) - k, ",\"after\":%d}", i);
    ASSERT_FAST(&link_type, &chain[0], 0, want);
}

TEST(fast_errors_have_paths) {
    inner pi = {S("p"), 1};
    int32_t xs[2] = {1, 2};
    mix m = sample_mix(&pi, xs);
    m.s.ptr = NULL; /* a length without bytes */
    ASSERT_FAST_ERR(&mix_type, &m, TYJSON_E_INVALID_ARG, "$.s");
    m = sample_mix(&pi, xs);
    m.s = S("bad \xff utf-8");
    ASSERT_FAST_ERR(&mix_type, &m, TYJSON_E_UTF8, "$.s");
    m = sample_mix(&pi, xs);
    pi.name = S("\xc3");
    ASSERT_FAST_ERR(&mix_type, &m, TYJSON_E_UTF8, "$.p.name");
    pi.name = S("p");
    m.in.name.len = 3; /* NULL pointer with a length */
    m.in.name.ptr = NULL;
    ASSERT_FAST_ERR(&mix_type, &m, TYJSON_E_INVALID_ARG, "$.in.name");
    m = sample_mix(&pi, xs);
    m.d.month = 13;
    ASSERT_FAST_ERR(&mix_type, &m, TYJSON_E_DATE, "$.d");
    m = sample_mix(&pi, xs);
    m.ms = 253402300800000; /* year 10000 */
    ASSERT_FAST_ERR(&mix_type, &m, TYJSON_E_DATE, "$.ms");
    m = sample_mix(&pi, xs);
    m.r = NAN;
    ASSERT_FAST_ERR(&mix_type, &m, TYJSON_E_NAN_INF, "$.r");
    /* inside an array of structs */
    mix two[2] = {sample_mix(&pi, xs), sample_mix(&pi, xs)};
    two[1].s = S("\xfe");
    holder h = {two, 2};
    ASSERT_FAST_ERR(&holder_type, &h, TYJSON_E_UTF8, "$.items[1].s");
}

/* ----------------------------------------------------------------------------
 * Epoch members: every day of years 0-9999 (datetime.c's civil_from_days0)
 * ------------------------------------------------------------------------- */
typedef struct stamp {
    int64_t ms;
} stamp;
static const tyjson_field stamp_fields[] = {TYJSON_FIELD_EPOCH_MS(stamp, ms, "t")};
static tyjson_struct stamp_type = TYJSON_STRUCT(stamp, stamp_fields, 0);

static void put_digits(char *o, unsigned v, int n) {
    for (int k = n; k-- > 0; v /= 10) o[k] = (char)('0' + v % 10);
}

TEST(fast_epoch_every_day_of_the_range) {
    static const unsigned dim[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    /* 0000-01-01 is 719528 days before 1970-01-01 */
    int64_t day = -719528;
    char want[] = "{\"t\":\"0000-01-01T00:00:00.000Z\"}";
    char buf[64];
    for (unsigned y = 0; y <= 9999; y++) {
        bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        for (unsigned m = 1; m <= 12; m++) {
            unsigned n = dim[m - 1] + (m == 2 && leap);
            for (unsigned d = 1; d <= n; d++, day++) {
                /* a time of day that moves with the day */
                unsigned sec = (unsigned)((day % 86400 + 86400) % 86400);
                unsigned ms = (unsigned)((day % 999 + 999) % 999) + 1;
                stamp s = {day * 86400000 + (int64_t)sec * 1000 + ms};
                put_digits(want + 6, y, 4);
                put_digits(want + 11, m, 2);
                put_digits(want + 14, d, 2);
                put_digits(want + 17, sec / 3600, 2);
                put_digits(want + 20, sec / 60 % 60, 2);
                put_digits(want + 23, sec % 60, 2);
                put_digits(want + 26, ms, 3);
                size_t len = tyjson_encode_buf(&stamp_type, &s, buf, sizeof(buf), NULL, NULL);
                /* (ms is 1 to 999: always three decimals) */
                if (len != sizeof(want) - 1 || memcmp(buf, want, len) != 0)
                    TEST_FAIL("day %lld: %.*s, want %s", (long long)day, (int)len, buf, want);
            }
        }
    }
    ASSERT_EQ_INT((int)day, 2932897); /* 10000-01-01 */
}

int main(int argc, char **argv) { return test_main(argc, argv); }
