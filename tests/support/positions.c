/* positions.c - a state from a position text (see positions.h). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "positions.h"

#include "core/game_api.h"

GameState *test_position(const Game *g, const char *text)
{
    GameState *s = game_state_new(g);
    assert_non_null(s);
    ErrBuf err;
    if (text == NULL)
        g->ops->new_game(g, s, 1);
    else if (g->ops->parse_position(g, s, text, &err) != STATUS_OK)
        fail_msg("parse_position(%s): %s", text, err.msg);
    return s;
}
