/* test_tsc_cpuid.c - the TSC's rate from CPUID leaves: which leaf wins, and what is refused. */
#include "unit.h"

#include "arch/x86/tsc_cpuid.h"

/* QEMU's TCG CPUs (qemu32, the default): max leaf 4 or so, no hypervisor bit. */
TEST(no_leaf_states_it)
{
    struct tsc_cpuid c = { .max_leaf = 4 };
    enum tsc_khz_source s;
    CHECK_EQ_INT(tsc_khz_from_cpuid(&c, &s), 0);
    CHECK_EQ_INT(s, TSC_KHZ_NONE);
}

/* A leaf above max_leaf is not there, whatever the caller read. */
TEST(leaves_above_max_leaf_ignored)
{
    struct tsc_cpuid c = { .max_leaf = 0x14, .leaf15_eax = 2, .leaf15_ebx = 200,
                           .leaf15_ecx = 24000000, .leaf16_eax = 2400 };
    enum tsc_khz_source s;
    CHECK_EQ_INT(tsc_khz_from_cpuid(&c, &s), 0);
}

/* Skylake-like: a 24 MHz crystal, ratio 200/2: 2.4 GHz. */
TEST(crystal_times_ratio)
{
    struct tsc_cpuid c = { .max_leaf = 0x16, .leaf15_eax = 2, .leaf15_ebx = 200,
                           .leaf15_ecx = 24000000, .leaf16_eax = 2300 };
    enum tsc_khz_source s;
    CHECK_EQ_INT(tsc_khz_from_cpuid(&c, &s), 2400000);
    CHECK_EQ_INT(s, TSC_KHZ_CRYSTAL);
}

/* Crystal not enumerated (ECX 0): the base frequency of leaf 0x16. */
TEST(base_mhz_when_no_crystal)
{
    struct tsc_cpuid c = { .max_leaf = 0x16, .leaf15_eax = 2, .leaf15_ebx = 200,
                           .leaf15_ecx = 0, .leaf16_eax = 2600 };
    enum tsc_khz_source s;
    CHECK_EQ_INT(tsc_khz_from_cpuid(&c, &s), 2600000);
    CHECK_EQ_INT(s, TSC_KHZ_BASE_MHZ);
}

/* A zero denominator or numerator: leaf 0x15 says nothing. */
TEST(zero_ratio_refused)
{
    struct tsc_cpuid c = { .max_leaf = 0x15, .leaf15_eax = 0, .leaf15_ebx = 200,
                           .leaf15_ecx = 24000000 };
    enum tsc_khz_source s;
    CHECK_EQ_INT(tsc_khz_from_cpuid(&c, &s), 0);
    c.leaf15_eax = 2;
    c.leaf15_ebx = 0;
    CHECK_EQ_INT(tsc_khz_from_cpuid(&c, &s), 0);
}

/* The hypervisor's leaf wins over the CPU's, but only with the hypervisor bit and a max
 * hypervisor leaf that reaches it (and is a hypervisor range, not garbage). */
TEST(hypervisor_leaf)
{
    struct tsc_cpuid c = { .max_leaf = 0x16, .leaf15_eax = 2, .leaf15_ebx = 200,
                           .leaf15_ecx = 24000000, .hypervisor = true,
                           .hv_max_leaf = 0x40000010, .hv_tsc_khz = 2995200 };
    enum tsc_khz_source s;
    CHECK_EQ_INT(tsc_khz_from_cpuid(&c, &s), 2995200);
    CHECK_EQ_INT(s, TSC_KHZ_HYPERVISOR);
    c.hypervisor = false;
    CHECK_EQ_INT(tsc_khz_from_cpuid(&c, &s), 2400000);
    c.hypervisor = true;
    c.hv_max_leaf = 0x40000001;
    CHECK_EQ_INT(tsc_khz_from_cpuid(&c, &s), 2400000);
    c.hv_max_leaf = 0xffffffff;
    CHECK_EQ_INT(tsc_khz_from_cpuid(&c, &s), 2400000);
    c.hv_max_leaf = 0x40000010;
    c.hv_tsc_khz = 0;
    CHECK_EQ_INT(tsc_khz_from_cpuid(&c, &s), 2400000);
}
