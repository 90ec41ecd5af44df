/*
 * timeman.c - the move budget from a clock (timeman.h). Spending a twentieth of what is
 * left keeps a reserve that shrinks geometrically, so a game of any length never flags;
 * the increment comes back after the move, so most of it may be spent at once.
 */
#include "search/timeman.h"

int64_t time_budget_ms(int64_t remaining_ms, int64_t inc_ms, int moves_to_go)
{
    const int64_t mtg = moves_to_go > 0 ? moves_to_go : TIME_MOVES_TO_GO_GUESS;
    if (remaining_ms < 0)
        remaining_ms = 0;
    if (inc_ms < 0)
        inc_ms = 0;
    int64_t t = remaining_ms / mtg + inc_ms * 4 / 5;
    if (t > remaining_ms / 3 + inc_ms / 2)
        t = remaining_ms / 3 + inc_ms / 2;
    if (t > remaining_ms - TIME_SAFETY_MS)
        t = remaining_ms - TIME_SAFETY_MS;
    return t < 1 ? 1 : t;
}
