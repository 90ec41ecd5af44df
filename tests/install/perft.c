/*
 * perft.c - a program outside the tree: compiled by tests/test_install.sh against an
 * installed crown with `pkg-config --cflags --libs crown` only, it checks the library's
 * version and King's Valley perft 4 through the public API.
 */
#include <crown.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    crown_error err;
    crown_game *game = NULL;
    crown_state *state = NULL;
    uint64_t n = 0;
    if (strcmp(crown_version(), CROWN_VERSION) != 0) {
        fprintf(stderr, "library %s, header %s\n", crown_version(), CROWN_VERSION);
        return 1;
    }
    if (crown_game_new("kings-valley", NULL, NULL, 0, &game, &err) != CROWN_OK ||
        crown_state_new(game, 0, &state, &err) != CROWN_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    if (crown_state_perft(state, 4, &n) != CROWN_OK) {
        fprintf(stderr, "%s\n", crown_state_errmsg(state));
        return 1;
    }
    printf("crown %s: kings-valley perft 4 = %llu\n", crown_version(), (unsigned long long)n);
    crown_state_free(state);
    crown_game_free(game);
    return n == 21708 ? 0 : 1;
}
