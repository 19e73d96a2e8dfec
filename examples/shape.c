/* shape.c - docs/binding.md section 4, "Shapes: nested structs and
 * arrays", both blocks: a struct by value, by pointer, fixed and dynamic
 * arrays, and a type whose JSON form is a top-level array. */
#include <tyjson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { int32_t x, y; } point;
static const tyjson_field point_fields[] = {
    TYJSON_FIELD_I32(point, x, "x"),
    TYJSON_FIELD_I32(point, y, "y"),
};
static tyjson_struct point_type = TYJSON_STRUCT(point, point_fields, 0);

typedef struct {
    point origin;                 /* by value */
    point *anchor;                /* by pointer, NULL <-> null */
    point corners[4]; size_t n_corners;   /* fixed array + count */
    point *path; size_t n_path;           /* dynamic array in the arena */
    int32_t *nums; size_t n_nums;         /* arrays of any kind */
} shape;
static const tyjson_field shape_fields[] = {
    TYJSON_FIELD_STRUCT(shape, origin, "origin", &point_type),
    TYJSON_FIELD_PTR(shape, anchor, "anchor", &point_type),
    TYJSON_FIELD_FIXED(shape, corners, "corners", n_corners, TYJSON_K_STRUCT, TYJSON_ELEM_TYPE(&point_type)),
    TYJSON_FIELD_DYN(shape, path, "path", n_path, TYJSON_K_STRUCT, TYJSON_ELEM_TYPE(&point_type)),
    TYJSON_FIELD_DYN(shape, nums, "nums", n_nums, TYJSON_K_I32),
};
static tyjson_struct shape_type = TYJSON_STRUCT(shape, shape_fields, 0);

typedef struct { tyjson_str name; int32_t id; } simple_pojo;
static const tyjson_field simple_pojo_fields[] = {
    TYJSON_FIELD_STR(simple_pojo, name, "name"),
    TYJSON_FIELD_I32(simple_pojo, id, "id"),
};
static tyjson_struct simple_pojo_type = TYJSON_STRUCT(simple_pojo, simple_pojo_fields, 0);

typedef struct { simple_pojo *items; size_t n; } simple_pojo_list;   /* [ {...}, {...} ] */
static const tyjson_field simple_pojo_list_fields[] = {
    TYJSON_FIELD_DYN(simple_pojo_list, items, "items", n, TYJSON_K_STRUCT, TYJSON_ELEM_TYPE(&simple_pojo_type)),
};
tyjson_struct simple_pojo_list_type =
    TYJSON_STRUCT(simple_pojo_list, simple_pojo_list_fields, TYJSON_T_ARRAY);

/* Decodes json into *out as type, prints the outcome and the re-encoding. */
static void round_trip(tyjson_struct *type, void *out, const char *json, tyjson_arena *arena) {
    tyjson_error err;
    char msg[320];
    if (tyjson_decode(type, out, json, strlen(json), arena, NULL, &err) != TYJSON_OK) {
        printf("%s: %s\n", tyjson_status_name(err.code), tyjson_error_format(&err, msg, sizeof msg));
        return;
    }
    size_t len;
    char *text = tyjson_encode(type, out, NULL, &len, &err);
    printf("%s\n", text ? text : err.msg);
    free(text);
}

int main(void) {
    tyjson_arena arena;
    tyjson_arena_init(&arena, NULL);
    shape s;
    round_trip(&shape_type, &s,
               "{\"origin\":{\"x\":1,\"y\":2},\"anchor\":null,"
               "\"corners\":[{\"x\":0,\"y\":0},{\"x\":4,\"y\":0}],"
               "\"path\":[{\"x\":1,\"y\":1},{\"x\":2,\"y\":3},{\"x\":5,\"y\":8}],\"nums\":[]}",
               &arena);
    printf("anchor %s, %zu corners, %zu path points, nums %s with count %zu\n",
           s.anchor ? "set" : "NULL", s.n_corners, s.n_path, s.nums ? "set" : "NULL", s.n_nums);
    /* More elements than the fixed array holds. */
    round_trip(&shape_type, &s,
               "{\"corners\":[{\"x\":0,\"y\":0},{\"x\":1,\"y\":0},{\"x\":1,\"y\":1},"
               "{\"x\":0,\"y\":1},{\"x\":0,\"y\":0}]}",
               &arena);
    /* null for an array needs TYJSON_F_NULLABLE. */
    round_trip(&shape_type, &s, "{\"nums\":null}", &arena);

    simple_pojo_list list;
    round_trip(&simple_pojo_list_type, &list, "[{\"name\":\"a\",\"id\":1},{\"name\":\"b\",\"id\":2}]",
               &arena);
    printf("%zu items, the second is %s\n", list.n, list.items[1].name.ptr);
    tyjson_arena_free(&arena);
    return 0;
}
