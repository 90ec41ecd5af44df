/*
 * api_observe.h - POST /api/observe: any position of any game as the board drawers read
 * it (its observation and legal moves), without a game on the server; the rules pages
 * and the tutorial draw their live boards from it (docs/API.md).
 */
#ifndef CROWN_WEB_API_OBSERVE_H
#define CROWN_WEB_API_OBSERVE_H

#include "web/message.h"

typedef struct Server Server;

void api_observe(Server *srv, const Request *req, Response *res);

#endif
