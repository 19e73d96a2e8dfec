/*
 * str_write.h - JSON string literals for every writer (str_write.c).
 *
 * Escaping is minimal by default: \" \\ \b \f \n \r \t, other control
 * characters as \u00XX with lowercase hex (\u001f), everything else as is.
 * TYJSON_WRITE_ESCAPE_UNICODE writes each non-ASCII code point as \uXXXX
 * (lowercase hex, a surrogate pair above U+FFFF: U+1F600 -> \ud83d\ude00);
 * TYJSON_WRITE_ESCAPE_SLASH writes '/' as \/. UTF-8 is validated strictly
 * (no overlongs, no surrogates, nothing above U+10FFFF): invalid bytes fail
 * with TYJSON_E_UTF8, or with TYJSON_WRITE_REPLACE_INVALID_UTF8 each maximal
 * invalid subpart becomes one U+FFFD (the Unicode "best practice").
 */
#ifndef TYJSON_STR_WRITE_H
#define TYJSON_STR_WRITE_H

#include "write/wbuf.h"

/* TYJSON__STR_SLACK, the room left after the cursor that tyjson__str_write
 * returns (so that a caller may append a separator without a check), and
 * the inline clean-string core for short strings (tyjson__str_write_short
 * and its SWAR tests) are in <tyjson/str_clean.h>: the streaming writer's
 * inline fast paths in the public writer.h share that one copy. */
#include <tyjson/str_clean.h>

/**
 * Writes `"..."` for the n bytes at s, starting at the cursor d of wb (the
 * caller's local copy of wb->cur; it need not have any room). Returns the
 * new cursor, with at least TYJSON__STR_SLACK bytes of room before wb->end;
 * the caller must reload its copy of wb->end. On invalid UTF-8 (without
 * REPLACE_INVALID_UTF8) records TYJSON_E_UTF8 in wb and returns NULL.
 */
char *tyjson__str_write(tyjson__wbuf *wb, char *d, const char *s, usize n,
                        tyjson_write_flags flags);

/** True if strings whose tag has TYJSON__NOESC_BIT can be copied verbatim
 *  under these flags (the parser validated them and found nothing to escape,
 *  but it knows nothing of '/' or non-ASCII escaping). */
TYJSON__FORCEINLINE bool tyjson__str_noesc_ok(tyjson_write_flags flags) {
    return (flags & (TYJSON_WRITE_ESCAPE_UNICODE | TYJSON_WRITE_ESCAPE_SLASH)) == 0;
}

#endif /* TYJSON_STR_WRITE_H */
