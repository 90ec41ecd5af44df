/*
 * turn_runner.c - one step of a refereed game (turn_runner.h). Time is measured around
 * each decision with the monotonic clock and charged to the mover's clock; the
 * increment comes when the turn passes, so a turn of several actions earns it once.
 */
#include "cli/turn_runner.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/clock.h"
#include "core/game_api.h"
#include "play/finish.h"
#include "play/turn.h"
#include "play/words.h"
#include "search/timeman.h"

static void forfeit(TurnStep *step, int seat, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void forfeit(TurnStep *step, int seat, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    step->forfeit = seat;
    vsnprintf(step->reason, sizeof step->reason, fmt, ap);
    va_end(ap);
}

/* The `go` words for an outside engine, and how long to wait for its answer. */
static int64_t go_args(const TurnRunner *r, bool ugi, StrBuf *out)
{
    if (play_clock_on(&r->clock)) {
        static const char *const WORDS[2][2][2] = {{{"wtime", "winc"}, {"btime", "binc"}},
                                                   {{"p1time", "p1inc"}, {"p2time", "p2inc"}}};
        for (int p = 0; p < 2; p++)
            sb_printf(out, "%s%s %" PRId64 " %s %" PRId64, p ? " " : "", WORDS[ugi][p][0],
                      r->clock.left_ms[p], WORDS[ugi][p][1], r->clock.increment_ms);
        return -1; /* the mover's clock plus the grace */
    }
    const SearchLimits *l = &r->limits;
    if (l->depth > 0)
        sb_printf(out, "depth %d", l->depth);
    if (l->nodes > 0)
        sb_printf(out, "%snodes %" PRIu64, out->len ? " " : "", l->nodes);
    if (l->movetime_ms > 0)
        sb_printf(out, "%smovetime %" PRId64, out->len ? " " : "", l->movetime_ms);
    if (out->len == 0) {
        sb_printf(out, "movetime %d", RUNNER_DEFAULT_MOVETIME_MS);
        return RUNNER_DEFAULT_MOVETIME_MS * 2 + RUNNER_GRACE_MS;
    }
    if (l->movetime_ms > 0)
        return l->movetime_ms * 2 + RUNNER_GRACE_MS;
    return RUNNER_SEARCH_TIMEOUT_MS;
}

static Status outside_turn(TurnRunner *r, GameRecord *rec, int p, TurnStep *step, ErrBuf *err)
{
    EngineClient *e = r->engine[p];
    const Game *g = rec->game;
    StrBuf args, move;
    sb_init(&args);
    sb_init(&move);
    int64_t timeout = go_args(r, e->ugi, &args);
    if (timeout < 0)
        timeout = r->clock.left_ms[p] + RUNNER_GRACE_MS;
    const int64_t t0 = clock_ms();
    ErrBuf why;
    Status st = engine_client_go(e, g, rec->start, rec->moves, rec->count, sb_str(&args),
                                 timeout, &move, &why);
    const int64_t used = clock_ms() - t0;
    if (st != STATUS_OK) {
        if (play_clock_on(&r->clock) && used >= r->clock.left_ms[p]) {
            forfeit(step, p, "lost on time (%s)", why.msg);
            step->on_time = true;
        }
        else
            forfeit(step, p, "forfeits: %s", why.msg);
    } else if (!play_clock_charge(&r->clock, p, used)) {
        forfeit(step, p, "lost on time (%" PRId64 " ms for the move, %" PRId64 " ms left)",
                used, r->clock.left_ms[p] + used);
        step->on_time = true;
    } else if ((st = play_parse_turn(g, rec->current, sb_str(&move), step->acts,
                                     RUNNER_TURN_CAP, &step->n, &why)) != STATUS_OK) {
        forfeit(step, p, "played '%.40s', which is %s: %s", sb_str(&move),
                st == STATUS_PARSE ? "unreadable" : "illegal", why.msg);
    }
    sb_free(&args);
    sb_free(&move);
    if (step->forfeit != PLAYER_NONE) {
        step->n = 0;
        return STATUS_OK;
    }
    for (int i = 0; i < step->n; i++)
        if ((st = record_push(rec, step->acts[i], err)) != STATUS_OK)
            return st;
    return STATUS_OK;
}

Status turn_runner_check_game(const Game *g, const Seats *seats, ErrBuf *err)
{
    for (int k = 0; k < seats->count; k++)
        if (seats->seat[k].outside &&
            (!(g->ops->flags & GAME_PERFECT_INFO) || (g->ops->flags & GAME_HAS_CHANCE)))
            return err_set(err, STATUS_UNSUPPORTED, "outside engines ('%s') need a game of "
                           "perfect information without chance; %s has hidden information or "
                           "chance draws", seats->seat[k].text, g->ops->name);
    // UCI moves are long algebraic; a game set to write another notation would send
    // the engine moves it cannot read.
    for (int k = 0; k < seats->count; k++)
        if (seats->seat[k].outside && strncmp(seats->seat[k].text, "uci:", 4) == 0 &&
            game_option(g, "notation") != NULL && !game_option_is(g, "notation", "long"))
            return err_set(err, STATUS_UNSUPPORTED, "a UCI engine ('%s') reads long algebraic "
                           "moves: use --rule notation=long", seats->seat[k].text);
    return STATUS_OK;
}

Status turn_runner_step(TurnRunner *r, GameRecord *rec, TurnStep *step, ErrBuf *err)
{
    const Game *g = rec->game;
    memset(step, 0, sizeof *step);
    step->forfeit = PLAYER_NONE;
    const int p = g->ops->to_move(g, rec->current);
    step->player = p;
    Status st;
    if (p >= 0 && r->engine[p] != NULL) {
        st = outside_turn(r, rec, p, step, err);
    } else {
        Agent *a = p >= 0 ? r->seats->seat[p].agent : NULL;
        if (a != NULL && play_clock_on(&r->clock))
            agent_set_movetime(a, time_budget_ms(r->clock.left_ms[p], r->clock.increment_ms, 0,
                                                 TIME_OVERHEAD_MS));
        const int64_t t0 = clock_ms();
        st = seats_auto_action(r->seats, g, rec->current, r->chance, &step->acts[0],
                               &step->result, err);
        if (st != STATUS_OK)
            return st;
        step->searched = p >= 0;
        const int64_t used = clock_ms() - t0;
        if (p >= 0 && !play_clock_charge(&r->clock, p, used)) {
            forfeit(step, p, "lost on time (%" PRId64 " ms for the move, %" PRId64 " ms left)",
                    used, r->clock.left_ms[p] + used);
            step->on_time = true;
            return STATUS_OK;
        }
        step->n = 1;
        st = record_push(rec, step->acts[0], err);
    }
    if (st == STATUS_OK && step->forfeit == PLAYER_NONE && p >= 0 &&
        g->ops->to_move(g, rec->current) != p)
        play_clock_turn_done(&r->clock, p);
    return st;
}

bool turn_runner_new_game(TurnRunner *r, const Game *g, TurnStep *step)
{
    memset(step, 0, sizeof *step);
    step->forfeit = PLAYER_NONE;
    for (int k = 0; k < g->players; k++) {
        ErrBuf why;
        if (r->engine[k] != NULL && engine_client_new_game(r->engine[k], &why) != STATUS_OK) {
            forfeit(step, k, "forfeits: %s", why.msg);
            return false;
        }
    }
    return true;
}

void turn_runner_forfeit_result(const Game *g, const GameState *s, const Seats *seats,
                                const TurnStep *step, StrBuf *text, double returns[MAX_PLAYERS])
{
    const int loser = step->forfeit, winner = 1 - loser;
    const PlayEnd end = step->on_time ? play_end_of_flag(g, s, loser) : PLAY_END_RESIGN;
    play_end_returns(g, end, loser, returns);
    if (end == PLAY_END_TIME_DRAW) {
        play_end_text(g, end, loser, text);
        sb_printf(text, " (%s: %s)", seats->seat[loser].text, step->reason);
        return;
    }
    sb_printf(text, "%s (%s) wins: %s (%s) %s", play_seat_name(g, winner),
              seats->seat[winner].text, play_seat_name(g, loser), seats->seat[loser].text,
              step->reason);
}
