/*
 * test_kv_rules.c - King's Valley rules as board diagrams with hand-worked expectations.
 *
 * Each test draws a position (tests/support/diagram.h), names the game and rule settings,
 * and states what the rules (docs/games/kings-valley.md and its Rulings) say must
 * happen: which moves are legal, which are not and why, and the result after a move.
 * Every expectation is checked on the registered game through the game interface and on
 * the plain reference (tests/support/kv_reference.h), so these tests also vouch for the
 * oracle that the perft and random-game tests trust.
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
#include "support/diagram.h"
#include "support/kv_reference.h"

enum { TEXT_CAP = 128, LIST_CAP = 2048 };

#define DIAGRAM(rows) rows, (int)(sizeof rows / sizeof rows[0])
#define SETTINGS(list) list, (int)(sizeof list / sizeof list[0])
#define NO_SETTINGS NULL, 0

/* A position set up in both the registered game and the reference. */
typedef struct Fx {
    const char *game;
    Game *g;
    GameState *s;
    KvRefGame *ref;
    char text[TEXT_CAP];
} Fx;

static void fx_open_text(Fx *fx, const char *game, const char *const *settings, int n_settings,
                         const char *text)
{
    memset(fx, 0, sizeof *fx);
    fx->game = game;
    snprintf(fx->text, sizeof fx->text, "%s", text);
    const GameOps *ops = registry_find(game);
    if (ops == NULL)
        fail_msg("game %s is not registered", game);
    ErrBuf err;
    err_clear(&err);
    if (rule_text_create(ops, 0, settings, n_settings, &fx->g, &err) != STATUS_OK)
        fail_msg("%s: %s", game, err.msg);
    fx->s = game_state_new(fx->g);
    assert_non_null(fx->s);
    if (ops->parse_position(fx->g, fx->s, text, &err) != STATUS_OK)
        fail_msg("%s: position '%s' rejected: %s", game, text, err.msg);
    KvRefRules rules;
    char rerr[128];
    if (!kvref_rules_for(game, settings, n_settings, &rules, rerr, sizeof rerr))
        fail_msg("%s: %s", game, rerr);
    fx->ref = kvref_game_new(&rules, text, rerr, sizeof rerr);
    if (fx->ref == NULL)
        fail_msg("%s: reference rejects '%s': %s", game, text, rerr);
}

/* to_move is 1 or 2, as in the position text. */
static void fx_open(Fx *fx, const char *game, const char *const *settings, int n_settings,
                    const char *const *rows, int n_rows, int to_move, int ply)
{
    char text[TEXT_CAP];
    if (!diagram_position(rows, n_rows, to_move, ply, text, sizeof text))
        fail_msg("malformed diagram");
    fx_open_text(fx, game, settings, n_settings, text);
}

static void fx_close(Fx *fx)
{
    free(fx->ref);
    free(fx->s);
    game_destroy(fx->g);
    fx->g = NULL;
}

static int cmp_text(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sorts the space-separated words of `in` into `out`. */
static void sort_words(const char *in, char *out, size_t cap)
{
    char buf[LIST_CAP];
    snprintf(buf, sizeof buf, "%s", in);
    const char *words[256];
    int n = 0;
    char *save = NULL;
    for (char *w = strtok_r(buf, " ", &save); w != NULL && n < 256;
         w = strtok_r(NULL, " ", &save))
        words[n++] = w;
    qsort(words, (size_t)n, sizeof words[0], cmp_text);
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < n && len < cap; i++)
        len += (size_t)snprintf(out + len, cap - len, "%s%s", i ? " " : "", words[i]);
}

static void fast_moves(const Fx *fx, char *out, size_t cap)
{
    MoveList list;
    int n = fx->g->ops->gen_moves(fx->g, fx->s, &list);
    char joined[LIST_CAP];
    size_t len = 0;
    joined[0] = '\0';
    for (int i = 0; i < n; i++) {
        StrBuf sb;
        sb_init(&sb);
        fx->g->ops->format_move(fx->g, fx->s, list.moves[i], &sb);
        len += (size_t)snprintf(joined + len, sizeof joined - len, "%s%s", i ? " " : "",
                                sb_str(&sb));
        sb_free(&sb);
    }
    sort_words(joined, out, cap);
}

static void ref_moves(const Fx *fx, char *out, size_t cap)
{
    KvRefMove moves[KVREF_MAX_MOVES];
    int n = kvref_legal_moves(fx->ref, moves);
    char joined[LIST_CAP];
    size_t len = 0;
    joined[0] = '\0';
    for (int i = 0; i < n; i++) {
        char t[KVREF_MOVE_TEXT];
        kvref_format_move(moves[i], t);
        len += (size_t)snprintf(joined + len, sizeof joined - len, "%s%s", i ? " " : "", t);
    }
    sort_words(joined, out, cap);
}

/* Legal moves are exactly `list` (space-separated, any order). */
static void expect_moves(const Fx *fx, const char *list)
{
    char want[LIST_CAP], fast[LIST_CAP], ref[LIST_CAP];
    sort_words(list, want, sizeof want);
    fast_moves(fx, fast, sizeof fast);
    ref_moves(fx, ref, sizeof ref);
    if (strcmp(fast, want) != 0)
        fail_msg("%s '%s':\n  moves    %s\n  expected %s", fx->game, fx->text, fast, want);
    if (strcmp(ref, want) != 0)
        fail_msg("%s '%s':\n  reference %s\n  expected  %s", fx->game, fx->text, ref, want);
}

/* Both move lists are the same as those of another fixture (same board, other rules). */
static void expect_same_moves(const Fx *fx, const Fx *other)
{
    char a[LIST_CAP], b[LIST_CAP];
    fast_moves(fx, a, sizeof a);
    fast_moves(other, b, sizeof b);
    if (strcmp(a, b) != 0)
        fail_msg("%s '%s':\n  moves %s\n  other %s", fx->game, fx->text, a, b);
    ref_moves(fx, a, sizeof a);
    ref_moves(other, b, sizeof b);
    if (strcmp(a, b) != 0)
        fail_msg("%s '%s':\n  reference %s\n  other     %s", fx->game, fx->text, a, b);
}

static bool listed(const char *list, const char *move)
{
    char buf[LIST_CAP];
    snprintf(buf, sizeof buf, "%s", list);
    char *save = NULL;
    for (char *w = strtok_r(buf, " ", &save); w != NULL; w = strtok_r(NULL, " ", &save))
        if (strcmp(w, move) == 0)
            return true;
    return false;
}

static void expect_legal(const Fx *fx, const char *move)
{
    ErrBuf err;
    err_clear(&err);
    Move m;
    if (fx->g->ops->parse_move(fx->g, fx->s, move, &m, &err) != STATUS_OK)
        fail_msg("%s '%s': %s should be legal, got: %s", fx->game, fx->text, move, err.msg);
    char list[LIST_CAP];
    fast_moves(fx, list, sizeof list);
    if (!listed(list, move))
        fail_msg("%s '%s': %s accepted but not generated", fx->game, fx->text, move);
    KvRefMove rm;
    if (!kvref_find_move(fx->ref, move, &rm))
        fail_msg("%s '%s': reference says %s is illegal", fx->game, fx->text, move);
}

/* Rejected with a message, state untouched, not generated; `why` says which rule. */
static void expect_illegal(const Fx *fx, const char *move, const char *why)
{
    GameState *before = game_state_clone(fx->g, fx->s);
    assert_non_null(before);
    ErrBuf err;
    err_clear(&err);
    Move m;
    if (fx->g->ops->parse_move(fx->g, fx->s, move, &m, &err) == STATUS_OK)
        fail_msg("%s '%s': %s accepted (%s)", fx->game, fx->text, move, why);
    if (err.msg[0] == '\0')
        fail_msg("%s: %s rejected without a message", fx->game, move);
    if (memcmp(before, fx->s, fx->g->state_size) != 0)
        fail_msg("%s: rejecting %s changed the state", fx->game, move);
    free(before);
    char list[LIST_CAP];
    fast_moves(fx, list, sizeof list);
    if (listed(list, move))
        fail_msg("%s '%s': %s generated (%s)", fx->game, fx->text, move, why);
    KvRefMove rm;
    if (kvref_find_move(fx->ref, move, &rm))
        fail_msg("%s '%s': reference allows %s (%s)", fx->game, fx->text, move, why);
}

static void expect_result(const Fx *fx, KvRefResult want)
{
    static const char *const names[] = {"not over", "first player wins", "second player wins",
                                        "draw"};
    const char *why;
    KvRefResult ref = kvref_result(fx->ref, &why);
    if (ref != want)
        fail_msg("%s '%s': reference says %s (%s), expected %s", fx->game, fx->text,
                 names[ref], why, names[want]);
    const GameOps *ops = fx->g->ops;
    bool over = ops->to_move(fx->g, fx->s) == PLAYER_NONE;
    if (over != (want != KVREF_ONGOING))
        fail_msg("%s '%s': game %s, expected %s", fx->game, fx->text,
                 over ? "over" : "not over", names[want]);
    if (!over) {
        if (ops->to_move(fx->g, fx->s) != kvref_current(fx->ref)->to_move)
            fail_msg("%s '%s': wrong player to move", fx->game, fx->text);
        return;
    }
    double ret[MAX_PLAYERS] = {0};
    ops->returns(fx->g, fx->s, ret);
    double first = want == KVREF_FIRST_WINS ? 1 : want == KVREF_SECOND_WINS ? -1 : 0;
    if (ret[0] != first || ret[1] != -first)
        fail_msg("%s '%s': returns %g %g, expected %s", fx->game, fx->text, ret[0], ret[1],
                 names[want]);
    MoveList list;
    assert_int_equal(ops->gen_moves(fx->g, fx->s, &list), 0);
    StrBuf sb;
    sb_init(&sb);
    ops->describe_result(fx->g, fx->s, &sb);
    assert_true(sb_str(&sb)[0] != '\0');
    sb_free(&sb);
}

/* Plays a move (which must be legal) in both. */
static void play(Fx *fx, const char *move)
{
    expect_legal(fx, move);
    ErrBuf err;
    err_clear(&err);
    if (game_play_text(fx->g, fx->s, move, NULL, &err) != STATUS_OK)
        fail_msg("%s: playing %s: %s", fx->game, move, err.msg);
    KvRefMove rm;
    assert_true(kvref_find_move(fx->ref, move, &rm));
    kvref_play(fx->ref, rm);
    StrBuf sb;
    sb_init(&sb);
    fx->g->ops->format_position(fx->g, fx->s, &sb);
    snprintf(fx->text, sizeof fx->text, "%s", sb_str(&sb));
    sb_free(&sb);
}

/* --- slides --------------------------------------------------------------------------- */

static void test_slides_stop_at_edge_and_pieces(void **state)
{
    (void)state;
    static const char *const rows[] = {
        "s . k . s",
        ". . . . .",
        ". . . . .",
        ". . . . .",
        "S . K S S",
    };
    Fx fx;
    fx_open(&fx, "kings-valley", NO_SETTINGS, DIAGRAM(rows), 1, 4);
    /* a1: up to a4 (a5 stops it), diagonally over the empty Valley to d4 (e5 stops it),
     * right to b1 (the king stops it). c1 king: up to c4, to both edges diagonally, left
     * to b1; d1 blocked on both sides. d1: up to the edge d5, diagonally to a4 and e2.
     * e1: up to e4, diagonally over the Valley to b4. No slide stops part-way. */
    expect_moves(&fx, "a1-a4 a1-d4 a1-b1 c1-c4 c1-a3 c1-e3 c1-b1 d1-d5 d1-a4 d1-e2 "
                      "e1-e4 e1-b4");
    expect_illegal(&fx, "a1-a2", "a slide goes as far as it can");
    expect_illegal(&fx, "d1-d4", "a slide goes as far as it can");
    expect_illegal(&fx, "a1-a5", "a slide stops before a piece");
    fx_close(&fx);
}

static void test_soldier_may_not_stop_on_valley(void **state)
{
    (void)state;
    static const char *const rows[] = {
        ". . k . .",
        ". . s s .",
        ". . . . .",
        ". . . . .",
        "S . S . K",
    };
    Fx fx;
    fx_open(&fx, "kings-valley", NO_SETTINGS, DIAGRAM(rows), 1, 4);
    /* c1 up would end on the Valley c3 (c4 stops it), a1 diagonally too (d4 stops it):
     * both moves are forbidden and the soldiers do not stop one square short. The king
     * e1 slides over the empty Valley to a5. */
    expect_moves(&fx, "a1-a5 a1-b1 c1-a3 c1-b1 c1-d1 c1-e3 e1-a5 e1-d1 e1-e5");
    expect_illegal(&fx, "c1-c3", "a soldier may not stop on the Valley");
    expect_illegal(&fx, "a1-c3", "a soldier may not stop on the Valley");
    expect_illegal(&fx, "c1-c2", "a soldier does not stop short of the Valley");
    expect_illegal(&fx, "a1-b2", "a soldier does not stop short of the Valley");
    fx_close(&fx);
}

static void test_soldier_passes_over_valley(void **state)
{
    (void)state;
    static const char *const rows[] = {
        ". . k . .",
        ". . . . .",
        ". . . . .",
        ". . . . .",
        "S . S . K",
    };
    Fx fx;
    fx_open(&fx, "kings-valley", NO_SETTINGS, DIAGRAM(rows), 1, 4);
    expect_legal(&fx, "c1-c4"); /* over c3, stopped by the king on c5 */
    expect_legal(&fx, "a1-e5"); /* the whole diagonal, over c3 */
    play(&fx, "c1-c4");
    expect_result(&fx, KVREF_ONGOING);
    fx_close(&fx);
}

static void test_king_on_valley_wins(void **state)
{
    (void)state;
    static const char *const rows[] = {
        ". . k . .",
        ". . s . .",
        ". . . . .",
        ". . . . .",
        "S . K . S",
    };
    Fx fx;
    fx_open(&fx, "kings-valley", NO_SETTINGS, DIAGRAM(rows), 1, 4);
    play(&fx, "c1-c3"); /* stopped by c4, the king ends on the Valley */
    expect_result(&fx, KVREF_FIRST_WINS);
    fx_close(&fx);

    /* The second player's king, diagonally: e5 over d4 onto c3 (b2 stops it). */
    static const char *const rows2[] = {
        ". . . . k",
        ". . . . .",
        ". . . . .",
        ". S . . .",
        "S . K . S",
    };
    fx_open(&fx, "kings-valley", NO_SETTINGS, DIAGRAM(rows2), 2, 5);
    expect_result(&fx, KVREF_ONGOING);
    play(&fx, "e5-c3");
    expect_result(&fx, KVREF_SECOND_WINS);
    fx_close(&fx);
}

/* --- first move, locked kings, no move ------------------------------------------------- */

static void test_first_move_soldier(void **state)
{
    (void)state;
    static const char *const fms_off[] = {"first-move-soldier=off"};
    const char *start = kvref_start_text("kings-valley");
    Fx fx;
    fx_open_text(&fx, "kings-valley", NO_SETTINGS, start);
    expect_illegal(&fx, "c1-c4", "the first move of the game is a soldier's");
    expect_illegal(&fx, "c1-a3", "the first move of the game is a soldier's");
    expect_moves(&fx, "a1-a4 a1-d4 b1-a2 b1-b4 b1-e4 d1-a4 d1-d4 d1-e2 e1-b4 e1-e4");
    play(&fx, "a1-a4");
    /* Only the first ply: the second player's king may move at once (c5 over the
     * Valley to c2, stopped by the king on c1). */
    expect_legal(&fx, "c5-c2");
    fx_close(&fx);

    fx_open_text(&fx, "kings-valley", SETTINGS(fms_off), start);
    expect_legal(&fx, "c1-c4");
    expect_legal(&fx, "c1-a3");
    expect_legal(&fx, "c1-e3");
    fx_close(&fx);

    /* The same board later in a game: the king may move. */
    fx_open_text(&fx, "kings-valley", NO_SETTINGS, "sskss/5/5/5/SSKSS 1 2");
    expect_legal(&fx, "c1-c4");
    fx_close(&fx);
}

static void test_locked_king_loses(void **state)
{
    (void)state;
    static const char *const lkl_off[] = {"locked-king-loses=off"};
    static const char *const rows[] = {
        ". . k . .",
        ". . . . .",
        ". . . . .",
        "s s . . .",
        "K s . . S",
    };
    Fx fx;
    /* a1 has a2, b2, b1 occupied and the edge elsewhere: the first player, to move,
     * loses. */
    fx_open(&fx, "kings-valley", NO_SETTINGS, DIAGRAM(rows), 1, 6);
    expect_result(&fx, KVREF_SECOND_WINS);
    fx_close(&fx);

    /* Only the player to move is judged: with the second player to move, play goes on. */
    fx_open(&fx, "kings-valley", NO_SETTINGS, DIAGRAM(rows), 2, 7);
    expect_result(&fx, KVREF_ONGOING);
    fx_close(&fx);

    /* Without the rule the first player moves his soldier. */
    fx_open(&fx, "kings-valley", SETTINGS(lkl_off), DIAGRAM(rows), 1, 6);
    expect_result(&fx, KVREF_ONGOING);
    expect_moves(&fx, "e1-e5 e1-a5 e1-c1");
    fx_close(&fx);
}

static void test_valley_win_before_locked_king(void **state)
{
    (void)state;
    /* The first player's king stands on the Valley with all 8 neighbours occupied and
     * it is his turn: the Valley is checked first, so he has won, not lost. */
    static const char *const rows[] = {
        ". . k . .",
        ". S s S .",
        ". s K s .",
        ". S s S .",
        ". . . . .",
    };
    Fx fx;
    fx_open(&fx, "kings-valley", NO_SETTINGS, DIAGRAM(rows), 1, 10);
    expect_result(&fx, KVREF_FIRST_WINS);
    fx_close(&fx);
}

static void test_mover_locks_own_king(void **state)
{
    (void)state;
    static const char *const rows[] = {
        ". . k . .",
        ". . . . .",
        ". . . . .",
        "s s . . .",
        "K . . . S",
    };
    Fx fx;
    /* e1-b1 fills the last free square next to the mover's own king. The second player
     * is to move and free, so play goes on; if his reply leaves a1 boxed in, the first
     * player loses at the start of his turn. */
    fx_open(&fx, "kings-valley", NO_SETTINGS, DIAGRAM(rows), 1, 6);
    play(&fx, "e1-b1");
    expect_result(&fx, KVREF_ONGOING);
    play(&fx, "c5-c1"); /* over the Valley, stopped by the edge; a1 still boxed in */
    expect_result(&fx, KVREF_SECOND_WINS);
    fx_close(&fx);

    /* A reply that frees b2 saves him. */
    fx_open(&fx, "kings-valley", NO_SETTINGS, DIAGRAM(rows), 1, 6);
    play(&fx, "e1-b1");
    play(&fx, "b2-b5");
    expect_result(&fx, KVREF_ONGOING);
    expect_legal(&fx, "a1-e5"); /* the king's diagonal, over the empty Valley */
    fx_close(&fx);
}

static void test_no_legal_move(void **state)
{
    (void)state;
    static const char *const lkl_off[] = {"locked-king-loses=off"};
    static const char *const fms_off[] = {"first-move-soldier=off"};
    /* Every first-player piece is boxed in by the edge and rank 2. */
    static const char *const rows[] = {
        ". . . . .",
        ". . . . .",
        ". . . . .",
        "s s k s s",
        "K S S S S",
    };
    Fx fx;
    fx_open(&fx, "kings-valley", SETTINGS(lkl_off), DIAGRAM(rows), 1, 10);
    expect_result(&fx, KVREF_SECOND_WINS); /* no legal move: he loses */
    fx_close(&fx);
    /* With no-move=draw the same board is a draw. */
    static const char *const lkl_off_draw[] = {"locked-king-loses=off", "no-move=draw"};
    fx_open(&fx, "kings-valley", SETTINGS(lkl_off_draw), DIAGRAM(rows), 1, 10);
    expect_result(&fx, KVREF_DRAW);
    fx_close(&fx);
    fx_open(&fx, "kings-valley", SETTINGS(lkl_off), DIAGRAM(rows), 2, 11);
    expect_result(&fx, KVREF_ONGOING); /* the second player can move */
    fx_close(&fx);

    /* With locked-king-loses on, a player without moves but with a free king exists only
     * on ply 0: the soldiers are blocked and the first move may not be the king's. */
    static const char *const ply0[] = {
        ". . . . .",
        ". . K . .",
        ". . . . .",
        "s s k s s",
        "S S s S S",
    };
    fx_open(&fx, "kings-valley", NO_SETTINGS, DIAGRAM(ply0), 1, 0);
    expect_result(&fx, KVREF_SECOND_WINS);
    fx_close(&fx);
    fx_open(&fx, "kings-valley", SETTINGS(fms_off), DIAGRAM(ply0), 1, 0);
    expect_result(&fx, KVREF_ONGOING);
    /* Down, the king stops on the Valley (c2 is occupied): that move wins at once. */
    expect_moves(&fx, "c4-a4 c4-b3 c4-b5 c4-c3 c4-c5 c4-d3 c4-d5 c4-e4");
    fx_close(&fx);
}

/* --- draws ------------------------------------------------------------------------------- */

static void test_max_plies(void **state)
{
    (void)state;
    static const char *const max10[] = {"max-plies=10"};
    static const char *const max10_lkl_off[] = {"max-plies=10", "locked-king-loses=off"};
    static const char *const rows[] = {
        ". . k . s",
        ". . . . .",
        ". . . . .",
        ". . S . .",
        "S . K . S",
    };
    Fx fx;
    fx_open(&fx, "kings-valley", SETTINGS(max10), DIAGRAM(rows), 2, 9);
    expect_result(&fx, KVREF_ONGOING);
    play(&fx, "e5-e2"); /* the tenth ply */
    expect_result(&fx, KVREF_DRAW);
    fx_close(&fx);

    /* On the last ply a king reaching the Valley still wins. */
    fx_open(&fx, "kings-valley", SETTINGS(max10), DIAGRAM(rows), 2, 9);
    play(&fx, "c5-c3");
    expect_result(&fx, KVREF_SECOND_WINS);
    fx_close(&fx);

    /* A position set up at the limit is drawn... */
    fx_open(&fx, "kings-valley", SETTINGS(max10), DIAGRAM(rows), 1, 10);
    expect_result(&fx, KVREF_DRAW);
    fx_close(&fx);

    /* ...unless the player to move has a locked king: that is tested before the draw. */
    static const char *const locked[] = {
        ". . k . .",
        ". . . . .",
        ". . . . .",
        "s s . . .",
        "K s . . S",
    };
    fx_open(&fx, "kings-valley", SETTINGS(max10), DIAGRAM(locked), 1, 10);
    expect_result(&fx, KVREF_SECOND_WINS);
    fx_close(&fx);
    fx_open(&fx, "kings-valley", SETTINGS(max10_lkl_off), DIAGRAM(locked), 1, 10);
    expect_result(&fx, KVREF_DRAW);
    fx_close(&fx);

    /* The default limit is 300 plies. */
    fx_open(&fx, "kings-valley", NO_SETTINGS, DIAGRAM(rows), 2, 299);
    play(&fx, "e5-e2");
    expect_result(&fx, KVREF_DRAW);
    fx_close(&fx);
}

static void test_threefold_repetition(void **state)
{
    (void)state;
    /* a4 and a2 shuttle along empty ranks: every 4 plies the position comes back with
     * the first player to move. */
    static const char *const rows[] = {
        ". . k . .",
        "S . . . .",
        ". . . . .",
        "s . . . .",
        ". . K . .",
    };
    static const char *const cycle[] = {"a4-e4", "a2-e2", "e4-a4", "e2-a2"};
    Fx fx;
    fx_open(&fx, "kings-valley", NO_SETTINGS, DIAGRAM(rows), 1, 10);
    for (int i = 0; i < 7; i++) {
        play(&fx, cycle[i % 4]);
        expect_result(&fx, KVREF_ONGOING); /* at most the second occurrence */
    }
    play(&fx, cycle[3]); /* the third occurrence of the set-up position */
    expect_result(&fx, KVREF_DRAW);
    fx_close(&fx);

    /* With repetition=off (the printed rules have no draw) the cycle goes on: only the ply
     * limit ends it. */
    static const char *const no_repetition[] = {"repetition=off"};
    fx_open(&fx, "kings-valley", SETTINGS(no_repetition), DIAGRAM(rows), 1, 10);
    for (int i = 0; i < 40; i++) {
        play(&fx, cycle[i % 4]);
        expect_result(&fx, KVREF_ONGOING);
    }
    fx_close(&fx);

    /* Positions count only since the set-up: the same board set up after one cycle has
     * one occurrence behind it, not two. */
    fx_open(&fx, "kings-valley", NO_SETTINGS, DIAGRAM(rows), 1, 14);
    for (int i = 0; i < 4; i++)
        play(&fx, cycle[i]);
    expect_result(&fx, KVREF_ONGOING);
    fx_close(&fx);
}

/* --- the other boards ----------------------------------------------------------------------- */

static void test_start_positions(void **state)
{
    (void)state;
    static const char *const games[] = {"kings-valley", "retrieve-the-king", "kings-valley-7x7",
                                        "kings-valley-labyrinth"};
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        const GameOps *ops = registry_find(games[i]);
        assert_non_null(ops);
        Game *g = NULL;
        ErrBuf err;
        assert_int_equal(game_create(ops, 0, NULL, 0, &g, &err), STATUS_OK);
        GameState *s = game_state_new(g);
        ops->new_game(g, s, 1);
        StrBuf sb;
        sb_init(&sb);
        ops->format_position(g, s, &sb);
        assert_string_equal(sb_str(&sb), kvref_start_text(games[i]));
        sb_free(&sb);
        free(s);
        game_destroy(g);
    }
    assert_string_equal(kvref_start_text("retrieve-the-king"), "ssKss/5/5/5/SSkSS 1 0");
    assert_string_equal(kvref_start_text("kings-valley-7x7"), "sssksss/7/7/7/7/7/SSSKSSS 1 0");
    assert_string_equal(kvref_start_text("kings-valley-labyrinth"),
                        "sssksss/7/1#3#1/7/1#3#1/7/SSSKSSS 1 0");
}

static void test_retrieve_the_king(void **state)
{
    (void)state;
    Fx fx;
    fx_open_text(&fx, "retrieve-the-king", NO_SETTINGS, "ssKss/5/5/5/SSkSS 1 0");
    /* The first player's king is on c5 among the enemy soldiers and may not move first. */
    expect_moves(&fx, "a1-a4 a1-d4 b1-a2 b1-b4 b1-e4 d1-a4 d1-d4 d1-e2 e1-b4 e1-e4");
    expect_illegal(&fx, "c5-c2", "the first move of the game is a soldier's");
    play(&fx, "a1-a4");
    /* The second player's king on c1: up over the Valley to c4 (stopped by the king on
     * c5), or diagonally to the edges. */
    expect_legal(&fx, "c1-c4");
    expect_legal(&fx, "c1-a3");
    expect_legal(&fx, "c1-e3");
    fx_close(&fx);
}

static void test_labyrinth_pillars(void **state)
{
    (void)state;
    static const char *const lkl_off[] = {"locked-king-loses=off"};
    Fx fx;
    fx_open_text(&fx, "kings-valley-labyrinth", NO_SETTINGS,
                 "sssksss/7/1#3#1/7/1#3#1/7/SSSKSSS 1 0");
    expect_legal(&fx, "b1-b2"); /* the pillar on b3 stops it */
    expect_illegal(&fx, "b1-b6", "a slide stops at a pillar");
    expect_legal(&fx, "b1-e4"); /* the pillar on f5 stops the diagonal */
    expect_legal(&fx, "f1-f2");
    expect_illegal(&fx, "b3-b4", "a pillar is nobody's piece");
    fx_close(&fx);

    /* Pillars count as occupied neighbours of a king: a4 has pillars on b3 and b5. */
    static const char *const rows[] = {
        ". . . k . . .",
        ". . . . . . .",
        "s # . . . # .",
        "K s . . . . .",
        "s # . . . # .",
        ". . . . . . .",
        ". . . . . . S",
    };
    fx_open(&fx, "kings-valley-labyrinth", NO_SETTINGS, DIAGRAM(rows), 1, 12);
    expect_result(&fx, KVREF_SECOND_WINS);
    fx_close(&fx);
    fx_open(&fx, "kings-valley-labyrinth", SETTINGS(lkl_off), DIAGRAM(rows), 1, 12);
    expect_moves(&fx, "g1-a1 g1-g7 g1-a7"); /* g1-a7 passes over the Valley d4 */
    fx_close(&fx);
}

/* --- the 7x7 trap-prevention rule ---------------------------------------------------------- */

static void test_trap_move_closing_last_path_illegal(void **state)
{
    (void)state;
    static const char *const trap_opp[] = {"trap=opponent"};
    static const char *const trap_off[] = {"trap=off"};
    /* b1-g6 slides up the diagonal and completes a box of first-player pieces (f7, f6,
     * g6) around the king on g7: the second player could never move his king again, so
     * no path of his to the Valley remains. Locking the opponent's king gets no
     * exemption. Other moves keep both paths open (the first player's: a5-d5, d1-d4;
     * the second's: g7-g4, g4-d4), so the filter is not suspended. */
    static const char *const rows[] = {
        ". . . . . S k",
        ". . . . . S .",
        "S . . . s . .",
        ". . s . . . .",
        ". . . . . . s",
        ". . . . . . .",
        ". S . K . . .",
    };
    Fx fx;
    fx_open(&fx, "kings-valley-7x7", NO_SETTINGS, DIAGRAM(rows), 1, 20);
    expect_illegal(&fx, "b1-g6", "it closes every path of the opponent's king (trap=both)");
    expect_legal(&fx, "a5-d5");
    fx_close(&fx);
    fx_open(&fx, "kings-valley-7x7", SETTINGS(trap_opp), DIAGRAM(rows), 1, 20);
    expect_illegal(&fx, "b1-g6", "it closes every path of the opponent's king (trap=opponent)");
    fx_close(&fx);
    /* Without the rule (and on the Labyrinth's rules) the move is legal and wins. */
    fx_open(&fx, "kings-valley-7x7", SETTINGS(trap_off), DIAGRAM(rows), 1, 20);
    play(&fx, "b1-g6");
    expect_result(&fx, KVREF_FIRST_WINS);
    fx_close(&fx);
}

static void test_trap_both_checks_own_path(void **state)
{
    (void)state;
    static const char *const trap_opp[] = {"trap=opponent"};
    /* After g4-g2 the first player's king needs 5 moves of his own to reach the Valley
     * (4 now; 3 after g4-d1), found by exhaustive search in the reference and in a
     * separate script. trap=both forbids closing one's own path too; trap=opponent does
     * not look at it. The second player keeps his path (f5-e4 region, 2 moves). */
    static const char *const rows[] = {
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . k s",
        ". . . . . S K",
        ". . . s . . .",
        ". . . . . . .",
        ". . . . . . S",
    };
    Fx fx;
    fx_open(&fx, "kings-valley-7x7", NO_SETTINGS, DIAGRAM(rows), 1, 20);
    expect_illegal(&fx, "g4-g2", "it closes the mover's own path (trap=both)");
    expect_legal(&fx, "g4-d1");
    fx_close(&fx);
    fx_open(&fx, "kings-valley-7x7", SETTINGS(trap_opp), DIAGRAM(rows), 1, 20);
    expect_legal(&fx, "g4-g2");
    expect_legal(&fx, "g4-d1");
    fx_close(&fx);
}

static void test_trap_fallback(void **state)
{
    (void)state;
    static const char *const both_lkl_off[] = {"locked-king-loses=off"};
    static const char *const opp_lkl_off[] = {"trap=opponent", "locked-king-loses=off"};
    static const char *const off_lkl_off[] = {"trap=off", "locked-king-loses=off"};
    /* The first player's king on a1 is walled in by second-player pieces (a2, b2, b1),
     * which he can never move: whatever he plays, his own king has no path, so trap=both
     * would remove every move. The filter is then suspended for the turn: all moves are
     * legal, even c2-g6, which boxes in the king on g7. With trap=opponent only the
     * opponent's path counts, so c2-g6 stays illegal there. */
    static const char *const rows[] = {
        ". . . . . S k",
        ". . . . . S .",
        ". . . . . . .",
        ". . s . . . .",
        ". . . . . . s",
        "s s S . . . .",
        "K s . . . . .",
    };
    Fx both, opp, off;
    fx_open(&both, "kings-valley-7x7", SETTINGS(both_lkl_off), DIAGRAM(rows), 1, 30);
    fx_open(&opp, "kings-valley-7x7", SETTINGS(opp_lkl_off), DIAGRAM(rows), 1, 30);
    fx_open(&off, "kings-valley-7x7", SETTINGS(off_lkl_off), DIAGRAM(rows), 1, 30);
    expect_same_moves(&both, &off);
    expect_legal(&both, "c2-g6");
    expect_illegal(&opp, "c2-g6", "it closes every path of the opponent's king");
    expect_legal(&opp, "c2-c3");
    fx_close(&off);
    fx_close(&opp);
    fx_close(&both);
}

static void test_trap_valley_move_exempt(void **state)
{
    (void)state;
    static const char *const trap_opp[] = {"trap=opponent"};
    /* d1-d4 puts the mover's king on the Valley. The occupied Valley leaves the opponent
     * no path, but such a move is exempt: it is legal and wins. */
    static const char *const rows[] = {
        ". . . k . . .",
        ". . . . . . .",
        ". . . S . . .",
        ". . . . . . .",
        ". . . . . . .",
        ". . . . . . .",
        ". . . K . . .",
    };
    Fx fx;
    fx_open(&fx, "kings-valley-7x7", NO_SETTINGS, DIAGRAM(rows), 1, 20);
    play(&fx, "d1-d4");
    expect_result(&fx, KVREF_FIRST_WINS);
    fx_close(&fx);
    fx_open(&fx, "kings-valley-7x7", SETTINGS(trap_opp), DIAGRAM(rows), 1, 20);
    expect_legal(&fx, "d1-d4");
    fx_close(&fx);
}

/* --- move texts ----------------------------------------------------------------------------- */

static void test_bad_move_texts(void **state)
{
    (void)state;
    Fx fx;
    fx_open_text(&fx, "kings-valley", NO_SETTINGS, "sskss/5/5/5/SSKSS 1 2");
    expect_illegal(&fx, "z9-a1", "off the board");
    expect_illegal(&fx, "a1-a9", "off the board");
    expect_illegal(&fx, "c1c4", "no dash");
    expect_illegal(&fx, "c1-c1", "not a move");
    expect_illegal(&fx, "c5-c2", "the opponent's king");
    expect_illegal(&fx, "a5-a2", "the opponent's soldier");
    expect_illegal(&fx, "c3-c4", "an empty square");
    expect_illegal(&fx, "a1-a3", "the slide goes on to a4");
    expect_illegal(&fx, "a1-b3", "not a straight line");
    expect_illegal(&fx, "", "empty");
    expect_illegal(&fx, "c1-", "no destination");
    expect_legal(&fx, "c1-c4");
    fx_close(&fx);
}

/* A position text the rules cannot accept: an error with a message, the state unchanged,
 * and the reference refuses it too. */
static void expect_bad_position(const char *game, const char *text, const char *why)
{
    Fx fx;
    fx_open_text(&fx, game, NO_SETTINGS, kvref_start_text(game));
    GameState *before = game_state_clone(fx.g, fx.s);
    assert_non_null(before);
    ErrBuf err;
    err_clear(&err);
    if (fx.g->ops->parse_position(fx.g, fx.s, text, &err) == STATUS_OK)
        fail_msg("%s: position '%s' accepted (%s)", game, text, why);
    if (err.msg[0] == '\0')
        fail_msg("%s: position '%s' rejected without a message", game, text);
    if (memcmp(before, fx.s, fx.g->state_size) != 0)
        fail_msg("%s: rejecting '%s' changed the state", game, text);
    free(before);
    KvRefRules rules;
    KvRefPos pos;
    char rerr[128];
    assert_true(kvref_rules_for(game, NULL, 0, &rules, rerr, sizeof rerr));
    if (kvref_parse_position(&rules, text, &pos, rerr, sizeof rerr))
        fail_msg("%s: reference accepts '%s' (%s)", game, text, why);
    fx_close(&fx);
}

static void test_bad_position_texts(void **state)
{
    (void)state;
    expect_bad_position("kings-valley", "sskss/5/5/5/SSKSSK 1 0", "six squares on rank 1");
    expect_bad_position("kings-valley", "sskss/5/5/5/SSKSSS 1 0", "six squares on rank 1");
    expect_bad_position("kings-valley", "ssksss/5/5/5/SSKSS 1 0", "six squares on rank 5");
    expect_bad_position("kings-valley", "sskss/5/5/5/SSKS 1 0", "four squares on rank 1");
    expect_bad_position("kings-valley", "sskss/5/5/5 1 0", "four ranks");
    expect_bad_position("kings-valley", "sskss/5/5/5/SSKSS/5 1 0", "six ranks");
    expect_bad_position("kings-valley", "ssss1/5/5/5/SSKSS 1 0", "no second king");
    expect_bad_position("kings-valley", "sskss/5/5/5/SSKKS 1 0", "two first kings");
    expect_bad_position("kings-valley", "sskss/5/2s2/5/SSKSS 1 0", "a soldier on the Valley");
    expect_bad_position("kings-valley", "sskss/5/5/5/SSKSx 1 0", "not a piece");
    expect_bad_position("kings-valley", "sskss/5/5/5/SSKSS 3 0", "no player 3");
    expect_bad_position("kings-valley", "sskss/5/5/5/SSKSS 1", "no ply count");
    expect_bad_position("kings-valley", "sskss/5/5/5/SSKSS 1 -1", "negative ply count");
    expect_bad_position("kings-valley", "sskss/5/5/5/SSKSS 1 0 x", "text after the ply count");
    expect_bad_position("kings-valley", "sskss/5/1#3/5/SSKSS 1 0", "no pillars on 5x5");
    expect_bad_position("kings-valley-7x7", "sssksss/7/1#3#1/7/1#3#1/7/SSSKSSS 1 0",
                        "no pillars on the 7x7 board");
    expect_bad_position("kings-valley-labyrinth", "sssksss/7/7/7/7/7/SSSKSSS 1 0",
                        "the Labyrinth has its four pillars");
    expect_bad_position("kings-valley-labyrinth", "sssksss/7/1#3#1/7/1#3#1/7/SSSKSSS# 1 0",
                        "eight squares on rank 1");
}

/* An optional argument runs only the tests whose names match it (cmocka pattern). */
int main(int argc, char **argv)
{
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slides_stop_at_edge_and_pieces),
        cmocka_unit_test(test_soldier_may_not_stop_on_valley),
        cmocka_unit_test(test_soldier_passes_over_valley),
        cmocka_unit_test(test_king_on_valley_wins),
        cmocka_unit_test(test_first_move_soldier),
        cmocka_unit_test(test_locked_king_loses),
        cmocka_unit_test(test_valley_win_before_locked_king),
        cmocka_unit_test(test_mover_locks_own_king),
        cmocka_unit_test(test_no_legal_move),
        cmocka_unit_test(test_max_plies),
        cmocka_unit_test(test_threefold_repetition),
        cmocka_unit_test(test_start_positions),
        cmocka_unit_test(test_retrieve_the_king),
        cmocka_unit_test(test_labyrinth_pillars),
        cmocka_unit_test(test_trap_move_closing_last_path_illegal),
        cmocka_unit_test(test_trap_both_checks_own_path),
        cmocka_unit_test(test_trap_fallback),
        cmocka_unit_test(test_trap_valley_move_exempt),
        cmocka_unit_test(test_bad_move_texts),
        cmocka_unit_test(test_bad_position_texts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
