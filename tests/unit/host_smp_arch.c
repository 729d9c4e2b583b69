/* host_smp_arch.c - kernel/arch.h for host tests where POSIX threads act as CPUs (issue 19):
 * each thread says which CPU it is (host_smp_become_cpu), and then arch_cpu_id() answers
 * that number in that thread, arch_cpu_count() how many CPUs the test runs, and the
 * interrupt flag is the thread's own. The clock is CLOCK_MONOTONIC, one clock every thread
 * reads, so timestamps from different "CPUs" order as a synchronized TSC does. Used instead
 * of host_arch.c, never with it. */
#include "tests/unit/host_smp_arch.h"

#include <time.h>

static _Thread_local unsigned this_cpu;
static _Thread_local bool irqs_on = true;
static unsigned cpu_count = 1;

void host_smp_set_cpus(unsigned count) { cpu_count = count; }
void host_smp_become_cpu(unsigned cpu) { this_cpu = cpu; }

unsigned long arch_irq_save(void)
{
    unsigned long was = irqs_on;
    irqs_on = false;
    return was;
}

void arch_irq_restore(unsigned long flags) { irqs_on = flags != 0; }
bool arch_irqs_enabled(void) { return irqs_on; }
void arch_cpu_relax(void) { __builtin_ia32_pause(); }
bool arch_in_hardirq(void) { return false; }
bool arch_in_hardirq_on(unsigned cpu) { (void)cpu; return false; }
unsigned arch_cpu_count(void) { return cpu_count; }
unsigned arch_cpu_id(void) { return this_cpu; }

uint64_t arch_cycles(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

bool arch_cycles_since(const uint64_t *last, uint32_t *since)
{
    uint64_t advance = arch_cycles() - *last;
    *since = (uint32_t)advance;
    return (advance >> 32) == 0;
}

void arch_cycles_add(uint64_t *t, uint32_t n) { *t += n; }
