/*
 * api_state.h - a game's state body as each viewer sees it, and the JSON of a position
 * (observation, legal actions, rules) that other handlers show too.
 */
#ifndef CROWN_WEB_API_STATE_H
#define CROWN_WEB_API_STATE_H

#include <stddef.h>

#include <jansson.h>

#include "core/game.h"

typedef struct Session Session;

/* The state body of s as `viewer` (a seat, or -1 for a spectator) sees it, from the
 * cache when nothing changed. The caller holds s->mu. NULL when memory is short. */
char *api_state_locked(Session *s, int viewer, size_t *len);
/* The structured observation of st as `observer` sees it (PLAYER_NONE: everybody), or
 * NULL when the game has none. */
json_t *api_observation_json(const Game *g, const GameState *st, int observer);
/* The rule options of g with their values, as one JSON object. */
json_t *api_rules_json(const Game *g);
/* The legal actions of st, each {"text", "cells"}. */
json_t *api_legal_json(const Game *g, const GameState *st);

#endif
