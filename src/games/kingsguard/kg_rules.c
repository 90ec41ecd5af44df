/*
 * kg_rules.c - King's Guard actions: which are legal, make/unmake, and the end of the game.
 *
 * The result is settled once per turn, when a turn starts, in this order: a captured
 * king (the capture itself ends the game at once), a player without a legal turn, then
 * the draw rules (third repetition, max-plies). A turn in progress always has an action
 * (a placement or "end"), so gen_moves is empty exactly when the game is over.
 */
#include <string.h>

#include "games/kingsguard/kg_internal.h"

uint64_t kg_compute_hash(const KgConfig *c, const KgCore *k)
{
    uint64_t h = k->turn ? c->zobrist_second : 0;
    for (int sq = 0; sq < c->squares; sq++) {
        for (int lv = 0; lv < k->height[sq]; lv++) {
            const int owner = kg_owner_at(k, sq, lv);
            const int is_king = k->king[owner] == sq && k->king_level[owner] == lv;
            h ^= c->zobrist[owner | is_king << 1][lv][sq];
        }
    }
    if (k->origin != KG_NO_SQ) {
        h ^= c->zobrist_origin[k->origin];
        if (k->placed > 0)
            h ^= c->zobrist_placed;
    }
    return h;
}

void kg_rebuild_bitboards(const KgConfig *c, KgCore *k)
{
    Bb128 occ = 0, top[2] = {0, 0}, full = 0;
    for (int sq = 0; sq < c->squares; sq++) {
        const int h = k->height[sq];
        if (h == 0)
            continue;
        occ |= bb128_bit(sq);
        top[kg_owner_at(k, sq, h - 1)] |= bb128_bit(sq);
        if (h == c->limit)
            full |= bb128_bit(sq);
    }
    k->occ = bb128_store(occ);
    k->top[0] = bb128_store(top[0]);
    k->top[1] = bb128_store(top[1]);
    k->full = bb128_store(full);
}

/* Stacks player p may start a turn from: his top piece has somewhere to go, which only
 * needs one neighbour that is neither a full tower nor his own king (an empty square or
 * any other stack will do). If such a stack is a full tower, the tower must be
 * dismantled: only full towers are offered then. */
Bb128 kg_starts(const KgConfig *c, const KgCore *k, int p)
{
    const Bb128 full = bb128_load(k->full);
    const Bb128 open = c->on_board & ~full & ~kg_king_bit(k, p);
    const Bb128 movable = bb128_load(k->top[p]) & kg_spread(c, open);
    const Bb128 towers = movable & full;
    return towers ? towers : movable;
}

Bb128 kg_picks(const KgConfig *c, const KgCore *k)
{
    return kg_starts(c, k, k->turn);
}

/* Where the next piece of the turn in progress may go: its range is its height in the
 * stack, which is the height the start square has now. */
Bb128 kg_dests(const KgConfig *c, const KgCore *k)
{
    const int from = k->origin;
    const Bb128 reach = kg_reach(c, from, k->height[from], kg_empty(c, k));
    return reach & ~bb128_load(k->full) & ~kg_king_bit(k, k->turn);
}

int kg_gen(const KgConfig *c, const KgState *s, Move *out)
{
    const KgCore *k = &s->k;
    if (k->result != KG_PLAYING)
        return 0;
    int n = 0;
    if (k->origin == KG_NO_SQ) {
        Bb128 picks = kg_picks(c, k);
        while (picks)
            out[n++] = kg_action(KG_PICK, bb128_pop(&picks), 0);
        return n;
    }
    Bb128 dests = kg_dests(c, k);
    while (dests)
        out[n++] = kg_action(KG_PLACE, k->origin, bb128_pop(&dests));
    if (k->placed > 0)
        out[n++] = kg_action(KG_END, k->origin, 0);
    return n;
}

void kg_check_repetition(const KgConfig *c, KgState *s)
{
    KgCore *k = &s->k;
    if (c->repetition && k->result == KG_PLAYING && k->origin == KG_NO_SQ && k->hist.len > 0 &&
        rep_history_earlier(&k->hist, s->history) >= 2) {
        k->result = KG_DRAW;
        k->reason = KG_REASON_REPETITION;
    }
}

void kg_settle(const KgConfig *c, KgState *s)
{
    kg_settle_hinted(c, s, true);
}

void kg_settle_hinted(const KgConfig *c, KgState *s, bool may_repeat)
{
    KgCore *k = &s->k;
    k->result = KG_PLAYING;
    k->reason = KG_REASON_NONE;
    for (int q = 0; q < 2; q++) {
        if (k->king_level[q] + 1 != k->height[k->king[q]]) {
            k->result = (uint8_t)(q == 0 ? KG_WIN_SECOND : KG_WIN_FIRST);
            k->reason = KG_REASON_CAPTURE;
            return;
        }
    }
    if (kg_picks(c, k) == 0) {
        const int p = k->turn;
        k->result = (uint8_t)(!c->no_move_loses ? KG_DRAW
                              : p == 0          ? KG_WIN_SECOND
                                                : KG_WIN_FIRST);
        k->reason = KG_REASON_NO_MOVE;
        return;
    }
    if (c->repetition && may_repeat && k->hist.len > 0 &&
        rep_history_earlier(&k->hist, s->history) >= 2) {
        k->result = KG_DRAW;
        k->reason = KG_REASON_REPETITION;
        return;
    }
    if (k->ply >= c->max_plies) {
        k->result = KG_DRAW;
        k->reason = KG_REASON_PLY_LIMIT;
    }
}

uint64_t kg_hash_after_end(const KgConfig *c, const KgCore *k)
{
    uint64_t h = k->hash ^ c->zobrist_origin[k->origin] ^ c->zobrist_second;
    if (k->placed > 0)
        h ^= c->zobrist_placed;
    return h;
}

/* Closes the turn in progress: the other player starts his. */
static void end_turn(const KgConfig *c, KgState *s, bool may_repeat)
{
    KgCore *k = &s->k;
    k->hash = kg_hash_after_end(c, k);
    k->origin = KG_NO_SQ;
    k->placed = 0;
    k->turn ^= 1;
    k->ply++;
    rep_history_push(&k->hist, s->history, k->hash);
    kg_settle_hinted(c, s, may_repeat);
}

/* Moves the top piece of the start square onto `to`. */
static void place(const KgConfig *c, KgState *s, int to, bool may_repeat)
{
    KgCore *k = &s->k;
    const int from = k->origin;
    const int lv = k->height[from] - 1;
    const int owner = kg_owner_at(k, from, lv);
    const bool is_king = k->king[owner] == from && k->king_level[owner] == lv;
    const int kind = owner | is_king << 1;
    const int to_lv = k->height[to];
    const int them = k->turn ^ 1;
    const bool capture = k->king[them] == to;

    // Off the start square: the piece below (if any) becomes its top.
    k->owners[from] &= (uint8_t)~(1u << lv);
    k->height[from] = (uint8_t)lv;
    Bb128 occ = bb128_load(k->occ), top0 = bb128_load(k->top[0]), top1 = bb128_load(k->top[1]);
    Bb128 full = bb128_load(k->full);
    const Bb128 fb = bb128_bit(from), tb = bb128_bit(to);
    full &= ~fb;
    top0 &= ~fb;
    top1 &= ~fb;
    if (lv == 0)
        occ &= ~fb;
    else if (kg_owner_at(k, from, lv - 1))
        top1 |= fb;
    else
        top0 |= fb;

    // Onto the destination, whatever is there.
    k->owners[to] |= (uint8_t)(owner << to_lv);
    k->height[to] = (uint8_t)(to_lv + 1);
    occ |= tb;
    if (owner) {
        top1 |= tb;
        top0 &= ~tb;
    } else {
        top0 |= tb;
        top1 &= ~tb;
    }
    if (to_lv + 1 == c->limit)
        full |= tb;
    k->occ = bb128_store(occ);
    k->top[0] = bb128_store(top0);
    k->top[1] = bb128_store(top1);
    k->full = bb128_store(full);
    if (is_king) {
        k->king[owner] = (uint8_t)to;
        k->king_level[owner] = (uint8_t)to_lv;
    }
    k->hash ^= c->zobrist[kind][lv][from] ^ c->zobrist[kind][to_lv][to];
    if (k->placed++ == 0)
        k->hash ^= c->zobrist_placed;

    // A capture ends the game; an empty start square ends the turn.
    if (capture || lv == 0)
        end_turn(c, s, may_repeat && !capture);
}

void kg_apply(const KgConfig *c, KgState *s, Move m, bool may_repeat)
{
    KgCore *k = &s->k;
    switch (kg_kind(m)) {
    case KG_PICK:
        k->origin = (uint8_t)kg_a(m);
        k->placed = 0;
        k->hash ^= c->zobrist_origin[k->origin];
        break;
    case KG_PLACE:
        place(c, s, kg_b(m), may_repeat);
        break;
    case KG_END:
        end_turn(c, s, may_repeat);
        break;
    }
}

void kg_make(const KgConfig *c, KgState *s, Move m, KgUndo *u)
{
    memcpy(&u->k, &s->k, sizeof u->k);
    kg_apply(c, s, m, true);
}

void kg_unmake(KgState *s, const KgUndo *u)
{
    // An action pushes at most one history entry: the one ending a turn.
    if (s->k.hist.len > u->k.hist.len)
        rep_history_pop(&s->k.hist, s->history);
    memcpy(&s->k, &u->k, sizeof s->k);
}
