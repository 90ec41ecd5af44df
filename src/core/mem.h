/*
 * mem.h - where the engine's memory comes from: the C library, or the allocator an
 * embedding program gave (crown_game_new_with in crown.h). It is handed down as a
 * `const Mem *` to what allocates on a caller's behalf (the API's handles, an agent's
 * search tables), never kept in a global; NULL means the C library's.
 */
#ifndef CROWN_CORE_MEM_H
#define CROWN_CORE_MEM_H

#include <stddef.h>

typedef struct Mem {
    void *(*alloc)(void *ud, size_t size);            /* malloc's contract */
    void *(*resize)(void *ud, void *ptr, size_t size); /* realloc's */
    void (*release)(void *ud, void *ptr);             /* free's, never given NULL */
    void *ud;
} Mem;

void *mem_alloc(const Mem *m, size_t size);
/* mem_alloc, zero-filled (calloc without the count). */
void *mem_zalloc(const Mem *m, size_t size);
void *mem_realloc(const Mem *m, void *ptr, size_t size);
/* NULL is allowed. */
void mem_free(const Mem *m, void *ptr);

/* A block aligned to `align` (a power of two), not zero-filled, freed only by
 * mem_aligned_free with the same m. The C library's aligned_alloc needs size to be a
 * multiple of align; so does this. */
void *mem_aligned_alloc(const Mem *m, size_t align, size_t size);
void mem_aligned_free(const Mem *m, void *ptr);

/* At least size bytes from the C library for a table read at random (a solved table,
 * the prover's), on huge pages where the system gives them, since with 4 KB pages
 * nearly every read of a table of gigabytes misses the TLB too; not zero-filled; NULL
 * when memory is short. Freed with free(). */
void *mem_huge_alloc(size_t size);

#endif
