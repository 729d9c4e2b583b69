/*
 * signal_events.h - signal/signal_generate and signal_deliver with Linux 6.1's fields and
 * print formats (include/trace/events/signal.h): a signal sent to a process (kill, tkill,
 * SIGCHLD, SIGALRM) with what became of it, and a signal taken by its task on the way back
 * to user mode, with the action that runs. Recorded through kernel/trace_hooks.h; each
 * costs one load and a branch while off.
 */
#ifndef TRACE_EVENTS_SIGNAL_EVENTS_H
#define TRACE_EVENTS_SIGNAL_EVENTS_H

#include "trace/events/tracepoint.h"

extern struct trace_event_call event_signal_generate, event_signal_deliver;

#endif
