/*
 * highmap.h - lasting kernel mappings of high frames (kernel/mm/highmem.h), for the one
 * user that needs much memory reachable at all times from any context: the trace buffer,
 * whose writers write into whatever page is current (Linux i386 gives its ring buffer low
 * pages only; here the memory above 768 MiB can hold it, as far as this window reaches).
 *
 * A window of HIGHMAP_SIZE of kernel address space above the ioremap window, whose page
 * tables exist from boot when there is high memory, so every address space shares them.
 * A page is a high frame mapped at a free slot of the window. Freeing unmaps it on this
 * CPU and gives the frame back at once, but the slot is reused only after every CPU has
 * flushed its TLB (a purge, done before a mapping needs a slot, as Linux's lazy vunmap):
 * another CPU may still hold the old translation, harmless while nobody uses the freed
 * address, wrong once the slot maps another frame.
 */
#ifndef ARCH_X86_HIGHMAP_H
#define ARCH_X86_HIGHMAP_H

#include <stdbool.h>
#include <stdint.h>

#define HIGHMAP_BASE 0xf4000000u /* IOREMAP_BASE + IOREMAP_SIZE */
#define HIGHMAP_SIZE (128u << 20)

/* Creates the window's page tables when there is high memory; at boot, after paging_init
 * and highmem_add_free, before any process copies the kernel's directory. */
void highmap_init(void);

/* highmap_page, highmap_owns, highmap_free, highmap_available: kernel/mm/highmem.h. */

#endif
