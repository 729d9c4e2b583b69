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
 *   - at most TK_JSON_MAX_OPEN calls open per task, CPU and kind (function_graph, system
 *     calls): an entry beyond them is an instant event named after its record, and so is an
 *     exit that closes no open call. So each exit searches at most that many calls, and
 *     the time is linear in the records, whatever the capture holds;
 *   - trace_marker writes (ftrace/print) as instant ("i") events named by their text;
 *   - every other event (mmiotrace, snapshots, user events, function, ...) as an instant
 *     event named after it, its fields as args;
 *   - lost events as global instant events "lost events" with the CPU and count;
 *   - process and thread names ("M") from saved_cmdlines.
 * pid is the task's pid, and so is tid, but for the idle task (pid 0), which runs on every
 * CPU at once: its track on CPU N has tid TK_JSON_IDLE_TID + N, named "<idle>/N", so that
 * slices of different CPUs never share a track. Timestamps are microseconds with three
 * decimals (ns).
 * Every string is escaped: the output is valid JSON whatever the capture held.
 */
#ifndef TOOLS_TKCONVERT_JSON_OUT_H
#define TOOLS_TKCONVERT_JSON_OUT_H

#include <stdio.h>

#include "tools/tkconvert/trace_model.h"

/* Calls open at once per task, CPU and kind: Linux's function_graph return stack
 * (FTRACE_RETFUNC_DEPTH) is 50 deep, so a real trace never nests deeper. */
#define TK_JSON_MAX_OPEN 50
/* The tid of the idle task's track on CPU 0 (CPU N: + N): above every pid Linux gives
 * (PID_MAX_LIMIT, 4194304), so no task's track is the idle's. */
#define TK_JSON_IDLE_TID 1000000000LL

/* Writes t to out. Returns 0, or -1 when memory ran out or out failed. */
int tk_json_write(const struct tk_trace *t, FILE *out);

#endif
