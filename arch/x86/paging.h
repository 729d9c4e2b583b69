/*
 * paging.h - the kernel's page tables (32-bit, two levels, 4 KiB pages). The layout is
 * Linux i386's 3G/1G split (docs/memory.md):
 *
 *   0 .. KERNEL_BASE                user space: nothing in the kernel's own directory, each
 *                                   process's pages in its own (kernel/mm/vm.h)
 *   KERNEL_BASE + 4 KiB .. + RAM    the direct map: physical p at KERNEL_BASE + p (up to
 *                                   LOWMEM_LIMIT), kernel only; the kernel image is in it
 *                                   (at KERNEL_BASE + 1 MiB). KERNEL_BASE itself (physical
 *                                   page 0) is not mapped, so phys_to_virt(0) faults. 4 MiB
 *                                   pages where the CPU has PSE, split into 4 KiB ones where
 *                                   a page must be unmapped (paging.c)
 *   boot stack guard page           not mapped: a kernel stack overflow faults
 *   IOREMAP_BASE .. +64 MiB         the ioremap window: device memory, uncached, 4 KiB pages
 *
 * The page tables hold physical addresses; the functions here take and give kernel
 * addresses for the tables themselves (phys_to_virt/virt_to_phys, kernel/mm/page_alloc.h).
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
#define PDE_LARGE 0x080u /* PS: the directory entry maps a 4 MiB page itself */

/* How device memory is mapped: present, writable, uncached. */
#define PTE_IO_FLAGS (PTE_PRESENT | PTE_WRITE | PTE_CACHE_DISABLE | PTE_WRITE_THROUGH)

/* Above the direct map's largest extent (KERNEL_BASE + LOWMEM_LIMIT). */
#define IOREMAP_BASE 0xf0000000u
#define IOREMAP_SIZE (64u << 20)

/* Builds the page tables for the direct map of RAM up to physical lowmem_top and for the
 * ioremap window, and switches to them from boot/multiboot.asm's early directory. */
void paging_init(uintptr_t lowmem_top);

/* Sets the PTE of one kernel page (its page table must exist: lowmem or the ioremap window)
 * and flushes the TLB entry. flags 0 unmaps. A page of the direct map inside a 4 MiB page
 * splits that page into a page table first, in the kernel's directory and every copy of
 * its entries (paging_share_kernel_entries). */
void paging_set_pte(uintptr_t va, uintptr_t pa, uint32_t flags);

/* Creates the page tables of the kernel range [va, va + size) that have none (a window
 * whose mappings every address space must see: call before any process exists). */
void paging_make_tables(uintptr_t va, uint32_t size);

/* The PTE of va, or 0 if no page table covers it. Inside a 4 MiB page: the entry a page
 * table would hold for va (its frame, the large page's flags without PDE_LARGE). */
uint32_t paging_get_pte(uintptr_t va);

/* The kernel's page directory (its kernel address): the CPU's while no user process runs,
 * and the source of the kernel entries of every process's directory (kernel/mm/vm.h). */
const uint32_t *paging_kernel_directory(void);

/* A directory holding a copy of the kernel's entries (KERNEL_BASE and up): a process's
 * (vm_create) or mmiotrace's per-CPU view. Registered copies get every later change of a
 * kernel entry, which is only ever a 4 MiB page split into a page table. (The APs' boot
 * directory is not registered: it lives for the few instructions of the trampoline.) */
struct kernel_entries_copy {
    uint32_t *dir;
    struct kernel_entries_copy *prev, *next;
};

/* Copies the kernel's entries into dir and registers it in copy until
 * paging_unshare_kernel_entries; one step, so that no split falls between the two. */
void paging_share_kernel_entries(struct kernel_entries_copy *copy, uint32_t *dir);
void paging_unshare_kernel_entries(struct kernel_entries_copy *copy);

/* True when reading va cannot fault. */
bool paging_is_mapped(uintptr_t va);

#endif
