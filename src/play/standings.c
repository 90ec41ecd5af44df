/*
 * standings.c - points and tie-breaks. Sonneborn-Berger adds, for each game, the
 * opponent's final points times the player's result in it (a win the whole, a draw half,
 * a loss none), so beating the leaders counts for more. Buchholz adds the final points of
 * every opponent met; a bye adds the player's own points, as if met by an opponent of
 * his own strength, so that a bye neither helps nor hurts. Each game between the same
 * two players counts on its own (a double round-robin counts both).
 */
#include "play/standings.h"


Status standings_compute(int players, const PairingResult *results, int n, Standing *out,
                         ErrBuf *err)
{
    const Status s = pairing_check_results(players, results, n, err);
    if (s != STATUS_OK)
        return s;
    for (int i = 0; i < players; i++)
        out[i] = (Standing){.player = i, .place = 1};
    for (int i = 0; i < n; i++) {
        const int w = results[i].pair.white, b = results[i].pair.black;
        const double pts = results[i].white_points;
        out[w].points += pts;
        if (b == PAIRING_BYE) {
            out[w].byes++;
            continue;
        }
        out[b].points += 1 - pts;
        out[w].games++;
        out[b].games++;
        out[w].wins += pts == 1;
        out[b].wins += pts == 0;
        out[w].losses += pts == 0;
        out[b].losses += pts == 1;
        out[w].draws += pts == 0.5;
        out[b].draws += pts == 0.5;
    }
    // The tie-breaks need every final score first.
    for (int i = 0; i < n; i++) {
        const int w = results[i].pair.white, b = results[i].pair.black;
        const double pts = results[i].white_points;
        if (b == PAIRING_BYE) {
            out[w].buchholz += out[w].points;
            continue;
        }
        out[w].buchholz += out[b].points;
        out[b].buchholz += out[w].points;
        out[w].sonneborn_berger += pts * out[b].points;
        out[b].sonneborn_berger += (1 - pts) * out[w].points;
    }
    return STATUS_OK;
}

static double tiebreak_value(const Standing *s, TieBreak t)
{
    switch (t) {
    case TIEBREAK_SONNEBORN_BERGER:
        return s->sonneborn_berger;
    case TIEBREAK_BUCHHOLZ:
        return s->buchholz;
    case TIEBREAK_WINS:
        return s->wins;
    }
    return 0;
}

/* <0 when a is placed above b; 0 when they share a place (the seed aside). */
static int compare_places(const Standing *a, const Standing *b, const TieBreak *order,
                          int n_order)
{
    if (a->points != b->points)
        return a->points > b->points ? -1 : 1;
    for (int i = 0; i < n_order; i++) {
        const double x = tiebreak_value(a, order[i]), y = tiebreak_value(b, order[i]);
        if (x != y)
            return x > y ? -1 : 1;
    }
    return 0;
}

void standings_sort(Standing *table, int players, const TieBreak *order, int n_order)
{
    // Insertion sort: stable, small tables, and the comparison needs the tie-break order.
    for (int i = 1; i < players; i++) {
        const Standing v = table[i];
        int j = i;
        while (j > 0) {
            const int c = compare_places(&table[j - 1], &v, order, n_order);
            if (c < 0 || (c == 0 && table[j - 1].player < v.player))
                break;
            table[j] = table[j - 1];
            j--;
        }
        table[j] = v;
    }
    for (int i = 0; i < players; i++)
        table[i].place = i > 0 && compare_places(&table[i - 1], &table[i], order, n_order) == 0
                             ? table[i - 1].place
                             : i + 1;
}
