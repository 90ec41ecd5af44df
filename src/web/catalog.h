/*
 * catalog.h - the games this server offers, with their options, as one JSON text.
 */
#ifndef CROWN_WEB_CATALOG_H
#define CROWN_WEB_CATALOG_H

#include <stddef.h>

/* {"games": [...]}: every registered game with its options; NULL when memory is short.
 * The server builds it once at start (GET /api/games answers it). */
char *catalog_json(size_t *len);

#endif
