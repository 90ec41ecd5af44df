/*
 * kotv_drawing.c - the King of the Valley table drawn as text for a terminal: the valley
 * beside the hill with its prices, the piles, each player's gold, score and castle, and
 * the decision at hand; ANSI colours on request.
 */
#include <string.h>

#include "games/kingofthevalley/kotv_internal.h"

#define ANSI_BOLD "\x1b[1m"
#define ANSI_GOLD "\x1b[33m"

static const char *const PLAYER_COLOR[MAX_PLAYERS] = {"\x1b[1;91m", "\x1b[1;94m", "\x1b[1;92m",
                                                      "\x1b[1;95m"};
/* Pads the drawing to a column after writing `written` visible characters. */
static void pad(StrBuf *out, int written, int width)
{
    for (int i = written; i < width; i++)
        sb_putc(out, ' ');
}

static void render_castle_column(const KotvConfig *c, const KotvPlayer *p, int col, StrBuf *out)
{
    StrBuf cell;
    sb_init(&cell);
    for (int face = 0; face < 2; face++) {
        const uint8_t *real = face ? p->down : p->up;
        const uint8_t *jest = face ? p->jdown : p->jup;
        if (face)
            sb_puts(&cell, "|");
        bool any = false;
        for (int i = 0; i < c->col_nkinds[col]; i++) {
            const int k = c->col_kind[col][i];
            for (int j = 0; j < real[k]; j++) {
                sb_printf(&cell, "%s%s", any ? " " : "", c->kind[k].code);
                any = true;
            }
        }
        for (int j = 0; j < jest[col]; j++) {
            sb_printf(&cell, "%sJ", any ? " " : "");
            any = true;
        }
    }
    const char *text = sb_str(&cell);
    size_t len = strlen(text);
    if (len > 0 && text[len - 1] == '|')
        len--; // nothing face down
    sb_printf(out, " %c[%.*s]", kotv_column_letters[col], (int)len, text);
    sb_free(&cell);
}

void kotv_render(const KotvConfig *c, const KotvState *s, unsigned flags, StrBuf *out)
{
    const bool color = flags & RENDER_COLOR;
    const int n = s->players;
    sb_printf(out, "%-48s%s\n", "The valley (tile, $coins, @king)", "Hill   left price   right");
    sb_puts(out, "     a       b       c       d       e\n");
    for (int rank = KOTV_SIZE - 1; rank >= 0; rank--) {
        sb_printf(out, " %d ", rank + 1);
        for (int f = 0; f < KOTV_SIZE; f++) {
            const int sq = rank * KOTV_SIZE + f;
            int w = 0;
            sb_putc(out, ' ');
            if (s->valley[sq]) {
                const char *code = c->kind[kotv_kind_at(s->valley[sq])].code;
                sb_puts(out, code);
                w += (int)strlen(code);
            } else {
                if (color)
                    sb_puts(out, ANSI_DIM);
                sb_putc(out, '.');
                if (color)
                    sb_puts(out, ANSI_RESET);
                w++;
            }
            if (s->coins[sq]) {
                if (color)
                    sb_puts(out, ANSI_GOLD);
                sb_printf(out, "$%d", s->coins[sq]);
                if (color)
                    sb_puts(out, ANSI_RESET);
                w += 2;
            }
            for (int p = 0; p < n; p++)
                if (s->pl[p].king == sq) {
                    if (color)
                        sb_puts(out, PLAYER_COLOR[p]);
                    sb_printf(out, "@%d", p + 1);
                    if (color)
                        sb_puts(out, ANSI_RESET);
                    w += 2;
                }
            pad(out, w, 7);
        }
        sb_puts(out, "     ");
        // Valley ranks 5..1 are drawn beside hill rows 6..2; row 1 gets a line of its own.
        const int row = rank + 1;
        {
            const char *l = row < s->hill_n[0] ? c->kind[kotv_kind_at(s->hill[0][row])].code : ".";
            const char *r = row < s->hill_n[1] ? c->kind[kotv_kind_at(s->hill[1][row])].code : ".";
            sb_printf(out, "row %d  %-5s %3d    %s", row + 1, l, c->prices[row], r);
        }
        sb_putc(out, '\n');
    }
    {
        const char *l = 0 < s->hill_n[0] ? c->kind[kotv_kind_at(s->hill[0][0])].code : ".";
        const char *r = 0 < s->hill_n[1] ? c->kind[kotv_kind_at(s->hill[1][0])].code : ".";
        sb_printf(out, "%48srow 1  %-5s %3d    %s\n", "", l, c->prices[0], r);
    }
    int pile_total[KOTV_STAGES] = {0, 0, 0};
    for (int st = 0; st < KOTV_STAGES; st++)
        for (int k = 0; k < c->nkinds; k++)
            pile_total[st] += s->pile[st][k];
    sb_printf(out, "Piles (face down, order unknown): I %d, II %d, III %d tiles.", pile_total[0],
              pile_total[1], pile_total[2]);
    if (c->limited_tokens)
        sb_printf(out, " Kingdom tokens left %d, tax tokens left %d.",
                  c->crown_supply - kotv_crowns_taken(s), c->tax_supply - kotv_tax_taken(s));
    sb_putc(out, '\n');
    for (int p = 0; p < n; p++) {
        const KotvPlayer *pl = &s->pl[p];
        const bool active = s->phase != KPH_OVER && s->phase != KPH_DRAW && p == s->turn;
        if (color)
            sb_puts(out, PLAYER_COLOR[p]);
        sb_printf(out, "%s Player %d%s", active ? ">" : " ", p + 1,
                  p == s->first ? " (starting player)" : "");
        if (color)
            sb_puts(out, ANSI_RESET);
        sb_printf(out, ": gold %d, kingdom tokens %d, reputation %d (influence %d); taxed: ",
                  pl->gold, pl->crowns, kotv_reputation(c, s, p), kotv_influence(c, s, p));
        if (pl->taxed == 0)
            sb_puts(out, "none");
        for (int col = 0; col < KOTV_COLUMNS; col++)
            if ((pl->taxed >> col) & 1u)
                sb_putc(out, kotv_column_letters[col]);
        sb_puts(out, "\n   castle (face up | face down):");
        for (int col = 0; col < KOTV_COLUMNS; col++)
            render_castle_column(c, pl, col, out);
        sb_putc(out, '\n');
    }
    if (s->phase == KPH_OVER) {
        sb_puts(out, "The game is over.\n");
        return;
    }
    const int round = s->phase == KPH_PLACE ? 0 : s->turns / n + 1;
    if (s->phase == KPH_PLACE)
        sb_puts(out, "Set-up: ");
    else
        sb_printf(out, "Round %d%s: ", round, s->end_triggered ? " (the last)" : "");
    if (s->phase == KPH_DRAW) {
        sb_puts(out, "chance draws the hill refill.\n");
        return;
    }
    sb_printf(out, "player %d to act, %s.", s->turn + 1, kotv_decision_name(s));
    if (s->pend_jester || s->pend_wizard || s->npend_tax)
        sb_printf(out, " Waiting: %d jester(s), %d wizard swap(s), %d tax collector(s).",
                  s->pend_jester, s->pend_wizard, s->npend_tax);
    sb_putc(out, '\n');
}
