/* readme_binding.c - the "Typed binding" block of README.md, as a program:
 * decode a person, encode it into a reusable tyjson_buf and print it. */
#include <tyjson.h>
#include <stdio.h>
#include <string.h>

typedef struct { tyjson_str name; int32_t age; bool active; double score; } person;
static const tyjson_field person_fields[] = {
    TYJSON_FIELD_STR(person, name, "name", TYJSON_FLAGS(TYJSON_F_REQUIRED)),
    TYJSON_FIELD_I32(person, age, "age"),
    TYJSON_FIELD_BOOL(person, active, "active"),
    TYJSON_FIELD_F64(person, score, "score"),
};
static tyjson_struct person_type = TYJSON_STRUCT(person, person_fields, 0);

static int run(const char *text) {
    size_t len = strlen(text);
    tyjson_error err;

    tyjson_arena arena;                      /* strings and arrays of decoded values */
    tyjson_arena_init(&arena, NULL);
    person p;
    if (tyjson_decode(&person_type, &p, text, len, &arena, NULL, &err) != TYJSON_OK)
        fprintf(stderr, "%s at %s (%zu:%zu)\n", err.msg, err.path, err.line, err.column);

    tyjson_buf out;                          /* reused: no allocation once warm */
    tyjson_buf_init(&out, NULL);
    if (tyjson_encode_append(&out, &person_type, &p, NULL, &err) == TYJSON_OK)
        printf("%s\n", out.data);            /* out.len bytes, NUL-terminated */
    tyjson_buf_free(&out);
    tyjson_arena_free(&arena);
    return 0;
}

int main(void) {
    run("{\"score\":95.5,\"active\":true,\"age\":30,\"name\":\"Alice\"}");
    /* After an error the struct is zeroed, so it encodes as all zero. */
    run("{\"age\":30}");
    return 0;
}
