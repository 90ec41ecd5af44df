/*
 * kc_observe.c - King's Castle positions as observations (core/observation.h): the
 * hexagon of 91 cells as one hex zone in axial coordinates (col = q + 5, row = r + 5,
 * row 0 the top rank 11), White's and Black's men, and as terrain the Castle, the
 * Throne, and on each cell the sides that carry a wall or a door, so that a drawer
 * needs no geometry of its own. The side names follow kc_geometry.c's directions as
 * drawn with pointy-top hexagons and rank 11 at the top.
 */
#include <stdio.h>

#include "games/kingscastle/kc_internal.h"

enum { KIND_MAN };
enum { TERRAIN_CASTLE, TERRAIN_THRONE, TERRAIN_WALL0, TERRAIN_DOOR0 = TERRAIN_WALL0 + KC_DIRS };
enum { COUNTER_PLY };

void kc_obs_schema(KcConfig *c)
{
    c->obs = (ObsSchema){
        .players = 2,
        .max_stack = 1,
        .zone_count = 1,
        .zones = {{"board", OBS_HEX, KC_SIDE, KC_SIDE}},
        .kind_count = 1,
        .kinds = {"man"},
        .terrain_count = TERRAIN_DOOR0 + KC_DIRS,
        .terrains = {"castle", "throne", "wall-e", "wall-ne", "wall-nw", "wall-w", "wall-sw",
                     "wall-se", "door-e", "door-ne", "door-nw", "door-w", "door-sw",
                     "door-se"},
        .counter_count = 1,
        .counters = {{"ply", false}},
    };
    // Names come from the notation's own writer, once: observe runs per position.
    StrBuf name;
    sb_init(&name);
    for (int cell = 0; cell < KC_GRID; cell++) {
        sb_clear(&name);
        kc_format_cell(cell, &name);
        snprintf(c->obs_names[cell], OBS_NAME_LEN, "%s", sb_str(&name));
    }
    sb_free(&name);
}

void kc_observe(const KcConfig *c, const KcState *s, int observer, Observation *o)
{
    obs_begin(o, observer, s->result == KC_PLAYING ? s->turn : PLAYER_NONE);
    const Bb128 men[2] = {kc_men(s, 0), kc_men(s, 1)};
    for (int cell = 0; cell < KC_GRID; cell++) {
        if (!bb128_has(c->board, cell))
            continue;
        ObsCell *oc = obs_add_cell(o, 0, kc_q(cell) + KC_RADIUS, kc_r(cell) + KC_RADIUS,
                                   c->obs_names[cell]);
        uint32_t terrain = 0;
        if (bb128_has(c->castle, cell))
            terrain |= 1u << TERRAIN_CASTLE;
        if (cell == KC_THRONE)
            terrain |= 1u << TERRAIN_THRONE;
        for (int d = 0; d < KC_DIRS; d++) {
            if (c->wall[cell][d])
                terrain |= 1u << (TERRAIN_WALL0 + d);
            if (c->door[cell][d])
                terrain |= 1u << (TERRAIN_DOOR0 + d);
        }
        oc->terrain = terrain;
        for (int p = 0; p < 2; p++)
            if (bb128_has(men[p], cell))
                obs_push(oc, KIND_MAN, p, 0, 0);
    }
    o->counters[obs_counter_slot(&c->obs, COUNTER_PLY, 0)] = s->ply;
}
