/*
 * simdjson typed adapter: the On-Demand API, simdjson's recommended way to
 * fill your own structures. One ondemand::parser reused; the input is
 * copied into a padded buffer the state keeps (the copy is timed, as
 * tyjson's own input copy is); members are found with find_field, in file
 * order, and each value is read once; arrays are sized with
 * count_elements() before the elements are read; strings point into the
 * parser's string buffer (valid until the next parse).
 *
 * Serialization: simdjson 3.0 has no builder or writer for data of your
 * own (only the DOM of a parsed document can be printed), so the
 * serialize scenarios show n/a.
 */
#include "../peers.h"
#include "scenario_types.h"

#include <simdjson.h>

#include <cstdlib>
#include <cstring>
#include <new>

namespace {

namespace od = simdjson::ondemand;

struct state {
    bench_arena arena = {};
    od::parser parser;
    od::document doc;
    char *buf = nullptr;
    size_t cap = 0;
};

typedef state S;
typedef od::value TV;
typedef od::object TO;
struct TA {
    od::array arr;
    od::array_iterator it, end;
    bool started;
};
struct TC {};

bool t_root(S *s, const char *dat, size_t len, TV *root) {
    if (len + simdjson::SIMDJSON_PADDING > s->cap) {
        std::free(s->buf);
        s->cap = (len + simdjson::SIMDJSON_PADDING) * 2;
        s->buf = static_cast<char *>(std::malloc(s->cap));
        if (!s->buf) {
            s->cap = 0;
            return false;
        }
    }
    std::memcpy(s->buf, dat, len);
    if (s->parser.iterate(s->buf, len, s->cap).get(s->doc)) return false;
    return !s->doc.get_value().get(*root);
}

bool t_obj(TV v, TO *o) { return !v.get_object().get(*o); }

bool t_get(TO *o, const char *key, size_t klen, TV *v) {
    return !o->find_field(std::string_view(key, klen)).get(*v);
}

bool t_arr(TV v, TA *a, size_t *n) {
    if (v.get_array().get(a->arr) || a->arr.count_elements().get(*n)) return false;
    a->started = false;
    return !a->arr.begin().get(a->it) && !a->arr.end().get(a->end);
}

/* The iterator moves on only after the caller has read the element: in
 * On-Demand, stepping past an unread value skips it. */
bool t_next(TA *a, TV *v) {
    if (a->started) ++a->it;
    a->started = true;
    if (a->it == a->end) return false;
    return !(*a->it).get(*v);
}

bool t_null(TV v) { return v.is_null(); }

bool t_STR(TV v, jstr *out) {
    std::string_view sv;
    if (v.get_string().get(sv)) return false;
    out->ptr = sv.data();
    out->len = sv.size();
    return true;
}

bool t_I64(TV v, int64_t *out) { return !v.get_int64().get(*out); }

bool t_I32(TV v, int32_t *out) {
    int64_t x;
    if (v.get_int64().get(x) || x < INT32_MIN || x > INT32_MAX) return false;
    *out = static_cast<int32_t>(x);
    return true;
}

bool t_BOOL(TV v, bool *out) { return !v.get_bool().get(*out); }
bool t_F64(TV v, double *out) { return !v.get_double().get(*out); }

bool t_F32(TV v, float *out) {
    double d;
    if (v.get_double().get(d)) return false;
    *out = static_cast<float>(d);
    return true;
}

bool t_jv(S *s, TV v, jv *out) {
    od::json_type type;
    if (v.type().get(type)) return false;
    switch (type) {
    case od::json_type::null: out->kind = JV_NULL; return v.is_null();
    case od::json_type::boolean: {
        bool b;
        if (v.get_bool().get(b)) return false;
        out->kind = b ? JV_TRUE : JV_FALSE;
        return true;
    }
    case od::json_type::number: {
        od::number_type nt;
        if (v.get_number_type().get(nt)) return false;
        if (nt == od::number_type::floating_point_number) {
            out->kind = JV_DOUBLE;
            return !v.get_double().get(out->u.d);
        }
        out->kind = JV_INT;
        return !v.get_int64().get(out->u.i);
    }
    case od::json_type::string: out->kind = JV_STRING; return t_STR(v, &out->u.s);
    case od::json_type::array: {
        TA a;
        size_t n, i = 0;
        TV e;
        if (!t_arr(v, &a, &n)) return false;
        out->kind = JV_ARRAY;
        out->u.arr.items = static_cast<jv *>(bench_arena_alloc(&s->arena, n * sizeof(jv)));
        if (!out->u.arr.items) return false;
        while (i < n && t_next(&a, &e))
            if (!t_jv(s, e, &out->u.arr.items[i++])) return false;
        out->u.arr.n = i;
        return i == n;
    }
    case od::json_type::object: {
        od::object o;
        size_t n, i = 0;
        jv *vals;
        if (v.get_object().get(o) || o.count_fields().get(n)) return false;
        out->kind = JV_OBJECT;
        out->u.obj.members = static_cast<jv_member *>(bench_arena_alloc(&s->arena, n * sizeof(jv_member)));
        vals = static_cast<jv *>(bench_arena_alloc(&s->arena, n * sizeof(jv)));
        if (!out->u.obj.members || !vals) return false;
        for (auto field : o) {
            std::string_view key;
            od::value fv;
            jv_member *m;
            if (i >= n || field.unescaped_key().get(key) || field.value().get(fv)) return false;
            m = &out->u.obj.members[i];
            /* the unescaped key lives in the parser's string buffer */
            m->key.ptr = key.data();
            m->key.len = key.size();
            m->value = &vals[i++];
            if (!t_jv(s, fv, m->value)) return false;
        }
        out->u.obj.n = i;
        return i == n;
    }
    }
    return false;
}

#define T_NO_ENCODE
#include "scen_template.h"

void *create() { return new (std::nothrow) state(); }
void destroy(void *st) {
    state *s = static_cast<state *>(st);
    bench_arena_free(&s->arena);
    std::free(s->buf);
    delete s;
}
void release(void *st) { bench_arena_reset(&static_cast<state *>(st)->arena); }

} // namespace

extern "C" void bench_typed_simdjson(bench_typed *t) {
    t->name = "simdjson";
    t->notes = "decode: On-Demand (ondemand::parser reused, input copied into a padded buffer, find_field in "
               "file order, count_elements to size arrays); encode: n/a (simdjson 3.0 has no writer for your own data)";
    t->create = create;
    t->destroy = destroy;
    t->release = release;
    scen_template_fill(t);
    t->na_default = "simdjson 3.0 has no writer for data of your own";
}
