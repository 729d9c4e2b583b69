/*
 * arch_inline.h - the kernel/arch.h functions that sit on tracing hot paths, as inline
 * x86 code: a function call would cost more than the instruction it wraps. Included by
 * kernel/arch.h in kernel builds only; host tests link plain functions instead.
 */
#ifndef ARCH_X86_ARCH_INLINE_H
#define ARCH_X86_ARCH_INLINE_H

#include <stdbool.h>
#include <stdint.h>

static inline unsigned long arch_irq_save(void)
{
    unsigned long flags;
    __asm__ volatile("pushfl; popl %0; cli" : "=r"(flags) : : "memory");
    return flags & (1u << 9);
}

static inline void arch_irq_restore(unsigned long flags)
{
    if (flags)
        __asm__ volatile("sti" ::: "memory");
}

static inline bool arch_irqs_enabled(void)
{
    unsigned long flags;
    __asm__ volatile("pushfl; popl %0" : "=r"(flags));
    return flags & (1u << 9);
}

static inline uint64_t arch_cycles(void)
{
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
}

/* True while the CPU runs a hardware interrupt handler (trace flags show 'h'). */
extern volatile int hardirq_depth;
static inline bool arch_in_hardirq(void) { return hardirq_depth > 0; }

/* One CPU until SMP start-up exists. */
static inline unsigned arch_cpu_id(void) { return 0; }
static inline unsigned arch_cpu_count(void) { return 1; }

#endif
