/*
 * validate.c - tyjson_validate: whether tyjson_read_opts would accept the
 * input, with its exact error when not.
 */
#include "base/internal.h"

bool tyjson_validate(const char *dat, usize len, const tyjson_read_options *opts,
                     tyjson_error *err) {
    tyjson_doc *doc = tyjson_read_opts(dat, len, opts, err);
    tyjson_doc_free(doc);
    return doc != NULL;
}
