/*
 * mutex.h - mutual exclusion between tasks in thread context, held across code that may
 * sleep or take long (rendering a file, allocating): Linux's struct mutex, here for the
 * tracefs files that need one (event_trigger.c's trigger lists, Linux's event_mutex).
 *
 * A task that finds the mutex held sleeps (uninterruptibly: the holder only ever holds it
 * for one file operation) until the holder's mutex_unlock wakes it. Never from an interrupt
 * handler or with a spinlock held. The test and the sleep happen with interrupts off, as
 * sleep_on asks. No unlock can come between them from another CPU either: every task runs
 * this code holding the big kernel lock (kernel/kernel_lock.h), which the unlocking task
 * would need too. Work handed to another CPU (smp_run_on) runs without that lock and
 * must not take a mutex.
 */
#ifndef KERNEL_MUTEX_H
#define KERNEL_MUTEX_H

#include "kernel/arch.h"
#include "kernel/proc/sched.h"

struct mutex {
    volatile uint32_t locked;
    const char *name;
};

#define MUTEX_INIT(n) { 0, (n) }

/* Returns holding m, after sleeping while another task holds it. */
static inline void mutex_lock(struct mutex *m)
{
    unsigned long flags = arch_irq_save();
    while (__atomic_exchange_n(&m->locked, 1, __ATOMIC_ACQUIRE))
        sleep_on_uninterruptible(m);
    arch_irq_restore(flags);
}

/* Releases m and wakes the tasks waiting for it (one of them takes it, the others sleep
 * again). */
static inline void mutex_unlock(struct mutex *m)
{
    __atomic_store_n(&m->locked, 0, __ATOMIC_RELEASE);
    wake_up(m);
}

#endif
