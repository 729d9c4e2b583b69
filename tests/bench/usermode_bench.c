/*
 * usermode_bench.c - `make bench` rows measured by a user program: what user_events costs
 * the program that emits them (user/programs/ue_bench.c measures, with the TSC, which user
 * mode may read). The kernel starts the program, enables its traced event as soon as the
 * program has registered it, and waits for it to end; the program prints its rows as
 * `BENCH NAME VALUE` lines, which tools/bench.sh adds to the table.
 */
#include "kernel/fs/fs_layout.h"
#include "kernel/bench.h"
#include "kernel/lib/errno.h"
#include "kernel/log/printk.h"
#include "kernel/proc/task_internal.h"
#include "kernel/proc/programs.h"
#include "kernel/proc/sched.h"
#include "kernel/fs/fs_tree.h"

#define ENABLE_FILE "events/user_events/ue_bench/enable"
#define POLL_NS 1000000u

/* Writes "1" to the event's enable file once the program has registered the event; false
 * if the program ended first. */
static bool enable_when_registered(struct task *t)
{
    for (;;) {
        int err;
        struct fs_node *enable = tracefs_lookup(ENABLE_FILE, &err);
        if (enable)
            return enable->ops->write(enable, "1\n", 2, false) == 0;
        if (t->state == TASK_ZOMBIE)
            return false;
        sleep_ns(POLL_NS);
    }
}

BENCHMARK(user_events)
{
    const struct program *p = program_find("ue_bench");
    char *argv[] = { "ue_bench" };
    struct task *t;
    if (!p || process_spawn(p->name, p->image, p->size, 1, argv, &t) != 0) {
        printk("bench: user_events: cannot start ue_bench (boot it as a module)\n");
        return;
    }
    bool enabled = enable_when_registered(t);
    int status;
    task_wait(t, &status, 0, 0);
    if (!enabled || status != 0)
        printk("bench: user_events: ue_bench failed (status %d)\n", status);
}
