/*
 * cpu.h - single x86 instructions as C functions: port I/O, control registers, the
 * interrupt flag, the TSC. Only arch/x86 and drivers include this; portable code calls the
 * arch_* functions declared in kernel/arch.h instead.
 */
#ifndef ARCH_X86_CPU_H
#define ARCH_X86_CPU_H

#include <stdint.h>

#define EFLAGS_CF (1u << 0)
#define EFLAGS_TF (1u << 8)
#define EFLAGS_IF (1u << 9)
#define EFLAGS_DF (1u << 10)
#define EFLAGS_NT (1u << 14)

#define CR0_PE (1u << 0)
#define CR0_TS (1u << 3)
#define CR0_WP (1u << 16)
#define CR0_PG (1u << 31)

static inline void outb(uint16_t port, uint8_t v) { __asm__ volatile("outb %0, %1" ::"a"(v), "Nd"(port)); }
static inline void outw(uint16_t port, uint16_t v) { __asm__ volatile("outw %0, %1" ::"a"(v), "Nd"(port)); }
static inline void outl(uint16_t port, uint32_t v) { __asm__ volatile("outl %0, %1" ::"a"(v), "Nd"(port)); }

static inline uint8_t inb(uint16_t port)
{
    uint8_t v;
    __asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
    return v;
}

static inline uint16_t inw(uint16_t port)
{
    uint16_t v;
    __asm__ volatile("inw %1, %0" : "=a"(v) : "Nd"(port));
    return v;
}

static inline uint32_t inl(uint16_t port)
{
    uint32_t v;
    __asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
    return v;
}

/* One port access of width bytes (1, 2 or 4; the low width bytes of v for out), for code
 * whose width is known only at run time: drivers' accessors and the traced port I/O of
 * programs. */
static inline uint32_t port_in_sized(uint16_t port, unsigned width)
{
    return width == 1 ? inb(port) : width == 2 ? inw(port) : inl(port);
}

static inline void port_out_sized(uint16_t port, unsigned width, uint32_t v)
{
    if (width == 1)
        outb(port, (uint8_t)v);
    else if (width == 2)
        outw(port, (uint16_t)v);
    else
        outl(port, v);
}

static inline uint32_t read_eflags(void)
{
    uint32_t f;
    __asm__ volatile("pushfl; popl %0" : "=r"(f));
    return f;
}

static inline void cli(void) { __asm__ volatile("cli" ::: "memory"); }
static inline void sti(void) { __asm__ volatile("sti" ::: "memory"); }

#define DEFINE_READ_CR(n)                                                      \
    static inline uint32_t read_cr##n(void)                                    \
    {                                                                          \
        uint32_t v;                                                            \
        __asm__ volatile("mov %%cr" #n ", %0" : "=r"(v));                      \
        return v;                                                              \
    }
DEFINE_READ_CR(0)
DEFINE_READ_CR(2)
DEFINE_READ_CR(3)
DEFINE_READ_CR(4)
#undef DEFINE_READ_CR

static inline void write_cr0(uint32_t v) { __asm__ volatile("mov %0, %%cr0" ::"r"(v) : "memory"); }
static inline void write_cr3(uint32_t v) { __asm__ volatile("mov %0, %%cr3" ::"r"(v) : "memory"); }
static inline void write_cr4(uint32_t v) { __asm__ volatile("mov %0, %%cr4" ::"r"(v) : "memory"); }
/* CR2 is written back only by trap_dispatch, after a wait during which a nested fault may
 * have changed it. */
static inline void write_cr2(uint32_t v) { __asm__ volatile("mov %0, %%cr2" ::"r"(v)); }

#define DR6_SINGLE_STEP (1u << 14) /* BS: the #DB ends a single step (EFLAGS.TF) */

/* DR6 says why a #DB came: a single step is kprobes', mmiotrace's or a uprobe's, or a
 * debugger's otherwise. Its status bits are sticky: a handler that takes its #DB clears
 * them (write_dr6(0)) so that the next #DB is not mistaken for a step. */
static inline uint32_t read_dr6(void)
{
    uint32_t v;
    __asm__ volatile("mov %%dr6, %0" : "=r"(v));
    return v;
}
static inline void write_dr6(uint32_t v) { __asm__ volatile("mov %0, %%dr6" ::"r"(v)); }

/* CPUID leaf (subleaf 0) into *a..*d. */
static inline void cpuid_regs(uint32_t leaf, uint32_t *a, uint32_t *b, uint32_t *c, uint32_t *d)
{
    __asm__ volatile("cpuid" : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d) : "a"(leaf), "c"(0));
}

static inline void invlpg(uintptr_t va) { __asm__ volatile("invlpg (%0)" ::"r"(va) : "memory"); }

static inline uint64_t rdtsc(void)
{
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
}

/* The current frame pointer: where a backtrace of the caller starts. */
static inline uintptr_t read_ebp(void)
{
    uintptr_t v;
    __asm__ volatile("mov %%ebp, %0" : "=r"(v));
    return v;
}

#endif
