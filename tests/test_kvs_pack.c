/*
 * test_kvs_pack.c - the packed form of the solved King's Valley table against the full
 * one it came from, on the one-soldier game: every entry, the counts, the probes of
 * positions, the checksum; damaged and cut files refused; the packed file found where
 * the full one is missing.
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
    assert_int_equal(kvs_table_pack(t, f->packed, &opt, &ps, &err), STATUS_OK);
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
        assert_int_equal(kvs_table_pack(b, f.packed, &opt, &ps, &err), STATUS_UNSUPPORTED);
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

/* With only the packed table in the data folder, it is the one found. */
static void test_packed_found_by_default(void **state)
{
    (void)state;
    char dir[100], sub[160], path[300];
    temp_path(dir, sizeof dir, "crown-test-pack-XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(sub, sizeof sub, "%s/crown", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    const char *old = getenv("XDG_DATA_HOME");
    char *saved = old ? strdup(old) : NULL;
    setenv("XDG_DATA_HOME", dir, 1);
    const KvsRules rules = {4, true, false};
    ErrBuf err;
    assert_int_equal(kvs_find_path(&rules, path, sizeof path, &err), STATUS_OK);
    assert_non_null(strstr(path, "kings-valley-locked-king-loses-on.kvt"));
    char packed[300];
    snprintf(packed, sizeof packed, "%s/kings-valley-locked-king-loses-on.kvz", sub);
    FILE *f = fopen(packed, "wb");
    assert_non_null(f);
    fclose(f);
    assert_int_equal(kvs_find_path(&rules, path, sizeof path, &err), STATUS_OK);
    assert_string_equal(path, packed);
    if (saved) {
        setenv("XDG_DATA_HOME", saved, 1);
        free(saved);
    } else {
        unsetenv("XDG_DATA_HOME");
    }
    remove(packed);
    rmdir(sub);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_packed_equals_full),
        cmocka_unit_test(test_damaged_packed_refused),
        cmocka_unit_test(test_packed_found_by_default),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
