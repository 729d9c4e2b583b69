/*
 * paging.c - builds and edits the kernel's page tables.
 *
 * The page tables live in frames from the page allocator, reached through the direct map:
 * boot/multiboot.asm's early directory maps all of low memory at KERNEL_BASE with 4 MiB
 * pages, so they can be written before paging_init switches to them, and the real
 * directory maps the same addresses with 4 KiB pages.
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
    if (!page_directory) /* early boot: the 4 MiB pages map the kernel and all low memory */
        return va >= KERNEL_BASE && va < KERNEL_BASE + LOWMEM_LIMIT;
    return paging_get_pte(va) & PTE_PRESENT;
}

void paging_init(uintptr_t lowmem_top)
{
    page_directory = (uint32_t *)page_alloc(1);
    if (!page_directory)
        panic("paging: no memory for the page directory");

    if (lowmem_top > LOWMEM_LIMIT)
        lowmem_top = LOWMEM_LIMIT;
    for (uintptr_t pa = PAGE_SIZE; pa < lowmem_top; pa += PAGE_SIZE) {
        uintptr_t va = (uintptr_t)phys_to_virt(pa);
        page_table_for(va, true)[PTE_INDEX(va)] = (uint32_t)pa | PTE_PRESENT | PTE_WRITE;
    }
    page_table_for(KERNEL_BASE, true)[0] = 0;
    page_table_for((uintptr_t)boot_stack_guard, true)[PTE_INDEX((uintptr_t)boot_stack_guard)] = 0;

    /* The window's page tables exist from the start, so every address space that later
     * copies the kernel's directory entries sees the same device mappings. */
    for (uintptr_t va = IOREMAP_BASE; va < IOREMAP_BASE + IOREMAP_SIZE; va += 4u << 20)
        page_table_for(va, true);

    /* Paging is on already (the early directory): this drops the low mapping and the 4 MiB
     * pages at once. */
    write_cr3((uint32_t)virt_to_phys(page_directory));
    write_cr0(read_cr0() | CR0_PG | CR0_WP);
}

void paging_make_tables(uintptr_t va, uint32_t size)
{
    for (uintptr_t at = va; at - va < size; at += 4u << 20)
        page_table_for(at, true);
}
