/*
 * kotv_measure.c - what a designer asks of King of the Valley games (crown lab): where
 * each player's reputation came from at the end, source by source (influence, kingdom
 * tokens, gold, the knight-order bonus, the couple bonus; they add up to the reputation),
 * and the characters each player picked: a tile recruited from the hill, taken on a
 * summon leg (a priest paid counts: the player chose his square) or swapped in by a
 * wizard. Counted per character, so the lab's "win rate of a seat with it" is the
 * character's win rate when picked.
 */
#include "games/kingofthevalley/kotv_internal.h"

enum { M_INFLUENCE, M_KINGDOM, M_GOLD, M_ORDERS, M_COUPLES, M_PICKED };

const GameMetric kotv_metrics[KOTV_METRIC_COUNT] = {
    [M_INFLUENCE] = {"points-influence", true}, [M_KINGDOM] = {"points-kingdom", true},
    [M_GOLD] = {"points-gold", true},           [M_ORDERS] = {"points-orders", true},
    [M_COUPLES] = {"points-couples", true},
    [M_PICKED + KCH_QUEEN] = {"picked-queen", true},
    [M_PICKED + KCH_DUKE] = {"picked-duke", true},
    [M_PICKED + KCH_COUNTESS] = {"picked-countess", true},
    [M_PICKED + KCH_KNIGHT] = {"picked-knight", true},
    [M_PICKED + KCH_FARMER] = {"picked-farmer", true},
    [M_PICKED + KCH_WIFE] = {"picked-wife", true},
    [M_PICKED + KCH_JESTER] = {"picked-jester", true},
    [M_PICKED + KCH_PRIEST] = {"picked-priest", true},
    [M_PICKED + KCH_WIZARD] = {"picked-wizard", true},
    [M_PICKED + KCH_TAX] = {"picked-tax-collector", true},
};

_Static_assert(KOTV_METRIC_COUNT == M_PICKED + KCH_COUNT, "one figure per character");

static void picked(const KotvConfig *c, int kind, int p, double out[][MAX_PLAYERS])
{
    if (kind >= 0)
        out[M_PICKED + c->kind[kind].ch][p] += 1;
}

void kotv_measure(const Game *g, const GameState *before, Move m, const GameState *after,
                  double out[][MAX_PLAYERS])
{
    const KotvConfig *c = kotv_cfg(g);
    if (before != NULL) {
        const KotvState *b = (const KotvState *)before;
        const int p = b->turn;
        switch (kotv_mtype(m)) {
        case KMV_RECRUIT:
            picked(c, kotv_kind_at(b->hill[kotv_recruit_hcol(m)][kotv_recruit_row(m)]), p, out);
            break;
        case KMV_SWAP:
            picked(c, kotv_kind_at(b->hill[kotv_swap_hcol(m)][kotv_swap_row(m)]), p, out);
            break;
        case KMV_LEG: {
            const int8_t *ray = c->ray[kotv_leg_dir(m)][kotv_leg_from(m)];
            const int mask = kotv_leg_mask(m);
            if (mask == 0)
                picked(c, kotv_kind_at(b->valley[ray[kotv_leg_dist(m) - 1]]), p, out);
            for (int i = 0; i < KOTV_RAY; i++)
                if ((mask >> i) & 1)
                    picked(c, kotv_kind_at(b->valley[ray[i]]), p, out);
            break;
        }
        default:
            break;
        }
        return; /* the points come from the final reckoning */
    }
    const KotvState *s = (const KotvState *)after;
    for (int p = 0; p < s->players; p++) {
        out[M_INFLUENCE][p] = kotv_influence(c, s, p);
        out[M_KINGDOM][p] = KOTV_KINGDOM_POINTS * s->pl[p].crowns;
        out[M_GOLD][p] = s->pl[p].gold;
        out[M_ORDERS][p] = kotv_order_bonus(c, s, p);
        out[M_COUPLES][p] = kotv_couple_bonus(c, s, p);
    }
}
