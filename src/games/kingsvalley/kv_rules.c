/*
 * kv_rules.c - King's Valley move generation, make/unmake and the end of the game.
 *
 * The result of a position is settled once, when it is reached, in the order R-KV-13
 * fixes: a king on the Valley, then a locked king, then the draw rules, then a
 * player with no move at all. gen_moves is therefore empty exactly when the game is over.
 */
#include "games/kingsvalley/kv_internal.h"

uint64_t kv_compute_hash(const KvConfig *c, const KvState *s)
{
    uint64_t h = s->turn ? c->zobrist_second_to_move : 0;
    for (int p = 0; p < 2; p++) {
        uint64_t men = s->men[p];
        while (men) {
            int sq = bits_pop(&men);
            h ^= c->zobrist[p][sq == s->king[p]][sq];
        }
    }
    return h;
}

int kv_gen_pseudo(const KvConfig *c, const KvState *s, Move *out)
{
    const int p = s->turn;
    const uint64_t occ = kv_occupied(c, s);
    const bool king_frozen = c->first_move_soldier && s->ply == 0;
    uint64_t own = s->men[p];
    int n = 0;
    while (own) {
        const int sq = bits_pop(&own);
        const bool is_king = sq == s->king[p];
        if (is_king && king_frozen)
            continue;
        for (int d = 0; d < KV_DIRS; d++) {
            const int to = kv_slide(c, sq, d, occ);
            // A soldier whose slide ends on the Valley has no move that way: it may not
            // stop short of where the slide ends.
            if (to == sq || (!is_king && to == c->valley))
                continue;
            out[n++] = kv_move(sq, to);
        }
    }
    return n;
}

int kv_gen_legal(const KvConfig *c, const KvState *s, Move *out)
{
    if (s->result != KV_PLAYING)
        return 0;
    int n = kv_gen_pseudo(c, s, out);
    if (c->trap != KV_TRAP_OFF)
        n = kv_trap_filter(c, s, out, n);
    return n;
}

void kv_settle_result(const KvConfig *c, KvState *s)
{
    kv_settle_hinted(c, s, true);
}

void kv_settle_hinted(const KvConfig *c, KvState *s, bool may_repeat)
{
    const int p = s->turn;
    s->result = KV_PLAYING;
    s->reason = KV_REASON_NONE;
    for (int q = 0; q < 2; q++) {
        if (s->king[q] == c->valley) {
            s->result = (uint8_t)(q == 0 ? KV_WIN_FIRST : KV_WIN_SECOND);
            s->reason = KV_REASON_VALLEY;
            return;
        }
    }
    const bool locked = kv_king_locked(c, s, p);
    if (locked && c->locked_king_loses) {
        s->result = (uint8_t)(p == 0 ? KV_WIN_SECOND : KV_WIN_FIRST);
        s->reason = KV_REASON_LOCKED;
        return;
    }
    if (may_repeat && c->repetition && rep_history_threefold(&s->hist, s->history)) {
        s->result = KV_DRAW;
        s->reason = KV_REASON_REPETITION;
        return;
    }
    if (s->ply >= c->max_plies) {
        s->result = KV_DRAW;
        s->reason = KV_REASON_PLY_LIMIT;
        return;
    }
    // A king with a free neighbour can always move, so only a locked king or the frozen
    // king of the first ply can leave a player without moves.
    if (locked || (c->first_move_soldier && s->ply == 0)) {
        Move moves[KV_MAX_CELLS * KV_DIRS];
        if (kv_gen_pseudo(c, s, moves) == 0) {
            s->result = c->no_move_draws ? (uint8_t)KV_DRAW
                                         : (uint8_t)(p == 0 ? KV_WIN_SECOND : KV_WIN_FIRST);
            s->reason = KV_REASON_NO_MOVE;
        }
    }
}

void kv_make(const KvConfig *c, KvState *s, Move m, KvUndo *u)
{
    kv_make_hinted(c, s, m, u, true);
}

void kv_make_hinted(const KvConfig *c, KvState *s, Move m, KvUndo *u, bool may_repeat)
{
    const int p = s->turn;
    const int from = kv_from(m), to = kv_to(m);
    const int is_king = s->king[p] == from;
    u->men = s->men[p];
    u->hash = s->hash;
    u->king = s->king[p];
    u->result = s->result;
    u->reason = s->reason;
    s->men[p] ^= (1ULL << from) | (1ULL << to);
    if (is_king)
        s->king[p] = (uint8_t)to;
    s->hash ^= c->zobrist[p][is_king][from] ^ c->zobrist[p][is_king][to] ^
               c->zobrist_second_to_move;
    s->turn ^= 1;
    s->ply++;
    rep_history_push(&s->hist, s->history, s->hash);
    kv_settle_hinted(c, s, may_repeat);
}

void kv_unmake(KvState *s, Move m, const KvUndo *u)
{
    (void)m;
    s->turn ^= 1;
    const int p = s->turn;
    s->ply--;
    rep_history_pop(&s->hist, s->history);
    s->men[p] = u->men;
    s->hash = u->hash;
    s->king[p] = u->king;
    s->result = u->result;
    s->reason = u->reason;
}
