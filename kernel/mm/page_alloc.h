/*
 * page_alloc.h - physical memory in 4 KiB page frames.
 *
 * Fed at boot by the firmware's memory map (multiboot). Every frame it hands out lies in the
 * kernel's identity-mapped low memory, so the returned physical address is also a pointer.
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

/* Frames in [base, base+length) become available; frames overlapping it partially do not. */
void page_alloc_add_free(uint64_t base, uint64_t length);
/* Frames overlapping [base, base+length) become unavailable (kernel image, modules, ...). */
void page_alloc_reserve(uint64_t base, uint64_t length);

/* count contiguous zeroed frames, or 0 when memory is exhausted. */
uintptr_t page_alloc(uint32_t count);

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
void page_free(uintptr_t phys, uint32_t count);

uint32_t page_alloc_free_pages(void);
uint32_t page_alloc_total_pages(void);
/* One past the highest available frame's address: how much to identity-map. */
uintptr_t page_alloc_top(void);

#endif
