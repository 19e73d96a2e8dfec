/*
 * test_bind_roundtrip.c - the binding's property test with a fixed seed:
 * random descriptors over every kind, shape and allowed flag combination,
 * random values, and decode(encode(x)) == x, encode(decode(text)) == text
 * for minified and pretty output (see fixtures/bind_gen.h, shared with
 * fuzz/fuzz_roundtrip.c). A few thousand structs in a few seconds, also
 * under ASan + UBSan.
 */
#include "test.h"
#include "fixtures/bind_gen.h"

TEST(random_schemas_round_trip) {
    bg_src src = {NULL, 0, 0x9E3779B97F4A7C15ull, false};
    bg_stats st = {0, 0, 0, 0};
    while (st.checked < 5000) {
        bg_round(&src, &st);
        if (st.rounds > 100000) TEST_FAIL("too many refused schemas: %lu of %lu", st.refused, st.rounds);
    }
    printf("  %lu schemas: %lu refused by prepare, %lu round-tripped (%lu top-level fields)\n",
           st.rounds, st.refused, st.checked, st.fields);
    /* the generator reaches both sides of the contract */
    ASSERT_TRUE(st.refused > 100);
    ASSERT_TRUE(st.checked >= 5000);
}

/* Each seed alone: a failure names the seed that reproduces it. */
TEST(random_schemas_more_seeds) {
    for (uint64_t seed = 1; seed <= 40; seed++) {
        bg_src src = {NULL, 0, seed * 0x2545F4914F6CDD1Dull, false};
        bg_stats st = {0, 0, 0, 0};
        while (st.checked < 25 && st.rounds < 10000) bg_round(&src, &st);
        ASSERT_TRUE(st.checked == 25);
    }
}

int main(int argc, char **argv) { return test_main(argc, argv); }
