/*
 * spinlock.h - mutual exclusion between CPUs and against interrupt handlers.
 *
 * A waiting CPU really spins: an atomic exchange takes the lock, and while another CPU holds
 * it the waiter only reads (pause between reads), so the line is not bounced by writes.
 *
 * spin_lock_irqsave() disables interrupts first and returns whether they were on, so the
 * same lock is safe to take in thread context and in a handler; spin_unlock_irqrestore()
 * puts the flag back as it was, so nested sections do not turn interrupts on too early.
 * spin_lock()/spin_unlock() leave interrupts as they are: for locks no interrupt handler
 * takes, or code that already runs with interrupts off.
 *
 * Lock debugging (kernel/lock_debug.h, on in the self-test kernel): owner is the CPU holding
 * the lock plus one (0: free, or taken before the mode was on), and every operation is
 * checked for recursion, order inversion and release by a CPU that does not hold it.
 */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include "kernel/arch.h"

/* Host unit tests build without the checks unless they test them (-DLOCK_DEBUG_HOST). */
#if !defined(TRACEKERN_HOST) || defined(LOCK_DEBUG_HOST)
#include "kernel/lock_debug.h"
#define SPINLOCK_DEBUG_ON() __builtin_expect(lock_debug_enabled, 0)
#else
#define SPINLOCK_DEBUG_ON() 0
#define lock_debug_acquire(l) ((void)(l))
#define lock_debug_acquired_try(l) ((void)(l))
#define lock_debug_release(l) ((void)(l))
#define lock_debug_forget(l) ((void)(l))
#endif

struct spinlock {
    volatile uint32_t locked;
    const char *name;
    uint32_t owner; /* lock debugging: holding CPU + 1 */
};

#define SPINLOCK_INIT(n) { 0, (n), 0 }

/* Takes l, spinning while another CPU holds it. Interrupts are left as they are. */
static inline void spin_lock(struct spinlock *l)
{
    if (SPINLOCK_DEBUG_ON())
        lock_debug_acquire(l);
    while (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE))
        while (l->locked)
            arch_cpu_relax();
    if (SPINLOCK_DEBUG_ON())
        l->owner = arch_cpu_id() + 1;
}

static inline void spin_unlock(struct spinlock *l)
{
    if (SPINLOCK_DEBUG_ON())
        lock_debug_release(l);
    __atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
}

static inline unsigned long spin_lock_irqsave(struct spinlock *l)
{
    unsigned long flags = arch_irq_save();
    spin_lock(l);
    return flags;
}

/* Takes the lock only if it is free; returns false (interrupts as they were) otherwise.
 * For code that must not wait: an interrupt handler whose lock holder it interrupted
 * would wait forever. */
static inline bool spin_trylock_irqsave(struct spinlock *l, unsigned long *flags)
{
    *flags = arch_irq_save();
    if (!__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE)) {
        if (SPINLOCK_DEBUG_ON())
            lock_debug_acquired_try(l);
        return true;
    }
    arch_irq_restore(*flags);
    return false;
}

static inline void spin_unlock_irqrestore(struct spinlock *l, unsigned long flags)
{
    spin_unlock(l);
    arch_irq_restore(flags);
}

/* Before the memory of a lock is freed or reused (lock debugging forgets its orders). */
static inline void spin_lock_forget(struct spinlock *l)
{
    if (SPINLOCK_DEBUG_ON())
        lock_debug_forget(l);
}

#endif
