/*
 * kvs_file.h - writing the solver's large files whole or not at all: a header and a byte
 * array go to PATH.tmp, are flushed to disk, and replace PATH by a rename, so that a kill
 * leaves either the old file or the new one.
 */
#ifndef CROWN_SOLVE_KVS_FILE_H
#define CROWN_SOLVE_KVS_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

Status kvs_file_write(const char *path, const void *head, size_t head_len, const uint8_t *data,
                      uint64_t len, ErrBuf *err);

#endif
