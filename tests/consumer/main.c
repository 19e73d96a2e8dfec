/* main.c - a consumer of the installed tyjson (tests/install_check.sh):
 * parses, reads a member, writes back, and prints "ok". */
#include <tyjson.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    static const char text[] = "{\"a\":[1,2,3],\"s\":\"x\"}";
    tyjson_doc *doc = tyjson_read(text, strlen(text), 0);
    size_t len = 0;
    char *out = doc ? tyjson_write(doc, 0, &len) : NULL;
    int ok = doc && out && len == strlen(text) && memcmp(out, text, len) == 0 &&
             tyjson_get_len(tyjson_obj_get(tyjson_doc_get_root(doc), "a")) == 3;
    free(out);
    tyjson_doc_free(doc);
    puts(ok ? "ok" : "bad");
    return ok ? 0 : 1;
}
