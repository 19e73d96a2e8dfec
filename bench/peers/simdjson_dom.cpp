/*
 * simdjson DOM adapter: one dom::parser reused for every parse, the
 * documented fast way. The input is a plain buffer without simdjson's
 * padding, so parse() is called with realloc_if_needed = true: simdjson
 * copies the input into a padded buffer the parser keeps (allocated once,
 * memcpy per parse). That copy is timed, as tyjson's own input copy is.
 * A padded_string per parse would add one malloc/free per parse on top.
 *
 * Freeing a document costs nothing: it lives in the parser until the next
 * parse. simdjson 3.0 has no pretty writer; minified output is
 * simdjson::to_string (its string_builder).
 *
 * Extraction is On-Demand, simdjson's way to read a few fields: an
 * ondemand::parser reused, iterating the driver's padded input in place
 * (no copy), the fields looked up in file order, each value read once.
 */
#include "../peers.h"

#include <simdjson.h>

#include <new>
#include <string>

namespace {

#define BENCH_STR2(x) #x
#define BENCH_STR(x) BENCH_STR2(x)

struct state {
    simdjson::dom::parser parser;
    simdjson::ondemand::parser od; /* extract */
    simdjson::dom::parser many;    /* ndjson: parse_many */
    simdjson::dom::element root;
    bool has_doc = false;
};

void *create() { return new (std::nothrow) state(); }
void destroy(void *st) { delete static_cast<state *>(st); }

bool parse(void *st, const char *dat, size_t len) {
    state *s = static_cast<state *>(st);
    simdjson::error_code err = s->parser.parse(dat, len, true).get(s->root);
    s->has_doc = !err;
    return s->has_doc;
}

void free_doc(void *st) { static_cast<state *>(st)->has_doc = false; }

bool walk_val(simdjson::dom::element v, bench_stats *out) {
    using simdjson::dom::element_type;
    switch (v.type()) {
    case element_type::NULL_VALUE: out->nulls++; return true;
    case element_type::BOOL:
        if (v.get_bool().value_unsafe()) out->trues++; else out->falses++;
        return true;
    case element_type::INT64: {
        int64_t i = v.get_int64().value_unsafe();
        out->numbers++;
        out->integers++;
        out->int_sum += static_cast<uint64_t>(i);
        out->num_sum += static_cast<double>(i);
        return true;
    }
    case element_type::UINT64: {
        uint64_t u = v.get_uint64().value_unsafe();
        out->numbers++;
        out->integers++;
        out->int_sum += u;
        out->num_sum += static_cast<double>(u);
        return true;
    }
    case element_type::DOUBLE:
        out->numbers++;
        out->reals++;
        out->num_sum += v.get_double().value_unsafe();
        return true;
    case element_type::STRING:
        out->strings++;
        out->str_bytes += v.get_string_length().value_unsafe();
        return true;
    case element_type::ARRAY: {
        /* a named copy: iterating value_unsafe() of the temporary result
         * would dangle */
        simdjson::dom::array arr = v.get_array().value_unsafe();
        out->arrays++;
        for (simdjson::dom::element e : arr)
            if (!walk_val(e, out)) return false;
        return true;
    }
    case element_type::OBJECT: {
        simdjson::dom::object obj = v.get_object().value_unsafe();
        out->objects++;
        for (simdjson::dom::key_value_pair kv : obj) {
            out->keys++;
            out->str_bytes += kv.key.size();
            if (!walk_val(kv.value, out)) return false;
        }
        return true;
    }
    }
    return false;
}

bool walk(void *st, bench_stats *out) {
    return walk_val(static_cast<state *>(st)->root, out);
}

bool write_text(void *st, bench_write_mode mode, bench_text *out) {
    if (mode != BENCH_WRITE_MINIFY) return false;
    std::string *text = new (std::nothrow) std::string();
    if (!text) return false;
    try {
        *text = simdjson::to_string(static_cast<state *>(st)->root);
    } catch (...) {
        delete text;
        return false;
    }
    out->data = text->data();
    out->len = text->size();
    out->priv = text;
    return true;
}

void free_text(void *, bench_text *text) { delete static_cast<std::string *>(text->priv); }

bool extract_status(simdjson::ondemand::object status, bench_extract *out) {
    uint64_t id;
    int64_t rts;
    std::string_view text, name;
    simdjson::ondemand::object user;
    if (status["id"].get_uint64().get(id) || status["text"].get_string().get(text) ||
        status["user"].get_object().get(user) || user["screen_name"].get_string().get(name) ||
        status["retweet_count"].get_int64().get(rts))
        return false;
    /* both strings live in the parser's string buffer until the next iterate */
    bench_extract_add(out, id, text.data(), text.size(), name.data(), name.size(), rts);
    return true;
}

bool extract(void *st, const char *dat, size_t len, bench_extract *out) {
    state *s = static_cast<state *>(st);
    simdjson::ondemand::document doc;
    simdjson::ondemand::array statuses;
    if (s->od.iterate(simdjson::padded_string_view(dat, len, len + BENCH_EXTRACT_PADDING)).get(doc) ||
        doc["statuses"].get_array().get(statuses))
        return false;
    for (auto elem : statuses) {
        simdjson::ondemand::object status;
        if (elem.get_object().get(status) || !extract_status(status, out)) return false;
    }
    return true;
}

/* NDJSON: parse_many over the padded input in place, 1 MiB batches (far
 * above the longest record), each record a dom::element. */
bool ndjson(void *st, const char *dat, size_t len, bench_extract *out) {
    state *s = static_cast<state *>(st);
    simdjson::dom::document_stream stream;
    if (s->many.parse_many(dat, len, size_t(1) << 20).get(stream)) return false;
    for (auto rec : stream) {
        simdjson::dom::element e;
        uint64_t id;
        int64_t rts;
        std::string_view text, name;
        if (rec.get(e) || e["id"].get_uint64().get(id) || e["text"].get_string().get(text) ||
            e["user"]["screen_name"].get_string().get(name) || e["retweet_count"].get_int64().get(rts))
            return false;
        bench_extract_add(out, id, text.data(), text.size(), name.data(), name.size(), rts);
    }
    return true;
}

} // namespace

extern "C" const char *bench_simdjson_kernel(void) {
    return simdjson::get_active_implementation()->name().c_str();
}

extern "C" const bench_adapter bench_adapter_simdjson = {
    "simdjson", BENCH_STR(SIMDJSON_VERSION),
    "dom::parser reused; parse(buf, len, realloc_if_needed=true) copies the "
    "input into the parser's padded buffer (timed); documents live in the parser "
    "(free is a no-op); no pretty writer in simdjson 3.0; no allocator hook; "
    "extract: On-Demand, ondemand::parser reused, iterate over the padded input in place; "
    "ndjson: dom::parser::parse_many over the padded input, 1 MiB batches",
    BENCH_CAP_NO_PRETTY, create, destroy, parse, free_doc, walk, write_text, free_text,
    nullptr, extract, ndjson,
};
