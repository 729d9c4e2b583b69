/*
 * bitmap_alloc.c - first-fit allocation of unit runs from a bitmap.
 */
#include "kernel/lib/bitmap_alloc.h"

bool bitmap_is_used(const struct bitmap_alloc *b, uint32_t unit)
{
    return (b->bits[unit / 32] >> (unit % 32)) & 1;
}

void bitmap_init_all_used(struct bitmap_alloc *b, uint32_t *bits, uint32_t units)
{
    b->bits = bits;
    b->units = units;
    b->free_units = 0;
    for (uint32_t i = 0; i < (units + 31) / 32; i++)
        bits[i] = 0xffffffffu;
}

/* The bits of word w that [first, end) covers, as a mask. */
static uint32_t word_mask(uint32_t w, uint32_t first, uint32_t end)
{
    uint32_t lo = first > w * 32 ? first - w * 32 : 0;
    uint32_t hi = end < w * 32 + 32 ? end - w * 32 : 32;
    uint32_t below_hi = hi == 32 ? 0xffffffffu : (1u << hi) - 1;
    return below_hi & ~((1u << lo) - 1);
}

/* Sets the units of word w that mask covers used or free, counting the bits that change. */
static void set_word(struct bitmap_alloc *b, uint32_t w, uint32_t mask, bool used)
{
    uint32_t changing = used ? mask & ~b->bits[w] : mask & b->bits[w];
    uint32_t n = changing == 0xffffffffu ? 32 : (uint32_t)__builtin_popcount(changing);
    if (used) {
        b->bits[w] |= mask;
        b->free_units -= n;
    } else {
        b->bits[w] &= ~mask;
        b->free_units += n;
    }
}

/* Sets the part of [first, first+count) that lies inside the bitmap used or free a word at
 * a time: the partial words at the ends through a mask, the whole words between in a loop
 * of a few instructions each, so freeing all of memory at boot does not flip one bit per
 * page. */
static void set_range(struct bitmap_alloc *b, uint32_t first, uint32_t count, bool used)
{
    if (first >= b->units)
        return;
    if (count > b->units - first)
        count = b->units - first;
    uint32_t end = first + count;
    uint32_t w = first / 32, last = (end - 1) / 32;
    if (count == 0)
        return;
    if (w == last) {
        set_word(b, w, word_mask(w, first, end), used);
        return;
    }
    if (first % 32) {
        set_word(b, w, word_mask(w, first, end), used);
        w++;
    }
    uint32_t whole_end = end % 32 ? last : last + 1;
    for (; w < whole_end; w++)
        set_word(b, w, 0xffffffffu, used);
    if (end % 32)
        set_word(b, last, word_mask(last, first, end), used);
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
