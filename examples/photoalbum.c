/* photoalbum.c - docs/binding.md section 11, "The PhotoAlbum": the full
 * graph of the benchmark's PhotoAlbum scenario. Reads the file named on the
 * command line (examples/photo_album_small.json, or the scenario's
 * photo_album_200.json), decodes it borrowing the strings, encodes it back
 * and checks that the text is the same, byte for byte. */
#include <tyjson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { tyjson_str login, first_name, last_name, email; int32_t age; int64_t birth_date_ms; } pa_user;
typedef struct {
    tyjson_str name, description; int32_t width, height; bool horizontal, vertical;
    tyjson_str path; float rating; int32_t rating_count, display_count; int64_t created_ms; pa_user author;
} pa_photo;
typedef struct {
    tyjson_str name, description; pa_user owner; int32_t photo_count;
    int64_t created_ms, modified_ms; pa_photo *photos; size_t n_photos;
} pa_album;

static const tyjson_field pa_user_fields[] = {
    TYJSON_FIELD_STR(pa_user, login, "login"),
    TYJSON_FIELD_STR(pa_user, first_name, "firstName"),
    TYJSON_FIELD_STR(pa_user, last_name, "lastName"),
    TYJSON_FIELD_STR(pa_user, email, "email"),
    TYJSON_FIELD_I32(pa_user, age, "age"),
    TYJSON_FIELD_EPOCH_MS(pa_user, birth_date_ms, "birthDate", TYJSON_FLAGS(TYJSON_F_EPOCH_NUMBER)),
};
tyjson_struct pa_user_type = TYJSON_STRUCT(pa_user, pa_user_fields, 0);

static const tyjson_field pa_photo_fields[] = {
    TYJSON_FIELD_STR(pa_photo, name, "name"),
    TYJSON_FIELD_STR(pa_photo, description, "description"),
    TYJSON_FIELD_I32(pa_photo, width, "width"),
    TYJSON_FIELD_I32(pa_photo, height, "height"),
    TYJSON_FIELD_BOOL(pa_photo, horizontal, "horizontal"),
    TYJSON_FIELD_BOOL(pa_photo, vertical, "vertical"),
    TYJSON_FIELD_STR(pa_photo, path, "path"),
    TYJSON_FIELD_F32(pa_photo, rating, "rating"),
    TYJSON_FIELD_I32(pa_photo, rating_count, "ratingCount"),
    TYJSON_FIELD_I32(pa_photo, display_count, "displayCount"),
    TYJSON_FIELD_EPOCH_MS(pa_photo, created_ms, "created", TYJSON_FLAGS(TYJSON_F_EPOCH_NUMBER)),
    TYJSON_FIELD_STRUCT(pa_photo, author, "author", &pa_user_type),
};
tyjson_struct pa_photo_type = TYJSON_STRUCT(pa_photo, pa_photo_fields, 0);

static const tyjson_field pa_album_fields[] = {
    TYJSON_FIELD_STR(pa_album, name, "name"),
    TYJSON_FIELD_STR(pa_album, description, "description"),
    TYJSON_FIELD_STRUCT(pa_album, owner, "owner", &pa_user_type),
    TYJSON_FIELD_I32(pa_album, photo_count, "photoCount"),
    TYJSON_FIELD_EPOCH_MS(pa_album, created_ms, "created", TYJSON_FLAGS(TYJSON_F_EPOCH_NUMBER)),
    TYJSON_FIELD_EPOCH_MS(pa_album, modified_ms, "modified", TYJSON_FLAGS(TYJSON_F_EPOCH_NUMBER)),
    TYJSON_FIELD_DYN(pa_album, photos, "photos", n_photos, TYJSON_K_STRUCT, TYJSON_ELEM_TYPE(&pa_photo_type)),
};
tyjson_struct pa_album_type = TYJSON_STRUCT(pa_album, pa_album_fields, 0);

typedef struct { int64_t ms; } born;
static const tyjson_field born_fields[] = {TYJSON_FIELD_EPOCH_MS(born, ms, "birthDate")};
static tyjson_struct born_type = TYJSON_STRUCT(born, born_fields, 0);

/* The whole file at path in a malloc'd buffer, or NULL. */
static char *read_file(const char *path, size_t *len) {
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    char *data = NULL;
    long size = fseek(fp, 0, SEEK_END) == 0 ? ftell(fp) : -1;
    if (size >= 0 && fseek(fp, 0, SEEK_SET) == 0 && (data = (char *)malloc((size_t)size + 1))) {
        *len = fread(data, 1, (size_t)size, fp);
        if (*len != (size_t)size) { free(data); data = NULL; }
    }
    fclose(fp);
    return data;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: photoalbum FILE.json\n");
        return 2;
    }
    size_t len = 0;
    char *json = read_file(argv[1], &len);
    if (!json) {
        fprintf(stderr, "cannot read %s\n", argv[1]);
        return 2;
    }
    tyjson_arena arena;
    tyjson_arena_init(&arena, NULL);
    tyjson_decode_options opts = {TYJSON_DECODE_BORROW, 0, 0, NULL};
    tyjson_error err;
    char msg[320];
    pa_album album;
    if (tyjson_decode(&pa_album_type, &album, json, len, &arena, &opts, &err) != TYJSON_OK) {
        fprintf(stderr, "%s\n", tyjson_error_format(&err, msg, sizeof msg));
        return 1;
    }
    printf("%zu photos by %.*s; the first rated %.2f\n", album.n_photos,
           (int)album.owner.first_name.len, album.owner.first_name.ptr,
           (double)album.photos[0].rating);
    /* Without TYJSON_F_EPOCH_NUMBER, EPOCH_MS is written as an ISO string. */
    born b = {album.owner.birth_date_ms};
    size_t iso_len;
    char *iso = tyjson_encode(&born_type, &b, NULL, &iso_len, &err);
    printf("%s\n", iso ? iso : err.msg);
    free(iso);

    size_t out_len = 0;
    char *out = tyjson_encode(&pa_album_type, &album, NULL, &out_len, &err);
    bool same = out && out_len == len && memcmp(out, json, len) == 0;
    printf("encoded %zu bytes, %s\n", out_len, same ? "identical to the input" : "DIFFERENT");
    free(out);
    tyjson_arena_free(&arena);                  /* the strings pointed into json */
    free(json);
    return same ? 0 : 1;
}
