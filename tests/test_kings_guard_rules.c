/*
 * test_kings_guard_rules.c - every King's Guard rule and option as a small board diagram
 * with the actions expected to be legal and those expected to be refused (with the
 * reason), on both boards.
 *
 * Each diagram is set up twice, in the game through the interface and in the plain
 * reference (tests/support/kg_reference), and every check also asks that both agree on
 * the legal actions, the position text and the result: the diagrams test the reference
 * as much as the game. Diagrams list ranks from the top down; a square is '.' or its
 * stack from the bottom up (G K first player, g k second player).
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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "core/game_api.h"
#include "support/rule_text.h"
#include "play/registry.h"
#include "support/kg_reference.h"

enum { TEXT_CAP = 4096, MAX_TOKENS = 128, TURN_CAP = 64 };

#define NONE ((const char *const *)NULL)
#define SET(...) ((const char *const[]){__VA_ARGS__, NULL})

/* The game and the reference at the same position. */
typedef struct Case {
    const char *game;
    Game *g;
    GameState *s;
    void *undo;
    KgRefGame *ref;
} Case;

static int count_settings(const char *const *settings)
{
    int n = 0;
    while (settings != NULL && settings[n] != NULL)
        n++;
    return n;
}

static Game *make_game(const char *game, const char *const *settings)
{
    const GameOps *ops = registry_find(game);
    if (ops == NULL)
        fail_msg("%s is not registered", game);
    Game *g = NULL;
    ErrBuf err;
    err_clear(&err);
    if (rule_text_create(ops, 0, settings, count_settings(settings), &g, &err) != STATUS_OK)
        fail_msg("%s: %s", game, err.msg);
    return g;
}

static void open_text(Case *t, const char *game, const char *const *settings, const char *text)
{
    memset(t, 0, sizeof *t);
    t->game = game;
    t->g = make_game(game, settings);
    t->s = game_state_new(t->g);
    t->undo = game_undo_new(t->g);
    assert_true(t->s != NULL && t->undo != NULL);
    ErrBuf err;
    err_clear(&err);
    if (t->g->ops->parse_position(t->g, t->s, text, &err) != STATUS_OK)
        fail_msg("'%s' does not parse: %s", text, err.msg);
    KgRefRules rules;
    char rerr[128];
    if (!kgref_rules_for(game, settings, count_settings(settings), &rules, rerr, sizeof rerr))
        fail_msg("reference rules: %s", rerr);
    t->ref = kgref_game_new(&rules, text, rerr, sizeof rerr);
    if (t->ref == NULL)
        fail_msg("reference cannot read '%s': %s", text, rerr);
}

static void open_diagram(Case *t, const char *game, const char *const *settings,
                         const char *const *rows, int n_rows, int to_move, const char *progress)
{
    char text[KGREF_POSITION_TEXT];
    if (!kgref_diagram(rows, n_rows, to_move, 0, progress, text, sizeof text))
        fail_msg("malformed diagram");
    open_text(t, game, settings, text);
}

#define OPEN(t, game, settings, rows, to_move)                                                 \
    open_diagram(t, game, settings, rows, (int)(sizeof rows / sizeof rows[0]), to_move, NULL)

static void close_case(Case *t)
{
    kgref_game_free(t->ref);
    free(t->undo);
    free(t->s);
    game_destroy(t->g);
}

static char *position_text(const Case *t)
{
    static char buf[TEXT_CAP];
    StrBuf sb;
    sb_init(&sb);
    t->g->ops->format_position(t->g, t->s, &sb);
    snprintf(buf, sizeof buf, "%s", sb_str(&sb));
    sb_free(&sb);
    return buf;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sorts the space-separated words of `in` into `out`. */
static void sort_words(const char *in, char *out, size_t cap)
{
    char copy[TEXT_CAP];
    snprintf(copy, sizeof copy, "%s", in);
    const char *words[MAX_TOKENS];
    int n = 0;
    for (char *save = NULL, *w = strtok_r(copy, " ", &save); w && n < MAX_TOKENS;
         w = strtok_r(NULL, " ", &save))
        words[n++] = w;
    qsort(words, (size_t)n, sizeof words[0], cmp_str);
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < n && len < cap; i++)
        len += (size_t)snprintf(out + len, cap - len, "%s%s", i ? " " : "", words[i]);
}

/* The game's legal actions as sorted text. */
static void fast_actions(const Case *t, char *out, size_t cap)
{
    MoveList *list = malloc(sizeof *list);
    assert_non_null(list);
    t->g->ops->gen_moves(t->g, t->s, list);
    char joined[TEXT_CAP];
    size_t len = 0;
    joined[0] = '\0';
    for (int i = 0; i < list->count; i++) {
        StrBuf sb;
        sb_init(&sb);
        t->g->ops->format_move(t->g, t->s, list->moves[i], &sb);
        len += (size_t)snprintf(joined + len, sizeof joined - len, "%s%s", i ? " " : "",
                                sb_str(&sb));
        sb_free(&sb);
    }
    free(list);
    sort_words(joined, out, cap);
}

/* Game and reference agree on the position text, the result and the legal actions. */
static void agree(const Case *t)
{
    char ref_pos[KGREF_POSITION_TEXT];
    kgref_format_position(&t->ref->rules, kgref_current(t->ref), ref_pos, sizeof ref_pos);
    const char *pos = position_text(t);
    if (strcmp(pos, ref_pos) != 0)
        fail_msg("position text '%s', reference '%s'", pos, ref_pos);
    ErrBuf err;
    err_clear(&err);
    if (!t->g->ops->is_ok(t->g, t->s, &err))
        fail_msg("is_ok at '%s': %s", pos, err.msg);
    const char *why;
    const KgRefResult r = kgref_result(t->ref, &why);
    const int tm = t->g->ops->to_move(t->g, t->s);
    if ((r == KGREF_ONGOING) != (tm != PLAYER_NONE))
        fail_msg("at '%s' the game is %s, the reference says %s (%s)", pos,
                 tm == PLAYER_NONE ? "over" : "on", r == KGREF_ONGOING ? "on" : "over", why);
    KgRefAction list[KGREF_MAX_ACTIONS];
    const int n = kgref_legal(t->ref, list);
    char joined[TEXT_CAP], ref_sorted[TEXT_CAP], fast_sorted[TEXT_CAP];
    size_t len = 0;
    joined[0] = '\0';
    for (int i = 0; i < n; i++) {
        char a[KGREF_ACTION_TEXT];
        kgref_format_action(t->ref, list[i], a);
        len += (size_t)snprintf(joined + len, sizeof joined - len, "%s%s", i ? " " : "", a);
    }
    sort_words(joined, ref_sorted, sizeof ref_sorted);
    fast_actions(t, fast_sorted, sizeof fast_sorted);
    if (strcmp(fast_sorted, ref_sorted) != 0)
        fail_msg("at '%s'\n  game:      %s\n  reference: %s", pos, fast_sorted, ref_sorted);
}

/* The legal actions are exactly `want` (any order). */
static void expect_actions(const Case *t, const char *want)
{
    agree(t);
    char a[TEXT_CAP], b[TEXT_CAP];
    fast_actions(t, a, sizeof a);
    sort_words(want, b, sizeof b);
    if (strcmp(a, b) != 0)
        fail_msg("at '%s'\n  legal:    %s\n  expected: %s", position_text(t), a, b);
}

/* In a turn in progress: the placements go exactly to `dests` (any order), and "end"
 * is offered or not. */
static void expect_dests(const Case *t, const char *dests, bool end)
{
    agree(t);
    char all[TEXT_CAP], want[TEXT_CAP], got[TEXT_CAP];
    fast_actions(t, all, sizeof all);
    size_t len = 0;
    got[0] = '\0';
    bool has_end = false;
    char copy[TEXT_CAP];
    snprintf(copy, sizeof copy, "%s", all);
    for (char *save = NULL, *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        const char *dash = strchr(w, '-');
        if (strcmp(w, "end") == 0)
            has_end = true;
        else if (dash == NULL)
            fail_msg("'%s' is not a placement", w);
        else
            len += (size_t)snprintf(got + len, sizeof got - len, "%s%s", len ? " " : "", dash + 1);
    }
    char sorted[TEXT_CAP];
    sort_words(got, sorted, sizeof sorted);
    sort_words(dests, want, sizeof want);
    if (strcmp(sorted, want) != 0)
        fail_msg("at '%s'\n  destinations: %s\n  expected:     %s", position_text(t), sorted,
                 want);
    if (has_end != end)
        fail_msg("at '%s' 'end' is %s offered", position_text(t), has_end ? "" : "not");
}

/* The number of legal actions. */
static void expect_count(const Case *t, int n)
{
    agree(t);
    MoveList *list = malloc(sizeof *list);
    assert_non_null(list);
    assert_int_equal(t->g->ops->gen_moves(t->g, t->s, list), n);
    free(list);
}

/* Plays a text (a whole turn, or ';'-separated actions) in both. */
static void play(Case *t, const char *text)
{
    Move acts[TURN_CAP];
    int n = 0;
    ErrBuf err;
    err_clear(&err);
    if (t->g->ops->parse_actions(t->g, t->s, text, acts, TURN_CAP, &n, &err) != STATUS_OK)
        fail_msg("'%s' refused at '%s': %s", text, position_text(t), err.msg);
    for (int i = 0; i < n; i++) {
        StrBuf sb;
        sb_init(&sb);
        t->g->ops->format_move(t->g, t->s, acts[i], &sb);
        KgRefAction a;
        if (!kgref_find_action(t->ref, sb_str(&sb), &a))
            fail_msg("the reference has no action '%s' at '%s'", sb_str(&sb), position_text(t));
        sb_free(&sb);
        t->g->ops->make(t->g, t->s, acts[i], t->undo);
        kgref_play(t->ref, a);
        agree(t);
    }
}

/* The text is refused with a message containing `why`, and nothing changes. */
static void expect_refused(const Case *t, const char *text, const char *why)
{
    GameState *before = game_state_clone(t->g, t->s);
    assert_non_null(before);
    Move acts[TURN_CAP];
    int n = -1;
    ErrBuf err;
    err_clear(&err);
    if (t->g->ops->parse_actions(t->g, t->s, text, acts, TURN_CAP, &n, &err) == STATUS_OK)
        fail_msg("'%s' accepted at '%s'", text, position_text(t));
    if (strstr(err.msg, why) == NULL)
        fail_msg("'%s' refused with '%s', expected a message with '%s'", text, err.msg, why);
    assert_int_equal(n, -1);
    assert_memory_equal(before, t->s, t->g->state_size);
    free(before);
}

/* parse_move (one action) refuses the text with a message containing `why`. */
static void expect_action_refused(const Case *t, const char *text, const char *why)
{
    Move m = MOVE_NONE;
    ErrBuf err;
    err_clear(&err);
    if (t->g->ops->parse_move(t->g, t->s, text, &m, &err) == STATUS_OK)
        fail_msg("action '%s' accepted at '%s'", text, position_text(t));
    if (strstr(err.msg, why) == NULL)
        fail_msg("action '%s' refused with '%s', expected '%s'", text, err.msg, why);
}

enum { ONGOING = -2, DRAW = -1 };

/* winner: 0 or 1, DRAW, or ONGOING; `why` must appear in describe_result. */
static void expect_result(const Case *t, int winner, const char *why)
{
    agree(t);
    const int tm = t->g->ops->to_move(t->g, t->s);
    if (winner == ONGOING) {
        if (tm == PLAYER_NONE)
            fail_msg("game over at '%s'", position_text(t));
        return;
    }
    if (tm != PLAYER_NONE)
        fail_msg("game not over at '%s'", position_text(t));
    double r[MAX_PLAYERS] = {0};
    t->g->ops->returns(t->g, t->s, r);
    const double want = winner == DRAW ? 0 : winner == 0 ? 1 : -1;
    if (r[0] != want || r[1] != -want)
        fail_msg("returns %g %g at '%s'", r[0], r[1], position_text(t));
    StrBuf sb;
    sb_init(&sb);
    t->g->ops->describe_result(t->g, t->s, &sb);
    if (strstr(sb_str(&sb), why) == NULL)
        fail_msg("result '%s', expected '%s'", sb_str(&sb), why);
    sb_free(&sb);
}

/* --- set-up ------------------------------------------------------------------------------ */

static void expect_start(const char *game, const char *const *settings, const char *text,
                         const char *picks)
{
    Game *g = make_game(game, settings);
    GameState *s = game_state_new(g);
    g->ops->new_game(g, s, 7);
    StrBuf sb;
    sb_init(&sb);
    g->ops->format_position(g, s, &sb);
    assert_string_equal(sb_str(&sb), text);
    sb_free(&sb);
    KgRefRules rules;
    char err[128], ref[KGREF_POSITION_TEXT];
    assert_true(kgref_rules_for(game, settings, count_settings(settings), &rules, err,
                                sizeof err));
    kgref_start_text(&rules, ref, sizeof ref);
    assert_string_equal(ref, text);
    free(s);
    game_destroy(g);
    Case t;
    open_text(&t, game, settings, text);
    expect_actions(&t, picks);
    expect_result(&t, ONGOING, "");
    close_case(&t);
}

static void test_setups(void **state)
{
    (void)state;
    // R-KG-1, R-KG-2: two Vs pointing at each other, kings behind them on the first rank.
    expect_start("kings-guard", NONE,
                 "g3k3g/1g5g1/2g3g2/3g1g3/4g4/4G4/3G1G3/2G3G2/1G5G1/G3K3G 1 0",
                 "a1 b2 c3 d4 e5 f4 g3 h2 i1 e1");
    expect_start("kings-guard-8x8", NONE, "g3k2g/1g4g1/2g2g2/3gg3/3GG3/2G2G2/1G4G1/G3K2G 1 0",
                 "a1 b2 c3 d4 e4 f3 g2 h1 e1");
    expect_start("kings-guard-8x8", SET("king-file=d"),
                 "g2k3g/1g4g1/2g2g2/3gg3/3GG3/2G2G2/1G4G1/G2K3G 1 0",
                 "a1 b2 c3 d4 e4 f3 g2 h1 d1");
    // The apexes touch: the first turn may already stack on an enemy guard.
    Case t;
    open_text(&t, "kings-guard", NONE,
              "g3k3g/1g5g1/2g3g2/3g1g3/4g4/4G4/3G1G3/2G3G2/1G5G1/G3K3G 1 0");
    play(&t, "e5");
    expect_dests(&t, "d5 f5 e4 e6", false);
    play(&t, "e5-e6");
    assert_string_equal(position_text(&t),
                        "g3k3g/1g5g1/2g3g2/3g1g3/4(gG)4/9/3G1G3/2G3G2/1G5G1/G3K3G 2 1");
    close_case(&t);
}

/* --- ranges and paths -------------------------------------------------------------------- */

static void test_single_piece_moves_one_step(void **state)
{
    (void)state;
    static const char *const rows[] = {
        ". . . . . . . k",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . G . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        "K . . . . . . .",
    };
    Case t;
    OPEN(&t, "kings-guard-8x8", NONE, rows, 1);
    expect_actions(&t, "a1 d4");
    play(&t, "d4");
    expect_dests(&t, "c4 e4 d3 d5", false);
    expect_refused(&t, "d4-d6", "d6 is 2 orthogonal steps from d4");
    expect_refused(&t, "d4-e5", "e5 is 2 orthogonal steps from d4");
    play(&t, "d4-d5");
    // A lone piece empties its square: the turn is over without "end".
    assert_int_equal(t.g->ops->to_move(t.g, t.s), 1);
    close_case(&t);

    // steps=all: the 8 neighbours.
    OPEN(&t, "kings-guard-8x8", SET("steps=all"), rows, 1);
    play(&t, "d4");
    expect_dests(&t, "c3 c4 c5 d3 d5 e3 e4 e5", false);
    close_case(&t);
}

static void test_range_is_height_in_stack(void **state)
{
    (void)state;
    // A stack of three on d4: the top piece goes up to 3 steps, the next 2, the bottom 1.
    // The middle piece is the opponent's: it moves with the stack all the same.
    static const char *const rows[] = {
        ". . . . . . . k",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . GgG . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        "K . . . . . . .",
    };
    Case t;
    OPEN(&t, "kings-guard-8x8", NONE, rows, 1);
    play(&t, "d4");
    expect_dests(&t,
                 "d5 d6 d7 d3 d2 d1 c4 b4 a4 e4 f4 g4 "
                 "c5 c6 c3 c2 e5 e6 e3 e2 b5 b3 f5 f3",
                 false);
    play(&t, "d4-d7");
    expect_dests(&t, "d5 d6 d3 d2 c4 b4 e4 f4 c5 c3 e5 e3", true);
    play(&t, "d4-b4");
    expect_dests(&t, "d5 d3 c4 e4", true);
    play(&t, "d4-e4");
    assert_string_equal(position_text(&t), "7k/3G4/8/8/1g2G3/8/8/K7 2 1");
    close_case(&t);

    // The same turn written at once.
    OPEN(&t, "kings-guard-8x8", NONE, rows, 1);
    play(&t, "d4-d7,b4,e4");
    assert_string_equal(position_text(&t), "7k/3G4/8/8/1g2G3/8/8/K7 2 1");
    close_case(&t);

    // The same turn in parts: single actions, then the rest as a continuation.
    OPEN(&t, "kings-guard-8x8", NONE, rows, 1);
    play(&t, "d4; d4-d7");
    expect_refused(&t, "e4-b4,e4", "this turn moves the pieces of d4; continue it with d4-");
    play(&t, "d4-b4,e4");
    assert_string_equal(position_text(&t), "7k/3G4/8/8/1g2G3/8/8/K7 2 1");
    close_case(&t);

    // Stopping early: "end" leaves the rest of the stack where it is.
    OPEN(&t, "kings-guard-8x8", NONE, rows, 1);
    play(&t, "d4-d7");
    assert_string_equal(position_text(&t), "7k/3G4/8/8/3(Gg)4/8/8/K7 2 1");
    close_case(&t);
}

static void test_paths_need_empty_squares(void **state)
{
    (void)state;
    // A stack of two (range 2) on d4 walled in on three sides: the walls can be landed
    // on but not crossed; the way out is through d3.
    static const char *const rows[] = {
        ". . . . . . . k",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . g . . . .",
        ". . g GG g . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        "K . . . . . . .",
    };
    Case t;
    OPEN(&t, "kings-guard-8x8", NONE, rows, 1);
    play(&t, "d4");
    expect_dests(&t, "c4 e4 d5 d3 c3 e3 d2", false);
    expect_refused(&t, "d4-d6", "orthogonal steps from d4 over empty squares, but the piece on "
                                "top there goes at most 2");
    expect_refused(&t, "d4-b4", "b4 is 4 orthogonal steps from d4");
    close_case(&t);

    // steps=all opens the diagonals.
    OPEN(&t, "kings-guard-8x8", SET("steps=all"), rows, 1);
    play(&t, "d4");
    expect_dests(&t,
                 "c3 d3 e3 c4 e4 c5 d5 e5 "
                 "b2 c2 d2 e2 f2 b3 f3 b4 f4 b5 f5 b6 c6 d6 e6 f6",
                 false);
    close_case(&t);
}

static void test_moved_pieces_block_later_ones(void **state)
{
    (void)state;
    // The first piece of the turn lands on d3, the only way out: the pieces after it may
    // land on it but not pass it.
    static const char *const rows[] = {
        ". . . . . . . k",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . g . . . .",
        ". . g GGG g . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        "K . . . . . . .",
    };
    Case t;
    OPEN(&t, "kings-guard-8x8", NONE, rows, 1);
    play(&t, "d4");
    expect_dests(&t, "c4 e4 d5 d3 c3 e3 d2 b3 f3 c2 e2 d1", false);
    play(&t, "d4-d3");
    expect_dests(&t, "c4 e4 d5 d3", true);
    expect_refused(&t, "d4-c3", "no path of empty squares leads from d4 to c3");
    play(&t, "d4-d3");
    expect_dests(&t, "c4 e4 d5 d3", true);
    play(&t, "d4-d3");
    assert_string_equal(position_text(&t), "7k/8/8/3g4/2g1g3/3(GGG)4/8/K7 2 1");
    close_case(&t);
}

static void test_start_square_is_never_crossed_or_reached(void **state)
{
    (void)state;
    // A tall stack in the corner: a walk a1-a2-b2-b1-a1 or a1-b1-a2... would loop back;
    // the start square holds pieces until the last one leaves, so it is never a step.
    static const char *const rows[] = {
        "k . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        "GGGK . . . . . . .",
    };
    Case t;
    OPEN(&t, "kings-guard-8x8", SET("steps=all"), rows, 1);
    play(&t, "a1");
    expect_dests(&t, "a2 a3 a4 a5 b1 b2 b3 b4 b5 c1 c2 c3 c4 c5 d1 d2 d3 d4 d5 e1 e2 e3 e4 e5",
                 false);
    expect_refused(&t, "a1-a1", "may not end on the square it started from");
    // The king goes first (it is on top); the guards may not join it.
    play(&t, "a1-b2");
    expect_dests(&t, "a2 a3 a4 b1 b3 b4 c1 c2 c3 c4 d1 d2 d3", true);
    expect_refused(&t, "a1-b2", "your own king");
    close_case(&t);
}

/* --- stacking, the height limit and the kings --------------------------------------------- */

static void test_stacking_and_height_limit(void **state)
{
    (void)state;
    // 9x10, towers of 5: e5 is full (whoever's), d4 has 4 (the 5th is fine), f4 is the
    // mover's own stack.
    static const char *const rows[] = {
        "k . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . GgGgg . . . .",
        ". . . gggg G GG . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . K",
    };
    Case t;
    OPEN(&t, "kings-guard", NONE, rows, 1);
    // The full tower e5 is the opponent's: no obligation for the first player.
    expect_actions(&t, "e4 f4 i1");
    play(&t, "e4");
    expect_dests(&t, "d4 f4 e3", false);
    expect_refused(&t, "e4-e5", "already has 5 pieces");
    play(&t, "e4-d4");
    assert_string_equal(position_text(&t), "k8/9/9/9/9/4(GgGgg)4/3(ggggG)1(GG)3/9/9/8K 2 1");
    close_case(&t);

    // 8x8, towers of 4.
    static const char *const small[] = {
        "k . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . ggg . . .",
        ". . . ggg G gggg . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . K",
    };
    OPEN(&t, "kings-guard-8x8", NONE, small, 1);
    play(&t, "e4");
    expect_dests(&t, "d4 e5 e3", false);
    expect_refused(&t, "e4-f4", "already has 4 pieces");
    play(&t, "e4-e5");
    // The new tower of 4 is the first player's: he must dismantle it next turn.
    expect_actions(&t, "f4");
    play(&t, "f4-f5");
    expect_actions(&t, "e5");
    close_case(&t);
}

static void test_no_piece_on_own_king(void **state)
{
    (void)state;
    static const char *const rows[] = {
        ". . . . . . . k",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . K . . . .",
        ". . . GG . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
    };
    Case t;
    OPEN(&t, "kings-guard-8x8", NONE, rows, 1);
    play(&t, "d4");
    expect_refused(&t, "d4-d5", "your own king");
    expect_dests(&t, "c4 e4 d3 b4 c5 c3 f4 e5 e3 d2", false);
    close_case(&t);

    // A king moves onto any stack and stays on top; nothing goes on it afterwards.
    OPEN(&t, "kings-guard-8x8", NONE, rows, 1);
    play(&t, "d5-d4");
    assert_string_equal(position_text(&t), "7k/8/8/8/3(GGK)4/8/8/8 2 1");
    close_case(&t);
}

static void test_capture_wins(void **state)
{
    (void)state;
    static const char *const rows[] = {
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . k . . . .",
        ". . . gG . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        "K . . . . . . .",
    };
    Case t;
    // A guard on the king.
    OPEN(&t, "kings-guard-8x8", NONE, rows, 1);
    play(&t, "d4-d5");
    expect_result(&t, 0, "a king was captured");
    assert_string_equal(position_text(&t), "8/8/8/3(kG)4/3g4/8/8/K7 2 1");
    close_case(&t);

    // The opponent's own guard, carried from under the top piece, captures his king.
    OPEN(&t, "kings-guard-8x8", NONE, rows, 1);
    play(&t, "d4");
    play(&t, "d4-c4");
    expect_dests(&t, "c4 e4 d3 d5", true);
    play(&t, "d4-d5");
    expect_result(&t, 0, "a king was captured");
    assert_string_equal(position_text(&t), "8/8/8/3(kg)4/2G5/8/8/K7 2 1");
    close_case(&t);

    // A capture ends the turn at once, pieces still on the start square or not.
    static const char *const tall[] = {
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . k . . . .",
        ". . . GGG . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        "K . . . . . . .",
    };
    OPEN(&t, "kings-guard-8x8", NONE, tall, 1);
    expect_refused(&t, "d4-d5,d3", "over");
    play(&t, "d4-d5");
    expect_result(&t, 0, "captured");
    expect_refused(&t, "a1", "the game is over");
    close_case(&t);

}

static void test_king_captures_and_full_tower_shield(void **state)
{
    (void)state;
    static const char *const kings[] = {
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . g . . . .",
        ". . . K k . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
    };
    Case t;
    OPEN(&t, "kings-guard-8x8", NONE, kings, 1);
    play(&t, "d4-e4");
    expect_result(&t, 0, "captured");
    close_case(&t);
    OPEN(&t, "kings-guard-8x8", NONE, kings, 2);
    play(&t, "d5-d4");
    expect_result(&t, 1, "captured");
    close_case(&t);

    // R-KG-14: a king on top of a full tower cannot be captured.
    static const char *const shield[] = {
        "K . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . GGGGk . . . .",
        ". . . . GGG . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . g",
    };
    OPEN(&t, "kings-guard", NONE, shield, 1);
    play(&t, "e5");
    expect_refused(&t, "e5-e6", "already has 5 pieces, the most allowed (even a king on top of it is safe)");
    close_case(&t);
}

static void test_control_by_top_piece(void **state)
{
    (void)state;
    static const char *const rows[] = {
        ". . . . . . . k",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . Gg gG . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        "K . . . . . . .",
    };
    Case t;
    OPEN(&t, "kings-guard-8x8", NONE, rows, 1);
    expect_actions(&t, "a1 e4");
    expect_refused(&t, "d4-d5", "your opponent's");
    expect_refused(&t, "c4", "is empty");
    expect_refused(&t, "z4", "not a square of the 8x8 board");
    close_case(&t);
    OPEN(&t, "kings-guard-8x8", NONE, rows, 2);
    expect_actions(&t, "d4 h8");
    close_case(&t);
}

/* --- must-dismantle -------------------------------------------------------------------- */

static void test_must_dismantle(void **state)
{
    (void)state;
    // A full tower topped by the mover must be the start square, even with the
    // opponent's king en prise elsewhere (R-KG-18).
    static const char *const rows[] = {
        ". . . . k . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . g . . . .",
        ". . . . G . . . .",
        ". . . . . . . . .",
        ". . ggggG . . . . . .",
        ". . . . . . . . .",
        "K . . . . . . . .",
    };
    Case t;
    OPEN(&t, "kings-guard", NONE, rows, 1);
    expect_actions(&t, "c3");
    expect_refused(&t, "e5-e6", "must be dismantled this turn: pick up from c3");
    play(&t, "c3-c4");
    close_case(&t);

    // Two full towers: either one.
    static const char *const two[] = {
        ". . . . . . . k",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . gggG . . .",
        ". . . . . . . .",
        ". . GGGG . . . . .",
        "K . . . . . . .",
    };
    OPEN(&t, "kings-guard-8x8", NONE, two, 1);
    expect_actions(&t, "c2 e4");
    close_case(&t);

    // A full tower that cannot move at all (its neighbours are a full tower and the
    // mover's own king) lifts the obligation: any turn is allowed.
    static const char *const stuck[] = {
        ". . . . . . . . k",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        "K . . . . G . . .",
        "gggGG ggggg . . . . . . .",
    };
    OPEN(&t, "kings-guard", NONE, stuck, 1);
    expect_actions(&t, "a2 f2");
    close_case(&t);

    // A king on top of a full tower has to step down.
    static const char *const king_top[] = {
        ". . . . . . . k",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . gggK . . . .",
        ". . . . . . . .",
        ". . G . . . . .",
        ". . . . . . . .",
    };
    OPEN(&t, "kings-guard-8x8", NONE, king_top, 1);
    expect_actions(&t, "d4");
    play(&t, "d4");
    // The king (range 4) goes first: every square within 4 steps, c1 and b2 by way
    // around the guard on c2.
    expect_count(&t, 38);
    expect_refused(&t, "d4-b1", "b1 is 5 orthogonal steps from d4");
    close_case(&t);

    // The opponent's full tower obliges nobody but him.
    static const char *const theirs[] = {
        ". . . . . . . k",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . GGGg . . . .",
        ". . . . . . . .",
        ". . G . . . . .",
        "K . . . . . . .",
    };
    OPEN(&t, "kings-guard-8x8", NONE, theirs, 1);
    expect_actions(&t, "a1 c2");
    close_case(&t);
    OPEN(&t, "kings-guard-8x8", NONE, theirs, 2);
    expect_actions(&t, "d4");
    close_case(&t);
}

/* --- the end of the game ---------------------------------------------------------------- */

static void test_no_legal_turn_loses(void **state)
{
    (void)state;
    // The first player's king is hemmed in by full towers; his guards are all buried.
    static const char *const rows[] = {
        ". . . . . . . k",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        "GGGg . . . . . . .",
        "K GGg gggg . . . . .",
    };
    Case t;
    OPEN(&t, "kings-guard-8x8", NONE, rows, 2);
    // Both full towers are the second player's: he must start from one of them.
    expect_actions(&t, "a2 c1");
    // Filling b1 to the limit takes the king's last square.
    play(&t, "c1-b1");
    expect_result(&t, 1, "no legal turn (and loses)");
    close_case(&t);

    OPEN(&t, "kings-guard-8x8", SET("no-move=draw"), rows, 2);
    play(&t, "c1-b1");
    expect_result(&t, DRAW, "no legal turn (a draw");
    close_case(&t);
}

static void test_end_of_turn(void **state)
{
    (void)state;
    static const char *const rows[] = {
        ". . . . . . . k",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . GG . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        "K . . . . . . .",
    };
    Case t;
    OPEN(&t, "kings-guard-8x8", NONE, rows, 1);
    expect_refused(&t, "end", "no turn in progress to end");
    play(&t, "d4");
    expect_refused(&t, "end", "at least one piece");
    expect_refused(&t, "a1", "this turn carries the pieces of d4: say where");
    expect_action_refused(&t, "e4-e5", "this turn moves the pieces of d4");
    play(&t, "d4-d6");
    expect_dests(&t, "c4 e4 d3 d5", true);
    play(&t, "end");
    assert_string_equal(position_text(&t), "7k/8/3G4/8/3G4/8/8/K7 2 1");
    expect_refused(&t, "h8-h7; a1", "comes after your turn has ended");
    close_case(&t);

    // One action per ';' part; a turn in progress goes on with START-DEST,DEST.
    OPEN(&t, "kings-guard-8x8", NONE, rows, 1);
    play(&t, "d4; d4-d6");
    assert_string_equal(position_text(&t), "7k/8/3G4/8/3G4/8/8/K7 1 0 d4:1");
    play(&t, "d4-d3");
    assert_int_equal(t.g->ops->to_move(t.g, t.s), 1);
    close_case(&t);
}

static void test_repetition_and_turn_limit(void **state)
{
    (void)state;
    static const char *const rows[] = {
        ". . . . . . . k",
        ". . . . . . . .",
        ". . . . . . . g",
        ". . . . . . . .",
        ". . . . . . . .",
        "G . . . . . . .",
        ". . . . . . . .",
        "K . . . . . . .",
    };
    Case t;
    OPEN(&t, "kings-guard-8x8", NONE, rows, 1);
    for (int i = 0; i < 2; i++) {
        play(&t, "a3-a4");
        play(&t, "h6-h5");
        play(&t, "a4-a3");
        expect_result(&t, ONGOING, "");
        play(&t, "h5-h6");
    }
    expect_result(&t, DRAW, "third time");
    close_case(&t);

    OPEN(&t, "kings-guard-8x8", SET("repetition=off"), rows, 1);
    for (int i = 0; i < 3; i++) {
        play(&t, "a3-a4");
        play(&t, "h6-h5");
        play(&t, "a4-a3");
        play(&t, "h5-h6");
    }
    expect_result(&t, ONGOING, "");
    close_case(&t);

    OPEN(&t, "kings-guard-8x8", SET("max-plies=3"), rows, 1);
    play(&t, "a3-a4");
    play(&t, "h6-h5");
    expect_result(&t, ONGOING, "");
    play(&t, "a4-a5");
    expect_result(&t, DRAW, "max-plies");
    close_case(&t);
}

/* --- text -------------------------------------------------------------------------------- */

static void expect_bad_position(const char *game, const char *text, const char *why)
{
    Game *g = make_game(game, NONE);
    GameState *s = game_state_new(g);
    g->ops->new_game(g, s, 1);
    GameState *before = game_state_clone(g, s);
    ErrBuf err;
    err_clear(&err);
    if (g->ops->parse_position(g, s, text, &err) == STATUS_OK)
        fail_msg("'%s' accepted", text);
    if (strstr(err.msg, why) == NULL)
        fail_msg("'%s' refused with '%s', expected '%s'", text, err.msg, why);
    assert_memory_equal(before, s, g->state_size);
    free(before);
    free(s);
    game_destroy(g);
}

static void test_position_text(void **state)
{
    (void)state;
    // Stacks bottom to top, a buried king (the game is over), a turn in progress.
    static const char *const rows[] = {
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". GgGg . . kG . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        "K . . . . . . .",
    };
    Case t;
    OPEN(&t, "kings-guard-8x8", NONE, rows, 2);
    assert_string_equal(position_text(&t), "8/8/8/8/1(GgGg)2(kG)3/8/8/K7 2 0");
    expect_result(&t, 0, "captured");
    close_case(&t);
    open_text(&t, "kings-guard-8x8", NONE, "7k/8/3G4/8/3(Gg)4/8/8/K7 1 12 d4:1");
    expect_dests(&t, "d5 d6 d3 d2 c4 b4 e4 f4 c5 c3 e5 e3", true);
    close_case(&t);

    const char *g = "kings-guard-8x8";
    expect_bad_position(g, "7k/8/8/8/3(GGGGG)4/8/8/K7 1 0", "has 5 pieces; towers hold at most 4");
    expect_bad_position("kings-guard", "8k/9/9/9/9/9/9/9/9/K7 1 0", "rank 1 describes 8 squares");
    expect_bad_position(g, "7k/8/8/8/8/8/8/8 1 0", "first player needs exactly one king, not 0");
    expect_bad_position(g, "7k/8/8/8/K7/8/8/K7 1 0", "exactly one king, not 2");
    expect_bad_position(g, "7k/8/8/8/3X4/8/8/K7 1 0", "'X' is not a piece");
    expect_bad_position(g, "7k/8/8/8/3(GG4/8/8/K7 1 0", "not closed");
    expect_bad_position(g, "7k/8/8/8/8/8/8/K7 3 0", "the player to move is 1 or 2");
    expect_bad_position(g, "7k/8/8/8/8/8/8/K7 1 x", "whole number");
    expect_bad_position(g, "7k/8/8/8/8/8/8/K7 1 301", "past the limit of 300");
    expect_bad_position(g, "7k/8/8/8/8/8/8/K7 1 0 d4:0", "starts from an empty square");
    expect_bad_position(g, "7k/8/8/8/3g4/8/8/K7 1 0 d4:0", "must be the first player's");
    expect_bad_position(g, "7k/8/8/8/3G4/8/8/K7 1 0 d4:7", "no tower was ever that tall");
    expect_bad_position(g, "7k/8/8/8/3G4/8/8/K7 1 0 d4", "START:PLACED");
    expect_bad_position(g, "7k/8/8/8/8/8/8/K7", "the player to move");
    expect_bad_position(g, "(kG)7/8/8/8/8/8/8/(Kg)7 1 0", "both kings");
}

static void test_action_text(void **state)
{
    (void)state;
    static const char *const rows[] = {
        ". . . . . . . k",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . GG . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        "K . . . . . . .",
    };
    Case t;
    OPEN(&t, "kings-guard-8x8", NONE, rows, 1);
    expect_action_refused(&t, "d4-d5", "no turn is in progress: pick up a stack first");
    expect_action_refused(&t, "d9", "not a square of the 8x8 board");
    expect_action_refused(&t, "d4x", "'d4x' is not a move: name the stack you take, then");
    expect_action_refused(&t, "", "is not a move");
    expect_refused(&t, "", "no action given");
    expect_refused(&t, "d4-", "is not a square");
    expect_refused(&t, "d4-d5,", "is not a square");
    expect_refused(&t, "d4-d5,d9", "not a square of the 8x8 board");
    Move m;
    ErrBuf err;
    assert_int_equal(t.g->ops->parse_move(t.g, t.s, " D4 ", &m, &err), STATUS_OK);
    StrBuf sb;
    sb_init(&sb);
    t.g->ops->format_move(t.g, t.s, m, &sb);
    assert_string_equal(sb_str(&sb), "d4");
    sb_free(&sb);
    // A whole turn that the start square runs out of: no "end" is added.
    Move acts[TURN_CAP];
    int n = 0;
    assert_int_equal(t.g->ops->parse_actions(t.g, t.s, "d4-d6,d3", acts, TURN_CAP, &n, &err),
                     STATUS_OK);
    assert_int_equal(n, 3);
    assert_int_equal(t.g->ops->parse_actions(t.g, t.s, "d4-d6", acts, TURN_CAP, &n, &err),
                     STATUS_OK);
    assert_int_equal(n, 3); // pick up, place, end
    assert_int_not_equal(t.g->ops->parse_actions(t.g, t.s, "d4-d6", acts, 2, &n, &err),
                         STATUS_OK);
    close_case(&t);
}

static void test_render(void **state)
{
    (void)state;
    Case t;
    open_text(&t, "kings-guard-8x8", NONE, "7k/8/8/8/3(GgGg)4/8/8/K7 1 0");
    StrBuf sb;
    sb_init(&sb);
    t.g->ops->render(t.g, t.s, 0, &sb);
    assert_non_null(strstr(sb_str(&sb), "GgGg!"));
    assert_non_null(strstr(sb_str(&sb), "bottom to top"));
    sb_free(&sb);
    close_case(&t);
    open_text(&t, "kings-guard-8x8", NONE, "7k/8/8/8/3(GgG)4/8/8/K7 1 0 d4:0");
    sb_init(&sb);
    t.g->ops->render(t.g, t.s, RENDER_COLOR | RENDER_UNICODE, &sb);
    assert_non_null(strstr(sb_str(&sb), "*"));
    assert_non_null(strstr(sb_str(&sb), "moving pieces from d4, 0 placed; the next piece goes "
                                        "up to 3 steps"));
    sb_free(&sb);
    close_case(&t);
}

/* The search hints (kg_search.c): stacks taken over and the king captured are noisy, a
 * king an enemy stack reaches is in check, and the pass is offered only between turns
 * outside check and the duty to dismantle, and unmade byte for byte. */
static int hint_noisy(Case *t, const char *action)
{
    Move m;
    ErrBuf err;
    err_clear(&err);
    if (t->g->ops->parse_move(t->g, t->s, action, &m, &err) != STATUS_OK)
        fail_msg("'%s': %s", action, err.msg);
    return t->g->ops->noisy(t->g, t->s, m);
}

static void test_search_hints(void **state)
{
    (void)state;
    Case t;
    const GameOps *ops;
    // The second player's stack of two on a3 reaches the king on a1 through a2.
    open_text(&t, "kings-guard-8x8", NONE, "7k/8/8/8/8/(gg)7/8/K7 1 5");
    ops = t.g->ops;
    assert_true(ops->in_check(t.g, t.s));
    assert_false(ops->make_null(t.g, t.s, t.undo));
    close_case(&t);
    open_text(&t, "kings-guard-8x8", NONE, "7k/8/8/8/8/g7/8/K7 1 5");
    assert_false(ops->in_check(t.g, t.s));
    GameState *before = game_state_clone(t.g, t.s);
    assert_non_null(before);
    assert_true(ops->make_null(t.g, t.s, t.undo));
    assert_int_equal(ops->to_move(t.g, t.s), 1);
    ops->unmake_null(t.g, t.s, t.undo);
    assert_memory_equal(before, t.s, t.g->state_size);
    free(before);
    close_case(&t);

    // c1 takes over the stack of two on c2, or the king on b1; d1 is quiet. Its pick-up
    // is noisy already, valued as the best it can take (the king).
    open_text(&t, "kings-guard-8x8", NONE, "8/8/8/8/8/8/2(gg)5/KkG5 1 5");
    const int pick = hint_noisy(&t, "c1");
    play(&t, "c1");
    assert_int_equal(pick, hint_noisy(&t, "c1-b1"));
    assert_false(ops->make_null(t.g, t.s, t.undo)); // a turn in progress
    assert_int_equal(hint_noisy(&t, "c1-d1"), 0);
    const int take = hint_noisy(&t, "c1-c2");
    assert_true(take > 0 && take < hint_noisy(&t, "c1-b1"));
    close_case(&t);

    // A pick-up whose top piece can take nothing is quiet: the lone guard on h1 reaches
    // only empty squares.
    open_text(&t, "kings-guard-8x8", NONE, "7k/8/8/8/8/(gg)7/8/K6G 1 5");
    assert_int_equal(hint_noisy(&t, "h1"), 0);
    close_case(&t);

    // A full tower to dismantle: no pass.
    open_text(&t, "kings-guard-8x8", NONE, "7k/8/8/8/8/8/8/K1(gggG)5 1 5");
    assert_false(ops->make_null(t.g, t.s, t.undo));
    close_case(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_setups),
        cmocka_unit_test(test_single_piece_moves_one_step),
        cmocka_unit_test(test_range_is_height_in_stack),
        cmocka_unit_test(test_paths_need_empty_squares),
        cmocka_unit_test(test_moved_pieces_block_later_ones),
        cmocka_unit_test(test_start_square_is_never_crossed_or_reached),
        cmocka_unit_test(test_stacking_and_height_limit),
        cmocka_unit_test(test_no_piece_on_own_king),
        cmocka_unit_test(test_capture_wins),
        cmocka_unit_test(test_king_captures_and_full_tower_shield),
        cmocka_unit_test(test_control_by_top_piece),
        cmocka_unit_test(test_must_dismantle),
        cmocka_unit_test(test_no_legal_turn_loses),
        cmocka_unit_test(test_end_of_turn),
        cmocka_unit_test(test_repetition_and_turn_limit),
        cmocka_unit_test(test_position_text),
        cmocka_unit_test(test_action_text),
        cmocka_unit_test(test_render),
        cmocka_unit_test(test_search_hints),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
