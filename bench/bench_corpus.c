/*
 * bench_corpus.c - the corpus part of the benchmark: for every JSON file
 * (../shared/corpus or any directory, else small synthetic documents; and
 * always scengen's two corpus-style documents, generated-config.json and
 * generated-text.json), each library's parse, parse + walk, write minified
 * and write pretty, checked before timing, plus the memory a parsed
 * document holds. Two more groups per file: "validate" (tyjson_validate,
 * shown against tyjson's own parse, with simdjson's DOM parse as the
 * nearest peer: it has no validate-only API) and, for files whose root has a
 * "statuses" array (twitter.json, generated-text.json), "extract": four
 * fields per status through each library's best route (bench_adapter's
 * extract hook).
 *
 * The AVX2 pass (bench_corpus_avx2 set: a worker the parent starts with
 * TYJSON_SIMD=avx2 and SIMDJSON_FORCE_IMPLEMENTATION=haswell) times the
 * parses alone, as the group "corpus-avx2".
 *
 * Checks: walk statistics equal tyjson's (all counts, string bytes,
 * integer sum); minified text has no whitespace outside strings; each
 * written text, reparsed by tyjson (strict), equals the document tyjson
 * parsed from the input. If tyjson cannot parse a file, the first healthy
 * contender becomes the reference. A `-0` read as the integer 0 is not a
 * difference (bench_check.h).
 */
#define _POSIX_C_SOURCE 200809L

#include "bench.h"
#include "bench_check.h"
#include "scengen.h"

#include <tyjson.h>

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#define MAX_FILES 64

typedef struct input {
    char name[64];
    char path[1024]; /* "" for generated documents */
    char *dat;       /* len bytes + NUL, loaded when needed */
    size_t len;
    char *padded;    /* a copy with BENCH_EXTRACT_PADDING zero bytes after it (extract) */
    int synthetic;   /* 0, or 1 + index of the generator */
    int generated;   /* 0, or 1 + the scen_doc */
} input;

static input inputs[MAX_FILES];
static size_t n_inputs;

bool bench_corpus_avx2;

/* OP_VALIDATE_PARSE: the "parse" row of the validate group, so that the
 * validate table has its reference (tyjson's own DOM parse, and simdjson's)
 * in the same run when the corpus group does not run. */
enum { OP_PARSE, OP_WALK, OP_WRITE_MIN, OP_WRITE_PRETTY, OP_VALIDATE, OP_VALIDATE_PARSE, OP_EXTRACT, OP_COUNT };
static const char *const op_names[OP_COUNT] = {"parse", "parse+walk", "write-min", "write-pretty", "validate",
                                               "parse", "extract 4 fields"};

static const char *op_group(int op) {
    if (bench_corpus_avx2) return "corpus-avx2";
    return op == OP_VALIDATE || op == OP_VALIDATE_PARSE ? "validate" : op == OP_EXTRACT ? "extract" : "corpus";
}

/* The operations of this pass whose group is selected. */
static bool op_wanted(int op) {
    if (bench_corpus_avx2 && op != OP_PARSE) return false;
    return bench_group_selected(op_group(op));
}

/* ----------------------------------------------------------------------------
 * MARK: - Inputs
 * ------------------------------------------------------------------------- */
static input *new_input(const char *name) {
    input *in;
    const char *base = strrchr(name, '/');
    if (n_inputs >= MAX_FILES) bench_fatal("too many inputs (max %d)", MAX_FILES);
    in = &inputs[n_inputs++];
    memset(in, 0, sizeof(*in));
    snprintf(in->name, sizeof(in->name), "%s", base ? base + 1 : name);
    return in;
}

static void add_file(const char *path) {
    input *in = new_input(path);
    snprintf(in->path, sizeof(in->path), "%s", path);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void add_dir(const char *dir) {
    DIR *d = opendir(dir);
    struct dirent *e;
    char *names[MAX_FILES];
    size_t n = 0, i;
    if (!d) bench_fatal("cannot open directory %s: %s", dir, strerror(errno));
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len > 5 && strcmp(e->d_name + len - 5, ".json") == 0) {
            if (n >= MAX_FILES) bench_fatal("too many files in %s", dir);
            names[n] = malloc(strlen(dir) + len + 2);
            if (!names[n]) bench_fatal("out of memory");
            sprintf(names[n], "%s/%s", dir, e->d_name);
            n++;
        }
    }
    closedir(d);
    if (!n) bench_fatal("no *.json file in %s", dir);
    qsort(names, n, sizeof(names[0]), cmp_str);
    for (i = 0; i < n; i++) {
        add_file(names[i]);
        free(names[i]);
    }
}

bool corpus_add_path(const char *path) {
    struct stat sb;
    if (stat(path, &sb) != 0) return false;
    if (S_ISDIR(sb.st_mode)) add_dir(path);
    else add_file(path);
    return true;
}

size_t corpus_n_files(void) { return n_inputs; }

/* Growable text for the synthetic documents. */
typedef struct sbuf {
    char *p;
    size_t len, cap;
} sbuf;

static void sb_add(sbuf *b, const char *fmt, ...) {
    va_list ap;
    int n;
    for (;;) {
        va_start(ap, fmt);
        n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) bench_fatal("format error");
        if (b->p && b->len + (size_t)n < b->cap) break;
        b->cap = (b->cap + (size_t)n + 1) * 2;
        b->p = realloc(b->p, b->cap);
        if (!b->p) bench_fatal("out of memory");
    }
    b->len += (size_t)n;
}

static uint64_t rng_state;
static uint64_t rng(void) { /* xorshift64*: fixed seed, same documents everywhere */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}
static unsigned rng_below(unsigned n) { return (unsigned)(rng() % n); }

/* Records like an API response: pretty, keys, ints, reals, bools, nulls,
 * escapes and non-ASCII strings. */
static void gen_records(sbuf *b) {
    static const char *const words[] = {"alpha", "beta", "gamma", "delta", "caf\\u00e9",
                                        "na\xc3\xafve", "\xe4\xb8\xad\xe6\x96\x87", "x\\\"y",
                                        "tab\\tsep", "\xf0\x9f\x98\x80", "\\ud83d\\ude00", "path/to"};
    int i, j;
    rng_state = 0x9E3779B97F4A7C15ULL;
    sb_add(b, "{\n  \"count\": 3000,\n  \"records\": [\n");
    for (i = 0; i < 3000; i++) {
        sb_add(b, "    {\n      \"id\": %llu,\n      \"name\": \"user_%d %s\",\n",
               (unsigned long long)(rng() >> 12), i, words[rng_below(12)]);
        sb_add(b, "      \"active\": %s,\n      \"parent\": null,\n", rng_below(2) ? "true" : "false");
        sb_add(b, "      \"balance\": %s%u.%02u,\n      \"delta\": %d,\n", rng_below(4) ? "" : "-",
               rng_below(100000), rng_below(100), (int)rng_below(2001) - 1000);
        sb_add(b, "      \"tags\": [");
        for (j = 0; j < (int)rng_below(5); j++) sb_add(b, "%s\"%s\"", j ? ", " : "", words[rng_below(12)]);
        sb_add(b, "],\n      \"geo\": {\"lat\": %u.%06u, \"lon\": -%u.%06u, \"alt\": %ue%d}\n    }%s\n",
               rng_below(90), rng_below(1000000), rng_below(180), rng_below(1000000), rng_below(9) + 1,
               (int)rng_below(7) - 3, i + 1 < 3000 ? "," : "");
    }
    sb_add(b, "  ]\n}\n");
}

/* Minified arrays of numbers: float parsing and printing. */
static void gen_numbers(sbuf *b) {
    int i;
    rng_state = 0xD1B54A32D192ED03ULL;
    sb_add(b, "[");
    for (i = 0; i < 20000; i++) {
        unsigned kind = rng_below(4);
        if (i) sb_add(b, ",");
        if (kind == 0) sb_add(b, "%lld", (long long)(rng() >> 1) - (1LL << 62));
        else if (kind == 1)
            sb_add(b, "[%u.%u,-%u.%u]", rng_below(1000), rng_below(1000000000), rng_below(1000),
                   rng_below(1000000000) + 1);
        else if (kind == 2) sb_add(b, "%u.%ue-%u", rng_below(10), rng_below(100000), rng_below(300) + 1);
        else sb_add(b, "%u.%u", rng_below(100000), rng_below(100) + 1);
    }
    sb_add(b, "]");
}

/* One flat object of long strings: string scanning, UTF-8, escapes. */
static void gen_strings(sbuf *b) {
    static const char *const pieces[] = {"lorem ipsum ", "dolor sit amet ", "\xe6\x98\xa5\xe7\x9c\xa0 ",
                                         "\xc3\xa9t\xc3\xa9 ", "\\n", "\\\"q\\\" ", "\\u0041\\u00df ",
                                         "\\ud834\\udd1e ", "\xf0\x9d\x84\x9e ", "a\\/b "};
    int i, j;
    rng_state = 0xA0761D6478BD642FULL;
    sb_add(b, "{");
    for (i = 0; i < 4000; i++) {
        sb_add(b, "%s\"key_%d\":\"", i ? "," : "", i);
        for (j = 0; j < 4 + (int)rng_below(40); j++) sb_add(b, "%s", pieces[rng_below(10)]);
        sb_add(b, "\"");
    }
    sb_add(b, "}");
}

/* A scene export like three.js writes: matrices and vertex arrays full of
 * `-0`, which tyjson reads as the real -0.0 and most peers as the integer 0
 * (a documented difference that must not drop a peer). */
static void gen_scene(sbuf *b) {
    static const char *const cells[] = {"-0", "0", "1", "-1", "-0", "0.5", "-0.25", "-0"};
    int i, j;
    rng_state = 0x632BE59BD9B4E019ULL;
    sb_add(b, "{\"metadata\":{\"version\":4.6,\"type\":\"Object\"},\"object\":{\"children\":[");
    for (i = 0; i < 1500; i++) {
        sb_add(b, "%s{\"uuid\":\"node-%d\",\"type\":\"Mesh\",\"matrix\":[", i ? "," : "", i);
        for (j = 0; j < 16; j++) sb_add(b, "%s%s", j ? "," : "", cells[rng_below(8)]);
        sb_add(b, "],\"position\":[%d.%u,-0,%d]}", (int)rng_below(200) - 100, rng_below(1000),
               (int)rng_below(50));
    }
    sb_add(b, "]}}");
}

void corpus_add_synthetic(void) {
    static const char *const names[4] = {"synthetic-records.json", "synthetic-numbers.json",
                                         "synthetic-strings.json", "synthetic-scene.json"};
    int i;
    for (i = 0; i < 4; i++) new_input(names[i])->synthetic = i + 1;
}

void corpus_add_generated(void) {
    int d;
    for (d = 0; d < SD_COUNT; d++) new_input(scen_doc_name((scen_doc)d))->generated = d + 1;
}

static bool load(input *in) {
    if (in->dat) return true;
    if (in->generated) {
        in->dat = scen_doc_text((scen_doc)(in->generated - 1), &in->len);
        if (!in->dat) bench_fatal("out of memory");
        return true;
    } else if (in->synthetic) {
        sbuf b = {0};
        if (in->synthetic == 1) gen_records(&b);
        else if (in->synthetic == 2) gen_numbers(&b);
        else if (in->synthetic == 3) gen_strings(&b);
        else gen_scene(&b);
        in->dat = b.p;
        in->len = b.len;
        return true;
    } else {
        FILE *fp = fopen(in->path, "rb");
        long size;
        if (!fp) return false;
        if (fseek(fp, 0, SEEK_END) != 0 || (size = ftell(fp)) < 0 || fseek(fp, 0, SEEK_SET) != 0) {
            fclose(fp);
            return false;
        }
        in->len = (size_t)size;
        in->dat = malloc(in->len + 1);
        if (!in->dat) bench_fatal("out of memory");
        if (fread(in->dat, 1, in->len, fp) != in->len) {
            fclose(fp);
            return false;
        }
        in->dat[in->len] = '\0';
        fclose(fp);
        return true;
    }
}

static void unload(input *in) {
    free(in->dat);
    free(in->padded);
    in->dat = in->padded = NULL;
}

static const char *padded_copy(input *in) {
    if (!in->padded) {
        in->padded = malloc(in->len + BENCH_EXTRACT_PADDING);
        if (!in->padded) bench_fatal("out of memory");
        memcpy(in->padded, in->dat, in->len);
        memset(in->padded + in->len, 0, BENCH_EXTRACT_PADDING);
    }
    return in->padded;
}

/* ----------------------------------------------------------------------------
 * MARK: - Checks
 * ------------------------------------------------------------------------- */
/* True if no whitespace appears outside strings. */
static bool is_minified(const char *s, size_t len) {
    bool in_str = false;
    size_t i;
    for (i = 0; i < len; i++) {
        char c = s[i];
        if (in_str) {
            if (c == '\\') i++;
            else if (c == '"') in_str = false;
        } else if (c == '"') {
            in_str = true;
        } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            return false;
        }
    }
    return true;
}

typedef struct reference {
    tyjson_doc *doc;
    const bench_adapter *adapter;
    bench_stats stats;
    bool have_stats;
    uint64_t neg_zeros; /* `-0` literals in the input (bench_check.h) */
    bench_extract extract;
    bool have_extract;  /* the root has "statuses", each with the four fields */
} reference;

/* A member of `obj` of the type `type`, else NULL. */
static tyjson_val *member_of(const tyjson_val *obj, const char *key, tyjson_type type) {
    tyjson_val *v = tyjson_obj_get(obj, key);
    return tyjson_get_type(v) == type ? v : NULL;
}

/* What the extract rows must find, read from tyjson's DOM: false when the
 * document has no "statuses" array of objects with the four fields. */
static bool reference_extract(const tyjson_doc *doc, bench_extract *out) {
    tyjson_val *arr = member_of(tyjson_doc_get_root(doc), "statuses", TYJSON_TYPE_ARR);
    tyjson_arr_iter it;
    const tyjson_val *st;
    if (!arr) return false;
    it = tyjson_arr_iter_with(arr);
    while ((st = tyjson_arr_iter_next(&it))) {
        tyjson_val *id = tyjson_obj_get(st, "id"), *rts = tyjson_obj_get(st, "retweet_count");
        tyjson_val *text = member_of(st, "text", TYJSON_TYPE_STR);
        tyjson_val *user = member_of(st, "user", TYJSON_TYPE_OBJ);
        tyjson_val *name = user ? member_of(user, "screen_name", TYJSON_TYPE_STR) : NULL;
        int64_t rt;
        if (!tyjson_is_uint(id) || !text || !name || !tyjson_get_i64(rts, &rt)) return false;
        bench_extract_add(out, id->uni.u64, tyjson_get_str(text), tyjson_get_len(text), tyjson_get_str(name),
                          tyjson_get_len(name), rt);
    }
    return out->count > 0;
}

/* One extraction checked against the reference. */
static bool check_extract(const reference *ref, const bench_adapter *a, void *st, input *in, char *note) {
    bench_extract got = {0, 0, 0};
    if (!a->extract) {
        bench_set_na(note, "no extract route in the adapter");
        return false;
    }
    if (!a->extract(st, padded_copy(in), in->len, &got)) {
        bench_set_note(note, "extract failed");
        return false;
    }
    if (got.count != ref->extract.count || got.numbers != ref->extract.numbers ||
        got.strings != ref->extract.strings) {
        bench_set_note(note, "extract: %llu statuses, checksums %016llx %016llx; tyjson's DOM: %llu, %016llx %016llx",
                       (unsigned long long)got.count, (unsigned long long)got.numbers,
                       (unsigned long long)got.strings, (unsigned long long)ref->extract.count,
                       (unsigned long long)ref->extract.numbers, (unsigned long long)ref->extract.strings);
        return false;
    }
    return true;
}

/* Whether the validate group times this contender: tyjson, and simdjson,
 * whose DOM parse (it has no validate-only API) is the closest peer row. */
static bool validate_contender(const bench_adapter *a) {
    return a == &bench_adapter_tyjson || !strcmp(a->name, "simdjson");
}

/* tyjson_validate must say what tyjson_read_opts says; simdjson's cells
 * are its parse, checked with the corpus parse. */
static bool check_validate(const reference *ref, const bench_adapter *a, const input *in, char *note,
                           char *parse_note) {
    tyjson_error err;
    if (!validate_contender(a)) {
        bench_set_na(note, "no validate-only API (the rows are tyjson_validate, tyjson's and simdjson's DOM parse)");
        bench_set_na(parse_note, "the validate group's parse row is tyjson's and simdjson's only");
        return false;
    }
    if (a != &bench_adapter_tyjson) return true;
    if (tyjson_validate(in->dat, in->len, NULL, &err) != (ref->doc != NULL)) {
        bench_set_note(note, "tyjson_validate disagrees with tyjson_read_opts");
        return false;
    }
    return true;
}

static bool text_ok(const reference *ref, const bench_adapter *a, bench_write_mode mode, const bench_text *t,
                    char *note) {
    const char *what = mode == BENCH_WRITE_PRETTY ? "pretty" : "minified";
    if (mode == BENCH_WRITE_MINIFY && !is_minified(t->data, t->len)) {
        bench_set_note(note, "minified output has whitespace");
        return false;
    }
    if (mode == BENCH_WRITE_PRETTY && t->len > 64 && is_minified(t->data, t->len)) {
        bench_set_note(note, "pretty output has no whitespace");
        return false;
    }
    if (!ref->adapter) {
        bench_set_note(note, "no reference parser to check the output with");
        return false;
    }
    if (ref->doc) {
        tyjson_error err;
        tyjson_doc *back = tyjson_read_opts(t->data, t->len, NULL, &err);
        bool same;
        if (!back) {
            bench_set_note(note, "%s output not strict JSON for tyjson: %zu:%zu %s", what, err.line, err.column,
                           err.msg);
            return false;
        }
        /* tyjson_equals first: it also orders duplicate keys */
        same = (!(a->caps & BENCH_CAP_LOSSY_NUMBERS) &&
                tyjson_equals(tyjson_doc_get_root(ref->doc), tyjson_doc_get_root(back))) ||
               bench_same_value(tyjson_doc_get_root(ref->doc), tyjson_doc_get_root(back),
                                a->caps & BENCH_CAP_LOSSY_NUMBERS);
        tyjson_doc_free(back);
        if (!same) bench_set_note(note, "%s output reparsed by tyjson differs from the input", what);
        return same;
    } else {
        bench_stats st = {0};
        void *s = ref->adapter->create();
        bool ok = s && ref->adapter->parse(s, t->data, t->len) && ref->adapter->walk(s, &st);
        if (s) {
            ref->adapter->free_doc(s);
            ref->adapter->destroy(s);
        }
        if (!ok) {
            bench_set_note(note, "%s output does not parse with %s", what, ref->adapter->name);
            return false;
        }
        return !bench_stats_differ(&st, &ref->stats, (a->caps | ref->adapter->caps) & BENCH_CAP_LOSSY_NUMBERS,
                                   ref->neg_zeros, note);
    }
}

/* Writes once and checks the text (on a NUL-terminated copy: some writers'
 * texts are not terminated, and the reference may be yajl). */
static bool check_write(const reference *ref, const bench_adapter *a, void *hold, bench_write_mode mode,
                        size_t *out_len, char *note) {
    bench_text t = {0};
    bool ok;
    char *copy;
    if (mode == BENCH_WRITE_PRETTY && (a->caps & BENCH_CAP_NO_PRETTY)) {
        bench_set_na(note, "no pretty writer");
        return false;
    }
    if (!a->write(hold, mode, &t)) {
        bench_set_note(note, "write failed");
        return false;
    }
    copy = malloc(t.len + 1);
    if (!copy) bench_fatal("out of memory");
    memcpy(copy, t.data, t.len);
    copy[t.len] = '\0';
    *out_len = t.len;
    a->free_text(hold, &t);
    t.data = copy;
    ok = text_ok(ref, a, mode, &t, note);
    free(copy);
    return ok;
}

/* ----------------------------------------------------------------------------
 * MARK: - Timed operations
 * ------------------------------------------------------------------------- */
typedef struct corpus_ctx {
    int op;
    const bench_adapter *a;
    void *loop, *hold;
    const input *in;
} corpus_ctx;

static bool parse_once(const corpus_ctx *x) {
    if (!x->a->parse(x->loop, x->in->dat, x->in->len)) return false;
    x->a->free_doc(x->loop);
    return true;
}

static bool op_once(const corpus_ctx *x) {
    const bench_adapter *a = x->a;
    bench_stats st;
    bench_text t;
    bench_extract ex;
    tyjson_error err;
    uint64_t bits;
    switch (x->op) {
    case OP_VALIDATE:
        /* simdjson's validate cell is its DOM parse */
        if (a != &bench_adapter_tyjson) return parse_once(x);
        return tyjson_validate(x->in->dat, x->in->len, NULL, &err);
    case OP_VALIDATE_PARSE:
        return parse_once(x);
    case OP_EXTRACT:
        memset(&ex, 0, sizeof(ex));
        if (!a->extract(x->loop, x->in->padded, x->in->len, &ex)) return false;
        bench_sink += ex.count + ex.numbers + ex.strings;
        return true;
    case OP_PARSE:
        if (!a->parse(x->loop, x->in->dat, x->in->len)) return false;
        a->free_doc(x->loop);
        return true;
    case OP_WALK:
        if (!a->parse(x->loop, x->in->dat, x->in->len)) return false;
        memset(&st, 0, sizeof(st));
        if (!a->walk(x->loop, &st)) {
            a->free_doc(x->loop);
            return false;
        }
        memcpy(&bits, &st.num_sum, sizeof(bits));
        bench_sink += st.objects + st.str_bytes + st.int_sum + bits;
        a->free_doc(x->loop);
        return true;
    default:
        if (!a->write(x->hold, x->op == OP_WRITE_PRETTY ? BENCH_WRITE_PRETTY : BENCH_WRITE_MINIFY, &t))
            return false;
        bench_sink += t.len + (unsigned char)t.data[t.len / 2];
        a->free_text(x->hold, &t);
        return true;
    }
}

static bool run_corpus(void *ctx, long iters) {
    long i;
    for (i = 0; i < iters; i++)
        if (!op_once(ctx)) return false;
    return true;
}

/* ----------------------------------------------------------------------------
 * MARK: - Memory
 * ------------------------------------------------------------------------- */
/* What a document holds by the libraries' own accounts (tyjson's size, the
 * counting allocator of those that take one); every library's allocations,
 * counted alike, come from the memory pass (bench_mem.c). */
static void measure_memory(const input *in, const reference *ref, const bool *usable) {
    size_t c;
    if (ref->doc) bench_mem_line(in->name, "tyjson", "doc_mem_size", (long long)tyjson_doc_get_mem_size(ref->doc));
    for (c = 0; c < n_conts; c++) {
        const bench_adapter *a = conts[c].dom;
        bench_mem m;
        if (!a || !usable[c]) continue;
        if (a->measure_mem && a->measure_mem(in->dat, in->len, &m)) {
            bench_mem_line(in->name, a->name, "counted_held", (long long)m.held);
            bench_mem_line(in->name, a->name, "counted_peak", (long long)m.peak);
            bench_mem_line(in->name, a->name, "counted_allocs", (long long)m.allocs);
        }
    }
}

/* ----------------------------------------------------------------------------
 * MARK: - One file
 * ------------------------------------------------------------------------- */
/* tyjson's document of the file, its walk statistics and what the extract
 * rows must find; a note when tyjson cannot read it. */
static void setup_reference(const input *in, reference *ref) {
    tyjson_error err;
    memset(ref, 0, sizeof(*ref));
    if (!in->dat) return;
    ref->neg_zeros = bench_count_neg_zero_ints(in->dat, in->len);
    ref->doc = tyjson_read_opts(in->dat, in->len, NULL, &err);
    if (ref->doc) {
        void *s = bench_adapter_tyjson.create();
        ref->adapter = &bench_adapter_tyjson;
        if (s && bench_adapter_tyjson.parse(s, in->dat, in->len)) {
            ref->have_stats = bench_adapter_tyjson.walk(s, &ref->stats);
            bench_adapter_tyjson.free_doc(s);
        }
        if (s) bench_adapter_tyjson.destroy(s);
        if (!ref->have_stats) bench_info("corpus note", "%s: tyjson walk failed", in->name);
    } else {
        bench_info("corpus note", "%s: tyjson cannot parse it (%zu:%zu %s)", in->name, err.line, err.column, err.msg);
    }
    ref->have_extract = ref->doc && op_wanted(OP_EXTRACT) && reference_extract(ref->doc, &ref->extract);
}

/* One file's states and what the checks found, per contender. */
typedef struct file_run {
    input *in;
    reference ref;
    void *loop[MAX_CONT], *hold[MAX_CONT];
    bool parsed[MAX_CONT], usable[MAX_CONT];
    char notes[MAX_CONT][OP_COUNT][NOTE_MAX]; /* empty: the cell may be timed */
    size_t out_len[OP_COUNT];                 /* bytes written, for the writers' MB/s */
} file_run;

/* Writes, validation and extraction of a contender whose parse and walk
 * passed their checks. */
static void check_other_ops(file_run *fr, size_t c) {
    const bench_adapter *a = conts[c].dom;
    int op;
    for (op = OP_WRITE_MIN; op <= OP_WRITE_PRETTY; op++) {
        size_t len = 0;
        if (!op_wanted(op) ||
            !check_write(&fr->ref, a, fr->hold[c], op == OP_WRITE_PRETTY ? BENCH_WRITE_PRETTY : BENCH_WRITE_MINIFY,
                         &len, fr->notes[c][op]))
            continue;
        /* MB/s of writers count tyjson's output size, else the first one's */
        if (!fr->out_len[op] || a == &bench_adapter_tyjson) fr->out_len[op] = len;
    }
    if (op_wanted(OP_VALIDATE))
        check_validate(&fr->ref, a, fr->in, fr->notes[c][OP_VALIDATE], fr->notes[c][OP_VALIDATE_PARSE]);
    if (fr->ref.have_extract) check_extract(&fr->ref, a, fr->loop[c], fr->in, fr->notes[c][OP_EXTRACT]);
}

/* Creates contender c's states and checks its parse and walk against the
 * reference (the first healthy contender becomes it when tyjson cannot). */
static void check_contender(file_run *fr, size_t c) {
    const bench_adapter *a = conts[c].dom;
    reference *ref = &fr->ref;
    bench_stats st = {0};
    char note[NOTE_MAX] = "";
    int op;
    if (!a) {
        for (op = 0; op < OP_COUNT; op++) bench_set_na(fr->notes[c][op], "no DOM adapter");
        return;
    }
    fr->hold[c] = a->create();
    fr->loop[c] = a->create();
    if (!fr->hold[c] || !fr->loop[c]) bench_fatal("%s: cannot create its state", a->name);
    fr->parsed[c] = a->parse(fr->hold[c], fr->in->dat, fr->in->len);
    if (!fr->parsed[c]) bench_set_note(note, "parse failed");
    else if (!a->walk(fr->hold[c], &st)) bench_set_note(note, "walk failed");
    if (!note[0] && !ref->have_stats && !(a->caps & BENCH_CAP_LOSSY_NUMBERS)) {
        ref->adapter = a;
        ref->stats = st;
        ref->have_stats = true;
        bench_info("corpus note", "%s: checked against %s", fr->in->name, a->name);
    }
    if (!note[0] && ref->have_stats)
        bench_stats_differ(&st, &ref->stats, (a->caps | ref->adapter->caps) & BENCH_CAP_LOSSY_NUMBERS,
                           ref->neg_zeros, note);
    if (note[0]) {
        for (op = 0; op < OP_COUNT; op++) memcpy(fr->notes[c][op], note, NOTE_MAX);
        return;
    }
    fr->usable[c] = true;
    check_other_ops(fr, c);
}

/* Times every operation of this pass on the file (one task each). */
static void run_file_tasks(file_run *fr) {
    int op;
    size_t c;
    for (op = 0; op < OP_COUNT; op++) {
        task_info ti;
        cell_job jobs[MAX_CONT];
        corpus_ctx ctx[MAX_CONT];
        if (!op_wanted(op) || (op == OP_EXTRACT && !fr->ref.have_extract)) continue;
        memset(&ti, 0, sizeof(ti));
        snprintf(ti.group, sizeof(ti.group), "%s", op_group(op));
        snprintf(ti.item, sizeof(ti.item), "%s", fr->in->name);
        snprintf(ti.op, sizeof(ti.op), "%s", op_names[op]);
        ti.unit = UNIT_MBS;
        ti.bytes = (double)(op == OP_WRITE_MIN || op == OP_WRITE_PRETTY ? fr->out_len[op] : fr->in->len);
        memset(jobs, 0, sizeof(jobs));
        for (c = 0; c < n_conts; c++) {
            ctx[c].op = op;
            ctx[c].a = conts[c].dom;
            ctx[c].loop = fr->loop[c];
            ctx[c].hold = fr->hold[c];
            ctx[c].in = fr->in;
            jobs[c].ok = !fr->notes[c][op][0];
            memcpy(jobs[c].note, fr->notes[c][op], NOTE_MAX);
            jobs[c].run = run_corpus;
            jobs[c].ctx = &ctx[c];
        }
        bench_run_task(&ti, jobs);
    }
}

static void bench_file(input *in, bool memory) {
    static file_run fr; /* large (the notes): not on the stack */
    size_t c;
    int op;
    memset(&fr, 0, sizeof(fr));
    fr.in = in;
    if (!load(in)) {
        for (c = 0; c < n_conts; c++)
            for (op = 0; op < OP_COUNT; op++) bench_set_note(fr.notes[c][op], "cannot read %s", in->path);
    }
    setup_reference(in, &fr.ref);
    for (c = 0; c < n_conts && in->dat; c++) check_contender(&fr, c);
    run_file_tasks(&fr);
    if (memory && in->dat && !bench_corpus_avx2) measure_memory(in, &fr.ref, fr.usable);
    for (c = 0; c < n_conts; c++) {
        if (!conts[c].dom || !fr.hold[c]) continue;
        if (fr.parsed[c]) conts[c].dom->free_doc(fr.hold[c]);
        conts[c].dom->destroy(fr.hold[c]);
        conts[c].dom->destroy(fr.loop[c]);
    }
    tyjson_doc_free(fr.ref.doc);
    unload(in);
}

void corpus_run_all(bool memory) {
    size_t f;
    int op;
    bool any = false;
    for (op = 0; op < OP_COUNT; op++) any |= op_wanted(op);
    if (!any) return;
    for (f = 0; f < n_inputs; f++) {
        fprintf(stderr, "    %s\n", inputs[f].name);
        bench_file(&inputs[f], memory);
    }
}

/* One parse in a fresh process: its peak resident memory. Prints
 * "S" (the time) and "R" (peak RSS in KiB) lines. */
int corpus_cold_main(const char *file, const char *cont) {
    size_t f, c;
    for (f = 0; f < n_inputs && strcmp(inputs[f].name, file) != 0; f++) {}
    for (c = 0; c < n_conts && strcmp(conts[c].name, cont) != 0; c++) {}
    if (f == n_inputs || !load(&inputs[f])) return 2;
    if (strcmp(cont, "none") == 0) { /* the baseline: the input alone */
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        printf("R\t%ld\n", ru.ru_maxrss);
        return 0;
    }
    if (c == n_conts || !conts[c].dom) return 2;
    {
        const bench_adapter *a = conts[c].dom;
        double t0 = bench_cpu_now();
        void *s = a->create();
        bool ok = s && a->parse(s, inputs[f].dat, inputs[f].len);
        double t = bench_cpu_now() - t0;
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        if (!ok) return 1;
        printf("S\t%.9g\t1\nR\t%ld\n", t, ru.ru_maxrss);
        a->free_doc(s);
        a->destroy(s);
    }
    return 0;
}

/* ----------------------------------------------------------------------------
 * MARK: - Files for the memory pass (bench_mem.c)
 * ------------------------------------------------------------------------- */
const char *corpus_file_load(size_t i, const char **dat, size_t *len) {
    if (i >= n_inputs || !load(&inputs[i])) return NULL;
    *dat = inputs[i].dat;
    *len = inputs[i].len;
    return inputs[i].name;
}

void corpus_file_unload(size_t i) {
    if (i < n_inputs) unload(&inputs[i]);
}
