/*
 * undo.h - how far to take a game back so that a given seat is to move again: "undo"
 * against the AI, at the terminal and in the browser.
 */
#ifndef CROWN_PLAY_UNDO_H
#define CROWN_PLAY_UNDO_H

#include "core/record.h"

/* The number of actions of r to keep so that one of `seats` (bit p for seat p) is to
 * move at the start of its last turn: everything played since is taken back, other
 * seats' actions and chance draws included, and so is the whole of that turn when it
 * has several actions (a King's Guard stack carried off piece by piece), not just its
 * last one. A turn here is a run of positions with that seat to move; a chance draw in
 * the middle of a turn ends the run, so the draw, which must not be drawn again, stays.
 * STATUS_ILLEGAL ("you have no move to take back") when none of the seats has acted;
 * *keep is set on success only. */
Status play_undo_point(const GameRecord *r, unsigned seats, int *keep, ErrBuf *err);

#endif
