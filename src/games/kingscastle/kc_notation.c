/*
 * kc_notation.c - King's Castle text (R-KC-2): cell names, moves, positions, and the
 * terminal drawing of the hexagon with its walls and doors.
 *
 * Cells are named in the Hexdame style: file letter a..k = q + 5, rank 1..11 = 6 - r, so
 * a1 = (-5,5), k11 = (5,-5) and the Throne is f6. Moves: `d4` places a man, `swap` takes
 * over White's first man, `d4-d7` moves a single, `c4:e4-g4` moves the phalanx part from
 * its rear c4 to its front e4 onwards until the front stands on g4 (`x` instead of `-`
 * when it captures). Positions: ranks 11 down to 1 separated by '/', each from its lowest
 * file, W and B for men and numbers for runs of empty cells, then w or b for the player
 * to move and the plies played.
 *
 * Parsers read into a temporary and copy it out only when everything checked, so bad
 * text never changes the caller's state, and every refusal says what is wrong.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "games/kingscastle/kc_internal.h"

static const int RANK_LEN[KC_SIDE] = {6, 7, 8, 9, 10, 11, 10, 9, 8, 7, 6};

void kc_format_cell(int cell, StrBuf *out)
{
    sb_printf(out, "%c%d", 'a' + kc_q(cell) + KC_RADIUS, KC_RADIUS + 1 - kc_r(cell));
}

/* The name of a cell in a caller's buffer, for messages. */
static const char *cell_name(int cell, char buf[16])
{
    snprintf(buf, 16, "%c%d", 'a' + kc_q(cell) + KC_RADIUS, KC_RADIUS + 1 - kc_r(cell));
    return buf;
}

/* Reads a cell name at *p and advances past it. Returns the cell, -1 when the text there
 * is not a cell name, -2 when it names a cell off the board. */
static int read_cell(const char **p)
{
    const char *q = *p;
    if (*q < 'a' || *q > 'z')
        return -1;
    const int file = *q++ - 'a';
    if (!isdigit((unsigned char)*q))
        return -1;
    int rank = 0;
    while (isdigit((unsigned char)*q) && rank < 1000)
        rank = rank * 10 + (*q++ - '0');
    *p = q;
    const int cq = file - KC_RADIUS, cr = KC_RADIUS + 1 - rank;
    if (!kc_on_board(cq, cr))
        return -2;
    return kc_index(cq, cr);
}

void kc_format_move(const KcConfig *c, const KcState *s, Move m, StrBuf *out)
{
    switch (kc_kind(m)) {
    case KC_PLACE:
        kc_format_cell(kc_cell(m), out);
        return;
    case KC_SWAP:
        sb_puts(out, "swap");
        return;
    default:
        break;
    }
    const int d = kc_dir(m), k = kc_k(m), front = kc_cell(m);
    int rear = front, to = front;
    for (int i = 1; i < k; i++)
        rear = c->raw_step[(d + 3) % KC_DIRS][rear];
    for (int i = 0; i < kc_m(m); i++)
        to = c->raw_step[d][to];
    if (rear < 0 || to < 0) { // not a move of this board; print something readable
        sb_puts(out, "?");
        return;
    }
    int thrown;
    const bool takes = k > 1 && kc_slide_captures(c, s, m, &thrown) != 0;
    kc_format_cell(rear, out);
    if (k > 1) {
        sb_putc(out, ':');
        kc_format_cell(front, out);
    }
    sb_putc(out, takes ? 'x' : '-');
    kc_format_cell(to, out);
}

/* The direction and number of steps from a to b along a straight line of the grid
 * (walls ignored); false when they are not on one line. */
static bool line_between(const KcConfig *c, int a, int b, int *dir, int *steps)
{
    for (int d = 0; d < KC_DIRS; d++) {
        int x = a;
        for (int n = 1; n <= 2 * KC_RADIUS; n++) {
            x = c->raw_step[d][x];
            if (x < 0)
                break;
            if (x == b) {
                *dir = d;
                *steps = n;
                return true;
            }
        }
    }
    return false;
}

/* The first friendly man connected to `cell`, or -1. */
static int friendly_neighbour(const KcConfig *c, Bb128 own, int cell)
{
    const Bb128 n = c->nbr[cell] & own;
    return n ? bb128_lowest(n) : -1;
}

static Status explain_place(const KcConfig *c, const KcState *s, int cell, ErrBuf *err)
{
    char a[16], b[16];
    const Bb128 own = kc_men(s, s->turn), occ = kc_men(s, 0) | kc_men(s, 1);
    if (cell == KC_THRONE) {
        if (bb128_has(occ, cell))
            return err_set(err, STATUS_ILLEGAL, "the Throne (f6) is taken");
        if (!c->throne_by_move)
            return err_set(err, STATUS_ILLEGAL,
                           "nobody places on the Throne (f6): a man goes there by itself after "
                           "a move that leaves your men on both e6 and g6, f5 and f7, or e5 "
                           "and g7");
        return err_set(err, STATUS_ILLEGAL,
                       "you may enter the Throne (f6) only while your men stand on both e6 "
                       "and g6, f5 and f7, or e5 and g7");
    }
    if (bb128_has(occ, cell))
        return err_set(err, STATUS_ILLEGAL, "%s is not empty", cell_name(cell, a));
    if (bb128_has(c->castle, cell))
        return err_set(err, STATUS_ILLEGAL, "%s is inside the Castle, where no man is placed",
                       cell_name(cell, a));
    const int f = friendly_neighbour(c, own, cell);
    if (f >= 0)
        return err_set(err, STATUS_ILLEGAL, "%s is next to your man on %s", cell_name(cell, a),
                       cell_name(f, b));
    return err_set(err, STATUS_ILLEGAL, "%s is not a legal placement here", cell_name(cell, a));
}

/* Why the single move from-to (direction d, `dist` cells) is not legal. */
static Status explain_single(const KcConfig *c, const KcState *s, int from, int d, int dist,
                             ErrBuf *err)
{
    char a[16], b[16];
    const Bb128 own = kc_men(s, s->turn), opp = kc_men(s, 1 - s->turn);
    if (!bb128_has(own, from))
        return bb128_has(opp, from)
                   ? err_set(err, STATUS_ILLEGAL, "%s holds your opponent's man",
                             cell_name(from, a))
                   : err_set(err, STATUS_ILLEGAL, "%s holds none of your men", cell_name(from, a));
    const int f = friendly_neighbour(c, own, from);
    if (f >= 0)
        return err_set(err, STATUS_ILLEGAL,
                       "the man on %s is part of a phalanx with %s and moves only with it "
                       "(write rear:front-to)",
                       cell_name(from, a), cell_name(f, b));
    int x = from;
    for (int i = 1; i <= dist; i++) {
        const int y = c->raw_step[d][x];
        if (c->wall[x][d])
            return err_set(err, STATUS_ILLEGAL, "a wall of the Castle stands between %s and %s",
                           cell_name(x, a), cell_name(y, b));
        if (y == KC_THRONE && !c->single_cross)
            return err_set(err, STATUS_ILLEGAL, "a single may not enter or cross the Throne");
        if (y == KC_THRONE && i == dist)
            return err_set(err, STATUS_ILLEGAL, "a single may cross the Throne but not stop on it");
        if (bb128_has(own | opp, y))
            return err_set(err, STATUS_ILLEGAL, "%s is in the way", cell_name(y, a));
        if (!bb128_has(c->castle, x) && bb128_has(c->castle, y))
            return err_set(err, STATUS_ILLEGAL,
                           "a single may not enter the Castle (%s) from outside; only a "
                           "phalanx goes in, through a door",
                           cell_name(y, a));
        x = y;
    }
    if (c->single_full)
        return err_set(err, STATUS_ILLEGAL,
                       "singles slide as far as the line is open (single-range=full), "
                       "beyond %s",
                       cell_name(x, a));
    return err_set(err, STATUS_ILLEGAL, "that single move is not legal here");
}

/* Why the phalanx move (front, d, k men, dist cells) is not legal. */
static Status explain_phalanx(const KcConfig *c, const KcState *s, int rear, int front, int d,
                              int k, int dist, ErrBuf *err)
{
    char a[16], b[16];
    const Bb128 own = kc_men(s, s->turn), opp = kc_men(s, 1 - s->turn);
    int x = rear;
    for (int i = 0; i < k; i++) {
        /* One whole sentence each, so that the web app can translate it. */
        if (x == KC_THRONE)
            return err_set(err, STATUS_ILLEGAL,
                           "%s:%s is not a line of your men (the Throne man never moves)",
                           cell_name(rear, a), cell_name(front, b));
        if (bb128_has(opp, x))
            return err_set(err, STATUS_ILLEGAL,
                           "%s:%s is not a line of your men (your opponent holds a cell of it)",
                           cell_name(rear, a), cell_name(front, b));
        if (!bb128_has(own, x))
            return err_set(err, STATUS_ILLEGAL,
                           "%s:%s is not a line of your men (it has an empty cell)",
                           cell_name(rear, a), cell_name(front, b));
        if (i + 1 < k && c->wall[x][d])
            return err_set(err, STATUS_ILLEGAL,
                           "a wall of the Castle splits %s:%s; men across a wall are not a "
                           "phalanx",
                           cell_name(rear, a), cell_name(front, b));
        x = c->raw_step[d][x];
    }
    const int ahead = c->step[d][front];
    if (ahead >= 0 && bb128_has(own, ahead))
        return err_set(err, STATUS_ILLEGAL,
                       "your man on %s stands in front of %s: only a whole line, or an end "
                       "part moving away from the rest, moves",
                       cell_name(ahead, a), cell_name(front, b));
    if (dist > k)
        return err_set(err, STATUS_ILLEGAL, "a phalanx of %d men moves at most %d cells", k, k);
    x = front;
    for (int i = 1; i <= dist; i++) {
        const int y = c->raw_step[d][x];
        if (c->wall[x][d])
            return err_set(err, STATUS_ILLEGAL, "a wall of the Castle stands between %s and %s",
                           cell_name(x, a), cell_name(y, b));
        if (y == KC_THRONE)
            return err_set(err, STATUS_ILLEGAL, "no phalanx enters the Throne");
        if (bb128_has(own, y))
            return err_set(err, STATUS_ILLEGAL, "your own man on %s is in the way",
                           cell_name(y, a));
        if (bb128_has(opp, y) && (x == front || !bb128_has(opp, x))) {
            // With capture-limit=entered only the men this move enters count.
            const int reach = c->capture_entered ? dist - i + 1 : KC_MAX_LINE * 2;
            int run = 0;
            for (int z = y; z >= 0 && z != KC_THRONE && bb128_has(opp, z) && run < reach;
                 z = c->step[d][z])
                run++;
            if (run >= k)
                return err_set(err, STATUS_ILLEGAL,
                               "the line of %d opposing men from %s is not smaller than the "
                               "%d moving men",
                               run, cell_name(y, a), k);
        }
        x = y;
    }
    return err_set(err, STATUS_ILLEGAL, "that phalanx move is not legal here");
}

/* The forms of a move, said whole in each message that names them (a message is one
 * sentence, for the web app's translations). */
#define MOVE_FORMS                                                                             \
    "a move is a placement (d4), swap, a single move (d4-d7) or a phalanx move rear:front-to " \
    "(c4:e4-g4)"

Status kc_parse_move(const KcConfig *c, const KcState *s, const char *text, Move *out,
                     ErrBuf *err)
{
    size_t len;
    const char *p = text_trim(text, &len);
    if (len == 0)
        return err_set(err, STATUS_PARSE, "empty move: " MOVE_FORMS);
    if (len > 32)
        return err_set(err, STATUS_PARSE, "'%.20s...' is too long: " MOVE_FORMS, p);
    char t[40];
    memcpy(t, p, len);
    t[len] = '\0';

    Move m;
    int rear = -1, front = -1, to = -1, d = 0, k = 1, dist = 0;
    if (strcmp(t, "swap") == 0) {
        m = kc_swap_move();
    } else {
        const char *q = t;
        const int first = read_cell(&q);
        if (first == -2)
            return err_set(err, STATUS_PARSE, "'%s' names a cell off the board", t);
        if (first < 0)
            return err_set(err, STATUS_PARSE, "'%s' is not a move: " MOVE_FORMS, t);
        rear = front = first;
        if (*q == ':') {
            q++;
            front = read_cell(&q);
            if (front == -2)
                return err_set(err, STATUS_PARSE, "'%s': after ':' comes the front cell of the "
                               "phalanx, which is off the board", t);
            if (front < 0)
                return err_set(err, STATUS_PARSE, "'%s': after ':' comes the front cell of the "
                               "phalanx, missing", t);
            if (*q != '-' && *q != 'x')
                return err_set(err, STATUS_PARSE,
                               "'%s': a phalanx move is rear:front-to, like c4:e4-g4", t);
        }
        if (*q == '-' || *q == 'x') {
            q++;
            to = read_cell(&q);
            if (to == -2)
                return err_set(err, STATUS_PARSE, "'%s': the cell after '-' is off the board", t);
            if (to < 0)
                return err_set(err, STATUS_PARSE, "'%s': the cell after '-' is missing", t);
        }
        if (*q != '\0')
            return err_set(err, STATUS_PARSE, "'%s' is not a move: " MOVE_FORMS, t);
        if (to < 0) {
            m = kc_place(first);
        } else {
            if (front != rear) {
                int steps;
                if (!line_between(c, rear, front, &d, &steps))
                    return err_set(err, STATUS_PARSE,
                                   "'%s': the front is not on a straight line with its rear",
                                   t);
                k = steps + 1;
                if (k > KC_MAX_LINE)
                    return err_set(err, STATUS_ILLEGAL, "'%s': no phalanx is that long", t);
            }
            int dd;
            if (!line_between(c, front, to, &dd, &dist))
                return k > 1 ? err_set(err, STATUS_PARSE, "'%s': the destination is not on a "
                                       "straight line from the front", t)
                             : err_set(err, STATUS_PARSE, "'%s': the destination is not on a "
                                       "straight line from the man", t);
            if (k > 1 && dd != d)
                return err_set(err, STATUS_PARSE,
                               "'%s': a phalanx moves along its own line, away from its rear; "
                               "to move it the other way, name the other end first",
                               t);
            d = dd;
            if (dist > KC_MAX_LINE)
                return err_set(err, STATUS_ILLEGAL, "'%s' goes too far", t);
            m = kc_slide(front, d, k, dist);
        }
    }
    if (s->result != KC_PLAYING)
        return err_set(err, STATUS_ILLEGAL, "the game is over");
    Move moves[KC_MOVE_CAP];
    const int n = kc_gen_moves(c, s, moves);
    for (int i = 0; i < n; i++) {
        if (moves[i] == m) {
            *out = m;
            return STATUS_OK;
        }
    }
    switch (kc_kind(m)) {
    case KC_SWAP:
        return err_set(err, STATUS_ILLEGAL,
                       c->swap ? "the swap is only Black's first move, taking over White's "
                                 "first man"
                               : "there is no swap in these rules (swap=off)");
    case KC_PLACE:
        return explain_place(c, s, kc_cell(m), err);
    default:
        if (k == 1)
            return explain_single(c, s, front, d, dist, err);
        return explain_phalanx(c, s, rear, front, d, k, dist, err);
    }
}

Status kc_parse_position(const KcConfig *c, KcState *out, const char *text, ErrBuf *err)
{
    static const char EXAMPLE[] = "6/7/8/9/10/11/10/9/8/7/6 w 0";
    char board[256], side[16], plies[32], extra[2];
    const int fields = sscanf(text, " %255s %15s %31s %1s", board, side, plies, extra);
    if (fields < 3)
        return err_set(err, STATUS_PARSE,
                       "a position is the board, the player to move (w or b) and the plies "
                       "played, e.g. '%s'",
                       EXAMPLE);
    if (fields > 3)
        return err_set(err, STATUS_PARSE, "unexpected text after the plies played");

    KcState t;
    memset(&t, 0, sizeof t);
    Bb128 men[2] = {0, 0};
    const char *p = board;
    for (int row = 0; row < KC_SIDE; row++) {
        const int rank = KC_SIDE - row, r = row - KC_RADIUS;
        const int first_q = r < 0 ? -KC_RADIUS - r : -KC_RADIUS;
        int file = 0;
        while (*p && *p != '/') {
            if (isdigit((unsigned char)*p)) {
                int run = 0;
                while (isdigit((unsigned char)*p) && run < 100)
                    run = run * 10 + (*p++ - '0');
                if (run == 0)
                    return err_set(err, STATUS_PARSE, "rank %d has a run of 0 empty cells",
                                   rank);
                file += run;
                if (file > RANK_LEN[row])
                    break;
                continue;
            }
            const char ch = *p++;
            if (ch != 'W' && ch != 'B')
                return err_set(err, STATUS_PARSE,
                               "'%c' is not a man: use W and B, numbers for empty cells", ch);
            if (file >= RANK_LEN[row]) {
                file++;
                break;
            }
            men[ch == 'B'] |= bb128_bit(kc_index(first_q + file, r));
            file++;
        }
        if (file > RANK_LEN[row])
            return err_set(err, STATUS_PARSE, "rank %d describes more than its %d cells", rank,
                           RANK_LEN[row]);
        if (file < RANK_LEN[row])
            return err_set(err, STATUS_PARSE, "rank %d describes %d cells, not %d", rank, file,
                           RANK_LEN[row]);
        if (row + 1 < KC_SIDE) {
            if (*p != '/')
                return err_set(err, STATUS_PARSE,
                               "the board needs 11 ranks separated by '/' (%s)", EXAMPLE);
            p++;
        }
    }
    if (*p != '\0')
        return err_set(err, STATUS_PARSE, "the board has more than 11 ranks");
    if (strcmp(side, "w") != 0 && strcmp(side, "b") != 0)
        return err_set(err, STATUS_PARSE, "the player to move is w or b, not '%.15s'", side);
    long ply;
    const Status st = game_parse_plies(plies, c->max_plies, &ply, err);
    if (st != STATUS_OK)
        return st;
    kc_set_men(&t, 0, men[0]);
    kc_set_men(&t, 1, men[1]);
    t.turn = side[0] == 'b';
    t.ply = (uint16_t)ply;
    t.hash = kc_compute_hash(c, &t);
    *out = t;
    kc_start_history(c, out);
    kc_settle(c, out);
    return STATUS_OK;
}

void kc_format_position(const KcState *s, StrBuf *out)
{
    const Bb128 w = kc_men(s, 0), b = kc_men(s, 1);
    for (int row = 0; row < KC_SIDE; row++) {
        const int r = row - KC_RADIUS;
        const int first_q = r < 0 ? -KC_RADIUS - r : -KC_RADIUS;
        int empty = 0;
        for (int i = 0; i < RANK_LEN[row]; i++) {
            const int cell = kc_index(first_q + i, r);
            const char ch = bb128_has(w, cell) ? 'W' : bb128_has(b, cell) ? 'B' : 0;
            if (ch == 0) {
                empty++;
                continue;
            }
            if (empty)
                sb_printf(out, "%d", empty);
            empty = 0;
            sb_putc(out, ch);
        }
        if (empty)
            sb_printf(out, "%d", empty);
        if (row + 1 < KC_SIDE)
            sb_putc(out, '/');
    }
    sb_printf(out, " %c %d", s->turn ? 'b' : 'w', s->ply);
}

/* --- the drawing ----------------------------------------------------------------------- */

/* The Castle's colours, beside the players' (core/game.h). */
#define ANSI_WALL "\x1b[1;33m"
#define ANSI_DOOR "\x1b[32m"
#define ANSI_THRONE "\x1b[43m"

enum {
    CANVAS_ROWS = 2 * KC_SIDE + 1,
    CANVAS_COLS = 4 * 2 * KC_RADIUS + 8,
    CANVAS_X0 = 4 * KC_RADIUS + 2, /* column of q = 0, r = 0 */
    SLOT = 32,
};

typedef struct Canvas {
    char slot[CANVAS_ROWS][CANVAS_COLS][SLOT]; /* one printed glyph (with colours) each */
} Canvas;

static void paint(Canvas *cv, int row, int col, bool color, const char *ansi, const char *glyph)
{
    if (row < 0 || row >= CANVAS_ROWS || col < 0 || col >= CANVAS_COLS)
        return;
    if (color && ansi[0])
        snprintf(cv->slot[row][col], SLOT, "%s%s" ANSI_RESET, ansi, glyph);
    else
        snprintf(cv->slot[row][col], SLOT, "%s", glyph);
}

/* Rows of the canvas: 2 per rank (the cells, then the edges to the rank below); a cell
 * (q, r) sits at column CANVAS_X0 + 4q + 2r, so its neighbours are 4 columns away in its
 * own row and 2 columns away in the rows above and below. Walls and doors are drawn at the
 * middle of the edge they cut. */
void kc_render(const KcConfig *c, const KcState *s, unsigned flags, StrBuf *out)
{
    const bool color = flags & RENDER_COLOR, uni = flags & RENDER_UNICODE;
    Canvas *cv = calloc(1, sizeof *cv);
    if (cv == NULL) {
        sb_puts(out, "(out of memory)\n");
        return;
    }
    const Bb128 w = kc_men(s, 0), b = kc_men(s, 1);
    for (int cell = 0; cell < KC_GRID; cell++) {
        if (!bb128_has(c->board, cell))
            continue;
        const int q = kc_q(cell), r = kc_r(cell);
        const int row = 2 * (r + KC_RADIUS), col = CANVAS_X0 + 4 * q + 2 * r;
        const bool throne = cell == KC_THRONE, in = bb128_has(c->castle, cell);
        if (bb128_has(w, cell))
            paint(cv, row, col, color, throne ? ANSI_FIRST ANSI_THRONE : ANSI_FIRST,
                  uni ? "○" : "W");
        else if (bb128_has(b, cell))
            paint(cv, row, col, color, throne ? ANSI_SECOND ANSI_THRONE : ANSI_SECOND,
                  uni ? "●" : "B");
        else if (throne)
            paint(cv, row, col, color, ANSI_THRONE, uni ? "♔" : "*");
        else
            paint(cv, row, col, color, ANSI_DIM, in ? "+" : uni ? "·" : ".");
        // The edges to the east (same row), south-east and south-west (the row below).
        static const int EDGE_DIR[3] = {0, 5, 4};
        static const int EDGE_ROW[3] = {0, 1, 1}, EDGE_COL[3] = {2, 1, -1};
        for (int e = 0; e < 3; e++) {
            const int d = EDGE_DIR[e];
            const char *glyph = NULL, *ansi = "";
            if (c->wall[cell][d]) {
                ansi = ANSI_WALL;
                glyph = e == 0 ? (uni ? "┃" : "|") : e == 1 ? (uni ? "╱" : "/") : (uni ? "╲" : "\\");
            } else if (c->door[cell][d]) {
                ansi = ANSI_DOOR;
                glyph = e == 0 ? (uni ? "┆" : ":") : e == 1 ? (uni ? "⋰" : ":") : (uni ? "⋱" : ":");
            }
            if (glyph)
                paint(cv, row + EDGE_ROW[e], col + EDGE_COL[e], color, ansi, glyph);
        }
        // File letters below the last cell of each file.
        if (c->raw_step[5][cell] < 0) {
            char letter[2] = {(char)('a' + q + KC_RADIUS), '\0'};
            paint(cv, row + 1, col + 1, color, ANSI_DIM, letter);
        }
    }
    for (int row = 0; row < CANVAS_ROWS; row++) {
        int last = -1;
        for (int col = 0; col < CANVAS_COLS; col++)
            if (cv->slot[row][col][0])
                last = col;
        if (last < 0)
            continue;
        if (row % 2 == 0)
            sb_printf(out, "%3d ", KC_SIDE - row / 2);
        else
            sb_puts(out, "    ");
        for (int col = 0; col <= last; col++)
            sb_puts(out, cv->slot[row][col][0] ? cv->slot[row][col] : " ");
        sb_putc(out, '\n');
    }
    free(cv);
    if (uni)
        sb_puts(out, "White ○, Black ●; the Castle is + with the Throne ♔ (f6), walls ┃╱╲, "
                     "doors ┆⋰⋱.\n");
    else
        sb_puts(out, "White W, Black B; the Castle is + with the Throne * (f6), walls | / \\, "
                     "doors :.\n");
    if (bb128_has(w | b, KC_THRONE))
        sb_printf(out, "%s holds the Throne.\n", bb128_has(w, KC_THRONE) ? "White" : "Black");
}
