/*
 * kotv_tiles.c - the components as data: the built-in table (R-KOTV-1 to
 * R-KOTV-3) and the reader of a table file (--rule tiles=FILE), which share one parser.
 *
 * A table is a text of lines, '#' starting a comment:
 *
 *   I Q 1            pile (I, II or III), tile code, how many
 *   II T4:7 1        tax collector: identical subjects needed, then gold
 *   prices 2 3 4 6 8 10
 *   kingdom-tokens 6
 *   tax-tokens 6
 *   influence Q 5    influence of a subject character (Q D C N F W J)
 *
 * Tile codes: Q queen, D duke, C countess, NA NB NC ND knights of orders A-D, F farmer,
 * W farmer's wife, J jester, P priest, Z wizard, T<need>:<gold> tax collector.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/kingofthevalley/kotv_internal.h"

static const char DEFAULT_TABLE[] =
    "# R-KOTV-1 to R-KOTV-3 (invented defaults: the printed table is not public)\n"
    "I Q 1\nI D 2\nI C 3\nI NA 2\nI NB 2\nI NC 2\nI ND 1\nI F 8\nI W 4\nI P 1\n"
    "I T0:3 1\nI T0:4 1\nI T3:5 1\n"
    "II Q 1\nII D 2\nII C 3\nII NA 1\nII NB 1\nII NC 2\nII ND 2\nII F 8\nII W 4\nII J 1\n"
    "II P 1\nII Z 1\nII T3:6 1\nII T4:7 1\nII T4:8 1\n"
    "III Q 1\nIII D 2\nIII C 3\nIII NA 2\nIII NB 2\nIII NC 1\nIII ND 2\nIII F 8\nIII W 4\n"
    "III J 2\nIII P 1\nIII Z 1\nIII T5:9 1\nIII T5:10 1\n"
    "prices 2 3 4 6 8 10\n"
    "kingdom-tokens 6\n"
    "tax-tokens 6\n";

static const int DEFAULT_INFLUENCE[KCH_COUNT] = {5, 4, 3, 2, 1, 1, 0, 0, 0, 0};
static const int DEFAULT_PRICES[KOTV_HILL_ROWS] = {2, 3, 4, 6, 8, 10};

enum { LINE_CAP = 256, FILE_CAP = 1 << 16 };

/* A tile as read, before kinds are numbered. */
typedef struct RawKind {
    uint8_t ch, order, req, gold;
} RawKind;

static int raw_cmp(const RawKind *a, const RawKind *b)
{
    if (a->ch != b->ch)
        return a->ch - b->ch;
    if (a->order != b->order)
        return a->order - b->order;
    if (a->req != b->req)
        return a->req - b->req;
    return a->gold - b->gold;
}

static void kind_code(const RawKind *r, char out[8])
{
    static const char letters[] = "QDCNFWJPZT";
    if (r->ch == KCH_KNIGHT)
        snprintf(out, 8, "N%c", 'A' + r->order);
    else if (r->ch == KCH_TAX)
        snprintf(out, 8, "T%d:%d", r->req % 10, r->gold % 100);
    else
        snprintf(out, 8, "%c", letters[r->ch]);
}

/* Reads a tile code; false if it is not one. */
static bool read_code(const char *w, RawKind *out)
{
    memset(out, 0, sizeof *out);
    static const char letters[] = "QDCNFWJPZ";
    if (w[0] == 'T') {
        const char *p = w + 1;
        if (!isdigit((unsigned char)*p))
            return false;
        int req = 0, gold = 0;
        while (isdigit((unsigned char)*p) && req < 100)
            req = req * 10 + (*p++ - '0');
        if (*p++ != ':' || !isdigit((unsigned char)*p))
            return false;
        while (isdigit((unsigned char)*p) && gold < 1000)
            gold = gold * 10 + (*p++ - '0');
        if (*p != '\0' || req > 9 || gold > 99)
            return false;
        out->ch = KCH_TAX;
        out->req = (uint8_t)req;
        out->gold = (uint8_t)gold;
        return true;
    }
    if (w[0] == 'N') {
        if (w[1] < 'A' || w[1] >= 'A' + KOTV_ORDERS || w[2] != '\0')
            return false;
        out->ch = KCH_KNIGHT;
        out->order = (uint8_t)(w[1] - 'A');
        return true;
    }
    const char *hit = w[0] ? strchr(letters, w[0]) : NULL;
    if (hit == NULL || w[1] != '\0')
        return false;
    out->ch = (uint8_t)(hit - letters);
    return true;
}

static bool read_int(const char *w, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(w, &end, 10);
    if (errno != 0 || end == w || *end != '\0' || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

int kotv_find_kind(const KotvConfig *c, const char *code, size_t len)
{
    for (int k = 0; k < c->nkinds; k++)
        if (strlen(c->kind[k].code) == len && strncmp(c->kind[k].code, code, len) == 0)
            return k;
    return -1;
}

/* Splits a line into at most 8 words in place; returns the count (9 = too many). */
static int split_words(char *line, char *words[8])
{
    int n = 0;
    char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '\0')
            return n;
        if (n == 8)
            return 9;
        words[n++] = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
        if (*p)
            *p++ = '\0';
    }
}

/* A table being read: tiles by (raw kind, stage) in the order first seen. */
typedef struct Reading {
    RawKind raw[KOTV_MAX_KINDS];
    int count[KOTV_MAX_KINDS][KOTV_STAGES];
    int line_of[KOTV_MAX_KINDS][KOTV_STAGES];
    int nraw;
    int prices[KOTV_HILL_ROWS];
    int crowns, taxes;
    int influence[KCH_COUNT];
    int line_prices, line_crowns, line_taxes, line_influence[KCH_COUNT];
} Reading;

static Status read_line(Reading *r, char *line, int lineno, ErrBuf *err)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    char *w[8];
    const int n = split_words(line, w);
    if (n == 0)
        return STATUS_OK;
    if (n > 8)
        return err_set(err, STATUS_PARSE, "line %d: too many words", lineno);
    long v;
    if (strcmp(w[0], "prices") == 0) {
        if (r->line_prices)
            return err_set(err, STATUS_PARSE, "line %d: prices were already given on line %d",
                           lineno, r->line_prices);
        if (n != 1 + KOTV_HILL_ROWS)
            return err_set(err, STATUS_PARSE,
                           "line %d: 'prices' takes the six hill row prices, bottom row first",
                           lineno);
        for (int i = 0; i < KOTV_HILL_ROWS; i++) {
            if (!read_int(w[1 + i], 0, 99, &v))
                return err_set(err, STATUS_PARSE, "line %d: price '%.20s' is not a whole number "
                               "from 0 to 99", lineno, w[1 + i]);
            r->prices[i] = (int)v;
        }
        r->line_prices = lineno;
        return STATUS_OK;
    }
    if (strcmp(w[0], "kingdom-tokens") == 0 || strcmp(w[0], "tax-tokens") == 0) {
        const bool crowns = w[0][0] == 'k';
        int *line_seen = crowns ? &r->line_crowns : &r->line_taxes;
        if (*line_seen)
            return err_set(err, STATUS_PARSE, "line %d: %s was already given on line %d", lineno,
                           w[0], *line_seen);
        if (n != 2 || !read_int(w[1], 0, 99, &v))
            return err_set(err, STATUS_PARSE, "line %d: '%s' takes one whole number from 0 to 99",
                           lineno, w[0]);
        *(crowns ? &r->crowns : &r->taxes) = (int)v;
        *line_seen = lineno;
        return STATUS_OK;
    }
    if (strcmp(w[0], "influence") == 0) {
        static const char letters[] = "QDCNFWJ";
        const char *hit = n == 3 && w[1][0] && w[1][1] == '\0' ? strchr(letters, w[1][0]) : NULL;
        if (hit == NULL || !read_int(w[2], 0, 99, &v))
            return err_set(err, STATUS_PARSE, "line %d: write 'influence <Q|D|C|N|F|W|J> <0-99>'",
                           lineno);
        const int ch = (int)(hit - letters);
        if (r->line_influence[ch])
            return err_set(err, STATUS_PARSE, "line %d: influence of %c was already given on line "
                           "%d", lineno, *hit, r->line_influence[ch]);
        r->influence[ch] = (int)v;
        r->line_influence[ch] = lineno;
        return STATUS_OK;
    }
    int stage;
    if (strcmp(w[0], "I") == 0)
        stage = 0;
    else if (strcmp(w[0], "II") == 0)
        stage = 1;
    else if (strcmp(w[0], "III") == 0)
        stage = 2;
    else
        return err_set(err, STATUS_PARSE, "line %d: '%.20s' is neither a pile (I, II, III) nor "
                       "prices, kingdom-tokens, tax-tokens or influence", lineno, w[0]);
    if (n != 3)
        return err_set(err, STATUS_PARSE, "line %d: a tile line is '<pile> <tile> <count>', "
                       "e.g. 'II NA 2'", lineno);
    RawKind rk;
    if (!read_code(w[1], &rk))
        return err_set(err, STATUS_PARSE, "line %d: unknown tile '%.20s' (tiles: Q D C NA NB NC "
                       "ND F W J P Z, T<need>:<gold> with need 0-9 and gold 0-99)", lineno, w[1]);
    if (!read_int(w[2], 1, KOTV_MAX_PER_KIND, &v))
        return err_set(err, STATUS_PARSE, "line %d: count '%.20s' is not a whole number from 1 "
                       "to %d", lineno, w[2], KOTV_MAX_PER_KIND);
    int k = 0;
    while (k < r->nraw && raw_cmp(&r->raw[k], &rk) != 0)
        k++;
    if (k == r->nraw) {
        if (r->nraw == KOTV_MAX_KINDS)
            return err_set(err, STATUS_PARSE, "line %d: more than %d different tiles", lineno,
                           KOTV_MAX_KINDS);
        r->raw[r->nraw++] = rk;
    }
    if (r->line_of[k][stage])
        return err_set(err, STATUS_PARSE, "line %d: pile %s %s was already given on line %d",
                       lineno, w[0], w[1], r->line_of[k][stage]);
    r->line_of[k][stage] = lineno;
    r->count[k][stage] = (int)v;
    return STATUS_OK;
}

static int cmp_index(const int *a, const int *b, const Reading *r)
{
    return raw_cmp(&r->raw[*a], &r->raw[*b]);
}

Status kotv_tiles_parse(KotvConfig *c, const char *text, ErrBuf *err)
{
    Reading *r = calloc(1, sizeof *r);
    char *copy = malloc(strlen(text) + 1);
    if (r == NULL || copy == NULL) {
        free(r);
        free(copy);
        return err_set(err, STATUS_NOMEM, "out of memory");
    }
    strcpy(copy, text);
    memcpy(r->prices, DEFAULT_PRICES, sizeof r->prices);
    memcpy(r->influence, DEFAULT_INFLUENCE, sizeof r->influence);
    r->crowns = 6;
    r->taxes = 6;
    Status st = STATUS_OK;
    int lineno = 0;
    char *p = copy;
    while (*p && st == STATUS_OK) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = '\0';
        lineno++;
        size_t len = strlen(p);
        if (len > 0 && p[len - 1] == '\r')
            p[--len] = '\0';
        if (len >= LINE_CAP)
            st = err_set(err, STATUS_PARSE, "line %d: longer than %d characters", lineno,
                         LINE_CAP - 1);
        else
            st = read_line(r, p, lineno, err);
        if (!nl)
            break;
        p = nl + 1;
    }
    int stage_total[KOTV_STAGES] = {0, 0, 0};
    if (st == STATUS_OK) {
        for (int k = 0; k < r->nraw; k++)
            for (int s = 0; s < KOTV_STAGES; s++)
                stage_total[s] += r->count[k][s];
        const int total = stage_total[0] + stage_total[1] + stage_total[2];
        if (total > KOTV_MAX_TILES)
            st = err_set(err, STATUS_PARSE, "the table has %d tiles; at most %d are allowed", total,
                         KOTV_MAX_TILES);
        else if (stage_total[0] < KOTV_CELLS)
            st = err_set(err, STATUS_PARSE, "pile I has %d tiles, but the valley needs %d",
                         stage_total[0], KOTV_CELLS);
        else if (total < KOTV_CELLS + KOTV_HILL_COLS * KOTV_HILL_ROWS)
            st = err_set(err, STATUS_PARSE, "the table has %d tiles, but the valley and the hill "
                         "need %d", total, KOTV_CELLS + KOTV_HILL_COLS * KOTV_HILL_ROWS);
    }
    if (st == STATUS_OK) {
        // Number the kinds in a canonical order: by character, order, need, gold.
        int idx[KOTV_MAX_KINDS];
        for (int k = 0; k < r->nraw; k++)
            idx[k] = k;
        for (int i = 1; i < r->nraw; i++)
            for (int j = i; j > 0 && cmp_index(&idx[j - 1], &idx[j], r) > 0; j--) {
                int t = idx[j];
                idx[j] = idx[j - 1];
                idx[j - 1] = t;
            }
        c->nkinds = r->nraw;
        memset(c->kind, 0, sizeof c->kind);
        memset(c->stage_count, 0, sizeof c->stage_count);
        for (int i = 0; i < KCH_COUNT; i++)
            c->char_kind[i] = -1;
        for (int o = 0; o < KOTV_ORDERS; o++)
            c->knight_kind[o] = -1;
        for (int i = 0; i < r->nraw; i++) {
            const RawKind *rk = &r->raw[idx[i]];
            KotvKind *kd = &c->kind[i];
            kd->ch = rk->ch;
            kd->order = rk->order;
            kd->req = rk->req;
            kd->gold = rk->gold;
            kd->influence = (int8_t)(kotv_char_is_subject(rk->ch) ? r->influence[rk->ch] : 0);
            kind_code(rk, kd->code);
            c->kind_total[i] = 0;
            for (int s = 0; s < KOTV_STAGES; s++) {
                c->stage_count[s][i] = (uint8_t)r->count[idx[i]][s];
                c->kind_total[i] += r->count[idx[i]][s];
            }
            if (rk->ch == KCH_KNIGHT)
                c->knight_kind[rk->order] = i;
            else if (rk->ch != KCH_TAX)
                c->char_kind[rk->ch] = i;
        }
        c->jester_kind = c->char_kind[KCH_JESTER];
        memset(c->col_nkinds, 0, sizeof c->col_nkinds);
        memset(c->kind_col, -1, sizeof c->kind_col);
        for (int k = 0; k < c->nkinds; k++) {
            const int ch = c->kind[k].ch;
            if (ch < KOTV_COLUMNS) {
                c->kind_col[k] = (int8_t)ch;
                c->col_kind[ch][c->col_nkinds[ch]++] = (int8_t)k;
            }
        }
        memcpy(c->prices, r->prices, sizeof c->prices);
        for (int i = 0; i < KCH_COUNT; i++)
            c->influence[i] = kotv_char_is_subject(i) ? r->influence[i] : 0;
        c->crown_supply = r->crowns;
        c->tax_supply = r->taxes;
    }
    free(copy);
    free(r);
    return st;
}

Status kotv_tiles_default(KotvConfig *c, ErrBuf *err)
{
    return kotv_tiles_parse(c, DEFAULT_TABLE, err);
}

Status kotv_tiles_load(KotvConfig *c, const char *path, ErrBuf *err)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return err_set(err, STATUS_IO, "cannot open tiles file '%.100s'", path);
    char *buf = malloc(FILE_CAP + 1);
    if (buf == NULL) {
        fclose(f);
        return err_set(err, STATUS_NOMEM, "out of memory");
    }
    size_t n = fread(buf, 1, FILE_CAP + 1, f);
    const bool bad = ferror(f) != 0;
    fclose(f);
    if (bad || n > FILE_CAP) {
        free(buf);
        return err_set(err, STATUS_IO, bad ? "cannot read tiles file '%.100s'"
                                           : "tiles file '%.100s' is larger than 64 KiB",
                       path);
    }
    buf[n] = '\0';
    if (memchr(buf, '\0', n) != NULL) {
        free(buf);
        return err_set(err, STATUS_PARSE, "tiles file '%.100s' is not text", path);
    }
    ErrBuf inner;
    err_clear(&inner);
    Status st = kotv_tiles_parse(c, buf, &inner);
    free(buf);
    if (st != STATUS_OK)
        return err_set(err, st, "tiles file '%.60s': %s", path, inner.msg);
    return STATUS_OK;
}

void kotv_build_geometry(KotvConfig *c)
{
    static const int df[KOTV_DIRS] = {0, 1, 1, 1, 0, -1, -1, -1};
    static const int dr[KOTV_DIRS] = {1, 1, 0, -1, -1, -1, 0, 1};
    for (int d = 0; d < KOTV_DIRS; d++)
        for (int sq = 0; sq < KOTV_CELLS; sq++) {
            int f = sq % KOTV_SIZE + df[d], r = sq / KOTV_SIZE + dr[d], n = 0;
            memset(c->ray[d][sq], -1, sizeof c->ray[d][sq]);
            while (f >= 0 && f < KOTV_SIZE && r >= 0 && r < KOTV_SIZE) {
                c->ray[d][sq][n++] = (int8_t)(r * KOTV_SIZE + f);
                f += df[d];
                r += dr[d];
            }
            c->ray_len[d][sq] = (int8_t)n;
        }
}
