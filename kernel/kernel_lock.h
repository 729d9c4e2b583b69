/*
 * kernel_lock.h - the big kernel lock: one CPU at a time runs the process side of the kernel.
 *
 * Everything that manages processes (the scheduler's queues, tasks, files, pipes, the
 * terminal, IPC, memory maps, the trace files' control side) was written for one CPU,
 * where turning interrupts off was the whole locking. Rather than give each of them a
 * lock of its own at once, the kernel does what Linux 2.0 to 2.4 did: a CPU takes this one
 * lock when it enters the kernel from ring 3 (a system call, a fault, an interrupt of a
 * program) and when a device interrupt arrives, and gives it back when it returns to
 * ring 3 or goes idle. So at most one CPU at a time runs that code, while programs run in
 * ring 3 on every CPU at once. Interrupts off still excludes this CPU's own handlers.
 *
 * The lock belongs to a CPU, not to a task: taking it again on the same CPU (an interrupt
 * arriving while a system call runs) only counts one level deeper. A task that sleeps
 * keeps nothing: schedule() hands the CPU, lock included, to the next task, which gives
 * it back when it leaves the kernel. Kernel threads (the shell) run holding it, and let
 * waiting CPUs in at their preemption points (cond_resched: kernel_lock_break).
 *
 * What does not take it: the tracers' fast paths (ring buffer, ftrace, kprobes, mmiotrace
 * faults, snapshots), which are per-CPU and lockless; the cross-CPU calls (kernel/smp.h);
 * work an idle CPU runs for smp_run_on; exceptions raised in kernel mode, which run under
 * whatever lock the interrupted code holds.
 */
#ifndef KERNEL_KERNEL_LOCK_H
#define KERNEL_KERNEL_LOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/arch.h"
#include "kernel/lock_debug.h"
#include "kernel/panic.h"

/* Times this CPU found the lock held by another and had to wait, and the loop iterations
 * it waited: make bench and /proc/kernel_lock show how much the lock costs. */
struct kernel_lock_stats {
    uint64_t taken;    /* outermost acquisitions */
    uint64_t contended; /* of which found it held by another CPU */
    uint64_t spins;     /* waiting-loop iterations, in all */
    uint64_t sleeps;    /* times it halted until the holder let go */
};

/* The lock's state, for the inline fast paths below (kernel/kernel_lock.c owns it): the
 * holding CPU's number plus one (0: free), the CPUs halted until it is let go (a bit
 * each), and each CPU's depth and counters, on a cache line of its own. */
extern volatile uint32_t kernel_lock_owner;
extern volatile uint32_t kernel_lock_sleepers;
struct kernel_lock_cpu {
    unsigned depth;
    struct kernel_lock_stats stats;
} __attribute__((aligned(64)));
extern struct kernel_lock_cpu kernel_lock_cpus[];

/* The waiting half of kernel_lock, and kernel_unlock's wake-up of a halted waiter. */
void kernel_lock_contended(unsigned me);
void kernel_lock_wake_sleeper(unsigned me);

/*
 * Takes the lock for this CPU (one level deeper if it holds it already). Interrupts must
 * be off; while it waits (spinning, then halted until the holder lets go), the CPU still
 * answers cross-CPU calls, so a CPU holding the lock may wait for it (a TLB shootdown, a
 * code patch) without a deadlock. Returns with interrupts off.
 *
 * Inline because every entry from ring 3 takes it: uncontended, it is the depth test, one
 * locked compare-and-exchange and two stores (about 12 instructions, against about 40 for
 * the call it was); only a CPU that finds the lock held calls kernel_lock_contended.
 */
static inline void kernel_lock(void)
{
    unsigned me = arch_cpu_id();
    struct kernel_lock_cpu *c = &kernel_lock_cpus[me];
    /* With interrupts on, one arriving between the exchange below and the depth's store
     * would find the lock taken by its own CPU at depth 0, and wait for itself forever. */
    if (__builtin_expect(lock_debug_enabled, 0) && arch_irqs_enabled())
        panic("kernel_lock: called with interrupts on");
    if (c->depth) {
        c->depth++;
        return;
    }
    c->stats.taken++;
    uint32_t free = 0;
    if (__builtin_expect(!__atomic_compare_exchange_n(&kernel_lock_owner, &free, me + 1, false,
                                                      __ATOMIC_ACQUIRE, __ATOMIC_RELAXED), 0))
        kernel_lock_contended(me);
    c->depth = 1;
}

/* Takes the lock only if this CPU holds it already or it is free: true when taken (give
 * it back with kernel_unlock), false at once otherwise. Interrupts must be off. For the
 * timer tick, which must not wait behind a long system call on another CPU. */
bool kernel_trylock(void);

/*
 * Gives back one level; the lock is free once the outermost level is given back. Inline
 * for the same reason as kernel_lock: the outermost level is one exchange (the store of 0
 * must be ordered before the read of the sleepers, so it is a locked one) and a load.
 */
static inline void kernel_unlock(void)
{
    unsigned me = arch_cpu_id();
    struct kernel_lock_cpu *c = &kernel_lock_cpus[me];
    if (--c->depth == 0) {
        __atomic_store_n(&kernel_lock_owner, 0, __ATOMIC_SEQ_CST);
        if (__builtin_expect(__atomic_load_n(&kernel_lock_sleepers, __ATOMIC_SEQ_CST) != 0, 0))
            kernel_lock_wake_sleeper(me);
    }
}

/* kernel_unlock as a function, for assembly (arch/x86/switch.asm). */
void kernel_unlock_call(void);

/* How deep this CPU holds the lock (0: not at all). schedule() keeps it across a switch. */
static inline unsigned kernel_lock_depth(void) { return kernel_lock_cpus[arch_cpu_id()].depth; }
static inline void kernel_lock_set_depth(unsigned depth)
{
    kernel_lock_cpus[arch_cpu_id()].depth = depth;
}
/* The same two for a caller that has this CPU's number (cpu) already: the task switch. */
static inline unsigned kernel_lock_depth_on(unsigned cpu) { return kernel_lock_cpus[cpu].depth; }
static inline void kernel_lock_set_depth_on(unsigned cpu, unsigned depth)
{
    kernel_lock_cpus[cpu].depth = depth;
}

/* Lets a CPU waiting for the lock in, when one waits: a preemption point of a long loop
 * that holds the lock at depth 1 (cond_resched). Interrupts must be off. */
void kernel_lock_break(void);

void kernel_lock_stats(unsigned cpu, struct kernel_lock_stats *out);

#endif
