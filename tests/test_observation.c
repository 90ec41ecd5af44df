/*
 * test_observation.c - the observation writers of core/observation.h on small
 * hand-made schemas: the exact JSON text, the tensor layout (planes, broadcast scalars,
 * the flat vector of several zones), the slots of per-player counters and lists, and
 * what obs_check refuses; and one game's observation (King's Guard: stack order, a turn
 * in progress) read back from its JSON and tensor.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/game.h"
#include "core/game_api.h"
#include "core/observation.h"
#include "play/registry.h"

/* A 2x2 board for two players: stacks of up to two, kinds "a" and "b", one terrain,
 * a global and a per-player counter. */
static ObsSchema square_schema(void)
{
    return (ObsSchema){
        .players = 2,
        .max_stack = 2,
        .zone_count = 1,
        .zones = {{"board", OBS_SQUARE, 2, 2}},
        .kind_count = 2,
        .kinds = {"a", "b"},
        .terrain_count = 1,
        .terrains = {"moat"},
        .counter_count = 2,
        .counters = {{"round", false}, {"gold", true}},
    };
}

static void fill_square(const ObsSchema *sc, Observation *o, int observer)
{
    obs_begin(o, observer, 1);
    static const char *const names[4] = {"a1", "b1", "a2", "b2"};
    for (int i = 0; i < 4; i++)
        obs_add_cell(o, 0, i % 2, i / 2, names[i]);
    obs_push(&o->cells[1], 0, 0, 0, 0);
    obs_push(&o->cells[1], 1, 1, 0, 0); /* b1: "a" of seat 0 under "b" of seat 1 */
    obs_push(&o->cells[2], OBS_KIND_UNKNOWN, OBS_OWNER_NONE, OBS_FACE_DOWN, 0);
    o->cells[3].terrain = 1;
    o->counters[obs_counter_slot(sc, 0, 0)] = 7;
    o->counters[obs_counter_slot(sc, 1, 0)] = 3;
    o->counters[obs_counter_slot(sc, 1, 1)] = 5;
}

static void test_json(void **state)
{
    (void)state;
    ObsSchema sc = square_schema();
    Observation *o = malloc(sizeof *o);
    assert_non_null(o);
    fill_square(&sc, o, -1);
    ErrBuf err;
    assert_true(obs_check(&sc, o, &err));
    StrBuf sb;
    sb_init(&sb);
    obs_write_json(&sc, o, &sb);
    assert_string_equal(
        sb_str(&sb),
        "{\"observer\":null,\"to_move\":1,"
        "\"zones\":[{\"name\":\"board\",\"shape\":\"square\",\"cols\":2,\"rows\":2}],"
        "\"cells\":["
        "{\"name\":\"a1\",\"zone\":0,\"col\":0,\"row\":0,\"terrain\":[],\"pieces\":[]},"
        "{\"name\":\"b1\",\"zone\":0,\"col\":1,\"row\":0,\"terrain\":[],\"pieces\":["
        "{\"kind\":\"a\",\"owner\":0},{\"kind\":\"b\",\"owner\":1}]},"
        "{\"name\":\"a2\",\"zone\":0,\"col\":0,\"row\":1,\"terrain\":[],\"pieces\":["
        "{\"kind\":null,\"owner\":null,\"face_down\":true}]},"
        "{\"name\":\"b2\",\"zone\":0,\"col\":1,\"row\":1,\"terrain\":[\"moat\"],\"pieces\":[]}],"
        "\"counters\":{\"round\":7,\"gold\":[3,5]},\"named\":{},\"lists\":{}}");
    // A counter that is an enumeration is named too (King of the Valley's phase).
    static const char *const rounds[] = {"a", "b", "c", "d", "e", "f", "g", "seventh"};
    sc.counter_values[0] = (ObsValueNames){rounds, 8};
    sb_clear(&sb);
    obs_write_json(&sc, o, &sb);
    assert_non_null(strstr(sb_str(&sb), "\"counters\":{\"round\":7,\"gold\":[3,5]},"
                                        "\"named\":{\"round\":\"seventh\"},"));
    sb_free(&sb);
    free(o);
}

static void test_square_tensor(void **state)
{
    (void)state;
    const ObsSchema sc = square_schema();
    // Planes: 2 levels x 3 owners x 3 kinds = 18, 1 terrain, 1 on-board = 20; scalars:
    // to_move 3 + observer 3 + counters 3 = 9.
    int dims[OBS_MAX_DIMS];
    assert_int_equal(obs_tensor_shape(&sc, dims), 3);
    assert_int_equal(dims[0], 29);
    assert_int_equal(dims[1], 2);
    assert_int_equal(dims[2], 2);
    assert_int_equal(obs_tensor_size(&sc), 29 * 4);
    Observation *o = malloc(sizeof *o);
    float *t = malloc(sizeof(float) * 29 * 4);
    assert_true(o != NULL && t != NULL);
    fill_square(&sc, o, 0);
    obs_write_tensor(&sc, o, t);
    // Plane index: (level * 3 + owner) * 3 + kind; cell index row * 2 + col.
#define AT(plane, cell) t[(plane) * 4 + (cell)]
    float sum = 0;
    for (int i = 0; i < 18 * 4; i++)
        sum += t[i];
    assert_true(sum == 3);
    assert_true(AT((0 * 3 + 0) * 3 + 0, 1) == 1); /* b1 level 0: seat 0, "a" */
    assert_true(AT((1 * 3 + 1) * 3 + 1, 1) == 1); /* b1 level 1: seat 1, "b" */
    assert_true(AT((0 * 3 + 2) * 3 + 2, 2) == 1); /* a2: nobody's, unknown */
    assert_true(AT(18, 3) == 1 && AT(18, 0) == 0); /* moat on b2 */
    for (int c = 0; c < 4; c++) {
        assert_true(AT(19, c) == 1);                                   /* on board */
        assert_true(AT(20, c) == 0 && AT(21, c) == 1 && AT(22, c) == 0); /* to move: 1 */
        assert_true(AT(23, c) == 1 && AT(24, c) == 0 && AT(25, c) == 0); /* observer: 0 */
        assert_true(AT(26, c) == 7 && AT(27, c) == 3 && AT(28, c) == 5); /* counters */
    }
#undef AT
    free(t);
    free(o);
}

/* Two zones and lists: the flat vector. */
static void test_zones_and_lists(void **state)
{
    (void)state;
    const ObsSchema sc = {
        .players = 3,
        .max_stack = 1,
        .zone_count = 2,
        .zones = {{"hill", OBS_LINE, 3, 1}, {"board", OBS_HEX, 2, 2}},
        .kind_count = 1,
        .kinds = {"tile"},
        .list_count = 2,
        .lists = {{"pile", false, 4, false}, {"hand", true, 2, false}},
    };
    assert_int_equal(obs_list_slot(&sc, 0, 2), 0);
    assert_int_equal(obs_list_slot(&sc, 1, 2), 3);
    // Per cell: 1 x 4 owners x 2 kinds + 0 terrains + 1 = 9 planes; 3 + 4 cells.
    // Scalars: 4 + 4, pile 4 x 3, hands 3 x 2 x 3.
    int dims[OBS_MAX_DIMS];
    assert_int_equal(obs_tensor_shape(&sc, dims), 1);
    const int size = 9 * 7 + 8 + 12 + 18;
    assert_int_equal(dims[0], size);
    Observation *o = malloc(sizeof *o);
    float *t = malloc(sizeof(float) * (size_t)size);
    assert_true(o != NULL && t != NULL);
    obs_begin(o, 2, PLAYER_CHANCE);
    obs_add_cell(o, 0, 0, 0, "h1");
    obs_add_cell(o, 0, 1, 0, "h2");
    obs_add_cell(o, 0, 2, 0, "h3");
    obs_add_cell(o, 1, 0, 0, "x");
    obs_add_cell(o, 1, 1, 0, "y");
    obs_add_cell(o, 1, 0, 1, "z");
    obs_push(&o->cells[4], 0, 1, 0, 9);
    for (int i = 0; i < 6; i++) /* more than the cap: the rest is dropped */
        obs_list_push(&sc, o, 0, 0, OBS_KIND_UNKNOWN, OBS_OWNER_NONE, OBS_FACE_DOWN, 0);
    obs_list_push(&sc, o, 1, 2, 0, 2, 0, 4);
    ErrBuf err;
    assert_true(obs_check(&sc, o, &err));
    assert_int_equal(o->lists[0].count, 4);
    obs_write_tensor(&sc, o, t);
    // Zone 1 ("board", 2x2) starts after the hill's 9 planes of 3; y is (1, 0).
    const float *board = t + 9 * 3;
    assert_true(board[(1 * 2 + 0) * 4 + 1] == 1); /* owner 1, "tile" */
    const float *sc0 = t + 9 * 7;
    assert_true(sc0[3] == 1);     /* to move: chance is "nobody" */
    assert_true(sc0[4 + 2] == 1); /* observer 2 */
    assert_true(sc0[8 + 1] == 1 && sc0[8 + 9 + 1] == 1 && sc0[8 + 12 - 3] == 0);
    const float *hand2 = sc0 + 8 + 12 + 2 * 6;
    assert_true(hand2[0] == 1 && hand2[2] == 4); /* a tile of value 4 */
    StrBuf sb;
    sb_init(&sb);
    obs_write_json(&sc, o, &sb);
    assert_non_null(strstr(sb_str(&sb), "\"to_move\":\"chance\""));
    assert_non_null(strstr(sb_str(&sb), "\"hand\":[[],[],[{\"kind\":\"tile\",\"owner\":2,\"value\":4}]]"));
    sb_free(&sb);
    free(t);
    free(o);
}

/* A counted list (King Down's captured pieces): the tensor holds how many items of each
 * kind, then "unknown", per slot, whatever the cap; the JSON still lists every item. */
static void test_counted_list(void **state)
{
    (void)state;
    const ObsSchema sc = {
        .players = 2,
        .max_stack = 1,
        .zone_count = 1,
        .zones = {{"board", OBS_SQUARE, 1, 1}},
        .kind_count = 2,
        .kinds = {"a", "b"},
        .list_count = 1,
        .lists = {{"lost", true, 16, true}},
    };
    // Planes: 3 owners x 3 kinds + 1 on-board = 10; scalars 3 + 3 + 2 x 3 = 12.
    int dims[OBS_MAX_DIMS];
    assert_int_equal(obs_tensor_shape(&sc, dims), 3);
    assert_int_equal(dims[0], 22);
    Observation *o = malloc(sizeof *o);
    float t[22];
    assert_non_null(o);
    obs_begin(o, 0, 0);
    obs_add_cell(o, 0, 0, 0, "a1");
    for (int i = 0; i < 3; i++)
        obs_list_push(&sc, o, 0, 1, 1, 1, 0, 0);
    obs_list_push(&sc, o, 0, 1, 0, 1, 0, 0);
    obs_write_tensor(&sc, o, t);
    assert_true(t[16] == 0 && t[17] == 0 && t[18] == 0); /* seat 0 lost nothing */
    assert_true(t[19] == 1 && t[20] == 3 && t[21] == 0); /* seat 1: one a, three b */
    StrBuf sb;
    sb_init(&sb);
    obs_write_json(&sc, o, &sb);
    assert_non_null(strstr(sb_str(&sb), "\"lost\":[[],[{\"kind\":\"b\""));
    sb_free(&sb);
    free(o);
}

static void test_check_refuses(void **state)
{
    (void)state;
    const ObsSchema sc = square_schema();
    Observation *o = malloc(sizeof *o);
    assert_non_null(o);
    ErrBuf err;
    fill_square(&sc, o, 0);
    memcpy(o->cells[1].name, "a1", 3);
    assert_false(obs_check(&sc, o, &err));
    assert_non_null(strstr(err.msg, "twice"));
    fill_square(&sc, o, 0);
    o->cells[1].pieces[0].kind = 2;
    assert_false(obs_check(&sc, o, &err));
    assert_non_null(strstr(err.msg, "kind"));
    fill_square(&sc, o, 0);
    o->cells[1].pieces[0].owner = 2;
    assert_false(obs_check(&sc, o, &err));
    fill_square(&sc, o, 0);
    obs_push(&o->cells[1], 0, 0, 0, 0); /* a third piece on a stack of at most two */
    assert_false(obs_check(&sc, o, &err));
    fill_square(&sc, o, 0);
    o->cells[2].pieces[0].flags = 0; /* unknown kind yet face up */
    assert_false(obs_check(&sc, o, &err));
    fill_square(&sc, o, 0);
    o->cells[3].col = 0; /* b2 on a2's place */
    assert_false(obs_check(&sc, o, &err));
    fill_square(&sc, o, 0);
    o->cells[0].terrain = 2;
    assert_false(obs_check(&sc, o, &err));
    fill_square(&sc, o, 5);
    assert_false(obs_check(&sc, o, &err));
    free(o);
}

static const ObsCell *find_cell(const Observation *o, const char *name)
{
    for (int i = 0; i < o->cell_count; i++)
        if (strcmp(o->cells[i].name, name) == 0)
            return &o->cells[i];
    return NULL;
}

/* A King's Guard stack is listed bottom first, as its position text writes it, and the
 * start square of a turn in progress is marked. */
static void test_kings_guard(void **state)
{
    (void)state;
    Game *g;
    ErrBuf err;
    assert_int_equal(game_create(registry_find("kings-guard-8x8"), 0, NULL, 0, &g, &err),
                     STATUS_OK);
    GameState *s = game_state_new(g);
    Observation *o = malloc(sizeof *o);
    assert_true(s != NULL && o != NULL);
    assert_int_equal(g->ops->parse_position(
                         g, s, "g3k2g/1g4g1/2g2g2/3(gG)g3/4G3/2G2G2/1G4G1/G3K2G 2 1", &err),
                     STATUS_OK);
    Move pick;
    assert_int_equal(g->ops->parse_move(g, s, "e5", &pick, &err), STATUS_OK);
    void *undo = game_undo_new(g);
    assert_non_null(undo);
    g->ops->make(g, s, pick, undo);
    g->ops->observe(g, s, 1, o);
    assert_true(obs_check(g->observation, o, &err));
    const ObsCell *d5 = find_cell(o, "d5"), *e5 = find_cell(o, "e5");
    assert_true(d5 != NULL && e5 != NULL);
    assert_int_equal(d5->height, 2);
    assert_int_equal(d5->pieces[0].owner, 1); /* g at the bottom */
    assert_int_equal(d5->pieces[1].owner, 0); /* G on top */
    assert_int_equal(d5->terrain, 0);
    assert_int_equal(e5->terrain, 1); /* origin */
    StrBuf sb;
    sb_init(&sb);
    obs_write_json(g->observation, o, &sb);
    assert_non_null(strstr(sb_str(&sb), "{\"name\":\"d5\",\"zone\":0,\"col\":3,\"row\":4,"
                                         "\"terrain\":[],\"pieces\":[{\"kind\":\"guard\","
                                         "\"owner\":1},{\"kind\":\"guard\",\"owner\":0}]}"));
    assert_non_null(strstr(sb_str(&sb), "\"counters\":{\"turns\":1,\"placed\":0}"));
    sb_free(&sb);
    // Tensor: 4 levels x 3 owners x 3 kinds; d5 is cell 4 * 8 + 3; guard is kind 0.
    const int size = obs_tensor_size(g->observation);
    float *t = malloc(sizeof(float) * (size_t)size);
    assert_non_null(t);
    obs_write_tensor(g->observation, o, t);
    const int d5i = 4 * 8 + 3;
    assert_true(t[((0 * 3 + 1) * 3 + 0) * 64 + d5i] == 1);
    assert_true(t[((1 * 3 + 0) * 3 + 0) * 64 + d5i] == 1);
    assert_true(t[((0 * 3 + 0) * 3 + 0) * 64 + d5i] == 0);
    free(t);
    free(undo);
    free(o);
    free(s);
    game_destroy(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_square_tensor),
        cmocka_unit_test(test_zones_and_lists),
        cmocka_unit_test(test_counted_list),
        cmocka_unit_test(test_check_refuses),
        cmocka_unit_test(test_kings_guard),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
