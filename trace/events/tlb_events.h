/*
 * tlb_events.h - tlb/tlb_flush with Linux's fields and print format
 * (include/trace/events/tlb.h): every TLB flush a CPU makes of a user address space
 * (arch/x86/tlb_shootdown.c, through kernel/trace_hooks.h), with why (the reason field:
 * a CR3 load on a task switch, a shootdown this CPU received or made for itself, or the
 * IPI it sent) and how many pages (-1: the whole TLB). One load and a branch while off.
 */
#ifndef TRACE_EVENTS_TLB_EVENTS_H
#define TRACE_EVENTS_TLB_EVENTS_H

#include "trace/events/tracepoint.h"

extern struct trace_event_call event_tlb_flush;

#endif
