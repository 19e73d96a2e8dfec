/*
 * standalone.c - runs a libFuzzer target without libFuzzer: every file named
 * on the command line, and every file under each directory named (recursing,
 * in name order), is passed once to LLVMFuzzerTestOneInput. Each input sits in
 * an exactly sized heap block so that AddressSanitizer sees reads past its
 * end. Used to replay seeds, the conformance suite and saved crashes in
 * ordinary builds and in ctest.
 *
 *   replay_parse fuzz/seeds/parse crash-1234
 *   replay_parse -prefix=0000 conformance/test_parsing
 *
 * -v names each input before running it; a check that aborts names its
 * input anyway. -prefix=HEX puts those bytes before every input: a target whose first
 * bytes pick options can then run over plain data files (0000: the parse
 * target's strict flags).
 *
 * Exit status: 0 when every input ran (a failing check aborts the process),
 * 1 when a path cannot be read.
 */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#  define _POSIX_C_SOURCE 200809L /* opendir, stat */
#endif

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _WIN32
#  include <windows.h>
#else
#  include <dirent.h>
#  include <sys/stat.h>
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t inputs_run;
static int verbose;
static const char *current_path; /* named when a check aborts */

static void on_abort(int sig) {
    (void)sig;
    if (current_path) {
        fputs("standalone: aborted while running ", stderr);
        fputs(current_path, stderr);
        fputc('\n', stderr);
    }
    signal(SIGABRT, SIG_DFL);
    abort();
}
static uint8_t prefix[64];
static size_t prefix_len;

static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static int set_prefix(const char *hex) {
    size_t n = strlen(hex);
    if (n % 2 || n / 2 > sizeof(prefix)) return 1;
    for (size_t i = 0; i < n / 2; i++) {
        int hi = hex_digit(hex[2 * i]), lo = hex_digit(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) return 1;
        prefix[i] = (uint8_t)(hi * 16 + lo);
    }
    prefix_len = n / 2;
    return 0;
}

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "standalone: cannot open %s\n", path);
        return 1;
    }
    size_t cap = 4096, n = 0;
    uint8_t *buf = (uint8_t *)malloc(cap);
    for (;;) {
        if (!buf) break;
        if (n == cap) {
            uint8_t *nb = (uint8_t *)realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    int bad = ferror(f) || !buf;
    fclose(f);
    if (bad) {
        free(buf);
        fprintf(stderr, "standalone: cannot read %s\n", path);
        return 1;
    }
    /* Exactly sized copy: the target must not read past its end. */
    size_t total = prefix_len + n;
    uint8_t *exact = (uint8_t *)malloc(total ? total : 1);
    if (!exact) {
        free(buf);
        return 1;
    }
    if (prefix_len) memcpy(exact, prefix, prefix_len);
    if (n) memcpy(exact + prefix_len, buf, n);
    free(buf);
    if (verbose) fprintf(stderr, "running %s\n", path);
    current_path = path;
    LLVMFuzzerTestOneInput(exact, total);
    current_path = NULL;
    free(exact);
    inputs_run++;
    return 0;
}

static int name_cmp(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_path(const char *path);

/* Runs every entry of a directory, sorted by name, skipping dot files. */
static int run_dir(const char *dir, char **names, size_t count) {
    int rc = 0;
    if (count > 1) qsort(names, count, sizeof(*names), name_cmp);
    for (size_t i = 0; i < count; i++) {
        size_t need = strlen(dir) + strlen(names[i]) + 2;
        char *full = (char *)malloc(need);
        if (full) {
            snprintf(full, need, "%s/%s", dir, names[i]);
            rc |= run_path(full);
            free(full);
        } else {
            rc = 1;
        }
        free(names[i]);
    }
    free(names);
    return rc;
}

static int add_name(char ***names, size_t *count, size_t *cap, const char *name) {
    if (name[0] == '.') return 0;
    if (*count == *cap) {
        size_t ncap = *cap ? *cap * 2 : 32;
        char **nn = (char **)realloc(*names, ncap * sizeof(*nn));
        if (!nn) return 1;
        *names = nn;
        *cap = ncap;
    }
    size_t len = strlen(name);
    char *copy = (char *)malloc(len + 1);
    if (!copy) return 1;
    memcpy(copy, name, len + 1);
    (*names)[(*count)++] = copy;
    return 0;
}

#ifdef _WIN32
static int run_path(const char *path) {
    DWORD attr = GetFileAttributesA(path);
    if (attr == INVALID_FILE_ATTRIBUTES) {
        fprintf(stderr, "standalone: no such path %s\n", path);
        return 1;
    }
    if (!(attr & FILE_ATTRIBUTE_DIRECTORY)) return run_file(path);
    size_t need = strlen(path) + 3;
    char *pattern = (char *)malloc(need);
    if (!pattern) return 1;
    snprintf(pattern, need, "%s\\*", path);
    WIN32_FIND_DATAA fd;
    HANDLE h = FindFirstFileA(pattern, &fd);
    free(pattern);
    char **names = NULL;
    size_t count = 0, cap = 0;
    int rc = 0;
    if (h != INVALID_HANDLE_VALUE) {
        do rc |= add_name(&names, &count, &cap, fd.cFileName);
        while (FindNextFileA(h, &fd));
        FindClose(h);
    }
    return rc | run_dir(path, names, count);
}
#else
static int run_path(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "standalone: no such path %s\n", path);
        return 1;
    }
    if (!S_ISDIR(st.st_mode)) return run_file(path);
    DIR *d = opendir(path);
    if (!d) {
        fprintf(stderr, "standalone: cannot open directory %s\n", path);
        return 1;
    }
    char **names = NULL;
    size_t count = 0, cap = 0;
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) rc |= add_name(&names, &count, &cap, e->d_name);
    closedir(d);
    return rc | run_dir(path, names, count);
}
#endif

int main(int argc, char **argv) {
    int rc = 0;
    if (argc < 2) {
        fprintf(stderr, "usage: %s [-v] [-prefix=HEX] FILE_OR_DIR...\n", argv[0]);
        return 2;
    }
    signal(SIGABRT, on_abort);
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "-prefix=", 8) == 0) {
            if (set_prefix(argv[i] + 8)) {
                fprintf(stderr, "standalone: bad %s (even number of hex digits, at most 128)\n", argv[i]);
                return 2;
            }
            continue;
        }
        if (strcmp(argv[i], "-v") == 0) {
            verbose = 1;
            continue;
        }
        /* libFuzzer options (-runs=..., -max_len=...) are accepted and ignored. */
        if (argv[i][0] == '-') continue;
        rc |= run_path(argv[i]);
    }
    printf("standalone: %zu inputs run\n", inputs_run);
    return rc;
}
