/*
 * kotv_reference.c - the plain King of the Valley oracle (see kotv_reference.h).
 *
 * Everything is done the slow, literal way: tiles are strings, every candidate action is
 * built by brute force and tried on a copy, and a decision with one option or none is
 * resolved by playing it or moving on, exactly as the docs describe.
 */
#include "kotv_reference.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- the built-in tile table (R-KOTV-1 to R-KOTV-3) ----------------------------------- */

/* Every tile code in canonical order: characters Q D C N F W J P Z T, knights by order,
 * tax collectors by need then gold. Counts per pile I, II, III. */
static const struct {
    const char *code;
    int count[3];
} TABLE[] = {
    {"Q", {1, 1, 1}},    {"D", {2, 2, 2}},     {"C", {3, 3, 3}},    {"NA", {2, 1, 2}},
    {"NB", {2, 1, 2}},   {"NC", {2, 2, 1}},    {"ND", {1, 2, 2}},   {"F", {8, 8, 8}},
    {"W", {4, 4, 4}},    {"J", {0, 1, 2}},     {"P", {1, 1, 1}},    {"Z", {0, 1, 1}},
    {"T0:3", {1, 0, 0}}, {"T0:4", {1, 0, 0}},  {"T3:5", {1, 0, 0}}, {"T3:6", {0, 1, 0}},
    {"T4:7", {0, 1, 0}}, {"T4:8", {0, 1, 0}},  {"T5:9", {0, 0, 1}}, {"T5:10", {0, 0, 1}},
};
enum { NCODES = sizeof TABLE / sizeof TABLE[0] };
static const int PRICES[6] = {2, 3, 4, 6, 8, 10};
static const char COLS[] = "QDCNFW";

static int code_index(const char *code)
{
    for (int i = 0; i < NCODES; i++)
        if (strcmp(TABLE[i].code, code) == 0)
            return i;
    return -1;
}

static bool is_subject(const char *code)
{
    return strchr("QDCNFWJ", code[0]) != NULL && code[0] != '\0';
}

/* The castle column of a real subject; -1 for jesters and specialists. */
static int column_of(const char *code)
{
    if (code[0] == 'J' || !is_subject(code))
        return -1;
    return (int)(strchr(COLS, code[0]) - COLS);
}

static int influence_of(const char *code)
{
    switch (code[0]) {
    case 'Q':
        return 5;
    case 'D':
        return 4;
    case 'C':
        return 3;
    case 'N':
        return 2;
    case 'F':
    case 'W':
        return 1;
    default:
        return 0;
    }
}

static int tax_need(const char *code)
{
    return code[0] == 'T' ? atoi(code + 1) : 0;
}

static int tax_gold(const char *code)
{
    return code[0] == 'T' ? atoi(strchr(code, ':') + 1) : 0;
}

/* The "character" for identical-tile summons: tax collectors are all alike, knights
 * too (unless identical=tile, when the codes must be equal). */
static char character(const char *code)
{
    return code[0];
}

static void sq_name(int sq, char out[4])
{
    out[0] = (char)('a' + sq % 5);
    out[1] = (char)('1' + sq / 5);
    out[2] = '\0';
}

/* --- rules ----------------------------------------------------------------------------- */

bool kref_rules(int players, const char *const *settings, int n, KrefRules *out)
{
    KrefRules r = {players, false, false, false, false, false, false, false, 100};
    for (int i = 0; i < n; i++) {
        const char *s = settings[i];
        if (strncmp(s, "players=", 8) == 0)
            r.players = atoi(s + 8);
        else if (strcmp(s, "hill-refill=i-iii") == 0)
            r.literal_refill = true;
        else if (strcmp(s, "hill-refill=i-ii-iii") == 0)
            r.literal_refill = false;
        else if (strcmp(s, "short-column=allow") == 0)
            r.short_allowed = true;
        else if (strcmp(s, "short-column=forbid") == 0)
            r.short_allowed = false;
        else if (strcmp(s, "jester-couples=on") == 0)
            r.jester_couples = true;
        else if (strcmp(s, "jester-couples=off") == 0)
            r.jester_couples = false;
        else if (strcmp(s, "token-supply=unlimited") == 0)
            r.unlimited = true;
        else if (strcmp(s, "token-supply=limited") == 0)
            r.unlimited = false;
        else if (strcmp(s, "old-holes=first") == 0 || strcmp(s, "old-holes=after") == 0)
            r.old_first = s[10] == 'f';
        else if (strcmp(s, "priest-coins=after") == 0 || strcmp(s, "priest-coins=before") == 0)
            r.pay_first = s[13] == 'a';
        else if (strcmp(s, "identical=tile") == 0 || strcmp(s, "identical=character") == 0)
            r.same_tile = s[10] == 't';
        else if (strncmp(s, "max-rounds=", 11) == 0)
            r.max_rounds = atoi(s + 11);
        else if (strncmp(s, "returns=", 8) == 0 || strncmp(s, "playout=", 8) == 0)
            continue; // not rules of play
        else
            return false;
    }
    *out = r;
    return true;
}

/* --- castle helpers --------------------------------------------------------------------- */

static int face_up_in(const KrefPos *p, int player, int col)
{
    int n = 0;
    for (int i = 0; i < p->ncastle[player]; i++)
        n += p->castle[player][i].up && p->castle[player][i].column == col;
    return n;
}

static int held_of(const KrefPos *p, int player, const char *code)
{
    int n = 0;
    for (int i = 0; i < p->ncastle[player]; i++)
        n += strcmp(p->castle[player][i].code, code) == 0;
    return n;
}

static void castle_add(KrefPos *p, int player, const char *code, int col)
{
    KrefTile *t = &p->castle[player][p->ncastle[player]++];
    snprintf(t->code, sizeof t->code, "%s", code);
    t->column = col;
    t->up = true;
}

static void castle_remove(KrefPos *p, int player, int i)
{
    for (int j = i; j + 1 < p->ncastle[player]; j++)
        p->castle[player][j] = p->castle[player][j + 1];
    p->ncastle[player]--;
}

/* A castle tile's name in actions: its code, or J and its column for a jester. */
static void tile_name(const KrefTile *t, char *out)
{
    if (t->code[0] == 'J')
        snprintf(out, KREF_CODE, "J%c", COLS[t->column]);
    else
        snprintf(out, KREF_CODE, "%s", t->code);
}

/* Turns one face-up tile named `name` (see tile_name) face down; false if none. */
static bool turn_named_down(KrefPos *p, int player, const char *name)
{
    for (int i = 0; i < p->ncastle[player]; i++) {
        KrefTile *t = &p->castle[player][i];
        char n[KREF_CODE];
        tile_name(t, n);
        if (t->up && strcmp(n, name) == 0) {
            t->up = false;
            return true;
        }
    }
    return false;
}

/* The different names of the face-up tiles of a column, real ones in table order, then
 * the jester; their counts in count[]. */
static int face_up_names(const KrefPos *p, int player, int col, char names[][KREF_CODE],
                         int *count)
{
    int n = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int ci = 0; ci <= NCODES; ci++)
            for (int i = 0; i < p->ncastle[player]; i++) {
                const KrefTile *t = &p->castle[player][i];
                const bool jester = t->code[0] == 'J';
                if (!t->up || t->column != col || jester != (pass == 1) ||
                    (!jester && code_index(t->code) != ci) || (jester && ci != NCODES))
                    continue;
                char name[KREF_CODE];
                tile_name(t, name);
                int k = 0;
                while (k < n && strcmp(names[k], name) != 0)
                    k++;
                if (k == n) {
                    memcpy(names[n], name, KREF_CODE);
                    count[n++] = 0;
                }
                count[k]++;
            }
    return n;
}

static int crowns_taken(const KrefPos *p)
{
    int n = 0;
    for (int q = 0; q < p->players; q++)
        n += p->crowns[q];
    return n;
}

static int tax_tokens_taken(const KrefPos *p)
{
    int n = 0;
    for (int q = 0; q < p->players; q++)
        for (int c = 0; c < 6; c++)
            n += p->taxed[q][c];
    return n;
}

static bool king_of_other(const KrefPos *p, int sq)
{
    for (int q = 0; q < p->players; q++)
        if (q != p->turn && p->king[q] == sq)
            return true;
    return false;
}

static int hill_count(const KrefPos *p, int h)
{
    int n = 0;
    while (n < 6 && p->hill[h][n][0])
        n++;
    return n;
}

static bool hill_subject(const KrefPos *p)
{
    for (int h = 0; h < 2; h++)
        for (int r = 0; r < 6; r++)
            if (p->hill[h][r][0] && is_subject(p->hill[h][r]))
                return true;
    return false;
}

static int empties(const KrefPos *p)
{
    int n = 0;
    for (int sq = 0; sq < 25; sq++)
        n += p->valley[sq][0] == '\0';
    return n;
}

/* Whether collectors with these needs can each get their own untaxed column with enough
 * face-up subjects: every assignment of columns is tried. */
static bool taxes_servable(const KrefRules *r, const KrefPos *p, const int *needs, int n)
{
    int real = 0;
    for (int i = 0; i < n; i++)
        real += needs[i] > 0;
    if (real == 0)
        return true;
    if (!r->unlimited && tax_tokens_taken(p) + real > 6)
        return false;
    int total = 1;
    for (int i = 0; i < n; i++)
        total *= 6;
    for (int a = 0; a < total; a++) {
        int cols[3], x = a;
        bool ok = true;
        for (int i = 0; i < n; i++) {
            cols[i] = x % 6;
            x /= 6;
        }
        for (int i = 0; i < n && ok; i++) {
            if (needs[i] == 0)
                continue;
            if (p->taxed[p->turn][cols[i]] || face_up_in(p, p->turn, cols[i]) < needs[i])
                ok = false;
            for (int j = 0; j < i; j++)
                if (needs[j] > 0 && cols[j] == cols[i])
                    ok = false;
        }
        if (ok)
            return true;
    }
    return false;
}

/* --- legal actions -------------------------------------------------------------------- */

static int add(KrefText *out, int n, const char *text)
{
    snprintf(out[n], KREF_TEXT, "%s", text);
    return n + 1;
}

/* Every way of turning `need` face-up tiles of column col down, as tax actions; the
 * tiles are named only when the column's face-up tiles differ. */
static int add_taxes(const KrefPos *p, int me, int col, int need, KrefText *out, int n)
{
    char names[8][KREF_CODE];
    int have[8], take[8] = {0};
    const int nn = face_up_names(p, me, col, names, have);
    // Counting through every vector take[] with take[i] <= have[i], keeping those that
    // add up to need: plain, and small enough (five names at most).
    for (;;) {
        int sum = 0;
        for (int i = 0; i < nn; i++)
            sum += take[i];
        if (sum == need) {
            char t[KREF_TEXT];
            int len = snprintf(t, sizeof t, "tax %c", COLS[col]);
            const char *sep = ":";
            for (int i = 0; nn > 1 && i < nn; i++)
                for (int k = 0; k < take[i]; k++) {
                    len += snprintf(t + len, sizeof t - (size_t)len, "%s%s", sep, names[i]);
                    sep = ",";
                }
            n = add(out, n, t);
        }
        int i = 0;
        while (i < nn && take[i] == have[i])
            take[i++] = 0;
        if (i == nn)
            return n;
        take[i]++;
    }
}

/* Every way of turning one face-up tile of each of Q, D, C, N and column col down, as
 * kingdom actions naming the tiles of the columns whose face-up tiles differ. */
static int add_kingdoms(const KrefPos *p, int me, int col, KrefText *out, int n)
{
    const int cols[5] = {0, 1, 2, 3, col};
    char names[5][8][KREF_CODE];
    int have[8], nn[5], pick[5] = {0};
    for (int i = 0; i < 5; i++)
        nn[i] = face_up_names(p, me, cols[i], names[i], have);
    for (;;) {
        char t[KREF_TEXT];
        int len = snprintf(t, sizeof t, "kingdom %c", COLS[col]);
        const char *sep = ":";
        for (int i = 0; i < 5; i++)
            if (nn[i] > 1) {
                len += snprintf(t + len, sizeof t - (size_t)len, "%s%s", sep, names[i][pick[i]]);
                sep = ",";
            }
        n = add(out, n, t);
        int i = 0;
        while (i < 5 && pick[i] == nn[i] - 1)
            pick[i++] = 0;
        if (i == 5)
            return n;
        pick[i]++;
    }
}

static int legal_summons(const KrefRules *r, const KrefPos *p, KrefText *out)
{
    int n = 0;
    const int from = p->king[p->turn];
    if (from < 0)
        return 0;
    static const int DF[8] = {0, 1, 1, 1, 0, -1, -1, -1}, DR[8] = {1, 1, 0, -1, -1, -1, 0, 1};
    for (int d = 0; d < 8; d++) {
        int path[5], len = 0;
        int f = from % 5 + DF[d], rr = from / 5 + DR[d];
        while (f >= 0 && f < 5 && rr >= 0 && rr < 5) {
            path[len++] = rr * 5 + f;
            f += DF[d];
            rr += DR[d];
        }
        char a[4], b[4];
        sq_name(from, a);
        // Stop at path[end]; take either the tile there (no subset), or a subset of the
        // squares before it whose last member is path[end - 1].
        for (int end = 0; end < len; end++) {
            sq_name(path[end], b);
            const int to = path[end];
            // Option A.
            if (p->valley[to][0] && !king_of_other(p, to)) {
                const char *code = p->valley[to];
                bool ok;
                if (code[0] == 'P') {
                    ok = p->gold[p->turn] + (r->pay_first ? 0 : p->coins[to]) >= 1 &&
                         p->nholes <= 4;
                } else if (code[0] == 'Z') {
                    int up = 0;
                    for (int c = 0; c < 6; c++)
                        up += face_up_in(p, p->turn, c);
                    ok = up > 0 && hill_subject(p);
                } else if (code[0] == 'T') {
                    int need = tax_need(code);
                    ok = taxes_servable(r, p, &need, 1);
                } else {
                    ok = true;
                }
                if (ok) {
                    char t[KREF_TEXT];
                    snprintf(t, sizeof t, "%s-%s", a, b);
                    n = add(out, n, t);
                }
            }
            // Option B: every subset of path[0..end) of size 2 or 3 containing path[end-1].
            for (int mask = 0; mask < (1 << end); mask++) {
                const int size = __builtin_popcount((unsigned)mask);
                if (size < 2 || size > 3 || !((mask >> (end - 1)) & 1))
                    continue;
                const char *first = NULL;
                bool ok = true;
                int needs[3], nn = 0, wizards = 0;
                for (int i = 0; i < end && ok; i++) {
                    if (!((mask >> i) & 1))
                        continue;
                    const int sq = path[i];
                    const char *code = p->valley[sq];
                    if (!code[0] || king_of_other(p, sq) || code[0] == 'P')
                        ok = false;
                    else if (first && (r->same_tile ? strcmp(code, first) != 0
                                                    : character(code) != character(first)))
                        ok = false;
                    else {
                        first = code;
                        if (code[0] == 'T')
                            needs[nn++] = tax_need(code);
                        if (code[0] == 'Z')
                            wizards++;
                    }
                }
                if (ok && wizards) {
                    int up = 0;
                    for (int c = 0; c < 6; c++)
                        up += face_up_in(p, p->turn, c);
                    ok = up > 0 && hill_subject(p);
                }
                if (ok && nn)
                    ok = taxes_servable(r, p, needs, nn);
                if (!ok)
                    continue;
                char t[KREF_TEXT];
                int len_t = snprintf(t, sizeof t, "%s-%s", a, b);
                const char *sep = ":";
                for (int i = 0; i < end; i++)
                    if ((mask >> i) & 1) {
                        char c[4];
                        sq_name(path[i], c);
                        len_t += snprintf(t + len_t, sizeof t - (size_t)len_t, "%s%s", sep, c);
                        sep = ",";
                    }
                n = add(out, n, t);
            }
        }
    }
    return n;
}

int kref_to_move(const KrefPos *p)
{
    if (strcmp(p->phase, "over") == 0)
        return -2;
    if (strcmp(p->phase, "draw") == 0)
        return -1;
    return p->turn;
}

int kref_legal(const KrefRules *r, const KrefPos *p, KrefText *out)
{
    int n = 0;
    char t[KREF_TEXT];
    const int me = p->turn;
    if (kref_to_move(p) < 0)
        return 0;
    if (p->pend_jester > 0) {
        for (int c = 0; c < 6; c++) {
            snprintf(t, sizeof t, "jester %c", COLS[c]);
            n = add(out, n, t);
        }
        return n;
    }
    if (p->pend_wizard > 0) {
        for (int i = 0; i < p->ncastle[me]; i++) {
            const KrefTile *tile = &p->castle[me][i];
            if (!tile->up)
                continue;
            char code[KREF_CODE];
            if (tile->code[0] == 'J')
                snprintf(code, sizeof code, "J%c", COLS[tile->column]);
            else
                snprintf(code, sizeof code, "%s", tile->code);
            for (int h = 0; h < 2; h++)
                for (int row = 0; row < 6; row++) {
                    if (!p->hill[h][row][0] || !is_subject(p->hill[h][row]))
                        continue;
                    snprintf(t, sizeof t, "swap %.7s %c%c", code, "LR"[h], (char)('1' + row));
                    bool dup = false;
                    for (int k = 0; k < n; k++)
                        dup |= strcmp(out[k], t) == 0;
                    if (!dup)
                        n = add(out, n, t);
                }
        }
        return n;
    }
    if (p->npend_tax > 0) {
        for (int c = 0; c < 6; c++) {
            if (p->taxed[me][c] || face_up_in(p, me, c) < tax_need(p->pend_tax[0]))
                continue;
            // The other collectors must still find columns once c is taxed.
            KrefPos q = *p;
            q.taxed[me][c] = true;
            int needs[3], nn = 0;
            for (int i = 1; i < p->npend_tax; i++)
                needs[nn++] = tax_need(p->pend_tax[i]);
            KrefRules unlimited = *r;
            unlimited.unlimited = true; // tokens were counted when the summon was checked
            if (nn == 0 || taxes_servable(&unlimited, &q, needs, nn))
                n = add_taxes(p, me, c, tax_need(p->pend_tax[0]), out, n);
        }
        return n;
    }
    if (strcmp(p->phase, "place") == 0) {
        for (int sq = 0; sq < 25; sq++)
            if (p->valley[sq][0] && !king_of_other(p, sq)) {
                char s[4];
                sq_name(sq, s);
                snprintf(t, sizeof t, "place %s", s);
                n = add(out, n, t);
            }
        return n;
    }
    if (strcmp(p->phase, "recruit") == 0) {
        if (p->turns < p->players)
            return 0;
        for (int h = 0; h < 2; h++)
            for (int row = 0; row < 6; row++)
                if (p->hill[h][row][0] && is_subject(p->hill[h][row]) &&
                    PRICES[row] <= p->gold[me]) {
                    snprintf(t, sizeof t, "recruit %c%d", "LR"[h], row + 1);
                    n = add(out, n, t);
                }
        if (n > 0)
            n = add(out, n, "pass");
        return n;
    }
    if (strcmp(p->phase, "summon") == 0)
        return legal_summons(r, p, out);
    if (strcmp(p->phase, "kingdom") == 0) {
        if (!r->unlimited && crowns_taken(p) >= 6)
            return 0;
        for (int c = 0; c < 4; c++)
            if (face_up_in(p, me, c) == 0)
                return 0;
        for (int c = 4; c < 6; c++)
            if (face_up_in(p, me, c) > 0)
                n = add_kingdoms(p, me, c, out, n);
        if (n > 0)
            n = add(out, n, "pass");
        return n;
    }
    if (strcmp(p->phase, "refill") == 0) {
        const int holes = empties(p);
        if (holes == 0)
            return 0;
        const bool some_enough = hill_count(p, 0) >= holes || hill_count(p, 1) >= holes;
        for (int h = 0; h < 2; h++) {
            const int c = hill_count(p, h);
            if (c == 0)
                continue;
            if (!r->short_allowed && some_enough && c < holes)
                continue;
            snprintf(t, sizeof t, "refill %c", "LR"[h]);
            n = add(out, n, t);
        }
        return n;
    }
    return 0;
}

/* The pile chance draws from: I, II, III in turn (I then III with hill-refill=i-iii). */
static int draw_pile(const KrefRules *r, const KrefPos *p)
{
    for (int s = 0; s < 3; s++) {
        if (r->literal_refill && s == 1)
            continue;
        for (int i = 0; i < NCODES; i++)
            if (p->pile[s][i] > 0)
                return s;
    }
    return -1;
}

int kref_chance(const KrefRules *r, const KrefPos *p, KrefText *out, double *prob)
{
    if (strcmp(p->phase, "draw") != 0)
        return 0;
    const int s = draw_pile(r, p);
    if (s < 0)
        return 0;
    int total = 0, n = 0;
    for (int i = 0; i < NCODES; i++)
        total += p->pile[s][i];
    for (int i = 0; i < NCODES; i++)
        if (p->pile[s][i] > 0) {
            snprintf(out[n], KREF_TEXT, "draw %s", TABLE[i].code);
            if (prob)
                prob[n] = (double)p->pile[s][i] / total;
            n++;
        }
    return n;
}

/* --- playing ---------------------------------------------------------------------------- */

static void hill_take(KrefPos *p, int h, int row, char out[KREF_CODE])
{
    char code[KREF_CODE];
    memcpy(code, p->hill[h][row], KREF_CODE);
    memcpy(out, code, KREF_CODE);
    for (int i = row; i < 5; i++)
        memcpy(p->hill[h][i], p->hill[h][i + 1], KREF_CODE);
    p->hill[h][5][0] = '\0';
}

/* A subject goes into the castle (a jester waits for its column). */
static void receive(KrefPos *p, const char *code)
{
    if (code[0] == 'J')
        p->pend_jester++;
    else
        castle_add(p, p->turn, code, column_of(code));
}

static void take_tile(KrefPos *p, int sq)
{
    char code[KREF_CODE];
    snprintf(code, sizeof code, "%s", p->valley[sq]);
    p->gold[p->turn] += p->coins[sq];
    p->coins[sq] = 0;
    p->valley[sq][0] = '\0';
    p->holes[p->nholes++] = sq;
    if (is_subject(code)) {
        receive(p, code);
    } else if (code[0] == 'Z') {
        p->pend_wizard++;
    } else if (code[0] == 'T') {
        if (tax_need(code) == 0) {
            p->gold[p->turn] += tax_gold(code);
        } else {
            // Waiting collectors are kept in table order.
            int i = p->npend_tax++;
            while (i > 0 && code_index(p->pend_tax[i - 1]) > code_index(code)) {
                memcpy(p->pend_tax[i], p->pend_tax[i - 1], KREF_CODE);
                i--;
            }
            snprintf(p->pend_tax[i], KREF_CODE, "%s", code);
        }
    }
}

static int read_sq(const char *s)
{
    return (s[1] - '1') * 5 + (s[0] - 'a');
}

static void end_turn(const KrefRules *r, KrefPos *p)
{
    p->turns++;
    p->nholes = 0;
    p->turn = (p->turn + 1) % p->players;
    if ((p->end && p->turn == p->first) || p->turns >= r->max_rounds * p->players)
        snprintf(p->phase, sizeof p->phase, "over");
    else
        snprintf(p->phase, sizeof p->phase, "recruit");
}

/* "N:NA,JN" of a tax or "F:NB" of a kingdom: turns the tiles named down, then, in each
 * column the action concerns and no name did, `per_column` face-up tiles (they are all
 * alike there). */
static void turn_listed_down(KrefPos *p, int me, const char *arg, int per_column)
{
    const bool kingdom = per_column == 1;
    bool named[6] = {false};
    const char *colon = strchr(arg, ':');
    for (const char *q = colon ? colon + 1 : ""; *q;) {
        char name[KREF_CODE];
        const size_t len = strcspn(q, ",");
        snprintf(name, sizeof name, "%.*s", (int)len, q);
        turn_named_down(p, me, name);
        named[name[0] == 'J' ? strchr(COLS, name[1]) - COLS : column_of(name)] = true;
        q += len + (q[len] == ',');
    }
    for (int c = 0; c < 6; c++) {
        const bool concerned = kingdom ? c < 4 || COLS[c] == arg[0] : COLS[c] == arg[0];
        for (int k = 0; concerned && !named[c] && k < per_column; k++)
            for (int i = 0; i < p->ncastle[me]; i++)
                if (p->castle[me][i].up && p->castle[me][i].column == c) {
                    p->castle[me][i].up = false;
                    break;
                }
    }
}

static void apply(const KrefRules *r, KrefPos *p, const char *text)
{
    const int me = p->turn;
    char word[KREF_TEXT], a1[KREF_TEXT] = "", a2[KREF_TEXT] = "";
    sscanf(text, "%47s %47s %47s", word, a1, a2);
    if (strcmp(word, "place") == 0) {
        p->king[me] = read_sq(a1);
        p->turn = (me + 1) % p->players;
        if (p->turn == p->first) {
            snprintf(p->phase, sizeof p->phase, "recruit");
            p->turns = 0;
        }
    } else if (strcmp(word, "pass") == 0) {
        snprintf(p->phase, sizeof p->phase, strcmp(p->phase, "recruit") == 0 ? "summon" : "refill");
    } else if (strcmp(word, "recruit") == 0) {
        const int h = a1[0] == 'R', row = a1[1] - '1';
        char code[KREF_CODE];
        p->gold[me] -= PRICES[row];
        hill_take(p, h, row, code);
        receive(p, code);
        snprintf(p->phase, sizeof p->phase, "summon");
    } else if (strcmp(word, "jester") == 0) {
        castle_add(p, me, "J", (int)(strchr(COLS, a1[0]) - COLS));
        p->pend_jester--;
    } else if (strcmp(word, "swap") == 0) {
        const int h = a2[0] == 'R', row = a2[1] - '1';
        char incoming[KREF_CODE];
        snprintf(incoming, sizeof incoming, "%s", p->hill[h][row]);
        int idx = -1;
        for (int i = 0; i < p->ncastle[me] && idx < 0; i++) {
            const KrefTile *t = &p->castle[me][i];
            if (!t->up)
                continue;
            if ((a1[0] == 'J' && a1[1] != '\0' && t->code[0] == 'J' &&
                 COLS[t->column] == a1[1]) ||
                (a1[0] != 'J' && strcmp(t->code, a1) == 0))
                idx = i;
        }
        char outgoing[KREF_CODE];
        memcpy(outgoing, p->castle[me][idx].code, KREF_CODE);
        memcpy(p->hill[h][row], outgoing, KREF_CODE);
        castle_remove(p, me, idx);
        receive(p, incoming);
        p->pend_wizard--;
    } else if (strcmp(word, "tax") == 0) {
        const int col = (int)(strchr(COLS, a1[0]) - COLS);
        turn_listed_down(p, me, a1, tax_need(p->pend_tax[0]));
        p->gold[me] += tax_gold(p->pend_tax[0]);
        p->taxed[me][col] = true;
        for (int i = 1; i < p->npend_tax; i++)
            memcpy(p->pend_tax[i - 1], p->pend_tax[i], KREF_CODE);
        p->npend_tax--;
    } else if (strcmp(word, "kingdom") == 0) {
        turn_listed_down(p, me, a1, 1);
        p->gold[me] += 5;
        p->crowns[me]++;
        snprintf(p->phase, sizeof p->phase, "refill");
    } else if (strcmp(word, "refill") == 0) {
        const int h = a1[0] == 'R';
        // This turn's holes in path order; older empty squares a1..e5, after them or
        // (old-holes=first) before them.
        int order[25], n = 0;
        for (int i = 0; !r->old_first && i < p->nholes; i++)
            order[n++] = p->holes[i];
        for (int sq = 0; sq < 25; sq++) {
            bool listed = false;
            for (int i = 0; i < p->nholes; i++)
                listed |= p->holes[i] == sq;
            if (!p->valley[sq][0] && !listed)
                order[n++] = sq;
        }
        for (int i = 0; r->old_first && i < p->nholes; i++)
            order[n++] = p->holes[i];
        for (int i = 0; i < n && hill_count(p, h) > 0; i++)
            hill_take(p, h, 0, p->valley[order[i]]);
        p->nholes = 0;
        snprintf(p->phase, sizeof p->phase, "draw");
    } else if (strcmp(word, "draw") == 0) {
        const int s = draw_pile(r, p);
        p->pile[s][code_index(a1)]--;
        const int h = hill_count(p, 0) < 6 ? 0 : 1;
        snprintf(p->hill[h][hill_count(p, h)], KREF_CODE, "%.7s", a1);
    } else {
        // A summon leg: "a1-c3" or "a1-d4:b2,c3".
        const int to = read_sq(word + 3);
        if (word[5] == ':') {
            for (const char *q = word + 6;; q += 3) {
                take_tile(p, read_sq(q));
                if (q[2] != ',')
                    break;
            }
            p->king[me] = to;
            snprintf(p->phase, sizeof p->phase, "kingdom");
        } else if (p->valley[to][0] == 'P') {
            // The priest: his coins to the player, one gold back onto his square; a new
            // leg starts there.
            p->gold[me] += p->coins[to] - 1;
            p->coins[to] = 1;
            p->valley[to][0] = '\0';
            p->holes[p->nholes++] = to;
            p->king[me] = to;
        } else {
            take_tile(p, to);
            p->king[me] = to;
            snprintf(p->phase, sizeof p->phase, "kingdom");
        }
    }
}

/* Plays every step without a choice. */
static void settle(const KrefRules *r, KrefPos *p)
{
    KrefText *list = malloc(sizeof *list * KREF_MAX_ACTIONS);
    for (;;) {
        if (strcmp(p->phase, "over") == 0)
            break;
        if (strcmp(p->phase, "draw") == 0) {
            if (hill_count(p, 0) == 6 && hill_count(p, 1) == 6) {
                end_turn(r, p);
                continue;
            }
            const int n = kref_chance(r, p, list, NULL);
            if (n == 0) {
                p->end = 1;
                end_turn(r, p);
                continue;
            }
            if (n == 1) {
                apply(r, p, list[0]);
                continue;
            }
            break;
        }
        const int n = kref_legal(r, p, list);
        if (n == 1) {
            apply(r, p, list[0]);
            continue;
        }
        if (n > 1)
            break;
        if (strcmp(p->phase, "recruit") == 0)
            snprintf(p->phase, sizeof p->phase, "summon");
        else if (strcmp(p->phase, "summon") == 0)
            snprintf(p->phase, sizeof p->phase, "kingdom");
        else if (strcmp(p->phase, "kingdom") == 0)
            snprintf(p->phase, sizeof p->phase, "refill");
        else
            snprintf(p->phase, sizeof p->phase, "draw");
    }
    free(list);
}

void kref_play(const KrefRules *r, KrefPos *p, const char *text)
{
    apply(r, p, text);
    settle(r, p);
}

uint64_t kref_perft(const KrefRules *r, const KrefPos *p, int depth)
{
    if (depth <= 0)
        return 1;
    KrefText *list = malloc(sizeof *list * KREF_MAX_ACTIONS);
    int n = kref_to_move(p) == -1 ? kref_chance(r, p, list, NULL) : kref_legal(r, p, list);
    uint64_t total = 0;
    if (depth == 1) {
        total = (uint64_t)n;
    } else {
        KrefPos *q = malloc(sizeof *q);
        for (int i = 0; i < n; i++) {
            *q = *p;
            kref_play(r, q, list[i]);
            total += kref_perft(r, q, depth - 1);
        }
        free(q);
    }
    free(list);
    return total;
}

/* --- scoring ----------------------------------------------------------------------------- */

int kref_influence(const KrefPos *p, int player)
{
    int n = 0;
    for (int i = 0; i < p->ncastle[player]; i++)
        n += influence_of(p->castle[player][i].code);
    return n;
}

int kref_reputation(const KrefRules *r, const KrefPos *p, int player)
{
    int score = kref_influence(p, player) + 5 * p->crowns[player] + p->gold[player];
    for (char order = 'A'; order <= 'D'; order++) {
        char code[3] = {'N', order, '\0'};
        const int k = held_of(p, player, code);
        score += k >= 5 ? 8 : k == 4 ? 5 : k == 3 ? 3 : 0;
    }
    int farmers = 0, wives = 0;
    for (int i = 0; i < p->ncastle[player]; i++) {
        const KrefTile *t = &p->castle[player][i];
        const bool counts = t->code[0] != 'J' || r->jester_couples;
        if (counts && t->column == 4)
            farmers++;
        if (counts && t->column == 5)
            wives++;
    }
    return score + 2 * (farmers < wives ? farmers : wives);
}

/* --- the position text -------------------------------------------------------------------- */

static const char *const FIELDS[] = {"players", "first", "turn",  "turns", "phase", "end",
                                     "valley",  "kings", "hill",  "pile1", "pile2", "pile3",
                                     "gold",    "crowns", "taxed", "holes", "pending"};

/* Appends a string to out (cap bytes) at *len. */
static void cat(char *out, size_t cap, size_t *len, const char *s)
{
    if (*len < cap)
        *len += (size_t)snprintf(out + *len, cap - *len, "%s", s);
}

static void cat_int(char *out, size_t cap, size_t *len, int v)
{
    if (*len < cap)
        *len += (size_t)snprintf(out + *len, cap - *len, "%d", v);
}

/* One "[n]code" item of a list, after a comma unless it is the first (*any false). */
static void cat_item(char *out, size_t cap, size_t *len, int n, const char *code, bool *any)
{
    cat(out, cap, len, *any ? "," : "");
    if (n > 1)
        cat_int(out, cap, len, n);
    cat(out, cap, len, code);
    *any = true;
}

/* "[n]code" items for counts by code index, after any items before them (*any). */
static void cat_code_items(char *out, size_t cap, size_t *len, const int *counts, bool *any)
{
    for (int i = 0; i < NCODES; i++)
        if (counts[i])
            cat_item(out, cap, len, counts[i], TABLE[i].code, any);
}

/* "[n]code" items for counts by code index, or '-'. */
static void cat_counts(char *out, size_t cap, size_t *len, const int *counts)
{
    bool any = false;
    cat_code_items(out, cap, len, counts, &any);
    if (!any)
        cat(out, cap, len, "-");
}

static void cat_castle(char *out, size_t cap, size_t *len, const KrefPos *p, int player, bool up)
{
    int counts[NCODES] = {0}, jesters[6] = {0};
    for (int i = 0; i < p->ncastle[player]; i++) {
        const KrefTile *t = &p->castle[player][i];
        if (t->up != up)
            continue;
        if (t->code[0] == 'J')
            jesters[t->column]++;
        else
            counts[code_index(t->code)]++;
    }
    bool any = false;
    cat_code_items(out, cap, len, counts, &any);
    for (int c = 0; c < 6; c++) {
        const char j[3] = {'J', COLS[c], '\0'};
        if (jesters[c])
            cat_item(out, cap, len, jesters[c], j, &any);
    }
    if (!any)
        cat(out, cap, len, "-");
}

void kref_format_position(const KrefRules *r, const KrefPos *p, char *out, size_t cap)
{
    (void)r;
    size_t len = 0;
    out[0] = '\0';
    { cat(out, cap, &len, "players="); cat_int(out, cap, &len, p->players); }
    { cat(out, cap, &len, " first="); cat_int(out, cap, &len, p->first + 1); }
    { cat(out, cap, &len, " turn="); cat_int(out, cap, &len, p->turn + 1); }
    { cat(out, cap, &len, " turns="); cat_int(out, cap, &len, p->turns); }
    { cat(out, cap, &len, " phase="); cat(out, cap, &len, p->phase); }
    { cat(out, cap, &len, " end="); cat_int(out, cap, &len, p->end); }
    cat(out, cap, &len, " valley=");
    for (int rank = 4; rank >= 0; rank--)
        for (int f = 0; f < 5; f++) {
            const int sq = rank * 5 + f;
            cat(out, cap, &len, p->valley[sq][0] ? p->valley[sq] : "-");
            if (p->coins[sq])
                { cat(out, cap, &len, "+"); cat_int(out, cap, &len, p->coins[sq]); }
            if (f < 4)
                cat(out, cap, &len, ",");
            else if (rank > 0)
                cat(out, cap, &len, "/");
        }
    cat(out, cap, &len, " kings=");
    for (int q = 0; q < p->players; q++) {
        char s[4] = "-";
        if (p->king[q] >= 0)
            sq_name(p->king[q], s);
        { cat(out, cap, &len, q ? "," : ""); cat(out, cap, &len, s); }
    }
    cat(out, cap, &len, " hill=");
    for (int h = 0; h < 2; h++) {
        if (h)
            cat(out, cap, &len, "/");
        for (int row = 0; row < hill_count(p, h); row++)
            { cat(out, cap, &len, row ? "," : ""); cat(out, cap, &len, p->hill[h][row]); }
        if (hill_count(p, h) == 0)
            cat(out, cap, &len, "-");
    }
    for (int s = 0; s < 3; s++) {
        { cat(out, cap, &len, " pile"); cat_int(out, cap, &len, s + 1); cat(out, cap, &len, "="); }
        cat_counts(out, cap, &len, p->pile[s]);
    }
    cat(out, cap, &len, " gold=");
    for (int q = 0; q < p->players; q++)
        { cat(out, cap, &len, q ? "," : ""); cat_int(out, cap, &len, p->gold[q]); }
    cat(out, cap, &len, " crowns=");
    for (int q = 0; q < p->players; q++)
        { cat(out, cap, &len, q ? "," : ""); cat_int(out, cap, &len, p->crowns[q]); }
    cat(out, cap, &len, " taxed=");
    for (int q = 0; q < p->players; q++) {
        if (q)
            cat(out, cap, &len, ",");
        bool any = false;
        for (int c = 0; c < 6; c++)
            if (p->taxed[q][c]) {
                char s[2] = {COLS[c], '\0'};
                cat(out, cap, &len, s);
                any = true;
            }
        if (!any)
            cat(out, cap, &len, "-");
    }
    for (int q = 0; q < p->players; q++) {
        { cat(out, cap, &len, " up"); cat_int(out, cap, &len, q + 1); cat(out, cap, &len, "="); }
        cat_castle(out, cap, &len, p, q, true);
        { cat(out, cap, &len, " down"); cat_int(out, cap, &len, q + 1); cat(out, cap, &len, "="); }
        cat_castle(out, cap, &len, p, q, false);
    }
    cat(out, cap, &len, " holes=");
    for (int i = 0; i < p->nholes; i++) {
        char s[4];
        sq_name(p->holes[i], s);
        { cat(out, cap, &len, i ? "," : ""); cat(out, cap, &len, s); }
    }
    if (p->nholes == 0)
        cat(out, cap, &len, "-");
    cat(out, cap, &len, " pending=");
    bool any = false;
    if (p->pend_jester) {
        if (p->pend_jester > 1)
            cat_int(out, cap, &len, p->pend_jester);
        cat(out, cap, &len, "J");
        any = true;
    }
    if (p->pend_wizard) {
        cat(out, cap, &len, any ? "," : "");
        if (p->pend_wizard > 1)
            cat_int(out, cap, &len, p->pend_wizard);
        cat(out, cap, &len, "Z");
        any = true;
    }
    for (int i = 0; i < p->npend_tax; i++) {
        cat(out, cap, &len, any ? "," : "");
        cat(out, cap, &len, p->pend_tax[i]);
        any = true;
    }
    if (!any)
        cat(out, cap, &len, "-");
}

/* Reads "[n]code" items of a list into counts by code index; false on a bad item. */
static bool read_counts(const char *v, int *counts)
{
    if (strcmp(v, "-") == 0)
        return true;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", v);
    char *save = NULL;
    for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        int n = 1;
        if (isdigit((unsigned char)*item)) {
            n = (int)strtol(item, &item, 10);
        }
        const int i = code_index(item);
        if (i < 0)
            return false;
        counts[i] += n;
    }
    return true;
}

bool kref_parse_position(const KrefRules *r, const char *text, KrefPos *out, char *err,
                         size_t err_len)
{
    KrefPos p;
    memset(&p, 0, sizeof p);
    for (int q = 0; q < 4; q++)
        p.king[q] = -1;
    p.players = r->players;
    char *copy = strdup(text);
    char *save = NULL;
    bool ok = true;
    for (char *tok = strtok_r(copy, " ", &save); tok && ok; tok = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq) {
            ok = false;
            break;
        }
        *eq = '\0';
        const char *k = tok, *v = eq + 1;
        char buf[512];
        snprintf(buf, sizeof buf, "%s", v);
        if (strcmp(k, "players") == 0) {
            ok = atoi(v) == r->players;
        } else if (strcmp(k, "first") == 0) {
            p.first = atoi(v) - 1;
        } else if (strcmp(k, "turn") == 0) {
            p.turn = atoi(v) - 1;
        } else if (strcmp(k, "turns") == 0) {
            p.turns = atoi(v);
        } else if (strcmp(k, "phase") == 0) {
            snprintf(p.phase, sizeof p.phase, "%s", v);
        } else if (strcmp(k, "end") == 0) {
            p.end = atoi(v);
        } else if (strcmp(k, "valley") == 0) {
            // Ranks 5 to 1, squares a to e.
            int sq_i = 0;
            char *s2 = NULL;
            for (char *cell = strtok_r(buf, ",/", &s2); cell && sq_i < 25;
                 cell = strtok_r(NULL, ",/", &s2), sq_i++) {
                const int sq = (4 - sq_i / 5) * 5 + sq_i % 5;
                char *plus = strchr(cell, '+');
                if (plus) {
                    p.coins[sq] = atoi(plus + 1);
                    *plus = '\0';
                }
                if (strcmp(cell, "-") != 0)
                    snprintf(p.valley[sq], KREF_CODE, "%s", cell);
            }
            ok = sq_i == 25;
        } else if (strcmp(k, "kings") == 0) {
            char *s2 = NULL;
            int q = 0;
            for (char *x = strtok_r(buf, ",", &s2); x && q < 4; x = strtok_r(NULL, ",", &s2), q++)
                p.king[q] = strcmp(x, "-") == 0 ? -1 : read_sq(x);
        } else if (strcmp(k, "hill") == 0) {
            char *slash = strchr(buf, '/');
            if (!slash) {
                ok = false;
                break;
            }
            *slash = '\0';
            char *cols[2] = {buf, slash + 1};
            for (int h = 0; h < 2; h++) {
                if (strcmp(cols[h], "-") == 0)
                    continue;
                char *s2 = NULL;
                int row = 0;
                for (char *x = strtok_r(cols[h], ",", &s2); x && row < 6;
                     x = strtok_r(NULL, ",", &s2), row++)
                    snprintf(p.hill[h][row], KREF_CODE, "%s", x);
            }
        } else if (strncmp(k, "pile", 4) == 0) {
            ok = read_counts(v, p.pile[k[4] - '1']);
        } else if (strcmp(k, "gold") == 0 || strcmp(k, "crowns") == 0) {
            char *s2 = NULL;
            int q = 0;
            for (char *x = strtok_r(buf, ",", &s2); x && q < 4; x = strtok_r(NULL, ",", &s2), q++)
                (k[0] == 'g' ? p.gold : p.crowns)[q] = atoi(x);
        } else if (strcmp(k, "taxed") == 0) {
            char *s2 = NULL;
            int q = 0;
            for (char *x = strtok_r(buf, ",", &s2); x && q < 4; x = strtok_r(NULL, ",", &s2), q++)
                for (char *c = x; *c && *c != '-'; c++)
                    p.taxed[q][strchr(COLS, *c) - COLS] = true;
        } else if (strncmp(k, "up", 2) == 0 || strncmp(k, "down", 4) == 0) {
            const bool up = k[0] == 'u';
            const int q = k[up ? 2 : 4] - '1';
            if (strcmp(v, "-") == 0)
                continue;
            char *s2 = NULL;
            for (char *x = strtok_r(buf, ",", &s2); x; x = strtok_r(NULL, ",", &s2)) {
                int n = 1;
                if (isdigit((unsigned char)*x))
                    n = (int)strtol(x, &x, 10);
                for (int i = 0; i < n; i++) {
                    if (x[0] == 'J')
                        castle_add(&p, q, "J", (int)(strchr(COLS, x[1]) - COLS));
                    else
                        castle_add(&p, q, x, column_of(x));
                    p.castle[q][p.ncastle[q] - 1].up = up;
                }
            }
        } else if (strcmp(k, "holes") == 0) {
            if (strcmp(v, "-") == 0)
                continue;
            char *s2 = NULL;
            for (char *x = strtok_r(buf, ",", &s2); x; x = strtok_r(NULL, ",", &s2))
                p.holes[p.nholes++] = read_sq(x);
        } else if (strcmp(k, "pending") == 0) {
            // Read as up/down are, item by item: the reference stays plain to check by eye.
            if (strcmp(v, "-") == 0)
                continue;
            char *s2 = NULL;
            for (char *x = strtok_r(buf, ",", &s2); x; x = strtok_r(NULL, ",", &s2)) {
                int n = 1;
                if (isdigit((unsigned char)*x))
                    n = (int)strtol(x, &x, 10);
                for (int i = 0; i < n; i++) {
                    if (x[0] == 'J')
                        p.pend_jester++;
                    else if (x[0] == 'Z')
                        p.pend_wizard++;
                    else
                        snprintf(p.pend_tax[p.npend_tax++], KREF_CODE, "%s", x);
                }
            }
        } else {
            ok = false;
        }
    }
    free(copy);
    if (!ok) {
        snprintf(err, err_len, "the reference cannot read this position");
        return false;
    }
    (void)FIELDS;
    settle(r, &p);
    *out = p;
    return true;
}
