/*
 * store_backend.h - what a store backend provides behind store.h: SQLite for one process
 * (store_sqlite.c), PostgreSQL for several (store_pg.c). store.c picks one by the --db
 * text and runs the schema migrations through the backend's exec; only the store's own
 * files (store.c, the backends, store_account.c) include this.
 */
#ifndef CROWN_WEB_STORE_BACKEND_H
#define CROWN_WEB_STORE_BACKEND_H

#include "web/store.h"

/* One statement of store_run, in SQL both backends read: parameters $1, $2, ... in
 * order of first use, each a text (NULL: SQL NULL) that the database converts to its
 * column's type. */
struct StoreStmt {
    const char *sql;
    int n;
    const char *const *params;
    /* When the statement returns no row (one that returns none: changes no row), the
     * call fails with STATUS_NOT_FOUND and this message; NULL when that is fine. */
    const char *none;
};

/* The most columns a row of store_run brings back (the rest are cut). */
enum { STORE_ROW_CAP = 24 };

/* The rows a statement returned, every value as text (NULL for SQL NULL). */
typedef struct StoreRows {
    int rows, cols;
    char **cell; /* rows * cols, row by row; owned */
} StoreRows;

typedef struct StoreOps {
    void (*close)(Store *st);
    /* Runs stmts in order in one write transaction (committed durably, or rolled back
     * whole on the first failure); *out (when not NULL) gets the last one's rows. */
    Status (*run)(Store *st, const StoreStmt *stmts, int n, StoreRows *out, ErrBuf *err);
    Status (*insert_game)(Store *st, const StoredGame *g, bool ai_next, ErrBuf *err);
    Status (*append)(Store *st, const char *id, int first_ply, const char *const *texts,
                     int n, const StoreStamp *stamp, ErrBuf *err);
    Status (*truncate)(Store *st, const char *id, int keep, const StoreStamp *stamp,
                       ErrBuf *err);
    Status (*set_meta)(Store *st, const char *id, const char *meta, const StoreStamp *stamp,
                       ErrBuf *err);
    /* Reads into *g (zeroed by the caller; freed by it on failure). */
    Status (*load)(Store *st, const char *id, StoredGame *g, ErrBuf *err);
    Status (*version)(Store *st, const char *id, uint64_t *out, ErrBuf *err);
    long (*count_games)(Store *st);
    Status (*list_stale)(Store *st, int64_t before, bool over, char (*ids)[SECRET_ID_LEN + 1],
                         int cap, int *n, ErrBuf *err);
    Status (*list_open)(Store *st, char (*ids)[SECRET_ID_LEN + 1], int cap, int *n,
                        ErrBuf *err);
    Status (*mark_over)(Store *st, const char *id, uint64_t version, ErrBuf *err);
    Status (*claim_flags)(Store *st, int64_t now_ms, int64_t lease_ms,
                          char (*ids)[SECRET_ID_LEN + 1], int cap, int *n, ErrBuf *err);
    Status (*delete_game)(Store *st, const char *id, int64_t before, ErrBuf *err);
    /* NULL for a store only one process uses: every claim is this process's. */
    Status (*ai_claim)(Store *st, const char *id, bool *mine, ErrBuf *err);
    /* NULL for a store only one process uses: it counts nothing. */
    Status (*count_create)(Store *st, const char *addr, int per_hour, bool *ok, int *retry_s,
                           ErrBuf *err);
    Status (*hold_take)(Store *st, const char *addr, const char *id, int kind, int limit,
                        int idle_s, bool *ok, ErrBuf *err);
    Status (*hold_give)(Store *st, const char *id, ErrBuf *err);
    Status (*live_take)(Store *st, const char *addr, const char *game, int kind,
                        int addr_limit, int game_limit, int dead_s, int64_t *hold,
                        StoreRefusal *refused, ErrBuf *err);
    Status (*live_give)(Store *st, int64_t hold, ErrBuf *err);
    Status (*live_beat)(Store *st, int dead_s, ErrBuf *err);
    /* NULL for a store only one process uses: tells the others of a tournament's change. */
    Status (*tour_notify)(Store *st, const char *id, uint64_t version, ErrBuf *err);
    /* NULL when there is nothing to watch. */
    Status (*watch)(Store *st, const StoreWatch *w, ErrBuf *err);
    void (*unwatch)(Store *st);
} StoreOps;

/* The head of every backend's own struct. */
struct Store {
    const StoreOps *ops;
    bool shared;
};

/* The store's generic transaction (StoreOps.run), for what is plain rows rather than a
 * game: accounts and their sessions (store_account.c). */
Status store_run(Store *st, const StoreStmt *stmts, int n, StoreRows *out, ErrBuf *err);
/* Appends a row of out->cols values (NULL: SQL NULL), copied; for the backends. */
Status store_rows_push(StoreRows *out, const char *const *values, ErrBuf *err);
/* Row r's column c, NULL when NULL or out of range. */
const char *store_cell(const StoreRows *rows, int r, int c);
void store_rows_free(StoreRows *rows);
/* A whole number as a statement's parameter text. */
void store_num(char *buf, size_t cap, int64_t v);
/* A real number as a statement's parameter text, to the last digit. */
void store_real(char *buf, size_t cap, double v);

Status store_sqlite_open(const char *path, Store **out, ErrBuf *err);
Status store_pg_open(const char *url, Store **out, ErrBuf *err);

/* One schema change: its SQL, or a function for what SQL alone cannot do. */
typedef Status (*StoreExec)(void *db, const char *sql, ErrBuf *err);
typedef Status (*StoreQueryLong)(void *db, const char *sql, long *out, ErrBuf *err);

/* Brings a database to steps[n - 1]'s version: creates schema_version when missing, reads
 * the version (0 for a database made before versions were kept, whose step 1 is then
 * written with IF NOT EXISTS), runs the steps after it and records the new version. The
 * caller holds the transaction and whatever lock keeps two processes from migrating at
 * once; a database newer than this build is refused. */
Status store_migrate(void *db, StoreExec exec, StoreQueryLong query, const char *const *steps,
                     int n, ErrBuf *err);

#endif
