/*
 * tune_games.c - the self-play of crown tune --generate (tune_games.h). Games run on the
 * one thread pool (play/pool.h) and are handed on in their own order, whatever order they
 * end in, so that a data file depends on its seed and not on the threads.
 */
#include "play/tune_games.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "core/record.h"
#include "core/rng.h"
#include "core/strbuf.h"
#include "play/chances.h"
#include "play/hint.h"
#include "play/pool.h"
#include "play/seats.h"
#include "play/self_play.h"
#include "play/tune_data.h"
#include "search/agent.h"

typedef struct Played {
    StrBuf lines;
    int positions;
    bool failed;
    char error[ERRBUF_LEN];
} Played;

typedef struct Run {
    const TuneGames *t;
    Played *played;   /* per game */
    bool *finished;   /* per game; guarded by the pool's lock */
    long next_report; /* the first game not yet handed on; guarded by the pool's lock */
    bool stop;
} Run;

bool tune_position_quiet(const Game *g, const GameState *s, Move m, int prev_mover)
{
    const GameOps *ops = g->ops;
    const int mover = ops->to_move(g, s);
    if (mover < 0 || mover == prev_mover)
        return false;
    if (ops->in_check != NULL && ops->in_check(g, s))
        return false;
    return ops->noisy == NULL || ops->noisy(g, s, m) == 0;
}

static bool scoring(const TuneGames *t)
{
    return t->score_limits.depth > 0 || t->score_limits.nodes > 0;
}

/* The hint's agent for g with deterministic limits: no time limit of the level's. */
static Status score_agent(const Game *g, const SearchLimits *limits, AgentEval eval,
                          uint64_t seed, Agent **out, ErrBuf *err)
{
    AgentSpec spec;
    play_hint_agent(&spec, seed);
    spec.limits = *limits;
    spec.eval = eval;
    spec.limits.movetime_ms = SEARCH_UNLIMITED;
    Status st = agent_new(g, &spec, out, err);
    const AgentKind kind = st == STATUS_OK ? agent_kind(*out) : AGENT_ALPHABETA;
    if (kind != AGENT_ALPHABETA) {
        agent_free(*out);
        *out = NULL;
        st = err_set(err, STATUS_UNSUPPORTED,
                     "%s's hints come from %s, whose mean return is the win chance already: "
                     "no score to fit a curve to",
                     g->ops->name, agent_kind_name(kind));
    }
    return st;
}

Status tune_scores_check(const Game *g, ErrBuf *err)
{
    Agent *a;
    const SearchLimits lim = {.depth = 1};
    const Status st = score_agent(g, &lim, AGENT_EVAL_DEFAULT, 0, &a, err);
    agent_free(a);
    return st;
}

static uint64_t game_seed(const TuneGames *t, long index)
{
    uint64_t x = t->seed ^ ((uint64_t)index * 0x9e3779b97f4a7c15ULL);
    return rng_mix(&x);
}

/* Plays up to t->random_plies uniformly random actions from s (chance draws between them
 * not counted); returns how many were played. */
static int random_start(const Game *g, GameState *s, int plies, Rng *rng, ErrBuf *err,
                        bool *failed)
{
    MoveList list;
    void *undo = game_undo_new(g);
    if (undo == NULL) {
        *failed = true;
        err_set(err, STATUS_NOMEM, "out of memory");
        return 0;
    }
    int played = 0;
    while (played < plies && !game_is_over(g, s)) {
        Move m;
        if (g->ops->to_move(g, s) == PLAYER_CHANCE) {
            m = game_sample_chance(g, s, rng);
        } else {
            const int n = g->ops->gen_moves(g, s, &list);
            m = list.moves[rng_below(rng, (uint32_t)n)];
            played++;
        }
        g->ops->make(g, s, m, undo);
    }
    free(undo);
    return played;
}

/* The first player's points in a finished two-player game: 1, 0.5 or 0. */
static double first_points(const double returns[MAX_PLAYERS])
{
    return returns[0] > returns[1] ? 1 : returns[0] < returns[1] ? 0 : 0.5;
}

/* Writes the kept positions of rec, whose first action is the opening's action number
 * `first_ply`, into out: the quiet ones, or t->per_game of them drawn with rng (kept in
 * the game's order), since a long game's positions say much the same. */
static Status keep_positions(const TuneGames *t, const GameRecord *rec, int first_ply,
                             double result, Rng *rng, Played *out, ErrBuf *err)
{
    const Game *g = rec->game;
    GameState *s = game_state_clone(g, rec->start);
    void *undo = game_undo_new(g);
    bool *keep = calloc((size_t)rec->count + 1, sizeof *keep);
    int *quiet = malloc(((size_t)rec->count + 1) * sizeof *quiet);
    Status st = s && undo && keep && quiet ? STATUS_OK : err_set(err, STATUS_NOMEM, "out of memory");
    // First pass: which positions are quiet; then the draw among them.
    int n_quiet = 0, prev = PLAYER_NONE, ply = first_ply;
    for (int i = 0; st == STATUS_OK && i < rec->count; i++) {
        const int mover = g->ops->to_move(g, s);
        if (ply >= t->skip_plies && tune_position_quiet(g, s, rec->moves[i], prev))
            quiet[n_quiet++] = i;
        if (mover >= 0)
            ply++, prev = mover;
        g->ops->make(g, s, rec->moves[i], undo);
    }
    const int want = t->per_game > 0 && t->per_game < n_quiet ? t->per_game : n_quiet;
    for (int k = 0; st == STATUS_OK && k < want; k++) {
        const int j = k + (int)rng_below(rng, (uint32_t)(n_quiet - k));
        const int pick = quiet[j];
        quiet[j] = quiet[k];
        quiet[k] = pick;
        keep[pick] = true;
    }
    if (st == STATUS_OK)
        game_state_copy(g, s, rec->start);
    Agent *agent = NULL;
    if (st == STATUS_OK && scoring(t))
        st = score_agent(g, &t->score_limits, t->score_eval, rng_next(rng), &agent, err);
    for (int i = 0; st == STATUS_OK && i < rec->count; i++) {
        if (keep[i] && agent != NULL) {
            // A fresh search each time, as every hint is.
            SearchResult r;
            agent_new_game(agent);
            st = agent_think(agent, s, &r, err);
            const int first = g->ops->to_move(g, s) == 0 ? r.score : -r.score;
            if (st == STATUS_OK && !score_is_decisive(r.score)) {
                st = tune_data_line(g, s, result, &first, &out->lines, err);
                out->positions++;
            }
        } else if (keep[i]) {
            st = tune_data_line(g, s, result, NULL, &out->lines, err);
            out->positions++;
        }
        g->ops->make(g, s, rec->moves[i], undo);
    }
    // One exit for every path: each step above runs only while the last succeeded.
    agent_free(agent);
    free(s);
    free(undo);
    free(keep);
    free(quiet);
    return st;
}

static void play_one(const TuneGames *t, long index, Played *out)
{
    sb_init(&out->lines);
    ErrBuf err;
    const uint64_t seed = game_seed(t, index);
    const Game *g = t->game;
    Game *own;
    RuleSetting rules[GAME_MAX_OPTIONS];
    for (int i = 0; i < g->ops->option_count; i++)
        rules[i] = (RuleSetting){g->ops->options[i].name, g->values[i]};
    if (game_create(g->ops, g->players, rules, g->ops->option_count, &own, &err) != STATUS_OK)
        goto failed;
    GameState *start = game_state_new(own);
    if (start == NULL) {
        game_destroy(own);
        err_set(&err, STATUS_NOMEM, "out of memory");
        goto failed;
    }
    own->ops->new_game(own, start, seed);
    Rng chance;
    rng_seed(&chance, seed ^ 0x74756e652d726e67ULL);
    bool bad = false;
    const int first_ply = random_start(own, start, t->random_plies, &chance, &err, &bad);
    Seats seats;
    if (bad || seats_parse(t->players, own->players, &t->limits, seed, &seats, &err) != STATUS_OK) {
        free(start);
        game_destroy(own);
        goto failed;
    }
    const SelfPlay sp = {.seats = &seats, .chance = &chance};
    GameRecord rec;
    const Status began = self_play_begin(&sp, own, start, &rec, &err);
    free(start);
    if (began != STATUS_OK)
        goto failed;
    SelfPlayEnd end;
    Status st = self_play(&sp, &rec, &end, &err);
    if (st == STATUS_OK && end.forfeit != PLAYER_NONE)
        st = err_set(&err, STATUS_CONFLICT, "seat %d forfeited", end.forfeit + 1);
    if (st == STATUS_OK)
        st = keep_positions(t, &rec, first_ply, first_points(end.returns), &chance, out, &err);
    seats_stop(&seats);
    record_free(&rec);
    if (st == STATUS_OK)
        return;
failed:
    sb_clear(&out->lines);
    out->positions = 0;
    out->failed = true;
    snprintf(out->error, sizeof out->error, "%s", err.msg);
}

static void play(void *ctx, void *thread, long index)
{
    (void)thread;
    Run *r = ctx;
    play_one(r->t, index, &r->played[index]);
}

static bool done(void *ctx, long index)
{
    Run *r = ctx;
    r->finished[index] = true;
    while (!r->stop && r->next_report < r->t->games && r->finished[r->next_report]) {
        Played *p = &r->played[r->next_report];
        const bool go = r->t->game_done(r->t->ctx, r->next_report, sb_str(&p->lines),
                                        p->positions, p->failed ? p->error : NULL);
        sb_free(&p->lines);
        r->next_report++;
        r->stop = !go;
    }
    return !r->stop;
}

long tune_games_run(const TuneGames *t)
{
    if (t->games <= 0)
        return 0;
    Run r = {.t = t};
    r.played = calloc((size_t)t->games, sizeof *r.played);
    r.finished = calloc((size_t)t->games, sizeof *r.finished);
    if (r.played == NULL || r.finished == NULL) {
        free(r.played);
        free(r.finished);
        t->game_done(t->ctx, 0, "", 0, "out of memory");
        return 0;
    }
    const PlayPool pool = {.count = t->games, .jobs = t->jobs > 0 ? t->jobs : 1, .ctx = &r,
                           .play = play, .done = done};
    play_pool_run(&pool);
    // Games that ended after a stop were never handed on.
    for (long i = r.next_report; i < t->games; i++)
        if (r.finished[i])
            sb_free(&r.played[i].lines);
    free(r.played);
    free(r.finished);
    return r.next_report;
}
