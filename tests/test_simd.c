#define _DEFAULT_SOURCE /* mmap, mprotect, opendir */
/* test_simd.c - the string scanner's kernels against each other: the
 * portable one, the AVX2 or NEON one (skipped when the CPU lacks it), a plain
 * byte-at-a-time reference, on random strings, exhaustive byte patterns,
 * terminators and bad sequences at every offset around the block
 * boundaries, then whole documents (corpus and JSONTestSuite) parsed with
 * the vector code on and off. Strings end right before an unreadable page,
 * so a kernel that reads past `end` crashes even without a sanitizer. */
#include "test.h"
#include "tyjson.h"
#include "read/simd.h"
#include "read/lex.h"
#include "dom/parse.h"
#include "read/index.h"

#include <dirent.h>
#if defined(__unix__) || defined(__APPLE__)
#  include <sys/mman.h>
#  include <unistd.h>
#  define HAVE_GUARD 1
#else
#  define HAVE_GUARD 0
#endif

#if defined(__SANITIZE_ADDRESS__)
#  define SANITIZED 1
#elif defined(__has_feature)
#  if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#    define SANITIZED 1
#  endif
#endif
#ifndef SANITIZED
#  define SANITIZED 0
#endif

/* Random cases: at least a million in a plain build. */
#define RANDOM_CASES (SANITIZED ? 100000 : 1000000)

/* ----------------------------------------------------------------------------
 * Helpers
 * ------------------------------------------------------------------------- */
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rnd(void) {
    /* splitmix64 */
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static unsigned rnd_below(unsigned n) { return (unsigned)(rnd() % n); }

/* A buffer whose end touches an inaccessible page (where available). */
typedef struct guarded {
    u8 *base;
    size_t size; /* usable bytes, ending at the guard */
    size_t map_size;
} guarded;

static guarded guarded_new(size_t size) {
    guarded g;
    g.size = size;
#if HAVE_GUARD
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t body = (size + page - 1) / page * page;
    g.map_size = body + page;
    u8 *m = (u8 *)mmap(NULL, g.map_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                       -1, 0);
    if (m == MAP_FAILED) {
        g.base = NULL;
        return g;
    }
    if (mprotect(m + body, page, PROT_NONE) != 0) {
        munmap(m, g.map_size);
        g.base = NULL;
        return g;
    }
    g.base = m + body - size;
#else
    g.map_size = 0;
    g.base = (u8 *)malloc(size);
#endif
    return g;
}

static void guarded_free(guarded *g) {
#if HAVE_GUARD
    if (g->base) {
        size_t page = (size_t)sysconf(_SC_PAGESIZE);
        size_t body = g->map_size - page;
        munmap(g->base + g->size - body, g->map_size);
    }
#else
    free(g->base);
#endif
    g->base = NULL;
}

/* The scanner's contract, one byte or sequence at a time, with nothing
 * shared with the kernels but the sequence validator. */
static tyjson__str_scan reference(const u8 *p, const u8 *end, bool allow_invalid) {
    tyjson__str_scan r;
    while (p < end) {
        u8 c = *p;
        if (c == '"' || c == '\\') {
            r.stop = p;
            r.err = TYJSON_OK;
            return r;
        }
        if (c < 0x20) {
            r.stop = p;
            r.err = TYJSON_E_STRING_CTRL;
            return r;
        }
        if (c < 0x80) {
            p++;
            continue;
        }
        usize n = tyjson__utf8_seq_slow(p, end);
        if (n == 0) {
            if (!allow_invalid) {
                r.stop = p;
                r.err = TYJSON_E_UTF8;
                return r;
            }
            n = 1;
        }
        p += n;
    }
    r.stop = end;
    r.err = TYJSON_E_TRUNCATED;
    return r;
}

/* The level of this CPU's vector string scanner (AVX2 or NEON), or
 * scalar when it has none. */
static int vector_scan_level(void) {
    static const int vector[] = {TYJSON__SIMD_AVX2, TYJSON__SIMD_NEON};
    int found = TYJSON__SIMD_SCALAR;
    for (size_t i = 0; i < sizeof(vector) / sizeof(vector[0]) && !found; i++) {
        tyjson__simd_set_level(vector[i]);
        if (tyjson__simd_level() == vector[i]) found = vector[i];
    }
    tyjson__simd_set_level(TYJSON__SIMD_AUTO);
    return found;
}

static long long checks;

/* Scans s[0..len) (copied to the end of g) with every kernel and both
 * entry points; fails the test on any disagreement. */
static void check_all(guarded *g, const u8 *s, size_t len, int vector) {
    u8 *p = g->base + g->size - len;
    memcpy(p, s, len);
    const u8 *end = p + len;
    for (int ai = 0; ai < 2; ai++) {
        bool allow = ai != 0;
        tyjson__str_scan want = reference(p, end, allow);
        tyjson__str_scan got[5];
        int n = 0;
        tyjson__simd_set_level(TYJSON__SIMD_SCALAR);
        got[n++] = tyjson__str_scan_plain(p, end, allow);
        got[n++] = tyjson__str_scan_long(p, end, allow);
        got[n++] = tyjson__str_scan_scalar(p, end, allow);
        if (vector != TYJSON__SIMD_SCALAR) {
            tyjson__simd_set_level(vector);
            got[n++] = tyjson__str_scan_plain(p, end, allow);
            got[n++] = tyjson__str_scan_long(p, end, allow);
        }
        for (int i = 0; i < n; i++) {
            if (got[i].err != want.err || got[i].stop != want.stop) {
                fprintf(stderr, "  input (%zu bytes, allow_invalid %d):", len, ai);
                for (size_t k = 0; k < len; k++) fprintf(stderr, " %02X", s[k]);
                fputc('\n', stderr);
                TEST_FAIL("scan %d: %s at %td, reference %s at %td", i,
                          tyjson_status_name(got[i].err), got[i].stop - p,
                          tyjson_status_name(want.err), want.stop - p);
            }
        }
        checks++;
    }
}

/* ----------------------------------------------------------------------------
 * String pieces
 * ------------------------------------------------------------------------- */
static u8 rnd_cont(void) { return (u8)(0x80 | rnd_below(0x40)); }

/* Appends a valid character of 1-4 bytes; returns its length. */
static size_t put_valid(u8 *o, int kind) {
    switch (kind) {
    case 0: { /* ASCII without terminators */
        u8 c;
        do c = (u8)(0x20 + rnd_below(0x60)); while (c == '"' || c == '\\');
        o[0] = c;
        return 1;
    }
    case 1:
        o[0] = (u8)(0xC2 + rnd_below(0x1E));
        o[1] = rnd_cont();
        return 2;
    case 2: {
        u8 b0 = (u8)(0xE0 + rnd_below(16));
        u8 b1 = rnd_cont();
        if (b0 == 0xE0) b1 = (u8)(0xA0 | (b1 & 0x1F));
        if (b0 == 0xED) b1 = (u8)(0x80 | (b1 & 0x1F));
        o[0] = b0;
        o[1] = b1;
        o[2] = rnd_cont();
        return 3;
    }
    default: {
        u8 b0 = (u8)(0xF0 + rnd_below(5));
        u8 b1 = rnd_cont();
        if (b0 == 0xF0) b1 = (u8)(0x90 + rnd_below(0x30));
        if (b0 == 0xF4) b1 = (u8)(0x80 | (b1 & 0x0F));
        o[0] = b0;
        o[1] = b1;
        o[2] = rnd_cont();
        o[3] = rnd_cont();
        return 4;
    }
    }
}

/* Appends one bad sequence of the given class; returns its length. */
#define BAD_CLASSES 11
static size_t put_bad(u8 *o, int cls) {
    switch (cls) {
    case 0: /* stray continuation */
        o[0] = rnd_cont();
        return 1;
    case 1: /* overlong 2-byte */
        o[0] = (u8)(0xC0 + rnd_below(2));
        o[1] = rnd_cont();
        return 2;
    case 2: /* overlong 3-byte */
        o[0] = 0xE0;
        o[1] = (u8)(0x80 + rnd_below(0x20));
        o[2] = rnd_cont();
        return 3;
    case 3: /* surrogate */
        o[0] = 0xED;
        o[1] = (u8)(0xA0 + rnd_below(0x20));
        o[2] = rnd_cont();
        return 3;
    case 4: /* overlong 4-byte */
        o[0] = 0xF0;
        o[1] = (u8)(0x80 + rnd_below(0x10));
        o[2] = rnd_cont();
        o[3] = rnd_cont();
        return 4;
    case 5: /* above U+10FFFF */
        o[0] = 0xF4;
        o[1] = (u8)(0x90 + rnd_below(0x30));
        o[2] = rnd_cont();
        o[3] = rnd_cont();
        return 4;
    case 6: /* F5..FF with continuations */
        o[0] = (u8)(0xF5 + rnd_below(11));
        o[1] = rnd_cont();
        o[2] = rnd_cont();
        o[3] = rnd_cont();
        return 4;
    case 7: /* F5..FF alone */
        o[0] = (u8)(0xF5 + rnd_below(11));
        return 1;
    case 8: { /* truncated: a lead with too few continuations */
        u8 tmp[4];
        size_t n = put_valid(tmp, 1 + (int)rnd_below(3));
        size_t keep = 1 + rnd_below((unsigned)n - 1);
        memcpy(o, tmp, keep);
        return keep;
    }
    case 9: /* too many continuations after a valid character */
    {
        size_t n = put_valid(o, 1 + (int)rnd_below(3));
        o[n] = rnd_cont();
        return n + 1;
    }
    default: /* a random byte at or above 0x80 */
        o[0] = (u8)(0x80 | rnd_below(0x80));
        return 1;
    }
}

/* Appends a terminator: quote, backslash or a control character. */
static size_t put_term(u8 *o) {
    unsigned k = rnd_below(4);
    o[0] = k == 0 ? (u8)'"' : k == 1 ? (u8)'\\' : (u8)rnd_below(0x20);
    return 1;
}

/* Fills up to `len` bytes of mostly valid text with the given mix of
 * character kinds (weights out of 16 for 2/3/4-byte characters). */
static size_t fill_valid(u8 *o, size_t len, unsigned w2, unsigned w3, unsigned w4) {
    size_t n = 0;
    while (n + 4 <= len) {
        unsigned r = rnd_below(16);
        int kind = r < w2 ? 1 : r < w2 + w3 ? 2 : r < w2 + w3 + w4 ? 3 : 0;
        n += put_valid(o + n, kind);
    }
    while (n < len) n += put_valid(o + n, 0);
    return n;
}

#define MAXLEN 400

/* ----------------------------------------------------------------------------
 * Tests
 * ------------------------------------------------------------------------- */
/* The 8-byte classifier of the reading core: zero exactly when no byte is
 * special, else the lowest flagged byte is the first special one. Every
 * byte value at every position after a clean prefix, over a clean or a
 * random tail, and random words. */
static int first_special_ref(const unsigned char *b) {
    for (int i = 0; i < 8; i++)
        if (b[i] == '"' || b[i] == '\\' || b[i] < 0x20 || b[i] >= 0x80) return i;
    return 8;
}

static int first_special_swar(const unsigned char *b) {
    u64 w;
    memcpy(&w, b, 8);
    u64 m = tyjson__str_special(w);
    return m ? (int)tyjson__first_byte(m) : 8;
}

TEST(swar_classifier) {
#if TYJSON__SWAR && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    unsigned char b[8];
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (int pos = 0; pos < 8; pos++) {
        for (int v = 0; v < 256; v++) {
            for (int tail = 0; tail < 64; tail++) {
                for (int i = 0; i < 8; i++) {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    b[i] = i < pos ? (unsigned char)('a' + i) : tail == 0 ? 'z' : (unsigned char)x;
                }
                b[pos] = (unsigned char)v;
                if (first_special_swar(b) != first_special_ref(b))
                    TEST_FAIL("pos %d value %d tail %d: %d vs %d", pos, v, tail,
                              first_special_swar(b), first_special_ref(b));
            }
        }
    }
    for (int n = 0; n < 1000000; n++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        memcpy(b, &x, 8);
        for (int i = 0; i < 8; i++) b[i] = (unsigned char)(0x20 + b[i] % 0x60); /* mostly clean */
        if (n % 3) b[(x >> 40) % 8] = (unsigned char)(x >> 48);
        if (first_special_swar(b) != first_special_ref(b)) TEST_FAIL("random word %d", n);
    }
#endif
}

static const char *level_name(int l) {
    switch (l) {
    case TYJSON__SIMD_AVX2: return "avx2";
    case TYJSON__SIMD_AVX512: return "avx512";
    case TYJSON__SIMD_NEON: return "neon";
    default: return "scalar";
    }
}

TEST(level_selection) {
    static const int all[] = {TYJSON__SIMD_SCALAR, TYJSON__SIMD_AVX2, TYJSON__SIMD_AVX512,
                              TYJSON__SIMD_NEON};
    tyjson__simd_set_level(TYJSON__SIMD_SCALAR);
    ASSERT_EQ_INT(tyjson__simd_level(), TYJSON__SIMD_SCALAR);
    tyjson__simd_set_level(99); /* lowered to what the CPU has */
    int best = tyjson__simd_level();
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
        tyjson__simd_set_level(all[i]);
        int want = tyjson__simd_level_ok(all[i], best) ? all[i] : best;
        ASSERT_EQ_INT(tyjson__simd_level(), want);
        ASSERT_TRUE(tyjson__index_kernel() == tyjson__index_kernel_for(want));
    }
    /* TYJSON_SIMD names a level; unknown names and levels this CPU lacks
     * mean the best one. */
    tyjson__simd_set_level(TYJSON__SIMD_AUTO);
    const char *env = getenv("TYJSON_SIMD");
    int want = best;
    for (size_t i = 0; env && i < sizeof(all) / sizeof(all[0]); i++)
        if (strcmp(env, level_name(all[i])) == 0 && tyjson__simd_level_ok(all[i], best))
            want = all[i];
    ASSERT_EQ_INT(tyjson__simd_level(), want);
    printf("  simd level: %s (best %s)\n", level_name(want), level_name(best));
}

TEST(fixed_cases) {
    static const struct {
        const char *s;
        tyjson_status err;
        int stop; /* -1: the end */
    } cases[] = {
        {"", TYJSON_E_TRUNCATED, -1},
        {"abc\"", TYJSON_OK, 3},
        {"abc\\n\"", TYJSON_OK, 3},
        {"ab\x01", TYJSON_E_STRING_CTRL, 2},
        {"\xc3\xa9\"", TYJSON_OK, 2},
        {"\xc3\"", TYJSON_E_UTF8, 0},
        {"\xe4\xb8\xad\xe6\x96\x87\"", TYJSON_OK, 6},
        {"\xe4\xb8", TYJSON_E_UTF8, 0},
        {"0123456789abcdef0123456789abcdef0123456789\xed\xa0\x80\"", TYJSON_E_UTF8, 42},
        {"0123456789abcdef0123456789abcde\xe4\xb8\xad\x80\"", TYJSON_E_UTF8, 34},
        {"0123456789abcdef0123456789abcdef0123456789", TYJSON_E_TRUNCATED, -1},
        {"0123456789abcdef0123456789abc\xf0\x9f\x98\x80xyz\"", TYJSON_OK, 36},
        {"0123456789abcdef0123456789ab\xf4\x90\x80\x80\"", TYJSON_E_UTF8, 28},
    };
    int vector = vector_scan_level();
    guarded g = guarded_new(MAXLEN);
    ASSERT_NOT_NULL(g.base);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        size_t len = strlen(cases[i].s);
        check_all(&g, (const u8 *)cases[i].s, len, vector);
        const u8 *p = g.base + g.size - len;
        tyjson__str_scan r = reference(p, p + len, false);
        ASSERT_EQ_INT(r.err, cases[i].err);
        ASSERT_EQ_INT(r.stop - p, cases[i].stop < 0 ? (long long)len : cases[i].stop);
    }
    guarded_free(&g);
    tyjson__simd_set_level(TYJSON__SIMD_AUTO);
}

/* Every 2-byte value, and every 4-byte string over a set of bytes that
 * covers each class boundary, placed across a block boundary. */
TEST(exhaustive_patterns) {
    static const u8 bytes[] = {0x00, 0x1F, 0x20, '"', 'A', '\\', 0x7F, 0x80, 0x8F, 0x90,
                               0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC,
                               0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF7, 0xFF};
    const size_t nb = sizeof(bytes);
    int vector = vector_scan_level();
    guarded g = guarded_new(MAXLEN);
    ASSERT_NOT_NULL(g.base);
    u8 buf[80];
    /* Padding before the pattern puts it at, or across, offsets 16 and 32
     * of the scan (the inline part's end and the first block's end). */
    static const size_t pre_all[] = {0, 14, 16, 29, 30, 31, 32};
    const size_t npre = SANITIZED ? 2 : sizeof(pre_all) / sizeof(pre_all[0]);
    for (size_t pi = 0; pi < npre; pi++) {
        size_t pre = pre_all[SANITIZED ? pi * 4 + 1 : pi];
        memset(buf, 'a', pre);
        for (unsigned v = 0; v < 65536; v++) {
            buf[pre] = (u8)(v >> 8);
            buf[pre + 1] = (u8)v;
            check_all(&g, buf, pre + 2, vector);          /* at the end */
            buf[pre + 2] = '"';
            memset(buf + pre + 3, 'b', 40);
            check_all(&g, buf, pre + 43, vector);         /* then a quote */
        }
        for (size_t a = 0; a < nb; a++)
            for (size_t b = 0; b < nb; b++)
                for (size_t c = 0; c < nb; c++)
                    for (size_t d = 0; d < nb; d++) {
                        buf[pre] = bytes[a];
                        buf[pre + 1] = bytes[b];
                        buf[pre + 2] = bytes[c];
                        buf[pre + 3] = bytes[d];
                        buf[pre + 4] = 'z';
                        buf[pre + 5] = '"';
                        memset(buf + pre + 6, 'c', 40);
                        check_all(&g, buf, pre + 46, vector);
                    }
    }
    guarded_free(&g);
    tyjson__simd_set_level(TYJSON__SIMD_AUTO);
    printf("  %lld checks\n", checks);
}

/* A terminator or a bad sequence at every offset 0..100 of text of each
 * kind (so the offsets fall on and around 16, 32, 64 and 96). */
TEST(every_offset) {
    int vector = vector_scan_level();
    guarded g = guarded_new(MAXLEN);
    ASSERT_NOT_NULL(g.base);
    u8 buf[MAXLEN];
    static const unsigned mixes[][3] = {{0, 0, 0}, {16, 0, 0}, {0, 16, 0}, {0, 0, 16},
                                        {3, 3, 3}, {0, 12, 0}};
    const int reps = SANITIZED ? 1 : 4;
    for (size_t m = 0; m < sizeof(mixes) / sizeof(mixes[0]); m++)
        for (int rep = 0; rep < reps; rep++)
            for (size_t off = 0; off <= 100; off++) {
                /* valid text with a terminator or bad sequence at off,
                 * cut at the end or continued by more text */
                for (int what = 0; what < 1 + BAD_CLASSES; what++) {
                    size_t n = fill_valid(buf, off, mixes[m][0], mixes[m][1], mixes[m][2]);
                    n += what == 0 ? put_term(buf + n) : put_bad(buf + n, what - 1);
                    size_t cut = n;
                    n += fill_valid(buf + n, 40 + rnd_below(100), mixes[m][0], mixes[m][1],
                                    mixes[m][2]);
                    buf[n++] = '"';
                    check_all(&g, buf, n, vector);
                    check_all(&g, buf, cut, vector);
                    check_all(&g, buf, off, vector);
                }
            }
    guarded_free(&g);
    tyjson__simd_set_level(TYJSON__SIMD_AUTO);
}

TEST(random_strings) {
    int vector = vector_scan_level();
    guarded g = guarded_new(MAXLEN);
    ASSERT_NOT_NULL(g.base);
    u8 buf[MAXLEN + 16];
    long long before = checks;
    for (long i = 0; i < RANDOM_CASES; i++) {
        size_t len = rnd_below(301);
        unsigned w2 = rnd_below(6), w3 = rnd_below(12), w4 = rnd_below(4);
        size_t n = fill_valid(buf, len, w2, w3, w4);
        /* 0-2 events: a bad sequence or a terminator, anywhere, with a
         * bias to just before and after 32-byte boundaries */
        unsigned events = rnd_below(3);
        for (unsigned e = 0; e < events && n > 0; e++) {
            size_t at = rnd_below(2) ? rnd_below((unsigned)n)
                                     : (size_t)(32 * (1 + rnd_below(9))) - 4 + rnd_below(8);
            if (at >= n) at = n - 1;
            u8 tmp[8];
            size_t k = rnd_below(3) ? put_bad(tmp, (int)rnd_below(BAD_CLASSES)) : put_term(tmp);
            if (at + k > MAXLEN) continue;
            memcpy(buf + at, tmp, k);
            if (at + k > n) n = at + k;
        }
        check_all(&g, buf, n, vector);
    }
    guarded_free(&g);
    tyjson__simd_set_level(TYJSON__SIMD_AUTO);
    printf("  %lld random strings x 2 modes\n", (checks - before) / 2);
}

/* ----------------------------------------------------------------------------
 * Whole documents
 * ------------------------------------------------------------------------- */
typedef struct parsed {
    tyjson_doc *doc;
    tyjson_error err;
} parsed;

static parsed parse_at(const char *dat, size_t len, tyjson_read_flags flags, int level) {
    parsed r;
    tyjson_read_options o = {flags, 0, NULL};
    tyjson__simd_set_level(level);
    r.doc = tyjson_read_opts(dat, len, &o, &r.err);
    return r;
}

/* Parses with the portable kernels and with every vector level the CPU
 * has (at AVX-512 strict input takes the index-driven parse), under flag
 * sets that take each path: equal documents (and read sizes) or equal
 * errors, message included. */
static void check_doc(const char *name, const char *dat, size_t len) {
    static const tyjson_read_flags flag_sets[] = {
        0, TYJSON_READ_ALLOW_INVALID_UTF8, TYJSON_READ_STOP_WHEN_DONE,
        TYJSON_READ_REJECT_DUPLICATE_KEYS | TYJSON_READ_BIGNUM_AS_RAW};
    for (size_t f = 0; f < sizeof(flag_sets) / sizeof(flag_sets[0]); f++) {
        static const int vector_levels[] = {TYJSON__SIMD_AVX2, TYJSON__SIMD_AVX512,
                                            TYJSON__SIMD_NEON};
        tyjson__simd_set_level(99);
        int best = tyjson__simd_level();
        parsed a = parse_at(dat, len, flag_sets[f], TYJSON__SIMD_SCALAR);
        /* each vector level, with the DOM's index-driven path forced on */
        tyjson__parse_set_index_policy(TYJSON__INDEX_ALWAYS);
        for (size_t k = 0; k < sizeof(vector_levels) / sizeof(vector_levels[0]); k++) {
            if (!tyjson__simd_level_ok(vector_levels[k], best)) continue;
            parsed b = parse_at(dat, len, flag_sets[f], vector_levels[k]);
            bool same = (a.doc != NULL) == (b.doc != NULL);
            if (same && a.doc)
                same = tyjson_equals(tyjson_doc_get_root(a.doc), tyjson_doc_get_root(b.doc)) &&
                       tyjson_doc_get_read_size(a.doc) == tyjson_doc_get_read_size(b.doc);
            else if (same)
                same = a.err.code == b.err.code && a.err.offset == b.err.offset &&
                       strcmp(a.err.path, b.err.path) == 0 && strcmp(a.err.msg, b.err.msg) == 0;
            tyjson_doc_free(b.doc);
            /* tyjson_validate says what the parse says, error included */
            tyjson_error ve;
            tyjson_read_options vo = {flag_sets[f], 0, NULL};
            bool valid = tyjson_validate(dat, len, &vo, &ve);
            if (valid != (a.doc != NULL) ||
                (!valid && (ve.code != a.err.code || ve.offset != a.err.offset ||
                            strcmp(ve.msg, a.err.msg) != 0)))
                TEST_FAIL("%s (flags %u), level %d: validate %d (%s at %zu), parse %s at %zu",
                          name, (unsigned)flag_sets[f], vector_levels[k], (int)valid,
                          tyjson_status_name(ve.code), ve.offset,
                          tyjson_status_name(a.err.code), a.err.offset);
            if (!same) {
                tyjson__parse_set_index_policy(TYJSON__INDEX_AUTO);
        tyjson_doc_free(a.doc);
                TEST_FAIL("%s (flags %u): scalar %s at %zu, level %d %s at %zu", name,
                          (unsigned)flag_sets[f], tyjson_status_name(a.err.code), a.err.offset,
                          vector_levels[k], tyjson_status_name(b.err.code), b.err.offset);
            }
        }
        tyjson_doc_free(a.doc);
    }
}

static const char *const corpus_files[] = {"canada.json", "citm_catalog.json",
                                           "github_events.json", "mesh.json", "numbers.json",
                                           "poet.json", "twitter.json", "twitterescaped.json"};

TEST(corpus_documents) {
    char path[1024];
    int found = 0;
    for (size_t i = 0; i < sizeof(corpus_files) / sizeof(corpus_files[0]); i++) {
        char rel[256];
        snprintf(rel, sizeof(rel), "corpus/%s", corpus_files[i]);
        test_shared_path(rel, path, sizeof(path));
        size_t len = 0;
        char *dat = test_read_file(path, &len);
        if (!dat) continue;
        found++;
        check_doc(corpus_files[i], dat, len);
        /* then with single bytes corrupted: the same error or document */
        int mutations = SANITIZED ? 10 : 60;
        for (int m = 0; m < mutations; m++) {
            size_t at = rnd() % len;
            char old = dat[at];
            static const u8 swaps[] = {0x80, 0xBF, 0xC0, 0xE0, 0xED, 0xF0, 0xF4, 0xFF,
                                       0x01, '"', '\\'};
            dat[at] = (char)swaps[rnd_below(sizeof(swaps))];
            check_doc(corpus_files[i], dat, len);
            dat[at] = old;
        }
        free(dat);
    }
    tyjson__simd_set_level(TYJSON__SIMD_AUTO);
    if (!found) {
        if (test_require_shared()) TEST_FAIL("corpus missing near %s", path);
        TEST_SKIP("corpus not found");
    }
}

TEST(conformance_documents) {
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
        size_t len = 0;
        char *dat = test_read_file(path, &len);
        if (!dat) continue;
        check_doc(e->d_name, dat, len);
        free(dat);
        count++;
    }
    closedir(d);
    tyjson__simd_set_level(TYJSON__SIMD_AUTO);
    ASSERT_TRUE(count > 0);
    printf("  %d suite files\n", count);
}

/* The index-driven parse copies the input into its buffer window by window
 * (read/index.h, tyjson__indexer_copy_from), TYJSON__IDX_LEAD bytes ahead of
 * the window being read: tokens that reach past a window's end (a long
 * number, an escape pair, a literal), past the lead (a number longer than
 * it, which meets the zeros there and makes the parse give up and start
 * again), trailing whitespace longer than a window after the value
 * (STOP_WHEN_DONE), and errors at those places must all parse as the
 * portable parse does. Each token is placed so that it starts at every
 * offset from 80 bytes before to 8 bytes after the ends of the first and
 * second windows. */
TEST(copy_as_windows_go) {
    static const char *const tokens[] = {
        "12345678901234567890123456789012345678901234567890123456789012345678901234567890e-5",
        "-0.000000000000000000000000000000000000000000000000000000000000000000000001234",
        "\"\\uD83D\\uDE00\\n\\u00e9\"", "true", "false", "null", "1.5e308", "123", "\"\xC3\xA9\"",
        "tru", "1.", "\"\\uD83D\"", "\"\xC3\""};
    static const size_t ends[] = {TYJSON__IDX_WINDOW, 2 * TYJSON__IDX_WINDOW};
    size_t cap = 3 * TYJSON__IDX_WINDOW + 256;
    char *dat = (char *)malloc(cap);
    ASSERT_NOT_NULL(dat);
    for (size_t t = 0; t < sizeof(tokens) / sizeof(tokens[0]); t++) {
        for (size_t e = 0; e < sizeof(ends) / sizeof(ends[0]); e++) {
            for (size_t at = ends[e] - 80; at <= ends[e] + 8; at += SANITIZED ? 5 : 1) {
                /* ["aaaa...", <token>, "bbbb...", 7] with the token at `at` */
                size_t len = 0, tl = strlen(tokens[t]);
                dat[len++] = '[';
                dat[len++] = '"';
                while (len < at - 3) dat[len++] = 'a';
                dat[len++] = '"';
                dat[len++] = ',';
                dat[len++] = ' ';
                memcpy(dat + len, tokens[t], tl);
                len += tl;
                dat[len++] = ',';
                dat[len++] = '"';
                while (len < 3 * TYJSON__IDX_WINDOW - 8) dat[len++] = 'b';
                memcpy(dat + len, "\", 7]", 5);
                len += 5;
                check_doc(tokens[t], dat, len);
                /* the value, then more than a window of whitespace */
                size_t vlen = len;
                while (len < cap - 2) dat[len++] = ' ';
                dat[len++] = '1';
                check_doc("trailing whitespace", dat, vlen + (len - vlen - 1));
                check_doc("trailing value", dat, len);
            }
        }
    }
    free(dat);
    tyjson__simd_set_level(TYJSON__SIMD_AUTO);
}

/* ----------------------------------------------------------------------------
 * The line feed counter (tyjson__count_lf): every level against a byte loop
 * ------------------------------------------------------------------------- */
static tyjson__lf_count lf_reference(const u8 *p, const u8 *end) {
    tyjson__lf_count c = {0, NULL};
    for (; p < end; p++)
        if (*p == '\n') {
            c.count++;
            c.last = p;
        }
    return c;
}

/* Counts s[0..len) placed right before the guard page at each level this
 * CPU has, and with the portable kernel; fails on any disagreement. */
static void check_lf(guarded *g, const u8 *s, size_t len) {
    static const int levels[] = {TYJSON__SIMD_SCALAR, TYJSON__SIMD_AVX2, TYJSON__SIMD_AVX512,
                                 TYJSON__SIMD_NEON};
    u8 *p = g->base + g->size - len;
    memmove(p, s, len);
    tyjson__lf_count want = lf_reference(p, p + len);
    tyjson__lf_count got = tyjson__count_lf_scalar(p, p + len);
    if (got.count != want.count || got.last != want.last)
        TEST_FAIL("portable kernel: %zu lines, last at %td; want %zu at %td (%zu bytes)", got.count,
                  got.last ? got.last - p : -1, want.count, want.last ? want.last - p : -1, len);
    for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
        tyjson__simd_set_level(levels[i]);
        if (tyjson__simd_level() != levels[i]) continue;
        got = tyjson__count_lf(p, p + len);
        if (got.count != want.count || got.last != want.last)
            TEST_FAIL("level %d: %zu lines, last at %td; want %zu at %td (%zu bytes)", levels[i],
                      got.count, got.last ? got.last - p : -1, want.count,
                      want.last ? want.last - p : -1, len);
        checks++;
    }
    tyjson__simd_set_level(TYJSON__SIMD_AUTO);
}

TEST(line_feed_counter) {
    /* long enough for the byte counters to be summed more than once when
     * every byte is a line feed (255 steps of 128 bytes) */
    const size_t cap = 3 * 255 * 128 + 300;
    guarded g = guarded_new(cap);
    ASSERT_TRUE(g.base != NULL);
    u8 *s = (u8 *)malloc(cap);
    ASSERT_TRUE(s != NULL);
    /* every length up to a few blocks: none, one at each place, all */
    for (size_t len = 0; len <= 300; len++) {
        memset(s, 'x', len);
        check_lf(&g, s, len);
        for (size_t at = 0; at < len; at++) {
            memset(s, 'x', len);
            s[at] = '\n';
            check_lf(&g, s, len);
            s[len - 1 - (len - 1 - at) / 2] = '\n'; /* and a second one after it */
            check_lf(&g, s, len);
        }
        memset(s, '\n', len);
        check_lf(&g, s, len);
    }
    /* long runs: all line feeds, none, and random densities and lengths */
    size_t big[] = {cap, cap - 1, 255 * 128, 255 * 128 + 1, 65536, 65536 + 37};
    for (size_t i = 0; i < sizeof(big) / sizeof(big[0]); i++) {
        memset(s, '\n', big[i]);
        check_lf(&g, s, big[i]);
        memset(s, ' ', big[i]);
        check_lf(&g, s, big[i]);
        s[0] = '\n';
        check_lf(&g, s, big[i]);
    }
    for (int round = 0; round < 400; round++) {
        size_t len = rnd_below((unsigned)cap + 1);
        unsigned density = 1u << rnd_below(12); /* one in 1 .. 2048 bytes */
        for (size_t k = 0; k < len; k++) s[k] = rnd_below(density) == 0 ? '\n' : (u8)rnd();
        check_lf(&g, s, len);
    }
    free(s);
    guarded_free(&g);
}

/* A window the indexer flags (invalid UTF-8 in it) gives the index-driven
 * parse a zero byte for its next token, wherever the machine stands: after
 * an opening bracket, a key, a colon, a comma, inside a string's escapes.
 * Shifting the text by 0..63 bytes puts every one of those at the end of
 * the first window; the bad byte sits in the second one, or in a string
 * whose escapes span the window end. Each parse must fail (or succeed) as
 * the portable parse does. */
TEST(flagged_window_in_every_state) {
    static const char unit[] = "{\"key\":[12,\"s\\n\\u00e9x\",true,false,null,{},[]],\"k2\":\"v\"},";
    size_t ul = sizeof(unit) - 1;
    size_t cap = 3 * TYJSON__IDX_WINDOW + 256;
    char *dat = (char *)malloc(cap);
    ASSERT_NOT_NULL(dat);
    for (size_t shift = 0; shift < 64; shift += SANITIZED ? 7 : 1) {
        size_t len = 0;
        while (len < shift) dat[len++] = ' ';
        dat[len++] = '[';
        while (len + ul + 2 < 3 * TYJSON__IDX_WINDOW) {
            memcpy(dat + len, unit, ul);
            len += ul;
        }
        dat[len - 1] = ']'; /* the last unit's comma */
        check_doc("valid", dat, len);
        static const size_t bad_at[] = {TYJSON__IDX_WINDOW + 300, TYJSON__IDX_WINDOW + 2,
                                        TYJSON__IDX_WINDOW - 1};
        for (size_t b = 0; b < sizeof(bad_at) / sizeof(bad_at[0]); b++) {
            /* the next string's first letter after bad_at, made invalid */
            size_t at = bad_at[b];
            while (dat[at] != 's' && dat[at] != 'v') at++;
            char old = dat[at];
            dat[at] = (char)0xFF;
            check_doc("flagged", dat, len);
            dat[at] = old;
        }
    }
    free(dat);
    tyjson__simd_set_level(TYJSON__SIMD_AUTO);
}

int main(int argc, char **argv) { return test_main(argc, argv); }
