/*
 * kd_internal.h - what the King Down files share: the board geometry, the state, the
 * action encoding and the attack primitives.
 *
 * Squares are numbered rank-major from a1 = 0 (index = rank * 8 + file); player 0
 * ("White") starts on ranks 1-2 and moves first. A position is a bitboard per piece type
 * (both colours), one per colour, and a mailbox. Everything a turn in progress needs (a
 * beast in the middle of a capture chain, a power declared before the move) lives in
 * the position too, so a position is always a complete description of what may happen
 * next.
 *
 * A turn is usually one action. It is several when a beast goes on capturing (every
 * capture is an action; the last one of the turn says so), when a token power is
 * declared before the move (Freeze, Ice Wall, Haste), or while the armies are chosen.
 * The position keeps the hashes of the positions at the start of every turn since the
 * last capture or pawn move, so that threefold repetition is a rule of the game.
 */
#ifndef CROWN_GAMES_KD_INTERNAL_H
#define CROWN_GAMES_KD_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/bits.h"
#include "core/game.h"
#include "core/rep_history.h"
#include "core/rng.h"
#include "core/status.h"
#include "core/strbuf.h"

enum {
    KD_NO_SQ = 64,
    KD_MAX_PLIES_LIMIT = 20000,
    KD_FIFTY_RING = 128,      /* history ring when the 50-move rule bounds repetitions */
    KD_TURN_ACTIONS = 40,     /* no turn has more actions than this */
    KD_MAX_MOVES = MOVELIST_CAP,
    KD_MAX_CHAIN = 32,        /* "unlimited" beast chains: more than there are pieces */
};

typedef enum KdType {
    KD_EMPTY,
    KD_PAWN,
    KD_KNIGHT,
    KD_BISHOP,
    KD_ROOK,
    KD_QUEEN,
    KD_KING,
    KD_ARCHER,
    KD_PALADIN,
    KD_GUARD,
    KD_MAESTER,
    KD_BEAST,
    KD_TYPES,
} KdType;

/* The six kings of the armies and their powers (R-KD-1; the powers table is in the doc). */
typedef enum KdArmy {
    KD_ARMY_NONE,
    KD_FROST,
    KD_FLAME,
    KD_STRATUS,
    KD_MUD,
    KD_SPIRIT,
    KD_SHADOW,
    KD_ARMIES,
} KdArmy;

typedef enum KdPower {
    KD_POW_NONE,
    KD_FREEZE,
    KD_ICE_WALL,
    KD_STRIKE,
    KD_HASTE,
    KD_FLIGHT,
    KD_SACRIFICE,
    KD_MARCH,
    KD_LEAP,
    KD_HOLY_LIGHT,
    KD_MERCY,
    KD_DEATH_TOUCH,
    KD_DARKNESS,
    KD_POWERS,
} KdPower;

typedef struct KdArmyInfo {
    const char *name;
    uint8_t powers[2];
} KdArmyInfo;

typedef struct KdPowerInfo {
    const char *name;
    uint8_t tokens; /* 0: always in effect */
} KdPowerInfo;

extern const KdArmyInfo kd_army_info[KD_ARMIES];
extern const KdPowerInfo kd_power_info[KD_POWERS];

/* Where the game stands before the play proper: the armies being chosen. */
typedef enum KdPhase {
    KD_PHASE_PLAY,
    KD_PHASE_PICK_KING,  /* the player to move picks his king */
    KD_PHASE_PICK_POWER, /* the player to move picks one of his king's two powers */
} KdPhase;

/* What the turn in progress still needs (besides a pending beast chain). */
typedef enum KdStage {
    KD_STAGE_START,    /* the turn begins: a move, or a power */
    KD_STAGE_DECLARED, /* Freeze or Ice Wall declared: the move follows */
    KD_STAGE_HASTE1,   /* Haste declared: the first of two moves of one piece */
    KD_STAGE_HASTE2,   /* the second move, by the piece on haste_sq */
} KdStage;

typedef enum KdResult { KD_PLAYING, KD_WIN_FIRST, KD_WIN_SECOND, KD_DRAW } KdResult;

typedef enum KdReason {
    KD_REASON_NONE,
    KD_REASON_MATE,
    KD_REASON_LITERAL_MATE,
    KD_REASON_STALEMATE,
    KD_REASON_REPETITION,
    KD_REASON_FIFTY,
    KD_REASON_BARE_KINGS,
    KD_REASON_PLY_LIMIT,
} KdReason;

/* Action kinds (bits 12-15 of a Move). */
typedef enum KdKind {
    KD_MV_NORMAL,    /* a piece goes from -> to, capturing what stands there */
    KD_MV_EP,        /* en passant */
    KD_MV_CASTLE,    /* from = king, to = the castling rook */
    KD_MV_SHOT,      /* capture without moving: archer, Death Touch king */
    KD_MV_SWAP,      /* maester from <-> friend on to */
    KD_MV_PICK,      /* army choice: to = king (1..6) or power index (0, 1) */
    KD_MV_FREEZE,    /* to = enemy piece */
    KD_MV_ICE_WALL,  /* to = own piece */
    KD_MV_STRIKE,    /* a piece moves as a queen */
    KD_MV_HASTE,     /* declaration: one piece moves twice */
    KD_MV_FLIGHT,    /* a piece flies to an empty square of its own half */
    KD_MV_SACRIFICE, /* from = own pawn, promo = the captured type it becomes */
    KD_MV_MARCH,     /* a pawn two squares straight forward */
    KD_MV_LEAP,      /* a slider passing over friendly pawns */
    KD_KINDS,
} KdKind;

/* Move: from | to << 6 | kind << 12 | promo << 16 | more << 20. `more` marks a beast
 * capture after which the same beast captures again this turn. Promo 0 on a pawn
 * reaching the last rank means the promotion was declined. A normal move from a1 to a1
 * does not exist, so no action is 0 (MOVE_NONE). */
static inline Move kd_move(int from, int to, int kind, int promo, int more)
{
    return (Move)(from | to << 6 | kind << 12 | promo << 16 | more << 20);
}
static inline int kd_from(Move m)
{
    return (int)(m & 63);
}
static inline int kd_to(Move m)
{
    return (int)((m >> 6) & 63);
}
static inline int kd_kind(Move m)
{
    return (int)((m >> 12) & 15);
}
static inline int kd_promo(Move m)
{
    return (int)((m >> 16) & 15);
}
static inline int kd_more(Move m)
{
    return (int)((m >> 20) & 1);
}

typedef enum KdSetupKind { KD_SETUP_RANDOM, KD_SETUP_FIXED } KdSetupKind;

/* Read-only data of one configured game. */
typedef struct KdConfig {
    /* rules */
    bool castling, en_passant, promo_decline, mate_literal;
    bool repetition, fifty, bare_kings, armies, san, king_file_e;
    bool haste_each;     /* haste-check=each: Haste's first move may not give check */
    bool tokens_any;     /* tokens-per-turn=any: Freeze / Ice Wall again before the move */
    bool displaced_double; /* displaced-pawn=unmoved: a pawn put on its 2nd rank steps two */
    bool march_ep;         /* march-en-passant=on: a March gives an en-passant chance */
    bool castle_all_rooks; /* castling-rooks=all: every rook of the drawn rank may castle */
    int first_picker;      /* army-order: the player who chooses first (king, then power) */
    uint16_t promo_mask; /* bit t: a pawn may become type t */
    int chain_limit;     /* captures a beast may make in one turn */
    int max_plies;
    int hist_cap;        /* entries of the position history ring (> longest scan) */
    KdSetupKind setup;
    uint8_t setup_rank[8]; /* the fixed back rank (types), when setup is fixed */
    /* geometry */
    uint64_t knight[64], king[64], wazir[64], ferz[64], archer[64];
    uint64_t pawn_att[2][64]; /* squares a pawn of colour c on sq captures diagonally */
    uint64_t fwd[2][64];      /* the square straight ahead for colour c, or 0 */
    uint64_t ray[8][64];      /* squares beyond sq in direction d */
    uint64_t between[64][64]; /* squares strictly between two aligned squares */
    uint64_t line[64][64];    /* the whole line through two aligned squares, else 0 */
    /* hashing */
    uint64_t z_piece[2][KD_TYPES][64];
    uint64_t z_side, z_castle[64], z_ep[64], z_moved[64], z_chain[64], z_chain_n[KD_MAX_CHAIN + 1];
    uint64_t z_stage[4], z_haste[64], z_token_used, z_frozen[64], z_iced[64];
    uint64_t z_phase[3], z_army[2][KD_ARMIES], z_power[2][KD_POWERS], z_tokens[2][8];
    uint64_t z_captured[2][KD_TYPES][16];
    ObsSchema obs; /* what kd_observe fills */
} KdConfig;

/* Everything about a position but its history: copied whole by copy-make. */
typedef struct KdPos {
    uint64_t bb[KD_TYPES]; /* bb[KD_EMPTY]: every piece */
    uint64_t side[2];
    uint64_t castle; /* squares of the rooks that keep a castling right */
    uint64_t moved;  /* pawns on their own second rank that may not step twice */
    uint64_t frozen; /* the pieces that may not move this turn */
    uint64_t iced;   /* the pieces that may not be captured this turn */
    uint64_t hash;
    uint8_t board[64]; /* KD_EMPTY, or type | colour << 4 */
    uint8_t king[2];
    uint8_t turn;
    uint8_t ep; /* en-passant target square, or KD_NO_SQ */
    uint16_t halfmove;
    uint16_t fullmove;
    /* the turn in progress */
    uint8_t chain_sq; /* the beast that may capture again, or KD_NO_SQ */
    uint8_t chain_n;  /* captures that beast made this turn */
    uint8_t stage;    /* KdStage */
    uint8_t haste_sq; /* KD_STAGE_HASTE2: the piece that moves again */
    uint8_t token_used;
    uint8_t irrev;    /* this turn already captured or moved a pawn (50-move count) */
    /* armies */
    uint8_t phase; /* KdPhase */
    uint8_t army[2];
    uint8_t power[2];
    uint8_t tokens[2];
    uint8_t pad[4];
    uint8_t captured[2][KD_TYPES]; /* pieces of each colour captured so far */
} KdPos;

/* The game state: the position, its result, and the history of turn-start hashes. */
typedef struct KdState {
    KdPos pos;
    uint8_t result; /* KdResult */
    uint8_t reason; /* KdReason */
    RepHistory hist;  /* the hashes at the turn starts met since set-up: a ring */
    uint8_t start_rank[8]; /* the back rank the game was set up with (0s: unknown) */
    uint64_t history[]; /* hist's hist_cap entries (see core/rep_history.h) */
} KdState;

typedef struct KdUndo {
    KdPos pos;
    uint64_t hist_old; /* the ring entry the turn start's push overwrote */
    uint8_t result, reason;
} KdUndo;

static inline const KdConfig *kd_cfg(const Game *g)
{
    return (const KdConfig *)g->config;
}

static inline int kd_type_at(const KdPos *p, int sq)
{
    return p->board[sq] & 15;
}
static inline int kd_colour_at(const KdPos *p, int sq)
{
    return p->board[sq] >> 4;
}
static inline uint64_t kd_pieces(const KdPos *p, int colour, int type)
{
    return p->bb[type] & p->side[colour];
}
static inline uint64_t kd_bit(int sq)
{
    return 1ULL << sq;
}
static inline int kd_file(int sq)
{
    return sq & 7;
}
static inline int kd_rank(int sq)
{
    return sq >> 3;
}
/* Rank r as seen by colour c (0 = its first rank). */
static inline int kd_rel_rank(int c, int sq)
{
    return c == 0 ? sq >> 3 : 7 - (sq >> 3);
}
static inline uint64_t kd_rank_bb(int r)
{
    return 0xFFULL << (8 * r);
}
/* Turns played since the game began, counted from the move number. */
static inline uint32_t kd_plies(const KdPos *p)
{
    return 2u * (uint32_t)(p->fullmove - 1) + p->turn;
}
static inline bool kd_power_is(const KdPos *p, int colour, int power)
{
    return p->power[colour] == power;
}

/* Sliding attacks by rays and the first blocker (kd_geometry.c builds the rays). */
static inline uint64_t kd_ray_att(const KdConfig *c, int d, int sq, uint64_t occ)
{
    uint64_t r = c->ray[d][sq];
    const uint64_t b = r & occ;
    if (b) {
        // Directions 0-3 (N, NE, E, NW) run to higher squares: their first blocker is
        // the lowest bit.
        const int f = d < 4 ? bits_lowest(b) : bits_highest(b);
        r ^= c->ray[d][f];
    }
    return r;
}
static inline uint64_t kd_rook_att(const KdConfig *c, int sq, uint64_t occ)
{
    return kd_ray_att(c, 0, sq, occ) | kd_ray_att(c, 2, sq, occ) | kd_ray_att(c, 4, sq, occ) |
           kd_ray_att(c, 6, sq, occ);
}
static inline uint64_t kd_bishop_att(const KdConfig *c, int sq, uint64_t occ)
{
    return kd_ray_att(c, 1, sq, occ) | kd_ray_att(c, 3, sq, occ) | kd_ray_att(c, 5, sq, occ) |
           kd_ray_att(c, 7, sq, occ);
}

/* kd_geometry.c */
void kd_build_geometry(KdConfig *c);
extern const int kd_dir_delta[8]; /* N NE E NW S SW W SE, in that order */

/* kd_armies.c: who chooses next while the armies are chosen. */
int kd_picker(const KdConfig *c, const KdPos *p);
/* The phase the choices made so far lead to (in either order of choosing). */
int kd_choice_phase(const KdPos *p);
/* Who acts next: the player to move, the one choosing, or PLAYER_NONE at the end. */
static inline int kd_to_move(const KdConfig *c, const KdState *s)
{
    if (s->result != KD_PLAYING)
        return PLAYER_NONE;
    return s->pos.phase != KD_PHASE_PLAY ? kd_picker(c, &s->pos) : s->pos.turn;
}

/* kd_attack.c */
/* Pieces of `by` that could capture a king of the other colour standing on sq, with
 * occupancy occ (tokens never count: check is about normal powers). */
uint64_t kd_attackers(const KdConfig *c, const KdPos *p, int sq, int by, uint64_t occ);
bool kd_in_check(const KdConfig *c, const KdPos *p, int colour);

/* kd_apply.c: the effect of actions. */
/* A turn begins here: the play is on and no turn is half done. */
static inline bool kd_turn_start(const KdPos *p)
{
    return p->phase == KD_PHASE_PLAY && p->stage == KD_STAGE_START && p->chain_sq == KD_NO_SQ;
}
/* The actions that spend a token of the mover's power. */
static inline bool kd_is_token_kind(int kind)
{
    return kind >= KD_MV_FREEZE && kind <= KD_MV_LEAP;
}
uint64_t kd_compute_hash(const KdConfig *c, const KdPos *p);
/* Plays an action on the position alone (no history, no result). */
void kd_apply(const KdConfig *c, KdPos *p, Move m);
/* A piece placed or removed, keeping bitboards, mailbox and hash in step. */
void kd_put(const KdConfig *c, KdPos *p, int sq, int colour, int type);
void kd_remove(const KdConfig *c, KdPos *p, int sq);
/* Sets the en-passant square after a double step only if a capture could follow. */
bool kd_ep_possible(const KdConfig *c, const KdPos *p, int ep);

/* kd_movegen.c: generation and legality. */
/* The legal actions (empty when the side to move has none; the game's end by draws is
 * not looked at here). Returns the count. */
int kd_gen_legal(const KdConfig *c, const KdPos *p, Move *out);
bool kd_has_legal(const KdConfig *c, const KdPos *p);
/* The legal actions that capture (en passant and shots included; no powers, no swaps). */
int kd_gen_captures(const KdConfig *c, const KdPos *p, Move *out);
/* Every action the rules of the current stage offer, legal or not; and, for one of them
 * that is not legal, why (for error messages). */
int kd_gen_pseudo(const KdConfig *c, const KdPos *p, Move *out);
const char *kd_illegal_reason(const KdConfig *c, const KdPos *p, Move m);
bool kd_literal_mate(const KdConfig *c, const KdPos *p);

/* kd_state.c: the game state over positions: history, results, make/unmake. */
void kd_state_init(const KdConfig *c, KdState *s, const KdPos *p);
void kd_settle(const KdConfig *c, KdState *s);
void kd_make(const KdConfig *c, KdState *s, Move m, KdUndo *u);
void kd_unmake(const KdConfig *c, KdState *s, Move m, const KdUndo *u);
/* A pass for the search's null-move test: false, s unchanged, when a pass would say
 * nothing sound (a turn in progress, a power in effect, only king and pawns left). */
bool kd_make_null(const KdConfig *c, KdState *s, KdUndo *u);
void kd_unmake_null(KdState *s, const KdUndo *u);
int kd_repetitions(const KdState *s);
/* The draw rules that end a game at the start of a turn even with moves left. */
int kd_draw_reason(const KdConfig *c, const KdPos *p, bool repeated);
/* Whether `colour` can still win: with the bare-kings rule on, a lone king cannot. */
bool kd_can_win(const KdConfig *c, const KdPos *p, int colour);

/* kd_setup.c: back ranks and their ids. */
void kd_draw_back_rank(const KdConfig *c, uint64_t seed, uint8_t rank[8]);
uint64_t kd_setup_id(const uint8_t rank[8]);
bool kd_setup_from_id(uint64_t id, uint8_t rank[8]);
uint64_t kd_setup_count(void);
/* Reads "classic", "random", an id, or eight piece letters. */
Status kd_parse_setup(const char *text, KdSetupKind *kind, uint8_t rank[8], ErrBuf *err);
void kd_start_position(const KdConfig *c, KdPos *p, const uint8_t rank[8]);

/* kd_notation.c */
extern const char kd_letters[KD_TYPES]; /* upper-case letters, ' ' for empty */
int kd_type_of_letter(char ch);
Status kd_parse_fen(const KdConfig *c, KdPos *out, const char *text, ErrBuf *err);
void kd_format_fen(const KdConfig *c, const KdPos *p, StrBuf *out);
void kd_format_square(int sq, StrBuf *out);
void kd_format_long(const KdConfig *c, const KdPos *p, Move m, StrBuf *out);
void kd_format_san(const KdConfig *c, const KdPos *p, Move m, StrBuf *out);
Status kd_parse_move(const KdConfig *c, const KdPos *p, const char *text, Move *out, ErrBuf *err);
Status kd_parse_actions(const KdConfig *c, const KdPos *p, const char *text, Move *out,
                        int cap, int *count, ErrBuf *err);
void kd_render(const KdConfig *c, const KdState *s, unsigned flags, StrBuf *out);

/* kd_observe.c */
void kd_obs_schema(KdConfig *c);
void kd_observe(const KdConfig *c, const KdState *s, int observer, Observation *o);

/* kd_eval.c */
int kd_evaluate(const KdConfig *c, const KdPos *p);
/* kd_evaluate's static part, captures unresolved (GameOps.evaluate_static). */
int kd_evaluate_static(const KdConfig *c, const KdPos *p);
/* The evaluation's weights by name (kd_weights.h): KD_W_tempo and so on. */
enum KdWeight {
#define WEIGHT(name, value) KD_W_##name,
#include "games/kingdown/kd_weights.h"
#undef WEIGHT
    KD_WEIGHT_COUNT
};
/* kd_evaluate with other weights (GameOps.evaluate_weighted): KD_WEIGHT_COUNT of them, in
 * the order of kd_weight_names; kd_weight_defaults are kd_evaluate's. */
int kd_evaluate_weighted(const KdConfig *c, const KdPos *p, const int *weights);
extern const char *const kd_weight_names[KD_WEIGHT_COUNT];
extern const int kd_weight_defaults[KD_WEIGHT_COUNT];
/* The search's order of a capture or promotion (GameOps.noisy); 0 for a quiet action. */
int kd_noisy(const KdPos *p, Move m);
/* The material of one side in centipawns (the king not counted). */
int kd_material(const KdPos *p, int colour);

/* kd_features.c: an evaluation network's inputs (GameOps.nnue_features): a piece of
 * each side (0: the perspective's own) and type on each square as that side sees it,
 * then each side's power. */
enum {
    KD_NNUE_POWER_BASE = 2 * (KD_TYPES - 1) * 64,
    KD_NNUE_FEATURES = KD_NNUE_POWER_BASE + 2 * (KD_POWERS - 1),
};
#define KD_NNUE_PIECE_BASE(rel, t) (((rel) * (KD_TYPES - 1) + (t) - 1) * 64)
int kd_nnue_features(const KdPos *p, int perspective, uint16_t *out, int cap);
/* What the features depend on (GameOps.nnue_snapshot): each side's pieces by type and
 * its power; and the features one snapshot has and the other has not (nnue_delta). */
typedef struct KdNnueSnapshot {
    uint64_t pieces[2][KD_TYPES];
    uint8_t power[2];
} KdNnueSnapshot;
void kd_nnue_snapshot(const KdPos *p, KdNnueSnapshot *out);
void kd_nnue_delta(const KdNnueSnapshot *before, const KdNnueSnapshot *after, int perspective,
                   uint16_t *add, int *n_add, uint16_t *sub, int *n_sub);

/* kd_fast.c */
bool kd_perft_leaves(const KdConfig *c, KdState *s, int depth, uint64_t *count);

/* kd_measure.c: the figures crown lab reports (GameOps.measure). */
enum { KD_METRIC_COUNT = 8 };
extern const GameMetric kd_metrics[KD_METRIC_COUNT];
void kd_setup_family(const Game *g, const GameState *s, StrBuf *out);
void kd_measure(const Game *g, const GameState *before, Move m, const GameState *after,
                double out[][MAX_PLAYERS]);

#endif
