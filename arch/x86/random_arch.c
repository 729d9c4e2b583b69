/*
 * random_arch.c - RDRAND, the CPU's own random numbers, for kernel/random.c
 * (kernel/arch.h: arch_random_word).
 */
#include "kernel/arch.h"

/* CPUID leaf 1, ECX bit 30: the CPU has RDRAND. Asked once; the answer never changes. */
static bool cpu_has_rdrand(void)
{
    static int known = -1;
    if (known < 0) {
        uint32_t a, b, c, d;
        __asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0), "c"(0));
        bool has = false;
        if (a >= 1) {
            __asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(1), "c"(0));
            has = (c >> 30) & 1;
        }
        known = has;
    }
    return known == 1;
}

/* Intel asks for up to 10 tries: RDRAND may briefly have nothing (CF clear). */
bool arch_random_word(uint32_t *out)
{
    if (!cpu_has_rdrand())
        return false;
    for (int tries = 0; tries < 10; tries++) {
        uint32_t v;
        uint8_t ok;
        __asm__ volatile("rdrand %0; setc %1" : "=r"(v), "=qm"(ok) : : "cc");
        if (ok) {
            *out = v;
            return true;
        }
    }
    return false;
}
