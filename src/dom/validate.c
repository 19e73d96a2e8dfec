/*
 * validate.c - tyjson_validate: whether tyjson_read_opts would accept the
 * input, with its exact error when not.
 *
 * Valid strict input is decided with no document and no allocation
 * (read/skip.c): over the structural index where the DOM parser would take
 * it too (tyjson__index_pays), else by the byte walk; anything else, and
 * every invalid input, is parsed, so the answer and the error are the
 * parser's. The DOM parser's index policy (tests force it) picks the route.
 */
#include "dom/parse.h"
#include "read/syntax.h"

bool tyjson_validate(const char *dat, usize len, const tyjson_read_options *opts,
                     tyjson_error *err) {
    if (dat && len) {
        u32 flags = opts ? opts->flags : 0;
        u32 max_depth = opts && opts->max_depth ? opts->max_depth : TYJSON_DEFAULT_MAX_DEPTH;
        tyjson_alloc alc = tyjson__alc_or_libc(opts ? opts->alc : NULL);
        const u8 *p = (const u8 *)dat;
        tyjson__skip_opts o = {p + len, flags, 0, max_depth, &alc};
        int policy = tyjson__parse_index_policy();
        tyjson__validate_route route = policy == TYJSON__INDEX_ALWAYS  ? TYJSON__VALIDATE_INDEX
                                       : policy == TYJSON__INDEX_NEVER ? TYJSON__VALIDATE_BYTES
                                                                       : TYJSON__VALIDATE_AUTO;
        if (tyjson__validate_strict(p, &o, route)) {
            tyjson__err_ok(err);
            return true;
        }
    }
    tyjson_doc *doc = tyjson_read_opts(dat, len, opts, err);
    tyjson_doc_free(doc);
    return doc != NULL;
}
