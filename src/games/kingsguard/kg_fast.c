/*
 * kg_fast.c - perft and random playouts with direct calls instead of the interface.
 *
 * Perft counts the last action without making it ("bulk counting"): at the start of a
 * turn the pick-ups are one bitboard, in a turn in progress the placements are one
 * flood fill, plus "end" once a piece has been placed. A playout draws a uniform index
 * into the same bitboards, so it matches the generic random game action for action.
 */
#include "games/kingsguard/kg_internal.h"

static inline uint64_t count_actions(const KgConfig *c, const KgCore *k)
{
    if (k->result != KG_PLAYING)
        return 0;
    if (k->origin == KG_NO_SQ)
        return (uint64_t)kg_count(kg_picks(c, k));
    return (uint64_t)kg_count(kg_dests(c, k)) + (k->placed > 0);
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

/* The r-th (from 0) set bit of b, which has more than r bits. */
static inline int select_bit(KgBB b, int r)
{
    uint64_t w = (uint64_t)b;
    int base = 0;
    const int low = bits_count(w);
    if (r >= low) {
        r -= low;
        w = (uint64_t)(b >> 64);
        base = 64;
    }
    for (int i = 0; i < r; i++)
        w &= w - 1;
    return base + bits_lowest(w);
}

/* A 4096-bit Bloom filter of the turn starts seen in a playout (a game has at most a few
 * hundred): a position whose bit is clear has certainly not occurred before, so the
 * repetition scan can be skipped. */
typedef struct SeenFilter {
    uint64_t bits[64];
} SeenFilter;

static inline bool seen_add(SeenFilter *f, uint64_t hash)
{
    const unsigned i = (unsigned)(hash >> 52);
    const uint64_t bit = 1ULL << (i & 63);
    const bool was = (f->bits[i >> 6] & bit) != 0;
    f->bits[i >> 6] |= bit;
    return was;
}

void kg_playout(const KgConfig *c, KgState *s, Rng *rng)
{
    SeenFilter seen = {{0}};
    for (int i = 0; i < s->k.nhist; i++)
        seen_add(&seen, s->history[i]);
    KgCore *k = &s->k;
    while (k->result == KG_PLAYING) {
        const int mover = k->turn;
        Move m;
        if (k->origin == KG_NO_SQ) {
            const KgBB picks = kg_picks(c, k);
            const int n = kg_count(picks);
            m = kg_action(KG_PICK, select_bit(picks, (int)rng_below(rng, (uint32_t)n)), 0);
        } else {
            const KgBB dests = kg_dests(c, k);
            const int n = kg_count(dests);
            const int r = (int)rng_below(rng, (uint32_t)(n + (k->placed > 0)));
            m = r == n ? kg_action(KG_END, k->origin, 0)
                       : kg_action(KG_PLACE, k->origin, select_bit(dests, r));
        }
        // The turn-ending actions settle without the repetition scan; a position the
        // filter may have seen gets the scan afterwards.
        kg_apply(c, s, m, false);
        if (k->turn != mover && k->result == KG_PLAYING && seen_add(&seen, k->hash))
            kg_check_repetition(c, s);
    }
}
