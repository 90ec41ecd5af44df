/*
 * lab_folder.c - the lab's folder on disk (lab_folder.h): study ids, the small files a
 * study keeps beside its results, and deleting a study without following a link or
 * touching a file the lab did not write.
 */
#include "web/lab_folder.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/lab_report.h"

/* The files a study's folder holds, all of them written by the lab: only these are
 * deleted with it (and the plots in plots/). */
static const char *const STUDY_FILES[] = {"study.json", "results.csv", "summary.json",
                                          "report.html", "owner.addr", "error.txt"};

/* A study's id names its folder: letters, digits and '-' only, so no path leaves DIR. */
bool lab_folder_valid_id(const char *id)
{
    const size_t n = strlen(id);
    if (n == 0 || n >= LAB_FOLDER_ID)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!(id[i] >= '0' && id[i] <= '9') && !(id[i] >= 'a' && id[i] <= 'z') && id[i] != '-')
            return false;
    return true;
}

/* Ids are "SECONDS-SEQ": compared as numbers, since "1-10" is newer than "1-9". */
static int id_order(const char *a, const char *b)
{
    char *ea, *eb;
    const long long ta = strtoll(a, &ea, 10), tb = strtoll(b, &eb, 10);
    if (ta != tb)
        return ta < tb ? -1 : 1;
    const unsigned long sa = *ea == '-' ? strtoul(ea + 1, NULL, 10) : 0;
    const unsigned long sb = *eb == '-' ? strtoul(eb + 1, NULL, 10) : 0;
    if (sa != sb)
        return sa < sb ? -1 : 1;
    return strcmp(a, b);
}

static int oldest_first(const void *a, const void *b)
{
    return id_order(*(const char *const *)a, *(const char *const *)b);
}

static int newest_first(const void *a, const void *b)
{
    return oldest_first(b, a);
}

void lab_folder_sort(char **ids, int n, bool newest_first_order)
{
    qsort(ids, (size_t)n, sizeof ids[0], newest_first_order ? newest_first : oldest_first);
}

/* The ids of the study folders in DIR, malloc'd, in no order; NULL and *n 0 when the
 * folder cannot be read. */
char **lab_folder_ids(const char *dir, int *n)
{
    *n = 0;
    DIR *d = opendir(dir);
    if (d == NULL)
        return NULL;
    int cap = 64;
    char **ids = malloc((size_t)cap * sizeof *ids);
    if (ids == NULL) {
        closedir(d);
        return NULL;
    }
    const struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!lab_folder_valid_id(e->d_name))
            continue;
        if (*n == cap) {
            char **more = realloc(ids, (size_t)cap * 2 * sizeof *ids);
            if (more == NULL)
                break;
            ids = more;
            cap *= 2;
        }
        if ((ids[*n] = strdup(e->d_name)) != NULL)
            (*n)++;
    }
    closedir(d);
    return ids;
}

void lab_folder_free_ids(char **ids, int n)
{
    for (int i = 0; i < n; i++)
        free(ids[i]);
    free(ids);
}

/* Writes DIR/ID/NAME with text and a newline; false on failure. */
bool lab_folder_write(const char *dir, const char *id, const char *name, const char *text)
{
    char path[LAB_FOLDER_PATH + 64];
    snprintf(path, sizeof path, "%s/%s/%s", dir, id, name);
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return false;
    const bool ok = fprintf(f, "%s\n", text) >= 0;
    return fclose(f) == 0 && ok;
}

/* Reads the first line of DIR/ID/NAME into out ("" when there is none). */
void lab_folder_read(const char *dir, const char *id, const char *name, char *out, size_t cap)
{
    char path[LAB_FOLDER_PATH + 64];
    snprintf(path, sizeof path, "%s/%s/%s", dir, id, name);
    out[0] = '\0';
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return;
    if (fgets(out, (int)cap, f) == NULL)
        out[0] = '\0';
    out[strcspn(out, "\n")] = '\0';
    fclose(f);
}

/* Deletes study ID's folder: the files the lab writes there, then the folder. Nothing
 * is followed: a folder or plots/ that is a link is left alone, and a folder holding
 * anything else stays (rmdir fails). True when the folder is gone. */
bool lab_folder_remove(const char *dir, const char *id)
{
    if (!lab_folder_valid_id(id))
        return false;
    const int top = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (top < 0)
        return false;
    const int fd = openat(top, id, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0) {
        const int plots = openat(fd, "plots", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (plots >= 0) {
            const char *name;
            for (int i = 0; (name = lab_report_plot_name(i)) != NULL; i++) {
                char file[128];
                snprintf(file, sizeof file, "%s.svg", name);
                unlinkat(plots, file, 0);
            }
            close(plots);
            unlinkat(fd, "plots", AT_REMOVEDIR);
        }
        for (size_t i = 0; i < sizeof STUDY_FILES / sizeof STUDY_FILES[0]; i++)
            unlinkat(fd, STUDY_FILES[i], 0);
        close(fd);
    }
    const bool gone = unlinkat(top, id, AT_REMOVEDIR) == 0;
    close(top);
    return gone;
}

