/*
 * test_cli_stream.c - the CLI's single-document commands run through the
 * pull reader and the streaming writer: their output equals the DOM's on
 * every corpus file (pretty, minify, stats, get), memory stays bounded on a
 * 100 MB document from a file and from a pipe (peak RSS of the process,
 * measured by wait4), get stops reading at its value, and the progress
 * line appears when asked for. Skips when the tool was not built.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* wait4: the peak RSS of one child */
#include "test.h"
#include "tyjson.h"

#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#define CLI TYJSON_BINARY_DIR "/tyjson"

/* Under AddressSanitizer the tool's RSS holds the shadow memory and the
 * quarantine of freed blocks: the bound is checked in the plain build. */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

static char dir[64];

static void need_cli(void) {
    FILE *f = fopen(CLI, "rb");
    if (!f) TEST_SKIP("%s not built", CLI);
    fclose(f);
    if (!dir[0]) {
        strcpy(dir, "/tmp/tyjson_clis_XXXXXX");
        if (!mkdtemp(dir)) TEST_FAIL("mkdtemp failed");
    }
}

/* Runs `sh -c cmd` (in dir); returns the exit status and the peak RSS in
 * KiB of the largest process of the command (wait4 reports the child and
 * the children it waited for). */
static int run_sh(const char *cmd, long *peak_kib) {
    char full[4096];
    snprintf(full, sizeof(full), "cd '%s' && %s", dir, cmd);
    pid_t pid = fork();
    if (pid < 0) TEST_FAIL("fork failed");
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", full, (char *)NULL);
        _exit(127);
    }
    int st;
    struct rusage ru;
    if (wait4(pid, &st, 0, &ru) != pid) TEST_FAIL("wait4 failed");
    if (peak_kib) *peak_kib = ru.ru_maxrss;
    if (!WIFEXITED(st)) TEST_FAIL("'%s' killed by a signal", cmd);
    return WEXITSTATUS(st);
}

static char *slurp(const char *name, size_t *len) {
    char path[256];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    char *s = test_read_file(path, len);
    if (!s) TEST_FAIL("cannot read %s", path);
    return s;
}

static void put(const char *name, const char *data, size_t n) {
    char path[256];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || (n && fwrite(data, 1, n, f) != n)) TEST_FAIL("cannot write %s", path);
    fclose(f);
}

/* The DOM's text for dat with the CLI's flags: what the CLI must print. */
static char *dom_text(const char *dat, size_t len, tyjson_write_flags wf, const char *ptr) {
    tyjson_read_options ro = {TYJSON_READ_BIGNUM_AS_RAW, 0, NULL};
    tyjson_doc *doc = tyjson_read_opts(dat, len, &ro, NULL);
    if (!doc) return NULL;
    const tyjson_val *v = ptr ? tyjson_ptr_get(tyjson_doc_get_root(doc), ptr) : tyjson_doc_get_root(doc);
    tyjson_write_options wo = {wf | TYJSON_WRITE_NEWLINE_AT_END, 0, NULL};
    char *t = v ? tyjson_val_write_opts(v, &wo, NULL, NULL) : NULL;
    tyjson_doc_free(doc);
    return t;
}

static const char *const corpus[] = {
    "twitter.json", "citm_catalog.json", "canada.json", "github_events.json", "mesh.json",
    "gsoc-2018.json", "numbers.json", "twitterescaped.json", "update-center.json", "instruments.json",
};

TEST(pretty_minify_get_equal_the_dom_on_the_corpus) {
    need_cli();
    int seen = 0;
    for (size_t i = 0; i < sizeof(corpus) / sizeof(corpus[0]); i++) {
        char src[512];
        snprintf(src, sizeof(src), "%s/corpus/%s", TYJSON_SHARED_DIR, corpus[i]);
        size_t len;
        char *dat = test_read_file(src, &len);
        if (!dat) continue;
        seen++;
        static const struct {
            const char *args;
            tyjson_write_flags wf;
            const char *ptr;
        } runs[] = {
            {"pretty", TYJSON_WRITE_PRETTY, NULL},
            {"minify", 0, NULL},
            {"minify --ascii", TYJSON_WRITE_ESCAPE_UNICODE, NULL},
            {"pretty --indent 4", TYJSON_WRITE_PRETTY, NULL},
            {"get /0", 0, "/0"},
            {"get /statuses/3/user", 0, "/statuses/3/user"},
        };
        for (size_t k = 0; k < sizeof(runs) / sizeof(runs[0]); k++) {
            tyjson_write_flags wf = runs[k].wf;
            char *want;
            if (k == 3) {
                tyjson_read_options ro = {TYJSON_READ_BIGNUM_AS_RAW, 0, NULL};
                tyjson_doc *doc = tyjson_read_opts(dat, len, &ro, NULL);
                tyjson_write_options wo = {wf | TYJSON_WRITE_NEWLINE_AT_END, 4, NULL};
                want = tyjson_write_opts(doc, &wo, NULL, NULL);
                tyjson_doc_free(doc);
            } else {
                want = dom_text(dat, len, wf, runs[k].ptr);
            }
            char cmd[1024];
            snprintf(cmd, sizeof(cmd), "'%s' %s '%s' >out.txt 2>err.txt", CLI, runs[k].args, src);
            int rc = run_sh(cmd, NULL);
            size_t n;
            char *out = slurp("out.txt", &n);
            if (want) {
                if (rc != 0 || n != strlen(want) || memcmp(out, want, n) != 0)
                    TEST_FAIL("%s %s: output differs from the DOM's (rc %d, %zu vs %zu bytes)",
                              runs[k].args, corpus[i], rc, n, strlen(want));
            } else {
                ASSERT_EQ_INT(rc, 1); /* no such value */
                ASSERT_EQ_UINT(n, 0);
            }
            free(out);
            free(want);
        }
        free(dat);
    }
    if (!seen) TEST_SKIP("no corpus under %s", TYJSON_SHARED_DIR);
}

/* About 100 MB: an array of records, every kind of value in each. */
#define BIG_RECORDS 700000u

static void make_big(void) {
    char path[256];
    snprintf(path, sizeof(path), "%s/big.json", dir);
    FILE *f = fopen(path, "rb");
    if (f) {
        fclose(f);
        return;
    }
    f = fopen(path, "wb");
    if (!f) TEST_FAIL("cannot create %s", path);
    fputc('[', f);
    for (unsigned i = 0; i < BIG_RECORDS; i++) {
        fprintf(f,
                        "%s{\"id\":%u,\"name\":\"record number %u with some text\","
                        "\"score\":%u.25,\"tags\":[\"a\",\"b\\n\",\"\\u00e9\"],\"ok\":%s,"
                        "\"none\":null,\"nested\":{\"x\":-%u,\"y\":[1,2,3]}}",
                        i ? "," : "", i, i, i % 1000, i & 1 ? "true" : "false", i);
    }
    fputs("]\n", f);
    fclose(f);
}

TEST(memory_stays_bounded_on_a_100_mb_document) {
    need_cli();
    make_big();
    static const char *const cmds[] = {
        "'%s' validate big.json",
        "cat big.json | '%s' validate",
        "'%s' stats big.json >stats.txt",
        "cat big.json | '%s' stats >stats.txt",
        "'%s' get /699999/nested/x big.json >get.txt",
        "cat big.json | '%s' get /350000/name >get.txt",
        "'%s' minify big.json >/dev/null",
        "cat big.json | '%s' pretty >/dev/null",
    };
    for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
        char cmd[512];
        snprintf(cmd, sizeof(cmd), cmds[i], CLI);
        long kib;
        int rc = run_sh(cmd, &kib);
        if (rc != 0) TEST_FAIL("%s: exit %d", cmd, rc);
        /* the document is ~100 MB; the bound is a few MB of window, hint
         * prefix and writer buffer, plus the program itself (the issue's
         * limit is 64 MiB for any size) */
        if (!UNDER_ASAN && kib > 32 * 1024) TEST_FAIL("%s: peak RSS %ld KiB", cmd, kib);
        if (i == 2 || i == 3) {
            char *st = slurp("stats.txt", NULL);
            if (!strstr(st, "documents: 1\nobjects: 1400000\narrays: 1400001\n"))
                TEST_FAIL("stats: %s", st);
            free(st);
        }
    }
    char *g = slurp("get.txt", NULL);
    ASSERT_EQ_STR(g, "\"record number 350000 with some text\"\n");
    free(g);
}

TEST(get_stops_reading_at_its_value) {
    need_cli();
    /* the value comes first, garbage after it is never read */
    static const char early[] = "{\"a\":[1,{\"b\":2}], \"z\": not json at all";
    put("early.json", early, strlen(early));
    int rc = run_sh("'" CLI "' get /a/1 early.json >out.txt 2>err.txt", NULL);
    ASSERT_EQ_INT(rc, 0);
    char *out = slurp("out.txt", NULL);
    ASSERT_EQ_STR(out, "{\"b\":2}\n");
    free(out);
    /* a miss is known once its container closes */
    rc = run_sh("'" CLI "' get /a/5 early.json >out.txt 2>err.txt", NULL);
    ASSERT_EQ_INT(rc, 1);
    char *err = slurp("err.txt", NULL);
    ASSERT_EQ_STR(err, "early.json: no value at /a/5\n");
    free(err);
}

TEST(invalid_input_after_output_began) {
    need_cli();
    /* 40 KB of valid elements, then an error: what was flushed stays, the
     * error is reported with its place, the status is 1 */
    size_t n = 0;
    char *doc = (char *)malloc(50000);
    doc[n++] = '[';
    while (n < 40000) n += (size_t)sprintf(doc + n, "%s\"element\"", n > 1 ? "," : "");
    n += (size_t)sprintf(doc + n, ",tru]");
    put("late.json", doc, n);
    int rc = run_sh("'" CLI "' minify late.json >out.txt 2>err.txt", NULL);
    ASSERT_EQ_INT(rc, 1);
    char *err = slurp("err.txt", NULL);
    if (!strstr(err, "late.json:1:")) TEST_FAIL("stderr: %s", err);
    free(err);
    size_t out_n;
    char *out = slurp("out.txt", &out_n);
    ASSERT_TRUE(out_n > 0 && out_n < n && memcmp(out, doc, out_n) == 0);
    free(out);
    free(doc);
}

TEST(progress_line_when_asked) {
    need_cli();
    make_big();
    int rc = run_sh("cat big.json | TYJSON_CLI_PROGRESS=1 '" CLI "' validate 2>err.txt", NULL);
    ASSERT_EQ_INT(rc, 0);
    char *err = slurp("err.txt", NULL);
    /* from a pipe: the size is unknown, so MiB read, from 64 MiB on */
    if (!strstr(err, "\r<stdin>: 64 MiB") || err[strlen(err) - 1] != '\n')
        TEST_FAIL("stderr: %s", err);
    free(err);
    rc = run_sh("TYJSON_CLI_PROGRESS=1 '" CLI "' validate big.json 2>err.txt", NULL);
    ASSERT_EQ_INT(rc, 0);
    err = slurp("err.txt", NULL);
    if (!strstr(err, "\rbig.json: 16 of ") || !strstr(err, "(100%)\n")) TEST_FAIL("stderr: %s", err);
    free(err);
    rc = run_sh("TYJSON_CLI_PROGRESS=0 '" CLI "' validate big.json 2>err.txt", NULL);
    err = slurp("err.txt", NULL);
    ASSERT_EQ_STR(err, "");
    free(err);
}

static void remove_files(void) {
    static const char *const names[] = {"big.json", "out.txt", "err.txt", "stats.txt",
                                        "get.txt", "early.json", "late.json"};
    char path[256];
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
        remove(path);
    }
    if (dir[0]) rmdir(dir);
}

int main(int argc, char **argv) {
    int rc = test_main(argc, argv);
    remove_files();
    return rc;
}
