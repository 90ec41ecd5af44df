/*
 * kotv_measure.c - what a designer asks of King of the Valley games (crown lab): where
 * each player's reputation came from at the end, source by source (influence, kingdom
 * tokens, gold, the knight-order bonus, the couple bonus; they add up to the reputation).
 */
#include "games/kingofthevalley/kotv_internal.h"

enum { M_INFLUENCE, M_KINGDOM, M_GOLD, M_ORDERS, M_COUPLES };

const GameMetric kotv_metrics[KOTV_METRIC_COUNT] = {
    [M_INFLUENCE] = {"points-influence", true}, [M_KINGDOM] = {"points-kingdom", true},
    [M_GOLD] = {"points-gold", true},           [M_ORDERS] = {"points-orders", true},
    [M_COUPLES] = {"points-couples", true},
};

void kotv_measure(const Game *g, const GameState *before, Move m, const GameState *after,
                  double out[][MAX_PLAYERS])
{
    (void)m;
    if (before != NULL)
        return; /* only the final reckoning counts */
    const KotvConfig *c = kotv_cfg(g);
    const KotvState *s = (const KotvState *)after;
    for (int p = 0; p < s->players; p++) {
        out[M_INFLUENCE][p] = kotv_influence(c, s, p);
        out[M_KINGDOM][p] = KOTV_KINGDOM_POINTS * s->pl[p].crowns;
        out[M_GOLD][p] = s->pl[p].gold;
        out[M_ORDERS][p] = kotv_order_bonus(c, s, p);
        out[M_COUPLES][p] = kotv_couple_bonus(c, s, p);
    }
}
