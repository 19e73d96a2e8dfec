/* event.c - docs/binding.md section 2, "The one-list form": one list
 * declares both the struct and its descriptor. */
#include <tyjson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EVENT_FIELDS(X, T)        \
    X(T, STR, title, "title")     \
    X(T, U16, seats, "seats")     \
    X(T, F64, price, "price")     \
    X(T, DATE, day, "day")        \
    X(T, EPOCH_MS, at, "at")

TYJSON_DECLARE_STRUCT(event, EVENT_FIELDS);   /* in a header: typedef struct event {...} event; */
TYJSON_DEFINE_TYPE(event, EVENT_FIELDS, 0);   /* in one .c file: event_fields[], event_type */

int main(void) {
    const char *json = "{\"title\":\"Gala\",\"seats\":120,\"price\":45.5,"
                       "\"day\":\"2024-06-15\",\"at\":\"2024-06-15T21:30:00+02:00\"}";
    tyjson_arena arena;
    tyjson_arena_init(&arena, NULL);
    event e;
    tyjson_error err;
    if (tyjson_decode(&event_type, &e, json, strlen(json), &arena, NULL, &err) != TYJSON_OK) {
        char msg[320];
        fprintf(stderr, "%s\n", tyjson_error_format(&err, msg, sizeof msg));
        return 1;
    }
    printf("%s: %u seats at %.2f on %04d-%02d-%02d, epoch ms %lld\n", e.title.ptr,
           (unsigned)e.seats, e.price, (int)e.day.year, e.day.month, e.day.day, (long long)e.at);
    printf("%zu fields\n", sizeof event_fields / sizeof event_fields[0]);

    size_t len;
    char *text = tyjson_encode(&event_type, &e, NULL, &len, &err);
    printf("%s\n", text);                       /* EPOCH_MS is written in UTC */
    free(text);
    tyjson_arena_free(&arena);
    return 0;
}
