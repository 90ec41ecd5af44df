/*
 * main.c - the crown program: dispatches to a subcommand (the table is in commands.c).
 * The only place that exits.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "crown.h"

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        cli_usage(stdout);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("crown %s\n", crown_version());
        return 0;
    }
    const CliCommand *c = cli_command_find(argv[1]);
    if (c == NULL) {
        fprintf(stderr, "crown: unknown command '%s'\n\n", argv[1]);
        cli_usage(stderr);
        return 2;
    }
    for (int a = 2; a < argc; a++) {
        if (strcmp(argv[a], "--help") == 0 || strcmp(argv[a], "-h") == 0) {
            cli_command_help(c, stdout);
            return 0;
        }
    }
    return c->run(argc, argv);
}
