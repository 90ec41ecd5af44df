/*
 * api_takeback.c - a takeback between people, as lichess has it: a player asks to take
 * his last turn back; the request stands until the other player answers it or anyone
 * acts. Accepted, the game goes back to the start of the asker's last turn (his own
 * move, and the other's reply if there was one) by the same taking back as undo
 * against the AI (session_take_back_locked); declined, the asker is told. The request
 * lives in the game's meta (meta.h), so every process and a restart see it.
 */
#include "web/api_takeback.h"

#include <string.h>

#include "play/undo.h"
#include "web/api.h"
#include "web/api_finish.h"
#include "web/api_view.h"
#include "web/context.h"
#include "web/gameclock.h"
#include "web/session.h"

/* Checks that `seat` is a person's in a two-player game still going on against another
 * person: takebacks are agreed between players; the AI's games have undo. */
static Status check_people(const Session *s, int seat, ErrBuf *err)
{
    if (seat < 0 || !s->seats.seat[seat].human)
        return err_set(err, STATUS_CONFLICT, "only a player's own seat may do this: send the "
                       "seat's token");
    if (session_over_locked(s))
        return err_set(err, STATUS_CONFLICT, "the game is over: moves cannot be taken back");
    if (s->game->players != 2)
        return err_set(err, STATUS_CONFLICT, "takebacks are for two-player games; %s has %d "
                       "players here", s->game->ops->name, s->game->players);
    if (!s->seats.seat[1 - seat].human)
        return err_set(err, STATUS_CONFLICT, "against the AI a move is taken back at once "
                       "with undo (POST /api/games/ID/undo)");
    return STATUS_OK;
}

typedef enum TakebackAct { TB_ASK, TB_ACCEPT, TB_DECLINE } TakebackAct;

static void act(Server *srv, const Request *req, Session *s, TakebackAct what, Response *res)
{
    const int seat = api_finish_seat(req, s, res);
    if (seat < 0)
        return;
    pthread_mutex_lock(&s->mu);
    ErrBuf err;
    Status st = check_people(s, seat, &err);
    const int other = 1 - seat;
    const int standing = api_takeback_standing(s);
    GameMeta m = s->meta;
    const char *answer = NULL;
    if (st == STATUS_OK && what == TB_ASK) {
        int keep = 0;
        if (standing == seat)
            st = err_set(&err, STATUS_CONFLICT, "your takeback request stands already");
        else if (standing == other)
            st = err_set(&err, STATUS_CONFLICT, "the other player asks for a takeback: "
                         "accept or decline it first");
        else if (play_undo_point(&s->rec, 1u << seat, &keep, &err) != STATUS_OK)
            st = STATUS_CONFLICT; // "you have no move to take back"
        m.takeback_seat = seat;
        m.takeback_ply = s->rec.count;
        m.takeback_declined = false;
        answer = "asked";
        if (st == STATUS_OK)
            st = session_set_meta_locked(srv, s, &m, &err);
    } else if (st == STATUS_OK && standing != other) {
        st = err_set(&err, STATUS_CONFLICT, "there is no takeback request from the other "
                     "player to %s", what == TB_ACCEPT ? "accept" : "decline");
    } else if (st == STATUS_OK && what == TB_DECLINE) {
        m.takeback_declined = true; // kept until anyone acts, so that the asker learns it
        answer = "declined";
        st = session_set_meta_locked(srv, s, &m, &err);
    } else if (st == STATUS_OK) {
        // Back to the start of the asker's turn: his time runs from now, the time both
        // spent stays spent (as on lichess); a draw offer made since lapses with it.
        // Taken back to the first turn, the clock waits again for a move.
        const int64_t now = gameclock_now();
        int keep = 0;
        m.takeback_seat = m.offer_seat = m.declined_seat = -1;
        m.takeback_declined = false;
        play_clock_stop(&m.clock, now);
        if (play_undo_point(&s->rec, 1u << other, &keep, &err) == STATUS_OK && keep > 0)
            play_clock_turn(&m.clock, -1, other, now);
        m.moved_ms = now;
        answer = "accepted";
        st = session_take_back_locked(srv, s, other, &m, &err);
    }
    if (st == STATUS_OK)
        api_finish_answer(res, s, seat, answer);
    else
        response_error(res, http_status_of(st), "%s", err.msg);
    pthread_mutex_unlock(&s->mu);
}

void api_takeback_ask(Server *srv, const Request *req, Session *s, Response *res)
{
    act(srv, req, s, TB_ASK, res);
}

void api_takeback_accept(Server *srv, const Request *req, Session *s, Response *res)
{
    act(srv, req, s, TB_ACCEPT, res);
}

void api_takeback_decline(Server *srv, const Request *req, Session *s, Response *res)
{
    act(srv, req, s, TB_DECLINE, res);
}
