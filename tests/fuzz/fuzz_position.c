/*
 * fuzz_position.c - libFuzzer target: every game's position parser. Input: a line
 * "GAME [rule=value ...]", then the position text. A refused text must leave the state
 * untouched; an accepted one must pass is_ok, and formatting it and parsing that again
 * must give the same state byte for byte and the same text.
 */
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text, *rest;
    Game *g = fuzz_input_game(data, size, &text, &rest);
    if (g == NULL)
        return 0;
    const GameOps *ops = g->ops;
    GameState *s = game_state_new(g), *before = game_state_new(g), *again = game_state_new(g);
    StrBuf out, out2;
    sb_init(&out);
    sb_init(&out2);
    ErrBuf err;
    if (s == NULL || before == NULL || again == NULL)
        goto done;
    ops->new_game(g, s, 7);
    memcpy(before, s, g->state_size);
    if (ops->parse_position(g, s, rest, &err) != STATUS_OK) {
        if (memcmp(s, before, g->state_size) != 0)
            fuzz_fail("a refused position changed the state", err.msg);
        goto done;
    }
    if (!ops->is_ok(g, s, &err))
        fuzz_fail("an accepted position fails is_ok", err.msg);
    ops->format_position(g, s, &out);
    memcpy(again, before, g->state_size);
    if (ops->parse_position(g, again, sb_str(&out), &err) != STATUS_OK)
        fuzz_fail("the formatted position is refused", err.msg);
    if (memcmp(s, again, g->state_size) != 0)
        fuzz_fail("format then parse gives another state", sb_str(&out));
    ops->format_position(g, again, &out2);
    if (strcmp(sb_str(&out), sb_str(&out2)) != 0)
        fuzz_fail("the position text is not stable", sb_str(&out2));
done:
    sb_free(&out);
    sb_free(&out2);
    free(s);
    free(before);
    free(again);
    game_destroy(g);
    free(text);
    return 0;
}
