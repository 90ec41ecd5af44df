/*
 * session.c - games in play (see session.h): the table of sessions in memory, their
 * lifetime, loading them from the store and keeping them in step with other processes
 * sharing it, and the retention that deletes old games.
 *
 * Playing is session_play.c's, creating session_create.c's; what they share of the
 * insides is in session_internal.h.
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

void sessions_set_hooks(SessionTable *t, const SessionHooks *hooks)
{
    t->hooks = *hooks;
}

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

void session_texts_truncate(Session *s, int n)
{
    for (int i = n; i < s->rec.count; i++) {
        free(s->texts[i]);
        free(s->cells[i]);
        s->texts[i] = s->cells[i] = NULL;
    }
}

/* Gives back what the owner holds for this game (once). */
void session_release_quota_locked(Server *srv, Session *s)
{
    if (s->quota_kind >= 0 && srv != NULL && srv->quota != NULL)
        quota_give(srv->quota, s->owner, (QuotaKind)s->quota_kind);
    if (s->quota_kind >= 0 && srv != NULL && srv->store != NULL && store_shared(srv->store)) {
        ErrBuf e; // a hold not given back runs out by itself (store_hold_take)
        store_hold_give(srv->store, s->id, &e);
    }
    s->quota_kind = -1;
}

void session_destroy(Server *srv, Session *s)
{
    session_release_quota_locked(srv, s);
    if (s->rec.game)
        session_texts_truncate(s, 0);
    free(s->texts);
    free(s->cells);
    free(s->actor);
    for (int i = 0; i <= MAX_PLAYERS; i++)
        free(s->cache[i]);
    if (s->hooks && s->hooks->forget)
        s->hooks->forget(s);
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
    if (s->hooks->wake_locked)
        s->hooks->wake_locked(s);
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

void sessions_insert_locked(SessionTable *t, Session *s)
{
    const unsigned b = bucket_of(s->id);
    s->next = t->bucket[b];
    t->bucket[b] = s;
    t->count++;
}

Session *session_alloc(const SessionTable *t)
{
    Session *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    s->hooks = &t->hooks;
    pthread_mutex_init(&s->mu, NULL);
    s->thinking = s->thinking_elsewhere = -1;
    turn_clock_init(&s->ai_turn);
    s->quota_kind = -1;
    s->changed_ms = clock_ms();
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

int sessions_release_left(Server *srv, const char *owner, int kind, int64_t idle_ms)
{
    SessionTable *t = srv->sessions;
    const int64_t now = clock_ms();
    int n = 0;
    pthread_mutex_lock(&t->mu);
    for (int b = 0; b < TABLE_BUCKETS; b++)
        for (Session *s = t->bucket[b]; s; s = s->next) {
            pthread_mutex_lock(&s->mu);
            if (s->quota_kind == kind && kind >= 0 && strcmp(s->owner, owner) == 0 &&
                now - s->changed_ms >= idle_ms) {
                session_release_quota_locked(srv, s);
                n++;
            }
            pthread_mutex_unlock(&s->mu);
        }
    pthread_mutex_unlock(&t->mu);
    return n;
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
        } else if (!session_texts_reserve(s, i + 1) ||
                   (s->cells[i] = session_cells_of(s->game, s->rec.current, m)) == NULL ||
                   record_push(&s->rec, m, err) != STATUS_OK) {
            free(s->cells[i]);
            st = err_set(err, STATUS_NOMEM, "out of memory");
        } else if ((s->texts[i] = session_strdup(sg->moves[i])) == NULL) {
            st = err_set(err, STATUS_NOMEM, "out of memory");
        } else {
            s->actor[i] = (int8_t)p;
        }
    }
    return st;
}

/* Rebuilds a session from its stored form by replaying every action through the game's
 * own parser; STATUS_CORRUPT if the stored game no longer makes sense to this build. */
static Status load_session(const SessionTable *t, const StoredGame *sg, Session **out, ErrBuf *err)
{
    const GameOps *ops = registry_find(sg->game);
    if (ops == NULL)
        return err_set(err, STATUS_CORRUPT, "game %s is of '%s', which this server does "
                       "not know", sg->id, sg->game);
    char *rules_copy = session_strdup(sg->rules);
    Session *s = session_alloc(t);
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
        if (!session_seat_spec(s, i, sg->player[i], err))
            st = STATUS_CORRUPT;
    }
    if (st == STATUS_OK) {
        st = session_init_record(s, g, start, err);
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
Status session_sync_locked(Server *srv, Session *s, ErrBuf *err)
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
        session_texts_truncate(s, same);
        record_truncate(&s->rec, same);
        st = replay(s, &sg, same, err);
        if (st != STATUS_OK) {
            // Keep what is known good; the next request tries again.
            session_texts_truncate(s, same);
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
        session_changed_locked(s);
    }
    stored_game_free(&sg);
    return st;
}

/* With a shared store, re-reads s when the store's version is not the one last seen. */
Status session_refresh_locked(Server *srv, Session *s, ErrBuf *err)
{
    if (!store_shared(srv->store))
        return STATUS_OK;
    uint64_t v = 0;
    const Status st = store_version(srv->store, s->id, &v, err);
    if (st != STATUS_OK)
        return st == STATUS_ILLEGAL ? err_set(err, STATUS_NOT_FOUND, "no game '%s'", s->id)
                                    : STATUS_IO;
    return v == s->stored_version ? STATUS_OK : session_sync_locked(srv, s, err);
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
            st = load_session(srv->sessions, &sg, &s, err);
            stored_game_free(&sg);
            if (st == STATUS_OK) {
                session_hold(s);
                sessions_insert_locked(t, s);
                // The server may have stopped while an AI was to move: carry on. A
                // clock may have run out while nobody held the game: the first answer
                // says so already.
                pthread_mutex_lock(&s->mu);
                session_flag_locked(srv, s, gameclock_now());
                // A rated game that ended while its rating could not be written (the
                // store, a process killed between the two) is rated now.
                session_rate_locked(srv, s);
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
        st = session_refresh_locked(srv, s, err);
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
        session_sync_locked(srv, s, &err);
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
    if (s->thinking < 0 && session_refresh_locked(srv, s, &err) == STATUS_OK) {
        const int p = s->game->ops->to_move(s->game, s->rec.current);
        if (p >= 0 && !s->seats.seat[p].human) {
            session_changed_locked(s);
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
            session_refresh_locked(srv, s, &err);
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
        const Status st = load_session(srv->sessions, &sg, &s, &err);
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

