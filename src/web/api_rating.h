/*
 * api_rating.h - ratings in the JSON API (docs/API.md, "Ratings"): an account's ratings
 * per game with their provisional mark, its rating history, recent rated games and
 * wins, draws and losses (parts of GET /api/users/NAME and the export), and a game's
 * leaderboard, GET /api/leaderboard/GAME.
 */
#ifndef CROWN_WEB_API_RATING_H
#define CROWN_WEB_API_RATING_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "web/message.h"

typedef struct Server Server;

/* The account's ratings as {"GAME": {"rating", "rd", "volatility", "games",
 * "provisional", "wins", "draws", "losses"}}; {} when they cannot be read. */
json_t *api_rating_json(Server *srv, int64_t user);

/* Adds to a player's page o its "history" ({"GAME": [{"at", "rating", "rd", "id"}],
 * oldest first), "recent" rated games (newest first) and "record" (wins, draws and
 * losses in all games). */
void api_rating_profile(Server *srv, int64_t user, json_t *o);

/* GET /api/leaderboard/GAME[?n=N]: false when the path is not under /api/leaderboard/. */
bool api_rating_leaderboard(Server *srv, const Request *req, Response *res);

#endif
