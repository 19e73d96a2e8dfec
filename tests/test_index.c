#define _DEFAULT_SOURCE /* opendir */
/* test_index.c - the structural indexer (read/index.h): every kernel this
 * CPU can run against a byte-at-a-time reference written from the rules in
 * index.h, on hand-picked cases, random byte soups built to hit escapes,
 * quotes, control characters and UTF-8 sequences across block and window
 * boundaries, UTF-8 cut by the AVX2 kernel's half-block seams, every token
 * count a block can have, and the corpus and JSONTestSuite files (each also
 * with bytes corrupted). Equal means the same entries, in order, and the
 * same err. */
#include "test.h"
#include "read/index.h"
#include "read/simd.h"

#include <dirent.h>

/* ----------------------------------------------------------------------------
 * The reference
 * ------------------------------------------------------------------------- */
typedef struct listing {
    size_t *pos;
    size_t n, cap;
    bool err;
} listing;

static void listing_add(listing *l, size_t at) {
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 256;
        l->pos = (size_t *)realloc(l->pos, l->cap * sizeof(size_t));
        if (!l->pos) abort();
    }
    l->pos[l->n++] = at;
}

static bool is_ws_byte(u8 c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
static bool is_op_byte(u8 c) {
    return c == '{' || c == '}' || c == '[' || c == ']' || c == ',' || c == ':';
}

/* Whether [p, end) is valid UTF-8, sequence by sequence (RFC 3629). */
static bool utf8_ok(const u8 *p, const u8 *end) {
    while (p < end) {
        if (*p < 0x80) {
            p++;
            continue;
        }
        size_t n = tyjson__utf8_seq(p, end);
        if (!n) return false;
        p += n;
    }
    return true;
}

static listing reference(const u8 *s, size_t len) {
    listing l = {NULL, 0, 0, false};
    bool in = false, esc = false, run = false;
    for (size_t i = 0; i < len; i++) {
        u8 c = s[i];
        bool quote = c == '"' && !esc;
        bool starts_escape = c == '\\' && !esc;
        esc = starts_escape;
        if (in) {
            if (quote) {
                listing_add(&l, i);
                in = false;
            } else if (starts_escape) {
                listing_add(&l, i);
            } else if (c < 0x20) {
                l.err = true;
            }
            run = false;
        } else if (quote) {
            listing_add(&l, i);
            in = true;
            run = false;
        } else if (is_ws_byte(c)) {
            run = false;
        } else if (is_op_byte(c)) {
            listing_add(&l, i);
            run = false;
        } else {
            if (!run) listing_add(&l, i);
            run = true;
        }
    }
    if (in || !utf8_ok(s, s + len)) l.err = true;
    return l;
}

/* ----------------------------------------------------------------------------
 * A kernel through the window driver
 * ------------------------------------------------------------------------- */
static listing run_level(const u8 *s, size_t len, int level, size_t first_blocks) {
    listing l = {NULL, 0, 0, false};
    tyjson__simd_set_level(level);
    tyjson__indexer *ix = (tyjson__indexer *)malloc(sizeof(*ix));
    if (!ix) abort();
    tyjson__indexer_init(ix, s, s + len, first_blocks);
    const u8 *base;
    size_t n;
    while ((n = tyjson__indexer_next(ix, &base)) != 0 || !ix->done || ix->pos != ix->end) {
        for (size_t i = 0; i < n; i++) listing_add(&l, (size_t)(base - s) + ix->idx[i]);
        if (n == 0 && ix->done) break;
    }
    l.err = ix->st.err != 0;
    free(ix);
    return l;
}

/* The levels this CPU runs, scalar first. */
static int levels[4];
static int level_count;

static void find_levels(void) {
    static const int all[] = {TYJSON__SIMD_SCALAR, TYJSON__SIMD_AVX2, TYJSON__SIMD_AVX512,
                              TYJSON__SIMD_NEON};
    tyjson__simd_set_level(TYJSON__SIMD_AUTO);
    int best = tyjson__simd_level();
    level_count = 0;
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
        if (tyjson__simd_level_ok(all[i], best)) levels[level_count++] = all[i];
}

static long long checks;

static void check_input(const char *name, const u8 *s, size_t len) {
    listing want = reference(s, len);
    for (int r = 0; r < 2 * level_count; r++) {
        int k = r / 2;
        /* windows of the most blocks, and windows growing from one block */
        listing got = run_level(s, len, levels[k], (r & 1) ? 1 : TYJSON__IDX_WINDOW / 64);
        checks++;
        if (got.err != want.err)
            TEST_FAIL("%s (%zu bytes), level %d: err %d, reference %d", name, len, levels[k],
                      (int)got.err, (int)want.err);
        size_t m = got.n < want.n ? got.n : want.n;
        for (size_t i = 0; i < m; i++)
            if (got.pos[i] != want.pos[i])
                TEST_FAIL("%s, level %d: entry %zu at %zu, reference %zu", name, levels[k], i,
                          got.pos[i], want.pos[i]);
        if (got.n != want.n)
            TEST_FAIL("%s, level %d: %zu entries, reference %zu", name, levels[k], got.n, want.n);
        free(got.pos);
    }
    free(want.pos);
    tyjson__simd_set_level(TYJSON__SIMD_AUTO);
}

static void check_str(const char *s) { check_input(s, (const u8 *)s, strlen(s)); }

/* ----------------------------------------------------------------------------
 * Cases
 * ------------------------------------------------------------------------- */
TEST(levels_found) {
    find_levels();
    ASSERT_TRUE(level_count >= 1);
    ASSERT_EQ_INT(levels[0], TYJSON__SIMD_SCALAR);
    printf("  kernels: %d (best level %d)\n", level_count, tyjson__simd_level());
}

TEST(entries_of_small_documents) {
    find_levels();
    listing l = reference((const u8 *)"{\"a\" : [1, true,\"x\\\"y\"]}", 24);
    /* { " " : [ 1 , t , " \ " ] } */
    static const size_t want[] = {0, 1, 3, 5, 7, 8, 9, 11, 15, 16, 18, 21, 22, 23};
    ASSERT_FALSE(l.err);
    ASSERT_EQ_UINT(l.n, sizeof(want) / sizeof(want[0]));
    for (size_t i = 0; i < l.n; i++) ASSERT_EQ_UINT(l.pos[i], want[i]);
    free(l.pos);
    check_str("{\"a\" : [1, true,\"x\\\"y\"]}");
    check_str("");
    check_str("   ");
    check_str("\"unterminated");
    check_str("\"ctrl\x01\"");
    check_str("\"\\\\\" \"\\\\\\\"\"");
    check_str("[1,2]\x80");
    check_str("\"caf\xC3\xA9\" \"\xE2\x82\xAC\" \"\xF0\x9F\x98\x80\"");
    check_str("\"\xED\xA0\x80\"");
    check_str("\"\xC3\"");
    check_str("\\\"a\" b");
}

/* Every run length of backslashes, ending at every offset around the
 * first block boundary, followed by a quote. */
TEST(backslash_runs_across_blocks) {
    find_levels();
    u8 buf[200];
    for (size_t run = 0; run <= 70; run++) {
        for (size_t at = 40; at < 80; at++) {
            if (at + run + 3 > sizeof(buf)) continue;
            memset(buf, 'a', sizeof(buf));
            buf[0] = '"';
            memset(buf + at, '\\', run);
            buf[at + run] = '"';
            buf[at + run + 1] = '"';
            buf[at + run + 2] = ' ';
            check_input("backslash run", buf, at + run + 3);
        }
    }
}

/* Multi-byte sequences (valid and not) cut by every block boundary. */
TEST(utf8_across_blocks) {
    find_levels();
    static const char *const seqs[] = {"\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80",
                                       "\xF4\x8F\xBF\xBF", "\xE0\xA0\x80", "\xED\x9F\xBF",
                                       "\xC0\xAF", "\xE0\x80\xAF", "\xED\xA0\x80",
                                       "\xF4\x90\x80\x80", "\xF0\x80\x80\x80", "\xF8",
                                       "\x80", "\xC3", "\xE2\x82", "\xF0\x9F\x98"};
    u8 buf[300];
    for (size_t k = 0; k < sizeof(seqs) / sizeof(seqs[0]); k++) {
        size_t n = strlen(seqs[k]);
        for (size_t at = 56; at < 72; at++) {
            for (int quoted = 0; quoted < 2; quoted++) {
                memset(buf, ' ', sizeof(buf));
                if (quoted) buf[0] = '"';
                memcpy(buf + at, seqs[k], n);
                size_t len = at + n;
                if (quoted) buf[len++] = '"';
                check_input(seqs[k], buf, len);
                /* and with the input ending right after the sequence */
                check_input(seqs[k], buf, at + n);
            }
        }
    }
}

static u64 rng_state = 0x2545F4914F6CDD1Dull;
static u64 rnd(void) {
    u64 z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The same sequences cut by the AVX2 kernel's half-block seams (bytes 32
 * and 96) and by the window driver's seam (TYJSON__IDX_WINDOW), where the
 * previous bytes come from another vector or another kernel call. */
TEST(utf8_across_halves_and_windows) {
    find_levels();
    static const char *const seqs[] = {"\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80",
                                       "\xE0\x80\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80",
                                       "\x80", "\xC3", "\xE2\x82", "\xF0\x9F\x98"};
    static const size_t seams[] = {32, 96, TYJSON__IDX_WINDOW};
    size_t cap = TYJSON__IDX_WINDOW + 64;
    u8 *buf = (u8 *)malloc(cap);
    ASSERT_NOT_NULL(buf);
    for (size_t k = 0; k < sizeof(seqs) / sizeof(seqs[0]); k++) {
        size_t n = strlen(seqs[k]);
        for (size_t j = 0; j < sizeof(seams) / sizeof(seams[0]); j++) {
            for (size_t at = seams[j] - 4; at <= seams[j] + 1; at++) {
                memset(buf, 'a', cap);
                buf[0] = '"';
                memcpy(buf + at, seqs[k], n);
                buf[at + n] = '"';
                check_input(seqs[k], buf, at + n + 1);
                /* and the text after it ASCII to the end of its block */
                check_input(seqs[k], buf, (at + n + 64) / 64 * 64);
            }
        }
    }
    free(buf);
}

/* Blocks with every token count from 0 to 64, the tokens at random places
 * (structural characters among spaces, each a token of its own), after a
 * block with a few tokens so that the entries do not start at 0: covers
 * every path of every kernel's flatten. */
TEST(every_token_count_per_block) {
    find_levels();
    u8 buf[3 * 64];
    for (unsigned count = 0; count <= 64; count++) {
        for (int trial = 0; trial < 8; trial++) {
            memset(buf, ' ', sizeof(buf));
            memcpy(buf, "[1, 2, 3]", 9);
            u8 *blk = buf + 64;
            /* the first `count` positions of a random permutation */
            u8 order[64];
            for (unsigned i = 0; i < 64; i++) order[i] = (u8)i;
            for (unsigned i = 63; i > 0; i--) {
                unsigned r = (unsigned)(rnd() % (i + 1));
                u8 t = order[i];
                order[i] = order[r];
                order[r] = t;
            }
            for (unsigned i = 0; i < count; i++) blk[order[i]] = (u8)",:[]{}"[rnd() % 6];
            check_input("token count", buf, sizeof(buf));
        }
    }
}

/* Windows full of blocks with random token counts from 0 to 64 each,
 * block after block: a kernel's entries of one block continue where the
 * previous block's stopped, also after blocks with more than 32 entries
 * (the AVX-512 flatten's second half), up to the window's last entry. */
TEST(token_counts_block_after_block) {
    find_levels();
    size_t len = 3 * TYJSON__IDX_WINDOW;
    u8 *buf = (u8 *)malloc(len);
    ASSERT_NOT_NULL(buf);
    for (int trial = 0; trial < 16; trial++) {
        memset(buf, ' ', len);
        for (size_t blk = 0; blk < len / 64; blk++) {
            /* dense (33..64) in most trials' blocks, any count in the others */
            unsigned count = (unsigned)(trial % 2 ? rnd() % 65 : 33 + rnd() % 32);
            for (unsigned i = 0; i < count; i++) buf[blk * 64 + rnd() % 64] = (u8)",:[]{}"[rnd() % 6];
        }
        check_input("token counts block after block", buf, len);
    }
    free(buf);
}

/* Random soups of the bytes that matter, up to a few windows long. */
TEST(random_soups) {
    find_levels();
    static const char *const atoms[] = {"\"", "\\", " ", "\n", "\t", "{", "}", "[", "]", ",",
                                        ":", "a", "1", "-", "\x01", "\x1f", "\xC3\xA9",
                                        "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\x80", "\xC3",
                                        "\xED\xA0\x80", "\xFF", "\\\"", "\\\\", "\0"};
    size_t natoms = sizeof(atoms) / sizeof(atoms[0]);
    size_t cap = 3 * TYJSON__IDX_WINDOW + 200;
    u8 *buf = (u8 *)malloc(cap);
    ASSERT_NOT_NULL(buf);
    for (int iter = 0; iter < 4000; iter++) {
        size_t target = (size_t)(rnd() % (iter % 10 == 0 ? cap - 8 : 300));
        size_t len = 0;
        /* skewed towards a few atoms per soup, so long strings and runs occur */
        size_t pick[4];
        for (int j = 0; j < 4; j++) pick[j] = (size_t)(rnd() % natoms);
        while (len < target) {
            u64 r = rnd();
            const char *a = (r & 3) ? atoms[pick[(r >> 2) & 3]] : atoms[(r >> 4) % natoms];
            size_t n = (a[0] == 0) ? 1 : strlen(a);
            if (len + n > target) break;
            memcpy(buf + len, a, n);
            len += n;
        }
        check_input("random soup", buf, len);
    }
    free(buf);
    printf("  %lld kernel runs compared\n", checks);
}

static void check_file(const char *name, const char *path, int mutations) {
    size_t len = 0;
    char *dat = test_read_file(path, &len);
    if (!dat) return;
    check_input(name, (const u8 *)dat, len);
    for (int m = 0; m < mutations && len; m++) {
        size_t at = (size_t)(rnd() % len);
        char old = dat[at];
        static const u8 swaps[] = {0x80, 0xC0, 0xE0, 0xED, 0xF0, 0xFF, 0x01, '"', '\\', ' '};
        dat[at] = (char)swaps[rnd() % sizeof(swaps)];
        check_input(name, (const u8 *)dat, len);
        dat[at] = old;
    }
    free(dat);
}

TEST(corpus_files) {
    find_levels();
    static const char *const files[] = {"canada.json", "citm_catalog.json", "github_events.json",
                                        "mesh.json", "numbers.json", "poet.json",
                                        "twitter.json", "twitterescaped.json"};
    int found = 0;
    char path[1024];
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        char rel[256];
        snprintf(rel, sizeof(rel), "corpus/%s", files[i]);
        test_shared_path(rel, path, sizeof(path));
        FILE *f = fopen(path, "rb");
        if (!f) continue;
        fclose(f);
        found++;
        check_file(files[i], path, 8);
    }
    if (!found) {
        if (test_require_shared()) TEST_FAIL("corpus missing near %s", path);
        TEST_SKIP("corpus not found");
    }
}

TEST(conformance_files) {
    find_levels();
    char dir[1024];
    test_shared_path("conformance/test_parsing", dir, sizeof(dir));
    DIR *d = opendir(dir);
    if (!d) {
        if (test_require_shared()) TEST_FAIL("conformance suite missing: %s", dir);
        TEST_SKIP("conformance suite not found at %s", dir);
    }
    struct dirent *e;
    int count = 0;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 5, ".json") != 0) continue;
        char path[2048];
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        check_file(e->d_name, path, 2);
        count++;
    }
    closedir(d);
    ASSERT_TRUE(count > 0);
}

int main(int argc, char **argv) { return test_main(argc, argv); }
