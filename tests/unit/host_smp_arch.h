/* host_smp_arch.h - threads as CPUs for host tests (tests/unit/host_smp_arch.c). */
#ifndef TESTS_UNIT_HOST_SMP_ARCH_H
#define TESTS_UNIT_HOST_SMP_ARCH_H

#include "kernel/arch.h"

/* How many CPUs arch_cpu_count() reports (set before starting the threads). */
void host_smp_set_cpus(unsigned count);
/* The calling thread is CPU cpu from now on: arch_cpu_id() returns it in this thread. */
void host_smp_become_cpu(unsigned cpu);

#endif
