/*
 * ioremap.c - maps device memory into the ioremap window, uncached.
 */
#include "kernel/mm/ioremap.h"

#include "arch/x86/cpu.h"
#include "arch/x86/paging.h"
#include "kernel/lib/bitmap_alloc.h"
#include "kernel/mm/heap.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/log/printk.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"

#define WINDOW_PAGES (IOREMAP_SIZE / PAGE_SIZE)

static uint32_t window_bits[WINDOW_PAGES / 32];
static struct bitmap_alloc window;
static struct io_mapping *mappings;
/* The mapping that owns each page of the window (NULL: free, or reserved for a caller's own
 * use by ioremap_reserve_window): the fault path's lookup is one load whatever the number of
 * mappings, as Linux's kmmio finds a faulting page in a hash. 64 KiB for the 64 MiB window.
 * Written and read under ioremap_lock. */
static struct io_mapping *page_owner[WINDOW_PAGES];
static uint32_t next_id = 1;
static struct spinlock ioremap_lock = SPINLOCK_INIT("ioremap");
static const struct ioremap_observer *observer;

uint32_t ioremap_take_id(void)
{
    unsigned long flags = spin_lock_irqsave(&ioremap_lock);
    uint32_t id = next_id++;
    spin_unlock_irqrestore(&ioremap_lock, flags);
    return id;
}

void ioremap_set_observer(const struct ioremap_observer *o)
{
    unsigned long flags = spin_lock_irqsave(&ioremap_lock);
    observer = o;
    spin_unlock_irqrestore(&ioremap_lock, flags);
}

void ioremap_detach_observer(void (*undo)(struct io_mapping *m))
{
    unsigned long flags = spin_lock_irqsave(&ioremap_lock);
    observer = 0;
    for (struct io_mapping *m = mappings; m; m = m->next)
        undo(m);
    spin_unlock_irqrestore(&ioremap_lock, flags);
}

size_t ioremap_window_bytes(void) { return IOREMAP_SIZE; }

/* Sets up the window's allocator on first use: every page free. Lock held. */
static void window_init_once(void)
{
    if (!window.bits) {
        bitmap_init_all_used(&window, window_bits, WINDOW_PAGES);
        bitmap_set_free(&window, 0, WINDOW_PAGES);
    }
}

uintptr_t ioremap_reserve_window(uint32_t pages)
{
    unsigned long flags = spin_lock_irqsave(&ioremap_lock);
    window_init_once();
    uint32_t slot = bitmap_alloc_run(&window, pages, 1);
    spin_unlock_irqrestore(&ioremap_lock, flags);
    return slot == BITMAP_NONE ? 0 : IOREMAP_BASE + (uintptr_t)slot * PAGE_SIZE;
}

/* Records m as the owner of its pages (or clears them: m NULL). Lock held. */
static void set_owner(uintptr_t first_page, uint32_t pages, struct io_mapping *m)
{
    uint32_t slot = (uint32_t)((first_page - IOREMAP_BASE) / PAGE_SIZE);
    for (uint32_t i = 0; i < pages; i++)
        page_owner[slot + i] = m;
}

/* The owner of va's page, or NULL (outside the window, or a page no mapping has). Lock held. */
static struct io_mapping *owner_of(uintptr_t va)
{
    if (va < IOREMAP_BASE || va - IOREMAP_BASE >= IOREMAP_SIZE)
        return 0;
    return page_owner[(va - IOREMAP_BASE) / PAGE_SIZE];
}

/* Page-aligned bounds of a mapping, what the window and the page tables deal in. */
uintptr_t ioremap_first_page(const struct io_mapping *m) { return PAGE_ALIGN_DOWN(m->virt); }
uint32_t ioremap_page_count(const struct io_mapping *m)
{
    uintptr_t offset = m->virt - PAGE_ALIGN_DOWN(m->virt);
    return (uint32_t)(PAGE_ALIGN_UP(offset + m->size) / PAGE_SIZE);
}

void *ioremap(uint64_t phys, size_t size)
{
    if (size == 0 || phys + size > 0x100000000ull || size > IOREMAP_SIZE)
        return NULL;
    struct io_mapping *m = kmalloc(sizeof *m);
    if (!m)
        return NULL;
    uintptr_t offset = (uintptr_t)(phys & (PAGE_SIZE - 1));
    uint32_t pages = (uint32_t)(PAGE_ALIGN_UP(offset + size) / PAGE_SIZE);

    uintptr_t caller = (uintptr_t)__builtin_return_address(0);
    unsigned long flags = spin_lock_irqsave(&ioremap_lock);
    window_init_once();
    uint32_t slot = bitmap_alloc_run(&window, pages, 1);
    if (slot == BITMAP_NONE) {
        spin_unlock_irqrestore(&ioremap_lock, flags);
        kfree(m);
        return NULL; /* the caller says what it could not map, as after every failure */
    }
    uintptr_t va = IOREMAP_BASE + (uintptr_t)slot * PAGE_SIZE;
    uintptr_t pa = (uintptr_t)(phys - offset);
    for (uint32_t i = 0; i < pages; i++)
        paging_set_pte(va + i * PAGE_SIZE, pa + i * PAGE_SIZE, PTE_IO_FLAGS);
    m->virt = va + offset;
    m->phys = phys;
    m->size = size;
    m->id = next_id++;
    m->traced = false;
    m->next = mappings;
    m->prev = 0;
    if (mappings)
        mappings->prev = m;
    mappings = m;
    set_owner(va, pages, m);
    if (observer)
        observer->mapped(m, caller);
    spin_unlock_irqrestore(&ioremap_lock, flags);
    return (void *)m->virt;
}

/* Pages of the window that were just unmapped. */
struct window_range {
    uintptr_t start;
    uint32_t pages;
};

/* Runs on every other CPU (smp_call_others): drops its TLB entries of the range. */
static void forget_range(void *arg)
{
    const struct window_range *r = arg;
    for (uint32_t i = 0; i < r->pages; i++)
        invlpg(r->start + i * PAGE_SIZE);
}

void iounmap(void *addr)
{
    uintptr_t caller = (uintptr_t)__builtin_return_address(0);
    unsigned long flags = spin_lock_irqsave(&ioremap_lock);
    struct io_mapping *m = owner_of((uintptr_t)addr);
    if (!m || m->virt != (uintptr_t)addr) {
        spin_unlock_irqrestore(&ioremap_lock, flags);
        printk("iounmap: %p was not returned by ioremap\n", addr);
        return;
    }
    /* Off the list (kept for ioremap_detach_observer's walk over every mapping), in O(1):
     * prev is the mapping made just after m, or none when m is the newest. */
    *(m->prev ? &m->prev->next : &mappings) = m->next;
    if (m->next)
        m->next->prev = m->prev;
    set_owner(ioremap_first_page(m), ioremap_page_count(m), 0);
    if (observer)
        observer->unmapping(m, caller);
    struct window_range gone = { ioremap_first_page(m), ioremap_page_count(m) };
    for (uint32_t i = 0; i < gone.pages; i++)
        paging_set_pte(gone.start + i * PAGE_SIZE, 0, 0);
    spin_unlock_irqrestore(&ioremap_lock, flags);
    /* Before the pages can be mapped again, no CPU may still translate them: another CPU
     * using a stale entry would reach the old device, and under mmiotrace untraced. */
    smp_call_others(forget_range, &gone);
    flags = spin_lock_irqsave(&ioremap_lock);
    bitmap_set_free(&window, (uint32_t)((gone.start - IOREMAP_BASE) / PAGE_SIZE), gone.pages);
    spin_unlock_irqrestore(&ioremap_lock, flags);
    kfree(m);
}

/* One load from the page's owner, under the lock: mmiotrace's fault path calls this on any
 * CPU while another may be mapping or unmapping (it must not return a mapping being freed:
 * iounmap clears the pages' owner under the lock before it frees). The mapping found stays
 * valid after: a driver does not unmap what it is still accessing. */
const struct io_mapping *ioremap_find(uintptr_t va)
{
    unsigned long flags = spin_lock_irqsave(&ioremap_lock);
    const struct io_mapping *m = owner_of(va);
    spin_unlock_irqrestore(&ioremap_lock, flags);
    return m;
}

const struct io_mapping *ioremap_list(void) { return mappings; }
