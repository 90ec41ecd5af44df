/*
 * store_puzzle.h - puzzle ratings in the store: each signed-in player's Glicko-2 rating
 * per game's puzzles, each puzzle's own rating (starting from the set's), and which
 * puzzles a player has been rated on, since only his first try at one counts. Each call
 * is one transaction of the store's generic runner (store_run), the same SQL for both
 * backends; a write names the counts it read, so that two tries at once cannot both
 * build on the same rating.
 */
#ifndef CROWN_WEB_STORE_PUZZLE_H
#define CROWN_WEB_STORE_PUZZLE_H

#include <stdbool.h>
#include <stdint.h>

#include "play/glicko2.h"
#include "web/store.h"

/* A rating with how many puzzles (or, for a puzzle, tries) it was rated on. */
typedef struct StorePuzzleRating {
    char game[64];
    Glicko2 r;
    int count;
} StorePuzzleRating;

/* The player's rating for game's puzzles (count 0 and a new rating when none yet). */
Status store_puzzle_player(Store *st, int64_t user, const char *game, StorePuzzleRating *out,
                           ErrBuf *err);
/* The puzzle's rating (count 0 and *out->r untouched when it has none yet). */
Status store_puzzle_get(Store *st, const char *game, const char *puzzle, StorePuzzleRating *out,
                        ErrBuf *err);
/* Whether the player has been rated on the puzzle already. */
Status store_puzzle_tried(Store *st, int64_t user, const char *game, const char *puzzle,
                          bool *tried, ErrBuf *err);
/* Records the player's first try at the puzzle with both new ratings, each written only
 * if its count is still what was read (player->count, puzzle->count): STATUS_CONFLICT
 * when another write came first (the try was counted already, or a rating moved). */
Status store_puzzle_rate(Store *st, int64_t user, const char *game, const char *puzzle,
                         const StorePuzzleRating *player, const Glicko2 *player_after,
                         const StorePuzzleRating *puz, const Glicko2 *puzzle_after,
                         int64_t now, ErrBuf *err);
/* The player's ratings, one per game, up to cap. */
Status store_puzzle_ratings(Store *st, int64_t user, StorePuzzleRating *out, int cap, int *n,
                            ErrBuf *err);

#endif
