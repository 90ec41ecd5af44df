/*
 * clash.c - a program outside the tree that names its own functions as the engine names
 * internal ones (game_create, rng_below) and links the installed libcrown.a statically:
 * tests/test_install.sh checks that it links, and that its functions and the library's
 * both answer, which holds only if the archive exports nothing but crown_*.
 */
#include <crown.h>
#include <stdio.h>

/* Not static, on purpose: global definitions that would clash with an archive that
 * exported the engine's own. */
int game_create(int x);
unsigned rng_below(unsigned n);

int game_create(int x)
{
    return x + 1;
}

unsigned rng_below(unsigned n)
{
    return n / 2;
}

int main(void)
{
    crown_error err;
    crown_game *game = NULL;
    crown_state *state = NULL;
    uint64_t n = 0;
    if (crown_game_new("kings-valley", NULL, NULL, 0, &game, &err) != CROWN_OK ||
        crown_state_new(game, 0, &state, &err) != CROWN_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    int ok = crown_state_perft(state, 2, &n) == CROWN_OK && n == 110 && game_create(41) == 42 &&
             rng_below(10) == 5;
    crown_state_free(state);
    crown_game_free(game);
    if (!ok)
        fprintf(stderr, "perft 2 = %llu, game_create(41) = %d, rng_below(10) = %u\n",
                (unsigned long long)n, game_create(41), rng_below(10));
    return ok ? 0 : 1;
}
