/*
 * procfs_stat.c - /proc/stat, the system-wide counters of Linux's fs/proc/stat.c that top
 * reads: the "cpu" and "cpu0" lines in USER_HZ (100 per second) ticks, then procs_running
 * and procs_blocked (0: no task here sleeps uninterruptibly, Linux's D state).
 *
 * The kernel does not split a task's CPU time into user and system time, so the time of
 * every task but the idle task is "user", and the rest of the time since boot "idle"; the
 * other columns
 * (nice, system, iowait, irq, softirq, steal, guest, guest_nice) it does not keep are 0.
 * One CPU (no SMP yet): cpu0's line is the total's.
 */
#include "kernel/arch.h"
#include "kernel/fs/fs_tree.h"
#include "kernel/init.h"
#include "kernel/proc/task_internal.h"
#include "kernel/time.h"

/* Nanoseconds in USER_HZ ticks. */
static uint64_t ticks(uint64_t ns) { return ns / (1000000000u / 100u); }

static int read_stat(struct fs_node *f, struct fs_writer *out)
{
    (void)f;
    uint64_t busy_cycles = 0, now = time_ns();
    uint32_t running = 0;
    /* The task list is walked with interrupts off, as task_check_limits walks it: one CPU
     * (with SMP this would take the task list's lock). */
    unsigned long flags = arch_irq_save();
    for (struct task *t = task_list(); t; t = t->next)
        if (t != idle_task) {
            busy_cycles += t->cpu_cycles;
            running += t->state == TASK_RUNNABLE;
        }
    arch_irq_restore(flags);
    uint64_t busy = time_span_ns(busy_cycles);
    uint64_t idle = now > busy ? now - busy : 0;
    unsigned long long user = ticks(busy), idle_ticks = ticks(idle);
    fs_printf(out, "cpu  %llu 0 0 %llu 0 0 0 0 0 0\n", user, idle_ticks);
    fs_printf(out, "cpu0 %llu 0 0 %llu 0 0 0 0 0 0\n", user, idle_ticks);
    fs_printf(out, "procs_running %u\nprocs_blocked 0\n", running);
    return 0;
}

static const struct fs_file_ops stat_ops = { .read = read_stat };

static void procfs_stat_init(void)
{
    fs_set_mode(fs_create(fs_mkdir_path("proc"), "stat", &stat_ops, 0), 0444, 0, 0);
}
INITCALL(fs, procfs_stat_init);
