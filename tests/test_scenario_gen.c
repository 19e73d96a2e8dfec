/*
 * test_scenario_gen.c - the benchmark's scenario generator (scenarios/scengen.c)
 * against the files of ../shared/scenarios: the same bytes where
 * SCENARIOS.md gives them, else the same size, shape and counts. The JSON0
 * round (1,048,576 messages) is checked against its published SHA-256.
 * Without ../shared only the self-contained checks run (the file tests
 * skip, or fail when TYJSON_REQUIRE_SHARED=1).
 */
#include "test.h"

#include "scengen.h"

#include <tyjson.h>

static scen_data data;
static bool data_ok;

static const scen_data *get_data(void) {
    if (!data_ok) {
        ASSERT_TRUE(scen_data_init(&data));
        data_ok = true;
    }
    return &data;
}

/* The shared file's bytes, or the test skipped (failed when the shared data
 * is required). `gen` is freed first when the test ends here: the skip
 * jumps out of check_file, which would otherwise leak it. */
static char *read_shared(scen_file f, size_t *len, char *gen) {
    char path[1024];
    char *text;
    char rel[256];
    snprintf(rel, sizeof(rel), "scenarios/%s", scen_file_get(f)->path);
    test_shared_path(rel, path, sizeof(path));
    text = test_read_file(path, len);
    if (!text) {
        free(gen);
        if (test_require_shared()) TEST_FAIL("missing %s", path);
        TEST_SKIP("%s not found", path);
    }
    return text;
}

/* Walk statistics: counts per kind, and escape sequences per kind. */
typedef struct shape {
    size_t objects, arrays, strings, ints, reals, trues, falses, nulls, keys, str_bytes;
} shape;

static void shape_of(const tyjson_val *v, shape *s) {
    switch (tyjson_get_type(v)) {
    case TYJSON_TYPE_NULL: s->nulls++; break;
    case TYJSON_TYPE_BOOL:
        if (tyjson_get_bool(v)) s->trues++;
        else s->falses++;
        break;
    case TYJSON_TYPE_NUM:
        if (tyjson_is_real(v)) s->reals++;
        else s->ints++;
        break;
    case TYJSON_TYPE_STR:
        s->strings++;
        s->str_bytes += tyjson_get_len(v);
        break;
    case TYJSON_TYPE_ARR: {
        tyjson_arr_iter it = tyjson_arr_iter_with(v);
        const tyjson_val *e;
        s->arrays++;
        while ((e = tyjson_arr_iter_next(&it))) shape_of(e, s);
        break;
    }
    case TYJSON_TYPE_OBJ: {
        tyjson_obj_iter it = tyjson_obj_iter_with(v);
        tyjson_val *k;
        s->objects++;
        while ((k = tyjson_obj_iter_next(&it))) {
            s->keys++;
            shape_of(tyjson_obj_iter_get_val(k), s);
        }
        break;
    }
    default: break;
    }
}

/* Same keys in the same order at every level, same value types; arrays
 * may differ in length (their first elements are compared). */
static bool same_layout(const tyjson_val *a, const tyjson_val *b, char *why, size_t size) {
    if (tyjson_get_type(a) != tyjson_get_type(b)) {
        snprintf(why, size, "%s vs %s", tyjson_get_type_desc(a), tyjson_get_type_desc(b));
        return false;
    }
    if (tyjson_is_arr(a)) {
        if (tyjson_arr_size(a) && tyjson_arr_size(b))
            return same_layout(tyjson_arr_get(a, 0), tyjson_arr_get(b, 0), why, size);
        return true;
    }
    if (tyjson_is_obj(a)) {
        tyjson_obj_iter ia = tyjson_obj_iter_with(a), ib = tyjson_obj_iter_with(b);
        tyjson_val *ka, *kb;
        for (;;) {
            ka = tyjson_obj_iter_next(&ia);
            kb = tyjson_obj_iter_next(&ib);
            if (!ka || !kb) break;
            if (tyjson_get_len(ka) != tyjson_get_len(kb) ||
                memcmp(tyjson_get_str(ka), tyjson_get_str(kb), tyjson_get_len(ka)) != 0) {
                snprintf(why, size, "key %s vs %s", tyjson_get_str(ka), tyjson_get_str(kb));
                return false;
            }
            if (!same_layout(tyjson_obj_iter_get_val(ka), tyjson_obj_iter_get_val(kb), why, size)) return false;
        }
        if (ka || kb) {
            snprintf(why, size, "member count differs");
            return false;
        }
    }
    return true;
}

static size_t count_sub(const char *s, size_t len, const char *needle) {
    size_t n = 0, k = strlen(needle), i;
    for (i = 0; i + k <= len; i++)
        if (memcmp(s + i, needle, k) == 0) {
            n++;
            i += k - 1;
        }
    return n;
}

static size_t count_non_ascii(const char *s, size_t len) {
    size_t n = 0, i;
    for (i = 0; i < len; i++) n += (unsigned char)s[i] >= 0x80;
    return n;
}

/* Compares a generated file with the shared one as scen_file_info says. */
static void check_file(scen_file f) {
    const scen_file_info *info = scen_file_get(f);
    size_t glen = 0, slen = 0;
    char *gen = scen_file_text(get_data(), f, &glen);
    char *shared;
    ASSERT_NOT_NULL(gen);
    ASSERT_EQ_UINT(glen, info->size); /* sizes are known without ../shared */
    shared = read_shared(f, &slen, gen);
    ASSERT_EQ_UINT(slen, info->size);
    if (info->fidelity == SCEN_EXACT) {
        ASSERT_EQ_MEM(gen, shared, slen);
    } else {
        tyjson_doc *dg = tyjson_read(gen, glen, 0), *ds = tyjson_read(shared, slen, 0);
        shape sg = {0}, ss = {0};
        char why[200] = "";
        ASSERT_NOT_NULL(dg);
        ASSERT_NOT_NULL(ds);
        shape_of(tyjson_doc_get_root(dg), &sg);
        shape_of(tyjson_doc_get_root(ds), &ss);
        if (!same_layout(tyjson_doc_get_root(dg), tyjson_doc_get_root(ds), why, sizeof(why)))
            TEST_FAIL("%s: layout differs: %s", info->path, why);
        ASSERT_EQ_UINT(sg.objects, ss.objects);
        ASSERT_EQ_UINT(sg.arrays, ss.arrays);
        ASSERT_EQ_UINT(sg.strings, ss.strings);
        ASSERT_EQ_UINT(sg.ints, ss.ints);
        ASSERT_EQ_UINT(sg.reals, ss.reals);
        ASSERT_EQ_UINT(sg.trues + sg.falses, ss.trues + ss.falses);
        ASSERT_EQ_UINT(sg.nulls, ss.nulls);
        ASSERT_EQ_UINT(sg.keys, ss.keys);
        /* escapes of each kind, and where the text is not ASCII */
        ASSERT_EQ_UINT(count_sub(gen, glen, "\\n"), count_sub(shared, slen, "\\n"));
        ASSERT_EQ_UINT(count_sub(gen, glen, "\\\""), count_sub(shared, slen, "\\\""));
        ASSERT_EQ_UINT(count_sub(gen, glen, "\\\\"), count_sub(shared, slen, "\\\\"));
        ASSERT_EQ_UINT(count_sub(gen, glen, "\\t"), count_sub(shared, slen, "\\t"));
        ASSERT_EQ_UINT(count_sub(gen, glen, "\\r"), count_sub(shared, slen, "\\r"));
        ASSERT_EQ_UINT(count_non_ascii(gen, glen), count_non_ascii(shared, slen));
        ASSERT_EQ_UINT(count_sub(gen, glen, "\n"), count_sub(shared, slen, "\n"));
        tyjson_doc_free(dg);
        tyjson_doc_free(ds);
    }
    free(shared);
    free(gen);
}

TEST(simple_pojo) { check_file(SF_SIMPLE_POJO); }
TEST(nested_pojo) { check_file(SF_NESTED_POJO); }
TEST(date_pojo) { check_file(SF_DATE_POJO); }
TEST(pojo_list_100) { check_file(SF_POJO_LIST_100); }
TEST(map_mixed) { check_file(SF_MAP_MIXED); }
TEST(escape_string) { check_file(SF_ESCAPE_STRING); }
TEST(photo_album) { check_file(SF_PHOTO_ALBUM); }
TEST(kudos_small) { check_file(SF_KUDOS_SMALL); }
TEST(kudos_medium) { check_file(SF_KUDOS_MEDIUM); }
TEST(kudos_large) { check_file(SF_KUDOS_LARGE); }
TEST(boon_simple) { check_file(SF_BOON_SIMPLE); }
TEST(boon_medium) { check_file(SF_BOON_MEDIUM); }
TEST(boon_complex) { check_file(SF_BOON_COMPLEX); }
TEST(json0_message_0) { check_file(SF_J0_MESSAGE_0); }
TEST(json0_message_last) { check_file(SF_J0_MESSAGE_LAST); }
TEST(json0_hoian) { check_file(SF_J0_HOIAN); }
TEST(json0_entity_nested) { check_file(SF_J0_ENTITY_NESTED); }
TEST(json0_entity_stringified) { check_file(SF_J0_ENTITY_STRINGIFIED); }

/* The photo album's made-up texts: the lengths SCENARIOS.md gives. */
TEST(photo_album_texts) {
    const pa_album *al = &get_data()->album;
    size_t i, chars = 0;
    for (i = 0; i < al->description.len; i++) chars += ((unsigned char)al->description.ptr[i] & 0xC0) != 0x80;
    ASSERT_EQ_UINT(chars, 467);
    ASSERT_EQ_UINT(al->description.len, 546);
    ASSERT_EQ_UINT(al->n_photos, 200);
    chars = 0;
    for (i = 0; i < al->photos[0].description.len; i++)
        chars += ((unsigned char)al->photos[0].description.ptr[i] & 0xC0) != 0x80;
    ASSERT_EQ_UINT(chars, 394);
    ASSERT_EQ_UINT(al->photos[0].description.len, 456);
}

/* Kudos counts of SCENARIOS.md's table, without ../shared. */
TEST(kudos_counts) {
    static const size_t users[3] = {2, 20, 60}, images[3] = {16, 144, 459};
    int k;
    for (k = 0; k < 3; k++) {
        const kr_response *r = &get_data()->kudos[k];
        size_t i, n_img = 0, n_friends = 0, n_tags = 0, n_range = 0;
        ASSERT_EQ_UINT(r->n_users, users[k]);
        for (i = 0; i < r->n_users; i++) {
            const kr_user *u = &r->users[i];
            ASSERT_TRUE(u->n_images >= 2 && u->n_images <= 13);
            ASSERT_TRUE(u->about.len >= 123 && u->about.len <= 584);
            ASSERT_EQ_MEM(u->about.ptr + u->about.len - 2, "\r\n", 2);
            n_img += u->n_images;
            n_friends += u->n_friends;
            n_tags += u->n_tags;
            n_range += u->n_range;
        }
        ASSERT_EQ_UINT(n_img, images[k]);
        ASSERT_EQ_UINT(n_friends, users[k] * 3);
        ASSERT_EQ_UINT(n_tags, users[k] * 7);
        ASSERT_EQ_UINT(n_range, users[k] * 10);
    }
}

/* Every generated file is strict JSON and reads back to the same text. */
TEST(files_are_strict_json) {
    int f;
    for (f = 0; f < SF_COUNT; f++) {
        size_t len = 0;
        char *text = scen_file_text(get_data(), (scen_file)f, &len);
        tyjson_error err;
        tyjson_doc *doc;
        ASSERT_NOT_NULL(text);
        doc = tyjson_read_opts(text, len, NULL, &err);
        if (!doc) TEST_FAIL("%s: %s at %zu", scen_file_get((scen_file)f)->path, err.msg, err.offset);
        tyjson_doc_free(doc);
        free(text);
    }
}

/* The SHA-256 of every generated input, pinned: the benchmark's numbers and
 * its reference results depend on these exact bytes (also where the shared
 * file differs: the SAME_SIZE files), so any change to the generator that
 * moves a byte fails here. */
static const struct {
    const char *path, *sha256;
} generated_sha256[SF_COUNT] = {
    {"kissjson/simple_pojo.json", "aa2eb7d80434b65a2c90be253be1a1788f466b622f7a41e07cd5b697c18e25ef"},
    {"kissjson/nested_pojo.json", "b5adcd5d7bba29665b9fcf8c382013973788377b8ab23df123d740502cb2e818"},
    {"kissjson/date_pojo.json", "0aa00a2bcda19a919ce9583cdbcfa36375f62764b2c9b1adeb4a81b40d513703"},
    {"kissjson/pojo_list_100.json", "a80248b50b694833624d676134b9292acc89c5b416682825a13e3453cffaf88b"},
    {"kissjson/map_mixed.json", "228c9b072cb53498ef7e6127e320834f290de3d7dfd9a891108b98298f948e0a"},
    {"kissjson/escape_string.json", "5c01ece86624b97acfb7c455cf2ead46fddee6a92c484bd8cd00c45047475cfc"},
    {"photoalbum/photo_album_200.json", "8788ed77ec4f1ac71685058167a39f289d60ff46af1049c8c762fb71a26d40de"},
    {"kudos/small.json", "6e1187c93ff68739cc7e601634655a119b1e0de5965d697902cae22f308772b2"},
    {"kudos/medium.json", "0ca241af3219653c4200c8178643718917f5aa0ec1353bf892000b0346f3712b"},
    {"kudos/large.json", "83b3b008293e0184e8e4ff0a654669e7e2e6e59b582448bfaf3e5b358a9e0b28"},
    {"boon/simple.json", "f2430361a5edb1472062a293dcf45f253f644d833aabd3ab40e23038718f9e9e"},
    {"boon/medium.json", "a979af4cf985cfbc9e3b3babd2f6040e3064380d359c324439db6f9c4145686e"},
    {"boon/complex.json", "c64a33fea32cbd97616374b154222d12a144ea9db6f330c3fcf5edfdba2de7cf"},
    {"json0/message_0.json", "77beeb16f4280fbd024699fad68e00b467d194baad8e17a2de881c997d67912d"},
    {"json0/message_1048575.json", "bc0e08cc0b895cc26b244e09dfab54794dc7498762eb4e9a8b1ad7cbdbecdee1"},
    {"json0/hoian.json", "e8e10f5718e49988eae7977d93c2194639cc75c04bbc9cd730bb0622f2d69de9"},
    {"json0/jmh_entity_nested.json", "857109c3ecdcaa8452e657a3e0aa5bedfac3979869d06cae8b588bb677d70261"},
    {"json0/jmh_entity_stringified.json", "be046fb2b791605c84c49bb0935fbad49e146e9bf167e1da10f8cae755971542"},
};

TEST(generated_inputs_unchanged) {
    int f;
    for (f = 0; f < SF_COUNT; f++) {
        size_t len = 0;
        char *text = scen_file_text(get_data(), (scen_file)f, &len);
        scen_sha256 s;
        char hex[65];
        ASSERT_NOT_NULL(text);
        ASSERT_EQ_STR(scen_file_get((scen_file)f)->path, generated_sha256[f].path);
        scen_sha256_init(&s);
        scen_sha256_add(&s, text, len);
        scen_sha256_hex(&s, hex);
        free(text);
        if (strcmp(hex, generated_sha256[f].sha256) != 0)
            TEST_FAIL("%s: generated bytes changed (sha256 %s)", generated_sha256[f].path, hex);
    }
}

/* Generation is deterministic: a second run gives the same bytes. */
TEST(deterministic) {
    scen_data again;
    int f;
    ASSERT_TRUE(scen_data_init(&again));
    for (f = 0; f < SF_COUNT; f++) {
        size_t a = 0, b = 0;
        char *x = scen_file_text(get_data(), (scen_file)f, &a), *y = scen_file_text(&again, (scen_file)f, &b);
        ASSERT_NOT_NULL(x);
        ASSERT_NOT_NULL(y);
        ASSERT_EQ_UINT(a, b);
        ASSERT_EQ_MEM(x, y, a);
        free(x);
        free(y);
    }
    scen_data_free(&again);
}

/* The equality helpers see a difference. */
TEST(equality_helpers) {
    const scen_data *d = get_data();
    pa_album al = d->album;
    simple_pojo s = d->simple;
    char why[128];
    ASSERT_TRUE(scen_eq_album(&d->album, &al, why, sizeof(why)));
    al.photo_count = 199;
    ASSERT_FALSE(scen_eq_album(&d->album, &al, why, sizeof(why)));
    s.score = 95.25;
    ASSERT_FALSE(scen_eq_simple(&d->simple, &s, why, sizeof(why)));
    ASSERT_TRUE(scen_eq_kudos(&d->kudos[1], &d->kudos[1], why, sizeof(why)));
    ASSERT_TRUE(scen_eq_nested(&d->nested, &d->nested, why, sizeof(why)));
}

TEST(sha256_known_answers) {
    scen_sha256 s;
    char hex[65];
    static const char million_a_sha[] = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
    char block[1001];
    int i;
    scen_sha256_init(&s);
    scen_sha256_add(&s, "abc", 3);
    scen_sha256_hex(&s, hex);
    ASSERT_EQ_STR(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    scen_sha256_init(&s);
    scen_sha256_hex(&s, hex);
    ASSERT_EQ_STR(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    memset(block, 'a', sizeof(block));
    scen_sha256_init(&s);
    for (i = 0; i < 1000; i++) scen_sha256_add(&s, block, i % 2 ? 999 : 1001);
    scen_sha256_hex(&s, hex);
    ASSERT_EQ_STR(hex, million_a_sha);
}

/* The whole JSON0 round: 1,048,576 messages with ID = i, back to back. */
TEST(json0_round_sha256) {
    j0_message m = get_data()->j0;
    scen_sha256 s;
    char buf[256], hex[65];
    unsigned long long total = 0;
    uint32_t i;
    scen_sha256_init(&s);
    for (i = 0; i < SCEN_J0_ROUND_MESSAGES; i++) {
        size_t n;
        m.id = i;
        n = scen_j0_write(&m, buf, sizeof(buf));
        ASSERT_TRUE(n >= 164 && n <= 170);
        scen_sha256_add(&s, buf, n);
        total += n;
    }
    scen_sha256_hex(&s, hex);
    ASSERT_EQ_UINT(total, SCEN_J0_ROUND_BYTES);
    ASSERT_EQ_STR(hex, SCEN_J0_ROUND_SHA256);
}

/* ---- the corpus-style documents (scen_doc) ------------------------------ */
static const char *const doc_sha256[SD_COUNT] = {
    "7254103c4bce11c2058fac9475bebb1272b95657dc9f8a7cb87058b62633c086",
    "a7cf4dc8d696e82aee2b413c8b9f98f4c35a5976167493c940070d9b39333f71",
};

TEST(corpus_docs_unchanged) {
    int d;
    for (d = 0; d < SD_COUNT; d++) {
        size_t len = 0;
        char *text = scen_doc_text((scen_doc)d, &len), *again;
        size_t len2 = 0;
        scen_sha256 s;
        char hex[65];
        ASSERT_NOT_NULL(text);
        again = scen_doc_text((scen_doc)d, &len2);
        ASSERT_NOT_NULL(again);
        ASSERT_EQ_UINT(len, len2);
        ASSERT_EQ_MEM(text, again, len);
        scen_sha256_init(&s);
        scen_sha256_add(&s, text, len);
        scen_sha256_hex(&s, hex);
        free(again);
        free(text);
        if (strcmp(hex, doc_sha256[d]) != 0)
            TEST_FAIL("%s: generated bytes changed (sha256 %s)", scen_doc_name((scen_doc)d), hex);
    }
    ASSERT_TRUE(scen_doc_name(SD_COUNT) == NULL);
    ASSERT_TRUE(scen_doc_text(SD_COUNT, NULL) == NULL);
}

/* The document as a strict DOM, with its size checked to be about 500 KB. */
static tyjson_doc *read_doc(scen_doc d, char **text, size_t *len) {
    tyjson_error err;
    tyjson_doc *doc;
    *text = scen_doc_text(d, len);
    ASSERT_NOT_NULL(*text);
    ASSERT_TRUE(*len > 450000 && *len < 550000);
    doc = tyjson_read_opts(*text, *len, NULL, &err);
    if (!doc) TEST_FAIL("%s: %s at %zu", scen_doc_name(d), err.msg, err.offset);
    return doc;
}

/* Pretty-printed config: indentation (spaces at line starts) is more than
 * half of the bytes, and the objects are many, small and nested. */
TEST(corpus_doc_config_shape) {
    char *text;
    size_t len, i, indent = 0, lines = 0;
    bool line_start = true;
    tyjson_doc *doc = read_doc(SD_CONFIG, &text, &len);
    shape sh = {0};
    shape_of(tyjson_doc_get_root(doc), &sh);
    for (i = 0; i < len; i++) {
        if (text[i] == '\n') {
            line_start = true;
            lines++;
        } else if (line_start && text[i] == ' ') {
            indent++;
        } else {
            line_start = false;
        }
    }
    printf("  %s: %zu bytes, indentation %.1f%%, newlines %.1f%%, %zu objects\n", scen_doc_name(SD_CONFIG), len,
           100.0 * (double)indent / (double)len, 100.0 * (double)lines / (double)len, sh.objects);
    ASSERT_TRUE(indent * 2 > len);
    ASSERT_TRUE(sh.objects > 2500);
    ASSERT_TRUE(sh.keys / sh.objects < 6); /* small objects */
    tyjson_doc_free(doc);
    free(text);
}

/* Text records: about 20% of the bytes non-ASCII, with 2-, 3- and 4-byte
 * sequences; every status has the four fields the extract rows read. */
TEST(corpus_doc_text_shape) {
    char *text;
    size_t len, i, high = 0, lead[5] = {0}, n;
    tyjson_doc *doc = read_doc(SD_TEXT, &text, &len);
    tyjson_val *statuses = tyjson_obj_get(tyjson_doc_get_root(doc), "statuses");
    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        high += c >= 0x80;
        if (c >= 0xF0) lead[4]++;
        else if (c >= 0xE0) lead[3]++;
        else if (c >= 0xC0) lead[2]++;
    }
    printf("  %s: %zu bytes, non-ASCII %.1f%% (2-byte %zu, 3-byte %zu, 4-byte %zu sequences)\n",
           scen_doc_name(SD_TEXT), len, 100.0 * (double)high / (double)len, lead[2], lead[3], lead[4]);
    ASSERT_TRUE(high * 100 >= len * 18 && high * 100 <= len * 22);
    ASSERT_TRUE(lead[2] > 1000 && lead[3] > 1000 && lead[4] > 100);
    ASSERT_TRUE(tyjson_is_arr(statuses));
    n = tyjson_arr_size(statuses);
    ASSERT_TRUE(n > 100);
    for (i = 0; i < n; i++) {
        tyjson_val *st = tyjson_arr_get(statuses, i);
        ASSERT_TRUE(tyjson_is_int(tyjson_obj_get(st, "id")));
        ASSERT_TRUE(tyjson_is_str(tyjson_obj_get(st, "text")));
        ASSERT_TRUE(tyjson_is_str(tyjson_obj_get(tyjson_obj_get(st, "user"), "screen_name")));
        ASSERT_TRUE(tyjson_is_int(tyjson_obj_get(st, "retweet_count")));
    }
    tyjson_doc_free(doc);
    free(text);
}

int main(int argc, char **argv) {
    int rc = test_main(argc, argv);
    if (data_ok) scen_data_free(&data);
    return rc;
}
