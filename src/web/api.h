/*
 * api.h - what every handler of the JSON API (docs/API.md) checks a request with and
 * answers in. Handlers check everything a client sends and answer malformed requests
 * with a 4xx and a JSON error saying what is wrong; the rules themselves are the game's,
 * through session.h. Every handler has the route table's shape (routes.c): the game is
 * NULL for routes outside /api/games/ID.
 */
#ifndef CROWN_WEB_API_H
#define CROWN_WEB_API_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "core/game.h"
#include "web/message.h"

typedef struct Server Server;
typedef struct Session Session;

/* "a b c" as a JSON array of strings. */
json_t *words_json(const char *text);
/* The request's body as a JSON object, or NULL with res set to a 400 saying why. */
json_t *parse_body(const Request *req, Response *res);
/* Whether o has no fields but those of `allowed` (NULL-terminated); false with res set to
 * a 400 naming them. */
bool only_fields(json_t *o, const char *const *allowed, Response *res);
/* The request's JSON body with only `fields` (NULL-terminated), each a string; NULL with
 * res set to a 400 saying why. */
json_t *string_body(const Request *req, const char *const *fields, Response *res);
/* The seat of the request's token, -1 for none (when not needed), or -2 with res set to
 * a 403. */
int seat_of_request(const Request *req, Session *s, bool needed, Response *res);
/* Answers the JSON object o (given up: freed here) with `status`, or 503 when it cannot
 * be written for want of memory. */
void api_answer_json(Response *res, int status, json_t *o);
/* The compact JSON text of j (malloc'd), its length in *len; NULL when memory is short. */
char *api_dump(const json_t *j, size_t *len);

#endif
