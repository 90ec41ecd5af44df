/*
 * engine_protocol.c - the UCI-family loop shared by the engine protocols: the reader
 * thread parses commands and answers at once, one search thread thinks on a copy of the
 * position so that `stop` and `isready` are heard while it runs. Every line written goes
 * through one lock, so the two threads never interleave output. One agent serves the
 * whole game, so that what a search learnt (TT, history) helps the next move and no
 * move pays for allocating it.
 */
#include "cli/engine_protocol.h"

#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/game_api.h"
#include "play/turn.h"
#include "search/agent.h"
#include "search/nnue.h"
#include "search/timeman.h"

enum {
    MAX_TOKENS = 1024,
    HASH_MB_DEFAULT = 16,
    HASH_MB_MAX = 1024,
    OVERHEAD_MS_MAX = 5000,
    LEVEL_DEFAULT = AGENT_LEVEL_MAX,
    TURN_CAP = 64, /* the most actions of one turn in a `moves` word or a bestmove */
};

typedef struct Engine {
    const EngineDialect *d;
    Game *game; /* replaced by a rule setoption; never while a search runs */
    GameState *pos;
    int level;
    /* Eval: the game's network or its hand-written evaluation; until set, the game's
     * default (nnue_is_default) */
    AgentEval eval;
    long hash_mb;
    long overhead_ms; /* Move Overhead: what a move costs beyond the search */
    /* Made at the first `isready` or `go`, told a new game by `ucinewgame`, dropped (and
     * made again when next needed) when Hash, Level or a rule changes. */
    Agent *agent;
    /* The search thread and what it shares with the reader, under `lock`. */
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_t thread;
    bool searching;   /* a thread was started and not yet joined */
    bool infinite;    /* bestmove waits for `stop` even when the search ends first */
    bool stop_asked;
    TurnClock turn; /* the turn being answered: each `go` starts one */
    GameState *search_pos;
    int64_t again_ms; /* time for each later action of a turn of several (0: none) */
    /* The running `go`'s searchmoves (first actions), and the listener that writes an
     * `info` line per iteration. */
    Move root_moves[MOVELIST_CAP];
    int root_move_count;
    SearchProgress progress;
    bool reporting; /* the search thread's: its search is of search_pos */
} Engine;

static void say(Engine *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(Engine *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&e->lock);
    vprintf(fmt, ap);
    putchar('\n');
    fflush(stdout);
    pthread_mutex_unlock(&e->lock);
    va_end(ap);
}

/* UCI and its kin count a mate in moves of the side that mates, not in actions. */
static void append_score(const SearchResult *r, StrBuf *out)
{
    if (!r->has_score) {
        sb_printf(out, "cp %d", (int)(r->value * 100.0));
    } else if (score_is_decisive(r->score)) {
        int actions = SCORE_WIN - (r->score > 0 ? r->score : -r->score);
        int moves = (actions + 1) / 2;
        sb_printf(out, "mate %d", r->score > 0 ? moves : -moves);
    } else {
        sb_printf(out, "cp %d", r->score);
    }
}

/* One `info` line: the search's depth (and seldepth and hashfull where known, -1
 * where not), score, nodes, speed, time and line. */
static void report(Engine *e, const SearchResult *r, int seldepth, int hashfull)
{
    const Game *g = e->game;
    StrBuf line;
    sb_init(&line);
    int64_t ms = r->time_ms > 0 ? r->time_ms : 1;
    sb_printf(&line, "info depth %d", r->depth);
    if (seldepth >= 0)
        sb_printf(&line, " seldepth %d", seldepth);
    sb_puts(&line, " score ");
    append_score(r, &line);
    sb_printf(&line, " nodes %" PRIu64 " nps %" PRIu64, r->nodes, r->nodes * 1000 / (uint64_t)ms);
    if (hashfull >= 0)
        sb_printf(&line, " hashfull %d", hashfull);
    sb_printf(&line, " time %" PRId64 " pv", r->time_ms);
    if (r->pv_len > 0)
        sb_putc(&line, ' ');
    protocol_write_line(e->d->write_move, g, e->search_pos, r->pv, r->pv_len, &line);
    say(e, "%s", sb_str(&line));
    sb_free(&line);
}

/* The search's listener, on the searching thread: an `info` line per completed
 * iteration, and the root move being searched once a search has run a second. Only
 * the search of a turn's first action reports (e->reporting), since the lines are
 * written from e->search_pos. */
static void on_iteration(void *ctx, const SearchResult *so_far, int seldepth, int hashfull)
{
    Engine *e = ctx;
    if (e->reporting)
        report(e, so_far, seldepth, hashfull);
}

static void on_root_move(void *ctx, Move move, int number, int depth)
{
    Engine *e = ctx;
    if (!e->reporting)
        return;
    StrBuf mv;
    sb_init(&mv);
    e->d->write_move(e->game, e->search_pos, move, &mv);
    say(e, "info depth %d currmove %s currmovenumber %d", depth, sb_str(&mv), number);
    sb_free(&mv);
}

static bool is_legal(const Game *g, const GameState *s, Move m)
{
    MoveList list;
    g->ops->gen_moves(g, s, &list);
    for (int i = 0; i < list.count; i++)
        if (list.moves[i] == m)
            return true;
    return false;
}

/* The rest of the mover's turn after its first action: the principal variation's own
 * actions while they last, then short searches of their own, so that the bestmove is a
 * whole turn. */
static int finish_turn(Engine *e, const SearchResult *r, Move *acts, ErrBuf *err)
{
    const Game *g = e->game;
    GameState *walk = game_state_clone(g, e->search_pos);
    void *undo = game_undo_new(g);
    int n = 0;
    if (walk == NULL || undo == NULL) {
        free(walk);
        free(undo);
        err_set(err, STATUS_NOMEM, "out of memory");
        return 0;
    }
    const int mover = g->ops->to_move(g, walk);
    e->reporting = false; /* later actions are searched from other positions */
    agent_set_root_moves(e->agent, NULL, 0);
    acts[n++] = r->best;
    g->ops->make(g, walk, r->best, undo);
    int next = 1;
    while (n < TURN_CAP && g->ops->to_move(g, walk) == mover) {
        Move m;
        if (next < r->pv_len && is_legal(g, walk, r->pv[next])) {
            m = r->pv[next++];
        } else {
            SearchResult more;
            next = SEARCH_PV_CAP; /* the old line no longer applies */
            agent_set_movetime(e->agent, e->again_ms);
            pthread_mutex_lock(&e->lock);
            const bool stopped = e->stop_asked;
            pthread_mutex_unlock(&e->lock);
            if (stopped)
                agent_stop(e->agent); /* after `stop`, the shortest search each */
            if (agent_think_in_turn(e->agent, walk, &e->turn, &more, err) != STATUS_OK) {
                n = 0;
                break;
            }
            m = more.best;
        }
        acts[n++] = m;
        g->ops->make(g, walk, m, undo);
    }
    free(walk);
    free(undo);
    return n;
}

static void *search_main(void *arg)
{
    Engine *e = arg;
    const Game *g = e->game;
    SearchResult r;
    ErrBuf err;
    Move acts[TURN_CAP];
    int n = 0;
    bool ok = agent_think_in_turn(e->agent, e->search_pos, &e->turn, &r, &err) == STATUS_OK;
    if (ok) {
        report(e, &r, -1, -1);
        n = finish_turn(e, &r, acts, &err);
        ok = n > 0;
    }
    if (!ok)
        say(e, "info string error: %s", err.msg);
    pthread_mutex_lock(&e->lock);
    while (e->infinite && !e->stop_asked)
        pthread_cond_wait(&e->wake, &e->lock);
    pthread_mutex_unlock(&e->lock);
    if (ok) {
        StrBuf mv;
        sb_init(&mv);
        protocol_write_line(e->d->write_move, g, e->search_pos, acts, n, &mv);
        say(e, "bestmove %s", sb_str(&mv));
        sb_free(&mv);
    } else {
        say(e, "bestmove 0000"); /* the protocols' null move: no move to give */
    }
    return NULL;
}

/* Ends the running search, if any: asked to stop at once, or let run to its limits. */
static void finish_search(Engine *e, bool stop_now)
{
    if (!e->searching)
        return;
    if (stop_now) {
        pthread_mutex_lock(&e->lock);
        e->stop_asked = true;
        pthread_cond_broadcast(&e->wake);
        pthread_mutex_unlock(&e->lock);
        agent_stop(e->agent);
    }
    pthread_join(e->thread, NULL);
    e->searching = false;
    free(e->search_pos);
    e->search_pos = NULL;
}

/* The game's agent, made now if there is none; NULL after saying why it cannot be. */
static Agent *session_agent(Engine *e)
{
    if (e->agent != NULL)
        return e->agent;
    AgentSpec spec;
    agent_spec_default(&spec);
    spec.level = e->level;
    spec.eval = nnue_has_builtin(e->game) ? e->eval : AGENT_EVAL_DEFAULT;
    ErrBuf err;
    if (agent_new(e->game, &spec, &e->agent, &err) != STATUS_OK) {
        say(e, "info string error: %s", err.msg);
        return NULL;
    }
    if (agent_set_memory(e->agent, (size_t)e->hash_mb << 20, &err) != STATUS_OK)
        say(e, "info string error: Hash: %s; the default size is kept", err.msg);
    return e->agent;
}

/* After a change of what the agent is made from; never while a search runs. */
static void drop_agent(Engine *e)
{
    agent_free(e->agent);
    e->agent = NULL;
}

static bool read_long(const char *text, long min, long max, long *out)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || v < min || v > max)
        return false;
    *out = v;
    return true;
}

/* `position startpos|fen TEXT... [moves M...]`: built on a copy, kept only if all reads. */
static void cmd_position(Engine *e, char **tok, int n)
{
    const Game *g = e->game;
    GameState *s = game_state_new(g);
    ErrBuf err;
    int i = 1;
    bool ok = s != NULL;
    if (ok && i < n && strcmp(tok[i], "startpos") == 0) {
        g->ops->new_game(g, s, 0);
        i++;
    } else if (ok && i < n && strcmp(tok[i], "fen") == 0) {
        StrBuf fen;
        sb_init(&fen);
        for (i++; i < n && strcmp(tok[i], "moves") != 0; i++)
            sb_printf(&fen, "%s%s", fen.len ? " " : "", tok[i]);
        ok = g->ops->parse_position(g, s, sb_str(&fen), &err) == STATUS_OK;
        if (!ok)
            say(e, "info string error: position fen: %s", err.msg);
        sb_free(&fen);
    } else {
        say(e, "info string error: position takes startpos or fen TEXT, then moves");
        ok = false;
    }
    if (ok && i < n) {
        if (strcmp(tok[i], "moves") != 0) {
            say(e, "info string error: position: expected 'moves', not '%s'", tok[i]);
            ok = false;
        }
        void *undo = game_undo_new(g);
        for (i++; ok && i < n; i++) {
            Move acts[TURN_CAP];
            int k = 0;
            if (undo == NULL ||
                play_parse_turn(g, s, tok[i], acts, TURN_CAP, &k, &err) != STATUS_OK) {
                say(e, "info string error: move '%s': %s", tok[i],
                    undo ? err.msg : "out of memory");
                ok = false;
            }
            for (int j = 0; j < k; j++)
                g->ops->make(g, s, acts[j], undo);
        }
        free(undo);
    }
    if (ok) {
        free(e->pos);
        e->pos = s;
    } else {
        free(s);
    }
}

/* The words of `go` that take a number, and the slot each fills; NULL if k is none. */
static long *go_number_slot(Engine *e, const char *k, long *depth, long *nodes, long *movetime,
                            long *mtg, long *mate, long clock[2], long inc[2])
{
    const char *const(*CLOCKS)[2] = e->d->clock_words;
    if (strcmp(k, "depth") == 0)
        return depth;
    if (strcmp(k, "nodes") == 0)
        return nodes;
    if (strcmp(k, "movetime") == 0)
        return movetime;
    if (strcmp(k, "movestogo") == 0)
        return mtg;
    if (strcmp(k, "mate") == 0)
        return mate;
    for (int p = 0; p < 2; p++) {
        if (strcmp(k, CLOCKS[p][0]) == 0)
            return &clock[p];
        if (strcmp(k, CLOCKS[p][1]) == 0)
            return &inc[p];
    }
    return NULL;
}

/* Whether k is a word `go` knows, so that searchmoves' list ends before it. */
static bool is_go_word(Engine *e, const char *k)
{
    long x[7], c[2], d[2];
    return strcmp(k, "infinite") == 0 || strcmp(k, "ponder") == 0 ||
           strcmp(k, "searchmoves") == 0 ||
           go_number_slot(e, k, &x[0], &x[1], &x[2], &x[3], &x[4], c, d) != NULL;
}

/* Reads `searchmoves`' moves from tok[i..) into e->root_moves (the first action of each
 * word); returns the index of the first token after them. A word that is not a legal
 * move here is reported and skipped. */
static int read_searchmoves(Engine *e, char **tok, int i, int n)
{
    const Game *g = e->game;
    e->root_move_count = 0;
    for (; i < n && !is_go_word(e, tok[i]); i++) {
        Move acts[TURN_CAP];
        int k = 0;
        ErrBuf err;
        if (play_parse_turn(g, e->pos, tok[i], acts, TURN_CAP, &k, &err) != STATUS_OK || k == 0) {
            say(e, "info string go: searchmoves: '%s' is not a legal move here, ignored",
                tok[i]);
            continue;
        }
        if (e->root_move_count < MOVELIST_CAP)
            e->root_moves[e->root_move_count++] = acts[0];
    }
    return i;
}

/* `go`: every word it does not know, and every number out of range, is reported on an
 * `info string` line and ignored (the UCI spec: a GUI must never be left without a
 * bestmove). */
static void cmd_go(Engine *e, char **tok, int n)
{
    const Game *g = e->game;
    long depth = 0, movetime = 0, mtg = 0, mate = 0;
    long clock[2] = {-1, -1}, inc[2] = {0, 0}, nodes = 0;
    bool infinite = false;
    e->root_move_count = 0;
    for (int i = 1; i < n; i++) {
        const char *k = tok[i];
        if (strcmp(k, "infinite") == 0) {
            infinite = true;
            continue;
        }
        if (strcmp(k, "ponder") == 0)
            continue; /* no Ponder option is offered; think as for a normal move */
        if (strcmp(k, "searchmoves") == 0) {
            i = read_searchmoves(e, tok, i + 1, n) - 1;
            continue;
        }
        long *slot = go_number_slot(e, k, &depth, &nodes, &movetime, &mtg, &mate, clock, inc);
        if (!slot) {
            long ignored;
            if (i + 1 < n && read_long(tok[i + 1], LONG_MIN, LONG_MAX, &ignored)) {
                say(e, "info string go: unknown word '%s %s' ignored", k, tok[i + 1]);
                i++; /* another protocol's word and its number (UGI's wtime 1000, say) */
            } else {
                say(e, "info string go: unknown word '%s' ignored", k);
            }
            continue;
        }
        long max = slot == &depth ? SEARCH_MAX_PLY : slot == &mate ? SEARCH_MAX_PLY / 2
                                                                   : 1000000000L * 1000;
        long min = (slot == &clock[0] || slot == &clock[1]) ? -1000000000L : 0;
        long value;
        if (i + 1 >= n || !read_long(tok[i + 1], min, max, &value)) {
            say(e, "info string go: %s takes a whole number from %ld to %ld; ignored", k, min,
                max);
            if (i + 1 < n && !is_go_word(e, tok[i + 1]))
                i++; /* the bad value goes with its word */
            continue;
        }
        *slot = value;
        i++;
    }
    /* A mate in N moves of the mover is at most 2N - 1 actions away (one action a
     * turn; games whose turns have several are searched that deep all the same). */
    if (mate > 0 && depth == 0)
        depth = 2 * mate - 1;
    int mover = g->ops->to_move(g, e->pos);
    SearchLimits lim = {0};
    if (infinite) {
        lim.depth = SEARCH_UNLIMITED;
        lim.movetime_ms = SEARCH_UNLIMITED;
        lim.nodes = UINT64_MAX;
    } else {
        lim.depth = (int)depth;
        lim.nodes = (uint64_t)nodes;
        if (movetime > 0)
            lim.movetime_ms = movetime;
        else if (mover >= 0 && mover < 2 && clock[mover] >= 0)
            lim.movetime_ms =
                time_budget_ms(clock[mover], inc[mover], (int)mtg, e->overhead_ms);
        else if (depth > 0 || nodes > 0)
            lim.movetime_ms = SEARCH_UNLIMITED; /* exact, repeatable searches */
        if ((movetime > 0 || lim.movetime_ms > 0) && depth == 0)
            lim.depth = SEARCH_UNLIMITED; /* a clock alone decides */
    }
    Agent *a = session_agent(e);
    if (a == NULL)
        return;
    e->search_pos = game_state_clone(g, e->pos);
    if (!e->search_pos) {
        say(e, "info string error: out of memory");
        return;
    }
    lim.root_moves = e->root_moves;
    lim.root_move_count = e->root_move_count;
    lim.progress = &e->progress;
    agent_set_limits(a, &lim);
    turn_clock_init(&e->turn);
    /* The later actions of a turn, when the line does not give them, take a tenth of
     * the first one's time, so that a clock is not spent twice; after `go infinite`,
     * which `stop` ended, a tenth of a second each, so that bestmove follows soon. */
    const SearchLimits eff = agent_limits(a);
    e->again_ms = eff.movetime_ms > 0                ? eff.movetime_ms / 10 + 1
                  : (eff.depth > 0 || eff.nodes > 0) ? 0
                                                     : 100;
    e->infinite = infinite;
    e->stop_asked = false;
    e->reporting = true;
    if (pthread_create(&e->thread, NULL, search_main, e) != 0) {
        free(e->search_pos);
        e->search_pos = NULL;
        say(e, "info string error: cannot start the search thread");
        return;
    }
    e->searching = true;
}

/* A rule option by its name, when the dialect offers them; -1 when none is. */
static int rule_option(const Engine *e, const char *name)
{
    if (!e->d->rule_options)
        return -1;
    const GameOps *ops = e->game->ops;
    for (int i = 0; i < ops->option_count; i++)
        if (ops->options[i].kind != RULE_FILE && strcasecmp(ops->options[i].name, name) == 0)
            return i;
    return -1;
}

/* The game again with one rule changed, from its start position; on error the game and
 * the position stay. */
static void set_rule(Engine *e, int index, const char *value)
{
    const Game *old = e->game;
    RuleSetting rules[GAME_MAX_OPTIONS];
    for (int i = 0; i < old->ops->option_count; i++)
        rules[i] = (RuleSetting){old->ops->options[i].name, i == index ? value : old->values[i]};
    Game *g;
    ErrBuf err;
    if (game_create(old->ops, old->players, rules, old->ops->option_count, &g, &err) !=
        STATUS_OK) {
        say(e, "info string error: %s", err.msg);
        return;
    }
    GameState *pos = game_state_new(g);
    if (pos == NULL) {
        game_destroy(g);
        say(e, "info string error: out of memory");
        return;
    }
    g->ops->new_game(g, pos, 0);
    drop_agent(e); /* it plays the old game */
    free(e->pos);
    game_destroy(e->game);
    e->game = g;
    e->pos = pos;
}

/* `setoption name NAME... [value VALUE...]`, names without regard to case. */
static void cmd_setoption(Engine *e, char **tok, int n)
{
    int i = 1;
    if (i >= n || strcmp(tok[i], "name") != 0) {
        say(e, "info string error: setoption takes name NAME value VALUE");
        return;
    }
    StrBuf name;
    sb_init(&name);
    for (i++; i < n && strcmp(tok[i], "value") != 0; i++)
        sb_printf(&name, "%s%s", name.len ? " " : "", tok[i]);
    const char *value = i + 1 < n ? tok[i + 1] : "";
    long v;
    if (strcasecmp(sb_str(&name), "Hash") == 0) {
        if (read_long(value, 1, HASH_MB_MAX, &v)) {
            if (v != e->hash_mb)
                drop_agent(e);
            e->hash_mb = v;
        } else
            say(e, "info string error: Hash takes 1 to %d (MB), not '%s'", HASH_MB_MAX, value);
    } else if (strcasecmp(sb_str(&name), "Threads") == 0) {
        if (!read_long(value, 1, 1, &v))
            say(e, "info string error: Threads: this engine searches with 1 thread");
    } else if (strcasecmp(sb_str(&name), "Level") == 0) {
        if (read_long(value, AGENT_LEVEL_MIN, AGENT_LEVEL_MAX, &v)) {
            if (v != e->level)
                drop_agent(e);
            e->level = (int)v;
        } else
            say(e, "info string error: Level takes %d to %d, not '%s'", AGENT_LEVEL_MIN,
                AGENT_LEVEL_MAX, value);
    } else if (strcasecmp(sb_str(&name), "Eval") == 0 && nnue_has_builtin(e->game)) {
        AgentEval eval;
        if (agent_eval_parse(value, &eval)) {
            if (eval != e->eval)
                drop_agent(e);
            e->eval = eval;
        } else
            say(e, "info string error: Eval takes classic or nnue, not '%s'", value);
    } else if (strcasecmp(sb_str(&name), "Move Overhead") == 0) {
        if (read_long(value, 0, OVERHEAD_MS_MAX, &v))
            e->overhead_ms = v;
        else
            say(e, "info string error: Move Overhead takes 0 to %d (ms), not '%s'",
                OVERHEAD_MS_MAX, value);
    } else if (rule_option(e, sb_str(&name)) >= 0) {
        set_rule(e, rule_option(e, sb_str(&name)), value);
    } else {
        say(e, "info string error: no option '%s' (Hash, Threads, Level, %sMove Overhead%s)",
            sb_str(&name), nnue_has_builtin(e->game) ? "Eval, " : "",
            e->d->rule_options ? " or a rule option of the game" : "");
    }
    sb_free(&name);
}

static void cmd_hello(Engine *e)
{
    say(e, "id name %s", e->d->engine_name);
    say(e, "id author the crown authors");
    say(e, "option name Hash type spin default %d min 1 max %d", HASH_MB_DEFAULT, HASH_MB_MAX);
    say(e, "option name Threads type spin default 1 min 1 max 1");
    say(e, "option name Level type spin default %d min %d max %d", LEVEL_DEFAULT,
        AGENT_LEVEL_MIN, AGENT_LEVEL_MAX);
    if (nnue_has_builtin(e->game))
        say(e, "option name Eval type combo default %s var classic var nnue",
            nnue_is_default(e->game) ? "nnue" : "classic");
    say(e, "option name Move Overhead type spin default %d min 0 max %d", TIME_OVERHEAD_MS,
        OVERHEAD_MS_MAX);
    const GameOps *ops = e->game->ops;
    for (int i = 0; e->d->rule_options && i < ops->option_count; i++) {
        const RuleOption *o = &ops->options[i];
        const char *now = e->game->values[i];
        if (o->kind == RULE_INTEGER) {
            say(e, "option name %s type spin default %s min %ld max %ld", o->name, now, o->min,
                o->max);
        } else if (o->kind == RULE_CHOICE) {
            StrBuf vars;
            sb_init(&vars);
            for (const char *p = o->choices; *p;) {
                size_t len = strcspn(p, "|");
                sb_printf(&vars, " var %.*s", (int)len, p);
                p += len + (p[len] == '|');
            }
            say(e, "option name %s type combo default %s%s", o->name, now, sb_str(&vars));
            sb_free(&vars);
        } else if (o->kind == RULE_TEXT) {
            say(e, "option name %s type string default %s", o->name, now);
        }
    }
    say(e, "%s", e->d->hello_ok);
}

/* `query gameover|p1turn|result`, answered with one `response` line. */
static void cmd_query(Engine *e, char **tok, int n)
{
    const Game *g = e->game;
    const int p = g->ops->to_move(g, e->pos);
    if (n != 2) {
        say(e, "info string error: query takes one of gameover, p1turn, result");
    } else if (strcmp(tok[1], "gameover") == 0) {
        say(e, "response %s", p == PLAYER_NONE ? "true" : "false");
    } else if (strcmp(tok[1], "p1turn") == 0) {
        say(e, "response %s", p == 0 ? "true" : "false");
    } else if (strcmp(tok[1], "result") == 0) {
        double ret[MAX_PLAYERS];
        if (p != PLAYER_NONE) {
            say(e, "response none");
            return;
        }
        g->ops->returns(g, e->pos, ret);
        say(e, "response %s", ret[0] > ret[1] ? "p1win" : ret[0] < ret[1] ? "p2win" : "draw");
    } else {
        say(e, "info string error: query '%s': ask gameover, p1turn or result", tok[1]);
    }
}

/* One command line; returns false on `quit`. A command that changes what is searched
 * waits for a running search to end (GUIs send `stop` first; scripts need not), but
 * ends a `go infinite` at once since nothing else would. */
static bool handle(Engine *e, char *line)
{
    char *tok[MAX_TOKENS];
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(line, " \t\r\n", &save); t && n < MAX_TOKENS;
         t = strtok_r(NULL, " \t\r\n", &save))
        tok[n++] = t;
    if (n == 0)
        return true;
    const char *c = tok[0];
    if (strcmp(c, "quit") == 0)
        return false;
    if (strcmp(c, "isready") == 0) {
        if (!e->searching)
            session_agent(e); /* made now, before a clock runs */
        say(e, "readyok");
    } else if (strcmp(c, "stop") == 0) {
        finish_search(e, true);
    } else if (strcmp(c, "ponderhit") == 0 || strcmp(c, "debug") == 0 ||
               strcmp(c, "register") == 0) {
        /* nothing to do: no pondering, no debug output, no registration */
    } else if (strcmp(c, e->d->hello) == 0) {
        cmd_hello(e);
    } else if (strcmp(c, e->d->new_game) == 0) {
        finish_search(e, e->infinite);
        e->game->ops->new_game(e->game, e->pos, 0);
        if (e->agent != NULL)
            agent_new_game(e->agent); /* nothing learnt carries into another game */
    } else if (e->d->queries && strcmp(c, "query") == 0) {
        cmd_query(e, tok, n);
    } else if (strcmp(c, "position") == 0) {
        finish_search(e, e->infinite);
        cmd_position(e, tok, n);
    } else if (strcmp(c, "go") == 0) {
        finish_search(e, e->infinite);
        cmd_go(e, tok, n);
    } else if (strcmp(c, "setoption") == 0) {
        finish_search(e, e->infinite);
        cmd_setoption(e, tok, n);
    } else {
        say(e, "info string error: unknown command '%s'", c);
    }
    return true;
}

int engine_protocol_run(const EngineDialect *d)
{
    Engine e = {.d = d,
                .level = LEVEL_DEFAULT,
                .hash_mb = HASH_MB_DEFAULT,
                .overhead_ms = TIME_OVERHEAD_MS};
    e.progress = (SearchProgress){.iteration = on_iteration, .root_move = on_root_move, .ctx = &e};
    ErrBuf err;
    if (game_create(d->ops, 2, d->rules, d->n_rules, &e.game, &err) != STATUS_OK) {
        fprintf(stderr, "crown: %s\n", err.msg);
        return 1;
    }
    e.pos = game_state_new(e.game);
    if (!e.pos) {
        game_destroy(e.game);
        return 1;
    }
    e.game->ops->new_game(e.game, e.pos, 0);
    pthread_mutex_init(&e.lock, NULL);
    pthread_cond_init(&e.wake, NULL);
    char *line = NULL;
    size_t cap = 0;
    bool quit = false;
    while (!quit && getline(&line, &cap, stdin) >= 0)
        quit = !handle(&e, line);
    /* At the end of input a search runs to its limits (scripts pipe `go depth N`); on
     * `quit`, or with nothing left to stop `go infinite`, it stops at once. */
    finish_search(&e, quit || e.infinite);
    agent_free(e.agent);
    free(line);
    free(e.pos);
    game_destroy(e.game);
    pthread_cond_destroy(&e.wake);
    pthread_mutex_destroy(&e.lock);
    return 0;
}
