/*
 * kotv_view.c - what one King of the Valley player (or a spectator) is shown: the drawing,
 * what the piles still hold, every tile kind's meaning and the position text. Nothing in
 * this game is known to one player only, so every view holds the same facts.
 */
#include "games/kingofthevalley/kotv_internal.h"

static const char *const CHAR_NAMES[KCH_COUNT] = {
    "queen", "duke", "countess", "knight", "farmer", "farmer's wife", "jester",
    "priest", "wizard", "tax collector"};

void kotv_format_view(const KotvConfig *c, const KotvState *s, int observer, StrBuf *out)
{
    if (observer >= 0)
        sb_printf(out, "View of player %d.", observer + 1);
    else
        sb_puts(out, "View of a spectator.");
    sb_puts(out, " Everything below is public; the order of the face-down piles is known to "
                 "nobody, only how many tiles of each kind they still hold.\n");
    kotv_render(c, s, 0, out);
    for (int st = 0; st < KOTV_STAGES; st++) {
        sb_printf(out, "Pile %s holds: ", st == 0 ? "I" : st == 1 ? "II" : "III");
        kotv_put_counted(c, s->pile[st], out);
        sb_putc(out, '\n');
    }
    sb_puts(out, "Tiles:");
    for (int k = 0; k < c->nkinds; k++) {
        const KotvKind *kd = &c->kind[k];
        sb_printf(out, " %s %s", kd->code, CHAR_NAMES[kd->ch]);
        if (kd->ch == KCH_KNIGHT)
            sb_printf(out, " of order %c", 'A' + kd->order);
        // Influence comes from the tile table (tiles=FILE may change it): say it, so that
        // a drawing need not assume the printed values.
        if (kd->ch <= KCH_JESTER)
            sb_printf(out, " (influence %d)", kd->influence);
        if (kd->ch == KCH_TAX && kd->req == 0)
            sb_printf(out, " (%d gold, no need)", kd->gold);
        else if (kd->ch == KCH_TAX)
            sb_printf(out, " (%d gold for %d identical subjects)", kd->gold, kd->req);
        sb_putc(out, k + 1 < c->nkinds ? ',' : '.');
    }
    // The position text holds nothing private either (piles are counts), and a program
    // drawing the view (the web board) reads it rather than the drawing above.
    sb_puts(out, "\nPosition: ");
    kotv_format_position(c, s, out);
    sb_putc(out, '\n');
}
