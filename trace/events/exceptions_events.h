/*
 * exceptions_events.h - exceptions/page_fault_user and page_fault_kernel with Linux 6.1's
 * fields and print format (arch/x86/include/asm/trace/exceptions.h): every page fault, as
 * the trap dispatch (arch/x86/trap.c, through kernel/trace_hooks.h) takes it and before
 * anything handles it, from user mode or from the kernel (mmiotrace's armed pages, a bad
 * pointer met by a copy). Costs one load and a branch on the page-fault path while off.
 */
#ifndef TRACE_EVENTS_EXCEPTIONS_EVENTS_H
#define TRACE_EVENTS_EXCEPTIONS_EVENTS_H

#include "trace/events/tracepoint.h"

extern struct trace_event_call event_page_fault_user, event_page_fault_kernel;

#endif
