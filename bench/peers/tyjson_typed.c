/*
 * tyjson typed adapter: the binding (tyjson_decode / tyjson_encode_append)
 * with the descriptors of scenario_types.c. Decoding copies strings into a
 * tyjson_arena that is reset after each value (steady state: no malloc);
 * encoding appends into a reused tyjson_buf. The JSON0 stream encodes each
 * message straight into the caller's buffer (tyjson_encode_buf).
 *
 * Scenarios without a struct: the map is read as a DOM (tyjson_read) and
 * copied into the generic tree, and written from the tree through a mutable
 * document; the lone string is written from one reused mutable value.
 *
 * BENCH_TYJSON_DECODE / BENCH_TYJSON_ENCODE come from bench/CMakeLists.txt,
 * which looks for the binding's definitions in src/: until they exist the
 * hooks stay NULL and the report shows n/a.
 */
#include "../peers.h"
#include "scenario_types.h"

#include <tyjson.h>

#include <stdlib.h>
#include <string.h>

typedef struct state {
    tyjson_arena arena;
    tyjson_arena enc_arena; /* map encode: the mutable document */
    tyjson_buf buf;
    tyjson_doc *doc;      /* map decode */
    tyjson_mut_doc *mdoc; /* map encode, per call */
    tyjson_mut_doc *sdoc; /* escape string, kept */
    tyjson_mut_val *sval;
    char *sbuf;           /* escape string output */
    size_t sbuf_cap;
    bool held;            /* an arena or document may hold something */
} state;

static void *create(void) {
    state *s = calloc(1, sizeof(state));
    if (!s) return NULL;
    tyjson_arena_init(&s->arena, NULL);
    tyjson_arena_init(&s->enc_arena, NULL);
    tyjson_buf_init(&s->buf, NULL);
    return s;
}

/* Called after every decode and encode: only the calls that take from an
 * arena or keep a document (decoders, the map's encoder) set `held`; the
 * typed encoders hold nothing (their text lives in the reused buffer), so
 * release() after them is one test, as the hand-written adapter's is none.
 * An arena nothing was taken from since its last reset is left as it is. */
static void release(void *st) {
    state *s = st;
    if (!s->held) return;
    s->held = false;
    if (tyjson_arena_used(&s->arena)) tyjson_arena_reset(&s->arena);
    if (s->doc) tyjson_doc_free(s->doc);
    s->doc = NULL;
    if (s->mdoc) tyjson_mut_doc_free(s->mdoc);
    s->mdoc = NULL;
    if (tyjson_arena_used(&s->enc_arena)) tyjson_arena_reset(&s->enc_arena);
}

static void destroy(void *st) {
    state *s = st;
    release(s);
    tyjson_arena_free(&s->arena);
    tyjson_arena_free(&s->enc_arena);
    tyjson_buf_free(&s->buf);
    tyjson_mut_doc_free(s->sdoc);
    free(s->sbuf);
    free(s);
}

/* ---- generic tree <-> DOM ------------------------------------------------ */
static bool to_jv(state *s, const tyjson_val *v, jv *out) {
    size_t i = 0;
    switch (tyjson_get_type(v)) {
    case TYJSON_TYPE_NULL: out->kind = JV_NULL; return true;
    case TYJSON_TYPE_BOOL: out->kind = tyjson_get_bool(v) ? JV_TRUE : JV_FALSE; return true;
    case TYJSON_TYPE_NUM:
        if (tyjson_is_real(v)) {
            out->kind = JV_DOUBLE;
            out->u.d = tyjson_get_real(v);
        } else {
            out->kind = JV_INT;
            if (!tyjson_get_i64(v, &out->u.i)) return false;
        }
        return true;
    case TYJSON_TYPE_STR:
        out->kind = JV_STRING;
        out->u.s.ptr = tyjson_get_str(v);
        out->u.s.len = tyjson_get_len(v);
        return true;
    case TYJSON_TYPE_ARR: {
        tyjson_arr_iter it = tyjson_arr_iter_with(v);
        const tyjson_val *e;
        out->kind = JV_ARRAY;
        out->u.arr.n = tyjson_arr_size(v);
        out->u.arr.items = tyjson_arena_alloc(&s->arena, out->u.arr.n * sizeof(jv) + 1, 8);
        if (!out->u.arr.items) return false;
        while ((e = tyjson_arr_iter_next(&it)))
            if (!to_jv(s, e, &out->u.arr.items[i++])) return false;
        return true;
    }
    case TYJSON_TYPE_OBJ: {
        tyjson_obj_iter it = tyjson_obj_iter_with(v);
        tyjson_val *k;
        out->kind = JV_OBJECT;
        out->u.obj.n = tyjson_obj_size(v);
        out->u.obj.members = tyjson_arena_alloc(&s->arena, out->u.obj.n * (sizeof(jv_member) + sizeof(jv)) + 1, 8);
        if (!out->u.obj.members) return false;
        while ((k = tyjson_obj_iter_next(&it))) {
            jv_member *m = &out->u.obj.members[i];
            m->key.ptr = tyjson_get_str(k);
            m->key.len = tyjson_get_len(k);
            m->value = (jv *)(out->u.obj.members + out->u.obj.n) + i;
            if (!to_jv(s, tyjson_obj_iter_get_val(k), m->value)) return false;
            i++;
        }
        return true;
    }
    default: return false;
    }
}

static tyjson_mut_val *from_jv(tyjson_mut_doc *d, const jv *v) {
    size_t i;
    tyjson_mut_val *c;
    switch (v->kind) {
    case JV_NULL: return tyjson_mut_null(d);
    case JV_FALSE: return tyjson_mut_false(d);
    case JV_TRUE: return tyjson_mut_true(d);
    case JV_INT: return tyjson_mut_sint(d, v->u.i);
    case JV_DOUBLE: return tyjson_mut_real(d, v->u.d);
    case JV_STRING: return tyjson_mut_strn(d, v->u.s.ptr, v->u.s.len);
    case JV_ARRAY:
        c = tyjson_mut_arr(d);
        for (i = 0; c && i < v->u.arr.n; i++)
            if (!tyjson_mut_arr_append(c, from_jv(d, &v->u.arr.items[i]))) return NULL;
        return c;
    case JV_OBJECT:
        c = tyjson_mut_obj(d);
        for (i = 0; c && i < v->u.obj.n; i++) {
            const jv_member *m = &v->u.obj.members[i];
            if (!tyjson_mut_obj_add(c, tyjson_mut_strn(d, m->key.ptr, m->key.len), from_jv(d, m->value)))
                return NULL;
        }
        return c;
    }
    return NULL;
}

/* The document takes its memory from the encode arena, which release()
 * resets after freeing the document: steady state, no malloc. */
static bool dec_map(void *st, const char *dat, size_t len, void *out) {
    state *s = st;
    tyjson_alloc alc = tyjson_arena_allocator(&s->enc_arena);
    tyjson_read_options ro = {0, 0, &alc};
    s->held = true;
    s->doc = tyjson_read_opts(dat, len, &ro, NULL);
    return s->doc && to_jv(s, tyjson_doc_get_root(s->doc), out);
}

/* Writes a mutable value into the state's reused buffer. */
static bool write_mut(state *s, const tyjson_mut_val *v, bench_text *out) {
    size_t n;
    for (;;) {
        n = s->sbuf_cap ? tyjson_mut_val_write_buf(v, s->sbuf, s->sbuf_cap, NULL, NULL) : 0;
        if (n && n < s->sbuf_cap) break;
        if (!n && s->sbuf_cap) return false;
        s->sbuf_cap = n ? n + 1 : 256;
        free(s->sbuf);
        s->sbuf = malloc(s->sbuf_cap);
        if (!s->sbuf) return false;
    }
    out->data = s->sbuf;
    out->len = n;
    return true;
}

/* The mutable document takes its memory from an arena reset after each
 * value (tyjson_arena_allocator), as yyjson's adapter reuses its dynamic
 * allocator: steady state, no malloc. */
static bool enc_map(void *st, const void *in, bench_text *out) {
    state *s = st;
    tyjson_mut_val *root;
    tyjson_alloc alc = tyjson_arena_allocator(&s->enc_arena);
    s->held = true;
    s->mdoc = tyjson_mut_doc_new(&alc);
    if (!s->mdoc || !(root = from_jv(s->mdoc, in))) return false;
    tyjson_mut_doc_set_root(s->mdoc, root);
    return write_mut(s, root, out);
}

static bool enc_escape(void *st, const void *in, bench_text *out) {
    state *s = st;
    const jstr *str = in;
    if (!s->sdoc) {
        s->sdoc = tyjson_mut_doc_new(NULL);
        if (!s->sdoc || !(s->sval = tyjson_mut_strn(s->sdoc, "", 0))) return false;
    }
    tyjson_mut_set_strn(s->sval, str->ptr, str->len);
    return write_mut(s, s->sval, out);
}

/* ---- binding --------------------------------------------------------------- */
#ifdef BENCH_TYJSON_DECODE
/* Strings without escapes point into the input, which outlives the result
 * here, as the peers' strings point into their own documents. */
static const tyjson_decode_options borrow = {TYJSON_DECODE_BORROW, 0, 0, NULL};
#define DECODER(name, type)                                                                  \
    static bool name(void *st, const char *dat, size_t len, void *out) {                    \
        state *s = st;                                                                       \
        s->held = true;                                                                      \
        return tyjson_decode(&type, out, dat, len, &s->arena, &borrow, NULL) == TYJSON_OK;   \
    }
DECODER(dec_simple, simple_pojo_type)
DECODER(dec_nested, nested_pojo_type)
DECODER(dec_date, date_pojo_type)
DECODER(dec_list, simple_pojo_list_type)
DECODER(dec_album, pa_album_type)
DECODER(dec_kudos, kr_response_type)
#endif

#ifdef BENCH_TYJSON_ENCODE
#define ENCODER(name, type)                                                                  \
    static bool name(void *st, const void *in, bench_text *out) {                          \
        state *s = st;                                                                       \
        tyjson_buf_clear(&s->buf);                                                           \
        if (tyjson_encode_append(&s->buf, &type, in, NULL, NULL) != TYJSON_OK) return false; \
        out->data = s->buf.data;                                                             \
        out->len = s->buf.len;                                                               \
        return true;                                                                         \
    }
ENCODER(enc_simple, simple_pojo_type)
ENCODER(enc_nested, nested_pojo_type)
ENCODER(enc_date, date_pojo_type)
ENCODER(enc_list, simple_pojo_list_type)
ENCODER(enc_album, pa_album_type)
ENCODER(enc_kudos, kr_response_type)
ENCODER(enc_boon_simple, boon_simple_type)
ENCODER(enc_boon_medium, boon_medium_type)
ENCODER(enc_boon_complex, boon_complex_type)

static size_t j0_write(void *st, const void *msg, char *buf, size_t cap) {
    size_t n = tyjson_encode_buf(&j0_message_type, msg, buf, cap, NULL, NULL);
    (void)st;
    return n < cap ? n : 0;
}
#endif

void bench_typed_tyjson(bench_typed *t) {
    t->name = "tyjson";
    t->notes = "binding: tyjson_decode into an arena reset per value (TYJSON_DECODE_BORROW: unescaped strings point into the input), "
               "tyjson_encode_append into a reused tyjson_buf; JSON0: tyjson_encode_buf into the stream buffer; "
               "map: DOM read -> generic tree, tree -> mutable doc (arena allocator) -> write into a reused buffer"
#if !defined(BENCH_TYJSON_DECODE) || !defined(BENCH_TYJSON_ENCODE)
               " (binding not built yet: n/a)"
#endif
        ;
    t->create = create;
    t->destroy = destroy;
    t->release = release;
    t->decode[BS_MAP] = dec_map;
    t->encode[BS_MAP] = enc_map;
    t->encode[BS_ESCAPE] = enc_escape;
#ifdef BENCH_TYJSON_DECODE
    t->decode[BS_SIMPLE] = dec_simple;
    t->decode[BS_NESTED] = dec_nested;
    t->decode[BS_DATE] = dec_date;
    t->decode[BS_LIST] = dec_list;
    t->decode[BS_ALBUM] = dec_album;
    t->decode[BS_KUDOS] = dec_kudos;
#endif
#ifdef BENCH_TYJSON_ENCODE
    t->encode[BS_SIMPLE] = enc_simple;
    t->encode[BS_NESTED] = enc_nested;
    t->encode[BS_DATE] = enc_date;
    t->encode[BS_LIST] = enc_list;
    t->encode[BS_ALBUM] = enc_album;
    t->encode[BS_KUDOS] = enc_kudos;
    t->encode[BS_BOON_SIMPLE] = enc_boon_simple;
    t->encode[BS_BOON_MEDIUM] = enc_boon_medium;
    t->encode[BS_BOON_COMPLEX] = enc_boon_complex;
    t->j0_write = j0_write;
#endif
}
