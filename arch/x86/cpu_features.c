/*
 * cpu_features.c - what a new program learns about the CPU from its auxiliary vector:
 * AT_HWCAP (the feature bits of CPUID leaf 1, EDX, as Linux's i386 ELF_HWCAP) and the 16
 * bytes behind AT_RANDOM.
 */
#include "kernel/arch.h"

#include "arch/x86/cpu.h"

#define CPUID1_ECX_RDRAND (1u << 30)

uint32_t arch_hwcap(void)
{
    uint32_t a, b, c, d;
    cpuid_regs(1, &a, &b, &c, &d);
    return d;
}

/* One 32-bit value from RDRAND; false when the CPU has none to give (it may run dry). */
static bool rdrand32(uint32_t *out)
{
    uint8_t ok;
    __asm__ volatile("rdrand %0; setc %1" : "=r"(*out), "=qm"(ok));
    return ok;
}

/* A 32-bit mix of the cycle counter: its low bits change on every read, and the
 * multiply-xorshift spreads them over the word. Weaker than RDRAND, never predictable to a
 * program that cannot read the counter at the same instant. */
static uint32_t cycle_mix(uint32_t state)
{
    uint64_t t = rdtsc();
    uint32_t x = state ^ (uint32_t)t ^ (uint32_t)(t >> 32) * 0x9e3779b9u;
    x ^= x >> 16, x *= 0x7feb352du, x ^= x >> 15, x *= 0x846ca68bu, x ^= x >> 16;
    return x;
}

void arch_random_bytes(void *buf, size_t len)
{
    uint32_t a, b, c, d;
    cpuid_regs(1, &a, &b, &c, &d);
    bool have_rdrand = c & CPUID1_ECX_RDRAND;
    static uint32_t state; /* carries the mix over calls; a race only mixes more */
    uint8_t *out = buf;
    while (len > 0) {
        uint32_t word;
        if (!have_rdrand || !rdrand32(&word))
            word = state = cycle_mix(state + (uint32_t)len);
        size_t n = len < 4 ? len : 4;
        for (size_t i = 0; i < n; i++)
            out[i] = (uint8_t)(word >> (8 * i));
        out += n, len -= n;
    }
}
