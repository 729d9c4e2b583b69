/*
 * page_alloc.h - physical memory in 4 KiB page frames, and how the kernel reaches it.
 *
 * Fed at boot by the firmware's memory map (multiboot), with physical addresses. The kernel
 * sees RAM through its direct map, as Linux i386 does: physical address p is at kernel
 * address KERNEL_BASE + p, for every p below LOWMEM_LIMIT (docs/memory.md). The allocator
 * hands out and takes back kernel addresses in that map (as Linux's __get_free_pages), so
 * its result is a pointer; whoever gives a frame to the hardware (page tables, CR3, DMA, a
 * user mapping) converts it with virt_to_phys, and whoever holds a physical address from
 * outside (the boot loader, a page-table entry) reads it through phys_to_virt.
 */
#ifndef KERNEL_MM_PAGE_ALLOC_H
#define KERNEL_MM_PAGE_ALLOC_H

#include <stdbool.h>
#include <stdint.h>

#define PAGE_SIZE 4096u
#define PAGE_SHIFT 12
#define PAGE_ALIGN_UP(x) (((x) + PAGE_SIZE - 1) & ~(uintptr_t)(PAGE_SIZE - 1))
#define PAGE_ALIGN_DOWN(x) ((x) & ~(uintptr_t)(PAGE_SIZE - 1))

/* The most memory the kernel maps and manages (as Linux's 32-bit lowmem limit). */
#define LOWMEM_LIMIT (768u << 20)

/* Where the direct map of RAM starts: Linux i386's PAGE_OFFSET, the 3G/1G split. Everything
 * below it is user space; the kernel image is linked at KERNEL_BASE + its load address. */
#define KERNEL_BASE 0xc0000000u

/* The kernel address of physical address pa (which must be below LOWMEM_LIMIT). */
static inline void *phys_to_virt(uintptr_t pa) { return (void *)(pa + KERNEL_BASE); }
/* The physical address of a kernel address in the direct map (the kernel image, the
 * heap, anything from page_alloc); not for ioremap's window. */
static inline uintptr_t virt_to_phys(const void *va) { return (uintptr_t)va - KERNEL_BASE; }

/* Frames in [base, base+length) become available; frames overlapping it partially do not. */
void page_alloc_add_free(uint64_t base, uint64_t length);
/* Frames overlapping [base, base+length) become unavailable (kernel image, modules, ...). */
void page_alloc_reserve(uint64_t base, uint64_t length);

/* count contiguous zeroed frames, as the kernel address of the first (its direct-map
 * address; virt_to_phys gives the frame), or 0 when memory is exhausted. */
uintptr_t page_alloc(uint32_t count);
/* page_alloc without the zeroing, for a caller that writes every byte before anything reads
 * it: the direct map's split tables (arch/x86/paging.c), up to 192 frames at boot. */
uintptr_t page_alloc_unzeroed(uint32_t count);

/* Frames the kernel keeps for itself: allocations made on a user process's behalf (its
 * memory and the page tables that map it, the text of the files it reads, the trace
 * buffer's pages when a program resizes it) cannot take the last 4 MiB, so a program that
 * asks for all it can get leaves the heap, kernel stacks of new processes and IPC log
 * contexts something to work with. */
#define PAGE_KERNEL_RESERVE 1024
/* True when count frames are free with PAGE_KERNEL_RESERVE more besides: what a request
 * made on a program's behalf checks before it allocates anything. */
bool page_alloc_leaves_reserve(uint64_t count);
/* page_alloc for a user process's request: 0 also when it would leave fewer than
 * PAGE_KERNEL_RESERVE frames free. */
uintptr_t page_alloc_user(uint32_t count);
/* Gives back frames page_alloc returned, by the same kernel address. */
void page_free(uintptr_t addr, uint32_t count);

uint32_t page_alloc_free_pages(void);
uint32_t page_alloc_total_pages(void);
/* One past the highest available frame's physical address: how much to direct-map. */
uintptr_t page_alloc_top(void);

#endif
