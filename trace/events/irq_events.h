/*
 * irq_events.h - irq/irq_handler_entry and irq_handler_exit with Linux 6.1's fields and
 * print formats (include/trace/events/irq.h), recorded around each PIC line's handler
 * (arch/x86/trap.c, through kernel/trace_hooks.h); the name is the one /proc/interrupts
 * shows for the line. Each costs one load and a branch while off.
 */
#ifndef TRACE_EVENTS_IRQ_EVENTS_H
#define TRACE_EVENTS_IRQ_EVENTS_H

#include "trace/events/tracepoint.h"

extern struct trace_event_call event_irq_handler_entry, event_irq_handler_exit;

#endif
