/*
 * test_king_down_perft.c - King Down against published numbers and against the plain
 * reference generator (tests/support/kd_reference).
 *
 * Four layers:
 *   (a) the Chess Programming Wiki "Perft Results" positions with the chess rules
 *       (setup=classic castling=on en-passant=on promotion=classic), to shallow depths
 *       here; bench/king-down-perft.sh runs them to the published depths;
 *   (b) the committed table tests/perft/king-down.perft, positions that exercise every
 *       piece, option and power: fast perft, generic perft and the reference must agree;
 *   (c) random games from drawn set-ups under many rule settings, in which every
 *       position's text, result and legal action list must match the reference;
 *   (d) thousands of random placements (random pieces, rights, armies, powers, turns in
 *       progress), which both must accept or reject alike and then agree on; and
 *       placements where the side to move holds Haste, under both haste-check values,
 *       and Freeze or Ice Wall, under both tokens-per-turn values.
 * The comparing is tests/support/perft_pair's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "core/game_api.h"
#include "core/rng.h"
#include "support/diagram.h"
#include "support/kd_reference.h"
#include "support/perft_pair.h"
#include "support/slow_build.h"

enum { MAX_SETTINGS = 12 };

static const char *const CHESS[] = {"setup=classic", "castling=on", "en-passant=on",
                                    "promotion=classic"};

/* --- the reference, as the harness reaches it ------------------------------------------- */

static void *ref_open(const PerftPair *p, const char *text, char *err, size_t cap)
{
    KdRefRules rules;
    if (!kdref_rules(p->settings, p->n_settings, &rules, err, cap))
        return NULL;
    return kdref_new(&rules, text, err, cap);
}

static void ref_close(void *ref)
{
    kdref_free(ref);
}

static void ref_format_position(const void *ref, char *out, size_t cap)
{
    const KdRefGame *g = ref;
    kdref_format(&g->rules, &g->pos, out, cap);
}

/* While the armies and powers are chosen the reference keeps no player to act. */
static void ref_status(const void *ref, RefStatus *out)
{
    const KdRefGame *g = ref;
    const KdRefResult r = kdref_result(g, &out->why);
    const bool choosing = g->rules.armies && (g->pos.power[0] == 0 || g->pos.power[1] == 0);
    ref_status_two_player(out, choosing ? REF_SOME_PLAYER : g->pos.turn, r != KDREF_ONGOING,
                          r == KDREF_WHITE_WINS ? 0 : r == KDREF_BLACK_WINS ? 1 : -1);
}

static int ref_actions(const void *ref, PairAction *out)
{
    const KdRefGame *g = ref;
    KdRefMove *moves = calloc(KDREF_MAX_MOVES, sizeof *moves);
    assert_non_null(moves);
    const int n = kdref_moves(g, moves);
    for (int i = 0; i < n; i++)
        kdref_move_text(&g->pos, moves[i], out[i].text);
    free(moves);
    return n;
}

static bool ref_play(void *ref, const char *text)
{
    KdRefMove m;
    if (!kdref_find(ref, text, &m))
        return false;
    kdref_play(ref, m);
    return true;
}

static uint64_t ref_perft(void *ref, int depth)
{
    return kdref_perft(ref, depth);
}

/* Set-ups are drawn by seed: the reference starts from the game's (no start text). */
static const PerftReference KD_REFERENCE = {
    ref_open, ref_close, NULL, ref_format_position,
    ref_status, ref_actions, ref_play, ref_perft,
};

static void pair_open(PerftPair *p, const char *const *settings, int n_settings,
                      const char *text, uint64_t seed)
{
    perft_pair_open(p, &KD_REFERENCE, "king-down", settings, n_settings, text, seed);
}

/* --- (a) the published chess numbers ------------------------------------------------- */

typedef struct Published {
    const char *name, *fen;
    uint64_t nodes[4]; /* depths 1..4 */
} Published;

/* Chess Programming Wiki, "Perft Results" (the six standard positions). */
static const Published PUBLISHED[] = {
    {"start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
     {20, 400, 8902, 197281}},
    {"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -",
     {48, 2039, 97862, 4085603}},
    {"position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -", {14, 191, 2812, 43238}},
    {"position 4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
     {6, 264, 9467, 422333}},
    {"position 5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
     {44, 1486, 62379, 2103487}},
    {"position 6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
     {46, 2079, 89890, 3894594}},
};

static void test_published_chess(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof PUBLISHED / sizeof PUBLISHED[0]; i++) {
        const Published *pub = &PUBLISHED[i];
        PerftPair p;
        pair_open(&p, CHESS, 4, pub->fen, 0);
        for (int d = 1; d <= 4; d++)
            perft_pair_expect_leaves(&p, pub->name, d, pub->nodes[d - 1],
                                     PERFT_FAST | (d <= 3 ? PERFT_GENERIC : 0) |
                                         (d <= 2 ? PERFT_REFERENCE : 0));
        perft_pair_close(&p);
    }
}

/* --- (b) the committed table ---------------------------------------------------------- */

/* The reference re-derives D1-D3, so that an edited table is caught. */
static void test_perft_table(void **state)
{
    static const PerftTableCheck check = {
        .reference = &KD_REFERENCE,
        .game = "king-down",
        .min_positions = 20,
        .reference_depth = 3,
    };
    perft_pair_check_table(*state, &check);
}

/* --- (c) random games ---------------------------------------------------------------- */

/* How the reference says games ended. */
static const char *const ENDINGS[] = {"checkmate", "stalemate", "repetition", "fifty moves",
                                      "bare kings", "ply limit", "literal mate"};
enum { N_ENDINGS = 7 };

typedef struct GameCase {
    const char *settings[MAX_SETTINGS];
    int n_settings;
    int games;
    const char *start; /* NULL: drawn set-ups */
    const char *first; /* played first in every other game, when given */
} GameCase;

/* Endings come quickly from a few pieces against a bare king. */
#define ENDGAME "4k3/8/8/8/8/8/8/QRG1K3 w - - 0 1"

static const GameCase GAME_CASES[] = {
    {{"castling=on", "en-passant=on"}, 1, 4, NULL, NULL},
    {{"castling=on", "en-passant=on", "promotion-optional=on"}, 3, 3, NULL, NULL},
    {{"beast-chain=two", "mate=literal"}, 2, 6, NULL, NULL},
    {{"beast-chain=one", "king-file=e", "castling=on"}, 3, 2, NULL, NULL},
    {{"armies=on", "castling=on", "en-passant=on"}, 3, 12, NULL, NULL},
    {{"armies=on", "fifty-moves=off", "max-plies=120", "army-order=black"}, 4, 4, NULL, NULL},
    {{"armies=on", "en-passant=on", "march-en-passant=on", "displaced-pawn=unmoved", "castling=on",
      "castling-rooks=all"},
     6,
     8,
     NULL,
     NULL},
    {{"setup=classic", "castling=on", "en-passant=on", "promotion=classic"}, 4, 2, NULL, NULL},
    {{"repetition=on", "max-plies=200"}, 2, 6, NULL, NULL},
    {{"mate=literal"}, 1, 6, "7k/6pp/2n5/8/8/8/5PPP/3R2K1 w - - 0 1", "d1d8"},
    {{"bare-kings=draw"}, 1, 16, ENDGAME, NULL},
};

/* Often a move that takes back the mover's previous move (from and to swapped), so that
 * positions repeat and the repetition draw is reached and compared. */
static int pick(Rng *rng, const PairActions *acts, const char *last_own, bool repeat)
{
    const int n = acts->count;
    if (repeat && last_own[0] != '\0' && strlen(last_own) == 4 && rng_below(rng, 4) == 0) {
        char back[8];
        snprintf(back, sizeof back, "%.2s%.2s", last_own + 2, last_own);
        for (int i = 0; i < n; i++)
            if (strcmp(acts->at[i].text, back) == 0)
                return i;
    }
    return (int)rng_below(rng, (uint32_t)n);
}

static void test_random_games(void **state)
{
    (void)state;
    PairActions *acts = malloc(sizeof *acts);
    assert_non_null(acts);
    long positions = 0, games = 0, perfts = 0;
    long endings[N_ENDINGS] = {0};
    uint64_t seed = 0x6B64000;
    for (size_t c = 0; c < sizeof GAME_CASES / sizeof GAME_CASES[0]; c++) {
        const GameCase *gc = &GAME_CASES[c];
        for (int k = 0; k < gc->games; k++, seed++) {
            PerftPair p;
            pair_open(&p, gc->settings, gc->n_settings, gc->start, seed);
            const KdRefGame *ref = p.ref;
            Rng rng;
            rng_seed(&rng, seed);
            char played[2][KDREF_MOVE_TEXT] = {"", ""};
            for (int ply = 0;; ply++) {
                const int n = perft_pair_compare(&p, acts, 0);
                positions++;
                if (ply % 37 == 5) {
                    perft_pair_compare_perft(&p, 2);
                    perfts++;
                }
                if (n == 0) {
                    const char *why;
                    kdref_result(ref, &why);
                    for (int e = 0; e < N_ENDINGS; e++)
                        endings[e] += strcmp(why, ENDINGS[e]) == 0;
                    break;
                }
                const int mover = ref->pos.turn;
                int i = pick(&rng, acts, played[mover], k % 3 == 2);
                for (int j = 0; ply == 0 && k % 2 == 0 && gc->first && j < n; j++)
                    if (strcmp(acts->at[j].text, gc->first) == 0)
                        i = j;
                snprintf(played[mover], sizeof played[mover], "%s", acts->at[i].text);
                perft_pair_play(&p, &acts->at[i]);
            }
            games++;
            perft_pair_close(&p);
        }
    }
    print_message("random games: %ld games, %ld positions, %ld perft checks\n", games,
                  positions, perfts);
    for (int e = 0; e < N_ENDINGS; e++)
        print_message("  %-12s %ld\n", ENDINGS[e], endings[e]);
    // Every way a game can end was reached (and compared) at least once.
    for (int e = 0; e < N_ENDINGS; e++)
        assert_true(endings[e] > 0);
    free(acts);
}

/* --- (d) random placements ------------------------------------------------------------ */

static const char *const ARMIES[] = {"frost", "flame", "stratus", "mud", "spirit", "shadow"};
static const char *const POWERS[6][2] = {{"freeze", "ice-wall"},     {"strike", "haste"},
                                         {"flight", "sacrifice"},    {"march", "leap"},
                                         {"holy-light", "mercy"},    {"death-touch", "darkness"}};

static char random_piece(Rng *rng, int colour)
{
    static const char KINDS[] = "PPPPPNBRQALGMEALGMEE";
    const char ch = KINDS[rng_below(rng, (uint32_t)(sizeof KINDS - 1))];
    return colour == 0 ? ch : (char)(ch - 'A' + 'a');
}

static void sq_name(int sq, char *out)
{
    out[0] = (char)('a' + sq % 8);
    out[1] = (char)('1' + sq / 8);
    out[2] = '\0';
}

/* A square of `board` holding one of `letters`, or -1. */
static int random_square_of(Rng *rng, const char *board, const char *letters, int lo, int hi)
{
    int cand[64], n = 0;
    for (int sq = lo; sq < hi; sq++)
        if (board[sq] != '.' && strchr(letters, board[sq]))
            cand[n++] = sq;
    return n ? cand[rng_below(rng, (uint32_t)n)] : -1;
}

/* A random position text, mostly legal; now and again not (both sides must then reject
 * it alike). */
static void random_fen(Rng *rng, bool armies, char *out, size_t cap)
{
    char board[64];
    memset(board, '.', sizeof board);
    // Kings on their first rank half the time, so castling and long swaps occur.
    const int wk = rng_below(rng, 2) ? (int)rng_below(rng, 8) : (int)rng_below(rng, 64);
    int bk;
    do
        bk = rng_below(rng, 2) ? 56 + (int)rng_below(rng, 8) : (int)rng_below(rng, 64);
    while (bk == wk);
    board[wk] = 'K';
    board[bk] = 'k';
    if (rng_below(rng, 2)) {
        const int corners[4] = {0, 7, 56, 63};
        for (int i = 0; i < 4; i++)
            if (board[corners[i]] == '.' && rng_below(rng, 3))
                board[corners[i]] = i < 2 ? 'R' : 'r';
    }
    const int pieces = 2 + (int)rng_below(rng, 16);
    for (int i = 0; i < pieces; i++) {
        const int sq = (int)rng_below(rng, 64);
        if (board[sq] != '.')
            continue;
        const int colour = (int)rng_below(rng, 2);
        char ch = random_piece(rng, colour);
        if ((ch == 'P' || ch == 'p') && (sq < 8 || sq >= 56) && rng_below(rng, 4))
            ch = colour == 0 ? 'E' : 'e';
        board[sq] = ch;
    }
    const char *ranks[8];
    for (int r = 0; r < 8; r++)
        ranks[r] = board + (7 - r) * 8;
    size_t n = diagram_ranks(ranks, 8, 8, 1, out, cap);
    const int side = (int)rng_below(rng, 2);
    n += (size_t)snprintf(out + n, cap - n, " %c ", side ? 'b' : 'w');
    // Castling rights for rooks on the first ranks, by KQkq or by file.
    bool any = false;
    for (int colour = 0; colour < 2; colour++) {
        const int base = colour ? 56 : 0, k = colour ? bk : wk;
        if (k / 8 != base / 8)
            continue;
        for (int f = 0; f < 8; f++) {
            if (board[base + f] != (colour ? 'r' : 'R') || rng_below(rng, 3) == 0)
                continue;
            char ch = (char)('A' + f);
            if (rng_below(rng, 2))
                ch = base + f > k ? 'K' : 'Q';
            n += (size_t)snprintf(out + n, cap - n, "%c", colour ? ch - 'A' + 'a' : ch);
            any = true;
        }
    }
    if (!any || rng_below(rng, 20) == 0)
        n += (size_t)snprintf(out + n, cap - n, "%s", any ? "X" : "-");
    // En passant behind a pawn of the side that just moved, when there is one.
    char ep[3] = "-";
    const int just = random_square_of(rng, board, side ? "P" : "p", side ? 24 : 32, side ? 32 : 40);
    if (just >= 0 && rng_below(rng, 2)) {
        const int sq = side ? just - 8 : just + 8;
        if (board[sq] == '.' || rng_below(rng, 8) == 0)
            sq_name(sq, ep);
    }
    n += (size_t)snprintf(out + n, cap - n, " %s %d %d", ep, (int)rng_below(rng, 30),
                          1 + (int)rng_below(rng, 40));
    const int moved = random_square_of(rng, board, "Pp", 8, 56);
    if (moved >= 0 && rng_below(rng, 4) == 0) {
        char s[3];
        sq_name(moved, s);
        n += (size_t)snprintf(out + n, cap - n, " moved:%s", s);
    }
    const int beast = random_square_of(rng, board, side ? "e" : "E", 0, 64);
    if (beast >= 0 && rng_below(rng, 4) == 0) {
        char s[3];
        sq_name(beast, s);
        n += (size_t)snprintf(out + n, cap - n, " chain:%s/1", s);
    }
    if (!armies)
        return;
    const int a = (int)rng_below(rng, 6);
    int b = (int)rng_below(rng, 6);
    if (b == a)
        b = (b + 1) % 6;
    const char *pa = POWERS[a][rng_below(rng, 2)], *pb = POWERS[b][rng_below(rng, 2)];
    n += (size_t)snprintf(out + n, cap - n, " armies:%s/%s powers:%s/%s", ARMIES[a], ARMIES[b],
                          pa, pb);
    if (rng_below(rng, 3) == 0)
        n += (size_t)snprintf(out + n, cap - n, " tokens:%d/%d", (int)rng_below(rng, 2),
                              (int)rng_below(rng, 3));
    if (rng_below(rng, 2) == 0)
        n += (size_t)snprintf(out + n, cap - n, " captured:%s",
                              rng_below(rng, 2) ? "QNbr" : "PALGMEpe");
    const char *mine_power = side ? pb : pa;
    const int r = (int)rng_below(rng, 6);
    if (r == 0 && (strcmp(mine_power, "freeze") == 0 || strcmp(mine_power, "ice-wall") == 0))
        n += (size_t)snprintf(out + n, cap - n, " stage:declared");
    else if (r == 1 && strcmp(mine_power, "haste") == 0)
        n += (size_t)snprintf(out + n, cap - n, " stage:haste1");
    else if (r == 2 && strcmp(mine_power, "haste") == 0) {
        const int piece = random_square_of(rng, board, side ? "pnbrqkalgme" : "PNBRQKALGME", 0, 64);
        char s[3];
        sq_name(piece, s);
        n += (size_t)snprintf(out + n, cap - n, " stage:haste2/%s", s);
    }
    for (int k = 0; k < 2; k++) {
        const char *power = k == 0 ? "freeze" : "ice-wall";
        const int holder = strcmp(pa, power) == 0 ? 0 : strcmp(pb, power) == 0 ? 1 : -1;
        if (holder < 0 || rng_below(rng, 2))
            continue;
        const int target = k == 0 ? 1 - holder : holder;
        const int sq = random_square_of(rng, board, target ? "pnbrqalgme" : "PNBRQALGME", 0, 64);
        if (sq < 0)
            continue;
        char s[3];
        sq_name(sq, s);
        n += (size_t)snprintf(out + n, cap - n, " %s:%s", k == 0 ? "frozen" : "iced", s);
    }
}

static const char *const PLACEMENT_RULES[][6] = {
    {"castling=on", "en-passant=on", NULL},
    {"castling=on", "en-passant=on", "promotion=classic", "promotion-optional=on", NULL},
    {"beast-chain=two", "mate=literal", NULL},
    {"beast-chain=one", NULL},
    {"armies=on", "castling=on", "en-passant=on", NULL},
    {"armies=on", "promotion-optional=on", "mate=literal", NULL},
    {"armies=on", "en-passant=on", "march-en-passant=on", "displaced-pawn=unmoved", NULL},
};

/* Every legal action of the position, written in SAN by a game with notation=san (same
 * rules otherwise, so the same state layout), is unique and reads back as itself. */
static void check_san(const Game *san, const GameState *s, const PairActions *acts,
                      const char *fen)
{
    char (*texts)[64] = malloc(sizeof *texts * (size_t)acts->count);
    assert_non_null(texts);
    for (int i = 0; i < acts->count; i++) {
        StrBuf sb;
        sb_init(&sb);
        san->ops->format_move(san, s, acts->at[i].move, &sb);
        snprintf(texts[i], sizeof texts[i], "%s", sb_str(&sb));
        sb_free(&sb);
        for (int j = 0; j < i; j++)
            if (strcmp(texts[i], texts[j]) == 0)
                fail_msg("two actions write as '%s' in SAN at '%s'", texts[i], fen);
        Move back = MOVE_NONE;
        ErrBuf err;
        err_clear(&err);
        if (san->ops->parse_move(san, s, texts[i], &back, &err) != STATUS_OK ||
            back != acts->at[i].move)
            fail_msg("SAN '%s' does not read back at '%s': %s", texts[i], fen, err.msg);
    }
    free(texts);
}

static void test_random_positions(void **state)
{
    (void)state;
    PairActions *acts = malloc(sizeof *acts);
    assert_non_null(acts);
    const int per_rules = SLOW_BUILD_SHARE(1500);
    long accepted = 0, rejected = 0, perfts = 0, sans = 0;
    Rng rng;
    rng_seed(&rng, 0x6B64F00D);
    for (size_t r = 0; r < sizeof PLACEMENT_RULES / sizeof PLACEMENT_RULES[0]; r++) {
        const char *const *settings = PLACEMENT_RULES[r];
        int ns = 0;
        while (settings[ns] != NULL)
            ns++;
        const bool armies = strcmp(settings[0], "armies=on") == 0;
        Game *g = perft_game_create("king-down", settings, ns);
        const char *with_san[8];
        for (int i = 0; i < ns; i++)
            with_san[i] = settings[i];
        with_san[ns] = "notation=san";
        Game *san = perft_game_create("king-down", with_san, ns + 1);
        assert_int_equal((int)san->state_size, (int)g->state_size);
        KdRefRules rules;
        char rerr[128];
        assert_true(kdref_rules(settings, ns, &rules, rerr, sizeof rerr));
        GameState *s = game_state_new(g);
        assert_non_null(s);
        for (int i = 0; i < per_rules; i++) {
            char fen[KDREF_TEXT];
            random_fen(&rng, armies, fen, sizeof fen);
            ErrBuf err;
            err_clear(&err);
            const bool fast_ok = g->ops->parse_position(g, s, fen, &err) == STATUS_OK;
            KdRefPos pos;
            const bool ref_ok = kdref_parse(&rules, fen, &pos, rerr, sizeof rerr);
            if (fast_ok != ref_ok)
                fail_msg("[%s] '%s': fast %s (%s), reference %s (%s)", settings[0], fen,
                         fast_ok ? "accepts" : "rejects", fast_ok ? "" : err.msg,
                         ref_ok ? "accepts" : "rejects", ref_ok ? "" : rerr);
            if (!fast_ok) {
                rejected++;
                continue;
            }
            accepted++;
            PerftPair p;
            pair_open(&p, settings, ns, fen, 0);
            const int n = perft_pair_compare(&p, acts, 0);
            if (n > 0 && i % 5 == 0) {
                perft_pair_compare_perft(&p, 2);
                perfts++;
            }
            if (n > 0 && i % 3 == 0) {
                check_san(san, p.s, acts, fen);
                sans++;
            }
            perft_pair_close(&p);
        }
        free(s);
        game_destroy(san);
        game_destroy(g);
    }
    print_message("random positions: %ld compared, %ld rejected alike, %ld perft checks, "
                  "%ld SAN checks\n",
                  accepted, rejected, perfts, sans);
    assert_true(accepted >= SLOW_BUILD_SHARE(1000));
    free(acts);
}

/* The board part of a position text, as 64 letters or '.' (enough to pick pieces). */
static void fen_board(const char *fen, char board[64])
{
    int sq = 56;
    for (const char *q = fen; *q != ' '; q++) {
        if (*q == '/')
            sq -= 16;
        else if (*q >= '1' && *q <= '8')
            for (int k = 0; k < *q - '0'; k++)
                board[sq++] = '.';
        else
            board[sq++] = *q;
    }
}

/* A random position whose side to move holds Haste: with its token at the start of a
 * turn, or in the middle of a hasted turn (before the first move or the second), so that
 * the rule that each of the two moves is legal on its own is exercised. */
static void random_haste_fen(Rng *rng, char *out, size_t cap)
{
    random_fen(rng, false, out, cap);
    const bool black = strstr(out, " b ") != NULL;
    size_t n = strlen(out);
    const int other = (int)(rng_below(rng, 5) + 2) % 6; // any army but flame (index 1)
    const char *other_power = POWERS[other][rng_below(rng, 2)];
    n += (size_t)snprintf(out + n, cap - n, " armies:%s/%s powers:%s/%s",
                          black ? ARMIES[other] : "flame", black ? "flame" : ARMIES[other],
                          black ? other_power : "haste", black ? "haste" : other_power);
    const int stage = (int)rng_below(rng, 3);
    if (stage == 1) {
        n += (size_t)snprintf(out + n, cap - n, " stage:haste1");
    } else if (stage == 2) {
        char board[64];
        fen_board(out, board);
        const int piece =
            random_square_of(rng, board, black ? "pnbrqkalgme" : "PNBRQKALGME", 0, 64);
        char name[3];
        sq_name(piece, name);
        snprintf(out + n, cap - n, " stage:haste2/%s", name);
    }
}

typedef void (*RandomFen)(Rng *rng, char *out, size_t cap);

/* Positions from `make` under two rule settings, fast against reference: both accept or
 * reject alike, then the action lists, and perft through the rest of the turn. Returns
 * the positions compared. */
static long compare_random(const char *const rules[2][2], RandomFen make, uint64_t seed,
                           long *perfts)
{
    PairActions *acts = malloc(sizeof *acts);
    assert_non_null(acts);
    long accepted = 0;
    Rng rng;
    rng_seed(&rng, seed);
    for (int r = 0; r < 2; r++) {
        Game *g = perft_game_create("king-down", rules[r], 2);
        KdRefRules ref_rules;
        char rerr[128];
        assert_true(kdref_rules(rules[r], 2, &ref_rules, rerr, sizeof rerr));
        GameState *s = game_state_new(g);
        assert_non_null(s);
        for (int i = 0; i < SLOW_BUILD_SHARE(1500); i++) {
            char fen[KDREF_TEXT];
            make(&rng, fen, sizeof fen);
            ErrBuf err;
            err_clear(&err);
            const bool fast_ok = g->ops->parse_position(g, s, fen, &err) == STATUS_OK;
            KdRefPos pos;
            if (fast_ok != kdref_parse(&ref_rules, fen, &pos, rerr, sizeof rerr))
                fail_msg("[%s] '%s': fast and reference disagree on accepting it (%s)",
                         rules[r][1], fen, fast_ok ? rerr : err.msg);
            if (!fast_ok)
                continue;
            accepted++;
            PerftPair p;
            pair_open(&p, rules[r], 2, fen, 0);
            const int n = perft_pair_compare(&p, acts, 0);
            if (n > 0 && i % 4 == 0) {
                perft_pair_compare_perft(&p, 2);
                (*perfts)++;
            }
            perft_pair_close(&p);
        }
        free(s);
        game_destroy(g);
    }
    free(acts);
    return accepted;
}

/* Haste under both values of haste-check. */
static void test_random_haste(void **state)
{
    (void)state;
    static const char *const RULES[2][2] = {{"armies=on", "haste-check=end"},
                                            {"armies=on", "haste-check=each"}};
    long perfts = 0;
    const long accepted = compare_random(RULES, random_haste_fen, 0x4A57E, &perfts);
    print_message("random Haste positions: %ld compared, %ld perft checks\n", accepted, perfts);
    assert_true(accepted >= SLOW_BUILD_SHARE(1000));
}

/* A random position whose side to move holds Freeze or Ice Wall: at the start of a turn,
 * or after declaring it on one piece or (tokens-per-turn=any only) two. */
static void random_frost_fen(Rng *rng, char *out, size_t cap)
{
    random_fen(rng, false, out, cap);
    const bool black = strstr(out, " b ") != NULL;
    char board[64];
    fen_board(out, board);
    size_t n = strlen(out);
    const int other = (int)rng_below(rng, 5) + 1; // any army but frost (index 0)
    const char *other_power = POWERS[other][rng_below(rng, 2)];
    const bool freeze = rng_below(rng, 2);
    const char *power = freeze ? "freeze" : "ice-wall";
    const int tokens = (int)rng_below(rng, 3);
    n += (size_t)snprintf(out + n, cap - n, " armies:%s/%s powers:%s/%s tokens:%d/%d",
                          black ? ARMIES[other] : "frost", black ? "frost" : ARMIES[other],
                          black ? other_power : power, black ? power : other_power,
                          black ? 1 : tokens, black ? tokens : 1);
    const int marks = (int)rng_below(rng, 3);
    if (marks == 0)
        return;
    // Freeze marks the other side's pieces, Ice Wall the mover's own; never kings.
    const bool white_marked = freeze == black;
    const char *letters = white_marked ? "PNBRQALGME" : "pnbrqalgme";
    const int a = random_square_of(rng, board, letters, 0, 64);
    const int b = random_square_of(rng, board, letters, 0, 64);
    if (a < 0)
        return;
    char na[3], nb[3];
    sq_name(a, na);
    sq_name(b, nb);
    snprintf(out + n, cap - n, " stage:declared %s:%s%s%s", freeze ? "frozen" : "iced", na,
             marks == 2 && b != a ? "," : "", marks == 2 && b != a ? nb : "");
}

/* Freeze and Ice Wall under both values of tokens-per-turn. */
static void test_random_tokens(void **state)
{
    (void)state;
    static const char *const RULES[2][2] = {{"armies=on", "tokens-per-turn=one"},
                                            {"armies=on", "tokens-per-turn=any"}};
    long perfts = 0;
    const long accepted = compare_random(RULES, random_frost_fen, 0x70CE5, &perfts);
    print_message("random Freeze / Ice Wall positions: %ld compared, %ld perft checks\n",
                  accepted, perfts);
    assert_true(accepted >= SLOW_BUILD_SHARE(1000));
}

/* An optional argument runs only the tests whose names match it (cmocka pattern). */
int main(int argc, char **argv)
{
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    char path[PERFT_TABLE_PATH];
    perft_table_path(argv[0], "king-down.perft", path, sizeof path);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_published_chess),
        cmocka_unit_test_prestate(test_perft_table, path),
        cmocka_unit_test(test_random_games),
        cmocka_unit_test(test_random_positions),
        cmocka_unit_test(test_random_haste),
        cmocka_unit_test(test_random_tokens),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
