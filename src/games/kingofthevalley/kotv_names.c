/*
 * kotv_names.c - the names King of the Valley's action text and position text share:
 * valley squares ("c3"), castle column letters (Q D C N F W), castle codes (a subject's
 * kind, or J<column> for a jester) and the phase words.
 */
#include <ctype.h>
#include <string.h>

#include "games/kingofthevalley/kotv_internal.h"

const char *const kotv_phase_names[KPH_COUNT] = {"place",   "recruit", "summon", "kingdom",
                                                 "refill",  "draw",    "over"};
const char kotv_column_letters[KOTV_COLUMNS + 1] = "QDCNFW";

void kotv_format_square(int sq, StrBuf *out)
{
    sb_printf(out, "%c%d", 'a' + sq % KOTV_SIZE, sq / KOTV_SIZE + 1);
}

int kotv_read_square(const char **p)
{
    const char *q = *p;
    if (q[0] < 'a' || q[0] > 'e' || q[1] < '1' || q[1] > '5' || isalnum((unsigned char)q[2]))
        return -1;
    *p = q + 2;
    return (q[1] - '1') * KOTV_SIZE + (q[0] - 'a');
}

int kotv_column_of_letter(char ch)
{
    const char *hit = ch ? strchr(kotv_column_letters, toupper((unsigned char)ch)) : NULL;
    return hit ? (int)(hit - kotv_column_letters) : -1;
}

int kotv_read_castle_code(const KotvConfig *c, const char *w, size_t len)
{
    if (len == 2 && w[0] == 'J' && kotv_column_of_letter(w[1]) >= 0 && isupper((unsigned char)w[1]))
        return KOTV_MAX_KINDS + kotv_column_of_letter(w[1]);
    const int k = kotv_find_kind(c, w, len);
    return k >= 0 && c->kind_col[k] >= 0 ? k : -1;
}
