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
    // in-place setters and float values (dom.h, mut.h)
    tyjson_val *first = tyjson_arr_get(a, 0);
    if (!tyjson_set_float(first, 0.5f) || !tyjson_is_float(first) || tyjson_get_real(first) != 0.5 ||
        !tyjson_set_uint(first, 1) || !tyjson_set_str(tyjson_arr_get(a, 1), "x") ||
        !tyjson_set_strn(tyjson_arr_get(a, 1), "y", 1) || !tyjson_set_null(tyjson_arr_get(a, 2)) ||
        !tyjson_set_bool(tyjson_arr_get(a, 2), true) || !tyjson_set_sint(tyjson_arr_get(a, 2), -1) ||
        !tyjson_set_int(tyjson_arr_get(a, 2), 3) || !tyjson_set_real(tyjson_arr_get(a, 2), 1.5))
        sum = 0;
    tyjson_mut_doc *mdoc = tyjson_mut_doc_new(NULL);
    tyjson_mut_val *marr = tyjson_mut_arr(mdoc), *mobj = tyjson_mut_obj(mdoc);
    const float fv[] = {0.25f};
    if (!tyjson_mut_is_float(tyjson_mut_float(mdoc, 0.1f)) || !tyjson_mut_arr_add_float(mdoc, marr, 0.1f) ||
        !tyjson_mut_obj_add_float(mdoc, mobj, "f", 0.1f) ||
        !tyjson_mut_set_float(tyjson_mut_arr_get(marr, 0), 0.2f) ||
        !tyjson_mut_is_float(tyjson_mut_arr_get_first(tyjson_mut_arr_with_float(mdoc, fv, 1))))
        sum = 0;
    tyjson_mut_doc_free(mdoc);
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
