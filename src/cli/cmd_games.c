/*
 * cmd_games.c - `crown games`: every registered game, its summary and rule options.
 */
#include <stdio.h>

#include "cli/cli.h"
#include "core/game_api.h"
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
            // The kind first, so that a reader (or a script) knows what the value is
            // before reading the values it may take; then the title and help that the
            // web's new-game form shows too.
            const char *kind = rule_kind_name(r->kind);
            switch (r->kind) {
            case RULE_CHOICE:
                printf("    --rule %s=%s  [%s] %s: %s (default %s)\n", r->name, r->choices, kind,
                       r->title, r->help, r->default_value);
                break;
            case RULE_INTEGER:
                printf("    --rule %s=%ld..%ld  [%s] %s: %s (default %s)\n", r->name, r->min,
                       r->max, kind, r->title, r->help, r->default_value);
                break;
            case RULE_TEXT:
                printf("    --rule %s=TEXT  [%s] %s: %s (default %s%s%s)\n", r->name, kind,
                       r->title, r->help, r->default_value, r->choices ? "; often " : "",
                       r->choices ? r->choices : "");
                break;
            case RULE_FILE:
                printf("    --rule %s=FILE  [%s] %s: %s (default %s)\n", r->name, kind, r->title,
                       r->help, r->default_value);
                break;
            }
        }
    }
    return 0;
}
