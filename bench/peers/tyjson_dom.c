/*
 * tyjson adapter: strict defaults, libc allocation, a new document per parse
 * (tyjson copies the input into the document, so the copy is timed).
 * The walk goes through the public iterators, as a user would, rather than
 * scanning the flat value array.
 *
 * Extraction (the "extract" rows) is the typed binding: a struct of the four
 * fields per status and a descriptor, decoded with TYJSON_DECODE_BORROW into
 * an arena reset per call; every other key is skipped by the decoder.
 */
#include "../peers.h"

#include <tyjson.h>

#include <stdlib.h>

typedef struct state {
    tyjson_doc *doc;
    tyjson_arena arena; /* extract */
    tyjson_reader *rd;  /* reader, made on first use */
} state;

static void *create(void) { return calloc(1, sizeof(state)); } /* a zeroed arena is a libc one */
static void destroy(void *st) {
    state *s = st;
    tyjson_arena_free(&s->arena);
    tyjson_reader_free(s->rd);
    free(s);
}

static bool parse(void *st, const char *dat, size_t len) {
    state *s = st;
    s->doc = tyjson_read_opts(dat, len, NULL, NULL);
    return s->doc != NULL;
}

static void free_doc(void *st) {
    state *s = st;
    tyjson_doc_free(s->doc);
    s->doc = NULL;
}

static void walk_num(const tyjson_val *v, bench_stats *out) {
    out->numbers++;
    if (tyjson_is_real(v)) {
        out->reals++;
        out->num_sum += tyjson_get_real(v);
    } else {
        out->integers++;
        out->int_sum += v->uni.u64; /* uint and sint share the bits */
        out->num_sum += tyjson_get_num(v);
    }
}

static bool walk_val(const tyjson_val *v, bench_stats *out) {
    switch (tyjson_get_type(v)) {
    case TYJSON_TYPE_NULL: out->nulls++; return true;
    case TYJSON_TYPE_BOOL:
        if (tyjson_get_bool(v)) out->trues++; else out->falses++;
        return true;
    case TYJSON_TYPE_NUM: walk_num(v, out); return true;
    case TYJSON_TYPE_STR:
        out->strings++;
        out->str_bytes += tyjson_get_len(v);
        return true;
    case TYJSON_TYPE_ARR: {
        tyjson_arr_iter it = tyjson_arr_iter_with(v);
        const tyjson_val *e;
        out->arrays++;
        while ((e = tyjson_arr_iter_next(&it)))
            if (!walk_val(e, out)) return false;
        return true;
    }
    case TYJSON_TYPE_OBJ: {
        tyjson_obj_iter it = tyjson_obj_iter_with(v);
        tyjson_val *k;
        out->objects++;
        while ((k = tyjson_obj_iter_next(&it))) {
            out->keys++;
            out->str_bytes += tyjson_get_len(k);
            if (!walk_val(tyjson_obj_iter_get_val(k), out)) return false;
        }
        return true;
    }
    default: return false; /* raw numbers are off by default */
    }
}

static bool walk(void *st, bench_stats *out) {
    state *s = st;
    return walk_val(tyjson_doc_get_root(s->doc), out);
}

static bool write_text(void *st, bench_write_mode mode, bench_text *out) {
    state *s = st;
    tyjson_write_options opts = {0};
    size_t len = 0;
    char *text;
    opts.flags = mode == BENCH_WRITE_PRETTY ? TYJSON_WRITE_PRETTY : TYJSON_WRITE_MINIFY;
    opts.indent = 2;
    text = tyjson_write_opts(s->doc, &opts, &len, NULL);
    out->data = text;
    out->len = len;
    out->priv = text;
    return text != NULL;
}

static void free_text(void *st, bench_text *text) {
    (void)st;
    tyjson_free(NULL, text->priv);
}

static void *cnt_malloc(void *ctx, size_t size) { return bench_counter_malloc(ctx, size); }
static void *cnt_realloc(void *ctx, void *ptr, size_t old_size, size_t size) {
    (void)old_size;
    return bench_counter_realloc(ctx, ptr, size);
}
static void cnt_free(void *ctx, void *ptr) { bench_counter_free(ctx, ptr); }

static bool measure_mem(const char *dat, size_t len, bench_mem *out) {
    bench_counter c;
    tyjson_alloc alc;
    tyjson_read_options opts = {0};
    tyjson_doc *doc;
    bench_counter_reset(&c);
    alc.malloc = cnt_malloc;
    alc.realloc = cnt_realloc;
    alc.free = cnt_free;
    alc.ctx = &c;
    opts.alc = &alc;
    doc = tyjson_read_opts(dat, len, &opts, NULL);
    if (!doc) return false;
    out->held = c.live;
    out->peak = c.peak;
    out->allocs = c.allocs;
    tyjson_doc_free(doc);
    return c.live == 0;
}

/* ---- extraction: the binding -------------------------------------------- */
#ifdef BENCH_TYJSON_DECODE
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

static bool extract(void *st, const char *dat, size_t len, bench_extract *out) {
    static const tyjson_decode_options borrow = {TYJSON_DECODE_BORROW, 0, 0, NULL};
    state *s = st;
    tw_response r;
    size_t i;
    tyjson_arena_reset(&s->arena);
    if (tyjson_decode(&tw_response_type, &r, dat, len, &s->arena, &borrow, NULL) != TYJSON_OK) return false;
    for (i = 0; i < r.n_statuses; i++) {
        const tw_status *t = &r.statuses[i];
        bench_extract_add(out, (uint64_t)t->id, t->text.ptr, t->text.len, t->user.screen_name.ptr,
                          t->user.screen_name.len, t->retweet_count);
    }
    return true;
}
#define EXTRACT extract
#else
#define EXTRACT NULL /* no binding in this tree */
#endif

/* NDJSON: the library's iterator over the buffer in place, one document
 * per record (tyjson/lines.h). */
static bool ndjson(void *st, const char *dat, size_t len, bench_extract *out) {
    tyjson_lines *it = tyjson_lines_open_buf(dat, len, NULL, NULL);
    tyjson_doc *doc;
    tyjson_status rc;
    bool ok = it != NULL;
    (void)st;
    while (ok && (rc = tyjson_lines_next_doc(it, &doc, NULL)) != TYJSON_DONE) {
        const tyjson_val *root = tyjson_doc_get_root(doc);
        const tyjson_val *id = tyjson_obj_get(root, "id"), *text = tyjson_obj_get(root, "text");
        const tyjson_val *name = tyjson_obj_get(tyjson_obj_get(root, "user"), "screen_name");
        const tyjson_val *rts = tyjson_obj_get(root, "retweet_count");
        ok = rc == TYJSON_OK && tyjson_is_int(id) && tyjson_is_str(text) && tyjson_is_str(name) &&
             tyjson_is_int(rts);
        if (ok)
            bench_extract_add(out, id->uni.u64, tyjson_get_str(text), tyjson_get_len(text),
                              tyjson_get_str(name), tyjson_get_len(name), (int64_t)rts->uni.u64);
        tyjson_doc_free(doc);
    }
    tyjson_lines_free(it);
    return ok;
}

/* Token walk: the pull reader over the buffer (one reader per state, kept
 * across inputs). bench_reader_walk is shared with the reader rows' FILE*
 * cell. */
bool bench_reader_walk(tyjson_reader *r, bench_stats *out) {
    for (;;) {
        switch (tyjson_reader_next(r)) {
        case TYJSON_TOK_OBJ_BEGIN: out->objects++; break;
        case TYJSON_TOK_ARR_BEGIN: out->arrays++; break;
        case TYJSON_TOK_OBJ_END:
        case TYJSON_TOK_ARR_END: break;
        case TYJSON_TOK_KEY: {
            size_t n = 0;
            tyjson_reader_str(r, &n);
            out->keys++;
            out->str_bytes += n;
            break;
        }
        case TYJSON_TOK_STR: {
            size_t n = 0;
            tyjson_reader_str(r, &n);
            out->strings++;
            out->str_bytes += n;
            break;
        }
        case TYJSON_TOK_NUM: {
            uint64_t u;
            int64_t i;
            double d;
            out->numbers++;
            if (tyjson_reader_get_u64(r, &u)) {
                out->integers++;
                out->int_sum += u;
                out->num_sum += (double)u;
            } else if (tyjson_reader_get_i64(r, &i)) {
                out->integers++;
                out->int_sum += (uint64_t)i;
                out->num_sum += (double)i;
            } else if (tyjson_reader_get_double(r, &d)) {
                out->reals++;
                out->num_sum += d;
            } else {
                return false;
            }
            break;
        }
        case TYJSON_TOK_TRUE: out->trues++; break;
        case TYJSON_TOK_FALSE: out->falses++; break;
        case TYJSON_TOK_NULL: out->nulls++; break;
        case TYJSON_TOK_END: return true;
        default: return false; /* ERROR (NEED_MORE cannot come: no push input) */
        }
    }
}

static bool reader(void *st, const char *dat, size_t len, bench_stats *out) {
    state *s = st;
    if (!s->rd && !(s->rd = tyjson_reader_new(NULL, NULL))) return false;
    return tyjson_reader_open_buf(s->rd, dat, len) == TYJSON_OK && bench_reader_walk(s->rd, out);
}

static void *parse_insitu(char *buf, size_t len, size_t cap) {
    return tyjson_read_insitu(buf, len, cap, NULL, NULL);
}

static void free_insitu(void *doc) { tyjson_doc_free((tyjson_doc *)doc); }

const bench_insitu bench_insitu_tyjson = {"tyjson", parse_insitu, free_insitu};

const bench_adapter bench_adapter_tyjson = {
    "tyjson", TYJSON_VERSION_STRING,
    "strict (flags 0), libc allocator, input copied into the document; "
    "extract: tyjson_decode of a 4-field struct per status (BORROW, arena reset per call); "
    "ndjson: tyjson_lines_next_doc over the buffer in place; "
    "reader: tyjson_reader_open_buf + tyjson_reader_next to the end, one reader reused",
    0, create, destroy, parse, free_doc, walk, write_text, free_text, measure_mem, EXTRACT, ndjson, reader,
};
