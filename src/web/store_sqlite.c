/*
 * store_sqlite.c - the SQLite backend of the store (see store.h for the guarantees): one
 * file in WAL mode, synchronous=FULL, held exclusively by one process.
 *
 * Tables: games (one row per game: set-up, version, time of the last change, whether it
 * is known to be over), seats
 * (player spec and token per seat) and moves (one row per action, keyed by game and
 * ply). Statements are prepared per call: a move costs one fsync, which dwarfs the
 * preparing. Calls are serialised by the store's mutex.
 */
#include "web/store_backend.h"
#include "web/store_offer.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct SqliteStore {
    Store base; /* first: a Store * is a SqliteStore * */
    sqlite3 *db;
    pthread_mutex_t mu;
} SqliteStore;

/* The schema, one step per version. Step 1 is the schema of the databases made before
 * versions were kept, so that it changes nothing in them. */
static const char *const MIGRATIONS[] = {
    "CREATE TABLE IF NOT EXISTS games("
    " id TEXT PRIMARY KEY, game TEXT NOT NULL, players INTEGER NOT NULL,"
    " rules TEXT NOT NULL, start TEXT NOT NULL, seed INTEGER NOT NULL,"
    " created INTEGER NOT NULL, version INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS seats("
    " game_id TEXT NOT NULL REFERENCES games(id), seat INTEGER NOT NULL,"
    " player TEXT NOT NULL, token TEXT NOT NULL, PRIMARY KEY(game_id, seat));"
    "CREATE TABLE IF NOT EXISTS moves("
    " game_id TEXT NOT NULL REFERENCES games(id), ply INTEGER NOT NULL,"
    " text TEXT NOT NULL, PRIMARY KEY(game_id, ply)) WITHOUT ROWID;",
    // 2: when each game last changed, for retention of abandoned games.
    "ALTER TABLE games ADD COLUMN updated INTEGER NOT NULL DEFAULT 0;"
    "UPDATE games SET updated=created;",
    // 3: whether a game is known to be over, so that the retention of unfinished games
    // does not replay the finished ones again and again; the index serves its sweeps.
    ("ALTER TABLE games ADD COLUMN finished INTEGER NOT NULL DEFAULT 0;"
     "CREATE INDEX games_stale ON games(finished, updated);"),
    // 4: what a game is beyond its moves (a resignation, an agreed draw, a draw offer,
    // hints, rematch links), as one JSON object (web/meta.h).
    "ALTER TABLE games ADD COLUMN meta TEXT NOT NULL DEFAULT '{}';",
    // 5: PostgreSQL's per-address counts; one process counts in memory, so nothing here.
    "SELECT 1;",
    // 6: when a running clock runs out (ms since 1970, 0: none), so that a flag falls on
    // a game out of memory (store_claim_flags); indexed for the janitor's sweeps.
    ("ALTER TABLE games ADD COLUMN flag_at INTEGER NOT NULL DEFAULT 0;"
     "CREATE INDEX games_flag ON games(flag_at) WHERE flag_at>0;"),
    // 7: PostgreSQL's holds of live processes (streams, hints); nothing here, as in 5.
    "SELECT 1;",
    // 8: accounts (store_account.h): players, their sign-in sessions (by the hash of
    // the cookie's id), the seats they sit in, and a rating per game for the ratings
    // to fill. A deleted account keeps its row, nameless, for its games' seats.
    ("CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT, name_key TEXT UNIQUE,"
     " hash TEXT NOT NULL, created INTEGER NOT NULL, deleted INTEGER NOT NULL DEFAULT 0);"
     "CREATE TABLE user_sessions(hash TEXT PRIMARY KEY,"
     " user_id INTEGER NOT NULL REFERENCES users(id), created INTEGER NOT NULL);"
     "CREATE INDEX user_sessions_user ON user_sessions(user_id);"
     "CREATE TABLE ratings(user_id INTEGER NOT NULL REFERENCES users(id), game TEXT NOT NULL,"
     " rating REAL NOT NULL DEFAULT 1500, rd REAL NOT NULL DEFAULT 350,"
     " volatility REAL NOT NULL DEFAULT 0.06, games INTEGER NOT NULL DEFAULT 0,"
     " updated INTEGER NOT NULL DEFAULT 0, PRIMARY KEY(user_id, game));"
     "ALTER TABLE seats ADD COLUMN user_id INTEGER REFERENCES users(id);"
     "CREATE INDEX seats_user ON seats(user_id) WHERE user_id IS NOT NULL;"),
    // 9: passkeys (store_passkey.h): each account's credentials, their COSE public key
    // (base64url) and last sign count, and the challenges given out, each used once by
    // the session or browser it is bound to.
    ("CREATE TABLE passkeys(id TEXT PRIMARY KEY,"
     " user_id INTEGER NOT NULL REFERENCES users(id), cose TEXT NOT NULL,"
     " sign_count INTEGER NOT NULL, name TEXT NOT NULL, created INTEGER NOT NULL,"
     " last_used INTEGER NOT NULL DEFAULT 0);"
     "CREATE INDEX passkeys_user ON passkeys(user_id);"
     "CREATE TABLE passkey_challenges(challenge TEXT PRIMARY KEY, purpose TEXT NOT NULL,"
     " user_id INTEGER NOT NULL, bound TEXT NOT NULL, expires INTEGER NOT NULL);"
     "CREATE INDEX passkey_challenges_expires ON passkey_challenges(expires);"),
    // 10: offers of a game, seeks and challenges (store_offer.h).
    STORE_OFFER_SCHEMA,
    // 11: tournaments (store_tournament.h): their settings and state with a lease on the
    // row for the process pairing them, entrants in order of entry, boards by round.
    ("CREATE TABLE tournaments(id TEXT PRIMARY KEY, name TEXT NOT NULL, game TEXT NOT NULL,"
     " rules TEXT NOT NULL, clock TEXT NOT NULL, format TEXT NOT NULL,"
     " rounds INTEGER NOT NULL, max_players INTEGER NOT NULL, starts INTEGER NOT NULL,"
     " created INTEGER NOT NULL, state TEXT NOT NULL, round INTEGER NOT NULL,"
     " creator TEXT NOT NULL, creator_user INTEGER REFERENCES users(id),"
     " lease INTEGER NOT NULL);"
     "CREATE INDEX tournaments_state ON tournaments(state, starts);"
     "CREATE TABLE tournament_players(tournament_id TEXT NOT NULL REFERENCES tournaments(id),"
     " entry INTEGER NOT NULL, player TEXT NOT NULL, name TEXT NOT NULL, token TEXT NOT NULL,"
     " user_id INTEGER REFERENCES users(id), PRIMARY KEY(tournament_id, entry));"
     "CREATE TABLE tournament_games(tournament_id TEXT NOT NULL REFERENCES tournaments(id),"
     " round INTEGER NOT NULL, board INTEGER NOT NULL, white INTEGER NOT NULL,"
     " black INTEGER NOT NULL, game_id TEXT, result REAL,"
     " PRIMARY KEY(tournament_id, round, board));"
     // ... and puzzle ratings (store_puzzle.h): a signed-in player's per game, each
     // puzzle's own, and the puzzles each player was rated on (his first try only).
     "CREATE TABLE puzzle_ratings(user_id INTEGER NOT NULL REFERENCES users(id),"
     " game TEXT NOT NULL, rating REAL NOT NULL, rd REAL NOT NULL,"
     " volatility REAL NOT NULL, puzzles INTEGER NOT NULL, updated INTEGER NOT NULL,"
     " PRIMARY KEY(user_id, game));"
     "CREATE TABLE puzzle_stats(game TEXT NOT NULL, puzzle TEXT NOT NULL,"
     " rating REAL NOT NULL, rd REAL NOT NULL, volatility REAL NOT NULL,"
     " attempts INTEGER NOT NULL, PRIMARY KEY(game, puzzle));"
     "CREATE TABLE puzzle_attempts(user_id INTEGER NOT NULL REFERENCES users(id),"
     " game TEXT NOT NULL, puzzle TEXT NOT NULL, at INTEGER NOT NULL,"
     " PRIMARY KEY(user_id, game, puzzle));"),
    // 12: e-mail (store_mail.h): each account's address, verified or not, and the mails
    // it asked for; the tokens mails carry, by their hash, with an expiry; and the queue
    // of mails to send, leased by the sender, each sent mail's key kept (at most one
    // mail per game's turn) with its address and text dropped.
    ("CREATE TABLE user_emails(user_id INTEGER PRIMARY KEY REFERENCES users(id),"
     " address TEXT NOT NULL, verified INTEGER NOT NULL DEFAULT 0,"
     " moves INTEGER NOT NULL DEFAULT 0, challenges INTEGER NOT NULL DEFAULT 0,"
     " timeouts INTEGER NOT NULL DEFAULT 0);"
     "CREATE TABLE mail_tokens(hash TEXT PRIMARY KEY,"
     " user_id INTEGER NOT NULL REFERENCES users(id), kind TEXT NOT NULL,"
     " what TEXT NOT NULL DEFAULT '', expires INTEGER NOT NULL);"
     "CREATE INDEX mail_tokens_user ON mail_tokens(user_id);"
     "CREATE TABLE mail_queue(id INTEGER PRIMARY KEY, dedupe TEXT UNIQUE,"
     " user_id INTEGER REFERENCES users(id), address TEXT NOT NULL, subject TEXT NOT NULL,"
     " body TEXT NOT NULL, unsubscribe TEXT NOT NULL DEFAULT '', created INTEGER NOT NULL,"
     " next_try INTEGER NOT NULL, tries INTEGER NOT NULL DEFAULT 0,"
     " state INTEGER NOT NULL DEFAULT 0, lease_until INTEGER NOT NULL DEFAULT 0);"
     "CREATE INDEX mail_queue_due ON mail_queue(state, next_try);"),
    // 13: ratings' history (store_rating.h): a row per account and rated game, with the
    // rating after it, written once in the transaction that rates the game (its primary
    // key is the guard against rating a game twice); the leaderboard's index; failed
    // sign-ins, which only processes sharing PostgreSQL count here (store_account.h).
    ("CREATE TABLE rating_history(user_id INTEGER NOT NULL REFERENCES users(id),"
     " game_id TEXT NOT NULL, game TEXT NOT NULL, opponent_id INTEGER REFERENCES users(id),"
     " score REAL NOT NULL, rating_before REAL NOT NULL, rating REAL NOT NULL,"
     " rd REAL NOT NULL, volatility REAL NOT NULL, at INTEGER NOT NULL, games INTEGER NOT NULL,"
     " PRIMARY KEY(user_id, game_id));"
     "CREATE INDEX rating_history_game ON rating_history(game_id);"
     "CREATE INDEX rating_history_user ON rating_history(user_id, games);"
     "CREATE INDEX ratings_game ON ratings(game, rating);"
     "CREATE TABLE login_failures(key TEXT PRIMARY KEY, fails INTEGER NOT NULL,"
     " last_ms INTEGER NOT NULL, until_ms INTEGER NOT NULL);"
     "CREATE INDEX login_failures_last ON login_failures(last_ms);"),
    // 14: a tournament's version, moved on by every change of it (store_tournament.h),
    // that its event streams send and resume from; and what each address created in the
    // last hour (store_count_create), kept across restarts as PostgreSQL keeps it.
    ("ALTER TABLE tournaments ADD COLUMN version INTEGER NOT NULL DEFAULT 0;"
     "CREATE TABLE address_creates(addr TEXT NOT NULL, at INTEGER NOT NULL);"
     "CREATE INDEX address_creates_addr ON address_creates(addr, at);"),
    // 15: the language an account's mails are written in (store_mail.h): its page's
    // language when it last signed in or chose one, "" until then (English).
    "ALTER TABLE users ADD COLUMN lang TEXT NOT NULL DEFAULT '';",
};
_Static_assert(sizeof MIGRATIONS / sizeof MIGRATIONS[0] == STORE_SCHEMA_VERSION,
               "one migration per schema version");

static SqliteStore *sq(Store *st)
{
    return (SqliteStore *)st;
}

static Status db_error(SqliteStore *st, ErrBuf *err, const char *what)
{
    return err_set(err, STATUS_IO, "database: %s: %s", what, sqlite3_errmsg(st->db));
}

static Status exec_db(sqlite3 *db, const char *sql, ErrBuf *err)
{
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        if (err)
            err_set(err, STATUS_IO, "database: %s", msg ? msg : sqlite3_errmsg(db));
        sqlite3_free(msg);
        return STATUS_IO;
    }
    return STATUS_OK;
}

static Status exec(SqliteStore *st, const char *sql, ErrBuf *err)
{
    return exec_db(st->db, sql, err);
}

static Status migrate_exec(void *db, const char *sql, ErrBuf *err)
{
    return exec_db(db, sql, err);
}

static Status migrate_query(void *db, const char *sql, long *out, ErrBuf *err)
{
    sqlite3_stmt *q = NULL;
    Status s = STATUS_OK;
    if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK || sqlite3_step(q) != SQLITE_ROW)
        s = err_set(err, STATUS_IO, "database: %s", sqlite3_errmsg(db));
    else
        *out = (long)sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
    return s;
}

static const StoreOps SQLITE_OPS;

Status store_sqlite_open(const char *path, Store **out, ErrBuf *err)
{
    *out = NULL;
    SqliteStore *st = calloc(1, sizeof *st);
    if (st == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    st->base.ops = &SQLITE_OPS;
    pthread_mutex_init(&st->mu, NULL);
    Status s = STATUS_OK;
    if (sqlite3_open_v2(path, &st->db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                        NULL) != SQLITE_OK) {
        s = err_set(err, STATUS_IO, "cannot open database '%s': %s", path,
                    st->db ? sqlite3_errmsg(st->db) : "out of memory");
        store_close(&st->base);
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
        s = store_migrate(st->db, migrate_exec, migrate_query, MIGRATIONS,
                          STORE_SCHEMA_VERSION, err);
        if (s == STATUS_OK)
            s = exec(st, "COMMIT", err);
        if (s != STATUS_OK)
            exec(st, "ROLLBACK", NULL);
    }
    if (s != STATUS_OK) {
        if (strstr(err->msg, "locked") != NULL)
            err_set(err, STATUS_IO, "database '%s' is in use by another crown serve", path);
        store_close(&st->base);
        return s;
    }
    *out = &st->base;
    return STATUS_OK;
}

static void sqlite_close(Store *base)
{
    SqliteStore *st = sq(base);
    if (st->db)
        sqlite3_close(st->db);
    pthread_mutex_destroy(&st->mu);
    free(st);
}

/* Prepares sql or reports why not. */
static Status prepare(SqliteStore *st, const char *sql, sqlite3_stmt **q, ErrBuf *err)
{
    if (sqlite3_prepare_v2(st->db, sql, -1, q, NULL) != SQLITE_OK) {
        *q = NULL;
        return db_error(st, err, "prepare");
    }
    return STATUS_OK;
}

static Status step_done(SqliteStore *st, sqlite3_stmt *q, ErrBuf *err, const char *what)
{
    const int rc = sqlite3_step(q);
    sqlite3_finalize(q);
    return rc == SQLITE_DONE ? STATUS_OK : db_error(st, err, what);
}

/* Moves the game from stamp->expect to stamp->version, or refuses: the first statement
 * of every write to a game, so that a stale writer changes nothing. */
static Status set_version(SqliteStore *st, const char *id, const StoreStamp *stamp,
                          ErrBuf *err)
{
    sqlite3_stmt *q;
    Status s = prepare(st, "UPDATE games SET version=?1, updated=?2, finished=0 "
                           "WHERE id=?3 AND version=?4",
                       &q, err);
    if (s != STATUS_OK)
        return s;
    sqlite3_bind_int64(q, 1, (sqlite3_int64)stamp->version);
    sqlite3_bind_int64(q, 2, (sqlite3_int64)time(NULL));
    sqlite3_bind_text(q, 3, id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 4, (sqlite3_int64)stamp->expect);
    if ((s = step_done(st, q, err, "update version")) == STATUS_OK && sqlite3_changes(st->db) != 1)
        s = err_set(err, STATUS_CONFLICT, "game %s changed since version %llu", id,
                    (unsigned long long)stamp->expect);
    return s;
}

/* Ends the transaction begun by the caller: COMMIT when s is OK, else ROLLBACK. A failed
 * COMMIT is an error too, since then nothing is durable. */
static Status finish(SqliteStore *st, Status s, ErrBuf *err)
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
static Status begin_write(SqliteStore *st, bool *begun, ErrBuf *err)
{
    pthread_mutex_lock(&st->mu);
    Status s = exec(st, "BEGIN IMMEDIATE", err);
    *begun = s == STATUS_OK;
    return s;
}

/* begin_write for a change of game `id`, version check first. */
static Status begin_game_write(SqliteStore *st, const char *id, const StoreStamp *stamp,
                               bool *begun, ErrBuf *err)
{
    Status s = begin_write(st, begun, err);
    return s == STATUS_OK ? set_version(st, id, stamp, err) : s;
}

/* Closes what begin_write opened. */
static Status end_write(SqliteStore *st, Status s, bool begun, ErrBuf *err)
{
    if (begun)
        s = finish(st, s, err);
    pthread_mutex_unlock(&st->mu);
    return s;
}

static Status sqlite_insert_game(Store *base, const StoredGame *g, bool ai_next, ErrBuf *err)
{
    (void)ai_next; // one process: the AI move is this process's anyway
    SqliteStore *st = sq(base);
    bool begun;
    Status s = begin_write(st, &begun, err);
    sqlite3_stmt *q;
    if (s == STATUS_OK &&
        (s = prepare(st, "INSERT INTO games(id, game, players, rules, start, seed, created, "
                         "version, updated, meta) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?7, ?9)",
                     &q,
                     err)) ==
            STATUS_OK) {
        sqlite3_bind_text(q, 1, g->id, -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 2, g->game, -1, SQLITE_STATIC);
        sqlite3_bind_int(q, 3, g->players);
        sqlite3_bind_text(q, 4, g->rules, -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 5, g->start, -1, SQLITE_STATIC);
        sqlite3_bind_int64(q, 6, (sqlite3_int64)g->seed);
        sqlite3_bind_int64(q, 7, (sqlite3_int64)g->created);
        sqlite3_bind_int64(q, 8, (sqlite3_int64)g->version);
        sqlite3_bind_text(q, 9, g->meta ? g->meta : "{}", -1, SQLITE_STATIC);
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
    for (int i = 0; i < g->n_moves && s == STATUS_OK; i++) {
        if ((s = prepare(st, "INSERT INTO moves(game_id, ply, text) VALUES(?1, ?2, ?3)", &q,
                         err)) != STATUS_OK)
            break;
        sqlite3_bind_text(q, 1, g->id, -1, SQLITE_STATIC);
        sqlite3_bind_int(q, 2, i);
        sqlite3_bind_text(q, 3, g->moves[i], -1, SQLITE_STATIC);
        s = step_done(st, q, err, "insert move");
    }
    return end_write(st, s, begun, err);
}

static Status run_one(SqliteStore *st, const StoreStmt *m, StoreRows *rows, ErrBuf *err);

/* The meta that goes with a write to the moves (StoreStamp.meta), when there is one, and
 * the rows that go with it (StoreStamp.also). */
static Status stamp_meta(SqliteStore *st, const char *id, const StoreStamp *stamp,
                         ErrBuf *err)
{
    sqlite3_stmt *q;
    Status s = STATUS_OK;
    if (stamp->meta != NULL &&
        (s = prepare(st, "UPDATE games SET meta=?2, flag_at=?3 WHERE id=?1", &q, err)) ==
            STATUS_OK) {
        sqlite3_bind_text(q, 1, id, -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 2, stamp->meta, -1, SQLITE_STATIC);
        sqlite3_bind_int64(q, 3, (sqlite3_int64)stamp->flag_at);
        s = step_done(st, q, err, "update meta");
    }
    for (int i = 0; i < stamp->n_also && s == STATUS_OK; i++) {
        StoreRows rows = {0, 0, NULL};
        s = run_one(st, &stamp->also[i], &rows, err);
        store_rows_free(&rows);
        if (s == STATUS_NOT_FOUND)
            s = STATUS_CONFLICT;
    }
    return s;
}

static Status sqlite_append(Store *base, const char *id, int first_ply,
                            const char *const *texts, int n, const StoreStamp *stamp,
                            ErrBuf *err)
{
    SqliteStore *st = sq(base);
    bool begun;
    Status s = begin_game_write(st, id, stamp, &begun, err);
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
    if (s == STATUS_OK)
        s = stamp_meta(st, id, stamp, err);
    return end_write(st, s, begun, err);
}

static Status sqlite_truncate(Store *base, const char *id, int keep, const StoreStamp *stamp,
                              ErrBuf *err)
{
    SqliteStore *st = sq(base);
    bool begun;
    Status s = begin_game_write(st, id, stamp, &begun, err);
    sqlite3_stmt *q;
    if (s == STATUS_OK &&
        (s = prepare(st, "DELETE FROM moves WHERE game_id=?1 AND ply>=?2", &q, err)) ==
            STATUS_OK) {
        sqlite3_bind_text(q, 1, id, -1, SQLITE_STATIC);
        sqlite3_bind_int(q, 2, keep);
        s = step_done(st, q, err, "delete moves");
    }
    if (s == STATUS_OK)
        s = stamp_meta(st, id, stamp, err);
    return end_write(st, s, begun, err);
}

static Status sqlite_set_meta(Store *base, const char *id, const char *meta,
                              const StoreStamp *stamp, ErrBuf *err)
{
    SqliteStore *st = sq(base);
    bool begun;
    Status s = begin_game_write(st, id, stamp, &begun, err);
    StoreStamp with = *stamp;
    with.meta = meta;
    if (s == STATUS_OK)
        s = stamp_meta(st, id, &with, err);
    return end_write(st, s, begun, err);
}

static char *dup_text(const unsigned char *t)
{
    const char *s = t ? (const char *)t : "";
    char *d = malloc(strlen(s) + 1);
    if (d)
        strcpy(d, s);
    return d;
}

static Status load_locked(SqliteStore *st, const char *id, StoredGame *g, ErrBuf *err)
{
    sqlite3_stmt *q;
    Status s = prepare(st, "SELECT game, players, rules, start, seed, created, version, meta "
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
    g->meta = dup_text(sqlite3_column_text(q, 7));
    sqlite3_finalize(q);
    if (g->rules == NULL || g->start == NULL || g->meta == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");

    if ((s = prepare(st, "SELECT seat, player, token FROM seats WHERE game_id=?1", &q, err)) !=
        STATUS_OK)
        return s;
    sqlite3_bind_text(q, 1, id, -1, SQLITE_STATIC);
    while (sqlite3_step(q) == SQLITE_ROW) {
        const int seat = sqlite3_column_int(q, 0);
        if (seat < 0 || seat >= MAX_PLAYERS)
            continue; // no such seat: store_load checks that every seat is there
        snprintf(g->player[seat], sizeof g->player[seat], "%s",
                 (const char *)sqlite3_column_text(q, 1));
        snprintf(g->token[seat], sizeof g->token[seat], "%s",
                 (const char *)sqlite3_column_text(q, 2));
    }
    sqlite3_finalize(q);

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

static Status sqlite_load(Store *base, const char *id, StoredGame *g, ErrBuf *err)
{
    SqliteStore *st = sq(base);
    pthread_mutex_lock(&st->mu);
    Status s = load_locked(st, id, g, err);
    pthread_mutex_unlock(&st->mu);
    return s;
}

static Status sqlite_version(Store *base, const char *id, uint64_t *out, ErrBuf *err)
{
    SqliteStore *st = sq(base);
    sqlite3_stmt *q;
    pthread_mutex_lock(&st->mu);
    Status s = prepare(st, "SELECT version FROM games WHERE id=?1", &q, err);
    if (s == STATUS_OK) {
        sqlite3_bind_text(q, 1, id, -1, SQLITE_STATIC);
        const int rc = sqlite3_step(q);
        if (rc == SQLITE_ROW)
            *out = (uint64_t)sqlite3_column_int64(q, 0);
        else
            s = rc == SQLITE_DONE ? err_set(err, STATUS_ILLEGAL, "no such game")
                                  : db_error(st, err, "read version");
        sqlite3_finalize(q);
    }
    pthread_mutex_unlock(&st->mu);
    return s;
}

static long sqlite_count_games(Store *base)
{
    SqliteStore *st = sq(base);
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

/* --- retention --------------------------------------------------------------------------- */

/* Reads the ids a query's rows start with, up to cap, and finalizes it. */
static void collect_ids(sqlite3_stmt *q, char (*ids)[SECRET_ID_LEN + 1], int cap, int *n)
{
    while (*n < cap && sqlite3_step(q) == SQLITE_ROW) {
        const unsigned char *id = sqlite3_column_text(q, 0);
        snprintf(ids[*n], sizeof ids[0], "%s", id ? (const char *)id : "");
        (*n)++;
    }
    sqlite3_finalize(q);
}

static Status sqlite_list_stale(Store *base, int64_t before, bool over,
                                char (*ids)[SECRET_ID_LEN + 1], int cap, int *n, ErrBuf *err)
{
    SqliteStore *st = sq(base);
    sqlite3_stmt *q;
    pthread_mutex_lock(&st->mu);
    Status s = prepare(st, "SELECT id FROM games WHERE finished=?1 AND updated<?2 LIMIT ?3", &q,
                       err);
    if (s == STATUS_OK) {
        sqlite3_bind_int(q, 1, over ? 1 : 0);
        sqlite3_bind_int64(q, 2, (sqlite3_int64)before);
        sqlite3_bind_int(q, 3, cap);
        collect_ids(q, ids, cap, n);
    }
    pthread_mutex_unlock(&st->mu);
    return s;
}

static Status sqlite_claim_flags(Store *base, int64_t now_ms, int64_t lease_ms,
                                char (*ids)[SECRET_ID_LEN + 1], int cap, int *n, ErrBuf *err)
{
    SqliteStore *st = sq(base);
    sqlite3_stmt *q;
    pthread_mutex_lock(&st->mu);
    // One process holds the file: the claim only keeps a game it fails to end from
    // coming back at every sweep.
    Status s = prepare(st, "UPDATE games SET flag_at=?2 WHERE id IN (SELECT id FROM games "
                           "WHERE flag_at>0 AND flag_at<=?1 ORDER BY flag_at LIMIT ?3) "
                           "RETURNING id", &q, err);
    if (s == STATUS_OK) {
        sqlite3_bind_int64(q, 1, (sqlite3_int64)now_ms);
        sqlite3_bind_int64(q, 2, (sqlite3_int64)(now_ms + lease_ms));
        sqlite3_bind_int(q, 3, cap);
        int rc;
        while ((rc = sqlite3_step(q)) == SQLITE_ROW)
            if (*n < cap) {
                const unsigned char *id = sqlite3_column_text(q, 0);
                snprintf(ids[*n], sizeof ids[0], "%s", id ? (const char *)id : "");
                (*n)++;
            }
        if (rc != SQLITE_DONE)
            s = db_error(st, err, "claim flags");
        sqlite3_finalize(q);
    }
    pthread_mutex_unlock(&st->mu);
    return s;
}

static Status sqlite_list_open(Store *base, char (*ids)[SECRET_ID_LEN + 1], int cap, int *n,
                               ErrBuf *err)
{
    SqliteStore *st = sq(base);
    sqlite3_stmt *q;
    pthread_mutex_lock(&st->mu);
    // meta_format writes "open" only while a seat waits (web/meta.c).
    Status s = prepare(st, "SELECT id FROM games WHERE finished=0 AND meta LIKE '%\"open\":%' "
                           "ORDER BY created DESC LIMIT ?1", &q, err);
    if (s == STATUS_OK) {
        sqlite3_bind_int(q, 1, cap);
        collect_ids(q, ids, cap, n);
    }
    pthread_mutex_unlock(&st->mu);
    return s;
}

/* Runs one statement on game `id` with a number, in a write transaction; STATUS_CONFLICT
 * (with `why`) when it changed no row. */
static Status write_one(SqliteStore *st, const char *sql, const char *id, int64_t num,
                        const char *why, ErrBuf *err)
{
    sqlite3_stmt *q;
    Status s = prepare(st, sql, &q, err);
    if (s != STATUS_OK)
        return s;
    sqlite3_bind_text(q, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 2, (sqlite3_int64)num);
    if ((s = step_done(st, q, err, "retention")) == STATUS_OK && sqlite3_changes(st->db) == 0)
        s = err_set(err, STATUS_CONFLICT, "game %s %s", id, why);
    return s;
}

static Status sqlite_mark_over(Store *base, const char *id, uint64_t version, ErrBuf *err)
{
    SqliteStore *st = sq(base);
    bool begun;
    Status s = begin_write(st, &begun, err);
    if (s == STATUS_OK)
        s = write_one(st, "UPDATE games SET finished=1 WHERE id=?1 AND version=?2", id,
                      (int64_t)version, "changed since it was found over", err);
    return end_write(st, s, begun, err);
}

static Status sqlite_delete_game(Store *base, const char *id, int64_t before, ErrBuf *err)
{
    SqliteStore *st = sq(base);
    bool begun;
    Status s = begin_write(st, &begun, err);
    // The check first: a game that changed since it was listed stays, rows and all.
    if (s == STATUS_OK)
        s = write_one(st, "UPDATE games SET updated=updated WHERE id=?1 AND updated<?2", id,
                      before, "changed since it was found stale", err);
    static const char *const SQL[] = {"DELETE FROM moves WHERE game_id=?1",
                                      "DELETE FROM seats WHERE game_id=?1",
                                      "DELETE FROM games WHERE id=?1"};
    for (size_t i = 0; i < sizeof SQL / sizeof SQL[0] && s == STATUS_OK; i++) {
        sqlite3_stmt *q;
        if ((s = prepare(st, SQL[i], &q, err)) != STATUS_OK)
            break;
        sqlite3_bind_text(q, 1, id, -1, SQLITE_STATIC);
        s = step_done(st, q, err, "delete game");
    }
    return end_write(st, s, begun, err);
}

/* --- plain rows (store_run) ---------------------------------------------------------- */

/* Binds StoreStmt's text parameters by their names, $1, $2, ...: SQLite reads "$1" as a
 * named parameter, so the same SQL serves PostgreSQL. */
static void bind_named(sqlite3_stmt *q, const StoreStmt *m)
{
    for (int k = 0; k < m->n; k++) {
        char name[16];
        snprintf(name, sizeof name, "$%d", k + 1);
        const int at = sqlite3_bind_parameter_index(q, name);
        if (at > 0 && m->params[k] != NULL)
            sqlite3_bind_text(q, at, m->params[k], -1, SQLITE_STATIC);
    }
}

/* One statement of sqlite_run: its rows into *rows, or how many it changed. */
static Status run_one(SqliteStore *st, const StoreStmt *m, StoreRows *rows, ErrBuf *err)
{
    sqlite3_stmt *q;
    Status s = prepare(st, m->sql, &q, err);
    if (s != STATUS_OK)
        return s;
    bind_named(q, m);
    rows->cols = sqlite3_column_count(q);
    const char *values[STORE_ROW_CAP];
    if (rows->cols > (int)(sizeof values / sizeof values[0]))
        rows->cols = (int)(sizeof values / sizeof values[0]);
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW && s == STATUS_OK) {
        for (int c = 0; c < rows->cols; c++)
            values[c] = (const char *)sqlite3_column_text(q, c);
        s = store_rows_push(rows, values, err);
    }
    if (s == STATUS_OK && rc != SQLITE_DONE)
        s = db_error(st, err, "run");
    sqlite3_finalize(q);
    const bool none = rows->cols > 0 ? rows->rows == 0 : sqlite3_changes(st->db) == 0;
    if (s == STATUS_OK && none && m->none != NULL)
        s = err_set(err, STATUS_NOT_FOUND, "%s", m->none);
    return s;
}

static Status sqlite_run(Store *base, const StoreStmt *stmts, int n, StoreRows *out,
                         ErrBuf *err)
{
    SqliteStore *st = sq(base);
    bool begun;
    Status s = begin_write(st, &begun, err);
    for (int i = 0; i < n && s == STATUS_OK; i++) {
        StoreRows rows = {0, 0, NULL};
        s = run_one(st, &stmts[i], &rows, err);
        if (s == STATUS_OK && out != NULL && i == n - 1)
            *out = rows;
        else
            store_rows_free(&rows);
    }
    return end_write(st, s, begun, err);
}

static const StoreOps SQLITE_OPS = {
    .close = sqlite_close,
    .run = sqlite_run,
    .insert_game = sqlite_insert_game,
    .append = sqlite_append,
    .truncate = sqlite_truncate,
    .set_meta = sqlite_set_meta,
    .load = sqlite_load,
    .version = sqlite_version,
    .count_games = sqlite_count_games,
    .list_stale = sqlite_list_stale,
    .list_open = sqlite_list_open,
    .mark_over = sqlite_mark_over,
    .claim_flags = sqlite_claim_flags,
    .delete_game = sqlite_delete_game,
};
