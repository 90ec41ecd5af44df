/*
 * lab_study.c - a study's rule sets and players, its game numbering and seeds, its
 * shards, and DIR/study.json (through jansson).
 */
#include "lab/lab_study.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/game_api.h"
#include "core/rng.h"
#include "play/registry.h"
#include "play/seats.h"

/* A set's settings split into name and value pairs that point into `buf`. */
typedef struct Settings {
    char buf[LAB_TEXT * 2];
    RuleSetting rule[GAME_MAX_OPTIONS * 2];
    int count;
} Settings;

static Status settings_read(Settings *s, const char *text, ErrBuf *err)
{
    s->count = 0;
    if (snprintf(s->buf, sizeof s->buf, "%s", text) >= (int)sizeof s->buf)
        return err_set(err, STATUS_PARSE, "rule settings too long: '%s'", text);
    char *save = NULL;
    for (char *tok = strtok_r(s->buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (s->count == (int)(sizeof s->rule / sizeof s->rule[0]))
            return err_set(err, STATUS_PARSE, "too many rule settings in '%s'", text);
        Status st = rule_setting_split(tok, &s->rule[s->count], err);
        if (st != STATUS_OK)
            return st;
        s->count++;
    }
    return STATUS_OK;
}

/* The settings of `base` with those of `over` replacing any of the same name, as text. */
static Status settings_join(const char *base, const char *over, char *out, int cap, ErrBuf *err)
{
    Settings b, o;
    Status st = settings_read(&b, base, err);
    if (st == STATUS_OK)
        st = settings_read(&o, over, err);
    if (st != STATUS_OK)
        return st;
    int len = 0;
    out[0] = '\0';
    for (int pass = 0; pass < 2; pass++) {
        const Settings *s = pass == 0 ? &b : &o;
        for (int i = 0; i < s->count; i++) {
            bool replaced = false;
            for (int j = 0; pass == 0 && j < o.count; j++)
                replaced |= strcmp(o.rule[j].name, s->rule[i].name) == 0;
            if (replaced)
                continue;
            len += snprintf(out + len, (size_t)(len < cap ? cap - len : 0), "%s%s=%s",
                            len ? "," : "", s->rule[i].name, s->rule[i].value);
        }
    }
    if (len >= cap)
        return err_set(err, STATUS_PARSE, "rule settings too long: '%s' with '%s'", base, over);
    return STATUS_OK;
}

Status lab_set_game(const LabStudy *st, int set, Game **out, ErrBuf *err)
{
    const GameOps *ops;
    Status s = registry_lookup(st->game, &ops, err);
    if (s != STATUS_OK)
        return s;
    Settings rules;
    s = settings_read(&rules, st->sets[set].rules, err);
    if (s != STATUS_OK)
        return s;
    return game_create(ops, 0, rules.rule, rules.count, out, err);
}

/* Checks that set `set` makes a game and that its players can play it, as automatic
 * players. */
static Status check_set(const LabStudy *st, int set, ErrBuf *err)
{
    Game *g;
    Status s = lab_set_game(st, set, &g, err);
    if (s != STATUS_OK)
        return s;
    Seats seats;
    s = seats_parse(st->sets[set].players, g->players, &st->limits, st->seed, &seats, err);
    for (int k = 0; s == STATUS_OK && k < seats.count; k++)
        if (seats.seat[k].human)
            s = err_set(err, STATUS_UNSUPPORTED, "a study is played by programs: no human seats");
    if (s == STATUS_OK && (s = seats_start(&seats, g, err)) == STATUS_OK)
        seats_stop(&seats);
    game_destroy(g);
    return s;
}

static Status study_begin(LabStudy *st, const char *game, long games, uint64_t seed,
                          const SearchLimits *limits, ErrBuf *err)
{
    memset(st, 0, sizeof *st);
    const GameOps *ops;
    Status s = registry_lookup(game, &ops, err);
    if (s != STATUS_OK)
        return s;
    snprintf(st->game, sizeof st->game, "%s", ops->name);
    if (games < 1)
        return err_set(err, STATUS_PARSE, "a study needs at least one game per rule set");
    st->games = games;
    st->seed = seed;
    st->limits = *limits;
    st->shard = st->shards = 1;
    return STATUS_OK;
}

static Status add_set(LabStudy *st, const char *label, const char *base, const char *over,
                      const char *players, ErrBuf *err)
{
    if (st->n_sets == LAB_MAX_SETS)
        return err_set(err, STATUS_UNSUPPORTED, "a study has at most %d rule sets", LAB_MAX_SETS);
    LabSet *set = &st->sets[st->n_sets];
    Status s = settings_join(base, over, set->rules, sizeof set->rules, err);
    if (s != STATUS_OK)
        return s;
    snprintf(set->label, sizeof set->label, "%s", label);
    if (snprintf(set->players, sizeof set->players, "%s", players) >= (int)sizeof set->players)
        return err_set(err, STATUS_PARSE, "player list too long");
    st->n_sets++;
    s = check_set(st, st->n_sets - 1, err);
    if (s != STATUS_OK) {
        char why[ERRBUF_LEN];
        snprintf(why, sizeof why, "%s", err->msg);
        st->n_sets--;
        return err_set(err, s, "rule set '%s': %s", label, why);
    }
    return STATUS_OK;
}

Status lab_study_plain(LabStudy *st, const char *game, const char *rules,
                       const char *const *compare, int n_compare, const char *players,
                       long games, uint64_t seed, const SearchLimits *limits, ErrBuf *err)
{
    Status s = study_begin(st, game, games, seed, limits, err);
    if (s == STATUS_OK && (players == NULL || players[0] == '\0'))
        s = err_set(err, STATUS_PARSE, "a study needs --players");
    if (s == STATUS_OK)
        s = add_set(st, "baseline", rules, "", players, err);
    for (int i = 0; s == STATUS_OK && i < n_compare; i++)
        s = add_set(st, compare[i], rules, compare[i], players, err);
    return s;
}

/* Adds one set for every choice of `size` of the levels from index `from` on, after the
 * `chosen` ones picked so far. */
static Status add_combinations(LabStudy *st, const char *rules, const int *levels, int n,
                               int size, int from, int *chosen, int n_chosen, bool by_count,
                               ErrBuf *err)
{
    if (n_chosen == size) {
        char players[LAB_TEXT], label[LAB_TEXT], over[32] = "";
        int len = 0, llen = 0;
        if (by_count) {
            snprintf(over, sizeof over, "players=%d", size);
            llen = snprintf(label, sizeof label, "%d players:", size);
        }
        for (int k = 0; k < size; k++) {
            len += snprintf(players + len, sizeof players - (size_t)len, "%sai:%d", k ? "," : "",
                            levels[chosen[k]]);
            llen += snprintf(label + llen, sizeof label - (size_t)llen, "%s%sai:%d",
                             k ? (by_count ? ", " : " vs ") : "", by_count && k == 0 ? " " : "",
                             levels[chosen[k]]);
        }
        return add_set(st, label, rules, over, players, err);
    }
    for (int i = from; i < n; i++) {
        chosen[n_chosen] = i;
        Status s = add_combinations(st, rules, levels, n, size, i + 1, chosen, n_chosen + 1,
                                    by_count, err);
        if (s != STATUS_OK)
            return s;
    }
    return STATUS_OK;
}

Status lab_study_ladder(LabStudy *st, const char *game, const char *rules, const int *levels,
                        int n_levels, long games, uint64_t seed, const SearchLimits *limits,
                        ErrBuf *err)
{
    Status s = study_begin(st, game, games, seed, limits, err);
    if (s != STATUS_OK)
        return s;
    if (n_levels < 2 || n_levels > LAB_MAX_LADDER)
        return err_set(err, STATUS_PARSE, "a ladder takes 2 to %d levels", LAB_MAX_LADDER);
    for (int i = 0; i < n_levels; i++) {
        if (levels[i] < 1 || levels[i] > 10)
            return err_set(err, STATUS_PARSE, "ladder levels are 1 to 10, not %d", levels[i]);
        for (int j = 0; j < i; j++)
            if (levels[j] == levels[i])
                return err_set(err, STATUS_PARSE, "level %d is twice in the ladder", levels[i]);
        st->ladder[i] = levels[i];
    }
    st->n_ladder = n_levels;
    Game *g;
    const GameOps *ops;
    s = registry_lookup(st->game, &ops, err);
    if (s != STATUS_OK)
        return s;
    Settings given;
    s = settings_read(&given, rules, err);
    if (s != STATUS_OK)
        return s;
    bool count_is_rule = false, count_given = false;
    for (int i = 0; i < ops->option_count; i++)
        count_is_rule |= strcmp(ops->options[i].name, "players") == 0;
    for (int i = 0; i < given.count; i++)
        count_given |= strcmp(given.rule[i].name, "players") == 0;
    const bool by_count = count_is_rule && !count_given && ops->max_players > ops->min_players;
    int chosen[LAB_MAX_LADDER];
    if (!by_count) {
        s = game_create(ops, 0, given.rule, given.count, &g, err);
        if (s != STATUS_OK)
            return s;
        const int size = g->players;
        game_destroy(g);
        if (size > n_levels)
            return err_set(err, STATUS_PARSE, "a ladder of %d-player games needs %d levels",
                           size, size);
        return add_combinations(st, rules, st->ladder, n_levels, size, 0, chosen, 0, false, err);
    }
    for (int size = ops->min_players; size <= ops->max_players && size <= n_levels; size++) {
        s = add_combinations(st, rules, st->ladder, n_levels, size, 0, chosen, 0, true, err);
        if (s != STATUS_OK)
            return s;
    }
    return STATUS_OK;
}

Status lab_study_set_shard(LabStudy *st, const char *text, ErrBuf *err)
{
    int i, n, used = 0;
    if (sscanf(text, "%d/%d%n", &i, &n, &used) != 2 || text[used] != '\0' || n < 1 || i < 1 ||
        i > n)
        return err_set(err, STATUS_PARSE, "--shard takes I/N with 1 <= I <= N, not '%s'", text);
    st->shard = i;
    st->shards = n;
    return STATUS_OK;
}

long lab_study_total(const LabStudy *st)
{
    return st->games * st->n_sets;
}

bool lab_study_owns(const LabStudy *st, long index)
{
    return index % st->shards == st->shard - 1;
}

uint64_t lab_game_seed(const LabStudy *st, long index)
{
    uint64_t x = st->seed;
    x = rng_mix(&x) ^ (uint64_t)index;
    return rng_mix(&x);
}

int lab_list_count(const char *list)
{
    int n = 1;
    for (const char *p = list; *p; p++)
        n += *p == ',';
    return n;
}

int lab_game_rotation(const LabStudy *st, long index)
{
    const LabSet *set = &st->sets[index / st->games];
    return (int)((index % st->games) % lab_list_count(set->players));
}

void lab_game_players(const LabStudy *st, long index, char *out, int cap)
{
    const LabSet *set = &st->sets[index / st->games];
    const int n = lab_list_count(set->players), rot = lab_game_rotation(st, index);
    char copy[LAB_TEXT];
    const char *entry[MAX_PLAYERS] = {0};
    snprintf(copy, sizeof copy, "%s", set->players);
    char *save = NULL;
    int k = 0;
    for (char *tok = strtok_r(copy, ",", &save); tok && k < MAX_PLAYERS;
         tok = strtok_r(NULL, ",", &save))
        entry[k++] = tok;
    int len = 0;
    out[0] = '\0';
    for (int seat = 0; seat < n && seat < k; seat++)
        len += snprintf(out + len, (size_t)(len < cap ? cap - len : 0), "%s%s", seat ? "," : "",
                        entry[(seat + rot) % n]);
}

Status lab_study_save(const LabStudy *st, const char *dir, ErrBuf *err)
{
    json_t *sets = json_array(), *ladder = json_array();
    for (int i = 0; i < st->n_sets; i++)
        json_array_append_new(sets, json_pack("{s:s, s:s, s:s}", "label", st->sets[i].label,
                                              "rules", st->sets[i].rules, "players",
                                              st->sets[i].players));
    for (int i = 0; i < st->n_ladder; i++)
        json_array_append_new(ladder, json_integer(st->ladder[i]));
    char seed[24], nodes[24];
    snprintf(seed, sizeof seed, "%" PRIu64, st->seed);
    snprintf(nodes, sizeof nodes, "%" PRIu64, st->limits.nodes);
    json_t *root = json_pack("{s:i, s:s, s:s, s:I, s:i, s:s, s:I, s:o, s:o, s:i, s:i}", "version",
                             1, "game", st->game, "seed", seed, "games", (json_int_t)st->games,
                             "depth", st->limits.depth, "nodes", nodes, "movetime_ms",
                             (json_int_t)st->limits.movetime_ms, "ladder", ladder, "sets", sets,
                             "shard", st->shard, "shards", st->shards);
    char path[4096];
    snprintf(path, sizeof path, "%s/study.json", dir);
    const int rc = root ? json_dump_file(root, path, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : -1;
    json_decref(root);
    if (rc != 0)
        return err_set(err, STATUS_IO, "cannot write '%s'", path);
    return STATUS_OK;
}

static bool copy_text(json_t *v, char *out, size_t cap)
{
    return json_is_string(v) && snprintf(out, cap, "%s", json_string_value(v)) < (int)cap;
}

static bool read_u64(json_t *v, uint64_t *out)
{
    if (!json_is_string(v))
        return false;
    const char *t = json_string_value(v);
    char *end;
    errno = 0;
    *out = strtoull(t, &end, 10);
    return errno == 0 && end != t && *end == '\0';
}

Status lab_study_load(LabStudy *st, const char *dir, ErrBuf *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/study.json", dir);
    json_error_t jerr;
    json_t *root = json_load_file(path, 0, &jerr);
    if (root == NULL)
        return err_set(err, STATUS_IO, "cannot read '%s': %s", path, jerr.text);
    LabStudy s;
    memset(&s, 0, sizeof s);
    json_t *sets = json_object_get(root, "sets"), *ladder = json_object_get(root, "ladder");
    bool ok = json_integer_value(json_object_get(root, "version")) == 1 &&
              copy_text(json_object_get(root, "game"), s.game, sizeof s.game) &&
              read_u64(json_object_get(root, "seed"), &s.seed) &&
              read_u64(json_object_get(root, "nodes"), &s.limits.nodes) &&
              json_is_array(sets) && json_array_size(sets) >= 1 &&
              json_array_size(sets) <= LAB_MAX_SETS && json_is_array(ladder) &&
              json_array_size(ladder) <= LAB_MAX_LADDER;
    s.games = (long)json_integer_value(json_object_get(root, "games"));
    s.limits.depth = (int)json_integer_value(json_object_get(root, "depth"));
    s.limits.movetime_ms = json_integer_value(json_object_get(root, "movetime_ms"));
    s.shard = (int)json_integer_value(json_object_get(root, "shard"));
    s.shards = (int)json_integer_value(json_object_get(root, "shards"));
    ok = ok && s.games >= 1 && s.shards >= 1 && s.shard >= 1 && s.shard <= s.shards;
    for (size_t i = 0; ok && i < json_array_size(sets); i++) {
        json_t *e = json_array_get(sets, i);
        LabSet *set = &s.sets[s.n_sets++];
        ok = copy_text(json_object_get(e, "label"), set->label, sizeof set->label) &&
             copy_text(json_object_get(e, "rules"), set->rules, sizeof set->rules) &&
             copy_text(json_object_get(e, "players"), set->players, sizeof set->players);
    }
    for (size_t i = 0; ok && i < json_array_size(ladder); i++)
        s.ladder[s.n_ladder++] = (int)json_integer_value(json_array_get(ladder, i));
    json_decref(root);
    if (!ok)
        return err_set(err, STATUS_CORRUPT, "'%s' is not a study this program wrote", path);
    const GameOps *ops;
    if (registry_lookup(s.game, &ops, err) != STATUS_OK)
        return STATUS_NOT_FOUND;
    *st = s;
    return STATUS_OK;
}

bool lab_study_same(const LabStudy *a, const LabStudy *b)
{
    if (strcmp(a->game, b->game) != 0 || a->n_sets != b->n_sets || a->games != b->games ||
        a->seed != b->seed || a->limits.depth != b->limits.depth ||
        a->limits.nodes != b->limits.nodes || a->limits.movetime_ms != b->limits.movetime_ms ||
        a->n_ladder != b->n_ladder || a->shards != b->shards)
        return false;
    for (int i = 0; i < a->n_ladder; i++)
        if (a->ladder[i] != b->ladder[i])
            return false;
    for (int i = 0; i < a->n_sets; i++)
        if (strcmp(a->sets[i].label, b->sets[i].label) != 0 ||
            strcmp(a->sets[i].rules, b->sets[i].rules) != 0 ||
            strcmp(a->sets[i].players, b->sets[i].players) != 0)
            return false;
    return true;
}
