/*
 * kg_measure.c - what a designer asks of King's Guard games (crown lab): the tallest
 * tower a game reached, how often a player had to take a full tower apart (the rule
 * offers only full towers when he has a movable one), and how many stacks each player
 * took over by placing a piece on an enemy top.
 */
#include "games/kingsguard/kg_internal.h"

enum { M_TALLEST, M_DISMANTLED, M_TAKEOVERS };

const GameMetric kg_metrics[KG_METRIC_COUNT] = {
    [M_TALLEST] = {"tallest-tower", false},
    [M_DISMANTLED] = {"full-tower-dismantled", true},
    [M_TAKEOVERS] = {"stacks-taken-over", true},
};

static int top_owner(const KgCore *k, int sq)
{
    return k->height[sq] ? (k->owners[sq] >> (k->height[sq] - 1)) & 1 : -1;
}

void kg_measure(const Game *g, const GameState *before, Move m, const GameState *after,
                double out[][MAX_PLAYERS])
{
    const KgConfig *c = kg_cfg(g);
    const KgCore *a = &((const KgState *)after)->k;
    for (int sq = 0; sq < c->squares; sq++)
        if (a->height[sq] > out[M_TALLEST][0])
            out[M_TALLEST][0] = a->height[sq];
    if (before == NULL)
        return;
    const KgCore *b = &((const KgState *)before)->k;
    const int p = b->turn;
    if (kg_kind(m) == KG_PICK)
        out[M_DISMANTLED][p] += b->height[kg_a(m)] == c->limit;
    else if (kg_kind(m) == KG_PLACE)
        out[M_TAKEOVERS][p] += top_owner(b, kg_b(m)) == 1 - p;
}
