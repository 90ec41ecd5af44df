/*
 * api_solution.h - GET /api/games/ID/solution: a King's Valley or Retrieve the King game
 * against its solved table, ply by ply, with the moves that changed the result marked
 * (docs/API.md).
 */
#ifndef CROWN_WEB_API_SOLUTION_H
#define CROWN_WEB_API_SOLUTION_H

#include "web/message.h"

typedef struct Server Server;
typedef struct Session Session;

void api_solution(Server *srv, const Request *req, Session *s, Response *res);

#endif
