/*
 * test_capi.c - the public C API (include/crown.h) as an embedding program sees it: only
 * crown.h is included. Every function, the errors and their messages, illegal actions
 * that change nothing, clones that are independent, undo that restores the hash, chance
 * and four players, observations, agents that repeat themselves under a depth limit,
 * two threads sharing one game; moves and whole turns as players type them, and results
 * in crown play's words.
 *
 * Each test makes and frees its own games, states and agents through the API, alike from
 * test to test: making and freeing them is part of what is tested, so it stays in view
 * rather than in a fixture.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "crown.h"

static crown_game *new_game(const char *name, const char *opt, const char *value)
{
    crown_game *g = NULL;
    crown_error err;
    const char *names[1] = {opt};
    const char *values[1] = {value};
    int st = crown_game_new(name, names, values, opt ? 1 : 0, &g, &err);
    if (st != CROWN_OK)
        fail_msg("crown_game_new(%s): %s", name, err.message);
    assert_int_equal(err.code, CROWN_OK);
    assert_string_equal(err.message, "");
    return g;
}

static crown_state *new_state(const crown_game *g, uint64_t seed)
{
    crown_state *s = NULL;
    assert_int_equal(crown_state_new(g, seed, &s, NULL), CROWN_OK);
    assert_non_null(s);
    return s;
}

static char *position_of(crown_state *s)
{
    const char *text = NULL;
    assert_int_equal(crown_state_format(s, &text), CROWN_OK);
    char *copy = malloc(strlen(text) + 1);
    assert_non_null(copy);
    strcpy(copy, text);
    return copy;
}

static void test_version_and_library(void **unused)
{
    (void)unused;
    assert_string_equal(crown_version(), CROWN_VERSION);
    assert_int_equal(crown_version_number(), CROWN_VERSION_NUMBER);
    char want[32];
    snprintf(want, sizeof want, "%d.%d.%d", CROWN_VERSION_MAJOR, CROWN_VERSION_MINOR,
             CROWN_VERSION_PATCH);
    assert_string_equal(crown_version(), want);
    assert_string_equal(crown_status_name(CROWN_OK), "ok");
    assert_string_equal(crown_status_name(CROWN_ERROR_ILLEGAL), "illegal");
    assert_string_equal(crown_status_name(CROWN_ERROR_ARGUMENT), "bad argument");
    assert_string_equal(crown_status_name(99), "unknown status");

    int n = crown_game_count();
    assert_true(n >= 9);
    int found = 0;
    for (int i = 0; i < n; i++) {
        assert_non_null(crown_game_names(i));
        found += strcmp(crown_game_names(i), "kings-valley") == 0;
    }
    assert_int_equal(found, 1);
    assert_null(crown_game_names(-1));
    assert_null(crown_game_names(n));
}

static void test_game_creation_and_options(void **unused)
{
    (void)unused;
    crown_game *g = new_game("kings-valley", "max-plies", "100");
    assert_string_equal(crown_game_name(g), "kings-valley");
    assert_int_equal(crown_game_players(g), 2);
    const int options = crown_game_option_count(g);
    assert_true(options >= 3); /* max-plies, first-move-soldier, locked-king-loses, ... */
    assert_string_equal(crown_game_option_value(g, "max-plies"), "100");
    assert_string_equal(crown_game_option_value(g, "first-move-soldier"), "on");
    assert_null(crown_game_option_value(g, "no-such"));
    int seen = 0;
    for (int i = 0; i < options; i++) {
        seen += strcmp(crown_game_option_name(g, i), "max-plies") == 0;
        assert_non_null(crown_game_option_value(g, crown_game_option_name(g, i)));
    }
    assert_int_equal(seen, 1);
    assert_null(crown_game_option_name(g, options));
    assert_null(crown_game_option_name(g, -1));
    crown_game_free(g);

    crown_error err;
    crown_game *bad = (crown_game *)&err; /* must be overwritten with NULL */
    assert_int_equal(crown_game_new("chess", NULL, NULL, 0, &bad, &err), CROWN_ERROR_NOT_FOUND);
    assert_null(bad);
    assert_int_equal(err.code, CROWN_ERROR_NOT_FOUND);
    assert_non_null(strstr(err.message, "'chess'"));
    assert_non_null(strstr(err.message, "kings-valley"));

    const char *names[] = {"max-plies", "speed"};
    const char *values[] = {"10", "fast"};
    assert_int_equal(crown_game_new("kings-valley", names, values, 2, &bad, &err),
                     CROWN_ERROR_PARSE);
    assert_null(bad);
    assert_non_null(strstr(err.message, "'speed'"));
    assert_non_null(strstr(err.message, "max-plies")); /* lists the game's rules */

    const char *big[] = {"5000"};
    assert_int_equal(crown_game_new("kings-valley", names, big, 1, &bad, &err),
                     CROWN_ERROR_PARSE);
    assert_non_null(strstr(err.message, "5000"));
    assert_int_equal(crown_game_new("kings-valley", NULL, NULL, 1, &bad, &err),
                     CROWN_ERROR_ARGUMENT);
    assert_int_equal(crown_game_new(NULL, NULL, NULL, 0, &bad, &err), CROWN_ERROR_ARGUMENT);
    assert_int_equal(crown_game_new("kings-valley", NULL, NULL, 0, NULL, NULL),
                     CROWN_ERROR_ARGUMENT);
    /* Without a crown_error the code alone tells. */
    assert_int_equal(crown_game_new("chess", NULL, NULL, 0, &bad, NULL), CROWN_ERROR_NOT_FOUND);
    crown_game_free(NULL);
}

static void test_positions_parse_format_render(void **unused)
{
    (void)unused;
    crown_game *g = new_game("kings-valley", NULL, NULL);
    crown_state *s = new_state(g, 0);
    assert_ptr_equal(crown_state_game(s), g);
    assert_int_equal(crown_state_to_move(s), 0);
    assert_int_equal(crown_state_is_over(s), 0);
    char *start = position_of(s);
    uint64_t h = crown_state_hash(s);

    const char *other = "ss1ss/2k2/5/2K2/SS1SS 1 4";
    assert_int_equal(crown_state_parse(s, other), CROWN_OK);
    assert_int_equal(crown_state_errcode(s), CROWN_OK);
    assert_string_equal(crown_state_errmsg(s), "");
    char *now = position_of(s);
    assert_string_equal(now, other);
    assert_int_not_equal(crown_state_hash(s), h);

    /* A bad text is refused with a message and changes nothing. */
    assert_int_equal(crown_state_parse(s, "sskss/5/5 1"), CROWN_ERROR_PARSE);
    assert_int_equal(crown_state_errcode(s), CROWN_ERROR_PARSE);
    assert_true(strlen(crown_state_errmsg(s)) > 0);
    char *after = position_of(s);
    assert_string_equal(after, other);
    assert_int_equal(crown_state_parse(s, NULL), CROWN_ERROR_ARGUMENT);

    assert_int_equal(crown_state_parse(s, start), CROWN_OK);
    assert_int_equal(crown_state_hash(s), h);
    const char *board = NULL;
    assert_int_equal(crown_state_render(s, &board), CROWN_OK);
    assert_true(strlen(board) > 25);
    assert_int_equal(crown_state_render(s, NULL), CROWN_ERROR_ARGUMENT);
    assert_int_equal(crown_state_format(s, NULL), CROWN_ERROR_ARGUMENT);
    free(start);
    free(now);
    free(after);
    crown_state_free(s);
    crown_state_free(NULL);
    crown_game_free(g);
}

static void test_actions_and_text(void **unused)
{
    (void)unused;
    crown_game *g = new_game("kings-valley", NULL, NULL);
    crown_state *s = new_state(g, 0);
    int n = -1;
    assert_int_equal(crown_state_legal_actions(s, NULL, 0, &n), CROWN_OK);
    assert_int_equal(n, 10);
    crown_action few[3];
    assert_int_equal(crown_state_legal_actions(s, few, 3, &n), CROWN_ERROR_ARGUMENT);
    assert_non_null(strstr(crown_state_errmsg(s), "10 needed"));
    assert_int_equal(crown_state_legal_actions(s, few, 3, NULL), CROWN_ERROR_ARGUMENT);
    crown_action all[CROWN_MAX_ACTIONS];
    assert_int_equal(crown_state_legal_actions(s, all, CROWN_MAX_ACTIONS, &n), CROWN_OK);
    assert_int_equal(n, 10);
    for (int i = 0; i < n; i++) {
        const char *text = NULL;
        assert_int_equal(crown_action_to_text(s, all[i], &text), CROWN_OK);
        char copy[64];
        snprintf(copy, sizeof copy, "%s", text);
        crown_action back = 0;
        assert_int_equal(crown_action_from_text(s, copy, &back), CROWN_OK);
        assert_int_equal(back, all[i]);
    }
    /* No chance here. */
    assert_int_equal(crown_state_chance_outcomes(s, NULL, NULL, 0, &n), CROWN_OK);
    assert_int_equal(n, 0);

    crown_action a = 7;
    assert_int_equal(crown_action_from_text(s, "z9-z8", &a), CROWN_ERROR_PARSE);
    assert_int_equal(a, 7);
    assert_true(strlen(crown_state_errmsg(s)) > 0);
    assert_int_equal(crown_action_from_text(s, NULL, &a), CROWN_ERROR_ARGUMENT);
    const char *text = NULL;
    assert_int_equal(crown_action_to_text(s, 0xFFFFFFFFu, &text), CROWN_ERROR_ILLEGAL);
    assert_non_null(strstr(crown_state_errmsg(s), "not legal"));
    assert_null(text);
    crown_state_free(s);
    crown_game_free(g);
}

static void test_illegal_action_changes_nothing(void **unused)
{
    (void)unused;
    crown_game *g = new_game("kings-valley", NULL, NULL);
    crown_state *s = new_state(g, 0);
    assert_int_equal(crown_state_apply_text(s, "a1-a4"), CROWN_OK);
    char *before = position_of(s);
    uint64_t h = crown_state_hash(s);
    crown_action legal[CROWN_MAX_ACTIONS];
    int n = 0;
    assert_int_equal(crown_state_legal_actions(s, legal, CROWN_MAX_ACTIONS, &n), CROWN_OK);

    /* An action legal for the other side a move ago, and numbers that are nothing. */
    crown_state *fresh = new_state(g, 0);
    crown_action old = 0;
    assert_int_equal(crown_action_from_text(fresh, "b1-b4", &old), CROWN_OK);
    crown_action tries[] = {old, 0, 0xFFFFFFFFu, 12345};
    for (size_t i = 0; i < sizeof tries / sizeof tries[0]; i++) {
        int is_legal = 0;
        for (int k = 0; k < n; k++)
            is_legal |= legal[k] == tries[i];
        if (is_legal)
            continue;
        assert_int_equal(crown_state_apply(s, tries[i]), CROWN_ERROR_ILLEGAL);
        assert_non_null(strstr(crown_state_errmsg(s), "not legal"));
        char *after = position_of(s);
        assert_string_equal(after, before);
        free(after);
        assert_int_equal(crown_state_hash(s), h);
        assert_int_equal(crown_state_undo_depth(s), 1);
    }
    /* Text that is against the rules: the opponent's piece. */
    assert_int_not_equal(crown_state_apply_text(s, "a1-a2"), CROWN_OK);
    assert_int_equal(crown_state_hash(s), h);
    assert_int_equal(crown_state_undo_depth(s), 1);
    free(before);
    crown_state_free(fresh);
    crown_state_free(s);
    crown_game_free(g);
}

/* Plays the first legal action (or chance outcome) until the game ends or `max` actions. */
static int play_first_actions(crown_state *s, int max)
{
    int played = 0;
    while (!crown_state_is_over(s) && played < max) {
        crown_action acts[CROWN_MAX_ACTIONS];
        int n = 0;
        if (crown_state_to_move(s) == CROWN_PLAYER_CHANCE)
            assert_int_equal(crown_state_chance_outcomes(s, acts, NULL, CROWN_MAX_ACTIONS, &n),
                             CROWN_OK);
        else
            assert_int_equal(crown_state_legal_actions(s, acts, CROWN_MAX_ACTIONS, &n), CROWN_OK);
        assert_true(n > 0);
        assert_int_equal(crown_state_apply(s, acts[(played * 7) % n]), CROWN_OK);
        played++;
    }
    return played;
}

static void test_apply_undo_restores_hash_and_results(void **unused)
{
    (void)unused;
    crown_game *g = new_game("kings-valley", NULL, NULL);
    crown_state *s = new_state(g, 0);
    assert_int_equal(crown_state_undo(s), CROWN_ERROR_ILLEGAL);
    assert_non_null(strstr(crown_state_errmsg(s), "nothing to undo"));
    double r[CROWN_MAX_PLAYERS];
    assert_int_equal(crown_state_returns(s, r, CROWN_MAX_PLAYERS), CROWN_ERROR_ILLEGAL);
    assert_non_null(strstr(crown_state_errmsg(s), "not over"));
    const char *why = NULL;
    assert_int_equal(crown_state_result_text(s, &why), CROWN_OK);
    assert_string_equal(why, "");

    enum { MAX = 400 };
    uint64_t hashes[MAX + 1];
    hashes[0] = crown_state_hash(s);
    char *start = position_of(s);
    int played = 0;
    while (!crown_state_is_over(s) && played < MAX) {
        played += play_first_actions(s, 1);
        hashes[played] = crown_state_hash(s);
    }
    assert_true(crown_state_is_over(s));
    assert_int_equal(crown_state_to_move(s), CROWN_PLAYER_NONE);
    assert_int_equal(crown_state_undo_depth(s), played);
    assert_int_equal(crown_state_returns(s, r, 1), CROWN_ERROR_ARGUMENT);
    assert_int_equal(crown_state_returns(s, r, CROWN_MAX_PLAYERS), CROWN_OK);
    assert_true(r[0] + r[1] == 0.0);
    assert_int_equal(crown_state_result_text(s, &why), CROWN_OK);
    assert_true(strlen(why) > 0);
    int n = -1;
    assert_int_equal(crown_state_legal_actions(s, NULL, 0, &n), CROWN_OK);
    assert_int_equal(n, 0);
    crown_action any = 0;
    assert_int_equal(crown_action_from_text(s, "a1-a2", &any), CROWN_ERROR_ILLEGAL);
    assert_non_null(strstr(crown_state_errmsg(s), "over"));

    for (int i = played; i > 0; i--) {
        assert_int_equal(crown_state_hash(s), hashes[i]);
        assert_int_equal(crown_state_undo(s), CROWN_OK);
        assert_int_equal(crown_state_hash(s), hashes[i - 1]);
    }
    char *back = position_of(s);
    assert_string_equal(back, start);
    assert_int_equal(crown_state_undo_depth(s), 0);
    free(start);
    free(back);

    /* Parsing a position empties the stack. */
    assert_int_equal(crown_state_apply_text(s, "a1-a4"), CROWN_OK);
    assert_int_equal(crown_state_parse(s, "sskss/5/5/5/SSKSS 1 0"), CROWN_OK);
    assert_int_equal(crown_state_undo_depth(s), 0);
    crown_state_free(s);
    crown_game_free(g);
}

static void test_clone_is_independent(void **unused)
{
    (void)unused;
    crown_game *g = new_game("kings-valley", NULL, NULL);
    crown_state *s = new_state(g, 0);
    assert_int_equal(crown_state_apply_text(s, "a1-a4"), CROWN_OK);
    uint64_t h = crown_state_hash(s);
    crown_state *c = NULL;
    crown_error err;
    assert_int_equal(crown_state_clone(s, &c, &err), CROWN_OK);
    assert_int_equal(crown_state_hash(c), h);
    assert_int_equal(crown_state_undo_depth(c), 1);
    assert_int_equal(play_first_actions(c, 5), 5);
    assert_int_not_equal(crown_state_hash(c), h);
    assert_int_equal(crown_state_hash(s), h);
    assert_int_equal(crown_state_undo_depth(s), 1);
    /* The clone's copied stack undoes past the point of cloning, on the clone only. */
    for (int i = 0; i < 6; i++)
        assert_int_equal(crown_state_undo(c), CROWN_OK);
    crown_state *fresh = new_state(g, 0);
    assert_int_equal(crown_state_hash(c), crown_state_hash(fresh));
    assert_int_equal(crown_state_hash(s), h);
    crown_state_free(s); /* the clone outlives its original */
    assert_int_equal(crown_state_apply_text(c, "b1-b4"), CROWN_OK);
    crown_state_free(c);
    assert_int_equal(crown_state_clone(NULL, &c, &err), CROWN_ERROR_ARGUMENT);
    assert_null(c);
    assert_true(strlen(err.message) > 0);
    crown_state_free(fresh);
    crown_game_free(g);
}

static void test_perft(void **unused)
{
    (void)unused;
    crown_game *g = new_game("kings-valley", NULL, NULL);
    crown_state *s = new_state(g, 0);
    const uint64_t want[] = {1, 10, 110, 1570, 21708};
    uint64_t h = crown_state_hash(s);
    for (int d = 0; d <= 4; d++) {
        uint64_t n = 0;
        assert_int_equal(crown_state_perft(s, d, &n), CROWN_OK);
        assert_int_equal(n, want[d]);
    }
    assert_int_equal(crown_state_hash(s), h);
    uint64_t n = 0;
    assert_int_equal(crown_state_perft(s, -1, &n), CROWN_ERROR_ARGUMENT);
    assert_non_null(strstr(crown_state_errmsg(s), "-1"));
    assert_int_equal(crown_state_perft(s, 65, &n), CROWN_ERROR_ARGUMENT);
    assert_int_equal(crown_state_perft(s, 2, NULL), CROWN_ERROR_ARGUMENT);
    crown_state_free(s);
    crown_game_free(g);
}

static void test_chance_and_four_players(void **unused)
{
    (void)unused;
    crown_game *g = new_game("king-of-the-valley", "players", "4");
    assert_int_equal(crown_game_players(g), 4);
    crown_state *s = new_state(g, 11);
    uint64_t n = 0;
    assert_int_equal(crown_state_perft(s, 2, &n), CROWN_OK);
    assert_int_equal(n, 600);
    /* Play until chance acts: its outcomes have probabilities that sum to 1 and are
     * applied like actions; the players have none meanwhile. */
    int guard = 0;
    while (crown_state_to_move(s) != CROWN_PLAYER_CHANCE && guard++ < 500)
        assert_int_equal(play_first_actions(s, 1), 1);
    assert_int_equal(crown_state_to_move(s), CROWN_PLAYER_CHANCE);
    int count = -1;
    assert_int_equal(crown_state_legal_actions(s, NULL, 0, &count), CROWN_OK);
    assert_int_equal(count, 0);
    crown_action outcomes[CROWN_MAX_ACTIONS];
    double prob[CROWN_MAX_ACTIONS];
    assert_int_equal(crown_state_chance_outcomes(s, outcomes, prob, CROWN_MAX_ACTIONS, &count),
                     CROWN_OK);
    assert_true(count > 0);
    double sum = 0;
    for (int i = 0; i < count; i++)
        sum += prob[i];
    assert_true(sum > 0.999999 && sum < 1.000001);
    const char *text = NULL;
    assert_int_equal(crown_action_to_text(s, outcomes[count - 1], &text), CROWN_OK);
    uint64_t h = crown_state_hash(s);
    assert_int_equal(crown_state_apply(s, outcomes[count - 1]), CROWN_OK);
    assert_int_not_equal(crown_state_to_move(s), CROWN_PLAYER_CHANCE);
    assert_int_equal(crown_state_undo(s), CROWN_OK);
    assert_int_equal(crown_state_hash(s), h);

    /* A whole game of four to its end; everyone gets a return. */
    play_first_actions(s, 100000);
    assert_true(crown_state_is_over(s));
    double r[CROWN_MAX_PLAYERS];
    assert_int_equal(crown_state_returns(s, r, 3), CROWN_ERROR_ARGUMENT);
    assert_int_equal(crown_state_returns(s, r, 4), CROWN_OK);

    /* Agents refuse a chance node, and alpha-beta refuses four players. */
    crown_agent *a = NULL;
    crown_error err;
    assert_int_equal(crown_agent_new(g, "ab", 1, &a, &err), CROWN_ERROR_UNSUPPORTED);
    assert_null(a);
    assert_true(strlen(err.message) > 0);
    crown_state_free(s);
    crown_game_free(g);
}

/* The action and node count of a fresh agent with a depth limit on a position. */
static crown_action think_once(const crown_game *g, const crown_state *s, const char *spec,
                               uint64_t *nodes)
{
    crown_agent *a = NULL;
    crown_error err;
    if (crown_agent_new(g, spec, 3, &a, &err) != CROWN_OK)
        fail_msg("crown_agent_new(%s): %s", spec, err.message);
    assert_int_equal(crown_agent_set_limits(a, 5, 0, 0), CROWN_OK);
    crown_action best = 0;
    assert_int_equal(crown_agent_think(a, s, &best), CROWN_OK);
    assert_int_equal(crown_agent_errcode(a), CROWN_OK);
    assert_int_equal(crown_agent_last_depth(a), 5);
    *nodes = crown_agent_last_nodes(a);
    crown_agent_free(a);
    return best;
}

static void test_agent_depth_limit_is_deterministic(void **unused)
{
    (void)unused;
    crown_game *g = new_game("kings-valley", NULL, NULL);
    crown_state *s = new_state(g, 0);
    assert_int_equal(crown_state_apply_text(s, "a1-a4"), CROWN_OK);
    uint64_t h = crown_state_hash(s);
    uint64_t n1 = 0, n2 = 0;
    crown_action b1 = think_once(g, s, "ab", &n1);
    crown_action b2 = think_once(g, s, "ab", &n2);
    assert_int_equal(b1, b2);
    assert_int_equal(n1, n2);
    assert_true(n1 > 0);
    assert_int_equal(crown_state_hash(s), h); /* think does not change the state */
    assert_int_equal(crown_state_apply(s, b1), CROWN_OK);

    crown_agent *a = NULL;
    crown_error err;
    assert_int_equal(crown_agent_new(g, "ai:7", 5, &a, &err), CROWN_OK);
    const char *text = NULL;
    assert_int_equal(crown_agent_describe(a, &text), CROWN_OK);
    assert_non_null(strstr(text, "level 7"));
    assert_int_equal(crown_agent_set_limits(a, -2, 0, 0), CROWN_ERROR_ARGUMENT);
    assert_true(strlen(crown_agent_errmsg(a)) > 0);
    assert_int_equal(crown_agent_set_limits(a, 2, 0, 0), CROWN_OK);
    assert_string_equal(crown_agent_errmsg(a), "");
    assert_int_equal(crown_agent_describe(a, &text), CROWN_OK);
    assert_non_null(strstr(text, "depth 2"));
    crown_action best = 0;
    assert_int_equal(crown_agent_think(a, s, NULL), CROWN_ERROR_ARGUMENT);
    assert_int_equal(crown_agent_think(a, s, &best), CROWN_OK);
    assert_int_equal(crown_state_apply(s, best), CROWN_OK); /* legal */

    /* A state of another game, and a game that is over. */
    crown_game *other = new_game("kings-guard", NULL, NULL);
    crown_state *os = new_state(other, 0);
    assert_int_equal(crown_agent_think(a, os, &best), CROWN_ERROR_ARGUMENT);
    assert_non_null(strstr(crown_agent_errmsg(a), "another game"));
    assert_int_equal(crown_state_parse(s, "ss1ss/5/2k2/5/SSKSS 2 9"), CROWN_OK);
    assert_true(crown_state_is_over(s));
    assert_int_equal(crown_agent_think(a, s, &best), CROWN_ERROR_ILLEGAL);
    assert_int_equal(crown_agent_errcode(a), CROWN_ERROR_ILLEGAL);
    crown_agent_stop(NULL);
    crown_agent_free(a);
    crown_agent_free(NULL);

    assert_int_equal(crown_agent_new(g, "deep-blue", 0, &a, &err), CROWN_ERROR_PARSE);
    assert_null(a);
    assert_non_null(strstr(err.message, "deep-blue"));
    assert_int_equal(crown_agent_new(g, "ai:11", 0, &a, &err), CROWN_ERROR_PARSE);
    assert_int_equal(crown_agent_new(NULL, "ai", 0, &a, &err), CROWN_ERROR_ARGUMENT);

    /* MCTS under a node limit repeats itself too. */
    crown_state *start = new_state(g, 0);
    crown_action m[2];
    for (int i = 0; i < 2; i++) {
        assert_int_equal(crown_agent_new(g, "mcts", 9, &a, &err), CROWN_OK);
        assert_int_equal(crown_agent_set_limits(a, 0, 300, 0), CROWN_OK);
        assert_int_equal(crown_agent_think(a, start, &m[i]), CROWN_OK);
        assert_int_equal(crown_agent_last_nodes(a), 300);
        crown_agent_free(a);
    }
    assert_int_equal(m[0], m[1]);
    crown_state_free(start);
    crown_state_free(os);
    crown_game_free(other);
    crown_state_free(s);
    crown_game_free(g);
}

/* The legal actions kept between calls follow every change; undo_action names what it
 * takes back; history and the agent's score and PV. */
static void test_undo_action_history_score_pv(void **unused)
{
    (void)unused;
    crown_game *g = new_game("kings-valley", NULL, NULL);
    crown_state *s = new_state(g, 0);
    crown_action first[CROWN_MAX_ACTIONS], again[CROWN_MAX_ACTIONS], moves[3];
    int n1 = 0, n2 = 0, nh = -1;
    assert_int_equal(crown_state_legal_actions(s, first, CROWN_MAX_ACTIONS, &n1), CROWN_OK);
    assert_int_equal(crown_state_history(s, moves, 3, &nh), CROWN_OK);
    assert_int_equal(nh, 0);
    assert_int_equal(crown_state_undo_action(s, first[0]), CROWN_ERROR_ILLEGAL);
    assert_int_equal(crown_state_apply(s, first[0]), CROWN_OK);
    assert_int_equal(crown_state_legal_actions(s, again, CROWN_MAX_ACTIONS, &n2), CROWN_OK);
    assert_int_equal(crown_state_apply(s, again[0]), CROWN_OK);
    assert_int_equal(crown_state_history(s, moves, 1, &nh), CROWN_ERROR_ARGUMENT);
    assert_int_equal(crown_state_history(s, moves, 3, &nh), CROWN_OK);
    assert_int_equal(nh, 2);
    assert_int_equal(moves[0], first[0]);
    assert_int_equal(moves[1], again[0]);
    uint64_t h = crown_state_hash(s);
    assert_int_equal(crown_state_undo_action(s, first[0]), CROWN_ERROR_ILLEGAL);
    assert_non_null(strstr(crown_state_errmsg(s), "not the last action"));
    assert_int_equal(crown_state_hash(s), h);
    assert_int_equal(crown_state_undo_depth(s), 2);
    assert_int_equal(crown_state_undo_action(s, again[0]), CROWN_OK);
    assert_int_equal(crown_state_undo_action(s, first[0]), CROWN_OK);
    /* Back at the start, the list is the start's again, not the one kept before. */
    assert_int_equal(crown_state_legal_actions(s, again, CROWN_MAX_ACTIONS, &n2), CROWN_OK);
    assert_int_equal(n2, n1);
    assert_memory_equal(again, first, sizeof *first * (size_t)n1);
    char *start = position_of(s);
    assert_int_equal(crown_state_apply(s, first[0]), CROWN_OK);
    assert_int_equal(crown_state_legal_actions(s, again, CROWN_MAX_ACTIONS, &n2), CROWN_OK);
    assert_int_equal(crown_state_parse(s, start), CROWN_OK);
    free(start);
    assert_int_equal(crown_state_history(s, NULL, 0, &nh), CROWN_OK);
    assert_int_equal(nh, 0);
    assert_int_equal(crown_state_legal_actions(s, again, CROWN_MAX_ACTIONS, &n2), CROWN_OK);
    assert_int_equal(n2, n1);
    assert_memory_equal(again, first, sizeof *first * (size_t)n1);

    crown_agent *a = NULL;
    int score = 1, npv = -1;
    double value = 1.0;
    crown_action pv[CROWN_MAX_PV], best = 0;
    assert_int_equal(crown_agent_new(g, "ab", 1, &a, NULL), CROWN_OK);
    assert_int_equal(crown_agent_last_score(a, &score, &value), 0);
    assert_int_equal(crown_agent_last_pv(a, pv, CROWN_MAX_PV, &npv), CROWN_OK);
    assert_int_equal(npv, 0);
    assert_int_equal(crown_agent_set_limits(a, 3, 0, 0), CROWN_OK);
    assert_int_equal(crown_agent_think(a, s, &best), CROWN_OK);
    assert_int_equal(crown_agent_last_score(a, &score, NULL), 1);
    assert_true(score > -CROWN_SCORE_WIN && score < CROWN_SCORE_WIN);
    assert_int_equal(crown_agent_last_pv(a, NULL, 0, &npv), CROWN_OK); /* the count alone */
    assert_int_equal(crown_agent_last_pv(a, pv, CROWN_MAX_PV, &npv), CROWN_OK);
    assert_true(npv >= 1 && npv <= 3);
    assert_int_equal(pv[0], best);
    crown_agent_free(a);
    assert_int_equal(crown_agent_new(g, "mcts", 1, &a, NULL), CROWN_OK);
    assert_int_equal(crown_agent_set_limits(a, 0, 200, 0), CROWN_OK);
    assert_int_equal(crown_agent_think(a, s, &best), CROWN_OK);
    assert_int_equal(crown_agent_last_score(a, NULL, &value), 0);
    assert_true(value >= -1.0 && value <= 1.0);
    assert_int_equal(crown_agent_last_pv(a, pv, CROWN_MAX_PV, &npv), CROWN_OK);
    assert_int_equal(pv[0], best);
    crown_agent_free(a);
    crown_state_free(s);
    crown_game_free(g);
}

static void test_observations(void **unused)
{
    (void)unused;
    crown_game *g = new_game("kings-valley", NULL, NULL);
    crown_state *s = new_state(g, 0);
    int dims[CROWN_OBS_MAX_DIMS], nd = 0;
    crown_error err;
    assert_int_equal(crown_game_observation_shape(g, dims, CROWN_OBS_MAX_DIMS, &nd, &err),
                     CROWN_OK);
    assert_int_equal(nd, 3); /* one board: [planes, rows, cols] */
    assert_int_equal(dims[1], 5);
    assert_int_equal(dims[2], 5);
    assert_int_equal(crown_game_observation_shape(g, dims, 2, &nd, &err), CROWN_ERROR_ARGUMENT);
    assert_non_null(strstr(err.message, "3 needed"));
    size_t size = (size_t)dims[0] * (size_t)dims[1] * (size_t)dims[2];

    const char *json = NULL;
    assert_int_equal(crown_state_observation_json(s, 0, &json), CROWN_OK);
    assert_true(json[0] == '{');
    assert_non_null(strstr(json, "\"observer\":0"));
    assert_non_null(strstr(json, "\"c3\""));
    assert_int_equal(crown_state_observation_json(s, CROWN_PLAYER_NONE, &json), CROWN_OK);
    assert_non_null(strstr(json, "\"observer\":null"));

    float *seat = calloc(size, sizeof *seat), *spectator = calloc(size, sizeof *spectator);
    assert_non_null(seat);
    assert_non_null(spectator);
    assert_int_equal(crown_state_observation_tensor(s, 0, seat, size), CROWN_OK);
    assert_int_equal(crown_state_observation_tensor(s, CROWN_PLAYER_NONE, spectator, size),
                     CROWN_OK);
    double sum = 0;
    int differ = 0;
    for (size_t i = 0; i < size; i++) {
        assert_true(seat[i] >= 0.0f);
        sum += (double)seat[i];
        differ += seat[i] != spectator[i];
    }
    assert_true(sum > 10.0); /* ten pieces and more */
    assert_true(differ > 0); /* the observer plane */
    /* The tensor follows the position. */
    assert_int_equal(crown_state_apply_text(s, "a1-a4"), CROWN_OK);
    assert_int_equal(crown_state_observation_tensor(s, 0, spectator, size), CROWN_OK);
    assert_memory_not_equal(seat, spectator, size * sizeof *seat);

    assert_int_equal(crown_state_observation_tensor(s, 0, seat, size - 1), CROWN_ERROR_ARGUMENT);
    assert_non_null(strstr(crown_state_errmsg(s), "needed"));
    assert_int_equal(crown_state_observation_tensor(s, 2, seat, size), CROWN_ERROR_ARGUMENT);
    assert_non_null(strstr(crown_state_errmsg(s), "observer 2"));
    assert_int_equal(crown_state_observation_json(s, -3, &json), CROWN_ERROR_ARGUMENT);
    assert_int_equal(crown_state_observation_json(s, 0, NULL), CROWN_ERROR_ARGUMENT);
    assert_int_equal(crown_state_observation_tensor(s, 0, NULL, size), CROWN_ERROR_ARGUMENT);
    assert_int_equal(crown_game_observation_shape(NULL, dims, 3, &nd, NULL), CROWN_ERROR_ARGUMENT);
    assert_int_equal(crown_state_observation_json(NULL, 0, &json), CROWN_ERROR_ARGUMENT);
    free(seat);
    free(spectator);
    crown_state_free(s);
    crown_game_free(g);

    /* A game that offers none says so. */
    int have = 0;
    for (int i = 0; i < crown_game_count() && !have; i++) {
        crown_game *o = new_game(crown_game_names(i), NULL, NULL);
        if (crown_game_observation_shape(o, dims, CROWN_OBS_MAX_DIMS, &nd, &err) ==
            CROWN_ERROR_UNSUPPORTED) {
            have = 1;
            assert_non_null(strstr(err.message, "no observations"));
            crown_state *os = new_state(o, 0);
            assert_int_equal(crown_state_observation_json(os, 0, &json), CROWN_ERROR_UNSUPPORTED);
            crown_state_free(os);
        }
        crown_game_free(o);
    }
    (void)have; /* once every game has observations there is nothing to refuse */
}

/* One thread's work on a game it shares: its own state and agent. */
typedef struct ThreadJob {
    const crown_game *game;
    uint64_t perft;
    crown_action best;
    int status;
} ThreadJob;

static void *thread_work(void *arg)
{
    ThreadJob *job = arg;
    crown_state *s = NULL;
    crown_agent *a = NULL;
    job->status = crown_state_new(job->game, 0, &s, NULL);
    if (job->status == CROWN_OK)
        job->status = crown_state_perft(s, 4, &job->perft);
    if (job->status == CROWN_OK)
        job->status = crown_agent_new(job->game, "ab", 2, &a, NULL);
    if (job->status == CROWN_OK)
        job->status = crown_agent_set_limits(a, 4, 0, 0);
    if (job->status == CROWN_OK)
        job->status = crown_agent_think(a, s, &job->best);
    crown_agent_free(a);
    crown_state_free(s);
    return NULL;
}

static void test_threads_share_a_game(void **unused)
{
    (void)unused;
    crown_game *g = new_game("kings-valley", NULL, NULL);
    ThreadJob jobs[2] = {{.game = g}, {.game = g}};
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&t[i], NULL, thread_work, &jobs[i]), 0);
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_join(t[i], NULL), 0);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(jobs[i].status, CROWN_OK);
        assert_int_equal(jobs[i].perft, 21708);
    }
    assert_int_equal(jobs[0].best, jobs[1].best);
    crown_game_free(g);
}

static void test_null_handles_are_refused(void **unused)
{
    (void)unused;
    const char *text = NULL;
    crown_action a = 0;
    int n = 0;
    double r[4];
    uint64_t c = 0;
    assert_int_equal(crown_state_parse(NULL, "x"), CROWN_ERROR_ARGUMENT);
    assert_int_equal(crown_state_format(NULL, &text), CROWN_ERROR_ARGUMENT);
    assert_int_equal(crown_state_render(NULL, &text), CROWN_ERROR_ARGUMENT);
    assert_int_equal(crown_state_legal_actions(NULL, NULL, 0, &n), CROWN_ERROR_ARGUMENT);
    assert_int_equal(crown_state_chance_outcomes(NULL, NULL, NULL, 0, &n), CROWN_ERROR_ARGUMENT);
    assert_int_equal(crown_action_from_text(NULL, "a1-a2", &a), CROWN_ERROR_ARGUMENT);
    assert_int_equal(crown_action_to_text(NULL, 1, &text), CROWN_ERROR_ARGUMENT);
    assert_int_equal(crown_state_apply(NULL, 1), CROWN_ERROR_ARGUMENT);
    assert_int_equal(crown_state_apply_text(NULL, "a1-a2"), CROWN_ERROR_ARGUMENT);
    assert_int_equal(crown_state_undo(NULL), CROWN_ERROR_ARGUMENT);
    assert_int_equal(crown_state_returns(NULL, r, 4), CROWN_ERROR_ARGUMENT);
    assert_int_equal(crown_state_result_text(NULL, &text), CROWN_ERROR_ARGUMENT);
    assert_int_equal(crown_state_perft(NULL, 1, &c), CROWN_ERROR_ARGUMENT);
    assert_int_equal(crown_state_errcode(NULL), CROWN_ERROR_ARGUMENT);
    assert_non_null(crown_state_errmsg(NULL));
    assert_null(crown_state_game(NULL));
    assert_int_equal(crown_state_to_move(NULL), CROWN_PLAYER_NONE);
    assert_int_equal(crown_state_hash(NULL), 0);
    assert_int_equal(crown_state_undo_depth(NULL), 0);
    assert_int_equal(crown_state_new(NULL, 0, NULL, NULL), CROWN_ERROR_ARGUMENT);
    assert_null(crown_game_name(NULL));
    assert_int_equal(crown_game_players(NULL), 0);
    assert_int_equal(crown_game_option_count(NULL), 0);
    assert_int_equal(crown_agent_set_limits(NULL, 1, 0, 0), CROWN_ERROR_ARGUMENT);
    assert_int_equal(crown_agent_think(NULL, NULL, &a), CROWN_ERROR_ARGUMENT);
    assert_int_equal(crown_agent_describe(NULL, &text), CROWN_ERROR_ARGUMENT);
    assert_int_equal(crown_agent_errcode(NULL), CROWN_ERROR_ARGUMENT);
    assert_non_null(crown_agent_errmsg(NULL));
    assert_int_equal(crown_agent_last_nodes(NULL), 0);
    assert_int_equal(crown_agent_last_depth(NULL), 0);
}

/* A legal action or chance outcome of s, picked by the generator *rnd. */
static crown_action random_action(crown_state *s, unsigned *rnd)
{
    crown_action acts[CROWN_MAX_ACTIONS];
    int n = 0;
    if (crown_state_to_move(s) == CROWN_PLAYER_CHANCE)
        assert_int_equal(crown_state_chance_outcomes(s, acts, NULL, CROWN_MAX_ACTIONS, &n),
                         CROWN_OK);
    else
        assert_int_equal(crown_state_legal_actions(s, acts, CROWN_MAX_ACTIONS, &n), CROWN_OK);
    assert_true(n > 0);
    *rnd = *rnd * 1103515245u + 12345u;
    return acts[(*rnd >> 8) % (unsigned)n];
}

/* Upper case, for the spellings players type: only where the text is squares and dashes,
 * since other words of a notation keep their case (King of the Valley's L3). */
static bool upper_spelling(const char *text, char *out, size_t cap)
{
    if (strlen(text) >= cap || strspn(text, "abcdefghijklm0123456789-,") != strlen(text))
        return false;
    size_t i = 0;
    for (; text[i]; i++)
        out[i] = (char)(text[i] >= 'a' && text[i] <= 'z' ? text[i] - 32 : text[i]);
    out[i] = '\0';
    return true;
}

/* What `crown play` and the browser read, the API reads: every action of random games of
 * every game as the game writes it, in upper case, and chance outcomes by their text,
 * through crown_state_apply_text and crown_action_from_text alike. */
static void test_text_as_players_type_it_in_every_game(void **unused)
{
    (void)unused;
    int upper_checked = 0;
    for (int gi = 0; gi < crown_game_count(); gi++) {
        crown_game *g = new_game(crown_game_names(gi), NULL, NULL);
        crown_state *s = new_state(g, 7);
        crown_state *t = new_state(g, 7);
        unsigned rnd = 12345u + (unsigned)gi;
        for (int ply = 0; ply < 60 && !crown_state_is_over(s); ply++) {
            const crown_action a = random_action(s, &rnd);
            const char *text = NULL;
            assert_int_equal(crown_action_to_text(s, a, &text), CROWN_OK);
            char typed[64];
            snprintf(typed, sizeof typed, "%s", text);
            if (crown_state_to_move(s) >= 0 && upper_spelling(text, typed, sizeof typed))
                upper_checked++;
            crown_action back = 0;
            if (crown_action_from_text(s, typed, &back) != CROWN_OK)
                fail_msg("%s: '%s' (%s): %s", crown_game_names(gi), typed, text,
                         crown_state_errmsg(s));
            assert_int_equal(back, a);
            assert_int_equal(crown_state_apply(s, a), CROWN_OK);
            if (crown_state_apply_text(t, typed) != CROWN_OK)
                fail_msg("%s: apply '%s': %s", crown_game_names(gi), typed, crown_state_errmsg(t));
            assert_int_equal(crown_state_hash(t), crown_state_hash(s));
            assert_int_equal(crown_state_undo_depth(t), crown_state_undo_depth(s));
        }
        crown_state_free(t);
        crown_state_free(s);
        crown_game_free(g);
    }
    assert_true(upper_checked > 50);
}

/* OpenSpiel's action numbering in random games of every game, played to the end by index:
 * in every position the legal actions' indices are distinct, ascending, in range, and
 * map one to one to the legal actions; an index not legal there changes nothing; the
 * history gives back the indices played; no game outlasts its maximum length. */
static void test_action_indices_in_every_game(void **unused)
{
    (void)unused;
    for (int gi = 0; gi < crown_game_count(); gi++) {
        crown_game *g = new_game(crown_game_names(gi), NULL, NULL);
        const int distinct = crown_game_num_distinct_actions(g);
        const int outcomes = crown_game_max_chance_outcomes(g);
        assert_true(distinct > 0 && outcomes >= 0);
        for (uint64_t seed = 1; seed <= 2; seed++) {
            crown_state *s = new_state(g, seed);
            unsigned rnd = 777u * (unsigned)seed + (unsigned)gi;
            int played[4096], plies = 0;
            while (!crown_state_is_over(s) && plies < 4096) {
                const bool chance = crown_state_to_move(s) == CROWN_PLAYER_CHANCE;
                crown_action acts[CROWN_MAX_ACTIONS];
                int idx[CROWN_MAX_ACTIONS], n = 0, m = 0;
                double prob[CROWN_MAX_ACTIONS];
                if (chance)
                    assert_int_equal(crown_state_chance_outcomes(s, acts, NULL, CROWN_MAX_ACTIONS,
                                                                 &n), CROWN_OK);
                else
                    assert_int_equal(crown_state_legal_actions(s, acts, CROWN_MAX_ACTIONS, &n),
                                     CROWN_OK);
                assert_int_equal(crown_state_legal_indices(s, idx, prob, CROWN_MAX_ACTIONS, &m),
                                 CROWN_OK);
                assert_int_equal(m, n);
                if (plies == 0) {
                    int only = -1, one[1];
                    assert_int_equal(crown_state_legal_indices(s, NULL, NULL, 0, &only), CROWN_OK);
                    assert_int_equal(only, n);
                    assert_int_equal(crown_state_legal_indices(s, one, NULL, 1, &only),
                                     n > 1 ? CROWN_ERROR_ARGUMENT : CROWN_OK);
                    assert_int_equal(crown_state_history_indices(s, NULL, 0, &only), CROWN_OK);
                    assert_int_equal(only, 0);
                    assert_int_equal(crown_state_resample(s, 0, 9), CROWN_OK);
                    assert_int_equal(crown_state_resample(s, 7, 9), CROWN_ERROR_ARGUMENT);
                }
                for (int i = 0; i < n; i++) {
                    assert_true(idx[i] >= 0 && idx[i] < (chance ? outcomes : distinct));
                    if (i > 0 && idx[i] <= idx[i - 1])
                        fail_msg("%s: indices %d, %d out of order or shared",
                                 crown_game_names(gi), idx[i - 1], idx[i]);
                    int back = -1;
                    crown_action a = 0;
                    assert_int_equal(crown_state_action_index(s, acts[i], &back), CROWN_OK);
                    assert_int_equal(crown_state_index_action(s, back, &a), CROWN_OK);
                    assert_int_equal(a, acts[i]);
                }
                const uint64_t hash = crown_state_hash(s);
                int gap = n;
                for (int i = 0; i + 1 < n; i++)
                    if (idx[i + 1] > idx[i] + 1)
                        gap = i;
                const int missing = gap < n ? idx[gap] + 1 : (chance ? outcomes : distinct);
                assert_int_equal(crown_state_apply_index(s, missing), CROWN_ERROR_ILLEGAL);
                assert_int_equal(crown_state_hash(s), hash);
                rnd = rnd * 1103515245u + 12345u;
                played[plies] = idx[(rnd >> 8) % (unsigned)n];
                assert_int_equal(crown_state_apply_index(s, played[plies]), CROWN_OK);
                plies++;
            }
            assert_true(crown_state_is_over(s));
            assert_true(plies <= crown_game_max_game_length(g));
            int hist[4096], h = 0;
            assert_int_equal(crown_state_history_indices(s, hist, 4096, &h), CROWN_OK);
            assert_int_equal(h, plies);
            assert_memory_equal(hist, played, sizeof *hist * (size_t)h);
            crown_state_free(s);
        }
        crown_game_free(g);
    }
}

/* The spellings of the README's table, and whole turns: one text, several actions on the
 * undo stack; a turn with any bad part changes nothing. */
static void test_typed_spellings_and_whole_turns(void **unused)
{
    (void)unused;
    static const struct {
        const char *game, *position, *as_written, *typed[4];
    } CASES[] = {
        {"kings-valley", NULL, "a1-a4", {"A1-A4", "a1a4", "A1A4", " a1A4"}},
        {"king-down", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e2e4",
         {"E2E4", "e2-e4", "E2-E4", "e2e4 "}},
    };
    for (size_t c = 0; c < sizeof CASES / sizeof *CASES; c++) {
        crown_game *g = new_game(CASES[c].game, NULL, NULL);
        crown_state *want = new_state(g, 0);
        if (CASES[c].position)
            assert_int_equal(crown_state_parse(want, CASES[c].position), CROWN_OK);
        assert_int_equal(crown_state_apply_text(want, CASES[c].as_written), CROWN_OK);
        for (int k = 0; k < 4; k++) {
            crown_state *s = new_state(g, 0);
            if (CASES[c].position)
                assert_int_equal(crown_state_parse(s, CASES[c].position), CROWN_OK);
            crown_action a = 0, b = 0;
            if (crown_action_from_text(s, CASES[c].typed[k], &a) != CROWN_OK)
                fail_msg("%s '%s': %s", CASES[c].game, CASES[c].typed[k], crown_state_errmsg(s));
            assert_int_equal(crown_action_from_text(s, CASES[c].as_written, &b), CROWN_OK);
            assert_int_equal(a, b);
            assert_int_equal(crown_state_apply_text(s, CASES[c].typed[k]), CROWN_OK);
            assert_int_equal(crown_state_hash(s), crown_state_hash(want));
            crown_state_free(s);
        }
        crown_state_free(want);
        crown_game_free(g);
    }

    /* A King's Guard turn as one text: the pick-up, each placement and the end. */
    crown_game *g = new_game("kings-guard-8x8", NULL, NULL);
    crown_state *s = new_state(g, 0);
    assert_int_equal(crown_state_parse(s, "7k/8/3G4/8/3G4/8/8/K7 2 1"), CROWN_OK);
    const uint64_t start = crown_state_hash(s);
    assert_int_equal(crown_state_apply_text(s, "H8H7"), CROWN_OK);
    const int n = crown_state_undo_depth(s);
    assert_true(n >= 2);
    assert_int_not_equal(crown_state_to_move(s), 1);
    crown_state *u = new_state(g, 0);
    assert_int_equal(crown_state_parse(u, "7k/8/3G4/8/3G4/8/8/K7 2 1"), CROWN_OK);
    assert_int_equal(crown_state_apply_text(u, "h8-h7"), CROWN_OK);
    assert_int_equal(crown_state_hash(u), crown_state_hash(s));
    for (int i = 0; i < n; i++)
        assert_int_equal(crown_state_undo(s), CROWN_OK);
    assert_int_equal(crown_state_hash(s), start);

    /* Bad texts change nothing and say why: no move, a square off the board, a turn
     * whose second part comes after it is over. */
    static const char *const bad[] = {"", "   ", "z9-z8", "h8-h7;a1-a2"};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        assert_int_not_equal(crown_state_apply_text(s, bad[k]), CROWN_OK);
        assert_true(strlen(crown_state_errmsg(s)) > 0);
        assert_int_equal(crown_state_hash(s), start);
        assert_int_equal(crown_state_undo_depth(s), 0);
    }
    assert_int_equal(crown_state_apply_text(s, NULL), CROWN_ERROR_ARGUMENT);
    crown_state_free(u);
    crown_state_free(s);
    crown_game_free(g);
}

/* The result in crown play's words, neutral and to each seat, consistent with the returns. */
static void test_result_words(void **unused)
{
    (void)unused;
    crown_game *g = new_game("kings-valley", NULL, NULL);
    crown_state *s = new_state(g, 0);
    const char *text = NULL;
    assert_int_equal(crown_state_result_words(s, CROWN_PLAYER_NONE, &text), CROWN_OK);
    assert_string_equal(text, "unfinished");
    unsigned rnd = 99;
    for (int ply = 0; ply < 5000 && !crown_state_is_over(s); ply++) {
        assert_int_equal(crown_state_apply(s, random_action(s, &rnd)), CROWN_OK);
    }
    assert_true(crown_state_is_over(s));
    double ret[2];
    assert_int_equal(crown_state_returns(s, ret, 2), CROWN_OK);
    const char *why = NULL;
    assert_int_equal(crown_state_result_text(s, &why), CROWN_OK);
    char want_why[256];
    snprintf(want_why, sizeof want_why, ": %s", why);
    assert_int_equal(crown_state_result_words(s, CROWN_PLAYER_NONE, &text), CROWN_OK);
    assert_non_null(strstr(text, want_why));
    assert_true(strncmp(text, ret[0] > ret[1] ? "first player wins" : ret[0] < ret[1]
                                                  ? "second player wins" : "draw",
                        strlen(ret[0] != ret[1] ? "first player wins" : "draw")) == 0);
    for (int seat = 0; seat < 2; seat++) {
        assert_int_equal(crown_state_result_words(s, seat, &text), CROWN_OK);
        const char *start = ret[seat] > ret[1 - seat] ? "You won: " : ret[seat] < ret[1 - seat]
                                                                      ? "You lost: " : "Draw: ";
        assert_true(strncmp(text, start, strlen(start)) == 0);
    }
    assert_int_equal(crown_state_result_words(s, 2, &text), CROWN_ERROR_ARGUMENT);
    assert_non_null(strstr(crown_state_errmsg(s), "viewer 2"));
    assert_int_equal(crown_state_result_words(s, CROWN_PLAYER_CHANCE, &text),
                     CROWN_ERROR_ARGUMENT);
    assert_int_equal(crown_state_result_words(s, 0, NULL), CROWN_ERROR_ARGUMENT);
    assert_int_equal(crown_state_result_words(NULL, 0, &text), CROWN_ERROR_ARGUMENT);
    crown_state_free(s);
    crown_game_free(g);
}

/* Reads take const handles (a compile-time check as much as a run-time one) and leave
 * the position as it was. */
static void test_reads_take_const_handles(void **unused)
{
    (void)unused;
    crown_game *g = new_game("kings-valley", NULL, NULL);
    crown_state *s = new_state(g, 0);
    const crown_state *c = s;
    const uint64_t hash = crown_state_hash(c);
    const char *text = NULL;
    crown_action acts[CROWN_MAX_ACTIONS], a = 0;
    double prob[CROWN_MAX_ACTIONS], r[CROWN_MAX_PLAYERS];
    int n = 0;
    uint64_t count = 0;
    assert_int_equal(crown_state_format(c, &text), CROWN_OK);
    assert_int_equal(crown_state_render(c, &text), CROWN_OK);
    assert_int_equal(crown_state_legal_actions(c, acts, CROWN_MAX_ACTIONS, &n), CROWN_OK);
    assert_true(n > 0);
    assert_int_equal(crown_state_chance_outcomes(c, acts, prob, CROWN_MAX_ACTIONS, &n), CROWN_OK);
    assert_int_equal(n, 0);
    assert_int_equal(crown_action_from_text(c, "a1-a4", &a), CROWN_OK);
    assert_int_equal(crown_action_to_text(c, a, &text), CROWN_OK);
    assert_string_equal(text, "a1-a4");
    assert_int_equal(crown_state_history(c, acts, CROWN_MAX_ACTIONS, &n), CROWN_OK);
    assert_int_equal(crown_state_returns(c, r, CROWN_MAX_PLAYERS), CROWN_ERROR_ILLEGAL);
    assert_int_equal(crown_state_result_text(c, &text), CROWN_OK);
    assert_int_equal(crown_state_result_words(c, CROWN_PLAYER_NONE, &text), CROWN_OK);
    assert_int_equal(crown_state_perft(c, 2, &count), CROWN_OK);
    assert_int_equal(crown_state_observation_json(c, 0, &text), CROWN_OK);
    assert_int_equal(crown_state_hash(c), hash);
    assert_int_equal(crown_state_undo_depth(c), 0);

    crown_agent *ag = NULL;
    assert_int_equal(crown_agent_new(g, "ab:2", 0, &ag, NULL), CROWN_OK);
    const crown_agent *ca = ag;
    assert_int_equal(crown_agent_describe(ca, &text), CROWN_OK);
    assert_int_equal(crown_agent_last_pv(ca, acts, CROWN_MAX_PV, &n), CROWN_OK);
    assert_int_equal(n, 0);
    crown_agent_free(ag);
    crown_state_free(s);
    crown_game_free(g);
}

/* A counting allocator whose blocks carry a mark, so that a block freed by the wrong
 * party is caught; it fails every allocation after `fail_after` of them (-1: never). */
typedef struct Pool {
    int allocs, reallocs, frees;
    long live;
    size_t biggest;
    int fail_after;
    bool failed_growth; /* a realloc was refused */
} Pool;

enum { POOL_MARK = 0x6372776e, POOL_HEAD = 16 };

static bool pool_may(Pool *p)
{
    if (p->fail_after == 0)
        return false;
    if (p->fail_after > 0)
        p->fail_after--;
    return true;
}

static void *pool_alloc(void *ud, size_t size)
{
    Pool *p = ud;
    if (!pool_may(p))
        return NULL;
    unsigned char *b = malloc(POOL_HEAD + size);
    assert_non_null(b);
    const int mark = POOL_MARK;
    memcpy(b, &mark, sizeof mark);
    p->allocs++;
    p->live++;
    p->biggest = size > p->biggest ? size : p->biggest;
    return b + POOL_HEAD;
}

static void pool_check(const void *ptr)
{
    int mark = 0;
    memcpy(&mark, (const unsigned char *)ptr - POOL_HEAD, sizeof mark);
    assert_int_equal(mark, POOL_MARK);
}

static void *pool_realloc(void *ud, void *ptr, size_t size)
{
    Pool *p = ud;
    if (ptr == NULL)
        return pool_alloc(ud, size);
    pool_check(ptr);
    if (!pool_may(p)) {
        p->failed_growth = true;
        return NULL;
    }
    unsigned char *b = realloc((unsigned char *)ptr - POOL_HEAD, POOL_HEAD + size);
    assert_non_null(b);
    p->reallocs++;
    return b + POOL_HEAD;
}

static void pool_free(void *ud, void *ptr)
{
    Pool *p = ud;
    assert_non_null(ptr);
    pool_check(ptr);
    free((unsigned char *)ptr - POOL_HEAD);
    p->frees++;
    p->live--;
}

/* One embedder's session through the pool: a game, a state played 20 actions deep (the
 * undo stack grows), a clone, perft, an observation and an alpha-beta agent's think (its
 * transposition table), then an MCTS agent's (its tree grows). Returns the first failing
 * status; everything made is freed either way. */
static int pool_session(Pool *pool)
{
    const crown_allocator alloc = {pool_alloc, pool_realloc, pool_free, pool};
    crown_game *g = NULL;
    crown_state *s = NULL, *c = NULL;
    crown_agent *a = NULL;
    int st = crown_game_new_with(&alloc, "kings-valley", NULL, NULL, 0, &g, NULL);
    if (st == CROWN_OK)
        st = crown_state_new(g, 1, &s, NULL);
    for (int i = 0; st == CROWN_OK && i < 20 && !crown_state_is_over(s); i++) {
        crown_action acts[CROWN_MAX_ACTIONS];
        int n = 0;
        st = crown_state_legal_actions(s, acts, CROWN_MAX_ACTIONS, &n);
        if (st == CROWN_OK)
            st = crown_state_apply(s, acts[(i * 7) % n]);
    }
    if (st == CROWN_OK)
        st = crown_state_clone(s, &c, NULL);
    uint64_t count = 0;
    if (st == CROWN_OK)
        st = crown_state_perft(c, 1, &count);
    const char *json = NULL;
    if (st == CROWN_OK)
        st = crown_state_observation_json(c, 0, &json);
    if (st == CROWN_OK)
        st = crown_agent_new(g, "ab:1", 0, &a, NULL);
    crown_action best = 0;
    if (st == CROWN_OK && !crown_state_is_over(c))
        st = crown_agent_think(a, c, &best);
    crown_agent_free(a);
    a = NULL;
    if (st == CROWN_OK)
        st = crown_agent_new(g, "mcts", 0, &a, NULL);
    if (st == CROWN_OK)
        st = crown_agent_set_limits(a, 0, 6000, 0);
    if (st == CROWN_OK && !crown_state_is_over(c))
        st = crown_agent_think(a, c, &best);
    crown_agent_free(a);
    crown_state_free(c);
    crown_state_free(s);
    crown_game_free(g);
    return st;
}

static void test_allocator_takes_every_handle_and_table(void **unused)
{
    (void)unused;
    Pool pool = {.fail_after = -1};
    assert_int_equal(pool_session(&pool), CROWN_OK);
    assert_true(pool.allocs >= 8); /* game, state, position, stacks, clone, obs, agent */
    assert_true(pool.biggest >= (size_t)1 << 20); /* the agent's transposition table */
    assert_true(pool.reallocs > 0);
    assert_int_equal(pool.live, 0);
    assert_int_equal(pool.frees, pool.allocs);
    /* Each allocation in turn fails: the call says so, and nothing leaks. Only MCTS
     * lives with a tree that could not grow: it searches on in the room it has. */
    const int total = pool.allocs + pool.reallocs;
    for (int k = 0; k < total; k++) {
        Pool failing = {.fail_after = k};
        const int st = pool_session(&failing);
        assert_true(st == CROWN_ERROR_NOMEM || (st == CROWN_OK && failing.failed_growth));
        assert_int_equal(failing.live, 0);
    }
    /* perft's frames come from the pool too: refused, perft says so rather than
     * counting 0. */
    const crown_allocator counted = {pool_alloc, pool_realloc, pool_free, &pool};
    crown_game *pg = NULL;
    crown_state *ps = NULL;
    assert_int_equal(crown_game_new_with(&counted, "kings-valley", NULL, NULL, 0, &pg, NULL),
                     CROWN_OK);
    assert_int_equal(crown_state_new(pg, 0, &ps, NULL), CROWN_OK);
    uint64_t leaves = 0;
    pool.fail_after = 1; /* the position's copy, not the frames */
    assert_int_equal(crown_state_perft(ps, 2, &leaves), CROWN_ERROR_NOMEM);
    assert_non_null(strstr(crown_state_errmsg(ps), "perft"));
    pool.fail_after = -1;
    assert_int_equal(crown_state_perft(ps, 2, &leaves), CROWN_OK);
    assert_int_equal(leaves, 110);
    crown_state_free(ps);
    crown_game_free(pg);
    assert_int_equal(pool.live, 0);
    /* An allocator lacking a function is refused. */
    const crown_allocator half = {pool_alloc, NULL, pool_free, &pool};
    crown_game *g = NULL;
    crown_error err;
    assert_int_equal(crown_game_new_with(&half, "kings-valley", NULL, NULL, 0, &g, &err),
                     CROWN_ERROR_ARGUMENT);
    assert_null(g);
    assert_non_null(strstr(err.message, "allocator"));
    assert_int_equal(crown_game_new_with(NULL, "kings-valley", NULL, NULL, 0, &g, NULL), CROWN_OK);
    crown_game_free(g);
}

/* What a progress function saw, and what the agent said when it was asked again from
 * inside its own think. */
typedef struct Seen {
    crown_agent *agent;
    const crown_state *state;
    int calls, depths[16];
    uint64_t nodes;
    crown_action first;
    int score, think_again, limits_again, progress_again;
} Seen;

static void on_progress(void *ud, const crown_progress *p)
{
    Seen *seen = ud;
    if (seen->calls < 16)
        seen->depths[seen->calls] = p->depth;
    seen->calls++;
    assert_true(p->nodes >= seen->nodes);
    assert_true(p->seldepth >= p->depth);
    assert_true(p->hashfull >= 0 && p->hashfull <= 1000);
    assert_true(p->time_ms >= 0);
    assert_true(p->pv_len > 0);
    seen->nodes = p->nodes;
    seen->first = p->pv[0];
    seen->score = p->score;
    crown_action best;
    seen->think_again = crown_agent_think(seen->agent, seen->state, &best);
    seen->limits_again = crown_agent_set_limits(seen->agent, 1, 0, 0);
    seen->progress_again = crown_agent_set_progress(seen->agent, NULL, NULL);
}

static void test_progress_per_iteration_and_a_busy_agent(void **unused)
{
    (void)unused;
    crown_game *g = new_game("kings-valley", NULL, NULL);
    crown_state *s = new_state(g, 0);
    crown_agent *a = NULL;
    assert_int_equal(crown_agent_new(g, "ab/novariety", 0, &a, NULL), CROWN_OK);
    assert_int_equal(crown_agent_set_limits(a, 4, 0, 0), CROWN_OK);
    Seen seen = {.agent = a, .state = s};
    assert_int_equal(crown_agent_set_progress(a, on_progress, &seen), CROWN_OK);
    crown_action best = 0;
    assert_int_equal(crown_agent_think(a, s, &best), CROWN_OK);
    assert_int_equal(seen.calls, 4);
    for (int d = 0; d < 4; d++)
        assert_int_equal(seen.depths[d], d + 1);
    assert_int_equal(seen.first, best);
    assert_int_equal(seen.nodes, crown_agent_last_nodes(a));
    int score = 0;
    assert_int_equal(crown_agent_last_score(a, &score, NULL), 1);
    assert_int_equal(seen.score, score);
    /* Asked again from inside its think, the agent was busy, and its limits stayed. */
    assert_int_equal(seen.think_again, CROWN_ERROR_CONFLICT);
    assert_int_equal(seen.limits_again, CROWN_ERROR_CONFLICT);
    assert_int_equal(seen.progress_again, CROWN_ERROR_CONFLICT);
    assert_int_equal(crown_agent_last_depth(a), 4);
    assert_int_equal(crown_agent_errcode(a), CROWN_OK);
    /* Without a progress function, no calls; an MCTS agent makes none either. */
    assert_int_equal(crown_agent_set_progress(a, NULL, NULL), CROWN_OK);
    seen.calls = 0;
    assert_int_equal(crown_agent_think(a, s, &best), CROWN_OK);
    assert_int_equal(seen.calls, 0);
    crown_agent_free(a);
    assert_int_equal(crown_agent_new(g, "mcts", 0, &a, NULL), CROWN_OK);
    assert_int_equal(crown_agent_set_limits(a, 0, 50, 0), CROWN_OK);
    assert_int_equal(crown_agent_set_progress(a, on_progress, &seen), CROWN_OK);
    assert_int_equal(crown_agent_think(a, s, &best), CROWN_OK);
    assert_int_equal(seen.calls, 0);
    assert_int_equal(crown_agent_set_progress(NULL, NULL, NULL), CROWN_ERROR_ARGUMENT);
    crown_agent_free(a);
    crown_state_free(s);
    crown_game_free(g);
}

/* A think on one thread, asked again from another while it runs: the first progress
 * call holds the search until the other thread has asked, so the agent is surely busy. */
typedef struct Handoff {
    crown_agent *agent;
    const crown_state *state;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    bool running, asked;
    int status;
} Handoff;

static void hold_first_iteration(void *ud, const crown_progress *p)
{
    (void)p;
    Handoff *h = ud;
    pthread_mutex_lock(&h->lock);
    if (!h->running) {
        h->running = true;
        pthread_cond_broadcast(&h->wake);
        while (!h->asked)
            pthread_cond_wait(&h->wake, &h->lock);
    }
    pthread_mutex_unlock(&h->lock);
}

static void *think_on_thread(void *arg)
{
    Handoff *h = arg;
    crown_action best;
    h->status = crown_agent_think(h->agent, h->state, &best);
    return NULL;
}

static void test_agent_busy_on_another_thread(void **unused)
{
    (void)unused;
    crown_game *g = new_game("kings-valley", NULL, NULL);
    crown_state *s = new_state(g, 0);
    crown_agent *a = NULL;
    assert_int_equal(crown_agent_new(g, "ab", 0, &a, NULL), CROWN_OK);
    assert_int_equal(crown_agent_set_limits(a, -1, -1, -1), CROWN_OK); /* until stopped */
    Handoff h = {.agent = a, .state = s};
    pthread_mutex_init(&h.lock, NULL);
    pthread_cond_init(&h.wake, NULL);
    assert_int_equal(crown_agent_set_progress(a, hold_first_iteration, &h), CROWN_OK);
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, think_on_thread, &h), 0);
    pthread_mutex_lock(&h.lock);
    while (!h.running)
        pthread_cond_wait(&h.wake, &h.lock);
    pthread_mutex_unlock(&h.lock);
    crown_action best;
    assert_int_equal(crown_agent_think(a, s, &best), CROWN_ERROR_CONFLICT);
    assert_int_equal(crown_agent_set_limits(a, 1, 0, 0), CROWN_ERROR_CONFLICT);
    assert_int_equal(crown_agent_set_progress(a, NULL, NULL), CROWN_ERROR_CONFLICT);
    pthread_mutex_lock(&h.lock);
    h.asked = true;
    pthread_cond_broadcast(&h.wake);
    pthread_mutex_unlock(&h.lock);
    crown_agent_stop(a);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_int_equal(h.status, CROWN_OK);
    assert_true(crown_agent_last_depth(a) >= 1);
    /* Idle again, it takes new limits. */
    assert_int_equal(crown_agent_set_limits(a, 1, 0, 0), CROWN_OK);
    pthread_cond_destroy(&h.wake);
    pthread_mutex_destroy(&h.lock);
    crown_agent_free(a);
    crown_state_free(s);
    crown_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version_and_library),
        cmocka_unit_test(test_game_creation_and_options),
        cmocka_unit_test(test_positions_parse_format_render),
        cmocka_unit_test(test_actions_and_text),
        cmocka_unit_test(test_illegal_action_changes_nothing),
        cmocka_unit_test(test_apply_undo_restores_hash_and_results),
        cmocka_unit_test(test_clone_is_independent),
        cmocka_unit_test(test_perft),
        cmocka_unit_test(test_chance_and_four_players),
        cmocka_unit_test(test_agent_depth_limit_is_deterministic),
        cmocka_unit_test(test_undo_action_history_score_pv),
        cmocka_unit_test(test_observations),
        cmocka_unit_test(test_threads_share_a_game),
        cmocka_unit_test(test_null_handles_are_refused),
        cmocka_unit_test(test_text_as_players_type_it_in_every_game),
        cmocka_unit_test(test_typed_spellings_and_whole_turns),
        cmocka_unit_test(test_result_words),
        cmocka_unit_test(test_reads_take_const_handles),
        cmocka_unit_test(test_allocator_takes_every_handle_and_table),
        cmocka_unit_test(test_progress_per_iteration_and_a_busy_agent),
        cmocka_unit_test(test_agent_busy_on_another_thread),
        cmocka_unit_test(test_action_indices_in_every_game),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
