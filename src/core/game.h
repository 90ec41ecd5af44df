/*
 * game.h - the contract between a game and everything else in crown.
 *
 * A game is a GameOps table (rules as functions) plus a Game instance (the table with
 * its rule options chosen and the read-only data they imply: board geometry, hash
 * keys). A GameState is plain data of ops-chosen size with no internal pointers:
 * memcpy clones it and memcmp compares it. Search, the CLI and the tests see games
 * only through this header; they never include a game's own headers.
 *
 * Turns. to_move() names who acts next. A turn made of several actions (carrying
 * pieces off a stack, the phases of a tile game, a chain of captures) is simply the
 * same player acting several times in a row; every action is a Move. Chance events are
 * actions of the pseudo-player PLAYER_CHANCE whose outcomes and probabilities
 * chance_outcomes() lists. Hidden information is what determinize() may resample.
 */
#ifndef CROWN_CORE_GAME_H
#define CROWN_CORE_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/observation.h"
#include "core/rng.h"
#include "core/status.h"
#include "core/strbuf.h"

/* A move (an action) packed by its game. MOVE_NONE is never a legal move. */
typedef uint32_t Move;

enum {
    MOVE_NONE = 0,
    MAX_PLAYERS = 4,
    MOVELIST_CAP = 1024,    /* the most actions any position of any game may offer */
    CHANCE_CAP = 128,       /* the most outcomes of one chance event */
    GAME_MAX_OPTIONS = 24,  /* rule options of one game */
    GAME_MAX_METRICS = 16,  /* figures of one game's measure hook */
    OPTION_VALUE_LEN = 256, /* longest option value, NUL included (file names fit) */
    PLAYER_NONE = -1,       /* to_move() of a finished game */
    PLAYER_CHANCE = -2,     /* to_move() when chance acts next */
};

typedef struct MoveList {
    int count;
    Move moves[MOVELIST_CAP];
} MoveList;

typedef struct ChanceList {
    int count;
    Move outcomes[CHANCE_CAP];
    double prob[CHANCE_CAP]; /* sums to 1 */
} ChanceList;

/* Opaque: each game defines the real struct in its own files. */
typedef struct GameState GameState;

/* What a game is, so that algorithms can refuse games they cannot handle. */
enum GameFlags {
    GAME_PERFECT_INFO = 1u << 0, /* nothing hidden from any player */
    GAME_ZERO_SUM = 1u << 1,     /* returns sum to zero */
    GAME_HAS_CHANCE = 1u << 2,   /* PLAYER_CHANCE may act */
    /* Without GAME_PERFECT_INFO: what is hidden is only what is still to come (the order
     * of a shuffled pile); every action, chance outcomes included, is seen by all. */
    GAME_PUBLIC_ACTIONS = 1u << 3,
    GAME_TABLE_SOLVED = 1u << 4, /* crown's solver (src/solve) builds its whole table */
};

/* What a rule option's value is. The kind says how it is checked and who may set it:
 * a file option names a file the game reads when configured, so a server must not take
 * one from a client, while a text option is free text the game itself validates. */
typedef enum RuleKind {
    RULE_CHOICE,  /* one of `choices` ("a|b|c") */
    RULE_INTEGER, /* a whole number in [min, max] */
    RULE_TEXT,    /* free text checked by configure; reads no file */
    RULE_FILE,    /* the name of a file that configure reads, or a word the game knows */
} RuleKind;

/* Where a rule option is offered to a player choosing rules: among the few that pick
 * the game to play, or folded away with the fine points whose defaults suit nearly
 * everyone (the new-game form of the web shows only the first kind at once). */
typedef enum RulePlace {
    RULE_MAIN,
    RULE_ADVANCED,
} RulePlace;

/* A rule option. `name` is the key of --rule and of the API; `title` names it in words
 * for a player ("Turn limit"); `help` says what its values do. Every game uses the word
 * "turns" for what a player does between two of his opponents' turns. */
typedef struct RuleOption {
    const char *name;
    const char *title;
    const char *help;
    const char *default_value;
    const char *choices; /* RULE_CHOICE: the values; RULE_TEXT: common ones, or NULL */
    long min, max;       /* RULE_INTEGER only */
    RuleKind kind;
    RulePlace place;
} RuleOption;

/* One rule option set by name: a pair, never joined into "name=value" text, so that no
 * '=' in a name or value can move the split. */
/* A figure a game reports about a game played (GameOps.measure): a short stable key, and
 * whether it is counted per player or for the whole game. */
typedef struct GameMetric {
    const char *name;
    bool per_player;
} GameMetric;

typedef struct RuleSetting {
    const char *name;
    const char *value;
} RuleSetting;

/* Flags for GameOps.render. */
enum RenderFlags {
    RENDER_COLOR = 1u << 0,   /* ANSI colours allowed */
    RENDER_UNICODE = 1u << 1, /* non-ASCII symbols allowed */
    RENDER_FLIPPED = 1u << 2, /* from the second player's side, in games that have one */
};

/* A kind of action that is not a plain move on the board (a power, a choice, a step of
 * a turn's phase), in players' words, so that a page can label and explain it without
 * reading move text: `key` is stable ("swap", "recruit"), `label` what its button says
 * ("Swap"), `help` one line on what it does. */
typedef struct ActionKind {
    const char *key;
    const char *label;
    const char *help;
} ActionKind;

/* The colours of the players' pieces and of what is drawn faint, one set for every game's
 * render, so that the boards of all games read alike on one terminal. */
#define ANSI_RESET "\x1b[0m"
#define ANSI_FIRST "\x1b[1;97m"
#define ANSI_SECOND "\x1b[1;91m"
#define ANSI_DIM "\x1b[2m"

typedef struct GameOps GameOps;

/* A configured game. Create with game_create (game_api.h); read-only afterwards, so one
 * Game may be shared by any number of states and threads. */
typedef struct Game {
    const GameOps *ops;
    int players;
    char values[GAME_MAX_OPTIONS][OPTION_VALUE_LEN]; /* one per ops->options entry */
    void *config;            /* the game's own read-only data, built by ops->configure */
    size_t state_size;       /* bytes of a GameState; set by configure */
    size_t undo_size;        /* bytes of an undo record for make/unmake; set by configure */
    int move_index_count;    /* move_index() is in [0, this); set by configure */
    /* OpenSpiel's action ids (game_action_index): action_index() is in [0, this) when the
     * game has the hook (else move_index's range serves); its last chance_index_count ids
     * belong to chance outcomes, so that the public API numbers players' actions and
     * chance outcomes apart, each from 0. Set by configure. */
    int action_index_count;
    int chance_index_count;
    int max_game_length;     /* no game lasts more actions than this; set by configure */
    size_t legal_memo_size;  /* bytes of the memo candidate_legal takes; set by configure */
    /* What observe() fills (core/observation.h); set by configure when the game has the
     * hook, NULL otherwise. */
    const ObsSchema *observation;
} Game;

struct GameOps {
    /* Identity. `name` is the registry key; `summary` one line for `crown games`;
     * `title` the game's name as players know it ("King's Valley: Labyrinth"); `family`
     * the key its variants share, which picks the page's board drawer ("kings-valley"
     * for all four of King's Valley's). */
    const char *name;
    const char *summary;
    const char *title;
    const char *family;
    /* The seats' names where the game has its own ("White", "Black"), one per seat of
     * max_players; NULL: the ordinal ones (first player, ...). */
    const char *const *seat_names;
    int min_players, max_players;
    unsigned flags; /* enum GameFlags */
    const RuleOption *options;
    int option_count;

    /* Facts the front ends read from here rather than from tables keyed by the name, so
     * that a new game is described in its own folder. `bench_depth` (alpha-beta actions)
     * or `bench_iterations` (MCTS) is crown bench's fixed work: deep enough that ordering
     * and evaluation matter, about 2 s a game at most; both 0 means bench's default.
     * `chance_scale` is the score worth about a 73% chance (play/chances.h), fitted by
     * crown tune --fit-scale; 0 means the common guess. */
    int bench_depth;
    unsigned bench_iterations;
    double chance_scale;

    /* Reads g->values (already checked against the option table) and g->players, builds
     * g->config and sets the size fields. Returns an error for a combination of values
     * that makes no sense; then nothing needs releasing. */
    Status (*configure)(Game *g, ErrBuf *err);
    /* Frees what configure built. */
    void (*release)(Game *g);

    /* Writes the start position. `seed` drives any random set-up. */
    void (*new_game)(const Game *g, GameState *s, uint64_t seed);
    /* Reads a position text. On error *s is unchanged. */
    Status (*parse_position)(const Game *g, GameState *s, const char *text, ErrBuf *err);
    /* Appends the position text; parse_position reads it back to an equal state
     * (history used for repetition draws is not part of the text). */
    void (*format_position)(const Game *g, const GameState *s, StrBuf *out);

    /* Reads one action's text and checks that it is legal here. */
    Status (*parse_move)(const Game *g, const GameState *s, const char *text, Move *out,
                         ErrBuf *err);
    void (*format_move)(const Game *g, const GameState *s, Move m, StrBuf *out);

    /* 0..players-1, PLAYER_CHANCE, or PLAYER_NONE once the game is over. */
    int (*to_move)(const Game *g, const GameState *s);
    /* Legal actions of the player to move, in a deterministic order, no duplicates;
     * empty exactly when to_move() is PLAYER_NONE or PLAYER_CHANCE. Returns the count. */
    int (*gen_moves)(const Game *g, const GameState *s, MoveList *out);
    /* Plays m, which gen_moves (or chance_outcomes) offered here. Saves what unmake
     * needs into `undo` (undo_size bytes). */
    void (*make)(const Game *g, GameState *s, Move m, void *undo);
    /* Restores the state before make(m) byte for byte. */
    void (*unmake)(const Game *g, GameState *s, Move m, const void *undo);
    /* Final scores per player (win 1, loss -1, draw 0 for two-player games); only
     * meaningful once the game is over. */
    void (*returns)(const Game *g, const GameState *s, double out[MAX_PLAYERS]);
    /* Appends why the game ended ("king reached the Valley"), or nothing if it has not. */
    void (*describe_result)(const Game *g, const GameState *s, StrBuf *out);
    /* Key of the position (incrementally maintained). Equal positions, equal keys. */
    uint64_t (*hash)(const Game *g, const GameState *s);
    /* Dense id in [0, g->move_index_count) for history tables. */
    int (*move_index)(const Game *g, const GameState *s, Move m);
    /* Recomputes everything derived (hash, counts, result) from scratch and compares;
     * false with a message on the first mismatch. Used by tests and debug builds. */
    bool (*is_ok)(const Game *g, const GameState *s, ErrBuf *err);
    /* Appends a drawing of the board for a terminal (flags: enum RenderFlags). */
    void (*render)(const Game *g, const GameState *s, unsigned flags, StrBuf *out);

    /* Optional hooks; NULL when they do not apply. */

    /* Reads a text that may stand for several consecutive actions of the player to move
     * (a whole turn, such as a King's Guard turn `c3-c5,c4`), checking each in turn on a
     * scratch copy. Writes up to `cap` actions and their count. On error nothing is
     * written. When NULL, callers treat ';'-separated parse_move texts the same way. */
    Status (*parse_actions)(const Game *g, const GameState *s, const char *text, Move *out,
                            int cap, int *count, ErrBuf *err);
    /* OpenSpiel's action id of m, legal in s, when move_index (made for history tables)
     * may give two legal actions of one position the same id, folding a choice away: one
     * to one over the actions legal in s, in [0, g->action_index_count), the same for the
     * same action in every position. NULL: move_index serves. */
    int (*action_index)(const Game *g, const GameState *s, Move m);
    /* Outcomes of the chance event when to_move() is PLAYER_CHANCE. */
    int (*chance_outcomes)(const Game *g, const GameState *s, ChanceList *out);
    /* Resamples everything `observer` cannot see, keeping his view. */
    void (*determinize)(const Game *g, GameState *s, int observer, Rng *rng);
    /* Appends what `observer` may see (hidden-information games): observer is a seat, or
     * PLAYER_NONE for a spectator, who may see only what is public to every player. */
    void (*format_view)(const Game *g, const GameState *s, int observer, StrBuf *out);
    /* Heuristic value for the player to move, in centi-units; two-player zero-sum. Wins
     * and losses are the search's business, not the evaluation's. */
    int (*evaluate)(const Game *g, const GameState *s);
    /* Optional, all or none, with evaluate: the evaluation's weights as a vector of
     * eval_weight_count integers, for tuning them on played games (crown tune).
     * eval_weight_names[i] is weight i's stable name (a C identifier, unique),
     * eval_weight_defaults[i] the value evaluate uses, and evaluate_weighted evaluates
     * as evaluate does but with `weights` (eval_weight_count of them) instead: equal to
     * evaluate when given the defaults. */
    int eval_weight_count;
    const char *const *eval_weight_names;
    const int *eval_weight_defaults;
    int (*evaluate_weighted)(const Game *g, const GameState *s, const int *weights);
    /* Optional search hints for alpha-beta, each NULL when it does not apply.
     * noisy: 0 for a quiet action legal in s; for a capture or a promotion, its order
     * among the noisy ones (most valuable victim first, then least valuable attacker),
     * > 0 and below 1 << 20. The search tries noisy actions before quiet ones and
     * never reduces them. */
    int (*noisy)(const Game *g, const GameState *s, Move m);
    /* With noisy: the evaluation of the position as it stands, captures unresolved. A
     * game that gives it is searched with quiescence (alphabeta.c): past the horizon the
     * search itself plays out the noisy actions and stands pat on this value, which then
     * replaces evaluate in the search (evaluate may resolve captures its own way for the
     * other callers, as King Down's does). */
    int (*evaluate_static)(const Game *g, const GameState *s);
    /* Optional, with evaluate_static: MOVE_NONE where quiescence may stand pat on the
     * player to move's behalf; else the action that closes the turn he has begun (King's
     * Guard's `end`). A turn of several actions is then judged only once it is over and
     * the opponent may answer (a capture he takes back is no gain), so quiescence
     * searches this action, after the noisy ones, instead of standing pat, wherever a
     * noisy action led (after a quiet one at the horizon it still stands pat: closing
     * every turn there cost more depth than it gained). It must be legal in s. */
    Move (*quiesce_finish)(const Game *g, const GameState *s);
    /* Whether the player to move is in check: the search looks one action deeper there
     * and neither reduces nor prunes. */
    bool (*in_check)(const Game *g, const GameState *s);
    /* Null-move pruning: passes the turn when a pass is a sound test of the position
     * (no turn in progress, and the mover keeps pieces enough that zugzwang is rare),
     * saving into undo (undo_size bytes) what unmake_null needs; returns false, s
     * unchanged, otherwise. Both or neither. */
    bool (*make_null)(const Game *g, GameState *s, void *undo);
    void (*unmake_null)(const Game *g, GameState *s, const void *undo);
    /* With evaluate: how far apart, in its centi-units, two root moves' values may be
     * and still count as equal, so that an agent picks either at random (variety). Keep
     * it below the smallest difference the evaluation means: 0 = exact ties only;
     * negative = no variety at all (the first of equal moves, as the search found it). */
    int variety_margin;
    /* Plays uniformly random legal moves to the end and writes the returns; may change
     * *s. A fast path for MCTS: it must match the generic loop in distribution. */
    void (*playout)(const Game *g, GameState *s, Rng *rng, double out[MAX_PLAYERS]);
    /* A random game for searchers that want more than uniform moves: plays to the end by
     * the game's own policy (sensible choices most of the time, random ones otherwise)
     * and writes, per player, a value in [-1, 1] for the search to maximise, which may be
     * finer than returns() (the rank plus a share of the score margin, say). On a
     * finished state it plays nothing and writes those values. Unlike playout it follows
     * no prescribed distribution; it may change *s. The "ai" agent's MCTS uses it. */
    void (*guided_playout)(const Game *g, GameState *s, Rng *rng, double out[MAX_PLAYERS]);
    /* Optional, both or neither: lazy legality, for games whose legality test costs far
     * more than listing candidates (the 7x7 trap rule), so that a search tests only the
     * actions it plays, as chess engines test pseudo-legal moves. gen_candidates lists
     * candidate actions (none once the game is over); gen_moves' list is, in the same
     * order, the candidates for which candidate_legal holds, except when it holds for
     * none: then gen_moves gives the game's answer, so ask it. `memo` is
     * g->legal_memo_size bytes that the caller owns, zeroes before the first call and
     * then passes unchanged to every call on any position of this Game; it only saves
     * work (never changes an answer). Neither changes s. */
    int (*gen_candidates)(const Game *g, const GameState *s, MoveList *out);
    bool (*candidate_legal)(const Game *g, const GameState *s, Move m, void *memo);
    /* Bulk counting for game_perft: when the game can count the leaves `depth` (>= 1)
     * actions deep here without playing the last actions (a move count instead of the
     * moves), writes the count and returns true; false sends game_perft's one recursion
     * an action deeper. May use *s as scratch but restores it. Must agree with
     * game_perft_generic. */
    bool (*perft_leaves)(const Game *g, GameState *s, int depth, uint64_t *count);

    /* For interfaces where a player acts by clicking cells (crown serve). Appends the
     * cells that action m (legal in s) touches, as cell names of the game's own notation
     * separated by single spaces:
     *   - the first name is the cell the player picks first: the piece or stack that
     *     moves (for a group, the cell named first in the move text), or the only cell of
     *     a placement or pick-up;
     *   - the last name is where the action ends (a move's destination); with one name
     *     the action is "click this cell";
     *   - names in between are other cells the action moves (the rest of a group), so an
     *     interface can show them; they are never needed to tell actions apart.
     * Nothing at all for an action that touches no cell (end of turn, pass, swap).
     * Names come from the same writer as the move text, so they match what the
     * position text and the board drawing call those cells. Two actions of one position
     * may share first and last cells (a phalanx of 2 moving 2 cells, or of 3 moving 1);
     * the interface then asks the player to choose between their texts. Never changes
     * s; must not fail. */
    void (*move_cells)(const Game *g, const GameState *s, Move m, StrBuf *out);

    /* The score `player` would have if the game were scored now: points, higher is
     * better, any real number (a game may add a fraction to break ties of points). It
     * need not say who wins; returns() does that. For baseline players that take the
     * action with the best immediate score (greedy) and for reports. Never changes s. */
    double (*score)(const Game *g, const GameState *s, int player);

    /* Describes the position as `observer` (a seat, or PLAYER_NONE for a spectator) sees
     * it, as structured data following g->observation and the conventions of
     * core/observation.h: nothing the observer may not see, so that the observation is
     * the same before and after determinize for that observer. Never changes s; must
     * not fail; allocates nothing. */
    void (*observe)(const Game *g, const GameState *s, int observer, Observation *out);

    /* Why the game in s ended, as an index into end_reasons, or -1 while it goes on.
     * end_reasons names each way the game can end (end_reason_count of them) by a short
     * stable key such as "valley" or "ply-limit", so that reports (crown lab) can count
     * every end condition, including those that never happened; describe_result stays
     * the words for people. */
    int (*end_reason)(const Game *g, const GameState *s);
    const char *const *end_reasons;
    int end_reason_count;

    /* What a game designer asks of the games played (crown lab): metric_count figures
     * (at most GAME_MAX_METRICS) described by metrics. measure adds to out[i][p] (p = 0
     * for a figure of the whole game) what action m, played from `before` to `after`,
     * contributes; it is called once more at the end with before NULL, m MOVE_NONE and
     * the final state as `after`. out starts at zero. Never changes the states. */
    void (*measure)(const Game *g, const GameState *before, Move m, const GameState *after,
                    double out[][MAX_PLAYERS]);
    const GameMetric *metrics;
    int metric_count;

    /* The family of start position s (crown lab): a short stable key that groups the
     * set-ups of a game whose start is drawn, so that a report can say which set-ups
     * favour whom; the game documents its families. NULL when every start is alike. */
    void (*setup_family)(const Game *g, const GameState *s, StrBuf *out);

    /* Whether `player` still has the means to win from s by the game's own rules (King
     * Down: more than a bare king), so that a flag falling against a player who cannot
     * be beaten is a draw rather than a loss. Never changes s. NULL: every player always
     * can (ask through game_can_win). */
    bool (*can_win)(const Game *g, const GameState *s, int player);

    /* Which of action_kinds (action_kind_count of them) action m, legal in s, is: an
     * index, or -1 for a plain move on the board. It may write in `label` the words for
     * this very action ("Recruit B2"); nothing written means the kind's own label. NULL:
     * every action is plain. */
    int (*action_kind)(const Game *g, const GameState *s, Move m, StrBuf *label);
    const ActionKind *action_kinds;
    int action_kind_count;
    /* The parts of action m that a page acts on, so that it need not read them out of
     * the move's text (the hill slot a recruit takes, the piece a promotion makes), as
     * "key=value" words separated by spaces: keys are lower-case words, values have no
     * spaces (a list is comma-separated). Nothing written: none. NULL: never any. */
    void (*action_args)(const Game *g, const GameState *s, Move m, StrBuf *out);
    /* One line for the player to move on what to do now, for a game whose turn has
     * phases or choices before play ("Recruit: click a hill tile..."): static text, or
     * NULL when the board says it all. NULL hook: never anything to say. */
    const char *(*turn_help)(const Game *g, const GameState *s);
    /* Action m, legal in s, as players read it in a move list where that differs from
     * the notation format_move writes (King Down's SAN "Nf3", while its notation stays
     * long, "g1f3", for the engine protocols). NULL: format_move's text. */
    void (*format_move_read)(const Game *g, const GameState *s, Move m, StrBuf *out);

    /* Optional, all or none: the input features of an evaluation network
     * (search/nnue.h). nnue_features writes the features active in s as `perspective`
     * (a seat) sees it: at most `cap` indices in [0, nnue_feature_count), strictly
     * ascending, and returns their count. Features describe what a network can learn
     * from by sums (a piece of a kind on a square, relative to the perspective's side),
     * so that a move changes few of them and the first layer is updated, not redone.
     * nnue_feature_set names the encoding; a net records it and is refused by a game
     * whose encoding differs. Never changes s. */
    const char *nnue_feature_set;
    int nnue_feature_count;
    int (*nnue_features)(const Game *g, const GameState *s, int perspective, uint16_t *out,
                         int cap);
    /* Optional, both or neither, with the features: what keeps a search's first layer
     * up to date move by move instead of summing every feature at every node (the
     * search's stack, search/nnue_stack.h). nnue_snapshot copies into `out`
     * (nnue_snapshot_size bytes) the part of s its features depend on, the pieces'
     * bitboards, say; nnue_delta writes the features of `perspective` active after and
     * not before (add) and those active before and not after (sub), from two such
     * snapshots, in any order, with their counts in *n_add and *n_sub: exactly what the
     * difference of nnue_features of the two positions would be (test_nnue checks it
     * move by move). Neither list is longer than a position's feature list can be.
     * Features may not depend on whose turn it is (a pass changes none). Without these
     * hooks the first layer is summed afresh at every evaluation. */
    int nnue_snapshot_size;
    void (*nnue_snapshot)(const Game *g, const GameState *s, void *out);
    void (*nnue_delta)(const Game *g, const void *before, const void *after, int perspective,
                       uint16_t *add, int *n_add, uint16_t *sub, int *n_sub);
};

/* The hooks every game fills, each *_ops.c naming its adapters ops_<hook>: one list, so
 * that a game's table shows only what sets it apart. */
#define GAME_OPS_COMMON_HOOKS                                                               \
    .new_game = ops_new_game, .parse_position = ops_parse_position,                         \
    .format_position = ops_format_position, .parse_move = ops_parse_move,                   \
    .format_move = ops_format_move, .to_move = ops_to_move, .gen_moves = ops_gen_moves,     \
    .make = ops_make, .unmake = ops_unmake, .returns = ops_returns,                         \
    .describe_result = ops_describe_result, .hash = ops_hash, .move_index = ops_move_index, \
    .is_ok = ops_is_ok, .render = ops_render, .move_cells = ops_move_cells,                 \
    .observe = ops_observe, .end_reason = ops_end_reason

#endif
