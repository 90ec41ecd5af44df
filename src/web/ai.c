/*
 * ai.c - the AI worker pool: a FIFO of jobs under one mutex, served by a fixed set of
 * threads. An AI move is claimed from its session (which checks that it is still
 * wanted), searched on a copy of the position without any session lock held, and
 * handed back to the session, which plays it only if the game has not changed meanwhile
 * (an undo, say). A hint is searched the same way for a request thread that waits for
 * it on the pool's `done` condition.
 */
#include "web/ai.h"

#include <pthread.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "search/agent.h"
#include "web/server.h"
#include "web/session.h"

typedef enum JobKind { JOB_MOVE, JOB_HINT } JobKind;

typedef struct Job {
    JobKind kind;
    Session *session;
    /* hints: the position and where the answer goes; the job lives on the stack of the
     * request thread that waits for `done` */
    GameState *state;
    AiHint *out;
    ErrBuf *err;
    bool done;
    Status status;
    struct Job *next;
} Job;

typedef struct Worker {
    AiPool *pool;
    int index;
    pthread_t thread;
    bool started;
} Worker;

struct AiPool {
    Server *srv;
    pthread_mutex_t mu;
    pthread_cond_t work; /* a job was queued, or the pool is stopping */
    pthread_cond_t done; /* a hint job finished */
    Job *head, *tail;
    bool stopping;
    int n_workers;
    Worker *workers;
    Agent **running; /* per worker: the agent searching now, for agent_stop at shutdown */
};

/* The AI that hints: the default level's strength, capped at one second. */
enum { HINT_LEVEL = 5, HINT_MOVETIME_MS = 1000 };

static void push_job(AiPool *p, Job *j)
{
    j->next = NULL;
    if (p->tail)
        p->tail->next = j;
    else
        p->head = j;
    p->tail = j;
    pthread_cond_signal(&p->work);
}

static Job *pop_job(AiPool *p)
{
    Job *j = p->head;
    if (j) {
        p->head = j->next;
        if (p->head == NULL)
            p->tail = NULL;
    }
    return j;
}

/* Makes the agent visible to ai_pool_stop while it searches; false if stopping already. */
static bool set_running(AiPool *p, int worker, Agent *a)
{
    pthread_mutex_lock(&p->mu);
    const bool ok = !p->stopping || a == NULL;
    if (ok)
        p->running[worker] = a;
    pthread_mutex_unlock(&p->mu);
    return ok;
}

static void run_move(AiPool *p, int worker, Job *job)
{
    Session *s = job->session;
    free(job);
    AiClaim claim;
    if (!session_ai_claim(p->srv, s, &claim))
        return;
    Agent *a = NULL;
    ErrBuf err;
    SearchResult r;
    memset(&r, 0, sizeof r);
    err_clear(&err);
    bool ok = agent_new(s->game, &claim.spec, &a, &err) == STATUS_OK;
    bool dropped = false;
    if (ok)
        perfect_attach(p->srv->perfect, s->game, &claim.spec, a);
    if (ok) {
        session_ai_running(s, a, true);
        if (set_running(p, worker, a))
            ok = agent_think(a, claim.state, &r, &err) == STATUS_OK;
        else
            dropped = true;
        set_running(p, worker, NULL);
        session_ai_running(s, a, false);
    }
    pthread_mutex_lock(&p->mu);
    if (p->stopping)
        dropped = true; // a search cut short by shutdown is not a move worth keeping
    pthread_mutex_unlock(&p->mu);
    session_ai_finish(p->srv, s, &claim, ok && !dropped, r.best, dropped ? NULL : err.msg);
    agent_free(a);
    free(claim.state);
}

/* The exact values of every move from a solved table, into the hint; false when no
 * table holds this position. */
static bool table_values(const KvsTable *t, const Game *g, const GameState *s, AiHint *out)
{
    MoveList *moves = malloc(sizeof *moves);
    KvsValue *vals = malloc(sizeof *vals * MOVELIST_CAP);
    ErrBuf err;
    bool ok = moves && vals && kvs_probe_moves(t, g, s, moves, vals, &err) == STATUS_OK &&
              moves->count <= AI_HINT_VALUES;
    for (int k = 0; ok && k < moves->count; k++) {
        StrBuf sb;
        sb_init(&sb);
        g->ops->format_move(g, s, moves->moves[k], &sb);
        snprintf(out->values[k].text, sizeof out->values[k].text, "%s", sb_str(&sb));
        sb_clear(&sb);
        if (g->ops->move_cells)
            g->ops->move_cells(g, s, moves->moves[k], &sb);
        snprintf(out->values[k].cells, sizeof out->values[k].cells, "%s", sb_str(&sb));
        sb_clear(&sb);
        kvs_value_format(vals[k], &sb);
        snprintf(out->values[k].value, sizeof out->values[k].value, "%s", sb_str(&sb));
        sb_free(&sb);
    }
    out->n_values = ok ? moves->count : 0;
    free(moves);
    free(vals);
    return ok;
}

static void run_hint(AiPool *p, int worker, Job *job)
{
    const Game *g = job->session->game;
    AgentSpec spec;
    agent_spec_default(&spec);
    spec.level = HINT_LEVEL;
    spec.limits.movetime_ms = HINT_MOVETIME_MS;
    spec.seed = job->session->seed ^ 0x68696E74ULL;
    Agent *a = NULL;
    ErrBuf err;
    SearchResult r;
    memset(&r, 0, sizeof r);
    // The AI's own failures (a game it cannot play) are refusals of this request.
    Status st = STATUS_OK;
    const KvsTable *table = perfect_table(p->srv->perfect, g);
    job->out->n_values = 0;
    if (table != NULL && table_values(table, g, job->state, job->out))
        spec.level = AGENT_LEVEL_MAX; // with a table, the hint is the perfect move
    if (agent_new(g, &spec, &a, &err) != STATUS_OK) {
        st = STATUS_CONFLICT;
    } else if (perfect_attach(p->srv->perfect, g, &spec, a), !set_running(p, worker, a)) {
        st = err_set(&err, STATUS_IO, "the server is stopping");
    } else {
        if (agent_think(a, job->state, &r, &err) != STATUS_OK)
            st = STATUS_CONFLICT;
        set_running(p, worker, NULL);
    }
    if (st == STATUS_OK) {
        StrBuf t, c, sc;
        sb_init(&t);
        sb_init(&c);
        sb_init(&sc);
        g->ops->format_move(g, job->state, r.best, &t);
        if (g->ops->move_cells)
            g->ops->move_cells(g, job->state, r.best, &c);
        search_format_score(&r, &sc);
        snprintf(job->out->text, sizeof job->out->text, "%s", sb_str(&t));
        snprintf(job->out->cells, sizeof job->out->cells, "%s", sb_str(&c));
        snprintf(job->out->score, sizeof job->out->score, "%s", sb_str(&sc));
        sb_free(&t);
        sb_free(&c);
        sb_free(&sc);
    } else {
        *job->err = err;
    }
    agent_free(a);
    pthread_mutex_lock(&p->mu);
    job->status = st;
    job->done = true;
    pthread_cond_broadcast(&p->done);
    pthread_mutex_unlock(&p->mu);
}

static void *worker_main(void *arg)
{
    Worker *w = arg;
    AiPool *p = w->pool;
    for (;;) {
        pthread_mutex_lock(&p->mu);
        while (!p->stopping && p->head == NULL)
            pthread_cond_wait(&p->work, &p->mu);
        Job *job = p->stopping ? NULL : pop_job(p);
        pthread_mutex_unlock(&p->mu);
        if (job == NULL)
            return NULL;
        if (job->kind == JOB_MOVE)
            run_move(p, w->index, job);
        else
            run_hint(p, w->index, job);
    }
}

Status ai_pool_start(Server *srv, int threads, AiPool **out, ErrBuf *err)
{
    *out = NULL;
    if (threads < 1)
        threads = 1;
    AiPool *p = calloc(1, sizeof *p);
    if (p == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    p->srv = srv;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->done, NULL);
    p->workers = calloc((size_t)threads, sizeof *p->workers);
    p->running = calloc((size_t)threads, sizeof *p->running);
    if (p->workers == NULL || p->running == NULL) {
        ai_pool_free(p);
        return err_set(err, STATUS_NOMEM, "out of memory");
    }
    p->n_workers = threads;
    for (int i = 0; i < threads; i++) {
        p->workers[i].pool = p;
        p->workers[i].index = i;
        if (pthread_create(&p->workers[i].thread, NULL, worker_main, &p->workers[i]) != 0) {
            ai_pool_stop(p);
            ai_pool_free(p);
            return err_set(err, STATUS_NOMEM, "cannot start AI worker threads");
        }
        p->workers[i].started = true;
    }
    *out = p;
    return STATUS_OK;
}

void ai_pool_stop(AiPool *p)
{
    if (p == NULL)
        return;
    pthread_mutex_lock(&p->mu);
    p->stopping = true;
    for (int i = 0; i < p->n_workers; i++)
        if (p->running[i])
            agent_stop(p->running[i]);
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
    for (int i = 0; i < p->n_workers; i++)
        if (p->workers[i].started) {
            pthread_join(p->workers[i].thread, NULL);
            p->workers[i].started = false;
        }
    // Nobody serves the queue any more: drop the moves, answer the hints.
    pthread_mutex_lock(&p->mu);
    Job *j;
    while ((j = pop_job(p)) != NULL) {
        if (j->kind == JOB_MOVE) {
            free(j);
        } else {
            err_set(j->err, STATUS_IO, "the server is stopping");
            j->status = STATUS_IO;
            j->done = true;
        }
    }
    pthread_cond_broadcast(&p->done);
    pthread_mutex_unlock(&p->mu);
}

void ai_pool_free(AiPool *p)
{
    if (p == NULL)
        return;
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->work);
    pthread_cond_destroy(&p->done);
    free(p->workers);
    free(p->running);
    free(p);
}

void ai_queue_move(AiPool *p, Session *s)
{
    Job *j = calloc(1, sizeof *j);
    if (j == NULL)
        return; // the next change to the game (or a reload) asks again
    j->kind = JOB_MOVE;
    j->session = s;
    pthread_mutex_lock(&p->mu);
    if (p->stopping)
        free(j);
    else
        push_job(p, j);
    pthread_mutex_unlock(&p->mu);
}

Status ai_hint(AiPool *p, Session *s, int seat, AiHint *out, ErrBuf *err)
{
    GameState *state = NULL;
    const Status st = session_copy_for_hint(s, seat, &state, err);
    if (st != STATUS_OK)
        return st;
    Job job;
    memset(&job, 0, sizeof job);
    job.kind = JOB_HINT;
    job.session = s;
    job.state = state;
    job.out = out;
    job.err = err;
    pthread_mutex_lock(&p->mu);
    if (p->stopping) {
        job.status = STATUS_IO;
        job.done = true;
        err_set(err, STATUS_IO, "the server is stopping");
    } else {
        push_job(p, &job);
    }
    while (!job.done)
        pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
    free(state);
    return job.status;
}
