/*
 * seats.c - players' texts into human and AI seats, one or a comma-separated list.
 */
#include "play/seats.h"

#include <stdio.h>
#include <string.h>

#include "core/game_api.h"
#include "play/words.h"

Status seat_parse(const char *text, int index, uint64_t game_seed, bool *human, AgentSpec *spec,
                  ErrBuf *err)
{
    if (strcmp(text, "human") == 0) {
        *human = true;
        return STATUS_OK;
    }
    ErrBuf e2;
    if (agent_spec_parse(text, spec, &e2) != STATUS_OK)
        return err_set(err, STATUS_PARSE, "'%.32s': %s (or 'human')", text, e2.msg);
    spec->seed = game_seed * 31 + (uint64_t)index + 1;
    *human = false;
    return STATUS_OK;
}

Status seats_parse(const char *list, int players, const SearchLimits *limits, uint64_t seed,
                   Seats *out, ErrBuf *err)
{
    Seats t;
    memset(&t, 0, sizeof t);
    const char *p = list;
    while (true) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (t.count == MAX_PLAYERS)
            return err_set(err, STATUS_PARSE, "too many players in '%s'", list);
        Seat *s = &t.seat[t.count];
        if (len == 0 || len >= sizeof s->text)
            return err_set(err, STATUS_PARSE, "bad player list '%s': use e.g. human,ai:5", list);
        memcpy(s->text, p, len);
        s->text[len] = '\0';
        ErrBuf e2;
        // "SPEC@MS": this seat's own move time, for matches between budgets. Cut off a
        // copy, so that the text shown keeps it and tells the two entries apart.
        int64_t own_ms = 0;
        char spec_text[sizeof s->text];
        memcpy(spec_text, s->text, len + 1);
        char *at = strrchr(spec_text, '@');
        if (at != NULL && strncmp(s->text, "uci:", 4) != 0 && strncmp(s->text, "ugi:", 4) != 0) {
            const char *d = at + 1;
            int digits = 0;
            for (; *d >= '0' && *d <= '9' && digits < 8; d++, digits++)
                own_ms = own_ms * 10 + (*d - '0');
            if (digits == 0 || *d != '\0' || own_ms == 0)
                return err_set(err, STATUS_PARSE, "player '%s': after '@' comes its move time, "
                               "a whole number of milliseconds from 1 to 99999999, as in "
                               "ai:10@200", s->text);
            *at = '\0';
        }
        if (strncmp(s->text, "uci:", 4) == 0 || strncmp(s->text, "ugi:", 4) == 0) {
            if (s->text[4 + strspn(s->text + 4, " ")] == '\0')
                return err_set(err, STATUS_PARSE, "player '%s' names no command: use e.g. "
                               "uci:/usr/games/stockfish", s->text);
            s->outside = true;
        } else if (seat_parse(spec_text, t.count, seed, &s->human, &s->spec, &e2) != STATUS_OK) {
            return err_set(err, STATUS_PARSE, "player %s", e2.msg);
        } else if (s->human && own_ms != 0) {
            return err_set(err, STATUS_PARSE, "player '%s': a human has no move time", s->text);
        }
        if (!s->human && !s->outside) {
            if (limits->depth != 0)
                s->spec.limits.depth = limits->depth;
            if (limits->nodes != 0)
                s->spec.limits.nodes = limits->nodes;
            if (limits->movetime_ms != 0)
                s->spec.limits.movetime_ms = limits->movetime_ms;
            if (own_ms != 0)
                s->spec.limits.movetime_ms = own_ms;
        }
        t.count++;
        if (!comma)
            break;
        p = comma + 1;
    }
    if (t.count != players)
        return err_set(err, STATUS_PARSE, "this game has %d players, but '%s' names %d", players,
                       list, t.count);
    for (int i = 0; i < t.count; i++)
        if (t.seat[i].outside && players != 2)
            return err_set(err, STATUS_UNSUPPORTED, "outside engines ('%s') play two-player "
                           "games only", t.seat[i].text);
    *out = t;
    return STATUS_OK;
}

Status seats_start(Seats *s, const Game *g, ErrBuf *err)
{
    for (int i = 0; i < s->count; i++) {
        if (s->seat[i].human || s->seat[i].outside || s->seat[i].agent)
            continue;
        Status st = agent_new(g, &s->seat[i].spec, &s->seat[i].agent, err);
        if (st != STATUS_OK) {
            seats_stop(s);
            return st;
        }
        perfect_attach(s->perfect, g, &s->seat[i].spec, s->seat[i].agent);
    }
    return STATUS_OK;
}

void seats_stop(Seats *s)
{
    for (int i = 0; i < s->count; i++) {
        agent_free(s->seat[i].agent);
        s->seat[i].agent = NULL;
    }
}

Status seats_check_turn(const Seats *seats, const Game *g, const GameState *s, int seat,
                        ErrBuf *err)
{
    const int p = g->ops->to_move(g, s);
    if (p == PLAYER_NONE)
        return err_set(err, STATUS_CONFLICT, "the game is over");
    if (seat < 0 || seat >= g->players || seat >= seats->count)
        return err_set(err, STATUS_CONFLICT, "no such seat");
    if (!seats->seat[seat].human)
        return err_set(err, STATUS_CONFLICT, "the %s seat is played by the AI (%s)",
                       play_seat_ordinal(seat), seats->seat[seat].text);
    if (p == PLAYER_CHANCE)
        return err_set(err, STATUS_NOT_YOUR_TURN, "it is not your turn: chance acts next");
    if (p != seat)
        return err_set(err, STATUS_NOT_YOUR_TURN, "it is not your turn: the %s (%s) is to move",
                       play_seat_name(g, p), p < seats->count ? seats->seat[p].text : "?");
    return STATUS_OK;
}

Status seats_auto_action(const Seats *seats, const Game *g, const GameState *s, Rng *chance,
                         Move *m, SearchResult *result, ErrBuf *err)
{
    const int p = g->ops->to_move(g, s);
    if (p == PLAYER_CHANCE) {
        *m = game_sample_chance(g, s, chance);
        return STATUS_OK;
    }
    if (p >= 0 && p < seats->count && seats->seat[p].outside)
        return err_set(err, STATUS_CONFLICT, "an outside engine (%s) is to act",
                       seats->seat[p].text);
    if (p < 0 || p >= seats->count || seats->seat[p].human || seats->seat[p].agent == NULL)
        return err_set(err, STATUS_CONFLICT, "no AI or chance is to act");
    SearchResult r;
    const Status st = agent_think(seats->seat[p].agent, s, &r, err);
    if (st != STATUS_OK)
        return st;
    *m = r.best;
    if (result)
        *result = r;
    return STATUS_OK;
}

void seats_format(const Seats *s, char *out, int cap)
{
    int used = 0;
    out[0] = '\0';
    for (int i = 0; i < s->count && used < cap; i++)
        used += snprintf(out + used, (size_t)(cap - used), "%s%s", i ? "," : "", s->seat[i].text);
}
