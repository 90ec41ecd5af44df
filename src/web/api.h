/*
 * api.h - the JSON API's shared parts (docs/API.md): a game's state body, the helpers
 * every handler checks a request with, and the routes of the server as a whole (the list
 * of games, creating one, health, counts). Handlers check everything a client sends and
 * answer malformed requests with a 4xx and a JSON error saying what is wrong; the rules
 * themselves are the game's, through session.h. Every handler has the route table's
 * shape (routes.c): the game is NULL for routes outside /api/games/ID.
 */
#ifndef CROWN_WEB_API_H
#define CROWN_WEB_API_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "core/game.h"
#include "web/http.h"

typedef struct Server Server;
typedef struct Session Session;
typedef struct NewGame NewGame;

/* GET /api/games: every registered game with its options, built once at start. */
char *api_games_json(size_t *len);
/* GET /api/games: the list above. */
void api_games_list(Server *srv, const Request *req, Session *s, Response *res);
/* POST /api/games: a new game from its name, seats, rules, seed, position and clock. */
void api_games_create(Server *srv, const Request *req, Session *s, Response *res);
/* GET /api/health: the server answers, with its count of open event streams. */
void api_health(Server *srv, const Request *req, Session *s, Response *res);
/* GET /api/stats: counts of games in memory, evicted, deleted and flagged. */
void api_stats(Server *srv, const Request *req, Session *s, Response *res);

/* The state body of s as `viewer` (a seat, or -1 for a spectator) sees it, from the
 * cache when nothing changed. The caller holds s->mu. NULL when memory is short. */
char *api_state_locked(Session *s, int viewer, size_t *len);

/* For the handlers in other files (review.c). The structured observation of st as
 * `observer` sees it (PLAYER_NONE: everybody), or NULL when the game has none. */
json_t *api_observation_json(const Game *g, const GameState *st, int observer);
/* "a b c" as a JSON array of strings. */
json_t *words_json(const char *text);
/* The request's body as a JSON object, or NULL with res set to a 400 saying why. */
json_t *parse_body(const Request *req, Response *res);
/* Whether o has no fields but those of `allowed` (NULL-terminated); false with res set to
 * a 400 naming them. */
bool only_fields(json_t *o, const char *const *allowed, Response *res);
/* The seat of the request's token, -1 for none (when not needed), or -2 with res set to
 * a 403. */
int seat_of_request(const Request *req, Session *s, bool needed, Response *res);
/* Answers the JSON object o (given up: freed here) with `status`, or 503 when it cannot
 * be written for want of memory. */
void api_answer_json(Response *res, int status, json_t *o);
/* The rule options of g with their values, as one JSON object. */
json_t *api_rules_json(const Game *g);
/* The legal actions of st, each {"text", "cells"}. */
json_t *api_legal_json(const Game *g, const GameState *st);

/* Creates the game ng (players, rules and seats checked; `humans` of its seats people)
 * within the requester's limits: the new session with a reference, or NULL with the
 * refusal answered in res. */
Session *api_create_session(Server *srv, const Request *req, NewGame *ng, int humans,
                            Response *res);
/* 201 for the new game s: its id, every seat's link (the creator hands them out) and its
 * state; gives back the reference on s. */
void api_created_response(Response *res, Session *s);

#endif
