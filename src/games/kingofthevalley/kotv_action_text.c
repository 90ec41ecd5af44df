/*
 * kotv_action_text.c - King of the Valley actions as text: writing them, reading them
 * back, and saying why a well-formed action is not legal now.
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

static const char HILL_LETTERS[] = "LR";

static void format_castle_code(const KotvConfig *c, int code, StrBuf *out)
{
    if (code < KOTV_MAX_KINDS)
        sb_puts(out, c->kind[code].code);
    else
        sb_printf(out, "J%c", kotv_column_letters[code - KOTV_MAX_KINDS]);
}

/* The castle code of one slot of a column: a kind's code, or J<column>. */
static void put_slot(const KotvConfig *c, int col, int slot, StrBuf *out)
{
    if (slot == KOTV_SLOT_JESTER)
        sb_printf(out, "J%c", kotv_column_letters[col]);
    else
        sb_puts(out, c->kind[c->col_kind[col][slot]].code);
}

/* ":NA,NB,JN", the tiles a tax or kingdom action turns face down, in the columns where
 * the player had a choice (mixed face-up tiles); nothing where every choice is alike. */
static void put_turned(const KotvConfig *c, const KotvPlayer *p, Move m, StrBuf *out)
{
    const char *sep = ":";
    if (kotv_mtype(m) == KMV_TAX) {
        const int col = kotv_marg(m) % KOTV_COLUMNS;
        if (!kotv_column_mixed(c, p, col))
            return;
        for (int slot = 0; slot < KOTV_SLOTS; slot++)
            for (int j = 0; j < kotv_tax_count(m, slot); j++) {
                sb_puts(out, sep);
                put_slot(c, col, slot, out);
                sep = ",";
            }
        return;
    }
    for (int i = 0; i < KOTV_KINGDOM_COLS; i++) {
        const int col = kotv_kingdom_col(m, i) % KOTV_COLUMNS;
        if (kotv_column_mixed(c, p, col)) {
            sb_puts(out, sep);
            put_slot(c, col, kotv_kingdom_slot(m, i), out);
            sep = ",";
        }
    }
}

void kotv_format_move(const KotvConfig *c, const KotvState *s, Move m, StrBuf *out)
{
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
    case KMV_KINGDOM:
        sb_printf(out, "%s %c", kotv_mtype(m) == KMV_TAX ? "tax" : "kingdom",
                  kotv_column_letters[a % KOTV_COLUMNS]);
        put_turned(c, &s->pl[s->turn], m, out);
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

static bool in_list(const Move *list, int n, Move m)
{
    for (int i = 0; i < n; i++)
        if (list[i] == m)
            return true;
    return false;
}

const char *kotv_decision_name(const KotvState *s)
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
    int first_ch = -1, first_kind = -1;
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
        const int kind = kotv_kind_at(s->valley[t]);
        const int ch = c->kind[kind].ch;
        if (mask && ch == KCH_PRIEST)
            return err_set(err, STATUS_ILLEGAL, "%s: a priest can only be summoned by stopping on "
                           "him", text);
        if (first_kind >= 0 && !kotv_alike(c, first_kind, kind))
            return c->identical_tiles
                       ? err_set(err, STATUS_ILLEGAL, "%s: the tiles taken in passing must be the "
                                 "same tile (identical=tile: knights of one order, tax collectors "
                                 "of one need and gold)", text)
                       : err_set(err, STATUS_ILLEGAL, "%s: the tiles taken in passing must show "
                                 "the same character", text);
        first_ch = ch;
        first_kind = kind;
    }
    if (first_ch == KCH_PRIEST)
        return c->priest_pay_first && s->coins[to]
                   ? err_set(err, STATUS_ILLEGAL, "%s: the priest wants one gold and you have none "
                             "(his coins are yours only once he is paid: priest-coins=after)",
                             text)
                   : err_set(err, STATUS_ILLEGAL, "%s: the priest wants one gold and you have none",
                             text);
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
    const int from = kotv_read_square(&p);
    if (from < 0 || *p != '-')
        return err_set(err, STATUS_PARSE, "'%.30s' is not an action: %s", text,
                       kotv_decision_name(s));
    p++;
    const int to = kotv_read_square(&p);
    if (to < 0)
        return err_set(err, STATUS_PARSE, "'%.30s': a summon is written from-to, e.g. c3-e5",
                       text);
    int taken[KOTV_RAY], nt = 0;
    if (*p == ':') {
        do {
            p++;
            if (nt == KOTV_RAY)
                return err_set(err, STATUS_PARSE, "'%.30s': too many tiles listed", text);
            taken[nt] = kotv_read_square(&p);
            if (taken[nt] < 0)
                return err_set(err, STATUS_PARSE, "'%.30s': after ':' list the squares of the "
                               "tiles taken, e.g. a1-d4:b2,c3", text);
            nt++;
        } while (*p == ',');
    }
    if (*p != '\0')
        return err_set(err, STATUS_PARSE, "'%.30s': unexpected text after the summon", text);
    if (s->phase != KPH_SUMMON || s->pend_jester || s->pend_wizard || s->npend_tax)
        return err_set(err, STATUS_ILLEGAL, "not the time for a summon: %s", kotv_decision_name(s));
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
    return err_set(err, STATUS_ILLEGAL, "'%.30s' is not legal now: %s", text,
                   kotv_decision_name(s));
}

/* The tax or kingdom action of column col whose tiles turned face down are those the
 * list names (castle codes, ',' between; NULL when none is given). Columns whose
 * face-up tiles are all alike need not be named; the others must be. */
static Status parse_turn_down(const KotvConfig *c, const KotvState *s, int type, int col,
                              const char *names, const char *text, Move *out, ErrBuf *err)
{
    Move list[KOTV_MAX_MOVES];
    const int n = kotv_gen(c, s, list);
    Move any = MOVE_NONE;
    for (int i = 0; i < n && any == MOVE_NONE; i++)
        if (kotv_mtype(list[i]) == type && kotv_marg(list[i]) == col)
            any = list[i];
    if (any == MOVE_NONE)
        return explain_other(c, s, kotv_simple(type, col), text, err);
    const KotvPlayer *p = &s->pl[s->turn];
    // A legal choice to show in the messages that ask for one.
    char example[64];
    StrBuf sb;
    sb_init(&sb);
    put_turned(c, p, any, &sb);
    snprintf(example, sizeof example, "%s", sb_str(&sb)[0] ? sb_str(&sb) + 1 : "");
    sb_free(&sb);
    // What the list names, per column and slot.
    int named[KOTV_COLUMNS][KOTV_SLOTS];
    int total = 0;
    memset(named, 0, sizeof named);
    for (const char *q = names; q != NULL && *q;) {
        const char *end = strchr(q, ',');
        const size_t len = end ? (size_t)(end - q) : strlen(q);
        const int code = kotv_read_castle_code(c, q, len);
        if (code < 0)
            return err_set(err, STATUS_PARSE, "'%.30s': '%.*s' is not a castle subject (a tile "
                           "code such as NA, or JQ for a jester in the Q column)", text,
                           (int)(len < 8 ? len : 8), q);
        const int ccol = code >= KOTV_MAX_KINDS ? code - KOTV_MAX_KINDS : c->kind_col[code];
        int slot = KOTV_SLOT_JESTER;
        for (int i = 0; i < c->col_nkinds[ccol]; i++)
            if (c->col_kind[ccol][i] == code)
                slot = i;
        named[ccol][slot]++;
        total++;
        if (named[ccol][slot] > kotv_slot_up(c, p, ccol, slot))
            return err_set(err, STATUS_ILLEGAL, "'%.30s': you have only %d face-up %.*s", text,
                           kotv_slot_up(c, p, ccol, slot), (int)(len < 8 ? len : 8), q);
        q = end ? end + 1 : q + len;
    }
    Move m = MOVE_NONE;
    if (type == KMV_TAX) {
        const int req = c->kind[s->pend_tax[0]].req;
        for (int other = 0; other < KOTV_COLUMNS; other++)
            for (int slot = 0; other != col && slot < KOTV_SLOTS; slot++)
                if (named[other][slot])
                    return err_set(err, STATUS_ILLEGAL, "'%.30s': every tile turned face down "
                                   "must come from the taxed column %c", text,
                                   kotv_column_letters[col]);
        if (total == 0 && !kotv_column_mixed(c, p, col))
            m = any;
        else if (total == 0)
            return err_set(err, STATUS_ILLEGAL, "'%.30s': the face-up tiles of column %c differ: "
                           "say which %d go face down, e.g. tax %c:%s", text,
                           kotv_column_letters[col], req, kotv_column_letters[col],
                           example);
        else if (total != req)
            return err_set(err, STATUS_ILLEGAL, "'%.30s': this collector turns exactly %d face-up "
                           "tiles face down, not %d", text, req, total);
        else
            m = kotv_tax(col, named[col]);
    } else {
        int slot[KOTV_KINGDOM_COLS];
        for (int i = 0; i < KOTV_KINGDOM_COLS; i++) {
            const int kcol = i < KOTV_KINGDOM_COLS - 1 ? i : col;
            int count = 0;
            slot[i] = -1;
            for (int sl = 0; sl < KOTV_SLOTS; sl++) {
                count += named[kcol][sl];
                if (named[kcol][sl])
                    slot[i] = sl;
                if (!named[kcol][sl] && !kotv_column_mixed(c, p, kcol) &&
                    kotv_slot_up(c, p, kcol, sl) > 0 && slot[i] < 0)
                    slot[i] = sl;
            }
            if (count > 1)
                return err_set(err, STATUS_ILLEGAL, "'%.30s': a kingdom turns one tile of column "
                               "%c face down, not %d", text, kotv_column_letters[kcol], count);
            if (count == 0 && kotv_column_mixed(c, p, kcol))
                return err_set(err, STATUS_ILLEGAL, "'%.30s': the face-up tiles of column %c "
                               "differ: say which goes face down, e.g. kingdom %c:%s", text,
                               kotv_column_letters[kcol], kotv_column_letters[col],
                               example);
            if (slot[i] < 0)
                return explain_other(c, s, kotv_simple(type, col), text, err);
        }
        for (int other = KCH_FARMER; other <= KCH_WIFE; other++)
            for (int sl = 0; other != col && sl < KOTV_SLOTS; sl++)
                if (named[other][sl])
                    return err_set(err, STATUS_ILLEGAL, "'%.30s': this kingdom is claimed with "
                                   "column %c, not %c", text, kotv_column_letters[col],
                                   kotv_column_letters[other]);
        m = kotv_kingdom(col, slot);
    }
    if (!in_list(list, n, m))
        return explain_other(c, s, m, text, err);
    *out = m;
    return STATUS_OK;
}

Status kotv_parse_move(const KotvConfig *c, const KotvState *s, const char *text, Move *out,
                       ErrBuf *err)
{
    char buf[64];
    size_t len;
    const char *p = text_trim(text, &len);
    if (len == 0)
        return err_set(err, STATUS_PARSE, "empty action: %s", kotv_decision_name(s));
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
        const int sq = kotv_read_square(&q);
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
        const char *colon = strchr(arg, ':');
        const size_t clen = colon ? (size_t)(colon - arg) : strlen(arg);
        col = !two && clen == 1 ? kotv_column_of_letter(arg[0]) : -1;
        if (col < 0 || (colon && word[0] == 'j'))
            return word[0] == 'j'
                       ? err_set(err, STATUS_PARSE,
                                 "'%.30s': %s takes a castle column: Q D C N F W", text, word)
                       : err_set(err, STATUS_PARSE, "'%.30s': %s takes a castle column: Q D C N F "
                                 "W, then optionally ':' and the face-up tiles turned face down, "
                                 "e.g. N:NA,NB,JN", text, word);
        if (word[0] != 'j')
            return parse_turn_down(c, s, word[0] == 't' ? KMV_TAX : KMV_KINGDOM, col,
                                   colon ? colon + 1 : NULL, text, out, err);
        m = kotv_simple(KMV_JESTER, col);
    } else if (strcmp(word, "refill") == 0) {
        const char up = (char)toupper((unsigned char)arg[0]);
        if (two || (up != 'L' && up != 'R') || arg[1] != '\0')
            return err_set(err, STATUS_PARSE, "'%.30s': refill takes a hill column, L or R", text);
        m = kotv_simple(KMV_REFILL, up == 'R');
    } else if (strcmp(word, "swap") == 0) {
        const int code = two ? kotv_read_castle_code(c, arg, strlen(arg)) : -1;
        if (code < 0 || !read_slot(w[2], &h, &r))
            return err_set(err, STATUS_PARSE, "'%.30s': swap takes a castle subject (a tile code, "
                           "or JQ for a jester in the Q column) and a hill slot, e.g. swap NA L4",
                           text);
        m = kotv_swap(code, h, r);
    } else {
        return err_set(err, STATUS_PARSE, "'%.30s' is not an action: %s", text,
                       kotv_decision_name(s));
    }
    Move list[KOTV_MAX_MOVES];
    const int n = kotv_gen(c, s, list);
    if (!in_list(list, n, m))
        return explain_other(c, s, m, text, err);
    *out = m;
    return STATUS_OK;
}
