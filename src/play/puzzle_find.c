/*
 * puzzle_find.c - where puzzles come from: games played to that end, every position
 * of which is asked of the judge once. With a solved table each side plays the table's
 * best move or, half the time, a random one, so that the games wander into lost and won
 * positions alike; without one the AI plays itself at a low level (its noise and
 * variety make every game another), as the issue asks: puzzles from the AI's own games,
 * with one move in four at random, since a puzzle is mostly the answer to a blunder.
 */
#include <stdlib.h>

#include "core/game_api.h"
#include "core/rng.h"
#include "play/puzzle.h"

/* Positions asked already, by hash: an open-addressed set that never fills (the walk
 * stops asking once it is three quarters full). */
enum { SEEN_BITS = 20, SEEN_SIZE = 1 << SEEN_BITS };

typedef struct Seen {
    uint64_t *slot;
    long used;
} Seen;

static bool seen_insert(Seen *s, uint64_t h)
{
    h |= 1; // 0 marks an empty slot
    for (uint64_t i = h >> (64 - SEEN_BITS);; i = (i + 1) & (SEEN_SIZE - 1)) {
        if (s->slot[i] == h)
            return false;
        if (s->slot[i] == 0) {
            s->slot[i] = h;
            s->used++;
            return true;
        }
    }
}

/* The walk's next move: the table's or a random one, or the playing agent's. */
static Status next_move(const PuzzleFindOptions *o, Agent *player, const Game *g,
                        const GameState *s, Rng *rng, MoveList *ml, Move *m, ErrBuf *err)
{
    if (o->table != NULL && rng_below(rng, 2) == 0) {
        KvsValue v;
        return kvs_best_move(o->table, g, s, rng, m, &v, err);
    }
    // One move in four at random: the blunders after which the other side has a win.
    if (o->table == NULL && player != NULL && rng_below(rng, 4) != 0) {
        SearchResult r;
        Status st = agent_think(player, s, &r, err);
        if (st == STATUS_OK)
            *m = r.best;
        return st;
    }
    g->ops->gen_moves(g, s, ml);
    if (ml->count == 0)
        return err_set(err, STATUS_ILLEGAL, "no legal move");
    *m = ml->moves[rng_below(rng, (uint32_t)ml->count)];
    return STATUS_OK;
}

Status puzzle_find(const PuzzleJudge *j, const Game *g, const PuzzleFindOptions *o,
                   PuzzleFound found, void *ctx, long *games_played, ErrBuf *err)
{
    Rng rng;
    rng_seed(&rng, o->seed);
    Seen seen = {.slot = calloc(SEEN_SIZE, sizeof(uint64_t)), .used = 0};
    GameState *s = game_state_new(g);
    void *undo = game_undo_new(g);
    MoveList *ml = malloc(sizeof *ml);
    Puzzle *p = malloc(sizeof *p);
    Agent *player = NULL;
    Status st = seen.slot && s && undo && ml && p ? STATUS_OK
                                                   : err_set(err, STATUS_NOMEM, "out of memory");
    if (st == STATUS_OK && o->table == NULL) {
        AgentSpec spec;
        // The games that find candidates play as they did when the sets were made.
        if ((st = agent_spec_parse("ai:3/classic", &spec, err)) == STATUS_OK) {
            spec.seed = rng_next(&rng);
            st = agent_new(g, &spec, &player, err);
        }
    }
    const long max_games = o->max_games > 0 ? o->max_games : 100 * (o->count > 0 ? o->count : 1);
    long n = 0, games = 0;
    bool more = true;
    while (st == STATUS_OK && more && n < o->count && games < max_games &&
           seen.used < SEEN_SIZE / 4 * 3) {
        games++;
        if (o->start != NULL) {
            if ((st = g->ops->parse_position(g, s, o->start, err)) != STATUS_OK)
                break;
        } else {
            g->ops->new_game(g, s, rng_next(&rng));
        }
        if (player != NULL)
            agent_new_game(player);
        // A few random plies first, so that no two games begin alike.
        int randoms = 2 + (int)rng_below(&rng, 4);
        int prev = PLAYER_NONE;
        while (more && n < o->count && !game_is_over(g, s)) {
            const int mover = g->ops->to_move(g, s);
            Move m;
            if (mover < 0) {
                m = game_sample_chance(g, s, &rng);
            } else {
                // Puzzles start where a turn starts, not amid a King's Guard turn.
                if (randoms <= 0 && mover != prev && seen_insert(&seen, g->ops->hash(g, s)) &&
                    puzzle_from_position(j, g, s, o->min_plies, o->max_plies, p)) {
                    n++;
                    more = found(ctx, p);
                }
                if (randoms-- > 0) {
                    g->ops->gen_moves(g, s, ml);
                    m = ml->moves[rng_below(&rng, (uint32_t)ml->count)];
                } else if ((st = next_move(o, player, g, s, &rng, ml, &m, err)) != STATUS_OK) {
                    break;
                }
            }
            prev = mover;
            g->ops->make(g, s, m, undo);
        }
    }
    if (games_played != NULL)
        *games_played = games;
    agent_free(player);
    free(p);
    free(ml);
    free(undo);
    free(s);
    free(seen.slot);
    return st;
}
