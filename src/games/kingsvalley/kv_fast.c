/*
 * kv_fast.c - perft's bulk counting and random playouts with direct calls.
 *
 * Both rest on counting moves without listing them: the men that can leave their square
 * in direction d are a shift and a mask, so the move count is eight popcounts. Perft
 * (game_perft) asks here for the last ply counted that way, or the last two ("bulk
 * counting"); a playout draws a uniform index into those counts and slides only the
 * chosen man. Soldiers whose slide would end on the
 * Valley are counted too: perft subtracts them, the playout redraws when it picks one
 * (rejection keeps the draw uniform over the legal moves). Perft uses the plain generator
 * where the trap rule or the first-move rule applies, or where a repetition is possible.
 * Under the trap rule a playout lists the candidates and tests the rule only on those it
 * draws (kv_random_legal), keeping the plans that worked from move to move.
 */
#include "core/seen_filter.h"
#include "games/kingsvalley/kv_internal.h"

/* The step of direction d on a board `size` wide, in the order of KvConfig.delta. With a
 * constant size the compiler turns every shift below into an immediate. */
static inline int step_of(int size, int d)
{
    static const int8_t dr[KV_DIRS] = {1, 1, 0, -1, -1, -1, 0, 1};
    static const int8_t df[KV_DIRS] = {0, 1, 1, 1, 0, -1, -1, -1};
    return dr[d] * size + df[d];
}

/* For each direction, the men of `own` that can take at least one step that way. */
static inline void movers_sized(const KvConfig *c, int size, uint64_t own, uint64_t empty,
                                uint64_t movers[KV_DIRS])
{
    for (int d = 0; d < KV_DIRS; d++) {
        const int delta = step_of(size, d);
        const uint64_t back = delta > 0 ? empty >> delta : empty << -delta;
        movers[d] = own & c->step_from[d] & back;
    }
}

static inline void movers_by_direction(const KvConfig *c, uint64_t own, uint64_t empty,
                                       uint64_t movers[KV_DIRS])
{
    if (c->size == 5)
        movers_sized(c, 5, own, empty, movers);
    else
        movers_sized(c, 7, own, empty, movers);
}

/* Soldier slides that would stop on the Valley (and so are not moves). The Valley is the
 * centre, so all its neighbours exist: a slide in direction d stops on it exactly when the
 * neighbour beyond it is occupied, and the man sliding is the first one met going back. */
static inline int valley_stops(const KvConfig *c, uint64_t own, int king, uint64_t occ)
{
    const uint64_t soldiers = own & ~(1ULL << king);
    int n = 0;
    for (int d = 0; d < KV_DIRS; d++) {
        if (!(occ & (1ULL << (c->valley + c->delta[d]))))
            continue;
        const int back = (d + 4) & 7;
        const uint64_t blockers = c->ray[back][c->valley] & occ;
        if (blockers == 0)
            continue;
        const int first = kv_first_blocker(c, back, blockers);
        n += (int)((soldiers >> first) & 1);
    }
    return n;
}

/* Legal moves of `p` with men men[], counted without generating them. The caller has
 * checked that the game goes on and that neither the trap rule nor the first ply's rule
 * applies. */
static inline uint64_t count_moves_raw(const KvConfig *c, const uint64_t men[2], int king, int p)
{
    const uint64_t occ = men[0] | men[1] | c->pillars;
    const uint64_t empty = c->on_board & ~occ;
    uint64_t movers[KV_DIRS];
    movers_by_direction(c, men[p], empty, movers);
    uint64_t n = 0;
    for (int d = 0; d < KV_DIRS; d++)
        n += (uint64_t)bits_count(movers[d]);
    return n - (uint64_t)valley_stops(c, men[p], king, occ);
}

/* Whether perft to `depth` must take the plain generator. A repetition only ends a
 * position below the first ply (the moves of a position are its moves whatever their
 * children repeat, and its own end is in its result already), and a third occurrence
 * needs at least eight plies since set-up. */
static bool needs_plain_path(const KvConfig *c, const KvState *s, int depth)
{
    return c->trap != KV_TRAP_OFF || (c->first_move_soldier && s->ply == 0) ||
           (depth >= 2 && s->hist.len + depth > 8);
}

static uint64_t count_moves(const KvConfig *c, const KvState *s)
{
    if (s->result != KV_PLAYING)
        return 0;
    if (needs_plain_path(c, s, 1)) {
        Move moves[KV_MAX_CELLS * KV_DIRS];
        return (uint64_t)kv_gen_legal(c, s, moves);
    }
    return count_moves_raw(c, s->men, s->king[s->turn], s->turn);
}

/* perft 2 without making moves: each child's result is decided here, as
 * kv_settle_result would, then its moves are counted. A move of ours changes the
 * opponent's step count only around its two squares: men next to `from` gain a step into
 * it, men next to `to` lose theirs; only the Valley stops need a fresh look. */
static uint64_t perft2(const KvConfig *c, KvState *s)
{
    Move moves[KV_MAX_CELLS * KV_DIRS];
    const int n = kv_gen_legal(c, s, moves);
    const int p = s->turn, q = 1 - p;
    if (s->ply + 1 >= c->max_plies)
        return 0;
    const uint64_t their = s->men[q];
    const int their_king = s->king[q];
    const uint64_t king_ring = c->neighbours[their_king];
    const uint64_t occ0 = kv_occupied(c, s);
    uint64_t movers[KV_DIRS];
    movers_by_direction(c, their, c->on_board & ~occ0, movers);
    int64_t base = 0;
    for (int d = 0; d < KV_DIRS; d++)
        base += bits_count(movers[d]);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        const int from = kv_from(moves[i]), to = kv_to(moves[i]);
        if (to == c->valley && from == s->king[p])
            continue;
        const uint64_t occ = occ0 ^ (1ULL << from) ^ (1ULL << to);
        if ((king_ring & ~occ) == 0) {
            if (c->locked_king_loses)
                continue;
            // Rare: count the long way.
            KvUndo u;
            kv_make(c, s, moves[i], &u);
            total += count_moves(c, s);
            kv_unmake(s, moves[i], &u);
            continue;
        }
        const int64_t steps = base + bits_count(c->neighbours[from] & their) -
                              bits_count(c->neighbours[to] & their);
        total += (uint64_t)(steps - valley_stops(c, their, their_king, occ));
    }
    return total;
}

bool kv_perft_leaves(const KvConfig *c, KvState *s, int depth, uint64_t *count)
{
    if (depth == 1) {
        *count = count_moves(c, s);
        return true;
    }
    if (depth != 2 || needs_plain_path(c, s, 2))
        return false;
    *count = s->result == KV_PLAYING ? perft2(c, s) : 0;
    return true;
}

/* Draws a uniform legal move by counting, for positions without the trap rule. */
static inline Move draw_move(const KvConfig *c, const KvState *s, Rng *rng, int size)
{
    const int p = s->turn;
    const int king = s->king[p];
    const uint64_t occ = kv_occupied(c, s);
    uint64_t own = s->men[p];
    if (c->first_move_soldier && s->ply == 0)
        own &= ~(1ULL << king);
    uint64_t movers[KV_DIRS];
    movers_sized(c, size, own, c->on_board & ~occ, movers);
    int first[KV_DIRS + 1]; // first[d]: index of direction d's first move
    first[0] = 0;
    for (int d = 0; d < KV_DIRS; d++)
        first[d + 1] = first[d] + bits_count(movers[d]);
    // The draw is a random index, so branches on it would mispredict half the time: the
    // direction and the man are found with fixed-length, branch-free loops instead.
    for (;;) {
        int r = (int)rng_below(rng, (uint32_t)first[KV_DIRS]);
        int d = 0;
        for (int k = 1; k < KV_DIRS; k++)
            d += r >= first[k];
        r -= first[d];
        uint64_t set = movers[d];
        for (int k = 0; k < KV_MAX_SIZE - 1; k++) {
            const uint64_t cleared = set & (set - 1);
            set = k < r ? cleared : set;
        }
        const int from = bits_lowest(set);
        const int to = kv_slide(c, from, d, occ);
        if (to != c->valley || from == king)
            return kv_move(from, to);
    }
}

/* kv_make without an undo record, settling the result with what a random move can do:
 * only the mover's king can have reached the Valley, only the opponent's king can be
 * locked at the start of his turn. The rare remainder goes to kv_settle_hinted. */
static inline void playout_make(const KvConfig *c, KvState *s, int from, int to, uint64_t hash,
                                bool may_repeat)
{
    const int p = s->turn, q = p ^ 1;
    const bool is_king = from == s->king[p];
    s->men[p] ^= (1ULL << from) | (1ULL << to);
    if (is_king)
        s->king[p] = (uint8_t)to;
    s->hash = hash;
    s->turn = (uint8_t)q;
    s->ply++;
    rep_history_push(&s->hist, s->history, hash);
    if (is_king && to == c->valley) {
        s->result = (uint8_t)(p == 0 ? KV_WIN_FIRST : KV_WIN_SECOND);
        s->reason = KV_REASON_VALLEY;
        return;
    }
    const bool locked = (c->neighbours[s->king[q]] & ~kv_occupied(c, s)) == 0;
    if (locked || may_repeat || s->ply >= c->max_plies)
        kv_settle_hinted(c, s, may_repeat);
}

Move kv_random_legal(const KvConfig *c, const KvState *s, Rng *rng, KvReachCache *cache,
                     Move *moves)
{
    const int n = kv_gen_pseudo(c, s, moves);
    if (c->trap == KV_TRAP_OFF)
        return moves[rng_below(rng, (uint32_t)n)];
    // Candidates drawn without replacement until one passes: the first that passes in a
    // uniformly random order is uniform over those that pass. When none does, the rule's
    // fallback makes every candidate legal.
    for (int left = n; left > 0; left--) {
        const int r = (int)rng_below(rng, (uint32_t)left);
        const Move m = moves[r];
        if (kv_trap_allows(c, s, m, cache))
            return m;
        moves[r] = moves[left - 1];
        moves[left - 1] = m;
    }
    return moves[rng_below(rng, (uint32_t)n)];
}

static inline void playout_sized(const KvConfig *c, KvState *s, Rng *rng, int size)
{
    Move moves[KV_MAX_CELLS * KV_DIRS];
    // The plans carry over from move to move; a table of reach results would not pay here,
    // as a random game seldom meets the same board twice.
    KvReachCache cache;
    kv_reach_cache_init(&cache, NULL, 0);
    SeenFilter seen;
    seen_clear(&seen);
    for (int i = 0; i < s->hist.len; i++)
        seen_add(&seen, s->history[i]);
    while (s->result == KV_PLAYING) {
        Move m;
        if (c->trap != KV_TRAP_OFF) {
            m = kv_random_legal(c, s, rng, &cache, moves);
        } else {
            m = draw_move(c, s, rng, size);
        }
        // The hash after m, to ask the filter before making it.
        const int p = s->turn, from = kv_from(m), to = kv_to(m), is_king = from == s->king[p];
        const uint64_t next = s->hash ^ c->zobrist[p][is_king][from] ^
                              c->zobrist[p][is_king][to] ^ c->zobrist_second_to_move;
        playout_make(c, s, from, to, next, seen_add(&seen, next));
    }
}

void kv_playout(const KvConfig *c, KvState *s, Rng *rng)
{
    if (c->size == 5)
        playout_sized(c, s, rng, 5);
    else
        playout_sized(c, s, rng, 7);
}
