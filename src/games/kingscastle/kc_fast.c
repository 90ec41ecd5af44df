/*
 * kc_fast.c - perft's bulk counting and random playouts with direct calls.
 *
 * Perft (game_perft) asks here for the last ply counted without listing it: placements
 * are one popcount, a single's moves the length of its open lines, a phalanx's moves a sum over its parts of the
 * cells its front may enter ("bulk counting"). A playout draws a uniform index over the
 * legal moves, picking a placement straight from the bitboard of free cells, so that
 * only the slides are ever listed.
 */
#include "games/kingscastle/kc_internal.h"

/* Moves of a single on `from` in direction d (see gen_single in kc_rules.c). */
static inline int count_single(const KcConfig *c, int from, int d, Bb128 occ)
{
    int x = from, dist = 0, stops = 0;
    for (;;) {
        const int y = c->step[d][x];
        if (y < 0 || (y == KC_THRONE && !c->single_cross) || bb128_has(occ, y) ||
            (!bb128_has(c->castle, x) && bb128_has(c->castle, y)))
            break;
        dist++;
        x = y;
        stops += x != KC_THRONE;
    }
    return c->single_full ? dist > 0 && x != KC_THRONE : stops;
}

/* Moves of the parts of a line of L men whose front is `front`, travelling d (see
 * gen_phalanx in kc_rules.c). */
static inline int count_phalanx(const KcConfig *c, int front, int d, int L, Bb128 own,
                                Bb128 opp)
{
    // first_run[k]: the cell index (1-based, ahead of the front) where the first opposing
    // run of at least k men starts; the front stops before it.
    int first_run[KC_MAX_LINE + 2];
    for (int k = 0; k <= KC_MAX_LINE + 1; k++)
        first_run[k] = KC_MAX_LINE + 1;
    int free_len = 0, run_start = 0, run_len = 0;
    for (int x = front;;) {
        const int y = c->step[d][x];
        if (y < 0 || y == KC_THRONE || bb128_has(own, y))
            break;
        free_len++;
        if (bb128_has(opp, y)) {
            if (run_len == 0)
                run_start = free_len;
            run_len++;
        } else if (run_len > 0) {
            for (int k = 1; k <= run_len; k++)
                if (first_run[k] > run_start)
                    first_run[k] = run_start;
            run_len = 0;
        }
        x = y;
    }
    for (int k = 1; k <= run_len; k++)
        if (first_run[k] > run_start)
            first_run[k] = run_start;
    int n = 0;
    for (int k = 2; k <= L; k++) {
        int limit = k < free_len ? k : free_len;
        const int stop = first_run[k] - 1 + (c->capture_entered ? k - 1 : 0);
        if (stop < limit)
            limit = stop;
        n += limit;
    }
    return n;
}

/* kc_gen_slides' walk over singles and fronts again, on purpose: counting must not write
 * moves to be fast, and the perft tests hold the two to the same numbers. */
static int count_slides(const KcConfig *c, const KcState *s)
{
    const int p = s->turn;
    const Bb128 own = kc_men(s, p) & ~c->throne_bit;
    const Bb128 opp = kc_men(s, 1 - p);
    const Bb128 occ = own | opp;
    const Bb128 grouped = own & kc_neighbours(c, own);
    int n = 0;
    Bb128 singles = own & ~grouped;
    while (singles) {
        const int x = bb128_pop(&singles);
        for (int d = 0; d < KC_DIRS; d++)
            n += count_single(c, x, d, occ);
    }
    // Fronts that way: men of a line along d's axis with no friendly man ahead.
    for (int d = 0; d < KC_DIRS; d++) {
        const int back = (d + 3) % KC_DIRS;
        const Bb128 has_behind = own & bb128_shift(own & c->conn_from[d], c->delta[d]);
        const Bb128 has_ahead = own & bb128_shift(own & c->conn_from[back], c->delta[back]);
        Bb128 fronts = has_behind & ~has_ahead;
        while (fronts) {
            const int x = bb128_pop(&fronts);
            int L = 1;
            for (int y = c->step[back][x]; y >= 0 && bb128_has(own, y); y = c->step[back][y])
                L++;
            n += count_phalanx(c, x, d, L, own, opp);
        }
    }
    return n;
}

int kc_count_moves(const KcConfig *c, const KcState *s)
{
    if (s->result != KC_PLAYING)
        return 0;
    return bb128_count(kc_placements(c, s)) + kc_throne_move_ok(c, s) + kc_swap_ok(c, s) +
           count_slides(c, s);
}

void kc_playout(const KcConfig *c, KcState *s, Rng *rng)
{
    Move moves[KC_MOVE_CAP];
    KcUndo u;
    while (s->result == KC_PLAYING) {
        Bb128 places = kc_placements(c, s);
        if (kc_throne_move_ok(c, s))
            places |= c->throne_bit;
        const int np = bb128_count(places);
        int ns = kc_gen_slides(c, s, moves);
        if (kc_swap_ok(c, s))
            moves[ns++] = kc_swap_move();
        const int r = (int)rng_below(rng, (uint32_t)(np + ns));
        const Move m = r < np ? kc_place(bb128_nth(places, r)) : moves[r - np];
        kc_make(c, s, m, &u);
    }
}
