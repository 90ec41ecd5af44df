/*
 * fuzz_support.c - the helpers the libFuzzer targets share (see fuzz_support.h).
 */
#include "fuzz_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "play/registry.h"

enum { MAX_RULES = 16 };

char *fuzz_text(const uint8_t *data, size_t size)
{
    char *t = malloc(size + 1);
    if (t == NULL)
        return NULL;
    memcpy(t, data, size);
    t[size] = '\0';
    return t;
}

char *fuzz_line(char **text)
{
    char *line = *text;
    char *nl = strchr(line, '\n');
    if (nl != NULL) {
        *nl = '\0';
        *text = nl + 1;
    } else {
        *text = line + strlen(line);
    }
    return line;
}

bool fuzz_reads_a_file(const char *setting)
{
    char copy[OPTION_VALUE_LEN + 64];
    snprintf(copy, sizeof copy, "%s", setting);
    RuleSetting r;
    if (rule_setting_split(copy, &r, NULL) != STATUS_OK)
        return false;
    for (int i = 0; i < registry_count(); i++) {
        const GameOps *ops = registry_at(i);
        const int k = game_option_index(ops, r.name);
        if (k >= 0 && ops->options[k].kind == RULE_FILE &&
            strcmp(r.value, ops->options[k].default_value) != 0)
            return true;
    }
    return false;
}

Game *fuzz_game(const char *line)
{
    char *copy = fuzz_text((const uint8_t *)line, strlen(line));
    if (copy == NULL)
        return NULL;
    RuleSetting rules[MAX_RULES];
    int n = 0, players = 0;
    char *save = NULL;
    const char *name = strtok_r(copy, " ", &save);
    char *w;
    bool ok = name != NULL;
    while (ok && (w = strtok_r(NULL, " ", &save)) != NULL) {
        ok = n < MAX_RULES && !fuzz_reads_a_file(w) &&
             rule_setting_split(w, &rules[n], NULL) == STATUS_OK;
        // A player count among the rules is also the game's player count (King of the
        // Valley checks that the two agree).
        if (ok && strcmp(rules[n].name, "players") == 0)
            players = atoi(rules[n].value);
        n++;
    }
    const GameOps *ops = ok ? registry_find(name) : NULL;
    Game *g = NULL;
    ErrBuf err;
    if (ops != NULL && game_create(ops, players, rules, n, &g, &err) != STATUS_OK)
        g = NULL;
    free(copy);
    return g;
}

Game *fuzz_input_game(const uint8_t *data, size_t size, char **text, char **rest)
{
    *text = fuzz_text(data, size);
    if (*text == NULL)
        return NULL;
    *rest = *text;
    Game *g = fuzz_game(fuzz_line(rest));
    if (g == NULL) {
        free(*text);
        *text = NULL;
    }
    return g;
}

void fuzz_fail(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz property failed: %s\n%s\n", what, detail ? detail : "");
    abort();
}
