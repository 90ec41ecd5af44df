/*
 * puzzle_table.c - the proven puzzle judge: a solved King's Valley table (kvs_table.h)
 * says the value of every move, so "the only move" is exact: the one move that still
 * wins, every other drawing or losing. The opponent's reply is the longest defence.
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/game_api.h"
#include "core/strbuf.h"
#include "play/puzzle.h"

static bool table_only(void *ctx, const Game *g, const GameState *s, PuzzleVerdict *out)
{
    const KvsTable *t = ctx;
    MoveList *ml = malloc(sizeof *ml);
    KvsValue *vals = malloc(sizeof *vals * MOVELIST_CAP);
    ErrBuf err;
    int wins = 0, at = -1;
    if (ml && vals && kvs_probe_moves(t, g, s, ml, vals, &err) == STATUS_OK) {
        for (int i = 0; i < ml->count; i++)
            if (vals[i].outcome > 0) {
                wins++;
                at = i;
            }
    }
    const bool ok = wins == 1;
    if (ok) {
        out->only = ml->moves[at];
        out->alternatives = ml->count - 1;
        snprintf(out->value, sizeof out->value, "win in %d", vals[at].plies);
    }
    free(ml);
    free(vals);
    return ok;
}

/* The reply of a perfect loser: the longest defence. Among equal replies the first in
 * the game's move order, so that a puzzle's line is the same every time. */
static Status table_reply(void *ctx, const Game *g, const GameState *s, Move *out, ErrBuf *err)
{
    const KvsTable *t = ctx;
    MoveList *ml = malloc(sizeof *ml);
    KvsValue *vals = malloc(sizeof *vals * MOVELIST_CAP);
    Status st = ml && vals ? kvs_probe_moves(t, g, s, ml, vals, err)
                           : err_set(err, STATUS_NOMEM, "out of memory");
    if (st == STATUS_OK && ml->count == 0)
        st = err_set(err, STATUS_ILLEGAL, "no legal move");
    if (st == STATUS_OK) {
        int best = 0;
        for (int i = 1; i < ml->count; i++)
            if (kvs_value_compare(vals[i], vals[best]) > 0)
                best = i;
        *out = ml->moves[best];
    }
    free(ml);
    free(vals);
    return st;
}

static bool table_stubborn(void *ctx, const Game *g, const GameState *s, Move m)
{
    const KvsTable *t = ctx;
    MoveList *ml = malloc(sizeof *ml);
    KvsValue *vals = malloc(sizeof *vals * MOVELIST_CAP);
    ErrBuf err;
    bool ok = false;
    if (ml && vals && kvs_probe_moves(t, g, s, ml, vals, &err) == STATUS_OK) {
        int best = -1, at = -1;
        for (int i = 0; i < ml->count; i++) {
            if (best < 0 || kvs_value_compare(vals[i], vals[best]) > 0)
                best = i;
            if (ml->moves[i] == m)
                at = i;
        }
        ok = at >= 0 && kvs_value_compare(vals[at], vals[best]) == 0;
    }
    free(ml);
    free(vals);
    return ok;
}

void puzzle_table_judge(const KvsTable *t, PuzzleJudge *out)
{
    // The judge only reads the table; the context is not const for the interface's sake.
    union {
        const KvsTable *c;
        void *v;
    } ctx = {.c = t};
    *out = (PuzzleJudge){.ctx = ctx.v, .proven = true, .only = table_only, .reply = table_reply,
                         .stubborn = table_stubborn};
}
