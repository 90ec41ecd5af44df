/*
 * kg_internal.h - what the King's Guard files share: the board geometry, the state, the
 * action encoding and the bitboard primitives.
 *
 * Squares are numbered rank-major from a1 = 0 with one padding file: index = rank *
 * stride + file, stride = files + 1. The padding file is never on the board, so a
 * bitboard shifted one step east or west off an edge lands on it and is masked away;
 * 10 ranks of 10 fit a 128-bit bitboard. A square holds a stack: its height and one
 * owner bit per level (level 0 is the bottom). Kings are found through king[] and
 * king_level[]: a king is always the top of its stack until it is captured.
 *
 * A turn is several actions of one player: pick up (choose the start square), place
 * (the top piece still on the start square goes to a square it can reach), and end
 * (stop before the stack is used up). The pieces still to move stay on the start square
 * until placed, so the board is always complete and "pieces moved earlier this turn are
 * obstacles" needs no bookkeeping: they are simply on the board.
 *
 * The state carries the hashes of the positions at the start of every turn since
 * set-up, so that threefold repetition is a rule of the game, not of the search.
 */
#ifndef CROWN_GAMES_KG_INTERNAL_H
#define CROWN_GAMES_KG_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/bb128.h"
#include "core/game.h"
#include "core/rep_history.h"
#include "core/rng.h"

enum {
    KG_MAX_FILES = 9,
    KG_MAX_RANKS = 10,
    KG_MAX_SQ = 100, /* (files + 1) * ranks on the largest board */
    KG_MAX_HEIGHT = 5,
    KG_MAX_PLIES_LIMIT = 1000,
    KG_NO_SQ = 255,
    KG_MAX_ACTIONS = KG_MAX_SQ + 1, /* a placement per square, or end: well under 1024 */
};

typedef enum KgResult { KG_PLAYING, KG_WIN_FIRST, KG_WIN_SECOND, KG_DRAW } KgResult;

typedef enum KgReason {
    KG_REASON_NONE,
    KG_REASON_CAPTURE,    /* a piece was placed on a king */
    KG_REASON_NO_MOVE,    /* the player to move has no legal turn */
    KG_REASON_REPETITION, /* third occurrence of a position */
    KG_REASON_PLY_LIMIT,  /* max-plies turns played */
} KgReason;

/* Piece kinds for the hash keys: owner | is_king << 1. */
enum { KG_KINDS = 4 };

/* Read-only data of one configured game. */
typedef struct KgConfig {
    Bb128 on_board;
    Bb128 neighbours[KG_MAX_SQ]; /* squares one step away under the step rule */
    int files, ranks, stride, squares;
    int limit;  /* the tallest tower allowed */
    int guards; /* guards a side at set-up */
    bool steps_all;
    bool repetition;
    bool no_move_loses;
    int max_plies; /* turns before the game is drawn */
    int hist_cap;  /* history entries: max_plies + 1 */
    size_t state_bytes; /* a KgState with its history */
    uint64_t zobrist[KG_KINDS][KG_MAX_HEIGHT][KG_MAX_SQ];
    uint64_t zobrist_origin[KG_MAX_SQ]; /* a turn in progress started here */
    uint64_t zobrist_placed;            /* ... and has placed a piece already */
    uint64_t zobrist_second;            /* the second player acts */
    char start[192];                    /* start position text */
    ObsSchema obs;                      /* what kg_observe fills */
    char obs_names[KG_MAX_SQ][OBS_NAME_LEN]; /* each square's name, written once */
} KgConfig;

/* Everything but the history: what an undo record saves. No implicit padding, so that
 * memcpy/memcmp see only meaningful bytes. */
typedef struct KgCore {
    Bb128Words occ;    /* squares holding a stack */
    Bb128Words top[2]; /* squares whose top piece is player p's */
    Bb128Words full;   /* stacks at the height limit */
    uint64_t hash;
    uint8_t height[KG_MAX_SQ];
    uint8_t owners[KG_MAX_SQ]; /* bit j: the piece j from the bottom is the second player's */
    uint8_t king[2];           /* square of each king */
    uint8_t king_level[2];     /* its level; the top of its stack unless captured */
    uint8_t turn;              /* 0: first player, 1: second */
    uint8_t origin;            /* KG_NO_SQ between turns, else where this turn started */
    uint8_t placed;            /* pieces placed this turn */
    uint8_t result;            /* KgResult */
    uint8_t reason;            /* KgReason */
    uint8_t pad;
    uint16_t ply;    /* whole turns played, as the position text counts them */
    uint16_t pad2[2];
    RepHistory hist; /* of KgState.history */
} KgCore;

_Static_assert(sizeof(KgCore) == 296, "KgCore must have no hidden padding");

typedef struct KgState {
    KgCore k;
    /* hashes of the positions at the start of each turn (rep_history.h), max-plies + 1
     * of them; the newest is the current one between turns */
    uint64_t history[];
} KgState;

typedef struct KgUndo {
    KgCore k;
} KgUndo;

/* --- actions ------------------------------------------------------------------------- */

typedef enum KgKind { KG_PICK = 1, KG_PLACE = 2, KG_END = 3 } KgKind;

/* kind << 14 | b << 7 | a: a is the start square, b the destination of a placement. The
 * kind is never 0, so no action is MOVE_NONE. */
static inline Move kg_action(KgKind kind, int a, int b)
{
    return (Move)a | (Move)b << 7 | (Move)kind << 14;
}
static inline KgKind kg_kind(Move m)
{
    return (KgKind)(m >> 14 & 3);
}
static inline int kg_a(Move m)
{
    return (int)(m & 127);
}
static inline int kg_b(Move m)
{
    return (int)(m >> 7 & 127);
}

/* --- bitboards ------------------------------------------------------------------------ */

/* The squares one step from any square of b (b itself not included unless adjacent). */
static inline Bb128 kg_spread(const KgConfig *c, Bb128 b)
{
    const int w = c->stride;
    Bb128 n = b << 1 | b >> 1 | b << w | b >> w;
    if (c->steps_all)
        n |= b << (w + 1) | b >> (w + 1) | b << (w - 1) | b >> (w - 1);
    return n & c->on_board;
}

/* Where the piece on top of the stack at `from` can be put down with `range` steps over
 * the empty squares `empty`: every square one step beyond the squares it can stand on
 * after at most range - 1 steps. Occupied squares end a path, so `from` (still holding
 * the piece) is never crossed; it is removed from the result. Full stacks and kings are
 * the caller's business. */
static inline Bb128 kg_reach(const KgConfig *c, int from, int range, Bb128 empty)
{
    Bb128 stand = bb128_bit(from);
    for (int k = 1; k < range; k++) {
        const Bb128 more = stand | (kg_spread(c, stand) & empty);
        if (more == stand)
            break;
        stand = more;
    }
    return kg_spread(c, stand) & ~bb128_bit(from);
}

static inline const KgConfig *kg_cfg(const Game *g)
{
    return (const KgConfig *)g->config;
}

static inline Bb128 kg_empty(const KgConfig *c, const KgCore *k)
{
    return c->on_board & ~bb128_load(k->occ);
}

/* The owner (0/1) of the piece at `level` of the stack on sq. */
static inline int kg_owner_at(const KgCore *k, int sq, int level)
{
    return k->owners[sq] >> level & 1;
}

/* The square of player p's king as an obstacle bitboard: no piece may be put on it by
 * p, and the opponent captures by putting one there. */
static inline Bb128 kg_king_bit(const KgCore *k, int p)
{
    return bb128_bit(k->king[p]);
}

/* kg_rules.c */
uint64_t kg_compute_hash(const KgConfig *c, const KgCore *k);
void kg_rebuild_bitboards(const KgConfig *c, KgCore *k);
/* The stacks player p may start a turn from (the must-dismantle rule applied); the
 * player to move's picks. */
Bb128 kg_starts(const KgConfig *c, const KgCore *k, int p);
Bb128 kg_picks(const KgConfig *c, const KgCore *k);
Bb128 kg_dests(const KgConfig *c, const KgCore *k);
int kg_gen(const KgConfig *c, const KgState *s, Move *out);
void kg_make(const KgConfig *c, KgState *s, Move m, KgUndo *u);
void kg_unmake(KgState *s, const KgUndo *u);
void kg_settle(const KgConfig *c, KgState *s);
/* As kg_settle, skipping the repetition scan when the caller knows the position is
 * new (may_repeat false). */
void kg_settle_hinted(const KgConfig *c, KgState *s, bool may_repeat);
/* The repetition draw alone, for a turn start settled without it: the draw rules come
 * after the others, so a position still in play may only become a repetition draw. */
void kg_check_repetition(const KgConfig *c, KgState *s);
/* kg_make without an undo record and with the repetition hint (playouts). */
void kg_apply(const KgConfig *c, KgState *s, Move m, bool may_repeat);
/* The hash the position would have if the turn in progress ended now (for playouts that
 * ask a filter before ending a turn). */
uint64_t kg_hash_after_end(const KgConfig *c, const KgCore *k);

/* kg_notation.c */
Status kg_parse_position(const KgConfig *c, KgState *s, const char *text, ErrBuf *err);
void kg_format_position(const KgConfig *c, const KgState *s, StrBuf *out);
void kg_format_square(const KgConfig *c, int sq, StrBuf *out);
void kg_format_action(const KgConfig *c, Move m, StrBuf *out);
Status kg_parse_action(const KgConfig *c, const KgState *s, const char *text, Move *out,
                       ErrBuf *err);
Status kg_parse_actions(const KgConfig *c, const KgState *s, const char *text, Move *out,
                        int cap, int *count, ErrBuf *err);
void kg_render(const KgConfig *c, const KgState *s, unsigned flags, StrBuf *out);

/* kg_observe.c */
void kg_obs_schema(KgConfig *c);
void kg_observe(const KgConfig *c, const KgState *s, int observer, Observation *o);

/* kg_eval.c */
int kg_evaluate(const KgConfig *c, const KgState *s);

/* kg_features.c: an evaluation network's inputs (GameOps.nnue_features): every piece
 * as its kind (own guard, own king, enemy guard, enemy king), its square as the
 * perspective sees it and its level: kinds x tower limit x squares inputs. */
enum {
    KG_NNUE_KINDS = 4,
    KG_NNUE_FEATURES_9X10 = 9 * 10 * 5 * KG_NNUE_KINDS,
    KG_NNUE_FEATURES_8X8 = 8 * 8 * 4 * KG_NNUE_KINDS,
};
int kg_nnue_features(const KgConfig *c, const KgCore *k, int perspective, uint16_t *out,
                     int cap);
/* The features one position's core has and another's has not (GameOps.nnue_delta; the
 * core is the snapshot). */
void kg_nnue_delta(const KgConfig *c, const KgCore *before, const KgCore *after, int perspective,
                   uint16_t *add, int *n_add, uint16_t *sub, int *n_sub);

/* kg_search.c: alpha-beta's search hints (game.h). */
int kg_noisy(const KgConfig *c, const KgState *s, Move m);
bool kg_in_check(const KgConfig *c, const KgState *s);
bool kg_make_null(const KgConfig *c, KgState *s, KgUndo *u);
/* In the middle of a turn that has placed a piece, the action that ends it (quiescence
 * judges a turn with a taking in it once it is over); MOVE_NONE elsewhere. */
Move kg_quiesce_finish(const KgConfig *c, const KgState *s);

/* kg_fast.c */
/* The leaves 1 or 2 actions deep, the last counted without listing it (for game_perft). */
bool kg_perft_leaves(const KgConfig *c, KgState *s, int depth, uint64_t *count);
void kg_playout(const KgConfig *c, KgState *s, Rng *rng);

/* kg_measure.c: the figures crown lab reports (GameOps.measure). */
enum { KG_METRIC_COUNT = 3 };
extern const GameMetric kg_metrics[KG_METRIC_COUNT];
void kg_measure(const Game *g, const GameState *before, Move m, const GameState *after,
                double out[][MAX_PLAYERS]);

#endif
