/*
 * kv_measure.c - what a designer asks of King's Valley games (crown lab): how often the
 * 7x7 trap-prevention rule took moves away, how often a king was locked in (which
 * decides the game when locked-king-loses is on, and only hinders it when off), and how
 * much the kings themselves moved.
 */
#include "games/kingsvalley/kv_internal.h"

enum { M_TRAP, M_LOCKED, M_KING_MOVES };

const GameMetric kv_metrics[KV_METRIC_COUNT] = {
    [M_TRAP] = {"trap-rule-fired", true},
    [M_LOCKED] = {"king-locked", true},
    [M_KING_MOVES] = {"king-moves", true},
};

void kv_measure(const Game *g, const GameState *before, Move m, const GameState *after,
                double out[][MAX_PLAYERS])
{
    const KvConfig *c = kv_cfg(g);
    const KvState *a = (const KvState *)after;
    if (before == NULL)
        return; /* every position was counted as it was reached */
    const KvState *b = (const KvState *)before;
    const int p = b->turn;
    if (c->trap != KV_TRAP_OFF) {
        Move moves[KV_MAX_CELLS * KV_DIRS];
        const int n = kv_gen_pseudo(c, b, moves);
        out[M_TRAP][p] += kv_trap_filter(c, b, moves, n) < n;
    }
    out[M_KING_MOVES][p] += kv_from(m) == b->king[p];
    out[M_LOCKED][a->turn] += kv_king_locked(c, a, a->turn);
}
