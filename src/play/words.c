/*
 * words.c - seat names and result texts (words.h). Who won is read from the game's
 * returns: the best value wins, several equal best share the win, all equal is a draw.
 */
#include "play/words.h"

#include "core/game_api.h"

static const char *const ORDINAL[MAX_PLAYERS] = {"first", "second", "third", "fourth"};
static const char *const NAME[MAX_PLAYERS] = {"first player", "second player", "third player",
                                              "fourth player"};

const char *play_seat_ordinal(int seat)
{
    if (seat == PLAYER_CHANCE)
        return "chance";
    return seat >= 0 && seat < MAX_PLAYERS ? ORDINAL[seat] : "nobody";
}

const char *play_seat_name(const Game *g, int seat)
{
    if (seat == PLAYER_CHANCE)
        return "chance";
    return seat >= 0 && seat < g->players ? NAME[seat] : "nobody";
}

void play_result_text(const Game *g, const GameState *s, int viewer, StrBuf *out)
{
    if (!game_is_over(g, s)) {
        sb_puts(out, "unfinished");
        return;
    }
    double ret[MAX_PLAYERS];
    g->ops->returns(g, s, ret);
    int best = 0, n_best = 0;
    for (int p = 0; p < g->players; p++)
        if (ret[p] > ret[best])
            best = p;
    for (int p = 0; p < g->players; p++)
        n_best += ret[p] == ret[best];
    const bool draw = n_best == g->players;
    if (viewer < 0 || viewer >= g->players) {
        if (draw)
            sb_puts(out, "draw");
        else if (n_best == 1)
            sb_printf(out, "%s wins", NAME[best]);
        else
            sb_puts(out, "shared win");
    } else if (draw) {
        sb_puts(out, "Draw");
    } else if (ret[viewer] < ret[best]) {
        sb_puts(out, "You lost: ");
        if (n_best == 1)
            sb_printf(out, "%s wins", NAME[best]);
        else
            sb_puts(out, "others share the win");
    } else {
        sb_puts(out, n_best == 1 ? "You won" : "You shared the win");
    }
    StrBuf why;
    sb_init(&why);
    g->ops->describe_result(g, s, &why);
    if (why.len)
        sb_printf(out, ": %s", sb_str(&why));
    if (sb_failed(&why))
        out->failed = true;
    sb_free(&why);
}
