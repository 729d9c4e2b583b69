/*
 * hang_command.c - the `hang` command: this CPU stops answering, on purpose.
 *
 * It turns interrupts off and spins forever, as a kernel caught in a deadlock would: no
 * timer, no console input, no panic handler. What the machine knew is then only in its
 * memory, which is what tests of post-mortem tools need (tests/ipc_dump/dump_test.sh dumps
 * it through QEMU's monitor and rebuilds the IPC logs from the dump).
 */
#include "kernel/arch.h"
#include "kernel/shell/shell.h"

/* Never returns: the line it prints is the last thing this CPU does. */
static int cmd_hang(int argc, char **argv, struct fs_writer *out)
{
    (void)argv;
    if (argc != 1)
        return SHELL_USAGE;
    arch_irq_save();
    fs_puts(out, "hang: spinning with interrupts off\n");
    for (;;)
        arch_cpu_relax();
}
SHELL_COMMAND("hang", "hang", "stop this CPU on purpose: interrupts off, spinning forever",
              cmd_hang);
