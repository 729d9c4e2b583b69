/*
 * event_pid.c - set_event_pid, set_event_notrace_pid and options/event-fork: trace events
 * recorded only for the tasks listed (trace/core/trace_pid_filter.h has the rules).
 *
 * trace_event_reserve (trace_events.h), through which every event writer reserves, tests
 * trace_event_pids.active and then asks trace_event_pid_ignored() (both in trace_events.c,
 * which the host tests link without this file's tracefs files) about the running pid
 * (current_pid: in an interrupt, the interrupted task's, as Linux attributes it). As on
 * Linux, a sched_switch is also kept when its next task is listed, and a sched_wakeup (and
 * sched_wakeup_new) when the woken task is, whoever runs: their recorders name that task
 * (tracepoint_reserve_about).
 */
#include "kernel/fs/fs_layout.h"
#include "kernel/init.h"
#include "kernel/proc/task.h"
#include "trace/core/trace.h"
#include "trace/events/trace_events.h"

static const struct trace_flag event_fork_flag = { .value = &trace_event_pids.follow_fork };

static void event_pid_init(void)
{
    struct fs_node *root = tracefs_root();
    trace_pid_filter_create(&trace_event_pids, root, "set_event_pid", "set_event_notrace_pid");
    trace_create_flag_file(fs_mkdir_at(root, "options"), "event-fork", &event_fork_flag);
}
INITCALL(trace, event_pid_init);
