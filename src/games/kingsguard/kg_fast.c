/*
 * kg_fast.c - perft and random playouts with direct calls instead of the interface.
 *
 * Perft counts the last action without making it ("bulk counting"): at the start of a
 * turn the pick-ups are one bitboard, in a turn in progress the placements are one
 * flood fill, plus "end" once a piece has been placed. A playout draws a uniform index
 * into the same bitboards, so it matches the generic random game action for action.
 */
#include "core/seen_filter.h"
#include "games/kingsguard/kg_internal.h"

static inline uint64_t count_actions(const KgConfig *c, const KgCore *k)
{
    if (k->result != KG_PLAYING)
        return 0;
    if (k->origin == KG_NO_SQ)
        return (uint64_t)bb128_count(kg_picks(c, k));
    return (uint64_t)bb128_count(kg_dests(c, k)) + (k->placed > 0);
}

uint64_t kg_perft(const KgConfig *c, KgState *s, int depth)
{
    if (depth <= 0)
        return 1;
    if (depth == 1)
        return count_actions(c, &s->k);
    if (s->k.result != KG_PLAYING)
        return 0;
    Move moves[KG_MAX_ACTIONS];
    const int n = kg_gen(c, s, moves);
    uint64_t total = 0;
    KgUndo u;
    for (int i = 0; i < n; i++) {
        kg_make(c, s, moves[i], &u);
        total += kg_perft(c, s, depth - 1);
        kg_unmake(s, &u);
    }
    return total;
}

void kg_playout(const KgConfig *c, KgState *s, Rng *rng)
{
    SeenFilter seen;
    seen_clear(&seen);
    for (int i = 0; i < s->k.nhist; i++)
        seen_add(&seen, s->history[i]);
    KgCore *k = &s->k;
    while (k->result == KG_PLAYING) {
        const int mover = k->turn;
        Move m;
        if (k->origin == KG_NO_SQ) {
            const Bb128 picks = kg_picks(c, k);
            const int n = bb128_count(picks);
            m = kg_action(KG_PICK, bb128_nth(picks, (int)rng_below(rng, (uint32_t)n)), 0);
        } else {
            const Bb128 dests = kg_dests(c, k);
            const int n = bb128_count(dests);
            const int r = (int)rng_below(rng, (uint32_t)(n + (k->placed > 0)));
            m = r == n ? kg_action(KG_END, k->origin, 0)
                       : kg_action(KG_PLACE, k->origin, bb128_nth(dests, r));
        }
        // The turn-ending actions settle without the repetition scan; a position the
        // filter may have seen gets the scan afterwards.
        kg_apply(c, s, m, false);
        if (k->turn != mover && k->result == KG_PLAYING && seen_add(&seen, k->hash))
            kg_check_repetition(c, s);
    }
}
