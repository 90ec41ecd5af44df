/*
 * commands.h - the crown program's subcommands: name, entry point, usage and help, one
 * table (commands.c) that --help, `crown help`, the manual pages and the shell
 * completion are all written from, so that they never disagree.
 */
#ifndef CROWN_CLI_COMMANDS_H
#define CROWN_CLI_COMMANDS_H

#include <stdio.h>

typedef struct CliCommand {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *usage; /* "crown NAME ...", lines after the first indented */
    const char *help;  /* what it does, lines after the first indented by six spaces */
    /* the help's next lines, or NULL: one string literal holds at most 4095 characters
     * in C17, which serve's help outgrew */
    const char *more;
} CliCommand;

int cli_command_count(void);
const CliCommand *cli_command_at(int i);
/* The command called `name`, or NULL. */
const CliCommand *cli_command_find(const char *name);

/* In cmd_help.c: the list of every command with its usage, and one command's help
 * (what `crown COMMAND --help` prints). */
void cli_usage(FILE *f);
void cli_command_help(const CliCommand *c, FILE *f);

#endif
