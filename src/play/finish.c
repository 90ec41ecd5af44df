/*
 * finish.c - ends outside the rules (finish.h).
 */
#include "play/finish.h"

#include <string.h>

#include "play/clock.h"
#include "play/words.h"

/* The centi-units below which an AI's own evaluation counts as clearly worse. */
enum { AI_DRAW_ACCEPT_BELOW = -300 };

static const char *const KEYS[] = {NULL, "resign", "agreement", "time", "time-vs-no-win"};

PlayEnd play_end_of_flag(const Game *g, const GameState *s, int flagged)
{
    return play_flag_is_draw(g, s, flagged) ? PLAY_END_TIME_DRAW : PLAY_END_TIME;
}

/* "the first player ran out of time", and for a draw "... but the second player cannot
 * win" ("no other player" with more than two). */
static void flag_words(const Game *g, int flagged, bool draw, StrBuf *out)
{
    sb_printf(out, "the %s ran out of time", play_seat_name(g, flagged));
    if (!draw)
        return;
    if (g->players == 2)
        sb_printf(out, " but the %s cannot win", play_seat_name(g, 1 - flagged));
    else
        sb_puts(out, " but no other player can win");
}

static bool is_loss(PlayEnd end)
{
    return end == PLAY_END_RESIGN || end == PLAY_END_TIME;
}

void play_end_returns(const Game *g, PlayEnd end, int seat, double out[MAX_PLAYERS])
{
    for (int i = 0; i < MAX_PLAYERS; i++)
        out[i] = 0;
    if (!is_loss(end) || g->players < 2)
        return;
    for (int i = 0; i < g->players; i++)
        out[i] = i == seat ? -1.0 : 1.0 / (g->players - 1);
}

void play_end_text(const Game *g, PlayEnd end, int seat, StrBuf *out)
{
    if (is_loss(end)) {
        if (g->players == 2)
            sb_printf(out, "%s wins: ", play_seat_name(g, 1 - seat));
        else
            sb_puts(out, "shared win: ");
        if (end == PLAY_END_TIME)
            flag_words(g, seat, false, out);
        else
            sb_printf(out, "the %s resigned", play_seat_name(g, seat));
    } else if (end == PLAY_END_TIME_DRAW) {
        sb_puts(out, "draw: ");
        flag_words(g, seat, true, out);
    } else if (end == PLAY_END_DRAW) {
        sb_puts(out, "draw: agreed by the players");
    }
}

const char *play_end_key(PlayEnd end)
{
    return end > PLAY_END_NONE && end <= PLAY_END_TIME_DRAW ? KEYS[end] : NULL;
}

bool play_end_from_key(const char *key, PlayEnd *end)
{
    for (int e = PLAY_END_RESIGN; e <= PLAY_END_TIME_DRAW; e++)
        if (key != NULL && strcmp(key, KEYS[e]) == 0) {
            *end = (PlayEnd)e;
            return true;
        }
    return false;
}

bool play_ai_accepts_draw(const Game *g, const GameState *s, int ai_seat)
{
    const int p = g->ops->to_move(g, s);
    if (g->ops->evaluate == NULL || p < 0)
        return false;
    const int v = g->ops->evaluate(g, s);
    return (p == ai_seat ? v : -v) <= AI_DRAW_ACCEPT_BELOW;
}
