/*
 * bench_ndjson.c - the "ndjson" group: a generated file of tweet-like
 * records, one per line (1 GiB; 16 MiB with --quick), generated in memory
 * from a fixed seed, so every run reads the same bytes.
 *
 * Rows, all reading id, text, user.screen_name and retweet_count of every
 * record (checked against tyjson's sequential iterator):
 *   "DOM per record"            each library's own way through a stream of
 *                               documents (adapter ndjson hook): tyjson's
 *                               iterator, yyjson's STOP_WHEN_DONE loop,
 *                               simdjson's parse_many
 *   "DOM per record, 2 threads" tyjson_lines_parallel_docs, in input order
 *   "typed per record"          tyjson_lines_next_decode of a 4-field
 *                               struct (BORROW, arena reset per record)
 *   "typed per record, 2 threads" tyjson_lines_parallel_decode
 * Every row is timed by the wall clock (task_info.wall): the threaded rows
 * work on other threads, and so does simdjson's parse_many (it parses the
 * next batch on a thread of its own).
 */
#include "bench.h"

#include "tyjson.h"

#include <stdlib.h>
#include <string.h>

#define FULL_BYTES ((size_t)1 << 30)
#define QUICK_BYTES ((size_t)16 << 20)

/* ----------------------------------------------------------------------------
 * MARK: - The input
 * ------------------------------------------------------------------------- */
static uint64_t rng_state;

static uint64_t rnd(void) { /* xorshift64*, pinned seed */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}

static const char *const words[] = {
    "the", "json", "stream", "record", "fast", "parser", "line", "caf\xc3\xa9", "data", "log",
    "event", "user", "quoted \\\"text\\\"", "\\u00e9t\\u00e9", "tweet", "reply", "http://t.co/x",
    "#ndjson", "@someone", "\xe2\x82\xac\x35", "ok", "yes", "no", "maybe"};
#define N_WORDS (sizeof(words) / sizeof(words[0]))

/* One record at p (room for 1024 bytes); returns its length with the LF. */
static size_t make_record(char *p, uint64_t id) {
    char text[400];
    size_t tl = 0, nw = 4 + rnd() % 18;
    for (size_t i = 0; i < nw; i++) {
        const char *w = words[rnd() % N_WORDS];
        size_t n = strlen(w);
        if (i) text[tl++] = ' ';
        memcpy(text + tl, w, n);
        tl += n;
    }
    text[tl] = 0;
    uint64_t user = rnd() % 1000000;
    int n = snprintf(p, 1024,
                     "{\"id\":%llu,\"created_at\":\"2026-%02u-%02uT%02u:%02u:%02uZ\",\"text\":\"%s\","
                     "\"user\":{\"id\":%llu,\"screen_name\":\"user%llu\",\"followers_count\":%u,"
                     "\"verified\":%s},\"retweet_count\":%u,\"favorited\":false,"
                     "\"entities\":{\"hashtags\":[\"ndjson\",\"c\"],\"urls\":[]},\"lang\":\"en\","
                     "\"geo\":null,\"score\":%u.%02u}\n",
                     (unsigned long long)id, 1 + (unsigned)(rnd() % 12), 1 + (unsigned)(rnd() % 28),
                     (unsigned)(rnd() % 24), (unsigned)(rnd() % 60), (unsigned)(rnd() % 60), text,
                     (unsigned long long)user, (unsigned long long)user,
                     (unsigned)(rnd() % 100000), rnd() % 7 ? "false" : "true",
                     (unsigned)(rnd() % 5000), (unsigned)(rnd() % 100), (unsigned)(rnd() % 100));
    return (size_t)n;
}

/* ~target bytes of records, then BENCH_EXTRACT_PADDING zero bytes. */
static char *make_input(size_t target, size_t *len, size_t *records) {
    char *buf = (char *)malloc(target + 1024 + BENCH_EXTRACT_PADDING);
    if (!buf) bench_fatal("ndjson: cannot allocate %zu bytes", target);
    size_t n = 0, k = 0;
    rng_state = 0x9E3779B97F4A7C15ULL;
    while (n < target) n += make_record(buf + n, 1000000000ULL + k++);
    memset(buf + n, 0, BENCH_EXTRACT_PADDING);
    *len = n;
    *records = k;
    return buf;
}

/* ----------------------------------------------------------------------------
 * MARK: - tyjson's own rows
 * ------------------------------------------------------------------------- */
typedef struct nd_user {
    tyjson_str screen_name;
} nd_user;

typedef struct nd_tweet {
    int64_t id;
    tyjson_str text;
    nd_user user;
    int64_t retweet_count;
} nd_tweet;

static const tyjson_field nd_user_fields[] = {
    TYJSON_FIELD_STR(nd_user, screen_name, "screen_name", TYJSON_FLAGS(TYJSON_F_REQUIRED)),
};
static tyjson_struct nd_user_type = TYJSON_STRUCT(nd_user, nd_user_fields, 0);

static const tyjson_field nd_tweet_fields[] = {
    TYJSON_FIELD_I64(nd_tweet, id, "id", TYJSON_FLAGS(TYJSON_F_REQUIRED)),
    TYJSON_FIELD_STR(nd_tweet, text, "text", TYJSON_FLAGS(TYJSON_F_REQUIRED)),
    TYJSON_FIELD_STRUCT(nd_tweet, user, "user", &nd_user_type, TYJSON_FLAGS(TYJSON_F_REQUIRED)),
    TYJSON_FIELD_I64(nd_tweet, retweet_count, "retweet_count", TYJSON_FLAGS(TYJSON_F_REQUIRED)),
};
static tyjson_struct nd_tweet_type = TYJSON_STRUCT(nd_tweet, nd_tweet_fields, 0);

static void add_tweet(bench_extract *x, const nd_tweet *t) {
    bench_extract_add(x, (uint64_t)t->id, t->text.ptr, t->text.len, t->user.screen_name.ptr,
                      t->user.screen_name.len, t->retweet_count);
}

static bool add_doc(bench_extract *x, const tyjson_doc *doc) {
    const tyjson_val *root = tyjson_doc_get_root(doc);
    const tyjson_val *id = tyjson_obj_get(root, "id"), *text = tyjson_obj_get(root, "text");
    const tyjson_val *name = tyjson_obj_get(tyjson_obj_get(root, "user"), "screen_name");
    const tyjson_val *rts = tyjson_obj_get(root, "retweet_count");
    if (!tyjson_is_int(id) || !tyjson_is_str(text) || !tyjson_is_str(name) || !tyjson_is_int(rts))
        return false;
    bench_extract_add(x, id->uni.u64, tyjson_get_str(text), tyjson_get_len(text),
                      tyjson_get_str(name), tyjson_get_len(name), (int64_t)rts->uni.u64);
    return true;
}

static int par_doc_fn(void *ctx, const tyjson_lines_item *item) {
    return !item->doc || !add_doc((bench_extract *)ctx, item->doc);
}

static int par_typed_fn(void *ctx, const tyjson_lines_item *item) {
    if (!item->value) return 1;
    add_tweet((bench_extract *)ctx, (const nd_tweet *)item->value);
    return 0;
}

typedef enum nd_op { ND_ADAPTER, ND_DOM2, ND_TYPED1, ND_TYPED2, ND_COUNT } nd_op;

static const char *const nd_op_names[ND_COUNT] = {"DOM, 1 thread", "DOM, 2 threads", "typed, 1 thread",
                                                  "typed, 2 threads"};

typedef struct nd_ctx {
    nd_op op;
    const bench_adapter *a;
    void *st;
    const char *dat;
    size_t len;
} nd_ctx;

static bool nd_once(const nd_ctx *x, bench_extract *out) {
    tyjson_lines *it;
    tyjson_status st = TYJSON_OK;
    switch (x->op) {
    case ND_ADAPTER: return x->a->ndjson(x->st, x->dat, x->len, out);
    case ND_DOM2:
        it = tyjson_lines_open_buf(x->dat, x->len, NULL, NULL);
        st = it ? tyjson_lines_parallel_docs(it, 2, par_doc_fn, out, NULL) : TYJSON_E_NOMEM;
        tyjson_lines_free(it);
        return st == TYJSON_OK;
    case ND_TYPED1: {
        tyjson_arena arena;
        nd_tweet t;
        tyjson_arena_init(&arena, NULL);
        it = tyjson_lines_open_buf(x->dat, x->len, NULL, NULL);
        while (it && (st = tyjson_lines_next_decode(it, &nd_tweet_type, &t, &arena,
                                                    TYJSON_DECODE_BORROW, NULL)) == TYJSON_OK) {
            add_tweet(out, &t);
            tyjson_arena_reset(&arena);
        }
        tyjson_lines_free(it);
        tyjson_arena_free(&arena);
        return it && st == TYJSON_DONE;
    }
    case ND_TYPED2:
        it = tyjson_lines_open_buf(x->dat, x->len, NULL, NULL);
        st = it ? tyjson_lines_parallel_decode(it, 2, &nd_tweet_type, TYJSON_DECODE_BORROW,
                                               par_typed_fn, out, NULL)
                : TYJSON_E_NOMEM;
        tyjson_lines_free(it);
        return st == TYJSON_OK;
    case ND_COUNT: break;
    }
    return false;
}

static bool run_nd(void *ctx, long iters) {
    for (long i = 0; i < iters; i++) {
        bench_extract ex = {0, 0, 0};
        if (!nd_once((const nd_ctx *)ctx, &ex)) return false;
        bench_sink += ex.count + ex.numbers + ex.strings;
    }
    return true;
}

/* ----------------------------------------------------------------------------
 * MARK: - The group
 * ------------------------------------------------------------------------- */
void ndjson_run_all(void) {
    if (!bench_group_selected("ndjson")) return;
    size_t len, records;
    char *dat = make_input(cfg.quick ? QUICK_BYTES : FULL_BYTES, &len, &records);
    char item[64];
    snprintf(item, sizeof(item), "tweets %zu MiB", len >> 20);
    if (bench_fork_index == 0)
        bench_info("ndjson input", "%zu bytes, %zu records, generated from a fixed seed", len, records);
    /* the reference: tyjson's sequential iterator */
    bench_extract ref = {0, 0, 0};
    nd_ctx rc = {ND_ADAPTER, &bench_adapter_tyjson, NULL, dat, len};
    if (!nd_once(&rc, &ref) || ref.count != records) bench_fatal("ndjson: the reference read failed");
    void *states[MAX_CONT] = {0};
    for (int op = 0; op < ND_COUNT; op++) {
        task_info ti;
        cell_job jobs[MAX_CONT];
        nd_ctx ctx[MAX_CONT];
        memset(&ti, 0, sizeof(ti));
        snprintf(ti.group, sizeof(ti.group), "ndjson");
        snprintf(ti.item, sizeof(ti.item), "%s", item);
        snprintf(ti.op, sizeof(ti.op), "%s", nd_op_names[op]);
        ti.unit = UNIT_MBS;
        ti.bytes = (double)len;
        /* simdjson's parse_many parses ahead on a thread of its own: every
         * row by the wall clock */
        ti.wall = true;
        memset(jobs, 0, sizeof(jobs));
        for (size_t c = 0; c < n_conts; c++) {
            const bench_adapter *a = conts[c].dom;
            bool is_ty = strcmp(conts[c].name, "tyjson") == 0;
            ctx[c].op = (nd_op)op;
            ctx[c].a = a;
            ctx[c].dat = dat;
            ctx[c].len = len;
            ctx[c].st = NULL;
            jobs[c].run = run_nd;
            jobs[c].ctx = &ctx[c];
            if (op != ND_ADAPTER && !is_ty) {
                bench_set_na(jobs[c].note, "tyjson's NDJSON iterator only");
                continue;
            }
            if (op == ND_ADAPTER && (!a || !a->ndjson)) {
                bench_set_na(jobs[c].note, "no NDJSON route in the adapter");
                continue;
            }
            if (op == ND_ADAPTER) {
                if (!states[c] && !(states[c] = a->create())) bench_fatal("%s: cannot create its state", a->name);
                ctx[c].st = states[c];
            }
            bench_extract got = {0, 0, 0};
            if (!nd_once(&ctx[c], &got)) {
                bench_set_note(jobs[c].note, "ndjson read failed");
            } else if (got.count != ref.count || got.numbers != ref.numbers || got.strings != ref.strings) {
                bench_set_note(jobs[c].note, "ndjson: %llu records, checksums differ from tyjson's",
                               (unsigned long long)got.count);
            } else {
                jobs[c].ok = true;
            }
        }
        bench_run_task(&ti, jobs);
    }
    for (size_t c = 0; c < n_conts; c++)
        if (states[c]) conts[c].dom->destroy(states[c]);
    free(dat);
}
