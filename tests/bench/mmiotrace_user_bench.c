/*
 * mmiotrace_user_bench.c - `make bench` rows of a program's access to a mapped BAR, traced
 * and not (issue 23). The user program bar_bench measures them itself with the TSC (see
 * user/programs/bar_bench.c) and prints `BENCH NAME VALUE` lines, which tools/bench.sh
 * names and adds to the table. It needs edu, so tools/bench.sh runs it in a boot of its
 * own with `--devices edu`; without edu it says so and measures nothing.
 */
#include "drivers/pci/pci.h"
#include "kernel/bench.h"
#include "kernel/log/printk.h"
#include "kernel/proc/programs.h"
#include "kernel/proc/task_internal.h"

BENCHMARK(mmiotrace_user)
{
    bool edu = false;
    for (const struct pci_device *d = pci_devices(); d; d = d->next)
        edu |= d->vendor == 0x1234 && d->device == 0x11e8;
    const struct program *p = program_find("bar_bench");
    char *argv[] = { "bar_bench" };
    struct task *t;
    if (!edu) {
        printk("bench: mmiotrace_user: needs edu (make bench runs it with --devices edu)\n");
        return;
    }
    if (!p || process_spawn(p->name, p->image, p->size, 1, argv, &t) != 0) {
        printk("bench: mmiotrace_user: cannot start bar_bench (boot it as a module)\n");
        return;
    }
    int status;
    task_wait(t, &status, 0, 0);
    if (status != 0)
        printk("bench: mmiotrace_user: bar_bench ended with status %d\n", status);
}
