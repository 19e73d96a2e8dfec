/*
 * msg.h - the words of a reading error, shared by the front doors that
 * report syntax errors as the DOM parser does (dom/parse.c, the pull reader
 * in stream/): what was expected where the read failed, and the message
 * "expected X, found Y" that quotes the input around the failing byte.
 */
#ifndef TYJSON_MSG_H
#define TYJSON_MSG_H

#include "base/internal.h"

/* What a reader was looking for where it failed, for the message (a code
 * alone does not say it; codes only one place produces carry their own). */
enum {
    EXPECT_NONE,      /* the code says it (DEPTH, TRAILING, ...) */
    EXPECT_ROOT,      /* a JSON value at the top */
    EXPECT_ARR_FIRST, /* a value or ']' after '[' */
    EXPECT_ARR_VALUE, /* a value after ',' in an array */
    EXPECT_ARR_NEXT,  /* ',' or ']' */
    EXPECT_KEY_FIRST, /* a key or '}' after '{' */
    EXPECT_KEY,       /* a key after ',' in an object */
    EXPECT_COLON,     /* ':' after a key */
    EXPECT_OBJ_VALUE, /* a value after ':' */
    EXPECT_OBJ_NEXT,  /* ',' or '}' */
    EXPECT_STRING,    /* inside a string */
    EXPECT_NUMBER,    /* inside a number */
    EXPECT_LITERAL,   /* true, false, null, NaN, Infinity */
    EXPECT_COMMENT,   /* inside or at the start of a comment */
    EXPECT_HERE       /* what the calling state wants (read_scalar's caller fills it in) */
};

/**
 * Fills err->msg for a read error `code` at pos, in the bytes [buf, end)
 * (buf: as far back as a number's start may lie; end: the real end of the
 * input, or as far as the bytes are known). expect is an EXPECT_* value;
 * max_depth is quoted by E_DEPTH. For E_DUPLICATE_KEY, pos + 1 holds the
 * key, NUL terminated. Cold: runs once per failed read.
 */
void tyjson__describe_error(tyjson_error *err, tyjson_status code, int expect, const u8 *buf,
                            const u8 *pos, const u8 *end, u32 max_depth);

#endif /* TYJSON_MSG_H */
