/*
 * walk_stats.h - what a walk of a whole document saw: filled by every
 * benchmark adapter (bench/peers.h) and compared by the cross-check rule
 * (bench_check.h). Here, in the folder the benchmark and the tests share,
 * so that the rule is tested without the benchmark's sources.
 */
#ifndef TYJSON_WALK_STATS_H
#define TYJSON_WALK_STATS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * What a walk of the whole document saw. Keys count both in `keys` and in
 * `str_bytes` (with the string values). `int_sum` adds every integer value
 * as a wrapping uint64 (order-independent, so libraries that reorder object
 * members still agree); `num_sum` adds every number as a double and exists
 * only so that nothing can be optimised away (it is not compared).
 */
typedef struct bench_stats {
    uint64_t objects, arrays, keys, strings, numbers, integers, reals;
    uint64_t trues, falses, nulls;
    uint64_t str_bytes;
    uint64_t int_sum;
    double num_sum;
} bench_stats;

#ifdef __cplusplus
}
#endif
#endif /* TYJSON_WALK_STATS_H */
