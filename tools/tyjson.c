/*
 * tyjson.c - the `tyjson` command-line tool.
 *
 *   tyjson validate|pretty|minify|stats [options] [FILE...]
 *   tyjson get [options] POINTER [FILE...]
 *   tyjson patch|merge [options] DOC PATCH
 *   tyjson diff [options] A B
 *
 * patch applies a JSON Patch (RFC 6902), merge a JSON Merge Patch (RFC
 * 7396), diff writes the JSON Patch turning A into B; each writes one
 * result. A patch that cannot be applied is status 1, with the failing
 * operation's index and pointer on stderr.
 * No FILE, or "-", reads standard input. Every input is processed even after
 * a failure; the exit status is the worst outcome: 0 all inputs valid, 1 some
 * input invalid (or a pointer that matched nothing), 2 usage or I/O error.
 * Parse errors go to stderr as "FILE:LINE:COL: message", followed by a
 * "FILE: hint: ..." line when one of the relaxing options would accept what
 * the parser stopped at.
 *
 * One document is read through the pull reader (tyjson/reader.h) and, for
 * pretty, minify and get, written through the streaming writer
 * (tyjson/writer.h), so memory does not grow with the input. With --lines
 * the input is NDJSON: each line is its own document, read through the
 * library's NDJSON iterator (tyjson/lines.h) so memory stays bounded by the
 * longest line, and errors carry the line's real number in the file; -j N
 * parses the lines on N threads, output in input order.
 */
/* fileno and isatty (the progress line goes to a terminal only) */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif
#include "tyjson.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(_WIN32)
#include <io.h>
#define isatty _isatty
#define fileno _fileno
#else
#include <unistd.h>
#endif

#define EXIT_INVALID 1
#define EXIT_TROUBLE 2

/* Pretty-print indentation accepted by --indent. */
#define INDENT_MAX 64u
/* Threads accepted by -j. */
#define JOBS_MAX 256u

#define STATS_TEXT                                                             \
    "stats prints one \"name: value\" per line, in this order: documents,\n"   \
    "objects, arrays, strings (values, not keys), keys, numbers (ints + reals\n" \
    "+ raw big numbers), ints, reals, bools, nulls, max_depth (0 for a scalar,\n" \
    "1 for a flat array or object) and bytes (input bytes of the counted\n"     \
    "documents; with --lines each line counts with its newline).\n"

static const char usage_text[] =
    "Usage: tyjson validate|pretty|minify|stats [options] [FILE...]\n"
    "       tyjson get [options] POINTER [FILE...]\n"
    "       tyjson patch|merge [options] DOC PATCH\n"
    "       tyjson diff [options] A B\n"
    "\n"
    "Commands:\n"
    "  validate   check each input; print nothing when valid\n"
    "  pretty     write each input indented (2 spaces unless --indent)\n"
    "  minify     write each input without whitespace\n"
    "  stats      print value counts over all valid inputs\n"
    "  get        print the value at a JSON Pointer (RFC 6901), minified;\n"
    "             \"\" is the whole document, \"/a/0\" member a, element 0\n"
    "  patch      apply the JSON Patch (RFC 6902) PATCH to DOC and write it\n"
    "  merge      apply the JSON Merge Patch (RFC 7396) PATCH to DOC and write it\n"
    "  diff       write a JSON Patch that turns A into B\n"
    "\n"
    "Run 'tyjson COMMAND --help' for the options of one command.\n"
    "With no FILE, or when FILE is -, read standard input.\n"
    "\n"
    "Input options (every command):\n"
    "%s"
    "\n"
    "Output options:\n"
    "  --indent N            spaces per level for pretty (1-64, default 2);\n"
    "                        patch, merge, diff: write indented by N\n"
    "  --pretty              patch, merge, diff: write indented by 2\n"
    "  --ascii               pretty, minify, get, patch, merge, diff: escape\n"
    "                        non-ASCII as \\uXXXX\n"
    "  -r, --raw             get: print a string value without quotes or escapes\n"
    "  --default VALUE       get: print VALUE where the pointer matches nothing\n"
    "  -q, --quiet           get: print nothing where the pointer matches nothing\n"
    "\n"
    "  -h, --help            show this help (or a command's) and exit\n"
    "  --version             show the version and exit\n"
    "  --                    end of options\n"
    "\n" STATS_TEXT "\n"
    "%s";

static const char input_opts_text[] =
    "  --lines               NDJSON: one value per line, blank lines skipped;\n"
    "                        pretty, minify and get write one result per value\n"
    "  --max-errors N        with --lines: report at most N invalid lines per\n"
    "                        input, then say how many more there were\n"
    "  -j, --jobs N          with --lines: parse on N threads (1-256); the\n"
    "                        output stays in input order\n"
    "  --comments            accept // and /* */ comments\n"
    "  --trailing-commas     accept one trailing comma in arrays and objects\n"
    "  --inf-nan             accept and write NaN, Infinity, -Infinity\n"
    "  --json5               accept JSON5: comments, trailing commas, NaN and\n"
    "                        Infinity (also written), single quotes, unquoted\n"
    "                        keys, hexadecimal, '+', '.5' and '5.', JSON5\n"
    "                        whitespace and escapes, escaped line breaks\n"
    "  --bom                 skip a leading UTF-8 byte order mark\n"
    "  --allow-invalid-utf8  accept invalid UTF-8 in strings (written as U+FFFD)\n"
    "  --reject-duplicates   reject objects that repeat a key\n"
    "  --bignum-raw          keep numbers too large for 64-bit integers or\n"
    "                        doubles as their text (the default: accepted for\n"
    "                        compatibility)\n"
    "  --max-depth N         maximum nesting of arrays and objects (default 1024)\n";

static const char exit_text[] =
    "Exit status: 0 all inputs valid, 1 some input invalid, a pointer that\n"
    "matched nothing (without --default) or a patch that cannot be applied,\n"
    "2 usage or I/O error.\n";

/* One command's help: what it does, then its own options. */
typedef struct command_help {
    const char *usage, *about, *options;
} command_help;

static const command_help command_helps[] = {
    {"validate [options] [FILE...]",
     "Check that each input is JSON (RFC 8259, or what the input options\n"
     "allow). Print nothing for a valid input; report each invalid one on\n"
     "stderr as FILE:LINE:COL: message.\n",
     ""},
    {"pretty [options] [FILE...]",
     "Write each input indented, one result per input (per line with --lines).\n"
     "Numbers too large for 64-bit integers or doubles are written as given.\n",
     "  --indent N            spaces per level (1-64, default 2)\n"
     "  --ascii               escape non-ASCII characters as \\uXXXX\n"},
    {"minify [options] [FILE...]",
     "Write each input without whitespace, one result per input (per line\n"
     "with --lines). Numbers too large for 64-bit integers or doubles are\n"
     "written as given.\n",
     "  --ascii               escape non-ASCII characters as \\uXXXX\n"},
    {"stats [options] [FILE...]", "Print value counts over all valid inputs.\n\n" STATS_TEXT, ""},
    {"get [options] POINTER [FILE...]",
     "Print the value at a JSON Pointer (RFC 6901), minified: \"\" is the\n"
     "whole document, \"/a/0\" member a, element 0 (~0 is ~, ~1 is /).\n"
     "Where the pointer matches nothing, report \"FILE: no value at POINTER\"\n"
     "on stderr and exit 1, unless --default or --quiet says otherwise.\n",
     "  -r, --raw             print a string value without quotes or escapes\n"
     "  --default VALUE       print VALUE (as given) where the pointer matches\n"
     "                        nothing; that is not an error\n"
     "  -q, --quiet           print nothing where the pointer matches nothing;\n"
     "                        the exit status is still 1\n"
     "  --ascii               escape non-ASCII characters as \\uXXXX\n"},
    {"patch [options] DOC PATCH",
     "Apply the JSON Patch (RFC 6902) in PATCH to DOC and write the result,\n"
     "minified. The patch is all or nothing: when an operation fails, report\n"
     "\"PATCH: operation N (OP POINTER): message\" on stderr, write nothing\n"
     "and exit 1. One of DOC and PATCH may be - (standard input).\n",
     "  --pretty              write indented by 2 spaces\n"
     "  --indent N            write indented by N spaces (1-64)\n"
     "  --ascii               escape non-ASCII characters as \\uXXXX\n"},
    {"merge [options] DOC PATCH",
     "Apply the JSON Merge Patch (RFC 7396) in PATCH to DOC and write the\n"
     "result, minified: members of PATCH replace those of DOC, null members\n"
     "remove them, objects merge recursively. One of DOC and PATCH may be -.\n",
     "  --pretty              write indented by 2 spaces\n"
     "  --indent N            write indented by N spaces (1-64)\n"
     "  --ascii               escape non-ASCII characters as \\uXXXX\n"},
    {"diff [options] A B",
     "Write a JSON Patch (RFC 6902) that turns A into B, minified: [] when\n"
     "they are equal. 'tyjson patch A' of it gives a value equal to B. One of\n"
     "A and B may be -.\n",
     "  --pretty              write indented by 2 spaces\n"
     "  --indent N            write indented by N spaces (1-64)\n"
     "  --ascii               escape non-ASCII characters as \\uXXXX\n"},
};

static const char *const command_names[] = {"validate", "pretty", "minify", "stats", "get",
                                            "patch",    "merge",  "diff"};

static void print_help(void) { printf(usage_text, input_opts_text, exit_text); }

static void print_command_help(int cmd) {
    const command_help *h = &command_helps[cmd];
    printf("Usage: tyjson %s\n\n", h->usage);
    fputs(h->about, stdout);
    printf("\nWith no FILE, or when FILE is -, read standard input.\n\nOptions:\n%s%s",
           h->options, input_opts_text);
    printf("  -h, --help            show this help and exit\n\n%s", exit_text);
}

typedef enum command {
    CMD_VALIDATE, CMD_PRETTY, CMD_MINIFY, CMD_STATS, CMD_GET, CMD_PATCH, CMD_MERGE, CMD_DIFF
} command;

/* patch, merge and diff: two inputs, one result. */
static int is_edit(command cmd) { return cmd == CMD_PATCH || cmd == CMD_MERGE || cmd == CMD_DIFF; }

typedef struct counts {
    size_t documents, objects, arrays, strings, keys, numbers, ints, reals, bools, nulls;
    size_t max_depth, bytes;
} counts;

/* One open container during the stats walk: slots still to visit (an
 * object's keys and values both count) and whether it is an object. */
typedef struct frame {
    size_t left;
    int is_obj;
} frame;

typedef struct cli {
    command cmd;
    const char *pointer;
    int lines;
    int raw;                   /* get -r: strings without quotes */
    int quiet;                 /* get -q: say nothing about misses */
    int pretty;                /* patch, merge, diff --pretty */
    const char *default_value; /* get --default: printed on a miss */
    int have_max_errors;
    size_t max_errors;         /* --max-errors: reports per input */
    size_t bad_lines;          /* invalid lines of the current input */
    unsigned jobs;             /* -j: threads for --lines (0, 1: this one) */
    unsigned hints_given;      /* each hint at most once per run */
    tyjson_read_options ropts;
    tyjson_write_options wopts;
    counts st;
    frame *stack;
    size_t stack_cap;
    int status;     /* worst exit status so far */
    int out_failed; /* stdout is broken: stop producing output */
} cli;

static void raise_status(cli *c, int status) {
    if (status > c->status) c->status = status;
}

static int usage_error(const char *fmt, const char *arg) {
    fputs("tyjson: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\nTry 'tyjson --help' for more information.\n", stderr);
    return EXIT_TROUBLE;
}

/* ----------------------------------------------------------------------------
 * MARK: - stats
 * ------------------------------------------------------------------------- */

static int push_frame(cli *c, size_t depth, size_t left, int is_obj) {
    if (depth == c->stack_cap) {
        size_t ncap = c->stack_cap ? c->stack_cap * 2 : 64;
        frame *ns = (frame *)realloc(c->stack, ncap * sizeof(*ns));
        if (!ns) return 0;
        c->stack = ns;
        c->stack_cap = ncap;
    }
    c->stack[depth].left = left;
    c->stack[depth].is_obj = is_obj;
    return 1;
}

/* The document is one array in document order with every child right
 * after its container, so a forward pass visits all values; the stack only
 * tells how deep we are and whether a string is a key. No recursion: depth
 * is bounded by --max-depth, not by the C stack. */
static int count_values(cli *c, const tyjson_val *root) {
    counts *st = &c->st;
    const tyjson_val *v = root;
    const tyjson_val *end = root + (tyjson_is_ctn(root) ? root->uni.ofs : 1);
    size_t depth = 0;
    for (; v < end; v++) {
        int is_key = 0;
        if (depth) {
            frame *f = &c->stack[depth - 1];
            /* Object slots alternate key, value: an even count left means
             * the next slot is a key. */
            is_key = f->is_obj && f->left % 2 == 0;
            f->left--;
        }
        switch (tyjson_get_type(v)) {
        case TYJSON_TYPE_NULL: st->nulls++; break;
        case TYJSON_TYPE_BOOL: st->bools++; break;
        case TYJSON_TYPE_RAW: st->numbers++; break;
        case TYJSON_TYPE_NUM:
            st->numbers++;
            if (tyjson_is_real(v)) st->reals++;
            else st->ints++;
            break;
        case TYJSON_TYPE_STR:
            if (is_key) st->keys++;
            else st->strings++;
            break;
        case TYJSON_TYPE_ARR:
        case TYJSON_TYPE_OBJ: {
            int is_obj = tyjson_is_obj(v);
            size_t n = tyjson_get_len(v);
            if (is_obj) st->objects++;
            else st->arrays++;
            if (depth + 1 > st->max_depth) st->max_depth = depth + 1;
            if (n) {
                if (!push_frame(c, depth, is_obj ? n * 2 : n, is_obj)) return 0;
                depth++;
            }
            break;
        }
        default: break;
        }
        while (depth && c->stack[depth - 1].left == 0) depth--;
    }
    return 1;
}

static void print_counts(const counts *st) {
    printf("documents: %zu\n", st->documents);
    printf("objects: %zu\n", st->objects);
    printf("arrays: %zu\n", st->arrays);
    printf("strings: %zu\n", st->strings);
    printf("keys: %zu\n", st->keys);
    printf("numbers: %zu\n", st->numbers);
    printf("ints: %zu\n", st->ints);
    printf("reals: %zu\n", st->reals);
    printf("bools: %zu\n", st->bools);
    printf("nulls: %zu\n", st->nulls);
    printf("max_depth: %zu\n", st->max_depth);
    printf("bytes: %zu\n", st->bytes);
}

/* ----------------------------------------------------------------------------
 * MARK: - One document
 * ------------------------------------------------------------------------- */

/* Standard output failed: say why (errno from the failed write) once,
 * and stop producing output. */
static void output_failed(cli *c, int saved_errno) {
    if (saved_errno) fprintf(stderr, "tyjson: error writing output: %s\n", strerror(saved_errno));
    else fprintf(stderr, "tyjson: error writing output\n");
    raise_status(c, EXIT_TROUBLE);
    c->out_failed = 1;
}

/* `line` is the 1-based line of an NDJSON record, 0 for a whole input. */
static void report_missing(cli *c, const char *name, size_t line) {
    if (c->default_value) {
        errno = 0;
        if (printf("%s\n", c->default_value) < 0) output_failed(c, errno);
        return;
    }
    raise_status(c, EXIT_INVALID);
    if (c->quiet) return;
    if (line) fprintf(stderr, "%s:%zu: no value at %s\n", name, line, c->pointer);
    else fprintf(stderr, "%s: no value at %s\n", name, c->pointer);
}

/* get -r: a string's bytes as they are, then a newline. */
static void write_raw_string(cli *c, const tyjson_val *val) {
    size_t n = tyjson_get_len(val);
    errno = 0;
    if ((n && fwrite(tyjson_get_str(val), 1, n, stdout) != n) || putchar('\n') == EOF)
        output_failed(c, errno);
}

static void write_value(cli *c, const char *name, const tyjson_val *val) {
    tyjson_error err;
    if (c->raw && tyjson_is_str(val)) {
        write_raw_string(c, val);
        return;
    }
    errno = 0;
    if (tyjson_val_write_fp(stdout, val, &c->wopts, &err)) return;
    if (err.code == TYJSON_E_IO) {
        output_failed(c, errno);
    } else {
        fprintf(stderr, "%s: cannot write: %s\n", name, err.msg);
        raise_status(c, EXIT_INVALID);
    }
}

static void handle_doc(cli *c, const char *name, size_t line, tyjson_doc *doc,
                       size_t bytes) {
    const tyjson_val *root = tyjson_doc_get_root(doc);
    switch (c->cmd) {
    case CMD_VALIDATE: break;
    case CMD_PRETTY:
    case CMD_MINIFY: write_value(c, name, root); break;
    case CMD_GET: {
        const tyjson_val *v = tyjson_ptr_get(root, c->pointer);
        if (v) write_value(c, name, v);
        else report_missing(c, name, line);
        break;
    }
    case CMD_STATS:
        if (!count_values(c, root)) {
            fprintf(stderr, "tyjson: out of memory\n");
            raise_status(c, EXIT_TROUBLE);
            break;
        }
        c->st.documents++;
        c->st.bytes += bytes;
        break;
    case CMD_PATCH:
    case CMD_MERGE:
    case CMD_DIFF: break; /* two inputs: run_edit */
    }
}

/* ----------------------------------------------------------------------------
 * MARK: - Hints
 *
 * After a parse error, each relaxing option that could explain it (chosen
 * from the error and the byte it points at) is tried by parsing the input
 * again with it: when the parse then succeeds or gets further, the option
 * is named. Error path only; each hint is given once per run.
 * ------------------------------------------------------------------------- */
enum { HINT_BOM, HINT_LINES, HINT_COMMENTS, HINT_TRAILING, HINT_INF_NAN, HINT_UTF8, HINT_COUNT };

static const struct {
    tyjson_read_flags flag; /* 0: --lines */
    const char *text;
} hints[HINT_COUNT] = {
    {TYJSON_READ_ALLOW_BOM, "the input starts with a UTF-8 byte order mark; --bom skips it"},
    {0, "the input holds one JSON value per line; --lines reads it as NDJSON"},
    {TYJSON_READ_ALLOW_COMMENTS, "comments are not JSON; --comments accepts them"},
    {TYJSON_READ_ALLOW_TRAILING_COMMAS,
     "a trailing comma is not JSON; --trailing-commas accepts it"},
    {TYJSON_READ_ALLOW_INF_NAN, "NaN and Infinity are not JSON; --inf-nan accepts them"},
    {TYJSON_READ_ALLOW_INVALID_UTF8,
     "the string holds invalid UTF-8; --allow-invalid-utf8 accepts it"},
};

/* Parses dat with extra read flags: 1 if it then parses, or fails later
 * than at `offset`. */
static int parses_further(const cli *c, const char *dat, size_t len, tyjson_read_flags extra,
                          size_t offset) {
    tyjson_read_options o = c->ropts;
    o.flags |= extra;
    tyjson_error err;
    tyjson_doc *doc = tyjson_read_opts(dat, len, &o, &err);
    if (doc) {
        tyjson_doc_free(doc);
        return 1;
    }
    return err.offset > offset;
}

/* Every non-blank line of dat (two at least) is a value by itself. */
static int is_ndjson(const cli *c, const char *dat, size_t len) {
    size_t values = 0;
    const char *p = dat, *end = dat + len;
    while (p < end) {
        const char *nl = (const char *)memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        int blank = 1;
        for (size_t i = 0; i < n && blank; i++)
            blank = p[i] == ' ' || p[i] == '\t' || p[i] == '\r';
        if (!blank) {
            tyjson_doc *doc = tyjson_read_opts(p, n, &c->ropts, NULL);
            if (!doc) return 0;
            tyjson_doc_free(doc);
            values++;
        }
        p += n + (nl != NULL);
    }
    return values >= 2;
}

/* The hint that applies to err, or HINT_COUNT. */
static int find_hint(const cli *c, const char *dat, size_t len, const tyjson_error *err) {
    tyjson_read_flags on = c->ropts.flags;
    size_t at = err->offset;
    unsigned char b = at < len ? (unsigned char)dat[at] : 0;
    int candidate = HINT_COUNT;
    if (at == 0 && len >= 3 && memcmp(dat, "\xEF\xBB\xBF", 3) == 0) candidate = HINT_BOM;
    else if (b == '/') candidate = HINT_COMMENTS;
    else if (err->code == TYJSON_E_TRAILING) candidate = HINT_LINES;
    else if ((b == ']' || b == '}') && err->code == TYJSON_E_UNEXPECTED_CHAR) candidate = HINT_TRAILING;
    else if (b == 'N' || b == 'I' || (b == '-' && at + 1 < len && dat[at + 1] == 'I'))
        candidate = HINT_INF_NAN;
    else if (err->code == TYJSON_E_UTF8) candidate = HINT_UTF8;
    if (candidate == HINT_COUNT) return HINT_COUNT;
    if (candidate == HINT_LINES)
        return !c->lines && is_ndjson(c, dat, len) ? HINT_LINES : HINT_COUNT;
    if (on & hints[candidate].flag) return HINT_COUNT;
    return parses_further(c, dat, len, hints[candidate].flag, at) ? candidate : HINT_COUNT;
}

static void give_hint(cli *c, const char *name, const char *dat, size_t len,
                      const tyjson_error *err) {
    int h = find_hint(c, dat, len, err);
    if (h == HINT_COUNT || (c->hints_given & (1u << h))) return;
    c->hints_given |= 1u << h;
    fprintf(stderr, "%s: hint: %s\n", name, hints[h].text);
}

/* A failed read: invalid input is status 1, everything that says nothing
 * about the input (I/O, memory, size limits) is status 2. `line_base` is the
 * NDJSON line number, or 0. */
static void report_read_error(cli *c, const char *name, size_t line_base,
                              const tyjson_error *err, int saved_errno, const char *dat,
                              size_t len) {
    switch (err->code) {
    case TYJSON_E_IO:
        fprintf(stderr, "tyjson: %s: %s\n", name,
                saved_errno ? strerror(saved_errno) : err->msg);
        raise_status(c, EXIT_TROUBLE);
        return;
    case TYJSON_E_NOMEM:
    case TYJSON_E_SIZE:
    case TYJSON_E_INVALID_ARG:
        fprintf(stderr, "tyjson: %s: %s\n", name, err->msg);
        raise_status(c, EXIT_TROUBLE);
        return;
    default: break;
    }
    raise_status(c, EXIT_INVALID);
    if (line_base && c->have_max_errors && c->bad_lines++ >= c->max_errors) return;
    size_t line = line_base ? line_base + err->line - 1 : err->line;
    fprintf(stderr, "%s:%zu:%zu: %s\n", name, line, err->column, err->msg);
    if (dat) give_hint(c, name, dat, len, err);
}

/* ----------------------------------------------------------------------------
 * MARK: - Inputs
 * ------------------------------------------------------------------------- */

/* ----------------------------------------------------------------------------
 * One document through the pull reader, in memory bounded by the reader's
 * window, the depth, the longest string and the hint prefix below, never by
 * the size of the input: a 10 GB file is validated, counted, searched and
 * re-written in the same few megabytes as a 10 KB one. pretty and minify
 * write as they read, so output already written stays written when the
 * input turns out invalid further on.
 * ------------------------------------------------------------------------- */

/* The longest string, key or number the commands take whole, and the
 * largest scalar value `get` prints through a document. */
#define STREAM_MAX_TOKEN ((size_t)16 << 20)
/* The first bytes of each input are kept for the hints (which parse the
 * input again with a relaxing option): an error past them gets no hint. */
#define HINT_PREFIX_MAX ((size_t)8 << 20)
/* A progress line on stderr (a terminal) for inputs above this size, or
 * of unknown size (a pipe) once this much has been read. */
#define PROGRESS_FROM ((size_t)64 << 20)
#define PROGRESS_STEP ((size_t)16 << 20)

/* The reader's source: fp, with the first HINT_PREFIX_MAX bytes recorded
 * and the progress line kept up to date. */
typedef struct source {
    FILE *fp;
    const char *name;
    char *head; /* recorded prefix */
    size_t head_len, head_cap;
    int head_full; /* stopped recording: the prefix is not the whole input */
    int err_no;    /* errno of a failed read */
    size_t total;  /* bytes read so far */
    size_t size;   /* the file's size, 0 when unknown */
    int progress;  /* show the progress line */
    size_t next_progress;
    int progress_shown;
} source;

static void record(source *src, const char *buf, size_t n) {
    if (src->head_full) return;
    if (src->head_len + n > HINT_PREFIX_MAX) {
        n = HINT_PREFIX_MAX - src->head_len;
        src->head_full = 1;
    }
    if (src->head_len + n > src->head_cap) {
        size_t ncap = src->head_cap ? src->head_cap : 65536;
        while (ncap < src->head_len + n) ncap *= 2;
        char *nb = (char *)realloc(src->head, ncap);
        if (!nb) { /* no hints for this input, nothing worse */
            src->head_full = 1;
            return;
        }
        src->head = nb;
        src->head_cap = ncap;
    }
    memcpy(src->head + src->head_len, buf, n);
    src->head_len += n;
}

static void show_progress(source *src) {
    if (src->size)
        fprintf(stderr, "\r%s: %zu of %zu MiB (%zu%%)", src->name, src->total >> 20,
                src->size >> 20, (size_t)((double)src->total * 100.0 / (double)src->size));
    else
        fprintf(stderr, "\r%s: %zu MiB", src->name, src->total >> 20);
    src->progress_shown = 1;
}

static ptrdiff_t source_read(void *ctx, char *buf, size_t cap) {
    source *src = (source *)ctx;
    errno = 0;
    size_t n = fread(buf, 1, cap, src->fp);
    if (n == 0) {
        if (ferror(src->fp)) {
            src->err_no = errno;
            return -1;
        }
        return 0;
    }
    record(src, buf, n);
    src->total += n;
    if (src->progress && src->total >= src->next_progress) {
        show_progress(src);
        src->next_progress += PROGRESS_STEP;
    }
    return (ptrdiff_t)n;
}

static void source_open(source *src, FILE *fp, const char *name) {
    memset(src, 0, sizeof(*src));
    src->fp = fp;
    src->name = name;
    long size = -1;
    if (fseek(fp, 0, SEEK_END) == 0) {
        size = ftell(fp);
        rewind(fp);
    }
    if (size > 0) src->size = (size_t)size;
    const char *force = getenv("TYJSON_CLI_PROGRESS");
    int on_terminal = force ? strcmp(force, "1") == 0 : isatty(fileno(stderr));
    src->progress = on_terminal && (src->size == 0 || src->size > PROGRESS_FROM);
    src->next_progress = src->size ? PROGRESS_STEP : PROGRESS_FROM;
}

static void source_close(source *src) {
    if (src->progress_shown) {
        src->total = src->size ? src->size : src->total;
        show_progress(src);
        fputc('\n', stderr);
    }
    free(src->head);
}

/* What the number text of the reader's NUM token is, as the parser would
 * store it: 'i' an integer, 'r' a real, 'x' raw text (beyond int64, uint64
 * or double; only with --bignum-raw, which the CLI sets by default). */
static int number_kind(const tyjson_reader *r) {
    size_t n;
    const char *t = tyjson_reader_str(r, &n);
    if (n == 2 && t[0] == '-' && t[1] == '0') return 'r'; /* -0 is the real -0.0 */
    if (memchr(t, '.', n) || memchr(t, 'e', n) || memchr(t, 'E', n)) {
        double d;
        return tyjson_reader_get_double(r, &d) ? 'r' : 'x';
    }
    int64_t i;
    uint64_t u;
    return tyjson_reader_get_u64(r, &u) || tyjson_reader_get_i64(r, &i) ? 'i' : 'x';
}

/* Copies the current token (one of a value's tokens) to the writer. */
static tyjson_status copy_token(tyjson_reader *r, tyjson_token t, tyjson_writer *w) {
    size_t n;
    const char *s;
    switch (t) {
    case TYJSON_TOK_OBJ_BEGIN: return tyjson_writer_begin_object(w);
    case TYJSON_TOK_OBJ_END: return tyjson_writer_end_object(w);
    case TYJSON_TOK_ARR_BEGIN: return tyjson_writer_begin_array(w);
    case TYJSON_TOK_ARR_END: return tyjson_writer_end_array(w);
    case TYJSON_TOK_KEY:
        s = tyjson_reader_str(r, &n);
        return tyjson_writer_key(w, s, n);
    case TYJSON_TOK_STR:
        s = tyjson_reader_str(r, &n);
        return tyjson_writer_string(w, s, n);
    case TYJSON_TOK_TRUE: return tyjson_writer_bool(w, true);
    case TYJSON_TOK_FALSE: return tyjson_writer_bool(w, false);
    case TYJSON_TOK_NULL: return tyjson_writer_null(w);
    case TYJSON_TOK_NUM: {
        s = tyjson_reader_str(r, &n);
        if (n && (s[0] == '+' || s[0] == '.' || memchr(s, 'x', n) || memchr(s, 'X', n) ||
                  (n >= 2 && s[0] == '-' && (s[1] == 'N' || s[1] == '.')))) {
            /* JSON5 forms (--json5): the value, written as JSON */
            uint64_t u;
            int64_t i;
            double d = 0;
            if (tyjson_reader_get_u64(r, &u)) return tyjson_writer_uint(w, u);
            if (tyjson_reader_get_i64(r, &i)) return tyjson_writer_int(w, i);
            tyjson_reader_get_double(r, &d);
            if (d != d) return tyjson_writer_raw(w, "NaN", 3, TYJSON_WRITER_RAW_TRUSTED);
            if (d > 1.7976931348623157e308) return tyjson_writer_raw(w, "Infinity", 8, TYJSON_WRITER_RAW_TRUSTED);
            if (d < -1.7976931348623157e308)
                return tyjson_writer_raw(w, "-Infinity", 9, TYJSON_WRITER_RAW_TRUSTED);
            return tyjson_writer_double(w, d);
        }
        switch (number_kind(r)) {
        case 'r': {
            double d = 0;
            tyjson_reader_get_double(r, &d);
            return tyjson_writer_double(w, d);
        }
        case 'i': {
            uint64_t u;
            int64_t i = 0;
            if (tyjson_reader_get_u64(r, &u)) return tyjson_writer_uint(w, u);
            tyjson_reader_get_i64(r, &i);
            return tyjson_writer_int(w, i);
        }
        default: return tyjson_writer_raw(w, s, n, TYJSON_WRITER_RAW_TRUSTED);
        }
    }
    default: return TYJSON_E_STATE;
    }
}

/* Copies the value that comes next, whole, to the writer. Returns 0 when the
 * reader failed (its error says why), -1 when the writer did, 1 on success. */
static int copy_value(tyjson_reader *r, tyjson_writer *w) {
    uint32_t depth = 0;
    do {
        tyjson_token t = tyjson_reader_next(r);
        if (t == TYJSON_TOK_ERROR || t == TYJSON_TOK_END) return 0;
        if (copy_token(r, t, w) != TYJSON_OK) return -1;
        if (t == TYJSON_TOK_OBJ_BEGIN || t == TYJSON_TOK_ARR_BEGIN) depth++;
        else if (t == TYJSON_TOK_OBJ_END || t == TYJSON_TOK_ARR_END) depth--;
    } while (depth);
    return 1;
}

/* stats over the reader's tokens. */
static void count_token(cli *c, const tyjson_reader *r, tyjson_token t) {
    counts *st = &c->st;
    switch (t) {
    case TYJSON_TOK_OBJ_BEGIN:
    case TYJSON_TOK_ARR_BEGIN: {
        size_t d = (size_t)tyjson_reader_depth(r) + 1;
        if (d > st->max_depth) st->max_depth = d;
        if (t == TYJSON_TOK_OBJ_BEGIN) st->objects++;
        else st->arrays++;
        break;
    }
    case TYJSON_TOK_KEY: st->keys++; break;
    case TYJSON_TOK_STR: st->strings++; break;
    case TYJSON_TOK_TRUE:
    case TYJSON_TOK_FALSE: st->bools++; break;
    case TYJSON_TOK_NULL: st->nulls++; break;
    case TYJSON_TOK_NUM: {
        st->numbers++;
        int k = number_kind(r);
        if (k == 'i') st->ints++;
        else if (k == 'r') st->reals++;
        break;
    }
    default: break;
    }
}

/* The next RFC 6901 reference token of *p (already checked by
 * pointer_valid), unescaped into buf; advances *p. */
static size_t next_ref_token(const char **p, char *buf) {
    const char *s = *p + 1; /* past the '/' */
    size_t n = 0;
    for (; *s && *s != '/'; s++) {
        if (*s == '~') {
            buf[n++] = s[1] == '0' ? '~' : '/';
            s++;
        } else {
            buf[n++] = *s;
        }
    }
    *p = s;
    return n;
}

/* An array index token: digits without a leading zero ("0" itself), in
 * size_t. */
static int ref_index(const char *t, size_t n, size_t *out) {
    size_t v = 0;
    if (!n || (n > 1 && t[0] == '0')) return 0;
    for (size_t i = 0; i < n; i++) {
        if (t[i] < '0' || t[i] > '9' || v > (SIZE_MAX - 9) / 10) return 0;
        v = v * 10 + (size_t)(t[i] - '0');
    }
    *out = v;
    return 1;
}

/* get: walks to the pointer's value, skipping everything before it, then
 * prints it and stops reading. Returns 1 printed, 2 no such value, 0 the
 * reader failed, -1 writing failed (reported). */
static int stream_get(cli *c, tyjson_reader *r, const char *name, tyjson_writer *w) {
    const char *p = c->pointer;
    char *tok = (char *)malloc(strlen(p) + 1);
    if (!tok) return 0;
    int result = 2;
    while (*p) {
        size_t n = next_ref_token(&p, tok);
        tyjson_token t = tyjson_reader_next(r);
        if (t == TYJSON_TOK_ERROR) {
            result = 0;
            goto done;
        }
        if (t == TYJSON_TOK_OBJ_BEGIN) {
            for (;;) {
                t = tyjson_reader_next(r);
                if (t == TYJSON_TOK_OBJ_END) goto done;
                if (t != TYJSON_TOK_KEY) {
                    result = 0;
                    goto done;
                }
                size_t kn;
                const char *k = tyjson_reader_str(r, &kn);
                if (kn == n && memcmp(k, tok, n) == 0) break; /* the first one, as obj_get */
                if (tyjson_reader_skip(r) != TYJSON_OK) {
                    result = 0;
                    goto done;
                }
            }
        } else if (t == TYJSON_TOK_ARR_BEGIN) {
            size_t want, i = 0;
            if (!ref_index(tok, n, &want)) goto done;
            for (;; i++) {
                t = tyjson_reader_peek(r);
                if (t == TYJSON_TOK_ARR_END) goto done;
                if (t == TYJSON_TOK_ERROR) {
                    result = 0;
                    goto done;
                }
                if (i == want) break;
                /* an element: a scalar is one token; after a container's
                 * begin, skip takes the rest of it */
                t = tyjson_reader_next(r);
                if (t == TYJSON_TOK_ERROR ||
                    ((t == TYJSON_TOK_OBJ_BEGIN || t == TYJSON_TOK_ARR_BEGIN) &&
                     tyjson_reader_skip(r) != TYJSON_OK)) {
                    result = 0;
                    goto done;
                }
            }
        } else {
            goto done; /* a scalar has no members */
        }
    }
    /* the value the pointer names comes next */
    tyjson_token t = tyjson_reader_peek(r);
    if (t == TYJSON_TOK_ERROR) {
        result = 0;
    } else if (t == TYJSON_TOK_OBJ_BEGIN || t == TYJSON_TOK_ARR_BEGIN) {
        int k = copy_value(r, w); /* a container streams through the writer */
        result = k > 0 ? 1 : k;
    } else {
        tyjson_error err;
        tyjson_doc *doc = tyjson_reader_read_doc(r, NULL, &err);
        if (!doc) {
            result = 0;
        } else {
            write_value(c, name, tyjson_doc_get_root(doc));
            tyjson_doc_free(doc);
            result = 3; /* printed by write_value */
        }
    }
done:
    free(tok);
    return result;
}

static void report_writer_error(cli *c, const char *name, tyjson_writer *w, tyjson_status st) {
    tyjson_error err;
    tyjson_writer_error(w, &err);
    if (st == TYJSON_E_IO) {
        output_failed(c, errno);
    } else {
        fprintf(stderr, "%s: cannot write: %s\n", name, err.msg);
        raise_status(c, EXIT_INVALID);
    }
}

/* Ends the writer's output; an error there is about stdout (or, for a
 * value the writer refuses, about the input: NaN without --inf-nan). */
static void finish_output(cli *c, const char *name, tyjson_writer *w) {
    errno = 0;
    tyjson_status st = tyjson_writer_finish(w, NULL);
    if (st == TYJSON_OK) return;
    report_writer_error(c, name, w, st);
}

static void run_stream(cli *c, FILE *fp, const char *name) {
    source src;
    source_open(&src, fp, name);
    tyjson_reader_options ro;
    memset(&ro, 0, sizeof(ro));
    ro.flags = c->ropts.flags;
    ro.max_depth = c->ropts.max_depth;
    ro.max_token = STREAM_MAX_TOKEN;
    ro.max_value = STREAM_MAX_TOKEN;
    tyjson_error err;
    tyjson_reader *r = tyjson_reader_new(&ro, &err);
    tyjson_writer *w = NULL;
    if (!r) {
        report_read_error(c, name, 0, &err, 0, NULL, 0);
        source_close(&src);
        return;
    }
    if (c->cmd == CMD_PRETTY || c->cmd == CMD_MINIFY || c->cmd == CMD_GET) {
        tyjson_writer_options wo;
        memset(&wo, 0, sizeof(wo));
        wo.flags = c->wopts.flags;
        wo.indent = c->wopts.indent;
        wo.max_depth = c->ropts.max_depth ? c->ropts.max_depth : TYJSON_DEFAULT_MAX_DEPTH;
        w = tyjson_writer_new_fp(stdout, &wo);
        if (!w) {
            fprintf(stderr, "tyjson: out of memory\n");
            raise_status(c, EXIT_TROUBLE);
            tyjson_reader_free(r);
            source_close(&src);
            return;
        }
    }
    tyjson_reader_open_cb(r, source_read, &src);
    int ok = 1;      /* the reader did not fail */
    int printed = 0; /* the writer holds a value to finish */
    switch (c->cmd) {
    case CMD_VALIDATE:
        ok = tyjson_reader_skip(r) == TYJSON_OK && tyjson_reader_next(r) == TYJSON_TOK_END;
        break;
    case CMD_STATS: {
        counts before = c->st;
        for (tyjson_token t; (t = tyjson_reader_next(r)) != TYJSON_TOK_END;) {
            if (t == TYJSON_TOK_ERROR) {
                c->st = before; /* an invalid input counts for nothing */
                ok = 0;
                break;
            }
            count_token(c, r, t);
        }
        if (ok) {
            c->st.documents++;
            c->st.bytes += tyjson_reader_consumed(r);
        }
        break;
    }
    case CMD_PRETTY:
    case CMD_MINIFY: {
        int k = copy_value(r, w);
        if (k > 0) {
            ok = tyjson_reader_next(r) == TYJSON_TOK_END;
            printed = 1;
        } else if (k < 0) {
            report_writer_error(c, name, w, tyjson_writer_status(w));
        } else {
            ok = 0;
        }
        break;
    }
    case CMD_GET: {
        int k = stream_get(c, r, name, w);
        if (k == 1) printed = 1;
        else if (k == 2) report_missing(c, name, 0);
        else if (k == 0) ok = 0;
        break;
    }
    default: /* patch, merge and diff read their two inputs whole */
        break;
    }
    /* Text the writer still holds for an input that failed is dropped
     * (what was flushed stays written) */
    if (printed && !c->out_failed) finish_output(c, name, w);
    if (!ok) {
        const tyjson_error *re = tyjson_reader_error(r);
        err = *re;
        if (err.code == TYJSON_OK) { /* a failure of the CLI's own memory */
            err.code = TYJSON_E_NOMEM;
            snprintf(err.msg, sizeof(err.msg), "%s", tyjson_status_msg(err.code));
        }
        int with_hints = err.code != TYJSON_E_IO && err.offset < src.head_len;
        report_read_error(c, name, 0, &err, src.err_no, with_hints ? src.head : NULL,
                          with_hints ? src.head_len : 0);
    }
    tyjson_writer_free(w);
    tyjson_reader_free(r);
    source_close(&src);
}

/* A bad NDJSON line: reported as the line by itself would be (its error
 * and hints relative to the line), under the line's number. */
static void report_bad_line(cli *c, const char *name, size_t line, size_t line_offset,
                            const tyjson_error *err, const char *dat, size_t full) {
    tyjson_error rel = *err;
    rel.line = 1;
    rel.offset -= line_offset;
    report_read_error(c, name, line, &rel, 0, dat, full);
}

static void lines_failed(cli *c, const char *name, tyjson_status st, size_t line,
                         int saved_errno) {
    if (st == TYJSON_E_NOMEM)
        fprintf(stderr, "tyjson: %s: line %zu too long: out of memory\n", name, line + 1);
    else
        fprintf(stderr, "tyjson: %s: %s\n", name, saved_errno ? strerror(saved_errno) : "read error");
    raise_status(c, EXIT_TROUBLE);
}

/* -j N: the records are parsed on N threads and handled here, in input
 * order, exactly as the loop below handles them. */
typedef struct lines_ctx {
    cli *c;
    const char *name;
} lines_ctx;

static int on_record(void *ctx, const tyjson_lines_item *item) {
    lines_ctx *lc = (lines_ctx *)ctx;
    if (item->doc) handle_doc(lc->c, lc->name, item->line, item->doc, item->full);
    else report_bad_line(lc->c, lc->name, item->line, item->offset, item->error, item->dat,
                         item->full);
    return lc->c->out_failed;
}

/* NDJSON through the library's iterator: memory stays bounded by the
 * longest line, and errors carry the line's real number in the file. */
static void run_lines(cli *c, FILE *fp, const char *name) {
    tyjson_lines_options lo;
    tyjson_error err;
    memset(&lo, 0, sizeof(lo));
    lo.read_flags = c->ropts.flags;
    lo.max_depth = c->ropts.max_depth;
    c->bad_lines = 0;
    tyjson_lines *it = tyjson_lines_open_fp(fp, &lo, &err);
    if (!it) {
        fprintf(stderr, "tyjson: %s: %s\n", name, err.msg);
        raise_status(c, EXIT_TROUBLE);
        return;
    }
    if (c->jobs > 1) {
        lines_ctx lc = {c, name};
        errno = 0;
        tyjson_status st = tyjson_lines_parallel_docs(it, c->jobs, on_record, &lc, &err);
        if (st == TYJSON_E_IO || st == TYJSON_E_NOMEM)
            lines_failed(c, name, st, tyjson_lines_line(it), errno);
    }
    while (c->jobs <= 1 && !c->out_failed) {
        tyjson_doc *doc = NULL;
        errno = 0;
        tyjson_status st =
            tyjson_lines_next_doc(it, c->cmd == CMD_VALIDATE ? NULL : &doc, &err);
        if (st == TYJSON_DONE) break;
        size_t len, full;
        const char *rec = tyjson_lines_record(it, &len, &full);
        if (st == TYJSON_OK) {
            /* validate needs no document: the library's validator, same errors */
            if (doc) handle_doc(c, name, tyjson_lines_line(it), doc, full);
            tyjson_doc_free(doc);
        } else if (st == TYJSON_E_IO || st == TYJSON_E_NOMEM) {
            lines_failed(c, name, st, tyjson_lines_line(it), errno);
            break;
        } else {
            report_bad_line(c, name, tyjson_lines_line(it), tyjson_lines_offset(it), &err, rec,
                            full);
        }
    }
    tyjson_lines_free(it);
    if (c->have_max_errors && c->bad_lines > c->max_errors) {
        size_t more = c->bad_lines - c->max_errors;
        fprintf(stderr, "%s: %zu more invalid line%s not reported (--max-errors %zu)\n", name,
                more, more == 1 ? "" : "s", c->max_errors);
    }
}

static void run_input(cli *c, const char *path) {
    int is_stdin = strcmp(path, "-") == 0;
    const char *name = is_stdin ? "<stdin>" : path;
    FILE *fp = is_stdin ? stdin : fopen(path, "rb");
    if (!fp) {
        fprintf(stderr, "tyjson: %s: %s\n", path, strerror(errno));
        raise_status(c, EXIT_TROUBLE);
        return;
    }
    if (c->lines) run_lines(c, fp, name);
    else run_stream(c, fp, name);
    if (!is_stdin) fclose(fp);
}

/* ----------------------------------------------------------------------------
 * MARK: - patch, merge, diff
 * ------------------------------------------------------------------------- */

/* A directory opens fine on POSIX systems, seeks, and may claim an absurd
 * size that the reader would then try to allocate. Reading one byte of a
 * seekable stream (and rewinding) turns that into the read error it is.
 * Returns 0 with *saved_errno set when the stream cannot be read. */
static int readable(FILE *fp, int *saved_errno) {
    if (fseek(fp, 0, SEEK_SET) != 0) return 1; /* a pipe: read as it comes */
    errno = 0;
    if (fgetc(fp) == EOF && ferror(fp)) {
        *saved_errno = errno;
        return 0;
    }
    rewind(fp);
    return 1;
}

/* One whole input as a document, or NULL with the failure reported. */
static tyjson_doc *load_edit_input(cli *c, const char *path) {
    int is_stdin = strcmp(path, "-") == 0;
    const char *name = is_stdin ? "<stdin>" : path;
    FILE *fp = is_stdin ? stdin : fopen(path, "rb");
    if (!fp) {
        fprintf(stderr, "tyjson: %s: %s\n", path, strerror(errno));
        raise_status(c, EXIT_TROUBLE);
        return NULL;
    }
    tyjson_error err;
    int saved = 0;
    tyjson_doc *doc = NULL;
    if (!readable(fp, &saved)) {
        err.code = TYJSON_E_IO;
        snprintf(err.msg, sizeof(err.msg), "%s", tyjson_status_msg(TYJSON_E_IO));
        report_read_error(c, name, 0, &err, saved, NULL, 0);
    } else {
        errno = 0;
        doc = tyjson_read_fp(fp, &c->ropts, &err);
        if (!doc) report_read_error(c, name, 0, &err, errno, NULL, 0);
    }
    if (!is_stdin) fclose(fp);
    return doc;
}

static void write_edit_result(cli *c, const tyjson_mut_doc *out) {
    tyjson_error err;
    size_t len;
    char *text = tyjson_mut_write_opts(out, &c->wopts, &len, &err);
    if (!text) {
        if (err.code == TYJSON_E_NOMEM) {
            fprintf(stderr, "tyjson: out of memory\n");
            raise_status(c, EXIT_TROUBLE);
        } else {
            fprintf(stderr, "tyjson: cannot write the result: %s\n", err.msg);
            raise_status(c, EXIT_INVALID);
        }
        return;
    }
    errno = 0;
    if (fwrite(text, 1, len, stdout) != len) output_failed(c, errno);
    free(text);
}

/* A patch that cannot be applied names its operation; memory is trouble. */
static void report_edit_error(cli *c, const char *name, const tyjson_error *err) {
    if (err->code == TYJSON_E_NOMEM) {
        fprintf(stderr, "tyjson: out of memory\n");
        raise_status(c, EXIT_TROUBLE);
        return;
    }
    fprintf(stderr, "%s: %s\n", strcmp(name, "-") == 0 ? "<stdin>" : name, err->msg);
    raise_status(c, EXIT_INVALID);
}

static void run_edit(cli *c, const char *first, const char *second) {
    tyjson_doc *a = load_edit_input(c, first);
    tyjson_doc *b = a ? load_edit_input(c, second) : NULL;
    tyjson_mut_doc *out = NULL;
    tyjson_error err;
    if (b && c->cmd == CMD_DIFF) {
        out = tyjson_diff(tyjson_doc_get_root(a), tyjson_doc_get_root(b), NULL, &err);
    } else if (b) {
        out = tyjson_doc_mut_copy(a, NULL);
        err.code = TYJSON_E_NOMEM;
        if (out) {
            tyjson_status st = c->cmd == CMD_PATCH
                                   ? tyjson_mut_doc_patch(out, tyjson_doc_get_root(b), &err)
                                   : tyjson_mut_doc_merge_patch(out, tyjson_doc_get_root(b), &err);
            if (st != TYJSON_OK) {
                tyjson_mut_doc_free(out);
                out = NULL;
            }
        }
    }
    if (out && !tyjson_mut_doc_get_root(out)) {
        /* "remove" of "" leaves nothing to write */
        fprintf(stderr, "%s: the patch removed the whole document\n", second);
        raise_status(c, EXIT_INVALID);
    } else if (out) {
        write_edit_result(c, out);
    } else if (b) {
        report_edit_error(c, second, &err);
    }
    tyjson_mut_doc_free(out);
    tyjson_doc_free(a);
    tyjson_doc_free(b);
}

/* ----------------------------------------------------------------------------
 * MARK: - Arguments
 * ------------------------------------------------------------------------- */

/* Decimal in [lo, hi]; no sign, no spaces. */
static int parse_count(const char *s, unsigned long long lo, unsigned long long hi,
                       unsigned long long *out) {
    unsigned long long v = 0;
    if (!*s) return 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') return 0;
        unsigned d = (unsigned)(*s - '0');
        if (v > (hi - d) / 10) return 0;
        v = v * 10 + d;
    }
    if (v < lo) return 0;
    *out = v;
    return 1;
}

/* RFC 6901 syntax: empty, or '/'-separated tokens where '~' is followed by
 * 0 or 1. Checked once up front so that a typo is a usage error rather than
 * a "no value" per input. */
static int pointer_valid(const char *p) {
    if (*p && *p != '/') return 0;
    for (; *p; p++)
        if (*p == '~' && p[1] != '0' && p[1] != '1') return 0;
    return 1;
}

/* command_names is in enum order. */
static int parse_command(const char *s, command *cmd) {
    for (size_t i = 0; i < sizeof(command_names) / sizeof(command_names[0]); i++) {
        if (strcmp(s, command_names[i]) == 0) {
            *cmd = (command)i;
            return 1;
        }
    }
    return 0;
}

/* --help: the command's own help when one is named, before the option or
 * after it ("tyjson get --help", "tyjson --help get"). */
static int show_help(int argc, char **argv, int have_cmd, command cmd) {
    for (int k = 1; !have_cmd && k < argc; k++) {
        if (strcmp(argv[k], "--") == 0) break;
        if (argv[k][0] == '-' && argv[k][1] != 0) continue;
        have_cmd = parse_command(argv[k], &cmd);
        break;
    }
    if (have_cmd) print_command_help((int)cmd);
    else print_help();
    return 0;
}

static const struct {
    const char *name;
    tyjson_read_flags flag;
} read_flag_opts[] = {
    {"--comments", TYJSON_READ_ALLOW_COMMENTS},
    {"--trailing-commas", TYJSON_READ_ALLOW_TRAILING_COMMAS},
    {"--inf-nan", TYJSON_READ_ALLOW_INF_NAN},
    {"--json5", TYJSON_READ_JSON5},
    {"--bom", TYJSON_READ_ALLOW_BOM},
    {"--allow-invalid-utf8", TYJSON_READ_ALLOW_INVALID_UTF8},
    {"--reject-duplicates", TYJSON_READ_REJECT_DUPLICATE_KEYS},
    {"--bignum-raw", TYJSON_READ_BIGNUM_AS_RAW},
};

/* Value of an option given as "--name=V" or "--name V"; NULL if absent. */
static const char *option_value(int argc, char **argv, int *i, const char *arg,
                                const char *name) {
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0) return NULL;
    if (arg[n] == '=') return arg + n + 1;
    if (arg[n] != 0) return NULL;
    if (*i + 1 >= argc) return "";
    return argv[++*i];
}

/* Parses one option at argv[*i]. Returns -1 to go on, else an exit status. */
static int parse_option(cli *c, int argc, char **argv, int *i, int have_cmd) {
    const char *arg = argv[*i];
    const char *val;
    unsigned long long num;
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0)
        return show_help(argc, argv, have_cmd, c->cmd);
    if (strcmp(arg, "--version") == 0) {
        printf("tyjson %s\n", TYJSON_VERSION_STRING);
        return 0;
    }
    if (strcmp(arg, "--lines") == 0) {
        c->lines = 1;
        return -1;
    }
    if (strcmp(arg, "--ascii") == 0) {
        c->wopts.flags |= TYJSON_WRITE_ESCAPE_UNICODE;
        return -1;
    }
    if (strcmp(arg, "-r") == 0 || strcmp(arg, "--raw") == 0) {
        c->raw = 1;
        return -1;
    }
    if (strcmp(arg, "--pretty") == 0) {
        c->pretty = 1;
        return -1;
    }
    if (strcmp(arg, "-q") == 0 || strcmp(arg, "--quiet") == 0) {
        c->quiet = 1;
        return -1;
    }
    if ((val = option_value(argc, argv, i, arg, "--default"))) {
        c->default_value = val;
        return -1;
    }
    if ((val = option_value(argc, argv, i, arg, "--jobs")) ||
        (strncmp(arg, "-j", 2) == 0 &&
         (val = arg[2] ? arg + 2 : option_value(argc, argv, i, arg, "-j")))) {
        if (!parse_count(val, 1, JOBS_MAX, &num))
            return usage_error("-j expects a number of threads from 1 to 256, not '%s'", val);
        c->jobs = (unsigned)num;
        return -1;
    }
    if ((val = option_value(argc, argv, i, arg, "--max-errors"))) {
        if (!parse_count(val, 0, SIZE_MAX, &num))
            return usage_error("--max-errors expects a number, not '%s'", val);
        c->max_errors = (size_t)num;
        c->have_max_errors = 1;
        return -1;
    }
    for (size_t k = 0; k < sizeof(read_flag_opts) / sizeof(read_flag_opts[0]); k++) {
        if (strcmp(arg, read_flag_opts[k].name) == 0) {
            c->ropts.flags |= read_flag_opts[k].flag;
            return -1;
        }
    }
    if ((val = option_value(argc, argv, i, arg, "--indent"))) {
        if (!parse_count(val, 1, INDENT_MAX, &num))
            return usage_error("--indent expects a number from 1 to 64, not '%s'", val);
        c->wopts.indent = (uint32_t)num;
        return -1;
    }
    if ((val = option_value(argc, argv, i, arg, "--max-depth"))) {
        if (!parse_count(val, 1, UINT32_MAX, &num))
            return usage_error("--max-depth expects a number from 1 to 4294967295, not '%s'",
                               val);
        c->ropts.max_depth = (uint32_t)num;
        return -1;
    }
    return usage_error("unknown option '%s'", arg);
}

/* patch, merge, diff: exactly two inputs, at most one of them stdin, no
 * NDJSON. Returns -1 when fine, else an exit status. */
static int check_edit_args(const cli *c, const char **files, size_t nf) {
    const char *name = command_names[c->cmd];
    if (nf != 2)
        return usage_error(c->cmd == CMD_DIFF ? "%s: expects two inputs, A and B"
                                              : "%s: expects two inputs, DOC and PATCH",
                           name);
    if (strcmp(files[0], "-") == 0 && strcmp(files[1], "-") == 0)
        return usage_error("%s: only one input can be standard input", name);
    if (c->lines) return usage_error("%s: --lines does not apply", name);
    return -1;
}

/* Fills c and `files` (room for argc entries) with the inputs. Returns -1
 * to run, else an exit status. */
static int parse_args(cli *c, int argc, char **argv, const char **files, size_t *n_files) {
    size_t nf = 0;
    int have_cmd = 0, have_ptr = 0, opts_done = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!opts_done && arg[0] == '-' && arg[1] != 0) {
            if (strcmp(arg, "--") == 0) {
                opts_done = 1;
                continue;
            }
            int r = parse_option(c, argc, argv, &i, have_cmd);
            if (r >= 0) return r;
            continue;
        }
        if (!have_cmd) {
            if (!parse_command(arg, &c->cmd)) return usage_error("unknown command '%s'", arg);
            have_cmd = 1;
        } else if (c->cmd == CMD_GET && !have_ptr) {
            if (!pointer_valid(arg)) return usage_error("invalid JSON Pointer '%s'", arg);
            c->pointer = arg;
            have_ptr = 1;
        } else {
            files[nf++] = arg;
        }
    }
    if (!have_cmd) return usage_error("%s", "missing command");
    if (c->cmd == CMD_GET && !have_ptr) return usage_error("%s", "get: missing POINTER");
    if (c->cmd != CMD_GET && (c->raw || c->quiet || c->default_value))
        return usage_error("%s", "-r, --quiet and --default are options of get");
    if (c->have_max_errors && !c->lines)
        return usage_error("%s", "--max-errors applies to --lines input");
    if (c->pretty && !is_edit(c->cmd))
        return usage_error("%s", "--pretty is an option of patch, merge and diff");
    if (is_edit(c->cmd)) {
        int r = check_edit_args(c, files, nf);
        if (r >= 0) return r;
    }
    if (c->jobs && !c->lines) return usage_error("%s", "-j applies to --lines input");
    *n_files = nf;
    return -1;
}

static void set_write_flags(cli *c) {
    if (c->cmd == CMD_PRETTY) c->wopts.flags |= TYJSON_WRITE_PRETTY;
    if (is_edit(c->cmd) && (c->pretty || c->wopts.indent)) c->wopts.flags |= TYJSON_WRITE_PRETTY;
    /* What the reader was told to accept, the writer must be able to emit. */
    if (c->ropts.flags & TYJSON_READ_ALLOW_INF_NAN) c->wopts.flags |= TYJSON_WRITE_ALLOW_INF_NAN;
    if (c->ropts.flags & TYJSON_READ_ALLOW_INVALID_UTF8)
        c->wopts.flags |= TYJSON_WRITE_REPLACE_INVALID_UTF8;
    c->wopts.flags |= TYJSON_WRITE_NEWLINE_AT_END;
}

int main(int argc, char **argv) {
    cli c;
    memset(&c, 0, sizeof(c));
    /* Every RFC 8259 text is accepted: numbers beyond 64-bit integers and
     * doubles are kept as their text, and written back unchanged. */
    c.ropts.flags = TYJSON_READ_BIGNUM_AS_RAW;
    size_t n_inputs = 0;
    const char **inputs = (const char **)malloc((size_t)(argc > 0 ? argc : 1) * sizeof(*inputs));
    if (!inputs) {
        fprintf(stderr, "tyjson: out of memory\n");
        return EXIT_TROUBLE;
    }
    int r = parse_args(&c, argc, argv, inputs, &n_inputs);
    if (r >= 0) {
        free(inputs);
        return r;
    }
    set_write_flags(&c);

    if (is_edit(c.cmd)) run_edit(&c, inputs[0], inputs[1]);
    else if (n_inputs == 0) run_input(&c, "-");
    for (size_t i = 0; !is_edit(c.cmd) && i < n_inputs && !c.out_failed; i++) run_input(&c, inputs[i]);
    if (c.cmd == CMD_STATS) print_counts(&c.st);
    free(c.stack);
    free(inputs);

    errno = 0;
    if ((fflush(stdout) != 0 || ferror(stdout)) && !c.out_failed) output_failed(&c, errno);
    return c.status;
}
