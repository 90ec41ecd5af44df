/*
 * store.c - the SQLite database of games (see store.h for the guarantees).
 *
 * Tables: games (one row per game: set-up and version), seats (player spec and token
 * per seat) and moves (one row per action, keyed by game and ply). Statements are
 * prepared per call: a move costs one fsync, which dwarfs the preparing.
 */
#include "web/store.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct Store {
    sqlite3 *db;
    pthread_mutex_t mu;
};

static const char SCHEMA[] =
    "CREATE TABLE IF NOT EXISTS games("
    " id TEXT PRIMARY KEY, game TEXT NOT NULL, players INTEGER NOT NULL,"
    " rules TEXT NOT NULL, start TEXT NOT NULL, seed INTEGER NOT NULL,"
    " created INTEGER NOT NULL, version INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS seats("
    " game_id TEXT NOT NULL REFERENCES games(id), seat INTEGER NOT NULL,"
    " player TEXT NOT NULL, token TEXT NOT NULL, PRIMARY KEY(game_id, seat));"
    "CREATE TABLE IF NOT EXISTS moves("
    " game_id TEXT NOT NULL REFERENCES games(id), ply INTEGER NOT NULL,"
    " text TEXT NOT NULL, PRIMARY KEY(game_id, ply)) WITHOUT ROWID;"
    // When a game last changed and whether it is known to be over, for the retention of
    // abandoned games; a game without a row (stored before it existed) counts as changed
    // when created and not known to be over.
    "CREATE TABLE IF NOT EXISTS activity("
    " game_id TEXT PRIMARY KEY REFERENCES games(id), updated INTEGER NOT NULL,"
    " over INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;";

static Status db_error(Store *st, ErrBuf *err, const char *what)
{
    return err_set(err, STATUS_IO, "database: %s: %s", what, sqlite3_errmsg(st->db));
}

static Status exec(Store *st, const char *sql, ErrBuf *err)
{
    char *msg = NULL;
    if (sqlite3_exec(st->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        err_set(err, STATUS_IO, "database: %s", msg ? msg : sqlite3_errmsg(st->db));
        sqlite3_free(msg);
        return STATUS_IO;
    }
    return STATUS_OK;
}

Status store_open(const char *path, Store **out, ErrBuf *err)
{
    *out = NULL;
    Store *st = calloc(1, sizeof *st);
    if (st == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    pthread_mutex_init(&st->mu, NULL);
    Status s = STATUS_OK;
    if (sqlite3_open_v2(path, &st->db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                        NULL) != SQLITE_OK) {
        s = err_set(err, STATUS_IO, "cannot open database '%s': %s", path,
                    st->db ? sqlite3_errmsg(st->db) : "out of memory");
        store_close(st);
        return s;
    }
    // A second server on the same file would wait this long for the lock, then give up.
    sqlite3_busy_timeout(st->db, 2000);
    sqlite3_stmt *q = NULL;
    // journal_mode answers with the mode in force, which is "wal" only if it took.
    if (sqlite3_prepare_v2(st->db, "PRAGMA journal_mode=WAL", -1, &q, NULL) != SQLITE_OK ||
        sqlite3_step(q) != SQLITE_ROW ||
        strcmp((const char *)sqlite3_column_text(q, 0), "wal") != 0) {
        s = err_set(err, STATUS_IO, "database '%s': cannot use WAL mode: %s", path,
                    sqlite3_errmsg(st->db));
    }
    sqlite3_finalize(q);
    if (s == STATUS_OK)
        s = exec(st, "PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;"
                     "PRAGMA locking_mode=EXCLUSIVE;", err);
    if (s == STATUS_OK)
        s = exec(st, "BEGIN IMMEDIATE", err);
    if (s == STATUS_OK) {
        s = exec(st, SCHEMA, err);
        exec(st, s == STATUS_OK ? "COMMIT" : "ROLLBACK", s == STATUS_OK ? err : NULL);
    }
    if (s != STATUS_OK) {
        if (strstr(err->msg, "locked") != NULL)
            err_set(err, STATUS_IO, "database '%s' is in use by another crown serve", path);
        store_close(st);
        return s;
    }
    *out = st;
    return STATUS_OK;
}

void store_close(Store *st)
{
    if (st == NULL)
        return;
    if (st->db)
        sqlite3_close(st->db);
    pthread_mutex_destroy(&st->mu);
    free(st);
}

/* Prepares sql or reports why not. */
static Status prepare(Store *st, const char *sql, sqlite3_stmt **q, ErrBuf *err)
{
    if (sqlite3_prepare_v2(st->db, sql, -1, q, NULL) != SQLITE_OK) {
        *q = NULL;
        return db_error(st, err, "prepare");
    }
    return STATUS_OK;
}

static Status step_done(Store *st, sqlite3_stmt *q, ErrBuf *err, const char *what)
{
    const int rc = sqlite3_step(q);
    sqlite3_finalize(q);
    return rc == SQLITE_DONE ? STATUS_OK : db_error(st, err, what);
}

static Status set_version(Store *st, const char *id, uint64_t version, ErrBuf *err)
{
    sqlite3_stmt *q;
    Status s = prepare(st, "UPDATE games SET version=?1 WHERE id=?2", &q, err);
    if (s != STATUS_OK)
        return s;
    sqlite3_bind_int64(q, 1, (sqlite3_int64)version);
    sqlite3_bind_text(q, 2, id, -1, SQLITE_STATIC);
    if ((s = step_done(st, q, err, "update version")) != STATUS_OK)
        return s;
    // Any change may undo an end (an undo after the last move): "over" is learnt again
    // by the retention sweep, which replays the game before it deletes anything.
    if ((s = prepare(st, "INSERT INTO activity(game_id, updated, over) VALUES(?1, ?2, 0) "
                         "ON CONFLICT(game_id) DO UPDATE SET updated=?2, over=0",
                     &q, err)) != STATUS_OK)
        return s;
    sqlite3_bind_text(q, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 2, (sqlite3_int64)time(NULL));
    return step_done(st, q, err, "update activity");
}

/* Ends the transaction begun by the caller: COMMIT when s is OK, else ROLLBACK. A failed
 * COMMIT is an error too, since then nothing is durable. */
static Status finish(Store *st, Status s, ErrBuf *err)
{
    if (s == STATUS_OK) {
        s = exec(st, "COMMIT", err);
        if (s == STATUS_OK)
            return s;
    }
    exec(st, "ROLLBACK", NULL);
    return s;
}

/* Every write takes the lock and one transaction, so a reader never sees half a change. */
static Status begin_write(Store *st, bool *begun, ErrBuf *err)
{
    pthread_mutex_lock(&st->mu);
    Status s = exec(st, "BEGIN IMMEDIATE", err);
    *begun = s == STATUS_OK;
    return s;
}

/* Closes what begin_write opened. With an id, the game's version is stamped inside the
 * same transaction, so a version is never seen without the moves it counts. */
static Status end_write(Store *st, Status s, bool begun, const char *id, uint64_t version,
                        ErrBuf *err)
{
    if (s == STATUS_OK && id != NULL)
        s = set_version(st, id, version, err);
    if (begun)
        s = finish(st, s, err);
    pthread_mutex_unlock(&st->mu);
    return s;
}

Status store_insert_game(Store *st, const StoredGame *g, ErrBuf *err)
{
    bool begun;
    Status s = begin_write(st, &begun, err);
    sqlite3_stmt *q;
    if (s == STATUS_OK &&
        (s = prepare(st, "INSERT INTO games(id, game, players, rules, start, seed, created, "
                         "version) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)", &q, err)) ==
            STATUS_OK) {
        sqlite3_bind_text(q, 1, g->id, -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 2, g->game, -1, SQLITE_STATIC);
        sqlite3_bind_int(q, 3, g->players);
        sqlite3_bind_text(q, 4, g->rules, -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 5, g->start, -1, SQLITE_STATIC);
        sqlite3_bind_int64(q, 6, (sqlite3_int64)g->seed);
        sqlite3_bind_int64(q, 7, (sqlite3_int64)g->created);
        sqlite3_bind_int64(q, 8, (sqlite3_int64)g->version);
        s = step_done(st, q, err, "insert game");
    }
    for (int i = 0; i < g->players && s == STATUS_OK; i++) {
        if ((s = prepare(st, "INSERT INTO seats(game_id, seat, player, token) "
                             "VALUES(?1, ?2, ?3, ?4)", &q, err)) != STATUS_OK)
            break;
        sqlite3_bind_text(q, 1, g->id, -1, SQLITE_STATIC);
        sqlite3_bind_int(q, 2, i);
        sqlite3_bind_text(q, 3, g->player[i], -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 4, g->token[i], -1, SQLITE_STATIC);
        s = step_done(st, q, err, "insert seat");
    }
    return end_write(st, s, begun, NULL, 0, err);
}

Status store_append(Store *st, const char *id, int first_ply, const char *const *texts, int n,
                    uint64_t version, ErrBuf *err)
{
    bool begun;
    Status s = begin_write(st, &begun, err);
    for (int i = 0; i < n && s == STATUS_OK; i++) {
        sqlite3_stmt *q;
        if ((s = prepare(st, "INSERT INTO moves(game_id, ply, text) VALUES(?1, ?2, ?3)", &q,
                         err)) != STATUS_OK)
            break;
        sqlite3_bind_text(q, 1, id, -1, SQLITE_STATIC);
        sqlite3_bind_int(q, 2, first_ply + i);
        sqlite3_bind_text(q, 3, texts[i], -1, SQLITE_STATIC);
        s = step_done(st, q, err, "insert move");
    }
    return end_write(st, s, begun, id, version, err);
}

Status store_truncate(Store *st, const char *id, int keep, uint64_t version, ErrBuf *err)
{
    bool begun;
    Status s = begin_write(st, &begun, err);
    sqlite3_stmt *q;
    if (s == STATUS_OK &&
        (s = prepare(st, "DELETE FROM moves WHERE game_id=?1 AND ply>=?2", &q, err)) ==
            STATUS_OK) {
        sqlite3_bind_text(q, 1, id, -1, SQLITE_STATIC);
        sqlite3_bind_int(q, 2, keep);
        s = step_done(st, q, err, "delete moves");
    }
    return end_write(st, s, begun, id, version, err);
}

static char *dup_text(const unsigned char *t)
{
    const char *s = t ? (const char *)t : "";
    char *d = malloc(strlen(s) + 1);
    if (d)
        strcpy(d, s);
    return d;
}

void stored_game_free(StoredGame *g)
{
    free(g->rules);
    free(g->start);
    for (int i = 0; i < g->n_moves; i++)
        free(g->moves[i]);
    free(g->moves);
    g->rules = g->start = NULL;
    g->moves = NULL;
    g->n_moves = 0;
}

static Status load_locked(Store *st, const char *id, StoredGame *g, ErrBuf *err)
{
    sqlite3_stmt *q;
    Status s = prepare(st, "SELECT game, players, rules, start, seed, created, version "
                           "FROM games WHERE id=?1", &q, err);
    if (s != STATUS_OK)
        return s;
    sqlite3_bind_text(q, 1, id, -1, SQLITE_STATIC);
    const int rc = sqlite3_step(q);
    if (rc != SQLITE_ROW) {
        sqlite3_finalize(q);
        return rc == SQLITE_DONE ? err_set(err, STATUS_ILLEGAL, "no such game")
                                 : db_error(st, err, "read game");
    }
    snprintf(g->id, sizeof g->id, "%s", id);
    snprintf(g->game, sizeof g->game, "%s", (const char *)sqlite3_column_text(q, 0));
    g->players = sqlite3_column_int(q, 1);
    g->rules = dup_text(sqlite3_column_text(q, 2));
    g->start = dup_text(sqlite3_column_text(q, 3));
    g->seed = (uint64_t)sqlite3_column_int64(q, 4);
    g->created = sqlite3_column_int64(q, 5);
    g->version = (uint64_t)sqlite3_column_int64(q, 6);
    sqlite3_finalize(q);
    if (g->rules == NULL || g->start == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    if (g->players < 1 || g->players > MAX_PLAYERS)
        return err_set(err, STATUS_IO, "database: game %s has %d players", id, g->players);

    if ((s = prepare(st, "SELECT seat, player, token FROM seats WHERE game_id=?1", &q, err)) !=
        STATUS_OK)
        return s;
    sqlite3_bind_text(q, 1, id, -1, SQLITE_STATIC);
    int seen = 0;
    while (sqlite3_step(q) == SQLITE_ROW) {
        const int seat = sqlite3_column_int(q, 0);
        if (seat < 0 || seat >= g->players)
            continue;
        snprintf(g->player[seat], sizeof g->player[seat], "%s",
                 (const char *)sqlite3_column_text(q, 1));
        snprintf(g->token[seat], sizeof g->token[seat], "%s",
                 (const char *)sqlite3_column_text(q, 2));
        seen |= 1 << seat;
    }
    sqlite3_finalize(q);
    if (seen != (1 << g->players) - 1)
        return err_set(err, STATUS_IO, "database: game %s is missing seats", id);

    if ((s = prepare(st, "SELECT ply, text FROM moves WHERE game_id=?1 ORDER BY ply", &q,
                     err)) != STATUS_OK)
        return s;
    sqlite3_bind_text(q, 1, id, -1, SQLITE_STATIC);
    int cap = 0;
    while ((s == STATUS_OK) && sqlite3_step(q) == SQLITE_ROW) {
        if (sqlite3_column_int(q, 0) != g->n_moves) {
            s = err_set(err, STATUS_IO, "database: game %s has a gap in its moves", id);
            break;
        }
        if (g->n_moves == cap) {
            cap = cap ? 2 * cap : 64;
            char **p = realloc(g->moves, sizeof *p * (size_t)cap);
            if (p == NULL) {
                s = err_set(err, STATUS_NOMEM, "out of memory");
                break;
            }
            g->moves = p;
        }
        if ((g->moves[g->n_moves] = dup_text(sqlite3_column_text(q, 1))) == NULL) {
            s = err_set(err, STATUS_NOMEM, "out of memory");
            break;
        }
        g->n_moves++;
    }
    sqlite3_finalize(q);
    return s;
}

Status store_load(Store *st, const char *id, StoredGame *out, ErrBuf *err)
{
    StoredGame g;
    memset(&g, 0, sizeof g);
    pthread_mutex_lock(&st->mu);
    Status s = load_locked(st, id, &g, err);
    pthread_mutex_unlock(&st->mu);
    if (s != STATUS_OK) {
        stored_game_free(&g);
        return s;
    }
    *out = g;
    return STATUS_OK;
}

long store_count_games(Store *st)
{
    long n = -1;
    sqlite3_stmt *q;
    pthread_mutex_lock(&st->mu);
    if (sqlite3_prepare_v2(st->db, "SELECT COUNT(*) FROM games", -1, &q, NULL) == SQLITE_OK) {
        if (sqlite3_step(q) == SQLITE_ROW)
            n = (long)sqlite3_column_int64(q, 0);
        sqlite3_finalize(q);
    }
    pthread_mutex_unlock(&st->mu);
    return n;
}

Status store_list_stale(Store *st, int64_t before, bool over, char (*ids)[SECRET_ID_LEN + 1],
                        int cap, int *n, ErrBuf *err)
{
    *n = 0;
    sqlite3_stmt *q;
    pthread_mutex_lock(&st->mu);
    Status s = prepare(st, "SELECT g.id FROM games g LEFT JOIN activity a ON a.game_id = g.id "
                           "WHERE COALESCE(a.updated, g.created) < ?1 "
                           "AND COALESCE(a.over, 0) = ?2 LIMIT ?3", &q, err);
    if (s == STATUS_OK) {
        sqlite3_bind_int64(q, 1, (sqlite3_int64)before);
        sqlite3_bind_int(q, 2, over ? 1 : 0);
        sqlite3_bind_int(q, 3, cap);
        int rc;
        while (*n < cap && (rc = sqlite3_step(q)) == SQLITE_ROW) {
            const unsigned char *id = sqlite3_column_text(q, 0);
            snprintf(ids[*n], sizeof ids[0], "%s", id ? (const char *)id : "");
            (*n)++;
        }
        sqlite3_finalize(q);
    }
    pthread_mutex_unlock(&st->mu);
    return s;
}

Status store_mark_over(Store *st, const char *id, ErrBuf *err)
{
    bool begun;
    Status s = begin_write(st, &begun, err);
    sqlite3_stmt *q;
    if (s == STATUS_OK &&
        (s = prepare(st, "INSERT INTO activity(game_id, updated, over) "
                         "SELECT id, created, 1 FROM games WHERE id=?1 "
                         "ON CONFLICT(game_id) DO UPDATE SET over=1", &q, err)) == STATUS_OK) {
        sqlite3_bind_text(q, 1, id, -1, SQLITE_STATIC);
        s = step_done(st, q, err, "mark over");
    }
    return end_write(st, s, begun, NULL, 0, err);
}

Status store_delete_game(Store *st, const char *id, ErrBuf *err)
{
    static const char *const SQL[] = {
        "DELETE FROM moves WHERE game_id=?1", "DELETE FROM seats WHERE game_id=?1",
        "DELETE FROM activity WHERE game_id=?1", "DELETE FROM games WHERE id=?1"};
    bool begun;
    Status s = begin_write(st, &begun, err);
    for (size_t i = 0; i < sizeof SQL / sizeof SQL[0] && s == STATUS_OK; i++) {
        sqlite3_stmt *q;
        if ((s = prepare(st, SQL[i], &q, err)) != STATUS_OK)
            break;
        sqlite3_bind_text(q, 1, id, -1, SQLITE_STATIC);
        s = step_done(st, q, err, "delete game");
    }
    return end_write(st, s, begun, NULL, 0, err);
}
