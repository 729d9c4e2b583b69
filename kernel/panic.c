/*
 * panic.c - the kernel's last words.
 */
#include "kernel/panic.h"

#include <stdarg.h>

#include "kernel/arch.h"
#include "kernel/lib/format.h"
#include "kernel/lock_debug.h"
#include "kernel/log/printk.h"
#include "kernel/smp.h"

static int panicking;
static void (*last_words)(void);

void panic_register_last_words(void (*fn)(void)) { last_words = fn; }

/* Makes the rest of the report safe on a machine where other CPUs may hold any lock: lock
 * checks off and printk lock-free first (smp_stop_others itself may print, and the CPUs
 * it stops may hold printk's lock), then the stop. */
void panic_begin(void)
{
    arch_irq_save();
    lock_debug_off();
    printk_enter_emergency();
    smp_stop_others(); /* by NMI: the report is this CPU's alone (or, if another CPU
                        * is already stopping everyone, this CPU halts here) */
    if (panicking++) {
        /* A panic inside the panic report: say so once and stop, rather than recurse. */
        printk("\n*** nested panic, stopping\n");
        arch_exit_emulator(EXIT_FAIL);
    }
}

void panic_run_last_words(void)
{
    if (last_words) {
        void (*fn)(void) = last_words;
        last_words = 0; /* a crash inside them must not run them again */
        fn();
    }
}

void panic_end(const char *reason)
{
    panic_run_last_words();
    printk("Kernel panic - not syncing: %s (CPU %u of %u)\n", reason, arch_cpu_id(),
           arch_cpu_count());
    arch_exit_emulator(EXIT_FAIL);
}

void panic(const char *fmt, ...)
{
    panic_begin();
    char reason[256];
    va_list ap;
    va_start(ap, fmt);
    kvsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    printk("\n*** kernel panic on CPU %u: %s\n Call Trace:\n", arch_cpu_id(), reason);
    arch_backtrace(0);
    panic_end(reason);
}
