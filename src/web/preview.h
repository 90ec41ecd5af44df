/*
 * preview.h - POST /api/games/ID/preview: a position a few actions ahead, on a copy.
 */
#ifndef CROWN_WEB_PREVIEW_H
#define CROWN_WEB_PREVIEW_H

#include "web/message.h"

typedef struct Session Session;

/* Answers {"move": TEXT}: the actions of TEXT played by the player to move on a copy of
 * s's position, which is never stored: the observation there, the legal actions if the
 * same player still acts, and whether the turn has passed. 409 in a game with hidden
 * information or over; 400/409 with the reason for a text that is not legal. */
void preview_handle(const Request *req, Session *s, Response *res);

#endif
