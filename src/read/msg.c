/*
 * msg.c - the reading errors' messages, "expected X, found Y", for every
 * front door that reports a syntax error as the DOM parser does (the DOM
 * parser, the pull reader). Cold code: it runs once per failed read.
 */
#include "read/msg.h"
#include "read/syntax.h"

#include <stdio.h>

/* ----------------------------------------------------------------------------
 * Error messages: "expected X, found Y", formatted into err->msg on the
 * error path only. The parser records what it was looking for (an EXPECT_*
 * value) where a code alone does not say it; the codes that only one place
 * can produce carry their own expectation.
 * ------------------------------------------------------------------------- */
typedef struct msg_out {
    char *p;
    usize left; /* bytes of room, the final NUL included */
} msg_out;

static void put_str(msg_out *o, const char *s) {
    while (*s && o->left > 1) {
        *o->p++ = *s++;
        o->left--;
    }
    *o->p = 0;
}

static void put_fmt_u(msg_out *o, const char *fmt, unsigned long v) {
    char tmp[TYJSON_ERROR_MSG_MAX];
    snprintf(tmp, sizeof(tmp), fmt, v);
    put_str(o, tmp);
}

/* Quotes the n bytes at p, at most max of them (then "..."): printable
 * ASCII as is, other bytes as \xHH, so that the message stays one line. */
static void put_quoted(msg_out *o, const u8 *p, usize n, usize max) {
    put_str(o, "'");
    for (usize i = 0; i < n && i < max; i++) {
        char c[2] = {(char)p[i], 0};
        if (p[i] >= 0x20 && p[i] < 0x7F) put_str(o, c);
        else put_fmt_u(o, "\\x%02lX", p[i]);
    }
    if (n > max) put_str(o, "...");
    put_str(o, "'");
}

/* The byte (or UTF-8 character) at p, in words. */
static void put_found(msg_out *o, const u8 *p, const u8 *end) {
    if (p >= end) {
        put_str(o, "end of input");
        return;
    }
    u8 c = *p;
    if (c == ' ') put_str(o, "a space");
    else if (c == '\t') put_str(o, "a tab");
    else if (c == '\n') put_str(o, "a line feed");
    else if (c == '\r') put_str(o, "a carriage return");
    else if (c < 0x20 || c == 0x7F) put_fmt_u(o, "U+%04lX control character", c);
    else if (c == '\'') put_str(o, "\"'\"");
    else if (c < 0x80) put_quoted(o, p, 1, 1);
    else if (tyjson__has_bom(p, end))
        put_str(o, "a byte order mark (U+FEFF)");
    else {
        usize n = tyjson__utf8_seq_slow(p, end);
        if (!n) {
            put_fmt_u(o, "byte 0x%02lX", c);
            return;
        }
        char tmp[5] = {0};
        memcpy(tmp, p, n);
        put_str(o, "'");
        put_str(o, tmp);
        put_str(o, "'");
    }
}

/* A scalar token at p: up to the next delimiter, whitespace or end. */
static usize token_len(const u8 *p, const u8 *end) {
    const u8 *q = p;
    while (q < end && *q > ' ' && *q != ',' && *q != ']' && *q != '}' && *q != ':' &&
           *q != '[' && *q != '{' && *q != '"' && *q != '/')
        q++;
    return (usize)(q - p);
}

/* What a scalar or a container may start with, for "expected a value". */
static const char *const what_value = "a JSON value";

static void describe_unexpected(msg_out *o, int expect, const u8 *pos, const u8 *end) {
    const char *what;
    switch (expect) {
    case EXPECT_ARR_FIRST: what = "a value or ']'"; break;
    case EXPECT_ARR_VALUE: what = "a value after ','"; break;
    case EXPECT_ARR_NEXT: what = "',' or ']' after an array element"; break;
    case EXPECT_KEY_FIRST: what = "an object key (a string) or '}'"; break;
    case EXPECT_KEY: what = "an object key (a string) after ','"; break;
    case EXPECT_COLON: what = "':' after an object key"; break;
    case EXPECT_OBJ_VALUE: what = "a value after ':'"; break;
    case EXPECT_OBJ_NEXT: what = "',' or '}' after an object member"; break;
    default: what = what_value; break;
    }
    put_str(o, "expected ");
    put_str(o, what);
    put_str(o, ", found ");
    put_found(o, pos, end);
}

static void describe_string(msg_out *o, tyjson_status code, const u8 *pos, const u8 *end) {
    if (code == TYJSON_E_STRING_CTRL) {
        put_str(o, "expected an escape (\\n, \\t, \\u00XX) for a control character in a string, found ");
        put_found(o, pos, end);
        return;
    }
    if (code == TYJSON_E_UTF8) {
        u8 b = *pos;
        usize want = b >= 0xF5 || b < 0xC2 ? 1 : b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2;
        /* the lead byte, its continuation bytes, and the byte that broke
         * the sequence (at most the string's closing quote) */
        usize have = 1;
        while (have < want && pos + have < end && (pos[have] & 0xC0) == 0x80) have++;
        if (have < want && pos + have < end) have++;
        put_str(o, "expected UTF-8 text in a string, found byte");
        if (have > 1) put_str(o, "s");
        for (usize i = 0; i < have; i++) put_fmt_u(o, " 0x%02lX", pos[i]);
        return;
    }
    if (pos >= end) {
        put_str(o, "expected '\"' to end the string, found end of input");
        return;
    }
    /* pos is the backslash of a bad escape */
    if (pos + 1 >= end || pos[1] != 'u') {
        put_str(o, "expected one of \" \\ / b f n r t u after '\\' in a string, found ");
        put_found(o, pos + 1, end);
        return;
    }
    const u8 *h = pos + 2;
    while (h < pos + 6 && h < end && tyjson__hexval[*h] != 0xFF) h++;
    if (h < pos + 6) {
        put_str(o, "expected 4 hex digits after '\\u', found ");
        put_found(o, h, end);
        return;
    }
    int32_t cp = tyjson__hex4(pos + 2);
    if (cp >= 0xDC00) {
        put_str(o, "expected a high surrogate escape (\\uD800-\\uDBFF) before ");
        put_quoted(o, pos, 6, 6);
        put_str(o, ", found it alone");
        return;
    }
    put_str(o, "expected a low surrogate escape (\\uDC00-\\uDFFF) after ");
    put_quoted(o, pos, 6, 6);
    put_str(o, ", found ");
    const u8 *next = pos + 6;
    if (next + 1 < end && next[0] == '\\' && next[1] == 'u') {
        usize n = 2; /* the escape and its hex digits, not beyond */
        while (n < 6 && next + n < end && tyjson__hexval[next[n]] != 0xFF) n++;
        put_quoted(o, next, n, 6);
    }
    else put_found(o, next, end);
}

/* tok is where the number starts, pos the byte that broke it. */
static void describe_number(msg_out *o, tyjson_status code, const u8 *tok, const u8 *pos,
                            const u8 *end) {
    if (code == TYJSON_E_NUMBER_RANGE) {
        usize n = token_len(tok, end);
        bool integer = true;
        for (usize i = 0; i < n; i++)
            if (tok[i] == '.' || tok[i] == 'e' || tok[i] == 'E') integer = false;
        put_str(o, integer ? "expected an integer from -2^63 to 2^64-1, found "
                           : "expected a number within the range of a double, found ");
        put_quoted(o, tok, n, 40);
        put_str(o, " (out of range)");
        return;
    }
    const u8 *digits = tok + (*tok == '-' || *tok == '+');
    if (pos - tok >= 2 && (pos[-1] | 0x20) == 'x') /* JSON5 hexadecimal */
        put_str(o, "expected a hexadecimal digit after '0x', found ");
    else if (pos == digits && *tok == '+') put_str(o, "expected a digit after '+', found ");
    else if (pos == digits) put_str(o, "expected a digit after '-', found ");
    else if (pos == digits + 1 && *digits == '0')
        put_str(o, "expected '.', 'e' or the end of the number after a leading 0, found ");
    else if (pos[-1] == '.') put_str(o, "expected a digit after the decimal point, found ");
    else put_str(o, "expected a digit in the exponent, found ");
    put_found(o, pos, end);
}

static void describe_literal(msg_out *o, tyjson_status code, const u8 *tok, const u8 *end) {
    const char *word = *tok == 't' ? "true" : *tok == 'f' ? "false" : *tok == 'n' ? "null"
                     : *tok == 'N' ? "NaN" : *tok == '-' ? "-Infinity" : "Infinity";
    usize n = token_len(tok, end);
    put_str(o, "expected '");
    put_str(o, word);
    put_str(o, "', found ");
    if (code == TYJSON_E_TRUNCATED) {
        put_str(o, "end of input after ");
        put_quoted(o, tok, n, 16);
    } else if (n) {
        put_quoted(o, tok, n, 16);
    } else {
        put_found(o, tok, end);
    }
}

/* Where the number whose bad byte is pos starts. A number is never
 * preceded by a number byte (a delimiter, whitespace, a comment or the
 * start of the input comes first), so going back over them finds it. */
static const u8 *number_start(const u8 *buf, const u8 *pos) {
    const u8 *q = pos;
    while (q > buf && ((q[-1] >= '0' && q[-1] <= '9') || q[-1] == '-' || q[-1] == '+' ||
                       q[-1] == '.' || q[-1] == 'e' || q[-1] == 'E' || q[-1] == 'x' || q[-1] == 'X'))
        q--;
    return q;
}

/* Fills err->msg for a parse error at pos, in the buffer from buf to end.
 * Cold: runs once per failed parse. */
void tyjson__describe_error(tyjson_error *err, tyjson_status code, int expect, const u8 *buf,
                           const u8 *pos, const u8 *end, u32 max_depth) {
    /* Literals and out-of-range numbers are reported at their start, other
     * number errors at the byte that broke the number. */
    const u8 *tok = pos;
    if (code == TYJSON_E_NUMBER || (code == TYJSON_E_TRUNCATED && expect == EXPECT_NUMBER))
        tok = number_start(buf, pos);
    /* Formatted straight into the record; a status without a case below
     * gets its status message back. */
    msg_out o = {err->msg, sizeof(err->msg)};
    o.p[0] = 0;
    switch (code) {
    case TYJSON_E_EMPTY: put_str(&o, "expected a JSON value, found end of input"); break;
    case TYJSON_E_TRAILING:
        put_str(&o, "expected end of input after the JSON value, found ");
        put_found(&o, pos, end);
        break;
    case TYJSON_E_DEPTH:
        put_fmt_u(&o, "expected at most %lu nested arrays and objects, found ", max_depth);
        put_quoted(&o, pos, 1, 1);
        put_str(&o, " one level deeper");
        break;
    case TYJSON_E_DUPLICATE_KEY: {
        /* the key at pos has been decoded in place and NUL-terminated */
        const u8 *k = pos + 1;
        put_str(&o, "expected unique keys in an object, found ");
        put_quoted(&o, k, strlen((const char *)k), 40);
        put_str(&o, " again");
        break;
    }
    case TYJSON_E_COMMENT: put_str(&o, "expected '*/' to end the comment, found end of input"); break;
    case TYJSON_E_STRING_CTRL:
    case TYJSON_E_ESCAPE:
    case TYJSON_E_SURROGATE:
    case TYJSON_E_UTF8: describe_string(&o, code, pos, end); break;
    case TYJSON_E_NUMBER:
    case TYJSON_E_NUMBER_RANGE: describe_number(&o, code, tok, pos, end); break;
    case TYJSON_E_LITERAL: describe_literal(&o, code, tok, end); break;
    case TYJSON_E_TRUNCATED:
    case TYJSON_E_UNEXPECTED_CHAR:
        if (expect == EXPECT_STRING) describe_string(&o, code, pos, end);
        else if (expect == EXPECT_NUMBER) describe_number(&o, code, tok, pos, end);
        else if (expect == EXPECT_LITERAL) describe_literal(&o, code, tok, end);
        else if (expect == EXPECT_COMMENT) {
            put_str(&o, "expected '/' or '*' after '/' to start a comment, found ");
            put_found(&o, pos + 1, end);
        } else describe_unexpected(&o, expect, pos, end);
        break;
    default: tyjson__err_msg(err, tyjson_status_msg(code)); /* it says it all */
    }
}

