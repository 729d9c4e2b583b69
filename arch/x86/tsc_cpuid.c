/*
 * tsc_cpuid.c - the TSC's rate from CPUID leaves 0x15, 0x16 and 0x40000010 (tsc_cpuid.h).
 *
 * Leaf 0x15 (Intel SDM vol. 2A, CPUID): TSC Hz = crystal Hz (ECX) * EBX / EAX. Leaf 0x16:
 * the base frequency in MHz, which the TSC runs at on CPUs with an invariant TSC. Leaf
 * 0x40000010 exists under hypervisors that publish it (KVM with QEMU's
 * vmware-cpuid-freq, VMware): EAX is the TSC's kHz.
 */
#include "arch/x86/tsc_cpuid.h"

#define HV_TSC_LEAF 0x40000010u

uint32_t tsc_khz_from_cpuid(const struct tsc_cpuid *c, enum tsc_khz_source *source)
{
    *source = TSC_KHZ_NONE;
    if (c->hypervisor && c->hv_max_leaf >= HV_TSC_LEAF && c->hv_max_leaf < HV_TSC_LEAF + 0x100 &&
        c->hv_tsc_khz) {
        *source = TSC_KHZ_HYPERVISOR;
        return c->hv_tsc_khz;
    }
    if (c->max_leaf >= 0x15 && c->leaf15_eax && c->leaf15_ebx && c->leaf15_ecx) {
        uint64_t khz = (uint64_t)c->leaf15_ecx * c->leaf15_ebx / c->leaf15_eax / 1000;
        if (khz && khz <= UINT32_MAX) {
            *source = TSC_KHZ_CRYSTAL;
            return (uint32_t)khz;
        }
    }
    if (c->max_leaf >= 0x16 && c->leaf16_eax && c->leaf16_eax < 100000) {
        *source = TSC_KHZ_BASE_MHZ;
        return c->leaf16_eax * 1000;
    }
    return 0;
}
