// compile_cpp.cpp - the public headers must compile as C++ (and link: the
// test runs a tiny parse through the C API from C++).
#include "tyjson.h"

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
    std::printf("%s\n", sum == 6 ? "1 passed, 0 failed" : "0 passed, 1 failed");
    return sum == 6 ? 0 : 1;
}
