/*
 * engine_protocol.c - the UCI-family loop shared by the engine protocols: the reader
 * thread parses commands and answers at once, one search thread thinks on a copy of the
 * position so that `stop` and `isready` are heard while it runs. Every line written goes
 * through one lock, so the two threads never interleave output.
 */
#include "cli/engine_protocol.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/game_api.h"
#include "search/agent.h"

enum {
    MAX_TOKENS = 1024,
    HASH_MB_DEFAULT = 16,
    HASH_MB_MAX = 1024,
    LEVEL_DEFAULT = AGENT_LEVEL_MAX,
    MOVES_TO_GO_GUESS = 30,   /* moves left when the GUI does not say (sudden death) */
    MOVE_OVERHEAD_MS = 30,    /* kept back per move for the GUI and the pipes */
};

typedef struct Engine {
    const EngineDialect *d;
    GameState *pos;
    int level;
    long hash_mb;
    /* The search thread and what it shares with the reader, under `lock`. */
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_t thread;
    bool searching;   /* a thread was started and not yet joined */
    bool infinite;    /* bestmove waits for `stop` even when the search ends first */
    bool stop_asked;
    Agent *agent;
    GameState *search_pos;
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

static void report(Engine *e, const SearchResult *r)
{
    const Game *g = e->d->game;
    StrBuf line;
    sb_init(&line);
    int64_t ms = r->time_ms > 0 ? r->time_ms : 1;
    sb_printf(&line, "info depth %d score ", r->depth);
    append_score(r, &line);
    sb_printf(&line, " nodes %" PRIu64 " nps %" PRIu64 " time %" PRId64 " pv", r->nodes,
              r->nodes * 1000 / (uint64_t)ms, r->time_ms);
    GameState *walk = game_state_clone(g, e->search_pos);
    void *undo = game_undo_new(g);
    for (int i = 0; walk && undo && i < r->pv_len && !game_is_over(g, walk); i++) {
        sb_putc(&line, ' ');
        e->d->write_move(g, walk, r->pv[i], &line);
        g->ops->make(g, walk, r->pv[i], undo);
    }
    free(walk);
    free(undo);
    say(e, "%s", sb_str(&line));
    sb_free(&line);
}

static void *search_main(void *arg)
{
    Engine *e = arg;
    const Game *g = e->d->game;
    SearchResult r;
    ErrBuf err;
    bool ok = agent_think(e->agent, e->search_pos, &r, &err) == STATUS_OK;
    if (ok)
        report(e, &r);
    else
        say(e, "info string error: %s", err.msg);
    pthread_mutex_lock(&e->lock);
    while (e->infinite && !e->stop_asked)
        pthread_cond_wait(&e->wake, &e->lock);
    pthread_mutex_unlock(&e->lock);
    if (ok) {
        StrBuf mv;
        sb_init(&mv);
        e->d->write_move(g, e->search_pos, r.best, &mv);
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
    agent_free(e->agent);
    e->agent = NULL;
    free(e->search_pos);
    e->search_pos = NULL;
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
    const Game *g = e->d->game;
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
        for (i++; ok && i < n; i++) {
            Move m;
            if (game_play_text(g, s, tok[i], &m, &err) != STATUS_OK) {
                say(e, "info string error: move '%s': %s", tok[i], err.msg);
                ok = false;
            }
        }
    }
    if (ok) {
        free(e->pos);
        e->pos = s;
    } else {
        free(s);
    }
}

/* The time for this move from the clock fields: an even share of what is left over
 * the moves to go, plus most of the increment, never more than a third of the clock. */
static int64_t budget_ms(int64_t left, int64_t inc, long moves_to_go)
{
    long mtg = moves_to_go > 0 ? moves_to_go : MOVES_TO_GO_GUESS;
    int64_t t = left / mtg + inc * 3 / 4;
    int64_t cap = left / 3;
    if (t > cap)
        t = cap;
    t -= MOVE_OVERHEAD_MS;
    return t < 1 ? 1 : t;
}

static void cmd_go(Engine *e, char **tok, int n)
{
    const Game *g = e->d->game;
    long depth = 0, movetime = 0, mtg = 0;
    long clock[2] = {-1, -1}, inc[2] = {0, 0}, nodes = 0;
    bool infinite = false;
    static const char *const CLOCKS[2][2] = {{"wtime", "winc"}, {"btime", "binc"}};
    for (int i = 1; i < n; i++) {
        const char *k = tok[i];
        if (strcmp(k, "infinite") == 0) {
            infinite = true;
            continue;
        }
        if (strcmp(k, "ponder") == 0)
            continue; /* no Ponder option is offered; think as for a normal move */
        long *slot = strcmp(k, "depth") == 0      ? &depth
                     : strcmp(k, "nodes") == 0    ? &nodes
                     : strcmp(k, "movetime") == 0 ? &movetime
                     : strcmp(k, "movestogo") == 0 ? &mtg
                                                   : NULL;
        for (int p = 0; p < 2 && !slot; p++) {
            if (strcmp(k, CLOCKS[p][0]) == 0)
                slot = &clock[p];
            else if (strcmp(k, CLOCKS[p][1]) == 0)
                slot = &inc[p];
        }
        if (!slot) {
            say(e, "info string error: go: unknown word '%s'", k);
            return;
        }
        long max = strcmp(k, "depth") == 0 ? SEARCH_MAX_PLY : 1000000000L * 1000;
        long min = (slot == &clock[0] || slot == &clock[1]) ? -1000000000L : 0;
        if (i + 1 >= n || !read_long(tok[i + 1], min, max, slot)) {
            say(e, "info string error: go: %s takes a whole number from %ld to %ld", k, min,
                max);
            return;
        }
        i++;
    }
    int mover = g->ops->to_move(g, e->pos);
    AgentSpec spec;
    agent_spec_default(&spec);
    spec.level = e->level;
    if (infinite) {
        spec.limits.depth = SEARCH_UNLIMITED;
        spec.limits.movetime_ms = SEARCH_UNLIMITED;
        spec.limits.nodes = UINT64_MAX;
    } else {
        spec.limits.depth = (int)depth;
        spec.limits.nodes = (uint64_t)nodes;
        if (movetime > 0)
            spec.limits.movetime_ms = movetime;
        else if (mover >= 0 && mover < 2 && clock[mover] >= 0)
            spec.limits.movetime_ms = budget_ms(clock[mover], inc[mover], mtg);
        else if (depth > 0 || nodes > 0)
            spec.limits.movetime_ms = SEARCH_UNLIMITED; /* exact, repeatable searches */
        if ((movetime > 0 || spec.limits.movetime_ms > 0) && depth == 0)
            spec.limits.depth = SEARCH_UNLIMITED; /* a clock alone decides */
    }
    ErrBuf err;
    Agent *a;
    if (agent_new(g, &spec, &a, &err) != STATUS_OK) {
        say(e, "info string error: %s", err.msg);
        return;
    }
    if (agent_set_memory(a, (size_t)e->hash_mb << 20, &err) != STATUS_OK)
        say(e, "info string error: Hash: %s; the default size is kept", err.msg);
    e->search_pos = game_state_clone(g, e->pos);
    if (!e->search_pos) {
        agent_free(a);
        say(e, "info string error: out of memory");
        return;
    }
    e->agent = a;
    e->infinite = infinite;
    e->stop_asked = false;
    if (pthread_create(&e->thread, NULL, search_main, e) != 0) {
        agent_free(a);
        e->agent = NULL;
        free(e->search_pos);
        e->search_pos = NULL;
        say(e, "info string error: cannot start the search thread");
        return;
    }
    e->searching = true;
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
        if (read_long(value, 1, HASH_MB_MAX, &v))
            e->hash_mb = v;
        else
            say(e, "info string error: Hash takes 1 to %d (MB), not '%s'", HASH_MB_MAX, value);
    } else if (strcasecmp(sb_str(&name), "Threads") == 0) {
        if (!read_long(value, 1, 1, &v))
            say(e, "info string error: Threads: this engine searches with 1 thread");
    } else if (strcasecmp(sb_str(&name), "Level") == 0) {
        if (read_long(value, AGENT_LEVEL_MIN, AGENT_LEVEL_MAX, &v))
            e->level = (int)v;
        else
            say(e, "info string error: Level takes %d to %d, not '%s'", AGENT_LEVEL_MIN,
                AGENT_LEVEL_MAX, value);
    } else {
        say(e, "info string error: no option '%s' (Hash, Threads, Level)", sb_str(&name));
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
    say(e, "%s", e->d->hello_ok);
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
        e->d->game->ops->new_game(e->d->game, e->pos, 0);
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
    Engine e = {.d = d, .level = LEVEL_DEFAULT, .hash_mb = HASH_MB_DEFAULT};
    pthread_mutex_init(&e.lock, NULL);
    pthread_cond_init(&e.wake, NULL);
    e.pos = game_state_new(d->game);
    if (!e.pos)
        return 1;
    d->game->ops->new_game(d->game, e.pos, 0);
    char *line = NULL;
    size_t cap = 0;
    bool quit = false;
    while (!quit && getline(&line, &cap, stdin) >= 0)
        quit = !handle(&e, line);
    /* At the end of input a search runs to its limits (scripts pipe `go depth N`); on
     * `quit`, or with nothing left to stop `go infinite`, it stops at once. */
    finish_search(&e, quit || e.infinite);
    free(line);
    free(e.pos);
    pthread_cond_destroy(&e.wake);
    pthread_mutex_destroy(&e.lock);
    return 0;
}
