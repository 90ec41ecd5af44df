/*
 * test_kotv_rules.c - every King of the Valley rule and option as a small diagram of the
 * valley, the hill and the castles, with the actions expected to be legal and illegal
 * and what an action leaves behind.
 *
 * A diagram is the valley drawn rank 5 down to rank 1, one tile code per square ('.' for
 * an empty square, "+n" for coins lying there), plus the other fields of the position
 * text that matter ("kings=c3,a1 gold=3,2 up1=Q,2NA ..."); fields not given take
 * neutral defaults (2 players, player 1 to move in phase 2 of round 2, empty hill and
 * piles, 2 gold each, empty castles). Squares, for reading the diagrams:
 *
 *     a5 b5 c5 d5 e5
 *     a4 b4 c4 d4 e4
 *     a3 b3 c3 d3 e3
 *     a2 b2 c2 d2 e2
 *     a1 b1 c1 d1 e1
 *
 * Tile codes: Q D C queen duke countess, NA-ND knights of orders A-D, F farmer, W
 * farmer's wife, J jester, P priest, Z wizard, Tn:g tax collector (n identical, g gold).
 * Hill slots: L1 (bottom of the left column, price 2) to L6 (top, price 10), R1-R6.
 *
 * The cases repeat their set-up and checks on purpose, each drawing its whole board: a
 * rule case is read on its own against the rules, and one that borrowed another's board
 * would change with it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/game.h"
#include "core/game_api.h"
#include "support/rule_text.h"
#include "core/record.h"
#include "play/registry.h"
#include "games/kingofthevalley/kingofthevalley.h"
#include "search/agent.h"
#include "support/temp_path.h"

enum { TEXT_CAP = 4096, MAX_SETTINGS = 4, MAX_LIST = 1024 };

typedef const char *const Valley[5];

/* A game with rule settings and a state. */
typedef struct Setup {
    Game *g;
    GameState *s;
    void *undo;
} Setup;

static Game *make_game(const char *const *settings, int n)
{
    Game *g = NULL;
    ErrBuf err;
    err_clear(&err);
    if (rule_text_create(&kotv_ops, 0, settings, n, &g, &err) != STATUS_OK)
        fail_msg("game_create: %s", err.msg);
    return g;
}

/* The default fields of a diagram, in position-text order. */
static const char *const FIELD_ORDER[] = {
    "players", "first", "turn",  "turns", "phase",  "end",   "valley", "kings",
    "hill",    "pile1", "pile2", "pile3", "gold",   "crowns", "taxed", "up1",
    "down1",   "up2",   "down2", "up3",   "down3",  "up4",   "down4",  "holes",
    "pending",
};

/* Looks up key in a "k=v k=v" string; copies the value. */
static bool find_field(const char *fields, const char *key, char *out, size_t cap)
{
    const size_t klen = strlen(key);
    const char *p = fields;
    while (p && *p) {
        while (*p == ' ')
            p++;
        const char *end = strchr(p, ' ');
        const size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len > klen && strncmp(p, key, klen) == 0 && p[klen] == '=') {
            snprintf(out, cap, "%.*s", (int)(len - klen - 1), p + klen + 1);
            return true;
        }
        p = end;
    }
    return false;
}

/* Builds the position text of a diagram for `players` players. */
static void diagram_text(int players, Valley v, const char *fields, char *out, size_t cap)
{
    char valley[512] = "";
    size_t vn = 0;
    for (int r = 0; r < 5; r++) {
        int squares = 0;
        char row[128];
        snprintf(row, sizeof row, "%s", v[r]);
        char *save = NULL;
        for (char *t = strtok_r(row, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
            vn += (size_t)snprintf(valley + vn, sizeof valley - vn, "%s%s%s",
                                   squares ? "," : "", t[0] == '.' ? "-" : "", t[0] == '.' ? t + 1 : t);
            squares++;
        }
        if (squares != 5)
            fail_msg("diagram rank %d has %d squares", 5 - r, squares);
        if (r < 4)
            vn += (size_t)snprintf(valley + vn, sizeof valley - vn, "/");
    }
    char defaults[26][128];
    const char *def[] = {"2", "1", "1", "2", "summon", "0", valley, "c3,a1", "", "-", "-", "-",
                         "2,2", "0,0", "-,-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-"};
    def[8] = "C,C,C,C,C,C/D,D,D,D,D,D"; /* a full hill: phase 4 asks L or R */
    size_t n = 0;
    out[0] = '\0';
    for (size_t i = 0; i < sizeof FIELD_ORDER / sizeof FIELD_ORDER[0]; i++) {
        const char *key = FIELD_ORDER[i];
        if ((strncmp(key, "up", 2) == 0 || strncmp(key, "down", 4) == 0) &&
            key[strlen(key) - 1] - '0' > players)
            continue;
        char value[512];
        if (!find_field(fields, key, value, sizeof value)) {
            snprintf(defaults[i], sizeof defaults[i], "%s", def[i]);
            if (players > 2 && (strcmp(key, "gold") == 0 || strcmp(key, "crowns") == 0 ||
                                strcmp(key, "taxed") == 0 || strcmp(key, "kings") == 0)) {
                static const char *const more[4][4] = {
                    {"2,2,2", "0,0,0", "-,-,-", "c3,a1,e5"},
                    {"2,2,2,2", "0,0,0,0", "-,-,-,-", "c3,a1,e5,e1"},
                };
                const int k = strcmp(key, "gold") == 0     ? 0
                              : strcmp(key, "crowns") == 0 ? 1
                              : strcmp(key, "taxed") == 0  ? 2
                                                           : 3;
                snprintf(defaults[i], sizeof defaults[i], "%s", more[players - 3][k]);
            }
            if (strcmp(key, "players") == 0)
                snprintf(defaults[i], sizeof defaults[i], "%d", players);
            snprintf(value, sizeof value, "%s", strcmp(key, "valley") == 0 ? valley : defaults[i]);
        }
        n += (size_t)snprintf(out + n, cap - n, "%s%s=%s", n ? " " : "", key, value);
    }
}

/* Diagrams use a generous table (the built-in kinds, 60 tiles of each) so that they may
 * show any tiles without counting; the rules do not depend on how many tiles exist. */
static char test_table_path[80];
static char test_table_rule[96];

static int write_test_table(void **state)
{
    (void)state;
    char name[64];
    snprintf(name, sizeof name, "kotv_test_table_%d.txt", (int)getpid());
    temp_path(test_table_path, sizeof test_table_path, name);
    FILE *f = fopen(test_table_path, "w");
    if (f == NULL)
        return -1;
    const char *codes[] = {"Q",    "D",    "C",    "NA",   "NB",   "NC",   "ND",
                           "F",    "W",    "J",    "P",    "Z",    "T0:3", "T0:4",
                           "T3:5", "T3:6", "T4:7", "T4:8", "T5:9", "T5:10"};
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        fprintf(f, "I %s 20\nII %s 20\nIII %s 20\n", codes[i], codes[i], codes[i]);
    fclose(f);
    snprintf(test_table_rule, sizeof test_table_rule, "tiles=%s", test_table_path);
    return 0;
}

static int remove_test_table(void **state)
{
    (void)state;
    unlink(test_table_path);
    return 0;
}

static Setup open_setup(const char *const *extra, int n_extra, Valley v, const char *fields)
{
    const char *settings[MAX_SETTINGS + 1] = {test_table_rule};
    for (int i = 0; i < n_extra && i < MAX_SETTINGS; i++)
        settings[1 + i] = extra[i];
    Setup t;
    t.g = make_game(settings, 1 + n_extra);
    t.s = game_state_new(t.g);
    t.undo = game_undo_new(t.g);
    assert_true(t.s != NULL && t.undo != NULL);
    char text[TEXT_CAP];
    diagram_text(t.g->players, v, fields, text, sizeof text);
    ErrBuf err;
    err_clear(&err);
    if (kotv_ops.parse_position(t.g, t.s, text, &err) != STATUS_OK)
        fail_msg("diagram does not parse: %s\n  %s", err.msg, text);
    if (!kotv_ops.is_ok(t.g, t.s, &err))
        fail_msg("is_ok: %s", err.msg);
    return t;
}

static Setup setup(Valley v, const char *fields)
{
    return open_setup(NULL, 0, v, fields);
}

static Setup setup_rules(const char *rule, Valley v, const char *fields)
{
    const char *settings[1] = {rule};
    return open_setup(settings, 1, v, fields);
}

static void close_setup(Setup *t)
{
    free(t->undo);
    free(t->s);
    game_destroy(t->g);
}

static char *position(const Setup *t)
{
    StrBuf sb;
    sb_init(&sb);
    kotv_ops.format_position(t->g, t->s, &sb);
    char *text = strdup(sb_str(&sb));
    sb_free(&sb);
    return text;
}

/* The value of one field of the current position text. */
static void expect_field(const Setup *t, const char *key, const char *want)
{
    char *text = position(t);
    char value[1024];
    if (!find_field(text, key, value, sizeof value))
        fail_msg("no field %s in %s", key, text);
    if (strcmp(value, want) != 0)
        fail_msg("field %s is '%s', expected '%s'\n  position: %s", key, value, want, text);
    free(text);
}

/* The legal actions as a sorted, space-separated text. */
static char *legal(const Setup *t)
{
    MoveList *ml = malloc(sizeof *ml);
    assert_non_null(ml);
    const int n = kotv_ops.gen_moves(t->g, t->s, ml);
    char(*texts)[48] = malloc(sizeof *texts * (size_t)(n ? n : 1));
    assert_non_null(texts);
    for (int i = 0; i < n; i++) {
        StrBuf sb;
        sb_init(&sb);
        kotv_ops.format_move(t->g, t->s, ml->moves[i], &sb);
        snprintf(texts[i], sizeof texts[i], "%s", sb_str(&sb));
        sb_free(&sb);
    }
    qsort(texts, (size_t)n, sizeof texts[0], (int (*)(const void *, const void *))strcmp);
    char *out = calloc(1, (size_t)n * 48 + 1);
    assert_non_null(out);
    for (int i = 0; i < n; i++) {
        if (i)
            strcat(out, " ");
        strcat(out, texts[i]);
    }
    free(texts);
    free(ml);
    return out;
}

static void expect_legal_list(const Setup *t, const char *want)
{
    char *got = legal(t);
    if (strcmp(got, want) != 0) {
        char *pos = position(t);
        fail_msg("legal actions\n  got:  %s\n  want: %s\n  position: %s", got, want, pos);
    }
    free(got);
}

static void expect_legal(const Setup *t, const char *text)
{
    char *all = legal(t);
    char padded[4096];
    snprintf(padded, sizeof padded, " %s ", all);
    char needle[64];
    snprintf(needle, sizeof needle, " %s ", text);
    if (strstr(padded, needle) == NULL) {
        char *pos = position(t);
        fail_msg("'%s' should be legal; legal: %s\n  position: %s", text, all, pos);
    }
    free(all);
}

/* The action must be refused with a message containing `why`. */
static void expect_illegal(const Setup *t, const char *text, const char *why)
{
    char *all = legal(t);
    char padded[4096];
    snprintf(padded, sizeof padded, " %s ", all);
    char needle[64];
    snprintf(needle, sizeof needle, " %s ", text);
    if (strstr(padded, needle) != NULL)
        fail_msg("'%s' should be illegal; legal: %s", text, all);
    free(all);
    Move m;
    ErrBuf err;
    err_clear(&err);
    if (kotv_ops.parse_move(t->g, t->s, text, &m, &err) == STATUS_OK)
        fail_msg("'%s' parsed although illegal", text);
    if (why && strstr(err.msg, why) == NULL)
        fail_msg("'%s' refused with '%s', expected a message with '%s'", text, err.msg, why);
}

static void play(Setup *t, const char *text)
{
    Move m;
    ErrBuf err;
    err_clear(&err);
    int who = kotv_ops.to_move(t->g, t->s);
    Status st;
    if (who == PLAYER_CHANCE)
        st = kotv_ops.parse_move(t->g, t->s, text, &m, &err);
    else
        st = kotv_ops.parse_move(t->g, t->s, text, &m, &err);
    if (st != STATUS_OK) {
        char *pos = position(t);
        fail_msg("'%s' refused: %s\n  position: %s", text, err.msg, pos);
    }
    kotv_ops.make(t->g, t->s, m, t->undo);
    if (!kotv_ops.is_ok(t->g, t->s, &err))
        fail_msg("is_ok after '%s': %s", text, err.msg);
}

/* The cells a click interface gets for a legal action (GameOps.move_cells). */
static void expect_cells(const Setup *t, const char *text, const char *want)
{
    Move m;
    ErrBuf err;
    err_clear(&err);
    if (kotv_ops.parse_move(t->g, t->s, text, &m, &err) != STATUS_OK)
        fail_msg("'%s' refused: %s", text, err.msg);
    StrBuf cells;
    sb_init(&cells);
    kotv_ops.move_cells(t->g, t->s, m, &cells);
    if (strcmp(sb_str(&cells), want) != 0)
        fail_msg("cells of '%s': got '%s', want '%s'", text, sb_str(&cells), want);
    sb_free(&cells);
}

static void expect_to_move(const Setup *t, int who)
{
    assert_int_equal(kotv_ops.to_move(t->g, t->s), who);
}

/* A valley full of farmers, for tests where the valley does not matter. */
static Valley FARMS = {
    "F W F W F",
    "W F W F W",
    "F W F W F",
    "W F W F W",
    "F W F W F",
};

/* --- set-up ------------------------------------------------------------------------------ */

static void test_setup_from_seed(void **state)
{
    (void)state;
    for (int players = 2; players <= 4; players++) {
        char rule[32];
        snprintf(rule, sizeof rule, "players=%d", players);
        const char *settings[1] = {rule};
        Game *g = make_game(settings, 1);
        assert_int_equal(g->players, players);
        GameState *a = game_state_new(g), *b = game_state_new(g);
        kotv_ops.new_game(g, a, 7);
        kotv_ops.new_game(g, b, 7);
        assert_memory_equal(a, b, g->state_size);
        kotv_ops.new_game(g, b, 8);
        assert_true(memcmp(a, b, g->state_size) != 0);
        StrBuf sb;
        sb_init(&sb);
        kotv_ops.format_position(g, a, &sb);
        const char *text = sb_str(&sb);
        char v[1024];
        // Pile I made the valley and the two bottom hill rows; pile II the rest of the hill.
        assert_true(find_field(text, "pile1", v, sizeof v));
        assert_string_equal(v, "-");
        assert_true(find_field(text, "pile2", v, sizeof v));
        int pile2 = 0;
        for (const char *p = v; *p;) {
            int count = 0;
            while (*p >= '0' && *p <= '9')
                count = count * 10 + (*p++ - '0');
            pile2 += count ? count : 1;
            p = strchr(p, ',');
            p = p ? p + 1 : "";
        }
        assert_int_equal(pile2, 30 - 8);
        assert_true(find_field(text, "phase", v, sizeof v));
        assert_string_equal(v, "place");
        assert_true(find_field(text, "gold", v, sizeof v));
        assert_string_equal(v, players == 2 ? "2,2" : players == 3 ? "2,2,2" : "2,2,2,2");
        char first[8], turn[8];
        assert_true(find_field(text, "first", first, sizeof first));
        assert_true(find_field(text, "turn", turn, sizeof turn));
        assert_string_equal(first, turn);
        // No pile-II tile in the valley: with the built-in table, pile I has no jester
        // and no wizard.
        assert_true(find_field(text, "valley", v, sizeof v));
        assert_null(strchr(v, 'J'));
        assert_null(strchr(v, 'Z'));
        sb_free(&sb);
        free(a);
        free(b);
        game_destroy(g);
    }
}

static void test_placement(void **state)
{
    (void)state;
    const char *settings[1] = {"players=3"};
    Setup t = open_setup(settings, 1, FARMS,
                         "phase=place first=2 turn=2 turns=0 kings=-,-,- hill=F,F,F,F,F,F/F,F,F,F,F,F");
    expect_to_move(&t, 1);
    expect_cells(&t, "place c3", "c3"); // one cell: click it
    play(&t, "place c3");
    expect_to_move(&t, 2);
    expect_illegal(&t, "place c3", "another king");
    play(&t, "place a1");
    expect_to_move(&t, 0);
    play(&t, "place e5");
    // Everybody placed: the starting player's first turn; no recruiting in round 1, so
    // phase 2 right away.
    expect_to_move(&t, 1);
    expect_field(&t, "phase", "summon");
    expect_field(&t, "kings", "e5,c3,a1");
    expect_field(&t, "turns", "0");
    close_setup(&t);
}

/* --- phase 1: recruiting ---------------------------------------------------------------- */

static void test_recruit(void **state)
{
    (void)state;
    // Round 1 (turns 0 and 1): no recruiting.
    Setup t = setup(FARMS, "phase=recruit turns=1 turn=2 gold=9,9 hill=Q,D,P,C/NA,W");
    expect_field(&t, "phase", "summon");
    close_setup(&t);
    // Round 2: any subject within the player's gold, never a specialist; or pass.
    t = setup(FARMS, "phase=recruit turns=2 gold=3,9 hill=Q,D,P,C/NA,W");
    expect_legal_list(&t, "pass recruit L1 recruit L2 recruit R1 recruit R2");
    expect_illegal(&t, "recruit L3", "specialist");
    expect_illegal(&t, "recruit L4", "costs 6 gold and you have 3");
    expect_illegal(&t, "recruit L6", "empty");
    // Hill slots are no cells of the valley: a click interface offers these otherwise.
    expect_cells(&t, "recruit L2", "");
    expect_cells(&t, "pass", "");
    play(&t, "recruit L2");
    expect_field(&t, "gold", "0,9");
    expect_field(&t, "up1", "D");
    // The tiles above slide down.
    expect_field(&t, "hill", "Q,P,C/NA,W");
    expect_field(&t, "phase", "summon");
    close_setup(&t);
    // Too poor for anything: the phase is skipped.
    t = setup(FARMS, "phase=recruit turns=2 gold=1,9 hill=Q,D/NA,W");
    expect_field(&t, "phase", "summon");
    close_setup(&t);
    // A jester recruited chooses his column at once.
    t = setup(FARMS, "phase=recruit turns=2 gold=3,9 hill=J,D/NA,W");
    play(&t, "recruit L1");
    expect_legal_list(&t, "jester C jester D jester F jester N jester Q jester W");
    play(&t, "jester Q");
    expect_field(&t, "up1", "JQ");
    expect_field(&t, "phase", "summon");
    close_setup(&t);
}

/* --- phase 2: the summon ---------------------------------------------------------------- */

static void test_summon_single(void **state)
{
    (void)state;
    static Valley v = {
        "Q  .  D  .  C",
        ".  W  F  NA .",
        "F  NB .  F  .",
        ".  .  C  .  .",
        "W  .  .  .  NC",
    };
    // Player 1 on c3 (empty under him here), player 2 on b4.
    Setup t = setup(v, "kings=c3,b4 gold=0,2");
    // Stops on a tile and takes it; not b4 (another king), not empty squares; the king
    // may pass over the other king and over holes.
    expect_legal_list(&t, "c3-a1 c3-a3 c3-a5 c3-b3 c3-c2 c3-c4 c3-c5 c3-d3 c3-d4 c3-e1 c3-e5");
    expect_illegal(&t, "c3-b4", "another king stands on b4");
    expect_illegal(&t, "c3-e3", "e3 is empty");
    expect_illegal(&t, "c3-d5", "straight line");
    expect_illegal(&t, "d4-d5", "your king stands on c3");
    // The king's square, then where he stops (over the other king's square).
    expect_cells(&t, "c3-a5", "c3 a5");
    expect_cells(&t, "c3-e5", "c3 e5");
    play(&t, "c3-a5");
    expect_field(&t, "up1", "Q");
    expect_field(&t, "kings", "a5,b4");
    expect_field(&t, "phase", "refill");
    close_setup(&t);
}

static void test_summon_identical(void **state)
{
    (void)state;
    static Valley v = {
        "F  .  .  .  .",
        "F  .  .  .  .",
        "W  .  .  .  .",
        "F  .  .  .  .",
        "F  NA NB NC ND",
    };
    // King on a1: up the a-file F F W F F, along rank 1 four knights of four orders.
    Setup t = setup(v, "kings=a1,e5 gold=0,2");
    // Two or three identical characters passed, stopping just beyond the last; knights of
    // different orders are identical characters; a farmer and a farmer's wife are not.
    expect_legal_list(&t, "a1-a2 a1-a3 a1-a4 a1-a5 a1-a5:a2,a4 a1-b1 a1-c1 a1-d1 "
                          "a1-d1:b1,c1 a1-e1 a1-e1:b1,c1,d1 a1-e1:b1,d1 a1-e1:c1,d1");
    expect_illegal(&t, "a1-a4:a2,a3", "same character"); // a3 is a wife
    expect_illegal(&t, "a1-a5:a2,a3,a4", "same character");
    expect_illegal(&t, "a1-a5:a2,a3", "just beyond");
    expect_illegal(&t, "a1-e1:c1,d1,e1", "before the square");
    expect_illegal(&t, "a1-e1:b1", "two or three");
    // For click interfaces: the king's square, the tiles taken, where he stops.
    Move cells_move;
    ErrBuf cells_err;
    assert_int_equal(kotv_ops.parse_move(t.g, t.s, "a1-e1:b1,c1,d1", &cells_move, &cells_err),
                     STATUS_OK);
    StrBuf cells;
    sb_init(&cells);
    kotv_ops.move_cells(t.g, t.s, cells_move, &cells);
    assert_string_equal(sb_str(&cells), "a1 b1 c1 d1 e1");
    sb_free(&cells);
    play(&t, "a1-e1:b1,c1,d1");
    expect_field(&t, "up1", "NA,NB,NC");
    expect_field(&t, "kings", "e1,e5");
    close_setup(&t);

    // identical=tile: knights of different orders are no longer identical; two tax
    // collectors must also be the same tile (need and gold).
    static Valley same = {
        "F  .  .  .  .",
        "F  .  .  .  .",
        "W  .  .  .  .",
        "F  .  .  .  .",
        "F  NA NB NA ND",
    };
    t = setup_rules("identical=tile", same, "kings=a1,e5 gold=0,2");
    expect_legal_list(&t, "a1-a2 a1-a3 a1-a4 a1-a5 a1-a5:a2,a4 a1-b1 a1-c1 a1-d1 a1-e1 "
                          "a1-e1:b1,d1");
    expect_illegal(&t, "a1-d1:b1,c1", "be the same tile (identical=tile");
    close_setup(&t);
    static Valley taxes = {
        ".  .  .  .  .",
        ".  .  .  .  .",
        ".  .  .  .  .",
        ".  .  .  .  .",
        "F  T0:3 T0:4 T0:3 .",
    };
    t = setup(taxes, "kings=a1,e5 gold=0,2");
    expect_legal(&t, "a1-d1:b1,c1");
    close_setup(&t);
    t = setup_rules("identical=tile", taxes, "kings=a1,e5 gold=0,2");
    expect_illegal(&t, "a1-d1:b1,c1", "same tile");
    expect_legal(&t, "a1-e1:b1,d1");
    close_setup(&t);

    // A tile under another king cannot be taken in passing; the king may still stop on
    // that king's square beyond.
    static Valley w = {
        ".  .  .  .  .",
        ".  .  .  .  .",
        ".  .  .  .  .",
        ".  .  .  .  .",
        "D  D  D  D  .",
    };
    t = setup(w, "kings=a1,c1 gold=0,2");
    expect_illegal(&t, "a1-d1:b1,c1", "another king stands on c1");
    expect_legal(&t, "a1-e1:b1,d1");
    close_setup(&t);
    t = setup(w, "kings=a1,d1 gold=0,2");
    expect_legal(&t, "a1-d1:b1,c1"); // ends on d1, where the other king stands
    play(&t, "a1-d1:b1,c1");
    expect_field(&t, "kings", "d1,d1");
    expect_field(&t, "up1", "2D");
    close_setup(&t);
}

/* The observation (core/observation.h) of a small table: what stands where, as the
 * browser's drawing reads it. */
static void test_observation(void **state)
{
    (void)state;
    static Valley v = {
        ".  .  .  .  .",
        ".  .  .  .  .",
        "Q  .  P+2 .  .",
        ".  .  .  .  .",
        "NB F  .  .  T3:5",
    };
    Setup t = setup(v, "kings=a1,c3 gold=3,1 up1=2NA,F,JF down1=W crowns=0,1 taxed=W,- "
                       "hill=D,C/J");
    Observation *o = malloc(sizeof *o);
    assert_non_null(o);
    kotv_ops.observe(t.g, t.s, 1, o);
    ErrBuf err;
    err_clear(&err);
    assert_true(obs_check(t.g->observation, o, &err));
    StrBuf json;
    sb_init(&json);
    obs_write_json(t.g->observation, o, &json);
    const char *want[] = {
        "\"observer\":1,\"to_move\":0",
        // a1: the knight of order B (influence 2) under the first king.
        "{\"name\":\"a1\",\"zone\":0,\"col\":0,\"row\":0,\"terrain\":[],\"pieces\":"
        "[{\"kind\":\"knight-b\",\"owner\":null,\"value\":2},{\"kind\":\"king\",\"owner\":0}]}",
        // c3: the priest, his two coins, the second king.
        "\"pieces\":[{\"kind\":\"priest\",\"owner\":null},{\"kind\":\"coin\",\"owner\":null,"
        "\"value\":2},{\"kind\":\"king\",\"owner\":1}]",
        // e1: a tax collector needing 3, paying 5.
        "{\"kind\":\"tax-collector\",\"owner\":null,\"value\":305}",
        "{\"name\":\"L2\",\"zone\":1,\"col\":0,\"row\":1,\"terrain\":[],\"pieces\":"
        "[{\"kind\":\"countess\",\"owner\":null,\"value\":3}]}",
        "{\"name\":\"R1\",\"zone\":1,\"col\":1,\"row\":0,\"terrain\":[],\"pieces\":"
        "[{\"kind\":\"jester\",\"owner\":null}]}",
        // Player 1's castle: two knights A face up, a farmer and a jester in F; the wife
        // face down in the taxed W column.
        "{\"name\":\"1N+\",\"zone\":2,\"col\":3,\"row\":0,\"terrain\":[],\"pieces\":"
        "[{\"kind\":\"knight-a\",\"owner\":0,\"value\":2}]}",
        "{\"name\":\"1F+\",\"zone\":2,\"col\":4,\"row\":0,\"terrain\":[],\"pieces\":"
        "[{\"kind\":\"farmer\",\"owner\":0,\"value\":1},{\"kind\":\"jester\",\"owner\":0,"
        "\"value\":1}]}",
        "{\"name\":\"1W-\",\"zone\":2,\"col\":5,\"row\":1,\"terrain\":[\"taxed\"],"
        "\"pieces\":[{\"kind\":\"wife\",\"owner\":0,\"face_down\":true,\"value\":1}]}",
        "\"gold\":[3,1],\"kingdom\":[0,1]",
        "\"kingdom-tokens\":5,\"tax-tokens\":5",
        "{\"kind\":\"coin\",\"owner\":null,\"value\":10}]",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (strstr(sb_str(&json), want[i]) == NULL)
            fail_msg("the observation lacks %s:\n%s", want[i], sb_str(&json));
    sb_free(&json);
    free(o);
    close_setup(&t);
}

static void test_priest(void **state)
{
    (void)state;
    static Valley v = {
        ".  .  .  .  .",
        ".  .  .  .  .",
        "Q  .  P+2 .  .",
        ".  .  .  .  .",
        "D  .  .  .  P",
    };
    // The king stands on a1 (the duke under him).
    Setup t = setup(v, "kings=a1,e5 gold=0,2");
    // A priest is paid one gold: with no gold, only the coins on his tile can pay him.
    // e1 has no coins: not allowed; c3 has two: allowed.
    expect_legal_list(&t, "a1-a3 a1-c3");
    expect_illegal(&t, "a1-e1", "one gold");
    play(&t, "a1-c3");
    // Took the two coins, paid one back onto the square, and goes on from c3.
    expect_field(&t, "gold", "1,2");
    expect_field(&t, "valley", "-,-,-,-,-/-,-,-,-,-/Q,-,-+1,-,-/-,-,-,-,-/D,-,-,-,P");
    expect_field(&t, "phase", "summon");
    expect_field(&t, "holes", "c3");
    // From c3 as if the turn started there: the start square a1 (the duke) may be taken
    // now, and the second priest too.
    expect_legal_list(&t, "c3-a1 c3-a3 c3-e1");
    play(&t, "c3-e1");
    // From e1 only the duke on a1 is left: a step without a choice is played at once.
    expect_field(&t, "gold", "0,2");
    expect_field(&t, "up1", "D");
    expect_field(&t, "kings", "a1,e5");
    expect_field(&t, "holes", "c3,e1,a1");
    close_setup(&t);
    // A priest cannot be taken in passing.
    static Valley w = {
        ".  .  .  .  .",
        ".  .  .  .  .",
        ".  .  .  .  .",
        ".  .  .  .  .",
        "F  P  P  .  .",
    };
    t = setup(w, "kings=a1,e5 gold=5,2");
    expect_illegal(&t, "a1-d1:b1,c1", "only be summoned by stopping");
    close_setup(&t);
    // priest-coins=after: the coins on his square are taken only once he is paid, so with
    // no gold of one's own not even c3 (two coins) may be paid.
    static Valley x = {
        ".  .  .  .  .",
        ".  .  .  .  .",
        "Q  .  P+2 .  .",
        ".  F  .  .  .",
        "D  .  .  .  P",
    };
    t = setup_rules("priest-coins=after", x, "kings=a1,e5 gold=0,2");
    expect_legal_list(&t, "a1-a3 a1-b2");
    expect_illegal(&t, "a1-c3", "his coins are yours only once he is paid");
    close_setup(&t);
    // With a gold of one's own it is paid, and the coins come after: the same gold as with
    // the default order.
    t = setup_rules("priest-coins=after", x, "kings=a1,e5 gold=1,2");
    expect_legal_list(&t, "a1-a3 a1-b2 a1-c3 a1-e1");
    play(&t, "a1-c3");
    expect_field(&t, "gold", "2,2");
    expect_field(&t, "valley", "-,-,-,-,-/-,-,-,-,-/Q,-,-+1,-,-/-,F,-,-,-/D,-,-,-,P");
    close_setup(&t);
}

static void test_priest_holes_and_coins(void **state)
{
    (void)state;
    static Valley v = {
        "W  W  W  W  W",
        "W  W  W  W  W",
        "W  W  W  W  W",
        "F  W  W  W  W",
        "D  P  C  F  F",
    };
    // Player 1 on a2 pays the priest on b1, then takes the farmer on d1; the holes are
    // b1 (the priest's, with his coin), then d1.
    Setup t = setup(v, "kings=a2,b5 gold=1,2 hill=Q,W,C/NA,NB");
    play(&t, "a2-b1");
    play(&t, "b1-d1");
    expect_field(&t, "holes", "b1,d1");
    expect_field(&t, "phase", "refill");
    expect_legal_list(&t, "refill L refill R");
    play(&t, "refill L");
    // The bottom tile went to the first hole (the coin now lies on it), the next to d1;
    // the hill slid down.
    expect_field(&t, "valley", "W,W,W,W,W/W,W,W,W,W/W,W,W,W,W/F,W,W,W,W/D,Q+1,C,W,F");
    expect_field(&t, "hill", "C/NA,NB");
    // The piles are empty: the hill cannot be refilled, the end is triggered.
    expect_field(&t, "end", "1");
    // Player 2 takes the queen and the coin on her.
    expect_to_move(&t, 1);
    play(&t, "pass");
    play(&t, "b5-b1");
    expect_field(&t, "gold", "0,3");
    expect_field(&t, "up2", "Q");
    close_setup(&t);
    // Only the left column holds enough tiles for the two holes: it is used at once.
    t = setup(v, "kings=a2,e5 gold=1,2 hill=Q,W,C/NA");
    play(&t, "a2-b1");
    play(&t, "b1-d1");
    expect_field(&t, "hill", "C/NA");
    close_setup(&t);
}

static void test_wizard(void **state)
{
    (void)state;
    static Valley v = {
        ".  .  .  .  .",
        ".  .  .  .  .",
        ".  .  .  .  .",
        "W  W  W  W  W",
        "F  Z  W  Z  W",
    };
    // Needs a face-up subject in the castle (and a subject on the hill).
    Setup t = setup(v, "kings=a1,e5 hill=Q,P/J down1=F");
    expect_illegal(&t, "a1-b1", "wizard needs a face-up subject");
    close_setup(&t);
    t = setup(v, "kings=a1,e5 hill=P/P up1=F");
    expect_illegal(&t, "a1-b1", "wizard needs");
    close_setup(&t);
    // One face-up farmer, a queen, a priest and a jester on the hill.
    t = setup(v, "kings=a1,e5 hill=Q,P/J up1=F,JD");
    play(&t, "a1-b1");
    expect_legal_list(&t, "swap F L1 swap F R1 swap JD L1 swap JD R1");
    play(&t, "swap F L1");
    expect_field(&t, "up1", "Q,JD");
    expect_field(&t, "hill", "F,P/J");
    close_setup(&t);
    // Two wizards passed: two swaps; a jester coming from the hill picks his column
    // before the second swap.
    t = setup(v, "kings=a1,e5 hill=Q,P,W,W/J,W,W up1=F");
    play(&t, "a1-e1:b1,d1");
    play(&t, "swap F R1");
    expect_legal_list(&t, "jester C jester D jester F jester N jester Q jester W");
    play(&t, "jester N");
    expect_legal(&t, "swap JN L1");
    expect_legal(&t, "swap JN R1");
    expect_illegal(&t, "swap JN L2", "swap a face-up subject");
    expect_illegal(&t, "swap F R1", "swap a face-up subject");
    play(&t, "swap JN L1");
    expect_field(&t, "up1", "Q");
    expect_field(&t, "hill", "J,P,W,W/F,W,W");
    expect_field(&t, "phase", "refill");
    close_setup(&t);
}

static void test_tax(void **state)
{
    (void)state;
    static Valley v = {
        ".  .  .  .  .",
        ".  .  .  .  .",
        ".  .  .  .  .",
        "W  W  W  W  W",
        "F  T0:3 T3:5 T4:7 W",
    };
    // A collector without a need pays at once.
    Setup t = setup(v, "kings=a1,e5 gold=0,2");
    expect_legal(&t, "a1-b1");
    play(&t, "a1-b1");
    expect_field(&t, "gold", "3,2");
    close_setup(&t);
    // T3:5 needs three face-up subjects of one column (jesters there count) without a
    // tax token; the player picks the column, and which three tiles turn face down when
    // they differ (R-KOTV-13): the farmers' column holds a jester, the knights'
    // column three alike knights, so only the F column asks which.
    t = setup(v, "kings=a1,e5 gold=0,2 up1=2F,JF,3NA,2W taxed=W,-");
    play(&t, "a1-c1");
    expect_legal_list(&t, "tax F:F,F,JF tax N");
    expect_illegal(&t, "tax F", "say which 3 go face down, e.g. tax F:F,F,JF");
    expect_illegal(&t, "tax F:F,F", "exactly 3 face-up tiles face down, not 2");
    expect_illegal(&t, "tax F:F,F,F", "you have only 2 face-up F");
    expect_illegal(&t, "tax F:F,JF,NA", "must come from the taxed column F");
    expect_illegal(&t, "tax F:F,JX,F", "'JX' is not a castle subject");
    // Naming alike tiles is allowed, if not needed.
    Move m;
    ErrBuf err;
    err_clear(&err);
    assert_int_equal(kotv_ops.parse_move(t.g, t.s, "tax N:NA,NA,NA", &m, &err), STATUS_OK);
    play(&t, "tax F:F,F,JF");
    expect_field(&t, "up1", "3NA,2W");
    expect_field(&t, "down1", "2F,JF");
    expect_field(&t, "taxed", "FW,-");
    expect_field(&t, "gold", "5,2");
    close_setup(&t);
    // Two collectors passed need two different columns: T3:5 and T4:7 with only one
    // column of four face-up tiles cannot both be served.
    static Valley w = {
        ".  .  .  .  .",
        ".  .  .  .  .",
        ".  .  .  .  .",
        "W  W  W  W  W",
        "F  T3:5 T4:7 W  W",
    };
    t = setup(w, "kings=a1,e5 gold=0,2 up1=4NA");
    expect_illegal(&t, "a1-d1:b1,c1", "cannot serve every tax collector");
    expect_legal(&t, "a1-b1");
    expect_legal(&t, "a1-c1");
    close_setup(&t);
    // With a second column of three, both are served; the first pending collector (the
    // smaller need) must leave the knights to the T4:7.
    t = setup(w, "kings=a1,e5 gold=0,2 up1=4NA,3F");
    play(&t, "a1-d1:b1,c1");
    // Each collector had one possible column, so both were served at once.
    expect_field(&t, "taxed", "NF,-");
    expect_field(&t, "gold", "12,2");
    expect_field(&t, "up1", "-");
    expect_field(&t, "down1", "4NA,3F");
    close_setup(&t);
    t = setup(w, "kings=a1,e5 gold=0,2 up1=4NA,4F");
    play(&t, "a1-d1:b1,c1");
    expect_legal_list(&t, "tax F tax N");
    play(&t, "tax N");
    expect_field(&t, "taxed", "NF,-");
    close_setup(&t);
    // Knights of different orders differ: one action per distinct choice of three of
    // NA, 2NB, NC, never two actions for the same tiles.
    t = setup(v, "kings=a1,e5 gold=0,2 up1=NA,2NB,NC down1=ND,NA");
    play(&t, "a1-c1");
    expect_legal_list(&t, "tax N:NA,NB,NB tax N:NA,NB,NC tax N:NB,NB,NC");
    play(&t, "tax N:NB,NA,NC"); // in any order
    expect_field(&t, "up1", "NB");
    expect_field(&t, "down1", "2NA,NB,NC,ND");
    close_setup(&t);
    // A jester beside three farmers: which goes face down is the player's choice.
    t = setup(v, "kings=a1,e5 gold=0,2 up1=3F,JF");
    play(&t, "a1-c1");
    expect_legal_list(&t, "tax F:F,F,F tax F:F,F,JF");
    play(&t, "tax F:F,F,F");
    expect_field(&t, "up1", "JF");
    expect_field(&t, "down1", "3F");
    close_setup(&t);
    t = setup(v, "kings=a1,e5 gold=0,2 up1=3F,JF");
    play(&t, "a1-c1");
    play(&t, "tax F:JF,F,F");
    expect_field(&t, "up1", "F");
    expect_field(&t, "down1", "2F,JF");
    close_setup(&t);
    // Three alike farmers and nothing else: no choice to ask, the tax is played at once.
    t = setup(v, "kings=a1,e5 gold=0,2 up1=3F,2W");
    play(&t, "a1-c1");
    expect_field(&t, "up1", "2W");
    expect_field(&t, "down1", "3F");
    close_setup(&t);
    // A column already taxed cannot be taxed again; with no column left, no summon.
    t = setup(v, "kings=a1,e5 gold=0,2 up1=3F taxed=F,-");
    expect_illegal(&t, "a1-c1", "cannot serve");
    close_setup(&t);
}

static void test_tax_tokens_supply(void **state)
{
    (void)state;
    static Valley v = {
        ".  .  .  .  .",
        ".  .  .  .  .",
        ".  .  .  .  .",
        "W  W  W  W  W",
        "F  T3:5 W  W  W",
    };
    // Six tax tokens: all taken (three by each player) means no more taxes...
    Setup t = setup(v, "kings=a1,e5 gold=0,2 up1=3F taxed=QDC,QDC");
    expect_illegal(&t, "a1-b1", "cannot serve");
    close_setup(&t);
    // ...unless the supply is unlimited.
    t = setup_rules("token-supply=unlimited", v, "kings=a1,e5 gold=0,2 up1=3F taxed=QDC,QDC");
    expect_legal(&t, "a1-b1");
    close_setup(&t);
}

/* --- phase 3: the kingdom bonus ------------------------------------------------------------- */

static void test_kingdom(void **state)
{
    (void)state;
    static Valley v = {
        ".  .  .  .  .",
        ".  .  .  .  .",
        ".  .  .  .  .",
        "W  W  W  W  W",
        "F  C  W  W  W",
    };
    // A queen, a duke, a jester as countess, a knight, and a farmer and a wife: after
    // summoning a countess, a kingdom with F or W, or pass.
    // The countesses' column then holds a countess and a jester: which one goes face
    // down is named; the other columns hold one kind each and are not.
    Setup t = setup(v, "kings=a1,e5 gold=0,2 up1=Q,D,JC,NB,F,W");
    play(&t, "a1-b1");
    expect_legal_list(&t, "kingdom F:C kingdom F:JC kingdom W:C kingdom W:JC pass");
    expect_illegal(&t, "kingdom W", "say which goes face down, e.g. kingdom W:C");
    expect_illegal(&t, "kingdom W:C,JC", "one tile of column C face down, not 2");
    expect_illegal(&t, "kingdom W:JC,F", "claimed with column W, not F");
    expect_illegal(&t, "kingdom W:NA", "you have only 0 face-up NA");
    play(&t, "kingdom W:C");
    expect_field(&t, "crowns", "1,0");
    expect_field(&t, "gold", "5,2");
    expect_field(&t, "up1", "F,JC");
    expect_field(&t, "down1", "Q,D,C,NB,W");
    expect_field(&t, "phase", "refill");
    close_setup(&t);
    // The jester instead, and a choice among knights: each named tile is the one turned.
    t = setup(v, "kings=a1,e5 gold=0,2 up1=Q,D,JC,NA,ND,F");
    play(&t, "a1-b1");
    expect_legal_list(&t, "kingdom F:C,NA kingdom F:C,ND kingdom F:JC,NA kingdom F:JC,ND "
                          "pass");
    play(&t, "kingdom F:ND,JC");
    expect_field(&t, "up1", "C,NA");
    expect_field(&t, "down1", "Q,D,ND,F,JC");
    close_setup(&t);
    // Alike tiles everywhere (two farmers are alike): no names asked.
    t = setup(v, "kings=a1,e5 gold=0,2 up1=Q,D,2NB,2F");
    play(&t, "a1-b1");
    expect_legal_list(&t, "kingdom F pass");
    close_setup(&t);
    // No duke: no kingdom, phase 3 is skipped.
    t = setup(v, "kings=a1,e5 gold=0,2 up1=Q,NB,F,W");
    play(&t, "a1-b1");
    expect_field(&t, "phase", "refill");
    close_setup(&t);
    // The six kingdom tokens are gone: no more kingdoms (token-supply=limited).
    t = setup(v, "kings=a1,e5 gold=0,2 up1=Q,D,NB,F crowns=3,3");
    play(&t, "a1-b1");
    expect_field(&t, "phase", "refill");
    close_setup(&t);
    t = setup_rules("token-supply=unlimited", v, "kings=a1,e5 gold=0,2 up1=Q,D,NB,F crowns=3,3");
    play(&t, "a1-b1");
    expect_legal_list(&t, "kingdom F pass");
    close_setup(&t);
}

/* --- phase 4: replenishing --------------------------------------------------------------- */

static void test_refill_order_and_short_columns(void **state)
{
    (void)state;
    static Valley v = {
        "W  W  W  W  W",
        "W  W  W  W  W",
        "W  W  W  W  W",
        "W  W  W  W  W",
        "F  D  NA D  NB",
    };
    // Taking the dukes on b1 and d1 from a1, the king stops on e1; holes b1 then d1.
    // The right column has one tile for two holes, the left has enough: L is used at once.
    Setup t = setup(v, "kings=a1,e5 hill=Q,C/W");
    play(&t, "a1-e1:b1,d1");
    expect_field(&t, "valley", "W,W,W,W,W/W,W,W,W,W/W,W,W,W,W/W,W,W,W,W/F,Q,NA,C,NB");
    close_setup(&t);
    t = setup_rules("short-column=allow", v, "kings=a1,e5 hill=Q,C/W");
    play(&t, "a1-e1:b1,d1");
    expect_legal_list(&t, "refill L refill R");
    expect_illegal(&t, "refill X", "refill takes");
    play(&t, "refill R");
    // b1 got the wife, d1 stays empty.
    expect_field(&t, "valley", "W,W,W,W,W/W,W,W,W,W/W,W,W,W,W/W,W,W,W,W/F,W,NA,-,NB");
    close_setup(&t);
    // When neither column has enough, either may be used.
    t = setup(v, "kings=a1,e5 hill=Q/W");
    play(&t, "a1-e1:b1,d1");
    expect_legal_list(&t, "refill L refill R");
    expect_illegal(&t, "pass", "not legal now");
    close_setup(&t);
    // Older empty squares are refilled after this turn's holes, in square order.
    static Valley old_holes = {
        "W  W  W  W  W",
        "W  W  W  W  W",
        "W  W  .  W  W",
        "W  W  W  W  W",
        "F  D  NA W  .",
    };
    t = setup(old_holes, "kings=a1,e5 hill=Q,C,D,J/W,W,W");
    play(&t, "a1-b1");
    play(&t, "refill L");
    expect_field(&t, "valley", "W,W,W,W,W/W,W,W,W,W/W,W,D,W,W/W,W,W,W,W/F,Q,NA,W,C");
    close_setup(&t);
    // old-holes=first: they come first (e1, then c3), this turn's b1 last.
    t = setup_rules("old-holes=first", old_holes, "kings=a1,e5 hill=Q,C,D,J/W,W,W");
    play(&t, "a1-b1");
    play(&t, "refill L");
    expect_field(&t, "valley", "W,W,W,W,W/W,W,W,W,W/W,W,C,W,W/W,W,W,W,W/F,D,NA,W,Q");
    close_setup(&t);
    // A short column under old-holes=first fills the old squares and leaves this turn's
    // hole empty (the default leaves the old ones).
    t = setup_rules("old-holes=first", old_holes, "kings=a1,e5 hill=Q,C/W,W");
    play(&t, "a1-b1");
    play(&t, "refill L");
    expect_field(&t, "valley", "W,W,W,W,W/W,W,W,W,W/W,W,C,W,W/W,W,W,W,W/F,-,NA,W,Q");
    close_setup(&t);
}

static void test_hill_refill_chance(void **state)
{
    (void)state;
    static Valley v = {
        "F  F  F  F  F",
        "F  F  F  F  F",
        "F  F  F  F  F",
        "F  F  F  F  F",
        "F  D  F  F  F",
    };
    // Three tiles in pile II (Q, 2W) and some in pile III. Player 1 takes b1; the valley
    // is refilled from the left column; chance refills the hill from pile II.
    Setup t = setup(v, "kings=a1,e5 hill=C,C,C,C,C,C/C,C,C,C,C,C pile2=Q,2W pile3=J,P turns=2 "
                       "gold=0,0");
    play(&t, "a1-b1");
    play(&t, "refill L");
    expect_to_move(&t, PLAYER_CHANCE);
    ChanceList cl;
    kotv_ops.chance_outcomes(t.g, t.s, &cl);
    assert_int_equal(cl.count, 2);
    double pq = 0, pw = 0;
    for (int i = 0; i < cl.count; i++) {
        StrBuf sb;
        sb_init(&sb);
        kotv_ops.format_move(t.g, t.s, cl.outcomes[i], &sb);
        if (strcmp(sb_str(&sb), "draw Q") == 0)
            pq = cl.prob[i];
        if (strcmp(sb_str(&sb), "draw W") == 0)
            pw = cl.prob[i];
        sb_free(&sb);
    }
    assert_true(fabs(pq - 1.0 / 3) < 1e-12 && fabs(pw - 2.0 / 3) < 1e-12);
    play(&t, "draw W");
    // The new tile goes on top of the left column; then player 2's turn.
    expect_field(&t, "hill", "C,C,C,C,C,W/C,C,C,C,C,C");
    expect_field(&t, "pile2", "Q,W");
    expect_to_move(&t, 1);
    close_setup(&t);
    // hill-refill=i-iii (the rulebook's letter): pile II is skipped.
    t = setup_rules("hill-refill=i-iii", v,
                    "kings=a1,e5 hill=C,C,C,C,C,C/C,C,C,C,C,C pile2=Q,2W pile3=J,P gold=0,0");
    play(&t, "a1-b1");
    play(&t, "refill L");
    kotv_ops.chance_outcomes(t.g, t.s, &cl);
    assert_int_equal(cl.count, 2);
    expect_legal_list(&t, "");
    Move m;
    ErrBuf err;
    assert_int_not_equal(kotv_ops.parse_move(t.g, t.s, "draw Q", &m, &err), STATUS_OK);
    play(&t, "draw J");
    close_setup(&t);
    // A pile with one kind left is drawn without asking chance.
    t = setup(v, "kings=a1,e5 hill=C,C,C,C,C,C/C,C,C,C,C,C pile2=2W gold=0,0");
    play(&t, "a1-b1");
    play(&t, "refill L");
    expect_to_move(&t, 1);
    expect_field(&t, "pile2", "W");
    close_setup(&t);
}

/* --- the end ---------------------------------------------------------------------------- */

static void test_end_of_game(void **state)
{
    (void)state;
    static Valley v = {
        "F  F  F  F  F",
        "F  F  F  F  F",
        "F  F  F  F  F",
        "F  F  F  F  F",
        "F  D  F  W  F",
    };
    // Three players, player 2 started. Player 3 (the last of the round) empties the hill
    // beyond repair: the game ends at once, since the starting player would be next.
    const char *three[1] = {"players=3"};
    Setup t = open_setup(three, 1, v, "first=2 turn=1 kings=a1,e5,c5 hill=C,C,C,C,C/C,C,C,C,C,C "
                                      "pile2=W");
    play(&t, "a1-b1");
    play(&t, "refill L");
    // One tile drawn (the only one left), the hill is still one short: the end is
    // triggered, and player 2 is the starting player: game over.
    expect_to_move(&t, PLAYER_NONE);
    expect_field(&t, "end", "1");
    StrBuf why;
    sb_init(&why);
    kotv_ops.describe_result(t.g, t.s, &why);
    assert_non_null(strstr(sb_str(&why), "could not be refilled"));
    sb_free(&why);
    close_setup(&t);
    // The same when player 2 of three (the starting player) triggers it: the round is
    // finished by players 3 and 1.
    t = open_setup(three, 1, v, "first=2 turn=2 kings=e5,a1,c5 hill=C,C,C,C,C/C,C,C,C,C,C "
                                "pile2=W gold=0,0,0");
    play(&t, "a1-b1");
    play(&t, "refill L");
    expect_to_move(&t, 2);
    expect_field(&t, "end", "1");
    play(&t, "c5-b5");
    play(&t, "refill L");
    expect_to_move(&t, 0);
    play(&t, "e5-d5");
    play(&t, "refill L");
    expect_to_move(&t, PLAYER_NONE);
    close_setup(&t);
    // max-rounds: the game ends after that many rounds.
    t = setup_rules("max-rounds=2", v, "turns=3 turn=2 kings=e5,a1 hill=C,C,C,C,C,C/C,C,C,C,C,C "
                                       "pile2=10W");
    play(&t, "a1-b1");
    play(&t, "refill L");
    expect_to_move(&t, PLAYER_NONE);
    sb_init(&why);
    kotv_ops.describe_result(t.g, t.s, &why);
    assert_non_null(strstr(sb_str(&why), "max-rounds"));
    sb_free(&why);
    close_setup(&t);
}

/* --- scoring ---------------------------------------------------------------------------- */

static void test_scoring(void **state)
{
    (void)state;
    // Player 1: Q D C (12) + 3 knights of A (6 influence, 3 bonus) + NB + 2F 1W (3, one
    // couple: 2) + jester (0) + 1 kingdom (5) + 4 gold = 12+6+3+2+3+2+0+5+4 = 37.
    // Player 2: 5 knights of order C (10 + 8) + 3 F 3 W (6 + 6) + 0 gold = 30.
    Setup t = setup(FARMS, "phase=over end=1 turns=4 gold=4,0 crowns=1,0 up1=Q,D,2NA,F,JQ "
                           "down1=C,NA,NB,F,W up2=3NC,3F down2=2NC,3W");
    expect_to_move(&t, PLAYER_NONE);
    assert_true(kotv_ops.score != NULL);
    assert_true(fabs(kotv_ops.score(t.g, t.s, 0) - (37 + 0.001 * 23)) < 1e-9);
    assert_true(fabs(kotv_ops.score(t.g, t.s, 1) - (30 + 0.001 * 16)) < 1e-9);
    double ret[MAX_PLAYERS];
    kotv_ops.returns(t.g, t.s, ret);
    assert_true(ret[0] == 1 && ret[1] == -1);
    close_setup(&t);
    // Orders: 4 knights = 5 points; the jester in the farmers' column counts for couples
    // only with jester-couples=on.
    t = setup(FARMS, "phase=over end=1 turns=4 gold=0,0 up1=4ND,W,JF");
    assert_true(fabs(kotv_ops.score(t.g, t.s, 0) - (8 + 5 + 1 + 0.009)) < 1e-9);
    close_setup(&t);
    t = setup_rules("jester-couples=on", FARMS, "phase=over end=1 turns=4 gold=0,0 up1=4ND,W,JF");
    assert_true(fabs(kotv_ops.score(t.g, t.s, 0) - (8 + 5 + 1 + 2 + 0.009)) < 1e-9);
    close_setup(&t);
    // Equal reputation: more influence wins (4 gold vs a duke); equal both: shared.
    t = setup(FARMS, "phase=over end=1 turns=4 gold=4,0 up2=D");
    kotv_ops.returns(t.g, t.s, ret);
    assert_true(ret[0] == -1 && ret[1] == 1);
    close_setup(&t);
    t = setup(FARMS, "phase=over end=1 turns=4 gold=3,3");
    kotv_ops.returns(t.g, t.s, ret);
    assert_true(ret[0] == 0 && ret[1] == 0);
    close_setup(&t);
    // Four players: rank returns sum to zero; the guided values (rank and margin) keep
    // the order and also sum to zero; on a finished game the guided hook plays nothing.
    const char *four[1] = {"players=4"};
    t = open_setup(four, 1, FARMS, "phase=over end=1 turns=8 gold=10,5,5,0 kings=a1,b1,c1,d1");
    kotv_ops.returns(t.g, t.s, ret);
    assert_true(fabs(ret[0] - 1) < 1e-12 && fabs(ret[1]) < 1e-12 && fabs(ret[2]) < 1e-12 &&
                fabs(ret[3] + 1) < 1e-12);
    Rng rng;
    rng_seed(&rng, 1);
    GameState *before = game_state_clone(t.g, t.s);
    kotv_ops.guided_playout(t.g, t.s, &rng, ret);
    assert_memory_equal(before, t.s, t.g->state_size);
    free(before);
    assert_true(ret[0] > ret[1] && ret[1] == ret[2] && ret[2] > ret[3]);
    assert_true(ret[0] < 1 && ret[3] > -1);
    assert_true(fabs(ret[0] + ret[1] + ret[2] + ret[3]) < 1e-12);
    close_setup(&t);
}

/* --- texts, options and files ---------------------------------------------------------- */

static void test_position_text_round_trip_and_errors(void **state)
{
    (void)state;
    Game *g = make_game(NULL, 0);
    GameState *s = game_state_new(g), *u = game_state_new(g);
    kotv_ops.new_game(g, s, 99);
    StrBuf sb;
    sb_init(&sb);
    kotv_ops.format_position(g, s, &sb);
    ErrBuf err;
    assert_int_equal(kotv_ops.parse_position(g, u, sb_str(&sb), &err), STATUS_OK);
    assert_memory_equal(s, u, g->state_size);
    // Errors name the problem and leave the state alone.
    const char *bad[][2] = {
        {"players=2", "lacks the field"},
        {"nonsense", "not a field"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memcpy(u, s, g->state_size);
        assert_int_not_equal(kotv_ops.parse_position(g, u, bad[i][0], &err), STATUS_OK);
        assert_non_null(strstr(err.msg, bad[i][1]));
        assert_memory_equal(s, u, g->state_size);
    }
    // Too many queens for the table.
    char text[TEXT_CAP];
    diagram_text(2, FARMS, "up1=4Q", text, sizeof text);
    assert_int_not_equal(kotv_ops.parse_position(g, u, text, &err), STATUS_OK);
    assert_non_null(strstr(err.msg, "table has"));
    diagram_text(2, FARMS, "players=3", text, sizeof text);
    assert_int_not_equal(kotv_ops.parse_position(g, u, text, &err), STATUS_OK);
    sb_free(&sb);
    free(s);
    free(u);
    game_destroy(g);
}

static void test_player_count_option(void **state)
{
    (void)state;
    // The rule and the create argument agree; a contradiction is an error.
    Game *g = NULL;
    ErrBuf err;
    assert_int_equal(rule_text_create(&kotv_ops, 4, NULL, 0, &g, &err), STATUS_OK);
    assert_int_equal(g->players, 4);
    assert_string_equal(game_option(g, "players"), "4");
    game_destroy(g);
    const char *three[1] = {"players=3"};
    assert_int_equal(rule_text_create(&kotv_ops, 0, three, 1, &g, &err), STATUS_OK);
    assert_int_equal(g->players, 3);
    game_destroy(g);
    assert_int_not_equal(rule_text_create(&kotv_ops, 4, three, 1, &g, &err), STATUS_OK);
    assert_null(g);
}

/* Writes text to a temporary file; returns its name (static storage). */
static const char *temp_file(const char *text)
{
    static char path[80];
    char name[64];
    snprintf(name, sizeof name, "kotv_tiles_%d.txt", (int)getpid());
    temp_path(path, sizeof path, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static void test_tiles_file(void **state)
{
    (void)state;
    // A small table: 25 farmers and 4 queens in pile I, 8 dukes and a wizard in pile II.
    const char *path = temp_file("# tiny\nI F 25\nI Q 4\nII D 8\nIII Z 1\nIII T2:9 3\n"
                                 "prices 1 1 1 1 1 1\nkingdom-tokens 1\ninfluence D 7\n");
    char rule[128];
    snprintf(rule, sizeof rule, "tiles=%s", path);
    const char *settings[1] = {rule};
    Game *g = make_game(settings, 1);
    GameState *s = game_state_new(g);
    kotv_ops.new_game(g, s, 1);
    StrBuf sb;
    sb_init(&sb);
    kotv_ops.format_position(g, s, &sb);
    char v[512];
    assert_true(find_field(sb_str(&sb), "pile3", v, sizeof v));
    assert_string_equal(v, "Z,3T2:9");
    assert_true(find_field(sb_str(&sb), "pile2", v, sizeof v));
    assert_string_equal(v, "-");
    // Rows 3-6 of the hill come from pile II: dukes only.
    assert_true(find_field(sb_str(&sb), "hill", v, sizeof v));
    assert_true(strlen(v) > 12 && strstr(v, "D,D,D,D/") != NULL);
    assert_string_equal(v + strlen(v) - 7, "D,D,D,D");
    sb_free(&sb);
    free(s);
    game_destroy(g);
    // Bad files: the message names the line and the problem.
    const char *bad[][2] = {
        {"I F 25\nI X 4\n", "line 2: unknown tile 'X'"},
        {"I F 25\nIV Q 4\n", "line 2: 'IV' is neither a pile"},
        {"I F 25\nI Q 0\n", "line 2: count '0'"},
        {"I F 25\nI Q 4\nprices 1 2 3\n", "line 3: 'prices' takes the six"},
        {"I F 25\nI F 4\n", "line 2: pile I F was already given on line 1"},
        {"I F 20\nII F 20\n", "pile I has 20 tiles"},
        {"I F 25\n", "need 37"},
        {"I F 25\nI T10:3 1\n", "line 2: unknown tile"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        path = temp_file(bad[i][0]);
        snprintf(rule, sizeof rule, "tiles=%s", path);
        ErrBuf err;
        err_clear(&err);
        g = NULL;
        assert_int_not_equal(rule_text_create(&kotv_ops, 0, settings, 1, &g, &err), STATUS_OK);
        if (strstr(err.msg, bad[i][1]) == NULL)
            fail_msg("tiles file %zu: '%s' lacks '%s'", i, err.msg, bad[i][1]);
    }
    unlink(path);
    const char *missing[1] = {"tiles=/nonexistent/kotv.txt"};
    ErrBuf err;
    assert_int_not_equal(rule_text_create(&kotv_ops, 0, missing, 1, &g, &err), STATUS_OK);
    assert_non_null(strstr(err.msg, "cannot open"));
}

static void test_move_texts(void **state)
{
    (void)state;
    Setup t = setup(FARMS, "phase=recruit turns=2 gold=3,9 hill=Q,D,P,C/NA,W");
    // Bad words, slots and columns get messages; case of letters in slots is forgiven.
    expect_illegal(&t, "recruit Z9", "hill slot");
    expect_illegal(&t, "dance", "not an action");
    expect_illegal(&t, "jester X", "castle column");
    expect_illegal(&t, "draw Q", "chance");
    Move m;
    ErrBuf err;
    assert_int_equal(kotv_ops.parse_move(t.g, t.s, "  recruit l2 ", &m, &err), STATUS_OK);
    close_setup(&t);
}

/* The view of each player shows the public state and never a pile's order (which the
 * state does not even hold), and ends with the position text; a spectator's view is the
 * same; determinize changes nothing. */
static void test_view_and_determinize(void **state)
{
    (void)state;
    Game *g = make_game(NULL, 0);
    GameState *s = game_state_new(g), *c = game_state_new(g);
    kotv_ops.new_game(g, s, 5);
    memcpy(c, s, g->state_size);
    Rng rng;
    rng_seed(&rng, 1);
    kotv_ops.determinize(g, c, 0, &rng);
    assert_memory_equal(s, c, g->state_size);
    StrBuf a, b;
    sb_init(&a);
    sb_init(&b);
    kotv_ops.format_view(g, s, 0, &a);
    kotv_ops.format_view(g, s, 1, &b);
    assert_non_null(strstr(sb_str(&a), "View of player 1"));
    assert_non_null(strstr(sb_str(&b), "View of player 2"));
    // The table of tiles says each subject's influence (a tiles file may change it).
    assert_non_null(strstr(sb_str(&a), " Q queen (influence 5),"));
    assert_non_null(strstr(sb_str(&a), " NA knight of order A (influence 2),"));
    assert_non_null(strstr(sb_str(&a), "Pile II holds"));
    // The view ends with the position text, which a program drawing it reads back.
    StrBuf pos;
    sb_init(&pos);
    kotv_ops.format_position(g, s, &pos);
    const char *line = strstr(sb_str(&a), "\nPosition: ");
    assert_non_null(line);
    line += strlen("\nPosition: ");
    assert_int_equal(strncmp(line, sb_str(&pos), strlen(sb_str(&pos))), 0);
    assert_string_equal(line + strlen(sb_str(&pos)), "\n");
    ErrBuf err;
    assert_int_equal(kotv_ops.parse_position(g, c, sb_str(&pos), &err), STATUS_OK);
    assert_memory_equal(s, c, g->state_size);
    // A spectator (PLAYER_NONE) sees the same public state under his own heading.
    sb_clear(&b);
    kotv_ops.format_view(g, s, PLAYER_NONE, &b);
    assert_non_null(strstr(sb_str(&b), "View of a spectator."));
    assert_null(strstr(sb_str(&b), "View of player"));
    assert_string_equal(strstr(sb_str(&b), "\nPosition: "), strstr(sb_str(&a), "\nPosition: "));
    sb_free(&pos);
    sb_free(&a);
    sb_free(&b);
    free(s);
    free(c);
    game_destroy(g);
}

/* A random game replays exactly from its seed and its actions, through a record text. */
static void test_replay_from_record(void **state)
{
    (void)state;
    const char *settings[1] = {"players=3"};
    Game *g = make_game(settings, 1);
    GameState *s = game_state_new(g);
    kotv_ops.new_game(g, s, 2024);
    GameRecord rec;
    ErrBuf err;
    assert_int_equal(record_init(&rec, g, s, &err), STATUS_OK);
    Rng rng;
    rng_seed(&rng, 77);
    MoveList *ml = malloc(sizeof *ml);
    while (!game_is_over(rec.game, rec.current)) {
        Move m;
        if (kotv_ops.to_move(rec.game, rec.current) == PLAYER_CHANCE) {
            m = game_sample_chance(rec.game, rec.current, &rng);
        } else {
            kotv_ops.gen_moves(rec.game, rec.current, ml);
            m = ml->moves[rng_below(&rng, (uint32_t)ml->count)];
        }
        assert_int_equal(record_push(&rec, m, &err), STATUS_OK);
    }
    StrBuf text;
    sb_init(&text);
    record_write(&rec, NULL, &text);
    GameRecord back;
    if (record_parse(sb_str(&text), registry_find, &back, &err) != STATUS_OK)
        fail_msg("record does not load: %s", err.msg);
    assert_int_equal(back.count, rec.count);
    assert_memory_equal(back.current, rec.current, rec.game->state_size);
    assert_true(game_is_over(back.game, back.current));
    record_free(&back);
    sb_free(&text);
    record_free(&rec);
    free(ml);
    free(s);
}

/* The greedy baseline takes the action whose turn scores best for the mover: here the
 * wizard (swapping a farmer for the queen on the hill: +4) rather than the duke (+4 but
 * no more) or the farmer; ties go at random, never to a worse action. */
static Move greedy_choice(const Setup *t, uint64_t seed)
{
    AgentSpec spec;
    ErrBuf err;
    assert_int_equal(agent_spec_parse("greedy", &spec, &err), STATUS_OK);
    spec.seed = seed;
    Agent *a = NULL;
    if (agent_new(t->g, &spec, &a, &err) != STATUS_OK)
        fail_msg("agent_new: %s", err.msg);
    SearchResult r;
    assert_int_equal(agent_think(a, t->s, &r, &err), STATUS_OK);
    agent_free(a);
    return r.best;
}

static void test_greedy_baseline(void **state)
{
    (void)state;
    static Valley v = {
        "W  W  W  W  W",
        "W  W  W  W  W",
        "W  W  W  W  W",
        "W  W  W  W  W",
        "F  Z  W  Q  F",
    };
    // Taking the queen on d1 (+5) beats everything else, the wizard (+4) included.
    Setup t = setup(v, "kings=a1,e5 up1=F,W hill=C,NA,W/W,W,W");
    StrBuf sb;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        const Move m = greedy_choice(&t, seed);
        sb_init(&sb);
        kotv_ops.format_move(t.g, t.s, m, &sb);
        assert_string_equal(sb_str(&sb), "a1-d1");
        sb_free(&sb);
    }
    close_setup(&t);
    // Without the queen in the valley, the wizard's swap (a farmer for the queen on the
    // hill: +4) beats the wife (+1 and a couple: +3) and the countess (+3); it is found
    // by looking through the whole turn.
    static Valley w = {
        ".  .  .  .  .",
        ".  .  .  .  .",
        ".  .  .  .  .",
        "W  .  .  .  .",
        "F  Z  .  C  .",
    };
    t = setup(w, "kings=a1,e5 up1=2F hill=Q,NA,W/W,W,W gold=0,0");
    for (uint64_t seed = 1; seed <= 4; seed++) {
        const Move m = greedy_choice(&t, seed);
        sb_init(&sb);
        kotv_ops.format_move(t.g, t.s, m, &sb);
        assert_string_equal(sb_str(&sb), "a1-b1");
        sb_free(&sb);
    }
    close_setup(&t);
    // Which tiles a tax turns down never changes the points; greedy follows the score's
    // tie-break and keeps the jester face up, and among knights those of the order held
    // fewest of (B: one, against two of A and C).
    static Valley taxed = {
        ".  .  .  .  .",
        ".  .  .  .  .",
        ".  .  .  .  .",
        ".  .  .  .  .",
        "F  F  T3:5 .  .",
    };
    const char *const cases[][2] = {
        {"kings=a1,e5 up1=3F,JF gold=0,0", "tax F:F,F,F"},
        {"kings=a1,e5 up1=NA,NB,2NC down1=NA gold=0,0", "tax N:NA,NC,NC"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        t = setup(taxed, cases[i][0]);
        play(&t, "a1-c1");
        for (uint64_t seed = 1; seed <= 4; seed++) {
            const Move m = greedy_choice(&t, seed);
            sb_init(&sb);
            kotv_ops.format_move(t.g, t.s, m, &sb);
            assert_string_equal(sb_str(&sb), cases[i][1]);
            sb_free(&sb);
        }
        close_setup(&t);
    }
    // "greedy" takes no level, and needs a game with a score.
    AgentSpec spec;
    ErrBuf err;
    assert_int_equal(agent_spec_parse("greedy:3", &spec, &err), STATUS_PARSE);
    const GameOps *kv = registry_find("kings-valley");
    if (kv != NULL && kv->score == NULL) {
        Game *g = NULL;
        assert_int_equal(game_create(kv, 0, NULL, 0, &g, &err), STATUS_OK);
        assert_int_equal(agent_spec_parse("greedy", &spec, &err), STATUS_OK);
        Agent *a = NULL;
        assert_int_equal(agent_new(g, &spec, &a, &err), STATUS_UNSUPPORTED);
        assert_non_null(strstr(err.msg, "score"));
        game_destroy(g);
    }
}

/* The playout hooks, uniform and guided, play games to the end that are sound. */
static void test_playouts(void **state)
{
    (void)state;
    const char *const modes[2] = {"playout", "guided_playout"};
    for (int m = 0; m < 2; m++)
        for (int players = 2; players <= 4; players++) {
            char rule[32];
            snprintf(rule, sizeof rule, "players=%d", players);
            const char *settings[1] = {rule};
            Game *g = make_game(settings, 1);
            GameState *s = game_state_new(g);
            Rng rng;
            rng_seed(&rng, 9);
            for (int k = 0; k < 30; k++) {
                kotv_ops.new_game(g, s, (uint64_t)k);
                double ret[MAX_PLAYERS];
                if (m == 0)
                    kotv_ops.playout(g, s, &rng, ret);
                else
                    kotv_ops.guided_playout(g, s, &rng, ret);
                ErrBuf err;
                if (!kotv_ops.is_ok(g, s, &err))
                    fail_msg("%s: is_ok after a playout: %s", modes[m], err.msg);
                assert_int_equal(kotv_ops.to_move(g, s), PLAYER_NONE);
                double sum = 0;
                for (int p = 0; p < players; p++) {
                    assert_true(ret[p] >= -1 && ret[p] <= 1);
                    sum += ret[p];
                }
                assert_true(fabs(sum) < 1e-9);
            }
            free(s);
            game_destroy(g);
        }
}

int main(int argc, char **argv)
{
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_setup_from_seed),
        cmocka_unit_test(test_placement),
        cmocka_unit_test(test_recruit),
        cmocka_unit_test(test_summon_single),
        cmocka_unit_test(test_summon_identical),
        cmocka_unit_test(test_observation),
        cmocka_unit_test(test_priest),
        cmocka_unit_test(test_priest_holes_and_coins),
        cmocka_unit_test(test_wizard),
        cmocka_unit_test(test_tax),
        cmocka_unit_test(test_tax_tokens_supply),
        cmocka_unit_test(test_kingdom),
        cmocka_unit_test(test_refill_order_and_short_columns),
        cmocka_unit_test(test_hill_refill_chance),
        cmocka_unit_test(test_end_of_game),
        cmocka_unit_test(test_scoring),
        cmocka_unit_test(test_position_text_round_trip_and_errors),
        cmocka_unit_test(test_player_count_option),
        cmocka_unit_test(test_tiles_file),
        cmocka_unit_test(test_move_texts),
        cmocka_unit_test(test_view_and_determinize),
        cmocka_unit_test(test_replay_from_record),
        cmocka_unit_test(test_greedy_baseline),
        cmocka_unit_test(test_playouts),
    };
    return cmocka_run_group_tests(tests, write_test_table, remove_test_table);
}
