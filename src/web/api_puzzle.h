/*
 * api_puzzle.h - puzzle ratings in the JSON API (docs/API.md, "Puzzle ratings"): a
 * signed-in player's try at a shipped puzzle rates him and the puzzle against each other
 * by Glicko-2; the paths under /api/puzzles, read by this file itself.
 */
#ifndef CROWN_WEB_API_PUZZLE_H
#define CROWN_WEB_API_PUZZLE_H

#include <stdbool.h>

#include "web/message.h"

typedef struct Server Server;

/* Answers a request under /api/puzzles and returns true; false for other paths. */
bool api_puzzle_handle(Server *srv, const Request *req, Response *res);

#endif
