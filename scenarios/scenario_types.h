/*
 * scenario_types.h - the C structs of the benchmark scenarios
 * (../shared/scenarios/SCENARIOS.md) and their tyjson binding descriptors.
 *
 * The structs are the ones SCENARIOS.md writes out, member for member, so
 * every contender (tyjson binding, yyjson + hand-written extraction, ...)
 * fills the same memory. Each has a `<name>_type` descriptor whose keys are
 * the files' keys exactly ("_id", "photoCount", "Content-Transfer-Encoding").
 *
 * Top-level arrays use TYJSON_T_ARRAY: a one-field wrapper whose JSON form
 * is the field's array itself. The two scenarios that are not typed objects
 * have no descriptor: map_mixed.json is a Map<String,Object> (read it as a
 * DOM, or as a TYJSON_K_VALUE member elsewhere) and escape_string.json is a
 * lone string (serialize-only in the benchmark).
 *
 * Plain C11; depends on tyjson only. Used by the benchmark and by
 * tests/test_bind_scenarios.c.
 */
#ifndef TYJSON_SCENARIO_TYPES_H
#define TYJSON_SCENARIO_TYPES_H

#include <tyjson.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef tyjson_str jstr;

/* ----------------------------------------------------------------------------
 * Generic tree (the maps/lists side of the benchmarks), as in SCENARIOS.md.
 * Peers that build trees by hand use it; tyjson's binding reads such
 * members as TYJSON_K_VALUE (a DOM value in the arena) instead.
 * ------------------------------------------------------------------------- */
typedef enum { JV_NULL, JV_FALSE, JV_TRUE, JV_INT, JV_DOUBLE, JV_STRING, JV_ARRAY, JV_OBJECT } jv_kind;
typedef struct jv jv;
typedef struct { jstr key; jv *value; } jv_member;
struct jv {
    jv_kind kind;
    union {
        int64_t i;
        double d;
        jstr s;
        struct { jv *items; size_t n; } arr;
        struct { jv_member *members; size_t n; } obj; /* insertion order */
    } u;
};

/* ----------------------------------------------------------------------------
 * (a) KissJson micro-POJOs: files in kissjson/
 * ------------------------------------------------------------------------- */
typedef struct { jstr name; int32_t age; bool active; double score; } simple_pojo;
typedef struct nested_pojo { jstr name; int32_t value; struct nested_pojo *nested; /* NULL ok */ } nested_pojo;
/* "YYYY-MM-DD": the same layout as tyjson_date, so the DATE kind fills it. */
typedef tyjson_date iso_date;
typedef struct { iso_date local_date; int64_t instant_epoch_ms; } date_pojo;
typedef struct { simple_pojo *items; size_t n; } simple_pojo_list; /* top-level array */
/* map_mixed -> jv (JV_OBJECT, 4 members); escape_string -> jstr */

extern tyjson_struct simple_pojo_type;
extern tyjson_struct nested_pojo_type;
extern tyjson_struct date_pojo_type;
extern tyjson_struct simple_pojo_list_type;

/* ----------------------------------------------------------------------------
 * (b) PhotoAlbum: photoalbum/photo_album_200.json. Dates are epoch
 * milliseconds written as numbers (EPOCH_MS with TYJSON_F_EPOCH_NUMBER).
 * ------------------------------------------------------------------------- */
typedef struct { jstr login, first_name, last_name, email; int32_t age; int64_t birth_date_ms; } pa_user;
typedef struct {
    jstr name, description; int32_t width, height; bool horizontal, vertical;
    jstr path; float rating; int32_t rating_count, display_count; int64_t created_ms; pa_user author;
} pa_photo;
typedef struct {
    jstr name, description; pa_user owner; int32_t photo_count;
    int64_t created_ms, modified_ms; pa_photo *photos; size_t n_photos; /* 200 */
} pa_album;

extern tyjson_struct pa_user_type;
extern tyjson_struct pa_photo_type;
extern tyjson_struct pa_album_type;

/* ----------------------------------------------------------------------------
 * (c) Kudos: kudos/{small,medium,large}.json
 * ------------------------------------------------------------------------- */
typedef struct { jstr first, last; } kr_name;
typedef struct { int32_t id; jstr name; } kr_friend;
typedef struct { jstr id, format, url, description; } kr_image;
typedef struct {
    jstr id /* "_id" */; int32_t index; jstr guid; bool is_active; jstr balance, picture;
    int32_t age; jstr eye_color; kr_name name; jstr company, email, phone, address, about, registered;
    double latitude, longitude;
    jstr *tags; size_t n_tags; int32_t *range; size_t n_range;
    kr_friend *friends; size_t n_friends; kr_image *images; size_t n_images;
    jstr greeting, favorite_fruit;
} kr_user;
typedef struct { kr_user *users; size_t n_users; jstr status; bool is_real_json; } kr_response;

extern tyjson_struct kr_name_type;
extern tyjson_struct kr_friend_type;
extern tyjson_struct kr_image_type;
extern tyjson_struct kr_user_type;
extern tyjson_struct kr_response_type;

/* ----------------------------------------------------------------------------
 * (d) Boon: boon/{simple,medium,complex}.json
 * ------------------------------------------------------------------------- */
typedef struct { int64_t id; jstr type; int32_t priority; jstr title, description, create_date; } boon_simple;

typedef struct { int32_t width, height; jstr url; } boon_photo;
typedef struct { jstr name, geo, last_checkin; } boon_place;
/* The 17 keys of medium.json, in order. backgroundImage is null in the
 * file: a NULLABLE string, {NULL, 0} after decoding, written back as null. */
typedef struct {
    jstr id, display_name, email;
    int32_t gender;
    jstr birthday;
    jstr *languages; size_t n_languages;
    boon_photo photo;
    jstr background_image;
    jstr about;
    int32_t friend_count, follower_count;
    bool locked;
    jstr country, location;
    boon_place *places; size_t n_places;
    jstr create_date;
    double citation_index;
} boon_medium;

typedef struct {
    jstr content_transfer_encoding, content_type, date, from, message_id, mime_version, subject;
    jstr *to; size_t n_to; jstr x_filename, x_folder, x_from, x_origin, x_to, x_bcc, x_cc;
} boon_headers;
typedef struct { jstr id, body, filename; boon_headers headers; jstr mailbox, sub_folder; } boon_message;
/* complex.json: a top-level array of messages. */
typedef struct { boon_message *messages; size_t n_messages; } boon_complex;

extern tyjson_struct boon_simple_type;
extern tyjson_struct boon_photo_type;
extern tyjson_struct boon_place_type;
extern tyjson_struct boon_medium_type;
extern tyjson_struct boon_headers_type;
extern tyjson_struct boon_message_type;
extern tyjson_struct boon_complex_type;

/* ----------------------------------------------------------------------------
 * (e) JSON0: files in json0/
 * ------------------------------------------------------------------------- */
typedef struct { jstr id, name; } j0_child;
typedef struct {
    int64_t id; jstr method, message;
    struct j0_property { jstr key, value; } property; /* tagged so it has a descriptor */
    j0_child childs[2]; /* FIXED without a count member: always both */
} j0_message;

/* hoian.json: the two MustTries objects have different keys (Food1/Food2,
 * Drink1/Drink2); one element type holds all four, each left out when empty. */
typedef struct { jstr morning, afternoon, evening; } hoian_visits;
typedef struct { jstr food1, food2, drink1, drink2; } hoian_try;
typedef struct {
    jstr town; int32_t day_length; jstr vehicles;
    hoian_visits must_visits;
    hoian_try must_tries[2];
} hoian;

typedef struct { jstr favorite_food, friends, university, demography, secret; } j0_properties;
typedef struct { jstr code, name, address, id_number, job, finance; j0_properties properties; } j0_entity;

extern tyjson_struct j0_child_type;
extern tyjson_struct j0_property_type;
extern tyjson_struct j0_message_type;
extern tyjson_struct hoian_visits_type;
extern tyjson_struct hoian_try_type;
extern tyjson_struct hoian_type;
extern tyjson_struct j0_properties_type;
/** jmh_entity_nested.json: properties as a nested object. */
extern tyjson_struct j0_entity_type;
/** jmh_entity_stringified.json: the same struct, properties written as a
 *  JSON string holding the object's text (keys "food", "friends", ...);
 *  a custom codec (j0_properties_text_codec) does both directions. */
extern tyjson_struct j0_properties_short_type;
extern tyjson_struct j0_entity_stringified_type;
extern const tyjson_codec j0_properties_text_codec;

#ifdef __cplusplus
}
#endif
#endif /* TYJSON_SCENARIO_TYPES_H */
