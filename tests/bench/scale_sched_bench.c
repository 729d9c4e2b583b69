/*
 * scale_sched_bench.c - the scheduler's scale curves (issue 24, `make bench BENCH=scale`):
 * getpid_by_processes and ipc_roundtrip_sleepers. For each size P this starts sleepers
 * (user/programs/sched_scale.c `sleep K`: half in pause, half in a day's nanosleep) until P
 * of them sleep, then `sched_scale measure P`, which prints its `SCALE CURVE SIZE VALUE`
 * lines itself; at the end it kills the sleepers.
 *
 * A thousand sleeping processes need more tasks than task_limit() allows with the 128 MiB
 * of the main benchmark boot, so tools/bench.sh boots this one again with 1 GiB; in a boot
 * with too little memory it says so and measures nothing. When the kernel cannot start
 * all sleepers of a size (its heap is full), the last point is at the number it started.
 */
#include "kernel/arch.h"
#include "kernel/bench.h"
#include "kernel/lib/format.h"
#include "kernel/log/printk.h"
#include "kernel/proc/sched.h"
#include "kernel/proc/task_internal.h"
#include "kernel/proc/programs.h"
#include "kernel/time.h"
#include "kernel/ipc/ipc.h"

#define LARGEST 1000
/* The sleepers, the measuring program and its server, the shell and the idle task, with
 * room to spare. */
#define TASKS_NEEDED (LARGEST + 16)
/* Sleepers given back when the heap is full, for the measuring program and its server. */
#define ROOM 16

static struct task *sleepers[LARGEST];

/* Starts sched_scale with arguments a and b; NULL (reported) when it cannot. */
static struct task *start(const struct program *p, char *a, unsigned b)
{
    char number[12];
    ksnprintf(number, sizeof number, "%u", b);
    char *argv[] = { "sched_scale", a, number };
    struct task *t;
    int err = process_spawn(p->name, p->image, p->size, 3, argv, &t);
    if (err) {
        printk("bench: scale_sched: cannot start sched_scale %s %u: error %d\n", a, b, err);
        return 0;
    }
    return t;
}

BENCHMARK(scale_sched)
{
    if (task_limit() < TASKS_NEEDED) {
        printk("bench: scale_sched: needs %u tasks, this boot allows %u (tools/bench.sh boots "
               "it with --memory 1024)\n", TASKS_NEEDED, task_limit());
        return;
    }
    const struct program *p = program_find("sched_scale");
    if (!p) {
        printk("bench: scale_sched: no program sched_scale (boot it as a module)\n");
        return;
    }
    /* IPC logging off, as the README's ipc_roundtrip_logging_off: each call would log a line
     * with the pids in decimal, and the pids grow with the sleepers (a digit more at 10
     * and at 100), which is not the scheduler's cost. */
    ipc_logging_set(false);
    static const unsigned sizes[] = { 0, 10, 100, LARGEST };
    unsigned made = 0;
    for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        while (made < sizes[s] && (sleepers[made] = start(p, "sleep", made)))
            made++;
        bool short_of = made < sizes[s];
        for (unsigned room = 0; short_of && room < ROOM && made > 0; room++) {
            int status; /* room for the measuring program and its server */
            task_kill(sleepers[--made], 9, 0, 0);
            task_wait(sleepers[made], &status, 0, 0);
        }
        if (short_of && (s == 0 || made <= sizes[s - 1]))
            break;
        if (short_of) /* the last point is then the most the kernel could start */
            printk("bench: scale_sched: only %u sleepers could be started (the kernel heap's "
                   "cap, kernel/mm/heap.c): the last point is at %u\n", made, made);
        sleep_ns(50000000); /* 50 ms: every new sleeper has reached its sleep */
        struct task *m = start(p, "measure", made);
        int status = -1;
        if (m)
            task_wait(m, &status, 0, 0);
        if (status != 0) {
            printk("bench: scale_sched: sched_scale measure %u ended with status %d (its "
                   "BENCH-ERROR lines say why)\n", made, status);
            break;
        }
        if (short_of)
            break;
    }
    int status;
    for (unsigned i = 0; i < made; i++)
        task_kill(sleepers[i], 9, 0, 0);
    for (unsigned i = 0; i < made; i++)
        task_wait(sleepers[i], &status, 0, 0);
    ipc_logging_set(true); /* as it is from boot */
}
