/*
 * exceptions_events.h - exceptions/page_fault_user and page_fault_kernel with Linux 6.1's
 * fields and print format (arch/x86/include/asm/trace/exceptions.h): every page fault, as
 * the trap dispatch (arch/x86/trap.c) takes it and before anything handles it, from user
 * mode or from the kernel (mmiotrace's armed pages, a bad pointer met by a copy).
 * Costs one load and a branch on the page-fault path while off (tracepoint.h).
 */
#ifndef TRACE_EVENTS_EXCEPTIONS_EVENTS_H
#define TRACE_EVENTS_EXCEPTIONS_EVENTS_H

#include <stdbool.h>
#include <stdint.h>

#include "trace/events/tracepoint.h"

extern struct trace_event_call event_page_fault_user, event_page_fault_kernel;

/* True when the page fault event for a fault from user mode (from_user) or the kernel is
 * on: the call site reads CR2 and records only then. */
static inline bool trace_page_fault_enabled(bool from_user)
{
    return from_user ? tracepoint_enabled(event_page_fault_user)
                     : tracepoint_enabled(event_page_fault_kernel);
}

/* Records a page fault at address (CR2), of the instruction at ip, with the CPU's code. */
void record_page_fault(bool from_user, uint32_t address, uint32_t ip, uint32_t error_code);

#endif
