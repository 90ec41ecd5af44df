/*
 * solve_report.c - the results of a solved King's Valley table as text: start values,
 * the first moves that keep them, perfect games, counts and the longest forced win.
 */
#include <stdlib.h>

#include "cli/solve_report.h"
#include "core/game_api.h"

/* The perfect move of s: the first, in the game's order, of the best values. */
static Status first_best(const KvsTable *t, const Game *g, const GameState *s, MoveList *ml,
                         KvsValue *vals, Move *best, KvsValue *value, ErrBuf *err)
{
    const Status st = kvs_probe_moves(t, g, s, ml, vals, err);
    if (st != STATUS_OK)
        return st;
    if (ml->count == 0)
        return err_set(err, STATUS_ILLEGAL, "no legal move");
    int pick = 0;
    for (int k = 1; k < ml->count; k++)
        if (kvs_value_compare(vals[k], vals[pick]) > 0)
            pick = k;
    *best = ml->moves[pick];
    *value = vals[pick];
    return STATUS_OK;
}

/* Plays the perfect line from s (changed) and writes its moves; a drawn line stops
 * after SOLVE_REPORT_DRAWN_PLIES plies. */
static Status perfect_line(const KvsTable *t, const Game *g, GameState *s, StrBuf *out,
                           ErrBuf *err)
{
    void *undo = game_undo_new(g);
    MoveList *ml = malloc(sizeof *ml);
    KvsValue *vals = malloc(sizeof *vals * MOVELIST_CAP);
    Status st = undo && ml && vals ? STATUS_OK : err_set(err, STATUS_NOMEM, "out of memory");
    int plies = 0;
    bool drawn = false;
    while (st == STATUS_OK && !game_is_over(g, s)) {
        Move m = 0;
        KvsValue v = {0, 0};
        if ((st = first_best(t, g, s, ml, vals, &m, &v, err)) != STATUS_OK)
            break;
        drawn = v.outcome == 0;
        if (drawn && plies >= SOLVE_REPORT_DRAWN_PLIES) {
            sb_puts(out, " ... (drawn: neither side can force the end)");
            break;
        }
        sb_putc(out, ' ');
        g->ops->format_move(g, s, m, out);
        g->ops->make(g, s, m, undo);
        plies++;
    }
    if (st == STATUS_OK && game_is_over(g, s))
        sb_printf(out, " (over after %d plies)", plies);
    free(undo);
    free(ml);
    free(vals);
    return st;
}

Status solve_report_start(const KvsTable *t, const Game *g, const GameState *s, StrBuf *out,
                          ErrBuf *err)
{
    MoveList *ml = malloc(sizeof *ml);
    KvsValue *vals = malloc(sizeof *vals * MOVELIST_CAP);
    GameState *line = game_state_clone(g, s);
    Status st = ml && vals && line ? STATUS_OK : err_set(err, STATUS_NOMEM, "out of memory");
    KvsValue v;
    if (st == STATUS_OK)
        st = kvs_probe(t, g, s, &v, err);
    if (st == STATUS_OK)
        st = kvs_probe_moves(t, g, s, ml, vals, err);
    if (st == STATUS_OK) {
        sb_puts(out, "  value: ");
        kvs_value_format(v, out);
        sb_puts(out, "\n  first moves that keep it:");
        for (int k = 0; k < ml->count; k++) {
            if (kvs_value_compare(vals[k], v) != 0)
                continue;
            sb_putc(out, ' ');
            g->ops->format_move(g, s, ml->moves[k], out);
        }
        sb_puts(out, "\n  every first move:");
        for (int k = 0; k < ml->count; k++) {
            sb_putc(out, ' ');
            g->ops->format_move(g, s, ml->moves[k], out);
            sb_puts(out, " (");
            kvs_value_format(vals[k], out);
            sb_putc(out, ')');
        }
        sb_puts(out, "\n  a perfect game:");
        st = perfect_line(t, g, line, out, err);
        sb_putc(out, '\n');
    }
    free(ml);
    free(vals);
    free(line);
    return st;
}

Status solve_report_table(const KvsTable *t, const Game *g, StrBuf *out, ErrBuf *err)
{
    KvsSolveStats c;
    kvs_table_counts(t, &c);
    sb_printf(out, "positions: %llu (side to move wins %llu, loses %llu, draws %llu; "
              "%llu unused entries)\n",
              (unsigned long long)(c.won + c.lost + c.drawn), (unsigned long long)c.won,
              (unsigned long long)c.lost, (unsigned long long)c.drawn,
              (unsigned long long)c.unused);
    sb_printf(out, "longest result: %d plies\n", c.longest);
    // The longest win: the largest odd number of plies, and the first entry holding it.
    const KvsIndex *ix = kvs_table_index(t);
    uint8_t top = 0;
    uint64_t at = 0;
    // In slices: a packed table unpacks a block once, not once an entry.
    enum { SLICE = 1 << 22 };
    uint8_t *buf = malloc(SLICE);
    if (buf == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    for (uint64_t lo = 0; lo < ix->size; lo += SLICE) {
        const uint64_t n = ix->size - lo < SLICE ? ix->size - lo : SLICE;
        const Status st = kvs_table_read(t, lo, n, buf, err);
        if (st != STATUS_OK) {
            free(buf);
            return st;
        }
        for (uint64_t k = 0; k < n; k++) {
            const uint8_t b = buf[k];
            if (b > top && ((b - 1) & 1)) {
                top = b;
                at = lo + k;
            }
        }
    }
    free(buf);
    if (top == 0) {
        sb_puts(out, "longest forced win: none\n");
        return STATUS_OK;
    }
    const KvsPos p = kvs_index_position(ix, at);
    char text[KVS_TEXT_CAP];
    kvs_pos_text(&p, 0, 1, text);
    sb_printf(out, "longest forced win: %d plies, from %s\n  its perfect line:", top - 1, text);
    GameState *s = game_state_new(g);
    Status st = s ? g->ops->parse_position(g, s, text, err)
                  : err_set(err, STATUS_NOMEM, "out of memory");
    if (st == STATUS_OK)
        st = perfect_line(t, g, s, out, err);
    sb_putc(out, '\n');
    free(s);
    return st;
}
