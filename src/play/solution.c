/*
 * solution.c - where a played game's theoretical result changed hands, from a solved
 * table's values of each position it passed through.
 */
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "play/solution.h"

/* The ply count the position text ends with (how many plies were played before it). */
static long ply_of(const Game *g, const GameState *s)
{
    StrBuf text;
    sb_init(&text);
    g->ops->format_position(g, s, &text);
    const char *sp = strrchr(sb_str(&text), ' ');
    const long ply = sp != NULL ? strtol(sp + 1, NULL, 10) : 0;
    sb_free(&text);
    return ply;
}

/* A result further away than the plies left is a draw in the real game. */
static KvsValue within(KvsValue v, long left)
{
    if (v.outcome != 0 && v.plies > left)
        v = (KvsValue){0, 0};
    return v;
}

Status solution_of_record(const KvsTable *t, const GameRecord *r, SolutionPly *out,
                          ErrBuf *err)
{
    const Game *g = r->game;
    const long max_plies = game_option_long(g, "max-plies", 300);
    GameState *s = game_state_clone(g, r->start);
    void *undo = game_undo_new(g);
    Status st = s && undo ? STATUS_OK : err_set(err, STATUS_NOMEM, "out of memory");
    for (int i = 0; i < r->count && st == STATUS_OK; i++) {
        SolutionPly *p = &out[i];
        memset(p, 0, sizeof *p);
        p->mover = g->ops->to_move(g, s);
        const long left = max_plies - ply_of(g, s);
        st = kvs_probe(t, g, s, &p->before, err);
        p->known = st == STATUS_OK;
        if (st == STATUS_UNSUPPORTED)
            st = STATUS_OK;
        if (st != STATUS_OK)
            break;
        p->before = within(p->before, left);
        g->ops->make(g, s, r->moves[i], undo);
        st = kvs_probe_after(t, g, s, p->mover, &p->after, err);
        p->after_known = st == STATUS_OK;
        if (st == STATUS_UNSUPPORTED)
            st = STATUS_OK;
        p->after = within(p->after, left);
        p->changed = p->known && p->after_known && p->after.outcome < p->before.outcome;
    }
    free(s);
    free(undo);
    return st;
}
