/*
 * kd_reference.c - the plain King Down rules oracle (see kd_reference.h).
 *
 * Everything is a loop over the 64 squares or over (file, rank) steps. A piece "attacks"
 * a square when it could capture a king standing there; a side is in check when any
 * enemy piece attacks its king. An action is legal when the turn it belongs to can be
 * finished so that the mover's king is not attacked (and, when the turn spent a token,
 * the other king is not attacked either): actions that end the turn are tried on a copy,
 * actions that do not (a beast capture announcing another, a power declared before the
 * move, the first move under Haste) are legal when some legal action follows them. The
 * first move under Haste is also a move of its own: once it is made (after a beast's
 * last capture, if it is a chain) the mover may not be in check.
 */
#include "kd_reference.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum Kind {
    K_MOVE,
    K_EP,
    K_CASTLE,
    K_SHOT,
    K_SWAP,
    K_PICK,
    K_FREEZE,
    K_ICE,
    K_STRIKE,
    K_HASTE,
    K_FLIGHT,
    K_SACRIFICE,
    K_MARCH,
    K_LEAP,
};

enum Power {
    P_NONE,
    P_FREEZE,
    P_ICE,
    P_STRIKE,
    P_HASTE,
    P_FLIGHT,
    P_SACRIFICE,
    P_MARCH,
    P_LEAP,
    P_HOLY,
    P_MERCY,
    P_DEATH,
    P_DARK,
    P_COUNT
};

static const char *const ARMY_NAME[7] = {"-",   "frost",  "flame", "stratus",
                                         "mud", "spirit", "shadow"};
static const int ARMY_POWERS[7][2] = {{P_NONE, P_NONE},     {P_FREEZE, P_ICE},
                                      {P_STRIKE, P_HASTE},  {P_FLIGHT, P_SACRIFICE},
                                      {P_MARCH, P_LEAP},    {P_HOLY, P_MERCY},
                                      {P_DEATH, P_DARK}};
static const char *const POWER_NAME[P_COUNT] = {
    "-",         "freeze", "ice-wall",   "strike",      "haste",   "flight", "sacrifice",
    "march",     "leap",   "holy-light", "mercy",       "death-touch", "darkness"};
static const int POWER_TOKENS[P_COUNT] = {0, 2, 2, 1, 1, 1, 1, 3, 3, 0, 0, 0, 0};

static const char PROMOTIONS[] = "QRBNALGME"; /* the first four: promotion=classic */

/* --- little helpers -------------------------------------------------------------------- */

static int file_of(int sq)
{
    return sq % 8;
}
static int rank_of(int sq)
{
    return sq / 8;
}
static int square(int f, int r)
{
    return (f < 0 || f > 7 || r < 0 || r > 7) ? -1 : r * 8 + f;
}
static bool empty(const KdRefPos *p, int sq)
{
    return p->board[sq] == '.';
}
static int owner(const KdRefPos *p, int sq)
{
    return isupper((unsigned char)p->board[sq]) ? 0 : 1;
}
static char kind_of(const KdRefPos *p, int sq)
{
    return (char)toupper((unsigned char)p->board[sq]);
}
static bool mine(const KdRefPos *p, int sq, int c)
{
    return !empty(p, sq) && owner(p, sq) == c;
}
static int ahead(int c)
{
    return c == 0 ? 1 : -1;
}
/* Rank counted from colour c's side: 0 is its first rank. */
static int rel_rank(int c, int sq)
{
    return c == 0 ? rank_of(sq) : 7 - rank_of(sq);
}
static char colour_letter(int c, char upper)
{
    return c == 0 ? upper : (char)tolower((unsigned char)upper);
}
static int sgn(int x)
{
    return (x > 0) - (x < 0);
}
static int iabs(int x)
{
    return x < 0 ? -x : x;
}
static int king_square(const KdRefPos *p, int c)
{
    for (int sq = 0; sq < 64; sq++)
        if (p->board[sq] == colour_letter(c, 'K'))
            return sq;
    return -1;
}
static bool in_play(const KdRefRules *r, const KdRefPos *p)
{
    return !r->armies || (p->power[0] != P_NONE && p->power[1] != P_NONE);
}
static bool turn_start(const KdRefPos *p, const KdRefRules *r)
{
    return in_play(r, p) && p->stage == 0 && p->chain_sq < 0;
}
/* Who chooses next: the first chooser's king, the other's, then their powers the same
 * way round. */
static int picker(const KdRefRules *r, const KdRefPos *p)
{
    const int first = r->first_picker, second = 1 - first;
    if (p->army[first] == 0)
        return first;
    if (p->army[second] == 0)
        return second;
    return p->power[first] == P_NONE ? first : second;
}

/* --- attacks and check ------------------------------------------------------------------ */

/* Squares strictly between a and b (on one line) are all empty. */
static bool clear_between(const KdRefPos *p, int a, int b)
{
    const int df = sgn(file_of(b) - file_of(a)), dr = sgn(rank_of(b) - rank_of(a));
    int f = file_of(a) + df, r = rank_of(a) + dr;
    while (square(f, r) != b) {
        if (!empty(p, square(f, r)))
            return false;
        f += df;
        r += dr;
    }
    return true;
}

/* Could the piece on `from` capture a king standing on `target` (normal powers only)? */
static bool attacks(const KdRefPos *p, int from, int target)
{
    const int c = owner(p, from);
    const int df = file_of(target) - file_of(from), dr = rank_of(target) - rank_of(from);
    const int adf = iabs(df), adr = iabs(dr);
    const bool adjacent = (adf | adr) != 0 && adf <= 1 && adr <= 1;
    switch (kind_of(p, from)) {
    case 'P':
        if (p->power[c] == P_DARK)
            return df == 0 && dr == ahead(c);
        return adf == 1 && dr == ahead(c);
    case 'N':
        return adf * adr == 2;
    case 'B':
        return adf == adr && adf > 0 && clear_between(p, from, target);
    case 'R':
        return (adf == 0) != (adr == 0) && clear_between(p, from, target);
    case 'Q':
        return ((adf == adr && adf > 0) || ((adf == 0) != (adr == 0))) &&
               clear_between(p, from, target);
    case 'K':
        return adjacent && p->power[c] != P_MERCY;
    case 'A':
        return (adf == 1 && adr == 1) || (adf == 0 && adr == 2) || (adf == 2 && adr == 0);
    case 'M':
        return adjacent;
    case 'E':
        return adjacent && !(df == 0 && dr == ahead(c));
    default: /* the paladin never takes a king, the guard takes nothing */
        return false;
    }
}

/* Would a king of colour c standing on sq be attacked? */
static bool attacked_for(const KdRefPos *p, int sq, int c)
{
    for (int s = 0; s < 64; s++) {
        if (empty(p, s) || owner(p, s) == c)
            continue;
        if (kind_of(p, s) == 'P' && p->power[c] == P_HOLY)
            continue; /* Holy Light: enemy pawns cannot take this king */
        if (attacks(p, s, sq))
            return true;
    }
    return false;
}

static bool in_check(const KdRefPos *p, int c)
{
    return attacked_for(p, king_square(p, c), c);
}

/* --- action lists ------------------------------------------------------------------------ */

typedef struct List {
    int n;
    KdRefMove *m;
} List;

static void push(List *l, int kind, int from, int to, char promo, bool more)
{
    if (l->n >= KDREF_MAX_MOVES)
        return;
    l->m[l->n++] = (KdRefMove){kind, from, to, promo, more};
}

/* A pawn arriving on `to` for colour c: every promotion, or the plain action. */
static void push_arrival(const KdRefRules *r, List *l, int kind, int from, int to, int c)
{
    if (rel_rank(c, to) != 7) {
        push(l, kind, from, to, 0, false);
        return;
    }
    const int n = r->promo_all ? 9 : 4;
    for (int i = 0; i < n; i++)
        push(l, kind, from, to, PROMOTIONS[i], false);
    if (r->promo_optional)
        push(l, kind, from, to, 0, false);
}

/* May the side to move take the piece on sq (by_king: the capturer is its king)? */
static bool takeable(const KdRefPos *p, int sq, bool by_king)
{
    if (empty(p, sq) || owner(p, sq) == p->turn || p->iced[sq])
        return false;
    const char k = kind_of(p, sq);
    if (k == 'K')
        return false;
    if (k == 'G' && !by_king)
        return false;
    return true;
}

static bool frozen_piece(const KdRefPos *p, int sq)
{
    return p->frozen[sq];
}

static void beast_captures(const KdRefRules *r, const KdRefPos *p, int from, List *l)
{
    const int c = p->turn;
    for (int df = -1; df <= 1; df++)
        for (int dr = -1; dr <= 1; dr++) {
            if ((df == 0 && dr == 0) || (df == 0 && dr == ahead(c)))
                continue;
            const int to = square(file_of(from) + df, rank_of(from) + dr);
            if (to < 0 || !takeable(p, to, false))
                continue;
            push(l, K_MOVE, from, to, 0, false);
            if (p->chain_n + 1 < r->chain_limit)
                push(l, K_MOVE, from, to, 0, true);
        }
}

static const int STEPS[8][2] = {{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}};

static void slide(const KdRefPos *p, int from, int kind, bool diagonal, bool straight, List *l,
                  bool pass_own_pawns)
{
    const int c = p->turn;
    for (int d = 0; d < 8; d++) {
        const bool diag = d % 2 == 1;
        if ((diag && !diagonal) || (!diag && !straight))
            continue;
        bool passed = false;
        for (int k = 1; k < 8; k++) {
            const int to = square(file_of(from) + k * STEPS[d][0], rank_of(from) + k * STEPS[d][1]);
            if (to < 0)
                break;
            if (empty(p, to)) {
                if (!pass_own_pawns || passed)
                    push(l, kind, from, to, 0, false);
                continue;
            }
            if (pass_own_pawns && mine(p, to, c) && kind_of(p, to) == 'P') {
                passed = true;
                continue;
            }
            if (takeable(p, to, false) && (!pass_own_pawns || passed))
                push(l, kind, from, to, 0, false);
            break;
        }
    }
}

static void pawn_moves(const KdRefRules *r, const KdRefPos *p, int from, List *l)
{
    const int c = p->turn, f = file_of(from), rk = rank_of(from);
    const int one = square(f, rk + ahead(c));
    if (p->power[c] == P_DARK) {
        for (int df = -1; df <= 1; df += 2) {
            const int to = square(f + df, rk + ahead(c));
            if (to >= 0 && empty(p, to))
                push_arrival(r, l, K_MOVE, from, to, c);
        }
        if (one >= 0 && takeable(p, one, false))
            push_arrival(r, l, K_MOVE, from, one, c);
        return;
    }
    if (one >= 0 && empty(p, one)) {
        push_arrival(r, l, K_MOVE, from, one, c);
        const int two = square(f, rk + 2 * ahead(c));
        if (rel_rank(c, from) == 1 && !p->moved[from] && two >= 0 && empty(p, two))
            push(l, K_MOVE, from, two, 0, false);
    }
    for (int df = -1; df <= 1; df += 2) {
        const int to = square(f + df, rk + ahead(c));
        if (to < 0)
            continue;
        if (takeable(p, to, false))
            push_arrival(r, l, K_MOVE, from, to, c);
        if (r->en_passant && to == p->ep) {
            const int victim = square(f + df, rk);
            if (!p->iced[victim])
                push(l, K_EP, from, to, 0, false);
        }
    }
}

static void king_moves(const KdRefRules *r, const KdRefPos *p, int from, bool castling, List *l)
{
    const int c = p->turn;
    if (p->power[c] == P_MERCY) {
        for (int d = 0; d < 8; d++) {
            const int s1 = square(file_of(from) + STEPS[d][0], rank_of(from) + STEPS[d][1]);
            if (s1 < 0)
                continue;
            if (empty(p, s1))
                push(l, K_MOVE, from, s1, 0, false);
            if (!empty(p, s1) && !mine(p, s1, c))
                continue;
            const int s2 = square(file_of(from) + 2 * STEPS[d][0], rank_of(from) + 2 * STEPS[d][1]);
            if (s2 >= 0 && empty(p, s2))
                push(l, K_MOVE, from, s2, 0, false);
        }
    } else {
        for (int d = 0; d < 8; d++) {
            const int to = square(file_of(from) + STEPS[d][0], rank_of(from) + STEPS[d][1]);
            if (to < 0)
                continue;
            const bool prey = takeable(p, to, true) &&
                              !(p->power[c] == P_HOLY && kind_of(p, to) == 'P');
            if (empty(p, to) || prey)
                push(l, K_MOVE, from, to, 0, false);
            if (prey && p->power[c] == P_DEATH)
                push(l, K_SHOT, from, to, 0, false);
        }
    }
    if (!castling || !r->castling || in_check(p, c))
        return;
    for (int rook = 0; rook < 64; rook++) {
        if (!p->castle[rook] || !mine(p, rook, c))
            continue;
        const int base = rank_of(from) * 8;
        const bool h_side = rook > from;
        const int kdest = base + (h_side ? 6 : 2), rdest = base + (h_side ? 5 : 3);
        bool ok = true;
        /* Every square the king or rook crosses or lands on is empty (but for those two). */
        const int lo = from < kdest ? from : kdest, hi = from < kdest ? kdest : from;
        const int rlo = rook < rdest ? rook : rdest, rhi = rook < rdest ? rdest : rook;
        for (int s = base; s < base + 8; s++) {
            const bool crossed = (s >= lo && s <= hi) || (s >= rlo && s <= rhi);
            if (crossed && s != from && s != rook && !empty(p, s))
                ok = false;
        }
        /* The king passes no attacked square (seen without the king on its square). */
        KdRefPos q = *p;
        q.board[from] = '.';
        const int step = kdest > from ? 1 : -1;
        for (int s = from; ok && s != kdest;) {
            s += step;
            if (attacked_for(&q, s, c))
                ok = false;
        }
        if (ok)
            push(l, K_CASTLE, from, rook, 0, false);
    }
}

static void maester_moves(const KdRefRules *r, const KdRefPos *p, int from, List *l)
{
    const int c = p->turn;
    for (int d = 0; d < 8; d++) {
        const int to = square(file_of(from) + STEPS[d][0], rank_of(from) + STEPS[d][1]);
        if (to < 0)
            continue;
        if (empty(p, to) || takeable(p, to, false))
            push(l, K_MOVE, from, to, 0, false);
        else if (mine(p, to, c) && !frozen_piece(p, to)) {
            /* the friend lands on the maester's square: a pawn there may promote */
            if (kind_of(p, to) == 'P' && rel_rank(c, from) == 7) {
                const int n = r->promo_all ? 9 : 4;
                for (int i = 0; i < n; i++)
                    push(l, K_SWAP, from, to, PROMOTIONS[i], false);
                if (r->promo_optional)
                    push(l, K_SWAP, from, to, 0, false);
            } else {
                push(l, K_SWAP, from, to, 0, false);
            }
        }
    }
    const int k = king_square(p, c);
    const bool adjacent = iabs(file_of(k) - file_of(from)) <= 1 && iabs(rank_of(k) - rank_of(from)) <= 1;
    if (rel_rank(c, from) == 0 && rel_rank(c, k) == 0 && !adjacent)
        push(l, K_SWAP, from, k, 0, false);
}

/* The normal moves of the piece on `from`. */
static void piece_moves(const KdRefRules *r, const KdRefPos *p, int from, bool castling, List *l)
{
    const int c = p->turn;
    const int f = file_of(from), rk = rank_of(from);
    switch (kind_of(p, from)) {
    case 'P':
        pawn_moves(r, p, from, l);
        break;
    case 'N':
        for (int df = -2; df <= 2; df++)
            for (int dr = -2; dr <= 2; dr++) {
                if (iabs(df * dr) != 2)
                    continue;
                const int to = square(f + df, rk + dr);
                if (to >= 0 && (empty(p, to) || takeable(p, to, false)))
                    push(l, K_MOVE, from, to, 0, false);
            }
        break;
    case 'B':
        slide(p, from, K_MOVE, true, false, l, false);
        break;
    case 'R':
        slide(p, from, K_MOVE, false, true, l, false);
        break;
    case 'Q':
        slide(p, from, K_MOVE, true, true, l, false);
        break;
    case 'K':
        king_moves(r, p, from, castling, l);
        break;
    case 'A':
        for (int d = 0; d < 8; d += 2) {
            const int to = square(f + STEPS[d][0], rk + STEPS[d][1]);
            if (to >= 0 && empty(p, to))
                push(l, K_MOVE, from, to, 0, false);
        }
        for (int df = -2; df <= 2; df++)
            for (int dr = -2; dr <= 2; dr++) {
                const bool shot = (iabs(df) == 1 && iabs(dr) == 1) ||
                                  (df == 0 && iabs(dr) == 2) || (dr == 0 && iabs(df) == 2);
                const int to = square(f + df, rk + dr);
                if (shot && to >= 0 && takeable(p, to, false))
                    push(l, K_SHOT, from, to, 0, false);
            }
        break;
    case 'L':
        for (int d = 0; d < 8; d++)
            for (int k = 1; k < 8; k++) {
                const int to = square(f + k * STEPS[d][0], rk + k * STEPS[d][1]);
                if (to < 0)
                    break;
                if (empty(p, to)) {
                    push(l, K_MOVE, from, to, 0, false);
                    continue;
                }
                if (mine(p, to, c))
                    continue; /* over a friend */
                if (takeable(p, to, false))
                    push(l, K_MOVE, from, to, 0, false);
                break;
            }
        break;
    case 'G':
        for (int d = 0; d < 8; d++) {
            const int to = square(f + STEPS[d][0], rk + STEPS[d][1]);
            if (to >= 0 && empty(p, to))
                push(l, K_MOVE, from, to, 0, false);
        }
        break;
    case 'M':
        maester_moves(r, p, from, l);
        break;
    case 'E': {
        const int to = square(f, rk + ahead(c));
        if (to >= 0 && empty(p, to))
            push(l, K_MOVE, from, to, 0, false);
        beast_captures(r, p, from, l);
        break;
    }
    default:
        break;
    }
}

static void all_normal_moves(const KdRefRules *r, const KdRefPos *p, bool castling, List *l)
{
    for (int sq = 0; sq < 64; sq++)
        if (mine(p, sq, p->turn) && !frozen_piece(p, sq))
            piece_moves(r, p, sq, castling, l);
}

static void power_actions(const KdRefRules *r, const KdRefPos *p, List *l)
{
    const int c = p->turn;
    if (p->tokens[c] == 0)
        return;
    switch (p->power[c]) {
    case P_FREEZE:
        for (int sq = 0; sq < 64; sq++)
            if (!empty(p, sq) && owner(p, sq) != c && kind_of(p, sq) != 'K' &&
                !(p->stage == 1 && p->frozen[sq]))
                push(l, K_FREEZE, 0, sq, 0, false);
        break;
    case P_ICE:
        for (int sq = 0; sq < 64; sq++)
            if (mine(p, sq, c) && kind_of(p, sq) != 'K' && !(p->stage == 1 && p->iced[sq]))
                push(l, K_ICE, 0, sq, 0, false);
        break;
    case P_HASTE:
        push(l, K_HASTE, 0, 0, 0, false);
        break;
    case P_STRIKE:
        for (int from = 0; from < 64; from++) {
            if (!mine(p, from, c) || kind_of(p, from) == 'K' || frozen_piece(p, from))
                continue;
            List tmp;
            KdRefMove buf[64];
            tmp.n = 0;
            tmp.m = buf;
            slide(p, from, K_STRIKE, true, true, &tmp, false);
            for (int i = 0; i < tmp.n; i++) {
                if (kind_of(p, from) == 'P')
                    push_arrival(r, l, K_STRIKE, from, tmp.m[i].to, c);
                else
                    push(l, K_STRIKE, from, tmp.m[i].to, 0, false);
            }
        }
        break;
    case P_FLIGHT:
        for (int from = 0; from < 64; from++) {
            if (!mine(p, from, c) || kind_of(p, from) == 'K' || frozen_piece(p, from))
                continue;
            for (int to = 0; to < 64; to++)
                if (empty(p, to) && rel_rank(c, to) <= 3)
                    push(l, K_FLIGHT, from, to, 0, false);
        }
        break;
    case P_SACRIFICE:
        for (int from = 0; from < 64; from++) {
            if (!mine(p, from, c) || kind_of(p, from) != 'P' || frozen_piece(p, from))
                continue;
            for (int i = 0; i < 9; i++)
                if (p->captured[c][PROMOTIONS[i] - 'A'] > 0)
                    push(l, K_SACRIFICE, from, 0, PROMOTIONS[i], false);
        }
        break;
    case P_MARCH:
        for (int from = 0; from < 64; from++) {
            if (!mine(p, from, c) || kind_of(p, from) != 'P' || frozen_piece(p, from))
                continue;
            const int one = square(file_of(from), rank_of(from) + ahead(c));
            const int two = square(file_of(from), rank_of(from) + 2 * ahead(c));
            if (one >= 0 && two >= 0 && empty(p, one) && empty(p, two))
                push_arrival(r, l, K_MARCH, from, two, c);
        }
        break;
    case P_LEAP:
        for (int from = 0; from < 64; from++) {
            if (!mine(p, from, c) || frozen_piece(p, from))
                continue;
            const char k = kind_of(p, from);
            if (k == 'B' || k == 'R' || k == 'Q')
                slide(p, from, K_LEAP, k != 'R', k != 'B', l, true);
        }
        break;
    default:
        break;
    }
}

/* Every action the rules of the current stage offer, legal or not. */
static void pseudo_actions(const KdRefRules *r, const KdRefPos *p, List *l)
{
    if (!in_play(r, p)) {
        // A pick's `from` is the player choosing.
        const int who = picker(r, p);
        if (p->army[0] == 0 || p->army[1] == 0) {
            for (int a = 1; a <= 6; a++)
                if (a != p->army[1 - who])
                    push(l, K_PICK, who, a, 0, false);
        } else {
            push(l, K_PICK, who, 0, 0, false);
            push(l, K_PICK, who, 1, 0, false);
        }
        return;
    }
    if (p->chain_sq >= 0) {
        beast_captures(r, p, p->chain_sq, l);
        return;
    }
    switch (p->stage) {
    case 0:
        all_normal_moves(r, p, true, l);
        if (r->armies)
            power_actions(r, p, l);
        break;
    case 1:
        all_normal_moves(r, p, true, l);
        // With tokens-per-turn=any, Freeze or Ice Wall may be declared again first.
        if (r->tokens_any)
            power_actions(r, p, l);
        break;
    case 2:
        all_normal_moves(r, p, false, l);
        break;
    case 3:
        if (p->haste_sq >= 0 && mine(p, p->haste_sq, p->turn) && !frozen_piece(p, p->haste_sq))
            piece_moves(r, p, p->haste_sq, false, l);
        break;
    default:
        break;
    }
}

/* --- playing an action -------------------------------------------------------------------- */

static bool token_kind(int kind)
{
    return kind >= K_FREEZE && kind <= K_LEAP;
}

/* A piece leaves sq: its castling right and its "moved" mark go with it. */
static void lift(KdRefPos *p, int sq)
{
    p->board[sq] = '.';
    p->castle[sq] = false;
    p->moved[sq] = false;
}

static void take(const KdRefRules *r, KdRefPos *p, int sq)
{
    const int c = owner(p, sq);
    const char k = kind_of(p, sq);
    lift(p, sq);
    p->frozen[sq] = false;
    p->iced[sq] = false;
    if (r->armies && p->captured[c][k - 'A'] < 15)
        p->captured[c][k - 'A']++;
}

/* A pawn arriving on its second rank can only have been put there by a swap or a power:
 * it has moved, unless displaced-pawn=unmoved. */
static void place_pawn(const KdRefRules *r, KdRefPos *p, int sq, int c, char promo)
{
    if (rel_rank(c, sq) == 7 && promo) {
        p->board[sq] = colour_letter(c, promo);
        return;
    }
    p->board[sq] = colour_letter(c, 'P');
    if (rel_rank(c, sq) == 1 && !r->displaced_unmoved)
        p->moved[sq] = true;
}

static void play(const KdRefRules *r, KdRefPos *p, KdRefMove m)
{
    const int c = p->turn;
    if (m.kind == K_PICK) {
        const int who = m.from;
        if (p->army[who] == 0)
            p->army[who] = m.to;
        else {
            p->power[who] = ARMY_POWERS[p->army[who]][m.to];
            p->tokens[who] = POWER_TOKENS[p->power[who]];
        }
        return;
    }
    const int king_before = king_square(p, c);
    bool irrev = false, complete = true;
    int landed = m.to, ep_next = -1;
    if (token_kind(m.kind)) {
        p->tokens[c]--;
        p->token_used = true;
    }
    if (m.kind == K_MOVE || m.kind == K_STRIKE || m.kind == K_LEAP || m.kind == K_MARCH ||
        m.kind == K_FLIGHT) {
        const char k = kind_of(p, m.from);
        const bool capture = !empty(p, m.to);
        if (capture) {
            take(r, p, m.to);
            irrev = true;
        }
        lift(p, m.from);
        if (k == 'L' && capture && m.kind == K_MOVE) {
            /* the paladin is removed with its victim */
            if (r->armies && p->captured[c]['L' - 'A'] < 15)
                p->captured[c]['L' - 'A']++;
            landed = -1;
        } else if (k == 'P') {
            irrev = true;
            place_pawn(r, p, m.to, c, m.promo);
            // march-en-passant=on: a March that leaves a pawn behind counts like a double step.
            const bool march = m.kind == K_MARCH && r->march_ep && rel_rank(c, m.to) != 7;
            if ((m.kind == K_MOVE || march) && iabs(m.to - m.from) == 16 && r->en_passant &&
                p->power[1 - c] != P_DARK) {
                const int mid = (m.from + m.to) / 2;
                for (int df = -1; df <= 1; df += 2) {
                    const int s = square(file_of(m.to) + df, rank_of(m.to));
                    if (s >= 0 && p->board[s] == colour_letter(1 - c, 'P'))
                        ep_next = mid;
                }
            }
        } else {
            p->board[m.to] = colour_letter(c, k);
        }
        if (k == 'E' && capture && m.kind == K_MOVE) {
            if (m.more) {
                p->chain_sq = m.to;
                p->chain_n++;
                complete = false;
            } else {
                p->chain_sq = -1;
                p->chain_n = 0;
            }
        }
        if (p->iced[m.from]) {
            p->iced[m.from] = false;
            if (landed >= 0) // a paladin that captured is gone, and its mark with it
                p->iced[landed] = true;
        }
    } else if (m.kind == K_EP) {
        take(r, p, m.to + (c == 0 ? -8 : 8));
        lift(p, m.from);
        p->board[m.to] = colour_letter(c, 'P');
        irrev = true;
        if (p->iced[m.from]) {
            p->iced[m.from] = false;
            p->iced[m.to] = true;
        }
    } else if (m.kind == K_CASTLE) {
        const int base = rank_of(m.from) * 8;
        const bool h_side = m.to > m.from;
        const int kdest = base + (h_side ? 6 : 2), rdest = base + (h_side ? 5 : 3);
        lift(p, m.from);
        lift(p, m.to);
        p->board[kdest] = colour_letter(c, 'K');
        p->board[rdest] = colour_letter(c, 'R');
        const bool rook_iced = p->iced[m.to], king_iced = p->iced[m.from];
        p->iced[m.to] = p->iced[m.from] = false;
        if (rook_iced)
            p->iced[rdest] = true;
        if (king_iced)
            p->iced[kdest] = true;
    } else if (m.kind == K_SHOT) {
        take(r, p, m.to);
        irrev = true;
        landed = m.from; /* the shooter stays */
    } else if (m.kind == K_SWAP) {
        const char other = kind_of(p, m.to);
        lift(p, m.from);
        lift(p, m.to);
        p->board[m.to] = colour_letter(c, 'M');
        if (other == 'P') {
            irrev = true;
            place_pawn(r, p, m.from, c, m.promo);
        } else {
            p->board[m.from] = colour_letter(c, other);
        }
        const bool moved_iced = p->iced[m.from];
        p->iced[m.from] = p->iced[m.to];
        p->iced[m.to] = moved_iced;
    } else if (m.kind == K_FREEZE) {
        // The first declaration of a turn replaces older marks; later ones add to them.
        if (p->stage == 0)
            memset(p->frozen, 0, sizeof p->frozen);
        p->frozen[m.to] = true;
        p->stage = 1;
        complete = false;
    } else if (m.kind == K_ICE) {
        if (p->stage == 0)
            memset(p->iced, 0, sizeof p->iced);
        p->iced[m.to] = true;
        p->stage = 1;
        complete = false;
    } else if (m.kind == K_HASTE) {
        p->stage = 2;
        complete = false;
    } else if (m.kind == K_SACRIFICE) {
        take(r, p, m.from);
        p->board[m.from] = colour_letter(c, m.promo);
        p->captured[c][m.promo - 'A']--;
        irrev = true;
        landed = m.from;
    }
    if (king_square(p, c) != king_before || m.kind == K_CASTLE)
        for (int f = 0; f < 8; f++)
            p->castle[(c == 0 ? 0 : 56) + f] = false;
    if (irrev)
        p->irrev = true;
    if (!complete)
        return;
    if (p->stage == 2) {
        p->stage = 3;
        p->haste_sq = landed;
        return;
    }
    p->ep = ep_next;
    p->halfmove = p->irrev ? 0 : p->halfmove + 1;
    if (p->halfmove > 65535)
        p->halfmove = 65535;
    p->irrev = false;
    if (c == 1 && p->fullmove < 65535)
        p->fullmove++;
    p->stage = 0;
    p->haste_sq = -1;
    p->token_used = false;
    if (p->power[c] != P_FREEZE)
        memset(p->frozen, 0, sizeof p->frozen);
    if (p->power[c] != P_ICE)
        memset(p->iced, 0, sizeof p->iced);
    p->turn = 1 - c;
}

/* --- legality ------------------------------------------------------------------------------ */

static bool legal(const KdRefRules *r, const KdRefPos *p, KdRefMove m);

static bool can_finish(const KdRefRules *r, const KdRefPos *q)
{
    KdRefMove *buf = calloc(KDREF_MAX_MOVES, sizeof *buf);
    if (buf == NULL)
        abort();
    List l = {0, buf};
    pseudo_actions(r, q, &l);
    bool ok = false;
    for (int i = 0; i < l.n && !ok; i++)
        ok = legal(r, q, l.m[i]);
    free(buf);
    return ok;
}

static bool legal(const KdRefRules *r, const KdRefPos *p, KdRefMove m)
{
    if (m.kind == K_PICK)
        return true;
    KdRefPos q = *p;
    play(r, &q, m);
    if (q.turn != p->turn) {
        if (in_check(&q, p->turn))
            return false;
        const bool spent = p->token_used || token_kind(m.kind);
        return !spent || !in_check(&q, q.turn);
    }
    // Haste's first move just ended: it is a normal move of its own, so it may not leave
    // the mover in check (nor, with haste-check=each, give check).
    if (p->stage == 2 && q.stage == 3) {
        if (in_check(&q, p->turn) || (r->haste_each && in_check(&q, 1 - p->turn)))
            return false;
    }
    return can_finish(r, &q);
}

int kdref_position_moves(const KdRefRules *r, const KdRefPos *p, KdRefMove *out)
{
    KdRefMove *buf = calloc(KDREF_MAX_MOVES, sizeof *buf);
    if (buf == NULL)
        abort();
    List l = {0, buf};
    pseudo_actions(r, p, &l);
    int n = 0;
    for (int i = 0; i < l.n; i++)
        if (legal(r, p, l.m[i]))
            out[n++] = l.m[i];
    free(buf);
    return n;
}

/* --- position text ------------------------------------------------------------------------ */

static void put_text(char *out, size_t cap, size_t *n, const char *s)
{
    while (*s && *n + 1 < cap)
        out[(*n)++] = *s++;
    out[*n] = '\0';
}

static void put_square(char *out, size_t cap, size_t *n, int sq)
{
    if (*n + 3 < cap) {
        out[(*n)++] = (char)('a' + file_of(sq));
        out[(*n)++] = (char)('1' + rank_of(sq));
        out[*n] = '\0';
    }
}

/* A position word listing the marked squares, comma-separated; nothing when none. */
static void put_squares(char *out, size_t cap, size_t *n, const char *word, const bool set[64])
{
    bool first = true;
    for (int sq = 0; sq < 64; sq++) {
        if (!set[sq])
            continue;
        put_text(out, cap, n, first ? word : ",");
        first = false;
        put_square(out, cap, n, sq);
    }
}

static bool any_square(const bool set[64])
{
    for (int sq = 0; sq < 64; sq++)
        if (set[sq])
            return true;
    return false;
}

void kdref_format(const KdRefRules *r, const KdRefPos *p, char *out, size_t cap)
{
    size_t n = 0;
    char tmp[64];
    out[0] = '\0';
    for (int rank = 7; rank >= 0; rank--) {
        int run = 0;
        for (int f = 0; f < 8; f++) {
            const char ch = p->board[rank * 8 + f];
            if (ch == '.') {
                run++;
                continue;
            }
            if (run) {
                snprintf(tmp, sizeof tmp, "%d", run);
                put_text(out, cap, &n, tmp);
            }
            run = 0;
            snprintf(tmp, sizeof tmp, "%c", ch);
            put_text(out, cap, &n, tmp);
        }
        if (run) {
            snprintf(tmp, sizeof tmp, "%d", run);
            put_text(out, cap, &n, tmp);
        }
        if (rank)
            put_text(out, cap, &n, "/");
    }
    put_text(out, cap, &n, p->turn == 0 ? " w " : " b ");
    bool any = false;
    for (int c = 0; c < 2; c++) {
        const int base = c == 0 ? 0 : 56;
        const int k = king_square(p, c);
        int low = -1, high = -1; /* outermost rooks on each side of the king */
        for (int f = 0; f < 8; f++) {
            if (p->board[base + f] != colour_letter(c, 'R'))
                continue;
            if (base + f < k && low < 0)
                low = base + f;
            if (base + f > k)
                high = base + f;
        }
        for (int side = 0; side < 2; side++)
            for (int f = 7; f >= 0; f--) {
                const int sq = base + f;
                if (!p->castle[sq] || (side == 0) != (sq > k))
                    continue;
                char ch = (char)('A' + f);
                if (sq == (side == 0 ? high : low))
                    ch = side == 0 ? 'K' : 'Q';
                snprintf(tmp, sizeof tmp, "%c", colour_letter(c, ch));
                put_text(out, cap, &n, tmp);
                any = true;
            }
    }
    if (!any)
        put_text(out, cap, &n, "-");
    put_text(out, cap, &n, " ");
    if (p->ep >= 0)
        put_square(out, cap, &n, p->ep);
    else
        put_text(out, cap, &n, "-");
    snprintf(tmp, sizeof tmp, " %d %d", p->halfmove, p->fullmove);
    put_text(out, cap, &n, tmp);
    put_squares(out, cap, &n, " moved:", p->moved);
    if (p->chain_sq >= 0) {
        put_text(out, cap, &n, " chain:");
        put_square(out, cap, &n, p->chain_sq);
        snprintf(tmp, sizeof tmp, "/%d", p->chain_n);
        put_text(out, cap, &n, tmp);
    }
    if (p->stage == 1)
        put_text(out, cap, &n, " stage:declared");
    if (p->stage == 2)
        put_text(out, cap, &n, " stage:haste1");
    if (p->stage == 3) {
        put_text(out, cap, &n, " stage:haste2/");
        put_square(out, cap, &n, p->haste_sq);
    }
    if (p->token_used && p->stage == 0)
        put_text(out, cap, &n, " token:spent");
    if (p->irrev)
        put_text(out, cap, &n, " irrev:1");
    if (!r->armies)
        return;
    snprintf(tmp, sizeof tmp, " armies:%s/%s", ARMY_NAME[p->army[0]], ARMY_NAME[p->army[1]]);
    put_text(out, cap, &n, tmp);
    if (p->power[0] || p->power[1]) {
        snprintf(tmp, sizeof tmp, " powers:%s/%s tokens:%d/%d", POWER_NAME[p->power[0]],
                 POWER_NAME[p->power[1]], p->tokens[0], p->tokens[1]);
        put_text(out, cap, &n, tmp);
    }
    /* captured pieces in the order P N B R Q K A L G M E, white first */
    static const char ORDER[] = "PNBRQKALGME";
    bool first = true;
    for (int c = 0; c < 2; c++)
        for (const char *o = ORDER; *o; o++)
            for (int k = 0; k < p->captured[c][*o - 'A']; k++) {
                put_text(out, cap, &n, first ? " captured:" : "");
                first = false;
                snprintf(tmp, sizeof tmp, "%c", colour_letter(c, *o));
                put_text(out, cap, &n, tmp);
            }
    put_squares(out, cap, &n, " frozen:", p->frozen);
    put_squares(out, cap, &n, " iced:", p->iced);
}

static bool fail(char *err, size_t cap, const char *msg)
{
    snprintf(err, cap, "%s", msg);
    return false;
}

static int read_sq(const char *s)
{
    if (strlen(s) < 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8')
        return -1;
    return (s[1] - '1') * 8 + (s[0] - 'a');
}

static int find_name(const char *const *names, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], s) == 0)
            return i;
    return -1;
}

static bool read_int(const char *s, int lo, int hi, int *out)
{
    if (!isdigit((unsigned char)*s))
        return false;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return false;
    *out = (int)v;
    return true;
}

bool kdref_parse(const KdRefRules *r, const char *text, KdRefPos *out, char *err, size_t cap)
{
    char buf[KDREF_TEXT];
    if (strlen(text) >= sizeof buf)
        return fail(err, cap, "too long");
    snprintf(buf, sizeof buf, "%s", text);
    char *w[32];
    int nw = 0;
    for (char *s = strtok(buf, " "); s && nw < 32; s = strtok(NULL, " "))
        w[nw++] = s;
    if (nw < 2)
        return fail(err, cap, "need board and side");
    KdRefPos p;
    memset(&p, 0, sizeof p);
    p.ep = p.chain_sq = p.haste_sq = -1;
    p.fullmove = 1;
    int rank = 7, f = 0;
    for (const char *s = w[0]; *s; s++) {
        if (*s == '/') {
            if (f != 8)
                return fail(err, cap, "short rank");
            rank--;
            f = 0;
            continue;
        }
        if (rank < 0)
            return fail(err, cap, "too many ranks");
        if (isdigit((unsigned char)*s)) {
            for (int k = 0; k < *s - '0'; k++, f++)
                if (f < 8)
                    p.board[rank * 8 + f] = '.';
            continue;
        }
        if (!strchr("PNBRQKALGMEpnbrqkalgme", *s) || f >= 8)
            return fail(err, cap, "bad piece");
        p.board[rank * 8 + f++] = *s;
    }
    if (rank != 0 || f != 8)
        return fail(err, cap, "board shape");
    int kings[2] = {0, 0};
    for (int sq = 0; sq < 64; sq++)
        if (kind_of(&p, sq) == 'K')
            kings[owner(&p, sq)]++;
    if (kings[0] != 1 || kings[1] != 1)
        return fail(err, cap, "kings");
    if (strcmp(w[1], "w") && strcmp(w[1], "b"))
        return fail(err, cap, "side");
    p.turn = w[1][0] == 'b';
    int next = 2;
    if (nw > 2) {
        next = 3;
        for (const char *s = w[2]; strcmp(w[2], "-") && *s; s++) {
            const int c = isupper((unsigned char)*s) ? 0 : 1;
            const char u = (char)toupper((unsigned char)*s);
            const int base = c == 0 ? 0 : 56, k = king_square(&p, c);
            if (k / 8 != base / 8)
                return fail(err, cap, "castling king");
            int rook = -1;
            for (int fl = 0; fl < 8; fl++) {
                const int sq = base + fl;
                if (p.board[sq] != colour_letter(c, 'R'))
                    continue;
                if ((u == 'K' && sq > k) || (u == 'Q' && sq < k && rook < 0) || u == 'A' + fl)
                    rook = sq;
            }
            if (rook < 0)
                return fail(err, cap, "castling rook");
            if (r->castling)
                p.castle[rook] = true;
        }
    }
    int ep = -1;
    if (nw > 3) {
        next = 4;
        if (strcmp(w[3], "-") != 0) {
            ep = strlen(w[3]) == 2 ? read_sq(w[3]) : -1;
            const int behind = ep < 0 ? -1 : (p.turn == 0 ? ep - 8 : ep + 8);
            if (ep < 0 || (rank_of(ep) != (p.turn == 0 ? 5 : 2) && !r->march_ep) ||
                behind < 0 || behind > 63 || !empty(&p, ep) ||
                p.board[behind] != colour_letter(1 - p.turn, 'P'))
                return fail(err, cap, "ep");
        }
    }
    if (nw > 4 && !strchr(w[4], ':')) {
        if (nw < 6 || !read_int(w[4], 0, 65535, &p.halfmove) ||
            !read_int(w[5], 1, 65535, &p.fullmove))
            return fail(err, cap, "clocks");
        next = 6;
    }
    bool tokens_given = false;
    for (int i = next; i < nw; i++) {
        char *v = strchr(w[i], ':');
        if (!v)
            return fail(err, cap, "extra word");
        *v++ = '\0';
        const char *name = w[i];
        char *slash = strchr(v, '/');
        if (!strcmp(name, "moved")) {
            for (char *s = v; *s;) {
                const int sq = read_sq(s);
                if (sq < 0 || kind_of(&p, sq) != 'P' || rel_rank(owner(&p, sq), sq) != 1)
                    return fail(err, cap, "moved");
                p.moved[sq] = true;
                s += 2;
                if (*s == ',')
                    s++;
                else if (*s)
                    return fail(err, cap, "moved list");
            }
        } else if (!strcmp(name, "chain") && slash) {
            *slash = '\0';
            p.chain_sq = strlen(v) == 2 ? read_sq(v) : -1;
            if (p.chain_sq < 0 || p.board[p.chain_sq] != colour_letter(p.turn, 'E') ||
                !read_int(slash + 1, 1, r->chain_limit - 1, &p.chain_n))
                return fail(err, cap, "chain");
        } else if (!strcmp(name, "stage")) {
            if (!strcmp(v, "declared"))
                p.stage = 1;
            else if (!strcmp(v, "haste1"))
                p.stage = 2;
            else if (!strncmp(v, "haste2/", 7) && strlen(v) == 9 && read_sq(v + 7) >= 0 &&
                     mine(&p, read_sq(v + 7), p.turn)) {
                p.stage = 3;
                p.haste_sq = read_sq(v + 7);
            } else
                return fail(err, cap, "stage");
        } else if (!strcmp(name, "token") && !strcmp(v, "spent")) {
            p.token_used = true;
        } else if (!strcmp(name, "irrev") && !strcmp(v, "1")) {
            p.irrev = true;
        } else if (!r->armies) {
            return fail(err, cap, "armies are off");
        } else if ((!strcmp(name, "armies") || !strcmp(name, "powers")) && slash) {
            *slash = '\0';
            const bool a = name[0] == 'a';
            const int x = a ? find_name(ARMY_NAME, 7, v) : find_name(POWER_NAME, P_COUNT, v);
            const int y = a ? find_name(ARMY_NAME, 7, slash + 1)
                            : find_name(POWER_NAME, P_COUNT, slash + 1);
            if (x < 0 || y < 0)
                return fail(err, cap, "names");
            int *dst = a ? p.army : p.power;
            dst[0] = x;
            dst[1] = y;
        } else if (!strcmp(name, "tokens") && slash) {
            *slash = '\0';
            if (!read_int(v, 0, 7, &p.tokens[0]) || !read_int(slash + 1, 0, 7, &p.tokens[1]))
                return fail(err, cap, "tokens");
            tokens_given = true;
        } else if (!strcmp(name, "captured")) {
            for (const char *s = v; *s; s++) {
                const char u = (char)toupper((unsigned char)*s);
                if (!strchr("PNBRQALGME", u) || p.captured[isupper((unsigned char)*s) ? 0 : 1][u - 'A'] >= 15)
                    return fail(err, cap, "captured");
                p.captured[isupper((unsigned char)*s) ? 0 : 1][u - 'A']++;
            }
        } else if (!strcmp(name, "frozen") || !strcmp(name, "iced")) {
            bool *set = name[0] == 'f' ? p.frozen : p.iced;
            int count = 0;
            for (char *s = v; *s;) {
                const int sq = read_sq(s);
                if (sq < 0 || empty(&p, sq) || kind_of(&p, sq) == 'K')
                    return fail(err, cap, "frozen/iced");
                set[sq] = true;
                count++;
                s += 2;
                if (*s == ',')
                    s++;
                else if (*s)
                    return fail(err, cap, "frozen/iced list");
            }
            if (count > 1 && !r->tokens_any)
                return fail(err, cap, "several frozen/iced");
        } else {
            return fail(err, cap, "unknown word");
        }
    }
    if (!r->armies) {
        if (p.stage || p.token_used || any_square(p.frozen) || any_square(p.iced))
            return fail(err, cap, "powers without armies");
    } else {
        if (p.army[0] && p.army[0] == p.army[1])
            return fail(err, cap, "same king");
        const int one = r->first_picker, two = 1 - one;
        if ((!p.army[one] && (p.army[two] || p.power[0] || p.power[1])) ||
            (!p.army[two] && (p.power[0] || p.power[1])) || (!p.power[one] && p.power[two]))
            return fail(err, cap, "choice order");
        for (int c = 0; c < 2; c++) {
            if (p.power[c] && ARMY_POWERS[p.army[c]][0] != p.power[c] &&
                ARMY_POWERS[p.army[c]][1] != p.power[c])
                return fail(err, cap, "power of another king");
            if (!tokens_given)
                p.tokens[c] = POWER_TOKENS[p.power[c]];
            if (p.tokens[c] > POWER_TOKENS[p.power[c]])
                return fail(err, cap, "tokens");
        }
        if (!in_play(r, &p) && (p.stage || p.chain_sq >= 0 || any_square(p.frozen) || any_square(p.iced) ||
                                p.token_used))
            return fail(err, cap, "play before the choices");
        const int pw = p.power[p.turn];
        if ((p.stage == 1 && pw != P_FREEZE && pw != P_ICE) ||
            (p.stage >= 2 && pw != P_HASTE))
            return fail(err, cap, "stage without power");
        if (p.stage)
            p.token_used = true;
        for (int k = 0; k < 2; k++) {
            const bool *set = k == 0 ? p.frozen : p.iced;
            const int power = k == 0 ? P_FREEZE : P_ICE;
            const int holder = p.power[0] == power ? 0 : p.power[1] == power ? 1 : -1;
            for (int sq = 0; sq < 64; sq++)
                if (set[sq] && (holder < 0 || owner(&p, sq) != (k == 0 ? 1 - holder : holder)))
                    return fail(err, cap, "frozen/iced owner");
        }
    }
    if (ep >= 0 && r->en_passant && p.power[p.turn] != P_DARK) {
        /* kept only if a pawn of the side to move could take there */
        for (int df = -1; df <= 1; df += 2) {
            const int s = square(file_of(ep) + df, rank_of(ep) - ahead(p.turn));
            if (s >= 0 && p.board[s] == colour_letter(p.turn, 'P'))
                p.ep = ep;
        }
    }
    if (turn_start(&p, r) && in_check(&p, 1 - p.turn))
        return fail(err, cap, "side not to move in check");
    *out = p;
    return true;
}

/* --- rules by name ------------------------------------------------------------------------- */

bool kdref_rules(const char *const *settings, int n, KdRefRules *out, char *err, size_t cap)
{
    KdRefRules r = {false, false, true, false, false, true, true, true,
                    false, false, false, false, false, 99,   2000, 0};
    for (int i = 0; i < n; i++) {
        char name[64];
        const char *eq = strchr(settings[i], '=');
        if (!eq || (size_t)(eq - settings[i]) >= sizeof name)
            return fail(err, cap, "setting");
        snprintf(name, sizeof name, "%.*s", (int)(eq - settings[i]), settings[i]);
        const char *v = eq + 1;
        const bool on = !strcmp(v, "on");
        if (!strcmp(name, "castling"))
            r.castling = on;
        else if (!strcmp(name, "en-passant"))
            r.en_passant = on;
        else if (!strcmp(name, "promotion"))
            r.promo_all = !strcmp(v, "all");
        else if (!strcmp(name, "promotion-optional"))
            r.promo_optional = on;
        else if (!strcmp(name, "mate"))
            r.mate_literal = !strcmp(v, "literal");
        else if (!strcmp(name, "repetition"))
            r.repetition = on;
        else if (!strcmp(name, "fifty-moves"))
            r.fifty = on;
        else if (!strcmp(name, "bare-kings"))
            r.bare_kings = !strcmp(v, "draw");
        else if (!strcmp(name, "beast-chain"))
            r.chain_limit = !strcmp(v, "unlimited") ? 99 : !strcmp(v, "two") ? 2 : 1;
        else if (!strcmp(name, "armies"))
            r.armies = on;
        else if (!strcmp(name, "haste-check"))
            r.haste_each = !strcmp(v, "each");
        else if (!strcmp(name, "displaced-pawn"))
            r.displaced_unmoved = !strcmp(v, "unmoved");
        else if (!strcmp(name, "march-en-passant"))
            r.march_ep = on;
        else if (!strcmp(name, "tokens-per-turn"))
            r.tokens_any = !strcmp(v, "any");
        else if (!strcmp(name, "army-order"))
            r.first_picker = !strcmp(v, "black");
        else if (!strcmp(name, "max-plies"))
            r.max_plies = atoi(v);
        else if (strcmp(name, "setup") && strcmp(name, "notation") && strcmp(name, "king-file") &&
                 strcmp(name, "castling-rooks"))
            return fail(err, cap, "unknown rule");
    }
    *out = r;
    return true;
}

/* --- games --------------------------------------------------------------------------------- */

KdRefGame *kdref_new(const KdRefRules *r, const char *text, char *err, size_t cap)
{
    KdRefGame *g = calloc(1, sizeof *g);
    if (g == NULL)
        return NULL;
    g->hist = calloc(KDREF_MAX_HISTORY, sizeof *g->hist);
    if (g->hist == NULL || !kdref_parse(r, text, &g->pos, err, cap)) {
        kdref_free(g);
        return NULL;
    }
    g->rules = *r;
    if (turn_start(&g->pos, r))
        g->hist[g->nhist++] = g->pos;
    return g;
}

void kdref_free(KdRefGame *g)
{
    if (g) {
        free(g->hist);
        free(g);
    }
}

/* The position without its clocks, to compare for repetitions. */
static void key_of(const KdRefRules *r, const KdRefPos *p, char *out, size_t cap)
{
    KdRefPos q = *p;
    q.halfmove = 0;
    q.fullmove = 1;
    kdref_format(r, &q, out, cap);
}

static bool king_can_escape(const KdRefRules *r, const KdRefPos *p, const KdRefMove *m, int n)
{
    const int k = king_square(p, p->turn);
    for (int i = 0; i < n; i++) {
        if (m[i].kind != K_MOVE && m[i].kind != K_SWAP && m[i].kind != K_CASTLE)
            continue;
        KdRefPos q = *p;
        play(r, &q, m[i]);
        if (king_square(&q, p->turn) != k)
            return true;
    }
    return false;
}

static KdRefResult result_with(const KdRefGame *g, const KdRefMove *m, int n, const char **why)
{
    const KdRefPos *p = &g->pos;
    const KdRefRules *r = &g->rules;
    *why = "";
    if (!turn_start(p, r))
        return KDREF_ONGOING;
    const KdRefResult loss = p->turn == 0 ? KDREF_BLACK_WINS : KDREF_WHITE_WINS;
    const bool check = in_check(p, p->turn);
    if (n == 0) {
        *why = check ? "checkmate" : "stalemate";
        return check ? loss : KDREF_DRAW;
    }
    if (check && r->mate_literal && !king_can_escape(r, p, m, n)) {
        *why = "literal mate";
        return loss;
    }
    if (r->repetition && g->nhist > 0) {
        char now[KDREF_TEXT], then[KDREF_TEXT];
        key_of(r, p, now, sizeof now);
        int seen = 0;
        for (int j = g->nhist - 2; j >= 0 && g->nhist - 1 - j <= p->halfmove; j--) {
            key_of(r, &g->hist[j], then, sizeof then);
            seen += strcmp(now, then) == 0;
        }
        if (seen >= 2) {
            *why = "repetition";
            return KDREF_DRAW;
        }
    }
    if (r->fifty && p->halfmove >= 100) {
        *why = "fifty moves";
        return KDREF_DRAW;
    }
    bool bare = true;
    for (int sq = 0; sq < 64; sq++)
        if (!empty(p, sq) && kind_of(p, sq) != 'K')
            bare = false;
    if (r->bare_kings && bare) {
        *why = "bare kings";
        return KDREF_DRAW;
    }
    if (2 * (p->fullmove - 1) + p->turn >= r->max_plies) {
        *why = "ply limit";
        return KDREF_DRAW;
    }
    return KDREF_ONGOING;
}

KdRefResult kdref_result(const KdRefGame *g, const char **why)
{
    KdRefMove *m = calloc(KDREF_MAX_MOVES, sizeof *m);
    if (m == NULL)
        abort();
    const int n = kdref_position_moves(&g->rules, &g->pos, m);
    const KdRefResult res = result_with(g, m, n, why);
    free(m);
    return res;
}

int kdref_moves(const KdRefGame *g, KdRefMove *out)
{
    const int n = kdref_position_moves(&g->rules, &g->pos, out);
    const char *why;
    return result_with(g, out, n, &why) == KDREF_ONGOING ? n : 0;
}

void kdref_play(KdRefGame *g, KdRefMove m)
{
    play(&g->rules, &g->pos, m);
    if (turn_start(&g->pos, &g->rules) && g->nhist < KDREF_MAX_HISTORY)
        g->hist[g->nhist++] = g->pos;
}

void kdref_move_text(const KdRefPos *p, KdRefMove m, char out[KDREF_MOVE_TEXT])
{
    static const char *const WORD[] = {[K_FREEZE] = "freeze", [K_ICE] = "ice-wall",
                                       [K_STRIKE] = "strike", [K_HASTE] = "haste",
                                       [K_FLIGHT] = "flight", [K_SACRIFICE] = "sacrifice",
                                       [K_MARCH] = "march",   [K_LEAP] = "leap"};
    char a[3] = {(char)('a' + file_of(m.from)), (char)('1' + rank_of(m.from)), 0};
    char b[3] = {(char)('a' + file_of(m.to)), (char)('1' + rank_of(m.to)), 0};
    char promo[2] = {m.promo ? (char)tolower((unsigned char)m.promo) : 0, 0};
    switch (m.kind) {
    case K_PICK:
        if (p->army[0] == 0 || p->army[1] == 0)
            snprintf(out, KDREF_MOVE_TEXT, "%s", ARMY_NAME[m.to]);
        else
            snprintf(out, KDREF_MOVE_TEXT, "%s",
                     POWER_NAME[ARMY_POWERS[p->army[m.from]][m.to]]);
        return;
    case K_CASTLE: {
        // The king's own step (e1g1); O-O when it moves less than two squares.
        const int kdest = (m.from & 56) + (m.to > m.from ? 6 : 2);
        if (abs(kdest - m.from) >= 2)
            snprintf(out, KDREF_MOVE_TEXT, "%s%c%c", a, 'a' + file_of(kdest), '1' + rank_of(kdest));
        else
            snprintf(out, KDREF_MOVE_TEXT, "%s", m.to > m.from ? "O-O" : "O-O-O");
        return;
    }
    case K_FREEZE:
    case K_ICE:
        snprintf(out, KDREF_MOVE_TEXT, "%s:%s", WORD[m.kind], b);
        return;
    case K_HASTE:
        snprintf(out, KDREF_MOVE_TEXT, "haste");
        return;
    case K_SACRIFICE:
        snprintf(out, KDREF_MOVE_TEXT, "sacrifice:%s%s", a, promo);
        return;
    case K_STRIKE:
    case K_FLIGHT:
    case K_MARCH:
    case K_LEAP:
        snprintf(out, KDREF_MOVE_TEXT, "%s:%s%s%s", WORD[m.kind], a, b, promo);
        return;
    case K_SHOT:
        snprintf(out, KDREF_MOVE_TEXT, "%s*%s", a, b);
        return;
    case K_SWAP:
        snprintf(out, KDREF_MOVE_TEXT, "%s~%s%s", a, b, promo);
        return;
    default:
        snprintf(out, KDREF_MOVE_TEXT, "%s%s%s%s", a, b, promo, m.more ? "," : "");
        return;
    }
}

bool kdref_find(const KdRefGame *g, const char *text, KdRefMove *out)
{
    KdRefMove *m = calloc(KDREF_MAX_MOVES, sizeof *m);
    if (m == NULL)
        abort();
    const int n = kdref_moves(g, m);
    bool found = false;
    for (int i = 0; i < n && !found; i++) {
        char t[KDREF_MOVE_TEXT];
        kdref_move_text(&g->pos, m[i], t);
        // Castling by its name, too: O-O is the a-side's or the h-side's.
        const char *name = m[i].kind != K_CASTLE ? "" : m[i].to > m[i].from ? "O-O" : "O-O-O";
        if (strcmp(t, text) == 0 || strcmp(name, text) == 0) {
            *out = m[i];
            found = true;
        }
    }
    free(m);
    return found;
}

uint64_t kdref_perft(KdRefGame *g, int depth)
{
    if (depth == 0)
        return 1;
    KdRefMove *m = calloc(KDREF_MAX_MOVES, sizeof *m);
    if (m == NULL)
        abort();
    const int n = kdref_moves(g, m);
    uint64_t total = 0;
    if (depth == 1) {
        total = (uint64_t)n;
    } else {
        const KdRefPos keep = g->pos;
        const int nh = g->nhist;
        for (int i = 0; i < n; i++) {
            kdref_play(g, m[i]);
            total += kdref_perft(g, depth - 1);
            g->pos = keep;
            g->nhist = nh;
        }
    }
    free(m);
    return total;
}
