/*
 * test_king_down_rules.c - King Down Classic rules as board diagrams with hand-worked
 * expectations.
 *
 * Each test draws a position (eight rows of squares, White's pieces upper case), names
 * the rule settings, and states what the rules (docs/games/king-down.md and its
 * Rulings) say must happen: which actions are legal, which are not, and what
 * the position or the result is afterwards. Every legality expectation is checked on the
 * registered game through the game interface and on the plain reference generator
 * (tests/support/kd_reference.h), so these tests also vouch for the oracle that the
 * perft and random-position tests trust.
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
#include "core/observation.h"
#include "play/registry.h"
#include "support/diagram.h"
#include "support/kd_reference.h"

enum { TEXT_CAP = 700, MAX_SETTINGS = 8 };

#define SETTINGS(...) ((const char *const[]){__VA_ARGS__}), \
    (int)(sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *))
#define NO_SETTINGS NULL, 0

/* Eight rows "r n b q k b n r" from rank 8 down, then the rest of the position text
 * (" w - - 0 1 ..."), into a position text. */
static void diagram(const char *const rows[8], const char *tail, char *out, size_t cap)
{
    for (int r = 0; r < 8; r++)
        if (strlen(rows[r]) != 15)
            fail_msg("diagram row %d '%s' is not 8 squares separated by spaces", r, rows[r]);
    const size_t n = diagram_ranks(rows, 8, 8, 2, out, cap);
    snprintf(out + n, cap - n, "%s", tail);
}

/* A position in the registered game and in the reference, kept in step. */
typedef struct Fx {
    Game *g;
    GameState *s;
    void *undo;
    KdRefGame *ref;
    char text[TEXT_CAP];
} Fx;

static void fx_open(Fx *fx, const char *const *settings, int n, const char *text)
{
    memset(fx, 0, sizeof *fx);
    snprintf(fx->text, sizeof fx->text, "%s", text);
    const GameOps *ops = registry_find("king-down");
    if (ops == NULL)
        fail_msg("king-down is not registered");
    ErrBuf err;
    err_clear(&err);
    if (rule_text_create(ops, 0, settings, n, &fx->g, &err) != STATUS_OK)
        fail_msg("game_create: %s", err.msg);
    fx->s = game_state_new(fx->g);
    fx->undo = game_undo_new(fx->g);
    if (ops->parse_position(fx->g, fx->s, text, &err) != STATUS_OK)
        fail_msg("position '%s' rejected: %s", text, err.msg);
    KdRefRules rules;
    char rerr[128];
    if (!kdref_rules(settings, n, &rules, rerr, sizeof rerr))
        fail_msg("reference rules: %s", rerr);
    fx->ref = kdref_new(&rules, text, rerr, sizeof rerr);
    if (fx->ref == NULL)
        fail_msg("reference rejects '%s': %s", text, rerr);
}

static void fx_diagram(Fx *fx, const char *const *settings, int n, const char *const rows[8],
                       const char *tail)
{
    char text[TEXT_CAP];
    diagram(rows, tail, text, sizeof text);
    fx_open(fx, settings, n, text);
}

static void fx_close(Fx *fx)
{
    kdref_free(fx->ref);
    free(fx->undo);
    free(fx->s);
    game_destroy(fx->g);
}

static char *fx_position(const Fx *fx)
{
    StrBuf sb;
    sb_init(&sb);
    fx->g->ops->format_position(fx->g, fx->s, &sb);
    char *t = strdup(sb_str(&sb));
    sb_free(&sb);
    return t;
}

/* The legal action `text` exists in both, and formats back to itself. */
static void legal(Fx *fx, const char *text)
{
    Move m;
    ErrBuf err;
    err_clear(&err);
    if (fx->g->ops->parse_move(fx->g, fx->s, text, &m, &err) != STATUS_OK)
        fail_msg("'%s' should be legal at '%s': %s", text, fx->text, err.msg);
    KdRefMove rm;
    if (!kdref_find(fx->ref, text, &rm))
        fail_msg("'%s' should be legal at '%s' (reference disagrees)", text, fx->text);
}

static void illegal(Fx *fx, const char *text)
{
    Move m;
    ErrBuf err;
    err_clear(&err);
    if (fx->g->ops->parse_move(fx->g, fx->s, text, &m, &err) == STATUS_OK)
        fail_msg("'%s' should be illegal at '%s'", text, fx->text);
    if (err.msg[0] == '\0')
        fail_msg("'%s' refused without a message", text);
    KdRefMove rm;
    if (kdref_find(fx->ref, text, &rm))
        fail_msg("'%s' should be illegal at '%s' (reference disagrees)", text, fx->text);
}

/* Plays an action in both (text in long algebraic). */
static void play(Fx *fx, const char *text)
{
    legal(fx, text);
    Move m;
    ErrBuf err;
    fx->g->ops->parse_move(fx->g, fx->s, text, &m, &err);
    fx->g->ops->make(fx->g, fx->s, m, fx->undo);
    KdRefMove rm;
    kdref_find(fx->ref, text, &rm);
    kdref_play(fx->ref, rm);
    char *now = fx_position(fx);
    snprintf(fx->text, sizeof fx->text, "%s", now);
    char ref[KDREF_TEXT];
    kdref_format(&fx->ref->rules, &fx->ref->pos, ref, sizeof ref);
    if (strcmp(now, ref) != 0)
        fail_msg("after %s: game '%s', reference '%s'", text, now, ref);
    free(now);
}

/* Another spelling of an action (only the game reads those). */
static void same_action(Fx *fx, const char *text, const char *canonical)
{
    Move a, b;
    ErrBuf err;
    err_clear(&err);
    if (fx->g->ops->parse_move(fx->g, fx->s, text, &a, &err) != STATUS_OK)
        fail_msg("'%s' should read at '%s': %s", text, fx->text, err.msg);
    if (fx->g->ops->parse_move(fx->g, fx->s, canonical, &b, &err) != STATUS_OK || a != b)
        fail_msg("'%s' should read as '%s'", text, canonical);
}

static int count_moves(Fx *fx)
{
    MoveList *ml = malloc(sizeof *ml);
    const int n = fx->g->ops->gen_moves(fx->g, fx->s, ml);
    free(ml);
    KdRefMove *rm = calloc(KDREF_MAX_MOVES, sizeof *rm);
    const int nr = kdref_moves(fx->ref, rm);
    free(rm);
    if (n != nr)
        fail_msg("at '%s' the game has %d actions, the reference %d", fx->text, n, nr);
    return n;
}

/* Result: 1 white won, -1 black won, 0 drawn, 2 going on. Checked against the reference
 * and the reason text. */
static void expect_result(Fx *fx, int want, const char *reason_part)
{
    const int tm = fx->g->ops->to_move(fx->g, fx->s);
    double ret[MAX_PLAYERS] = {0};
    int got = 2;
    if (tm == PLAYER_NONE) {
        fx->g->ops->returns(fx->g, fx->s, ret);
        got = ret[0] > 0 ? 1 : ret[0] < 0 ? -1 : 0;
    }
    if (got != want)
        fail_msg("at '%s' result %d, expected %d", fx->text, got, want);
    const char *why;
    const KdRefResult r = kdref_result(fx->ref, &why);
    const int ref = r == KDREF_ONGOING ? 2 : r == KDREF_WHITE_WINS ? 1 : r == KDREF_BLACK_WINS ? -1 : 0;
    if (ref != want)
        fail_msg("at '%s' the reference says %d (%s), expected %d", fx->text, ref, why, want);
    if (reason_part != NULL) {
        StrBuf sb;
        sb_init(&sb);
        fx->g->ops->describe_result(fx->g, fx->s, &sb);
        if (strstr(sb_str(&sb), reason_part) == NULL)
            fail_msg("result '%s' does not mention '%s'", sb_str(&sb), reason_part);
        sb_free(&sb);
    }
}

/* --- set-up ----------------------------------------------------------------------------- */

static char *start_text(const char *const *settings, int n, uint64_t seed, char *render,
                        size_t cap)
{
    Game *g = NULL;
    ErrBuf err;
    assert_int_equal(rule_text_create(registry_find("king-down"), 0, settings, n, &g, &err), STATUS_OK);
    GameState *s = game_state_new(g);
    g->ops->new_game(g, s, seed);
    StrBuf sb;
    sb_init(&sb);
    g->ops->format_position(g, s, &sb);
    char *t = strdup(sb_str(&sb));
    if (render) {
        sb_clear(&sb);
        g->ops->render(g, s, 0, &sb);
        snprintf(render, cap, "%s", sb_str(&sb));
    }
    sb_free(&sb);
    free(s);
    game_destroy(g);
    return t;
}

static void test_setup_classic(void **state)
{
    (void)state;
    char *t = start_text(SETTINGS("setup=classic"), 7, NULL, 0);
    assert_string_equal(t, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1");
    free(t);
    t = start_text(SETTINGS("setup=classic", "castling=on"), 7, NULL, 0);
    assert_string_equal(t, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    free(t);
    t = start_text(SETTINGS("setup=MNBQKBNM"), 1, NULL, 0);
    assert_string_equal(t, "mnbqkbnm/pppppppp/8/8/8/8/PPPPPPPP/MNBQKBNM w - - 0 1");
    free(t);
    // Bad set-ups are refused when the game is created.
    const char *bad[] = {"setup=QQBNKBNR", "setup=RNBQKBN", "setup=RNBQQBNK", "setup=99999999999",
                         "setup=RNBXKBNR", "setup=RNBQRBNR"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Game *g = NULL;
        ErrBuf err;
        err_clear(&err);
        const char *rules[1] = {bad[i]};
        assert_int_not_equal(rule_text_create(registry_find("king-down"), 0, rules, 1, &g, &err),
                             STATUS_OK);
        assert_true(err.msg[0] != '\0');
    }
}

/* A drawn back rank: seven pieces of the pool plus the king, the same for both sides,
 * pawns on the second ranks; its printed id recreates it. */
static void test_setup_drawn(void **state)
{
    (void)state;
    static const char POOL_COUNT[] = "Q1L1R2B2N2A2G2M2E2K1";
    int kings_on_e = 0;
    for (uint64_t seed = 1; seed <= 300; seed++) {
        const bool e_file = seed % 2 == 0;
        char render[2048];
        char *t = e_file ? start_text(SETTINGS("king-file=e"), seed, render, sizeof render)
                         : start_text(NO_SETTINGS, seed, render, sizeof render);
        char black[9], white[9];
        assert_int_equal(sscanf(t, "%8[a-z]/pppppppp/8/8/8/8/PPPPPPPP/%8[A-Z] w - - 0 1", black, white), 2);
        for (int f = 0; f < 8; f++)
            assert_int_equal(black[f] - 'a', white[f] - 'A');
        int count[26] = {0};
        for (int f = 0; f < 8; f++)
            count[white[f] - 'A']++;
        for (const char *p = POOL_COUNT; *p; p += 2)
            assert_true(count[p[0] - 'A'] <= p[1] - '0');
        assert_int_equal(count['K' - 'A'], 1);
        assert_int_equal(count['P' - 'A'], 0);
        if (e_file) {
            assert_int_equal(white[4], 'K');
            kings_on_e++;
        }
        // The id printed under the board recreates the set-up.
        unsigned long long id;
        const char *at = strstr(render, "set-up ");
        assert_non_null(at);
        assert_int_equal(sscanf(at, "set-up %llu", &id), 1);
        char setting[64];
        snprintf(setting, sizeof setting, "setup=%llu", id);
        char *again = start_text(SETTINGS(setting), 12345, NULL, 0);
        assert_string_equal(again, t);
        free(again);
        snprintf(setting, sizeof setting, "setup=%s", white);
        again = start_text(SETTINGS(setting), 1, NULL, 0);
        assert_string_equal(again, t);
        free(again);
        free(t);
    }
    assert_int_equal(kings_on_e, 150);
    // Different seeds give different set-ups (the king's file varies too).
    char *a = start_text(NO_SETTINGS, 1, NULL, 0), *b = start_text(NO_SETTINGS, 2, NULL, 0);
    assert_string_not_equal(a, b);
    free(a);
    free(b);
    // The first and the last ids.
    a = start_text(SETTINGS("setup=0"), 1, NULL, 0);
    assert_string_equal(a, "kqlrrbbn/pppppppp/8/8/8/8/PPPPPPPP/KQLRRBBN w - - 0 1");
    free(a);
}

/* --- pawns --------------------------------------------------------------------------- */

static const char *const PAWNS[8] = {
    ". . . . k . . .", //
    ". P . . . . . .", //
    ". . . . . . . .", //
    ". . . p . . . .", //
    ". . . . . . . .", //
    ". . p . . . . .", //
    ". P P . . . . P", //
    ". . . . K . . .", //
};

static void test_pawns(void **state)
{
    (void)state;
    Fx fx;
    fx_diagram(&fx, NO_SETTINGS, PAWNS, " w - - 0 1");
    legal(&fx, "b2b3");
    legal(&fx, "b2b4");
    legal(&fx, "b2c3"); // diagonal capture
    illegal(&fx, "c2c3"); // blocked
    illegal(&fx, "c2c4");
    legal(&fx, "h2h4");
    illegal(&fx, "h2h5");
    // Promotion to every piece but the king, and no declining by default.
    const char *promo[] = {"b7b8q", "b7b8r", "b7b8b", "b7b8n", "b7b8a", "b7b8l",
                           "b7b8g", "b7b8m", "b7b8e"};
    for (size_t i = 0; i < 9; i++)
        legal(&fx, promo[i]);
    illegal(&fx, "b7b8k");
    illegal(&fx, "b7b8");
    fx_close(&fx);
    fx_diagram(&fx, SETTINGS("promotion=classic", "promotion-optional=on"), PAWNS, " w - - 0 1");
    legal(&fx, "b7b8q");
    legal(&fx, "b7b8n");
    illegal(&fx, "b7b8a");
    illegal(&fx, "b7b8e");
    legal(&fx, "b7b8"); // declined: the pawn stays a pawn
    play(&fx, "b7b8");
    play(&fx, "e8e7");
    illegal(&fx, "b8b9");
    count_moves(&fx);
    fx_close(&fx);
    // En passant only with the option.
    fx_open(&fx, NO_SETTINGS, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    illegal(&fx, "e5d6");
    fx_close(&fx);
    fx_open(&fx, SETTINGS("en-passant=on"), "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    play(&fx, "e5d6");
    assert_non_null(strstr(fx.text, "4k3/8/3P4/8/8/8/8/4K3 b"));
    fx_close(&fx);
    // The en-passant capture that would uncover the king along the rank is illegal.
    fx_open(&fx, SETTINGS("en-passant=on"), "8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 1");
    illegal(&fx, "e5d6");
    fx_close(&fx);
}

/* A pawn that a maester swap put on its second rank may not step twice (R-KD-16). */
static void test_displaced_pawn(void **state)
{
    (void)state;
    static const char *const ROWS[8] = {
        ". . . . k . . .", //
        ". . . . . . . .", //
        ". . . . . . . .", //
        ". . . . . . . .", //
        ". . . . . . . .", //
        ". . P . . . . .", //
        ". M . . . . . .", //
        ". . . . K . . .", //
    };
    Fx fx;
    fx_diagram(&fx, NO_SETTINGS, ROWS, " w - - 0 1");
    play(&fx, "b2~c3"); // the pawn goes to b2, the maester to c3
    assert_non_null(strstr(fx.text, "moved:b2"));
    play(&fx, "e8d8");
    legal(&fx, "b2b3");
    illegal(&fx, "b2b4");
    fx_close(&fx);
}

/* --- the new pieces ---------------------------------------------------------------------- */

static void test_archer(void **state)
{
    (void)state;
    static const char *const ROWS[8] = {
        ". . . . k . . .", //
        ". . . r . . . .", //
        ". . n P g . . .", //
        ". b . A . q . .", //
        ". . p . b . . .", //
        ". . . . . . . .", //
        ". . . . . . . .", //
        ". . . . K . . .", //
    };
    Fx fx;
    fx_diagram(&fx, NO_SETTINGS, ROWS, " w - - 0 1");
    // Shots: diagonal neighbours, and two squares away orthogonally over anything.
    legal(&fx, "d5*c6");
    legal(&fx, "d5*c4");
    legal(&fx, "d5*e4");
    legal(&fx, "d5*d7"); // over the own pawn on d6
    legal(&fx, "d5*b5");
    legal(&fx, "d5*f5");
    illegal(&fx, "d5*e6"); // a guard: only a king takes it
    illegal(&fx, "d5*d6"); // own piece
    illegal(&fx, "d5c6");  // the archer never captures by moving
    // Steps: one square orthogonally, to an empty square.
    legal(&fx, "d5d4");
    legal(&fx, "d5e5");
    legal(&fx, "d5c5");
    illegal(&fx, "d5d6"); // own pawn
    illegal(&fx, "d5e4"); // diagonal: only a shot
    // After a shot the archer has not moved and the victim is gone.
    play(&fx, "d5*d7");
    assert_non_null(strstr(fx.text, "4k3/8/2nPg3/1b1A1q2/"));
    fx_close(&fx);
    // The archer gives check two squares away; only capturing it or moving helps.
    fx_open(&fx, NO_SETTINGS, "8/8/8/8/4k3/8/4A3/R3K3 b - - 0 1");
    expect_result(&fx, 2, NULL);
    illegal(&fx, "e4d3"); // diagonally next to the archer
    illegal(&fx, "e4f3");
    legal(&fx, "e4e3"); // straight next to it: safe
    legal(&fx, "e4d5");
    fx_close(&fx);
}

static void test_paladin(void **state)
{
    (void)state;
    static const char *const ROWS[8] = {
        ". . . k . . . .", //
        ". . . . . . . .", //
        ". . . r . . . .", //
        ". . . . . . . .", //
        ". n . g . . . .", //
        ". . . P . . . .", //
        ". . P L P . . .", //
        ". . . . K . . .", //
    };
    Fx fx;
    fx_diagram(&fx, NO_SETTINGS, ROWS, " w - - 0 1");
    illegal(&fx, "d2d4"); // a guard: never captured by a paladin
    illegal(&fx, "d2d5"); // nor passed over (it is not a friend)
    legal(&fx, "d2f2");   // over the friendly pawn on e2
    legal(&fx, "d2g2");
    legal(&fx, "d2b4");   // capture on the diagonal
    legal(&fx, "d2a2");   // over c2
    play(&fx, "d2b4");
    // The paladin fell with its victim.
    assert_non_null(strstr(fx.text, "3k4/8/3r4/8/3g4/3P4/2P1P3/4K3 b"));
    fx_close(&fx);
    // A paladin never gives check: the king may stand on its line.
    fx_open(&fx, NO_SETTINGS, "8/8/8/4k3/8/8/8/L3K3 b - - 0 1");
    expect_result(&fx, 2, NULL);
    legal(&fx, "e5d4");
    fx_close(&fx);
    // Pinned against its own king, it may not jump over the king out of the line.
    fx_open(&fx, NO_SETTINGS, "8/8/rL3K2/8/8/8/8/6k1 w - - 0 1");
    legal(&fx, "b6a6");
    legal(&fx, "b6d6");
    illegal(&fx, "b6g6");
    illegal(&fx, "b6b7");
    fx_close(&fx);
}

static void test_guard(void **state)
{
    (void)state;
    Fx fx;
    fx_open(&fx, NO_SETTINGS, "4k3/8/3g4/2P5/8/8/8/3RK3 w - - 0 1");
    illegal(&fx, "c5d6"); // pawns cannot take a guard
    illegal(&fx, "d1d6"); // the rook stops in front of it
    legal(&fx, "d1d5");
    fx_close(&fx);
    // A king can take it; a guard itself takes nothing and steps to empty squares.
    fx_open(&fx, NO_SETTINGS, "8/8/8/3k4/8/3g4/3K4/8 w - - 0 1");
    legal(&fx, "d2d3");
    fx_close(&fx);
    fx_open(&fx, NO_SETTINGS, "4k3/8/8/8/3p4/3G4/8/4K3 w - - 0 1");
    illegal(&fx, "d3d4");
    legal(&fx, "d3c4");
    legal(&fx, "d3d2");
    fx_close(&fx);
}

static void test_maester(void **state)
{
    (void)state;
    Fx fx;
    fx_open(&fx, NO_SETTINGS, "4k3/8/8/8/8/8/2nPP3/R2M1K2 w - - 0 1");
    legal(&fx, "d1c2");   // capture
    legal(&fx, "d1~d2");  // swaps with a friend
    legal(&fx, "d1~f1");  // and with its king, both on the first rank
    same_action(&fx, "d1d2", "d1~d2"); // the swap written without the mark
    illegal(&fx, "d1~a1"); // a rook at a distance: no
    play(&fx, "d1~f1");
    assert_non_null(strstr(fx.text, "/R2K1M2 b"));
    fx_close(&fx);
    // The long swap: maester and king both on their first rank.
    fx_open(&fx, NO_SETTINGS, "4k3/8/8/8/8/8/8/M3K3 w - - 0 1");
    legal(&fx, "a1~e1");
    fx_close(&fx);
    fx_open(&fx, NO_SETTINGS, "4k3/8/8/8/8/8/M7/4K3 w - - 0 1");
    illegal(&fx, "a2~e1");
    fx_close(&fx);
    // A swap that brings a pawn to the last rank promotes it.
    fx_open(&fx, NO_SETTINGS, "k3M3/4P3/8/8/8/8/8/4K3 w - - 0 1");
    legal(&fx, "e8~e7q");
    legal(&fx, "e8~e7g");
    illegal(&fx, "e8~e7");
    play(&fx, "e8~e7l");
    assert_non_null(strstr(fx.text, "k3L3/4M3/"));
    fx_close(&fx);
}

static void test_beast(void **state)
{
    (void)state;
    static const char *const ROWS[8] = {
        ". . . . k . . .", //
        ". . . . . . . .", //
        ". . . . . . . .", //
        ". . p p p . . .", //
        ". . . E . . . .", //
        ". . p . p . . .", //
        ". . . . . . . .", //
        ". . . . K . . .", //
    };
    Fx fx;
    fx_diagram(&fx, NO_SETTINGS, ROWS, " w - - 0 1");
    illegal(&fx, "d4d5");  // no capture straight ahead
    legal(&fx, "d4c5");    // the seven other neighbours
    legal(&fx, "d4e3");
    legal(&fx, "d4c3");
    legal(&fx, "d4c5,");   // and the chain goes on: from c5 the pawn on d5 is in reach
    illegal(&fx, "d4c3,"); // from c3 nothing is: no chain announced
    illegal(&fx, "d4d3");  // a beast steps only forward
    play(&fx, "d4c5,");
    assert_non_null(strstr(fx.text, "chain:c5/1"));
    // In the chain only this beast acts, and only by capturing.
    illegal(&fx, "e8d8");
    illegal(&fx, "c5c6");
    legal(&fx, "c5d5");
    legal(&fx, "c5d5,"); // from d5 the pawn on e5
    play(&fx, "c5d5,");
    play(&fx, "d5e5");
    assert_int_equal(fx.g->ops->to_move(fx.g, fx.s), 1);
    fx_close(&fx);
    // beast-chain=one: no announced second capture; two: at most two captures.
    fx_diagram(&fx, SETTINGS("beast-chain=one"), ROWS, " w - - 0 1");
    illegal(&fx, "d4c5,");
    legal(&fx, "d4c5");
    fx_close(&fx);
    fx_diagram(&fx, SETTINGS("beast-chain=two"), ROWS, " w - - 0 1");
    play(&fx, "d4c5,");
    legal(&fx, "c5d5");
    illegal(&fx, "c5d5,");
    fx_close(&fx);
    // A chain never takes a king: next to one, with no other prey, it cannot go on.
    fx_open(&fx, NO_SETTINGS, "8/8/1k6/2p5/3E4/8/8/4K3 w - - 0 1");
    legal(&fx, "d4c5");
    illegal(&fx, "d4c5,");
    fx_close(&fx);
    // The whole turn can be typed at once: the later links by their targets.
    fx_diagram(&fx, NO_SETTINGS, ROWS, " w - - 0 1");
    Move acts[8];
    int n = 0;
    ErrBuf err;
    assert_non_null(fx.g->ops->parse_actions);
    assert_int_equal(fx.g->ops->parse_actions(fx.g, fx.s, "d4c5,d5,e5", acts, 8, &n, &err),
                     STATUS_OK);
    assert_int_equal(n, 3);
    assert_int_not_equal(fx.g->ops->parse_actions(fx.g, fx.s, "d4c5,e8", acts, 8, &n, &err),
                         STATUS_OK);
    fx_close(&fx);
}

/* --- check, mate and the end of the game --------------------------------------------------- */

static void test_check_and_mate(void **state)
{
    (void)state;
    Fx fx;
    // Back-rank mate: the knight could take the rook under the chess rule, so it is no
    // mate; the literal rule (option) says the king cannot move to safety: lost.
    fx_open(&fx, NO_SETTINGS, "7k/6pp/2n5/8/8/8/5PPP/3R2K1 w - - 0 1");
    play(&fx, "d1d8");
    expect_result(&fx, 2, NULL);
    assert_int_equal(count_moves(&fx), 1); // c6xd8
    fx_close(&fx);
    fx_open(&fx, SETTINGS("mate=literal"), "7k/6pp/2n5/8/8/8/5PPP/3R2K1 w - - 0 1");
    play(&fx, "d1d8");
    expect_result(&fx, 1, "cannot move to safety");
    fx_close(&fx);
    // Plain mate and stalemate.
    fx_open(&fx, NO_SETTINGS, "7k/6pp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    play(&fx, "d1d8");
    expect_result(&fx, 1, "checkmate");
    fx_close(&fx);
    fx_open(&fx, NO_SETTINGS, "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1");
    play(&fx, "f1f7");
    expect_result(&fx, 0, "stalemate");
    fx_close(&fx);
    // A beast attacks its neighbours but the square straight ahead of it.
    fx_open(&fx, NO_SETTINGS, "8/8/8/8/3k4/3E4/8/4K3 b - - 0 1"); // d4: ahead, no check
    illegal(&fx, "d4c4");
    legal(&fx, "d4d5");
    fx_close(&fx);
    fx_open(&fx, NO_SETTINGS, "8/8/8/8/3kE3/8/8/4K3 b - - 0 1"); // in check
    illegal(&fx, "d4d5"); // the beast on e4 attacks d5
    legal(&fx, "d4e5");   // e5 is straight ahead of it
    legal(&fx, "d4e4");
    fx_close(&fx);
}

static void test_draws(void **state)
{
    (void)state;
    Fx fx;
    // Threefold repetition.
    fx_open(&fx, NO_SETTINGS, "4k3/8/8/8/8/8/8/4K1N1 w - - 0 1");
    const char *cycle[] = {"g1f3", "e8d8", "f3g1", "d8e8"};
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < 4; i++) {
            expect_result(&fx, 2, NULL);
            play(&fx, cycle[i]);
        }
    expect_result(&fx, 0, "third time");
    fx_close(&fx);
    fx_open(&fx, SETTINGS("repetition=off"), "4k3/8/8/8/8/8/8/4K1N1 w - - 0 1");
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < 4; i++)
            play(&fx, cycle[i]);
    expect_result(&fx, 2, NULL);
    fx_close(&fx);
    // Fifty moves, bare kings, the ply limit.
    fx_open(&fx, NO_SETTINGS, "4k3/8/8/8/8/8/8/4K1N1 w - - 99 80");
    play(&fx, "g1f3");
    expect_result(&fx, 0, "fifty");
    fx_close(&fx);
    fx_open(&fx, NO_SETTINGS, "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1");
    play(&fx, "e1d2");
    expect_result(&fx, 0, "two kings");
    fx_close(&fx);
    fx_open(&fx, SETTINGS("max-plies=20"), "4k3/8/8/8/8/8/8/4K1N1 w - - 0 10");
    play(&fx, "g1f3");
    expect_result(&fx, 2, NULL);
    play(&fx, "e8d8");
    expect_result(&fx, 0, "max-plies");
    fx_close(&fx);
}

/* The can_win hook follows the bare-kings rule one side at a time: a lone king cannot
 * win while the rule is on, and the game says nothing of it when the rule is off. */
static void test_can_win(void **state)
{
    (void)state;
    Fx fx;
    fx_open(&fx, NO_SETTINGS, "4k3/8/8/8/8/8/8/4K1N1 w - - 0 1");
    assert_non_null(fx.g->ops->can_win);
    assert_true(game_can_win(fx.g, fx.s, 0));
    assert_false(game_can_win(fx.g, fx.s, 1));
    fx_close(&fx);
    fx_open(&fx, SETTINGS("bare-kings=off"), "4k3/8/8/8/8/8/8/4K1N1 w - - 0 1");
    assert_true(game_can_win(fx.g, fx.s, 0));
    assert_true(game_can_win(fx.g, fx.s, 1));
    fx_close(&fx);
}

/* `text`, read at fx's position, is written `want` in long algebraic, and reads back. */
static void expect_long(Fx *fx, const char *text, const char *want)
{
    Move m, back;
    ErrBuf err;
    err_clear(&err);
    if (fx->g->ops->parse_move(fx->g, fx->s, text, &m, &err) != STATUS_OK)
        fail_msg("%s: %s", text, err.msg);
    StrBuf sb;
    sb_init(&sb);
    fx->g->ops->format_move(fx->g, fx->s, m, &sb);
    if (strcmp(sb_str(&sb), want) != 0)
        fail_msg("%s writes as '%s', not '%s'", text, sb_str(&sb), want);
    if (fx->g->ops->parse_move(fx->g, fx->s, sb_str(&sb), &back, &err) != STATUS_OK || back != m)
        fail_msg("'%s' does not read back as %s", sb_str(&sb), text);
    sb_free(&sb);
}

static void test_castling(void **state)
{
    (void)state;
    Fx fx;
    // Off by default: the rights in a FEN are read and dropped.
    fx_open(&fx, NO_SETTINGS, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    illegal(&fx, "O-O");
    char *dropped = fx_position(&fx);
    assert_non_null(strstr(dropped, " w - - 0 1"));
    free(dropped);
    fx_close(&fx);
    fx_open(&fx, SETTINGS("castling=on"), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    legal(&fx, "O-O");
    legal(&fx, "O-O-O");
    same_action(&fx, "e1g1", "O-O");
    same_action(&fx, "e1h1", "O-O");
    same_action(&fx, "0-0-0", "O-O-O");
    // Long algebraic writes castling as the king's own step, as UCI does.
    expect_long(&fx, "O-O", "e1g1");
    expect_long(&fx, "O-O-O", "e1c1");
    play(&fx, "O-O");
    assert_non_null(strstr(fx.text, "R4RK1 b kq"));
    fx_close(&fx);
    // Chess960: king on b1 castles to c1 (a-side) with the rook from a1 to d1.
    fx_open(&fx, SETTINGS("castling=on"), "rk4r1/8/8/8/8/8/8/RK4R1 w KQkq - 0 1");
    // A king that castles one square would read as a king's step: O-O-O stays.
    expect_long(&fx, "O-O-O", "O-O-O");
    play(&fx, "O-O-O");
    assert_non_null(strstr(fx.text, "2KR2R1 b kq"));
    fx_close(&fx);
    // Not through an attacked square, not out of check.
    fx_open(&fx, SETTINGS("castling=on"), "4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    illegal(&fx, "O-O");
    legal(&fx, "O-O-O");
    fx_close(&fx);
    fx_open(&fx, SETTINGS("castling=on"), "4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    illegal(&fx, "O-O");
    illegal(&fx, "O-O-O");
    fx_close(&fx);
    // Rights by file letter (Shredder-FEN) for an inner rook.
    fx_open(&fx, SETTINGS("castling=on"), "4k3/8/8/8/8/8/8/1R2K1RR w G - 0 1");
    legal(&fx, "O-O");
    char *shredder = fx_position(&fx);
    assert_non_null(strstr(shredder, " w G - "));
    free(shredder);
    fx_close(&fx);
}

/* --- text ----------------------------------------------------------------------------------- */

static void expect_san(const char *const *settings, int n, const char *fen, const char *move,
                       const char *san)
{
    Fx fx;
    fx_open(&fx, settings, n, fen);
    Move m;
    ErrBuf err;
    err_clear(&err);
    if (fx.g->ops->parse_move(fx.g, fx.s, move, &m, &err) != STATUS_OK)
        fail_msg("%s: %s", move, err.msg);
    // SAN is read back too.
    Move back;
    if (fx.g->ops->parse_move(fx.g, fx.s, san, &back, &err) != STATUS_OK || back != m)
        fail_msg("SAN '%s' does not read back as %s: %s", san, move, err.msg);
    fx_close(&fx);
    const char *rules[MAX_SETTINGS + 1];
    for (int i = 0; i < n; i++)
        rules[i] = settings[i];
    rules[n] = "notation=san";
    fx_open(&fx, rules, n + 1, fen);
    StrBuf sb;
    sb_init(&sb);
    fx.g->ops->format_move(fx.g, fx.s, m, &sb);
    if (strcmp(sb_str(&sb), san) != 0)
        fail_msg("%s at '%s' writes as '%s', not '%s'", move, fen, sb_str(&sb), san);
    sb_free(&sb);
    fx_close(&fx);
}

static void test_notation(void **state)
{
    (void)state;
    const char *start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    expect_san(SETTINGS("castling=on"), start, "g1f3", "Nf3");
    expect_san(SETTINGS("castling=on"), start, "e2e4", "e4");
    expect_san(NO_SETTINGS, "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8l", "b8=L");
    expect_san(NO_SETTINGS, "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", "b8=Q+");
    expect_san(NO_SETTINGS, "7k/6pp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "d1d8", "Rd8#");
    expect_san(NO_SETTINGS, "4k3/8/2n5/3A4/8/8/8/4K3 w - - 0 1", "d5*c6", "A*c6");
    expect_san(NO_SETTINGS, "4k3/8/8/8/8/8/3P4/3MK3 w - - 0 1", "d1~d2", "M~d2");
    expect_san(NO_SETTINGS, "4k3/8/8/2ppp3/3E4/8/8/4K3 w - - 0 1", "d4c5,", "Exc5,");
    expect_san(NO_SETTINGS, "4k3/8/8/8/8/8/8/N1N1K3 w - - 0 1", "a1b3", "Nab3");
    expect_san(SETTINGS("castling=on"), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O", "O-O");
    // Every chess FEN reads unchanged, clocks optional.
    Fx fx;
    fx_open(&fx, SETTINGS("castling=on", "en-passant=on"),
            "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2");
    assert_string_equal(fx.text, "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2");
    char *t = fx_position(&fx);
    // No white pawn can take on c6: the square is dropped when printed.
    assert_string_equal(t, "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    free(t);
    fx_close(&fx);
    fx_open(&fx, NO_SETTINGS, "4k3/8/8/8/8/8/8/4K3 b - -");
    t = fx_position(&fx);
    assert_string_equal(t, "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    free(t);
    fx_close(&fx);
    // Bad texts are refused with a reason, and the state is left alone.
    Game *g = NULL;
    ErrBuf err;
    assert_int_equal(rule_text_create(registry_find("king-down"), 0, NULL, 0, &g, &err), STATUS_OK);
    GameState *s = game_state_new(g);
    g->ops->new_game(g, s, 1);
    GameState *copy = game_state_clone(g, s);
    const char *bad[] = {"8/8/8/8/8/8/8/8 w - - 0 1", "4k3/8/8/8/8/8/8/4K3 x - - 0 1",
                         "4k3/8/8/8/8/8/8/4KX2 w - - 0 1", "4k3/8/8/8/8/8/8/4K3 w - e3 0 1",
                         "4k3/8/8/8/8/8/8/4K3 w - - 0 1 armies:frost/flame",
                         "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1 chain:e2/1",
                         "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err_clear(&err);
        assert_int_not_equal(g->ops->parse_position(g, s, bad[i], &err), STATUS_OK);
        assert_true(err.msg[0] != '\0');
        assert_memory_equal(s, copy, g->state_size);
    }
    free(copy);
    free(s);
    game_destroy(g);
}

static char *cells(Fx *fx, const char *text)
{
    Move m;
    ErrBuf err;
    assert_int_equal(fx->g->ops->parse_move(fx->g, fx->s, text, &m, &err), STATUS_OK);
    StrBuf sb;
    sb_init(&sb);
    assert_non_null(fx->g->ops->move_cells);
    fx->g->ops->move_cells(fx->g, fx->s, m, &sb);
    char *t = strdup(sb_str(&sb));
    sb_free(&sb);
    return t;
}

/* The cells a click interface uses: the piece, then where the action ends. */
static void test_move_cells_and_score(void **state)
{
    (void)state;
    Fx fx;
    fx_open(&fx, SETTINGS("castling=on"), "r3k2r/8/2n5/3A4/8/8/3P4/R2MK2R w KQkq - 0 1");
    const char *cases[][2] = {{"d5*c6", "d5 c6"}, {"d1~d2", "d1 d2"}, {"O-O", "e1 h1"},
                              {"a1a5", "a1 a5"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *t = cells(&fx, cases[i][0]);
        assert_string_equal(t, cases[i][1]);
        free(t);
    }
    // The score is the material balance in pawns: an archer against a knight.
    assert_non_null(fx.g->ops->score);
    assert_true(fx.g->ops->score(fx.g, fx.s, 0) - fx.g->ops->score(fx.g, fx.s, 1) > 0);
    fx_close(&fx);
}

/* --- armies and powers ------------------------------------------------------------------------ */

static void test_armies_choice(void **state)
{
    (void)state;
    Fx fx;
    fx_open(&fx, SETTINGS("armies=on"), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1");
    assert_int_equal(count_moves(&fx), 6);
    play(&fx, "frost");
    assert_int_equal(fx.g->ops->to_move(fx.g, fx.s), 1);
    illegal(&fx, "frost"); // the kings differ
    play(&fx, "shadow");
    assert_int_equal(fx.g->ops->to_move(fx.g, fx.s), 0);
    illegal(&fx, "darkness"); // not a power of Frost
    play(&fx, "ice-wall");
    play(&fx, "darkness");
    assert_int_equal(fx.g->ops->to_move(fx.g, fx.s), 0);
    assert_non_null(strstr(fx.text, "armies:frost/shadow powers:ice-wall/darkness tokens:2/0"));
    // Darkness pawns move diagonally and capture straight ahead, never two squares.
    play(&fx, "e2e4");
    legal(&fx, "d7c6");
    illegal(&fx, "d7d6");
    illegal(&fx, "d7d5");
    fx_close(&fx);
}

/* What a move list shows (game_format_move_read): SAN whatever the notation option, a
 * choice or a power by its name; and the seats' names. */
static void expect_read(Fx *fx, const char *move, const char *read)
{
    Move m;
    ErrBuf err;
    if (fx->g->ops->parse_move(fx->g, fx->s, move, &m, &err) != STATUS_OK)
        fail_msg("%s: %s", move, err.msg);
    StrBuf sb;
    sb_init(&sb);
    game_format_move_read(fx->g, fx->s, m, &sb);
    assert_string_equal(sb_str(&sb), read);
    sb_free(&sb);
}

static void test_move_read(void **state)
{
    (void)state;
    Fx fx;
    fx_open(&fx, SETTINGS("armies=on", "notation=long"),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1");
    assert_string_equal(fx.g->ops->seat_names[0], "White");
    assert_string_equal(fx.g->ops->seat_names[1], "Black");
    expect_read(&fx, "stratus", "Stratus");
    play(&fx, "stratus");
    play(&fx, "spirit");
    expect_read(&fx, "flight", "Flight");
    play(&fx, "flight");
    expect_read(&fx, "holy-light", "Holy Light");
    play(&fx, "holy-light");
    expect_read(&fx, "g1f3", "Nf3");
    expect_read(&fx, "flight:b1d3", "Flight b1d3");
    fx_close(&fx);
}

static void test_freeze_and_ice_wall(void **state)
{
    (void)state;
    Fx fx;
    const char *fen = "4k3/3ppp2/8/2n5/8/3B4/3PPP2/4K3 w - - 0 1 armies:frost/mud powers:freeze/march";
    fx_open(&fx, SETTINGS("armies=on"), fen);
    illegal(&fx, "freeze:e8"); // never a king
    play(&fx, "freeze:c5");
    illegal(&fx, "freeze:d7"); // one token a turn
    play(&fx, "e1d1");
    assert_non_null(strstr(fx.text, "frozen:c5"));
    illegal(&fx, "c5d3"); // the frozen knight may not move
    legal(&fx, "d7d6");
    play(&fx, "e8d8");
    assert_true(strstr(fx.text, "frozen") == NULL); // it thaws after Black's turn
    fx_close(&fx);
    // A turn that spent a token may not give check.
    fx_open(&fx, SETTINGS("armies=on"),
            "4k3/p7/8/8/8/8/8/4K2R w - - 0 1 armies:frost/mud powers:freeze/march");
    legal(&fx, "h1h8");
    play(&fx, "freeze:a7");
    illegal(&fx, "h1h8");
    legal(&fx, "h1h7");
    fx_close(&fx);
    // Ice Wall: the protected piece may not be captured in the opponent's next turn.
    fx_open(&fx, SETTINGS("armies=on"), "4k3/8/8/2n5/8/3B4/8/4K3 w - - 0 1 armies:frost/mud powers:ice-wall/march");
    play(&fx, "ice-wall:d3");
    play(&fx, "e1e2");
    illegal(&fx, "c5d3");
    legal(&fx, "c5e4");
    fx_close(&fx);
}

static void test_flame_stratus_mud(void **state)
{
    (void)state;
    Fx fx;
    // Strike: a piece moves as a queen (but not to give check: a token was spent).
    fx_open(&fx, SETTINGS("armies=on"),
            "4k3/8/2p5/8/8/N7/1P6/4K3 w - - 0 1 armies:flame/frost powers:strike/freeze");
    legal(&fx, "strike:a3a7");
    legal(&fx, "strike:b2b7");
    illegal(&fx, "strike:a3d6"); // the knight on d6 would check
    illegal(&fx, "strike:e1e2"); // never the king
    play(&fx, "strike:a3c5");
    assert_non_null(strstr(fx.text, "tokens:0/2"));
    fx_close(&fx);
    // Haste: one piece moves twice.
    fx_open(&fx, SETTINGS("armies=on"),
            "4k3/8/2p5/8/8/8/1P2N3/4K3 w - - 0 1 armies:flame/frost powers:haste/freeze");
    play(&fx, "haste");
    play(&fx, "e2d4");
    assert_non_null(strstr(fx.text, "stage:haste2/d4"));
    illegal(&fx, "b2b4"); // the same piece moves again
    legal(&fx, "d4f5");
    play(&fx, "d4c6");
    assert_int_equal(fx.g->ops->to_move(fx.g, fx.s), 1);
    fx_close(&fx);
    // Flight: any piece to an empty square of its own half.
    fx_open(&fx, SETTINGS("armies=on"), "4k3/8/8/8/8/8/1P2N3/4K3 w - - 0 1 armies:stratus/frost powers:flight/freeze");
    legal(&fx, "flight:e2a4");
    illegal(&fx, "flight:e2a5");
    illegal(&fx, "flight:e1a4");
    fx_close(&fx);
    // Sacrifice: a pawn becomes a captured piece of its side.
    fx_open(&fx, SETTINGS("armies=on"), "4k3/8/8/8/8/8/1PP1N3/4K3 w - - 0 1 armies:stratus/frost powers:sacrifice/freeze captured:QLGp");
    legal(&fx, "sacrifice:b2q");
    legal(&fx, "sacrifice:c2g");
    illegal(&fx, "sacrifice:b2r");
    play(&fx, "sacrifice:b2l");
    assert_non_null(strstr(fx.text, "captured:PQGp"));
    fx_close(&fx);
    // March and Leap.
    fx_open(&fx, SETTINGS("armies=on"), "4k3/8/8/8/8/4P3/PPPP1PPP/R2QKB2 w - - 0 1 armies:mud/frost powers:march/freeze");
    legal(&fx, "march:e3e5");
    legal(&fx, "march:a2a4");
    illegal(&fx, "e3e5");
    fx_close(&fx);
    fx_open(&fx, SETTINGS("armies=on"), "4k3/8/8/8/8/8/PPPPPPPP/R2QKB2 w - - 0 1 armies:mud/frost powers:leap/freeze");
    legal(&fx, "leap:d1d6");
    legal(&fx, "leap:a1a7");
    illegal(&fx, "leap:d1d8"); // check, with a token
    illegal(&fx, "leap:d1h5"); // the same along the diagonal
    illegal(&fx, "leap:f1f2");
    illegal(&fx, "leap:d1c1"); // a Leap must pass over a pawn
    fx_close(&fx);
}

/* The choices the rules leave open that became options (docs/games/king-down.md, "Rules
 * fidelity"): a displaced pawn's double step, en passant after a March, which rooks of a
 * drawn rank may castle. */
static void test_fidelity_options(void **state)
{
    (void)state;
    static const char *const SWAP[8] = {
        ". . . . k . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . P . . . .",
        ". . M . . . . .",
        ". . . . K . . .",
    };
    Fx fx;
    // The maester swaps the d3 pawn back onto c2: by default it has moved.
    fx_diagram(&fx, NO_SETTINGS, SWAP, " w - - 0 1");
    play(&fx, "c2~d3");
    assert_non_null(strstr(fx.text, "moved:c2"));
    play(&fx, "e8e7");
    illegal(&fx, "c2c4");
    legal(&fx, "c2c3");
    fx_close(&fx);
    fx_diagram(&fx, SETTINGS("displaced-pawn=unmoved"), SWAP, " w - - 0 1");
    play(&fx, "c2~d3");
    play(&fx, "e8e7");
    legal(&fx, "c2c4");
    fx_close(&fx);
    // A March from e3 to e5 passes e4, where the d5 pawn could take.
    static const char *const MARCH[8] = {
        ". . . . k . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . p . . . .",
        ". . . . . . . .",
        ". . . . P . . .",
        ". . . . . . . .",
        ". . . . K . . .",
    };
    const char *tail = " w - - 0 1 armies:mud/frost powers:march/freeze";
    fx_diagram(&fx, SETTINGS("armies=on", "en-passant=on"), MARCH, tail);
    play(&fx, "march:e3e5");
    illegal(&fx, "d5e4");
    fx_close(&fx);
    fx_diagram(&fx, SETTINGS("armies=on", "en-passant=on", "march-en-passant=on"), MARCH, tail);
    play(&fx, "march:e3e5");
    assert_non_null(strstr(fx.text, " e4 "));
    play(&fx, "d5e4");
    assert_non_null(strstr(fx.text, "/8/4p3/8/8/4K3 "));
    fx_close(&fx);
    // army-order=black: Black chooses his king first, then White, then Black's power.
    fx_open(&fx, SETTINGS("armies=on", "army-order=black"),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1 armies:-/-");
    assert_int_equal(fx.g->ops->to_move(fx.g, fx.s), 1);
    play(&fx, "flame");
    assert_int_equal(fx.g->ops->to_move(fx.g, fx.s), 0);
    illegal(&fx, "flame"); // taken
    play(&fx, "frost");
    assert_int_equal(fx.g->ops->to_move(fx.g, fx.s), 1);
    play(&fx, "haste");
    assert_non_null(strstr(fx.text, "powers:-/haste"));
    play(&fx, "ice-wall");
    assert_int_equal(fx.g->ops->to_move(fx.g, fx.s), 0);
    legal(&fx, "e2e4");
    fx_close(&fx);
    // Two rooks on the king's h-side: only the outer one castles, unless castling-rooks=all.
    char *t = start_text(SETTINGS("setup=NKRRBBQN", "castling=on"), 1, NULL, 0);
    assert_string_equal(t, "nkrrbbqn/pppppppp/8/8/8/8/PPPPPPPP/NKRRBBQN w Kk - 0 1");
    free(t);
    t = start_text(SETTINGS("setup=NKRRBBQN", "castling=on", "castling-rooks=all"), 1, NULL, 0);
    assert_string_equal(t, "nkrrbbqn/pppppppp/8/8/8/8/PPPPPPPP/NKRRBBQN w KCkc - 0 1");
    free(t);
}

/* A Freeze or Ice Wall declared while in check does not make castling out of check
 * legal (the check still stands when the move follows). */
static void test_no_castling_out_of_check_after_declaring(void **state)
{
    (void)state;
    static const char *const ROWS[8] = {
        "k . . . r . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . K . . R",
    };
    Fx fx;
    fx_diagram(&fx, SETTINGS("armies=on", "castling=on"), ROWS,
               " w K - 0 1 armies:frost/flame powers:freeze/haste");
    illegal(&fx, "O-O");
    play(&fx, "freeze:e8");
    illegal(&fx, "O-O"); // the frozen rook still gives check
    legal(&fx, "e1d2");
    fx_close(&fx);
}

/* The observation's JSON (core/observation.h) holds `part`. */
static void observed(Fx *fx, const char *part)
{
    Observation *o = malloc(sizeof *o);
    assert_non_null(o);
    fx->g->ops->observe(fx->g, fx->s, PLAYER_NONE, o);
    StrBuf sb;
    sb_init(&sb);
    obs_write_json(fx->g->observation, o, &sb);
    if (strstr(sb_str(&sb), part) == NULL)
        fail_msg("the observation at '%s' lacks '%s': %s", fx->text, part, sb_str(&sb));
    sb_free(&sb);
    free(o);
}

/* What the observation says of pieces, marks and the turn in progress. */
static void test_observation(void **state)
{
    (void)state;
    Fx fx;
    fx_open(&fx, SETTINGS("armies=on", "castling=on", "en-passant=on"),
            "r3k3/8/8/3pP3/8/8/1P2N3/4K2R w Kq d6 0 1 armies:flame/frost "
            "powers:haste/freeze tokens:1/1 captured:Ga");
    observed(&fx, "{\"name\":\"e2\",\"zone\":0,\"col\":4,\"row\":1,\"terrain\":[],"
                  "\"pieces\":[{\"kind\":\"knight\",\"owner\":0}]}");
    observed(&fx, "\"name\":\"h1\",\"zone\":0,\"col\":7,\"row\":0,\"terrain\":[\"castling\"]");
    observed(&fx, "\"name\":\"a8\",\"zone\":0,\"col\":0,\"row\":7,\"terrain\":[\"castling\"]");
    observed(&fx, "\"name\":\"d6\",\"zone\":0,\"col\":3,\"row\":5,\"terrain\":[\"en-passant\"]");
    observed(&fx, "\"army\":[2,1],\"power\":[4,1],\"tokens\":[1,1]");
    observed(&fx, "\"captured\":[[{\"kind\":\"guard\",\"owner\":0}],"
                  "[{\"kind\":\"archer\",\"owner\":1}]]");
    play(&fx, "haste");
    observed(&fx, "\"stage\":2");
    play(&fx, "e2d4");
    observed(&fx, "\"name\":\"d4\",\"zone\":0,\"col\":3,\"row\":3,\"terrain\":[\"haste\"]");
    observed(&fx, "\"turn\":0,\"halfmove\":0,\"fullmove\":1,\"phase\":0,\"stage\":3");
    fx_close(&fx);
}

/* A whole turn written as one text must be refused, with a message naming `why`. */
static void turn_refused(Fx *fx, const char *turn, const char *why)
{
    Move acts[8];
    int n = 0;
    ErrBuf err;
    err_clear(&err);
    if (fx->g->ops->parse_actions(fx->g, fx->s, turn, acts, 8, &n, &err) == STATUS_OK)
        fail_msg("'%s' should be refused at '%s'", turn, fx->text);
    if (strstr(err.msg, why) == NULL)
        fail_msg("'%s' refused with '%s', which does not say '%s'", turn, err.msg, why);
}

/* Haste: each of the two moves is a normal move of its own (R-KD-24), under
 * both values of haste-check; `each` also refuses a first move that gives check. */
static void test_haste_each_move(void **state)
{
    (void)state;
    static const char *const VALUES[2] = {"haste-check=end", "haste-check=each"};
    static const char *const KING_THROUGH[8] = {
        ". . . . . . . k",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        "r . . . . . . .",
        ". . . . K . . .",
    };
    static const char *const PINNED[8] = {
        ". . . . r . . k",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . . . R . . .",
        ". . . . K . . .",
    };
    const char *tail = " w - - 0 1 armies:flame/frost powers:haste/freeze tokens:1/2";
    for (int v = 0; v < 2; v++) {
        const char *const settings[2] = {"armies=on", VALUES[v]};
        const bool each = v == 1;
        Fx fx;
        // The king may not step onto the rook's rank, even to step off it again.
        fx_diagram(&fx, settings, 2, KING_THROUGH, tail);
        turn_refused(&fx, "haste; e1e2; e2e3", "leaves your king in check");
        play(&fx, "haste");
        illegal(&fx, "e1e2");
        illegal(&fx, "e1f2");
        legal(&fx, "e1d1");
        play(&fx, "e1f1");
        illegal(&fx, "f1f2"); // the turn may not end in check either
        play(&fx, "f1g1");
        assert_int_equal(fx.g->ops->to_move(fx.g, fx.s), 1);
        fx_close(&fx);
        // The pinned rook may not step off its pin and back.
        fx_diagram(&fx, settings, 2, PINNED, tail);
        turn_refused(&fx, "haste; e2d2; d2e2", "leaves your king in check");
        play(&fx, "haste");
        illegal(&fx, "e2d2");
        illegal(&fx, "e2a2");
        legal(&fx, "e2e5");
        // Taking on e8 checks along the eighth rank: a first move that gives check is
        // refused only with haste-check=each (the second move must leave the rank).
        if (each) {
            illegal(&fx, "e2e8");
            turn_refused(&fx, "e2e8; e8e7", "haste-check=each");
        } else {
            play(&fx, "e2e8");
            illegal(&fx, "e8d8"); // the turn may not end giving check
            play(&fx, "e8e7");
            assert_int_equal(fx.g->ops->to_move(fx.g, fx.s), 1);
        }
        fx_close(&fx);
    }
}

static void test_spirit_shadow(void **state)
{
    (void)state;
    Fx fx;
    // Holy Light: enemy pawns neither check nor are taken by this king.
    fx_open(&fx, SETTINGS("armies=on"),
            "8/8/8/3p4/4K3/8/8/4k3 w - - 0 1 armies:spirit/frost powers:holy-light/freeze");
    expect_result(&fx, 2, NULL);
    illegal(&fx, "e4d5");
    legal(&fx, "e4e5");
    legal(&fx, "e4d4");
    fx_close(&fx);
    // Mercy: one or two squares, over a friend, never a capture.
    fx_open(&fx, SETTINGS("armies=on"),
            "8/8/8/8/3PKn2/8/8/4k3 w - - 0 1 armies:spirit/frost powers:mercy/freeze");
    legal(&fx, "e4c4");   // over its own pawn
    legal(&fx, "e4c6");
    illegal(&fx, "e4f4"); // no capture
    illegal(&fx, "e4g4"); // not over an enemy
    illegal(&fx, "e4e6"); // the knight guards e6
    fx_close(&fx);
    // Death Touch: the king takes a neighbour without moving, a guard too.
    fx_open(&fx, SETTINGS("armies=on"), "4k3/8/8/8/8/3ng3/4K3/8 w - - 0 1 armies:shadow/frost powers:death-touch/freeze");
    legal(&fx, "e2*d3");
    legal(&fx, "e2*e3");
    play(&fx, "e2*e3");
    assert_non_null(strstr(fx.text, "/3n4/4K3/"));
    fx_close(&fx);
}

/* tokens-per-turn (R-KD-27 makes "at most one" an inferred choice): with `one`
 * a second Freeze in the turn is refused; with `any` Freeze and Ice Wall may be declared
 * again on other pieces while tokens last, each piece under the power, and the turn that
 * spent them may still not give check. */
static void test_tokens_per_turn(void **state)
{
    (void)state;
    static const char *const FREEZE[8] = {
        ". . . . k . . .",
        ". . . p p p . .",
        ". . . . . . . .",
        ". . n . . . . .",
        ". . . . . . . .",
        ". . . B . . . .",
        ". . . P P P . .",
        ". . . . K . . R",
    };
    static const char *const ICE[8] = {
        "r . . . k . . .",
        ". . . . . . . .",
        ". . . . . . . .",
        ". . n . . . . .",
        ". . . . . . . .",
        ". N . B . . . .",
        ". . . . . . . .",
        ". . . . K . . .",
    };
    const char *freeze_tail = " w - - 0 1 armies:frost/mud powers:freeze/march";
    const char *ice_tail = " w - - 0 1 armies:frost/mud powers:ice-wall/march";
    Fx fx;
    fx_diagram(&fx, SETTINGS("armies=on", "tokens-per-turn=one"), FREEZE, freeze_tail);
    turn_refused(&fx, "freeze:c5; freeze:d7; e1d1", "one token per turn");
    play(&fx, "freeze:c5");
    illegal(&fx, "freeze:d7");
    fx_close(&fx);

    fx_diagram(&fx, SETTINGS("armies=on", "tokens-per-turn=any"), FREEZE, freeze_tail);
    play(&fx, "freeze:c5");
    illegal(&fx, "freeze:c5"); // a piece is frozen once
    illegal(&fx, "h1h8");      // a token turn may not give check
    play(&fx, "freeze:d7");
    assert_non_null(strstr(fx.text, "tokens:0/3 frozen:c5,d7"));
    illegal(&fx, "freeze:e7"); // both tokens are spent
    illegal(&fx, "h1h8");
    play(&fx, "e1d1");
    assert_non_null(strstr(fx.text, "frozen:c5,d7"));
    illegal(&fx, "c5d3"); // each frozen piece may not move
    illegal(&fx, "d7d6");
    illegal(&fx, "d7d5");
    legal(&fx, "e7e6");
    play(&fx, "e8f8");
    assert_true(strstr(fx.text, "frozen") == NULL); // both thaw after Black's turn
    fx_close(&fx);

    fx_diagram(&fx, SETTINGS("armies=on", "tokens-per-turn=any"), ICE, ice_tail);
    play(&fx, "ice-wall:d3");
    play(&fx, "ice-wall:b3");
    play(&fx, "b3a5"); // the mark follows the knight
    assert_non_null(strstr(fx.text, "iced:d3,a5"));
    illegal(&fx, "c5d3"); // both protected pieces are safe from capture
    illegal(&fx, "a8a5");
    legal(&fx, "a8a6");
    legal(&fx, "c5e4");
    fx_close(&fx);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_setup_classic),
        cmocka_unit_test(test_setup_drawn),
        cmocka_unit_test(test_pawns),
        cmocka_unit_test(test_displaced_pawn),
        cmocka_unit_test(test_archer),
        cmocka_unit_test(test_paladin),
        cmocka_unit_test(test_guard),
        cmocka_unit_test(test_maester),
        cmocka_unit_test(test_beast),
        cmocka_unit_test(test_check_and_mate),
        cmocka_unit_test(test_draws),
        cmocka_unit_test(test_can_win),
        cmocka_unit_test(test_castling),
        cmocka_unit_test(test_notation),
        cmocka_unit_test(test_move_cells_and_score),
        cmocka_unit_test(test_armies_choice),
        cmocka_unit_test(test_move_read),
        cmocka_unit_test(test_freeze_and_ice_wall),
        cmocka_unit_test(test_flame_stratus_mud),
        cmocka_unit_test(test_spirit_shadow),
        cmocka_unit_test(test_haste_each_move),
        cmocka_unit_test(test_tokens_per_turn),
        cmocka_unit_test(test_fidelity_options),
        cmocka_unit_test(test_observation),
        cmocka_unit_test(test_no_castling_out_of_check_after_declaring),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
