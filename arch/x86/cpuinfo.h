/*
 * cpuinfo.h - what each CPU says about itself through CPUID, read on that CPU as it comes
 * up (arch/x86/smp_boot.c), for /proc/cpuinfo (arch/x86/proc_cpuinfo.c).
 */
#ifndef ARCH_X86_CPUINFO_H
#define ARCH_X86_CPUINFO_H

#include <stdint.h>

/* Reads this CPU's identification into the table under its CPU number. */
void cpuinfo_capture_this_cpu(void);

#endif
