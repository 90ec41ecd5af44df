/*
 * timeman.c - the move budget from a clock (timeman.h). Spending an even share of what
 * is left keeps a reserve that shrinks geometrically, so a game of any length never runs
 * the clock out by design; the overhead kept back for every move still to come is what
 * a busy machine or slow pipes take on top of the search, so that the clock settles
 * well above zero when the increment is all that comes in.
 */
#include "search/timeman.h"

int64_t time_budget_ms(int64_t remaining_ms, int64_t inc_ms, int moves_to_go,
                       int64_t overhead_ms)
{
    const int64_t mtg = moves_to_go > 0 ? moves_to_go : TIME_MOVES_TO_GO_GUESS;
    if (remaining_ms < 0)
        remaining_ms = 0;
    if (inc_ms < 0)
        inc_ms = 0;
    if (overhead_ms < 0)
        overhead_ms = 0;
    const int64_t avail = remaining_ms + inc_ms * (mtg - 1) - overhead_ms * (mtg + 2);
    int64_t t = avail / mtg;
    if (t > remaining_ms / 3)
        t = remaining_ms / 3;
    if (t > remaining_ms - overhead_ms)
        t = remaining_ms - overhead_ms;
    return t < 1 ? 1 : t;
}
