/*
 * api_import.h - POST /api/import: a crown game record (as GET /api/games/ID/record and
 * `crown play` write it), chance draws included, becomes a game on this server whose
 * seats are all people's (docs/API.md, "POST /api/import").
 */
#ifndef CROWN_WEB_API_IMPORT_H
#define CROWN_WEB_API_IMPORT_H

#include "web/message.h"

typedef struct Server Server;

void api_import(Server *srv, const Request *req, Response *res);

#endif
