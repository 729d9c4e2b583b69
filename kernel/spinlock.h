/*
 * spinlock.h - mutual exclusion between CPUs and against interrupt handlers.
 *
 * spin_lock_irqsave() disables interrupts first and returns whether they were on, so the
 * same lock is safe to take in thread context and in a handler; spin_unlock_irqrestore()
 * puts the flag back as it was, so nested sections do not turn interrupts on too early.
 */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include "kernel/arch.h"

struct spinlock {
    volatile uint32_t locked;
    const char *name;
};

#define SPINLOCK_INIT(n) { 0, (n) }

static inline unsigned long spin_lock_irqsave(struct spinlock *l)
{
    unsigned long flags = arch_irq_save();
    while (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE))
        while (l->locked)
            arch_cpu_relax();
    return flags;
}

/* Takes the lock only if it is free; returns false (interrupts as they were) otherwise.
 * For code that must not wait: an interrupt handler whose lock holder it interrupted
 * would wait forever. */
static inline bool spin_trylock_irqsave(struct spinlock *l, unsigned long *flags)
{
    *flags = arch_irq_save();
    if (!__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE))
        return true;
    arch_irq_restore(*flags);
    return false;
}

static inline void spin_unlock_irqrestore(struct spinlock *l, unsigned long flags)
{
    __atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
    arch_irq_restore(flags);
}

#endif
