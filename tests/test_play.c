/*
 * test_play.c - the play layer (src/play) and the reading it shares with records: whole
 * turns read right and refused without a change, one action as typed and what comes
 * next, chance outcomes by their text, undo to the start of a seat's last turn across
 * chance draws and turns of several actions, seat names, players' texts and who may act,
 * result texts, records whose game the caller's lookup does not know; the hint agent,
 * the clock, the flag rule and the ends outside the rules.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/game_api.h"
#include "core/record.h"
#include "core/rng.h"
#include "core/strbuf.h"
#include "play/chances.h"
#include "play/clock.h"
#include "play/finish.h"
#include "play/hint.h"
#include "play/registry.h"
#include "play/seats.h"
#include "play/spelling.h"
#include "play/turn.h"
#include "play/undo.h"
#include "play/words.h"
#include "support/positions.h"

static Game *make_game(const char *name, int players)
{
    const GameOps *ops = registry_find(name);
    assert_non_null(ops);
    Game *g = NULL;
    ErrBuf err;
    if (game_create(ops, players, NULL, 0, &g, &err) != STATUS_OK)
        fail_msg("%s: %s", name, err.msg);
    return g;
}

/* A record of g from its start position `text` (NULL: a new game with seed 1). */
static void open_record(GameRecord *r, Game *g, const char *text)
{
    GameState *s = test_position(g, text);
    ErrBuf err;
    assert_int_equal(record_init(r, g, s, &err), STATUS_OK);
    free(s);
}

/* A record of a King's Valley game from `text` (NULL: the start of seed 1); its game. */
static Game *open_kv(GameRecord *r, const char *text)
{
    Game *g = make_game("kings-valley", 0);
    open_record(r, g, text);
    return g;
}

/* Game gi of the registry from its start (seed 1) in r, and rng seeded with seed + gi. */
static const GameOps *open_registered(int gi, uint64_t seed, GameRecord *r, Rng *rng)
{
    const GameOps *ops = registry_at(gi);
    open_record(r, make_game(ops->name, 0), NULL);
    rng_seed(rng, seed + (uint64_t)gi);
    return ops;
}

/* A uniformly random legal action, or a chance outcome drawn by its probabilities. */
static Move random_action(const Game *g, const GameState *s, Rng *rng)
{
    if (g->ops->to_move(g, s) == PLAYER_CHANCE)
        return game_sample_chance(g, s, rng);
    MoveList *ml = malloc(sizeof *ml);
    assert_non_null(ml);
    g->ops->gen_moves(g, s, ml);
    assert_true(ml->count > 0);
    const Move m = ml->moves[rng_below(rng, (uint32_t)ml->count)];
    free(ml);
    return m;
}

static void play_text(GameRecord *r, const char *text)
{
    Move acts[PLAY_TURN_CAP];
    int n = 0;
    ErrBuf err;
    if (play_parse_turn(r->game, r->current, text, acts, PLAY_TURN_CAP, &n, &err) != STATUS_OK)
        fail_msg("'%s': %s", text, err.msg);
    for (int i = 0; i < n; i++)
        assert_int_equal(record_push(r, acts[i], &err), STATUS_OK);
}

static void format_position(const GameRecord *r, StrBuf *out)
{
    sb_clear(out);
    r->game->ops->format_position(r->game, r->current, out);
}

/* Refuses `text` at r's position with a message containing `why`, changing nothing. */
static void expect_turn_refused(const GameRecord *r, const char *text, const char *why)
{
    GameState *before = game_state_clone(r->game, r->current);
    assert_non_null(before);
    Move acts[PLAY_TURN_CAP];
    int n = -1;
    ErrBuf err;
    err_clear(&err);
    if (play_parse_turn(r->game, r->current, text, acts, PLAY_TURN_CAP, &n, &err) == STATUS_OK)
        fail_msg("'%s' was accepted", text);
    assert_int_equal(n, 0);
    if (strstr(err.msg, why) == NULL)
        fail_msg("'%s': message '%s' lacks '%s'", text, err.msg, why);
    assert_memory_equal(before, r->current, r->game->state_size);
    free(before);
}

/* --- whole turns --------------------------------------------------------------------- */

/* In every game, a player's run of actions written with ';' reads back as those actions;
 * one action more, after the turn has passed, is refused with nothing changed. */
static void test_whole_turns_round_trip_in_every_game(void **state)
{
    (void)state;
    for (int gi = 0; gi < registry_count(); gi++) {
        GameRecord r;
        Rng rng;
        const GameOps *ops = open_registered(gi, 7, &r, &rng);
        const Game *g = r.game;
        GameState *scratch = game_state_new(g);
        void *undo = game_undo_new(g);
        StrBuf text, one;
        sb_init(&text);
        sb_init(&one);
        int turns = 0;
        for (int step = 0; step < 60 && !game_is_over(g, r.current); step++) {
            const int p = ops->to_move(g, r.current);
            if (p == PLAYER_CHANCE) {
                ErrBuf err;
                assert_int_equal(record_push(&r, random_action(g, r.current, &rng), &err),
                                 STATUS_OK);
                continue;
            }
            // The run of p's actions from here, written one text per action.
            Move run[PLAY_TURN_CAP];
            int n = 0;
            game_state_copy(g, scratch, r.current);
            sb_clear(&text);
            while (n < 8 && ops->to_move(g, scratch) == p) {
                run[n] = random_action(g, scratch, &rng);
                sb_clear(&one);
                ops->format_move(g, scratch, run[n], &one);
                sb_printf(&text, "%s%s", n ? "; " : "", sb_str(&one));
                ops->make(g, scratch, run[n++], undo);
            }
            Move acts[PLAY_TURN_CAP];
            int got = 0;
            ErrBuf err;
            if (ops->to_move(g, scratch) != p) {
                if (play_parse_turn(g, r.current, sb_str(&text), acts, PLAY_TURN_CAP, &got,
                                    &err) != STATUS_OK)
                    fail_msg("%s: '%s': %s", ops->name, sb_str(&text), err.msg);
                assert_int_equal(got, n);
                assert_memory_equal(acts, run, sizeof run[0] * (size_t)n);
                turns++;
                // One action of the next player's written after the turn: refused.
                if (!game_is_over(g, scratch) && ops->to_move(g, scratch) >= 0) {
                    const Move next = random_action(g, scratch, &rng);
                    sb_clear(&one);
                    ops->format_move(g, scratch, next, &one);
                    sb_printf(&text, "; %s", sb_str(&one));
                    GameState *before = game_state_clone(g, r.current);
                    if (play_parse_turn(g, r.current, sb_str(&text), acts, PLAY_TURN_CAP,
                                        &got, &err) == STATUS_OK)
                        fail_msg("%s: '%s' was accepted", ops->name, sb_str(&text));
                    assert_int_equal(got, 0);
                    assert_memory_equal(before, r.current, g->state_size);
                    free(before);
                }
            }
            for (int i = 0; i < n && ops->to_move(g, r.current) == p; i++)
                assert_int_equal(record_push(&r, run[i], &err), STATUS_OK);
        }
        if (turns == 0)
            fail_msg("%s: no whole turn was tried", ops->name);
        sb_free(&text);
        sb_free(&one);
        free(scratch);
        free(undo);
        record_free(&r);
    }
}

static void test_turn_errors_change_nothing(void **state)
{
    (void)state;
    GameRecord r;
    Game *g = open_kv(&r, NULL);
    expect_turn_refused(&r, "", "no move given");
    expect_turn_refused(&r, " ; ;", "no move given");
    expect_turn_refused(&r, "zz", "");
    expect_turn_refused(&r, "c1-c4", "soldier");
    expect_turn_refused(&r, "b1-b4; b5-b2", "comes after your turn is over");
    expect_turn_refused(&r, "b1-b4; zz", "");
    play_text(&r, "b1-b4");
    assert_int_equal(r.count, 1);
    record_free(&r);

    // A game that is over, and a game waiting for chance, take no player's turn.
    g = open_kv(&r, "ss1ss/2k2/5/5/SSKSS 1 2");
    play_text(&r, "c1-c3");
    assert_true(game_is_over(r.game, r.current));
    expect_turn_refused(&r, "b5-b4", "the game is over");
    record_free(&r);

    g = make_game("king-of-the-valley", 2);
    open_record(&r, g, NULL);
    Rng rng;
    rng_seed(&rng, 3);
    ErrBuf err;
    while (g->ops->to_move(g, r.current) != PLAYER_CHANCE)
        assert_int_equal(record_push(&r, random_action(g, r.current, &rng), &err), STATUS_OK);
    expect_turn_refused(&r, "place c4", "chance acts next");
    record_free(&r);
}

/* King's Guard reads a whole turn through its own parse_actions hook. */
static void test_kings_guard_whole_turn(void **state)
{
    (void)state;
    Game *g = make_game("kings-guard-8x8", 0);
    GameRecord r;
    open_record(&r, g, "7k/8/3G4/8/3G4/8/8/K7 2 1");
    StrBuf pos;
    sb_init(&pos);
    expect_turn_refused(&r, "h8-h7; a1", "comes after your turn has ended");
    expect_turn_refused(&r, "d6", "opponent");
    play_text(&r, "h8-h7");
    assert_int_equal(r.game->ops->to_move(r.game, r.current), 0);
    assert_true(r.count >= 2); // pick up, then place: one turn of several actions
    format_position(&r, &pos);
    assert_string_equal(sb_str(&pos), "8/7k/3G4/8/3G4/8/8/K7 1 2");
    sb_free(&pos);
    record_free(&r);
}

/* --- what players type ------------------------------------------------------------- */

/* Parses text in r's position; the number of actions (0: refused) into acts. */
static int parse_count(const GameRecord *r, const char *text, Move *acts)
{
    int n = 0;
    ErrBuf err;
    if (play_parse_turn(r->game, r->current, text, acts, PLAY_TURN_CAP, &n, &err) != STATUS_OK)
        return 0;
    return n;
}

/* Every action of random games, written in upper case and with the dash between its
 * squares put in or taken out, reads as the same actions as the game's own text. */
static void test_respelled_moves_in_every_game(void **state)
{
    (void)state;
    int checked = 0;
    for (int gi = 0; gi < registry_count(); gi++) {
        GameRecord r;
        Rng rng;
        const GameOps *ops = open_registered(gi, 31, &r, &rng);
        const Game *g = r.game;
        StrBuf one;
        sb_init(&one);
        for (int step = 0; step < 40 && !game_is_over(g, r.current); step++) {
            const Move m = random_action(g, r.current, &rng);
            ErrBuf err;
            if (ops->to_move(g, r.current) >= 0) {
                sb_clear(&one);
                ops->format_move(g, r.current, m, &one);
                Move want[PLAY_TURN_CAP], got[PLAY_TURN_CAP];
                const int n = parse_count(&r, sb_str(&one), want);
                char alt[PLAY_SPELLING_MAX][64];
                const int n_alt = n ? play_respellings(sb_str(&one), alt, sizeof alt[0]) : 0;
                for (int k = 0; k < n_alt; k++) {
                    // Upper case and dashes only: words of the notation keep their case.
                    if (strspn(sb_str(&one), "abcdefghijklm0123456789-,") != strlen(sb_str(&one)))
                        continue;
                    char upper[64];
                    size_t i = 0;
                    for (; alt[k][i]; i++)
                        upper[i] = (char)(alt[k][i] >= 'a' && alt[k][i] <= 'z' ? alt[k][i] - 32 : alt[k][i]);
                    upper[i] = '\0';
                    const int m2 = parse_count(&r, upper, got);
                    if (m2 == 0)
                        continue; // a respelling that is no move at all (d4 -> d-4 never is)
                    if (m2 != n || memcmp(want, got, (size_t)n * sizeof *got) != 0)
                        fail_msg("%s: '%s' read otherwise than '%s'", ops->name, upper, sb_str(&one));
                    checked++;
                }
            }
            assert_int_equal(record_push(&r, m, &err), STATUS_OK);
        }
        sb_free(&one);
        record_free(&r);
    }
    assert_true(checked > 50);
}

/* The spellings players use, in the games where they mean one move. */
static void test_typed_spellings(void **state)
{
    (void)state;
    GameRecord r;
    Game *g = open_kv(&r, NULL);
    Move want[PLAY_TURN_CAP], got[PLAY_TURN_CAP];
    assert_int_equal(parse_count(&r, "a1-a4", want), 1);
    static const char *const kv[] = {"A1-A4", "a1a4", "A1A4", " a1A4"};
    for (size_t k = 0; k < sizeof kv / sizeof *kv; k++) {
        assert_int_equal(parse_count(&r, kv[k], got), 1);
        assert_true(got[0] == want[0]);
    }
    // A refused text keeps the error about what was typed, and changes nothing.
    int n = 5;
    ErrBuf err;
    assert_int_equal(play_parse_turn(g, r.current, "a1a3", got, PLAY_TURN_CAP, &n, &err),
                     STATUS_ILLEGAL);
    assert_int_equal(n, 0);
    record_free(&r);

    g = make_game("king-down", 0);
    open_record(&r, g, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_int_equal(parse_count(&r, "e2e4", want), 1);
    static const char *const kd[] = {"E2E4", "e2-e4", "E2-E4"};
    for (size_t k = 0; k < sizeof kd / sizeof *kd; k++) {
        assert_int_equal(parse_count(&r, kd[k], got), 1);
        assert_true(got[0] == want[0]);
    }
    record_free(&r);

    g = make_game("kings-guard-8x8", 0);
    open_record(&r, g, "7k/8/3G4/8/3G4/8/8/K7 2 1");
    const int nk = parse_count(&r, "h8-h7", want);
    assert_true(nk >= 2);
    assert_int_equal(parse_count(&r, "H8H7", got), nk);
    assert_memory_equal(got, want, (size_t)nk * sizeof *got);
    record_free(&r);
}

/* Hints in words: chances from scores, exact results as distances; a scale per game. */
static void test_chance_words(void **state)
{
    (void)state;
    Game *g = make_game("kings-valley", 0);
    SearchResult r;
    memset(&r, 0, sizeof r);
    r.has_score = true;
    assert_true(fabs(play_win_chance(g, &r) - 0.5) < 1e-9);
    // A score of the game's scale is e^1 to 1 for the mover, whatever the fit made it.
    const int scale = (int)lround(play_chance_scale("kings-valley"));
    r.score = scale;
    const double up = play_win_chance(g, &r);
    r.score = -scale;
    assert_true(up > 0.7 && up < 0.75 && fabs(play_win_chance(g, &r) - (1.0 - up)) < 1e-9);
    StrBuf w;
    sb_init(&w);
    play_chance_words(g, &r, &w);
    assert_string_equal(sb_str(&w), "about 27% to win");
    r.score = SCORE_WIN - 9;
    sb_clear(&w);
    play_chance_words(g, &r, &w);
    assert_string_equal(sb_str(&w), "you win by force in 9 moves");
    assert_true(play_win_chance(g, &r) == 1.0);
    r.score = -SCORE_WIN + 1;
    sb_clear(&w);
    play_chance_words(g, &r, &w);
    assert_string_equal(sb_str(&w), "the other side wins by force in 1 move");
    r.has_score = false;
    r.value = 0.2;
    assert_true(fabs(play_win_chance(g, &r) - 0.6) < 1e-9);
    sb_free(&w);
    game_destroy(g);
    // Every game's record has its own scale and bench work, none a fallback.
    for (int i = 0; i < registry_count(); i++) {
        const GameOps *ops = registry_at(i);
        if (!(play_chance_scale(ops->name) > 0) || play_chance_scale(ops->name) != ops->chance_scale)
            fail_msg("%s has no win-chance scale in its GameOps", ops->name);
        if (ops->bench_depth <= 0 && ops->bench_iterations == 0)
            fail_msg("%s has no bench work in its GameOps", ops->name);
    }
    assert_true(play_chance_scale("no-such-game") == 0);
}

/* --- chance outcomes by their text --------------------------------------------------- */

static void test_chance_outcomes_by_text(void **state)
{
    (void)state;
    Game *g = make_game("king-of-the-valley", 2);
    GameRecord r;
    open_record(&r, g, NULL);
    Rng rng;
    rng_seed(&rng, 11);
    ErrBuf err;
    int draws = 0;
    StrBuf t;
    sb_init(&t);
    ChanceList *cl = malloc(sizeof *cl);
    assert_non_null(cl);
    for (int step = 0; step < 200 && !game_is_over(g, r.current) && draws < 5; step++) {
        if (g->ops->to_move(g, r.current) == PLAYER_CHANCE) {
            const int n = g->ops->chance_outcomes(g, r.current, cl);
            assert_true(n > 0);
            for (int i = 0; i < n; i++) {
                sb_clear(&t);
                g->ops->format_move(g, r.current, cl->outcomes[i], &t);
                Move m = 0;
                if (game_parse_action(g, r.current, sb_str(&t), &m, &err) != STATUS_OK)
                    fail_msg("'%s': %s", sb_str(&t), err.msg);
                assert_int_equal(m, cl->outcomes[i]);
            }
            GameState *before = game_state_clone(g, r.current);
            Move m = 12345;
            assert_int_equal(game_parse_action(g, r.current, "draw nothing", &m, &err),
                             STATUS_ILLEGAL);
            assert_non_null(strstr(err.msg, "not a possible chance outcome"));
            assert_int_equal(m, 12345);
            assert_int_equal(game_parse_action(g, r.current, "", &m, &err), STATUS_ILLEGAL);
            assert_memory_equal(before, r.current, g->state_size);
            free(before);
            draws++;
        }
        assert_int_equal(record_push(&r, random_action(g, r.current, &rng), &err), STATUS_OK);
    }
    assert_int_equal(draws, 5);
    free(cl);
    sb_free(&t);
    record_free(&r);

    // Where a player is to act, the text is read as that player's action.
    g = open_kv(&r, NULL);
    Move m;
    assert_int_equal(game_parse_action(g, r.current, "b1-b4", &m, &err), STATUS_OK);
    assert_int_equal(game_parse_action(g, r.current, "draw W", &m, &err), STATUS_PARSE);
    record_free(&r);
}

/* One action as typed (play_parse_action) and whatever comes next (play_parse_next): the
 * readers the public C API goes through, with play_parse_turn's spellings. */
static void test_one_action_and_what_comes_next(void **state)
{
    (void)state;
    GameRecord r;
    Game *g = open_kv(&r, NULL);
    Move want, got = 0;
    ErrBuf err;
    assert_int_equal(play_parse_action(g, r.current, "a1-a4", &want, &err), STATUS_OK);
    static const char *const typed[] = {"A1-A4", "a1a4", "A1A4"};
    for (size_t k = 0; k < sizeof typed / sizeof *typed; k++) {
        assert_int_equal(play_parse_action(g, r.current, typed[k], &got, &err), STATUS_OK);
        assert_true(got == want);
    }
    // Errors leave the output alone and speak of the text as typed.
    got = 777;
    assert_int_equal(play_parse_action(g, r.current, "z9-z8", &got, &err), STATUS_PARSE);
    assert_int_equal(play_parse_action(g, r.current, "a1a3", &got, &err), STATUS_ILLEGAL);
    assert_int_equal(got, 777);
    // A whole turn is not one action.
    assert_int_equal(play_parse_action(g, r.current, "a1-a4;e5-e2", &got, &err), STATUS_PARSE);
    record_free(&r);

    // At a chance node both read an outcome by its text, and only that.
    g = make_game("king-of-the-valley", 2);
    open_record(&r, g, NULL);
    Rng rng;
    rng_seed(&rng, 5);
    for (int step = 0; step < 200 && g->ops->to_move(g, r.current) != PLAYER_CHANCE; step++)
        assert_int_equal(record_push(&r, random_action(g, r.current, &rng), &err), STATUS_OK);
    assert_int_equal(g->ops->to_move(g, r.current), PLAYER_CHANCE);
    const Move draw = game_sample_chance(g, r.current, &rng);
    StrBuf t;
    sb_init(&t);
    g->ops->format_move(g, r.current, draw, &t);
    assert_int_equal(play_parse_action(g, r.current, sb_str(&t), &got, &err), STATUS_OK);
    assert_true(got == draw);
    Move acts[PLAY_TURN_CAP];
    int n = 0;
    assert_int_equal(play_parse_next(g, r.current, sb_str(&t), acts, PLAY_TURN_CAP, &n, &err),
                     STATUS_OK);
    assert_int_equal(n, 1);
    assert_true(acts[0] == draw);
    assert_int_equal(play_parse_turn(g, r.current, sb_str(&t), acts, PLAY_TURN_CAP, &n, &err),
                     STATUS_ILLEGAL);
    assert_int_equal(play_parse_next(g, r.current, "no such draw", acts, PLAY_TURN_CAP, &n, &err),
                     STATUS_ILLEGAL);
    assert_int_equal(n, 0);
    sb_free(&t);
    record_free(&r);
}

/* The one hint agent: the full engine for a second, or the time a front end asks for. */
static void test_hint_agent(void **state)
{
    (void)state;
    AgentSpec spec;
    play_hint_agent(&spec, 99);
    assert_int_equal(spec.kind, AGENT_AI);
    assert_int_equal(spec.level, AGENT_LEVEL_MAX);
    assert_int_equal(spec.limits.movetime_ms, PLAY_HINT_MOVETIME_MS);
    assert_int_equal(spec.seed, 99);
    Game *g = make_game("kings-valley", 0);
    GameState *s = game_state_new(g);
    assert_non_null(s);
    g->ops->new_game(g, s, 1);
    Agent *a = NULL;
    ErrBuf err;
    assert_int_equal(play_hint_new(g, NULL, 1, 50, &a, &err), STATUS_OK);
    SearchResult r;
    assert_int_equal(agent_think(a, s, &r, &err), STATUS_OK);
    MoveList ml;
    const int n = g->ops->gen_moves(g, s, &ml);
    bool legal = false;
    for (int i = 0; i < n; i++)
        legal = legal || ml.moves[i] == r.best;
    assert_true(legal);
    agent_free(a);
    free(s);
    game_destroy(g);
}

/* --- clocks and flags ---------------------------------------------------------------- */

/* Game `name` and a state of it at position `text`. */
static Game *game_at(const char *name, const char *text, GameState **s)
{
    Game *g = make_game(name, 0);
    *s = game_state_new(g);
    assert_non_null(*s);
    ErrBuf err;
    if (g->ops->parse_position(g, *s, text, &err) != STATUS_OK)
        fail_msg("'%s': %s", text, err.msg);
    return g;
}

/* The one clock: --tc's text, charges per decision with the increment once per turn, a
 * clock running between turns with an untimed first turn, days per move, stopping. */
static void test_clock(void **state)
{
    (void)state;
    PlayClock c;
    ErrBuf err;
    play_clock_off(&c);
    assert_false(play_clock_on(&c));
    assert_true(play_clock_charge(&c, 0, 1000000)); // no clock, no flag
    static const char *const bad[] = {"", "0", "-1", "10+", "10+-1", "x", "86401",
                                      "10+3601", "nan", "10+1x"};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        assert_int_equal(play_clock_parse(bad[k], "--tc", 2, &c, &err), STATUS_PARSE);
        assert_non_null(strstr(err.msg, "--tc takes BASE+INC"));
        assert_false(play_clock_on(&c));
    }
    assert_int_equal(play_clock_parse("10+0.1", "--tc", 2, &c, &err), STATUS_OK);
    assert_true(play_clock_on(&c));
    assert_int_equal(c.left_ms[0], 10000);
    assert_int_equal(c.left_ms[1], 10000);
    assert_int_equal(c.increment_ms, 100);
    assert_int_equal(c.running, -1);
    // crown match: each decision charged, the increment when the turn is done.
    assert_true(play_clock_charge(&c, 0, 4000));
    play_clock_turn_done(&c, 0);
    assert_int_equal(c.left_ms[0], 6100);
    assert_false(play_clock_charge(&c, 1, 10000)); // exactly empty is a flag
    assert_int_equal(play_clock_parse("0.0001", "--tc", 2, &c, &err), STATUS_OK);
    assert_int_equal(c.left_ms[0], 1);

    // The web: 60 s + 2 s, charged between turns; the first turn is not timed.
    PlayClock w;
    play_clock_off(&w);
    w.initial_ms = 60000;
    w.increment_ms = 2000;
    w = play_clock_fresh(&w, 2);
    play_clock_turn(&w, 0, 1, 5000); // seat 0's first move took 5 s: free
    assert_int_equal(w.left_ms[0], 60000);
    assert_int_equal(w.running, 1);
    play_clock_turn(&w, 1, 1, 8000); // a turn of several actions goes on
    assert_int_equal(w.running, 1);
    play_clock_turn(&w, 1, 0, 15000); // 10 s, then the increment
    assert_int_equal(w.left_ms[1], 52000);
    assert_int_equal(play_clock_flagged(&w, 15000 + 59999), -1);
    assert_int_equal(play_clock_flagged(&w, 15000 + 60000), 0);
    play_clock_stop(&w, 15000 + 70000); // stopped past the flag: nothing below 0
    assert_int_equal(w.left_ms[0], 0);
    assert_int_equal(w.running, -1);
    assert_int_equal(play_clock_flagged(&w, 999999), -1);

    // Days per move: every turn starts with the whole time again.
    PlayClock d;
    play_clock_off(&d);
    d.per_move_ms = 1000;
    d.days = 1;
    d = play_clock_fresh(&d, 3);
    assert_int_equal(d.left_ms[2], 1000);
    play_clock_turn(&d, 0, 1, 0);
    play_clock_turn(&d, 1, 2, 900);
    assert_int_equal(d.left_ms[1], 1000);
    assert_int_equal(play_clock_flagged(&d, 900 + 1000), 2);
}

/* The flag rule: a flag loses, unless no other seat can still win (King Down's bare
 * king): then it is a draw. */
static void test_flag_rule(void **state)
{
    (void)state;
    GameState *s;
    Game *g = game_at("king-down", "r3k3/8/8/8/8/8/8/4K3 b - - 0 1", &s);
    assert_true(play_flag_is_draw(g, s, 1));  // black flags, white has a bare king
    assert_false(play_flag_is_draw(g, s, 0)); // white flags, black has a rook
    free(s);
    game_destroy(g);

    // A game that does not say who can win: a flag always loses.
    g = make_game("kings-valley", 0);
    s = game_state_new(g);
    assert_non_null(s);
    g->ops->new_game(g, s, 1);
    assert_false(play_flag_is_draw(g, s, 0));
    free(s);
    game_destroy(g);
    g = make_game("king-of-the-valley", 3);
    StrBuf t;
    sb_init(&t);
    play_end_text(g, PLAY_END_TIME_DRAW, 2, &t);
    assert_string_equal(sb_str(&t), "draw: the third player ran out of time but no other "
                                    "player can win");
    sb_free(&t);
    game_destroy(g);
}

/* Ends outside the rules: returns, words and keys, the same for every front end; the
 * AI's answer to a draw offer. */
static void test_ends_outside_the_rules(void **state)
{
    (void)state;
    GameState *s;
    Game *g = game_at("king-down", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", &s);
    static const struct {
        PlayEnd end;
        int seat;
        double ret0, ret1;
        const char *key, *text;
    } CASES[] = {
        {PLAY_END_RESIGN, 0, -1, 1, "resign", "second player wins: the first player resigned"},
        {PLAY_END_DRAW, 1, 0, 0, "agreement", "draw: agreed by the players"},
        {PLAY_END_TIME, 1, 1, -1, "time", "first player wins: the second player ran out of time"},
        {PLAY_END_TIME_DRAW, 0, 0, 0, "time-vs-no-win",
         "draw: the first player ran out of time but the second player cannot win"},
    };
    StrBuf t;
    sb_init(&t);
    for (size_t k = 0; k < sizeof CASES / sizeof *CASES; k++) {
        double ret[MAX_PLAYERS];
        play_end_returns(g, CASES[k].end, CASES[k].seat, ret);
        assert_true(ret[0] == CASES[k].ret0 && ret[1] == CASES[k].ret1);
        sb_clear(&t);
        play_end_text(g, CASES[k].end, CASES[k].seat, &t);
        assert_string_equal(sb_str(&t), CASES[k].text);
        assert_string_equal(play_end_key(CASES[k].end), CASES[k].key);
        PlayEnd back = PLAY_END_NONE;
        assert_true(play_end_from_key(CASES[k].key, &back));
        assert_int_equal(back, CASES[k].end);
    }
    PlayEnd e = PLAY_END_RESIGN;
    assert_false(play_end_from_key("abandoned", &e));
    assert_int_equal(e, PLAY_END_RESIGN);
    assert_null(play_end_key(PLAY_END_NONE));
    // The flag rule decides between the two ends of a flag.
    assert_int_equal(play_end_of_flag(g, s, 0), PLAY_END_TIME_DRAW); // black: a bare king
    assert_int_equal(play_end_of_flag(g, s, 1), PLAY_END_TIME);
    // The side with a bare king accepts a draw; the side with the rook does not.
    assert_true(play_ai_accepts_draw(g, s, 1));
    assert_false(play_ai_accepts_draw(g, s, 0));
    free(s);
    game_destroy(g);

    // Three players: a resignation leaves the others sharing the win.
    g = make_game("king-of-the-valley", 3);
    double ret[MAX_PLAYERS];
    play_end_returns(g, PLAY_END_RESIGN, 1, ret);
    assert_true(ret[0] == 0.5 && ret[1] == -1 && ret[2] == 0.5);
    sb_clear(&t);
    play_end_text(g, PLAY_END_RESIGN, 1, &t);
    assert_string_equal(sb_str(&t), "shared win: the second player resigned");
    sb_free(&t);
    game_destroy(g);
}

/* --- undo to a seat ------------------------------------------------------------------ */

/* What play_undo_point must answer, from its definition: the start of the run of
 * positions, with one of `seats` to move, that holds the last such position. */
static int expected_undo_point(const GameRecord *r, unsigned seats)
{
    const Game *g = r->game;
    GameState *s = game_state_clone(g, r->start);
    void *undo = game_undo_new(g);
    int *mover = malloc(sizeof *mover * (size_t)(r->count + 1));
    assert_true(s && undo && mover);
    for (int i = 0; i < r->count; i++) {
        mover[i] = g->ops->to_move(g, s);
        g->ops->make(g, s, r->moves[i], undo);
    }
    int k = r->count - 1;
    while (k >= 0 && !(mover[k] >= 0 && (seats >> mover[k] & 1u)))
        k--;
    const int who = k >= 0 ? mover[k] : -1;
    while (k > 0 && mover[k - 1] == who)
        k--;
    free(s);
    free(undo);
    free(mover);
    return k;
}

static void check_undo_everywhere(const char *name, int players, uint64_t seed)
{
    Game *g = make_game(name, players);
    GameRecord r;
    open_record(&r, g, NULL);
    Rng rng;
    rng_seed(&rng, seed);
    ErrBuf err;
    int tried = 0;
    for (int step = 0; step < 120 && !game_is_over(g, r.current); step++) {
        assert_int_equal(record_push(&r, random_action(g, r.current, &rng), &err), STATUS_OK);
        for (int p = 0; p < g->players; p++) {
            const int want = expected_undo_point(&r, 1u << p);
            int keep = -7;
            const Status st = play_undo_point(&r, 1u << p, &keep, &err);
            if (want < 0) {
                assert_int_equal(st, STATUS_ILLEGAL);
                assert_int_equal(keep, -7);
                continue;
            }
            assert_int_equal(st, STATUS_OK);
            assert_int_equal(keep, want);
            // The seat is to move there, and was not just before: a turn's start.
            GameRecord copy;
            open_record(&copy, make_game(name, players), NULL);
            for (int i = 0; i < keep; i++)
                assert_int_equal(record_push(&copy, r.moves[i], &err), STATUS_OK);
            assert_int_equal(g->ops->to_move(copy.game, copy.current), p);
            tried++;
            record_free(&copy);
        }
    }
    assert_true(tried > 0);
    record_free(&r);
}

/* King of the Valley for two after both placements and the first player's turn, whose
 * refill leaves chance to act next; its game. */
static Game *open_kotv_at_chance(GameRecord *r)
{
    Game *g = make_game("king-of-the-valley", 2);
    open_record(r, g, NULL);
    play_text(r, "place c4");
    play_text(r, "place c1");
    play_text(r, "c4-c3; refill R");
    return g;
}

static void test_undo_point_in_every_position(void **state)
{
    (void)state;
    check_undo_everywhere("kings-guard-8x8", 0, 5);
    check_undo_everywhere("king-of-the-valley", 2, 6);
    check_undo_everywhere("king-of-the-valley", 4, 7);
    check_undo_everywhere("kings-valley", 0, 8);
}

/* Against the AI: a King's Guard turn of several actions, then the AI's reply; undo
 * takes back both whole, not just the reply and the last piece placed. */
static void test_undo_takes_back_whole_turns(void **state)
{
    (void)state;
    Game *g = make_game("kings-guard-8x8", 0);
    GameRecord r;
    open_record(&r, g, "7k/8/3G4/8/3G4/8/8/K7 2 1");
    play_text(&r, "h8-h7");
    const int human_turn = r.count;
    play_text(&r, "d4-d3");
    assert_true(r.count > human_turn + 1);
    int keep = -1;
    ErrBuf err;
    assert_int_equal(play_undo_point(&r, 1u << 1, &keep, &err), STATUS_OK);
    assert_int_equal(keep, 0);
    // For the first player: back to the start of its own turn, after the second's.
    assert_int_equal(play_undo_point(&r, 1u << 0, &keep, &err), STATUS_OK);
    assert_int_equal(keep, human_turn);
    // In the middle of a turn: back to its start.
    record_truncate(&r, 1);
    assert_int_equal(play_undo_point(&r, 1u << 1, &keep, &err), STATUS_OK);
    assert_int_equal(keep, 0);
    assert_int_equal(play_undo_point(&r, 1u << 0, &keep, &err), STATUS_ILLEGAL);
    assert_non_null(strstr(err.msg, "no move to take back"));
    record_free(&r);

    // King of the Valley: chance draws between the turns are taken back with them, and
    // a set of seats (the humans) stops at the first of them met going back.
    g = open_kotv_at_chance(&r);
    const int second = r.count;
    assert_int_equal(g->ops->to_move(g, r.current), PLAYER_CHANCE);
    Rng rng;
    rng_seed(&rng, 2);
    while (g->ops->to_move(g, r.current) == PLAYER_CHANCE)
        assert_int_equal(record_push(&r, game_sample_chance(g, r.current, &rng), &err),
                         STATUS_OK);
    const int after_draws = r.count;
    assert_true(after_draws > second);
    assert_int_equal(play_undo_point(&r, 1u << 0, &keep, &err), STATUS_OK);
    assert_int_equal(keep, 2);
    assert_int_equal(play_undo_point(&r, 3u, &keep, &err), STATUS_OK);
    assert_int_equal(keep, 2);
    assert_int_equal(play_undo_point(&r, 1u << 1, &keep, &err), STATUS_OK);
    assert_int_equal(keep, 1);
    record_free(&r);
}

/* --- words --------------------------------------------------------------------------- */

static void test_seat_names(void **state)
{
    (void)state;
    Game *g = make_game("king-of-the-valley", 4);
    assert_string_equal(play_seat_name(g, 0), "first player");
    assert_string_equal(play_seat_name(g, 3), "fourth player");
    assert_string_equal(play_seat_name(g, 4), "nobody");
    assert_string_equal(play_seat_name(g, PLAYER_CHANCE), "chance");
    assert_string_equal(play_seat_name(g, PLAYER_NONE), "nobody");
    game_destroy(g);
    g = make_game("kings-valley", 0);
    assert_string_equal(play_seat_name(g, 1), "second player");
    assert_string_equal(play_seat_name(g, 2), "nobody");
    game_destroy(g);
    assert_string_equal(play_seat_ordinal(2), "third");
    assert_string_equal(play_seat_ordinal(PLAYER_CHANCE), "chance");
    assert_string_equal(play_seat_ordinal(-5), "nobody");
}

static void test_seat_players(void **state)
{
    (void)state;
    bool human = false;
    AgentSpec spec;
    memset(&spec, 0, sizeof spec);
    ErrBuf err;
    assert_int_equal(seat_parse("human", 1, 9, &human, &spec, &err), STATUS_OK);
    assert_true(human);
    assert_int_equal(seat_parse("ai:7", 1, 9, &human, &spec, &err), STATUS_OK);
    assert_false(human);
    assert_int_equal(spec.level, 7);
    assert_int_equal(spec.seed, 9 * 31 + 2); // the same game seed gives the same AI
    human = true;
    assert_int_equal(seat_parse("wizard", 0, 9, &human, &spec, &err), STATUS_PARSE);
    assert_true(human);
    assert_non_null(strstr(err.msg, "'wizard': "));
    assert_non_null(strstr(err.msg, "(or 'human')"));
}

static void check_turn_is(const Seats *seats, const GameRecord *r, int seat, Status want,
                          const char *why)
{
    ErrBuf err;
    err_clear(&err);
    assert_int_equal(seats_check_turn(seats, r->game, r->current, seat, &err), want);
    if (strstr(err.msg, why) == NULL)
        fail_msg("seat %d: '%s' lacks '%s'", seat, err.msg, why);
}

static void test_who_may_act(void **state)
{
    (void)state;
    Seats seats;
    ErrBuf err;
    const SearchLimits none = {0};
    assert_int_equal(seats_parse("human,ai:3", 2, &none, 1, &seats, &err), STATUS_OK);
    GameRecord r;
    open_kv(&r, "ss1ss/2k2/5/5/SSKSS 1 2");
    check_turn_is(&seats, &r, 0, STATUS_OK, "");
    check_turn_is(&seats, &r, 1, STATUS_CONFLICT, "the second seat is played by the AI (ai:3)");
    check_turn_is(&seats, &r, 2, STATUS_CONFLICT, "no such seat");
    check_turn_is(&seats, &r, -1, STATUS_CONFLICT, "no such seat");
    assert_int_equal(seats_parse("human,human", 2, &none, 1, &seats, &err), STATUS_OK);
    check_turn_is(&seats, &r, 1, STATUS_NOT_YOUR_TURN,
                  "it is not your turn: the first player (human) is to move");
    play_text(&r, "c1-c3");
    check_turn_is(&seats, &r, 1, STATUS_CONFLICT, "the game is over");
    record_free(&r);

    open_kotv_at_chance(&r);
    check_turn_is(&seats, &r, 1, STATUS_NOT_YOUR_TURN, "chance acts next");

    // What plays itself: chance draws, an AI seat's move; never a human's.
    Rng rng;
    rng_seed(&rng, 4);
    Move m;
    assert_int_equal(seats_auto_action(&seats, r.game, r.current, &rng, &m, NULL, &err),
                     STATUS_OK);
    assert_int_equal(record_push(&r, m, &err), STATUS_OK);
    while (r.game->ops->to_move(r.game, r.current) == PLAYER_CHANCE) {
        assert_int_equal(seats_auto_action(&seats, r.game, r.current, &rng, &m, NULL, &err),
                         STATUS_OK);
        assert_int_equal(record_push(&r, m, &err), STATUS_OK);
    }
    assert_int_equal(seats_auto_action(&seats, r.game, r.current, &rng, &m, NULL, &err),
                     STATUS_CONFLICT);
    assert_int_equal(seats_parse("random,random", 2, &none, 1, &seats, &err), STATUS_OK);
    assert_int_equal(seats_start(&seats, r.game, &err), STATUS_OK);
    SearchResult sr;
    assert_int_equal(seats_auto_action(&seats, r.game, r.current, &rng, &m, &sr, &err),
                     STATUS_OK);
    assert_int_equal(sr.best, m);
    assert_int_equal(record_push(&r, m, &err), STATUS_OK);
    seats_stop(&seats);
    record_free(&r);
}

static void result_is(const GameRecord *r, int viewer, const char *want)
{
    StrBuf t;
    sb_init(&t);
    play_result_text(r->game, r->current, viewer, &t);
    if (strncmp(sb_str(&t), want, strlen(want)) != 0)
        fail_msg("viewer %d: '%s' does not begin with '%s'", viewer, sb_str(&t), want);
    sb_free(&t);
}

static void test_result_texts(void **state)
{
    (void)state;
    GameRecord r;
    Game *g = open_kv(&r, "ss1ss/2k2/5/5/SSKSS 1 2");
    result_is(&r, PLAYER_NONE, "unfinished");
    result_is(&r, 0, "unfinished");
    play_text(&r, "c1-c3");
    StrBuf why, t;
    sb_init(&why);
    sb_init(&t);
    g->ops->describe_result(g, r.current, &why);
    assert_true(why.len > 0);
    sb_printf(&t, "first player wins: %s", sb_str(&why));
    result_is(&r, PLAYER_NONE, sb_str(&t));
    sb_clear(&t);
    sb_printf(&t, "You won: %s", sb_str(&why));
    result_is(&r, 0, sb_str(&t));
    sb_clear(&t);
    sb_printf(&t, "You lost: first player wins: %s", sb_str(&why));
    result_is(&r, 1, sb_str(&t));
    sb_free(&why);
    sb_free(&t);
    record_free(&r);

    // A draw by the ply limit.
    const RuleSetting rules[] = {{"max-plies", "1"}};
    Game *g2 = NULL;
    ErrBuf err;
    assert_int_equal(game_create(registry_find("kings-valley"), 0, rules, 1, &g2, &err),
                     STATUS_OK);
    open_record(&r, g2, NULL);
    play_text(&r, "b1-b4");
    assert_true(game_is_over(g2, r.current));
    result_is(&r, PLAYER_NONE, "draw");
    result_is(&r, 1, "Draw");
    record_free(&r);
}

/* --- records and the caller's lookup --------------------------------------------------- */

static const GameOps *knows_nothing(const char *name)
{
    (void)name;
    return NULL;
}

static const GameOps *knows_kings_valley(const char *name)
{
    return strcmp(name, "kings-valley") == 0 ? registry_find(name) : NULL;
}

static void test_record_lookup(void **state)
{
    (void)state;
    const char *kv = "crown-record 1\ngame kings-valley\nstart sskss/5/5/5/SSKSS 1 0\n"
                     "move b1-b4\n";
    const char *kotv = "crown-record 1\ngame king-of-the-valley\nrule players=2\n"
                       "start x\n";
    GameRecord r;
    ErrBuf err;
    assert_int_equal(record_parse(kv, knows_nothing, &r, &err), STATUS_PARSE);
    assert_non_null(strstr(err.msg, "no game called 'kings-valley'"));
    assert_int_equal(record_parse(kotv, knows_kings_valley, &r, &err), STATUS_PARSE);
    assert_non_null(strstr(err.msg, "line 4: no game called 'king-of-the-valley'"));
    assert_int_equal(record_parse(kv, knows_kings_valley, &r, &err), STATUS_OK);
    assert_int_equal(r.count, 1);
    // Written with the caller's result line, read back with the registry.
    StrBuf t;
    sb_init(&t);
    record_write(&r, "unfinished", &t);
    assert_non_null(strstr(sb_str(&t), "move b1-b4\nresult unfinished\n"));
    GameRecord back;
    assert_int_equal(record_parse(sb_str(&t), registry_find, &back, &err), STATUS_OK);
    assert_memory_equal(back.current, r.current, r.game->state_size);
    sb_clear(&t);
    record_write(&r, NULL, &t);
    assert_null(strstr(sb_str(&t), "result"));
    sb_free(&t);
    record_free(&back);
    record_free(&r);
}

/* Every game, King of the Valley with 2, 3 and 4 players: a random game played to its
 * end (chance draws sampled, as a server or `crown play` does), written as a record and
 * read back, passes through the same positions to the same result. Cut short by the
 * games' own limits to stay quick. */
static void test_record_round_trip_every_game(void **state)
{
    (void)state;
    MoveList *ml = malloc(sizeof *ml);
    assert_non_null(ml);
    int kotv_counts = 0;
    for (int gi = 0; gi < registry_count(); gi++) {
        const GameOps *ops = registry_at(gi);
        for (int n = ops->min_players; n <= ops->max_players; n++) {
            RuleSetting rules[2];
            int n_rules = 0;
            if (game_option_index(ops, "max-plies") >= 0)
                rules[n_rules++] = (RuleSetting){"max-plies", ops == registry_find("king-down")
                                                                  ? "10" : "16"};
            if (game_option_index(ops, "max-rounds") >= 0)
                rules[n_rules++] = (RuleSetting){"max-rounds", "2"};
            Game *g;
            ErrBuf err;
            if (game_create(ops, n, rules, n_rules, &g, &err) != STATUS_OK)
                fail_msg("%s with %d players: %s", ops->name, n, err.msg);
            kotv_counts += strcmp(ops->name, "king-of-the-valley") == 0;
            GameState *s = game_state_new(g);
            assert_non_null(s);
            ops->new_game(g, s, 1000u + (unsigned)n);
            GameRecord rec;
            assert_int_equal(record_init(&rec, g, s, &err), STATUS_OK);
            Rng rng;
            rng_seed(&rng, 7u * (unsigned)gi + (unsigned)n);
            bool chance = false;
            while (!game_is_over(rec.game, rec.current)) {
                Move m;
                if (ops->to_move(rec.game, rec.current) == PLAYER_CHANCE) {
                    m = game_sample_chance(rec.game, rec.current, &rng);
                    chance = true;
                } else {
                    ops->gen_moves(rec.game, rec.current, ml);
                    m = ml->moves[rng_below(&rng, (uint32_t)ml->count)];
                }
                assert_int_equal(record_push(&rec, m, &err), STATUS_OK);
            }
            assert_true(chance == ((ops->flags & GAME_HAS_CHANCE) != 0));
            StrBuf text;
            sb_init(&text);
            record_write(&rec, NULL, &text);
            GameRecord back;
            if (record_parse(sb_str(&text), registry_find, &back, &err) != STATUS_OK)
                fail_msg("%s with %d players: its record does not read back: %s", ops->name,
                         n, err.msg);
            assert_int_equal(back.count, rec.count);
            assert_int_equal(back.game->players, n);
            if (memcmp(back.start, rec.start, g->state_size) != 0)
                fail_msg("%s with %d players: another start", ops->name, n);
            assert_true(game_is_over(back.game, back.current));
            double a[MAX_PLAYERS], b[MAX_PLAYERS];
            ops->returns(rec.game, rec.current, a);
            ops->returns(back.game, back.current, b);
            assert_memory_equal(a, b, sizeof(double) * (size_t)n);
            for (int k = back.count; k >= 0; k--) {
                record_truncate(&back, k);
                record_truncate(&rec, k);
                if (memcmp(back.current, rec.current, g->state_size) != 0)
                    fail_msg("%s with %d players: another position after %d actions",
                             ops->name, n, k);
            }
            sb_free(&text);
            record_free(&back);
            record_free(&rec);
            free(s);
        }
    }
    assert_int_equal(kotv_counts, 3);
    free(ml);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_whole_turns_round_trip_in_every_game),
        cmocka_unit_test(test_turn_errors_change_nothing),
        cmocka_unit_test(test_kings_guard_whole_turn),
        cmocka_unit_test(test_respelled_moves_in_every_game),
        cmocka_unit_test(test_typed_spellings),
        cmocka_unit_test(test_chance_words),
        cmocka_unit_test(test_chance_outcomes_by_text),
        cmocka_unit_test(test_one_action_and_what_comes_next),
        cmocka_unit_test(test_hint_agent),
        cmocka_unit_test(test_clock),
        cmocka_unit_test(test_flag_rule),
        cmocka_unit_test(test_ends_outside_the_rules),
        cmocka_unit_test(test_undo_point_in_every_position),
        cmocka_unit_test(test_undo_takes_back_whole_turns),
        cmocka_unit_test(test_seat_names),
        cmocka_unit_test(test_seat_players),
        cmocka_unit_test(test_who_may_act),
        cmocka_unit_test(test_result_texts),
        cmocka_unit_test(test_record_lookup),
        cmocka_unit_test(test_record_round_trip_every_game),
    };
    return cmocka_run_group_tests_name("play", tests, NULL, NULL);
}
