/*
 * kd_fast.c - perft's bulk counting without the interface's indirections: the last ply
 * is the length of the move list, and the two last plies a copy-make loop on the state
 * itself, with the history ring kept in step for repetitions. game_perft's recursion
 * asks here first at every node.
 *
 * A position reached at the start of a turn ends the game when the rules say so (the
 * draws, the literal mate); it then has no children, as in the generic perft. A position
 * without legal moves has none either way, so mates and stalemates need no test: that is
 * the work kd_make's full settling does and this loop saves.
 */
#include "games/kingdown/kd_internal.h"

static bool node_over(const KdConfig *c, const KdState *s)
{
    const KdPos *p = &s->pos;
    bool repeated = false;
    if (c->repetition && p->halfmove >= 4 && s->hist.len >= 5)
        repeated = kd_repetitions(s) >= 2;
    if (kd_draw_reason(c, p, repeated) != KD_REASON_NONE)
        return true;
    return c->mate_literal && kd_literal_mate(c, p);
}

/* Leaves two plies deep of a position still in play. */
static uint64_t count_two(const KdConfig *c, KdState *s)
{
    Move moves[KD_MAX_MOVES], replies[KD_MAX_MOVES];
    const int n = kd_gen_legal(c, &s->pos, moves);
    const KdPos saved = s->pos;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        kd_apply(c, &s->pos, moves[i]);
        if (kd_turn_start(&s->pos)) {
            const uint64_t old = rep_history_push_ring(&s->hist, s->history, s->pos.hash);
            if (!node_over(c, s))
                total += (uint64_t)kd_gen_legal(c, &s->pos, replies);
            rep_history_pop_ring(&s->hist, s->history, old);
        } else {
            total += (uint64_t)kd_gen_legal(c, &s->pos, replies);
        }
        s->pos = saved;
    }
    return total;
}

bool kd_perft_leaves(const KdConfig *c, KdState *s, int depth, uint64_t *count)
{
    if (depth > 2)
        return false;
    if (s->result != KD_PLAYING) {
        *count = 0;
        return true;
    }
    if (depth == 1) {
        Move moves[KD_MAX_MOVES];
        *count = (uint64_t)kd_gen_legal(c, &s->pos, moves);
    } else {
        *count = count_two(c, s);
    }
    return true;
}
