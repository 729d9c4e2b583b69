/*
 * double_fault.h - the task that reports double faults (vector 8's task gate).
 */
#ifndef ARCH_X86_DOUBLE_FAULT_H
#define ARCH_X86_DOUBLE_FAULT_H

extern char boot_stack_guard[];

/* Fills the double-fault TSS. Call after paging is on: the task takes the current CR3. */
void double_fault_init(void);

#endif
