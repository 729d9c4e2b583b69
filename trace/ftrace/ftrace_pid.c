/*
 * ftrace_pid.c - set_ftrace_pid, set_ftrace_notrace_pid and options/function-fork: the
 * function and function_graph tracers record only the calls of the tasks listed
 * (trace/core/trace_pid_filter.h has the rules). The handlers (ftrace_pid_skips) test
 * ftrace_pids.active, then ftrace_pid_ignored() for the running pid; kprobes on function
 * entries are events and follow set_event_pid instead, as on Linux.
 */
#include "kernel/fs/fs_layout.h"
#include "kernel/init.h"
#include "kernel/proc/task.h"
#include "trace/ftrace/ftrace_internal.h"

struct trace_pid_filter ftrace_pids;

bool ftrace_pid_ignored(void) { return trace_pid_filter_ignores(&ftrace_pids, current_pid); }

static const struct trace_flag function_fork_flag = { .value = &ftrace_pids.follow_fork };

static void ftrace_pid_init(void)
{
    struct fs_node *root = tracefs_root();
    trace_pid_filter_create(&ftrace_pids, root, "set_ftrace_pid", "set_ftrace_notrace_pid");
    trace_create_flag_file(fs_mkdir_at(root, "options"), "function-fork", &function_fork_flag);
}
INITCALL(trace, ftrace_pid_init);
