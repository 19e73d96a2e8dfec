/*
 * bench_check.c - the rules by which the corpus part compares results
 * (see bench_check.h).
 */
#include "bench_check.h"

#include <math.h>
#include <stdio.h>

static bool ends_number(char c) {
    return !(c >= '0' && c <= '9') && c != '.' && c != 'e' && c != 'E';
}

uint64_t bench_count_neg_zero_ints(const char *dat, size_t len) {
    uint64_t n = 0;
    bool in_str = false;
    size_t i;
    for (i = 0; i < len; i++) {
        char c = dat[i];
        if (in_str) {
            if (c == '\\') i++;
            else if (c == '"') in_str = false;
        } else if (c == '"') {
            in_str = true;
        } else if (c == '-' && i + 1 < len && dat[i + 1] == '0' && (i + 2 == len || ends_number(dat[i + 2]))) {
            n++;
        }
    }
    return n;
}

/* The integers and reals counts agree once up to neg_zeros `-0` literals
 * read as integers by one side and as reals by the other are moved back. */
static bool split_agrees(const bench_stats *a, const bench_stats *ref, uint64_t neg_zeros) {
    uint64_t moved;
    if (a->integers + a->reals != ref->integers + ref->reals) return false;
    moved = a->integers >= ref->integers ? a->integers - ref->integers : ref->integers - a->integers;
    return moved <= neg_zeros;
}

bool bench_stats_differ(const bench_stats *a, const bench_stats *ref, bool lossy, uint64_t neg_zeros,
                        char *note) {
#define CHECK_FIELD(f)                                                                            \
    if (a->f != ref->f) {                                                                         \
        snprintf(note, NOTE_MAX, "walk differs from reference: " #f " %llu vs %llu",              \
                 (unsigned long long)a->f, (unsigned long long)ref->f);                           \
        return true;                                                                              \
    }
    CHECK_FIELD(objects) CHECK_FIELD(arrays) CHECK_FIELD(keys) CHECK_FIELD(strings)
    CHECK_FIELD(numbers) CHECK_FIELD(trues) CHECK_FIELD(falses) CHECK_FIELD(nulls)
    CHECK_FIELD(str_bytes)
    if (!lossy) {
        if (!split_agrees(a, ref, neg_zeros)) {
            CHECK_FIELD(integers) CHECK_FIELD(reals)
        }
        CHECK_FIELD(int_sum) /* a -0 read as an integer adds 0 */
    }
#undef CHECK_FIELD
    return false;
}

/* cJSON prints a double with 15 digits whenever those read back within its
 * own epsilon, so its output can be 1 ulp off; integers beyond 2^53 go
 * through doubles too. */
static bool close_enough(double x, double y) {
    double mag = fabs(x) > fabs(y) ? fabs(x) : fabs(y);
    return x == y || fabs(x - y) <= mag * 4.5e-16; /* 2 * DBL_EPSILON */
}

static bool is_neg_zero(const tyjson_val *v) {
    return tyjson_is_real(v) && tyjson_get_real(v) == 0.0 && signbit(tyjson_get_real(v));
}

static bool is_int_zero(const tyjson_val *v) { return tyjson_is_int(v) && tyjson_get_uint(v) == 0; }

static bool same_number(const tyjson_val *a, const tyjson_val *b, bool lossy) {
    if (lossy) return close_enough(tyjson_get_num(a), tyjson_get_num(b));
    if ((is_neg_zero(a) && is_int_zero(b)) || (is_int_zero(a) && is_neg_zero(b))) return true;
    return tyjson_equals(a, b);
}

static bool same_members(const tyjson_val *a, const tyjson_val *b, bool lossy) {
    tyjson_obj_iter it = tyjson_obj_iter_with(a);
    tyjson_val *k;
    while ((k = tyjson_obj_iter_next(&it))) {
        const tyjson_val *y = tyjson_obj_getn(b, tyjson_get_str(k), tyjson_get_len(k));
        if (!y || !bench_same_value(tyjson_obj_iter_get_val(k), y, lossy)) return false;
    }
    return true;
}

bool bench_same_value(const tyjson_val *a, const tyjson_val *b, bool lossy) {
    if (tyjson_is_num(a) && tyjson_is_num(b)) return same_number(a, b, lossy);
    if (tyjson_get_type(a) != tyjson_get_type(b) || tyjson_get_len(a) != tyjson_get_len(b)) return false;
    if (tyjson_is_arr(a)) {
        tyjson_arr_iter ia = tyjson_arr_iter_with(a), ib = tyjson_arr_iter_with(b);
        const tyjson_val *x, *y;
        while ((x = tyjson_arr_iter_next(&ia)) && (y = tyjson_arr_iter_next(&ib)))
            if (!bench_same_value(x, y, lossy)) return false;
        return true;
    }
    if (tyjson_is_obj(a)) return same_members(a, b, lossy);
    return tyjson_equals(a, b);
}
