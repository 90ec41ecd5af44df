/*
 * kg_fast.c - perft's bulk counting and random playouts with direct calls.
 *
 * Perft (game_perft) asks here for the last two actions, the last one counted without
 * making it ("bulk counting"): at the start of a turn the pick-ups are one bitboard, in a turn in
 * progress the placements are one flood fill, plus "end" once a piece has been placed. A playout draws a uniform index
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

bool kg_perft_leaves(const KgConfig *c, KgState *s, int depth, uint64_t *count)
{
    if (depth == 1) {
        *count = count_actions(c, &s->k);
        return true;
    }
    if (depth != 2)
        return false;
    // Turns are several actions, often few of them: the last two plies are counted here,
    // without the interface's indirect calls, which would weigh on so few moves.
    uint64_t total = 0;
    if (s->k.result == KG_PLAYING) {
        Move moves[KG_MAX_ACTIONS];
        const int n = kg_gen(c, s, moves);
        KgUndo u;
        for (int i = 0; i < n; i++) {
            kg_make(c, s, moves[i], &u);
            total += count_actions(c, &s->k);
            kg_unmake(s, &u);
        }
    }
    *count = total;
    return true;
}

void kg_playout(const KgConfig *c, KgState *s, Rng *rng)
{
    SeenFilter seen;
    seen_clear(&seen);
    for (int i = 0; i < s->k.hist.len; i++)
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
