/*
 * dfpn.c - depth-first proof-number search over GameOps.
 *
 * Soundness against cycles and the max-plies draw, the two ways a proof-number search
 * over a game graph goes wrong:
 *  - A position met again on the current path is a "no win" for the attacker (the
 *    defender can go round again until the game's repetition rule or its ply limit
 *    draws). Such a disproof depends on the path: it is propagated with the depth of the
 *    ancestor it met, and a disproof that leans on an ancestor above the node is never
 *    stored in the transposition table, only kept in the parent's child list.
 *  - Each entry records the depth from the root it was found at. A proof found with a
 *    given number of plies left holds with more plies left (the same strategy wins
 *    sooner than the limit), a disproof with fewer, so a proof is reused only at the
 *    same depth or shallower and a disproof only at the same depth or deeper.
 * The root's own result is never stored: games may treat ply 0 specially (King's
 * Valley's first-move-soldier rule), so a position equal to the root elsewhere in the
 * tree is not the same node.
 */
#include "solve/dfpn.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/game_api.h"
#include "core/mem.h"
#include "solve/dfpn_checkpoint.h"

typedef uint32_t Num;
enum { TT_WAYS = 4, NO_DEP = INT_MAX, BUDGET_EVERY = 1024, PATH_FILTER_BITS = 12 };
static const Num INF = UINT32_MAX;

/* The entry is the checkpoint's, so that a checkpoint is the table's used slots as they
 * are. */
typedef DfpnEntry TtEntry;

/* One ply of the current path: its moves and the children's numbers, kept here so that
 * a child whose result may not go into the table still counts for its parent. */
typedef struct Frame {
    MoveList moves;
    Num cpn[MOVELIST_CAP], cdn[MOVELIST_CAP];
    int cdep[MOVELIST_CAP];
    uint64_t hash;
    bool hashed; /* hash is counted in the path filter */
} Frame;

typedef struct Res {
    Num pn, dn;
    int dep;
} Res;

typedef struct Prover {
    const Game *g;
    GameState *s;
    int attacker;
    TtEntry *tt;
    uint64_t tt_mask; /* buckets - 1 */
    Frame **frames;
    void **undo;
    int frame_cap;
    /* How many frames hold a hash of each bucket (the hash's top bits). Every child's
     * look for a repetition of the path would scan the frames above it, which is most of
     * a leaf's cost on a long path; a bucket no frame holds rules the scan out. The
     * frames below the current depth keep stale hashes, which only cost a scan. */
    uint32_t path_count[1u << PATH_FILTER_BITS];
    MoveList scratch; /* the moves of a position met for the first time (fresh) */
    /* The game's memo where it tests legality lazily and keeps work between positions
     * (the 7x7 trap rule), else NULL: moves come from legal_moves either way. */
    void *legal_memo;
    const DfpnOptions *o;
    int64_t start_ms, deadline_ms, next_progress_ms;
    uint64_t nodes, node_limit;
    bool stop, nomem, interrupted;
    bool keep_proofs; /* writing the proof: the table keeps proofs before open entries */
    FILE *proof_out;  /* writing the proof: the file, for progress */
    /* Writing the proof: how much deeper on the path the search is than the depth its
     * table entries are read and stored at (see write_tree); 0 otherwise. */
    int tt_shift;
    uint64_t proof_base_nodes; /* the nodes when the writing began */
    const char *phase;
    Res root_now; /* the root's numbers when its children last changed, for progress */
    /* With a checkpoint (dfpn_value only): the question, the runs begun, the work of the
     * earlier sessions, and when to write next. */
    const char *ckpt_path;
    StrBuf question;
    DfpnCkptInfo runs;
    uint64_t base_nodes;
    double base_seconds;
    int64_t next_ckpt_ms;
    char ckpt_error[ERRBUF_LEN];
} Prover;

static Num add(Num a, Num b)
{
    const uint64_t s = (uint64_t)a + b;
    return s >= INF ? (a == INF || b == INF ? INF : INF - 1) : (Num)s;
}

/* A proof, a disproof and open numbers of one position live in separate slots: a later
 * visit at another depth, where a proof does not apply, must not wipe it out. */
static int kind(Num pn, Num dn)
{
    return pn == 0 ? 1 : dn == 0 ? 2 : 0;
}

/* Asks the memory for the bucket of `key` ahead of its lookup (both of its cache lines:
 * a bucket of 96 bytes starts anywhere within a line). */
static void tt_prefetch(const Prover *p, uint64_t key)
{
    const char *b = (const char *)&p->tt[(key & p->tt_mask) * TT_WAYS];
    __builtin_prefetch(b);
    __builtin_prefetch(b + TT_WAYS * sizeof(TtEntry) - 1);
}

/* The numbers of a position at `depth`: a proof or disproof the table holds that applies
 * there, else its open numbers; *found is false when the table knows nothing of it. */
static Res tt_lookup(Prover *p, uint64_t key, int depth, bool *found)
{
    Res r = {1, 1, NO_DEP};
    *found = false;
    const TtEntry *b = &p->tt[(key & p->tt_mask) * TT_WAYS];
    for (int i = 0; i < TT_WAYS; i++) {
        const TtEntry *e = &b[i];
        if (e->key != key || e->work == 0)
            continue;
        const int k = kind(e->pn, e->dn);
        if ((k == 1 && depth <= e->depth) || (k == 2 && depth >= e->depth)) {
            *found = true;
            return (Res){e->pn, e->dn, NO_DEP};
        }
        if (k == 0) {
            r.pn = e->pn;
            r.dn = e->dn;
            *found = true;
        }
    }
    return r;
}

/* Whether a is the better entry to give up than b: the one of less work, but while the
 * proof is being written any open entry before a proof, since the writer would have to
 * search a lost proof again and its searches must not push out the proofs it reads. */
static bool evict_before(const Prover *p, const TtEntry *a, const TtEntry *b)
{
    if (p->keep_proofs) {
        const bool a_proof = a->work != 0 && a->pn == 0, b_proof = b->work != 0 && b->pn == 0;
        if (a_proof != b_proof)
            return b_proof;
    }
    return a->work < b->work;
}

static void tt_store(Prover *p, uint64_t key, int depth, Res r, uint64_t work)
{
    TtEntry *b = &p->tt[(key & p->tt_mask) * TT_WAYS];
    const int k = kind(r.pn, r.dn);
    TtEntry *e = NULL;
    for (int i = 0; i < TT_WAYS && !e; i++)
        if (b[i].key == key && b[i].work != 0 && kind(b[i].pn, b[i].dn) == k)
            e = &b[i];
    if (!e) {
        e = &b[0];
        for (int i = 1; i < TT_WAYS; i++)
            if (evict_before(p, &b[i], e))
                e = &b[i];
    }
    e->key = key;
    e->pn = r.pn;
    e->dn = r.dn;
    e->depth = depth;
    e->work = work >= UINT32_MAX ? UINT32_MAX : work == 0 ? 1 : (uint32_t)work;
}

/* The frame of `depth`, made on first use: the search allocates only when it goes
 * deeper than ever before. */
static Frame *frame_at(Prover *p, int depth)
{
    if (depth >= p->frame_cap) {
        const int cap = p->frame_cap ? p->frame_cap * 2 : 64;
        Frame **f = realloc(p->frames, (size_t)cap * sizeof *f);
        void **u = f ? realloc(p->undo, (size_t)cap * sizeof *u) : NULL;
        if (f)
            p->frames = f;
        if (!u) {
            p->nomem = p->stop = true;
            return NULL;
        }
        p->undo = u;
        for (int i = p->frame_cap; i < cap; i++)
            p->frames[i] = NULL, p->undo[i] = NULL;
        p->frame_cap = cap;
    }
    if (!p->frames[depth]) {
        p->frames[depth] = malloc(sizeof(Frame));
        if (p->frames[depth])
            p->frames[depth]->hashed = false;
        p->undo[depth] = game_undo_new(p->g);
        if (!p->frames[depth] || !p->undo[depth]) {
            p->nomem = p->stop = true;
            return NULL;
        }
    }
    return p->frames[depth];
}

static unsigned path_bucket(uint64_t hash)
{
    return (unsigned)(hash >> (64 - PATH_FILTER_BITS));
}

/* Makes the prover's position the one of frame f on the path. */
static void frame_enter(Prover *p, Frame *f)
{
    if (f->hashed)
        p->path_count[path_bucket(f->hash)]--;
    f->hash = p->g->ops->hash(p->g, p->s);
    f->hashed = true;
    p->path_count[path_bucket(f->hash)]++;
}

static double total_seconds(const Prover *p, int64_t now)
{
    return p->base_seconds + (double)(now - p->start_ms) / 1000.0;
}

/* Writes the table and where the runs stand; a failure is kept for the caller and told
 * on the progress stream, and the search goes on: the next write may succeed, and the
 * proof itself does not depend on it. */
static void write_checkpoint(Prover *p)
{
    const int64_t t0 = clock_ms();
    p->runs.nodes = p->base_nodes + p->nodes;
    p->runs.seconds = total_seconds(p, t0);
    uint64_t bytes = 0;
    ErrBuf err;
    const Status st = dfpn_ckpt_write(p->ckpt_path, sb_str(&p->question), &p->runs, p->tt,
                                      (p->tt_mask + 1) * TT_WAYS, &bytes, &err);
    if (st != STATUS_OK)
        snprintf(p->ckpt_error, sizeof p->ckpt_error, "%s", err.msg);
    else
        p->ckpt_error[0] = '\0';
    if (p->o->progress) {
        if (st == STATUS_OK)
            fprintf(p->o->progress, "prove: checkpoint written to %s, %.1f MB in %.1f s\n",
                    p->ckpt_path, (double)bytes / 1e6, (double)(clock_ms() - t0) / 1000.0);
        else
            fprintf(p->o->progress, "prove: checkpoint not written: %s\n", err.msg);
        fflush(p->o->progress);
    }
    const double every = p->o->checkpoint_seconds > 0 ? p->o->checkpoint_seconds : 300;
    p->next_ckpt_ms = clock_ms() + (int64_t)(every * 1000.0);
}

static void check_budget(Prover *p)
{
    if (p->node_limit && p->nodes >= p->node_limit)
        p->stop = true;
    if (p->nodes % BUDGET_EVERY != 0)
        return;
    if (p->o->interrupted && p->o->interrupted(p->o->interrupt_ctx))
        p->stop = p->interrupted = true;
    const int64_t now = clock_ms();
    if (p->deadline_ms && now >= p->deadline_ms)
        p->stop = true;
    if (p->o->progress && now >= p->next_progress_ms) {
        const double sec = (double)(now - p->start_ms) / 1000.0;
        if (p->proof_out)
            fprintf(p->o->progress, "prove: writing the proof, %.1f MB written, %llu nodes "
                    "searched again, %.0f s\n", (double)ftell(p->proof_out) / 1e6,
                    (unsigned long long)(p->nodes - p->proof_base_nodes), total_seconds(p, now));
        else
            fprintf(p->o->progress, "prove: %s, %llu nodes, %.0f s, %.0f nodes/s, root %u / %u\n",
                    p->phase, (unsigned long long)(p->base_nodes + p->nodes),
                    total_seconds(p, now), sec > 0 ? (double)p->nodes / sec : 0.0,
                    p->root_now.pn, p->root_now.dn);
        fflush(p->o->progress);
        p->next_progress_ms = now + (int64_t)(p->o->progress_seconds * 1000.0);
    }
    // Not when stopping: the caller writes once the search has unwound and stored more.
    if (p->ckpt_path && !p->stop && now >= p->next_ckpt_ms)
        write_checkpoint(p);
}

/* The legal moves of the prover's position in gen_moves order: where the game has a
 * memo for lazy legality (King's Valley 7x7's trap rule, whose reach searches it keeps),
 * the candidates that pass, or the game's own answer when none does, as game.h asks. */
static int legal_moves(Prover *p, MoveList *out)
{
    const GameOps *ops = p->g->ops;
    if (p->legal_memo == NULL)
        return ops->gen_moves(p->g, p->s, out);
    const int n = ops->gen_candidates(p->g, p->s, out);
    int kept = 0;
    for (int i = 0; i < n; i++)
        if (ops->candidate_legal(p->g, p->s, out->moves[i], p->legal_memo))
            out->moves[kept++] = out->moves[i];
    if (kept == 0 && n > 0)
        return ops->gen_moves(p->g, p->s, out);
    out->count = kept;
    return kept;
}

/* The numbers of a position that the search meets for the first time: its mover's
 * number of moves. One good move proves an OR node, but each of an AND node's replies
 * must be answered (the mobility initialisation of df-pn+), so the search goes first
 * where the defender has few moves. Counted by the game's bulk perft where it has one,
 * which does not list the moves. Against the plain 1 and 1, on 90 King's Valley
 * positions of `crown prove --check 90`: 8.2M nodes instead of 29.5M, 22.7 s instead of
 * 35.0 s. (A one-ply win check on top, making every move of the leaf, cut the nodes to
 * 7.6M but cost 60 s.) */
static Res fresh(Prover *p)
{
    const Game *g = p->g;
    uint64_t leaves = 0;
    // The count only orders the search, so where legality is lazy and costly the
    // candidates stand in for the moves: the trap rule's reach tests of every reply of
    // every child made 7x7's nodes cost a hundred times Labyrinth's.
    if (p->legal_memo)
        leaves = (uint64_t)g->ops->gen_candidates(g, p->s, &p->scratch);
    else if (!g->ops->perft_leaves || !g->ops->perft_leaves(g, p->s, 1, &leaves))
        leaves = (uint64_t)g->ops->gen_moves(g, p->s, &p->scratch);
    const Num k = leaves > 1 ? (Num)leaves : 1; // at most MOVELIST_CAP
    return g->ops->to_move(g, p->s) == p->attacker ? (Res){1, k, NO_DEP} : (Res){k, 1, NO_DEP};
}

/* The depth of the nearest position on the path above `depth` with hash h, or -1. */
static int path_ancestor(const Prover *p, int depth, uint64_t h)
{
    if (p->path_count[path_bucket(h)] != 0)
        for (int j = depth - 1; j >= 0; j--)
            if (p->frames[j]->hash == h)
                return j;
    return -1;
}

/* Whether the finished game of the prover's state is the attacker's win. */
static bool attacker_won(const Prover *p)
{
    double ret[MAX_PLAYERS];
    p->g->ops->returns(p->g, p->s, ret);
    return ret[p->attacker] > 0;
}

/* What is known of the position just reached at `depth`: a finished game, a repetition
 * of the path (its dep the ancestor met), or what the table holds; *found is false when
 * none of these says anything. */
static Res leaf_known(Prover *p, int depth, bool *found)
{
    const Game *g = p->g;
    *found = true;
    if (game_is_over(g, p->s))
        return attacker_won(p) ? (Res){0, INF, NO_DEP} : (Res){INF, 0, NO_DEP};
    const uint64_t h = g->ops->hash(g, p->s);
    const int ancestor = path_ancestor(p, depth, h);
    if (ancestor >= 0)
        return (Res){INF, 0, ancestor};
    return tt_lookup(p, h, depth - p->tt_shift, found);
}

/* The numbers of the position just reached at `depth` without expanding it: what is
 * known of it, or a first count (fresh). */
static Res leaf(Prover *p, int depth)
{
    bool found;
    const Res r = leaf_known(p, depth, &found);
    return found ? r : fresh(p);
}

static Res combine(const Frame *f, int n, bool or_node, bool weak, int *best, Num *second)
{
    Res r = {or_node ? INF : 0, or_node ? 0 : INF, NO_DEP};
    *best = 0;
    *second = INF;
    int dep_all = NO_DEP, dep_one = -1;
    Num largest = 0; // weak: the largest open child's number that is summed, and their count
    Num open = 0;
    for (int i = 0; i < n; i++) {
        const Num mine = or_node ? f->cpn[i] : f->cdn[i];
        const Num other = or_node ? f->cdn[i] : f->cpn[i];
        if (mine < (or_node ? r.pn : r.dn)) {
            *second = or_node ? r.pn : r.dn;
            *best = i;
            if (or_node)
                r.pn = mine;
            else
                r.dn = mine;
        } else if (mine < *second) {
            *second = mine;
        }
        if (or_node)
            r.dn = add(r.dn, other);
        else
            r.pn = add(r.pn, other);
        if (other != 0 && other != INF) {
            open++;
            largest = other > largest ? other : largest;
        }
        if (f->cdep[i] < dep_all)
            dep_all = f->cdep[i];
        // A disproved child of an AND node: the least path-bound one decides.
        if (!or_node && f->cdn[i] == 0 && f->cdep[i] > dep_one)
            dep_one = f->cdep[i];
    }
    // A solved child (0 or INF in the sum) decides as it does in the sum.
    Num *summed = or_node ? &r.dn : &r.pn;
    if (weak && open > 0 && *summed != INF)
        *summed = add(largest, open - 1);
    if (or_node && r.dn == 0)
        r.dep = dep_all;
    if (!or_node && r.dn == 0)
        r.dep = dep_one;
    return r;
}

static Res mid(Prover *p, int depth, Num thpn, Num thdn)
{
    const Game *g = p->g;
    const uint64_t nodes0 = p->nodes++;
    check_budget(p);
    Frame *f = frame_at(p, depth);
    if (!f || !frame_at(p, depth + 1))
        return (Res){1, 1, NO_DEP};
    frame_enter(p, f);
    const bool or_node = g->ops->to_move(g, p->s) == p->attacker;
    const int n = legal_moves(p, &f->moves);
    void *undo = p->undo[depth];
    // Every child's bucket is asked for before any is read: in a table of gigabytes each
    // lookup misses the caches, and one after the other they took most of a node's time
    // (62 % in Labyrinth); a make and unmake more cost far less than a miss.
    for (int i = 0; i < n; i++) {
        g->ops->make(g, p->s, f->moves.moves[i], undo);
        tt_prefetch(p, g->ops->hash(g, p->s));
        g->ops->unmake(g, p->s, f->moves.moves[i], undo);
    }
    for (int i = 0; i < n; i++) {
        g->ops->make(g, p->s, f->moves.moves[i], undo);
        const Res c = leaf(p, depth + 1);
        g->ops->unmake(g, p->s, f->moves.moves[i], undo);
        f->cpn[i] = c.pn;
        f->cdn[i] = c.dn;
        f->cdep[i] = c.dep;
    }
    Res r;
    for (;;) {
        int best;
        Num second;
        r = combine(f, n, or_node, p->o->weak, &best, &second);
        if (depth == 0)
            p->root_now = r;
        if (r.pn >= thpn || r.dn >= thdn || r.pn == 0 || r.dn == 0 || p->stop)
            break;
        // 1+epsilon: stay in the best child until it is clearly worse than the second.
        const Num eps2 = add(second, second / 4 + 1);
        Num cthpn, cthdn;
        if (or_node) {
            cthpn = thpn < eps2 ? thpn : eps2;
            cthdn = thdn == INF ? INF : add(thdn - r.dn, f->cdn[best]);
        } else {
            cthdn = thdn < eps2 ? thdn : eps2;
            cthpn = thpn == INF ? INF : add(thpn - r.pn, f->cpn[best]);
        }
        const Move m = f->moves.moves[best];
        g->ops->make(g, p->s, m, undo);
        Res c = leaf(p, depth + 1);
        if (c.pn != 0 && c.dn != 0)
            c = mid(p, depth + 1, cthpn, cthdn);
        g->ops->unmake(g, p->s, m, undo);
        f->cpn[best] = c.pn;
        f->cdn[best] = c.dn;
        f->cdep[best] = c.dep;
    }
    // A dependence on this node itself or below is no dependence on the path above it.
    if (r.dep >= depth)
        r.dep = NO_DEP;
    if (depth > 0 && r.dep == NO_DEP)
        tt_store(p, f->hash, depth - p->tt_shift, r, p->nodes - nodes0);
    return r;
}

static Status prover_init(Prover *p, const Game *g, const GameState *s, const DfpnOptions *o,
                          ErrBuf *err)
{
    memset(p, 0, sizeof *p);
    sb_init(&p->question);
    if (g->players != 2 || !(g->ops->flags & GAME_PERFECT_INFO) ||
        (g->ops->flags & GAME_HAS_CHANCE))
        return err_set(err, STATUS_UNSUPPORTED,
                       "%s: the prover needs two players, perfect information and no chance",
                       g->ops->name);
    if (game_is_over(g, s))
        return err_set(err, STATUS_CONFLICT, "the game is already over in this position");
    uint64_t bytes = o->tt_bytes < (1u << 20) ? (1u << 20) : o->tt_bytes;
    uint64_t buckets = 1;
    while (buckets * 2 * TT_WAYS * sizeof(TtEntry) <= bytes)
        buckets *= 2;
    // Every node reads its children's buckets at random over the whole table: a large one
    // goes on huge pages. A small one (a position of `crown prove --check`) stays in the
    // caches, and calloc leaves the pages a short proof never touches unmade.
    const size_t tt_size = buckets * TT_WAYS * sizeof(TtEntry);
    p->tt = tt_size < (64u << 20) ? calloc(1, tt_size) : mem_huge_alloc(tt_size);
    if (p->tt && tt_size >= (64u << 20))
        memset(p->tt, 0, tt_size);
    p->s = game_state_clone(g, s);
    const bool lazy = g->ops->gen_candidates && g->ops->candidate_legal && g->legal_memo_size > 0;
    if (lazy)
        p->legal_memo = calloc(1, g->legal_memo_size);
    if (!p->tt || !p->s || (lazy && !p->legal_memo)) {
        free(p->tt);
        free(p->s);
        free(p->legal_memo);
        return err_set(err, STATUS_NOMEM, "no memory for a table of %llu bytes",
                       (unsigned long long)bytes);
    }
    p->tt_mask = buckets - 1;
    p->g = g;
    p->o = o;
    p->start_ms = clock_ms();
    p->deadline_ms = o->seconds > 0 ? p->start_ms + (int64_t)(o->seconds * 1000.0) : 0;
    p->next_progress_ms = p->start_ms + (int64_t)(o->progress_seconds * 1000.0);
    p->node_limit = o->max_nodes;
    p->next_ckpt_ms = p->start_ms + (int64_t)((o->checkpoint_seconds > 0 ? o->checkpoint_seconds
                                                                          : 300) * 1000.0);
    return STATUS_OK;
}

static void prover_free(Prover *p)
{
    for (int i = 0; i < p->frame_cap; i++) {
        free(p->frames[i]);
        free(p->undo[i]);
    }
    free(p->frames);
    free(p->undo);
    free(p->tt);
    free(p->s);
    free(p->legal_memo);
    sb_free(&p->question);
}

/* Runs "attacker wins?", the k-th run of the answer, from the prover's state to a
 * decision or the budget; with `keep`, from the table as it is (a checkpoint's). */
static Res run(Prover *p, int k, int attacker, bool keep)
{
    p->attacker = attacker;
    if (!keep)
        memset(p->tt, 0, (p->tt_mask + 1) * TT_WAYS * sizeof(TtEntry));
    p->runs.n_runs = k + 1;
    p->runs.runs[k] = (DfpnCkptRun){attacker, 1, 1};
    Res r = {1, 1, NO_DEP};
    while (!p->stop && r.pn != 0 && r.dn != 0) {
        r = mid(p, 0, INF, INF);
        p->runs.runs[k].pn = r.pn;
        p->runs.runs[k].dn = r.dn;
    }
    return r;
}

static void note(DfpnStats *st, int player, Res r)
{
    st->pn[player] = r.pn;
    st->dn[player] = r.dn;
    st->decided[player] = r.pn == 0 || r.dn == 0;
    st->won[player] = r.pn == 0;
}

static void load_entry(void *ctx, const DfpnEntry *e)
{
    Prover *p = ctx;
    tt_store(p, e->key, e->depth, (Res){e->pn, e->dn, NO_DEP}, e->work);
}

/* Takes up the checkpoint at o->checkpoint when there is one: its table, its runs (into
 * p->runs, checked against the order dfpn_value runs them in) and its totals. */
static Status resume(Prover *p, const Game *g, const GameState *s, bool *resumed, ErrBuf *err)
{
    *resumed = false;
    dfpn_ckpt_question(g, s, &p->question);
    if (p->o->weak)
        sb_printf(&p->question, "numbers weak\n");
    if (sb_failed(&p->question))
        return err_set(err, STATUS_NOMEM, "no memory for the checkpoint's question");
    DfpnCkptInfo info;
    const Status st = dfpn_ckpt_read(p->ckpt_path, sb_str(&p->question), &info, load_entry, p,
                                     err);
    if (st == STATUS_NOT_FOUND)
        return STATUS_OK;
    if (st != STATUS_OK)
        return st;
    const int mover = g->ops->to_move(g, s);
    const DfpnCkptRun *r = info.runs;
    if (r[0].attacker != mover || (info.n_runs == 2 && (r[0].dn != 0 || r[1].attacker == mover)))
        return err_set(err, STATUS_CORRUPT, "%s is damaged: its runs are not in the order "
                       "the prover runs them", p->ckpt_path);
    p->runs = info;
    p->base_nodes = info.nodes;
    p->base_seconds = info.seconds;
    *resumed = true;
    if (p->o->progress) {
        fprintf(p->o->progress, "prove: resumed from %s: %llu entries, %llu nodes and %.0f s "
                "spent before\n", p->ckpt_path, (unsigned long long)info.entries,
                (unsigned long long)info.nodes, info.seconds);
        fflush(p->o->progress);
    }
    return STATUS_OK;
}

/* Run k of the answer: taken from the checkpoint when it decided it there, continued
 * from its table when it was the run in progress, else searched afresh. */
static Res answer_run(Prover *p, int k, int attacker, const DfpnCkptInfo *loaded)
{
    if (k < loaded->n_runs) {
        const DfpnCkptRun lr = loaded->runs[k];
        if (lr.pn == 0 || lr.dn == 0) {
            p->runs.n_runs = k + 1;
            return (Res){lr.pn, lr.dn, NO_DEP};
        }
    }
    return run(p, k, attacker, k == loaded->n_runs - 1);
}

/* The most-proving line of the last run, read from the table: at the attacker's nodes
 * the child of least proof number, at the defender's the child of least disproof
 * number (the path the search would take next). It ends where no child is known to the
 * table, at a finished game, on a repetition of the line (which the prover counts as no
 * win), or at `cap` plies; the state is the root again after. */
static int principal_line(Prover *p, Move *line, int cap)
{
    const Game *g = p->g;
    int depth = 0;
    while (depth < cap && !game_is_over(g, p->s)) {
        Frame *f = frame_at(p, depth);
        if (!f || !frame_at(p, depth + 1))
            break;
        frame_enter(p, f);
        const bool or_node = g->ops->to_move(g, p->s) == p->attacker;
        const int n = legal_moves(p, &f->moves);
        int best = -1;
        Num best_num = INF;
        bool best_repeats = false;
        for (int i = 0; i < n; i++) {
            g->ops->make(g, p->s, f->moves.moves[i], p->undo[depth]);
            bool found;
            const Res r = leaf_known(p, depth + 1, &found);
            const bool repeats = r.dep != NO_DEP;
            g->ops->unmake(g, p->s, f->moves.moves[i], p->undo[depth]);
            const Num num = or_node ? r.pn : r.dn;
            if (found && (best < 0 || num < best_num)) {
                best = i;
                best_num = num;
                best_repeats = repeats;
            }
        }
        if (best < 0)
            break;
        line[depth] = f->moves.moves[best];
        g->ops->make(g, p->s, line[depth], p->undo[depth]);
        depth++;
        if (best_repeats)
            break; // the defender goes round: the line ends on the repetition
    }
    for (int d = depth - 1; d >= 0; d--)
        g->ops->unmake(g, p->s, line[d], p->undo[d]);
    return depth;
}

/* Proves the node at `depth` on the path (the prover's state) by a new search, its
 * table read and written as for a node of depth `at` (see write_tree); false when it is
 * no win there or the search cannot tell (budget, memory). */
static bool search_here(Prover *p, int depth, int at)
{
    if (game_is_over(p->g, p->s))
        return attacker_won(p);
    p->tt_shift = depth - at;
    Res r = {1, 1, NO_DEP};
    while (!p->stop && r.pn != 0 && r.dn != 0)
        r = mid(p, depth, INF, INF);
    p->tt_shift = 0;
    return r.pn == 0;
}

typedef enum TreeResult { TREE_WRITTEN, TREE_FAILED, TREE_STOPPED } TreeResult;

/* The work of the least costly proof the table holds of the position just reached, at
 * `depth` on the path, read as a node of depth `at`: 0 for a finished game won,
 * UINT64_MAX for none (also for a repetition of the path, which the writer avoids). */
static uint64_t proof_work(Prover *p, int depth, int at)
{
    const Game *g = p->g;
    if (game_is_over(g, p->s))
        return attacker_won(p) ? 0 : UINT64_MAX;
    const uint64_t h = g->ops->hash(g, p->s);
    if (path_ancestor(p, depth, h) >= 0)
        return UINT64_MAX;
    uint64_t least = UINT64_MAX;
    const TtEntry *b = &p->tt[(h & p->tt_mask) * TT_WAYS];
    for (int i = 0; i < TT_WAYS; i++)
        if (b[i].key == h && b[i].work != 0 && b[i].pn == 0 && at <= b[i].depth &&
            b[i].work < least)
            least = b[i].work;
    return least;
}

static TreeResult write_tree(Prover *p, int depth, int at, FILE *out, StrBuf *sb);

/* Writes "WORD m" and the tree below m (of depth `at`), from the position before m at
 * `depth`. A failed tree is taken back: the file goes back to where the line began, and
 * what follows overwrites it (write_strategy cuts the file at its end). */
static TreeResult write_move(Prover *p, int depth, int at, Move m, const char *word,
                             FILE *out, StrBuf *sb)
{
    const Game *g = p->g;
    const long start = ftell(out);
    sb_clear(sb);
    g->ops->format_move(g, p->s, m, sb);
    fprintf(out, "%s %s\n", word, sb_str(sb));
    g->ops->make(g, p->s, m, p->undo[depth]);
    const TreeResult r = write_tree(p, depth + 1, at, out, sb);
    g->ops->unmake(g, p->s, m, p->undo[depth]);
    if (r == TREE_FAILED && fseek(out, start, SEEK_SET) != 0)
        return TREE_STOPPED;
    return r;
}

/* Proves the child m of the node at `depth` by a new search, read as a node of depth
 * `at`; TREE_FAILED when it is no win there. */
static TreeResult prove_child(Prover *p, int depth, int at, Move m)
{
    p->g->ops->make(p->g, p->s, m, p->undo[depth]);
    const bool ok = search_here(p, depth + 1, at);
    p->g->ops->unmake(p->g, p->s, m, p->undo[depth]);
    return ok ? TREE_WRITTEN : p->stop ? TREE_STOPPED : TREE_FAILED;
}

/* The defender's node at `depth`, read as one of depth `at`: every move, each answered
 * by the tree below it, proved again where the table does not hold its proof. */
static TreeResult write_replies(Prover *p, int depth, int at, Frame *f, int n, FILE *out,
                                StrBuf *sb)
{
    for (int i = 0; i < n; i++) {
        const Move m = f->moves.moves[i];
        TreeResult r = write_move(p, depth, at + 1, m, "reply", out, sb);
        for (int real = 0; real < 2 && r == TREE_FAILED; real++) {
            const int child_at = real ? depth + 1 : at + 1;
            if (real && at == depth)
                break;
            if ((r = prove_child(p, depth, child_at, m)) == TREE_WRITTEN)
                r = write_move(p, depth, child_at, m, "reply", out, sb);
        }
        if (r != TREE_WRITTEN)
            return r;
        f = p->frames[depth]; // frame_at may have moved the array, never the frame
    }
    return TREE_WRITTEN;
}

/* The attacker's node at `depth`, read as one of depth `at`: the children the table
 * proves for that depth, the least costly proof first (the smaller tree); else the node
 * proved again at `at` and then at its real depth (df-pn picks the child, not the order
 * of the moves); last, should the table have lost those proofs too, each child proved
 * again in turn. */
static TreeResult write_play(Prover *p, int depth, int at, Frame *f, int n, FILE *out,
                             StrBuf *sb)
{
    const Game *g = p->g;
    uint64_t work[MOVELIST_CAP];
    for (int tier = 0; tier < 3; tier++) {
        const int node_at = tier == 2 ? depth : at;
        if (tier == 2 && at == depth)
            break;
        if (tier > 0 && !search_here(p, depth, node_at)) {
            if (p->stop)
                return TREE_STOPPED;
            continue;
        }
        f = p->frames[depth]; // frame_at may have moved the array, never the frame
        for (int i = 0; i < n; i++) {
            g->ops->make(g, p->s, f->moves.moves[i], p->undo[depth]);
            work[i] = proof_work(p, depth + 1, node_at + 1);
            g->ops->unmake(g, p->s, f->moves.moves[i], p->undo[depth]);
        }
        for (;;) {
            int best = -1;
            for (int i = 0; i < n; i++)
                if (work[i] != UINT64_MAX && (best < 0 || work[i] < work[best]))
                    best = i;
            if (best < 0)
                break;
            work[best] = UINT64_MAX;
            const TreeResult r = write_move(p, depth, node_at + 1, f->moves.moves[best], "play",
                                            out, sb);
            if (r != TREE_FAILED)
                return r;
            f = p->frames[depth];
        }
    }
    for (int i = 0; i < n; i++) {
        const Move m = f->moves.moves[i];
        TreeResult r = prove_child(p, depth, depth + 1, m);
        if (r == TREE_WRITTEN)
            r = write_move(p, depth, depth + 1, m, "play", out, sb);
        if (r != TREE_FAILED)
            return r;
        f = p->frames[depth];
    }
    return TREE_FAILED;
}

/* Writes the strategy below the node at `depth` on the path (see proof_check.h): at the
 * attacker's nodes one move, at the defender's every move in gen_moves order.
 *
 * It follows the search's own proof. The table's entries hold at the depth they were
 * found at or shallower, and a position the search proved by one line may be met here
 * by a longer one, where its proof would not hold by its depth and the whole tree below
 * would be searched again. So the node is read as one of depth `at` (at most `depth`):
 * the depth of the proof followed, one more at each ply. That leaves more plies to the
 * turn limit than the real depth does, so the writer walks every line to its end and
 * checks the win itself; where a line fails, or the table lost a proof, it proves the
 * node again, at `at` and then at its real depth. TREE_FAILED: the attacker does not win
 * from here by what the writer found. */
static TreeResult write_tree(Prover *p, int depth, int at, FILE *out, StrBuf *sb)
{
    const Game *g = p->g;
    if (game_is_over(g, p->s))
        return attacker_won(p) ? TREE_WRITTEN : TREE_FAILED;
    Frame *f = frame_at(p, depth);
    if (!f || !frame_at(p, depth + 1))
        return TREE_STOPPED;
    frame_enter(p, f);
    const int n = legal_moves(p, &f->moves);
    return g->ops->to_move(g, p->s) == p->attacker ? write_play(p, depth, at, f, n, out, sb)
                                                   : write_replies(p, depth, at, f, n, out, sb);
}

/* Writes the proof file of "p->attacker wins from the prover's state" (proven already)
 * from the table as the search left it: the header and the tree. *written is false when
 * the budget, a signal or memory ran out (STATUS_OK then, or STATUS_NOMEM), or with an
 * error when the file could not be written or the proof could not be found again. */
static Status write_strategy(Prover *p, FILE *out, bool *written, ErrBuf *err)
{
    const Game *g = p->g;
    *written = false;
    StrBuf sb;
    sb_init(&sb);
    fprintf(out, "crown-proof 1\ngame %s\n", g->ops->name);
    for (int i = 0; i < g->ops->option_count; i++)
        fprintf(out, "rule %s=%s\n", g->ops->options[i].name, g->values[i]);
    g->ops->format_position(g, p->s, &sb);
    fprintf(out, "position %s\nwinner %d\n", sb_str(&sb), p->attacker);
    p->proof_out = out;
    p->proof_base_nodes = p->nodes;
    p->keep_proofs = true;
    const TreeResult r = write_tree(p, 0, 0, out, &sb);
    p->keep_proofs = false;
    p->proof_out = NULL;
    fprintf(out, "end\n");
    sb_free(&sb);
    if (p->nomem)
        return err_set(err, STATUS_NOMEM, "out of memory in the search");
    if (r == TREE_FAILED)
        return err_set(err, STATUS_CONFLICT, "internal error: a proven node lost its proof");
    // A tree taken back may have left longer text beyond the end.
    if (fflush(out) != 0 || ferror(out) || ftruncate(fileno(out), ftell(out)) != 0)
        return err_set(err, STATUS_IO, "cannot write the proof file");
    *written = r == TREE_WRITTEN;
    return STATUS_OK;
}

Status dfpn_value(const Game *g, const GameState *s, const DfpnOptions *o, DfpnValue *value,
                  DfpnStats *stats, ErrBuf *err)
{
    // Before hours of search, not after: the writer takes back failed lines by seeking.
    if (o->proof && ftell(o->proof) < 0)
        return err_set(err, STATUS_IO, "the proof needs a file it can seek in, not a pipe");
    Prover p;
    Status st = prover_init(&p, g, s, o, err);
    if (st != STATUS_OK)
        return st;
    memset(stats, 0, sizeof *stats);
    *value = DFPN_UNKNOWN;
    p.ckpt_path = o->checkpoint;
    bool resumed = false;
    if (p.ckpt_path && (st = resume(&p, g, s, &resumed, err)) != STATUS_OK) {
        prover_free(&p);
        return st;
    }
    const DfpnCkptInfo loaded = p.runs;
    const int mover = g->ops->to_move(g, s);
    p.phase = "does the player to move win";
    const Res a = answer_run(&p, 0, mover, &loaded);
    note(stats, mover, a);
    if (a.pn == 0) {
        *value = DFPN_WIN;
    } else if (!p.stop) {
        p.phase = "does the opponent win";
        const Res b = answer_run(&p, 1, 1 - mover, &loaded);
        note(stats, 1 - mover, b);
        if (b.pn == 0)
            *value = DFPN_LOSS;
        else if (b.dn == 0)
            *value = DFPN_DRAW;
    }
    if (*value == DFPN_UNKNOWN && !p.nomem) {
        stats->line_attacker = p.attacker;
        stats->line_len = principal_line(&p, stats->line, DFPN_LINE_MAX);
    }
    // Once more at the end, budget or answer: a decided checkpoint answers at once.
    if (p.ckpt_path && !p.nomem && (p.nodes > 0 || !resumed))
        write_checkpoint(&p);
    stats->nodes = p.base_nodes + p.nodes;
    stats->seconds = total_seconds(&p, clock_ms());
    Status written_st = STATUS_OK;
    if (o->proof && (*value == DFPN_WIN || *value == DFPN_LOSS) && !p.nomem) {
        // The table holds the deciding run's proof; the checkpoint keeps it as it was.
        p.ckpt_path = NULL;
        p.attacker = *value == DFPN_WIN ? mover : 1 - mover;
        written_st = write_strategy(&p, o->proof, &stats->proof_written, err);
        stats->proof_nodes = p.nodes - p.proof_base_nodes;
    }
    stats->resumed = resumed;
    stats->resumed_nodes = p.base_nodes;
    stats->interrupted = p.interrupted;
    snprintf(stats->checkpoint_error, sizeof stats->checkpoint_error, "%s", p.ckpt_error);
    st = written_st != STATUS_OK ? written_st
         : p.nomem ? err_set(err, STATUS_NOMEM, "out of memory in the search")
                   : STATUS_OK;
    prover_free(&p);
    return st;
}
