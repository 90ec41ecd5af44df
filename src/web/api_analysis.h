/*
 * api_analysis.h - POST /api/analysis: the engine's view of any position, for the
 * analysis board (docs/API.md): no game is made or stored, the search is the AI
 * workers' as for a hint, with the same per-address queue limit.
 */
#ifndef CROWN_WEB_API_ANALYSIS_H
#define CROWN_WEB_API_ANALYSIS_H

#include "web/message.h"

typedef struct Server Server;

void api_analysis(Server *srv, const Request *req, Response *res);

#endif
