/*
 * record.h - a game in progress or finished: the configured game, its start position and
 * the actions played, with text save/load.
 *
 * The record is the source of truth for play: the current state is the start state with
 * the actions replayed, so undo is "replay one fewer", and a saved file restores
 * everything, repetition history included. File format (one item a line):
 *
 *   crown-record 1
 *   game kings-valley
 *   rule max-plies=300          (one line per rule option)
 *   players human,ai:5          (optional)
 *   start sskss/5/5/5/SSKSS 1 0
 *   move c1-c4                  (one line per action, in order)
 *   result first player wins: a king reached the Valley   (informative; ignored on load)
 *
 * Core names no game: loading takes the caller's GameLookup (the play layer's
 * registry_find, or a test's own), so a record may name a game this program lacks and
 * loading it fails with "no game called ...". The result line is the caller's words too.
 */
#ifndef CROWN_CORE_RECORD_H
#define CROWN_CORE_RECORD_H

#include <stdio.h>

#include "core/game.h"

typedef struct GameRecord {
    Game *game;          /* owned */
    GameState *start;    /* owned */
    GameState *current;  /* owned: start with moves[0..count) played */
    void *undo;          /* scratch undo record */
    Move *moves;
    int count, cap;
    char players[128];
} GameRecord;

/* The game of that name, or NULL when the caller knows none. */
typedef const GameOps *GameLookup(const char *name);

/* Takes ownership of g; copies start. */
Status record_init(GameRecord *r, Game *g, const GameState *start, ErrBuf *err);
void record_free(GameRecord *r);
/* Plays m (legal in r->current) and appends it. */
Status record_push(GameRecord *r, Move m, ErrBuf *err);
/* Takes back the last n actions (n <= count). */
void record_truncate(GameRecord *r, int count);
/* The record's text; `result` (NULL: none) is written as its informative result line. */
void record_write(const GameRecord *r, const char *result, StrBuf *out);
Status record_save(const GameRecord *r, const char *result, const char *path, ErrBuf *err);
/* Reads a record file into *out (initialised on success only), finding its game with
 * lookup. */
Status record_load(const char *path, GameLookup *lookup, GameRecord *out, ErrBuf *err);
Status record_parse(const char *text, GameLookup *lookup, GameRecord *out, ErrBuf *err);

#endif
