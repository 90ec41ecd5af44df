/*
 * game_api.h - creating configured games and the small helpers every user of a game
 * needs (state allocation, rule option text, generic perft), over game.h.
 */
#ifndef CROWN_CORE_GAME_API_H
#define CROWN_CORE_GAME_API_H

#include "core/game.h"
#include "core/mem.h"

/* Creates a game from its ops, a player count (0 = the game's minimum) and rule
 * settings as name and value pairs (may be NULL when n_rules is 0). Unknown names and
 * values out of range are errors that list what is allowed. On error *out is NULL. */
Status game_create(const GameOps *ops, int players, const RuleSetting *rules, int n_rules,
                   Game **out, ErrBuf *err);

/* Splits the text "NAME=VALUE" of a command line or a saved record at its first '=',
 * in place (the '=' becomes a NUL): the one place where a setting is ever read from
 * joined text. On error the text is unchanged. */
Status rule_setting_split(char *text, RuleSetting *out, ErrBuf *err);

/* "choice", "integer", "text" or "file". */
const char *rule_kind_name(RuleKind kind);
void game_destroy(Game *g);

/* The value of a rule option by name; NULL if the game has no such option. */
const char *game_option(const Game *g, const char *name);
/* Integer value of an integer option; `fallback` if absent. */
long game_option_long(const Game *g, const char *name, long fallback);
/* Returns of a two-player zero-sum game: +1 to the winner (0 or 1) and -1 to the other;
 * all zero for any other winner (a draw, or a game not over). */
void game_returns_two_player(int winner, double out[MAX_PLAYERS]);
/* Whether an option of the game's own table has exactly this value. */
bool game_option_is(const Game *g, const char *name, const char *value);
/* Reads the plies-played field of a position text: a whole number from 0 to max_plies
 * (the game's max-plies option), or STATUS_PARSE with the reason. */
Status game_parse_plies(const char *text, int max_plies, long *out, ErrBuf *err);

/* Appends "name=value" for every option, space-separated. */
void game_format_rules(const Game *g, StrBuf *out);

/* Zeroed, suitably aligned state storage of g->state_size bytes; free with free(). */
GameState *game_state_new(const Game *g);
/* Zeroed undo storage of g->undo_size bytes; free with free(). */
void *game_undo_new(const Game *g);
GameState *game_state_clone(const Game *g, const GameState *s);
void game_state_copy(const Game *g, GameState *dst, const GameState *src);

static inline bool game_is_over(const Game *g, const GameState *s)
{
    return g->ops->to_move(g, s) == PLAYER_NONE;
}

/* ops->can_win, or true when the game does not say. */
static inline bool game_can_win(const Game *g, const GameState *s, int player)
{
    return g->ops->can_win == NULL || g->ops->can_win(g, s, player);
}

/* The kind of action m in s (an index into ops->action_kinds), or -1 for a plain move;
 * for a kind, its label for this very action in `label` (the hook's own words, else the
 * kind's label). */
int game_action_kind(const Game *g, const GameState *s, Move m, StrBuf *label);

/* ops->turn_help, or NULL when the game does not say or nobody is to move. */
const char *game_turn_help(const Game *g, const GameState *s);
/* Action m, legal in s, as players read it (ops->format_move_read, else format_move). */
void game_format_move_read(const Game *g, const GameState *s, Move m, StrBuf *out);

/* The number of leaves `depth` actions deep, by the generic make/unmake loop (chance
 * events count each outcome as one branch). Ignores the ops->perft_leaves fast path:
 * the reference the fast path is tested against. */
uint64_t game_perft_generic(const Game *g, GameState *s, int depth);
/* The same loop, asking ops->perft_leaves (when the game has it) at every node first. */
uint64_t game_perft(const Game *g, GameState *s, int depth);
/* game_perft with its frames from `mem` (NULL: the C library), into *count; STATUS_NOMEM
 * when they cannot be had, where game_perft would count 0. */
Status game_perft_mem(const Game *g, GameState *s, int depth, const Mem *mem, uint64_t *count);

/* Reads `text` as the one action to play in s: when chance is to act, the chance outcome
 * whose format_move text it is exactly (records and stored games write draws like
 * moves); otherwise through the game's parse_move. *m is untouched on error. */
Status game_parse_action(const Game *g, const GameState *s, const char *text, Move *m,
                         ErrBuf *err);

/* Parses `text` as one action and plays it. On error the state is unchanged. */
Status game_play_text(const Game *g, GameState *s, const char *text, Move *played, ErrBuf *err);

/* OpenSpiel's action id of m, legal in s (GameOps.action_index, else move_index), and
 * how many there are, chance outcomes' ids last (Game.chance_index_count of them). */
int game_action_index(const Game *g, const GameState *s, Move m);
int game_action_index_count(const Game *g);

/* Draws a chance outcome by its probabilities. */
Move game_sample_chance(const Game *g, const GameState *s, Rng *rng);

/* Finds `name` in the option table; -1 if absent. */
int game_option_index(const GameOps *ops, const char *name);

#endif
