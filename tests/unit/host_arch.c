/* host_arch.c - the kernel/arch.h functions portable modules call, for host tests: an
 * interrupt flag that is only a variable, and a cycle counter and CPU number that tests
 * set (host_cycles, host_cpu). */
#include "kernel/arch.h"

static bool irqs_on = true;
uint64_t host_cycles;

unsigned long arch_irq_save(void)
{
    unsigned long was = irqs_on;
    irqs_on = false;
    return was;
}

void arch_irq_restore(unsigned long flags) { irqs_on = flags != 0; }
bool arch_irqs_enabled(void) { return irqs_on; }
void arch_cpu_relax(void) {}
uint64_t arch_cycles(void) { return host_cycles; }
bool arch_in_hardirq(void) { return false; }
bool arch_in_hardirq_on(unsigned cpu) { (void)cpu; return false; }
unsigned host_cpu;
unsigned arch_cpu_count(void) { return 1; }
unsigned arch_cpu_id(void) { return host_cpu; }
/* No RDRAND on the host unless a test provides words: host_rdrand_words of them, each
 * host_rdrand_value (then incremented). */
unsigned host_rdrand_words;
uint32_t host_rdrand_value;
bool arch_random_word(uint32_t *out)
{
    if (host_rdrand_words == 0)
        return false;
    host_rdrand_words--;
    *out = host_rdrand_value++;
    return true;
}

bool arch_cycles_since(const uint64_t *last, uint32_t *since)
{
    uint64_t advance = arch_cycles() - *last;
    *since = (uint32_t)advance;
    return (advance >> 32) == 0;
}

void arch_cycles_add(uint64_t *t, uint32_t n) { *t += n; }
