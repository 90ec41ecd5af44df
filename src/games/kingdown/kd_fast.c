/*
 * kd_fast.c - perft without the interface's indirections: copy-make of the position on
 * the state itself, the history ring kept in step for repetitions, and bulk counting
 * (the last ply is the length of the move list).
 *
 * A position reached at the start of a turn ends the game when the rules say so (the
 * draws, the literal mate); it then has no children, as in the generic perft. A position
 * without legal moves has none either way, so mates and stalemates need no test.
 */
#include "games/kingdown/kd_internal.h"

static bool node_over(const KdConfig *c, const KdState *s)
{
    const KdPos *p = &s->pos;
    bool repeated = false;
    if (c->repetition && p->halfmove >= 4 && kd_plies(p) - s->base >= 4)
        repeated = kd_repetitions(c, s) >= 2;
    if (kd_draw_reason(c, p, repeated) != KD_REASON_NONE)
        return true;
    return c->mate_literal && kd_literal_mate(c, p);
}

static uint64_t perft_rec(const KdConfig *c, KdState *s, int depth)
{
    Move moves[KD_MAX_MOVES];
    const int n = kd_gen_legal(c, &s->pos, moves);
    if (depth == 1)
        return (uint64_t)n;
    const uint32_t cap = (uint32_t)c->hist_cap;
    const KdPos saved = s->pos;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        kd_apply(c, &s->pos, moves[i]);
        const uint32_t idx = kd_plies(&s->pos) % cap;
        const uint64_t old = s->hist[idx];
        const bool start = kd_turn_start(&s->pos);
        if (start)
            s->hist[idx] = s->pos.hash;
        if (!(start && node_over(c, s)))
            total += perft_rec(c, s, depth - 1);
        s->hist[idx] = old;
        s->pos = saved;
    }
    return total;
}

uint64_t kd_perft(const KdConfig *c, KdState *s, int depth)
{
    if (depth <= 0)
        return 1;
    if (s->result != KD_PLAYING)
        return 0;
    return perft_rec(c, s, depth);
}
