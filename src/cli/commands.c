/*
 * commands.c - the table of the crown program's subcommands (commands.h).
 */
#include "cli/commands.h"

#include <string.h>

#include "cli/cli.h"

static const CliCommand COMMANDS[] = {
    {"games", cmd_games, "crown games", "list every game with its rule options", NULL},
    {"play", cmd_play,
     "crown play GAME [--players SPEC,SPEC] [--rule NAME=VALUE]... [--seed S] [--position TEXT]\n"
     "           [--depth N] [--nodes N] [--movetime MS] [--engine-option [K:]NAME=VALUE]...",
     "play on the terminal; SPEC is human or ai[:LEVEL] (also ab, mcts, random), or an\n"
     "      outside engine uci:COMMAND or ugi:COMMAND (docs/PROTOCOLS.md)", NULL},
    {"analyze", cmd_analyze,
     "crown analyze GAME [--position TEXT] [--rule NAME=VALUE]... [--agent SPEC]\n"
     "           [--depth N] [--nodes N] [--movetime MS] [--seed S]",
     "search one position; prints bestmove, score and principal variation", NULL},
    {"solve", cmd_solve,
     "crown solve kings-valley [--rule NAME=VALUE]... [--out FILE] [--threads N]\n"
     "           [--check N [--depth H] [--seed S]] [--report [--tablebase FILE]]\n"
     "           [--compress [--tablebase FILE] [--out FILE] [--level L] [--check N]]\n"
     "           [--soldiers N --out FILE]",
     "solve 5x5 King's Valley (and so Retrieve the King) by retrograde analysis: every\n"
     "      position's value into one table (about 1.7 GB; default in the data directory\n"
     "      beside crown.db); a killed solve resumes from FILE.part when run again;\n"
     "      --check N: N random positions of the table against alpha-beta H plies deep;\n"
     "      --report: the starts' values, first moves, perfect games, counts, longest win;\n"
     "      --compress: pack the table (outcomes and losses' distances in zstd blocks,\n"
     "      FILE.kvz beside it, coded against the packed table of locked-king-loses on\n"
     "      (or off, for no-move=draw) when that is beside it; read by every command\n"
     "      like the full one), compare every entry with the full table and time N\n"
     "      random probes (default 1000000); --level: zstd's, 1 to 22 (default 19;\n"
     "      3 packs ten times faster, 11 % bigger);\n"
     "      --soldiers N: a reduced game with N soldiers a side (for tests)", NULL},
    {"prove", cmd_prove,
     "crown prove GAME [--position TEXT] [--rule NAME=VALUE]... [--hours H] [--memory GB]\n"
     "           [--nodes N] [--numbers sum|weak] [--out FILE] [--checkpoint DIR]\n"
     "           | crown prove --verify FILE | crown prove --shrink N --checkpoint DIR --to DIR2\n"
     "           | crown prove kings-valley --check N [--seed S] [--jobs J] [--tablebase FILE]",
     "prove the value of a position (first player wins, second wins, draw, or unknown\n"
     "      at the budget) by depth-first proof-number search; --memory: the table in GB\n"
     "      (default 0.25); --hours, --nodes: the budget of this run; --out: write the\n"
     "      winning strategy from the search's table (a checkpoint's too: a proven\n"
     "      position's strategy without proving it again), to FILE.part renamed once\n"
     "      whole; --checkpoint: keep the table in DIR every 5 minutes, at the\n"
     "      budget and on SIGINT or SIGTERM, and resume from it when run again on the same\n"
     "      game, rules and position; --numbers weak: a node's sum over its children\n"
     "      becomes the largest plus one for each other open child (weak proof-number\n"
     "      search: a position many lines reach is not counted once for each line;\n"
     "      default sum); --verify: re-check a strategy by the rules alone; --shrink N:\n"
     "      copy DIR's checkpoint to DIR2 with only its N entries of most work, a file\n"
     "      small enough to keep or share that resumes the search; --check N:\n"
     "      prove N random positions the solved table decides within 15 plies\n"
     "      (kings-valley, retrieve-the-king; memory 4 MB each unless --memory) on J\n"
     "      threads (default 1; the same positions and result for any J) and fail on\n"
     "      any value that differs from the table's", NULL},
    {"puzzles", cmd_puzzles,
     "crown puzzles GAME --count N [--seed S] [--min-plies A --max-plies B] [--out FILE]\n"
     "           [--depth D] [--rule NAME=VALUE]... [--tablebase FILE] [--position TEXT]\n"
     "           | crown puzzles GAME --verify FILE [--sample N] [--depth D]",
     "find puzzles (one move that alone keeps the win, and the line on) and print one a\n"
     "      line as JSON: proven from the solved table for kings-valley and\n"
     "      retrieve-the-king, searched at depths D and D+4 (D 2) for the other games;\n"
     "      --verify: check a written set against the table, or by search (docs/PUZZLES.md)", NULL},
    {"perft", cmd_perft,
     "crown perft GAME DEPTH [--position TEXT] [--rule NAME=VALUE]... [--movetime MS]\n"
     "           [--generic]",
     "count the move tree to each depth (--generic: the interface's slow loop; --movetime:\n"
     "      start no deeper depth once that many milliseconds are spent)", NULL},
    {"match", cmd_match,
     "crown match GAME --players SPEC,SPEC --games N [--seed S] [--out FILE] [--jobs J]\n"
     "           [--openings FILE] [--rule NAME=VALUE]... [--depth N] [--nodes N]\n"
     "           [--movetime MS | --tc BASE+INC] [--engine-option [K:]NAME=VALUE]...",
     "play AI against AI with seats rotating; prints the score and Elo difference (two\n"
     "      players) or each player's wins, mean rank, mean score and mean rank by seat.\n"
     "      A SPEC may be an outside engine, uci:COMMAND or ugi:COMMAND; --engine-option\n"
     "      sets an option of every outside engine, or of --players entry K only; --tc\n"
     "      gives each seat a clock of BASE seconds plus INC a move (docs/PROTOCOLS.md)", NULL},
    {"sprt", cmd_sprt,
     "crown sprt GAME --base SPEC --test SPEC --elo0 E0 --elo1 E1 [--alpha A] [--beta B]\n"
     "           [--movetime MS] [--depth N] [--nodes N] [--games-max N] [--seed S]\n"
     "           [--jobs J] [--openings FILE] [--rule NAME=VALUE]...",
     "play pairs of games (seats swapped) until the sequential probability ratio test\n"
     "      accepts H0 (test is elo0 stronger) or H1 (elo1); prints W/D/L, LLR and Elo", NULL},
    {"tournament", cmd_tournament,
     "crown tournament GAME --players SPEC,SPEC,... [--format round-robin|gauntlet]\n"
     "           [--games N] [--rounds R] [--concurrency N] [--seed S] [--openings FILE]\n"
     "           [--out FILE] [--rule NAME=VALUE]... [--depth N] [--nodes N]\n"
     "           [--movetime MS | --tc BASE+INC] [--engine-option [K:]NAME=VALUE]...",
     "a round-robin (Berger tables) or a gauntlet (the first player against each other)\n"
     "      among AI players and outside engines (uci:COMMAND, ugi:COMMAND); each meeting\n"
     "      is --games games (2: one start with both colours), the schedule played --rounds\n"
     "      times (1; 2 for a double round-robin), --concurrency games at once (1); prints\n"
     "      each game on stderr as it ends, then the standings (points, Elo against the\n"
     "      field with its 95% margin, Sonneborn-Berger) and the crosstable; --out writes\n"
     "      every game's record (docs/TOURNAMENTS.md)", NULL},
    {"tune", cmd_tune,
     "crown tune GAME [--generate N --out FILE [--players A,B] [--depth N] [--nodes N]\n"
     "           [--random-plies N] [--skip-plies N] [--per-game N] [--seed S] [--jobs J]\n"
     "           [--score-nodes N] [--eval classic|nnue]] [--fit FILE [--only PREFIX,...]\n"
     "           [--step N] [--passes N]\n"
     "           [--jobs J]] [--write TABLE] [--rule NAME=VALUE]...",
     "Texel tuning of the evaluation's weights: --generate plays N self-play games (each from\n"
     "      its own set-up and --random-plies random actions, 4) and writes their quiet\n"
     "      positions (not in check, no capture played, after --skip-plies actions, 8; at\n"
     "      most --per-game of them drawn from each game, 40, 0 = all) with the result to\n"
     "      FILE, and with --score-nodes each position's score by a search of that many\n"
     "      nodes (the data of evaluation networks, docs/TRAINING.md); --eval: the players'\n"
     "      and the scores' evaluation (default: the game's). A Ctrl-C or SIGTERM\n"
     "      stops --generate after a whole game, the file then what --generate N writes\n"
     "      for the N it says. --fit fits the scale K, then the weights by coordinate\n"
     "      descent (steps from --step, 8, down to 1; at most --passes passes, 30) on the\n"
     "      mean squared error of sigmoid(K eval) against the results, and prints them\n"
     "      (--only: just the weights whose names start so, value_ say, the rest kept);\n"
     "      --write writes the fitted (or, alone, the current) weights as the game's C table.\n"
     "      Without these: the weights and their values (docs/STRENGTH.md)", NULL},
    {"nnue", cmd_nnue,
     "crown nnue GAME (--features DATA --out FILE | --eval DATA [--net FILE]\n"
     "           [--kernel portable|avx2]) [--rule NAME=VALUE]...",
     "evaluation networks (docs/TRAINING.md): --features writes the positions of a crown\n"
     "      tune file as the net's input features for the trainer; --eval prints each\n"
     "      position's value by the net (built in, or --net FILE) and by the hand evaluation", NULL},
    {"lab", cmd_lab,
     "crown lab GAME --players SPEC,SPEC... --games N --out DIR [--compare NAME=VALUE,...]...\n"
     "           [--ladder L,L...] [--rule NAME=VALUE]... [--jobs J] [--seed S] [--shard I/N]\n"
     "           [--depth N] [--nodes N] [--movetime MS]; crown lab merge DIR... --out DIR",
     "a self-play study: win, draw and loss rates by seat with 95% intervals, why games\n"
     "      ended, lengths, rule sets compared, Elo ladders; writes DIR/results.csv,\n"
     "      DIR/summary.json and DIR/report.html (docs/LAB.md)", NULL},
    {"playouts", cmd_playouts,
     "crown playouts GAME [--games N] [--movetime MS] [--seed S] [--position TEXT]\n"
     "           [--rule NAME=VALUE]...",
     "random games to the end: speed, and how often each player wins under random play", NULL},
    {"uci", cmd_uci, "crown uci",
     "a UCI chess engine on stdin/stdout: King Down with the chess rules (classic set-up,\n"
     "      castling, en passant, Q R B N promotion), for chess GUIs and matches against\n"
     "      other engines (docs/PROTOCOLS.md)", NULL},
    {"ugi", cmd_ugi, "crown ugi GAME [--rule NAME=VALUE]...",
     "a UGI engine (the Universal Game Interface of cutegames) on stdin/stdout for any\n"
     "      two-player game but King of the Valley; every rule option is a setoption\n"
     "      (docs/PROTOCOLS.md)", NULL},
    {"bench", cmd_bench, "crown bench [GAME] [--eval classic|nnue]",
     "fixed-depth searches over fixed positions; prints a node-count signature and, per\n"
     "      game, the evaluation it searched with (the signature is made with each game's\n"
     "      default; --eval nnue: the game's network where it has one, --eval classic: the\n"
     "      hand-written evaluation)", NULL},
    {"serve", cmd_serve,
     "crown serve [--port P] [--bind ADDR] [--db FILE|URL] [--ai-threads N] [--rate N] [--quiet]\n"
     "      [--max-connections N] [--max-per-ip N] [--heads-per-ip N] [--head-timeout S]\n"
     "      [--public-url URL] [--allow-origin ORIGIN[,ORIGIN]] [--trusted-proxy ADDR[,ADDR]]\n"
     "      [--tablebase FILE] [--limits auto|home|public] [LIMITS]\n"
     "      [--lab DIR [--lab-max-games N] [--lab-keep N] [--lab-starts-per-hour N]]\n"
     "      [--smtp URL --smtp-from ADDRESS [--smtp-credentials FILE]]",
     "the web server: play every game in a browser against the AI or with friends (default\n"
     "      127.0.0.1:8080; --port 0 picks a free port; --db defaults to\n"
     "      $XDG_DATA_HOME/crown/crown.db or ~/.local/share/crown/crown.db; a\n"
     "      postgresql://USER@HOST/DB URL lets several servers share one database\n"
     "      (docs/DEPLOY.md); --rate: moves and other changes a second per client\n"
     "      address). --public-url: the address players open when a reverse proxy serves\n"
     "      it (its Host and Origin are accepted; else only this server's own address);\n"
     "      --allow-origin: more addresses the site is reached under, such as its other\n"
     "      names behind the proxy (no CORS: same-site pages only).\n"
     "      --trusted-proxy: reverse proxies (addresses, CIDR blocks such as 10.0.0.0/8)\n"
     "      whose X-Forwarded-For names the client: from them, the limits count the\n"
     "      header's rightmost address that is not a trusted proxy (what the client wrote\n"
     "      stands left of what the proxies append), and a request without it is refused\n"
     "      (400); from other peers the header is ignored. Open connections (--max-per-ip)\n"
     "      count by that client too; the proxy's own, only towards --max-connections,\n"
     "      and no --heads-per-ip for it (default: no proxy trusted).\n"
     "      --lab DIR: the Lab page runs self-play studies (crown lab) from the browser,\n"
     "      one at a time on one thread, the others queued (16 in all), kept in DIR with\n"
     "      their owners' addresses; off without it. --lab-max-games: the games of one\n"
     "      study, every rule set, and of one address's running and queued [2000];\n"
     "      --lab-keep: studies kept in DIR, the oldest ended deleted first [200];\n"
     "      --lab-starts-per-hour: studies one address starts an hour [10]. One address\n"
     "      has 2 studies running or queued at most, and 20 kept.\n"
     "      --heads-per-ip: connections of one address (and of one IPv6 /64) still sending\n"
     "      their request head [32]; --head-timeout: a head must be in within S seconds of\n"
     "      the accept, a body within S more plus 1 s a KB [10] (slow clients, docs/DEPLOY.md).\n"
     "      --limits auto|home|public: who gets a player at home's limits, set in braces\n"
     "      below: loopback clients (auto, the default), every client (home: what ./play\n"
     "      starts) or none (public: behind a proxy on this machine not named by\n"
     "      --trusted-proxy, every client comes from the loopback). A\n"
     "      limit given by its option binds every client. A game against the AI nobody\n"
     "      moved in for --idle seconds no longer counts towards --ai-games.\n"
     "      LIMITS, per client address unless said (defaults in brackets; docs/API.md):\n"
     "      --creates-per-hour N   games created an hour [60] {1000}\n"
     "      --ai-games N           games against the AI in play at once [3] {50}\n"
     "      --aiai-games N         AI-against-AI games in play at once [2] {10}\n"
     "      --ai-max-plies N       actions an AI plays in a game; more max-plies refused [1000]\n"
     "      --ai-seconds N         AI think time per game [600]\n"
     "      --ai-queue N           hints waiting for the AI [4]; one per game\n"
     "      --hint-timeout S       a hint no AI worker took by then is refused, 503 [10]\n"
     "      --streams-per-ip N     open event streams [32]\n"
     "      --streams-per-game N   open event streams of one game, all addresses [64]\n"
     "      --keep-alive S         a stream sent nothing this long gets a comment [15]\n"
     "      --dead-after S         on PostgreSQL, a process silent this long is taken for\n"
     "                             dead: its streams and hints stop counting [30]\n"
     "      --idle S               a game untouched this long leaves memory [300]\n"
     "      --day-seconds S        a day of days-per-move clocks and mail links, for tests\n"
     "                             [86400]\n"
     "      --login-tries N        failed sign-ins of an account before it waits, doubling;\n"
     "                             an address has four times as many [5]\n"
     "      --password-cost normal|low  argon2id's cost for passwords; low for tests only",
     "      --abandon-after S      an unfinished game unchanged this long is deleted; 0 never\n"
     "                             [2592000, 30 days]\n"
     "      --delete-finished-after S  the same for finished games [0, never]\n"
     "      MAIL: --smtp smtp://HOST:PORT (or smtps://) --smtp-from ADDRESS: mail for\n"
     "      accounts (address verification, password reset, and the mails a player asks\n"
     "      for: his move in a days-per-move game, its time running low, challenges),\n"
     "      queued in the database and sent by a background thread, tried again later\n"
     "      when the server refuses;\n"
     "      --smtp-credentials FILE: one line USER:PASSWORD for the SMTP server, sent\n"
     "      only over TLS and never logged. Without --smtp, no mail (docs/DEPLOY.md)."},
    {"help", cmd_help, "crown help [--man] [COMMAND]",
     "the list of commands, or one command's help as --help gives it; --man: its manual\n"
     "      page (roff), for `man -l -` or to install as crown-COMMAND(1)", NULL},
    {"completion", cmd_completion, "crown completion bash",
     "the bash completion of crown's commands, their flags, game names and rule options:\n"
     "      eval \"$(crown completion bash)\" (make install puts it where bash-completion\n"
     "      finds it)", NULL},
};
enum { N_COMMANDS = sizeof COMMANDS / sizeof COMMANDS[0] };

int cli_command_count(void)
{
    return N_COMMANDS;
}

const CliCommand *cli_command_at(int i)
{
    return i >= 0 && i < N_COMMANDS ? &COMMANDS[i] : NULL;
}

const CliCommand *cli_command_find(const char *name)
{
    for (int i = 0; i < N_COMMANDS; i++)
        if (strcmp(COMMANDS[i].name, name) == 0)
            return &COMMANDS[i];
    return NULL;
}
