/*
 * kd_armies.c - the six armies of King Down: each king's two powers, how many tokens a
 * power gives, and who chooses next while the armies are chosen (army-order says who
 * begins).
 */
#include "games/kingdown/kd_internal.h"

const KdArmyInfo kd_army_info[KD_ARMIES] = {
    [KD_ARMY_NONE] = {"none", {KD_POW_NONE, KD_POW_NONE}},
    [KD_FROST] = {"frost", {KD_FREEZE, KD_ICE_WALL}},
    [KD_FLAME] = {"flame", {KD_STRIKE, KD_HASTE}},
    [KD_STRATUS] = {"stratus", {KD_FLIGHT, KD_SACRIFICE}},
    [KD_MUD] = {"mud", {KD_MARCH, KD_LEAP}},
    [KD_SPIRIT] = {"spirit", {KD_HOLY_LIGHT, KD_MERCY}},
    [KD_SHADOW] = {"shadow", {KD_DEATH_TOUCH, KD_DARKNESS}},
};

const KdPowerInfo kd_power_info[KD_POWERS] = {
    [KD_POW_NONE] = {"none", 0},          [KD_FREEZE] = {"freeze", 2},
    [KD_ICE_WALL] = {"ice-wall", 2},      [KD_STRIKE] = {"strike", 1},
    [KD_HASTE] = {"haste", 1},            [KD_FLIGHT] = {"flight", 1},
    [KD_SACRIFICE] = {"sacrifice", 1},    [KD_MARCH] = {"march", 3},
    [KD_LEAP] = {"leap", 3},              [KD_HOLY_LIGHT] = {"holy-light", 0},
    [KD_MERCY] = {"mercy", 0},            [KD_DEATH_TOUCH] = {"death-touch", 0},
    [KD_DARKNESS] = {"darkness", 0},
};

/* The first chooser's king, the other's, then the first chooser's power, the other's. */
int kd_picker(const KdConfig *c, const KdPos *p)
{
    const int first = c->first_picker, second = first ^ 1;
    if (p->army[first] == KD_ARMY_NONE)
        return first;
    if (p->army[second] == KD_ARMY_NONE)
        return second;
    return p->power[first] == KD_POW_NONE ? first : second;
}

int kd_choice_phase(const KdPos *p)
{
    if (p->army[0] == KD_ARMY_NONE || p->army[1] == KD_ARMY_NONE)
        return KD_PHASE_PICK_KING;
    if (p->power[0] == KD_POW_NONE || p->power[1] == KD_POW_NONE)
        return KD_PHASE_PICK_POWER;
    return KD_PHASE_PLAY;
}

