/*
 * kv_internal.h - what the King's Valley files share: the board geometry, the state,
 * and the slide primitive.
 *
 * Squares are numbered rank-major from a1 = 0 (index = rank * size + file), so a board of
 * up to 7x7 fits one uint64_t. A state holds one bitboard of all men per player plus
 * each king's square; pillars are part of the variant and live in the config. The state
 * carries the hashes of every position since set-up so that threefold repetition is a
 * rule of the game, not of the search.
 */
#ifndef CROWN_GAMES_KV_INTERNAL_H
#define CROWN_GAMES_KV_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/bits.h"
#include "core/game.h"
#include "core/rep_history.h"
#include "core/rng.h"

enum {
    KV_MAX_SIZE = 7,
    KV_MAX_CELLS = 49,
    KV_MAX_PLIES_LIMIT = 1000,
    KV_DIRS = 8,
};

typedef enum KvResult { KV_PLAYING, KV_WIN_FIRST, KV_WIN_SECOND, KV_DRAW } KvResult;

typedef enum KvReason {
    KV_REASON_NONE,
    KV_REASON_VALLEY,     /* a king reached the Valley */
    KV_REASON_LOCKED,     /* the king of the player to move cannot move */
    KV_REASON_NO_MOVE,    /* the player to move has no legal move */
    KV_REASON_REPETITION, /* third occurrence of a position */
    KV_REASON_PLY_LIMIT,  /* max-plies reached */
} KvReason;

typedef enum KvTrap { KV_TRAP_OFF, KV_TRAP_OPPONENT, KV_TRAP_BOTH } KvTrap;

/* Read-only data of one configured variant. */
typedef struct KvConfig {
    int size;
    int cells;
    int valley;
    uint64_t on_board;
    uint64_t pillars;
    bool first_move_soldier;
    bool locked_king_loses;
    bool repetition;    /* the third occurrence of a position draws (an engine rule) */
    bool no_move_draws; /* a player without a legal move draws instead of losing */
    KvTrap trap;
    int max_plies;
    int hist_cap; /* history entries: max_plies + 1 */
    int delta[KV_DIRS];                          /* square step of each direction */
    uint64_t ray[KV_DIRS][KV_MAX_CELLS];         /* squares beyond sq in direction d */
    int8_t ray_end[KV_DIRS][KV_MAX_CELLS];       /* last square of that ray, or sq itself */
    uint64_t neighbours[KV_MAX_CELLS];           /* the up to 8 adjacent squares */
    uint64_t step_from[KV_DIRS];                 /* squares with a neighbour in direction d */
    int8_t toward_valley[KV_MAX_CELLS];          /* direction from sq to the Valley along a
                                                    line, or -1 when not on one */
    uint64_t between_valley[KV_MAX_CELLS];       /* squares strictly between sq and the Valley */
    bool valley_inside;                          /* the Valley has a neighbour on every side */
    uint64_t zobrist[2][2][KV_MAX_CELLS];        /* [player][is king][square] */
    uint64_t zobrist_second_to_move;
    char start[64];                              /* start position text */
    ObsSchema obs;                               /* what kv_observe fills */
    char obs_names[KV_MAX_CELLS][OBS_NAME_LEN];  /* each square's name, written once */
} KvConfig;

typedef struct KvState {
    uint64_t men[2]; /* every man (king included) of each player */
    uint64_t hash;
    uint8_t king[2];
    uint8_t turn;   /* 0: first player, 1: second */
    uint8_t result; /* KvResult */
    uint8_t reason; /* KvReason */
    uint8_t pad[1];
    uint16_t ply;   /* plies played, as the position text counts them */
    RepHistory hist; /* of history below; its newest entry is hash */
    /* the hashes of the positions since set-up (rep_history.h), max-plies + 1 of them */
    uint64_t history[];
} KvState;

_Static_assert(sizeof(KvState) == 40, "KvState must have no hidden padding");

typedef struct KvUndo {
    uint64_t men;
    uint64_t hash;
    uint8_t king;
    uint8_t result;
    uint8_t reason;
} KvUndo;

/* A move is from | to << 6; from != to, so no move is 0 (MOVE_NONE). */
static inline Move kv_move(int from, int to)
{
    return (Move)(from | (to << 6));
}
static inline int kv_from(Move m)
{
    return (int)(m & 63);
}
static inline int kv_to(Move m)
{
    return (int)((m >> 6) & 63);
}

static inline const KvConfig *kv_cfg(const Game *g)
{
    return (const KvConfig *)g->config;
}

/* The square of `blockers` (a non-empty part of one ray in direction d) met first going
 * out along d: square numbers grow along the directions whose step is positive. */
static inline int kv_first_blocker(const KvConfig *c, int d, uint64_t blockers)
{
    return c->delta[d] > 0 ? bits_lowest(blockers) : bits_highest(blockers);
}

/* The squares of the ray from `sq` in direction d up to and including its first square
 * taken in `occ`: what a slide that way reads. */
static inline uint64_t kv_ray_to_blocker(const KvConfig *c, int d, int sq, uint64_t occ)
{
    const uint64_t ray = c->ray[d][sq], blockers = ray & occ;
    if (blockers == 0)
        return ray;
    return ray & ~c->ray[d][kv_first_blocker(c, d, blockers)];
}

/* Squares from which a king would slide onto the Valley over occupancy `occ`: on each line
 * through the Valley whose far side is taken or the edge, the squares with nothing between
 * them and the Valley, the first man met included (a king standing there is on the lane). */
static inline uint64_t kv_lanes_to_valley(const KvConfig *c, uint64_t occ)
{
    // Most of the time nothing stands next to a Valley inside the board, so no line has a
    // stopper: the trap test asks this for nearly every move.
    if (c->valley_inside && !(occ & c->neighbours[c->valley]))
        return 0;
    uint64_t lanes = 0;
    for (int d = 0; d < KV_DIRS; d++) {
        if (c->ray[d][c->valley] && !(occ & (1ULL << (c->valley + c->delta[d]))))
            continue;
        lanes |= kv_ray_to_blocker(c, (d + 4) % KV_DIRS, c->valley, occ);
    }
    return lanes;
}

/* Where a man on `sq` stops sliding in direction d over occupancy `occ` (men and
 * pillars); `sq` itself when the first square is blocked. */
static inline int kv_slide(const KvConfig *c, int sq, int d, uint64_t occ)
{
    uint64_t blockers = c->ray[d][sq] & occ;
    if (blockers == 0)
        return c->ray_end[d][sq];
    return kv_first_blocker(c, d, blockers) - c->delta[d];
}

static inline uint64_t kv_occupied(const KvConfig *c, const KvState *s)
{
    return s->men[0] | s->men[1] | c->pillars;
}

/* Whether a king on k can slide onto the Valley over occupancy `occ`: only along its own
 * line through the Valley, with the way clear and the square past the Valley taken (or
 * off the board). */
static inline bool kv_king_slides_to_valley(const KvConfig *c, int k, uint64_t occ)
{
    const int toward = c->toward_valley[k];
    if (toward < 0 || (occ & (c->between_valley[k] | (1ULL << c->valley))))
        return false;
    return c->ray[toward][c->valley] == 0 || (occ & (1ULL << (c->valley + c->delta[toward])));
}

static inline bool kv_king_locked(const KvConfig *c, const KvState *s, int player)
{
    return (c->neighbours[s->king[player]] & ~kv_occupied(c, s)) == 0;
}

/* kv_rules.c */
uint64_t kv_compute_hash(const KvConfig *c, const KvState *s);
int kv_gen_pseudo(const KvConfig *c, const KvState *s, Move *out);
int kv_gen_legal(const KvConfig *c, const KvState *s, Move *out);
void kv_make(const KvConfig *c, KvState *s, Move m, KvUndo *u);
void kv_unmake(KvState *s, Move m, const KvUndo *u);
void kv_settle_result(const KvConfig *c, KvState *s);
/* As kv_settle_result / kv_make, skipping the repetition scan when the caller knows the
 * position is new (may_repeat false). */
void kv_settle_hinted(const KvConfig *c, KvState *s, bool may_repeat);
void kv_make_hinted(const KvConfig *c, KvState *s, Move m, KvUndo *u, bool may_repeat);

/* kv_measure.c: the figures crown lab reports (GameOps.measure). */
enum { KV_METRIC_COUNT = 3 };
extern const GameMetric kv_metrics[KV_METRIC_COUNT];
void kv_measure(const Game *g, const GameState *before, Move m, const GameState *after,
                double out[][MAX_PLAYERS]);

/* kv_trap.c: the 7x7 trap-prevention filter. A plan is the moves (man's square,
 * direction) that prepare a king's slide onto the Valley. */
typedef struct KvPlan {
    int count;
    uint8_t from[4];
    uint8_t dir[4];
} KvPlan;
bool kv_reach_plan(const KvConfig *c, const uint64_t men[2], const uint8_t king[2], int player,
                   int moves_left, KvPlan *plan);
bool kv_plan_works(const KvConfig *c, const uint64_t men[2], const uint8_t king[2], int player,
                   const KvPlan *plan);
/* Where a plan that worked on some board still works: on every board that agrees with
 * that one on the squares its replay reads (their occupancy), that has its movers' first
 * squares held by the player's men, and the player's king on the same square. */
typedef struct KvPlanFootprint {
    uint64_t reads; /* the squares the replay and the final slide look at */
    uint64_t occ;   /* their occupancy on the board where the plan worked */
    uint64_t mine;  /* the squares the plan's men start from */
    uint8_t king;
} KvPlanFootprint;
/* What the trap rule remembers between reach tests, owned by the caller (a filter call, a
 * playout, a search) and only ever saving work: the footprints of the plans that worked
 * lately for each player, and optionally a table of reach results keyed by the whole board
 * (exact, no hash collisions). Start it with kv_reach_cache_init. */
enum { KV_PLAN_CACHE = 64 };
typedef struct KvReachEntry {
    uint64_t men[2];
    uint8_t king; /* the king of `player` */
    uint8_t player;
    uint8_t reach; /* 0: no, 1: yes */
    uint8_t used;
} KvReachEntry;
typedef struct KvReachCache {
    int count[2], next[2];
    KvPlanFootprint plan[2][KV_PLAN_CACHE];
    KvReachEntry *table; /* NULL, or `mask + 1` zeroed entries (a power of two) */
    uint32_t mask;
} KvReachCache;
void kv_reach_cache_init(KvReachCache *cache, KvReachEntry *table, uint32_t entries);
/* Whether the trap rule lets candidate m (pseudo-legal in s) stand, before the fallback: a
 * king's move onto the Valley, or a move after which each king concerned can still reach
 * it. */
bool kv_trap_allows(const KvConfig *c, const KvState *s, Move m, KvReachCache *cache);
int kv_trap_filter(const KvConfig *c, const KvState *s, Move *moves, int n);
bool kv_can_reach_valley(const KvConfig *c, const uint64_t men[2], const uint8_t king[2],
                         int player, int moves_left);
bool kv_can_reach_valley_plain(const KvConfig *c, const uint64_t men[2], const uint8_t king[2],
                               int player, int moves_left);

/* kv_notation.c */
Status kv_parse_position(const KvConfig *c, KvState *s, const char *text, ErrBuf *err);
void kv_format_position(const KvConfig *c, const KvState *s, StrBuf *out);
void kv_format_square(const KvConfig *c, int sq, StrBuf *out);
Status kv_parse_move_text(const KvConfig *c, const KvState *s, const char *text, Move *out,
                          ErrBuf *err);
void kv_render(const KvConfig *c, const KvState *s, unsigned flags, StrBuf *out);

/* kv_observe.c */
void kv_obs_schema(KvConfig *c);
void kv_observe(const KvConfig *c, const KvState *s, int observer, Observation *o);

/* kv_eval.c */
int kv_evaluate(const KvConfig *c, const KvState *s);

/* kv_features.c: the 7x7 games' network inputs. Four blocks of one feature per cell:
 * the perspective's king, its soldiers, the other king, the other soldiers. */
#define KV_NNUE_BLOCK(c, rel, soldier) (((rel) * 2 + (soldier)) * (c)->cells)
#define KV_NNUE_FEATURES(cells) (4 * (cells))
int kv_nnue_features(const KvConfig *c, const KvState *s, int perspective, uint16_t *out, int cap);
/* What the features depend on (GameOps.nnue_snapshot), and the features one such
 * snapshot has and the other has not (GameOps.nnue_delta). */
typedef struct KvNnueSnapshot {
    uint64_t men[2];
    uint8_t king[2];
} KvNnueSnapshot;
void kv_nnue_snapshot(const KvState *s, KvNnueSnapshot *out);
void kv_nnue_delta(const KvConfig *c, const KvNnueSnapshot *before, const KvNnueSnapshot *after,
                   int perspective, uint16_t *add, int *n_add, uint16_t *sub, int *n_sub);

/* kv_fast.c: perft and playouts without the interface's indirections. */
bool kv_perft_leaves(const KvConfig *c, KvState *s, int depth, uint64_t *count);
void kv_playout(const KvConfig *c, KvState *s, Rng *rng);
/* A legal move of s (still playing) drawn uniformly from kv_gen_legal's list, testing the
 * trap rule only on the candidates drawn; `moves` is scratch of KV_MAX_CELLS * KV_DIRS. */
Move kv_random_legal(const KvConfig *c, const KvState *s, Rng *rng, KvReachCache *cache,
                     Move *moves);

#endif
