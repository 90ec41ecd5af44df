/*
 * registry.h - the table of every game compiled into this program, looked up by name.
 *
 * It lives in the play layer, not in core, so that core links without any game; a
 * caller that loads records hands registry_find to record_parse as its GameLookup.
 */
#ifndef CROWN_PLAY_REGISTRY_H
#define CROWN_PLAY_REGISTRY_H

#include "core/game.h"

int registry_count(void);
const GameOps *registry_at(int i);
/* NULL if no game has that name. */
const GameOps *registry_find(const char *name);
/* Like registry_find, but a name no game has is STATUS_NOT_FOUND with a message that
 * lists the games. */
Status registry_lookup(const char *name, const GameOps **out, ErrBuf *err);

#endif
