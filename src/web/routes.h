/*
 * routes.h - the JSON API's one entry: a request under /api/ goes to the handler the
 * route table (routes.c) names for its method and path, with its game looked up once
 * for the paths under /api/games/ID. The event streams are http.c's, before this.
 */
#ifndef CROWN_WEB_ROUTES_H
#define CROWN_WEB_ROUTES_H

#include <stdbool.h>

#include "web/message.h"

typedef struct Server Server;

/* Answers a request under /api/ in res: its handler's answer, or 404 for a path the API
 * does not have, 405 (with Allow) for a method the path does not take. */
void api_handle(Server *srv, const Request *req, Response *res);
/* Whether the route of method and path never blocks (the fixed list of games, the
 * health check, the counts): such a request is answered where it is read. */
bool api_is_quick(const char *method, const char *path);

#endif
