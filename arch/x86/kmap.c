/*
 * kmap.c - short-lived mappings of frames outside the direct map (see kmap.h): a stack of
 * KMAP_SLOTS pages per CPU in the ioremap window. Mapping writes this CPU's next slot's PTE
 * and flushes that one TLB entry on this CPU only: no other CPU ever uses the slot, so none
 * can hold a stale entry for it.
 */
#include "arch/x86/kmap.h"

#include "arch/x86/paging.h"
#include "kernel/arch.h"
#include "kernel/mm/highmem.h"
#include "kernel/mm/ioremap.h"
#include "kernel/panic.h"
#include "kernel/smp.h"

static uintptr_t slots_base; /* MAX_CPUS * KMAP_SLOTS pages */
static unsigned depth[MAX_CPUS];

void kmap_init(void)
{
    if (!highmem_total_pages())
        return; /* every frame is in the direct map: no slot is ever needed */
    slots_base = ioremap_reserve_window(MAX_CPUS * KMAP_SLOTS);
    if (!slots_base)
        panic("kmap: no room in the ioremap window for the mapping slots");
}

void *kmap_frame(uint32_t phys)
{
    if (!highmem_frame(phys))
        return phys_to_virt(phys);
    unsigned cpu = arch_cpu_id();
    if (depth[cpu] == KMAP_SLOTS)
        panic("kmap: more than %u frames mapped at once on CPU %u", KMAP_SLOTS, cpu);
    uintptr_t va = slots_base + (cpu * KMAP_SLOTS + depth[cpu]++) * PAGE_SIZE;
    paging_set_pte(va, phys, PTE_PRESENT | PTE_WRITE);
    return (void *)va;
}

void kunmap_frame(void *addr)
{
    uintptr_t va = (uintptr_t)addr & ~(uintptr_t)(PAGE_SIZE - 1);
    if (va < slots_base || va >= slots_base + MAX_CPUS * KMAP_SLOTS * PAGE_SIZE)
        return; /* a direct-map address: nothing was mapped */
    unsigned cpu = arch_cpu_id();
    uintptr_t top = slots_base + (cpu * KMAP_SLOTS + depth[cpu] - 1) * PAGE_SIZE;
    if (!depth[cpu] || va != top)
        panic("kunmap: %#x is not CPU %u's last mapping", (unsigned)va, cpu);
    paging_set_pte(va, 0, 0);
    depth[cpu]--;
}
