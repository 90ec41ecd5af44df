/*
 * kd_reference.h - a deliberately plain King Down Classic rules oracle for the tests.
 *
 * Written from docs/games/king-down.md (its rules and Rulings), not from
 * the bitboard generator in src/games/kingdown: a board of 64 letters, loops over
 * squares and (file, rank) offsets, copy-make, and "is the king attacked" asked of every
 * enemy piece in turn. Slow and obvious. It speaks the same texts as the game (position
 * text, long algebraic actions) so that the two can be compared by text.
 */
#ifndef CROWN_TESTS_SUPPORT_KD_REFERENCE_H
#define CROWN_TESTS_SUPPORT_KD_REFERENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    KDREF_MAX_MOVES = 1024,
    KDREF_TEXT = 700,     /* a position text */
    KDREF_MOVE_TEXT = 32, /* an action text */
    KDREF_MAX_HISTORY = 2048,
};

typedef struct KdRefRules {
    bool castling, en_passant, promo_all, promo_optional, mate_literal;
    bool repetition, fifty, bare_kings, armies;
    bool haste_each;        /* haste-check=each */
    bool displaced_unmoved; /* displaced-pawn=unmoved */
    bool march_ep;          /* march-en-passant=on */
    bool tokens_any;        /* tokens-per-turn=any */
    int chain_limit; /* captures a beast may make in one turn */
    int max_plies;
    int first_picker; /* army-order: 0 white chooses first, 1 black */
} KdRefRules;

/* One position: board[rank * 8 + file], '.' or a letter (upper case: white). */
typedef struct KdRefPos {
    char board[64];
    int turn; /* 0 white, 1 black */
    bool castle[64];
    int ep; /* -1: none */
    bool moved[64];
    int halfmove, fullmove;
    int chain_sq, chain_n; /* -1, 0 when no chain */
    int stage;             /* 0 start, 1 declared, 2 haste (first move), 3 haste (second) */
    int haste_sq;
    bool token_used, irrev;
    int army[2], power[2], tokens[2]; /* indices into the name tables, 0 = none */
    bool frozen[64], iced[64];        /* pieces under Freeze, under Ice Wall */
    int captured[2][26];              /* by letter - 'A' */
} KdRefPos;

typedef struct KdRefMove {
    int kind; /* see kd_reference.c */
    int from, to;
    char promo; /* upper-case letter, or 0 */
    bool more;
} KdRefMove;

typedef enum KdRefResult { KDREF_ONGOING, KDREF_WHITE_WINS, KDREF_BLACK_WINS, KDREF_DRAW } KdRefResult;

/* A game: the rules and the positions at the start of every turn since set-up. */
typedef struct KdRefGame {
    KdRefRules rules;
    KdRefPos pos;
    int nhist;
    KdRefPos *hist; /* KDREF_MAX_HISTORY turn-start positions (malloc'd) */
} KdRefGame;

/* The rules of king-down with "name=value" settings over the defaults. False (with a
 * message) for an unknown option or value. The options about the set-up (setup,
 * king-file, castling-rooks) and notation are accepted and ignored. */
bool kdref_rules(const char *const *settings, int n, KdRefRules *out, char *err, size_t cap);

bool kdref_parse(const KdRefRules *r, const char *text, KdRefPos *out, char *err, size_t cap);
void kdref_format(const KdRefRules *r, const KdRefPos *p, char *out, size_t cap);

KdRefGame *kdref_new(const KdRefRules *r, const char *text, char *err, size_t cap);
void kdref_free(KdRefGame *g);

/* Legal actions (none once the game is over). Returns the count. */
int kdref_moves(const KdRefGame *g, KdRefMove *out);
/* Legal actions of a position, ignoring the end of the game. */
int kdref_position_moves(const KdRefRules *r, const KdRefPos *p, KdRefMove *out);
KdRefResult kdref_result(const KdRefGame *g, const char **why);
void kdref_play(KdRefGame *g, KdRefMove m);
void kdref_move_text(const KdRefPos *p, KdRefMove m, char out[KDREF_MOVE_TEXT]);
/* Finds the legal action with this long-algebraic text. */
bool kdref_find(const KdRefGame *g, const char *text, KdRefMove *out);
/* Leaves `depth` actions below the current position; the game is restored. */
uint64_t kdref_perft(KdRefGame *g, int depth);

#endif
