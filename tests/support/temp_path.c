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
