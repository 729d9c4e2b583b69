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
    b->full_below = 0;
    for (uint32_t i = 0; i < (units + 31) / 32; i++)
        bits[i] = 0xffffffffu;
}

/* Sets the units of word w in mask (nbits of them) used or free, counting the bits that
 * change: all of them in the common case (allocating free units, freeing used ones), so
 * only a mask that is partly set already needs counting. */
static void set_word(struct bitmap_alloc *b, uint32_t w, uint32_t mask, uint32_t nbits,
                     bool used)
{
    uint32_t changing = used ? mask & ~b->bits[w] : mask & b->bits[w];
    uint32_t n = changing == mask ? nbits : (uint32_t)__builtin_popcount(changing);
    if (used) {
        b->bits[w] |= mask;
        b->free_units -= n;
    } else {
        b->bits[w] &= ~mask;
        b->free_units += n;
        if (w < b->full_below)
            b->full_below = w;
    }
}

/* Sets the part of [first, first+count) that lies inside the bitmap used or free a word at
 * a time: the partial words at the ends through a mask, the whole words between in a loop
 * of a few instructions each, so freeing all of memory at boot does not flip one bit per
 * page. */
static void set_range(struct bitmap_alloc *b, uint32_t first, uint32_t count, bool used)
{
    if (first >= b->units || count == 0)
        return;
    if (count > b->units - first)
        count = b->units - first;
    uint32_t end = first + count;
    uint32_t w = first / 32, last = (end - 1) / 32;
    uint32_t lo = first % 32;
    if (w == last) { /* inside one word: count bits from lo */
        uint32_t mask = count == 32 ? 0xffffffffu : ((1u << count) - 1) << lo;
        set_word(b, w, mask, count, used);
        return;
    }
    if (lo) {
        set_word(b, w, 0xffffffffu << lo, 32 - lo, used);
        w++;
    }
    /* The whole words, inline: about 6 instructions each when every bit changes. */
    uint32_t fill = used ? 0xffffffffu : 0, changed = 0, lowest = w;
    for (; w < last; w++) {
        uint32_t changing = b->bits[w] ^ fill;
        b->bits[w] = fill;
        changed += changing == 0xffffffffu ? 32 : (uint32_t)__builtin_popcount(changing);
    }
    if (used)
        b->free_units -= changed;
    else {
        b->free_units += changed;
        if (lowest < w && lowest < b->full_below)
            b->full_below = lowest;
    }
    uint32_t hi = end - last * 32; /* 1..32 bits of the last word */
    set_word(b, last, hi == 32 ? 0xffffffffu : (1u << hi) - 1, hi, used);
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
    /* Words below full_below are full; the full words just above it are passed once and
     * for all here, so that allocating from the bottom of a mostly used bitmap does not
     * walk the used part again each time. */
    uint32_t words = (b->units + 31) / 32;
    while (b->full_below < words && b->bits[b->full_below] == 0xffffffffu)
        b->full_below++;
    uint32_t start = b->full_below * 32;
    while (start <= b->units - count) {
        /* The first free unit at or after start, a word at a time: full words (most of
         * the bitmap, in a busy system) and the used units before a hole cost one step
         * each, not one per unit. Bits past units are never free (bitmap_init_all_used). */
        uint32_t w = start / 32;
        uint32_t free_bits = ~b->bits[w] & (0xffffffffu << (start % 32));
        if (!free_bits) {
            start = (w + 1) * 32;
            continue;
        }
        uint32_t at = w * 32 + (uint32_t)__builtin_ctz(free_bits);
        if (at != start) {
            start = (at + align - 1) & ~(align - 1);
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
