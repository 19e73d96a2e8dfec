/*
 * cJSON adapter: cJSON_ParseWithLength, cJSON_PrintUnformatted and
 * cJSON_Print (pretty, indented with tabs: cJSON cannot choose).
 * cJSON keeps every number as a double, so integers beyond 2^53 lose digits
 * and integers cannot be told from reals; it prints a double with 15 digits
 * when they read back within its epsilon, which can be 1 ulp off:
 * BENCH_CAP_LOSSY_NUMBERS.
 * Memory is counted through cJSON_InitHooks (a process-wide setting, put
 * back to malloc/free right after).
 */
#include "../peers.h"

#include <cjson/cJSON.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct state {
    cJSON *root;
} state;

static void *create(void) { return calloc(1, sizeof(state)); }
static void destroy(void *st) { free(st); }

static bool parse(void *st, const char *dat, size_t len) {
    state *s = st;
    s->root = cJSON_ParseWithLength(dat, len);
    return s->root != NULL;
}

static void free_doc(void *st) {
    state *s = st;
    cJSON_Delete(s->root);
    s->root = NULL;
}

static bool walk_val(const cJSON *v, bench_stats *out) {
    const cJSON *c;
    switch (v->type & 0xFF) {
    case cJSON_NULL: out->nulls++; return true;
    case cJSON_False: out->falses++; return true;
    case cJSON_True: out->trues++; return true;
    case cJSON_Number:
        out->numbers++;
        out->num_sum += v->valuedouble;
        return true;
    case cJSON_String:
        out->strings++;
        out->str_bytes += strlen(v->valuestring);
        return true;
    case cJSON_Array:
        out->arrays++;
        for (c = v->child; c; c = c->next)
            if (!walk_val(c, out)) return false;
        return true;
    case cJSON_Object:
        out->objects++;
        for (c = v->child; c; c = c->next) {
            out->keys++;
            out->str_bytes += strlen(c->string);
            if (!walk_val(c, out)) return false;
        }
        return true;
    default: return false;
    }
}

static bool walk(void *st, bench_stats *out) {
    state *s = st;
    return walk_val(s->root, out);
}

static bool write_text(void *st, bench_write_mode mode, bench_text *out) {
    state *s = st;
    char *text = mode == BENCH_WRITE_PRETTY ? cJSON_Print(s->root) : cJSON_PrintUnformatted(s->root);
    if (!text) return false;
    out->data = text;
    out->len = strlen(text);
    out->priv = text;
    return true;
}

static void free_text(void *st, bench_text *text) {
    (void)st;
    cJSON_free(text->priv);
}

/* cJSON's hooks take no context: the counter is a file-level variable. */
static bench_counter counter;
static void *cnt_malloc(size_t size) { return bench_counter_malloc(&counter, size); }
static void cnt_free(void *ptr) { bench_counter_free(&counter, ptr); }

static bool measure_mem(const char *dat, size_t len, bench_mem *out) {
    cJSON_Hooks hooks;
    cJSON *root;
    bool ok = false;
    bench_counter_reset(&counter);
    hooks.malloc_fn = cnt_malloc;
    hooks.free_fn = cnt_free;
    cJSON_InitHooks(&hooks);
    root = cJSON_ParseWithLength(dat, len);
    if (root) {
        out->held = counter.live;
        out->peak = counter.peak;
        out->allocs = counter.allocs;
        cJSON_Delete(root);
        ok = counter.live == 0;
    }
    cJSON_InitHooks(NULL);
    return ok;
}

#define BENCH_STR2(x) #x
#define BENCH_STR(x) BENCH_STR2(x)

const bench_adapter bench_adapter_cjson = {
    "cjson", BENCH_STR(CJSON_VERSION_MAJOR) "." BENCH_STR(CJSON_VERSION_MINOR) "." BENCH_STR(CJSON_VERSION_PATCH),
    "cJSON_ParseWithLength; PrintUnformatted / Print (pretty uses tabs); "
    "numbers are doubles: integers > 2^53 lose digits, printed doubles may be 1 ulp off "
    "(checked within 2 ulp)",
    BENCH_CAP_LOSSY_NUMBERS, create, destroy, parse, free_doc, walk, write_text, free_text,
    measure_mem,
};
