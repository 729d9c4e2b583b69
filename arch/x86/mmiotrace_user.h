/*
 * mmiotrace_user.h - mmiotrace of a program's accesses through its mapping of a BAR
 * (arch/x86/mmiotrace_user.c; mmiotrace_user_map and mmiotrace_user_disarm_all are
 * declared with the kernel's fault path in kernel/mm/ioremap.h).
 */
#ifndef ARCH_X86_MMIOTRACE_USER_H
#define ARCH_X86_MMIOTRACE_USER_H

#include <stdbool.h>
#include <stdint.h>

struct addr_space;
struct trap_frame;

/* How many program mappings are traced now: address_space.c calls
 * mmiotrace_user_unmapping only when there are any. */
extern volatile uint32_t mmiotrace_user_mappings;

/* [va, va + pages * PAGE_SIZE) of as is about to be unmapped (munmap, exit, exec, a
 * mremap move): each traced mapping it touches gets its UNMAP and is disarmed. */
void mmiotrace_user_unmapping(struct addr_space *as, uint32_t va, uint32_t pages);

/* An exception from ring 3 (trap.c, before anything else): the page fault on an armed page
 * that begins a step, the #DB that ends it, or a fault inside the step (ended first, then
 * false: the fault is handled as without tracing). True when handled. */
bool mmiotrace_user_trap(struct trap_frame *tf);

/* True while this CPU is between a step's fault and its #DB: signals and a kill wait. */
bool mmiotrace_user_stepping(void);

#endif
