/*
 * RapidJSON typed adapter. Decode: one Document reused for every value,
 * Parse<kParseFullPrecisionFlag>(dat, len) (strings copied into the
 * document), members found with FindMember, strings pointing into the
 * document. Encode: the SAX Writer straight into a reused StringBuffer
 * (Key / String / Int64 / Double ...): RapidJSON's recommended way to
 * produce JSON without building a DOM. JSON0: the same, then one memcpy
 * of the message into the stream buffer.
 */
#include "../peers.h"
#include "scenario_types.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

namespace {

struct state {
    bench_arena arena = {};
    rapidjson::Document doc;
    rapidjson::StringBuffer sb;
    rapidjson::Writer<rapidjson::StringBuffer> w;
    state() : w(sb) {}
};

typedef state S;
typedef const rapidjson::Value *TV;
typedef const rapidjson::Value *TO;
struct TA {
    rapidjson::Value::ConstValueIterator it, end;
};
struct TC {
    bool array;
};

/* ---- reading ------------------------------------------------------------- */
bool t_root(S *s, const char *dat, size_t len, TV *root) {
    s->doc.Parse<rapidjson::kParseFullPrecisionFlag>(dat, len);
    *root = &s->doc;
    return !s->doc.HasParseError();
}

bool t_obj(TV v, TO *o) {
    *o = v;
    return v->IsObject();
}

bool t_get(TO *o, const char *key, size_t klen, TV *v) {
    rapidjson::Value::ConstMemberIterator m =
        (*o)->FindMember(rapidjson::Value(rapidjson::StringRef(key, static_cast<rapidjson::SizeType>(klen))));
    if (m == (*o)->MemberEnd()) return false;
    *v = &m->value;
    return true;
}

bool t_arr(TV v, TA *a, size_t *n) {
    if (!v->IsArray()) return false;
    a->it = v->Begin();
    a->end = v->End();
    *n = v->Size();
    return true;
}

bool t_next(TA *a, TV *v) {
    if (a->it == a->end) return false;
    *v = a->it++;
    return true;
}

bool t_null(TV v) { return v->IsNull(); }

bool t_STR(TV v, jstr *out) {
    if (!v->IsString()) return false;
    out->ptr = v->GetString();
    out->len = v->GetStringLength();
    return true;
}

bool t_I64(TV v, int64_t *out) {
    if (!v->IsInt64()) return false;
    *out = v->GetInt64();
    return true;
}

bool t_I32(TV v, int32_t *out) {
    if (!v->IsInt()) return false;
    *out = v->GetInt();
    return true;
}

bool t_BOOL(TV v, bool *out) {
    if (!v->IsBool()) return false;
    *out = v->GetBool();
    return true;
}

bool t_F64(TV v, double *out) {
    if (!v->IsNumber()) return false;
    *out = v->GetDouble();
    return true;
}

bool t_F32(TV v, float *out) {
    if (!v->IsNumber()) return false;
    *out = v->GetFloat();
    return true;
}

bool t_jv(S *s, TV v, jv *out) {
    size_t i = 0;
    switch (v->GetType()) {
    case rapidjson::kNullType: out->kind = JV_NULL; return true;
    case rapidjson::kFalseType: out->kind = JV_FALSE; return true;
    case rapidjson::kTrueType: out->kind = JV_TRUE; return true;
    case rapidjson::kNumberType:
        if (v->IsInt64()) {
            out->kind = JV_INT;
            out->u.i = v->GetInt64();
        } else {
            out->kind = JV_DOUBLE;
            out->u.d = v->GetDouble();
        }
        return true;
    case rapidjson::kStringType: out->kind = JV_STRING; return t_STR(v, &out->u.s);
    case rapidjson::kArrayType:
        out->kind = JV_ARRAY;
        out->u.arr.n = v->Size();
        out->u.arr.items = static_cast<jv *>(bench_arena_alloc(&s->arena, out->u.arr.n * sizeof(jv)));
        if (!out->u.arr.items) return false;
        for (const rapidjson::Value &e : v->GetArray())
            if (!t_jv(s, &e, &out->u.arr.items[i++])) return false;
        return true;
    case rapidjson::kObjectType: {
        jv *vals;
        out->kind = JV_OBJECT;
        out->u.obj.n = v->MemberCount();
        out->u.obj.members = static_cast<jv_member *>(bench_arena_alloc(&s->arena, out->u.obj.n * sizeof(jv_member)));
        vals = static_cast<jv *>(bench_arena_alloc(&s->arena, out->u.obj.n * sizeof(jv)));
        if (!out->u.obj.members || !vals) return false;
        for (const auto &m : v->GetObject()) {
            jv_member *jm = &out->u.obj.members[i];
            jm->key.ptr = m.name.GetString();
            jm->key.len = m.name.GetStringLength();
            jm->value = &vals[i++];
            if (!t_jv(s, &m.value, jm->value)) return false;
        }
        return true;
    }
    }
    return false;
}

/* ---- writing --------------------------------------------------------------- */
typedef rapidjson::SizeType RS;

bool b_begin(S *s, bool array, TC *root) {
    s->sb.Clear();
    s->w.Reset(s->sb);
    root->array = array;
    return array ? s->w.StartArray() : s->w.StartObject();
}

bool b_put_obj(S *s, TC *, const char *key, size_t klen, TC *child) {
    child->array = false;
    return s->w.Key(key, static_cast<RS>(klen)) && s->w.StartObject();
}

bool b_put_arr(S *s, TC *, const char *key, size_t klen, TC *child) {
    child->array = true;
    return s->w.Key(key, static_cast<RS>(klen)) && s->w.StartArray();
}

bool b_add_obj(S *s, TC *, TC *child) {
    child->array = false;
    return s->w.StartObject();
}

bool b_end(S *s, TC *c) { return c->array ? s->w.EndArray() : s->w.EndObject(); }

bool b_put_STR(S *s, TC *, const char *key, size_t klen, const jstr *v) {
    return s->w.Key(key, static_cast<RS>(klen)) && s->w.String(v->ptr, static_cast<RS>(v->len));
}
bool b_put_NSTR(S *s, TC *, const char *key, size_t klen, const jstr *v) {
    return s->w.Key(key, static_cast<RS>(klen)) && (v->ptr ? s->w.String(v->ptr, static_cast<RS>(v->len)) : s->w.Null());
}
bool b_put_I32(S *s, TC *, const char *key, size_t klen, const int32_t *v) {
    return s->w.Key(key, static_cast<RS>(klen)) && s->w.Int(*v);
}
bool b_put_I64(S *s, TC *, const char *key, size_t klen, const int64_t *v) {
    return s->w.Key(key, static_cast<RS>(klen)) && s->w.Int64(*v);
}
bool b_put_BOOL(S *s, TC *, const char *key, size_t klen, const bool *v) {
    return s->w.Key(key, static_cast<RS>(klen)) && s->w.Bool(*v);
}
bool b_put_F64(S *s, TC *, const char *key, size_t klen, const double *v) {
    return s->w.Key(key, static_cast<RS>(klen)) && s->w.Double(*v);
}
bool b_put_F32(S *s, TC *, const char *key, size_t klen, const float *v) {
    /* no float writer: the float's exact double value is written */
    return s->w.Key(key, static_cast<RS>(klen)) && s->w.Double(*v);
}
bool b_put_copy(S *s, TC *o, const char *key, size_t klen, const char *p, size_t n) {
    jstr v = {p, n};
    return b_put_STR(s, o, key, klen, &v);
}
bool b_add_STR(S *s, TC *, const jstr *v) { return s->w.String(v->ptr, static_cast<RS>(v->len)); }
bool b_add_I32(S *s, TC *, const int32_t *v) { return s->w.Int(*v); }

bool put_jv(S *s, const jv *v) {
    size_t i;
    switch (v->kind) {
    case JV_NULL: return s->w.Null();
    case JV_FALSE: return s->w.Bool(false);
    case JV_TRUE: return s->w.Bool(true);
    case JV_INT: return s->w.Int64(v->u.i);
    case JV_DOUBLE: return s->w.Double(v->u.d);
    case JV_STRING: return s->w.String(v->u.s.ptr, static_cast<RS>(v->u.s.len));
    case JV_ARRAY:
        if (!s->w.StartArray()) return false;
        for (i = 0; i < v->u.arr.n; i++)
            if (!put_jv(s, &v->u.arr.items[i])) return false;
        return s->w.EndArray();
    case JV_OBJECT:
        if (!s->w.StartObject()) return false;
        for (i = 0; i < v->u.obj.n; i++) {
            const jv_member *m = &v->u.obj.members[i];
            if (!s->w.Key(m->key.ptr, static_cast<RS>(m->key.len)) || !put_jv(s, m->value)) return false;
        }
        return s->w.EndObject();
    }
    return false;
}

bool b_jv(S *s, TC *, const char *key, size_t klen, const jv *v) {
    return s->w.Key(key, static_cast<RS>(klen)) && put_jv(s, v);
}

bool b_jv_root(S *s, TC *, const jv *v) {
    s->sb.Clear();
    s->w.Reset(s->sb);
    return put_jv(s, v);
}

bool b_finish(S *s, TC *, bench_text *out) {
    if (!s->w.IsComplete()) return false;
    out->data = s->sb.GetString();
    out->len = s->sb.GetSize();
    return true;
}

size_t b_finish_buf(S *s, TC *, char *buf, size_t cap) {
    size_t n = s->sb.GetSize();
    if (!s->w.IsComplete() || n >= cap) return 0;
    std::memcpy(buf, s->sb.GetString(), n);
    return n;
}

void b_release(S *) {}

} // namespace

/* The template is C that also compiles as C++; its b_jv_root for the
 * map and the lone string begins its own document, so b_begin's
 * StartObject is undone there. */
namespace {
#include "scen_template.h"

void *create() { return new (std::nothrow) state(); }
void destroy(void *st) {
    state *s = static_cast<state *>(st);
    bench_arena_free(&s->arena);
    delete s;
}
void release(void *st) {
    state *s = static_cast<state *>(st);
    bench_arena_reset(&s->arena);
}
} // namespace

extern "C" void bench_typed_rapidjson(bench_typed *t) {
    t->name = "rapidjson";
    t->notes = "decode: one Document reused, Parse<kParseFullPrecisionFlag>, FindMember per key, strings point "
               "into the document; encode: SAX Writer into a reused StringBuffer (floats written as doubles)";
    t->create = create;
    t->destroy = destroy;
    t->release = release;
    scen_template_fill(t);
}
