/*
 * trace_pid_filter.h - which tasks a tracer records, by pid: the pair of files Linux has
 * twice, set_event_pid / set_event_notrace_pid (trace events) and set_ftrace_pid /
 * set_ftrace_notrace_pid (the function tracers), with their options/event-fork and
 * options/function-fork.
 *
 * A task is ignored when the pid list is not empty and lacks its pid, or the notrace list
 * has it. Writing a list: Linux's syntax (trace_pid_list.h); '>' replaces the list, '>>'
 * and a program's further writes add to it, `echo > file` empties it; a rejected write
 * (EINVAL, ENOMEM) leaves the list as it was. Reading lists the pids, one a line, in order.
 * With the fork option on, a task forked by a listed task is listed too (in either list),
 * and a task leaves both lists when it is freed, as Linux follows sched_process_fork and
 * sched_process_free.
 *
 * Writers test `active` first (one load and a branch when no list is set), then
 * trace_pid_filter_ignores() for the running pid, in any context. Lists change in place,
 * word by word, under the filter's lock with interrupts off: a writer on this CPU never sees
 * half a change, one on another CPU sees each pid either as before or as after.
 */
#ifndef TRACE_CORE_TRACE_PID_FILTER_H
#define TRACE_CORE_TRACE_PID_FILTER_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/spinlock.h"
#include "trace/core/trace_pid_list.h"

struct fs_node;

struct trace_pid_filter {
    volatile bool active;          /* either list is not empty */
    bool follow_fork;              /* options/event-fork, options/function-fork */
    struct trace_pid_list pids;    /* set_*_pid */
    struct trace_pid_list no_pids; /* set_*_notrace_pid */
    struct spinlock lock;          /* changes to the lists */
    struct trace_pid_filter *next; /* the filters the fork and exit hooks update */
};

/* Whether the task with this pid goes unrecorded. */
static inline bool trace_pid_filter_ignores(const struct trace_pid_filter *f, int32_t pid)
{
    return (f->pids.count != 0 && !trace_pid_list_has(&f->pids, pid)) ||
           trace_pid_list_has(&f->no_pids, pid);
}

/* Creates the two files in dir (names: "set_event_pid", "set_event_notrace_pid", ...) and
 * registers the filter with the fork and exit hooks. At boot, from an initcall. */
void trace_pid_filter_create(struct trace_pid_filter *f, struct fs_node *dir,
                             const char *pid_file, const char *notrace_file);

#endif
