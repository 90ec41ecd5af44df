/*
 * kd_observe.c - King Down positions as observations (core/observation.h): the 8x8
 * board with the eleven kinds of piece; as terrain marks, what the position says about
 * single squares (castling rooks, the en-passant square, pawns that may not step twice,
 * the frozen, protected, hasted and chaining pieces, and a king in check, which the
 * pages highlight without knowing the attack rules); as counters, the clocks, the
 * armies, powers and tokens, and how far the choices and the turn in progress have
 * come; and the pieces each side has lost, which Sacrifice may bring back.
 *
 * Armies and powers are counted by their index in kd_army_info and kd_power_info
 * (docs/API.md lists the names); 0 means not chosen yet, or armies off.
 */
#include "games/kingdown/kd_internal.h"

enum {
    TERRAIN_CASTLING,
    TERRAIN_EN_PASSANT,
    TERRAIN_MOVED,
    TERRAIN_FROZEN,
    TERRAIN_ICED,
    TERRAIN_HASTE,
    TERRAIN_CHAIN,
    TERRAIN_CHECK,
};
enum {
    COUNTER_TURN,
    COUNTER_HALFMOVE,
    COUNTER_FULLMOVE,
    COUNTER_PHASE,
    COUNTER_STAGE,
    COUNTER_CHAIN,
    COUNTER_ARMY,
    COUNTER_POWER,
    COUNTER_TOKENS,
};
enum { LIST_CAPTURED };

/* Captured pieces of one side: at most 15 in play, one more after a Sacrifice; a
 * position text may claim more, and the list then stops at the most a list holds. */
enum { CAPTURED_CAP = OBS_MAX_LIST_ITEMS };

void kd_obs_schema(KdConfig *c)
{
    c->obs = (ObsSchema){
        .players = 2,
        .max_stack = 1,
        .zone_count = 1,
        .zones = {{"board", OBS_SQUARE, 8, 8}},
        .kind_count = KD_TYPES - 1,
        .kinds = {"pawn", "knight", "bishop", "rook", "queen", "king", "archer", "paladin",
                  "guard", "maester", "beast"},
        .terrain_count = 8,
        .terrains = {"castling", "en-passant", "moved", "frozen", "iced", "haste", "chain", "check"},
        .counter_count = 9,
        .counters = {{"turn", false},
                     {"halfmove", false},
                     {"fullmove", false},
                     {"phase", false},
                     {"stage", false},
                     {"chain", false},
                     {"army", true},
                     {"power", true},
                     {"tokens", true}},
        .list_count = 1,
        .lists = {{"captured", true, CAPTURED_CAP, true /* counted: order means nothing */}},
    };
}

static void mark(Observation *o, int sq, int terrain)
{
    if (sq != KD_NO_SQ)
        o->cells[sq].terrain |= 1u << terrain;
}

void kd_observe(const KdConfig *c, const KdState *s, int observer, Observation *o)
{
    const KdPos *p = &s->pos;
    obs_begin(o, observer, kd_to_move(c, s));
    StrBuf name;
    sb_init(&name);
    // Cells in square order, so that cells[sq] is square sq.
    for (int sq = 0; sq < 64; sq++) {
        sb_clear(&name);
        kd_format_square(sq, &name);
        ObsCell *cell = obs_add_cell(o, 0, kd_file(sq), kd_rank(sq), sb_str(&name));
        if (p->board[sq] != KD_EMPTY)
            obs_push(cell, kd_type_at(p, sq) - 1, kd_colour_at(p, sq), 0, 0);
    }
    sb_free(&name);
    for (uint64_t b = p->castle; b;)
        mark(o, bits_pop(&b), TERRAIN_CASTLING);
    for (uint64_t b = p->moved; b;)
        mark(o, bits_pop(&b), TERRAIN_MOVED);
    mark(o, p->ep, TERRAIN_EN_PASSANT);
    for (uint64_t b = p->frozen; b;)
        mark(o, bits_pop(&b), TERRAIN_FROZEN);
    for (uint64_t b = p->iced; b;)
        mark(o, bits_pop(&b), TERRAIN_ICED);
    if (p->stage == KD_STAGE_HASTE2)
        mark(o, p->haste_sq, TERRAIN_HASTE);
    mark(o, p->chain_sq, TERRAIN_CHAIN);
    for (int col = 0; col < 2; col++) {
        const int k = p->king[col];
        if (k < 64 && p->board[k] != KD_EMPTY && kd_type_at(p, k) == KD_KING &&
            kd_colour_at(p, k) == col && kd_in_check(c, p, col))
            mark(o, k, TERRAIN_CHECK);
    }
    const ObsSchema *sc = &c->obs;
    o->counters[obs_counter_slot(sc, COUNTER_TURN, 0)] = p->turn;
    o->counters[obs_counter_slot(sc, COUNTER_HALFMOVE, 0)] = p->halfmove;
    o->counters[obs_counter_slot(sc, COUNTER_FULLMOVE, 0)] = p->fullmove;
    o->counters[obs_counter_slot(sc, COUNTER_PHASE, 0)] = p->phase;
    o->counters[obs_counter_slot(sc, COUNTER_STAGE, 0)] = p->stage;
    o->counters[obs_counter_slot(sc, COUNTER_CHAIN, 0)] = p->chain_n;
    for (int col = 0; col < 2; col++) {
        o->counters[obs_counter_slot(sc, COUNTER_ARMY, col)] = p->army[col];
        o->counters[obs_counter_slot(sc, COUNTER_POWER, col)] = p->power[col];
        o->counters[obs_counter_slot(sc, COUNTER_TOKENS, col)] = p->tokens[col];
        for (int t = KD_PAWN; t < KD_TYPES; t++)
            for (int n = 0; n < p->captured[col][t]; n++)
                obs_list_push(sc, o, LIST_CAPTURED, col, t - 1, col, 0, 0);
    }
}
