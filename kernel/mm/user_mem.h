/*
 * user_mem.h - the shape of a process's memory, as Linux i386 gives it (docs/memory.md):
 * the heap's break above the image, mappings placed top-down below USER_MMAP_BASE, and the
 * stack, which grows down on demand from USER_STACK_TOP to USER_STACK_MAX below it, never
 * closer than USER_STACK_GUARD_GAP to a mapping beneath (Linux's stack_guard_gap). The
 * memory system calls (kernel/syscall/sys_mem.c), the fault handler and uaccess use it.
 * Every function works on the current process's address space unless it takes one.
 */
#ifndef KERNEL_MM_USER_MEM_H
#define KERNEL_MM_USER_MEM_H

#include <stdbool.h>
#include <stdint.h>

struct addr_space;

#define USER_STACK_GUARD_GAP (256u * 4096u) /* Linux's stack_guard_gap: 1 MiB */

/* True when every page of [va, va+len) (page-aligned, not wrapping) is free. */
bool user_range_free(struct addr_space *as, uint32_t va, uint32_t len);

/* Maps the pages of the stack down to the page holding addr, when addr lies in the stack's
 * reach (below its lowest page, above USER_STACK_TOP - USER_STACK_MAX), nothing is mapped
 * there or within USER_STACK_GUARD_GAP below, and memory allows. True when it did: the
 * access that faulted at addr can run again. What Linux's expand_stack does. */
bool user_stack_grow(struct addr_space *as, uint32_t addr);

/* The lowest address a mapping or the break may reach up to without coming within the
 * stack's reach and guard gap: no mapping goes above it unless asked for at a fixed
 * address. */
uint32_t user_stack_floor(void);

#endif
