/*
 * kotv_notation.c - King of the Valley text: actions, the position text, the terminal
 * drawing and each player's view.
 *
 * Actions (docs/games/king-of-the-valley.md has the full table):
 *   place c3          set-up: the king goes on c3
 *   pass              no recruit (phase 1) / no kingdom bonus (phase 3)
 *   recruit L3        recruit the subject on row 3 of the left hill column
 *   c3-e5             summon leg: stop on e5 and take its tile (a priest: pay, go on)
 *   a1-d4:b2,c3       summon leg: take b2 and c3 (identical characters), stop on d4
 *   jester Q          put the jester in the queens' column (Q D C N F W)
 *   swap NA R2        wizard: a face-up castle subject (JQ = jester in Q) for hill R2
 *   tax N             the pending tax collector taxes the knights' column
 *   kingdom F         claim the kingdom bonus with a farmer (F) or a farmer's wife (W)
 *   refill L          replenish the valley from the left hill column
 *   draw T3:5         chance: the tile drawn onto the hill
 *
 * Parsers fill a local temporary and copy it out only when everything checked.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/kingofthevalley/kotv_internal.h"

const char *const kotv_phase_names[KPH_COUNT] = {"place",   "recruit", "summon", "kingdom",
                                                 "refill",  "draw",    "over"};
const char kotv_column_letters[KOTV_COLUMNS + 1] = "QDCNFW";
static const char HILL_LETTERS[] = "LR";

void kotv_format_square(int sq, StrBuf *out)
{
    sb_printf(out, "%c%d", 'a' + sq % KOTV_SIZE, sq / KOTV_SIZE + 1);
}

/* Reads a square ("c3") at *p; -1 if there is none. */
static int read_square(const char **p)
{
    const char *q = *p;
    if (q[0] < 'a' || q[0] > 'e' || q[1] < '1' || q[1] > '5' || isalnum((unsigned char)q[2]))
        return -1;
    *p = q + 2;
    return (q[1] - '1') * KOTV_SIZE + (q[0] - 'a');
}

static void format_castle_code(const KotvConfig *c, int code, StrBuf *out)
{
    if (code < KOTV_MAX_KINDS)
        sb_puts(out, c->kind[code].code);
    else
        sb_printf(out, "J%c", kotv_column_letters[code - KOTV_MAX_KINDS]);
}

void kotv_format_move(const KotvConfig *c, const KotvState *s, Move m, StrBuf *out)
{
    (void)s;
    const int a = kotv_marg(m);
    switch (kotv_mtype(m)) {
    case KMV_PLACE:
        sb_puts(out, "place ");
        kotv_format_square(a, out);
        break;
    case KMV_PASS:
        sb_puts(out, "pass");
        break;
    case KMV_RECRUIT:
        sb_printf(out, "recruit %c%d", HILL_LETTERS[kotv_recruit_hcol(m)], kotv_recruit_row(m) + 1);
        break;
    case KMV_LEG: {
        const int from = kotv_leg_from(m), d = kotv_leg_dir(m), mask = kotv_leg_mask(m);
        kotv_format_square(from, out);
        sb_putc(out, '-');
        kotv_format_square(c->ray[d][from][kotv_leg_dist(m) - 1], out);
        const char *sep = ":";
        for (int i = 0; i < KOTV_RAY; i++)
            if ((mask >> i) & 1) {
                sb_puts(out, sep);
                kotv_format_square(c->ray[d][from][i], out);
                sep = ",";
            }
        break;
    }
    case KMV_JESTER:
        sb_printf(out, "jester %c", kotv_column_letters[a]);
        break;
    case KMV_SWAP:
        sb_puts(out, "swap ");
        format_castle_code(c, kotv_swap_code(m), out);
        sb_printf(out, " %c%d", HILL_LETTERS[kotv_swap_hcol(m)], kotv_swap_row(m) + 1);
        break;
    case KMV_TAX:
        sb_printf(out, "tax %c", kotv_column_letters[a]);
        break;
    case KMV_KINGDOM:
        sb_printf(out, "kingdom %c", kotv_column_letters[a]);
        break;
    case KMV_REFILL:
        sb_printf(out, "refill %c", HILL_LETTERS[a]);
        break;
    case KMV_DRAW:
        sb_printf(out, "draw %s", a < c->nkinds ? c->kind[a].code : "?");
        break;
    default:
        sb_puts(out, "?");
        break;
    }
}

/* --- parsing actions ------------------------------------------------------------------ */

static int column_of_letter(char ch)
{
    const char *hit = ch ? strchr(kotv_column_letters, toupper((unsigned char)ch)) : NULL;
    return hit ? (int)(hit - kotv_column_letters) : -1;
}

/* "L3" / "R6": hill column and row (0-based); false if not one. */
static bool read_slot(const char *w, int *h, int *r)
{
    const char up = (char)toupper((unsigned char)w[0]);
    if ((up != 'L' && up != 'R') || w[1] < '1' || w[1] > '6' || w[2] != '\0')
        return false;
    *h = up == 'R';
    *r = w[1] - '1';
    return true;
}

/* A castle code: a real subject kind, or J<column> for a jester; -1 if not one. */
static int read_castle_code(const KotvConfig *c, const char *w, size_t len)
{
    if (len == 2 && w[0] == 'J' && column_of_letter(w[1]) >= 0 && isupper((unsigned char)w[1]))
        return KOTV_MAX_KINDS + column_of_letter(w[1]);
    const int k = kotv_find_kind(c, w, len);
    return k >= 0 && c->kind_col[k] >= 0 ? k : -1;
}

static bool in_list(const Move *list, int n, Move m)
{
    for (int i = 0; i < n; i++)
        if (list[i] == m)
            return true;
    return false;
}

static const char *decision_name(const KotvState *s)
{
    if (s->pend_jester)
        return "the column of the jester (jester Q|D|C|N|F|W)";
    if (s->pend_wizard)
        return "the wizard's swap (swap <castle subject> <hill slot>, e.g. swap F L2)";
    if (s->npend_tax)
        return "the tax collector's column (tax Q|D|C|N|F|W)";
    switch (s->phase) {
    case KPH_PLACE:
        return "placing the king (place c3)";
    case KPH_RECRUIT:
        return "phase 1: recruit from the hill (recruit L3) or pass";
    case KPH_SUMMON:
        return "phase 2: the summon (c3-e5, or a1-d4:b2,c3 for identical tiles passed)";
    case KPH_KINGDOM:
        return "phase 3: the kingdom bonus (kingdom F|W) or pass";
    case KPH_REFILL:
        return "phase 4: the hill column that replenishes the valley (refill L|R)";
    default:
        return "nothing";
    }
}

/* Why a leg that parsed is not legal. */
static Status explain_leg(const KotvConfig *c, const KotvState *s, int d, int dist, int mask,
                          const char *text, ErrBuf *err)
{
    const KotvPlayer *p = &s->pl[s->turn];
    const int from = p->king;
    const int to = c->ray[d][from][dist - 1];
    char sq[16];
    uint32_t others = 0;
    for (int q = 0; q < s->players; q++)
        if (q != s->turn && s->pl[q].king != KOTV_NO_SQUARE)
            others |= 1u << s->pl[q].king;
    int first_ch = -1;
    for (int i = 0; i < dist; i++) {
        const bool taken = mask ? ((mask >> i) & 1) : i == dist - 1;
        if (!taken)
            continue;
        const int t = c->ray[d][from][i];
        snprintf(sq, sizeof sq, "%c%d", 'a' + t % KOTV_SIZE, t / KOTV_SIZE + 1);
        if (s->valley[t] == 0)
            return err_set(err, STATUS_ILLEGAL, "%s: %s is empty, there is no tile to take",
                           text, sq);
        if ((others >> t) & 1u)
            return err_set(err, STATUS_ILLEGAL, "%s: another king stands on %s, its tile cannot "
                           "be summoned", text, sq);
        const int ch = c->kind[kotv_kind_at(s->valley[t])].ch;
        if (mask && ch == KCH_PRIEST)
            return err_set(err, STATUS_ILLEGAL, "%s: a priest can only be summoned by stopping on "
                           "him", text);
        if (first_ch >= 0 && ch != first_ch)
            return err_set(err, STATUS_ILLEGAL, "%s: the tiles taken in passing must show the "
                           "same character", text);
        first_ch = ch;
    }
    (void)to;
    if (first_ch == KCH_PRIEST)
        return err_set(err, STATUS_ILLEGAL, "%s: the priest wants one gold and you have none", text);
    if (first_ch == KCH_WIZARD)
        return err_set(err, STATUS_ILLEGAL, "%s: a wizard needs a face-up subject in your castle "
                       "and a subject on the hill", text);
    if (first_ch == KCH_TAX)
        return err_set(err, STATUS_ILLEGAL, "%s: you cannot serve every tax collector taken (each "
                       "needs its own untaxed column with enough face-up subjects)", text);
    return err_set(err, STATUS_ILLEGAL, "%s is not a legal summon here", text);
}

static Status parse_leg(const KotvConfig *c, const KotvState *s, const char *text, Move *out,
                        ErrBuf *err)
{
    const char *p = text;
    const int from = read_square(&p);
    if (from < 0 || *p != '-')
        return err_set(err, STATUS_PARSE, "'%.30s' is not an action: %s", text,
                       decision_name(s));
    p++;
    const int to = read_square(&p);
    if (to < 0)
        return err_set(err, STATUS_PARSE, "'%.30s': a summon is written from-to, e.g. c3-e5",
                       text);
    int taken[KOTV_RAY], nt = 0;
    if (*p == ':') {
        do {
            p++;
            if (nt == KOTV_RAY)
                return err_set(err, STATUS_PARSE, "'%.30s': too many tiles listed", text);
            taken[nt] = read_square(&p);
            if (taken[nt] < 0)
                return err_set(err, STATUS_PARSE, "'%.30s': after ':' list the squares of the "
                               "tiles taken, e.g. a1-d4:b2,c3", text);
            nt++;
        } while (*p == ',');
    }
    if (*p != '\0')
        return err_set(err, STATUS_PARSE, "'%.30s': unexpected text after the summon", text);
    if (s->phase != KPH_SUMMON || s->pend_jester || s->pend_wizard || s->npend_tax)
        return err_set(err, STATUS_ILLEGAL, "not the time for a summon: %s", decision_name(s));
    const int king = s->pl[s->turn].king;
    if (from != king)
        return err_set(err, STATUS_ILLEGAL, "'%.30s': your king stands on %c%d", text,
                       'a' + king % KOTV_SIZE, king / KOTV_SIZE + 1);
    int dir = -1, dist = 0;
    for (int d = 0; d < KOTV_DIRS && dir < 0; d++)
        for (int i = 0; i < c->ray_len[d][from]; i++)
            if (c->ray[d][from][i] == to) {
                dir = d;
                dist = i + 1;
            }
    if (dir < 0)
        return err_set(err, STATUS_ILLEGAL, "'%.30s': the king moves in a straight line, "
                       "orthogonally or diagonally", text);
    int mask = 0;
    if (nt > 0) {
        if (nt < 2 || nt > 3)
            return err_set(err, STATUS_ILLEGAL, "'%.30s': take one tile by stopping on it, or "
                           "two or three identical ones passed", text);
        int last = -1;
        for (int t = 0; t < nt; t++) {
            int at = -1;
            for (int i = 0; i < dist - 1; i++)
                if (c->ray[dir][from][i] == taken[t])
                    at = i;
            if (at < 0)
                return err_set(err, STATUS_ILLEGAL, "'%.30s': the tiles taken must lie on the "
                               "path, before the square where the king stops", text);
            if (at <= last)
                return err_set(err, STATUS_ILLEGAL, "'%.30s': list the tiles taken in the "
                               "order the king passes them", text);
            last = at;
            mask |= 1 << at;
        }
        if (last != dist - 2)
            return err_set(err, STATUS_ILLEGAL, "'%.30s': the king must stop on the square just "
                           "beyond the last tile taken", text);
    }
    const Move m = kotv_leg(from, dir, dist, mask);
    Move list[KOTV_MAX_MOVES];
    const int n = kotv_gen(c, s, list);
    if (!in_list(list, n, m))
        return explain_leg(c, s, dir, dist, mask, text, err);
    *out = m;
    return STATUS_OK;
}

/* Why a well-formed action other than a leg is not legal now. */
static Status explain_other(const KotvConfig *c, const KotvState *s, Move m, const char *text,
                            ErrBuf *err)
{
    const int type = kotv_mtype(m);
    const KotvPlayer *p = &s->pl[s->turn];
    if (type == KMV_RECRUIT && s->phase == KPH_RECRUIT && !s->pend_jester) {
        const int h = kotv_recruit_hcol(m), r = kotv_recruit_row(m);
        if (s->turns < s->players)
            return err_set(err, STATUS_ILLEGAL, "no recruiting in the first round");
        if (r >= s->hill_n[h])
            return err_set(err, STATUS_ILLEGAL, "'%.30s': that hill slot is empty", text);
        const KotvKind *kd = &c->kind[kotv_kind_at(s->hill[h][r])];
        if (!kotv_char_is_subject(kd->ch))
            return err_set(err, STATUS_ILLEGAL, "'%.30s': %s is a specialist; only subjects can "
                           "be recruited", text, kd->code);
        if (c->prices[r] > p->gold)
            return err_set(err, STATUS_ILLEGAL, "'%.30s' costs %d gold and you have %d", text,
                           c->prices[r], p->gold);
    }
    if (type == KMV_TAX && s->npend_tax && !s->pend_jester && !s->pend_wizard) {
        const int col = kotv_marg(m);
        if ((p->taxed >> col) & 1u)
            return err_set(err, STATUS_ILLEGAL, "'%.30s': you have already taxed that column",
                           text);
        return err_set(err, STATUS_ILLEGAL, "'%.30s': this collector needs %d face-up subjects in "
                       "one column (and every other collector taken needs a column too)", text,
                       c->kind[s->pend_tax[0]].req);
    }
    if (type == KMV_PLACE && s->phase == KPH_PLACE)
        return err_set(err, STATUS_ILLEGAL, "'%.30s': another king is already there", text);
    if (type == KMV_REFILL && s->phase == KPH_REFILL && !s->pend_jester && !s->pend_wizard &&
        !s->npend_tax)
        return err_set(err, STATUS_ILLEGAL, "'%.30s': that column is empty or has too few tiles "
                       "while the other has enough", text);
    if (type == KMV_SWAP && s->pend_wizard && !s->pend_jester)
        return err_set(err, STATUS_ILLEGAL, "'%.30s': swap a face-up subject of your castle for "
                       "a subject on the hill", text);
    if (type == KMV_KINGDOM && s->phase == KPH_KINGDOM)
        return err_set(err, STATUS_ILLEGAL, "'%.30s': a kingdom needs a face-up queen, duke, "
                       "countess, knight and that one-influence subject", text);
    return err_set(err, STATUS_ILLEGAL, "'%.30s' is not legal now: %s", text, decision_name(s));
}

Status kotv_parse_move(const KotvConfig *c, const KotvState *s, const char *text, Move *out,
                       ErrBuf *err)
{
    char buf[64];
    const char *p = text;
    while (isspace((unsigned char)*p))
        p++;
    size_t len = strlen(p);
    while (len > 0 && isspace((unsigned char)p[len - 1]))
        len--;
    if (len == 0)
        return err_set(err, STATUS_PARSE, "empty action: %s", decision_name(s));
    if (len >= sizeof buf)
        return err_set(err, STATUS_PARSE, "'%.30s...' is too long for an action", p);
    memcpy(buf, p, len);
    buf[len] = '\0';
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)buf[i] < 0x20 || (unsigned char)buf[i] >= 0x7f)
            return err_set(err, STATUS_PARSE, "the action contains a control or non-ASCII "
                           "character");
    if (s->phase == KPH_OVER)
        return err_set(err, STATUS_ILLEGAL, "the game is over");
    // Words separated by blanks: a verb and up to two arguments.
    char *w[4] = {NULL, NULL, NULL, NULL};
    int nw = 0;
    for (char *q = buf; *q && nw < 4;) {
        while (*q == ' ' || *q == '\t')
            *q++ = '\0';
        if (!*q)
            break;
        w[nw++] = q;
        while (*q && *q != ' ' && *q != '\t')
            q++;
    }
    if (nw > 3)
        return err_set(err, STATUS_PARSE, "'%.30s': too many words", text);
    const char *word = w[0], *arg = w[1];
    Move m = MOVE_NONE;
    if (strcmp(word, "draw") == 0) {
        const int k = nw == 2 ? kotv_find_kind(c, arg, strlen(arg)) : -1;
        if (k < 0)
            return err_set(err, STATUS_PARSE, "'%.30s': draw takes a tile code, e.g. draw NA",
                           text);
        Move list[KOTV_MAX_KINDS];
        const int n = kotv_chance(c, s, list, NULL);
        m = kotv_simple(KMV_DRAW, k);
        if (!in_list(list, n, m))
            return err_set(err, STATUS_ILLEGAL, s->phase == KPH_DRAW ? "no %s is left in the pile "
                           "in use" : "'draw %s' is chance's action, not now", c->kind[k].code);
        *out = m;
        return STATUS_OK;
    }
    if (s->phase == KPH_DRAW)
        return err_set(err, STATUS_ILLEGAL, "chance draws the next hill tile (draw <tile>)");
    if (nw == 1 && strcmp(word, "pass") != 0)
        return parse_leg(c, s, word, out, err);
    const bool two = nw == 3;
    int h, r, col;
    if (strcmp(word, "pass") == 0) {
        if (nw != 1)
            return err_set(err, STATUS_PARSE, "'pass' takes nothing after it");
        m = kotv_simple(KMV_PASS, 0);
    } else if (strcmp(word, "place") == 0) {
        const char *q = arg;
        const int sq = read_square(&q);
        if (two || sq < 0 || *q)
            return err_set(err, STATUS_PARSE, "'%.30s': place takes a square, e.g. place c3", text);
        m = kotv_simple(KMV_PLACE, sq);
    } else if (strcmp(word, "recruit") == 0) {
        if (two || !read_slot(arg, &h, &r))
            return err_set(err, STATUS_PARSE, "'%.30s': recruit takes a hill slot, L1-L6 or R1-R6 "
                           "(row 1 at the bottom)", text);
        m = kotv_recruit(h, r);
    } else if (strcmp(word, "jester") == 0 || strcmp(word, "tax") == 0 ||
               strcmp(word, "kingdom") == 0) {
        col = !two && strlen(arg) == 1 ? column_of_letter(arg[0]) : -1;
        if (col < 0)
            return err_set(err, STATUS_PARSE, "'%.30s': %s takes a castle column: Q D C N F W",
                           text, word);
        m = kotv_simple(word[0] == 'j' ? KMV_JESTER : word[0] == 't' ? KMV_TAX : KMV_KINGDOM, col);
    } else if (strcmp(word, "refill") == 0) {
        const char up = (char)toupper((unsigned char)arg[0]);
        if (two || (up != 'L' && up != 'R') || arg[1] != '\0')
            return err_set(err, STATUS_PARSE, "'%.30s': refill takes a hill column, L or R", text);
        m = kotv_simple(KMV_REFILL, up == 'R');
    } else if (strcmp(word, "swap") == 0) {
        const int code = two ? read_castle_code(c, arg, strlen(arg)) : -1;
        if (code < 0 || !read_slot(w[2], &h, &r))
            return err_set(err, STATUS_PARSE, "'%.30s': swap takes a castle subject (a tile code, "
                           "or JQ for a jester in the Q column) and a hill slot, e.g. swap NA L4",
                           text);
        m = kotv_swap(code, h, r);
    } else {
        return err_set(err, STATUS_PARSE, "'%.30s' is not an action: %s", text,
                       decision_name(s));
    }
    Move list[KOTV_MAX_MOVES];
    const int n = kotv_gen(c, s, list);
    if (!in_list(list, n, m))
        return explain_other(c, s, m, text, err);
    *out = m;
    return STATUS_OK;
}

/* --- the position text ------------------------------------------------------------------ */

/* Appends "[n]code" items separated by ',' for counts by kind, or '-' when empty. */
static void put_counted(const KotvConfig *c, const uint8_t *counts, StrBuf *out)
{
    bool any = false;
    for (int k = 0; k < c->nkinds; k++) {
        if (counts[k] == 0)
            continue;
        if (any)
            sb_putc(out, ',');
        if (counts[k] > 1)
            sb_printf(out, "%d", counts[k]);
        sb_puts(out, c->kind[k].code);
        any = true;
    }
    if (!any)
        sb_putc(out, '-');
}

static void put_castle(const KotvConfig *c, const uint8_t *real, const uint8_t *jesters,
                       StrBuf *out)
{
    bool any = false;
    for (int k = 0; k < c->nkinds; k++) {
        if (real[k] == 0)
            continue;
        sb_puts(out, any ? "," : "");
        if (real[k] > 1)
            sb_printf(out, "%d", real[k]);
        sb_puts(out, c->kind[k].code);
        any = true;
    }
    for (int col = 0; col < KOTV_COLUMNS; col++) {
        if (jesters[col] == 0)
            continue;
        sb_puts(out, any ? "," : "");
        if (jesters[col] > 1)
            sb_printf(out, "%d", jesters[col]);
        sb_printf(out, "J%c", kotv_column_letters[col]);
        any = true;
    }
    if (!any)
        sb_putc(out, '-');
}

void kotv_format_position(const KotvConfig *c, const KotvState *s, StrBuf *out)
{
    const int n = s->players;
    sb_printf(out, "players=%d first=%d turn=%d turns=%d phase=%s end=%d valley=", n,
              s->first + 1, s->turn + 1, s->turns, kotv_phase_names[s->phase], s->end_triggered);
    for (int rank = KOTV_SIZE - 1; rank >= 0; rank--) {
        for (int f = 0; f < KOTV_SIZE; f++) {
            const int sq = rank * KOTV_SIZE + f;
            if (f)
                sb_putc(out, ',');
            sb_puts(out, s->valley[sq] ? c->kind[kotv_kind_at(s->valley[sq])].code : "-");
            if (s->coins[sq])
                sb_printf(out, "+%d", s->coins[sq]);
        }
        if (rank)
            sb_putc(out, '/');
    }
    sb_puts(out, " kings=");
    for (int p = 0; p < n; p++) {
        if (p)
            sb_putc(out, ',');
        if (s->pl[p].king == KOTV_NO_SQUARE)
            sb_putc(out, '-');
        else
            kotv_format_square(s->pl[p].king, out);
    }
    sb_puts(out, " hill=");
    for (int h = 0; h < KOTV_HILL_COLS; h++) {
        if (h)
            sb_putc(out, '/');
        for (int r = 0; r < s->hill_n[h]; r++)
            sb_printf(out, "%s%s", r ? "," : "", c->kind[kotv_kind_at(s->hill[h][r])].code);
        if (s->hill_n[h] == 0)
            sb_putc(out, '-');
    }
    for (int st = 0; st < KOTV_STAGES; st++) {
        sb_printf(out, " pile%d=", st + 1);
        put_counted(c, s->pile[st], out);
    }
    sb_puts(out, " gold=");
    for (int p = 0; p < n; p++)
        sb_printf(out, "%s%d", p ? "," : "", s->pl[p].gold);
    sb_puts(out, " crowns=");
    for (int p = 0; p < n; p++)
        sb_printf(out, "%s%d", p ? "," : "", s->pl[p].crowns);
    sb_puts(out, " taxed=");
    for (int p = 0; p < n; p++) {
        if (p)
            sb_putc(out, ',');
        if (s->pl[p].taxed == 0)
            sb_putc(out, '-');
        for (int col = 0; col < KOTV_COLUMNS; col++)
            if ((s->pl[p].taxed >> col) & 1u)
                sb_putc(out, kotv_column_letters[col]);
    }
    for (int p = 0; p < n; p++) {
        sb_printf(out, " up%d=", p + 1);
        put_castle(c, s->pl[p].up, s->pl[p].jup, out);
        sb_printf(out, " down%d=", p + 1);
        put_castle(c, s->pl[p].down, s->pl[p].jdown, out);
    }
    sb_puts(out, " holes=");
    for (int i = 0; i < s->nholes; i++) {
        if (i)
            sb_putc(out, ',');
        kotv_format_square(s->holes[i], out);
    }
    if (s->nholes == 0)
        sb_putc(out, '-');
    sb_puts(out, " pending=");
    bool any = false;
    if (s->pend_jester) {
        if (s->pend_jester > 1)
            sb_printf(out, "%d", s->pend_jester);
        sb_puts(out, c->jester_kind >= 0 ? c->kind[c->jester_kind].code : "J");
        any = true;
    }
    if (s->pend_wizard) {
        sb_puts(out, any ? "," : "");
        if (s->pend_wizard > 1)
            sb_printf(out, "%d", s->pend_wizard);
        sb_puts(out, c->char_kind[KCH_WIZARD] >= 0 ? c->kind[c->char_kind[KCH_WIZARD]].code : "Z");
        any = true;
    }
    for (int i = 0; i < s->npend_tax; i++) {
        sb_puts(out, any ? "," : "");
        sb_puts(out, c->kind[s->pend_tax[i]].code);
        any = true;
    }
    if (!any)
        sb_putc(out, '-');
}

/* One "[n]code" item of a list: its count and code (not NUL-terminated). */
typedef struct Item {
    int count;
    const char *code;
    size_t len;
} Item;

/* Splits a ','-separated list ("-" = empty) into items; -1 on a malformed one. */
static int split_items(const char *v, Item *items, int cap)
{
    if (strcmp(v, "-") == 0)
        return 0;
    int n = 0;
    const char *p = v;
    for (;;) {
        const char *end = strchr(p, ',');
        const size_t len = end ? (size_t)(end - p) : strlen(p);
        if (n == cap || len == 0)
            return -1;
        size_t i = 0;
        int count = 0;
        while (i < len && isdigit((unsigned char)p[i]) && count < 1000)
            count = count * 10 + (p[i++] - '0');
        if (i == len || (i > 0 && count < 2))
            return -1;
        items[n].count = i ? count : 1;
        items[n].code = p + i;
        items[n].len = len - i;
        n++;
        if (!end)
            return n;
        p = end + 1;
    }
}

static bool read_number(const char *v, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    if (!isdigit((unsigned char)v[0]))
        return false;
    long x = strtol(v, &end, 10);
    if (errno != 0 || *end != '\0' || x < lo || x > hi)
        return false;
    *out = x;
    return true;
}

/* Splits v at ',' into exactly n fields (written into fields, pointing into buf). */
static bool split_fields(const char *v, char *buf, size_t cap, char **fields, int n)
{
    if (strlen(v) >= cap)
        return false;
    strcpy(buf, v);
    char *p = buf;
    for (int i = 0; i < n; i++) {
        fields[i] = p;
        char *comma = strchr(p, ',');
        if (i + 1 < n) {
            if (!comma)
                return false;
            *comma = '\0';
            p = comma + 1;
        } else if (comma) {
            return false;
        }
    }
    return true;
}

static Status read_castle(const KotvConfig *c, const char *key, const char *v, uint8_t *real,
                          uint8_t *jesters, ErrBuf *err)
{
    Item items[KOTV_MAX_KINDS + KOTV_COLUMNS];
    const int n = split_items(v, items, KOTV_MAX_KINDS + KOTV_COLUMNS);
    if (n < 0)
        return err_set(err, STATUS_PARSE, "%s: a castle is a list like Q,2NA,JF or '-'", key);
    for (int i = 0; i < n; i++) {
        const int code = read_castle_code(c, items[i].code, items[i].len);
        if (code < 0)
            return err_set(err, STATUS_PARSE, "%s: '%.*s' is not a subject of this tile table "
                           "(jesters are JQ JD JC JN JF JW)", key, (int)items[i].len,
                           items[i].code);
        uint8_t *slot = code < KOTV_MAX_KINDS ? &real[code] : &jesters[code - KOTV_MAX_KINDS];
        if (*slot + items[i].count > KOTV_MAX_PER_KIND)
            return err_set(err, STATUS_PARSE, "%s: too many tiles", key);
        *slot = (uint8_t)(*slot + items[i].count);
    }
    return STATUS_OK;
}

enum {
    KEY_PLAYERS,
    KEY_FIRST,
    KEY_TURN,
    KEY_TURNS,
    KEY_PHASE,
    KEY_END,
    KEY_VALLEY,
    KEY_KINGS,
    KEY_HILL,
    KEY_PILE1,
    KEY_PILE2,
    KEY_PILE3,
    KEY_GOLD,
    KEY_CROWNS,
    KEY_TAXED,
    KEY_HOLES,
    KEY_PENDING,
    KEY_UP,                           /* up1..up4 */
    KEY_DOWN = KEY_UP + MAX_PLAYERS,  /* down1..down4 */
    KEY_COUNT = KEY_DOWN + MAX_PLAYERS,
};

static const char *const KEY_NAMES[KEY_UP] = {
    "players", "first", "turn",   "turns", "phase",  "end",   "valley", "kings", "hill",
    "pile1",   "pile2", "pile3",  "gold",  "crowns", "taxed", "holes",  "pending",
};

static int key_index(const char *key, size_t len)
{
    for (int i = 0; i < KEY_UP; i++)
        if (strlen(KEY_NAMES[i]) == len && strncmp(KEY_NAMES[i], key, len) == 0)
            return i;
    if (len == 3 && strncmp(key, "up", 2) == 0 && key[2] >= '1' && key[2] <= '4')
        return KEY_UP + key[2] - '1';
    if (len == 5 && strncmp(key, "down", 4) == 0 && key[4] >= '1' && key[4] <= '4')
        return KEY_DOWN + key[4] - '1';
    return -1;
}

static Status read_valley(const KotvConfig *c, const char *v, KotvState *t, ErrBuf *err)
{
    const char *p = v;
    for (int rank = KOTV_SIZE - 1; rank >= 0; rank--) {
        for (int f = 0; f < KOTV_SIZE; f++) {
            const int sq = rank * KOTV_SIZE + f;
            const char *end = p;
            while (*end && *end != ',' && *end != '/' && *end != '+')
                end++;
            const size_t len = (size_t)(end - p);
            if (len == 1 && *p == '-') {
                t->valley[sq] = 0;
            } else {
                const int k = kotv_find_kind(c, p, len);
                if (k < 0)
                    return err_set(err, STATUS_PARSE, "valley %c%d: '%.*s' is not a tile of this "
                                   "table ('-' for an empty square)", 'a' + f, rank + 1,
                                   (int)(len > 10 ? 10 : len), p);
                t->valley[sq] = (uint8_t)(k + 1);
            }
            p = end;
            if (*p == '+') {
                int coins = 0;
                p++;
                if (!isdigit((unsigned char)*p))
                    return err_set(err, STATUS_PARSE, "valley %c%d: '+' must be followed by the "
                                   "coins lying there", 'a' + f, rank + 1);
                while (isdigit((unsigned char)*p) && coins < 1000)
                    coins = coins * 10 + (*p++ - '0');
                if (coins < 1 || coins > 99)
                    return err_set(err, STATUS_PARSE, "valley %c%d: coins from 1 to 99",
                                   'a' + f, rank + 1);
                t->coins[sq] = (uint8_t)coins;
            }
            const char want = f + 1 < KOTV_SIZE ? ',' : rank > 0 ? '/' : '\0';
            if (*p != want)
                return err_set(err, STATUS_PARSE, "valley: five ranks (5 down to 1) of five "
                               "squares, squares separated by ',' and ranks by '/'");
            if (*p)
                p++;
        }
    }
    return STATUS_OK;
}

static Status read_hill(const KotvConfig *c, const char *v, KotvState *t, ErrBuf *err)
{
    char buf[256];
    char *cols[2];
    if (strlen(v) >= sizeof buf)
        return err_set(err, STATUS_PARSE, "hill: too long");
    strcpy(buf, v);
    char *slash = strchr(buf, '/');
    if (slash == NULL || strchr(slash + 1, '/'))
        return err_set(err, STATUS_PARSE, "hill: the left column, '/', the right column (each "
                       "bottom first, ',' between tiles, '-' if empty)");
    *slash = '\0';
    cols[0] = buf;
    cols[1] = slash + 1;
    for (int h = 0; h < KOTV_HILL_COLS; h++) {
        Item items[KOTV_HILL_ROWS + 1];
        const int n = split_items(cols[h], items, KOTV_HILL_ROWS + 1);
        if (n < 0 || n > KOTV_HILL_ROWS)
            return err_set(err, STATUS_PARSE, "hill: a column holds up to six tiles, listed "
                           "bottom first");
        for (int r = 0; r < n; r++) {
            const int k = items[r].count == 1 ? kotv_find_kind(c, items[r].code, items[r].len) : -1;
            if (k < 0)
                return err_set(err, STATUS_PARSE, "hill %c%d: not a tile of this table",
                               "LR"[h], r + 1);
            t->hill[h][r] = (uint8_t)(k + 1);
        }
        t->hill_n[h] = (uint8_t)n;
    }
    return STATUS_OK;
}

static Status read_pending(const KotvConfig *c, const char *v, KotvState *t, ErrBuf *err)
{
    Item items[8];
    const int n = split_items(v, items, 8);
    if (n < 0)
        return err_set(err, STATUS_PARSE, "pending: a list of tiles waiting (J, Z, T3:5) or '-'");
    for (int i = 0; i < n; i++) {
        const int k = kotv_find_kind(c, items[i].code, items[i].len);
        const int ch = k >= 0 ? c->kind[k].ch : -1;
        if (ch == KCH_JESTER && items[i].count <= 3) {
            t->pend_jester = (uint8_t)(t->pend_jester + items[i].count);
        } else if (ch == KCH_WIZARD && items[i].count <= 3) {
            t->pend_wizard = (uint8_t)(t->pend_wizard + items[i].count);
        } else if (ch == KCH_TAX && c->kind[k].req > 0 &&
                   t->npend_tax + items[i].count <= KOTV_MAX_PEND_TAX) {
            for (int j = 0; j < items[i].count; j++) {
                int at = t->npend_tax++;
                while (at > 0 && t->pend_tax[at - 1] > k) {
                    t->pend_tax[at] = t->pend_tax[at - 1];
                    at--;
                }
                t->pend_tax[at] = (uint8_t)k;
            }
        } else {
            return err_set(err, STATUS_PARSE, "pending: '%.*s' cannot be waiting (jesters, "
                           "wizards, tax collectors with a need; at most three each)",
                           (int)(items[i].len > 10 ? 10 : items[i].len), items[i].code);
        }
    }
    if (t->pend_jester > 3 || t->pend_wizard > 3)
        return err_set(err, STATUS_PARSE, "pending: at most three of each");
    return STATUS_OK;
}

static Status read_field(const KotvConfig *c, int key, const char *name, const char *v,
                         KotvState *t, ErrBuf *err)
{
    const int n = c->players;
    char buf[256];
    char *f[MAX_PLAYERS];
    long x;
    switch (key) {
    case KEY_PLAYERS:
        if (!read_number(v, 2, 4, &x))
            return err_set(err, STATUS_PARSE, "players: 2, 3 or 4");
        if (x != n)
            return err_set(err, STATUS_PARSE, "the position is for %ld players, this game for %d "
                           "(rule players)", x, n);
        t->players = (uint8_t)n;
        return STATUS_OK;
    case KEY_FIRST:
    case KEY_TURN:
        if (!read_number(v, 1, n, &x))
            return err_set(err, STATUS_PARSE, "%s: a player from 1 to %d", name, n);
        *(key == KEY_FIRST ? &t->first : &t->turn) = (uint8_t)(x - 1);
        return STATUS_OK;
    case KEY_TURNS:
        if (!read_number(v, 0, (long)c->max_rounds * n, &x))
            return err_set(err, STATUS_PARSE, "turns: the turns played, from 0 to %d (max-rounds "
                           "times players)", c->max_rounds * n);
        t->turns = (uint16_t)x;
        return STATUS_OK;
    case KEY_PHASE:
        for (int ph = 0; ph < KPH_COUNT; ph++)
            if (strcmp(v, kotv_phase_names[ph]) == 0) {
                t->phase = (uint8_t)ph;
                return STATUS_OK;
            }
        return err_set(err, STATUS_PARSE, "phase: place, recruit, summon, kingdom, refill, draw or "
                       "over");
    case KEY_END:
        if (!read_number(v, 0, 1, &x))
            return err_set(err, STATUS_PARSE, "end: 1 once the end is triggered, else 0");
        t->end_triggered = (uint8_t)x;
        return STATUS_OK;
    case KEY_VALLEY:
        return read_valley(c, v, t, err);
    case KEY_KINGS:
        if (!split_fields(v, buf, sizeof buf, f, n))
            return err_set(err, STATUS_PARSE, "kings: %d squares (or '-'), one per player", n);
        for (int p = 0; p < n; p++) {
            const char *q = f[p];
            int sq = strcmp(q, "-") == 0 ? KOTV_NO_SQUARE : read_square(&q);
            if (sq < 0 || (sq != KOTV_NO_SQUARE && *q))
                return err_set(err, STATUS_PARSE, "kings: '%.10s' is not a square", f[p]);
            t->pl[p].king = (uint8_t)sq;
        }
        return STATUS_OK;
    case KEY_HILL:
        return read_hill(c, v, t, err);
    case KEY_PILE1:
    case KEY_PILE2:
    case KEY_PILE3: {
        Item items[KOTV_MAX_KINDS];
        const int m = split_items(v, items, KOTV_MAX_KINDS);
        if (m < 0)
            return err_set(err, STATUS_PARSE, "%s: a list like Q,2D,T3:5 or '-'", name);
        for (int i = 0; i < m; i++) {
            const int k = kotv_find_kind(c, items[i].code, items[i].len);
            uint8_t *slot = &t->pile[key - KEY_PILE1][k < 0 ? 0 : k];
            if (k < 0 || *slot + items[i].count > KOTV_MAX_PER_KIND)
                return err_set(err, STATUS_PARSE, "%s: '%.*s' is not a tile of this table or is "
                               "listed too often", name,
                               (int)(items[i].len > 10 ? 10 : items[i].len), items[i].code);
            *slot = (uint8_t)(*slot + items[i].count);
        }
        return STATUS_OK;
    }
    case KEY_GOLD:
    case KEY_CROWNS:
        if (!split_fields(v, buf, sizeof buf, f, n))
            return err_set(err, STATUS_PARSE, "%s: %d whole numbers, one per player", name, n);
        for (int p = 0; p < n; p++) {
            if (!read_number(f[p], 0, key == KEY_GOLD ? 9999 : 99, &x))
                return err_set(err, STATUS_PARSE, "%s: '%.10s' is not a whole number in range",
                               name, f[p]);
            if (key == KEY_GOLD)
                t->pl[p].gold = (uint16_t)x;
            else
                t->pl[p].crowns = (uint8_t)x;
        }
        return STATUS_OK;
    case KEY_TAXED:
        if (!split_fields(v, buf, sizeof buf, f, n))
            return err_set(err, STATUS_PARSE, "taxed: %d entries, one per player", n);
        for (int p = 0; p < n; p++) {
            if (strcmp(f[p], "-") == 0)
                continue;
            for (const char *q = f[p]; *q; q++) {
                const int col = isupper((unsigned char)*q) ? column_of_letter(*q) : -1;
                if (col < 0 || ((t->pl[p].taxed >> col) & 1u))
                    return err_set(err, STATUS_PARSE, "taxed: the columns taxed by each player, "
                                   "letters from QDCNFW, or '-'");
                t->pl[p].taxed = (uint8_t)(t->pl[p].taxed | (1u << col));
            }
        }
        return STATUS_OK;
    case KEY_HOLES: {
        if (strcmp(v, "-") == 0)
            return STATUS_OK;
        const char *q = v;
        for (;;) {
            const int sq = read_square(&q);
            if (sq < 0 || t->nholes == KOTV_MAX_HOLES)
                return err_set(err, STATUS_PARSE, "holes: the squares emptied this turn in path "
                               "order, or '-'");
            t->holes[t->nholes++] = (uint8_t)sq;
            if (*q == '\0')
                return STATUS_OK;
            if (*q++ != ',')
                return err_set(err, STATUS_PARSE, "holes: squares separated by ','");
        }
    }
    case KEY_PENDING:
        return read_pending(c, v, t, err);
    default:
        if (key >= KEY_UP && key < KEY_DOWN)
            return read_castle(c, name, v, t->pl[key - KEY_UP].up, t->pl[key - KEY_UP].jup, err);
        return read_castle(c, name, v, t->pl[key - KEY_DOWN].down, t->pl[key - KEY_DOWN].jdown,
                           err);
    }
}

Status kotv_parse_position(const KotvConfig *c, KotvState *out, const char *text, ErrBuf *err)
{
    const size_t len = strlen(text);
    if (len > 8192)
        return err_set(err, STATUS_PARSE, "the position text is too long");
    char *copy = malloc(len + 1);
    KotvState *t = calloc(1, sizeof *t);
    if (copy == NULL || t == NULL) {
        free(copy);
        free(t);
        return err_set(err, STATUS_NOMEM, "out of memory");
    }
    memcpy(copy, text, len + 1);
    for (int p = 0; p < MAX_PLAYERS; p++)
        t->pl[p].king = KOTV_NO_SQUARE;
    t->players = (uint8_t)c->players;
    bool seen[KEY_COUNT] = {false};
    Status st = STATUS_OK;
    char *save = NULL;
    int tokens = 0;
    for (char *tok = strtok_r(copy, " \t\r\n", &save); tok && st == STATUS_OK;
         tok = strtok_r(NULL, " \t\r\n", &save)) {
        tokens++;
        char *eq = strchr(tok, '=');
        const int key = eq ? key_index(tok, (size_t)(eq - tok)) : -1;
        if (key < 0 || ((key >= KEY_UP + c->players && key < KEY_DOWN) ||
                        key >= KEY_DOWN + c->players)) {
            st = err_set(err, STATUS_PARSE, "'%.20s' is not a field of the position (fields are "
                         "name=value: players first turn turns phase end valley kings hill "
                         "pile1-3 gold crowns taxed up1.. down1.. holes pending)", tok);
            break;
        }
        if (seen[key]) {
            st = err_set(err, STATUS_PARSE, "field '%.*s' is given twice", (int)(eq - tok), tok);
            break;
        }
        seen[key] = true;
        *eq = '\0';
        st = read_field(c, key, tok, eq + 1, t, err);
    }
    if (st == STATUS_OK && tokens == 0)
        st = err_set(err, STATUS_PARSE, "empty position text: write name=value fields as "
                     "`crown play` shows them");
    for (int k = 0; k < KEY_COUNT && st == STATUS_OK; k++) {
        const bool needed = k < KEY_UP || (k >= KEY_UP && k < KEY_UP + c->players) ||
                            (k >= KEY_DOWN && k < KEY_DOWN + c->players);
        if (needed && !seen[k]) {
            char name[16];
            if (k < KEY_UP)
                snprintf(name, sizeof name, "%s", KEY_NAMES[k]);
            else if (k < KEY_DOWN)
                snprintf(name, sizeof name, "up%d", k - KEY_UP + 1);
            else
                snprintf(name, sizeof name, "down%d", k - KEY_DOWN + 1);
            st = err_set(err, STATUS_PARSE, "the position lacks the field '%s'", name);
        }
    }
    if (st == STATUS_OK && t->phase == KPH_PLACE) {
        for (int sq = 0; sq < KOTV_CELLS; sq++)
            if (t->valley[sq] == 0)
                st = err_set(err, STATUS_PARSE, "while kings are placed the valley is full");
        if (st == STATUS_OK && (t->nholes || t->pend_jester || t->pend_wizard || t->npend_tax))
            st = err_set(err, STATUS_PARSE, "nothing is pending while kings are placed");
    }
    if (st == STATUS_OK && !kotv_check(c, t, false, err))
        st = STATUS_PARSE;
    if (st == STATUS_OK) {
        kotv_settle(c, t, NULL);
        t->hash = kotv_compute_hash(t);
        if (!kotv_check(c, t, true, err))
            st = STATUS_PARSE;
    }
    if (st == STATUS_OK)
        *out = *t;
    free(copy);
    free(t);
    return st;
}

/* --- drawing ---------------------------------------------------------------------------- */

#define ANSI_RESET "\x1b[0m"
#define ANSI_BOLD "\x1b[1m"
#define ANSI_DIM "\x1b[2m"
#define ANSI_GOLD "\x1b[33m"

static const char *const PLAYER_COLOR[MAX_PLAYERS] = {"\x1b[1;91m", "\x1b[1;94m", "\x1b[1;92m",
                                                      "\x1b[1;95m"};
static const char *const CHAR_NAMES[KCH_COUNT] = {
    "queen", "duke", "countess", "knight", "farmer", "farmer's wife", "jester",
    "priest", "wizard", "tax collector"};

/* Pads the drawing to a column after writing `written` visible characters. */
static void pad(StrBuf *out, int written, int width)
{
    for (int i = written; i < width; i++)
        sb_putc(out, ' ');
}

static void render_castle_column(const KotvConfig *c, const KotvPlayer *p, int col, StrBuf *out)
{
    StrBuf cell;
    sb_init(&cell);
    for (int face = 0; face < 2; face++) {
        const uint8_t *real = face ? p->down : p->up;
        const uint8_t *jest = face ? p->jdown : p->jup;
        if (face)
            sb_puts(&cell, "|");
        bool any = false;
        for (int i = 0; i < c->col_nkinds[col]; i++) {
            const int k = c->col_kind[col][i];
            for (int j = 0; j < real[k]; j++) {
                sb_printf(&cell, "%s%s", any ? " " : "", c->kind[k].code);
                any = true;
            }
        }
        for (int j = 0; j < jest[col]; j++) {
            sb_printf(&cell, "%sJ", any ? " " : "");
            any = true;
        }
    }
    const char *text = sb_str(&cell);
    size_t len = strlen(text);
    if (len > 0 && text[len - 1] == '|')
        len--; // nothing face down
    sb_printf(out, " %c[%.*s]", kotv_column_letters[col], (int)len, text);
    sb_free(&cell);
}

void kotv_render(const KotvConfig *c, const KotvState *s, unsigned flags, StrBuf *out)
{
    const bool color = flags & RENDER_COLOR;
    const int n = s->players;
    sb_printf(out, "%-48s%s\n", "The valley (tile, $coins, @king)", "Hill   left price   right");
    sb_puts(out, "     a       b       c       d       e\n");
    for (int rank = KOTV_SIZE - 1; rank >= 0; rank--) {
        sb_printf(out, " %d ", rank + 1);
        for (int f = 0; f < KOTV_SIZE; f++) {
            const int sq = rank * KOTV_SIZE + f;
            int w = 0;
            sb_putc(out, ' ');
            if (s->valley[sq]) {
                const char *code = c->kind[kotv_kind_at(s->valley[sq])].code;
                sb_puts(out, code);
                w += (int)strlen(code);
            } else {
                if (color)
                    sb_puts(out, ANSI_DIM);
                sb_putc(out, '.');
                if (color)
                    sb_puts(out, ANSI_RESET);
                w++;
            }
            if (s->coins[sq]) {
                if (color)
                    sb_puts(out, ANSI_GOLD);
                sb_printf(out, "$%d", s->coins[sq]);
                if (color)
                    sb_puts(out, ANSI_RESET);
                w += 2;
            }
            for (int p = 0; p < n; p++)
                if (s->pl[p].king == sq) {
                    if (color)
                        sb_puts(out, PLAYER_COLOR[p]);
                    sb_printf(out, "@%d", p + 1);
                    if (color)
                        sb_puts(out, ANSI_RESET);
                    w += 2;
                }
            pad(out, w, 7);
        }
        sb_puts(out, "     ");
        // Valley ranks 5..1 are drawn beside hill rows 6..2; row 1 gets a line of its own.
        const int row = rank + 1;
        {
            const char *l = row < s->hill_n[0] ? c->kind[kotv_kind_at(s->hill[0][row])].code : ".";
            const char *r = row < s->hill_n[1] ? c->kind[kotv_kind_at(s->hill[1][row])].code : ".";
            sb_printf(out, "row %d  %-5s %3d    %s", row + 1, l, c->prices[row], r);
        }
        sb_putc(out, '\n');
    }
    {
        const char *l = 0 < s->hill_n[0] ? c->kind[kotv_kind_at(s->hill[0][0])].code : ".";
        const char *r = 0 < s->hill_n[1] ? c->kind[kotv_kind_at(s->hill[1][0])].code : ".";
        sb_printf(out, "%48srow 1  %-5s %3d    %s\n", "", l, c->prices[0], r);
    }
    int pile_total[KOTV_STAGES] = {0, 0, 0};
    for (int st = 0; st < KOTV_STAGES; st++)
        for (int k = 0; k < c->nkinds; k++)
            pile_total[st] += s->pile[st][k];
    sb_printf(out, "Piles (face down, order unknown): I %d, II %d, III %d tiles.", pile_total[0],
              pile_total[1], pile_total[2]);
    if (c->limited_tokens)
        sb_printf(out, " Kingdom tokens left %d, tax tokens left %d.",
                  c->crown_supply - kotv_crowns_taken(s), c->tax_supply - kotv_tax_taken(s));
    sb_putc(out, '\n');
    for (int p = 0; p < n; p++) {
        const KotvPlayer *pl = &s->pl[p];
        const bool active = s->phase != KPH_OVER && s->phase != KPH_DRAW && p == s->turn;
        if (color)
            sb_puts(out, PLAYER_COLOR[p]);
        sb_printf(out, "%s Player %d%s", active ? ">" : " ", p + 1,
                  p == s->first ? " (starting player)" : "");
        if (color)
            sb_puts(out, ANSI_RESET);
        sb_printf(out, ": gold %d, kingdom tokens %d, reputation %d (influence %d); taxed: ",
                  pl->gold, pl->crowns, kotv_reputation(c, s, p), kotv_influence(c, s, p));
        if (pl->taxed == 0)
            sb_puts(out, "none");
        for (int col = 0; col < KOTV_COLUMNS; col++)
            if ((pl->taxed >> col) & 1u)
                sb_putc(out, kotv_column_letters[col]);
        sb_puts(out, "\n   castle (face up | face down):");
        for (int col = 0; col < KOTV_COLUMNS; col++)
            render_castle_column(c, pl, col, out);
        sb_putc(out, '\n');
    }
    if (s->phase == KPH_OVER) {
        sb_puts(out, "The game is over.\n");
        return;
    }
    const int round = s->phase == KPH_PLACE ? 0 : s->turns / n + 1;
    if (s->phase == KPH_PLACE)
        sb_puts(out, "Set-up: ");
    else
        sb_printf(out, "Round %d%s: ", round, s->end_triggered ? " (the last)" : "");
    if (s->phase == KPH_DRAW) {
        sb_puts(out, "chance draws the hill refill.\n");
        return;
    }
    sb_printf(out, "player %d to act, %s.", s->turn + 1, decision_name(s));
    if (s->pend_jester || s->pend_wizard || s->npend_tax)
        sb_printf(out, " Waiting: %d jester(s), %d wizard swap(s), %d tax collector(s).",
                  s->pend_jester, s->pend_wizard, s->npend_tax);
    sb_putc(out, '\n');
}

void kotv_format_view(const KotvConfig *c, const KotvState *s, int observer, StrBuf *out)
{
    if (observer >= 0)
        sb_printf(out, "View of player %d.", observer + 1);
    else
        sb_puts(out, "View of a spectator.");
    sb_puts(out, " Everything below is public; the order of the face-down piles is known to "
                 "nobody, only how many tiles of each kind they still hold.\n");
    kotv_render(c, s, 0, out);
    for (int st = 0; st < KOTV_STAGES; st++) {
        sb_printf(out, "Pile %s holds: ", st == 0 ? "I" : st == 1 ? "II" : "III");
        put_counted(c, s->pile[st], out);
        sb_putc(out, '\n');
    }
    sb_puts(out, "Tiles:");
    for (int k = 0; k < c->nkinds; k++) {
        const KotvKind *kd = &c->kind[k];
        sb_printf(out, " %s %s", kd->code, CHAR_NAMES[kd->ch]);
        if (kd->ch == KCH_KNIGHT)
            sb_printf(out, " of order %c", 'A' + kd->order);
        // Influence comes from the tile table (tiles=FILE may change it): say it, so that
        // a drawing need not assume the printed values.
        if (kd->ch <= KCH_JESTER)
            sb_printf(out, " (influence %d)", kd->influence);
        if (kd->ch == KCH_TAX && kd->req == 0)
            sb_printf(out, " (%d gold, no need)", kd->gold);
        else if (kd->ch == KCH_TAX)
            sb_printf(out, " (%d gold for %d identical subjects)", kd->gold, kd->req);
        sb_putc(out, k + 1 < c->nkinds ? ',' : '.');
    }
    // The position text holds nothing private either (piles are counts), and a program
    // drawing the view (the web board) reads it rather than the drawing above.
    sb_puts(out, "\nPosition: ");
    kotv_format_position(c, s, out);
    sb_putc(out, '\n');
}
