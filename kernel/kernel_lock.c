/*
 * kernel_lock.c - the big kernel lock (kernel/kernel_lock.h).
 *
 * owner holds the number of the CPU that has the lock plus one (0: free); only that CPU
 * changes its depth, so the depth needs no atomic access. A waiting CPU reads owner until
 * it reads 0, then tries to swap its own number in.
 */
#include "kernel/kernel_lock.h"

#include "kernel/arch.h"
#include "kernel/lock_debug.h"
#include "kernel/panic.h"
#include "kernel/smp.h"

static volatile uint32_t owner;
static volatile uint32_t waiters; /* CPUs in kernel_lock's waiting loop */
static struct {
    unsigned depth;
    struct kernel_lock_stats stats;
} __attribute__((aligned(64))) per_cpu[MAX_CPUS];

void kernel_lock(void)
{
    /* With interrupts on, one arriving between the swap below and the depth's store would
     * find the lock taken by its own CPU at depth 0, and wait for itself forever. */
    if (lock_debug_enabled && arch_irqs_enabled())
        panic("kernel_lock: called with interrupts on");
    unsigned me = arch_cpu_id();
    if (per_cpu[me].depth) {
        per_cpu[me].depth++;
        return;
    }
    uint32_t free = 0;
    per_cpu[me].stats.taken++;
    if (!__atomic_compare_exchange_n(&owner, &free, me + 1, false, __ATOMIC_ACQUIRE,
                                     __ATOMIC_RELAXED)) {
        per_cpu[me].stats.contended++;
        __atomic_add_fetch(&waiters, 1, __ATOMIC_RELAXED);
        for (;;) {
            free = 0;
            if (__atomic_load_n(&owner, __ATOMIC_RELAXED) == 0 &&
                __atomic_compare_exchange_n(&owner, &free, me + 1, false, __ATOMIC_ACQUIRE,
                                            __ATOMIC_RELAXED))
                break;
            per_cpu[me].stats.spins++;
            smp_serve_calls(); /* the holder may be waiting for this CPU */
            arch_cpu_relax();
        }
        __atomic_sub_fetch(&waiters, 1, __ATOMIC_RELAXED);
    }
    per_cpu[me].depth = 1;
}

void kernel_unlock(void)
{
    unsigned me = arch_cpu_id();
    if (--per_cpu[me].depth == 0)
        __atomic_store_n(&owner, 0, __ATOMIC_RELEASE);
}

unsigned kernel_lock_depth(void) { return per_cpu[arch_cpu_id()].depth; }

void kernel_lock_set_depth(unsigned depth) { per_cpu[arch_cpu_id()].depth = depth; }

void kernel_lock_break(void)
{
    unsigned me = arch_cpu_id();
    if (per_cpu[me].depth != 1 || !__atomic_load_n(&waiters, __ATOMIC_RELAXED))
        return;
    kernel_unlock();
    /* A waiter sees the lock free within a few of its loop's iterations. */
    while (__atomic_load_n(&waiters, __ATOMIC_RELAXED) && !__atomic_load_n(&owner, __ATOMIC_RELAXED))
        arch_cpu_relax();
    kernel_lock();
}

void kernel_lock_stats(unsigned cpu, struct kernel_lock_stats *out)
{
    *out = per_cpu[cpu].stats;
}
