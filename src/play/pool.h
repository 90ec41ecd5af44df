/*
 * pool.h - games numbered 0, 1, 2, ... played on several threads: the one thread pool of
 * `crown match`, `crown sprt` and `crown lab`. Each thread may keep state of its own from
 * game to game (the CLI's outside engine processes); what a game does with its number
 * is the caller's, and `done` sees each game as it ends, under the pool's lock.
 */
#ifndef CROWN_PLAY_POOL_H
#define CROWN_PLAY_POOL_H

#include <stdbool.h>

enum { PLAY_POOL_MAX_JOBS = 64 };

typedef struct PlayPool {
    long count; /* games 0 .. count - 1 */
    int jobs;   /* threads, the calling one included: 1 .. PLAY_POOL_MAX_JOBS */
    void *ctx;
    /* A thread's own state, made when it starts and ended when it stops; both NULL
     * when the games need none. begin may return NULL. */
    void *(*thread_begin)(void *ctx);
    void (*thread_end)(void *ctx, void *thread);
    /* Plays game `index`, outside the lock: nothing another game writes may be read. */
    void (*play)(void *ctx, void *thread, long index);
    /* Under the lock as each game ends, in the order they end; false starts no more
     * (those running still end and are seen). NULL: every game is played. */
    bool (*done)(void *ctx, long index);
} PlayPool;

/* Plays the games, as many at once as there are jobs; returns how many started. A
 * thread that cannot be created leaves its games to the others. */
long play_pool_run(const PlayPool *p);

#endif
