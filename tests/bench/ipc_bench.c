/*
 * ipc_bench.c - `make bench` rows for message passing: the round trip of a call between two
 * user processes (ipc_ping and ipc_pong, user/programs), measured by the client with the
 * TSC, once with IPC logging off and once with it on, in the same boot. The programs print
 * their rows as `BENCH NAME VALUE` lines, which tools/bench.sh adds to the table.
 * issue 18: a third run with the ipc/ events on (logging on too): against the second, what
 * recording a round trip's three events (call, recv, reply) costs; with them off the
 * round trip pays three disabled checks (the tracepoints row "one disabled tracepoint").
 */
#include "kernel/bench.h"
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

/* One ping-pong of ROUNDS calls; the client reports its row under label. */
static void pingpong(char *label)
{
    char *pong_argv[] = { "ipc_pong" };
    char *ping_argv[] = { "ipc_ping", ROUNDS, label };
    struct task *pong = start("ipc_pong", 1, pong_argv);
    struct task *ping = pong ? start("ipc_ping", 3, ping_argv) : 0;
    int status;
    if (ping)
        task_wait(ping, &status, 0, 0);
    if (pong)
        task_wait(pong, &status, 0, 0);
}

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
}
