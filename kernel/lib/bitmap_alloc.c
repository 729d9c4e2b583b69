/*
 * bitmap_alloc.c - first-fit allocation of unit runs from a bitmap.
 */
#include "kernel/lib/bitmap_alloc.h"

bool bitmap_is_used(const struct bitmap_alloc *b, uint32_t unit)
{
    return (b->bits[unit / 32] >> (unit % 32)) & 1;
}

/* Flips one unit and keeps free_units right; does nothing if the unit is already so. */
static void set_unit(struct bitmap_alloc *b, uint32_t unit, bool used)
{
    if (bitmap_is_used(b, unit) == used)
        return;
    if (used) {
        b->bits[unit / 32] |= 1u << (unit % 32);
        b->free_units--;
    } else {
        b->bits[unit / 32] &= ~(1u << (unit % 32));
        b->free_units++;
    }
}

void bitmap_init_all_used(struct bitmap_alloc *b, uint32_t *bits, uint32_t units)
{
    b->bits = bits;
    b->units = units;
    b->free_units = 0;
    for (uint32_t i = 0; i < (units + 31) / 32; i++)
        bits[i] = 0xffffffffu;
}

/* Applies set_unit to the part of [first, first+count) that lies inside the bitmap. */
static void set_range(struct bitmap_alloc *b, uint32_t first, uint32_t count, bool used)
{
    if (first >= b->units)
        return;
    if (count > b->units - first)
        count = b->units - first;
    for (uint32_t u = first; u < first + count; u++)
        set_unit(b, u, used);
}

void bitmap_set_free(struct bitmap_alloc *b, uint32_t first, uint32_t count)
{
    set_range(b, first, count, false);
}

void bitmap_set_used(struct bitmap_alloc *b, uint32_t first, uint32_t count)
{
    set_range(b, first, count, true);
}

uint32_t bitmap_alloc_run(struct bitmap_alloc *b, uint32_t count, uint32_t align)
{
    if (count == 0 || count > b->free_units || align == 0 || (align & (align - 1)))
        return BITMAP_NONE;
    uint32_t start = 0;
    while (start <= b->units - count) {
        /* Skip whole words that are full: most of the bitmap is, in a busy system. */
        if (b->bits[start / 32] == 0xffffffffu && start % 32 == 0) {
            start += 32;
            continue;
        }
        uint32_t run = 0;
        while (run < count && !bitmap_is_used(b, start + run))
            run++;
        if (run == count) {
            set_range(b, start, count, true);
            return start;
        }
        /* Restart after the used unit, at the next aligned position. */
        start = (start + run + 1 + align - 1) & ~(align - 1);
    }
    return BITMAP_NONE;
}
