/*
 * limits.c - the one piece of SearchLimits that is code: restricting the root moves
 * (UCI's searchmoves), shared by alpha-beta and MCTS so both read a restriction alike.
 */
#include "search/limits.h"

static bool listed(const SearchLimits *limits, Move m)
{
    for (int i = 0; i < limits->root_move_count; i++)
        if (limits->root_moves[i] == m)
            return true;
    return false;
}

int search_keep_root_moves(const SearchLimits *limits, MoveList *list)
{
    if (limits->root_moves == NULL || limits->root_move_count <= 0)
        return list->count;
    int kept = 0;
    for (int i = 0; i < list->count; i++)
        if (listed(limits, list->moves[i]))
            kept++;
    if (kept == 0)
        return list->count; // nothing named is legal here: the restriction does not apply
    kept = 0;
    for (int i = 0; i < list->count; i++)
        if (listed(limits, list->moves[i]))
            list->moves[kept++] = list->moves[i];
    list->count = kept;
    return kept;
}
