/*
 * spelling.c - respellings of a move text (spelling.h). Games write squares in lower
 * case and differ on the dash between two squares (King's Valley `c1-c4`, King Down
 * `e2e4`), while other words of their notation are case-sensitive (King of the Valley's
 * `L3`, King Down's `O-O`): so the text as typed comes first (the caller's), then with
 * only its squares lowered, then wholly lowered, each also with the dashes between two
 * squares taken out or put in.
 */
#include "play/spelling.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

enum { WORK = 64 };

static bool is_letter(char c) { return isalpha((unsigned char)c) != 0; }
static bool is_digit(char c) { return isdigit((unsigned char)c) != 0; }

/* The length of a square starting at t[i] (a letter not ending a word, then one or two
 * digits), or 0. */
static size_t square_at(const char *t, size_t i)
{
    if (!is_letter(t[i]) || (i > 0 && is_letter(t[i - 1])) || !is_digit(t[i + 1]))
        return 0;
    return is_digit(t[i + 2]) ? 3 : 2;
}

static void lower_squares(const char *in, char *out)
{
    strcpy(out, in);
    for (size_t i = 0; out[i]; i++)
        if (square_at(out, i))
            out[i] = (char)tolower((unsigned char)out[i]);
}

static void lower_all(const char *in, char *out)
{
    size_t i = 0;
    for (; in[i]; i++)
        out[i] = (char)tolower((unsigned char)in[i]);
    out[i] = '\0';
}

/* Copies `in` with the dash between two squares dropped (join) or a dash put between
 * two squares written together (!join); false when the result would not fit. */
static bool rejoin(const char *in, char *out, bool join)
{
    size_t o = 0;
    for (size_t i = 0; in[i];) {
        if (o + 4 >= WORK)
            return false;
        const size_t n = square_at(in, i);
        if (n == 0) {
            out[o++] = in[i++];
        } else {
            memcpy(out + o, in + i, n);
            o += n;
            i += n;
            if (join && in[i] == '-' && square_at(in, i + 1))
                i++;
            else if (!join && square_at(in, i))
                out[o++] = '-';
        }
    }
    out[o] = '\0';
    return true;
}

static int add(const char *text, const char *cand, char out[][64], size_t len, int n)
{
    if (strcmp(cand, text) == 0 || strlen(cand) >= len)
        return n;
    for (int k = 0; k < n; k++)
        if (strcmp(out[k], cand) == 0)
            return n;
    strcpy(out[n], cand);
    return n + 1;
}

int play_respellings(const char *text, char out[][64], size_t len)
{
    if (len > WORK)
        len = WORK;
    if (strlen(text) >= WORK)
        return 0;
    char base[3][WORK];
    strcpy(base[0], text);
    lower_squares(text, base[1]);
    lower_all(text, base[2]);
    int n = 0;
    for (int b = 0; b < 3; b++) {
        char cand[WORK];
        n = add(text, base[b], out, len, n);
        if (rejoin(base[b], cand, true))
            n = add(text, cand, out, len, n);
        if (rejoin(base[b], cand, false))
            n = add(text, cand, out, len, n);
    }
    return n;
}
