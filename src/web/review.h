/*
 * review.h - reviewing a game: every position of its record for stepping through it,
 * and the AI's evaluation of one position of it (through the AI workers' queue, at a
 * small budget), for the page's evaluation graph and its "best move here".
 */
#ifndef CROWN_WEB_REVIEW_H
#define CROWN_WEB_REVIEW_H

#include "web/message.h"

typedef struct Server Server;
typedef struct Session Session;

/* GET /api/games/ID/positions: a page of the record's positions of s, whose reference
 * the caller holds. */
void review_positions(Server *srv, const Request *req, Session *s, Response *res);
/* POST /api/games/ID/analysis ({"ply": N}): the AI's evaluation of one of them. */
void review_analysis(Server *srv, const Request *req, Session *s, Response *res);

#endif
