/*
 * puzzle.h - puzzles: positions where the side to move has exactly one move that keeps
 * its best result, and a line on from there in which every move of that side is again
 * the only one and the opponent answers with its most stubborn reply.
 *
 * Who says "the only move" is a judge: a solved table (puzzle_table.c, proven) or two
 * alpha-beta searches, d and d+4 plies deep (puzzle_search.c, searched). The line, the
 * themes, the rating and the check of a written puzzle are the same for both
 * (puzzle.c); the positions come from games played to that end (puzzle_find.c).
 * docs/PUZZLES.md says how each is found and what its figures mean.
 */
#ifndef CROWN_PLAY_PUZZLE_H
#define CROWN_PLAY_PUZZLE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/game.h"
#include "search/agent.h"
#include "solve/kvs_table.h"

enum {
    PUZZLE_POSITION_CAP = 512,
    PUZZLE_MOVE_CAP = 64,
    PUZZLE_MAX_PLIES = 24,
    PUZZLE_MAX_THEMES = 6,
    /* Searched puzzles: the best move's chance to win at least this (per cent, or a
     * proven win), every other move's at most PUZZLE_OTHERS_MAX: a clear advantage that
     * only one move keeps. */
    PUZZLE_BEST_MIN = 75,
    PUZZLE_OTHERS_MAX = 50,
    /* The confirming search is this many plies deeper than the first. */
    PUZZLE_CONFIRM_PLIES = 4,
};

/* What the judge says of one position of the solver's: the only move, and how many
 * legal moves there were beside it (for the rating). */
typedef struct PuzzleVerdict {
    Move only;
    int alternatives;
    char value[32]; /* the only move's value in words: "win in 9", "84%" */
} PuzzleVerdict;

/* One source of "the only move". `only` answers true when exactly one move of s keeps
 * the mover's best result and that result is a win (or a clear advantage); `reply`
 * writes the opponent's most stubborn move. Both leave s as it was. */
typedef struct PuzzleJudge {
    void *ctx;
    bool proven;
    bool (*only)(void *ctx, const Game *g, const GameState *s, PuzzleVerdict *out);
    Status (*reply)(void *ctx, const Game *g, const GameState *s, Move *out, ErrBuf *err);
    /* Whether reply m holds out as long as the most stubborn one (NULL: any legal reply
     * will do, as for a search, whose replies are only its opinion). */
    bool (*stubborn)(void *ctx, const Game *g, const GameState *s, Move m);
} PuzzleJudge;

typedef struct Puzzle {
    char position[PUZZLE_POSITION_CAP];
    char solution[PUZZLE_MAX_PLIES][PUZZLE_MOVE_CAP];
    int plies;
    const char *themes[PUZZLE_MAX_THEMES];
    int n_themes;
    int rating;
    bool proven;
    char value[32];
} Puzzle;

/* The line from s as a judge sees it, of at most max_plies plies (at most
 * PUZZLE_MAX_PLIES): false when s is no puzzle (no only move, or a line shorter than
 * min_plies). The line ends on a whole turn of the solver's: the game is over, or the
 * next position of the solver's has more than one good move, or the plies are spent. */
bool puzzle_from_position(const PuzzleJudge *j, const Game *g, const GameState *s,
                          int min_plies, int max_plies, Puzzle *out);

/* Checks a written puzzle against a judge: every move of the solver's in `solution`
 * must be the judge's only move there, every reply legal and as stubborn as the
 * judge asks. STATUS_ILLEGAL with the ply and the reason if not. */
Status puzzle_check(const PuzzleJudge *j, const Game *g, const char *position,
                    const char *const *solution, int plies, ErrBuf *err);

/* The proven judge: a solved table that fits g. The context is the table itself. */
void puzzle_table_judge(const KvsTable *t, PuzzleJudge *out);

/* The searched judge: alpha-beta at `depth` and depth + PUZZLE_CONFIRM_PLIES, which
 * must agree. With `decisive`, only proven wins count as the best result (the check of
 * a proven puzzle by search). */
typedef struct PuzzleSearch PuzzleSearch;
Status puzzle_search_new(const Game *g, int depth, bool decisive, PuzzleSearch **out,
                         ErrBuf *err);
void puzzle_search_free(PuzzleSearch *ps);
void puzzle_search_judge(PuzzleSearch *ps, PuzzleJudge *out);

/* Finds puzzles in games played from g's start (or `start` when not NULL): each
 * position of each game is asked of the judge, once; a proven judge's games are played
 * by the table and random moves, a searched judge's by the AI at a low level. Calls
 * found(ctx, puzzle) for each new puzzle until it returns false or `count` are found;
 * gives up after max_games games (0: 100 games per puzzle asked). */
typedef bool (*PuzzleFound)(void *ctx, const Puzzle *p);
typedef struct PuzzleFindOptions {
    long count;
    uint64_t seed;
    int min_plies, max_plies;
    long max_games;
    const char *start; /* a position text, or NULL */
    const KvsTable *table; /* the proven judge's table, for its games' moves; or NULL */
} PuzzleFindOptions;
Status puzzle_find(const PuzzleJudge *j, const Game *g, const PuzzleFindOptions *o,
                   PuzzleFound found, void *ctx, long *games_played, ErrBuf *err);

#endif
