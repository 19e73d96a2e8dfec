/*
 * fuzz_number.c - libFuzzer target for the number core (src/num/num.h).
 *
 * Byte 0 picks the flags (bit 0: TYJSON_READ_BIGNUM_AS_RAW); the rest is the
 * text, read from an exactly sized heap copy so that ASan sees any read past
 * `end`. Checks: errors are well formed; integers equal strtoull/strtoll and
 * write back to the same text; reals equal strtod (glibc's is correctly
 * rounded; the process stays in the "C" locale) and survive
 * f64_write -> num_read bit for bit; RAW only for out-of-range numbers.
 */
#include "num/num.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c)                                                                   \
    do {                                                                           \
        if (!(c)) {                                                                \
            fprintf(stderr, "fuzz_number: check failed: %s (line %d)\n", #c, __LINE__); \
            abort();                                                               \
        }                                                                          \
    } while (0)

static u64 bits_of(double d) {
    u64 b;
    memcpy(&b, &d, sizeof b);
    return b;
}

/* Writes v, reads it back: same bits, and read as a real. */
static void check_write_f64(double v) {
    char out[TYJSON__NUM_MAX_CHARS];
    char *e = tyjson__f64_write(v, out);
    CHECK(e > out && e - out <= TYJSON__NUM_MAX_CHARS);
    tyjson__num n;
    tyjson_status err = TYJSON_OK;
    const u8 *ep = NULL;
    const u8 *end = tyjson__num_read((const u8 *)out, (const u8 *)e, 0, &n, &err, &ep);
    CHECK(end == (const u8 *)e);
    CHECK(n.kind == TYJSON__NUM_REAL);
    CHECK(bits_of(n.v.f) == bits_of(v));
}

static void check_write_f32(float v) {
    char out[TYJSON__NUM_MAX_CHARS + 1];
    char *e = tyjson__f32_write(v, out);
    CHECK(e > out && e - out <= TYJSON__NUM_MAX_CHARS);
    *e = 0;
    float back = strtof(out, NULL);
    CHECK(memcmp(&back, &v, sizeof v) == 0);
}

static void check_number(const char *txt, const tyjson__num *n, bool raw_flag) {
    char out[TYJSON__NUM_MAX_CHARS + 1];
    switch (n->kind) {
    case TYJSON__NUM_UINT:
        CHECK(strtoull(txt, NULL, 10) == n->v.u);
        *tyjson__u64_write(n->v.u, out) = 0;
        CHECK(strcmp(out, txt) == 0);
        break;
    case TYJSON__NUM_SINT:
        CHECK(n->v.i < 0);
        CHECK(strtoll(txt, NULL, 10) == n->v.i);
        *tyjson__i64_write(n->v.i, out) = 0;
        CHECK(strcmp(out, txt) == 0);
        break;
    case TYJSON__NUM_REAL: {
        double want = strtod(txt, NULL);
        CHECK(bits_of(n->v.f) == bits_of(want));
        check_write_f64(n->v.f);
        if (fabs(n->v.f) <= FLT_MAX) check_write_f32((float)n->v.f); /* else UB */
        break;
    }
    case TYJSON__NUM_RAW: {
        CHECK(raw_flag);
        if (strpbrk(txt, ".eE")) {
            CHECK(isinf(strtod(txt, NULL)));
        } else {
            errno = 0;
            if (txt[0] == '-')
                (void)strtoll(txt, NULL, 10);
            else
                (void)strtoull(txt, NULL, 10);
            CHECK(errno == ERANGE);
        }
        break;
    }
    default:
        CHECK(0);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    bool raw_flag = data[0] & 1;
    u32 flags = raw_flag ? TYJSON_READ_BIGNUM_AS_RAW : 0;
    data++;
    size--;
    if (data[0] != '-' && (data[0] < '0' || data[0] > '9')) return 0;

    u8 *buf = (u8 *)malloc(size);
    if (!buf) return 0;
    memcpy(buf, data, size);
    tyjson__num n;
    tyjson_status err = TYJSON_OK;
    const u8 *ep = NULL;
    const u8 *end = tyjson__num_read(buf, buf + size, flags, &n, &err, &ep);
    if (!end) {
        CHECK(err == TYJSON_E_NUMBER || err == TYJSON_E_NUMBER_RANGE);
        CHECK(ep >= buf && ep <= buf + size);
        if (err == TYJSON_E_NUMBER_RANGE) CHECK(ep == buf && !raw_flag);
        free(buf);
        return 0;
    }
    CHECK(end > buf && end <= buf + size);
    size_t len = (size_t)(end - buf);
    char *txt = (char *)malloc(len + 1);
    if (txt) {
        memcpy(txt, buf, len);
        txt[len] = 0;
        check_number(txt, &n, raw_flag);
        free(txt);
    }
    free(buf);
    return 0;
}
