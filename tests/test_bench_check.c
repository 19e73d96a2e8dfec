/*
 * test_bench_check.c - the rules by which the benchmark cross-checks the
 * libraries (scenarios/bench_check.c). The documented `-0` difference (tyjson:
 * the real -0.0; most peers: the integer 0) must keep every peer's numbers,
 * while any other difference still drops the peer's cell.
 */
#include "test.h"

#include "bench_check.h"

#include <string.h>

static tyjson_doc *read_doc(const char *text) {
    tyjson_doc *doc = tyjson_read(text, strlen(text), 0);
    ASSERT_NOT_NULL(doc);
    return doc;
}

/* Equality of two texts under bench_same_value (not lossy). */
static bool same_text(const char *x, const char *y) {
    tyjson_doc *a = read_doc(x), *b = read_doc(y);
    bool same = bench_same_value(tyjson_doc_get_root(a), tyjson_doc_get_root(b), false);
    tyjson_doc_free(a);
    tyjson_doc_free(b);
    return same;
}

TEST(counts_only_plain_minus_zero_literals) {
    static const char text[] = "[-0,-0.0,-0e1,0,\"-0\",\"a\\\"-0\",-0 ,{\"k\":-0}]";
    ASSERT_EQ_UINT(bench_count_neg_zero_ints(text, strlen(text)), 3);
    ASSERT_EQ_UINT(bench_count_neg_zero_ints("-0", 2), 1);
    ASSERT_EQ_UINT(bench_count_neg_zero_ints("[1,-10,-0.5]", 12), 0);
}

/* tyjson's walk of [-0,-0,1,2.5] against a peer that reads -0 as 0. */
TEST(walk_with_minus_zero_as_integer_agrees) {
    bench_stats ref = {0}, peer = {0};
    char note[NOTE_MAX] = "";
    ref.arrays = peer.arrays = 1;
    ref.numbers = peer.numbers = 4;
    ref.integers = 1, ref.reals = 3, ref.int_sum = 1;
    peer.integers = 3, peer.reals = 1, peer.int_sum = 1;
    ASSERT_FALSE(bench_stats_differ(&peer, &ref, false, 2, note));
    ASSERT_FALSE(bench_stats_differ(&ref, &peer, false, 2, note)); /* either side may be the reference */
    ASSERT_EQ_STR(note, "");
    /* more moved numbers than `-0` literals: a real difference */
    ASSERT_TRUE(bench_stats_differ(&peer, &ref, false, 1, note));
    ASSERT_TRUE(strstr(note, "integers 3 vs 1") != NULL);
    /* the sum of integers still has to agree */
    peer.int_sum = 2;
    ASSERT_TRUE(bench_stats_differ(&peer, &ref, false, 2, note));
    ASSERT_TRUE(strstr(note, "int_sum") != NULL);
}

TEST(walk_differences_still_reported) {
    bench_stats ref = {0}, peer = {0};
    char note[NOTE_MAX] = "";
    ref.numbers = peer.numbers = 2;
    ref.integers = 2, peer.integers = 2;
    peer.strings = 1;
    ASSERT_TRUE(bench_stats_differ(&peer, &ref, false, 5, note));
    ASSERT_TRUE(strstr(note, "strings 1 vs 0") != NULL);
    /* lossy numbers: integers and reals are not compared at all */
    peer.strings = 0, peer.integers = 0, peer.reals = 2;
    ASSERT_FALSE(bench_stats_differ(&peer, &ref, true, 0, note));
}

TEST(integer_zero_equals_real_minus_zero) {
    ASSERT_TRUE(same_text("[-0,{\"m\":[1,-0,0.5]}]", "[0,{\"m\":[1,0,0.5]}]"));
    ASSERT_TRUE(same_text("{\"a\":0,\"b\":-0}", "{\"b\":0,\"a\":-0}"));
    ASSERT_TRUE(same_text("-0", "0"));
}

TEST(other_number_differences_remain) {
    ASSERT_FALSE(same_text("[-0]", "[1]"));
    ASSERT_FALSE(same_text("[0.0]", "[0]")); /* only the sign-carrying -0 is ambiguous */
    ASSERT_FALSE(same_text("[-0]", "[-0,0]"));
    ASSERT_FALSE(same_text("{\"a\":-0}", "{\"b\":0}"));
    ASSERT_FALSE(same_text("[1.0]", "[1]"));
}

TEST(lossy_numbers_within_two_ulp) {
    tyjson_doc *a = read_doc("[0.1,3]"), *b = read_doc("[0.10000000000000002,3.0]");
    ASSERT_TRUE(bench_same_value(tyjson_doc_get_root(a), tyjson_doc_get_root(b), true));
    ASSERT_FALSE(bench_same_value(tyjson_doc_get_root(a), tyjson_doc_get_root(b), false));
    tyjson_doc_free(a);
    tyjson_doc_free(b);
}

int main(int argc, char **argv) { return test_main(argc, argv); }
