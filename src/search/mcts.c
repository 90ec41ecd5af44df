/*
 * mcts.c - UCT over a node arena addressed by indices, one node added per iteration.
 *
 * Central invariant: a node holds the summed returns of every player over its visits,
 * and is judged by its parent through the entry of its own mover (the player who made
 * the move leading to it); so any number of players, and turns of several actions by
 * the same player, need no special case. Chance never gets a node: its outcomes are
 * sampled on the way down (open loop). When the legal moves at a node can differ from
 * one visit to the next (chance, determinization), the descent only considers the
 * children legal in this visit and replaces the parent's visit count by each child's
 * availability count in the UCT formula (Cowling, Powley and Whitehouse's ISMCTS).
 */
#include "search/mcts.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "core/invariant.h"
#include "search/deadline.h"

enum {
    MCTS_INITIAL_NODES = 4096,
    SET_BITS = 12, /* move set of 4096 slots, for at most MOVELIST_CAP moves */
    SET_SIZE = 1 << SET_BITS,
};

_Static_assert(SET_SIZE >= 2 * MOVELIST_CAP, "the move set stays at most half full");

typedef struct MctsNode {
    double sum[MAX_PLAYERS]; /* returns of every player, summed over the visits */
    uint32_t visits;
    uint32_t avail;       /* times this move was legal when the parent chose (ISMCTS) */
    int32_t parent;       /* -1 at the root */
    int32_t first_child;  /* -1 if none; children are a list, newest first */
    int32_t next_sibling; /* -1 at the end of the list */
    Move move;            /* the move from the parent; MOVE_NONE at the root */
    int16_t mover;        /* who played `move`; -1 at the root */
    uint16_t n_children;
} MctsNode;

_Static_assert(sizeof(MctsNode) == 64, "a node is one cache line");

/* A set of moves by open addressing, emptied in O(1) by bumping the stamp. */
typedef struct MoveSet {
    uint32_t stamp;
    uint32_t mark[SET_SIZE]; /* slot used iff mark == stamp */
    Move key[SET_SIZE];
    int16_t val[SET_SIZE];
} MoveSet;

struct Mcts {
    const Game *g;
    const GameOps *ops;
    MctsConfig cfg;
    MctsNode *nodes;
    uint32_t count;     /* nodes in use */
    uint32_t cap;       /* nodes allocated */
    uint32_t max_nodes; /* from cfg.max_bytes; lowered if an allocation fails */
    GameState *work;    /* the state of the running iteration */
    void *undo;         /* make() needs one; MCTS never unmakes */
    MoveList list;
    Move untried[MOVELIST_CAP];
    bool matched[MOVELIST_CAP]; /* list.moves[i] already has a child */
    MoveSet set;
    bool guided; /* cfg.guided and the game has guided_playout */
    const SearchLimits *limits; /* the running search's: its root-move restriction */
};

static void set_clear(MoveSet *s)
{
    if (++s->stamp == 0) {
        memset(s->mark, 0, sizeof s->mark);
        s->stamp = 1;
    }
}

static inline uint32_t set_slot(Move m)
{
    return (m * 0x9E3779B1u) >> (32 - SET_BITS);
}

static inline void set_put(MoveSet *s, Move m, int val)
{
    uint32_t h = set_slot(m);
    while (s->mark[h] == s->stamp && s->key[h] != m)
        h = (h + 1) & (SET_SIZE - 1);
    s->mark[h] = s->stamp;
    s->key[h] = m;
    s->val[h] = (int16_t)val;
}

/* The value stored with m, or -1 if m is not in the set. */
static inline int set_get(const MoveSet *s, Move m)
{
    for (uint32_t h = set_slot(m);; h = (h + 1) & (SET_SIZE - 1)) {
        if (s->mark[h] != s->stamp)
            return -1;
        if (s->key[h] == m)
            return s->val[h];
    }
}

void mcts_config_uct(MctsConfig *cfg)
{
    cfg->exploration = sqrt(2.0);
    cfg->max_bytes = MCTS_DEFAULT_MAX_BYTES;
    cfg->guided = false;
    cfg->random_ties = false;
    cfg->mem = NULL;
}

void mcts_config_guided(MctsConfig *cfg)
{
    mcts_config_uct(cfg);
    cfg->guided = true;
}

void mcts_set_max_bytes(Mcts *m, size_t bytes)
{
    m->cfg.max_bytes = bytes != 0 ? bytes : MCTS_DEFAULT_MAX_BYTES;
    size_t n = m->cfg.max_bytes / sizeof(MctsNode);
    if (n > INT32_MAX)
        n = INT32_MAX;
    if (n < 1)
        n = 1;
    m->max_nodes = (uint32_t)n;
}

Status mcts_new(const Game *g, const MctsConfig *cfg, Mcts **out, ErrBuf *err)
{
    *out = NULL;
    if ((g->ops->flags & GAME_HAS_CHANCE) != 0 && g->ops->chance_outcomes == NULL)
        return err_set(err, STATUS_UNSUPPORTED, "%s has chance events but no chance_outcomes",
                       g->ops->name);
    const Mem *mem = cfg != NULL ? cfg->mem : NULL;
    Mcts *m = mem_zalloc(mem, sizeof *m);
    if (m == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    m->g = g;
    m->ops = g->ops;
    if (cfg != NULL)
        m->cfg = *cfg;
    else
        mcts_config_uct(&m->cfg);
    m->guided = m->cfg.guided && g->ops->guided_playout != NULL;
    mcts_set_max_bytes(m, m->cfg.max_bytes);
    m->cap = m->max_nodes < MCTS_INITIAL_NODES ? m->max_nodes : MCTS_INITIAL_NODES;
    m->nodes = mem_alloc(mem, m->cap * sizeof *m->nodes);
    m->work = mem_zalloc(mem, g->state_size);
    m->undo = mem_zalloc(mem, g->undo_size ? g->undo_size : 1);
    if (m->nodes == NULL || m->work == NULL || m->undo == NULL) {
        mcts_free(m);
        return err_set(err, STATUS_NOMEM, "out of memory");
    }
    *out = m;
    return STATUS_OK;
}

void mcts_free(Mcts *m)
{
    if (m == NULL)
        return;
    const Mem *mem = m->cfg.mem;
    mem_free(mem, m->nodes);
    mem_free(mem, m->work);
    mem_free(mem, m->undo);
    mem_free(mem, m);
}

/* Room for one more node: grows the arena by doubling up to the cap. False when full
 * (also after a failed allocation, which simply lowers the cap). */
static bool arena_reserve(Mcts *m)
{
    if (m->count < m->cap)
        return true;
    if (m->cap >= m->max_nodes)
        return false;
    uint32_t cap = m->cap > m->max_nodes / 2 ? m->max_nodes : m->cap * 2;
    MctsNode *p = mem_realloc(m->cfg.mem, m->nodes, (size_t)cap * sizeof *p);
    if (p == NULL) {
        m->max_nodes = m->cap;
        return false;
    }
    m->nodes = p;
    m->cap = cap;
    return true;
}

static int32_t new_node(Mcts *m, int32_t parent, Move move, int mover)
{
    const int32_t i = (int32_t)m->count++;
    MctsNode *n = &m->nodes[i];
    memset(n->sum, 0, sizeof n->sum);
    n->visits = 0;
    n->avail = 1; // available now, when it is created
    n->parent = parent;
    n->first_child = -1;
    n->next_sibling = -1;
    n->move = move;
    n->mover = (int16_t)mover;
    n->n_children = 0;
    if (parent >= 0) {
        MctsNode *p = &m->nodes[parent];
        n->next_sibling = p->first_child;
        p->first_child = i;
        p->n_children++;
    }
    return i;
}

/* Plays s to the end and writes the returns: the game's guided playout when the config
 * asks for it and the game has one, else uniformly random moves (the game's own playout
 * hook if it has one, else generate, pick, make). */
static void rollout(Mcts *m, GameState *s, Rng *rng, double ret[MAX_PLAYERS])
{
    const Game *g = m->g;
    const GameOps *ops = m->ops;
    memset(ret, 0, MAX_PLAYERS * sizeof *ret);
    if (m->guided) {
        ops->guided_playout(g, s, rng, ret);
        return;
    }
    if (ops->to_move(g, s) == PLAYER_NONE) {
        ops->returns(g, s, ret);
        return;
    }
    if (ops->playout != NULL) {
        ops->playout(g, s, rng, ret);
        return;
    }
    // A game longer than it promised would loop for ever: give up and call it a draw.
    const long limit = g->max_game_length > 0 ? 2L * g->max_game_length + 64 : LONG_MAX;
    for (long steps = 0; steps < limit; steps++) {
        const int p = ops->to_move(g, s);
        Move mv;
        if (p == PLAYER_NONE) {
            ops->returns(g, s, ret);
            return;
        }
        if (p == PLAYER_CHANCE) {
            mv = game_sample_chance(g, s, rng);
        } else {
            const int n = ops->gen_moves(g, s, &m->list);
            if (n == 0)
                return;
            mv = m->list.moves[rng_below(rng, (uint32_t)n)];
        }
        ops->make(g, s, mv, m->undo);
        GAME_CHECK(g, s);
    }
}

/* The UCT score of child c as seen by its mover. `log_n` is the log of the parent's
 * visits, or of c's availability in the filtered (ISMCTS) case. */
static inline double uct_score(const Mcts *m, const MctsNode *c, double log_n)
{
    const double mean = c->sum[c->mover] / c->visits;
    return (mean + 1.0) * 0.5 + m->cfg.exploration * sqrt(log_n / c->visits);
}

/* Step 2 of an iteration at `node`, where player p has the n moves of m->list: adds a
 * child for a random untried move if there is one, else picks a child by UCT. Returns
 * the child and sets *expanded if it is new; returns -1 if there are untried moves but
 * the arena is full (the iteration then rolls out from here). `filter`: children may
 * be illegal here (chance, determinization), so only legal ones compete. */
static int32_t select_child(Mcts *m, int32_t node, int p, int n, bool filter, Rng *rng,
                            bool *expanded)
{
    MctsNode *nodes = m->nodes;
    *expanded = false;

    // Which moves have no child yet? Without filtering, children are a subset of the
    // legal moves, so the count says whether any is untried.
    int legal_children = nodes[node].n_children;
    if (filter) {
        set_clear(&m->set);
        for (int i = 0; i < n; i++) {
            set_put(&m->set, m->list.moves[i], i);
            m->matched[i] = false;
        }
        legal_children = 0;
        for (int32_t c = nodes[node].first_child; c >= 0; c = nodes[c].next_sibling) {
            const int i = set_get(&m->set, nodes[c].move);
            if (i >= 0) {
                m->matched[i] = true;
                legal_children++;
            }
        }
    }

    if (legal_children < n) {
        if (!arena_reserve(m))
            return -1;
        nodes = m->nodes; // the arena may have moved
        if (!filter) {
            set_clear(&m->set);
            for (int32_t c = nodes[node].first_child; c >= 0; c = nodes[c].next_sibling)
                set_put(&m->set, nodes[c].move, 0);
        }
        int nu = 0;
        for (int i = 0; i < n; i++) {
            const bool tried = filter ? m->matched[i] : set_get(&m->set, m->list.moves[i]) >= 0;
            if (!tried)
                m->untried[nu++] = m->list.moves[i];
        }
        const Move mv = m->untried[rng_below(rng, (uint32_t)nu)];
        *expanded = true;
        return new_node(m, node, mv, p);
    }

    // Fully expanded (for this sample): UCT. Ties go to the first child in the list.
    int32_t chosen = -1;
    double best = -HUGE_VAL;
    const double log_parent = log((double)nodes[node].visits);
    for (int32_t c = nodes[node].first_child; c >= 0; c = nodes[c].next_sibling) {
        MctsNode *ch = &nodes[c];
        double log_n = log_parent;
        if (filter) {
            if (set_get(&m->set, ch->move) < 0)
                continue;
            ch->avail++;
            log_n = log((double)ch->avail);
        }
        const double u = ch->visits == 0 ? HUGE_VAL : uct_score(m, ch, log_n);
        if (u > best) {
            best = u;
            chosen = c;
        }
    }
    return chosen;
}

/* One iteration: copy (and maybe determinize) the root, descend by UCT sampling chance
 * on the way, add one node, roll out, and credit the returns along the path. Returns
 * the depth in the tree of the node reached. */
static int iterate(Mcts *m, const GameState *root, int root_player, bool determinize, bool filter,
                   Rng *rng)
{
    const Game *g = m->g;
    const GameOps *ops = m->ops;
    GameState *w = m->work;
    double ret[MAX_PLAYERS] = {0};
    int32_t node = 0;
    int depth = 0;

    // Step 1. This iteration's world: the root, or a sample of what the searcher
    // cannot see.
    game_state_copy(g, w, root);
    if (determinize)
        ops->determinize(g, w, root_player, rng);

    // Step 2. Descend until a new node, a terminal position or a full arena.
    for (;;) {
        int p = ops->to_move(g, w);
        while (p == PLAYER_CHANCE) {
            ops->make(g, w, game_sample_chance(g, w, rng), m->undo);
            GAME_CHECK(g, w);
            p = ops->to_move(g, w);
        }
        if (p == PLAYER_NONE) {
            rollout(m, w, rng, ret); // the values of the finished game
            break;
        }
        ops->gen_moves(g, w, &m->list);
        const int n = node == 0 ? search_keep_root_moves(m->limits, &m->list) : m->list.count;
        if (n == 0)
            break; // a broken game contract; score it as a draw
        bool expanded;
        const int32_t child = select_child(m, node, p, n, filter, rng, &expanded);
        if (child < 0) {
            rollout(m, w, rng, ret);
            break;
        }
        ops->make(g, w, m->nodes[child].move, m->undo);
        GAME_CHECK(g, w);
        node = child;
        depth++;
        // Step 3. A new node is judged by one random game from it.
        if (expanded) {
            rollout(m, w, rng, ret);
            break;
        }
    }

    // Step 4. Every node on the path, root included, gets the whole return vector.
    const int players = g->players;
    for (int32_t i = node; i >= 0; i = m->nodes[i].parent) {
        MctsNode *nd = &m->nodes[i];
        nd->visits++;
        for (int k = 0; k < players; k++)
            nd->sum[k] += ret[k];
    }
    return depth;
}

/* The most visited child of `node` among those `ok` accepts (NULL: all); ties go to
 * the better mean for the mover, then to the first in the list or, given an Rng, to one
 * of the equal ones drawn uniformly (reservoir sampling). -1 if none. */
static int32_t most_visited(const Mcts *m, int32_t node, const MoveSet *ok, Rng *ties)
{
    int32_t best = -1;
    uint32_t equal = 0; /* children equal to best so far, best included */
    for (int32_t c = m->nodes[node].first_child; c >= 0; c = m->nodes[c].next_sibling) {
        const MctsNode *ch = &m->nodes[c];
        if (ok != NULL && set_get(ok, ch->move) < 0)
            continue;
        if (best < 0 || ch->visits > m->nodes[best].visits) {
            best = c;
            equal = 1;
        } else if (ch->visits == m->nodes[best].visits && ch->visits > 0) {
            const MctsNode *b = &m->nodes[best];
            const double mine = ch->sum[ch->mover] / ch->visits;
            const double theirs = b->sum[b->mover] / b->visits;
            if (mine > theirs) {
                best = c;
                equal = 1;
            } else if (mine == theirs && ties != NULL && rng_below(ties, ++equal) == 0) {
                best = c;
            }
        }
    }
    return best;
}

void mcts_search(Mcts *m, const GameState *s, const SearchLimits *limits, Rng *rng,
                 atomic_bool *stop, SearchResult *out)
{
    const Game *g = m->g;
    const GameOps *ops = m->ops;
    Deadline clock;
    deadline_start(&clock, limits->movetime_ms, stop);
    memset(out, 0, sizeof *out);

    const int root_player = ops->to_move(g, s);
    if (root_player < 0) {
        out->best = MOVE_NONE; // precondition broken: nothing to play
        return;
    }
    const bool determinize = (ops->flags & GAME_PERFECT_INFO) == 0 && ops->determinize != NULL;
    const bool filter =
        determinize || (ops->flags & GAME_PERFECT_INFO) == 0 || (ops->flags & GAME_HAS_CHANCE) != 0;

    // Step 1. A fresh tree: the root only.
    m->limits = limits;
    m->count = 0;
    new_node(m, -1, MOVE_NONE, -1);

    // Step 2. Iterate until a limit; the first iteration always runs.
    uint64_t iterations = 0;
    int max_depth = 0;
    for (;;) {
        const int d = iterate(m, s, root_player, determinize, filter, rng);
        if (d > max_depth)
            max_depth = d;
        iterations++;
        if (limits->nodes > 0 && iterations >= limits->nodes)
            break;
        if (deadline_poll(&clock, iterations))
            break;
    }

    // Step 3. The most visited root child that is legal in s itself (a determinized
    // root might in principle have offered a move s does not).
    ops->gen_moves(g, s, &m->list);
    const int n = search_keep_root_moves(limits, &m->list);
    set_clear(&m->set);
    for (int i = 0; i < n; i++)
        set_put(&m->set, m->list.moves[i], i);
    const int32_t best = most_visited(m, 0, &m->set, m->cfg.random_ties ? rng : NULL);
    out->best = best >= 0 ? m->nodes[best].move : m->list.moves[0];

    // Step 4. The report: root value for the mover, and the most visited line.
    const MctsNode *root = &m->nodes[0];
    out->value = root->visits > 0 ? root->sum[root_player] / root->visits : 0.0;
    out->pv[0] = out->best;
    out->pv_len = 1;
    for (int32_t c = best; c >= 0 && out->pv_len < SEARCH_PV_CAP;) {
        c = most_visited(m, c, NULL, NULL);
        if (c < 0)
            break;
        out->pv[out->pv_len++] = m->nodes[c].move;
    }
    out->nodes = iterations;
    out->depth = max_depth;
    out->time_ms = deadline_elapsed_ms(&clock);
}
