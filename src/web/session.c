/*
 * session.c - games in play (see session.h): creating and loading them, playing and
 * taking back actions with the store committed first, chance draws, and the hand-over
 * to and from the AI workers.
 *
 * Every change follows one pattern: check and prepare on a scratch copy under the
 * session's lock, commit to the store, and only then change the in-memory record, bump
 * the version and wake the event streams. A failed commit changes nothing.
 */
#include "web/session.h"

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
#include "web/ai.h"
#include "web/server.h"
#include "web/sse.h"

enum {
    TABLE_BUCKETS = 1024,
    CHANCE_STEPS = 256, /* chance draws that may follow one change before a player acts */
    COMMIT_CAP = PLAY_TURN_CAP + CHANCE_STEPS,
};

struct SessionTable {
    pthread_mutex_t mu;
    Session *bucket[TABLE_BUCKETS];
    long count;   /* sessions in memory */
    long evicted; /* sessions that left memory since the start */
    long retired; /* games deleted by the retention since the start */
    long flagged; /* games out of memory this process ended on time since the start */
};

void sessions_stats(SessionTable *t, long *in_memory, long *evicted, long *retired,
                    long *flagged)
{
    pthread_mutex_lock(&t->mu);
    *flagged = t->flagged;
    *in_memory = t->count;
    *evicted = t->evicted;
    *retired = t->retired;
    pthread_mutex_unlock(&t->mu);
}

/* --- the table ----------------------------------------------------------------------- */

SessionTable *sessions_new(void)
{
    SessionTable *t = calloc(1, sizeof *t);
    if (t)
        pthread_mutex_init(&t->mu, NULL);
    return t;
}

static void texts_truncate(Session *s, int n)
{
    for (int i = n; i < s->rec.count; i++) {
        free(s->texts[i]);
        free(s->cells[i]);
        s->texts[i] = s->cells[i] = NULL;
    }
}

/* Gives back what the owner holds for this game (once). */
static void release_quota_locked(Server *srv, Session *s)
{
    if (s->quota_kind >= 0 && srv != NULL && srv->quota != NULL)
        quota_give(srv->quota, s->owner, (QuotaKind)s->quota_kind);
    if (s->quota_kind >= 0 && srv != NULL && srv->store != NULL && store_shared(srv->store)) {
        ErrBuf e; // a hold not given back runs out by itself (store_hold_take)
        store_hold_give(srv->store, s->id, &e);
    }
    s->quota_kind = -1;
}

static void session_destroy(Server *srv, Session *s)
{
    release_quota_locked(srv, s);
    if (s->rec.game)
        texts_truncate(s, 0);
    free(s->texts);
    free(s->cells);
    free(s->actor);
    for (int i = 0; i <= MAX_PLAYERS; i++)
        free(s->cache[i]);
    sse_events_free(s);
    if (s->rec.game)
        record_free(&s->rec);
    pthread_mutex_destroy(&s->mu);
    free(s);
}

void sessions_free(SessionTable *t)
{
    if (t == NULL)
        return;
    for (int b = 0; b < TABLE_BUCKETS; b++) {
        Session *s = t->bucket[b];
        while (s) {
            Session *next = s->next;
            session_destroy(NULL, s);
            s = next;
        }
    }
    pthread_mutex_destroy(&t->mu);
    free(t);
}

void sessions_each_locked(SessionTable *t, void (*fn)(Session *s, void *ctx), void *ctx)
{
    pthread_mutex_lock(&t->mu);
    for (int b = 0; b < TABLE_BUCKETS; b++)
        for (Session *s = t->bucket[b]; s; s = s->next) {
            pthread_mutex_lock(&s->mu);
            fn(s, ctx);
            pthread_mutex_unlock(&s->mu);
        }
    pthread_mutex_unlock(&t->mu);
}

static void wake_locked(Session *s, void *ctx)
{
    (void)ctx;
    sse_wake_locked(s);
}

void sessions_wake_all(SessionTable *t)
{
    sessions_each_locked(t, wake_locked, NULL);
}

static unsigned bucket_of(const char *id)
{
    unsigned h = 5381;
    for (; *id; id++)
        h = h * 33u + (unsigned char)*id;
    return h % TABLE_BUCKETS;
}

static Session *lookup_locked(SessionTable *t, const char *id)
{
    for (Session *s = t->bucket[bucket_of(id)]; s; s = s->next)
        if (strcmp(s->id, id) == 0)
            return s;
    return NULL;
}

static void insert_locked(SessionTable *t, Session *s)
{
    const unsigned b = bucket_of(s->id);
    s->next = t->bucket[b];
    t->bucket[b] = s;
    t->count++;
}

static Session *session_alloc(void)
{
    Session *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    pthread_mutex_init(&s->mu, NULL);
    s->thinking = s->thinking_elsewhere = -1;
    turn_clock_init(&s->ai_turn);
    s->quota_kind = -1;
    atomic_init(&s->refs, 0);
    atomic_init(&s->last_used, (long long)clock_ms());
    return s;
}

void session_hold(Session *s)
{
    atomic_fetch_add(&s->refs, 1);
}

void session_release(Session *s)
{
    // The time first: once refs is 0 the session may be gone.
    atomic_store(&s->last_used, (long long)clock_ms());
    atomic_fetch_sub(&s->refs, 1);
}

int sessions_evict(Server *srv, int64_t idle_ms)
{
    SessionTable *t = srv->sessions;
    const int64_t now = clock_ms();
    int n = 0;
    pthread_mutex_lock(&t->mu);
    for (int b = 0; b < TABLE_BUCKETS; b++)
        for (Session **p = &t->bucket[b]; *p;) {
            Session *s = *p;
            // Only a holder makes new references (or session_find, under the table's
            // lock): with none held, nobody can reach s but through this table.
            bool evict = atomic_load(&s->refs) == 0 && now - atomic_load(&s->last_used) >= idle_ms;
            if (evict) {
                // A game whose clock of minutes runs stays, so that its flag falls on
                // time. Read only once nobody holds the game (a holder, an AI worker
                // say, may be committing to it) and, like every reader, under its lock.
                pthread_mutex_lock(&s->mu);
                evict = !(play_clock_on(&s->meta.clock) && s->meta.clock.running >= 0 &&
                          s->meta.clock.per_move_ms == 0);
                pthread_mutex_unlock(&s->mu);
            }
            if (evict) {
                *p = s->next;
                session_destroy(srv, s);
                n++;
                t->count--;
                t->evicted++;
            } else {
                p = &s->next;
            }
        }
    pthread_mutex_unlock(&t->mu);
    // Hand the freed pages back to the system, so that the process's size follows the
    // games in memory rather than the most there ever were.
    if (n > 0)
        malloc_trim(0);
    return n;
}

/* --- seats and actions ----------------------------------------------------------------- */

/* Reads "human" or an agent spec for `seat`; the AI's seed follows from the game's. */
static bool seat_spec(Session *s, int seat, const char *player, ErrBuf *err)
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

static bool texts_reserve(Session *s, int n)
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

static char *dup_str(const char *t)
{
    char *d = malloc(strlen(t) + 1);
    if (d)
        strcpy(d, t);
    return d;
}

/* The cells action m touches in st, as a malloc'd text ("" for none or no hook). */
static char *cells_of(const Game *g, const GameState *st, Move m)
{
    StrBuf t;
    sb_init(&t);
    if (g->ops->move_cells)
        g->ops->move_cells(g, st, m, &t);
    char *d = sb_failed(&t) ? NULL : dup_str(sb_str(&t));
    sb_free(&t);
    return d;
}

static void changed_locked(Session *s)
{
    s->thinking_elsewhere = -1; // any change ends another process's think, or restarts it
    s->version++;
    sse_wake_locked(s);
}

/* Whether an AI seat of s is to move in st, a position of game g. */
static bool ai_to_move(const Session *s, const Game *g, const GameState *st)
{
    const int p = g->ops->to_move(g, st);
    return p >= 0 && !s->seats.seat[p].human;
}

void session_schedule_ai_locked(Server *srv, Session *s)
{
    const int p = s->game->ops->to_move(s->game, s->rec.current);
    if (p >= 0 && !s->seats.seat[p].human && !s->ai_queued && s->thinking < 0 &&
        s->meta.end == PLAY_END_NONE &&
        !atomic_load(&srv->stopping)) {
        s->ai_queued = true;
        ai_queue_move(srv->ai, s); // the job holds a reference until it has run
    }
}

/* Commits actions acts[0..n) (legal one after the other from the current position) and
 * the chance draws that follow them, then shows them. Fails only for want of memory or
 * of the store, changing nothing. */
static Status commit_actions(Server *srv, Session *s, const Move *acts, int n, ErrBuf *err)
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
        !texts_reserve(s, s->rec.count + COMMIT_CAP))
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
        if ((texts[total] = dup_str(sb_str(&t))) == NULL || sb_failed(&t) ||
            (cells[total] = cells_of(g, scratch, m)) == NULL) {
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
    if (st == STATUS_OK && total > 0) {
        const int64_t now = gameclock_now();
        const int next = g->ops->to_move(g, scratch);
        // No clock runs while a seat waits for its player (session_join starts it).
        if (n > 0 && meta.open == 0)
            play_clock_turn(&meta.clock, actors[0], next >= 0 ? next : -1, now);
        meta.moved_ms = now;
        if ((meta_text = meta_format(&meta, g->players)) == NULL)
            st = err_set(err, STATUS_NOMEM, "out of memory");
    }
    if (st == STATUS_OK && total > 0) {
        const StoreStamp stamp = {s->stored_version, version, ai_to_move(s, g, scratch),
                                  meta_text, meta_flag_at(&meta)};
        // STATUS_CONFLICT: another process changed the game first (the caller re-reads).
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
                const StoreStamp back = {version, version + 1, false, NULL, 0};
                if (store_truncate(srv->store, s->id, before, &back, &e2) == STATUS_OK)
                    s->stored_version = s->version = version + 1;
                texts_truncate(s, before);
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
            changed_locked(s);
            session_schedule_ai_locked(srv, s);
            // A finished game no longer counts against its creator's AI games.
            if (game_is_over(g, s->rec.current))
                release_quota_locked(srv, s);
        }
    }
    for (int i = 0; texts && cells && i < COMMIT_CAP; i++) {
        free(texts[i]);
        free(cells[i]);
    }
    free(texts);
    free(cells);
    free(meta_text);
    free(all);
    free(undo);
    free(scratch);
    return st;
}

static Status sync_locked(Server *srv, Session *s, ErrBuf *err);

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

Status session_set_meta_locked(Server *srv, Session *s, const GameMeta *m, ErrBuf *err)
{
    char *text = meta_format(m, s->game->players);
    if (text == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    const bool ends = m->end != PLAY_END_NONE;
    const StoreStamp stamp = {s->stored_version, s->version + 1,
                              !ends && ai_to_move(s, s->game, s->rec.current), NULL,
                              meta_flag_at(m)};
    Status st = store_set_meta(srv->store, s->id, text, &stamp, err);
    free(text);
    if (st == STATUS_CONFLICT) {
        ErrBuf e2;
        sync_locked(srv, s, &e2); // shows what changed; the player tries again
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
        release_quota_locked(srv, s);
    }
    changed_locked(s);
    return STATUS_OK;
}

/* Ends the game on time when the running seat's time has run out at `now`; true if it
 * did. A loss, or a draw when the game says no opponent can still win (API.md). */
static bool flag_locked(Server *srv, Session *s, int64_t now)
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
        flag_locked(srv, s, gameclock_now());
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
        const bool ended = flag_locked(srv, s, gameclock_now()) ||
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

Status session_join(Server *srv, Session *s, int *seat, ErrBuf *err)
{
    pthread_mutex_lock(&s->mu);
    Status st = STATUS_OK;
    if (session_over_locked(s))
        st = err_set(err, STATUS_CONFLICT, "the game is over: no seat to take");
    else if (s->meta.open == 0)
        st = err_set(err, STATUS_CONFLICT, "every seat of this game has its player");
    if (st == STATUS_OK) {
        GameMeta m = s->meta;
        int i = 0;
        while (!(m.open & (1u << i)))
            i++;
        m.open &= ~(1u << i);
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

/* --- creating and loading -------------------------------------------------------------- */

/* Sets up s->rec from a configured game and its start, taking ownership of g. */
static Status init_record(Session *s, Game *g, const GameState *start, ErrBuf *err)
{
    const Status st = record_init(&s->rec, g, start, err);
    if (st != STATUS_OK)
        return st;
    s->game = s->rec.game;
    seats_format(&s->seats, s->rec.players, (int)sizeof s->rec.players);
    if (!texts_reserve(s, 64))
        return err_set(err, STATUS_NOMEM, "out of memory");
    return STATUS_OK;
}

/* Plays an imported record's actions on s's fresh record, with their texts as the game
 * writes them: the record was read with the same game, so every action is legal. */
static Status play_imported(Session *s, const GameRecord *r, ErrBuf *err)
{
    const Game *g = s->game;
    if (r->game->state_size != g->state_size ||
        memcmp(r->start, s->rec.start, g->state_size) != 0)
        return err_set(err, STATUS_PARSE, "the record's start does not read back the same");
    if (!texts_reserve(s, r->count))
        return err_set(err, STATUS_NOMEM, "out of memory");
    StrBuf t;
    sb_init(&t);
    Status st = STATUS_OK;
    for (int i = 0; i < r->count && st == STATUS_OK; i++) {
        const int p = g->ops->to_move(g, s->rec.current);
        sb_clear(&t);
        g->ops->format_move(g, s->rec.current, r->moves[i], &t);
        s->texts[i] = sb_failed(&t) ? NULL : dup_str(sb_str(&t));
        s->cells[i] = cells_of(g, s->rec.current, r->moves[i]);
        s->actor[i] = (int8_t)p;
        if (s->texts[i] == NULL || s->cells[i] == NULL ||
            record_push(&s->rec, r->moves[i], err) != STATUS_OK) {
            free(s->texts[i]); // not yet the record's, so not freed with it
            free(s->cells[i]);
            s->texts[i] = s->cells[i] = NULL;
            st = err_set(err, STATUS_NOMEM, "out of memory");
        }
    }
    sb_free(&t);
    return st;
}

Status session_create(Server *srv, const NewGame *ng, Session **out, ErrBuf *err)
{
    Game *g = NULL;
    ErrBuf e2;
    if (game_create(ng->ops, ng->players, ng->rules, ng->n_rules, &g, &e2) != STATUS_OK)
        return err_set(err, STATUS_PARSE, "%s", e2.msg);
    Session *s = session_alloc();
    GameState *start = game_state_new(g);
    if (s == NULL || start == NULL) {
        game_destroy(g);
        free(start);
        if (s)
            session_destroy(NULL, s);
        return err_set(err, STATUS_NOMEM, "out of memory");
    }
    Status st = STATUS_OK;
    s->seed = ng->seed;
    snprintf(s->owner, sizeof s->owner, "%s", ng->owner ? ng->owner : "");
    if (!ng->seed_set && !secret_u64(&s->seed))
        st = err_set(err, STATUS_IO, "no randomness for the seed");
    if (!ng->seed_set)
        s->seed &= (1ULL << 53) - 1; // what a JavaScript number holds exactly
    if (st == STATUS_OK && ng->position) {
        if (g->ops->parse_position(g, start, ng->position, &e2) != STATUS_OK)
            st = err_set(err, STATUS_PARSE, "bad position: %s", e2.msg);
    } else if (st == STATUS_OK) {
        g->ops->new_game(g, start, s->seed);
    }
    for (int i = 0; st == STATUS_OK && i < g->players; i++) {
        if (!seat_spec(s, i, ng->player[i], err)) {
            st = STATUS_PARSE;
        } else if (!s->seats.seat[i].human) {
            // Refuse now what the AI could not play later (alpha-beta on a game without an
            // evaluation, say), with the agent's own explanation.
            Agent *a = NULL;
            if (agent_new(g, &s->seats.seat[i].spec, &a, &e2) != STATUS_OK)
                st = err_set(err, STATUS_PARSE, "seat %d (%s): %s", i, s->seats.seat[i].text,
                             e2.msg);
            agent_free(a);
        }
    }
    if (st == STATUS_OK && ng->id[0])
        snprintf(s->id, sizeof s->id, "%s", ng->id);
    else if (st == STATUS_OK && !secret_hex(s->id, SECRET_ID_BYTES))
        st = err_set(err, STATUS_IO, "no randomness for the game id");
    for (int i = 0; st == STATUS_OK && i < g->players; i++)
        if (!secret_hex(s->token[i], SECRET_TOKEN_BYTES))
            st = err_set(err, STATUS_IO, "no randomness for the tokens");
    if (st != STATUS_OK) {
        game_destroy(g);
        free(start);
        session_destroy(NULL, s);
        return st;
    }
    s->created = (int64_t)time(NULL);
    meta_init(&s->meta);
    s->meta.hints = ng->hints;
    if (ng->rematch_of)
        snprintf(s->meta.rematch_of, sizeof s->meta.rematch_of, "%s", ng->rematch_of);
    s->meta.clock = ng->clock;
    s->meta.open = ng->open;
    s->meta.moved_ms = gameclock_now();

    // The record first, with an import's actions, so that they go to the store with the
    // game in one write: a game is stored whole or not at all.
    st = init_record(s, g, start, err);
    g = s->rec.game; // owned by the record now (NULL if init failed), freed with the session
    st = st == STATUS_OK && ng->record ? play_imported(s, ng->record, err) : st;

    StoredGame sg;
    memset(&sg, 0, sizeof sg);
    StrBuf pos;
    sb_init(&pos);
    // Every option is stored with its value, defaults included, so a later change of a
    // default cannot change a stored game: as one JSON object of name and value pairs.
    json_t *rule_pairs = st == STATUS_OK ? json_object() : NULL;
    for (int i = 0; i < g->ops->option_count && rule_pairs; i++)
        if (json_object_set_new(rule_pairs, g->ops->options[i].name,
                                json_string(g->values[i])) != 0) {
            json_decref(rule_pairs);
            rule_pairs = NULL;
        }
    char *rules = rule_pairs ? json_dumps(rule_pairs, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    json_decref(rule_pairs);
    if (st == STATUS_OK) {
        g->ops->format_position(g, start, &pos);
        snprintf(sg.id, sizeof sg.id, "%s", s->id);
        snprintf(sg.game, sizeof sg.game, "%s", g->ops->name);
        sg.players = g->players;
        sg.rules = rules;
        sg.start = pos.data;
        sg.seed = s->seed;
        sg.created = s->created;
        sg.version = 0;
        sg.moves = s->texts;
        sg.n_moves = s->rec.count;
        for (int i = 0; i < g->players; i++) {
            // Web seats are "human" or an agent spec, well inside the stored width.
            snprintf(sg.player[i], sizeof sg.player[i], "%.*s", (int)sizeof sg.player[i] - 1,
                     s->seats.seat[i].text);
            snprintf(sg.token[i], sizeof sg.token[i], "%s", s->token[i]);
        }
        sg.meta = meta_format(&s->meta, g->players);
        if (rules == NULL || sb_failed(&pos) || sg.meta == NULL)
            st = err_set(err, STATUS_NOMEM, "out of memory");
        else if (store_insert_game(srv->store, &sg, ai_to_move(s, g, s->rec.current), err) !=
                 STATUS_OK)
            st = STATUS_IO;
    }
    free(rules);
    free(sg.meta);
    sb_free(&pos);
    free(start);
    if (st != STATUS_OK) {
        session_destroy(NULL, s);
        return st;
    }
    // From here the session gives the quota back itself, when the game ends or leaves.
    s->quota_kind = ng->quota_kind;
    session_hold(s);
    pthread_mutex_lock(&srv->sessions->mu);
    insert_locked(srv->sessions, s);
    pthread_mutex_unlock(&srv->sessions->mu);
    pthread_mutex_lock(&s->mu);
    // A game may begin with chance (a shuffle, a first draw): draw now, then let an AI
    // seat start if it has the first move.
    if (g->ops->to_move(s->game, s->rec.current) == PLAYER_CHANCE) {
        if (commit_actions(srv, s, NULL, 0, err) != STATUS_OK)
            snprintf(s->ai_error, sizeof s->ai_error, "%s", err->msg);
    } else {
        session_schedule_ai_locked(srv, s);
    }
    pthread_mutex_unlock(&s->mu);
    *out = s;
    return STATUS_OK;
}

/* Plays the stored actions sg->moves[from..] onto s->rec, which holds `from` actions,
 * through the game's own parser; STATUS_CORRUPT when they no longer make sense to this
 * build. On failure texts[0..count) are all set (NULL where a copy failed). */
static Status replay(Session *s, const StoredGame *sg, int from, ErrBuf *err)
{
    ErrBuf e2;
    Status st = STATUS_OK;
    for (int i = from; st == STATUS_OK && i < sg->n_moves; i++) {
        Move m;
        const int p = s->game->ops->to_move(s->game, s->rec.current);
        if (p == PLAYER_NONE) {
            st = err_set(err, STATUS_CORRUPT, "game %s: move %d after the end", sg->id, i + 1);
        } else if (game_parse_action(s->game, s->rec.current, sg->moves[i], &m, &e2) !=
                   STATUS_OK) {
            st = err_set(err, STATUS_CORRUPT, "game %s: move %d '%.40s': %s", sg->id, i + 1,
                         sg->moves[i], e2.msg);
        } else if (!texts_reserve(s, i + 1) ||
                   (s->cells[i] = cells_of(s->game, s->rec.current, m)) == NULL ||
                   record_push(&s->rec, m, err) != STATUS_OK) {
            free(s->cells[i]);
            st = err_set(err, STATUS_NOMEM, "out of memory");
        } else if ((s->texts[i] = dup_str(sg->moves[i])) == NULL) {
            st = err_set(err, STATUS_NOMEM, "out of memory");
        } else {
            s->actor[i] = (int8_t)p;
        }
    }
    return st;
}

/* Rebuilds a session from its stored form by replaying every action through the game's
 * own parser; STATUS_CORRUPT if the stored game no longer makes sense to this build. */
static Status load_session(const StoredGame *sg, Session **out, ErrBuf *err)
{
    const GameOps *ops = registry_find(sg->game);
    if (ops == NULL)
        return err_set(err, STATUS_CORRUPT, "game %s is of '%s', which this server does "
                       "not know", sg->id, sg->game);
    char *rules_copy = dup_str(sg->rules);
    Session *s = session_alloc();
    if (rules_copy == NULL || s == NULL) {
        free(rules_copy);
        if (s)
            session_destroy(NULL, s);
        return err_set(err, STATUS_NOMEM, "out of memory");
    }
    // The store keeps the options as one JSON object of name and value pairs; games
    // stored before that kept one "name=value" line per option (names never hold '='),
    // split here, at the edge.
    RuleSetting rules[2 * GAME_MAX_OPTIONS];
    int n_rules = 0;
    Game *g = NULL;
    ErrBuf e2;
    Status st = STATUS_OK;
    json_t *pairs = NULL;
    if (rules_copy[0] == '{') {
        json_error_t jerr;
        pairs = json_loads(rules_copy, 0, &jerr);
        if (!json_is_object(pairs))
            st = err_set(err, STATUS_CORRUPT, "game %s: its rules: %s", sg->id,
                         pairs ? "not a JSON object" : jerr.text);
        const char *name;
        json_t *value;
        json_object_foreach(pairs, name, value) {
            if (st != STATUS_OK || n_rules == 2 * GAME_MAX_OPTIONS)
                break;
            if (!json_is_string(value)) {
                st = err_set(err, STATUS_CORRUPT, "game %s: its rule '%s' is not text", sg->id,
                             name);
                break;
            }
            rules[n_rules++] = (RuleSetting){.name = name, .value = json_string_value(value)};
        }
    } else {
        char *save = NULL;
        for (char *r = strtok_r(rules_copy, "\n", &save); r && n_rules < 2 * GAME_MAX_OPTIONS;
             r = strtok_r(NULL, "\n", &save)) {
            if (rule_setting_split(r, &rules[n_rules++], &e2) != STATUS_OK) {
                st = err_set(err, STATUS_CORRUPT, "game %s: its rules: %s", sg->id, e2.msg);
                break;
            }
        }
    }
    if (st == STATUS_OK && game_create(ops, sg->players, rules, n_rules, &g, &e2) != STATUS_OK)
        st = err_set(err, STATUS_CORRUPT, "game %s: its rules: %s", sg->id, e2.msg);
    json_decref(pairs);
    free(rules_copy);
    snprintf(s->id, sizeof s->id, "%s", sg->id);
    s->seed = sg->seed;
    s->created = sg->created;
    s->version = s->stored_version = sg->version;
    if (st == STATUS_OK && meta_parse(sg->meta, sg->players, &s->meta, &e2) != STATUS_OK)
        st = err_set(err, STATUS_CORRUPT, "game %s: %s", sg->id, e2.msg);
    GameState *start = st == STATUS_OK ? game_state_new(g) : NULL;
    if (st == STATUS_OK && start == NULL)
        st = err_set(err, STATUS_NOMEM, "out of memory");
    if (st == STATUS_OK && ops->parse_position(g, start, sg->start, &e2) != STATUS_OK)
        st = err_set(err, STATUS_CORRUPT, "game %s: its start: %s", sg->id, e2.msg);
    for (int i = 0; st == STATUS_OK && i < sg->players; i++) {
        snprintf(s->token[i], sizeof s->token[i], "%s", sg->token[i]);
        if (!seat_spec(s, i, sg->player[i], err))
            st = STATUS_CORRUPT;
    }
    if (st == STATUS_OK) {
        st = init_record(s, g, start, err);
        g = NULL;
    }
    free(start);
    if (g)
        game_destroy(g);
    if (st == STATUS_OK)
        st = replay(s, sg, 0, err);
    if (st != STATUS_OK) {
        session_destroy(NULL, s); // texts[0..count) are all set (NULL where a copy failed)
        return st;
    }
    *out = s;
    return STATUS_OK;
}

/* Brings s up to what the store holds when another process has changed it: keeps the
 * actions both agree on, replays the stored ones after them, drops any think of ours
 * (its move would be stale) and wakes the streams. Nothing changes when the store's
 * version is the one this process last saw. */
static Status sync_locked(Server *srv, Session *s, ErrBuf *err)
{
    StoredGame sg;
    Status st = store_load(srv->store, s->id, &sg, err);
    if (st != STATUS_OK)
        return st == STATUS_ILLEGAL ? err_set(err, STATUS_NOT_FOUND, "no game '%s'", s->id)
                                    : STATUS_IO;
    if (sg.version != s->stored_version) {
        ErrBuf e2;
        // A meta this build cannot read leaves the one held, as load_session refused it.
        (void)meta_parse(sg.meta, s->game->players, &s->meta, &e2);
        int same = 0;
        while (same < sg.n_moves && same < s->rec.count &&
               strcmp(sg.moves[same], s->texts[same]) == 0)
            same++;
        texts_truncate(s, same);
        record_truncate(&s->rec, same);
        st = replay(s, &sg, same, err);
        if (st != STATUS_OK) {
            // Keep what is known good; the next request tries again.
            texts_truncate(s, same);
            record_truncate(&s->rec, same);
        } else {
            s->stored_version = sg.version;
        }
        if (s->agent)
            agent_stop(s->agent);
        s->thinking = -1;
        s->ai_error[0] = '\0';
        if (s->version < sg.version)
            s->version = sg.version;
        changed_locked(s);
    }
    stored_game_free(&sg);
    return st;
}

/* With a shared store, re-reads s when the store's version is not the one last seen. */
static Status refresh_locked(Server *srv, Session *s, ErrBuf *err)
{
    if (!store_shared(srv->store))
        return STATUS_OK;
    uint64_t v = 0;
    const Status st = store_version(srv->store, s->id, &v, err);
    if (st != STATUS_OK)
        return st == STATUS_ILLEGAL ? err_set(err, STATUS_NOT_FOUND, "no game '%s'", s->id)
                                    : STATUS_IO;
    return v == s->stored_version ? STATUS_OK : sync_locked(srv, s, err);
}

Status session_find(Server *srv, const char *id, Session **out, ErrBuf *err)
{
    if (id == NULL || !secret_is_hex(id, SECRET_ID_LEN))
        return err_set(err, STATUS_NOT_FOUND, "no game '%.40s': a game id is %d hex digits",
                       id ? id : "", SECRET_ID_LEN);
    SessionTable *t = srv->sessions;
    pthread_mutex_lock(&t->mu);
    Session *s = lookup_locked(t, id);
    const bool loaded = s != NULL;
    Status st = STATUS_OK;
    if (s != NULL) {
        session_hold(s);
    } else {
        StoredGame sg;
        st = store_load(srv->store, id, &sg, err);
        if (st == STATUS_ILLEGAL) {
            st = err_set(err, STATUS_NOT_FOUND, "no game '%s'", id);
        } else if (st != STATUS_OK) {
            st = STATUS_IO;
        } else {
            st = load_session(&sg, &s, err);
            stored_game_free(&sg);
            if (st == STATUS_OK) {
                session_hold(s);
                insert_locked(t, s);
                // The server may have stopped while an AI was to move: carry on. A
                // clock may have run out while nobody held the game: the first answer
                // says so already.
                pthread_mutex_lock(&s->mu);
                flag_locked(srv, s, gameclock_now());
                session_schedule_ai_locked(srv, s);
                pthread_mutex_unlock(&s->mu);
            }
        }
    }
    pthread_mutex_unlock(&t->mu);
    if (st == STATUS_OK && loaded && store_shared(srv->store)) {
        // Another process may have moved since: one cheap read of the version keeps every
        // answer as fresh as the store.
        pthread_mutex_lock(&s->mu);
        st = refresh_locked(srv, s, err);
        pthread_mutex_unlock(&s->mu);
        if (st != STATUS_OK)
            session_release(s);
    }
    if (st == STATUS_OK)
        *out = s;
    return st;
}

/* For the listener: the session of game `id` if it is in memory, with a reference given
 * back by unpin, else NULL (a game not held here, evicted say, is read fresh when first
 * asked for, so its notices are nothing to us). */
static Session *pin(Server *srv, const char *id)
{
    pthread_mutex_lock(&srv->sessions->mu);
    Session *s = lookup_locked(srv->sessions, id);
    if (s != NULL)
        session_hold(s);
    pthread_mutex_unlock(&srv->sessions->mu);
    return s;
}

/* Gives back pin's reference without counting as a use: a game that only other processes
 * play still leaves this one's memory when idle here. */
static void unpin(Session *s)
{
    atomic_fetch_sub(&s->refs, 1);
}

void session_store_changed(Server *srv, const char *id, uint64_t version)
{
    Session *s = pin(srv, id);
    if (s == NULL)
        return;
    pthread_mutex_lock(&s->mu);
    ErrBuf err;
    // Our own commits come back too; they carry the version we already hold.
    if (version != s->stored_version)
        sync_locked(srv, s, &err);
    pthread_mutex_unlock(&s->mu);
    unpin(s);
}

void session_store_thinking(Server *srv, const char *id)
{
    Session *s = pin(srv, id);
    if (s == NULL)
        return;
    pthread_mutex_lock(&s->mu);
    ErrBuf err;
    // Our own claims come back too, and find our think registered already.
    if (s->thinking < 0 && refresh_locked(srv, s, &err) == STATUS_OK) {
        const int p = s->game->ops->to_move(s->game, s->rec.current);
        if (p >= 0 && !s->seats.seat[p].human) {
            changed_locked(s);
            s->thinking_elsewhere = p;
        }
    }
    pthread_mutex_unlock(&s->mu);
    unpin(s);
}

void session_store_missed(Server *srv)
{
    // Rare (the listener reconnected): the table stays locked throughout, which the lock
    // order allows, rather than trusting pointers to sessions after letting go of it.
    SessionTable *t = srv->sessions;
    pthread_mutex_lock(&t->mu);
    for (int b = 0; b < TABLE_BUCKETS; b++)
        for (Session *s = t->bucket[b]; s != NULL; s = s->next) {
            ErrBuf err;
            pthread_mutex_lock(&s->mu);
            refresh_locked(srv, s, &err);
            pthread_mutex_unlock(&s->mu);
        }
    pthread_mutex_unlock(&t->mu);
}

void session_store_orphaned(Server *srv, const char *id)
{
    Session *s = NULL;
    ErrBuf err;
    if (session_find(srv, id, &s, &err) != STATUS_OK)
        return;
    pthread_mutex_lock(&s->mu);
    session_schedule_ai_locked(srv, s); // the queued job holds its own reference
    pthread_mutex_unlock(&s->mu);
    session_release(s);
}

int session_seat_of(const Session *s, const char *token)
{
    if (token == NULL || !secret_is_hex(token, SECRET_TOKEN_LEN))
        return -1;
    int seat = -1;
    // Compare with every seat, so the time does not tell which seat came close.
    for (int i = 0; i < s->game->players; i++)
        if (secret_equal(s->token[i], token))
            seat = i;
    return seat;
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
        if (st == STATUS_OK && flag_locked(srv, s, gameclock_now()))
            st = err_set(err, STATUS_CONFLICT, "the game is over: your time ran out");
        if (st == STATUS_OK)
            st = play_parse_turn(s->game, s->rec.current, text, acts, PLAY_TURN_CAP, &n, err);
        if (st == STATUS_OK)
            st = commit_actions(srv, s, acts, n, err);
        // A conflict from the commit: another process moved first. Judge the move again
        // against the game as it now stands.
        if (st != STATUS_CONFLICT || n == 0 || attempt == 2 ||
            sync_locked(srv, s, err) != STATUS_OK)
            break;
        n = 0;
    }
    pthread_mutex_unlock(&s->mu);
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
                         "the %s seat is another human's", play_seat_ordinal(i));
    if (st == STATUS_OK && session_over_locked(s))
        st = err_set(err, STATUS_CONFLICT, "the game is over: moves cannot be taken back");
    int keep = 0;
    if (st == STATUS_OK && (st = play_undo_point(&s->rec, 1u << seat, &keep, err)) ==
                               STATUS_ILLEGAL)
        st = STATUS_CONFLICT;
    if (st == STATUS_OK) {
        // Undo hands the move back to this human seat, so no AI move is left pending.
        const StoreStamp stamp = {s->stored_version, s->version + 1, false, NULL, 0};
        st = store_truncate(srv->store, s->id, keep, &stamp, err);
        ErrBuf e2;
        if (st == STATUS_CONFLICT)
            sync_locked(srv, s, &e2); // shows what changed; the player tries again
        else if (st != STATUS_OK)
            st = STATUS_IO;
        else
            s->stored_version = s->version + 1;
    }
    if (st == STATUS_OK) {
        if (s->agent)
            agent_stop(s->agent); // its move would be dropped anyway: stop wasting time
        s->thinking = -1;
        texts_truncate(s, keep);
        record_truncate(&s->rec, keep);
        s->ai_error[0] = '\0';
        changed_locked(s);
        session_schedule_ai_locked(srv, s);
    }
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
        (mine && refresh_locked(srv, s, &err) != STATUS_OK))
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
        changed_locked(s);
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
        changed_locked(s);
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
            else if ((st = commit_actions(srv, s, &best, 1, &err)) == STATUS_CONFLICT)
                sync_locked(srv, s, &err); // another process changed the game: show that
            else if (st != STATUS_OK)
                snprintf(s->ai_error, sizeof s->ai_error, "%s", err.msg);
            if (!legal || s->version == claim->version)
                changed_locked(s);
        } else {
            if (error)
                snprintf(s->ai_error, sizeof s->ai_error, "%s", error);
            changed_locked(s);
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

/* --- retention --------------------------------------------------------------------------- */

/* Deletes the stored game `id` unless it is in memory or changed since `before`; a game
 * not known to be over is replayed first, and kept (and noted as over) if it is. Called
 * with the table locked, so that nobody here loads the game meanwhile; the store's own
 * check of `before` covers the processes sharing it. */
static bool retire_locked(Server *srv, const char *id, bool known_over, int64_t before)
{
    if (lookup_locked(srv->sessions, id) != NULL)
        return false;
    ErrBuf err;
    if (!known_over) {
        StoredGame sg;
        if (store_load(srv->store, id, &sg, &err) != STATUS_OK)
            return false;
        Session *s = NULL;
        const Status st = load_session(&sg, &s, &err);
        const uint64_t version = sg.version;
        stored_game_free(&sg);
        if (st != STATUS_OK)
            return false; // a game this build cannot read is nobody's to delete
        const bool over = session_over_locked(s);
        session_destroy(NULL, s);
        if (over) {
            store_mark_over(srv->store, id, version, &err);
            return false;
        }
    }
    return store_delete_game(srv->store, id, before, &err) == STATUS_OK;
}

int sessions_retire(Server *srv, int64_t abandoned_before, int64_t finished_before)
{
    enum { BATCH = 64 };
    char(*ids)[SECRET_ID_LEN + 1] = malloc(sizeof *ids * BATCH);
    if (ids == NULL)
        return 0;
    int deleted = 0;
    for (int pass = 0; pass < 2; pass++) {
        const int64_t before = pass == 0 ? abandoned_before : finished_before;
        int n = 0;
        ErrBuf err;
        if (before <= 0 ||
            store_list_stale(srv->store, before, pass == 1, ids, BATCH, &n, &err) != STATUS_OK)
            continue;
        int gone = 0;
        pthread_mutex_lock(&srv->sessions->mu);
        for (int i = 0; i < n && !atomic_load(&srv->stopping); i++)
            gone += retire_locked(srv, ids[i], pass == 1, before);
        srv->sessions->retired += gone;
        deleted += gone;
        pthread_mutex_unlock(&srv->sessions->mu);
    }
    free(ids);
    return deleted;
}
