/*
 * tune_data.h - the positions evaluation tuning learns from (crown tune): quiet positions
 * of finished games, each with the game's result, kept as states of one configured game,
 * and their file, a text file of one position a line:
 *
 *   # crown tune data
 *   game king-down
 *   1 <position text>        the first player's result (1, 0.5 or 0), a tab, the text
 *   1 <position text> 57     the same with a search's score for the first player, after
 *                            a second tab (crown tune --generate --score-nodes)
 *
 * Lines starting with '#' and blank lines are skipped. The game line names the game the
 * positions belong to; its rule options are the caller's (the same --rule as generated).
 */
#ifndef CROWN_PLAY_TUNE_DATA_H
#define CROWN_PLAY_TUNE_DATA_H

#include <stddef.h>

#include "core/game.h"
#include "core/strbuf.h"

typedef struct TuneData {
    const Game *game;
    unsigned char *states; /* count states of game->state_size bytes */
    double *result;        /* per position: the first player's result, 0 .. 1 */
    int *score;            /* per position: a search's score for the first player, or 0 */
    long count, cap;
    long scored; /* positions that came with a score */
} TuneData;

void tune_data_init(TuneData *d, const Game *g);
void tune_data_free(TuneData *d);
static inline const GameState *tune_data_state(const TuneData *d, long i)
{
    return (const GameState *)(d->states + (size_t)i * d->game->state_size);
}
/* Adds a copy of s with the first player's result and, when score is not NULL, a
 * search's score of s for the first player. */
Status tune_data_add(TuneData *d, const GameState *s, double result, const int *score,
                     ErrBuf *err);

/* Appends the file's header for game g. */
void tune_data_header(const Game *g, StrBuf *out);
/* Appends one position's line (with its score unless score is NULL); an error (nothing
 * appended) when the game writes the position on several lines or with a tab, which
 * this format cannot hold. */
Status tune_data_line(const Game *g, const GameState *s, double result, const int *score,
                      StrBuf *out, ErrBuf *err);
/* Reads the file at path into d (empty on entry; its game's positions). An error names
 * the line and what is wrong with it, and leaves d empty. */
Status tune_data_load(TuneData *d, const char *path, ErrBuf *err);

#endif
