/*
 * paging.c - builds and edits the kernel's page tables.
 *
 * The page tables live in frames from the page allocator. They are created before paging is
 * on, when physical addresses are usable as pointers, and stay reachable afterwards because
 * all of low memory is identity-mapped.
 */
#include "arch/x86/paging.h"

#include "arch/x86/cpu.h"
#include "kernel/mm/page_alloc.h"
#include "kernel/panic.h"

#define PDE_INDEX(va) ((va) >> 22)
#define PTE_INDEX(va) (((va) >> 12) & 0x3ff)

extern char boot_stack_guard[];

static uint32_t *page_directory;

/* The page table covering va, created if create is set, else NULL when there is none. */
static uint32_t *page_table_for(uintptr_t va, bool create)
{
    uint32_t pde = page_directory[PDE_INDEX(va)];
    if (pde & PTE_PRESENT)
        return (uint32_t *)(uintptr_t)(pde & PTE_ADDR_MASK);
    if (!create)
        return 0;
    uintptr_t table = page_alloc(1);
    if (!table)
        panic("paging: out of memory for page tables");
    /* Directory entries are permissive; the page-table entries decide the access. */
    page_directory[PDE_INDEX(va)] = (uint32_t)table | PTE_PRESENT | PTE_WRITE;
    return (uint32_t *)table;
}

void paging_set_pte(uintptr_t va, uintptr_t pa, uint32_t flags)
{
    uint32_t *table = page_table_for(va, false);
    if (!table)
        panic("paging_set_pte: no page table for %#x", (unsigned)va);
    table[PTE_INDEX(va)] = flags ? ((uint32_t)pa & PTE_ADDR_MASK) | flags : 0;
    invlpg(va);
}

uint32_t paging_get_pte(uintptr_t va)
{
    uint32_t *table = page_table_for(va, false);
    return table ? table[PTE_INDEX(va)] : 0;
}

const uint32_t *paging_kernel_directory(void) { return page_directory; }

bool paging_is_mapped(uintptr_t va)
{
    if (!(read_cr0() & CR0_PG))
        return true;
    return paging_get_pte(va) & PTE_PRESENT;
}

void paging_init(uintptr_t lowmem_top)
{
    page_directory = (uint32_t *)page_alloc(1);
    if (!page_directory)
        panic("paging: no memory for the page directory");

    for (uintptr_t va = PAGE_SIZE; va < lowmem_top; va += PAGE_SIZE)
        page_table_for(va, true)[PTE_INDEX(va)] = (uint32_t)va | PTE_PRESENT | PTE_WRITE;
    page_table_for(0, true)[0] = 0;
    page_table_for((uintptr_t)boot_stack_guard, true)[PTE_INDEX((uintptr_t)boot_stack_guard)] = 0;

    /* The window's page tables exist from the start, so every address space that later
     * copies the kernel's directory entries sees the same device mappings. */
    for (uintptr_t va = IOREMAP_BASE; va < IOREMAP_BASE + IOREMAP_SIZE; va += 4u << 20)
        page_table_for(va, true);

    write_cr3((uint32_t)(uintptr_t)page_directory);
    write_cr0(read_cr0() | CR0_PG | CR0_WP);
}
