/* temp_path.c - the tests' temporary names under TMPDIR (see temp_path.h). */
#include "temp_path.h"

#include <stdio.h>
#include <stdlib.h>

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
