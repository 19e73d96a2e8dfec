/* quick_start.c - the "Quick start" block of README.md, as a program:
 * parse a document, query it, build a new one, write it pretty. */
#include <tyjson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char text[] =
    "{\"name\":\"Alice\",\"user\":{\"age\":30},\"tags\":[\"admin\",\"dev\"]}";

int main(void) {
    size_t len = strlen(text);

    /* parse */
    tyjson_error err;
    tyjson_doc *doc = tyjson_read_opts(text, len, NULL, &err);
    if (!doc) {
        fprintf(stderr, "%zu:%zu: %s\n", err.line, err.column, err.msg);
        return 1;
    }

    /* query */
    tyjson_val *root = tyjson_doc_get_root(doc);
    const char *name = tyjson_get_str(tyjson_obj_get(root, "name"));
    int64_t age = tyjson_get_int(tyjson_ptr_get(root, "/user/age"));
    size_t idx, max;
    tyjson_val *tag;
    TYJSON_ARR_FOREACH(tyjson_obj_get(root, "tags"), idx, max, tag)
        printf("tag %s\n", tyjson_get_str(tag));

    /* build */
    tyjson_mut_doc *mdoc = tyjson_mut_doc_new(NULL);
    tyjson_mut_val *obj = tyjson_mut_obj(mdoc);
    tyjson_mut_doc_set_root(mdoc, obj);
    tyjson_mut_obj_add_str(mdoc, obj, "name", "Alice");       /* references "Alice" */
    tyjson_mut_obj_add_strcpy(mdoc, obj, "copy", name);       /* copies into mdoc */
    tyjson_mut_obj_add_sint(mdoc, obj, "age", age);
    tyjson_mut_val *list = tyjson_mut_obj_add_arr(mdoc, obj, "scores");
    tyjson_mut_arr_add_real(mdoc, list, 95.5);

    /* write */
    tyjson_write_options wo = {TYJSON_WRITE_PRETTY, 2, NULL};
    size_t out_len;
    char *out = tyjson_mut_write_opts(mdoc, &wo, &out_len, &err);
    puts(out);
    free(out);

    tyjson_mut_doc_free(mdoc);
    tyjson_doc_free(doc);

    /* A syntax error is reported with its line and column. */
    static const char bad[] = "{\"name\":\"Alice\",\n \"age\": 30,}";
    tyjson_doc *none = tyjson_read_opts(bad, strlen(bad), NULL, &err);
    if (!none) fprintf(stderr, "%zu:%zu: %s\n", err.line, err.column, err.msg);
    return 0;
}
