/*
 * kc_rules.c - King's Castle move generation, make/unmake, the Throne and the end of
 * the game, as docs/games/kings-castle.md settles them.
 *
 * A turn is one action: a placement, the swap, or a slide of k men (k = 1 for a single,
 * k >= 2 for a phalanx or sub-phalanx) in a direction over m cells. Throws, captures and
 * the Throne follow from the action inside make. The result of a position is settled
 * when it is reached, so gen_moves is empty exactly when the game is over.
 *
 * Why a position never offers more than MOVELIST_CAP moves: along one straight line of
 * the board, a friendly run of L men with g non-friendly cells ahead of its front gives
 * at most sum over k = 2..L of min(k, g) phalanx moves that way (g moves for a single),
 * and the runs on a line share its cells. Maximising that over every pattern of men on
 * every line of the three axes (tests/test_kings_castle_rules.c does it) bounds the
 * slides of a position by 468; placements add at most 78 and the swap 1.
 */
#include "games/kingscastle/kc_internal.h"

uint64_t kc_compute_hash(const KcConfig *c, const KcState *s)
{
    uint64_t h = s->turn ? c->zobrist_black : 0;
    for (int p = 0; p < 2; p++) {
        Bb128 men = kc_men(s, p);
        while (men)
            h ^= c->zobrist[p][bb128_pop(&men)];
    }
    return h;
}

void kc_start_history(const KcConfig *c, KcState *s)
{
    rep_history_init(&s->hist, s->history, c->hist_cap, c->repetition);
    rep_history_push(&s->hist, s->history, s->hash);
}

/* Whether `men` holds both cells of some opposite pair of inner cells. */
static inline bool flanks(const KcConfig *c, Bb128 men)
{
    for (int i = 0; i < 3; i++)
        if ((men & c->pair_mask[i]) == c->pair_mask[i])
            return true;
    return false;
}

/* The cells of the opposite pairs that `men` holds completely. */
static inline Bb128 flanking_cells(const KcConfig *c, Bb128 men)
{
    Bb128 cells = 0;
    for (int i = 0; i < 3; i++)
        if ((men & c->pair_mask[i]) == c->pair_mask[i])
            cells |= c->pair_mask[i];
    return cells;
}

Bb128 kc_placements(const KcConfig *c, const KcState *s)
{
    const Bb128 own = kc_men(s, s->turn) & ~c->throne_bit;
    const Bb128 occ = kc_men(s, 0) | kc_men(s, 1);
    return c->outside & ~occ & ~kc_neighbours(c, own);
}

bool kc_throne_move_ok(const KcConfig *c, const KcState *s)
{
    if (!c->throne_by_move || s->result != KC_PLAYING)
        return false;
    const Bb128 occ = kc_men(s, 0) | kc_men(s, 1);
    return !bb128_has(occ, KC_THRONE) && flanks(c, kc_men(s, s->turn));
}

bool kc_swap_ok(const KcConfig *c, const KcState *s)
{
    return c->swap && s->result == KC_PLAYING && s->ply == 1 && s->turn == 1 &&
           kc_men(s, 1) == 0 && bb128_count(kc_men(s, 0)) == 1;
}

/* Single moves of the man on `from` in direction d: every empty cell along the open
 * line, never through a wall, never onto the Throne nor (unless single-throne=cross) over
 * it, never from an outside cell into the Castle. */
static int gen_single(const KcConfig *c, int from, int d, Bb128 occ, Move *out)
{
    int n = 0, x = from, dist = 0;
    for (;;) {
        const int y = c->step[d][x];
        if (y < 0 || (y == KC_THRONE && !c->single_cross) || bb128_has(occ, y) ||
            (!bb128_has(c->castle, x) && bb128_has(c->castle, y)))
            break;
        dist++;
        x = y;
        if (!c->single_full && x != KC_THRONE)
            out[n++] = kc_slide(from, d, 1, dist);
    }
    if (c->single_full && dist > 0 && x != KC_THRONE)
        out[n++] = kc_slide(from, d, 1, dist);
    return n;
}

/* Phalanx moves with front man `front` travelling in direction d, when the front is the
 * end of a line of L >= 2 men. For each part of k = 2..L men (the whole line, or the end
 * part nearest the front, which moves away from the rest), the front may go 1..k cells
 * while each cell it enters is on the board, not across a wall, not the Throne and not a
 * friendly man, and every opposing run it enters is shorter than k. */
static int gen_phalanx(const KcConfig *c, int front, int d, int L, Bb128 own, Bb128 opp,
                       Move *out)
{
    // The open cells ahead: free_len of them, with the opposing runs among them.
    int run_start[KC_MAX_LINE], run_len[KC_MAX_LINE], runs = 0;
    int free_len = 0;
    bool in_run = false;
    for (int x = front;;) {
        const int y = c->step[d][x];
        if (y < 0 || y == KC_THRONE || bb128_has(own, y))
            break;
        free_len++;
        if (bb128_has(opp, y)) {
            if (!in_run) {
                run_start[runs] = free_len;
                run_len[runs++] = 0;
            }
            run_len[runs - 1]++;
            in_run = true;
        } else {
            in_run = false;
        }
        x = y;
    }
    int n = 0;
    for (int k = 2; k <= L; k++) {
        int limit = k < free_len ? k : free_len;
        for (int i = 0; i < runs; i++) {
            if (run_len[i] >= k) {
                // The front stops before such a line, or (capture-limit=entered) before
                // entering its k-th man.
                const int stop = run_start[i] - 1 + (c->capture_entered ? k - 1 : 0);
                if (stop < limit)
                    limit = stop;
                break;
            }
        }
        for (int m = 1; m <= limit; m++)
            out[n++] = kc_slide(front, d, k, m);
    }
    return n;
}

int kc_gen_slides(const KcConfig *c, const KcState *s, Move *out)
{
    const int p = s->turn;
    const Bb128 own = kc_men(s, p) & ~c->throne_bit;
    const Bb128 opp = kc_men(s, 1 - p);
    const Bb128 occ = own | opp;
    const Bb128 grouped = own & kc_neighbours(c, own);
    int n = 0;
    Bb128 singles = own & ~grouped;
    while (singles) {
        const int x = bb128_pop(&singles);
        for (int d = 0; d < KC_DIRS; d++)
            n += gen_single(c, x, d, occ, out + n);
    }
    // The fronts that way: men of a line along d's axis with no friendly man ahead.
    for (int d = 0; d < KC_DIRS; d++) {
        const int back = (d + 3) % KC_DIRS;
        const Bb128 has_behind = own & bb128_shift(own & c->conn_from[d], c->delta[d]);
        const Bb128 has_ahead = own & bb128_shift(own & c->conn_from[back], c->delta[back]);
        Bb128 fronts = has_behind & ~has_ahead;
        while (fronts) {
            const int x = bb128_pop(&fronts);
            int L = 1;
            for (int y = c->step[back][x]; y >= 0 && bb128_has(own, y); y = c->step[back][y])
                L++;
            n += gen_phalanx(c, x, d, L, own, opp, out + n);
        }
    }
    return n;
}

int kc_gen_moves(const KcConfig *c, const KcState *s, Move *out)
{
    if (s->result != KC_PLAYING)
        return 0;
    int n = 0;
    Bb128 places = kc_placements(c, s);
    if (kc_throne_move_ok(c, s))
        places |= c->throne_bit;
    while (places)
        out[n++] = kc_place(bb128_pop(&places));
    if (kc_swap_ok(c, s))
        out[n++] = kc_swap_move();
    return n + kc_gen_slides(c, s, out + n);
}

/* The cells a slide passes, from its rear man to where its front ends: path[0..k-1] are
 * the moving men before the move, path[m..m+k-1] after it. Returns k + m. */
static int slide_path(const KcConfig *c, Move m, int path[2 * KC_MAX_LINE])
{
    const int d = kc_dir(m), k = kc_k(m), dist = kc_m(m);
    int rear = kc_cell(m);
    for (int i = 1; i < k; i++)
        rear = c->step[(d + 3) % KC_DIRS][rear];
    int x = rear;
    for (int i = 0; i < k + dist; i++) {
        path[i] = x;
        x = c->step[d][x];
    }
    return k + dist;
}

Bb128 kc_slide_captures(const KcConfig *c, const KcState *s, Move m, int *thrown)
{
    *thrown = -1;
    if (kc_kind(m) != KC_SLIDE)
        return 0;
    const Bb128 opp = kc_men(s, 1 - s->turn);
    int path[2 * KC_MAX_LINE];
    const int len = slide_path(c, m, path);
    const int k = kc_k(m);
    if (k == 1) {
        const int to = path[len - 1];
        const int beyond = c->step[kc_dir(m)][to];
        if (beyond >= 0 && beyond != KC_THRONE && bb128_has(opp, beyond))
            *thrown = beyond;
        return 0;
    }
    Bb128 entered = 0;
    for (int i = k; i < len; i++)
        entered |= bb128_bit(path[i]);
    return entered & opp;
}

static bool has_any_move(const KcConfig *c, const KcState *s)
{
    if (kc_placements(c, s) || kc_swap_ok(c, s) || kc_throne_move_ok(c, s))
        return true;
    Move moves[KC_MOVE_CAP];
    return kc_gen_slides(c, s, moves) > 0;
}

void kc_settle(const KcConfig *c, KcState *s)
{
    const int p = s->turn;
    s->result = KC_PLAYING;
    s->reason = KC_REASON_NONE;
    if (bb128_has(kc_men(s, p), KC_THRONE)) {
        s->result = (uint8_t)(p == 0 ? KC_WHITE_WINS : KC_BLACK_WINS);
        s->reason = KC_REASON_THRONE;
        return;
    }
    if (c->repetition && rep_history_threefold(&s->hist, s->history)) {
        s->result = KC_DRAW;
        s->reason = KC_REASON_REPETITION;
        return;
    }
    if (s->ply >= c->max_plies) {
        s->result = KC_DRAW;
        s->reason = KC_REASON_PLY_LIMIT;
        return;
    }
    if (!has_any_move(c, s)) {
        s->result = (uint8_t)(c->no_move_draw ? KC_DRAW : p == 0 ? KC_BLACK_WINS : KC_WHITE_WINS);
        s->reason = KC_REASON_NO_MOVE;
    }
}

/* Xors the keys of the cells where a player's men changed. */
static inline uint64_t hash_diff(const KcConfig *c, int p, Bb128 changed)
{
    uint64_t h = 0;
    while (changed)
        h ^= c->zobrist[p][bb128_pop(&changed)];
    return h;
}

/* What move m of the player to move leaves on the board: his men and the opponent's,
 * throws, captures and the Throne (R-KC-16, R-KC-17) included. *captured gets the men
 * a phalanx took. Shared by make and kc_move_effect, so that the search's view of a
 * move is the move itself. */
static inline void move_effect(const KcConfig *c, const KcState *s, Move m, Bb128 *own_out,
                               Bb128 *opp_out, Bb128 *captured_out)
{
    const int p = s->turn, o = 1 - p;
    const Bb128 opp0 = kc_men(s, o);
    Bb128 own = kc_men(s, p), opp = opp0, captured = 0;
    switch (kc_kind(m)) {
    case KC_PLACE:
        own |= bb128_bit(kc_cell(m));
        break;
    case KC_SWAP:
        own = opp;
        opp = 0;
        break;
    default: {
        int path[2 * KC_MAX_LINE];
        const int len = slide_path(c, m, path);
        const int k = kc_k(m);
        if (k == 1) {
            // A single; it throws an opposing man just beyond its final cell (no wall
            // between) onto the last cell it traversed. The Throne man is never thrown.
            const int to = path[len - 1];
            own ^= bb128_bit(path[0]) | bb128_bit(to);
            const int beyond = c->step[kc_dir(m)][to];
            if (beyond >= 0 && beyond != KC_THRONE && bb128_has(opp, beyond))
                opp ^= bb128_bit(beyond) | bb128_bit(path[len - 2]);
        } else {
            Bb128 before = 0, after = 0, entered = 0;
            for (int i = 0; i < k; i++)
                before |= bb128_bit(path[i]);
            for (int i = len - k; i < len; i++)
                after |= bb128_bit(path[i]);
            for (int i = k; i < len; i++)
                entered |= bb128_bit(path[i]);
            own = (own & ~before) | after;
            captured = opp & entered;
            opp &= ~captured;
        }
        break;
    }
    }
    // The Throne (R-KC-16 to R-KC-19): the opponent's Throne man goes first, when this
    // move captured a man of one of his complete flanking pairs (or, with
    // throne-loss=broken, broke such a pair by any means); then the mover takes the
    // empty Throne if he flanks it.
    if (bb128_has(opp, KC_THRONE)) {
        const Bb128 pairs = flanking_cells(c, opp0);
        const bool lost = c->loss_if_broken ? (flanking_cells(c, opp) & pairs) != pairs
                                            : (captured & pairs) != 0;
        if (lost)
            opp &= ~c->throne_bit;
    }
    if (!c->throne_by_move && !bb128_has(own | opp, KC_THRONE) && flanks(c, own))
        own |= c->throne_bit;
    *own_out = own;
    *opp_out = opp;
    *captured_out = captured;
}

void kc_move_effect(const KcConfig *c, const KcState *s, Move m, Bb128 *own, Bb128 *opp,
                    Bb128 *captured)
{
    move_effect(c, s, m, own, opp, captured);
}

void kc_make(const KcConfig *c, KcState *s, Move m, KcUndo *u)
{
    const int p = s->turn, o = 1 - p;
    for (int i = 0; i < 2; i++) {
        u->men[i][0] = s->men[i][0];
        u->men[i][1] = s->men[i][1];
    }
    u->hash = s->hash;
    u->result = s->result;
    u->reason = s->reason;

    const Bb128 own0 = kc_men(s, p), opp0 = kc_men(s, o);
    Bb128 own, opp, captured;
    move_effect(c, s, m, &own, &opp, &captured);
    s->hash ^= hash_diff(c, p, own ^ own0) ^ hash_diff(c, o, opp ^ opp0) ^ c->zobrist_black;
    kc_set_men(s, p, own);
    kc_set_men(s, o, opp);
    s->turn = (uint8_t)o;
    s->ply++;
    rep_history_push(&s->hist, s->history, s->hash);
    kc_settle(c, s);
}

void kc_unmake(KcState *s, Move m, const KcUndo *u)
{
    (void)m;
    s->turn ^= 1;
    s->ply--;
    rep_history_pop(&s->hist, s->history);
    for (int i = 0; i < 2; i++) {
        s->men[i][0] = u->men[i][0];
        s->men[i][1] = u->men[i][1];
    }
    s->hash = u->hash;
    s->result = u->result;
    s->reason = u->reason;
}
