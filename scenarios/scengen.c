/*
 * scengen.c - see scengen.h. The shapes, counts and fixed values come from
 * ../shared/scenarios/SCENARIOS.md; the free texts are made up here from
 * small word lists and a seeded PRNG, sized to the lengths SCENARIOS.md
 * (or the shared file) gives, so that every file has the shared file's size.
 */
#include "scengen.h"

#include "calendar.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ----------------------------------------------------------------------------
 * MARK: - Files
 * ------------------------------------------------------------------------- */
static const scen_file_info files[SF_COUNT] = {
    [SF_SIMPLE_POJO] = {"kissjson/simple_pojo.json", 52, SCEN_EXACT},
    [SF_NESTED_POJO] = {"kissjson/nested_pojo.json", 78, SCEN_EXACT},
    [SF_DATE_POJO] = {"kissjson/date_pojo.json", 59, SCEN_EXACT},
    [SF_POJO_LIST_100] = {"kissjson/pojo_list_100.json", 5491, SCEN_EXACT},
    [SF_MAP_MIXED] = {"kissjson/map_mixed.json", 61, SCEN_EXACT},
    [SF_ESCAPE_STRING] = {"kissjson/escape_string.json", 299, SCEN_EXACT},
    [SF_PHOTO_ALBUM] = {"photoalbum/photo_album_200.json", 164593, SCEN_SAME_SIZE},
    [SF_KUDOS_SMALL] = {"kudos/small.json", 8234, SCEN_SAME_SIZE},
    [SF_KUDOS_MEDIUM] = {"kudos/medium.json", 76468, SCEN_SAME_SIZE},
    [SF_KUDOS_LARGE] = {"kudos/large.json", 235661, SCEN_SAME_SIZE},
    [SF_BOON_SIMPLE] = {"boon/simple.json", 182, SCEN_SAME_SIZE},
    [SF_BOON_MEDIUM] = {"boon/medium.json", 892, SCEN_SAME_SIZE},
    [SF_BOON_COMPLEX] = {"boon/complex.json", 21176, SCEN_SAME_SIZE},
    [SF_J0_MESSAGE_0] = {"json0/message_0.json", 164, SCEN_EXACT},
    [SF_J0_MESSAGE_LAST] = {"json0/message_1048575.json", 170, SCEN_EXACT},
    [SF_J0_HOIAN] = {"json0/hoian.json", 290, SCEN_EXACT},
    [SF_J0_ENTITY_NESTED] = {"json0/jmh_entity_nested.json", 359, SCEN_EXACT},
    [SF_J0_ENTITY_STRINGIFIED] = {"json0/jmh_entity_stringified.json", 373, SCEN_EXACT},
};

const scen_file_info *scen_file_get(scen_file f) {
    return (unsigned)f < SF_COUNT ? &files[f] : NULL;
}

/* ----------------------------------------------------------------------------
 * MARK: - Arena (all generated values live in one)
 * ------------------------------------------------------------------------- */
typedef struct blk {
    struct blk *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
} blk;

typedef struct arena {
    blk *head;
    bool oom;
} arena;

static void *aalloc(arena *a, size_t size) {
    size_t need = (size + 15) & ~(size_t)15;
    if (!a->head || a->head->cap - a->head->used < need) {
        size_t cap = need > 65536 ? need : 65536;
        blk *b = malloc(sizeof(blk) + cap);
        if (!b) {
            a->oom = true;
            return NULL;
        }
        b->next = a->head;
        b->used = 0;
        b->cap = cap;
        a->head = b;
    }
    void *p = a->head->data + a->head->used;
    a->head->used += need;
    memset(p, 0, need);
    return p;
}

static void afree(arena *a) {
    blk *b = a->head;
    while (b) {
        blk *next = b->next;
        free(b);
        b = next;
    }
    a->head = NULL;
}

static jstr astr(arena *a, const char *s, size_t len) {
    jstr out = {"", 0};
    char *p = aalloc(a, len + 1);
    if (!p) return out;
    memcpy(p, s, len);
    p[len] = '\0';
    out.ptr = p;
    out.len = len;
    return out;
}

static jstr acstr(arena *a, const char *s) { return astr(a, s, strlen(s)); }

static jstr afmt(arena *a, const char *fmt, ...) {
    char buf[512];
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    if (n < 0) n = 0;
    if ((size_t)n >= sizeof(buf)) n = (int)sizeof(buf) - 1;
    return astr(a, buf, (size_t)n);
}

/* ----------------------------------------------------------------------------
 * MARK: - PRNG and text pieces
 * ------------------------------------------------------------------------- */
typedef struct rng {
    uint64_t s;
} rng;

static uint64_t next(rng *r) { /* splitmix64 */
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* RNG_ORDER: C leaves the order of a call's arguments unspecified, so no
 * call takes two draws as arguments: they are drawn into locals first, last
 * argument first (the order the pinned inputs were made with, by gcc), so
 * every compiler makes the same bytes (test_scenario_gen pins them). */
static unsigned below(rng *r, unsigned n) { return (unsigned)(next(r) % n); }
static int between(rng *r, int lo, int hi) { return lo + (int)below(r, (unsigned)(hi - lo + 1)); }

static void hex_into(rng *r, char *out, size_t n) {
    static const char digits[] = "0123456789abcdef";
    size_t i;
    for (i = 0; i < n; i++) out[i] = digits[below(r, 16)];
    out[n] = '\0';
}

static jstr hex_str(arena *a, rng *r, size_t n) {
    char buf[64];
    hex_into(r, buf, n);
    return astr(a, buf, n);
}

static jstr uuid_str(arena *a, rng *r) {
    char b[40];
    hex_into(r, b, 36);
    b[8] = b[13] = b[18] = b[23] = '-';
    b[14] = '4';
    return astr(a, b, 36);
}

/* A growable byte string for building texts. */
typedef struct sbuf {
    char *p;
    size_t len, cap;
    bool oom;
} sbuf;

static void sb_put(sbuf *b, const char *s, size_t n) {
    if (b->oom) return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        char *p;
        while (cap < b->len + n + 1) cap *= 2;
        p = realloc(b->p, cap);
        if (!p) {
            b->oom = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

static void sb_puts(sbuf *b, const char *s) { sb_put(b, s, strlen(s)); }
static void sb_putc(sbuf *b, char c) { sb_put(b, &c, 1); }

static const char *const lorem[] = {
    "lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit", "sed", "do",
    "eiusmod", "tempor", "incididunt", "ut", "labore", "et", "dolore", "magna", "aliqua", "enim",
    "ad", "minim", "veniam", "quis", "nostrud", "exercitation", "ullamco", "laboris", "nisi",
    "aliquip", "ex", "ea", "commodo", "consequat", "duis", "aute", "irure", "in", "reprehenderit",
    "voluptate", "velit", "esse", "cillum", "fugiat", "nulla", "pariatur", "excepteur", "sint",
    "occaecat", "cupidatat", "non", "proident", "sunt", "culpa", "qui", "officia", "deserunt",
    "mollit", "anim", "id", "est", "laborum",
};
#define N_LOREM (sizeof(lorem) / sizeof(lorem[0]))

/* Lorem sentences of exactly `len` ASCII characters, ending in '.'. */
static void lorem_text(sbuf *b, rng *r, size_t len) {
    size_t start = b->len, words = 0;
    bool cap = true;
    if (len == 0) return;
    while (b->len - start < len) {
        const char *w = lorem[below(r, N_LOREM)];
        if (words) sb_putc(b, ' ');
        if (cap) {
            char c = (char)(w[0] - 'a' + 'A');
            sb_putc(b, c);
            sb_puts(b, w + 1);
        } else {
            sb_puts(b, w);
        }
        cap = false;
        words++;
        if (below(r, 9) == 0) {
            sb_putc(b, '.');
            cap = true;
        }
    }
    if (b->oom) return;
    b->len = start + len; /* cut to the length, end with a full stop */
    b->p[b->len - 1] = '.';
    if (len > 1 && b->p[b->len - 2] == ' ') b->p[b->len - 2] = 'x';
    b->p[b->len] = '\0';
}

static jstr lorem_str(arena *a, rng *r, size_t len, const char *tail) {
    sbuf b = {0};
    jstr s;
    size_t tl = strlen(tail);
    lorem_text(&b, r, len - tl);
    sb_puts(&b, tail);
    s = b.oom ? astr(a, "", 0) : astr(a, b.p, b.len);
    if (b.oom) a->oom = true;
    free(b.p);
    return s;
}

/* ----------------------------------------------------------------------------
 * MARK: - Czech-like text with exact character and byte counts
 * ------------------------------------------------------------------------- */
/* Plain letter -> the same letter with a diacritic (all 2-byte in UTF-8). */
static const struct {
    char plain;
    uint32_t marked;
} marks[] = {
    {'a', 0xE1}, {'e', 0x11B}, {'i', 0xED}, {'o', 0xF3}, {'u', 0x16F}, {'y', 0xFD}, {'c', 0x10D},
    {'d', 0x10F}, {'n', 0x148}, {'r', 0x159}, {'s', 0x161}, {'t', 0x165}, {'z', 0x17E},
};
#define N_MARKS (sizeof(marks) / sizeof(marks[0]))

static uint32_t mark_of(uint32_t c) {
    size_t i;
    for (i = 0; i < N_MARKS; i++)
        if ((uint32_t)(unsigned char)marks[i].plain == c) return marks[i].marked;
    return 0;
}

static uint32_t plain_of(uint32_t c) {
    size_t i;
    for (i = 0; i < N_MARKS; i++)
        if (marks[i].marked == c) return (uint32_t)(unsigned char)marks[i].plain;
    return 0;
}

static size_t put_utf8(char *out, uint32_t c) {
    if (c < 0x80) {
        out[0] = (char)c;
        return 1;
    }
    if (c < 0x800) {
        out[0] = (char)(0xC0 | (c >> 6));
        out[1] = (char)(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        out[0] = (char)(0xE0 | (c >> 12));
        out[1] = (char)(0x80 | ((c >> 6) & 0x3F));
        out[2] = (char)(0x80 | (c & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (c >> 18));
    out[1] = (char)(0x80 | ((c >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((c >> 6) & 0x3F));
    out[3] = (char)(0x80 | (c & 0x3F));
    return 4;
}

/* `chars` code points of which exactly `two_byte` are 2-byte letters:
 * sentences of made-up words, then letters marked or unmarked, spread
 * over the text, until the count is right. */
static jstr czech_text(arena *a, rng *r, size_t chars, size_t two_byte) {
    static const char *const onsets[] = {"b", "br", "c", "ch", "d", "dl", "f", "g", "gl", "h", "k",
                                         "kl", "kr", "l", "m", "n", "p", "pl", "pr", "r", "s", "sl",
                                         "st", "t", "tr", "v", "z", "zk", "", ""};
    static const char *const codas[] = {"", "", "", "k", "l", "n", "s", "t", "ch", "m", "r"};
    static const char vowels[] = "aeiouyaeiou";
    uint32_t *cp = malloc((chars + 64) * sizeof(uint32_t));
    char *utf;
    size_t n = 0, i, marked = 0, step, pos, len = 0;
    bool cap = true;
    jstr out = {"", 0};
    if (!cp) {
        a->oom = true;
        return out;
    }
    while (n < chars) {
        int syl = between(r, 1, 3), k;
        if (n) cp[n++] = ' ';
        for (k = 0; k < syl && n < chars + 32; k++) {
            const char *o = onsets[below(r, sizeof(onsets) / sizeof(onsets[0]))];
            const char *c = codas[below(r, sizeof(codas) / sizeof(codas[0]))];
            for (; *o; o++) cp[n++] = (uint32_t)(unsigned char)*o;
            cp[n++] = (uint32_t)(unsigned char)vowels[below(r, sizeof(vowels) - 1)];
            for (; *c; c++) cp[n++] = (uint32_t)(unsigned char)*c;
        }
        if (cap) {
            size_t w = n;
            while (w > 0 && cp[w - 1] != ' ') w--;
            if (cp[w] >= 'a' && cp[w] <= 'z') cp[w] -= 32;
        }
        cap = false;
        switch (below(r, 12)) {
        case 0: case 1: cp[n++] = '.'; cap = true; break;
        case 2: cp[n++] = ','; break;
        case 3: if (below(r, 4) == 0) { cp[n++] = '?'; cap = true; } break;
        default: break;
        }
    }
    n = chars;
    if (cp[n - 2] == ' ') cp[n - 2] = 'a';
    cp[n - 1] = '.';
    /* mark or unmark letters, visiting them in a fixed scattered order */
    for (i = 0; i < n; i++) marked += cp[i] > 0x7F;
    step = 7;
    while (n % step == 0) step++;
    for (pos = 0, i = 0; i < n && marked != two_byte; i++, pos = (pos + step) % n) {
        uint32_t to = marked < two_byte ? mark_of(cp[pos]) : plain_of(cp[pos]);
        if (!to) continue;
        cp[pos] = to;
        if (marked < two_byte) marked++;
        else marked--;
    }
    utf = malloc(n * 4 + 1);
    if (!utf) {
        free(cp);
        a->oom = true;
        return out;
    }
    for (i = 0; i < n; i++) len += put_utf8(utf + len, cp[i]);
    out = astr(a, utf, len);
    free(utf);
    free(cp);
    return out;
}

/* ----------------------------------------------------------------------------
 * MARK: - Writer (compact, or pretty as JSON.stringify(v, null, 2))
 * ------------------------------------------------------------------------- */
typedef struct out {
    sbuf b;
    bool pretty;
    int indent; /* spaces per level when pretty; 0 means 2 */
    int depth;
    bool after_key;
    bool first[64];
} out;

static void newline(out *o) {
    int i, n = o->depth * (o->indent ? o->indent : 2);
    sb_putc(&o->b, '\n');
    for (i = 0; i < n; i++) sb_putc(&o->b, ' ');
}

static void item(out *o) {
    if (o->after_key) {
        o->after_key = false;
        return;
    }
    if (o->depth == 0) return;
    if (!o->first[o->depth]) sb_putc(&o->b, ',');
    o->first[o->depth] = false;
    if (o->pretty) newline(o);
}

static void open_(out *o, char c) {
    item(o);
    sb_putc(&o->b, c);
    o->depth++;
    o->first[o->depth] = true;
}

static void close_(out *o, char c) {
    bool empty = o->first[o->depth];
    o->depth--;
    if (o->pretty && !empty) newline(o);
    sb_putc(&o->b, c);
}

/* Escapes as SCENARIOS.md says: \b \t \n \f \r, other controls \u00xx,
 * '"' and '\\'; everything else (DEL, non-ASCII, '/') raw. */
static void raw_str(sbuf *b, const char *s, size_t len) {
    size_t i;
    sb_putc(b, '"');
    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        char esc[8];
        switch (c) {
        case '"': sb_put(b, "\\\"", 2); break;
        case '\\': sb_put(b, "\\\\", 2); break;
        case '\b': sb_put(b, "\\b", 2); break;
        case '\t': sb_put(b, "\\t", 2); break;
        case '\n': sb_put(b, "\\n", 2); break;
        case '\f': sb_put(b, "\\f", 2); break;
        case '\r': sb_put(b, "\\r", 2); break;
        default:
            if (c < 0x20) {
                snprintf(esc, sizeof(esc), "\\u%04x", c);
                sb_put(b, esc, 6);
            } else {
                sb_putc(b, (char)c);
            }
        }
    }
    sb_putc(b, '"');
}

static void key(out *o, const char *k) {
    item(o);
    raw_str(&o->b, k, strlen(k));
    sb_put(&o->b, o->pretty ? ": " : ":", o->pretty ? 2 : 1);
    o->after_key = true;
}

static void w_str(out *o, jstr s) {
    item(o);
    raw_str(&o->b, s.ptr, s.len);
}

static void w_nstr(out *o, jstr s) { /* NULL pointer: null */
    item(o);
    if (s.ptr) raw_str(&o->b, s.ptr, s.len);
    else sb_puts(&o->b, "null");
}

static void w_int(out *o, int64_t v) {
    char buf[24];
    item(o);
    snprintf(buf, sizeof(buf), "%lld", (long long)v);
    sb_puts(&o->b, buf);
}

static void w_bool(out *o, bool v) {
    item(o);
    sb_puts(&o->b, v ? "true" : "false");
}

static void w_null(out *o) {
    item(o);
    sb_puts(&o->b, "null");
}

/* The fewest decimals (at least one) that read back, as a double or as a
 * float: what Java writes for the magnitudes used here (1e-3 .. 1e7). */
static void w_num(out *o, double v, bool as_float) {
    char buf[400];
    int dec;
    for (dec = 1; dec <= 17; dec++) {
        snprintf(buf, sizeof(buf), "%.*f", dec, v);
        if (as_float ? (float)strtod(buf, NULL) == (float)v : strtod(buf, NULL) == v) break;
    }
    if (dec > 17) snprintf(buf, sizeof(buf), "%.17g", v);
    item(o);
    sb_puts(&o->b, buf);
}

/* "YYYY-MM-DDTHH:MM:SSZ" from epoch milliseconds. */
static void w_instant(out *o, int64_t ms) {
    char buf[40];
    int64_t days = ms / 86400000, y, rem;
    unsigned m, d;
    if (ms % 86400000 < 0) days--;
    rem = ms - days * 86400000;
    scen_civil_from_days(days, &y, &m, &d);
    snprintf(buf, sizeof(buf), "%04lld-%02u-%02uT%02d:%02d:%02dZ", (long long)y, m, d,
             (int)(rem / 3600000), (int)(rem / 60000 % 60), (int)(rem / 1000 % 60));
    item(o);
    raw_str(&o->b, buf, strlen(buf));
}

static void w_date(out *o, const iso_date *dt) {
    char buf[24];
    snprintf(buf, sizeof(buf), "%04d-%02u-%02u", (int)dt->year, (unsigned)dt->month, (unsigned)dt->day);
    item(o);
    raw_str(&o->b, buf, strlen(buf));
}

static void w_jv(out *o, const jv *v) {
    size_t i;
    switch (v->kind) {
    case JV_NULL: w_null(o); break;
    case JV_FALSE: w_bool(o, false); break;
    case JV_TRUE: w_bool(o, true); break;
    case JV_INT: w_int(o, v->u.i); break;
    case JV_DOUBLE: w_num(o, v->u.d, false); break;
    case JV_STRING: w_str(o, v->u.s); break;
    case JV_ARRAY:
        open_(o, '[');
        for (i = 0; i < v->u.arr.n; i++) w_jv(o, &v->u.arr.items[i]);
        close_(o, ']');
        break;
    case JV_OBJECT:
        open_(o, '{');
        for (i = 0; i < v->u.obj.n; i++) {
            item(o);
            raw_str(&o->b, v->u.obj.members[i].key.ptr, v->u.obj.members[i].key.len);
            sb_put(&o->b, o->pretty ? ": " : ":", o->pretty ? 2 : 1);
            o->after_key = true;
            w_jv(o, v->u.obj.members[i].value);
        }
        close_(o, '}');
        break;
    }
}

/* ----------------------------------------------------------------------------
 * MARK: - One writer for the typed scenarios
 * The binding descriptors of scenario_types.c give every member's key, kind,
 * offset and shape, in file order: one walk over them writes a value the way
 * the scenario files are written. It uses this file's emitter, not the
 * binding encoder, which the benchmark measures and checks against these
 * bytes. Only the kinds the scenarios use are handled.
 * ------------------------------------------------------------------------- */
static void write_struct(out *o, const tyjson_struct *t, const void *p);

static int64_t load_int(const char *m, tyjson_kind k) {
    switch (k) {
    case TYJSON_K_I8: return *(const int8_t *)m;
    case TYJSON_K_I16: return *(const int16_t *)m;
    case TYJSON_K_I32: return *(const int32_t *)m;
    case TYJSON_K_U8: return *(const uint8_t *)m;
    case TYJSON_K_U16: return *(const uint16_t *)m;
    case TYJSON_K_U32: return *(const uint32_t *)m;
    default: return *(const int64_t *)m;
    }
}

/* One member (or one element of an array member) at m. */
static void write_one(out *o, const tyjson_field *f, const char *m) {
    switch (f->kind) {
    case TYJSON_K_BOOL: w_bool(o, *(const bool *)m); break;
    case TYJSON_K_F32: w_num(o, *(const float *)m, true); break;
    case TYJSON_K_F64: w_num(o, *(const double *)m, false); break;
    case TYJSON_K_STR:
        if (f->flags & TYJSON_F_NULLABLE) w_nstr(o, *(const jstr *)(const void *)m);
        else w_str(o, *(const jstr *)(const void *)m);
        break;
    case TYJSON_K_STRUCT: write_struct(o, f->type, m); break;
    case TYJSON_K_PTR:
        if (*(const void *const *)(const void *)m) write_struct(o, f->type, *(const void *const *)(const void *)m);
        else w_null(o);
        break;
    case TYJSON_K_DATE: w_date(o, (const iso_date *)(const void *)m); break;
    case TYJSON_K_EPOCH_MS:
        if (f->flags & TYJSON_F_EPOCH_NUMBER) w_int(o, *(const int64_t *)m);
        else w_instant(o, *(const int64_t *)m);
        break;
    default: w_int(o, load_int(m, f->kind)); break;
    }
}

static void write_member(out *o, const tyjson_field *f, const char *base) {
    const char *m = base + f->offset;
    size_t n, i;
    if (f->shape == TYJSON_SHAPE_ONE) {
        write_one(o, f, m);
        return;
    }
    n = f->count_at ? *(const size_t *)(const void *)(base + f->count_at - 1) : f->capacity;
    if (f->shape == TYJSON_SHAPE_DYN) m = *(const char *const *)(const void *)m; /* the array */
    open_(o, '[');
    for (i = 0; i < n; i++) write_one(o, f, m + i * f->size);
    close_(o, ']');
}

/* A struct as an object of its members in descriptor order; a
 * TYJSON_T_ARRAY wrapper as its one array member. */
static void write_struct(out *o, const tyjson_struct *t, const void *p) {
    size_t i;
    if (t->flags & TYJSON_T_ARRAY) {
        write_member(o, &t->fields[0], p);
        return;
    }
    open_(o, '{');
    for (i = 0; i < t->n_fields; i++) {
        const tyjson_field *f = &t->fields[i];
        /* OMIT_EMPTY is used on strings only */
        if ((f->flags & TYJSON_F_OMIT_EMPTY) && !((const jstr *)(const void *)((const char *)p + f->offset))->len)
            continue;
        key(o, f->name);
        write_member(o, f, p);
    }
    close_(o, '}');
}

/* ----------------------------------------------------------------------------
 * MARK: - (a) KissJson
 * ------------------------------------------------------------------------- */
static void build_kiss(scen_data *d, arena *a) {
    nested_pojo *inner = aalloc(a, sizeof(*inner));
    jv *tags, *vals;
    jv_member *mem;
    size_t i;
    char *esc;
    size_t n = 0;
    static const char tail[] = "unicode: \xC3\xA9\xC3\xA8\xC3\xAA \xE4\xB8\xAD\xE6\x96\x87 \xF0\x9F\x98\x80";

    d->simple.name = acstr(a, "Alice");
    d->simple.age = 30;
    d->simple.active = true;
    d->simple.score = 95.5;

    if (inner) {
        inner->name = acstr(a, "Inner");
        inner->value = 42;
        inner->nested = NULL;
    }
    d->nested.name = acstr(a, "Outer");
    d->nested.value = 99;
    d->nested.nested = inner;

    d->date.local_date.year = 2024;
    d->date.local_date.month = 6;
    d->date.local_date.day = 15;
    d->date.instant_epoch_ms = scen_days_from_civil(2024, 6, 15) * 86400000 + (10 * 3600 + 30 * 60) * 1000;

    d->list.n = 100;
    d->list.items = aalloc(a, 100 * sizeof(simple_pojo));
    for (i = 0; d->list.items && i < 100; i++) {
        simple_pojo *p = &d->list.items[i];
        p->name = afmt(a, "User%zu", i);
        p->age = (int32_t)(20 + i % 50);
        p->active = i % 2 == 0;
        p->score = 50.0 + (double)i;
    }

    /* {"name":"Alice","age":30,"active":true,"tags":["dev","java"]} */
    tags = aalloc(a, 2 * sizeof(jv));
    vals = aalloc(a, 4 * sizeof(jv));
    mem = aalloc(a, 4 * sizeof(jv_member));
    if (tags && vals && mem) {
        tags[0].kind = tags[1].kind = JV_STRING;
        tags[0].u.s = acstr(a, "dev");
        tags[1].u.s = acstr(a, "java");
        vals[0].kind = JV_STRING;
        vals[0].u.s = acstr(a, "Alice");
        vals[1].kind = JV_INT;
        vals[1].u.i = 30;
        vals[2].kind = JV_TRUE;
        vals[3].kind = JV_ARRAY;
        vals[3].u.arr.items = tags;
        vals[3].u.arr.n = 2;
        mem[0].key = acstr(a, "name");
        mem[1].key = acstr(a, "age");
        mem[2].key = acstr(a, "active");
        mem[3].key = acstr(a, "tags");
        for (i = 0; i < 4; i++) mem[i].value = &vals[i];
        d->map.kind = JV_OBJECT;
        d->map.u.obj.members = mem;
        d->map.u.obj.n = 4;
    }

    /* U+0000..U+007F, then the Unicode tail */
    esc = aalloc(a, 128 + sizeof(tail));
    if (esc) {
        for (i = 0; i < 128; i++) esc[n++] = (char)i;
        memcpy(esc + n, tail, sizeof(tail) - 1);
        n += sizeof(tail) - 1;
        d->esc.ptr = esc;
        d->esc.len = n;
    }
}

/* ----------------------------------------------------------------------------
 * MARK: - (b) PhotoAlbum
 * ------------------------------------------------------------------------- */
static const int64_t album_time_ms = 1332068400000LL;   /* 2012-03-18T11:00:00Z */
static const int64_t birth_date_ms = 56584306800000LL;  /* new Date(1863,1,1) */

static void build_album(scen_data *d, arena *a) {
    rng r = {0x5EED0001};
    pa_user owner;
    jstr photo_desc;
    size_t i;
    owner.login = acstr(a, "hacker");
    owner.first_name = acstr(a, "Nevil");
    owner.last_name = acstr(a, "Maskelyne");
    owner.email = acstr(a, "nevil.maskelyne@gmail.com");
    owner.age = 149;
    owner.birth_date_ms = birth_date_ms;

    d->album.name = acstr(a, "Generic album 1");
    d->album.description = czech_text(a, &r, 467, 546 - 467);
    d->album.owner = owner;
    d->album.photo_count = 200;
    d->album.created_ms = album_time_ms;
    d->album.modified_ms = album_time_ms;
    d->album.n_photos = 200;
    d->album.photos = aalloc(a, 200 * sizeof(pa_photo));
    photo_desc = czech_text(a, &r, 394, 456 - 394);
    for (i = 0; d->album.photos && i < 200; i++) {
        pa_photo *p = &d->album.photos[i];
        p->name = afmt(a, "Photo %zu", i + 1);
        p->description = photo_desc;
        p->width = 4000;
        p->height = 3000;
        p->horizontal = true;
        p->vertical = false;
        p->path = afmt(a, "/img/galleries/12345/photo_%zu.png", i + 1);
        p->rating = 3.67f;
        p->rating_count = 234;
        p->display_count = 2334;
        p->created_ms = album_time_ms;
        p->author = owner;
    }
}

/* ----------------------------------------------------------------------------
 * MARK: - (c) Kudos
 * ------------------------------------------------------------------------- */
static const char *const first_names[] = {
    "Lora", "Holden", "Perry", "Elise", "Lois", "Rita", "Mason", "Nadia", "Owen", "Tessa", "Ivan",
    "Greta", "Hugo", "Mabel", "Ruben", "Selma", "Victor", "Wanda", "Felix", "Joan", "Kurt", "Lena",
    "Boyd", "Clara", "Dewey", "Erin", "Floyd", "Hazel", "Irma", "Jasper",
};
static const char *const last_names[] = {
    "Peterson", "Huber", "Dawson", "Lester", "Carver", "Mills", "Norton", "Pruitt", "Quinn", "Rowe",
    "Salas", "Tate", "Underwood", "Vance", "Walsh", "Young", "Abbott", "Barr", "Cobb", "Dunn",
    "Ellis", "Foley", "Gamble", "Hardy", "Ingram", "Joyner", "Keller", "Lamb", "Moody", "Nash",
};
static const char *const streets[] = {"Jay Street", "Maple Avenue", "Quincy Court", "Harbor Lane",
                                      "Bristol Place", "Orchard Road", "Elm Terrace", "Dover Street"};
static const char *const cities[] = {"Nadine", "Glenville", "Rivera", "Stockton", "Fairmount",
                                     "Brookfield", "Lakeview", "Ashford"};
static const char *const states[] = {"Alaska", "Oregon", "Vermont", "Kansas", "Georgia", "Nevada",
                                     "Maine", "Utah"};
static const char *const weekdays[] = {"Thursday", "Friday", "Saturday", "Sunday", "Monday", "Tuesday",
                                       "Wednesday"}; /* 1970-01-01 was a Thursday */
static const char *const months[] = {"January", "February", "March", "April", "May", "June", "July",
                                     "August", "September", "October", "November", "December"};
static const char *const eyes[] = {"blue", "brown", "green"};
static const char *const fruits[] = {"apple", "banana", "strawberry"};
static const char *const tlds[] = {"tv", "com", "net", "org", "io", "biz", "us"};

static jstr company_name(arena *a, rng *r) {
    static const char *const parts[] = {"ZEN", "TIME", "QUA", "LEX", "OPT", "ICON", "BIO", "TRAX",
                                        "NET", "PLEX", "GEO", "VIA", "SOL", "MAX"};
    char buf[32];
    unsigned second = below(r, 14), first = below(r, 14); /* draw order: see RNG_ORDER */
    snprintf(buf, sizeof(buf), "%s%s", parts[first], parts[second]);
    return acstr(a, buf);
}

static jstr lower_copy(arena *a, jstr s) {
    jstr out = astr(a, s.ptr, s.len);
    size_t i;
    for (i = 0; i < out.len; i++)
        if (out.ptr[i] >= 'A' && out.ptr[i] <= 'Z') ((char *)out.ptr)[i] = (char)(out.ptr[i] + 32);
    return out;
}

static void build_user(kr_user *u, arena *a, uint64_t seed, int index, size_t n_images, size_t about_len) {
    rng ur = {seed + (uint64_t)index * 7919}, ar = {seed ^ ((uint64_t)index << 32)};
    rng *r = &ur;
    const char *first = first_names[below(r, 30)], *last = last_names[below(r, 30)];
    jstr company = company_name(a, r), lc = lower_copy(a, company);
    int64_t day = scen_days_from_civil(2014, 1, 1) + below(r, 365);
    int64_t y;
    unsigned m, dd, hour = below(r, 24), minute = below(r, 60);
    int micro;
    unsigned k[5]; /* draws of one formatted text, in RNG_ORDER */
    size_t i;

    u->id = hex_str(a, r, 24);
    u->index = index;
    u->guid = uuid_str(a, r);
    u->is_active = below(r, 2) != 0;
    k[2] = below(r, 100), k[1] = below(r, 1000), k[0] = below(r, 3);
    u->balance = afmt(a, "$%u,%03u.%02u", 1 + k[0], k[1], k[2]);
    u->picture = acstr(a, "http://placehold.it/32x32");
    u->age = between(r, 20, 40);
    u->eye_color = acstr(a, eyes[below(r, 3)]);
    u->name.first = acstr(a, first);
    u->name.last = acstr(a, last);
    u->company = company;
    u->email = afmt(a, "%s.%s@%s.%s", first, last, lc.ptr, tlds[below(r, 7)]);
    u->email = lower_copy(a, u->email);
    k[2] = below(r, 10000), k[1] = below(r, 900), k[0] = below(r, 200);
    u->phone = afmt(a, "+1 (%03u) %03u-%04u", 800 + k[0], 100 + k[1], k[2]);
    k[4] = below(r, 9000), k[3] = below(r, 8), k[2] = below(r, 8), k[1] = below(r, 8), k[0] = below(r, 900);
    u->address = afmt(a, "%u %s, %s, %s, %u", 100 + k[0], streets[k[1]], cities[k[2]], states[k[3]], 1000 + k[4]);
    u->about = lorem_str(a, &ar, about_len, "\r\n"); /* own stream: its length may change */
    scen_civil_from_days(day, &y, &m, &dd);
    u->registered = afmt(a, "%s, %s %u, %lld %u:%02u %s", weekdays[((day % 7) + 7) % 7], months[m - 1], dd,
                         (long long)y, hour % 12 ? hour % 12 : 12, minute, hour < 12 ? "AM" : "PM");
    micro = between(r, -90000000, 90000000);
    if (micro % 1000000 == 0) micro++;
    u->latitude = micro / 1e6;
    micro = between(r, -180000000, 180000000);
    if (micro % 1000000 == 0) micro++;
    u->longitude = micro / 1e6;
    u->n_tags = 7;
    u->tags = aalloc(a, 7 * sizeof(jstr));
    for (i = 0; u->tags && i < 7; i++) u->tags[i] = acstr(a, lorem[below(r, N_LOREM)]);
    u->n_range = 10;
    u->range = aalloc(a, 10 * sizeof(int32_t));
    for (i = 0; u->range && i < 10; i++) u->range[i] = (int32_t)i;
    u->n_friends = 3;
    u->friends = aalloc(a, 3 * sizeof(kr_friend));
    for (i = 0; u->friends && i < 3; i++) {
        u->friends[i].id = (int32_t)i;
        k[1] = below(r, 30), k[0] = below(r, 30);
        u->friends[i].name = afmt(a, "%s %s", first_names[k[0]], last_names[k[1]]);
    }
    u->n_images = n_images;
    u->images = aalloc(a, n_images * sizeof(kr_image));
    for (i = 0; u->images && i < n_images; i++) {
        kr_image *im = &u->images[i];
        jstr uuid = uuid_str(a, r);
        im->id = hex_str(a, r, 24);
        im->format = acstr(a, "<ReferenceError: png is not defined>");
        im->url = afmt(a, "http://ourimageserver/%s", uuid.ptr);
        im->description = lorem_str(a, r, (size_t)between(r, 40, 92), "");
    }
    u->greeting = afmt(a, "Hello, %s! You have %u unread messages.", first, 1 + below(r, 10));
    u->favorite_fruit = acstr(a, fruits[below(r, 3)]);
}

static void write_kudos(out *o, const kr_response *k) {
    write_struct(o, &kr_response_type, k);
    if (o->pretty) sb_putc(&o->b, '\n'); /* the files end in a newline */
}

static size_t kudos_size(const kr_response *k) {
    out o = {0};
    size_t len;
    o.pretty = true;
    write_kudos(&o, k);
    len = o.b.oom ? 0 : o.b.len;
    free(o.b.p);
    return len;
}

/* Users, images and file size of each shared file (SCENARIOS.md). The
 * images per user are drawn in 2..13 and nudged to the total; the `about`
 * texts are then lengthened or shortened (within 123..584) so that the
 * pretty-printed file has exactly the shared file's size. */
static void build_kudos(kr_response *k, arena *a, int which) {
    static const size_t users[3] = {2, 20, 60}, images[3] = {16, 144, 459};
    static const size_t sizes[3] = {8234, 76468, 235661};
    size_t n = users[which], i, total = 0, target = sizes[which];
    size_t img[60], about[60];
    rng r = {0x5EED0200u + (uint64_t)which};
    int pass;
    for (i = 0; i < n; i++) {
        img[i] = (size_t)between(&r, 2, 13);
        about[i] = (size_t)between(&r, 123, 584);
        total += img[i];
    }
    for (i = 0; total != images[which]; i = (i + 1) % n) {
        if (total < images[which] && img[i] < 13) img[i]++, total++;
        else if (total > images[which] && img[i] > 2) img[i]--, total--;
    }
    k->n_users = n;
    k->status = acstr(a, "success");
    k->is_real_json = false;
    for (pass = 0; pass < 3; pass++) {
        size_t size;
        long delta;
        k->users = aalloc(a, n * sizeof(kr_user));
        if (!k->users) return;
        for (i = 0; i < n; i++) build_user(&k->users[i], a, 0x5EED0300u + (uint64_t)which * 1000003u, (int)i, img[i], about[i]);
        size = kudos_size(k);
        if (!size || size == target) return;
        /* spread the difference over the users' about texts */
        delta = (long)target - (long)size;
        for (i = 0; delta != 0; i = (i + 1) % n) {
            long room = delta > 0 ? 584 - (long)about[i] : (long)about[i] - 123;
            long step = delta > 0 ? (delta < room ? delta : room) : (-delta < room ? delta : -room);
            about[i] = (size_t)((long)about[i] + step);
            delta -= step;
        }
    }
}

/* ----------------------------------------------------------------------------
 * MARK: - (d) Boon
 * ------------------------------------------------------------------------- */
static const char boon_date[] = "2013-12-29T12:00:00+0000";

/* Text of exactly `len` characters: lorem words, `nl` of the spaces turned
 * into '\n', `quotes` quote characters around words (pairs), `tabs` tabs
 * at line starts. */
static jstr boon_text(arena *a, rng *r, size_t len, size_t nl, size_t quotes, size_t tabs) {
    sbuf b = {0};
    size_t words_len = len - quotes - tabs, i, spaces = 0, every, seen = 0, placed = 0;
    char *p;
    jstr s = {"", 0};
    lorem_text(&b, r, words_len);
    if (b.oom) {
        a->oom = true;
        return s;
    }
    /* quotes: wrap words, left to right, spread evenly */
    if (quotes) {
        sbuf q = {0};
        size_t words = 1, pairs = quotes / 2, w = 0, gap;
        for (i = 0; i < b.len; i++) words += b.p[i] == ' ';
        gap = words / (pairs + 1) ? words / (pairs + 1) : 1;
        for (i = 0; i < b.len; i++) {
            bool start = i == 0 || b.p[i - 1] == ' ';
            if (start) {
                w++;
                if (placed < pairs * 2 && w % gap == 0 && placed % 2 == 0) {
                    sb_putc(&q, '"');
                    placed++;
                }
            }
            sb_putc(&q, b.p[i]);
            if (placed % 2 == 1 && (i + 1 == b.len || b.p[i + 1] == ' ')) {
                sb_putc(&q, '"');
                placed++;
            }
        }
        while (placed < quotes) { /* an odd count, or too few words */
            sb_putc(&q, '"');
            placed++;
        }
        free(b.p);
        b = q;
    }
    for (i = 0; i < b.len; i++) spaces += b.p[i] == ' ';
    every = nl ? spaces / (nl + 1) : 0;
    if (nl && every == 0) every = 1;
    placed = 0;
    for (i = 0; nl && i < b.len && placed < nl; i++) {
        if (b.p[i] != ' ') continue;
        if (++seen % every == 0) {
            b.p[i] = '\n';
            placed++;
        }
    }
    for (i = 0; i < b.len && placed < nl; i++) /* too few spaces: replace letters */
        if (b.p[i] != '\n' && b.p[i] != '"') {
            b.p[i] = '\n';
            placed++;
        }
    /* tabs after the first newlines */
    if (tabs) {
        sbuf t = {0};
        size_t put = 0;
        for (i = 0; i < b.len; i++) {
            sb_putc(&t, b.p[i]);
            if (b.p[i] == '\n' && put < tabs) {
                sb_putc(&t, '\t');
                put++;
            }
        }
        while (put++ < tabs) sb_putc(&t, '\t');
        free(b.p);
        b = t;
    }
    p = b.p;
    s = b.oom ? s : astr(a, p, b.len);
    if (b.oom) a->oom = true;
    free(p);
    return s;
}

static void build_boon_simple(boon_simple *s, arena *a) {
    s->id = 66883393;
    s->type = acstr(a, "task");
    s->priority = 8;
    s->title = acstr(a, "Export job drops the last row of the \"weekly/summary\" report in tests.");
    s->description = acstr(a, "");
    s->create_date = acstr(a, boon_date);
}

static void build_boon_medium(boon_medium *m, arena *a, size_t about_len) {
    rng r = {0x5EED0400};
    static const char *const langs[] = {"en", "fr", "es"};
    size_t i;
    m->id = acstr(a, "a7f3e29b0c41d");
    m->display_name = acstr(a, "Tobi Varga");
    m->email = acstr(a, "tobi.varga@mail.test");
    m->gender = 1;
    m->birthday = acstr(a, "1984-07-22");
    m->n_languages = 3;
    m->languages = aalloc(a, 3 * sizeof(jstr));
    for (i = 0; m->languages && i < 3; i++) m->languages[i] = acstr(a, langs[i]);
    m->photo.width = 180;
    m->photo.height = 240;
    m->photo.url = acstr(a, "http://img.example.net/photo_a7f3e29b0c41d.jpg");
    m->background_image.ptr = NULL;
    m->background_image.len = 0;
    m->about = boon_text(a, &r, about_len, 1, 0, 0);
    m->friend_count = 57;
    m->follower_count = 204;
    m->locked = false;
    m->country = acstr(a, "PT");
    m->location = acstr(a, "Vila Nova, Minho");
    m->n_places = 2;
    m->places = aalloc(a, 2 * sizeof(boon_place));
    if (m->places) {
        m->places[0].name = acstr(a, "cafe");
        m->places[0].geo = acstr(a, "9e1b7c22d04f3a6b5");
        m->places[0].last_checkin = acstr(a, boon_date);
        m->places[1].name = acstr(a, "office");
        m->places[1].geo = acstr(a, "4c8d0e6f1a2b3c9");
        m->places[1].last_checkin = acstr(a, boon_date);
    }
    m->create_date = acstr(a, boon_date);
    m->citation_index = 2.5;
}

/* Per record of complex.json: body length and its newlines, quotes and
 * tabs; recipients; backslashes in X-Folder; quotes in X-To. */
static const struct {
    unsigned body, nl, quotes, tabs, to, folder_bs, xto_quotes;
} boon_rec[10] = {
    {1602, 58, 0, 0, 1, 2, 0},  {1611, 59, 0, 0, 1, 2, 0},   {1611, 59, 0, 0, 1, 3, 0},
    {2271, 50, 104, 0, 7, 3, 0}, {2383, 63, 104, 0, 1, 3, 0}, {1278, 42, 2, 0, 1, 3, 2},
    {1113, 41, 0, 0, 2, 3, 0},  {921, 37, 0, 4, 1, 3, 0},    {437, 19, 0, 0, 1, 3, 0},
    {1053, 36, 0, 0, 1, 3, 0},
};

/* subject[i] == 0: a subject of a random length, else of that length. */
static void build_boon_complex(boon_complex *c, arena *a, const size_t subject[10]) {
    static const char *const people[] = {"wren.hale", "otto.brandt", "ines.marsh", "cole.dyer",
                                         "ada.frost", "noel.kidd", "ruth.oakes", "saul.penn"};
    rng r = {0x5EED0500};
    size_t i, j;
    unsigned k0, k1;
    c->n_messages = 10;
    c->messages = aalloc(a, 10 * sizeof(boon_message));
    for (i = 0; c->messages && i < 10; i++) {
        boon_message *m = &c->messages[i];
        boon_headers *h = &m->headers;
        bool sent = i >= 3;
        m->id = afmt(a, "b72d04e19f3c8a5d6e1f%04zx", 0x3a10 + i);
        m->body = boon_text(a, &r, boon_rec[i].body, boon_rec[i].nl, boon_rec[i].quotes, boon_rec[i].tabs);
        m->filename = afmt(a, "%zu.", sent ? 1070 + i * 4 : 30 + i * 19);
        h->content_transfer_encoding = acstr(a, "7bit");
        h->content_type = acstr(a, i % 3 == 2 ? "text/plain; charset=ANSI_X3.4-1968" : "text/plain; charset=us-ascii");
        h->date = acstr(a, boon_date);
        h->from = acstr(a, sent ? "wren.hale@corvane.test" : "bookings@larchfield.test");
        k1 = below(&r, 900000000), k0 = below(&r, 70000000); /* RNG_ORDER */
        h->message_id = afmt(a, "<%u.%u.JavaMail.mailer@relay0%zu>", 21000000u + k0, 1100000000u + k1, 1 + i % 3);
        h->mime_version = acstr(a, "1.0");
        if (sent) {
            size_t n = (size_t)between(&r, 16, 27);
            h->subject = lorem_str(a, &r, subject[i] ? subject[i] : n, "");
        } else {
            h->subject = afmt(a, "%u Larchfield Inn Booking Confirmation", 10000000u + below(&r, 80000000));
        }
        h->n_to = boon_rec[i].to;
        h->to = aalloc(a, h->n_to * sizeof(jstr));
        for (j = 0; h->to && j < h->n_to; j++) h->to[j] = afmt(a, "%s@corvane.test", people[(i + j) % 8]);
        h->x_filename = acstr(a, sent ? "whale.nsf" : "wren hale 4-11-03.PST");
        h->x_folder = boon_rec[i].folder_bs == 2 ? acstr(a, "\\Export - Hale, Wren\\Bookings")
                                                 : acstr(a, "\\Wren_Hale_Jun2003\\Notes Folders\\Sent");
        h->x_from = acstr(a, sent ? "Wren Hale" : "Bookings@Larchfield.test");
        h->x_origin = acstr(a, "HALE-W");
        if (boon_rec[i].xto_quotes)
            h->x_to = acstr(a, "\"Otto Brandt\" <otto.brandt@corvane.test>");
        else if (h->n_to > 1)
            h->x_to = acstr(a, "Otto Brandt, Ines Marsh, Cole Dyer, Ada Frost, Noel Kidd, Ruth Oakes, Saul Penn");
        else
            h->x_to = acstr(a, sent ? "Otto Brandt" : "WREN.HALE@CORVANE.TEST");
        h->x_bcc = acstr(a, "");
        h->x_cc = acstr(a, "");
        m->mailbox = acstr(a, "hale-w");
        m->sub_folder = acstr(a, sent ? "sent" : "bookings");
    }
}

static void write_boon_complex(out *o, const boon_complex *c) { write_struct(o, &boon_complex_type, c); }

/* Size of a value written compactly, by one of the writers above. */
#define COMPACT_SIZE(fn, v, size_out)                                                                \
    do {                                                                                             \
        out o_ = {0};                                                                                \
        fn(&o_, v);                                                                                  \
        *(size_out) = o_.b.oom ? 0 : o_.b.len;                                                       \
        free(o_.b.p);                                                                                \
    } while (0)

static void write_boon_medium(out *o, const boon_medium *m) { write_struct(o, &boon_medium_type, m); }

static void build_boon(scen_data *d, arena *a) {
    size_t len, about = 290, subject[10] = {0}, i;
    long delta;
    build_boon_simple(&d->boon_s, a);
    build_boon_medium(&d->boon_m, a, about);
    COMPACT_SIZE(write_boon_medium, &d->boon_m, &len);
    if (len && len != 892) build_boon_medium(&d->boon_m, a, about + 892 - len);
    build_boon_complex(&d->boon_c, a, subject);
    COMPACT_SIZE(write_boon_complex, &d->boon_c, &len);
    if (!len || len == 21176 || !d->boon_c.messages) return;
    /* spread the difference over the subjects of the sent messages */
    for (i = 3; i < 10; i++) subject[i] = d->boon_c.messages[i].headers.subject.len;
    delta = 21176 - (long)len;
    for (i = 3; delta != 0; i = i == 9 ? 3 : i + 1) {
        if (delta < 0 && subject[i] <= 8) continue;
        subject[i] = delta < 0 ? subject[i] - 1 : subject[i] + 1;
        delta += delta < 0 ? 1 : -1;
    }
    build_boon_complex(&d->boon_c, a, subject);
}

/* ----------------------------------------------------------------------------
 * MARK: - (e) JSON0
 * ------------------------------------------------------------------------- */
static void build_json0(scen_data *d, arena *a) {
    j0_message *m = &d->j0;
    hoian *h = &d->hoian;
    j0_entity *e = &d->entity;
    m->id = 0;
    m->method = acstr(a, "JSON");
    m->message = acstr(a, "Hello World");
    m->property.key = acstr(a, "Key");
    m->property.value = acstr(a, "Value");
    m->childs[0].id = m->childs[0].name = acstr(a, "child1");
    m->childs[1].id = m->childs[1].name = acstr(a, "child2");

    h->town = acstr(a, "Hoi An Town");
    h->day_length = 3;
    h->vehicles = acstr(a, "Taxi or Bike");
    h->must_visits.morning = acstr(a, "Tra Que Vegetable Village");
    h->must_visits.afternoon = acstr(a, "The Japanese Bridge");
    h->must_visits.evening = acstr(a, "An Bang Beach");
    h->must_tries[0].food1 = acstr(a, "Banh Mi, Banh Xeo");
    h->must_tries[0].food2 = acstr(a, "Com Ga Hoi An");
    h->must_tries[1].drink1 = acstr(a, "Cafe Sua Da");
    h->must_tries[1].drink2 = acstr(a, "Mot Hoi An");

    e->code = acstr(a, "8934567890123");
    e->name = acstr(a, "Linh Thi Tran");
    e->address = acstr(a, "Apt. 719 4826 Harber Street, South Dorotheaborough, NV 02184");
    e->id_number = acstr(a, "567-34-2194");
    e->job = acstr(a, "Problem solving");
    e->finance = acstr(a, "6771-8965-2344-1285");
    e->properties.favorite_food = acstr(a, "Tamagoyaki");
    e->properties.friends = acstr(a, "Rachel Green");
    e->properties.university = acstr(a, "Northern Kozey University");
    e->properties.demography = acstr(a, "Vietnamese");
    e->properties.secret = acstr(a, "Marty McFly");
}

static void write_properties(out *o, const j0_properties *p, const char *food_key) {
    open_(o, '{');
    key(o, food_key); w_str(o, p->favorite_food);
    key(o, "friends"); w_str(o, p->friends);
    key(o, "university"); w_str(o, p->university);
    key(o, "demography"); w_str(o, p->demography);
    key(o, "secret"); w_str(o, p->secret);
    close_(o, '}');
}

static void write_entity(out *o, const j0_entity *e, bool stringified) {
    open_(o, '{');
    key(o, "code"); w_str(o, e->code);
    key(o, "name"); w_str(o, e->name);
    key(o, "address"); w_str(o, e->address);
    key(o, "idNumber"); w_str(o, e->id_number);
    key(o, "job"); w_str(o, e->job);
    key(o, "finance"); w_str(o, e->finance);
    key(o, "properties");
    if (stringified) {
        out inner = {0};
        jstr s;
        write_properties(&inner, &e->properties, "food");
        s.ptr = inner.b.p ? inner.b.p : "";
        s.len = inner.b.len;
        w_str(o, s);
        if (inner.b.oom) o->b.oom = true;
        free(inner.b.p);
    } else {
        write_properties(o, &e->properties, "favoriteFood");
    }
    close_(o, '}');
}

size_t scen_j0_write(const j0_message *m, char *buf, size_t cap) {
    /* the hot path of the reference round: no emitter, one snprintf */
    int n = snprintf(buf, cap,
                     "{\"ID\":%lld,\"Method\":\"%s\",\"Message\":\"%s\",\"Property\":{\"Key\":\"%s\","
                     "\"Value\":\"%s\"},\"Childs\":[{\"ID\":\"%s\",\"Name\":\"%s\"},{\"ID\":\"%s\","
                     "\"Name\":\"%s\"}]}",
                     (long long)m->id, m->method.ptr, m->message.ptr, m->property.key.ptr,
                     m->property.value.ptr, m->childs[0].id.ptr, m->childs[0].name.ptr,
                     m->childs[1].id.ptr, m->childs[1].name.ptr);
    return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}

/* ----------------------------------------------------------------------------
 * MARK: - Entry points
 * ------------------------------------------------------------------------- */
bool scen_data_init(scen_data *d) {
    arena *a = calloc(1, sizeof(arena));
    int k;
    memset(d, 0, sizeof(*d));
    if (!a) return false;
    d->mem = a;
    build_kiss(d, a);
    build_album(d, a);
    for (k = 0; k < 3; k++) build_kudos(&d->kudos[k], a, k);
    build_boon(d, a);
    build_json0(d, a);
    if (a->oom) {
        scen_data_free(d);
        return false;
    }
    return true;
}

void scen_data_free(scen_data *d) {
    if (d->mem) {
        afree(d->mem);
        free(d->mem);
    }
    memset(d, 0, sizeof(*d));
}

char *scen_file_text(const scen_data *d, scen_file f, size_t *len) {
    out o = {0};
    j0_message last;
    switch (f) {
    case SF_SIMPLE_POJO: write_struct(&o, &simple_pojo_type, &d->simple); break;
    case SF_NESTED_POJO: write_struct(&o, &nested_pojo_type, &d->nested); break;
    case SF_DATE_POJO: write_struct(&o, &date_pojo_type, &d->date); break;
    case SF_POJO_LIST_100: write_struct(&o, &simple_pojo_list_type, &d->list); break;
    case SF_MAP_MIXED: w_jv(&o, &d->map); break;
    case SF_ESCAPE_STRING: w_str(&o, d->esc); break;
    case SF_PHOTO_ALBUM: write_struct(&o, &pa_album_type, &d->album); break;
    case SF_KUDOS_SMALL:
    case SF_KUDOS_MEDIUM:
    case SF_KUDOS_LARGE:
        o.pretty = true;
        write_kudos(&o, &d->kudos[f - SF_KUDOS_SMALL]);
        break;
    case SF_BOON_SIMPLE: write_struct(&o, &boon_simple_type, &d->boon_s); break;
    case SF_BOON_MEDIUM: write_boon_medium(&o, &d->boon_m); break;
    case SF_BOON_COMPLEX: write_boon_complex(&o, &d->boon_c); break;
    case SF_J0_MESSAGE_0: write_struct(&o, &j0_message_type, &d->j0); break;
    case SF_J0_MESSAGE_LAST:
        last = d->j0;
        last.id = SCEN_J0_ROUND_MESSAGES - 1;
        write_struct(&o, &j0_message_type, &last);
        break;
    case SF_J0_HOIAN: write_struct(&o, &hoian_type, &d->hoian); break;
    case SF_J0_ENTITY_NESTED: write_struct(&o, &j0_entity_type, &d->entity); break;
    case SF_J0_ENTITY_STRINGIFIED: write_entity(&o, &d->entity, true); break;
    default: return NULL;
    }
    if (o.b.oom || !o.b.p) {
        free(o.b.p);
        return NULL;
    }
    if (len) *len = o.b.len;
    return o.b.p;
}

/* ----------------------------------------------------------------------------
 * MARK: - Corpus-style documents (scen_doc)
 * ------------------------------------------------------------------------- */
static const char *const doc_names[SD_COUNT] = {"generated-config.json", "generated-text.json"};

const char *scen_doc_name(scen_doc d) { return (unsigned)d < SD_COUNT ? doc_names[d] : NULL; }

static void kv_str(out *o, const char *k, const char *v) {
    key(o, k);
    item(o);
    raw_str(&o->b, v, strlen(v));
}

static void kv_int(out *o, const char *k, int64_t v) {
    key(o, k);
    w_int(o, v);
}

static void kv_bool(out *o, const char *k, bool v) {
    key(o, k);
    w_bool(o, v);
}

/* A decimal with `dec` digits after the point, as config files write them. */
static void kv_fixed(out *o, const char *k, unsigned whole, unsigned frac, int dec) {
    char buf[32];
    key(o, k);
    item(o);
    snprintf(buf, sizeof(buf), "%u.%0*u", whole, dec, frac);
    sb_puts(&o->b, buf);
}

static void open_key(out *o, const char *k, char c) {
    key(o, k);
    open_(o, c);
}

/* ---- the configuration ------------------------------------------------- */
static const char *const cfg_regions[] = {"eu-west-1", "eu-central-1", "us-east-1", "us-west-2", "ap-south-1"};
static const char *const cfg_levels[] = {"debug", "info", "warn", "error"};
static const char *const cfg_protos[] = {"tcp", "udp", "http", "grpc"};

static void config_port(out *o, rng *r, int k) {
    static const char *const names[] = {"http", "https", "metrics", "admin"};
    unsigned port = 1024 + below(r, 60000);
    unsigned proto = below(r, 4);
    open_(o, '{');
    kv_str(o, "name", names[k % 4]);
    kv_int(o, "port", port);
    kv_str(o, "protocol", cfg_protos[proto]);
    close_(o, '}');
}

static void config_resources(out *o, rng *r) {
    unsigned mem = 64u << below(r, 6), cpu = below(r, 100);
    unsigned lim_mem = mem * 2, lim_cpu = 1 + below(r, 8);
    open_key(o, "resources", '{');
    open_key(o, "requests", '{');
    kv_fixed(o, "cpu", 0, cpu, 2);
    kv_int(o, "memory_mb", mem);
    close_(o, '}');
    open_key(o, "limits", '{');
    kv_int(o, "cpu", lim_cpu);
    kv_int(o, "memory_mb", lim_mem);
    close_(o, '}');
    close_(o, '}');
}

static void config_health(out *o, rng *r) {
    unsigned interval = 5 + below(r, 26), timeout = 1 + below(r, 5), retries = 1 + below(r, 5);
    open_key(o, "health", '{');
    kv_str(o, "path", "/healthz");
    kv_int(o, "interval_s", interval);
    kv_int(o, "timeout_s", timeout);
    kv_int(o, "retries", retries);
    close_(o, '}');
}

static void config_service(out *o, rng *r, int i) {
    char name[32], image[64];
    unsigned replicas = 1 + below(r, 9), level = below(r, 4), region = below(r, 5);
    unsigned n_ports = 1 + below(r, 3), major = below(r, 4), minor = below(r, 20), enabled = below(r, 8);
    int k;
    snprintf(name, sizeof(name), "svc-%04d", i);
    snprintf(image, sizeof(image), "registry.local/%s:%u.%u", name, major, minor);
    open_key(o, name, '{');
    kv_bool(o, "enabled", enabled != 0);
    kv_int(o, "replicas", replicas);
    kv_str(o, "image", image);
    config_resources(o, r);
    open_key(o, "ports", '[');
    for (k = 0; k < (int)n_ports; k++) config_port(o, r, k);
    close_(o, ']');
    open_key(o, "env", '{');
    kv_str(o, "LOG_LEVEL", cfg_levels[level]);
    kv_str(o, "REGION", cfg_regions[region]);
    kv_bool(o, "TRACING", level < 2);
    close_(o, '}');
    config_health(o, r);
    close_(o, '}');
}

/* {"schema": ..., "clusters": {"c-N": {"services": {"svc-NNNN": {...}}}}}:
 * the members of a service sit four levels deep and their small objects
 * five and six, so each line is mostly indentation. */
static void build_config_doc(out *o) {
    rng r = {0xC0FF1C0DEull};
    int c, s, svc = 0;
    o->pretty = true;
    o->indent = 4;
    open_(o, '{');
    kv_str(o, "schema", "tyjson.bench/config-1");
    kv_int(o, "revision", 42);
    open_key(o, "clusters", '{');
    for (c = 0; c < 6; c++) {
        char name[16];
        snprintf(name, sizeof(name), "cluster-%d", c);
        open_key(o, name, '{');
        kv_str(o, "region", cfg_regions[c % 5]);
        open_key(o, "services", '{');
        for (s = 0; s < 60; s++) config_service(o, &r, svc++);
        close_(o, '}');
        close_(o, '}');
    }
    close_(o, '}');
    close_(o, '}');
    sb_putc(&o->b, '\n');
}

/* ---- the text records ---------------------------------------------------- */
/* Words of several scripts: Latin with accents (partly ASCII), Greek and
 * Cyrillic (2-byte letters), CJK (3-byte), emoji (4-byte). */
static const char *const intl_words[] = {
    "caf\xc3\xa9", "na\xc3\xafve", "\xc3\xbc" "ber", "se\xc3\xb1or", "fa\xc3\xa7" "ade", "\xc3\xa5ngstr\xc3\xb6m",
    "\xce\xbb\xcf\x8c\xce\xb3\xce\xbf\xcf\x82", "\xce\xb8\xce\xac\xce\xbb\xce\xb1\xcf\x83\xcf\x83\xce\xb1",
    "\xce\xba\xcf\x8c\xcf\x83\xce\xbc\xce\xbf\xcf\x82",
    "\xd0\xbf\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82", "\xd0\xbc\xd0\xb8\xd1\x80",
    "\xd0\xba\xd0\xbd\xd0\xb8\xd0\xb3\xd0\xb0", "\xe6\x9d\xb1\xe4\xba\xac", "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e",
    "\xe4\xb8\xad\xe6\x96\x87", "\xed\x95\x9c\xea\xb5\xad\xec\x96\xb4", "\xf0\x9f\x98\x80", "\xf0\x9f\x9a\x80",
    "\xf0\x9f\x8c\x8d",
};
#define N_INTL (sizeof(intl_words) / sizeof(intl_words[0]))

typedef struct text_gen {
    rng r;
    size_t non_ascii; /* non-ASCII bytes written so far */
} text_gen;

static size_t count_high(const char *s) {
    size_t n = 0;
    for (; *s; s++) n += (unsigned char)*s >= 0x80;
    return n;
}

/* Words until `len` bytes: a non-ASCII word mostly while the document's
 * non-ASCII share is below 20%, rarely above, so that the share settles
 * there whatever the field; now and then a line break or a quote (escaped
 * when written). */
static void intl_text(text_gen *g, size_t doc_len, sbuf *b, size_t len) {
    size_t start = b->len, high = 0;
    while (b->len - start < len) {
        unsigned pick = below(&g->r, 100), which = below(&g->r, 1000), extra = below(&g->r, 40);
        bool below_target = (g->non_ascii + high) * 100 < 20 * (doc_len + b->len - start);
        const char *w = pick < (below_target ? 80u : 8u) ? intl_words[which % N_INTL] : lorem[which % N_LOREM];
        if (b->len > start) sb_putc(b, extra == 0 ? '\n' : ' ');
        if (extra == 1) sb_putc(b, '"');
        sb_puts(b, w);
        high += count_high(w);
    }
}

static void kv_text(out *o, text_gen *g, const char *k, size_t len) {
    sbuf t = {0};
    intl_text(g, o->b.len, &t, len);
    if (t.oom) o->b.oom = true;
    key(o, k);
    item(o);
    raw_str(&o->b, t.p ? t.p : "", t.len);
    g->non_ascii += t.p ? count_high(t.p) : 0;
    free(t.p);
}

static void text_user(out *o, text_gen *g, int i) {
    char handle[32];
    int64_t uid = (int64_t)(next(&g->r) >> 34);
    snprintf(handle, sizeof(handle), "user_%05d", i * 7 % 10007);
    open_key(o, "user", '{');
    kv_int(o, "id", uid);
    kv_text(o, g, "name", 12 + below(&g->r, 12));
    kv_str(o, "screen_name", handle);
    kv_text(o, g, "description", 40 + below(&g->r, 120));
    kv_int(o, "followers_count", below(&g->r, 100000));
    close_(o, '}');
}

static void text_status(out *o, text_gen *g, int i) {
    static const char *const langs[] = {"en", "fr", "el", "ru", "ja", "zh", "ko", "es"};
    char when[40];
    int64_t id = 505874924095815681LL + (int64_t)i * 1987 + (int64_t)below(&g->r, 1000);
    unsigned lang = below(&g->r, 8), minute = below(&g->r, 60 * 24), rts = below(&g->r, 5000);
    snprintf(when, sizeof(when), "2026-11-%02d %02u:%02u:00 +0000", 1 + i % 28, minute / 60, minute % 60);
    open_(o, '{');
    kv_int(o, "id", id);
    kv_str(o, "created_at", when);
    kv_text(o, g, "text", 60 + below(&g->r, 220));
    kv_str(o, "lang", langs[lang]);
    text_user(o, g, i);
    kv_text(o, g, "body", 300 + below(&g->r, 1200));
    kv_int(o, "retweet_count", rts);
    kv_int(o, "favorite_count", below(&g->r, 20000));
    open_key(o, "tags", '[');
    {
        unsigned n = below(&g->r, 4), k;
        for (k = 0; k < n; k++) {
            unsigned w = below(&g->r, N_INTL);
            item(o);
            raw_str(&o->b, intl_words[w], strlen(intl_words[w]));
            g->non_ascii += count_high(intl_words[w]);
        }
    }
    close_(o, ']');
    close_(o, '}');
}

static void build_text_doc(out *o) {
    text_gen g = {{0x7E47C0DEull}, 0};
    int i;
    open_(o, '{');
    open_key(o, "statuses", '[');
    for (i = 0; i < 340; i++) text_status(o, &g, i);
    close_(o, ']');
    open_key(o, "search_metadata", '{');
    kv_int(o, "count", 340);
    kv_str(o, "query", "tyjson");
    close_(o, '}');
    close_(o, '}');
}

char *scen_doc_text(scen_doc d, size_t *len) {
    out o = {0};
    if (d == SD_CONFIG) build_config_doc(&o);
    else if (d == SD_TEXT) build_text_doc(&o);
    else return NULL;
    if (o.b.oom || !o.b.p) {
        free(o.b.p);
        return NULL;
    }
    if (len) *len = o.b.len;
    return o.b.p;
}

/* ----------------------------------------------------------------------------
 * MARK: - SHA-256 (FIPS 180-4)
 * ------------------------------------------------------------------------- */
static const uint32_t sha_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t ror(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static void sha_block(uint32_t h[8], const unsigned char *p) {
    uint32_t w[64], a, b, c, d, e, f, g, hh;
    int i;
    for (i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 |
               (uint32_t)p[4 * i + 3];
    for (i = 16; i < 64; i++) {
        uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (i = 0; i < 64; i++) {
        uint32_t t1 = hh + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + sha_k[i] + w[i];
        uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        hh = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
}

void scen_sha256_init(scen_sha256 *s) {
    static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(s->h, iv, sizeof(iv));
    s->bytes = 0;
    s->fill = 0;
}

void scen_sha256_add(scen_sha256 *s, const void *data, size_t len) {
    const unsigned char *p = data;
    s->bytes += len;
    if (s->fill) {
        size_t take = 64 - s->fill < len ? 64 - s->fill : len;
        memcpy(s->blk + s->fill, p, take);
        s->fill += take;
        p += take;
        len -= take;
        if (s->fill < 64) return;
        sha_block(s->h, s->blk);
        s->fill = 0;
    }
    for (; len >= 64; p += 64, len -= 64) sha_block(s->h, p);
    memcpy(s->blk, p, len);
    s->fill = len;
}

void scen_sha256_hex(scen_sha256 *s, char hex[65]) {
    static const char digits[] = "0123456789abcdef";
    uint64_t bits = s->bytes * 8;
    unsigned char pad[72] = {0x80};
    size_t padlen = (s->fill < 56 ? 56 : 120) - s->fill;
    int i;
    for (i = 0; i < 8; i++) pad[padlen + (size_t)i] = (unsigned char)(bits >> (56 - 8 * i));
    scen_sha256_add(s, pad, padlen + 8);
    for (i = 0; i < 32; i++) {
        unsigned char byte = (unsigned char)(s->h[i / 4] >> (24 - 8 * (i % 4)));
        hex[2 * i] = digits[byte >> 4];
        hex[2 * i + 1] = digits[byte & 15];
    }
    hex[64] = '\0';
}

/* ----------------------------------------------------------------------------
 * MARK: - Equality of decoded values
 * ------------------------------------------------------------------------- */
static bool why(char *buf, size_t size, const char *fmt, ...) {
    va_list ap;
    if (!buf || !size) return false;
    va_start(ap, fmt);
    vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return false;
}

static bool str_eq(jstr a, jstr b) {
    return a.len == b.len && (a.len == 0 || (a.ptr && b.ptr && memcmp(a.ptr, b.ptr, a.len) == 0));
}

#define EQ_STR(path, f) \
    if (!str_eq(a->f, b->f)) return why(w, ws, "%s" #f ": \"%.*s\" != \"%.*s\"", path, (int)(a->f.len > 40 ? 40 : a->f.len), a->f.ptr ? a->f.ptr : "", (int)(b->f.len > 40 ? 40 : b->f.len), b->f.ptr ? b->f.ptr : "")
#define EQ_NUM(path, f) \
    if (a->f != b->f) return why(w, ws, "%s" #f ": %.17g != %.17g", path, (double)a->f, (double)b->f)

bool scen_eq_simple(const simple_pojo *a, const simple_pojo *b, char *w, size_t ws) {
    EQ_STR("", name);
    EQ_NUM("", age);
    EQ_NUM("", active);
    EQ_NUM("", score);
    return true;
}

bool scen_eq_nested(const nested_pojo *a, const nested_pojo *b, char *w, size_t ws) {
    for (; a && b; a = a->nested, b = b->nested) {
        EQ_STR("", name);
        EQ_NUM("", value);
    }
    if (a || b) return why(w, ws, "nested: one is null, the other not");
    return true;
}

bool scen_eq_date(const date_pojo *a, const date_pojo *b, char *w, size_t ws) {
    EQ_NUM("", local_date.year);
    EQ_NUM("", local_date.month);
    EQ_NUM("", local_date.day);
    EQ_NUM("", instant_epoch_ms);
    return true;
}

bool scen_eq_list(const simple_pojo_list *a, const simple_pojo_list *b, char *w, size_t ws) {
    size_t i;
    if (a->n != b->n) return why(w, ws, "n: %zu != %zu", a->n, b->n);
    for (i = 0; i < a->n; i++)
        if (!scen_eq_simple(&a->items[i], &b->items[i], w, ws)) return false;
    return true;
}

static bool eq_pa_user(const pa_user *a, const pa_user *b, char *w, size_t ws) {
    EQ_STR("user.", login);
    EQ_STR("user.", first_name);
    EQ_STR("user.", last_name);
    EQ_STR("user.", email);
    EQ_NUM("user.", age);
    EQ_NUM("user.", birth_date_ms);
    return true;
}

bool scen_eq_album(const pa_album *a, const pa_album *b, char *w, size_t ws) {
    size_t i;
    EQ_STR("", name);
    EQ_STR("", description);
    if (!eq_pa_user(&a->owner, &b->owner, w, ws)) return false;
    EQ_NUM("", photo_count);
    EQ_NUM("", created_ms);
    EQ_NUM("", modified_ms);
    EQ_NUM("", n_photos);
    for (i = 0; i < a->n_photos; i++) {
        const pa_photo *pa = &a->photos[i], *pb = &b->photos[i];
        {
            const pa_photo *a = pa, *b = pb; /* the macros name a and b */
            EQ_STR("photo.", name);
            EQ_STR("photo.", description);
            EQ_NUM("photo.", width);
            EQ_NUM("photo.", height);
            EQ_NUM("photo.", horizontal);
            EQ_NUM("photo.", vertical);
            EQ_STR("photo.", path);
            EQ_NUM("photo.", rating);
            EQ_NUM("photo.", rating_count);
            EQ_NUM("photo.", display_count);
            EQ_NUM("photo.", created_ms);
            if (!eq_pa_user(&a->author, &b->author, w, ws)) return false;
        }
    }
    return true;
}

static bool eq_kr_user(const kr_user *a, const kr_user *b, char *w, size_t ws) {
    size_t i;
    EQ_STR("", id);
    EQ_NUM("", index);
    EQ_STR("", guid);
    EQ_NUM("", is_active);
    EQ_STR("", balance);
    EQ_STR("", picture);
    EQ_NUM("", age);
    EQ_STR("", eye_color);
    EQ_STR("", name.first);
    EQ_STR("", name.last);
    EQ_STR("", company);
    EQ_STR("", email);
    EQ_STR("", phone);
    EQ_STR("", address);
    EQ_STR("", about);
    EQ_STR("", registered);
    EQ_NUM("", latitude);
    EQ_NUM("", longitude);
    EQ_NUM("", n_tags);
    EQ_NUM("", n_range);
    EQ_NUM("", n_friends);
    EQ_NUM("", n_images);
    for (i = 0; i < a->n_tags; i++)
        if (!str_eq(a->tags[i], b->tags[i])) return why(w, ws, "tags[%zu]", i);
    for (i = 0; i < a->n_range; i++)
        if (a->range[i] != b->range[i]) return why(w, ws, "range[%zu]", i);
    for (i = 0; i < a->n_friends; i++)
        if (a->friends[i].id != b->friends[i].id || !str_eq(a->friends[i].name, b->friends[i].name))
            return why(w, ws, "friends[%zu]", i);
    for (i = 0; i < a->n_images; i++) {
        const kr_image *x = &a->images[i], *y = &b->images[i];
        if (!str_eq(x->id, y->id) || !str_eq(x->format, y->format) || !str_eq(x->url, y->url) ||
            !str_eq(x->description, y->description))
            return why(w, ws, "images[%zu]", i);
    }
    EQ_STR("", greeting);
    EQ_STR("", favorite_fruit);
    return true;
}

bool scen_eq_kudos(const kr_response *a, const kr_response *b, char *w, size_t ws) {
    size_t i;
    EQ_NUM("", n_users);
    for (i = 0; i < a->n_users; i++)
        if (!eq_kr_user(&a->users[i], &b->users[i], w, ws)) return false;
    EQ_STR("", status);
    EQ_NUM("", is_real_json);
    return true;
}
