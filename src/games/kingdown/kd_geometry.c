/*
 * kd_geometry.c - the read-only tables of the 8x8 board: the leaps of every piece, the
 * rays of the sliders, lines between squares, and the hash keys.
 *
 * The leaps are written once as (file, rank) offsets; every table is derived from them,
 * so a piece's geometry is data, not code (the Fairy-Max lesson).
 */
#include "games/kingdown/kd_internal.h"

const int kd_dir_delta[8] = {8, 9, 1, 7, -8, -9, -1, -7};
static const int8_t DIR_DF[8] = {0, 1, 1, -1, 0, -1, -1, 1};
static const int8_t DIR_DR[8] = {1, 1, 0, 1, -1, -1, 0, -1};

typedef struct Leap {
    int8_t df, dr;
} Leap;

static const Leap KNIGHT_LEAPS[8] = {{1, 2}, {2, 1}, {2, -1}, {1, -2},
                                     {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
static const Leap WAZIR_LEAPS[4] = {{0, 1}, {1, 0}, {0, -1}, {-1, 0}};
static const Leap FERZ_LEAPS[4] = {{1, 1}, {1, -1}, {-1, -1}, {-1, 1}};
/* The archer's shots: the diagonal neighbours and two squares away orthogonally. */
static const Leap ARCHER_LEAPS[8] = {{1, 1}, {1, -1}, {-1, -1}, {-1, 1},
                                     {0, 2}, {2, 0}, {0, -2}, {-2, 0}};

static uint64_t leaps_from(int sq, const Leap *l, int n)
{
    uint64_t set = 0;
    for (int i = 0; i < n; i++) {
        const int f = kd_file(sq) + l[i].df, r = kd_rank(sq) + l[i].dr;
        if (f >= 0 && f < 8 && r >= 0 && r < 8)
            set |= kd_bit(r * 8 + f);
    }
    return set;
}

void kd_build_geometry(KdConfig *c)
{
    for (int sq = 0; sq < 64; sq++) {
        c->knight[sq] = leaps_from(sq, KNIGHT_LEAPS, 8);
        c->wazir[sq] = leaps_from(sq, WAZIR_LEAPS, 4);
        c->ferz[sq] = leaps_from(sq, FERZ_LEAPS, 4);
        c->king[sq] = c->wazir[sq] | c->ferz[sq];
        c->archer[sq] = leaps_from(sq, ARCHER_LEAPS, 8);
        for (int col = 0; col < 2; col++) {
            const int dr = col == 0 ? 1 : -1;
            const Leap ahead[1] = {{0, (int8_t)dr}};
            const Leap diag[2] = {{1, (int8_t)dr}, {-1, (int8_t)dr}};
            c->fwd[col][sq] = leaps_from(sq, ahead, 1);
            c->pawn_att[col][sq] = leaps_from(sq, diag, 2);
        }
        for (int d = 0; d < 8; d++) {
            c->ray[d][sq] = 0;
            int f = kd_file(sq) + DIR_DF[d], r = kd_rank(sq) + DIR_DR[d];
            while (f >= 0 && f < 8 && r >= 0 && r < 8) {
                c->ray[d][sq] |= kd_bit(r * 8 + f);
                f += DIR_DF[d];
                r += DIR_DR[d];
            }
        }
    }
    for (int a = 0; a < 64; a++) {
        for (int b = 0; b < 64; b++) {
            c->between[a][b] = 0;
            c->line[a][b] = 0;
        }
        for (int d = 0; d < 8; d++) {
            uint64_t r = c->ray[d][a];
            while (r) {
                const int b = bits_pop(&r);
                c->between[a][b] = c->ray[d][a] & ~c->ray[d][b] & ~kd_bit(b);
                c->line[a][b] = c->ray[d][a] | c->ray[(d + 4) & 7][a] | kd_bit(a);
            }
        }
    }
    // Hash keys come from a fixed seed so that hashes are the same in every run.
    uint64_t seed = 0x4B696E67446F776EULL;
    for (int col = 0; col < 2; col++)
        for (int t = 0; t < KD_TYPES; t++)
            for (int sq = 0; sq < 64; sq++)
                c->z_piece[col][t][sq] = t == KD_EMPTY ? 0 : rng_mix(&seed);
    c->z_side = rng_mix(&seed);
    for (int sq = 0; sq < 64; sq++) {
        c->z_castle[sq] = rng_mix(&seed);
        c->z_ep[sq] = rng_mix(&seed);
        c->z_moved[sq] = rng_mix(&seed);
        c->z_chain[sq] = rng_mix(&seed);
        c->z_haste[sq] = rng_mix(&seed);
        c->z_frozen[sq] = rng_mix(&seed);
        c->z_iced[sq] = rng_mix(&seed);
    }
    for (int i = 0; i <= KD_MAX_CHAIN; i++)
        c->z_chain_n[i] = i == 0 ? 0 : rng_mix(&seed);
    for (int i = 0; i < 4; i++)
        c->z_stage[i] = i == 0 ? 0 : rng_mix(&seed);
    c->z_token_used = rng_mix(&seed);
    for (int i = 0; i < 3; i++)
        c->z_phase[i] = i == 0 ? 0 : rng_mix(&seed);
    for (int col = 0; col < 2; col++) {
        for (int i = 0; i < KD_ARMIES; i++)
            c->z_army[col][i] = i == 0 ? 0 : rng_mix(&seed);
        for (int i = 0; i < KD_POWERS; i++)
            c->z_power[col][i] = i == 0 ? 0 : rng_mix(&seed);
        for (int i = 0; i < 8; i++)
            c->z_tokens[col][i] = i == 0 ? 0 : rng_mix(&seed);
        for (int t = 0; t < KD_TYPES; t++)
            for (int n = 0; n < 16; n++)
                c->z_captured[col][t][n] = n == 0 ? 0 : rng_mix(&seed);
    }
}
