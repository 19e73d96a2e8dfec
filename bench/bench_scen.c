/*
 * bench_scen.c - the scenarios of ../shared/scenarios/SCENARIOS.md: inputs
 * from the generator (scengen.c), each library's typed adapter checked
 * against the generator's values, then timed.
 *
 * Checks before timing: a decoded value must equal the generator's value
 * (every member; strings by content); an encoded text must be strict JSON
 * that reads back (tyjson DOM) equal to the scenario file's text, numbers
 * compared by value (50 and 50.0 are the same; float members as floats).
 * JSON0: the messages of a round must be the reference bytes; the full
 * round's SHA-256 is verified for tyjson in every mode, for every library
 * in full mode (first fork only).
 */
#define _POSIX_C_SOURCE 200809L

#include "bench.h"
#include "scengen.h"

#include <tyjson.h>

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static scen_data data;
static bool data_ready;

static const scen_data *get_data(void) {
    if (!data_ready) {
        if (!scen_data_init(&data)) bench_fatal("out of memory generating the scenarios");
        data_ready = true;
    }
    return &data;
}

/* What each typed scenario reads and writes. */
typedef struct scen_def {
    bench_scen scen;
    const char *group, *item;
    scen_file file;
    size_t size; /* sizeof the value */
    bool ser, deser;
} scen_def;

static const scen_def defs[] = {
    {BS_SIMPLE, "kissjson", "simple POJO", SF_SIMPLE_POJO, sizeof(simple_pojo), true, true},
    {BS_NESTED, "kissjson", "nested POJO", SF_NESTED_POJO, sizeof(nested_pojo), true, true},
    {BS_DATE, "kissjson", "date POJO", SF_DATE_POJO, sizeof(date_pojo), true, true},
    {BS_LIST, "kissjson", "list of 100", SF_POJO_LIST_100, sizeof(simple_pojo_list), true, true},
    {BS_MAP, "kissjson", "map", SF_MAP_MIXED, sizeof(jv), true, true},
    {BS_ESCAPE, "kissjson", "escape string", SF_ESCAPE_STRING, sizeof(jstr), true, false},
    {BS_ALBUM, "photoalbum", "PhotoAlbum", SF_PHOTO_ALBUM, sizeof(pa_album), true, true},
    {BS_KUDOS, "kudos", "small", SF_KUDOS_SMALL, sizeof(kr_response), true, true},
    {BS_KUDOS, "kudos", "medium", SF_KUDOS_MEDIUM, sizeof(kr_response), true, true},
    {BS_KUDOS, "kudos", "large", SF_KUDOS_LARGE, sizeof(kr_response), true, true},
    {BS_BOON_SIMPLE, "boon", "simple", SF_BOON_SIMPLE, sizeof(boon_simple), true, false},
    {BS_BOON_MEDIUM, "boon", "medium", SF_BOON_MEDIUM, sizeof(boon_medium), true, false},
    {BS_BOON_COMPLEX, "boon", "complex", SF_BOON_COMPLEX, sizeof(boon_complex), true, false},
};
#define N_DEFS (sizeof(defs) / sizeof(defs[0]))

/* The rows also measured cold (deserialize only): each names the file of a
 * deserializing entry of defs[], whose scenario, group and item it takes
 * and whose warm row checks it. Addressed by index (--cold K CONTENDER). */
static const scen_file cold_files[] = {SF_SIMPLE_POJO, SF_KUDOS_SMALL, SF_KUDOS_MEDIUM, SF_KUDOS_LARGE};
const size_t scen_n_cold_items = sizeof(cold_files) / sizeof(cold_files[0]);

static const scen_def *cold_def(size_t k) {
    size_t i;
    if (k >= scen_n_cold_items) return NULL;
    for (i = 0; i < N_DEFS; i++)
        if (defs[i].file == cold_files[k] && defs[i].deser) return &defs[i];
    return NULL;
}

static const void *value_of(const scen_def *d) {
    const scen_data *sd = get_data();
    switch (d->scen) {
    case BS_SIMPLE: return &sd->simple;
    case BS_NESTED: return &sd->nested;
    case BS_DATE: return &sd->date;
    case BS_LIST: return &sd->list;
    case BS_MAP: return &sd->map;
    case BS_ESCAPE: return &sd->esc;
    case BS_ALBUM: return &sd->album;
    case BS_KUDOS: return &sd->kudos[d->file - SF_KUDOS_SMALL];
    case BS_BOON_SIMPLE: return &sd->boon_s;
    case BS_BOON_MEDIUM: return &sd->boon_m;
    case BS_BOON_COMPLEX: return &sd->boon_c;
    default: return NULL;
    }
}

/* ----------------------------------------------------------------------------
 * MARK: - Checks
 * ------------------------------------------------------------------------- */
static bool jstr_eq(jstr a, jstr b) {
    return a.len == b.len && (a.len == 0 || (a.ptr && b.ptr && memcmp(a.ptr, b.ptr, a.len) == 0));
}

static bool jv_eq(const jv *a, const jv *b) {
    size_t i;
    if (a->kind != b->kind) return false;
    switch (a->kind) {
    case JV_INT: return a->u.i == b->u.i;
    case JV_DOUBLE: return a->u.d == b->u.d;
    case JV_STRING: return jstr_eq(a->u.s, b->u.s);
    case JV_ARRAY:
        if (a->u.arr.n != b->u.arr.n) return false;
        for (i = 0; i < a->u.arr.n; i++)
            if (!jv_eq(&a->u.arr.items[i], &b->u.arr.items[i])) return false;
        return true;
    case JV_OBJECT:
        if (a->u.obj.n != b->u.obj.n) return false;
        for (i = 0; i < a->u.obj.n; i++)
            if (!jstr_eq(a->u.obj.members[i].key, b->u.obj.members[i].key) ||
                !jv_eq(a->u.obj.members[i].value, b->u.obj.members[i].value))
                return false;
        return true;
    default: return true;
    }
}

static bool value_eq(const scen_def *d, const void *got, char *why, size_t size) {
    const void *want = value_of(d);
    switch (d->scen) {
    case BS_SIMPLE: return scen_eq_simple(got, want, why, size);
    case BS_NESTED: return scen_eq_nested(got, want, why, size);
    case BS_DATE: return scen_eq_date(got, want, why, size);
    case BS_LIST: return scen_eq_list(got, want, why, size);
    case BS_ALBUM: return scen_eq_album(got, want, why, size);
    case BS_KUDOS: return scen_eq_kudos(got, want, why, size);
    case BS_MAP:
        if (jv_eq(got, want)) return true;
        snprintf(why, size, "the tree differs");
        return false;
    default: snprintf(why, size, "no comparison for this scenario"); return false;
    }
}

/* Numbers by value: integers exactly, else as doubles or as floats (a
 * float member written with float digits reads back as another double). */
static bool num_eq(const tyjson_val *a, const tyjson_val *b) {
    double x = tyjson_get_num(a), y = tyjson_get_num(b);
    if (!tyjson_is_real(a) && !tyjson_is_real(b)) return a->uni.u64 == b->uni.u64 && tyjson_get_type(a) == tyjson_get_type(b);
    return x == y || (float)x == (float)y;
}

/* Same members in the same order, same values. */
static bool dom_eq(const tyjson_val *a, const tyjson_val *b) {
    if (tyjson_is_num(a) && tyjson_is_num(b)) return num_eq(a, b);
    if (tyjson_get_type(a) != tyjson_get_type(b)) return false;
    if (tyjson_is_arr(a)) {
        tyjson_arr_iter ia = tyjson_arr_iter_with(a), ib = tyjson_arr_iter_with(b);
        const tyjson_val *x, *y;
        if (tyjson_arr_size(a) != tyjson_arr_size(b)) return false;
        while ((x = tyjson_arr_iter_next(&ia)) && (y = tyjson_arr_iter_next(&ib)))
            if (!dom_eq(x, y)) return false;
        return true;
    }
    if (tyjson_is_obj(a)) {
        tyjson_obj_iter ia = tyjson_obj_iter_with(a), ib = tyjson_obj_iter_with(b);
        tyjson_val *x, *y;
        if (tyjson_obj_size(a) != tyjson_obj_size(b)) return false;
        while ((x = tyjson_obj_iter_next(&ia)) && (y = tyjson_obj_iter_next(&ib)))
            if (!tyjson_equals(x, y) || !dom_eq(tyjson_obj_iter_get_val(x), tyjson_obj_iter_get_val(y)))
                return false;
        return true;
    }
    return tyjson_equals(a, b);
}

static bool text_eq(const char *text, size_t len, const char *ref, size_t ref_len, char *note) {
    tyjson_error err;
    tyjson_doc *a = tyjson_read_opts(text, len, NULL, &err), *b;
    bool same;
    if (!a) {
        bench_set_note(note, "output is not strict JSON: %zu:%zu %s", err.line, err.column, err.msg);
        return false;
    }
    b = tyjson_read_opts(ref, ref_len, NULL, NULL);
    same = b && dom_eq(tyjson_doc_get_root(a), tyjson_doc_get_root(b));
    if (!same) bench_set_note(note, "output reads back different from the scenario file");
    tyjson_doc_free(a);
    tyjson_doc_free(b);
    return same;
}

static const char *na_reason(const contender *co, int scen) {
    if (!co->has_typed) return "no typed adapter";
    if (co->typed.na[scen]) return co->typed.na[scen];
    return co->typed.na_default ? co->typed.na_default : "no adapter for this scenario";
}

/* ----------------------------------------------------------------------------
 * MARK: - Timed work
 * ------------------------------------------------------------------------- */
typedef struct scen_ctx {
    const bench_typed *t;
    void *st;
    bench_scen scen;
    const char *dat; /* decode input */
    size_t len;
    const void *in;  /* encode input */
    void *out;       /* decode output, size bytes */
    size_t size;
} scen_ctx;

static bool run_decode(void *ctx, long iters) {
    scen_ctx *x = ctx;
    long i;
    for (i = 0; i < iters; i++) {
        memset(x->out, 0, x->size);
        if (!x->t->decode[x->scen](x->st, x->dat, x->len, x->out)) return false;
        bench_sink += *(const unsigned char *)x->out;
        x->t->release(x->st);
    }
    return true;
}

static bool run_encode(void *ctx, long iters) {
    scen_ctx *x = ctx;
    long i;
    for (i = 0; i < iters; i++) {
        bench_text text;
        if (!x->t->encode[x->scen](x->st, x->in, &text)) return false;
        bench_sink += text.len + (unsigned char)text.data[text.len / 2];
        x->t->release(x->st);
    }
    return true;
}

static bool check_decode(const scen_def *d, scen_ctx *x, char *note) {
    char why[160] = "";
    bool ok;
    memset(x->out, 0, x->size);
    if (!x->t->decode[x->scen](x->st, x->dat, x->len, x->out)) {
        bench_set_note(note, "decode failed");
        x->t->release(x->st);
        return false;
    }
    ok = value_eq(d, x->out, why, sizeof(why));
    if (!ok) bench_set_note(note, "decoded value differs: %s", why);
    x->t->release(x->st);
    return ok;
}

static bool check_encode(scen_ctx *x, const char *ref, size_t ref_len, char *note) {
    bench_text text;
    bool ok;
    char *copy;
    if (!x->t->encode[x->scen](x->st, x->in, &text)) {
        bench_set_note(note, "encode failed");
        x->t->release(x->st);
        return false;
    }
    copy = malloc(text.len + 1);
    if (!copy) bench_fatal("out of memory");
    memcpy(copy, text.data, text.len);
    copy[text.len] = '\0';
    x->t->release(x->st);
    ok = text_eq(copy, text.len, ref, ref_len, note);
    free(copy);
    return ok;
}

static void run_def(const scen_def *d) {
    size_t len, c;
    char *text = scen_file_text(get_data(), d->file, &len);
    int dir;
    if (!text) bench_fatal("out of memory");
    for (dir = 0; dir < 2; dir++) { /* serialize, then deserialize */
        task_info ti;
        cell_job jobs[MAX_CONT];
        scen_ctx ctx[MAX_CONT];
        bool ser = dir == 0;
        if (ser ? !d->ser : !d->deser) continue;
        memset(&ti, 0, sizeof(ti));
        memset(jobs, 0, sizeof(jobs));
        memset(ctx, 0, sizeof(ctx));
        snprintf(ti.group, sizeof(ti.group), "%s", d->group);
        snprintf(ti.item, sizeof(ti.item), "%s", d->item);
        snprintf(ti.op, sizeof(ti.op), "%s", ser ? "serialize" : "deserialize");
        ti.unit = UNIT_US;
        ti.bytes = (double)len;
        for (c = 0; c < n_conts; c++) {
            const contender *co = &conts[c];
            scen_ctx *x = &ctx[c];
            cell_job *j = &jobs[c];
            bool has = co->has_typed && (ser ? co->typed.encode[d->scen] != NULL : co->typed.decode[d->scen] != NULL);
            if (!has) {
                bench_set_na(j->note, "%s", na_reason(co, d->scen));
                continue;
            }
            x->t = &co->typed;
            x->st = co->typed.create();
            if (!x->st) bench_fatal("%s: cannot create its typed state", co->name);
            x->scen = d->scen;
            x->dat = text;
            x->len = len;
            x->in = value_of(d);
            x->size = d->size;
            x->out = calloc(1, d->size);
            if (!x->out) bench_fatal("out of memory");
            j->ok = ser ? check_encode(x, text, len, j->note) : check_decode(d, x, j->note);
            j->run = ser ? run_encode : run_decode;
            j->ctx = x;
        }
        bench_run_task(&ti, jobs);
        for (c = 0; c < n_conts; c++) {
            if (ctx[c].st) ctx[c].t->destroy(ctx[c].st);
            free(ctx[c].out);
        }
    }
    free(text);
}

/* ----------------------------------------------------------------------------
 * MARK: - JSON0 stream
 * ------------------------------------------------------------------------- */
#define J0_BUF ((size_t)512 << 20)
#define J0_SLACK 1024

typedef struct j0_ctx {
    const bench_typed *t;
    void *st;
    char *buf;
    size_t pos;
    uint32_t messages;
} j0_ctx;

/* Appends messages 0..n-1; the buffer rewinds when less than 1 KiB is left. */
static bool j0_round(j0_ctx *x, uint32_t n) {
    j0_message m = get_data()->j0;
    uint32_t i;
    for (i = 0; i < n; i++) {
        size_t len;
        m.id = i;
        len = x->t->j0_write(x->st, &m, x->buf + x->pos, J0_BUF - x->pos);
        if (!len) return false;
        x->pos += len;
        if (J0_BUF - x->pos < J0_SLACK) x->pos = 0;
    }
    bench_sink += x->pos;
    return true;
}

static bool run_j0(void *ctx, long iters) {
    j0_ctx *x = ctx;
    long i;
    for (i = 0; i < iters; i++)
        if (!j0_round(x, x->messages)) return false;
    return true;
}

/* Writes a round from the start of the buffer and compares it with the
 * reference: the SHA-256 of the whole round, or the first `n` messages
 * byte for byte. */
static bool j0_check(j0_ctx *x, bool full, char *note) {
    j0_message m = get_data()->j0;
    uint32_t i, n = full ? SCEN_J0_ROUND_MESSAGES : 4096;
    scen_sha256 sha;
    char ref[256], hex[65];
    unsigned long long total = 0;
    scen_sha256_init(&sha);
    for (i = 0; i < n; i++) {
        size_t len, rlen;
        m.id = i;
        len = x->t->j0_write(x->st, &m, x->buf, J0_BUF);
        if (!len) {
            bench_set_note(note, "message %u: write failed", i);
            return false;
        }
        total += len;
        if (full) {
            scen_sha256_add(&sha, x->buf, len);
            continue;
        }
        rlen = scen_j0_write(&m, ref, sizeof(ref));
        if (len != rlen || memcmp(ref, x->buf, len) != 0) {
            bench_set_note(note, "message %u differs from JSON0's bytes", i);
            return false;
        }
    }
    if (!full) return true;
    scen_sha256_hex(&sha, hex);
    if (total != SCEN_J0_ROUND_BYTES || strcmp(hex, SCEN_J0_ROUND_SHA256) != 0) {
        bench_set_note(note, "round of %llu bytes, SHA-256 %.16s..., expected %llu bytes, %.16s...", total, hex,
                       SCEN_J0_ROUND_BYTES, SCEN_J0_ROUND_SHA256);
        return false;
    }
    return true;
}

static void run_json0(void) {
    task_info ti;
    cell_job jobs[MAX_CONT];
    j0_ctx ctx[MAX_CONT];
    char *buf = malloc(J0_BUF);
    size_t c;
    bool first_fork = bench_fork_index == 0;
    if (!buf) bench_fatal("cannot allocate the 512 MiB JSON0 buffer");
    /* Fault the pages in before timing, each one different: pages of zeros
     * may be shared copy-on-write below the guest (on the benchmark VM the
     * contender that wrote them first paid up to 2x for its round). */
    memset(buf, 0, J0_BUF);
    for (size_t q = 0; q + sizeof(q) <= J0_BUF; q += 4096) memcpy(buf + q, &q, sizeof(q));
    memset(&ti, 0, sizeof(ti));
    memset(jobs, 0, sizeof(jobs));
    memset(ctx, 0, sizeof(ctx));
    snprintf(ti.group, sizeof(ti.group), "json0");
    snprintf(ti.item, sizeof(ti.item), "1,048,576 messages");
    snprintf(ti.op, sizeof(ti.op), "serialize round");
    ti.unit = UNIT_MS;
    ti.bytes = (double)SCEN_J0_ROUND_BYTES;
    for (c = 0; c < n_conts; c++) {
        const contender *co = &conts[c];
        j0_ctx *x = &ctx[c];
        cell_job *j = &jobs[c];
        bool is_ty = strcmp(co->name, "tyjson") == 0;
        if (!co->has_typed || !co->typed.j0_write) {
            bench_set_na(j->note, "%s", na_reason(co, BS_COUNT));
            continue;
        }
        x->t = &co->typed;
        x->st = co->typed.create();
        if (!x->st) bench_fatal("%s: cannot create its typed state", co->name);
        x->buf = buf;
        x->messages = SCEN_J0_ROUND_MESSAGES;
        /* the whole round's SHA-256: tyjson always, the others in the
         * first fork of a full run; else the first 4096 messages */
        j->ok = j0_check(x, is_ty || (first_fork && !cfg.quick), j->note);
        if (j->ok && (is_ty || (first_fork && !cfg.quick))) bench_info("json0 sha256", "%s: verified", co->name);
        if (j->ok) j->ok = j0_round(x, 1024); /* JSON0's warm-up round */
        x->pos = 0;
        j->run = run_j0;
        j->ctx = x;
        j->fixed_iters = 1;
    }
    {
        int rounds = cfg.rounds;
        if (cfg.rounds > 3) cfg.rounds = 3; /* a round is a second or more */
        bench_run_task(&ti, jobs);
        cfg.rounds = rounds;
    }
    for (c = 0; c < n_conts; c++)
        if (ctx[c].st) ctx[c].t->destroy(ctx[c].st);
    free(buf);
}

/* ----------------------------------------------------------------------------
 * MARK: - Entry points
 * ------------------------------------------------------------------------- */
void scen_run_all(void) {
    size_t i;
    const char *last = "";
    for (i = 0; i < N_DEFS; i++) {
        if (!bench_group_selected(defs[i].group)) continue;
        if (strcmp(last, defs[i].group) != 0) fprintf(stderr, "    %s\n", defs[i].group);
        last = defs[i].group;
        run_def(&defs[i]);
        if (i + 1 == N_DEFS || strcmp(defs[i + 1].group, defs[i].group) != 0) {
            /* the group's cold rows, at its end; measured by the parent */
            size_t k;
            for (k = 0; k < scen_n_cold_items; k++) {
                task_info ti;
                cell_job jobs[MAX_CONT];
                char warm[64];
                size_t c;
                if (!scen_cold_info(k, &ti, warm, sizeof(warm)) || strcmp(ti.group, defs[i].group) != 0) continue;
                memset(jobs, 0, sizeof(jobs));
                for (c = 0; c < n_conts; c++) jobs[c].ok = true;
                bench_run_task(&ti, jobs);
            }
        }
    }
    if (bench_group_selected("json0")) {
        fprintf(stderr, "    json0\n");
        run_json0();
    }
}

bool scen_cold_info(size_t k, task_info *ti, char *warm_item, size_t warm_size) {
    const scen_def *d = cold_def(k);
    if (!d) return false;
    memset(ti, 0, sizeof(*ti));
    snprintf(ti->group, sizeof(ti->group), "%s", d->group);
    snprintf(ti->item, sizeof(ti->item), "%s", d->item);
    snprintf(ti->op, sizeof(ti->op), "deserialize cold");
    ti->unit = UNIT_US;
    ti->bytes = (double)scen_file_get(d->file)->size;
    ti->cold = true;
    snprintf(warm_item, warm_size, "%s", d->item);
    return true;
}

/* A fresh process: the first decode of cold item `key` (an index), creating
 * the library's state (and, for tyjson, preparing the types) included.
 * Prints "S seconds" and "R peak-RSS-KiB". Key "none": only the RSS after
 * generating the inputs. */
int scen_cold_main(const char *key, const char *cont) {
    size_t c, len;
    char *text, *end;
    struct rusage ru;
    const bench_typed *t;
    const scen_def *d;
    void *st, *out;
    double t0, sec;
    bool ok;
    unsigned long k = strtoul(key, &end, 10);
    if (strcmp(key, "none") == 0) {
        get_data();
        getrusage(RUSAGE_SELF, &ru);
        printf("R\t%ld\n", ru.ru_maxrss);
        return 0;
    }
    if (end == key || *end || !(d = cold_def(k))) return 2;
    text = scen_file_text(get_data(), d->file, &len);
    if (!text) return 2;
    for (c = 0; c < n_conts && strcmp(conts[c].name, cont) != 0; c++) {}
    if (c == n_conts || !conts[c].has_typed || !conts[c].typed.decode[d->scen] || !(out = calloc(1, d->size))) {
        free(text);
        return 2;
    }
    t = &conts[c].typed;
    t0 = bench_cpu_now();
    st = t->create();
    ok = st && t->decode[d->scen](st, text, len, out);
    sec = bench_cpu_now() - t0;
    if (ok) bench_sink += *(const unsigned char *)out;
    getrusage(RUSAGE_SELF, &ru);
    if (ok) printf("S\t%.9g\nR\t%ld\n", sec, ru.ru_maxrss);
    if (st) {
        t->release(st);
        t->destroy(st);
    }
    free(out);
    free(text);
    return ok ? 0 : 1;
}

/* ----------------------------------------------------------------------------
 * MARK: - Cells for the memory pass (bench_mem.c)
 * ------------------------------------------------------------------------- */
bool scen_cell_get(size_t i, bool want_text, scen_cell *out) {
    size_t k;
    memset(out, 0, sizeof(*out));
    for (k = 0; k < N_DEFS; k++) {
        const scen_def *d = &defs[k];
        size_t n = (size_t)d->ser + (size_t)d->deser;
        if (i >= n) {
            i -= n;
            continue;
        }
        out->group = d->group;
        out->item = d->item;
        out->ser = d->ser && i == 0;
        out->op = out->ser ? "serialize" : "deserialize";
        out->scen = d->scen;
        out->in = value_of(d);
        out->size = d->size;
        if (want_text && !out->ser) {
            out->text = scen_file_text(get_data(), d->file, &out->len);
            if (!out->text) bench_fatal("out of memory");
        }
        return true;
    }
    if (i > 0) return false;
    out->group = "json0"; /* the names of run_json0's task */
    out->item = "1,048,576 messages";
    out->op = "serialize round";
    out->scen = BS_COUNT;
    out->ser = true;
    out->in = &get_data()->j0;
    return true;
}
