/*
 * fuzz_play.c - libFuzzer target: games played from a position by the fuzzer's choices.
 * Input: a line "GAME [rule=value ...]", a line with a position text ("start" for the
 * start position), then bytes, each choosing one legal action (or chance outcome) in
 * turn. Every position reached must pass is_ok, write a text that reads back to a state
 * writing the same text, and every action must read back from its own text; unmaking
 * them all must restore the first state byte for byte. Play reaches states that no
 * seed position shows.
 */
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_PLIES = 256 };

typedef struct Play {
    const Game *g;
    GameState *s, *scratch;
    MoveList list;
    ChanceList chance;
    StrBuf text, again;
} Play;

/* The position's text must read back to a sound state that writes the same text (the
 * state itself may differ: repetition history is not part of the text). */
static void check_text(Play *p)
{
    const GameOps *ops = p->g->ops;
    ErrBuf err;
    sb_clear(&p->text);
    sb_clear(&p->again);
    ops->format_position(p->g, p->s, &p->text);
    ops->new_game(p->g, p->scratch, 7);
    if (ops->parse_position(p->g, p->scratch, sb_str(&p->text), &err) != STATUS_OK)
        fuzz_fail("a position reached in play writes a text that is refused", err.msg);
    if (!ops->is_ok(p->g, p->scratch, &err))
        fuzz_fail("the text of a position reached in play reads back unsound", err.msg);
    ops->format_position(p->g, p->scratch, &p->again);
    if (strcmp(sb_str(&p->text), sb_str(&p->again)) != 0)
        fuzz_fail("a position reached in play does not read back to the same text",
                  sb_str(&p->text));
}

/* The action chosen by `byte` here, after checking that its text reads back to it. */
static Move choose(Play *p, uint8_t byte)
{
    const Game *g = p->g;
    const int who = g->ops->to_move(g, p->s);
    if (who == PLAYER_CHANCE) {
        const int n = g->ops->chance_outcomes(g, p->s, &p->chance);
        return n > 0 ? p->chance.outcomes[byte % n] : MOVE_NONE;
    }
    const int n = who >= 0 ? g->ops->gen_moves(g, p->s, &p->list) : 0;
    if (n == 0)
        return MOVE_NONE;
    const Move m = p->list.moves[byte % n];
    sb_clear(&p->text);
    g->ops->format_move(g, p->s, m, &p->text);
    Move again = MOVE_NONE;
    ErrBuf err;
    if (g->ops->parse_move(g, p->s, sb_str(&p->text), &again, &err) != STATUS_OK)
        fuzz_fail("a legal action's text is refused", err.msg);
    if (again != m)
        fuzz_fail("a legal action's text reads back as another action", sb_str(&p->text));
    return m;
}

/* Opens as fuzz_move.c does, a game line then a position line: fuzz_input_game holds what
 * the targets share, and what each reads after them is its own. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text, *rest;
    Game *g = fuzz_input_game(data, size, &text, &rest);
    if (g == NULL)
        return 0;
    const char *position = fuzz_line(&rest);
    const size_t used = (size_t)(rest - text);
    const uint8_t *choices = data + (used < size ? used : size);
    const size_t n_choices = size - (used < size ? used : size);
    Play *p = calloc(1, sizeof *p);
    GameState *first = game_state_new(g);
    unsigned char *undo = malloc(g->undo_size * MAX_PLIES + 1);
    Move line[MAX_PLIES];
    int plies = 0;
    ErrBuf err;
    if (p == NULL || first == NULL || undo == NULL)
        goto done;
    p->g = g;
    p->s = game_state_new(g);
    p->scratch = game_state_new(g);
    sb_init(&p->text);
    sb_init(&p->again);
    if (p->s == NULL || p->scratch == NULL)
        goto done;
    g->ops->new_game(g, p->s, 7);
    if (strcmp(position, "start") != 0 &&
        g->ops->parse_position(g, p->s, position, &err) != STATUS_OK)
        goto done;
    memcpy(first, p->s, g->state_size);
    for (size_t i = 0; i < n_choices && plies < MAX_PLIES; i++) {
        const Move m = choose(p, choices[i]);
        if (m == MOVE_NONE)
            break;
        g->ops->make(g, p->s, m, undo + (size_t)plies * g->undo_size);
        line[plies++] = m;
        if (!g->ops->is_ok(g, p->s, &err))
            fuzz_fail("a position reached in play fails is_ok", err.msg);
        check_text(p);
    }
    while (plies > 0) {
        plies--;
        g->ops->unmake(g, p->s, line[plies], undo + (size_t)plies * g->undo_size);
    }
    if (memcmp(p->s, first, g->state_size) != 0)
        fuzz_fail("unmaking a played line does not restore the first state", position);
done:
    if (p != NULL) {
        sb_free(&p->text);
        sb_free(&p->again);
        free(p->s);
        free(p->scratch);
    }
    free(p);
    free(first);
    free(undo);
    game_destroy(g);
    free(text);
    return 0;
}
