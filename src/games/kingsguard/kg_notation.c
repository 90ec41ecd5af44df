/*
 * kg_notation.c - King's Guard text: squares (a1 is the first player's left corner),
 * actions (`c3` pick up, `c3-c5` place, `end`), whole turns (`c3-c5,c4`), positions
 * (every stack bottom to top) and the terminal drawing.
 *
 * Parsers read into a temporary and copy it out only when everything checked, so bad
 * text never changes the caller's state. Illegal actions are explained: which rule
 * forbids them, not just that they are not in the list.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/kingsguard/kg_internal.h"

enum { EXCERPT = 24 }; /* characters of bad input quoted back in messages */

static const char PIECE_CHAR[KG_KINDS] = {'G', 'g', 'K', 'k'}; /* owner | king << 1 */

void kg_format_square(const KgConfig *c, int sq, StrBuf *out)
{
    sb_printf(out, "%c%d", 'a' + sq % c->stride, sq / c->stride + 1);
}

static const char *player_name(int p)
{
    return p == 0 ? "first" : "second";
}

/* Reads a square at *p and advances past it. -1 when the text is not a square at all,
 * -2 when it is one but off this board (then *p is left alone). */
static int read_square(const KgConfig *c, const char **p)
{
    const char *q = *p;
    const char ch = (char)tolower((unsigned char)*q);
    if (ch < 'a' || ch > 'z')
        return -1;
    const int file = ch - 'a';
    q++;
    if (!isdigit((unsigned char)*q))
        return -1;
    int rank = 0;
    while (isdigit((unsigned char)*q)) {
        if (rank < 1000)
            rank = rank * 10 + (*q - '0');
        q++;
    }
    if (file >= c->files || rank < 1 || rank > c->ranks)
        return -2;
    *p = q;
    return (rank - 1) * c->stride + file;
}

static Status off_board(const KgConfig *c, const char *where, ErrBuf *err)
{
    return err_set(err, STATUS_PARSE, "'%.*s' is not a square of the %dx%d board (files a-%c, "
                   "ranks 1-%d)",
                   EXCERPT, where, c->files, c->ranks, 'a' + c->files - 1, c->ranks);
}

/* --- positions ------------------------------------------------------------------------ */

static int piece_kind(char ch)
{
    for (int k = 0; k < KG_KINDS; k++)
        if (PIECE_CHAR[k] == ch)
            return k;
    return -1;
}

/* The stack part of the board text: ranks from the top, '/' between them; in a rank,
 * a digit for that many empty squares, a letter for a single piece, or the pieces of a
 * stack in parentheses from the bottom up. Fills t's squares, kings and counts. */
static Status parse_board(const KgConfig *c, KgCore *t, const char *board, ErrBuf *err)
{
    int kings[2] = {0, 0};
    const char *p = board;
    for (int rank = c->ranks - 1; rank >= 0; rank--) {
        int file = 0;
        while (*p && *p != '/') {
            const char ch = *p;
            if (ch >= '1' && ch <= '9') {
                file += ch - '0';
                p++;
                continue;
            }
            if (file >= c->files)
                return err_set(err, STATUS_PARSE, "rank %d describes more than %d squares",
                               rank + 1, c->files);
            const int sq = rank * c->stride + file;
            char pieces[KG_MAX_HEIGHT];
            int n = 0;
            if (ch == '(') {
                p++;
                for (; *p && *p != ')' && *p != '/'; p++, n++)
                    if (n < KG_MAX_HEIGHT)
                        pieces[n] = *p;
                if (*p != ')')
                    return err_set(err, STATUS_PARSE,
                                   "a stack opened with '(' on rank %d is not closed with ')'",
                                   rank + 1);
                p++;
                if (n == 0)
                    return err_set(err, STATUS_PARSE, "empty stack '()' on rank %d: write "
                                   "empty squares as digits", rank + 1);
            } else {
                pieces[n++] = *p++;
                if (ch == ')')
                    return err_set(err, STATUS_PARSE, "')' without '(' on rank %d", rank + 1);
            }
            if (n > c->limit) {
                StrBuf sqn;
                sb_init(&sqn);
                kg_format_square(c, sq, &sqn);
                err_set(err, STATUS_PARSE, "the stack on %s has %d pieces; towers hold at most %d",
                        sb_str(&sqn), n, c->limit);
                sb_free(&sqn);
                return STATUS_PARSE;
            }
            for (int lv = 0; lv < n; lv++) {
                const int kind = piece_kind(pieces[lv]);
                if (kind < 0) {
                    if (isprint((unsigned char)pieces[lv]))
                        return err_set(err, STATUS_PARSE,
                                       "'%c' is not a piece: use G K (first player), g k "
                                       "(second), (...) for a stack bottom to top, digits for "
                                       "empty squares",
                                       pieces[lv]);
                    return err_set(err, STATUS_PARSE,
                                   "unexpected byte 0x%02x in the board: use G K g k, (...) "
                                   "and digits",
                                   (unsigned)(unsigned char)pieces[lv]);
                }
                const int owner = kind & 1;
                t->owners[sq] |= (uint8_t)(owner << lv);
                if (kind >> 1) {
                    kings[owner]++;
                    t->king[owner] = (uint8_t)sq;
                    t->king_level[owner] = (uint8_t)lv;
                }
            }
            t->height[sq] = (uint8_t)n;
            file++;
        }
        if (file != c->files)
            return err_set(err, STATUS_PARSE, "rank %d describes %d squares, not %d", rank + 1,
                           file, c->files);
        if (rank > 0) {
            if (*p != '/')
                return err_set(err, STATUS_PARSE, "the board needs %d ranks separated by '/'",
                               c->ranks);
            p++;
        }
    }
    if (*p != '\0')
        return err_set(err, STATUS_PARSE, "the board has more than %d ranks", c->ranks);
    for (int who = 0; who < 2; who++)
        if (kings[who] != 1)
            return err_set(err, STATUS_PARSE, "the %s player needs exactly one king, not %d",
                           player_name(who), kings[who]);
    const bool buried0 = t->king_level[0] + 1 != t->height[t->king[0]];
    const bool buried1 = t->king_level[1] + 1 != t->height[t->king[1]];
    if (buried0 && buried1)
        return err_set(err, STATUS_PARSE, "both kings are under other pieces: only one king "
                       "can be captured, and that ends the game");
    return STATUS_OK;
}

/* Reads the optional fourth field "c3:1": a turn in progress that started from c3 and
 * has placed one piece so far. */
static Status parse_in_progress(const KgConfig *c, KgCore *t, const char *field, ErrBuf *err)
{
    const char *p = field;
    const int sq = read_square(c, &p);
    if (sq == -2)
        return off_board(c, field, err);
    char *end;
    long placed = -1;
    if (sq >= 0 && *p == ':' && isdigit((unsigned char)p[1])) {
        errno = 0;
        placed = strtol(p + 1, &end, 10);
        if (errno != 0 || *end != '\0')
            placed = -1;
    }
    if (sq < 0 || placed < 0)
        return err_set(err, STATUS_PARSE,
                       "the fourth field is the turn in progress, written START:PLACED (e.g. "
                       "c3:1: the turn started from c3 and has placed one piece), not '%.*s'",
                       EXCERPT, field);
    if (t->height[sq] == 0)
        return err_set(err, STATUS_PARSE, "the turn in progress starts from an empty square");
    if (placed >= c->limit || t->height[sq] + placed > c->limit)
        return err_set(err, STATUS_PARSE, "%ld pieces placed from a stack of %d now: no tower "
                       "was ever that tall",
                       placed, t->height[sq]);
    t->origin = (uint8_t)sq;
    t->placed = (uint8_t)placed;
    return STATUS_OK;
}

Status kg_parse_position(const KgConfig *c, KgState *out, const char *text, ErrBuf *err)
{
    char board[1024], side[16], plies[32], progress[32], extra[2];
    if (strlen(text) > 1000)
        return err_set(err, STATUS_PARSE, "a position text is much shorter than %zu characters",
                       strlen(text));
    const int fields =
        sscanf(text, " %1023s %15s %31s %31s %1s", board, side, plies, progress, extra);
    if (fields < 3)
        return err_set(err, STATUS_PARSE,
                       "a position is the board, the player to move (1 or 2), the turns played "
                       "and, in the middle of a turn, START:PLACED; e.g. '%s'",
                       c->start);
    if (fields > 4)
        return err_set(err, STATUS_PARSE, "unexpected text after the fourth field");

    KgState *t = calloc(1, c->state_bytes);
    if (t == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    KgCore *k = &t->k;
    k->origin = KG_NO_SQ;
    Status st = parse_board(c, k, board, err);
    if (st == STATUS_OK && strcmp(side, "1") != 0 && strcmp(side, "2") != 0)
        st = err_set(err, STATUS_PARSE, "the player to move is 1 or 2, not '%.*s'", EXCERPT,
                     side);
    if (st == STATUS_OK) {
        k->turn = (uint8_t)(side[0] - '1');
        char *end;
        errno = 0;
        const long ply = strtol(plies, &end, 10);
        if (errno != 0 || *end != '\0' || end == plies || ply < 0 || !isdigit((unsigned char)*plies))
            st = err_set(err, STATUS_PARSE, "the turns played must be a whole number, not '%.*s'",
                         EXCERPT, plies);
        else if (ply > c->max_plies)
            st = err_set(err, STATUS_PARSE,
                         "%ld turns played is past the limit of %d (max-plies)", ply,
                         c->max_plies);
        else
            k->ply = (uint16_t)ply;
    }
    if (st == STATUS_OK && fields == 4)
        st = parse_in_progress(c, k, progress, err);
    kg_rebuild_bitboards(c, k);
    if (st == STATUS_OK && k->origin != KG_NO_SQ) {
        const bool buried = k->king_level[0] + 1 != k->height[k->king[0]] ||
                            k->king_level[1] + 1 != k->height[k->king[1]];
        const int top = kg_owner_at(k, k->origin, k->height[k->origin] - 1);
        if (buried)
            st = err_set(err, STATUS_PARSE, "a king has been captured: the game is over, no "
                         "turn is in progress");
        else if (k->ply >= c->max_plies)
            st = err_set(err, STATUS_PARSE, "no turn can be in progress once %d turns have been "
                         "played (max-plies)", c->max_plies);
        else if (k->placed == 0 && top != k->turn)
            st = err_set(err, STATUS_PARSE, "the turn in progress has placed nothing yet, so the "
                         "top piece of its start square must be the %s player's",
                         player_name(k->turn));
        else if (k->placed == 0 && kg_dests(c, k) == 0)
            st = err_set(err, STATUS_PARSE, "the turn in progress could not go on: the top "
                         "piece of its start square has nowhere to go");
    }
    if (st != STATUS_OK) {
        free(t);
        return st;
    }
    k->hash = kg_compute_hash(c, k);
    rep_history_init(&k->hist, t->history, c->hist_cap, false);
    if (k->origin == KG_NO_SQ) {
        rep_history_push(&k->hist, t->history, k->hash);
        kg_settle(c, t);
    }
    memcpy(out, t, c->state_bytes);
    free(t);
    return STATUS_OK;
}

void kg_format_position(const KgConfig *c, const KgState *s, StrBuf *out)
{
    const KgCore *k = &s->k;
    for (int rank = c->ranks - 1; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < c->files; file++) {
            const int sq = rank * c->stride + file;
            const int h = k->height[sq];
            if (h == 0) {
                empty++;
                continue;
            }
            if (empty)
                sb_putc(out, (char)('0' + empty));
            empty = 0;
            if (h > 1)
                sb_putc(out, '(');
            for (int lv = 0; lv < h; lv++) {
                const int owner = kg_owner_at(k, sq, lv);
                const int is_king = k->king[owner] == sq && k->king_level[owner] == lv;
                sb_putc(out, PIECE_CHAR[owner | is_king << 1]);
            }
            if (h > 1)
                sb_putc(out, ')');
        }
        if (empty)
            sb_putc(out, (char)('0' + empty));
        if (rank > 0)
            sb_putc(out, '/');
    }
    sb_printf(out, " %d %d", k->turn + 1, k->ply);
    if (k->origin != KG_NO_SQ) {
        sb_putc(out, ' ');
        kg_format_square(c, k->origin, out);
        sb_printf(out, ":%d", k->placed);
    }
}

/* --- actions -------------------------------------------------------------------------- */

void kg_format_action(const KgConfig *c, Move m, StrBuf *out)
{
    switch (kg_kind(m)) {
    case KG_PICK:
        kg_format_square(c, kg_a(m), out);
        break;
    case KG_PLACE:
        kg_format_square(c, kg_a(m), out);
        sb_putc(out, '-');
        kg_format_square(c, kg_b(m), out);
        break;
    case KG_END:
        sb_puts(out, "end");
        break;
    }
}

/* The fewest steps from `from` to `to` over empty squares (the last step may land on a
 * stack), or -1 if no such path exists. */
static int path_length(const KgConfig *c, const KgCore *k, int from, int to)
{
    const Bb128 empty = kg_empty(c, k);
    Bb128 before = 0;
    for (int steps = 1;; steps++) {
        const Bb128 reach = kg_reach(c, from, steps, empty);
        if (bb128_has(reach, to))
            return steps;
        if (reach == before)
            return -1; // the flood has filled everything it can
        before = reach;
    }
}

/* Why picking up from sq is not legal here. */
static Status explain_pick(const KgConfig *c, const KgCore *k, int sq, ErrBuf *err)
{
    StrBuf a;
    sb_init(&a);
    kg_format_square(c, sq, &a);
    const int p = k->turn;
    const Bb128 picks = kg_picks(c, k);
    if (k->height[sq] == 0) {
        err_set(err, STATUS_ILLEGAL, "%s is empty", sb_str(&a));
    } else if (kg_owner_at(k, sq, k->height[sq] - 1) != p) {
        err_set(err, STATUS_ILLEGAL, "the top piece on %s is your opponent's: you may only "
                "move stacks whose top piece is yours", sb_str(&a));
    } else if (picks & bb128_load(k->full)) {
        StrBuf towers;
        sb_init(&towers);
        Bb128 t = picks;
        while (t) {
            if (towers.len)
                sb_puts(&towers, ", ");
            kg_format_square(c, bb128_pop(&t), &towers);
        }
        err_set(err, STATUS_ILLEGAL, "a full tower of %d with your piece on top must be "
                "dismantled this turn: pick up from %s",
                c->limit, sb_str(&towers));
        sb_free(&towers);
    } else {
        err_set(err, STATUS_ILLEGAL, "the top piece on %s has nowhere to go: every neighbour "
                "is a full tower or your own king", sb_str(&a));
    }
    sb_free(&a);
    return STATUS_ILLEGAL;
}

/* Why placing the next piece of the turn on `to` is not legal here. */
static Status explain_place(const KgConfig *c, const KgCore *k, int to, ErrBuf *err)
{
    StrBuf a, b;
    sb_init(&a);
    sb_init(&b);
    const int from = k->origin;
    kg_format_square(c, from, &a);
    kg_format_square(c, to, &b);
    const int range = k->height[from];
    if (to == from) {
        err_set(err, STATUS_ILLEGAL, "a piece may not end on the square it started from (%s)",
                sb_str(&a));
    } else if (k->height[to] >= c->limit) {
        err_set(err, STATUS_ILLEGAL, "the stack on %s already has %d pieces, the most allowed "
                "(even a king on top of it is safe)", sb_str(&b), c->limit);
    } else if (k->king[k->turn] == to) {
        err_set(err, STATUS_ILLEGAL, "no piece may be placed on your own king (%s)", sb_str(&b));
    } else {
        const int steps = path_length(c, k, from, to);
        /* One whole sentence each, so that the web app can translate it. */
        if (steps < 0 && c->steps_all)
            err_set(err, STATUS_ILLEGAL, "no path of empty squares leads from %s to %s (steps "
                    "in all 8 directions)", sb_str(&a), sb_str(&b));
        else if (steps < 0)
            err_set(err, STATUS_ILLEGAL, "no path of empty squares leads from %s to %s "
                    "(orthogonal steps)", sb_str(&a), sb_str(&b));
        else if (c->steps_all)
            err_set(err, STATUS_ILLEGAL, "%s is %d steps from %s over empty squares, but the "
                    "piece on top there goes at most %d (its height in the stack)",
                    sb_str(&b), steps, sb_str(&a), range);
        else
            err_set(err, STATUS_ILLEGAL, "%s is %d orthogonal steps from %s over empty squares, "
                    "but the piece on top there goes at most %d (its height in the stack)",
                    sb_str(&b), steps, sb_str(&a), range);
    }
    sb_free(&a);
    sb_free(&b);
    return STATUS_ILLEGAL;
}

static const char *skip_space(const char *p)
{
    while (isspace((unsigned char)*p))
        p++;
    return p;
}

/* True if [p, end) is "end", in any case. */
static bool is_end_word(const char *p, size_t len)
{
    return len == 3 && tolower((unsigned char)p[0]) == 'e' &&
           tolower((unsigned char)p[1]) == 'n' && tolower((unsigned char)p[2]) == 'd';
}

/* The legal action for a pick-up of sq, or an explanation. */
static Status check_pick(const KgConfig *c, const KgCore *k, int sq, Move *out, ErrBuf *err)
{
    if (k->origin != KG_NO_SQ) {
        StrBuf a;
        sb_init(&a);
        kg_format_square(c, k->origin, &a);
        if (k->placed)
            err_set(err, STATUS_ILLEGAL, "this turn carries the pieces of %s: say where the next "
                    "one goes (%s-c5, say), or end to leave the rest there", sb_str(&a),
                    sb_str(&a));
        else
            err_set(err, STATUS_ILLEGAL, "this turn carries the pieces of %s: say where the next "
                    "one goes (%s-c5, say)", sb_str(&a), sb_str(&a));
        sb_free(&a);
        return STATUS_ILLEGAL;
    }
    if (!bb128_has(kg_picks(c, k), sq))
        return explain_pick(c, k, sq, err);
    *out = kg_action(KG_PICK, sq, 0);
    return STATUS_OK;
}

static Status check_place(const KgConfig *c, const KgCore *k, int from, int to, Move *out,
                          ErrBuf *err)
{
    if (k->origin == KG_NO_SQ)
        return err_set(err, STATUS_ILLEGAL, "no turn is in progress: pick up a stack first by "
                       "naming its square (a whole turn is written like c3-c5,c4)");
    if (from != k->origin) {
        StrBuf a;
        sb_init(&a);
        kg_format_square(c, k->origin, &a);
        err_set(err, STATUS_ILLEGAL, "this turn moves the pieces of %s; the next placement is "
                "%s-SQUARE", sb_str(&a), sb_str(&a));
        sb_free(&a);
        return STATUS_ILLEGAL;
    }
    if (!bb128_has(kg_dests(c, k), to))
        return explain_place(c, k, to, err);
    *out = kg_action(KG_PLACE, from, to);
    return STATUS_OK;
}

static Status check_end(const KgCore *k, Move *out, ErrBuf *err)
{
    if (k->origin == KG_NO_SQ)
        return err_set(err, STATUS_ILLEGAL, "there is no turn in progress to end: pick up a "
                       "stack first");
    if (k->placed == 0)
        return err_set(err, STATUS_ILLEGAL, "a turn moves at least one piece: place the top "
                       "piece before ending it");
    *out = kg_action(KG_END, k->origin, 0);
    return STATUS_OK;
}

/* One action: "c3" (pick up), "c3-c5" (place), "end". Surrounding spaces allowed. */
Status kg_parse_action(const KgConfig *c, const KgState *s, const char *text, Move *out,
                       ErrBuf *err)
{
    const KgCore *k = &s->k;
    size_t len;
    const char *start = text_trim(text, &len);
    const char *p = start;
    if (k->result != KG_PLAYING)
        return err_set(err, STATUS_ILLEGAL, "the game is over");
    if (is_end_word(p, len))
        return check_end(k, out, err);
    const int a = read_square(c, &p);
    int b = -1;
    bool dash = false;
    if (a >= 0 && *p == '-') {
        dash = true;
        p++;
        b = read_square(c, &p);
    }
    if (a == -2 || b == -2)
        return off_board(c, a == -2 ? start : p, err);
    if (a < 0 || (dash && b < 0) || (size_t)(p - start) != len)
        return err_set(err, STATUS_PARSE,
                       "'%.*s' is not a move: name the stack you take, then where its pieces "
                       "go, top piece first (c3-c5,c4: the top piece of c3 to c5, the next "
                       "to c4); or one step at a time: c3 takes the stack, c3-c5 puts its "
                       "top piece on c5, end leaves the rest where it is",
                       EXCERPT, start);
    Move m;
    const Status st = dash ? check_place(c, k, a, b, &m, err) : check_pick(c, k, a, &m, err);
    if (st == STATUS_OK)
        *out = m;
    return st;
}

/* Appends m to the actions read so far and plays it on t, so that the next one is read in
 * the position it leaves. */
static Status append_action(const KgConfig *c, KgState *t, Move m, Move *acts, int cap, int *n,
                            ErrBuf *err)
{
    if (*n >= cap)
        return err_set(err, STATUS_UNSUPPORTED, "more than %d actions", cap);
    acts[(*n)++] = m;
    kg_apply(c, t, m, true);
    return STATUS_OK;
}

/* Reads the destinations "d1,d2,..." of the turn on `t`, appending placements. */
static Status parse_dest_list(const KgConfig *c, KgState *t, const char *p, const char *end,
                              Move *acts, int cap, int *n, ErrBuf *err)
{
    for (;;) {
        p = skip_space(p);
        const char *sq_text = p;
        const int to = read_square(c, &p);
        if (to == -2)
            return off_board(c, sq_text, err);
        p = skip_space(p);
        if (to < 0 || (p != end && *p != ','))
            return err_set(err, STATUS_PARSE, "'%.*s' is not a square: after the stack's "
                           "square and a dash, say where each piece goes, top piece first, "
                           "with commas between (c3-c5,c4)",
                           EXCERPT, sq_text);
        if (t->k.result != KG_PLAYING || t->k.origin == KG_NO_SQ)
            return err_set(err, STATUS_ILLEGAL, "the turn is already over before '%.*s'", EXCERPT,
                           sq_text);
        Move m;
        Status st = check_place(c, &t->k, t->k.origin, to, &m, err);
        if (st == STATUS_OK)
            st = append_action(c, t, m, acts, cap, n, err);
        if (st != STATUS_OK)
            return st;
        if (p == end)
            return STATUS_OK;
        p++; // the comma
    }
}

/* One ';'-separated part of a parse_actions text, in [p, end). */
static Status parse_part(const KgConfig *c, KgState *t, const char *p, const char *end,
                         Move *acts, int cap, int *n, ErrBuf *err)
{
    const int mover = t->k.turn;
    const char *dash = memchr(p, '-', (size_t)(end - p));
    const char *comma = memchr(p, ',', (size_t)(end - p));
    if (dash == NULL || t->k.origin != KG_NO_SQ) {
        if (comma == NULL || dash == NULL) {
            // A single action.
            char one[64];
            if ((size_t)(end - p) >= sizeof one)
                return err_set(err, STATUS_PARSE, "'%.*s...' is too long for an action",
                               EXCERPT, p);
            memcpy(one, p, (size_t)(end - p));
            one[end - p] = '\0';
            Move m;
            const Status st = kg_parse_action(c, t, one, &m, err);
            return st == STATUS_OK ? append_action(c, t, m, acts, cap, n, err) : st;
        }
        // "c3-c5,c4" in the middle of a turn from c3: more placements, no end.
        const char *q = p;
        const int from = read_square(c, &q);
        if (from == -2)
            return off_board(c, p, err);
        if (from < 0 || q != dash)
            return err_set(err, STATUS_PARSE, "'%.*s' is not a turn: name the stack you "
                           "take, then where its pieces go, top piece first (c3-c5,c4)",
                           EXCERPT, p);
        if (from != t->k.origin) {
            StrBuf a;
            sb_init(&a);
            kg_format_square(c, t->k.origin, &a);
            err_set(err, STATUS_ILLEGAL, "this turn moves the pieces of %s; continue it with "
                    "%s-DEST,DEST...", sb_str(&a), sb_str(&a));
            sb_free(&a);
            return STATUS_ILLEGAL;
        }
        return parse_dest_list(c, t, dash + 1, end, acts, cap, n, err);
    }
    // A whole turn: pick up, the placements, and the end if the turn is not over by itself.
    const char *q = p;
    const int from = read_square(c, &q);
    if (from == -2)
        return off_board(c, p, err);
    q = skip_space(q);
    if (from < 0 || q != dash)
        return err_set(err, STATUS_PARSE, "'%.*s' is not a turn: name the stack you take, "
                       "then where its pieces go, top piece first (c3-c5,c4)", EXCERPT, p);
    Move m;
    Status st = check_pick(c, &t->k, from, &m, err);
    if (st == STATUS_OK)
        st = append_action(c, t, m, acts, cap, n, err);
    if (st == STATUS_OK)
        st = parse_dest_list(c, t, dash + 1, end, acts, cap, n, err);
    if (st == STATUS_OK && t->k.result == KG_PLAYING && t->k.origin != KG_NO_SQ &&
        t->k.turn == mover)
        st = append_action(c, t, kg_action(KG_END, t->k.origin, 0), acts, cap, n, err);
    return st;
}

Status kg_parse_actions(const KgConfig *c, const KgState *s, const char *text, Move *out,
                        int cap, int *count, ErrBuf *err)
{
    if (s->k.result != KG_PLAYING)
        return err_set(err, STATUS_ILLEGAL, "the game is over");
    KgState *t = malloc(c->state_bytes);
    Move *acts = malloc(sizeof *acts * (size_t)(cap > 0 ? cap : 1));
    if (t == NULL || acts == NULL) {
        free(t);
        free(acts);
        return err_set(err, STATUS_NOMEM, "out of memory");
    }
    memcpy(t, s, c->state_bytes);
    const int mover = s->k.turn;
    int n = 0;
    Status st = STATUS_OK;
    const char *p = text;
    bool any = false;
    while (st == STATUS_OK) {
        const char *semi = strchr(p, ';');
        const char *end = semi ? semi : p + strlen(p);
        const char *a = skip_space(p);
        const char *b = end;
        while (b > a && isspace((unsigned char)b[-1]))
            b--;
        if (b > a) {
            any = true;
            if (t->k.result != KG_PLAYING)
                st = err_set(err, STATUS_ILLEGAL, "'%.*s' comes after the end of the game",
                             (int)(b - a < EXCERPT ? b - a : EXCERPT), a);
            else if (t->k.turn != mover)
                st = err_set(err, STATUS_ILLEGAL, "'%.*s' comes after your turn has ended",
                             (int)(b - a < EXCERPT ? b - a : EXCERPT), a);
            else
                st = parse_part(c, t, a, b, acts, cap, &n, err);
        }
        if (semi == NULL)
            break;
        p = semi + 1;
    }
    if (st == STATUS_OK && !any)
        st = err_set(err, STATUS_PARSE, "no action given: write a turn like c3-c5,c4, or one "
                     "action (c3, c3-c5, end)");
    if (st == STATUS_OK) {
        memcpy(out, acts, sizeof *acts * (size_t)n);
        *count = n;
    }
    free(acts);
    free(t);
    return st;
}

/* --- the drawing ------------------------------------------------------------------------ */

#define ANSI_MARK "\x1b[4m"

void kg_render(const KgConfig *c, const KgState *s, unsigned flags, StrBuf *out)
{
    const KgCore *k = &s->k;
    const bool color = flags & RENDER_COLOR, uni = flags & RENDER_UNICODE;
    const bool flip = flags & RENDER_FLIPPED;
    const int cell = c->limit + 2; // the tallest stack, a mark, a space
    sb_puts(out, "    ");
    for (int f = 0; f < c->files; f++)
        sb_printf(out, "%-*c", cell, 'a' + (flip ? c->files - 1 - f : f));
    sb_putc(out, '\n');
    for (int row = 0; row < c->ranks; row++) {
        const int rank = flip ? row : c->ranks - 1 - row;
        sb_printf(out, "%2d  ", rank + 1);
        for (int col = 0; col < c->files; col++) {
            const int file = flip ? c->files - 1 - col : col;
            const int sq = rank * c->stride + file;
            const int h = k->height[sq];
            int used = 0;
            if (h == 0) {
                if (color)
                    sb_puts(out, ANSI_DIM);
                sb_puts(out, uni ? "·" : ".");
                if (color)
                    sb_puts(out, ANSI_RESET);
                used = 1;
            }
            for (int lv = 0; lv < h; lv++) {
                const int owner = kg_owner_at(k, sq, lv);
                const int is_king = k->king[owner] == sq && k->king_level[owner] == lv;
                if (color)
                    sb_puts(out, owner ? ANSI_SECOND : ANSI_FIRST);
                if (color && lv == h - 1)
                    sb_puts(out, ANSI_MARK);
                sb_putc(out, PIECE_CHAR[owner | is_king << 1]);
                if (color)
                    sb_puts(out, ANSI_RESET);
                used++;
            }
            // '*' marks the start square of the turn in progress, '!' a full tower.
            if (sq == k->origin) {
                sb_putc(out, '*');
                used++;
            } else if (h == c->limit) {
                sb_putc(out, '!');
                used++;
            }
            for (; used < cell; used++)
                sb_putc(out, ' ');
        }
        sb_printf(out, "%2d\n", rank + 1);
    }
    sb_puts(out, "    ");
    for (int f = 0; f < c->files; f++)
        sb_printf(out, "%-*c", cell, 'a' + (flip ? c->files - 1 - f : f));
    sb_putc(out, '\n');
    if (color)
        sb_puts(out, "First player " ANSI_FIRST "G K" ANSI_RESET ", second player " ANSI_SECOND
                     "g k" ANSI_RESET);
    else
        sb_puts(out, "First player G K, second player g k");
    sb_printf(out, ". Stacks read bottom to top: the last piece is on top and decides who "
                   "moves the stack. '!' marks a full tower (%d).\n",
              c->limit);
    if (k->origin != KG_NO_SQ && k->result == KG_PLAYING) {
        StrBuf a;
        sb_init(&a);
        kg_format_square(c, k->origin, &a);
        sb_printf(out, "Turn in progress (*): %s player moving pieces from %s, %d placed; the "
                       "next piece goes up to %d step%s%s.\n",
                  player_name(k->turn), sb_str(&a), k->placed, k->height[k->origin],
                  k->height[k->origin] == 1 ? "" : "s", k->placed ? ", or 'end'" : "");
        sb_free(&a);
    }
}
