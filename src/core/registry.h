/*
 * registry.h - the table of every game crown knows, looked up by name.
 */
#ifndef CROWN_CORE_REGISTRY_H
#define CROWN_CORE_REGISTRY_H

#include "core/game.h"

int registry_count(void);
const GameOps *registry_at(int i);
/* NULL if no game has that name. */
const GameOps *registry_find(const char *name);

#endif
