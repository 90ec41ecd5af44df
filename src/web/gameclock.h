/*
 * gameclock.h - the web's forms of a game's clock (play/clock.h, the one clock of every
 * front end): minutes and an increment per turn (5+3) or days per move as a request asks
 * for them, as stored with the moves (in the game's meta) so that it survives a restart,
 * and as the state shows it (docs/API.md, "Clocks"). The server charges it when the
 * player to act changes, in wall-clock milliseconds, since a stored clock must mean the
 * same after a restart.
 */
#ifndef CROWN_WEB_GAMECLOCK_H
#define CROWN_WEB_GAMECLOCK_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/game.h"
#include "core/status.h"
#include "play/clock.h"

/* The most days per move a game may have. */
enum { GAMECLOCK_MAX_DAYS = 30 };

/* The wall clock in milliseconds. */
int64_t gameclock_now(void);

/* Reads a request's clock: {"initial": S, "increment": S} in seconds, or {"days": N},
 * days of day_ms milliseconds (86400000 but in tests). Leaves *c unchanged on error. */
Status gameclock_from_request(const json_t *j, int players, int64_t day_ms, PlayClock *c,
                              ErrBuf *err);

/* The stored form, and back (NULL or absent: no clock); parse leaves *c unchanged on
 * error. */
json_t *gameclock_store_json(const PlayClock *c);
Status gameclock_parse_store(const json_t *j, int players, PlayClock *c, ErrBuf *err);

/* The state's field `"clock":{...},` as of `now` (each seat's time left, the running
 * seat, the control), or `"clock":null,`; returns its length, 0 if it does not fit. */
int gameclock_state_field(const PlayClock *c, int players, int64_t now, char *buf, size_t len);

#endif
