/*
 * pairing.c - the fixed schedules. The Berger tables in closed form: with m = players - 1
 * for an even count (one more player added for an odd count), players 1..m sit on a
 * circle and player m+1 (the last) in its middle. In round r (1-based) the last player
 * meets p with 2p = r + 1 (mod m), and board k pairs p + k with p - k (mod m, in 1..m).
 * Of a pair on the circle, a is white when (b - a) mod m is odd; the last player is
 * white in even rounds. This reproduces FIDE's published tables (the unit test writes
 * them out), whose first round is 1-n, 2-(n-1), ...
 */
#include "play/pairing.h"

#include <stdbool.h>
#include <stddef.h>

static Status check_players(int players, int round, ErrBuf *err)
{
    if (players < 2 || players > PAIRING_MAX_PLAYERS)
        return err_set(err, STATUS_UNSUPPORTED, "a tournament needs 2 to %d players, not %d",
                       PAIRING_MAX_PLAYERS, players);
    if (round < 0)
        return err_set(err, STATUS_UNSUPPORTED, "rounds are counted from 0, not %d", round);
    return STATUS_OK;
}

Status pairing_check_results(int players, const PairingResult *results, int n, ErrBuf *err)
{
    const Status s = check_players(players, 0, err);
    if (s != STATUS_OK)
        return s;
    if (n < 0 || (n > 0 && results == NULL))
        return err_set(err, STATUS_UNSUPPORTED, "no games given");
    for (int i = 0; i < n; i++) {
        const int w = results[i].pair.white, b = results[i].pair.black;
        const double pts = results[i].white_points;
        if (w < 0 || w >= players || (b != PAIRING_BYE && (b < 0 || b >= players)) || w == b)
            return err_set(err, STATUS_UNSUPPORTED, "game %d names a player not in the tournament",
                           i + 1);
        if (pts != 0 && pts != 0.5 && pts != 1)
            return err_set(err, STATUS_UNSUPPORTED, "game %d: a score is 0, 0.5 or 1", i + 1);
    }
    return STATUS_OK;
}

int pairing_round_robin_rounds(int players)
{
    return players < 2 ? 0 : players % 2 == 0 ? players - 1 : players;
}

/* x mod m in 1..m. */
static int wrap(int x, int m)
{
    const int r = ((x - 1) % m + m) % m;
    return r + 1;
}

static Pairing board(int white, int black, bool reverse)
{
    return reverse ? (Pairing){black, white} : (Pairing){white, black};
}

Status pairing_round_robin(int players, int round, Pairing *out, int *count, ErrBuf *err)
{
    const Status s = check_players(players, round, err);
    if (s != STATUS_OK)
        return s;
    const int n = players + players % 2; // with the bye as player n when odd
    const int m = n - 1;
    const int cycle_rounds = m;
    const bool reverse = (round / cycle_rounds) % 2 == 1;
    const int r = round % cycle_rounds + 1;
    int p = 1;
    while ((2 * p - (r + 1)) % m != 0) // m is odd, so 2 has an inverse and p is unique
        p++;
    int c = 0;
    // Numbers here are 1-based as in the tables; player n beyond the real ones is the bye.
    const int last = n - 1 < players ? n - 1 : PAIRING_BYE;
    if (last == PAIRING_BYE)
        out[c++] = (Pairing){p - 1, PAIRING_BYE};
    else
        out[c++] = r % 2 == 0 ? board(last, p - 1, reverse) : board(p - 1, last, reverse);
    for (int k = 1; k <= (m - 1) / 2; k++) {
        const int a = wrap(p + k, m), b = wrap(p - k, m);
        const bool a_white = ((b - a) % m + m) % m % 2 == 1;
        out[c++] = a_white ? board(a - 1, b - 1, reverse) : board(b - 1, a - 1, reverse);
    }
    // A bye is listed last, as a board nobody plays on.
    if (last == PAIRING_BYE) {
        const Pairing bye = out[0];
        for (int i = 0; i + 1 < c; i++)
            out[i] = out[i + 1];
        out[c - 1] = bye;
    }
    *count = c;
    return STATUS_OK;
}

int pairing_gauntlet_rounds(int players)
{
    return players < 2 ? 0 : players - 1;
}

Status pairing_gauntlet(int players, int round, Pairing *out, int *count, ErrBuf *err)
{
    const Status s = check_players(players, round, err);
    if (s != STATUS_OK)
        return s;
    const int i = round % (players - 1);
    const bool reverse = (round / (players - 1)) % 2 == 1;
    out[0] = i % 2 == 0 ? board(0, i + 1, reverse) : board(i + 1, 0, reverse);
    *count = 1;
    return STATUS_OK;
}
