/*
 * c_random_loop.c - the yardstick of bench/python.py: random games played over the public
 * C API (include/crown.h) with the loop a Python program writes (is the game over? chance?
 * list the legal actions, apply one), through the action indices the module gives Python,
 * so that the Python module's cost per action can be set against the same work done from
 * C. Not a test; built by `make bench-python`.
 *
 *   usage: c_random_loop GAME GAMES REPEATS
 * prints: GAME actions=N best_ns_per_action=X (the best of REPEATS runs of GAMES games,
 * seeds 0..GAMES-1, so every run plays the same games, timed in CPU time).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "crown.h"

/* CPU time of this process: on a shared, busy machine it counts the work, not the waits
 * for a core. */
static double cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* splitmix64: a small generator of its own, so the loop needs nothing of the engine's. */
static uint64_t next_random(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* Plays `games` random games; returns the actions played, or -1 on an API failure. */
static long long play(const crown_game *game, int games)
{
    int actions[CROWN_MAX_ACTIONS];
    double prob[CROWN_MAX_ACTIONS];
    uint64_t rng = 1;
    long long played = 0;
    for (int seed = 0; seed < games; seed++) {
        crown_state *state = NULL;
        if (crown_state_new(game, (uint64_t)seed, &state, NULL) != CROWN_OK)
            return -1;
        while (!crown_state_is_over(state)) {
            int n = 0;
            (void)crown_state_to_move(state); /* Python asks is_chance_node() */
            int rc = crown_state_legal_indices(state, actions, prob, CROWN_MAX_ACTIONS, &n);
            if (rc != CROWN_OK || n == 0 ||
                crown_state_apply_index(state, actions[next_random(&rng) % (uint64_t)n]) !=
                    CROWN_OK) {
                fprintf(stderr, "c_random_loop: %s\n", crown_state_errmsg(state));
                crown_state_free(state);
                return -1;
            }
            played++;
        }
        crown_state_free(state);
    }
    return played;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: c_random_loop GAME GAMES REPEATS\n");
        return 2;
    }
    int games = atoi(argv[2]), repeats = atoi(argv[3]);
    crown_game *game = NULL;
    crown_error err;
    if (games < 1 || repeats < 1) {
        fprintf(stderr, "c_random_loop: GAMES and REPEATS must be positive\n");
        return 2;
    }
    if (crown_game_new(argv[1], NULL, NULL, 0, &game, &err) != CROWN_OK) {
        fprintf(stderr, "c_random_loop: %s\n", err.message);
        return 1;
    }
    double best = 0.0;
    long long played = 0;
    for (int r = 0; r < repeats; r++) {
        double start = cpu_ns();
        played = play(game, games);
        double ns = cpu_ns() - start;
        if (played <= 0) {
            crown_game_free(game);
            return 1;
        }
        if (r == 0 || ns < best)
            best = ns;
    }
    printf("%s actions=%lld best_ns_per_action=%.2f\n", argv[1], played, best / (double)played);
    crown_game_free(game);
    return 0;
}
