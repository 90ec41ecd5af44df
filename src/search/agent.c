/*
 * agent.c - agent specs and levels, and the dispatch of a think to alpha-beta, MCTS or
 * a uniform random choice. The level tables below are the whole strength policy.
 */
#include "search/agent.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/game_api.h"
#include "core/rng.h"
#include "search/alphabeta.h"
#include "search/greedy.h"
#include "search/mcts.h"
#include "search/tt.h"

/* Per level (index 1..10; 0 unused). See the table in agent.h. A level is an amount
 * of search and of judgement, not of time: the node cap keeps a lower level weaker at
 * any move time (and on any machine load), and the evaluation noise, fixed per position
 * and seed, makes it misjudge close positions more often the lower it is. Level 10 is
 * the full engine. Each level roughly doubles or triples the work of the one below. */
static const int level_ab_depth[AGENT_LEVEL_MAX + 1] = {0, 1, 2, 3, 4, 5, 6, 8, 10, 14, 0};
static const uint64_t level_ab_nodes[AGENT_LEVEL_MAX + 1] = {
    0, 300, 1000, 2000, 4000, 8000, 16000, 40000, 100000, 300000, 0};
static const int level_ab_noise[AGENT_LEVEL_MAX + 1] = {0, 300, 150, 80, 50, 30, 20, 12, 6, 3, 0};
static const uint64_t level_mcts_iterations[AGENT_LEVEL_MAX + 1] = {
    0, 200, 500, 1000, 3000, 10000, 20000, 40000, 80000, 130000, 200000};
static const int64_t level_time_ms[AGENT_LEVEL_MAX + 1] = {0,    100,  200,  300,  500, 1000,
                                                           1500, 2000, 3000, 4000, 5000};

struct Agent {
    const Game *g;
    AgentSpec spec;
    AgentKind kind;      /* resolved: never AGENT_AI */
    SearchLimits limits; /* what the searches get */
    Rng rng;
    atomic_bool stop;
    AlphaBeta *ab;
    bool table_fits_nodes; /* ab's table sized by the node cap, not agent_set_memory */
    Nnue *net; /* the network alpha-beta evaluates with (spec.eval), or NULL */
    Mcts *mcts;
    Greedy *greedy;
    MoveList list; /* for the random agent and the turn clock */
    TurnClock turn;   /* the agent's own turn, for agent_think */
    GameState *work;  /* scratch copy of the position for the turn clock */
    void *undo;
    AgentOracle oracle;
};

void agent_spec_default(AgentSpec *spec)
{
    memset(spec, 0, sizeof *spec);
    spec->kind = AGENT_AI;
    spec->level = AGENT_LEVEL_DEFAULT;
}

bool agent_eval_parse(const char *text, AgentEval *out)
{
    if (strcmp(text, "classic") == 0)
        *out = AGENT_EVAL_CLASSIC;
    else if (strcmp(text, "nnue") == 0)
        *out = AGENT_EVAL_NNUE;
    else
        return false;
    return true;
}

const char *agent_eval_name(AgentEval e)
{
    return e == AGENT_EVAL_CLASSIC ? "classic" : e == AGENT_EVAL_NNUE ? "nnue" : "default";
}

const char *agent_kind_name(AgentKind k)
{
    switch (k) {
    case AGENT_AI:
        return "ai";
    case AGENT_ALPHABETA:
        return "alphabeta";
    case AGENT_MCTS:
        return "mcts";
    case AGENT_RANDOM:
        return "random";
    case AGENT_GREEDY:
        return "greedy";
    }
    return "unknown";
}

Status agent_spec_parse(const char *text, AgentSpec *out, ErrBuf *err)
{
    static const struct {
        const char *name;
        AgentKind kind;
    } names[] = {
        {"ai", AGENT_AI},     {"ab", AGENT_ALPHABETA}, {"alphabeta", AGENT_ALPHABETA},
        {"mcts", AGENT_MCTS}, {"uct", AGENT_MCTS},     {"random", AGENT_RANDOM},
        {"greedy", AGENT_GREEDY},
    };
    static const char allowed[] = "use ai, ab (or alphabeta), mcts (or uct), random or greedy; "
                                  "all but random and greedy may add :LEVEL from 1 to 10, as "
                                  "in ai:7";
    if (text == NULL)
        return err_set(err, STATUS_PARSE, "no agent given: %s", allowed);
    // "NAME[:LEVEL][/novariety][/nnue|/classic]": the suffixes are cut off first, from
    // a copy, in any order.
    char copy[64];
    const size_t total = strlen(text);
    if (total >= sizeof copy)
        return err_set(err, STATUS_PARSE, "unknown agent '%.40s...': %s", text, allowed);
    memcpy(copy, text, total + 1);
    bool no_variety = false, nnue = false, classic = false;
    for (char *slash; (slash = strrchr(copy, '/')) != NULL && slash != copy; *slash = '\0') {
        bool *flag = strcmp(slash, "/novariety") == 0 ? &no_variety
                     : strcmp(slash, "/nnue") == 0    ? &nnue
                     : strcmp(slash, "/classic") == 0 ? &classic
                                                      : NULL;
        if (flag == NULL || *flag)
            return err_set(err, STATUS_PARSE, "bad suffix '%.20s' in agent '%.40s': an agent "
                           "may end in /novariety, and /nnue or /classic, each once", slash,
                           text);
        *flag = true;
    }
    if (nnue && classic)
        return err_set(err, STATUS_PARSE, "agent '%.40s' asks for /nnue and /classic: give "
                       "one evaluation", text);
    text = copy;
    const char *colon = strchr(text, ':');
    const size_t len = colon != NULL ? (size_t)(colon - text) : strlen(text);
    int found = -1;
    for (int i = 0; i < (int)(sizeof names / sizeof names[0]); i++)
        if (strlen(names[i].name) == len && strncmp(names[i].name, text, len) == 0)
            found = i;
    if (found < 0)
        return err_set(err, STATUS_PARSE, "unknown agent '%.40s': %s", text, allowed);

    int level = AGENT_LEVEL_DEFAULT;
    if (colon != NULL) {
        if (names[found].kind == AGENT_RANDOM || names[found].kind == AGENT_GREEDY)
            return err_set(err, STATUS_PARSE, "agent '%s' takes no level: %s", names[found].name,
                           allowed);
        const char *d = colon + 1;
        level = 0;
        int digits = 0;
        for (; *d >= '0' && *d <= '9' && digits < 3; d++, digits++)
            level = level * 10 + (*d - '0');
        if (digits == 0 || colon[1] == '0' || *d != '\0' || level < AGENT_LEVEL_MIN ||
            level > AGENT_LEVEL_MAX)
            return err_set(err, STATUS_PARSE,
                           "bad level in agent '%.40s': the level is a whole number from %d "
                           "(weakest) to %d (strongest); %s",
                           text, AGENT_LEVEL_MIN, AGENT_LEVEL_MAX, allowed);
    }
    if (no_variety && names[found].kind == AGENT_RANDOM)
        return err_set(err, STATUS_PARSE, "agent 'random' has no /novariety: %s", allowed);
    if ((nnue || classic) && names[found].kind != AGENT_AI &&
        names[found].kind != AGENT_ALPHABETA)
        return err_set(err, STATUS_PARSE, "agent '%s' has no evaluation to choose: /nnue and "
                       "/classic go with ai and ab", names[found].name);
    agent_spec_default(out);
    out->kind = names[found].kind;
    out->level = level;
    out->no_variety = no_variety;
    out->eval = nnue ? AGENT_EVAL_NNUE : classic ? AGENT_EVAL_CLASSIC : AGENT_EVAL_DEFAULT;
    return STATUS_OK;
}

/* The level's limits for `kind`, then the spec's nonzero fields over them. */
static SearchLimits effective_limits(AgentKind kind, int level, const SearchLimits *over)
{
    SearchLimits l = {0};
    if (kind == AGENT_ALPHABETA) {
        l.depth = level_ab_depth[level];
        l.nodes = level_ab_nodes[level];
        l.movetime_ms = level_time_ms[level];
    } else if (kind == AGENT_MCTS) {
        l.nodes = level_mcts_iterations[level];
        l.movetime_ms = level_time_ms[level];
    }
    if (over->depth != 0)
        l.depth = over->depth < 0 ? 0 : over->depth;
    if (over->nodes != 0)
        l.nodes = over->nodes == UINT64_MAX ? 0 : over->nodes;
    if (over->movetime_ms != 0)
        l.movetime_ms = over->movetime_ms < 0 ? 0 : over->movetime_ms;
    l.root_moves = over->root_moves;
    l.root_move_count = over->root_move_count;
    l.progress = over->progress;
    return l;
}

/* The transposition table a search capped at `nodes` nodes needs (0: no cap, the
 * default). The cap is exact and every node stores at most one entry, so a table of
 * twice as many entries holds the whole search at half load, where a bucket of four
 * rarely overflows: the searches compared found what they found with the default 16 MiB
 * (test_search), and a weak level's move no longer clears 16 MiB first (measured on a
 * loaded machine: `crown analyze` at level 1 took 152 ms, 101 ms more than a random
 * move; the web server makes an agent for every AI move). */
static size_t table_bytes_for(uint64_t nodes)
{
    if (nodes == 0 || nodes >= ALPHABETA_DEFAULT_TT_BYTES / (2 * sizeof(TTEntry)))
        return ALPHABETA_DEFAULT_TT_BYTES;
    size_t bytes = (size_t)64 << 10;
    while (bytes < nodes * 2 * sizeof(TTEntry))
        bytes *= 2;
    return bytes;
}

/* The seeds of the evaluation noise and of variety, kept apart from the Rng's own
 * sequence and from each other. */
static uint64_t noise_seed(uint64_t seed)
{
    uint64_t s = seed ^ 0x6E6F697365ULL; // "noise"
    return rng_mix(&s);
}

static uint64_t variety_seed(uint64_t seed)
{
    uint64_t s = seed ^ 0x7661726965ULL; // "varie"
    return rng_mix(&s);
}

Status agent_new(const Game *g, const AgentSpec *spec, Agent **out, ErrBuf *err)
{
    *out = NULL;
    const int level = spec->level == 0 ? AGENT_LEVEL_DEFAULT : spec->level;
    if (level < AGENT_LEVEL_MIN || level > AGENT_LEVEL_MAX)
        return err_set(err, STATUS_UNSUPPORTED,
                       "agent level %d is out of range: levels go from %d (weakest) to %d "
                       "(strongest)",
                       spec->level, AGENT_LEVEL_MIN, AGENT_LEVEL_MAX);

    // Step 1. Resolve "ai": alpha-beta wherever it applies, MCTS elsewhere.
    AgentKind kind = spec->kind;
    switch (kind) {
    case AGENT_AI:
        kind = alphabeta_check_game(g, NULL) == STATUS_OK ? AGENT_ALPHABETA : AGENT_MCTS;
        break;
    case AGENT_ALPHABETA:
    case AGENT_MCTS:
    case AGENT_RANDOM:
        break;
    case AGENT_GREEDY: {
        Status st = greedy_check_game(g, err);
        if (st != STATUS_OK)
            return st;
        break;
    }
    default:
        return err_set(err, STATUS_UNSUPPORTED, "unknown agent kind %d", (int)kind);
    }

    // Step 2. The agent and its searcher.
    Agent *a = mem_zalloc(spec->mem, sizeof *a);
    if (a == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    a->g = g;
    a->spec = *spec;
    a->spec.level = level;
    a->kind = kind;
    a->limits = effective_limits(kind, level, &spec->limits);
    rng_seed(&a->rng, spec->seed);
    atomic_init(&a->stop, false);
    turn_clock_init(&a->turn);
    a->work = mem_zalloc(spec->mem, g->state_size);
    a->undo = mem_zalloc(spec->mem, g->undo_size ? g->undo_size : 1);
    if (a->work == NULL || a->undo == NULL) {
        agent_free(a);
        return err_set(err, STATUS_NOMEM, "out of memory");
    }
    Status st = STATUS_OK;
    if (spec->eval == AGENT_EVAL_NNUE && kind != AGENT_ALPHABETA) {
        agent_free(a);
        return err_set(err, STATUS_NOT_FOUND, "%s is played by MCTS, which evaluates by "
                       "playing out: it has no network", g->ops->name);
    }
    // A game's default is its net only where the net's record says so: one that has
    // beaten the hand-written evaluation (docs/STRENGTH.md).
    const bool use_net = kind == AGENT_ALPHABETA &&
                         (spec->eval == AGENT_EVAL_NNUE ||
                          (spec->eval == AGENT_EVAL_DEFAULT && nnue_is_default(g)));
    if (use_net && (st = nnue_load_builtin(g, spec->mem, &a->net, err)) != STATUS_OK) {
        agent_free(a);
        return st;
    }
    if (kind == AGENT_ALPHABETA) {
        const AlphaBetaConfig cfg = {.net = a->net,
                                     .tt_bytes = table_bytes_for(a->limits.nodes),
                                     .eval_noise = level_ab_noise[level],
                                     .noise_seed = noise_seed(spec->seed),
                                     .variety = !spec->no_variety,
                                     .variety_seed = variety_seed(spec->seed),
                                     .mem = spec->mem};
        st = alphabeta_new(g, &cfg, &a->ab, err);
        a->table_fits_nodes = true;
    } else if (kind == AGENT_MCTS) {
        // "mcts" is plain UCT, the reference; "ai" uses what the game knows about itself.
        MctsConfig cfg;
        if (spec->kind == AGENT_AI)
            mcts_config_guided(&cfg);
        else
            mcts_config_uct(&cfg);
        cfg.random_ties = !spec->no_variety;
        cfg.mem = spec->mem;
        st = mcts_new(g, &cfg, &a->mcts, err);
    } else if (kind == AGENT_GREEDY) {
        st = greedy_new(g, spec->mem, &a->greedy, err);
    }
    if (st != STATUS_OK) {
        agent_free(a);
        return st;
    }
    *out = a;
    return STATUS_OK;
}

void agent_free(Agent *a)
{
    if (a == NULL)
        return;
    alphabeta_free(a->ab);
    nnue_free(a->net);
    mcts_free(a->mcts);
    greedy_free(a->greedy);
    const Mem *mem = a->spec.mem;
    mem_free(mem, a->work);
    mem_free(mem, a->undo);
    mem_free(mem, a);
}

void agent_new_game(Agent *a)
{
    if (a->ab != NULL)
        alphabeta_clear(a->ab);
    rng_seed(&a->rng, a->spec.seed);
    atomic_store(&a->stop, false);
    turn_clock_init(&a->turn);
}

void agent_set_oracle(Agent *a, const AgentOracle *oracle)
{
    if (oracle != NULL)
        a->oracle = *oracle;
    else
        memset(&a->oracle, 0, sizeof a->oracle);
}

Status agent_think(Agent *a, const GameState *s, SearchResult *out, ErrBuf *err)
{
    return agent_think_in_turn(a, s, &a->turn, out, err);
}

Status agent_think_in_turn(Agent *a, const GameState *s, TurnClock *turn, SearchResult *out,
                           ErrBuf *err)
{
    const Game *g = a->g;
    const int p = g->ops->to_move(g, s);
    if (p == PLAYER_NONE)
        return err_set(err, STATUS_ILLEGAL, "the game is over: there is no move to choose");
    if (p == PLAYER_CHANCE)
        return err_set(err, STATUS_UNSUPPORTED,
                       "chance acts next: sample its outcome, agents only choose players' moves");

    if (a->oracle.choose != NULL) {
        const int64_t start = clock_ms();
        memset(out, 0, sizeof *out);
        if (a->oracle.choose(a->oracle.ctx, g, s, &a->rng, out)) {
            out->time_ms = clock_ms() - start;
            atomic_store(&a->stop, false);
            return STATUS_OK;
        }
    }
    SearchLimits limits = a->limits;
    game_state_copy(g, a->work, s);
    limits.movetime_ms = turn_clock_plan(turn, g, a->work, a->undo, &a->list, limits.movetime_ms);
    switch (a->kind) {
    case AGENT_ALPHABETA:
        alphabeta_search(a->ab, s, &limits, &a->stop, out);
        break;
    case AGENT_MCTS:
        mcts_search(a->mcts, s, &limits, &a->rng, &a->stop, out);
        break;
    case AGENT_GREEDY:
        greedy_search(a->greedy, s, &limits, &a->rng, out);
        break;
    default: {
        memset(out, 0, sizeof *out);
        const int n = g->ops->gen_moves(g, s, &a->list);
        if (n > 0) {
            out->best = a->list.moves[rng_below(&a->rng, (uint32_t)n)];
            out->pv[0] = out->best;
            out->pv_len = 1;
        }
        break;
    }
    }
    // The request is spent; clearing it only now keeps one sent just before the think.
    atomic_store(&a->stop, false);
    if (out->best == MOVE_NONE)
        return err_set(err, STATUS_ILLEGAL, "%s offers no legal move in this position",
                       g->ops->name);
    turn_clock_played(turn, g, a->work, a->undo, out->best);
    return STATUS_OK;
}

void agent_stop(Agent *a)
{
    atomic_store(&a->stop, true);
}

Status agent_set_memory(Agent *a, size_t bytes, ErrBuf *err)
{
    if (a->ab != NULL) {
        a->table_fits_nodes = false;
        return alphabeta_resize_tt(a->ab, bytes != 0 ? bytes : ALPHABETA_DEFAULT_TT_BYTES, err);
    }
    if (a->mcts != NULL)
        mcts_set_max_bytes(a->mcts, bytes);
    return STATUS_OK;
}

void agent_set_limits(Agent *a, const SearchLimits *over)
{
    a->limits = effective_limits(a->kind, a->spec.level, over);
    // A higher node cap (or none) than the table was sized for gets the table it needs;
    // without the memory for it, the smaller table still searches correctly.
    const size_t want = table_bytes_for(a->limits.nodes);
    if (a->ab != NULL && a->table_fits_nodes && want > alphabeta_tt_bytes(a->ab)) {
        ErrBuf ignored;
        (void)alphabeta_resize_tt(a->ab, want, &ignored);
    }
}

void agent_set_root_moves(Agent *a, const Move *moves, int count)
{
    a->limits.root_moves = count > 0 ? moves : NULL;
    a->limits.root_move_count = count > 0 ? count : 0;
}

void agent_set_movetime(Agent *a, int64_t movetime_ms)
{
    a->limits.movetime_ms = movetime_ms > 0 ? movetime_ms : 0;
}

AgentKind agent_kind(const Agent *a)
{
    return a->kind;
}

SearchLimits agent_limits(const Agent *a)
{
    return a->limits;
}

size_t agent_table_bytes(const Agent *a)
{
    return a->ab != NULL ? alphabeta_tt_bytes(a->ab) : 0;
}

const char *agent_evaluation(const Agent *a)
{
    switch (a->kind) {
    case AGENT_ALPHABETA:
        return a->net != NULL ? "nnue" : "classic";
    case AGENT_MCTS:
        return "playouts";
    default:
        return "none";
    }
}

void agent_describe(const Agent *a, StrBuf *out)
{
    sb_printf(out, "%s", agent_kind_name(a->kind));
    if (a->kind == AGENT_RANDOM || a->kind == AGENT_GREEDY)
        return;
    sb_printf(out, " level %d (", a->spec.level);
    const char *sep = "";
    if (a->kind == AGENT_ALPHABETA && a->limits.depth > 0) {
        sb_printf(out, "depth %d", a->limits.depth);
        sep = ", ";
    }
    if (a->kind == AGENT_MCTS && a->spec.kind == AGENT_AI && a->g->ops->guided_playout) {
        sb_printf(out, "guided playouts");
        sep = ", ";
    }
    if (a->limits.nodes > 0) {
        sb_printf(out, "%s%llu %s", sep, (unsigned long long)a->limits.nodes,
                  a->kind == AGENT_MCTS ? "iterations" : "nodes");
        sep = ", ";
    }
    if (a->limits.movetime_ms > 0) {
        sb_printf(out, "%s%lld ms", sep, (long long)a->limits.movetime_ms);
        sep = ", ";
    }
    sb_printf(out, "%s)", *sep ? "" : "no limit");
    if (a->spec.no_variety)
        sb_printf(out, " without variety");
}

void search_format_score(const SearchResult *r, StrBuf *out)
{
    if (!r->has_score)
        sb_printf(out, "value %.3f", r->value);
    else if (r->score >= SCORE_WIN_BOUND)
        sb_printf(out, "win in %d", SCORE_WIN - r->score);
    else if (r->score <= -SCORE_WIN_BOUND)
        sb_printf(out, "loss in %d", SCORE_WIN + r->score);
    else
        sb_printf(out, "cp %d", r->score);
}
