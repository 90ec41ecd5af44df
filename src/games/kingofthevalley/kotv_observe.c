/*
 * kotv_observe.c - King of the Valley positions as observations (core/observation.h),
 * what the browser's table is drawn from.
 *
 * Zones: the valley (5x5 squares a1..e5: its tile, the priests' coins lying there, the
 * kings on top; terrain "hole" marks the squares emptied this turn), the hill (two
 * columns of six slots, L1..L6 and R1..R6, row 1 at the bottom) and one castle per
 * player ("castle-1".. : six columns Q D C N F W, row 0 face up, row 1 face down, named
 * "1Q+" and "1Q-"; each cell holds one piece per kind present there, its value the
 * number of such tiles; terrain "taxed" where the player's tax token lies).
 *
 * A tile's piece: its character (knights by order), value its influence for subjects,
 * need * 100 + gold for a tax collector. Counters: round, phase (an index into
 * kotv_phase_names), end (triggered), first (the starting seat), the three piles' sizes,
 * the tokens left in the supply (-1: unlimited); per player gold, kingdom tokens,
 * reputation and its parts: influence, the knight orders' and the couples' bonuses. Lists: what must be resolved now (jesters, wizards, tax
 * collectors), the hill's row prices (coins, value the price, bottom row first) and the
 * influence of every subject kind in the table. Nothing here is known to one player
 * only (the piles are counts), so every observer gets the same but for `observer`.
 */
#include "games/kingofthevalley/kotv_internal.h"

enum {
    KIND_QUEEN,
    KIND_DUKE,
    KIND_COUNTESS,
    KIND_KNIGHT, /* orders A..D: KIND_KNIGHT + order */
    KIND_FARMER = KIND_KNIGHT + KOTV_ORDERS,
    KIND_WIFE,
    KIND_JESTER,
    KIND_PRIEST,
    KIND_WIZARD,
    KIND_TAX,
    KIND_KING,
    KIND_COIN,
    KIND_COUNT
};
enum { TERRAIN_HOLE, TERRAIN_TAXED };
enum { ZONE_VALLEY, ZONE_HILL, ZONE_CASTLE };
enum {
    COUNTER_ROUND,
    COUNTER_PHASE,
    COUNTER_END,
    COUNTER_FIRST,
    COUNTER_PILE1,
    COUNTER_PILE2,
    COUNTER_PILE3,
    COUNTER_KINGDOM_TOKENS,
    COUNTER_TAX_TOKENS,
    COUNTER_GOLD,
    COUNTER_CROWNS,
    COUNTER_REPUTATION,
    COUNTER_INFLUENCE,
    COUNTER_ORDERS,
    COUNTER_COUPLES,
};
enum { LIST_PENDING, LIST_PRICES, LIST_INFLUENCE };

static const char *const CASTLE_ZONES[MAX_PLAYERS] = {"castle-1", "castle-2", "castle-3",
                                                      "castle-4"};

void kotv_obs_schema(KotvConfig *c)
{
    c->obs = (ObsSchema){
        .players = c->players,
        .max_stack = 2 + MAX_PLAYERS, /* a tile, its coins, every king */
        .zone_count = ZONE_CASTLE + c->players,
        .zones = {{"valley", OBS_SQUARE, KOTV_SIZE, KOTV_SIZE},
                  {"hill", OBS_SQUARE, KOTV_HILL_COLS, KOTV_HILL_ROWS}},
        .kind_count = KIND_COUNT,
        .kinds = {"queen", "duke", "countess", "knight-a", "knight-b", "knight-c", "knight-d",
                  "farmer", "wife", "jester", "priest", "wizard", "tax-collector", "king",
                  "coin"},
        .terrain_count = 2,
        .terrains = {"hole", "taxed"},
        .counter_count = COUNTER_COUPLES + 1,
        .counters = {{"round", false},
                     {"phase", false},
                     {"end", false},
                     {"first", false},
                     {"pile-1", false},
                     {"pile-2", false},
                     {"pile-3", false},
                     {"kingdom-tokens", false},
                     {"tax-tokens", false},
                     {"gold", true},
                     {"kingdom", true},
                     {"reputation", true},
                     {"influence", true},
                     {"orders", true},
                     {"couples", true}},
        .counter_values = {[COUNTER_PHASE] = {kotv_phase_names, KPH_COUNT}},
        .list_count = LIST_INFLUENCE + 1,
        .lists = {{"pending", false, KOTV_MAX_HOLES + KOTV_MAX_PEND_TAX, false},
                  {"prices", false, KOTV_HILL_ROWS, false},
                  {"influence", false, KOTV_MAX_KINDS, false}},
    };
    for (int p = 0; p < c->players; p++)
        c->obs.zones[ZONE_CASTLE + p] = (ObsZone){CASTLE_ZONES[p], OBS_SQUARE, KOTV_COLUMNS, 2};
}

static int kind_of(const KotvKind *kd)
{
    static const int BY_CHAR[KCH_COUNT] = {KIND_QUEEN,  KIND_DUKE,   KIND_COUNTESS,
                                           KIND_KNIGHT, KIND_FARMER, KIND_WIFE,
                                           KIND_JESTER, KIND_PRIEST, KIND_WIZARD,
                                           KIND_TAX};
    return BY_CHAR[kd->ch] + (kd->ch == KCH_KNIGHT ? kd->order : 0);
}

/* What a tile's piece carries: a subject's influence, a tax collector's need and gold. */
static int value_of(const KotvKind *kd)
{
    if (kd->ch == KCH_TAX)
        return kd->req * 100 + kd->gold;
    return kotv_char_is_subject(kd->ch) ? kd->influence : 0;
}

static void push_tile(const KotvConfig *c, ObsCell *cell, int kind)
{
    const KotvKind *kd = &c->kind[kind];
    obs_push(cell, kind_of(kd), OBS_OWNER_NONE, 0, value_of(kd));
}

static void observe_castle(const KotvConfig *c, const KotvPlayer *p, int seat, Observation *o)
{
    for (int face = 0; face < 2; face++)
        for (int col = 0; col < KOTV_COLUMNS; col++) {
            const char cell_name[] = {(char)('1' + seat), kotv_column_letters[col],
                                      face ? '-' : '+', '\0'};
            ObsCell *cell = obs_add_cell(o, ZONE_CASTLE + seat, col, face, cell_name);
            if (cell == NULL)
                return;
            if ((p->taxed >> col) & 1u)
                cell->terrain |= 1u << TERRAIN_TAXED;
            const uint8_t *real = face ? p->down : p->up;
            const unsigned flags = face ? OBS_FACE_DOWN : 0;
            for (int i = 0; i < c->col_nkinds[col]; i++) {
                const int k = c->col_kind[col][i];
                if (real[k])
                    obs_push(cell, kind_of(&c->kind[k]), seat, flags, real[k]);
            }
            const int jesters = face ? p->jdown[col] : p->jup[col];
            if (jesters)
                obs_push(cell, KIND_JESTER, seat, flags, jesters);
        }
}

void kotv_observe(const KotvConfig *c, const KotvState *s, int observer, Observation *o)
{
    const ObsSchema *sc = &c->obs;
    obs_begin(o, observer, kotv_to_move(s));
    StrBuf name;
    sb_init(&name);
    uint32_t holes = 0;
    for (int i = 0; i < s->nholes; i++)
        holes |= 1u << s->holes[i];
    for (int sq = 0; sq < KOTV_CELLS; sq++) {
        sb_clear(&name);
        kotv_format_square(sq, &name);
        ObsCell *cell = obs_add_cell(o, ZONE_VALLEY, sq % KOTV_SIZE, sq / KOTV_SIZE, sb_str(&name));
        if (cell == NULL)
            break;
        if ((holes >> sq) & 1u)
            cell->terrain |= 1u << TERRAIN_HOLE;
        if (s->valley[sq])
            push_tile(c, cell, kotv_kind_at(s->valley[sq]));
        if (s->coins[sq])
            obs_push(cell, KIND_COIN, OBS_OWNER_NONE, 0, s->coins[sq]);
        for (int p = 0; p < s->players; p++)
            if (s->pl[p].king == sq)
                obs_push(cell, KIND_KING, p, 0, 0);
    }
    sb_free(&name);
    for (int row = 0; row < KOTV_HILL_ROWS; row++)
        for (int h = 0; h < KOTV_HILL_COLS; h++) {
            const char slot[] = {h ? 'R' : 'L', (char)('1' + row), '\0'};
            ObsCell *cell = obs_add_cell(o, ZONE_HILL, h, row, slot);
            if (cell != NULL && row < s->hill_n[h])
                push_tile(c, cell, kotv_kind_at(s->hill[h][row]));
        }
    for (int p = 0; p < s->players; p++)
        observe_castle(c, &s->pl[p], p, o);

    int *ct = o->counters;
    ct[obs_counter_slot(sc, COUNTER_ROUND, 0)] =
        s->phase == KPH_PLACE ? 0 : s->turns / s->players + 1;
    ct[obs_counter_slot(sc, COUNTER_PHASE, 0)] = s->phase;
    ct[obs_counter_slot(sc, COUNTER_END, 0)] = s->end_triggered;
    ct[obs_counter_slot(sc, COUNTER_FIRST, 0)] = s->first;
    for (int st = 0; st < KOTV_STAGES; st++) {
        int total = 0;
        for (int k = 0; k < c->nkinds; k++)
            total += s->pile[st][k];
        ct[obs_counter_slot(sc, COUNTER_PILE1 + st, 0)] = total;
    }
    ct[obs_counter_slot(sc, COUNTER_KINGDOM_TOKENS, 0)] =
        c->limited_tokens ? c->crown_supply - kotv_crowns_taken(s) : -1;
    ct[obs_counter_slot(sc, COUNTER_TAX_TOKENS, 0)] =
        c->limited_tokens ? c->tax_supply - kotv_tax_taken(s) : -1;
    for (int p = 0; p < s->players; p++) {
        ct[obs_counter_slot(sc, COUNTER_GOLD, p)] = s->pl[p].gold;
        ct[obs_counter_slot(sc, COUNTER_CROWNS, p)] = s->pl[p].crowns;
        ct[obs_counter_slot(sc, COUNTER_REPUTATION, p)] = kotv_reputation(c, s, p);
        ct[obs_counter_slot(sc, COUNTER_INFLUENCE, p)] = kotv_influence(c, s, p);
        ct[obs_counter_slot(sc, COUNTER_ORDERS, p)] = kotv_order_bonus(c, s, p);
        ct[obs_counter_slot(sc, COUNTER_COUPLES, p)] = kotv_couple_bonus(c, s, p);
    }

    for (int i = 0; i < s->pend_jester; i++)
        obs_list_push(sc, o, LIST_PENDING, 0, KIND_JESTER, OBS_OWNER_NONE, 0, 0);
    for (int i = 0; i < s->pend_wizard; i++)
        obs_list_push(sc, o, LIST_PENDING, 0, KIND_WIZARD, OBS_OWNER_NONE, 0, 0);
    for (int i = 0; i < s->npend_tax; i++) {
        const KotvKind *kd = &c->kind[s->pend_tax[i]];
        obs_list_push(sc, o, LIST_PENDING, 0, kind_of(kd), OBS_OWNER_NONE, 0, value_of(kd));
    }
    for (int row = 0; row < KOTV_HILL_ROWS; row++)
        obs_list_push(sc, o, LIST_PRICES, 0, KIND_COIN, OBS_OWNER_NONE, 0, c->prices[row]);
    for (int k = 0; k < c->nkinds; k++)
        if (kotv_char_is_subject(c->kind[k].ch))
            obs_list_push(sc, o, LIST_INFLUENCE, 0, kind_of(&c->kind[k]), OBS_OWNER_NONE, 0,
                          c->kind[k].influence);
}
