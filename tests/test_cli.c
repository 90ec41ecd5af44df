/*
 * test_cli.c - the crown program end to end: each test runs the binary named by
 * $CROWN_BIN with arguments and scripted standard input, and checks its output and exit
 * code. Covers every subcommand, the play commands, bad input of each kind, the engine
 * protocols and outside engines as match seats (crown itself, and the misbehaving
 * tests/support/fake-engine.sh), and the bench signature recorded in bench/signature.
 * A few engine-protocol checks talk to the program line by line, to time each answer.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include "support/temp_path.h"

typedef struct Run {
    char out[1 << 16];
    int status;
} Run;

/* Runs the shell command `cmd`: its output into r->out, its exit status. */
static void run_shell(Run *r, const char *cmd)
{
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(r->out, 1, sizeof r->out - 1, p);
    r->out[n] = '\0';
    int st = pclose(p);
    r->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Runs `crown ARGS < input 2>&1` with input's first len bytes (NUL bytes included). */
static void run_bytes(Run *r, const char *args, const char *input, size_t len)
{
    const char *bin = getenv("CROWN_BIN");
    assert_non_null(bin);
    char in_path[200];
    temp_path(in_path, sizeof in_path, "crown-cli-XXXXXX");
    int fd = mkstemp(in_path);
    assert_true(fd >= 0);
    if (len > 0 && write(fd, input, len) != (ssize_t)len)
        fail_msg("cannot write input");
    close(fd);
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' %s < %s 2>&1", bin, args, in_path);
    run_shell(r, cmd);
    unlink(in_path);
}

/* Runs `crown ARGS < input 2>&1`; input may be NULL (empty). */
static void run(Run *r, const char *args, const char *input)
{
    run_bytes(r, args, input, input ? strlen(input) : 0);
}

/* Puts the contents of the file at `path` in r->out, for the assertions below. */
static void read_into(Run *r, const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(r->out, 1, sizeof r->out - 1, f);
    r->out[n] = '\0';
    fclose(f);
}

static void assert_contains(const Run *r, const char *needle)
{
    if (strstr(r->out, needle) == NULL)
        fail_msg("expected '%s' in output:\n%s", needle, r->out);
}

static void assert_lacks(const Run *r, const char *needle)
{
    if (strstr(r->out, needle) != NULL)
        fail_msg("did not expect '%s' in output:\n%s", needle, r->out);
}

static int count_of(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

static void test_help_and_games(void **state)
{
    (void)state;
    static Run r;
    run(&r, "help", NULL);
    assert_int_equal(r.status, 0);
    assert_contains(&r, "crown play GAME");
    run(&r, "games", NULL);
    assert_int_equal(r.status, 0);
    assert_contains(&r, "kings-valley - ");
    assert_contains(&r, "retrieve-the-king - ");
    assert_contains(&r, "kings-valley-7x7 - ");
    assert_contains(&r, "kings-valley-labyrinth - ");
    assert_contains(&r, "--rule trap=both|opponent|off");
    assert_contains(&r, "--rule max-plies=0..1000  [integer] Turn limit: the game is drawn "
                        "once this many turns");
    assert_contains(&r, "--rule trap=both|opponent|off  [choice]");
    assert_contains(&r, "--rule setup=TEXT  [text]");
    assert_contains(&r, "--rule tiles=FILE  [file]");
    // A --rule value is split at its first '=': the rest is the value, '=' and all.
    run(&r, "perft king-down 1 --rule setup==classic", NULL);
    assert_int_equal(r.status, 1);
    assert_contains(&r, "'=' is not a back-rank piece letter");
    run(&r, "perft king-down 1 --rule=setup=classic", NULL);
    assert_int_equal(r.status, 0);
    assert_contains(&r, "perft 1 20");
    run(&r, "perft kings-valley 1 --rule =on", NULL);
    assert_contains(&r, "is not of the form NAME=VALUE");
    run(&r, "frobnicate", NULL);
    assert_int_equal(r.status, 2);
    assert_contains(&r, "unknown command 'frobnicate'");
    run(&r, "play --help", NULL);
    assert_int_equal(r.status, 0);
    assert_contains(&r, "usage: crown play");
}

static void test_perft(void **state)
{
    (void)state;
    static Run r;
    run(&r, "perft kings-valley 4", NULL);
    assert_int_equal(r.status, 0);
    assert_contains(&r, "perft 1 10\nperft 2 110\nperft 3 1570\nperft 4 21708\n");
    assert_contains(&r, "nodes per second");
    run(&r, "perft kings-valley 3 --generic", NULL);
    assert_contains(&r, "perft 3 1570\n");
    run(&r, "perft kings-valley-labyrinth 2 --rule first-move-soldier=off", NULL);
    assert_int_equal(r.status, 0);
    run(&r, "perft kings-valley 2 --position '4k/3s1/5/5/K4 1 10'", NULL);
    assert_int_equal(r.status, 0);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    static Run r;
    run(&r, "perft kings-valley x", NULL);
    assert_int_equal(r.status, 2);
    assert_contains(&r, "DEPTH must be a whole number");
    run(&r, "perft chess 2", NULL);
    assert_int_equal(r.status, 1);
    assert_contains(&r, "no game called 'chess' (games: kings-valley");
    run(&r, "perft kings-valley 2 --rule max-plies=abc", NULL);
    assert_contains(&r, "rule 'max-plies' of kings-valley takes a whole number");
    run(&r, "perft kings-valley 2 --rule colour=blue", NULL);
    assert_contains(&r, "has no rule 'colour'");
    run(&r, "perft kings-valley 2 --rule trap=off", NULL);
    assert_contains(&r, "has no rule 'trap'");
    run(&r, "perft kings-valley 2 --position 'sskss/5/5/5 1 0'", NULL);
    assert_int_equal(r.status, 1);
    assert_contains(&r, "bad position:");
    run(&r, "perft kings-valley 2 --bogus 3", NULL);
    assert_contains(&r, "unknown option '--bogus'");
    run(&r, "play kings-valley --players human", NULL);
    assert_contains(&r, "this game has 2 players");
    run(&r, "play kings-valley --players human,wizard", NULL);
    assert_contains(&r, "player 'wizard'");
    run(&r, "match kings-valley --players human,ai --games 1", NULL);
    assert_contains(&r, "AI players only");
}

static void test_play_script(void **state)
{
    (void)state;
    static Run r;
    run(&r, "play kings-valley --players human,human",
        "position\n"
        "c1-c3\n"        // the king may not make the first move
        "a1-a3\n"        // slides must go as far as they can
        "zz\n"           // not a move
        "a1-a4\n"
        "position\n"
        "moves\n"
        "undo\n"
        "position\n"
        "help\n"
        "quit\n");
    assert_int_equal(r.status, 1); // errors in a script make the exit code 1
    assert_contains(&r, "error: the first move of the game must be made by a soldier");
    assert_contains(&r, "error: men slide as far as they can: from a1 that way it stops on a4");
    assert_contains(&r, "error: a move is written from-to");
    assert_contains(&r, "first player (human) plays a1-a4");
    assert_contains(&r, "sskss/S4/5/5/1SKSS 2 1");
    assert_contains(&r, "took back 1 action\n");
    assert_contains(&r, "sskss/5/5/5/SSKSS 1 0\n");
}

/* A line with a NUL byte is an error for that line alone, and an overlong line is read
 * to its end: the lines after them are still played (a NUL once swallowed the next). */
static void test_play_nul_and_long_lines(void **state)
{
    (void)state;
    static Run r;
    static char input[8192];
    size_t n = 0;
    static const char nul_line[] = "a1\0-a4\n";
    memcpy(input + n, nul_line, sizeof nul_line - 1);
    n += sizeof nul_line - 1;
    memcpy(input + n, "a1-a4\n", 6);
    n += 6;
    memset(input + n, 'x', 5000); // longer than any line crown play keeps
    n += 5000;
    input[n++] = '\n';
    const char *rest = "e5-e2\nposition\nquit\n";
    memcpy(input + n, rest, strlen(rest));
    n += strlen(rest);
    run_bytes(&r, "play kings-valley --players human,human", input, n);
    assert_int_equal(r.status, 1);
    assert_contains(&r, "error: line contains a NUL byte\n");
    assert_contains(&r, "first player (human) plays a1-a4");
    assert_contains(&r, "error: line too long\n");
    assert_contains(&r, "second player (human) plays e5-e2");
    assert_contains(&r, "ssks1/S4/5/4s/1SKSS 1 2");
    assert_int_equal(count_of(r.out, "error: "), 2);
}

static void test_play_rejects_without_change(void **state)
{
    (void)state;
    static Run r;
    run(&r, "play kings-valley --players human,human",
        "a1-a4\nposition\nd5-d1\nb5-b2 ; e5-e2\nposition\nquit\n");
    // Every rejected line leaves the same position behind.
    assert_int_equal(count_of(r.out, "sskss/S4/5/5/1SKSS 2 1"), 2);
    assert_contains(&r, "error: ");
}

static void test_play_against_ai_and_undo(void **state)
{
    (void)state;
    static Run r;
    run(&r, "play kings-valley --players human,ai:3 --depth 3", "a1-a4\nundo\nposition\nquit\n");
    assert_int_equal(r.status, 0);
    assert_contains(&r, "second player (ai:3) plays");
    assert_contains(&r, "took back 2 actions");
    assert_contains(&r, "sskss/5/5/5/SSKSS 1 0");
}

/* The board after an undo is drawn again, from the side of a human who plays second;
 * moves are read as players type them. */
static void test_play_second_seat_and_typing(void **state)
{
    (void)state;
    static Run r;
    run(&r, "play kings-valley --players ai:1,human --depth 1", "C5C2\nundo\nquit\n");
    assert_int_equal(r.status, 0);
    assert_contains(&r, "second player (human) plays c5-c2");
    assert_contains(&r, "    e d c b a\n 1  ");
    // A script sees the start, the position after the undo and the end.
    assert_contains(&r, "took back 2 actions\n    e d c b a\n");
    assert_int_equal(count_of(r.out, "    e d c b a\n 1 "), 3);
    run(&r, "play king-down --players human,ai:1 --depth 1 --rule setup=classic",
        "E2-E4\nquit\n");
    assert_contains(&r, "first player (human) plays e2e4");
    assert_contains(&r, "   a b c d e f g h\n8 ");
}

/* Resigning and draw offers at the terminal, by play's rules (play/finish.h) as in the
 * browser: the AI accepts only when clearly worse; another person accepts by offering
 * in turn, and playing on declines. */
static void test_play_resign_and_draw(void **state)
{
    (void)state;
    static Run r;
    run(&r, "play kings-valley --players human,ai:1 --depth 1", "a1-a4\nresign\na2-a3\n");
    assert_int_equal(r.status, 0);
    assert_contains(&r, "game over: second player wins: the first player resigned\n");
    assert_lacks(&r, "error");
    // An AI with a bare king against a rook accepts; with the rook it declines.
    run(&r, "play king-down --position '4k3/8/8/8/8/8/8/R3K3 w - - 0 1' --players human,ai:1 "
            "--depth 1", "draw\n");
    assert_int_equal(r.status, 0);
    assert_contains(&r, "game over: draw: agreed by the players\n");
    run(&r, "play king-down --position 'r3k3/8/8/8/8/8/8/4K3 w - - 0 1' --players human,ai:1 "
            "--depth 1", "draw\nquit\n");
    assert_contains(&r, "second player (ai:1) declines the draw\n");
    assert_lacks(&r, "game over");
    // Two people: the offer stands while its maker plays, the other accepts.
    run(&r, "play kings-valley --players human,human", "draw\ndraw\na1-a4\ndraw\n");
    assert_int_equal(r.status, 1); // the repeated offer is an error
    assert_contains(&r, "first player offers a draw: second player, type 'draw' to accept");
    assert_contains(&r, "error: your draw offer stands already\n");
    assert_contains(&r, "game over: draw: agreed by the players\n");
    // Playing on declines it; draws are for two players.
    run(&r, "play kings-valley --players human,human", "draw\na1-a4\nb5-b2\ndraw\nquit\n");
    assert_int_equal(r.status, 0);
    assert_int_equal(count_of(r.out, "first player offers a draw"), 2);
    assert_lacks(&r, "game over");
    run(&r, "play king-of-the-valley --rule players=3 --players human,human,human", "draw\nquit\n");
    assert_contains(&r, "error: draw offers are for two-player games\n");
}

static void test_play_save_load(void **state)
{
    (void)state;
    static Run r;
    char path[200];
    temp_path(path, sizeof path, "crown-save-XXXXXX");
    int fd = mkstemp(path);
    close(fd);
    char input[512];
    snprintf(input, sizeof input, "a1-a4\nb5-b2\nsave %s\nquit\n", path);
    run(&r, "play kings-valley --players human,human", input);
    assert_int_equal(r.status, 0);
    assert_contains(&r, "saved to");
    snprintf(input, sizeof input, "load %s\nposition\nload /nonexistent/file\nposition\nquit\n",
             path);
    run(&r, "play kings-valley --players human,human", input);
    assert_contains(&r, "2 actions played");
    assert_int_equal(count_of(r.out, "s1kss/S4/5/1s3/1SKSS 1 2"), 2);
    assert_contains(&r, "error: cannot open '/nonexistent/file'");
    // A corrupt record is refused with the line that is wrong.
    FILE *f = fopen(path, "w");
    fputs("crown-record 1\ngame kings-valley\nstart sskss/5/5/5/SSKSS 1 0\nmove a1-a2\n", f);
    fclose(f);
    snprintf(input, sizeof input, "load %s\nquit\n", path);
    run(&r, "play kings-valley --players human,human", input);
    assert_contains(&r, "error: line 4: move 1 'a1-a2'");
    unlink(path);
}

static void test_play_ai_vs_ai_to_the_end(void **state)
{
    (void)state;
    static Run r;
    run(&r, "play kings-valley --players ai:2,ai:2 --depth 2", NULL);
    assert_int_equal(r.status, 0);
    assert_contains(&r, "game over: ");
    assert_lacks(&r, "error:");
}

static void test_analyze(void **state)
{
    (void)state;
    static Run r;
    run(&r, "analyze kings-valley --position '4k/3s1/5/5/K4 1 10' --depth 4", NULL);
    assert_int_equal(r.status, 0);
    assert_contains(&r, "bestmove a1-c3\n");
    assert_contains(&r, "score win in 1");
    assert_contains(&r, "pv a1-c3");
    run(&r, "analyze kings-valley --depth 3", NULL);
    assert_int_equal(r.status, 0);
    assert_contains(&r, "bestmove ");
    run(&r, "analyze kings-valley --agent mcts --nodes 500 --seed 3", NULL);
    assert_int_equal(r.status, 0);
    assert_contains(&r, "bestmove ");
    run(&r, "analyze kings-valley --position '5/5/2K2/5/2k2 2 3' --depth 3", NULL);
    assert_int_equal(r.status, 1);
    assert_contains(&r, "over");
}

/* The word after "bestmove " in r's output, into out. */
static void bestmove_of(const Run *r, char *out, size_t cap)
{
    const char *p = strstr(r->out, "bestmove ");
    assert_non_null(p);
    p += strlen("bestmove ");
    size_t n = strcspn(p, " \n");
    assert_true(n > 0 && n < cap);
    memcpy(out, p, n);
    out[n] = '\0';
}

/* The text of a manual page's section `name` (written between .nf and .fi) with roff's
 * escapes undone, into out. */
static void man_section(const char *page, const char *name, char *out, size_t cap)
{
    char head[64];
    snprintf(head, sizeof head, ".SH %s\n.nf\n", name);
    const char *p = strstr(page, head);
    if (p == NULL)
        fail_msg("no section %s in the page:\n%s", name, page);
    p += strlen(head);
    const char *end = strstr(p, ".fi\n");
    assert_non_null(end);
    size_t n = 0;
    for (; p < end && n + 1 < cap; p++) {
        if (p[0] == '\\' && (p[1] == '-' || p[1] == 'e' || p[1] == '&')) {
            p++;
            if (*p != '&')
                out[n++] = *p == 'e' ? '\\' : '-';
        } else {
            out[n++] = *p;
        }
    }
    out[n] = '\0';
}

/* crown-NAME(1) says exactly what `crown NAME --help` says: its synopsis is the usage and
 * its description the help, each line without the six spaces --help indents it by. */
static void assert_page_is_help(const char *name)
{
    static Run help, page;
    static char synopsis[8192], description[16384], expect[32768];
    char args[96];
    snprintf(args, sizeof args, "%s --help", name);
    run(&help, args, NULL);
    assert_int_equal(help.status, 0);
    snprintf(args, sizeof args, "help --man %s", name);
    run(&page, args, NULL);
    assert_int_equal(page.status, 0);
    man_section(page.out, "SYNOPSIS", synopsis, sizeof synopsis);
    man_section(page.out, "DESCRIPTION", description, sizeof description);
    size_t n = (size_t)snprintf(expect, sizeof expect, "usage: %s  ", synopsis);
    for (const char *p = description; *p && n + 8 < sizeof expect; p++) {
        expect[n++] = *p;
        if (*p == '\n' && p[1] != '\0')
            n += (size_t)snprintf(expect + n, sizeof expect - n, "      ");
    }
    expect[n] = '\0';
    if (strcmp(expect, help.out) != 0)
        fail_msg("crown-%s(1) says\n%s\nbut crown %s --help says\n%s", name, expect, name,
                 help.out);
}

/* What bash offers for `line`, the cursor at its end, through the function `crown
 * completion bash` writes (crown found on the PATH, as once installed): one a line. */
static void bash_completes(Run *r, const char *line)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "PATH=\"$(dirname \"$CROWN_BIN\"):$PATH\" bash --norc --noprofile -c "
             "'eval \"$(crown completion bash)\"; COMP_LINE=$1; COMP_POINT=${#1}; _crown; "
             "printf \"%%s\\n\" \"${COMPREPLY[@]}\"' _ '%s' 2>&1",
             line);
    run_shell(r, cmd);
    assert_int_equal(r->status, 0);
}

/* crown help, the manual pages and the completion are written from the same table as
 * --help, so they say the same. */
static void test_help_man_completion(void **state)
{
    (void)state;
    static Run r, h;
    run(&r, "help serve", NULL);
    assert_int_equal(r.status, 0);
    run(&h, "serve --help", NULL);
    assert_string_equal(r.out, h.out);
    run(&r, "help --man lab", NULL);
    assert_int_equal(r.status, 0);
    assert_contains(&r, ".TH CROWN\\-LAB 1 ");
    assert_contains(&r, "crown\\-lab \\- a self\\-play study\n");
    assert_contains(&r, ".SH SYNOPSIS\n.nf\ncrown lab GAME \\-\\-players SPEC,SPEC...");
    run(&r, "help --man", NULL);
    assert_int_equal(r.status, 1);
    run(&r, "help sideways", NULL);
    assert_int_equal(r.status, 1);
    assert_contains(&r, "no command 'sideways'");
    // The words bash is offered.
    run(&r, "completion words 1 crown pl", NULL);
    assert_string_equal(r.out, "play\nplayouts\n");
    run(&r, "completion words 2 crown play kings-valley-", NULL);
    assert_string_equal(r.out, "kings-valley-7x7\nkings-valley-labyrinth\n");
    run(&r, "completion words 4 crown play kings-valley --rule no-move", NULL);
    assert_string_equal(r.out, "no-move=loss\nno-move=draw\n");
    run(&r, "completion words 3 crown sprt king-down --elo", NULL);
    assert_string_equal(r.out, "--elo0\n--elo1\n");
    run(&r, "completion words 2 crown serve --creates", NULL);
    assert_string_equal(r.out, "--creates-per-hour\n");
    run(&r, "completion bash", NULL);
    assert_contains(&r, "complete -o default -F _crown crown\n");
    // What bash itself offers: after '=' only the value, as bash splits words there.
    bash_completes(&r, "crown pl");
    assert_string_equal(r.out, "play\nplayouts\n");
    bash_completes(&r, "crown play kings-valley --rule no-move=");
    assert_string_equal(r.out, "loss\ndraw\n");
    bash_completes(&r, "crown help --man ser");
    assert_string_equal(r.out, "serve\n");
    bash_completes(&r, "crown play king-d");
    assert_string_equal(r.out, "king-down\n");
    // The overview page names every command's page.
    FILE *f = fopen("docs/crown.1", "r");
    assert_non_null(f);
    static char page[65536];
    page[fread(page, 1, sizeof page - 1, f)] = '\0';
    fclose(f);
    // Its header names this version, as the generated pages do.
    run(&r, "--version", NULL);
    char title[64];
    snprintf(title, sizeof title, "\"%.*s\" \"User Commands\"\n", (int)strcspn(r.out, "\n"), r.out);
    if (strstr(page, title) == NULL)
        fail_msg("docs/crown.1's .TH line does not end %s", title);
    run(&r, "completion words 1 crown ''", NULL);
    for (char *w = strtok(r.out, "\n"); w; w = strtok(NULL, "\n")) {
        if (w[0] == '-')
            continue;
        char ref[64];
        snprintf(ref, sizeof ref, ".BR crown\\-%s (1)", w);
        if (strstr(page, ref) == NULL)
            fail_msg("docs/crown.1 does not name crown-%s(1)", w);
        assert_page_is_help(w);
    }
}

static void test_uci(void **state)
{
    (void)state;
    static Run r;
    run(&r, "uci", "uci\nisready\nquit\n");
    assert_int_equal(r.status, 0);
    assert_contains(&r, "id name crown");
    assert_contains(&r, "option name Hash type spin");
    assert_contains(&r, "option name Level type spin");
    assert_contains(&r, "uciok\nreadyok\n");
    // A searched move is legal: the same position takes it back as a move.
    run(&r, "uci", "ucinewgame\nposition startpos moves e2e4 e7e5 g1f3\ngo depth 3\n");
    assert_contains(&r, "info depth 3 score cp ");
    assert_contains(&r, " pv ");
    char best[16], input[256];
    bestmove_of(&r, best, sizeof best);
    snprintf(input, sizeof input, "position startpos moves e2e4 e7e5 g1f3 %s\ngo depth 1\n", best);
    run(&r, "uci", input);
    assert_lacks(&r, "error");
    assert_contains(&r, "bestmove ");
    // Castling is read as the king's two-square step, and the clocks give a move.
    run(&r, "uci", "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1 f8c5 d2d3 "
                   "e8g8\ngo wtime 2000 btime 2000 winc 10 binc 10 movestogo 5\n");
    assert_lacks(&r, "error");
    assert_contains(&r, "bestmove ");
    // position fen: a mate in one, and a finished game.
    run(&r, "uci", "position fen 6k1/8/6K1/8/8/8/8/7Q w - - 0 1\ngo depth 4\n"
                   "position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1\ngo depth 2\n");
    assert_contains(&r, "score mate 1 ");
    assert_contains(&r, "bestmove h1a8\n");
    assert_contains(&r, "bestmove 0000\n");
    // go movetime, and stop (with isready heard) during go infinite.
    run(&r, "uci", "go movetime 100\n");
    assert_int_equal(count_of(r.out, "bestmove "), 1);
    run(&r, "uci", "setoption name Hash value 8\ngo infinite\nisready\nstop\nisready\n");
    assert_contains(&r, "readyok\n");
    assert_int_equal(count_of(r.out, "readyok"), 2);
    assert_int_equal(count_of(r.out, "bestmove "), 1);
    // Bad input: one error line each, the position unchanged, the engine still there.
    run(&r, "uci", "position startpos moves e2e4\nposition startpos moves e7e5\n"
                   "position fen nonsense\nposition\nfoo\n"
                   "setoption name Level value 11\nsetoption name Colour value red\n"
                   "ponderhit\ngo depth 1\n");
    assert_int_equal(r.status, 0);
    assert_int_equal(count_of(r.out, "info string error: "), 6);
    assert_contains(&r, "move 'e7e5': ");
    assert_contains(&r, "unknown command 'foo'");
    bestmove_of(&r, best, sizeof best);
    assert_true(best[1] == '7' || best[1] == '8'); /* Black moves: e2e4 was kept */
    run(&r, "uci extra", NULL);
    assert_int_equal(r.status, 2);
}

/* `go` always ends in a bestmove: words it does not know, or numbers out of range, are
 * reported and ignored (the UCI spec); searchmoves restricts the root, mate N bounds
 * the depth, and every iteration writes its own info line. */
static void test_uci_go_words(void **state)
{
    (void)state;
    static Run r;
    // Each bad word comes with a good limit: a go left with none would search its
    // default 5 s.
    run(&r, "uci", "go depth x movetime 20\ngo sideways depth 1\ngo depth 2 wtime\n"
                   "go depth 1 btime 1000 p1time 5\n");
    assert_int_equal(r.status, 0);
    assert_int_equal(count_of(r.out, "bestmove "), 4);
    assert_lacks(&r, "info string error");
    assert_contains(&r, "info string go: depth takes a whole number from 0 to 128; ignored\n");
    assert_contains(&r, "info string go: unknown word 'sideways' ignored\n");
    assert_contains(&r, "info string go: wtime takes a whole number");
    assert_contains(&r, "info string go: unknown word 'p1time 5' ignored\n");
    // searchmoves: only the named moves; an illegal one is reported; an empty list is
    // no restriction.
    run(&r, "uci", "position startpos\ngo depth 4 searchmoves a2a3 h2h4 e2e5\n");
    assert_contains(&r, "info string go: searchmoves: 'e2e5' is not a legal move here, ignored");
    char best[16];
    bestmove_of(&r, best, sizeof best);
    assert_true(strcmp(best, "a2a3") == 0 || strcmp(best, "h2h4") == 0);
    run(&r, "uci", "position startpos\ngo searchmoves g1h3 depth 3\n");
    bestmove_of(&r, best, sizeof best);
    assert_string_equal(best, "g1h3");
    // mate 1 finds the mate in one; an iteration line per depth, with seldepth and
    // hashfull, then the answer's.
    run(&r, "uci", "position fen 6k1/8/6K1/8/8/8/8/7Q w - - 0 1\ngo mate 1\n");
    assert_contains(&r, "info depth 1 seldepth ");
    assert_contains(&r, "score mate 1 ");
    assert_contains(&r, "bestmove h1a8\n");
    run(&r, "uci", "position startpos\ngo depth 4\n");
    for (int d = 1; d <= 4; d++) {
        char line[48];
        snprintf(line, sizeof line, "info depth %d seldepth ", d);
        assert_non_null(strstr(r.out, line));
    }
    assert_contains(&r, " hashfull ");
    // UGI: UCI's clock words are another protocol's, ignored with their numbers.
    run(&r, "ugi kings-valley", "go wtime 1000 btime 1000 depth 2\n");
    assert_contains(&r, "info string go: unknown word 'wtime 1000' ignored\n");
    assert_int_equal(count_of(r.out, "bestmove "), 1);
}

/* The nodes of each search's answer, in order: the " nodes " of the last info line
 * before each bestmove (each iteration writes one too); returns how many (at most cap). */
static int nodes_of(const Run *r, long *out, int cap)
{
    int n = 0;
    long last = -1;
    for (const char *line = r->out; *line && n < cap;) {
        const char *end = strchr(line, '\n');
        const size_t len = end ? (size_t)(end - line) : strlen(line);
        const char *p = strstr(line, " nodes ");
        if (strncmp(line, "info depth ", 11) == 0 && p != NULL && p < line + len)
            last = strtol(p + strlen(" nodes "), NULL, 10);
        else if (strncmp(line, "bestmove ", 9) == 0 && last >= 0)
            out[n++] = last;
        line += len + (end != NULL);
    }
    return n;
}
/* crown running with a pipe each way, for answers that must come in time. */
typedef struct Session {
    pid_t pid;
    FILE *to, *from;
} Session;

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void session_open(Session *s, const char *args)
{
    int to[2], from[2];
    assert_int_equal(pipe(to), 0);
    assert_int_equal(pipe(from), 0);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "exec '%s' %s", getenv("CROWN_BIN"), args);
    s->pid = fork();
    assert_true(s->pid >= 0);
    if (s->pid == 0) {
        dup2(to[0], 0);
        dup2(from[1], 1);
        close(to[0]), close(to[1]), close(from[0]), close(from[1]);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    s->to = fdopen(to[1], "w");
    s->from = fdopen(from[0], "r");
    assert_true(s->to && s->from);
}

static void session_say(Session *s, const char *line)
{
    fprintf(s->to, "%s\n", line);
    fflush(s->to);
}

/* Reads lines up to the first that starts with `prefix`, into line. */
static void session_await(Session *s, const char *prefix, char *line, size_t cap)
{
    while (fgets(line, (int)cap, s->from))
        if (strncmp(line, prefix, strlen(prefix)) == 0)
            return;
    fail_msg("the engine ended before '%s'", prefix);
}

static void session_close(Session *s)
{
    session_say(s, "quit");
    fclose(s->to);
    char line[256];
    while (fgets(line, sizeof line, s->from))
        ;
    fclose(s->from);
    int st;
    assert_int_equal(waitpid(s->pid, &st, 0), s->pid);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* One agent serves a game: the second search of a position finds the first one's TT,
 * a new game or another level starts afresh, and fast clocks are kept. */
static void test_engine_session(void **state)
{
    (void)state;
    static Run r;
    long nodes[8];
    run(&r, "uci", "position startpos moves e2e4 e7e5 g1f3 b8c6\ngo depth 4\n");
    assert_int_equal(nodes_of(&r, nodes, 8), 1);
    const long fresh_later = nodes[0];
    run(&r, "uci", "uci\nisready\nposition startpos moves e2e4 e7e5\ngo depth 4\ngo depth 4\n"
                   "position startpos moves e2e4 e7e5 g1f3 b8c6\ngo depth 4\n"
                   "ucinewgame\nposition startpos moves e2e4 e7e5\ngo depth 4\n"
                   "setoption name Level value 9\ngo depth 4\n"
                   "setoption name Move Overhead value 50\ngo depth 4\n"
                   "setoption name Move Overhead value -1\n");
    assert_int_equal(nodes_of(&r, nodes, 8), 6);
    assert_true(nodes[1] < nodes[0]);     /* the same search again, from the TT */
    assert_true(nodes[2] < fresh_later);  /* the game goes on: still helped */
    assert_int_equal(nodes[3], nodes[0]); /* ucinewgame forgets everything */
    /* a new level, a new agent: no TT help (level 9's noise changes the count) */
    assert_true(nodes[4] > nodes[1]);
    assert_true(nodes[5] < nodes[0]);     /* Move Overhead keeps the agent */
    assert_int_equal(count_of(r.out, "info string error: "), 1);
    assert_contains(&r, "Move Overhead takes 0 to 5000 (ms), not '-1'");
    assert_contains(&r, "option name Move Overhead type spin default 30 min 0 max 5000\n");

    // Eval: King Down has a network, so the option is offered; choosing it makes a new
    // agent that searches with the net (another node count), and back again the first.
    run(&r, "uci", "uci\nposition startpos\ngo depth 4\nsetoption name Eval value nnue\n"
                   "go depth 4\nsetoption name Eval value classic\nucinewgame\n"
                   "position startpos\ngo depth 4\nsetoption name Eval value deep\n");
    assert_contains(&r, "option name Eval type combo default classic var classic var nnue\n");
    assert_int_equal(nodes_of(&r, nodes, 8), 3);
    assert_true(nodes[1] != nodes[0]);
    assert_int_equal(nodes[2], nodes[0]);
    assert_int_equal(count_of(r.out, "info string error: "), 1);
    assert_contains(&r, "Eval takes classic or nnue, not 'deep'");
    // King's Castle's net is its default (nets/kings-castle.txt): the option says so.
    run(&r, "ugi kings-castle", "ugi\n");
    assert_contains(&r, "option name Eval type combo default nnue var classic var nnue\n");
    // A game without a network has no Eval option.
    run(&r, "ugi kings-valley", "ugi\nsetoption name Eval value nnue\n");
    assert_lacks(&r, "option name Eval");
    assert_contains(&r, "no option 'Eval'");

    // Each answer on a 200 ms clock with 10 ms a move comes before the flag would fall,
    // counted as a match runner counts it: from `go` sent to `bestmove` read.
    Session s;
    session_open(&s, "uci");
    session_say(&s, "uci");
    char line[4096], moves[2048] = "position startpos moves", go[128];
    session_await(&s, "uciok", line, sizeof line);
    session_say(&s, "isready");
    session_await(&s, "readyok", line, sizeof line);
    int64_t left[2] = {200, 200};
    for (int ply = 0; ply < 16; ply++) {
        const int side = ply % 2;
        snprintf(go, sizeof go, "go wtime %lld btime %lld winc 10 binc 10",
                 (long long)left[0], (long long)left[1]);
        session_say(&s, moves);
        const int64_t t0 = now_ms();
        session_say(&s, go);
        session_await(&s, "bestmove ", line, sizeof line);
        const int64_t used = now_ms() - t0;
        if (used >= left[side])
            fail_msg("ply %d: %lld ms for the move with %lld ms left", ply, (long long)used,
                     (long long)left[side]);
        left[side] += 10 - used;
        line[strcspn(line, "\n")] = '\0';
        strcat(moves, line + strlen("bestmove"));
    }
    // `stop` ends a long search at once.
    session_say(&s, moves);
    session_say(&s, "go movetime 60000");
    session_say(&s, "stop");
    const int64_t t0 = now_ms();
    session_await(&s, "bestmove ", line, sizeof line);
    assert_true(now_ms() - t0 < 1000);
    session_close(&s);
}

/* Runs `crown ARGS --out TEMP` into *r, expecting success, and the games it wrote into
 * records (cap bytes). */
static void run_recorded(Run *r, const char *args, char *records, size_t cap)
{
    char path[200];
    temp_path(path, sizeof path, "crown-match-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s --out %s", args, path);
    run(r, cmd, NULL);
    assert_int_equal(r->status, 0);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(records, 1, cap - 1, f);
    records[n] = '\0';
    fclose(f);
    unlink(path);
}

static void test_ugi(void **state)
{
    (void)state;
    static Run r;
    run(&r, "ugi kings-valley", "ugi\nisready\nquit\n");
    assert_int_equal(r.status, 0);
    assert_contains(&r, "id name crown (kings-valley)");
    assert_contains(&r, "option name max-plies type spin default 300 min 0 max 1000\n");
    assert_contains(&r, "option name no-move type combo default loss var loss var draw\n");
    assert_contains(&r, "ugiok\nreadyok\n");
    // Position and moves, queries, a searched move that reads back as a move.
    run(&r, "ugi kings-valley", "uginewgame\nposition startpos moves b1-b4 c5-c2\n"
                                "query p1turn\nquery gameover\nquery result\ngo depth 3\n");
    assert_contains(&r, "response true\nresponse false\nresponse none\n");
    assert_contains(&r, "info depth 3 score cp ");
    char best[64], input[256];
    bestmove_of(&r, best, sizeof best);
    snprintf(input, sizeof input, "position startpos moves b1-b4 c5-c2 %s\nquery p1turn\n", best);
    run(&r, "ugi kings-valley", input);
    assert_lacks(&r, "error");
    assert_contains(&r, "response false\n");
    // A finished game: the result from the first player's view.
    run(&r, "ugi kings-valley", "position fen 2k2/5/2K2/5/5 2 9\nquery gameover\n"
                                "query result\n");
    assert_contains(&r, "response true\nresponse p1win\n");
    // A King's Guard turn of several actions is one word, both ways; clocks give a move.
    run(&r, "ugi kings-guard", "go p1time 2000 p2time 2000 p1inc 10 p2inc 10\n");
    bestmove_of(&r, best, sizeof best);
    assert_non_null(strchr(best, ';'));
    snprintf(input, sizeof input, "position startpos moves %s\nquery p1turn\n", best);
    run(&r, "ugi kings-guard", input);
    assert_lacks(&r, "error");
    assert_contains(&r, "response false\n");
    // A rule option re-creates the game; stop during go infinite, isready heard.
    run(&r, "ugi kings-valley", "setoption name max-plies value 40\ngo infinite\nisready\n"
                                "stop\nisready\n");
    assert_int_equal(count_of(r.out, "readyok"), 2);
    assert_int_equal(count_of(r.out, "bestmove "), 1);
    // Bad input: one error line each, and the engine goes on.
    run(&r, "ugi kings-valley", "position startpos moves b1-b6\nquery colour\n"
                                "setoption name max-plies value 5000\nposition fen x\n"
                                "query p1turn\n");
    assert_int_equal(r.status, 0);
    assert_int_equal(count_of(r.out, "info string error: "), 4);
    assert_contains(&r, "response true\n");
    run(&r, "ugi king-of-the-valley", NULL);
    assert_int_equal(r.status, 2);
    assert_contains(&r, "cannot be played over UGI");
}

/* Crown against itself through the protocols, and engines that misbehave: each
 * misdeed loses that game with its reason, and the runner goes on. */
static void test_outside_engines(void **state)
{
    (void)state;
    static Run r;
    const char *bin = getenv("CROWN_BIN");
    char args[1024];
    // Two outside engines, each with its own option.
    snprintf(args, sizeof args, "match kings-valley --players 'ugi:%s ugi kings-valley',"
             "'ugi:%s ugi kings-valley' --games 2 --depth 2 --engine-option 1:Level=1 "
             "--engine-option 2:Level=5", bin, bin);
    run(&r, args, NULL);
    assert_int_equal(r.status, 0);
    assert_contains(&r, ": 2 games, ");
    assert_lacks(&r, "forfeit");
    snprintf(args, sizeof args, "match king-down --rule setup=classic --rule castling=on "
             "--rule en-passant=on --rule promotion=classic --rule max-plies=40 "
             "--players 'uci:%s uci',ai:1 --games 2 --tc 0.4+0.01", bin);
    run(&r, args, NULL);
    assert_int_equal(r.status, 0);
    assert_contains(&r, ": 2 games, ");
    assert_lacks(&r, "forfeit");
    char path[200];
    temp_path(path, sizeof path, "crown-engines-XXXXXX");
    int fd = mkstemp(path);
    close(fd);
    static const struct {
        const char *mode, *limit, *reason;
    } CASES[] = {
        {"illegal", "--movetime 20", "played 'a3-a3', which is illegal: "},
        {"silent", "--movetime 20", "forfeits: ugi:tests/support/fake-engine.sh silent gave "
                                    "no move within 1040 ms"},
        {"silent", "--tc 0.2", "lost on time"},
        {"exit", "--movetime 20", "exited with status 3"},
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        snprintf(args, sizeof args, "match kings-valley --players "
                 "ai:1,'ugi:tests/support/fake-engine.sh %s' --games %d %s --out %s",
                 CASES[i].mode, CASES[i].limit[2] == 't' ? 1 : 2, CASES[i].limit, path);
        run(&r, args, NULL);
        assert_int_equal(r.status, 0);
        assert_contains(&r, "0 draws, 0 losses");
        assert_contains(&r, CASES[i].reason);
        read_into(&r, path);
        assert_contains(&r, "\nresult ");
        assert_contains(&r, CASES[i].reason);
    }
    unlink(path);
    // crown play: an outside seat moves by itself, and its forfeit ends the game.
    snprintf(args, sizeof args, "play kings-valley --players human,'ugi:%s ugi kings-valley' "
             "--depth 1", bin);
    run(&r, args, "a1-a4\nquit\n");
    assert_int_equal(r.status, 0);
    assert_contains(&r, "second player (ugi:");
    assert_contains(&r, " plays ");
    run(&r, "play kings-valley --players human,'uci:tests/support/fake-engine.sh illegal' "
            "--depth 1", "a1-a4\nb1-b4\n");
    assert_contains(&r, "Game over: first player (human) wins: second player (uci:");
    assert_contains(&r, "which is illegal");
        // An option for a seat that is not an outside engine, a command that does not run.
    run(&r, "match kings-valley --players ai:1,random --engine-option 1:Level=2", NULL);
    assert_int_equal(r.status, 1);
    assert_contains(&r, "not an outside engine");
    run(&r, "match kings-valley --players ai:1,uci:/nonexistent/engine --games 1 --depth 1",
        NULL);
    assert_contains(&r, "cannot start '/nonexistent/engine'");
    run(&r, "match king-of-the-valley --rule players=3 --players ai,ai,ugi:x", NULL);
    assert_contains(&r, "two-player games only");
    run(&r, "match king-of-the-valley --players ai,ugi:x", NULL);
    assert_contains(&r, "need a game of perfect information without chance");
    run(&r, "match king-down --rule notation=san --players ai,uci:x", NULL);
    assert_contains(&r, "use --rule notation=long");
}

/* The flag rule of every front end (play/clock.h) in crown match: a seat whose clock runs
 * out loses, unless its opponent cannot win (a bare king in King Down), as in the web:
 * then the game is a draw. The silent engine is to move and flags on --tc. */
static void test_match_flag_rule(void **state)
{
    (void)state;
    static Run r;
    static const struct {
        const char *position, *result, *score;
    } CASES[] = {
        {"r3k3/8/8/8/8/8/8/4K3 b - - 0 1",
         "game 1: draw: the second player ran out of time but the first player cannot win "
         "(ugi:tests/support/fake-engine.sh silent: lost on time (",
         "1 games, 0 wins, 1 draws, 0 losses"},
        {"r3k3/8/8/8/8/8/8/R3K3 b - - 0 1",
         "game 1: first player (ai:1) wins: second player (ugi:tests/support/fake-engine.sh "
         "silent) lost on time (",
         "1 games, 1 wins, 0 draws, 0 losses"},
    };
    char args[512];
    for (size_t i = 0; i < sizeof CASES / sizeof *CASES; i++) {
        snprintf(args, sizeof args, "match king-down --position '%s' --players "
                 "ai:1,'ugi:tests/support/fake-engine.sh silent' --games 1 --tc 0.2",
                 CASES[i].position);
        run(&r, args, NULL);
        assert_int_equal(r.status, 0);
        assert_contains(&r, CASES[i].result);
        assert_contains(&r, CASES[i].score);
    }
}

static void test_match(void **state)
{
    (void)state;
    static Run r;
    static char buf[1 << 16];
    run_recorded(&r,
                 "match kings-valley --players ai:2,random --games 6 --depth 2 --seed 5 --jobs 2",
                 buf, sizeof buf);
    assert_contains(&r, "ai:2 vs random: 6 games, ");
    assert_contains(&r, "Elo difference");
    assert_int_equal(count_of(buf, "crown-record 1"), 6);
    // The same seed gives the same games.
    static Run again;
    run(&again, "match kings-valley --players ai:2,random --games 6 --depth 2 --seed 5", NULL);
    const char *a = strstr(r.out, "ai:2 vs random"), *b = strstr(again.out, "ai:2 vs random");
    assert_non_null(a);
    assert_non_null(b);
    assert_memory_equal(a, b, strcspn(a, "\n"));
}

/* A match's games as they were played before the game loop moved to play/self_play.c:
 * the loop and the pool may change, the games they play may not. Only a change of the
 * rules or of the agents (which changes the bench signature too) may change these. */
static void test_match_games_pinned(void **state)
{
    (void)state;
    static Run r;
    run(&r, "match king-of-the-valley --rule players=3 --players ai:1,greedy,random --games 6 "
            "--depth 1 --seed 3",
        NULL);
    assert_int_equal(r.status, 0);
    static const char *const games[] = {
        "game 1: ai:1 +1, greedy +0, random -1 (148 actions)",
        "game 2: ai:1 +0, greedy +1, random -1 (153 actions)",
        "game 3: ai:1 +0, greedy +1, random -1 (157 actions)",
        "game 4: ai:1 +0, greedy +1, random -1 (147 actions)",
        "game 5: ai:1 +1, greedy +0, random -1 (155 actions)",
        "game 6: ai:1 +0, greedy +1, random -1 (153 actions)",
        "2   greedy                6      4       0     1.333      66.04      +0.667",
    };
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++)
        assert_contains(&r, games[i]);
}

/* The `start` line of the i-th record (0-based) in a --out file, into out. */
static void record_start(const char *records, int i, char *out, size_t cap)
{
    const char *p = records;
    for (int k = 0; k <= i; k++) {
        p = strstr(p, "\nstart ");
        assert_non_null(p);
        p++;
    }
    const size_t len = strcspn(p, "\n");
    assert_true(len < cap);
    memcpy(out, p, len);
    out[len] = '\0';
}

/* The first four games of a --out file start in pairs: games 1 and 2 from one start,
 * 3 and 4 from another; the first start goes to `first`. */
static void assert_paired_starts(const char *records, char *first, size_t cap)
{
    char s[4][128];
    for (int i = 0; i < 4; i++)
        record_start(records, i, s[i], sizeof s[i]);
    assert_string_equal(s[0], s[1]);
    assert_string_equal(s[2], s[3]);
    assert_string_not_equal(s[0], s[2]);
    snprintf(first, cap, "%s", s[0]);
}

/* Variety: equal agents at a fixed depth play different games, the same seed the same
 * games; a drawn set-up is shared by a pair of games and differs between pairs; an
 * openings file gives the starts, each played twice. */
static void test_match_variety(void **state)
{
    (void)state;
    static Run r, again;
    run(&r, "match retrieve-the-king --players ai:10,ai:10 --depth 3 --games 20 --seed 5", NULL);
    assert_int_equal(r.status, 0);
    const char *d = strstr(r.out, " distinct games of 20");
    assert_non_null(d);
    while (d > r.out && d[-1] >= '0' && d[-1] <= '9')
        d--;
    assert_true(atoi(d) >= 10);
    run(&again, "match retrieve-the-king --players ai:10,ai:10 --depth 3 --games 20 --seed 5",
        NULL);
    assert_string_equal(r.out, again.out);

    static char buf[1 << 16];
    char args[512], first[128];
    run_recorded(&r, "match king-down --players ai:1,ai:1 --depth 1 --games 4 --rule max-plies=12",
                 buf, sizeof buf);
    assert_contains(&r, "a random set-up per group");
    assert_paired_starts(buf, first, sizeof first);

    char openings[200];
    temp_path(openings, sizeof openings, "crown-openings-XXXXXX");
    int fd = mkstemp(openings);
    const char lines[] = "# two starts\nsk1ss/5/5/5/SSKSS 2 1\na1-a4 e5-e2\n";
    assert_true(write(fd, lines, sizeof lines - 1) == (ssize_t)(sizeof lines - 1));
    close(fd);
    snprintf(args, sizeof args,
             "match kings-valley --players ai:2,ai:2 --depth 1 --games 4 --openings %s", openings);
    run_recorded(&r, args, buf, sizeof buf);
    assert_paired_starts(buf, first, sizeof first);
    assert_string_equal(first, "start sk1ss/5/5/5/SSKSS 2 1");

    // A bad line is named, and nothing is played.
    fd = open(openings, O_WRONLY | O_TRUNC);
    const char bad[] = "a1-a4\nz9-z9\n";
    assert_true(write(fd, bad, sizeof bad - 1) == (ssize_t)(sizeof bad - 1));
    close(fd);
    snprintf(args, sizeof args, "match kings-valley --players ai:2,ai:2 --games 2 --openings %s",
             openings);
    run(&r, args, NULL);
    assert_int_not_equal(r.status, 0);
    assert_contains(&r, "line 2");
    assert_lacks(&r, "game 1:");
    unlink(openings);
}

/* A tiny real SPRT: alpha-beta at depth 2 against random is accepted as stronger within
 * a few pairs; bad hypotheses are refused. */
static void test_sprt(void **state)
{
    (void)state;
    static Run r;
    run(&r, "sprt kings-valley --base random --test ai:3 --elo0 0 --elo1 50 --depth 2 --seed 3",
        NULL);
    assert_int_equal(r.status, 0);
    assert_contains(&r, "bounds (-2.94, 2.94)");
    assert_contains(&r, "games 2: W 2 D 0 L 0  pairs 0 0 0 0 1  LLR ");
    assert_contains(&r, "H1 accepted: ai:3 is at least 50 Elo stronger than random");
    // An outside engine gets the limits and its options.
    char log[200];
    temp_path(log, sizeof log, "crown-sprt-engine-XXXXXX");
    int fd = mkstemp(log);
    close(fd);
    char args[512];
    snprintf(args, sizeof args, "sprt kings-valley --base 'ugi:tests/support/fake-engine.sh "
             "log %s' --test ai:1 --elo0 0 --elo1 50 --movetime 20 --engine-option Level=2 "
             "--games-max 2", log);
    run(&r, args, NULL);
    assert_int_equal(r.status, 0);
    assert_contains(&r, "games 2: W 2 D 0 L 0");
    read_into(&r, log);
    unlink(log);
    assert_contains(&r, "setoption name Level value 2\n");
    assert_contains(&r, "go movetime 20\n");
    run(&r, "sprt kings-valley --base random --test ai:3 --elo0 5 --elo1 0", NULL);
    assert_int_equal(r.status, 2);
    assert_contains(&r, "--elo0 (5) must be below --elo1 (0)");
    run(&r, "sprt king-of-the-valley --rule players=3 --base random --test random --elo0 0 "
            "--elo1 5",
        NULL);
    assert_int_not_equal(r.status, 0);
    assert_contains(&r, "two-player game");
}

/* crown tune end to end on a few tiny games: generate, fit a pass, write the table; and
 * the errors of a game without weights, a missing file and a bad option. */
/* The crosstable's cells of a tournament of n players (points of row r against column
 * c, -1 for '*' and -2 for '-'): the last n words of each row, as names may have spaces. */
static void read_crosstable(const Run *r, int n, double cell[][8])
{
    const char *t = strstr(r->out, "crosstable");
    assert_non_null(t);
    t = strchr(strchr(t, '\n') + 1, '\n') + 1; // past the column numbers
    for (int row = 0; row < n; row++) {
        char line[256];
        const size_t len = strcspn(t, "\n");
        assert_true(len < sizeof line);
        memcpy(line, t, len);
        line[len] = '\0';
        char *words[64];
        int k = 0;
        for (char *w = strtok(line, " "); w && k < 64; w = strtok(NULL, " "))
            words[k++] = w;
        assert_true(k >= n + 2);
        assert_int_equal(atoi(words[0]), row + 1);
        for (int col = 0; col < n; col++) {
            const char *w = words[k - n + col];
            cell[row][col] = strcmp(w, "*") == 0 ? -1 : strcmp(w, "-") == 0 ? -2 : atof(w);
        }
        t += len + 1;
    }
}

/* crown tournament: three AI players in a round-robin on two threads to the end, the
 * crosstable consistent with the places and the records, the same again on one thread;
 * a gauntlet led by an outside engine on two threads from an openings file; bad input
 * refused in words. */
static void test_tournament(void **state)
{
    (void)state;
    static Run r, again;
    static char buf[1 << 16];
    const char *args = "tournament kings-valley --players ai:1,ai:2,ai:3 --depth 1 --seed 3";
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s --concurrency 2", args);
    run_recorded(&r, cmd, buf, sizeof buf);
    assert_contains(&r, "round-robin of 3 players, 6 games (2 a meeting, 1 cycle)");
    assert_contains(&r, "[6/6] round ");
    assert_int_equal(count_of(buf, "crown-record 1"), 6);
    assert_contains(&r, "6 games written to ");
    double cell[8][8], last = 99, total = 0;
    read_crosstable(&r, 3, cell);
    for (int a = 0; a < 3; a++) {
        double row = 0;
        for (int b = 0; b < 3; b++) {
            if (a == b) {
                assert_true(cell[a][b] == -1);
                continue;
            }
            assert_true(cell[a][b] + cell[b][a] == 2); // two games a meeting
            row += cell[a][b];
        }
        assert_true(row <= last); // rows in order of place, places by points first
        last = row;
        total += row;
    }
    assert_true(total == 6);
    // One thread plays the same games: the same table.
    run(&again, args, NULL);
    assert_int_equal(again.status, 0);
    const char *x = strstr(r.out, "place  player"), *y = strstr(again.out, "place  player");
    assert_non_null(y);
    assert_memory_equal(x, y, (size_t)(strstr(x, "distinct") - x));

    // Openings: each meeting plays every start with both colours, every pair the same.
    char openings[200], first[128];
    temp_path(openings, sizeof openings, "crown-openings-XXXXXX");
    int fd = mkstemp(openings);
    const char lines[] = "sk1ss/5/5/5/SSKSS 2 1\na1-a4 e5-e2\n";
    assert_true(write(fd, lines, sizeof lines - 1) == (ssize_t)(sizeof lines - 1));
    close(fd);
    snprintf(cmd, sizeof cmd, "tournament kings-valley --players 'ugi:%s ugi kings-valley',"
             "ai:1,ai:2 --format gauntlet --games 4 --openings %s --depth 1 --concurrency 2 "
             "--engine-option 1:Level=2", getenv("CROWN_BIN"), openings);
    run_recorded(&r, cmd, buf, sizeof buf);
    unlink(openings);
    assert_contains(&r, "gauntlet of 3 players, 8 games (4 a meeting, 1 cycle); "
                        "starts: openings from");
    assert_lacks(&r, "forfeit");
    assert_paired_starts(buf, first, sizeof first);
    assert_string_equal(first, "start sk1ss/5/5/5/SSKSS 2 1");
    assert_int_equal(count_of(buf, first), 4);
    read_crosstable(&r, 3, cell);
    int unmet = 0;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            unmet += cell[a][b] == -2;
    assert_int_equal(unmet, 2); // the two challengers never meet

    static const char *const bad[][2] = {
        {"--players ai:1,ai:2 --format swiss", "--format is round-robin or gauntlet"},
        {"--players ai:1", "at least 2 players"},
        {"--players ai:1,,ai:2", "entry 2 is empty"},
        {"--players ai:1,human", "AI players and outside engines"},
        {"--players ai:1,wizard", "--players entry 2: "},
        {"--players ai:1,ai:2 --rounds 0", "--rounds takes a whole number from 1"},
        {"--players ai:1,ai:2 --engine-option 2:Hash=1", "not an outside engine"},
        {"", "usage: crown tournament GAME --players"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(cmd, sizeof cmd, "tournament kings-valley %s", bad[i][0]);
        run(&r, cmd, NULL);
        assert_true(r.status != 0);
        assert_contains(&r, bad[i][1]);
        assert_lacks(&r, "[1/");
    }
    run(&r, "tournament king-of-the-valley --rule players=3 --players ai,ai,ai", NULL);
    assert_contains(&r, "needs a two-player game");
}

static void test_tune(void **state)
{
    (void)state;
    static Run r;
    char data[200], table[200];
    temp_path(data, sizeof data, "crown-tune-data-XXXXXX");
    temp_path(table, sizeof table, "crown-tune-table-XXXXXX");
    close(mkstemp(data));
    close(mkstemp(table));
    char args[512];
    snprintf(args, sizeof args, "tune king-down --generate 2 --depth 1 --per-game 5 --seed 2 --out %s",
             data);
    run(&r, args, NULL);
    assert_int_equal(r.status, 0);
    assert_contains(&r, "positions of 2 games (0 failed) written to");
    // The piece values only: all 54 weights on 10 positions walk for 11 s.
    snprintf(args, sizeof args,
             "tune king-down --fit %s --passes 1 --step 4 --only value_ --write %s", data, table);
    run(&r, args, NULL);
    assert_int_equal(r.status, 0);
    assert_contains(&r, "positions of king-down, 54 weights, 10 tuned");
    assert_contains(&r, "pass 1, step 4: error ");
    assert_contains(&r, " before, ");
    assert_contains(&r, "weights written to");
    FILE *f = fopen(table, "r");
    assert_non_null(f);
    char text[256];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    assert_non_null(strstr(text, "GENERATED by crown tune"));
    run(&r, "tune kings-castle", NULL);
    assert_int_equal(r.status, 1);
    assert_contains(&r, "kings-castle has no evaluation weights to tune");
    run(&r, "tune king-down --fit /nonexistent/data", NULL);
    assert_int_equal(r.status, 1);
    assert_contains(&r, "cannot open '/nonexistent/data'");
    run(&r, "tune king-down --generate 2", NULL);
    assert_int_equal(r.status, 2);
    assert_contains(&r, "--generate needs --out FILE");
    run(&r, "tune king-down --generate 2 --eval deep", NULL);
    assert_int_equal(r.status, 2);
    assert_contains(&r, "--eval takes classic or nnue, not 'deep'");
    run(&r, "tune king-down --eval classic", NULL);
    assert_int_equal(r.status, 2);
    assert_contains(&r, "--eval goes with --generate");

    // SIGTERM ends a long run after a whole game: status 0, and the file is what
    // --generate N writes for the N it reports. The signal goes once the file has its
    // first buffer (its header and whole games: a game's lines are written together),
    // so that some game is done however slow the build (at most 30 s).
    const char *gen =
        "tune kings-valley-labyrinth --depth 1 --per-game 0 --score-nodes 100 --seed 3 --jobs 2";
    char cmd[1024], stopped[240], file[240];
    snprintf(stopped, sizeof stopped, "%s.stopped", data);
    snprintf(file, sizeof file, "%s.whole", data);
    snprintf(cmd, sizeof cmd,
             "'%s' %s --generate 100000 --out %s 2>&1 & p=$!; "
             "for i in $(seq 600); do [ -s %s ] && break; sleep 0.05; done; kill -TERM $p; "
             "wait $p; echo status $?",
             getenv("CROWN_BIN"), gen, stopped, stopped);
    run_shell(&r, cmd);
    assert_contains(&r, "status 0");
    const char *said = strstr(r.out, "stopped: the first ");
    if (said == NULL)
        fail_msg("no stop reported: %s", r.out);
    const long games = strtol(said + strlen("stopped: the first "), NULL, 10);
    assert_true(games > 0 && games < 100000);
    snprintf(args, sizeof args, "%s --generate %ld --out %s", gen, games, file);
    run(&r, args, NULL);
    assert_int_equal(r.status, 0);
    snprintf(cmd, sizeof cmd, "cmp %s %s && echo same", stopped, file);
    run_shell(&r, cmd);
    assert_contains(&r, "same");
    unlink(stopped);
    unlink(file);
    unlink(data);
    unlink(table);
}

/* More than two players: a table per player (wins, mean rank, score) and by seat; the
 * same seed gives the same table. */
static void test_match_many_players(void **state)
{
    (void)state;
    static Run r, again;
    const char *args = "match king-of-the-valley --rule players=3 --players ai,greedy,random "
                       "--games 3 --nodes 40 --seed 2 --jobs 2";
    run(&r, args, NULL);
    assert_int_equal(r.status, 0);
    assert_contains(&r, "mean rank");
    assert_contains(&r, "mean score");
    assert_contains(&r, "mean rank by seat");
    const char *table = strstr(r.out, "    player");
    assert_non_null(table);
    run(&again, args, NULL);
    const char *table2 = strstr(again.out, "    player");
    assert_non_null(table2);
    assert_string_equal(table, table2);
}

/* The sanitizer build runs crown several times slower: there the bench is checked on a
 * few games (each game's lines are its own), in the release build on all. */
#if defined(__SANITIZE_ADDRESS__)
#define BENCH_SUBSET 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BENCH_SUBSET 1
#endif
#endif
#ifndef BENCH_SUBSET
#define BENCH_SUBSET 0
#endif

/* Appends to `out` the lines of bench/signature that start with `prefix` (all lines but
 * comments when prefix is ""). */
static void signature_lines(const char *prefix, char *out, size_t cap)
{
    FILE *f = fopen("bench/signature", "r");
    assert_non_null(f);
    char line[4096];
    size_t len = strlen(out);
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || strncmp(line, prefix, strlen(prefix)) != 0)
            continue;
        assert_true(len + strlen(line) < cap);
        memcpy(out + len, line, strlen(line) + 1);
        len += strlen(line);
    }
    fclose(f);
}

/* The bench output without its timing line (and, for one game, without "Bench:"). */
static void bench_lines(const char *out, bool with_total, char *kept, size_t cap)
{
    size_t len = 0;
    kept[0] = '\0';
    for (const char *p = out; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) + 1 : strlen(p);
        if (strncmp(p, "time ", 5) != 0 && (with_total || strncmp(p, "Bench: ", 7) != 0)) {
            assert_true(len + n < cap);
            memcpy(kept + len, p, n);
            len += n;
            kept[len] = '\0';
        }
        p += n;
    }
}

static void test_bench_signature(void **state)
{
    (void)state;
    static Run r;
    static char expected[1 << 16], got[1 << 16];
    expected[0] = '\0';
    if (!BENCH_SUBSET) {
        signature_lines("", expected, sizeof expected);
        run(&r, "bench", NULL);
        assert_int_equal(r.status, 0);
        bench_lines(r.out, true, got, sizeof got);
        assert_string_equal(got, expected);
        // --eval nnue: King Down searched with its net says so; a game without one is an error.
        run(&r, "bench king-down --eval nnue", NULL);
        assert_int_equal(r.status, 0);
        assert_contains(&r, "king-down total ");
        assert_contains(&r, " (nnue evaluation)\n");
        run(&r, "bench kings-valley --eval nnue", NULL);
        assert_int_equal(r.status, 1);
        assert_contains(&r, "kings-valley has no evaluation network");
        run(&r, "bench --eval deep", NULL);
        assert_int_equal(r.status, 2);
        assert_contains(&r, "--eval takes classic or nnue, not 'deep'");
        return;
    }
    // One game of each search: alpha-beta on a small board, MCTS on the tile game.
    static const char *const SUBSET[] = {"kings-valley", "kings-guard-8x8", "king-of-the-valley"};
    for (size_t i = 0; i < sizeof SUBSET / sizeof SUBSET[0]; i++) {
        char prefix[64], args[96];
        snprintf(prefix, sizeof prefix, "%s ", SUBSET[i]);
        snprintf(args, sizeof args, "bench %s", SUBSET[i]);
        expected[0] = '\0';
        signature_lines(prefix, expected, sizeof expected);
        assert_true(expected[0] != '\0');
        run(&r, args, NULL);
        assert_int_equal(r.status, 0);
        bench_lines(r.out, false, got, sizeof got);
        assert_string_equal(got, expected);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_help_and_games),
        cmocka_unit_test(test_perft),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_play_script),
        cmocka_unit_test(test_play_nul_and_long_lines),
        cmocka_unit_test(test_play_rejects_without_change),
        cmocka_unit_test(test_play_against_ai_and_undo),
        cmocka_unit_test(test_play_second_seat_and_typing),
        cmocka_unit_test(test_play_resign_and_draw),
        cmocka_unit_test(test_play_save_load),
        cmocka_unit_test(test_play_ai_vs_ai_to_the_end),
        cmocka_unit_test(test_analyze),
        cmocka_unit_test(test_help_man_completion),
        cmocka_unit_test(test_uci),
        cmocka_unit_test(test_uci_go_words),
        cmocka_unit_test(test_ugi),
        cmocka_unit_test(test_engine_session),
        cmocka_unit_test(test_outside_engines),
        cmocka_unit_test(test_match_flag_rule),
        cmocka_unit_test(test_match),
        cmocka_unit_test(test_match_games_pinned),
        cmocka_unit_test(test_match_variety),
        cmocka_unit_test(test_sprt),
        cmocka_unit_test(test_tournament),
        cmocka_unit_test(test_tune),
        cmocka_unit_test(test_match_many_players),
        cmocka_unit_test(test_bench_signature),
    };
    return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
