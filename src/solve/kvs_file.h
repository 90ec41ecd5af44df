/*
 * kvs_file.h - writing the solver's large files whole or not at all: a header and byte
 * arrays go to PATH.tmp, are flushed to disk, and replace PATH by a rename, so that a
 * kill leaves either the old file or the new one. Also the checksum the tables carry.
 */
#ifndef CROWN_SOLVE_KVS_FILE_H
#define CROWN_SOLVE_KVS_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

enum { KVS_HEADER = 4096 }; /* the text header of the tables, both forms */

Status kvs_file_write(const char *path, const void *head, size_t head_len, const uint8_t *data,
                      uint64_t len, ErrBuf *err);

/* One piece of a file written by kvs_file_write_parts. */
typedef struct KvsFilePart {
    const void *data;
    uint64_t len;
} KvsFilePart;

/* The pieces one after another, written the same way. */
Status kvs_file_write_parts(const char *path, const KvsFilePart *parts, int n, ErrBuf *err);

/* The value of the line "NAME VALUE" in a text header, or NULL. */
const char *kvs_file_header_field(const char *head, const char *name);
/* Whether a value kvs_file_header_field found (NULL: none) is `want`, whole. */
bool kvs_file_header_is(const char *value, const char *want);

/* The checksum of a table's n value bytes, taken in pieces: start with
 * kvs_checksum_start(n), add the bytes in order with every piece but the last a multiple
 * of 8 bytes long. */
uint64_t kvs_checksum_start(uint64_t n);
uint64_t kvs_checksum_add(uint64_t h, const uint8_t *p, uint64_t len);

#endif
