/*
 * mailer.h - the server's mail sender: a thread that takes the mails queued in the store
 * (store_mail.h) one at a time and sends them over SMTP with libcurl, as --smtp,
 * --smtp-from and --smtp-credentials say. A request only queues (mail.h) and never waits
 * for an SMTP server; a mail that fails is tried again later, each wait twice the last;
 * every process sharing the store sends from the same queue, each mail once.
 */
#ifndef CROWN_WEB_MAILER_H
#define CROWN_WEB_MAILER_H

#include "core/status.h"

typedef struct Mailer Mailer;
typedef struct Server Server;

/* Starts the sender when srv->cfg.smtp_url is set (*out NULL when it is not): reads the
 * credentials file, refusing one it cannot read or that has no "USER:PASSWORD". */
Status mailer_start(Server *srv, Mailer **out, ErrBuf *err);
/* A mail was queued: the sender looks now rather than at its next round. NULL is fine. */
void mailer_wake(Mailer *m);
/* Stops the thread (a mail being sent is finished first) and frees; NULL is fine. */
void mailer_stop(Mailer *m);

#endif
