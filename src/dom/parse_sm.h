/*
 * parse_sm.h - the DOM parser's byte-at-a-time state machine, included by
 * parse.c three times: as parse_owned_std (PARSE_SM_J5 0, PARSE_SM_SCALAR
 * read_scalar: strict input and the older relaxations, where every JSON5
 * test is a literal 0 and compiles away), as parse_owned_raw (PARSE_SM_J5
 * 0, PARSE_SM_SCALAR read_scalar_raw: TYJSON_READ_NUMBER_AS_RAW, numbers
 * kept as text) and as parse_owned_j5 (PARSE_SM_J5 1: input read with a
 * JSON5 bit; read_scalar_j5 handles both number modes). Literals and a
 * macro rather than parameters keep the strict machine the code it was
 * before JSON5 and raw numbers (docs/perf-log.md, "JSON5", "NUMBER_AS_RAW").
 *
 * Before including: PARSE_SM_NAME, PARSE_SM_J5, PARSE_SM_SCALAR, PARSE_SM_NUM
 * (the number reader of PARSE_SM_SCALAR), and
 * parse.c's macros and readers.
 */

/* On success returns the document (owning p->buf); on failure frees
 * everything and returns NULL with err filled, positions reported against
 * `orig` (the caller's bytes) for line/column. */
static TYJSON__NOINLINE tyjson_doc *PARSE_SM_NAME(parser *p, u32 flags, u32 max_depth,
                                 const char *orig, tyjson_error *err) {
    u8 *const buf = p->buf;
    const u8 *const end = buf + p->len;
    const u8 *cur = buf;
    failure f = {TYJSON_OK, buf, EXPECT_NONE};
    const bool allow_invalid = (flags & TYJSON_READ_ALLOW_INVALID_UTF8) != 0;
    const scalar_cfg cfg = {end, flags,
                            TYJSON_TYPE_STR | (allow_invalid ? 0 : TYJSON__NOESC_BIT),
                            allow_invalid};
    usize raw_count = 0;
    u32 depth = 0;
    usize ctn = NO_CTN; /* index of the innermost open container */
    usize cnt = 0;      /* its children so far */
    tyjson_val *vals, *v, *vcap;

    p->max_vals = tyjson__dom_max_values(p->len, max_depth);
    p->max_depth = max_depth;
    if (!tyjson__dom_block_resize(p, tyjson__dom_first_capacity(p))) goto fail_nomem;
    vals = tyjson__doc_vals(p->doc);
    v = vals;
    vcap = vals + p->cap;

    cur = tyjson__skip_bom(cur, end, flags);
    SKIP_WS_OR_FAIL(f, cur, end, flags, PARSE_SM_J5);
    if (cur >= end) GOTO_FAIL(f, TYJSON_E_EMPTY, end, EXPECT_NONE);

    /* ---- root value ---- */
    NEED_SLOTS_OR_FAIL(p, vals, v, vcap, 1);
    if (*cur == '[') goto arr_open;
    if (*cur == '{') goto obj_open;
    READ_SCALAR_OR_FAIL(f, cur, cfg, v, raw_count, EXPECT_ROOT, PARSE_SM_J5);
    goto root_end;

    /* ---- arrays ---- */
arr_open:
    if (unlikely(++depth > max_depth)) GOTO_FAIL(f, TYJSON_E_DEPTH, cur, EXPECT_NONE);
    ctn = open_container(vals, v, TYJSON_TYPE_ARR, ctn, cnt);
    cnt = 0;
    v++;
    cur++;
    SKIP_WS_OR_FAIL(f, cur, end, flags, PARSE_SM_J5);
    if (*cur == ']') goto arr_close;
arr_val:
    NEED_SLOTS_OR_FAIL(p, vals, v, vcap, 1);
    cnt++;
    /* Arrays of numbers (coordinates, meshes, series) are the common
     * array: a digit, or '-' and a digit (not "-Infinity"), goes to the
     * number reader before the container and string tests (after them: mesh -1.9%
     * instead of -5.1% instructions, twitterescaped -0.2% instead of +1.1%). */
    if (!PARSE_SM_J5 && ((u32)*cur - '0' <= 9 || (*cur == '-' && (u32)cur[1] - '0' <= 9))) {
        cur = PARSE_SM_NUM(cur, &cfg, v, &raw_count, &f);
        if (unlikely(!cur)) goto fail; /* the number reader's expectation */
        v++;
        goto arr_val_end;
    }
    if (*cur == '[') goto arr_open;
    if (*cur == '{') goto obj_open;
    READ_SCALAR_OR_FAIL(f, cur, cfg, v, raw_count,
                        cnt == 1 ? EXPECT_ARR_FIRST : EXPECT_ARR_VALUE, PARSE_SM_J5);
arr_val_end:
    if (*cur == ',') {
        cur++;
        SKIP_WS_OR_FAIL(f, cur, end, flags, PARSE_SM_J5);
        if (unlikely(*cur == ']') && (flags & TYJSON_READ_ALLOW_TRAILING_COMMAS)) goto arr_close;
        goto arr_val;
    }
    if (*cur == ']') goto arr_close;
    SKIP_WS_OR_FAIL(f, cur, end, flags, PARSE_SM_J5);
    if (*cur == ',') {
        cur++;
        SKIP_WS_OR_FAIL(f, cur, end, flags, PARSE_SM_J5);
        if (unlikely(*cur == ']') && (flags & TYJSON_READ_ALLOW_TRAILING_COMMAS)) goto arr_close;
        goto arr_val;
    }
    if (*cur == ']') goto arr_close;
    GOTO_FAIL_AT(f, cur, end, EXPECT_ARR_NEXT);
arr_close : {
    cur++;
    depth--;
    usize parent = close_container(vals, ctn, TYJSON_TYPE_ARR, cnt, v);
    if (parent == NO_CTN) goto root_end;
    ctn = parent;
    cnt = tyjson__tag_len(vals[ctn].tag);
    if ((vals[ctn].tag & TYJSON__TYPE_MASK) == TYJSON_TYPE_ARR) goto arr_val_end;
    goto obj_val_end;
}

    /* ---- objects ---- */
obj_open:
    if (unlikely(++depth > max_depth)) GOTO_FAIL(f, TYJSON_E_DEPTH, cur, EXPECT_NONE);
    ctn = open_container(vals, v, TYJSON_TYPE_OBJ, ctn, cnt);
    cnt = 0;
    v++;
    cur++;
    SKIP_WS_OR_FAIL(f, cur, end, flags, PARSE_SM_J5);
    if (*cur == '}') goto obj_close;
obj_key:
    if (unlikely(*cur != '"')) {
        if (PARSE_SM_J5 && (flags & TYJSON_READ_ALLOW_UNQUOTED_KEYS) && tyjson__j5_ident_lead(*cur)) {
            NEED_SLOTS_OR_FAIL(p, vals, v, vcap, 2);
            cnt++;
            cur = read_ident_key(cur, &cfg, v, &f);
            if (unlikely(!cur)) goto fail;
            v++;
            goto obj_value;
        }
        if (!PARSE_SM_J5 || *cur != '\'' || !(flags & TYJSON_READ_ALLOW_SINGLE_QUOTES))
            GOTO_FAIL_AT(f, cur, end, cnt == 0 ? EXPECT_KEY_FIRST : EXPECT_KEY);
    }
    NEED_SLOTS_OR_FAIL(p, vals, v, vcap, 2);
    cnt++;
    cur = (PARSE_SM_J5 && tyjson__j5_quote(*cur, flags)) ? read_str_j5(cur, &cfg, v, &f) : read_str(cur, &cfg, v, &f);
    if (unlikely(!cur)) goto fail;
    v++;
    if (likely(*cur == ':')) {
        cur++;
    } else {
        SKIP_WS_OR_FAIL(f, cur, end, flags, PARSE_SM_J5);
        if (*cur != ':') GOTO_FAIL_AT(f, cur, end, EXPECT_COLON);
        cur++;
    }
obj_value:
    SKIP_WS_OR_FAIL(f, cur, end, flags, PARSE_SM_J5);
    if (*cur == '[') goto arr_open;
    if (*cur == '{') goto obj_open;
    READ_SCALAR_OR_FAIL(f, cur, cfg, v, raw_count, EXPECT_OBJ_VALUE, PARSE_SM_J5);
obj_val_end:
    if (*cur == ',') {
        cur++;
        SKIP_WS_OR_FAIL(f, cur, end, flags, PARSE_SM_J5);
        if (unlikely(*cur == '}') && (flags & TYJSON_READ_ALLOW_TRAILING_COMMAS)) goto obj_close;
        goto obj_key;
    }
    if (*cur == '}') goto obj_close;
    SKIP_WS_OR_FAIL(f, cur, end, flags, PARSE_SM_J5);
    if (*cur == ',') {
        cur++;
        SKIP_WS_OR_FAIL(f, cur, end, flags, PARSE_SM_J5);
        if (unlikely(*cur == '}') && (flags & TYJSON_READ_ALLOW_TRAILING_COMMAS)) goto obj_close;
        goto obj_key;
    }
    if (*cur == '}') goto obj_close;
    GOTO_FAIL_AT(f, cur, end, EXPECT_OBJ_NEXT);
obj_close : {
    usize parent = close_container(vals, ctn, TYJSON_TYPE_OBJ, cnt, v);
    if (unlikely(flags & TYJSON_READ_REJECT_DUPLICATE_KEYS)) {
        bool nomem = false;
        const tyjson_val *dup = tyjson__dom_find_duplicate(p, vals + ctn, cnt, &nomem);
        if (nomem) goto fail_nomem;
        if (dup) GOTO_FAIL(f, TYJSON_E_DUPLICATE_KEY, dup_key_pos(dup), EXPECT_NONE);
    }
    cur++;
    depth--;
    if (parent == NO_CTN) goto root_end;
    ctn = parent;
    cnt = tyjson__tag_len(vals[ctn].tag);
    if ((vals[ctn].tag & TYJSON__TYPE_MASK) == TYJSON_TYPE_ARR) goto arr_val_end;
    goto obj_val_end;
}

root_end:
    SKIP_WS_OR_FAIL(f, cur, end, flags, PARSE_SM_J5);
    if (!(flags & TYJSON_READ_STOP_WHEN_DONE) && cur < end)
        GOTO_FAIL(f, TYJSON_E_TRAILING, cur, EXPECT_NONE);
    if (cur > end) cur = end;
    tyjson__err_ok(err);
    return tyjson__dom_finish_doc(p, vals, v, raw_count, cur);

fail:
    report_error(p, err, orig, f.code, f.expect, f.pos);
    goto cleanup;
fail_nomem:
    tyjson__err_set(err, TYJSON_E_NOMEM, orig, p->len, (usize)(cur - buf));
cleanup:
    if (p->doc != p->inl) tyjson__free(&p->alc, p->doc);
    if (!p->borrowed) tyjson__free(&p->alc, p->buf);
    p->doc = NULL;
    p->inl = NULL;
    p->buf = NULL;
    return NULL;
}

#undef PARSE_SM_NAME
#undef PARSE_SM_J5
#undef PARSE_SM_SCALAR
#undef PARSE_SM_NUM
