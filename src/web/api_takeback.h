/*
 * api_takeback.h - a takeback between people (docs/API.md, "Takebacks"): one player asks
 * to take his last turn back, the other accepts or declines; against the AI, undo does
 * it at once (api_game.h).
 */
#ifndef CROWN_WEB_API_TAKEBACK_H
#define CROWN_WEB_API_TAKEBACK_H

#include "web/message.h"

typedef struct Server Server;
typedef struct Session Session;

/* POST /api/games/ID/takeback, accept-takeback and decline-takeback, each by the seat of
 * the request's token. */
void api_takeback_ask(Server *srv, const Request *req, Session *s, Response *res);
void api_takeback_accept(Server *srv, const Request *req, Session *s, Response *res);
void api_takeback_decline(Server *srv, const Request *req, Session *s, Response *res);

#endif
