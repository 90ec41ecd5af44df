/*
 * lab_api.h - the Lab page's side of the server (crown serve --lab DIR): studies set up
 * from the browser, played one at a time on one thread of their own, the others waiting
 * in a bounded queue (first come, first played), each address held to a few studies and
 * games at once and a few starts an hour; kept in DIR (each in a folder of its own, as
 * crown lab writes them, the oldest deleted past --lab-keep) and read back there.
 * Without --lab the routes answer 403 with a JSON error saying how to turn the lab on.
 * Routes (docs/API.md): GET and POST /api/lab, GET /api/lab/ID, POST /api/lab/ID/stop,
 * GET /api/lab/ID/summary and /api/lab/ID/report.
 */
#ifndef CROWN_WEB_LAB_API_H
#define CROWN_WEB_LAB_API_H

#include <stdbool.h>

#include "core/status.h"
#include "web/message.h"

typedef struct LabServer LabServer;

enum {
    LAB_QUEUE = 16,               /* studies running or queued, all addresses */
    LAB_STUDIES_PER_ADDR = 2,     /* studies running or queued of one address */
    LAB_KEEP_PER_ADDR = 20,       /* study folders of one address kept in DIR */
};

/* The lab's limits (crown serve's --lab-max-games, --lab-keep, --lab-starts-per-hour);
 * 0 takes the default. */
typedef struct LabLimits {
    int max_games;       /* games of a study, and of one address's running and queued */
    int keep;            /* study folders kept in DIR; the oldest ended ones go first */
    int starts_per_hour; /* studies one address may start in an hour */
} LabLimits;

typedef struct Messages Messages;

/* Opens the lab over DIR (made when missing) and starts its thread; dir NULL leaves *out
 * NULL: the lab is off. Its reports are said in each reader's language from messages
 * (kept, not owned; NULL: as crown lab wrote them). */
Status lab_server_open(const char *dir, const LabLimits *limits, const Messages *messages,
                       LabServer **out, ErrBuf *err);
/* Starts no queued study and no more games of the running one, waits for the move in
 * play, frees the lab. */
void lab_server_close(LabServer *lab);

/* Answers a request under /api/lab; false when the path is not the lab's. */
bool lab_api_handle(LabServer *lab, const Request *req, Response *res);

#endif
