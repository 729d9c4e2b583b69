/*
 * tsc_cpuid.h - the TSC's rate where the CPU or the hypervisor states it, so that the boot
 * need not measure it (timer.c). Portable: the leaves are read by the caller, and
 * tests/unit/test_tsc_cpuid.c feeds it the leaves of CPUs that have them and of those that
 * do not.
 */
#ifndef ARCH_X86_TSC_CPUID_H
#define ARCH_X86_TSC_CPUID_H

#include <stdbool.h>
#include <stdint.h>

/* The CPUID leaves that can state the TSC's rate, as read (0 where a leaf is absent). */
struct tsc_cpuid {
    uint32_t max_leaf;          /* leaf 0's EAX */
    uint32_t leaf15_eax;        /* leaf 0x15: TSC/crystal ratio's denominator */
    uint32_t leaf15_ebx;        /*   its numerator */
    uint32_t leaf15_ecx;        /*   the crystal's Hz (0: not enumerated) */
    uint32_t leaf16_eax;        /* leaf 0x16: the processor's base MHz */
    bool hypervisor;            /* leaf 1's ECX bit 31 */
    uint32_t hv_max_leaf;       /* leaf 0x40000000's EAX */
    uint32_t hv_tsc_khz;        /* leaf 0x40000010's EAX (QEMU/KVM, VMware): TSC kHz */
};

/* Where a rate came from (timer.c prints it). */
enum tsc_khz_source { TSC_KHZ_NONE, TSC_KHZ_HYPERVISOR, TSC_KHZ_CRYSTAL, TSC_KHZ_BASE_MHZ };

/* The TSC's rate in kHz from the leaves, and in *source which leaf gave it; 0 and
 * TSC_KHZ_NONE when none states it (the caller measures). The hypervisor's leaf first (it
 * is what the guest's TSC really runs at), then leaf 0x15's crystal times its ratio, then
 * leaf 0x16's base frequency, as Linux's native_calibrate_tsc falls back on it. */
uint32_t tsc_khz_from_cpuid(const struct tsc_cpuid *c, enum tsc_khz_source *source);

#endif
