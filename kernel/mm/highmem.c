/*
 * highmem.c - the frames above LOWMEM_LIMIT (see highmem.h): a bitmap allocator
 * (kernel/lib/bitmap_alloc.h, as page_alloc's for low memory), one bit a frame, 104 KiB for
 * the 3.25 GiB between 768 MiB and 4 GiB. Its ranges are set a word of 32 frames at a time
 * (the boot frees all of high memory: one bit a frame cost 1.8M instructions at 1 GiB), and
 * a search starts above the words known to be full. One lock: the frames are shared by
 * every CPU.
 */
#include "kernel/mm/highmem.h"

#include "kernel/lib/bitmap_alloc.h"
#include "kernel/panic.h"
#include "kernel/spinlock.h"

#define HIGH_FRAMES ((uint32_t)((0x100000000ull - LOWMEM_LIMIT) / PAGE_SIZE))

static uint32_t bits[HIGH_FRAMES / 32];
/* Before the first highmem_add_free nothing is free (free_units 0), and a frame given back
 * is refused as not allocated (its bit is clear). */
static struct bitmap_alloc frames = { bits, HIGH_FRAMES, 0, 0 };
static bool initialized;
static uint32_t total;
static struct spinlock highmem_lock = SPINLOCK_INIT("highmem");

void highmem_add_free(uint64_t base, uint64_t length)
{
    uint64_t first = (base + PAGE_SIZE - 1) / PAGE_SIZE, end = (base + length) / PAGE_SIZE;
    uint64_t low = LOWMEM_LIMIT / PAGE_SIZE;
    if (first < low)
        first = low;
    if (end > low + HIGH_FRAMES)
        end = low + HIGH_FRAMES;
    unsigned long flags = spin_lock_irqsave(&highmem_lock);
    if (!initialized) { /* everything in use: only what the memory map offers is freed */
        bitmap_init_all_used(&frames, bits, HIGH_FRAMES);
        initialized = true;
    }
    uint32_t before = frames.free_units;
    if (first < end)
        bitmap_set_free(&frames, (uint32_t)(first - low), (uint32_t)(end - first));
    total += frames.free_units - before;
    spin_unlock_irqrestore(&highmem_lock, flags);
}

uint32_t highmem_alloc(void)
{
    if (!frames.free_units)
        return 0;
    unsigned long flags = spin_lock_irqsave(&highmem_lock);
    uint32_t i = bitmap_alloc_run(&frames, 1, 1);
    spin_unlock_irqrestore(&highmem_lock, flags);
    return i == BITMAP_NONE ? 0 : LOWMEM_LIMIT + i * PAGE_SIZE;
}

void highmem_free(uint32_t phys)
{
    uint32_t i = (phys - LOWMEM_LIMIT) / PAGE_SIZE;
    unsigned long flags = spin_lock_irqsave(&highmem_lock);
    if (!highmem_frame(phys) || i >= HIGH_FRAMES || !bitmap_is_used(&frames, i))
        panic("highmem_free: frame %#x is not allocated", (unsigned)phys);
    bitmap_set_free(&frames, i, 1);
    spin_unlock_irqrestore(&highmem_lock, flags);
}

uint32_t highmem_total_pages(void) { return total; }
uint32_t highmem_free_pages(void) { return frames.free_units; }
