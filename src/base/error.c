/*
 * error.c - status names and messages (from the X-macro table in common.h),
 * offset to line:column, and error formatting.
 */
#include "base/internal.h"

static const char *const status_names[] = {
#define X(name, msg) #name,
    TYJSON_STATUS_MAP(X)
#undef X
};

static const char *const status_msgs[] = {
#define X(name, msg) msg,
    TYJSON_STATUS_MAP(X)
#undef X
};

const char *tyjson_status_name(tyjson_status code) {
    if ((unsigned)code >= (unsigned)TYJSON__STATUS_COUNT) return "E_UNKNOWN";
    return status_names[code];
}

const char *tyjson_status_msg(tyjson_status code) {
    if ((unsigned)code >= (unsigned)TYJSON__STATUS_COUNT) return "unknown status";
    return status_msgs[code];
}

bool tyjson_locate(const char *dat, usize len, usize offset, usize *line, usize *column) {
    if ((!dat && len) || offset > len) return false;
    if (!dat) dat = ""; /* NULL with length 0: the empty text */
    usize ln = 1;
    const char *line_start = dat;
    const char *p = dat, *end = dat + offset;
    while (p < end) {
        const char *nl = (const char *)memchr(p, '\n', (usize)(end - p));
        if (!nl) break;
        ln++;
        p = nl + 1;
        line_start = p;
    }
    if (line) *line = ln;
    if (column) *column = (usize)(end - line_start) + 1;
    return true;
}

TYJSON__FIRST_USE
void tyjson__err_ok(tyjson_error *err) {
    if (!err) return;
    err->code = TYJSON_OK;
    memcpy(err->msg, "ok", 3);
    err->offset = 0;
    err->line = 0;
    err->column = 0;
    err->path[0] = 0;
}

void tyjson__err_set(tyjson_error *err, tyjson_status code, const char *dat, usize len,
                     usize offset) {
    if (!err) return;
    err->code = code;
    tyjson__err_msg(err, tyjson_status_msg(code));
    err->offset = offset;
    err->path[0] = 0;
    if (!dat || !tyjson_locate(dat, len, offset, &err->line, &err->column)) {
        err->line = 0;
        err->column = 0;
    }
}

void tyjson__err_msg(tyjson_error *err, const char *msg) {
    if (!err || !msg || msg == err->msg) return;
    usize n = strlen(msg);
    if (n < sizeof(err->msg)) {
        memcpy(err->msg, msg, n + 1);
        return;
    }
    /* Cut before a UTF-8 continuation byte, so the text stays valid. */
    usize keep = sizeof(err->msg) - 4;
    while (keep > 0 && ((u8)msg[keep] & 0xC0) == 0x80) keep--;
    memcpy(err->msg, msg, keep);
    memcpy(err->msg + keep, "...", 4);
}

char *tyjson_error_format(const tyjson_error *err, char *buf, usize size) {
    if (!buf || size == 0) return buf;
    if (!err) {
        buf[0] = 0;
        return buf;
    }
    const char *msg = err->msg[0] ? err->msg : tyjson_status_msg(err->code);
    if (err->line == 0) { /* no place in the input (encoding, I/O, arguments) */
        if (err->path[0]) snprintf(buf, size, "%s at %s", msg, err->path);
        else snprintf(buf, size, "%s", msg);
        return buf;
    }
    if (err->path[0])
        snprintf(buf, size, "%zu:%zu: %s at %s", err->line, err->column, msg, err->path);
    else
        snprintf(buf, size, "%zu:%zu: %s", err->line, err->column, msg);
    return buf;
}

void tyjson__path_key(const u8 *k, usize n, void (*put)(void *ctx, const char *s, usize n),
                      void *ctx) {
    if (tyjson__path_ident(k, n)) {
        put(ctx, ".", 1);
        put(ctx, (const char *)k, n);
        return;
    }
    put(ctx, "[\"", 2);
    for (usize i = 0; i < n; i++) {
        u8 c = k[i];
        char esc[8];
        if (c == '"' || c == '\\') {
            esc[0] = '\\';
            esc[1] = (char)c;
            put(ctx, esc, 2);
        } else if (c < 0x20) {
            snprintf(esc, sizeof(esc), "\\u%04x", c);
            put(ctx, esc, 6);
        } else {
            put(ctx, (const char *)&c, 1);
        }
    }
    put(ctx, "\"]", 2);
}

bool tyjson__path_ident(const u8 *k, usize n) {
    if (n == 0) return false;
    for (usize i = 0; i < n; i++) {
        u8 c = k[i];
        bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
        if (!alpha && !(i && c >= '0' && c <= '9')) return false;
    }
    return true;
}
