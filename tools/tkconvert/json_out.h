/*
 * json_out.h - writes a decoded capture in the Trace Event Format (the JSON that Perfetto
 * and chrome://tracing load):
 *   - function_graph calls as complete ("X") slices, nested per CPU and task:
 *     ftrace/funcgraph_entry .. funcgraph_exit paired by depth, tracekern/funcgraph_leaf a
 *     slice of its own, each from its calltime to its rettime (the durations `cat trace`
 *     prints);
 *   - system calls as "X" slices named after the call: raw_syscalls sys_enter/sys_exit
 *     (named from the syscalls events' numbers when the trace has them, else "syscall N")
 *     and syscalls sys_enter_NAME/sys_exit_NAME;
 *   - a call still open at the end as a begin ("B") event;
 *   - trace_marker writes (ftrace/print) as instant ("i") events named by their text;
 *   - every other event (mmiotrace, snapshots, user events, function, ...) as an instant
 *     event named after it, its fields as args;
 *   - lost events as global instant events "lost events" with the CPU and count;
 *   - process and thread names ("M") from saved_cmdlines.
 * pid and tid are the task's pid; timestamps are microseconds with three decimals (ns).
 * Every string is escaped: the output is valid JSON whatever the capture held.
 */
#ifndef TOOLS_TKCONVERT_JSON_OUT_H
#define TOOLS_TKCONVERT_JSON_OUT_H

#include <stdio.h>

#include "tools/tkconvert/trace_model.h"

/* Writes t to out. Returns 0, or -1 when memory ran out or out failed. */
int tk_json_write(const struct tk_trace *t, FILE *out);

#endif
