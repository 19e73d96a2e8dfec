/*
 * decode_index.c - the binding decoder's index route: for a large input,
 * one validating walk over the structural index (read/skip.c,
 * tyjson__index_containers: the shared indexer and tyjson_validate's
 * grammar walk) lists where every container opens and closes before the
 * decode starts. The decode then reads as before, except that an unbound
 * container is passed in one step from that list instead of by the
 * validating skip, and the rest of an object is passed in one step once
 * every field of its type is seen (decode.c, obj_next).
 *
 * Why the results stay the same: the list is used only when the walk found
 * the whole input valid under the skip's own rules (strict grammar, UTF-8,
 * the decoder's depth limit counted from the root, numbers of any size).
 * Then every skip of a container the decoder makes would succeed and end
 * at the container's closing bracket, which is what the list gives; and
 * the members after the last field can only be unknown or repeated keys,
 * which are skipped without an error unless the type or the flags make
 * them errors (then the rest is read as before). Input that is not valid
 * gets no list, and the decode reports exactly what it always did.
 * Everything else (keys, bound values, the scalars it skips) the decoder
 * still reads and checks itself.
 */
#include "bind/decode.h"
#include "base/arena.h"
#include "read/index.h"

/* Below this many bytes the walk over the whole input costs more than the
 * container skips save: small messages keep the byte route. */
#define INDEX_ROUTE_MIN_LEN 4096

/* Room for one container per this many bytes of input (and a few more):
 * an input denser in containers gives up the route, whose table would
 * then be large next to the input and its containers too small to gain
 * much from being passed in one step. */
#define BYTES_PER_CONTAINER 64

static int route_policy = TYJSON__DEC_INDEX_AUTO;
static unsigned long routes_taken;

void tyjson__dec_set_index_policy(int policy) { route_policy = policy; }

unsigned long tyjson__dec_index_routes(void) { return routes_taken; }

/* The table is scratch for one decode. It is taken from the top of the
 * arena's free room (below `end`) and given back when the decode ends, so
 * the arena's use and its allocator calls stay those of the decode alone
 * once the arena holds a block that takes both (a message stream reaches
 * that after a reset or two, as it does for the outputs). */
static bool take_table(dec *d, usize cap) {
    tyjson_arena *a = d->arena;
    usize bytes = cap * sizeof(tyjson__ctn_span) + 8; /* + alignment */
    if ((usize)(a->end - a->cur) < bytes) {
        /* a block with the room, left free for the outputs below the table */
        char *blk = (char *)tyjson__arena_bump(a, bytes, 8);
        if (!blk) return false;
        a->cur = blk;
        a->used -= bytes;
    }
    char *top = a->end;
    uintptr_t at = ((uintptr_t)(top - bytes) + 7) & ~(uintptr_t)7;
    d->ctn.v = (tyjson__ctn_span *)(void *)at;
    d->ctn.cap = cap;
    d->ctn_top = top;
    a->end = (char *)at;
    return true;
}

/* The route takes strict input only (the index walk's grammar), a vector
 * kernel (the portable indexer is slower than the byte walk), an arena
 * that may allocate (one over a caller's buffer keeps all its room for the
 * outputs) and a large input, unless the policy (which tests set) says
 * always or never. */
void tyjson__dec_index_start(dec *d) {
    d->ctn.v = NULL;
    d->ctn.n = 0;
    d->ctn.cap = 0;
    d->ctn_at = 0;
    d->ctn_top = NULL;
    usize len = (usize)(d->end - d->start);
    if (route_policy == TYJSON__DEC_INDEX_NEVER ||
        (route_policy == TYJSON__DEC_INDEX_AUTO && len < INDEX_ROUTE_MIN_LEN))
        return;
    if (d->arena->fixed || d->rflags != 0 || d->dflags & TYJSON_DECODE_STOP_WHEN_DONE ||
        tyjson__index_kernel() == tyjson__index_scalar || len >= UINT32_MAX)
        return;
    if (!take_table(d, len / BYTES_PER_CONTAINER + 16)) return;
    tyjson__skip_opts o = {d->end, d->rflags, 0, d->max_depth, &d->alc};
    if (!tyjson__index_containers(d->start, &o, &d->ctn)) d->ctn.n = 0;
    else routes_taken++;
}

/* The table's room back to the arena, when the outputs did not move the
 * arena on to another block (then it stays with the old block's tail). */
void tyjson__dec_index_end(dec *d) {
    tyjson_arena *a = d->arena;
    if (d->ctn_top && a->end == (char *)d->ctn.v) a->end = d->ctn_top;
    d->ctn_top = NULL;
    d->ctn.n = 0;
}

/* The decoder moves forward only, so the search goes on from the first
 * container not yet passed: one that closed before p is passed with
 * everything inside it (its `next`), one still open at p is entered. Each
 * entry is looked at about once per decode. */
TYJSON__FORCEINLINE const tyjson__ctn_span *find_span(dec *d, const u8 *p) {
    const tyjson__ctn_span *v = d->ctn.v;
    usize n = d->ctn.n, at = d->ctn_at;
    u32 off = (u32)(p - d->ctn.org);
    while (at < n && v[at].open < off) at = v[at].close < off ? v[at].next : at + 1;
    d->ctn_at = at;
    return at < n && v[at].open == off ? &v[at] : NULL;
}

const u8 *tyjson__dec_index_skip(dec *d, const u8 *p) {
    const tyjson__ctn_span *sp = find_span(d, p);
    if (!sp) return NULL;
    d->ctn_at = sp->next;
    return d->ctn.org + sp->close + 1;
}

const u8 *tyjson__dec_index_enter(dec *d, const u8 *p) {
    const tyjson__ctn_span *sp = find_span(d, p);
    if (!sp) return NULL;
    d->ctn_at++;
    return d->ctn.org + sp->close;
}
