/*
 * match_runner.c - one game of a match from its start to its end, and the threads that
 * play a match's games. Everything random in game i (its agents' seeds, chance) follows
 * from the match seed and i, so a match with depth or node limits replays the same.
 */
#include "cli/match_runner.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "core/record.h"
#include "core/rng.h"
#include "cli/turn_runner.h"
#include "play/words.h"

static void fail(MatchGame *out, const char *msg)
{
    out->failed = true;
    snprintf(out->error, sizeof out->error, "%s", msg);
}

void match_play_game(const MatchRunner *r, int index, EngineClient *clients, MatchGame *out)
{
    const Game *g = r->game;
    const int n = g->players;
    const int group = index / n;
    memset(out, 0, sizeof *out);
    ErrBuf err;
    Seats seats;
    memset(&seats, 0, sizeof seats);
    seats.count = n;
    for (int k = 0; k < n; k++) {
        seats.seat[k] = r->specs->seat[(k + index) % n];
        seats.seat[k].agent = NULL;
        seats.seat[k].spec.seed = r->seed * 1000003ULL + (uint64_t)index * 31 + (uint64_t)k;
    }
    // The record owns a Game; each game gets its own copy of the configured game.
    Game *own;
    RuleSetting rules[GAME_MAX_OPTIONS];
    for (int i = 0; i < g->ops->option_count; i++)
        rules[i] = (RuleSetting){g->ops->options[i].name, g->values[i]};
    if (game_create(g->ops, g->players, rules, g->ops->option_count, &own, &err) != STATUS_OK) {
        fail(out, err.msg);
        return;
    }
    GameState *start = game_state_new(own);
    GameRecord rec;
    const bool ok = start != NULL && match_start(r->starts, group, start, &err) == STATUS_OK;
    if (!ok || record_init(&rec, own, start, &err) != STATUS_OK) {
        fail(out, start == NULL ? "out of memory" : err.msg);
        free(start);
        game_destroy(own);
        return;
    }
    free(start);
    if (seats_start(&seats, rec.game, &err) != STATUS_OK) {
        fail(out, err.msg);
        record_free(&rec);
        return;
    }
    // Chance follows the group, so the games of one start see the same draws for as
    // long as they take the same turns.
    Rng chance;
    rng_seed(&chance, r->seed * 7919 + (uint64_t)group);
    uint64_t h = own->ops->hash(own, rec.start);
    TurnRunner run = {.seats = &seats, .limits = r->limits, .chance = &chance};
    seat_clock_start(&run.clock, &r->tc, n);
    for (int k = 0; k < n && clients != NULL; k++)
        if (seats.seat[k].outside)
            run.engine[k] = &clients[(k + index) % n];
    TurnStep step;
    if (turn_runner_play(&run, &rec, &step, &err) != STATUS_OK)
        fail(out, err.msg);
    for (int i = 0; i < rec.count; i++) {
        h ^= rec.moves[i];
        h = rng_mix(&h);
    }
    out->moves_hash = h;
    double ret[MAX_PLAYERS];
    StrBuf result;
    sb_init(&result);
    if (!out->failed && step.forfeit != PLAYER_NONE) {
        turn_runner_forfeit_result(own, &seats, &step, &result, ret);
        snprintf(out->forfeit, sizeof out->forfeit, "%s", sb_str(&result));
    } else {
        own->ops->returns(own, rec.current, ret);
        play_result_text(rec.game, rec.current, PLAYER_NONE, &result);
    }
    for (int k = 0; k < n; k++) {
        out->returns[(k + index) % n] = ret[k];
        if (own->ops->score != NULL)
            out->score[(k + index) % n] = own->ops->score(own, rec.current, k);
    }
    out->actions = rec.count;
    if (r->keep_record) {
        seats_format(&seats, rec.players, (int)sizeof rec.players);
        StrBuf text;
        sb_init(&text);
        record_write(&rec, sb_str(&result), &text);
        out->record_text = strdup(sb_str(&text));
        sb_free(&text);
    }
    sb_free(&result);
    seats_stop(&seats);
    record_free(&rec);
}

typedef struct Pool {
    const MatchRunner *r;
    MatchGame *games;
    int max_games;
    MatchDone *done;
    void *ctx;
    pthread_mutex_t lock;
    int next;     /* the next game to start; guarded by lock */
    bool stopped; /* done said no more; guarded by lock */
} Pool;

static void *worker(void *arg)
{
    Pool *p = arg;
    const Seats *specs = p->r->specs;
    EngineClient clients[MAX_PLAYERS]; /* this thread's outside engines, per spec */
    for (int k = 0; k < specs->count; k++)
        engine_client_init(&clients[k], specs->seat[k].text, p->r->engine_options[k],
                           p->r->n_engine_options[k]);
    for (;;) {
        pthread_mutex_lock(&p->lock);
        const int index = !p->stopped && p->next < p->max_games ? p->next++ : -1;
        pthread_mutex_unlock(&p->lock);
        if (index < 0)
            break;
        match_play_game(p->r, index, clients, &p->games[index]);
        pthread_mutex_lock(&p->lock);
        if (!p->done(p->ctx, index, &p->games[index]))
            p->stopped = true;
        pthread_mutex_unlock(&p->lock);
    }
    for (int k = 0; k < specs->count; k++)
        engine_client_close(&clients[k]);
    return NULL;
}

int match_run(const MatchRunner *r, MatchGame *games, int max_games, int jobs, MatchDone *done,
              void *ctx)
{
    Pool p = {.r = r, .games = games, .max_games = max_games, .done = done, .ctx = ctx};
    pthread_mutex_init(&p.lock, NULL);
    if (jobs > max_games)
        jobs = max_games;
    if (jobs > 64)
        jobs = 64;
    pthread_t threads[64];
    int started = 1;
    for (int j = 1; j < jobs; j++)
        if (pthread_create(&threads[started], NULL, worker, &p) == 0)
            started++;
    worker(&p);
    for (int j = 1; j < started; j++)
        pthread_join(threads[j], NULL);
    pthread_mutex_destroy(&p.lock);
    return p.next;
}

static int compare_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

int match_distinct_games(const MatchGame *games, int n)
{
    uint64_t *h = malloc((size_t)(n > 0 ? n : 1) * sizeof *h);
    if (h == NULL)
        return -1;
    int m = 0;
    for (int i = 0; i < n; i++)
        if (!games[i].failed)
            h[m++] = games[i].moves_hash;
    qsort(h, (size_t)m, sizeof *h, compare_u64);
    int distinct = 0;
    for (int i = 0; i < m; i++)
        distinct += i == 0 || h[i] != h[i - 1];
    free(h);
    return distinct;
}
