/*
 * kc_measure.c - what a designer asks of King's Castle games (crown lab): singles thrown,
 * men taken by phalanxes, men entering the Throne and Throne men lost, and whether Black
 * used the swap.
 */
#include "games/kingscastle/kc_internal.h"

enum { M_THROWS, M_PHALANX, M_THRONE_IN, M_THRONE_LOST, M_SWAP };

const GameMetric kc_metrics[KC_METRIC_COUNT] = {
    [M_THROWS] = {"throws", true},
    [M_PHALANX] = {"phalanx-captures", true},
    [M_THRONE_IN] = {"throne-entries", true},
    [M_THRONE_LOST] = {"throne-men-lost", true},
    [M_SWAP] = {"swap", false},
};

static bool on_throne(const KcState *s, int p)
{
    return (s->men[p][KC_THRONE >> 6] >> (KC_THRONE & 63)) & 1;
}

void kc_measure(const Game *g, const GameState *before, Move m, const GameState *after,
                double out[][MAX_PLAYERS])
{
    if (before == NULL)
        return;
    const KcState *b = (const KcState *)before, *a = (const KcState *)after;
    const int p = b->turn;
    if (kc_kind(m) == KC_SWAP)
        out[M_SWAP][0] += 1;
    if (kc_kind(m) == KC_SLIDE) {
        int thrown = -1;
        const Bb128 taken = kc_slide_captures(kc_cfg(g), b, m, &thrown);
        out[M_THROWS][p] += thrown >= 0;
        out[M_PHALANX][p] += bb128_count(taken);
    }
    for (int q = 0; q < 2; q++) {
        out[M_THRONE_IN][q] += !on_throne(b, q) && on_throne(a, q);
        out[M_THRONE_LOST][q] += on_throne(b, q) && !on_throne(a, q);
    }
}
