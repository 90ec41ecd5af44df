/*
 * kg_observe.c - King's Guard positions as observations (core/observation.h): one
 * square board whose cells hold stacks listed bottom first, guards and kings by owner;
 * the start square of a turn in progress as the terrain mark "origin"; the turns played
 * and the pieces placed so far this turn as counters. The pieces a turn still has to
 * carry are the ones left on the origin's stack, so they need no list of their own.
 */
#include <stdio.h>

#include "games/kingsguard/kg_internal.h"

enum { KIND_GUARD, KIND_KING };
enum { TERRAIN_ORIGIN };
enum { COUNTER_TURNS, COUNTER_PLACED };

void kg_obs_schema(KgConfig *c)
{
    c->obs = (ObsSchema){
        .players = 2,
        .max_stack = c->limit,
        .zone_count = 1,
        .zones = {{"board", OBS_SQUARE, c->files, c->ranks}},
        .kind_count = 2,
        .kinds = {"guard", "king"},
        .terrain_count = 1,
        .terrains = {"origin"},
        .counter_count = 2,
        .counters = {{"turns", false}, {"placed", false}},
    };
    // Names come from the notation's own writer, once: observe runs per position.
    StrBuf name;
    sb_init(&name);
    for (int rank = 0; rank < c->ranks; rank++)
        for (int file = 0; file < c->files; file++) {
            const int sq = rank * c->stride + file;
            sb_clear(&name);
            kg_format_square(c, sq, &name);
            snprintf(c->obs_names[sq], OBS_NAME_LEN, "%s", sb_str(&name));
        }
    sb_free(&name);
}

void kg_observe(const KgConfig *c, const KgState *s, int observer, Observation *o)
{
    const KgCore *k = &s->k;
    obs_begin(o, observer, k->result == KG_PLAYING ? k->turn : PLAYER_NONE);
    for (int rank = 0; rank < c->ranks; rank++)
        for (int file = 0; file < c->files; file++) {
            const int sq = rank * c->stride + file;
            ObsCell *cell = obs_add_cell(o, 0, file, rank, c->obs_names[sq]);
            if (sq == k->origin)
                cell->terrain |= 1u << TERRAIN_ORIGIN;
            for (int level = 0; level < k->height[sq]; level++) {
                const int owner = kg_owner_at(k, sq, level);
                const bool king = k->king[owner] == sq && k->king_level[owner] == level;
                obs_push(cell, king ? KIND_KING : KIND_GUARD, owner, 0, 0);
            }
        }
    o->counters[obs_counter_slot(&c->obs, COUNTER_TURNS, 0)] = k->ply;
    o->counters[obs_counter_slot(&c->obs, COUNTER_PLACED, 0)] = k->placed;
}
