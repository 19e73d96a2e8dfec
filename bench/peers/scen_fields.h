/*
 * scen_fields.h - the scalar members of the scenario structs, in file
 * order, as X-macro lists: X(KIND, member, "key"). A peer adapter defines
 * X to its own "get" or "put" statement for one member, so that its
 * hand-written extraction and building code is spelled out once per
 * library without repeating every key. Members that are structs, arrays
 * or pointers are not in the lists: the adapters handle them by hand, in
 * between (the list names say where they stop).
 *
 * Kinds: STR (jstr), NSTR (jstr, null when ptr == NULL), I32, I64, BOOL,
 * F64, F32.
 */
#ifndef TYJSON_BENCH_SCEN_FIELDS_H
#define TYJSON_BENCH_SCEN_FIELDS_H

#define SIMPLE_POJO_FIELDS(X)                                                  \
    X(STR, name, "name") X(I32, age, "age") X(BOOL, active, "active")          \
    X(F64, score, "score")

/* then "nested": an object or null */
#define NESTED_POJO_FIELDS(X) X(STR, name, "name") X(I32, value, "value")

#define PA_USER_FIELDS(X)                                                      \
    X(STR, login, "login") X(STR, first_name, "firstName")                     \
    X(STR, last_name, "lastName") X(STR, email, "email") X(I32, age, "age")    \
    X(I64, birth_date_ms, "birthDate")

/* then "author": a pa_user */
#define PA_PHOTO_FIELDS(X)                                                     \
    X(STR, name, "name") X(STR, description, "description")                    \
    X(I32, width, "width") X(I32, height, "height")                            \
    X(BOOL, horizontal, "horizontal") X(BOOL, vertical, "vertical")            \
    X(STR, path, "path") X(F32, rating, "rating")                              \
    X(I32, rating_count, "ratingCount") X(I32, display_count, "displayCount")  \
    X(I64, created_ms, "created")

/* "name", "description", then "owner", then these, then "photos" */
#define PA_ALBUM_HEAD(X) X(STR, name, "name") X(STR, description, "description")
#define PA_ALBUM_MID(X)                                                        \
    X(I32, photo_count, "photoCount") X(I64, created_ms, "created")            \
    X(I64, modified_ms, "modified")

/* kr_user: HEAD, "name" {first, last}, MID, tags, range, friends,
 * images, TAIL */
#define KR_USER_HEAD(X)                                                        \
    X(STR, id, "_id") X(I32, index, "index") X(STR, guid, "guid")              \
    X(BOOL, is_active, "is_active") X(STR, balance, "balance")                 \
    X(STR, picture, "picture") X(I32, age, "age") X(STR, eye_color, "eye_color")
#define KR_NAME_FIELDS(X) X(STR, first, "first") X(STR, last, "last")
#define KR_USER_MID(X)                                                         \
    X(STR, company, "company") X(STR, email, "email") X(STR, phone, "phone")   \
    X(STR, address, "address") X(STR, about, "about")                          \
    X(STR, registered, "registered") X(F64, latitude, "latitude")              \
    X(F64, longitude, "longitude")
#define KR_USER_TAIL(X) X(STR, greeting, "greeting") X(STR, favorite_fruit, "favorite_fruit")
#define KR_FRIEND_FIELDS(X) X(I32, id, "id") X(STR, name, "name")
#define KR_IMAGE_FIELDS(X)                                                     \
    X(STR, id, "id") X(STR, format, "format") X(STR, url, "url")               \
    X(STR, description, "description")
/* kr_response: "users", then these */
#define KR_RESPONSE_TAIL(X) X(STR, status, "status") X(BOOL, is_real_json, "is_real_json")

#define BOON_SIMPLE_FIELDS(X)                                                  \
    X(I64, id, "id") X(STR, type, "type") X(I32, priority, "priority")         \
    X(STR, title, "title") X(STR, description, "description")                  \
    X(STR, create_date, "createDate")

/* boon_medium: HEAD, "languages", "photo", MID, "places", TAIL */
#define BOON_MEDIUM_HEAD(X)                                                    \
    X(STR, id, "id") X(STR, display_name, "displayName") X(STR, email, "email") \
    X(I32, gender, "gender") X(STR, birthday, "birthday")
#define BOON_PHOTO_FIELDS(X) X(I32, width, "width") X(I32, height, "height") X(STR, url, "url")
#define BOON_MEDIUM_MID(X)                                                     \
    X(NSTR, background_image, "backgroundImage") X(STR, about, "about")        \
    X(I32, friend_count, "friendCount") X(I32, follower_count, "followerCount") \
    X(BOOL, locked, "locked") X(STR, country, "country")                       \
    X(STR, location, "location")
#define BOON_PLACE_FIELDS(X)                                                   \
    X(STR, name, "name") X(STR, geo, "geo") X(STR, last_checkin, "lastCheckin")
#define BOON_MEDIUM_TAIL(X) X(STR, create_date, "createDate") X(F64, citation_index, "citationIndex")

/* boon_headers: HEAD, "To", TAIL */
#define BOON_HEADERS_HEAD(X)                                                   \
    X(STR, content_transfer_encoding, "Content-Transfer-Encoding")             \
    X(STR, content_type, "Content-Type") X(STR, date, "Date")                  \
    X(STR, from, "From") X(STR, message_id, "Message-ID")                      \
    X(STR, mime_version, "Mime-Version") X(STR, subject, "Subject")
#define BOON_HEADERS_TAIL(X)                                                   \
    X(STR, x_filename, "X-FileName") X(STR, x_folder, "X-Folder")              \
    X(STR, x_from, "X-From") X(STR, x_origin, "X-Origin") X(STR, x_to, "X-To") \
    X(STR, x_bcc, "X-bcc") X(STR, x_cc, "X-cc")
/* boon_message: HEAD, "headers", TAIL */
#define BOON_MESSAGE_HEAD(X) X(STR, id, "id") X(STR, body, "body") X(STR, filename, "filename")
#define BOON_MESSAGE_TAIL(X) X(STR, mailbox, "mailbox") X(STR, sub_folder, "subFolder")

/* j0_message: HEAD, "Property" {Key, Value}, "Childs" [2 x {ID, Name}] */
#define J0_MESSAGE_HEAD(X) X(I64, id, "ID") X(STR, method, "Method") X(STR, message, "Message")
#define J0_PROPERTY_FIELDS(X) X(STR, key, "Key") X(STR, value, "Value")
#define J0_CHILD_FIELDS(X) X(STR, id, "ID") X(STR, name, "Name")

#endif /* TYJSON_BENCH_SCEN_FIELDS_H */
