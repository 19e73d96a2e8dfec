/*
 * jansson typed adapter, written the way jansson's documentation shows
 * structured data in and out: json_unpack / json_pack with format strings.
 *
 * Decode: json_loadb into a tree kept until release, then json_unpack_ex
 * per object with one format string naming every member ("s%" hands out
 * pointer and length into the tree, nested objects as nested formats);
 * an array member is unpacked as "o" and its elements unpacked one by one
 * with their own format. Integers use "i" / "I" (jansson casts without a
 * range check), reals "F" (any number, like the scenarios' writers emit).
 * Encode: json_pack_ex with the mirror formats ("s%" takes a length, so
 * strings need no NUL), arrays built by json_array_append_new of packed
 * elements, printed with json_dumpb (JSON_COMPACT) into a reused buffer.
 * Pack checks the UTF-8 of every string it makes; that is its documented
 * cost and is kept. A nullable string goes in as "o" (null or a packed
 * string): "s?" has no length form.
 *
 * Not through pack/unpack: the mixed map (a generic tree, walked with
 * json_object_iter / built with json_object_setn_new_nocheck) and the
 * escape string (one json_stringn_nocheck); no format string describes
 * them. Every typed scenario uses pack/unpack.
 */
#include "../peers.h"
#include "scenario_types.h"

#include <jansson.h>

#include <stdlib.h>
#include <string.h>

/* "i" stores through int *; the structs' int32_t members are passed as is. */
_Static_assert(sizeof(int) == sizeof(int32_t), "int32_t members are unpacked as int");

typedef struct state {
    bench_arena arena;
    json_t *root;
    json_t *built;
    char *buf;
    size_t cap;
} state;

/* Argument spellings for one member: key, then what its format takes. */
#define U_STR(key, js) key, &(js).ptr, &(js).len
#define P_STR(key, js) key, (js).ptr, (js).len

static void *alloc(state *s, size_t size) { return bench_arena_alloc(&s->arena, size ? size : 1); }

/* The array behind an "o" member, with its size. */
static bool arr_of(json_t *a, size_t *n) {
    if (!json_is_array(a)) return false;
    *n = json_array_size(a);
    return true;
}

/* ----------------------------------------------------------------------------
 * MARK: - Decoding
 * ------------------------------------------------------------------------- */
static bool u_simple(json_t *v, simple_pojo *out) {
    int active;
    if (json_unpack_ex(v, NULL, 0, "{s:s%, s:i, s:b, s:F}", U_STR("name", out->name), "age", &out->age, "active",
                       &active, "score", &out->score))
        return false;
    out->active = active;
    return true;
}

static bool u_nested(state *s, json_t *v, nested_pojo *out) {
    json_t *next;
    if (json_unpack_ex(v, NULL, 0, "{s:s%, s:i, s:o}", U_STR("name", out->name), "value", &out->value, "nested",
                       &next))
        return false;
    if (json_is_null(next)) {
        out->nested = NULL;
        return true;
    }
    out->nested = alloc(s, sizeof(nested_pojo));
    return out->nested && u_nested(s, next, out->nested);
}

static bool u_date(json_t *v, date_pojo *out) {
    jstr d, t;
    return !json_unpack_ex(v, NULL, 0, "{s:s%, s:s%}", U_STR("localDate", d), U_STR("instant", t)) &&
           bench_parse_date(d.ptr, d.len, &out->local_date.year, &out->local_date.month, &out->local_date.day) &&
           bench_parse_instant(t.ptr, t.len, &out->instant_epoch_ms);
}

static bool u_list(state *s, json_t *v, simple_pojo_list *out) {
    size_t i, n;
    if (!arr_of(v, &n) || !(out->items = alloc(s, n * sizeof(simple_pojo)))) return false;
    for (i = 0; i < n; i++)
        if (!u_simple(json_array_get(v, i), &out->items[i])) return false;
    out->n = n;
    return true;
}

#define USER_FMT "{s:s%, s:s%, s:s%, s:s%, s:i, s:I}"
#define USER_ARGS(u, birth)                                                                                \
    U_STR("login", (u).login), U_STR("firstName", (u).first_name), U_STR("lastName", (u).last_name),     \
        U_STR("email", (u).email), "age", &(u).age, "birthDate", &(birth)

static bool u_photo(json_t *v, pa_photo *out) {
    int horizontal, vertical;
    double rating;
    json_int_t created, birth;
    if (json_unpack_ex(v, NULL, 0, "{s:s%, s:s%, s:i, s:i, s:b, s:b, s:s%, s:F, s:i, s:i, s:I, s:" USER_FMT "}",
                       U_STR("name", out->name), U_STR("description", out->description), "width", &out->width,
                       "height", &out->height, "horizontal", &horizontal, "vertical", &vertical,
                       U_STR("path", out->path), "rating", &rating, "ratingCount", &out->rating_count,
                       "displayCount", &out->display_count, "created", &created, "author",
                       USER_ARGS(out->author, birth)))
        return false;
    out->horizontal = horizontal;
    out->vertical = vertical;
    out->rating = (float)rating;
    out->created_ms = created;
    out->author.birth_date_ms = birth;
    return true;
}

static bool u_album(state *s, json_t *v, pa_album *out) {
    json_t *photos;
    json_int_t birth, created, modified;
    size_t i, n;
    if (json_unpack_ex(v, NULL, 0, "{s:s%, s:s%, s:" USER_FMT ", s:i, s:I, s:I, s:o}", U_STR("name", out->name),
                       U_STR("description", out->description), "owner", USER_ARGS(out->owner, birth),
                       "photoCount", &out->photo_count, "created", &created, "modified", &modified, "photos",
                       &photos))
        return false;
    out->owner.birth_date_ms = birth;
    out->created_ms = created;
    out->modified_ms = modified;
    if (!arr_of(photos, &n) || !(out->photos = alloc(s, n * sizeof(pa_photo)))) return false;
    for (i = 0; i < n; i++)
        if (!u_photo(json_array_get(photos, i), &out->photos[i])) return false;
    out->n_photos = n;
    return true;
}

static bool u_kr_arrays(state *s, json_t *tags, json_t *range, json_t *friends, json_t *images, kr_user *out) {
    size_t i, n;
    if (!arr_of(tags, &n) || !(out->tags = alloc(s, n * sizeof(jstr)))) return false;
    for (i = 0; i < n; i++)
        if (json_unpack_ex(json_array_get(tags, i), NULL, 0, "s%", &out->tags[i].ptr, &out->tags[i].len))
            return false;
    out->n_tags = n;
    if (!arr_of(range, &n) || !(out->range = alloc(s, n * sizeof(int32_t)))) return false;
    for (i = 0; i < n; i++)
        if (json_unpack_ex(json_array_get(range, i), NULL, 0, "i", &out->range[i])) return false;
    out->n_range = n;
    if (!arr_of(friends, &n) || !(out->friends = alloc(s, n * sizeof(kr_friend)))) return false;
    for (i = 0; i < n; i++) {
        kr_friend *f = &out->friends[i];
        if (json_unpack_ex(json_array_get(friends, i), NULL, 0, "{s:i, s:s%}", "id", &f->id, U_STR("name", f->name)))
            return false;
    }
    out->n_friends = n;
    if (!arr_of(images, &n) || !(out->images = alloc(s, n * sizeof(kr_image)))) return false;
    for (i = 0; i < n; i++) {
        kr_image *im = &out->images[i];
        if (json_unpack_ex(json_array_get(images, i), NULL, 0, "{s:s%, s:s%, s:s%, s:s%}", U_STR("id", im->id),
                           U_STR("format", im->format), U_STR("url", im->url),
                           U_STR("description", im->description)))
            return false;
    }
    out->n_images = n;
    return true;
}

static bool u_kr_user(state *s, json_t *v, kr_user *out) {
    json_t *tags, *range, *friends, *images;
    int is_active;
    if (json_unpack_ex(v, NULL, 0,
                       "{s:s%, s:i, s:s%, s:b, s:s%, s:s%, s:i, s:s%, s:{s:s%, s:s%}, s:s%, s:s%, s:s%, s:s%, "
                       "s:s%, s:s%, s:F, s:F, s:o, s:o, s:o, s:o, s:s%, s:s%}",
                       U_STR("_id", out->id), "index", &out->index, U_STR("guid", out->guid), "is_active",
                       &is_active, U_STR("balance", out->balance), U_STR("picture", out->picture), "age", &out->age,
                       U_STR("eye_color", out->eye_color), "name", U_STR("first", out->name.first),
                       U_STR("last", out->name.last), U_STR("company", out->company), U_STR("email", out->email),
                       U_STR("phone", out->phone), U_STR("address", out->address), U_STR("about", out->about),
                       U_STR("registered", out->registered), "latitude", &out->latitude, "longitude",
                       &out->longitude, "tags", &tags, "range", &range, "friends", &friends, "images", &images,
                       U_STR("greeting", out->greeting), U_STR("favorite_fruit", out->favorite_fruit)))
        return false;
    out->is_active = is_active;
    return u_kr_arrays(s, tags, range, friends, images, out);
}

static bool u_kudos(state *s, json_t *v, kr_response *out) {
    json_t *users;
    int is_real;
    size_t i, n;
    if (json_unpack_ex(v, NULL, 0, "{s:o, s:s%, s:b}", "users", &users, U_STR("status", out->status),
                       "is_real_json", &is_real))
        return false;
    out->is_real_json = is_real;
    if (!arr_of(users, &n) || !(out->users = alloc(s, n * sizeof(kr_user)))) return false;
    for (i = 0; i < n; i++)
        if (!u_kr_user(s, json_array_get(users, i), &out->users[i])) return false;
    out->n_users = n;
    return true;
}

/* The mixed map: a generic tree, so the tree is walked directly. */
static bool u_jv(state *s, json_t *v, jv *out) {
    size_t i = 0, n;
    switch (json_typeof(v)) {
    case JSON_NULL: out->kind = JV_NULL; return true;
    case JSON_TRUE: out->kind = JV_TRUE; return true;
    case JSON_FALSE: out->kind = JV_FALSE; return true;
    case JSON_INTEGER: out->kind = JV_INT; out->u.i = json_integer_value(v); return true;
    case JSON_REAL: out->kind = JV_DOUBLE; out->u.d = json_real_value(v); return true;
    case JSON_STRING:
        out->kind = JV_STRING;
        out->u.s.ptr = json_string_value(v);
        out->u.s.len = json_string_length(v);
        return true;
    case JSON_ARRAY:
        n = json_array_size(v);
        out->kind = JV_ARRAY;
        out->u.arr.n = n;
        out->u.arr.items = alloc(s, n * sizeof(jv));
        if (!out->u.arr.items) return false;
        for (i = 0; i < n; i++)
            if (!u_jv(s, json_array_get(v, i), &out->u.arr.items[i])) return false;
        return true;
    case JSON_OBJECT: {
        void *it;
        jv *vals;
        n = json_object_size(v);
        out->kind = JV_OBJECT;
        out->u.obj.n = n;
        out->u.obj.members = alloc(s, n * sizeof(jv_member));
        vals = alloc(s, n * sizeof(jv));
        if (!out->u.obj.members || !vals) return false;
        for (it = json_object_iter(v); it; it = json_object_iter_next(v, it)) {
            jv_member *m = &out->u.obj.members[i];
            m->key.ptr = json_object_iter_key(it);
            m->key.len = json_object_iter_key_len(it);
            m->value = &vals[i++];
            if (!u_jv(s, json_object_iter_value(it), m->value)) return false;
        }
        return true;
    }
    }
    return false;
}

#define DECODER(name, fn, type)                                                \
    static bool name(void *st, const char *dat, size_t len, void *out) {      \
        state *s = st;                                                         \
        s->root = json_loadb(dat, len, 0, NULL);                               \
        return s->root && fn(s->root, (type *)out);                            \
    }
#define DECODER_S(name, fn, type)                                              \
    static bool name(void *st, const char *dat, size_t len, void *out) {      \
        state *s = st;                                                         \
        s->root = json_loadb(dat, len, 0, NULL);                               \
        return s->root && fn(s, s->root, (type *)out);                         \
    }
DECODER(dec_simple, u_simple, simple_pojo)
DECODER_S(dec_nested, u_nested, nested_pojo)
DECODER(dec_date, u_date, date_pojo)
DECODER_S(dec_list, u_list, simple_pojo_list)
DECODER_S(dec_map, u_jv, jv)
DECODER_S(dec_album, u_album, pa_album)
DECODER_S(dec_kudos, u_kudos, kr_response)

/* ----------------------------------------------------------------------------
 * MARK: - Encoding
 * ------------------------------------------------------------------------- */
/* Appends built elements; takes them over even on failure, like
 * json_array_append_new. */
static bool append(json_t *arr, json_t *v) { return v && json_array_append_new(arr, v) == 0; }

static json_t *p_simple(const simple_pojo *in) {
    return json_pack_ex(NULL, 0, "{s:s%, s:i, s:b, s:f}", P_STR("name", in->name), "age", (int)in->age, "active",
                        (int)in->active, "score", in->score);
}

static json_t *p_nested(const nested_pojo *in) {
    json_t *next = NULL;
    if (in->nested && !(next = p_nested(in->nested))) return NULL;
    /* "o?": a NULL argument writes null */
    return json_pack_ex(NULL, 0, "{s:s%, s:i, s:o?}", P_STR("name", in->name), "value", (int)in->value, "nested",
                        next);
}

static json_t *p_date(const date_pojo *in) {
    char d[16], t[32];
    size_t dn = bench_format_date(in->local_date.year, in->local_date.month, in->local_date.day, d);
    size_t tn = bench_format_instant(in->instant_epoch_ms, t);
    if (!dn || !tn) return NULL;
    return json_pack_ex(NULL, 0, "{s:s%, s:s%}", "localDate", d, dn, "instant", t, tn);
}

static json_t *p_list(const simple_pojo_list *in) {
    json_t *arr = json_array();
    size_t i;
    for (i = 0; arr && i < in->n; i++)
        if (!append(arr, p_simple(&in->items[i]))) {
            json_decref(arr);
            return NULL;
        }
    return arr;
}

#define P_USER(u)                                                                                          \
    P_STR("login", (u).login), P_STR("firstName", (u).first_name), P_STR("lastName", (u).last_name),     \
        P_STR("email", (u).email), "age", (int)(u).age, "birthDate", (json_int_t)(u).birth_date_ms

static json_t *p_photo(const pa_photo *in) {
    return json_pack_ex(NULL, 0, "{s:s%, s:s%, s:i, s:i, s:b, s:b, s:s%, s:f, s:i, s:i, s:I, s:" USER_FMT "}",
                        P_STR("name", in->name), P_STR("description", in->description), "width", (int)in->width,
                        "height", (int)in->height, "horizontal", (int)in->horizontal, "vertical", (int)in->vertical,
                        P_STR("path", in->path), "rating", (double)in->rating, "ratingCount", (int)in->rating_count,
                        "displayCount", (int)in->display_count, "created", (json_int_t)in->created_ms, "author",
                        P_USER(in->author));
}

static json_t *p_album(const pa_album *in) {
    json_t *photos = json_array();
    size_t i;
    for (i = 0; photos && i < in->n_photos; i++)
        if (!append(photos, p_photo(&in->photos[i]))) {
            json_decref(photos);
            return NULL;
        }
    if (!photos) return NULL;
    return json_pack_ex(NULL, 0, "{s:s%, s:s%, s:" USER_FMT ", s:i, s:I, s:I, s:o}", P_STR("name", in->name),
                        P_STR("description", in->description), "owner", P_USER(in->owner), "photoCount",
                        (int)in->photo_count, "created", (json_int_t)in->created_ms, "modified",
                        (json_int_t)in->modified_ms, "photos", photos);
}

static json_t *p_boon_simple(const boon_simple *in) {
    return json_pack_ex(NULL, 0, "{s:I, s:s%, s:i, s:s%, s:s%, s:s%}", "id", (json_int_t)in->id,
                        P_STR("type", in->type), "priority", (int)in->priority, P_STR("title", in->title),
                        P_STR("description", in->description), P_STR("createDate", in->create_date));
}

static json_t *p_strings(const jstr *a, size_t n) {
    json_t *arr = json_array();
    size_t i;
    for (i = 0; arr && i < n; i++)
        if (!append(arr, json_pack_ex(NULL, 0, "s%", a[i].ptr, a[i].len))) {
            json_decref(arr);
            return NULL;
        }
    return arr;
}

static json_t *p_ints(const int32_t *a, size_t n) {
    json_t *arr = json_array();
    size_t i;
    for (i = 0; arr && i < n; i++)
        if (!append(arr, json_pack_ex(NULL, 0, "i", (int)a[i]))) {
            json_decref(arr);
            return NULL;
        }
    return arr;
}

static json_t *p_friends(const kr_friend *a, size_t n) {
    json_t *arr = json_array();
    size_t i;
    for (i = 0; arr && i < n; i++)
        if (!append(arr, json_pack_ex(NULL, 0, "{s:i, s:s%}", "id", (int)a[i].id, P_STR("name", a[i].name)))) {
            json_decref(arr);
            return NULL;
        }
    return arr;
}

static json_t *p_images(const kr_image *a, size_t n) {
    json_t *arr = json_array();
    size_t i;
    for (i = 0; arr && i < n; i++)
        if (!append(arr, json_pack_ex(NULL, 0, "{s:s%, s:s%, s:s%, s:s%}", P_STR("id", a[i].id),
                                      P_STR("format", a[i].format), P_STR("url", a[i].url),
                                      P_STR("description", a[i].description)))) {
            json_decref(arr);
            return NULL;
        }
    return arr;
}

static json_t *p_kr_user(const kr_user *in) {
    json_t *tags = p_strings(in->tags, in->n_tags);
    json_t *range = p_ints(in->range, in->n_range);
    json_t *friends = p_friends(in->friends, in->n_friends);
    json_t *images = p_images(in->images, in->n_images);
    if (!tags || !range || !friends || !images) {
        json_decref(tags);
        json_decref(range);
        json_decref(friends);
        json_decref(images);
        return NULL;
    }
    return json_pack_ex(NULL, 0,
                        "{s:s%, s:i, s:s%, s:b, s:s%, s:s%, s:i, s:s%, s:{s:s%, s:s%}, s:s%, s:s%, s:s%, s:s%, "
                        "s:s%, s:s%, s:f, s:f, s:o, s:o, s:o, s:o, s:s%, s:s%}",
                        P_STR("_id", in->id), "index", (int)in->index, P_STR("guid", in->guid), "is_active",
                        (int)in->is_active, P_STR("balance", in->balance), P_STR("picture", in->picture), "age",
                        (int)in->age, P_STR("eye_color", in->eye_color), "name", P_STR("first", in->name.first),
                        P_STR("last", in->name.last), P_STR("company", in->company), P_STR("email", in->email),
                        P_STR("phone", in->phone), P_STR("address", in->address), P_STR("about", in->about),
                        P_STR("registered", in->registered), "latitude", in->latitude, "longitude", in->longitude,
                        "tags", tags, "range", range, "friends", friends, "images", images,
                        P_STR("greeting", in->greeting), P_STR("favorite_fruit", in->favorite_fruit));
}

static json_t *p_kudos(const kr_response *in) {
    json_t *users = json_array();
    size_t i;
    for (i = 0; users && i < in->n_users; i++)
        if (!append(users, p_kr_user(&in->users[i]))) {
            json_decref(users);
            return NULL;
        }
    if (!users) return NULL;
    return json_pack_ex(NULL, 0, "{s:o, s:s%, s:b}", "users", users, P_STR("status", in->status), "is_real_json",
                        (int)in->is_real_json);
}

static json_t *p_places(const boon_place *a, size_t n) {
    json_t *arr = json_array();
    size_t i;
    for (i = 0; arr && i < n; i++)
        if (!append(arr, json_pack_ex(NULL, 0, "{s:s%, s:s%, s:s%}", P_STR("name", a[i].name),
                                      P_STR("geo", a[i].geo), P_STR("lastCheckin", a[i].last_checkin)))) {
            json_decref(arr);
            return NULL;
        }
    return arr;
}

static json_t *p_boon_medium(const boon_medium *in) {
    const jstr *bg = &in->background_image;
    json_t *langs = p_strings(in->languages, in->n_languages);
    json_t *back = bg->ptr ? json_pack_ex(NULL, 0, "s%", bg->ptr, bg->len) : json_null();
    json_t *places = p_places(in->places, in->n_places);
    if (!langs || !back || !places) {
        json_decref(langs);
        json_decref(back);
        json_decref(places);
        return NULL;
    }
    return json_pack_ex(NULL, 0,
                        "{s:s%, s:s%, s:s%, s:i, s:s%, s:o, s:{s:i, s:i, s:s%}, s:o, s:s%, s:i, s:i, s:b, s:s%, "
                        "s:s%, s:o, s:s%, s:f}",
                        P_STR("id", in->id), P_STR("displayName", in->display_name), P_STR("email", in->email),
                        "gender", (int)in->gender, P_STR("birthday", in->birthday), "languages", langs, "photo",
                        "width", (int)in->photo.width, "height", (int)in->photo.height, P_STR("url", in->photo.url),
                        "backgroundImage", back, P_STR("about", in->about), "friendCount", (int)in->friend_count,
                        "followerCount", (int)in->follower_count, "locked", (int)in->locked,
                        P_STR("country", in->country), P_STR("location", in->location), "places", places,
                        P_STR("createDate", in->create_date), "citationIndex", in->citation_index);
}

static json_t *p_boon_message(const boon_message *in) {
    const boon_headers *h = &in->headers;
    json_t *to = p_strings(h->to, h->n_to);
    if (!to) return NULL;
    return json_pack_ex(NULL, 0,
                        "{s:s%, s:s%, s:s%, s:{s:s%, s:s%, s:s%, s:s%, s:s%, s:s%, s:s%, s:o, s:s%, s:s%, s:s%, "
                        "s:s%, s:s%, s:s%, s:s%}, s:s%, s:s%}",
                        P_STR("id", in->id), P_STR("body", in->body), P_STR("filename", in->filename), "headers",
                        P_STR("Content-Transfer-Encoding", h->content_transfer_encoding),
                        P_STR("Content-Type", h->content_type), P_STR("Date", h->date), P_STR("From", h->from),
                        P_STR("Message-ID", h->message_id), P_STR("Mime-Version", h->mime_version),
                        P_STR("Subject", h->subject), "To", to, P_STR("X-FileName", h->x_filename),
                        P_STR("X-Folder", h->x_folder), P_STR("X-From", h->x_from), P_STR("X-Origin", h->x_origin),
                        P_STR("X-To", h->x_to), P_STR("X-bcc", h->x_bcc), P_STR("X-cc", h->x_cc),
                        P_STR("mailbox", in->mailbox), P_STR("subFolder", in->sub_folder));
}

static json_t *p_boon_complex(const boon_complex *in) {
    json_t *arr = json_array();
    size_t i;
    for (i = 0; arr && i < in->n_messages; i++)
        if (!append(arr, p_boon_message(&in->messages[i]))) {
            json_decref(arr);
            return NULL;
        }
    return arr;
}

static json_t *p_j0(const j0_message *in) {
    const j0_child *c = in->childs;
    return json_pack_ex(NULL, 0, "{s:I, s:s%, s:s%, s:{s:s%, s:s%}, s:[{s:s%, s:s%}, {s:s%, s:s%}]}", "ID",
                        (json_int_t)in->id, P_STR("Method", in->method), P_STR("Message", in->message), "Property",
                        P_STR("Key", in->property.key), P_STR("Value", in->property.value), "Childs",
                        P_STR("ID", c[0].id), P_STR("Name", c[0].name), P_STR("ID", c[1].id),
                        P_STR("Name", c[1].name));
}

/* The mixed map: a generic tree, built member by member. */
static json_t *p_jv(const jv *v) {
    json_t *c;
    size_t i;
    switch (v->kind) {
    case JV_NULL: return json_null();
    case JV_FALSE: return json_false();
    case JV_TRUE: return json_true();
    case JV_INT: return json_integer(v->u.i);
    case JV_DOUBLE: return json_real(v->u.d);
    case JV_STRING: return json_stringn_nocheck(v->u.s.ptr, v->u.s.len);
    case JV_ARRAY:
        c = json_array();
        for (i = 0; c && i < v->u.arr.n; i++)
            if (!append(c, p_jv(&v->u.arr.items[i]))) {
                json_decref(c);
                return NULL;
            }
        return c;
    case JV_OBJECT:
        c = json_object();
        for (i = 0; c && i < v->u.obj.n; i++) {
            const jv_member *m = &v->u.obj.members[i];
            if (json_object_setn_new_nocheck(c, m->key.ptr, m->key.len, p_jv(m->value)) != 0) {
                json_decref(c);
                return NULL;
            }
        }
        return c;
    }
    return NULL;
}

static json_t *p_escape(const jstr *in) { return json_stringn_nocheck(in->ptr, in->len); }

/* Keeps the tree until release and prints it into the reused buffer. */
static bool finish(state *s, json_t *root, bench_text *out) {
    size_t n;
    s->built = root;
    if (!root) return false;
    n = json_dumpb(root, s->buf, s->cap, JSON_COMPACT | JSON_ENCODE_ANY);
    if (!n) return false;
    if (n > s->cap) {
        free(s->buf);
        s->cap = n * 2;
        if (!(s->buf = malloc(s->cap))) return false;
        n = json_dumpb(root, s->buf, s->cap, JSON_COMPACT | JSON_ENCODE_ANY);
    }
    out->data = s->buf;
    out->len = n;
    return true;
}

#define ENCODER(name, fn, type)                                                \
    static bool name(void *st, const void *in, bench_text *out) {            \
        return finish(st, fn((const type *)in), out);                          \
    }
ENCODER(enc_simple, p_simple, simple_pojo)
ENCODER(enc_nested, p_nested, nested_pojo)
ENCODER(enc_date, p_date, date_pojo)
ENCODER(enc_list, p_list, simple_pojo_list)
ENCODER(enc_map, p_jv, jv)
ENCODER(enc_escape, p_escape, jstr)
ENCODER(enc_album, p_album, pa_album)
ENCODER(enc_kudos, p_kudos, kr_response)
ENCODER(enc_boon_simple, p_boon_simple, boon_simple)
ENCODER(enc_boon_medium, p_boon_medium, boon_medium)
ENCODER(enc_boon_complex, p_boon_complex, boon_complex)

static size_t j0_write(void *st, const void *msg, char *buf, size_t cap) {
    json_t *root = p_j0(msg);
    size_t n;
    (void)st;
    if (!root) return 0;
    n = json_dumpb(root, buf, cap, JSON_COMPACT);
    json_decref(root);
    return n && n < cap ? n : 0;
}

/* ----------------------------------------------------------------------------
 * MARK: - Adapter
 * ------------------------------------------------------------------------- */
static void *create(void) { return calloc(1, sizeof(state)); }

static void release(void *st) {
    state *s = st;
    json_decref(s->root);
    s->root = NULL;
    json_decref(s->built);
    s->built = NULL;
    bench_arena_reset(&s->arena);
}

static void destroy(void *st) {
    state *s = st;
    release(s);
    bench_arena_free(&s->arena);
    free(s->buf);
    free(s);
}

void bench_typed_jansson(bench_typed *t) {
    t->name = "jansson";
    t->notes = "decode: json_loadb + json_unpack_ex format strings (\"s%\": strings point into the tree; arrays "
               "unpacked as \"o\", then each element with its own format); encode: json_pack_ex (\"s%\", nested "
               "formats, arrays appended element by element), json_dumpb into a reused buffer; the mixed map and "
               "the escape string (no format describes them) walk / build the tree directly";
    t->create = create;
    t->destroy = destroy;
    t->release = release;
    t->decode[BS_SIMPLE] = dec_simple;
    t->decode[BS_NESTED] = dec_nested;
    t->decode[BS_DATE] = dec_date;
    t->decode[BS_LIST] = dec_list;
    t->decode[BS_MAP] = dec_map;
    t->decode[BS_ALBUM] = dec_album;
    t->decode[BS_KUDOS] = dec_kudos;
    t->encode[BS_SIMPLE] = enc_simple;
    t->encode[BS_NESTED] = enc_nested;
    t->encode[BS_DATE] = enc_date;
    t->encode[BS_LIST] = enc_list;
    t->encode[BS_MAP] = enc_map;
    t->encode[BS_ESCAPE] = enc_escape;
    t->encode[BS_ALBUM] = enc_album;
    t->encode[BS_KUDOS] = enc_kudos;
    t->encode[BS_BOON_SIMPLE] = enc_boon_simple;
    t->encode[BS_BOON_MEDIUM] = enc_boon_medium;
    t->encode[BS_BOON_COMPLEX] = enc_boon_complex;
    t->j0_write = j0_write;
}
