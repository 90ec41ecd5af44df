/*
 * kv_eval.c - the King's Valley evaluation, in centi-units for the player to move.
 *
 * A king wins by sliding onto the Valley and needs a stopper just beyond it, so the
 * evaluation looks at approach lanes: from the Valley outwards in each direction, the
 * empty squares up to the first man, on lanes whose far side is blocked. A king on such
 * a lane threatens to win next move; a king that can slide onto one threatens to win in
 * two. A king with few free neighbours risks being locked in, which loses.
 */
#include "games/kingsvalley/kv_internal.h"

enum {
    EVAL_THREAT_NOW = 140,   /* per king slide that ends on the Valley */
    EVAL_THREAT_NEXT = 35,   /* per king slide that ends on an open lane */
    EVAL_DISTANCE = 18,      /* per step of king distance from the Valley */
    EVAL_FREE_NEIGHBOUR = 6, /* per free square next to the king */
    EVAL_CRAMPED_1 = 90,     /* penalty: one free neighbour left */
    EVAL_CRAMPED_2 = 25,     /* penalty: two free neighbours left */
    EVAL_TEMPO = 8,
};

static int chebyshev(const KvConfig *c, int a, int b)
{
    int df = a % c->size - b % c->size, dr = a / c->size - b / c->size;
    df = df < 0 ? -df : df;
    dr = dr < 0 ? -dr : dr;
    return df > dr ? df : dr;
}

static int side_score(const KvConfig *c, const KvState *s, int p, uint64_t occ, uint64_t lanes)
{
    const int k = s->king[p];
    int score = -EVAL_DISTANCE * chebyshev(c, k, c->valley);
    const int free_n = bits_count(c->neighbours[k] & ~occ);
    score += EVAL_FREE_NEIGHBOUR * free_n;
    if (free_n == 1)
        score -= EVAL_CRAMPED_1;
    else if (free_n == 2)
        score -= EVAL_CRAMPED_2;
    for (int d = 0; d < KV_DIRS; d++) {
        const int to = kv_slide(c, k, d, occ);
        if (to == k)
            continue;
        if (to == c->valley)
            score += EVAL_THREAT_NOW;
        else if (lanes & (1ULL << to))
            score += EVAL_THREAT_NEXT;
    }
    return score;
}

int kv_evaluate(const KvConfig *c, const KvState *s)
{
    const uint64_t occ = kv_occupied(c, s);
    const uint64_t lanes = kv_lanes_to_valley(c, occ);
    const int p = s->turn;
    return side_score(c, s, p, occ, lanes) - side_score(c, s, 1 - p, occ, lanes) + EVAL_TEMPO;
}
