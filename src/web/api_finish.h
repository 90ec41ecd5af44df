/*
 * api_finish.h - finishing a game between its players: resign, draw offers and their
 * answers, the rematch (docs/API.md, "Finishing a game"), and what a game's state says
 * of its end (the reason's key, the winners) and of those requests.
 */
#ifndef CROWN_WEB_API_FINISH_H
#define CROWN_WEB_API_FINISH_H

#include "web/message.h"

typedef struct Server Server;
typedef struct Session Session;

/* POST /api/games/ID/resign, offer-draw, accept-draw, decline-draw and rematch, each
 * by the seat of the request's token. */
void api_finish_resign(Server *srv, const Request *req, Session *s, Response *res);
void api_finish_offer_draw(Server *srv, const Request *req, Session *s, Response *res);
void api_finish_accept_draw(Server *srv, const Request *req, Session *s, Response *res);
void api_finish_decline_draw(Server *srv, const Request *req, Session *s, Response *res);
void api_finish_rematch(Server *srv, const Request *req, Session *s, Response *res);
/* The seat of the request's token; -1 after answering 403 when it has none. A player's
 * request (finishing, a takeback) is never a spectator's. */
int api_finish_seat(const Request *req, Session *s, Response *res);
/* Answers the state for `seat`, with "answer" in front when given; the caller holds
 * s->mu. */
void api_finish_answer(Response *res, Session *s, int seat, const char *answer);
/* Adds to the state o of s what the end and the offers are; the caller holds s->mu. */
/* The result in the neutral words of play_result_text, an end outside the rules
 * included; the caller holds s->mu. */
/* Writes into buf the fields only `viewer` may see (his link to the rematch), each
 * followed by a comma; returns their length (0 for none). The caller holds s->mu. */

#endif
