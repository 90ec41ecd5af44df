/*
 * perft_pair.h - a fast game and its plain reference generator side by side, the harness
 * of the perft tests: both are opened at one position, compared there (position text,
 * is_ok, who acts, how the game ended, the legal actions and chance outcomes), moved on
 * together, compared in perft, and checked against a perft table.
 *
 * Each game's test supplies its reference through a PerftReference table of functions;
 * the harness does the rest alike for every game, and keeps a log of the actions played
 * so that a failure says how to reach its position.
 */
#ifndef CROWN_TESTS_SUPPORT_PERFT_PAIR_H
#define CROWN_TESTS_SUPPORT_PERFT_PAIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/game.h"
#include "perft_table.h"

enum {
    PERFT_PAIR_MAX_SETTINGS = PERFT_TABLE_MAX_SETTINGS,
    PERFT_PAIR_TEXT = 32,              /* an action text with its NUL, in any game */
    PERFT_PAIR_MAX_REF_ACTIONS = 2048, /* the most actions a reference may list */
    PERFT_PAIR_POSITION_TEXT = 4096,   /* a position text with its NUL, in any game */
    PERFT_PAIR_LOG = 32768,            /* the actions of the longest game, as text */
};

typedef char PairText[PERFT_PAIR_TEXT];

/* An action (or chance outcome) at a position. For the reference's, move is unused. */
typedef struct PairAction {
    PairText text;
    Move move;
    double prob; /* a chance outcome's; 0 for a player's action */
} PairAction;

/* The game's actions at a position after perft_pair_compare, and that function's working
 * space for the reference's (large: allocate one per test). */
typedef struct PairActions {
    int count;
    PairAction at[MOVELIST_CAP];
    PairAction game_sorted[MOVELIST_CAP];
    PairAction reference[PERFT_PAIR_MAX_REF_ACTIONS];
} PairActions;

/* A RefStatus.to_move for a reference that models no player to act at some stage (a
 * choice before play): the game must go on with some player to act. */
enum { REF_SOME_PLAYER = -100 };

/* What the reference says of its position. */
typedef struct RefStatus {
    int to_move; /* a player, PLAYER_CHANCE, REF_SOME_PLAYER, or PLAYER_NONE once over */
    const char *why; /* how it ended, for messages; may be NULL */
    bool has_returns; /* at the end: the game's returns() must be `returns` */
    double returns[MAX_PLAYERS];
    bool has_scores; /* at the end: the game's score() of each player must be `scores` */
    double scores[MAX_PLAYERS];
} RefStatus;

typedef struct PerftPair PerftPair;

/* A game's reference generator as the harness reaches it. Types differ from slot to slot,
 * so the tests fill it in field order and the compiler checks the order. */
typedef struct PerftReference {
    /* The reference at this position text under the pair's game and settings, or NULL
     * with the reason in err. */
    void *(*open)(const PerftPair *p, const char *text, char *err, size_t cap);
    void (*close)(void *ref); /* NULL: free() */
    /* The text the game's set-up must print; NULL where set-ups are drawn by seed, and
     * the reference starts from the game's. */
    void (*start_text)(const PerftPair *p, char *out, size_t cap);
    void (*format_position)(const void *ref, char *out, size_t cap);
    void (*status)(const void *ref, RefStatus *out);
    /* The legal actions, or at chance the outcomes with their probabilities, in any
     * order; returns the count, at most PERFT_PAIR_MAX_REF_ACTIONS. */
    int (*actions)(const void *ref, PairAction *out);
    /* Plays the action with this text; false when there is none such. */
    bool (*play)(void *ref, const char *text);
    uint64_t (*perft)(void *ref, int depth);
} PerftReference;

struct PerftPair {
    const PerftReference *reference;
    const char *game;
    const char *settings[PERFT_PAIR_MAX_SETTINGS];
    int n_settings;
    Game *g;
    GameState *s;
    void *undo;
    void *ref;
    size_t log_len;
    char log[PERFT_PAIR_LOG]; /* "<start text> : <action>; <action>; ..." */
};

/* A row of a perft test's random games: rule settings, and how many games under them. */
typedef struct PerftCase {
    const char *settings[PERFT_PAIR_MAX_SETTINGS];
    int n_settings;
    int games;
} PerftCase;

/* How perft_pair_compare treats the actions. */
typedef enum PairCompareFlags {
    PAIR_SKIP_REFERENCE_ACTIONS = 1, /* lists the game's only (the reference's is slow) */
    PAIR_GAME_ORDER = 2,             /* leaves them in the game's order, not sorted by text */
} PairCompareFlags;

/* The registered game with these settings; fails the test if it cannot be made. */
Game *perft_game_create(const char *game, const char *const *settings, int n_settings);

/* Opens both at a position text, or (text NULL) at the game's new_game(seed). */
void perft_pair_open(PerftPair *p, const PerftReference *reference, const char *game,
                     const char *const *settings, int n_settings, const char *text,
                     uint64_t seed);
void perft_pair_close(PerftPair *p);

/* "<game> <setting> ...", for messages. */
void perft_pair_describe(const PerftPair *p, char *out, size_t cap);

/* Everything observable at the position must agree; fails the test otherwise. Leaves the
 * game's actions (or chance outcomes) in out, sorted by text unless flags say otherwise,
 * and returns their count. */
int perft_pair_compare(const PerftPair *p, PairActions *out, unsigned flags);

/* The action's text must read back as the action itself. */
void perft_pair_expect_parses_back(const PerftPair *p, const PairAction *a);

/* Plays the action in both, and logs it. */
void perft_pair_play(PerftPair *p, const PairAction *a);

/* Perft to depth by the reference, the game's fast hook and the generic make/unmake
 * loop must agree. */
void perft_pair_compare_perft(const PerftPair *p, int depth);

/* Which perft counters perft_pair_expect_leaves asks. */
typedef enum PerftCounters {
    PERFT_FAST = 1,      /* the game's perft hook (game_perft) */
    PERFT_GENERIC = 2,   /* the interface's make/unmake loop (game_perft_generic) */
    PERFT_REFERENCE = 4, /* the reference generator */
} PerftCounters;

/* Each counter asked must find `leaves` leaves `depth` actions deep; `what` names the
 * number in a failure ("kiwipete", "perft table line 4"). */
void perft_pair_expect_leaves(const PerftPair *p, const char *what, int depth, uint64_t leaves,
                              unsigned counters);

/* How a perft table is checked. Every Dk count is checked against the fast and the
 * generic perft, and re-derived by the reference up to reference_depth, so that an
 * edited table is caught. */
typedef struct PerftTableCheck {
    const PerftReference *reference;
    const char *game; /* the game every line must name; NULL: any the reference plays */
    int min_positions;
    int reference_depth;
    /* When set, the reference depth for a line's rules (some make the reference slow). */
    int (*reference_depth_for)(const PerftPair *p);
    /* Checks a count of another letter than D; NULL when the table has none. */
    void (*check_count)(const PerftPair *p, const PerftLine *line, const PerftCount *count);
} PerftTableCheck;

void perft_pair_check_table(const char *path, const PerftTableCheck *check);

/* The status of a two-player reference: `to_move` while the game goes on; once over, the
 * returns of a win by `winner` (0 or 1), or of a draw (winner -1). */
void ref_status_two_player(RefStatus *out, int to_move, bool over, int winner);

#endif
