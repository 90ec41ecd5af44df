/*
 * kg_eval.c - the King's Guard evaluation, in centi-units for the player to move.
 *
 * A king dies to any piece that reaches its square, and a piece reaches as far as it
 * stands high, so the evaluation is about stacks: the pieces a player controls (every
 * piece under his top piece is his to move), how far his top pieces reach (mobility),
 * how close his tall stacks stand to the enemy king, and the kings' exposure. The one
 * exact tactical fact is checked first: if the player to move can put a piece on the
 * enemy king with the piece he moves next, the position is won (two actions at most),
 * which keeps the search from stopping just short of a capture. A capture threat
 * against the player to move is only a penalty: he acts first and may parry it.
 */
#include "games/kingsguard/kg_internal.h"

enum {
    EVAL_CAPTURE_NOW = 30000, /* the player to move takes the king with his next piece */
    EVAL_PIECE = 100,         /* per piece in a stack the player controls */
    EVAL_MOBILITY = 3,        /* per square the top pieces can reach */
    EVAL_PRESSURE = 4,        /* per piece of a stack per step of closeness to the king */
    EVAL_THREAT = 250,        /* per enemy stack that can reach the king next turn */
    EVAL_THREAT_MORE = 400,   /* extra when there are two or more */
    EVAL_OPEN_SIDE = 12,      /* per empty square next to one's own king */
    EVAL_TEMPO = 15,
};

/* Steps between two squares on an empty board under the step rule. */
static int distance(const KgConfig *c, int a, int b)
{
    int df = a % c->stride - b % c->stride, dr = a / c->stride - b / c->stride;
    df = df < 0 ? -df : df;
    dr = dr < 0 ? -dr : dr;
    if (c->steps_all)
        return df > dr ? df : dr;
    return df + dr;
}

typedef struct SideScore {
    int score;
    int threats; /* start squares whose top piece can capture the enemy king */
} SideScore;

/* `mine`: the stacks p controls (in a turn in progress the start square is the mover's
 * whatever its top piece). */
static SideScore side_score(const KgConfig *c, const KgCore *k, int p, Bb128 mine, Bb128 empty)
{
    SideScore out = {0, 0};
    const int q = p ^ 1;
    const int their_king = k->king[q];
    const bool king_capturable = k->height[their_king] < c->limit;
    const Bb128 starts = kg_starts(c, k, p);
    const Bb128 blocked = bb128_load(k->full) | kg_king_bit(k, p);
    while (mine) {
        const int sq = bb128_pop(&mine);
        const int h = k->height[sq];
        out.score += EVAL_PIECE * h;
        const Bb128 reach = kg_reach(c, sq, h, empty) & ~blocked;
        out.score += EVAL_MOBILITY * bb128_count(reach);
        if (king_capturable && bb128_has(reach, their_king) && bb128_has(starts, sq))
            out.threats++;
        const int gap = distance(c, sq, their_king) - h;
        if (gap < 8)
            out.score += EVAL_PRESSURE * h * (8 - (gap > 0 ? gap : 0));
    }
    // The squares around one's king are where attacks land from.
    out.score -= EVAL_OPEN_SIDE * bb128_count(c->neighbours[k->king[p]] & empty);
    return out;
}

int kg_evaluate(const KgConfig *c, const KgState *s)
{
    const KgCore *k = &s->k;
    const int p = k->turn, q = p ^ 1;
    const Bb128 empty = kg_empty(c, k);
    if (k->origin != KG_NO_SQ) {
        // A turn in progress: can the next piece land on the enemy king?
        if (bb128_has(kg_dests(c, k), k->king[q]))
            return EVAL_CAPTURE_NOW;
    }
    Bb128 ours = bb128_load(k->top[p]), theirs = bb128_load(k->top[q]);
    if (k->origin != KG_NO_SQ) {
        ours |= bb128_bit(k->origin);
        theirs &= ~bb128_bit(k->origin);
    }
    const SideScore us = side_score(c, k, p, ours, empty);
    const SideScore them = side_score(c, k, q, theirs, empty);
    if (k->origin == KG_NO_SQ && us.threats > 0)
        return EVAL_CAPTURE_NOW;
    int v = us.score - them.score + EVAL_TEMPO;
    if (them.threats > 0)
        v -= EVAL_THREAT * them.threats + (them.threats > 1 ? EVAL_THREAT_MORE : 0);
    // In a turn in progress our threats come after the opponent's turn: he must parry.
    if (us.threats > 0)
        v += EVAL_THREAT * us.threats / 2;
    return v;
}
