/*
 * fpu.h - each task's own x87 registers, saved and loaded only when a task uses them.
 */
#ifndef ARCH_X86_FPU_H
#define ARCH_X86_FPU_H

#include "arch/x86/cpu.h"
#include "kernel/smp.h" /* MAX_CPUS */

struct task;

/* Takes over #NM and sets CR0 for lazy switching (once, at boot, before any task runs). */
void fpu_init(void);

/* Called by arch_switch_to before the switch from prev to next: makes next's first x87
 * instruction trap unless the FPU already holds next's registers. */
void fpu_switch(struct task *prev, struct task *next);

/* Whose registers each CPU's FPU holds (NULL: nobody's); fpu.c keeps it. */
extern struct task *cpu_fpu_owner[MAX_CPUS];

/* fpu_switch for a caller that has this CPU's number (me), with interrupts off. Inline:
 * every switch runs it, and in the common case there is nothing to do, which takes a load,
 * two compares and a test of CR0: neither task's registers are in this FPU (prev did not
 * use it since it was switched in) and TS is set already, so next's first x87 instruction
 * traps. Anything else is fpu_switch's. */
static inline __attribute__((always_inline)) void fpu_switch_on(unsigned me, struct task *prev,
                                                                struct task *next)
{
    struct task *owner = cpu_fpu_owner[me];
    if (owner == prev || owner == next || !(read_cr0() & CR0_TS))
        fpu_switch(prev, next);
}

/* fork: child gets the current task's x87 registers as they are now. */
void fpu_copy_state(struct task *child);
/* execve: t (the current task) starts with a clean x87 state at its next x87 use. */
void fpu_forget(struct task *t);

#endif
