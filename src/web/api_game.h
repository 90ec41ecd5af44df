/*
 * api_game.h - the requests that play a game (docs/API.md): GET /api/games/ID (its state),
 * POST .../moves, .../undo and .../hint, GET .../record. Each is given the game, whose
 * reference the caller holds, with the method already checked (routes.c).
 */
#ifndef CROWN_WEB_API_GAME_H
#define CROWN_WEB_API_GAME_H

#include "web/message.h"

typedef struct Server Server;
typedef struct Session Session;

/* Each handler has the signature the route table calls (routes.c), as in every api_*.h. */

/* The state as the request's seat sees it (a spectator's without a token). */
void api_game_state(Server *srv, const Request *req, Session *s, Response *res);
/* {"move": TEXT, "ply": N}: the seat's move; the new state. */
void api_game_move(Server *srv, const Request *req, Session *s, Response *res);
/* Takes back to the seat's last decision; the new state. */
void api_game_undo(Server *srv, const Request *req, Session *s, Response *res);
/* The AI's suggestion for the seat to move, through the AI workers' queue. */
void api_game_hint(Server *srv, const Request *req, Session *s, Response *res);
/* The game record as text; a hidden-information game's once it is over. */
void api_game_record(Server *srv, const Request *req, Session *s, Response *res);

#endif
