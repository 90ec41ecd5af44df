/*
 * kc_reference.h - a deliberately plain King's Castle rules oracle for the tests.
 *
 * Written from docs/games/kings-castle.md alone: a char grid over axial
 * coordinates, the Castle, doors and walls spelled out as that doc lists them, plain
 * loops over cells, copy-make and a full position history. Obviously correct beats fast;
 * it shares no code with src/games/kingscastle, so agreement between the two means
 * something.
 */
#ifndef CROWN_TESTS_SUPPORT_KC_REFERENCE_H
#define CROWN_TESTS_SUPPORT_KC_REFERENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    KCREF_RADIUS = 5,
    KCREF_SIDE = 11,
    KCREF_MAX_MOVES = 2048,
    KCREF_MAX_HISTORY = 1001,
    KCREF_MOVE_TEXT = 16,      /* "a10:c10-k10" plus NUL, with room to spare */
    KCREF_POSITION_TEXT = 160, /* the longest board, side, plies, NUL */
};

typedef struct KcRefRules {
    bool swap;           /* swap=on */
    bool single_full;    /* single-range=full */
    bool throne_by_move; /* throne-entry=move */
    bool loss_if_broken; /* throne-loss=broken */
    bool no_move_draw;   /* no-move=draw */
    bool repetition;     /* repetition=draw */
    int max_plies;
    bool single_cross; /* single-throne=cross */
    bool capture_entered; /* capture-limit=entered */
} KcRefRules;

/* One position: cell[r + 5][q + 5] is 'W', 'B' or '.' for cells on the board (and '.'
 * off it). */
typedef struct KcRefPos {
    char cell[KCREF_SIDE][KCREF_SIDE];
    int to_move; /* 0 White, 1 Black */
    int ply;
} KcRefPos;

typedef enum KcRefKind { KCREF_PLACE, KCREF_SWAP, KCREF_SLIDE } KcRefKind;

/* A move. Placement: (q, r). Slide: the front man (q, r) of k men moves `dist` cells in
 * direction dir (0..5: (1,0) (1,-1) (0,-1) (-1,0) (-1,1) (0,1)); k = 1 is a single. */
typedef struct KcRefMove {
    KcRefKind kind;
    int q, r;
    int dir, k, dist;
} KcRefMove;

typedef enum KcRefResult {
    KCREF_ONGOING,
    KCREF_WHITE_WINS,
    KCREF_BLACK_WINS,
    KCREF_DRAW,
} KcRefResult;

/* A game: the rules and every position since set-up; history[count - 1] is current. */
typedef struct KcRefGame {
    KcRefRules rules;
    int count;
    KcRefPos history[KCREF_MAX_HISTORY];
} KcRefGame;

/* Default rules with "name=value" settings applied. False with a message on an unknown
 * name or value. */
bool kcref_rules(const char *const *settings, int n_settings, KcRefRules *out, char *err,
                 size_t err_len);

bool kcref_parse_position(const KcRefRules *rules, const char *text, KcRefPos *out, char *err,
                          size_t err_len);
void kcref_format_position(const KcRefPos *pos, char *out, size_t cap);

/* A new game from a position text (NULL on error, with a message); free() it. */
KcRefGame *kcref_game_new(const KcRefRules *rules, const char *text, char *err, size_t err_len);
const KcRefPos *kcref_current(const KcRefGame *g);

/* The result at the current position and why. */
KcRefResult kcref_result(const KcRefGame *g, const char **why);
/* Legal moves at the current position; none once the game is over. */
int kcref_legal_moves(const KcRefGame *g, KcRefMove *out);
/* The move text in the notation of docs/games/kings-castle.md. */
void kcref_format_move(const KcRefPos *pos, KcRefMove m, char out[KCREF_MOVE_TEXT]);
/* Finds the legal move with this text. */
bool kcref_find_move(const KcRefGame *g, const char *text, KcRefMove *out);
void kcref_play(KcRefGame *g, KcRefMove m);
void kcref_undo(KcRefGame *g);
/* Earlier occurrences of the current position (same player to move). */
int kcref_occurrences(const KcRefGame *g);
uint64_t kcref_perft(KcRefGame *g, int depth);

/* For the tests' statistics: whether (q, r) is a castle cell, and the length of the line
 * of connected men of the man on (q, r) along direction dir's axis. */
bool kcref_in_castle(int q, int r);
int kcref_line_length(const KcRefPos *pos, int q, int r, int dir);

#endif
