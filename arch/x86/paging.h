/*
 * paging.h - the kernel's page tables (32-bit, two levels, 4 KiB pages).
 *
 *   0 .. 4 KiB               not mapped: a NULL dereference faults
 *   4 KiB .. top of RAM      identity-mapped, kernel only (virtual == physical)
 *   boot stack guard page    not mapped: a kernel stack overflow faults
 *   IOREMAP_BASE .. +64 MiB  the ioremap window: device memory, uncached, 4 KiB pages
 */
#ifndef ARCH_X86_PAGING_H
#define ARCH_X86_PAGING_H

#include <stdbool.h>
#include <stdint.h>

#define PTE_PRESENT 0x001u
#define PTE_WRITE 0x002u
#define PTE_USER 0x004u
#define PTE_WRITE_THROUGH 0x008u
#define PTE_CACHE_DISABLE 0x010u
#define PTE_ADDR_MASK 0xfffff000u

/* How device memory is mapped: present, writable, uncached. */
#define PTE_IO_FLAGS (PTE_PRESENT | PTE_WRITE | PTE_CACHE_DISABLE | PTE_WRITE_THROUGH)

#define IOREMAP_BASE 0xd0000000u
#define IOREMAP_SIZE (64u << 20)

/* Builds the page tables for RAM up to lowmem_top and the ioremap window, turns paging on. */
void paging_init(uintptr_t lowmem_top);

/* Sets the PTE of one kernel page (its page table must exist: lowmem or the ioremap window)
 * and flushes the TLB entry. flags 0 unmaps. */
void paging_set_pte(uintptr_t va, uintptr_t pa, uint32_t flags);

/* The PTE of va, or 0 if no page table covers it. */
uint32_t paging_get_pte(uintptr_t va);

/* The kernel's page directory: the CPU's while no user process runs, and the source of the
 * kernel entries of every process's directory (kernel/mm/vm.h). */
const uint32_t *paging_kernel_directory(void);

/* True when reading va cannot fault. */
bool paging_is_mapped(uintptr_t va);

#endif
