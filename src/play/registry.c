/*
 * registry.c - the list of every registered game. The one file outside games/ that names
 * games: adding a game means adding its ops here.
 */
#include "play/registry.h"

#include <string.h>

#include "core/strbuf.h"

#include "games/kingdown/kingdown.h"
#include "games/kingscastle/kingscastle.h"
#include "games/kingsguard/kingsguard.h"
#include "games/kingofthevalley/kingofthevalley.h"
#include "games/kingsvalley/kingsvalley.h"

static const GameOps *const registry[] = {
    &kv_standard_ops,
    &kv_retrieve_ops,
    &kv_7x7_ops,
    &kv_labyrinth_ops,
    &kg_standard_ops,
    &kg_8x8_ops,
    &kc_ops,
    &kotv_ops,
    &kd_ops,
};

int registry_count(void)
{
    return (int)(sizeof registry / sizeof registry[0]);
}

const GameOps *registry_at(int i)
{
    return (i >= 0 && i < registry_count()) ? registry[i] : NULL;
}

const GameOps *registry_find(const char *name)
{
    for (int i = 0; i < registry_count(); i++)
        if (strcmp(registry[i]->name, name) == 0)
            return registry[i];
    return NULL;
}

Status registry_lookup(const char *name, const GameOps **out, ErrBuf *err)
{
    *out = registry_find(name);
    if (*out != NULL)
        return STATUS_OK;
    StrBuf names;
    sb_init(&names);
    for (int i = 0; i < registry_count(); i++)
        sb_printf(&names, "%s%s", i ? ", " : "", registry_at(i)->name);
    err_set(err, STATUS_NOT_FOUND, "no game called '%s' (games: %s)", name, sb_str(&names));
    sb_free(&names);
    return STATUS_NOT_FOUND;
}
