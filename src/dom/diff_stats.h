/*
 * dom/diff_stats.h - counters of tyjson_diff's internal work, for the
 * tests: they assert on the amount of work (which does not depend on the
 * machine's load), never on time.
 */
#ifndef TYJSON__DOM_DIFF_STATS_H
#define TYJSON__DOM_DIFF_STATS_H

#include "tyjson/edit.h"

typedef struct tyjson__diff_stats {
    /* Deep comparisons (tyjson_equals_ex) made: one per pair of values
     * whose structural hashes are equal. */
    size_t deep_compares;
    /* Slots (values and keys) of a's side those comparisons covered: the
     * bound of their work. */
    size_t deep_compared;
    /* A key compared with another key (by hash, then bytes when the
     * hashes are equal): lookups of a key in the other object and the
     * search for repeated keys. */
    size_t key_compares;
} tyjson__diff_stats;

/* tyjson_diff, with its counters written to *stats (when not NULL). */
tyjson_mut_doc *tyjson__diff_counted(const tyjson_val *a, const tyjson_val *b,
                                     const tyjson_alloc *alc, tyjson_error *err,
                                     tyjson__diff_stats *stats);

#endif
