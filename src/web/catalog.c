/*
 * catalog.c - the games this server offers, as GET /api/games lists them: every
 * registered game with its rule options, written once at start (catalog.h).
 */
#include "web/catalog.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "core/game_api.h"
#include "play/registry.h"

static json_t *option_json(const RuleOption *o)
{
    json_t *j = json_object();
    json_object_set_new(j, "name", json_string(o->name));
    json_object_set_new(j, "title", json_string(o->title));
    json_object_set_new(j, "help", json_string(o->help));
    json_object_set_new(j, "advanced", json_boolean(o->place == RULE_ADVANCED));
    json_object_set_new(j, "default", json_string(o->default_value));
    json_object_set_new(j, "type", json_string(rule_kind_name(o->kind)));
    if (o->choices) {
        // The values of a choice; the usual values of a text, which takes others too.
        json_t *c = json_array();
        char buf[OPTION_VALUE_LEN];
        snprintf(buf, sizeof buf, "%s", o->choices);
        char *save = NULL;
        for (char *t = strtok_r(buf, "|", &save); t; t = strtok_r(NULL, "|", &save))
            json_array_append_new(c, json_string(t));
        json_object_set_new(j, o->kind == RULE_CHOICE ? "choices" : "suggestions", c);
    }
    if (o->kind == RULE_INTEGER) {
        json_object_set_new(j, "min", json_integer(o->min));
        json_object_set_new(j, "max", json_integer(o->max));
    }
    return j;
}

char *catalog_json(size_t *len)
{
    json_t *games = json_array();
    for (int i = 0; i < registry_count(); i++) {
        const GameOps *ops = registry_at(i);
        json_t *g = json_object();
        json_object_set_new(g, "name", json_string(ops->name));
        json_object_set_new(g, "summary", json_string(ops->summary));
        json_object_set_new(g, "title", json_string(ops->title));
        json_object_set_new(g, "family", json_string(ops->family));
        if (ops->seat_names) {
            json_t *names = json_array();
            for (int k = 0; k < ops->max_players; k++)
                json_array_append_new(names, json_string(ops->seat_names[k]));
            json_object_set_new(g, "seat_names", names);
        }
        json_object_set_new(g, "solved", json_boolean(ops->flags & GAME_TABLE_SOLVED));
        json_t *kinds = json_array();
        for (int k = 0; k < ops->action_kind_count; k++) {
            json_t *kind = json_object();
            json_object_set_new(kind, "key", json_string(ops->action_kinds[k].key));
            json_object_set_new(kind, "label", json_string(ops->action_kinds[k].label));
            json_object_set_new(kind, "help", json_string(ops->action_kinds[k].help));
            json_array_append_new(kinds, kind);
        }
        json_object_set_new(g, "action_kinds", kinds);
        json_object_set_new(g, "min_players", json_integer(ops->min_players));
        json_object_set_new(g, "max_players", json_integer(ops->max_players));
        json_object_set_new(g, "perfect_information",
                            json_boolean(ops->flags & GAME_PERFECT_INFO));
        json_object_set_new(g, "chance", json_boolean(ops->flags & GAME_HAS_CHANCE));
        json_object_set_new(g, "clickable", json_boolean(ops->move_cells != NULL));
        json_t *opts = json_array();
        for (int k = 0; k < ops->option_count; k++)
            json_array_append_new(opts, option_json(&ops->options[k]));
        json_object_set_new(g, "options", opts);
        json_array_append_new(games, g);
    }
    json_t *root = json_object();
    json_object_set_new(root, "games", games);
    char *s = json_dumps(root, JSON_COMPACT);
    *len = s ? strlen(s) : 0;
    json_decref(root);
    return s;
}
