/*
 * lab_api.h - the Lab page's side of the server (crown serve --lab DIR): studies set up
 * from the browser, played one at a time on one thread of their own with a cap on their
 * games, kept in DIR (each in a folder of its own, as crown lab writes them) and read
 * back there. Without --lab the routes answer 403 with a JSON error saying how to turn
 * the lab on. Routes (docs/API.md): GET and POST /api/lab, GET /api/lab/ID,
 * GET /api/lab/ID/summary and /api/lab/ID/report.
 */
#ifndef CROWN_WEB_LAB_API_H
#define CROWN_WEB_LAB_API_H

#include <stdbool.h>

#include "core/status.h"
#include "web/http.h"

typedef struct LabServer LabServer;

enum { LAB_DEFAULT_MAX_GAMES = 2000 }; /* games of one study from the browser, every set */

/* Opens the lab over DIR (made when missing); dir NULL leaves *out NULL: the lab is off. */
Status lab_server_open(const char *dir, int max_games, LabServer **out, ErrBuf *err);
/* Starts no more games of a running study, waits for those in play, frees the lab. */
void lab_server_close(LabServer *lab);

/* Answers a request under /api/lab; false when the path is not the lab's. */
bool lab_api_handle(LabServer *lab, const Request *req, Response *res);

#endif
