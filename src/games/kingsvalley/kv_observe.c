/*
 * kv_observe.c - King's Valley positions as observations (core/observation.h): one
 * square board, kings and soldiers, the Valley and the Labyrinth's pillars as terrain,
 * and the plies played.
 */
#include <stdio.h>

#include "games/kingsvalley/kv_internal.h"

enum { KIND_KING, KIND_SOLDIER };
enum { TERRAIN_VALLEY, TERRAIN_PILLAR };
enum { COUNTER_PLY };

void kv_obs_schema(KvConfig *c)
{
    c->obs = (ObsSchema){
        .players = 2,
        .max_stack = 1,
        .zone_count = 1,
        .zones = {{"board", OBS_SQUARE, c->size, c->size}},
        .kind_count = 2,
        .kinds = {"king", "soldier"},
        .terrain_count = 2,
        .terrains = {"valley", "pillar"},
        .counter_count = 1,
        .counters = {{"ply", false}},
    };
    // Names come from the notation's own writer, once: observe runs per position.
    StrBuf name;
    sb_init(&name);
    for (int sq = 0; sq < c->cells; sq++) {
        sb_clear(&name);
        kv_format_square(c, sq, &name);
        snprintf(c->obs_names[sq], OBS_NAME_LEN, "%s", sb_str(&name));
    }
    sb_free(&name);
}

void kv_observe(const KvConfig *c, const KvState *s, int observer, Observation *o)
{
    obs_begin(o, observer, s->result == KV_PLAYING ? s->turn : PLAYER_NONE);
    for (int sq = 0; sq < c->cells; sq++) {
        ObsCell *cell = obs_add_cell(o, 0, sq % c->size, sq / c->size, c->obs_names[sq]);
        if (sq == c->valley)
            cell->terrain |= 1u << TERRAIN_VALLEY;
        if (c->pillars >> sq & 1)
            cell->terrain |= 1u << TERRAIN_PILLAR;
        for (int p = 0; p < 2; p++)
            if (s->men[p] >> sq & 1)
                obs_push(cell, s->king[p] == sq ? KIND_KING : KIND_SOLDIER, p, 0, 0);
    }
    o->counters[obs_counter_slot(&c->obs, COUNTER_PLY, 0)] = s->ply;
}
