/* person.c - docs/binding.md section 1, "A first struct": the descriptor,
 * a decode, an error message, an encode. */
#include <tyjson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    tyjson_str name;   /* pointer + length */
    int32_t age;
    bool active;
    double score;
} person;

static const tyjson_field person_fields[] = {
    TYJSON_FIELD_STR(person, name, "name", TYJSON_FLAGS(TYJSON_F_REQUIRED)),
    TYJSON_FIELD_I32(person, age, "age"),
    TYJSON_FIELD_BOOL(person, active, "active"),
    TYJSON_FIELD_F64(person, score, "score"),
};
static tyjson_struct person_type = TYJSON_STRUCT(person, person_fields, 0);

/* The block of section 1, run on one input. */
static void decode_and_encode(const char *json) {
    tyjson_arena arena;
    tyjson_arena_init(&arena, NULL);            /* libc blocks; allocates nothing yet */

    person p;
    tyjson_error err;
    if (tyjson_decode(&person_type, &p, json, strlen(json), &arena, NULL, &err) != TYJSON_OK) {
        char msg[320];
        fprintf(stderr, "%s\n", tyjson_error_format(&err, msg, sizeof msg));
        /* e.g. "1:23: expected an integer for int32 field, found a string at $.age" */
    }

    size_t len;
    char *text = tyjson_encode(&person_type, &p, NULL, &len, &err);
    /* {"name":"Alice","age":30,"active":true,"score":95.5} */
    printf("%s (%zu bytes)\n", text, len);
    free(text);                                 /* or tyjson_free(opts->alc, text) */
    tyjson_arena_free(&arena);                  /* p.name pointed into the arena */
}

int main(void) {
    const char *json = "{\"name\":\"Alice\",\"age\":30,\"active\":true,\"score\":95.5}";
    decode_and_encode(json);
    /* Key order does not matter; encoding writes the declared order. */
    decode_and_encode("{\"score\":95.5,\"active\":true,\"age\":30,\"name\":\"Alice\"}");
    decode_and_encode("{\"name\":\"Alice\",\"age\":\"30\"}");
    decode_and_encode("{\"age\":30}");
    return 0;
}
