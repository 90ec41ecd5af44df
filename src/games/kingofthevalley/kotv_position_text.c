/*
 * kotv_position_text.c - the King of the Valley position text: one line of key=value
 * fields (docs/games/king-of-the-valley.md), written and read back. The reader fills a
 * local state and copies it out only when every field and the whole state checked.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/kingofthevalley/kotv_internal.h"

/* Appends "[n]code" items separated by ',' for counts by kind, or '-' when empty. */
void kotv_put_counted(const KotvConfig *c, const uint8_t *counts, StrBuf *out)
{
    bool any = false;
    for (int k = 0; k < c->nkinds; k++) {
        if (counts[k] == 0)
            continue;
        if (any)
            sb_putc(out, ',');
        if (counts[k] > 1)
            sb_printf(out, "%d", counts[k]);
        sb_puts(out, c->kind[k].code);
        any = true;
    }
    if (!any)
        sb_putc(out, '-');
}

static void put_castle(const KotvConfig *c, const uint8_t *real, const uint8_t *jesters,
                       StrBuf *out)
{
    bool any = false;
    for (int k = 0; k < c->nkinds; k++) {
        if (real[k] == 0)
            continue;
        sb_puts(out, any ? "," : "");
        if (real[k] > 1)
            sb_printf(out, "%d", real[k]);
        sb_puts(out, c->kind[k].code);
        any = true;
    }
    for (int col = 0; col < KOTV_COLUMNS; col++) {
        if (jesters[col] == 0)
            continue;
        sb_puts(out, any ? "," : "");
        if (jesters[col] > 1)
            sb_printf(out, "%d", jesters[col]);
        sb_printf(out, "J%c", kotv_column_letters[col]);
        any = true;
    }
    if (!any)
        sb_putc(out, '-');
}

void kotv_format_position(const KotvConfig *c, const KotvState *s, StrBuf *out)
{
    const int n = s->players;
    sb_printf(out, "players=%d first=%d turn=%d turns=%d phase=%s end=%d valley=", n,
              s->first + 1, s->turn + 1, s->turns, kotv_phase_names[s->phase], s->end_triggered);
    for (int rank = KOTV_SIZE - 1; rank >= 0; rank--) {
        for (int f = 0; f < KOTV_SIZE; f++) {
            const int sq = rank * KOTV_SIZE + f;
            if (f)
                sb_putc(out, ',');
            sb_puts(out, s->valley[sq] ? c->kind[kotv_kind_at(s->valley[sq])].code : "-");
            if (s->coins[sq])
                sb_printf(out, "+%d", s->coins[sq]);
        }
        if (rank)
            sb_putc(out, '/');
    }
    sb_puts(out, " kings=");
    for (int p = 0; p < n; p++) {
        if (p)
            sb_putc(out, ',');
        if (s->pl[p].king == KOTV_NO_SQUARE)
            sb_putc(out, '-');
        else
            kotv_format_square(s->pl[p].king, out);
    }
    sb_puts(out, " hill=");
    for (int h = 0; h < KOTV_HILL_COLS; h++) {
        if (h)
            sb_putc(out, '/');
        for (int r = 0; r < s->hill_n[h]; r++)
            sb_printf(out, "%s%s", r ? "," : "", c->kind[kotv_kind_at(s->hill[h][r])].code);
        if (s->hill_n[h] == 0)
            sb_putc(out, '-');
    }
    for (int st = 0; st < KOTV_STAGES; st++) {
        sb_printf(out, " pile%d=", st + 1);
        kotv_put_counted(c, s->pile[st], out);
    }
    sb_puts(out, " gold=");
    for (int p = 0; p < n; p++)
        sb_printf(out, "%s%d", p ? "," : "", s->pl[p].gold);
    sb_puts(out, " crowns=");
    for (int p = 0; p < n; p++)
        sb_printf(out, "%s%d", p ? "," : "", s->pl[p].crowns);
    sb_puts(out, " taxed=");
    for (int p = 0; p < n; p++) {
        if (p)
            sb_putc(out, ',');
        if (s->pl[p].taxed == 0)
            sb_putc(out, '-');
        for (int col = 0; col < KOTV_COLUMNS; col++)
            if ((s->pl[p].taxed >> col) & 1u)
                sb_putc(out, kotv_column_letters[col]);
    }
    for (int p = 0; p < n; p++) {
        sb_printf(out, " up%d=", p + 1);
        put_castle(c, s->pl[p].up, s->pl[p].jup, out);
        sb_printf(out, " down%d=", p + 1);
        put_castle(c, s->pl[p].down, s->pl[p].jdown, out);
    }
    sb_puts(out, " holes=");
    for (int i = 0; i < s->nholes; i++) {
        if (i)
            sb_putc(out, ',');
        kotv_format_square(s->holes[i], out);
    }
    if (s->nholes == 0)
        sb_putc(out, '-');
    sb_puts(out, " pending=");
    bool any = false;
    if (s->pend_jester) {
        if (s->pend_jester > 1)
            sb_printf(out, "%d", s->pend_jester);
        sb_puts(out, c->jester_kind >= 0 ? c->kind[c->jester_kind].code : "J");
        any = true;
    }
    if (s->pend_wizard) {
        sb_puts(out, any ? "," : "");
        if (s->pend_wizard > 1)
            sb_printf(out, "%d", s->pend_wizard);
        sb_puts(out, c->char_kind[KCH_WIZARD] >= 0 ? c->kind[c->char_kind[KCH_WIZARD]].code : "Z");
        any = true;
    }
    for (int i = 0; i < s->npend_tax; i++) {
        sb_puts(out, any ? "," : "");
        sb_puts(out, c->kind[s->pend_tax[i]].code);
        any = true;
    }
    if (!any)
        sb_putc(out, '-');
}

/* One "[n]code" item of a list: its count and code (not NUL-terminated). */
typedef struct Item {
    int count;
    const char *code;
    size_t len;
} Item;

/* Splits a ','-separated list ("-" = empty) into items; -1 on a malformed one. */
static int split_items(const char *v, Item *items, int cap)
{
    if (strcmp(v, "-") == 0)
        return 0;
    int n = 0;
    const char *p = v;
    for (;;) {
        const char *end = strchr(p, ',');
        const size_t len = end ? (size_t)(end - p) : strlen(p);
        if (n == cap || len == 0)
            return -1;
        size_t i = 0;
        int count = 0;
        while (i < len && isdigit((unsigned char)p[i]) && count < 1000)
            count = count * 10 + (p[i++] - '0');
        if (i == len || (i > 0 && count < 2))
            return -1;
        items[n].count = i ? count : 1;
        items[n].code = p + i;
        items[n].len = len - i;
        n++;
        if (!end)
            return n;
        p = end + 1;
    }
}

static bool read_number(const char *v, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    if (!isdigit((unsigned char)v[0]))
        return false;
    long x = strtol(v, &end, 10);
    if (errno != 0 || *end != '\0' || x < lo || x > hi)
        return false;
    *out = x;
    return true;
}

/* Splits v at ',' into exactly n fields (written into fields, pointing into buf). */
static bool split_fields(const char *v, char *buf, size_t cap, char **fields, int n)
{
    if (strlen(v) >= cap)
        return false;
    strcpy(buf, v);
    char *p = buf;
    for (int i = 0; i < n; i++) {
        fields[i] = p;
        char *comma = strchr(p, ',');
        if (i + 1 < n) {
            if (!comma)
                return false;
            *comma = '\0';
            p = comma + 1;
        } else if (comma) {
            return false;
        }
    }
    return true;
}

static Status read_castle(const KotvConfig *c, const char *key, const char *v, uint8_t *real,
                          uint8_t *jesters, ErrBuf *err)
{
    Item items[KOTV_MAX_KINDS + KOTV_COLUMNS];
    const int n = split_items(v, items, KOTV_MAX_KINDS + KOTV_COLUMNS);
    if (n < 0)
        return err_set(err, STATUS_PARSE, "%s: a castle is a list like Q,2NA,JF or '-'", key);
    for (int i = 0; i < n; i++) {
        const int code = kotv_read_castle_code(c, items[i].code, items[i].len);
        if (code < 0)
            return err_set(err, STATUS_PARSE, "%s: '%.*s' is not a subject of this tile table "
                           "(jesters are JQ JD JC JN JF JW)", key, (int)items[i].len,
                           items[i].code);
        uint8_t *slot = code < KOTV_MAX_KINDS ? &real[code] : &jesters[code - KOTV_MAX_KINDS];
        if (*slot + items[i].count > KOTV_MAX_PER_KIND)
            return err_set(err, STATUS_PARSE, "%s: too many tiles", key);
        *slot = (uint8_t)(*slot + items[i].count);
    }
    return STATUS_OK;
}

enum {
    KEY_PLAYERS,
    KEY_FIRST,
    KEY_TURN,
    KEY_TURNS,
    KEY_PHASE,
    KEY_END,
    KEY_VALLEY,
    KEY_KINGS,
    KEY_HILL,
    KEY_PILE1,
    KEY_PILE2,
    KEY_PILE3,
    KEY_GOLD,
    KEY_CROWNS,
    KEY_TAXED,
    KEY_HOLES,
    KEY_PENDING,
    KEY_UP,                           /* up1..up4 */
    KEY_DOWN = KEY_UP + MAX_PLAYERS,  /* down1..down4 */
    KEY_COUNT = KEY_DOWN + MAX_PLAYERS,
};

static const char *const KEY_NAMES[KEY_UP] = {
    "players", "first", "turn",   "turns", "phase",  "end",   "valley", "kings", "hill",
    "pile1",   "pile2", "pile3",  "gold",  "crowns", "taxed", "holes",  "pending",
};

static int key_index(const char *key, size_t len)
{
    for (int i = 0; i < KEY_UP; i++)
        if (strlen(KEY_NAMES[i]) == len && strncmp(KEY_NAMES[i], key, len) == 0)
            return i;
    if (len == 3 && strncmp(key, "up", 2) == 0 && key[2] >= '1' && key[2] <= '4')
        return KEY_UP + key[2] - '1';
    if (len == 5 && strncmp(key, "down", 4) == 0 && key[4] >= '1' && key[4] <= '4')
        return KEY_DOWN + key[4] - '1';
    return -1;
}

static Status read_valley(const KotvConfig *c, const char *v, KotvState *t, ErrBuf *err)
{
    const char *p = v;
    for (int rank = KOTV_SIZE - 1; rank >= 0; rank--) {
        for (int f = 0; f < KOTV_SIZE; f++) {
            const int sq = rank * KOTV_SIZE + f;
            const char *end = p;
            while (*end && *end != ',' && *end != '/' && *end != '+')
                end++;
            const size_t len = (size_t)(end - p);
            if (len == 1 && *p == '-') {
                t->valley[sq] = 0;
            } else {
                const int k = kotv_find_kind(c, p, len);
                if (k < 0)
                    return err_set(err, STATUS_PARSE, "valley %c%d: '%.*s' is not a tile of this "
                                   "table ('-' for an empty square)", 'a' + f, rank + 1,
                                   (int)(len > 10 ? 10 : len), p);
                t->valley[sq] = (uint8_t)(k + 1);
            }
            p = end;
            if (*p == '+') {
                int coins = 0;
                p++;
                if (!isdigit((unsigned char)*p))
                    return err_set(err, STATUS_PARSE, "valley %c%d: '+' must be followed by the "
                                   "coins lying there", 'a' + f, rank + 1);
                while (isdigit((unsigned char)*p) && coins < 1000)
                    coins = coins * 10 + (*p++ - '0');
                if (coins < 1 || coins > 99)
                    return err_set(err, STATUS_PARSE, "valley %c%d: coins from 1 to 99",
                                   'a' + f, rank + 1);
                t->coins[sq] = (uint8_t)coins;
            }
            const char want = f + 1 < KOTV_SIZE ? ',' : rank > 0 ? '/' : '\0';
            if (*p != want)
                return err_set(err, STATUS_PARSE, "valley: five ranks (5 down to 1) of five "
                               "squares, squares separated by ',' and ranks by '/'");
            if (*p)
                p++;
        }
    }
    return STATUS_OK;
}

static Status read_hill(const KotvConfig *c, const char *v, KotvState *t, ErrBuf *err)
{
    char buf[256];
    char *cols[2];
    if (strlen(v) >= sizeof buf)
        return err_set(err, STATUS_PARSE, "hill: too long");
    strcpy(buf, v);
    char *slash = strchr(buf, '/');
    if (slash == NULL || strchr(slash + 1, '/'))
        return err_set(err, STATUS_PARSE, "hill: the left column, '/', the right column (each "
                       "bottom first, ',' between tiles, '-' if empty)");
    *slash = '\0';
    cols[0] = buf;
    cols[1] = slash + 1;
    for (int h = 0; h < KOTV_HILL_COLS; h++) {
        Item items[KOTV_HILL_ROWS + 1];
        const int n = split_items(cols[h], items, KOTV_HILL_ROWS + 1);
        if (n < 0 || n > KOTV_HILL_ROWS)
            return err_set(err, STATUS_PARSE, "hill: a column holds up to six tiles, listed "
                           "bottom first");
        for (int r = 0; r < n; r++) {
            const int k = items[r].count == 1 ? kotv_find_kind(c, items[r].code, items[r].len) : -1;
            if (k < 0)
                return err_set(err, STATUS_PARSE, "hill %c%d: not a tile of this table",
                               "LR"[h], r + 1);
            t->hill[h][r] = (uint8_t)(k + 1);
        }
        t->hill_n[h] = (uint8_t)n;
    }
    return STATUS_OK;
}

static Status read_pending(const KotvConfig *c, const char *v, KotvState *t, ErrBuf *err)
{
    Item items[8];
    const int n = split_items(v, items, 8);
    if (n < 0)
        return err_set(err, STATUS_PARSE, "pending: a list of tiles waiting (J, Z, T3:5) or '-'");
    for (int i = 0; i < n; i++) {
        const int k = kotv_find_kind(c, items[i].code, items[i].len);
        const int ch = k >= 0 ? c->kind[k].ch : -1;
        if (ch == KCH_JESTER && items[i].count <= 3) {
            t->pend_jester = (uint8_t)(t->pend_jester + items[i].count);
        } else if (ch == KCH_WIZARD && items[i].count <= 3) {
            t->pend_wizard = (uint8_t)(t->pend_wizard + items[i].count);
        } else if (ch == KCH_TAX && c->kind[k].req > 0 &&
                   t->npend_tax + items[i].count <= KOTV_MAX_PEND_TAX) {
            for (int j = 0; j < items[i].count; j++) {
                int at = t->npend_tax++;
                while (at > 0 && t->pend_tax[at - 1] > k) {
                    t->pend_tax[at] = t->pend_tax[at - 1];
                    at--;
                }
                t->pend_tax[at] = (uint8_t)k;
            }
        } else {
            return err_set(err, STATUS_PARSE, "pending: '%.*s' cannot be waiting (jesters, "
                           "wizards, tax collectors with a need; at most three each)",
                           (int)(items[i].len > 10 ? 10 : items[i].len), items[i].code);
        }
    }
    if (t->pend_jester > 3 || t->pend_wizard > 3)
        return err_set(err, STATUS_PARSE, "pending: at most three of each");
    return STATUS_OK;
}

static Status read_field(const KotvConfig *c, int key, const char *name, const char *v,
                         KotvState *t, ErrBuf *err)
{
    const int n = c->players;
    char buf[256];
    char *f[MAX_PLAYERS];
    long x;
    switch (key) {
    case KEY_PLAYERS:
        if (!read_number(v, 2, 4, &x))
            return err_set(err, STATUS_PARSE, "players: 2, 3 or 4");
        if (x != n)
            return err_set(err, STATUS_PARSE, "the position is for %ld players, this game for %d "
                           "(rule players)", x, n);
        t->players = (uint8_t)n;
        return STATUS_OK;
    case KEY_FIRST:
    case KEY_TURN:
        if (!read_number(v, 1, n, &x))
            return err_set(err, STATUS_PARSE, "%s: a player from 1 to %d", name, n);
        *(key == KEY_FIRST ? &t->first : &t->turn) = (uint8_t)(x - 1);
        return STATUS_OK;
    case KEY_TURNS:
        if (!read_number(v, 0, (long)c->max_rounds * n, &x))
            return err_set(err, STATUS_PARSE, "turns: the turns played, from 0 to %d (max-rounds "
                           "times players)", c->max_rounds * n);
        t->turns = (uint16_t)x;
        return STATUS_OK;
    case KEY_PHASE:
        for (int ph = 0; ph < KPH_COUNT; ph++)
            if (strcmp(v, kotv_phase_names[ph]) == 0) {
                t->phase = (uint8_t)ph;
                return STATUS_OK;
            }
        return err_set(err, STATUS_PARSE, "phase: place, recruit, summon, kingdom, refill, draw or "
                       "over");
    case KEY_END:
        if (!read_number(v, 0, 1, &x))
            return err_set(err, STATUS_PARSE, "end: 1 once the end is triggered, else 0");
        t->end_triggered = (uint8_t)x;
        return STATUS_OK;
    case KEY_VALLEY:
        return read_valley(c, v, t, err);
    case KEY_KINGS:
        if (!split_fields(v, buf, sizeof buf, f, n))
            return err_set(err, STATUS_PARSE, "kings: %d squares (or '-'), one per player", n);
        for (int p = 0; p < n; p++) {
            const char *q = f[p];
            int sq = strcmp(q, "-") == 0 ? KOTV_NO_SQUARE : kotv_read_square(&q);
            if (sq < 0 || (sq != KOTV_NO_SQUARE && *q))
                return err_set(err, STATUS_PARSE, "kings: '%.10s' is not a square", f[p]);
            t->pl[p].king = (uint8_t)sq;
        }
        return STATUS_OK;
    case KEY_HILL:
        return read_hill(c, v, t, err);
    case KEY_PILE1:
    case KEY_PILE2:
    case KEY_PILE3: {
        Item items[KOTV_MAX_KINDS];
        const int m = split_items(v, items, KOTV_MAX_KINDS);
        if (m < 0)
            return err_set(err, STATUS_PARSE, "%s: a list like Q,2D,T3:5 or '-'", name);
        for (int i = 0; i < m; i++) {
            const int k = kotv_find_kind(c, items[i].code, items[i].len);
            uint8_t *slot = &t->pile[key - KEY_PILE1][k < 0 ? 0 : k];
            if (k < 0 || *slot + items[i].count > KOTV_MAX_PER_KIND)
                return err_set(err, STATUS_PARSE, "%s: '%.*s' is not a tile of this table or is "
                               "listed too often", name,
                               (int)(items[i].len > 10 ? 10 : items[i].len), items[i].code);
            *slot = (uint8_t)(*slot + items[i].count);
        }
        return STATUS_OK;
    }
    case KEY_GOLD:
    case KEY_CROWNS:
        if (!split_fields(v, buf, sizeof buf, f, n))
            return err_set(err, STATUS_PARSE, "%s: %d whole numbers, one per player", name, n);
        for (int p = 0; p < n; p++) {
            if (!read_number(f[p], 0, key == KEY_GOLD ? 9999 : 99, &x))
                return err_set(err, STATUS_PARSE, "%s: '%.10s' is not a whole number in range",
                               name, f[p]);
            if (key == KEY_GOLD)
                t->pl[p].gold = (uint16_t)x;
            else
                t->pl[p].crowns = (uint8_t)x;
        }
        return STATUS_OK;
    case KEY_TAXED:
        if (!split_fields(v, buf, sizeof buf, f, n))
            return err_set(err, STATUS_PARSE, "taxed: %d entries, one per player", n);
        for (int p = 0; p < n; p++) {
            if (strcmp(f[p], "-") == 0)
                continue;
            for (const char *q = f[p]; *q; q++) {
                const int col = isupper((unsigned char)*q) ? kotv_column_of_letter(*q) : -1;
                if (col < 0 || ((t->pl[p].taxed >> col) & 1u))
                    return err_set(err, STATUS_PARSE, "taxed: the columns taxed by each player, "
                                   "letters from QDCNFW, or '-'");
                t->pl[p].taxed = (uint8_t)(t->pl[p].taxed | (1u << col));
            }
        }
        return STATUS_OK;
    case KEY_HOLES: {
        if (strcmp(v, "-") == 0)
            return STATUS_OK;
        const char *q = v;
        for (;;) {
            const int sq = kotv_read_square(&q);
            if (sq < 0 || t->nholes == KOTV_MAX_HOLES)
                return err_set(err, STATUS_PARSE, "holes: the squares emptied this turn in path "
                               "order, or '-'");
            t->holes[t->nholes++] = (uint8_t)sq;
            if (*q == '\0')
                return STATUS_OK;
            if (*q++ != ',')
                return err_set(err, STATUS_PARSE, "holes: squares separated by ','");
        }
    }
    case KEY_PENDING:
        return read_pending(c, v, t, err);
    default:
        if (key >= KEY_UP && key < KEY_DOWN)
            return read_castle(c, name, v, t->pl[key - KEY_UP].up, t->pl[key - KEY_UP].jup, err);
        return read_castle(c, name, v, t->pl[key - KEY_DOWN].down, t->pl[key - KEY_DOWN].jdown,
                           err);
    }
}

Status kotv_parse_position(const KotvConfig *c, KotvState *out, const char *text, ErrBuf *err)
{
    const size_t len = strlen(text);
    if (len > 8192)
        return err_set(err, STATUS_PARSE, "the position text is too long");
    char *copy = malloc(len + 1);
    KotvState *t = calloc(1, sizeof *t);
    if (copy == NULL || t == NULL) {
        free(copy);
        free(t);
        return err_set(err, STATUS_NOMEM, "out of memory");
    }
    memcpy(copy, text, len + 1);
    for (int p = 0; p < MAX_PLAYERS; p++)
        t->pl[p].king = KOTV_NO_SQUARE;
    t->players = (uint8_t)c->players;
    bool seen[KEY_COUNT] = {false};
    Status st = STATUS_OK;
    char *save = NULL;
    int tokens = 0;
    for (char *tok = strtok_r(copy, " \t\r\n", &save); tok && st == STATUS_OK;
         tok = strtok_r(NULL, " \t\r\n", &save)) {
        tokens++;
        char *eq = strchr(tok, '=');
        const int key = eq ? key_index(tok, (size_t)(eq - tok)) : -1;
        if (key < 0 || ((key >= KEY_UP + c->players && key < KEY_DOWN) ||
                        key >= KEY_DOWN + c->players)) {
            st = err_set(err, STATUS_PARSE, "'%.20s' is not a field of the position (fields are "
                         "name=value: players first turn turns phase end valley kings hill "
                         "pile1-3 gold crowns taxed up1.. down1.. holes pending)", tok);
            break;
        }
        if (seen[key]) {
            st = err_set(err, STATUS_PARSE, "field '%.*s' is given twice", (int)(eq - tok), tok);
            break;
        }
        seen[key] = true;
        *eq = '\0';
        st = read_field(c, key, tok, eq + 1, t, err);
    }
    if (st == STATUS_OK && tokens == 0)
        st = err_set(err, STATUS_PARSE, "empty position text: write name=value fields as "
                     "`crown play` shows them");
    for (int k = 0; k < KEY_COUNT && st == STATUS_OK; k++) {
        const bool needed = k < KEY_UP || (k >= KEY_UP && k < KEY_UP + c->players) ||
                            (k >= KEY_DOWN && k < KEY_DOWN + c->players);
        if (needed && !seen[k]) {
            char name[16];
            if (k < KEY_UP)
                snprintf(name, sizeof name, "%s", KEY_NAMES[k]);
            else if (k < KEY_DOWN)
                snprintf(name, sizeof name, "up%d", k - KEY_UP + 1);
            else
                snprintf(name, sizeof name, "down%d", k - KEY_DOWN + 1);
            st = err_set(err, STATUS_PARSE, "the position lacks the field '%s'", name);
        }
    }
    if (st == STATUS_OK && t->phase == KPH_PLACE) {
        for (int sq = 0; sq < KOTV_CELLS; sq++)
            if (t->valley[sq] == 0)
                st = err_set(err, STATUS_PARSE, "while kings are placed the valley is full");
        if (st == STATUS_OK && (t->nholes || t->pend_jester || t->pend_wizard || t->npend_tax))
            st = err_set(err, STATUS_PARSE, "nothing is pending while kings are placed");
    }
    if (st == STATUS_OK && !kotv_check(c, t, false, err))
        st = STATUS_PARSE;
    if (st == STATUS_OK) {
        kotv_settle(c, t, NULL);
        t->hash = kotv_compute_hash(t);
        if (!kotv_check(c, t, true, err))
            st = STATUS_PARSE;
    }
    if (st == STATUS_OK)
        *out = *t;
    free(copy);
    free(t);
    return st;
}
