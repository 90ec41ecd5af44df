/*
 * kc_search.c - what King's Castle's alpha-beta treats as unsettled: the moves its
 * quiescence plays out past the horizon (GameOps.noisy), best first.
 *
 * Noisy are the moves that change what the evaluation cannot foresee: a phalanx capture
 * (men leave the board), and the Throne changing hands (the mover takes it, or the
 * opponent's Throne man goes). A throw only moves a man, and a placement only adds one
 * outside the Castle, so both are quiet unless they move the Throne (throne-loss=broken,
 * throne-entry=move). There is no in_check: the opponent on the Throne is a threat the
 * evaluation scores and the unseating captures are noisy, and treating it as check
 * (every move searched, one action deeper) played worse (docs/STRENGTH.md).
 */
#include "games/kingscastle/kc_internal.h"

enum {
    /* Victims, in tenths of the evaluation's value of the man taken (kc_eval.c). */
    VICTIM_MAN = 4,
    VICTIM_INNER = 9,    /* on an inner cell: a flanker, or one in the making */
    VICTIM_ENTRANCE = 3, /* on an entrance cell */
    /* The Throne outranks any capture: its removal first (the one defence in check),
     * then its taking. */
    THRONE_TAKEN = 1 << 10,
    THRONE_REMOVED = 1 << 11,
};

/* Whether m might capture or move the Throne, from the cells it newly occupies alone:
 * most moves are ruled out here without working out the move. */
static bool may_be_noisy(const KcConfig *c, Move m, Bb128 own0, Bb128 opp0)
{
    const bool throne_empty = !bb128_has(own0 | opp0, KC_THRONE);
    const bool auto_throne = !c->throne_by_move && throne_empty;
    if (auto_throne) {
        // The mover already flanks the empty Throne (after a capture removed the
        // Throne man of a double flank): every move takes it (R-KC-16).
        for (int i = 0; i < 3; i++)
            if ((own0 & c->pair_mask[i]) == c->pair_mask[i])
                return true;
    }
    switch (kc_kind(m)) {
    case KC_PLACE:
        return kc_cell(m) == KC_THRONE;
    case KC_SWAP:
        return false;
    default:
        break;
    }
    // The cells the front enters; a single occupies only the last of them.
    const int d = kc_dir(m), k = kc_k(m);
    Bb128 entered = 0;
    int x = kc_cell(m);
    for (int i = 0; i < kc_m(m); i++) {
        if ((x = c->step[d][x]) < 0)
            return false; // not a move of this position: the search never asks
        entered |= bb128_bit(x);
    }
    if (k == 1) {
        entered = bb128_bit(x);
        // A throw captures nothing, but with throne-loss=broken it may unseat.
        if (c->loss_if_broken && bb128_has(opp0, KC_THRONE))
            return true;
    } else if (entered & opp0) {
        return true;
    }
    return auto_throne && (entered & c->inner) != 0;
}

int kc_noisy(const KcConfig *c, const KcState *s, Move m)
{
    const int p = s->turn;
    const Bb128 own0 = kc_men(s, p), opp0 = kc_men(s, 1 - p);
    if (!may_be_noisy(c, m, own0, opp0))
        return 0;
    Bb128 own, opp, captured;
    kc_move_effect(c, s, m, &own, &opp, &captured);
    int value = 0;
    if (bb128_has(opp0, KC_THRONE) && !bb128_has(opp, KC_THRONE))
        value += THRONE_REMOVED;
    if (!bb128_has(own0, KC_THRONE) && bb128_has(own, KC_THRONE))
        value += THRONE_TAKEN;
    value += VICTIM_MAN * bb128_count(captured) + VICTIM_INNER * bb128_count(captured & c->inner) +
             VICTIM_ENTRANCE * bb128_count(captured & c->castle & ~c->inner);
    if (value == 0)
        return 0;
    // The fewer men a capture moves, the fewer it leaves out of place (least valuable
    // attacker): a tie-break below one victim's worth.
    return value * 16 + (KC_MAX_LINE - kc_k(m));
}
