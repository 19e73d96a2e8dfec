/* sinks.c - docs/binding.md section 8, "Encoding to every sink", both
 * blocks: a new buffer, the caller's buffer, a FILE, a callback, and a
 * reusable tyjson_buf for a stream of messages. */
#include <tyjson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { int32_t x, y; } point;
static const tyjson_field point_fields[] = {
    TYJSON_FIELD_I32(point, x, "x"),
    TYJSON_FIELD_I32(point, y, "y"),
};
static tyjson_struct point_type = TYJSON_STRUCT(point, point_fields, 0);

/* The callback sink: counts the pieces and the bytes it receives. */
typedef struct { size_t pieces, bytes; } tally;
static int my_write(void *ctx, const char *data, size_t len) {
    tally *t = (tally *)ctx;
    (void)data;
    t->pieces++;
    t->bytes += len;
    return 0;                                /* non-zero aborts: TYJSON_E_CALLBACK */
}

typedef struct { int64_t id; tyjson_str name; double value; } tick;
static const tyjson_field tick_fields[] = {
    TYJSON_FIELD_I64(tick, id, "id"),
    TYJSON_FIELD_STR(tick, name, "name"),
    TYJSON_FIELD_F64(tick, value, "value"),
};
static tyjson_struct tick_type = TYJSON_STRUCT(tick, tick_fields, 0);

/* Where full chunks of the stream go. */
static size_t flushed_bytes, flushes;
static char first_bytes[64];
static void flush(const char *data, size_t len) {
    if (flushes == 0) memcpy(first_bytes, data, len < 63 ? len : 63);
    flushed_bytes += len;
    flushes++;
}

int main(void) {
    point p = {3, -4};
    size_t len;
    tyjson_error err;
    char buf[16];
    tally tl = {0, 0};
    tally *my_ctx = &tl;

    tyjson_write_options o = {TYJSON_WRITE_PRETTY | TYJSON_WRITE_NEWLINE_AT_END, 2, NULL};

    char *t = tyjson_encode(&point_type, &p, &o, &len, &err);            /* new buffer */
    size_t n = tyjson_encode_buf(&point_type, &p, buf, sizeof buf, &o, &err);
    /* like snprintf: n >= sizeof buf means too small (TYJSON_E_BUF_TOO_SMALL),
     * n + 1 bytes are needed, and nothing was written past sizeof buf */
    tyjson_status buf_status = err.code;
    tyjson_encode_fp(stdout, &point_type, &p, &o, &err);
    tyjson_encode_cb(my_write, my_ctx, &point_type, &p, &o, &err);       /* pieces of up to 16 KiB */

    fflush(stdout);
    printf("tyjson_encode: %zu bytes; tyjson_encode_buf into %zu bytes: %zu (%s); "
           "tyjson_encode_cb: %zu bytes\n",
           len, sizeof buf, n, tyjson_status_name(buf_status), tl.bytes);
    free(t);

    /* The reusable buffer. */
    tick msg = {0, {"sensor", 6}, 21.5};
    size_t limit = 4096;
    tyjson_buf out;
    tyjson_buf_init(&out, NULL);
    for (int64_t i = 0; i < 100000; i++) {
        if (out.len + 1024 > limit) { flush(out.data, out.len); tyjson_buf_clear(&out); }
        msg.id = i;
        tyjson_encode_append(&out, &tick_type, &msg, NULL, &err);   /* appends, no separator */
    }
    flush(out.data, out.len);                /* the last, partial chunk */
    tyjson_buf_free(&out);
    printf("%zu bytes in %zu chunks, starting %s\n", flushed_bytes, flushes, first_bytes);
    return 0;
}
