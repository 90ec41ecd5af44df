/*
 * ai.h - the AI worker threads: queues of jobs (an AI seat's move, a hint), one per
 * client address taken in turn, served by a fixed number of threads, so that searches
 * never run on the threads that answer HTTP requests, the number of searches at once
 * is bounded, and no address's work holds back another's.
 */
#ifndef CROWN_WEB_AI_H
#define CROWN_WEB_AI_H

#include <stdbool.h>

#include "core/status.h"
#include "core/game.h"
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

/* Queues a move for the AI seat to move in s (the caller holds s->mu and has checked),
 * in the lane of the game's creator; the job holds a reference to s. */
void ai_queue_move(AiPool *p, Session *s);

/* A hint for `seat` in s, asked from address addr: waits for a worker to search a copy
 * of the position (a level-5 AI, at most a second) and writes the move's text and cells
 * and the score. STATUS_CONFLICT when the AI cannot play this game, or with *busy set
 * when a hint for s waits already or addr has srv->cfg.ai_queue hints waiting;
 * STATUS_IO when no worker took it within srv->cfg.hint_timeout_s; else as
 * session_copy_for_hint (session.h). */
enum { AI_HINT_VALUES = 64, AI_HINT_TURN = 16 };
typedef struct AiHint {
    char text[256];
    char read[256]; /* the move as players read it (game_format_move_read) */
    char cells[256];
    char score[64];
    char words[96]; /* the score in a player's words (play/chances.h) */
    char line[1024]; /* the search's best line: action texts, one a line ("" if none) */
    double chance;  /* the mover's win chance in [0, 1] */
    /* The search's own figures (search/limits.h), for an evaluation graph: a score in
     * centi-units from the mover's view when has_score, else MCTS's mean return. */
    bool has_score;
    int score_cu;
    double value;
    /* From a solved table (play/perfect.h), when one fits the game: every legal move's
     * exact value ("win in 9", "loss in 4", "draw"); n_values is 0 otherwise. */
    int n_values;
    struct {
        char text[32];
        char cells[32];
        char value[24];
    } values[AI_HINT_VALUES];
    /* The mover's whole turn along the search's line when it has several actions (a
     * King's Guard stack taken, then where its pieces go): n_turn of them, the first
     * being the hinted move; 0 for a turn of one action. */
    int n_turn;
    struct {
        char text[32];
        char cells[32];
    } turn[AI_HINT_TURN];
} AiHint;
Status ai_hint(AiPool *p, Session *s, int seat, const char *addr, AiHint *out, bool *busy,
               ErrBuf *err);
/* The same search, of a position of the caller's (owned by the call: freed), at a
 * smaller budget, for reviewing a game position by position; same refusals. */
Status ai_evaluate(AiPool *p, Session *s, GameState *state, const char *addr, AiHint *out,
                   bool *busy, ErrBuf *err);
/* The same search of a position of no game in play (the analysis board's): g is the
 * caller's and outlives the call, state is freed here; only addr's limit applies. */
Status ai_analyse(AiPool *p, const Game *g, GameState *state, const char *addr, AiHint *out,
                  bool *busy, ErrBuf *err);

#endif
