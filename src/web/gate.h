/*
 * gate.h - the server's listening socket and a check of each connection's first
 * request head before libmicrohttpd reads it, so that the malformed requests the
 * library would answer with its own HTML are answered in JSON like every other error.
 */
#ifndef CROWN_WEB_GATE_H
#define CROWN_WEB_GATE_H

#include <sys/socket.h>

#include "core/status.h"

typedef struct Server Server;
typedef struct Gate Gate;

/* Listens on sa (port 0: any free port; srv->port is set to the one bound) and hands
 * each connection whose first head passes to srv->daemon, which must run without a
 * listening socket of its own. */
Status gate_start(Server *srv, const struct sockaddr *sa, socklen_t salen, Gate **out,
                  ErrBuf *err);
/* Stops listening and closes the connections not yet handed over. NULL is fine. */
void gate_stop(Gate *g);
/* Frees g, stopped, once the library has stopped too (it reports closes to g till
 * then). NULL is fine. */
void gate_free(Gate *g);
/* The library closed the connection on fd: what its client held is given back. Called
 * from the library's threads; NULL and an fd the gate did not hand over are fine. */
void gate_closed(Gate *g, int fd);

#endif
