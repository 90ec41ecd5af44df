/*
 * alphabeta.c - negamax PVS with iterative deepening, aspiration windows, a
 * transposition table and killer/history move ordering, over any GameOps; with the
 * game's optional search hints (game.h), captures first by victim and attacker, a check
 * extension, null-move pruning, late move reductions and a quiescence search.
 *
 * Central rule: a turn may be several actions of the same player, so values are
 * negated only across a change of mover (child_value). Terminal positions are scored
 * for the player who made the last action: SCORE_WIN - ply for a win, ply being the
 * actions from the root. The search unwinds normally when stopped (no longjmp): every
 * frame sees ab->stopped, unmakes its move and returns a value its caller discards.
 *
 * Known imprecision, accepted as in most engines: the game's hash covers the position
 * but not its history, while draws by repetition or by a move-count limit (to_move()
 * == PLAYER_NONE) depend on history. A TT entry for a position that was such a draw on
 * one path (or whose subtree held one) can thus be reused on another path where it is
 * not, and the other way round. This only matters in lines that repeat positions or
 * near the move limit; the game itself always plays by its rules, and the search has
 * no repetition detection of its own.
 */
#include "search/alphabeta.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "core/invariant.h"
#include "core/rng.h"
#include "search/deadline.h"
#include "search/nnue_stack.h"
#include "search/tt.h"

enum {
    AB_HISTORY_MAX = 16384, /* history scores stay within +-this (gravity formula) */
    AB_HISTORY_BONUS_CAP = 1024,
    AB_ASPIRATION_DEPTH = 4, /* first iteration searched with a window */
    AB_ASPIRATION_WINDOW = 30,
    AB_ASPIRATION_GIVE_UP = 1000, /* a window this wide becomes the full one */
    AB_NULL_MIN_DEPTH = 3,  /* null-move pruning from this depth */
    AB_LMR_MIN_DEPTH = 3,   /* late move reductions from this depth */
    AB_LMR_FIRST = 3,       /* the first moves of a node are never reduced */
    AB_QUIESCENCE_PLIES = 8, /* noisy actions past the horizon, at most, in one line */
    ORDER_TT = 1 << 30,
    ORDER_NOISY = (1 << 29) + 1, /* plus the game's noisy value (< 1 << 20) */
    ORDER_KILLER_1 = 1 << 29,
    ORDER_KILLER_2 = (1 << 29) - 1,
};

/* Everything one ply of the recursion needs, preallocated. */
typedef struct Ply {
    MoveList list;
    int32_t order[MOVELIST_CAP]; /* ordering score of list.moves[i] */
    Move killer[2];              /* recent refutations (beta cutoffs) at this ply */
    int pv_len;
    Move pv[SEARCH_MAX_PLY]; /* triangular PV: the best line from this node */
    bool noisy_in; /* the action that led here was noisy (kept for quiesce_finish only) */
} Ply;

struct AlphaBeta {
    const Game *g;
    const GameOps *ops;
    AlphaBetaConfig cfg;
    TTable tt;
    int32_t *history;    /* [2][g->move_index_count], NULL if the game has no ids */
    Ply *ply;            /* [SEARCH_MAX_PLY + 1] */
    unsigned char *undo; /* SEARCH_MAX_PLY records of undo_stride bytes */
    size_t undo_stride;
    GameState *pos; /* the searched position, made and unmade in place */
    bool lazy;      /* the game tests legality lazily (gen_candidates, candidate_legal) */
    /* Quiescence past the horizon (the game's evaluate_static and noisy), and the
     * evaluation the search uses: evaluate_static then, else evaluate. */
    bool quiescence;
    int (*eval)(const Game *g, const GameState *s);
    NnueStack *nnue; /* the network's accumulators when cfg.net replaces eval */
    void *legal_memo; /* the game's memo for candidate_legal, g->legal_memo_size bytes */

    /* Per search. */
    Deadline clock; /* movetime and stop flag */
    uint64_t nodes;
    uint64_t node_limit; /* 0 = none */
    bool time_checks;    /* poll the clock (off while depth 1 runs) */
    int iter_depth;      /* the running iteration's depth: bounds check extensions */
    int seldepth;        /* the deepest ply the search has reached */
    bool stopped;
    const SearchProgress *progress; /* the limits' listener, NULL: none */

    /* Variety: the root moves worth at least the best minus the margin at the last
     * completed depth, the best first. */
    int margin;
    int tie_count;
    Move tie_move[MOVELIST_CAP];

    /* The last root move of the running iteration proven better with an exact score. */
    Move iter_move;
    int iter_score;
    int iter_pv_len;
    Move iter_pv[SEARCH_MAX_PLY];
};

Status alphabeta_check_game(const Game *g, ErrBuf *err)
{
    const GameOps *ops = g->ops;
    if (g->players != 2)
        return err_set(err, STATUS_UNSUPPORTED,
                       "alpha-beta needs a two-player game; %s is played by %d (use mcts)",
                       ops->name, g->players);
    if ((ops->flags & GAME_ZERO_SUM) == 0)
        return err_set(err, STATUS_UNSUPPORTED,
                       "alpha-beta needs a zero-sum game; %s is not (use mcts)", ops->name);
    if ((ops->flags & GAME_PERFECT_INFO) == 0)
        return err_set(err, STATUS_UNSUPPORTED,
                       "alpha-beta needs perfect information; %s hides some (use mcts)", ops->name);
    if ((ops->flags & GAME_HAS_CHANCE) != 0)
        return err_set(err, STATUS_UNSUPPORTED,
                       "alpha-beta cannot handle chance events; %s has them (use mcts)", ops->name);
    if (ops->evaluate == NULL)
        return err_set(err, STATUS_UNSUPPORTED,
                       "alpha-beta needs an evaluation function; %s has none (use mcts)",
                       ops->name);
    return STATUS_OK;
}

Status alphabeta_new(const Game *g, const AlphaBetaConfig *cfg, AlphaBeta **out, ErrBuf *err)
{
    *out = NULL;
    Status st = alphabeta_check_game(g, err);
    if (st != STATUS_OK)
        return st;
    const Mem *mem = cfg != NULL ? cfg->mem : NULL;
    AlphaBeta *ab = mem_zalloc(mem, sizeof *ab);
    if (ab == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    ab->g = g;
    ab->ops = g->ops;
    if (cfg != NULL)
        ab->cfg = *cfg;
    if (ab->cfg.tt_bytes == 0)
        ab->cfg.tt_bytes = ALPHABETA_DEFAULT_TT_BYTES;
    ab->margin = g->ops->variety_margin > 0 ? g->ops->variety_margin : 0;
    if (g->ops->variety_margin < 0)
        ab->cfg.variety = false; // the game asks for none (its GameOps says why)
    // Undo records are kept 16-byte aligned, whatever a game's undo size.
    ab->undo_stride = (g->undo_size + 15) / 16 * 16;
    if (ab->undo_stride == 0)
        ab->undo_stride = 16;
    ab->ply = mem_zalloc(mem, (SEARCH_MAX_PLY + 1) * sizeof *ab->ply);
    ab->undo = mem_aligned_alloc(mem, 16, ab->undo_stride * SEARCH_MAX_PLY);
    ab->pos = mem_zalloc(mem, g->state_size);
    if (g->move_index_count > 0)
        ab->history = mem_zalloc(mem, 2 * (size_t)g->move_index_count * sizeof *ab->history);
    ab->lazy = ab->ops->gen_candidates != NULL && ab->ops->candidate_legal != NULL;
    ab->quiescence = !ab->cfg.no_quiescence && ab->ops->evaluate_static != NULL &&
                     ab->ops->noisy != NULL;
    ab->eval = ab->quiescence ? ab->ops->evaluate_static : ab->ops->evaluate;
    if (ab->lazy && g->legal_memo_size > 0)
        ab->legal_memo = mem_zalloc(mem, g->legal_memo_size);
    if (ab->cfg.net != NULL) {
        st = nnue_stack_new(g, ab->cfg.net, mem, &ab->nnue, err);
        if (st != STATUS_OK) {
            alphabeta_free(ab);
            return st;
        }
    }
    if (ab->ply == NULL || ab->undo == NULL || ab->pos == NULL ||
        (g->move_index_count > 0 && ab->history == NULL) ||
        (ab->lazy && g->legal_memo_size > 0 && ab->legal_memo == NULL)) {
        alphabeta_free(ab);
        return err_set(err, STATUS_NOMEM, "out of memory");
    }
    st = tt_init(&ab->tt, ab->cfg.tt_bytes, mem, err);
    if (st != STATUS_OK) {
        alphabeta_free(ab);
        return st;
    }
    *out = ab;
    return STATUS_OK;
}

void alphabeta_free(AlphaBeta *ab)
{
    if (ab == NULL)
        return;
    const Mem *mem = ab->cfg.mem;
    tt_free(&ab->tt);
    mem_free(mem, ab->history);
    mem_free(mem, ab->ply);
    mem_aligned_free(mem, ab->undo);
    mem_free(mem, ab->pos);
    mem_free(mem, ab->legal_memo);
    nnue_stack_free(ab->nnue);
    mem_free(mem, ab);
}

void alphabeta_clear(AlphaBeta *ab)
{
    tt_clear(&ab->tt);
    if (ab->history != NULL)
        memset(ab->history, 0, 2 * (size_t)ab->g->move_index_count * sizeof *ab->history);
    for (int i = 0; i <= SEARCH_MAX_PLY; i++)
        ab->ply[i].killer[0] = ab->ply[i].killer[1] = MOVE_NONE;
}

size_t alphabeta_tt_bytes(const AlphaBeta *ab)
{
    return tt_bytes(&ab->tt);
}

Status alphabeta_resize_tt(AlphaBeta *ab, size_t bytes, ErrBuf *err)
{
    TTable fresh;
    Status st = tt_init(&fresh, bytes, ab->cfg.mem, err);
    if (st != STATUS_OK)
        return st;
    tt_free(&ab->tt);
    ab->tt = fresh;
    ab->cfg.tt_bytes = bytes;
    return STATUS_OK;
}

/* Counts a node `ply` actions from the root (the deepest is the iteration's seldepth),
 * or says that a limit was reached and the search must unwind. The node
 * limit is exact (a search never counts more nodes than it allows); the clock and the
 * stop flag are polled every so many nodes (deadline.h). */
static inline bool enter_node(AlphaBeta *ab, int ply)
{
    if (ab->stopped)
        return false;
    if (ab->node_limit != 0 && ab->nodes >= ab->node_limit) {
        ab->stopped = true;
        return false;
    }
    ab->nodes++;
    if (ply > ab->seldepth)
        ab->seldepth = ply;
    if (ab->time_checks && deadline_poll(&ab->clock, ab->nodes)) {
        ab->stopped = true;
        return false;
    }
    return true;
}

/* Every action the search makes goes through here, so that the network's accumulators
 * (nnue_stack.h) know the line: child_ply is where the action's result is searched. */
static inline void make_move(AlphaBeta *ab, Move m, void *undo, int child_ply)
{
    if (ab->nnue != NULL)
        nnue_stack_push(ab->nnue, ab->pos, child_ply);
    ab->ops->make(ab->g, ab->pos, m, undo);
}

/* The same for a pass, which the game may refuse (false, nothing made). */
static inline bool make_null(AlphaBeta *ab, void *undo, int child_ply)
{
    if (ab->nnue != NULL)
        nnue_stack_push(ab->nnue, ab->pos, child_ply);
    return ab->ops->make_null(ab->g, ab->pos, undo);
}

/* The evaluation for the player to move, plus the configured noise, kept clear of the
 * decisive range. The noise is a hash of the position, so a position keeps its value
 * within a search and the TT stays consistent. */
static int evaluate(AlphaBeta *ab, int ply)
{
    long long v = ab->nnue != NULL ? nnue_stack_evaluate(ab->nnue, ab->pos, ply)
                                   : ab->eval(ab->g, ab->pos);
    if (ab->cfg.eval_noise > 0) {
        uint64_t k = ab->ops->hash(ab->g, ab->pos) ^ ab->cfg.noise_seed;
        const uint64_t span = 2 * (uint64_t)ab->cfg.eval_noise + 1;
        v += (long long)(rng_mix(&k) % span) - ab->cfg.eval_noise;
    }
    if (v > SCORE_EVAL_MAX)
        return SCORE_EVAL_MAX;
    if (v < -SCORE_EVAL_MAX)
        return -SCORE_EVAL_MAX;
    return (int)v;
}

/* Value of a finished game for `us`, who made the last action, `ply` actions from the
 * root: sooner wins and later losses are better. */
static int terminal_score(const AlphaBeta *ab, int us, int ply)
{
    double r[MAX_PLAYERS] = {0};
    ab->ops->returns(ab->g, ab->pos, r);
    if (r[us] > 0)
        return SCORE_WIN - ply;
    if (r[us] < 0)
        return -SCORE_WIN + ply;
    return 0;
}

static inline int32_t *history_of(AlphaBeta *ab, int player, Move m)
{
    const int idx = ab->ops->move_index(ab->g, ab->pos, m);
    assert(idx >= 0 && idx < ab->g->move_index_count);
    return &ab->history[(size_t)player * (size_t)ab->g->move_index_count + (size_t)idx];
}

/* Moves a history score towards +-AB_HISTORY_MAX by `delta`, slower the closer it is. */
static inline void history_add(int32_t *h, int delta)
{
    const int mag = delta < 0 ? -delta : delta;
    *h += delta - *h * mag / AB_HISTORY_MAX;
}

/* Step 5 of search: gives every move an ordering score. The TT move first, then the
 * noisy moves by the game's order, then the killers of this ply, then the rest by
 * history. */
static void score_moves(AlphaBeta *ab, Ply *p, int us, Move tt_move, int n)
{
    int noisy = 0;
    for (int i = 0; i < n; i++) {
        const Move m = p->list.moves[i];
        if (m == tt_move)
            p->order[i] = ORDER_TT;
        else if (ab->ops->noisy != NULL && (noisy = ab->ops->noisy(ab->g, ab->pos, m)) > 0)
            p->order[i] = ORDER_NOISY + noisy;
        else if (m == p->killer[0])
            p->order[i] = ORDER_KILLER_1;
        else if (m == p->killer[1])
            p->order[i] = ORDER_KILLER_2;
        else if (ab->history != NULL)
            p->order[i] = *history_of(ab, us, m);
        else
            p->order[i] = 0;
    }
}

/* Brings the best-scored of moves[i..n) to position i (the first one on ties) and
 * returns it. A selection step rather than a sort: most nodes cut after a few moves. */
static inline Move pick_move(Ply *p, int i, int n)
{
    int best = i;
    for (int j = i + 1; j < n; j++)
        if (p->order[j] > p->order[best])
            best = j;
    if (best != i) {
        const Move m = p->list.moves[best];
        const int32_t o = p->order[best];
        p->list.moves[best] = p->list.moves[i];
        p->order[best] = p->order[i];
        p->list.moves[i] = m;
        p->order[i] = o;
    }
    return p->list.moves[i];
}

/* Drops list entry j, keeping the others in their order. */
static void drop_move(Ply *p, int j, int *n)
{
    (*n)--;
    memmove(p->list.moves + j, p->list.moves + j + 1, (size_t)(*n - j) * sizeof(Move));
    memmove(p->order + j, p->order + j + 1, (size_t)(*n - j) * sizeof(int32_t));
}

/* Whether any of the node's n candidates is legal. */
static bool any_candidate_legal(AlphaBeta *ab, const Ply *p, int n)
{
    for (int i = 0; i < n; i++)
        if (ab->ops->candidate_legal(ab->g, ab->pos, p->list.moves[i], ab->legal_memo))
            return true;
    return false;
}

/* pick_move over candidates whose legality is tested only now (the game's lazy hooks),
 * testing only the candidate it returns. A candidate found illegal leaves the list, and
 * the one returned moves to i with the entries before it shifted up rather than swapped,
 * so the others keep their order: ties between the rest are broken the same way whether
 * or not an illegal candidate was among them. MOVE_NONE when no candidate from i on is
 * legal. */
static Move pick_legal(AlphaBeta *ab, Ply *p, int i, int *n)
{
    const Game *g = ab->g;
    for (;;) {
        if (i >= *n)
            return MOVE_NONE;
        int best = i;
        for (int j = i + 1; j < *n; j++)
            if (p->order[j] > p->order[best])
                best = j;
        if (!ab->ops->candidate_legal(g, ab->pos, p->list.moves[best], ab->legal_memo)) {
            drop_move(p, best, n);
            continue;
        }
        Move m = p->list.moves[best];
        int32_t o = p->order[best];
        memmove(p->list.moves + i + 1, p->list.moves + i, (size_t)(best - i) * sizeof(Move));
        memmove(p->order + i + 1, p->order + i, (size_t)(best - i) * sizeof(int32_t));
        p->list.moves[i] = m;
        p->order[i] = o;
        return m;
    }
}

static inline void update_pv(Ply *p, Move m, const Ply *child)
{
    int len = child->pv_len;
    if (len > SEARCH_MAX_PLY - 1)
        len = SEARCH_MAX_PLY - 1;
    p->pv[0] = m;
    memcpy(p->pv + 1, child->pv, (size_t)len * sizeof(Move));
    p->pv_len = len + 1;
}

/* A beta cutoff by moves[i]: it becomes a killer and gains history; the moves tried
 * before it, which did not cut, lose some. */
static void reward_cutoff(AlphaBeta *ab, Ply *p, int us, int i, int depth)
{
    const Move m = p->list.moves[i];
    if (p->order[i] >= ORDER_NOISY && p->order[i] < ORDER_TT)
        return; // a capture refutes by itself; killers and history are for quiet moves
    if (p->killer[0] != m) {
        p->killer[1] = p->killer[0];
        p->killer[0] = m;
    }
    if (ab->history == NULL)
        return;
    const int bonus = depth * depth < AB_HISTORY_BONUS_CAP ? depth * depth : AB_HISTORY_BONUS_CAP;
    history_add(history_of(ab, us, m), bonus);
    for (int j = 0; j < i; j++)
        history_add(history_of(ab, us, p->list.moves[j]), -bonus);
}

static int search(AlphaBeta *ab, int us, int alpha, int beta, int depth, int ply, bool pv_node);
static int quiesce(AlphaBeta *ab, int us, int alpha, int beta, int ply, int qply, bool in_check);

/* Whether m, about to be made, with ordering score `order` (ORDER_TT when unknown), is
 * noisy: what the node after it tells quiesce_finish (Ply.noisy_in). Only a game with
 * that hook asks, so the others pay nothing. */
static inline bool leads_noisy(const AlphaBeta *ab, int32_t order, Move m)
{
    if (ab->ops->quiesce_finish == NULL || order < ORDER_NOISY)
        return false;
    return order < ORDER_TT || ab->ops->noisy(ab->g, ab->pos, m) > 0;
}

/* As child_value, in quiescence: the value for `us` of the position after its noisy
 * action (or evasion), `qply` actions past the horizon. Counts the node. */
static int quiesce_child(AlphaBeta *ab, int us, int alpha, int beta, int ply, int qply)
{
    ab->ply[ply].pv_len = 0;
    if (!enter_node(ab, ply))
        return 0;
    const int them = ab->ops->to_move(ab->g, ab->pos);
    const bool check = them >= 0 && ab->ops->in_check != NULL && ab->ops->in_check(ab->g, ab->pos);
    if (them == us)
        return quiesce(ab, us, alpha, beta, ply, qply, check);
    if (them >= 0)
        return -quiesce(ab, them, -beta, -alpha, ply, qply, check);
    return them == PLAYER_NONE ? terminal_score(ab, us, ply) : 0;
}

/* Quiescence, past the horizon, the node counted: the value for `us` in (alpha, beta),
 * fail-soft, once the captures and promotions (the game's noisy actions, best first)
 * have played out, so that the evaluation never stands in the middle of an exchange.
 * Out of check the player may stand pat on the static evaluation, as a player may
 * decline every capture (and a King Down beast may end its chain, where the same
 * player acts again). In check that would ignore the threat, and a mate in one would
 * pass for a quiet position: every action is searched, and when none is legal the
 * game is over before this node (to_move says so), scored as a mate by quiesce_child.
 * A game whose turn is several actions may refuse the stand pat in the middle of a
 * turn (quiesce_finish) that a noisy action brought here: its closing action is
 * searched with the noisy ones instead.
 * AB_QUIESCENCE_PLIES bounds the line, past which the evaluation stands even in check.
 * Results go to the TT at depth 0, which no search of depth 1 or more cuts on. */
static int quiesce(AlphaBeta *ab, int us, int alpha, int beta, int ply, int qply, bool in_check)
{
    const Game *g = ab->g;
    const GameOps *ops = ab->ops;
    Ply *p = &ab->ply[ply];
    if (qply >= AB_QUIESCENCE_PLIES || ply >= SEARCH_MAX_PLY - 1)
        return evaluate(ab, ply);

    const uint64_t key = ops->hash(g, ab->pos);
    Move tt_move = MOVE_NONE;
    TTHit hit;
    if (tt_probe(&ab->tt, key, ply, &hit)) {
        if (hit.bound == TT_BOUND_EXACT || (hit.bound == TT_BOUND_LOWER && hit.score >= beta) ||
            (hit.bound == TT_BOUND_UPPER && hit.score <= alpha))
            return hit.score;
        tt_move = hit.move;
    }

    const int old_alpha = alpha;
    int best = -SCORE_INF;
    // A turn in progress that the game wants finished offers no stand pat once it has
    // done something noisy (the action into this node, or any in quiescence): its closing
    // action is searched instead, so that the opponent's replies are seen. After a quiet
    // action at the horizon the turn stands as it is, which keeps most leaves cheap.
    const Move finish = in_check || ops->quiesce_finish == NULL || (qply == 0 && !p->noisy_in)
                            ? MOVE_NONE
                            : ops->quiesce_finish(g, ab->pos);
    if (!in_check && finish == MOVE_NONE) {
        best = evaluate(ab, ply);
        if (best >= beta)
            return best;
        if (best > alpha)
            alpha = best;
    }

    // The noisy actions (every action in check), the TT's move first, then the game's
    // order, which puts the best victim first. A game with lazy legality lists
    // candidates, and only the few kept are tested: its full list can cost far more than
    // the leaf (King's Valley 7x7's trap rule). A legal action the test refuses only
    // when no candidate is legal (the game's fallback) is then not searched; standing
    // pat covers it, as for any action quiescence leaves out. In check every candidate
    // is kept and tested as it is picked, as in the main search, with the same fallback.
    const bool candidates = ab->lazy;
    const int n = candidates ? ops->gen_candidates(g, ab->pos, &p->list)
                             : ops->gen_moves(g, ab->pos, &p->list);
    int kept = 0;
    for (int i = 0; i < n; i++) {
        const Move m = p->list.moves[i];
        const int v = ops->noisy(g, ab->pos, m);
        if (v == 0 && !in_check && m != finish)
            continue;
        if (candidates && !in_check && !ops->candidate_legal(g, ab->pos, m, ab->legal_memo))
            continue;
        p->list.moves[kept] = m;
        p->order[kept++] = m == tt_move ? ORDER_TT : v;
    }
    if (kept == 0)
        return in_check ? 0 : best; // in check: only a broken game contract, as in search

    void *undo = ab->undo + (size_t)ply * ab->undo_stride;
    Move best_move = MOVE_NONE;
    bool test_when_picked = candidates && in_check;
    for (int i = 0; i < kept; i++) {
        Move m = test_when_picked ? pick_legal(ab, p, i, &kept) : pick_move(p, i, kept);
        if (m == MOVE_NONE && i == 0) {
            // No candidate is legal: the game decides what is (a fallback rule).
            test_when_picked = false;
            kept = ops->gen_moves(g, ab->pos, &p->list);
            for (int j = 0; j < kept; j++)
                p->order[j] = ops->noisy(g, ab->pos, p->list.moves[j]);
            if (kept == 0)
                return 0;
            m = pick_move(p, 0, kept);
        }
        if (m == MOVE_NONE)
            break;
        make_move(ab, m, undo, ply + 1);
        GAME_CHECK(g, ab->pos);
        const int score = quiesce_child(ab, us, alpha, beta, ply + 1, qply + 1);
        ops->unmake(g, ab->pos, m, undo);
        GAME_CHECK(g, ab->pos);
        if (ab->stopped)
            return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                best_move = m;
                if (alpha >= beta)
                    break;
            }
        }
    }
    const int bound = best >= beta       ? TT_BOUND_LOWER
                      : best > old_alpha ? TT_BOUND_EXACT
                                         : TT_BOUND_UPPER;
    tt_store(&ab->tt, key, ply, best_move, best, 0, bound);
    return best;
}

/* How many actions shallower the i-th move of a node is first searched (late move
 * reductions), its move made: 0 unless reductions are on (AlphaBetaConfig), the game gives
 * noisy values (so that quiet moves are known), the move is quiet, late and not a
 * killer, and neither side is in check. */
static int late_reduction(AlphaBeta *ab, const Ply *p, int i, int depth, bool in_check,
                          bool pv_node)
{
    if (ab->cfg.no_reductions || ab->ops->noisy == NULL || in_check ||
        depth < AB_LMR_MIN_DEPTH || i < AB_LMR_FIRST || p->order[i] >= ORDER_KILLER_2)
        return 0;
    if (ab->ops->in_check != NULL && ab->ops->in_check(ab->g, ab->pos))
        return 0; // the move gives check
    int r = 1 + (i >= 8) + (depth >= 8 && i >= 16);
    if (pv_node)
        r--;
    return r < depth - 1 ? r : depth - 1;
}

/* The value, from the view of `us` (who just acted), of the position after that action,
 * `ply` actions from the root. The negamax sign flips only when the mover changes:
 * several actions in a row by one player keep the window and the sign. */
static int child_value(AlphaBeta *ab, int us, int alpha, int beta, int depth, int ply, bool pv_node)
{
    const int them = ab->ops->to_move(ab->g, ab->pos);
    if (them == us)
        return search(ab, us, alpha, beta, depth, ply, pv_node);
    if (them >= 0)
        return -search(ab, them, -beta, -alpha, depth, ply, pv_node);
    // Game over. (PLAYER_CHANCE cannot happen in a game that passed
    // alphabeta_check_game; it would count as a draw.)
    ab->ply[ply].pv_len = 0;
    if (!enter_node(ab, ply))
        return 0;
    return them == PLAYER_NONE ? terminal_score(ab, us, ply) : 0;
}

/* Negamax PVS below the root: the value for `us`, the player to move, in the window
 * (alpha, beta), fail-soft. Not meaningful once ab->stopped is set. */
static int search(AlphaBeta *ab, int us, int alpha, int beta, int depth, int ply, bool pv_node)
{
    const Game *g = ab->g;
    const GameOps *ops = ab->ops;
    Ply *p = &ab->ply[ply];
    p->pv_len = 0;

    // Step 1. Count the node, or unwind if a limit was reached.
    if (!enter_node(ab, ply))
        return 0;

    // Step 2. The horizon: the evaluation stands for the rest of the game. A player in
    // check looks one action further, so that a check is never the last word.
    // Checks answered by checks would extend without end, so the extensions stop at
    // twice the iteration's depth. A game with quiescence has it stand for the rest.
    const bool in_check = ops->in_check != NULL && ops->in_check(g, ab->pos);
    if (in_check && ply < 2 * ab->iter_depth)
        depth++;
    if (depth <= 0 && ab->quiescence)
        return quiesce(ab, us, alpha, beta, ply, 0, in_check);
    if (depth <= 0 || ply >= SEARCH_MAX_PLY - 1)
        return evaluate(ab, ply);

    // Step 3. Mate-distance pruning: nothing here beats a win at the very next action
    // or is worse than a loss at the very next action.
    const int worst = -SCORE_WIN + ply + 1;
    const int best_possible = SCORE_WIN - ply - 1;
    if (alpha < worst)
        alpha = worst;
    if (beta > best_possible)
        beta = best_possible;
    if (alpha >= beta)
        return alpha;

    // Step 4. Probe the TT. Cut only on an entry searched at least this deep, and
    // never at PV nodes, so that the PV stays complete.
    const uint64_t key = ops->hash(g, ab->pos);
    Move tt_move = MOVE_NONE;
    TTHit hit;
    if (tt_probe(&ab->tt, key, ply, &hit)) {
        tt_move = hit.move;
        if (!pv_node && hit.depth >= depth &&
            (hit.bound == TT_BOUND_EXACT || (hit.bound == TT_BOUND_LOWER && hit.score >= beta) ||
             (hit.bound == TT_BOUND_UPPER && hit.score <= alpha)))
            return hit.score;
    }

    // Step 4b. Null move: if passing still holds beta at reduced depth, a real move
    // would too. Never in check or at PV nodes, and not when beta is a mate score,
    // where a pass says nothing (nor when the game refuses the pass: zugzwang).
    void *undo = ab->undo + (size_t)ply * ab->undo_stride;
    if (!pv_node && !in_check && ops->make_null != NULL && depth >= AB_NULL_MIN_DEPTH &&
        !score_is_decisive(beta) && evaluate(ab, ply) >= beta && make_null(ab, undo, ply + 1)) {
        const int r = 3 + depth / 4;
        ab->ply[ply + 1].noisy_in = false;
        const int them = ops->to_move(g, ab->pos);
        const int v = -search(ab, them, -beta, -beta + 1, depth - 1 - r, ply + 1, false);
        ops->unmake_null(g, ab->pos, undo);
        if (ab->stopped)
            return 0;
        if (v >= beta)
            return score_is_decisive(v) ? beta : v;
    }

    // Step 5. Generate and order the moves. A player to move always has one; an
    // empty list would break the game contract, and is scored as a draw. A game with
    // lazy legality lists candidates, tested as they are picked.
    bool lazy = ab->lazy;
    int n;
    const int old_alpha = alpha;
generate:
    n = lazy ? ops->gen_candidates(g, ab->pos, &p->list) : ops->gen_moves(g, ab->pos, &p->list);
    if (n == 0)
        return 0;
    score_moves(ab, p, us, tt_move, n);

    // Step 6. The first move with the full window, the others with a null window,
    // re-searched with the full one only if they might be better (PVS).
    // At the frontier (depth 1) of a game with lazy legality, a candidate's legality is
    // tested only if its value would count: one that fails low
    // leaves the node's upper bound true whether it is legal or not (the legal moves are
    // among the candidates, or, when none is, the game's fallback makes all of them
    // legal). An illegal candidate above alpha is dropped, unless no candidate is legal:
    // then the moves are searched again as the game's gen_moves gives them.
    const bool frontier = lazy && depth == 1;
    bool dropped = false, confirmed = false;
    int best = -SCORE_INF;
    Move best_move = MOVE_NONE;
    for (int i = 0; i < n; i++) {
        Move m = lazy && !frontier ? pick_legal(ab, p, i, &n) : pick_move(p, i, n);
        if (m == MOVE_NONE && i == 0) {
            // No candidate is legal: the game decides what is (a fallback rule).
            lazy = false;
            n = ops->gen_moves(g, ab->pos, &p->list);
            if (n == 0)
                return 0;
            score_moves(ab, p, us, tt_move, n);
            m = pick_move(p, 0, n);
        }
        if (m == MOVE_NONE)
            break;
        ab->ply[ply + 1].noisy_in = leads_noisy(ab, p->order[i], m);
        make_move(ab, m, undo, ply + 1);
        GAME_CHECK(g, ab->pos);
        int score;
        if (i == 0) {
            score = child_value(ab, us, alpha, beta, depth - 1, ply + 1, pv_node);
        } else {
            // Late move reductions: a quiet move ordered late rarely matters, so it is
            // searched shallower first, and at full depth only if it beats alpha.
            const int r = late_reduction(ab, p, i, depth, in_check, pv_node);
            score = child_value(ab, us, alpha, alpha + 1, depth - 1 - r, ply + 1, false);
            if (r > 0 && score > alpha)
                score = child_value(ab, us, alpha, alpha + 1, depth - 1, ply + 1, false);
            if (pv_node && score > alpha && score < beta)
                score = child_value(ab, us, alpha, beta, depth - 1, ply + 1, true);
        }
        ops->unmake(g, ab->pos, m, undo);
        GAME_CHECK(g, ab->pos);
        if (ab->stopped)
            return 0;
        if (frontier && score > alpha) {
            if (!ops->candidate_legal(g, ab->pos, m, ab->legal_memo)) {
                dropped = true;
                continue;
            }
            confirmed = true;
        }

        if (score > best) {
            best = score;
            best_move = m;
            if (score > alpha) {
                alpha = score;
                if (pv_node)
                    update_pv(p, m, &ab->ply[ply + 1]);
                if (alpha >= beta) {
                    reward_cutoff(ab, p, us, i, depth);
                    break;
                }
            }
        }
    }

    if (dropped && !confirmed && !any_candidate_legal(ab, p, n)) {
        // No candidate is legal: the game decides what is (a fallback rule).
        lazy = false;
        alpha = old_alpha;
        goto generate;
    }

    // Step 7. Remember the result. A node where every move failed low has no best
    // move worth keeping, so the entry keeps whatever move it had.
    const int bound = best >= beta       ? TT_BOUND_LOWER
                      : best > old_alpha ? TT_BOUND_EXACT
                                         : TT_BOUND_UPPER;
    tt_store(&ab->tt, key, ply, bound == TT_BOUND_UPPER ? MOVE_NONE : best_move, best, depth,
             bound);
    return best;
}

/* The lowest value that still counts as equal to `best` for variety: a proven win or
 * loss admits only its equals. */
static int tie_floor(const AlphaBeta *ab, int best)
{
    return score_is_decisive(best) ? best : best - ab->margin;
}

/* One iteration at the root, over the root moves in their current order. Like search,
 * but it records in ab->iter_* every root move proven best with an exact score, so
 * that an iteration cut short can still be used. */
static int search_root(AlphaBeta *ab, int us, int alpha, int beta, int depth)
{
    const Game *g = ab->g;
    const GameOps *ops = ab->ops;
    Ply *p = &ab->ply[0];
    const int n = p->list.count;
    void *undo = ab->undo;
    int best = -SCORE_INF;

    p->pv_len = 0;
    ab->iter_move = MOVE_NONE;
    if (!enter_node(ab, 0))
        return 0;
    const SearchProgress *progress = ab->progress;
    for (int i = 0; i < n; i++) {
        const Move m = p->list.moves[i];
        if (progress != NULL && progress->root_move != NULL &&
            deadline_elapsed_ms(&ab->clock) >= 1000)
            progress->root_move(progress->ctx, m, i + 1, depth);
        ab->ply[1].noisy_in = leads_noisy(ab, ORDER_TT, m);
        make_move(ab, m, undo, 1);
        GAME_CHECK(g, ab->pos);
        int score;
        if (i == 0) {
            score = child_value(ab, us, alpha, beta, depth - 1, 1, true);
        } else {
            score = child_value(ab, us, alpha, alpha + 1, depth - 1, 1, false);
            if (score > alpha && score < beta)
                score = child_value(ab, us, alpha, beta, depth - 1, 1, true);
        }
        ops->unmake(g, ab->pos, m, undo);
        GAME_CHECK(g, ab->pos);
        if (ab->stopped)
            break;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                update_pv(p, m, &ab->ply[1]);
                if (score < beta) {
                    ab->iter_move = m;
                    ab->iter_score = score;
                    ab->iter_pv_len = p->pv_len;
                    memcpy(ab->iter_pv, p->pv, (size_t)p->pv_len * sizeof(Move));
                } else {
                    break; // fail high: the driver widens the window
                }
            }
        }
    }
    return best;
}

/* Variety, after the last completed iteration at `depth`, whose best was best_move of
 * exact value `best`: every other root move gets one null-window search at the floor of
 * the ties, and those that reach it, and still do in a PV search, (worth at least the
 * floor, and no more than the best, which is exact) join best_move in ab->tie_*. A search stopped meanwhile keeps
 * the ties proven so far. */
static void collect_ties(AlphaBeta *ab, int us, int best, Move best_move, int depth)
{
    const Game *g = ab->g;
    const GameOps *ops = ab->ops;
    const Ply *p = &ab->ply[0];
    const int tie_min = tie_floor(ab, best);
    ab->tie_count = 0;
    ab->tie_move[ab->tie_count++] = best_move;
    for (int i = 0; i < p->list.count; i++) {
        const Move m = p->list.moves[i];
        if (m == best_move)
            continue;
        ab->ply[1].noisy_in = leads_noisy(ab, ORDER_TT, m);
        make_move(ab, m, ab->undo, 1);
        GAME_CHECK(g, ab->pos);
        int score = child_value(ab, us, tie_min - 1, tie_min, depth - 1, 1, false);
        // A pass of the null window may rest on cuts only non-PV nodes take (reductions
        // of the reply that refutes the move, the null move, TT bounds): as PVS does at
        // the root, a move is believed only once a PV search confirms it.
        if (score >= tie_min && !ab->stopped)
            score = child_value(ab, us, tie_min - 1, best + 1, depth - 1, 1, true);
        ops->unmake(g, ab->pos, m, ab->undo);
        GAME_CHECK(g, ab->pos);
        if (ab->stopped)
            break;
        if (score >= tie_min)
            ab->tie_move[ab->tie_count++] = m;
    }
}

/* The answer among the ties: drawn by the variety seed and the position, so a seed
 * replays and another seed differs. */
static Move pick_tie(const AlphaBeta *ab, uint64_t root_key)
{
    uint64_t k = ab->cfg.variety_seed ^ root_key;
    return ab->tie_move[rng_mix(&k) % (uint64_t)ab->tie_count];
}

/* Shuffles the root moves by the variety seed and the position, so that moves the
 * ordering cannot tell apart are tried (and tied) in a different order per seed. */
static void shuffle_root(const AlphaBeta *ab, Ply *p, uint64_t root_key)
{
    Rng rng;
    rng_seed(&rng, ab->cfg.variety_seed ^ root_key);
    for (int i = p->list.count - 1; i > 0; i--) {
        const int j = (int)rng_below(&rng, (uint32_t)i + 1);
        const Move m = p->list.moves[i];
        p->list.moves[i] = p->list.moves[j];
        p->list.moves[j] = m;
    }
}

/* Stable insertion sort of the root moves by ordering score, best first. */
static void sort_root(Ply *p)
{
    for (int i = 1; i < p->list.count; i++) {
        const Move m = p->list.moves[i];
        const int32_t o = p->order[i];
        int j = i;
        while (j > 0 && p->order[j - 1] < o) {
            p->list.moves[j] = p->list.moves[j - 1];
            p->order[j] = p->order[j - 1];
            j--;
        }
        p->list.moves[j] = m;
        p->order[j] = o;
    }
}

/* Moves `m` to the front of the root list, keeping the others in order. */
static void root_to_front(Ply *p, Move m)
{
    int i = 0;
    while (i < p->list.count && p->list.moves[i] != m)
        i++;
    for (; i > 0 && i < p->list.count; i--)
        p->list.moves[i] = p->list.moves[i - 1];
    p->list.moves[0] = m;
}

static void set_pv(SearchResult *out, const Move *pv, int len)
{
    if (len > SEARCH_PV_CAP)
        len = SEARCH_PV_CAP;
    memcpy(out->pv, pv, (size_t)len * sizeof(Move));
    out->pv_len = len;
}

/* Tells the limits' listener about a completed iteration. */
static void report_iteration(const AlphaBeta *ab, Move best, int score, int depth,
                             const Move *pv, int pv_len)
{
    SearchResult r;
    memset(&r, 0, sizeof r);
    r.best = best;
    r.has_score = true;
    r.score = score;
    set_pv(&r, pv, pv_len);
    r.nodes = ab->nodes;
    r.depth = depth;
    r.time_ms = deadline_elapsed_ms(&ab->clock);
    ab->progress->iteration(ab->progress->ctx, &r, ab->seldepth, tt_hashfull(&ab->tt));
}

void alphabeta_search(AlphaBeta *ab, const GameState *s, const SearchLimits *limits,
                      atomic_bool *stop, SearchResult *out)
{
    const Game *g = ab->g;
    const GameOps *ops = ab->ops;
    memset(out, 0, sizeof *out);

    // Step 1. Set up: the working copy, the limits, a new TT age, fresh killers.
    deadline_start(&ab->clock, limits->movetime_ms, stop);
    game_state_copy(g, ab->pos, s);
    ab->nodes = 0;
    ab->node_limit = limits->nodes;
    ab->stopped = false;
    ab->time_checks = false;
    ab->seldepth = 0;
    ab->progress = limits->progress;
    tt_new_search(&ab->tt);
    for (int i = 0; i <= SEARCH_MAX_PLY; i++)
        ab->ply[i].killer[0] = ab->ply[i].killer[1] = MOVE_NONE;
    if (ab->nnue != NULL)
        nnue_stack_reset(ab->nnue);

    // Step 2. The root moves, TT move first and then by history, so that even a search
    // stopped at once answers with a reasonable legal move.
    const int us = ops->to_move(g, ab->pos);
    Ply *root = &ab->ply[0];
    const int n = us >= 0 && ops->gen_moves(g, ab->pos, &root->list) > 0
                      ? search_keep_root_moves(limits, &root->list)
                      : 0;
    if (n == 0) {
        out->best = MOVE_NONE; // precondition broken: nothing to play
        out->time_ms = deadline_elapsed_ms(&ab->clock);
        return;
    }
    const uint64_t root_key = ops->hash(g, ab->pos);
    if (ab->cfg.variety)
        shuffle_root(ab, root, root_key);
    TTHit hit;
    score_moves(ab, root, us, tt_probe(&ab->tt, root_key, 0, &hit) ? hit.move : MOVE_NONE, n);
    sort_root(root);

    Move best_move = root->list.moves[0];
    int best_score = 0;
    bool has_score = false;
    int done_depth = 0;
    Move pv[SEARCH_MAX_PLY];
    int pv_len = 1;
    pv[0] = best_move;

    int max_depth = limits->depth > 0 ? limits->depth : SEARCH_MAX_PLY - 1;
    if (max_depth > SEARCH_MAX_PLY - 1)
        max_depth = SEARCH_MAX_PLY - 1;
    if (g->max_game_length > 0 && max_depth > g->max_game_length)
        max_depth = g->max_game_length; // deeper than any game can last is pointless

    // Step 3. Iterative deepening. Depth 1 always runs to the end (unless the node
    // limit strikes) so that the move is at least not a blunder at one action.
    for (int depth = 1; depth <= max_depth; depth++) {
        if (depth > 1) {
            ab->time_checks = true;
            if (deadline_check(&ab->clock, ab->nodes))
                break;
            // An iteration started after half the time would rarely finish.
            if (limits->movetime_ms > 0 &&
                deadline_elapsed_ms(&ab->clock) * 2 >= limits->movetime_ms)
                break;
        }

        // Step 4. Aspiration: a window around the last score, widened on failure.
        ab->iter_depth = depth;
        int window = AB_ASPIRATION_WINDOW;
        int alpha = -SCORE_INF, beta = SCORE_INF;
        if (depth >= AB_ASPIRATION_DEPTH && !score_is_decisive(best_score)) {
            alpha = best_score - window;
            beta = best_score + window;
        }
        int score;
        for (;;) {
            score = search_root(ab, us, alpha, beta, depth);
            if (ab->stopped)
                break;
            if (score > alpha && score < beta)
                break;
            window *= 2;
            if (score <= alpha)
                alpha = window > AB_ASPIRATION_GIVE_UP ? -SCORE_INF : alpha - window;
            else
                beta = window > AB_ASPIRATION_GIVE_UP ? SCORE_INF : beta + window;
        }

        // Step 5. A cut iteration counts only through a root move it finished exactly:
        // the old best searched deeper, or a move proven better than it.
        if (ab->stopped) {
            if (ab->iter_move != MOVE_NONE) {
                best_move = ab->iter_move;
                best_score = ab->iter_score;
                has_score = true;
                pv_len = ab->iter_pv_len;
                memcpy(pv, ab->iter_pv, (size_t)pv_len * sizeof(Move));
            }
            break;
        }

        best_move = root->pv[0];
        best_score = score;
        has_score = true;
        done_depth = depth;
        pv_len = root->pv_len;
        memcpy(pv, root->pv, (size_t)pv_len * sizeof(Move));
        root_to_front(root, best_move);
        tt_store(&ab->tt, root_key, 0, best_move, score, depth, TT_BOUND_EXACT);
        if (ab->progress != NULL && ab->progress->iteration != NULL)
            report_iteration(ab, best_move, score, depth, pv, pv_len);

        // Step 6. Stop early when more depth cannot change the answer: a win or loss
        // proven within the searched depth, or a single legal move under a clock.
        if (score_is_decisive(score) && SCORE_WIN - abs(score) <= depth)
            break;
        if (n == 1 && limits->movetime_ms > 0)
            break;
    }

    // Step 7. Variety: the answer is drawn among the root moves as good as the best
    // within the margin (a proven win or loss: as good) at the last completed depth,
    // unless the search was stopped before that depth's test could begin. The test
    // may spend at most the nodes the search spent (and under a clock it mostly spends
    // time iterative deepening leaves unused, as it starts no iteration after half the
    // time); cut short, it keeps the ties proven so far.
    Move answer = best_move;
    if (ab->cfg.variety && done_depth > 0 && !ab->stopped && n > 1 &&
        best_move == root->list.moves[0]) {
        const uint64_t budget = 2 * ab->nodes;
        if (ab->node_limit == 0 || ab->node_limit > budget)
            ab->node_limit = budget;
        ab->time_checks = true;
        collect_ties(ab, us, best_score, best_move, done_depth);
        answer = pick_tie(ab, root_key);
    }

    out->best = answer;
    out->has_score = has_score;
    out->score = has_score ? best_score : 0;
    if (answer == best_move)
        set_pv(out, pv, pv_len);
    else
        set_pv(out, &answer, 1);
    out->nodes = ab->nodes;
    out->depth = done_depth;
    out->time_ms = deadline_elapsed_ms(&ab->clock);
}
