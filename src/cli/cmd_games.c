/*
 * cmd_games.c - `crown games`: every registered game, its summary and rule options.
 */
#include <stdio.h>

#include "cli/cli.h"
#include "play/registry.h"

int cmd_games(int argc, char **argv)
{
    (void)argv;
    if (argc > 2)
        return cli_error("games takes no arguments");
    for (int i = 0; i < registry_count(); i++) {
        const GameOps *ops = registry_at(i);
        if (ops->min_players == ops->max_players)
            printf("%s - %s (%d players)\n", ops->name, ops->summary, ops->min_players);
        else
            printf("%s - %s (%d-%d players)\n", ops->name, ops->summary, ops->min_players,
                   ops->max_players);
        for (int o = 0; o < ops->option_count; o++) {
            const RuleOption *r = &ops->options[o];
            if (r->is_text)
                printf("    --rule %s=FILE  %s (default %s)\n", r->name, r->help,
                       r->default_value);
            else if (r->choices)
                printf("    --rule %s=%s  %s (default %s)\n", r->name, r->choices, r->help,
                       r->default_value);
            else
                printf("    --rule %s=%ld..%ld  %s (default %s)\n", r->name, r->min, r->max,
                       r->help, r->default_value);
        }
    }
    return 0;
}
