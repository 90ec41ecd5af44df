/*
 * kd_state.c - the game state over a position: the history of turn-start hashes, the
 * result, and make/unmake.
 *
 * The history is a ring indexed by the turn number (kd_plies). A repetition can only
 * reach back to the last capture or pawn move (the 50-move count), so with the 50-move
 * rule on, a ring of 128 turns is exact; with it off the ring holds the whole game
 * (max-plies + 1 turns). The result is settled once, when a position is reached, in the
 * order: no legal action (checkmate or stalemate), the literal mate of the rulebook
 * (option), then the draws: repetition, 50 moves, bare kings, ply limit.
 */
#include <string.h>

#include "games/kingdown/kd_internal.h"

void kd_state_init(const KdConfig *c, KdState *s, const KdPos *p)
{
    memset(s, 0, sizeof *s + sizeof s->hist[0] * (size_t)c->hist_cap);
    s->pos = *p;
    s->base = kd_plies(p);
    if (kd_turn_start(p))
        s->hist[s->base % (uint32_t)c->hist_cap] = p->hash;
    kd_settle(c, s);
}

int kd_repetitions(const KdConfig *c, const KdState *s)
{
    const KdPos *p = &s->pos;
    const uint32_t now = kd_plies(p);
    const uint32_t cap = (uint32_t)c->hist_cap;
    uint32_t span = now - s->base;
    if (span > p->halfmove)
        span = p->halfmove;
    if (span > cap - 1)
        span = cap - 1;
    int count = 0;
    for (uint32_t k = 2; k <= span; k += 2)
        count += s->hist[(now - k) % cap] == p->hash;
    return count;
}

int kd_draw_reason(const KdConfig *c, const KdPos *p, bool repeated)
{
    if (repeated)
        return KD_REASON_REPETITION;
    if (c->fifty && p->halfmove >= 100)
        return KD_REASON_FIFTY;
    if (c->bare_kings && p->bb[KD_EMPTY] == p->bb[KD_KING])
        return KD_REASON_BARE_KINGS;
    if (kd_plies(p) >= (uint32_t)c->max_plies)
        return KD_REASON_PLY_LIMIT;
    return KD_REASON_NONE;
}

void kd_settle(const KdConfig *c, KdState *s)
{
    const KdPos *p = &s->pos;
    s->result = KD_PLAYING;
    s->reason = KD_REASON_NONE;
    // Choices and turns in progress always go on: an action is offered only when the
    // turn it starts can be finished.
    if (!kd_turn_start(p))
        return;
    const int us = p->turn;
    const uint8_t loss = us == 0 ? KD_WIN_SECOND : KD_WIN_FIRST;
    const bool check = kd_in_check(c, p, us);
    if (!kd_has_legal(c, p)) {
        s->result = check ? loss : KD_DRAW;
        s->reason = check ? KD_REASON_MATE : KD_REASON_STALEMATE;
        return;
    }
    if (check && c->mate_literal && kd_literal_mate(c, p)) {
        s->result = loss;
        s->reason = KD_REASON_LITERAL_MATE;
        return;
    }
    const int why = kd_draw_reason(c, p, c->repetition && kd_repetitions(c, s) >= 2);
    if (why != KD_REASON_NONE) {
        s->result = KD_DRAW;
        s->reason = (uint8_t)why;
    }
}

void kd_make(const KdConfig *c, KdState *s, Move m, KdUndo *u)
{
    u->pos = s->pos;
    u->result = s->result;
    u->reason = s->reason;
    kd_apply(c, &s->pos, m);
    const uint32_t idx = kd_plies(&s->pos) % (uint32_t)c->hist_cap;
    u->hist_old = s->hist[idx];
    if (kd_turn_start(&s->pos))
        s->hist[idx] = s->pos.hash;
    kd_settle(c, s);
}

void kd_unmake(const KdConfig *c, KdState *s, Move m, const KdUndo *u)
{
    (void)m;
    const uint32_t idx = kd_plies(&s->pos) % (uint32_t)c->hist_cap;
    s->hist[idx] = u->hist_old;
    s->pos = u->pos;
    s->result = u->result;
    s->reason = u->reason;
}
