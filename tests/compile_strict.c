/* compile_strict.c - the public headers under the strictest warnings we
 * ask of users' code (see tests/CMakeLists.txt for the flags). */
#include "tyjson.h"

int tyjson_strict_check(const tyjson_val *v);
int tyjson_strict_check(const tyjson_val *v) {
    size_t idx, max;
    tyjson_val *key, *val;
    int n = 0;
    TYJSON_OBJ_FOREACH(v, idx, max, key, val) {
        if (tyjson_is_str(key) && tyjson_get_len(val) > 0) n++;
    }
    return n;
}
