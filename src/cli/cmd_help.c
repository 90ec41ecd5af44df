/*
 * cmd_help.c - the crown program's own documentation, all written from the one table of
 * commands.c: the usage list, each command's --help, `crown help [--man] [COMMAND]`
 * (a manual page in roff, so that `man crown-serve` says what `crown serve --help`
 * says), and `crown completion bash` with the word lists behind it (commands, their
 * flags, game names, rule options and their values).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "core/game_api.h"
#include "crown.h"
#include "play/registry.h"

void cli_usage(FILE *f)
{
    fprintf(f, "crown - engine, AI and referee for King's Valley and other games about kings\n\n"
               "usage:\n");
    for (int i = 0; i < cli_command_count(); i++) {
        const CliCommand *c = cli_command_at(i);
        fprintf(f, "  %s\n      %s\n", c->usage, c->help);
        if (c->more)
            fprintf(f, "%s\n", c->more);
    }
    fprintf(f, "\n`crown help COMMAND` (or `crown COMMAND --help`) describes one command; `crown\n"
               "help --man COMMAND` writes its manual page; `crown games` lists the games;\n"
               "`crown completion bash` writes the shell completion; `crown --version` prints\n"
               "the version.\n");
}

void cli_command_help(const CliCommand *c, FILE *f)
{
    fprintf(f, "usage: %s\n  %s\n", c->usage, c->help);
    if (c->more)
        fprintf(f, "%s\n", c->more);
}

/* One line of text as roff: backslashes escaped, hyphens as minus signs (so that options
 * can be searched and copied), and a line starting with a control character protected. */
static void roff_line(const char *line, size_t len, FILE *f)
{
    if (len > 0 && (line[0] == '.' || line[0] == '\''))
        fputs("\\&", f);
    for (size_t i = 0; i < len; i++) {
        if (line[i] == '\\')
            fputs("\\e", f);
        else if (line[i] == '-')
            fputs("\\-", f);
        else
            fputc(line[i], f);
    }
    fputc('\n', f);
}

/* Every line of `text` as roff, each without the first `indent` spaces it has. */
static void roff_text(const char *text, int indent, FILE *f)
{
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        int skip = 0;
        while (skip < indent && (size_t)skip < len && line[skip] == ' ')
            skip++;
        roff_line(line + skip, len - (size_t)skip, f);
        line += len + (end != NULL);
    }
}

static void manual_page(const CliCommand *c, FILE *f)
{
    char upper[64];
    size_t n = 0;
    for (const char *p = c->name; *p && n + 1 < sizeof upper; p++)
        upper[n++] = (char)(*p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p);
    upper[n] = '\0';
    fprintf(f, ".\\\" crown-%s.1 - written by `crown help --man %s` from the text of\n"
               ".\\\" `crown %s --help` (src/cli/commands.c); do not edit.\n",
            c->name, c->name, c->name);
    fprintf(f, ".TH CROWN\\-%s 1 \"\" \"crown %s\" \"User Commands\"\n", upper, crown_version());
    fprintf(f, ".SH NAME\ncrown\\-%s \\- ", c->name);
    // The summary: the help's first clause.
    size_t first = strcspn(c->help, "\n;:(");
    while (first > 0 && (c->help[first - 1] == ',' || c->help[first - 1] == ' '))
        first--;
    roff_line(c->help, first, f);
    fputs(".SH SYNOPSIS\n.nf\n", f);
    roff_text(c->usage, 0, f);
    fputs(".fi\n.SH DESCRIPTION\n.nf\n", f);
    roff_text(c->help, 6, f);
    if (c->more)
        roff_text(c->more, 6, f);
    fputs(".fi\n.SH SEE ALSO\n.BR crown (1),\n.BR crown\\-games (1)\n", f);
}

int cmd_help(int argc, char **argv)
{
    bool man = argc > 2 && strcmp(argv[2], "--man") == 0;
    const int first = man ? 3 : 2;
    if (argc > first + 1)
        return cli_error("help takes at most one command: crown help [--man] [COMMAND]");
    if (argc == first) {
        if (man)
            return cli_error("help --man needs a command (the overview is docs/crown.1)");
        cli_usage(stdout);
        return 0;
    }
    const CliCommand *c = cli_command_find(argv[first]);
    if (c == NULL)
        return cli_error("no command '%s' (crown help lists them)", argv[first]);
    if (man)
        manual_page(c, stdout);
    else
        cli_command_help(c, stdout);
    return 0;
}

/* Prints `word` if it starts with `cur`. */
static void offer(const char *word, const char *cur)
{
    if (strncmp(word, cur, strlen(cur)) == 0)
        printf("%s\n", word);
}

static bool flag_char(char c)
{
    return c == '-' || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* Whether `flag` stands whole in `text` before `end` (NULL: anywhere). */
static bool flag_in(const char *text, const char *end, const char *flag)
{
    size_t n = strlen(flag);
    for (const char *p = strstr(text, flag); p && (end == NULL || p < end); p = strstr(p + 1, flag))
        if (!flag_char(p[n]))
            return true;
    return false;
}

/* Each --flag of the command's usage and help, once: the help names the options the
 * usage sums up (serve's LIMITS). A flag starts with a letter, so that "2--4" is none. */
static void offer_flags(const CliCommand *c, const char *cur)
{
    const char *const texts[] = {c->usage, c->help};
    for (int t = 0; t < 2; t++) {
        for (const char *p = strstr(texts[t], "--"); p; p = strstr(p + 2, "--")) {
            if (p[2] < 'a' || p[2] > 'z' || (p > texts[t] && flag_char(p[-1])))
                continue;
            char flag[40];
            size_t n = 0;
            while (n + 1 < sizeof flag && flag_char(p[n]))
                flag[n] = p[n], n++;
            flag[n] = '\0';
            if (flag_in(texts[t], p, flag) || (t == 1 && flag_in(texts[0], NULL, flag)))
                continue;
            offer(flag, cur);
        }
    }
    offer("--help", cur);
}

/* name=value for each value a rule option of `ops` may take (choices), else name=. */
static void offer_rules(const GameOps *ops, const char *cur)
{
    for (int o = 0; o < ops->option_count; o++) {
        const RuleOption *r = &ops->options[o];
        char word[160];
        if (r->kind == RULE_CHOICE && r->choices != NULL) {
            for (const char *v = r->choices; *v;) {
                const char *bar = strchr(v, '|');
                int len = bar ? (int)(bar - v) : (int)strlen(v);
                snprintf(word, sizeof word, "%s=%.*s", r->name, len, v);
                offer(word, cur);
                v += len + (bar != NULL);
            }
        } else {
            snprintf(word, sizeof word, "%s=", r->name);
            offer(word, cur);
        }
    }
}

/* `crown completion words CWORD WORD...`: the words that may stand at WORDS[CWORD] (the
 * words typed so far, the program's name first), one a line, for the bash function. */
static int complete_words(int cword, int nwords, char **words)
{
    const char *cur = cword < nwords ? words[cword] : "";
    if (cword <= 1) {
        for (int i = 0; i < cli_command_count(); i++)
            offer(cli_command_at(i)->name, cur);
        offer("--help", cur);
        offer("--version", cur);
        return 0;
    }
    const char *name = words[1];
    if (strcmp(name, "help") == 0) {
        if (cword == 2)
            offer("--man", cur);
        for (int i = 0; i < cli_command_count(); i++)
            offer(cli_command_at(i)->name, cur);
        return 0;
    }
    if (strcmp(name, "completion") == 0) {
        if (cword == 2)
            offer("bash", cur);
        return 0;
    }
    const CliCommand *c = cli_command_find(name);
    if (c == NULL)
        return 0;
    const GameOps *game = nwords > 2 ? registry_find(words[2]) : NULL;
    const char *prev = words[cword - 1];
    if (strcmp(prev, "--rule") == 0) {
        if (game != NULL) {
            offer_rules(game, cur);
        } else {
            for (int i = 0; i < registry_count(); i++)
                offer_rules(registry_at(i), cur);
        }
        return 0;
    }
    if (strcmp(prev, "--players") == 0 || strcmp(prev, "--agent") == 0 ||
        strcmp(prev, "--base") == 0 || strcmp(prev, "--test") == 0) {
        static const char *const AGENTS[] = {"human", "ai", "ab", "mcts", "random", "uci:", "ugi:"};
        for (size_t i = 0; i < sizeof AGENTS / sizeof AGENTS[0]; i++)
            offer(AGENTS[i], cur);
        return 0;
    }
    if (cur[0] == '-') {
        offer_flags(c, cur);
        return 0;
    }
    // The game, where the usage has GAME right after the command's name.
    char head[64];
    snprintf(head, sizeof head, "crown %s GAME", c->name);
    char optional[64];
    snprintf(optional, sizeof optional, "crown %s [GAME]", c->name);
    if (cword == 2 && (strncmp(c->usage, head, strlen(head)) == 0 ||
                       strncmp(c->usage, optional, strlen(optional)) == 0)) {
        for (int i = 0; i < registry_count(); i++)
            offer(registry_at(i)->name, cur);
    }
    return 0;
}

/* The bash function: it splits the line itself at spaces (bash would split
 * --rule name=value at '='), asks `crown completion words`, and hands bash each word
 * without the part before the last '=' or ':' it already has. */
static const char BASH_COMPLETION[] =
    "# bash completion for crown; written by `crown completion bash`.\n"
    "_crown() {\n"
    "    local line=${COMP_LINE:0:COMP_POINT} words cur prefix IFS=$' \\t\\n'\n"
    "    read -ra words <<<\"$line\"\n"
    "    [[ $line =~ [[:space:]]$ ]] && words+=(\"\")\n"
    "    cur=${words[${#words[@]}-1]}\n"
    "    prefix=${cur%\"${cur##*[=:]}\"}\n"
    "    local IFS=$'\\n'\n"
    "    COMPREPLY=($(\"${words[0]}\" completion words $((${#words[@]} - 1)) \"${words[@]}\" 2>/dev/null))\n"
    "    COMPREPLY=(\"${COMPREPLY[@]#\"$prefix\"}\")\n"
    "}\n"
    "complete -o default -F _crown crown\n";

int cmd_completion(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[2], "bash") == 0) {
        fputs(BASH_COMPLETION, stdout);
        return 0;
    }
    if (argc >= 4 && strcmp(argv[2], "words") == 0) {
        char *end;
        long cword = strtol(argv[3], &end, 10);
        if (*end != '\0' || cword < 0 || cword > 1000)
            return cli_error("completion words: '%s' is not a word index", argv[3]);
        return complete_words((int)cword, argc - 4, argv + 4);
    }
    return cli_error("usage: crown completion bash (or: crown completion words CWORD WORD...)");
}
