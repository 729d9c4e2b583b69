/*
 * snapshot.h - x86's part of CPU-state snapshots (after Chuck Ebbert's 2003 patch "Debugging
 * i386 using hardware task"): vector 3 is a task gate to a debug task, so an int3 anywhere
 * saves every register of the running context, and arch/x86/snapshot.c reads them out.
 *
 * This header is what the arch offers and the snapshot tracer (trace/snapshot/) uses: the
 * register set, the per-CPU ring page, and snapshot_sink, the hook through which the tracer
 * learns of each snapshot. The arch never includes the tracer's header. Portable code
 * reaches this header through kernel/arch.h.
 */
#ifndef ARCH_X86_SNAPSHOT_H
#define ARCH_X86_SNAPSHOT_H

#include <stdbool.h>
#include <stdint.h>

/* The interrupted context, as its TSS held it at the int3. eip is the instruction after
 * the int3 (a trap). */
struct snapshot_regs {
    uint32_t eax, ebx, ecx, edx, esi, edi, ebp, esp;
    uint32_t eip, eflags, cr3;
    uint16_t cs, ss, ds, es, fs, gs;
    uint16_t back_link;     /* the TSS selector the debug task returns to */
    uint16_t bad_segments;  /* bit per segment register (DS ES FS GS) found invalid and
                             * replaced by the null selector so the return could not fault */
};

#define SNAPSHOT_BAD_DS 1
#define SNAPSHOT_BAD_ES 2
#define SNAPSHOT_BAD_FS 4
#define SNAPSHOT_BAD_GS 8

/* The debug task calls this for each snapshot (interrupts off, on the debug task's own
 * stack): the tracer records it. NULL: nobody records (the snapshot is still counted). */
extern void (*snapshot_sink)(const struct snapshot_regs *regs, uint32_t number, uint64_t delta);

/* Installs the debug TSS and the vector 3 task gate. */
void snapshot_arch_init(void);

/* For the benchmark: vector 3 through the task gate (true), or through an interrupt gate
 * whose handler records the same snapshot from the trap frame (false). */
void snapshot_use_task_gate(bool task_gate);

/* The last snapshots of this CPU, kept in its one-page ring (Ebbert's 2003 patch's per-CPU
 * page). */
struct snapshot_record {
    uint32_t number;
    uint64_t tsc;
    struct snapshot_regs regs;
};
const struct snapshot_record *snapshot_ring_get(uint32_t back, uint32_t *count);

#endif
