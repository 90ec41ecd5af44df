/* temp_path.c - the tests' temporary names under TMPDIR (see temp_path.h). */
#include "temp_path.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *temp_path(char *out, size_t out_size, const char *name) {
    const char *dir = getenv("TMPDIR");
    if (dir == NULL || dir[0] == '\0') dir = "/tmp";
    int n = snprintf(out, out_size, "%s/%s", dir, name);
    if (n < 0 || (size_t)n >= out_size) {
        fprintf(stderr, "temp_path: %s/%s does not fit in %zu bytes\n", dir, name, out_size);
        abort();
    }
    return out;
}

char *temp_read(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0) n = ftell(f);
    char *text = n >= 0 && fseek(f, 0, SEEK_SET) == 0 ? malloc((size_t)n + 1) : NULL;
    if (text != NULL && fread(text, 1, (size_t)n, f) != (size_t)n) {
        free(text);
        text = NULL;
    }
    fclose(f);
    if (text == NULL) return NULL;
    text[n] = '\0';
    if (size != NULL) *size = (size_t)n;
    return text;
}

void temp_data_home(TempDataHome *h, const char *pattern) {
    temp_path(h->dir, sizeof h->dir, pattern);
    const int n = mkdtemp(h->dir) ? snprintf(h->sub, sizeof h->sub, "%s/crown", h->dir) : -1;
    if (n < 0 || (size_t)n >= sizeof h->sub || mkdir(h->sub, 0700) != 0) {
        fprintf(stderr, "temp_data_home: cannot make a data folder at %s\n", h->dir);
        abort();
    }
    const char *old = getenv("XDG_DATA_HOME");
    h->saved = old ? strdup(old) : NULL;
    setenv("XDG_DATA_HOME", h->dir, 1);
}

bool temp_data_home_end(TempDataHome *h) {
    if (h->saved) {
        setenv("XDG_DATA_HOME", h->saved, 1);
        free(h->saved);
        h->saved = NULL;
    } else {
        unsetenv("XDG_DATA_HOME");
    }
    return rmdir(h->sub) == 0 && rmdir(h->dir) == 0;
}
