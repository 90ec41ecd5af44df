/*
 * test_kings_castle_perft.c - King's Castle against the plain reference generator.
 *
 * Three layers: the committed table tests/perft/kings-castle.perft (its shallow numbers
 * re-derived by tests/support/kc_reference, every number checked against the fast perft
 * hook and the interface's generic make/unmake perft); random games from the start; and
 * random positions strewn with men in and around the Castle (so that throws at walls and
 * doors, phalanx captures, splits and the Throne come up often), played on for a few
 * moves. At every visited position the move lists (as texts), the position texts and the
 * results of the two must agree, under every rule option; perft is compared now and
 * again. The events seen are counted, and the test insists that each kind occurred.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/game.h"
#include "core/game_api.h"
#include "core/rng.h"
#include "games/kingscastle/kingscastle.h"
#include "support/kc_reference.h"

enum {
    MAX_SETTINGS = 4,
    LOG_CAP = 16384, /* moves played so far, for reproducing a failure */
    LINE_CAP = 1024, /* one line of the perft table */
    PATH_CAP = 4096,
    MAX_DEPTHS = 12,
    LIST_TEXT = 16384,
};

/* Events seen in the random games, to show that the rules in question were exercised. */
typedef struct Events {
    long positions, perfts;
    long throws, throws_across_door, captures, splits, castle_entries;
    long throne_taken, throne_lost, throne_wins, repetitions, swaps;
} Events;

/* The fast game and the reference side by side, kept at the same position. */
typedef struct Pair {
    const char *settings[MAX_SETTINGS];
    int n_settings;
    Game *g;
    GameState *s;
    void *undo;
    KcRefGame *ref;
    char log[LOG_CAP]; /* "<start text> : d4 swap ..." */
} Pair;

static void describe(const Pair *p, char *out, size_t cap)
{
    size_t n = (size_t)snprintf(out, cap, "kings-castle");
    for (int i = 0; i < p->n_settings && n < cap; i++)
        n += (size_t)snprintf(out + n, cap - n, " %s", p->settings[i]);
}

static void pair_open(Pair *p, const char *const *settings, int n_settings, const char *text)
{
    memset(p, 0, sizeof *p);
    p->n_settings = n_settings;
    for (int i = 0; i < n_settings; i++)
        p->settings[i] = settings[i];
    ErrBuf err;
    err_clear(&err);
    if (game_create(&kc_ops, 0, settings, n_settings, &p->g, &err) != STATUS_OK)
        fail_msg("game_create: %s", err.msg);
    p->s = game_state_new(p->g);
    p->undo = game_undo_new(p->g);
    assert_true(p->s != NULL && p->undo != NULL);
    KcRefRules rules;
    char rerr[128];
    if (!kcref_rules(settings, n_settings, &rules, rerr, sizeof rerr))
        fail_msg("reference rules: %s", rerr);
    if (text == NULL) {
        kc_ops.new_game(p->g, p->s, 1);
        text = "6/7/8/9/10/11/10/9/8/7/6 w 0";
    } else if (kc_ops.parse_position(p->g, p->s, text, &err) != STATUS_OK) {
        fail_msg("fast parse of '%s': %s", text, err.msg);
    }
    p->ref = kcref_game_new(&rules, text, rerr, sizeof rerr);
    if (p->ref == NULL)
        fail_msg("reference parse of '%s': %s", text, rerr);
    snprintf(p->log, sizeof p->log, "%s :", text);
}

static void pair_close(Pair *p)
{
    free(p->ref);
    free(p->undo);
    free(p->s);
    game_destroy(p->g);
    p->g = NULL;
}

typedef char MoveText[KCREF_MOVE_TEXT];

static int cmp_text(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

static int fast_texts(const Pair *p, MoveList *list, MoveText *out)
{
    const int n = kc_ops.gen_moves(p->g, p->s, list);
    for (int i = 0; i < n; i++) {
        StrBuf sb;
        sb_init(&sb);
        kc_ops.format_move(p->g, p->s, list->moves[i], &sb);
        snprintf(out[i], sizeof out[i], "%s", sb_str(&sb));
        sb_free(&sb);
    }
    qsort(out, (size_t)n, sizeof out[0], cmp_text);
    return n;
}

static int ref_texts(const Pair *p, MoveText *out)
{
    KcRefMove *moves = malloc(sizeof *moves * KCREF_MAX_MOVES);
    assert_non_null(moves);
    const int n = kcref_legal_moves(p->ref, moves);
    for (int i = 0; i < n; i++)
        kcref_format_move(kcref_current(p->ref), moves[i], out[i]);
    free(moves);
    qsort(out, (size_t)n, sizeof out[0], cmp_text);
    return n;
}

static void join(MoveText *t, int n, char *out, size_t cap)
{
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < n && len < cap; i++)
        len += (size_t)snprintf(out + len, cap - len, "%s%s", i ? " " : "", t[i]);
}

/* Everything observable at the current position must agree: position text, result, move
 * list. Leaves the agreed sorted move texts in `ref` and returns their count. */
static int compare_position(const Pair *p, MoveList *list, MoveText *ref)
{
    char rules[256];
    describe(p, rules, sizeof rules);
    char ref_pos[KCREF_POSITION_TEXT];
    kcref_format_position(kcref_current(p->ref), ref_pos, sizeof ref_pos);
    StrBuf sb;
    sb_init(&sb);
    kc_ops.format_position(p->g, p->s, &sb);
    if (strcmp(sb_str(&sb), ref_pos) != 0)
        fail_msg("[%s] position text '%s', reference '%s'\n  moves: %s", rules, sb_str(&sb),
                 ref_pos, p->log);
    sb_free(&sb);
    ErrBuf err;
    if (!kc_ops.is_ok(p->g, p->s, &err))
        fail_msg("[%s] is_ok at '%s': %s\n  moves: %s", rules, ref_pos, err.msg, p->log);

    const char *why;
    const KcRefResult want = kcref_result(p->ref, &why);
    const int tm = kc_ops.to_move(p->g, p->s);
    if ((want == KCREF_ONGOING) != (tm != PLAYER_NONE))
        fail_msg("[%s] at '%s' the fast game says %s, the reference %s (%s)\n  moves: %s",
                 rules, ref_pos, tm == PLAYER_NONE ? "over" : "not over",
                 want == KCREF_ONGOING ? "not over" : "over", why, p->log);
    if (want == KCREF_ONGOING && tm != kcref_current(p->ref)->to_move)
        fail_msg("[%s] at '%s' fast to_move %d\n  moves: %s", rules, ref_pos, tm, p->log);
    if (want != KCREF_ONGOING) {
        double ret[MAX_PLAYERS] = {0};
        kc_ops.returns(p->g, p->s, ret);
        const double first = want == KCREF_WHITE_WINS ? 1 : want == KCREF_BLACK_WINS ? -1 : 0;
        if (ret[0] != first || ret[1] != -first)
            fail_msg("[%s] at '%s' fast returns %g %g, reference %s (%s)\n  moves: %s", rules,
                     ref_pos, ret[0], ret[1],
                     want == KCREF_DRAW ? "draw" : want == KCREF_WHITE_WINS ? "W wins" : "B wins",
                     why, p->log);
    }

    MoveText *fast = malloc(sizeof *fast * MOVELIST_CAP);
    char *a = malloc(LIST_TEXT), *b = malloc(LIST_TEXT);
    assert_true(fast != NULL && a != NULL && b != NULL);
    const int nf = fast_texts(p, list, fast);
    const int nr = ref_texts(p, ref);
    join(fast, nf, a, LIST_TEXT);
    join(ref, nr, b, LIST_TEXT);
    if (strcmp(a, b) != 0)
        fail_msg("[%s] moves at '%s'\n  fast (%d): %s\n  ref  (%d): %s\n  moves: %s", rules,
                 ref_pos, nf, a, nr, b, p->log);
    const int counted = (int)game_perft(p->g, p->s, 1);
    if (counted != nf)
        fail_msg("[%s] at '%s' the counting perft says %d moves, the list has %d", rules,
                 ref_pos, counted, nf);
    free(fast);
    free(a);
    free(b);
    return nr;
}

static int count_men(const KcRefPos *p, char who)
{
    int n = 0;
    for (int r = 0; r < KCREF_SIDE; r++)
        for (int q = 0; q < KCREF_SIDE; q++)
            n += p->cell[r][q] == who;
    return n;
}

/* Sorts out what the move just played did, from the reference positions. */
static void note_events(const KcRefPos *before, const KcRefPos *after, KcRefMove m,
                        Events *ev)
{
    const char me = before->to_move ? 'B' : 'W', them = before->to_move ? 'W' : 'B';
    const char throne_before = before->cell[5][5], throne_after = after->cell[5][5];
    if (throne_after == me && throne_before != me)
        ev->throne_taken++;
    if (throne_before == them && throne_after != them)
        ev->throne_lost++;
    if (m.kind == KCREF_SWAP)
        ev->swaps++;
    if (m.kind != KCREF_SLIDE)
        return;
    const int lost = count_men(before, them) - count_men(after, them) -
                     (throne_before == them && throne_after != them);
    if (lost > 0)
        ev->captures++;
    if (m.k == 1) {
        // A single that moved an opposing man threw it; at the Castle when the man went
        // in or out through a door.
        int from_q = 0, from_r = 0, to_q = 0, to_r = 0, moved = 0;
        for (int r = 0; r < KCREF_SIDE; r++)
            for (int q = 0; q < KCREF_SIDE; q++) {
                if (before->cell[r][q] == them && after->cell[r][q] != them) {
                    from_q = q - 5;
                    from_r = r - 5;
                    moved++;
                }
                if (before->cell[r][q] != them && after->cell[r][q] == them) {
                    to_q = q - 5;
                    to_r = r - 5;
                }
            }
        if (moved > 0) {
            ev->throws++;
            if (kcref_in_castle(from_q, from_r) != kcref_in_castle(to_q, to_r))
                ev->throws_across_door++;
        }
        return;
    }
    if (m.k < kcref_line_length(before, m.q, m.r, m.dir))
        ev->splits++;
    // The front went in through a door when it started outside and ended inside.
    static const int DQ[6] = {1, 1, 0, -1, -1, 0}, DR[6] = {0, -1, -1, 0, 1, 1};
    if (!kcref_in_castle(m.q, m.r) &&
        kcref_in_castle(m.q + m.dist * DQ[m.dir], m.r + m.dist * DR[m.dir]))
        ev->castle_entries++;
}

/* Plays the move with this text in both. */
static void pair_play(Pair *p, const MoveList *list, const char *text, Events *ev)
{
    Move m = MOVE_NONE;
    for (int i = 0; i < list->count && m == MOVE_NONE; i++) {
        StrBuf sb;
        sb_init(&sb);
        kc_ops.format_move(p->g, p->s, list->moves[i], &sb);
        if (strcmp(sb_str(&sb), text) == 0)
            m = list->moves[i];
        sb_free(&sb);
    }
    KcRefMove rm;
    assert_true(m != MOVE_NONE);
    assert_true(kcref_find_move(p->ref, text, &rm));
    // The text must parse back to the same move.
    ErrBuf err;
    err_clear(&err);
    Move back = MOVE_NONE;
    if (kc_ops.parse_move(p->g, p->s, text, &back, &err) != STATUS_OK || back != m)
        fail_msg("move text '%s' does not parse back: %s\n  moves: %s", text, err.msg, p->log);
    const KcRefPos before = *kcref_current(p->ref);
    kc_ops.make(p->g, p->s, m, p->undo);
    kcref_play(p->ref, rm);
    note_events(&before, kcref_current(p->ref), rm, ev);
    size_t len = strlen(p->log);
    snprintf(p->log + len, sizeof p->log - len, " %s", text);
}

static void compare_perft(const Pair *p, int depth, Events *ev)
{
    const uint64_t want = kcref_perft(p->ref, depth);
    const uint64_t fast = game_perft(p->g, p->s, depth);
    const uint64_t generic = game_perft_generic(p->g, p->s, depth);
    ev->perfts++;
    if (fast != want || generic != want) {
        char rules[256], pos[KCREF_POSITION_TEXT];
        describe(p, rules, sizeof rules);
        kcref_format_position(kcref_current(p->ref), pos, sizeof pos);
        fail_msg("[%s] perft %d at '%s': reference %llu, fast %llu, generic %llu\n  moves: %s",
                 rules, depth, pos, (unsigned long long)want, (unsigned long long)fast,
                 (unsigned long long)generic, p->log);
    }
}

/* Picks the next move: now and then one that repeats an earlier position, so that
 * repetition draws happen often enough to be compared. */
static int pick_move(Pair *p, Rng *rng, MoveText *texts, int n, bool seek_repeats)
{
    if (seek_repeats && rng_below(rng, 8) != 0) {
        KcRefMove *moves = malloc(sizeof *moves * KCREF_MAX_MOVES);
        int *repeats = malloc(sizeof *repeats * (size_t)n);
        assert_true(moves != NULL && repeats != NULL);
        const int nm = kcref_legal_moves(p->ref, moves);
        assert_int_equal(nm, n);
        int nrep = 0;
        for (int i = 0; i < nm; i++) {
            kcref_play(p->ref, moves[i]);
            const bool repeats_one = kcref_occurrences(p->ref) >= 1;
            kcref_undo(p->ref);
            if (!repeats_one)
                continue;
            char t[KCREF_MOVE_TEXT];
            kcref_format_move(kcref_current(p->ref), moves[i], t);
            for (int j = 0; j < n; j++)
                if (strcmp(texts[j], t) == 0)
                    repeats[nrep++] = j;
        }
        const int pick = nrep > 0 ? repeats[rng_below(rng, (uint32_t)nrep)] : -1;
        free(repeats);
        free(moves);
        if (pick >= 0)
            return pick;
    }
    // Slides are rarer than placements; favour them so that the men interact.
    if (rng_below(rng, 3) != 0) {
        int slides = 0;
        for (int i = 0; i < n; i++)
            slides += strchr(texts[i], '-') != NULL || strchr(texts[i], 'x') != NULL;
        if (slides > 0) {
            int k = (int)rng_below(rng, (uint32_t)slides);
            for (int i = 0; i < n; i++)
                if (strchr(texts[i], '-') != NULL || strchr(texts[i], 'x') != NULL)
                    if (k-- == 0)
                        return i;
        }
    }
    return (int)rng_below(rng, (uint32_t)n);
}

/* Plays up to `plies` moves from the pair's position, comparing every position. */
static void walk(Pair *p, Rng *rng, int plies, int perft_every, int perft_depth,
                 bool seek_repeats, Events *ev)
{
    MoveList *list = malloc(sizeof *list);
    MoveText *texts = malloc(sizeof *texts * KCREF_MAX_MOVES);
    assert_true(list != NULL && texts != NULL);
    for (int ply = 0;; ply++) {
        const int n = compare_position(p, list, texts);
        ev->positions++;
        if (perft_every > 0 && ev->positions % perft_every == 0)
            compare_perft(p, perft_depth, ev);
        if (n == 0) {
            const char *why;
            const KcRefResult r = kcref_result(p->ref, &why);
            if (strcmp(why, "own man on the Throne") == 0)
                ev->throne_wins++;
            if (r == KCREF_DRAW && strcmp(why, "third occurrence") == 0)
                ev->repetitions++;
            break;
        }
        if (ply >= plies)
            break;
        int i = pick_move(p, rng, texts, n, seek_repeats);
        if (strcmp(texts[n - 1], "swap") == 0 && rng_below(rng, 2) == 0)
            i = n - 1; // sorted texts: "swap" comes after the cell names

        pair_play(p, list, texts[i], ev);
    }
    free(list);
    free(texts);
}

/* --- (a) the committed table -------------------------------------------------------------- */

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = '\0';
    return s;
}

/* One table line: "[name=value ...] <position> ;D1 n ;D2 n ...". Rule settings (words
 * with '=') may come before the position. */
static void check_table_line(char *line, int line_no, int ref_depth)
{
    char *fields[MAX_DEPTHS + 2] = {0};
    int nf = 0;
    char *p = line;
    while (nf < MAX_DEPTHS + 2) {
        fields[nf++] = p;
        char *semi = strchr(p, ';');
        if (semi == NULL)
            break;
        *semi = '\0';
        p = semi + 1;
    }
    if (nf < 2)
        fail_msg("perft table line %d: expected <position> ;D1 n", line_no);
    const char *settings[MAX_SETTINGS];
    int ns = 0;
    char *head = trim(fields[0]);
    while (strchr(head, '=') != NULL && strchr(head, ' ') != NULL &&
           strchr(head, '=') < strchr(head, ' ')) {
        char *sp = strchr(head, ' ');
        *sp = '\0';
        if (ns == MAX_SETTINGS)
            fail_msg("perft table line %d: too many settings", line_no);
        settings[ns++] = head;
        head = trim(sp + 1);
    }
    Pair pair;
    pair_open(&pair, settings, ns, head);
    for (int i = 1; i < nf; i++) {
        int depth;
        unsigned long long n;
        if (sscanf(trim(fields[i]), "D%d %llu", &depth, &n) != 2 || depth < 1)
            fail_msg("perft table line %d: bad field '%s'", line_no, fields[i]);
        const uint64_t fast = game_perft(pair.g, pair.s, depth);
        const uint64_t generic = game_perft_generic(pair.g, pair.s, depth);
        if (fast != n || generic != n)
            fail_msg("perft table line %d (%s) D%d: table %llu, fast %llu, generic %llu",
                     line_no, head, depth, n, (unsigned long long)fast,
                     (unsigned long long)generic);
        // The reference re-derives the shallow numbers, so an edited table is caught.
        if (depth <= ref_depth && kcref_perft(pair.ref, depth) != n)
            fail_msg("perft table line %d D%d: the reference disagrees with the table",
                     line_no, depth);
    }
    pair_close(&pair);
}

static void test_perft_table(void **state)
{
    const char *path = *state;
    FILE *f = fopen(path, "r");
    if (f == NULL)
        fail_msg("cannot open %s (run from the source root or set CROWN_ROOT)", path);
    char line[LINE_CAP];
    int line_no = 0, checked = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        line_no++;
        char *t = trim(line);
        if (t[0] == '\0' || t[0] == '#')
            continue;
        check_table_line(t, line_no, 2);
        checked++;
    }
    fclose(f);
    assert_true(checked >= 10);
    print_message("perft table: %d positions\n", checked);
}

/* --- (b) random games from the start ------------------------------------------------------ */

typedef struct Case {
    const char *settings[MAX_SETTINGS];
    int n_settings;
    int games;
} Case;

static const Case CASES[] = {
    {{0}, 0, 6},
    {{"swap=off"}, 1, 1},
    {{"single-range=full"}, 1, 3},
    {{"throne-entry=move"}, 1, 3},
    {{"throne-loss=broken"}, 1, 3},
    {{"no-move=draw"}, 1, 1},
    {{"repetition=off"}, 1, 1},
    {{"max-plies=30"}, 1, 1},
    {{"throne-entry=move", "throne-loss=broken", "single-range=full"}, 3, 2},
};

static void test_random_games(void **state)
{
    (void)state;
    Events ev = {0};
    for (size_t c = 0; c < sizeof CASES / sizeof CASES[0]; c++) {
        for (int k = 0; k < CASES[c].games; k++) {
            Pair p;
            pair_open(&p, CASES[c].settings, CASES[c].n_settings, NULL);
            Rng rng;
            rng_seed(&rng, 0xC4570000u + 100 * c + (uint64_t)k);
            walk(&p, &rng, 120, 37, 2, k % 2 == 1, &ev);
            pair_close(&p);
        }
    }
    print_message("%ld positions compared, %ld perft comparisons; %ld swaps, %ld repetition "
                  "draws\n",
                  ev.positions, ev.perfts, ev.swaps, ev.repetitions);
    assert_true(ev.swaps > 0 && ev.repetitions > 0);
}

/* --- (c) random positions ------------------------------------------------------------------ */

/* A random position: men strewn with a density that favours the Castle and its doors,
 * the Throne sometimes taken, either side to move. */
static void random_position(Rng *rng, char *out, size_t cap)
{
    KcRefPos p;
    memset(&p, 0, sizeof p);
    memset(p.cell, '.', sizeof p.cell);
    const int density = 10 + (int)rng_below(rng, 45); // percent, outside
    const int inner = 20 + (int)rng_below(rng, 60);   // percent, near the centre
    const int white_share = 30 + (int)rng_below(rng, 41);
    for (int r = -KCREF_RADIUS; r <= KCREF_RADIUS; r++)
        for (int q = -KCREF_RADIUS; q <= KCREF_RADIUS; q++) {
            const int dist = abs(q) > abs(r) ? (abs(q) > abs(q + r) ? abs(q) : abs(q + r))
                                             : (abs(r) > abs(q + r) ? abs(r) : abs(q + r));
            if (dist > KCREF_RADIUS || (q == 0 && r == 0))
                continue;
            const int chance = dist <= 3 ? inner : density;
            if ((int)rng_below(rng, 100) < chance)
                p.cell[r + 5][q + 5] =
                    (int)rng_below(rng, 100) < white_share ? 'W' : 'B';
        }
    const int throne = (int)rng_below(rng, 4);
    if (throne == 1)
        p.cell[5][5] = 'W';
    else if (throne == 2)
        p.cell[5][5] = 'B';
    p.to_move = (int)rng_below(rng, 2);
    p.ply = 2 + (int)rng_below(rng, 60);
    kcref_format_position(&p, out, cap);
}

static void test_random_positions(void **state)
{
    (void)state;
    static const Case POS_CASES[] = {
        {{0}, 0, 700},
        {{"single-range=full"}, 1, 200},
        {{"throne-entry=move"}, 1, 200},
        {{"throne-loss=broken"}, 1, 200},
        {{"throne-entry=move", "throne-loss=broken"}, 2, 100},
        {{"no-move=draw", "repetition=off"}, 2, 60},
        {{"max-plies=70"}, 1, 60},
    };
    Events ev = {0};
    for (size_t c = 0; c < sizeof POS_CASES / sizeof POS_CASES[0]; c++) {
        Rng rng;
        rng_seed(&rng, 0x9051710Eu + 1000 * c);
        for (int k = 0; k < POS_CASES[c].games; k++) {
            char text[KCREF_POSITION_TEXT];
            random_position(&rng, text, sizeof text);
            Pair p;
            pair_open(&p, POS_CASES[c].settings, POS_CASES[c].n_settings, text);
            walk(&p, &rng, 8, 23, 2, k % 3 == 0, &ev);
            pair_close(&p);
        }
    }
    print_message("%ld positions compared, %ld perft comparisons; seen: %ld throws (%ld "
                  "through a door), %ld captures, %ld splits, %ld phalanxes entering the "
                  "Castle, %ld Throne taken, %ld Throne lost, %ld Throne wins, %ld repetition "
                  "draws\n",
                  ev.positions, ev.perfts, ev.throws, ev.throws_across_door, ev.captures,
                  ev.splits, ev.castle_entries, ev.throne_taken, ev.throne_lost,
                  ev.throne_wins, ev.repetitions);
    assert_true(ev.throws > 50 && ev.throws_across_door > 10 && ev.captures > 50);
    assert_true(ev.splits > 50 && ev.castle_entries > 10);
    assert_true(ev.throne_taken > 20 && ev.throne_lost > 5 && ev.throne_wins > 5);
}

/* The table file: $CROWN_ROOT/tests/perft/..., else relative to the working directory,
 * else relative to the binary (build/<variant>/tests/test_kings_castle_perft). */
static void find_table(const char *argv0, char *out, size_t cap)
{
    const char *rel = "tests/perft/kings-castle.perft";
    const char *root = getenv("CROWN_ROOT");
    if (root != NULL) {
        snprintf(out, cap, "%s/%s", root, rel);
        return;
    }
    if (access(rel, R_OK) == 0) {
        snprintf(out, cap, "%s", rel);
        return;
    }
    const char *slash = strrchr(argv0, '/');
    const int dir_len = slash ? (int)(slash - argv0) : 1;
    snprintf(out, cap, "%.*s/../../../%s", dir_len, slash ? argv0 : ".", rel);
}

int main(int argc, char **argv)
{
    (void)argc;
    char path[PATH_CAP];
    find_table(argv[0], path, sizeof path);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_prestate(test_perft_table, path),
        cmocka_unit_test(test_random_games),
        cmocka_unit_test(test_random_positions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
