/*
 * kc_internal.h - what the King's Castle files share: the hex board and its Castle, the
 * state, the packing of moves, and the bitboard helpers.
 *
 * Cells live on an 11x11 grid of axial coordinates (q, r), both in -5..5, numbered
 * rank-major from the top: index = (r + 5) * 11 + (q + 5). 91 of the 121 grid cells are
 * on the board; the others are never set. That numbering makes a direction a fixed
 * index step, so the neighbours of a whole set of cells are six shifts of a 128-bit
 * bitboard, masked so that no shift wraps round a row or crosses a Castle wall.
 *
 * The state keeps each player's men as two 64-bit words (not a 128-bit integer, so
 * that states and undo records need no 16-byte alignment when the engine packs them),
 * plus the hashes of every position since set-up for the repetition rule.
 */
#ifndef CROWN_GAMES_KC_INTERNAL_H
#define CROWN_GAMES_KC_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/bb128.h"
#include "core/game.h"
#include "core/rep_history.h"
#include "core/rng.h"

enum {
    KC_RADIUS = 5,
    KC_SIDE = 11,        /* grid width and height */
    KC_GRID = 121,       /* grid cells; 91 of them are on the board */
    KC_CELLS = 91,
    KC_DIRS = 6,
    KC_THRONE = 60,      /* (0, 0) */
    KC_MAX_LINE = 10,    /* longest wall-free straight line of cells (a door line) */
    KC_MAX_PLIES_LIMIT = 1000,
    KC_MOVE_CAP = 1024,    /* a position offers far fewer moves: see kc_rules.c */
};

/* Players: White (0) moves first, Black (1). */
typedef enum KcResult { KC_PLAYING, KC_WHITE_WINS, KC_BLACK_WINS, KC_DRAW } KcResult;

typedef enum KcReason {
    KC_REASON_NONE,
    KC_REASON_THRONE,     /* the player to move found his man on the Throne */
    KC_REASON_NO_MOVE,    /* the player to move has no legal move */
    KC_REASON_REPETITION, /* third occurrence of a position */
    KC_REASON_PLY_LIMIT,  /* max-plies reached */
} KcReason;

/* Read-only data of a configured game: geometry, hash keys, the chosen rules. */
typedef struct KcConfig {
    Bb128 board;             /* the 91 cells */
    Bb128 castle;            /* the Throne, the inner ring and the entrance cells */
    Bb128 outside;           /* board minus castle */
    Bb128 throne_bit;
    Bb128 inner;             /* the six cells around the Throne */
    Bb128 conn_from[KC_DIRS]; /* cells whose neighbour in direction d is on the board
                                  with no wall in between */
    Bb128 nbr[KC_GRID];      /* connected neighbours of each cell */
    Bb128 pair_mask[3];      /* the opposite pairs of inner cells */
    int8_t step[KC_DIRS][KC_GRID]; /* connected neighbour in direction d, or -1 */
    int8_t raw_step[KC_DIRS][KC_GRID]; /* neighbour ignoring walls, or -1 */
    int8_t delta[KC_DIRS];    /* index step of each direction */
    bool wall[KC_GRID][KC_DIRS]; /* a wall lies between the cell and its d-neighbour */
    bool door[KC_GRID][KC_DIRS]; /* a door lies there */
    uint64_t zobrist[2][KC_GRID];
    uint64_t zobrist_black;   /* xored in when Black is to move */
    /* The twelve ways in: for each door, the three outside cells in front of it from
     * the door outwards, the castle cells beyond it (entrance, inner, inner, entrance)
     * and the direction pointing in. */
    int8_t approach[12][3];
    int8_t inward[12][4];
    int8_t approach_dir[12];

    /* Rules. */
    bool swap;           /* Black may take over White's first man */
    bool single_full;    /* singles slide as far as they can instead of choosing */
    bool single_cross;   /* singles may pass over the empty Throne (never stop on it) */
    bool capture_entered; /* a phalanx of k may enter up to k - 1 men of any opposing line */
    bool throne_by_move; /* entering the Throne is a move of its own, not automatic */
    bool loss_if_broken; /* the Throne man goes when his flank is broken by any means */
    bool no_move_draw;   /* a player without moves draws instead of losing */
    bool repetition;     /* third occurrence of a position draws */
    int max_plies;
    int hist_cap; /* history entries: max_plies + 1 */
    ObsSchema obs; /* what kc_observe fills */
    char obs_names[KC_GRID][OBS_NAME_LEN]; /* each cell's name, written once */
} KcConfig;

typedef struct KcState {
    uint64_t men[2][2]; /* [player][low, high word] bitboards; the Throne man included */
    uint64_t hash;
    uint16_t ply;       /* plies played, as the position text counts them */
    uint8_t turn;       /* 0 White, 1 Black */
    uint8_t result;     /* KcResult */
    uint8_t reason;     /* KcReason */
    uint8_t pad[3];
    RepHistory hist;    /* of history below; its newest entry is hash */
    /* The hashes of the positions since set-up (rep_history.h), max-plies + 1 of them,
     * with the bucket filter when repetition draws are on. */
    uint64_t history[];
} KcState;

_Static_assert(sizeof(KcState) == 56, "KcState must have no hidden padding");

typedef struct KcUndo {
    uint64_t men[2][2];
    uint64_t hash;
    uint8_t result;
    uint8_t reason;
} KcUndo;

/* Moves. Bits 0-6: a cell (placement cell, or the front man of what moves); 7-9: the
 * direction; 10-13: k, the number of men moving (1 for a single); 14-17: the distance m;
 * 18-19: the kind. Every move has a kind, so none is 0 (MOVE_NONE). */
typedef enum KcKind { KC_PLACE = 1, KC_SWAP = 2, KC_SLIDE = 3 } KcKind;

static inline Move kc_place(int cell)
{
    return (Move)(cell | KC_PLACE << 18);
}
static inline Move kc_swap_move(void)
{
    return (Move)(KC_SWAP << 18);
}
static inline Move kc_slide(int front, int dir, int k, int m)
{
    return (Move)(front | dir << 7 | k << 10 | m << 14 | KC_SLIDE << 18);
}
static inline int kc_kind(Move m)
{
    return (int)(m >> 18);
}
static inline int kc_cell(Move m)
{
    return (int)(m & 127);
}
static inline int kc_dir(Move m)
{
    return (int)((m >> 7) & 7);
}
static inline int kc_k(Move m)
{
    return (int)((m >> 10) & 15);
}
static inline int kc_m(Move m)
{
    return (int)((m >> 14) & 15);
}

/* --- bitboards ------------------------------------------------------------------------- */

/* Every cell connected to a cell of b. */
static inline Bb128 kc_neighbours(const KcConfig *c, Bb128 b)
{
    Bb128 n = 0;
    for (int d = 0; d < KC_DIRS; d++)
        n |= bb128_shift(b & c->conn_from[d], c->delta[d]);
    return n;
}

static inline Bb128 kc_men(const KcState *s, int p)
{
    return bb128_make(s->men[p][0], s->men[p][1]);
}
static inline void kc_set_men(KcState *s, int p, Bb128 b)
{
    s->men[p][0] = bb128_lo(b);
    s->men[p][1] = bb128_hi(b);
}

static inline const KcConfig *kc_cfg(const Game *g)
{
    return (const KcConfig *)g->config;
}

/* Axial coordinates of a grid index. */
static inline int kc_q(int cell)
{
    return cell % KC_SIDE - KC_RADIUS;
}
static inline int kc_r(int cell)
{
    return cell / KC_SIDE - KC_RADIUS;
}
static inline int kc_index(int q, int r)
{
    return (r + KC_RADIUS) * KC_SIDE + q + KC_RADIUS;
}
static inline bool kc_on_board(int q, int r)
{
    const int s = -q - r;
    return q >= -KC_RADIUS && q <= KC_RADIUS && r >= -KC_RADIUS && r <= KC_RADIUS &&
           s >= -KC_RADIUS && s <= KC_RADIUS;
}

/* kc_geometry.c */
void kc_build_geometry(KcConfig *c);

/* kc_rules.c: the rules of one game over its own state, declared in the same words as
 * every game's (kv_internal.h), not shared code. */
uint64_t kc_compute_hash(const KcConfig *c, const KcState *s);
/* Cells where the player to move may place a man (the Throne excluded). */
Bb128 kc_placements(const KcConfig *c, const KcState *s);
/* True if the player to move may put a man on the Throne as a move (throne-entry=move). */
bool kc_throne_move_ok(const KcConfig *c, const KcState *s);
bool kc_swap_ok(const KcConfig *c, const KcState *s);
/* All legal moves, placements first; 0 once the game is over. */
int kc_gen_moves(const KcConfig *c, const KcState *s, Move *out);
/* Moves of men only (singles and phalanxes), appended at out. */
int kc_gen_slides(const KcConfig *c, const KcState *s, Move *out);
void kc_make(const KcConfig *c, KcState *s, Move m, KcUndo *u);
void kc_unmake(KcState *s, Move m, const KcUndo *u);
/* Decides the result of the position from scratch, as make does. */
void kc_settle(const KcConfig *c, KcState *s);
/* Empties the history and enters the current position. */
void kc_start_history(const KcConfig *c, KcState *s);
/* The opponent men a slide would capture (phalanx) and, for a single, the cell of the
 * man it throws (or -1). */
Bb128 kc_slide_captures(const KcConfig *c, const KcState *s, Move m, int *thrown);
/* The men of the player to move (own) and of his opponent (opp) after move m, throws,
 * captures and the Throne included, and the men a phalanx captured; s unchanged. */
void kc_move_effect(const KcConfig *c, const KcState *s, Move m, Bb128 *own, Bb128 *opp,
                    Bb128 *captured);

/* kc_notation.c */
void kc_format_cell(int cell, StrBuf *out);
void kc_format_move(const KcConfig *c, const KcState *s, Move m, StrBuf *out);
Status kc_parse_move(const KcConfig *c, const KcState *s, const char *text, Move *out,
                     ErrBuf *err);
Status kc_parse_position(const KcConfig *c, KcState *s, const char *text, ErrBuf *err);
void kc_format_position(const KcState *s, StrBuf *out);
void kc_render(const KcConfig *c, const KcState *s, unsigned flags, StrBuf *out);

/* kc_observe.c */
void kc_obs_schema(KcConfig *c);
void kc_observe(const KcConfig *c, const KcState *s, int observer, Observation *o);

/* kc_eval.c */
int kc_evaluate(const KcConfig *c, const KcState *s);

/* kc_features.c: an evaluation network's inputs (GameOps.nnue_features): a man of
 * each side (0: the perspective's own) on each grid cell. */
enum { KC_NNUE_FEATURES = 2 * KC_GRID };
int kc_nnue_features(const KcState *s, int perspective, uint16_t *out, int cap);
/* What the features depend on (GameOps.nnue_snapshot): the men; and the features one
 * snapshot has and the other has not (GameOps.nnue_delta). */
typedef struct KcNnueSnapshot {
    uint64_t men[2][2];
} KcNnueSnapshot;
void kc_nnue_snapshot(const KcState *s, KcNnueSnapshot *out);
void kc_nnue_delta(const KcNnueSnapshot *before, const KcNnueSnapshot *after, int perspective,
                   uint16_t *add, int *n_add, uint16_t *sub, int *n_sub);

/* kc_search.c: the moves quiescence plays out (GameOps.noisy). */
int kc_noisy(const KcConfig *c, const KcState *s, Move m);

/* kc_fast.c */
void kc_playout(const KcConfig *c, KcState *s, Rng *rng);
/* The number of legal moves, counted without listing them. */
int kc_count_moves(const KcConfig *c, const KcState *s);

/* kc_measure.c: the figures crown lab reports (GameOps.measure). */
enum { KC_METRIC_COUNT = 5 };
extern const GameMetric kc_metrics[KC_METRIC_COUNT];
void kc_measure(const Game *g, const GameState *before, Move m, const GameState *after,
                double out[][MAX_PLAYERS]);

#endif
