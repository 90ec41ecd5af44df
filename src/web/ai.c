/*
 * ai.c - the AI worker pool: jobs under one mutex, served by a fixed set of threads. An
 * AI move is claimed from its session (which checks that it is still wanted), searched
 * on a copy of the position without any session lock held, and handed back to the
 * session, which plays it only if the game has not changed meanwhile (an undo, say). A
 * hint is searched the same way for a request thread that waits for it on the pool's
 * `done` condition, for a bounded time.
 *
 * Fairness: jobs wait in one lane per client address (the game's creator; games loaded
 * from the store share one lane), and the workers take the lanes in turn. A game has at
 * most one move queued and re-queues its next at the back of its lane, so the games of
 * one address take turns too. So a job waits for at most one think per other address
 * with work, however many games an address runs: one address's AI-against-AI games
 * cannot hold back another's reply.
 */
#include "web/ai.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/game_api.h"
#include "play/chances.h"
#include "play/hint.h"
#include "search/agent.h"
#include "web/context.h"
#include "web/session.h"
#include "web/waits.h"

typedef enum JobKind { JOB_MOVE, JOB_HINT } JobKind;

typedef struct Job {
    JobKind kind;
    Session *session; /* NULL for a position of no game in play (ai_analyse) */
    /* hints: the game searched and its seed (the session's, or the analysis board's) */
    const Game *game;
    uint64_t seed;
    /* hints: the position and where the answer goes; the job lives on the stack of the
     * request thread that waits for `done` */
    GameState *state;
    AiHint *out;
    ErrBuf *err;
    int movetime_ms; /* the hint's search budget */
    /* a hint's hold in a shared store (store_live_take) while it waits: given back by
     * the worker that takes it, or by its asker if none does; guarded by the pool's mu */
    int64_t hold;
    bool done;
    Status status;
    struct Lane *lane; /* the lane it waits in; NULL once taken */
    struct Job *next;
} Job;

/* The jobs of one address, in order; a lane exists while its address has jobs waiting
 * or running. */
typedef struct Lane {
    char addr[64];
    Job *head, *tail;
    int hints;   /* hint jobs among them */
    int running; /* jobs of this lane that workers run now */
    struct Lane *next; /* in the pool's ring, in turn order */
} Lane;

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
    Lane *lanes, *lanes_tail; /* in turn order: the lane to serve first at the head */
    int queued;               /* jobs waiting, in all lanes */
    bool stopping;
    int n_workers;
    Worker *workers;
    Agent **running; /* per worker: the agent searching now, for agent_stop at shutdown */
};

/* A reviewed game's positions are many: each gets a fifth of a hint's time (the hint
 * agent's, play/hint.h). */
enum { EVALUATE_MOVETIME_MS = PLAY_HINT_MOVETIME_MS / 5 };

static void push_job(AiPool *p, Lane *lane, Job *j)
{
    j->next = NULL;
    j->lane = lane;
    if (lane->tail)
        lane->tail->next = j;
    else
        lane->head = j;
    lane->tail = j;
    lane->hints += j->kind == JOB_HINT;
    p->queued++;
    pthread_cond_signal(&p->work);
}

static Lane *lane_find(AiPool *p, const char *addr)
{
    for (Lane *l = p->lanes; l; l = l->next)
        if (strncmp(l->addr, addr, sizeof l->addr - 1) == 0)
            return l;
    return NULL;
}

/* The lane of addr, made when missing; NULL for want of memory. A new lane is served
 * next: its address had no work waiting or running, so every other lane has had a
 * turn more recently. */
static Lane *lane_of(AiPool *p, const char *addr)
{
    Lane *l = lane_find(p, addr);
    if (l != NULL)
        return l;
    l = calloc(1, sizeof *l);
    if (l == NULL)
        return NULL;
    snprintf(l->addr, sizeof l->addr, "%s", addr);
    l->next = p->lanes;
    p->lanes = l;
    if (p->lanes_tail == NULL)
        p->lanes_tail = l;
    return l;
}

/* Unlinks l from the ring (prev is the lane before it, or NULL). */
static void ring_unlink(AiPool *p, Lane *prev, Lane *l)
{
    if (prev)
        prev->next = l->next;
    else
        p->lanes = l->next;
    if (p->lanes_tail == l)
        p->lanes_tail = prev;
    l->next = NULL;
}

/* Frees lane l once it has nothing waiting or running: while its address has work
 * running, it keeps its place in the turn order. */
static void lane_maybe_drop(AiPool *p, Lane *l)
{
    if (l->head != NULL || l->running > 0)
        return;
    Lane *prev = NULL;
    for (Lane *k = p->lanes; k != l; k = k->next)
        prev = k;
    ring_unlink(p, prev, l);
    free(l);
}

/* Takes job j, waiting in its lane, out of it. */
static void unlink_job(AiPool *p, Job *j)
{
    Lane *l = j->lane;
    Job *before = NULL;
    for (Job *k = l->head; k != j; k = k->next)
        before = k;
    if (before)
        before->next = j->next;
    else
        l->head = j->next;
    if (l->tail == j)
        l->tail = before;
    l->hints -= j->kind == JOB_HINT;
    p->queued--;
    j->lane = NULL;
}

/* The first job of the first lane with work waiting; that lane then goes to the back
 * of the turn order, and counts the job as running until job_ended. */
static Job *pop_job(AiPool *p, Lane **home)
{
    Lane *prev = NULL, *l = p->lanes;
    while (l != NULL && l->head == NULL) {
        prev = l;
        l = l->next;
    }
    if (l == NULL)
        return NULL;
    Job *j = l->head;
    unlink_job(p, j);
    l->running++;
    ring_unlink(p, prev, l);
    if (p->lanes_tail)
        p->lanes_tail->next = l;
    else
        p->lanes = l;
    p->lanes_tail = l;
    *home = l;
    return j;
}

static void job_ended(AiPool *p, Lane *home)
{
    pthread_mutex_lock(&p->mu);
    home->running--;
    lane_maybe_drop(p, home);
    pthread_mutex_unlock(&p->mu);
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
    if (!session_ai_claim(p->srv, s, &claim)) {
        session_release(s);
        return;
    }
    Agent *a = NULL;
    ErrBuf err;
    SearchResult r;
    memset(&r, 0, sizeof r);
    err_clear(&err);
    bool ok = agent_new(s->game, &claim.spec, &a, &err) == STATUS_OK;
    if (ok) {
        // No think longer than the game's AI time left.
        const SearchLimits lim = agent_limits(a);
        if (lim.movetime_ms == 0 || lim.movetime_ms > claim.budget_ms)
            agent_set_movetime(a, claim.budget_ms);
    }
    const int64_t t0 = clock_ms();
    bool dropped = false;
    if (ok)
        perfect_attach(p->srv->perfect, s->game, &claim.spec, a);
    if (ok) {
        session_ai_running(s, a, true);
        if (set_running(p, worker, a))
            ok = agent_think_in_turn(a, claim.state, &claim.turn, &r, &err) == STATUS_OK;
        else
            dropped = true;
        set_running(p, worker, NULL);
        session_ai_running(s, a, false);
    }
    pthread_mutex_lock(&p->mu);
    if (p->stopping)
        dropped = true; // a search cut short by shutdown is not a move worth keeping
    pthread_mutex_unlock(&p->mu);
    session_ai_finish(p->srv, s, &claim, ok && !dropped, r.best, dropped ? NULL : err.msg,
                      clock_ms() - t0);
    agent_free(a);
    free(claim.state);
    session_release(s);
}

/* Action m's text and cells (names separated by spaces) into the given buffers. */
static void text_and_cells(const Game *g, const GameState *s, Move m, char *text,
                           size_t text_size, char *cells, size_t cells_size)
{
    StrBuf sb;
    sb_init(&sb);
    g->ops->format_move(g, s, m, &sb);
    snprintf(text, text_size, "%s", sb_str(&sb));
    sb_clear(&sb);
    if (g->ops->move_cells)
        g->ops->move_cells(g, s, m, &sb);
    snprintf(cells, cells_size, "%s", sb_str(&sb));
    sb_free(&sb);
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
        text_and_cells(g, s, moves->moves[k], out->values[k].text, sizeof out->values[k].text,
                       out->values[k].cells, sizeof out->values[k].cells);
        StrBuf sb;
        sb_init(&sb);
        kvs_value_format(vals[k], &sb);
        snprintf(out->values[k].value, sizeof out->values[k].value, "%s", sb_str(&sb));
        sb_free(&sb);
    }
    out->n_values = ok ? moves->count : 0;
    free(moves);
    free(vals);
    return ok;
}

/* One walk along the search's line on a copy of s, each action checked legal before it
 * is played: the line as action texts, one a line, into out->line (cut where chance or the
 * end comes); and the mover's whole turn into out->turn (a King's Guard stack's placements
 * after its pick-up), so that a hint shows where the pieces go and not only the stack. */
static void hint_line(const Game *g, const GameState *s, const SearchResult *r, AiHint *out)
{
    out->n_turn = 0;
    out->line[0] = '\0';
    GameState *t = game_state_clone(g, s);
    void *undo = game_undo_new(g);
    MoveList *legal = malloc(sizeof *legal);
    StrBuf line;
    sb_init(&line);
    const int mover = g->ops->to_move(g, s);
    const bool turn_wanted = r->pv_len >= 2 && r->pv[0] == r->best;
    bool in_turn = turn_wanted;
    int n = 0;
    for (int i = 0; t && undo && legal && i < r->pv_len && g->ops->to_move(g, t) >= 0; i++) {
        g->ops->gen_moves(g, t, legal);
        bool ok = false;
        for (int k = 0; k < legal->count && !ok; k++)
            ok = legal->moves[k] == r->pv[i];
        if (!ok)
            break;
        if (i > 0)
            sb_puts(&line, "\n");
        g->ops->format_move(g, t, r->pv[i], &line);
        in_turn = in_turn && n < AI_HINT_TURN && g->ops->to_move(g, t) == mover;
        if (in_turn) {
            text_and_cells(g, t, r->pv[i], out->turn[n].text, sizeof out->turn[n].text,
                           out->turn[n].cells, sizeof out->turn[n].cells);
            n++;
        }
        g->ops->make(g, t, r->pv[i], undo);
    }
    out->n_turn = n > 1 ? n : 0;
    // A line longer than the room keeps its whole first actions only.
    if (!sb_failed(&line) && strlen(sb_str(&line)) < sizeof out->line)
        snprintf(out->line, sizeof out->line, "%s", sb_str(&line));
    sb_free(&line);
    free(legal);
    free(undo);
    free(t);
}

static void run_hint(AiPool *p, int worker, Job *job)
{
    const Game *g = job->game;
    Agent *a = NULL;
    ErrBuf err;
    SearchResult r;
    memset(&r, 0, sizeof r);
    // The AI's own failures (a game it cannot play) are refusals of this request.
    Status st = STATUS_OK;
    const KvsTable *table = perfect_table(p->srv->perfect, g);
    job->out->n_values = 0;
    if (table != NULL)
        table_values(table, g, job->state, job->out);
    if (play_hint_new(g, p->srv->perfect, job->seed, job->movetime_ms,
                      &a, &err) != STATUS_OK) {
        st = STATUS_CONFLICT;
    } else if (!set_running(p, worker, a)) {
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
        play_chance_words(g, &r, &c);
        snprintf(job->out->words, sizeof job->out->words, "%s", sb_str(&c));
        job->out->chance = play_win_chance(g, &r);
        sb_clear(&c);
        if (g->ops->move_cells)
            g->ops->move_cells(g, job->state, r.best, &c);
        search_format_score(&r, &sc);
        job->out->has_score = r.has_score;
        job->out->score_cu = r.score;
        job->out->value = r.value;
        snprintf(job->out->text, sizeof job->out->text, "%s", sb_str(&t));
        sb_clear(&t);
        game_format_move_read(g, job->state, r.best, &t);
        snprintf(job->out->read, sizeof job->out->read, "%s", sb_str(&t));
        snprintf(job->out->cells, sizeof job->out->cells, "%s", sb_str(&c));
        snprintf(job->out->score, sizeof job->out->score, "%s", sb_str(&sc));
        hint_line(g, job->state, &r, job->out);
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
        while (!p->stopping && p->queued == 0)
            pthread_cond_wait(&p->work, &p->mu);
        Lane *home = NULL;
        Job *job = p->stopping ? NULL : pop_job(p, &home);
        const int64_t hold = job ? job->hold : 0; // waits no more
        if (job)
            job->hold = 0;
        pthread_mutex_unlock(&p->mu);
        if (job == NULL)
            return NULL;
        ErrBuf e; // a hold not given back stops counting with this process's beats
        store_live_give(p->srv->store, hold, &e);
        if (job->kind == JOB_MOVE)
            run_move(p, w->index, job);
        else
            run_hint(p, w->index, job);
        job_ended(p, home);
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
    cond_init_monotonic(&p->done); // hint waits have a deadline
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
    Lane *home;
    while ((j = pop_job(p, &home)) != NULL) {
        if (j->kind == JOB_MOVE) {
            session_release(j->session);
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
    // The lanes ai_pool_stop emptied (their jobs never ran to job_ended).
    for (Lane *l = p->lanes, *next; l; l = next) {
        next = l->next;
        free(l);
    }
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
    session_hold(s);
    pthread_mutex_lock(&p->mu);
    Lane *lane = p->stopping ? NULL : lane_of(p, s->owner);
    if (lane) {
        push_job(p, lane, j);
        j = NULL;
    }
    pthread_mutex_unlock(&p->mu);
    if (j) {
        session_release(s);
        free(j);
    }
}

/* Queues a search of `state` (owned: freed here) of game g for s (or for no session) in
 * addr's lane and waits for it, as ai_hint describes. */
static Status search_and_wait(AiPool *p, Session *s, const Game *g, uint64_t seed,
                              GameState *state, int movetime_ms, const char *addr,
                              AiHint *out, bool *busy, ErrBuf *err)
{
    const ServeConfig *cfg = &p->srv->cfg;
    Job job;
    memset(&job, 0, sizeof job);
    job.kind = JOB_HINT;
    job.session = s;
    job.game = g;
    job.seed = seed;
    job.state = state;
    job.out = out;
    job.err = err;
    job.movetime_ms = movetime_ms;
    // Processes sharing a store count every process's waiting hints from addr too (one
    // short transaction each way); this process's own lanes count them below as before.
    StoreRefusal refused = STORE_ADMITTED;
    Status held = store_live_take(p->srv->store, addr, NULL, QUOTA_HINTS, cfg->ai_queue, 0,
                                  cfg->dead_after_s, &job.hold, &refused, err);
    if (held == STATUS_OK && refused != STORE_ADMITTED) {
        *busy = true;
        held = err_set(err, STATUS_CONFLICT, "too many hints from your address wait for the "
                       "AI on this site's servers (at most %d): try again when they are "
                       "answered", cfg->ai_queue);
    }
    if (held != STATUS_OK) {
        free(state);
        return held;
    }
    // One search at a time per game in play; a position of no game has only the
    // address's own limit.
    bool one_already = false;
    if (s != NULL) {
        pthread_mutex_lock(&s->mu);
        one_already = s->hint_queued;
        s->hint_queued = true;
        pthread_mutex_unlock(&s->mu);
    }
    pthread_mutex_lock(&p->mu);
    Lane *lane = NULL;
    const Lane *mine = lane_find(p, addr);
    if (one_already) {
        *busy = true;
        err_set(err, STATUS_CONFLICT, "a hint for this game is already being searched: "
                "wait for its answer");
    } else if (p->stopping) {
        err_set(err, STATUS_IO, "the server is stopping");
    } else if (mine != NULL && mine->hints >= cfg->ai_queue) {
        *busy = true;
        err_set(err, STATUS_CONFLICT, "too many hints from your address wait for the AI "
                "(at most %d): try again when they are answered", cfg->ai_queue);
    } else if ((lane = lane_of(p, addr)) == NULL) {
        err_set(err, STATUS_NOMEM, "out of memory");
    }
    if (lane == NULL) {
        job.status = *busy ? STATUS_CONFLICT : STATUS_IO;
        job.done = true;
    } else {
        push_job(p, lane, &job);
    }
    const struct timespec deadline = deadline_in_ms((int64_t)cfg->hint_timeout_s * 1000);
    bool expired = false;
    while (!job.done) {
        if (expired) {
            pthread_cond_wait(&p->done, &p->mu); // started: it ends within its move time
        } else if (pthread_cond_timedwait(&p->done, &p->mu, &deadline) == ETIMEDOUT) {
            expired = true;
            if (job.lane) { // not started yet: give up
                Lane *l = job.lane;
                unlink_job(p, &job);
                lane_maybe_drop(p, l);
                job.status = STATUS_IO;
                job.done = true;
                err_set(err, STATUS_IO, "the AI workers were all busy for %d s: no hint "
                        "now, try again later", cfg->hint_timeout_s);
            }
        }
    }
    const int64_t hold = job.hold; // no worker took it
    pthread_mutex_unlock(&p->mu);
    if (s != NULL && !one_already) {
        pthread_mutex_lock(&s->mu);
        s->hint_queued = false;
        pthread_mutex_unlock(&s->mu);
    }
    ErrBuf e; // a hold not given back stops counting with this process's beats
    store_live_give(p->srv->store, hold, &e);
    free(state);
    return job.status;
}

Status ai_hint(AiPool *p, Session *s, int seat, const char *addr, AiHint *out, bool *busy,
               ErrBuf *err)
{
    *busy = false;
    GameState *state = NULL;
    const Status st = session_copy_for_hint(s, seat, &state, err);
    if (st != STATUS_OK)
        return st;
    return search_and_wait(p, s, s->game, s->seed, state, PLAY_HINT_MOVETIME_MS, addr, out,
                           busy, err);
}

Status ai_evaluate(AiPool *p, Session *s, GameState *state, const char *addr, AiHint *out,
                   bool *busy, ErrBuf *err)
{
    *busy = false;
    return search_and_wait(p, s, s->game, s->seed, state, EVALUATE_MOVETIME_MS, addr, out,
                           busy, err);
}

Status ai_analyse(AiPool *p, const Game *g, GameState *state, const char *addr, AiHint *out,
                  bool *busy, ErrBuf *err)
{
    *busy = false;
    // A fixed seed: the same position asked twice gets the same answer.
    return search_and_wait(p, NULL, g, 1, state, EVALUATE_MOVETIME_MS, addr, out, busy, err);
}
