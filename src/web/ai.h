/*
 * ai.h - the AI worker threads: a queue of jobs (an AI seat's move, a hint) served by a
 * fixed number of threads, so that searches never run on the threads that answer HTTP
 * requests and the number of searches at once is bounded.
 */
#ifndef CROWN_WEB_AI_H
#define CROWN_WEB_AI_H

#include "core/status.h"
#include "search/limits.h"

typedef struct AiPool AiPool;
typedef struct Server Server;
typedef struct Session Session;

/* Starts `threads` workers (at least one). */
Status ai_pool_start(Server *srv, int threads, AiPool **out, ErrBuf *err);
/* Stops the workers: running searches are cut short, queued moves dropped, queued and
 * running hints answered with an error. Returns once every worker has ended. */
void ai_pool_stop(AiPool *p);
/* Frees the pool once no request thread can be waiting on it any more. */
void ai_pool_free(AiPool *p);

/* Queues a move for the AI seat to move in s (the caller holds s->mu and has checked). */
void ai_queue_move(AiPool *p, Session *s);

/* A hint for `seat` in s: waits for a worker to search a copy of the position (a level-4
 * AI) and writes the move's text and cells and the score. STATUS_CONFLICT when the AI
 * cannot play this game; else as session_copy_for_hint (session.h). */
enum { AI_HINT_VALUES = 64 };
typedef struct AiHint {
    char text[256];
    char cells[256];
    char score[64];
    /* From a solved table (play/perfect.h), when one fits the game: every legal move's
     * exact value ("win in 9", "loss in 4", "draw"); n_values is 0 otherwise. */
    int n_values;
    struct {
        char text[32];
        char cells[32];
        char value[24];
    } values[AI_HINT_VALUES];
} AiHint;
Status ai_hint(AiPool *p, Session *s, int seat, AiHint *out, ErrBuf *err);

#endif
