/*
 * kd_notation.c - King Down text: positions (FEN, extended), actions (long algebraic and
 * SAN) and the terminal drawing.
 *
 * Position text: the six FEN fields, so that every chess FEN reads unchanged (the clocks
 * may be left out), then, only when needed, extra words `name:value`:
 *   moved:b2,g7        pawns on their own second rank that may not step twice
 *   chain:d5/1         a beast that has captured (once) this turn and may go on
 *   stage:declared     Freeze or Ice Wall declared, the move follows
 *   stage:haste1       Haste declared; stage:haste2/e4: the piece on e4 moves again
 *   token:spent        this turn has spent a token (it may not give check)
 *   irrev:1            this turn has captured or moved a pawn (for the 50-move count)
 *   armies:frost/flame powers:freeze/strike tokens:2/1   (armies=on; '-' = not chosen)
 *   captured:QPp       pieces captured so far (for Sacrifice), white upper case
 *   frozen:e7 iced:d2  the pieces under Freeze and Ice Wall (frozen:e7,f7 for several,
 *                      with tokens-per-turn=any)
 * Letters: P N B R Q K as in chess, A archer, L paladin, G guard, M maester, E beast.
 *
 * Actions in long algebraic: e2e4, e7e8q (promotion; e7e8 alone declines it where that is
 * allowed), O-O and O-O-O, b2*c3 (a shot: the archer or a Death Touch king captures
 * without moving), d1~e2 (maester swap; d8~e7q when the pawn promotes), e4d5, (a beast
 * capture after which the beast captures again: the comma says the turn goes on), the
 * choices frost ... shadow and a power name, and the powers freeze:e7, ice-wall:d2,
 * haste, strike:d1h5, flight:b1e4, sacrifice:e2q, march:e2e4, leap:d1d5.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/kingdown/kd_internal.h"

const char kd_letters[KD_TYPES] = {' ', 'P', 'N', 'B', 'R', 'Q', 'K', 'A', 'L', 'G', 'M', 'E'};

int kd_type_of_letter(char ch)
{
    for (int t = 1; t < KD_TYPES; t++)
        if (kd_letters[t] == ch)
            return t;
    return KD_EMPTY;
}

void kd_format_square(int sq, StrBuf *out)
{
    sb_printf(out, "%c%d", 'a' + kd_file(sq), kd_rank(sq) + 1);
}

static int read_square(const char *s)
{
    if (s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8')
        return -1;
    return (s[1] - '1') * 8 + (s[0] - 'a');
}

/* --- position text --------------------------------------------------------------------- */

enum { MAX_TOKENS = 24, TEXT_CAP = 600 };

static int army_of_name(const char *s)
{
    for (int a = 1; a < KD_ARMIES; a++)
        if (strcmp(kd_army_info[a].name, s) == 0)
            return a;
    return strcmp(s, "-") == 0 ? KD_ARMY_NONE : -1;
}

static int power_of_name(const char *s)
{
    for (int q = 1; q < KD_POWERS; q++)
        if (strcmp(kd_power_info[q].name, s) == 0)
            return q;
    return strcmp(s, "-") == 0 ? KD_POW_NONE : -1;
}

/* Splits "a/b" into two words (in place). */
static bool split_pair(char *v, char **a, char **b)
{
    char *slash = strchr(v, '/');
    if (slash == NULL || strchr(slash + 1, '/') != NULL)
        return false;
    *slash = '\0';
    *a = v;
    *b = slash + 1;
    return **a != '\0' && **b != '\0';
}

static bool read_count(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    if (!isdigit((unsigned char)s[0]))
        return false;
    const long v = strtol(s, &end, 10);
    if (errno != 0 || *end != '\0' || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

static Status parse_castling(const KdConfig *c, KdPos *t, const char *f, ErrBuf *err)
{
    if (strcmp(f, "-") == 0)
        return STATUS_OK;
    for (const char *q = f; *q; q++) {
        const int colour = isupper((unsigned char)*q) ? 0 : 1;
        const char ch = (char)toupper((unsigned char)*q);
        const int rank0 = colour == 0 ? 0 : 56;
        const int ksq = t->king[colour];
        if ((ksq & 56) != rank0)
            return err_set(err, STATUS_PARSE, "castling right '%c' but that king is not on its first rank", *q);
        int rsq = -1;
        if (ch == 'K' || ch == 'Q') {
            // The outermost rook on that side of the king.
            for (int fl = 0; fl < 8; fl++) {
                const int sq = rank0 + fl;
                if (t->board[sq] != (KD_ROOK | colour << 4))
                    continue;
                if (ch == 'Q' && sq < ksq && rsq < 0)
                    rsq = sq;
                if (ch == 'K' && sq > ksq)
                    rsq = sq;
            }
        } else if (ch >= 'A' && ch <= 'H') {
            rsq = rank0 + (ch - 'A');
            if (t->board[rsq] != (KD_ROOK | colour << 4))
                rsq = -1;
        } else {
            return err_set(err, STATUS_PARSE,
                           "castling rights are '-' or letters from KQkq (or rook files A-H, a-h), not '%.20s'",
                           f);
        }
        if (rsq < 0 || rsq == ksq)
            return err_set(err, STATUS_PARSE, "castling right '%c' names no rook of that side", *q);
        if (c->castling)
            t->castle |= kd_bit(rsq);
    }
    return STATUS_OK;
}

/* The words after the FEN fields. */
static Status parse_extension(const KdConfig *c, KdPos *t, char *word, bool *have_tokens,
                              ErrBuf *err)
{
    char *colon = strchr(word, ':');
    if (colon == NULL || colon == word || colon[1] == '\0')
        return err_set(err, STATUS_PARSE, "unexpected '%.30s' after the FEN fields (extra words are name:value)",
                       word);
    *colon = '\0';
    const char *name = word;
    char *v = colon + 1;
    const int us = t->turn;
    if (strcmp(name, "moved") == 0) {
        char *save = NULL;
        for (char *sqs = strtok_r(v, ",", &save); sqs; sqs = strtok_r(NULL, ",", &save)) {
            const int sq = strlen(sqs) == 2 ? read_square(sqs) : -1;
            if (sq < 0 || kd_type_at(t, sq) != KD_PAWN ||
                kd_rel_rank(kd_colour_at(t, sq), sq) != 1)
                return err_set(err, STATUS_PARSE, "moved: lists pawns on their own second rank, not '%.10s'", sqs);
            t->moved |= kd_bit(sq);
        }
        return STATUS_OK;
    }
    if (strcmp(name, "chain") == 0) {
        char *a, *b;
        long n;
        const int sq = split_pair(v, &a, &b) && strlen(a) == 2 ? read_square(a) : -1;
        if (sq < 0 || !read_count(b, 1, c->chain_limit - 1, &n) ||
            t->board[sq] != (KD_BEAST | us << 4))
            return err_set(err, STATUS_PARSE,
                           "chain: is the square of a beast of the side to move and its captures so far, below the chain limit, like chain:d5/1");
        t->chain_sq = (uint8_t)sq;
        t->chain_n = (uint8_t)n;
        return STATUS_OK;
    }
    if (strcmp(name, "stage") == 0) {
        if (strcmp(v, "declared") == 0) {
            t->stage = KD_STAGE_DECLARED;
        } else if (strcmp(v, "haste1") == 0) {
            t->stage = KD_STAGE_HASTE1;
        } else if (strncmp(v, "haste2/", 7) == 0 && strlen(v) == 9 && read_square(v + 7) >= 0 &&
                   t->board[read_square(v + 7)] != KD_EMPTY &&
                   kd_colour_at(t, read_square(v + 7)) == us) {
            t->stage = KD_STAGE_HASTE2;
            t->haste_sq = (uint8_t)read_square(v + 7);
        } else {
            return err_set(err, STATUS_PARSE, "stage: is declared, haste1 or haste2/<square of the hasted piece>");
        }
        return STATUS_OK;
    }
    if (strcmp(name, "token") == 0 && strcmp(v, "spent") == 0) {
        t->token_used = 1;
        return STATUS_OK;
    }
    if (strcmp(name, "irrev") == 0 && strcmp(v, "1") == 0) {
        t->irrev = 1;
        return STATUS_OK;
    }
    if (!c->armies)
        return err_set(err, STATUS_PARSE, "'%s:' is not a position word here (armies are off: --rule armies=on)",
                       name);
    if (strcmp(name, "armies") == 0 || strcmp(name, "powers") == 0) {
        char *a, *b;
        if (!split_pair(v, &a, &b))
            return err_set(err, STATUS_PARSE, "%s: takes white/black, like %s", name,
                           name[0] == 'a' ? "armies:frost/flame" : "powers:freeze/strike");
        const bool armies = name[0] == 'a';
        const int x = armies ? army_of_name(a) : power_of_name(a);
        const int y = armies ? army_of_name(b) : power_of_name(b);
        if (x < 0 || y < 0)
            return err_set(err, STATUS_PARSE, "unknown %s in '%s/%s'", armies ? "king" : "power", a, b);
        uint8_t *dst = armies ? t->army : t->power;
        dst[0] = (uint8_t)x;
        dst[1] = (uint8_t)y;
        return STATUS_OK;
    }
    if (strcmp(name, "tokens") == 0) {
        char *a, *b;
        long x, y;
        if (!split_pair(v, &a, &b) || !read_count(a, 0, 7, &x) || !read_count(b, 0, 7, &y))
            return err_set(err, STATUS_PARSE, "tokens: takes white/black counts, like tokens:2/1");
        t->tokens[0] = (uint8_t)x;
        t->tokens[1] = (uint8_t)y;
        *have_tokens = true;
        return STATUS_OK;
    }
    if (strcmp(name, "captured") == 0) {
        for (const char *q = v; *q; q++) {
            const int type = kd_type_of_letter((char)toupper((unsigned char)*q));
            const int colour = isupper((unsigned char)*q) ? 0 : 1;
            if (type == KD_EMPTY || type == KD_KING || t->captured[colour][type] >= 15)
                return err_set(err, STATUS_PARSE, "captured: lists piece letters (not kings), not '%c'", *q);
            t->captured[colour][type]++;
        }
        return STATUS_OK;
    }
    if (strcmp(name, "frozen") == 0 || strcmp(name, "iced") == 0) {
        uint64_t *mask = name[0] == 'f' ? &t->frozen : &t->iced;
        char *save = NULL;
        for (char *sqs = strtok_r(v, ",", &save); sqs; sqs = strtok_r(NULL, ",", &save)) {
            const int sq = strlen(sqs) == 2 ? read_square(sqs) : -1;
            if (sq < 0 || t->board[sq] == KD_EMPTY || kd_type_at(t, sq) == KD_KING)
                return err_set(err, STATUS_PARSE,
                               "%s: names squares of pieces other than kings, not '%.10s'", name, sqs);
            *mask |= kd_bit(sq);
        }
        if (!c->tokens_any && (*mask & (*mask - 1)))
            return err_set(err, STATUS_PARSE,
                           "%s: names one piece (several need --rule tokens-per-turn=any)", name);
        return STATUS_OK;
    }
    return err_set(err, STATUS_PARSE, "unknown position word '%.20s:'", name);
}

/* Checks what the extension words set against each other and the rules. */
static Status check_armies(const KdConfig *c, KdPos *t, bool have_tokens, ErrBuf *err)
{
    if (!c->armies) {
        t->phase = KD_PHASE_PLAY;
        if (t->stage != KD_STAGE_START || t->token_used || t->frozen || t->iced)
            return err_set(err, STATUS_PARSE, "powers are not in play (armies=off)");
        return STATUS_OK;
    }
    if (t->army[0] != KD_ARMY_NONE && t->army[0] == t->army[1])
        return err_set(err, STATUS_PARSE, "the two players need different kings");
    const int first = c->first_picker, second = first ^ 1;
    if ((t->army[first] == KD_ARMY_NONE && (t->army[second] | t->power[0] | t->power[1])) ||
        (t->army[second] == KD_ARMY_NONE && (t->power[0] | t->power[1])) ||
        (t->power[first] == KD_POW_NONE && t->power[second])) {
        const char *f = first ? "black" : "white", *s = first ? "white" : "black";
        return err_set(err, STATUS_PARSE,
                       "choices come in order: %s's king, %s's king, %s's power, %s's power", f, s,
                       f, s);
    }
    for (int col = 0; col < 2; col++) {
        const int pw = t->power[col];
        const KdArmyInfo *a = &kd_army_info[t->army[col]];
        if (pw != KD_POW_NONE && a->powers[0] != pw && a->powers[1] != pw)
            return err_set(err, STATUS_PARSE, "%s is not a power of king %s", kd_power_info[pw].name,
                           a->name);
        if (!have_tokens)
            t->tokens[col] = kd_power_info[pw].tokens;
        if (t->tokens[col] > kd_power_info[pw].tokens)
            return err_set(err, STATUS_PARSE, "%s has only %d tokens", kd_power_info[pw].name,
                           kd_power_info[pw].tokens);
    }
    t->phase = (uint8_t)kd_choice_phase(t);
    const int us = t->turn;
    if (t->phase != KD_PHASE_PLAY &&
        (t->stage != KD_STAGE_START || t->chain_sq != KD_NO_SQ || t->frozen || t->iced ||
         t->token_used))
        return err_set(err, STATUS_PARSE, "nothing happens on the board before the armies are chosen");
    if ((t->stage == KD_STAGE_DECLARED &&
         t->power[us] != KD_FREEZE && t->power[us] != KD_ICE_WALL) ||
        ((t->stage == KD_STAGE_HASTE1 || t->stage == KD_STAGE_HASTE2) &&
         t->power[us] != KD_HASTE))
        return err_set(err, STATUS_PARSE, "that stage needs the side to move to hold that power");
    if (t->stage != KD_STAGE_START)
        t->token_used = 1;
    // Freeze is on an enemy of the Freeze player, Ice Wall on one of his own pieces.
    for (int k = 0; k < 2; k++) {
        const uint64_t marked = k == 0 ? t->frozen : t->iced;
        const int power = k == 0 ? KD_FREEZE : KD_ICE_WALL;
        if (!marked)
            continue;
        const int owner = t->power[0] == power ? 0 : t->power[1] == power ? 1 : -1;
        const int target = k == 0 ? owner ^ 1 : owner;
        if (owner < 0 || (marked & ~t->side[target]))
            return err_set(err, STATUS_PARSE, "%s: needs a player with %s and a piece of the right side",
                           k == 0 ? "frozen" : "iced", kd_power_info[power].name);
    }
    return STATUS_OK;
}

Status kd_parse_fen(const KdConfig *c, KdPos *out, const char *text, ErrBuf *err)
{
    const size_t len = strlen(text);
    if (len >= TEXT_CAP)
        return err_set(err, STATUS_PARSE, "position text too long (%zu characters)", len);
    char buf[TEXT_CAP];
    memcpy(buf, text, len + 1);
    char *words[MAX_TOKENS];
    int nw = 0;
    char *save = NULL;
    for (char *w = strtok_r(buf, " \t\r\n", &save); w; w = strtok_r(NULL, " \t\r\n", &save)) {
        if (nw == MAX_TOKENS)
            return err_set(err, STATUS_PARSE, "too many words in the position text");
        words[nw++] = w;
    }
    if (nw < 2)
        return err_set(err, STATUS_PARSE,
                       "a position is a FEN: board, side to move, castling, en passant, clocks, "
                       "e.g. 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'");
    KdPos t;
    memset(&t, 0, sizeof t);
    t.ep = t.chain_sq = t.haste_sq = KD_NO_SQ;
    int kings[2] = {0, 0};
    const char *p = words[0];
    for (int rank = 7; rank >= 0; rank--) {
        int file = 0;
        while (*p && *p != '/') {
            const char ch = *p++;
            if (ch >= '1' && ch <= '8') {
                file += ch - '0';
                if (file > 8)
                    break;
                continue;
            }
            const int type = kd_type_of_letter((char)toupper((unsigned char)ch));
            if (type == KD_EMPTY || !isalpha((unsigned char)ch))
                return err_set(err, STATUS_PARSE,
                               "'%c' is not a piece (P N B R Q K A L G M E, lower case for black)",
                               isprint((unsigned char)ch) ? ch : '?');
            if (file >= 8)
                break;
            const int colour = isupper((unsigned char)ch) ? 0 : 1;
            if (type == KD_KING)
                kings[colour]++;
            t.board[rank * 8 + file] = (uint8_t)(type | colour << 4);
            file++;
        }
        if (file != 8)
            return err_set(err, STATUS_PARSE, "rank %d does not describe 8 squares", rank + 1);
        if (rank > 0) {
            if (*p != '/')
                return err_set(err, STATUS_PARSE, "the board needs 8 ranks separated by '/'");
            p++;
        }
    }
    if (*p != '\0')
        return err_set(err, STATUS_PARSE, "the board has more than 8 ranks");
    for (int col = 0; col < 2; col++)
        if (kings[col] != 1)
            return err_set(err, STATUS_PARSE, "%s needs exactly one king, not %d",
                           col ? "black" : "white", kings[col]);
    // Rebuild the bitboards from the mailbox.
    for (int sq = 0; sq < 64; sq++) {
        const uint8_t v = t.board[sq];
        if (v == KD_EMPTY)
            continue;
        t.board[sq] = KD_EMPTY;
        kd_put(c, &t, sq, v >> 4, v & 15);
    }
    if (strcmp(words[1], "w") == 0)
        t.turn = 0;
    else if (strcmp(words[1], "b") == 0)
        t.turn = 1;
    else
        return err_set(err, STATUS_PARSE, "the side to move is w or b, not '%.10s'", words[1]);
    t.fullmove = 1;
    int next = 2;
    if (nw > 2) {
        Status st = parse_castling(c, &t, words[2], err);
        if (st != STATUS_OK)
            return st;
        next = 3;
    }
    int ep = -1;
    if (nw > 3) {
        if (strcmp(words[3], "-") != 0) {
            ep = strlen(words[3]) == 2 ? read_square(words[3]) : -1;
            // After a March (march-en-passant=on) the square may be on any rank.
            const int need_rank = t.turn == 0 ? 5 : 2;
            const int behind = t.turn == 0 ? ep - 8 : ep + 8;
            if (ep < 0 || (kd_rank(ep) != need_rank && !c->march_ep) || behind < 0 ||
                behind > 63 || t.board[ep] != KD_EMPTY ||
                t.board[behind] != (KD_PAWN | (t.turn ^ 1) << 4))
                return err_set(err, STATUS_PARSE,
                               "en passant square '%.10s' is not behind a pawn that just stepped twice",
                               words[3]);
        }
        next = 4;
    }
    if (nw > 4 && strchr(words[4], ':') == NULL) {
        long half, full;
        if (nw < 6 || !read_count(words[4], 0, 65535, &half) ||
            !read_count(words[5], 1, 65535, &full))
            return err_set(err, STATUS_PARSE,
                           "the clocks are two whole numbers: the 50-move count and the move number");
        t.halfmove = (uint16_t)half;
        t.fullmove = (uint16_t)full;
        next = 6;
    }
    bool have_tokens = false;
    for (int i = next; i < nw; i++) {
        Status st = parse_extension(c, &t, words[i], &have_tokens, err);
        if (st != STATUS_OK)
            return st;
    }
    Status st = check_armies(c, &t, have_tokens, err);
    if (st != STATUS_OK)
        return st;
    if (ep >= 0) {
        // Kept only when a capture could follow (so equal positions print alike).
        const int mover = t.turn;
        t.turn ^= 1;
        if (kd_ep_possible(c, &t, ep))
            t.ep = (uint8_t)ep;
        t.turn = (uint8_t)mover;
    }
    if (kd_turn_start(&t) && kd_in_check(c, &t, t.turn ^ 1))
        return err_set(err, STATUS_ILLEGAL, "the side that just moved is in check");
    t.hash = kd_compute_hash(c, &t);
    *out = t;
    return STATUS_OK;
}

static void put_castling(const KdPos *p, StrBuf *out)
{
    bool any = false;
    for (int colour = 0; colour < 2; colour++) {
        const int rank0 = colour == 0 ? 0 : 56;
        const int ksq = p->king[colour];
        int outer_low = -1, outer_high = -1;
        for (int f = 0; f < 8; f++) {
            const int sq = rank0 + f;
            if (p->board[sq] != (KD_ROOK | colour << 4))
                continue;
            if (sq < ksq && outer_low < 0)
                outer_low = sq;
            if (sq > ksq)
                outer_high = sq;
        }
        // h-side rights first, then a-side, as in KQkq.
        for (int side = 0; side < 2; side++) {
            for (int f = 7; f >= 0; f--) {
                const int sq = rank0 + f;
                if (!(p->castle & kd_bit(sq)) || (side == 0) != (sq > ksq))
                    continue;
                char ch;
                if (sq == (side == 0 ? outer_high : outer_low))
                    ch = side == 0 ? 'K' : 'Q';
                else
                    ch = (char)('A' + f);
                sb_putc(out, colour == 0 ? ch : (char)tolower((unsigned char)ch));
                any = true;
            }
        }
    }
    if (!any)
        sb_putc(out, '-');
}

/* A position word listing squares, comma-separated ("moved:b2,g7"); none when empty. */
static void format_squares(uint64_t squares, const char *word, StrBuf *out)
{
    if (!squares)
        return;
    sb_puts(out, word);
    for (uint64_t b = squares; b;) {
        kd_format_square(bits_pop(&b), out);
        if (b)
            sb_putc(out, ',');
    }
}

void kd_format_fen(const KdConfig *c, const KdPos *p, StrBuf *out)
{
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            const int sq = rank * 8 + file;
            if (p->board[sq] == KD_EMPTY) {
                empty++;
                continue;
            }
            if (empty)
                sb_putc(out, (char)('0' + empty));
            empty = 0;
            const char ch = kd_letters[kd_type_at(p, sq)];
            sb_putc(out, kd_colour_at(p, sq) == 0 ? ch : (char)tolower((unsigned char)ch));
        }
        if (empty)
            sb_putc(out, (char)('0' + empty));
        if (rank > 0)
            sb_putc(out, '/');
    }
    sb_puts(out, p->turn == 0 ? " w " : " b ");
    put_castling(p, out);
    sb_putc(out, ' ');
    if (p->ep == KD_NO_SQ)
        sb_putc(out, '-');
    else
        kd_format_square(p->ep, out);
    sb_printf(out, " %d %d", p->halfmove, p->fullmove);
    format_squares(p->moved, " moved:", out);
    if (p->chain_sq != KD_NO_SQ) {
        sb_puts(out, " chain:");
        kd_format_square(p->chain_sq, out);
        sb_printf(out, "/%d", p->chain_n);
    }
    if (p->stage == KD_STAGE_DECLARED)
        sb_puts(out, " stage:declared");
    else if (p->stage == KD_STAGE_HASTE1)
        sb_puts(out, " stage:haste1");
    else if (p->stage == KD_STAGE_HASTE2) {
        sb_puts(out, " stage:haste2/");
        kd_format_square(p->haste_sq, out);
    }
    if (p->token_used && p->stage == KD_STAGE_START)
        sb_puts(out, " token:spent");
    if (p->irrev)
        sb_puts(out, " irrev:1");
    if (c->armies) {
        sb_printf(out, " armies:%s/%s", p->army[0] ? kd_army_info[p->army[0]].name : "-",
                  p->army[1] ? kd_army_info[p->army[1]].name : "-");
        if (p->power[0] != KD_POW_NONE || p->power[1] != KD_POW_NONE) {
            sb_printf(out, " powers:%s/%s", p->power[0] ? kd_power_info[p->power[0]].name : "-",
                      p->power[1] ? kd_power_info[p->power[1]].name : "-");
            sb_printf(out, " tokens:%d/%d", p->tokens[0], p->tokens[1]);
        }
        bool any = false;
        for (int col = 0; col < 2; col++)
            for (int type = 1; type < KD_TYPES; type++)
                for (int k = 0; k < p->captured[col][type]; k++) {
                    if (!any)
                        sb_puts(out, " captured:");
                    any = true;
                    const char ch = kd_letters[type];
                    sb_putc(out, col == 0 ? ch : (char)tolower((unsigned char)ch));
                }
        format_squares(p->frozen, " frozen:", out);
        format_squares(p->iced, " iced:", out);
    }
}

/* --- actions --------------------------------------------------------------------------- */

static void put_promo(Move m, StrBuf *out, bool san)
{
    const int promo = kd_promo(m);
    if (promo == KD_EMPTY)
        return;
    if (san)
        sb_printf(out, "=%c", kd_letters[promo]);
    else
        sb_putc(out, (char)tolower((unsigned char)kd_letters[promo]));
}

static const char *power_word(int kind)
{
    switch (kind) {
    case KD_MV_FREEZE:
        return "freeze";
    case KD_MV_ICE_WALL:
        return "ice-wall";
    case KD_MV_STRIKE:
        return "strike";
    case KD_MV_HASTE:
        return "haste";
    case KD_MV_FLIGHT:
        return "flight";
    case KD_MV_SACRIFICE:
        return "sacrifice";
    case KD_MV_MARCH:
        return "march";
    case KD_MV_LEAP:
        return "leap";
    default:
        return "?";
    }
}

static void format_pick(const KdConfig *c, const KdPos *p, Move m, StrBuf *out)
{
    if (p->phase == KD_PHASE_PICK_KING)
        sb_puts(out, kd_army_info[kd_to(m)].name);
    else
        sb_puts(out, kd_power_info[kd_army_info[p->army[kd_picker(c, p)]].powers[kd_to(m)]].name);
}

/* Long algebraic writes castling as the king's own step (e1g1), as UCI does, unless
 * that text could be read as another action: a king that castles less than two
 * squares (another set-up), or a king with a power to step there itself. */
static void format_castle_long(const KdConfig *c, const KdPos *p, Move m, StrBuf *out)
{
    const int from = kd_from(m), to = kd_to(m);
    const int kdest = (from & 56) + (to > from ? 6 : 2);
    bool plain = abs(kdest - from) >= 2;
    if (plain) {
        Move moves[KD_MAX_MOVES];
        const int n = kd_gen_legal(c, p, moves);
        for (int i = 0; i < n && plain; i++)
            plain = moves[i] == m || kd_from(moves[i]) != from || kd_to(moves[i]) != kdest;
    }
    if (plain) {
        kd_format_square(from, out);
        kd_format_square(kdest, out);
    } else {
        sb_puts(out, to > from ? "O-O" : "O-O-O");
    }
}

void kd_format_long(const KdConfig *c, const KdPos *p, Move m, StrBuf *out)
{
    (void)c;
    const int from = kd_from(m), to = kd_to(m), kind = kd_kind(m);
    switch (kind) {
    case KD_MV_PICK:
        format_pick(c, p, m, out);
        return;
    case KD_MV_CASTLE:
        format_castle_long(c, p, m, out);
        return;
    case KD_MV_FREEZE:
    case KD_MV_ICE_WALL:
        sb_printf(out, "%s:", power_word(kind));
        kd_format_square(to, out);
        return;
    case KD_MV_HASTE:
        sb_puts(out, "haste");
        return;
    case KD_MV_SACRIFICE:
        sb_puts(out, "sacrifice:");
        kd_format_square(from, out);
        put_promo(m, out, false);
        return;
    case KD_MV_STRIKE:
    case KD_MV_FLIGHT:
    case KD_MV_MARCH:
    case KD_MV_LEAP:
        sb_printf(out, "%s:", power_word(kind));
        break;
    default:
        break;
    }
    kd_format_square(from, out);
    if (kind == KD_MV_SHOT)
        sb_putc(out, '*');
    else if (kind == KD_MV_SWAP)
        sb_putc(out, '~');
    kd_format_square(to, out);
    put_promo(m, out, false);
    if (kd_more(m))
        sb_putc(out, ',');
}

/* The piece that acts, for SAN. */
static int mover_type(const KdPos *p, Move m)
{
    return kd_type_at(p, kd_from(m));
}

void kd_format_san(const KdConfig *c, const KdPos *p, Move m, StrBuf *out)
{
    const int from = kd_from(m), to = kd_to(m), kind = kd_kind(m);
    switch (kind) {
    case KD_MV_CASTLE:
        sb_puts(out, to > from ? "O-O" : "O-O-O");
        break;
    case KD_MV_PICK:
    case KD_MV_FREEZE:
    case KD_MV_ICE_WALL:
    case KD_MV_HASTE:
    case KD_MV_SACRIFICE:
    case KD_MV_STRIKE:
    case KD_MV_FLIGHT:
    case KD_MV_MARCH:
    case KD_MV_LEAP:
        // Powers keep their long form: it names the piece, and is short anyway.
        kd_format_long(c, p, m, out);
        break;
    default: {
        const int type = mover_type(p, m);
        const bool capture = kind == KD_MV_EP ||
                             (kind != KD_MV_SWAP && p->board[to] != KD_EMPTY);
        if (type == KD_PAWN && kind != KD_MV_SWAP) {
            // The file it comes from whenever it changes file or captures (a Darkness
            // pawn steps diagonally and captures straight ahead).
            if (capture || kd_file(from) != kd_file(to))
                sb_putc(out, (char)('a' + kd_file(from)));
            if (capture)
                sb_putc(out, 'x');
            kd_format_square(to, out);
            put_promo(m, out, true);
        } else {
            sb_putc(out, kd_letters[type]);
            // Disambiguation among the legal actions of the same kind and piece type.
            Move moves[KD_MAX_MOVES];
            const int n = kd_gen_legal(c, p, moves);
            bool clash = false, same_file = false, same_rank = false;
            for (int i = 0; i < n; i++) {
                const Move o = moves[i];
                if (kd_from(o) == from || kd_to(o) != to || kd_kind(o) != kind ||
                    mover_type(p, o) != type || kd_promo(o) != kd_promo(m) ||
                    kd_more(o) != kd_more(m))
                    continue;
                clash = true;
                same_file |= kd_file(kd_from(o)) == kd_file(from);
                same_rank |= kd_rank(kd_from(o)) == kd_rank(from);
            }
            if (clash) {
                if (!same_file)
                    sb_putc(out, (char)('a' + kd_file(from)));
                else if (!same_rank)
                    sb_putc(out, (char)('1' + kd_rank(from)));
                else
                    kd_format_square(from, out);
            }
            if (kind == KD_MV_SHOT)
                sb_putc(out, '*');
            else if (kind == KD_MV_SWAP)
                sb_putc(out, '~');
            else if (capture)
                sb_putc(out, 'x');
            kd_format_square(to, out);
            put_promo(m, out, true);
        }
        if (kd_more(m))
            sb_putc(out, ',');
        break;
    }
    }
    if (kind == KD_MV_PICK)
        return;
    KdPos q = *p;
    kd_apply(c, &q, m);
    if (q.turn != p->turn && kd_in_check(c, &q, q.turn))
        sb_putc(out, kd_has_legal(c, &q) ? '+' : '#');
}

/* Text compared without decoration: no check marks, no '=' before a promotion. */
static void normalise(const char *in, char *out, size_t cap, bool lower)
{
    size_t n = 0;
    for (const char *q = in; *q && n + 1 < cap; q++) {
        char ch = *q;
        if (ch == '+' || ch == '#' || ch == '!' || ch == '?' || ch == '=' || ch == ' ')
            continue;
        if (ch == '0')
            ch = 'O'; // 0-0 castles like O-O
        if (lower)
            ch = (char)tolower((unsigned char)ch);
        out[n++] = ch;
    }
    out[n] = '\0';
}

enum { MOVE_TEXT_CAP = 48 };

/* The action among moves[0..n) written `in` (long algebraic in any case, SAN, other
 * spellings of castling and swaps); false if none. */
static bool find_action(const KdConfig *c, const KdPos *p, const char *in, const Move *moves,
                        int n, Move *out)
{
    char want[MOVE_TEXT_CAP], want_low[MOVE_TEXT_CAP];
    normalise(in, want, sizeof want, false);
    normalise(in, want_low, sizeof want_low, true);
    // Pass 0: long algebraic (any case); pass 1: SAN (case matters: b is a file, B a
    // bishop); pass 2: other spellings of castling and swaps.
    for (int pass = 0; pass < 3; pass++) {
        for (int i = 0; i < n; i++) {
            StrBuf sb;
            sb_init(&sb);
            const int kind = kd_kind(moves[i]);
            if (pass == 0) {
                kd_format_long(c, p, moves[i], &sb);
            } else if (pass == 1) {
                // SAN names the destination: skip actions whose square is not in the text.
                char dest[3] = {(char)('a' + kd_file(kd_to(moves[i]))),
                                (char)('1' + kd_rank(kd_to(moves[i]))), '\0'};
                if (strstr(in, dest) == NULL) {
                    sb_free(&sb);
                    continue;
                }
                kd_format_san(c, p, moves[i], &sb);
            } else if (kind == KD_MV_CASTLE) {
                // O-O, king to its destination, or king onto its rook (UCI, Chess960).
                const int from = kd_from(moves[i]), to = kd_to(moves[i]);
                const int kdest = (from & 56) + (to > from ? 6 : 2);
                char a[32], b[32]; // room for any int, so that -O0 builds see no truncation
                snprintf(a, sizeof a, "%c%d%c%d", 'a' + kd_file(from), kd_rank(from) + 1,
                         'a' + kd_file(kdest), kd_rank(kdest) + 1);
                snprintf(b, sizeof b, "%c%d%c%d", 'a' + kd_file(from), kd_rank(from) + 1,
                         'a' + kd_file(to), kd_rank(to) + 1);
                char fa[16], fb[16];
                normalise(a, fa, sizeof fa, true);
                normalise(b, fb, sizeof fb, true);
                const char *castle = to > from ? "o-o" : "o-o-o";
                if ((strcmp(fa, want_low) == 0 && from != kdest) || strcmp(fb, want_low) == 0 ||
                    strcmp(castle, want_low) == 0) {
                    sb_free(&sb);
                    *out = moves[i];
                    return true;
                }
            } else if (kind == KD_MV_SWAP) {
                // d1e2 for d1~e2: a maester "moving" onto a friend swaps with it.
                kd_format_long(c, p, moves[i], &sb);
                char *mark = strchr(sb.data, '~');
                if (mark)
                    memmove(mark, mark + 1, strlen(mark));
            }
            char got[MOVE_TEXT_CAP];
            normalise(sb_str(&sb), got, sizeof got, pass != 1);
            sb_free(&sb);
            if (pass != 1 && got[0] && strcmp(got, want_low) == 0) {
                *out = moves[i];
                return true;
            }
            if (pass == 1 && strcmp(got, want) == 0) {
                *out = moves[i];
                return true;
            }
        }
    }
    return false;
}

Status kd_parse_move(const KdConfig *c, const KdPos *p, const char *text, Move *out, ErrBuf *err)
{
    while (isspace((unsigned char)*text))
        text++;
    size_t len = strlen(text);
    while (len > 0 && isspace((unsigned char)text[len - 1]))
        len--;
    if (len == 0)
        return err_set(err, STATUS_PARSE, "empty move");
    if (len >= MOVE_TEXT_CAP)
        return err_set(err, STATUS_PARSE, "'%.20s...' is too long for a move", text);
    char in[MOVE_TEXT_CAP];
    memcpy(in, text, len);
    in[len] = '\0';
    for (size_t i = 0; i < len; i++)
        if (!isprint((unsigned char)in[i]))
            return err_set(err, STATUS_PARSE, "a move is plain text; this one has a control character");
    Move moves[KD_MAX_MOVES];
    const int n = kd_gen_legal(c, p, moves);
    if (find_action(c, p, in, moves, n, out))
        return STATUS_OK;
    if (p->phase != KD_PHASE_PLAY)
        return err_set(err, STATUS_ILLEGAL, "'%s' is not a choice here: %s",
                       in, p->phase == KD_PHASE_PICK_KING
                               ? "pick a king: frost, flame, stratus, mud, spirit or shadow"
                               : "pick one of your king's two powers");
    Move pseudo[KD_MAX_MOVES], m;
    if (find_action(c, p, in, pseudo, kd_gen_pseudo(c, p, pseudo), &m))
        return err_set(err, STATUS_ILLEGAL, "'%s' is not legal here: %s", in,
                       kd_illegal_reason(c, p, m));
    if (n == 0)
        return err_set(err, STATUS_ILLEGAL, "there is no legal move here");
    if (p->chain_sq != KD_NO_SQ)
        return err_set(err, STATUS_ILLEGAL,
                       "'%s' is not legal: the beast on %c%d is in a capture chain and may only capture again (like %c%d..., a trailing comma to go on)",
                       in, 'a' + kd_file(p->chain_sq), kd_rank(p->chain_sq) + 1,
                       'a' + kd_file(p->chain_sq), kd_rank(p->chain_sq) + 1);
    const char *power = kd_power_info[p->power[p->turn]].name;
    if (p->stage == KD_STAGE_DECLARED && strncmp(in, power, strlen(power)) == 0)
        return err_set(err, STATUS_ILLEGAL,
                       c->tokens_any
                           ? "'%s' is not legal: no token left, or that piece is already under the power"
                           : "'%s' is not legal: one token per turn, and this turn has spent one "
                             "(--rule tokens-per-turn=any allows more)",
                       in);
    const int from = len >= 2 ? read_square(in) : -1;
    if (from >= 0 && len >= 4 && read_square(in + 2) >= 0) {
        if (p->board[from] == KD_EMPTY)
            return err_set(err, STATUS_ILLEGAL, "'%s': there is no piece on %.2s", in, in);
        if (kd_colour_at(p, from) != p->turn)
            return err_set(err, STATUS_ILLEGAL, "'%s': the piece on %.2s is not yours", in, in);
        return err_set(err, STATUS_ILLEGAL,
                       "'%s' is not a legal move here (the piece cannot go there, or your king would be left in check)",
                       in);
    }
    return err_set(err, STATUS_PARSE,
                   "'%s' is not a legal move; write moves like e2e4, e7e8q, O-O, b2*c3 (shot), "
                   "d1~e2 (swap), e4d5, (a capture after which the beast goes on) or in SAN (Nf3)",
                   in);
}

Status kd_parse_actions(const KdConfig *c, const KdPos *p, const char *text, Move *out, int cap,
                        int *count, ErrBuf *err)
{
    const size_t len = strlen(text);
    if (len >= 512)
        return err_set(err, STATUS_PARSE, "turn text too long");
    char buf[512];
    memcpy(buf, text, len + 1);
    KdPos q = *p;
    Move acts[KD_TURN_ACTIONS];
    int n = 0;
    char *save = NULL;
    for (char *part = strtok_r(buf, ";", &save); part; part = strtok_r(NULL, ";", &save)) {
        while (isspace((unsigned char)*part))
            part++;
        if (*part == '\0')
            continue;
        // "e4d5,c6,b7": a beast's chain, each link after the first written by its target.
        char *link = part;
        while (link != NULL) {
            char *comma = strchr(link, ',');
            if (comma)
                *comma = '\0';
            while (isspace((unsigned char)*link))
                link++;
            char one[MOVE_TEXT_CAP + 8];
            if (strlen(link) == 2 && q.chain_sq != KD_NO_SQ)
                snprintf(one, sizeof one, "%c%d%s%s", 'a' + kd_file(q.chain_sq),
                         kd_rank(q.chain_sq) + 1, link, comma ? "," : "");
            else
                snprintf(one, sizeof one, "%.*s%s", MOVE_TEXT_CAP, link, comma ? "," : "");
            if (one[0] == ',' || one[0] == '\0')
                break;
            if (n == KD_TURN_ACTIONS || n == cap)
                return err_set(err, STATUS_PARSE, "too many actions in one text");
            if (n > 0 && q.turn != p->turn)
                return err_set(err, STATUS_ILLEGAL, "'%s' comes after the turn has passed", one);
            Move m;
            Status st = kd_parse_move(c, &q, one, &m, err);
            if (st != STATUS_OK)
                return st;
            acts[n++] = m;
            kd_apply(c, &q, m);
            link = comma && comma[1] != '\0' ? comma + 1 : NULL;
        }
    }
    if (n == 0)
        return err_set(err, STATUS_PARSE, "no move given");
    memcpy(out, acts, sizeof acts[0] * (size_t)n);
    *count = n;
    return STATUS_OK;
}

/* --- drawing ---------------------------------------------------------------------------- */

void kd_render(const KdConfig *c, const KdState *s, unsigned flags, StrBuf *out)
{
    const KdPos *p = &s->pos;
    const bool color = flags & RENDER_COLOR, flip = flags & RENDER_FLIPPED;
    const char *files = flip ? "   h g f e d c b a\n" : "   a b c d e f g h\n";
    sb_puts(out, files);
    for (int row = 0; row < 8; row++) {
        const int rank = flip ? row : 7 - row;
        sb_printf(out, "%d ", rank + 1);
        for (int col = 0; col < 8; col++) {
            const int file = flip ? 7 - col : col;
            const int sq = rank * 8 + file;
            sb_putc(out, ' ');
            if (p->board[sq] == KD_EMPTY) {
                if (color)
                    sb_puts(out, ANSI_DIM);
                sb_puts(out, (flags & RENDER_UNICODE) ? "\u00b7" : ".");
            } else {
                const int colour = kd_colour_at(p, sq);
                const char ch = kd_letters[kd_type_at(p, sq)];
                if (color)
                    sb_puts(out, colour == 0 ? ANSI_FIRST : ANSI_SECOND);
                sb_putc(out, colour == 0 ? ch : (char)tolower((unsigned char)ch));
            }
            if (color)
                sb_puts(out, ANSI_RESET);
        }
        sb_printf(out, "  %d\n", rank + 1);
    }
    sb_puts(out, files);
    sb_puts(out, "P pawn  N knight  B bishop  R rook  Q queen  K king  A archer  L paladin  "
                 "G guard  M maester  E beast\n");
    bool known = false;
    for (int f = 0; f < 8; f++)
        known |= s->start_rank[f] != 0;
    if (known)
        sb_printf(out, "set-up %llu (--rule setup=%llu)\n",
                  (unsigned long long)kd_setup_id(s->start_rank),
                  (unsigned long long)kd_setup_id(s->start_rank));
    if (c->armies) {
        for (int col = 0; col < 2; col++)
            sb_printf(out, "%s: king %s, power %s, %d token%s\n", col ? "Black" : "White",
                      p->army[col] ? kd_army_info[p->army[col]].name : "(to choose)",
                      p->power[col] ? kd_power_info[p->power[col]].name : "(to choose)",
                      p->tokens[col], p->tokens[col] == 1 ? "" : "s");
    }
    StrBuf fen;
    sb_init(&fen);
    kd_format_fen(c, p, &fen);
    sb_printf(out, "%s\n", sb_str(&fen));
    sb_free(&fen);
    if (p->chain_sq != KD_NO_SQ)
        sb_printf(out, "The beast on %c%d may capture again.\n", 'a' + kd_file(p->chain_sq),
                  kd_rank(p->chain_sq) + 1);
    if (s->result == KD_PLAYING && kd_turn_start(p) && kd_in_check(c, p, p->turn))
        sb_printf(out, "%s is in check.\n", p->turn ? "Black" : "White");
}
