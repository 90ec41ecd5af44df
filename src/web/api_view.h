/*
 * api_view.h - the parts of a game's state body that come from the players' meta: the
 * result, the draw offer, hints and the rematch (docs/API.md, "Finishing a game").
 */
#ifndef CROWN_WEB_API_VIEW_H
#define CROWN_WEB_API_VIEW_H

#include <jansson.h>
#include <stddef.h>

#include "core/strbuf.h"

typedef struct Session Session;

/* The seat whose draw offer stands: it was made, and nobody but its maker (and chance)
 * has acted since. -1 when none. The caller holds s->mu, as for all of these. */
int api_offer_standing(const Session *s);
/* The seat whose takeback request stands (asked, not declined, and nobody has acted
 * since), or -1; the caller holds s->mu. */
int api_takeback_standing(const Session *s);
/* Sets in the state body o the end outside the rules (status, result), or completes a
 * result by the rules, and the draw offer, hints and rematch fields. */
void api_view_state(const Session *s, json_t *o);
/* The game's result in words, as the record says it. */
void api_result_text(const Session *s, StrBuf *out);
/* The fields only `viewer` sees (its rematch link), written to buf as JSON members each
 * followed by a comma; returns their length (0: none). */
int api_view_viewer_fields(const Session *s, int viewer, char *buf, size_t len);

#endif
