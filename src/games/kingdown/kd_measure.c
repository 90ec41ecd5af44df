/*
 * kd_measure.c - what a designer asks of King Down games (crown lab): captures, token
 * powers spent, and with armies on which army each side led (one 0-or-1 figure per army,
 * so the lab's "win rate of a seat with it" is that army's win rate), and the family of
 * a set-up: where the king stands on the back rank (edge: a or h, wing: b, c, f or g,
 * centre: d or e) and which of the pool's two single pieces, the queen and the paladin,
 * were drawn, as "centre/queen+paladin" (twelve families; docs/LAB.md).
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

void kd_setup_family(const Game *g, const GameState *s, StrBuf *out)
{
    (void)g;
    const KdPos *p = &((const KdState *)s)->pos;
    int king = -1;
    bool queen = false, paladin = false;
    for (int f = 0; f < 8; f++) {
        const int t = kd_type_at(p, f);
        king = t == KD_KING ? f : king;
        queen |= t == KD_QUEEN;
        paladin |= t == KD_PALADIN;
    }
    static const char *const ZONE[8] = {"edge", "wing", "wing", "centre",
                                        "centre", "wing", "wing", "edge"};
    sb_printf(out, "%s/%s", king >= 0 ? ZONE[king] : "no-king",
              queen && paladin ? "queen+paladin"
              : queen          ? "queen"
              : paladin        ? "paladin"
                               : "neither");
}
