/* temp_path.h - names for the tests' temporary files and folders, and reading one back.
 *
 * `make test` gives each run a temporary folder of its own (TMPDIR) and fails if a test
 * leaves anything in it, so the tests name their files under TMPDIR (falling back to
 * /tmp) rather than under a fixed /tmp, where a leak would go unseen. */
#ifndef CROWN_TEST_TEMP_PATH_H
#define CROWN_TEST_TEMP_PATH_H

#include <stdbool.h>
#include <stddef.h>

/* Writes "<TMPDIR>/<name>" into out (out_size bytes); name may end in XXXXXX for mkstemp
 * or mkdtemp. Returns out. A name that does not fit fails the test. */
char *temp_path(char *out, size_t out_size, const char *name);

/* The whole of the file a test wrote at path, NUL-terminated (free with free()), its size
 * in *size when size is not NULL; NULL when it cannot be read whole. */
char *temp_read(const char *path, size_t *size);

/* A data folder of its own for a test: <TMPDIR>/<pattern> made (pattern ends in XXXXXX),
 * its crown/ folder (where the tables go, `sub`) made, and XDG_DATA_HOME pointed at it;
 * temp_data_home_end puts XDG_DATA_HOME back and removes both folders, which the test has
 * emptied. A folder that cannot be made fails the test. */
typedef struct TempDataHome {
    char dir[256], sub[300];
    char *saved; /* XDG_DATA_HOME before, or NULL */
} TempDataHome;

void temp_data_home(TempDataHome *h, const char *pattern);
/* false if a folder was left non-empty. */
bool temp_data_home_end(TempDataHome *h);

#endif
