/*
 * decode.c - JSON text straight into C structs (tyjson_decode): frames,
 * the state machine and the entry point.
 *
 * One pass over the caller's bytes, which have no padding: every read is
 * bounded by the real end. Objects and arrays are frames on an explicit
 * stack (16 inline, more from the arena for deeply recursive types), so
 * hostile nesting costs no C stack; the only other walker, read/'s
 * tyjson__skip_value (through tyjson__dec_skip_value), keeps one bit per
 * level. Keys are dispatched with the type's perfect hash, numbers go
 * straight into the member's width, plain strings are copied with one
 * memcpy (or borrowed), and all memory comes from the arena. Free-form
 * values (VALUE, CUSTOM) are the exception: their byte span is found by
 * skipping the value and handed to the DOM parser.
 *
 * Errors record a status, a position and a message (decode_msg.c); the
 * JSON path is rebuilt from the frame stack only when the decode fails. Of
 * a repeated key the first occurrence wins: see frame.fence for how that
 * stays nearly free. The pieces share decode.h.
 *
 * run() is one function of labelled states joined by gotos. The innermost
 * object's hot state stays in its locals; small inline helpers take what
 * they touch as arguments: leaf_op() reads a scalar, save_obj() copies
 * that state into the frame before a nested container, and every error
 * leaves through `return bail(...)`, which records the current key.
 */
#include "bind/decode.h"
#include "read/json5.h"
#include "base/stack.h"

/* Every read flag the DOM parser has; tyjson_decode honours each (see
 * docs/binding.md) and refuses bits beyond them. */
#define KNOWN_READ_FLAGS                                                       \
    (TYJSON_READ_ALLOW_COMMENTS | TYJSON_READ_ALLOW_TRAILING_COMMAS |          \
     TYJSON_READ_ALLOW_INF_NAN | TYJSON_READ_ALLOW_BOM |                       \
     TYJSON_READ_ALLOW_INVALID_UTF8 | TYJSON_READ_STOP_WHEN_DONE |             \
     TYJSON_READ_REJECT_DUPLICATE_KEYS | TYJSON_READ_BIGNUM_AS_RAW |            \
     TYJSON_READ_NUMBER_AS_RAW)


/* ----------------------------------------------------------------------------
 * Frames
 * ------------------------------------------------------------------------- */
/* Twice the frames, through the explicit stack of base/stack.h over the
 * arena's allocator view: the arena owns every grown block, so nothing is
 * freed here, and the in-use frames move with the stack. */
TYJSON__FIRST_USE
static TYJSON__NOINLINE frame *grow_stack(dec *d, const u8 *p) {
    tyjson_alloc alc = tyjson_arena_allocator(d->arena);
    tyjson__stack st;
    tyjson__stack_init(&st, &alc, d->stk, d->cap, sizeof(frame));
    st.len = d->sp;
    st.heap = d->stk != d->inl; /* a grown block: resized in the arena */
    if (d->cap > UINT32_MAX / 2 || !tyjson__stack_grow(&st)) {
        tyjson__dec_fail(d, TYJSON_E_NOMEM, p, MSG_NOMEM);
        return NULL;
    }
    d->stk = (frame *)(void *)st.buf;
    d->cap = (u32)st.cap;
    d->hwm = d->sp; /* slots from here on have no hints yet */
    return d->stk;
}

/* A new top frame for a container at p, or NULL (depth, memory). */
TYJSON__FORCEINLINE frame *push(dec *d, const u8 *p) {
    if (unlikely(d->sp >= d->max_depth)) {
        tyjson__dec_fail(d, TYJSON_E_DEPTH, p, MSG_DEPTH);
        return NULL;
    }
    if (unlikely(d->sp == d->cap) && !grow_stack(d, p)) return NULL;
    if (unlikely(d->sp == d->hwm)) {
        /* a slot used for the first time: no key-order or length hint */
        d->stk[d->sp].prep = NULL;
        d->stk[d->sp].bf = NULL;
        d->hwm++;
    }
    return &d->stk[d->sp++];
}

/* Alignment for arena copies of a member type: the largest power of two
 * dividing its size, at most 16. */
static usize align_of_size(usize size) {
    usize a = size & (~size + 1);
    return a > 16 || a == 0 ? 16 : a;
}

/* Room for one more element of the DYN array in f. */
TYJSON__FIRST_USE
static TYJSON__NOINLINE bool arr_grow(dec *d, frame *f, const u8 *p) {
    usize size = f->bf->size;
    usize ncap, bytes;
    if (f->cap == 0) {
        ncap = size >= 64 ? 4 : 64 / size;
        if (ncap < 4) ncap = 4;
        if (f->hint > ncap && (usize)f->hint * size <= 16384) ncap = f->hint;
    } else if (tyjson__mul_ovf(f->cap, 2, &ncap)) {
        tyjson__dec_fail(d, TYJSON_E_NOMEM, p, MSG_NOMEM);
        return false;
    }
    if (tyjson__mul_ovf(ncap, size, &bytes)) {
        tyjson__dec_fail(d, TYJSON_E_NOMEM, p, MSG_NOMEM);
        return false;
    }
    tyjson_arena *a = d->arena;
    usize old = f->cap * size;
    /* New room is zeroed for elements decoded into it member by member
     * (structs, and the kinds tyjson__dec_leaf() fills); the common scalar kinds and
     * strings write every byte of their element. */
    u8 eop = f->bf->eop;
    bool zero = !(eop == TYJSON__OP_STR || eop == TYJSON__OP_I32 || eop == TYJSON__OP_I64 ||
                  eop == TYJSON__OP_BOOL || eop == TYJSON__OP_F64 || eop == TYJSON__OP_F32);
    if (f->base && f->base + old == a->cur && bytes - old <= (usize)(a->end - a->cur)) {
        /* still the arena's last allocation: grow where it is */
        if (zero) memset(a->cur, 0, bytes - old);
        a->cur += bytes - old;
        a->used += bytes - old;
        f->cap = ncap;
        return true;
    }
    char *nb = (char *)tyjson__arena_bump(a, bytes, align_of_size(size));
    if (!nb) {
        tyjson__dec_fail(d, TYJSON_E_NOMEM, p, MSG_NOMEM);
        return false;
    }
    if (f->n) memcpy(nb, f->base, f->n * size);
    if (zero) memset(nb + f->n * size, 0, bytes - f->n * size);
    f->base = nb;
    f->cap = ncap;
    return true;
}

TYJSON__FIRST_USE
static void arr_finish(dec *d, frame *f) {
    const tyjson__bind_field *bf = f->bf;
    usize n = f->n;
    if (bf->f->count_at) memcpy(f->owner + bf->f->count_at - 1, &n, sizeof(n));
    if (bf->shape != TYJSON_SHAPE_DYN) return;
    tyjson_arena *a = d->arena;
    usize size = bf->size;
    if (f->base && f->base + f->cap * size == a->cur) {
        /* give back the unused room */
        a->cur = f->base + n * size;
        a->used -= (f->cap - n) * size;
    }
    void *ptr = n ? (void *)f->base : NULL;
    memcpy(f->owner + bf->offset, &ptr, sizeof(ptr));
}

/* The members with a default value, into the object at base. */
static void apply_defaults(const tyjson__bind_prep *tp, char *base) {
    for (u32 w = 0; w < tp->n_words; w++) {
        u64 m = tp->defaulted[w];
        while (m) {
            u32 i = w * 64 + tyjson__ctz64(m);
            m &= m - 1;
            const tyjson__bind_field *bf = &tp->fields[i];
            put_default(bf, base + bf->offset);
        }
    }
}

/* Zeroes the size bytes of a struct at mem: from 16 to 64 bytes with two or
 * four overlapping 16-byte stores, which cost less than memset's call for
 * the small structs most messages hold. */
TYJSON__FORCEINLINE void zero_struct(char *mem, usize size) {
    static const u8 zero[16];
    if (size < 16 || size > 64) {
        memset(mem, 0, size);
        return;
    }
    memcpy(mem, zero, 16);
    memcpy(mem + size - 16, zero, 16);
    if (size > 32) {
        memcpy(mem + 16, zero, 16);
        memcpy(mem + size - 32, zero, 16);
    }
}

/* `null` at p, with 4 bytes readable (the padded copy's zero bytes never
 * complete it): one compare instead of tyjson__dec_literal()'s call. */
TYJSON__FORCEINLINE const u8 *null_at(dec *d, const u8 *p) {
    if (likely(d->lim - p >= 4 && memcmp(p, "null", 4) == 0)) return p + 4;
    return tyjson__dec_literal(d, p, "null", 4);
}

/* ----------------------------------------------------------------------------
 * The decoder proper
 * ------------------------------------------------------------------------- */
TYJSON__FORCEINLINE u64 *seen_words(frame *f) { return f->seen_wide ? f->seen_wide : &f->seen1; }

static TYJSON__NOINLINE const u8 *key_escaped(dec *d, const tyjson__bind_prep *tp, const u8 *ks,
                                              int32_t *idx) {
    u8 buf[SCRATCH];
    const u8 *s = NULL;
    usize n = 0;
    const u8 *q = tyjson__dec_str_bytes(d, ks - 1, buf, &s, &n);
    if (!q) return NULL;
    *idx = tyjson__bind_lookup(tp, s, n, n);
    return q;
}

static TYJSON__NOINLINE const u8 *missing(dec *d, frame *f, const u8 *p) {
    const tyjson__bind_prep *tp = f->prep;
    u64 *seen = seen_words(f);
    for (u32 w = 0; w < tp->n_words; w++) {
        u64 m = tp->required[w] & ~seen[w];
        if (m) {
            const tyjson__bind_field *bf = &tp->fields[w * 64 + tyjson__ctz64(m)];
            f->key = (const u8 *)bf->f->name;
            f->key_len = (u32)strlen(bf->f->name);
            return tyjson__dec_fail(d, TYJSON_E_MISSING_KEY, p, MSG_MISSING);
        }
    }
    return p;
}

static TYJSON__NOINLINE const u8 *duplicate(dec *d, const u8 *key) {
    return tyjson__dec_fail(d, TYJSON_E_DUPLICATE_KEY, key - 1, MSG_DUPLICATE);
}

/* Marks field i of a wide type (more than 64 fields) as seen in f: false
 * if it was already. */
static TYJSON__NOINLINE bool mark_seen_wide(frame *f, u32 i) {
    u64 bit = (u64)1 << (i % 64);
    if (f->seen_wide[i / 64] & bit) return false;
    f->seen_wide[i / 64] |= bit;
    return true;
}

/* Bits of the fields from index a to index b, both included (a <= b < 64). */
TYJSON__FORCEINLINE u64 bits_between(u32 a, u32 b) {
    u64 upto_b = b >= 63 ? ~(u64)0 : ((u64)2 << b) - 1;
    return upto_b & ~(((u64)1 << a) - 1);
}

/* f's seen fields with the current run of predicted keys, which stopped
 * before `stop` (the field predicted next, or tp's none past the end). */
TYJSON__FIRST_USE
static TYJSON__NOINLINE u64 run_seen(const tyjson__bind_prep *tp, const frame *f,
                                     const tyjson__bind_field *stop) {
    const tyjson__bind_field *none = &tp->none;
    if (f->chain == none || f->chain == stop) return f->seen1;
    u32 s = f->chain->index;
    if (!f->chain_rev) {
        u32 e = stop == none ? tp->n_fields : stop->index; /* [s, e) */
        return e > s ? f->seen1 | bits_between(s, e - 1) : f->seen1;
    }
    if (stop == none) return f->seen1 | bits_between(0, s); /* (e, s] */
    return stop->index < s ? f->seen1 | bits_between(stop->index + 1, s) : f->seen1;
}

/* A new run of predicted keys from `start` (going backwards if rev), with
 * `seen` the fields seen so far: its fence is the first of them along the
 * run. */
TYJSON__FIRST_USE
static TYJSON__NOINLINE void start_run(const tyjson__bind_prep *tp, frame *f,
                                       const tyjson__bind_field *start, bool rev, u64 seen) {
    const tyjson__bind_field *none = &tp->none;
    f->seen1 = seen;
    f->chain = start;
    f->chain_rev = rev;
    f->fence = none;
    if (start == none) return;
    u32 s = start->index;
    u64 m = rev ? seen & bits_between(0, s) : seen & ~(((u64)1 << s) - 1);
    if (m) f->fence = &tp->fields[rev ? 63 - (u32)__builtin_clzll(m) : (u32)tyjson__ctz64(m)];
}

/* JSON null for a field with a state member: the member is zero (an array
 * empty) and the state NULL. */
static TYJSON__NOINLINE void null_state_member(const tyjson__bind_field *bf, char *owner) {
    const tyjson_field *f = bf->f;
    if (bf->shape == TYJSON_SHAPE_ONE) memset(owner + bf->offset, 0, bf->size);
    else if (bf->shape == TYJSON_SHAPE_FIXED) memset(owner + bf->offset, 0, bf->size * f->capacity);
    else memset(owner + bf->offset, 0, sizeof(void *));
    if (f->count_at) memset(owner + f->count_at - 1, 0, sizeof(usize));
    owner[bf->state_at - 1] = (char)TYJSON_STATE_NULL;
}

/* A nested type's prepared record, read from the type each time (one load
 * on the fast path): no copy of it is kept, so that a nested type released
 * with tyjson_struct_release is simply prepared again here. */
TYJSON__FORCEINLINE const tyjson__bind_prep *sub_prep(dec *d, const tyjson__bind_field *bf,
                                                       const u8 *p) {
    tyjson_error e;
    const tyjson__bind_prep *tp = tyjson__struct_prep(bf->f->type, &e);
    if (unlikely(!tp)) {
        tyjson__dec_fail(d, e.code, p, e.msg);
        return NULL;
    }
    return tp;
}

/* One value of kind op at p (p < end) into mem: the common kinds inline,
 * the rest through tyjson__dec_leaf(). Returns the byte after the value, or
 * NULL on an error. end is the caller's d->end, which it keeps in a
 * register. */
TYJSON__FORCEINLINE const u8 *leaf_op(dec *d, const tyjson__bind_field *bf, char *mem,
                                      const u8 *p, const u8 *end, u8 op, bool padded) {
    switch (op) {
    case TYJSON__OP_STR:
        return likely(*p == '"') ? leaf_str(d, bf, mem, p, padded) : tyjson__dec_leaf(d, bf, mem, p);
    case TYJSON__OP_I32:
        return likely(*p == '-' || (*p >= '0' && *p <= '9'))
                   ? leaf_int_k(d, bf, mem, p, TYJSON_K_I32, padded) : tyjson__dec_leaf(d, bf, mem, p);
    case TYJSON__OP_I64:
        return likely(*p == '-' || (*p >= '0' && *p <= '9'))
                   ? leaf_int_k(d, bf, mem, p, TYJSON_K_I64, padded) : tyjson__dec_leaf(d, bf, mem, p);
    case TYJSON__OP_BOOL:
        if (*p == 't' && end - p >= 4 && memcmp(p, "true", 4) == 0) {
            *(bool *)(void *)mem = true;
            return p + 4;
        }
        if (*p == 'f' && end - p >= 5 && memcmp(p, "false", 5) == 0) {
            *(bool *)(void *)mem = false;
            return p + 5;
        }
        return tyjson__dec_leaf(d, bf, mem, p);
    case TYJSON__OP_F64:
        return likely((*p >= '0' && *p <= '9') || (*p == '-' && !opt_inf_nan(d)))
                   ? leaf_real_k(d, bf, mem, p, TYJSON_K_F64, padded) : tyjson__dec_leaf(d, bf, mem, p);
    case TYJSON__OP_F32:
        return likely((*p >= '0' && *p <= '9') || (*p == '-' && !opt_inf_nan(d)))
                   ? leaf_real_k(d, bf, mem, p, TYJSON_K_F32, padded) : tyjson__dec_leaf(d, bf, mem, p);
    case TYJSON__OP_DATE:
        return tyjson__dec_date_op(d, bf, mem, p);
    case TYJSON__OP_EPOCH_MS:
        return tyjson__dec_epoch_ms_op(d, bf, mem, p);
    default:
        return tyjson__dec_leaf(d, bf, mem, p);
    }
}

/* The hot state of the innermost object (its expected key `pred`, key
 * order `orev` and current key `okey`) lives in run()'s locals, which
 * stores through `mem` (a char pointer, aliasing everything) cannot force
 * back to memory. Its frame f gets a copy when a nested container is
 * entered (save_obj), and the key on errors (bail). */
TYJSON__FORCEINLINE void save_obj(frame *f, const tyjson__bind_field *pred, bool orev,
                                  const u8 *okey) {
    f->pred = pred;
    f->rev = orev;
    f->key = okey;
    f->key_len = KEY_IN_INPUT;
}

/* What run() returns on an error: NULL, once the innermost object's frame
 * has its current key okey for the error's path. `failed` is the failing
 * call's result (NULL), evaluated before the key is stored. */
TYJSON__FORCEINLINE const u8 *bail(dec *d, const u8 *okey, const u8 *failed) {
    (void)failed;
    if (d->sp && d->stk[d->sp - 1].type == FR_OBJ) {
        d->stk[d->sp - 1].key = okey;
        d->stk[d->sp - 1].key_len = KEY_IN_INPUT;
    }
    return NULL;
}

/* run_padded() and run_plain() below are its two instances: `padded`
 * (the input is the padded copy, lim = end + TYJSON__PAD) makes every room
 * test true at compile time. */
TYJSON__FORCEINLINE const u8 *run(dec *d, const tyjson__bind_prep *root, char *out, bool padded) {
    const u8 *p = d->start, *end = d->end, *lim = d->lim;
    const tyjson__bind_prep *tp = root;
    const tyjson__bind_field *bf;
    char *mem = out, *owner;
    frame *f = NULL;
    u8 op;
    bool fresh = false; /* mem is known to be zero already */
    /* the innermost object */
    const tyjson__bind_prep *otp = NULL;
    const tyjson__bind_field *pred = NULL;
    char *obase = NULL;
    const u8 *okey = NULL;
    bool orev = false;

    p = ws(d, p);
    if (p >= end) return tyjson__dec_fail(d, TYJSON_E_EMPTY, p, NULL);

open_type: /* the value at p (p < end) is a tp in mem */
    if (unlikely(tp->tflags & TYJSON_T_ARRAY)) {
        if (*p != '[') return bail(d, okey, tyjson__dec_mismatch(d, EXP_ARRAY, p));
        if (!fresh) zero_struct(mem, tp->size);
        bf = &tp->fields[0];
        owner = mem;
        goto open_array;
    }
    if (unlikely(*p != '{')) return bail(d, okey, tyjson__dec_mismatch(d, EXP_OBJ, p));
open_object: /* p at the '{' of an object of type tp into mem */
    if (d->sp && f->type == FR_OBJ) save_obj(f, pred, orev, okey);
    f = push(d, p);
    if (!f) return bail(d, okey, NULL);
    /* The slot's last object, when of the same type (the previous element
     * of an array), tells the key order to expect. */
    orev = f->prep == tp && f->type == FR_OBJ && f->rev;
    pred = orev ? tp->last : tp->first;
    f->type = FR_OBJ;
    f->prep = tp;
    f->base = mem;
    otp = tp;
    obase = mem;
    okey = NULL;
    f->seen1 = 0;
    f->chain = pred;
    f->chain_rev = orev;
    f->fence = &tp->none;
    f->seen_wide = NULL;
    if (unlikely(tp->wide)) {
        f->seen_wide = (u64 *)tyjson__arena_bump(d->arena, tp->n_words * sizeof(u64), 8);
        if (!f->seen_wide) return bail(d, okey, tyjson__dec_fail(d, TYJSON_E_NOMEM, p, MSG_NOMEM));
        memset(f->seen_wide, 0, tp->n_words * sizeof(u64));
    }
    if (!fresh) zero_struct(mem, tp->size);
    if (tp->any_default) apply_defaults(tp, mem);
    p++;
    if (likely(p < end && *p == '"')) goto obj_member;
    p = ws(d, p);
    if (p < end && *p == '}') goto obj_close;
    if (unlikely(p >= end || *p != '"'))
        return bail(d, okey, tyjson__dec_fail_expect(d, p, MSG_KEY_OR_CLOSE));

obj_member: /* p at a key's opening quote */
    okey = p + 1;
    bf = pred;
    if (padded || likely(lim - p > 16)) {
    key_literal: /* as above, 16 bytes known readable at p */
        {
            /* the key expected next, `"key":` included, in one masked compare */
            u64 w0, w1;
            memcpy(&w0, p, 8);
            memcpy(&w1, p + 8, 8);
            if (likely((((w0 ^ bf->lit_words[0]) & bf->lit_masks[0]) |
                        ((w1 ^ bf->lit_words[1]) & bf->lit_masks[1])) == 0)) {
                /* the literal is at most 16 bytes and has no zero byte: p
                 * stays within the input (at its end only in the padded
                 * copy) */
                p += bf->lit_match_len;
                /* pretty text: `"key": value`. A branch, not arithmetic on
                 * p: that would make every later load wait for this one. */
                if (unlikely(*p == ' ')) {
                    p++;
                    if (unlikely(p >= end))
                        return bail(d, okey, tyjson__dec_fail(d, TYJSON_E_TRUNCATED, p, MSG_VALUE));
                    KEEP_BRANCH();
                }
                if (likely(p < end)) goto have_value;
                return bail(d, okey, tyjson__dec_fail(d, TYJSON_E_TRUNCATED, p, MSG_VALUE));
            }
        }
    }
    {
        const u8 *ks = p + 1;
        int32_t found;
        tyjson__str_scan r = str_scan(d, ks, padded);
        if (unlikely(r.err != TYJSON_OK))
            return bail(d, okey, tyjson__dec_fail(d, r.err, r.stop, NULL));
        if (likely(*r.stop == '"')) {
            found = tyjson__bind_lookup(otp, ks, (usize)(r.stop - ks), (usize)(lim - ks));
            p = r.stop + 1;
        } else {
            p = key_escaped(d, otp, ks, &found);
            if (!p) return bail(d, okey, NULL);
        }
        if (likely(p < end && *p == ':')) {
            p++;
        } else {
            p = ws(d, p);
            if (p >= end || *p != ':')
                return bail(d, okey, tyjson__dec_fail_expect(d, p, MSG_COLON));
            p++;
        }
        if (unlikely(found < 0)) {
            if (opt_unknown_error(d) || (otp->tflags & TYJSON_T_UNKNOWN_ERROR))
                return bail(d, okey,
                            tyjson__dec_fail(d, TYJSON_E_UNKNOWN_KEY, okey - 1, MSG_UNKNOWN));
            p = ws(d, p);
            p = skip_unbound(d, p, padded);
            if (!p) return bail(d, okey, NULL);
            goto obj_next;
        }
        bf = &otp->fields[found];
        /* The prediction missed: whether keys come in declared or reverse
         * order shows in where this one stands next to the previous one. */
        orev = bf->index + 1 == (orev ? pred->next : pred->prev)->index;
        if (likely(!otp->wide)) {
            /* the run ended: fold it into the bitmask, check this key, and
             * start the next run after it */
            u64 seen = run_seen(otp, f, pred);
            bool repeated = (seen & bf->bit) != 0;
            seen |= bf->bit;
            pred = orev ? bf->prev : bf->next;
            start_run(otp, f, pred, orev, seen);
            if (unlikely(repeated)) goto repeated_key;
        }
    }

    /* field bf of the innermost object; p after the colon */
    /* whitespace before the value is rare enough to be left to the slow
     * paths of the ops below (tyjson__dec_leaf(), open_nested, open_array) */
    if (unlikely(p >= end))
        return bail(d, okey, tyjson__dec_fail(d, TYJSON_E_TRUNCATED, p, MSG_VALUE));
have_value: /* the same, p < end */
    pred = orev ? bf->prev : bf->next;
    /* A predicted key seen before: the first occurrence wins (as in the
     * DOM's lookups). See frame.fence. */
    if (unlikely(bf == f->fence)) {
        start_run(otp, f, pred, orev, run_seen(otp, f, bf));
        goto repeated_key;
    }
    mem = obase + bf->offset;
    op = bf->op;
dispatch:
    /* The leaf cases repeat leaf_op()'s: calling it from the default case
     * instead puts a second switch on the way of every member and costs
     * about 2% of a decode's instructions. */
    switch (op) {
    case TYJSON__OP_STR:
        p = likely(*p == '"') ? leaf_str(d, bf, mem, p, padded) : tyjson__dec_leaf(d, bf, mem, p);
        break;
    case TYJSON__OP_I32:
        p = likely(*p == '-' || (*p >= '0' && *p <= '9')) ? leaf_int_k(d, bf, mem, p, TYJSON_K_I32, padded)
                                                         : tyjson__dec_leaf(d, bf, mem, p);
        break;
    case TYJSON__OP_I64:
        p = likely(*p == '-' || (*p >= '0' && *p <= '9')) ? leaf_int_k(d, bf, mem, p, TYJSON_K_I64, padded)
                                                         : tyjson__dec_leaf(d, bf, mem, p);
        break;
    case TYJSON__OP_BOOL:
        if (*p == 't' && end - p >= 4 && memcmp(p, "true", 4) == 0) {
            *(bool *)(void *)mem = true;
            p += 4;
        } else if (*p == 'f' && end - p >= 5 && memcmp(p, "false", 5) == 0) {
            *(bool *)(void *)mem = false;
            p += 5;
        } else {
            p = tyjson__dec_leaf(d, bf, mem, p);
        }
        break;
    case TYJSON__OP_F64:
        p = likely((*p >= '0' && *p <= '9') || (*p == '-' && !opt_inf_nan(d)))
                ? leaf_real_k(d, bf, mem, p, TYJSON_K_F64, padded) : tyjson__dec_leaf(d, bf, mem, p);
        break;
    case TYJSON__OP_F32:
        p = likely((*p >= '0' && *p <= '9') || (*p == '-' && !opt_inf_nan(d)))
                ? leaf_real_k(d, bf, mem, p, TYJSON_K_F32, padded) : tyjson__dec_leaf(d, bf, mem, p);
        break;
    case TYJSON__OP_DATE:
        p = tyjson__dec_date_op(d, bf, mem, p);
        break;
    case TYJSON__OP_EPOCH_MS:
        p = tyjson__dec_epoch_ms_op(d, bf, mem, p);
        break;
    case TYJSON__OP_NESTED:
        fresh = false;
        save_obj(f, pred, orev, okey);
        goto open_nested;
    case TYJSON__OP_ARRAY:
        owner = obase;
        save_obj(f, pred, orev, okey);
        goto open_array;
    case TYJSON__OP_SPECIAL:
        if (unlikely(otp->wide) && !mark_seen_wide(f, bf->index)) goto repeated_key;
        if (bf->present_at) *(bool *)(void *)(obase + bf->present_at - 1) = true;
        if (bf->state_at) {
            p = ws(d, p);
            if (p >= end)
                return bail(d, okey, tyjson__dec_fail(d, TYJSON_E_TRUNCATED, p, MSG_VALUE));
            if (*p == 'n') {
                p = null_at(d, p);
                if (!p) return bail(d, okey, NULL);
                null_state_member(bf, obase);
                goto obj_next;
            }
            obase[bf->state_at - 1] = (char)TYJSON_STATE_SET;
        }
        op = bf->vop;
        goto dispatch;
    default:
        p = tyjson__dec_leaf(d, bf, mem, p);
        break;
    }
    if (unlikely(!p)) return bail(d, okey, NULL);
    goto obj_next;

repeated_key: /* bf's key again (p after the colon): skipped, or an error */
    if (opt_dup_error(d) || (otp->tflags & TYJSON_T_DUPLICATE_ERROR))
        return bail(d, okey, duplicate(d, okey));
    p = ws(d, p);
    p = tyjson__dec_skip_value(d, p);
    if (!p) return bail(d, okey, NULL);

obj_next: /* after a member of the innermost object */
    if (padded || likely(lim - p > 17)) {
        /* `,"` then the expected key: the common case in one compare */
        u32 h = tyjson__num_le16((const char *)p);
        if (likely(h == (u32)(',' | '"' << 8))) {
            p++;
            okey = p + 1;
            bf = pred;
            goto key_literal;
        }
        if (h == (u32)(',' | '\n' << 8)) { /* pretty: `,` newline indentation `"` */
            const u8 *q = tyjson__skip_indent(p + 1, end);
            if (likely(*q == '"' && (padded || lim - q > 16))) {
                p = q;
                okey = p + 1;
                bf = pred;
                goto key_literal;
            }
        }
    }
    if (likely(p < end && *p == ',')) {
        p++;
        if (likely(p < end && *p == '"')) goto obj_member;
    } else {
        p = ws(d, p);
        if (likely(p < end && *p == '}')) goto obj_close;
        if (p >= end || *p != ',')
            return bail(d, okey, tyjson__dec_fail_expect(d, p, MSG_OBJ_NEXT));
        p++;
    }
    okey = NULL; /* past the separator: an error here is the object's, not the last key's */
    p = ws(d, p);
    if (likely(p < end && *p == '"')) goto obj_member;
    if (opt_trailing(d) && p < end && *p == '}') goto obj_close;
    return bail(d, okey, tyjson__dec_fail_expect(d, p, MSG_KEY));

obj_close: /* p at the innermost object's '}' */
    if (otp->any_required) {
        if (!otp->wide) f->seen1 = run_seen(otp, f, pred);
        if (!missing(d, f, p)) return NULL;
    }
    f->rev = orev; /* a hint for the next object in this slot */
    p++;
    d->sp--;

resume: /* a value ended at p; continue in the enclosing container */
    if (unlikely(d->sp == 0)) return p;
    f = &d->stk[d->sp - 1];
    if (f->type == FR_OBJ) {
        otp = f->prep;
        obase = f->base;
        pred = f->pred;
        orev = f->rev;
        okey = f->key;
        if (likely(p < end && *p == '}')) goto obj_close;
        goto obj_next;
    }
    goto arr_next;

open_nested: /* STRUCT or PTR (member or element) bf at p into mem */
    if (unlikely(*p <= ' ' || *p == '/')) {
        p = ws(d, p);
        if (p >= end) return bail(d, okey, tyjson__dec_fail(d, TYJSON_E_TRUNCATED, p, MSG_VALUE));
    }
    if (*p == 'n') {
        if (bf->kind == TYJSON_K_PTR) {
            p = null_at(d, p);
            if (!p) return bail(d, okey, NULL);
            memset(mem, 0, sizeof(void *));
            goto resume;
        }
        p = tyjson__dec_leaf_null(d, bf, mem, p);
        if (!p) return bail(d, okey, NULL);
        goto resume;
    }
    tp = sub_prep(d, bf, p);
    if (!tp) return bail(d, okey, NULL);
    if (bf->kind == TYJSON_K_PTR) {
        bool want_array = (tp->tflags & TYJSON_T_ARRAY) != 0;
        if (*p != (want_array ? '[' : '{'))
            return bail(d, okey, tyjson__dec_mismatch(d, want_array ? EXP_ARRAY : EXP_OBJ, p));
        char *obj = (char *)tyjson__arena_bump(d->arena, tp->size, align_of_size(tp->size));
        if (!obj) return bail(d, okey, tyjson__dec_fail(d, TYJSON_E_NOMEM, p, MSG_NOMEM));
        memcpy(mem, &obj, sizeof(obj));
        mem = obj;
        fresh = false;
    }
    goto open_type;

open_array: /* array field bf of the struct owner; p at its value */
    if (unlikely(*p <= ' ' || *p == '/')) {
        p = ws(d, p);
        if (p >= end) return bail(d, okey, tyjson__dec_fail(d, TYJSON_E_TRUNCATED, p, MSG_VALUE));
    }
    if (*p != '[') {
        if (*p == 'n' && (bf->flags & TYJSON_F_NULLABLE)) {
            p = null_at(d, p);
            if (!p) return bail(d, okey, NULL);
            usize zero = 0;
            if (bf->f->count_at) memcpy(owner + bf->f->count_at - 1, &zero, sizeof(zero));
            if (bf->shape == TYJSON_SHAPE_DYN) memset(owner + bf->offset, 0, sizeof(void *));
            else memset(owner + bf->offset, 0, bf->size * bf->f->capacity);
            goto resume;
        }
        return bail(d, okey, tyjson__dec_mismatch(d, EXP_ARRAY, p));
    }
    f = push(d, p);
    if (!f) return bail(d, okey, NULL);
    f->hint = f->bf == bf ? (u32)(f->n < UINT32_MAX ? f->n : UINT32_MAX) : 0;
    f->type = FR_ARR;
    f->bf = bf;
    f->owner = owner;
    f->n = 0;
    if (bf->shape == TYJSON_SHAPE_FIXED) {
        f->base = owner + bf->offset;
        f->cap = bf->f->capacity;
        memset(f->base, 0, f->cap * bf->size);
    } else {
        f->base = NULL;
        f->cap = 0;
    }
    p = ws(d, p + 1);
    if (p < end && *p == ']') goto arr_close;

arr_elem: /* p at an element of the top array */
    if (unlikely(p >= end)) {
        f->n++; /* the path names the element that is missing */
        return bail(d, okey, tyjson__dec_fail(d, TYJSON_E_TRUNCATED, p, MSG_VALUE));
    }
    bf = f->bf;
    if (unlikely(f->n == f->cap)) {
        if (bf->shape == TYJSON_SHAPE_FIXED) {
            f->n++; /* the path names the element that does not fit */
            return bail(d, okey, tyjson__dec_fail(d, TYJSON_E_SIZE, p, MSG_FIXED));
        }
        if (!arr_grow(d, f, p)) return bail(d, okey, NULL);
    }
    mem = f->base + f->n * bf->size;
    f->n++;
    if (bf->eop == TYJSON__OP_NESTED) {
        fresh = true; /* new array room is zeroed */
        /* an array of structs: straight to the object */
        if (likely(*p == '{') && bf->kind != TYJSON_K_PTR) {
            tp = sub_prep(d, bf, p);
            if (!tp) return bail(d, okey, NULL);
            if (likely(!(tp->tflags & TYJSON_T_ARRAY))) goto open_object;
        }
        goto open_nested;
    }
    p = leaf_op(d, bf, mem, p, end, bf->eop, padded);
    if (unlikely(!p)) return bail(d, okey, NULL);

arr_next: /* after an element of the top array */
    if (likely(p < end && *p == ',')) {
        p++;
        if (likely(p < end && *p > ' ' && *p != '/' && *p != ']')) goto arr_elem;
        p = ws(d, p);
        if (opt_trailing(d) && p < end && *p == ']') goto arr_close;
        goto arr_elem;
    }
    p = ws(d, p);
    if (likely(p < end && *p == ']')) goto arr_close;
    if (p < end && *p == ',') goto arr_next;
    return bail(d, okey, tyjson__dec_fail_expect(d, p, MSG_ARR_NEXT));

arr_close: /* p at the top array's ']' */
    arr_finish(d, f);
    p++;
    d->sp--;
    goto resume;
}

TYJSON__FIRST_USE
static TYJSON__NOINLINE const u8 *run_padded(dec *d, const tyjson__bind_prep *root, char *out) {
    return run(d, root, out, true);
}

TYJSON__FIRST_USE
static TYJSON__NOINLINE const u8 *run_plain(dec *d, const tyjson__bind_prep *root, char *out) {
    return run(d, root, out, false);
}

/* ----------------------------------------------------------------------------
 * Entry point
 * ------------------------------------------------------------------------- */
TYJSON__FIRST_USE
tyjson_status tyjson_decode(tyjson_struct *type, void *out, const char *json, usize len,
                            tyjson_arena *arena, const tyjson_decode_options *opts,
                            tyjson_error *err) {
    const char *bad_arg = !type ? "type is NULL" : !out ? "out is NULL"
                          : !arena ? "arena is NULL"
                          : (!json && len) ? "json is NULL with a non-zero length"
                          : (opts && (opts->read_flags & TYJSON__J5_FLAGS))
                              ? "the binding decoder does not read JSON5 (read_flags has a JSON5 bit)"
                          : (opts && (opts->read_flags & ~KNOWN_READ_FLAGS))
                              ? "unknown bits in read_flags" : NULL;
    if (bad_arg) {
        if (type && out) memset(out, 0, type->size);
        tyjson__err_set(err, TYJSON_E_INVALID_ARG, NULL, 0, 0);
        tyjson__err_msg(err, bad_arg);
        return TYJSON_E_INVALID_ARG;
    }
    tyjson_error local;
    tyjson__bind_prep *prep = tyjson__struct_prep(type, err ? err : &local);
    if (!prep) {
        memset(out, 0, type->size);
        return err ? err->code : local.code;
    }
    if (!json) json = "";
    dec d;
    u8 small[SMALL_INPUT + TYJSON__PAD];
    d.caller = (const u8 *)json;
    if (len <= SMALL_INPUT) {
        memcpy(small, json, len);
        memset(small + len, 0, TYJSON__PAD);
        d.base = small;
        d.lim = small + len + TYJSON__PAD;
    } else {
        d.base = d.caller;
        d.lim = d.caller + len;
    }
    d.start = d.base;
    d.end = d.start + len;
    d.arena = arena;
    d.alc = tyjson_arena_allocator(arena);
    d.stk = d.inl;
    d.sp = 0;
    d.cap = INL_FRAMES;
    d.hwm = 0;
    d.max_depth = TYJSON_DEFAULT_MAX_DEPTH;
    d.rflags = 0;
    d.dflags = 0;
    if (opts) {
        d.rflags = opts->read_flags;
        d.dflags = opts->flags;
        if (d.rflags & TYJSON_READ_STOP_WHEN_DONE) d.dflags |= TYJSON_DECODE_STOP_WHEN_DONE;
        if (opts->max_depth) d.max_depth = opts->max_depth;
    }
    d.code = TYJSON_OK;
    d.epos = d.start;
    d.msg = NULL;
    d.pending = TYJSON_OK;
    d.pending_pos = NULL;
    if ((d.rflags & TYJSON_READ_ALLOW_BOM) && tyjson__has_bom(d.start, d.end)) d.start += 3;

    const u8 *p = d.base != d.caller ? run_padded(&d, prep, (char *)out)
                                     : run_plain(&d, prep, (char *)out);
    if (p) {
        p = ws(&d, p);
        if (d.pending != TYJSON_OK) {
            p = tyjson__dec_fail(&d, d.pending, d.pending_pos, NULL);
        } else if (p < d.end && !(d.dflags & TYJSON_DECODE_STOP_WHEN_DONE)) {
            d.sp = 0;
            p = tyjson__dec_fail(&d, TYJSON_E_TRAILING, p, MSG_TRAILING);
        }
    }
    if (!p) {
        memset(out, 0, type->size);
        const u8 *base = d.base;
        const u8 *pos = d.epos ? d.epos : base;
        if (pos < base) pos = base;
        if (pos > d.end) pos = d.end;
        tyjson__err_set(err, d.code, json, len, (usize)(pos - base));
        if (err) {
            if (d.msg) tyjson__err_msg(err, d.msg);
            tyjson__dec_build_path(&d, err->path, sizeof(err->path));
        }
        if (opts && opts->read_size) *opts->read_size = 0;
        return d.code;
    }
    if (opts && opts->read_size) *opts->read_size = (usize)(p - d.base);
    tyjson__err_ok(err);
    return TYJSON_OK;
}
