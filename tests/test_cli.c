/*
 * test_cli.c - runs the built `tyjson` tool (tools/tyjson.c) as a separate
 * process and checks exact stdout, stderr and exit status for every
 * command and option.
 *
 * Each run happens in a private temporary directory (`cd DIR && tyjson ...
 * <stdin >out 2>err`), so input files have short relative names and error
 * messages can be compared byte for byte. Skips when the tool was not built
 * (TYJSON_BUILD_TOOLS=OFF).
 */
#define _POSIX_C_SOURCE 200809L
#include "test.h"
#include "tyjson.h"

#include <stdarg.h>
#include <sys/wait.h>
#include <unistd.h>

#define CLI TYJSON_BINARY_DIR "/tyjson"

/* ----------------------------------------------------------------------------
 * Harness
 * ------------------------------------------------------------------------- */

static char tmp_dir[64];
#define MAX_FILES 64
static char *made_files[MAX_FILES];
static int made_count;

static void cleanup(void) {
    char path[256];
    for (int i = 0; i < made_count; i++) {
        snprintf(path, sizeof(path), "%s/%s", tmp_dir, made_files[i]);
        remove(path);
        free(made_files[i]);
    }
    made_count = 0;
    if (tmp_dir[0]) rmdir(tmp_dir);
}

static void need_cli(void) {
    FILE *f = fopen(CLI, "rb");
    if (!f) TEST_SKIP("%s not built", CLI);
    fclose(f);
    if (!tmp_dir[0]) {
        strcpy(tmp_dir, "/tmp/tyjson_cli_XXXXXX");
        if (!mkdtemp(tmp_dir)) {
            tmp_dir[0] = 0;
            TEST_FAIL("mkdtemp failed");
        }
        atexit(cleanup);
    }
}

/* Creates (or replaces) DIR/name with n bytes. */
static void put_file(const char *name, const char *data, size_t n) {
    char path[256];
    snprintf(path, sizeof(path), "%s/%s", tmp_dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) TEST_FAIL("cannot create %s", path);
    if (n && fwrite(data, 1, n, f) != n) TEST_FAIL("cannot write %s", path);
    fclose(f);
    for (int i = 0; i < made_count; i++)
        if (strcmp(made_files[i], name) == 0) return;
    if (made_count < MAX_FILES) {
        made_files[made_count] = (char *)malloc(strlen(name) + 1);
        if (made_files[made_count]) strcpy(made_files[made_count++], name);
    }
}

static void put_text(const char *name, const char *text) { put_file(name, text, strlen(text)); }

/* Output of the last run; freed by the next one. */
static char *out_text, *err_text;
static size_t out_len;

static char *slurp(const char *name, size_t *len) {
    char path[256];
    snprintf(path, sizeof(path), "%s/%s", tmp_dir, name);
    char *s = test_read_file(path, len);
    if (!s) TEST_FAIL("cannot read %s", path);
    return s;
}

/* Runs `tyjson ARGS` with stdin from `in` (n bytes; piped through cat when
 * `pipe` is set, else redirected from a file). Returns the exit status. */
static int run_in(const char *in, size_t n, int pipe, const char *fmt, ...) {
    char args[1024], cmd[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof(args), fmt, ap);
    va_end(ap);
    put_file("stdin.txt", in ? in : "", in ? n : 0);
    put_file("out.txt", "", 0);
    put_file("err.txt", "", 0);
    snprintf(cmd, sizeof(cmd), "cd '%s' && %s'%s' %s %s >out.txt 2>err.txt", tmp_dir,
             pipe ? "cat stdin.txt | " : "", CLI, args, pipe ? "" : "<stdin.txt");
    int st = system(cmd);
    if (st == -1) TEST_FAIL("system() failed");
    free(out_text);
    free(err_text);
    out_text = slurp("out.txt", &out_len);
    err_text = slurp("err.txt", NULL);
    if (!WIFEXITED(st)) TEST_FAIL("tyjson %s: killed by a signal", args);
    return WEXITSTATUS(st);
}

#define RUN(...) run_in(NULL, 0, 0, __VA_ARGS__)
#define RUN_STDIN(text, ...) run_in((text), strlen(text), 0, __VA_ARGS__)
#define RUN_PIPE(text, ...) run_in((text), strlen(text), 1, __VA_ARGS__)

/* Checks the three results of the last run. */
#define EXPECT(code, out, err)                                                 \
    do {                                                                       \
        ASSERT_EQ_STR(err_text, (err));                                        \
        ASSERT_EQ_STR(out_text, (out));                                        \
        ASSERT_EQ_INT(test__rc, (code));                                       \
    } while (0)

static int test__rc;
#define CHECK(call, code, out, err)                                            \
    do {                                                                       \
        test__rc = (call);                                                     \
        EXPECT(code, out, err);                                                \
    } while (0)

#define TRY_HELP "Try 'tyjson --help' for more information.\n"

static const char small_doc[] =
    "{\"a\": [1, 2.5, -3, \"x\", true, null, {}],\n"
    " \"b\": {\"c\": [[]], \"d~e/f\": false},\n"
    " \"s\": \"\\u00e9\"}\n";

/* ----------------------------------------------------------------------------
 * validate
 * ------------------------------------------------------------------------- */

TEST(validate_valid_file_is_silent) {
    need_cli();
    put_text("ok.json", small_doc);
    CHECK(RUN("validate ok.json"), 0, "", "");
}

TEST(validate_invalid_file_reports_line_col) {
    need_cli();
    put_text("bad.json", "[1,\n2,]");
    CHECK(RUN("validate bad.json"), 1, "",
          "bad.json:2:3: expected a value after ',', found ']'\n" "bad.json: hint: a trailing comma is not JSON; --trailing-commas accepts it\n");
}

TEST(validate_every_input_worst_status) {
    need_cli();
    put_text("ok.json", small_doc);
    put_text("bad.json", "[1,\n2,]");
    put_text("trunc.json", "{\"a\": [1");
    CHECK(RUN("validate ok.json bad.json trunc.json ok.json"), 1, "",
          "bad.json:2:3: expected a value after ',', found ']'\n" "bad.json: hint: a trailing comma is not JSON; --trailing-commas accepts it\n"
          "trunc.json:1:9: expected ',' or ']' after an array element, found end of input\n");
}

TEST(validate_stdin_redirected_piped_and_dash) {
    need_cli();
    CHECK(RUN_STDIN("[1, 2]", "validate"), 0, "", "");
#define X_MSG "<stdin>:3:2: expected a value after ',', found 'x'\n"
    CHECK(RUN_STDIN("[1,\n 2,\n x]", "validate"), 1, "", X_MSG);
    CHECK(RUN_PIPE("[1,\n 2,\n x]", "validate"), 1, "", X_MSG);
    CHECK(RUN_PIPE("[1,\n 2,\n x]", "validate -"), 1, "", X_MSG);
#undef X_MSG
    CHECK(RUN_STDIN("", "validate"), 1, "", "<stdin>:1:1: expected a JSON value, found end of input\n");
    CHECK(RUN_STDIN("1 2", "validate"), 1, "",
          "<stdin>:1:3: expected end of input after the JSON value, found '2'\n");
}

/* ----------------------------------------------------------------------------
 * pretty / minify
 * ------------------------------------------------------------------------- */

TEST(pretty_default_indent) {
    need_cli();
    put_text("doc.json", small_doc);
    CHECK(RUN("pretty doc.json"), 0,
          "{\n"
          "  \"a\": [\n"
          "    1,\n"
          "    2.5,\n"
          "    -3,\n"
          "    \"x\",\n"
          "    true,\n"
          "    null,\n"
          "    {}\n"
          "  ],\n"
          "  \"b\": {\n"
          "    \"c\": [\n"
          "      []\n"
          "    ],\n"
          "    \"d~e/f\": false\n"
          "  },\n"
          "  \"s\": \"\xc3\xa9\"\n"
          "}\n",
          "");
}

TEST(pretty_indent_option_both_forms) {
    need_cli();
    const char *want = "{\n    \"k\": [\n        1\n    ]\n}\n";
    CHECK(RUN_STDIN("{\"k\":[1]}", "pretty --indent 4"), 0, want, "");
    CHECK(RUN_STDIN("{\"k\":[1]}", "--indent=4 pretty"), 0, want, "");
}

TEST(minify_file_and_stdin) {
    need_cli();
    put_text("doc.json", small_doc);
    const char *want =
        "{\"a\":[1,2.5,-3,\"x\",true,null,{}],\"b\":{\"c\":[[]],\"d~e/f\":false},"
        "\"s\":\"\xc3\xa9\"}\n";
    CHECK(RUN("minify doc.json"), 0, want, "");
    CHECK(RUN_PIPE(small_doc, "minify"), 0, want, "");
}

TEST(minify_several_files_one_result_each) {
    need_cli();
    put_text("a.json", " [ 1 ] ");
    put_text("b.json", "{ }");
    CHECK(RUN("minify a.json b.json"), 0, "[1]\n{}\n", "");
}

TEST(minify_ascii_escapes_non_ascii) {
    need_cli();
    CHECK(RUN_STDIN("[\"\xc3\xa9\xf0\x9f\x98\x80\"]", "minify --ascii"), 0,
          "[\"\\u00e9\\ud83d\\ude00\"]\n", "");
}

TEST(minify_invalid_input_writes_nothing) {
    need_cli();
    CHECK(RUN_STDIN("[1,]", "minify"), 1, "",
          "<stdin>:1:4: expected a value after ',', found ']'\n"
          "<stdin>: hint: a trailing comma is not JSON; --trailing-commas accepts it\n");
}

/* ----------------------------------------------------------------------------
 * get
 * ------------------------------------------------------------------------- */

TEST(get_hits) {
    need_cli();
    put_text("doc.json", small_doc);
    CHECK(RUN("get /a/1 doc.json"), 0, "2.5\n", "");
    CHECK(RUN("get /a/6 doc.json"), 0, "{}\n", "");
    CHECK(RUN("get /b doc.json"), 0, "{\"c\":[[]],\"d~e/f\":false}\n", "");
    CHECK(RUN("get /b/d~0e~1f doc.json"), 0, "false\n", "");
    CHECK(RUN("get '' doc.json"), 0,
          "{\"a\":[1,2.5,-3,\"x\",true,null,{}],\"b\":{\"c\":[[]],\"d~e/f\":false},"
          "\"s\":\"\xc3\xa9\"}\n",
          "");
    CHECK(RUN_PIPE(small_doc, "get /s --ascii"), 0, "\"\\u00e9\"\n", "");
}

TEST(get_misses) {
    need_cli();
    put_text("doc.json", small_doc);
    CHECK(RUN("get /zz doc.json"), 1, "", "doc.json: no value at /zz\n");
    CHECK(RUN("get /a/7 doc.json"), 1, "", "doc.json: no value at /a/7\n");
    CHECK(RUN("get /a/01 doc.json"), 1, "", "doc.json: no value at /a/01\n");
    CHECK(RUN_STDIN("[1]", "get /0/x"), 1, "", "<stdin>: no value at /0/x\n");
    /* A miss in one input does not stop the others. */
    put_text("other.json", "{\"zz\": 7}");
    CHECK(RUN("get /zz doc.json other.json"), 1, "7\n", "doc.json: no value at /zz\n");
}

/* ----------------------------------------------------------------------------
 * stats
 * ------------------------------------------------------------------------- */

TEST(stats_small_document) {
    need_cli();
    put_text("doc.json", small_doc);
    CHECK(RUN("stats doc.json"), 0,
          "documents: 1\n"
          "objects: 3\n"
          "arrays: 3\n"
          "strings: 2\n"
          "keys: 5\n"
          "numbers: 3\n"
          "ints: 2\n"
          "reals: 1\n"
          "bools: 2\n"
          "nulls: 1\n"
          "max_depth: 4\n"
          "bytes: 92\n",
          "");
}

TEST(stats_scalar_and_several_inputs) {
    need_cli();
    put_text("a.json", "\"k\"");
    put_text("b.json", "[{\"k\": 18446744073709551615}, -9223372036854775808]\n");
    CHECK(RUN("stats a.json b.json"), 0,
          "documents: 2\n"
          "objects: 1\n"
          "arrays: 1\n"
          "strings: 1\n"
          "keys: 1\n"
          "numbers: 2\n"
          "ints: 2\n"
          "reals: 0\n"
          "bools: 0\n"
          "nulls: 0\n"
          "max_depth: 2\n"
          "bytes: 55\n",
          "");
}

TEST(stats_deep_document_no_recursion) {
    need_cli();
    enum { DEPTH = 100000 };
    char *s = (char *)malloc(2 * DEPTH + 1);
    ASSERT_NOT_NULL(s);
    memset(s, '[', DEPTH);
    memset(s + DEPTH, ']', DEPTH);
    s[2 * DEPTH] = 0;
    put_text("deep.json", s);
    free(s);
    CHECK(RUN("--max-depth 100000 stats deep.json"), 0,
          "documents: 1\nobjects: 0\narrays: 100000\nstrings: 0\nkeys: 0\nnumbers: 0\n"
          "ints: 0\nreals: 0\nbools: 0\nnulls: 0\nmax_depth: 100000\nbytes: 200000\n",
          "");
    CHECK(RUN("--max-depth 99999 validate deep.json"), 1, "",
          "deep.json:1:100000: expected at most 99999 nested arrays and objects, found '[' one "
          "level deeper\n");
    CHECK(RUN("validate deep.json"), 1, "",
          "deep.json:1:1025: expected at most 1024 nested arrays and objects, found '[' one level "
          "deeper\n");
}

/* ----------------------------------------------------------------------------
 * --lines (NDJSON)
 * ------------------------------------------------------------------------- */

static const char ndjson[] =
    "{\"a\":1}\n"
    "\n"
    "[2, {\"a\": [3]}]\r\n"
    "{\"a\":}\n"
    "   \n"
    "\"x\"\n"
    "{\"a\": {\"b\": null}}";

TEST(lines_minify_error_on_line_4_of_file) {
    need_cli();
    put_text("l.ndjson", ndjson);
    CHECK(RUN("--lines minify l.ndjson"), 1,
          "{\"a\":1}\n[2,{\"a\":[3]}]\n\"x\"\n{\"a\":{\"b\":null}}\n",
          "l.ndjson:4:6: expected a value after ':', found '}'\n");
}

TEST(lines_error_on_line_3) {
    need_cli();
    CHECK(RUN_PIPE("[1]\n[2]\n[3,,]\n[4]\n", "validate --lines"), 1, "",
          "<stdin>:3:4: expected a value after ',', found ','\n");
    CHECK(RUN_PIPE("[1]\n[2]\n[3,,]\n[4]\n", "pretty --lines --indent 1"), 1,
          "[\n 1\n]\n[\n 2\n]\n[\n 4\n]\n", "<stdin>:3:4: expected a value after ',', found ','\n");
}

TEST(lines_get_and_stats) {
    need_cli();
    put_text("l.ndjson", ndjson);
    CHECK(RUN("get --lines /a l.ndjson"), 1, "1\n{\"b\":null}\n",
          "l.ndjson:3: no value at /a\n"
          "l.ndjson:4:6: expected a value after ':', found '}'\n"
          "l.ndjson:6: no value at /a\n");
    /* Counted lines, newline included: 1 (8 bytes), 3 (17, CR LF), 6 (4), 7 (18, no newline). */
    CHECK(RUN("stats --lines l.ndjson"), 1,
          "documents: 4\n"
          "objects: 4\n"
          "arrays: 2\n"
          "strings: 1\n"
          "keys: 4\n"
          "numbers: 3\n"
          "ints: 3\n"
          "reals: 0\n"
          "bools: 0\n"
          "nulls: 1\n"
          "max_depth: 3\n"
          "bytes: 47\n",
          "l.ndjson:4:6: expected a value after ':', found '}'\n");
}

TEST(lines_longer_than_read_chunk) {
    need_cli();
    enum { BIG = 200000 };
    char *s = (char *)malloc(BIG + 64);
    ASSERT_NOT_NULL(s);
    size_t n = 0;
    s[n++] = '"';
    memset(s + n, 'a', BIG);
    n += BIG;
    memcpy(s + n, "\"\n[1]\ntrue false\n", 17);
    n += 17;
    put_file("long.ndjson", s, n);
    free(s);
    CHECK(RUN("validate --lines long.ndjson"), 1, "",
          "long.ndjson:3:6: expected end of input after the JSON value, found 'f'\n");
}

/* -j N: the same output, errors and exit status as one thread, on an
 * input of many batches with bad lines, CRLF and blank lines. */
TEST(lines_jobs_same_output) {
    need_cli();
    put_text("l.ndjson", ndjson);
    size_t cap = 1 << 22, n = 0;
    char *big = (char *)malloc(cap);
    ASSERT_NOT_NULL(big);
    for (int i = 0; i < 30000; i++)
        n += (size_t)snprintf(big + n, cap - n, i % 977 == 3 ? "{\"id\":%d,}\n"
                                                 : i % 5 ? "{\"id\":%d,\"v\":[1,2.5,\"x\"]}\r\n"
                                                         : "\n{\"id\":%d}\n", i);
    put_file("big.ndjson", big, n);
    free(big);
    static const char *const cmds[] = {
        "validate --lines l.ndjson", "minify --lines l.ndjson", "stats --lines l.ndjson",
        "pretty --lines l.ndjson", "get --lines /a l.ndjson", "validate --lines big.ndjson",
        "minify --lines big.ndjson", "stats --lines big.ndjson",
        "validate --lines --max-errors 3 big.ndjson l.ndjson"};
    for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
        int rc1 = RUN("%s", cmds[i]);
        char *out1 = out_text, *err1 = err_text;
        out_text = err_text = NULL;
        for (int j = 2; j <= 3; j++) {
            int rc2 = RUN("-j %d %s", j, cmds[i]);
            ASSERT_EQ_INT(rc2, rc1);
            ASSERT_EQ_STR(out_text, out1);
            ASSERT_EQ_STR(err_text, err1);
        }
        free(out1);
        free(err1);
    }
    CHECK(RUN_PIPE("[1]\n[2]\n[3,,]\n[4]\n", "validate --lines --jobs=2"), 1, "",
          "<stdin>:3:4: expected a value after ',', found ','\n");
    CHECK(RUN("validate -j2 l.ndjson"), 2, "", "tyjson: -j applies to --lines input\n" TRY_HELP);
    CHECK(RUN("validate --lines -j 0 l.ndjson"), 2, "",
          "tyjson: -j expects a number of threads from 1 to 256, not '0'\n" TRY_HELP);
}

/* ----------------------------------------------------------------------------
 * Relaxed-input options
 * ------------------------------------------------------------------------- */

#define HINT(text) "<stdin>: hint: " text "\n"
TEST(relaxed_flags_off_then_on_with_hints) {
    need_cli();
    CHECK(RUN_STDIN("[1,/*c*/2]//x", "minify"), 1, "",
          "<stdin>:1:4: expected a value after ',', found '/'\n"
          HINT("comments are not JSON; --comments accepts them"));
    CHECK(RUN_STDIN("[1,/*c*/2]//x", "minify --comments"), 0, "[1,2]\n", "");
    CHECK(RUN_STDIN("{\"a\":[1,],}", "minify"), 1, "",
          "<stdin>:1:9: expected a value after ',', found ']'\n"
          HINT("a trailing comma is not JSON; --trailing-commas accepts it"));
    CHECK(RUN_STDIN("{\"a\":[1,],}", "minify --trailing-commas"), 0, "{\"a\":[1]}\n", "");
    CHECK(RUN_STDIN("[NaN,-Infinity]", "minify"), 1, "",
          "<stdin>:1:2: expected a value or ']', found 'N'\n"
          HINT("NaN and Infinity are not JSON; --inf-nan accepts them"));
    CHECK(RUN_STDIN("[NaN,-Infinity]", "minify --inf-nan"), 0, "[NaN,-Infinity]\n", "");
    CHECK(RUN_STDIN("\xef\xbb\xbf[1]", "minify"), 1, "",
          "<stdin>:1:1: expected a JSON value, found a byte order mark (U+FEFF)\n"
          HINT("the input starts with a UTF-8 byte order mark; --bom skips it"));
    CHECK(RUN_STDIN("\xef\xbb\xbf[1]", "minify --bom"), 0, "[1]\n", "");
    CHECK(RUN_STDIN("[\"\xff\"]", "minify"), 1, "",
          "<stdin>:1:3: expected UTF-8 text in a string, found byte 0xFF\n"
          HINT("the string holds invalid UTF-8; --allow-invalid-utf8 accepts it"));
    CHECK(RUN_STDIN("[\"\xff\"]", "minify --allow-invalid-utf8"), 0, "[\"\xef\xbf\xbd\"]\n", "");
    CHECK(RUN_STDIN("{\"a\":1,\"a\":2}", "get /a"), 0, "1\n", "");
    /* get stops reading at its value: a repeat after it is never seen */
    CHECK(RUN_STDIN("{\"a\":1,\"a\":2}", "get /a --reject-duplicates"), 0, "1\n", "");
    CHECK(RUN_STDIN("{\"o\":{\"a\":1,\"a\":2},\"b\":3}", "get /b --reject-duplicates"), 1, "",
          "<stdin>:1:13: expected unique keys in an object, found 'a' again\n");
    CHECK(RUN_STDIN("[[[]]]", "--max-depth 2 validate"), 1, "",
          "<stdin>:1:3: expected at most 2 nested arrays and objects, found '[' one level deeper\n");
    CHECK(RUN_STDIN("[[[]]]", "--max-depth=3 validate"), 0, "", "");
}

TEST(hint_for_a_second_document_and_lines) {
    need_cli();
    CHECK(RUN_STDIN("{\"a\":1}\n{\"a\":2}\n", "validate"), 1, "",
          "<stdin>:2:1: expected end of input after the JSON value, found '{'\n"
          HINT("the input holds one JSON value per line; --lines reads it as NDJSON"));
    CHECK(RUN_STDIN("{\"a\":1}\n{\"a\":2}\n", "validate --lines"), 0, "", "");
    /* two values on one line are not NDJSON: no hint */
    CHECK(RUN_STDIN("1 2\n", "validate"), 1, "",
          "<stdin>:1:3: expected end of input after the JSON value, found '2'\n");
    /* the hint comes from a pipe too, and per bad line with --lines */
    CHECK(RUN_PIPE("[1,]", "validate"), 1, "",
          "<stdin>:1:4: expected a value after ',', found ']'\n"
          HINT("a trailing comma is not JSON; --trailing-commas accepts it"));
    CHECK(RUN_PIPE("[1]\n[2] // two\n[3]\n", "validate --lines"), 1, "",
          "<stdin>:2:5: expected end of input after the JSON value, found '/'\n"
          HINT("comments are not JSON; --comments accepts them"));
    /* the hint names the option that gets past this error, even when
     * another one follows */
    CHECK(RUN_STDIN("[1, /* c */ 2,]", "validate"), 1, "",
          "<stdin>:1:5: expected a value after ',', found '/'\n"
          HINT("comments are not JSON; --comments accepts them"));
    /* no hint when the option would not help */
    CHECK(RUN_STDIN("[1,/x]", "validate"), 1, "", "<stdin>:1:4: expected a value after ',', found '/'\n");
    CHECK(RUN_STDIN("[1,]", "validate --trailing-commas --comments"), 0, "", "");
    CHECK(RUN_STDIN("[1,,]", "validate"), 1, "", "<stdin>:1:4: expected a value after ',', found ','\n");
    /* each hint once per run */
    put_text("c1.json", "[//\n1]");
    put_text("c2.json", "{//\n}");
    CHECK(RUN("validate c1.json c2.json"), 1, "",
          "c1.json:1:2: expected a value or ']', found '/'\n"
          "c1.json: hint: comments are not JSON; --comments accepts them\n"
          "c2.json:1:2: expected an object key (a string) or '}', found '/'\n");
}
#undef HINT

/* Every RFC 8259 text is accepted by default: big numbers stay as written. */
TEST(big_numbers_accepted_and_written_unchanged) {
    need_cli();
    const char *in = "[100000000000000000000, 1e400, -123456789012345678901, 1.5]";
    CHECK(RUN_STDIN("[100000000000000000000]", "validate"), 0, "", "");
    CHECK(RUN_STDIN("[1e400]", "validate"), 0, "", "");
    CHECK(RUN_STDIN(in, "minify"), 0, "[100000000000000000000,1e400,-123456789012345678901,1.5]\n", "");
    CHECK(RUN_STDIN(in, "minify --bignum-raw"), 0,
          "[100000000000000000000,1e400,-123456789012345678901,1.5]\n", "");
    CHECK(RUN_STDIN(in, "pretty"), 0,
          "[\n  100000000000000000000,\n  1e400,\n  -123456789012345678901,\n  1.5\n]\n", "");
    CHECK(RUN_STDIN("{\"n\":-1E+999}", "get /n"), 0, "-1E+999\n", "");
    CHECK(RUN_STDIN(in, "stats"), 0,
          "documents: 1\nobjects: 0\narrays: 1\nstrings: 0\nkeys: 0\nnumbers: 4\nints: 0\n"
          "reals: 1\nbools: 0\nnulls: 0\nmax_depth: 1\nbytes: 59\n", "");
}

/* Issue 9: a line "nul" is a wrong literal, not the end of the input. */
TEST(lines_wrong_literals_and_numbers) {
    need_cli();
    CHECK(RUN_PIPE("nul\n[1]\ntru e\n1. 2\n", "validate --lines"), 1, "",
          "<stdin>:1:1: expected 'null', found 'nul'\n"
          "<stdin>:3:1: expected 'true', found 'tru'\n"
          "<stdin>:4:3: expected a digit after the decimal point, found a space\n");
    /* the last line has no newline: there the input does end */
    CHECK(RUN_PIPE("[1]\nnul", "validate --lines"), 1, "",
          "<stdin>:2:1: expected 'null', found end of input after 'nul'\n");
}

TEST(lines_max_errors) {
    need_cli();
    const char *in = "x\n[1]\ny\nz\n[2]\nw\n";
    CHECK(RUN_STDIN(in, "validate --lines --max-errors 2"), 1, "",
          "<stdin>:1:1: expected a JSON value, found 'x'\n"
          "<stdin>:3:1: expected a JSON value, found 'y'\n"
          "<stdin>: 2 more invalid lines not reported (--max-errors 2)\n");
    CHECK(RUN_STDIN(in, "minify --lines --max-errors=3"), 1, "[1]\n[2]\n",
          "<stdin>:1:1: expected a JSON value, found 'x'\n"
          "<stdin>:3:1: expected a JSON value, found 'y'\n"
          "<stdin>:4:1: expected a JSON value, found 'z'\n"
          "<stdin>: 1 more invalid line not reported (--max-errors 3)\n");
    CHECK(RUN_STDIN(in, "validate --lines --max-errors 0"), 1, "",
          "<stdin>: 4 more invalid lines not reported (--max-errors 0)\n");
    CHECK(RUN_STDIN(in, "validate --lines --max-errors 4"), 1, "",
          "<stdin>:1:1: expected a JSON value, found 'x'\n"
          "<stdin>:3:1: expected a JSON value, found 'y'\n"
          "<stdin>:4:1: expected a JSON value, found 'z'\n"
          "<stdin>:6:1: expected a JSON value, found 'w'\n");
    /* per input */
    put_text("m1.ndjson", "a\nb\n");
    put_text("m2.ndjson", "c\n");
    CHECK(RUN("validate --lines --max-errors 1 m1.ndjson m2.ndjson"), 1, "",
          "m1.ndjson:1:1: expected a JSON value, found 'a'\n"
          "m1.ndjson: 1 more invalid line not reported (--max-errors 1)\n"
          "m2.ndjson:1:1: expected a JSON value, found 'c'\n");
}

TEST(get_raw_default_quiet) {
    need_cli();
    const char *doc = "{\"s\":\"a\\\"b\\n\\u00e9\",\"n\":[1,2],\"e\":\"\"}";
    CHECK(RUN_STDIN(doc, "get -r /s"), 0, "a\"b\n\xc3\xa9\n", "");
    CHECK(RUN_STDIN(doc, "get --raw /s"), 0, "a\"b\n\xc3\xa9\n", "");
    CHECK(RUN_STDIN(doc, "get /s"), 0, "\"a\\\"b\\n\xc3\xa9\"\n", "");
    CHECK(RUN_STDIN(doc, "get -r /n"), 0, "[1,2]\n", "");
    CHECK(RUN_STDIN(doc, "get -r /e"), 0, "\n", "");
    CHECK(RUN_STDIN(doc, "get /zz --default 'n/a'"), 0, "n/a\n", "");
    CHECK(RUN_STDIN(doc, "get /zz --default=0"), 0, "0\n", "");
    CHECK(RUN_STDIN(doc, "get /n/0 --default=0"), 0, "1\n", "");
    CHECK(RUN_STDIN(doc, "get /zz --quiet"), 1, "", "");
    CHECK(RUN_STDIN(doc, "get -q /zz"), 1, "", "");
    CHECK(RUN_STDIN(doc, "get -q /s"), 0, "\"a\\\"b\\n\xc3\xa9\"\n", "");
    CHECK(RUN_STDIN("{\"a\":\"x\"}\n{}\n{\"a\":\"y\"}\n", "get -r --lines /a --default -"), 0,
          "x\n-\ny\n", "");
    CHECK(RUN_STDIN("{\"a\":\"x\"}\n{}\n", "get --lines -q /a"), 1, "\"x\"\n", "");
}

TEST(command_options_are_checked) {
    need_cli();
    CHECK(RUN_STDIN("[]", "validate -r"), 2, "",
          "tyjson: -r, --quiet and --default are options of get\n" TRY_HELP);
    CHECK(RUN_STDIN("[]", "minify --default 1"), 2, "",
          "tyjson: -r, --quiet and --default are options of get\n" TRY_HELP);
    CHECK(RUN_STDIN("[]", "stats --quiet"), 2, "",
          "tyjson: -r, --quiet and --default are options of get\n" TRY_HELP);
    CHECK(RUN_STDIN("[]", "validate --max-errors 3"), 2, "",
          "tyjson: --max-errors applies to --lines input\n" TRY_HELP);
    CHECK(RUN_STDIN("[]", "validate --lines --max-errors x"), 2, "",
          "tyjson: --max-errors expects a number, not 'x'\n" TRY_HELP);
}

/* The bash completion completes commands and each command's options. */
TEST(bash_completion_completes) {
    need_cli();
    if (system("bash -c true >/dev/null 2>&1") != 0) TEST_SKIP("no bash");
    put_file("out.txt", "", 0); /* so that the cleanup removes it */
    static const struct {
        const char *words;
        int cword;
        const char *want;
    } cases[] = {
        {"tyjson pr", 1, "pretty\n"},
        {"tyjson get --r", 2, "--reject-duplicates --raw\n"},
        {"tyjson pretty --in", 2, "--inf-nan --indent\n"},
        {"tyjson minify --in", 2, "--inf-nan\n"},
        {"tyjson validate --max-e", 2, "--max-errors\n"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char cmd[1024];
        snprintf(cmd, sizeof(cmd),
                 "cd '%s' && bash -c 'source \"%s/tools/tyjson.bash-completion\"; COMP_WORDS=(%s); "
                 "COMP_CWORD=%d; _tyjson; echo \"${COMPREPLY[*]}\"' >out.txt",
                 tmp_dir, TYJSON_SOURCE_DIR, cases[i].words, cases[i].cword);
        ASSERT_EQ_INT(system(cmd), 0);
        free(out_text);
        out_text = slurp("out.txt", &out_len);
        ASSERT_EQ_STR(out_text, cases[i].want);
    }
}

/* The example of the man page's DIAGNOSTICS section. */
TEST(man_page_diagnostic_example) {
    need_cli();
    put_text("doc.json", "{\"a\": 1,\n\"x\": 0,\n\"b\":2 \"c\":3}");
    CHECK(RUN("validate doc.json"), 1, "",
          "doc.json:3:7: expected ',' or '}' after an object member, found '\"'\n");
}

TEST(double_dash_ends_options) {
    need_cli();
    put_text("-dash.json", "[true]");
    CHECK(RUN("minify -- -dash.json"), 0, "[true]\n", "");
}

/* ----------------------------------------------------------------------------
 * Help, version, usage and I/O errors
 * ------------------------------------------------------------------------- */

TEST(help_and_version) {
    need_cli();
    test__rc = RUN("--help");
    ASSERT_EQ_INT(test__rc, 0);
    ASSERT_TRUE(strncmp(out_text, "Usage: tyjson validate|pretty|minify|stats", 42) == 0);
    ASSERT_TRUE(strstr(out_text, "Run 'tyjson COMMAND --help'") != NULL);
    ASSERT_EQ_STR(err_text, "");
    char *help = out_text;
    out_text = NULL;
    test__rc = RUN("-h");
    ASSERT_EQ_STR(out_text, help);
    free(help);
    CHECK(RUN("--version"), 0, "tyjson " TYJSON_VERSION_STRING "\n", "");
}

/* Each command's own help: its usage line and its own options. */
TEST(command_help) {
    need_cli();
    static const struct {
        const char *args, *first_line, *has, *lacks;
    } cases[] = {
        {"validate --help", "Usage: tyjson validate [options] [FILE...]\n", "--max-errors", "--indent"},
        {"pretty -h", "Usage: tyjson pretty [options] [FILE...]\n", "--indent N", "--raw"},
        {"--help minify", "Usage: tyjson minify [options] [FILE...]\n", "--ascii", "--indent"},
        {"stats --help", "Usage: tyjson stats [options] [FILE...]\n", "max_depth (0 for a scalar", "--ascii"},
        {"get --help", "Usage: tyjson get [options] POINTER [FILE...]\n", "-q, --quiet", "--indent"},
        {"get /a --help", "Usage: tyjson get [options] POINTER [FILE...]\n", "--default VALUE", "--indent"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        test__rc = RUN("%s", cases[i].args);
        ASSERT_EQ_INT(test__rc, 0);
        ASSERT_EQ_STR(err_text, "");
        if (strncmp(out_text, cases[i].first_line, strlen(cases[i].first_line)) != 0)
            TEST_FAIL("%s: help starts with %.60s", cases[i].args, out_text);
        if (!strstr(out_text, cases[i].has)) TEST_FAIL("%s: no %s", cases[i].args, cases[i].has);
        if (strstr(out_text, cases[i].lacks)) TEST_FAIL("%s: has %s", cases[i].args, cases[i].lacks);
        ASSERT_TRUE(strstr(out_text, "Exit status:") != NULL);
    }
}

/* Every option the man page and the help name is one the tool accepts. */
TEST(man_page_and_completion_name_real_options) {
    need_cli();
    char path[512];
    snprintf(path, sizeof(path), "%s/tools/tyjson.1", TYJSON_SOURCE_DIR);
    size_t n;
    char *man = test_read_file(path, &n);
    if (!man) TEST_FAIL("cannot read %s", path);
    static const char *const opts[] = {
        "\\-\\-lines", "\\-\\-max\\-errors", "\\-\\-jobs", "\\-\\-comments", "\\-\\-trailing\\-commas",
        "\\-\\-inf\\-nan", "\\-\\-bom", "\\-\\-allow\\-invalid\\-utf8", "\\-\\-reject\\-duplicates",
        "\\-\\-bignum\\-raw", "\\-\\-max\\-depth", "\\-\\-indent", "\\-\\-ascii", "\\-\\-raw",
        "\\-\\-default", "\\-\\-quiet", "\\-\\-help", "\\-\\-version", "\\-\\-pretty"};
    for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
        if (!strstr(man, opts[i])) TEST_FAIL("man page lacks %s", opts[i]);
    free(man);
    snprintf(path, sizeof(path), "%s/tools/tyjson.bash-completion", TYJSON_SOURCE_DIR);
    char *comp = test_read_file(path, &n);
    if (!comp) TEST_FAIL("cannot read %s", path);
    static const char *const plain[] = {
        "--lines", "--max-errors", "--jobs", "--comments", "--trailing-commas", "--inf-nan", "--bom",
        "--allow-invalid-utf8", "--reject-duplicates", "--bignum-raw", "--max-depth", "--indent",
        "--ascii", "--raw", "--default", "--quiet", "--help", "--version", "--pretty"};
    for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
        if (!strstr(comp, plain[i])) TEST_FAIL("completion lacks %s", plain[i]);
    free(comp);
}

TEST(usage_errors_exit_2) {
    need_cli();
    CHECK(RUN(""), 2, "", "tyjson: missing command\n" TRY_HELP);
    CHECK(RUN("frobnicate x.json"), 2, "", "tyjson: unknown command 'frobnicate'\n" TRY_HELP);
    CHECK(RUN("validate --frob"), 2, "", "tyjson: unknown option '--frob'\n" TRY_HELP);
    CHECK(RUN("get"), 2, "", "tyjson: get: missing POINTER\n" TRY_HELP);
    CHECK(RUN("get a/b"), 2, "", "tyjson: invalid JSON Pointer 'a/b'\n" TRY_HELP);
    CHECK(RUN("get /a~2"), 2, "", "tyjson: invalid JSON Pointer '/a~2'\n" TRY_HELP);
    CHECK(RUN("pretty --indent 0"), 2, "",
          "tyjson: --indent expects a number from 1 to 64, not '0'\n" TRY_HELP);
    CHECK(RUN("pretty --indent x4"), 2, "",
          "tyjson: --indent expects a number from 1 to 64, not 'x4'\n" TRY_HELP);
    CHECK(RUN("pretty --indent"), 2, "",
          "tyjson: --indent expects a number from 1 to 64, not ''\n" TRY_HELP);
    CHECK(RUN("validate --max-depth 0"), 2, "",
          "tyjson: --max-depth expects a number from 1 to 4294967295, not '0'\n" TRY_HELP);
    CHECK(RUN("validate --max-depth=4294967296"), 2, "",
          "tyjson: --max-depth expects a number from 1 to 4294967295, not '4294967296'\n" TRY_HELP);
}

TEST(unreadable_inputs_exit_2) {
    need_cli();
    CHECK(RUN("validate missing.json"), 2, "", "tyjson: missing.json: No such file or directory\n");
    put_text("ok.json", "[]");
    put_text("bad.json", "[");
    /* I/O trouble outranks invalid input; the other inputs are still read. */
    CHECK(RUN("minify bad.json missing.json ok.json"), 2, "[]\n",
          "bad.json:1:2: expected a value or ']', found end of input\n"
          "tyjson: missing.json: No such file or directory\n");
    CHECK(RUN("validate ."), 2, "", "tyjson: .: Is a directory\n");
    CHECK(RUN("validate --lines ."), 2, "", "tyjson: .: Is a directory\n");
}

TEST(output_error_exit_2) {
    need_cli();
    FILE *f = fopen("/dev/full", "wb");
    if (!f) TEST_SKIP("no /dev/full");
    fclose(f);
    put_file("err.txt", "", 0); /* so that the cleanup removes it */
    /* Enough output to overflow stdio's buffer during the run, once. */
    enum { LINES = 20000 };
    char *s = (char *)malloc(LINES * 4);
    ASSERT_NOT_NULL(s);
    for (int i = 0; i < LINES; i++) memcpy(s + 4 * i, "[1]\n", 4);
    put_file("many.ndjson", s, LINES * 4);
    free(s);
    char cmd[512];
    snprintf(cmd, sizeof(cmd), "cd '%s' && '%s' --lines minify many.ndjson >/dev/full 2>err.txt",
             tmp_dir, CLI);
    int st = system(cmd);
    ASSERT_TRUE(st != -1 && WIFEXITED(st));
    ASSERT_EQ_INT(WEXITSTATUS(st), 2);
    free(err_text);
    err_text = slurp("err.txt", NULL);
    ASSERT_EQ_STR(err_text, "tyjson: error writing output: No space left on device\n");
    /* A small output fails only when it is flushed at exit: the same. */
    put_text("x.json", "{\"s\": \"text\"}");
    static const char *const runs[] = {"stats many.ndjson --lines", "pretty x.json",
                                       "get -r /s x.json", "get /zz --default 1 x.json"};
    for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
        snprintf(cmd, sizeof(cmd), "cd '%s' && '%s' %s >/dev/full 2>err.txt", tmp_dir, CLI, runs[i]);
        st = system(cmd);
        ASSERT_TRUE(st != -1 && WIFEXITED(st));
        ASSERT_EQ_INT(WEXITSTATUS(st), 2);
        free(err_text);
        err_text = slurp("err.txt", NULL);
        ASSERT_EQ_STR(err_text, "tyjson: error writing output: No space left on device\n");
    }
}

/* ----------------------------------------------------------------------------
 * patch, merge, diff
 * ------------------------------------------------------------------------- */

TEST(patch_applies_and_writes) {
    need_cli();
    put_text("doc.json", "{\"a\": [1, 2], \"b\": {\"c\": \"\\u00e9\"}}");
    put_text("p.json", "[{\"op\": \"add\", \"path\": \"/a/-\", \"value\": 3},"
                       " {\"op\": \"move\", \"from\": \"/b/c\", \"path\": \"/c\"}]");
    CHECK(RUN("patch doc.json p.json"), 0, "{\"a\":[1,2,3],\"b\":{},\"c\":\"\xc3\xa9\"}\n", "");
    CHECK(RUN("patch --ascii doc.json p.json"), 0, "{\"a\":[1,2,3],\"b\":{},\"c\":\"\\u00e9\"}\n", "");
    CHECK(RUN("patch --pretty doc.json p.json"), 0,
          "{\n  \"a\": [\n    1,\n    2,\n    3\n  ],\n  \"b\": {},\n  \"c\": \"\xc3\xa9\"\n}\n", "");
    CHECK(RUN("patch --indent=1 doc.json p.json"), 0,
          "{\n \"a\": [\n  1,\n  2,\n  3\n ],\n \"b\": {},\n \"c\": \"\xc3\xa9\"\n}\n", "");
    /* the patch from standard input */
    CHECK(RUN_STDIN("[{\"op\":\"test\",\"path\":\"/a/0\",\"value\":1}]", "patch doc.json -"), 0,
          "{\"a\":[1,2],\"b\":{\"c\":\"\xc3\xa9\"}}\n", "");
    put_text("q.json", "[{\"op\": \"add\", \"path\": \"/-\", \"value\": 6}]");
    CHECK(RUN_PIPE("[5]", "patch - q.json"), 0, "[5,6]\n", "");
}

TEST(patch_failure_names_the_operation) {
    need_cli();
    put_text("doc.json", "{\"a\": {\"b\": 1}}");
    put_text("p.json", "[{\"op\": \"remove\", \"path\": \"/a/b\"},"
                       " {\"op\": \"replace\", \"path\": \"/a/x/y\", \"value\": 0}]");
    CHECK(RUN("patch doc.json p.json"), 1, "",
          "p.json: operation 1 (replace /a/x/y): no value at '/a/x': no member 'x'\n");
    put_text("t.json", "[{\"op\": \"test\", \"path\": \"/a/b\", \"value\": 2}]");
    CHECK(RUN("patch doc.json t.json"), 1, "",
          "t.json: operation 0 (test /a/b): test failed: the value differs\n");
    put_text("bad.json", "{\"op\": \"add\"}");
    CHECK(RUN("patch doc.json bad.json"), 1, "",
          "bad.json: invalid JSON Patch: not an array of operations\n");
    CHECK(RUN_STDIN("[{\"op\":\"copy\",\"from\":\"/q\",\"path\":\"/r\"}]", "patch doc.json -"), 1, "",
          "<stdin>: operation 0 (copy /r from /q): no value at '/q': no member 'q'\n");
    put_text("root.json", "[{\"op\": \"remove\", \"path\": \"\"}]");
    CHECK(RUN("patch doc.json root.json"), 1, "", "root.json: the patch removed the whole document\n");
    /* invalid JSON in either input: the parse error, status 1 */
    put_text("broken.json", "[1,");
    CHECK(RUN("patch broken.json p.json"), 1, "", "broken.json:1:4: expected a value after ',', found end of input\n");
    CHECK(RUN("patch doc.json broken.json"), 1, "", "broken.json:1:4: expected a value after ',', found end of input\n");
}

TEST(merge_applies) {
    need_cli();
    put_text("doc.json", "{\"title\": \"Goodbye!\", \"author\": {\"givenName\": \"John\", \"familyName\": \"Doe\"},"
                         " \"tags\": [\"example\", \"sample\"], \"content\": \"This will be unchanged\"}");
    put_text("m.json", "{\"title\": \"Hello!\", \"phoneNumber\": \"+01-123-456-7890\","
                       " \"author\": {\"familyName\": null}, \"tags\": [\"example\"]}");
    CHECK(RUN("merge doc.json m.json"), 0,
          "{\"title\":\"Hello!\",\"author\":{\"givenName\":\"John\"},\"tags\":[\"example\"],"
          "\"content\":\"This will be unchanged\",\"phoneNumber\":\"+01-123-456-7890\"}\n", "");
    CHECK(RUN_STDIN("null", "merge doc.json -"), 0, "null\n", "");
}

TEST(diff_then_patch_round_trips) {
    need_cli();
    put_text("a.json", "{\"a\": [1, 2, 3], \"b\": {\"c~d\": true}, \"e\": 1}");
    put_text("b.json", "{\"a\": [0, 1, 3], \"b\": {\"c~d\": false}, \"f\": null}");
    CHECK(RUN("diff a.json b.json"), 0,
          "[{\"op\":\"remove\",\"path\":\"/e\"},{\"op\":\"replace\",\"path\":\"/a/0\",\"value\":0},"
          "{\"op\":\"replace\",\"path\":\"/a/1\",\"value\":1},{\"op\":\"replace\",\"path\":\"/b/c~0d\",\"value\":false},"
          "{\"op\":\"add\",\"path\":\"/f\",\"value\":null}]\n",
          "");
    put_text("d.json", out_text);
    CHECK(RUN("patch a.json d.json"), 0, "{\"a\":[0,1,3],\"b\":{\"c~d\":false},\"f\":null}\n", "");
    CHECK(RUN("diff a.json a.json"), 0, "[]\n", "");
    CHECK(RUN_STDIN("[1]", "diff --pretty - a.json"), 0,
          "[\n  {\n    \"op\": \"replace\",\n    \"path\": \"\",\n    \"value\": {\n      \"a\": [\n"
          "        1,\n        2,\n        3\n      ],\n      \"b\": {\n        \"c~d\": true\n      },\n"
          "      \"e\": 1\n    }\n  }\n]\n",
          "");
}

TEST(edit_usage_errors_exit_2) {
    need_cli();
    put_text("a.json", "{}");
    CHECK(RUN("patch a.json"), 2, "", "tyjson: patch: expects two inputs, DOC and PATCH\n" TRY_HELP);
    CHECK(RUN("merge a.json a.json a.json"), 2, "", "tyjson: merge: expects two inputs, DOC and PATCH\n" TRY_HELP);
    CHECK(RUN("diff"), 2, "", "tyjson: diff: expects two inputs, A and B\n" TRY_HELP);
    CHECK(RUN("diff - -"), 2, "", "tyjson: diff: only one input can be standard input\n" TRY_HELP);
    CHECK(RUN("patch --lines a.json a.json"), 2, "", "tyjson: patch: --lines does not apply\n" TRY_HELP);
    CHECK(RUN("pretty --pretty a.json"), 2, "", "tyjson: --pretty is an option of patch, merge and diff\n" TRY_HELP);
    CHECK(RUN("patch -r a.json a.json"), 2, "", "tyjson: -r, --quiet and --default are options of get\n" TRY_HELP);
    CHECK(RUN("patch missing.json a.json"), 2, "", "tyjson: missing.json: No such file or directory\n");
    CHECK(RUN("diff a.json missing.json"), 2, "", "tyjson: missing.json: No such file or directory\n");
    static const char *const helps[] = {"patch --help", "merge -h", "--help diff"};
    static const char *const firsts[] = {"Usage: tyjson patch [options] DOC PATCH\n",
                                         "Usage: tyjson merge [options] DOC PATCH\n",
                                         "Usage: tyjson diff [options] A B\n"};
    for (int i = 0; i < 3; i++) {
        test__rc = RUN("%s", helps[i]);
        ASSERT_EQ_INT(test__rc, 0);
        if (strncmp(out_text, firsts[i], strlen(firsts[i])) != 0) TEST_FAIL("%s: %.60s", helps[i], out_text);
        ASSERT_TRUE(strstr(out_text, "--pretty") != NULL);
    }
}

/* --json5 on the commands that read, and in the man page and completion. */
TEST(json5_option) {
    need_cli();
    const char *doc = "// settings\n{name: 'tyjson', hex: 0x1F, half: .5, big: +Infinity, list: [1, 2,],}\n";
    CHECK(RUN_STDIN(doc, "minify --json5"), 0,
          "{\"name\":\"tyjson\",\"hex\":31,\"half\":0.5,\"big\":Infinity,\"list\":[1,2]}\n", "");
    CHECK(RUN_STDIN(doc, "validate --json5"), 0, "", "");
    CHECK(RUN_STDIN("[-0x0, 5., -.5, +NaN, -NaN, -Infinity]", "minify --json5"), 0,
          "[-0.0,5.0,-0.5,NaN,NaN,-Infinity]\n", "");
    CHECK(RUN_STDIN(doc, "get --json5 /hex"), 0, "31\n", "");
    CHECK(RUN_STDIN("{a: 'x'}\n{a: 0x10}\n", "minify --json5 --lines"), 0,
          "{\"a\":\"x\"}\n{\"a\":16}\n", "");
    CHECK(RUN_STDIN("{a: 1}", "validate"), 1, "",
          "<stdin>:1:2: expected an object key (a string) or '}', found 'a'\n");
    char path[1024];
    size_t n = 0;
    snprintf(path, sizeof(path), "%s/tools/tyjson.1", TYJSON_SOURCE_DIR);
    char *man = test_read_file(path, &n);
    if (!man) TEST_FAIL("cannot read %s", path);
    ASSERT_TRUE(strstr(man, "\\-\\-json5") != NULL);
    free(man);
    snprintf(path, sizeof(path), "%s/tools/tyjson.bash-completion", TYJSON_SOURCE_DIR);
    char *comp = test_read_file(path, &n);
    if (!comp) TEST_FAIL("cannot read %s", path);
    ASSERT_TRUE(strstr(comp, "--json5") != NULL);
    free(comp);
}

int main(int argc, char **argv) { return test_main(argc, argv); }
