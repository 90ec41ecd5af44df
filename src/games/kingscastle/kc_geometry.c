/*
 * kc_geometry.c - the board of King's Castle as R-KC-1 fixes it: a hexagon of
 * radius 5 (91 cells) with the Castle at its centre.
 *
 * The Castle is the Throne (0,0), the six inner cells around it and the six entrance
 * cells: the cells at distance 2 that are not on a line through the Throne. The other
 * six cells at distance 2 ("corner" cells) are outside. Each entrance cell has two doors,
 * its edges to the two cells at distance 3 beyond it; every other edge between a castle
 * cell and an outside cell is a wall (three around each corner cell, eighteen in all).
 * A wall cuts the two cells apart for every rule: they are not neighbours.
 */
#include "games/kingscastle/kc_internal.h"

/* Directions in axial (q, r), counter-clockwise from east; d and d + 3 are opposite. */
static const int8_t DQ[KC_DIRS] = {1, 1, 0, -1, -1, 0};
static const int8_t DR[KC_DIRS] = {0, -1, -1, 0, 1, 1};

static int distance(int q, int r)
{
    const int s = -q - r;
    const int aq = q < 0 ? -q : q, ar = r < 0 ? -r : r, as = s < 0 ? -s : s;
    return aq > ar ? (aq > as ? aq : as) : (ar > as ? ar : as);
}

static bool is_castle(int q, int r)
{
    const int dist = distance(q, r);
    return dist <= 1 || (dist == 2 && q != 0 && r != 0 && q + r != 0);
}

void kc_build_geometry(KcConfig *c)
{
    for (int d = 0; d < KC_DIRS; d++)
        c->delta[d] = (int8_t)(DR[d] * KC_SIDE + DQ[d]);
    c->throne_bit = bb128_bit(KC_THRONE);
    for (int cell = 0; cell < KC_GRID; cell++) {
        const int q = kc_q(cell), r = kc_r(cell);
        for (int d = 0; d < KC_DIRS; d++) {
            c->step[d][cell] = -1;
            c->raw_step[d][cell] = -1;
        }
        if (!kc_on_board(q, r))
            continue;
        c->board |= bb128_bit(cell);
        if (is_castle(q, r))
            c->castle |= bb128_bit(cell);
        if (distance(q, r) == 1)
            c->inner |= bb128_bit(cell);
        for (int d = 0; d < KC_DIRS; d++) {
            const int nq = q + DQ[d], nr = r + DR[d];
            if (!kc_on_board(nq, nr))
                continue;
            const int n = kc_index(nq, nr);
            c->raw_step[d][cell] = (int8_t)n;
            const bool crosses = is_castle(q, r) != is_castle(nq, nr);
            // A castle edge is a door when it joins an entrance cell (distance 2) to a
            // cell at distance 3; the corner cells at distance 2 are walled off.
            const bool is_door = crosses && (distance(q, r) == 3 || distance(nq, nr) == 3);
            c->door[cell][d] = is_door;
            c->wall[cell][d] = crosses && !is_door;
            if (c->wall[cell][d])
                continue;
            c->step[d][cell] = (int8_t)n;
            c->conn_from[d] |= bb128_bit(cell);
            c->nbr[cell] |= bb128_bit(n);
        }
    }
    c->outside = c->board & ~c->castle;
    // The door approaches, in cell order of the entrance cells.
    int n = 0;
    for (int cell = 0; cell < KC_GRID; cell++)
        for (int d = 0; d < KC_DIRS; d++) {
            if (!c->door[cell][d] || !bb128_has(c->castle, cell))
                continue;
            const int in = (d + 3) % KC_DIRS;
            int x = cell;
            for (int i = 0; i < 3; i++)
                c->approach[n][i] = (int8_t)(x = c->step[d][x]);
            x = cell;
            for (int i = 0; i < 4; i++, x = c->step[in][x])
                c->inward[n][i] = (int8_t)x;
            c->approach_dir[n++] = (int8_t)in;
        }
    // Opposite inner cells: (1,0)/(-1,0), (0,1)/(0,-1), (1,-1)/(-1,1).
    for (int i = 0; i < 3; i++)
        c->pair_mask[i] = bb128_bit(kc_index(DQ[i], DR[i])) | bb128_bit(kc_index(-DQ[i], -DR[i]));
    // Hash keys come from a fixed seed so that hashes are the same in every run.
    uint64_t seed = 0x6B632D636173746CULL;
    for (int p = 0; p < 2; p++)
        for (int cell = 0; cell < KC_GRID; cell++)
            c->zobrist[p][cell] = rng_mix(&seed);
    c->zobrist_black = rng_mix(&seed);
}
