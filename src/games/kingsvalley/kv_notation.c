/*
 * kv_notation.c - King's Valley text: squares (a1 is the first player's left corner),
 * moves (`c1-c4`), positions (`sskss/5/5/5/SSKSS 1 0`) and the terminal drawing.
 *
 * Parsers read into a temporary and copy it out only when everything checked, so bad
 * text never changes the caller's state.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "games/kingsvalley/kv_internal.h"

void kv_format_square(const KvConfig *c, int sq, StrBuf *out)
{
    sb_printf(out, "%c%d", 'a' + sq % c->size, sq / c->size + 1);
}

/* Reads a square at *p and advances past it; -1 when there is none. */
static int read_square(const KvConfig *c, const char **p)
{
    const char *q = *p;
    if (*q < 'a' || *q > 'z')
        return -1;
    int file = *q++ - 'a';
    if (!isdigit((unsigned char)*q))
        return -1;
    int rank = 0;
    while (isdigit((unsigned char)*q) && rank < 100)
        rank = rank * 10 + (*q++ - '0');
    if (file >= c->size || rank < 1 || rank > c->size)
        return -2;
    *p = q;
    return (rank - 1) * c->size + file;
}

Status kv_parse_position(const KvConfig *c, KvState *out, const char *text, ErrBuf *err)
{
    char board[128], side[16], plies[32], extra[2];
    int fields = sscanf(text, " %127s %15s %31s %1s", board, side, plies, extra);
    if (fields < 3)
        return err_set(err, STATUS_PARSE,
                       "a position is the board, the player to move (1 or 2) and the plies "
                       "played, e.g. '%s'",
                       c->start);
    if (fields > 3)
        return err_set(err, STATUS_PARSE, "unexpected text after the plies played");

    KvState t;
    memset(&t, 0, sizeof t);
    int kings[2] = {0, 0};
    uint64_t pillars = 0;
    const char *p = board;
    for (int rank = c->size - 1; rank >= 0; rank--) {
        int file = 0;
        while (*p && *p != '/') {
            char ch = *p++;
            if (ch >= '1' && ch <= '9') {
                file += ch - '0';
                continue;
            }
            if (file >= c->size)
                return err_set(err, STATUS_PARSE, "rank %d describes more than %d squares",
                               rank + 1, c->size);
            const int sq = rank * c->size + file;
            const uint64_t bit = 1ULL << sq;
            switch (ch) {
            case 'K':
            case 'k': {
                const int who = ch == 'K' ? 0 : 1;
                kings[who]++;
                t.king[who] = (uint8_t)sq;
                t.men[who] |= bit;
                break;
            }
            case 'S':
                t.men[0] |= bit;
                break;
            case 's':
                t.men[1] |= bit;
                break;
            case '#':
                pillars |= bit;
                break;
            default:
                return err_set(err, STATUS_PARSE,
                               "'%c' is not a piece: use K S k s, # for a pillar, digits for "
                               "empty squares",
                               ch);
            }
            file++;
        }
        if (file != c->size)
            return err_set(err, STATUS_PARSE, "rank %d describes %d squares, not %d", rank + 1,
                           file, c->size);
        if (rank > 0) {
            if (*p != '/')
                return err_set(err, STATUS_PARSE, "the board needs %d ranks separated by '/'",
                               c->size);
            p++;
        }
    }
    if (*p != '\0')
        return err_set(err, STATUS_PARSE, "the board has more than %d ranks", c->size);
    for (int who = 0; who < 2; who++)
        if (kings[who] != 1)
            return err_set(err, STATUS_PARSE, "the %s player needs exactly one king, not %d",
                           who ? "second" : "first", kings[who]);
    if (pillars != c->pillars)
        return err_set(err, STATUS_PARSE,
                       c->pillars ? "this board has pillars exactly on b3, f3, b5 and f5"
                                  : "this board has no pillars");
    const uint64_t valley = 1ULL << c->valley;
    if (((t.men[0] | t.men[1]) & valley) && t.king[0] != c->valley && t.king[1] != c->valley)
        return err_set(err, STATUS_PARSE, "a soldier cannot stand on the Valley");

    if (strcmp(side, "1") != 0 && strcmp(side, "2") != 0)
        return err_set(err, STATUS_PARSE, "the player to move is 1 or 2, not '%s'", side);
    t.turn = (uint8_t)(side[0] - '1');

    long ply;
    const Status st = game_parse_plies(plies, c->max_plies, &ply, err);
    if (st != STATUS_OK)
        return st;
    t.ply = (uint16_t)ply;
    t.hash = kv_compute_hash(c, &t);
    *out = t;
    rep_history_init(&out->hist, out->history, c->hist_cap, c->repetition);
    rep_history_push(&out->hist, out->history, out->hash);
    kv_settle_result(c, out);
    return STATUS_OK;
}

void kv_format_position(const KvConfig *c, const KvState *s, StrBuf *out)
{
    for (int rank = c->size - 1; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < c->size; file++) {
            const int sq = rank * c->size + file;
            const uint64_t bit = 1ULL << sq;
            char ch = 0;
            if (s->men[0] & bit)
                ch = sq == s->king[0] ? 'K' : 'S';
            else if (s->men[1] & bit)
                ch = sq == s->king[1] ? 'k' : 's';
            else if (c->pillars & bit)
                ch = '#';
            if (ch == 0) {
                empty++;
                continue;
            }
            if (empty)
                sb_putc(out, (char)('0' + empty));
            empty = 0;
            sb_putc(out, ch);
        }
        if (empty)
            sb_putc(out, (char)('0' + empty));
        if (rank > 0)
            sb_putc(out, '/');
    }
    sb_printf(out, " %d %d", s->turn + 1, s->ply);
}

/* Explains why from-to is not legal, for the error message. */
static Status explain_illegal(const KvConfig *c, const KvState *s, int from, int to, ErrBuf *err)
{
    const int p = s->turn;
    StrBuf a, b;
    sb_init(&a);
    sb_init(&b);
    kv_format_square(c, from, &a);
    kv_format_square(c, to, &b);
    Status st = STATUS_ILLEGAL;
    const uint64_t bit = 1ULL << from;
    const bool is_king = from == s->king[p];
    const uint64_t occ = kv_occupied(c, s);
    if (!(s->men[p] & bit)) {
        err_set(err, st, "%s %s", sb_str(&a),
                (s->men[1 - p] & bit) ? "holds your opponent's man" : "holds none of your men");
    } else if (from == to) {
        err_set(err, st, "a move must go somewhere: %s-%s stays put", sb_str(&a), sb_str(&b));
    } else if (is_king && c->first_move_soldier && s->ply == 0) {
        err_set(err, st, "the first move of the game must be made by a soldier");
    } else {
        int dir = -1;
        for (int d = 0; d < KV_DIRS; d++)
            if (c->ray[d][from] & (1ULL << to))
                dir = d;
        if (dir < 0) {
            err_set(err, st, "%s-%s is not a straight or diagonal line", sb_str(&a), sb_str(&b));
        } else {
            const int stop = kv_slide(c, from, dir, occ);
            StrBuf st_sq;
            sb_init(&st_sq);
            kv_format_square(c, stop, &st_sq);
            if (stop != to && stop == from)
                err_set(err, st, "the man on %s is blocked in that direction", sb_str(&a));
            else if (stop != to)
                err_set(err, st, "men slide as far as they can: from %s that way it stops on %s",
                        sb_str(&a), sb_str(&st_sq));
            else if (!is_king && to == c->valley)
                err_set(err, st, "a soldier may not stop on the Valley (%s)", sb_str(&b));
            else
                err_set(err, st,
                        "%s-%s would shut a king off from the Valley (the trap-prevention rule)",
                        sb_str(&a), sb_str(&b));
            sb_free(&st_sq);
        }
    }
    sb_free(&a);
    sb_free(&b);
    return st;
}

Status kv_parse_move_text(const KvConfig *c, const KvState *s, const char *text, Move *out,
                          ErrBuf *err)
{
    const char *p = text;
    while (isspace((unsigned char)*p))
        p++;
    const char *start = p;
    int from = read_square(c, &p);
    int to = -1;
    if (from >= 0 && *p == '-') {
        p++;
        to = read_square(c, &p);
    }
    while (isspace((unsigned char)*p))
        p++;
    if (from == -2 || to == -2)
        return err_set(err, STATUS_PARSE, "'%.20s' names a square off the %dx%d board", start,
                       c->size, c->size);
    if (from < 0 || to < 0 || *p != '\0')
        return err_set(err, STATUS_PARSE,
                       "a move is written from-to, like c1-c4; '%.20s' is not one", start);
    if (s->result != KV_PLAYING)
        return err_set(err, STATUS_ILLEGAL, "the game is over");
    Move moves[KV_MAX_CELLS * KV_DIRS];
    const int n = kv_gen_legal(c, s, moves);
    const Move m = kv_move(from, to);
    for (int i = 0; i < n; i++) {
        if (moves[i] == m) {
            *out = m;
            return STATUS_OK;
        }
    }
    return explain_illegal(c, s, from, to, err);
}

/* The Valley's colour, beside the players' (core/game.h). */
#define ANSI_VALLEY "\x1b[42m"

void kv_render(const KvConfig *c, const KvState *s, unsigned flags, StrBuf *out)
{
    const bool color = flags & RENDER_COLOR, uni = flags & RENDER_UNICODE;
    const bool flip = flags & RENDER_FLIPPED;
    sb_puts(out, "   ");
    for (int f = 0; f < c->size; f++)
        sb_printf(out, " %c", 'a' + (flip ? c->size - 1 - f : f));
    sb_putc(out, '\n');
    for (int row = 0; row < c->size; row++) {
        const int rank = flip ? row : c->size - 1 - row;
        sb_printf(out, "%2d ", rank + 1);
        for (int x = 0; x < c->size; x++) {
            const int file = flip ? c->size - 1 - x : x;
            const int sq = rank * c->size + file;
            const uint64_t bit = 1ULL << sq;
            const char *sym = uni ? "·" : ".";
            const char *col = ANSI_DIM;
            if (s->men[0] & bit) {
                sym = sq == s->king[0] ? "K" : "S";
                col = ANSI_FIRST;
            } else if (s->men[1] & bit) {
                sym = sq == s->king[1] ? "k" : "s";
                col = ANSI_SECOND;
            } else if (c->pillars & bit) {
                sym = uni ? "■" : "#";
                col = "";
            } else if (sq == c->valley) {
                sym = uni ? "◇" : "*";
                col = "";
            }
            sb_putc(out, ' ');
            if (color && sq == c->valley)
                sb_puts(out, ANSI_VALLEY);
            if (color)
                sb_puts(out, col);
            sb_puts(out, sym);
            if (color)
                sb_puts(out, ANSI_RESET);
        }
        sb_printf(out, "  %d\n", rank + 1);
    }
    sb_puts(out, "   ");
    for (int f = 0; f < c->size; f++)
        sb_printf(out, " %c", 'a' + (flip ? c->size - 1 - f : f));
    sb_putc(out, '\n');
    if (color)
        sb_printf(out, "First player " ANSI_FIRST "K S" ANSI_RESET ", second player " ANSI_SECOND
                       "k s" ANSI_RESET "; the Valley is %s.\n",
                  uni ? "◇" : "*");
    else
        sb_printf(out, "First player K S, second player k s; the Valley is %s.\n",
                  uni ? "◇" : "*");
}
