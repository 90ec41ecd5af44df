/*
 * kg_reference.h - a deliberately plain King's Guard rules oracle for the tests.
 *
 * Written from docs/games/kings-guard.md (its Rulings above all), not from the fast
 * generator in src/games/kingsguard: stacks are strings of piece letters, paths are
 * found by a breadth-first search over a distance array, a game is a stack of copied
 * positions (one per action), repetitions are found by comparing whole boards. Slow and
 * obviously correct. Covers kings-guard and kings-guard-8x8 with every rule option.
 *
 * It also turns board diagrams into position texts, so that rule tests can show the
 * board they test.
 */
#ifndef CROWN_TESTS_SUPPORT_KG_REFERENCE_H
#define CROWN_TESTS_SUPPORT_KG_REFERENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    KGREF_MAX_FILES = 9,
    KGREF_MAX_RANKS = 10,
    KGREF_MAX_HEIGHT = 5,
    KGREF_MAX_ACTIONS = 100,       /* a placement per square, or end */
    KGREF_MAX_PLIES = 1000,        /* the largest max-plies the games accept */
    KGREF_ACTION_TEXT = 32,        /* "c10-c10" plus NUL, with room for any int */
    KGREF_POSITION_TEXT = 1100,    /* the longest position text, NUL included */
};

typedef struct KgRefRules {
    int files, ranks; /* 9x10 or 8x8 */
    int limit;        /* tallest tower: 5 or 4 */
    int king_file;    /* 0 = a; the kings' file at set-up */
    bool steps_all;   /* steps=all: 8 neighbours instead of 4 */
    bool repetition;  /* third occurrence draws */
    bool no_move_loses;
    int max_plies; /* turns */
} KgRefRules;

/* One position. stack[rank][file] holds the pieces bottom to top as letters: 'G' 'K'
 * first player, 'g' 'k' second player ("" = empty). */
typedef struct KgRefPos {
    char stack[KGREF_MAX_RANKS][KGREF_MAX_FILES][KGREF_MAX_HEIGHT + 1];
    int to_move;      /* 0 = first player */
    int turns;        /* whole turns played */
    int origin_file;  /* -1 between turns, else where the turn in progress started */
    int origin_rank;
    int placed;       /* pieces placed by the turn in progress */
} KgRefPos;

typedef enum KgRefKind { KGREF_PICK = 1, KGREF_PLACE, KGREF_END } KgRefKind;

typedef struct KgRefAction {
    KgRefKind kind;
    int file, rank; /* the square picked up, or the destination of a placement */
} KgRefAction;

typedef enum KgRefResult {
    KGREF_ONGOING,
    KGREF_FIRST_WINS,
    KGREF_SECOND_WINS,
    KGREF_DRAW,
} KgRefResult;

/* A game: the rules and every position since set-up, one per action played. */
typedef struct KgRefGame {
    KgRefRules rules;
    int count, cap;
    KgRefPos *line; /* line[count - 1] is the current position */
} KgRefGame;

/* Rules of a registered game name with "name=value" settings over the defaults. False
 * (with a message) for an unknown game, option or value. */
bool kgref_rules_for(const char *game, const char *const *settings, int n_settings,
                     KgRefRules *out, char *err, size_t err_len);
/* The start position text of these rules, built from R-KG-1 and R-KG-2. */
void kgref_start_text(const KgRefRules *rules, char *out, size_t cap);

/* Position text: the board (ranks from the top, '/' between them; a digit for empty
 * squares, a letter for a lone piece, (...) for a stack bottom to top), the player to
 * move (1 or 2), the turns played and, in the middle of a turn, START:PLACED. */
bool kgref_parse_position(const KgRefRules *rules, const char *text, KgRefPos *out, char *err,
                          size_t err_len);
void kgref_format_position(const KgRefRules *rules, const KgRefPos *pos, char *out, size_t cap);

/* A board diagram to a position text (to_move 1 or 2, as in the text): rows from the top
 * rank down, squares separated by
 * single spaces, each '.' (empty) or the letters of its stack bottom to top, e.g.
 * ". Gg . K". `progress` is NULL or "c3:1". False if malformed. */
bool kgref_diagram(const char *const *rows, int n_rows, int to_move, int turns,
                   const char *progress, char *out, size_t cap);

KgRefGame *kgref_game_new(const KgRefRules *rules, const char *text, char *err,
                          size_t err_len);
void kgref_game_free(KgRefGame *g);
const KgRefPos *kgref_current(const KgRefGame *g);

/* The result at the current position and a short reason ("king captured", "no legal
 * turn", "threefold repetition", "turn limit", ""); `reason` may be NULL. */
KgRefResult kgref_result(const KgRefGame *g, const char **reason);
/* Legal actions at the current position (none once the game is over): pick-ups and
 * placements in square order (a1, b1, ..., then rank 2), then end. Returns the count;
 * `out` holds KGREF_MAX_ACTIONS. */
int kgref_legal(const KgRefGame *g, KgRefAction *out);
void kgref_play(KgRefGame *g, KgRefAction a);
void kgref_undo(KgRefGame *g);

/* "c3" (pick up), "c3-c5" (place; the start square comes from the position), "end". */
void kgref_format_action(const KgRefGame *g, KgRefAction a, char out[KGREF_ACTION_TEXT]);
bool kgref_find_action(const KgRefGame *g, const char *text, KgRefAction *out);

/* Leaves `depth` actions below the current position. */
uint64_t kgref_perft(KgRefGame *g, int depth);
/* Leaves `depth` whole turns below: a turn is one sequence of placements from one start
 * square, ended by "end", by emptying the start square or by a capture. */
uint64_t kgref_perft_turns(KgRefGame *g, int depth);

#endif
