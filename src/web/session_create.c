/*
 * session_create.c - a new game (see session.h): checked, its seats and tokens made,
 * an imported record replayed, stored in one write and only then registered in memory.
 */
#include "web/session.h"
#include "web/session_internal.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "core/clock.h"
#include "core/game_api.h"
#include "core/invariant.h"
#include "play/finish.h"
#include "play/registry.h"
#include "play/seats.h"
#include "play/turn.h"
#include "play/undo.h"
#include "play/words.h"
#include "web/context.h"

/* --- creating and loading -------------------------------------------------------------- */

/* Sets up s->rec from a configured game and its start, taking ownership of g. */
Status session_init_record(Session *s, Game *g, const GameState *start, ErrBuf *err)
{
    const Status st = record_init(&s->rec, g, start, err);
    if (st != STATUS_OK)
        return st;
    s->game = s->rec.game;
    seats_format(&s->seats, s->rec.players, (int)sizeof s->rec.players);
    if (!session_texts_reserve(s, 64))
        return err_set(err, STATUS_NOMEM, "out of memory");
    return STATUS_OK;
}

/* Plays an imported record's actions on s's fresh record, with their texts as the game
 * writes them: the record was read with the same game, so every action is legal. */
static Status play_imported(Session *s, const GameRecord *r, ErrBuf *err)
{
    const Game *g = s->game;
    if (r->game->state_size != g->state_size ||
        memcmp(r->start, s->rec.start, g->state_size) != 0)
        return err_set(err, STATUS_PARSE, "the record's start does not read back the same");
    if (!session_texts_reserve(s, r->count))
        return err_set(err, STATUS_NOMEM, "out of memory");
    StrBuf t;
    sb_init(&t);
    Status st = STATUS_OK;
    for (int i = 0; i < r->count && st == STATUS_OK; i++) {
        const int p = g->ops->to_move(g, s->rec.current);
        sb_clear(&t);
        g->ops->format_move(g, s->rec.current, r->moves[i], &t);
        s->texts[i] = sb_failed(&t) ? NULL : session_strdup(sb_str(&t));
        s->cells[i] = session_cells_of(g, s->rec.current, r->moves[i]);
        s->actor[i] = (int8_t)p;
        if (s->texts[i] == NULL || s->cells[i] == NULL ||
            record_push(&s->rec, r->moves[i], err) != STATUS_OK) {
            free(s->texts[i]); // not yet the record's, so not freed with it
            free(s->cells[i]);
            s->texts[i] = s->cells[i] = NULL;
            st = err_set(err, STATUS_NOMEM, "out of memory");
        }
    }
    sb_free(&t);
    return st;
}

Status session_create(Server *srv, const NewGame *ng, Session **out, ErrBuf *err)
{
    Game *g = NULL;
    ErrBuf e2;
    if (game_create(ng->ops, ng->players, ng->rules, ng->n_rules, &g, &e2) != STATUS_OK)
        return err_set(err, STATUS_PARSE, "%s", e2.msg);
    Session *s = session_alloc(srv->sessions);
    GameState *start = game_state_new(g);
    if (s == NULL || start == NULL) {
        game_destroy(g);
        free(start);
        if (s)
            session_destroy(NULL, s);
        return err_set(err, STATUS_NOMEM, "out of memory");
    }
    Status st = STATUS_OK;
    s->seed = ng->seed;
    snprintf(s->owner, sizeof s->owner, "%s", ng->owner ? ng->owner : "");
    if (!ng->seed_set && !secret_u64(&s->seed))
        st = err_set(err, STATUS_IO, "no randomness for the seed");
    if (!ng->seed_set)
        s->seed &= (1ULL << 53) - 1; // what a JavaScript number holds exactly
    if (st == STATUS_OK && ng->position) {
        if (g->ops->parse_position(g, start, ng->position, &e2) != STATUS_OK)
            st = err_set(err, STATUS_PARSE, "bad position: %s", e2.msg);
    } else if (st == STATUS_OK) {
        g->ops->new_game(g, start, s->seed);
    }
    for (int i = 0; st == STATUS_OK && i < g->players; i++) {
        if (!session_seat_spec(s, i, ng->player[i], err)) {
            st = STATUS_PARSE;
        } else if (!s->seats.seat[i].human) {
            // Refuse now what the AI could not play later (alpha-beta on a game without an
            // evaluation, say), with the agent's own explanation.
            Agent *a = NULL;
            if (agent_new(g, &s->seats.seat[i].spec, &a, &e2) != STATUS_OK)
                st = err_set(err, STATUS_PARSE, "seat %d (%s): %s", i, s->seats.seat[i].text,
                             e2.msg);
            agent_free(a);
        }
    }
    if (st == STATUS_OK && ng->id[0])
        snprintf(s->id, sizeof s->id, "%s", ng->id);
    else if (st == STATUS_OK && !secret_hex(s->id, SECRET_ID_BYTES))
        st = err_set(err, STATUS_IO, "no randomness for the game id");
    for (int i = 0; st == STATUS_OK && i < g->players; i++)
        if (!secret_hex(s->token[i], SECRET_TOKEN_BYTES))
            st = err_set(err, STATUS_IO, "no randomness for the tokens");
    if (st != STATUS_OK) {
        game_destroy(g);
        free(start);
        session_destroy(NULL, s);
        return st;
    }
    s->created = (int64_t)time(NULL);
    meta_init(&s->meta);
    s->meta.hints = ng->hints;
    if (ng->rematch_of)
        snprintf(s->meta.rematch_of, sizeof s->meta.rematch_of, "%s", ng->rematch_of);
    s->meta.clock = ng->clock;
    s->meta.open = ng->open;
    s->meta.rated = ng->rated;
    if (ng->account != NULL && ng->account_seat >= 0 && ng->account_seat < ng->players)
        snprintf(s->meta.account[ng->account_seat], sizeof s->meta.account[0], "%s",
                 ng->account);
    for (int i = 0; i < ng->players; i++)
        if (ng->accounts[i] != NULL)
            snprintf(s->meta.account[i], sizeof s->meta.account[0], "%s", ng->accounts[i]);
    s->meta.moved_ms = gameclock_now();

    // The record first, with an import's actions, so that they go to the store with the
    // game in one write: a game is stored whole or not at all.
    st = session_init_record(s, g, start, err);
    g = s->rec.game; // owned by the record now (NULL if init failed), freed with the session
    st = st == STATUS_OK && ng->record ? play_imported(s, ng->record, err) : st;

    StoredGame sg;
    memset(&sg, 0, sizeof sg);
    StrBuf pos;
    sb_init(&pos);
    // Every option is stored with its value, defaults included, so a later change of a
    // default cannot change a stored game: as one JSON object of name and value pairs.
    json_t *rule_pairs = st == STATUS_OK ? json_object() : NULL;
    for (int i = 0; i < g->ops->option_count && rule_pairs; i++)
        if (json_object_set_new(rule_pairs, g->ops->options[i].name,
                                json_string(g->values[i])) != 0) {
            json_decref(rule_pairs);
            rule_pairs = NULL;
        }
    char *rules = rule_pairs ? json_dumps(rule_pairs, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    json_decref(rule_pairs);
    if (st == STATUS_OK) {
        g->ops->format_position(g, start, &pos);
        snprintf(sg.id, sizeof sg.id, "%s", s->id);
        snprintf(sg.game, sizeof sg.game, "%s", g->ops->name);
        sg.players = g->players;
        sg.rules = rules;
        sg.start = pos.data;
        sg.seed = s->seed;
        sg.created = s->created;
        sg.version = 0;
        sg.moves = s->texts;
        sg.n_moves = s->rec.count;
        for (int i = 0; i < g->players; i++) {
            // Web seats are "human" or an agent spec, well inside the stored width.
            snprintf(sg.player[i], sizeof sg.player[i], "%.*s", (int)sizeof sg.player[i] - 1,
                     s->seats.seat[i].text);
            snprintf(sg.token[i], sizeof sg.token[i], "%s", s->token[i]);
        }
        sg.meta = meta_format(&s->meta, g->players);
        if (rules == NULL || sb_failed(&pos) || sg.meta == NULL)
            st = err_set(err, STATUS_NOMEM, "out of memory");
        else if (store_insert_game(srv->store, &sg, session_ai_to_move(s, g, s->rec.current), err) !=
                 STATUS_OK)
            st = STATUS_IO;
    }
    free(rules);
    free(sg.meta);
    sb_free(&pos);
    free(start);
    if (st != STATUS_OK) {
        session_destroy(NULL, s);
        return st;
    }
    // From here the session gives the quota back itself, when the game ends or leaves.
    s->quota_kind = ng->quota_kind;
    session_hold(s);
    pthread_mutex_lock(&srv->sessions->mu);
    sessions_insert_locked(srv->sessions, s);
    pthread_mutex_unlock(&srv->sessions->mu);
    pthread_mutex_lock(&s->mu);
    // A game may begin with chance (a shuffle, a first draw): draw now, then let an AI
    // seat start if it has the first move.
    if (g->ops->to_move(s->game, s->rec.current) == PLAYER_CHANCE) {
        if (session_commit_actions(srv, s, NULL, 0, err) != STATUS_OK)
            snprintf(s->ai_error, sizeof s->ai_error, "%s", err->msg);
    } else {
        session_schedule_ai_locked(srv, s);
    }
    pthread_mutex_unlock(&s->mu);
    *out = s;
    return STATUS_OK;
}

/* Plays the stored actions sg->moves[from..] onto s->rec, which holds `from` actions,
 * through the game's own parser; STATUS_CORRUPT when they no longer make sense to this
 * build. On failure texts[0..count) are all set (NULL where a copy failed). */
