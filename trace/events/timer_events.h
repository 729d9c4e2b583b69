/*
 * timer_events.h - timer/hrtimer_start, hrtimer_cancel, hrtimer_expire_entry and
 * hrtimer_expire_exit with Linux 6.1's fields and print formats (include/trace/events/
 * timer.h), for the timers tracekern has:
 *  - the tick (arch/x86/timer.c): expire_entry/exit around each PIT tick's work, hrtimer =
 *    the tick counter's address, function = timer_tick (what runs; Linux's periodic tick
 *    runs as tick_sched_timer). It is never started or cancelled: it is periodic, and like
 *    Linux's tick it re-arms without an hrtimer_start;
 *  - a task's sleep timeout (nanosleep, poll, waits with a timeout: kernel/proc/sched.c):
 *    start when the sleep begins (mode REL, expires = the deadline in ns of time_ns()),
 *    expire_entry/exit when the tick finds it due and wakes the task (function =
 *    sched_wake_task), cancel when the task wakes before it. hrtimer = &task->sleep_timer;
 *  - a task's SIGALRM timer (alarm, setitimer ITIMER_REAL: kernel/syscall/sys_process.c):
 *    start when set (mode REL), cancel when set again or to 0 while armed, or when the task
 *    exits with it armed, expire_entry/exit of signal_alarm_expired when due; an interval
 *    timer re-arms itself there without a new start, as Linux's it_real_fn does.
 *    hrtimer = &task->alarm.
 * Hooks in kernel/trace_hooks.h: each costs one load and a branch while off.
 */
#ifndef TRACE_EVENTS_TIMER_EVENTS_H
#define TRACE_EVENTS_TIMER_EVENTS_H

#include "trace/events/tracepoint.h"

extern struct trace_event_call event_hrtimer_start, event_hrtimer_cancel,
    event_hrtimer_expire_entry, event_hrtimer_expire_exit;

#endif
