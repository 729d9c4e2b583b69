/*
 * kmap.h - a short-lived kernel mapping of any page frame, for the frames outside the
 * direct map (kernel/mm/highmem.h), as Linux's kmap_local_page. Each CPU has KMAP_SLOTS
 * pages of the ioremap window; kmap_frame maps the frame into this CPU's next free one,
 * kunmap_frame gives back the last mapped. A frame in the direct map needs no slot: its
 * direct-map address is returned and kunmap_frame of it does nothing.
 *
 * The rules, Linux's for kmap_local: unmap in the reverse order of mapping, on the same CPU,
 * and do not sleep or return to user space in between (a task moves between CPUs only
 * there: kernel code is not preempted). Not from an interrupt handler: the slots are the
 * interrupted code's.
 */
#ifndef ARCH_X86_KMAP_H
#define ARCH_X86_KMAP_H

#include <stdint.h>

#define KMAP_SLOTS 4

/* Reserves every CPU's slots in the ioremap window, if there is high memory; at boot,
 * after paging_init and the memory map (highmem_add_free). */
void kmap_init(void);

/* The kernel address of the page at phys (page-aligned). */
void *kmap_frame(uint32_t phys);

/* Ends the mapping kmap_frame gave (any address inside its page). */
void kunmap_frame(void *addr);

#endif
