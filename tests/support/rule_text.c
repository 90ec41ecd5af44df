/*
 * rule_text.c - splits test-written "name=value" settings into the pairs game_create
 * takes.
 */
#include "rule_text.h"

#include <stdio.h>

Status rule_text_create(const GameOps *ops, int players, const char *const *settings, int n,
                        Game **out, ErrBuf *err)
{
    enum { MAX_SETTINGS = 4 * GAME_MAX_OPTIONS };
    *out = NULL;
    if (n > MAX_SETTINGS)
        return err_set(err, STATUS_PARSE, "more than %d rule settings", MAX_SETTINGS);
    char text[MAX_SETTINGS][OPTION_VALUE_LEN + 64];
    RuleSetting pairs[MAX_SETTINGS];
    for (int i = 0; i < n; i++) {
        if ((size_t)snprintf(text[i], sizeof text[i], "%s", settings[i]) >= sizeof text[i])
            return err_set(err, STATUS_PARSE, "rule setting %d is too long", i);
        Status st = rule_setting_split(text[i], &pairs[i], err);
        if (st != STATUS_OK)
            return st;
    }
    return game_create(ops, players, n > 0 ? pairs : NULL, n, out, err);
}
