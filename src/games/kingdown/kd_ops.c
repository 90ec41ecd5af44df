/*
 * kd_ops.c - King Down Classic as a GameOps table: its rule options, the configuration
 * they build, and thin adapters from the interface to kd_*.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "games/kingdown/kd_internal.h"
#include "games/kingdown/kingdown.h"

/* The rules a player may set: a data table, its rows alike by design. */
static const RuleOption kd_options[] = {
    {"setup", "Starting position",
     "the back rank: random (drawn from the 16-piece pool with the game's seed), classic "
     "(RNBQKBNR), a set-up id, or eight letters from a1 to h1",
     "random", "random|classic", 0, 0, RULE_TEXT, RULE_MAIN},
    {"king-file", "King's file", "in a random set-up the king's file is random too, or always e",
     "random", "random|e", 0, 0, RULE_CHOICE, RULE_ADVANCED},
    {"castling", "Castling", "castling (Chess960 rules, so any back rank works)", "off", "off|on",
     0, 0, RULE_CHOICE, RULE_ADVANCED},
    {"en-passant", "En passant", "en passant captures by pawns", "off", "off|on", 0, 0, RULE_CHOICE,
     RULE_ADVANCED},
    {"promotion", "Promotion",
     "what a pawn becomes on the last rank: any piece but a king, or only Q R B N (classic)", "all",
     "all|classic", 0, 0, RULE_CHOICE, RULE_ADVANCED},
    {"promotion-optional", "Optional promotion", "a pawn reaching the last rank may stay a pawn",
     "off", "off|on", 0, 0, RULE_CHOICE, RULE_ADVANCED},
    {"mate", "Checkmate",
     "checkmate: chess (no legal move out of check) or literal (in check and the king cannot "
     "move to safety)",
     "chess", "chess|literal", 0, 0, RULE_CHOICE, RULE_ADVANCED},
    {"repetition", "Draw by repetition", "the third occurrence of a position is a draw", "on",
     "on|off", 0, 0, RULE_CHOICE, RULE_ADVANCED},
    {"fifty-moves", "Fifty-move rule",
     "fifty moves by each side without a capture or pawn move draw", "on", "on|off", 0, 0,
     RULE_CHOICE, RULE_ADVANCED},
    {"bare-kings", "Bare kings", "a game with only the two kings left is drawn", "draw", "draw|off",
     0, 0, RULE_CHOICE, RULE_ADVANCED},
    {"beast-chain", "Beast capture chains",
     "captures a beast may make in one turn: unlimited, two (the rulebook's literal "
     "'another'), or one",
     "unlimited", "unlimited|two|one", 0, 0, RULE_CHOICE, RULE_ADVANCED},
    {"armies", "Armies", "the six kings and their powers, chosen at the start", "off", "off|on", 0,
     0, RULE_CHOICE, RULE_MAIN},
    {"haste-check", "Check during Haste",
     "a Haste turn may not end giving check; with each, its first move may not give check "
     "either (neither move may ever leave your own king in check)",
     "end", "end|each", 0, 0, RULE_CHOICE, RULE_ADVANCED},
    {"tokens-per-turn", "Tokens a turn",
     "tokens a player may spend in one turn: one, or any (Freeze and Ice Wall declared again "
     "on other pieces before the move, while tokens last)",
     "one", "one|any", 0, 0, RULE_CHOICE, RULE_ADVANCED},
    {"displaced-pawn", "Displaced pawns",
     "a pawn that a swap or a power puts back on its second rank: counts as moved (no "
     "double step), or unmoved (it may step two squares again)",
     "moved", "moved|unmoved", 0, 0, RULE_CHOICE, RULE_ADVANCED},
    {"march-en-passant", "En passant after a March",
     "with en passant on, a pawn that Marched two squares may be taken en passant like one "
     "that stepped twice from its starting rank",
     "off", "off|on", 0, 0, RULE_CHOICE, RULE_ADVANCED},
    {"castling-rooks", "Castling rooks",
     "with castling on and two rooks on one side of the king in the set-up: only the outer "
     "one may castle, or either",
     "outer", "outer|all", 0, 0, RULE_CHOICE, RULE_ADVANCED},
    {"army-order", "Who chooses an army first",
     "who chooses first with armies on, the king and then the power: white (the first "
     "player) or black",
     "white", "white|black", 0, 0, RULE_CHOICE, RULE_ADVANCED},
    {"notation", "Move notation", "how moves are written: long algebraic (e2e4) or SAN (e4)",
     "long", "long|san", 0, 0, RULE_CHOICE, RULE_ADVANCED},
    {"max-plies", "Turn limit", "the game is drawn once this many turns have been played", "2000",
     NULL, 10, KD_MAX_PLIES_LIMIT, RULE_INTEGER, RULE_ADVANCED},
};

/* OpenSpiel's action ids (ops_action_index): move_index's (kind, from, to), then the
 * beast captures that go on (more), then promotions, which only pawns' plain moves and
 * sacrifices carry, by the type made. */
enum {
    AX_MORE = KD_KINDS * 64 * 64,
    AX_PROMO = AX_MORE + 64 * 64,
    AX_COUNT = AX_PROMO + (KD_TYPES - 1) * 2 * 64 * 64,
};

static Status kd_configure(Game *g, ErrBuf *err)
{
    KdConfig *c = calloc(1, sizeof *c);
    if (c == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    Status st = kd_parse_setup(game_option(g, "setup"), &c->setup, c->setup_rank, err);
    if (st != STATUS_OK) {
        free(c);
        return st;
    }
    kd_build_geometry(c);
    c->king_file_e = game_option_is(g, "king-file", "e");
    c->castling = game_option_is(g, "castling", "on");
    c->en_passant = game_option_is(g, "en-passant", "on");
    c->promo_mask = (uint16_t)((1u << KD_QUEEN) | (1u << KD_ROOK) | (1u << KD_BISHOP) |
                               (1u << KD_KNIGHT));
    if (game_option_is(g, "promotion", "all"))
        c->promo_mask |= (uint16_t)((1u << KD_ARCHER) | (1u << KD_PALADIN) | (1u << KD_GUARD) |
                                    (1u << KD_MAESTER) | (1u << KD_BEAST));
    c->promo_decline = game_option_is(g, "promotion-optional", "on");
    c->mate_literal = game_option_is(g, "mate", "literal");
    c->repetition = game_option_is(g, "repetition", "on");
    c->fifty = game_option_is(g, "fifty-moves", "on");
    c->bare_kings = game_option_is(g, "bare-kings", "draw");
    c->chain_limit = game_option_is(g, "beast-chain", "unlimited") ? KD_MAX_CHAIN
                     : game_option_is(g, "beast-chain", "two")     ? 2
                                                                   : 1;
    c->armies = game_option_is(g, "armies", "on");
    c->haste_each = game_option_is(g, "haste-check", "each");
    c->tokens_any = game_option_is(g, "tokens-per-turn", "any");
    c->displaced_double = game_option_is(g, "displaced-pawn", "unmoved");
    c->march_ep = game_option_is(g, "march-en-passant", "on");
    c->castle_all_rooks = game_option_is(g, "castling-rooks", "all");
    c->first_picker = game_option_is(g, "army-order", "black") ? 1 : 0;
    c->san = game_option_is(g, "notation", "san");
    c->max_plies = (int)game_option_long(g, "max-plies", 2000);
    c->hist_cap = c->fifty ? KD_FIFTY_RING : c->max_plies + 1;
    kd_obs_schema(c);
    g->config = c;
    g->observation = &c->obs;
    g->state_size = sizeof(KdState) + rep_history_bytes(c->hist_cap, false);
    g->undo_size = sizeof(KdUndo);
    g->move_index_count = KD_KINDS * 64 * 64;
    g->action_index_count = AX_COUNT;
    g->max_game_length = c->max_plies * KD_TURN_ACTIONS + 8;
    return STATUS_OK;
}

static void kd_release(Game *g)
{
    free(g->config);
    g->config = NULL;
}

static void ops_new_game(const Game *g, GameState *s, uint64_t seed)
{
    const KdConfig *c = kd_cfg(g);
    uint8_t rank[8];
    if (c->setup == KD_SETUP_RANDOM)
        kd_draw_back_rank(c, seed, rank);
    else
        memcpy(rank, c->setup_rank, sizeof rank);
    KdPos p;
    kd_start_position(c, &p, rank);
    KdState *k = (KdState *)s;
    kd_state_init(c, k, &p);
    memcpy(k->start_rank, rank, sizeof rank);
}

static Status ops_parse_position(const Game *g, GameState *s, const char *text, ErrBuf *err)
{
    const KdConfig *c = kd_cfg(g);
    KdPos p;
    Status st = kd_parse_fen(c, &p, text, err);
    if (st != STATUS_OK)
        return st;
    kd_state_init(c, (KdState *)s, &p);
    // A game's very start tells its set-up, which new_game keeps for the board's
    // "set-up N" line: kept here too, so that a record's start replays to the same state.
    char letters[9] = {0};
    for (int f = 0; f < 8; f++) {
        const int t = p.board[f];
        letters[f] = t >= KD_KNIGHT && t < KD_TYPES ? kd_letters[t] : '?';
    }
    KdSetupKind kind;
    uint8_t rank[8];
    ErrBuf ignored;
    KdPos start;
    if (kd_parse_setup(letters, &kind, rank, &ignored) == STATUS_OK) {
        kd_start_position(c, &start, rank);
        if (memcmp(&start, &p, sizeof p) == 0)
            memcpy(((KdState *)s)->start_rank, rank, sizeof rank);
    }
    return STATUS_OK;
}

static void ops_format_position(const Game *g, const GameState *s, StrBuf *out)
{
    kd_format_fen(kd_cfg(g), &((const KdState *)s)->pos, out);
}

static Status ops_parse_move(const Game *g, const GameState *s, const char *text, Move *out,
                             ErrBuf *err)
{
    const KdState *k = (const KdState *)s;
    if (k->result != KD_PLAYING)
        return err_set(err, STATUS_ILLEGAL, "the game is over");
    return kd_parse_move(kd_cfg(g), &k->pos, text, out, err);
}

static Status ops_parse_actions(const Game *g, const GameState *s, const char *text, Move *out,
                                int cap, int *count, ErrBuf *err)
{
    const KdState *k = (const KdState *)s;
    if (k->result != KD_PLAYING)
        return err_set(err, STATUS_ILLEGAL, "the game is over");
    return kd_parse_actions(kd_cfg(g), &k->pos, text, out, cap, count, err);
}

static void ops_format_move(const Game *g, const GameState *s, Move m, StrBuf *out)
{
    const KdConfig *c = kd_cfg(g);
    if (c->san)
        kd_format_san(c, &((const KdState *)s)->pos, m, out);
    else
        kd_format_long(c, &((const KdState *)s)->pos, m, out);
}

static int ops_to_move(const Game *g, const GameState *s)
{
    (void)g;
    return kd_to_move(kd_cfg(g), (const KdState *)s);
}

static void ops_observe(const Game *g, const GameState *s, int observer, Observation *out)
{
    kd_observe(kd_cfg(g), (const KdState *)s, observer, out);
}

static int ops_gen_moves(const Game *g, const GameState *s, MoveList *out)
{
    const KdState *k = (const KdState *)s;
    out->count = k->result != KD_PLAYING ? 0 : kd_gen_legal(kd_cfg(g), &k->pos, out->moves);
    return out->count;
}

static void ops_make(const Game *g, GameState *s, Move m, void *undo)
{
    kd_make(kd_cfg(g), (KdState *)s, m, (KdUndo *)undo);
}

static void ops_unmake(const Game *g, GameState *s, Move m, const void *undo)
{
    kd_unmake(kd_cfg(g), (KdState *)s, m, (const KdUndo *)undo);
}

static void ops_returns(const Game *g, const GameState *s, double out[MAX_PLAYERS])
{
    (void)g;
    const KdState *k = (const KdState *)s;
    const int winner = k->result == KD_WIN_FIRST ? 0 : k->result == KD_WIN_SECOND ? 1 : -1;
    game_returns_two_player(winner, out);
}

static void ops_describe_result(const Game *g, const GameState *s, StrBuf *out)
{
    (void)g;
    static const char *const reasons[] = {
        [KD_REASON_NONE] = "",
        [KD_REASON_MATE] = "checkmate",
        [KD_REASON_LITERAL_MATE] = "checkmate: the king in check cannot move to safety",
        [KD_REASON_STALEMATE] = "stalemate: no legal move, not in check",
        [KD_REASON_REPETITION] = "the same position occurred a third time",
        [KD_REASON_FIFTY] = "fifty moves by each side without a capture or pawn move",
        [KD_REASON_BARE_KINGS] = "only the two kings are left",
        [KD_REASON_PLY_LIMIT] = "the turn limit (max-plies) was reached",
    };
    sb_puts(out, reasons[((const KdState *)s)->reason]);
}

/* Indexed by KdReason less one. */
static const char *const kd_end_reasons[] = {"checkmate", "literal-mate", "stalemate",
                                              "repetition", "fifty-moves", "bare-kings",
                                              "ply-limit"};

static int ops_end_reason(const Game *g, const GameState *s)
{
    (void)g;
    return (int)((const KdState *)s)->reason - 1;
}

static bool ops_can_win(const Game *g, const GameState *s, int player)
{
    return kd_can_win(kd_cfg(g), &((const KdState *)s)->pos, player);
}

static uint64_t ops_hash(const Game *g, const GameState *s)
{
    (void)g;
    return ((const KdState *)s)->pos.hash;
}

static int ops_action_index(const Game *g, const GameState *s, Move m)
{
    (void)g;
    (void)s;
    const int squares = kd_from(m) * 64 + kd_to(m);
    if (kd_promo(m) != 0)
        return AX_PROMO + (((kd_promo(m) - 1) % (KD_TYPES - 1)) * 2 +
                           (kd_kind(m) != KD_MV_NORMAL)) * 64 * 64 + squares;
    if (m >> 20)
        return AX_MORE + squares;
    return kd_kind(m) * 64 * 64 + squares;
}

static int ops_move_index(const Game *g, const GameState *s, Move m)
{
    (void)g;
    (void)s;
    return (kd_kind(m) * 64 + kd_from(m)) * 64 + kd_to(m);
}

static bool check_position(const KdConfig *c, const KdPos *p, ErrBuf *err)
{
    uint64_t bb[KD_TYPES] = {0}, side[2] = {0};
    int kings[2] = {0, 0};
    for (int sq = 0; sq < 64; sq++) {
        const uint8_t v = p->board[sq];
        if (v == KD_EMPTY)
            continue;
        const int type = v & 15, colour = v >> 4;
        if (type == KD_EMPTY || type >= KD_TYPES || colour > 1)
            return err_set(err, STATUS_ILLEGAL, "bad mailbox entry on %d", sq), false;
        bb[type] |= kd_bit(sq);
        bb[KD_EMPTY] |= kd_bit(sq);
        side[colour] |= kd_bit(sq);
        if (type == KD_KING) {
            kings[colour]++;
            if (p->king[colour] != sq)
                return err_set(err, STATUS_ILLEGAL, "king square of %d is stale", colour), false;
        }
    }
    if (memcmp(bb, p->bb, sizeof bb) != 0 || memcmp(side, p->side, sizeof side) != 0)
        return err_set(err, STATUS_ILLEGAL, "bitboards differ from the mailbox"), false;
    if (kings[0] != 1 || kings[1] != 1)
        return err_set(err, STATUS_ILLEGAL, "each side needs one king"), false;
    for (uint64_t b = p->castle; b;) {
        const int sq = bits_pop(&b);
        const int colour = kd_colour_at(p, sq);
        if (kd_type_at(p, sq) != KD_ROOK || kd_rel_rank(colour, sq) != 0 ||
            kd_rel_rank(colour, p->king[colour]) != 0 || !c->castling)
            return err_set(err, STATUS_ILLEGAL, "castling right without its rook and king"), false;
    }
    for (uint64_t b = p->moved; b;) {
        const int sq = bits_pop(&b);
        if (kd_type_at(p, sq) != KD_PAWN || kd_rel_rank(kd_colour_at(p, sq), sq) != 1)
            return err_set(err, STATUS_ILLEGAL, "moved mark on a square without a pawn"), false;
    }
    if (p->ep != KD_NO_SQ && (p->board[p->ep] != KD_EMPTY || !c->en_passant))
        return err_set(err, STATUS_ILLEGAL, "bad en-passant square"), false;
    if (p->chain_sq != KD_NO_SQ && p->board[p->chain_sq] != (KD_BEAST | p->turn << 4))
        return err_set(err, STATUS_ILLEGAL, "chain square without the beast"), false;
    if (p->turn > 1 || p->stage > KD_STAGE_HASTE2 || p->phase > KD_PHASE_PICK_POWER)
        return err_set(err, STATUS_ILLEGAL, "bad turn fields"), false;
    if (p->hash != kd_compute_hash(c, p))
        return err_set(err, STATUS_ILLEGAL, "incremental hash differs from a fresh one"), false;
    return true;
}

static bool ops_is_ok(const Game *g, const GameState *gs, ErrBuf *err)
{
    const KdConfig *c = kd_cfg(g);
    const KdState *s = (const KdState *)gs;
    if (!check_position(c, &s->pos, err))
        return false;
    if (!s->hist.ring)
        return err_set(err, STATUS_ILLEGAL, "position history is not a ring"), false;
    if (!rep_history_is_ok(&s->hist, s->history, c->hist_cap, false, kd_turn_start(&s->pos),
                           s->pos.hash, err))
        return false;
    // The same fresh-result check as kc_ops.c and kv_ops.c: each compares its own
    // result fields, which a shared helper would need callbacks for.
    KdState *fresh = malloc(g->state_size);
    if (fresh == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory"), false;
    memcpy(fresh, s, g->state_size);
    kd_settle(c, fresh);
    const bool same = fresh->result == s->result && fresh->reason == s->reason;
    free(fresh);
    if (!same)
        return err_set(err, STATUS_ILLEGAL, "stored result differs from a fresh one"), false;
    return true;
}

static void ops_render(const Game *g, const GameState *s, unsigned flags, StrBuf *out)
{
    kd_render(kd_cfg(g), (const KdState *)s, flags, out);
}

static int ops_evaluate(const Game *g, const GameState *s)
{
    return kd_evaluate(kd_cfg(g), &((const KdState *)s)->pos);
}

static int ops_evaluate_static(const Game *g, const GameState *s)
{
    return kd_evaluate_static(kd_cfg(g), &((const KdState *)s)->pos);
}

static int ops_evaluate_weighted(const Game *g, const GameState *s, const int *weights)
{
    return kd_evaluate_weighted(kd_cfg(g), &((const KdState *)s)->pos, weights);
}

static int ops_nnue_features(const Game *g, const GameState *s, int perspective, uint16_t *out,
                             int cap)
{
    (void)g;
    return kd_nnue_features(&((const KdState *)s)->pos, perspective, out, cap);
}

static void ops_nnue_snapshot(const Game *g, const GameState *s, void *out)
{
    (void)g;
    kd_nnue_snapshot(&((const KdState *)s)->pos, out);
}

static void ops_nnue_delta(const Game *g, const void *before, const void *after, int perspective,
                           uint16_t *add, int *n_add, uint16_t *sub, int *n_sub)
{
    (void)g;
    kd_nnue_delta(before, after, perspective, add, n_add, sub, n_sub);
}

static int ops_noisy(const Game *g, const GameState *s, Move m)
{
    (void)g;
    return kd_noisy(&((const KdState *)s)->pos, m);
}

static bool ops_in_check(const Game *g, const GameState *s)
{
    const KdPos *p = &((const KdState *)s)->pos;
    return p->phase == KD_PHASE_PLAY && kd_in_check(kd_cfg(g), p, p->turn);
}

static bool ops_make_null(const Game *g, GameState *s, void *undo)
{
    return kd_make_null(kd_cfg(g), (KdState *)s, (KdUndo *)undo);
}

static void ops_unmake_null(const Game *g, GameState *s, const void *undo)
{
    (void)g;
    kd_unmake_null((KdState *)s, (const KdUndo *)undo);
}

static bool ops_perft_leaves(const Game *g, GameState *s, int depth, uint64_t *count)
{
    return kd_perft_leaves(kd_cfg(g), (KdState *)s, depth, count);
}

/* For click interfaces: the piece that acts, then where the action ends. Castling is the
 * king onto its own rook (the Chess960 convention), a power on a piece names that piece,
 * and the choices and Haste name no cell. */
static void ops_move_cells(const Game *g, const GameState *s, Move m, StrBuf *out)
{
    (void)g;
    (void)s;
    const int kind = kd_kind(m);
    switch (kind) {
    case KD_MV_PICK:
    case KD_MV_HASTE:
        return;
    case KD_MV_FREEZE:
    case KD_MV_ICE_WALL:
        kd_format_square(kd_to(m), out);
        return;
    case KD_MV_SACRIFICE:
        kd_format_square(kd_from(m), out);
        return;
    default:
        kd_format_square(kd_from(m), out);
        sb_putc(out, ' ');
        kd_format_square(kd_to(m), out);
        return;
    }
}

/* Points now: the material balance in pawns, and 1000 for a won game. */
static double ops_score(const Game *g, const GameState *s, int player)
{
    const KdState *k = (const KdState *)s;
    double ret[MAX_PLAYERS];
    ops_returns(g, s, ret);
    const double balance = (kd_material(&k->pos, player) - kd_material(&k->pos, player ^ 1)) / 100.0;
    return k->result == KD_PLAYING ? balance : balance + 1000.0 * ret[player];
}

/* The armies' choices and powers in players' words: the six kings first (in KdArmy's
 * order, from Frost), then the twelve powers (in KdPower's order, from Freeze). */
static const ActionKind kd_action_kinds[] = {
    {"frost", "Frost", "choose the king of Frost: its powers are Freeze and Ice Wall"},
    {"flame", "Flame", "choose the king of Flame: its powers are Strike and Haste"},
    {"stratus", "Stratus", "choose the king of Stratus: its powers are Flight and Sacrifice"},
    {"mud", "Mud", "choose the king of Mud: its powers are March and Leap"},
    {"spirit", "Spirit", "choose the king of Spirit: its powers are Holy Light and Mercy"},
    {"shadow", "Shadow", "choose the king of Shadow: its powers are Death Touch and Darkness"},
    {"freeze", "Freeze", "power: an enemy piece you pick may not move in your opponent's next "
                         "turn"},
    {"ice-wall", "Ice Wall", "power: a piece of yours cannot be captured in your opponent's "
                             "next turn"},
    {"strike", "Strike", "power: one of your pieces moves and captures once like a queen"},
    {"haste", "Haste", "power: one piece makes two moves in this turn"},
    {"flight", "Flight", "power: a piece flies to any empty square of your half"},
    {"sacrifice", "Sacrifice", "power: a pawn is replaced by one of your captured pieces"},
    {"march", "March", "power: a pawn steps two squares forward from anywhere"},
    {"leap", "Leap", "power: a queen, rook or bishop passes over your own pawns"},
    {"holy-light", "Holy Light", "power, always on: enemy pawns cannot check your king"},
    {"mercy", "Mercy", "power, always on: your king moves up to two squares, over a piece of "
                       "yours"},
    {"death-touch", "Death Touch", "power, always on: your king captures a neighbour without "
                                   "moving"},
    {"darkness", "Darkness", "power, always on: your pawns step diagonally and capture "
                             "straight ahead"},
};
enum { KD_KIND_KINGS = KD_ARMIES - 1 };
_Static_assert(sizeof kd_action_kinds / sizeof kd_action_kinds[0] ==
                   KD_KIND_KINGS + KD_POWERS - 1,
               "a kind for every king and every power");

/* A king chosen, a power chosen or a power used: its kind; a move of a piece: -1. */
static int ops_action_kind(const Game *g, const GameState *s, Move m, StrBuf *label)
{
    (void)label;
    const KdPos *p = &((const KdState *)s)->pos;
    const int kind = kd_kind(m);
    if (kind == KD_MV_PICK && p->phase == KD_PHASE_PICK_KING)
        return kd_to(m) - 1;
    if (kind == KD_MV_PICK) {
        const int army = p->army[kd_picker(kd_cfg(g), p)];
        return KD_KIND_KINGS + kd_army_info[army].powers[kd_to(m) & 1] - 1;
    }
    if (kind >= KD_MV_FREEZE && kind <= KD_MV_LEAP)
        return KD_KIND_KINGS + KD_FREEZE - 1 + (kind - KD_MV_FREEZE);
    return -1;
}

/* A pawn's move to the last rank: the piece it becomes ("pawn" when the promotion is
 * declined), by the observation's names of the kinds. */
/* A move list shows SAN whatever the notation option, since players read chess in it;
 * a choice or a power by its name ("Stratus", "Flight a1e2"), not its keyword. */
static void ops_format_move_read(const Game *g, const GameState *s, Move m, StrBuf *out)
{
    const KdPos *p = &((const KdState *)s)->pos;
    const int kind = ops_action_kind(g, s, m, NULL);
    if (kind < 0) {
        kd_format_san(kd_cfg(g), p, m, out);
        return;
    }
    StrBuf text;
    sb_init(&text);
    kd_format_long(kd_cfg(g), p, m, &text);
    const char *squares = strchr(sb_str(&text), ':');
    sb_puts(out, kd_action_kinds[kind].label);
    if (squares != NULL)
        sb_printf(out, " %s", squares + 1);
    sb_free(&text);
}

static const char *const kd_seat_names[] = {"White", "Black"};

static void ops_action_args(const Game *g, const GameState *s, Move m, StrBuf *out)
{
    static const char *const kinds[KD_TYPES] = {
        [KD_PAWN] = "pawn",       [KD_KNIGHT] = "knight", [KD_BISHOP] = "bishop",
        [KD_ROOK] = "rook",       [KD_QUEEN] = "queen",   [KD_KING] = "king",
        [KD_ARCHER] = "archer",   [KD_PALADIN] = "paladin", [KD_GUARD] = "guard",
        [KD_MAESTER] = "maester", [KD_BEAST] = "beast",
    };
    (void)g;
    const KdPos *p = &((const KdState *)s)->pos;
    const int to_rank = kd_rank(kd_to(m));
    if (kd_kind(m) != KD_MV_NORMAL || kd_type_at(p, kd_from(m)) != KD_PAWN ||
        (to_rank != 0 && to_rank != 7))
        return;
    const int promo = kd_promo(m);
    if (promo > 0 && promo < KD_TYPES && kinds[promo])
        sb_printf(out, "promote=%s", kinds[promo]);
    else if (promo == 0)
        sb_puts(out, "promote=pawn");
}

/* While the armies are chosen, what the choice is; nothing in play. */
static const char *ops_turn_help(const Game *g, const GameState *s)
{
    (void)g;
    switch (((const KdState *)s)->pos.phase) {
    case KD_PHASE_PICK_KING:
        return "Armies: choose your king; each brings its powers.";
    case KD_PHASE_PICK_POWER:
        return "Armies: choose one of your king's two powers.";
    default:
        return NULL;
    }
}

/* What looks alike across the games' tables beyond GAME_OPS_COMMON_HOOKS differs in every
 * value: each table is that game's data. */
const GameOps kd_ops = {
    .name = "king-down",
    .title = "King Down Classic",
    .family = "king-down",
    .action_kind = ops_action_kind,
    .action_kinds = kd_action_kinds,
    .action_kind_count = (int)(sizeof kd_action_kinds / sizeof kd_action_kinds[0]),
    .turn_help = ops_turn_help,
    .format_move_read = ops_format_move_read,
    .seat_names = kd_seat_names,
    .action_args = ops_action_args,
    .bench_depth = 6,
    .chance_scale = 459.0,
    .summary = "King Down Classic: chess with archers, paladins, guards, maesters and beasts "
               "on a drawn back rank",
    .min_players = 2,
    .max_players = 2,
    .flags = GAME_PERFECT_INFO | GAME_ZERO_SUM,
    .options = kd_options,
    .option_count = (int)(sizeof kd_options / sizeof kd_options[0]),
    .configure = kd_configure,
    .release = kd_release,
    GAME_OPS_COMMON_HOOKS,
    .action_index = ops_action_index,
    .parse_actions = ops_parse_actions,
    .evaluate = ops_evaluate,
    .eval_weight_count = KD_WEIGHT_COUNT,
    .eval_weight_names = kd_weight_names,
    .eval_weight_defaults = kd_weight_defaults,
    .evaluate_weighted = ops_evaluate_weighted,
    /* Root moves within a tenth of a pawn count as equal: a few squares of mobility,
     * well inside the evaluation's own error, as engines' opening variety allows. */
    .variety_margin = 10,
    .noisy = ops_noisy,
    .evaluate_static = ops_evaluate_static,
    .in_check = ops_in_check,
    .make_null = ops_make_null,
    .unmake_null = ops_unmake_null,
    .perft_leaves = ops_perft_leaves,
    .end_reasons = kd_end_reasons,
    .end_reason_count = (int)(sizeof kd_end_reasons / sizeof kd_end_reasons[0]),
    .measure = kd_measure,
    .setup_family = kd_setup_family,
    .can_win = ops_can_win,
    .metrics = kd_metrics,
    .metric_count = KD_METRIC_COUNT,
    .score = ops_score,
    .nnue_feature_set = "kd-piece-square-power-1",
    .nnue_feature_count = KD_NNUE_FEATURES,
    .nnue_features = ops_nnue_features,
    .nnue_snapshot_size = sizeof(KdNnueSnapshot),
    .nnue_snapshot = ops_nnue_snapshot,
    .nnue_delta = ops_nnue_delta,
};
