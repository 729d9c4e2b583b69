/*
 * sched_events.h - the sched/ events with Linux's names, fields and print formats
 * (include/trace/events/sched.h, Linux 6.1): sched_switch, sched_wakeup, sched_wakeup_new,
 * sched_process_fork, sched_process_exec, sched_process_exit, sched_process_wait.
 *
 * Each trace_sched_X() is what the scheduler and process code call where the thing
 * happens; it costs one load and a branch while the event is off (tracepoint.h).
 * Priorities print as Linux's: 120 for every task (tracekern has no nice values).
 */
#ifndef TRACE_EVENTS_SCHED_EVENTS_H
#define TRACE_EVENTS_SCHED_EVENTS_H

#include "trace/events/tracepoint.h"

struct task;

extern struct trace_event_call event_sched_switch, event_sched_wakeup, event_sched_wakeup_new,
    event_sched_process_fork, event_sched_process_exec, event_sched_process_exit,
    event_sched_process_wait;

void record_sched_switch(const struct task *prev, const struct task *next);
void record_sched_wakeup(struct trace_event_call *call, const struct task *t);
void record_sched_process_fork(const struct task *parent, const struct task *child);
void record_sched_process_exec(const struct task *t, const char *filename, int old_pid);
void record_sched_process_exit(const struct task *t);
void record_sched_process_wait(const struct task *waiter, int pid);

/* schedule(): prev gives the CPU to next; called before current changes. */
static inline void trace_sched_switch(const struct task *prev, const struct task *next)
{
    if (tracepoint_enabled(event_sched_switch))
        record_sched_switch(prev, next);
}

/* A sleeping task was made runnable. */
static inline void trace_sched_wakeup(const struct task *t)
{
    if (tracepoint_enabled(event_sched_wakeup))
        record_sched_wakeup(&event_sched_wakeup, t);
}

/* A new task became runnable for the first time (Linux's wake_up_new_task). */
static inline void trace_sched_wakeup_new(const struct task *t)
{
    if (tracepoint_enabled(event_sched_wakeup_new))
        record_sched_wakeup(&event_sched_wakeup_new, t);
}

/* parent made child (fork, vfork, clone; and `run`, which forks and execs in one step). */
static inline void trace_sched_process_fork(const struct task *parent, const struct task *child)
{
    if (tracepoint_enabled(event_sched_process_fork))
        record_sched_process_fork(parent, child);
}

/* t now runs the program at filename. */
static inline void trace_sched_process_exec(const struct task *t, const char *filename,
                                            int old_pid)
{
    if (tracepoint_enabled(event_sched_process_exec))
        record_sched_process_exec(t, filename, old_pid);
}

/* t (the current task) begins to exit. */
static inline void trace_sched_process_exit(const struct task *t)
{
    if (tracepoint_enabled(event_sched_process_exit))
        record_sched_process_exit(t);
}

/* waiter begins to wait for pid (Linux's do_wait: 0 for any child). */
static inline void trace_sched_process_wait(const struct task *waiter, int pid)
{
    if (tracepoint_enabled(event_sched_process_wait))
        record_sched_process_wait(waiter, pid);
}

#endif
