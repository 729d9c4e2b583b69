/*
 * arch_inline.h - the kernel/arch.h functions that sit on tracing hot paths, as inline
 * x86 code: a function call would cost more than the instruction it wraps. Included by
 * kernel/arch.h in kernel builds only; host tests link plain functions instead.
 */
#ifndef ARCH_X86_ARCH_INLINE_H
#define ARCH_X86_ARCH_INLINE_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/smp.h" /* MAX_CPUS */

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

/* A serializing instruction (cpuid): every instruction this CPU fetches after it is read
 * from memory as it is now, code another CPU patched included (Intel SDM vol. 3A 8.1.3). */
static inline void arch_serialize(void)
{
    uint32_t a = 0, b, c, d;
    __asm__ volatile("cpuid" : "+a"(a), "=b"(b), "=c"(c), "=d"(d) : : "memory");
}

static inline uint64_t arch_cycles(void)
{
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
}

/* arch_cycles() - *last as one subtraction with borrow of the counter's two halves; the
 * high half of the difference, zero or not, is the flag the caller branches on. The ring
 * buffer's fast path (trace/core/ring_buffer.h) times every event with it: written as a
 * 64-bit subtraction in C, the compiler moves both halves through the stack first. */
static inline bool arch_cycles_since(const uint64_t *last, uint32_t *since)
{
    const volatile uint32_t *half = (const volatile uint32_t *)last; /* little-endian */
    uint32_t low, high;
    bool far;
    __asm__ volatile("rdtsc\n\t"
                     "subl %3, %0\n\t"
                     "sbbl %4, %1"
                     : "=&a"(low), "=&d"(high), "=@ccnz"(far) /* &: written by rdtsc */
                     : "m"(half[0]), "m"(half[1]));             /* before these are read */
    (void)high;
    *since = low;
    return !far;
}

/* *t += n: one add and one add-with-carry on memory. In C the compiler sets a register to
 * zero for the carry, and the ring buffer's fast path has none to spare. */
static inline void arch_cycles_add(uint64_t *t, uint32_t n)
{
    uint32_t *half = (uint32_t *)t; /* little-endian */
    __asm__("addl %2, %0\n\t"
            "adcl $0, %1"
            : "+m"(half[0]), "+m"(half[1])
            : "r"(n)
            : "cc");
}

/*
 * Which CPU runs this code: the limit of the descriptor at SEL_CPU_NUMBER, which each CPU's
 * own GDT sets to that CPU's number (arch/x86/gdt.c), read with LSL ("load segment
 * limit"). Why this and not the alternatives:
 *   - the local APIC id needs a memory-mapped uncached read plus a table lookup from APIC
 *     id to CPU number;
 *   - a per-CPU segment in FS or GS is lost on every trap (trap_entry.asm loads the kernel
 *     data segment into all four) and belongs to user TLS on the way back;
 *   - LSL touches only the GDT the CPU already uses, needs no register reserved, works in
 *     any task (the double-fault and int3 tasks too) and costs two instructions (zeroing
 *     the result, LSL with the selector read from memory, sel_cpu_number in gdt.c); Linux's
 *     vDSO getcpu uses the same trick.
 * Before gdt_init (early boot) the boot loader's GDT has no such descriptor: LSL then
 * clears ZF and leaves the destination alone, which starts as 0. Volatile: a task that
 * moves to another CPU must not keep an old answer.
 */
#define SEL_CPU_NUMBER 0x78
extern const uint16_t sel_cpu_number; /* SEL_CPU_NUMBER in memory: LSL reads it from there */
static inline unsigned arch_cpu_id(void)
{
    unsigned id = 0;
    __asm__ volatile("lsl %1, %0" : "+r"(id) : "m"(sel_cpu_number) : "cc");
    return id;
}

/* How many CPUs are online (arch/x86/smp_boot.c counts them as they come up). */
extern volatile unsigned cpus_online;
static inline unsigned arch_cpu_count(void) { return cpus_online; }

/* True while this CPU runs a hardware interrupt handler (trace flags show 'h'); _on: for a
 * caller that has this CPU's number (arch_cpu_id()) already. */
extern volatile int hardirq_depth[MAX_CPUS];
static inline bool arch_in_hardirq_on(unsigned cpu) { return hardirq_depth[cpu] > 0; }
static inline bool arch_in_hardirq(void) { return arch_in_hardirq_on(arch_cpu_id()); }

#endif
