/*
 * @DIR@_ops.c - @TITLE@, made from crown's new-game template (tools/new-game.sh): a heap
 * of stones, each player in turn takes one to `take` of them, and whoever takes the last
 * one wins. It is a complete game for every front end: the GameOps record below is all
 * that crown knows of it. Replace the rules with your own, keeping the contract of
 * src/core/game.h (docs/ADDING-A-GAME.md).
 */
#include "games/@DIR@/@DIR@.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"

enum { @UPPER@_MAX_TAKE = 9, @UPPER@_MAX_STONES = 99 };

/* The state is plain data, zeroed before it is filled (the contract compares bytes). */
typedef struct @CAMEL@State {
    uint64_t hash;
    int8_t heap;   /* stones left */
    int8_t turn;   /* the player to move */
    int8_t winner; /* -1 while the game goes on */
    int8_t pad[5];
} @CAMEL@State;

typedef struct @CAMEL@Config {
    int stones, take;
} @CAMEL@Config;

static const RuleOption options[] = {
    {"stones", "Stones", "stones on the heap at the start", "15", NULL, 1, @UPPER@_MAX_STONES,
     RULE_INTEGER, RULE_MAIN},
    {"take", "Most stones a take", "the most stones one turn may take", "3", NULL, 1,
     @UPPER@_MAX_TAKE, RULE_INTEGER, RULE_MAIN},
};

static const @CAMEL@Config *cfg(const Game *g)
{
    return g->config;
}

/* The key of a position, from scratch: every field that tells positions apart. */
static uint64_t key_of(const @CAMEL@State *s)
{
    uint64_t x = (uint64_t)(s->heap * 2 + s->turn) * 0x9E3779B97F4A7C15ULL;
    x ^= x >> 31;
    return x * 0xBF58476D1CE4E5B9ULL ^ (uint64_t)(s->winner + 1);
}

static Status configure(Game *g, ErrBuf *err)
{
    (void)err;
    @CAMEL@Config *c = calloc(1, sizeof *c);
    if (c == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    c->stones = (int)game_option_long(g, "stones", 15);
    c->take = (int)game_option_long(g, "take", 3);
    g->config = c;
    g->state_size = sizeof(@CAMEL@State);
    g->undo_size = sizeof(@CAMEL@State);
    g->move_index_count = @UPPER@_MAX_TAKE;
    g->max_game_length = c->stones;
    return STATUS_OK;
}

static void release(Game *g)
{
    free(g->config);
}

static void set_state(@CAMEL@State *s, int heap, int turn)
{
    memset(s, 0, sizeof *s);
    s->heap = (int8_t)heap;
    s->turn = (int8_t)turn;
    s->winner = (int8_t)(heap == 0 ? turn ^ 1 : -1); // who took the last stone won
    s->hash = key_of(s);
}

static void new_game(const Game *g, GameState *s, uint64_t seed)
{
    (void)seed;
    set_state((@CAMEL@State *)s, cfg(g)->stones, 0);
}

/* "<stones> <player to move>", as "15 0". */
static Status parse_position(const Game *g, GameState *s, const char *text, ErrBuf *err)
{
    int heap, turn;
    char extra;
    if (sscanf(text, "%d %d %c", &heap, &turn, &extra) != 2)
        return err_set(err, STATUS_PARSE, "a position is '<stones> <player to move>', as '15 0'");
    if (heap < 0 || heap > cfg(g)->stones || turn < 0 || turn > 1)
        return err_set(err, STATUS_PARSE, "stones are 0 to %d and the player 0 or 1",
                       cfg(g)->stones);
    set_state((@CAMEL@State *)s, heap, turn);
    return STATUS_OK;
}

static void format_position(const Game *g, const GameState *s, StrBuf *out)
{
    (void)g;
    const @CAMEL@State *k = (const @CAMEL@State *)s;
    sb_printf(out, "%d %d", k->heap, k->turn);
}

static int to_move(const Game *g, const GameState *s)
{
    (void)g;
    const @CAMEL@State *k = (const @CAMEL@State *)s;
    return k->winner >= 0 ? PLAYER_NONE : k->turn;
}

static int gen_moves(const Game *g, const GameState *s, MoveList *out)
{
    const @CAMEL@State *k = (const @CAMEL@State *)s;
    out->count = 0;
    for (int n = 1; k->winner < 0 && n <= cfg(g)->take && n <= k->heap; n++)
        out->moves[out->count++] = (Move)n;
    return out->count;
}

/* An action is the number of stones taken, written as that number. */
static Status parse_move(const Game *g, const GameState *s, const char *text, Move *out,
                         ErrBuf *err)
{
    const @CAMEL@State *k = (const @CAMEL@State *)s;
    char *end;
    const long n = strtol(text, &end, 10);
    if (end == text || *end != '\0')
        return err_set(err, STATUS_PARSE, "'%.20s': an action is the number of stones to take",
                       text);
    if (k->winner >= 0)
        return err_set(err, STATUS_ILLEGAL, "the game is over");
    if (n < 1 || n > cfg(g)->take || n > k->heap)
        return err_set(err, STATUS_ILLEGAL, "take 1 to %d stones", k->heap < cfg(g)->take
                                                                        ? k->heap
                                                                        : cfg(g)->take);
    *out = (Move)n;
    return STATUS_OK;
}

static void format_move(const Game *g, const GameState *s, Move m, StrBuf *out)
{
    (void)g;
    (void)s;
    sb_printf(out, "%u", (unsigned)m);
}

static void make(const Game *g, GameState *s, Move m, void *undo)
{
    (void)g;
    @CAMEL@State *k = (@CAMEL@State *)s;
    memcpy(undo, k, sizeof *k);
    set_state(k, k->heap - (int)m, k->turn ^ 1);
}

static void unmake(const Game *g, GameState *s, Move m, const void *undo)
{
    (void)g;
    (void)m;
    memcpy(s, undo, sizeof(@CAMEL@State));
}

static void returns(const Game *g, const GameState *s, double out[MAX_PLAYERS])
{
    (void)g;
    const @CAMEL@State *k = (const @CAMEL@State *)s;
    memset(out, 0, sizeof(double) * MAX_PLAYERS);
    if (k->winner >= 0) {
        out[k->winner] = 1;
        out[k->winner ^ 1] = -1;
    }
}

static void describe_result(const Game *g, const GameState *s, StrBuf *out)
{
    (void)g;
    if (((const @CAMEL@State *)s)->winner >= 0)
        sb_puts(out, "the last stone was taken");
}

static uint64_t hash(const Game *g, const GameState *s)
{
    (void)g;
    return ((const @CAMEL@State *)s)->hash;
}

static int move_index(const Game *g, const GameState *s, Move m)
{
    (void)g;
    (void)s;
    return (int)m - 1;
}

static bool is_ok(const Game *g, const GameState *s, ErrBuf *err)
{
    const @CAMEL@State *k = (const @CAMEL@State *)s;
    if (k->heap < 0 || k->heap > cfg(g)->stones || k->turn < 0 || k->turn > 1)
        err_set(err, STATUS_CORRUPT, "heap %d or player %d out of range", k->heap, k->turn);
    else if (k->winner != (k->heap == 0 ? k->turn ^ 1 : -1))
        err_set(err, STATUS_CORRUPT, "winner %d with %d stones left", k->winner, k->heap);
    else if (k->hash != key_of(k))
        err_set(err, STATUS_CORRUPT, "hash is not the position's");
    else
        return true;
    return false;
}

static void render(const Game *g, const GameState *s, unsigned flags, StrBuf *out)
{
    (void)g;
    (void)flags;
    const @CAMEL@State *k = (const @CAMEL@State *)s;
    sb_printf(out, "stones: %d (", k->heap);
    for (int i = 0; i < k->heap; i++)
        sb_putc(out, 'o');
    sb_printf(out, ")\nto move: player %d\n", k->turn);
}

/* Exact: a heap that is a multiple of take + 1 is lost for the player to move. */
static int evaluate(const Game *g, const GameState *s)
{
    return ((const @CAMEL@State *)s)->heap % (cfg(g)->take + 1) == 0 ? -100 : 100;
}

const GameOps @PREFIX@_ops = {
    .name = "@NAME@",
    .title = "@TITLE@",
    .family = "@NAME@",
    .summary = "@TITLE@: take stones from one heap in turn; who takes the last wins",
    .min_players = 2,
    .max_players = 2,
    .flags = GAME_PERFECT_INFO | GAME_ZERO_SUM,
    .options = options,
    .option_count = (int)(sizeof options / sizeof options[0]),
    .configure = configure,
    .release = release,
    .new_game = new_game,
    .parse_position = parse_position,
    .format_position = format_position,
    .parse_move = parse_move,
    .format_move = format_move,
    .to_move = to_move,
    .gen_moves = gen_moves,
    .make = make,
    .unmake = unmake,
    .returns = returns,
    .describe_result = describe_result,
    .hash = hash,
    .move_index = move_index,
    .is_ok = is_ok,
    .render = render,
    .evaluate = evaluate,
    .bench_depth = 6,
};
