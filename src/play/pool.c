/*
 * pool.c - the threads of play_pool_run: each takes the next game number under the lock
 * until there are none or `done` said stop, so the games' outcomes do not depend on how
 * many threads there are, only the order `done` sees them in does.
 */
#include "play/pool.h"

#include <pthread.h>

typedef struct Pool {
    const PlayPool *p;
    pthread_mutex_t lock;
    long next;    /* the next game to start; guarded by lock */
    bool stopped; /* done said no more; guarded by lock */
} Pool;

static void *worker(void *arg)
{
    Pool *pool = arg;
    const PlayPool *p = pool->p;
    void *thread = p->thread_begin ? p->thread_begin(p->ctx) : NULL;
    for (;;) {
        pthread_mutex_lock(&pool->lock);
        const long index = !pool->stopped && pool->next < p->count ? pool->next++ : -1;
        pthread_mutex_unlock(&pool->lock);
        if (index < 0)
            break;
        p->play(p->ctx, thread, index);
        pthread_mutex_lock(&pool->lock);
        if (p->done != NULL && !p->done(p->ctx, index))
            pool->stopped = true;
        pthread_mutex_unlock(&pool->lock);
    }
    if (p->thread_end)
        p->thread_end(p->ctx, thread);
    return NULL;
}

long play_pool_run(const PlayPool *p)
{
    Pool pool = {.p = p};
    pthread_mutex_init(&pool.lock, NULL);
    long jobs = p->jobs;
    if (jobs > p->count)
        jobs = p->count;
    if (jobs > PLAY_POOL_MAX_JOBS)
        jobs = PLAY_POOL_MAX_JOBS;
    pthread_t threads[PLAY_POOL_MAX_JOBS];
    int started = 1;
    for (; started < jobs; started++)
        if (pthread_create(&threads[started], NULL, worker, &pool) != 0)
            break;
    worker(&pool);
    for (int j = 1; j < started; j++)
        pthread_join(threads[j], NULL);
    pthread_mutex_destroy(&pool.lock);
    return pool.next;
}
