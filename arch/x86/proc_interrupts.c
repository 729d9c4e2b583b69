/*
 * proc_interrupts.c - /proc/interrupts laid out as Linux lays it out
 * (fs/proc/interrupts.c, arch/x86/kernel/irq.c): a column per online CPU, one row per
 * line a handler was ever set on or that ever fired, with the chip, the pin and trigger,
 * and the device; then the rows of interrupts that are no line (NMI, spurious, the
 * inter-processor interrupts). A user sees which CPU takes what, that the console really is
 * interrupt-driven and that the timer ticks.
 *
 *            CPU0       CPU1
 *   0:        123          0   IO-APIC   2-edge      timer (PIT)
 *   4:         17          0   IO-APIC   4-edge      COM1 console
 * NMI:          0          0   Non-maskable interrupts
 */
#include "arch/x86/irq_chip.h"
#include "arch/x86/trap.h"
#include "kernel/arch.h"
#include "kernel/fs/fs_tree.h"
#include "kernel/init.h"
#include "kernel/shell/console.h"

static const char *const irq_names[IRQ_COUNT] = {
    [0] = "timer (PIT)", [4] = "COM1 console",
};

const char *irq_name(int irq)
{
    return irq >= 0 && irq < IRQ_COUNT && irq_names[irq] ? irq_names[irq] : "";
}

/* The lower rows: Linux's three-letter labels and descriptions. */
static const struct {
    const char *label, *what;
} stat_rows[IRQ_STAT_COUNT] = {
    [IRQ_STAT_NMI] = { "NMI", "Non-maskable interrupts" },
    [IRQ_STAT_LOCAL_TIMER] = { "LOC", "Local timer interrupts" },
    [IRQ_STAT_SPURIOUS] = { "SPU", "Spurious interrupts" },
    [IRQ_STAT_RESCHEDULE] = { "RES", "Rescheduling interrupts" },
    [IRQ_STAT_CALL_FUNCTION] = { "CAL", "Function call interrupts" },
    [IRQ_STAT_TLB] = { "TLB", "TLB shootdowns" },
};

static int read_interrupts(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    unsigned cpus = arch_cpu_count();
    fs_printf(out, "%11s", ""); /* as Linux: the labels end over the counts */
    for (unsigned cpu = 0; cpu < cpus; cpu++)
        fs_printf(out, "CPU%-8u", cpu);
    fs_puts(out, "\n");
    for (int irq = 0; irq < IRQ_COUNT; irq++) {
        if (!irq_count(irq) && !irq_names[irq])
            continue;
        fs_printf(out, "%3d: ", irq);
        for (unsigned cpu = 0; cpu < cpus; cpu++)
            fs_printf(out, "%10llu ", (unsigned long long)irq_count_on(cpu, irq));
        char kind[16];
        fs_printf(out, " %8s  %-10s  %s\n", irq_chip->name,
                  irq_chip->line_kind(irq, kind, sizeof kind), irq_name(irq));
    }
    for (int s = 0; s < IRQ_STAT_COUNT; s++) {
        fs_printf(out, "%3s: ", stat_rows[s].label);
        for (unsigned cpu = 0; cpu < cpus; cpu++)
            fs_printf(out, "%10llu ", (unsigned long long)irq_stat_on(cpu, (enum irq_stat)s));
        fs_printf(out, "  %s\n", stat_rows[s].what);
    }
    /* Keystrokes are never dropped silently either. */
    fs_printf(out, "COM1 input bytes dropped (queue full): %u\n", console_input_overruns());
    return 0;
}

static const struct fs_file_ops interrupts_ops = { .read = read_interrupts };

static void proc_interrupts_init(void)
{
    fs_create(fs_mkdir_path("proc"), "interrupts", &interrupts_ops, 0);
}
INITCALL(arch, proc_interrupts_init);
