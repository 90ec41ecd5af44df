/*
 * protocol_moves.c - moves in protocol words (protocol_moves.h). A turn of several
 * actions stays one word, so that `position ... moves` and `bestmove` keep UCI's shape
 * of one token per turn.
 */
#include "cli/protocol_moves.h"

#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"

void protocol_write_uci_move(const Game *g, const GameState *s, Move m, StrBuf *out)
{
    StrBuf text;
    sb_init(&text);
    g->ops->format_move(g, s, m, &text);
    const char *t = sb_str(&text);
    char rank = g->ops->to_move(g, s) == 0 ? '1' : '8';
    if (strncmp(t, "O-O-O", 5) == 0)
        sb_printf(out, "e%cc%c", rank, rank);
    else if (strncmp(t, "O-O", 3) == 0)
        sb_printf(out, "e%cg%c", rank, rank);
    else
        sb_puts(out, t);
    sb_free(&text);
}

void protocol_write_ugi_move(const Game *g, const GameState *s, Move m, StrBuf *out)
{
    g->ops->format_move(g, s, m, out);
}

void protocol_write_line(ProtocolMoveWriter w, const Game *g, const GameState *s,
                         const Move *acts, int n, StrBuf *out)
{
    GameState *walk = game_state_clone(g, s);
    void *undo = game_undo_new(g);
    int last = PLAYER_NONE;
    for (int i = 0; walk && undo && i < n && !game_is_over(g, walk); i++) {
        const int mover = g->ops->to_move(g, walk);
        if (i > 0)
            sb_putc(out, mover == last ? ';' : ' ');
        w(g, walk, acts[i], out);
        g->ops->make(g, walk, acts[i], undo);
        last = mover;
    }
    free(walk);
    free(undo);
}
