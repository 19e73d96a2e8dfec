/*
 * fuzz_roundtrip.c - libFuzzer target for the binding contract: the input
 * bytes drive the generator of tests/fixtures/bind_gen.h (the descriptors, flags and
 * values of one or more rounds; past the end every choice reads 0). Each
 * round checks decode(encode(x)) == x and encode(decode(text)) == text for
 * minified and pretty output, or that preparation refuses the schema;
 * anything else aborts with the text. The same generator runs with a fixed
 * seed as the ctest test_bind_roundtrip.
 */
#include "../tests/fixtures/bind_gen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    bg_src src = {data, size, 0, false};
    bg_stats st = {0, 0, 0, 0};
    /* at least one round; more while input is left (a round reads ~100+ bytes) */
    do {
        bg_round(&src, &st);
    } while (src.n > 0 && st.rounds < 8);
    return 0;
}
