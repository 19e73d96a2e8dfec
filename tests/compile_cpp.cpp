// compile_cpp.cpp - the public headers must compile as C++ (and link: the
// test runs a tiny parse through the C API from C++), even when included
// inside extern "C" as C headers often are: the binding macros' C++
// helpers are templates and declare their own C++ linkage.
extern "C" {
#include "tyjson.h"
}

#include <cstdio>
#include <cstring>

int main() {
    const char *s = "{\"a\":[1,2,3]}";
    tyjson_doc *doc = tyjson_read(s, std::strlen(s), 0);
    if (!doc) return 1;
    tyjson_val *a = tyjson_obj_get(tyjson_doc_get_root(doc), "a");
    size_t idx, max;
    tyjson_val *v;
    uint64_t sum = 0;
    TYJSON_ARR_FOREACH(a, idx, max, v) sum += tyjson_get_uint(v);
    tyjson_doc_free(doc);
    struct pair { int32_t a; bool seen; };
    static const tyjson_field fields[] = {
        TYJSON_FIELD_I32(pair, a, "a", TYJSON_PRESENT(pair, seen), TYJSON_FLAGS(TYJSON_F_REQUIRED)),
    };
    if (fields[0].flags != TYJSON_F_REQUIRED || fields[0].present_at != offsetof(pair, seen) + 1)
        sum = 0;
    std::printf("%s\n", sum == 6 ? "1 passed, 0 failed" : "0 passed, 1 failed");
    return sum == 6 ? 0 : 1;
}
