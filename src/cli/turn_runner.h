/*
 * turn_runner.h - the referee's step for `crown match` and `crown play`: the next move
 * of whoever is to act that is not a human - a chance draw, crown's own agent (given its
 * share of the clock), or an outside engine (asked over its protocol, its answer checked
 * against crown's rules). A seat that runs out of time, sends an illegal or unreadable
 * move, gives no answer or dies forfeits the game, with the reason in words.
 */
#ifndef CROWN_CLI_TURN_RUNNER_H
#define CROWN_CLI_TURN_RUNNER_H

#include "cli/engine_client.h"
#include "core/record.h"
#include "core/rng.h"
#include "play/clock.h"
#include "play/seats.h"

enum {
    RUNNER_TURN_CAP = 64,              /* actions of one outside engine's turn */
    RUNNER_DEFAULT_MOVETIME_MS = 1000, /* an outside engine's move without any limit */
    RUNNER_SEARCH_TIMEOUT_MS = 60000,  /* its wait under depth or node limits alone */
    RUNNER_GRACE_MS = 1000,            /* added to the expected time before a time-out */
};

typedef struct TurnRunner {
    const Seats *seats;
    EngineClient *engine[MAX_PLAYERS]; /* per seat: its outside engine, else NULL */
    PlayClock clock;     /* charged the time each decision takes, when on */
    SearchLimits limits; /* the command line's limits, for outside engines */
    Rng *chance;
} TurnRunner;

typedef struct TurnStep {
    int player;       /* who acted (PLAYER_CHANCE for a draw) */
    Move acts[RUNNER_TURN_CAP];
    int n;            /* actions played and pushed to the record */
    SearchResult result; /* crown's agent: its search */
    bool searched;
    int forfeit;      /* the seat that lost by forfeit, else PLAYER_NONE */
    bool on_time;     /* the forfeit is a flag: its clock ran out (play_flag_is_draw) */
    char reason[320]; /* why, as "lost on time", "played 'e2e5', which is illegal: ..." */
} TurnStep;

/* Outside engines are sent whole positions and every action: STATUS_UNSUPPORTED when a
 * seat is one and g has hidden information or chance draws. */
Status turn_runner_check_game(const Game *g, const Seats *seats, ErrBuf *err);

/* Plays the next step in rec (the game is not over and no human is to act): one chance
 * draw or agent action, or an outside engine's whole turn, each pushed to the record.
 * A forfeit sets step->forfeit and leaves the record as it was before that seat's move.
 * Other failures (an agent that cannot play) return their Status. */
Status turn_runner_step(TurnRunner *r, GameRecord *rec, TurnStep *step, ErrBuf *err);

/* Readies the outside engines for a new game; false when one cannot be started, which
 * forfeits (step->forfeit says which). The game is then played by play/self_play.c
 * with turn_runner_step as its step. */
bool turn_runner_new_game(TurnRunner *r, const Game *g, TurnStep *step);

/* The result line of a game that a forfeit ended in s: "second player (ai:5) wins: first
 * player (uci:...) <reason>", the returns giving the forfeiting seat -1 and the other
 * +1; but a flag against a seat whose opponent cannot win from s is a draw, as
 * everywhere (play/finish.h): "draw: the first player ran out of time but the
 * second player cannot win (uci:...: <reason>)", both returns 0. */
void turn_runner_forfeit_result(const Game *g, const GameState *s, const Seats *seats,
                                const TurnStep *step, StrBuf *text, double returns[MAX_PLAYERS]);

#endif
