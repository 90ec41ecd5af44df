/*
 * swiss.h - the next round of a Swiss tournament from the games so far: players of equal
 * score meet, the top half of a score group against its bottom half, nobody meets the
 * same opponent twice, colours alternate and balance, and with an odd number the
 * lowest-placed player who has not had one gets the bye. docs/TOURNAMENTS.md writes out
 * the algorithm, and the unit test works examples by hand.
 */
#ifndef CROWN_PLAY_SWISS_H
#define CROWN_PLAY_SWISS_H

#include "play/pairing.h"

/* Pairs the next round of `players` (numbered in seeding order, 0 the top seed) after
 * the games and byes history[0..n) (in the order played) into out[0..*count) (room for
 * players / 2 + 1): boards in order of their higher-placed player, a bye last. Refuses,
 * with nothing written, a history naming a player out of range or with a score other
 * than 0, 0.5 or 1, and a round where no pairing avoids a rematch (the message says
 * so: a Swiss of P players can have at most P - 1 rounds, often fewer). */
Status swiss_pair(int players, const PairingResult *history, int n, Pairing *out, int *count,
                  ErrBuf *err);

#endif
