/*
 * mailer.c - the mail sender (mailer.h). One thread, asleep on a condition between
 * rounds (woken by mailer_wake, or every POLL_MS for the mails other processes queue).
 * A round claims due mails from the store one by one with a lease, so two processes
 * never send the same one, and a process killed mid-send leaves it to be sent again
 * when the lease lapses. The credentials live only in this struct, wiped at the stop,
 * and are never written anywhere.
 */
#include "web/mailer.h"

#include <curl/curl.h>
#include <pthread.h>
#include <sodium.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/strbuf.h"
#include "web/context.h"
#include "web/credential.h"
#include "web/store_mail.h"
#include "web/waits.h"

enum {
    POLL_MS = 2000,        /* a look at the queue at least this often */
    LEASE_S = 120,         /* a claim's hold: longer than a send may take */
    SEND_TIMEOUT_S = 60,
    CONNECT_TIMEOUT_S = 15,
    FIRST_RETRY_S = 30,    /* the wait after a first failure, doubling after each, in a day */
    LAST_RETRY_S = 3600,   /* of 86400 s: shorter with --day-seconds, for tests */
    MAX_TRIES = 8,         /* then given up: about four hours of trying */
    PURGE_S = 3600,        /* how often sent mails' keys and expired tokens are cleared */
    KEEP_SENT_S = 30 * 86400, /* how long a sent mail's key stops a second mail */
    CRED_CAP = 512,
};

struct Mailer {
    Server *srv;
    char user[CRED_CAP], password[CRED_CAP]; /* "" without --smtp-credentials */
    pthread_mutex_t mu;
    pthread_cond_t wake;
    bool stop, woken;
    pthread_t thread;
};

/* Reads "USER:PASSWORD" (one line) from path into m. */
static Status read_credentials(Mailer *m, const char *path, ErrBuf *err)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return err_set(err, STATUS_IO, "--smtp-credentials: cannot read %s", path);
    char line[2 * CRED_CAP];
    const bool got = fgets(line, sizeof line, f) != NULL;
    fclose(f);
    line[strcspn(line, "\r\n")] = '\0';
    char *colon = got ? strchr(line, ':') : NULL;
    Status s = STATUS_OK;
    if (colon == NULL || colon == line || strlen(colon + 1) >= CRED_CAP ||
        (size_t)(colon - line) >= CRED_CAP) {
        s = err_set(err, STATUS_PARSE, "--smtp-credentials: %s must hold one line USER:PASSWORD",
                    path);
    } else {
        // Both parts were measured above: they fit.
        memcpy(m->user, line, (size_t)(colon - line));
        memcpy(m->password, colon + 1, strlen(colon + 1));
    }
    sodium_memzero(line, sizeof line);
    return s;
}

/* The message libcurl reads: its text and how much of it went. */
typedef struct Upload {
    const char *text;
    size_t len, at;
} Upload;

static size_t read_upload(char *buf, size_t size, size_t n, void *arg)
{
    Upload *u = arg;
    size_t room = size * n, left = u->len - u->at;
    const size_t k = left < room ? left : room;
    memcpy(buf, u->text + u->at, k);
    u->at += k;
    return k;
}

/* Appends text with every line ended by CRLF, as SMTP wants. */
static void append_crlf(StrBuf *b, const char *text)
{
    for (const char *p = text; *p; p++) {
        if (*p == '\n' && (p == text || p[-1] != '\r'))
            sb_puts(b, "\r");
        sb_putc(b, *p);
    }
}

/* A Subject header's text: ASCII as it is, else RFC 2047 encoded words of UTF-8 in
 * base64 (a Japanese subject), each of whole characters and under 76 bytes, folded. */
static void put_subject(StrBuf *b, const char *subject)
{
    bool ascii = true;
    for (const char *p = subject; *p; p++)
        ascii = ascii && (unsigned char)*p < 0x80;
    if (ascii) {
        sb_puts(b, subject);
        return;
    }
    enum { CHUNK = 45 }; /* 60 bytes of base64 in each word */
    const size_t n = strlen(subject);
    for (size_t at = 0; at < n;) {
        size_t len = n - at < CHUNK ? n - at : CHUNK;
        while (len > 1 && at + len < n && ((unsigned char)subject[at + len] & 0xC0) == 0x80)
            len--;
        char word[sodium_base64_ENCODED_LEN(CHUNK, sodium_base64_VARIANT_ORIGINAL)];
        sodium_bin2base64(word, sizeof word, (const unsigned char *)subject + at, len,
                          sodium_base64_VARIANT_ORIGINAL);
        sb_printf(b, "%s=?UTF-8?B?%s?=", at ? "\r\n " : "", word);
        at += len;
    }
}

/* The whole message: headers, a blank line, the body. The queue holds only what a
 * request wrote (mail.c checked the address and made the subject); From is ours. */
static void compose(const Server *srv, const StoreMailClaim *c, StrBuf *b)
{
    char date[64], id[CREDENTIAL_ID_LEN + 1];
    const time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S +0000", &tm);
    if (!credential_session_id(id))
        snprintf(id, sizeof id, "%lld", (long long)c->id);
    const char *domain = strrchr(srv->cfg.smtp_from, '@');
    sb_printf(b, "Date: %s\r\nFrom: crown <%s>\r\nTo: <%s>\r\nSubject: ", date,
               srv->cfg.smtp_from, c->to);
    put_subject(b, c->subject);
    sb_puts(b, "\r\n");
    sb_printf(b, "Message-ID: <%s@%s>\r\nMIME-Version: 1.0\r\n", id,
               domain ? domain + 1 : "crown.invalid");
    sb_puts(b, "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n"
                 "Auto-Submitted: auto-generated\r\n");
    if (c->unsubscribe[0])
        sb_printf(b, "List-Unsubscribe: <%s>\r\n", c->unsubscribe);
    sb_puts(b, "\r\n");
    append_crlf(b, c->body);
    if (b->len > 0 && b->data[b->len - 1] != '\n')
        sb_puts(b, "\r\n");
}

/* Sends one claimed mail; false with why set when it did not go. */
static bool send_one(Mailer *m, const StoreMailClaim *c, char why[CURL_ERROR_SIZE])
{
    StrBuf text;
    sb_init(&text);
    compose(m->srv, c, &text);
    CURL *curl = curl_easy_init();
    if (curl == NULL) {
        sb_free(&text);
        snprintf(why, CURL_ERROR_SIZE, "libcurl could not start");
        return false;
    }
    char from[STORE_MAIL_ADDRESS_MAX + 3], to[STORE_MAIL_ADDRESS_MAX + 3];
    snprintf(from, sizeof from, "<%s>", m->srv->cfg.smtp_from);
    snprintf(to, sizeof to, "<%s>", c->to);
    struct curl_slist *rcpt = curl_slist_append(NULL, to);
    Upload up = {sb_str(&text), text.len, 0};
    why[0] = '\0';
    curl_easy_setopt(curl, CURLOPT_URL, m->srv->cfg.smtp_url);
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L); // a thread among others: no alarm()
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, (long)CONNECT_TIMEOUT_S);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, (long)SEND_TIMEOUT_S);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, why);
    curl_easy_setopt(curl, CURLOPT_MAIL_FROM, from);
    curl_easy_setopt(curl, CURLOPT_MAIL_RCPT, rcpt);
    curl_easy_setopt(curl, CURLOPT_READFUNCTION, read_upload);
    curl_easy_setopt(curl, CURLOPT_READDATA, &up);
    curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
    if (m->user[0]) {
        // A password goes only over TLS (smtps://, or STARTTLS that the server must offer).
        curl_easy_setopt(curl, CURLOPT_USERNAME, m->user);
        curl_easy_setopt(curl, CURLOPT_PASSWORD, m->password);
        curl_easy_setopt(curl, CURLOPT_USE_SSL, (long)CURLUSESSL_ALL);
    } else {
        curl_easy_setopt(curl, CURLOPT_USE_SSL, (long)CURLUSESSL_TRY);
    }
    const CURLcode rc = rcpt ? curl_easy_perform(curl) : CURLE_OUT_OF_MEMORY;
    if (rc != CURLE_OK && why[0] == '\0')
        snprintf(why, CURL_ERROR_SIZE, "%s", curl_easy_strerror(rc));
    curl_slist_free_all(rcpt);
    curl_easy_cleanup(curl);
    sb_free(&text);
    return rc == CURLE_OK;
}

/* Sends every mail due now, until none is or the server stops. */
static void send_due(Mailer *m)
{
    Store *st = m->srv->store;
    for (;;) {
        StoreMailClaim c;
        ErrBuf err;
        const int64_t now = (int64_t)time(NULL);
        if (store_mail_claim(st, now, LEASE_S, &c, &err) != STATUS_OK)
            return; // none due, or the store is busy: the next round tries
        char why[CURL_ERROR_SIZE];
        if (send_one(m, &c, why)) {
            store_mail_sent(st, c.id, &err);
        } else {
            // Waits scale with --day-seconds, as the links' lives do, so tests see retries.
            const double day = (double)m->srv->cfg.day_s / 86400;
            double wait = FIRST_RETRY_S * day;
            for (int i = 1; i < c.tries && wait < LAST_RETRY_S * day; i++)
                wait *= 2;
            wait = wait > LAST_RETRY_S * day ? LAST_RETRY_S * day : wait < 1 ? 1 : wait;
            // The log names the mail by its number only: no address, no text.
            fprintf(stderr, "crown serve: mail %lld not sent (try %d of %d%s): %s\n",
                    (long long)c.id, c.tries, MAX_TRIES, c.tries >= MAX_TRIES ? ", given up" : "",
                    why);
            store_mail_failed(st, c.id, now + (int64_t)wait, MAX_TRIES, &err);
        }
        store_mail_claimed_free(&c);
        pthread_mutex_lock(&m->mu);
        const bool stop = m->stop;
        pthread_mutex_unlock(&m->mu);
        if (stop)
            return;
    }
}

static void *mailer_main(void *arg)
{
    Mailer *m = arg;
    int64_t purged = 0;
    pthread_mutex_lock(&m->mu);
    while (!m->stop) {
        m->woken = false;
        pthread_mutex_unlock(&m->mu);
        send_due(m);
        const int64_t now = (int64_t)time(NULL);
        if (now - purged >= PURGE_S) {
            ErrBuf err;
            if (store_mail_purge(m->srv->store, now - KEEP_SENT_S, &err) == STATUS_OK)
                purged = now;
        }
        pthread_mutex_lock(&m->mu);
        const struct timespec at = deadline_in_ms(POLL_MS);
        while (!m->stop && !m->woken && pthread_cond_timedwait(&m->wake, &m->mu, &at) == 0) {
        }
    }
    pthread_mutex_unlock(&m->mu);
    return NULL;
}

Status mailer_start(Server *srv, Mailer **out, ErrBuf *err)
{
    *out = NULL;
    if (srv->cfg.smtp_url == NULL)
        return STATUS_OK;
    Mailer *m = calloc(1, sizeof *m);
    if (m == NULL)
        return err_set(err, STATUS_NOMEM, "out of memory");
    m->srv = srv;
    Status s = srv->cfg.smtp_credentials ? read_credentials(m, srv->cfg.smtp_credentials, err)
                                          : STATUS_OK;
    if (s == STATUS_OK && curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
        s = err_set(err, STATUS_IO, "libcurl could not start");
    if (s != STATUS_OK) {
        sodium_memzero(m, sizeof *m);
        free(m);
        return s;
    }
    pthread_mutex_init(&m->mu, NULL);
    cond_init_monotonic(&m->wake);
    if (pthread_create(&m->thread, NULL, mailer_main, m) != 0) {
        pthread_mutex_destroy(&m->mu);
        pthread_cond_destroy(&m->wake);
        curl_global_cleanup();
        sodium_memzero(m, sizeof *m);
        free(m);
        return err_set(err, STATUS_NOMEM, "cannot start the mail thread");
    }
    *out = m;
    return STATUS_OK;
}

void mailer_wake(Mailer *m)
{
    if (m == NULL)
        return;
    pthread_mutex_lock(&m->mu);
    m->woken = true;
    pthread_cond_signal(&m->wake);
    pthread_mutex_unlock(&m->mu);
}

void mailer_stop(Mailer *m)
{
    if (m == NULL)
        return;
    pthread_mutex_lock(&m->mu);
    m->stop = true;
    pthread_cond_signal(&m->wake);
    pthread_mutex_unlock(&m->mu);
    pthread_join(m->thread, NULL);
    pthread_mutex_destroy(&m->mu);
    pthread_cond_destroy(&m->wake);
    curl_global_cleanup();
    sodium_memzero(m, sizeof *m);
    free(m);
}
