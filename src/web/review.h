/*
 * review.h - reviewing a game: every position of its record for stepping through it,
 * and the AI's evaluation of one position of it (through the AI workers' queue, at a
 * small budget), for the page's evaluation graph and its "best move here".
 */
#ifndef CROWN_WEB_REVIEW_H
#define CROWN_WEB_REVIEW_H

#include "web/http.h"

typedef struct Server Server;
typedef struct Session Session;

/* GET /api/games/ID/positions and POST /api/games/ID/analysis ({"ply": N}) on s, whose
 * reference the caller holds; `action` is "positions" or "analysis". */
void review_handle(Server *srv, const Request *req, Session *s, const char *action,
                   Response *res);

#endif
