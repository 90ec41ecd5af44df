/*
 * test_kings_castle_rules.c - every King's Castle rule and option as a small board
 * diagram with the moves expected to be legal and illegal, and what a move leaves behind.
 *
 * Diagrams are the eleven ranks of the hexagon from rank 11 down to rank 1, drawn the way
 * `crown play` draws them: one character per cell, W and B for men, '.' for an empty
 * outside cell, '+' for an empty castle cell and '*' for the empty Throne. The helper
 * refuses a diagram whose castle marks are misplaced, so the pictures cannot drift from
 * the board. Cell names (R-KC-2), for reading the diagrams:
 *
 *          f11 g11 h11 i11 j11 k11
 *        e10 f10 g10 h10 i10 j10 k10
 *       d9  e9  f9  g9  h9  i9  j9  k9
 *     c8  d8  e8  f8 [g8] h8  i8  j8  k8
 *   b7  c7  d7 [e7  f7  g7  h7] i7  j7  k7
 * a6  b6  c6  d6 [e6 (f6) g6] h6  i6  j6  k6
 *   a5  b5  c5 [d5  e5  f5  g5] h5  i5  j5
 *     a4  b4  c4  d4 [e4] f4  g4  h4  i4
 *       a3  b3  c3  d3  e3  f3  g3  h3
 *         a2  b2  c2  d2  e2  f2  g2
 *           a1  b1  c1  d1  e1  f1
 *
 * Same rank is one line; same file runs down to the right; file and rank rising together
 * runs up to the right. [..] is the Castle, (f6) the Throne.
 *
 * The cases repeat their set-up and checks on purpose, each drawing its whole board: a
 * rule case is read on its own against the rules, and one that borrowed another's board
 * would change with it.
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
#include "support/rule_text.h"
#include "games/kingscastle/kc_internal.h"
#include "games/kingscastle/kingscastle.h"

enum { TEXT_CAP = 256, MAX_SETTINGS = 4 };

typedef const char *const Diagram[KC_SIDE];

/* An empty board, to copy from when drawing. */
static Diagram EMPTY = {
    "     . . . . . .",
    "    . . . . . . .",
    "   . . . . . . . .",
    "  . . . . + . . . .",
    " . . . + + + + . . .",
    ". . . . + * + . . . .",
    " . . . + + + + . . .",
    "  . . . . + . . . .",
    "   . . . . . . . .",
    "    . . . . . . .",
    "     . . . . . .",
};

static const int RANK_LEN[KC_SIDE] = {6, 7, 8, 9, 10, 11, 10, 9, 8, 7, 6};

/* The castle mark expected on the i-th cell of a rank: '+', '*' or '.'. */
static char castle_mark(int row, int i)
{
    const char *r = EMPTY[row];
    for (; *r; r++) {
        if (*r == ' ')
            continue;
        if (i-- == 0)
            return *r;
    }
    return '?';
}

/* Turns a diagram into position text; fails the test on a malformed diagram. */
static void diagram_text(Diagram rows, char side, int ply, char *out, size_t cap)
{
    size_t n = 0;
    for (int row = 0; row < KC_SIDE; row++) {
        int i = 0, empty = 0;
        for (const char *p = rows[row]; *p; p++) {
            if (*p == ' ')
                continue;
            if (i >= RANK_LEN[row])
                fail_msg("diagram rank %d has more than %d cells", KC_SIDE - row, RANK_LEN[row]);
            const char mark = castle_mark(row, i);
            if (*p == '.' || *p == '+' || *p == '*') {
                if (*p != mark)
                    fail_msg("diagram rank %d cell %d: '%c' where the board has '%c'",
                             KC_SIDE - row, i + 1, *p, mark);
                empty++;
            } else if (*p == 'W' || *p == 'B') {
                if (empty)
                    n += (size_t)snprintf(out + n, cap - n, "%d", empty);
                empty = 0;
                n += (size_t)snprintf(out + n, cap - n, "%c", *p);
            } else {
                fail_msg("diagram rank %d: bad character '%c'", KC_SIDE - row, *p);
            }
            i++;
        }
        if (i != RANK_LEN[row])
            fail_msg("diagram rank %d has %d cells, not %d", KC_SIDE - row, i, RANK_LEN[row]);
        if (empty)
            n += (size_t)snprintf(out + n, cap - n, "%d", empty);
        if (row + 1 < KC_SIDE)
            n += (size_t)snprintf(out + n, cap - n, "/");
    }
    snprintf(out + n, cap - n, " %c %d", side, ply);
}

/* A game with rule settings and a state set up from a diagram. */
typedef struct Setup {
    Game *g;
    GameState *s;
    void *undo;
} Setup;

static Setup setup_rules(const char *const *settings, int n, Diagram rows, char side, int ply)
{
    Setup t;
    ErrBuf err;
    err_clear(&err);
    if (rule_text_create(&kc_ops, 0, settings, n, &t.g, &err) != STATUS_OK)
        fail_msg("game_create: %s", err.msg);
    t.s = game_state_new(t.g);
    t.undo = game_undo_new(t.g);
    char text[TEXT_CAP];
    diagram_text(rows, side, ply, text, sizeof text);
    if (kc_ops.parse_position(t.g, t.s, text, &err) != STATUS_OK)
        fail_msg("parse '%s': %s", text, err.msg);
    return t;
}

static Setup setup(Diagram rows, char side, int ply)
{
    return setup_rules(NULL, 0, rows, side, ply);
}

static Setup setup_with(const char *setting, Diagram rows, char side, int ply)
{
    const char *settings[1] = {setting};
    return setup_rules(settings, 1, rows, side, ply);
}

static void done(Setup *t)
{
    free(t->s);
    free(t->undo);
    game_destroy(t->g);
}

static char *position_of(const Setup *t)
{
    StrBuf sb;
    sb_init(&sb);
    kc_ops.format_position(t->g, t->s, &sb);
    char *out = strdup(sb_str(&sb));
    sb_free(&sb);
    return out;
}

/* All legal move texts, space-separated, in generation order. */
static char *move_texts(const Setup *t)
{
    MoveList *ml = malloc(sizeof *ml);
    assert_non_null(ml);
    kc_ops.gen_moves(t->g, t->s, ml);
    StrBuf sb;
    sb_init(&sb);
    for (int i = 0; i < ml->count; i++) {
        if (i)
            sb_putc(&sb, ' ');
        kc_ops.format_move(t->g, t->s, ml->moves[i], &sb);
    }
    free(ml);
    char *out = strdup(sb_str(&sb));
    sb_free(&sb);
    return out;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The legal moves whose text starts with `prefix` (and, with slides_only, that move men),
 * sorted, must be exactly `want` (sorted too). */
static void expect_filtered(const Setup *t, const char *prefix, bool slides_only,
                            const char *want)
{
    char *all = move_texts(t);
    const char *list[MOVELIST_CAP];
    int n = 0;
    for (char *tok = strtok(all, " "); tok; tok = strtok(NULL, " "))
        if (strncmp(tok, prefix, strlen(prefix)) == 0 &&
            (!slides_only || strchr(tok, '-') || strchr(tok, 'x')))
            list[n++] = tok;
    qsort(list, (size_t)n, sizeof list[0], cmp_str);
    char got[4096] = "";
    for (int i = 0; i < n; i++) {
        strcat(got, i ? " " : "");
        strcat(got, list[i]);
    }
    char want_copy[4096];
    snprintf(want_copy, sizeof want_copy, "%s", want);
    const char *wl[MOVELIST_CAP];
    int nw = 0;
    for (char *tok = strtok(want_copy, " "); tok; tok = strtok(NULL, " "))
        wl[nw++] = tok;
    qsort(wl, (size_t)nw, sizeof wl[0], cmp_str);
    char want_sorted[4096] = "";
    for (int i = 0; i < nw; i++) {
        strcat(want_sorted, i ? " " : "");
        strcat(want_sorted, wl[i]);
    }
    if (strcmp(got, want_sorted) != 0) {
        char *pos = position_of(t);
        fail_msg("at '%s', moves '%s...':\n  got:  %s\n  want: %s", pos, prefix, got,
                 want_sorted);
    }
    free(all);
}

/* The moves of one man or placement: texts starting with `prefix` ("d4-", "d4"). */
static void expect_moves(const Setup *t, const char *prefix, const char *want)
{
    expect_filtered(t, prefix, false, want);
}

/* Every move of men (singles and phalanxes) in the position. */
static void expect_slides(const Setup *t, const char *want)
{
    expect_filtered(t, "", true, want);
}

/* `text` is refused, with a message containing `why`. */
static void expect_illegal(const Setup *t, const char *text, const char *why)
{
    ErrBuf err;
    err_clear(&err);
    Move m;
    const Status st = kc_ops.parse_move(t->g, t->s, text, &m, &err);
    if (st == STATUS_OK)
        fail_msg("'%s' was accepted", text);
    if (strstr(err.msg, why) == NULL)
        fail_msg("'%s' refused with '%s', expected a message with '%s'", text, err.msg, why);
}

/* Plays `text`, which must be legal. */
static void play(Setup *t, const char *text)
{
    ErrBuf err;
    err_clear(&err);
    Move m;
    if (kc_ops.parse_move(t->g, t->s, text, &m, &err) != STATUS_OK) {
        char *pos = position_of(t);
        fail_msg("'%s' refused at '%s': %s", text, pos, err.msg);
    }
    kc_ops.make(t->g, t->s, m, t->undo);
    if (!kc_ops.is_ok(t->g, t->s, &err))
        fail_msg("is_ok after '%s': %s", text, err.msg);
}

/* The board must now be the diagram, with `side` to move. */
static void expect_board(const Setup *t, Diagram rows, char side)
{
    char want[TEXT_CAP];
    diagram_text(rows, side, ((const KcState *)t->s)->ply, want, sizeof want);
    char *got = position_of(t);
    if (strcmp(got, want) != 0)
        fail_msg("board is '%s', expected '%s'", got, want);
    free(got);
}

static void expect_over(const Setup *t, int winner, const char *why)
{
    assert_int_equal(kc_ops.to_move(t->g, t->s), PLAYER_NONE);
    double r[MAX_PLAYERS] = {0};
    kc_ops.returns(t->g, t->s, r);
    if (winner < 0) {
        assert_true(r[0] == 0 && r[1] == 0);
    } else {
        assert_true(r[winner] == 1 && r[1 - winner] == -1);
    }
    StrBuf sb;
    sb_init(&sb);
    kc_ops.describe_result(t->g, t->s, &sb);
    if (strstr(sb_str(&sb), why) == NULL)
        fail_msg("result '%s', expected '%s'", sb_str(&sb), why);
    sb_free(&sb);
    char *moves = move_texts(t);
    assert_string_equal(moves, "");
    free(moves);
}

/* --- the board ------------------------------------------------------------------------ */

static void test_geometry(void **state)
{
    (void)state;
    Game *g;
    ErrBuf err;
    assert_int_equal(rule_text_create(&kc_ops, 0, NULL, 0, &g, &err), STATUS_OK);
    const KcConfig *c = kc_cfg(g);
    assert_int_equal(bb128_count(c->board), 91);
    assert_int_equal(bb128_count(c->castle), 13);
    assert_int_equal(bb128_count(c->outside), 78);
    int walls = 0, doors = 0;
    for (int cell = 0; cell < KC_GRID; cell++)
        for (int d = 0; d < KC_DIRS; d++) {
            walls += c->wall[cell][d];
            doors += c->door[cell][d];
        }
    assert_int_equal(walls, 2 * 18); // each edge seen from both sides
    assert_int_equal(doors, 2 * 12);
    // Each entrance cell has two doors, to the two cells beyond it; each corner cell
    // three walls.
    static const char *const entrances[] = {"h7", "g5", "e4", "d5", "e7", "g8"};
    static const char *const corners[] = {"h6", "f4", "d4", "d6", "f8", "h8"};
    for (int i = 0; i < 6; i++) {
        const int e = kc_index(entrances[i][0] - 'a' - 5, 6 - atoi(entrances[i] + 1));
        const int k = kc_index(corners[i][0] - 'a' - 5, 6 - atoi(corners[i] + 1));
        int de = 0, wk = 0;
        for (int d = 0; d < KC_DIRS; d++) {
            de += c->door[e][d];
            wk += c->wall[k][d];
        }
        assert_true(bb128_has(c->castle, e) && !bb128_has(c->castle, k));
        assert_int_equal(de, 2);
        assert_int_equal(wk, 3);
    }
    // Every door has exactly three outside cells in front of it (so a phalanx of three
    // is the longest that lines up there) and four castle cells beyond it.
    for (int a = 0; a < 12; a++) {
        for (int i = 0; i < 3; i++)
            assert_true(c->approach[a][i] >= 0 && bb128_has(c->outside, c->approach[a][i]));
        assert_int_equal(c->step[(c->approach_dir[a] + 3) % KC_DIRS][c->approach[a][2]], -1);
        for (int i = 0; i < 4; i++)
            assert_true(c->inward[a][i] >= 0 && bb128_has(c->castle, c->inward[a][i]) &&
                        c->inward[a][i] != KC_THRONE);
    }
    game_destroy(g);
}

/* R-KC-2: a1 = (-5,5), k11 = (5,-5), the Throne f6; position text of the empty
 * board. */
static void test_cell_names_and_start(void **state)
{
    (void)state;
    StrBuf sb;
    sb_init(&sb);
    kc_format_cell(kc_index(-5, 5), &sb);
    sb_putc(&sb, ' ');
    kc_format_cell(kc_index(5, -5), &sb);
    sb_putc(&sb, ' ');
    kc_format_cell(KC_THRONE, &sb);
    assert_string_equal(sb_str(&sb), "a1 k11 f6");
    sb_free(&sb);
    Setup t = setup(EMPTY, 'w', 0);
    GameState *fresh = game_state_new(t.g);
    kc_ops.new_game(t.g, fresh, 7);
    assert_memory_equal(fresh, t.s, t.g->state_size);
    char *pos = position_of(&t);
    assert_string_equal(pos, "6/7/8/9/10/11/10/9/8/7/6 w 0");
    free(pos);
    free(fresh);
    done(&t);
}

/* The move-count bound of kc_rules.c: along every line of the board, the most slides any
 * pattern of men can give, summed over all lines, plus 78 placements and the swap, stays
 * within MOVELIST_CAP. */
static int line_slides(const int *pattern, int n)
{
    int total = 0;
    for (int i = 0; i < n;) {
        if (!pattern[i]) {
            i++;
            continue;
        }
        int j = i;
        while (j < n && pattern[j])
            j++;
        const int len = j - i;
        int before = 0, after = 0;
        for (int k = i - 1; k >= 0 && !pattern[k]; k--)
            before++;
        for (int k = j; k < n && !pattern[k]; k++)
            after++;
        for (int side = 0; side < 2; side++) {
            const int room = side ? after : before;
            if (len == 1)
                total += room;
            for (int k = 2; k <= len; k++)
                total += k < room ? k : room;
        }
        i = j;
    }
    return total;
}

static void test_move_bound(void **state)
{
    (void)state;
    Game *g;
    ErrBuf err;
    assert_int_equal(rule_text_create(&kc_ops, 0, NULL, 0, &g, &err), STATUS_OK);
    const KcConfig *c = kc_cfg(g);
    int bound = 0;
    for (int d = 0; d < 3; d++) {
        for (int cell = 0; cell < KC_GRID; cell++) {
            if (!bb128_has(c->board, cell) || c->raw_step[d + 3][cell] >= 0)
                continue; // not the start of a line
            int n = 0;
            for (int x = cell; x >= 0; x = c->raw_step[d][x])
                n++;
            int best = 0, pattern[16];
            for (int bits = 0; bits < 1 << n; bits++) {
                for (int i = 0; i < n; i++)
                    pattern[i] = (bits >> i) & 1;
                const int v = line_slides(pattern, n);
                best = v > best ? v : best;
            }
            bound += best;
        }
    }
    print_message("at most %d slides + 78 placements + 1 swap per position\n", bound);
    assert_int_equal(bound, 468);
    assert_true(bound + 78 + 1 <= MOVELIST_CAP);
    game_destroy(g);
}

/* --- placement and the swap ------------------------------------------------------------- */

static void test_first_placement_and_swap(void **state)
{
    (void)state;
    Setup t = setup(EMPTY, 'w', 0);
    char *all = move_texts(&t);
    int n = 0;
    for (char *tok = strtok(all, " "); tok; tok = strtok(NULL, " "))
        n++;
    free(all);
    assert_int_equal(n, 78); // every outside cell, no castle cell
    expect_illegal(&t, "f6", "Throne");
    expect_illegal(&t, "g7", "inside the Castle");
    expect_illegal(&t, "e4", "inside the Castle");
    expect_illegal(&t, "swap", "Black's first move");
    play(&t, "d4"); // a corner cell is outside
    // Black may take the man over instead of placing.
    expect_moves(&t, "swap", "swap");
    play(&t, "swap");
    static Diagram after_swap = {
        "     . . . . . .",
        "    . . . . . . .",
        "   . . . . . . . .",
        "  . . . . + . . . .",
        " . . . + + + + . . .",
        ". . . . + * + . . . .",
        " . . . + + + + . . .",
        "  . . . B + . . . .",
        "   . . . . . . . .",
        "    . . . . . . .",
        "     . . . . . .",
    };
    expect_board(&t, after_swap, 'w');
    expect_illegal(&t, "swap", "Black's first move");
    done(&t);

    // Black may also simply place; then the swap is gone for good.
    t = setup(EMPTY, 'w', 0);
    play(&t, "d4");
    play(&t, "a1");
    play(&t, "k11");
    expect_illegal(&t, "swap", "Black's first move");
    done(&t);

    // swap=off
    t = setup_with("swap=off", EMPTY, 'w', 0);
    play(&t, "d4");
    expect_moves(&t, "swap", "");
    expect_illegal(&t, "swap", "swap=off");
    done(&t);
}

/* Never next to a friendly man; walls break adjacency, doors do not (R-KC-3). */
static void test_placement_adjacency(void **state)
{
    (void)state;
    static Diagram d = {
        "     . . . . . .",
        "    . . . . . . .",
        "   . . . . . . . .",
        "  . . . . + . . . .",
        " . . . + + + + . . .",
        ". . . . + * + . . . .",
        " . . . + W + + . . .",    // W on e5 (inner)
        "  . . . . W . . . B",     // W on e4 (entrance), B on i4
        "   . . . . . . . .",
        "    . . . . . . .",
        "     . . . . . .",
    };
    Setup t = setup(d, 'w', 6);
    // e4's doors lead to d3 and e3: both are next to it.
    expect_illegal(&t, "e3", "next to your man on e4");
    expect_illegal(&t, "d3", "next to your man on e4");
    // d4 and f4 are walled off from e4 and e5: placing there is fine.
    expect_moves(&t, "d4", "d4");
    expect_moves(&t, "f4", "f4");
    // Next to an opposing man is fine.
    expect_moves(&t, "h4", "h4");
    expect_moves(&t, "h3", "h3");
    expect_illegal(&t, "i4", "not empty");
    expect_illegal(&t, "d5", "inside the Castle");
    done(&t);
}


/* --- singles --------------------------------------------------------------------------- */

/* Any distance along the six lines, never into the Castle from outside (not even through
 * a door), never through a wall. */
static void test_single_moves(void **state)
{
    (void)state;
    static Diagram d = {
        "     . . . . . .",
        "    . . . . . . .",
        "   . . . . . . . .",
        "  . . . . + . . . .",
        " . . W + + + + . . .",    // W d7, outside the door of e7
        ". . . . + * + . . . .",
        " . . . + + + + . . .",
        "  . . . . + . . . .",
        "   . . . . . B . .",      // B f3
        "    . . . . . . .",
        "     . . . . . .",
    };
    Setup t = setup(d, 'w', 8);
    expect_moves(&t, "d7-",
                 "d7-c7 d7-b7 d7-d8 d7-d9 d7-e8 d7-f9 d7-g10 d7-h11 d7-c6 d7-b5 d7-a4 d7-d6");
    expect_illegal(&t, "d7-e7", "may not enter the Castle (e7) from outside");
    expect_illegal(&t, "d7-f7", "may not enter the Castle (e7) from outside");
    expect_illegal(&t, "d7-d4", "a wall of the Castle stands between d6 and d5");
    expect_illegal(&t, "d7-e9", "straight line");
    expect_illegal(&t, "f3-f2", "your opponent's man");
    expect_illegal(&t, "a1-a2", "none of your men");
    done(&t);
}

/* A single inside moves within the Castle and may leave through a door, going on outside
 * in the same move; it never stops on or passes the Throne; once out it stays out. */
static void test_single_inside_the_castle(void **state)
{
    (void)state;
    static Diagram d = {
        "     . . . . . .",
        "    . . . . . . .",
        "   . . . . . . . .",
        "  . . . . + . . . .",
        " . . . + W + + . . .",    // W f7 (inner)
        ". . . . + * + . . . .",
        " . . . + + + W . . .",    // W g5 (entrance)
        "  . . . . + . . . .",
        "   . . . . . . . .",
        "    . . . . . . .",
        "     . . . . . .",
    };
    Setup t = setup(d, 'w', 8);
    expect_moves(&t, "f7-",
                 "f7-g7 f7-h7 f7-i7 f7-j7 f7-k7 f7-e7 f7-d7 f7-c7 f7-b7"
                 " f7-g8 f7-h9 f7-i10 f7-j11 f7-e6 f7-d5 f7-c4 f7-b3 f7-a2");
    expect_illegal(&t, "f7-f5", "Throne");
    expect_illegal(&t, "f7-f8", "a wall of the Castle stands between f7 and f8");
    // g5's doors lead to h5 and g4; its other outward edges are walls.
    expect_moves(&t, "g5-",
                 "g5-h5 g5-i5 g5-j5 g5-g4 g5-g3 g5-g2 g5-f5 g5-e5 g5-d5 g5-c5 g5-b5 g5-a5"
                 " g5-g6 g5-g7 g5-g8 g5-g9 g5-g10 g5-g11");
    expect_illegal(&t, "g5-h6", "wall");
    expect_illegal(&t, "g5-f4", "wall");
    done(&t);
    // With single-throne=cross a single inside may pass over the empty Throne, never
    // stopping on it: f7 reaches f5 (then a wall).
    t = setup_with("single-throne=cross", d, 'w', 8);
    expect_moves(&t, "f7-",
                 "f7-g7 f7-h7 f7-i7 f7-j7 f7-k7 f7-e7 f7-d7 f7-c7 f7-b7"
                 " f7-g8 f7-h9 f7-i10 f7-j11 f7-e6 f7-d5 f7-c4 f7-b3 f7-a2 f7-f5");
    expect_illegal(&t, "f7-f6", "not stop on it");
    done(&t);
    t = setup(d, 'w', 8);
    play(&t, "g5-g3");
    play(&t, "a1");
    expect_illegal(&t, "g3-g5", "may not enter the Castle");
    expect_moves(&t, "g3-", "g3-g2 g3-g4 g3-h3 g3-f3 g3-e3 g3-d3 g3-c3 g3-b3 g3-a3 g3-h4 "
                            "g3-i5 g3-j6 g3-k7 g3-f2 g3-e1");
    done(&t);
}

/* A man with a connected friendly neighbour is no single; men across a wall are not
 * connected, so each of them is. */
static void test_grouped_man_is_no_single(void **state)
{
    (void)state;
    static Diagram d = {
        "     . . . . . .",
        "    . . . . . . .",
        "   . . . . . . . .",
        "  . . . . + . . . .",
        " . . . + + + + . . .",
        ". . . W W * + . . . .",   // W d6 | e6, a wall between them
        " . . . + + + + . . .",
        "  . . . . + . . . .",
        "   . W W . . . . .",      // W b3 c3, a phalanx
        "    . . . . . . .",
        "     . . . . . .",
    };
    Setup t = setup(d, 'w', 8);
    expect_illegal(&t, "b3-b2", "part of a phalanx with c3");
    expect_moves(&t, "b3-", "");
    expect_moves(&t, "d6-", "d6-c6 d6-b6 d6-a6 d6-d7 d6-d8 d6-d9 d6-c5 d6-b4 d6-a3");
    expect_moves(&t, "e6-", "e6-e7 e6-e8 e6-e9 e6-e10 e6-f7 e6-g8 e6-h9 e6-i10 e6-j11"
                            " e6-d5 e6-c4 e6-e5 e6-e4 e6-e3 e6-e2 e6-e1");
    done(&t);
}

/* --- the overhead throw ----------------------------------------------------------------- */

static Diagram THROW_ROW = {
    "     . . . . . .",
    "    . . . . . . .",
    "   . . . . . . . .",
    "  . . . . + . . . .",
    " . . . + + + + . . .",
    "W . . B + * + . . . .",       // W a6, B d6
    " . . . + + + + . . .",
    "  . . . . + . . . .",
    "   . . . . . . . .",
    "    . . . . . . .",
    "     . . . . . .",
};

static void test_throw(void **state)
{
    (void)state;
    Setup t = setup(THROW_ROW, 'w', 8);
    expect_moves(&t, "a6-", "a6-b6 a6-c6 a6-a5 a6-a4 a6-a3 a6-a2 a6-a1 a6-b7 a6-c8 a6-d9 "
                            "a6-e10 a6-f11");
    // Stopping right before the opposing man throws it onto the last cell traversed.
    play(&t, "a6-c6");
    static Diagram thrown = {
        "     . . . . . .",
        "    . . . . . . .",
        "   . . . . . . . .",
        "  . . . . + . . . .",
        " . . . + + + + . . .",
        ". B W . + * + . . . .",
        " . . . + + + + . . .",
        "  . . . . + . . . .",
        "   . . . . . . . .",
        "    . . . . . . .",
        "     . . . . . .",
    };
    expect_board(&t, thrown, 'b');
    done(&t);

    // Stopping short does not throw.
    t = setup(THROW_ROW, 'w', 8);
    play(&t, "a6-b6");
    static Diagram short_stop = {
        "     . . . . . .",
        "    . . . . . . .",
        "   . . . . . . . .",
        "  . . . . + . . . .",
        " . . . + + + + . . .",
        ". W . B + * + . . . .",
        " . . . + + + + . . .",
        "  . . . . + . . . .",
        "   . . . . . . . .",
        "    . . . . . . .",
        "     . . . . . .",
    };
    expect_board(&t, short_stop, 'b');
    // After a one-step move the thrown man lands on the single's start cell.
    play(&t, "a1");
    play(&t, "b6-c6");
    static Diagram one_step = {
        "     . . . . . .",
        "    . . . . . . .",
        "   . . . . . . . .",
        "  . . . . + . . . .",
        " . . . + + + + . . .",
        ". B W . + * + . . . .",
        " . . . + + + + . . .",
        "  . . . . + . . . .",
        "   . . . . . . . .",
        "    . . . . . . .",
        "     B . . . . .",
    };
    expect_board(&t, one_step, 'b');
    done(&t);

    // single-range=full: a single goes to the end of its open line.
    t = setup_with("single-range=full", THROW_ROW, 'w', 8);
    expect_moves(&t, "a6-", "a6-c6 a6-a1 a6-f11");
    expect_illegal(&t, "a6-b6", "single-range=full");
    done(&t);
}

/* No throw across a wall; throws carry men out of and into the Castle through doors. */
static void test_throw_at_walls_and_doors(void **state)
{
    (void)state;
    static Diagram wall = {
        "     . . . . . .",
        "    . . . . . . .",
        "   . . . . . . . .",
        "  . . . . + . . . .",
        " . . . + + + + . . .",
        ". . . . + * B . . W .",   // B g6 (inner), W j6
        " . . . + + + + . . .",
        "  . . . . + . . . .",
        "   . . . . . . . .",
        "    . . . . . . .",
        "     . . . . . .",
    };
    Setup t = setup(wall, 'w', 8);
    play(&t, "j6-h6"); // stops on the corner cell: g6 is behind a wall, not thrown
    static Diagram wall_after = {
        "     . . . . . .",
        "    . . . . . . .",
        "   . . . . . . . .",
        "  . . . . + . . . .",
        " . . . + + + + . . .",
        ". . . . + * B W . . .",
        " . . . + + + + . . .",
        "  . . . . + . . . .",
        "   . . . . . . . .",
        "    . . . . . . .",
        "     . . . . . .",
    };
    expect_board(&t, wall_after, 'b');
    done(&t);

    static Diagram door_out = {
        "     . . . . . .",
        "    . . . . . . .",
        "   . . . . . . . .",
        "  . . . . + . . . .",
        " . . . + + + B . . W",    // B h7 (entrance), W k7
        ". . . . + * + . . . .",
        " . . . + + + + . . .",
        "  . . . . + . . . .",
        "   . . . . . . . .",
        "    . . . . . . .",
        "     . . . . . .",
    };
    t = setup(door_out, 'w', 8);
    play(&t, "k7-i7"); // h7 is through a door: thrown out onto j7
    static Diagram door_out_after = {
        "     . . . . . .",
        "    . . . . . . .",
        "   . . . . . . . .",
        "  . . . . + . . . .",
        " . . . + + + + W B .",
        ". . . . + * + . . . .",
        " . . . + + + + . . .",
        "  . . . . + . . . .",
        "   . . . . . . . .",
        "    . . . . . . .",
        "     . . . . . .",
    };
    expect_board(&t, door_out_after, 'b');
    done(&t);

    static Diagram door_in = {
        "     . . . . . .",
        "    . . . . . . .",
        "   . . . . . . . .",
        "  . . . . + . . . .",
        " . . . + + W + . B .",    // W g7 (inner), B j7
        ". . . . + * + . . . .",
        " . . . + + + + . . .",
        "  . . . . + . . . .",
        "   . . . . . . . .",
        "    . . . . . . .",
        "     . . . . . .",
    };
    t = setup(door_in, 'w', 8);
    play(&t, "g7-i7"); // out through the door; j7 is thrown in onto h7
    static Diagram door_in_after = {
        "     . . . . . .",
        "    . . . . . . .",
        "   . . . . . . . .",
        "  . . . . + . . . .",
        " . . . + + + B W . .",
        ". . . . + * + . . . .",
        " . . . + + + + . . .",
        "  . . . . + . . . .",
        "   . . . . . . . .",
        "    . . . . . . .",
        "     . . . . . .",
    };
    expect_board(&t, door_in_after, 'b');
    done(&t);
}

/* --- phalanxes ---------------------------------------------------------------------------- */

static Diagram LINE3 = {
    "     . . . . . .",
    "    . . . . . . .",
    "   . . . . . . . .",
    "  . . . . + . . . .",
    " . . . + + + + . . .",
    ". . . . + * + . . . .",
    " . . . + + + + . . .",
    "  . . . . + . . . .",
    "   . W W W . . . .",          // W b3 c3 d3
    "    . . . . . . .",
    "     . . . . . .",
};

/* The whole line moves either way up to its length; an end part of two or more moves
 * only away from the rest, up to its own length; a middle part never moves. */
static void test_phalanx_and_splits(void **state)
{
    (void)state;
    Setup t = setup(LINE3, 'w', 8);
    expect_slides(&t, "b3:d3-e3 b3:d3-f3 b3:d3-g3 d3:b3-a3 c3:d3-e3 c3:d3-f3 c3:b3-a3");
    expect_illegal(&t, "b3:d3-h3", "a phalanx of 3 men moves at most 3 cells");
    expect_illegal(&t, "c3:d3-g3", "a phalanx of 2 men moves at most 2 cells");
    expect_illegal(&t, "d3:c3-b3", "your man on b3 stands in front of c3");
    expect_illegal(&t, "b3:c3-d3", "your man on d3 stands in front of c3");
    expect_illegal(&t, "c3:d3-b3", "name the other end first");
    expect_illegal(&t, "a3:d3-e3", "not a line of your men");
    // The part that stays behind is released: here a single again.
    play(&t, "c3:d3-f3");
    play(&t, "a1");
    expect_moves(&t, "b3-", "b3-a3 b3-c3 b3-d3 b3-b4 b3-b5 b3-b6 b3-b7 b3-b2 b3-b1 b3-c4 "
                            "b3-a2"); // d5, beyond c4, is in the Castle
    done(&t);
}

static void test_two_men_cannot_split(void **state)
{
    (void)state;
    static Diagram d = {
        "     . . . . . .",
        "    . . . . . . .",
        "   . . . . . . . .",
        "  . . . . + . . . .",
        " . . . + + + + . . .",
        ". . . . + * + . . . .",
        " . . . + + + + . . .",
        "  . . . . + . . . .",
        "   . W W . . . . .",      // W b3 c3
        "    . . . . . . .",
        "     . . . . . .",
    };
    Setup t = setup(d, 'w', 8);
    expect_slides(&t, "b3:c3-d3 b3:c3-e3 c3:b3-a3");
    expect_illegal(&t, "c3-d3", "part of a phalanx");
    done(&t);
}

/* Captures: a phalanx moves over a smaller opposing line, removing the men on the cells
 * its front enters; the line counts in full, even beyond where the front stops. */
static void test_phalanx_captures(void **state)
{
    (void)state;
    static Diagram d = {
        "     . . . . . .",
        "    . . . . . . .",
        "   . . . . . . . .",
        "  . . . . + . . . .",
        " . . . + + + + . . .",
        ". . . . + * + . . . .",
        " . . . + + + + . . .",
        "  . . . . + . . . .",
        "   . W W W . B B .",      // W b3 c3 d3, B f3 g3
        "    . . . . . . .",
        "     . . . . . .",
    };
    Setup t = setup(d, 'w', 8);
    expect_moves(&t, "b3:d3", "b3:d3-e3 b3:d3xf3 b3:d3xg3");
    expect_moves(&t, "c3:d3", "c3:d3-e3");
    expect_illegal(&t, "c3:d3-f3", "the line of 2 opposing men from f3 is not smaller than "
                                   "the 2 moving men");
    play(&t, "b3:d3xg3");
    static Diagram both = {
        "     . . . . . .",
        "    . . . . . . .",
        "   . . . . . . . .",
        "  . . . . + . . . .",
        " . . . + + + + . . .",
        ". . . . + * + . . . .",
        " . . . + + + + . . .",
        "  . . . . + . . . .",
        "   . . . . W W W .",
        "    . . . . . . .",
        "     . . . . . .",
    };
    expect_board(&t, both, 'b');
    done(&t);

    // Stopping part-way into the line captures only the men entered.
    t = setup(d, 'w', 8);
    play(&t, "b3:d3-f3");
    static Diagram part = {
        "     . . . . . .",
        "    . . . . . . .",
        "   . . . . . . . .",
        "  . . . . + . . . .",
        " . . . + + + + . . .",
        ". . . . + * + . . . .",
        " . . . + + + + . . .",
        "  . . . . + . . . .",
        "   . . . W W W B .",
        "    . . . . . . .",
        "     . . . . . .",
    };
    expect_board(&t, part, 'b');
    done(&t);
}

/* A line as long as the phalanx stops it (it may halt in front, and never throws);
 * several smaller lines may be crossed in one move. */
static void test_phalanx_blocked_and_several_lines(void **state)
{
    (void)state;
    static Diagram block = {
        "     . . . . . .",
        "    . . . . . . .",
        "   . . . . . . . .",
        "  . . . . + . . . .",
        " . . . + + + + . . .",
        ". . . . + * + . . . .",
        " . . . + + + + . . .",
        "  . . . . + . . . .",
        "   . W W W . B B B",      // W b3 c3 d3, B f3 g3 h3
        "    . . . . . . .",
        "     . . . . . .",
    };
    Setup t = setup(block, 'w', 8);
    expect_moves(&t, "b3:d3", "b3:d3-e3");
    expect_illegal(&t, "b3:d3-f3", "the line of 3 opposing men from f3 is not smaller");
    play(&t, "b3:d3-e3");
    static Diagram halted = {
        "     . . . . . .",
        "    . . . . . . .",
        "   . . . . . . . .",
        "  . . . . + . . . .",
        " . . . + + + + . . .",
        ". . . . + * + . . . .",
        " . . . + + + + . . .",
        "  . . . . + . . . .",
        "   . . W W W B B B",
        "    . . . . . . .",
        "     . . . . . .",
    };
    expect_board(&t, halted, 'b');
    done(&t);

    // capture-limit=entered: only the men the front enters count, so a phalanx of 3 may
    // bite two men off a line of 3, and one of 2 may take the first man of it.
    t = setup_with("capture-limit=entered", block, 'w', 8);
    expect_moves(&t, "b3:d3", "b3:d3-e3 b3:d3xf3 b3:d3xg3");
    expect_moves(&t, "c3:d3", "c3:d3-e3 c3:d3xf3");
    play(&t, "b3:d3xg3");
    static Diagram bitten = {
        "     . . . . . .",
        "    . . . . . . .",
        "   . . . . . . . .",
        "  . . . . + . . . .",
        " . . . + + + + . . .",
        ". . . . + * + . . . .",
        " . . . + + + + . . .",
        "  . . . . + . . . .",
        "   . . . . W W W B",
        "    . . . . . . .",
        "     . . . . . .",
    };
    expect_board(&t, bitten, 'b');
    done(&t);

    static Diagram runs = {
        "     . . . . . .",
        "    . . . . . . .",
        "   . . . . . . . .",
        "  . . . . + . . . .",
        " . . . + + + + . . .",
        ". . . . + * + . . . .",
        " . . . + + + + . . .",
        "  . . . . + . . . .",
        "   . . . . . . . .",
        "    W W W B . B .",       // W a2 b2 c2, B d2, B f2
        "     . . . . . .",
    };
    t = setup(runs, 'w', 8);
    expect_moves(&t, "a2:c2", "a2:c2xd2 a2:c2xe2 a2:c2xf2");
    play(&t, "a2:c2xf2");
    static Diagram crossed = {
        "     . . . . . .",
        "    . . . . . . .",
        "   . . . . . . . .",
        "  . . . . + . . . .",
        " . . . + + + + . . .",
        ". . . . + * + . . . .",
        " . . . + + + + . . .",
        "  . . . . + . . . .",
        "   . . . . . . . .",
        "    . . . W W W .",
        "     . . . . . .",
    };
    expect_board(&t, crossed, 'b');
    done(&t);
}

/* Walls stop phalanxes and split lines; doors join them; a phalanx enters the Castle only
 * through a door and moves alike inside, outside or straddling. */
static void test_phalanx_castle(void **state)
{
    (void)state;
    static Diagram walled = {
        "     . . . . . .",
        "    . . . . . . .",
        "   . . . . . . . .",
        "  . . . . + . . . .",
        " . . . + + + + . . .",
        ". W W W + * + . . . .",   // W b6 c6 d6, a wall after d6
        " . . . + + + + . . .",
        "  . . . . + . . . .",
        "   . . . . . . . .",
        "    . . . . . . .",
        "     . . . . . .",
    };
    Setup t = setup(walled, 'w', 8);
    expect_slides(&t, "d6:b6-a6 c6:b6-a6");
    expect_illegal(&t, "b6:d6-e6", "a wall of the Castle stands between d6 and e6");
    done(&t);

    static Diagram door = {
        "     . . . . . .",
        "    . . . . . . .",
        "   . . . . . . . .",
        "  . . . . + . . . .",
        " . . . + + + + W W W",    // W i7 j7 k7, in front of h7's door
        ". . . . + * + . . . .",
        " . . . + + + + . . .",
        "  . . . . + . . . .",
        "   . . . . . . . .",
        "    . . . . . . .",
        "     . . . . . .",
    };
    t = setup(door, 'w', 8);
    expect_slides(&t, "k7:i7-h7 k7:i7-g7 k7:i7-f7 j7:i7-h7 j7:i7-g7");
    play(&t, "j7:i7-g7"); // a part goes in; k7 is left behind as a single
    play(&t, "a1");
    expect_slides(&t, "h7:g7-f7 h7:g7-e7 g7:h7-i7 g7:h7-j7"
                      " k7-j7 k7-i7 k7-k8 k7-k9 k7-k10 k7-k11 k7-k6 k7-j6 k7-i5 k7-h4 k7-g3"
                      " k7-f2 k7-e1");
    done(&t);

    static Diagram straddle = {
        "     . . . . . .",
        "    . . . . . . .",
        "   . . . . . . . .",
        "  . . . . + . . . .",
        " . . W W + + + . . .",    // W d7 (outside) and e7 (entrance): one line
        ". . . . + * + . . . .",
        " . . . + + + + . . .",
        "  . . . . + . . . .",
        "   . . . . . . . .",
        "    . . . . . . .",
        "     . . . . . .",
    };
    t = setup(straddle, 'w', 8);
    expect_slides(&t, "d7:e7-f7 d7:e7-g7 e7:d7-c7 e7:d7-b7");
    done(&t);
}

/* --- the Throne ---------------------------------------------------------------------------- */

static Diagram FLANK_BY_PHALANX = {
    "     . . . . . .",
    "    . . . . . . W",           // W k10
    "   . . . . . . W .",          // W j9
    "  . . . . + . W . .",         // W i8
    " . . . + + + + . . .",
    ". . . . W * + . . . .",       // W e6
    " . . . + + + + . . .",
    "  . . . . + . . . .",
    "   . . . . . . . .",
    "    . . . . . . .",
    "     B . . . . .",            // B a1
};

/* A move that leaves the mover on both cells of an opposite pair puts his man on the
 * Throne; if the opponent cannot capture a flanking man, the holder finds his man there at
 * the start of his next turn and wins. */
static void test_throne_taken_and_won(void **state)
{
    (void)state;
    Setup t = setup(FLANK_BY_PHALANX, 'w', 8);
    expect_illegal(&t, "f6", "nobody places on the Throne");
    play(&t, "k10:i8-g6");
    static Diagram throne = {
        "     . . . . . .",
        "    . . . . . . .",
        "   . . . . . . . .",
        "  . . . . + . W . .",
        " . . . + + + W . . .",
        ". . . . W W W . . . .",
        " . . . + + + + . . .",
        "  . . . . + . . . .",
        "   . . . . . . . .",
        "    . . . . . . .",
        "     B . . . . .",
    };
    expect_board(&t, throne, 'b');
    assert_int_equal(kc_ops.to_move(t.g, t.s), 1);
    play(&t, "f1");
    expect_over(&t, 0, "White found his own man on the Throne");
    done(&t);

    // A pair already standing when the Throne is empty fills it after any move.
    static Diagram standing = {
        "     . . . . . .",
        "    . . . . . . .",
        "   . . . . . . . .",
        "  . . . . + . . . .",
        " . . . + + + + . . .",
        ". . . . W * W . . . .",
        " . . . + + + + . . .",
        "  . . . . + . . . .",
        "   . . . . . . . .",
        "    . . . . . . .",
        "     . . . . . .",
    };
    t = setup(standing, 'b', 9);
    play(&t, "a1"); // Black's move does not seat White
    char *pos = position_of(&t);
    assert_string_equal(pos, "6/7/8/9/10/4W1W4/10/9/8/7/B5 w 10");
    free(pos);
    play(&t, "k11");
    pos = position_of(&t);
    assert_string_equal(pos, "5W/7/8/9/10/4WWW4/10/9/8/7/B5 b 11");
    free(pos);
    done(&t);
}

/* Capturing a flanking man removes the Throne man; removal comes first, so the capturer
 * may seat his own man in the same move. */
static void test_throne_lost_by_capture(void **state)
{
    (void)state;
    static Diagram d = {
        "     . . . . . .",
        "    . . . . . . .",
        "   . . . . . . . .",
        "  . . . . + . . . .",
        " . . . + + B + . . .",    // B g7
        ". . . . W W W . . . .",   // W e6, W on the Throne, W g6
        " . . . + B + + . . .",    // B e5: with g7 an opposite pair
        "  . . . . + . B . .",     // B g4
        "   . . . . . . B .",      // B g3
        "    . . . . . . B",       // B g2
        "     . . . . . .",
    };
    Setup t = setup(d, 'b', 20);
    expect_moves(&t, "g2:g4", "g2:g4-g5 g2:g4xg6");
    play(&t, "g2:g4xg6");
    static Diagram after = {
        "     . . . . . .",
        "    . . . . . . .",
        "   . . . . . . . .",
        "  . . . . + . . . .",
        " . . . + + B + . . .",
        ". . . . W B B . . . .",
        " . . . + B + B . . .",
        "  . . . . + . B . .",
        "   . . . . . . . .",
        "    . . . . . . .",
        "     . . . . . .",
    };
    expect_board(&t, after, 'w');
    done(&t);

    // Capturing a man that is not in a complete pair leaves the Throne man alone.
    static Diagram other = {
        "     . . . . . .",
        "    . . . . . . .",
        "   . . . . . . . .",
        "  . . . . + . . . .",
        " . . . + + + + . . .",
        ". . . . W W W . . . .",
        " . . . + + + + . . .",
        "  . . . . + . . . .",
        "   . . B B B W . .",      // B c3 d3 e3, W f3
        "    . . . . . . .",
        "     . . . . . .",
    };
    t = setup(other, 'b', 20);
    play(&t, "c3:e3xf3");
    expect_over(&t, 0, "White found his own man on the Throne");
    done(&t);
}

/* A throw that breaks the flank does not remove the Throne man, unless
 * throne-loss=broken. */
static Diagram THROW_FLANKER = {
    "     . . . . . .",
    "    . . . . . . .",
    "   . . . . . . . .",
    "  . . . . + . . . .",
    " . . . + + + + . . .",
    ". . . . W W W . . . .",       // W e6, W on the Throne, W g6
    " . . . + + + + . . .",
    "  . . . . B . . . .",         // B e4: e4-f5 throws g6 onto e4
    "   . . . . . . . .",
    "    . . . . . . .",
    "     . . . . . .",
};

static void test_throne_and_throws(void **state)
{
    (void)state;
    Setup t = setup(THROW_FLANKER, 'b', 20);
    play(&t, "e4-f5");
    char *pos = position_of(&t);
    assert_string_equal(pos, "6/7/8/9/10/4WW5/5B4/4W4/8/7/6 w 21");
    free(pos);
    expect_over(&t, 0, "White found his own man on the Throne");
    done(&t);

    t = setup_with("throne-loss=broken", THROW_FLANKER, 'b', 20);
    play(&t, "e4-f5");
    pos = position_of(&t);
    assert_string_equal(pos, "6/7/8/9/10/4W6/5B4/4W4/8/7/6 w 21");
    free(pos);
    assert_int_equal(kc_ops.to_move(t.g, t.s), 0);
    done(&t);
}

/* throne-entry=move: flanking gives the right to enter the Throne as a move of its own. */
static void test_throne_entry_by_move(void **state)
{
    (void)state;
    Setup t = setup_with("throne-entry=move", FLANK_BY_PHALANX, 'w', 8);
    expect_illegal(&t, "f6", "only while your men stand on both");
    play(&t, "k10:i8-g6");
    char *pos = position_of(&t);
    assert_string_equal(pos, "6/7/8/6W2/6W3/4W1W4/10/9/8/7/B5 b 9");
    free(pos);
    expect_illegal(&t, "f6", "only while your men stand on both");
    play(&t, "f1");
    expect_moves(&t, "f6", "f6");
    play(&t, "f6");
    play(&t, "c1");
    expect_over(&t, 0, "White found his own man on the Throne");
    done(&t);
}

/* --- the end of the game ------------------------------------------------------------------ */

/* The board full of Black men but for one White man and the Throne: White cannot move. */
static void full_board(char *out, size_t cap)
{
    size_t n = 0;
    for (int row = 0; row < KC_SIDE; row++) {
        for (int i = 0; i < RANK_LEN[row]; i++) {
            const bool throne = row == 5 && i == 5, white = row == 10 && i == 0;
            n += (size_t)snprintf(out + n, cap - n, "%s", throne ? "1" : white ? "W" : "B");
        }
        if (row + 1 < KC_SIDE)
            n += (size_t)snprintf(out + n, cap - n, "/");
    }
    snprintf(out + n, cap - n, " w 90");
}

static void test_no_legal_move(void **state)
{
    (void)state;
    char text[TEXT_CAP];
    full_board(text, sizeof text);
    for (int k = 0; k < 2; k++) {
        const char *settings[1] = {k ? "no-move=draw" : "no-move=loss"};
        Game *g;
        ErrBuf err;
        assert_int_equal(rule_text_create(&kc_ops, 0, settings, 1, &g, &err), STATUS_OK);
        Setup t = {g, game_state_new(g), game_undo_new(g)};
        assert_int_equal(kc_ops.parse_position(g, t.s, text, &err), STATUS_OK);
        expect_over(&t, k ? -1 : 1, "the player to move has no legal move");
        done(&t);
    }
}

static Diagram SHUFFLE = {
    "     . . . . . .",
    "    . . . . . . .",
    "   . . . . . . . .",
    "  . . . . + . . . .",
    " . . . + + + + . . .",
    "W . . . + * + . . . B",       // W a6, B k6
    " . . . + + + + . . .",
    "  . . . . + . . . .",
    "   . . . . . . . .",
    "    . . . . . . .",
    "     . . . . . .",
};

static void test_repetition(void **state)
{
    (void)state;
    static const char *const line[] = {"a6-b6", "k6-j6", "b6-a6", "j6-k6",
                                       "a6-b6", "k6-j6", "b6-a6", "j6-k6"};
    Setup t = setup(SHUFFLE, 'w', 10);
    for (int i = 0; i < 8; i++) {
        assert_int_not_equal(kc_ops.to_move(t.g, t.s), PLAYER_NONE);
        play(&t, line[i]);
    }
    expect_over(&t, -1, "the same position occurred a third time");
    done(&t);

    t = setup_with("repetition=off", SHUFFLE, 'w', 10);
    for (int i = 0; i < 8; i++)
        play(&t, line[i]);
    assert_int_equal(kc_ops.to_move(t.g, t.s), 0);
    done(&t);
}

static void test_max_plies(void **state)
{
    (void)state;
    Setup t = setup_with("max-plies=12", SHUFFLE, 'w', 10);
    play(&t, "a6-b6");
    play(&t, "k6-j6");
    expect_over(&t, -1, "max-plies");
    done(&t);
}

/* --- text ------------------------------------------------------------------------------- */

static void test_bad_text(void **state)
{
    (void)state;
    Setup t = setup(LINE3, 'w', 8);
    expect_illegal(&t, "", "empty move");
    expect_illegal(&t, "z9", "off the board");
    expect_illegal(&t, "swap2", "not a move");
    expect_illegal(&t, "a12", "off the board");
    expect_illegal(&t, "k1", "off the board");
    expect_illegal(&t, "b3-", "missing");
    expect_illegal(&t, "b3:d3", "rear:front-to");
    expect_illegal(&t, "b3:d4-e5", "straight line");
    expect_illegal(&t, "b3-c5", "straight line");
    expect_illegal(&t, "b3 d3", "not a move");
    static const char *const bad_positions[][2] = {
        {"", "a position is the board"},
        {"6/7/8/9/10/11/10/9/8/7/6 x 0", "w or b"},
        {"6/7/8/9/10/11/10/9/8/7/6 w -1", "whole number"},
        {"6/7/8/9/10/11/10/9/8/7/6 w 401", "past the limit of 400"},
        {"6/7/8/9/10/11/10/9/8/7 w 0", "11 ranks"},
        {"6/7/8/9/10/11/10/9/8/7/6/1 w 0", "more than 11 ranks"},
        {"7/7/8/9/10/11/10/9/8/7/6 w 0", "rank 11 describes more than its 6 cells"},
        {"5/7/8/9/10/11/10/9/8/7/6 w 0", "rank 11 describes 5 cells, not 6"},
        {"6/7/8/9/10/11/10/9/8/7/5K w 0", "'K' is not a man"},
        {"6/7/8/9/10/11/10/9/8/7/6 w 0 x", "unexpected text"},
    };
    for (size_t i = 0; i < sizeof bad_positions / sizeof bad_positions[0]; i++) {
        GameState *s = game_state_clone(t.g, t.s);
        ErrBuf err;
        err_clear(&err);
        assert_int_not_equal(kc_ops.parse_position(t.g, s, bad_positions[i][0], &err),
                             STATUS_OK);
        if (strstr(err.msg, bad_positions[i][1]) == NULL)
            fail_msg("position '%s' refused with '%s', expected '%s'", bad_positions[i][0],
                     err.msg, bad_positions[i][1]);
        assert_memory_equal(s, t.s, t.g->state_size);
        free(s);
    }
    done(&t);
}

/* The drawing shows the walls, the doors and the Throne. */
static void test_render(void **state)
{
    (void)state;
    Setup t = setup(THROW_FLANKER, 'b', 20);
    StrBuf sb;
    sb_init(&sb);
    kc_ops.render(t.g, t.s, 0, &sb);
    const char *text = sb_str(&sb);
    assert_non_null(strstr(text, "walls | / \\"));
    assert_non_null(strstr(text, "doors :"));
    assert_non_null(strstr(text, "White holds the Throne"));
    assert_non_null(strstr(text, "  6   .   .   .   . | W   W   W | .   .   .   .\n"));
    sb_clear(&sb);
    kc_ops.render(t.g, t.s, RENDER_UNICODE | RENDER_COLOR, &sb);
    assert_non_null(strstr(sb_str(&sb), "┃"));
    assert_non_null(strstr(sb_str(&sb), "⋰"));
    sb_free(&sb);
    done(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_geometry),
        cmocka_unit_test(test_cell_names_and_start),
        cmocka_unit_test(test_move_bound),
        cmocka_unit_test(test_first_placement_and_swap),
        cmocka_unit_test(test_placement_adjacency),
        cmocka_unit_test(test_single_moves),
        cmocka_unit_test(test_single_inside_the_castle),
        cmocka_unit_test(test_grouped_man_is_no_single),
        cmocka_unit_test(test_throw),
        cmocka_unit_test(test_throw_at_walls_and_doors),
        cmocka_unit_test(test_phalanx_and_splits),
        cmocka_unit_test(test_two_men_cannot_split),
        cmocka_unit_test(test_phalanx_captures),
        cmocka_unit_test(test_phalanx_blocked_and_several_lines),
        cmocka_unit_test(test_phalanx_castle),
        cmocka_unit_test(test_throne_taken_and_won),
        cmocka_unit_test(test_throne_lost_by_capture),
        cmocka_unit_test(test_throne_and_throws),
        cmocka_unit_test(test_throne_entry_by_move),
        cmocka_unit_test(test_no_legal_move),
        cmocka_unit_test(test_repetition),
        cmocka_unit_test(test_max_plies),
        cmocka_unit_test(test_bad_text),
        cmocka_unit_test(test_render),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
