/*
 * cmd_play.c - `crown play GAME`: a game on the terminal between humans and AIs.
 *
 * On a terminal it draws the board in colour and prompts; otherwise it reads one line
 * at a time so that games can be scripted. A line is a command or a move; several
 * actions of one turn may be given on one line separated by ';'. Every input is checked
 * on a copy first: a bad line prints one "error:" line and changes nothing.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/turn_runner.h"
#include "play/seats.h"
#include "core/game_api.h"
#include "core/record.h"
#include "play/chances.h"
#include "play/finish.h"
#include "play/hint.h"
#include "play/registry.h"
#include "play/turn.h"
#include "play/undo.h"
#include "play/words.h"

typedef struct PlaySession {
    GameRecord rec;
    Seats seats;
    bool interactive;
    unsigned render_flags;
    Rng chance_rng;
    int errors;
    TurnRunner run;                   /* AI, chance and outside engines' moves */
    EngineClient engine[MAX_PLAYERS]; /* the outside seats' engines */
    EngineOption engine_options[MAX_PLAYERS][CLI_MAX_ENGINE_OPTIONS];
    bool forfeited;                   /* an outside engine lost by forfeit: the game ended */
    uint64_t seed;                    /* the game's (--seed), which hints follow */
    PlayEnd end;                      /* a resignation or an agreed draw ended the game */
    int offer_seat;                   /* the seat whose draw offer stands, or -1 */
} PlaySession;

/* Prints one error line; control characters from the user's own input (a pasted binary,
 * say) are shown as '?' so that they cannot disturb the terminal. */
static void say_error(PlaySession *ps, const char *msg)
{
    fputs("error: ", stdout);
    for (const char *p = msg; *p; p++)
        putchar(((unsigned char)*p < 0x20 || *p == 0x7f) ? '?' : *p);
    putchar('\n');
    ps->errors++;
}

enum LineRead { LINE_OK, LINE_EOF, LINE_LONG, LINE_NUL };

/* Reads one line of stdin whole, up to and without its newline, into buf. A line too
 * long for buf or holding a NUL byte is still read to its end, so that the next line
 * starts where it should (fgets stops at the buffer's end, and a NUL hides the newline
 * from string functions: the next line was then taken for this one's rest and lost). */
static enum LineRead read_line(char *buf, size_t cap)
{
    size_t n = 0;
    bool any = false, nul = false, lng = false;
    int ch;
    while ((ch = getchar()) != EOF) {
        any = true;
        if (ch == '\n')
            break;
        if (ch == '\0')
            nul = true;
        else if (n + 1 < cap)
            buf[n++] = (char)ch;
        else
            lng = true;
    }
    buf[n] = '\0';
    if (!any)
        return LINE_EOF;
    return lng ? LINE_LONG : nul ? LINE_NUL : LINE_OK;
}

static void show_board(const PlaySession *ps)
{
    const Game *g = ps->rec.game;
    StrBuf out;
    sb_init(&out);
    g->ops->render(g, ps->rec.current, ps->render_flags, &out);
    fputs(sb_str(&out), stdout);
    sb_free(&out);
}

static void show_status(const PlaySession *ps)
{
    const Game *g = ps->rec.game;
    const int p = g->ops->to_move(g, ps->rec.current);
    if (p == PLAYER_NONE) {
        // At a terminal with one human the result is told to that player ("You won");
        // scripts get the neutral form, which does not depend on the seats.
        int viewer = PLAYER_NONE, humans = 0;
        for (int i = 0; i < ps->seats.count; i++)
            if (ps->seats.seat[i].human)
                humans++, viewer = i;
        if (!ps->interactive || humans != 1)
            viewer = PLAYER_NONE;
        StrBuf r;
        sb_init(&r);
        play_result_text(g, ps->rec.current, viewer, &r);
        printf("game over: %s\n", sb_str(&r));
        sb_free(&r);
    } else if (p >= 0) {
        printf("%s (%s) to move\n", play_seat_name(g, p), ps->seats.seat[p].text);
    }
}

static void show_help(void)
{
    puts("Type a move in the game's notation (King's Valley: c1-c4), or a command:\n"
         "  moves        list the legal moves\n"
         "  undo         take back your last move (and the AI's reply)\n"
         "  hint         ask the AI for a move\n"
         "  resign       give up the game\n"
         "  draw         offer a draw (or accept the one offered to you)\n"
         "  board        draw the board again\n"
         "  position     print the position text\n"
         "  save FILE    write the game to FILE\n"
         "  load FILE    continue the game saved in FILE\n"
         "  help         this text\n"
         "  quit         leave");
}

static void list_moves(const PlaySession *ps)
{
    const Game *g = ps->rec.game;
    MoveList *ml = malloc(sizeof *ml);
    if (ml == NULL)
        return;
    g->ops->gen_moves(g, ps->rec.current, ml);
    StrBuf out;
    sb_init(&out);
    for (int i = 0; i < ml->count; i++) {
        if (i)
            sb_putc(&out, ' ');
        g->ops->format_move(g, ps->rec.current, ml->moves[i], &out);
    }
    printf("%d moves: %s\n", ml->count, sb_str(&out));
    sb_free(&out);
    free(ml);
}

/* Plays the turn written in `line` if every action of it is legal in turn. */
static void play_line(PlaySession *ps, const char *line)
{
    const Game *g = ps->rec.game;
    Move acts[PLAY_TURN_CAP];
    int n = 0;
    ErrBuf err;
    const int p = g->ops->to_move(g, ps->rec.current);
    if (play_parse_turn(g, ps->rec.current, line, acts, PLAY_TURN_CAP, &n, &err) != STATUS_OK) {
        say_error(ps, err.msg);
        return;
    }
    if (p != ps->offer_seat)
        ps->offer_seat = -1; // playing on declines the other's offer
    StrBuf text;
    sb_init(&text);
    for (int i = 0; i < n; i++) {
        sb_clear(&text);
        g->ops->format_move(g, ps->rec.current, acts[i], &text);
        if (record_push(&ps->rec, acts[i], &err) != STATUS_OK) {
            say_error(ps, err.msg);
            break;
        }
        if (!ps->interactive)
            printf("%s (%s) plays %s\n", play_seat_name(g, p), ps->seats.seat[p].text,
                   sb_str(&text));
    }
    sb_free(&text);
}

/* Ends the game outside its rules and says how. */
static void end_game(PlaySession *ps, PlayEnd end, int seat)
{
    ps->end = end;
    ps->offer_seat = -1;
    StrBuf t;
    sb_init(&t);
    play_end_text(ps->rec.game, end, seat, &t);
    printf("game over: %s\n", sb_str(&t));
    sb_free(&t);
}

/* The player to move offers a draw, or accepts the other's: an AI answers at once by
 * play's rule, as in the browser; another person at this terminal accepts by offering
 * in turn, and declines by playing on. */
static void do_draw(PlaySession *ps)
{
    const Game *g = ps->rec.game;
    const int p = g->ops->to_move(g, ps->rec.current), other = 1 - p;
    if (g->players != 2) {
        say_error(ps, "draw offers are for two-player games");
    } else if (ps->offer_seat == other) {
        end_game(ps, PLAY_END_DRAW, p);
    } else if (ps->offer_seat == p) {
        say_error(ps, "your draw offer stands already");
    } else if (ps->seats.seat[other].outside) {
        say_error(ps, "an outside engine cannot be offered a draw");
    } else if (!ps->seats.seat[other].human) {
        if (play_ai_accepts_draw(g, ps->rec.current, other))
            end_game(ps, PLAY_END_DRAW, other);
        else
            printf("%s (%s) declines the draw\n", play_seat_name(g, other),
                   ps->seats.seat[other].text);
    } else {
        ps->offer_seat = p;
        printf("%s offers a draw: %s, type 'draw' to accept it, or play on\n",
               play_seat_name(g, p), play_seat_name(g, other));
    }
}

/* Takes back to the last position where a human was to move, at least one action. */
static void do_undo(PlaySession *ps)
{
    unsigned humans = 0;
    for (int i = 0; i < ps->seats.count; i++)
        if (ps->seats.seat[i].human)
            humans |= 1u << i;
    int keep;
    ErrBuf err;
    if (play_undo_point(&ps->rec, humans, &keep, &err) != STATUS_OK) {
        say_error(ps, err.msg);
        return;
    }
    const int n = ps->rec.count - keep;
    record_truncate(&ps->rec, keep);
    ps->offer_seat = -1;
    printf("took back %d action%s\n", n, n == 1 ? "" : "s");
    show_board(ps); // the position the player moves in now, also in scripts
}

static void do_hint(PlaySession *ps)
{
    const Game *g = ps->rec.game;
    if (game_is_over(g, ps->rec.current)) {
        say_error(ps, "the game is over");
        return;
    }
    ErrBuf err;
    Agent *a = NULL;
    SearchResult r;
    if (play_hint_new(g, ps->seats.perfect, ps->seed, 0, &a, &err) != STATUS_OK ||
        agent_think(a, ps->rec.current, &r, &err) != STATUS_OK) {
        say_error(ps, err.msg);
    } else {
        StrBuf out;
        sb_init(&out);
        g->ops->format_move(g, ps->rec.current, r.best, &out);
        sb_puts(&out, " (");
        play_chance_words(g, &r, &out);
        printf("hint: %s)\n", sb_str(&out));
        sb_free(&out);
    }
    agent_free(a);
}

static void do_load(PlaySession *ps, const char *path)
{
    GameRecord loaded;
    ErrBuf err;
    if (record_load(path, registry_find, &loaded, &err) != STATUS_OK) {
        say_error(ps, err.msg);
        return;
    }
    if (loaded.game->players != ps->seats.count) {
        record_free(&loaded);
        say_error(ps, "that record has a different number of players");
        return;
    }
    // Agents belong to a configured game, so they are rebuilt for the loaded one.
    Seats fresh = ps->seats;
    for (int i = 0; i < fresh.count; i++)
        fresh.seat[i].agent = NULL;
    if (seats_start(&fresh, loaded.game, &err) != STATUS_OK) {
        record_free(&loaded);
        say_error(ps, err.msg);
        return;
    }
    seats_stop(&ps->seats);
    ps->seats = fresh;
    record_free(&ps->rec);
    ps->rec = loaded;
    seats_format(&ps->seats, ps->rec.players, (int)sizeof ps->rec.players);
    printf("loaded %s: %s, %d actions played\n", path, ps->rec.game->ops->name, ps->rec.count);
}

/* Handles one input line; false when the user asked to quit. */
static bool handle_line(PlaySession *ps, char *line)
{
    char *end = line + strlen(line);
    while (end > line && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t'))
        *--end = '\0';
    while (*line == ' ' || *line == '\t')
        line++;
    if (*line == '\0' || *line == '#')
        return true;
    char *arg = strchr(line, ' ');
    if (arg) {
        *arg++ = '\0';
        while (*arg == ' ')
            arg++;
    }
    ErrBuf err;
    if (strcmp(line, "quit") == 0 || strcmp(line, "exit") == 0)
        return false;
    if (strcmp(line, "help") == 0) {
        show_help();
    } else if (strcmp(line, "moves") == 0) {
        list_moves(ps);
    } else if (strcmp(line, "undo") == 0) {
        do_undo(ps);
    } else if (strcmp(line, "hint") == 0) {
        do_hint(ps);
    } else if ((strcmp(line, "resign") == 0 || strcmp(line, "draw") == 0) &&
               game_is_over(ps->rec.game, ps->rec.current)) {
        say_error(ps, "the game is over");
    } else if (strcmp(line, "resign") == 0) {
        end_game(ps, PLAY_END_RESIGN, ps->rec.game->ops->to_move(ps->rec.game, ps->rec.current));
    } else if (strcmp(line, "draw") == 0) {
        do_draw(ps);
    } else if (strcmp(line, "board") == 0) {
        show_board(ps);
    } else if (strcmp(line, "position") == 0) {
        StrBuf out;
        sb_init(&out);
        ps->rec.game->ops->format_position(ps->rec.game, ps->rec.current, &out);
        printf("%s\n", sb_str(&out));
        sb_free(&out);
    } else if (strcmp(line, "save") == 0 || strcmp(line, "load") == 0) {
        if (arg == NULL || *arg == '\0') {
            say_error(ps, "give a file name, e.g. save mygame.txt");
        } else if (line[0] == 's') {
            StrBuf result;
            sb_init(&result);
            play_result_text(ps->rec.game, ps->rec.current, PLAYER_NONE, &result);
            if (record_save(&ps->rec, sb_str(&result), arg, &err) != STATUS_OK)
                say_error(ps, err.msg);
            else
                printf("saved to %s\n", arg);
            sb_free(&result);
        } else {
            do_load(ps, arg);
        }
    } else {
        if (arg)
            arg[-1] = ' '; // a move text may contain spaces; give it back whole
        const Game *g = ps->rec.game;
        const int p = g->ops->to_move(g, ps->rec.current);
        if (p >= 0 && !ps->seats.seat[p].human)
            say_error(ps, "it is the AI's turn");
        else
            play_line(ps, line);
    }
    return true;
}

/* Lets AIs, chance and outside engines act until a human is to move or the game ends
 * (by the rules, or by an outside engine's forfeit). */
static bool run_automatic(PlaySession *ps)
{
    const Game *g = ps->rec.game;
    ErrBuf err;
    for (;;) {
        const int p = g->ops->to_move(g, ps->rec.current);
        if (ps->forfeited || p == PLAYER_NONE || (p >= 0 && ps->seats.seat[p].human))
            return true;
        GameState *before = game_state_clone(g, ps->rec.current);
        if (before == NULL)
            return cli_error("out of memory"), false;
        TurnStep step;
        ps->run.seats = &ps->seats;
        ps->run.chance = &ps->chance_rng;
        if (turn_runner_step(&ps->run, &ps->rec, &step, &err) != STATUS_OK) {
            free(before);
            return cli_error("AI failed: %s", err.msg), false;
        }
        if (step.forfeit != PLAYER_NONE) {
            StrBuf text;
            double ret[MAX_PLAYERS];
            sb_init(&text);
            turn_runner_forfeit_result(g, ps->rec.current, &ps->seats, &step, &text, ret);
            printf("Game over: %s\n", sb_str(&text));
            sb_free(&text);
            free(before);
            ps->forfeited = true;
            return true;
        }
        StrBuf text;
        sb_init(&text);
        play_format_turn(g, before, step.acts, step.n, &text, &err);
        free(before);
        if (p == PLAYER_CHANCE) {
            printf("chance: %s\n", sb_str(&text));
        } else {
            if (step.searched) {
                sb_puts(&text, "  (");
                search_format_score(&step.result, &text);
                sb_puts(&text, ")");
            }
            printf("%s (%s) plays %s\n", play_seat_name(g, p), ps->seats.seat[p].text,
                   sb_str(&text));
        }
        sb_free(&text);
        if (ps->interactive)
            show_board(ps);
    }
}

int cmd_play(int argc, char **argv)
{
    static const char usage[] =
        "usage: crown play GAME [--players SPEC,SPEC] [--rule NAME=VALUE]... "
        "[--seed S]";
    CliOptions o;
    if (!cli_parse_game_options(argc, argv, usage, &o))
        return 2;
    PlaySession ps;
    memset(&ps, 0, sizeof ps);
    ps.interactive = isatty(STDIN_FILENO);
    if (isatty(STDOUT_FILENO)) {
        const char *term = getenv("TERM");
        ps.render_flags = RENDER_UNICODE;
        if (getenv("NO_COLOR") == NULL && !(term && strcmp(term, "dumb") == 0))
            ps.render_flags |= RENDER_COLOR;
    }
    rng_seed(&ps.chance_rng, o.seed ^ 0x63686E6365ULL);
    ps.seed = o.seed;
    ps.offer_seat = -1;
    Game *g;
    GameState *s;
    if (!cli_make_game(&o, &g, &s))
        return 1;
    ErrBuf err;
    const SearchLimits lim = cli_search_limits(&o);
    if (seats_parse(o.players ? o.players : "human,ai", g->players, &lim, o.seed, &ps.seats,
                    &err) != STATUS_OK ||
        turn_runner_check_game(g, &ps.seats, &err) != STATUS_OK ||
        record_init(&ps.rec, g, s, &err) != STATUS_OK) {
        free(s);
        game_destroy(g);
        return cli_error("%s", err.msg), 2;
    }
    free(s);
    Perfect *perfect;
    if (!cli_open_perfect(&o, &perfect)) {
        record_free(&ps.rec);
        return 2;
    }
    ps.seats.perfect = perfect;
    if (seats_start(&ps.seats, ps.rec.game, &err) != STATUS_OK) {
        record_free(&ps.rec);
        perfect_free(perfect);
        return cli_error("%s", err.msg), 2;
    }
    seats_format(&ps.seats, ps.rec.players, (int)sizeof ps.rec.players);
    // A lone human in the second seat sees the board from his side, as across a table.
    if (g->players == 2 && ps.seats.seat[1].human && !ps.seats.seat[0].human)
        ps.render_flags |= RENDER_FLIPPED;
    if (play_clock_on(&o.tc)) {
        seats_stop(&ps.seats);
        record_free(&ps.rec);
        return cli_error("--tc is for crown match; here use --movetime"), 2;
    }
    ps.run.limits = lim;
    for (int k = 0; k < ps.seats.count; k++) {
        if (!ps.seats.seat[k].outside)
            continue;
        int n;
        cli_engine_options_for(&o, k, ps.engine_options[k], CLI_MAX_ENGINE_OPTIONS, &n);
        engine_client_init(&ps.engine[k], ps.seats.seat[k].text, ps.engine_options[k], n);
        ps.run.engine[k] = &ps.engine[k];
        signal(SIGPIPE, SIG_IGN); /* a dead engine's pipe is an error, not our end */
        if (engine_client_new_game(&ps.engine[k], &err) != STATUS_OK) {
            for (int j = 0; j <= k; j++)
                engine_client_close(&ps.engine[j]);
            seats_stop(&ps.seats);
            record_free(&ps.rec);
            return cli_error("%s", err.msg), 1;
        }
    }
    printf("%s: %s\n", g->ops->name, g->ops->summary);
    if (ps.interactive)
        puts("Type 'help' for the commands.");
    show_board(&ps);
    enum { LINE_CAP = 4096 };
    char line[LINE_CAP];
    bool ok = true;
    for (;;) {
        if (ps.end != PLAY_END_NONE || !(ok = run_automatic(&ps)) || ps.forfeited)
            break;
        show_status(&ps);
        if (ps.interactive) {
            printf("> ");
            fflush(stdout);
        }
        const enum LineRead lr = read_line(line, sizeof line);
        if (lr == LINE_EOF)
            break;
        if (lr != LINE_OK) {
            say_error(&ps, lr == LINE_LONG ? "line too long" : "line contains a NUL byte");
            continue;
        }
        const int before = ps.rec.count;
        if (!handle_line(&ps, line))
            break;
        if (ps.rec.count > before && ps.interactive)
            show_board(&ps);
    }
    if (!ps.interactive)
        show_board(&ps);
    for (int k = 0; k < ps.seats.count; k++)
        engine_client_close(&ps.engine[k]);
    seats_stop(&ps.seats);
    record_free(&ps.rec);
    perfect_free(perfect);
    if (!ok)
        return 1;
    return (!ps.interactive && ps.errors) ? 1 : 0;
}
