/*
 * test_kvs_pack.c - the packed form of the solved King's Valley table against the full
 * one it came from, on the one-soldier game: every entry, the counts, the probes of
 * positions, the checksum; the rule sets coded against each other; damaged and cut
 * files, missing or wrong bases and the first format refused; the packed file found
 * where the full one is missing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/game_api.h"
#include "core/rng.h"
#include "play/registry.h"
#include "solve/kvs_table.h"
#include "support/temp_path.h"

typedef struct Fixture {
    char dir[100], full[160], packed[160];
    KvsIndex ix;
    Game *g;
} Fixture;

static Game *make_game(void)
{
    const GameOps *ops = registry_find("kings-valley");
    Game *g = NULL;
    ErrBuf err;
    assert_non_null(ops);
    assert_int_equal(game_create(ops, 0, NULL, 0, &g, &err), STATUS_OK);
    return g;
}

/* The one-soldier table (locked-king-loses on), full, in a fresh folder. */
static void setup(Fixture *f)
{
    temp_path(f->dir, sizeof f->dir, "crown-test-pack-XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->full, sizeof f->full, "%s/t.kvt", f->dir);
    snprintf(f->packed, sizeof f->packed, "%s/t.kvz", f->dir);
    kvs_index_init(&f->ix, 1);
    KvsSolveOptions opt = {.rules = {1, true, false}, .threads = 2};
    uint8_t *values;
    KvsSolveStats st;
    ErrBuf err;
    assert_int_equal(kvs_solve(&f->ix, &opt, &values, &st, &err), STATUS_OK);
    assert_int_equal(kvs_table_write(f->full, &f->ix, &opt.rules, values, &st, &err), STATUS_OK);
    free(values);
    f->g = make_game();
}

static void teardown(Fixture *f)
{
    game_destroy(f->g);
    remove(f->full);
    remove(f->packed);
    rmdir(f->dir);
}

static void pack(Fixture *f, int block)
{
    KvsTable *t;
    ErrBuf err;
    assert_int_equal(kvs_table_open(f->full, f->g, &t, &err), STATUS_OK);
    KvsPackOptions opt = {.block = block, .level = 3, .threads = 2};
    KvsPackStats ps;
    assert_int_equal(kvs_table_pack(t, NULL, f->packed, &opt, &ps, &err), STATUS_OK);
    assert_true(ps.bytes < f->ix.size);
    kvs_table_close(t);
}

/* Every entry, the bulk read, the counts and the probes of random positions agree. */
static void expect_same(const KvsTable *a, const KvsTable *b, const Game *g)
{
    const uint64_t n = kvs_table_index(a)->size;
    uint8_t *x = malloc(n), *y = malloc(n);
    ErrBuf err;
    assert_int_equal(kvs_table_read(a, 0, n, x, &err), STATUS_OK);
    assert_int_equal(kvs_table_read(b, 0, n, y, &err), STATUS_OK);
    assert_memory_equal(x, y, n);
    // Entries one by one, in an order that goes back and forth through the cache.
    Rng rng;
    rng_seed(&rng, 3);
    for (int k = 0; k < 20000; k++) {
        const uint64_t i = rng_next(&rng) % n;
        assert_int_equal(kvs_table_entry(b, i), x[i]);
    }
    assert_int_equal(kvs_table_read(b, 1000, 5, y, &err), STATUS_OK);
    assert_memory_equal(x + 1000, y, 5);
    assert_int_equal(kvs_table_read(b, n - 3, 5, y, &err), STATUS_UNSUPPORTED);
    KvsSolveStats ca, cb;
    kvs_table_counts(a, &ca);
    kvs_table_counts(b, &cb);
    assert_int_equal(ca.won, cb.won);
    assert_int_equal(ca.lost, cb.lost);
    assert_int_equal(ca.drawn, cb.drawn);
    assert_int_equal(ca.unused, cb.unused);
    assert_int_equal(ca.longest, cb.longest);
    assert_int_equal(ca.longest_index, cb.longest_index);
    // Probes of positions through the game's interface.
    GameState *s = game_state_new(g);
    int probed = 0;
    for (int k = 0; k < 2000; k++) {
        const uint64_t i = rng_next(&rng) % n;
        if (!kvs_index_canonical(kvs_table_index(a), i))
            continue;
        const KvsPos p = kvs_index_position(kvs_table_index(a), i);
        char text[KVS_TEXT_CAP];
        kvs_pos_text(&p, (int)rng_below(&rng, 2), 3, text);
        assert_int_equal(g->ops->parse_position(g, s, text, &err), STATUS_OK);
        if (game_is_over(g, s))
            continue;
        KvsValue va, vb;
        assert_int_equal(kvs_probe(a, g, s, &va, &err), STATUS_OK);
        assert_int_equal(kvs_probe(b, g, s, &vb, &err), STATUS_OK);
        assert_int_equal(kvs_value_compare(va, vb), 0);
        probed++;
    }
    assert_true(probed > 500);
    free(s);
    free(x);
    free(y);
}

static void test_packed_equals_full(void **state)
{
    (void)state;
    Fixture f;
    setup(&f);
    // Small blocks (many of them, with dictionaries) and the default size (a few).
    static const int blocks[] = {256, 0};
    for (int k = 0; k < 2; k++) {
        pack(&f, blocks[k]);
        KvsTable *a, *b;
        ErrBuf err;
        assert_int_equal(kvs_table_open(f.full, f.g, &a, &err), STATUS_OK);
        assert_int_equal(kvs_table_open(f.packed, f.g, &b, &err), STATUS_OK);
        assert_false(kvs_table_is_packed(a));
        assert_true(kvs_table_is_packed(b));
        assert_int_equal(kvs_table_verify(b, &err), STATUS_OK);
        expect_same(a, b, f.g);
        KvsPackOptions opt = {0};
        KvsPackStats ps;
        assert_int_equal(kvs_table_pack(b, NULL, f.packed, &opt, &ps, &err), STATUS_UNSUPPORTED);
        kvs_table_close(a);
        kvs_table_close(b);
    }
    teardown(&f);
}

/* Copies the file at from to `to` with its first `len` bytes (all if 0) and the byte at
 * `flip` (if not negative) changed. */
static void copy_damaged(const char *from, const char *to, long len, long flip)
{
    FILE *in = fopen(from, "rb");
    assert_non_null(in);
    fseek(in, 0, SEEK_END);
    const long size = ftell(in);
    fseek(in, 0, SEEK_SET);
    uint8_t *buf = malloc((size_t)size);
    assert_int_equal(fread(buf, 1, (size_t)size, in), (size_t)size);
    fclose(in);
    if (flip >= 0)
        buf[flip] ^= 0x5a;
    FILE *out = fopen(to, "wb");
    assert_non_null(out);
    const size_t n = (size_t)(len > 0 ? len : size);
    assert_int_equal(fwrite(buf, 1, n, out), n);
    fclose(out);
    free(buf);
}

static void test_damaged_packed_refused(void **state)
{
    (void)state;
    Fixture f;
    setup(&f);
    pack(&f, 256);
    char bad[200];
    snprintf(bad, sizeof bad, "%s/bad.kvz", f.dir);
    ErrBuf err;
    KvsTable *t;
    FILE *in = fopen(f.packed, "rb");
    fseek(in, 0, SEEK_END);
    const long size = ftell(in);
    fclose(in);
    // Cut short: refused on opening.
    copy_damaged(f.packed, bad, size - 100, -1);
    assert_int_equal(kvs_table_open(bad, f.g, &t, &err), STATUS_CORRUPT);
    // A byte of the index of blocks changed: refused on opening.
    copy_damaged(f.packed, bad, 0, KVS_HEADER + 8 * 5 + 1);
    assert_int_equal(kvs_table_open(bad, f.g, &t, &err), STATUS_CORRUPT);
    // A byte of the compressed data near the end changed: the check finds it, whether
    // zstd refuses the block or it decompresses to other values.
    copy_damaged(f.packed, bad, 0, size - 10);
    assert_int_equal(kvs_table_open(bad, f.g, &t, &err), STATUS_OK);
    assert_int_equal(kvs_table_verify(t, &err), STATUS_CORRUPT);
    kvs_table_close(t);
    remove(bad);
    teardown(&f);
}

/* The one-soldier table of these rules, full, as kings-valley-<rules>.kvt in dir. */
static void solve_into(const char *dir, KvsRules rules, char *path, size_t cap)
{
    KvsIndex ix;
    kvs_index_init(&ix, rules.soldiers);
    KvsSolveOptions opt = {.rules = rules, .threads = 2};
    uint8_t *values;
    KvsSolveStats st;
    ErrBuf err;
    char dummy[200];
    snprintf(dummy, sizeof dummy, "%s/x", dir);
    assert_int_equal(kvs_sibling_path(dummy, &rules, ".kvt", path, cap, &err), STATUS_OK);
    assert_int_equal(kvs_solve(&ix, &opt, &values, &st, &err), STATUS_OK);
    assert_int_equal(kvs_table_write(path, &ix, &opt.rules, values, &st, &err), STATUS_OK);
    free(values);
}

/* Packs full (against base, if not NULL) into packed; the packed size. */
static uint64_t pack_against(const char *full, const char *base, const char *packed)
{
    KvsTable *t, *b = NULL;
    ErrBuf err;
    assert_int_equal(kvs_table_load(full, &t, &err), STATUS_OK);
    if (base != NULL)
        assert_int_equal(kvs_table_load(base, &b, &err), STATUS_OK);
    KvsPackOptions opt = {.block = 256, .level = 3, .threads = 2};
    KvsPackStats ps;
    assert_int_equal(kvs_table_pack(t, b, packed, &opt, &ps, &err), STATUS_OK);
    kvs_table_close(t);
    kvs_table_close(b);
    return ps.bytes;
}

/* Locked-king-loses off packed against on, and no-move=draw against that (a base two
 * deep, read from its packed form): each equal to its full table; then the bases
 * missing, wrong, and the first format, each refused with a message that says so. */
static void test_packed_against_base(void **state)
{
    (void)state;
    char dir[100], full[3][300], packed[3][300], alone[300], moved[300];
    temp_path(dir, sizeof dir, "crown-test-pack-XXXXXX");
    assert_non_null(mkdtemp(dir));
    const KvsRules rules[3] = {{1, true, false}, {1, false, false}, {1, false, true}};
    ErrBuf err;
    for (int k = 0; k < 3; k++) {
        solve_into(dir, rules[k], full[k], sizeof full[k]);
        assert_int_equal(kvs_sibling_path(full[k], &rules[k], ".kvz", packed[k], sizeof packed[k],
                                          &err), STATUS_OK);
        KvsRules base;
        assert_int_equal(kvs_pack_base_rules(&rules[k], &base), k > 0);
        if (k > 0)
            assert_true(base.locked_king_loses == (k == 1) && !base.no_move_draws);
    }
    snprintf(alone, sizeof alone, "%s/alone.kvz", dir);
    pack_against(full[0], NULL, packed[0]);
    const uint64_t by_itself = pack_against(full[1], NULL, alone);
    const uint64_t coded = pack_against(full[1], full[0], packed[1]);
    pack_against(full[2], packed[1], packed[2]);
    assert_true(coded < by_itself);
    Game *g = make_game();
    for (int k = 0; k < 3; k++) {
        KvsTable *a, *b;
        assert_int_equal(kvs_table_load(full[k], &a, &err), STATUS_OK);
        assert_int_equal(kvs_table_load(packed[k], &b, &err), STATUS_OK);
        assert_int_equal(kvs_table_verify(b, &err), STATUS_OK);
        expect_same(a, b, g);
        kvs_table_close(a);
        kvs_table_close(b);
    }
    // The base's packed form gone: the message names it.
    KvsTable *t = NULL;
    snprintf(moved, sizeof moved, "%s/moved.kvz", dir);
    assert_int_equal(rename(packed[0], moved), 0);
    assert_int_not_equal(kvs_table_load(packed[2], &t, &err), STATUS_OK);
    assert_null(t);
    assert_non_null(strstr(err.msg, "coded against"));
    assert_non_null(strstr(err.msg, "locked-king-loses-on.kvz"));
    // Another table in its place (of other rules): refused.
    assert_int_equal(rename(alone, packed[0]), 0);
    assert_int_equal(kvs_table_load(packed[1], &t, &err), STATUS_CORRUPT);
    assert_non_null(strstr(err.msg, "was coded against"));
    // A file of the first packed format: told to pack again.
    FILE *old = fopen(alone, "wb");
    assert_non_null(old);
    char head[KVS_HEADER] = KVS_PACK_MAGIC_1 "rules locked-king-loses-on\nsoldiers 1\n";
    assert_int_equal(fwrite(head, 1, sizeof head, old), sizeof head);
    fclose(old);
    assert_int_equal(kvs_table_load(alone, &t, &err), STATUS_UNSUPPORTED);
    assert_non_null(strstr(err.msg, "older crown"));
    game_destroy(g);
    for (int k = 0; k < 3; k++) {
        remove(full[k]);
        remove(packed[k]);
    }
    remove(alone);
    remove(moved);
    rmdir(dir);
}

/* With only the packed table in the data folder, it is the one found. */
static void test_packed_found_by_default(void **state)
{
    (void)state;
    char path[300];
    TempDataHome home;
    temp_data_home(&home, "crown-test-pack-XXXXXX");
    const KvsRules rules = {4, true, false};
    ErrBuf err;
    assert_int_equal(kvs_find_path(&rules, path, sizeof path, &err), STATUS_OK);
    assert_non_null(strstr(path, "kings-valley-locked-king-loses-on.kvt"));
    char packed[400];
    snprintf(packed, sizeof packed, "%s/kings-valley-locked-king-loses-on.kvz", home.sub);
    FILE *f = fopen(packed, "wb");
    assert_non_null(f);
    fclose(f);
    assert_int_equal(kvs_find_path(&rules, path, sizeof path, &err), STATUS_OK);
    assert_string_equal(path, packed);
    remove(packed);
    assert_true(temp_data_home_end(&home));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_packed_equals_full),
        cmocka_unit_test(test_damaged_packed_refused),
        cmocka_unit_test(test_packed_against_base),
        cmocka_unit_test(test_packed_found_by_default),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
