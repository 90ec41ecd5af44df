/*
 * api_tournament.h - tournaments in the JSON API (docs/API.md, "Tournaments"): the
 * paths under /api/tournaments, read by this file itself (routes.c hands them over).
 */
#ifndef CROWN_WEB_API_TOURNAMENT_H
#define CROWN_WEB_API_TOURNAMENT_H

#include <stdbool.h>

#include "web/message.h"

typedef struct Server Server;

/* Answers a request under /api/tournaments and returns true; false for other paths. */
bool api_tournament_handle(Server *srv, const Request *req, Response *res);

#endif
