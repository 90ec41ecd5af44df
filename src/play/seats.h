/*
 * seats.h - who plays each seat of a game: a human or an AI agent, read from one
 * player's text ("human", "ai:7") or a list of them such as "human,ai:7" (the CLI's
 * --players); the web server reads its seats one by one with seat_parse. A list may
 * also name a program outside crown, "uci:COMMAND" or "ugi:COMMAND": the seat only says
 * so, and the front end that runs such programs (the CLI) asks it for its moves.
 */
#ifndef CROWN_PLAY_SEATS_H
#define CROWN_PLAY_SEATS_H

#include <stdbool.h>

#include "core/game.h"
#include "play/perfect.h"
#include "search/agent.h"

enum { SEAT_TEXT_CAP = 160 };

typedef struct Seat {
    bool human;
    bool outside;   /* an outside engine: text is "uci:COMMAND" or "ugi:COMMAND" */
    AgentSpec spec; /* for AI seats */
    Agent *agent;   /* created by seats_start */
    char text[SEAT_TEXT_CAP]; /* the spec as written */
} Seat;

typedef struct Seats {
    int count;
    Seat seat[MAX_PLAYERS];
    const Perfect *perfect; /* solved tables for ai:10 seats, or NULL; set before seats_start */
} Seats;

/* Reads one player's text for seat `index`: "human" (*human true, spec untouched), or an
 * agent spec such as "ai:7" into *spec, whose seed follows from the game's seed and the
 * seat, so that a game replays the same. */
Status seat_parse(const char *text, int index, uint64_t game_seed, bool *human, AgentSpec *spec,
                  ErrBuf *err);

/* Parses a comma-separated list of `players` specs; the game needs exactly that many.
 * Limits (when nonzero) override every AI seat's level limits; an AI entry written
 * "SPEC@MS" ("ai:10@50") has its own move time of MS milliseconds, over those (for
 * matches between time budgets; the web reads single seats, which take no such
 * suffix). "uci:COMMAND" and
 * "ugi:COMMAND" (COMMAND without commas) make outside seats, in two-player games only. */
Status seats_parse(const char *list, int players, const SearchLimits *limits, uint64_t seed,
                   Seats *out, ErrBuf *err);
/* Creates the agents of the AI seats for game g (outside seats get none). */
Status seats_start(Seats *s, const Game *g, ErrBuf *err);
void seats_stop(Seats *s);
/* Whether `seat` may act now in s: STATUS_CONFLICT when the game is over, there is no
 * such seat or an AI plays it, STATUS_NOT_YOUR_TURN when another seat or chance is to
 * act; the message says which. */
Status seats_check_turn(const Seats *seats, const Game *g, const GameState *s, int seat,
                        ErrBuf *err);
/* The action that plays itself in s: when chance is to act, an outcome drawn with
 * `chance`; when an AI seat is, its agent's move (seats_start made it), with the search
 * in *result (p is that seat; result may be NULL for chance). STATUS_CONFLICT when a
 * human, an outside engine or nobody is to act; the agent's own Status when its search fails. */
Status seats_auto_action(const Seats *seats, const Game *g, const GameState *s, Rng *chance,
                         Move *m, SearchResult *result, ErrBuf *err);
/* "human,ai:5" */
void seats_format(const Seats *s, char *out, int cap);

#endif
