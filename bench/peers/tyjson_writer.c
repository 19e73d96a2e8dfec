/*
 * tyjson streaming writer adapter (JSON0 only): each message built field by
 * field through tyjson_writer (include/tyjson/writer.h), one writer reused
 * for the whole stream and pointed at the stream buffer per message
 * (tyjson_writer_reset_buf: no copy, no allocation). Keys are literals and
 * go through tyjson_writer_key_noesc; the message's strings are data and go
 * through tyjson_writer_string (escaped and UTF-8 checked), the ID through
 * tyjson_writer_int. The same bytes as tyjson's struct encoder
 * (peers/tyjson_typed.c), which is the row it is compared with.
 */
#include "../peers.h"
#include "scenario_types.h"

#include <tyjson.h>

#include <stdlib.h>
#include <string.h>

static void *create(void) { return tyjson_writer_new(NULL); }
static void destroy(void *st) { tyjson_writer_free((tyjson_writer *)st); }
static void release(void *st) { (void)st; }

#define KEY(w, lit) tyjson_writer_key_noesc((w), (lit), sizeof(lit) - 1)
#define STR(w, s) tyjson_writer_string((w), (s).ptr, (s).len)

static size_t j0_write(void *st, const void *msg, char *buf, size_t cap) {
    tyjson_writer *w = (tyjson_writer *)st;
    const j0_message *m = (const j0_message *)msg;
    size_t len;
    tyjson_writer_reset_buf(w, buf, cap);
    tyjson_writer_begin_object(w);
    KEY(w, "ID");
    tyjson_writer_int(w, m->id);
    KEY(w, "Method");
    STR(w, m->method);
    KEY(w, "Message");
    STR(w, m->message);
    KEY(w, "Property");
    tyjson_writer_begin_object(w);
    KEY(w, "Key");
    STR(w, m->property.key);
    KEY(w, "Value");
    STR(w, m->property.value);
    tyjson_writer_end_object(w);
    KEY(w, "Childs");
    tyjson_writer_begin_array(w);
    for (int i = 0; i < 2; i++) {
        tyjson_writer_begin_object(w);
        KEY(w, "ID");
        STR(w, m->childs[i].id);
        KEY(w, "Name");
        STR(w, m->childs[i].name);
        tyjson_writer_end_object(w);
    }
    tyjson_writer_end_array(w);
    tyjson_writer_end_object(w);
    /* errors are sticky: one check per message */
    if (tyjson_writer_finish(w, &len) != TYJSON_OK) return 0;
    return len;
}

void bench_typed_tyjson_writer(bench_typed *t) {
    t->name = "tyjson-writer";
    t->notes = "tyjson's streaming writer (tyjson_writer): JSON0 built field by field, the writer reset "
               "onto the stream buffer per message (tyjson_writer_reset_buf); literal keys by "
               "tyjson_writer_key_noesc, strings escaped and checked; JSON0 only";
    t->create = create;
    t->destroy = destroy;
    t->release = release;
    t->j0_write = j0_write;
    t->na_default = "streaming writer: JSON0 only";
}
