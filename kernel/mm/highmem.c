/*
 * highmem.c - the frames above LOWMEM_LIMIT (see highmem.h): one bit each (set = in use),
 * 104 KiB for the 3.25 GiB between 768 MiB and 4 GiB, and a cursor that goes round them, so
 * a search starts where the last one found a frame instead of at the bottom (on a
 * machine whose high memory is mostly in use, a search from the bottom would step over
 * every used word each time). One lock: the frames are shared by every CPU.
 */
#include "kernel/mm/highmem.h"

#include "kernel/panic.h"
#include "kernel/spinlock.h"

#define HIGH_FRAMES ((uint32_t)((0x100000000ull - LOWMEM_LIMIT) / PAGE_SIZE))
#define WORDS (HIGH_FRAMES / 32)

static uint32_t used[WORDS]; /* zero = free: set at highmem_init_once to all used */
static bool initialized;
static uint32_t total, free_count, cursor; /* cursor: the word the next search starts at */
static struct spinlock highmem_lock = SPINLOCK_INIT("highmem");

/* Everything starts in use: only what the memory map offers becomes free. Lock held. */
static void init_once(void)
{
    if (initialized)
        return;
    for (uint32_t i = 0; i < WORDS; i++)
        used[i] = 0xffffffffu;
    initialized = true;
}

void highmem_add_free(uint64_t base, uint64_t length)
{
    uint64_t first = (base + PAGE_SIZE - 1) / PAGE_SIZE, end = (base + length) / PAGE_SIZE;
    uint64_t low = LOWMEM_LIMIT / PAGE_SIZE;
    if (first < low)
        first = low;
    if (end > low + HIGH_FRAMES)
        end = low + HIGH_FRAMES;
    unsigned long flags = spin_lock_irqsave(&highmem_lock);
    init_once();
    /* A word of 32 frames at a time (issue 24, the boot's cost: one bit per frame was
     * 27 instructions a frame, 1.8M for 256 MiB), counting the bits that change. */
    uint32_t i = first < end ? (uint32_t)(first - low) : 0, stop = first < end ? (uint32_t)(end - low) : 0;
    while (i < stop) {
        uint32_t bit = i % 32, n = stop - i < 32 - bit ? stop - i : 32 - bit;
        uint32_t mask = n == 32 ? 0xffffffffu : ((1u << n) - 1) << bit;
        uint32_t freed = used[i / 32] & mask;
        uint32_t count = freed == 0xffffffffu ? 32 : (uint32_t)__builtin_popcount(freed);
        used[i / 32] &= ~mask;
        total += count;
        free_count += count;
        i += n;
    }
    spin_unlock_irqrestore(&highmem_lock, flags);
}

uint32_t highmem_alloc(void)
{
    if (!free_count)
        return 0;
    unsigned long flags = spin_lock_irqsave(&highmem_lock);
    uint32_t phys = 0;
    for (uint32_t n = 0; n < WORDS && free_count; n++) {
        uint32_t w = (cursor + n) % WORDS;
        if (used[w] == 0xffffffffu)
            continue;
        uint32_t bit = (uint32_t)__builtin_ctz(~used[w]);
        used[w] |= 1u << bit;
        free_count--;
        cursor = w;
        phys = LOWMEM_LIMIT + (w * 32 + bit) * PAGE_SIZE;
        break;
    }
    spin_unlock_irqrestore(&highmem_lock, flags);
    return phys;
}

void highmem_free(uint32_t phys)
{
    uint32_t i = (phys - LOWMEM_LIMIT) / PAGE_SIZE;
    unsigned long flags = spin_lock_irqsave(&highmem_lock);
    if (!highmem_frame(phys) || i >= HIGH_FRAMES || !(used[i / 32] & (1u << (i % 32))))
        panic("highmem_free: frame %#x is not allocated", (unsigned)phys);
    used[i / 32] &= ~(1u << (i % 32));
    free_count++;
    spin_unlock_irqrestore(&highmem_lock, flags);
}

uint32_t highmem_total_pages(void) { return total; }
uint32_t highmem_free_pages(void) { return free_count; }
