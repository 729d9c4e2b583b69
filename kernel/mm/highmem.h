/*
 * highmem.h - the page frames above LOWMEM_LIMIT (768 MiB), up to 4 GiB: memory the kernel
 * does not map (its direct map ends at LOWMEM_LIMIT, where the kernel's 1 GiB of address
 * space runs out), handed out by physical address for programs' anonymous pages, as Linux's
 * ZONE_HIGHMEM serves GFP_HIGHUSER. The kernel reaches such a frame only through a
 * temporary mapping (arch/x86/kmap.h). Without memory above 768 MiB (QEMU's default 128
 * MiB) nothing here is used and every user page comes from page_alloc.
 */
#ifndef KERNEL_MM_HIGHMEM_H
#define KERNEL_MM_HIGHMEM_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/mm/page_alloc.h"

/* Frames in [base, base+length) at or above LOWMEM_LIMIT and below 4 GiB become available. */
void highmem_add_free(uint64_t base, uint64_t length);

/* A free high frame's physical address, or 0 when there is none. Not zeroed. (It needs no
 * PAGE_KERNEL_RESERVE check: the kernel's own structures never live in high frames; the
 * trace buffer's pages, which may, are counted against its budget.) */
uint32_t highmem_alloc(void);

/* Gives back a frame highmem_alloc returned. */
void highmem_free(uint32_t phys);

/* True for a physical address in high memory: not in the direct map. */
static inline bool highmem_frame(uint64_t phys) { return phys >= LOWMEM_LIMIT; }

/* Lasting kernel mappings of high frames, for the trace buffer's pages (its writers reach
 * their page from any context, so a temporary mapping will not do): arch/x86/highmap.c, a
 * window of 128 MiB of kernel address space. highmap_page gives a zeroed page, mapped while
 * held, or NULL (no high memory, the window full, or a TLB purge needed with interrupts
 * off); highmap_owns tells its pages; highmap_free gives one back; highmap_available is
 * how many more it could give. */
void *highmap_page(void);
bool highmap_owns(const void *p);
void highmap_free(void *p);
uint32_t highmap_available(void);

uint32_t highmem_total_pages(void);
uint32_t highmem_free_pages(void);

#endif
