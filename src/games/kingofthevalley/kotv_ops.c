/*
 * kotv_ops.c - King of the Valley as a GameOps table: rule options, configuration (the
 * tile table and the player count) and thin adapters from the interface to kotv_*.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "games/kingofthevalley/kingofthevalley.h"
#include "games/kingofthevalley/kotv_internal.h"

static const RuleOption kotv_options[] = {
    {"players", "Players",
     "the number of players; the same as the player count the game is created with", "2", "2|3|4",
     0, 0, RULE_CHOICE, RULE_MAIN},
    {"tiles", "Tile table",
     "the component table: builtin, or a table file (docs/games/king-of-the-valley.md)", "builtin",
     NULL, 0, 0, RULE_FILE, RULE_ADVANCED},
    {"hill-refill", "Hill refill order",
     "the piles that refill the hill: I, then II, then III (R-KOTV-6), or the rulebook's "
     "literal I then III",
     "i-ii-iii", "i-ii-iii|i-iii", 0, 0, RULE_CHOICE, RULE_ADVANCED},
    {"short-column", "Short hill columns",
     "replenishing the valley from a hill column with too few tiles: only when neither column "
     "has enough (forbid), or always (allow)",
     "forbid", "forbid|allow", 0, 0, RULE_CHOICE, RULE_ADVANCED},
    {"jester-couples", "Jesters in couples",
     "jesters in the farmer and wife columns count for the couple bonus", "off", "off|on", 0, 0,
     RULE_CHOICE, RULE_ADVANCED},
    {"token-supply", "Token supply",
     "kingdom and tax tokens run out when the supply is used up, or never", "limited",
     "limited|unlimited", 0, 0, RULE_CHOICE, RULE_ADVANCED},
    {"old-holes", "Earlier empty squares",
     "replenishing the valley: squares left empty by earlier turns are filled after this "
     "turn's holes (after) or before them (first); among themselves from a1 to e5",
     "after", "after|first", 0, 0, RULE_CHOICE, RULE_ADVANCED},
    {"priest-coins", "Coins on a priest",
     "coins lying on a priest's square: taken before paying him, so they may pay him "
     "(before), or only after paying him from one's own gold (after)",
     "before", "before|after", 0, 0, RULE_CHOICE, RULE_ADVANCED},
    {"identical", "Identical tiles",
     "tiles taken in passing must show the same character, knights of any order and any "
     "tax collectors counting as identical (character), or be the very same tile (tile)",
     "character", "character|tile", 0, 0, RULE_CHOICE, RULE_ADVANCED},
    {"max-rounds", "Round limit", "safety net: the game ends and is scored after this many rounds",
     "100", NULL, 1, KOTV_MAX_ROUNDS_LIMIT, RULE_INTEGER, RULE_ADVANCED},
};

enum {
    IDX_PLACE = 0,
    IDX_PASS = IDX_PLACE + KOTV_CELLS,
    IDX_RECRUIT = IDX_PASS + 1,
    IDX_LEG = IDX_RECRUIT + KOTV_HILL_COLS * KOTV_HILL_ROWS,
    IDX_JESTER = IDX_LEG + KOTV_CELLS * KOTV_DIRS * KOTV_RAY * 16,
    IDX_SWAP = IDX_JESTER + KOTV_COLUMNS,
    IDX_TAX = IDX_SWAP + (KOTV_MAX_KINDS + KOTV_COLUMNS) * KOTV_HILL_COLS * KOTV_HILL_ROWS,
    IDX_KINGDOM = IDX_TAX + KOTV_COLUMNS,
    IDX_REFILL = IDX_KINGDOM + KOTV_COLUMNS,
    IDX_DRAW = IDX_REFILL + KOTV_HILL_COLS,
    IDX_COUNT = IDX_DRAW + KOTV_MAX_KINDS,
};

/* OpenSpiel's action ids (ops_action_index): move_index's layout, but with every choice
 * of the tiles a tax or a kingdom bonus turns face down told apart. A tax turns down
 * `req` tiles (at most KOTV_MAX_REQ) counted per slot; a kingdom bonus one slot in each
 * of its columns. */
enum {
    KOTV_MAX_REQ = 9, /* the tile table's bound on a tax collector's requirement */
    TAX_CHOICES = 2002, /* counts of KOTV_SLOTS slots summing to at most 9: C(9 + 5, 5) */
    KINGDOM_CHOICES = 3125, /* a slot (of KOTV_SLOTS) in each of KOTV_KINGDOM_COLS columns */
    AX_TAX = IDX_TAX,
    AX_KINGDOM = AX_TAX + KOTV_COLUMNS * TAX_CHOICES,
    AX_REFILL = AX_KINGDOM + KOTV_COLUMNS * KINGDOM_CHOICES,
    AX_DRAW = AX_REFILL + KOTV_HILL_COLS,
    AX_COUNT = AX_DRAW + KOTV_MAX_KINDS,
};
_Static_assert(KOTV_SLOTS == 5 && KOTV_KINGDOM_COLS == 5,
               "TAX_CHOICES and KINGDOM_CHOICES count five slots");

static Status kotv_configure(Game *g, ErrBuf *err)
{
    // The player count comes from game_create's argument or from the rule option. A
    // count other than the minimum was asked for explicitly: the option follows it
    // (and must not contradict it); otherwise the option sets the count.
    const int idx = game_option_index(g->ops, "players");
    const int opt = (int)game_option_long(g, "players", 2);
    if (g->players != g->ops->min_players) {
        if (opt != g->players && strcmp(g->values[idx], g->ops->options[idx].default_value) != 0)
            return err_set(err, STATUS_UNSUPPORTED, "the game is created for %d players but the "
                           "rule says players=%d", g->players, opt);
        snprintf(g->values[idx], sizeof g->values[idx], "%d", g->players);
    } else {
        g->players = opt;
    }
    KotvConfig *c = calloc(1, sizeof *c);
    if (c == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    c->players = g->players;
    const char *tiles = game_option(g, "tiles");
    Status st = strcmp(tiles, "builtin") == 0 ? kotv_tiles_default(c, err)
                                              : kotv_tiles_load(c, tiles, err);
    if (st != STATUS_OK) {
        free(c);
        // Leave the player count as it was given, so that a failed create changes nothing.
        return st;
    }
    snprintf(c->tiles_name, sizeof c->tiles_name, "%s", tiles);
    c->refill = game_option_is(g, "hill-refill", "i-iii") ? KOTV_REFILL_I_III : KOTV_REFILL_I_II_III;
    c->short_column_ok = game_option_is(g, "short-column", "allow");
    c->jester_couples = game_option_is(g, "jester-couples", "on");
    c->limited_tokens = game_option_is(g, "token-supply", "limited");
    c->old_holes_first = game_option_is(g, "old-holes", "first");
    c->priest_pay_first = game_option_is(g, "priest-coins", "after");
    c->identical_tiles = game_option_is(g, "identical", "tile");
    c->max_rounds = (int)game_option_long(g, "max-rounds", 100);
    kotv_build_geometry(c);
    kotv_obs_schema(c);
    g->config = c;
    g->observation = &c->obs;
    g->state_size = sizeof(KotvState);
    g->undo_size = sizeof(KotvState);
    g->move_index_count = IDX_COUNT;
    g->action_index_count = AX_COUNT;
    g->chance_index_count = AX_COUNT - AX_DRAW; /* the draws close the range */
    g->max_game_length = g->players + c->max_rounds * g->players * KOTV_ACTIONS_PER_TURN;
    return STATUS_OK;
}

static void kotv_release(Game *g)
{
    free(g->config);
    g->config = NULL;
}

static void ops_new_game(const Game *g, GameState *s, uint64_t seed)
{
    kotv_new_game(kotv_cfg(g), (KotvState *)s, seed);
}

static Status ops_parse_position(const Game *g, GameState *s, const char *text, ErrBuf *err)
{
    return kotv_parse_position(kotv_cfg(g), (KotvState *)s, text, err);
}

static void ops_format_position(const Game *g, const GameState *s, StrBuf *out)
{
    kotv_format_position(kotv_cfg(g), (const KotvState *)s, out);
}

static Status ops_parse_move(const Game *g, const GameState *s, const char *text, Move *out,
                             ErrBuf *err)
{
    return kotv_parse_move(kotv_cfg(g), (const KotvState *)s, text, out, err);
}

static void ops_format_move(const Game *g, const GameState *s, Move m, StrBuf *out)
{
    kotv_format_move(kotv_cfg(g), (const KotvState *)s, m, out);
}

static int ops_to_move(const Game *g, const GameState *s)
{
    (void)g;
    return kotv_to_move((const KotvState *)s);
}

static int ops_gen_moves(const Game *g, const GameState *s, MoveList *out)
{
    out->count = kotv_gen(kotv_cfg(g), (const KotvState *)s, out->moves);
    return out->count;
}

static void ops_make(const Game *g, GameState *s, Move m, void *undo)
{
    memcpy(undo, s, sizeof(KotvState));
    kotv_make(kotv_cfg(g), (KotvState *)s, m);
}

static void ops_unmake(const Game *g, GameState *s, Move m, const void *undo)
{
    (void)g;
    (void)m;
    memcpy(s, undo, sizeof(KotvState));
}

static void ops_returns(const Game *g, const GameState *s, double out[MAX_PLAYERS])
{
    kotv_returns(kotv_cfg(g), (const KotvState *)s, false, out);
}

static void ops_describe_result(const Game *g, const GameState *gs, StrBuf *out)
{
    const KotvConfig *c = kotv_cfg(g);
    const KotvState *s = (const KotvState *)gs;
    if (s->phase != KPH_OVER)
        return;
    sb_puts(out, s->end_triggered ? "the hill could not be refilled in full; reputation"
                                  : "max-rounds reached; reputation");
    for (int p = 0; p < s->players; p++)
        sb_printf(out, "%s %d", p ? "," : "", kotv_reputation(c, s, p));
    sb_puts(out, " (influence");
    for (int p = 0; p < s->players; p++)
        sb_printf(out, "%s %d", p ? "," : "", kotv_influence(c, s, p));
    sb_puts(out, ")");
}

/* The hill could not be refilled in full, or the last of max-rounds was played. */
static const char *const kotv_end_reasons[] = {"hill-empty", "max-rounds"};

static int ops_end_reason(const Game *g, const GameState *gs)
{
    (void)g;
    const KotvState *s = (const KotvState *)gs;
    if (s->phase != KPH_OVER)
        return -1;
    return s->end_triggered ? 0 : 1;
}

static uint64_t ops_hash(const Game *g, const GameState *s)
{
    (void)g;
    return ((const KotvState *)s)->hash;
}

static int ops_move_index(const Game *g, const GameState *s, Move m)
{
    (void)g;
    (void)s;
    const int a = kotv_marg(m);
    switch (kotv_mtype(m)) {
    case KMV_PLACE:
        return IDX_PLACE + a % KOTV_CELLS;
    case KMV_PASS:
        return IDX_PASS;
    case KMV_RECRUIT:
        return IDX_RECRUIT + kotv_recruit_hcol(m) * KOTV_HILL_ROWS + kotv_recruit_row(m) % 6;
    case KMV_LEG:
        return IDX_LEG + (((kotv_leg_from(m) % KOTV_CELLS) * KOTV_DIRS + kotv_leg_dir(m)) *
                              KOTV_RAY + (kotv_leg_dist(m) - 1) % KOTV_RAY) * 16 +
               kotv_leg_mask(m);
    case KMV_JESTER:
        return IDX_JESTER + a % KOTV_COLUMNS;
    case KMV_SWAP:
        return IDX_SWAP + (kotv_swap_code(m) % (KOTV_MAX_KINDS + KOTV_COLUMNS) * KOTV_HILL_COLS +
                           kotv_swap_hcol(m)) * KOTV_HILL_ROWS + kotv_swap_row(m) % 6;
    case KMV_TAX:
        return IDX_TAX + a % KOTV_COLUMNS;
    case KMV_KINGDOM:
        return IDX_KINGDOM + a % KOTV_COLUMNS;
    case KMV_REFILL:
        return IDX_REFILL + a % KOTV_HILL_COLS;
    default:
        return IDX_DRAW + a % KOTV_MAX_KINDS;
    }
}

/* Tuples of `parts` counts summing to at most `total`: C(total + parts, parts). */
static int count_tuples(int total, int parts)
{
    long n = 1;
    for (int i = 1; i <= parts; i++)
        n = n * (total + i) / i;
    return (int)n;
}

/* The rank of a tax's counts among all tuples of KOTV_SLOTS counts summing to at most
 * KOTV_MAX_REQ, in lexicographic order. */
static int tax_rank(Move m)
{
    int rank = 0, left = KOTV_MAX_REQ;
    for (int slot = 0; slot < KOTV_SLOTS; slot++) {
        const int count = kotv_tax_count(m, slot);
        for (int v = 0; v < count && v <= left; v++)
            rank += count_tuples(left - v, KOTV_SLOTS - 1 - slot);
        left -= count;
    }
    return rank;
}

static int ops_action_index(const Game *g, const GameState *s, Move m)
{
    const int col = kotv_marg(m) % KOTV_COLUMNS;
    switch (kotv_mtype(m)) {
    case KMV_TAX:
        return AX_TAX + col * TAX_CHOICES + tax_rank(m);
    case KMV_KINGDOM: {
        int choice = 0;
        for (int i = KOTV_KINGDOM_COLS - 1; i >= 0; i--)
            choice = choice * KOTV_SLOTS + kotv_kingdom_slot(m, i) % KOTV_SLOTS;
        return AX_KINGDOM + col * KINGDOM_CHOICES + choice;
    }
    case KMV_REFILL:
        return AX_REFILL + kotv_marg(m) % KOTV_HILL_COLS;
    case KMV_PLACE: case KMV_PASS: case KMV_RECRUIT: case KMV_LEG: case KMV_JESTER:
    case KMV_SWAP:
        return ops_move_index(g, s, m);
    default:
        return AX_DRAW + kotv_marg(m) % KOTV_MAX_KINDS;
    }
}

static bool ops_is_ok(const Game *g, const GameState *s, ErrBuf *err)
{
    return kotv_check(kotv_cfg(g), (const KotvState *)s, true, err);
}

static void ops_render(const Game *g, const GameState *s, unsigned flags, StrBuf *out)
{
    kotv_render(kotv_cfg(g), (const KotvState *)s, flags, out);
}

static int ops_chance_outcomes(const Game *g, const GameState *s, ChanceList *out)
{
    out->count = kotv_chance(kotv_cfg(g), (const KotvState *)s, out->outcomes, out->prob);
    return out->count;
}

/* Nothing to resample: the state holds no hidden information. The one secret of the
 * physical game, the order of the face-down piles, is not stored at all; each tile
 * drawn is a chance action over the pile's contents (which every player can count), so
 * a sample of the hidden order is exactly what chance_outcomes gives, one draw at a
 * time. */
static void ops_determinize(const Game *g, GameState *s, int observer, Rng *rng)
{
    (void)g;
    (void)s;
    (void)observer;
    (void)rng;
}

static void ops_format_view(const Game *g, const GameState *s, int observer, StrBuf *out)
{
    kotv_format_view(kotv_cfg(g), (const KotvState *)s, observer, out);
}

static void ops_playout(const Game *g, GameState *s, Rng *rng, double out[MAX_PLAYERS])
{
    kotv_playout(kotv_cfg(g), (KotvState *)s, false, rng);
    kotv_returns(kotv_cfg(g), (const KotvState *)s, false, out);
}

static void ops_guided_playout(const Game *g, GameState *s, Rng *rng, double out[MAX_PLAYERS])
{
    kotv_playout(kotv_cfg(g), (KotvState *)s, true, rng);
    kotv_returns(kotv_cfg(g), (const KotvState *)s, true, out);
}

/* Cells for click interfaces: a placement is its square; a summon leg is the king's
 * square, the tiles taken in passing, and where the king stops. Other actions (hill,
 * castle and phase choices) touch no valley cell. */
static void ops_move_cells(const Game *g, const GameState *s, Move m, StrBuf *out)
{
    (void)s;
    const KotvConfig *c = kotv_cfg(g);
    if (kotv_mtype(m) == KMV_PLACE) {
        kotv_format_square(kotv_marg(m), out);
    } else if (kotv_mtype(m) == KMV_LEG) {
        const int from = kotv_leg_from(m), d = kotv_leg_dir(m), mask = kotv_leg_mask(m);
        kotv_format_square(from, out);
        for (int i = 0; i < KOTV_RAY; i++)
            if ((mask >> i) & 1) {
                sb_putc(out, ' ');
                kotv_format_square(c->ray[d][from][i], out);
            }
        sb_putc(out, ' ');
        kotv_format_square(c->ray[d][from][kotv_leg_dist(m) - 1], out);
    }
}

static void ops_observe(const Game *g, const GameState *s, int observer, Observation *out)
{
    kotv_observe(kotv_cfg(g), (const KotvState *)s, observer, out);
}

static double ops_score(const Game *g, const GameState *s, int player)
{
    const KotvConfig *c = kotv_cfg(g);
    const KotvState *k = (const KotvState *)s;
    // Which face-up tiles a tax or kingdom turns down never changes the points; the
    // worth of those kept face up breaks the tie, so that a player maximising this
    // score (greedy) chooses them sensibly. It stays far below the influence's share,
    // and a finished game is scored by its points alone.
    double keep = 0;
    for (int col = 0; k->phase != KPH_OVER && col < KOTV_COLUMNS; col++)
        for (int slot = 0; slot < KOTV_SLOTS; slot++)
            keep += kotv_slot_up(c, &k->pl[player], col, slot) *
                    kotv_keep_worth(c, &k->pl[player], col, slot);
    return kotv_reputation(c, k, player) + 0.001 * kotv_influence(c, k, player) + 1e-6 * keep;
}

/* Every action but a leg of the summon (a move on the board) and chance's draw, in
 * players' words; KIND_OF gives an action type's place here. */
static const ActionKind kotv_action_kinds[] = {
    {"place", "Place the king", "your king starts on that valley tile"},
    {"pass", "Pass", "skip this phase: no recruit, or no kingdom bonus"},
    {"recruit", "Recruit", "buy the subject on that hill row for its price"},
    {"jester", "Jester", "the jester counts as one of them, but scores nothing"},
    {"swap", "Wizard", "swap that castle subject for the hill tile"},
    {"tax", "Tax", "turn face-up tiles of that column down for the collector's gold"},
    {"kingdom", "Kingdom", "turn a full court face down for 5 gold and a kingdom token"},
    {"refill", "Refill", "that hill column's bottom tiles fill the valley's holes"},
};
static const int8_t KIND_OF[KMV_DRAW + 1] = {
    [KMV_PLACE] = 0, [KMV_PASS] = 1,    [KMV_RECRUIT] = 2, [KMV_LEG] = -1, [KMV_JESTER] = 3,
    [KMV_SWAP] = 4,  [KMV_TAX] = 5,     [KMV_KINGDOM] = 6, [KMV_REFILL] = 7, [KMV_DRAW] = -1,
};

/* The castle columns as players say them, by the letters of kotv_column_letters. */
static const char *const column_words[KOTV_COLUMNS] = {
    "queens", "dukes", "countesses", "knights", "farmers", "farmers' wives",
};

/* Writes m's notation in text and returns what follows its first word ("L3" of
 * "recruit L3"): the action's labels and args are read from there, where the notation
 * writes each part as one word. */
static const char *notation_arg(const Game *g, const GameState *s, Move m, StrBuf *text)
{
    kotv_format_move(kotv_cfg(g), (const KotvState *)s, m, text);
    const char *arg = strchr(sb_str(text), ' ');
    return arg ? arg + 1 : "";
}

static int ops_action_kind(const Game *g, const GameState *s, Move m, StrBuf *label)
{
    const int type = kotv_mtype(m);
    if (type < KMV_PLACE || type > KMV_DRAW || KIND_OF[type] < 0)
        return -1;
    // The label names the action's own choice ("Recruit L3").
    StrBuf text;
    sb_init(&text);
    const char *arg = notation_arg(g, s, m, &text);
    const int col = kotv_column_of_letter(arg[0]);
    const char *column = col >= 0 && col < KOTV_COLUMNS ? column_words[col] : arg;
    switch (type) {
    case KMV_PLACE:
        sb_printf(label, "Place the king on %s", arg);
        break;
    case KMV_RECRUIT:
        sb_printf(label, "Recruit %s", arg);
        break;
    case KMV_REFILL:
        sb_printf(label, "Refill from %s", arg[0] == 'L' ? "the left" : "the right");
        break;
    case KMV_JESTER:
        sb_printf(label, "Jester to %s", column);
        break;
    case KMV_TAX:
        sb_printf(label, "Tax the %s", column);
        break;
    case KMV_KINGDOM:
        sb_printf(label, "Kingdom with a %s", arg[0] == 'W' ? "wife" : "farmer");
        break;
    case KMV_SWAP:
        sb_printf(label, "Wizard: %s", arg);
        break;
    default:
        break;
    }
    sb_free(&text);
    return KIND_OF[type];
}

/* The choice an action makes, for the page's drawing: the hill slot of a recruit or a
 * swap and the castle tile a swap gives, the column of a jester, tax, kingdom bonus or
 * refill and the tiles a tax or kingdom names, the square a king is placed on. */
static void ops_action_args(const Game *g, const GameState *s, Move m, StrBuf *out)
{
    const int type = kotv_mtype(m);
    if (type == KMV_LEG || type == KMV_PASS || type == KMV_DRAW)
        return;
    StrBuf text;
    sb_init(&text);
    const char *arg = notation_arg(g, s, m, &text);
    const char *second = strchr(arg, ' ');
    const char *names = strchr(arg, ':');
    switch (type) {
    case KMV_PLACE:
        sb_printf(out, "square=%s", arg);
        break;
    case KMV_RECRUIT:
        sb_printf(out, "slot=%s", arg);
        break;
    case KMV_SWAP:
        if (second)
            sb_printf(out, "give=%.*s slot=%s", (int)(second - arg), arg, second + 1);
        break;
    case KMV_JESTER:
    case KMV_REFILL:
        sb_printf(out, "column=%c", arg[0]);
        break;
    case KMV_TAX:
    case KMV_KINGDOM:
        sb_printf(out, "column=%c", arg[0]);
        if (names)
            sb_printf(out, " names=%s", names + 1);
        break;
    default:
        break;
    }
    sb_free(&text);
}

/* What the decision in hand asks, in the page's words (kotv_decision_name says it in
 * the notation's). */
static const char *ops_turn_help(const Game *g, const GameState *s)
{
    (void)g;
    const KotvState *k = (const KotvState *)s;
    if (k->pend_jester)
        return "Jester: choose the castle column it joins; it counts as that subject but "
               "scores nothing.";
    if (k->pend_wizard)
        return "Wizard: swap a face-up subject of your castle for a subject on the hill.";
    if (k->npend_tax)
        return "Tax collector: choose the column whose face-up tiles he turns down for his "
               "gold.";
    switch (k->phase) {
    case KPH_PLACE:
        return "Place your king: click a valley tile to start there.";
    case KPH_RECRUIT:
        return "Recruit: click a hill tile to buy it for the price of its row, or pass.";
    case KPH_SUMMON:
        return "Summon: click your king, then the tile it stops on (and takes), or beyond "
               "two or three identical tiles it passes.";
    case KPH_KINGDOM:
        return "Kingdom bonus: turn a full court face down for 5 gold and a kingdom token, or "
               "pass.";
    case KPH_REFILL:
        return "Refill: choose the hill column whose bottom tiles fill the valley.";
    default:
        return NULL;
    }
}

const GameOps kotv_ops = {
    .name = "king-of-the-valley",
    .title = "King of the Valley",
    .family = "king-of-the-valley",
    .action_kind = ops_action_kind,
    .action_kinds = kotv_action_kinds,
    .action_kind_count = (int)(sizeof kotv_action_kinds / sizeof kotv_action_kinds[0]),
    .turn_help = ops_turn_help,
    .action_args = ops_action_args,
    .bench_iterations = 2000,
    // Not fitted: its hints come from MCTS, whose mean return is the chance already.
    .chance_scale = 300.0,
    .summary = "King of the Valley: summon subjects from a 5x5 valley of tiles",
    .min_players = 2,
    .max_players = 4,
    .flags = GAME_HAS_CHANCE | GAME_ZERO_SUM | GAME_PUBLIC_ACTIONS,
    .options = kotv_options,
    .option_count = (int)(sizeof kotv_options / sizeof kotv_options[0]),
    .configure = kotv_configure,
    .release = kotv_release,
    GAME_OPS_COMMON_HOOKS,
    .action_index = ops_action_index,
    .chance_outcomes = ops_chance_outcomes,
    .determinize = ops_determinize,
    .format_view = ops_format_view,
    .playout = ops_playout,
    .guided_playout = ops_guided_playout,
    .score = ops_score,
    .end_reasons = kotv_end_reasons,
    .end_reason_count = (int)(sizeof kotv_end_reasons / sizeof kotv_end_reasons[0]),
    .measure = kotv_measure,
    .metrics = kotv_metrics,
    .metric_count = KOTV_METRIC_COUNT,
};
