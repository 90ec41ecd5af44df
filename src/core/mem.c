/*
 * mem.c - allocation through a Mem (mem.h). A caller's allocator promises malloc's
 * alignment only, so an aligned block from it is over-allocated and the start of the
 * raw block kept just below the aligned one.
 */
#define _DEFAULT_SOURCE /* madvise's MADV_HUGEPAGE */
#include "core/mem.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static bool mem_is_libc(const Mem *m)
{
    return m == NULL || m->alloc == NULL;
}

void *mem_alloc(const Mem *m, size_t size)
{
    return mem_is_libc(m) ? malloc(size) : m->alloc(m->ud, size);
}

void *mem_zalloc(const Mem *m, size_t size)
{
    if (mem_is_libc(m))
        return calloc(1, size);
    void *p = m->alloc(m->ud, size);
    if (p != NULL)
        memset(p, 0, size);
    return p;
}

void *mem_realloc(const Mem *m, void *ptr, size_t size)
{
    return mem_is_libc(m) ? realloc(ptr, size) : m->resize(m->ud, ptr, size);
}

void mem_free(const Mem *m, void *ptr)
{
    if (ptr == NULL)
        return;
    if (mem_is_libc(m))
        free(ptr);
    else
        m->release(m->ud, ptr);
}

void *mem_aligned_alloc(const Mem *m, size_t align, size_t size)
{
    if (mem_is_libc(m))
        return aligned_alloc(align, size);
    if (size > SIZE_MAX - align - sizeof(void *))
        return NULL;
    unsigned char *raw = m->alloc(m->ud, size + align + sizeof(void *));
    if (raw == NULL)
        return NULL;
    uintptr_t at = ((uintptr_t)(raw + sizeof(void *)) + align - 1) & ~(uintptr_t)(align - 1);
    unsigned char *p = (unsigned char *)at;
    memcpy(p - sizeof(void *), &raw, sizeof raw);
    return p;
}

void mem_aligned_free(const Mem *m, void *ptr)
{
    if (ptr == NULL)
        return;
    if (mem_is_libc(m)) {
        free(ptr);
        return;
    }
    void *raw;
    memcpy(&raw, (unsigned char *)ptr - sizeof(void *), sizeof raw);
    m->release(m->ud, raw);
}

void *mem_huge_alloc(size_t size)
{
    enum { HUGE = 2 << 20 };
    if (size > SIZE_MAX - HUGE)
        return NULL;
    const size_t len = (size + HUGE - 1) / HUGE * HUGE;
    const size_t bytes = len ? len : HUGE;
    void *w = aligned_alloc(HUGE, bytes);
#ifdef MADV_HUGEPAGE
    if (w != NULL)
        (void)madvise(w, bytes, MADV_HUGEPAGE); // only advice: without it, small pages
#endif
    return w;
}
