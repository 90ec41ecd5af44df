/*
 * api_lobby.h - coming back to games (docs/API.md, "Clocks and the lobby"): a new game's
 * clock and open seats, the server's open games (GET /api/open), taking an open seat
 * (POST /api/games/ID/join), the address other machines reach the server at
 * (GET /api/info), and each game's clock in its state.
 */
#ifndef CROWN_WEB_API_LOBBY_H
#define CROWN_WEB_API_LOBBY_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "web/message.h"

typedef struct Server Server;
typedef struct Session Session;
typedef struct NewGame NewGame;

/* Reads a creation body's "clock" into ng (none when absent; days of day_ms); false with
 * a 400 answered when it is malformed or a seat is not a person's. */
bool api_lobby_new_game(const json_t *body, NewGame *ng, int humans, int64_t day_ms,
                        Response *res);
/* GET /api/info and GET /api/open; false when `path` is neither. */
bool api_lobby_handle(Server *srv, const Request *req, const char *path, Response *res);
/* POST /api/games/ID/join. */
void api_lobby_join(Server *srv, const Request *req, Session *s, Response *res);
/* Writes the state's per-request fields (the clock as of now), each followed by a comma;
 * returns their length. The caller holds s->mu. */
int api_lobby_state_fields(const Session *s, char *buf, size_t len);

#endif
