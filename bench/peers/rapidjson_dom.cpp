/*
 * RapidJSON adapter: a fresh Document per parse (its MemoryPoolAllocator
 * frees every chunk on Clear() in 1.1.0, so keeping one across parses buys
 * nothing), Parse<kParseFullPrecisionFlag>(dat, len): without that flag
 * RapidJSON may round doubles off by an ulp and fail the round-trip check.
 * Strings are copied into the document (no in-situ parsing).
 * Output: Writer / PrettyWriter (indent 2) into a new StringBuffer.
 * Extraction: the same parse, then FindMember for each of the four fields
 * of every status.
 */
#include "../peers.h"

#include <rapidjson/document.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <new>

namespace {

struct state {
    rapidjson::Document *doc = nullptr;
};

void *create() { return new (std::nothrow) state(); }
void destroy(void *st) {
    state *s = static_cast<state *>(st);
    delete s->doc;
    delete s;
}

bool parse(void *st, const char *dat, size_t len) {
    state *s = static_cast<state *>(st);
    s->doc = new (std::nothrow) rapidjson::Document();
    if (!s->doc) return false;
    s->doc->Parse<rapidjson::kParseFullPrecisionFlag>(dat, len);
    return !s->doc->HasParseError();
}

void free_doc(void *st) {
    state *s = static_cast<state *>(st);
    delete s->doc;
    s->doc = nullptr;
}

bool walk_val(const rapidjson::Value &v, bench_stats *out) {
    switch (v.GetType()) {
    case rapidjson::kNullType: out->nulls++; return true;
    case rapidjson::kFalseType: out->falses++; return true;
    case rapidjson::kTrueType: out->trues++; return true;
    case rapidjson::kNumberType:
        out->numbers++;
        if (v.IsUint64()) {
            out->integers++;
            out->int_sum += v.GetUint64();
        } else if (v.IsInt64()) {
            out->integers++;
            out->int_sum += static_cast<uint64_t>(v.GetInt64());
        } else {
            out->reals++;
        }
        out->num_sum += v.GetDouble();
        return true;
    case rapidjson::kStringType:
        out->strings++;
        out->str_bytes += v.GetStringLength();
        return true;
    case rapidjson::kArrayType:
        out->arrays++;
        for (const rapidjson::Value &e : v.GetArray())
            if (!walk_val(e, out)) return false;
        return true;
    case rapidjson::kObjectType:
        out->objects++;
        for (const auto &m : v.GetObject()) {
            out->keys++;
            out->str_bytes += m.name.GetStringLength();
            if (!walk_val(m.value, out)) return false;
        }
        return true;
    }
    return false;
}

bool walk(void *st, bench_stats *out) {
    return walk_val(*static_cast<state *>(st)->doc, out);
}

bool write_text(void *st, bench_write_mode mode, bench_text *out) {
    state *s = static_cast<state *>(st);
    rapidjson::StringBuffer *sb = new (std::nothrow) rapidjson::StringBuffer();
    bool ok;
    if (!sb) return false;
    if (mode == BENCH_WRITE_PRETTY) {
        rapidjson::PrettyWriter<rapidjson::StringBuffer> w(*sb);
        w.SetIndent(' ', 2);
        ok = s->doc->Accept(w);
    } else {
        rapidjson::Writer<rapidjson::StringBuffer> w(*sb);
        ok = s->doc->Accept(w);
    }
    if (!ok) {
        delete sb;
        return false;
    }
    out->data = sb->GetString();
    out->len = sb->GetSize();
    out->priv = sb;
    return true;
}

void free_text(void *, bench_text *text) {
    delete static_cast<rapidjson::StringBuffer *>(text->priv);
}

/* The member `key` of `obj`, or nullptr. */
const rapidjson::Value *member(const rapidjson::Value &obj, const char *key) {
    if (!obj.IsObject()) return nullptr;
    rapidjson::Value::ConstMemberIterator it = obj.FindMember(key);
    return it == obj.MemberEnd() ? nullptr : &it->value;
}

bool extract_status(const rapidjson::Value &st, bench_extract *out) {
    const rapidjson::Value *id = member(st, "id"), *text = member(st, "text"), *user = member(st, "user");
    const rapidjson::Value *name = user ? member(*user, "screen_name") : nullptr;
    const rapidjson::Value *rts = member(st, "retweet_count");
    if (!id || !id->IsUint64() || !text || !text->IsString() || !name || !name->IsString() || !rts ||
        !rts->IsInt64())
        return false;
    bench_extract_add(out, id->GetUint64(), text->GetString(), text->GetStringLength(), name->GetString(),
                      name->GetStringLength(), rts->GetInt64());
    return true;
}

bool extract(void *, const char *dat, size_t len, bench_extract *out) {
    rapidjson::Document doc;
    doc.Parse<rapidjson::kParseFullPrecisionFlag>(dat, len);
    if (doc.HasParseError()) return false;
    const rapidjson::Value *arr = member(doc, "statuses");
    if (!arr || !arr->IsArray()) return false;
    for (const rapidjson::Value &st : arr->GetArray())
        if (!extract_status(st, out)) return false;
    return true;
}

// Token walk: the SAX Reader with a handler that counts what it is told.
struct walk_handler : rapidjson::BaseReaderHandler<rapidjson::UTF8<>, walk_handler> {
    bench_stats *out;
    explicit walk_handler(bench_stats *o) : out(o) {}
    bool integer(uint64_t bits, double v) {
        out->numbers++;
        out->integers++;
        out->int_sum += bits;
        out->num_sum += v;
        return true;
    }
    bool Null() { out->nulls++; return true; }
    bool Bool(bool b) { (b ? out->trues : out->falses)++; return true; }
    bool Int(int i) { return integer(static_cast<uint64_t>(static_cast<int64_t>(i)), i); }
    bool Uint(unsigned u) { return integer(u, u); }
    bool Int64(int64_t i) { return integer(static_cast<uint64_t>(i), static_cast<double>(i)); }
    bool Uint64(uint64_t u) { return integer(u, static_cast<double>(u)); }
    bool Double(double d) {
        out->numbers++;
        out->reals++;
        out->num_sum += d;
        return true;
    }
    bool String(const char *, rapidjson::SizeType len, bool) {
        out->strings++;
        out->str_bytes += len;
        return true;
    }
    bool Key(const char *, rapidjson::SizeType len, bool) {
        out->keys++;
        out->str_bytes += len;
        return true;
    }
    bool StartObject() { out->objects++; return true; }
    bool EndObject(rapidjson::SizeType) { return true; }
    bool StartArray() { out->arrays++; return true; }
    bool EndArray(rapidjson::SizeType) { return true; }
};

bool reader(void *, const char *dat, size_t len, bench_stats *out) {
    rapidjson::Reader rd;
    rapidjson::MemoryStream ms(dat, len);
    walk_handler h(out);
    return !rd.Parse<rapidjson::kParseFullPrecisionFlag>(ms, h).IsError();
}

} // namespace

extern "C" const bench_adapter bench_adapter_rapidjson = {
    "rapidjson", RAPIDJSON_VERSION_STRING,
    "new Document per parse, Parse<kParseFullPrecisionFlag>(dat, len) (exact doubles), "
    "strings copied; Writer / PrettyWriter(indent 2) into a new StringBuffer; "
    "extract: the same parse, then FindMember per field; "
    "reader: rapidjson::Reader (SAX) over a MemoryStream, kParseFullPrecisionFlag",
    0, create, destroy, parse, free_doc, walk, write_text, free_text, nullptr, extract, nullptr, reader,
};
