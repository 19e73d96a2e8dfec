/* codec.c - docs/binding.md section 10, "Free-form values and custom
 * codecs": a VALUE member, a RAW member, and a codec that reads and writes
 * a colour as "#rrggbb". */
#include <tyjson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { uint8_t r, g, b; } rgb;

static tyjson_status rgb_encode(void *ctx, const void *member,
                                tyjson_write_fn write, void *wctx) {
    /* append exactly one JSON value with write(wctx, bytes, len) */
    const rgb *c = (const rgb *)member;
    char text[16];
    int n = snprintf(text, sizeof text, "\"#%02x%02x%02x\"", c->r, c->g, c->b);
    (void)ctx;
    return write(wctx, text, (size_t)n) == 0 ? TYJSON_OK : TYJSON_E_CALLBACK;
}
static tyjson_status rgb_decode(void *ctx, const tyjson_val *val, void *member,
                                tyjson_arena *arena) {
    /* val: the member's JSON value as a DOM, valid during the call;
     * allocate what you keep from arena */
    unsigned r, g, b;
    const char *s = tyjson_get_str(val);
    (void)ctx;
    (void)arena;
    if (!s || tyjson_get_len(val) != 7 || sscanf(s, "#%2x%2x%2x", &r, &g, &b) != 3)
        return TYJSON_E_TYPE;
    rgb c = {(uint8_t)r, (uint8_t)g, (uint8_t)b};
    memcpy(member, &c, sizeof c);
    return TYJSON_OK;
}
static const tyjson_codec rgb_codec = {rgb_decode, rgb_encode, NULL};

typedef struct {
    tyjson_str name;
    rgb color;
    tyjson_val *extra;     /* any JSON value, as a DOM in the arena */
    tyjson_str raw;        /* any JSON value, as its text */
} entity;
static const tyjson_field entity_fields[] = {
    TYJSON_FIELD_STR(entity, name, "name"),
    TYJSON_FIELD_CUSTOM(entity, color, "color", &rgb_codec),
    TYJSON_FIELD_VALUE(entity, extra, "extra"),
    TYJSON_FIELD_RAW(entity, raw, "raw"),
};
static tyjson_struct entity_type = TYJSON_STRUCT(entity, entity_fields, 0);

static void round_trip(const char *json, const tyjson_write_options *wo) {
    tyjson_arena arena;
    tyjson_arena_init(&arena, NULL);
    entity e;
    tyjson_error err;
    char msg[320];
    size_t len;
    if (tyjson_decode(&entity_type, &e, json, strlen(json), &arena, NULL, &err) != TYJSON_OK) {
        printf("%s: %s\n", tyjson_status_name(err.code), tyjson_error_format(&err, msg, sizeof msg));
    } else {
        const char *tag = tyjson_get_str(tyjson_ptr_get(e.extra, "/tags/1"));
        printf("color %u,%u,%u; extra is %s; extra.tags[1] = %s\n", e.color.r, e.color.g,
               e.color.b, !e.extra ? "NULL" : tyjson_is_null(e.extra) ? "a DOM null" : "a DOM value",
               tag ? tag : "(none)");
        char *text = tyjson_encode(&entity_type, &e, wo, &len, &err);
        printf("%s\n", text);
        free(text);
    }
    tyjson_arena_free(&arena);
}

int main(void) {
    tyjson_write_options pretty = {TYJSON_WRITE_PRETTY, 2, NULL};
    round_trip("{\"name\":\"lamp\",\"color\":\"#ff8000\",\"extra\":{\"tags\":[\"a\",\"b\"]},"
               "\"raw\":[1, 2.50, \"x\"]}",
               NULL);
    round_trip("{\"name\":\"lamp\",\"color\":\"#ff8000\",\"extra\":{\"tags\":[\"a\",\"b\"]}}",
               &pretty);
    round_trip("{\"name\":\"lamp\",\"color\":\"#000000\",\"extra\":null,\"raw\":null}", NULL);
    round_trip("{\"name\":\"lamp\",\"color\":\"orange\"}", NULL);
    return 0;
}
