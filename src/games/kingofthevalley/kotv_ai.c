/*
 * kotv_ai.c - random games for MCTS: uniformly random actions (the playout hook, the
 * distribution of the interface's generic loop), or a heuristic policy (the
 * guided_playout hook, which the "ai" agent's ISMCTS uses) that plays what a sensible
 * player would most of the time.
 *
 * The policy scores every option of a decision without playing it, from the tiles it
 * gains or gives up and what they are worth to this player now (influence, the knight
 * order and couple bonuses they complete, progress towards a kingdom, gold), then takes
 * the best option with probability 1 - EPSILON and a uniformly random one otherwise, so
 * that playouts stay varied. Non-spatial choices get their own rules of thumb: a jester
 * goes where a kingdom misses a subject, a tax collector taxes the column that can best
 * spare its tiles, a wizard swaps the least useful face-up subject for the best one on
 * the hill, a kingdom is always claimed, recruiting happens when the subject is worth
 * its price.
 */
#include <string.h>

#include "games/kingofthevalley/kotv_internal.h"

enum { EPSILON_PERCENT = 20 };

static const int ORDER_BONUS[7] = {0, 0, 0, 3, 5, 8, 8};

static Move sample_draw(const KotvConfig *c, const KotvState *s, Rng *rng)
{
    const int st = kotv_current_stage(c, s);
    int total = 0;
    for (int k = 0; k < c->nkinds; k++)
        total += s->pile[st][k];
    int r = (int)rng_below(rng, (uint32_t)total);
    for (int k = 0; k < c->nkinds; k++) {
        if (r < s->pile[st][k])
            return kotv_simple(KMV_DRAW, k);
        r -= s->pile[st][k];
    }
    return kotv_simple(KMV_DRAW, 0);
}

static int held(const KotvPlayer *p, int kind)
{
    return p->up[kind] + p->down[kind];
}

static int column_total(const KotvConfig *c, const KotvPlayer *p, int col)
{
    int n = p->jup[col] + p->jdown[col];
    for (int i = 0; i < c->col_nkinds[col]; i++)
        n += held(p, c->col_kind[col][i]);
    return n;
}

/* The kingdom columns (Q D C N and F-or-W) without a face-up subject: a bit mask. */
static unsigned kingdom_missing(const KotvConfig *c, const KotvPlayer *p)
{
    unsigned m = 0;
    for (int col = KCH_QUEEN; col <= KCH_KNIGHT; col++)
        if (kotv_face_up(p, col, c) == 0)
            m |= 1u << col;
    if (kotv_face_up(p, KCH_FARMER, c) == 0 && kotv_face_up(p, KCH_WIFE, c) == 0)
        m |= 1u << KCH_FARMER | 1u << KCH_WIFE;
    return m;
}

/* What one more tile of `kind` is worth to the player, in points (roughly). */
static double tile_value(const KotvConfig *c, const KotvState *s, const KotvPlayer *p, int kind)
{
    const KotvKind *kd = &c->kind[kind];
    switch (kd->ch) {
    case KCH_PRIEST:
        return 0.3;
    case KCH_WIZARD:
        return 2.0;
    case KCH_TAX:
        return kd->req == 0 ? kd->gold : 0.8 * kd->gold;
    case KCH_JESTER:
        return kingdom_missing(c, p) ? 2.5 : 0.5;
    default:
        break;
    }
    double v = kd->influence;
    if (kd->ch == KCH_KNIGHT) {
        const int n = held(p, kind);
        v += ORDER_BONUS[n + 1 > 6 ? 6 : n + 1] - ORDER_BONUS[n > 6 ? 6 : n];
    } else if (kd->ch == KCH_FARMER || kd->ch == KCH_WIFE) {
        const int mine = column_total(c, p, kd->ch), other = column_total(c, p, kd->ch ^ 1);
        if (mine < other)
            v += 2;
    }
    const bool crowns_left = !c->limited_tokens || kotv_crowns_taken(s) < c->crown_supply;
    if (crowns_left && ((kingdom_missing(c, p) >> kd->ch) & 1u))
        v += 2.0;
    return v;
}

/* The value of a face-up castle tile given away by a wizard (castle code of a swap). */
static double castle_value(const KotvConfig *c, const KotvState *s, const KotvPlayer *p, int code)
{
    if (code >= KOTV_MAX_KINDS)
        return 0.5;
    const KotvKind *kd = &c->kind[code];
    double v = kd->influence;
    if (kd->ch == KCH_KNIGHT) {
        const int n = held(p, code);
        v += ORDER_BONUS[n > 6 ? 6 : n] - ORDER_BONUS[n - 1 > 6 ? 6 : n - 1];
    }
    if (kotv_face_up(p, kd->ch, c) == 1 && kd->ch <= KCH_KNIGHT)
        v += 2.0; // the last face-up subject of a kingdom column
    (void)s;
    return v;
}

static double leg_value(const KotvConfig *c, const KotvState *s, const KotvPlayer *p, Move m)
{
    const int from = kotv_leg_from(m), d = kotv_leg_dir(m), dist = kotv_leg_dist(m);
    const int mask = kotv_leg_mask(m);
    const int8_t *ray = c->ray[d][from];
    double v = 0;
    for (int i = 0; i < dist; i++) {
        const bool taken = mask ? (mask >> i) & 1 : i == dist - 1;
        if (!taken)
            continue;
        const int sq = ray[i];
        const int kind = kotv_kind_at(s->valley[sq]);
        if (c->kind[kind].ch == KCH_PRIEST)
            v += s->coins[sq] - 1 + 0.3;
        else
            v += tile_value(c, s, p, kind) + s->coins[sq];
    }
    return v;
}

static double option_value(const KotvConfig *c, const KotvState *s, Move m)
{
    const KotvPlayer *p = &s->pl[s->turn];
    const int a = kotv_marg(m);
    switch (kotv_mtype(m)) {
    case KMV_PLACE: {
        // Near the centre: more lines to move along.
        const int f = a % KOTV_SIZE, r = a / KOTV_SIZE;
        return -((f - 2) * (f - 2) + (r - 2) * (r - 2)) * 0.1;
    }
    case KMV_PASS:
        return s->phase == KPH_KINGDOM ? -10 : 0;
    case KMV_RECRUIT: {
        const int kind = kotv_kind_at(s->hill[kotv_recruit_hcol(m)][kotv_recruit_row(m)]);
        return tile_value(c, s, p, kind) - c->prices[kotv_recruit_row(m)];
    }
    case KMV_LEG:
        return leg_value(c, s, p, m);
    case KMV_JESTER: {
        const unsigned missing = kingdom_missing(c, p);
        double v = (missing >> a) & 1u ? 3.0 : 0;
        if (!((p->taxed >> a) & 1u))
            v += 0.2 * kotv_face_up(p, a, c);
        return v;
    }
    case KMV_SWAP: {
        const int incoming = kotv_kind_at(s->hill[kotv_swap_hcol(m)][kotv_swap_row(m)]);
        return tile_value(c, s, p, incoming) - castle_value(c, s, p, kotv_swap_code(m));
    }
    case KMV_TAX: {
        // Spare the columns a kingdom still needs face up.
        const int left = kotv_face_up(p, a, c) - c->kind[s->pend_tax[0]].req;
        // Among the ways to pay, keep face up what is worth most (kotv_keep_worth).
        return (a <= KCH_WIFE && left <= 0 ? -2.0 + 0.1 * a : 0.1 * left) -
               0.01 * kotv_turned_worth(c, p, m);
    }
    case KMV_KINGDOM:
        return 10 + 0.1 * kotv_face_up(p, a, c) - 0.01 * kotv_turned_worth(c, p, m);
    default:
        return 0;
    }
}

Move kotv_heuristic_choice(const KotvConfig *c, const KotvState *s, const Move *moves, int n,
                           Rng *rng)
{
    if (n == 1 || rng_below(rng, 100) < EPSILON_PERCENT)
        return moves[rng_below(rng, (uint32_t)n)];
    double best = -1e18;
    int ties = 0;
    Move pick = moves[0];
    for (int i = 0; i < n; i++) {
        const double v = option_value(c, s, moves[i]);
        if (v > best + 1e-9) {
            best = v;
            ties = 1;
            pick = moves[i];
        } else if (v > best - 1e-9 && rng_below(rng, (uint32_t)++ties) == 0) {
            pick = moves[i];
        }
    }
    return pick;
}

void kotv_playout(const KotvConfig *c, KotvState *s, bool heuristic, Rng *rng)
{
    Move list[KOTV_MAX_MOVES];
    int n = kotv_gen(c, s, list);
    while (s->phase != KPH_OVER) {
        Move m;
        if (s->phase == KPH_DRAW)
            m = sample_draw(c, s, rng);
        else if (heuristic)
            m = kotv_heuristic_choice(c, s, list, n, rng);
        else
            m = list[rng_below(rng, (uint32_t)n)];
        kotv_apply(c, s, m);
        n = kotv_settle(c, s, list);
    }
    s->hash = kotv_compute_hash(s);
}
