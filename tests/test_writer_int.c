/* test_writer_int.c - the streaming writer's integers (tyjson_writer_int,
 * tyjson_writer_uint): inline below 10^8 over <tyjson/num_int.h>, out of
 * line above, and in pretty mode or near the end of a caller's buffer.
 * Every digit-count boundary, both signs and the extremes give the same
 * text as printf, on every path. */
#include "test.h"
#include "tyjson.h"

#include <inttypes.h>
#include <stdio.h>

/* Values around every power of ten, both signs, and the extremes. */
static size_t boundary_values(int64_t *s, uint64_t *u) {
    size_t n = 0;
    uint64_t p = 1;
    for (int k = 0; k <= 19; k++) {
        uint64_t cand[3] = {p - 1, p, p + 1};
        for (int i = 0; i < 3; i++) {
            u[n] = cand[i];
            s[n] = cand[i] <= (uint64_t)INT64_MAX ? -(int64_t)cand[i] : INT64_MIN;
            n++;
        }
        if (k < 19) p *= 10;
    }
    u[n] = UINT64_MAX;
    s[n++] = INT64_MAX;
    u[n] = (uint64_t)INT64_MAX + 1;
    s[n++] = INT64_MIN;
    return n;
}

/* [s0,u0,s1,u1,...] as printf writes it (pretty: one element a line). */
static void expected(char *out, size_t cap, const int64_t *s, const uint64_t *u, size_t n,
                     bool pretty) {
    size_t k = (size_t)snprintf(out, cap, "[");
    for (size_t i = 0; i < n; i++)
        k += (size_t)snprintf(out + k, cap - k, "%s%s%" PRId64 ",%s%" PRIu64, i ? "," : "",
                              pretty ? "\n  " : "", s[i], pretty ? "\n  " : "", u[i]);
    snprintf(out + k, cap - k, pretty ? "\n]" : "]");
}

static void write_all(tyjson_writer *w, const int64_t *s, const uint64_t *u, size_t n) {
    ASSERT_EQ_INT(tyjson_writer_begin_array(w), TYJSON_OK);
    for (size_t i = 0; i < n; i++) {
        ASSERT_EQ_INT(tyjson_writer_int(w, s[i]), TYJSON_OK);
        ASSERT_EQ_INT(tyjson_writer_uint(w, u[i]), TYJSON_OK);
    }
    ASSERT_EQ_INT(tyjson_writer_end_array(w), TYJSON_OK);
}

TEST(boundaries_growing_and_pretty) {
    int64_t s[64];
    uint64_t u[64];
    size_t n = boundary_values(s, u);
    for (int pretty = 0; pretty <= 1; pretty++) {
        char want[4096];
        expected(want, sizeof(want), s, u, n, pretty != 0);
        tyjson_writer_options o = {pretty ? TYJSON_WRITE_PRETTY : 0, 2, 0, 0, NULL};
        tyjson_writer *w = tyjson_writer_new(&o);
        ASSERT_NOT_NULL(w);
        write_all(w, s, u, n);
        size_t len = 0;
        ASSERT_EQ_INT(tyjson_writer_finish(w, &len), TYJSON_OK);
        ASSERT_EQ_STR(tyjson_writer_text(w), want);
        ASSERT_EQ_UINT(len, strlen(want));
        tyjson_writer_free(w);
    }
}

/* A caller's buffer of every size around the text's: the inline path must
 * hand the last integers to the slow path (which stages) exactly when
 * fewer than its 11 bytes of room remain, and the text stays exact. */
TEST(boundaries_caller_buffer_every_size) {
    int64_t s[64];
    uint64_t u[64];
    size_t n = boundary_values(s, u);
    char want[4096];
    expected(want, sizeof(want), s, u, n, false);
    size_t need = strlen(want);
    for (size_t cap = need - 24; cap <= need + 24; cap++) {
        char buf[4096];
        memset(buf, 'x', sizeof(buf));
        tyjson_writer *w = tyjson_writer_new_buf(buf, cap, NULL);
        ASSERT_NOT_NULL(w);
        write_all(w, s, u, n);
        size_t len = 0;
        tyjson_status st = tyjson_writer_finish(w, &len);
        ASSERT_EQ_UINT(len, need);
        if (cap > need) {
            ASSERT_EQ_INT(st, TYJSON_OK);
            ASSERT_EQ_STR(buf, want);
        } else {
            ASSERT_EQ_INT(st, TYJSON_E_BUF_TOO_SMALL);
        }
        for (size_t i = cap; i < sizeof(buf); i++)
            if (buf[i] != 'x') TEST_FAIL("cap %zu: byte %zu written past the buffer", cap, i);
        tyjson_writer_free(w);
    }
}

/* Misuse through the inline call: the state check still holds. */
TEST(int_where_a_key_is_due) {
    tyjson_writer *w = tyjson_writer_new(NULL);
    ASSERT_NOT_NULL(w);
    ASSERT_EQ_INT(tyjson_writer_begin_object(w), TYJSON_OK);
    ASSERT_EQ_INT(tyjson_writer_int(w, 5), TYJSON_E_STATE);
    ASSERT_EQ_INT(tyjson_writer_uint(w, 500000000u), TYJSON_E_STATE);
    tyjson_error e;
    ASSERT_EQ_INT(tyjson_writer_error(w, &e), TYJSON_E_STATE);
    ASSERT_EQ_STR(e.path, "$");
    tyjson_writer_free(w);
}

int main(int argc, char **argv) { return test_main(argc, argv); }
