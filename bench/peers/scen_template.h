/*
 * scen_template.h - the hand-written extraction and building code of the
 * typed scenarios, written once for every peer that works through a DOM
 * or a writer: each peer adapter defines a few small primitives (below)
 * for its library and includes this file, which then defines its
 * decoders, encoders and JSON0 writer. After inlining, this is the code a
 * user of that library would write by hand: look members up in file order
 * with the library's own calls, check each type, copy the values out; or
 * add the members one by one with the library's builder and write.
 *
 * The includer defines, before including:
 *
 *   typedef ... S;   adapter state (reused parser/builder, bench_arena arena)
 *   typedef ... TV;  a JSON value handle
 *   typedef ... TO;  an object being read (cursor or handle)
 *   typedef ... TA;  an array being read
 *   typedef ... TC;  a container being built (object or array)
 *
 *   bool t_root(S *s, const char *dat, size_t len, TV *root);  parse
 *   bool t_obj(TV v, TO *o);              v is an object
 *   bool t_get(TO *o, const char *key, size_t klen, TV *v);  member by key
 *   bool t_arr(TV v, TA *a, size_t *n);   v is an array of n elements
 *   bool t_next(TA *a, TV *v);            next element
 *   bool t_null(TV v);                    v is null
 *   bool t_STR(TV v, jstr *out) and t_I32, t_I64, t_BOOL, t_F64, t_F32
 *   bool t_jv(S *s, TV v, jv *out);       any value into the generic tree
 *
 *   bool b_begin(S *s, bool array, TC *root);   start a document
 *   bool b_put_obj(S *s, TC *parent, const char *key, size_t klen, TC *child)
 *   bool b_put_arr(S *s, TC *parent, const char *key, size_t klen, TC *child)
 *   bool b_add_obj(S *s, TC *arr, TC *child)
 *   bool b_end(S *s, TC *c)                     container complete
 *   bool b_put_STR(S *s, TC *o, const char *key, size_t klen, const jstr *v)
 *        and b_put_NSTR, b_put_I32, b_put_I64, b_put_BOOL, b_put_F64, b_put_F32
 *   bool b_put_copy(S *s, TC *o, const char *key, size_t klen, const char *p, size_t n)
 *        a string that the builder must copy (formatted dates)
 *   bool b_add_STR(S *s, TC *arr, const jstr *v)     a string element
 *   bool b_add_I32(S *s, TC *arr, const int32_t *v)  an integer element
 *   bool b_jv(S *s, TC *parent, const char *key, size_t klen, const jv *v)
 *        any generic tree value (key NULL inside arrays and at the root)
 *   bool b_jv_root(S *s, TC *root, const jv *v)   a whole document of any value
 *   bool b_finish(S *s, TC *root, bench_text *out)        text valid until release
 *   size_t b_finish_buf(S *s, TC *root, char *buf, size_t cap)  0 if no fit
 *   void b_release(S *s)                        drops what the builder holds
 *
 * and may define T_NO_DECODE / T_NO_ENCODE to leave one side out. It then
 * calls scen_template_fill(t) from its bench_typed_<name>().
 */
#include "scen_fields.h"

#include <string.h>

#define T_KEY(k) (k), (sizeof(k) - 1)

/* ----------------------------------------------------------------------------
 * MARK: - Decoding
 * ------------------------------------------------------------------------- */
#ifndef T_NO_DECODE
#define T_GET(kind, m, key)                                                    \
    if (!t_get(&o, T_KEY(key), &v) || !t_##kind(v, &out->m)) return false;

static void *t_alloc(S *s, size_t size) { return bench_arena_alloc(&s->arena, size ? size : 1); }

static bool d_simple(TV root, simple_pojo *out) {
    TO o;
    TV v;
    if (!t_obj(root, &o)) return false;
    SIMPLE_POJO_FIELDS(T_GET)
    return true;
}

static bool d_nested(S *s, TV root, nested_pojo *out) {
    TO o;
    TV v;
    if (!t_obj(root, &o)) return false;
    NESTED_POJO_FIELDS(T_GET)
    if (!t_get(&o, T_KEY("nested"), &v)) return false;
    if (t_null(v)) {
        out->nested = NULL;
        return true;
    }
    out->nested = (nested_pojo *)t_alloc(s, sizeof(nested_pojo));
    return out->nested && d_nested(s, v, out->nested);
}

static bool d_date(TV root, date_pojo *out) {
    TO o;
    TV v;
    jstr str;
    if (!t_obj(root, &o)) return false;
    if (!t_get(&o, T_KEY("localDate"), &v) || !t_STR(v, &str) ||
        !bench_parse_date(str.ptr, str.len, &out->local_date.year, &out->local_date.month, &out->local_date.day))
        return false;
    return t_get(&o, T_KEY("instant"), &v) && t_STR(v, &str) &&
           bench_parse_instant(str.ptr, str.len, &out->instant_epoch_ms);
}

static bool d_list(S *s, TV root, simple_pojo_list *out) {
    TA a;
    TV v;
    size_t n, i = 0;
    if (!t_arr(root, &a, &n)) return false;
    out->items = (simple_pojo *)t_alloc(s, n * sizeof(simple_pojo));
    if (!out->items) return false;
    while (i < n && t_next(&a, &v))
        if (!d_simple(v, &out->items[i++])) return false;
    out->n = i;
    return i == n;
}

static bool d_pa_user(TV val, pa_user *out) {
    TO o;
    TV v;
    if (!t_obj(val, &o)) return false;
    PA_USER_FIELDS(T_GET)
    return true;
}

static bool d_pa_photo(TV val, pa_photo *out) {
    TO o;
    TV v;
    if (!t_obj(val, &o)) return false;
    PA_PHOTO_FIELDS(T_GET)
    return t_get(&o, T_KEY("author"), &v) && d_pa_user(v, &out->author);
}

static bool d_album(S *s, TV root, pa_album *out) {
    TO o;
    TV v;
    TA a;
    size_t n, i = 0;
    if (!t_obj(root, &o)) return false;
    PA_ALBUM_HEAD(T_GET)
    if (!t_get(&o, T_KEY("owner"), &v) || !d_pa_user(v, &out->owner)) return false;
    PA_ALBUM_MID(T_GET)
    if (!t_get(&o, T_KEY("photos"), &v) || !t_arr(v, &a, &n)) return false;
    out->photos = (pa_photo *)t_alloc(s, n * sizeof(pa_photo));
    if (!out->photos) return false;
    while (i < n && t_next(&a, &v))
        if (!d_pa_photo(v, &out->photos[i++])) return false;
    out->n_photos = i;
    return i == n;
}

static bool d_kr_user(S *s, TV val, kr_user *out) {
    TO o, no;
    TV v, e;
    TA a;
    size_t n, i;
    if (!t_obj(val, &o)) return false;
    KR_USER_HEAD(T_GET)
    if (!t_get(&o, T_KEY("name"), &v) || !t_obj(v, &no)) return false;
    if (!t_get(&no, T_KEY("first"), &e) || !t_STR(e, &out->name.first)) return false;
    if (!t_get(&no, T_KEY("last"), &e) || !t_STR(e, &out->name.last)) return false;
    KR_USER_MID(T_GET)

    if (!t_get(&o, T_KEY("tags"), &v) || !t_arr(v, &a, &n)) return false;
    out->tags = (jstr *)t_alloc(s, n * sizeof(jstr));
    for (i = 0; out->tags && i < n && t_next(&a, &e); i++)
        if (!t_STR(e, &out->tags[i])) return false;
    if ((out->n_tags = i) != n) return false;

    if (!t_get(&o, T_KEY("range"), &v) || !t_arr(v, &a, &n)) return false;
    out->range = (int32_t *)t_alloc(s, n * sizeof(int32_t));
    for (i = 0; out->range && i < n && t_next(&a, &e); i++)
        if (!t_I32(e, &out->range[i])) return false;
    if ((out->n_range = i) != n) return false;

    if (!t_get(&o, T_KEY("friends"), &v) || !t_arr(v, &a, &n)) return false;
    out->friends = (kr_friend *)t_alloc(s, n * sizeof(kr_friend));
    for (i = 0; out->friends && i < n && t_next(&a, &e); i++) {
        TO fo;
        TV fv;
        kr_friend *f = &out->friends[i];
        if (!t_obj(e, &fo)) return false;
        if (!t_get(&fo, T_KEY("id"), &fv) || !t_I32(fv, &f->id)) return false;
        if (!t_get(&fo, T_KEY("name"), &fv) || !t_STR(fv, &f->name)) return false;
    }
    if ((out->n_friends = i) != n) return false;

    if (!t_get(&o, T_KEY("images"), &v) || !t_arr(v, &a, &n)) return false;
    out->images = (kr_image *)t_alloc(s, n * sizeof(kr_image));
    for (i = 0; out->images && i < n && t_next(&a, &e); i++) {
        TO io;
        TV iv;
        kr_image *im = &out->images[i];
        if (!t_obj(e, &io)) return false;
        if (!t_get(&io, T_KEY("id"), &iv) || !t_STR(iv, &im->id)) return false;
        if (!t_get(&io, T_KEY("format"), &iv) || !t_STR(iv, &im->format)) return false;
        if (!t_get(&io, T_KEY("url"), &iv) || !t_STR(iv, &im->url)) return false;
        if (!t_get(&io, T_KEY("description"), &iv) || !t_STR(iv, &im->description)) return false;
    }
    if ((out->n_images = i) != n) return false;
    KR_USER_TAIL(T_GET)
    return true;
}

static bool d_kudos(S *s, TV root, kr_response *out) {
    TO o;
    TV v;
    TA a;
    size_t n, i = 0;
    if (!t_obj(root, &o)) return false;
    if (!t_get(&o, T_KEY("users"), &v) || !t_arr(v, &a, &n)) return false;
    out->users = (kr_user *)t_alloc(s, n * sizeof(kr_user));
    if (!out->users) return false;
    while (i < n && t_next(&a, &v))
        if (!d_kr_user(s, v, &out->users[i++])) return false;
    if ((out->n_users = i) != n) return false;
    KR_RESPONSE_TAIL(T_GET)
    return true;
}

#define T_DECODER(name, fn, type, with_state)                                  \
    static bool name(void *st, const char *dat, size_t len, void *out) {      \
        S *s = (S *)st;                                                             \
        TV root;                                                               \
        return t_root(s, dat, len, &root) && fn(with_state root, (type *)out); \
    }
#define T_S s,
#define T_NOS
T_DECODER(tdec_simple, d_simple, simple_pojo, T_NOS)
T_DECODER(tdec_nested, d_nested, nested_pojo, T_S)
T_DECODER(tdec_date, d_date, date_pojo, T_NOS)
T_DECODER(tdec_list, d_list, simple_pojo_list, T_S)
T_DECODER(tdec_map, t_jv, jv, T_S)
T_DECODER(tdec_album, d_album, pa_album, T_S)
T_DECODER(tdec_kudos, d_kudos, kr_response, T_S)
#endif /* T_NO_DECODE */

/* ----------------------------------------------------------------------------
 * MARK: - Encoding
 * ------------------------------------------------------------------------- */
#ifndef T_NO_ENCODE
#define T_PUT(kind, m, key)                                                    \
    if (!b_put_##kind(s, o, T_KEY(key), &in->m)) return false;

static bool e_simple(S *s, TC *o, const simple_pojo *in) {
    SIMPLE_POJO_FIELDS(T_PUT)
    return true;
}

static bool e_nested(S *s, TC *o, const nested_pojo *in) {
    TC c;
    NESTED_POJO_FIELDS(T_PUT)
    if (!in->nested) {
        jv nul;
        memset(&nul, 0, sizeof(nul));
        nul.kind = JV_NULL;
        return b_jv(s, o, T_KEY("nested"), &nul);
    }
    return b_put_obj(s, o, T_KEY("nested"), &c) && e_nested(s, &c, in->nested) && b_end(s, &c);
}

static bool e_date(S *s, TC *o, const date_pojo *in) {
    char buf[32];
    size_t n = bench_format_date(in->local_date.year, in->local_date.month, in->local_date.day, buf);
    if (!n || !b_put_copy(s, o, T_KEY("localDate"), buf, n)) return false;
    n = bench_format_instant(in->instant_epoch_ms, buf);
    return n && b_put_copy(s, o, T_KEY("instant"), buf, n);
}

static bool e_list(S *s, TC *arr, const simple_pojo_list *in) {
    size_t i;
    for (i = 0; i < in->n; i++) {
        TC c;
        if (!b_add_obj(s, arr, &c) || !e_simple(s, &c, &in->items[i]) || !b_end(s, &c)) return false;
    }
    return true;
}

static bool e_pa_user(S *s, TC *o, const pa_user *in) {
    PA_USER_FIELDS(T_PUT)
    return true;
}

static bool e_album(S *s, TC *o, const pa_album *in) {
    TC c, arr;
    size_t i;
    PA_ALBUM_HEAD(T_PUT)
    if (!b_put_obj(s, o, T_KEY("owner"), &c) || !e_pa_user(s, &c, &in->owner) || !b_end(s, &c)) return false;
    PA_ALBUM_MID(T_PUT)
    if (!b_put_arr(s, o, T_KEY("photos"), &arr)) return false;
    for (i = 0; i < in->n_photos; i++) {
        const pa_photo *p = &in->photos[i];
        TC po, au;
        if (!b_add_obj(s, &arr, &po)) return false;
        {
            TC *o = &po; /* the list macro names o and in */
            const pa_photo *in = p;
            PA_PHOTO_FIELDS(T_PUT)
        }
        if (!b_put_obj(s, &po, T_KEY("author"), &au) || !e_pa_user(s, &au, &p->author) || !b_end(s, &au) ||
            !b_end(s, &po))
            return false;
    }
    return b_end(s, &arr);
}

static bool e_kr_name(S *s, TC *o, const kr_name *in) {
    KR_NAME_FIELDS(T_PUT)
    return true;
}

static bool e_kr_friend(S *s, TC *o, const kr_friend *in) {
    KR_FRIEND_FIELDS(T_PUT)
    return true;
}

static bool e_kr_image(S *s, TC *o, const kr_image *in) {
    KR_IMAGE_FIELDS(T_PUT)
    return true;
}

static bool e_kr_user(S *s, TC *o, const kr_user *in) {
    TC c, e;
    size_t i;
    KR_USER_HEAD(T_PUT)
    if (!b_put_obj(s, o, T_KEY("name"), &c) || !e_kr_name(s, &c, &in->name) || !b_end(s, &c)) return false;
    KR_USER_MID(T_PUT)
    if (!b_put_arr(s, o, T_KEY("tags"), &c)) return false;
    for (i = 0; i < in->n_tags; i++)
        if (!b_add_STR(s, &c, &in->tags[i])) return false;
    if (!b_end(s, &c) || !b_put_arr(s, o, T_KEY("range"), &c)) return false;
    for (i = 0; i < in->n_range; i++)
        if (!b_add_I32(s, &c, &in->range[i])) return false;
    if (!b_end(s, &c) || !b_put_arr(s, o, T_KEY("friends"), &c)) return false;
    for (i = 0; i < in->n_friends; i++)
        if (!b_add_obj(s, &c, &e) || !e_kr_friend(s, &e, &in->friends[i]) || !b_end(s, &e)) return false;
    if (!b_end(s, &c) || !b_put_arr(s, o, T_KEY("images"), &c)) return false;
    for (i = 0; i < in->n_images; i++)
        if (!b_add_obj(s, &c, &e) || !e_kr_image(s, &e, &in->images[i]) || !b_end(s, &e)) return false;
    if (!b_end(s, &c)) return false;
    KR_USER_TAIL(T_PUT)
    return true;
}

static bool e_kudos(S *s, TC *o, const kr_response *in) {
    TC arr, u;
    size_t i;
    if (!b_put_arr(s, o, T_KEY("users"), &arr)) return false;
    for (i = 0; i < in->n_users; i++)
        if (!b_add_obj(s, &arr, &u) || !e_kr_user(s, &u, &in->users[i]) || !b_end(s, &u)) return false;
    if (!b_end(s, &arr)) return false;
    KR_RESPONSE_TAIL(T_PUT)
    return true;
}

static bool e_boon_simple(S *s, TC *o, const boon_simple *in) {
    BOON_SIMPLE_FIELDS(T_PUT)
    return true;
}

static bool e_boon_medium(S *s, TC *o, const boon_medium *in) {
    TC c;
    size_t i;
    BOON_MEDIUM_HEAD(T_PUT)
    if (!b_put_arr(s, o, T_KEY("languages"), &c)) return false;
    for (i = 0; i < in->n_languages; i++)
        if (!b_add_STR(s, &c, &in->languages[i])) return false;
    if (!b_end(s, &c)) return false;
    if (!b_put_obj(s, o, T_KEY("photo"), &c)) return false;
    {
        TC *o = &c;
        const boon_photo *in_photo = &in->photo;
        {
            const boon_photo *in = in_photo;
            BOON_PHOTO_FIELDS(T_PUT)
        }
        (void)o;
    }
    if (!b_end(s, &c)) return false;
    BOON_MEDIUM_MID(T_PUT)
    if (!b_put_arr(s, o, T_KEY("places"), &c)) return false;
    for (i = 0; i < in->n_places; i++) {
        TC po;
        if (!b_add_obj(s, &c, &po)) return false;
        {
            TC *o = &po;
            const boon_place *in_place = &in->places[i];
            {
                const boon_place *in = in_place;
                BOON_PLACE_FIELDS(T_PUT)
            }
            (void)o;
        }
        if (!b_end(s, &po)) return false;
    }
    if (!b_end(s, &c)) return false;
    BOON_MEDIUM_TAIL(T_PUT)
    return true;
}

static bool e_boon_message(S *s, TC *o, const boon_message *in) {
    TC h, to;
    size_t i;
    BOON_MESSAGE_HEAD(T_PUT)
    if (!b_put_obj(s, o, T_KEY("headers"), &h)) return false;
    {
        TC *o = &h;
        const boon_headers *in_h = &in->headers;
        {
            const boon_headers *in = in_h;
            BOON_HEADERS_HEAD(T_PUT)
            if (!b_put_arr(s, o, T_KEY("To"), &to)) return false;
            for (i = 0; i < in->n_to; i++)
                if (!b_add_STR(s, &to, &in->to[i])) return false;
            if (!b_end(s, &to)) return false;
            BOON_HEADERS_TAIL(T_PUT)
        }
    }
    if (!b_end(s, &h)) return false;
    BOON_MESSAGE_TAIL(T_PUT)
    return true;
}

static bool e_boon_complex(S *s, TC *arr, const boon_complex *in) {
    size_t i;
    for (i = 0; i < in->n_messages; i++) {
        TC c;
        if (!b_add_obj(s, arr, &c) || !e_boon_message(s, &c, &in->messages[i]) || !b_end(s, &c)) return false;
    }
    return true;
}

static bool e_j0(S *s, TC *o, const j0_message *in) {
    TC c, arr;
    int i;
    J0_MESSAGE_HEAD(T_PUT)
    /* J0_PROPERTY_FIELDS by hand: C++ cannot name the nested struct type */
    if (!b_put_obj(s, o, T_KEY("Property"), &c) || !b_put_STR(s, &c, T_KEY("Key"), &in->property.key) ||
        !b_put_STR(s, &c, T_KEY("Value"), &in->property.value))
        return false;
    if (!b_end(s, &c) || !b_put_arr(s, o, T_KEY("Childs"), &arr)) return false;
    for (i = 0; i < 2; i++) {
        if (!b_add_obj(s, &arr, &c)) return false;
        {
            TC *o = &c;
            const j0_child *in_c = &in->childs[i];
            {
                const j0_child *in = in_c;
                J0_CHILD_FIELDS(T_PUT)
            }
            (void)o;
        }
        if (!b_end(s, &c)) return false;
    }
    return b_end(s, &arr);
}

#define T_ENCODER(name, fn, type, array)                                       \
    static bool name(void *st, const void *in, bench_text *out) {            \
        S *s = (S *)st;                                                             \
        TC root;                                                               \
        return b_begin(s, array, &root) && fn(s, &root, (const type *)in) &&   \
               b_end(s, &root) && b_finish(s, &root, out);                     \
    }
T_ENCODER(tenc_simple, e_simple, simple_pojo, false)
T_ENCODER(tenc_nested, e_nested, nested_pojo, false)
T_ENCODER(tenc_date, e_date, date_pojo, false)
T_ENCODER(tenc_list, e_list, simple_pojo_list, true)
T_ENCODER(tenc_album, e_album, pa_album, false)
T_ENCODER(tenc_kudos, e_kudos, kr_response, false)
T_ENCODER(tenc_boon_simple, e_boon_simple, boon_simple, false)
T_ENCODER(tenc_boon_medium, e_boon_medium, boon_medium, false)
T_ENCODER(tenc_boon_complex, e_boon_complex, boon_complex, true)

/* The map and the lone string are not objects at the root: b_jv writes the
 * whole value, with no enclosing container. */
static bool tenc_map(void *st, const void *in, bench_text *out) {
    S *s = (S *)st;
    TC root;
    return b_begin(s, false, &root) && b_jv_root(s, &root, (const jv *)in) && b_finish(s, &root, out);
}

static bool tenc_escape(void *st, const void *in, bench_text *out) {
    S *s = (S *)st;
    TC root;
    jv v;
    v.kind = JV_STRING;
    v.u.s = *(const jstr *)in;
    return b_begin(s, false, &root) && b_jv_root(s, &root, &v) && b_finish(s, &root, out);
}

static size_t tj0_write(void *st, const void *msg, char *buf, size_t cap) {
    S *s = (S *)st;
    TC root;
    size_t n;
    if (!b_begin(s, false, &root) || !e_j0(s, &root, (const j0_message *)msg) || !b_end(s, &root)) return 0;
    n = b_finish_buf(s, &root, buf, cap);
    b_release(s);
    return n;
}
#endif /* T_NO_ENCODE */

static void scen_template_fill(bench_typed *t) {
#ifndef T_NO_DECODE
    t->decode[BS_SIMPLE] = tdec_simple;
    t->decode[BS_NESTED] = tdec_nested;
    t->decode[BS_DATE] = tdec_date;
    t->decode[BS_LIST] = tdec_list;
    t->decode[BS_MAP] = tdec_map;
    t->decode[BS_ALBUM] = tdec_album;
    t->decode[BS_KUDOS] = tdec_kudos;
#endif
#ifndef T_NO_ENCODE
    t->encode[BS_SIMPLE] = tenc_simple;
    t->encode[BS_NESTED] = tenc_nested;
    t->encode[BS_DATE] = tenc_date;
    t->encode[BS_LIST] = tenc_list;
    t->encode[BS_MAP] = tenc_map;
    t->encode[BS_ESCAPE] = tenc_escape;
    t->encode[BS_ALBUM] = tenc_album;
    t->encode[BS_KUDOS] = tenc_kudos;
    t->encode[BS_BOON_SIMPLE] = tenc_boon_simple;
    t->encode[BS_BOON_MEDIUM] = tenc_boon_medium;
    t->encode[BS_BOON_COMPLEX] = tenc_boon_complex;
    t->j0_write = tj0_write;
#endif
}
