/*
 * snapshot.h - CPU-state snapshots taken by `int3` through a task gate (after Chuck Ebbert's
 * 2003 patch "Debugging i386 using hardware task").
 *
 * Vector 3 is a task gate to a debug task. Executing int3 anywhere makes the CPU save every
 * register of the running context into that context's TSS and switch to the debug task,
 * which reads the saved state, the TSC and its own counter, records a snapshot, and returns
 * with iret through the back link. arch/x86/snapshot.c does the x86 part and declares it in
 * arch/x86/snapshot.h (registers, ring page, the snapshot_sink hook); this header adds what
 * the tracer (trace/snapshot/snapshot.c) records and prints, and TRACE_SNAPSHOT().
 */
#ifndef TRACE_SNAPSHOT_SNAPSHOT_H
#define TRACE_SNAPSHOT_SNAPSHOT_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/arch.h" /* struct snapshot_regs, snapshot_sink: arch/x86/snapshot.h */
#include "trace/core/trace.h"

/* TRACE_CPU_SNAPSHOT: the record one TRACE_SNAPSHOT() (one int3) leaves. */
struct snapshot_entry {
    struct trace_entry ent;
    uint32_t number;        /* this CPU's snapshot count, 1, 2, ... */
    uint64_t delta;         /* TSC cycles since this CPU's previous snapshot (0 for the first) */
    struct snapshot_regs regs;
};

/* Takes a snapshot here: one int3. */
#define TRACE_SNAPSHOT() __asm__ volatile("int3" ::: "memory")

/* Prints a snapshot event: "snapshot #N +CYCLES cycles at func+off: eax=... ...". */
void snapshot_print(struct fs_writer *out, const struct trace_event_view *ev);

#endif
