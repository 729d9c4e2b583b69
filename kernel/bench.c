/*
 * bench.c - runs the benchmarks and reports their rows (see bench.h).
 */
#include "kernel/bench.h"

#include "kernel/arch.h"
#include "kernel/lock_debug.h"
#include "kernel/log/printk.h"
#include "kernel/notrace.h"
#include "kernel/lib/string.h"

#define MAX_ROWS 64

extern const struct benchmark benchmarks_start[], benchmarks_end[];

static struct {
    const char *row;
    uint64_t value;
    const char *unit;
} rows[MAX_ROWS];
static int row_count;

void bench_report(const char *row, uint64_t value, const char *unit)
{
    printk("bench: %-44s %12llu %s\n", row, (unsigned long long)value, unit);
    if (row_count < MAX_ROWS) {
        rows[row_count].row = row;
        rows[row_count].value = value;
        rows[row_count].unit = unit;
        row_count++;
    }
}

/* What an iteration costs with nothing in it: the loop and the call. noipa, not just
 * noinline: the compiler saw through noinline that the function does nothing and dropped
 * the whole loop, so the empty iteration cost 0 and every row carried the loop and the call
 * (6 instructions: the loop's 5, and the return). notrace: no ftrace call site, as the
 * benchmark functions (tests/bench/, built without one) have none. */
static notrace void __attribute__((noipa)) empty_iteration(void *arg)
{
    (void)arg;
}

/* Total cycles for iterations calls of fn(arg), interrupts off so no tick lands inside. */
static uint64_t cycles_for(void (*fn)(void *), void *arg, uint32_t iterations)
{
    unsigned long flags = arch_irq_save();
    uint64_t start = arch_cycles();
    for (uint32_t i = 0; i < iterations; i++)
        fn(arg);
    uint64_t cycles = arch_cycles() - start;
    arch_irq_restore(flags);
    return cycles;
}

uint64_t bench_cost(void (*fn)(void *), void *arg, uint32_t iterations)
{
    uint64_t empty = cycles_for(empty_iteration, 0, iterations);
    uint64_t full = cycles_for(fn, arg, iterations);
    return full > empty ? (full - empty) / iterations : 0;
}

/* True when name is in the comma-separated list, or the list is empty. */
static bool selected(const char *list, const char *name)
{
    size_t len = strlen(name);
    if (!*list)
        return true;
    for (const char *p = list; p;) {
        const char *comma = strchr(p, ',');
        size_t item = comma ? (size_t)(comma - p) : strlen(p);
        if (item == len && strncmp(p, name, len) == 0)
            return true;
        p = comma ? comma + 1 : 0;
    }
    return false;
}

void bench_run(const char *which)
{
    if ((const struct benchmark *)benchmarks_start == benchmarks_end) {
        printk("bench: this kernel has no benchmarks: they are linked into "
               "build/tracekern-test.elf (make bench runs it)\n");
        arch_exit_emulator(EXIT_FAIL);
    }
    /* Read first: the guest time the boot took, firmware and the kernel's fixed waits (the
     * clock's calibration) included; make bench compares it with a kernel built without
     * the function tracer's hooks. */
    uint64_t booted = arch_cycles();
    printk("bench: cycle counter %u kHz (1000000 under -icount shift=0: one per instruction)\n",
           arch_cycles_khz());
    bench_report("boot: power-on to the benchmarks", booted, "cycles");
    /* The rows are tracekern.elf's prices. Linking the self-tests turns lock debugging on
     * in this kernel (tests/guest/st_lock_debug.c), which adds its checks to every spinlock
     * a measured path takes (mmiotrace's mapping lookup, for one): it stays off while the
     * benchmarks run, and the spinlock benchmark measures it on its own. No CPU holds a
     * lock here: the others idle, and this one runs the boot thread between initcalls. */
    lock_debug_enabled = false;
    for (const struct benchmark *b = benchmarks_start; b < benchmarks_end; b++)
        if (selected(which, b->name))
            b->run();
    printk("BENCH-JSON [");
    for (int i = 0; i < row_count; i++)
        printk("%s{\"row\": \"%s\", \"value\": %llu, \"unit\": \"%s\"}", i ? ", " : "",
               rows[i].row, (unsigned long long)rows[i].value, rows[i].unit);
    printk("]\n");
    arch_exit_emulator(EXIT_PASS);
}
