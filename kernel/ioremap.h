/*
 * ioremap.h - mapping device memory (PCI BARs) into the kernel's address space.
 *
 * Device registers must not be cached, and each mapping gets its own 4 KiB pages in the
 * ioremap window, so that a tracer can arm exactly the pages of one mapping (mmiotrace).
 */
#ifndef KERNEL_IOREMAP_H
#define KERNEL_IOREMAP_H

#include <stddef.h>
#include <stdint.h>

struct io_mapping {
    uintptr_t virt;          /* first byte the caller asked for */
    uint64_t phys;
    size_t size;
    uint32_t id;             /* 1, 2, ... in mapping order: mmiotrace's map id */
    struct io_mapping *next;
};

/* Maps [phys, phys+size) uncached; returns the virtual address of phys, or NULL when the
 * window is full or the request is empty or above 4 GiB. */
void *ioremap(uint64_t phys, size_t size);
/* Removes the mapping ioremap returned at addr; an unknown addr is reported and ignored. */
void iounmap(void *addr);

/* The mapping containing virtual address va, or NULL. */
const struct io_mapping *ioremap_find(uintptr_t va);
/* All live mappings, newest first. */
const struct io_mapping *ioremap_list(void);

#endif
