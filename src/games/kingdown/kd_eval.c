/*
 * kd_eval.c - the King Down evaluation, in centipawns for the player to act.
 *
 * The static part: material (values for the five new pieces below), centralisation of
 * the short-range pieces, pawn structure (advance, central pawns, doubled, isolated and
 * passed pawns, tapered from middle game to end game by the pieces left), the bishop
 * pair, mobility (squares each piece can reach or take), king safety (enemy attacks on
 * the squares around the king, own shelter in front of it while the enemy still has
 * pieces; a central king once they are gone), and the tokens still in hand. The generic alpha-beta has no quiescence search, so the hook ends in a
 * short one of its own: captures only, best victim first, stand-pat cut-offs, at most
 * QS_DEPTH actions deep (a beast chain's links count one each, with no change of sign
 * while the same player acts).
 *
 * Values, with the reasoning: the archer (300) captures safely at a distance on eight
 * squares but crawls one square at a time; the paladin (420) moves like a queen over its
 * own pieces but can neither check nor survive its capture, so it is a one-shot queen;
 * the guard (170) can never be taken but by a king and takes nothing: a wall that walks;
 * the maester (270) is a king-like piece that also repairs the position by swaps; the
 * beast (280) takes on seven neighbours and can sweep a cluster in one turn, but only
 * steps forward.
 */
#include "games/kingdown/kd_internal.h"

enum {
    QS_DEPTH = 6,
    TEMPO = 10,
    TOKEN = 25,
    INF = 1000000,
    ENDGAME_MATERIAL = 1300, /* enemy pieces (not pawns) below this: the king may come out */
    PHASE_FULL = 6000,       /* pieces (not pawns) of both sides at or above: middle game */
    BISHOP_PAIR = 30,
    DOUBLED = 12,
    ISOLATED = 12,
    CENTRE_PAWN = 12,        /* a d or e pawn on its 4th or 5th rank, in the middle game */
};

/* Passed pawn bonus by rank as its owner sees it, middle and end game. */
static const int PASSED_MG[8] = {0, 5, 8, 12, 20, 35, 55, 0};
static const int PASSED_EG[8] = {0, 10, 15, 25, 45, 75, 120, 0};

static const int VALUE[KD_TYPES] = {
    [KD_PAWN] = 100,    [KD_KNIGHT] = 310,  [KD_BISHOP] = 330, [KD_ROOK] = 500,
    [KD_QUEEN] = 900,   [KD_ARCHER] = 300,  [KD_PALADIN] = 420, [KD_GUARD] = 170,
    [KD_MAESTER] = 270, [KD_BEAST] = 280,
};

/* Bonus per unit of centrality (0 on the rim .. 3 in the centre). */
static const int CENTRE[KD_TYPES] = {
    [KD_KNIGHT] = 6, [KD_BISHOP] = 3, [KD_QUEEN] = 1, [KD_ARCHER] = 6,
    [KD_PALADIN] = 2, [KD_GUARD] = 3, [KD_MAESTER] = 5, [KD_BEAST] = 5,
};

/* Per square a piece can reach or take. */
static const int MOBILITY[KD_TYPES] = {
    [KD_KNIGHT] = 4, [KD_BISHOP] = 4, [KD_ROOK] = 3, [KD_QUEEN] = 2,
    [KD_ARCHER] = 5, [KD_PALADIN] = 2, [KD_GUARD] = 1, [KD_MAESTER] = 2, [KD_BEAST] = 4,
};

static int centrality(int sq)
{
    const int f = kd_file(sq), r = kd_rank(sq);
    const int df = f < 4 ? f : 7 - f, dr = r < 4 ? r : 7 - r;
    return df < dr ? df : dr;
}

/* Squares the piece on sq reaches or takes (a rough count: the paladin as a queen). */
static uint64_t reach(const KdConfig *c, const KdPos *p, int sq, int type, int col)
{
    const uint64_t occ = p->bb[KD_EMPTY];
    switch (type) {
    case KD_KNIGHT:
        return c->knight[sq];
    case KD_BISHOP:
        return kd_bishop_att(c, sq, occ);
    case KD_ROOK:
        return kd_rook_att(c, sq, occ);
    case KD_QUEEN:
    case KD_PALADIN:
        return kd_bishop_att(c, sq, occ) | kd_rook_att(c, sq, occ);
    case KD_ARCHER:
        return c->wazir[sq] | c->archer[sq];
    case KD_GUARD:
    case KD_MAESTER:
        return c->king[sq];
    case KD_BEAST:
        return c->king[sq] & ~c->fwd[col][sq];
    default:
        return 0;
    }
}

static uint64_t file_bb(int f)
{
    return 0x0101010101010101ULL << f;
}

/* The squares ahead of sq for colour col on its file and the two beside it: where an
 * enemy pawn stops it or takes it on its way. */
static uint64_t passed_span(int col, int sq)
{
    const int f = kd_file(sq), r = kd_rank(sq);
    uint64_t files = file_bb(f);
    if (f > 0)
        files |= file_bb(f - 1);
    if (f < 7)
        files |= file_bb(f + 1);
    const uint64_t ahead = col == 0 ? (r < 7 ? ~0ULL << (8 * (r + 1)) : 0)
                                    : (r > 0 ? ~0ULL >> (8 * (8 - r)) : 0);
    return files & ahead;
}

/* One pawn's structure and advance; eg is the end-game weight, 0..256. */
static int pawn_score(const KdPos *p, int col, int sq, int eg)
{
    const uint64_t own = kd_pieces(p, col, KD_PAWN);
    const uint64_t theirs = kd_pieces(p, col ^ 1, KD_PAWN);
    const int f = kd_file(sq), adv = kd_rel_rank(col, sq);
    int mg_s = adv * 3, eg_s = adv * adv * 2;
    if ((f == 3 || f == 4) && (adv == 3 || adv == 4))
        mg_s += CENTRE_PAWN;
    if (own & file_bb(f) & ~kd_bit(sq))
        mg_s -= DOUBLED, eg_s -= DOUBLED;
    const uint64_t beside = (f > 0 ? file_bb(f - 1) : 0) | (f < 7 ? file_bb(f + 1) : 0);
    if ((own & beside) == 0)
        mg_s -= ISOLATED, eg_s -= ISOLATED;
    if ((theirs & passed_span(col, sq)) == 0)
        mg_s += PASSED_MG[adv], eg_s += PASSED_EG[adv];
    return (mg_s * (256 - eg) + eg_s * eg) / 256;
}

static int side_score(const KdConfig *c, const KdPos *p, int col, int eg, int *big_material)
{
    const uint64_t own = p->side[col];
    int score = 0, big = 0;
    if (bits_count(kd_pieces(p, col, KD_BISHOP)) >= 2)
        score += BISHOP_PAIR;
    for (uint64_t b = own & ~p->bb[KD_KING]; b;) {
        const int sq = bits_pop(&b);
        const int type = kd_type_at(p, sq);
        score += VALUE[type];
        if (type == KD_PAWN) {
            score += pawn_score(p, col, sq, eg);
            continue;
        }
        big += VALUE[type];
        score += CENTRE[type] * centrality(sq);
        score += MOBILITY[type] * bits_count(reach(c, p, sq, type, col) & ~own);
        if (type == KD_ROOK && kd_rel_rank(col, sq) == 6)
            score += 20;
    }
    *big_material = big;
    score += TOKEN * p->tokens[col];
    return score;
}

/* King safety: attacked squares around the king, shelter in front while it matters. */
static int king_score(const KdConfig *c, const KdPos *p, int col, int enemy_big)
{
    const int k = p->king[col];
    const int them = col ^ 1;
    if (enemy_big < ENDGAME_MATERIAL)
        return 8 * centrality(k);
    int score = -10 * centrality(k);
    if (kd_rel_rank(col, k) <= 1)
        score += 15;
    const uint64_t ring = c->king[k];
    const uint64_t shelter = ring & p->side[col] & (p->bb[KD_PAWN] | p->bb[KD_GUARD]);
    score += 10 * bits_count(shelter);
    int attacked = 0;
    for (uint64_t b = ring; b;) {
        const int sq = bits_pop(&b);
        attacked += kd_attackers(c, p, sq, them, p->bb[KD_EMPTY]) != 0;
    }
    score -= 12 * attacked;
    return score;
}

/* The end-game weight, 0 (every piece on) .. 256 (only kings and pawns). */
static int endgame_weight(const KdPos *p)
{
    const uint64_t pieces = p->bb[KD_EMPTY] & ~(p->bb[KD_PAWN] | p->bb[KD_KING]);
    int sum = 0;
    for (uint64_t b = pieces; b;)
        sum += VALUE[kd_type_at(p, bits_pop(&b))];
    return sum >= PHASE_FULL ? 0 : 256 - sum * 256 / PHASE_FULL;
}

static int static_eval(const KdConfig *c, const KdPos *p)
{
    int big[2];
    const int eg = endgame_weight(p);
    const int s0 = side_score(c, p, 0, eg, &big[0]);
    const int s1 = side_score(c, p, 1, eg, &big[1]);
    const int k0 = king_score(c, p, 0, big[1]);
    const int k1 = king_score(c, p, 1, big[0]);
    const int white = s0 + k0 - s1 - k1;
    return (p->turn == 0 ? white : -white) + TEMPO;
}

/* The value of what an action takes (0 for a quiet one). */
static int gain(const KdPos *p, Move m)
{
    const int kind = kd_kind(m), to = kd_to(m);
    if (kind == KD_MV_EP)
        return VALUE[KD_PAWN];
    if (kind != KD_MV_NORMAL && kind != KD_MV_SHOT && kind != KD_MV_STRIKE &&
        kind != KD_MV_LEAP)
        return 0;
    if (p->board[to] == KD_EMPTY || kd_colour_at(p, to) == p->turn)
        return 0;
    // A paladin falls with its victim.
    const bool falls = kind == KD_MV_NORMAL && kd_type_at(p, kd_from(m)) == KD_PALADIN;
    const int g = VALUE[kd_type_at(p, to)] - (falls ? VALUE[KD_PALADIN] : 0);
    return g > 0 ? g : 0;
}

static int qsearch(const KdConfig *c, const KdPos *p, int alpha, int beta, int depth)
{
    const int stand = static_eval(c, p);
    if (stand >= beta || depth == 0)
        return stand;
    if (stand > alpha)
        alpha = stand;
    Move moves[KD_MAX_MOVES];
    const int n = kd_gen_captures(c, p, moves);
    Move caps[KD_MAX_MOVES];
    int score[KD_MAX_MOVES];
    int nc = 0;
    for (int i = 0; i < n; i++) {
        const int g = gain(p, moves[i]);
        if (g == 0)
            continue;
        const int attacker = kd_kind(moves[i]) == KD_MV_SHOT ? 0 : VALUE[kd_type_at(p, kd_from(moves[i]))];
        caps[nc] = moves[i];
        score[nc++] = g * 16 - attacker / 16;
    }
    for (int i = 0; i < nc; i++) {
        // Selection sort as we go: the best victim first.
        int best = i;
        for (int j = i + 1; j < nc; j++)
            if (score[j] > score[best])
                best = j;
        const Move m = caps[best];
        caps[best] = caps[i];
        score[best] = score[i];
        KdPos q = *p;
        kd_apply(c, &q, m);
        const int v = q.turn == p->turn ? qsearch(c, &q, alpha, beta, depth - 1)
                                        : -qsearch(c, &q, -beta, -alpha, depth - 1);
        if (v >= beta)
            return v;
        if (v > alpha)
            alpha = v;
    }
    return alpha;
}

int kd_noisy(const KdPos *p, Move m)
{
    const int kind = kd_kind(m), from = kd_from(m), to = kd_to(m);
    int victim = 0;
    if (kind == KD_MV_EP)
        victim = VALUE[KD_PAWN];
    else if ((kind == KD_MV_NORMAL || kind == KD_MV_SHOT || kind == KD_MV_STRIKE ||
              kind == KD_MV_LEAP) &&
             p->board[to] != KD_EMPTY && kd_colour_at(p, to) != p->turn)
        victim = VALUE[kd_type_at(p, to)];
    const bool promotes = kind == KD_MV_NORMAL && kd_promo(m) != 0 &&
                          kd_type_at(p, from) == KD_PAWN;
    if (promotes)
        victim += VALUE[kd_promo(m)];
    if (victim == 0)
        return 0;
    // A shot leaves its archer where it stands: no attacker at risk.
    const int attacker = kind == KD_MV_SHOT ? 0 : VALUE[kd_type_at(p, from)];
    return victim * 16 + (1000 - attacker) / 16;
}

int kd_material(const KdPos *p, int colour)
{
    int sum = 0;
    for (int t = KD_PAWN; t < KD_TYPES; t++)
        sum += VALUE[t] * bits_count(p->bb[t] & p->side[colour]);
    return sum;
}

int kd_evaluate(const KdConfig *c, const KdPos *p)
{
    if (p->phase != KD_PHASE_PLAY)
        return 0;
    return qsearch(c, p, -INF, INF, QS_DEPTH);
}
