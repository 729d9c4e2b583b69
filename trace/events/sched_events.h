/*
 * sched_events.h - the sched/ events with Linux's names, fields and print formats
 * (include/trace/events/sched.h, Linux 6.1): sched_switch, sched_wakeup, sched_wakeup_new,
 * sched_process_fork, sched_process_exec, sched_process_exit, sched_process_wait,
 * sched_migrate_task.
 *
 * The scheduler and process code record them through kernel/trace_hooks.h's trace_sched_*()
 * where the thing happens; each costs one load and a branch while the event is off.
 * Priorities print as Linux's: 120 for every task (tracekern has no nice values).
 */
#ifndef TRACE_EVENTS_SCHED_EVENTS_H
#define TRACE_EVENTS_SCHED_EVENTS_H

#include "trace/events/tracepoint.h"

extern struct trace_event_call event_sched_switch, event_sched_wakeup, event_sched_wakeup_new,
    event_sched_process_fork, event_sched_process_exec, event_sched_process_exit,
    event_sched_process_wait, event_sched_migrate_task;

#endif
