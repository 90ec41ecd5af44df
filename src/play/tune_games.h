/*
 * tune_games.h - self-play games for evaluation tuning (crown tune --generate): each game
 * starts from its own seed's set-up and a few uniformly random actions (variety), is
 * played to its end by the given seats, and yields its quiet positions with the game's
 * result in tune_data.h's line format; with scores, each position also gets the score a
 * hint would show there (for fitting the win chances, play/chances.h).
 */
#ifndef CROWN_PLAY_TUNE_GAMES_H
#define CROWN_PLAY_TUNE_GAMES_H

#include <stdbool.h>
#include <stdint.h>

#include "core/game.h"
#include "search/agent.h"
#include "search/limits.h"

typedef struct TuneGames {
    const Game *game; /* configured: its rule options are every game's */
    long games;
    uint64_t seed;       /* game i plays from a seed drawn from this and i */
    const char *players; /* the seats, "ai,ai" say (play/seats.h) */
    SearchLimits limits; /* every AI seat's, overriding its level's */
    int random_plies;    /* uniformly random actions at the start */
    int skip_plies;      /* positions before this many actions (random ones included) are not kept */
    int per_game;        /* at most this many positions a game, drawn by its seed; 0 = all */
    int jobs;            /* threads */
    /* Nonzero depth or nodes: each kept position is searched as a hint searches it (the
     * agent of play_hint_agent, fresh for each) within these limits, its score stored
     * and positions with a forced result dropped (no curve is fitted to them). */
    SearchLimits score_limits;
    AgentEval score_eval; /* that search's evaluation (the game's default: AGENT_EVAL_DEFAULT) */
    /* Sees each game in the order of the games (game 0 first), under a lock: `lines` its
     * kept positions (`positions` of them) in tune_data.h's line format, `error` NULL or
     * why the game could not be played (then no lines). False stops the run. */
    bool (*game_done)(void *ctx, long index, const char *lines, int positions,
                      const char *error);
    void *ctx;
} TuneGames;

/* Plays the games; returns how many were seen by game_done. A game that fails is
 * reported to game_done and the others go on. */
long tune_games_run(const TuneGames *t);

/* Whether positions of g can be scored as hints are: an error saying why not when its
 * hints come from a search that gives no score (MCTS's mean returns). */
Status tune_scores_check(const Game *g, ErrBuf *err);

/* Whether the position before action m, in s, is one to learn from: a player (not chance)
 * is to act, not in the middle of a turn (prev_mover is who acted before, or PLAYER_NONE),
 * not in check, and m takes or promotes nothing (the game's noisy hook), since the
 * evaluation of a position with a capture pending says little about its result. */
bool tune_position_quiet(const Game *g, const GameState *s, Move m, int prev_mover);

#endif
