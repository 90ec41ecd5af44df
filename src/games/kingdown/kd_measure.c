/*
 * kd_measure.c - what a designer asks of King Down games (crown lab): captures, token
 * powers spent, and with armies on which army each side led (one 0-or-1 figure per army,
 * so the lab's "win rate of a seat with it" is that army's win rate).
 */
#include "games/kingdown/kd_internal.h"

#include "core/bits.h"

enum { M_CAPTURES, M_POWERS, M_ARMY0 };

const GameMetric kd_metrics[KD_METRIC_COUNT] = {
    [M_CAPTURES] = {"captures", true},     [M_POWERS] = {"powers-used", true},
    [M_ARMY0 + 0] = {"army-frost", true},  [M_ARMY0 + 1] = {"army-flame", true},
    [M_ARMY0 + 2] = {"army-stratus", true}, [M_ARMY0 + 3] = {"army-mud", true},
    [M_ARMY0 + 4] = {"army-spirit", true}, [M_ARMY0 + 5] = {"army-shadow", true},
};

_Static_assert(KD_METRIC_COUNT == M_ARMY0 + KD_ARMIES - 1, "one figure per army");

void kd_measure(const Game *g, const GameState *before, Move m, const GameState *after,
                double out[][MAX_PLAYERS])
{
    (void)g;
    const KdPos *a = &((const KdState *)after)->pos;
    if (before == NULL) {
        for (int p = 0; p < 2; p++)
            if (a->army[p] > KD_ARMY_NONE && a->army[p] < KD_ARMIES)
                out[M_ARMY0 + a->army[p] - 1][p] = 1;
        return;
    }
    const KdPos *b = &((const KdState *)before)->pos;
    const int p = b->turn;
    // Enemy pieces leave the board only when taken (the captured counts are kept with
    // armies only).
    out[M_CAPTURES][p] += bits_count(b->side[1 - p]) - bits_count(a->side[1 - p]);
    out[M_POWERS][p] += kd_kind(m) >= KD_MV_FREEZE;
}
