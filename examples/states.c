/* states.c - the "Three states" block of docs/binding.md section 5: a
 * member that tells an absent key from null from a value, and writes each
 * back as it came. */
#include <tyjson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct patch { int32_t qty; tyjson_state qty_st; } patch;
static const tyjson_field patch_fields[] = {
    TYJSON_FIELD_I32(patch, qty, "qty", TYJSON_STATE(patch, qty_st)),
};
static tyjson_struct patch_type = TYJSON_STRUCT(patch, patch_fields, 0);

/* {}          -> qty_st = TYJSON_STATE_ABSENT, qty = 0 (or its default)
 * {"qty":null} -> qty_st = TYJSON_STATE_NULL,   qty = 0
 * {"qty":5}   -> qty_st = TYJSON_STATE_SET,    qty = 5   (and the same back) */
static const char *state_name(tyjson_state st) {
    return st == TYJSON_STATE_ABSENT ? "ABSENT" : st == TYJSON_STATE_NULL ? "NULL" : "SET";
}

int main(void) {
    const char *inputs[] = {"{}", "{\"qty\":null}", "{\"qty\":5}"};
    tyjson_arena arena;
    tyjson_arena_init(&arena, NULL);
    for (size_t i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
        patch p;
        tyjson_error err;
        if (tyjson_decode(&patch_type, &p, inputs[i], strlen(inputs[i]), &arena, NULL, &err) !=
            TYJSON_OK) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
        size_t len;
        char *back = tyjson_encode(&patch_type, &p, NULL, &len, &err);
        if (!back) {
            fprintf(stderr, "%s\n", err.msg);
            return 1;
        }
        printf("%-12s -> qty_st = %-6s qty = %d -> %s\n", inputs[i], state_name(p.qty_st),
               (int)p.qty, back);
        free(back);
        tyjson_arena_reset(&arena);
    }
    tyjson_arena_free(&arena);
    return 0;
}
