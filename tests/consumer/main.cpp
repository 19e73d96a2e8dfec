// main.cpp - the C++ consumer of the installed tyjson
// (tests/install_check.sh): the headers as C++, the C API called from C++.
#include <tyjson.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

int main() {
    const char *text = "[true,null,\"caf\\u00e9\"]";
    tyjson_doc *doc = tyjson_read(text, std::strlen(text), 0);
    tyjson_val *third = doc ? tyjson_arr_get(tyjson_doc_get_root(doc), 2) : nullptr;
    bool ok = third && tyjson_equals_str(third, "caf\xc3\xa9");
    tyjson_doc_free(doc);
    std::puts(ok ? "ok" : "bad");
    return ok ? 0 : 1;
}
