/*
 * stream/reader_stats.h - counters of the pull reader's internal work, for
 * the tests: they assert on the amount of work (which does not depend on the
 * machine's load), never on time.
 */
#ifndef TYJSON__STREAM_READER_STATS_H
#define TYJSON__STREAM_READER_STATS_H

#include "tyjson/reader.h"

/* Key comparisons made by the duplicate-key check
 * (TYJSON_READ_REJECT_DUPLICATE_KEYS) since the reader was created. */
size_t tyjson__reader_dup_compares(const tyjson_reader *r);

#endif
