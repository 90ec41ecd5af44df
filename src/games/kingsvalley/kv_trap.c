/*
 * kv_trap.c - the trap-prevention rule of the 7x7 fan variant.
 *
 * A move is legal only if afterwards each king concerned could still reach the Valley
 * within four of its owner's moves with the other side frozen (RULINGS 1.2 item 7 and
 * 1.3). The hypothetical play ignores every end-of-game test and the first-move rule.
 * A move that puts the mover's own king on the Valley is exempt, and if the filter would
 * leave no move at all it is suspended for that turn.
 */
#include "games/kingsvalley/kv_internal.h"

enum { KV_TRAP_DEPTH = 4 };

static bool plan_push(KvPlan *plan, int from, int dir)
{
    plan->from[plan->count] = (uint8_t)from;
    plan->dir[plan->count] = (uint8_t)dir;
    plan->count++;
    return true;
}

static bool king_slides_to_valley(const KvConfig *c, int k, uint64_t occ)
{
    for (int d = 0; d < KV_DIRS; d++)
        if (kv_slide(c, k, d, occ) == c->valley)
            return true;
    return false;
}

/* Squares from which a king would slide onto the Valley over occupancy occ: on each line
 * whose far side is blocked, the squares with nothing between them and the Valley. */
static uint64_t lanes_to_valley(const KvConfig *c, uint64_t occ)
{
    uint64_t lanes = 0;
    for (int d = 0; d < KV_DIRS; d++) {
        if (!(occ & (1ULL << (c->valley + c->delta[d]))))
            continue;
        const int back = (d + 4) & 7;
        const uint64_t ray = c->ray[back][c->valley];
        const uint64_t blockers = ray & occ;
        if (blockers == 0) {
            lanes |= ray;
            continue;
        }
        const int first = c->delta[back] > 0 ? bits_lowest(blockers) : bits_highest(blockers);
        lanes |= ray & ~c->ray[back][first];
    }
    return lanes;
}

/* Two moves deep without search: can one move of `player` set up a king slide onto the
 * Valley? (The caller knows there is none yet.) Either the king slides onto an open lane,
 * or, for a king already on a line through the Valley, a soldier brings the missing
 * stopper, or the only man in the way is our soldier and it steps off the line or slides
 * across the Valley to become the stopper. */
static bool reach_in_two(const KvConfig *c, const uint64_t men[2], int k, int player,
                         KvPlan *plan)
{
    const uint64_t occ = men[0] | men[1] | c->pillars;
    const uint64_t lanes = lanes_to_valley(c, occ & ~(1ULL << k));
    for (int d = 0; d < KV_DIRS; d++) {
        const int to = kv_slide(c, k, d, occ);
        if (to != k && (lanes & (1ULL << to)))
            return plan_push(plan, k, d);
    }
    const int toward = c->toward_valley[k];
    if (toward < 0)
        return false;
    const int stopper = c->valley + c->delta[toward];
    const uint64_t blockers = c->between_valley[k] & occ;
    const uint64_t soldiers = men[player] & ~(1ULL << k);
    if (blockers == 0) {
        uint64_t rest = soldiers;
        while (rest) {
            const int sq = bits_pop(&rest);
            for (int d = 0; d < KV_DIRS; d++)
                if (kv_slide(c, sq, d, occ) == stopper)
                    return plan_push(plan, sq, d);
        }
        return false;
    }
    if ((blockers & (blockers - 1)) || !(blockers & soldiers))
        return false;
    const int sq = bits_lowest(blockers);
    // The one man in the way is our soldier. Without a stopper it can only help by sliding
    // across the Valley to become the stopper itself.
    if (!(occ & (1ULL << stopper)))
        return kv_slide(c, sq, toward, occ) == stopper && plan_push(plan, sq, toward);
    // With a stopper, any step off the line clears the way; along the line it would stay in
    // the way or stop on the Valley, which soldiers may not.
    const int away = (toward + 4) & 7;
    for (int d = 0; d < KV_DIRS; d++)
        if (d != toward && d != away && kv_slide(c, sq, d, occ) != sq)
            return plan_push(plan, sq, d);
    return false;
}

/* Search for a plan of at most moves_left moves; on success the plan's moves are pushed
 * deepest first, so the caller reverses them. */
static bool search_plan(const KvConfig *c, const uint64_t men[2], const uint8_t king[2],
                        int player, int moves_left, KvPlan *plan)
{
    const uint64_t occ = men[0] | men[1] | c->pillars;
    const int k = king[player];
    if (king_slides_to_valley(c, k, occ))
        return true;
    if (moves_left <= 1)
        return false;
    if (moves_left == 2)
        return reach_in_two(c, men, k, player, plan);
    uint64_t own = men[player];
    while (own) {
        const int sq = bits_pop(&own);
        const bool is_king = sq == k;
        for (int d = 0; d < KV_DIRS; d++) {
            const int to = kv_slide(c, sq, d, occ);
            // King slides onto the Valley were answered above; soldiers cannot stop there.
            if (to == sq || to == c->valley)
                continue;
            uint64_t next_men[2] = {men[0], men[1]};
            uint8_t next_king[2] = {king[0], king[1]};
            next_men[player] ^= (1ULL << sq) | (1ULL << to);
            if (is_king)
                next_king[player] = (uint8_t)to;
            if (search_plan(c, next_men, next_king, player, moves_left - 1, plan))
                return plan_push(plan, sq, d);
        }
    }
    return false;
}

bool kv_reach_plan(const KvConfig *c, const uint64_t men[2], const uint8_t king[2], int player,
                   int moves_left, KvPlan *plan)
{
    plan->count = 0;
    if (!search_plan(c, men, king, player, moves_left, plan))
        return false;
    for (int i = 0, j = plan->count - 1; i < j; i++, j--) {
        const uint8_t f = plan->from[i], d = plan->dir[i];
        plan->from[i] = plan->from[j];
        plan->dir[i] = plan->dir[j];
        plan->from[j] = f;
        plan->dir[j] = d;
    }
    return true;
}

bool kv_can_reach_valley(const KvConfig *c, const uint64_t men[2], const uint8_t king[2],
                         int player, int moves_left)
{
    KvPlan plan;
    return kv_reach_plan(c, men, king, player, moves_left, &plan);
}

bool kv_plan_works(const KvConfig *c, const uint64_t men_in[2], const uint8_t king_in[2],
                   int player, const KvPlan *plan)
{
    uint64_t men[2] = {men_in[0], men_in[1]};
    int k = king_in[player];
    for (int i = 0; i < plan->count; i++) {
        const int from = plan->from[i];
        if (!(men[player] & (1ULL << from)))
            return false;
        const int to = kv_slide(c, from, plan->dir[i], men[0] | men[1] | c->pillars);
        if (to == from || (to == c->valley && from != k))
            return false;
        men[player] ^= (1ULL << from) | (1ULL << to);
        if (from == k)
            k = to;
    }
    return king_slides_to_valley(c, k, men[0] | men[1] | c->pillars);
}

/* The plain definition, kept for the tests that check reach_in_two against it. */
bool kv_can_reach_valley_plain(const KvConfig *c, const uint64_t men[2], const uint8_t king[2],
                               int player, int moves_left)
{
    const uint64_t occ = men[0] | men[1] | c->pillars;
    const int k = king[player];
    if (king_slides_to_valley(c, k, occ))
        return true;
    if (moves_left <= 1)
        return false;
    uint64_t own = men[player];
    while (own) {
        const int sq = bits_pop(&own);
        for (int d = 0; d < KV_DIRS; d++) {
            const int to = kv_slide(c, sq, d, occ);
            if (to == sq || to == c->valley)
                continue;
            uint64_t next_men[2] = {men[0], men[1]};
            uint8_t next_king[2] = {king[0], king[1]};
            next_men[player] ^= (1ULL << sq) | (1ULL << to);
            if (sq == k)
                next_king[player] = (uint8_t)to;
            if (kv_can_reach_valley_plain(c, next_men, next_king, player, moves_left - 1))
                return true;
        }
    }
    return false;
}

/* Whether `player` can still reach the Valley; tries the last plan that worked before
 * searching, since one candidate move seldom spoils the other side's plan. */
static bool reach_cached(const KvConfig *c, const uint64_t men[2], const uint8_t king[2],
                         int player, KvPlan *cache, bool *have)
{
    if (*have && kv_plan_works(c, men, king, player, cache))
        return true;
    KvPlan plan;
    if (!kv_reach_plan(c, men, king, player, KV_TRAP_DEPTH, &plan))
        return false;
    *cache = plan;
    *have = true;
    return true;
}

int kv_trap_filter(const KvConfig *c, const KvState *s, Move *moves, int n)
{
    const int p = s->turn;
    Move kept[KV_MAX_CELLS * KV_DIRS];
    int n_kept = 0;
    KvPlan cache[2];
    bool have[2] = {false, false};
    for (int i = 0; i < n; i++) {
        const int from = kv_from(moves[i]), to = kv_to(moves[i]);
        const bool is_king = from == s->king[p];
        if (is_king && to == c->valley) {
            kept[n_kept++] = moves[i];
            continue;
        }
        uint64_t men[2] = {s->men[0], s->men[1]};
        uint8_t king[2] = {s->king[0], s->king[1]};
        men[p] ^= (1ULL << from) | (1ULL << to);
        if (is_king)
            king[p] = (uint8_t)to;
        if (!reach_cached(c, men, king, 1 - p, &cache[1 - p], &have[1 - p]))
            continue;
        if (c->trap == KV_TRAP_BOTH && !reach_cached(c, men, king, p, &cache[p], &have[p]))
            continue;
        kept[n_kept++] = moves[i];
    }
    if (n_kept == 0)
        return n; // the fallback: never leave a player without a move
    for (int i = 0; i < n_kept; i++)
        moves[i] = kept[i];
    return n_kept;
}
