/*
 * test_cases.c - the data-driven test runner: walks tests/cases/<area>/<name>/
 * (or the folder given as argv[1]) and runs each case folder's operation on
 * its input, comparing with its expected output or error. The case format
 * and the areas are documented in tests/cases/README.md.
 *
 *   test_cases [DIR] [--expect-failures N]
 *
 * Prints one line per case ("ok" or "FAIL" with the reason: the first
 * differing byte, expected against got) and a count. Exits 0 when every case
 * passes (at least one ran), or with --expect-failures N when exactly N
 * failed (the selftest over tests/cases_bad/). A case folder that cannot be
 * run as written (no expected file, an unknown file, flag, area or type) is
 * a failure, so a typo never passes silently.
 */
#include "fixtures/bind_types.h"
#include "tyjson.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ----------------------------------------------------------------------------
 * Bytes and files
 * ------------------------------------------------------------------------- */
typedef struct bytes {
    char *ptr; /* NUL-terminated; NULL when absent */
    size_t len;
} bytes;

static void bytes_free(bytes *b) {
    free(b->ptr);
    b->ptr = NULL;
    b->len = 0;
}

/* out = a/b; false when it does not fit. */
static bool join_path(char *out, size_t cap, const char *a, const char *b) {
    int n = snprintf(out, cap, "%s/%s", a, b);
    return n >= 0 && (size_t)n < cap;
}

/* Reads dir/name whole; false (and b->ptr NULL) when the file is absent. */
static bool read_case_file(const char *dir, const char *name, bytes *b) {
    char path[4096];
    b->ptr = NULL;
    b->len = 0;
    if (!join_path(path, sizeof(path), dir, name)) return false;
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    size_t cap = 4096, n = 0;
    char *buf = (char *)malloc(cap + 1);
    for (size_t got = 1; buf && got > 0;) {
        if (n == cap) {
            char *nb = (char *)realloc(buf, cap * 2 + 1);
            if (!nb) { free(buf); buf = NULL; break; }
            buf = nb;
            cap *= 2;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    }
    fclose(f);
    if (!buf) return false;
    buf[n] = 0;
    b->ptr = buf;
    b->len = n;
    return true;
}

/* Drops trailing newlines (and CRs): for the small text files of a case. */
static void trim_end(bytes *b) {
    while (b->len && (b->ptr[b->len - 1] == '\n' || b->ptr[b->len - 1] == '\r')) b->ptr[--b->len] = 0;
}

static int name_cmp(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

typedef struct name_list {
    char **names;
    size_t count;
} name_list;

static void name_list_free(name_list *l) {
    for (size_t i = 0; i < l->count; i++) free(l->names[i]);
    free(l->names);
    l->names = NULL;
    l->count = 0;
}

/* The entries of a folder (not "." or ".."), sorted; false if it cannot be
 * opened. */
static bool list_dir(const char *dir, name_list *out) {
    out->names = NULL;
    out->count = 0;
    DIR *d = opendir(dir);
    if (!d) return false;
    size_t cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        if (out->count == cap) {
            cap = cap ? cap * 2 : 32;
            char **nn = (char **)realloc(out->names, cap * sizeof(*nn));
            if (!nn) break;
            out->names = nn;
        }
        size_t n = strlen(e->d_name);
        char *copy = (char *)malloc(n + 1);
        if (!copy) break;
        memcpy(copy, e->d_name, n + 1);
        out->names[out->count++] = copy;
    }
    closedir(d);
    if (out->count) qsort(out->names, out->count, sizeof(*out->names), name_cmp);
    return true;
}

static bool is_dir(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* ----------------------------------------------------------------------------
 * One case: what it says, what it got, why it failed
 * ------------------------------------------------------------------------- */
typedef enum flag_kind { FLAG_READ, FLAG_WRITE, FLAG_DECODE } flag_kind;

typedef struct flag_name {
    const char *name;
    flag_kind kind;
    uint32_t bit;
} flag_name;

#define FLAG(kind, name) {#name, kind, name}
static const flag_name flag_table[] = {
    FLAG(FLAG_READ, TYJSON_READ_ALLOW_COMMENTS),
    FLAG(FLAG_READ, TYJSON_READ_ALLOW_TRAILING_COMMAS),
    FLAG(FLAG_READ, TYJSON_READ_ALLOW_INF_NAN),
    FLAG(FLAG_READ, TYJSON_READ_ALLOW_BOM),
    FLAG(FLAG_READ, TYJSON_READ_ALLOW_INVALID_UTF8),
    FLAG(FLAG_READ, TYJSON_READ_STOP_WHEN_DONE),
    FLAG(FLAG_READ, TYJSON_READ_REJECT_DUPLICATE_KEYS),
    FLAG(FLAG_READ, TYJSON_READ_BIGNUM_AS_RAW),
    FLAG(FLAG_WRITE, TYJSON_WRITE_PRETTY),
    FLAG(FLAG_WRITE, TYJSON_WRITE_ESCAPE_UNICODE),
    FLAG(FLAG_WRITE, TYJSON_WRITE_ESCAPE_SLASH),
    FLAG(FLAG_WRITE, TYJSON_WRITE_ALLOW_INF_NAN),
    FLAG(FLAG_WRITE, TYJSON_WRITE_REPLACE_INVALID_UTF8),
    FLAG(FLAG_WRITE, TYJSON_WRITE_NEWLINE_AT_END),
    FLAG(FLAG_DECODE, TYJSON_DECODE_BORROW),
    FLAG(FLAG_DECODE, TYJSON_DECODE_UNKNOWN_ERROR),
    FLAG(FLAG_DECODE, TYJSON_DECODE_STOP_WHEN_DONE),
};
#undef FLAG

/* The expected error: status always, the other lines when given. */
typedef struct want_error {
    tyjson_status status;
    bool has_offset, has_line, has_column;
    size_t offset, line, column;
    char message[TYJSON_ERROR_MSG_MAX];
    char path[TYJSON_ERROR_PATH_MAX];
} want_error;

typedef struct case_ctx {
    const char *dir;  /* the case folder */
    bytes input;
    bytes output;     /* expected bytes, or ptr NULL when an error is expected */
    want_error error;
    bytes pointer;    /* pointer area */
    bytes type;       /* bind area */
    tyjson_read_flags rflags;
    tyjson_write_flags wflags;
    tyjson_decode_flags dflags;
    char why[1024];   /* the first failure, empty while the case holds */
} case_ctx;

static bool fail(case_ctx *c, const char *fmt, ...) {
    if (c->why[0]) return false; /* keep the first reason */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->why, sizeof(c->why), fmt, ap);
    va_end(ap);
    return false;
}

/* Appends up to 24 bytes of s from `at` to out, escaped so that control
 * bytes and non-ASCII show. */
static void excerpt(char *out, size_t cap, const char *s, size_t len, size_t at) {
    size_t n = 0, end = at + 24 < len ? at + 24 : len;
    out[0] = 0;
    for (size_t i = at; i < end && n + 8 < cap; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '\n') n += (size_t)snprintf(out + n, cap - n, "\\n");
        else if (ch < 0x20 || ch >= 0x7f) n += (size_t)snprintf(out + n, cap - n, "\\x%02x", ch);
        else out[n++] = (char)ch, out[n] = 0;
    }
    if (end < len && n + 4 < cap) snprintf(out + n, cap - n, "...");
}

static bool compare_output(case_ctx *c, const char *stage, const char *got, size_t got_len) {
    const bytes *w = &c->output;
    size_t i = 0;
    while (i < w->len && i < got_len && w->ptr[i] == got[i]) i++;
    if (i == w->len && i == got_len) return true;
    char we[128], ge[128];
    excerpt(we, sizeof(we), w->ptr, w->len, i);
    excerpt(ge, sizeof(ge), got, got_len, i);
    return fail(c, "%s: output differs at byte %zu (expected %zu bytes, got %zu)\n"
                   "      expected: \"%s\"\n      got:      \"%s\"",
                stage, i, w->len, got_len, we, ge);
}

static bool compare_error(case_ctx *c, const char *stage, const tyjson_error *e) {
    const want_error *w = &c->error;
    if (!w->status && c->output.ptr)
        return fail(c, "%s failed: TYJSON_%s at offset %zu (%zu:%zu) %s: %s", stage,
                    tyjson_status_name(e->code), e->offset, e->line, e->column, e->path, e->msg);
    if (e->code != w->status)
        return fail(c, "%s: expected TYJSON_%s, got TYJSON_%s (%s)", stage,
                    tyjson_status_name(w->status), tyjson_status_name(e->code), e->msg);
    if (w->has_offset && e->offset != w->offset)
        return fail(c, "%s: expected offset %zu, got %zu", stage, w->offset, e->offset);
    if (w->has_line && e->line != w->line)
        return fail(c, "%s: expected line %zu, got %zu", stage, w->line, e->line);
    if (w->has_column && e->column != w->column)
        return fail(c, "%s: expected column %zu, got %zu", stage, w->column, e->column);
    if (w->message[0] && !strstr(e->msg, w->message))
        return fail(c, "%s: expected a message containing \"%s\", got \"%s\"", stage, w->message, e->msg);
    if (w->path[0] && strcmp(e->path, w->path) != 0)
        return fail(c, "%s: expected path %s, got \"%s\"", stage, w->path, e->path);
    return true;
}

/* The operation succeeded with `got`: right if an output was expected. */
static bool expect_output(case_ctx *c, const char *stage, const char *got, size_t len) {
    if (!c->output.ptr)
        return fail(c, "%s: expected TYJSON_%s, but it succeeded with %zu bytes", stage,
                    tyjson_status_name(c->error.status), len);
    return compare_output(c, stage, got, len);
}

/* ----------------------------------------------------------------------------
 * Reading the case folder
 * ------------------------------------------------------------------------- */
static bool parse_flags(case_ctx *c, char *text) {
    for (char *tok = strtok(text, " \t\r\n"); tok; tok = strtok(NULL, " \t\r\n")) {
        size_t i = 0, n = sizeof(flag_table) / sizeof(flag_table[0]);
        while (i < n && strcmp(flag_table[i].name, tok) != 0) i++;
        if (i == n) return fail(c, "flags: unknown flag \"%s\"", tok);
        if (flag_table[i].kind == FLAG_READ) c->rflags |= flag_table[i].bit;
        else if (flag_table[i].kind == FLAG_WRITE) c->wflags |= flag_table[i].bit;
        else c->dflags |= flag_table[i].bit;
    }
    return true;
}

static bool parse_status(case_ctx *c, const char *name) {
    if (strncmp(name, "TYJSON_", 7) == 0) {
        for (int s = 1; s < (int)TYJSON__STATUS_COUNT; s++) {
            if (strcmp(tyjson_status_name((tyjson_status)s), name + 7) == 0) {
                c->error.status = (tyjson_status)s;
                return true;
            }
        }
    }
    return fail(c, "error: unknown status \"%s\"", name);
}

static bool parse_count(case_ctx *c, const char *key, const char *val, bool *has, size_t *out) {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(val, &end, 10);
    if (errno || end == val || *end) return fail(c, "error: %s needs a number, not \"%s\"", key, val);
    *has = true;
    *out = (size_t)v;
    return true;
}

static bool copy_text(case_ctx *c, const char *key, const char *val, char *out, size_t cap) {
    size_t n = strlen(val);
    if (n == 0 || n >= cap) return fail(c, "error: %s must be 1 to %zu bytes", key, cap - 1);
    memcpy(out, val, n + 1);
    return true;
}

/* One line of the error file: "key value". */
static bool parse_error_line(case_ctx *c, char *line) {
    char *val = strchr(line, ' ');
    if (!val) return fail(c, "error: line \"%s\" has no value", line);
    *val++ = 0;
    want_error *w = &c->error;
    if (strcmp(line, "status") == 0) return parse_status(c, val);
    if (strcmp(line, "offset") == 0) return parse_count(c, line, val, &w->has_offset, &w->offset);
    if (strcmp(line, "line") == 0) return parse_count(c, line, val, &w->has_line, &w->line);
    if (strcmp(line, "column") == 0) return parse_count(c, line, val, &w->has_column, &w->column);
    if (strcmp(line, "message") == 0) return copy_text(c, line, val, w->message, sizeof(w->message));
    if (strcmp(line, "path") == 0) return copy_text(c, line, val, w->path, sizeof(w->path));
    return fail(c, "error: unknown key \"%s\"", line);
}

static bool parse_error_file(case_ctx *c, char *text) {
    for (char *line = text; line && *line;) {
        char *next = strchr(line, '\n');
        if (next) *next++ = 0;
        size_t n = strlen(line);
        if (n && line[n - 1] == '\r') line[--n] = 0;
        if (n && !parse_error_line(c, line)) return false;
        line = next;
    }
    if (!c->error.status) return fail(c, "error: no status line");
    return true;
}

static const char *const known_files[] = {"input.json", "input.txt", "flags", "output.json",
                                          "error", "pointer", "type"};

static bool check_file_names(case_ctx *c) {
    name_list files;
    if (!list_dir(c->dir, &files)) return fail(c, "cannot open the case folder");
    for (size_t i = 0; i < files.count && !c->why[0]; i++) {
        size_t k = 0, n = sizeof(known_files) / sizeof(known_files[0]);
        while (k < n && strcmp(known_files[k], files.names[i]) != 0) k++;
        if (k == n) fail(c, "unknown file \"%s\" (see tests/cases/README.md)", files.names[i]);
    }
    name_list_free(&files);
    return !c->why[0];
}

static bool load_input(case_ctx *c) {
    bytes txt;
    bool json = read_case_file(c->dir, "input.json", &c->input);
    bool text = read_case_file(c->dir, "input.txt", &txt);
    if (json && text) {
        bytes_free(&txt);
        return fail(c, "both input.json and input.txt");
    }
    if (text) c->input = txt;
    if (!json && !text) return fail(c, "no input.json or input.txt");
    return true;
}

static bool load_expected(case_ctx *c) {
    bytes err;
    bool out = read_case_file(c->dir, "output.json", &c->output);
    bool has_err = read_case_file(c->dir, "error", &err);
    if (out && has_err) {
        bytes_free(&err);
        return fail(c, "both output.json and error: expect one");
    }
    if (!out && !has_err) return fail(c, "no expected file (output.json or error)");
    if (!has_err) return true;
    bool ok = parse_error_file(c, err.ptr);
    bytes_free(&err);
    return ok;
}

static bool load_case(case_ctx *c) {
    if (!check_file_names(c) || !load_input(c) || !load_expected(c)) return false;
    bytes flags;
    if (read_case_file(c->dir, "flags", &flags)) {
        bool ok = parse_flags(c, flags.ptr);
        bytes_free(&flags);
        if (!ok) return false;
    }
    if (read_case_file(c->dir, "pointer", &c->pointer)) trim_end(&c->pointer);
    if (read_case_file(c->dir, "type", &c->type)) trim_end(&c->type);
    return true;
}

/* ----------------------------------------------------------------------------
 * The areas
 * ------------------------------------------------------------------------- */
static tyjson_doc *parse_input(case_ctx *c, const char *text, size_t len, tyjson_error *err) {
    tyjson_read_options ro = {c->rflags, 0, NULL};
    return tyjson_read_opts(text, len, &ro, err);
}

static char *write_val(case_ctx *c, const tyjson_val *val, size_t *len, tyjson_error *err) {
    tyjson_write_options wo = {c->wflags, 0, NULL};
    return tyjson_val_write_opts(val, &wo, len, err);
}

/* parse: parse with the read flags, write with the write flags (none:
 * minified); either step may give the expected error. */
static bool run_parse(case_ctx *c) {
    tyjson_error err;
    tyjson_doc *doc = parse_input(c, c->input.ptr, c->input.len, &err);
    if (!doc) return compare_error(c, "parse", &err);
    size_t len = 0;
    char *text = write_val(c, tyjson_doc_get_root(doc), &len, &err);
    bool ok = text ? expect_output(c, "parse+write", text, len) : compare_error(c, "write", &err);
    free(text);
    tyjson_doc_free(doc);
    return ok;
}

/* write: the input must parse; the write with the write flags gives the
 * output or the error. */
static bool run_write(case_ctx *c) {
    tyjson_error err;
    tyjson_doc *doc = parse_input(c, c->input.ptr, c->input.len, &err);
    if (!doc)
        return fail(c, "the input does not parse: TYJSON_%s at %zu (%s)",
                    tyjson_status_name(err.code), err.offset, err.msg);
    size_t len = 0;
    char *text = write_val(c, tyjson_doc_get_root(doc), &len, &err);
    bool ok = text ? expect_output(c, "write", text, len) : compare_error(c, "write", &err);
    free(text);
    tyjson_doc_free(doc);
    return ok;
}

/* roundtrip: parse -> write -> parse -> write; both texts are the output. */
static bool run_roundtrip(case_ctx *c) {
    tyjson_error err;
    char *texts[2] = {NULL, NULL};
    size_t lens[2] = {0, 0};
    const char *src = c->input.ptr;
    size_t src_len = c->input.len;
    bool ok = true;
    for (int round = 0; round < 2 && ok; round++) {
        tyjson_doc *doc = parse_input(c, src, src_len, &err);
        if (!doc) {
            ok = compare_error(c, round ? "parse of the written text" : "parse", &err);
            break;
        }
        texts[round] = write_val(c, tyjson_doc_get_root(doc), &lens[round], &err);
        tyjson_doc_free(doc);
        if (!texts[round]) {
            ok = compare_error(c, round ? "second write" : "write", &err);
            break;
        }
        ok = expect_output(c, round ? "second write" : "first write", texts[round], lens[round]);
        src = texts[round];
        src_len = lens[round];
    }
    free(texts[0]);
    free(texts[1]);
    return ok;
}

/* pointer: the value at the `pointer` file's pointer, written. */
static bool run_pointer(case_ctx *c) {
    if (!c->pointer.ptr) return fail(c, "the pointer area needs a `pointer` file");
    tyjson_error err;
    tyjson_doc *doc = parse_input(c, c->input.ptr, c->input.len, &err);
    if (!doc)
        return fail(c, "the input does not parse: TYJSON_%s at %zu (%s)",
                    tyjson_status_name(err.code), err.offset, err.msg);
    bool ok;
    tyjson_val *val = tyjson_ptr_getx(tyjson_doc_get_root(doc), c->pointer.ptr, c->pointer.len, &err);
    if (!val) {
        ok = compare_error(c, "pointer", &err);
    } else {
        size_t len = 0;
        char *text = write_val(c, val, &len, &err);
        ok = text ? expect_output(c, "pointer+write", text, len) : compare_error(c, "write", &err);
        free(text);
    }
    tyjson_doc_free(doc);
    return ok;
}

/* mut: parse, copy into a mutable document, write that. */
static bool run_mut(case_ctx *c) {
    tyjson_error err;
    tyjson_doc *doc = parse_input(c, c->input.ptr, c->input.len, &err);
    if (!doc) return compare_error(c, "parse", &err);
    tyjson_mut_doc *mdoc = tyjson_doc_mut_copy(doc, NULL);
    tyjson_doc_free(doc);
    if (!mdoc) return fail(c, "tyjson_doc_mut_copy failed");
    tyjson_write_options wo = {c->wflags, 0, NULL};
    size_t len = 0;
    char *text = tyjson_mut_write_opts(mdoc, &wo, &len, &err);
    bool ok = text ? expect_output(c, "mut write", text, len) : compare_error(c, "mut write", &err);
    free(text);
    tyjson_mut_doc_free(mdoc);
    return ok;
}

/* bind: decode into the fixture type named by `type`, then encode. */
static bool run_bind(case_ctx *c) {
    if (!c->type.ptr) return fail(c, "the bind area needs a `type` file");
    tyjson_struct *type = bind_fixture_find(c->type.ptr);
    if (!type) return fail(c, "type: no fixture called \"%s\" in fixtures/bind_types.h", c->type.ptr);
    void *out = calloc(1, type->size);
    if (!out) return fail(c, "out of memory");
    tyjson_arena arena;
    tyjson_arena_init(&arena, NULL);
    size_t used = 0;
    tyjson_decode_options o = {c->dflags, c->rflags, 0, &used};
    tyjson_error err;
    bool ok;
    if (tyjson_decode(type, out, c->input.ptr, c->input.len, &arena, &o, &err) != TYJSON_OK) {
        ok = compare_error(c, "decode", &err);
    } else {
        tyjson_write_options wo = {c->wflags, 0, NULL};
        size_t len = 0;
        char *text = tyjson_encode(type, out, &wo, &len, &err);
        ok = text ? expect_output(c, "decode+encode", text, len) : compare_error(c, "encode", &err);
        free(text);
    }
    tyjson_arena_free(&arena);
    free(out);
    return ok;
}

typedef struct area {
    const char *name;
    bool (*run)(case_ctx *c);
} area;

static const area areas[] = {
    {"parse", run_parse}, {"write", run_write}, {"roundtrip", run_roundtrip},
    {"pointer", run_pointer}, {"mut", run_mut}, {"bind", run_bind},
};

static const area *find_area(const char *name) {
    for (size_t i = 0; i < sizeof(areas) / sizeof(areas[0]); i++)
        if (strcmp(areas[i].name, name) == 0) return &areas[i];
    return NULL;
}

/* ----------------------------------------------------------------------------
 * The walk
 * ------------------------------------------------------------------------- */
typedef struct tally {
    unsigned run, failed;
} tally;

static void report(tally *t, const char *area_name, const char *case_name, const char *why) {
    t->run++;
    if (why[0]) {
        t->failed++;
        printf("  FAIL %s/%s: %s\n", area_name, case_name, why);
    } else {
        printf("  ok   %s/%s\n", area_name, case_name);
    }
}

/* A `pointer` or `type` file outside its area would be ignored: refuse it. */
static bool area_files_fit(case_ctx *c, const area *a) {
    if (c->pointer.ptr && a->run != run_pointer) return fail(c, "a `pointer` file outside the pointer area");
    if (c->type.ptr && a->run != run_bind) return fail(c, "a `type` file outside the bind area");
    return true;
}

static void run_case(tally *t, const area *a, const char *area_name, const char *dir,
                     const char *case_name) {
    case_ctx c;
    memset(&c, 0, sizeof(c));
    c.dir = dir;
    if (!a) fail(&c, "unknown area \"%s\" (see tests/cases/README.md)", area_name);
    else if (load_case(&c) && area_files_fit(&c, a)) a->run(&c);
    report(t, area_name, case_name, c.why);
    bytes_free(&c.input);
    bytes_free(&c.output);
    bytes_free(&c.pointer);
    bytes_free(&c.type);
}

static void run_area(tally *t, const char *root, const char *area_name) {
    char dir[4096];
    if (!join_path(dir, sizeof(dir), root, area_name)) {
        report(t, area_name, "(none)", "the area's path is too long");
        return;
    }
    if (!is_dir(dir)) return; /* README.md and other files beside the areas */
    name_list cases;
    if (!list_dir(dir, &cases) || cases.count == 0) {
        report(t, area_name, "(none)", "an area folder without cases");
        return;
    }
    const area *a = find_area(area_name);
    for (size_t i = 0; i < cases.count; i++) {
        char case_dir[4096];
        if (!join_path(case_dir, sizeof(case_dir), dir, cases.names[i]) || !is_dir(case_dir)) {
            report(t, area_name, cases.names[i], "a file where a case folder belongs");
            continue;
        }
        run_case(t, a, area_name, case_dir, cases.names[i]);
    }
    name_list_free(&cases);
}

int main(int argc, char **argv) {
    const char *root = TYJSON_SOURCE_DIR "/tests/cases";
    long expect_failures = -1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--expect-failures") == 0 && i + 1 < argc) expect_failures = atol(argv[++i]);
        else root = argv[i];
    }
    name_list area_names;
    if (!list_dir(root, &area_names)) {
        printf("cannot open %s\n", root);
        return 1;
    }
    tally t = {0, 0};
    for (size_t i = 0; i < area_names.count; i++) run_area(&t, root, area_names.names[i]);
    name_list_free(&area_names);
    printf("%u cases: %u passed, %u failed (in %s)\n", t.run, t.run - t.failed, t.failed, root);
    if (expect_failures >= 0) {
        if ((long)t.failed == expect_failures) return 0;
        printf("expected exactly %ld failures\n", expect_failures);
        return 1;
    }
    return t.run > 0 && t.failed == 0 ? 0 : 1;
}
