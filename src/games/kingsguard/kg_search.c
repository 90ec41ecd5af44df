/*
 * kg_search.c - King's Guard's search hints for alpha-beta (game.h): which actions are
 * noisy, when the player to move is in check, and the null move.
 *
 * Nothing is ever removed from the board, so the material that changes hands is control:
 * a piece of the mover's put on a stack topped by the enemy takes the whole stack, and
 * a piece put on the enemy king wins. Those are the noisy actions, by the pieces they
 * take. "Check" is an enemy start square whose top piece reaches the mover's king at the
 * start of the mover's turn: he must parry this turn or lose. A pass is only offered
 * between turns, and not while the mover must dismantle a full tower, where moving may
 * well be worse than passing (zugzwang).
 *
 * Quiescence (alphabeta.c) needs a capture to be reachable through noisy actions, and a
 * turn's first action only picks a square up: a pick-up is noisy when the top piece it
 * lifts can take an enemy stack or the king, by the best of those. And the mover may
 * stop a turn only by ending it, which hands the move to the opponent: in a turn that a
 * taking is part of, quiescence does not stand pat but searches `end`
 * (kg_quiesce_finish; alphabeta.c asks only there), so that a stack taken and then taken
 * back is scored as the exchange it is.
 */
#include <string.h>

#include "games/kingsguard/kg_internal.h"

enum {
    NOISY_KING = 1 << 19, /* the action captures the enemy king */
    NOISY_PER_PIECE = 64, /* per piece of the enemy stack taken over */
};

/* A pick-up of sq: the best thing its top piece (the mover's) can take with the first
 * placement, valued as that placement would be. */
static int pick_noisy(const KgConfig *c, const KgCore *k, int sq)
{
    const int p = k->turn, q = p ^ 1, lv = k->height[sq] - 1;
    const Bb128 victims = kg_reach(c, sq, lv + 1, kg_empty(c, k)) & bb128_load(k->top[q]) &
                          ~bb128_load(k->full);
    if (victims == 0)
        return 0;
    if (bb128_has(victims, k->king[q]))
        return NOISY_KING;
    int tallest = 0;
    Bb128 v = victims;
    while (v) {
        const int h = k->height[bb128_pop(&v)];
        tallest = h > tallest ? h : tallest;
    }
    return NOISY_PER_PIECE * tallest + (KG_MAX_HEIGHT - lv);
}

int kg_noisy(const KgConfig *c, const KgState *s, Move m)
{
    const KgCore *k = &s->k;
    if (kg_kind(m) == KG_PICK)
        return pick_noisy(c, k, kg_a(m));
    if (kg_kind(m) != KG_PLACE)
        return 0;
    const int from = k->origin, to = kg_b(m), p = k->turn;
    if (to == k->king[p ^ 1])
        return NOISY_KING;
    const int lv = k->height[from] - 1;
    if (kg_owner_at(k, from, lv) != p || !bb128_has(bb128_load(k->top[p ^ 1]), to))
        return 0;
    // Lower pieces reach less far, so the one that takes is usually the cheaper to spend.
    return NOISY_PER_PIECE * k->height[to] + (KG_MAX_HEIGHT - lv);
}

bool kg_in_check(const KgConfig *c, const KgState *s)
{
    const KgCore *k = &s->k;
    if (k->result != KG_PLAYING || k->origin != KG_NO_SQ)
        return false;
    const int p = k->turn, king = k->king[p];
    if (k->height[king] >= c->limit)
        return false; // a king on a full tower cannot be captured
    const Bb128 empty = kg_empty(c, k);
    Bb128 starts = kg_starts(c, k, p ^ 1);
    while (starts) {
        const int sq = bb128_pop(&starts);
        if (bb128_has(kg_reach(c, sq, k->height[sq], empty), king))
            return true;
    }
    return false;
}

bool kg_make_null(const KgConfig *c, KgState *s, KgUndo *u)
{
    KgCore *k = &s->k;
    const int p = k->turn;
    if (k->result != KG_PLAYING || k->origin != KG_NO_SQ || k->ply + 1 >= c->max_plies ||
        (kg_starts(c, k, p) & bb128_load(k->full)) != 0 || kg_in_check(c, s))
        return false;
    memcpy(&u->k, k, sizeof u->k);
    k->hash ^= c->zobrist_second;
    k->turn ^= 1;
    k->ply++;
    rep_history_push(&k->hist, s->history, k->hash);
    kg_settle(c, s);
    return true;
}

Move kg_quiesce_finish(const KgConfig *c, const KgState *s)
{
    (void)c;
    const KgCore *k = &s->k;
    // Right after the pick-up nothing has happened yet, and the turn cannot end: the
    // mover may stand pat as at its start.
    if (k->result != KG_PLAYING || k->origin == KG_NO_SQ || k->placed == 0)
        return MOVE_NONE;
    return kg_action(KG_END, k->origin, 0);
}
