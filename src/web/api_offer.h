/*
 * api_offer.h - finding an opponent in the JSON API (docs/API.md, "Seeks and
 * challenges"): a seek posted to the lobby for anyone eligible (POST/GET /api/seeks),
 * a challenge to one named account (POST/GET /api/challenges), each accepted in one
 * request that makes the game with both players seated (colours drawn from the game's
 * seed, or as asked), or cancelled, declined, or expired when its poster is gone.
 */
#ifndef CROWN_WEB_API_OFFER_H
#define CROWN_WEB_API_OFFER_H

#include <stdbool.h>

#include "web/message.h"

typedef struct Server Server;

/* Answers a request under /api/seeks or /api/challenges; false for any other path. */
bool api_offer_handle(Server *srv, const Request *req, Response *res);

#endif
