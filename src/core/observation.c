/*
 * observation.c - building, checking and writing observations: the helpers games fill
 * them with, the checker the contract suite uses, the one JSON writer and the one
 * tensor writer (layouts in observation.h).
 */
#include "core/observation.h"

#include <string.h>

#include "core/game.h"

void obs_begin(Observation *o, int observer, int to_move)
{
    memset(o, 0, sizeof *o);
    o->observer = observer;
    o->to_move = to_move;
}

ObsCell *obs_add_cell(Observation *o, int zone, int col, int row, const char *name)
{
    if (o->cell_count >= OBS_MAX_CELLS)
        return NULL;
    ObsCell *c = &o->cells[o->cell_count++];
    c->zone = (uint8_t)zone;
    c->col = (uint8_t)col;
    c->row = (uint8_t)row;
    size_t n = strlen(name);
    if (n > OBS_NAME_LEN - 1)
        n = OBS_NAME_LEN - 1;
    memcpy(c->name, name, n);
    return c;
}

static ObsPiece piece(int kind, int owner, unsigned flags, int value)
{
    return (ObsPiece){(int8_t)kind, (int8_t)owner, (uint8_t)flags, 0, (int16_t)value};
}

void obs_push(ObsCell *c, int kind, int owner, unsigned flags, int value)
{
    if (c != NULL && c->height < OBS_MAX_STACK)
        c->pieces[c->height++] = piece(kind, owner, flags, value);
}

int obs_counter_slot(const ObsSchema *sc, int counter, int player)
{
    int slot = 0;
    for (int i = 0; i < counter; i++)
        slot += sc->counters[i].per_player ? sc->players : 1;
    return slot + (sc->counters[counter].per_player ? player : 0);
}

int obs_list_slot(const ObsSchema *sc, int list, int player)
{
    int slot = 0;
    for (int i = 0; i < list; i++)
        slot += sc->lists[i].per_player ? sc->players : 1;
    return slot + (sc->lists[list].per_player ? player : 0);
}

void obs_list_push(const ObsSchema *sc, Observation *o, int list, int player, int kind,
                   int owner, unsigned flags, int value)
{
    ObsList *l = &o->lists[obs_list_slot(sc, list, player)];
    if (l->count < sc->lists[list].cap && l->count < OBS_MAX_LIST_ITEMS)
        l->items[l->count++] = piece(kind, owner, flags, value);
}

/* --- checking ------------------------------------------------------------------------ */

static int counter_slots(const ObsSchema *sc)
{
    return sc->counter_count ? obs_counter_slot(sc, sc->counter_count - 1, sc->players - 1) + 1
                             : 0;
}

static int list_slots(const ObsSchema *sc)
{
    return sc->list_count ? obs_list_slot(sc, sc->list_count - 1, sc->players - 1) + 1 : 0;
}

static bool check_piece(const ObsSchema *sc, const ObsPiece *p, const char *where, ErrBuf *err)
{
    if (p->kind < OBS_KIND_UNKNOWN || p->kind >= sc->kind_count) {
        err_set(err, STATUS_ILLEGAL, "%s: piece kind %d is not in the schema", where, p->kind);
        return false;
    }
    if (p->owner < OBS_OWNER_NONE || p->owner >= sc->players) {
        err_set(err, STATUS_ILLEGAL, "%s: owner %d is not a seat", where, p->owner);
        return false;
    }
    if (p->kind == OBS_KIND_UNKNOWN && !(p->flags & OBS_FACE_DOWN)) {
        err_set(err, STATUS_ILLEGAL, "%s: a piece of unknown kind must be face down", where);
        return false;
    }
    if (p->flags & ~(unsigned)OBS_FACE_DOWN) {
        err_set(err, STATUS_ILLEGAL, "%s: unknown piece flags %#x", where, p->flags);
        return false;
    }
    return true;
}

static bool check_schema(const ObsSchema *sc, ErrBuf *err)
{
    if (sc->players < 1 || sc->players > MAX_PLAYERS || sc->max_stack < 1 ||
        sc->max_stack > OBS_MAX_STACK || sc->zone_count < 1 || sc->zone_count > OBS_MAX_ZONES ||
        sc->kind_count < 0 || sc->kind_count > OBS_MAX_KINDS || sc->terrain_count < 0 ||
        sc->terrain_count > OBS_MAX_TERRAINS || sc->counter_count < 0 ||
        sc->counter_count > OBS_MAX_COUNTERS || sc->list_count < 0 ||
        sc->list_count > OBS_MAX_LISTS) {
        err_set(err, STATUS_ILLEGAL, "the observation schema's counts are out of bounds");
        return false;
    }
    if (counter_slots(sc) > OBS_MAX_COUNTER_SLOTS || list_slots(sc) > OBS_MAX_LIST_SLOTS) {
        err_set(err, STATUS_ILLEGAL, "the schema has more counter or list slots than fit");
        return false;
    }
    for (int i = 0; i < sc->list_count; i++)
        if (sc->lists[i].cap < 0 || sc->lists[i].cap > OBS_MAX_LIST_ITEMS) {
            err_set(err, STATUS_ILLEGAL, "list '%s' has a capacity out of bounds",
                    sc->lists[i].name);
            return false;
        }
    return true;
}

bool obs_check(const ObsSchema *sc, const Observation *o, ErrBuf *err)
{
    if (!check_schema(sc, err))
        return false;
    if (o->observer < -1 || o->observer >= sc->players) {
        err_set(err, STATUS_ILLEGAL, "observer %d is neither a seat nor -1", o->observer);
        return false;
    }
    if (o->to_move != PLAYER_NONE && o->to_move != PLAYER_CHANCE &&
        (o->to_move < 0 || o->to_move >= sc->players)) {
        err_set(err, STATUS_ILLEGAL, "to_move %d is not a seat", o->to_move);
        return false;
    }
    if (o->cell_count < 0 || o->cell_count > OBS_MAX_CELLS) {
        err_set(err, STATUS_ILLEGAL, "%d cells is out of bounds", o->cell_count);
        return false;
    }
    const uint32_t terrain_mask =
        sc->terrain_count == 32 ? UINT32_MAX : (UINT32_C(1) << sc->terrain_count) - 1;
    for (int i = 0; i < o->cell_count; i++) {
        const ObsCell *c = &o->cells[i];
        if (c->name[0] == '\0' || memchr(c->name, '\0', OBS_NAME_LEN) == NULL) {
            err_set(err, STATUS_ILLEGAL, "cell %d has no name", i);
            return false;
        }
        for (int j = 0; j < i; j++)
            if (strcmp(o->cells[j].name, c->name) == 0) {
                err_set(err, STATUS_ILLEGAL, "cell name '%s' appears twice", c->name);
                return false;
            }
        if (c->zone >= sc->zone_count || c->col >= sc->zones[c->zone].cols ||
            c->row >= sc->zones[c->zone].rows) {
            err_set(err, STATUS_ILLEGAL, "cell '%s' lies outside its zone", c->name);
            return false;
        }
        for (int j = 0; j < i; j++)
            if (o->cells[j].zone == c->zone && o->cells[j].col == c->col &&
                o->cells[j].row == c->row) {
                err_set(err, STATUS_ILLEGAL, "cells '%s' and '%s' share a place",
                        o->cells[j].name, c->name);
                return false;
            }
        if (c->height > sc->max_stack) {
            err_set(err, STATUS_ILLEGAL, "cell '%s' holds %d pieces, more than %d", c->name,
                    c->height, sc->max_stack);
            return false;
        }
        if (c->terrain & ~terrain_mask) {
            err_set(err, STATUS_ILLEGAL, "cell '%s' has unknown terrain bits", c->name);
            return false;
        }
        for (int k = 0; k < c->height; k++)
            if (!check_piece(sc, &c->pieces[k], c->name, err))
                return false;
    }
    for (int l = 0; l < sc->list_count; l++)
        for (int p = 0; p < (sc->lists[l].per_player ? sc->players : 1); p++) {
            const ObsList *li = &o->lists[obs_list_slot(sc, l, p)];
            if (li->count < 0 || li->count > sc->lists[l].cap) {
                err_set(err, STATUS_ILLEGAL, "list '%s' holds %d items, more than %d",
                        sc->lists[l].name, li->count, sc->lists[l].cap);
                return false;
            }
            for (int k = 0; k < li->count; k++)
                if (!check_piece(sc, &li->items[k], sc->lists[l].name, err))
                    return false;
        }
    return true;
}

/* --- JSON ---------------------------------------------------------------------------- */

/* Names are the game's identifiers and notation, but a quote or a control character
 * must still not break the text. */
static void json_string(StrBuf *out, const char *s)
{
    sb_putc(out, '"');
    for (; *s; s++) {
        const unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            sb_printf(out, "\\%c", ch);
        else if (ch < 0x20)
            sb_printf(out, "\\u%04x", ch);
        else
            sb_putc(out, (char)ch);
    }
    sb_putc(out, '"');
}

static void json_seat(StrBuf *out, int seat)
{
    if (seat >= 0)
        sb_printf(out, "%d", seat);
    else
        sb_puts(out, "null");
}

static void json_piece(const ObsSchema *sc, const ObsPiece *p, StrBuf *out)
{
    sb_puts(out, "{\"kind\":");
    if (p->kind >= 0)
        json_string(out, sc->kinds[p->kind]);
    else
        sb_puts(out, "null");
    sb_puts(out, ",\"owner\":");
    json_seat(out, p->owner);
    if (p->flags & OBS_FACE_DOWN)
        sb_puts(out, ",\"face_down\":true");
    if (p->value != 0)
        sb_printf(out, ",\"value\":%d", p->value);
    sb_putc(out, '}');
}

static void json_list(const ObsSchema *sc, const ObsList *l, StrBuf *out)
{
    sb_putc(out, '[');
    for (int k = 0; k < l->count; k++) {
        if (k)
            sb_putc(out, ',');
        json_piece(sc, &l->items[k], out);
    }
    sb_putc(out, ']');
}

static const char *const SHAPE_NAMES[] = {"square", "hex", "line"};

void obs_write_json(const ObsSchema *sc, const Observation *o, StrBuf *out)
{
    sb_puts(out, "{\"observer\":");
    json_seat(out, o->observer);
    sb_puts(out, ",\"to_move\":");
    if (o->to_move == PLAYER_CHANCE)
        sb_puts(out, "\"chance\"");
    else
        json_seat(out, o->to_move);
    sb_puts(out, ",\"zones\":[");
    for (int z = 0; z < sc->zone_count; z++) {
        const ObsZone *zn = &sc->zones[z];
        sb_puts(out, z ? ",{\"name\":" : "{\"name\":");
        json_string(out, zn->name);
        sb_printf(out, ",\"shape\":\"%s\",\"cols\":%d,\"rows\":%d}", SHAPE_NAMES[zn->shape],
                  zn->cols, zn->rows);
    }
    sb_puts(out, "],\"cells\":[");
    for (int i = 0; i < o->cell_count; i++) {
        const ObsCell *c = &o->cells[i];
        sb_puts(out, i ? ",{\"name\":" : "{\"name\":");
        json_string(out, c->name);
        sb_printf(out, ",\"zone\":%d,\"col\":%d,\"row\":%d,\"terrain\":[", c->zone, c->col,
                  c->row);
        bool first = true;
        for (int t = 0; t < sc->terrain_count; t++)
            if (c->terrain >> t & 1) {
                if (!first)
                    sb_putc(out, ',');
                json_string(out, sc->terrains[t]);
                first = false;
            }
        sb_puts(out, "],\"pieces\":[");
        for (int k = 0; k < c->height; k++) {
            if (k)
                sb_putc(out, ',');
            json_piece(sc, &c->pieces[k], out);
        }
        sb_puts(out, "]}");
    }
    sb_puts(out, "],\"counters\":{");
    for (int i = 0; i < sc->counter_count; i++) {
        if (i)
            sb_putc(out, ',');
        json_string(out, sc->counters[i].name);
        sb_putc(out, ':');
        if (!sc->counters[i].per_player) {
            sb_printf(out, "%d", o->counters[obs_counter_slot(sc, i, 0)]);
            continue;
        }
        sb_putc(out, '[');
        for (int p = 0; p < sc->players; p++)
            sb_printf(out, p ? ",%d" : "%d", o->counters[obs_counter_slot(sc, i, p)]);
        sb_putc(out, ']');
    }
    // The enumerations' values by name, beside their numbers.
    sb_puts(out, "},\"named\":{");
    bool first = true;
    for (int i = 0; i < sc->counter_count; i++) {
        const ObsValueNames *names = &sc->counter_values[i];
        const int v = o->counters[obs_counter_slot(sc, i, 0)];
        if (names->names == NULL || sc->counters[i].per_player || v < 0 || v >= names->count)
            continue;
        if (!first)
            sb_putc(out, ',');
        first = false;
        json_string(out, sc->counters[i].name);
        sb_putc(out, ':');
        json_string(out, names->names[v]);
    }
    sb_puts(out, "},\"lists\":{");
    for (int i = 0; i < sc->list_count; i++) {
        if (i)
            sb_putc(out, ',');
        json_string(out, sc->lists[i].name);
        sb_putc(out, ':');
        if (!sc->lists[i].per_player) {
            json_list(sc, &o->lists[obs_list_slot(sc, i, 0)], out);
            continue;
        }
        sb_putc(out, '[');
        for (int p = 0; p < sc->players; p++) {
            if (p)
                sb_putc(out, ',');
            json_list(sc, &o->lists[obs_list_slot(sc, i, p)], out);
        }
        sb_putc(out, ']');
    }
    sb_puts(out, "}}");
}

/* --- tensor -------------------------------------------------------------------------- */

/* Planes of one zone before the scalars: pieces by level, owner and kind, terrains, and
 * the on-board plane. */
static int zone_planes(const ObsSchema *sc)
{
    return sc->max_stack * (sc->players + 1) * (sc->kind_count + 1) + sc->terrain_count + 1;
}

static int scalar_count(const ObsSchema *sc)
{
    int n = 2 * (sc->players + 1) + counter_slots(sc);
    for (int i = 0; i < sc->list_count; i++)
        n += (sc->lists[i].per_player ? sc->players : 1) *
             (sc->lists[i].counted ? sc->kind_count + 1
                                   : sc->lists[i].cap * (sc->kind_count + 2));
    return n;
}

int obs_tensor_shape(const ObsSchema *sc, int dims[OBS_MAX_DIMS])
{
    if (sc->zone_count == 1) {
        dims[0] = zone_planes(sc) + scalar_count(sc);
        dims[1] = sc->zones[0].rows;
        dims[2] = sc->zones[0].cols;
        return 3;
    }
    int n = scalar_count(sc);
    for (int z = 0; z < sc->zone_count; z++)
        n += zone_planes(sc) * sc->zones[z].rows * sc->zones[z].cols;
    dims[0] = n;
    return 1;
}

int obs_tensor_size(const ObsSchema *sc)
{
    int dims[OBS_MAX_DIMS];
    const int nd = obs_tensor_shape(sc, dims);
    int n = 1;
    for (int i = 0; i < nd; i++)
        n *= dims[i];
    return n;
}

/* The one-hot index of a piece's kind, "unknown" last. */
static int kind_index(const ObsSchema *sc, const ObsPiece *p)
{
    return p->kind >= 0 ? p->kind : sc->kind_count;
}

/* The scalar features in their documented order; returns how many. */
static int write_scalars(const ObsSchema *sc, const Observation *o, float *out)
{
    int n = 0;
    const int seats = sc->players + 1;
    for (int i = 0; i < seats; i++)
        out[n + i] = 0;
    out[n + (o->to_move >= 0 ? o->to_move : sc->players)] = 1;
    n += seats;
    for (int i = 0; i < seats; i++)
        out[n + i] = 0;
    out[n + (o->observer >= 0 ? o->observer : sc->players)] = 1;
    n += seats;
    for (int i = 0; i < counter_slots(sc); i++)
        out[n++] = (float)o->counters[i];
    const int item = sc->kind_count + 2;
    for (int l = 0; l < sc->list_count; l++)
        for (int p = 0; p < (sc->lists[l].per_player ? sc->players : 1); p++) {
            const ObsList *li = &o->lists[obs_list_slot(sc, l, p)];
            const bool counted = sc->lists[l].counted;
            const int len = counted ? item - 1 : sc->lists[l].cap * item;
            for (int i = 0; i < len; i++)
                out[n + i] = 0;
            for (int k = 0; counted && k < li->count && k < sc->lists[l].cap; k++)
                out[n + kind_index(sc, &li->items[k])] += 1;
            for (int k = 0; !counted && k < li->count && k < sc->lists[l].cap; k++) {
                out[n + k * item + kind_index(sc, &li->items[k])] = 1;
                out[n + k * item + item - 1] = li->items[k].value;
            }
            n += len;
        }
    return n;
}

void obs_write_tensor(const ObsSchema *sc, const Observation *o, float *out)
{
    const int planes = zone_planes(sc);
    const int owners = sc->players + 1, kinds = sc->kind_count + 1;
    float *base[OBS_MAX_ZONES];
    float *p = out;
    for (int z = 0; z < sc->zone_count; z++) {
        base[z] = p;
        const int area = sc->zones[z].rows * sc->zones[z].cols;
        const int n = (sc->zone_count == 1 ? planes + scalar_count(sc) : planes) * area;
        for (int i = 0; i < n; i++)
            p[i] = 0;
        p += n;
    }
    for (int i = 0; i < o->cell_count; i++) {
        const ObsCell *c = &o->cells[i];
        const ObsZone *zn = &sc->zones[c->zone];
        const int area = zn->rows * zn->cols;
        float *at = base[c->zone] + c->row * zn->cols + c->col;
        for (int k = 0; k < c->height && k < sc->max_stack; k++) {
            const ObsPiece *pc = &c->pieces[k];
            const int owner = pc->owner >= 0 ? pc->owner : sc->players;
            at[((k * owners + owner) * kinds + kind_index(sc, pc)) * area] = 1;
        }
        const int terrain0 = sc->max_stack * owners * kinds;
        for (int t = 0; t < sc->terrain_count; t++)
            if (c->terrain >> t & 1)
                at[(terrain0 + t) * area] = 1;
        at[(planes - 1) * area] = 1;
    }
    if (sc->zone_count != 1) {
        write_scalars(sc, o, p);
        return;
    }
    // One zone: each scalar becomes a constant plane after the zone's own. The scalars
    // are first written at the start of their planes' region and spread from the last
    // one down, so that none is overwritten before it is read and no scratch is needed.
    const int area = sc->zones[0].rows * sc->zones[0].cols;
    float *sc0 = base[0] + planes * area;
    for (int i = write_scalars(sc, o, sc0) - 1; i >= 0; i--) {
        const float v = sc0[i];
        for (int j = 0; j < area; j++)
            sc0[i * area + j] = v;
    }
}
