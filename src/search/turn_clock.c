/*
 * turn_clock.c - one time budget per turn of several actions (turn_clock.h).
 */
#include "search/turn_clock.h"

#include "core/clock.h"

void turn_clock_init(TurnClock *tc)
{
    *tc = (TurnClock){.active = false, .player = PLAYER_NONE};
}

/* Whether some legal action in `work` leaves the same player to act. */
static bool turn_may_go_on(const Game *g, GameState *work, void *undo, MoveList *list)
{
    const GameOps *ops = g->ops;
    const int p = ops->to_move(g, work);
    const int n = ops->gen_moves(g, work, list);
    for (int i = 0; i < n; i++) {
        ops->make(g, work, list->moves[i], undo);
        const bool same = ops->to_move(g, work) == p;
        ops->unmake(g, work, list->moves[i], undo);
        if (same)
            return true;
    }
    return false;
}

int64_t turn_clock_plan(TurnClock *tc, const Game *g, GameState *work, void *undo,
                        MoveList *list, int64_t budget_ms)
{
    if (budget_ms <= 0)
        return budget_ms;
    const int p = g->ops->to_move(g, work);
    const int64_t now = clock_ms();
    const bool same_turn =
        tc->active && tc->player == p && tc->next_key == g->ops->hash(g, work);
    if (!same_turn) {
        tc->active = true;
        tc->player = p;
        tc->start_ms = now;
        tc->budget_ms = budget_ms;
    }
    int64_t left = tc->budget_ms - (now - tc->start_ms);
    if (turn_may_go_on(g, work, undo, list))
        left /= 2;
    return left >= 1 ? left : 1;
}

void turn_clock_played(TurnClock *tc, const Game *g, GameState *work, void *undo, Move m)
{
    const GameOps *ops = g->ops;
    const int p = ops->to_move(g, work);
    ops->make(g, work, m, undo);
    tc->active = ops->to_move(g, work) == p;
    tc->next_key = ops->hash(g, work);
    ops->unmake(g, work, m, undo);
}
