/*
 * kotv_rules.c - King of the Valley: set-up, the decisions of each phase, the effect of
 * every action, the steps played without a choice (kotv_settle) and scoring.
 *
 * The four phases (docs/games/king-of-the-valley.md): recruit (from round 2), summon
 * (legs of the king's move; a leg onto a priest pays him and starts a new leg), the
 * kingdom bonus, then the hill column that replenishes the valley, after which chance
 * refills the hill.
 * Tiles obtained by a summon are resolved before phase 3 in a fixed order: jesters'
 * columns, wizard swaps, tax collectors' columns (the summon itself was only legal if
 * every obtained specialist can be served).
 */
#include <string.h>

#include "games/kingofthevalley/kotv_internal.h"

/* --- small queries ------------------------------------------------------------------ */

int kotv_face_up(const KotvPlayer *p, int col, const KotvConfig *c)
{
    int n = p->jup[col];
    for (int i = 0; i < c->col_nkinds[col]; i++)
        n += p->up[c->col_kind[col][i]];
    return n;
}

bool kotv_alike(const KotvConfig *c, int k1, int k2)
{
    return c->identical_tiles ? k1 == k2 : c->kind[k1].ch == c->kind[k2].ch;
}

int kotv_slot_up(const KotvConfig *c, const KotvPlayer *p, int col, int slot)
{
    if (slot == KOTV_SLOT_JESTER)
        return p->jup[col];
    return slot < c->col_nkinds[col] ? p->up[c->col_kind[col][slot]] : 0;
}

bool kotv_column_mixed(const KotvConfig *c, const KotvPlayer *p, int col)
{
    int kinds = 0;
    for (int slot = 0; slot < KOTV_SLOTS; slot++)
        kinds += kotv_slot_up(c, p, col, slot) > 0;
    return kinds > 1;
}

double kotv_keep_worth(const KotvConfig *c, const KotvPlayer *p, int col, int slot)
{
    if (slot == KOTV_SLOT_JESTER)
        return 1.0;
    if (slot >= c->col_nkinds[col])
        return 0;
    const int k = c->col_kind[col][slot];
    const int held = p->up[k] + p->down[k];
    return held > 0 ? 0.5 / held : 0.5;
}

double kotv_turned_worth(const KotvConfig *c, const KotvPlayer *p, Move m)
{
    double w = 0;
    if (kotv_mtype(m) == KMV_TAX) {
        for (int slot = 0; slot < KOTV_SLOTS; slot++)
            w += kotv_tax_count(m, slot) * kotv_keep_worth(c, p, kotv_marg(m), slot);
    } else if (kotv_mtype(m) == KMV_KINGDOM) {
        for (int i = 0; i < KOTV_KINGDOM_COLS; i++)
            w += kotv_keep_worth(c, p, kotv_kingdom_col(m, i), kotv_kingdom_slot(m, i));
    }
    return w;
}

static int face_up_total(const KotvConfig *c, const KotvPlayer *p)
{
    int n = 0;
    for (int col = 0; col < KOTV_COLUMNS; col++)
        n += kotv_face_up(p, col, c);
    return n;
}

static bool hill_has_subject(const KotvConfig *c, const KotvState *s)
{
    for (int h = 0; h < KOTV_HILL_COLS; h++)
        for (int r = 0; r < s->hill_n[h]; r++)
            if (kotv_char_is_subject(c->kind[kotv_kind_at(s->hill[h][r])].ch))
                return true;
    return false;
}

int kotv_crowns_taken(const KotvState *s)
{
    int n = 0;
    for (int p = 0; p < s->players; p++)
        n += s->pl[p].crowns;
    return n;
}

int kotv_tax_taken(const KotvState *s)
{
    int n = 0;
    for (int p = 0; p < s->players; p++)
        n += __builtin_popcount(s->pl[p].taxed);
    return n;
}

/* Squares holding another player's king. */
static uint32_t other_kings(const KotvState *s, int player)
{
    uint32_t m = 0;
    for (int p = 0; p < s->players; p++)
        if (p != player && s->pl[p].king != KOTV_NO_SQUARE)
            m |= 1u << s->pl[p].king;
    return m;
}

int kotv_current_stage(const KotvConfig *c, const KotvState *s)
{
    static const int ORDER[2][3] = {{0, 1, 2}, {0, 2, -1}};
    const int *order = ORDER[c->refill == KOTV_REFILL_I_III];
    for (int i = 0; i < 3 && order[i] >= 0; i++) {
        const int st = order[i];
        for (int k = 0; k < c->nkinds; k++)
            if (s->pile[st][k] > 0)
                return st;
    }
    return -1;
}

/* Can collectors needing reqs[0..n) each get a different column with enough face-up
 * subjects and no tax token? `used` marks columns already given. */
static bool tax_match(const int *free_up, const uint8_t *reqs, int n, unsigned used)
{
    if (n == 0)
        return true;
    for (int col = 0; col < KOTV_COLUMNS; col++) {
        if ((used >> col) & 1u || free_up[col] < reqs[0])
            continue;
        if (tax_match(free_up, reqs + 1, n - 1, used | (1u << col)))
            return true;
    }
    return false;
}

/* Face-up subjects per column, -1 for columns already taxed. */
static void tax_columns(const KotvConfig *c, const KotvPlayer *p, int free_up[KOTV_COLUMNS])
{
    for (int col = 0; col < KOTV_COLUMNS; col++)
        free_up[col] = (p->taxed >> col) & 1u ? -1 : kotv_face_up(p, col, c);
}

static bool tokens_left_for_tax(const KotvConfig *c, const KotvState *s, int n)
{
    return !c->limited_tokens || kotv_tax_taken(s) + n <= c->tax_supply;
}

/* Whether a summon obtaining these kinds (all of one character) can be served. */
static bool specialists_ok(const KotvConfig *c, const KotvState *s, const int *kinds, int n)
{
    const KotvPlayer *p = &s->pl[s->turn];
    const int ch = c->kind[kinds[0]].ch;
    if (ch == KCH_WIZARD)
        return face_up_total(c, p) > 0 && hill_has_subject(c, s);
    if (ch != KCH_TAX)
        return true;
    uint8_t reqs[KOTV_MAX_PEND_TAX] = {0, 0, 0};
    int m = 0;
    for (int i = 0; i < n; i++)
        if (c->kind[kinds[i]].req > 0)
            reqs[m++] = c->kind[kinds[i]].req;
    if (m == 0)
        return true;
    if (!tokens_left_for_tax(c, s, m))
        return false;
    int free_up[KOTV_COLUMNS];
    tax_columns(c, p, free_up);
    return tax_match(free_up, reqs, m, 0);
}

/* --- the decisions of each phase ---------------------------------------------------- */

static int gen_place(const KotvState *s, Move *out)
{
    const uint32_t others = other_kings(s, s->turn);
    int n = 0;
    for (int sq = 0; sq < KOTV_CELLS; sq++)
        if (s->valley[sq] != 0 && !((others >> sq) & 1u))
            out[n++] = kotv_simple(KMV_PLACE, sq);
    return n;
}

static int gen_recruit(const KotvConfig *c, const KotvState *s, Move *out)
{
    if (s->turns < s->players)
        return 0; // not in the first round
    const KotvPlayer *p = &s->pl[s->turn];
    int n = 1;
    for (int h = 0; h < KOTV_HILL_COLS; h++)
        for (int r = 0; r < s->hill_n[h]; r++)
            if (kotv_char_is_subject(c->kind[kotv_kind_at(s->hill[h][r])].ch) &&
                c->prices[r] <= p->gold)
                out[n++] = kotv_recruit(h, r);
    if (n == 1)
        return 0;
    out[0] = kotv_simple(KMV_PASS, 0);
    return n;
}

static int gen_summon(const KotvConfig *c, const KotvState *s, Move *out)
{
    const KotvPlayer *p = &s->pl[s->turn];
    const int from = p->king;
    if (from == KOTV_NO_SQUARE)
        return 0;
    const uint32_t others = other_kings(s, s->turn);
    const bool hop_room = s->nholes + 1 + KOTV_MAX_PEND_TAX <= KOTV_MAX_HOLES;
    int n = 0;
    for (int d = 0; d < KOTV_DIRS; d++) {
        const int len = c->ray_len[d][from];
        const int8_t *ray = c->ray[d][from];
        int kinds[KOTV_RAY]; // kind on each square of the ray, -1 if not takeable
        for (int i = 0; i < len; i++) {
            const int sq = ray[i];
            kinds[i] = (s->valley[sq] == 0 || ((others >> sq) & 1u)) ? -1 : kotv_kind_at(s->valley[sq]);
        }
        // Option A: stop on a tile and take it (a priest: pay him and go on).
        for (int i = 0; i < len; i++) {
            const int k = kinds[i];
            if (k < 0)
                continue;
            bool ok;
            if (c->kind[k].ch == KCH_PRIEST)
                ok = hop_room &&
                     p->gold + (c->priest_pay_first ? 0 : s->coins[ray[i]]) >= 1;
            else
                ok = specialists_ok(c, s, &k, 1);
            if (ok)
                out[n++] = kotv_leg(from, d, i + 1, 0);
        }
        // Option B: two or three identical characters passed, stopping just beyond.
        for (int i = 0; i < len; i++) {
            if (kinds[i] < 0 || c->kind[kinds[i]].ch == KCH_PRIEST)
                continue;
            for (int j = i + 1; j + 1 < len; j++) {
                if (kinds[j] < 0 || !kotv_alike(c, kinds[i], kinds[j]))
                    continue;
                int two[2] = {kinds[i], kinds[j]};
                if (specialists_ok(c, s, two, 2))
                    out[n++] = kotv_leg(from, d, j + 2, (1 << i) | (1 << j));
                for (int k = j + 1; k + 1 < len; k++) {
                    if (kinds[k] < 0 || !kotv_alike(c, kinds[i], kinds[k]))
                        continue;
                    int three[3] = {kinds[i], kinds[j], kinds[k]};
                    if (specialists_ok(c, s, three, 3))
                        out[n++] = kotv_leg(from, d, k + 2, (1 << i) | (1 << j) | (1 << k));
                }
            }
        }
    }
    return n;
}

static int gen_jester(Move *out)
{
    for (int col = 0; col < KOTV_COLUMNS; col++)
        out[col] = kotv_simple(KMV_JESTER, col);
    return KOTV_COLUMNS;
}

static int gen_wizard(const KotvConfig *c, const KotvState *s, Move *out)
{
    const KotvPlayer *p = &s->pl[s->turn];
    int codes[KOTV_MAX_KINDS + KOTV_COLUMNS], nc = 0;
    for (int k = 0; k < c->nkinds; k++)
        if (p->up[k] > 0)
            codes[nc++] = k;
    for (int col = 0; col < KOTV_COLUMNS; col++)
        if (p->jup[col] > 0)
            codes[nc++] = KOTV_MAX_KINDS + col;
    int n = 0;
    for (int i = 0; i < nc; i++)
        for (int h = 0; h < KOTV_HILL_COLS; h++)
            for (int r = 0; r < s->hill_n[h]; r++)
                if (kotv_char_is_subject(c->kind[kotv_kind_at(s->hill[h][r])].ch))
                    out[n++] = kotv_swap(codes[i], h, r);
    return n;
}

/* Appends a tax of column col for every way of turning `left` more face-up tiles down
 * from slots slot.. on, the counts so far in count[]. */
static int tax_choices(const KotvConfig *c, const KotvPlayer *p, int col, int slot, int left,
                       int count[KOTV_SLOTS], Move *out)
{
    if (slot == KOTV_SLOTS) {
        if (left > 0)
            return 0;
        out[0] = kotv_tax(col, count);
        return 1;
    }
    const int up = kotv_slot_up(c, p, col, slot);
    int n = 0;
    for (int k = up < left ? up : left; k >= 0; k--) {
        count[slot] = k;
        n += tax_choices(c, p, col, slot + 1, left - k, count, out + n);
    }
    count[slot] = 0;
    return n;
}

static int gen_tax(const KotvConfig *c, const KotvState *s, Move *out)
{
    const KotvPlayer *p = &s->pl[s->turn];
    int free_up[KOTV_COLUMNS];
    tax_columns(c, p, free_up);
    uint8_t rest[KOTV_MAX_PEND_TAX] = {0, 0, 0};
    for (int i = 1; i < s->npend_tax; i++)
        rest[i - 1] = c->kind[s->pend_tax[i]].req;
    const int req = c->kind[s->pend_tax[0]].req;
    int n = 0;
    for (int col = 0; col < KOTV_COLUMNS; col++)
        if (free_up[col] >= req && tax_match(free_up, rest, s->npend_tax - 1, 1u << col)) {
            int count[KOTV_SLOTS] = {0};
            n += tax_choices(c, p, col, 0, req, count, out + n);
        }
    return n;
}

/* Appends a kingdom bonus claimed with column col for every choice of one face-up tile
 * in each of its columns from entry i on. */
static int kingdom_choices(const KotvConfig *c, const KotvPlayer *p, int col, int i,
                           int slot[KOTV_KINGDOM_COLS], Move *out)
{
    if (i == KOTV_KINGDOM_COLS) {
        out[0] = kotv_kingdom(col, slot);
        return 1;
    }
    const int column = i < KOTV_KINGDOM_COLS - 1 ? i : col;
    int n = 0;
    for (int sl = 0; sl < KOTV_SLOTS; sl++)
        if (kotv_slot_up(c, p, column, sl) > 0) {
            slot[i] = sl;
            n += kingdom_choices(c, p, col, i + 1, slot, out + n);
        }
    return n;
}

static int gen_kingdom(const KotvConfig *c, const KotvState *s, Move *out)
{
    if (c->limited_tokens && kotv_crowns_taken(s) >= c->crown_supply)
        return 0;
    const KotvPlayer *p = &s->pl[s->turn];
    for (int col = KCH_QUEEN; col <= KCH_KNIGHT; col++)
        if (kotv_face_up(p, col, c) == 0)
            return 0;
    int n = 1;
    for (int col = KCH_FARMER; col <= KCH_WIFE; col++) {
        int slot[KOTV_KINGDOM_COLS] = {0};
        n += kingdom_choices(c, p, col, 0, slot, out + n);
    }
    if (n == 1)
        return 0;
    out[0] = kotv_simple(KMV_PASS, 0);
    return n;
}

static int empty_squares(const KotvState *s)
{
    int n = 0;
    for (int sq = 0; sq < KOTV_CELLS; sq++)
        n += s->valley[sq] == 0;
    return n;
}

static int gen_refill(const KotvConfig *c, const KotvState *s, Move *out)
{
    const int holes = empty_squares(s);
    if (holes == 0)
        return 0;
    bool enough = false;
    for (int h = 0; h < KOTV_HILL_COLS; h++)
        enough |= s->hill_n[h] >= holes;
    int n = 0;
    for (int h = 0; h < KOTV_HILL_COLS; h++)
        if (s->hill_n[h] > 0 && (c->short_column_ok || !enough || s->hill_n[h] >= holes))
            out[n++] = kotv_simple(KMV_REFILL, h);
    return n;
}

int kotv_gen(const KotvConfig *c, const KotvState *s, Move *out)
{
    if (s->phase == KPH_OVER || s->phase == KPH_DRAW)
        return 0;
    if (s->pend_jester > 0)
        return gen_jester(out);
    if (s->pend_wizard > 0)
        return gen_wizard(c, s, out);
    if (s->npend_tax > 0)
        return gen_tax(c, s, out);
    switch (s->phase) {
    case KPH_PLACE:
        return gen_place(s, out);
    case KPH_RECRUIT:
        return gen_recruit(c, s, out);
    case KPH_SUMMON:
        return gen_summon(c, s, out);
    case KPH_KINGDOM:
        return gen_kingdom(c, s, out);
    case KPH_REFILL:
        return gen_refill(c, s, out);
    default:
        return 0;
    }
}

int kotv_chance(const KotvConfig *c, const KotvState *s, Move *out, double *prob)
{
    if (s->phase != KPH_DRAW)
        return 0;
    const int st = kotv_current_stage(c, s);
    if (st < 0)
        return 0;
    int total = 0, n = 0;
    for (int k = 0; k < c->nkinds; k++)
        total += s->pile[st][k];
    for (int k = 0; k < c->nkinds; k++)
        if (s->pile[st][k] > 0) {
            out[n] = kotv_simple(KMV_DRAW, k);
            if (prob)
                prob[n] = (double)s->pile[st][k] / total;
            n++;
        }
    return n;
}

int kotv_to_move(const KotvState *s)
{
    if (s->phase == KPH_OVER)
        return PLAYER_NONE;
    if (s->phase == KPH_DRAW)
        return PLAYER_CHANCE;
    return s->turn;
}

/* --- effects ----------------------------------------------------------------------- */

static void hill_remove(KotvState *s, int h, int r)
{
    for (int i = r; i + 1 < s->hill_n[h]; i++)
        s->hill[h][i] = s->hill[h][i + 1];
    s->hill[h][--s->hill_n[h]] = 0;
}

/* A subject enters the castle face up; a jester waits for its column. */
static void castle_add(const KotvConfig *c, KotvState *s, int kind)
{
    if (kind == c->jester_kind)
        s->pend_jester++;
    else
        s->pl[s->turn].up[kind]++;
}

/* Turns k face-up tiles of one slot of column col face down. */
static void turn_down(const KotvConfig *c, KotvPlayer *p, int col, int slot, int k)
{
    if (slot == KOTV_SLOT_JESTER) {
        p->jup[col] = (uint8_t)(p->jup[col] - k);
        p->jdown[col] = (uint8_t)(p->jdown[col] + k);
    } else {
        const int kd = c->col_kind[col][slot];
        p->up[kd] = (uint8_t)(p->up[kd] - k);
        p->down[kd] = (uint8_t)(p->down[kd] + k);
    }
}

/* Takes the tile on sq into the player's hand: its coins, the hole, and the tile's
 * effect (castle, pending jester, wizard or tax collector). */
static void obtain(const KotvConfig *c, KotvState *s, int sq)
{
    KotvPlayer *p = &s->pl[s->turn];
    const int kind = kotv_kind_at(s->valley[sq]);
    p->gold = (uint16_t)(p->gold + s->coins[sq]);
    s->coins[sq] = 0;
    s->valley[sq] = 0;
    s->holes[s->nholes++] = (uint8_t)sq;
    const KotvKind *kd = &c->kind[kind];
    if (kotv_char_is_subject(kd->ch)) {
        castle_add(c, s, kind);
    } else if (kd->ch == KCH_WIZARD) {
        s->pend_wizard++;
    } else if (kd->ch == KCH_TAX) {
        if (kd->req == 0) {
            p->gold = (uint16_t)(p->gold + kd->gold);
        } else {
            int i = s->npend_tax++;
            while (i > 0 && s->pend_tax[i - 1] > kind) {
                s->pend_tax[i] = s->pend_tax[i - 1];
                i--;
            }
            s->pend_tax[i] = (uint8_t)kind;
        }
    }
}

static void apply_leg(const KotvConfig *c, KotvState *s, Move m)
{
    KotvPlayer *p = &s->pl[s->turn];
    const int from = kotv_leg_from(m), d = kotv_leg_dir(m), dist = kotv_leg_dist(m);
    const int mask = kotv_leg_mask(m);
    const int8_t *ray = c->ray[d][from];
    const int to = ray[dist - 1];
    if (mask == 0) {
        const int kind = kotv_kind_at(s->valley[to]);
        p->king = (uint8_t)to;
        if (c->kind[kind].ch == KCH_PRIEST) {
            // Pay the priest: his tile is discarded, the coin stays on his square.
            p->gold = (uint16_t)(p->gold + s->coins[to] - 1);
            s->coins[to] = 1;
            s->valley[to] = 0;
            s->holes[s->nholes++] = (uint8_t)to;
            return;
        }
        obtain(c, s, to);
    } else {
        for (int i = 0; i < KOTV_RAY; i++)
            if ((mask >> i) & 1)
                obtain(c, s, ray[i]);
        p->king = (uint8_t)to;
    }
    s->phase = KPH_KINGDOM;
}

static void apply_swap(const KotvConfig *c, KotvState *s, Move m)
{
    KotvPlayer *p = &s->pl[s->turn];
    const int code = kotv_swap_code(m), h = kotv_swap_hcol(m), r = kotv_swap_row(m);
    const int incoming = kotv_kind_at(s->hill[h][r]);
    if (code < KOTV_MAX_KINDS) {
        p->up[code]--;
        s->hill[h][r] = (uint8_t)(code + 1);
    } else {
        p->jup[code - KOTV_MAX_KINDS]--;
        s->hill[h][r] = (uint8_t)(c->jester_kind + 1);
    }
    castle_add(c, s, incoming);
    s->pend_wizard--;
}

/* The hill column h replenishes the valley: this turn's holes in the order the king
 * made them, and squares left empty by earlier turns (a short column) from a1 to e5,
 * after them or, with old-holes=first, before them. */
static void apply_refill(const KotvConfig *c, KotvState *s, int h)
{
    uint8_t order[KOTV_CELLS];
    int n = 0;
    uint32_t listed = 0;
    for (int i = 0; i < s->nholes; i++)
        listed |= 1u << s->holes[i];
    for (int pass = 0; pass < 2; pass++) {
        if ((pass == 0) != c->old_holes_first)
            for (int i = 0; i < s->nholes; i++)
                order[n++] = s->holes[i];
        else
            for (int sq = 0; sq < KOTV_CELLS; sq++)
                if (s->valley[sq] == 0 && !((listed >> sq) & 1u))
                    order[n++] = (uint8_t)sq;
    }
    for (int i = 0; i < n && s->hill_n[h] > 0; i++) {
        s->valley[order[i]] = s->hill[h][0];
        hill_remove(s, h, 0);
    }
    memset(s->holes, 0, sizeof s->holes);
    s->nholes = 0;
    s->phase = KPH_DRAW;
}

void kotv_apply(const KotvConfig *c, KotvState *s, Move m)
{
    KotvPlayer *p = &s->pl[s->turn];
    const int a = kotv_marg(m);
    switch (kotv_mtype(m)) {
    case KMV_PLACE: {
        p->king = (uint8_t)a;
        const int next = (s->turn + 1) % s->players;
        if (next == s->first) {
            s->phase = KPH_RECRUIT;
            s->turns = 0;
        }
        s->turn = (uint8_t)next;
        break;
    }
    case KMV_PASS:
        s->phase = s->phase == KPH_RECRUIT ? KPH_SUMMON : KPH_REFILL;
        break;
    case KMV_RECRUIT: {
        const int h = kotv_recruit_hcol(m), r = kotv_recruit_row(m);
        const int kind = kotv_kind_at(s->hill[h][r]);
        p->gold = (uint16_t)(p->gold - c->prices[r]);
        hill_remove(s, h, r);
        castle_add(c, s, kind);
        s->phase = KPH_SUMMON;
        break;
    }
    case KMV_LEG:
        apply_leg(c, s, m);
        break;
    case KMV_JESTER:
        p->jup[a]++;
        s->pend_jester--;
        break;
    case KMV_SWAP:
        apply_swap(c, s, m);
        break;
    case KMV_TAX: {
        const KotvKind *kd = &c->kind[s->pend_tax[0]];
        for (int slot = 0; slot < KOTV_SLOTS; slot++)
            turn_down(c, p, a, slot, kotv_tax_count(m, slot));
        p->gold = (uint16_t)(p->gold + kd->gold);
        p->taxed = (uint8_t)(p->taxed | (1u << a));
        for (int i = 1; i < s->npend_tax; i++)
            s->pend_tax[i - 1] = s->pend_tax[i];
        s->pend_tax[--s->npend_tax] = 0;
        break;
    }
    case KMV_KINGDOM:
        for (int i = 0; i < KOTV_KINGDOM_COLS; i++)
            turn_down(c, p, kotv_kingdom_col(m, i), kotv_kingdom_slot(m, i), 1);
        p->gold = (uint16_t)(p->gold + KOTV_KINGDOM_GOLD);
        p->crowns++;
        s->phase = KPH_REFILL;
        break;
    case KMV_REFILL:
        apply_refill(c, s, a);
        break;
    case KMV_DRAW: {
        const int st = kotv_current_stage(c, s);
        s->pile[st][a]--;
        const int h = s->hill_n[0] < KOTV_HILL_ROWS ? 0 : 1;
        s->hill[h][s->hill_n[h]++] = (uint8_t)(a + 1);
        break;
    }
    default:
        break;
    }
}

/* The turn is over: the next player's turn, or the end of the game. */
static void end_turn(const KotvConfig *c, KotvState *s)
{
    s->turns++;
    memset(s->holes, 0, sizeof s->holes);
    s->nholes = 0;
    const int next = (s->turn + 1) % s->players;
    s->turn = (uint8_t)next;
    if ((s->end_triggered && next == s->first) || s->turns >= c->max_rounds * s->players)
        s->phase = KPH_OVER;
    else
        s->phase = KPH_RECRUIT;
}

int kotv_settle(const KotvConfig *c, KotvState *s, Move *list)
{
    Move local[KOTV_MAX_MOVES];
    Move *buf = list != NULL ? list : local;
    for (;;) {
        if (s->phase == KPH_OVER)
            return 0;
        if (s->phase == KPH_DRAW) {
            if (s->hill_n[0] == KOTV_HILL_ROWS && s->hill_n[1] == KOTV_HILL_ROWS) {
                end_turn(c, s);
                continue;
            }
            const int st = kotv_current_stage(c, s);
            if (st < 0) {
                s->end_triggered = 1; // the hill cannot be refilled in full
                end_turn(c, s);
                continue;
            }
            int n = 0, only = -1;
            for (int k = 0; k < c->nkinds; k++)
                if (s->pile[st][k] > 0) {
                    n++;
                    only = k;
                }
            if (n == 1) {
                kotv_apply(c, s, kotv_simple(KMV_DRAW, only));
                continue;
            }
            return 0;
        }
        const int n = kotv_gen(c, s, buf);
        if (n == 1) {
            kotv_apply(c, s, buf[0]);
            continue;
        }
        if (n > 1)
            return n;
        // Nothing to choose: the phase is skipped.
        if (s->pend_jester || s->pend_wizard || s->npend_tax) {
            s->pend_jester = s->pend_wizard = 0; // cannot happen in play; never loop
            memset(s->pend_tax, 0, sizeof s->pend_tax);
            s->npend_tax = 0;
            continue;
        }
        switch (s->phase) {
        case KPH_PLACE: {
            // Parsed positions keep the valley full while kings are placed, so this
            // cannot happen; place on the first square without a king all the same.
            const uint32_t others = other_kings(s, s->turn);
            int sq = 0;
            while (sq < KOTV_CELLS - 1 && ((others >> sq) & 1u))
                sq++;
            kotv_apply(c, s, kotv_simple(KMV_PLACE, sq));
            break;
        }
        case KPH_RECRUIT:
            s->phase = KPH_SUMMON;
            break;
        case KPH_SUMMON:
            s->phase = KPH_KINGDOM;
            break;
        case KPH_KINGDOM:
            s->phase = KPH_REFILL;
            break;
        default:
            s->phase = KPH_DRAW;
            break;
        }
    }
}

uint64_t kotv_compute_hash(const KotvState *s)
{
    const unsigned char *b = (const unsigned char *)s + sizeof s->hash;
    const size_t n = sizeof *s - sizeof s->hash;
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (size_t i = 0; i < n; i += 8) {
        uint64_t w;
        memcpy(&w, b + i, 8);
        h ^= w;
        h *= 0xFF51AFD7ED558CCDULL;
        h ^= h >> 32;
    }
    h ^= h >> 29;
    h *= 0xC4CEB9FE1A85EC53ULL;
    h ^= h >> 32;
    return h;
}

void kotv_make(const KotvConfig *c, KotvState *s, Move m)
{
    kotv_apply(c, s, m);
    kotv_settle(c, s, NULL);
    s->hash = kotv_compute_hash(s);
}

/* --- set-up -------------------------------------------------------------------------- */

/* Deals one tile of pile `st` at random; returns its kind. The pile must not be empty. */
static int deal(const KotvConfig *c, KotvState *s, int st, Rng *rng)
{
    int total = 0;
    for (int k = 0; k < c->nkinds; k++)
        total += s->pile[st][k];
    int r = (int)rng_below(rng, (uint32_t)total);
    for (int k = 0; k < c->nkinds; k++) {
        if (r < s->pile[st][k]) {
            s->pile[st][k]--;
            return k;
        }
        r -= s->pile[st][k];
    }
    return -1;
}

void kotv_new_game(const KotvConfig *c, KotvState *s, uint64_t seed)
{
    memset(s, 0, sizeof *s);
    Rng rng;
    rng_seed(&rng, seed ^ 0x6B6F7476ULL);
    s->players = (uint8_t)c->players;
    memcpy(s->pile, c->stage_count, sizeof s->pile);
    // The valley from pile I, row by row; the hill from the rest of pile I, then pile II
    // (then III), row by row, left before right.
    for (int sq = 0; sq < KOTV_CELLS; sq++)
        s->valley[sq] = (uint8_t)(deal(c, s, 0, &rng) + 1);
    int st = 0;
    for (int slot = 0; slot < KOTV_HILL_COLS * KOTV_HILL_ROWS; slot++) {
        while (st < KOTV_STAGES) {
            int total = 0;
            for (int k = 0; k < c->nkinds; k++)
                total += s->pile[st][k];
            if (total > 0)
                break;
            st++;
        }
        const int h = slot % 2, r = slot / 2;
        s->hill[h][r] = (uint8_t)(deal(c, s, st, &rng) + 1);
        s->hill_n[h]++;
    }
    s->first = (uint8_t)rng_below(&rng, (uint32_t)c->players);
    s->turn = s->first;
    s->phase = KPH_PLACE;
    for (int p = 0; p < c->players; p++) {
        s->pl[p].gold = KOTV_START_GOLD;
        s->pl[p].king = KOTV_NO_SQUARE;
    }
    for (int p = c->players; p < MAX_PLAYERS; p++)
        s->pl[p].king = KOTV_NO_SQUARE;
    kotv_settle(c, s, NULL);
    s->hash = kotv_compute_hash(s);
}

/* --- scoring ------------------------------------------------------------------------- */

int kotv_influence(const KotvConfig *c, const KotvState *s, int player)
{
    const KotvPlayer *p = &s->pl[player];
    int n = 0;
    for (int k = 0; k < c->nkinds; k++)
        n += (p->up[k] + p->down[k]) * c->kind[k].influence;
    int jesters = 0;
    for (int col = 0; col < KOTV_COLUMNS; col++)
        jesters += p->jup[col] + p->jdown[col];
    return n + jesters * c->influence[KCH_JESTER];
}

int kotv_order_bonus(const KotvConfig *c, const KotvState *s, int player)
{
    static const int ORDER_BONUS[6] = {0, 0, 0, 3, 5, 8};
    const KotvPlayer *p = &s->pl[player];
    int score = 0;
    for (int o = 0; o < KOTV_ORDERS; o++) {
        const int k = c->knight_kind[o];
        if (k < 0)
            continue;
        const int held = p->up[k] + p->down[k];
        score += ORDER_BONUS[held > 5 ? 5 : held];
    }
    return score;
}

int kotv_couple_bonus(const KotvConfig *c, const KotvState *s, int player)
{
    const KotvPlayer *p = &s->pl[player];
    int couple[2] = {0, 0};
    for (int i = 0; i < 2; i++) {
        const int col = KCH_FARMER + i;
        for (int j = 0; j < c->col_nkinds[col]; j++)
            couple[i] += p->up[c->col_kind[col][j]] + p->down[c->col_kind[col][j]];
        if (c->jester_couples)
            couple[i] += p->jup[col] + p->jdown[col];
    }
    return 2 * (couple[0] < couple[1] ? couple[0] : couple[1]);
}

int kotv_reputation(const KotvConfig *c, const KotvState *s, int player)
{
    const KotvPlayer *p = &s->pl[player];
    return kotv_influence(c, s, player) + KOTV_KINGDOM_POINTS * p->crowns + p->gold +
           kotv_order_bonus(c, s, player) + kotv_couple_bonus(c, s, player);
}

void kotv_returns(const KotvConfig *c, const KotvState *s, bool margin, double out[MAX_PLAYERS])
{
    const int n = s->players;
    int rep[MAX_PLAYERS], inf[MAX_PLAYERS];
    double mean = 0;
    for (int p = 0; p < MAX_PLAYERS; p++)
        out[p] = 0;
    for (int p = 0; p < n; p++) {
        rep[p] = kotv_reputation(c, s, p);
        inf[p] = kotv_influence(c, s, p);
        mean += rep[p];
    }
    mean /= n;
    double spread = 20;
    for (int p = 0; p < n; p++) {
        const double d = rep[p] > mean ? rep[p] - mean : mean - rep[p];
        if (d > spread)
            spread = d;
    }
    for (int p = 0; p < n; p++) {
        int net = 0;
        for (int q = 0; q < n; q++) {
            if (q == p)
                continue;
            if (rep[p] > rep[q] || (rep[p] == rep[q] && inf[p] > inf[q]))
                net++;
            else if (rep[p] < rep[q] || (rep[p] == rep[q] && inf[p] < inf[q]))
                net--;
        }
        const double rank = (double)net / (n - 1);
        out[p] = margin ? 0.75 * rank + 0.25 * (rep[p] - mean) / spread : rank;
    }
}

/* --- consistency --------------------------------------------------------------------- */

bool kotv_check(const KotvConfig *c, const KotvState *s, bool full, ErrBuf *err)
{
#define FAIL(...) return err_set(err, STATUS_ILLEGAL, __VA_ARGS__), false
    if (s->players != c->players)
        FAIL("the state is for %d players, the game for %d", s->players, c->players);
    if (s->first >= s->players || s->turn >= s->players || s->phase >= KPH_COUNT)
        FAIL("bad starting player, player to move or phase");
    if (s->end_triggered > 1)
        FAIL("bad end flag");
    if (s->turns > c->max_rounds * s->players)
        FAIL("more turns than max-rounds allows");
    if (s->phase == KPH_PLACE && (s->turns != 0 || s->end_triggered))
        FAIL("turns played before the kings were placed");
    for (size_t i = 0; i < sizeof s->pad; i++)
        if (s->pad[i])
            FAIL("padding is not zero");
    int seen[KOTV_MAX_KINDS] = {0};
    for (int sq = 0; sq < KOTV_CELLS; sq++) {
        if (s->valley[sq] > c->nkinds)
            FAIL("bad tile on a valley square");
        if (s->valley[sq])
            seen[s->valley[sq] - 1]++;
    }
    for (int h = 0; h < KOTV_HILL_COLS; h++) {
        if (s->hill_n[h] > KOTV_HILL_ROWS)
            FAIL("hill column overfull");
        for (int r = 0; r < KOTV_HILL_ROWS; r++) {
            if ((r < s->hill_n[h]) != (s->hill[h][r] != 0) || s->hill[h][r] > c->nkinds)
                FAIL("hill column %d is not packed from the bottom", h + 1);
            if (s->hill[h][r])
                seen[s->hill[h][r] - 1]++;
        }
    }
    for (int st = 0; st < KOTV_STAGES; st++)
        for (int k = 0; k < KOTV_MAX_KINDS; k++) {
            if (s->pile[st][k] > (k < c->nkinds ? c->stage_count[st][k] : 0))
                FAIL("pile %d holds more tiles of a kind than the table", st + 1);
            seen[k] += s->pile[st][k];
        }
    uint32_t kings = 0;
    int placed = 0;
    for (int p = 0; p < MAX_PLAYERS; p++) {
        const KotvPlayer *pl = &s->pl[p];
        if (p >= s->players) {
            KotvPlayer blank;
            memset(&blank, 0, sizeof blank);
            blank.king = KOTV_NO_SQUARE;
            if (memcmp(pl, &blank, sizeof blank) != 0)
                FAIL("data for a player who does not play");
            continue;
        }
        if (pl->pad[0])
            FAIL("padding is not zero");
        if (pl->king != KOTV_NO_SQUARE) {
            if (pl->king >= KOTV_CELLS)
                FAIL("king %d off the valley", p + 1);
            if (s->phase == KPH_PLACE && ((kings >> pl->king) & 1u))
                FAIL("two kings placed on one square");
            kings |= 1u << pl->king;
            placed++;
        } else if (s->phase != KPH_PLACE) {
            FAIL("king %d was never placed", p + 1);
        }
        if (pl->taxed >> KOTV_COLUMNS)
            FAIL("bad tax tokens");
        for (int k = 0; k < KOTV_MAX_KINDS; k++) {
            const bool real = k < c->nkinds && c->kind_col[k] >= 0;
            if (!real && (pl->up[k] || pl->down[k]))
                FAIL("player %d's castle holds a tile that is not a subject", p + 1);
            seen[k] += pl->up[k] + pl->down[k];
        }
        for (int col = 0; col < KOTV_COLUMNS; col++) {
            if ((pl->jup[col] || pl->jdown[col]) && c->jester_kind < 0)
                FAIL("jester in a castle but none in the table");
            if (c->jester_kind >= 0)
                seen[c->jester_kind] += pl->jup[col] + pl->jdown[col];
        }
    }
    if (s->phase == KPH_PLACE) {
        const int expect = (s->turn - s->first + s->players) % s->players;
        if (placed != expect)
            FAIL("%d kings placed, but %d should be at this point", placed, expect);
    }
    if (s->pend_jester && c->jester_kind >= 0)
        seen[c->jester_kind] += s->pend_jester;
    for (int k = 0; k < c->nkinds; k++)
        if (seen[k] > c->kind_total[k])
            FAIL("%d tiles %s in play, the table has %d", seen[k], c->kind[k].code,
                 c->kind_total[k]);
    if (s->nholes > KOTV_MAX_HOLES)
        FAIL("too many holes");
    for (int i = 0; i < KOTV_MAX_HOLES; i++) {
        if (i >= s->nholes) {
            if (s->holes[i])
                FAIL("stale hole entry");
            continue;
        }
        if (s->holes[i] >= KOTV_CELLS || s->valley[s->holes[i]] != 0)
            FAIL("a hole of this turn is not an empty square");
        for (int j = 0; j < i; j++)
            if (s->holes[j] == s->holes[i])
                FAIL("a hole listed twice");
    }
    if (s->npend_tax > KOTV_MAX_PEND_TAX)
        FAIL("too many tax collectors pending");
    for (int i = 0; i < KOTV_MAX_PEND_TAX; i++) {
        if (i >= s->npend_tax) {
            if (s->pend_tax[i])
                FAIL("stale tax entry");
            continue;
        }
        if (s->pend_tax[i] >= c->nkinds || c->kind[s->pend_tax[i]].ch != KCH_TAX ||
            c->kind[s->pend_tax[i]].req == 0 || (i > 0 && s->pend_tax[i] < s->pend_tax[i - 1]))
            FAIL("bad pending tax collector");
    }
    if ((s->pend_jester || s->pend_wizard || s->npend_tax) &&
        s->phase != KPH_SUMMON && s->phase != KPH_KINGDOM)
        FAIL("tiles pending outside phases 2 and 3");
    if (c->limited_tokens &&
        (kotv_crowns_taken(s) > c->crown_supply || kotv_tax_taken(s) > c->tax_supply))
        FAIL("more tokens taken than the supply holds");
    if (!full)
        return true;
    KotvState t;
    memcpy(&t, s, sizeof t);
    kotv_settle(c, &t, NULL);
    t.hash = s->hash;
    if (memcmp(&t, s, sizeof t) != 0)
        FAIL("the state is not settled (a step without a choice is left to play)");
    if (s->hash != kotv_compute_hash(s))
        FAIL("stored hash differs from a fresh one");
    return true;
#undef FAIL
}
