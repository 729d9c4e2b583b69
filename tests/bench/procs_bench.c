/*
 * procs_bench.c - `make bench` rows of what processes cost: fork+exit+wait, execve of
 * busybox, a signal delivered and returned, a pipe round trip of one byte. The user program
 * proc_bench measures them itself with the TSC (see user/programs/proc_bench.c) and prints
 * `BENCH NAME VALUE` lines, which tools/bench.sh adds to the table, or `BENCH-ERROR NAME:
 * ...` for a row it could not measure, which tools/bench.sh shows as that row's error.
 * The kernel only starts it and waits for it.
 */
#include "kernel/bench.h"
#include "kernel/log/printk.h"
#include "kernel/proc/task_internal.h"
#include "kernel/proc/programs.h"

BENCHMARK(procs)
{
    const struct program *p = program_find("proc_bench");
    char *argv[] = { "proc_bench" };
    struct task *t;
    if (!p || process_spawn(p->name, p->image, p->size, 1, argv, &t) != 0) {
        printk("bench: procs: cannot start proc_bench (boot it as a module)\n");
        return;
    }
    int status;
    task_wait(t, &status, 0, 0);
    if (status != 0)
        printk("bench: procs: proc_bench ended with status %d (its BENCH-ERROR lines say why)\n",
               status);
}
