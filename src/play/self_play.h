/*
 * self_play.h - one game played to its end by seats that play themselves: crown's agents
 * and chance draws, or, for a front end that referees more (the CLI's clocks and outside
 * engines), a step of its own. `crown match`, `crown sprt` and `crown lab` play every
 * game here; the caller decides the start, the seats and the seeds.
 */
#ifndef CROWN_PLAY_SELF_PLAY_H
#define CROWN_PLAY_SELF_PLAY_H

#include <stdatomic.h>
#include <stdbool.h>

#include "core/record.h"
#include "core/rng.h"
#include "play/seats.h"

/* Plays the next step of rec (one action or a whole turn, pushed to the record). A seat
 * that forfeits is set in *forfeit (else left PLAYER_NONE) with the record as it was. */
typedef Status SelfPlayStep(void *ctx, GameRecord *rec, int *forfeit, ErrBuf *err);

typedef struct SelfPlay {
    Seats *seats;       /* parsed; self_play_begin starts them */
    Rng *chance;        /* draws the chance outcomes */
    SelfPlayStep *step; /* NULL: the seats' agents and chance, seats_auto_action */
    void *step_ctx;
    bool measure; /* run the game's measure hook into the end's metrics */
    /* NULL, or a flag another thread may set: the game then ends before its next step
     * with STATUS_CONFLICT, so that a server stopping need not wait for whole games. */
    const atomic_bool *abort;
} SelfPlay;

typedef struct SelfPlayEnd {
    int forfeit; /* the seat that forfeited, else PLAYER_NONE */
    int plies;   /* players' actions, chance draws not counted */
    /* Per seat, when no one forfeited: the game's returns and scores (scored when the
     * game has a score), and why it ended (an index into end_reasons, -1 if it cannot
     * say). */
    double returns[MAX_PLAYERS];
    double score[MAX_PLAYERS];
    bool scored;
    int end_reason;
    double metrics[GAME_MAX_METRICS][MAX_PLAYERS]; /* n_metrics of them when measured */
    int n_metrics;
} SelfPlayEnd;

/* Makes rec the record of a game of g (rec owns g from here, also on failure) from
 * `start`, and starts the seats' agents. On failure nothing is left to free. */
Status self_play_begin(const SelfPlay *sp, Game *g, const GameState *start, GameRecord *rec,
                       ErrBuf *err);

/* Plays rec on to the end of the game or a forfeit into *end. A step that fails returns
 * its Status with rec holding the actions played so far. */
Status self_play(const SelfPlay *sp, GameRecord *rec, SelfPlayEnd *end, ErrBuf *err);

#endif
