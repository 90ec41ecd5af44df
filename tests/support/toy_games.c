/*
 * toy_games.c - the toy games of toy_games.h. Each state is a small struct reached
 * through a cast of the opaque GameState (one file holds several games, so none of them
 * can own `struct GameState`); undo records are whole copies of the state.
 */
#include "toy_games.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "core/rng.h"

/* ---------------------------------------------------------------------------------- */
/* Shared helpers                                                                       */
/* ---------------------------------------------------------------------------------- */

static uint64_t mix(uint64_t x)
{
    return rng_mix(&x);
}

static void copy_undo(const Game *g, const GameState *s, void *undo)
{
    memcpy(undo, s, g->state_size);
}

static void toy_unmake(const Game *g, GameState *s, Move m, const void *undo)
{
    (void)m;
    memcpy(s, undo, g->state_size);
}

static void free_config(Game *g)
{
    free(g->config);
    g->config = NULL;
}

/* The hooks every toy game fills from its own P_ functions (its tables add the rest). */
#define TOY_HOOKS(P)                                                                      \
    .new_game = P##_new_game, .parse_position = P##_parse_position,                       \
    .format_position = P##_format_position, .parse_move = P##_parse_move,                 \
    .to_move = P##_to_move, .gen_moves = P##_gen_moves, .make = P##_make,                 \
    .unmake = toy_unmake, .returns = P##_returns, .describe_result = P##_describe_result, \
    .hash = P##_hash, .move_index = P##_move_index, .is_ok = P##_is_ok, .render = P##_render

/* Reads a whole decimal number at *p (advancing it); false if there is none. */
static bool read_int(const char **p, long *out)
{
    char *end;
    long v = strtol(*p, &end, 10);
    if (end == *p)
        return false;
    *p = end;
    *out = v;
    return true;
}

/* ---------------------------------------------------------------------------------- */
/* Nim and two-step Nim                                                                 */
/* ---------------------------------------------------------------------------------- */

typedef struct NimConfig {
    int stones, take, actions;
} NimConfig;

typedef struct NimState {
    int32_t heap;
    int32_t turn;   /* player to act */
    int32_t left;   /* actions left in this turn, counting the next */
    int32_t winner; /* -1 while playing */
} NimState;

static NimState *nim(GameState *s)
{
    return (NimState *)(void *)s;
}

static const NimState *cnim(const GameState *s)
{
    return (const NimState *)(const void *)s;
}

static const NimConfig *nim_cfg(const Game *g)
{
    return g->config;
}

static const RuleOption nim_options[] = {
    {"stones", "Stones", "stones on the heap at the start", "21", NULL, 1, 200, RULE_INTEGER,
     RULE_MAIN},
    {"take", "Most stones a take", "most stones one action takes", "3", NULL, 1, 9, RULE_INTEGER,
     RULE_MAIN},
    {"actions", "Actions a turn", "actions in one turn", "1", NULL, 1, 4, RULE_INTEGER, RULE_MAIN},
};

static const RuleOption twostep_options[] = {
    {"stones", "Stones", "stones on the heap at the start", "21", NULL, 1, 200, RULE_INTEGER,
     RULE_MAIN},
    {"take", "Most stones a take", "most stones one action takes", "2", NULL, 1, 9, RULE_INTEGER,
     RULE_MAIN},
    {"actions", "Actions a turn", "actions in one turn", "2", NULL, 1, 4, RULE_INTEGER, RULE_MAIN},
};

static Status nim_configure(Game *g, ErrBuf *err)
{
    NimConfig *c = malloc(sizeof *c);
    if (c == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    c->stones = (int)game_option_long(g, "stones", 21);
    c->take = (int)game_option_long(g, "take", 3);
    c->actions = (int)game_option_long(g, "actions", 1);
    g->config = c;
    g->state_size = sizeof(NimState);
    g->undo_size = sizeof(NimState);
    g->move_index_count = c->take;
    g->max_game_length = c->stones;
    return STATUS_OK;
}

static void nim_new_game(const Game *g, GameState *s, uint64_t seed)
{
    (void)seed;
    NimState *n = nim(s);
    memset(n, 0, sizeof *n);
    n->heap = nim_cfg(g)->stones;
    n->turn = 0;
    n->left = nim_cfg(g)->actions;
    n->winner = -1;
}

static Status nim_parse_position(const Game *g, GameState *s, const char *text, ErrBuf *err)
{
    const NimConfig *c = nim_cfg(g);
    long heap, turn, left = c->actions;
    const char *p = text;
    if (!read_int(&p, &heap) || !read_int(&p, &turn))
        return err_set(err, STATUS_PARSE, "a nim position is '<heap> <player> [<left>]'");
    if (*p != '\0' && !read_int(&p, &left))
        return err_set(err, STATUS_PARSE, "bad actions-left count in '%s'", text);
    if (*p != '\0' || heap < 0 || heap > c->stones || turn < 0 || turn > 1 || left < 1 ||
        left > c->actions)
        return err_set(err, STATUS_PARSE, "bad nim position '%s'", text);
    NimState n;
    memset(&n, 0, sizeof n);
    n.heap = (int32_t)heap;
    n.turn = (int32_t)turn;
    n.left = (int32_t)left;
    // An empty heap was emptied by the other player, at the end of his turn.
    n.winner = heap == 0 ? 1 - n.turn : -1;
    memcpy(s, &n, sizeof n);
    return STATUS_OK;
}

static void nim_format_position(const Game *g, const GameState *s, StrBuf *out)
{
    (void)g;
    const NimState *n = cnim(s);
    sb_printf(out, "%d %d %d", (int)n->heap, (int)n->turn, (int)n->left);
}

static Status nim_parse_move(const Game *g, const GameState *s, const char *text, Move *out,
                             ErrBuf *err)
{
    const NimState *n = cnim(s);
    if (text[0] < '1' || text[0] > '9' || text[1] != '\0')
        return err_set(err, STATUS_PARSE, "a nim move is a digit 1-9");
    const int k = text[0] - '0';
    if (n->winner >= 0 || k > nim_cfg(g)->take || k > n->heap)
        return err_set(err, STATUS_ILLEGAL, "cannot take %d here", k);
    *out = (Move)k;
    return STATUS_OK;
}

static void nim_format_move(const Game *g, const GameState *s, Move m, StrBuf *out)
{
    (void)g;
    (void)s;
    sb_printf(out, "%u", (unsigned)m);
}

static int nim_to_move(const Game *g, const GameState *s)
{
    (void)g;
    const NimState *n = cnim(s);
    return n->winner >= 0 ? PLAYER_NONE : n->turn;
}

static int nim_gen_moves(const Game *g, const GameState *s, MoveList *out)
{
    const NimState *n = cnim(s);
    out->count = 0;
    if (n->winner >= 0)
        return 0;
    for (int k = 1; k <= nim_cfg(g)->take && k <= n->heap; k++)
        out->moves[out->count++] = (Move)k;
    return out->count;
}

static void nim_make(const Game *g, GameState *s, Move m, void *undo)
{
    copy_undo(g, s, undo);
    NimState *n = nim(s);
    n->heap -= (int32_t)m;
    if (n->heap == 0) {
        n->winner = n->turn;
        n->turn = 1 - n->turn;
        n->left = nim_cfg(g)->actions;
    } else if (--n->left == 0) {
        n->turn = 1 - n->turn;
        n->left = nim_cfg(g)->actions;
    }
}

static void nim_returns(const Game *g, const GameState *s, double out[MAX_PLAYERS])
{
    (void)g;
    const NimState *n = cnim(s);
    for (int i = 0; i < MAX_PLAYERS; i++)
        out[i] = 0;
    if (n->winner >= 0) {
        out[n->winner] = 1;
        out[1 - n->winner] = -1;
    }
}

static void nim_describe_result(const Game *g, const GameState *s, StrBuf *out)
{
    (void)g;
    if (cnim(s)->winner >= 0)
        sb_printf(out, "player %d took the last stone", (int)cnim(s)->winner + 1);
}

static uint64_t nim_hash(const Game *g, const GameState *s)
{
    (void)g;
    const NimState *n = cnim(s);
    return mix((uint64_t)n->heap << 16 | (uint64_t)n->turn << 8 | (uint64_t)n->left);
}

static int nim_move_index(const Game *g, const GameState *s, Move m)
{
    (void)g;
    (void)s;
    return (int)m - 1;
}

static bool nim_is_ok(const Game *g, const GameState *s, ErrBuf *err)
{
    const NimState *n = cnim(s);
    if (n->heap < 0 || n->turn < 0 || n->turn > 1 || n->left < 1 || n->left > nim_cfg(g)->actions ||
        (n->heap == 0) != (n->winner >= 0)) {
        err_set(err, STATUS_ILLEGAL, "inconsistent nim state");
        return false;
    }
    return true;
}

static void nim_render(const Game *g, const GameState *s, unsigned flags, StrBuf *out)
{
    (void)g;
    (void)flags;
    const NimState *n = cnim(s);
    sb_printf(out, "heap %d, player %d to act (%d left)\n", (int)n->heap, (int)n->turn + 1,
              (int)n->left);
}

static int nim_evaluate(const Game *g, const GameState *s)
{
    (void)g;
    (void)s;
    return 0;
}

/* Nim and its two-action form differ only in their options (the options make the turns). */
#define NIM_OPS(NAME, SUMMARY, OPTIONS)                                                    \
    {                                                                                      \
        .name = NAME, .summary = SUMMARY, .min_players = 2, .max_players = 2,              \
        .flags = GAME_PERFECT_INFO | GAME_ZERO_SUM, .options = OPTIONS, .option_count = 3, \
        .configure = nim_configure, .release = free_config, TOY_HOOKS(nim),                \
        .format_move = nim_format_move, .evaluate = nim_evaluate,                          \
    }

const GameOps toy_nim_ops =
    NIM_OPS("toy-nim", "take 1-3 stones; the last stone wins", nim_options);
const GameOps toy_twostep_ops =
    NIM_OPS("toy-twostep", "two actions per turn, each taking 1-2 stones; the last stone wins",
            twostep_options);

/* ---------------------------------------------------------------------------------- */
/* Tic-tac-toe                                                                          */
/* ---------------------------------------------------------------------------------- */

enum { TTT_PLAYING = -1, TTT_DRAW = 2 };

typedef struct TttState {
    uint8_t cell[9]; /* 0 empty, 1 x, 2 o */
    uint8_t turn;    /* 0: x, 1: o */
    int8_t result;   /* TTT_PLAYING, the winner, or TTT_DRAW */
    uint8_t filled;
} TttState;

static const uint8_t ttt_lines[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6},
                                        {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};

static TttState *ttt(GameState *s)
{
    return (TttState *)(void *)s;
}

static const TttState *cttt(const GameState *s)
{
    return (const TttState *)(const void *)s;
}

static Status ttt_configure(Game *g, ErrBuf *err)
{
    (void)err;
    g->config = NULL;
    g->state_size = sizeof(TttState);
    g->undo_size = sizeof(TttState);
    g->move_index_count = 9;
    g->max_game_length = 9;
    return STATUS_OK;
}

static void ttt_release(Game *g)
{
    (void)g;
}

static void ttt_new_game(const Game *g, GameState *s, uint64_t seed)
{
    (void)g;
    (void)seed;
    TttState *t = ttt(s);
    memset(t, 0, sizeof *t);
    t->result = TTT_PLAYING;
}

/* The result after a mark of `mark` (1 or 2) at cell c. */
static int8_t ttt_result_after(const TttState *t, int c)
{
    const uint8_t mark = t->cell[c];
    for (int l = 0; l < 8; l++) {
        const uint8_t *ln = ttt_lines[l];
        if ((ln[0] == c || ln[1] == c || ln[2] == c) && t->cell[ln[0]] == mark &&
            t->cell[ln[1]] == mark && t->cell[ln[2]] == mark)
            return (int8_t)(mark - 1);
    }
    return t->filled == 9 ? TTT_DRAW : TTT_PLAYING;
}

/* The result of a whole board, and whether it is possible (at most one winner). */
static bool ttt_result_of(const TttState *t, int8_t *result)
{
    int wins[3] = {0, 0, 0};
    for (int l = 0; l < 8; l++) {
        const uint8_t *ln = ttt_lines[l];
        const uint8_t a = t->cell[ln[0]];
        if (a != 0 && a == t->cell[ln[1]] && a == t->cell[ln[2]])
            wins[a]++;
    }
    if (wins[1] && wins[2])
        return false;
    *result = wins[1] ? 0 : wins[2] ? 1 : t->filled == 9 ? TTT_DRAW : TTT_PLAYING;
    return true;
}

static Status ttt_parse_position(const Game *g, GameState *s, const char *text, ErrBuf *err)
{
    (void)g;
    TttState t;
    memset(&t, 0, sizeof t);
    int xs = 0, os = 0;
    for (int i = 0; i < 9; i++) {
        const char ch = text[i];
        if (ch == 'x') {
            t.cell[i] = 1;
            xs++;
        } else if (ch == 'o') {
            t.cell[i] = 2;
            os++;
        } else if (ch != '.') {
            return err_set(err, STATUS_PARSE, "a tic-tac-toe position is 9 of x o . then x|o");
        }
    }
    if (text[9] != ' ' || (text[10] != 'x' && text[10] != 'o') || text[11] != '\0')
        return err_set(err, STATUS_PARSE, "a tic-tac-toe position is 9 of x o . then x|o");
    t.turn = text[10] == 'x' ? 0 : 1;
    t.filled = (uint8_t)(xs + os);
    if (xs - os != t.turn || !ttt_result_of(&t, &t.result))
        return err_set(err, STATUS_ILLEGAL, "impossible tic-tac-toe position '%s'", text);
    memcpy(s, &t, sizeof t);
    return STATUS_OK;
}

static void ttt_format_position(const Game *g, const GameState *s, StrBuf *out)
{
    (void)g;
    const TttState *t = cttt(s);
    for (int i = 0; i < 9; i++)
        sb_putc(out, ".xo"[t->cell[i]]);
    sb_printf(out, " %c", t->turn == 0 ? 'x' : 'o');
}

static Status ttt_parse_move(const Game *g, const GameState *s, const char *text, Move *out,
                             ErrBuf *err)
{
    (void)g;
    const TttState *t = cttt(s);
    if (text[0] < '1' || text[0] > '9' || text[1] != '\0')
        return err_set(err, STATUS_PARSE, "a tic-tac-toe move is a cell 1-9");
    const int c = text[0] - '1';
    if (t->result != TTT_PLAYING || t->cell[c] != 0)
        return err_set(err, STATUS_ILLEGAL, "cell %d is not free", c + 1);
    *out = (Move)(c + 1);
    return STATUS_OK;
}

static int ttt_to_move(const Game *g, const GameState *s)
{
    (void)g;
    const TttState *t = cttt(s);
    return t->result == TTT_PLAYING ? t->turn : PLAYER_NONE;
}

static int ttt_gen_moves(const Game *g, const GameState *s, MoveList *out)
{
    (void)g;
    const TttState *t = cttt(s);
    out->count = 0;
    if (t->result != TTT_PLAYING)
        return 0;
    for (int c = 0; c < 9; c++)
        if (t->cell[c] == 0)
            out->moves[out->count++] = (Move)(c + 1);
    return out->count;
}

static void ttt_place(TttState *t, int c)
{
    t->cell[c] = (uint8_t)(t->turn + 1);
    t->filled++;
    t->turn ^= 1;
    t->result = ttt_result_after(t, c);
}

static void ttt_make(const Game *g, GameState *s, Move m, void *undo)
{
    copy_undo(g, s, undo);
    ttt_place(ttt(s), (int)m - 1);
}

static void ttt_returns(const Game *g, const GameState *s, double out[MAX_PLAYERS])
{
    (void)g;
    const TttState *t = cttt(s);
    for (int i = 0; i < MAX_PLAYERS; i++)
        out[i] = 0;
    if (t->result == 0 || t->result == 1) {
        out[t->result] = 1;
        out[1 - t->result] = -1;
    }
}

static void ttt_describe_result(const Game *g, const GameState *s, StrBuf *out)
{
    (void)g;
    const TttState *t = cttt(s);
    if (t->result == 0 || t->result == 1)
        sb_printf(out, "%c has three in a row", t->result == 0 ? 'x' : 'o');
    else if (t->result == TTT_DRAW)
        sb_puts(out, "the board is full");
}

static uint64_t ttt_hash(const Game *g, const GameState *s)
{
    (void)g;
    const TttState *t = cttt(s);
    uint64_t k = t->turn;
    for (int i = 0; i < 9; i++)
        k = k * 3 + t->cell[i];
    return mix(k);
}

static int ttt_move_index(const Game *g, const GameState *s, Move m)
{
    (void)g;
    (void)s;
    return (int)m - 1;
}

static bool ttt_is_ok(const Game *g, const GameState *s, ErrBuf *err)
{
    (void)g;
    const TttState *t = cttt(s);
    int xs = 0, os = 0;
    for (int i = 0; i < 9; i++) {
        xs += t->cell[i] == 1;
        os += t->cell[i] == 2;
        if (t->cell[i] > 2) {
            err_set(err, STATUS_ILLEGAL, "bad cell %d", i);
            return false;
        }
    }
    int8_t r;
    if (xs + os != t->filled || xs - os != t->turn || !ttt_result_of(t, &r) || r != t->result) {
        err_set(err, STATUS_ILLEGAL, "inconsistent tic-tac-toe state");
        return false;
    }
    return true;
}

static void ttt_render(const Game *g, const GameState *s, unsigned flags, StrBuf *out)
{
    (void)g;
    (void)flags;
    const TttState *t = cttt(s);
    for (int r = 0; r < 3; r++)
        sb_printf(out, "%c %c %c\n", ".xo"[t->cell[3 * r]], ".xo"[t->cell[3 * r + 1]],
                  ".xo"[t->cell[3 * r + 2]]);
}

/* Lines still open for one side, weighted by the square of its marks there. */
static int ttt_evaluate(const Game *g, const GameState *s)
{
    (void)g;
    const TttState *t = cttt(s);
    const uint8_t me = (uint8_t)(t->turn + 1);
    int v = 0;
    for (int l = 0; l < 8; l++) {
        int mine = 0, theirs = 0;
        for (int k = 0; k < 3; k++) {
            const uint8_t c = t->cell[ttt_lines[l][k]];
            mine += c == me;
            theirs += c != 0 && c != me;
        }
        if (theirs == 0)
            v += 10 * mine * mine;
        if (mine == 0)
            v -= 10 * theirs * theirs;
    }
    return v;
}

/* The same uniform choice among the free cells, in gen_moves order, as the generic loop. */
static void ttt_playout(const Game *g, GameState *s, Rng *rng, double out[MAX_PLAYERS])
{
    TttState *t = ttt(s);
    while (t->result == TTT_PLAYING) {
        int free_cells[9], n = 0;
        for (int c = 0; c < 9; c++)
            if (t->cell[c] == 0)
                free_cells[n++] = c;
        ttt_place(t, free_cells[rng_below(rng, (uint32_t)n)]);
    }
    ttt_returns(g, s, out);
}

const GameOps toy_tictactoe_ops = {
    .name = "toy-tictactoe",
    .summary = "noughts and crosses",
    .min_players = 2,
    .max_players = 2,
    .flags = GAME_PERFECT_INFO | GAME_ZERO_SUM,
    .options = NULL,
    .option_count = 0,
    .configure = ttt_configure,
    .release = ttt_release,
    TOY_HOOKS(ttt),
    .format_move = nim_format_move,
    .evaluate = ttt_evaluate,
    .playout = ttt_playout,
};

/* ---------------------------------------------------------------------------------- */
/* Race, with chance or with a hidden future                                            */
/* ---------------------------------------------------------------------------------- */

enum {
    RACE_STEP = 1,
    RACE_GAMBLE = 2,
    RACE_PLUS0 = 3,
    RACE_PLUS3 = 4,
    RACE_PLAYING = -1,
    RACE_DRAW = MAX_PLAYERS,
};

typedef struct RaceConfig {
    int target;
    int max_turns;
    bool hidden;
} RaceConfig;

typedef struct RaceState {
    uint64_t future; /* hidden mode: outcomes of the coming gambles, next = bit 0 */
    int32_t turns;   /* turns completed */
    int8_t pos[MAX_PLAYERS];
    int8_t turn;
    int8_t result;   /* RACE_PLAYING, the winner, or RACE_DRAW */
    uint8_t pending; /* chance mode: a gamble awaits its outcome */
    uint8_t pad;
} RaceState;

static const RuleOption race_options[] = {
    {"target", "Target square", "the square that wins", "10", NULL, 2, 50, RULE_INTEGER, RULE_MAIN},
};

static RaceState *race(GameState *s)
{
    return (RaceState *)(void *)s;
}

static const RaceState *crace(const GameState *s)
{
    return (const RaceState *)(const void *)s;
}

static const RaceConfig *race_cfg(const Game *g)
{
    return g->config;
}

static Status race_configure(Game *g, ErrBuf *err)
{
    RaceConfig *c = malloc(sizeof *c);
    if (c == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    c->target = (int)game_option_long(g, "target", 10);
    c->max_turns = 4 * c->target * g->players;
    c->hidden = g->ops == &toy_hidden_race_ops;
    g->config = c;
    g->state_size = sizeof(RaceState);
    g->undo_size = sizeof(RaceState);
    g->move_index_count = 4;
    g->max_game_length = 2 * c->max_turns;
    return STATUS_OK;
}

static void race_new_game(const Game *g, GameState *s, uint64_t seed)
{
    (void)g;
    RaceState *r = race(s);
    memset(r, 0, sizeof *r);
    r->result = RACE_PLAYING;
    r->future = mix(seed);
}

static Status race_parse_position(const Game *g, GameState *s, const char *text, ErrBuf *err)
{
    const RaceConfig *c = race_cfg(g);
    RaceState r;
    memset(&r, 0, sizeof r);
    r.result = RACE_PLAYING;
    const char *p = text;
    long v;
    for (int i = 0; i < g->players; i++) {
        if ((i > 0 && *p++ != ',') || !read_int(&p, &v) || v < 0 || v > c->target + 3)
            return err_set(err, STATUS_PARSE, "a race position starts with %d positions",
                           g->players);
        r.pos[i] = (int8_t)v;
        if (v >= c->target)
            r.result = (int8_t)i;
    }
    if (*p++ != ' ' || !read_int(&p, &v) || v < 0 || v >= g->players)
        return err_set(err, STATUS_PARSE, "bad player to move in '%s'", text);
    r.turn = (int8_t)v;
    if (*p == '*') {
        r.pending = 1;
        p++;
    }
    if (*p == ' ') {
        if (!read_int(&p, &v) || v < 0 || v > c->max_turns)
            return err_set(err, STATUS_PARSE, "bad turn count in '%s'", text);
        r.turns = (int32_t)v;
        if (*p == ' ') {
            char *end;
            r.future = strtoull(p + 1, &end, 16);
            p = end;
        }
    }
    if (*p != '\0' || (r.pending && c->hidden))
        return err_set(err, STATUS_PARSE, "bad race position '%s'", text);
    if (r.result == RACE_PLAYING && r.turns >= c->max_turns)
        r.result = RACE_DRAW;
    memcpy(s, &r, sizeof r);
    return STATUS_OK;
}

static void race_format_position(const Game *g, const GameState *s, StrBuf *out)
{
    const RaceState *r = crace(s);
    for (int i = 0; i < g->players; i++)
        sb_printf(out, "%s%d", i ? "," : "", (int)r->pos[i]);
    sb_printf(out, " %d%s %d %llx", (int)r->turn, r->pending ? "*" : "", (int)r->turns,
              (unsigned long long)r->future);
}

static int race_to_move(const Game *g, const GameState *s)
{
    (void)g;
    const RaceState *r = crace(s);
    if (r->result != RACE_PLAYING)
        return PLAYER_NONE;
    return r->pending ? PLAYER_CHANCE : r->turn;
}

static Status race_parse_move(const Game *g, const GameState *s, const char *text, Move *out,
                              ErrBuf *err)
{
    static const char *const names[] = {"step", "gamble", "+0", "+3"};
    const int p = race_to_move(g, s);
    for (int i = 0; i < 4; i++) {
        if (strcmp(text, names[i]) != 0)
            continue;
        const bool chance_move = i >= 2;
        if (p == PLAYER_NONE || chance_move != (p == PLAYER_CHANCE))
            return err_set(err, STATUS_ILLEGAL, "'%s' is not legal now", text);
        *out = (Move)(i + 1);
        return STATUS_OK;
    }
    return err_set(err, STATUS_PARSE, "a race move is step, gamble, +0 or +3");
}

static void race_format_move(const Game *g, const GameState *s, Move m, StrBuf *out)
{
    (void)g;
    (void)s;
    static const char *const names[] = {"?", "step", "gamble", "+0", "+3"};
    sb_puts(out, names[m <= 4 ? m : 0]);
}

static int race_gen_moves(const Game *g, const GameState *s, MoveList *out)
{
    out->count = 0;
    if (race_to_move(g, s) < 0)
        return 0;
    out->moves[out->count++] = RACE_STEP;
    out->moves[out->count++] = RACE_GAMBLE;
    return out->count;
}

static int race_chance_outcomes(const Game *g, const GameState *s, ChanceList *out)
{
    out->count = 0;
    if (race_to_move(g, s) != PLAYER_CHANCE)
        return 0;
    out->outcomes[0] = RACE_PLUS0;
    out->prob[0] = 0.5;
    out->outcomes[1] = RACE_PLUS3;
    out->prob[1] = 0.5;
    out->count = 2;
    return 2;
}

/* Moves the player to move `by` squares and ends the turn. */
static void race_advance(const Game *g, RaceState *r, int by)
{
    r->pos[r->turn] = (int8_t)(r->pos[r->turn] + by);
    if (r->pos[r->turn] >= race_cfg(g)->target) {
        r->result = r->turn;
        return;
    }
    r->turns++;
    r->turn = (int8_t)((r->turn + 1) % g->players);
    if (r->turns >= race_cfg(g)->max_turns)
        r->result = RACE_DRAW;
}

static void race_make(const Game *g, GameState *s, Move m, void *undo)
{
    copy_undo(g, s, undo);
    RaceState *r = race(s);
    switch (m) {
    case RACE_STEP:
        race_advance(g, r, 1);
        break;
    case RACE_GAMBLE:
        if (race_cfg(g)->hidden) {
            const int plus = (r->future & 1) ? 3 : 0;
            r->future = r->future >> 1 | r->future << 63;
            race_advance(g, r, plus);
        } else {
            r->pending = 1;
        }
        break;
    default:
        r->pending = 0;
        race_advance(g, r, m == RACE_PLUS3 ? 3 : 0);
        break;
    }
}

static void race_returns(const Game *g, const GameState *s, double out[MAX_PLAYERS])
{
    const RaceState *r = crace(s);
    for (int i = 0; i < MAX_PLAYERS; i++)
        out[i] = 0;
    if (r->result >= 0 && r->result < g->players) {
        for (int i = 0; i < g->players; i++)
            out[i] = -1.0 / (g->players - 1);
        out[r->result] = 1;
    }
}

static void race_describe_result(const Game *g, const GameState *s, StrBuf *out)
{
    const RaceState *r = crace(s);
    if (r->result >= 0 && r->result < g->players)
        sb_printf(out, "player %d reached the target", (int)r->result + 1);
    else if (r->result == RACE_DRAW)
        sb_puts(out, "the turn limit was reached");
}

static uint64_t race_hash(const Game *g, const GameState *s)
{
    (void)g;
    const RaceState *r = crace(s);
    uint64_t k = 0;
    for (int i = 0; i < MAX_PLAYERS; i++)
        k = k << 8 | (uint8_t)r->pos[i];
    k = k << 8 | (uint8_t)r->turn;
    k = k << 8 | r->pending;
    return mix(k ^ mix(r->future) ^ ((uint64_t)r->turns << 48));
}

static int race_move_index(const Game *g, const GameState *s, Move m)
{
    (void)g;
    (void)s;
    return (int)m - 1;
}

static bool race_is_ok(const Game *g, const GameState *s, ErrBuf *err)
{
    const RaceState *r = crace(s);
    if (r->turn < 0 || r->turn >= g->players || r->pending > 1 ||
        (r->pending && race_cfg(g)->hidden)) {
        err_set(err, STATUS_ILLEGAL, "inconsistent race state");
        return false;
    }
    return true;
}

static void race_render(const Game *g, const GameState *s, unsigned flags, StrBuf *out)
{
    (void)flags;
    const RaceState *r = crace(s);
    for (int i = 0; i < g->players; i++)
        sb_printf(out, "player %d at %d%s\n", i + 1, (int)r->pos[i], i == r->turn ? " *" : "");
}

static void race_determinize(const Game *g, GameState *s, int observer, Rng *rng)
{
    (void)g;
    (void)observer; // nobody sees the future
    race(s)->future = rng_next(rng);
}

/* The race with chance and the race with a hidden future share all but how the future
 * comes: chance_outcomes or determinize, given as the last argument. */
#define RACE_OPS(NAME, SUMMARY, FLAGS, ...)                                                   \
    {                                                                                         \
        .name = NAME, .summary = SUMMARY, .min_players = 2, .max_players = 4, .flags = FLAGS, \
        .options = race_options, .option_count = 1, .configure = race_configure,              \
        .release = free_config, TOY_HOOKS(race), .format_move = race_format_move,             \
        __VA_ARGS__,                                                                          \
    }

const GameOps toy_race_ops =
    RACE_OPS("toy-race", "step or gamble to the target first",
             GAME_PERFECT_INFO | GAME_ZERO_SUM | GAME_HAS_CHANCE,
             .chance_outcomes = race_chance_outcomes);
const GameOps toy_hidden_race_ops =
    RACE_OPS("toy-hidden-race", "the race with a hidden, pre-drawn future instead of chance",
             GAME_ZERO_SUM, .determinize = race_determinize);
