/*
 * ipc_bench.c - `make bench` rows for message passing: the round trip of a call between two
 * user processes (ipc_ping and ipc_pong, user/programs), measured by the client with the
 * TSC, once with IPC logging off and once with it on, in the same boot. The programs print
 * their rows as `BENCH NAME VALUE` lines, which tools/bench.sh adds to the table.
 * issue 18: a third run with the ipc/ events on (logging on too): against the second, what
 * recording a round trip's three events (call, recv, reply) costs; with them off the
 * round trip pays three disabled checks (the tracepoints row "one disabled tracepoint").
 */
#include "kernel/arch.h"
#include "kernel/bench.h"
#include "kernel/kernel_lock.h"
#include "kernel/smp.h"
#include "kernel/ipc/ipc.h"
#include "kernel/log/printk.h"
#include "kernel/proc/task_internal.h"
#include "kernel/proc/programs.h"
#include "kernel/proc/sched.h"
#include "trace/events/ipc_events.h"

#define ROUNDS "2000"

/* Starts program name with its arguments; NULL (reported) when it cannot. */
static struct task *start(const char *name, int argc, char **argv)
{
    const struct program *p = program_find(name);
    struct task *t;
    if (!p || process_spawn(p->name, p->image, p->size, argc, argv, &t) != 0) {
        printk("bench: ipc: cannot start %s (boot it as a module)\n", name);
        return 0;
    }
    return t;
}

#define ANY_CPU (~0u)

/* One ping-pong of ROUNDS calls, the client pinned to the CPUs of ping_cpus and the server
 * to those of pong_cpus (before either runs); the client reports its row under label. With
 * regs, both run with -r: register messages, ipc_call_regs against ipc_reply_recv_regs. */
static void pingpong_with(char *label, uint32_t ping_cpus, uint32_t pong_cpus, bool regs)
{
    char *pong_argv[] = { "ipc_pong", "-r" };
    char *ping_argv[] = { "ipc_ping", "-r", ROUNDS, label };
    if (!regs)
        ping_argv[1] = ROUNDS, ping_argv[2] = label;
    unsigned long flags = arch_irq_save(); /* neither may run before it is pinned */
    struct task *pong = start("ipc_pong", regs ? 2 : 1, pong_argv);
    struct task *ping = pong ? start("ipc_ping", regs ? 4 : 3, ping_argv) : 0;
    if (pong)
        sched_setaffinity(pong, pong_cpus);
    if (ping)
        sched_setaffinity(ping, ping_cpus);
    arch_irq_restore(flags);
    int status;
    if (ping)
        task_wait(ping, &status, 0, 0);
    if (pong)
        task_wait(pong, &status, 0, 0);
}

static void pingpong_on(char *label, uint32_t ping_cpus, uint32_t pong_cpus)
{
    pingpong_with(label, ping_cpus, pong_cpus, false);
}

static void pingpong(char *label) { pingpong_on(label, ANY_CPU, ANY_CPU); }

/* issue 20: the ping-pong with register messages, the IPC fast path (docs/ipc.md, 17). */
static void pingpong_regs(char *label) { pingpong_with(label, ANY_CPU, ANY_CPU, true); }

BENCHMARK(ipc)
{
    ipc_logging_set(false);
    pingpong("ipc_roundtrip_logging_off");
    ipc_logging_set(true);
    pingpong("ipc_roundtrip_logging_on");
    /* issue 18, ipc events */
    struct trace_event_call *ipc_events[] = { &event_ipc_call, &event_ipc_recv, &event_ipc_reply,
                                              &event_ipc_send };
    for (unsigned i = 0; i < 4; i++)
        trace_event_set_enabled(ipc_events[i], true);
    pingpong("ipc_roundtrip_ipc_events_on");
    for (unsigned i = 0; i < 4; i++)
        trace_event_set_enabled(ipc_events[i], false);
    rb_reset(trace_buffer());
    /* issue 20: register messages, the fast path; with IPC logging on it steps aside. Last,
     * so that the rows above run as they always did (the ipc log's pages as they were). */
    ipc_logging_set(false);
    pingpong_regs("ipc_roundtrip_regs_logging_off");
    ipc_logging_set(true);
    pingpong_regs("ipc_roundtrip_regs_logging_on");
}

/* issue 19: the round trip with client and server on one CPU (each call switches between
 * them there) and on two (each call wakes the other CPU by a reschedule IPI). CPU 0 runs
 * this benchmark's kernel thread, which only waits; the pair uses CPUs 1 and 2 when there
 * are three, else 0 and 1. */
BENCHMARK(ipc_smp)
{
    unsigned n = arch_cpu_count();
    if (n < 2) {
        printk("bench: ipc_smp: needs 2 CPUs (make bench runs it with --smp 4)\n");
        return;
    }
    unsigned a = n >= 3 ? 1 : 0, b = a + 1;
    ipc_logging_set(false);
    pingpong_on("ipc_roundtrip_same_cpu", 1u << b, 1u << b);
    struct kernel_lock_stats before[MAX_CPUS], after;
    for (unsigned cpu = 0; cpu < n; cpu++)
        kernel_lock_stats(cpu, &before[cpu]);
    pingpong_on("ipc_roundtrip_cross_cpu", 1u << b, 1u << a);
    /* What the big kernel lock cost the cross-CPU pair: both CPUs enter the kernel for
     * every call, so each may find the other holding it. */
    uint64_t taken = 0, contended = 0, spins = 0;
    for (unsigned cpu = 0; cpu < n; cpu++) {
        kernel_lock_stats(cpu, &after);
        taken += after.taken - before[cpu].taken;
        contended += after.contended - before[cpu].contended;
        spins += after.spins - before[cpu].spins;
    }
    printk("bench: ipc_smp: cross CPU, the kernel lock was taken %llu times, %llu of them "
           "found it held (%llu waiting iterations)\n", (unsigned long long)taken,
           (unsigned long long)contended, (unsigned long long)spins);
    /* issue 20: the same with register messages: on one CPU the fast path's direct switch,
     * on two the slow path (the partner last ran on the other CPU). */
    pingpong_with("ipc_roundtrip_regs_same_cpu", 1u << b, 1u << b, true);
    pingpong_with("ipc_roundtrip_regs_cross_cpu", 1u << b, 1u << a, true);
}
