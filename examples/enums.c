/* enums.c - the enum block of docs/binding.md section 3, "Kinds": an enum
 * member mapped by name, and what happens to a value without a name. */
#include <tyjson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { RED, GREEN = 5, BLUE = -3 } color;
static const tyjson_enum_entry color_names[] = {{"red", RED}, {"green", GREEN}, {"blue", BLUE}};

typedef struct {
    color c;
    uint8_t shade;   /* a 1-byte enum member */
} paint;
static const tyjson_enum_entry shade_names[] = {{"light", 1}, {"dark", 200}};
static const tyjson_field paint_fields[] = {
    TYJSON_FIELD_ENUM(paint, c, "color", color_names),
    TYJSON_FIELD_ENUM(paint, shade, "shade", shade_names),
};
static tyjson_struct paint_type = TYJSON_STRUCT(paint, paint_fields, 0);

int main(void) {
    const char *json = "{\"color\":\"blue\",\"shade\":\"dark\"}";
    tyjson_arena arena;
    tyjson_arena_init(&arena, NULL);
    paint p;
    tyjson_error err;
    char msg[320];
    if (tyjson_decode(&paint_type, &p, json, strlen(json), &arena, NULL, &err) != TYJSON_OK) {
        fprintf(stderr, "%s\n", tyjson_error_format(&err, msg, sizeof msg));
        return 1;
    }
    printf("color %d, shade %u\n", (int)p.c, (unsigned)p.shade);

    size_t len;
    char *text = tyjson_encode(&paint_type, &p, NULL, &len, &err);
    printf("%s\n", text);
    free(text);

    p.c = (color)7;                             /* no name: the encode fails */
    text = tyjson_encode(&paint_type, &p, NULL, &len, &err);
    if (!text) printf("%s: %s\n", tyjson_status_name(err.code), tyjson_error_format(&err, msg, sizeof msg));

    const char *unknown = "{\"color\":\"purple\"}";
    if (tyjson_decode(&paint_type, &p, unknown, strlen(unknown), &arena, NULL, &err) != TYJSON_OK)
        printf("%s: %s\n", tyjson_status_name(err.code), tyjson_error_format(&err, msg, sizeof msg));
    tyjson_arena_free(&arena);
    return 0;
}
