/*
 * kd_eval.c - the King Down evaluation, in centipawns for the player to act.
 *
 * The static part: material (values for the five new pieces below), centralisation of
 * the short-range pieces, pawn structure (advance, central pawns, doubled, isolated and
 * passed pawns, tapered from middle game to end game by the pieces left), the bishop
 * pair, mobility (squares each piece can reach or take), king safety (enemy attacks on
 * the squares around the king, own shelter in front of it while the enemy still has
 * pieces; a central king once they are gone), and the tokens still in hand. The
 * static part alone is GameOps.evaluate_static, on which alpha-beta's own quiescence
 * search stands pat. The evaluate hook serves callers without a search (the web's draw
 * offers, tuning on quiet positions), so it ends in a short quiescence of its own: captures
 * only, best victim first, stand-pat cut-offs, at most QS_DEPTH actions deep (a beast
 * chain's links count one each, with no change of sign while the same player acts).
 *
 * Values, with the reasoning: the archer (300) captures safely at a distance on eight
 * squares but crawls one square at a time; the paladin (420) moves like a queen over its
 * own pieces but can neither check nor survive its capture, so it is a one-shot queen;
 * the guard (170) can never be taken but by a king and takes nothing: a wall that walks;
 * the maester (270) is a king-like piece that also repairs the position by swaps; the
 * beast (280) takes on seven neighbours and can sweep a cluster in one turn, but only
 * steps forward. These were the starting values; the evaluation's weights (material
 * included) now live in kd_weights.h, written by `crown tune`, while VALUE below stays the
 * fixed scale of the game phase, the capture order and kd_material.
 */
#include "games/kingdown/kd_internal.h"

enum {
    QS_DEPTH = 6,
    INF = 1000000,
    ENDGAME_MATERIAL = 1300, /* enemy pieces (not pawns) below this: the king may come out */
    PHASE_FULL = 6000,       /* pieces (not pawns) of both sides at or above: middle game */
};

/* The weights (kd_internal.h's KdWeight): centre_pawn is for a d or e pawn on its 4th or
 * 5th rank in the middle game; passed_mg_R and passed_eg_R the passed pawn bonus on rank R
 * as its owner sees it; pawn_advance_mg per rank advanced and pawn_advance_eg per square
 * of it; the king's terms are signed (a penalty is negative). */

const char *const kd_weight_names[KD_WEIGHT_COUNT] = {
#define WEIGHT(name, value) #name,
#include "games/kingdown/kd_weights.h"
#undef WEIGHT
};

const int kd_weight_defaults[KD_WEIGHT_COUNT] = {
#define WEIGHT(name, value) value,
#include "games/kingdown/kd_weights.h"
#undef WEIGHT
};

/* The weights as constants, for the search's copy of the evaluation. */
enum {
#define WEIGHT(name, value) KD_FIXED_##name = (value),
#include "games/kingdown/kd_weights.h"
#undef WEIGHT
};
static const int FIXED_VALUE[KD_TYPES] = {
    [KD_PAWN] = KD_FIXED_value_pawn,       [KD_KNIGHT] = KD_FIXED_value_knight,
    [KD_BISHOP] = KD_FIXED_value_bishop,   [KD_ROOK] = KD_FIXED_value_rook,
    [KD_QUEEN] = KD_FIXED_value_queen,     [KD_ARCHER] = KD_FIXED_value_archer,
    [KD_PALADIN] = KD_FIXED_value_paladin, [KD_GUARD] = KD_FIXED_value_guard,
    [KD_MAESTER] = KD_FIXED_value_maester, [KD_BEAST] = KD_FIXED_value_beast,
};
static const int FIXED_CENTRE[KD_TYPES] = {
    [KD_KNIGHT] = KD_FIXED_centre_knight,   [KD_BISHOP] = KD_FIXED_centre_bishop,
    [KD_ROOK] = KD_FIXED_centre_rook,       [KD_QUEEN] = KD_FIXED_centre_queen,
    [KD_ARCHER] = KD_FIXED_centre_archer,   [KD_PALADIN] = KD_FIXED_centre_paladin,
    [KD_GUARD] = KD_FIXED_centre_guard,     [KD_MAESTER] = KD_FIXED_centre_maester,
    [KD_BEAST] = KD_FIXED_centre_beast,
};
static const int FIXED_MOBILITY[KD_TYPES] = {
    [KD_KNIGHT] = KD_FIXED_mobility_knight,   [KD_BISHOP] = KD_FIXED_mobility_bishop,
    [KD_ROOK] = KD_FIXED_mobility_rook,       [KD_QUEEN] = KD_FIXED_mobility_queen,
    [KD_ARCHER] = KD_FIXED_mobility_archer,   [KD_PALADIN] = KD_FIXED_mobility_paladin,
    [KD_GUARD] = KD_FIXED_mobility_guard,     [KD_MAESTER] = KD_FIXED_mobility_maester,
    [KD_BEAST] = KD_FIXED_mobility_beast,
};
static const int FIXED_PASSED_mg[8] = {
    0, KD_FIXED_passed_mg_1, KD_FIXED_passed_mg_2, KD_FIXED_passed_mg_3,
    KD_FIXED_passed_mg_4, KD_FIXED_passed_mg_5, KD_FIXED_passed_mg_6, 0,
};
static const int FIXED_PASSED_eg[8] = {
    0, KD_FIXED_passed_eg_1, KD_FIXED_passed_eg_2, KD_FIXED_passed_eg_3,
    KD_FIXED_passed_eg_4, KD_FIXED_passed_eg_5, KD_FIXED_passed_eg_6, 0,
};

/* Each piece type's weights in the array (kings and pawns have none of these). */
static const unsigned char W_VALUE[KD_TYPES] = {
    [KD_PAWN] = KD_W_value_pawn,       [KD_KNIGHT] = KD_W_value_knight,
    [KD_BISHOP] = KD_W_value_bishop,   [KD_ROOK] = KD_W_value_rook,
    [KD_QUEEN] = KD_W_value_queen,     [KD_ARCHER] = KD_W_value_archer,
    [KD_PALADIN] = KD_W_value_paladin, [KD_GUARD] = KD_W_value_guard,
    [KD_MAESTER] = KD_W_value_maester, [KD_BEAST] = KD_W_value_beast,
};
static const unsigned char W_CENTRE[KD_TYPES] = {
    [KD_KNIGHT] = KD_W_centre_knight,   [KD_BISHOP] = KD_W_centre_bishop,
    [KD_ROOK] = KD_W_centre_rook,       [KD_QUEEN] = KD_W_centre_queen,
    [KD_ARCHER] = KD_W_centre_archer,   [KD_PALADIN] = KD_W_centre_paladin,
    [KD_GUARD] = KD_W_centre_guard,     [KD_MAESTER] = KD_W_centre_maester,
    [KD_BEAST] = KD_W_centre_beast,
};
static const unsigned char W_MOBILITY[KD_TYPES] = {
    [KD_KNIGHT] = KD_W_mobility_knight,   [KD_BISHOP] = KD_W_mobility_bishop,
    [KD_ROOK] = KD_W_mobility_rook,       [KD_QUEEN] = KD_W_mobility_queen,
    [KD_ARCHER] = KD_W_mobility_archer,   [KD_PALADIN] = KD_W_mobility_paladin,
    [KD_GUARD] = KD_W_mobility_guard,     [KD_MAESTER] = KD_W_mobility_maester,
    [KD_BEAST] = KD_W_mobility_beast,
};

static const int VALUE[KD_TYPES] = {
    [KD_PAWN] = 100,    [KD_KNIGHT] = 310,  [KD_BISHOP] = 330, [KD_ROOK] = 500,
    [KD_QUEEN] = 900,   [KD_ARCHER] = 300,  [KD_PALADIN] = 420, [KD_GUARD] = 170,
    [KD_MAESTER] = 270, [KD_BEAST] = 280,
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

/* The end-game weight, 0 (every piece on) .. 256 (only kings and pawns). */
static int endgame_weight(const KdPos *p)
{
    const uint64_t pieces = p->bb[KD_EMPTY] & ~(p->bb[KD_PAWN] | p->bb[KD_KING]);
    int sum = 0;
    for (uint64_t b = pieces; b;)
        sum += VALUE[kd_type_at(p, bits_pop(&b))];
    return sum >= PHASE_FULL ? 0 : 256 - sum * 256 / PHASE_FULL;
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

/* The evaluation proper, twice (kd_eval_terms.h): with the weights as constants for the
 * search, as fast as when they were written in, and reading them from an array for
 * tuning. */
#define KD_T(f) f##_fixed
#define KD_W(name) KD_FIXED_##name
#define KD_WTYPE(group, type) FIXED_##group[type]
#define KD_WPASSED(phase, adv) FIXED_PASSED_##phase[adv]
#include "games/kingdown/kd_eval_terms.h"

#define KD_T(f) f##_weighted
#define KD_W(name) w[KD_W_##name]
#define KD_WTYPE(group, type) w[W_##group[type]]
#define KD_WPASSED(phase, adv) \
    ((adv) >= 1 && (adv) <= 6 ? w[KD_W_passed_##phase##_1 + (adv)-1] : 0)
#include "games/kingdown/kd_eval_terms.h"

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

int kd_evaluate_weighted(const KdConfig *c, const KdPos *p, const int *weights)
{
    if (p->phase != KD_PHASE_PLAY)
        return 0;
    return qsearch_weighted(weights, c, p, -INF, INF, QS_DEPTH);
}

int kd_evaluate(const KdConfig *c, const KdPos *p)
{
    if (p->phase != KD_PHASE_PLAY)
        return 0;
    return qsearch_fixed(NULL, c, p, -INF, INF, QS_DEPTH);
}

int kd_evaluate_static(const KdConfig *c, const KdPos *p)
{
    if (p->phase != KD_PHASE_PLAY)
        return 0;
    return static_eval_fixed(NULL, c, p);
}
