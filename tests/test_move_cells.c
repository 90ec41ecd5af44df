/*
 * test_move_cells.c - the optional GameOps.move_cells hook (core/game.h), over every
 * registered game that has it: on random games with fixed seeds, every legal action's
 * cells are well-formed names ("c3"), written the same way every time, the state is left
 * untouched, and the cells agree with the action's text where that text names them.
 * The web front end selects a piece by the first cell and moves by the last, so these
 * are what clicking a board relies on.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game.h"
#include "core/game_api.h"
#include "play/registry.h"
#include "core/rng.h"

enum { GAMES_PER_RULESET = 3, MAX_ACTIONS_CHECKED = 400 };

/* A name is letters then digits ("c3", "f11"); names are separated by one space. */
static void check_format(const char *game, const char *move, const char *cells)
{
    const char *p = cells;
    while (*p) {
        const char *start = p;
        while (islower((unsigned char)*p))
            p++;
        const char *digits = p;
        while (isdigit((unsigned char)*p))
            p++;
        if (digits == start || p == digits || (*p != '\0' && *p != ' ') ||
            (*p == ' ' && p[1] == '\0'))
            fail_msg("%s: move '%s' has malformed cells '%s'", game, move, cells);
        if (*p == ' ')
            p++;
    }
}

/* Every cell name of the cells text occurs in the move text when the text is made of
 * cell names (from-to moves): the hook describes the move the text describes. */
static void check_against_text(const char *game, const char *move, const char *cells)
{
    // Texts that abbreviate (SAN "e4", a phalanx's inner men) need not name every cell;
    // the first and the last must be there when the text names two cells or more.
    const char *first_end = strchr(cells, ' ');
    const char *last = strrchr(cells, ' ');
    if (first_end == NULL)
        return;
    char first[32];
    snprintf(first, sizeof first, "%.*s", (int)(first_end - cells), cells);
    int names_in_text = 0;
    for (const char *p = move; *p; p++)
        if (islower((unsigned char)*p) && isdigit((unsigned char)p[1]) &&
            (p == move || !isalpha((unsigned char)p[-1])))
            names_in_text++;
    if (names_in_text >= 2) {
        if (strstr(move, first) == NULL || strstr(move, last + 1) == NULL)
            fail_msg("%s: move '%s' does not name its cells '%s'", game, move, cells);
    }
}

static void check_game(const GameOps *ops, uint64_t seed)
{
    Game *g = NULL;
    ErrBuf err;
    assert_int_equal(game_create(ops, 0, NULL, 0, &g, &err), STATUS_OK);
    GameState *s = game_state_new(g);
    GameState *copy = game_state_new(g);
    void *undo = game_undo_new(g);
    MoveList *ml = malloc(sizeof *ml);
    assert_non_null(s);
    assert_non_null(copy);
    assert_non_null(undo);
    assert_non_null(ml);
    g->ops->new_game(g, s, seed);
    Rng rng;
    rng_seed(&rng, seed);
    StrBuf a, b, text;
    sb_init(&a);
    sb_init(&b);
    sb_init(&text);
    for (int ply = 0; ply < MAX_ACTIONS_CHECKED; ply++) {
        const int p = g->ops->to_move(g, s);
        if (p == PLAYER_NONE)
            break;
        if (p == PLAYER_CHANCE) {
            g->ops->make(g, s, game_sample_chance(g, s, &rng), undo);
            continue;
        }
        g->ops->gen_moves(g, s, ml);
        assert_true(ml->count > 0);
        game_state_copy(g, copy, s);
        for (int i = 0; i < ml->count; i++) {
            sb_clear(&a);
            sb_clear(&b);
            sb_clear(&text);
            g->ops->move_cells(g, s, ml->moves[i], &a);
            g->ops->move_cells(g, s, ml->moves[i], &b);
            g->ops->format_move(g, s, ml->moves[i], &text);
            assert_string_equal(sb_str(&a), sb_str(&b));
            check_format(ops->name, sb_str(&text), sb_str(&a));
            check_against_text(ops->name, sb_str(&text), sb_str(&a));
        }
        assert_memory_equal(copy, s, g->state_size);
        g->ops->make(g, s, ml->moves[rng_below(&rng, (uint32_t)ml->count)], undo);
    }
    sb_free(&a);
    sb_free(&b);
    sb_free(&text);
    free(ml);
    free(undo);
    free(copy);
    free(s);
    game_destroy(g);
}

static void test_every_game(void **state)
{
    (void)state;
    int with_hook = 0;
    for (int i = 0; i < registry_count(); i++) {
        const GameOps *ops = registry_at(i);
        if (ops->move_cells == NULL)
            continue;
        with_hook++;
        for (uint64_t seed = 1; seed <= GAMES_PER_RULESET; seed++)
            check_game(ops, seed);
    }
    // The web front end needs the hook of the games registered when it was written.
    assert_true(with_hook >= 1);
    assert_non_null(registry_find("kings-valley")->move_cells);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_game),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
