/*
 * swiss.c - Swiss pairings by score groups with backtracking (docs/TOURNAMENTS.md has the
 * rules in words). Players are ordered by score, then seed. The first unpaired player p
 * takes, of the unpaired ones with his score (his group, m players counting him), the
 * one m/2 places below him first, then those further down the group, then those above
 * that, back to just below him, then players of lower scores in order (a float down);
 * an opponent already met is never taken, and at first neither is one who must have the
 * same colour as p (both on two more of one colour, or the same colour twice running).
 * When the rest cannot be paired the next candidate is tried. If no pairing keeps the
 * colour rule, it is dropped; if none avoids rematches, the round is refused. With an
 * odd number, the bye goes to the lowest-placed player without one whose absence still
 * lets the rest be paired.
 */
#include "play/swiss.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Backtracking steps before the search gives up: far more than any tournament of a few
 * hundred players needs, and a bound on the time a hopeless round can take. */
enum { SWISS_BUDGET = 200000 };

typedef enum Colour { NONE = 0, WHITE = 1, BLACK = 2 } Colour;

typedef struct Player {
    double score;
    int whites, blacks, byes;
    Colour last, before_last; /* the colours of the last two games played */
} Player;

typedef struct Swiss {
    int n;
    Player *p;
    unsigned char *met; /* n x n */
    int *order;         /* players by score, then seed */
    bool *paired;
    Pairing *pairs;
    int n_pairs;
    int *scratch; /* per depth of the search, n entries: its candidates */
    bool colour_rule;
    long budget;
} Swiss;

/* The colour a player should get next and how strongly: 3 absolute (two more of the
 * other, or it twice running), 2 strong (one more of the other), 1 mild (alternation
 * after an even balance), 0 none (no game yet). */
static Colour preference(const Player *pl, int *strength)
{
    const int d = pl->whites - pl->blacks;
    const bool twice = pl->last != NONE && pl->last == pl->before_last;
    if (pl->last == NONE) {
        *strength = 0;
        return NONE;
    }
    const Colour want = d < 0 ? WHITE : d > 0 ? BLACK : pl->last == WHITE ? BLACK : WHITE;
    *strength = (d >= 2 || d <= -2 || twice) ? 3 : d != 0 ? 2 : 1;
    return want;
}

static bool colours_fit(const Swiss *s, int a, int b)
{
    int sa, sb;
    const Colour ca = preference(&s->p[a], &sa), cb = preference(&s->p[b], &sb);
    return !(sa == 3 && sb == 3 && ca == cb);
}

static bool can_meet(const Swiss *s, int a, int b)
{
    return !s->met[a * s->n + b] && (!s->colour_rule || colours_fit(s, a, b));
}

/* Pairs the unpaired players, the first of `order` first; false when impossible. */
static bool pair_rest(Swiss *s)
{
    if (--s->budget < 0)
        return false;
    int first = -1;
    for (int i = 0; i < s->n && first < 0; i++)
        if (!s->paired[s->order[i]])
            first = i;
    if (first < 0)
        return true;
    const int p = s->order[first];
    // The unpaired players after p in order: his group (same score), then the rest.
    // Sorted by score, the group comes first; members are its players but p.
    int *cand = s->scratch + (size_t)s->n_pairs * (size_t)s->n;
    int members = 0, n_cand = 0;
    for (int i = first + 1; i < s->n; i++) {
        const int q = s->order[i];
        if (!s->paired[q])
            members += s->p[q].score == s->p[p].score;
    }
    const int group = members + 1, h = group / 2;
    int at = 0; // the place in the group of the unpaired player reached, p being 0
    for (int i = first + 1; i < s->n; i++) {
        const int q = s->order[i];
        if (s->paired[q])
            continue;
        at++;
        // Places h..group-1 of the group first, in order, then h-1 down to 1, then the
        // lower scores in order.
        if (at >= group)
            cand[at - 1] = q;
        else if (at >= h)
            cand[at - h] = q;
        else
            cand[group - 1 - at] = q;
        n_cand++;
    }
    s->paired[p] = true;
    for (int k = 0; k < n_cand; k++) {
        const int q = cand[k];
        if (!can_meet(s, p, q))
            continue;
        s->paired[q] = true;
        s->pairs[s->n_pairs++] = (Pairing){p, q};
        if (pair_rest(s))
            return true;
        s->n_pairs--;
        s->paired[q] = false;
        if (s->budget < 0)
            break;
    }
    s->paired[p] = false;
    return false;
}

/* Colours for the pair (p placed above q) on board `board` (0-based). */
static Pairing colours(const Swiss *s, int p, int q, int board)
{
    int sp, sq;
    const Colour cp = preference(&s->p[p], &sp), cq = preference(&s->p[q], &sq);
    Colour for_p;
    if (cp == NONE && cq == NONE)
        for_p = board % 2 == 0 ? WHITE : BLACK; // the first round's alternation
    else if (cp == NONE)
        for_p = cq == WHITE ? BLACK : WHITE;
    else if (cq == NONE || cp != cq)
        for_p = cp;
    else // both want the same colour: the stronger wish, then the higher place, has it
        for_p = sq > sp ? (cq == WHITE ? BLACK : WHITE) : cp;
    return for_p == WHITE ? (Pairing){p, q} : (Pairing){q, p};
}

/* The players' points, opponents and colours from a checked history. */
static void read_history(Swiss *s, const PairingResult *history, int n)
{
    for (int i = 0; i < n; i++) {
        const int w = history[i].pair.white, b = history[i].pair.black;
        const double pts = history[i].white_points;
        s->p[w].score += pts;
        if (b == PAIRING_BYE) {
            s->p[w].byes++;
            continue;
        }
        s->p[b].score += 1 - pts;
        s->met[w * s->n + b] = s->met[b * s->n + w] = 1;
        s->p[w].whites++;
        s->p[b].blacks++;
        s->p[w].before_last = s->p[w].last;
        s->p[w].last = WHITE;
        s->p[b].before_last = s->p[b].last;
        s->p[b].last = BLACK;
    }
}

static int compare_placing(const void *a, const void *b, void *ctx)
{
    const Player *p = ctx;
    const int x = *(const int *)a, y = *(const int *)b;
    if (p[x].score != p[y].score)
        return p[x].score > p[y].score ? -1 : 1;
    return (x > y) - (x < y);
}

/* Insertion sort by placing: qsort has no context argument in C17. */
static void sort_order(Swiss *s)
{
    for (int i = 0; i < s->n; i++)
        s->order[i] = i;
    for (int i = 1; i < s->n; i++) {
        const int v = s->order[i];
        int j = i;
        while (j > 0 && compare_placing(&s->order[j - 1], &v, s->p) > 0) {
            s->order[j] = s->order[j - 1];
            j--;
        }
        s->order[j] = v;
    }
}

/* Pairs everyone but `bye` (or everyone), first with the colour rule, then without. */
static bool try_pairing(Swiss *s, int bye)
{
    for (int pass = 0; pass < 2; pass++) {
        memset(s->paired, 0, (size_t)s->n * sizeof *s->paired);
        if (bye >= 0)
            s->paired[bye] = true;
        s->n_pairs = 0;
        s->colour_rule = pass == 0;
        if (pair_rest(s))
            return true;
    }
    return false;
}

Status swiss_pair(int players, const PairingResult *history, int n, Pairing *out, int *count,
                  ErrBuf *err)
{
    const Status checked = pairing_check_results(players, history, n, err);
    if (checked != STATUS_OK)
        return checked;
    Swiss s = {.n = players, .budget = SWISS_BUDGET};
    s.p = calloc((size_t)players, sizeof *s.p);
    s.met = calloc((size_t)players * (size_t)players, 1);
    s.order = calloc((size_t)players, sizeof *s.order);
    s.paired = calloc((size_t)players, sizeof *s.paired);
    s.pairs = calloc((size_t)players / 2 + 1, sizeof *s.pairs);
    s.scratch = calloc(((size_t)players / 2 + 1) * (size_t)players, sizeof *s.scratch);
    Status st = STATUS_OK;
    if (s.p == NULL || s.met == NULL || s.order == NULL || s.paired == NULL || s.pairs == NULL ||
        s.scratch == NULL)
        st = err_set(err, STATUS_NOMEM, "out of memory");
    if (st == STATUS_OK)
        read_history(&s, history, n);
    int bye = -1;
    bool found = false;
    if (st == STATUS_OK) {
        sort_order(&s);
        if (players % 2 == 0) {
            found = try_pairing(&s, -1);
        } else {
            // The lowest placed without a bye first; when all have had one, anyone.
            for (int round = 0; round < 2 && !found; round++)
                for (int i = players - 1; i >= 0 && !found && s.budget >= 0; i--) {
                    const int c = s.order[i];
                    if ((s.p[c].byes == 0) == (round == 0) && try_pairing(&s, c)) {
                        found = true;
                        bye = c;
                    }
                }
        }
        if (!found && s.budget < 0)
            st = err_set(err, STATUS_CONFLICT, "no pairing found for this round in the time "
                                               "allowed");
        else if (!found)
            st = err_set(err, STATUS_CONFLICT, "no pairing avoids a rematch: %d players "
                         "cannot play another Swiss round", players);
    }
    if (st == STATUS_OK) {
        for (int i = 0; i < s.n_pairs; i++)
            out[i] = colours(&s, s.pairs[i].white, s.pairs[i].black, i);
        if (bye >= 0)
            out[s.n_pairs] = (Pairing){bye, PAIRING_BYE};
        *count = s.n_pairs + (bye >= 0);
    }
    free(s.p);
    free(s.met);
    free(s.order);
    free(s.paired);
    free(s.pairs);
    free(s.scratch);
    return st;
}
