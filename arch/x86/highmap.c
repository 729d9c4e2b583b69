/*
 * highmap.c - the trace buffer's window of high frames (see highmap.h). Each slot is free,
 * used, or stale (unmapped here, maybe still in another CPU's TLB). One lock; a purge (a
 * TLB flush on every CPU) turns every stale slot free, when a mapping finds none.
 */
#include "arch/x86/highmap.h"

#include "arch/x86/cpu.h"
#include "arch/x86/gdt.h" /* read_cr3 */
#include "arch/x86/paging.h"
#include "kernel/arch.h"
#include "kernel/lib/string.h"
#include "kernel/mm/highmem.h"
#include "kernel/smp.h"
#include "kernel/spinlock.h"

#define SLOTS (HIGHMAP_SIZE / PAGE_SIZE)

static uint32_t used[SLOTS / 32];  /* mapped, or stale */
static uint32_t stale[SLOTS / 32]; /* unmapped, waiting for a purge */
static uint32_t cursor, in_use, stale_count;
static bool ready;
static struct spinlock highmap_lock = SPINLOCK_INIT("highmap");

void highmap_init(void)
{
    if (!highmem_total_pages())
        return;
    paging_make_tables(HIGHMAP_BASE, HIGHMAP_SIZE);
    ready = true;
}

static void flush_this_cpu(void *unused)
{
    (void)unused;
    write_cr3(read_cr3()); /* no kernel page is global: this drops every translation */
}

/* Every CPU flushes its TLB, then every stale slot is free. Interrupts on: the other CPUs
 * are called and waited for. */
static void purge(void)
{
    flush_this_cpu(0);
    smp_call_others(flush_this_cpu, 0);
    unsigned long flags = spin_lock_irqsave(&highmap_lock);
    for (uint32_t w = 0; w < SLOTS / 32; w++) {
        used[w] &= ~stale[w];
        stale[w] = 0;
    }
    stale_count = 0;
    spin_unlock_irqrestore(&highmap_lock, flags);
}

/* Takes a free slot, from the cursor round; SLOTS when none. Lock held. */
static uint32_t take_slot(void)
{
    for (uint32_t n = 0; n < SLOTS / 32; n++) {
        uint32_t w = (cursor + n) % (SLOTS / 32);
        if (used[w] == 0xffffffffu)
            continue;
        uint32_t bit = (uint32_t)__builtin_ctz(~used[w]);
        used[w] |= 1u << bit;
        cursor = w;
        in_use++;
        return w * 32 + bit;
    }
    return SLOTS;
}

void *highmap_page(void)
{
    if (!ready)
        return 0;
    uint32_t frame = highmem_alloc();
    if (!frame)
        return 0;
    for (int attempt = 0; attempt < 2; attempt++) {
        unsigned long flags = spin_lock_irqsave(&highmap_lock);
        uint32_t slot = take_slot();
        bool purge_helps = stale_count > 0;
        spin_unlock_irqrestore(&highmap_lock, flags);
        if (slot != SLOTS) {
            uintptr_t va = HIGHMAP_BASE + slot * PAGE_SIZE;
            paging_set_pte(va, frame, PTE_PRESENT | PTE_WRITE);
            memset((void *)va, 0, PAGE_SIZE);
            return (void *)va;
        }
        if (!purge_helps || !arch_irqs_enabled())
            break;
        purge();
    }
    highmem_free(frame);
    return 0;
}

bool highmap_owns(const void *p)
{
    return (uintptr_t)p >= HIGHMAP_BASE && (uintptr_t)p - HIGHMAP_BASE < HIGHMAP_SIZE;
}

void highmap_free(void *p)
{
    uintptr_t va = (uintptr_t)p & ~(uintptr_t)(PAGE_SIZE - 1);
    uint32_t slot = (uint32_t)((va - HIGHMAP_BASE) / PAGE_SIZE);
    uint32_t frame = paging_get_pte(va) & PTE_ADDR_MASK;
    paging_set_pte(va, 0, 0); /* this CPU's entry goes now; the others' at the next purge */
    highmem_free(frame);
    unsigned long flags = spin_lock_irqsave(&highmap_lock);
    stale[slot / 32] |= 1u << (slot % 32);
    stale_count++;
    in_use--;
    spin_unlock_irqrestore(&highmap_lock, flags);
}

uint32_t highmap_available(void)
{
    if (!ready)
        return 0;
    uint32_t room = SLOTS - in_use, high = highmem_free_pages();
    return room < high ? room : high;
}
