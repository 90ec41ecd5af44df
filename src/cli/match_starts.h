/*
 * match_starts.h - where each game of a match starts: the start position of the command
 * line, a new random set-up per group of games for games whose set-up is drawn (King
 * Down's back rank, King of the Valley's piles), or the lines of an openings file (a
 * position text, or actions played from the start). One mechanism for all three, so a
 * match plays every start with every seating.
 */
#ifndef CROWN_CLI_MATCH_STARTS_H
#define CROWN_CLI_MATCH_STARTS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/game.h"
#include "core/status.h"

typedef struct MatchStarts {
    const Game *game;
    GameState *base;   /* owned: the command line's start, and the openings' base */
    bool random_setup; /* the game draws its set-up and no position was given */
    uint64_t seed;
    char **lines; /* the openings, when a file was given */
    int count;
} MatchStarts;

/* base is the command line's start (copied); `position_given` says it came from
 * --position, which fixes every game's start; openings_path may be NULL. A game has a
 * random set-up when two seeds give different starts. Every opening line is checked
 * now: an error names the line and what is wrong, and leaves nothing to free. */
Status match_starts_init(MatchStarts *ms, const Game *g, const GameState *base,
                         bool position_given, uint64_t seed, const char *openings_path,
                         ErrBuf *err);
void match_starts_free(MatchStarts *ms);

/* Writes the start of group `group` (openings are used in turn, then again). */
Status match_start(const MatchStarts *ms, int group, GameState *out, ErrBuf *err);

/* "the start position", "a random set-up per pair of games", "12 openings". */
const char *match_starts_kind(const MatchStarts *ms);

#endif
