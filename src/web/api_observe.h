/*
 * api_observe.h - POST /api/observe: any position of any game as the board drawers read
 * it (its observation and legal moves), without a game on the server; the rules pages
 * and the tutorial draw their live boards from it, and the analysis board its tree's
 * positions (docs/API.md).
 */
#ifndef CROWN_WEB_API_OBSERVE_H
#define CROWN_WEB_API_OBSERVE_H

#include <jansson.h>
#include <stdbool.h>

#include "core/game.h"
#include "web/message.h"

typedef struct Server Server;

/* The game and position a request body names ({game, rules, players, position, moves}:
 * the start when no position, then the actions of `moves` played in order), made for the
 * caller to free (game_destroy, free); false with res saying what is wrong. */
bool api_position_read(json_t *body, Game **g, GameState **st, Response *res);

void api_observe(Server *srv, const Request *req, Response *res);

#endif
