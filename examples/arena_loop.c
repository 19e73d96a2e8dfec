/* arena_loop.c - docs/binding.md section 6, "Arenas, reuse and borrowing":
 * one arena reset between messages, so a warm stream allocates nothing;
 * and borrowed strings. */
#include <tyjson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { int64_t id; tyjson_str user, text; } msg;
static const tyjson_field msg_fields[] = {
    TYJSON_FIELD_I64(msg, id, "id"),
    TYJSON_FIELD_STR(msg, user, "user"),
    TYJSON_FIELD_STR(msg, text, "text"),
};
static tyjson_struct msg_type = TYJSON_STRUCT(msg, msg_fields, 0);

/* An allocator that counts the calls it serves. */
static size_t n_mallocs;
static void *count_malloc(void *ctx, size_t size) { (void)ctx; n_mallocs++; return malloc(size); }
static void *count_realloc(void *ctx, void *p, size_t old, size_t size) {
    (void)ctx; (void)old; n_mallocs++; return realloc(p, size);
}
static void count_free(void *ctx, void *p) { (void)ctx; free(p); }

static int64_t id_sum;
static void use(const msg *m) { id_sum += m->id; }

/* Whether p points into the n bytes at s. */
static bool inside(const char *p, const char *s, size_t n) {
    return (uintptr_t)p >= (uintptr_t)s && (uintptr_t)p < (uintptr_t)s + n;
}

int main(void) {
    static const char *const lines[] = {
        "{\"id\":1,\"user\":\"ann\",\"text\":\"hello\"}",
        "{\"id\":2,\"user\":\"bob\",\"text\":\"caf\\u00e9\"}",
        "{\"id\":3,\"user\":\"cy\",\"text\":\"bye\"}",
    };
    /* A stream of 300 messages. */
    enum { n = 300 };
    const char *data[n];
    size_t len[n];
    for (size_t i = 0; i < n; i++) {
        data[i] = lines[i % 3];
        len[i] = strlen(data[i]);
    }
    const tyjson_alloc counting = {count_malloc, count_realloc, count_free, NULL};
    const tyjson_alloc *alc = &counting;
    tyjson_error err;
    size_t warm = 0;

    tyjson_arena arena;
    tyjson_arena_init(&arena, alc);               /* NULL: libc; or init_buf(&arena, buf, size): never mallocs */
    for (size_t i = 0; i < n; i++) {
        msg m;
        if (tyjson_decode(&msg_type, &m, data[i], len[i], &arena, NULL, &err) == TYJSON_OK) use(&m);
        tyjson_arena_reset(&arena);               /* keeps the largest block */
        if (i == 2) warm = n_mallocs;
    }
    tyjson_arena_free(&arena);
    printf("sum of ids %lld; allocator calls: %zu for the first 3 messages, %zu for the 297 others\n",
           (long long)id_sum, warm, n_mallocs - warm);

    /* Borrowing: unescaped strings point into the input, escaped ones are copied. */
    tyjson_decode_options opts = {TYJSON_DECODE_BORROW, 0, 0, NULL};
    tyjson_arena_init(&arena, NULL);
    msg m;
    if (tyjson_decode(&msg_type, &m, data[1], len[1], &arena, &opts, &err) == TYJSON_OK)
        printf("borrowed: user %s the input, text \"%s\" %s\n",
               inside(m.user.ptr, data[1], len[1]) ? "points into" : "is outside", m.text.ptr,
               inside(m.text.ptr, data[1], len[1]) ? "points into it" : "is an arena copy");
    tyjson_arena_free(&arena);
    return 0;
}
