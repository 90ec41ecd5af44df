/*
 * store_pg_schema.c - PostgreSQL's schema, one step per version: what store_open runs
 * (store_migrate) to bring a database from the version it has to STORE_SCHEMA_VERSION.
 * Kept apart from the store's statements so that each file holds one concern.
 */
#include "web/store_pg_internal.h"
#include "web/store_offer.h"

/* The schema, one step per version (the same versions as SQLite's; ai_work only here,
 * where several processes share the games). */
const char *const PG_MIGRATIONS[] = {
    "CREATE TABLE IF NOT EXISTS games("
    " id TEXT PRIMARY KEY, game TEXT NOT NULL, players INTEGER NOT NULL,"
    " rules TEXT NOT NULL, start TEXT NOT NULL, seed BIGINT NOT NULL,"
    " created BIGINT NOT NULL, version BIGINT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS seats("
    " game_id TEXT NOT NULL REFERENCES games(id), seat INTEGER NOT NULL,"
    " player TEXT NOT NULL, token TEXT NOT NULL, PRIMARY KEY(game_id, seat));"
    "CREATE TABLE IF NOT EXISTS moves("
    " game_id TEXT NOT NULL REFERENCES games(id), ply INTEGER NOT NULL,"
    " text TEXT NOT NULL, PRIMARY KEY(game_id, ply));",
    "ALTER TABLE games ADD COLUMN updated BIGINT NOT NULL DEFAULT 0;"
    "UPDATE games SET updated=created;"
    "CREATE TABLE ai_work("
    " game_id TEXT PRIMARY KEY REFERENCES games(id), version BIGINT NOT NULL,"
    " owner TEXT NOT NULL, lease_until TIMESTAMPTZ NOT NULL);"
    "CREATE INDEX ai_work_lease ON ai_work(lease_until);"
    "CREATE INDEX ai_work_owner ON ai_work(owner);",
    // 3: whether a game is known to be over (the retention's sweeps), indexed for them.
    ("ALTER TABLE games ADD COLUMN finished INTEGER NOT NULL DEFAULT 0;"
     "CREATE INDEX games_stale ON games(finished, updated);"),
    // 4: what a game is beyond its moves, as one JSON object (web/meta.h).
    "ALTER TABLE games ADD COLUMN meta TEXT NOT NULL DEFAULT '{}';",
    // 5: per-address limits across processes: games created (the last hour's), and the
    // holds of games with an AI (see pg_hold_take).
    ("CREATE TABLE address_creates(addr TEXT NOT NULL, at BIGINT NOT NULL);"
     "CREATE INDEX address_creates_addr ON address_creates(addr, at);"
     "CREATE TABLE address_holds(game_id TEXT PRIMARY KEY, addr TEXT NOT NULL,"
     " kind INTEGER NOT NULL, at BIGINT NOT NULL);"
     "CREATE INDEX address_holds_addr ON address_holds(addr, kind);"),
    // 6: when a running clock runs out (ms since 1970, 0: none), for the flags of games
    // no process holds (pg_claim_flags).
    ("ALTER TABLE games ADD COLUMN flag_at BIGINT NOT NULL DEFAULT 0;"
     "CREATE INDEX games_flag ON games(flag_at) WHERE flag_at>0;"),
    // 7: the processes sharing the database and their last beat, and the holds that live
    // with a process (open event streams, hints waiting; see pg_live_take).
    ("CREATE TABLE processes(owner TEXT PRIMARY KEY, beat TIMESTAMPTZ NOT NULL);"
     "CREATE TABLE live_holds(owner TEXT NOT NULL, id BIGINT NOT NULL, addr TEXT NOT NULL,"
     " game_id TEXT, kind INTEGER NOT NULL, PRIMARY KEY(owner, id));"
     "CREATE INDEX live_holds_addr ON live_holds(addr, kind);"
     "CREATE INDEX live_holds_game ON live_holds(game_id, kind) WHERE game_id IS NOT NULL;"),
    // 8: accounts, as in SQLite's step 8.
    ("CREATE TABLE users(id BIGSERIAL PRIMARY KEY, name TEXT, name_key TEXT UNIQUE,"
     " hash TEXT NOT NULL, created BIGINT NOT NULL, deleted INTEGER NOT NULL DEFAULT 0);"
     "CREATE TABLE user_sessions(hash TEXT PRIMARY KEY,"
     " user_id BIGINT NOT NULL REFERENCES users(id), created BIGINT NOT NULL);"
     "CREATE INDEX user_sessions_user ON user_sessions(user_id);"
     "CREATE TABLE ratings(user_id BIGINT NOT NULL REFERENCES users(id), game TEXT NOT NULL,"
     " rating DOUBLE PRECISION NOT NULL DEFAULT 1500, rd DOUBLE PRECISION NOT NULL DEFAULT 350,"
     " volatility DOUBLE PRECISION NOT NULL DEFAULT 0.06, games INTEGER NOT NULL DEFAULT 0,"
     " updated BIGINT NOT NULL DEFAULT 0, PRIMARY KEY(user_id, game));"
     "ALTER TABLE seats ADD COLUMN user_id BIGINT REFERENCES users(id);"
     "CREATE INDEX seats_user ON seats(user_id) WHERE user_id IS NOT NULL;"),
    // 9: passkeys and their challenges, as in SQLite's step 9.
    ("CREATE TABLE passkeys(id TEXT PRIMARY KEY,"
     " user_id BIGINT NOT NULL REFERENCES users(id), cose TEXT NOT NULL,"
     " sign_count BIGINT NOT NULL, name TEXT NOT NULL, created BIGINT NOT NULL,"
     " last_used BIGINT NOT NULL DEFAULT 0);"
     "CREATE INDEX passkeys_user ON passkeys(user_id);"
     "CREATE TABLE passkey_challenges(challenge TEXT PRIMARY KEY, purpose TEXT NOT NULL,"
     " user_id BIGINT NOT NULL, bound TEXT NOT NULL, expires BIGINT NOT NULL);"
     "CREATE INDEX passkey_challenges_expires ON passkey_challenges(expires);"),
    // 10: offers of a game, seeks and challenges (store_offer.h).
    STORE_OFFER_SCHEMA,
    // 11: tournaments, as in SQLite's step 11.
    ("CREATE TABLE tournaments(id TEXT PRIMARY KEY, name TEXT NOT NULL, game TEXT NOT NULL,"
     " rules TEXT NOT NULL, clock TEXT NOT NULL, format TEXT NOT NULL,"
     " rounds INTEGER NOT NULL, max_players INTEGER NOT NULL, starts BIGINT NOT NULL,"
     " created BIGINT NOT NULL, state TEXT NOT NULL, round INTEGER NOT NULL,"
     " creator TEXT NOT NULL, creator_user BIGINT REFERENCES users(id),"
     " lease BIGINT NOT NULL);"
     "CREATE INDEX tournaments_state ON tournaments(state, starts);"
     "CREATE TABLE tournament_players(tournament_id TEXT NOT NULL REFERENCES tournaments(id),"
     " entry INTEGER NOT NULL, player TEXT NOT NULL, name TEXT NOT NULL, token TEXT NOT NULL,"
     " user_id BIGINT REFERENCES users(id), PRIMARY KEY(tournament_id, entry));"
     "CREATE TABLE tournament_games(tournament_id TEXT NOT NULL REFERENCES tournaments(id),"
     " round INTEGER NOT NULL, board INTEGER NOT NULL, white INTEGER NOT NULL,"
     " black INTEGER NOT NULL, game_id TEXT, result DOUBLE PRECISION,"
     " PRIMARY KEY(tournament_id, round, board));"
     // ... and puzzle ratings (store_puzzle.h): a signed-in player's per game, each
     // puzzle's own, and the puzzles each player was rated on (his first try only).
     "CREATE TABLE puzzle_ratings(user_id BIGINT NOT NULL REFERENCES users(id),"
     " game TEXT NOT NULL, rating DOUBLE PRECISION NOT NULL, rd DOUBLE PRECISION NOT NULL,"
     " volatility DOUBLE PRECISION NOT NULL, puzzles INTEGER NOT NULL, updated BIGINT NOT NULL,"
     " PRIMARY KEY(user_id, game));"
     "CREATE TABLE puzzle_stats(game TEXT NOT NULL, puzzle TEXT NOT NULL,"
     " rating DOUBLE PRECISION NOT NULL, rd DOUBLE PRECISION NOT NULL, volatility DOUBLE PRECISION NOT NULL,"
     " attempts INTEGER NOT NULL, PRIMARY KEY(game, puzzle));"
     "CREATE TABLE puzzle_attempts(user_id BIGINT NOT NULL REFERENCES users(id),"
     " game TEXT NOT NULL, puzzle TEXT NOT NULL, at BIGINT NOT NULL,"
     " PRIMARY KEY(user_id, game, puzzle));"),
    // 12: e-mail, as in SQLite's step 12.
    ("CREATE TABLE user_emails(user_id BIGINT PRIMARY KEY REFERENCES users(id),"
     " address TEXT NOT NULL, verified INTEGER NOT NULL DEFAULT 0,"
     " moves INTEGER NOT NULL DEFAULT 0, challenges INTEGER NOT NULL DEFAULT 0,"
     " timeouts INTEGER NOT NULL DEFAULT 0);"
     "CREATE TABLE mail_tokens(hash TEXT PRIMARY KEY,"
     " user_id BIGINT NOT NULL REFERENCES users(id), kind TEXT NOT NULL,"
     " what TEXT NOT NULL DEFAULT '', expires BIGINT NOT NULL);"
     "CREATE INDEX mail_tokens_user ON mail_tokens(user_id);"
     "CREATE TABLE mail_queue(id BIGSERIAL PRIMARY KEY, dedupe TEXT UNIQUE,"
     " user_id BIGINT REFERENCES users(id), address TEXT NOT NULL, subject TEXT NOT NULL,"
     " body TEXT NOT NULL, unsubscribe TEXT NOT NULL DEFAULT '', created BIGINT NOT NULL,"
     " next_try BIGINT NOT NULL, tries INTEGER NOT NULL DEFAULT 0,"
     " state INTEGER NOT NULL DEFAULT 0, lease_until BIGINT NOT NULL DEFAULT 0);"
     "CREATE INDEX mail_queue_due ON mail_queue(state, next_try);"),
    // 13: ratings' history, the leaderboard's index and failed sign-ins counted across
    // processes, as in SQLite's step 13.
    ("CREATE TABLE rating_history(user_id BIGINT NOT NULL REFERENCES users(id),"
     " game_id TEXT NOT NULL, game TEXT NOT NULL, opponent_id BIGINT REFERENCES users(id),"
     " score DOUBLE PRECISION NOT NULL, rating_before DOUBLE PRECISION NOT NULL,"
     " rating DOUBLE PRECISION NOT NULL, rd DOUBLE PRECISION NOT NULL,"
     " volatility DOUBLE PRECISION NOT NULL, at BIGINT NOT NULL, games INTEGER NOT NULL,"
     " PRIMARY KEY(user_id, game_id));"
     "CREATE INDEX rating_history_game ON rating_history(game_id);"
     "CREATE INDEX rating_history_user ON rating_history(user_id, games);"
     "CREATE INDEX ratings_game ON ratings(game, rating);"
     "CREATE TABLE login_failures(key TEXT PRIMARY KEY, fails INTEGER NOT NULL,"
     " last_ms BIGINT NOT NULL, until_ms BIGINT NOT NULL);"
     "CREATE INDEX login_failures_last ON login_failures(last_ms);"),
    // 14: a tournament's version, as in SQLite's step 14 (whose address_creates this
    // database has had since step 5).
    ("ALTER TABLE tournaments ADD COLUMN version BIGINT NOT NULL DEFAULT 0;"),
    // 15: the language of an account's mails, as in SQLite's step 15.
    "ALTER TABLE users ADD COLUMN lang TEXT NOT NULL DEFAULT '';",
};
_Static_assert(sizeof PG_MIGRATIONS / sizeof PG_MIGRATIONS[0] == STORE_SCHEMA_VERSION,
               "one migration per schema version");
