/*
 * kd_apply.c - the effect of every action on a position: pieces put, moved and captured,
 * powers declared and spent, the armies chosen, the end of a turn; and the position's
 * hash recomputed from scratch, which must agree with the incremental one kept here.
 * Nothing here asks whether an action is legal (kd_movegen.c does).
 */
#include "games/kingdown/kd_internal.h"

/* --- pieces on squares ---------------------------------------------------------------- */

void kd_put(const KdConfig *c, KdPos *p, int sq, int colour, int type)
{
    const uint64_t b = kd_bit(sq);
    p->board[sq] = (uint8_t)(type | colour << 4);
    p->bb[type] |= b;
    p->bb[KD_EMPTY] |= b;
    p->side[colour] |= b;
    p->hash ^= c->z_piece[colour][type][sq];
    if (type == KD_KING)
        p->king[colour] = (uint8_t)sq;
}

void kd_remove(const KdConfig *c, KdPos *p, int sq)
{
    const uint64_t b = kd_bit(sq);
    const int type = kd_type_at(p, sq), colour = kd_colour_at(p, sq);
    p->board[sq] = KD_EMPTY;
    p->bb[type] &= ~b;
    p->bb[KD_EMPTY] &= ~b;
    p->side[colour] &= ~b;
    p->hash ^= c->z_piece[colour][type][sq];
    if (p->castle & b) {
        p->castle &= ~b;
        p->hash ^= c->z_castle[sq];
    }
    if (p->moved & b) {
        p->moved &= ~b;
        p->hash ^= c->z_moved[sq];
    }
}

static void set_moved(const KdConfig *c, KdPos *p, int sq)
{
    if (!(p->moved & kd_bit(sq))) {
        p->moved |= kd_bit(sq);
        p->hash ^= c->z_moved[sq];
    }
}

/* Replaces a set of marked squares, keeping the hash in step. */
static void set_mask(KdPos *p, uint64_t *field, const uint64_t *keys, uint64_t mask)
{
    for (uint64_t b = *field ^ mask; b;)
        p->hash ^= keys[bits_pop(&b)];
    *field = mask;
}

/* Ice Wall protects pieces, not squares: the marks follow the pieces that move, all at
 * once (a castling king may land where its rook stood). */
static void follow_ice(const KdConfig *c, KdPos *p, int from1, int to1, int from2, int to2)
{
    const uint64_t ice = p->iced;
    uint64_t next = ice & ~kd_bit(from1);
    if (from2 != KD_NO_SQ)
        next &= ~kd_bit(from2);
    if ((ice & kd_bit(from1)) && to1 != KD_NO_SQ) // a paladin that captured is gone
        next |= kd_bit(to1);
    if (from2 != KD_NO_SQ && (ice & kd_bit(from2)))
        next |= kd_bit(to2);
    set_mask(p, &p->iced, c->z_iced, next);
}

/* The marks a new Freeze or Ice Wall adds to: those declared earlier in this turn
 * (tokens-per-turn=any); the first declaration of a turn starts afresh. */
static uint64_t declared_marks(const KdPos *p, uint64_t marks)
{
    return p->stage == KD_STAGE_DECLARED ? marks : 0;
}

/* A capture: the piece leaves the board and, with armies, joins its side's captured. */
static void capture_at(const KdConfig *c, KdPos *p, int sq)
{
    const int type = kd_type_at(p, sq), colour = kd_colour_at(p, sq);
    kd_remove(c, p, sq);
    set_mask(p, &p->frozen, c->z_frozen, p->frozen & ~kd_bit(sq));
    set_mask(p, &p->iced, c->z_iced, p->iced & ~kd_bit(sq));
    if (c->armies) {
        const int n = p->captured[colour][type];
        if (n < 15) {
            p->hash ^= c->z_captured[colour][type][n] ^ c->z_captured[colour][type][n + 1];
            p->captured[colour][type] = (uint8_t)(n + 1);
        }
    }
}

uint64_t kd_compute_hash(const KdConfig *c, const KdPos *p)
{
    uint64_t h = p->turn ? c->z_side : 0;
    for (int sq = 0; sq < 64; sq++)
        if (p->board[sq] != KD_EMPTY)
            h ^= c->z_piece[kd_colour_at(p, sq)][kd_type_at(p, sq)][sq];
    for (uint64_t b = p->castle; b;)
        h ^= c->z_castle[bits_pop(&b)];
    for (uint64_t b = p->moved; b;)
        h ^= c->z_moved[bits_pop(&b)];
    if (p->ep != KD_NO_SQ)
        h ^= c->z_ep[p->ep];
    if (p->chain_sq != KD_NO_SQ)
        h ^= c->z_chain[p->chain_sq];
    h ^= c->z_chain_n[p->chain_n];
    h ^= c->z_stage[p->stage];
    if (p->haste_sq != KD_NO_SQ)
        h ^= c->z_haste[p->haste_sq];
    if (p->token_used)
        h ^= c->z_token_used;
    for (uint64_t b = p->frozen; b;)
        h ^= c->z_frozen[bits_pop(&b)];
    for (uint64_t b = p->iced; b;)
        h ^= c->z_iced[bits_pop(&b)];
    h ^= c->z_phase[p->phase];
    for (int col = 0; col < 2; col++) {
        h ^= c->z_army[col][p->army[col]] ^ c->z_power[col][p->power[col]];
        h ^= c->z_tokens[col][p->tokens[col]];
        for (int t = 0; t < KD_TYPES; t++)
            h ^= c->z_captured[col][t][p->captured[col][t]];
    }
    return h;
}

bool kd_ep_possible(const KdConfig *c, const KdPos *p, int ep)
{
    // The pawn that stepped twice stands in front of ep, seen from its owner; the side to
    // move next captures with a normal pawn that attacks ep.
    const int them = p->turn ^ 1; // called before the turn passes: `them` moves next
    if (!c->en_passant || p->power[them] == KD_DARKNESS)
        return false;
    return (c->pawn_att[p->turn][ep] & kd_pieces(p, them, KD_PAWN)) != 0;
}

/* --- applying an action --------------------------------------------------------------- */

static void spend_token(const KdConfig *c, KdPos *p)
{
    const int us = p->turn;
    p->hash ^= c->z_tokens[us][p->tokens[us]];
    p->tokens[us]--;
    p->hash ^= c->z_tokens[us][p->tokens[us]];
    if (!p->token_used) {
        p->token_used = 1;
        p->hash ^= c->z_token_used;
    }
}

static void set_stage(const KdConfig *c, KdPos *p, int stage)
{
    p->hash ^= c->z_stage[p->stage] ^ c->z_stage[stage];
    p->stage = (uint8_t)stage;
}

static void set_sq(KdPos *p, uint8_t *field, const uint64_t *keys, int sq)
{
    if (*field != KD_NO_SQ)
        p->hash ^= keys[*field];
    *field = (uint8_t)sq;
    if (sq != KD_NO_SQ)
        p->hash ^= keys[sq];
}

/* Choices: the first chooser's king, the other's, the first chooser's power, the
 * other's, then the play. The player to move in the play (p->turn) is not touched. */
static void apply_pick(const KdConfig *c, KdPos *p, Move m)
{
    const int who = kd_picker(c, p), v = kd_to(m);
    if (p->phase == KD_PHASE_PICK_KING) {
        p->hash ^= c->z_army[who][p->army[who]] ^ c->z_army[who][v];
        p->army[who] = (uint8_t)v;
    } else {
        const int power = kd_army_info[p->army[who]].powers[v];
        p->hash ^= c->z_power[who][p->power[who]] ^ c->z_power[who][power];
        p->power[who] = (uint8_t)power;
        p->hash ^= c->z_tokens[who][p->tokens[who]];
        p->tokens[who] = kd_power_info[power].tokens;
        p->hash ^= c->z_tokens[who][p->tokens[who]];
    }
    const int phase = kd_choice_phase(p);
    p->hash ^= c->z_phase[p->phase] ^ c->z_phase[phase];
    p->phase = (uint8_t)phase;
}

/* Puts a pawn (or what it becomes) that arrived on `to`. */
static void land_pawn(const KdConfig *c, KdPos *p, int to, int colour, int promo)
{
    if (kd_rel_rank(colour, to) == 7 && promo != KD_EMPTY) {
        kd_put(c, p, to, colour, promo);
        return;
    }
    kd_put(c, p, to, colour, KD_PAWN);
    if (kd_rel_rank(colour, to) == 1 && !c->displaced_double)
        set_moved(c, p, to);
}

void kd_apply(const KdConfig *c, KdPos *p, Move m)
{
    const int kind = kd_kind(m);
    if (kind == KD_MV_PICK) {
        apply_pick(c, p, m);
        return;
    }
    const int us = p->turn, them = us ^ 1;
    const int from = kd_from(m), to = kd_to(m), promo = kd_promo(m);
    const int old_king = p->king[us];
    bool irrev = false;     // a capture or a pawn move: resets the 50-move count
    bool move_done = true;  // a move was completed (not a declaration or a chain link)
    int landed = to;        // where the piece that moved now stands (Haste, Ice Wall)
    int new_ep = KD_NO_SQ;
    if (kd_is_token_kind(kind))
        spend_token(c, p);
    switch (kind) {
    case KD_MV_NORMAL:
    case KD_MV_STRIKE:
    case KD_MV_LEAP:
    case KD_MV_MARCH:
    case KD_MV_FLIGHT: {
        const int type = kd_type_at(p, from);
        const bool capture = p->board[to] != KD_EMPTY;
        if (capture) {
            capture_at(c, p, to);
            irrev = true;
        }
        kd_remove(c, p, from);
        if (type == KD_PALADIN && capture && kind == KD_MV_NORMAL) {
            // The paladin falls with its victim.
            kd_put(c, p, to, us, KD_PALADIN);
            capture_at(c, p, to);
            landed = KD_NO_SQ;
        } else if (type == KD_PAWN) {
            irrev = true;
            land_pawn(c, p, to, us, promo);
            // A March ending on the last rank promoted the pawn: nothing to take there.
            const bool march = kind == KD_MV_MARCH && c->march_ep && kd_rel_rank(us, to) != 7;
            if ((kind == KD_MV_NORMAL || march) && (to - from == 16 || from - to == 16) &&
                kd_ep_possible(c, p, (from + to) / 2))
                new_ep = (from + to) / 2;
        } else {
            kd_put(c, p, to, us, type);
        }
        if (type == KD_BEAST && capture && kind == KD_MV_NORMAL) {
            p->hash ^= c->z_chain_n[p->chain_n];
            p->chain_n++;
            p->hash ^= c->z_chain_n[p->chain_n];
            if (kd_more(m)) {
                set_sq(p, &p->chain_sq, c->z_chain, to);
                move_done = false;
            } else {
                set_sq(p, &p->chain_sq, c->z_chain, KD_NO_SQ);
                p->hash ^= c->z_chain_n[p->chain_n];
                p->chain_n = 0;
            }
        }
        break;
    }
    case KD_MV_EP: {
        const int victim = us == 0 ? to - 8 : to + 8;
        capture_at(c, p, victim);
        kd_remove(c, p, from);
        kd_put(c, p, to, us, KD_PAWN);
        irrev = true;
        break;
    }
    case KD_MV_CASTLE: {
        const bool h_side = to > from;
        const int rank0 = from & 56;
        const int kdest = rank0 + (h_side ? 6 : 2), rdest = rank0 + (h_side ? 5 : 3);
        kd_remove(c, p, from);
        kd_remove(c, p, to);
        kd_put(c, p, kdest, us, KD_KING);
        kd_put(c, p, rdest, us, KD_ROOK);
        landed = kdest;
        follow_ice(c, p, to, rdest, from, kdest);
        break;
    }
    case KD_MV_SHOT:
        capture_at(c, p, to);
        irrev = true;
        landed = from;
        break;
    case KD_MV_SWAP: {
        const int friend_type = kd_type_at(p, to);
        kd_remove(c, p, from);
        kd_remove(c, p, to);
        kd_put(c, p, to, us, KD_MAESTER);
        if (friend_type == KD_PAWN) {
            irrev = true;
            land_pawn(c, p, from, us, promo);
        } else {
            kd_put(c, p, from, us, friend_type);
        }
        follow_ice(c, p, to, from, from, to);
        break;
    }
    case KD_MV_FREEZE:
        set_mask(p, &p->frozen, c->z_frozen, declared_marks(p, p->frozen) | kd_bit(to));
        set_stage(c, p, KD_STAGE_DECLARED);
        move_done = false;
        break;
    case KD_MV_ICE_WALL:
        set_mask(p, &p->iced, c->z_iced, declared_marks(p, p->iced) | kd_bit(to));
        set_stage(c, p, KD_STAGE_DECLARED);
        move_done = false;
        break;
    case KD_MV_HASTE:
        set_stage(c, p, KD_STAGE_HASTE1);
        move_done = false;
        break;
    case KD_MV_SACRIFICE: {
        capture_at(c, p, from);
        kd_put(c, p, from, us, promo);
        if (c->armies) {
            const int n = p->captured[us][promo];
            p->hash ^= c->z_captured[us][promo][n] ^ c->z_captured[us][promo][n - 1];
            p->captured[us][promo] = (uint8_t)(n - 1);
        }
        irrev = true;
        landed = from;
        break;
    }
    default:
        break;
    }
    // Ice Wall protects a piece, not a square: it follows the piece's own move.
    const bool displacement = kind == KD_MV_NORMAL || kind == KD_MV_EP || kind == KD_MV_STRIKE ||
                              kind == KD_MV_LEAP || kind == KD_MV_MARCH || kind == KD_MV_FLIGHT;
    if (displacement)
        follow_ice(c, p, from, landed, KD_NO_SQ, KD_NO_SQ);
    if (p->king[us] != old_king || kind == KD_MV_CASTLE) {
        for (uint64_t b = p->castle & kd_rank_bb(us == 0 ? 0 : 7); b;) {
            const int sq = bits_pop(&b);
            p->castle &= ~kd_bit(sq);
            p->hash ^= c->z_castle[sq];
        }
    }
    if (irrev)
        p->irrev = 1;
    if (!move_done)
        return;
    if (p->stage == KD_STAGE_HASTE1) {
        // The first of the two moves: the same piece moves again.
        set_stage(c, p, KD_STAGE_HASTE2);
        set_sq(p, &p->haste_sq, c->z_haste, landed);
        return;
    }
    // The turn ends.
    set_sq(p, &p->ep, c->z_ep, new_ep);
    if (p->irrev)
        p->halfmove = 0;
    else if (p->halfmove < UINT16_MAX)
        p->halfmove++;
    p->irrev = 0;
    if (us == 1 && p->fullmove < UINT16_MAX)
        p->fullmove++;
    set_stage(c, p, KD_STAGE_START);
    set_sq(p, &p->haste_sq, c->z_haste, KD_NO_SQ);
    if (p->token_used) {
        p->token_used = 0;
        p->hash ^= c->z_token_used;
    }
    // Freeze and Ice Wall last through the opponent's turn that follows the declaration.
    if (p->power[us] != KD_FREEZE)
        set_mask(p, &p->frozen, c->z_frozen, 0);
    if (p->power[us] != KD_ICE_WALL)
        set_mask(p, &p->iced, c->z_iced, 0);
    p->turn = (uint8_t)them;
    p->hash ^= c->z_side;
}
