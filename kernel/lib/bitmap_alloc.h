/*
 * bitmap_alloc.h - hands out runs of numbered units (pages, window slots) from a bitmap.
 *
 * One bit per unit, set = in use. Used for physical page frames (kernel/mm/page_alloc.c) and
 * for the virtual pages of the ioremap window. Portable: tests/unit/test_bitmap_alloc.c.
 */
#ifndef KERNEL_LIB_BITMAP_ALLOC_H
#define KERNEL_LIB_BITMAP_ALLOC_H

#include <stdbool.h>
#include <stdint.h>

struct bitmap_alloc {
    uint32_t *bits;     /* caller-provided, (units + 31) / 32 words */
    uint32_t units;
    uint32_t free_units;
    uint32_t full_below; /* every word below this index is full: where a search starts */
};

#define BITMAP_NONE UINT32_MAX

/* Starts with every unit in use: a caller frees only what it knows to be available. */
void bitmap_init_all_used(struct bitmap_alloc *b, uint32_t *bits, uint32_t units);

/* Marks [first, first+count) free or used; units past the end are ignored. Idempotent. */
void bitmap_set_free(struct bitmap_alloc *b, uint32_t first, uint32_t count);
void bitmap_set_used(struct bitmap_alloc *b, uint32_t first, uint32_t count);

/* Finds the lowest free run of count units starting at a multiple of align (a power of
 * two), marks it used and returns its first unit, or BITMAP_NONE. */
uint32_t bitmap_alloc_run(struct bitmap_alloc *b, uint32_t count, uint32_t align);

bool bitmap_is_used(const struct bitmap_alloc *b, uint32_t unit);

#endif
