/*
 * perfect.h - perfect play from solved tables: which tables this process has found, the
 * one that fits a game's rules, and the ai:10 player that plays from it.
 *
 * The front ends open the tables once (the default data directory, or a file named by
 * --tablebase) and hand them to the agents they create; a game without a fitting table
 * is played by the usual search.
 */
#ifndef CROWN_PLAY_PERFECT_H
#define CROWN_PLAY_PERFECT_H

#include "core/game.h"
#include "core/strbuf.h"
#include "search/agent.h"
#include "solve/kvs_table.h"

typedef struct Perfect Perfect;

/* Opens `path` when given (an error if it is not a table), else every table present in
 * the default locations (none found is no error). */
Status perfect_open(const char *path, Perfect **out, ErrBuf *err);
void perfect_free(Perfect *p);

/* The table that answers for g's rules, or NULL. */
const KvsTable *perfect_table(const Perfect *p, const Game *g);

/* Appends one line per table found ("solved table: PATH (RULES)"), or says there is none. */
void perfect_describe(const Perfect *p, StrBuf *out);

/* For an ai:10 seat (AGENT_AI at level 10) of a game with a table: the agent plays from
 * the table. p may be NULL. */
void perfect_attach(const Perfect *p, const Game *g, const AgentSpec *spec, Agent *a);

#endif
