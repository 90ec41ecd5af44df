/*
 * hint.c - the hint agent (hint.h). The front ends differ only in where the search runs
 * (the web's AI workers, the terminal's own thread), not in what searches.
 */
#include "play/hint.h"

void play_hint_agent(AgentSpec *spec, uint64_t seed)
{
    agent_spec_default(spec);
    spec->level = AGENT_LEVEL_MAX;
    spec->limits.movetime_ms = PLAY_HINT_MOVETIME_MS;
    spec->seed = seed;
}

Status play_hint_new(const Game *g, const Perfect *p, uint64_t game_seed, int64_t movetime_ms,
                     Agent **out, ErrBuf *err)
{
    AgentSpec spec;
    play_hint_agent(&spec, game_seed ^ 0x68696E74ULL); /* "hint" */
    if (movetime_ms > 0)
        spec.limits.movetime_ms = movetime_ms;
    const Status st = agent_new(g, &spec, out, err);
    if (st == STATUS_OK)
        perfect_attach(p, g, &spec, *out);
    return st;
}
