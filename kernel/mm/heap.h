/*
 * heap.h - kmalloc/kfree: small kernel allocations carved out of page-allocator memory.
 * Portable: tests/unit/test_heap.c runs it over host memory.
 */
#ifndef KERNEL_MM_HEAP_H
#define KERNEL_MM_HEAP_H

#include <stddef.h>
#include <stdint.h>

#define HEAP_ALIGN 16

/*
 * The heap asks for memory in chunks through grow(size), which returns size bytes of
 * HEAP_ALIGN-aligned memory (or NULL), and reports misuse (a bad or double kfree, a
 * smashed block header) through corrupted(message), which must not return.
 */
void heap_init(void *(*grow)(size_t size), void (*corrupted)(const char *message, const void *ptr));

/* size bytes aligned to HEAP_ALIGN, or NULL. kzalloc also zeroes them. */
void *kmalloc(size_t size);
void *kzalloc(size_t size);
/* Gives back what kmalloc returned; kfree(NULL) does nothing. */
void kfree(void *ptr);
/* The heap bytes a live allocation occupies, its header and rounding included: what it
 * costs the heap, for subsystems that charge their memory against a budget. 0 for NULL. */
size_t kmalloc_cost(const void *ptr);
/* The heap bytes kmalloc(size) will take at least (its header and rounding): the same
 * charge before an allocation is made. */
size_t kmalloc_cost_of_size(size_t size);

struct heap_stats {
    size_t chunk_bytes;   /* obtained from grow() */
    size_t used_bytes;    /* in live allocations, headers included */
    size_t allocations;   /* live */
};
void heap_get_stats(struct heap_stats *out);

/* Walks every block and checks every header; reports through corrupted(). */
void heap_check(void);

#endif
