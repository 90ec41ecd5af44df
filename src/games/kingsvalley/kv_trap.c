/*
 * kv_trap.c - the trap-prevention rule of the 7x7 fan variant.
 *
 * A move is legal only if afterwards each king concerned could still reach the Valley
 * within four of its owner's moves with the other side frozen (R-KV-14 to
 * R-KV-18). The hypothetical play ignores every end-of-game test and the first-move rule.
 * A move that puts the mover's own king on the Valley is exempt, and if the filter would
 * leave no move at all it is suspended for that turn.
 *
 * Speed comes from deciding the last two levels of the search from the lines through the
 * king and the Valley, skipping moves a level up that touch no square those tests read
 * (and reusing the lanes and king slides they found when a move leaves them be), and
 * replaying plans that worked for earlier candidates or positions, kept with a table of
 * results in a cache the caller owns. kv_trap_allows tests one candidate, so that playouts
 * and searches test only the moves they play; kv_can_reach_valley_plain stays the
 * definition.
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

/* The soldier, if any, that slides onto the empty square `target`: looking out from the
 * target, the first man met on each line is the only one that could arrive along it, and
 * it stops there when the square past the target is the edge or occupied. */
static bool soldier_slides_onto(const KvConfig *c, uint64_t soldiers, int target, uint64_t occ,
                                KvPlan *plan)
{
    // A slide stops against a taken square or the edge: with neither next to the target
    // (as often around the squares next to the Valley) no man stops there.
    const uint64_t around = c->neighbours[target];
    if (!(around & occ) && bits_count(around) == KV_DIRS)
        return false;
    for (int e = 0; e < KV_DIRS; e++) {
        const uint64_t blockers = c->ray[e][target] & occ;
        if (!(blockers & soldiers))
            continue;
        const int sq = kv_first_blocker(c, e, blockers);
        if (!(soldiers & (1ULL << sq)))
            continue;
        const int back = (e + 4) & 7;
        const uint64_t past = c->ray[back][target];
        if (past == 0 || (occ & (1ULL << (target + c->delta[back]))))
            return plan_push(plan, sq, back);
    }
    return false;
}

/* One king move onto a square from which it would slide onto the Valley. */
static bool king_to_lane(const KvConfig *c, int k, uint64_t occ, KvPlan *plan)
{
    const uint64_t lanes = kv_lanes_to_valley(c, occ & ~(1ULL << k));
    for (int d = 0; d < KV_DIRS; d++) {
        if (!(c->ray[d][k] & lanes))
            continue;
        const int to = kv_slide(c, k, d, occ);
        if (to != k && (lanes & (1ULL << to)))
            return plan_push(plan, k, d);
    }
    return false;
}

/* For a king already on a line through the Valley, one soldier move that lets it slide
 * there: bringing the missing stopper, or, when the only man in the way is our soldier,
 * stepping it off the line or sliding it across the Valley to become the stopper. The
 * caller knows the king cannot slide there yet. */
static bool soldier_fix(const KvConfig *c, const uint64_t men[2], int k, int player,
                        uint64_t occ, KvPlan *plan)
{
    const int toward = c->toward_valley[k];
    if (toward < 0)
        return false;
    const int stopper = c->valley + c->delta[toward];
    const uint64_t blockers = c->between_valley[k] & occ;
    const uint64_t soldiers = men[player] & ~(1ULL << k);
    // A clear way and no slide yet means the stopper square is empty.
    if (blockers == 0)
        return soldier_slides_onto(c, soldiers, stopper, occ, plan);
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

/* Two moves deep without search: can one move of `player` set up a king slide onto the
 * Valley? (The caller knows there is none yet.) */
static bool reach_in_two(const KvConfig *c, const uint64_t men[2], int k, int player,
                         KvPlan *plan)
{
    const uint64_t occ = men[0] | men[1] | c->pillars;
    return king_to_lane(c, k, occ, plan) || soldier_fix(c, men, k, player, occ, plan);
}

/* The squares soldier_fix reads besides the king's line and its stopper (which the caller
 * keeps fixed), or 0 when no change elsewhere can make it succeed: the lines into an empty
 * stopper square up to their first man and the squares around it, or the squares around
 * the one soldier in the way. */
static uint64_t soldier_fix_support(const KvConfig *c, int k, uint64_t occ)
{
    const int toward = c->toward_valley[k];
    if (toward < 0)
        return 0;
    const int stopper = c->valley + c->delta[toward];
    const uint64_t blockers = c->between_valley[k] & occ;
    if (blockers == 0) {
        uint64_t sup = c->neighbours[stopper];
        for (int e = 0; e < KV_DIRS; e++)
            sup |= kv_ray_to_blocker(c, e, stopper, occ);
        return sup;
    }
    if ((blockers & (blockers - 1)) || !(occ & (1ULL << stopper)))
        return 0;
    return c->neighbours[bits_lowest(blockers)];
}

/* Every square soldier_fix reads for a king fixed on k, the stopper and the line to the
 * Valley included (in the case of one soldier in the way and no stopper, the whole line
 * past the Valley along which that soldier would slide); 0 when the king is on no line. */
static uint64_t soldier_fix_reads(const KvConfig *c, int k, uint64_t occ)
{
    const int toward = c->toward_valley[k];
    if (toward < 0)
        return 0;
    return c->between_valley[k] | c->ray[toward][c->valley] | soldier_fix_support(c, k, occ);
}

/* king_to_lane with the lanes given and, when slides is not NULL, the king's slide ends
 * already known (both unchanged by a move outside what they read). */
static bool king_to_lane_in(const KvConfig *c, int k, uint64_t occ, uint64_t lanes,
                            const int8_t *slides, KvPlan *plan)
{
    if (!lanes)
        return false;
    for (int d = 0; d < KV_DIRS; d++) {
        if (!(c->ray[d][k] & lanes))
            continue;
        const int to = slides ? slides[d] : kv_slide(c, k, d, occ);
        if (to != k && (lanes & (1ULL << to)))
            return plan_push(plan, k, d);
    }
    return false;
}

/* Three moves deep: one move, then reach_in_two. (The caller knows the king cannot slide
 * onto the Valley yet.) Once reach_in_two fails here, no king move lands on a lane, so
 * none of the king's moves needs the slide test. The lanes (seen without the king) are the
 * same after every king move, so they are found once; after a soldier move they and the
 * king's slide ends are found again only if the move touches the lines they were read
 * from, and soldier_fix runs again only if the move touches a square it read. */
static bool reach_in_three(const KvConfig *c, const uint64_t men[2], int k, int player,
                           KvPlan *plan)
{
    const uint64_t occ = men[0] | men[1] | c->pillars;
    const uint64_t kbit = 1ULL << k;
    const uint64_t lanes = kv_lanes_to_valley(c, occ & ~kbit);
    int8_t slides[KV_DIRS];
    for (int d = 0; d < KV_DIRS; d++)
        slides[d] = (int8_t)kv_slide(c, k, d, occ);
    if (king_to_lane_in(c, k, occ, lanes, slides, plan) ||
        soldier_fix(c, men, k, player, occ, plan))
        return true;
    for (int d = 0; d < KV_DIRS; d++) {
        const int to = slides[d];
        if (to == k)
            continue;
        uint64_t next_men[2] = {men[0], men[1]};
        next_men[player] ^= kbit | (1ULL << to);
        const uint64_t next_occ = occ ^ kbit ^ (1ULL << to);
        if (king_to_lane_in(c, to, next_occ, lanes, NULL, plan) ||
            soldier_fix(c, next_men, to, player, next_occ, plan))
            return plan_push(plan, k, d);
    }
    // The king's lines (up to their first man) decide its slide ends; the Valley's lines,
    // seen through the king, decide the lanes, the stopper and the king's own slide.
    uint64_t king_lines = 0, valley_lines = 0;
    const uint64_t occ_v = occ & ~kbit;
    for (int d = 0; d < KV_DIRS; d++) {
        king_lines |= kv_ray_to_blocker(c, d, k, occ);
        valley_lines |= kv_ray_to_blocker(c, d, c->valley, occ_v);
    }
    const uint64_t sup = king_lines | valley_lines;
    const uint64_t fix_reads = soldier_fix_reads(c, k, occ);
    const uint64_t reads = sup | fix_reads;
    // The king's own slide can start to end on the Valley only if a move touches its way
    // there, the Valley or the stopper square.
    const int toward = c->toward_valley[k];
    const uint64_t king_way =
        toward < 0 ? 0
                   : c->between_valley[k] | (1ULL << c->valley) |
                         (c->ray[toward][c->valley] ? 1ULL << (c->valley + c->delta[toward]) : 0);
    uint64_t soldiers = men[player] & ~kbit;
    while (soldiers) {
        const int sq = bits_pop(&soldiers);
        // A soldier off every square read moves into them only along a ray that meets one.
        const bool on_reads = reads & (1ULL << sq);
        for (int d = 0; d < KV_DIRS; d++) {
            if (!on_reads && !(c->ray[d][sq] & reads))
                continue;
            const int to = kv_slide(c, sq, d, occ);
            // Soldiers cannot stop on the Valley.
            if (to == sq || to == c->valley)
                continue;
            const uint64_t moved = (1ULL << sq) | (1ULL << to);
            if (!(moved & reads))
                continue;
            const uint64_t next_occ = occ ^ moved;
            bool found = false;
            if (moved & sup) {
                const uint64_t next_lanes =
                    (moved & valley_lines) ? kv_lanes_to_valley(c, next_occ & ~kbit) : lanes;
                found = ((moved & king_way) && kv_king_slides_to_valley(c, k, next_occ)) ||
                        king_to_lane_in(c, k, next_occ, next_lanes,
                                        (moved & king_lines) ? NULL : slides, plan);
            }
            if (!found && (moved & fix_reads)) {
                uint64_t next_men[2] = {men[0], men[1]};
                next_men[player] ^= moved;
                found = soldier_fix(c, next_men, k, player, next_occ, plan);
            }
            if (found)
                return plan_push(plan, sq, d);
        }
    }
    return false;
}

/* Search for a plan of at most moves_left moves; on success the plan's moves are pushed
 * deepest first, so the caller reverses them. */
static bool search_plan(const KvConfig *c, const uint64_t men[2], const uint8_t king[2],
                        int player, int moves_left, KvPlan *plan)
{
    const uint64_t occ = men[0] | men[1] | c->pillars;
    const int k = king[player];
    if (kv_king_slides_to_valley(c, k, occ))
        return true;
    if (moves_left <= 1)
        return false;
    if (moves_left == 2)
        return reach_in_two(c, men, k, player, plan);
    if (moves_left == 3)
        return reach_in_three(c, men, k, player, plan);
    // The king first: most plans start with a king move, so a search that succeeds
    // mostly ends sooner.
    uint64_t own = men[player] & ~(1ULL << k);
    for (int sq = k; sq >= 0; sq = own ? bits_pop(&own) : -1) {
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
    return kv_king_slides_to_valley(c, k, men[0] | men[1] | c->pillars);
}

/* The footprint of a plan that works for `player` on this board: the squares its replay
 * reads (each mover's square, its slide up to and including the square that stops it, and
 * the king's last slide with the Valley and the square past it), as kv_plan_works reads
 * them. On another board equal on those squares the replay reads the same values at every
 * step, so the plan works there too. */
static KvPlanFootprint plan_footprint(const KvConfig *c, const uint64_t men_in[2],
                                      const uint8_t king_in[2], int player, const KvPlan *plan)
{
    uint64_t men[2] = {men_in[0], men_in[1]};
    const uint64_t occ0 = men[0] | men[1] | c->pillars;
    int k = king_in[player];
    uint64_t reads = 0, mine = 0, placed = 0;
    for (int i = 0; i < plan->count; i++) {
        const int from = plan->from[i], d = plan->dir[i];
        const uint64_t occ = men[0] | men[1] | c->pillars;
        const int to = kv_slide(c, from, d, occ);
        // A man the plan has not moved yet must be the player's on the other board too
        // (reading its square as taken would let an opponent's man stand in for it).
        if (!(placed & (1ULL << from)))
            mine |= 1ULL << from;
        placed = (placed & ~(1ULL << from)) | (1ULL << to);
        reads |= 1ULL << from;
        reads |= kv_ray_to_blocker(c, d, from, occ);
        men[player] ^= (1ULL << from) | (1ULL << to);
        if (from == k)
            k = to;
    }
    const int toward = c->toward_valley[k];
    reads |= (1ULL << k) | c->between_valley[k] | (1ULL << c->valley);
    if (toward >= 0 && c->ray[toward][c->valley])
        reads |= 1ULL << (c->valley + c->delta[toward]);
    return (KvPlanFootprint){.reads = reads,
                             .occ = occ0 & reads,
                             .mine = mine & men_in[player],
                             .king = king_in[player]};
}

static inline bool footprint_holds(const KvPlanFootprint *f, uint64_t occ, uint64_t mine,
                                   int king)
{
    return f->king == king && (occ & f->reads) == f->occ && (mine & f->mine) == f->mine;
}

/* The plain definition, kept for the tests that check reach_in_two against it: the step
 * of search_plan again on purpose, without its shortcuts, so that it checks them. */
bool kv_can_reach_valley_plain(const KvConfig *c, const uint64_t men[2], const uint8_t king[2],
                               int player, int moves_left)
{
    const uint64_t occ = men[0] | men[1] | c->pillars;
    const int k = king[player];
    if (kv_king_slides_to_valley(c, k, occ))
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

void kv_reach_cache_init(KvReachCache *cache, KvReachEntry *table, uint32_t entries)
{
    cache->count[0] = cache->count[1] = cache->next[0] = cache->next[1] = 0;
    cache->table = table;
    cache->mask = table ? entries - 1 : 0;
}

static KvReachEntry *reach_slot(KvReachCache *cache, const uint64_t men[2], int king, int player)
{
    uint64_t h = men[0] * 0x9E3779B97F4A7C15ULL ^ men[1] * 0xC2B2AE3D27D4EB4FULL;
    h ^= (uint64_t)(king * 2 + player) * 0x165667B19E3779F9ULL;
    h ^= h >> 29;
    return &cache->table[(uint32_t)(h * 0xBF58476D1CE4E5B9ULL >> 40) & cache->mask];
}

/* Whether `player` can still reach the Valley: the table's answer for this very board, else
 * the plans that worked lately, where this board keeps their footprints (one move seldom
 * spoils all of them), else a search. */
static bool reach_cached(const KvConfig *c, const uint64_t men[2], const uint8_t king[2],
                         int player, KvReachCache *cache)
{
    KvReachEntry *e = NULL;
    if (cache->table) {
        e = reach_slot(cache, men, king[player], player);
        if (e->used && e->men[0] == men[0] && e->men[1] == men[1] && e->king == king[player] &&
            e->player == player)
            return e->reach;
    }
    bool reach = false;
    const uint64_t occ = men[0] | men[1] | c->pillars;
    // Newest first: the plans found last fit the boards met next best.
    for (int i = 0, j = cache->next[player]; i < cache->count[player] && !reach; i++) {
        j = j > 0 ? j - 1 : KV_PLAN_CACHE - 1;
        reach = footprint_holds(&cache->plan[player][j], occ, men[player], king[player]);
    }
    KvPlan plan;
    if (!reach && kv_reach_plan(c, men, king, player, KV_TRAP_DEPTH, &plan)) {
        reach = true;
        cache->plan[player][cache->next[player]] = plan_footprint(c, men, king, player, &plan);
        cache->next[player] = (cache->next[player] + 1) % KV_PLAN_CACHE;
        if (cache->count[player] < KV_PLAN_CACHE)
            cache->count[player]++;
    }
    if (e) {
        *e = (KvReachEntry){.men = {men[0], men[1]},
                            .king = king[player],
                            .player = (uint8_t)player,
                            .reach = reach,
                            .used = 1};
    }
    return reach;
}

bool kv_trap_allows(const KvConfig *c, const KvState *s, Move m, KvReachCache *cache)
{
    const int p = s->turn;
    const int from = kv_from(m), to = kv_to(m);
    const bool is_king = from == s->king[p];
    if (is_king && to == c->valley)
        return true;
    uint64_t men[2] = {s->men[0], s->men[1]};
    uint8_t king[2] = {s->king[0], s->king[1]};
    men[p] ^= (1ULL << from) | (1ULL << to);
    if (is_king)
        king[p] = (uint8_t)to;
    return reach_cached(c, men, king, 1 - p, cache) &&
           (c->trap != KV_TRAP_BOTH || reach_cached(c, men, king, p, cache));
}

int kv_trap_filter(const KvConfig *c, const KvState *s, Move *moves, int n)
{
    Move kept[KV_MAX_CELLS * KV_DIRS];
    int n_kept = 0;
    KvReachCache cache;
    kv_reach_cache_init(&cache, NULL, 0);
    for (int i = 0; i < n; i++)
        if (kv_trap_allows(c, s, moves[i], &cache))
            kept[n_kept++] = moves[i];
    if (n_kept == 0)
        return n; // the fallback: never leave a player without a move
    for (int i = 0; i < n_kept; i++)
        moves[i] = kept[i];
    return n_kept;
}
