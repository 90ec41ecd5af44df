/*
 * tournament.c - running the web's tournaments (tournament.h): each step is read from
 * the store and written back before the next, under the tournament's lease, so that a
 * restart or a second process picks up exactly where the last step left off and a
 * round is paired once.
 */
#include "web/tournament.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/game_api.h"
#include "play/arena.h"
#include "play/pairing.h"
#include "play/registry.h"
#include "play/swiss.h"
#include "web/context.h"
#include "web/gameclock.h"
#include "web/session.h"
#include "web/store_account.h"
#include "web/tour_live.h"

/* The tournament's rules (a JSON object of strings) as settings pointing into it. */
static Status rules_of(const json_t *rules, RuleSetting *out, int *n, ErrBuf *err)
{
    *n = 0;
    if (!json_is_object(rules))
        return err_set(err, STATUS_PARSE, "'rules' must be an object such as {\"max-plies\": 200}");
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)rules, key, v) {
        if (*n == 2 * GAME_MAX_OPTIONS)
            return err_set(err, STATUS_PARSE, "too many rules");
        if (!json_is_string(v))
            return err_set(err, STATUS_PARSE, "rule '%.40s' must have a value", key);
        out[*n].name = key;
        out[(*n)++].value = json_string_value(v);
    }
    return STATUS_OK;
}

int tournament_creates_per_hour(const ServeConfig *cfg)
{
    return cfg->creates_per_hour / 10 > 0 ? cfg->creates_per_hour / 10 : 1;
}

Status tournament_check(const StoreTour *t, const json_t *clock, ErrBuf *err)
{
    const GameOps *ops = registry_find(t->game);
    if (ops == NULL)
        return err_set(err, STATUS_PARSE, "there is no game called '%.40s' (GET /api/games "
                       "lists them)", t->game);
    if (ops->min_players > 2 || ops->max_players < 2)
        return err_set(err, STATUS_PARSE, "%s is not a two-player game: tournaments pair two "
                       "players a game", ops->name);
    if (strcmp(t->format, "round-robin") != 0 && strcmp(t->format, "swiss") != 0 &&
        strcmp(t->format, "arena") != 0)
        return err_set(err, STATUS_PARSE, "'format' must be \"round-robin\", \"swiss\" or "
                       "\"arena\"");
    if (strcmp(t->format, "arena") == 0 &&
        (t->rounds < TOURNAMENT_MIN_ARENA_S || t->rounds > TOURNAMENT_MAX_ARENA_S))
        return err_set(err, STATUS_PARSE, "an arena lasts %d to %d seconds",
                       TOURNAMENT_MIN_ARENA_S, TOURNAMENT_MAX_ARENA_S);
    if (strcmp(t->format, "swiss") == 0 &&
        (t->rounds < 1 || t->rounds > TOURNAMENT_MAX_SWISS_ROUNDS))
        return err_set(err, STATUS_PARSE, "a Swiss tournament has 1 to %d rounds",
                       TOURNAMENT_MAX_SWISS_ROUNDS);
    if (t->max_players < 2 || t->max_players > TOURNAMENT_MAX_PLAYERS)
        return err_set(err, STATUS_PARSE, "'max_players' must be 2 to %d",
                       TOURNAMENT_MAX_PLAYERS);
    json_error_t je;
    json_t *rules = json_loads(t->rules, 0, &je);
    RuleSetting set[2 * GAME_MAX_OPTIONS];
    int n = 0;
    Status st = rules_of(rules, set, &n, err);
    for (int i = 0; st == STATUS_OK && i < n; i++) {
        // A file option would have the server read a file a client names.
        const int idx = game_option_index(ops, set[i].name);
        if (idx >= 0 && ops->options[idx].kind == RULE_FILE &&
            strcmp(set[i].value, ops->options[idx].default_value) != 0)
            st = err_set(err, STATUS_PARSE, "rule '%s' names a file on the server, which the "
                         "web app does not read", set[i].name);
    }
    Game *g = NULL;
    ErrBuf e2;
    if (st == STATUS_OK && game_create(ops, 2, set, n, &g, &e2) != STATUS_OK)
        st = err_set(err, STATUS_PARSE, "%s", e2.msg);
    game_destroy(g);
    json_decref(rules);
    PlayClock c;
    if (st == STATUS_OK && clock != NULL && !json_is_null(clock))
        st = gameclock_from_request(clock, 2, 86400000, &c, err);
    return st;
}

int tournament_rounds(const StoreTour *t, int players)
{
    if (strcmp(t->format, "arena") == 0)
        return t->round + 1;
    if (strcmp(t->format, "swiss") == 0)
        return t->rounds;
    return players < 2 ? 0 : pairing_round_robin_rounds(players);
}

/* The games with results (and byes) as the play layer's results. */
static int results_of(const StoreTourGame *games, int n, PairingResult *out)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (games[i].done)
            out[k++] = (PairingResult){{games[i].white, games[i].black}, games[i].result};
    return k;
}

Status tournament_standings(const StoreTour *t, int players, const StoreTourGame *games, int n,
                            Standing *out, ErrBuf *err)
{
    PairingResult *res = calloc(n > 0 ? (size_t)n : 1, sizeof *res);
    if (res == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    const int k = results_of(games, n, res);
    Status st = standings_compute(players, res, k, out, err);
    free(res);
    if (st != STATUS_OK)
        return st;
    static const TieBreak RR[] = {TIEBREAK_SONNEBORN_BERGER, TIEBREAK_WINS};
    static const TieBreak SWISS[] = {TIEBREAK_BUCHHOLZ, TIEBREAK_SONNEBORN_BERGER, TIEBREAK_WINS};
    if (strcmp(t->format, "swiss") == 0)
        standings_sort(out, players, SWISS, 3);
    else
        standings_sort(out, players, RR, 2);
    return STATUS_OK;
}

Status tournament_arena_standings(int players, const StoreTourGame *games, int n,
                                  ArenaScore *out, ErrBuf *err)
{
    PairingResult *res = calloc(n > 0 ? (size_t)n : 1, sizeof *res);
    if (res == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    const Status st = arena_scores(players, res, results_of(games, n, res), out, err);
    free(res);
    if (st == STATUS_OK)
        arena_sort(out, players);
    return st;
}

/* White's points from a game that is over, or false while it goes on. A game that can
 * go on no more (its AI hit the server's limits, or it was deleted) is a draw. */
static bool game_result(Server *srv, const char *game_id, double *white)
{
    Session *s = NULL;
    ErrBuf err;
    const Status st = session_find(srv, game_id, &s, &err);
    if (st == STATUS_NOT_FOUND || (st == STATUS_ILLEGAL && strstr(err.msg, "no such game"))) {
        *white = 0.5;
        return true;
    }
    if (st != STATUS_OK)
        return false;
    bool done = false;
    pthread_mutex_lock(&s->mu);
    if (session_over_locked(s)) {
        double ret[MAX_PLAYERS];
        session_returns_locked(s, ret);
        *white = ret[0] > ret[1] ? 1.0 : ret[0] < ret[1] ? 0.0 : 0.5;
        done = true;
    } else if (s->ai_error[0] && !s->ai_queued && s->thinking < 0) {
        *white = 0.5;
        done = true;
    }
    pthread_mutex_unlock(&s->mu);
    session_release(s);
    return done;
}

/* Makes board b's game between entrants w and k (white, black). */
static Status make_game(Server *srv, const StoreTour *t, const StoreEntrant *w,
                        const StoreEntrant *k, char *game_id, ErrBuf *err)
{
    NewGame ng;
    memset(&ng, 0, sizeof ng);
    ng.ops = registry_find(t->game);
    if (ng.ops == NULL)
        return err_set(err, STATUS_CORRUPT, "tournament %s: no game %s", t->id, t->game);
    ng.players = 2;
    json_error_t je;
    json_t *rules = json_loads(t->rules, 0, &je);
    json_t *clock = json_loads(t->clock, JSON_DECODE_ANY, &je);
    Status st = rules_of(rules, ng.rules, &ng.n_rules, err);
    if (st == STATUS_OK && clock != NULL && !json_is_null(clock))
        st = gameclock_from_request(clock, 2, (int64_t)srv->cfg.day_s * 1000, &ng.clock, err);
    snprintf(ng.player[0], sizeof ng.player[0], "%s", w->player);
    snprintf(ng.player[1], sizeof ng.player[1], "%s", k->player);
    // The tournament's games count against no address's limits: its entrants and rounds
    // are bounded where it was made (api_tournament.c).
    ng.owner = "tournament";
    ng.quota_kind = -1;
    Session *s = NULL;
    if (st == STATUS_OK)
        st = session_create(srv, &ng, &s, err);
    json_decref(rules);
    json_decref(clock);
    if (st != STATUS_OK)
        return st;
    snprintf(game_id, SECRET_ID_LEN + 1, "%s", s->id);
    const StoreEntrant *seat[2] = {w, k};
    for (int i = 0; i < 2; i++) {
        if (seat[i]->user == 0)
            continue;
        ErrBuf e2; // a game not linked to its account is still played
        store_user_seat(srv->store, seat[i]->user, s->id, i, &e2);
        session_seat_account(srv, s, i, seat[i]->name, false, &e2);
    }
    session_release(s);
    return STATUS_OK;
}

/* Makes the games of pairs[0..count) as round `round` and records them (a bye with its
 * points); *paired false when another process recorded the round first. */
static Status store_round(Server *srv, const StoreTour *t, const StoreEntrant *e,
                          const Pairing *pairs, int count, int round, bool *paired, ErrBuf *err)
{
    *paired = false;
    StoreTourGame *boards = calloc((size_t)count + 1, sizeof *boards);
    if (boards == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    Status st = STATUS_OK;
    for (int i = 0; st == STATUS_OK && i < count; i++) {
        StoreTourGame *b = &boards[i];
        b->round = round;
        b->board = i;
        b->white = pairs[i].white;
        b->black = pairs[i].black;
        if (b->black == PAIRING_BYE) {
            // A Swiss bye scores a point (docs/TOURNAMENTS.md); in a round-robin each
            // entrant sits out once, so it scores nothing.
            b->done = true;
            b->result = strcmp(t->format, "swiss") == 0 ? 1.0 : 0.0;
        } else {
            st = make_game(srv, t, &e[b->white], &e[b->black], b->game_id, err);
        }
    }
    if (st == STATUS_OK) {
        st = store_tour_pair(srv->store, t->id, round, boards, count, err);
        *paired = st == STATUS_OK;
    }
    free(boards);
    return st;
}

/* The next round of a round-robin or a Swiss into pairs[0..*count); *count -1 when a
 * Swiss has no pairing left without a rematch. */
static Status next_round(const StoreTour *t, int players, const StoreTourGame *games,
                         int n_games, int round, Pairing *pairs, int *count, ErrBuf *err)
{
    if (strcmp(t->format, "swiss") != 0)
        return pairing_round_robin(players, round, pairs, count, err);
    PairingResult *hist = calloc(n_games > 0 ? (size_t)n_games : 1, sizeof *hist);
    if (hist == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    ErrBuf e2;
    if (swiss_pair(players, hist, results_of(games, n_games, hist), pairs, count, &e2) !=
        STATUS_OK)
        *count = -1; // no pairing avoids a rematch: the tournament ends here
    free(hist);
    return STATUS_OK;
}

/* An arena's free entrants (no game going on), paired among themselves by the Swiss
 * module: ordered by the arena's table, with each one's last game as the history so that
 * nobody meets the opponent he has just played, unless only the two of them are in it.
 * Pairs into pairs[0..*count) by seed; none when fewer than two are free. */
static Status arena_round(int players, const StoreTourGame *games, int n_games,
                          Pairing *pairs, int *count, ErrBuf *err)
{
    *count = 0;
    int *busy = calloc((size_t)players, sizeof *busy);
    int *last = calloc((size_t)players, sizeof *last); /* index in games + 1, 0: none */
    int *seed_of = calloc((size_t)players, sizeof *seed_of), *slot = calloc((size_t)players, sizeof *slot);
    ArenaScore *table = calloc((size_t)players, sizeof *table);
    PairingResult *hist = calloc((size_t)players + 1, sizeof *hist);
    Pairing *sub = calloc((size_t)players / 2 + 2, sizeof *sub);
    Status st = busy && last && seed_of && slot && table && hist && sub
                    ? tournament_arena_standings(players, games, n_games, table, err)
                    : err_set(err, STATUS_NOMEM, "out of memory");
    for (int i = 0; st == STATUS_OK && i < n_games; i++) {
        const StoreTourGame *g = &games[i];
        if (g->black < 0)
            continue;
        if (!g->done)
            busy[g->white] = busy[g->black] = 1;
        last[g->white] = last[g->black] = i + 1;
    }
    int k = 0;
    for (int i = 0; st == STATUS_OK && i < players; i++) { /* in the table's order */
        const int p = table[i].player;
        slot[p] = -1;
        if (!busy[p]) {
            slot[p] = k;
            seed_of[k++] = p;
        }
    }
    int m = 0;
    for (int i = 0; st == STATUS_OK && i < k; i++) {
        const int p = seed_of[i], at = last[p] - 1;
        if (at < 0)
            continue;
        const StoreTourGame *g = &games[at];
        const int other = g->white == p ? g->black : g->white;
        if (slot[other] > i) /* both free: their last game, once */
            hist[m++] = (PairingResult){{slot[g->white], slot[g->black]}, g->result};
    }
    int n = 0;
    ErrBuf e2;
    if (st == STATUS_OK && k >= 2 && swiss_pair(k, hist, m, sub, &n, &e2) != STATUS_OK)
        n = k == players && k == 2 && swiss_pair(k, NULL, 0, sub, &n, &e2) == STATUS_OK ? n : 0;
    for (int i = 0; st == STATUS_OK && k >= 2 && i < n; i++)
        if (sub[i].black != PAIRING_BYE) /* a free player left over waits for the next */
            pairs[(*count)++] = (Pairing){seed_of[sub[i].white], seed_of[sub[i].black]};
    free(busy);
    free(last);
    free(seed_of);
    free(slot);
    free(table);
    free(hist);
    free(sub);
    return st;
}

/* Records the results of the games of `round` (every round: -1) that ended; *over
 * whether all of them have; *changed set when one was recorded. */
static Status collect(Server *srv, const char *id, StoreTourGame *games, int n_games,
                      int round, bool *over, bool *changed, ErrBuf *err)
{
    *over = true;
    Status st = STATUS_OK;
    for (int i = 0; st == STATUS_OK && i < n_games; i++) {
        StoreTourGame *g = &games[i];
        if (g->done || (round >= 0 && g->round != round))
            continue;
        double white;
        if (g->game_id[0] && game_result(srv, g->game_id, &white)) {
            st = store_tour_result(srv->store, id, g->round, g->board, white, err);
            g->done = st == STATUS_OK;
            *changed = *changed || g->done;
            g->result = white;
        }
        *over = *over && g->done;
    }
    return st;
}

/* One step of a tournament whose lease this process holds; *changed set when it
 * changed the tournament. */
static Status advance_held(Server *srv, const char *id, bool *changed, ErrBuf *err)
{
    StoreTour t;
    Status st = store_tour_get(srv->store, id, &t, err);
    if (st != STATUS_OK)
        return st;
    const int64_t now = (int64_t)time(NULL);
    const bool open = strcmp(t.state, "open") == 0;
    if (!(open && t.starts <= now) && strcmp(t.state, "running") != 0)
        return STATUS_OK;
    const bool arena = strcmp(t.format, "arena") == 0;
    StoreEntrant *e = NULL;
    StoreTourGame *games = NULL;
    int players = 0, n_games = 0;
    st = store_tour_entrants(srv->store, id, &e, &players, err);
    if (st == STATUS_OK)
        st = store_tour_games(srv->store, id, &games, &n_games, err);
    Pairing *pairs = st == STATUS_OK ? calloc((size_t)players / 2 + 2, sizeof *pairs) : NULL;
    if (st == STATUS_OK && pairs == NULL)
        st = err_set(err, STATUS_NOMEM, "out of memory");
    bool over = true, paired = false, cancelled = false, finished = false;
    int count = 0;
    if (st == STATUS_OK && open && players < 2) {
        st = store_tour_end(srv->store, id, "cancelled", err);
        cancelled = true;
    } else if (st == STATUS_OK && !open) {
        st = collect(srv, id, games, n_games, arena ? -1 : t.round, &over, changed, err);
    }
    if (st != STATUS_OK || cancelled) {
        // nothing more this step
    } else if (arena && now < t.starts + t.rounds) {
        // An arena pairs whoever is free until its time is up, then waits for the games
        // going on to end.
        st = arena_round(players, games, n_games, pairs, &count, err);
        if (st == STATUS_OK && count > 0)
            st = store_round(srv, &t, e, pairs, count, t.round + 1, &paired, err);
    } else if (arena && over) {
        st = store_tour_end(srv->store, id, "finished", err);
        finished = st == STATUS_OK;
    } else if (!arena && over) {
        if (t.round + 1 < tournament_rounds(&t, players))
            st = next_round(&t, players, games, n_games, t.round + 1, pairs, &count, err);
        if (st == STATUS_OK && count > 0)
            st = store_round(srv, &t, e, pairs, count, t.round + 1, &paired, err);
        if (st == STATUS_OK && !paired) {
            st = store_tour_end(srv->store, id, "finished", err);
            finished = st == STATUS_OK;
        }
    }
    // Whatever was written moved the version on (a round paired, the end, a cancel).
    *changed = *changed || paired || cancelled || finished;
    free(pairs);
    free(e);
    free(games);
    return st;
}

Status tournament_advance(Server *srv, const char *id, ErrBuf *err)
{
    bool mine = false;
    const int64_t now = gameclock_now();
    Status st = store_tour_claim(srv->store, id, now, TOURNAMENT_LEASE_MS, &mine, err);
    if (st != STATUS_OK || !mine)
        return st;
    bool changed = false;
    st = advance_held(srv, id, &changed, err);
    ErrBuf e2; // an unreleased lease runs out by itself
    store_tour_release(srv->store, id, &e2);
    if (changed)
        tour_live_changed(srv, id); // its pages read it again
    return st;
}

void tournaments_tick(Server *srv)
{
    enum { BATCH = 16 };
    char ids[BATCH][SECRET_ID_LEN + 1];
    int n = 0;
    ErrBuf err;
    if (store_tour_due(srv->store, (int64_t)time(NULL), gameclock_now(), ids, BATCH, &n,
                       &err) != STATUS_OK)
        return;
    for (int i = 0; i < n && !atomic_load(&srv->stopping); i++)
        tournament_advance(srv, ids[i], &err); // a step that failed is tried again next tick
}

void tournaments_sweep(Server *srv)
{
    ErrBuf err; // a sweep that failed is made up at the next
    store_tour_sweep(srv->store, (int64_t)time(NULL) - TOURNAMENT_KEEP_CANCELLED_S, &err);
}
