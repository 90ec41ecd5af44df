/*
 * kv_reference.h - a deliberately plain King's Valley rules oracle for the tests.
 *
 * Written from docs/games/kings-valley.md alone, without reading the fast
 * generator in src/games/kingsvalley, so that agreement between the two means something.
 * A char grid, plain loops over cells, copy-make and a full position history: obviously
 * correct beats fast. Covers kings-valley, retrieve-the-king, kings-valley-7x7 (with the
 * trap-prevention filter) and kings-valley-labyrinth (pillars on b3, f3, b5, f5).
 */
#ifndef CROWN_TESTS_SUPPORT_KV_REFERENCE_H
#define CROWN_TESTS_SUPPORT_KV_REFERENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    KVREF_MAX_SIZE = 7,
    KVREF_MAX_MOVES = 64,       /* 7 pieces x 8 directions = 56 at most */
    KVREF_MAX_PLIES = 1000,     /* the largest max-plies the games accept */
    KVREF_MAX_HISTORY = 1001,   /* set-up position plus one per ply played */
    KVREF_TRAP_DEPTH = 4,       /* "within 4 moves" of the 7x7 trap rule */
    KVREF_MOVE_TEXT = 8,        /* "c1-c4" plus NUL, with room to spare */
    KVREF_POSITION_TEXT = 96,   /* 7x7 board, side, ply count, NUL */
};

/* The 7x7 trap-prevention rule: whose path to the Valley a move may not close. */
typedef enum KvRefTrap {
    KVREF_TRAP_OFF,
    KVREF_TRAP_OPPONENT,
    KVREF_TRAP_BOTH,
} KvRefTrap;

typedef struct KvRefRules {
    int size;                /* 5 or 7 */
    bool pillars;            /* labyrinth: pillars on b3, f3, b5, f5 and nowhere else */
    KvRefTrap trap;          /* KVREF_TRAP_OFF except on kings-valley-7x7 */
    bool first_move_soldier; /* the king may not move on ply 0 */
    bool locked_king_loses;  /* a player to move whose king has no free neighbour loses */
    int max_plies;
    bool repetition;         /* the third occurrence of a position draws */
    bool no_move_draws;      /* a player without a legal move draws instead of losing */           /* draw once this many plies have been played */
} KvRefRules;

/* One position: cell[rank][file], rank 0 = rank 1, file 0 = file a. Cells hold
 * 'K' 'S' (first player), 'k' 's' (second player), '#' (pillar) or '.' (empty). */
typedef struct KvRefPos {
    int size;
    char cell[KVREF_MAX_SIZE][KVREF_MAX_SIZE];
    int to_move; /* 0 = first player, 1 = second player */
    int ply;     /* plies played, as the position text says */
} KvRefPos;

typedef struct KvRefMove {
    int from_file, from_rank, to_file, to_rank;
} KvRefMove;

typedef enum KvRefResult {
    KVREF_ONGOING,
    KVREF_FIRST_WINS,
    KVREF_SECOND_WINS,
    KVREF_DRAW,
} KvRefResult;

/* A game: the rules plus every position since the one it was set up from, for the
 * threefold-repetition draw. history[count - 1] is the current position. */
typedef struct KvRefGame {
    KvRefRules rules;
    int count;
    KvRefPos history[KVREF_MAX_HISTORY];
} KvRefGame;

/* Rules of a registered King's Valley game name with "name=value" settings applied over
 * the defaults. False (with a message) for an unknown game, option or value. */
bool kvref_rules_for(const char *game, const char *const *settings, int n_settings,
                     KvRefRules *out, char *err, size_t err_len);
/* The start position text of a game name; NULL if unknown. */
const char *kvref_start_text(const char *game);

/* Parses a position text (see the file comment of kv_reference.c). False with a message
 * on any error. */
bool kvref_parse_position(const KvRefRules *rules, const char *text, KvRefPos *out,
                          char *err, size_t err_len);
/* Writes the position text into out (KVREF_POSITION_TEXT bytes are enough). */
void kvref_format_position(const KvRefPos *pos, char *out, size_t cap);

/* A new game set up from a position text; NULL with a message on error. free() it. */
KvRefGame *kvref_game_new(const KvRefRules *rules, const char *text, char *err,
                          size_t err_len);
const KvRefPos *kvref_current(const KvRefGame *g);

/* The result at the current position, and a short reason ("king on the Valley",
 * "king locked", "ply limit", "threefold repetition", "no legal move", "").
 * `reason` may be NULL. */
KvRefResult kvref_result(const KvRefGame *g, const char **reason);
/* How often the current position (board and player to move) occurs in the history,
 * itself included. */
int kvref_occurrences(const KvRefGame *g);
/* Legal moves at the current position (none once the game is over), in board order.
 * `out` must hold KVREF_MAX_MOVES moves. Returns the count. */
int kvref_legal_moves(const KvRefGame *g, KvRefMove *out);
/* Plays a move that kvref_legal_moves offered. */
void kvref_play(KvRefGame *g, KvRefMove m);
/* Takes back the last kvref_play. */
void kvref_undo(KvRefGame *g);

/* "c1-c4". */
void kvref_format_move(KvRefMove m, char out[KVREF_MOVE_TEXT]);
/* Reads "c1-c4" (syntax only, squares on a board of `size`); false if malformed. */
bool kvref_parse_move(int size, const char *text, KvRefMove *out);
/* Finds a legal move by its text; false if the text names no legal move here. */
bool kvref_find_move(const KvRefGame *g, const char *text, KvRefMove *out);

/* Leaves `depth` plies below the current position (1 at depth 0), counting terminal
 * positions as having no children. The game is restored afterwards. */
uint64_t kvref_perft(KvRefGame *g, int depth);

#endif
