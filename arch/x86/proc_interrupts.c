/*
 * proc_interrupts.c - /proc/interrupts: how many times each PIC line has fired, so a user
 * can see that the console really is interrupt-driven and the timer ticks.
 */
#include "arch/x86/trap.h"
#include "kernel/shell/console.h"
#include "kernel/init.h"
#include "kernel/fs/fs_tree.h"

static const char *const irq_names[IRQ_COUNT] = {
    [0] = "timer (PIT)", [4] = "COM1 console",
};

const char *irq_name(int irq)
{
    return irq >= 0 && irq < IRQ_COUNT && irq_names[irq] ? irq_names[irq] : "";
}

static int read_interrupts(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    fs_puts(out, " IRQ       count  device\n");
    for (int irq = 0; irq < IRQ_COUNT; irq++)
        if (irq_count(irq) || irq_names[irq])
            fs_printf(out, "%4d %11llu  %s\n", irq, (unsigned long long)irq_count(irq),
                      irq_name(irq));
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
