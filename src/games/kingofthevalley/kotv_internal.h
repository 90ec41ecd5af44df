/*
 * kotv_internal.h - what the King of the Valley files share: the component table, the
 * state, the action encoding and the rule primitives.
 *
 * Components are data (KotvConfig): every distinct tile ("kind": a character with its
 * knight order or tax requirement and gold) gets an index, and the table says how many
 * tiles of each kind lie in each of the three piles. A state counts tiles by kind
 * wherever their order does not matter (piles, castles) and places them where it does
 * (the 5x5 valley, the two hill columns). The piles are counts only: their order is
 * hidden from everybody and is not part of the state at all. Drawing a tile is an
 * action of PLAYER_CHANCE whose outcomes are the kinds left in the pile in use, each
 * with probability count / total, so every player sees the same state and a game
 * replays exactly from its start and its actions.
 *
 * A turn is a sequence of actions by the same player (recruit or pass, one or more
 * summon legs, jester columns, wizard swaps, tax columns, kingdom bonus or pass, the
 * hill column to refill from), then chance draws the hill refill. Steps without a
 * choice are played inside make (kotv_settle): a phase with nothing to do is skipped,
 * a decision with exactly one option is taken, a draw with one possible tile is drawn.
 */
#ifndef CROWN_GAMES_KOTV_INTERNAL_H
#define CROWN_GAMES_KOTV_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/game.h"
#include "core/rng.h"
#include "core/status.h"
#include "core/strbuf.h"

enum {
    KOTV_SIZE = 5,
    KOTV_CELLS = 25,
    KOTV_DIRS = 8,
    KOTV_RAY = 4, /* the longest straight line from a square, not counting it */
    KOTV_HILL_COLS = 2,
    KOTV_HILL_ROWS = 6,
    KOTV_STAGES = 3,
    KOTV_MAX_KINDS = 32,
    KOTV_COLUMNS = 6, /* castle portraits: queen, duke, countess, knight, farmer, wife */
    KOTV_ORDERS = 4,  /* knight orders A-D */
    KOTV_MAX_HOLES = 8,
    KOTV_MAX_PEND_TAX = 3,
    KOTV_MAX_PER_KIND = 60,   /* tiles of one kind in a table */
    KOTV_MAX_TILES = 1500,    /* tiles in a table */
    KOTV_NO_SQUARE = 255,
    KOTV_MAX_ROUNDS_LIMIT = 500,
    KOTV_ACTIONS_PER_TURN = 48, /* generous bound of the actions of one turn, draws included */
    KOTV_MAX_MOVES = MOVELIST_CAP, /* most actions one decision can offer */
    KOTV_KINGDOM_GOLD = 5,
    KOTV_KINGDOM_POINTS = 5,
    KOTV_START_GOLD = 2,
};

/* Characters. The six subject portraits come first so that a subject's character is
 * also its castle column. */
typedef enum KotvChar {
    KCH_QUEEN,
    KCH_DUKE,
    KCH_COUNTESS,
    KCH_KNIGHT,
    KCH_FARMER,
    KCH_WIFE,
    KCH_JESTER,
    KCH_PRIEST,
    KCH_WIZARD,
    KCH_TAX,
    KCH_COUNT
} KotvChar;

static inline bool kotv_char_is_subject(int ch)
{
    return ch <= KCH_JESTER;
}

typedef enum KotvPhase {
    KPH_PLACE,   /* set-up: kings are placed in turn */
    KPH_RECRUIT, /* phase 1 */
    KPH_SUMMON,  /* phase 2: legs of the king's move */
    KPH_KINGDOM, /* phase 3 */
    KPH_REFILL,  /* phase 4: the hill column that replenishes the valley */
    KPH_DRAW,    /* phase 4: chance refills the hill */
    KPH_OVER,
    KPH_COUNT
} KotvPhase;

/* Rule options that are not component data. */
typedef enum KotvRefill { KOTV_REFILL_I_II_III, KOTV_REFILL_I_III } KotvRefill;

typedef struct KotvKind {
    uint8_t ch;      /* KotvChar */
    uint8_t order;   /* knights: 0..3 (A..D) */
    uint8_t req;     /* tax collectors: identical subjects needed (0 = none) */
    uint8_t gold;    /* tax collectors: gold paid */
    int8_t influence;
    char code[8];    /* "Q", "NA", "T3:5" ... */
} KotvKind;

/* Read-only data of one configured game. */
typedef struct KotvConfig {
    int players;
    int nkinds;
    KotvKind kind[KOTV_MAX_KINDS];
    uint8_t stage_count[KOTV_STAGES][KOTV_MAX_KINDS]; /* tiles of each kind in each pile */
    int kind_total[KOTV_MAX_KINDS];
    int prices[KOTV_HILL_ROWS];   /* recruiting price of hill row 1 (bottom) to 6 */
    int crown_supply, tax_supply; /* kingdom and tax tokens */
    int influence[KCH_COUNT];     /* per character (subjects) */
    int jester_kind;              /* kind index of the jester, or -1 */
    int char_kind[KCH_COUNT];     /* kind of a single-kind character, -1 otherwise */
    int knight_kind[KOTV_ORDERS]; /* kind of each knight order, -1 if absent */
    int col_nkinds[KOTV_COLUMNS];               /* real subject kinds of each castle column */
    int8_t col_kind[KOTV_COLUMNS][KOTV_ORDERS];
    int8_t kind_col[KOTV_MAX_KINDS]; /* castle column of a real subject kind, else -1 */
    /* options */
    bool limited_tokens;
    bool short_column_ok;
    bool jester_couples;
    bool old_holes_first;  /* old-holes=first: older empty squares refilled before this turn's */
    bool priest_pay_first; /* priest-coins=after: pay from one's own gold, then take his coins */
    bool identical_tiles;  /* identical=tile: tiles taken in passing are one kind, not one character */
    KotvRefill refill;
    int max_rounds;
    /* geometry */
    int8_t ray[KOTV_DIRS][KOTV_CELLS][KOTV_RAY]; /* squares beyond sq, nearest first */
    int8_t ray_len[KOTV_DIRS][KOTV_CELLS];
    char tiles_name[OPTION_VALUE_LEN];
    ObsSchema obs; /* what kotv_observe fills */
} KotvConfig;

typedef struct KotvPlayer {
    uint16_t gold;
    uint8_t king;   /* square, or KOTV_NO_SQUARE before placement */
    uint8_t taxed;  /* bit c: a tax token lies on castle column c */
    uint8_t crowns; /* kingdom tokens */
    uint8_t jup[KOTV_COLUMNS];   /* jesters face up in each column */
    uint8_t jdown[KOTV_COLUMNS]; /* and face down */
    uint8_t pad[1];
    uint8_t up[KOTV_MAX_KINDS];   /* real subjects face up, by kind (jesters not here) */
    uint8_t down[KOTV_MAX_KINDS]; /* and face down */
} KotvPlayer;

_Static_assert(sizeof(KotvPlayer) == 2 + 3 + 12 + 1 + 2 * KOTV_MAX_KINDS, "no padding");

typedef struct KotvState {
    uint64_t hash;
    uint16_t turns; /* turns completed since the kings were placed */
    uint8_t players;
    uint8_t first;  /* the starting player */
    uint8_t turn;   /* the player whose turn it is */
    uint8_t phase;  /* KotvPhase */
    uint8_t end_triggered;
    uint8_t nholes;
    uint8_t holes[KOTV_MAX_HOLES]; /* squares emptied this turn, in path order */
    uint8_t pend_jester;  /* jesters waiting for a column */
    uint8_t pend_wizard;  /* wizard swaps still to make */
    uint8_t npend_tax;
    uint8_t pend_tax[KOTV_MAX_PEND_TAX]; /* tax collector kinds waiting for a column */
    uint8_t hill_n[KOTV_HILL_COLS];
    uint8_t valley[KOTV_CELLS]; /* kind + 1; 0 = empty square */
    uint8_t coins[KOTV_CELLS];  /* priests' coins lying on a square */
    uint8_t hill[KOTV_HILL_COLS][KOTV_HILL_ROWS]; /* kind + 1, bottom row first */
    uint8_t pad[10];
    uint8_t pile[KOTV_STAGES][KOTV_MAX_KINDS];
    KotvPlayer pl[MAX_PLAYERS];
} KotvState;

_Static_assert(sizeof(KotvState) % 8 == 0, "state is whole words");
_Static_assert(sizeof(KotvState) ==
                   8 + 2 + 6 + KOTV_MAX_HOLES + 3 + KOTV_MAX_PEND_TAX + 2 + 2 * KOTV_CELLS +
                       KOTV_HILL_COLS * KOTV_HILL_ROWS + 10 + KOTV_STAGES * KOTV_MAX_KINDS +
                       MAX_PLAYERS * sizeof(KotvPlayer),
               "no padding");

/* Actions. The type sits in bits 0-3 (never 0, so no action is MOVE_NONE). */
typedef enum KotvMoveType {
    KMV_PLACE = 1, /* sq */
    KMV_PASS,      /* no recruit / no kingdom bonus */
    KMV_RECRUIT,   /* hill column, row */
    KMV_LEG,       /* from, dir, dist, mask */
    KMV_JESTER,    /* column */
    KMV_SWAP,      /* castle code, hill column, row */
    KMV_TAX,       /* column */
    KMV_KINGDOM,   /* the column of the one-influence subject (farmer or wife) */
    KMV_REFILL,    /* hill column */
    KMV_DRAW,      /* kind */
} KotvMoveType;

/* A summon leg: straight from `from` in direction `dir`. mask == 0: the king stops
 * `dist` squares away and takes that tile (or pays the priest there). mask != 0: bit i
 * takes the tile i + 1 squares away, and the king stops `dist` squares away, just
 * beyond the last tile taken. */
static inline Move kotv_leg(int from, int dir, int dist, int mask)
{
    return (Move)(KMV_LEG | (from << 4) | (dir << 9) | (dist << 12) | (mask << 15));
}
static inline Move kotv_simple(int type, int a)
{
    return (Move)(type | (a << 4));
}
/* Castle codes of a swap: a real subject kind k is k; a jester in column c is
 * KOTV_MAX_KINDS + c. */
static inline Move kotv_swap(int code, int hcol, int row)
{
    return (Move)(KMV_SWAP | (code << 4) | (hcol << 10) | (row << 11));
}
static inline Move kotv_recruit(int hcol, int row)
{
    return (Move)(KMV_RECRUIT | (hcol << 4) | (row << 5));
}
/* Which face-up tiles a tax collector or a kingdom bonus turns face down is the player's
 * choice (R-KOTV-13), so the action carries it. A castle column's "slots" are
 * its real subject kinds in the table's order (col_kind) and then its jesters. */
enum { KOTV_SLOT_JESTER = KOTV_ORDERS, KOTV_SLOTS = KOTV_ORDERS + 1, KOTV_KINGDOM_COLS = 5 };
/* tax: the column, and how many tiles of each slot go face down (4 bits a slot). */
static inline Move kotv_tax(int col, const int count[KOTV_SLOTS])
{
    Move m = (Move)(KMV_TAX | (col << 4));
    for (int i = 0; i < KOTV_SLOTS; i++)
        m |= (Move)count[i] << (10 + 4 * i);
    return m;
}
static inline int kotv_tax_count(Move m, int slot)
{
    return (int)((m >> (10 + 4 * slot)) & 15);
}
/* kingdom: the farmer-or-wife column, and the slot turned face down in each of the
 * queens', dukes', countesses', knights' and that column (3 bits each). */
static inline Move kotv_kingdom(int col, const int slot[KOTV_KINGDOM_COLS])
{
    Move m = (Move)(KMV_KINGDOM | (col << 4));
    for (int i = 0; i < KOTV_KINGDOM_COLS; i++)
        m |= (Move)slot[i] << (10 + 3 * i);
    return m;
}
static inline int kotv_kingdom_slot(Move m, int i)
{
    return (int)((m >> (10 + 3 * i)) & 7);
}
/* The castle column of entry i of a kingdom bonus (its last entry is the farmer or wife
 * column the action names). */
static inline int kotv_kingdom_col(Move m, int i)
{
    return i < KOTV_KINGDOM_COLS - 1 ? i : (int)((m >> 4) & 63);
}

static inline int kotv_mtype(Move m)
{
    return (int)(m & 15);
}
static inline int kotv_marg(Move m) /* the payload of PLACE, JESTER, TAX, KINGDOM, REFILL, DRAW */
{
    return (int)((m >> 4) & 63);
}
static inline int kotv_leg_from(Move m)
{
    return (int)((m >> 4) & 31);
}
static inline int kotv_leg_dir(Move m)
{
    return (int)((m >> 9) & 7);
}
static inline int kotv_leg_dist(Move m)
{
    return (int)((m >> 12) & 7);
}
static inline int kotv_leg_mask(Move m)
{
    return (int)((m >> 15) & 15);
}
static inline int kotv_swap_code(Move m)
{
    return (int)((m >> 4) & 63);
}
static inline int kotv_swap_hcol(Move m)
{
    return (int)((m >> 10) & 1);
}
static inline int kotv_swap_row(Move m)
{
    return (int)((m >> 11) & 7);
}
static inline int kotv_recruit_hcol(Move m)
{
    return (int)((m >> 4) & 1);
}
static inline int kotv_recruit_row(Move m)
{
    return (int)((m >> 5) & 7);
}

static inline const KotvConfig *kotv_cfg(const Game *g)
{
    return (const KotvConfig *)g->config;
}

/* The kind on a valley square or hill slot (stored as kind + 1); -1 when empty. */
static inline int kotv_kind_at(uint8_t v)
{
    return (int)v - 1;
}

/* kotv_tiles.c: the component table. */
Status kotv_tiles_default(KotvConfig *c, ErrBuf *err);
Status kotv_tiles_load(KotvConfig *c, const char *path, ErrBuf *err);
Status kotv_tiles_parse(KotvConfig *c, const char *text, ErrBuf *err);
int kotv_find_kind(const KotvConfig *c, const char *code, size_t len);
void kotv_build_geometry(KotvConfig *c);

/* kotv_rules.c */
void kotv_new_game(const KotvConfig *c, KotvState *s, uint64_t seed);
uint64_t kotv_compute_hash(const KotvState *s);
int kotv_to_move(const KotvState *s);
int kotv_gen(const KotvConfig *c, const KotvState *s, Move *out);
int kotv_chance(const KotvConfig *c, const KotvState *s, Move *out, double *prob);
void kotv_apply(const KotvConfig *c, KotvState *s, Move m);
/* Plays every step without a choice; fills `list` (when not NULL) with the options of the
 * decision it stops at, and returns their count (0 at a chance node or the end). */
int kotv_settle(const KotvConfig *c, KotvState *s, Move *list);
void kotv_make(const KotvConfig *c, KotvState *s, Move m);
int kotv_face_up(const KotvPlayer *p, int col, const KotvConfig *c);
/* Whether two kinds count as identical for taking tiles in passing: the same character
 * (knights of any order, any tax collectors), or with identical=tile the same kind. */
bool kotv_alike(const KotvConfig *c, int k1, int k2);
/* Face-up tiles of one slot of a castle column. */
int kotv_slot_up(const KotvConfig *c, const KotvPlayer *p, int col, int slot);
/* Whether the face-up tiles of a column differ (several slots hold some), so that which
 * of them go face down is a choice the action text states. */
bool kotv_column_mixed(const KotvConfig *c, const KotvPlayer *p, int col);
/* What keeping one face-up tile of a slot is worth to its owner, for choosing which
 * tiles to turn face down: jesters most (a wizard may swap them for anything), then
 * knights of the orders he holds fewest of. A tie-break, between 0 and 1. */
double kotv_keep_worth(const KotvConfig *c, const KotvPlayer *p, int col, int slot);
/* The worth (as above) of the face-up tiles a tax or kingdom action turns down. */
double kotv_turned_worth(const KotvConfig *c, const KotvPlayer *p, Move m);
int kotv_castle_count(const KotvConfig *c, const KotvPlayer *p, int code, bool up);
int kotv_current_stage(const KotvConfig *c, const KotvState *s);
int kotv_crowns_taken(const KotvState *s);
int kotv_tax_taken(const KotvState *s);
/* Scoring: reputation (influence, kingdom tokens, orders, couples, gold) and influence. */
int kotv_reputation(const KotvConfig *c, const KotvState *s, int player);

/* kotv_measure.c: the figures crown lab reports (GameOps.measure). */
enum { KOTV_METRIC_COUNT = 15 }; /* five point sources, then one per character */
extern const GameMetric kotv_metrics[KOTV_METRIC_COUNT];
void kotv_measure(const Game *g, const GameState *before, Move m, const GameState *after,
                  double out[][MAX_PLAYERS]);
int kotv_influence(const KotvConfig *c, const KotvState *s, int player);
/* The reputation's parts from knight orders held (3, 4, 5+: 3, 5, 8) and couples. */
int kotv_order_bonus(const KotvConfig *c, const KotvState *s, int player);
int kotv_couple_bonus(const KotvConfig *c, const KotvState *s, int player);
/* The game's returns (by rank), or with `margin` the values guided search maximises:
 * 0.75 of the rank value plus 0.25 of the score's distance from the mean, scaled. */
void kotv_returns(const KotvConfig *c, const KotvState *s, bool margin, double out[MAX_PLAYERS]);
/* Checks the state against the table and the rules' invariants; false with a message.
 * `full` adds that the state is settled and its hash is right. */
bool kotv_check(const KotvConfig *c, const KotvState *s, bool full, ErrBuf *err);

/* kotv_names.c: squares, castle columns and codes, phases as words. */
extern const char *const kotv_phase_names[KPH_COUNT];
extern const char kotv_column_letters[KOTV_COLUMNS + 1]; /* "QDCNFW" */
void kotv_format_square(int sq, StrBuf *out);
/* Reads a square ("c3") at *p and moves *p past it; -1 if there is none. */
int kotv_read_square(const char **p);
/* The castle column of a letter of "QDCNFW" (either case); -1 if none. */
int kotv_column_of_letter(char ch);
/* A castle code: a real subject kind, or KOTV_MAX_KINDS + column for J<column>; -1. */
int kotv_read_castle_code(const KotvConfig *c, const char *w, size_t len);

/* kotv_action_text.c */
void kotv_format_move(const KotvConfig *c, const KotvState *s, Move m, StrBuf *out);
Status kotv_parse_move(const KotvConfig *c, const KotvState *s, const char *text, Move *out,
                       ErrBuf *err);
/* The decision the player to act faces, with the notation that answers it. */
const char *kotv_decision_name(const KotvState *s);

/* kotv_position_text.c */
void kotv_format_position(const KotvConfig *c, const KotvState *s, StrBuf *out);
Status kotv_parse_position(const KotvConfig *c, KotvState *s, const char *text, ErrBuf *err);
/* Appends "[n]code" items separated by ',' for counts by kind, or '-' when empty. */
void kotv_put_counted(const KotvConfig *c, const uint8_t *counts, StrBuf *out);

/* kotv_drawing.c */
void kotv_render(const KotvConfig *c, const KotvState *s, unsigned flags, StrBuf *out);

/* kotv_view.c */
void kotv_format_view(const KotvConfig *c, const KotvState *s, int observer, StrBuf *out);

/* kotv_observe.c: the position as structured data (core/observation.h). */
void kotv_obs_schema(KotvConfig *c);
void kotv_observe(const KotvConfig *c, const KotvState *s, int observer, Observation *o);

/* kotv_ai.c: random games to the end, uniform (the playout hook) or by the heuristic
 * policy (the guided_playout hook). */
void kotv_playout(const KotvConfig *c, KotvState *s, bool heuristic, Rng *rng);
Move kotv_heuristic_choice(const KotvConfig *c, const KotvState *s, const Move *moves, int n,
                           Rng *rng);

#endif
