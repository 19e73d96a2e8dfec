/*
 * bench_util.c - helpers the adapters share (peers.h): the counting
 * allocator, the decode arena, and the date formats of the date scenario.
 */
#include "peers.h"

#include "calendar.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ----------------------------------------------------------------------------
 * MARK: - Extraction checksum
 * ------------------------------------------------------------------------- */
#define MIX_MUL 0x9E3779B97F4A7C15ull

/* Eight bytes at a time (the cost stays small next to the extraction it
 * checks); the length goes in too, so that "ab" + "c" differs from "a" + "bc". */
static uint64_t mix_bytes(uint64_t h, const char *s, size_t len) {
    size_t i = 0;
    uint64_t w;
    for (; i + 8 <= len; i += 8) {
        memcpy(&w, s + i, 8);
        h = (h ^ w) * MIX_MUL;
        h ^= h >> 29;
    }
    w = 0;
    if (i < len) memcpy(&w, s + i, len - i);
    h = (h ^ w ^ ((uint64_t)len << 56)) * MIX_MUL;
    return h ^ (h >> 29);
}

void bench_extract_add(bench_extract *x, uint64_t id, const char *text, size_t text_len, const char *name,
                       size_t name_len, int64_t retweet_count) {
    x->count++;
    x->numbers = (x->numbers ^ id) * MIX_MUL + (uint64_t)retweet_count;
    x->strings = mix_bytes(mix_bytes(x->strings, text, text_len), name, name_len);
}

/* ----------------------------------------------------------------------------
 * MARK: - Counting allocator
 * ------------------------------------------------------------------------- */
#define CNT_HDR 16 /* keeps the caller's block aligned like malloc's */

void bench_counter_reset(bench_counter *c) { c->live = c->peak = c->allocs = 0; }

static void counter_add(bench_counter *c, size_t size) {
    c->live += size;
    if (c->live > c->peak) c->peak = c->live;
}

void *bench_counter_malloc(bench_counter *c, size_t size) {
    unsigned char *p;
    if (size > SIZE_MAX - CNT_HDR) return NULL;
    p = malloc(size + CNT_HDR);
    if (!p) return NULL;
    memcpy(p, &size, sizeof(size));
    c->allocs++;
    counter_add(c, size);
    return p + CNT_HDR;
}

void *bench_counter_realloc(bench_counter *c, void *ptr, size_t size) {
    unsigned char *p;
    size_t old;
    if (!ptr) return bench_counter_malloc(c, size);
    if (size > SIZE_MAX - CNT_HDR) return NULL;
    p = (unsigned char *)ptr - CNT_HDR;
    memcpy(&old, p, sizeof(old));
    p = realloc(p, size + CNT_HDR);
    if (!p) return NULL;
    memcpy(p, &size, sizeof(size));
    c->allocs++;
    c->live -= old;
    counter_add(c, size);
    return p + CNT_HDR;
}

void bench_counter_free(bench_counter *c, void *ptr) {
    unsigned char *p;
    size_t old;
    if (!ptr) return;
    p = (unsigned char *)ptr - CNT_HDR;
    memcpy(&old, p, sizeof(old));
    c->live -= old;
    free(p);
}

/* ----------------------------------------------------------------------------
 * MARK: - Arena
 * ------------------------------------------------------------------------- */
typedef struct ablock {
    struct ablock *next;
    size_t cap;
    _Alignas(16) char data[];
} ablock;

/* Blocks grow by doubling; a reset keeps only the largest, so that a
 * steady stream of similar values soon allocates nothing. */
void *bench_arena_alloc(bench_arena *a, size_t size) {
    size_t need = (size + 15) & ~(size_t)15;
    char *p;
    if (!need) need = 16;
    if (!a->cur || (size_t)(a->end - a->cur) < need) {
        ablock *head = a->blocks;
        size_t cap = head ? head->cap * 2 : 65536;
        ablock *nb;
        while (cap < need) cap *= 2;
        nb = malloc(sizeof(ablock) + cap);
        if (!nb) return NULL;
        nb->cap = cap;
        nb->next = head;
        a->blocks = nb;
        a->cur = nb->data;
        a->end = nb->data + cap;
    }
    p = a->cur;
    a->cur += need;
    return p;
}

void bench_arena_reset(bench_arena *a) {
    ablock *b = a->blocks, *keep = b;
    if (!b) return;
    for (b = b->next; b; b = b->next)
        if (b->cap > keep->cap) keep = b;
    b = a->blocks;
    while (b) {
        ablock *next = b->next;
        if (b != keep) free(b);
        b = next;
    }
    keep->next = NULL;
    a->blocks = keep;
    a->cur = keep->data;
    a->end = keep->data + keep->cap;
}

void bench_arena_free(bench_arena *a) {
    ablock *b = a->blocks;
    while (b) {
        ablock *next = b->next;
        free(b);
        b = next;
    }
    memset(a, 0, sizeof(*a));
}

/* ----------------------------------------------------------------------------
 * MARK: - Dates
 * ------------------------------------------------------------------------- */
static bool digits(const char *s, size_t n, unsigned *out) {
    unsigned v = 0;
    size_t i;
    for (i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return false;
        v = v * 10 + (unsigned)(s[i] - '0');
    }
    *out = v;
    return true;
}

static bool valid_day(unsigned y, unsigned m, unsigned d) {
    static const unsigned char mdays[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (m < 1 || m > 12 || d < 1 || d > mdays[m - 1]) return false;
    return !(m == 2 && d == 29 && !leap);
}

bool bench_parse_date(const char *s, size_t len, int32_t *y, uint8_t *m, uint8_t *d) {
    unsigned yy, mm, dd;
    if (len != 10 || s[4] != '-' || s[7] != '-') return false;
    if (!digits(s, 4, &yy) || !digits(s + 5, 2, &mm) || !digits(s + 8, 2, &dd)) return false;
    if (!valid_day(yy, mm, dd)) return false;
    *y = (int32_t)yy;
    *m = (uint8_t)mm;
    *d = (uint8_t)dd;
    return true;
}

bool bench_parse_instant(const char *s, size_t len, int64_t *ms) {
    int32_t y;
    uint8_t m, d;
    unsigned hh, mi, ss;
    if (len != 20 || s[10] != 'T' || s[13] != ':' || s[16] != ':' || s[19] != 'Z') return false;
    if (!bench_parse_date(s, 10, &y, &m, &d)) return false;
    if (!digits(s + 11, 2, &hh) || !digits(s + 14, 2, &mi) || !digits(s + 17, 2, &ss)) return false;
    if (hh > 23 || mi > 59 || ss > 59) return false;
    *ms = (scen_days_from_civil(y, m, d) * 86400 + hh * 3600 + mi * 60 + ss) * 1000;
    return true;
}

static void put2(char *p, unsigned v) {
    p[0] = (char)('0' + v / 10 % 10);
    p[1] = (char)('0' + v % 10);
}

size_t bench_format_date(int32_t y, unsigned m, unsigned d, char out[16]) {
    if (y < 0 || y > 9999 || !valid_day((unsigned)y, m, d)) return 0;
    put2(out, (unsigned)y / 100);
    put2(out + 2, (unsigned)y % 100);
    out[4] = '-';
    put2(out + 5, m);
    out[7] = '-';
    put2(out + 8, d);
    return 10;
}

size_t bench_format_instant(int64_t ms, char out[32]) {
    int64_t days = ms / 86400000, y, rem;
    unsigned m, d, secs;
    if (ms % 86400000 < 0) days--;
    rem = ms - days * 86400000;
    scen_civil_from_days(days, &y, &m, &d);
    if (rem % 1000 || !bench_format_date((int32_t)y, m, d, out)) return 0; /* whole seconds only */
    secs = (unsigned)(rem / 1000);
    out[10] = 'T';
    put2(out + 11, secs / 3600);
    out[13] = ':';
    put2(out + 14, secs / 60 % 60);
    out[16] = ':';
    put2(out + 17, secs % 60);
    out[19] = 'Z';
    return 20;
}
