/*
 * match_runner.c - one game of a match from its start to its end, and the pool that
 * plays a match's games with an outside engine per thread and entry. Everything random in game i (its agents' seeds, chance) follows
 * from the match seed and i, so a match with depth or node limits replays the same.
 */
#include "cli/match_runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "core/record.h"
#include "core/rng.h"
#include "cli/turn_runner.h"
#include "play/pool.h"
#include "play/self_play.h"
#include "play/words.h"

static void fail(MatchGame *out, const char *msg)
{
    out->failed = true;
    snprintf(out->error, sizeof out->error, "%s", msg);
}

/* The referee's step as the self-play loop's: turn_runner_step, keeping its reasons. */
typedef struct Referee {
    TurnRunner run;
    TurnStep step;
} Referee;

static Status referee_step(void *ctx, GameRecord *rec, int *forfeit, ErrBuf *err)
{
    Referee *ref = ctx;
    const Status s = turn_runner_step(&ref->run, rec, &ref->step, err);
    *forfeit = ref->step.forfeit;
    return s;
}

void match_play_game(const MatchRunner *r, int index, EngineClient *const *clients,
                     MatchGame *out)
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
    // Chance follows the group, so the games of one start see the same draws for as
    // long as they take the same turns.
    Rng chance;
    rng_seed(&chance, r->seed * 7919 + (uint64_t)group);
    Referee *ref = calloc(1, sizeof *ref);
    if (ref == NULL) {
        fail(out, "out of memory");
        return;
    }
    ref->run = (TurnRunner){.seats = &seats, .limits = r->limits, .chance = &chance};
    const SelfPlay sp = {.seats = &seats, .chance = &chance, .step = referee_step,
                         .step_ctx = ref};
    // The record owns a Game; each game gets its own copy of the configured game.
    Game *own;
    RuleSetting rules[GAME_MAX_OPTIONS];
    for (int i = 0; i < g->ops->option_count; i++)
        rules[i] = (RuleSetting){g->ops->options[i].name, g->values[i]};
    if (game_create(g->ops, g->players, rules, g->ops->option_count, &own, &err) != STATUS_OK) {
        fail(out, err.msg);
        free(ref);
        return;
    }
    GameState *start = game_state_new(own);
    GameRecord rec;
    const bool ok = start != NULL && match_start(r->starts, group, start, &err) == STATUS_OK;
    if (!ok) {
        fail(out, start == NULL ? "out of memory" : err.msg);
        free(start);
        game_destroy(own);
        free(ref);
        return;
    }
    const Status began = self_play_begin(&sp, own, start, &rec, &err);
    free(start);
    if (began != STATUS_OK) {
        fail(out, err.msg);
        free(ref);
        return;
    }
    uint64_t h = own->ops->hash(own, rec.start);
    ref->run.clock = play_clock_fresh(&r->tc, n);
    for (int k = 0; k < n && clients != NULL; k++)
        if (seats.seat[k].outside)
            ref->run.engine[k] = clients[(k + index) % n];
    TurnStep *step = &ref->step;
    SelfPlayEnd end;
    if (turn_runner_new_game(&ref->run, own, step) &&
        self_play(&sp, &rec, &end, &err) != STATUS_OK)
        fail(out, err.msg);
    for (int i = 0; i < rec.count; i++) {
        h ^= rec.moves[i];
        h = rng_mix(&h);
    }
    out->moves_hash = h;
    double ret[MAX_PLAYERS];
    StrBuf result;
    sb_init(&result);
    if (!out->failed && step->forfeit != PLAYER_NONE) {
        turn_runner_forfeit_result(own, rec.current, &seats, step, &result, ret);
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
    free(ref);
}

typedef struct Pool {
    const MatchRunner *r;
    MatchGame *games;
    MatchDone *done;
    void *ctx;
} Pool;

/* A thread's outside engines, per spec, kept from game to game. */
typedef struct ThreadEngines {
    EngineClient client[MAX_PLAYERS];
    EngineClient *of_spec[MAX_PLAYERS];
} ThreadEngines;

static void *thread_begin(void *ctx)
{
    const MatchRunner *r = ((Pool *)ctx)->r;
    ThreadEngines *t = calloc(1, sizeof *t);
    for (int k = 0; t != NULL && k < r->specs->count; k++) {
        engine_client_init(&t->client[k], r->specs->seat[k].text, r->engine_options[k],
                           r->n_engine_options[k]);
        t->of_spec[k] = &t->client[k];
    }
    return t;
}

static void thread_end(void *ctx, void *thread)
{
    ThreadEngines *t = thread;
    for (int k = 0; t != NULL && k < ((Pool *)ctx)->r->specs->count; k++)
        engine_client_close(&t->client[k]);
    free(t);
}

static void play(void *ctx, void *thread, long index)
{
    Pool *p = ctx;
    ThreadEngines *t = thread;
    match_play_game(p->r, (int)index, t != NULL ? t->of_spec : NULL, &p->games[index]);
}

static bool game_done(void *ctx, long index)
{
    Pool *p = ctx;
    return p->done(p->ctx, (int)index, &p->games[index]);
}

int match_run(const MatchRunner *r, MatchGame *games, int max_games, int jobs, MatchDone *done,
              void *ctx)
{
    Pool p = {.r = r, .games = games, .done = done, .ctx = ctx};
    const PlayPool pool = {.count = max_games, .jobs = jobs, .ctx = &p,
                           .thread_begin = thread_begin, .thread_end = thread_end,
                           .play = play, .done = game_done};
    return (int)play_pool_run(&pool);
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
