/*
 * seats.h - who plays each seat of a game: a human at the terminal or an AI agent,
 * parsed from a --players list such as "human,ai:7".
 */
#ifndef CROWN_CLI_SEATS_H
#define CROWN_CLI_SEATS_H

#include <stdbool.h>

#include "core/game.h"
#include "search/agent.h"

typedef struct Seat {
    bool human;
    AgentSpec spec; /* for AI seats */
    Agent *agent;   /* created by seats_start */
    char text[32];  /* the spec as written */
} Seat;

typedef struct Seats {
    int count;
    Seat seat[MAX_PLAYERS];
} Seats;

/* Parses a comma-separated list of `players` specs; the game needs exactly that many.
 * Limits (when nonzero) override every AI seat's level limits. */
Status seats_parse(const char *list, int players, const SearchLimits *limits, uint64_t seed,
                   Seats *out, ErrBuf *err);
/* Creates the agents of the AI seats for game g. */
Status seats_start(Seats *s, const Game *g, ErrBuf *err);
void seats_stop(Seats *s);
/* "human,ai:5" */
void seats_format(const Seats *s, char *out, int cap);

#endif
