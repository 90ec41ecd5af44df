/*
 * kv_reference.c - the plain King's Valley oracle (see kv_reference.h for its purpose).
 *
 * Position text: ranks from the highest down to rank 1 separated by '/', one character
 * per square ('K' 'S' first player, 'k' 's' second player, '#' pillar) or a digit for a
 * run of empty squares; then a space and the player to move ('1' or '2'); then a space
 * and the number of plies played. File a is the leftmost column of player 1. Each side
 * has exactly one king; soldiers may be any number (handy for rule diagrams); pillars
 * stand on b3, f3, b5 and f5 of the Labyrinth and nowhere else.
 *
 * Rules, from docs/games/kings-valley.md (its rules and Rulings):
 *  - a piece slides in one of 8 directions as far as it can (edge, piece or pillar stops
 *    it), at least one square; a soldier whose slide ends on the Valley may not make it;
 *  - with first-move-soldier, the king may not move on ply 0;
 *  - at a position, in this order: a king on the Valley wins for its owner; with
 *    locked-king-loses, the player to move loses if his king has no free neighbour; the
 *    ply limit and the third occurrence of the position (same side to move, counted from
 *    the set-up position) draw; a player with no legal move loses;
 *  - 7x7 trap rule: a move is legal only if afterwards the opponent (and with trap=both
 *    the mover too) can still put his king on the Valley within 4 of his own moves while
 *    the other side stands still; a move putting the mover's king on the Valley is
 *    exempt; if the filter removes every move, it is suspended for that turn.
 */
#include "kv_reference.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The 8 slide directions as (file step, rank step). */
static const int DIRS[8][2] = {
    {0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1},
};

static void set_err(char *err, size_t err_len, const char *msg)
{
    if (err != NULL && err_len > 0)
        snprintf(err, err_len, "%s", msg);
}

/* --- rules and start positions ---------------------------------------------------- */

const char *kvref_start_text(const char *game)
{
    if (strcmp(game, "kings-valley") == 0)
        return "sskss/5/5/5/SSKSS 1 0";
    if (strcmp(game, "retrieve-the-king") == 0)
        return "ssKss/5/5/5/SSkSS 1 0";
    if (strcmp(game, "kings-valley-7x7") == 0)
        return "sssksss/7/7/7/7/7/SSSKSSS 1 0";
    if (strcmp(game, "kings-valley-labyrinth") == 0)
        return "sssksss/7/1#3#1/7/1#3#1/7/SSSKSSS 1 0";
    return NULL;
}

/* Reads "on"/"off" into *out; false for anything else. */
static bool read_on_off(const char *value, bool *out)
{
    if (strcmp(value, "on") == 0) {
        *out = true;
        return true;
    }
    if (strcmp(value, "off") == 0) {
        *out = false;
        return true;
    }
    return false;
}

bool kvref_rules_for(const char *game, const char *const *settings, int n_settings,
                     KvRefRules *out, char *err, size_t err_len)
{
    if (kvref_start_text(game) == NULL) {
        set_err(err, err_len, "not a King's Valley game");
        return false;
    }
    bool is_7x7 = strcmp(game, "kings-valley-7x7") == 0;
    KvRefRules r;
    r.pillars = strcmp(game, "kings-valley-labyrinth") == 0;
    r.size = (is_7x7 || r.pillars) ? 7 : 5;
    r.trap = is_7x7 ? KVREF_TRAP_BOTH : KVREF_TRAP_OFF;
    r.first_move_soldier = true;
    r.locked_king_loses = true;
    r.max_plies = 300;
    r.repetition = true;
    r.no_move_draws = false;
    for (int i = 0; i < n_settings; i++) {
        const char *eq = strchr(settings[i], '=');
        if (eq == NULL) {
            set_err(err, err_len, "setting is not name=value");
            return false;
        }
        size_t name_len = (size_t)(eq - settings[i]);
        const char *value = eq + 1;
        bool ok = false;
        if (name_len == 18 && strncmp(settings[i], "first-move-soldier", 18) == 0) {
            ok = read_on_off(value, &r.first_move_soldier);
        } else if (name_len == 17 && strncmp(settings[i], "locked-king-loses", 17) == 0) {
            ok = read_on_off(value, &r.locked_king_loses);
        } else if (name_len == 7 && strncmp(settings[i], "no-move", 7) == 0) {
            ok = strcmp(value, "loss") == 0 || strcmp(value, "draw") == 0;
            r.no_move_draws = strcmp(value, "draw") == 0;
        } else if (name_len == 10 && strncmp(settings[i], "repetition", 10) == 0) {
            ok = read_on_off(value, &r.repetition);
        } else if (name_len == 9 && strncmp(settings[i], "max-plies", 9) == 0) {
            char *end;
            long v = strtol(value, &end, 10);
            ok = end != value && *end == '\0' && v >= 0 && v <= KVREF_MAX_PLIES;
            if (ok)
                r.max_plies = (int)v;
        } else if (is_7x7 && name_len == 4 && strncmp(settings[i], "trap", 4) == 0) {
            ok = true;
            if (strcmp(value, "both") == 0)
                r.trap = KVREF_TRAP_BOTH;
            else if (strcmp(value, "opponent") == 0)
                r.trap = KVREF_TRAP_OPPONENT;
            else if (strcmp(value, "off") == 0)
                r.trap = KVREF_TRAP_OFF;
            else
                ok = false;
        }
        if (!ok) {
            set_err(err, err_len, "unknown option or bad value");
            return false;
        }
    }
    *out = r;
    return true;
}

/* --- position text ---------------------------------------------------------------- */

static int valley(int size)
{
    return size / 2;
}

static bool on_board(int size, int file, int rank)
{
    return file >= 0 && file < size && rank >= 0 && rank < size;
}

bool kvref_parse_position(const KvRefRules *rules, const char *text, KvRefPos *out,
                          char *err, size_t err_len)
{
    KvRefPos pos;
    memset(&pos, 0, sizeof pos);
    pos.size = rules->size;
    const char *p = text;
    int kings[2] = {0, 0};
    for (int rank = pos.size - 1; rank >= 0; rank--) {
        int file = 0;
        while (*p != '\0' && *p != '/' && *p != ' ') {
            char c = *p++;
            if (c >= '1' && c <= '9') {
                for (int k = 0; k < c - '0'; k++) {
                    if (file >= pos.size) {
                        set_err(err, err_len, "rank too long");
                        return false;
                    }
                    pos.cell[rank][file++] = '.';
                }
            } else if (strchr("KSks#", c) != NULL) {
                if (file >= pos.size) {
                    set_err(err, err_len, "rank too long");
                    return false;
                }
                if (c == 'K')
                    kings[0]++;
                if (c == 'k')
                    kings[1]++;
                pos.cell[rank][file++] = c;
            } else {
                set_err(err, err_len, "bad character on the board");
                return false;
            }
        }
        if (file != pos.size) {
            set_err(err, err_len, "rank too short");
            return false;
        }
        if (rank > 0) {
            if (*p != '/') {
                set_err(err, err_len, "expected '/' between ranks");
                return false;
            }
            p++;
        }
    }
    for (int rank = 0; rank < pos.size; rank++) {
        for (int file = 0; file < pos.size; file++) {
            bool pillar_square = rules->pillars && (file == 1 || file == 5) &&
                                 (rank == 2 || rank == 4);
            if ((pos.cell[rank][file] == '#') != pillar_square) {
                set_err(err, err_len, rules->pillars ? "pillars belong on b3, f3, b5, f5"
                                                     : "this board has no pillars");
                return false;
            }
        }
    }
    if (kings[0] != 1 || kings[1] != 1) {
        set_err(err, err_len, "each player needs exactly one king");
        return false;
    }
    char v = pos.cell[valley(pos.size)][valley(pos.size)];
    if (v == 'S' || v == 's' || v == '#') {
        set_err(err, err_len, "only a king may stand on the Valley");
        return false;
    }
    if (p[0] != ' ' || (p[1] != '1' && p[1] != '2') || p[2] != ' ') {
        set_err(err, err_len, "expected ' 1 ' or ' 2 ' after the board");
        return false;
    }
    pos.to_move = p[1] - '1';
    p += 3;
    if (*p < '0' || *p > '9') {
        set_err(err, err_len, "expected the ply count");
        return false;
    }
    long ply = 0;
    while (*p >= '0' && *p <= '9') {
        ply = ply * 10 + (*p++ - '0');
        if (ply > 1000000) {
            set_err(err, err_len, "ply count too large");
            return false;
        }
    }
    if (*p != '\0') {
        set_err(err, err_len, "junk after the ply count");
        return false;
    }
    pos.ply = (int)ply;
    *out = pos;
    return true;
}

void kvref_format_position(const KvRefPos *pos, char *out, size_t cap)
{
    char buf[KVREF_POSITION_TEXT];
    size_t n = 0;
    for (int rank = pos->size - 1; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < pos->size; file++) {
            char c = pos->cell[rank][file];
            if (c == '.') {
                empty++;
                continue;
            }
            if (empty > 0)
                buf[n++] = (char)('0' + empty);
            empty = 0;
            buf[n++] = c;
        }
        if (empty > 0)
            buf[n++] = (char)('0' + empty);
        if (rank > 0)
            buf[n++] = '/';
    }
    buf[n] = '\0';
    snprintf(out, cap, "%s %d %d", buf, pos->to_move + 1, pos->ply);
}

/* --- games and history ------------------------------------------------------------- */

KvRefGame *kvref_game_new(const KvRefRules *rules, const char *text, char *err,
                          size_t err_len)
{
    KvRefPos pos;
    if (!kvref_parse_position(rules, text, &pos, err, err_len))
        return NULL;
    KvRefGame *g = malloc(sizeof *g);
    if (g == NULL) {
        set_err(err, err_len, "out of memory");
        return NULL;
    }
    g->rules = *rules;
    g->count = 1;
    g->history[0] = pos;
    return g;
}

const KvRefPos *kvref_current(const KvRefGame *g)
{
    return &g->history[g->count - 1];
}

/* --- move generation ---------------------------------------------------------------- */

static bool owns(int player, char c)
{
    return player == 0 ? (c == 'K' || c == 'S') : (c == 'k' || c == 's');
}

static bool is_king(char c)
{
    return c == 'K' || c == 'k';
}

/* Slides the piece on (file, rank) in direction d as far as it goes; false if it cannot
 * move at all. */
static bool slide(const KvRefPos *pos, int file, int rank, int d, int *to_file, int *to_rank)
{
    int f = file, r = rank;
    while (on_board(pos->size, f + DIRS[d][0], r + DIRS[d][1]) &&
           pos->cell[r + DIRS[d][1]][f + DIRS[d][0]] == '.') {
        f += DIRS[d][0];
        r += DIRS[d][1];
    }
    *to_file = f;
    *to_rank = r;
    return f != file || r != rank;
}

/* Every slide of `player` obeying the piece rules (soldiers never end on the Valley);
 * kings only if kings_may_move. Returns the count. */
static int slides_of(const KvRefPos *pos, int player, bool kings_may_move, KvRefMove *out)
{
    int n = 0;
    int v = valley(pos->size);
    for (int rank = 0; rank < pos->size; rank++) {
        for (int file = 0; file < pos->size; file++) {
            char c = pos->cell[rank][file];
            if (!owns(player, c))
                continue;
            if (is_king(c) && !kings_may_move)
                continue;
            for (int d = 0; d < 8; d++) {
                int tf, tr;
                if (!slide(pos, file, rank, d, &tf, &tr))
                    continue;
                if (!is_king(c) && tf == v && tr == v)
                    continue;
                out[n++] = (KvRefMove){file, rank, tf, tr};
            }
        }
    }
    return n;
}

/* The position after m, with the other player to move and one more ply. */
static KvRefPos after(const KvRefPos *pos, KvRefMove m)
{
    KvRefPos next = *pos;
    next.cell[m.to_rank][m.to_file] = pos->cell[m.from_rank][m.from_file];
    next.cell[m.from_rank][m.from_file] = '.';
    next.to_move = 1 - pos->to_move;
    next.ply = pos->ply + 1;
    return next;
}

static bool king_of(const KvRefPos *pos, int player, int *file, int *rank)
{
    char k = player == 0 ? 'K' : 'k';
    for (int r = 0; r < pos->size; r++)
        for (int f = 0; f < pos->size; f++)
            if (pos->cell[r][f] == k) {
                *file = f;
                *rank = r;
                return true;
            }
    return false;
}

/* Can `player`, whose king stands on (kf, kr), put it on the Valley within `moves_left`
 * of his own moves, the opponent frozen (R-KV-16: no end-of-game tests on the way)?
 * Each hypothetical move is made on the grid and taken back before the next one. */
static bool reach(KvRefPos *pos, int player, int kf, int kr, int moves_left)
{
    int v = valley(pos->size);
    for (int d = 0; d < 8; d++) {
        int tf, tr;
        if (slide(pos, kf, kr, d, &tf, &tr) && tf == v && tr == v)
            return true;
    }
    if (moves_left <= 1)
        return false;
    KvRefMove moves[KVREF_MAX_MOVES];
    int n = slides_of(pos, player, true, moves);
    for (int i = 0; i < n; i++) {
        KvRefMove m = moves[i];
        char piece = pos->cell[m.from_rank][m.from_file];
        pos->cell[m.to_rank][m.to_file] = piece;
        pos->cell[m.from_rank][m.from_file] = '.';
        bool king = is_king(piece);
        bool ok = reach(pos, player, king ? m.to_file : kf, king ? m.to_rank : kr,
                        moves_left - 1);
        pos->cell[m.from_rank][m.from_file] = piece;
        pos->cell[m.to_rank][m.to_file] = '.';
        if (ok)
            return true;
    }
    return false;
}

/* reach() from the start of the hypothetical: `player` moves next, `moves` of his own. */
static bool can_reach(const KvRefPos *pos, int player, int moves)
{
    KvRefPos scratch = *pos;
    int kf, kr;
    if (!king_of(&scratch, player, &kf, &kr))
        return false;
    return reach(&scratch, player, kf, kr, moves);
}

/* The first-move rule: the king stays put on ply 0. */
static bool kings_may_move(const KvRefRules *rules, const KvRefPos *pos)
{
    return !(rules->first_move_soldier && pos->ply == 0);
}

/* Every move of the player to move before any end-of-game test: the piece rules, the
 * first-move rule, then the 7x7 trap filter with its fallback. */
static int candidate_moves(const KvRefRules *rules, const KvRefPos *pos, KvRefMove *out)
{
    int me = pos->to_move;
    KvRefMove all[KVREF_MAX_MOVES];
    int n = slides_of(pos, me, kings_may_move(rules, pos), all);
    if (rules->trap == KVREF_TRAP_OFF) {
        memcpy(out, all, sizeof all[0] * (size_t)n);
        return n;
    }
    int v = valley(pos->size);
    int kept = 0;
    for (int i = 0; i < n; i++) {
        KvRefMove m = all[i];
        bool wins = is_king(pos->cell[m.from_rank][m.from_file]) && m.to_file == v &&
                    m.to_rank == v;
        KvRefPos next = after(pos, m);
        bool ok = wins || (can_reach(&next, 1 - me, KVREF_TRAP_DEPTH) &&
                           (rules->trap == KVREF_TRAP_OPPONENT ||
                            can_reach(&next, me, KVREF_TRAP_DEPTH)));
        if (ok)
            out[kept++] = m;
    }
    if (kept == 0) {
        /* The filter may not leave a player without a move (R-KV-18 fallback). */
        memcpy(out, all, sizeof all[0] * (size_t)n);
        return n;
    }
    return kept;
}

static bool same_position(const KvRefPos *a, const KvRefPos *b)
{
    if (a->size != b->size || a->to_move != b->to_move)
        return false;
    for (int r = 0; r < a->size; r++)
        for (int f = 0; f < a->size; f++)
            if (a->cell[r][f] != b->cell[r][f])
                return false;
    return true;
}

static bool king_locked(const KvRefPos *pos, int player)
{
    int kf, kr;
    if (!king_of(pos, player, &kf, &kr))
        return false;
    for (int d = 0; d < 8; d++) {
        int f = kf + DIRS[d][0], r = kr + DIRS[d][1];
        if (on_board(pos->size, f, r) && pos->cell[r][f] == '.')
            return false;
    }
    return true;
}

int kvref_occurrences(const KvRefGame *g)
{
    const KvRefPos *pos = kvref_current(g);
    int seen = 0;
    for (int i = 0; i < g->count; i++)
        if (same_position(&g->history[i], pos))
            seen++;
    return seen;
}

KvRefResult kvref_result(const KvRefGame *g, const char **reason)
{
    const KvRefPos *pos = kvref_current(g);
    int v = valley(pos->size);
    const char *why = "";
    KvRefResult res = KVREF_ONGOING;
    KvRefResult mover_loses = pos->to_move == 0 ? KVREF_SECOND_WINS : KVREF_FIRST_WINS;
    KvRefMove moves[KVREF_MAX_MOVES];
    if (pos->cell[v][v] == 'K' || pos->cell[v][v] == 'k') {
        res = pos->cell[v][v] == 'K' ? KVREF_FIRST_WINS : KVREF_SECOND_WINS;
        why = "king on the Valley";
    } else if (g->rules.locked_king_loses && king_locked(pos, pos->to_move)) {
        res = mover_loses;
        why = "king locked";
    } else if (pos->ply >= g->rules.max_plies) {
        res = KVREF_DRAW;
        why = "ply limit";
    } else if (g->rules.repetition && kvref_occurrences(g) >= 3) {
        res = KVREF_DRAW;
        why = "threefold repetition";
    } else if (slides_of(pos, pos->to_move, kings_may_move(&g->rules, pos), moves) == 0) {
        /* The trap filter never empties a non-empty list (fallback), so the unfiltered
         * slides decide this. */
        res = g->rules.no_move_draws ? KVREF_DRAW : mover_loses;
        why = "no legal move";
    }
    if (reason != NULL)
        *reason = why;
    return res;
}

int kvref_legal_moves(const KvRefGame *g, KvRefMove *out)
{
    if (kvref_result(g, NULL) != KVREF_ONGOING)
        return 0;
    return candidate_moves(&g->rules, kvref_current(g), out);
}

void kvref_play(KvRefGame *g, KvRefMove m)
{
    if (g->count >= KVREF_MAX_HISTORY) {
        fprintf(stderr, "kv_reference: history full\n");
        abort();
    }
    g->history[g->count] = after(kvref_current(g), m);
    g->count++;
}

void kvref_undo(KvRefGame *g)
{
    if (g->count > 1)
        g->count--;
}

/* --- move text and perft -------------------------------------------------------------- */

void kvref_format_move(KvRefMove m, char out[KVREF_MOVE_TEXT])
{
    out[0] = (char)('a' + m.from_file);
    out[1] = (char)('1' + m.from_rank);
    out[2] = '-';
    out[3] = (char)('a' + m.to_file);
    out[4] = (char)('1' + m.to_rank);
    out[5] = '\0';
}

bool kvref_parse_move(int size, const char *text, KvRefMove *out)
{
    if (strlen(text) != 5 || text[2] != '-')
        return false;
    KvRefMove m = {text[0] - 'a', text[1] - '1', text[3] - 'a', text[4] - '1'};
    if (!on_board(size, m.from_file, m.from_rank) || !on_board(size, m.to_file, m.to_rank))
        return false;
    *out = m;
    return true;
}

bool kvref_find_move(const KvRefGame *g, const char *text, KvRefMove *out)
{
    KvRefMove m;
    if (!kvref_parse_move(g->rules.size, text, &m))
        return false;
    KvRefMove moves[KVREF_MAX_MOVES];
    int n = kvref_legal_moves(g, moves);
    for (int i = 0; i < n; i++) {
        if (memcmp(&moves[i], &m, sizeof m) == 0) {
            *out = m;
            return true;
        }
    }
    return false;
}

uint64_t kvref_perft(KvRefGame *g, int depth)
{
    if (depth <= 0)
        return 1;
    KvRefMove moves[KVREF_MAX_MOVES];
    int n = kvref_legal_moves(g, moves);
    if (depth == 1)
        return (uint64_t)n;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        kvref_play(g, moves[i]);
        total += kvref_perft(g, depth - 1);
        kvref_undo(g);
    }
    return total;
}
