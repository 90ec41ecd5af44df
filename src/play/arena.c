/*
 * arena.c - an arena tournament's scores (arena.h): each game's points from the
 * player's streak before it, then the table sorted.
 */
#include "play/arena.h"

#include <stdlib.h>
#include <string.h>

/* A player's two last results, to know whether he is on fire. */
typedef struct Streak {
    int wins_in_row;
} Streak;

/* Adds a game of points p (1, 0.5, 0) to s, doubled when on fire. */
static void add(ArenaScore *s, Streak *k, double p)
{
    const int base = p == 1.0 ? 2 : p == 0.5 ? 1 : 0;
    s->score += k->wins_in_row >= 2 ? 2 * base : base;
    s->games++;
    s->wins += p == 1.0;
    s->draws += p == 0.5;
    s->losses += p == 0.0;
    k->wins_in_row = p == 1.0 ? k->wins_in_row + 1 : 0;
    s->on_fire = k->wins_in_row >= 2;
}

Status arena_scores(int players, const PairingResult *games, int n, ArenaScore *out,
                    ErrBuf *err)
{
    const Status st = pairing_check_results(players, games, n, err);
    if (st != STATUS_OK)
        return st;
    Streak *k = calloc((size_t)players, sizeof *k);
    if (k == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    memset(out, 0, sizeof *out * (size_t)players);
    for (int i = 0; i < players; i++)
        out[i].player = i;
    for (int i = 0; i < n; i++) {
        const Pairing *p = &games[i].pair;
        if (p->black == PAIRING_BYE)
            continue;
        add(&out[p->white], &k[p->white], games[i].white_points);
        add(&out[p->black], &k[p->black], 1.0 - games[i].white_points);
    }
    for (int i = 0; i < players; i++)
        if (out[i].games > 0)
            out[i].performance = (out[i].wins + 0.5 * out[i].draws) / out[i].games;
    free(k);
    return STATUS_OK;
}

static int cmp(const void *pa, const void *pb)
{
    const ArenaScore *a = pa, *b = pb;
    if (a->score != b->score)
        return a->score > b->score ? -1 : 1;
    if (a->performance != b->performance)
        return a->performance > b->performance ? -1 : 1;
    return (a->player > b->player) - (a->player < b->player);
}

void arena_sort(ArenaScore *table, int players)
{
    qsort(table, (size_t)players, sizeof *table, cmp);
    for (int i = 0; i < players; i++)
        table[i].place = i > 0 && table[i].score == table[i - 1].score &&
                                 table[i].performance == table[i - 1].performance
                             ? table[i - 1].place
                             : i + 1;
}
