/*
 * bench_check.h - how the corpus part compares one library's results with
 * the reference's (bench/bench_corpus.c). Apart from the driver so that a unit
 * test (tests/test_bench_check.c) checks these rules without any peer.
 *
 * One documented difference is not an error: tyjson reads the literal `-0`
 * as the real -0.0 (docs/conformance.md), most peers as the integer 0. Both
 * hold the same number, so a walk may move up to that many numbers from
 * `reals` to `integers`, and a reparsed text may have the integer 0 where
 * the reference has the real -0.0 (and the other way round).
 */
#ifndef TYJSON_BENCH_CHECK_H
#define TYJSON_BENCH_CHECK_H

#include "walk_stats.h"

#include <tyjson.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Size of a note buffer (the driver's notes have the same size). */
#define NOTE_MAX 200

/* Number literals written exactly `-0` (no fraction, no exponent) outside
 * strings: the numbers that libraries may read as an integer or a real. */
uint64_t bench_count_neg_zero_ints(const char *dat, size_t len);

/* True (and a reason in note, NOTE_MAX bytes) when walk `a` differs from the
 * reference walk `ref`. lossy: the integer statistics are not compared.
 * neg_zeros: bench_count_neg_zero_ints of the input. */
bool bench_stats_differ(const bench_stats *a, const bench_stats *ref, bool lossy, uint64_t neg_zeros,
                        char *note);

/* Deep equality of two documents as the cross-check needs it: the rules of
 * tyjson_equals, except that the integer 0 equals the real -0.0, and with
 * lossy, numbers compare as doubles within 2 ulp. */
bool bench_same_value(const tyjson_val *a, const tyjson_val *b, bool lossy);

#endif
