/*
 * paging.c - builds and edits the kernel's page tables.
 *
 * The page tables live in frames from the page allocator, reached through the direct map:
 * boot/multiboot.asm's early directory maps all of low memory at KERNEL_BASE with 4 MiB
 * pages, so they can be written before paging_init switches to them. The real directory
 * maps RAM with 4 MiB pages too where the CPU has PSE (Linux maps lowmem so), one
 * directory entry per 4 MiB instead of a page table of 1,024 entries, and splits a 4 MiB
 * page into a page table where one of its pages must be unmapped: physical page 0, the
 * boot stack's guard page, a kernel stack's guard page (arch_kstack_guard). Every address
 * space copies the kernel's directory entries, so a split is made in each registered copy
 * too (split_large_page).
 */
#include "arch/x86/paging.h"

#include "arch/x86/cpu.h"
#include "kernel/arch.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/panic.h"
#include "kernel/spinlock.h"

#define PDE_INDEX(va) ((va) >> 22)
#define PTE_INDEX(va) (((va) >> 12) & 0x3ff)

extern char boot_stack_guard[];

#define LARGE_PAGE_SIZE (1024 * PAGE_SIZE)
#define CPUID1_EDX_PSE (1u << 3)

static uint32_t *page_directory;

/* The registered copies of the kernel's entries, and the lock that makes a split and a new
 * copy one step each. */
static struct kernel_entries_copy *copies;
static struct spinlock copies_lock = SPINLOCK_INIT("kernel_entries");

void paging_share_kernel_entries(struct kernel_entries_copy *copy, uint32_t *dir)
{
    unsigned long flags = spin_lock_irqsave(&copies_lock);
    for (uint32_t i = PDE_INDEX(KERNEL_BASE); i < 1024; i++)
        dir[i] = page_directory[i];
    copy->dir = dir;
    copy->prev = 0;
    copy->next = copies;
    if (copies)
        copies->prev = copy;
    copies = copy;
    spin_unlock_irqrestore(&copies_lock, flags);
}

void paging_unshare_kernel_entries(struct kernel_entries_copy *copy)
{
    unsigned long flags = spin_lock_irqsave(&copies_lock);
    if (copy->prev)
        copy->prev->next = copy->next;
    else
        copies = copy->next;
    if (copy->next)
        copy->next->prev = copy->prev;
    copy->prev = copy->next = 0;
    spin_unlock_irqrestore(&copies_lock, flags);
}

/* The page tables the 4 MiB pages of the direct map become when split, set aside by
 * paging_init, one frame per 4 MiB page (what the 4 KiB map took for all of them): slot
 * s's is split_tables + (s - PDE_INDEX(KERNEL_BASE)) * 1024. A split allocates nothing, so
 * it cannot fail, and it leaves the free memory as it was: a kernel stack's guard page
 * costs no frame, and a program that checks MemFree before and after sees no change. */
static uint32_t *split_tables;

/* Replaces the 4 MiB page at va's directory entry by its page table mapping the same 1,024
 * frames with the same rights, in the kernel's directory and every registered copy, and
 * flushes this CPU's TLB. Another CPU may keep the 4 MiB translation until its next CR3
 * load; it maps the same frames. (paging_set_pte has always flushed only this CPU's entry:
 * a guard page another CPU reached before stays reachable there until then, 4 KiB or not.)
 * Returns the page table. */
static __attribute__((noinline, cold)) uint32_t *split_large_page(uintptr_t va)
{
    unsigned long flags = spin_lock_irqsave(&copies_lock);
    uint32_t pde = page_directory[PDE_INDEX(va)];
    if (!(pde & PDE_LARGE)) { /* another CPU split it meanwhile */
        spin_unlock_irqrestore(&copies_lock, flags);
        return phys_to_virt(pde & PTE_ADDR_MASK);
    }
    uint32_t *table = split_tables + (PDE_INDEX(va) - PDE_INDEX(KERNEL_BASE)) * 1024;
    uint32_t pte = (pde & ~(PDE_LARGE | 0x3ff000u));
    for (uint32_t i = 0; i < 1024; i++, pte += PAGE_SIZE)
        table[i] = pte;
    uint32_t new_pde = (uint32_t)virt_to_phys(table) | PTE_PRESENT | PTE_WRITE;
    page_directory[PDE_INDEX(va)] = new_pde;
    for (struct kernel_entries_copy *c = copies; c; c = c->next)
        c->dir[PDE_INDEX(va)] = new_pde;
    write_cr3(read_cr3());
    spin_unlock_irqrestore(&copies_lock, flags);
    return table;
}

/* The page table covering va, created if create is set (a 4 MiB page is split into one),
 * else NULL when there is none. */
static uint32_t *page_table_for(uintptr_t va, bool create)
{
    uint32_t pde = page_directory[PDE_INDEX(va)];
    if (pde & PDE_LARGE)
        return create ? split_large_page(va) : 0;
    if (pde & PTE_PRESENT)
        return phys_to_virt(pde & PTE_ADDR_MASK);
    if (!create)
        return 0;
    uint32_t *table = (uint32_t *)page_alloc(1);
    if (!table)
        panic("paging: out of memory for page tables");
    /* Directory entries are permissive; the page-table entries decide the access. */
    page_directory[PDE_INDEX(va)] = (uint32_t)virt_to_phys(table) | PTE_PRESENT | PTE_WRITE;
    return table;
}

/* mmiotrace's fault path calls these two several times per traced access: they read the
 * directory entry themselves, and only a 4 MiB page's split leaves the fast path. */
void paging_set_pte(uintptr_t va, uintptr_t pa, uint32_t flags)
{
    uint32_t pde = page_directory[PDE_INDEX(va)];
    uint32_t *table;
    if (__builtin_expect(pde & PDE_LARGE, 0))
        table = split_large_page(va);
    else if (pde & PTE_PRESENT)
        table = phys_to_virt(pde & PTE_ADDR_MASK);
    else
        panic("paging_set_pte: no page table for %#x", (unsigned)va);
    table[PTE_INDEX(va)] = flags ? ((uint32_t)pa & PTE_ADDR_MASK) | flags : 0;
    invlpg(va);
}

uint32_t paging_get_pte(uintptr_t va)
{
    uint32_t pde = page_directory[PDE_INDEX(va)];
    if (!(pde & PTE_PRESENT))
        return 0;
    if (pde & PDE_LARGE)
        return (pde & ~(PDE_LARGE | 0x3ff000u)) + (uint32_t)(va & 0x3ff000u);
    return ((const uint32_t *)phys_to_virt(pde & PTE_ADDR_MASK))[PTE_INDEX(va)];
}

const uint32_t *paging_kernel_directory(void) { return page_directory; }

bool paging_is_mapped(uintptr_t va)
{
    if (!page_directory) /* early boot: the 4 MiB pages map the kernel and all low memory */
        return va >= KERNEL_BASE && va < KERNEL_BASE + LOWMEM_LIMIT;
    return paging_get_pte(va) & PTE_PRESENT;
}

/* Maps physical [0, top) at KERNEL_BASE: with a 4 MiB page per directory entry where the
 * CPU has PSE and the 4 MiB lies wholly below top, else with a page table, whose entries
 * one loop stores (about 4 instructions a page). With PSE the boot's cost is one store per
 * 4 MiB of RAM (the split tables are set aside unzeroed: split_large_page writes all of a
 * table before the table is used), and a page table only for a part of 4 MiB at the top. */
static void map_direct(uintptr_t top)
{
    bool pse = arch_hwcap() & CPUID1_EDX_PSE;
    uint32_t large_pages = (uint32_t)(top / LARGE_PAGE_SIZE);
    if (pse && large_pages && !(split_tables = (uint32_t *)page_alloc_unzeroed(large_pages)))
        panic("paging: no memory for the direct map's %u page tables", (unsigned)large_pages);
    for (uintptr_t pa = 0; pa < top; pa += LARGE_PAGE_SIZE) {
        uintptr_t va = (uintptr_t)phys_to_virt(pa);
        if (pse && top - pa >= LARGE_PAGE_SIZE) {
            page_directory[PDE_INDEX(va)] = (uint32_t)pa | PTE_PRESENT | PTE_WRITE | PDE_LARGE;
            continue;
        }
        uint32_t *table = page_table_for(va, true);
        uint32_t entries = top - pa >= LARGE_PAGE_SIZE ? 1024 : (uint32_t)((top - pa) / PAGE_SIZE);
        uint32_t pte = (uint32_t)pa | PTE_PRESENT | PTE_WRITE;
        for (uint32_t i = 0; i < entries; i++, pte += PAGE_SIZE)
            table[i] = pte;
    }
}

void paging_init(uintptr_t lowmem_top)
{
    page_directory = (uint32_t *)page_alloc(1);
    if (!page_directory)
        panic("paging: no memory for the page directory");

    if (lowmem_top > LOWMEM_LIMIT)
        lowmem_top = LOWMEM_LIMIT;
    map_direct(lowmem_top);
    page_table_for(KERNEL_BASE, true)[0] = 0;
    page_table_for((uintptr_t)boot_stack_guard, true)[PTE_INDEX((uintptr_t)boot_stack_guard)] = 0;

    /* The window's page tables exist from the start, so every address space that later
     * copies the kernel's directory entries sees the same device mappings. */
    for (uintptr_t va = IOREMAP_BASE; va < IOREMAP_BASE + IOREMAP_SIZE; va += 4u << 20)
        page_table_for(va, true);

    /* Paging is on already (the early directory): this drops its low mapping and its 4 MiB
     * pages at once. */
    write_cr3((uint32_t)virt_to_phys(page_directory));
    write_cr0(read_cr0() | CR0_PG | CR0_WP);
}

void paging_make_tables(uintptr_t va, uint32_t size)
{
    for (uintptr_t at = va; at - va < size; at += 4u << 20)
        page_table_for(at, true);
}
