/*
 * kd_movegen.c - King Down move generation for all eleven pieces, the token powers and
 * the choice of armies, and the legality of actions.
 *
 * Legality. A turn is legal when, at its end, the mover's king is not attacked, and (for
 * a turn that spent a token) the opponent's king is not attacked either. Most actions
 * end the turn and only move one piece from one square to another ("displacement"):
 * for those the chess shortcut holds, because the only pieces that attack along lines
 * (bishop, rook, queen) are blocked or unblocked exactly as in chess: a displacement is
 * legal iff it lands inside the check mask and a pinned piece stays on its line. The
 * other actions (shots, paladin captures that empty both squares, swaps, en passant,
 * castling, powers, and actions after which the turn goes on) are played on a copy and
 * tested; an action that does not end the turn is legal iff some way of finishing the
 * turn from there is legal. Haste's first move is also tested where it ends, as a move
 * of its own.
 */
#include "games/kingdown/kd_internal.h"

/* Promotion choices in the order they are generated: Q R B N A L G M E. */
static const uint8_t PROMO_ORDER[9] = {KD_QUEEN,   KD_ROOK,    KD_BISHOP,
                                       KD_KNIGHT,  KD_ARCHER,  KD_PALADIN,
                                       KD_GUARD,   KD_MAESTER, KD_BEAST};

/* --- generation ----------------------------------------------------------------------- */

typedef struct Gen {
    const KdConfig *c;
    const KdPos *p;
    int us, them, ksq;
    uint64_t own, enemy, occ, empty;
    uint64_t victims; /* enemy pieces a piece other than a king may capture */
    uint64_t movable; /* own pieces that may move (frozen ones may not) */
    uint64_t checkers, pinned, checkmask;
    uint64_t pin_line[8]; /* for the pinned pieces in square order: king to pinner */
    uint64_t targets; /* squares an action may end on: all, or the enemy's (captures) */
    bool captures;    /* only actions that capture */
    bool legal; /* filter by legality (else: every pseudo-legal action) */
    bool fast;  /* the displacement shortcut applies */
    int limit;  /* stop once this many actions are listed */
    Move *out;
    int n;
} Gen;

static bool has_completion(const KdConfig *c, const KdPos *q);
static int generate(const KdConfig *c, const KdPos *p, Move *out, bool legal, int limit,
                    bool captures);

static inline bool full(const Gen *g)
{
    return g->n >= g->limit;
}

static inline void add(Gen *g, Move m)
{
    if (g->n < g->limit)
        g->out[g->n++] = m;
}

static bool turn_end_ok(const KdConfig *c, const KdPos *q, int mover, bool used)
{
    if (kd_in_check(c, q, mover))
        return false;
    return !used || !kd_in_check(c, q, mover ^ 1);
}

/* Haste's first move is a normal move of its own (R-KD-24): it may not leave
 * the mover's king attacked even if the second move would cover it, and with
 * haste-check=each it may not give check either. */
static bool haste_first_ok(const KdConfig *c, const KdPos *q, int mover)
{
    if (kd_in_check(c, q, mover))
        return false;
    return !c->haste_each || !kd_in_check(c, q, mover ^ 1);
}

/* The first Haste move is complete when the stage moves on (a beast's chain of captures
 * is one move, judged after its last capture). */
static inline bool haste_first_done(const KdPos *p, const KdPos *q)
{
    return p->stage == KD_STAGE_HASTE1 && q->stage == KD_STAGE_HASTE2;
}

/* Legal iff the turn, finished from here in some way, is legal. */
static bool action_ok(const KdConfig *c, const KdPos *p, Move m)
{
    KdPos q = *p;
    kd_apply(c, &q, m);
    if (q.turn != p->turn)
        return turn_end_ok(c, &q, p->turn, p->token_used || kd_is_token_kind(kd_kind(m)));
    if (haste_first_done(p, &q) && !haste_first_ok(c, &q, p->turn))
        return false;
    return has_completion(c, &q);
}

const char *kd_illegal_reason(const KdConfig *c, const KdPos *p, Move m)
{
    KdPos q = *p;
    kd_apply(c, &q, m);
    const int us = p->turn;
    if (q.turn != us) {
        if (kd_in_check(c, &q, us))
            return "your king would be left in check";
        if (p->token_used || kd_is_token_kind(kd_kind(m)))
            return "a turn that spends a token may not give check";
    } else if (haste_first_done(p, &q)) {
        if (kd_in_check(c, &q, us))
            return "each of Haste's two moves must be legal on its own, and this one leaves "
                   "your king in check";
        if (c->haste_each && kd_in_check(c, &q, us ^ 1))
            return "the first Haste move may not give check (haste-check=each)";
    }
    return "no way of finishing the turn from there is legal";
}

static bool has_completion(const KdConfig *c, const KdPos *q)
{
    Move moves[KD_MAX_MOVES];
    const int n = generate(c, q, moves, false, KD_MAX_MOVES, false);
    for (int i = 0; i < n; i++)
        if (action_ok(c, q, moves[i]))
            return true;
    return false;
}

static inline void emit_full(Gen *g, Move m)
{
    if (!g->legal || action_ok(g->c, g->p, m))
        add(g, m);
}

/* Where a pinned piece may go: the segment from its king to the pinner (a paladin may
 * pass over its own king, but not stay out of the line of fire by doing so). */
static inline uint64_t pin_line(const Gen *g, int from)
{
    return g->pin_line[bits_count(g->pinned & (kd_bit(from) - 1))];
}

/* Displacements of a piece other than the king from `from` to each of `targets`. */
static void emit_simple(Gen *g, int from, uint64_t targets, int kind)
{
    targets &= g->targets;
    if (g->fast) {
        targets &= g->checkmask;
        if (g->pinned & kd_bit(from))
            targets &= pin_line(g, from);
        while (targets && !full(g))
            add(g, kd_move(from, bits_pop(&targets), kind, 0, 0));
        return;
    }
    while (targets && !full(g))
        emit_full(g, kd_move(from, bits_pop(&targets), kind, 0, 0));
}

static inline bool simple_ok(const Gen *g, int from, int to)
{
    if (!(g->checkmask & kd_bit(to)))
        return false;
    return !(g->pinned & kd_bit(from)) || (pin_line(g, from) & kd_bit(to));
}

/* A pawn (or the friend of a swap, or a striking pawn) arriving on `to`: promotions. */
static void emit_promotions(Gen *g, int from, int to, int kind, bool simple)
{
    const KdConfig *c = g->c;
    if (simple && g->fast && !simple_ok(g, from, to))
        return;
    for (int i = 0; i < 9 && !full(g); i++) {
        const int t = PROMO_ORDER[i];
        if (!(c->promo_mask & (1u << t)))
            continue;
        const Move m = kd_move(from, to, kind, t, 0);
        if (simple && g->fast)
            add(g, m);
        else
            emit_full(g, m);
    }
    if (c->promo_decline && !full(g)) {
        const Move m = kd_move(from, to, kind, 0, 0);
        if (simple && g->fast)
            add(g, m);
        else
            emit_full(g, m);
    }
}

static void emit_pawn_targets(Gen *g, int from, uint64_t targets)
{
    const uint64_t last = kd_rank_bb(g->us == 0 ? 7 : 0);
    emit_simple(g, from, targets & ~last, KD_MV_NORMAL);
    for (uint64_t t = targets & last & g->targets; t && !full(g);)
        emit_promotions(g, from, bits_pop(&t), KD_MV_NORMAL, true);
}

static void gen_pawn(Gen *g, int from)
{
    const KdConfig *c = g->c;
    const KdPos *p = g->p;
    const int us = g->us;
    if (p->power[us] == KD_DARKNESS) {
        // Darkness: diagonally forward to an empty square, captures straight ahead.
        emit_pawn_targets(g, from, (c->pawn_att[us][from] & g->empty) |
                                       (c->fwd[us][from] & g->victims));
        return;
    }
    uint64_t targets = c->pawn_att[us][from] & g->victims;
    const uint64_t one = c->fwd[us][from] & g->empty;
    targets |= one;
    if (one && kd_rel_rank(us, from) == 1 && !(p->moved & kd_bit(from))) {
        const int mid = bits_lowest(one);
        targets |= c->fwd[us][mid] & g->empty;
    }
    emit_pawn_targets(g, from, targets);
    if (p->ep != KD_NO_SQ && (c->pawn_att[us][from] & kd_bit(p->ep)) && c->en_passant) {
        const int victim = us == 0 ? p->ep - 8 : p->ep + 8;
        if (!(p->iced & kd_bit(victim)) && !full(g))
            emit_full(g, kd_move(from, p->ep, KD_MV_EP, 0, 0));
    }
}

/* Squares a slider reaches from `from` in direction d: quiet ones, passing over own
 * pieces when `pass` holds them, and the first enemy piece met (or KD_NO_SQ). */
static uint64_t walk(const KdConfig *c, const KdPos *p, int from, int d, uint64_t pass,
                     int us, int *enemy_sq, uint64_t *passed)
{
    uint64_t quiet = 0;
    uint64_t r = c->ray[d][from];
    *enemy_sq = KD_NO_SQ;
    *passed = 0;
    while (r) {
        const int s = d < 4 ? bits_lowest(r) : bits_highest(r);
        r &= ~kd_bit(s);
        if (p->board[s] == KD_EMPTY) {
            quiet |= kd_bit(s);
            continue;
        }
        if (kd_colour_at(p, s) == us) {
            if (pass & kd_bit(s)) {
                *passed |= kd_bit(s);
                continue;
            }
            break;
        }
        *enemy_sq = s;
        break;
    }
    return quiet;
}

static void gen_paladin(Gen *g, int from)
{
    uint64_t quiet = 0;
    for (int d = 0; d < 8; d++) {
        int enemy;
        uint64_t passed;
        quiet |= walk(g->c, g->p, from, d, g->own, g->us, &enemy, &passed);
        if (enemy != KD_NO_SQ && (g->victims & kd_bit(enemy)) && !full(g))
            emit_full(g, kd_move(from, enemy, KD_MV_NORMAL, 0, 0));
    }
    emit_simple(g, from, quiet, KD_MV_NORMAL);
}

static void gen_maester(Gen *g, int from)
{
    const KdConfig *c = g->c;
    const KdPos *p = g->p;
    const int us = g->us;
    emit_simple(g, from, c->king[from] & (g->empty | g->victims), KD_MV_NORMAL);
    if (g->captures)
        return;
    uint64_t friends = c->king[from] & g->own & g->movable;
    // The long swap: maester and king both on their first rank, at any distance.
    const int ksq = p->king[us];
    if (kd_rel_rank(us, from) == 0 && kd_rel_rank(us, ksq) == 0)
        friends |= kd_bit(ksq);
    while (friends && !full(g)) {
        const int to = bits_pop(&friends);
        if (kd_type_at(p, to) == KD_PAWN && kd_rel_rank(us, from) == 7)
            emit_promotions(g, from, to, KD_MV_SWAP, false);
        else
            emit_full(g, kd_move(from, to, KD_MV_SWAP, 0, 0));
    }
}

static void gen_beast_captures(Gen *g, int from)
{
    const KdConfig *c = g->c;
    const uint64_t caps = c->king[from] & ~c->fwd[g->us][from] & g->victims;
    // A capture is the turn's last (more = 0) or not (more = 1, another follows).
    const bool may_go_on = g->p->chain_n + 1 < c->chain_limit;
    emit_simple(g, from, caps, KD_MV_NORMAL);
    if (may_go_on)
        for (uint64_t t = caps; t && !full(g);)
            emit_full(g, kd_move(from, bits_pop(&t), KD_MV_NORMAL, 0, 1));
}

static void gen_king(Gen *g, bool castling)
{
    const KdConfig *c = g->c;
    const KdPos *p = g->p;
    const int us = g->us, ksq = g->ksq;
    if (!(g->movable & kd_bit(ksq)))
        return;
    uint64_t targets;
    if (p->power[us] == KD_MERCY) {
        // One or two squares in a line, over a friend if need be; never a capture.
        targets = c->king[ksq] & g->empty;
        for (int d = 0; d < 8; d++) {
            const uint64_t r = c->ray[d][ksq];
            if (!r)
                continue;
            const int s1 = d < 4 ? bits_lowest(r) : bits_highest(r);
            if (p->board[s1] != KD_EMPTY && kd_colour_at(p, s1) != us)
                continue;
            const uint64_t r2 = r & ~kd_bit(s1);
            if (!r2)
                continue;
            const int s2 = d < 4 ? bits_lowest(r2) : bits_highest(r2);
            if (p->board[s2] == KD_EMPTY)
                targets |= kd_bit(s2);
        }
    } else {
        uint64_t prey = g->enemy & ~p->bb[KD_KING];
        prey &= ~p->iced;
        if (p->power[us] == KD_HOLY_LIGHT)
            prey &= ~p->bb[KD_PAWN];
        targets = c->king[ksq] & (g->empty | prey);
        if (p->power[us] == KD_DEATH_TOUCH)
            for (uint64_t t = c->king[ksq] & prey; t && !full(g);)
                emit_full(g, kd_move(ksq, bits_pop(&t), KD_MV_SHOT, 0, 0));
    }
    targets &= g->targets;
    if (g->fast) {
        const uint64_t occ = g->occ ^ kd_bit(ksq);
        while (targets && !full(g)) {
            const int to = bits_pop(&targets);
            if (!(kd_attackers(c, p, to, g->them, occ) & ~kd_bit(to)))
                add(g, kd_move(ksq, to, KD_MV_NORMAL, 0, 0));
        }
    } else {
        while (targets && !full(g))
            emit_full(g, kd_move(ksq, bits_pop(&targets), KD_MV_NORMAL, 0, 0));
    }
    if (!castling || !c->castling || g->captures || full(g))
        return;
    // Never out of check; only the fast path (a turn's start) has the checkers at hand,
    // and after a Freeze or Ice Wall declaration the king may still be in check.
    if (g->fast ? g->checkers != 0 : kd_in_check(c, p, us))
        return;
    for (uint64_t rooks = p->castle & g->own; rooks && !full(g);) {
        const int rsq = bits_pop(&rooks);
        const bool h_side = rsq > ksq;
        const int rank0 = ksq & 56;
        const int kdest = rank0 + (h_side ? 6 : 2), rdest = rank0 + (h_side ? 5 : 3);
        const uint64_t kpath = c->between[ksq][kdest] | kd_bit(kdest);
        const uint64_t rpath = c->between[rsq][rdest] | kd_bit(rdest);
        if ((kpath | rpath) & g->occ & ~kd_bit(ksq) & ~kd_bit(rsq))
            continue;
        bool attacked = false;
        for (uint64_t t = kpath & ~kd_bit(ksq); t && !attacked;)
            attacked = kd_attackers(c, p, bits_pop(&t), g->them, g->occ ^ kd_bit(ksq)) != 0;
        if (!attacked)
            emit_full(g, kd_move(ksq, rsq, KD_MV_CASTLE, 0, 0));
    }
}

/* Normal moves of the pieces in `pieces` (a subset of the movable ones). */
static void gen_normal(Gen *g, uint64_t pieces, bool castling)
{
    const KdConfig *c = g->c;
    const KdPos *p = g->p;
    if (pieces & kd_bit(g->ksq))
        gen_king(g, castling);
    pieces &= ~kd_bit(g->ksq);
    const uint64_t to_or_take = g->empty | g->victims;
    while (pieces && !full(g)) {
        const int from = bits_pop(&pieces);
        switch (kd_type_at(p, from)) {
        case KD_PAWN:
            gen_pawn(g, from);
            break;
        case KD_KNIGHT:
            emit_simple(g, from, c->knight[from] & to_or_take, KD_MV_NORMAL);
            break;
        case KD_BISHOP:
            emit_simple(g, from, kd_bishop_att(c, from, g->occ) & to_or_take, KD_MV_NORMAL);
            break;
        case KD_ROOK:
            emit_simple(g, from, kd_rook_att(c, from, g->occ) & to_or_take, KD_MV_NORMAL);
            break;
        case KD_QUEEN:
            emit_simple(g, from,
                        (kd_bishop_att(c, from, g->occ) | kd_rook_att(c, from, g->occ)) &
                            to_or_take,
                        KD_MV_NORMAL);
            break;
        case KD_ARCHER:
            emit_simple(g, from, c->wazir[from] & g->empty, KD_MV_NORMAL);
            for (uint64_t t = c->archer[from] & g->victims; t && !full(g);)
                emit_full(g, kd_move(from, bits_pop(&t), KD_MV_SHOT, 0, 0));
            break;
        case KD_PALADIN:
            gen_paladin(g, from);
            break;
        case KD_GUARD:
            emit_simple(g, from, c->king[from] & g->empty, KD_MV_NORMAL);
            break;
        case KD_MAESTER:
            gen_maester(g, from);
            break;
        case KD_BEAST:
            emit_simple(g, from, c->fwd[g->us][from] & g->empty, KD_MV_NORMAL);
            gen_beast_captures(g, from);
            break;
        default:
            break;
        }
    }
}

/* --- powers --------------------------------------------------------------------------- */

static void gen_strike(Gen *g)
{
    const KdConfig *c = g->c;
    const uint64_t last = kd_rank_bb(g->us == 0 ? 7 : 0);
    for (uint64_t pcs = g->movable & ~kd_bit(g->ksq); pcs && !full(g);) {
        const int from = bits_pop(&pcs);
        uint64_t t = (kd_bishop_att(c, from, g->occ) | kd_rook_att(c, from, g->occ)) &
                     (g->empty | g->victims);
        const bool pawn = kd_type_at(g->p, from) == KD_PAWN;
        while (t && !full(g)) {
            const int to = bits_pop(&t);
            if (pawn && (last & kd_bit(to)))
                emit_promotions(g, from, to, KD_MV_STRIKE, false);
            else
                emit_full(g, kd_move(from, to, KD_MV_STRIKE, 0, 0));
        }
    }
}

static void gen_leap(Gen *g)
{
    const KdConfig *c = g->c;
    const KdPos *p = g->p;
    const uint64_t sliders =
        g->movable & (p->bb[KD_BISHOP] | p->bb[KD_ROOK] | p->bb[KD_QUEEN]);
    const uint64_t own_pawns = g->own & p->bb[KD_PAWN];
    for (uint64_t pcs = sliders; pcs && !full(g);) {
        const int from = bits_pop(&pcs);
        const int type = kd_type_at(p, from);
        for (int d = 0; d < 8 && !full(g); d++) {
            const bool diagonal = d & 1;
            if ((type == KD_BISHOP && !diagonal) || (type == KD_ROOK && diagonal))
                continue;
            // Only the squares beyond the first pawn passed are new.
            uint64_t r = c->ray[d][from];
            bool passed = false;
            while (r && !full(g)) {
                const int s = d < 4 ? bits_lowest(r) : bits_highest(r);
                r &= ~kd_bit(s);
                if (p->board[s] == KD_EMPTY) {
                    if (passed)
                        emit_full(g, kd_move(from, s, KD_MV_LEAP, 0, 0));
                    continue;
                }
                if (own_pawns & kd_bit(s)) {
                    passed = true;
                    continue;
                }
                if (passed && (g->victims & kd_bit(s)))
                    emit_full(g, kd_move(from, s, KD_MV_LEAP, 0, 0));
                break;
            }
        }
    }
}

static void gen_powers(Gen *g)
{
    const KdConfig *c = g->c;
    const KdPos *p = g->p;
    const int us = g->us;
    if (p->tokens[us] == 0)
        return;
    const uint64_t non_kings = ~p->bb[KD_KING];
    // A piece is frozen or iced once: after a first declaration this turn, only others.
    const bool again = p->stage == KD_STAGE_DECLARED;
    switch (p->power[us]) {
    case KD_FREEZE:
        for (uint64_t t = g->enemy & non_kings & ~(again ? p->frozen : 0); t && !full(g);)
            emit_full(g, kd_move(0, bits_pop(&t), KD_MV_FREEZE, 0, 0));
        break;
    case KD_ICE_WALL:
        for (uint64_t t = g->own & non_kings & ~(again ? p->iced : 0); t && !full(g);)
            emit_full(g, kd_move(0, bits_pop(&t), KD_MV_ICE_WALL, 0, 0));
        break;
    case KD_STRIKE:
        gen_strike(g);
        break;
    case KD_HASTE:
        emit_full(g, kd_move(0, 0, KD_MV_HASTE, 0, 0));
        break;
    case KD_FLIGHT: {
        const uint64_t half = us == 0 ? 0x00000000FFFFFFFFULL : 0xFFFFFFFF00000000ULL;
        for (uint64_t pcs = g->movable & non_kings; pcs && !full(g);) {
            const int from = bits_pop(&pcs);
            for (uint64_t t = half & g->empty; t && !full(g);)
                emit_full(g, kd_move(from, bits_pop(&t), KD_MV_FLIGHT, 0, 0));
        }
        break;
    }
    case KD_SACRIFICE:
        for (uint64_t pcs = g->movable & p->bb[KD_PAWN]; pcs && !full(g);) {
            const int from = bits_pop(&pcs);
            for (int i = 0; i < 9 && !full(g); i++) {
                const int t = PROMO_ORDER[i];
                if (p->captured[us][t] > 0)
                    emit_full(g, kd_move(from, 0, KD_MV_SACRIFICE, t, 0));
            }
        }
        break;
    case KD_MARCH: {
        const uint64_t last = kd_rank_bb(us == 0 ? 7 : 0);
        for (uint64_t pcs = g->movable & p->bb[KD_PAWN]; pcs && !full(g);) {
            const int from = bits_pop(&pcs);
            const uint64_t one = c->fwd[us][from] & g->empty;
            if (!one)
                continue;
            const uint64_t two = c->fwd[us][bits_lowest(one)] & g->empty;
            if (!two)
                continue;
            const int to = bits_lowest(two);
            if (last & two)
                emit_promotions(g, from, to, KD_MV_MARCH, false);
            else
                emit_full(g, kd_move(from, to, KD_MV_MARCH, 0, 0));
        }
        break;
    }
    case KD_LEAP:
        gen_leap(g);
        break;
    default:
        break;
    }
}

static void gen_picks(Gen *g)
{
    const KdPos *p = g->p;
    if (p->phase == KD_PHASE_PICK_KING) {
        const int other = p->army[0] != KD_ARMY_NONE ? p->army[0] : p->army[1];
        for (int a = 1; a < KD_ARMIES; a++)
            if (a != other)
                add(g, kd_move(0, a, KD_MV_PICK, 0, 0));
    } else {
        for (int i = 0; i < 2; i++)
            add(g, kd_move(0, i, KD_MV_PICK, 0, 0));
    }
}

static void init_gen(Gen *g, const KdConfig *c, const KdPos *p, Move *out, bool legal, int limit,
                     bool captures)
{
    g->c = c;
    g->p = p;
    g->us = p->turn;
    g->them = p->turn ^ 1;
    g->ksq = p->king[g->us];
    g->own = p->side[g->us];
    g->enemy = p->side[g->them];
    g->occ = p->bb[KD_EMPTY];
    g->empty = ~g->occ;
    g->victims = g->enemy & ~p->bb[KD_KING] & ~p->bb[KD_GUARD];
    g->victims &= ~p->iced;
    g->movable = g->own & ~p->frozen;
    g->captures = captures;
    g->targets = captures ? g->enemy : ~0ULL;
    g->legal = legal;
    g->limit = limit;
    g->out = out;
    g->n = 0;
    g->fast = legal && p->stage == KD_STAGE_START;
    g->checkers = 0;
    g->pinned = 0;
    g->checkmask = ~0ULL;
    if (!g->fast)
        return;
    // Every checker can be captured or (a slider) blocked by a displacement: paladins and
    // guards never check, and the other pieces' attacks do not depend on occupancy.
    g->checkers = kd_attackers(c, p, g->ksq, g->them, g->occ);
    if (g->checkers) {
        if (g->checkers & (g->checkers - 1)) {
            g->checkmask = 0;
        } else {
            // A slider's check can be blocked; every other checker only captured.
            const int ch = bits_lowest(g->checkers);
            const uint64_t sliders = p->bb[KD_BISHOP] | p->bb[KD_ROOK] | p->bb[KD_QUEEN];
            g->checkmask = g->checkers;
            if (sliders & g->checkers)
                g->checkmask |= c->between[g->ksq][ch];
        }
    }
    const uint64_t diag = (p->bb[KD_BISHOP] | p->bb[KD_QUEEN]) & g->enemy;
    const uint64_t orth = (p->bb[KD_ROOK] | p->bb[KD_QUEEN]) & g->enemy;
    uint64_t snipers = (kd_bishop_att(c, g->ksq, 0) & diag) | (kd_rook_att(c, g->ksq, 0) & orth);
    uint64_t lines[8];
    int pins = 0;
    while (snipers) {
        const int s = bits_pop(&snipers);
        const uint64_t b = c->between[g->ksq][s] & g->occ;
        if (b && !(b & (b - 1)) && (b & g->own)) {
            g->pinned |= b;
            lines[pins++] = c->between[g->ksq][s] | kd_bit(s);
        }
    }
    // Store the segments in the square order of the pinned pieces.
    for (int i = 0; i < pins; i++) {
        const uint64_t piece = lines[i] & g->pinned;
        g->pin_line[bits_count(g->pinned & (piece - 1))] = lines[i];
    }
}

static int generate(const KdConfig *c, const KdPos *p, Move *out, bool legal, int limit,
                    bool captures)
{
    Gen g;
    init_gen(&g, c, p, out, legal, limit, captures);
    if (p->phase != KD_PHASE_PLAY) {
        gen_picks(&g);
        return g.n;
    }
    if (p->chain_sq != KD_NO_SQ) {
        gen_beast_captures(&g, p->chain_sq);
        return g.n;
    }
    switch (p->stage) {
    case KD_STAGE_START:
        gen_normal(&g, g.movable, true);
        if (c->armies && !captures && !full(&g))
            gen_powers(&g);
        break;
    case KD_STAGE_DECLARED:
        gen_normal(&g, g.movable, true);
        // tokens-per-turn=any: another Freeze or Ice Wall before the move (the stage
        // says the power is one of those two).
        if (c->tokens_any && !captures && !full(&g))
            gen_powers(&g);
        break;
    case KD_STAGE_HASTE1:
        gen_normal(&g, g.movable, false);
        break;
    case KD_STAGE_HASTE2:
        if (p->haste_sq != KD_NO_SQ && (g.movable & kd_bit(p->haste_sq)))
            gen_normal(&g, kd_bit(p->haste_sq), false);
        break;
    default:
        break;
    }
    return g.n;
}

int kd_gen_legal(const KdConfig *c, const KdPos *p, Move *out)
{
    return generate(c, p, out, true, KD_MAX_MOVES, false);
}

int kd_gen_pseudo(const KdConfig *c, const KdPos *p, Move *out)
{
    return generate(c, p, out, false, KD_MAX_MOVES, false);
}

int kd_gen_captures(const KdConfig *c, const KdPos *p, Move *out)
{
    return generate(c, p, out, true, KD_MAX_MOVES, true);
}

bool kd_has_legal(const KdConfig *c, const KdPos *p)
{
    Move one[1];
    return generate(c, p, one, true, 1, false) > 0;
}

bool kd_literal_mate(const KdConfig *c, const KdPos *p)
{
    const int us = p->turn;
    if (!kd_in_check(c, p, us))
        return false;
    Move moves[KD_MAX_MOVES];
    const int n = kd_gen_legal(c, p, moves);
    for (int i = 0; i < n; i++) {
        const int kind = kd_kind(moves[i]);
        if (kind != KD_MV_NORMAL && kind != KD_MV_SWAP && kind != KD_MV_CASTLE)
            continue;
        KdPos q = *p;
        kd_apply(c, &q, moves[i]);
        if (q.king[us] != p->king[us])
            return false;
    }
    return true;
}
