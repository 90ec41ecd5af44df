/*
 * api_games.h - the server's collection of games (GET and POST /api/games), its health
 * and counts, and the one way every handler makes a new game and counts what an address
 * creates.
 */
#ifndef CROWN_WEB_API_GAMES_H
#define CROWN_WEB_API_GAMES_H

#include <jansson.h>
#include <stdbool.h>

#include "core/game.h"
#include "web/message.h"

typedef struct RateLimiter RateLimiter;
typedef struct Server Server;
typedef struct Session Session;
typedef struct NewGame NewGame;

/* GET /api/games: every registered game with its options (catalog.h). */
void api_games_list(Server *srv, const Request *req, Session *s, Response *res);
/* POST /api/games: a new game from its name, seats, rules, seed, position and clock. */
void api_games_create(Server *srv, const Request *req, Session *s, Response *res);
/* The texts a NewGame read from a body points into besides the body's own strings. */
typedef struct NewGameText {
    char number[2 * GAME_MAX_OPTIONS][24]; /* whole-number rule values */
} NewGameText;
/* Reads a creation body (game, seats, rules, seed, position, hints, clock; its other
 * fields are the caller's) into *ng, checked, and how many seats are people: the body
 * and *text must outlive *ng. False with the refusal in res, *ng untouched. */
bool api_games_read(Server *srv, const json_t *body, NewGame *ng, NewGameText *text,
                    int *humans, Response *res);
/* GET /api/health: the server answers, with its count of open event streams. */
void api_health(Server *srv, const Request *req, Session *s, Response *res);
/* GET /api/stats: counts of games in memory, evicted, deleted and flagged. */
void api_stats(Server *srv, const Request *req, Session *s, Response *res);

/* Counts a creation of `what` ("games", "tournaments") from addr against per_hour an hour:
 * in `window`, this process's, and in the database under `key` (so that the servers
 * sharing it, and their restarts, keep one limit). False with the
 * refusal in res: 429 "too many WHAT created from your address: at most N an hour; try
 * again in S s" with Retry-After S, when the oldest of the hour's leaves the hour. */
bool api_count_create(Server *srv, const char *addr, RateLimiter *window, const char *key,
                      int per_hour, const char *what, Response *res);

/* Creates the game ng (players, rules and seats checked; `humans` of its seats people)
 * within the requester's limits: the new session with a reference, or NULL with the
 * refusal answered in res. */
Session *api_create_session(Server *srv, const Request *req, NewGame *ng, int humans,
                            Response *res);
/* 201 for the new game s: its id, every seat's link (the creator hands them out) and its
 * state; gives back the reference on s. */
void api_created_response(Response *res, Session *s);

#endif
