/*
 * lab_folder.h - the lab's folder on disk: one folder a study, named by its id
 * ("SECONDS-SEQ"), holding the files the lab writes (study.json, results.csv, the
 * summary, the report and its plots, owner.addr with the address that started it, and
 * error.txt with why it stopped). Used by the web lab (lab_api.c) only.
 */
#ifndef CROWN_WEB_LAB_FOLDER_H
#define CROWN_WEB_LAB_FOLDER_H

#include <stdbool.h>
#include <stddef.h>

enum { LAB_FOLDER_PATH = 4096, LAB_FOLDER_ID = 40 };

/* Whether id can name a study's folder: letters, digits and '-' only, so that no path
 * made from it leaves the lab's folder. */
bool lab_folder_valid_id(const char *id);
/* The ids of the study folders in dir, malloc'd, in no order; NULL and *n 0 when the
 * folder cannot be read. */
char **lab_folder_ids(const char *dir, int *n);
/* Sorts ids oldest first, or newest first (ids compare as "SECONDS-SEQ" numbers). */
void lab_folder_sort(char **ids, int n, bool newest_first);
void lab_folder_free_ids(char **ids, int n);
/* Writes dir/ID/NAME with text and a newline; false on failure. */
bool lab_folder_write(const char *dir, const char *id, const char *name, const char *text);
/* Reads the first line of dir/ID/NAME into out ("" when there is none). */
void lab_folder_read(const char *dir, const char *id, const char *name, char *out, size_t cap);
/* Deletes study ID's folder: the files the lab writes there, then the folder. Nothing
 * is followed: a folder or plots/ that is a link is left alone, and a folder holding
 * anything else stays. True when the folder is gone. */
bool lab_folder_remove(const char *dir, const char *id);

#endif
