/*
 * fuzz_support.c - the helpers the libFuzzer targets share (see fuzz_support.h).
 */
#include "fuzz_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "core/registry.h"

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

int fuzz_names_a_file(const char *text)
{
    // Every free-text option that reads a file takes a path; the others (a set-up id,
    // letters) never contain '/'. "tiles=" is King of the Valley's table file, which
    // may also be a bare name in the current directory.
    return strchr(text, '/') != NULL || strstr(text, "tiles=") != NULL;
}

Game *fuzz_game(const char *line)
{
    if (fuzz_names_a_file(line))
        return NULL;
    char *copy = fuzz_text((const uint8_t *)line, strlen(line));
    if (copy == NULL)
        return NULL;
    const char *rules[MAX_RULES];
    int n = 0;
    char *save = NULL;
    const char *name = strtok_r(copy, " ", &save);
    char *w;
    while (name != NULL && (w = strtok_r(NULL, " ", &save)) != NULL) {
        if (n == MAX_RULES) {
            free(copy);
            return NULL;
        }
        rules[n++] = w;
    }
    const GameOps *ops = name ? registry_find(name) : NULL;
    Game *g = NULL;
    int players = 0;
    // A player count among the rules is also the game's player count (King of the
    // Valley checks that the two agree).
    for (int i = 0; i < n; i++)
        if (strncmp(rules[i], "players=", 8) == 0)
            players = atoi(rules[i] + 8);
    ErrBuf err;
    if (ops != NULL && game_create(ops, players, rules, n, &g, &err) != STATUS_OK)
        g = NULL;
    free(copy);
    return g;
}

void fuzz_fail(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz property failed: %s\n%s\n", what, detail ? detail : "");
    abort();
}
