/*
 * assets.c - looking up the compiled-in front-end files by URL path. A handful of
 * files: a linear scan is as fast as anything else here.
 */
#include "web/assets.h"

#include <string.h>

const WebAsset *assets_find(const char *path)
{
    for (int i = 0; i < web_asset_count; i++)
        if (strcmp(web_assets[i].path, path) == 0)
            return &web_assets[i];
    return NULL;
}
