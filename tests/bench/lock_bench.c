/*
 * lock_bench.c - what a spinlock costs (issue 19), uncontended:
 *
 *   spin_lock_irqsave+unlock, lock debugging off   tracekern.elf's price
 *   spin_lock_irqsave+unlock, lock debugging on    the self-test kernel's (one lock held
 *                                                  around it, so an order pair is looked up)
 */
#include "kernel/bench.h"
#include "kernel/lock_debug.h"
#include "kernel/spinlock.h"

#define ITERATIONS 20000

static struct spinlock bench_lock = SPINLOCK_INIT("bench_lock");
static struct spinlock bench_outer = SPINLOCK_INIT("bench_outer");

static void lock_unlock(void *arg)
{
    (void)arg;
    unsigned long flags = spin_lock_irqsave(&bench_lock);
    spin_unlock_irqrestore(&bench_lock, flags);
}

BENCHMARK(spinlock)
{
    bool was = lock_debug_enabled;
    lock_debug_enabled = false;
    bench_report("spin_lock_irqsave+unlock, lock debugging off",
                 bench_cost(lock_unlock, 0, ITERATIONS), "instructions");
    lock_debug_enabled = true;
    unsigned long flags = spin_lock_irqsave(&bench_outer);
    bench_report("spin_lock_irqsave+unlock, lock debugging on",
                 bench_cost(lock_unlock, 0, ITERATIONS), "instructions");
    spin_unlock_irqrestore(&bench_outer, flags);
    lock_debug_enabled = was;
}
