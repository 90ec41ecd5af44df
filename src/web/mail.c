/*
 * mail.c - the server's mails (mail.h): their words, their links and their tokens. The
 * words are the catalogues' mail.* messages (messages.h) in the recipient's language,
 * the one the store keeps for the account; the links go to the web app's pages
 * (/account, /login), which do the rest through the API. A link's base is
 * --public-url, else the address the server listens on.
 */
#include "web/mail.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/strbuf.h"
#include "play/registry.h"
#include "web/context.h"
#include "web/credential.h"
#include "web/gameclock.h"
#include "web/language.h"
#include "web/mailer.h"
#include "web/messages.h"
#include "web/meta.h"
#include "web/session.h"
#include "web/store_mail.h"

enum { BASE_CAP = 256, URL_CAP = STORE_MAIL_URL_MAX, BODY_CAP = 2048, FLAGGING_CAP = 100 };

bool mail_on(const Server *srv)
{
    return srv->cfg.smtp_url != NULL;
}

json_t *mail_settings_json(Server *srv, int64_t user)
{
    StoreEmail e;
    ErrBuf err;
    if (store_email_get(srv->store, user, &e, &err) != STATUS_OK)
        return NULL;
    json_t *o = json_object(), *wants = json_object();
    json_object_set_new(o, "mail", json_boolean(mail_on(srv)));
    json_object_set_new(o, "address", e.address[0] ? json_string(e.address) : json_null());
    json_object_set_new(o, "verified", json_boolean(e.verified));
    for (int k = 0; k < MAIL_KINDS; k++)
        json_object_set_new(wants, mail_kind_name((MailKind)k), json_boolean(e.wants[k]));
    json_object_set_new(o, "notify", wants);
    return o;
}

const char *mail_address_refusal(const char *address)
{
    const size_t n = strlen(address);
    const char *at = strrchr(address, '@');
    if (n < 3 || n > STORE_MAIL_ADDRESS_MAX)
        return "an e-mail address has 3 to 254 characters";
    if (at == NULL || at == address || at[1] == '\0' || strchr(at + 1, '.') == NULL ||
        strchr(address, '@') != at)
        return "that is not an e-mail address (name@example.org)";
    // Printable ASCII without what would end or bend a header or an SMTP path.
    for (const char *p = address; *p; p++)
        if (*p <= ' ' || *p >= 127 || strchr("<>()[],;:\\\"", *p) != NULL)
            return "an e-mail address has no spaces, quotes, brackets or commas";
    return NULL;
}

void mail_remember_language(Server *srv, int64_t user, const char *known, const char *cookie,
                            const char *accept_language)
{
    if (cookie == NULL && accept_language == NULL)
        return;
    const char *code = language_code(language_choose(cookie, accept_language));
    if (strcmp(code, known) == 0)
        return; // every page asks who is signed in: no write when nothing changes
    ErrBuf err;
    // A remembered language is only for mails: a busy store loses nothing else.
    store_mail_set_lang(srv->store, user, code, &err);
}

/* The language of the account's mails: the one it last read the app in, else English. */
static int language_of(Server *srv, int64_t user)
{
    char lang[STORE_MAIL_LANG_MAX];
    ErrBuf err;
    if (store_mail_lang(srv->store, user, lang, &err) != STATUS_OK || lang[0] == '\0')
        return 0;
    return language_choose(lang, NULL);
}

/* Message key in lang with params (taken), into out: cut at cap on a character's
 * boundary, as a mail's subject and body have bounds. */
static void say(const Server *srv, int lang, const char *key, json_t *params, char *out,
                size_t cap)
{
    StrBuf sb;
    sb_init(&sb);
    messages_format(srv->messages, lang, key, params, false, &sb);
    json_decref(params);
    size_t n = sb.len < cap ? sb.len : cap - 1;
    while (n > 0 && n < sb.len && ((unsigned char)sb_str(&sb)[n] & 0xC0) == 0x80)
        n--; // not inside a UTF-8 sequence
    memcpy(out, sb_str(&sb), n);
    out[n] = '\0';
    sb_free(&sb);
}

/* A game's name in lang: the catalogue's name.GAME (the page's words for it), else its
 * title, else the registry name itself. */
static void game_words(const Server *srv, int lang, const char *game, char *out, size_t cap)
{
    char key[96];
    snprintf(key, sizeof key, "name.%s", game);
    const GameOps *ops = registry_find(game);
    if (messages_has(srv->messages, key))
        say(srv, lang, key, NULL, out, cap);
    else
        snprintf(out, cap, "%s", ops ? ops->title : game);
}

/* The links' base, without a trailing slash. */
static void base_url(const Server *srv, char *out, size_t cap)
{
    const ServeConfig *c = &srv->cfg;
    if (c->public_url != NULL) {
        size_t n = strlen(c->public_url);
        while (n > 0 && c->public_url[n - 1] == '/')
            n--;
        snprintf(out, cap, "%.*s", (int)n, c->public_url);
        return;
    }
    const bool any = strcmp(c->bind, "0.0.0.0") == 0 || strcmp(c->bind, "::") == 0;
    const char *host = c->share_host ? c->share_host : any ? "127.0.0.1" : c->bind;
    const bool v6 = strchr(host, ':') != NULL;
    snprintf(out, cap, "http://%s%s%s:%d", v6 ? "[" : "", host, v6 ? "]" : "", srv->port);
}

/* When a link made now expires: `days` of --day-seconds, at least a second. */
static int64_t expires(const Server *srv, double days)
{
    const double s = days * srv->cfg.day_s;
    return (int64_t)time(NULL) + (s < 1 ? 1 : (int64_t)s);
}

enum { PACE_S = 60 }; /* an account's verification or reset mails: one a minute */

/* A paced mail's key and the pattern of its kind's keys ("reset:USER:..."): a page or a
 * script asking again and again cannot fill someone's mailbox. */
static void paced_key(char *key, char *pace, size_t cap, const char *what, int64_t user)
{
    snprintf(pace, cap, "%s:%lld:%%", what, (long long)user);
    snprintf(key, cap, "%s:%lld:%lld", what, (long long)user, (long long)time(NULL));
}

/* A new token and its hash; false without randomness. */
static bool new_token(char token[CREDENTIAL_ID_LEN + 1], char hash[CREDENTIAL_ID_LEN + 1])
{
    return credential_session_id(token) && credential_session_hash(token, hash);
}

/* Queues m; with kind >= 0, an unsubscribe token for user's kind goes with it and the
 * body ends with its link, said in lang. */
static Status queue(Server *srv, StoreMail *m, int64_t user, int kind, int lang, ErrBuf *err)
{
    char token[CREDENTIAL_ID_LEN + 1], hash[CREDENTIAL_ID_LEN + 1], base[BASE_CAP];
    char unsubscribe[URL_CAP] = "", body[BODY_CAP], footer[256];
    const int64_t now = (int64_t)time(NULL);
    if (kind >= 0) {
        if (!new_token(token, hash))
            return err_set(err, STATUS_IO, "no randomness for a token");
        base_url(srv, base, sizeof base);
        snprintf(unsubscribe, sizeof unsubscribe, "%s/account?unsubscribe=%s", base, token);
        say(srv, lang, "mail.unsubscribe", NULL, footer, sizeof footer);
        snprintf(body, sizeof body, "%s\n-- \n%s\n%s\n", m->body, footer, unsubscribe);
        m->body = body;
        m->unsubscribe = unsubscribe;
    }
    bool queued = false;
    const Status s = store_mail_queue(srv->store, m, now, user, kind >= 0 ? (MailKind)kind : 0,
                                      kind >= 0 ? hash : NULL, expires(srv, MAIL_UNSUBSCRIBE_DAYS),
                                      &queued, err);
    if (s == STATUS_OK && queued)
        mailer_wake(srv->mailer);
    return s;
}

Status mail_verification(Server *srv, int64_t user, const char *name, const char *address,
                         ErrBuf *err)
{
    char token[CREDENTIAL_ID_LEN + 1], hash[CREDENTIAL_ID_LEN + 1], base[BASE_CAP];
    char body[BODY_CAP], subject[STORE_MAIL_SUBJECT_MAX], url[URL_CAP];
    if (!new_token(token, hash))
        return err_set(err, STATUS_IO, "no randomness for a token");
    Status s = store_email_set(srv->store, user, address, hash,
                               expires(srv, MAIL_VERIFY_DAYS), err);
    if (s != STATUS_OK)
        return s;
    base_url(srv, base, sizeof base);
    snprintf(url, sizeof url, "%s/account?verify=%s", base, token);
    const int lang = language_of(srv, user);
    say(srv, lang, "mail.verify.subject", NULL, subject, sizeof subject);
    say(srv, lang, "mail.verify.body", json_pack("{s:s, s:s}", "name", name, "link", url), body,
        sizeof body);
    char key[64], pace[64];
    paced_key(key, pace, sizeof key, "verify", user);
    StoreMail m = {key, address, subject, body, "", pace, PACE_S};
    return queue(srv, &m, user, -1, lang, err);
}

Status mail_reset(Server *srv, const char *who, ErrBuf *err)
{
    char token[CREDENTIAL_ID_LEN + 1], hash[CREDENTIAL_ID_LEN + 1], base[BASE_CAP];
    char name_key[CREDENTIAL_NAME_MAX + 1], to[STORE_MAIL_ADDRESS_MAX + 1], body[BODY_CAP];
    char subject[STORE_MAIL_SUBJECT_MAX], url[URL_CAP];
    if (!new_token(token, hash))
        return err_set(err, STATUS_IO, "no randomness for a token");
    const bool name = strchr(who, '@') == NULL;
    if (name)
        credential_name_key(who, name_key, sizeof name_key);
    int64_t user = 0;
    Status s = store_reset_open(srv->store, name ? name_key : NULL, name ? NULL : who, hash,
                                expires(srv, MAIL_RESET_DAYS), &user, to, err);
    if (s == STATUS_NOT_FOUND)
        return STATUS_OK;
    if (s != STATUS_OK)
        return s;
    base_url(srv, base, sizeof base);
    snprintf(url, sizeof url, "%s/login?reset=%s", base, token);
    const int lang = language_of(srv, user);
    say(srv, lang, "mail.reset.subject", NULL, subject, sizeof subject);
    say(srv, lang, "mail.reset.body", json_pack("{s:s}", "link", url), body, sizeof body);
    char key[64], pace[64];
    paced_key(key, pace, sizeof key, "reset", user);
    StoreMail m = {key, to, subject, body, "", pace, PACE_S};
    return queue(srv, &m, user, -1, lang, err);
}

void mail_turn(Server *srv, Session *s, int seat)
{
    if (!mail_on(srv))
        return;
    char name[META_ACCOUNT_LEN] = "", other[META_ACCOUNT_LEN] = "", path[160] = "";
    char key[96];
    const char *game = s->game->ops->name;
    pthread_mutex_lock(&s->mu);
    const int p = session_over_locked(s) ? -1 : s->game->ops->to_move(s->game, s->rec.current);
    if (p >= 0 && p != seat && s->meta.clock.days > 0 && s->seats.seat[p].human &&
        strcmp(s->meta.account[p], META_DELETED_PLAYER) != 0) {
        snprintf(name, sizeof name, "%s", s->meta.account[p]);
        for (int i = 0; i < s->seats.count && other[0] == '\0'; i++)
            if (i != p && s->meta.account[i][0])
                snprintf(other, sizeof other, "%s", s->meta.account[i]);
        snprintf(path, sizeof path, "/g/%s#token=%s", s->id, s->token[p]);
        snprintf(key, sizeof key, "move:%s:%d", s->id, s->rec.count);
    }
    const int days = s->meta.clock.days;
    pthread_mutex_unlock(&s->mu);
    if (name[0] == '\0')
        return;
    int64_t user = 0;
    char to[STORE_MAIL_ADDRESS_MAX + 1], base[BASE_CAP], subject[STORE_MAIL_SUBJECT_MAX];
    char body[BODY_CAP];
    ErrBuf err;
    if (store_mail_recipient(srv->store, name, MAIL_MOVES, &user, to, &err) != STATUS_OK)
        return; // no address, not verified, or not asked for: no mail
    base_url(srv, base, sizeof base);
    char url[URL_CAP];
    snprintf(url, sizeof url, "%s%s", base, path);
    const int lang = language_of(srv, user);
    const bool against = other[0] != '\0';
    char title[128];
    game_words(srv, lang, game, title, sizeof title);
    say(srv, lang, against ? "mail.move.subject-against" : "mail.move.subject",
        json_pack("{s:s, s:s}", "game", title, "other", other), subject, sizeof subject);
    say(srv, lang, against ? "mail.move.body-against" : "mail.move.body",
        json_pack("{s:s, s:s, s:s, s:i, s:s}", "name", name, "game", title, "other", other,
                  "count", days, "link", url),
        body, sizeof body);
    StoreMail m = {key, to, subject, body, "", NULL, 0};
    queue(srv, &m, user, MAIL_MOVES, lang, &err); // a mail lost to a busy store is only a mail
}

/* The name of another account seated in m than seat's, or "". */
static const char *opponent(const GameMeta *m, int players, int seat)
{
    for (int i = 0; i < players && i < MAX_PLAYERS; i++)
        if (i != seat && m->account[i][0])
            return m->account[i];
    return "";
}

/* The mail of one game that may be about to run out of time. */
static void mail_timeout(Server *srv, const StoreFlagging *g, int64_t now_ms)
{
    GameMeta m;
    ErrBuf err;
    meta_init(&m);
    if (meta_parse(g->meta, g->players, &m, &err) != STATUS_OK || m.clock.days <= 0 ||
        m.end != PLAY_END_NONE || g->flag_at - now_ms > m.clock.per_move_ms / 4)
        return;
    const int seat = m.clock.running;
    if (seat < 0 || seat >= g->players || m.account[seat][0] == '\0' ||
        strcmp(m.account[seat], META_DELETED_PLAYER) == 0)
        return;
    int64_t user = 0;
    char to[STORE_MAIL_ADDRESS_MAX + 1], token[SECRET_TOKEN_LEN + 1], base[BASE_CAP];
    char subject[STORE_MAIL_SUBJECT_MAX], body[BODY_CAP], key[96];
    if (store_mail_recipient(srv->store, m.account[seat], MAIL_TIMEOUTS, &user, to, &err) !=
            STATUS_OK ||
        store_seat_token(srv->store, g->id, seat, token, &err) != STATUS_OK)
        return;
    const char *other = opponent(&m, g->players, seat);
    const long minutes = (long)((g->flag_at - now_ms) / 60000);
    base_url(srv, base, sizeof base);
    snprintf(key, sizeof key, "timeout:%.*s:%lld", SECRET_ID_LEN, g->id, (long long)g->flag_at);
    char url[URL_CAP], left[16];
    snprintf(url, sizeof url, "%s/g/%.*s#token=%s", base, SECRET_ID_LEN, g->id, token);
    snprintf(left, sizeof left, "%02ld", minutes % 60);
    const int lang = language_of(srv, user);
    const bool against = other[0] != '\0';
    say(srv, lang, against ? "mail.timeout.subject-against" : "mail.timeout.subject",
        json_pack("{s:s}", "other", other), subject, sizeof subject);
    say(srv, lang, against ? "mail.timeout.body-against" : "mail.timeout.body",
        json_pack("{s:s, s:s, s:I, s:s, s:s}", "name", m.account[seat], "other", other, "hours",
                  (json_int_t)(minutes / 60), "minutes", left, "link", url),
        body, sizeof body);
    StoreMail mail = {key, to, subject, body, "", NULL, 0};
    queue(srv, &mail, user, MAIL_TIMEOUTS, lang, &err);
}

int64_t mail_timeouts_period_ms(const Server *srv)
{
    const int64_t ms = (int64_t)srv->cfg.day_s * 1000 / 1440;
    return ms < 200 ? 200 : ms;
}

void mail_timeouts(Server *srv)
{
    if (!mail_on(srv))
        return;
    // A quarter of the longest time per move (30 days) bounds how far ahead to look.
    const int64_t now = gameclock_now();
    const int64_t ahead = (int64_t)GAMECLOCK_MAX_DAYS * srv->cfg.day_s * 1000 / 4;
    StoreFlagging games[FLAGGING_CAP];
    int n = 0;
    ErrBuf err;
    if (store_games_flagging(srv->store, now + ahead, games, FLAGGING_CAP, &n, &err) != STATUS_OK)
        return;
    for (int i = 0; i < n; i++) {
        mail_timeout(srv, &games[i], now);
        free(games[i].meta);
    }
}

Status mail_challenge(Server *srv, const char *to_name, const char *from, const char *game,
                      const char *path, const char *key, ErrBuf *err)
{
    if (!mail_on(srv))
        return STATUS_OK;
    int64_t user = 0;
    char to[STORE_MAIL_ADDRESS_MAX + 1], base[BASE_CAP], subject[STORE_MAIL_SUBJECT_MAX];
    char body[BODY_CAP];
    const Status s = store_mail_recipient(srv->store, to_name, MAIL_CHALLENGES, &user, to, err);
    if (s == STATUS_NOT_FOUND)
        return STATUS_OK;
    if (s != STATUS_OK)
        return s;
    base_url(srv, base, sizeof base);
    char url[URL_CAP];
    snprintf(url, sizeof url, "%s%s", base, path);
    const int lang = language_of(srv, user);
    char title[128];
    game_words(srv, lang, game, title, sizeof title);
    say(srv, lang, "mail.challenge.subject", json_pack("{s:s, s:s}", "from", from, "game", title),
        subject, sizeof subject);
    say(srv, lang, "mail.challenge.body",
        json_pack("{s:s, s:s, s:s, s:s}", "name", to_name, "from", from, "game", title, "link",
                  url),
        body, sizeof body);
    StoreMail m = {key, to, subject, body, "", NULL, 0};
    return queue(srv, &m, user, MAIL_CHALLENGES, lang, err);
}
