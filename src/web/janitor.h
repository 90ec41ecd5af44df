/*
 * janitor.h - the server's housekeeping thread: every little while it takes idle games
 * out of memory (sessions_evict) and deletes abandoned ones from the store
 * (sessions_retire), as srv->cfg says.
 */
#ifndef CROWN_WEB_JANITOR_H
#define CROWN_WEB_JANITOR_H

#include "core/status.h"

typedef struct Janitor Janitor;
typedef struct Server Server;

Status janitor_start(Server *srv, Janitor **out, ErrBuf *err);
/* Stops the thread and frees it; NULL is fine. */
void janitor_stop(Janitor *j);

#endif
