/*
 * invariant.h - the debug-build trap for broken game states: GAME_CHECK(g, s) runs the
 * game's is_ok on s and, if it fails, prints where and why and aborts.
 *
 * A state that fails is_ok after make or unmake means a bug in a game's rules (or in
 * the caller's use of them), never bad input, so the trap stops at once where the bug
 * shows rather than letting a search or a game carry on from nonsense. Search and play
 * call it after every make and unmake. It costs a full recomputation per call, so it
 * exists only when CROWN_CHECK_INVARIANTS is defined (the Makefile's BUILD=debug);
 * elsewhere it compiles to nothing and its arguments are not evaluated.
 */
#ifndef CROWN_CORE_INVARIANT_H
#define CROWN_CORE_INVARIANT_H

#include "core/game.h"

#ifdef CROWN_CHECK_INVARIANTS

#include <stdio.h>
#include <stdlib.h>

static inline void game_check_state(const Game *g, const GameState *s, const char *file,
                                    int line)
{
    ErrBuf err;
    err_clear(&err);
    if (!g->ops->is_ok(g, s, &err)) {
        StrBuf pos;
        sb_init(&pos);
        g->ops->format_position(g, s, &pos);
        fprintf(stderr, "%s:%d: broken %s state: %s\n  position: %s\n", file, line,
                g->ops->name, err.msg, sb_str(&pos));
        sb_free(&pos);
        abort();
    }
}

#define GAME_CHECK(g, s) game_check_state((g), (s), __FILE__, __LINE__)

#else

#define GAME_CHECK(g, s) ((void)0)

#endif

#endif
