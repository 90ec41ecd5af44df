/*
 * perfect.c - the solved tables a process has found, and the oracle that lets an agent
 * play from them.
 */
#include <stdlib.h>
#include <string.h>

#include "play/perfect.h"

enum { PERFECT_MAX = 3 }; /* locked-king-loses on; off with no-move loss; off with draw */

struct Perfect {
    int count;
    KvsTable *table[PERFECT_MAX];
};

Status perfect_open(const char *path, Perfect **out, ErrBuf *err)
{
    *out = NULL;
    Perfect *p = calloc(1, sizeof *p);
    if (p == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    if (path != NULL) {
        const Status st = kvs_table_load(path, &p->table[0], err);
        if (st != STATUS_OK) {
            free(p);
            return st;
        }
        p->count = 1;
        *out = p;
        return STATUS_OK;
    }
    static const KvsRules variants[PERFECT_MAX] = {
        {KVS_MAX_SOLDIERS, true, false},
        {KVS_MAX_SOLDIERS, false, false},
        {KVS_MAX_SOLDIERS, false, true},
    };
    for (int i = 0; i < PERFECT_MAX; i++) {
        char file[4096];
        ErrBuf e2;
        if (kvs_find_path(&variants[i], file, sizeof file, &e2) == STATUS_OK &&
            kvs_table_load(file, &p->table[p->count], &e2) == STATUS_OK)
            p->count++;
    }
    *out = p;
    return STATUS_OK;
}

void perfect_free(Perfect *p)
{
    if (p == NULL)
        return;
    for (int i = 0; i < p->count; i++)
        kvs_table_close(p->table[i]);
    free(p);
}

const KvsTable *perfect_table(const Perfect *p, const Game *g)
{
    if (p == NULL)
        return NULL;
    for (int i = 0; i < p->count; i++) {
        ErrBuf err;
        if (kvs_table_fits(p->table[i], g, &err) == STATUS_OK)
            return p->table[i];
    }
    return NULL;
}

void perfect_describe(const Perfect *p, StrBuf *out)
{
    if (p == NULL || p->count == 0) {
        sb_puts(out, "solved table: none (crown solve kings-valley writes one)\n");
        return;
    }
    for (int i = 0; i < p->count; i++) {
        char rn[64];
        kvs_rules_name(kvs_table_rules(p->table[i]), rn, sizeof rn);
        sb_printf(out, "solved table: %s (%s)\n", kvs_table_path(p->table[i]), rn);
    }
}

static bool choose(void *ctx, const Game *g, const GameState *s, Rng *rng, SearchResult *out)
{
    KvsValue v;
    Move m;
    ErrBuf err;
    // A position the table does not hold (other soldier counts) falls back to search.
    if (kvs_best_move(ctx, g, s, rng, &m, &v, &err) != STATUS_OK)
        return false;
    out->best = m;
    out->pv[0] = m;
    out->pv_len = 1;
    out->has_score = true;
    out->score = v.outcome > 0 ? SCORE_WIN - v.plies : v.outcome < 0 ? -SCORE_WIN + v.plies : 0;
    out->depth = v.plies;
    return true;
}

void perfect_attach(const Perfect *p, const Game *g, const AgentSpec *spec, Agent *a)
{
    if (spec->kind != AGENT_AI || spec->level != AGENT_LEVEL_MAX)
        return;
    const KvsTable *t = perfect_table(p, g);
    if (t == NULL)
        return;
    const AgentOracle oracle = {(void *)t, choose};
    agent_set_oracle(a, &oracle);
}
