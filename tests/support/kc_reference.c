/*
 * kc_reference.c - the plain King's Castle oracle (see kc_reference.h).
 *
 * Every rule is a direct loop over cells, read off docs/games/kings-castle.md: the
 * Castle and its doors are tables copied from its board section, walls are "a castle cell
 * next to an outside cell without a door", and a move is checked step by step on a copy
 * of the position.
 */
#include "kc_reference.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int DQ[6] = {1, 1, 0, -1, -1, 0};
static const int DR[6] = {0, -1, -1, 0, 1, 1};

/* R-KC-1: the entrance cells and the twelve doors. */
static const int ENTRANCE[6][2] = {{2, -1}, {1, 1}, {-1, 2}, {-2, 1}, {-1, -1}, {1, -2}};
static const int DOORS[12][4] = {
    {2, -1, 3, -1},  {2, -1, 3, -2},  {1, 1, 2, 1},    {1, 1, 1, 2},
    {-1, 2, -1, 3},  {-1, 2, -2, 3},  {-2, 1, -3, 1},  {-2, 1, -3, 2},
    {-1, -1, -2, -1}, {-1, -1, -1, -2}, {1, -2, 1, -3}, {1, -2, 2, -3},
};
/* Opposite inner cells (the flanking pairs). */
static const int PAIRS[3][4] = {{1, 0, -1, 0}, {0, 1, 0, -1}, {1, -1, -1, 1}};

static int iabs(int x)
{
    return x < 0 ? -x : x;
}

static int hexdist(int q, int r)
{
    int m = iabs(q);
    if (iabs(r) > m)
        m = iabs(r);
    if (iabs(q + r) > m)
        m = iabs(q + r);
    return m;
}

static bool on_board(int q, int r)
{
    return hexdist(q, r) <= KCREF_RADIUS;
}

static bool is_throne(int q, int r)
{
    return q == 0 && r == 0;
}

static bool in_castle(int q, int r)
{
    if (hexdist(q, r) <= 1)
        return true;
    for (int i = 0; i < 6; i++)
        if (ENTRANCE[i][0] == q && ENTRANCE[i][1] == r)
            return true;
    return false;
}

static bool is_door(int q1, int r1, int q2, int r2)
{
    for (int i = 0; i < 12; i++) {
        const int *d = DOORS[i];
        if ((d[0] == q1 && d[1] == r1 && d[2] == q2 && d[3] == r2) ||
            (d[0] == q2 && d[1] == r2 && d[2] == q1 && d[3] == r1))
            return true;
    }
    return false;
}

static bool are_neighbours(int q1, int r1, int q2, int r2)
{
    for (int d = 0; d < 6; d++)
        if (q1 + DQ[d] == q2 && r1 + DR[d] == r2)
            return true;
    return false;
}

/* Neighbours on the board with no wall between them. */
static bool connected(int q1, int r1, int q2, int r2)
{
    if (!on_board(q1, r1) || !on_board(q2, r2) || !are_neighbours(q1, r1, q2, r2))
        return false;
    if (in_castle(q1, r1) != in_castle(q2, r2) && !is_door(q1, r1, q2, r2))
        return false; // a wall
    return true;
}

static char at(const KcRefPos *p, int q, int r)
{
    return on_board(q, r) ? p->cell[r + KCREF_RADIUS][q + KCREF_RADIUS] : '.';
}

static void set_at(KcRefPos *p, int q, int r, char ch)
{
    p->cell[r + KCREF_RADIUS][q + KCREF_RADIUS] = ch;
}

static char colour(int player)
{
    return player == 0 ? 'W' : 'B';
}

/* --- rules ------------------------------------------------------------------------------- */

bool kcref_rules(const char *const *settings, int n_settings, KcRefRules *out, char *err,
                 size_t err_len)
{
    KcRefRules r = {true, false, false, false, false, true, 400, false, false};
    for (int i = 0; i < n_settings; i++) {
        const char *s = settings[i];
        if (strcmp(s, "swap=on") == 0)
            r.swap = true;
        else if (strcmp(s, "swap=off") == 0)
            r.swap = false;
        else if (strcmp(s, "single-range=any") == 0)
            r.single_full = false;
        else if (strcmp(s, "single-range=full") == 0)
            r.single_full = true;
        else if (strcmp(s, "single-throne=block") == 0)
            r.single_cross = false;
        else if (strcmp(s, "single-throne=cross") == 0)
            r.single_cross = true;
        else if (strcmp(s, "capture-limit=whole-line") == 0)
            r.capture_entered = false;
        else if (strcmp(s, "capture-limit=entered") == 0)
            r.capture_entered = true;
        else if (strcmp(s, "throne-entry=auto") == 0)
            r.throne_by_move = false;
        else if (strcmp(s, "throne-entry=move") == 0)
            r.throne_by_move = true;
        else if (strcmp(s, "throne-loss=capture") == 0)
            r.loss_if_broken = false;
        else if (strcmp(s, "throne-loss=broken") == 0)
            r.loss_if_broken = true;
        else if (strcmp(s, "no-move=loss") == 0)
            r.no_move_draw = false;
        else if (strcmp(s, "no-move=draw") == 0)
            r.no_move_draw = true;
        else if (strcmp(s, "repetition=draw") == 0)
            r.repetition = true;
        else if (strcmp(s, "repetition=off") == 0)
            r.repetition = false;
        else if (strncmp(s, "max-plies=", 10) == 0)
            r.max_plies = atoi(s + 10);
        else {
            snprintf(err, err_len, "unknown setting '%s'", s);
            return false;
        }
    }
    *out = r;
    return true;
}

/* --- text ------------------------------------------------------------------------------- */

static int rank_length(int r)
{
    return 2 * KCREF_RADIUS + 1 - iabs(r);
}

static int rank_first_q(int r)
{
    return r < 0 ? -KCREF_RADIUS - r : -KCREF_RADIUS;
}

bool kcref_parse_position(const KcRefRules *rules, const char *text, KcRefPos *out, char *err,
                          size_t err_len)
{
    KcRefPos p;
    memset(&p, '.', sizeof p.cell);
    const char *s = text;
    for (int r = -KCREF_RADIUS; r <= KCREF_RADIUS; r++) {
        int i = 0;
        while (*s != '/' && *s != ' ' && *s != '\0') {
            if (isdigit((unsigned char)*s)) {
                int n = 0;
                while (isdigit((unsigned char)*s))
                    n = n * 10 + (*s++ - '0');
                i += n;
            } else if (*s == 'W' || *s == 'B') {
                if (i < rank_length(r))
                    set_at(&p, rank_first_q(r) + i, r, *s);
                i++;
                s++;
            } else {
                snprintf(err, err_len, "bad character '%c'", *s);
                return false;
            }
        }
        if (i != rank_length(r)) {
            snprintf(err, err_len, "rank with r=%d has %d cells", r, i);
            return false;
        }
        if (r < KCREF_RADIUS) {
            if (*s != '/') {
                snprintf(err, err_len, "missing '/'");
                return false;
            }
            s++;
        }
    }
    char side;
    int ply, used = 0;
    if (sscanf(s, " %c %d%n", &side, &ply, &used) != 2 || (side != 'w' && side != 'b') ||
        ply < 0 || ply > rules->max_plies) {
        snprintf(err, err_len, "bad side or plies in '%s'", s);
        return false;
    }
    s += used;
    while (*s == ' ')
        s++;
    if (*s != '\0') {
        snprintf(err, err_len, "trailing text");
        return false;
    }
    p.to_move = side == 'b';
    p.ply = ply;
    *out = p;
    return true;
}

void kcref_format_position(const KcRefPos *pos, char *out, size_t cap)
{
    size_t n = 0;
    out[0] = '\0';
    for (int r = -KCREF_RADIUS; r <= KCREF_RADIUS; r++) {
        int empty = 0;
        for (int i = 0; i < rank_length(r); i++) {
            const char ch = at(pos, rank_first_q(r) + i, r);
            if (ch == '.') {
                empty++;
                continue;
            }
            if (empty)
                n += (size_t)snprintf(out + n, cap - n, "%d", empty);
            empty = 0;
            n += (size_t)snprintf(out + n, cap - n, "%c", ch);
        }
        if (empty)
            n += (size_t)snprintf(out + n, cap - n, "%d", empty);
        if (r < KCREF_RADIUS)
            n += (size_t)snprintf(out + n, cap - n, "/");
    }
    snprintf(out + n, cap - n, " %c %d", pos->to_move ? 'b' : 'w', pos->ply);
}

static void cell_text(int q, int r, char out[16])
{
    snprintf(out, 16, "%c%d", 'a' + q + KCREF_RADIUS, KCREF_RADIUS + 1 - r);
}

/* --- moves -------------------------------------------------------------------------------- */

static bool flanked_by(const KcRefPos *p, char who, int pair)
{
    const int *c = PAIRS[pair];
    return at(p, c[0], c[1]) == who && at(p, c[2], c[3]) == who;
}

static bool flanks_throne(const KcRefPos *p, char who)
{
    for (int i = 0; i < 3; i++)
        if (flanked_by(p, who, i))
            return true;
    return false;
}

static bool next_to_friend(const KcRefPos *p, int q, int r, char who)
{
    for (int d = 0; d < 6; d++) {
        const int nq = q + DQ[d], nr = r + DR[d];
        if (connected(q, r, nq, nr) && at(p, nq, nr) == who)
            return true;
    }
    return false;
}

/* The length of the maximal chain of connected men of `who` along direction d's axis
 * through (q, r). */
static int chain_length(const KcRefPos *p, int q, int r, int d, char who)
{
    int n = 1;
    for (int sign = -1; sign <= 1; sign += 2) {
        int x = q, y = r;
        for (;;) {
            const int nx = x + sign * DQ[d], ny = y + sign * DR[d];
            if (!connected(x, y, nx, ny) || at(p, nx, ny) != who)
                break;
            n++;
            x = nx;
            y = ny;
        }
    }
    return n;
}

/* One step of a single: onto the empty Throne only with single-throne=cross, and then
 * only to pass over it (slide_ok refuses a slide that ends there). */
static bool single_step_ok(const KcRefPos *p, const KcRefRules *rules, int q, int r, int nq,
                           int nr)
{
    return connected(q, r, nq, nr) && (rules->single_cross || !is_throne(nq, nr)) &&
           at(p, nq, nr) == '.' && !(!in_castle(q, r) && in_castle(nq, nr));
}

/* Whether the slide is legal (the mover's man or men at the given cells, per the rules). */
static bool slide_ok(const KcRefPos *p, const KcRefRules *rules, KcRefMove m)
{
    const char me = colour(p->to_move), them = colour(1 - p->to_move);
    const int d = m.dir;
    if (m.k == 1) {
        if (at(p, m.q, m.r) != me || is_throne(m.q, m.r) || next_to_friend(p, m.q, m.r, me))
            return false;
        int q = m.q, r = m.r;
        for (int i = 0; i < m.dist; i++) {
            if (!single_step_ok(p, rules, q, r, q + DQ[d], r + DR[d]))
                return false;
            q += DQ[d];
            r += DR[d];
        }
        if (is_throne(q, r))
            return false;
        if (rules->single_full && single_step_ok(p, rules, q, r, q + DQ[d], r + DR[d]))
            return false; // it must go on
        return m.dist >= 1;
    }
    // The part: the front and k - 1 men behind it, in one connected line.
    int q = m.q, r = m.r;
    for (int i = 0; i < m.k; i++) {
        if (!on_board(q, r) || at(p, q, r) != me || is_throne(q, r))
            return false;
        if (i + 1 < m.k && !connected(q, r, q - DQ[d], r - DR[d]))
            return false;
        q -= DQ[d];
        r -= DR[d];
    }
    // A friendly man right in front: a middle part, or an end moving into its line.
    if (connected(m.q, m.r, m.q + DQ[d], m.r + DR[d]) && at(p, m.q + DQ[d], m.r + DR[d]) == me)
        return false;
    if (m.dist < 1 || m.dist > m.k)
        return false;
    q = m.q;
    r = m.r;
    int entered = 0; /* opposing men of the current line entered so far */
    for (int i = 0; i < m.dist; i++) {
        const int nq = q + DQ[d], nr = r + DR[d];
        if (!connected(q, r, nq, nr) || is_throne(nq, nr) || at(p, nq, nr) == me)
            return false;
        entered = at(p, nq, nr) == them ? entered + 1 : 0;
        if (rules->capture_entered ? entered >= m.k
                                   : at(p, nq, nr) == them &&
                                         chain_length(p, nq, nr, d, them) >= m.k)
            return false;
        q = nq;
        r = nr;
    }
    return true;
}

static bool swap_ok(const KcRefPos *p, const KcRefRules *rules)
{
    if (!rules->swap || p->ply != 1 || p->to_move != 1)
        return false;
    int white = 0, black = 0;
    for (int r = -KCREF_RADIUS; r <= KCREF_RADIUS; r++)
        for (int q = -KCREF_RADIUS; q <= KCREF_RADIUS; q++) {
            white += on_board(q, r) && at(p, q, r) == 'W';
            black += on_board(q, r) && at(p, q, r) == 'B';
        }
    return white == 1 && black == 0;
}

/* Whether the mover's men on the front (q, r) and the k - 1 cells behind it along dir
 * form one connected line (the Throne man never moves). */
static bool part_ok(const KcRefPos *p, int q, int r, int dir, int k)
{
    const char me = colour(p->to_move);
    for (int i = 0; i < k; i++) {
        if (!on_board(q, r) || at(p, q, r) != me || is_throne(q, r))
            return false;
        if (i + 1 < k && !connected(q, r, q - DQ[dir], r - DR[dir]))
            return false;
        q -= DQ[dir];
        r -= DR[dir];
    }
    return true;
}

/* Every legal move, ignoring whether the game is over; with `first_only`, stops at the
 * first one found. */
static int find_moves(const KcRefPos *p, const KcRefRules *rules, KcRefMove *out,
                      bool first_only)
{
    const char me = colour(p->to_move);
    int n = 0;
    for (int r = -KCREF_RADIUS; r <= KCREF_RADIUS; r++)
        for (int q = -KCREF_RADIUS; q <= KCREF_RADIUS; q++) {
            if (!on_board(q, r) || at(p, q, r) != '.')
                continue;
            bool ok;
            if (is_throne(q, r))
                ok = rules->throne_by_move && flanks_throne(p, me);
            else
                ok = !in_castle(q, r) && !next_to_friend(p, q, r, me);
            if (ok) {
                out[n++] = (KcRefMove){KCREF_PLACE, q, r, 0, 0, 0};
                if (first_only)
                    return n;
            }
        }
    if (swap_ok(p, rules)) {
        out[n++] = (KcRefMove){KCREF_SWAP, 0, 0, 0, 0, 0};
        if (first_only)
            return n;
    }
    for (int r = -KCREF_RADIUS; r <= KCREF_RADIUS; r++)
        for (int q = -KCREF_RADIUS; q <= KCREF_RADIUS; q++) {
            if (!on_board(q, r) || at(p, q, r) != me)
                continue;
            for (int d = 0; d < 6; d++)
                // A part that is not a line of men does not become one with more men.
                for (int k = 1; k <= 11 && part_ok(p, q, r, d, k); k++)
                    for (int dist = 1; dist <= 10; dist++) {
                        KcRefMove m = {KCREF_SLIDE, q, r, d, k, dist};
                        if (slide_ok(p, rules, m)) {
                            out[n++] = m;
                            if (first_only)
                                return n;
                        }
                    }
        }
    return n;
}

static int all_moves(const KcRefPos *p, const KcRefRules *rules, KcRefMove *out)
{
    return find_moves(p, rules, out, false);
}

/* Plays m on a copy of p: the men, the throw or the captures, then the Throne. */
static KcRefPos apply(const KcRefPos *p, const KcRefRules *rules, KcRefMove m)
{
    KcRefPos t = *p;
    const char me = colour(p->to_move), them = colour(1 - p->to_move);
    bool captured_flanker = false;
    bool complete_before[3];
    for (int i = 0; i < 3; i++)
        complete_before[i] = flanked_by(p, them, i);
    if (m.kind == KCREF_PLACE) {
        set_at(&t, m.q, m.r, me);
    } else if (m.kind == KCREF_SWAP) {
        for (int r = -KCREF_RADIUS; r <= KCREF_RADIUS; r++)
            for (int q = -KCREF_RADIUS; q <= KCREF_RADIUS; q++)
                if (on_board(q, r) && at(&t, q, r) == 'W')
                    set_at(&t, q, r, 'B');
    } else if (m.k == 1) {
        const int d = m.dir;
        const int tq = m.q + m.dist * DQ[d], tr = m.r + m.dist * DR[d];
        const int lq = tq - DQ[d], lr = tr - DR[d]; // the last cell it traversed
        set_at(&t, m.q, m.r, '.');
        set_at(&t, tq, tr, me);
        const int bq = tq + DQ[d], br = tr + DR[d];
        if (connected(tq, tr, bq, br) && !is_throne(bq, br) && at(&t, bq, br) == them) {
            set_at(&t, bq, br, '.');
            set_at(&t, lq, lr, them);
        }
    } else {
        const int d = m.dir;
        for (int i = 0; i < m.k; i++)
            set_at(&t, m.q - i * DQ[d], m.r - i * DR[d], '.');
        for (int i = 1; i <= m.dist; i++) {
            const int q = m.q + i * DQ[d], r = m.r + i * DR[d];
            if (at(&t, q, r) == them) {
                for (int j = 0; j < 3; j++) {
                    const int *c = PAIRS[j];
                    if (complete_before[j] &&
                        ((c[0] == q && c[1] == r) || (c[2] == q && c[3] == r)))
                        captured_flanker = true;
                }
                set_at(&t, q, r, '.');
            }
        }
        for (int i = 0; i < m.k; i++)
            set_at(&t, m.q + (m.dist - i) * DQ[d], m.r + (m.dist - i) * DR[d], me);
    }
    if (at(&t, 0, 0) == them) {
        bool lost = captured_flanker;
        if (rules->loss_if_broken) {
            lost = false;
            for (int i = 0; i < 3; i++)
                if (complete_before[i] && !flanked_by(&t, them, i))
                    lost = true;
        }
        if (lost)
            set_at(&t, 0, 0, '.');
    }
    if (!rules->throne_by_move && at(&t, 0, 0) == '.' && flanks_throne(&t, me))
        set_at(&t, 0, 0, me);
    t.to_move = 1 - p->to_move;
    t.ply = p->ply + 1;
    return t;
}

/* --- games -------------------------------------------------------------------------------- */

KcRefGame *kcref_game_new(const KcRefRules *rules, const char *text, char *err, size_t err_len)
{
    KcRefGame *g = calloc(1, sizeof *g);
    if (g == NULL) {
        snprintf(err, err_len, "out of memory");
        return NULL;
    }
    g->rules = *rules;
    if (!kcref_parse_position(rules, text, &g->history[0], err, err_len)) {
        free(g);
        return NULL;
    }
    g->count = 1;
    return g;
}

const KcRefPos *kcref_current(const KcRefGame *g)
{
    return &g->history[g->count - 1];
}

static bool same_position(const KcRefPos *a, const KcRefPos *b)
{
    return a->to_move == b->to_move && memcmp(a->cell, b->cell, sizeof a->cell) == 0;
}

int kcref_occurrences(const KcRefGame *g)
{
    int n = 0;
    for (int i = 0; i < g->count - 1; i++)
        n += same_position(&g->history[i], kcref_current(g));
    return n;
}

KcRefResult kcref_result(const KcRefGame *g, const char **why)
{
    const KcRefPos *p = kcref_current(g);
    if (at(p, 0, 0) == colour(p->to_move)) {
        *why = "own man on the Throne";
        return p->to_move == 0 ? KCREF_WHITE_WINS : KCREF_BLACK_WINS;
    }
    if (g->rules.repetition && kcref_occurrences(g) >= 2) {
        *why = "third occurrence";
        return KCREF_DRAW;
    }
    if (p->ply >= g->rules.max_plies) {
        *why = "ply limit";
        return KCREF_DRAW;
    }
    KcRefMove one[1];
    if (find_moves(p, &g->rules, one, true) == 0) {
        *why = "no legal move";
        if (g->rules.no_move_draw)
            return KCREF_DRAW;
        return p->to_move == 0 ? KCREF_BLACK_WINS : KCREF_WHITE_WINS;
    }
    *why = "";
    return KCREF_ONGOING;
}

int kcref_legal_moves(const KcRefGame *g, KcRefMove *out)
{
    const char *why;
    if (kcref_result(g, &why) != KCREF_ONGOING)
        return 0;
    return all_moves(kcref_current(g), &g->rules, out);
}

void kcref_format_move(const KcRefPos *pos, KcRefMove m, char out[KCREF_MOVE_TEXT])
{
    char a[16], b[16], c[16];
    if (m.kind == KCREF_PLACE) {
        cell_text(m.q, m.r, a);
        snprintf(out, KCREF_MOVE_TEXT, "%.4s", a);
        return;
    }
    if (m.kind == KCREF_SWAP) {
        strcpy(out, "swap");
        return;
    }
    const int d = m.dir;
    cell_text(m.q - (m.k - 1) * DQ[d], m.r - (m.k - 1) * DR[d], a);
    cell_text(m.q, m.r, b);
    cell_text(m.q + m.dist * DQ[d], m.r + m.dist * DR[d], c);
    if (m.k == 1) {
        snprintf(out, KCREF_MOVE_TEXT, "%.4s-%.4s", a, c);
        return;
    }
    bool takes = false;
    const char them = colour(1 - pos->to_move);
    for (int i = 1; i <= m.dist; i++)
        takes |= at(pos, m.q + i * DQ[d], m.r + i * DR[d]) == them;
    snprintf(out, KCREF_MOVE_TEXT, "%.4s:%.4s%c%.4s", a, b, takes ? 'x' : '-', c);
}

bool kcref_find_move(const KcRefGame *g, const char *text, KcRefMove *out)
{
    static KcRefMove moves[KCREF_MAX_MOVES];
    const int n = kcref_legal_moves(g, moves);
    for (int i = 0; i < n; i++) {
        char t[KCREF_MOVE_TEXT];
        kcref_format_move(kcref_current(g), moves[i], t);
        if (strcmp(t, text) == 0) {
            *out = moves[i];
            return true;
        }
    }
    return false;
}

void kcref_play(KcRefGame *g, KcRefMove m)
{
    if (g->count >= KCREF_MAX_HISTORY)
        abort(); // the ply limit ends every game long before
    g->history[g->count] = apply(kcref_current(g), &g->rules, m);
    g->count++;
}

void kcref_undo(KcRefGame *g)
{
    if (g->count > 1)
        g->count--;
}

uint64_t kcref_perft(KcRefGame *g, int depth)
{
    if (depth == 0)
        return 1;
    KcRefMove *moves = malloc(sizeof *moves * KCREF_MAX_MOVES);
    if (moves == NULL)
        abort();
    const int n = kcref_legal_moves(g, moves);
    uint64_t total = 0;
    if (depth == 1) {
        total = (uint64_t)n;
    } else {
        for (int i = 0; i < n; i++) {
            kcref_play(g, moves[i]);
            total += kcref_perft(g, depth - 1);
            kcref_undo(g);
        }
    }
    free(moves);
    return total;
}

bool kcref_in_castle(int q, int r)
{
    return on_board(q, r) && in_castle(q, r);
}

int kcref_line_length(const KcRefPos *pos, int q, int r, int dir)
{
    return chain_length(pos, q, r, dir, at(pos, q, r));
}
