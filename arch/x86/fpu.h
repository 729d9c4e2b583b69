/*
 * fpu.h - each task's own x87 registers, saved and loaded only when a task uses them.
 */
#ifndef ARCH_X86_FPU_H
#define ARCH_X86_FPU_H

struct task;

/* Takes over #NM and sets CR0 for lazy switching (once, at boot, before any task runs). */
void fpu_init(void);

/* Called by arch_switch_to before the switch from prev to next: makes next's first x87
 * instruction trap unless the FPU already holds next's registers. */
void fpu_switch(struct task *prev, struct task *next);

/* fork: child gets the current task's x87 registers as they are now. */
void fpu_copy_state(struct task *child);
/* execve: t (the current task) starts with a clean x87 state at its next x87 use. */
void fpu_forget(struct task *t);

#endif
