/*
 * session_play.c - changing a game in play (see session.h): actions and whole turns,
 * undo, the players' meta (resignation, draws, rematch), clocks and flags, joining an
 * open seat, and the hand-over to and from the AI workers.
 *
 * Every change follows one pattern: check and prepare on a scratch copy under the
 * session's lock, commit to the store, and only then change the in-memory record, bump
 * the version and wake the event streams. A failed commit changes nothing.
 */
#include "web/session.h"
#include "web/session_internal.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "core/clock.h"
#include "core/game_api.h"
#include "core/invariant.h"
#include "play/finish.h"
#include "play/registry.h"
#include "play/seats.h"
#include "play/turn.h"
#include "play/undo.h"
#include "play/words.h"
#include "web/context.h"
#include "web/store_rating.h"

/* --- seats and actions ----------------------------------------------------------------- */

/* Reads "human" or an agent spec for `seat`; the AI's seed follows from the game's. */
bool session_seat_spec(Session *s, int seat, const char *player, ErrBuf *err)
{
    Seat *st = &s->seats.seat[seat];
    snprintf(st->text, sizeof st->text, "%s", player);
    ErrBuf e2;
    if (seat_parse(player, seat, s->seed, &st->human, &st->spec, &e2) != STATUS_OK) {
        err_set(err, STATUS_PARSE, "seat %d: %s", seat, e2.msg);
        return false;
    }
    if (seat >= s->seats.count)
        s->seats.count = seat + 1;
    return true;
}

bool session_texts_reserve(Session *s, int n)
{
    if (n <= s->texts_cap)
        return true;
    int cap = s->texts_cap ? s->texts_cap : 64;
    while (cap < n)
        cap *= 2;
    char **t = realloc(s->texts, sizeof *t * (size_t)cap);
    if (t == NULL)
        return false;
    s->texts = t;
    t = realloc(s->cells, sizeof *t * (size_t)cap);
    if (t == NULL)
        return false;
    s->cells = t;
    int8_t *a = realloc(s->actor, sizeof *a * (size_t)cap);
    if (a == NULL)
        return false;
    s->actor = a;
    s->texts_cap = cap;
    return true;
}

char *session_strdup(const char *t)
{
    char *d = malloc(strlen(t) + 1);
    if (d)
        strcpy(d, t);
    return d;
}

/* The cells action m touches in st, as a malloc'd text ("" for none or no hook). */
char *session_cells_of(const Game *g, const GameState *st, Move m)
{
    StrBuf t;
    sb_init(&t);
    if (g->ops->move_cells)
        g->ops->move_cells(g, st, m, &t);
    char *d = sb_failed(&t) ? NULL : session_strdup(sb_str(&t));
    sb_free(&t);
    return d;
}

void session_changed_locked(Session *s)
{
    s->thinking_elsewhere = -1; // any change ends another process's think, or restarts it
    s->version++;
    s->changed_ms = clock_ms();
    if (s->hooks->wake_locked)
        s->hooks->wake_locked(s);
}

/* Whether an AI seat of s is to move in st, a position of game g. */
bool session_ai_to_move(const Session *s, const Game *g, const GameState *st)
{
    const int p = g->ops->to_move(g, st);
    return p >= 0 && !s->seats.seat[p].human;
}

void session_schedule_ai_locked(Server *srv, Session *s)
{
    const int p = s->game->ops->to_move(s->game, s->rec.current);
    if (p >= 0 && !s->seats.seat[p].human && !s->ai_queued && s->thinking < 0 &&
        s->meta.end == PLAY_END_NONE && s->hooks->queue_move != NULL &&
        !atomic_load(&srv->stopping)) {
        s->ai_queued = true;
        // the job holds a reference until it has run
        s->hooks->queue_move(s->hooks->ai, s);
    }
}

/* Commits actions acts[0..n) (legal one after the other from the current position) and
 * the chance draws that follow them, then shows them. Fails only for want of memory or
 * of the store, changing nothing. */
Status session_commit_actions(Server *srv, Session *s, const Move *acts, int n, ErrBuf *err)
{
    const Game *g = s->game;
    GameState *scratch = game_state_clone(g, s->rec.current);
    void *undo = game_undo_new(g);
    Move *all = malloc(sizeof *all * COMMIT_CAP);
    char **texts = calloc(COMMIT_CAP, sizeof *texts);
    char **cells = calloc(COMMIT_CAP, sizeof *cells);
    int8_t actors[COMMIT_CAP];
    int total = 0;
    Status st = STATUS_OK;
    if (!scratch || !undo || !all || !texts || !cells ||
        !session_texts_reserve(s, s->rec.count + COMMIT_CAP))
        st = err_set(err, STATUS_NOMEM, "out of memory");
    StrBuf t;
    sb_init(&t);
    for (int i = 0; st == STATUS_OK && i < n + CHANCE_STEPS; i++) {
        const int p = g->ops->to_move(g, scratch);
        Move m;
        if (i < n) {
            m = acts[i];
        } else if (p == PLAYER_CHANCE) {
            // Chance draws depend only on the game's seed, the ply and the version, so
            // they are the same whoever triggers them. The version changes with every
            // undo: taking a move back must not show what the next draw will be.
            Rng rng;
            rng_seed(&rng, s->seed ^ (0x9E3779B97F4A7C15ULL * (uint64_t)(s->rec.count + i + 1)) ^
                               (0xD1B54A32D192ED03ULL * s->version));
            m = game_sample_chance(g, scratch, &rng);
        } else {
            break;
        }
        sb_clear(&t);
        g->ops->format_move(g, scratch, m, &t);
        if ((texts[total] = session_strdup(sb_str(&t))) == NULL || sb_failed(&t) ||
            (cells[total] = session_cells_of(g, scratch, m)) == NULL) {
            st = err_set(err, STATUS_NOMEM, "out of memory");
            break;
        }
        actors[total] = (int8_t)p;
        all[total++] = m;
        g->ops->make(g, scratch, m, undo);
        GAME_CHECK(g, scratch);
    }
    sb_free(&t);
    const uint64_t version = s->version + 1;
    // The clock and the time of the last move go with the moves, in one transaction.
    GameMeta meta = s->meta;
    char *meta_text = NULL;
    StoreRatingWrite *rating = NULL;
    if (st == STATUS_OK && total > 0) {
        const int64_t now = gameclock_now();
        const int next = g->ops->to_move(g, scratch);
        // No clock runs while a seat waits for its player (session_join starts it).
        if (n > 0 && meta.open == 0)
            play_clock_turn(&meta.clock, actors[0], next >= 0 ? next : -1, now);
        meta.moved_ms = now;
        // A rated game that these actions end is rated in the same write.
        if (game_is_over(g, scratch)) {
            double ret[MAX_PLAYERS];
            g->ops->returns(g, scratch, ret);
            session_rating_prepare_locked(srv, s, ret, &meta, &rating);
        }
        if ((meta_text = meta_format(&meta, g->players)) == NULL)
            st = err_set(err, STATUS_NOMEM, "out of memory");
    }
    if (st == STATUS_OK && total > 0) {
        StoreStamp stamp = {s->stored_version, version, session_ai_to_move(s, g, scratch),
                            meta_text, meta_flag_at(&meta), NULL, 0};
        if (rating != NULL)
            store_rating_stamp(rating, &stamp);
        // STATUS_CONFLICT: another process changed the game first, or a player's rating
        // moved since it was read (the caller re-reads and judges the move again).
        st = store_append(srv->store, s->id, s->rec.count, (const char *const *)texts, total,
                          &stamp, err);
        if (st != STATUS_OK && st != STATUS_CONFLICT)
            st = STATUS_IO;
        else if (st == STATUS_OK)
            s->stored_version = version;
    }
    if (st == STATUS_OK) {
        const int before = s->rec.count;
        for (int i = 0; i < total; i++) {
            if (record_push(&s->rec, all[i], err) != STATUS_OK) {
                // Memory and store must agree: take the stored actions back as well.
                ErrBuf e2;
                const StoreStamp back = {version, version + 1, false, NULL, 0, NULL, 0};
                if (store_truncate(srv->store, s->id, before, &back, &e2) == STATUS_OK)
                    s->stored_version = s->version = version + 1;
                session_texts_truncate(s, before);
                record_truncate(&s->rec, before);
                st = STATUS_NOMEM;
                break;
            }
            s->texts[before + i] = texts[i];
            s->cells[before + i] = cells[i];
            s->actor[before + i] = actors[i];
            texts[i] = cells[i] = NULL;
        }
        if (st == STATUS_OK) {
            s->version = version - 1; // changed_locked adds the one
            s->meta = meta;
            s->ai_error[0] = '\0';
            session_changed_locked(s);
            session_schedule_ai_locked(srv, s);
            // A finished game no longer counts against its creator's AI games.
            if (game_is_over(g, s->rec.current)) {
                session_release_quota_locked(srv, s);
                session_rate_locked(srv, s);
            }
        }
    }
    for (int i = 0; texts && cells && i < COMMIT_CAP; i++) {
        free(texts[i]);
        free(cells[i]);
    }
    free(texts);
    free(cells);
    free(meta_text);
    store_rating_free(rating);
    free(all);
    free(undo);
    free(scratch);
    return st;
}


/* Whether `seat` may act now; the reason when not. */
static Status check_turn(const Session *s, int seat, ErrBuf *err)
{
    if (s->meta.end != PLAY_END_NONE)
        return err_set(err, STATUS_CONFLICT, "the game is over: %s",
                       s->meta.end == PLAY_END_RESIGN ? "a player resigned"
                       : s->meta.end == PLAY_END_TIME ? "a player ran out of time"
                       : s->meta.end == PLAY_END_TIME_DRAW
                           ? "a player ran out of time against one who could not win"
                                                      : "the players agreed a draw");
    return seats_check_turn(&s->seats, s->game, s->rec.current, seat, err);
}

bool session_over_locked(const Session *s)
{
    return s->meta.end != PLAY_END_NONE || game_is_over(s->game, s->rec.current);
}

void session_returns_locked(const Session *s, double out[MAX_PLAYERS])
{
    if (s->meta.end != PLAY_END_NONE)
        play_end_returns(s->game, s->meta.end, s->meta.end_seat, out);
    else
        s->game->ops->returns(s->game, s->rec.current, out);
}

Status session_set_meta_locked(Server *srv, Session *s, const GameMeta *m_in, ErrBuf *err)
{
    const bool ends = m_in->end != PLAY_END_NONE;
    // A rated game that this change ends (a resignation, an agreed draw, a flag) is
    // rated in the same write; a later change of a finished game rates nothing.
    GameMeta with = *m_in;
    const GameMeta *m = &with;
    StoreRatingWrite *rating = NULL;
    if (ends && !session_over_locked(s)) {
        double ret[MAX_PLAYERS];
        play_end_returns(s->game, with.end, with.end_seat, ret);
        session_rating_prepare_locked(srv, s, ret, &with, &rating);
    }
    char *text = meta_format(m, s->game->players);
    if (text == NULL) {
        store_rating_free(rating);
        return err_set(err, STATUS_NOMEM, "out of memory");
    }
    StoreStamp stamp = {s->stored_version, s->version + 1,
                        !ends && session_ai_to_move(s, s->game, s->rec.current), NULL,
                        meta_flag_at(m), NULL, 0};
    if (rating != NULL)
        store_rating_stamp(rating, &stamp);
    Status st = store_set_meta(srv->store, s->id, text, &stamp, err);
    free(text);
    store_rating_free(rating);
    if (st == STATUS_CONFLICT) {
        ErrBuf e2;
        session_sync_locked(srv, s, &e2); // shows what changed; the player tries again
        return st;
    }
    if (st != STATUS_OK)
        return STATUS_IO;
    s->stored_version = s->version + 1;
    s->meta = *m;
    if (ends) {
        if (s->agent)
            agent_stop(s->agent); // its move would be refused anyway
        s->thinking = -1;
        session_release_quota_locked(srv, s);
    }
    session_changed_locked(s);
    if (ends)
        session_rate_locked(srv, s); // once: its own meta write finds it rated
    return STATUS_OK;
}

/* Ends the game on time when the running seat's time has run out at `now`; true if it
 * did. A loss, or a draw when the game says no opponent can still win (API.md). */
bool session_flag_locked(Server *srv, Session *s, int64_t now)
{
    const int seat = play_clock_flagged(&s->meta.clock, now);
    if (seat < 0 || session_over_locked(s))
        return false;
    GameMeta m = s->meta;
    play_clock_stop(&m.clock, now);
    m.end = play_end_of_flag(s->game, s->rec.current, seat);
    m.end_seat = seat;
    m.end_ply = s->rec.count;
    m.offer_seat = -1;
    ErrBuf err;
    return session_set_meta_locked(srv, s, &m, &err) == STATUS_OK;
}

void sessions_check_clocks(Server *srv)
{
    enum { BATCH = 64 };
    char ids[BATCH][SECRET_ID_LEN + 1];
    int n = 0;
    const int64_t now = gameclock_now();
    SessionTable *t = srv->sessions;
    // Only collect under the table's lock: ending a game commits to the store.
    pthread_mutex_lock(&t->mu);
    for (int b = 0; b < TABLE_BUCKETS && n < BATCH; b++)
        for (Session *s = t->bucket[b]; s && n < BATCH; s = s->next) {
            pthread_mutex_lock(&s->mu);
            if (play_clock_flagged(&s->meta.clock, now) >= 0 && !session_over_locked(s))
                memcpy(ids[n++], s->id, sizeof ids[0]);
            pthread_mutex_unlock(&s->mu);
        }
    pthread_mutex_unlock(&t->mu);
    for (int i = 0; i < n && !atomic_load(&srv->stopping); i++) {
        Session *s = NULL;
        ErrBuf err;
        if (session_find(srv, ids[i], &s, &err) != STATUS_OK)
            continue;
        pthread_mutex_lock(&s->mu);
        session_flag_locked(srv, s, gameclock_now());
        pthread_mutex_unlock(&s->mu);
        session_release(s);
    }
}

void sessions_flag_stored(Server *srv)
{
    // The lease outlasts loading and ending a game many times over; a process killed
    // meanwhile leaves the flag to another one a minute later.
    enum { BATCH = 64, LEASE_MS = 60000 };
    char ids[BATCH][SECRET_ID_LEN + 1];
    int n = 0;
    ErrBuf err;
    if (store_claim_flags(srv->store, gameclock_now(), LEASE_MS, ids, BATCH, &n, &err) !=
        STATUS_OK)
        return; // the next sweep tries again
    for (int i = 0; i < n && !atomic_load(&srv->stopping); i++) {
        Session *s = NULL;
        // Loading a game ends it when its flag has fallen (session_find); one in memory
        // is ended here.
        if (session_find(srv, ids[i], &s, &err) != STATUS_OK)
            continue;
        pthread_mutex_lock(&s->mu);
        const bool ended = session_flag_locked(srv, s, gameclock_now()) ||
                           (s->meta.end == PLAY_END_TIME || s->meta.end == PLAY_END_TIME_DRAW);
        pthread_mutex_unlock(&s->mu);
        if (ended) {
            pthread_mutex_lock(&srv->sessions->mu);
            srv->sessions->flagged++;
            pthread_mutex_unlock(&srv->sessions->mu);
        }
        session_release(s);
    }
}

Status session_join(Server *srv, Session *s, const char *account, int *seat, ErrBuf *err)
{
    pthread_mutex_lock(&s->mu);
    Status st = STATUS_OK;
    if (session_over_locked(s))
        st = err_set(err, STATUS_CONFLICT, "the game is over: no seat to take");
    else if (s->meta.open == 0)
        st = err_set(err, STATUS_CONFLICT, "every seat of this game has its player");
    for (int i = 0; st == STATUS_OK && s->meta.rated && i < s->game->players; i++)
        if (account && strcmp(s->meta.account[i], account) == 0)
            st = err_set(err, STATUS_CONFLICT, "you sit in this rated game already: a rated "
                         "game is between two accounts");
    if (st == STATUS_OK) {
        GameMeta m = s->meta;
        int i = 0;
        while (!(m.open & (1u << i)))
            i++;
        m.open &= ~(1u << i);
        if (account != NULL)
            snprintf(m.account[i], sizeof m.account[i], "%s", account);
        // Everyone is seated: a clock held back by the open seat starts, if a move has
        // been played (else the first move starts it, as in every game).
        const int p = s->game->ops->to_move(s->game, s->rec.current);
        if (m.open == 0 && s->rec.count > 0 && m.clock.running < 0 && p >= 0)
            play_clock_turn(&m.clock, -1, p, gameclock_now());
        if ((st = session_set_meta_locked(srv, s, &m, err)) == STATUS_OK)
            *seat = i;
    }
    pthread_mutex_unlock(&s->mu);
    return st;
}


Status session_seat_account(Server *srv, Session *s, int seat, const char *name, bool replace,
                            ErrBuf *err)
{
    pthread_mutex_lock(&s->mu);
    Status st = STATUS_OK;
    const char *now = s->meta.account[seat];
    if (strcmp(now, name) != 0) {
        if (now[0] != '\0' && !replace) {
            st = err_set(err, STATUS_CONFLICT, "another account sits in this seat");
        } else {
            GameMeta m = s->meta;
            snprintf(m.account[seat], sizeof m.account[seat], "%s", name);
            st = session_set_meta_locked(srv, s, &m, err);
        }
    }
    pthread_mutex_unlock(&s->mu);
    return st;
}

/* --- playing -------------------------------------------------------------------------- */

Status session_play(Server *srv, Session *s, int seat, const char *text, int expect_ply,
                    ErrBuf *err)
{
    Move acts[PLAY_TURN_CAP];
    int n = 0;
    if (strlen(text) > 1000)
        return err_set(err, STATUS_PARSE, "a move text is at most 1000 characters");
    pthread_mutex_lock(&s->mu);
    Status st;
    for (int attempt = 0;; attempt++) {
        st = check_turn(s, seat, err);
        if (st == STATUS_OK && expect_ply >= 0 && expect_ply != s->rec.count)
            st = err_set(err, STATUS_CONFLICT, "the game has moved on: %d actions have been "
                         "played, not %d", s->rec.count, expect_ply);
        if (st == STATUS_OK && session_flag_locked(srv, s, gameclock_now()))
            st = err_set(err, STATUS_CONFLICT, "the game is over: your time ran out");
        if (st == STATUS_OK)
            st = play_parse_turn(s->game, s->rec.current, text, acts, PLAY_TURN_CAP, &n, err);
        if (st == STATUS_OK)
            st = session_commit_actions(srv, s, acts, n, err);
        // A conflict from the commit: another process moved first. Judge the move again
        // against the game as it now stands.
        if (st != STATUS_CONFLICT || n == 0 || attempt == 2 ||
            session_sync_locked(srv, s, err) != STATUS_OK)
            break;
        n = 0;
    }
    pthread_mutex_unlock(&s->mu);
    return st;
}

Status session_take_back_locked(Server *srv, Session *s, int seat, const GameMeta *m,
                                ErrBuf *err)
{
    int keep = 0;
    Status st = play_undo_point(&s->rec, 1u << seat, &keep, err);
    if (st == STATUS_ILLEGAL)
        st = STATUS_CONFLICT;
    char *meta_text = NULL;
    if (st == STATUS_OK && m != NULL && (meta_text = meta_format(m, s->game->players)) == NULL)
        st = err_set(err, STATUS_NOMEM, "out of memory");
    if (st == STATUS_OK) {
        // The move goes back to this human seat, so no AI move is left pending.
        const StoreStamp stamp = {s->stored_version, s->version + 1, false, meta_text,
                                  m != NULL ? meta_flag_at(m) : 0, NULL, 0};
        st = store_truncate(srv->store, s->id, keep, &stamp, err);
        ErrBuf e2;
        if (st == STATUS_CONFLICT)
            session_sync_locked(srv, s, &e2); // shows what changed; the player tries again
        else if (st != STATUS_OK)
            st = STATUS_IO;
        else
            s->stored_version = s->version + 1;
    }
    free(meta_text);
    if (st == STATUS_OK) {
        if (s->agent)
            agent_stop(s->agent); // its move would be dropped anyway: stop wasting time
        s->thinking = -1;
        session_texts_truncate(s, keep);
        record_truncate(&s->rec, keep);
        if (m != NULL)
            s->meta = *m;
        s->ai_error[0] = '\0';
        session_changed_locked(s);
        session_schedule_ai_locked(srv, s);
    }
    return st;
}

Status session_undo(Server *srv, Session *s, int seat, ErrBuf *err)
{
    pthread_mutex_lock(&s->mu);
    Status st = STATUS_OK;
    if (seat < 0 || seat >= s->game->players || !s->seats.seat[seat].human)
        st = err_set(err, STATUS_CONFLICT, "only a human seat may take moves back");
    for (int i = 0; st == STATUS_OK && i < s->game->players; i++)
        if (i != seat && s->seats.seat[i].human)
            st = err_set(err, STATUS_CONFLICT, "undo is only for games against the AI: "
                         "against the %s seat, another human's, ask for a takeback",
                         play_seat_ordinal(i));
    if (st == STATUS_OK && session_over_locked(s))
        st = err_set(err, STATUS_CONFLICT, "the game is over: moves cannot be taken back");
    if (st == STATUS_OK)
        st = session_take_back_locked(srv, s, seat, NULL, err);
    pthread_mutex_unlock(&s->mu);
    return st;
}

/* --- the AI's side ----------------------------------------------------------------------- */

bool session_ai_claim(Server *srv, Session *s, AiClaim *claim)
{
    pthread_mutex_lock(&s->mu);
    s->ai_queued = false;
    // With several processes the store says who plays this move; the winner first
    // catches up with what the others wrote.
    bool mine = true;
    ErrBuf err;
    if (store_ai_claim(srv->store, s->id, &mine, &err) != STATUS_OK ||
        (mine && session_refresh_locked(srv, s, &err) != STATUS_OK))
        mine = false;
    const int p = s->game->ops->to_move(s->game, s->rec.current);
    bool ok = mine && p >= 0 && !s->seats.seat[p].human && s->thinking < 0 &&
              s->meta.end == PLAY_END_NONE;
    const int64_t left_ms = (int64_t)srv->cfg.ai_seconds * 1000 - s->ai_ms;
    if (ok && (s->rec.count >= srv->cfg.ai_max_plies || left_ms <= 0)) {
        // The AI stops here; a human seat may still move (and the AI then tries again,
        // and stops again).
        if (s->rec.count >= srv->cfg.ai_max_plies)
            snprintf(s->ai_error, sizeof s->ai_error, "the AI plays no more in this game: "
                     "it has %d actions, the server's cap for games with an AI",
                     s->rec.count);
        else
            snprintf(s->ai_error, sizeof s->ai_error, "the AI plays no more in this game: "
                     "it has used the %d s of thinking the server gives a game",
                     srv->cfg.ai_seconds);
        session_changed_locked(s);
        ok = false;
    }
    if (ok) {
        claim->state = game_state_clone(s->game, s->rec.current);
        ok = claim->state != NULL;
    }
    if (ok) {
        claim->seat = p;
        claim->spec = s->seats.seat[p].spec;
        claim->turn = s->ai_turn;
        claim->budget_ms = left_ms;
        s->thinking = p;
        session_changed_locked(s);
        claim->version = s->version;
    }
    pthread_mutex_unlock(&s->mu);
    return ok;
}

void session_ai_running(Session *s, Agent *a, bool running)
{
    pthread_mutex_lock(&s->mu);
    if (running)
        s->agent = a;
    else if (s->agent == a)
        s->agent = NULL;
    pthread_mutex_unlock(&s->mu);
}

void session_ai_finish(Server *srv, Session *s, const AiClaim *claim, bool ok, Move best,
                       const char *error, int64_t think_ms)
{
    pthread_mutex_lock(&s->mu);
    s->ai_ms += think_ms;
    // Anything that changed the game since the claim (an undo) made this think stale; the
    // change itself cleared `thinking`.
    if (s->version == claim->version) {
        s->thinking = -1;
        ErrBuf err;
        Status st;
        if (ok) {
            MoveList *ml = malloc(sizeof *ml);
            bool legal = false;
            if (ml) {
                s->game->ops->gen_moves(s->game, s->rec.current, ml);
                for (int i = 0; i < ml->count && !legal; i++)
                    legal = ml->moves[i] == best;
                free(ml);
            }
            if (legal)
                s->ai_turn = claim->turn; // the turn goes on from the position after best
            if (!legal)
                snprintf(s->ai_error, sizeof s->ai_error, "the AI chose an illegal move");
            else if ((st = session_commit_actions(srv, s, &best, 1, &err)) == STATUS_CONFLICT)
                session_sync_locked(srv, s, &err); // another process changed the game: show that
            else if (st != STATUS_OK)
                snprintf(s->ai_error, sizeof s->ai_error, "%s", err.msg);
            if (!legal || s->version == claim->version)
                session_changed_locked(s);
        } else {
            if (error)
                snprintf(s->ai_error, sizeof s->ai_error, "%s", error);
            session_changed_locked(s);
        }
    }
    pthread_mutex_unlock(&s->mu);
}

Status session_copy_for_hint(Session *s, int seat, GameState **out, ErrBuf *err)
{
    pthread_mutex_lock(&s->mu);
    Status st = check_turn(s, seat, err);
    int humans = 0;
    for (int i = 0; i < s->game->players; i++)
        humans += s->seats.seat[i].human;
    if (st == STATUS_OK && humans > 1 && !s->meta.hints)
        st = err_set(err, STATUS_CONFLICT, "hints are off in a game between people, unless it "
                     "was created with hints allowed");
    if (st == STATUS_OK && (*out = game_state_clone(s->game, s->rec.current)) == NULL)
        st = err_set(err, STATUS_NOMEM, "out of memory");
    pthread_mutex_unlock(&s->mu);
    return st;
}

