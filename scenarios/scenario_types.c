/*
 * scenario_types.c - binding descriptors of the benchmark scenarios
 * (see scenario_types.h). Table form throughout, so each key is spelled as
 * in the files. Types are defined before the types that contain them.
 */
#include "scenario_types.h"

#include <string.h>

/* ----------------------------------------------------------------------------
 * (a) KissJson
 * ------------------------------------------------------------------------- */
static const tyjson_field simple_pojo_fields[] = {
    TYJSON_FIELD_STR(simple_pojo, name, "name"),
    TYJSON_FIELD_I32(simple_pojo, age, "age"),
    TYJSON_FIELD_BOOL(simple_pojo, active, "active"),
    TYJSON_FIELD_F64(simple_pojo, score, "score"),
};
tyjson_struct simple_pojo_type = TYJSON_STRUCT(simple_pojo, simple_pojo_fields, 0);

/* "nested": null ends the chain; a NULL pointer is written as null. */
static const tyjson_field nested_pojo_fields[] = {
    TYJSON_FIELD_STR(nested_pojo, name, "name"),
    TYJSON_FIELD_I32(nested_pojo, value, "value"),
    TYJSON_FIELD_PTR(nested_pojo, nested, "nested", &nested_pojo_type),
};
tyjson_struct nested_pojo_type = TYJSON_STRUCT(nested_pojo, nested_pojo_fields, 0);

/* "instant" is written as an ISO-8601 string (no EPOCH_NUMBER flag). */
static const tyjson_field date_pojo_fields[] = {
    TYJSON_FIELD_DATE(date_pojo, local_date, "localDate"),
    TYJSON_FIELD_EPOCH_MS(date_pojo, instant_epoch_ms, "instant"),
};
tyjson_struct date_pojo_type = TYJSON_STRUCT(date_pojo, date_pojo_fields, 0);

static const tyjson_field simple_pojo_list_fields[] = {
    TYJSON_FIELD_DYN(simple_pojo_list, items, "items", n, TYJSON_K_STRUCT,
                     .type = &simple_pojo_type),
};
tyjson_struct simple_pojo_list_type =
    TYJSON_STRUCT(simple_pojo_list, simple_pojo_list_fields, TYJSON_T_ARRAY);

/* ----------------------------------------------------------------------------
 * (b) PhotoAlbum
 * ------------------------------------------------------------------------- */
static const tyjson_field pa_user_fields[] = {
    TYJSON_FIELD_STR(pa_user, login, "login"),
    TYJSON_FIELD_STR(pa_user, first_name, "firstName"),
    TYJSON_FIELD_STR(pa_user, last_name, "lastName"),
    TYJSON_FIELD_STR(pa_user, email, "email"),
    TYJSON_FIELD_I32(pa_user, age, "age"),
    TYJSON_FIELD_EPOCH_MS(pa_user, birth_date_ms, "birthDate", .flags = TYJSON_F_EPOCH_NUMBER),
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
    TYJSON_FIELD_EPOCH_MS(pa_photo, created_ms, "created", .flags = TYJSON_F_EPOCH_NUMBER),
    TYJSON_FIELD_STRUCT(pa_photo, author, "author", &pa_user_type),
};
tyjson_struct pa_photo_type = TYJSON_STRUCT(pa_photo, pa_photo_fields, 0);

static const tyjson_field pa_album_fields[] = {
    TYJSON_FIELD_STR(pa_album, name, "name"),
    TYJSON_FIELD_STR(pa_album, description, "description"),
    TYJSON_FIELD_STRUCT(pa_album, owner, "owner", &pa_user_type),
    TYJSON_FIELD_I32(pa_album, photo_count, "photoCount"),
    TYJSON_FIELD_EPOCH_MS(pa_album, created_ms, "created", .flags = TYJSON_F_EPOCH_NUMBER),
    TYJSON_FIELD_EPOCH_MS(pa_album, modified_ms, "modified", .flags = TYJSON_F_EPOCH_NUMBER),
    TYJSON_FIELD_DYN(pa_album, photos, "photos", n_photos, TYJSON_K_STRUCT, .type = &pa_photo_type),
};
tyjson_struct pa_album_type = TYJSON_STRUCT(pa_album, pa_album_fields, 0);

/* ----------------------------------------------------------------------------
 * (c) Kudos
 * ------------------------------------------------------------------------- */
static const tyjson_field kr_name_fields[] = {
    TYJSON_FIELD_STR(kr_name, first, "first"),
    TYJSON_FIELD_STR(kr_name, last, "last"),
};
tyjson_struct kr_name_type = TYJSON_STRUCT(kr_name, kr_name_fields, 0);

static const tyjson_field kr_friend_fields[] = {
    TYJSON_FIELD_I32(kr_friend, id, "id"),
    TYJSON_FIELD_STR(kr_friend, name, "name"),
};
tyjson_struct kr_friend_type = TYJSON_STRUCT(kr_friend, kr_friend_fields, 0);

static const tyjson_field kr_image_fields[] = {
    TYJSON_FIELD_STR(kr_image, id, "id"),
    TYJSON_FIELD_STR(kr_image, format, "format"),
    TYJSON_FIELD_STR(kr_image, url, "url"),
    TYJSON_FIELD_STR(kr_image, description, "description"),
};
tyjson_struct kr_image_type = TYJSON_STRUCT(kr_image, kr_image_fields, 0);

static const tyjson_field kr_user_fields[] = {
    TYJSON_FIELD_STR(kr_user, id, "_id"),
    TYJSON_FIELD_I32(kr_user, index, "index"),
    TYJSON_FIELD_STR(kr_user, guid, "guid"),
    TYJSON_FIELD_BOOL(kr_user, is_active, "is_active"),
    TYJSON_FIELD_STR(kr_user, balance, "balance"),
    TYJSON_FIELD_STR(kr_user, picture, "picture"),
    TYJSON_FIELD_I32(kr_user, age, "age"),
    TYJSON_FIELD_STR(kr_user, eye_color, "eye_color"),
    TYJSON_FIELD_STRUCT(kr_user, name, "name", &kr_name_type),
    TYJSON_FIELD_STR(kr_user, company, "company"),
    TYJSON_FIELD_STR(kr_user, email, "email"),
    TYJSON_FIELD_STR(kr_user, phone, "phone"),
    TYJSON_FIELD_STR(kr_user, address, "address"),
    TYJSON_FIELD_STR(kr_user, about, "about"),
    TYJSON_FIELD_STR(kr_user, registered, "registered"),
    TYJSON_FIELD_F64(kr_user, latitude, "latitude"),
    TYJSON_FIELD_F64(kr_user, longitude, "longitude"),
    TYJSON_FIELD_DYN(kr_user, tags, "tags", n_tags, TYJSON_K_STR),
    TYJSON_FIELD_DYN(kr_user, range, "range", n_range, TYJSON_K_I32),
    TYJSON_FIELD_DYN(kr_user, friends, "friends", n_friends, TYJSON_K_STRUCT, .type = &kr_friend_type),
    TYJSON_FIELD_DYN(kr_user, images, "images", n_images, TYJSON_K_STRUCT, .type = &kr_image_type),
    TYJSON_FIELD_STR(kr_user, greeting, "greeting"),
    TYJSON_FIELD_STR(kr_user, favorite_fruit, "favorite_fruit"),
};
tyjson_struct kr_user_type = TYJSON_STRUCT(kr_user, kr_user_fields, 0);

static const tyjson_field kr_response_fields[] = {
    TYJSON_FIELD_DYN(kr_response, users, "users", n_users, TYJSON_K_STRUCT, .type = &kr_user_type),
    TYJSON_FIELD_STR(kr_response, status, "status"),
    TYJSON_FIELD_BOOL(kr_response, is_real_json, "is_real_json"),
};
tyjson_struct kr_response_type = TYJSON_STRUCT(kr_response, kr_response_fields, 0);

/* ----------------------------------------------------------------------------
 * (d) Boon
 * ------------------------------------------------------------------------- */
static const tyjson_field boon_simple_fields[] = {
    TYJSON_FIELD_I64(boon_simple, id, "id"),
    TYJSON_FIELD_STR(boon_simple, type, "type"),
    TYJSON_FIELD_I32(boon_simple, priority, "priority"),
    TYJSON_FIELD_STR(boon_simple, title, "title"),
    TYJSON_FIELD_STR(boon_simple, description, "description"),
    TYJSON_FIELD_STR(boon_simple, create_date, "createDate"),
};
tyjson_struct boon_simple_type = TYJSON_STRUCT(boon_simple, boon_simple_fields, 0);

static const tyjson_field boon_photo_fields[] = {
    TYJSON_FIELD_I32(boon_photo, width, "width"),
    TYJSON_FIELD_I32(boon_photo, height, "height"),
    TYJSON_FIELD_STR(boon_photo, url, "url"),
};
tyjson_struct boon_photo_type = TYJSON_STRUCT(boon_photo, boon_photo_fields, 0);

static const tyjson_field boon_place_fields[] = {
    TYJSON_FIELD_STR(boon_place, name, "name"),
    TYJSON_FIELD_STR(boon_place, geo, "geo"),
    TYJSON_FIELD_STR(boon_place, last_checkin, "lastCheckin"),
};
tyjson_struct boon_place_type = TYJSON_STRUCT(boon_place, boon_place_fields, 0);

static const tyjson_field boon_medium_fields[] = {
    TYJSON_FIELD_STR(boon_medium, id, "id"),
    TYJSON_FIELD_STR(boon_medium, display_name, "displayName"),
    TYJSON_FIELD_STR(boon_medium, email, "email"),
    TYJSON_FIELD_I32(boon_medium, gender, "gender"),
    TYJSON_FIELD_STR(boon_medium, birthday, "birthday"),
    TYJSON_FIELD_DYN(boon_medium, languages, "languages", n_languages, TYJSON_K_STR),
    TYJSON_FIELD_STRUCT(boon_medium, photo, "photo", &boon_photo_type),
    TYJSON_FIELD_STR(boon_medium, background_image, "backgroundImage", .flags = TYJSON_F_NULLABLE),
    TYJSON_FIELD_STR(boon_medium, about, "about"),
    TYJSON_FIELD_I32(boon_medium, friend_count, "friendCount"),
    TYJSON_FIELD_I32(boon_medium, follower_count, "followerCount"),
    TYJSON_FIELD_BOOL(boon_medium, locked, "locked"),
    TYJSON_FIELD_STR(boon_medium, country, "country"),
    TYJSON_FIELD_STR(boon_medium, location, "location"),
    TYJSON_FIELD_DYN(boon_medium, places, "places", n_places, TYJSON_K_STRUCT, .type = &boon_place_type),
    TYJSON_FIELD_STR(boon_medium, create_date, "createDate"),
    TYJSON_FIELD_F64(boon_medium, citation_index, "citationIndex"),
};
tyjson_struct boon_medium_type = TYJSON_STRUCT(boon_medium, boon_medium_fields, 0);

static const tyjson_field boon_headers_fields[] = {
    TYJSON_FIELD_STR(boon_headers, content_transfer_encoding, "Content-Transfer-Encoding"),
    TYJSON_FIELD_STR(boon_headers, content_type, "Content-Type"),
    TYJSON_FIELD_STR(boon_headers, date, "Date"),
    TYJSON_FIELD_STR(boon_headers, from, "From"),
    TYJSON_FIELD_STR(boon_headers, message_id, "Message-ID"),
    TYJSON_FIELD_STR(boon_headers, mime_version, "Mime-Version"),
    TYJSON_FIELD_STR(boon_headers, subject, "Subject"),
    TYJSON_FIELD_DYN(boon_headers, to, "To", n_to, TYJSON_K_STR),
    TYJSON_FIELD_STR(boon_headers, x_filename, "X-FileName"),
    TYJSON_FIELD_STR(boon_headers, x_folder, "X-Folder"),
    TYJSON_FIELD_STR(boon_headers, x_from, "X-From"),
    TYJSON_FIELD_STR(boon_headers, x_origin, "X-Origin"),
    TYJSON_FIELD_STR(boon_headers, x_to, "X-To"),
    TYJSON_FIELD_STR(boon_headers, x_bcc, "X-bcc"),
    TYJSON_FIELD_STR(boon_headers, x_cc, "X-cc"),
};
tyjson_struct boon_headers_type = TYJSON_STRUCT(boon_headers, boon_headers_fields, 0);

static const tyjson_field boon_message_fields[] = {
    TYJSON_FIELD_STR(boon_message, id, "id"),
    TYJSON_FIELD_STR(boon_message, body, "body"),
    TYJSON_FIELD_STR(boon_message, filename, "filename"),
    TYJSON_FIELD_STRUCT(boon_message, headers, "headers", &boon_headers_type),
    TYJSON_FIELD_STR(boon_message, mailbox, "mailbox"),
    TYJSON_FIELD_STR(boon_message, sub_folder, "subFolder"),
};
tyjson_struct boon_message_type = TYJSON_STRUCT(boon_message, boon_message_fields, 0);

static const tyjson_field boon_complex_fields[] = {
    TYJSON_FIELD_DYN(boon_complex, messages, "messages", n_messages, TYJSON_K_STRUCT,
                     .type = &boon_message_type),
};
tyjson_struct boon_complex_type = TYJSON_STRUCT(boon_complex, boon_complex_fields, TYJSON_T_ARRAY);

/* ----------------------------------------------------------------------------
 * (e) JSON0
 * ------------------------------------------------------------------------- */
static const tyjson_field j0_child_fields[] = {
    TYJSON_FIELD_STR(j0_child, id, "ID"),
    TYJSON_FIELD_STR(j0_child, name, "Name"),
};
tyjson_struct j0_child_type = TYJSON_STRUCT(j0_child, j0_child_fields, 0);

static const tyjson_field j0_property_fields[] = {
    TYJSON_FIELD_STR(struct j0_property, key, "Key"),
    TYJSON_FIELD_STR(struct j0_property, value, "Value"),
};
tyjson_struct j0_property_type = TYJSON_STRUCT(struct j0_property, j0_property_fields, 0);

/* "Childs" is a fixed array with no count member (count_at = 0): both
 * elements are always written. The table form has no macro for that, so
 * the initializer is spelled out. */
static const tyjson_field j0_message_fields[] = {
    TYJSON_FIELD_I64(j0_message, id, "ID"),
    TYJSON_FIELD_STR(j0_message, method, "Method"),
    TYJSON_FIELD_STR(j0_message, message, "Message"),
    TYJSON_FIELD_STRUCT(j0_message, property, "Property", &j0_property_type),
    {.name = "Childs", .offset = offsetof(j0_message, childs), .kind = TYJSON_K_STRUCT,
     .size = sizeof(j0_child), .shape = TYJSON_SHAPE_FIXED, .capacity = 2,
     .type = &j0_child_type, .end_ = 0},
};
tyjson_struct j0_message_type = TYJSON_STRUCT(j0_message, j0_message_fields, 0);

static const tyjson_field hoian_visits_fields[] = {
    TYJSON_FIELD_STR(hoian_visits, morning, "Morning"),
    TYJSON_FIELD_STR(hoian_visits, afternoon, "Afternoon"),
    TYJSON_FIELD_STR(hoian_visits, evening, "Evening"),
};
tyjson_struct hoian_visits_type = TYJSON_STRUCT(hoian_visits, hoian_visits_fields, 0);

static const tyjson_field hoian_try_fields[] = {
    TYJSON_FIELD_STR(hoian_try, food1, "Food1", .flags = TYJSON_F_OMIT_EMPTY),
    TYJSON_FIELD_STR(hoian_try, food2, "Food2", .flags = TYJSON_F_OMIT_EMPTY),
    TYJSON_FIELD_STR(hoian_try, drink1, "Drink1", .flags = TYJSON_F_OMIT_EMPTY),
    TYJSON_FIELD_STR(hoian_try, drink2, "Drink2", .flags = TYJSON_F_OMIT_EMPTY),
};
tyjson_struct hoian_try_type = TYJSON_STRUCT(hoian_try, hoian_try_fields, 0);

static const tyjson_field hoian_fields[] = {
    TYJSON_FIELD_STR(hoian, town, "Town"),
    TYJSON_FIELD_I32(hoian, day_length, "DayLength"),
    TYJSON_FIELD_STR(hoian, vehicles, "Vehicles"),
    TYJSON_FIELD_STRUCT(hoian, must_visits, "MustVisits", &hoian_visits_type),
    {.name = "MustTries", .offset = offsetof(hoian, must_tries), .kind = TYJSON_K_STRUCT,
     .size = sizeof(hoian_try), .shape = TYJSON_SHAPE_FIXED, .capacity = 2,
     .type = &hoian_try_type, .end_ = 0},
};
tyjson_struct hoian_type = TYJSON_STRUCT(hoian, hoian_fields, 0);

static const tyjson_field j0_properties_fields[] = {
    TYJSON_FIELD_STR(j0_properties, favorite_food, "favoriteFood"),
    TYJSON_FIELD_STR(j0_properties, friends, "friends"),
    TYJSON_FIELD_STR(j0_properties, university, "university"),
    TYJSON_FIELD_STR(j0_properties, demography, "demography"),
    TYJSON_FIELD_STR(j0_properties, secret, "secret"),
};
tyjson_struct j0_properties_type = TYJSON_STRUCT(j0_properties, j0_properties_fields, 0);

static const tyjson_field j0_entity_fields[] = {
    TYJSON_FIELD_STR(j0_entity, code, "code"),
    TYJSON_FIELD_STR(j0_entity, name, "name"),
    TYJSON_FIELD_STR(j0_entity, address, "address"),
    TYJSON_FIELD_STR(j0_entity, id_number, "idNumber"),
    TYJSON_FIELD_STR(j0_entity, job, "job"),
    TYJSON_FIELD_STR(j0_entity, finance, "finance"),
    TYJSON_FIELD_STRUCT(j0_entity, properties, "properties", &j0_properties_type),
};
tyjson_struct j0_entity_type = TYJSON_STRUCT(j0_entity, j0_entity_fields, 0);

/* The stringified entity's inner object says "food" where the nested one
 * says "favoriteFood". */
static const tyjson_field j0_properties_short_fields[] = {
    TYJSON_FIELD_STR(j0_properties, favorite_food, "food"),
    TYJSON_FIELD_STR(j0_properties, friends, "friends"),
    TYJSON_FIELD_STR(j0_properties, university, "university"),
    TYJSON_FIELD_STR(j0_properties, demography, "demography"),
    TYJSON_FIELD_STR(j0_properties, secret, "secret"),
};
tyjson_struct j0_properties_short_type = TYJSON_STRUCT(j0_properties, j0_properties_short_fields, 0);

/* Writes bytes as the inside of a JSON string. The text comes from the
 * encoder, which never leaves a raw control character in minified output,
 * so only '"' and '\\' need escaping. */
static tyjson_status put_quoted_inner(const char *s, size_t n, tyjson_write_fn write, void *wctx) {
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '"' && s[i] != '\\') continue;
        char esc[2] = {'\\', s[i]};
        if (write(wctx, s + run, i - run) || write(wctx, esc, 2)) return TYJSON_E_CALLBACK;
        run = i + 1;
    }
    return write(wctx, s + run, n - run) ? TYJSON_E_CALLBACK : TYJSON_OK;
}

static tyjson_status props_text_encode(void *ctx, const void *member, tyjson_write_fn write,
                                       void *wctx) {
    char small[512];
    tyjson_error err;
    (void)ctx;
    size_t n = tyjson_encode_buf(&j0_properties_short_type, member, small, sizeof(small), NULL, &err);
    const char *text = small;
    char *heap = NULL;
    if (err.code == TYJSON_E_BUF_TOO_SMALL) {
        heap = tyjson_encode(&j0_properties_short_type, member, NULL, &n, &err);
        text = heap;
    }
    if (err.code != TYJSON_OK) return err.code;
    tyjson_status st = TYJSON_E_CALLBACK;
    if (!write(wctx, "\"", 1) && put_quoted_inner(text, n, write, wctx) == TYJSON_OK &&
        !write(wctx, "\"", 1))
        st = TYJSON_OK;
    tyjson_free(NULL, heap);
    return st;
}

static tyjson_status props_text_decode(void *ctx, const tyjson_val *val, void *member,
                                       tyjson_arena *arena) {
    (void)ctx;
    if (!tyjson_is_str(val)) return TYJSON_E_TYPE;
    /* The DOM value lives only during this call: copy strings (no BORROW). */
    return tyjson_decode(&j0_properties_short_type, member, tyjson_get_str(val),
                         tyjson_get_len(val), arena, NULL, NULL);
}

const tyjson_codec j0_properties_text_codec = {props_text_decode, props_text_encode, NULL};

static const tyjson_field j0_entity_stringified_fields[] = {
    TYJSON_FIELD_STR(j0_entity, code, "code"),
    TYJSON_FIELD_STR(j0_entity, name, "name"),
    TYJSON_FIELD_STR(j0_entity, address, "address"),
    TYJSON_FIELD_STR(j0_entity, id_number, "idNumber"),
    TYJSON_FIELD_STR(j0_entity, job, "job"),
    TYJSON_FIELD_STR(j0_entity, finance, "finance"),
    TYJSON_FIELD_CUSTOM(j0_entity, properties, "properties", &j0_properties_text_codec),
};
tyjson_struct j0_entity_stringified_type =
    TYJSON_STRUCT(j0_entity, j0_entity_stringified_fields, 0);
