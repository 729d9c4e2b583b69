/*
 * st_traps.c - self-tests of exceptions, interrupts, the clock and the crash reports.
 */
#include "arch/x86/timer.h"
#include "arch/x86/trap.h"
#include "kernel/arch.h"
#include "kernel/log/printk.h"
#include "kernel/selftest.h"
#include "kernel/spinlock.h"
#include "kernel/lib/symbols.h"
#include "kernel/lib/string.h"
#include "kernel/time.h"
#include "tests/guest/guest_helpers.h"

static void divide_by_zero(void *arg)
{
    (void)arg;
    /* In asm: gcc may turn a C division by a known divisor into something that cannot trap. */
    __asm__ volatile("xor %%edx, %%edx; mov $1, %%eax; div %0" ::"r"(0) : "eax", "edx");
}

static void invalid_opcode(void *arg)
{
    (void)arg;
    __asm__ volatile("ud2");
}

static void null_write(void *arg)
{
    (void)arg;
    *(volatile int *)0 = 1;
}

static void bad_segment(void *arg)
{
    (void)arg;
    /* Selector 0x1000 lies beyond the GDT's limit: #GP with the selector as error code. */
    __asm__ volatile("mov %0, %%fs" ::"r"(0x1000) : "memory");
}

static void no_fault(void *arg) { *(int *)arg = 42; }

static void nested_catch(void *arg)
{
    struct caught_fault inner;
    *(bool *)arg = arch_call_catching_faults(invalid_opcode, 0, &inner) && inner.vector == 6;
    null_write(0); /* the outer catcher must still be armed */
}

/* Exceptions are recovered with the right vector, error code and address, and the kernel
 * carries on afterwards: the machinery later tests and user-pointer checks rely on. */
SELFTEST(exception_recovery)
{
    struct caught_fault f;
    int out = 0;
    ST_CHECK(arch_call_catching_faults(divide_by_zero, 0, &f) && f.vector == 0);
    ST_CHECK(arch_call_catching_faults(invalid_opcode, 0, &f) && f.vector == 6);
    ST_CHECK(arch_call_catching_faults(null_write, 0, &f));
    ST_CHECK(f.vector == 14 && f.cr2 == 0 && (f.error_code & 2)); /* a write, page absent */
    ST_CHECK(arch_call_catching_faults(bad_segment, 0, &f) && f.vector == 13);
    ST_CHECK(f.error_code == 0x1000);
    ST_CHECK(!arch_call_catching_faults(no_fault, &out, &f) && out == 42);
    bool inner_ok = false;
    ST_CHECK(arch_call_catching_faults(nested_catch, &inner_ok, &f) && f.vector == 14);
    ST_CHECK(inner_ok);
    ST_CHECK(arch_irqs_enabled());
}

/* The timer interrupt ticks, the TSC was calibrated, and time_ns moves forward with them. */
SELFTEST(clock)
{
    ST_CHECK(arch_cycles_khz() > 1000);
    uint64_t t0 = time_ns(), tick0 = timer_ticks();
    while (timer_ticks() < tick0 + 10)
        arch_wait_for_interrupt();
    uint64_t t1 = time_ns();
    ST_CHECK(t1 > t0);
    /* 10 ticks of 10 ms: at least half of that by the TSC as well. Not all of it: without
     * -icount QEMU delivers the ticks a stalled host made late in a quick burst (its PIT
     * catches up), so a loaded host shortens a few of them. */
    ST_CHECK(t1 - t0 >= 50000000ull);
    ST_CHECK(irq_count(0) >= 10);
}

SELFTEST(spinlock_irqsave)
{
    static struct spinlock lock = SPINLOCK_INIT("test");
    ST_CHECK(arch_irqs_enabled());
    unsigned long outer = spin_lock_irqsave(&lock);
    ST_CHECK(!arch_irqs_enabled() && lock.locked);
    unsigned long inner = arch_irq_save(); /* nested: interrupts were already off */
    arch_irq_restore(inner);
    ST_CHECK(!arch_irqs_enabled());
    spin_unlock_irqrestore(&lock, outer);
    ST_CHECK(arch_irqs_enabled() && !lock.locked);
}

SELFTEST(symbols)
{
    const struct symbol_table *t = kernel_symbols();
    uint32_t offset, size;
    ST_CHECK(t->count > 100);
    const char *name = symbol_lookup(t, (uint32_t)(uintptr_t)&time_init + 3, &offset, &size);
    ST_CHECK(name && strcmp(name, "time_init") == 0 && offset == 3 && size > 3);
    ST_CHECK(symbol_address(t, "kmain") != 0);
    ST_CHECK(symbol_lookup(t, 0x10, &offset, &size) == 0);
}

/* --- crash tests: each ends the kernel; tests/run_all.sh checks the report ------------- */

CRASHTEST(stack_overflow)
{
    printk("stack_overflow: recursing until the stack hits its guard page\n");
    recurse_deeply(0);
}

static void __attribute__((noinline)) write_to_bad_address(void)
{
    *(volatile uint32_t *)0xdead0000u = 0x1234;
}

CRASHTEST(page_fault_report)
{
    printk("page_fault_report: writing to an unmapped address\n");
    write_to_bad_address();
}
