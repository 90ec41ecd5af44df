/*
 * api.h - the JSON API (docs/API.md): listing games, creating one, reading its state,
 * moving, taking back, asking a hint, and the game record. Handlers check everything a
 * client sends and answer malformed requests with a 4xx and a JSON error saying what is
 * wrong; the rules themselves are the game's, through session.h.
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

/* Answers a request under /api/ (except event streams); false if the path is not one of
 * the API's, so that the caller answers 404. */
void api_handle(Server *srv, const Request *req, Response *res);

/* GET /api/games: every registered game with its options, built once at start. */
char *api_games_json(size_t *len);

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
