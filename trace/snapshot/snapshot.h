/*
 * snapshot.h - CPU-state snapshots taken by `int3` through a task gate (after Chuck Ebbert's
 * 2003 patch "Debugging i386 using hardware task").
 *
 * Vector 3 is a task gate to a debug task. Executing int3 anywhere makes the CPU save every
 * register of the running context into that context's TSS and switch to the debug task,
 * which reads the saved state, the TSC and its own counter, records a snapshot, and returns
 * with iret through the back link. arch/x86/snapshot.c does the x86 part; this header is
 * what the tracer (trace/snapshot/snapshot.c) and tests see.
 */
#ifndef TRACE_SNAPSHOT_SNAPSHOT_H
#define TRACE_SNAPSHOT_SNAPSHOT_H

#include <stdbool.h>
#include <stdint.h>

#include "trace/core/trace.h"

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

/* TRACE_CPU_SNAPSHOT: the record one TRACE_SNAPSHOT() (one int3) leaves. */
struct snapshot_entry {
    struct trace_entry ent;
    uint32_t number;        /* this CPU's snapshot count, 1, 2, ... */
    uint64_t delta;         /* TSC cycles since this CPU's previous snapshot (0 for the first) */
    struct snapshot_regs regs;
};

#define SNAPSHOT_BAD_DS 1
#define SNAPSHOT_BAD_ES 2
#define SNAPSHOT_BAD_FS 4
#define SNAPSHOT_BAD_GS 8

/* Takes a snapshot here: one int3. */
#define TRACE_SNAPSHOT() __asm__ volatile("int3" ::: "memory")

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

/* Prints a snapshot event: "snapshot #N +CYCLES cycles at func+off: eax=... ...". */
void snapshot_print(struct fs_writer *out, const struct trace_event_view *ev);

#endif
