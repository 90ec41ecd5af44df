/*
 * server.c - starting and stopping the server's parts in a safe order.
 *
 * Stopping: first the flag every waiting thread checks, then the housekeeping thread
 * (which evicts and deletes games), then the store's listener (whose callbacks reach
 * sessions and AI workers), then the AI workers (which answer waiting hint requests),
 * then a wake-up for every event stream, and only then the HTTP daemon, which joins the
 * connection threads; then the mail sender (which requests wake), and what they used is
 * freed last.
 */
#include "web/server.h"

#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "play/perfect.h"
#include "web/ai.h"
#include "web/catalog.h"
#include "web/credential.h"
#include "web/http.h"
#include "web/janitor.h"
#include "web/langpages.h"
#include "web/language.h"
#include "web/messages.h"
#include "web/lab_api.h"
#include "web/loginlimit.h"
#include "web/mailer.h"
#include "web/quota.h"
#include "web/ratelimit.h"
#include "web/realip.h"
#include "web/session.h"
#include "web/sse.h"
#include "web/store.h"
#include "web/tour_live.h"
#include "web/tournament.h"
#include "web/weblog.h"

static void watch_changed(void *ctx, const char *id, uint64_t version)
{
    session_store_changed(ctx, id, version);
}

static void watch_thinking(void *ctx, const char *id)
{
    session_store_thinking(ctx, id);
}

static void watch_orphaned(void *ctx, const char *id)
{
    Server *srv = ctx;
    if (!atomic_load(&srv->stopping))
        session_store_orphaned(srv, id);
}

static void watch_missed(void *ctx)
{
    session_store_missed(ctx);
    tour_live_missed(ctx);
}

static void watch_tournament(void *ctx, const char *id, uint64_t version)
{
    tour_live_remote(ctx, id, version);
}

static void queue_move(void *ai, Session *s)
{
    ai_queue_move(ai, s);
}

Status server_open(Server *srv, const ServeConfig *cfg, ErrBuf *err)
{
    memset(srv, 0, sizeof *srv);
    srv->cfg = *cfg;
    atomic_init(&srv->stopping, false);
    atomic_init(&srv->open_streams, 0);
    Status st = realip_parse(cfg->trusted_proxies, &srv->proxies, err);
    if (st == STATUS_OK)
        st = store_open(cfg->db_path, &srv->store, err);
    if (st != STATUS_OK)
        return st;
    if ((st = perfect_open(cfg->tablebase, &srv->perfect, err)) != STATUS_OK ||
        (st = credentials_new(cfg->password_low, &srv->cred, err)) != STATUS_OK ||
        (st = messages_new(&srv->messages, err)) != STATUS_OK ||
        (st = language_pages_new(&srv->pages, srv->messages, err)) != STATUS_OK ||
        (st = tour_live_new(&srv->tour_live, err)) != STATUS_OK) {
        server_stop(srv);
        return st;
    }
    srv->sessions = sessions_new();
    srv->rate = ratelimit_new(cfg->write_rate, cfg->write_burst);
    srv->creates = ratelimit_new_window(cfg->creates_per_hour, 3600);
    srv->creates_home = ratelimit_new_window(cfg->home_creates_per_hour, 3600);
    srv->tournament_creates = ratelimit_new_window(tournament_creates_per_hour(cfg), 3600);
    // Pages of positions: 4 a second after 40 at once, about an eighth of a core for the
    // biggest pages (a page of King Down is some 35 ms), so one address cannot slow
    // the moves of others much, while a review steps through pages as it likes.
    srv->reads = ratelimit_new(4, 40);
    srv->quota = quota_new();
    // An address tries for many accounts, or many people share it behind a NAT.
    srv->logins = loginlimit_new(cfg->login_tries);
    srv->address_logins = loginlimit_new(4 * cfg->login_tries);
    srv->log = weblog_new(stderr, cfg->quiet);
    srv->games_json = catalog_json(&srv->games_json_len);
    if (srv->sessions == NULL || srv->rate == NULL || srv->creates == NULL ||
        srv->creates_home == NULL || srv->tournament_creates == NULL || srv->reads == NULL ||
        srv->quota == NULL || srv->logins == NULL || srv->address_logins == NULL ||
        srv->log == NULL || srv->games_json == NULL) {
        server_stop(srv);
        return err_set(err, STATUS_NOMEM, "out of memory");
    }
    if ((st = ai_pool_start(srv, cfg->ai_threads, &srv->ai, err)) != STATUS_OK) {
        server_stop(srv);
        return st;
    }
    // The sessions call up to the event streams and the AI workers through these only.
    const SessionHooks hooks = {sse_wake_locked, sse_events_free, queue_move, srv->ai};
    sessions_set_hooks(srv->sessions, &hooks);
    // Other processes sharing the store: their changes and their orphaned AI moves.
    const StoreWatch watch = {srv,           watch_changed, watch_thinking, watch_orphaned,
                              watch_missed,  watch_tournament};
    if ((st = store_watch(srv->store, &watch, err)) != STATUS_OK) {
        server_stop(srv);
        return st;
    }
    const LabLimits lab = {cfg->lab_max_games, cfg->lab_keep, cfg->lab_starts};
    if ((st = janitor_start(srv, &srv->janitor, err)) != STATUS_OK ||
        (st = mailer_start(srv, &srv->mailer, err)) != STATUS_OK ||
        (st = lab_server_open(cfg->lab_dir, &lab, srv->messages, &srv->lab, err)) != STATUS_OK) {
        server_stop(srv);
        return st;
    }
    return STATUS_OK;
}

Status server_start(Server *srv, const ServeConfig *cfg, ErrBuf *err)
{
    Status st = server_open(srv, cfg, err);
    if (st == STATUS_OK && (st = http_start(srv, err)) != STATUS_OK)
        server_stop(srv);
    return st;
}

void server_stop(Server *srv)
{
    atomic_store(&srv->stopping, true);
    janitor_stop(srv->janitor);
    if (srv->store)
        store_unwatch(srv->store); // its callbacks reach the sessions and the AI pool
    ai_pool_stop(srv->ai);
    if (srv->sessions)
        sessions_wake_all(srv->sessions);
    tour_live_wake_all(srv->tour_live);
    http_stop(srv);
    tour_live_free(srv->tour_live); // its streams went with the daemon
    srv->tour_live = NULL;
    mailer_stop(srv->mailer); // after the requests, which wake it; before the store
    srv->mailer = NULL;
    ai_pool_free(srv->ai);
    sessions_free(srv->sessions);
    store_close(srv->store);
    ratelimit_free(srv->rate);
    ratelimit_free(srv->creates);
    ratelimit_free(srv->creates_home);
    ratelimit_free(srv->tournament_creates);
    ratelimit_free(srv->reads);
    quota_free(srv->quota);
    loginlimit_free(srv->logins);
    loginlimit_free(srv->address_logins);
    credentials_free(srv->cred);
    weblog_free(srv->log, clock_ms()); // after the library, which writes to it
    srv->log = NULL;
    realip_free(srv->proxies);
    srv->proxies = NULL;
    lab_server_close(srv->lab);
    srv->lab = NULL;
    free(srv->games_json);
    language_pages_free(srv->pages);
    srv->pages = NULL;
    messages_free(srv->messages);
    srv->messages = NULL;
    perfect_free(srv->perfect);
    srv->perfect = NULL;
    srv->ai = NULL;
    srv->sessions = NULL;
    srv->store = NULL;
    srv->rate = NULL;
    srv->creates = NULL;
    srv->creates_home = NULL;
    srv->tournament_creates = NULL;
    srv->reads = NULL;
    srv->quota = NULL;
    srv->janitor = NULL;
    srv->games_json = NULL;
}
