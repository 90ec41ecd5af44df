/*
 * kd_state.c - the game state over a position: the history of turn-start hashes, the
 * result, and make/unmake.
 *
 * The history (core/rep_history, as a ring) gets one entry per turn start. A repetition
 * can only reach back to the last capture or pawn move (the 50-move count), so with the
 * 50-move rule on, a ring of 128 turns is exact; with it off the ring holds the whole
 * game (max-plies + 1 turns) and never wraps. The result is settled once, when a
 * position is reached, in the order: no legal action (checkmate or stalemate), the
 * literal mate of the rulebook (option), then the draws: repetition, 50 moves, bare
 * kings, ply limit.
 */
#include <string.h>

#include "games/kingdown/kd_internal.h"

void kd_state_init(const KdConfig *c, KdState *s, const KdPos *p)
{
    memset(s, 0, sizeof *s);
    s->pos = *p;
    rep_history_init_ring(&s->hist, s->history, c->hist_cap);
    if (kd_turn_start(p))
        rep_history_push_ring(&s->hist, s->history, p->hash);
    kd_settle(c, s);
}

int kd_repetitions(const KdState *s)
{
    // Called at turn starts only, where the newest entry is the position; nothing before
    // the last capture or pawn move (the 50-move count) can repeat it.
    return rep_history_earlier_within(&s->hist, s->history, s->pos.halfmove);
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

bool kd_can_win(const KdConfig *c, const KdPos *p, int colour)
{
    // The same judgement as the bare-kings draw, one side at a time: when the rule is
    // off the game does not say that a lone king cannot win.
    return !c->bare_kings || (p->side[colour] & ~p->bb[KD_KING]) != 0;
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
    const int why = kd_draw_reason(c, p, c->repetition && kd_repetitions(s) >= 2);
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
    u->hist_old = 0;
    if (kd_turn_start(&s->pos))
        u->hist_old = rep_history_push_ring(&s->hist, s->history, s->pos.hash);
    kd_settle(c, s);
}

bool kd_make_null(const KdConfig *c, KdState *s, KdUndo *u)
{
    KdPos *p = &s->pos;
    const uint64_t officers = p->side[p->turn] & ~(p->bb[KD_PAWN] | p->bb[KD_KING]);
    if (s->result != KD_PLAYING || !kd_turn_start(p) || p->token_used || p->frozen ||
        p->iced || officers == 0)
        return false;
    u->pos = *p;
    u->result = s->result;
    u->reason = s->reason;
    if (p->ep != KD_NO_SQ) {
        p->hash ^= c->z_ep[p->ep];
        p->ep = KD_NO_SQ;
    }
    p->turn ^= 1;
    p->hash ^= c->z_side;
    // A turn start like any other in the history, but the pass ends the window of
    // repetitions (the move count restarts), as a pass is no move of the game.
    p->halfmove = 0;
    u->hist_old = rep_history_push_ring(&s->hist, s->history, p->hash);
    return true;
}

void kd_unmake_null(KdState *s, const KdUndo *u)
{
    rep_history_pop_ring(&s->hist, s->history, u->hist_old);
    s->pos = u->pos;
    s->result = u->result;
    s->reason = u->reason;
}

void kd_unmake(const KdConfig *c, KdState *s, Move m, const KdUndo *u)
{
    (void)c;
    (void)m;
    if (kd_turn_start(&s->pos))
        rep_history_pop_ring(&s->hist, s->history, u->hist_old);
    s->pos = u->pos;
    s->result = u->result;
    s->reason = u->reason;
}
