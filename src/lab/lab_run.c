/*
 * lab_run.c - one study game played from its number alone (set, players, seed) by the
 * self-play loop, and a shard's games on the play pool's threads. A game reads nothing
 * another thread writes, so the rows do not depend on how many threads there are.
 */
#include "lab/lab_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "core/rng.h"
#include "play/pool.h"
#include "play/self_play.h"

static void fail(LabRow *row, const char *why)
{
    row->failed = true;
    snprintf(row->reason, sizeof row->reason, "%s", why);
}

void lab_play_game(const LabStudy *st, long index, const atomic_bool *abort, LabRow *row)
{
    memset(row, 0, sizeof *row);
    row->index = index;
    row->set = (int)(index / st->games);
    row->seed = lab_game_seed(st, index);
    lab_game_players(st, index, row->seats, sizeof row->seats);
    ErrBuf err;
    Game *g;
    if (lab_set_game(st, row->set, &g, &err) != STATUS_OK) {
        fail(row, err.msg);
        return;
    }
    row->players = g->players;
    GameState *start = game_state_new(g);
    if (start == NULL) {
        game_destroy(g);
        fail(row, "out of memory");
        return;
    }
    g->ops->new_game(g, start, row->seed);
    StrBuf setup;
    sb_init(&setup);
    g->ops->format_position(g, start, &setup);
    snprintf(row->setup, sizeof row->setup, "%s", sb_str(&setup));
    sb_free(&setup);
    Seats seats;
    Rng chance;
    rng_seed(&chance, row->seed ^ 0x6c61622d6368616eULL);
    const SelfPlay sp = {.seats = &seats, .chance = &chance, .measure = true, .abort = abort};
    GameRecord rec;
    if (seats_parse(row->seats, g->players, &st->limits, row->seed, &seats, &err) != STATUS_OK) {
        game_destroy(g);
        free(start);
        fail(row, err.msg);
        return;
    }
    const Status s = self_play_begin(&sp, g, start, &rec, &err);
    free(start);
    if (s != STATUS_OK) {
        fail(row, err.msg);
        return;
    }
    SelfPlayEnd end;
    if (self_play(&sp, &rec, &end, &err) != STATUS_OK)
        fail(row, err.msg);
    row->length = end.plies;
    row->n_metrics = end.n_metrics;
    memcpy(row->metrics, end.metrics, sizeof row->metrics);
    if (!row->failed) {
        memcpy(row->returns, end.returns, sizeof row->returns);
        row->scored = end.scored;
        memcpy(row->scores, end.score, sizeof row->scores);
        const GameOps *ops = rec.game->ops;
        snprintf(row->reason, sizeof row->reason, "%s",
                 end.end_reason >= 0 ? ops->end_reasons[end.end_reason] : "other");
    }
    seats_stop(&seats);
    record_free(&rec);
}

typedef struct Runner {
    const LabStudy *st;
    long *todo; /* the game numbers of this shard */
    LabRow *rows;
    LabProgress *progress;
    void *ctx;
    const atomic_bool *abort;
    long n_todo, done; /* done: guarded by the pool's lock */
} Runner;

static void play(void *ctx, void *thread, long i)
{
    (void)thread;
    Runner *r = ctx;
    lab_play_game(r->st, r->todo[i], r->abort, &r->rows[i]);
}

static bool game_done(void *ctx, long i)
{
    (void)i;
    Runner *r = ctx;
    r->done++;
    return r->progress == NULL || r->progress(r->ctx, r->done, r->n_todo);
}

Status lab_run(const LabStudy *st, int jobs, LabProgress *progress, void *ctx, LabRows *rows,
               ErrBuf *err)
{
    return lab_run_until(st, jobs, progress, ctx, NULL, rows, err);
}

Status lab_run_until(const LabStudy *st, int jobs, LabProgress *progress, void *ctx,
                     const atomic_bool *abort, LabRows *rows, ErrBuf *err)
{
    Runner r = {.st = st, .progress = progress, .ctx = ctx, .abort = abort};
    const long total = lab_study_total(st);
    r.todo = malloc(sizeof *r.todo * (size_t)(total / st->shards + 1));
    if (r.todo == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    for (long i = 0; i < total; i++)
        if (lab_study_owns(st, i))
            r.todo[r.n_todo++] = i;
    r.rows = calloc((size_t)(r.n_todo ? r.n_todo : 1), sizeof *r.rows);
    if (r.rows == NULL) {
        free(r.todo);
        return err_set(err, STATUS_NOMEM, "out of memory");
    }
    const PlayPool pool = {.count = r.n_todo, .jobs = jobs, .ctx = &r, .play = play,
                           .done = game_done};
    const long started = play_pool_run(&pool);
    Status s = STATUS_OK;
    for (long i = 0; i < started && s == STATUS_OK; i++)
        s = lab_rows_add(rows, &r.rows[i], err);
    free(r.rows);
    free(r.todo);
    return s;
}
