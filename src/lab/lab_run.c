/*
 * lab_run.c - one study game played from its number alone (set, players, seed), and the
 * threads that play a shard's games. A game reads nothing another thread writes, so the
 * rows do not depend on how many threads there are.
 */
#include "lab/lab_run.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "core/record.h"
#include "core/rng.h"
#include "play/seats.h"

static void fail(LabRow *row, const char *why)
{
    row->failed = true;
    snprintf(row->reason, sizeof row->reason, "%s", why);
}

void lab_play_game(const LabStudy *st, long index, LabRow *row)
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
    Seats seats;
    GameRecord rec;
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
    if (seats_parse(row->seats, g->players, &st->limits, row->seed, &seats, &err) != STATUS_OK) {
        free(start);
        game_destroy(g);
        fail(row, err.msg);
        return;
    }
    if (record_init(&rec, g, start, &err) != STATUS_OK) { /* rec owns g from here */
        free(start);
        fail(row, err.msg);
        return;
    }
    free(start);
    if (seats_start(&seats, rec.game, &err) != STATUS_OK) {
        record_free(&rec);
        fail(row, err.msg);
        return;
    }
    Rng chance;
    rng_seed(&chance, row->seed ^ 0x6c61622d6368616eULL);
    const GameOps *ops = rec.game->ops;
    // The measure hook sees each action with the state before it, kept here.
    GameState *before = ops->measure ? game_state_new(rec.game) : NULL;
    if (ops->measure && before == NULL)
        fail(row, "out of memory");
    row->n_metrics = before ? ops->metric_count : 0;
    while (!row->failed) {
        const int p = ops->to_move(rec.game, rec.current);
        if (p == PLAYER_NONE)
            break;
        Move m;
        if (before)
            memcpy(before, rec.current, rec.game->state_size);
        if (seats_auto_action(&seats, rec.game, rec.current, &chance, &m, NULL, &err) !=
                STATUS_OK ||
            record_push(&rec, m, &err) != STATUS_OK) {
            fail(row, err.msg);
            break;
        }
        row->length += p != PLAYER_CHANCE;
        if (before)
            ops->measure(rec.game, before, m, rec.current, row->metrics);
    }
    if (before && !row->failed)
        ops->measure(rec.game, NULL, MOVE_NONE, rec.current, row->metrics);
    free(before);
    if (!row->failed) {
        ops->returns(rec.game, rec.current, row->returns);
        row->scored = ops->score != NULL;
        for (int k = 0; row->scored && k < row->players; k++)
            row->scores[k] = ops->score(rec.game, rec.current, k);
        const int r = ops->end_reason ? ops->end_reason(rec.game, rec.current) : -1;
        snprintf(row->reason, sizeof row->reason, "%s", r >= 0 ? ops->end_reasons[r] : "other");
    }
    seats_stop(&seats);
    record_free(&rec);
}

typedef struct Runner {
    const LabStudy *st;
    long *todo; /* the game numbers of this shard */
    long n_todo;
    LabRow *rows;
    LabProgress *progress;
    void *ctx;
    pthread_mutex_t lock;
    long next, done; /* guarded by lock */
} Runner;

static void *worker(void *arg)
{
    Runner *r = arg;
    for (;;) {
        pthread_mutex_lock(&r->lock);
        const long i = r->next < r->n_todo ? r->next++ : -1;
        pthread_mutex_unlock(&r->lock);
        if (i < 0)
            return NULL;
        lab_play_game(r->st, r->todo[i], &r->rows[i]);
        pthread_mutex_lock(&r->lock);
        r->done++;
        if (r->progress)
            r->progress(r->ctx, r->done, r->n_todo);
        pthread_mutex_unlock(&r->lock);
    }
}

Status lab_run(const LabStudy *st, int jobs, LabProgress *progress, void *ctx, LabRows *rows,
               ErrBuf *err)
{
    enum { MAX_JOBS = 64 };
    Runner r;
    memset(&r, 0, sizeof r);
    r.st = st;
    r.progress = progress;
    r.ctx = ctx;
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
    pthread_mutex_init(&r.lock, NULL);
    if (jobs > MAX_JOBS)
        jobs = MAX_JOBS;
    if (jobs > r.n_todo)
        jobs = (int)(r.n_todo > 0 ? r.n_todo : 1);
    pthread_t threads[MAX_JOBS];
    int started = 1;
    for (; started < jobs; started++)
        if (pthread_create(&threads[started], NULL, worker, &r) != 0)
            break; /* fewer threads play the same games */
    worker(&r);
    for (int j = 1; j < started; j++)
        pthread_join(threads[j], NULL);
    pthread_mutex_destroy(&r.lock);
    Status s = STATUS_OK;
    for (long i = 0; i < r.n_todo && s == STATUS_OK; i++)
        s = lab_rows_add(rows, &r.rows[i], err);
    free(r.rows);
    free(r.todo);
    return s;
}
