/*
 * kg_reference.c - the plain King's Guard oracle (see kg_reference.h for its purpose).
 *
 * Rules, from docs/games/kings-guard.md (R-KG-1 to R-KG-22):
 *  - a turn starts from a square whose top piece is the mover's; its pieces move one at
 *    a time from the top down, as many as the mover likes (at least one);
 *  - a piece's range is its height in the stack (bottom 1), which is the height of the
 *    start square when it leaves; it walks 1..range steps (orthogonal, or all 8 with
 *    steps=all), every square before the last empty at that moment (pieces moved
 *    earlier in the turn and those still on the start square block), and it may not
 *    end where it started;
 *  - it may end on an empty square or any stack below the height limit, but never on
 *    the mover's own king; ending on the opponent's king captures it and wins at once;
 *  - if a full tower has the mover's piece on top, the turn must start from such a
 *    tower when one of them can move at all;
 *  - at the start of a turn, in this order: a captured king decides the game; a player
 *    with no legal turn loses (no-move=draw: draws); a third occurrence of the position
 *    (same board, same player to move) draws; max-plies turns played draws.
 */
#include "kg_reference.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void set_err(char *err, size_t err_len, const char *msg)
{
    if (err != NULL && err_len > 0)
        snprintf(err, err_len, "%s", msg);
}

/* --- rules ------------------------------------------------------------------------------ */

bool kgref_rules_for(const char *game, const char *const *settings, int n_settings,
                     KgRefRules *out, char *err, size_t err_len)
{
    KgRefRules r;
    memset(&r, 0, sizeof r);
    bool small;
    if (strcmp(game, "kings-guard") == 0)
        small = false;
    else if (strcmp(game, "kings-guard-8x8") == 0)
        small = true;
    else {
        set_err(err, err_len, "not a King's Guard game");
        return false;
    }
    r.files = small ? 8 : 9;
    r.ranks = small ? 8 : 10;
    r.limit = small ? 4 : 5;
    r.king_file = 4;
    r.steps_all = false;
    r.repetition = true;
    r.no_move_loses = true;
    r.max_plies = 300;
    for (int i = 0; i < n_settings; i++) {
        const char *s = settings[i];
        const char *eq = strchr(s, '=');
        if (eq == NULL) {
            set_err(err, err_len, "setting without '='");
            return false;
        }
        const size_t n = (size_t)(eq - s);
        const char *v = eq + 1;
        if (n == 5 && strncmp(s, "steps", n) == 0 && strcmp(v, "all") == 0)
            r.steps_all = true;
        else if (n == 5 && strncmp(s, "steps", n) == 0 && strcmp(v, "orthogonal") == 0)
            r.steps_all = false;
        else if (n == 10 && strncmp(s, "repetition", n) == 0 && strcmp(v, "on") == 0)
            r.repetition = true;
        else if (n == 10 && strncmp(s, "repetition", n) == 0 && strcmp(v, "off") == 0)
            r.repetition = false;
        else if (n == 7 && strncmp(s, "no-move", n) == 0 && strcmp(v, "lose") == 0)
            r.no_move_loses = true;
        else if (n == 7 && strncmp(s, "no-move", n) == 0 && strcmp(v, "draw") == 0)
            r.no_move_loses = false;
        else if (small && n == 9 && strncmp(s, "king-file", n) == 0 && strcmp(v, "e") == 0)
            r.king_file = 4;
        else if (small && n == 9 && strncmp(s, "king-file", n) == 0 && strcmp(v, "d") == 0)
            r.king_file = 3;
        else if (n == 9 && strncmp(s, "max-plies", n) == 0 && atoi(v) >= 0 &&
                 atoi(v) <= KGREF_MAX_PLIES)
            r.max_plies = atoi(v);
        else {
            set_err(err, err_len, "unknown setting");
            return false;
        }
    }
    *out = r;
    return true;
}

static bool on_board(const KgRefRules *r, int f, int rank)
{
    return f >= 0 && f < r->files && rank >= 0 && rank < r->ranks;
}

static void put(KgRefPos *p, int f, int rank, char piece)
{
    size_t n = strlen(p->stack[rank][f]);
    p->stack[rank][f][n] = piece;
    p->stack[rank][f][n + 1] = '\0';
}

void kgref_start_text(const KgRefRules *rules, char *out, size_t cap)
{
    // R-KG-1 and R-KG-2, square by square.
    static const char *const first_9x10[] = {"a1", "b2", "c3", "d4", "e5",
                                             "f4", "g3", "h2", "i1"};
    static const char *const second_9x10[] = {"a10", "b9", "c8", "d7", "e6",
                                              "f7",  "g8", "h9", "i10"};
    static const char *const first_8x8[] = {"a1", "b2", "c3", "d4", "e4", "f3", "g2", "h1"};
    static const char *const second_8x8[] = {"a8", "b7", "c6", "d5", "e5", "f6", "g7", "h8"};
    const bool small = rules->files == 8;
    const char *const *g1 = small ? first_8x8 : first_9x10;
    const char *const *g2 = small ? second_8x8 : second_9x10;
    KgRefPos p;
    memset(&p, 0, sizeof p);
    p.origin_file = p.origin_rank = -1;
    for (int i = 0; i < rules->files; i++) {
        put(&p, g1[i][0] - 'a', atoi(g1[i] + 1) - 1, 'G');
        put(&p, g2[i][0] - 'a', atoi(g2[i] + 1) - 1, 'g');
    }
    put(&p, rules->king_file, 0, 'K');
    put(&p, rules->king_file, rules->ranks - 1, 'k');
    kgref_format_position(rules, &p, out, cap);
}

/* --- text ------------------------------------------------------------------------------- */

static size_t append(char *out, size_t cap, size_t n, const char *s)
{
    size_t len = strlen(s);
    if (n + len + 1 > cap)
        return n;
    memcpy(out + n, s, len + 1);
    return n + len;
}

/* Appends the count of the empty squares passed, if any, and starts it again. */
static size_t append_empties(char *out, size_t cap, size_t n, int *empty)
{
    if (*empty) {
        char buf[16];
        snprintf(buf, sizeof buf, "%d", *empty);
        n = append(out, cap, n, buf);
        *empty = 0;
    }
    return n;
}

/* Appends a stack (its pieces from the bottom up) after the empty squares before it, in
 * brackets when it is more than one piece. */
static size_t append_stack(char *out, size_t cap, size_t n, int *empty, const char *stack)
{
    char buf[16];
    n = append_empties(out, cap, n, empty);
    snprintf(buf, sizeof buf, strlen(stack) == 1 ? "%s" : "(%s)", stack);
    return append(out, cap, n, buf);
}

void kgref_format_position(const KgRefRules *rules, const KgRefPos *pos, char *out, size_t cap)
{
    size_t n = 0;
    out[0] = '\0';
    for (int rank = rules->ranks - 1; rank >= 0; rank--) {
        int empty = 0;
        for (int f = 0; f < rules->files; f++) {
            const char *st = pos->stack[rank][f];
            if (st[0] == '\0')
                empty++;
            else
                n = append_stack(out, cap, n, &empty, st);
        }
        n = append_empties(out, cap, n, &empty);
        if (rank > 0)
            n = append(out, cap, n, "/");
    }
    char tail[48];
    snprintf(tail, sizeof tail, " %d %d", pos->to_move + 1, pos->turns);
    n = append(out, cap, n, tail);
    if (pos->origin_file >= 0) {
        snprintf(tail, sizeof tail, " %c%d:%d", 'a' + pos->origin_file, pos->origin_rank + 1,
                 pos->placed);
        append(out, cap, n, tail);
    }
}

static bool is_piece(char c)
{
    return c == 'G' || c == 'g' || c == 'K' || c == 'k';
}

/* Reads "c3" at *p; false if it is not a square of the board. */
static bool read_square(const KgRefRules *rules, const char **p, int *file, int *rank)
{
    const char *q = *p;
    if (*q < 'a' || *q > 'z' || !isdigit((unsigned char)q[1]))
        return false;
    int f = *q++ - 'a';
    int r = 0;
    while (isdigit((unsigned char)*q) && r < 1000)
        r = r * 10 + (*q++ - '0');
    if (!on_board(rules, f, r - 1))
        return false;
    *file = f;
    *rank = r - 1;
    *p = q;
    return true;
}

bool kgref_parse_position(const KgRefRules *rules, const char *text, KgRefPos *out, char *err,
                          size_t err_len)
{
    KgRefPos p;
    memset(&p, 0, sizeof p);
    p.origin_file = p.origin_rank = -1;
    const char *s = text;
    for (int rank = rules->ranks - 1; rank >= 0; rank--) {
        int f = 0;
        while (*s && *s != '/' && *s != ' ') {
            if (*s >= '1' && *s <= '9') {
                f += *s++ - '0';
                continue;
            }
            if (f >= rules->files) {
                set_err(err, err_len, "rank too long");
                return false;
            }
            if (*s == '(') {
                s++;
                while (is_piece(*s)) {
                    if ((int)strlen(p.stack[rank][f]) >= rules->limit) {
                        set_err(err, err_len, "stack too tall");
                        return false;
                    }
                    put(&p, f, rank, *s++);
                }
                if (*s++ != ')') {
                    set_err(err, err_len, "bad stack");
                    return false;
                }
            } else if (is_piece(*s)) {
                put(&p, f, rank, *s++);
            } else {
                set_err(err, err_len, "bad board character");
                return false;
            }
            f++;
        }
        if (f != rules->files) {
            set_err(err, err_len, "rank width");
            return false;
        }
        if (rank > 0 && *s++ != '/') {
            set_err(err, err_len, "missing '/'");
            return false;
        }
    }
    int side, turns, used = 0;
    if (sscanf(s, " %d %d%n", &side, &turns, &used) != 2 || (side != 1 && side != 2) ||
        turns < 0) {
        set_err(err, err_len, "bad side or turns");
        return false;
    }
    p.to_move = side - 1;
    p.turns = turns;
    s += used;
    while (*s == ' ')
        s++;
    if (*s != '\0') {
        int f, r;
        if (!read_square(rules, &s, &f, &r) || *s != ':' || !isdigit((unsigned char)s[1])) {
            set_err(err, err_len, "bad turn in progress");
            return false;
        }
        p.origin_file = f;
        p.origin_rank = r;
        p.placed = atoi(s + 1);
    }
    *out = p;
    return true;
}

bool kgref_diagram(const char *const *rows, int n_rows, int to_move, int turns,
                   const char *progress, char *out, size_t cap)
{
    size_t n = 0;
    out[0] = '\0';
    int width = -1;
    for (int r = 0; r < n_rows; r++) {
        const char *s = rows[r];
        int f = 0, empty = 0;
        while (*s) {
            char tok[8];
            int len = 0;
            while (*s && *s != ' ') {
                if (len >= KGREF_MAX_HEIGHT || !(is_piece(*s) || (*s == '.' && len == 0)))
                    return false;
                tok[len++] = *s++;
            }
            tok[len] = '\0';
            if (len == 0 || (tok[0] == '.' && len != 1))
                return false;
            if (*s == ' ' && *++s == '\0')
                return false;
            f++;
            if (tok[0] == '.')
                empty++;
            else
                n = append_stack(out, cap, n, &empty, tok);
        }
        n = append_empties(out, cap, n, &empty);
        if (width >= 0 && f != width)
            return false;
        width = f;
        if (r + 1 < n_rows)
            n = append(out, cap, n, "/");
    }
    char tail[48];
    snprintf(tail, sizeof tail, " %d %d%s%s", to_move, turns, progress ? " " : "",
             progress ? progress : "");
    size_t before = n;
    n = append(out, cap, n, tail);
    return n > before;
}

/* --- the rules ---------------------------------------------------------------------------- */

static int height(const KgRefPos *p, int f, int r)
{
    return (int)strlen(p->stack[r][f]);
}

static char top(const KgRefPos *p, int f, int r)
{
    int h = height(p, f, r);
    return h ? p->stack[r][f][h - 1] : '\0';
}

static int owner(char piece)
{
    return isupper((unsigned char)piece) ? 0 : 1;
}

static int neighbours(const KgRefRules *rules, int f, int r, int out[8][2])
{
    static const int ORTH[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    static const int DIAG[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    int n = 0;
    for (int i = 0; i < 4; i++) {
        if (on_board(rules, f + ORTH[i][0], r + ORTH[i][1])) {
            out[n][0] = f + ORTH[i][0];
            out[n++][1] = r + ORTH[i][1];
        }
    }
    for (int i = 0; rules->steps_all && i < 4; i++) {
        if (on_board(rules, f + DIAG[i][0], r + DIAG[i][1])) {
            out[n][0] = f + DIAG[i][0];
            out[n++][1] = r + DIAG[i][1];
        }
    }
    return n;
}

/* Marks in ok[][] every square where the top piece of (of, orank) may be put down by
 * player `mover`: breadth-first over empty squares, at most `range` steps. */
static void destinations(const KgRefRules *rules, const KgRefPos *p, int of, int orank, int mover,
                         bool ok[KGREF_MAX_RANKS][KGREF_MAX_FILES])
{
    const int range = height(p, of, orank);
    const char own_king = mover == 0 ? 'K' : 'k';
    int dist[KGREF_MAX_RANKS][KGREF_MAX_FILES];
    int queue[KGREF_MAX_RANKS * KGREF_MAX_FILES][2];
    int head = 0, tail = 0;
    for (int r = 0; r < KGREF_MAX_RANKS; r++)
        for (int f = 0; f < KGREF_MAX_FILES; f++) {
            dist[r][f] = -1;
            ok[r][f] = false;
        }
    dist[orank][of] = 0;
    queue[tail][0] = of;
    queue[tail++][1] = orank;
    while (head < tail) {
        const int f = queue[head][0], r = queue[head][1];
        head++;
        if (dist[r][f] >= range)
            continue;
        int nb[8][2];
        const int n = neighbours(rules, f, r, nb);
        for (int i = 0; i < n; i++) {
            const int nf = nb[i][0], nr = nb[i][1];
            if (nf == of && nr == orank)
                continue;
            // A path of dist + 1 steps may end here.
            if (height(p, nf, nr) < rules->limit && top(p, nf, nr) != own_king)
                ok[nr][nf] = true;
            if (height(p, nf, nr) == 0 && dist[nr][nf] < 0) {
                dist[nr][nf] = dist[r][f] + 1;
                queue[tail][0] = nf;
                queue[tail++][1] = nr;
            }
        }
    }
}

static bool has_destination(const KgRefRules *rules, const KgRefPos *p, int f, int r, int mover)
{
    bool ok[KGREF_MAX_RANKS][KGREF_MAX_FILES];
    destinations(rules, p, f, r, mover, ok);
    for (int rr = 0; rr < rules->ranks; rr++)
        for (int ff = 0; ff < rules->files; ff++)
            if (ok[rr][ff])
                return true;
    return false;
}

/* The pick-ups of the player to move at the start of a turn. */
static int picks(const KgRefRules *rules, const KgRefPos *p, KgRefAction *out)
{
    int n = 0, towers = 0;
    KgRefAction tower[KGREF_MAX_ACTIONS];
    for (int r = 0; r < rules->ranks; r++) {
        for (int f = 0; f < rules->files; f++) {
            const char t = top(p, f, r);
            if (t == '\0' || owner(t) != p->to_move || !has_destination(rules, p, f, r, p->to_move))
                continue;
            const KgRefAction a = {KGREF_PICK, f, r};
            out[n++] = a;
            if (height(p, f, r) == rules->limit)
                tower[towers++] = a;
        }
    }
    // Must-dismantle: full towers of the mover's that can move come first and alone.
    if (towers > 0) {
        memcpy(out, tower, sizeof tower[0] * (size_t)towers);
        n = towers;
    }
    return n;
}

static bool king_buried(const KgRefRules *rules, const KgRefPos *p, int *loser)
{
    for (int r = 0; r < rules->ranks; r++)
        for (int f = 0; f < rules->files; f++) {
            const char *s = p->stack[r][f];
            for (int i = 0; s[i] != '\0' && s[i + 1] != '\0'; i++)
                if (s[i] == 'K' || s[i] == 'k') {
                    *loser = owner(s[i]);
                    return true;
                }
        }
    return false;
}

static bool same_position(const KgRefRules *rules, const KgRefPos *a, const KgRefPos *b)
{
    if (a->to_move != b->to_move || a->origin_file != b->origin_file)
        return false;
    for (int r = 0; r < rules->ranks; r++)
        for (int f = 0; f < rules->files; f++)
            if (strcmp(a->stack[r][f], b->stack[r][f]) != 0)
                return false;
    return true;
}

KgRefResult kgref_result(const KgRefGame *g, const char **reason)
{
    const KgRefRules *rules = &g->rules;
    const KgRefPos *p = kgref_current(g);
    const char *why = "";
    KgRefResult res = KGREF_ONGOING;
    int loser;
    KgRefAction tmp[KGREF_MAX_ACTIONS];
    if (p->origin_file >= 0) {
        // In the middle of a turn nothing is decided.
    } else if (king_buried(rules, p, &loser)) {
        res = loser == 0 ? KGREF_SECOND_WINS : KGREF_FIRST_WINS;
        why = "king captured";
    } else if (picks(rules, p, tmp) == 0) {
        res = !rules->no_move_loses ? KGREF_DRAW
              : p->to_move == 0     ? KGREF_SECOND_WINS
                                    : KGREF_FIRST_WINS;
        why = "no legal turn";
    } else {
        int seen = 0;
        for (int i = 0; i < g->count; i++)
            seen += same_position(rules, &g->line[i], p);
        if (rules->repetition && seen >= 3) {
            res = KGREF_DRAW;
            why = "threefold repetition";
        } else if (p->turns >= rules->max_plies) {
            res = KGREF_DRAW;
            why = "turn limit";
        }
    }
    if (reason != NULL)
        *reason = why;
    return res;
}

int kgref_legal(const KgRefGame *g, KgRefAction *out)
{
    const KgRefRules *rules = &g->rules;
    const KgRefPos *p = kgref_current(g);
    if (kgref_result(g, NULL) != KGREF_ONGOING)
        return 0;
    if (p->origin_file < 0)
        return picks(rules, p, out);
    bool ok[KGREF_MAX_RANKS][KGREF_MAX_FILES];
    destinations(rules, p, p->origin_file, p->origin_rank, p->to_move, ok);
    int n = 0;
    for (int r = 0; r < rules->ranks; r++)
        for (int f = 0; f < rules->files; f++)
            if (ok[r][f]) {
                const KgRefAction a = {KGREF_PLACE, f, r};
                out[n++] = a;
            }
    if (p->placed > 0) {
        const KgRefAction a = {KGREF_END, 0, 0};
        out[n++] = a;
    }
    return n;
}

static void end_turn(KgRefPos *p)
{
    p->origin_file = p->origin_rank = -1;
    p->placed = 0;
    p->to_move ^= 1;
    p->turns++;
}

void kgref_play(KgRefGame *g, KgRefAction a)
{
    if (g->count == g->cap) {
        g->cap *= 2;
        KgRefPos *more = realloc(g->line, sizeof *more * (size_t)g->cap);
        if (more == NULL)
            abort();
        g->line = more;
    }
    KgRefPos *p = &g->line[g->count];
    *p = g->line[g->count - 1];
    g->count++;
    switch (a.kind) {
    case KGREF_PICK:
        p->origin_file = a.file;
        p->origin_rank = a.rank;
        p->placed = 0;
        break;
    case KGREF_PLACE: {
        char *from = p->stack[p->origin_rank][p->origin_file];
        const size_t h = strlen(from);
        const char piece = from[h - 1];
        from[h - 1] = '\0';
        const char below = top(p, a.file, a.rank);
        const bool capture = below == (p->to_move == 0 ? 'k' : 'K');
        put(p, a.file, a.rank, piece);
        p->placed++;
        if (capture || h == 1)
            end_turn(p);
        break;
    }
    case KGREF_END:
        end_turn(p);
        break;
    }
}

void kgref_undo(KgRefGame *g)
{
    if (g->count > 1)
        g->count--;
}

KgRefGame *kgref_game_new(const KgRefRules *rules, const char *text, char *err,
                          size_t err_len)
{
    KgRefGame *g = calloc(1, sizeof *g);
    if (g == NULL)
        return NULL;
    g->rules = *rules;
    g->cap = 64;
    g->line = malloc(sizeof *g->line * (size_t)g->cap);
    if (g->line == NULL || !kgref_parse_position(rules, text, &g->line[0], err, err_len)) {
        kgref_game_free(g);
        return NULL;
    }
    g->count = 1;
    return g;
}

void kgref_game_free(KgRefGame *g)
{
    if (g == NULL)
        return;
    free(g->line);
    free(g);
}

const KgRefPos *kgref_current(const KgRefGame *g)
{
    return &g->line[g->count - 1];
}

void kgref_format_action(const KgRefGame *g, KgRefAction a, char out[KGREF_ACTION_TEXT])
{
    const KgRefPos *p = kgref_current(g);
    switch (a.kind) {
    case KGREF_PICK:
        snprintf(out, KGREF_ACTION_TEXT, "%c%d", 'a' + a.file, a.rank + 1);
        break;
    case KGREF_PLACE:
        snprintf(out, KGREF_ACTION_TEXT, "%c%d-%c%d", 'a' + p->origin_file, p->origin_rank + 1,
                 'a' + a.file, a.rank + 1);
        break;
    case KGREF_END:
        snprintf(out, KGREF_ACTION_TEXT, "end");
        break;
    }
}

bool kgref_find_action(const KgRefGame *g, const char *text, KgRefAction *out)
{
    KgRefAction list[KGREF_MAX_ACTIONS];
    const int n = kgref_legal(g, list);
    for (int i = 0; i < n; i++) {
        char t[KGREF_ACTION_TEXT];
        kgref_format_action(g, list[i], t);
        if (strcmp(t, text) == 0) {
            *out = list[i];
            return true;
        }
    }
    return false;
}

uint64_t kgref_perft(KgRefGame *g, int depth)
{
    if (depth == 0)
        return 1;
    KgRefAction list[KGREF_MAX_ACTIONS];
    const int n = kgref_legal(g, list);
    if (depth == 1)
        return (uint64_t)n;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        kgref_play(g, list[i]);
        total += kgref_perft(g, depth - 1);
        kgref_undo(g);
    }
    return total;
}

/* Leaves below the turn of `mover` in progress: once the turn is over (the other
 * player acts, or the game ended), the remaining whole turns are counted. */
static uint64_t finish_turn(KgRefGame *g, int mover, int depth)
{
    const KgRefPos *p = kgref_current(g);
    if (p->to_move != mover || kgref_result(g, NULL) != KGREF_ONGOING)
        return kgref_perft_turns(g, depth - 1);
    KgRefAction list[KGREF_MAX_ACTIONS];
    const int n = kgref_legal(g, list);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        kgref_play(g, list[i]);
        total += finish_turn(g, mover, depth);
        kgref_undo(g);
    }
    return total;
}

uint64_t kgref_perft_turns(KgRefGame *g, int depth)
{
    if (depth == 0)
        return 1;
    if (kgref_result(g, NULL) != KGREF_ONGOING)
        return 0;
    return finish_turn(g, kgref_current(g)->to_move, depth);
}
