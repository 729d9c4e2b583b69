/*
 * page_alloc.c - the physical page-frame allocator: a bitmap over low memory, handing out
 * the frames' direct-map addresses.
 */
#include "kernel/mm/page_alloc.h"

#include "kernel/lib/bitmap_alloc.h"
#include "kernel/panic.h"
#include "kernel/lib/string.h"

#define MAX_FRAMES (LOWMEM_LIMIT / PAGE_SIZE)

static uint32_t frame_bits[MAX_FRAMES / 32];
static struct bitmap_alloc frames;
static uint32_t total_pages;
static uintptr_t top;

/* Lazily starts with everything used, so that only what the memory map offers is used. */
static void ensure_initialized(void)
{
    if (!frames.bits)
        bitmap_init_all_used(&frames, frame_bits, MAX_FRAMES);
}

void page_alloc_add_free(uint64_t base, uint64_t length)
{
    ensure_initialized();
    uint64_t first = (base + PAGE_SIZE - 1) / PAGE_SIZE;
    uint64_t end = (base + length) / PAGE_SIZE;
    if (end > MAX_FRAMES)
        end = MAX_FRAMES;
    if (first >= end)
        return;
    uint32_t before = frames.free_units;
    bitmap_set_free(&frames, (uint32_t)first, (uint32_t)(end - first));
    total_pages += frames.free_units - before;
    if (end * PAGE_SIZE > top)
        top = (uintptr_t)(end * PAGE_SIZE);
}

void page_alloc_reserve(uint64_t base, uint64_t length)
{
    ensure_initialized();
    uint64_t first = base / PAGE_SIZE;
    uint64_t end = (base + length + PAGE_SIZE - 1) / PAGE_SIZE;
    if (first >= MAX_FRAMES)
        return;
    if (end > MAX_FRAMES)
        end = MAX_FRAMES;
    uint32_t before = frames.free_units;
    bitmap_set_used(&frames, (uint32_t)first, (uint32_t)(end - first));
    total_pages -= before - frames.free_units;
}

uintptr_t page_alloc_unzeroed(uint32_t count)
{
    ensure_initialized();
    uint32_t first = bitmap_alloc_run(&frames, count, 1);
    if (first == BITMAP_NONE)
        return 0;
    return (uintptr_t)phys_to_virt((uintptr_t)first * PAGE_SIZE);
}

uintptr_t page_alloc(uint32_t count)
{
    uintptr_t va = page_alloc_unzeroed(count);
    if (va)
        memset((void *)va, 0, (size_t)count * PAGE_SIZE);
    return va;
}

bool page_alloc_leaves_reserve(uint64_t count)
{
    ensure_initialized();
    return count < frames.free_units && frames.free_units - count >= PAGE_KERNEL_RESERVE;
}

uintptr_t page_alloc_user(uint32_t count)
{
    if (!page_alloc_leaves_reserve(count))
        return 0;
    return page_alloc(count);
}

void page_free(uintptr_t addr, uint32_t count)
{
    uint32_t first = (uint32_t)(virt_to_phys((const void *)addr) / PAGE_SIZE);
    for (uint32_t i = 0; i < count; i++)
        if (!bitmap_is_used(&frames, first + i))
            panic("page_free: frame %#x is not allocated", (unsigned)((first + i) * PAGE_SIZE));
    bitmap_set_free(&frames, first, count);
}

uint32_t page_alloc_free_pages(void) { return frames.free_units; }
uint32_t page_alloc_total_pages(void) { return total_pages; }
uintptr_t page_alloc_top(void) { return top; }
