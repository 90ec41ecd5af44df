/*
 * assets.h - the front-end files (HTML, CSS, JavaScript modules) compiled into the
 * program, so that `crown serve` needs nothing installed beside it. The table is
 * generated at build time by tools/embed-assets.sh from src/web/static/.
 */
#ifndef CROWN_WEB_ASSETS_H
#define CROWN_WEB_ASSETS_H

#include <stddef.h>

typedef struct WebAsset {
    const char *path; /* URL path: "/index.html", "/js/app.js", ... */
    const unsigned char *data;
    size_t size;
    const char *mime;
    const char *etag; /* quoted, from the content */
} WebAsset;

/* Generated. */
extern const WebAsset web_assets[];
extern const int web_asset_count;

/* The asset at `path`, or NULL. */
const WebAsset *assets_find(const char *path);

#endif
