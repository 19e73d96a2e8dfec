/*
 * fuzz_writer.c - libFuzzer target for the streaming writer's state machine
 * (include/tyjson/writer.h).
 *
 * Byte 0: write flags (bit 0 PRETTY, 1 ESCAPE_UNICODE, 2 ESCAPE_SLASH, 3
 * ALLOW_INF_NAN, 4 REPLACE_INVALID_UTF8, 5 NEWLINE_AT_END) and bits 6-7 the
 * sink (growing buffer, caller's buffer of byte-1 * 8 bytes, callback with
 * the smallest flush threshold, growing buffer with max_depth 4). Then each
 * byte is one call (byte % N_OPS); strings, keys and raw text take a length
 * byte and that many input bytes (any bytes: invalid UTF-8 included).
 * Checks: a call either succeeds or returns the writer's first error, which
 * every later call returns too; the text of a writer that finishes without
 * error is valid JSON: one or more values (NDJSON boundaries) that read back
 * with tyjson_read_opts (NaN/Infinity allowed when written by flag).
 */
#include "tyjson.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c)                                                                   \
    do {                                                                           \
        if (!(c)) {                                                                \
            fprintf(stderr, "fuzz_writer: check failed: %s (line %d)\n", #c, __LINE__); \
            abort();                                                               \
        }                                                                          \
    } while (0)

typedef struct sink {
    char *buf;
    size_t len, cap;
} sink;

static int collect(void *ctx, const char *p, size_t n) {
    sink *s = (sink *)ctx;
    if (s->len + n > s->cap) {
        size_t cap = (s->len + n) * 2;
        char *nb = (char *)realloc(s->buf, cap);
        if (!nb) return 1;
        s->buf = nb;
        s->cap = cap;
    }
    memcpy(s->buf + s->len, p, n);
    s->len += n;
    return 0;
}

/* The text holds one or more JSON values, one after another. */
static void check_json(const char *t, size_t n, tyjson_write_flags wf) {
    tyjson_read_options ro = {TYJSON_READ_STOP_WHEN_DONE, 0, NULL};
    if (wf & TYJSON_WRITE_ALLOW_INF_NAN) ro.flags |= TYJSON_READ_ALLOW_INF_NAN;
    size_t pos = 0, values = 0;
    while (pos < n) {
        tyjson_error e;
        tyjson_doc *d = tyjson_read_opts(t + pos, n - pos, &ro, &e);
        if (!d && e.code == TYJSON_E_EMPTY) break; /* trailing newline */
        if (!d) fprintf(stderr, "fuzz_writer: invalid output (%s) at %zu: %.*s\n", e.msg, pos + e.offset,
                        (int)n, t);
        CHECK(d != NULL);
        pos += tyjson_doc_get_read_size(d);
        tyjson_doc_free(d);
        values++;
    }
    CHECK(values > 0);
}

enum { N_OPS = 20 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    tyjson_writer_options o;
    memset(&o, 0, sizeof(o));
    o.flags = data[0] & 0x3f;
    int kind = data[0] >> 6;
    char *fixed = NULL;
    size_t fixed_cap = (size_t)data[1] * 8;
    sink s = {NULL, 0, 0};
    tyjson_writer *w;
    if (kind == 1) {
        fixed = (char *)malloc(fixed_cap ? fixed_cap : 1);
        w = tyjson_writer_new_buf(fixed, fixed_cap, &o);
    } else if (kind == 2) {
        o.flush_threshold = 1;
        w = tyjson_writer_new_cb(collect, &s, &o);
    } else {
        if (kind == 3) o.max_depth = 4;
        w = tyjson_writer_new(&o);
    }
    if (!w) {
        free(fixed);
        return 0;
    }
    tyjson_status first = TYJSON_OK;
    size_t i = 2;
    while (i < size) {
        uint8_t op = data[i++] % N_OPS;
        const char *str = "";
        size_t n = 0;
        if (op <= 3 || op == 16) { /* takes bytes */
            n = i < size ? data[i++] : 0;
            if (n > size - i) n = size - i;
            str = (const char *)data + i;
            i += n;
        }
        tyjson_status st;
        switch (op) {
        case 0: st = tyjson_writer_key(w, str, n); break;
        case 1: st = tyjson_writer_string(w, str, n); break;
        case 2: { /* noesc forms get clean bytes only */
            size_t k = 0;
            while (k < n && str[k] >= 'a' && str[k] <= 'z') k++;
            st = tyjson_writer_key_noesc(w, str, k);
            break;
        }
        case 3: {
            size_t k = 0;
            while (k < n && str[k] >= 'a' && str[k] <= 'z') k++;
            st = tyjson_writer_string_noesc(w, str, k);
            break;
        }
        case 4: st = tyjson_writer_begin_object(w); break;
        case 5: st = tyjson_writer_end_object(w); break;
        case 6: st = tyjson_writer_begin_array(w); break;
        case 7: st = tyjson_writer_end_array(w); break;
        case 8: st = tyjson_writer_int(w, -(int64_t)i * 1000003); break;
        case 9: st = tyjson_writer_uint(w, UINT64_MAX - i); break;
        case 10: st = tyjson_writer_double(w, (double)i / 7.0); break;
        case 11: st = tyjson_writer_double(w, i % 3 ? NAN : -INFINITY); break;
        case 12: st = tyjson_writer_float(w, (float)i / 3.0f); break;
        case 13: st = tyjson_writer_double_fixed(w, (double)i * 1.005, (int)(i % 17)); break;
        case 14: st = tyjson_writer_bool(w, i & 1); break;
        case 15: st = tyjson_writer_null(w); break;
        case 16: st = tyjson_writer_raw(w, str, n, 0); break;
        case 17: st = tyjson_writer_end_message(w); break;
        case 18: st = tyjson_writer_raw(w, "[1,{\"a\":null}]", 14, TYJSON_WRITER_RAW_TRUSTED); break;
        default: st = tyjson_writer_flush(w); break;
        }
        if (first != TYJSON_OK) CHECK(st == first); /* sticky */
        else first = st;
        CHECK(tyjson_writer_status(w) == first);
        if (first != TYJSON_OK) {
            tyjson_error e;
            CHECK(tyjson_writer_error(w, &e) == first);
            CHECK(e.path[0] == '$');
        }
    }
    size_t len = 0;
    tyjson_status st = tyjson_writer_finish(w, &len);
    if (first != TYJSON_OK) CHECK(st == first);
    if (st == TYJSON_OK) {
        if (kind == 2) {
            CHECK(s.len == len);
            check_json(s.buf, s.len, o.flags);
        } else {
            CHECK(strlen(tyjson_writer_text(w)) == len);
            check_json(tyjson_writer_text(w), len, o.flags);
        }
    } else if (st == TYJSON_E_BUF_TOO_SMALL) {
        CHECK(kind == 1 && len >= fixed_cap);
    }
    tyjson_writer_free(w);
    free(fixed);
    free(s.buf);
    return 0;
}
