/*
 * proof_check.c - the independent check of a written strategy: plain legal-move
 * generation, the game's make and its result, and the file, nothing else.
 */
#include "solve/proof_check.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "core/strbuf.h"

typedef struct Reader {
    FILE *in;
    long line;
    char buf[PROOF_LINE_CAP];
} Reader;

/* The next line without its newline; false at the end of the file or on a line too long. */
static bool next_line(Reader *r)
{
    if (!fgets(r->buf, sizeof r->buf, r->in))
        return false;
    r->line++;
    size_t n = strlen(r->buf);
    if (n == 0 || r->buf[n - 1] != '\n')
        return !feof(r->in) ? false : true;
    r->buf[n - 1] = '\0';
    return true;
}

/* The rest of the line after "word ", or NULL. */
static const char *after(const char *line, const char *word)
{
    const size_t n = strlen(word);
    return strncmp(line, word, n) == 0 && line[n] == ' ' ? line + n + 1 : NULL;
}

static bool copy(char *dst, size_t cap, const char *src)
{
    if (strlen(src) >= cap)
        return false;
    strcpy(dst, src);
    return true;
}

Status proof_read_header(FILE *in, ProofHeader *h, ErrBuf *err)
{
    Reader r = {.in = in};
    memset(h, 0, sizeof *h);
    h->winner = -1;
    if (!next_line(&r) || strcmp(r.buf, "crown-proof 1") != 0)
        return err_set(err, STATUS_PARSE, "not a crown proof file (no 'crown-proof 1' line)");
    if (!next_line(&r) || !after(r.buf, "game") ||
        !copy(h->game, sizeof h->game, after(r.buf, "game")))
        return err_set(err, STATUS_PARSE, "line %ld: expected 'game NAME'", r.line);
    for (;;) {
        if (!next_line(&r))
            return err_set(err, STATUS_PARSE, "line %ld: the header ends early", r.line + 1);
        const char *v = after(r.buf, "rule");
        if (!v)
            break;
        if (h->n_rules == GAME_MAX_OPTIONS || !copy(h->rules[h->n_rules], sizeof h->rules[0], v))
            return err_set(err, STATUS_PARSE, "line %ld: too many or too long rules", r.line);
        h->n_rules++;
    }
    const char *pos = after(r.buf, "position");
    if (!pos || !copy(h->position, sizeof h->position, pos))
        return err_set(err, STATUS_PARSE, "line %ld: expected 'position TEXT'", r.line);
    const char *w = next_line(&r) ? after(r.buf, "winner") : NULL;
    if (!w || (strcmp(w, "0") != 0 && strcmp(w, "1") != 0))
        return err_set(err, STATUS_PARSE, "line %ld: expected 'winner 0' or 'winner 1'", r.line);
    h->winner = w[0] - '0';
    return STATUS_OK;
}

typedef struct Checker {
    const Game *g;
    int winner;
    Reader r;
    StrBuf sb;
    MoveList moves;
    ProofCheckStats *st;
    ErrBuf *err;
} Checker;

static Status check(Checker *c, const GameState *s, int ply);

/* Plays the legal move m from s and checks the tree below it. */
static Status check_child(Checker *c, const GameState *s, Move m, int ply)
{
    GameState *t = game_state_clone(c->g, s);
    void *undo = game_undo_new(c->g);
    Status st = STATUS_NOMEM;
    if (t && undo) {
        c->g->ops->make(c->g, t, m, undo);
        st = check(c, t, ply + 1);
    } else {
        err_set(c->err, st, "out of memory");
    }
    free(undo);
    free(t);
    return st;
}

static Status check(Checker *c, const GameState *s, int ply)
{
    const Game *g = c->g;
    c->st->positions++;
    if (game_is_over(g, s)) {
        double ret[MAX_PLAYERS];
        g->ops->returns(g, s, ret);
        if (ret[c->winner] <= 0)
            return err_set(c->err, STATUS_ILLEGAL,
                           "line %ld: this line ends without a win for player %d", c->r.line,
                           c->winner);
        c->st->wins++;
        if (ply > c->st->longest)
            c->st->longest = ply;
        return STATUS_OK;
    }
    const bool winner = g->ops->to_move(g, s) == c->winner;
    // Each level lists its own moves: the list is refilled after every child.
    const int n = g->ops->gen_moves(g, s, &c->moves);
    for (int i = 0; i < (winner ? 1 : n); i++) {
        if (!next_line(&c->r))
            return err_set(c->err, STATUS_ILLEGAL, "line %ld: the file ends inside the tree",
                           c->r.line + 1);
        const char *text = after(c->r.buf, winner ? "play" : "reply");
        if (!text)
            return err_set(c->err, STATUS_ILLEGAL, "line %ld: expected '%s MOVE'", c->r.line,
                           winner ? "play" : "reply");
        g->ops->gen_moves(g, s, &c->moves);
        Move m = MOVE_NONE;
        for (int j = 0; j < c->moves.count && m == MOVE_NONE; j++) {
            sb_clear(&c->sb);
            g->ops->format_move(g, s, c->moves.moves[j], &c->sb);
            if (strcmp(sb_str(&c->sb), text) == 0 && (winner || j == i))
                m = c->moves.moves[j];
        }
        if (m == MOVE_NONE)
            return err_set(c->err, STATUS_ILLEGAL, "line %ld: '%s' is not %s", c->r.line, text,
                           winner ? "a legal move here" : "the next legal reply in order");
        const Status st = check_child(c, s, m, ply);
        if (st != STATUS_OK)
            return st;
    }
    return STATUS_OK;
}

Status proof_check_tree(const Game *g, const GameState *s, int winner, FILE *in,
                        ProofCheckStats *stats, ErrBuf *err)
{
    memset(stats, 0, sizeof *stats);
    if (winner < 0 || winner >= g->players)
        return err_set(err, STATUS_ILLEGAL, "no player %d in this game", winner);
    Checker *c = calloc(1, sizeof *c);
    if (!c)
        return err_set(err, STATUS_NOMEM, "out of memory");
    c->g = g;
    c->winner = winner;
    c->r.in = in;
    c->st = stats;
    c->err = err;
    sb_init(&c->sb);
    Status st = check(c, s, 0);
    if (st == STATUS_OK && (!next_line(&c->r) || strcmp(c->r.buf, "end") != 0))
        st = err_set(err, STATUS_ILLEGAL, "line %ld: expected 'end' after the tree", c->r.line);
    sb_free(&c->sb);
    free(c);
    return st;
}
